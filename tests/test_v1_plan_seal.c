/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * White-box: the whole-object reads of a V1 plan stay inside each row even
 * when the plan's seal was forged to match a changed entry. The seal tells
 * a plan changed by mistake; the once-per-call check of every entry's value
 * and base against the reach is what keeps the unchecked row reads in the
 * counter block. Built on the library's objects (pb_v1_plan_seal is
 * internal), the buffer placed in front of a guard page.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/v1.h"
#include "perfbuf/values.h"
#include "v1/internal.h"
#include "builder_v1.h"
#include "guard.h"
#include "harness.h"

enum { MAX_COUNTERS = 8, MAX_CELLS = 8 * MAX_COUNTERS };

static void test_forged_seal_never_reads_past_the_row(void)
{
    tb_v1 v = tb_v1_sample_global();
    guarded g = guard_place(v.buf.data, v.buf.len);
    perfbuf_options opts = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_v1_block b;
    CHECK(perfbuf_v1_parse(g.bytes, v.buf.len, &opts, &b, NULL) == PERFBUF_OK);
    perfbuf_v1_object thread;
    CHECK(perfbuf_v1_find_object(&b, TB_V1_THREAD, &thread) == PERFBUF_OK);
    perfbuf_v1_plan_entry entries[MAX_COUNTERS];
    perfbuf_v1_plan plan;
    CHECK(perfbuf_v1_plan_build(&b, &thread, entries, MAX_COUNTERS, &plan) == PERFBUF_OK);
    CHECK(plan.count > 0 && plan.reach >= 8);
    uint64_t matrix[MAX_CELLS];
    perfbuf_value formatted[MAX_CELLS];
    size_t needed = 0;
    CHECK(perfbuf_v1_plan_read_object(&plan, &b, &thread, matrix, MAX_CELLS, &needed) ==
          PERFBUF_OK);
    const uint64_t sealed = plan.seal;
    const perfbuf_v1_plan_entry saved = entries[0];

    /* A value ending 1 byte past the reach, sealed again. */
    entries[0].size = 8;
    entries[0].offset = (uint32_t)plan.reach - 7u;
    plan.seal = pb_v1_plan_seal(&plan);
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&plan, &b, &thread, matrix, MAX_CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_object(&plan, &b, &thread, &plan, &b, &thread, 0,
                                             formatted, MAX_CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);

    /* A base ending 4 bytes past the reach, sealed again. */
    entries[0] = saved;
    entries[0].base_size = 8;
    entries[0].base_offset = (uint32_t)plan.reach - 4u;
    plan.seal = pb_v1_plan_seal(&plan);
    CHECK_EQ_U(perfbuf_v1_plan_format_object(&plan, &b, &thread, &plan, &b, &thread, 0,
                                             formatted, MAX_CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&plan, &b, &thread, matrix, MAX_CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);

    /* Restored, the plan is the sealed one again and reads. */
    entries[0] = saved;
    plan.seal = pb_v1_plan_seal(&plan);
    CHECK_EQ_U(plan.seal, sealed);
    CHECK(perfbuf_v1_plan_read_object(&plan, &b, &thread, matrix, MAX_CELLS, &needed) ==
          PERFBUF_OK);
    guard_release(&g);
    tb_free(&v.buf);
}

/*
 * Plans forged with a matching seal in the fields the doubles call's
 * column loops rest on: a clock index past the four (either side), a
 * formula of another type, a formula that is none, a fraction's type and
 * formula on an entry that takes its value alone, an older entry that
 * does not. The doubles call writes, cell for cell, the status and
 * as_double that perfbuf_v1_plan_format_object writes with the same plans.
 */
static void test_forged_entries_format_as_value_by_value(void)
{
    tb_v1 v = tb_v1_sample_global();
    guarded g = guard_place(v.buf.data, v.buf.len);
    perfbuf_options opts = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_v1_block b;
    CHECK(perfbuf_v1_parse(g.bytes, v.buf.len, &opts, &b, NULL) == PERFBUF_OK);
    perfbuf_v1_object process;
    CHECK(perfbuf_v1_find_object(&b, TB_V1_PROCESS, &process) == PERFBUF_OK);
    perfbuf_v1_plan_entry newer[MAX_COUNTERS], older[MAX_COUNTERS];
    perfbuf_v1_plan newer_plan, older_plan;
    CHECK(perfbuf_v1_plan_build(&b, &process, newer, MAX_COUNTERS, &newer_plan) == PERFBUF_OK);
    CHECK(perfbuf_v1_plan_build(&b, &process, older, MAX_COUNTERS, &older_plan) == PERFBUF_OK);
    /* A 100-ns timer and two raw counts, each taking its value alone. */
    CHECK_EQ_U(newer_plan.count, 3);
    CHECK_EQ_U(newer[0].type, PERF_100NSEC_TIMER);
    CHECK_EQ_U(newer[1].type, PERF_COUNTER_RAWCOUNT);
    CHECK_EQ_U(newer[2].pairing, PERFBUF_V1_PLAN_VALUE);
    perfbuf_v1_plan_entry newer_built[MAX_COUNTERS], older_built[MAX_COUNTERS];
    memcpy(newer_built, newer, sizeof newer);
    memcpy(older_built, older, sizeof older);
    static const uint32_t flags[3] = {PERFBUF_FMT_DOUBLE, PERFBUF_FMT_DOUBLE | PERFBUF_FMT_NOSCALE,
                                      PERFBUF_FMT_LARGE};
    for (int kind = 0; kind < 6; kind++) {
        memcpy(newer, newer_built, sizeof newer);
        memcpy(older, older_built, sizeof older);
        switch (kind) {
        case 0:
            newer[0].time_base = 9;
            break;
        case 1:
            older[0].time_base = 9;
            break;
        case 2:
            CHECK(perfbuf_prepare_formula(PERF_COUNTER_RAWCOUNT, &newer[0].formula) == PERFBUF_OK);
            break;
        case 3:
            newer[1].formula.formula = 200;
            break;
        case 4:
            newer[1].type = older[1].type = PERF_RAW_FRACTION;
            CHECK(perfbuf_prepare_formula(PERF_RAW_FRACTION, &newer[1].formula) == PERFBUF_OK);
            older[1].formula = newer[1].formula;
            break;
        default:
            older[2].pairing = PERFBUF_V1_PLAN_MISSING_BASE;
            break;
        }
        newer_plan.seal = pb_v1_plan_seal(&newer_plan);
        older_plan.seal = pb_v1_plan_seal(&older_plan);
        for (int f = 0; f < 3; f++) {
            perfbuf_value expected[MAX_CELLS];
            double values[MAX_CELLS];
            uint8_t codes[MAX_CELLS];
            size_t needed = 0, needed_doubles = 0;
            CHECK_EQ_U(perfbuf_v1_plan_format_object(&newer_plan, &b, &process, &older_plan, &b,
                                                     &process, flags[f], expected, MAX_CELLS,
                                                     &needed),
                       PERFBUF_OK);
            CHECK_EQ_U(perfbuf_v1_plan_format_object_doubles(&newer_plan, &b, &process,
                                                             &older_plan, &b, &process, flags[f],
                                                             values, codes, MAX_CELLS,
                                                             &needed_doubles),
                       PERFBUF_OK);
            CHECK_EQ_U(needed_doubles, needed);
            CHECK_EQ_U(needed, 9);
            for (size_t c = 0; c < needed; c++) {
                CHECK_EQ_U(perfbuf_compact_cstatus(codes[c]), expected[c].status);
                CHECK(memcmp(&values[c], &expected[c].as_double, sizeof values[c]) == 0);
            }
        }
    }
    guard_release(&g);
    tb_free(&v.buf);
}

static const th_case cases[] = {
    TH_CASE(test_forged_seal_never_reads_past_the_row),
    TH_CASE(test_forged_entries_format_as_value_by_value),
};

TH_MAIN(cases)
