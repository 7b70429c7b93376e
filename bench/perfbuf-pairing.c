/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Pairing two captures and formatting every counter of every instance
 * (perfbuf/collector.h), timed:
 *   - two captures of n processes with 10 % churn (every tenth exited, n/10
 *     new ones first, so every position shifts), tests/adversarial.c
 *     adv_pair shape 0, for n from 1,000 to 1,000,000: ns per instance for
 *     perfbuf_v1_pair and ns per value for perfbuf_v1_formatted_array
 *     (size, then fill) over both counters of the object;
 *   - the same at n = 20,000 with only the first process gone, the case
 *     that made pairing by position fail: milliseconds in all.
 * Each row is the median of 5 runs. Parsing is not timed (perfbuf-bench
 * measures it).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adversarial.h"
#include "collector_fixture.h"
#include "perfbuf/collector.h"

#define RUNS 5

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v)
{
    qsort(v, RUNS, sizeof v[0], compare_double);
    return v[RUNS / 2];
}

static void *must(void *p)
{
    if (p == NULL) {
        fprintf(stderr, "perfbuf-pairing: out of memory\n");
        exit(2);
    }
    return p;
}

typedef struct timing {
    uint32_t instances;  /* in the newer capture */
    uint32_t paired;
    size_t values;       /* items of both arrays */
    uint32_t valid;      /* items with a valid value */
    double pair_ns;
    double arrays_ns;
} timing;

static int time_pair(const tb_buf *ob, const tb_buf *nb, timing *t)
{
    perfbuf_v1_block older, newer;
    if (perfbuf_v1_parse(ob->data, ob->len, NULL, &older, NULL) != PERFBUF_OK ||
        perfbuf_v1_parse(nb->data, nb->len, NULL, &newer, NULL) != PERFBUF_OK) {
        return -1;
    }
    size_t slots = 0;
    if (perfbuf_v1_pairing_scratch(&older, &newer, CF_PROCESS, &slots) != PERFBUF_OK) {
        return -1;
    }
    uint64_t *scratch = must(malloc(slots * sizeof *scratch));
    perfbuf_v1_pairing p;
    double pair[RUNS], arrays[RUNS];
    const uint32_t counters[2] = {CF_CPU, CF_COUNT};
    perfbuf_formatted_item *items = NULL;
    char *strings = NULL;
    memset(t, 0, sizeof *t);
    for (int r = 0; r < RUNS; r++) {
        double start = now_ns();
        if (perfbuf_v1_pair(&older, &newer, CF_PROCESS, scratch, slots, &p) != PERFBUF_OK) {
            return -1;
        }
        pair[r] = now_ns() - start;
        start = now_ns();
        t->values = 0;
        t->valid = 0;
        for (int k = 0; k < 2; k++) {
            size_t count = 0, bytes = 0;
            if (perfbuf_v1_formatted_array(&p, counters[k], NULL, PERFBUF_FMT_DOUBLE, NULL,
                                           &count, NULL, &bytes) != PERFBUF_E_OUTPUT_TOO_SMALL) {
                return -1;
            }
            /* Allocated once, as a collector keeps its arrays between samples. */
            if (items == NULL) {
                items = must(malloc(sizeof *items * count));
                strings = must(malloc(bytes));
            }
            if (perfbuf_v1_formatted_array(&p, counters[k], NULL, PERFBUF_FMT_DOUBLE, items,
                                           &count, strings, &bytes) != PERFBUF_OK) {
                return -1;
            }
            t->values += count;
            for (size_t i = 0; i < count; i++) {
                t->valid += items[i].value.status == PERFBUF_CSTATUS_VALID_DATA;
            }
        }
        arrays[r] = now_ns() - start;
    }
    t->instances = p.newer_object.instance_count;
    t->paired = p.paired;
    t->pair_ns = median(pair);
    t->arrays_ns = median(arrays);
    free(items);
    free(strings);
    free(scratch);
    return 0;
}

/* n processes "proc<i>"; the newer capture lacks the first. */
static void one_exited(uint32_t n, tb_buf *ob, tb_buf *nb)
{
    cf_process *procs = must(malloc(sizeof *procs * n));
    char *names = must(malloc((size_t)n * 16));
    for (uint32_t i = 0; i < n; i++) {
        snprintf(names + 16 * (size_t)i, 16, "proc%u", i);
        procs[i] = (cf_process){names + 16 * (size_t)i, -1, -1, 0, i};
    }
    *ob = cf_capture(0, NULL, 0, procs, n, 0);
    for (uint32_t i = 0; i < n; i++) {
        procs[i].cpu = 2500000u; /* 25 % of the second between the captures */
    }
    *nb = cf_capture(1, NULL, 0, procs + 1, n - 1, 0);
    free(names);
    free(procs);
}

int main(void)
{
    static const uint32_t sizes[] = {1000, 10000, 100000, 1000000};
    printf("Pairing two captures of n processes, 10 %% churn; arrays: both counters\n\n");
    printf("| n | paired | pair ms | ns/instance | arrays ms | values | ns/value |\n");
    printf("|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        tb_buf ob, nb;
        adv_pair(sizes[i], 0, &ob, &nb);
        timing t;
        if (time_pair(&ob, &nb, &t) != 0) {
            fprintf(stderr, "perfbuf-pairing: failed at n = %u\n", sizes[i]);
            return 1;
        }
        printf("| %u | %u | %.2f | %.1f | %.2f | %zu | %.1f |\n", sizes[i], t.paired,
               t.pair_ns / 1e6, t.pair_ns / t.instances, t.arrays_ns / 1e6, t.values,
               t.arrays_ns / (double)t.values);
        tb_free(&ob);
        tb_free(&nb);
    }
    tb_buf ob, nb;
    one_exited(20000, &ob, &nb);
    timing t;
    if (time_pair(&ob, &nb, &t) != 0) {
        fprintf(stderr, "perfbuf-pairing: failed on one exited\n");
        return 1;
    }
    printf("\n20,000 processes, the first exited: %u paired, %u of %zu values valid; "
           "pair %.2f ms, arrays %.2f ms\n",
           t.paired, t.valid, t.values, t.pair_ns / 1e6, t.arrays_ns / 1e6);
    tb_free(&ob);
    tb_free(&nb);
    return 0;
}
