/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Captures for the pairing tests, benchmark and seeds: a parent object
 * (CF_JOB) and a process-like object (CF_PROCESS) whose instances have a
 * name, an optional parent, an optional UniqueID and two counters:
 *   CF_CPU   PERF_100NSEC_TIMER, 8 bytes at CounterOffset 8 (or 16 in the
 *            moved layout), so a pair formats as 100 * dCPU / dTime;
 *   CF_COUNT PERF_COUNTER_RAWCOUNT, 4 bytes at CounterOffset 24.
 * Test code: allocates, exits on failure (builder.h).
 */
#ifndef PERFBUF_TEST_COLLECTOR_FIXTURE_H
#define PERFBUF_TEST_COLLECTOR_FIXTURE_H

#include <stdint.h>
#include <string.h>

#include "builder_v1.h"
#include "perfbuf/counter_types.h"

enum { CF_JOB = 500, CF_PROCESS = 230, CF_SYSTEM = 2, CF_CPU = 6, CF_COUNT = 10, CF_UPTIME = 674 };

typedef struct cf_process {
    const char *name;
    int parent;       /* position among the parents, or -1 */
    int32_t unique_id; /* -1: PERF_NO_UNIQUE_ID */
    uint64_t cpu;     /* 100-ns units of processor time */
    uint32_t count;
} cf_process;

/* PerfTime100nSec of capture `second` (0, 1, ...): one second apart. */
#define CF_TIME0 UINT64_C(134398148561470699)
#define CF_TIME(second) (CF_TIME0 + UINT64_C(10000000) * (uint64_t)(second))

/*
 * A block: CF_JOB with `parents` (may be 0), CF_PROCESS with the
 * processes, and CF_SYSTEM, a single-instance object with CF_UPTIME
 * (a raw count of `second`). moved: CF_CPU at CounterOffset 16 instead of 8.
 */
static inline tb_buf cf_capture(uint32_t second, const char *const *parents, uint32_t parent_count,
                                const cf_process *procs, uint32_t count, int moved)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    uint64_t t = CF_TIME(second);
    tb_patch_u32(&v.buf, 72, (uint32_t)t);
    tb_patch_u32(&v.buf, 76, (uint32_t)(t >> 32));
    tb_v1_object_begin(&v, CF_JOB, 0, 0);
    tb_v1_counter(&v, CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 8);
    tb_v1_definitions_end(&v);
    for (uint32_t i = 0; i < parent_count; i++) {
        uint8_t data[8] = {0};
        tb_v1_instance(&v, parents[i], 0, 0);
        tb_put32(data, 8, i);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_object_begin(&v, CF_PROCESS, 0, 0);
    tb_v1_counter(&v, CF_CPU, PERF_100NSEC_TIMER, 8, moved ? 16 : 8);
    tb_v1_counter(&v, CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 24);
    tb_v1_definitions_end(&v);
    for (uint32_t i = 0; i < count; i++) {
        size_t start = v.buf.len;
        int p = procs[i].parent;
        tb_v1_instance(&v, procs[i].name, p < 0 ? 0 : CF_JOB, p < 0 ? 0 : (uint32_t)p);
        tb_patch_u32(&v.buf, start + 12, (uint32_t)procs[i].unique_id);
        uint8_t data[28] = {0};
        tb_put64(data, moved ? 16 : 8, procs[i].cpu);
        tb_put32(data, 24, procs[i].count);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_object_begin(&v, CF_SYSTEM, 1, 0);
    tb_v1_counter(&v, CF_UPTIME, PERF_COUNTER_RAWCOUNT, 4, 8);
    tb_v1_definitions_end(&v);
    uint8_t data[8] = {0};
    tb_put32(data, 8, second);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

#endif
