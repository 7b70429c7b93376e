/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The C side of python/bench.py: writes the V1 benchmark block (the
 * Global-like block bench/perfbuf-bench.c measures: Process and Thread
 * objects, 30 counters each, 1,000 processes of 9 threads) to FILE, then
 * prints the fastest and the median time in ns of the work the Python side repeats:
 * validate the block and read every value of every instance through one
 * value plan per object.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builder_v1.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/v1.h"

static tb_v1 global_like(uint32_t processes, uint32_t threads_per_process)
{
    tb_v1 v;
    tb_v1_begin(&v, "COLLECTOR-HOST-01");
    for (int object = 0; object < 2; object++) {
        tb_v1_object_begin(&v, object == 0 ? 230 : 232, 0, 0);
        for (uint32_t k = 0; k < 30; k++) {
            int large = k < 15;
            uint32_t type = k == 0 ? PERF_100NSEC_TIMER : large ? PERF_COUNTER_LARGE_RAWCOUNT
                          : k == 15 ? PERF_COUNTER_COUNTER : PERF_COUNTER_RAWCOUNT;
            tb_v1_counter(&v, 2 * k + 2, type, large ? 8 : 4,
                          large ? 8 + 8 * k : 128 + 4 * (k - 15));
        }
        tb_v1_definitions_end(&v);
        uint32_t count = object == 0 ? processes : processes * threads_per_process;
        char name[64];
        for (uint32_t i = 0; i < count; i++) {
            uint8_t data[184];
            memset(data, 0, sizeof data);
            for (uint32_t k = 0; k < 15; k++) {
                tb_put64(data, 8 + 8 * k, (uint64_t)i * 7919u + k);
                tb_put32(data, 128 + 4 * k, i + k);
            }
            if (object == 0) {
                snprintf(name, sizeof name, i % 5 == 0 ? "svchost" : "process-%u.exe", i);
                tb_v1_instance(&v, name, 0, 0);
            } else {
                snprintf(name, sizeof name, "%u", i % threads_per_process);
                tb_v1_instance(&v, name, 230, i / threads_per_process);
            }
            tb_v1_counter_block(&v, data, sizeof data);
        }
        tb_v1_object_end(&v);
    }
    tb_v1_end(&v);
    return v;
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static volatile uint64_t sink;

static uint64_t read_every_value(const uint8_t *data, size_t len)
{
    perfbuf_v1_block blk;
    if (perfbuf_v1_parse(data, len, NULL, &blk, NULL) != PERFBUF_OK) {
        return 0;
    }
    uint64_t sum = 0;
    perfbuf_v1_iter oi, ii;
    perfbuf_v1_object o;
    perfbuf_v1_instance inst;
    perfbuf_v1_plan_entry entries[64];
    perfbuf_v1_plan plan;
    uint64_t values[64];
    perfbuf_v1_objects_begin(&blk, &oi);
    while (perfbuf_v1_objects_next(&blk, &oi, &o)) {
        if (perfbuf_v1_plan_build(&blk, &o, entries, 64, &plan) != PERFBUF_OK) {
            return 0;
        }
        perfbuf_v1_instances_begin(&o, &ii);
        while (perfbuf_v1_instances_next(&blk, &ii, &inst)) {
            if (perfbuf_v1_plan_read(&plan, &blk, &inst.counters, values, 64) == PERFBUF_OK) {
                for (uint32_t k = 0; k < plan.count; k++) {
                    sum += values[k];
                }
            }
        }
    }
    return sum;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bench_block FILE\n");
        return 2;
    }
    tb_v1 v = global_like(1000, 9);
    FILE *f = fopen(argv[1], "wb");
    if (f == NULL || fwrite(v.buf.data, 1, v.buf.len, f) != v.buf.len || fclose(f) != 0) {
        fprintf(stderr, "bench_block: cannot write %s\n", argv[1]);
        return 2;
    }
    double runs[9];
    for (int r = 0; r < 9; r++) {
        unsigned calls = 0;
        double start = now_ns(), elapsed;
        do {
            sink += read_every_value(v.buf.data, v.buf.len);
            calls++;
            elapsed = now_ns() - start;
        } while (elapsed < 20e6);
        runs[r] = elapsed / calls;
    }
    qsort(runs, 9, sizeof runs[0], compare_double);
    printf("%zu %.0f %.0f %llu\n", v.buf.len, runs[0], runs[4], (unsigned long long)read_every_value(
                                                    v.buf.data, v.buf.len));
    tb_free(&v.buf);
    return 0;
}
