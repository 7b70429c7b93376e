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

#include "perfbuf/v1.h"
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

static const th_case cases[] = {
    TH_CASE(test_forged_seal_never_reads_past_the_row),
};

TH_MAIN(cases)
