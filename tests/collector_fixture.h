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
#include "builder_v2meta.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/v2_query.h"

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

/* ---- V2 ---- */

enum { CF_V2_CPU = 0, CF_V2_COUNT = 1 };

typedef struct cf_v2_instance {
    uint32_t id;
    const char *name;
    uint64_t cpu;
    uint32_t count;
} cf_v2_instance;

/*
 * Query data of one counterset block with CF_V2_CPU (PERF_100NSEC_TIMER, 8
 * bytes) and CF_V2_COUNT (PERF_COUNTER_RAWCOUNT, 4 bytes) for each
 * instance, then a multiple-counters block of the same ids (values
 * 1,000,000 * second and 40 + second); PerfTime100NSec one second apart
 * per `second`. cf_v2_registration is the counterset's registration.
 */
static inline tb_buf cf_v2_capture(uint32_t second, const cf_v2_instance *procs, uint32_t n)
{
    tb_v2 v;
    int64_t t = 133000000000000000 + 10000000 * (int64_t)second;
    tb_v2_begin(&v, 5000 + second, t, 10000000);
    const uint32_t ids[2] = {CF_V2_CPU, CF_V2_COUNT};
    tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(&v, ids, 2);
    tb_v2_instances_begin(&v, n);
    for (uint32_t i = 0; i < n; i++) {
        tb_v2_instance(&v, procs[i].id, procs[i].name);
        tb_v2_u64(&v, procs[i].cpu);
        tb_v2_u32(&v, procs[i].count);
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
    tb_v2_ids(&v, ids, 2);
    tb_v2_u64(&v, 1000000u * second);
    tb_v2_u32(&v, 40 + second);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    return v.buf;
}

static inline tb_buf cf_v2_registration(void)
{
    static const tb_reg_row rows[2] = {
        {CF_V2_CPU, PERF_100NSEC_TIMER, PERFBUF_V2_NO_ID, "cpu"},
        {CF_V2_COUNT, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, "count"}};
    return tb_v2_reginfo(rows, 2, PERFBUF_COUNTERSET_MULTI_INSTANCES);
}

#endif
