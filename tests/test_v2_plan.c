/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Bulk value reads and value plans of V2 query data: perfbuf_v2_values_read
 * writes the values the test wrote; every plan sample equals
 * perfbuf_v2_raw_sample (status, sample and context) on Processor
 * Information, on references to time, frequency, base and multi counters
 * present and missing, on repeated ids and on values that are not
 * integers; two captures formatted through a plan equal the same through
 * raw samples; sizes, arguments and views of another buffer fail as
 * documented.
 */
#include <stdlib.h>
#include <string.h>

#include "adversarial.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/v2_query.h"
#include "perfbuf/values.h"
#include "builder_v2meta.h"
#include "harness.h"

#define CAP 64u

static bool first_block(const perfbuf_v2_query *q, perfbuf_v2_block *b)
{
    perfbuf_v2_iter it;
    perfbuf_v2_blocks_begin(q, &it);
    return perfbuf_v2_blocks_next(q, &it, b);
}

static perfbuf_v2_reginfo parse_reg(const tb_buf *buf)
{
    perfbuf_v2_reginfo reg;
    EXPECT(perfbuf_v2_reginfo_parse(buf->data, buf->len, NULL, &reg, NULL) == PERFBUF_OK);
    return reg;
}

/*
 * Every position of a plan against perfbuf_v2_raw_sample of the id there,
 * from the same starting contents. Returns how many answered OK.
 */
static uint32_t plan_equals_raw_samples(const perfbuf_v2_query *q, const perfbuf_v2_block *b,
                                        const perfbuf_v2_instance *inst,
                                        const perfbuf_v2_reginfo *reg)
{
    perfbuf_v2_plan_entry entries[CAP];
    uint32_t scratch[CAP];
    perfbuf_v2_plan plan;
    EXPECT(perfbuf_v2_plan_build(q, b, reg, entries, CAP, scratch, CAP, &plan) == PERFBUF_OK);
    EXPECT(plan.count == b->counter_count);
    uint64_t values[CAP];
    perfbuf_v2_values_read_result read;
    EXPECT(perfbuf_v2_values_read(q, b, inst, values, CAP, &read) == PERFBUF_OK);
    /* Every position at once, compared below with each one alone. */
    perfbuf_raw_sample batch[CAP];
    perfbuf_value_context batch_ctx[CAP];
    perfbuf_status batch_st[CAP];
    EXPECT(perfbuf_v2_plan_samples(q, b, inst, reg, &plan, values, &read, batch, batch_ctx,
                                   batch_st, CAP) == PERFBUF_OK);
    uint32_t ok = 0;
    for (uint32_t p = 0; p < plan.count; p++) {
        uint32_t id = perfbuf_v2_block_counter_id(q, b, p);
        perfbuf_raw_sample plain = {0xA5A5A5A5u, 1, 2, 3, 4, 5};
        perfbuf_raw_sample fast = plain;
        perfbuf_value_context plain_ctx = {6, 7};
        perfbuf_value_context fast_ctx = plain_ctx;
        perfbuf_status st_plain = perfbuf_v2_raw_sample(q, b, inst, reg, id, &plain, &plain_ctx);
        perfbuf_status st_fast = perfbuf_v2_plan_sample(q, b, inst, reg, &plan, values, &read, p,
                                                        &fast, &fast_ctx);
        if (st_plain != st_fast) {
            fprintf(stderr, "position %u (id %u): raw %d, plan %d\n", p, id, (int)st_plain,
                    (int)st_fast);
        }
        EXPECT(st_plain == st_fast);
        EXPECT(batch_st[p] == st_fast);
        if (st_plain == PERFBUF_OK) {
            EXPECT(batch[p].status == fast.status && batch[p].type == fast.type &&
                   batch[p].first == fast.first && batch[p].second == fast.second &&
                   batch[p].multi == fast.multi && batch[p].time_stamp == fast.time_stamp);
            EXPECT(batch_ctx[p].frequency == fast_ctx.frequency &&
                   batch_ctx[p].scale == fast_ctx.scale);
            EXPECT(plain.status == fast.status && plain.type == fast.type &&
                   plain.first == fast.first && plain.second == fast.second &&
                   plain.multi == fast.multi && plain.time_stamp == fast.time_stamp);
            EXPECT(plain_ctx.frequency == fast_ctx.frequency && plain_ctx.scale == fast_ctx.scale);
            ok++;
        }
    }
    return ok;
}

static void processor_information(void)
{
    static const char *const names[3] = {"_Total", "0,_Total", "0,0"};
    tb_v2 v = tb_v2_processor_information_query(names, 3);
    tb_buf reg_buf = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                                   PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_reginfo reg = parse_reg(&reg_buf);
    perfbuf_v2_query q;
    perfbuf_v2_block b;
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    CHECK(first_block(&q, &b));
    perfbuf_v2_iter it;
    perfbuf_v2_instance inst;
    perfbuf_v2_instances_begin(&b, &it);
    uint32_t instances = 0;
    while (perfbuf_v2_instances_next(&q, &b, &it, &inst)) {
        uint64_t values[CAP];
        perfbuf_v2_values_read_result read;
        CHECK(perfbuf_v2_values_read(&q, &b, &inst, values, CAP, &read) == PERFBUF_OK);
        CHECK_EQ_U(read.count, TB_PROCESSOR_INFORMATION_COUNTERS);
        CHECK_EQ_U(read.non_integers, 0);
        for (uint32_t p = 0; p < read.count; p++) {
            CHECK_EQ_U(values[p], 1000u * (inst.index + 1) + perfbuf_v2_block_counter_id(&q, &b, p));
        }
        /* 31 counters, of which three are bases with no value of their own. */
        CHECK_EQ_U(plan_equals_raw_samples(&q, &b, &inst, &reg), 28);
        instances++;
    }
    CHECK_EQ_U(instances, 3);
    tb_free(&reg_buf);
    tb_free(&v.buf);
}

/* Object timers (time and frequency counters), multi timers, averages
 * with a base; in a block with all of them and in one lacking 2, 4, 6. */
static void references_present_and_missing(void)
{
    static const struct {
        uint32_t id, type, base, time, freq, multi;
    } set[7] = {
        {0, PERF_OBJ_TIME_TIMER, PERFBUF_V2_NO_ID, 1, 2, PERFBUF_V2_NO_ID},
        {1, PERF_COUNTER_LARGE_RAWCOUNT, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
        {2, PERF_COUNTER_LARGE_RAWCOUNT, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
        {3, PERF_100NSEC_MULTI_TIMER, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, 4},
        {4, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
        {5, PERF_AVERAGE_BULK, 6, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
        {6, PERF_AVERAGE_BASE, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    };
    tb_reg_row rows[7];
    for (int i = 0; i < 7; i++) {
        rows[i].id = set[i].id;
        rows[i].type = set[i].type;
        rows[i].base = set[i].base;
        rows[i].name = NULL;
    }
    tb_buf reg_buf = tb_v2_reginfo(rows, 7, PERFBUF_COUNTERSET_SINGLE_INSTANCE);
    for (uint32_t i = 0; i < 7; i++) {
        tb_patch_u32(&reg_buf, 32 + 48 * i + 28, set[i].time);
        tb_patch_u32(&reg_buf, 32 + 48 * i + 32, set[i].freq);
        tb_patch_u32(&reg_buf, 32 + 48 * i + 36, set[i].multi);
    }
    perfbuf_v2_reginfo reg = parse_reg(&reg_buf);
    /* Ids reversed, so positions and ids differ. */
    static const uint32_t all[7] = {6, 5, 4, 3, 2, 1, 0};
    static const uint32_t some[4] = {5, 3, 1, 0};
    tb_v2 v;
    tb_v2_begin(&v, 1, 2, 3);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
    tb_v2_ids(&v, all, 7);
    for (uint32_t p = 0; p < 7; p++) {
        tb_v2_u64(&v, 10 * (all[p] + 1));
    }
    tb_v2_block_end(&v);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
    tb_v2_ids(&v, some, 4);
    for (uint32_t p = 0; p < 4; p++) {
        tb_v2_u64(&v, 10 * (some[p] + 1));
    }
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    perfbuf_v2_query q;
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    perfbuf_v2_iter bi;
    perfbuf_v2_block blocks[2];
    perfbuf_v2_blocks_begin(&q, &bi);
    CHECK(perfbuf_v2_blocks_next(&q, &bi, &blocks[0]));
    CHECK(perfbuf_v2_blocks_next(&q, &bi, &blocks[1]));
    /* All present: everything but the base (6) answers. */
    CHECK_EQ_U(plan_equals_raw_samples(&q, &blocks[0], NULL, &reg), 6);
    /* 0 lacks its frequency (2), 3 its multi (4), 5 its base (6): only 1. */
    CHECK_EQ_U(plan_equals_raw_samples(&q, &blocks[1], NULL, &reg), 1);
    /* What the plan read for the object timer: its time and frequency. */
    perfbuf_v2_plan_entry entries[CAP];
    uint32_t scratch[CAP];
    perfbuf_v2_plan plan;
    uint64_t values[CAP];
    perfbuf_v2_values_read_result read;
    perfbuf_raw_sample s;
    perfbuf_value_context ctx;
    CHECK(perfbuf_v2_plan_build(&q, &blocks[0], &reg, entries, CAP, scratch, CAP, &plan) ==
          PERFBUF_OK);
    CHECK(perfbuf_v2_values_read(&q, &blocks[0], NULL, values, CAP, &read) == PERFBUF_OK);
    CHECK(perfbuf_v2_plan_sample(&q, &blocks[0], NULL, &reg, &plan, values, &read, 6, &s, &ctx) ==
          PERFBUF_OK);
    CHECK_EQ_U(s.first, 10);
    CHECK_EQ_U(s.second, 20);
    CHECK_EQ_U(ctx.frequency, 30);
    CHECK(perfbuf_v2_plan_sample(&q, &blocks[0], NULL, &reg, &plan, values, &read, 3, &s, &ctx) ==
          PERFBUF_OK);
    CHECK_EQ_U(s.multi, 50);
    tb_free(&reg_buf);
    tb_free(&v.buf);
}

/* Repeated ids and a 16-byte value: which value counts depends on which
 * are integers, and the plan answers what the walk answers. */
static void repeated_ids_and_wide_values(void)
{
    tb_buf reg_buf = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                                   PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_reginfo reg = parse_reg(&reg_buf);
    static const uint32_t lists[3][7] = {{0, 7, 7, 24, 24, 25, 25},
                                         {25, 24, 7, 0, 24, 7, 25},
                                         {0, 7, 24, 25, 1, 2, 3}};
    static const uint32_t wide_at[3] = {1, 2, 1};
    for (int l = 0; l < 3; l++) {
        tb_v2 v;
        tb_v2_begin(&v, 1, 2, 3);
        tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
        tb_v2_ids(&v, lists[l], 7);
        for (uint32_t p = 0; p < 7; p++) {
            if (p == wide_at[l]) {
                static const uint8_t wide[16] = {1};
                tb_v2_value(&v, wide, sizeof wide);
            } else {
                tb_v2_u64(&v, 500 + p);
            }
        }
        tb_v2_block_end(&v);
        tb_v2_end(&v);
        perfbuf_v2_query q;
        perfbuf_v2_block b;
        CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
        CHECK(first_block(&q, &b));
        uint64_t values[CAP];
        perfbuf_v2_values_read_result read;
        CHECK(perfbuf_v2_values_read(&q, &b, NULL, values, CAP, &read) == PERFBUF_OK);
        CHECK_EQ_U(read.non_integers, 1);
        CHECK_EQ_U(values[wide_at[l]], 0);
        uint32_t ok = plan_equals_raw_samples(&q, &b, NULL, &reg);
        CHECK(!th.case_failed);
        CHECK(ok >= 3);
        tb_free(&v.buf);
    }
    tb_free(&reg_buf);
}

static bool same_sample(perfbuf_status st_a, const perfbuf_raw_sample *a,
                        const perfbuf_value_context *ca, perfbuf_status st_b,
                        const perfbuf_raw_sample *b, const perfbuf_value_context *cb)
{
    if (st_a != st_b) {
        return false;
    }
    return st_a != PERFBUF_OK ||
           (a->status == b->status && a->type == b->type && a->first == b->first &&
            a->second == b->second && a->multi == b->multi && a->time_stamp == b->time_stamp &&
            ca->frequency == cb->frequency && ca->scale == cb->scale);
}

/*
 * Thousands of counters with one value that is not an integer, with ids
 * repeated, and with both (tests/adversarial.h, adv_plan_irregular): the
 * batch answers every position as perfbuf_v2_raw_sample of the id there
 * does (the first instance against the walk itself, the second against
 * the value index, which answers as the walk does), in one pass rather
 * than a walk per position.
 */
static void irregular_at_scale(void)
{
    const uint32_t n = 2000;
    for (int shape = ADV_PLAN_ONE_WIDE; shape <= ADV_PLAN_REPEATED_WIDE; shape++) {
        tb_v2 v;
        tb_buf reg_buf;
        adv_plan_irregular(n, shape, &v, &reg_buf);
        perfbuf_v2_reginfo reg = parse_reg(&reg_buf);
        perfbuf_v2_query q;
        perfbuf_v2_block b;
        CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
        CHECK(first_block(&q, &b));
        uint32_t count = b.counter_count;
        CHECK_EQ_U(count, shape == ADV_PLAN_ONE_WIDE ? n : n + 4);
        perfbuf_v2_plan_entry *entries = malloc(sizeof *entries * count);
        uint32_t *scratch = malloc(sizeof *scratch * n);
        uint64_t *values = malloc(sizeof *values * count);
        perfbuf_raw_sample *batch = malloc(sizeof *batch * count);
        perfbuf_value_context *batch_ctx = malloc(sizeof *batch_ctx * count);
        perfbuf_status *batch_st = malloc(sizeof *batch_st * count);
        size_t slot_count = perfbuf_v2_value_index_slots(&b);
        uint64_t *slots = malloc(sizeof *slots * slot_count);
        EXPECT(entries != NULL && scratch != NULL && values != NULL && batch != NULL &&
               batch_ctx != NULL && batch_st != NULL && slots != NULL);
        perfbuf_v2_plan plan;
        CHECK(perfbuf_v2_plan_build(&q, &b, &reg, entries, count, scratch, n, &plan) ==
              PERFBUF_OK);
        CHECK(plan.repeated_ids == (shape != ADV_PLAN_ONE_WIDE));
        perfbuf_v2_iter it;
        perfbuf_v2_instance inst;
        perfbuf_v2_instances_begin(&b, &it);
        uint32_t instances = 0;
        while (perfbuf_v2_instances_next(&q, &b, &it, &inst)) {
            perfbuf_v2_values_read_result read;
            CHECK(perfbuf_v2_values_read(&q, &b, &inst, values, count, &read) == PERFBUF_OK);
            CHECK_EQ_U(read.non_integers, shape == ADV_PLAN_ONE_WIDE        ? 1u
                                          : shape == ADV_PLAN_REPEATED_WIDE ? 4u
                                                                            : 0u);
            /* Whatever the outputs held before: the call must not read it. */
            memset(batch, 0xA5, sizeof *batch * count);
            memset(batch_ctx, 0x5A, sizeof *batch_ctx * count);
            CHECK(perfbuf_v2_plan_samples(&q, &b, &inst, &reg, &plan, values, &read, batch,
                                          batch_ctx, batch_st, count) == PERFBUF_OK);
            perfbuf_v2_value_index index;
            CHECK(perfbuf_v2_value_index_build(&q, &b, &inst, slots, slot_count, &index) ==
                  PERFBUF_OK);
            uint32_t ok = 0;
            uint32_t differ = 0;
            for (uint32_t p = 0; p < count; p++) {
                uint32_t id = perfbuf_v2_block_counter_id(&q, &b, p);
                perfbuf_raw_sample ref;
                perfbuf_value_context ref_ctx;
                perfbuf_status st = instances == 0
                                        ? perfbuf_v2_raw_sample(&q, &b, &inst, &reg, id, &ref,
                                                                &ref_ctx)
                                        : perfbuf_v2_raw_sample_indexed(&q, &b, &inst, &reg,
                                                                        &index, id, &ref,
                                                                        &ref_ctx);
                if (!same_sample(st, &ref, &ref_ctx, batch_st[p], &batch[p], &batch_ctx[p])) {
                    if (differ++ == 0) {
                        fprintf(stderr, "shape %d instance %u position %u (id %u): %d, batch %d\n",
                                shape, instances, p, id, (int)st, (int)batch_st[p]);
                    }
                }
                ok += st == PERFBUF_OK ? 1u : 0u;
            }
            CHECK_EQ_U(differ, 0);
            /* Every counter but the base (and, with the one wide value,
             * id 0, which has no integer value at all). */
            CHECK_EQ_U(ok, shape == ADV_PLAN_ONE_WIDE ? n - 2 : n + 2);
            /* The averages' base: position 3, or its copy at the end when
             * the first is 16 bytes wide. id 1 (an average) is at n - 2. */
            uint64_t base = 1000u * (instances + 1) + (shape == ADV_PLAN_REPEATED_WIDE ? n + 3 : 3);
            CHECK(batch_st[n - 2] == PERFBUF_OK);
            CHECK_EQ_U(batch[n - 2].second, base);
            instances++;
        }
        CHECK_EQ_U(instances, 2);
        free(entries);
        free(scratch);
        free(values);
        free(batch);
        free(batch_ctx);
        free(batch_st);
        free(slots);
        tb_free(&reg_buf);
        tb_free(&v.buf);
    }
}

/* Two captures formatted through one plan: the values raw samples give. */
static void two_captures_formatted(void)
{
    static const char *const names[2] = {"_Total", "0,0"};
    tb_v2 older = tb_v2_processor_information_query(names, 2);
    tb_v2 newer = tb_v2_processor_information_query(names, 2);
    /* The newer capture: 100 ns later by its clocks, every value moved. */
    tb_patch_u32(&newer.buf, 8, 1000);
    tb_patch_u32(&newer.buf, 16, 1000);
    tb_buf reg_buf = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                                   PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_reginfo reg = parse_reg(&reg_buf);
    perfbuf_v2_query qn, qo;
    perfbuf_v2_block bn, bo;
    CHECK(perfbuf_v2_query_parse(newer.buf.data, newer.buf.len, NULL, &qn, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v2_query_parse(older.buf.data, older.buf.len, NULL, &qo, NULL) == PERFBUF_OK);
    CHECK(first_block(&qn, &bn) && first_block(&qo, &bo));
    perfbuf_v2_plan_entry entries[CAP];
    uint32_t scratch[CAP];
    perfbuf_v2_plan plan;
    CHECK(perfbuf_v2_plan_build(&qn, &bn, &reg, entries, CAP, scratch, CAP, &plan) == PERFBUF_OK);
    perfbuf_v2_iter in_it, io_it;
    perfbuf_v2_instance in, io;
    perfbuf_v2_instances_begin(&bn, &in_it);
    perfbuf_v2_instances_begin(&bo, &io_it);
    uint32_t formatted = 0;
    while (perfbuf_v2_instances_next(&qn, &bn, &in_it, &in) &&
           perfbuf_v2_instances_next(&qo, &bo, &io_it, &io)) {
        uint64_t vn[CAP], vo[CAP];
        perfbuf_v2_values_read_result rn, ro;
        CHECK(perfbuf_v2_values_read(&qn, &bn, &in, vn, CAP, &rn) == PERFBUF_OK);
        CHECK(perfbuf_v2_values_read(&qo, &bo, &io, vo, CAP, &ro) == PERFBUF_OK);
        for (uint32_t p = 0; p < plan.count; p++) {
            uint32_t id = perfbuf_v2_block_counter_id(&qn, &bn, p);
            perfbuf_raw_sample s1, s0, r1, r0;
            perfbuf_value_context c1, c0, rc1, rc0;
            perfbuf_status st = perfbuf_v2_plan_sample(&qn, &bn, &in, &reg, &plan, vn, &rn, p, &s1,
                                                       &c1);
            CHECK(st == perfbuf_v2_raw_sample(&qn, &bn, &in, &reg, id, &r1, &rc1));
            if (st != PERFBUF_OK) {
                continue;
            }
            CHECK(perfbuf_v2_plan_sample(&qo, &bo, &io, &reg, &plan, vo, &ro, p, &s0, &c0) ==
                  PERFBUF_OK);
            CHECK(perfbuf_v2_raw_sample(&qo, &bo, &io, &reg, id, &r0, &rc0) == PERFBUF_OK);
            perfbuf_value a, b;
            uint32_t sa = perfbuf_format_value(s1.type, &s1, &s0, &c1, PERFBUF_FMT_DOUBLE, &a);
            uint32_t sb = perfbuf_format_value(r1.type, &r1, &r0, &rc1, PERFBUF_FMT_DOUBLE, &b);
            CHECK_EQ_U(sa, sb);
            CHECK(sa != PERFBUF_CSTATUS_VALID_DATA || memcmp(&a.as_double, &b.as_double, 8) == 0);
            /* The plan's prepared formula answers as the type's own. */
            perfbuf_value c;
            const perfbuf_prepared_formula *f = perfbuf_v2_plan_formula(&plan, p);
            CHECK(f != NULL);
            CHECK_EQ_U(perfbuf_format_prepared(f, &s1, &s0, &c1, PERFBUF_FMT_DOUBLE, &c), sa);
            CHECK(sa != PERFBUF_CSTATUS_VALID_DATA || memcmp(&a.as_double, &c.as_double, 8) == 0);
            formatted++;
        }
    }
    CHECK_EQ_U(formatted, 2 * 28);
    CHECK(perfbuf_v2_plan_formula(&plan, plan.count) == NULL);
    CHECK(perfbuf_v2_plan_formula(NULL, 0) == NULL);
    tb_free(&reg_buf);
    tb_free(&older.buf);
    tb_free(&newer.buf);
}

static void sizes_and_arguments(void)
{
    static const char *const names[1] = {"_Total"};
    tb_v2 v = tb_v2_processor_information_query(names, 1);
    tb_buf reg_buf = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                                   PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_reginfo reg = parse_reg(&reg_buf);
    perfbuf_v2_query q;
    perfbuf_v2_block b;
    perfbuf_v2_instance inst;
    perfbuf_v2_iter it;
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    CHECK(first_block(&q, &b));
    perfbuf_v2_instances_begin(&b, &it);
    CHECK(perfbuf_v2_instances_next(&q, &b, &it, &inst));
    const perfbuf_status bad = PERFBUF_E_INVALID_ARGUMENT;
    uint64_t values[CAP];
    perfbuf_v2_values_read_result read;
    /* Too small: the size is reported and nothing is written. */
    values[0] = 77;
    CHECK(perfbuf_v2_values_read(&q, &b, &inst, values, 30, &read) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(read.count, 31);
    CHECK_EQ_U(values[0], 77);
    CHECK(perfbuf_v2_values_read(&q, &b, &inst, NULL, 0, &read) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(perfbuf_v2_values_read(NULL, &b, &inst, values, CAP, &read) == bad);
    CHECK(perfbuf_v2_values_read(&q, NULL, &inst, values, CAP, &read) == bad);
    CHECK(perfbuf_v2_values_read(&q, &b, &inst, NULL, CAP, &read) == bad);
    CHECK(perfbuf_v2_values_read(&q, &b, &inst, values, CAP, NULL) == bad);
    CHECK(perfbuf_v2_values_read(&q, &b, &inst, values, 31, &read) == PERFBUF_OK);
    /* The block's own values: a COUNTERSET has none outside instances. */
    CHECK(perfbuf_v2_values_read(&q, &b, NULL, values, CAP, &read) == PERFBUF_OK);
    CHECK_EQ_U(read.count, 0);

    perfbuf_v2_plan_entry entries[CAP];
    uint32_t scratch[CAP];
    perfbuf_v2_plan plan;
    CHECK(perfbuf_v2_plan_build(&q, &b, &reg, entries, 30, scratch, CAP, &plan) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(plan.count, 31);
    CHECK_EQ_U(plan.scratch_needed, 31);
    CHECK(perfbuf_v2_plan_build(&q, &b, &reg, entries, CAP, scratch, 30, &plan) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(perfbuf_v2_plan_build(NULL, &b, &reg, entries, CAP, scratch, CAP, &plan) == bad);
    CHECK(perfbuf_v2_plan_build(&q, NULL, &reg, entries, CAP, scratch, CAP, &plan) == bad);
    CHECK(perfbuf_v2_plan_build(&q, &b, NULL, entries, CAP, scratch, CAP, &plan) == bad);
    CHECK(perfbuf_v2_plan_build(&q, &b, &reg, NULL, CAP, scratch, CAP, &plan) == bad);
    CHECK(perfbuf_v2_plan_build(&q, &b, &reg, entries, CAP, NULL, CAP, &plan) == bad);
    CHECK(perfbuf_v2_plan_build(&q, &b, &reg, entries, CAP, scratch, CAP, NULL) == bad);
    /* No entries or no scratch, with no room: the sizes all the same. */
    plan.count = 0;
    CHECK(perfbuf_v2_plan_build(&q, &b, &reg, NULL, 0, scratch, CAP, &plan) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(plan.count, 31);
    plan.scratch_needed = 0;
    CHECK(perfbuf_v2_plan_build(&q, &b, &reg, entries, CAP, NULL, 0, &plan) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(plan.scratch_needed, 31);
    CHECK(perfbuf_v2_plan_formula(&plan, 0) == NULL); /* no entries */
    CHECK(perfbuf_v2_plan_build(&q, &b, &reg, entries, 31, scratch, 31, &plan) == PERFBUF_OK);
    CHECK(perfbuf_v2_plan_formula(&plan, 0) == &entries[0].formula);
    CHECK(perfbuf_v2_plan_formula(&plan, 31) == NULL);
    CHECK(perfbuf_v2_values_read(&q, &b, &inst, values, CAP, &read) == PERFBUF_OK);
    perfbuf_raw_sample s;
    perfbuf_value_context ctx;
    CHECK(perfbuf_v2_plan_sample(&q, &b, &inst, &reg, &plan, values, &read, 0, &s, &ctx) ==
          PERFBUF_OK);
    CHECK(perfbuf_v2_plan_sample(&q, &b, &inst, &reg, &plan, values, &read, 31, &s, &ctx) == bad);
    CHECK(perfbuf_v2_plan_sample(NULL, &b, &inst, &reg, &plan, values, &read, 0, &s, &ctx) == bad);
    CHECK(perfbuf_v2_plan_sample(&q, NULL, &inst, &reg, &plan, values, &read, 0, &s, &ctx) == bad);
    CHECK(perfbuf_v2_plan_sample(&q, &b, &inst, NULL, &plan, values, &read, 0, &s, &ctx) == bad);
    CHECK(perfbuf_v2_plan_sample(&q, &b, &inst, &reg, NULL, values, &read, 0, &s, &ctx) == bad);
    CHECK(perfbuf_v2_plan_sample(&q, &b, &inst, &reg, &plan, NULL, &read, 0, &s, &ctx) == bad);
    CHECK(perfbuf_v2_plan_sample(&q, &b, &inst, &reg, &plan, values, NULL, 0, &s, &ctx) == bad);
    CHECK(perfbuf_v2_plan_sample(&q, &b, &inst, &reg, &plan, values, &read, 0, NULL, &ctx) == bad);
    CHECK(perfbuf_v2_plan_sample(&q, &b, &inst, &reg, &plan, values, &read, 0, &s, NULL) == bad);
    /* Values of another count, a plan of another block, a changed plan. */
    perfbuf_v2_values_read_result short_read = read;
    short_read.count = 30;
    CHECK(perfbuf_v2_plan_sample(&q, &b, &inst, &reg, &plan, values, &short_read, 0, &s, &ctx) ==
          bad);
    perfbuf_v2_block moved = b;
    moved.offset += 8;
    CHECK(perfbuf_v2_plan_sample(&q, &moved, &inst, &reg, &plan, values, &read, 0, &s, &ctx) ==
          bad);
    perfbuf_raw_sample batch[CAP];
    perfbuf_value_context batch_ctx[CAP];
    perfbuf_status batch_st[CAP];
    CHECK(perfbuf_v2_plan_samples(&q, &b, &inst, &reg, &plan, values, &read, batch, batch_ctx,
                                  batch_st, 30) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(perfbuf_v2_plan_samples(&q, &b, &inst, &reg, &plan, values, &read, NULL, batch_ctx,
                                  batch_st, CAP) == bad);
    CHECK(perfbuf_v2_plan_samples(&q, &b, &inst, &reg, &plan, values, &read, batch, NULL,
                                  batch_st, CAP) == bad);
    CHECK(perfbuf_v2_plan_samples(&q, &b, &inst, &reg, &plan, values, &read, batch, batch_ctx,
                                  NULL, CAP) == bad);
    CHECK(perfbuf_v2_plan_samples(&q, &b, &inst, &reg, &plan, values, &short_read, batch,
                                  batch_ctx, batch_st, CAP) == bad);
    CHECK(perfbuf_v2_plan_samples(NULL, &b, &inst, &reg, &plan, values, &read, batch, batch_ctx,
                                  batch_st, CAP) == bad);
    entries[0].first = 31;
    CHECK(perfbuf_v2_plan_sample(&q, &b, &inst, &reg, &plan, values, &read, 0, &s, &ctx) == bad);
    CHECK(perfbuf_v2_plan_samples(&q, &b, &inst, &reg, &plan, values, &read, batch, batch_ctx,
                                  batch_st, CAP) == PERFBUF_OK);
    CHECK(batch_st[0] == bad && batch_st[1] == PERFBUF_OK);

    /* A block without an id list has no plan. */
    tb_v2 single;
    tb_v2_begin(&single, 1, 2, 3);
    tb_v2_block_begin(&single, 0, PERFBUF_V2_SINGLE_COUNTER);
    tb_v2_u64(&single, 5);
    tb_v2_block_end(&single);
    tb_v2_end(&single);
    perfbuf_v2_query sq;
    perfbuf_v2_block sb;
    CHECK(perfbuf_v2_query_parse(single.buf.data, single.buf.len, NULL, &sq, NULL) == PERFBUF_OK);
    CHECK(first_block(&sq, &sb));
    /* Nor is a plan used with one: a block without ids at the plan's
     * offset and count (another query's) matches values by position. */
    perfbuf_v2_plan id_plan;
    CHECK(perfbuf_v2_plan_build(&q, &b, &reg, entries, CAP, scratch, CAP, &id_plan) ==
          PERFBUF_OK);
    perfbuf_v2_block no_ids = sb;
    no_ids.offset = b.offset;
    no_ids.counter_count = id_plan.count;
    CHECK(perfbuf_v2_values_read(&q, &b, &inst, values, CAP, &read) == PERFBUF_OK);
    CHECK(perfbuf_v2_plan_sample(&sq, &no_ids, NULL, &reg, &id_plan, values, &read, 0, &s,
                                 &ctx) == bad);
    CHECK(perfbuf_v2_plan_samples(&sq, &no_ids, NULL, &reg, &id_plan, values, &read, batch,
                                  batch_ctx, batch_st, CAP) == bad);
    CHECK(perfbuf_v2_plan_build(&sq, &sb, &reg, entries, CAP, scratch, CAP, &plan) ==
          PERFBUF_E_NOT_FOUND);
    CHECK_EQ_U(plan.count, 0);
    CHECK(perfbuf_v2_values_read(&sq, &sb, NULL, values, CAP, &read) == PERFBUF_OK);
    CHECK_EQ_U(read.count, 1);
    CHECK_EQ_U(values[0], 5);
    /* The instance of the larger buffer read with the small query: the
     * window ends at the small buffer, and the read stops there. */
    CHECK(perfbuf_v2_values_read(&sq, &b, &inst, values, CAP, &read) == bad);
    CHECK(read.count < 31);
    tb_free(&single.buf);
    tb_free(&reg_buf);
    tb_free(&v.buf);
}

/* Instances with their values in one pass: what instances_next and
 * values_read give, then NOT_FOUND; a small array, NULLs and an iterator
 * of another buffer as documented. */
static void instances_with_values(void)
{
    static const char *const names[3] = {"_Total", "0,_Total", "0,0"};
    tb_v2 v = tb_v2_processor_information_query(names, 3);
    perfbuf_v2_query q;
    perfbuf_v2_block b;
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    CHECK(first_block(&q, &b));
    perfbuf_v2_iter plain_it, with_it;
    perfbuf_v2_instances_begin(&b, &plain_it);
    perfbuf_v2_instances_begin(&b, &with_it);
    perfbuf_v2_instance plain, with;
    uint64_t values[CAP], expected[CAP];
    perfbuf_v2_values_read_result read, expected_read;
    /* Too small: nothing moves. */
    CHECK(perfbuf_v2_instances_next_values(&q, &b, &with_it, &with, values, 30, &read) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(read.count, 31);
    CHECK_EQ_U(with_it.next_index, 0);
    uint32_t instances = 0;
    while (perfbuf_v2_instances_next(&q, &b, &plain_it, &plain)) {
        CHECK(perfbuf_v2_instances_next_values(&q, &b, &with_it, &with, values, CAP, &read) ==
              PERFBUF_OK);
        CHECK(plain.index == with.index && plain.id == with.id && plain.offset == with.offset &&
              plain.size == with.size && plain.name_offset == with.name_offset &&
              plain.name_units == with.name_units && plain.values_offset == with.values_offset &&
              plain.value_count == with.value_count);
        CHECK(perfbuf_v2_values_read(&q, &b, &plain, expected, CAP, &expected_read) == PERFBUF_OK);
        CHECK_EQ_U(read.count, expected_read.count);
        CHECK(memcmp(values, expected, sizeof *values * read.count) == 0);
        CHECK_EQ_U(values[0], 1000u * (instances + 1) + perfbuf_v2_block_counter_id(&q, &b, 0));
        instances++;
    }
    CHECK_EQ_U(instances, 3);
    CHECK(perfbuf_v2_instances_next_values(&q, &b, &with_it, &with, values, CAP, &read) ==
          PERFBUF_E_NOT_FOUND);
    const perfbuf_status bad = PERFBUF_E_INVALID_ARGUMENT;
    perfbuf_v2_instances_begin(&b, &with_it);
    CHECK(perfbuf_v2_instances_next_values(NULL, &b, &with_it, &with, values, CAP, &read) == bad);
    CHECK(perfbuf_v2_instances_next_values(&q, NULL, &with_it, &with, values, CAP, &read) == bad);
    CHECK(perfbuf_v2_instances_next_values(&q, &b, NULL, &with, values, CAP, &read) == bad);
    CHECK(perfbuf_v2_instances_next_values(&q, &b, &with_it, NULL, values, CAP, &read) == bad);
    CHECK(perfbuf_v2_instances_next_values(&q, &b, &with_it, &with, NULL, CAP, &read) == bad);
    CHECK(perfbuf_v2_instances_next_values(&q, &b, &with_it, &with, values, CAP, NULL) == bad);
    /* The iterator of this buffer with a one-instance capture's query:
     * the window ends early, the read fails and the iteration ends. */
    static const char *const one[1] = {"_Total"};
    tb_v2 small = tb_v2_processor_information_query(one, 1);
    perfbuf_v2_query sq;
    CHECK(perfbuf_v2_query_parse(small.buf.data, small.buf.len, NULL, &sq, NULL) == PERFBUF_OK);
    perfbuf_v2_instances_begin(&b, &with_it);
    CHECK(perfbuf_v2_instances_next_values(&sq, &b, &with_it, &with, values, CAP, &read) == bad);
    CHECK(perfbuf_v2_instances_next_values(&sq, &b, &with_it, &with, values, CAP, &read) ==
          PERFBUF_E_NOT_FOUND);
    tb_free(&small.buf);
    tb_free(&v.buf);
}

/* A whole block in one call: the matrix's size first, each row the
 * values the test wrote for that instance, NULLs, a matrix one short and a
 * block of a larger capture given with a smaller one's query as
 * documented. */
static void block_read_all(void)
{
    static const char *const names[3] = {"_Total", "0,_Total", "0,0"};
    tb_v2 v = tb_v2_processor_information_query(names, 3);
    perfbuf_v2_query q;
    perfbuf_v2_block b;
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    CHECK(first_block(&q, &b));
    enum { CELLS = 3 * TB_PROCESSOR_INFORMATION_COUNTERS };
    uint64_t matrix[CELLS];
    size_t needed = 0;
    CHECK(perfbuf_v2_block_read_all(&q, &b, NULL, 0, &needed) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(needed, CELLS);
    matrix[0] = 77;
    CHECK(perfbuf_v2_block_read_all(&q, &b, matrix, CELLS - 1u, &needed) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(matrix[0], 77u);
    CHECK(perfbuf_v2_block_read_all(&q, &b, matrix, CELLS, &needed) == PERFBUF_OK);
    CHECK_EQ_U(needed, CELLS);
    for (uint32_t i = 0; i < 3; i++) {
        for (uint32_t p = 0; p < TB_PROCESSOR_INFORMATION_COUNTERS; p++) {
            CHECK_EQ_U(matrix[i * TB_PROCESSOR_INFORMATION_COUNTERS + p],
                       1000u * (i + 1) + perfbuf_v2_block_counter_id(&q, &b, p));
        }
    }
    const perfbuf_status bad = PERFBUF_E_INVALID_ARGUMENT;
    CHECK(perfbuf_v2_block_read_all(NULL, &b, matrix, CELLS, &needed) == bad);
    CHECK(perfbuf_v2_block_read_all(&q, NULL, matrix, CELLS, &needed) == bad);
    CHECK(perfbuf_v2_block_read_all(&q, &b, NULL, CELLS, &needed) == bad);
    CHECK(perfbuf_v2_block_read_all(&q, &b, matrix, CELLS, NULL) == bad);
    /* This block with a one-instance capture's query: its window ends
     * before the block's second instance. */
    static const char *const one[1] = {"_Total"};
    tb_v2 small = tb_v2_processor_information_query(one, 1);
    perfbuf_v2_query sq;
    CHECK(perfbuf_v2_query_parse(small.buf.data, small.buf.len, NULL, &sq, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v2_block_read_all(&sq, &b, matrix, CELLS, &needed) == bad);
    tb_free(&small.buf);
    tb_free(&v.buf);
}

/* A block without values (an ERROR_RETURN, dwStatus 0x1068) asked with no
 * matrix at all: nothing needed, nothing written, no row pointed at (the
 * replay seed block-without-counters-read-whole.bin is the input fuzzing
 * found it with). */
static void block_read_all_without_values(void)
{
    static const uint8_t query[64] = {
        0x40, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
        0x80, 0x96, 0x98, 0, 0, 0, 0, 0, 0xea, 0x07, 0x0b, 0, 0, 0, 0x16, 0, 0x0a, 0, 0, 0, 0, 0, 0, 0,
        0x68, 0x10, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0};
    perfbuf_v2_query q;
    perfbuf_v2_block b;
    CHECK(perfbuf_v2_query_parse(query, sizeof query, NULL, &q, NULL) == PERFBUF_OK);
    CHECK(first_block(&q, &b));
    CHECK_EQ_U(b.kind, PERFBUF_V2_ERROR_RETURN);
    CHECK_EQ_U(b.counter_count, 0);
    size_t needed = 99;
    CHECK(perfbuf_v2_block_read_all(&q, &b, NULL, 0, &needed) == PERFBUF_OK);
    CHECK_EQ_U(needed, 0);
}

/* The registration of walked_references: an object timer (time 1,
 * frequency 2), a multi timer (multi 4), an average with its base (6). */
static tb_buf walked_registration(void)
{
    static const struct {
        uint32_t id, type, base, time, freq, multi;
    } set[7] = {
        {0, PERF_OBJ_TIME_TIMER, PERFBUF_V2_NO_ID, 1, 2, PERFBUF_V2_NO_ID},
        {1, PERF_COUNTER_LARGE_RAWCOUNT, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
        {2, PERF_COUNTER_LARGE_RAWCOUNT, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
        {3, PERF_100NSEC_MULTI_TIMER, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, 4},
        {4, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
        {5, PERF_AVERAGE_BULK, 6, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
        {6, PERF_AVERAGE_BASE, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    };
    tb_reg_row rows[7];
    for (int i = 0; i < 7; i++) {
        rows[i].id = set[i].id;
        rows[i].type = set[i].type;
        rows[i].base = set[i].base;
        rows[i].name = NULL;
    }
    tb_buf reg_buf = tb_v2_reginfo(rows, 7, PERFBUF_COUNTERSET_SINGLE_INSTANCE);
    for (uint32_t i = 0; i < 7; i++) {
        tb_patch_u32(&reg_buf, 32 + 48 * i + 28, set[i].time);
        tb_patch_u32(&reg_buf, 32 + 48 * i + 32, set[i].freq);
        tb_patch_u32(&reg_buf, 32 + 48 * i + 36, set[i].multi);
    }
    return reg_buf;
}

/* Ids in the order of walked_block; 50 is registered by nothing. */
static const uint32_t walked_ids[8] = {6, 5, 4, 3, 2, 1, 0, 50};
#define WALKED_IDS 8u
#define WALKED_TIMER 6u /* the position of id 0, the object timer */
#define WALKED_MULTI_TIMER 3u

/* One block of walked_ids: the value of id `wide` 16 bytes long (none
 * when it is no id of the list), the multi count (id 4) past 32 bits
 * when big_multi, every other value 10 (id + 1). */
static tb_v2 walked_block(uint32_t wide, bool big_multi)
{
    tb_v2 v;
    tb_v2_begin(&v, 1, 2, 3);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
    tb_v2_ids(&v, walked_ids, WALKED_IDS);
    for (uint32_t p = 0; p < WALKED_IDS; p++) {
        if (walked_ids[p] == wide) {
            static const uint8_t bytes[16] = {9};
            tb_v2_value(&v, bytes, sizeof bytes);
        } else if (walked_ids[p] == 4 && big_multi) {
            tb_v2_u64(&v, (uint64_t)UINT32_MAX + 5u);
        } else {
            tb_v2_u64(&v, 10u * (walked_ids[p] + 1u));
        }
    }
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    return v;
}

/* When a value is not an integer the walk decides, and one walk answers
 * every position (walked_samples): the references of each type (time,
 * frequency, multi, base) found there, missing because their one value
 * is not an integer, and a multi count past 32 bits. Each position as
 * perfbuf_v2_raw_sample says. */
static void walked_references(void)
{
    tb_buf reg_buf = walked_registration();
    perfbuf_v2_reginfo reg = parse_reg(&reg_buf);
    static const struct {
        uint32_t wide;
        bool big_multi;
        uint32_t ok; /* positions that answer OK */
    } shapes[6] = {
        /* Everything but the base 6 and id 50. */
        {50, false, 6},
        {50, true, 6},
        /* The timer's time (1) or frequency (2) lost, with the counter. */
        {1, false, 4},
        {2, false, 4},
        /* The multi timer's multi count (4) lost, with the counter. */
        {4, false, 4},
        /* The average's base lost: the base had no sample anyway. */
        {6, false, 5},
    };
    for (int k = 0; k < 6; k++) {
        tb_v2 v = walked_block(shapes[k].wide, shapes[k].big_multi);
        perfbuf_v2_query q;
        perfbuf_v2_block b;
        CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
        CHECK(first_block(&q, &b));
        uint32_t ok = plan_equals_raw_samples(&q, &b, NULL, &reg);
        CHECK(!th.case_failed);
        CHECK_EQ_U(ok, shapes[k].ok);
        /* The walk found the multi count and told one past 32 bits. */
        perfbuf_v2_plan_entry entries[CAP];
        uint32_t scratch[CAP];
        perfbuf_v2_plan plan;
        CHECK(perfbuf_v2_plan_build(&q, &b, &reg, entries, CAP, scratch, CAP, &plan) ==
              PERFBUF_OK);
        uint64_t values[CAP];
        perfbuf_v2_values_read_result read;
        CHECK(perfbuf_v2_values_read(&q, &b, NULL, values, CAP, &read) == PERFBUF_OK);
        CHECK_EQ_U(read.non_integers, 1);
        perfbuf_raw_sample samples[CAP];
        perfbuf_value_context contexts[CAP];
        perfbuf_status statuses[CAP];
        CHECK(perfbuf_v2_plan_samples(&q, &b, NULL, &reg, &plan, values, &read, samples, contexts,
                                      statuses, CAP) == PERFBUF_OK);
        if (shapes[k].wide == 50) {
            CHECK_EQ_U(statuses[WALKED_MULTI_TIMER], PERFBUF_OK);
            CHECK_EQ_U(samples[WALKED_MULTI_TIMER].status, shapes[k].big_multi
                                                               ? PERFBUF_CSTATUS_INVALID_DATA
                                                               : PERFBUF_CSTATUS_VALID_DATA);
            CHECK_EQ_U(samples[WALKED_MULTI_TIMER].multi, shapes[k].big_multi ? 0u : 50u);
            CHECK_EQ_U(statuses[WALKED_TIMER], PERFBUF_OK);
            CHECK_EQ_U(samples[WALKED_TIMER].first, 10);
            CHECK_EQ_U(samples[WALKED_TIMER].second, 20);
            CHECK_EQ_U(contexts[WALKED_TIMER].frequency, 30);
        }
        tb_free(&v.buf);
    }
    tb_free(&reg_buf);
}

/* The object timer's entry changed since the build so that it would read
 * past the values, or take a clock past the four: refused with
 * INVALID_ARGUMENT, by the direct path (every value an integer) and by
 * the walk, and every other position answers as before. */
static void changed_entries_refused(void)
{
    tb_buf reg_buf = walked_registration();
    perfbuf_v2_reginfo reg = parse_reg(&reg_buf);
    /* No value 16 bytes long (id 99 is not listed), then one (id 50). */
    static const uint32_t wide[2] = {99, 50};
    for (int walk = 0; walk < 2; walk++) {
        tb_v2 v = walked_block(wide[walk], false);
        perfbuf_v2_query q;
        perfbuf_v2_block b;
        CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
        CHECK(first_block(&q, &b));
        perfbuf_v2_plan_entry built[CAP];
        uint32_t scratch[CAP];
        perfbuf_v2_plan plan;
        CHECK(perfbuf_v2_plan_build(&q, &b, &reg, built, CAP, scratch, CAP, &plan) == PERFBUF_OK);
        uint64_t values[CAP];
        perfbuf_v2_values_read_result read;
        CHECK(perfbuf_v2_values_read(&q, &b, NULL, values, CAP, &read) == PERFBUF_OK);
        CHECK_EQ_U(read.non_integers, (uint32_t)walk);
        perfbuf_raw_sample as_built[CAP];
        perfbuf_value_context as_built_ctx[CAP];
        perfbuf_status as_built_st[CAP];
        CHECK(perfbuf_v2_plan_samples(&q, &b, NULL, &reg, &plan, values, &read, as_built,
                                      as_built_ctx, as_built_st, CAP) == PERFBUF_OK);
        CHECK_EQ_U(as_built_st[WALKED_TIMER], PERFBUF_OK);
        for (int kind = 0; kind < 6; kind++) {
            perfbuf_v2_plan_entry entries[CAP];
            memcpy(entries, built, sizeof entries);
            perfbuf_v2_plan_entry *e = &entries[WALKED_TIMER];
            switch (kind) {
            case 0: e->first = WALKED_IDS; break;
            case 1: e->second = WALKED_IDS; break;
            case 2: e->frequency = WALKED_IDS; break;
            case 3: e->multi = WALKED_IDS; break;
            case 4: e->second_source = 4; break;
            default: e->frequency_source = 4; break;
            }
            perfbuf_v2_plan changed = plan;
            changed.entries = entries;
            perfbuf_raw_sample s;
            perfbuf_value_context ctx;
            if (walk == 0) {
                /* The walk does not decide: the plan's own path. */
                CHECK_EQ_U(perfbuf_v2_plan_sample(&q, &b, NULL, &reg, &changed, values, &read,
                                                  WALKED_TIMER, &s, &ctx),
                           PERFBUF_E_INVALID_ARGUMENT);
            }
            perfbuf_raw_sample samples[CAP];
            perfbuf_value_context contexts[CAP];
            perfbuf_status statuses[CAP];
            CHECK(perfbuf_v2_plan_samples(&q, &b, NULL, &reg, &changed, values, &read, samples,
                                          contexts, statuses, CAP) == PERFBUF_OK);
            for (uint32_t p = 0; p < WALKED_IDS; p++) {
                if (p == WALKED_TIMER) {
                    CHECK_EQ_U(statuses[p], PERFBUF_E_INVALID_ARGUMENT);
                    continue;
                }
                CHECK_EQ_U(statuses[p], as_built_st[p]);
                if (statuses[p] == PERFBUF_OK) {
                    CHECK_EQ_U(samples[p].first, as_built[p].first);
                    CHECK_EQ_U(samples[p].second, as_built[p].second);
                    CHECK_EQ_U(samples[p].multi, as_built[p].multi);
                    CHECK_EQ_U(samples[p].status, as_built[p].status);
                    CHECK_EQ_U(contexts[p].frequency, as_built_ctx[p].frequency);
                }
            }
        }
        tb_free(&v.buf);
    }
    tb_free(&reg_buf);
}

static const th_case cases[] = {
    TH_CASE(instances_with_values),
    TH_CASE(block_read_all),
    TH_CASE(block_read_all_without_values),
    TH_CASE(processor_information),
    TH_CASE(references_present_and_missing),
    TH_CASE(repeated_ids_and_wide_values),
    TH_CASE(irregular_at_scale),
    TH_CASE(two_captures_formatted),
    TH_CASE(sizes_and_arguments),
    TH_CASE(walked_references),
    TH_CASE(changed_entries_refused),
};
TH_MAIN(cases)
