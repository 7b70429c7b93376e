/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * V1 value plans: every value, sample and formatted pair a plan gives is
 * the one the per-value accessors give, and a plan never reads a counter
 * block that is not of the parse and object it was built for. Every
 * buffer is parsed in front of a guard page.
 */
#include <stddef.h>
#include <string.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/v1.h"
#include "builder_v1.h"
#include "guard.h"
#include "harness.h"

enum { MAX_COUNTERS = 8 };

typedef struct capture {
    tb_v1 v;
    guarded g;
    perfbuf_v1_block b;
} capture;

static bool capture_parse(capture *c, uint32_t flags)
{
    c->g = guard_place(c->v.buf.data, c->v.buf.len);
    perfbuf_options opts = {flags, 0, 0, 0};
    return perfbuf_v1_parse(c->g.bytes, c->v.buf.len, &opts, &c->b, NULL) == PERFBUF_OK;
}

static void capture_free(capture *c)
{
    guard_release(&c->g);
    tb_free(&c->v.buf);
}

static bool object_at(const perfbuf_v1_block *b, uint32_t title, perfbuf_v1_object *o)
{
    return perfbuf_v1_find_object(b, title, o) == PERFBUF_OK;
}

/* The i-th counter block of o: its single block, or its i-th instance's. */
static bool block_of(const perfbuf_v1_block *b, const perfbuf_v1_object *o, uint32_t i,
                     perfbuf_v1_counter_block *blk)
{
    if (o->num_instances == PERFBUF_V1_NO_INSTANCES) {
        return i == 0 && perfbuf_v1_object_counter_block(b, o, blk);
    }
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst;
    perfbuf_v1_instances_begin(o, &it);
    while (perfbuf_v1_instances_next(b, &it, &inst)) {
        if (inst.index == i) {
            *blk = inst.counters;
            return true;
        }
    }
    return false;
}

static uint32_t definitions_of(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                               perfbuf_v1_counter *defs)
{
    perfbuf_v1_iter it;
    uint32_t n = 0;
    perfbuf_v1_counters_begin(o, &it);
    while (n < MAX_COUNTERS && perfbuf_v1_counters_next(b, &it, &defs[n])) {
        n++;
    }
    return n;
}

/* Every block of every object: the plan's values are the accessor's. */
static void test_plan_reads_every_value(void)
{
    capture c = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    static const uint32_t titles[3] = {TB_V1_PROCESS, TB_V1_THREAD, TB_V1_MEMORY};
    uint32_t blocks_seen = 0;
    for (int t = 0; t < 3; t++) {
        perfbuf_v1_object o;
        CHECK(object_at(&c.b, titles[t], &o));
        perfbuf_v1_counter defs[MAX_COUNTERS];
        uint32_t n = definitions_of(&c.b, &o, defs);
        perfbuf_v1_plan_entry entries[MAX_COUNTERS];
        perfbuf_v1_plan plan;
        CHECK(perfbuf_v1_plan_build(&c.b, &o, entries, MAX_COUNTERS, &plan) == PERFBUF_OK);
        CHECK_EQ_U(plan.count, n);
        perfbuf_v1_counter_block blk;
        for (uint32_t i = 0; block_of(&c.b, &o, i, &blk); i++) {
            uint64_t values[MAX_COUNTERS];
            CHECK(perfbuf_v1_plan_read(&plan, &c.b, &blk, values, MAX_COUNTERS) == PERFBUF_OK);
            for (uint32_t k = 0; k < n; k++) {
                CHECK_EQ_U(values[k], perfbuf_v1_counter_value(&c.b, &blk, &defs[k]));
            }
            if (titles[t] == TB_V1_PROCESS && i == 1) {
                CHECK_EQ_U(values[0], 2000000u);
                CHECK_EQ_U(values[1], 101u);
                CHECK_EQ_U(values[2], 3u);
            }
            blocks_seen++;
        }
    }
    CHECK_EQ_U(blocks_seen, 3 + 4 + 1);
    capture_free(&c);
}

/* Samples equal perfbuf_v1_raw_sample's, statuses included, and the
 * pairings are resolved once: a fraction with its base, a base alone. */
static void test_plan_samples_equal_raw_sample(void)
{
    capture c = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    static const uint32_t titles[3] = {TB_V1_PROCESS, TB_V1_THREAD, TB_V1_MEMORY};
    for (int t = 0; t < 3; t++) {
        perfbuf_v1_object o;
        CHECK(object_at(&c.b, titles[t], &o));
        perfbuf_v1_counter defs[MAX_COUNTERS];
        uint32_t n = definitions_of(&c.b, &o, defs);
        perfbuf_v1_plan_entry entries[MAX_COUNTERS];
        perfbuf_v1_plan plan;
        CHECK(perfbuf_v1_plan_build(&c.b, &o, entries, MAX_COUNTERS, &plan) == PERFBUF_OK);
        perfbuf_v1_counter_block blk;
        for (uint32_t i = 0; block_of(&c.b, &o, i, &blk); i++) {
            for (uint32_t k = 0; k < n; k++) {
                perfbuf_raw_sample a, r;
                perfbuf_value_context ac, rc;
                perfbuf_status pst = perfbuf_v1_plan_sample(&plan, &c.b, &blk, k, &a, &ac);
                perfbuf_status rst = perfbuf_v1_raw_sample(&c.b, &o, &defs[k], &blk, &r, &rc);
                CHECK_EQ_U(pst, rst);
                if (pst == PERFBUF_OK) {
                    CHECK_EQ_U(a.status, r.status);
                    CHECK_EQ_U(a.type, r.type);
                    CHECK_EQ_U(a.first, r.first);
                    CHECK_EQ_U(a.second, r.second);
                    CHECK_EQ_U(a.multi, r.multi);
                    CHECK_EQ_U(a.time_stamp, r.time_stamp);
                    CHECK_EQ_U(ac.frequency, rc.frequency);
                    CHECK(ac.scale == rc.scale);
                }
            }
        }
        if (titles[t] == TB_V1_THREAD) {
            CHECK_EQ_U(entries[1].pairing, PERFBUF_V1_PLAN_BASE);
            CHECK_EQ_U(entries[1].base_offset, 12u);
            CHECK_EQ_U(entries[2].pairing, PERFBUF_V1_PLAN_UNDISPLAYABLE);
            CHECK_EQ_U(plan.reach, 16u);
        }
        if (titles[t] == TB_V1_MEMORY) {
            CHECK_EQ_U(entries[0].pairing, PERFBUF_V1_PLAN_VALUE);
            CHECK_EQ_U(entries[1].pairing, PERFBUF_V1_PLAN_BASE);
            CHECK_EQ_U(entries[1].base_offset, 24u);
        }
    }
    capture_free(&c);
}

/* The second capture: one second later, the first thread's counter 500
 * higher. */
static tb_v1 one_second_later(const perfbuf_v1_block *earlier, size_t counter_at)
{
    tb_v1 v = tb_v1_sample_global();
    uint64_t freq = (uint64_t)earlier->perf_freq;
    uint64_t t = (uint64_t)earlier->perf_time + freq;
    uint64_t t100 = (uint64_t)earlier->perf_time_100ns + 10000000u;
    for (int i = 0; i < 8; i++) {
        v.buf.data[56 + i] = (uint8_t)(t >> (8 * i));
        v.buf.data[72 + i] = (uint8_t)(t100 >> (8 * i));
    }
    uint32_t old = (uint32_t)v.buf.data[counter_at] | (uint32_t)v.buf.data[counter_at + 1] << 8 |
                   (uint32_t)v.buf.data[counter_at + 2] << 16 |
                   (uint32_t)v.buf.data[counter_at + 3] << 24;
    uint32_t now = old + 500;
    for (int i = 0; i < 4; i++) {
        v.buf.data[counter_at + (size_t)i] = (uint8_t)(now >> (8 * i));
    }
    return v;
}

/* Two captures: a plan per capture formats what raw samples and
 * perfbuf_format_value give, and a counter's rate comes out. */
static void test_plan_formats_two_captures(void)
{
    capture c0 = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c0, PERFBUF_STRICT));
    perfbuf_v1_object o0;
    CHECK(object_at(&c0.b, TB_V1_THREAD, &o0));
    perfbuf_v1_counter_block blk0;
    CHECK(block_of(&c0.b, &o0, 0, &blk0));
    capture c1 = {one_second_later(&c0.b, blk0.offset + 4), {0}, {0}};
    CHECK(capture_parse(&c1, PERFBUF_STRICT));
    perfbuf_v1_object o1;
    CHECK(object_at(&c1.b, TB_V1_THREAD, &o1));
    perfbuf_v1_counter_block blk1;
    CHECK(block_of(&c1.b, &o1, 0, &blk1));

    perfbuf_v1_plan_entry e0[MAX_COUNTERS], e1[MAX_COUNTERS];
    perfbuf_v1_plan p0, p1;
    CHECK(perfbuf_v1_plan_build(&c0.b, &o0, e0, MAX_COUNTERS, &p0) == PERFBUF_OK);
    CHECK(perfbuf_v1_plan_build(&c1.b, &o1, e1, MAX_COUNTERS, &p1) == PERFBUF_OK);
    perfbuf_v1_counter defs[MAX_COUNTERS];
    uint32_t n = definitions_of(&c1.b, &o1, defs);
    for (uint32_t k = 0; k < n; k++) {
        perfbuf_value by_plan, by_accessor;
        perfbuf_status st = perfbuf_v1_plan_format(&p1, &c1.b, &blk1, &p0, &c0.b, &blk0, k,
                                                   PERFBUF_FMT_DOUBLE, &by_plan);
        perfbuf_raw_sample s0, s1;
        perfbuf_value_context x0, x1;
        perfbuf_status r0 = perfbuf_v1_raw_sample(&c0.b, &o0, &defs[k], &blk0, &s0, &x0);
        perfbuf_status r1 = perfbuf_v1_raw_sample(&c1.b, &o1, &defs[k], &blk1, &s1, &x1);
        CHECK_EQ_U(st, r1);
        CHECK_EQ_U(st, r0);
        if (st == PERFBUF_OK) {
            (void)perfbuf_format_value(defs[k].type, &s1, &s0, &x1, PERFBUF_FMT_DOUBLE,
                                       &by_accessor);
            CHECK_EQ_U(by_plan.status, by_accessor.status);
            CHECK(by_plan.as_double == by_accessor.as_double);
        }
        if (k == 0) {
            /* PERF_COUNTER_COUNTER: 500 more in one second. */
            CHECK_EQ_U(by_plan.status, PERFBUF_CSTATUS_VALID_DATA);
            CHECK(by_plan.as_double > 499.999 && by_plan.as_double < 500.001);
        }
        if (k == 1) {
            /* PERF_RAW_FRACTION 25 / 100. */
            CHECK(by_plan.as_double > 24.999 && by_plan.as_double < 25.001);
        }
    }
    /* The whole block at once: what each call per counter gives. */
    perfbuf_value all[MAX_COUNTERS];
    CHECK(perfbuf_v1_plan_format_all(&p1, &c1.b, &blk1, &p0, &c0.b, &blk0, PERFBUF_FMT_DOUBLE,
                                     all, MAX_COUNTERS) == PERFBUF_OK);
    for (uint32_t k = 0; k < n; k++) {
        perfbuf_value one;
        perfbuf_status st = perfbuf_v1_plan_format(&p1, &c1.b, &blk1, &p0, &c0.b, &blk0, k,
                                                   PERFBUF_FMT_DOUBLE, &one);
        if (st == PERFBUF_OK) {
            CHECK_EQ_U(all[k].status, one.status);
            CHECK(all[k].as_double == one.as_double);
        } else {
            /* The base of the thread object is not displayable. */
            CHECK_EQ_U(st, PERFBUF_E_INVALID_ARGUMENT);
            CHECK_EQ_U(all[k].status, PERFBUF_PDH_INVALID_ARGUMENT);
        }
    }
    CHECK_EQ_U(perfbuf_v1_plan_format_all(&p1, &c1.b, &blk1, &p0, &c0.b, &blk0,
                                          PERFBUF_FMT_DOUBLE, all, n - 1u),
               PERFBUF_E_OUTPUT_TOO_SMALL);
    /* A block of another object is not the plan's. */
    perfbuf_v1_object process1;
    perfbuf_v1_counter_block process1_blk;
    CHECK(object_at(&c1.b, TB_V1_PROCESS, &process1));
    CHECK(block_of(&c1.b, &process1, 0, &process1_blk));
    CHECK_EQ_U(perfbuf_v1_plan_format_all(&p1, &c1.b, &process1_blk, &p0, &c0.b, &blk0,
                                          PERFBUF_FMT_DOUBLE, all, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    /* Counters that differ between the plans are never paired. */
    perfbuf_v1_object process;
    CHECK(object_at(&c0.b, TB_V1_PROCESS, &process));
    perfbuf_v1_plan_entry ep[MAX_COUNTERS];
    perfbuf_v1_plan pp;
    perfbuf_v1_counter_block process_blk;
    CHECK(block_of(&c0.b, &process, 0, &process_blk));
    CHECK(perfbuf_v1_plan_build(&c0.b, &process, ep, MAX_COUNTERS, &pp) == PERFBUF_OK);
    perfbuf_value v;
    CHECK_EQ_U(perfbuf_v1_plan_format(&p1, &c1.b, &blk1, &pp, &c0.b, &process_blk, 0,
                                      PERFBUF_FMT_DOUBLE, &v),
               PERFBUF_E_INCONSISTENT);
    CHECK(perfbuf_v1_plan_format_all(&p1, &c1.b, &blk1, &pp, &c0.b, &process_blk,
                                     PERFBUF_FMT_DOUBLE, all, MAX_COUNTERS) == PERFBUF_OK);
    CHECK_EQ_U(all[0].status, PERFBUF_CSTATUS_INVALID_DATA);
    capture_free(&c0);
    capture_free(&c1);
}

/* A plan reads only blocks of its own parse and object that cover it. */
static void test_plan_refuses_other_blocks(void)
{
    capture c0 = {tb_v1_sample_global(), {0}, {0}};
    capture c1 = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c0, PERFBUF_STRICT));
    CHECK(capture_parse(&c1, PERFBUF_STRICT));
    perfbuf_v1_object thread0, thread1, process0;
    CHECK(object_at(&c0.b, TB_V1_THREAD, &thread0));
    CHECK(object_at(&c1.b, TB_V1_THREAD, &thread1));
    CHECK(object_at(&c0.b, TB_V1_PROCESS, &process0));
    perfbuf_v1_plan_entry entries[MAX_COUNTERS];
    perfbuf_v1_plan plan;
    CHECK(perfbuf_v1_plan_build(&c0.b, &thread0, entries, MAX_COUNTERS, &plan) == PERFBUF_OK);
    perfbuf_v1_counter_block own, other_capture, other_object;
    CHECK(block_of(&c0.b, &thread0, 0, &own));
    CHECK(block_of(&c1.b, &thread1, 0, &other_capture));
    CHECK(block_of(&c0.b, &process0, 0, &other_object));
    uint64_t values[MAX_COUNTERS];
    CHECK(perfbuf_v1_plan_read(&plan, &c0.b, &own, values, MAX_COUNTERS) == PERFBUF_OK);
    /* The same bytes in another buffer: another parse. */
    CHECK_EQ_U(perfbuf_v1_plan_read(&plan, &c1.b, &other_capture, values, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_read(&plan, &c0.b, &other_object, values, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_v1_counter_block shorter = {own.offset, (uint32_t)plan.reach - 1u, own.parse_id};
    CHECK_EQ_U(perfbuf_v1_plan_read(&plan, &c0.b, &shorter, values, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_v1_counter_block past = {own.offset, UINT32_MAX, own.parse_id};
    CHECK_EQ_U(perfbuf_v1_plan_read(&plan, &c0.b, &past, values, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_raw_sample s;
    perfbuf_value_context x;
    CHECK_EQ_U(perfbuf_v1_plan_sample(&plan, &c1.b, &other_capture, 0, &s, &x),
               PERFBUF_E_INVALID_ARGUMENT);
    /* The other capture's counter block with this plan's own parse, which
     * holds the same bytes at the same offset: another parse's block. */
    CHECK(other_capture.offset == own.offset && other_capture.byte_length == own.byte_length);
    CHECK_EQ_U(perfbuf_v1_plan_read(&plan, &c0.b, &other_capture, values, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_sample(&plan, &c0.b, &other_capture, 0, &s, &x),
               PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_v1_plan plan1;
    perfbuf_v1_plan_entry entries1[MAX_COUNTERS];
    CHECK(perfbuf_v1_plan_build(&c1.b, &thread1, entries1, MAX_COUNTERS, &plan1) == PERFBUF_OK);
    perfbuf_value v;
    perfbuf_value all[MAX_COUNTERS];
    CHECK(perfbuf_v1_plan_format(&plan1, &c1.b, &other_capture, &plan, &c0.b, &own, 0,
                                 PERFBUF_FMT_LARGE, &v) == PERFBUF_OK);
    CHECK_EQ_U(perfbuf_v1_plan_format(&plan1, &c1.b, &other_capture, &plan, &c0.b,
                                      &other_capture, 0, PERFBUF_FMT_LARGE, &v),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format(&plan1, &c1.b, &own, &plan, &c0.b, &own, 0,
                                      PERFBUF_FMT_LARGE, &v),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_plan_format_all(&plan1, &c1.b, &other_capture, &plan, &c0.b, &own,
                                     PERFBUF_FMT_LARGE, all, MAX_COUNTERS) == PERFBUF_OK);
    CHECK_EQ_U(perfbuf_v1_plan_format_all(&plan1, &c1.b, &other_capture, &plan, &c0.b,
                                          &other_capture, PERFBUF_FMT_LARGE, all, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_all(&plan1, &c1.b, &own, &plan, &c0.b, &own,
                                          PERFBUF_FMT_LARGE, all, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    /* Moved past its start within the object's data: no ByteLength of its
     * length starts there. */
    perfbuf_v1_counter_block moved = own;
    moved.offset += 8;
    moved.byte_length = (uint32_t)plan.reach;
    CHECK(moved.offset + moved.byte_length <= thread0.offset + thread0.total_length);
    CHECK_EQ_U(perfbuf_v1_plan_read(&plan, &c0.b, &moved, values, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    /* The same buffer holding a later capture is another parse too. */
    perfbuf_v1_block later = c0.b;
    later.perf_time += 1;
    CHECK_EQ_U(perfbuf_v1_plan_read(&plan, &later, &own, values, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    capture_free(&c0);
    capture_free(&c1);
}

static void test_plan_arguments(void)
{
    capture c0 = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c0, PERFBUF_STRICT));
    perfbuf_v1_object o, other;
    CHECK(object_at(&c0.b, TB_V1_THREAD, &o));
    perfbuf_v1_plan_entry entries[MAX_COUNTERS];
    perfbuf_v1_plan plan;
    CHECK_EQ_U(perfbuf_v1_plan_build(&c0.b, &o, entries, o.counter_count - 1u, &plan),
               PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(perfbuf_v1_plan_build(&c0.b, &o, NULL, 0, &plan), PERFBUF_E_OUTPUT_TOO_SMALL);
    /* An object this block does not describe that way. */
    other = o;
    other.total_length += 8;
    CHECK_EQ_U(perfbuf_v1_plan_build(&c0.b, &other, entries, MAX_COUNTERS, &plan),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_build(NULL, &o, entries, MAX_COUNTERS, &plan),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_build(&c0.b, &o, entries, MAX_COUNTERS, NULL),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_plan_build(&c0.b, &o, entries, MAX_COUNTERS, &plan) == PERFBUF_OK);
    perfbuf_v1_counter_block blk;
    CHECK(block_of(&c0.b, &o, 0, &blk));
    uint64_t values[MAX_COUNTERS] = {0};
    values[0] = 77;
    CHECK_EQ_U(perfbuf_v1_plan_read(&plan, &c0.b, &blk, values, plan.count - 1u),
               PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(values[0], 77u);
    CHECK_EQ_U(perfbuf_v1_plan_read(&plan, &c0.b, &blk, NULL, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_raw_sample s;
    perfbuf_value_context x;
    CHECK_EQ_U(perfbuf_v1_plan_sample(&plan, &c0.b, &blk, plan.count, &s, &x),
               PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_value v;
    CHECK_EQ_U(perfbuf_v1_plan_format(&plan, &c0.b, &blk, &plan, &c0.b, &blk, plan.count,
                                      PERFBUF_FMT_DOUBLE, &v),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format(&plan, &c0.b, &blk, &plan, &c0.b, &blk, 0,
                                      PERFBUF_FMT_DOUBLE, NULL),
               PERFBUF_E_INVALID_ARGUMENT);
    capture_free(&c0);
}

/* A multi timer whose multi base a lenient parse let go missing: the plan
 * says so once, and its sample is NOT_FOUND as raw_sample's is. */
static void test_plan_missing_multi_base(void)
{
    capture c;
    tb_v1_begin(&c.v, "VM");
    tb_v1_object_begin(&c.v, 500, 1, 0);
    tb_v1_counter(&c.v, 10, PERF_COUNTER_LARGE_RAWCOUNT, 8, 8);
    tb_v1_counter(&c.v, 12, PERF_COUNTER_MULTI_TIMER, 8, 16);
    tb_v1_definitions_end(&c.v);
    uint8_t data[20] = {0};
    tb_put64(data, 8, 42);
    tb_put64(data, 16, 99);
    tb_v1_counter_block(&c.v, data, sizeof data);
    tb_v1_object_end(&c.v);
    tb_v1_end(&c.v);
    CHECK(capture_parse(&c, 0));
    CHECK(c.b.anomalies != 0);
    perfbuf_v1_object o;
    CHECK(object_at(&c.b, 500, &o));
    perfbuf_v1_plan_entry entries[MAX_COUNTERS];
    perfbuf_v1_plan plan;
    CHECK(perfbuf_v1_plan_build(&c.b, &o, entries, MAX_COUNTERS, &plan) == PERFBUF_OK);
    CHECK_EQ_U(entries[1].pairing, PERFBUF_V1_PLAN_MISSING_BASE);
    perfbuf_v1_counter_block blk;
    CHECK(block_of(&c.b, &o, 0, &blk));
    perfbuf_v1_counter defs[MAX_COUNTERS];
    CHECK_EQ_U(definitions_of(&c.b, &o, defs), 2u);
    perfbuf_raw_sample s;
    perfbuf_value_context x;
    CHECK_EQ_U(perfbuf_v1_plan_sample(&plan, &c.b, &blk, 1, &s, &x), PERFBUF_E_NOT_FOUND);
    CHECK_EQ_U(perfbuf_v1_raw_sample(&c.b, &o, &defs[1], &blk, &s, &x), PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_v1_plan_sample(&plan, &c.b, &blk, 0, &s, &x) == PERFBUF_OK);
    CHECK_EQ_U(s.first, 42u);
    uint64_t values[MAX_COUNTERS];
    CHECK(perfbuf_v1_plan_read(&plan, &c.b, &blk, values, MAX_COUNTERS) == PERFBUF_OK);
    CHECK_EQ_U(values[1], 99u);
    perfbuf_value all[MAX_COUNTERS];
    CHECK(perfbuf_v1_plan_format_all(&plan, &c.b, &blk, &plan, &c.b, &blk, PERFBUF_FMT_LARGE, all,
                                     MAX_COUNTERS) == PERFBUF_OK);
    CHECK_EQ_U(all[0].status, PERFBUF_CSTATUS_VALID_DATA);
    CHECK_EQ_U(all[0].as_large, 42u);
    CHECK_EQ_U(all[1].status, PERFBUF_CSTATUS_NO_COUNTER);
    capture_free(&c);
}

/* A whole object per call: every row is the plan's read of that
 * instance's block (the single block for a -1 object), the process rows
 * carry the values the sample block was built with, and the matrix's size
 * is told before anything is written. */
static void test_plan_reads_whole_object(void)
{
    capture c = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    static const uint32_t titles[3] = {TB_V1_PROCESS, TB_V1_THREAD, TB_V1_MEMORY};
    static const uint32_t rows_of[3] = {3, 4, 1};
    for (int t = 0; t < 3; t++) {
        perfbuf_v1_object o;
        CHECK(object_at(&c.b, titles[t], &o));
        perfbuf_v1_plan_entry entries[MAX_COUNTERS];
        perfbuf_v1_plan plan;
        CHECK(perfbuf_v1_plan_build(&c.b, &o, entries, MAX_COUNTERS, &plan) == PERFBUF_OK);
        enum { CELLS = 8 * MAX_COUNTERS };
        uint64_t matrix[CELLS];
        size_t needed = 0;
        CHECK_EQ_U(perfbuf_v1_plan_read_object(&plan, &c.b, &o, NULL, 0, &needed),
                   PERFBUF_E_OUTPUT_TOO_SMALL);
        CHECK_EQ_U(needed, (size_t)rows_of[t] * plan.count);
        matrix[0] = 77;
        CHECK_EQ_U(perfbuf_v1_plan_read_object(&plan, &c.b, &o, matrix, needed - 1u, &needed),
                   PERFBUF_E_OUTPUT_TOO_SMALL);
        CHECK_EQ_U(matrix[0], 77u);
        CHECK(perfbuf_v1_plan_read_object(&plan, &c.b, &o, matrix, CELLS, &needed) ==
              PERFBUF_OK);
        CHECK_EQ_U(needed, (size_t)rows_of[t] * plan.count);
        perfbuf_v1_counter_block blk;
        uint32_t i = 0;
        for (; block_of(&c.b, &o, i, &blk); i++) {
            uint64_t values[MAX_COUNTERS];
            CHECK(perfbuf_v1_plan_read(&plan, &c.b, &blk, values, MAX_COUNTERS) == PERFBUF_OK);
            for (uint32_t k = 0; k < plan.count; k++) {
                CHECK_EQ_U(matrix[i * plan.count + k], values[k]);
            }
        }
        CHECK_EQ_U(i, rows_of[t]);
        if (titles[t] == TB_V1_PROCESS) {
            CHECK_EQ_U(matrix[plan.count + 0], 2000000u);
            CHECK_EQ_U(matrix[plan.count + 1], 101u);
            CHECK_EQ_U(matrix[plan.count + 2], 3u);
        }
    }
    capture_free(&c);
}

/* The object call checks once what plan_read checks per block: the plan's
 * parse, its object, and entries the caller changed to read past what
 * validation proved every counter block holds. */
static void test_plan_read_object_refuses(void)
{
    capture c0 = {tb_v1_sample_global(), {0}, {0}};
    capture c1 = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c0, PERFBUF_STRICT));
    CHECK(capture_parse(&c1, PERFBUF_STRICT));
    perfbuf_v1_object thread0, thread1, process0;
    CHECK(object_at(&c0.b, TB_V1_THREAD, &thread0));
    CHECK(object_at(&c1.b, TB_V1_THREAD, &thread1));
    CHECK(object_at(&c0.b, TB_V1_PROCESS, &process0));
    perfbuf_v1_plan_entry entries[MAX_COUNTERS];
    perfbuf_v1_plan plan;
    CHECK(perfbuf_v1_plan_build(&c0.b, &thread0, entries, MAX_COUNTERS, &plan) == PERFBUF_OK);
    uint64_t matrix[8 * MAX_COUNTERS];
    size_t cap = sizeof matrix / sizeof matrix[0];
    size_t needed;
    CHECK(perfbuf_v1_plan_read_object(&plan, &c0.b, &thread0, matrix, cap, &needed) ==
          PERFBUF_OK);
    /* Another capture of the same bytes, another object, a later capture
     * in the same buffer. */
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&plan, &c1.b, &thread1, matrix, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&plan, &c0.b, &process0, matrix, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_v1_block later = c0.b;
    later.perf_time += 1;
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&plan, &later, &thread0, matrix, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    /* An object the block does not describe that way. */
    perfbuf_v1_object grown = thread0;
    grown.total_length += 8;
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&plan, &c0.b, &grown, matrix, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    /* Fields the walk takes from the object, changed where the block's
     * header does not say so: its data's start, its instance count. */
    perfbuf_v1_object shifted = thread0;
    perfbuf_v1_plan shifted_plan = plan;
    shifted.data_offset += 8;
    shifted_plan.data_offset += 8;
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&shifted_plan, &c0.b, &shifted, matrix, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_v1_object more = thread0;
    more.instance_count += 1;
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&plan, &c0.b, &more, matrix, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    /* An entry moved to end one byte past the furthest definition's end,
     * and one moved to end exactly there: neither is the entry the build
     * sealed, so both are refused before a value is read. */
    perfbuf_v1_plan_entry saved = entries[0];
    entries[0].size = 8;
    entries[0].offset = (uint32_t)plan.reach - 7u;
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&plan, &c0.b, &thread0, matrix, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    entries[0].offset = (uint32_t)plan.reach - 8u;
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&plan, &c0.b, &thread0, matrix, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    entries[0] = saved;
    CHECK(perfbuf_v1_plan_read_object(&plan, &c0.b, &thread0, matrix, cap, &needed) ==
          PERFBUF_OK);
    perfbuf_v1_plan fewer = plan;
    fewer.count -= 1;
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&fewer, &c0.b, &thread0, matrix, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&plan, &c0.b, &thread0, NULL, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&plan, &c0.b, &thread0, matrix, cap, NULL),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_read_object(NULL, &c0.b, &thread0, matrix, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    capture_free(&c0);
    capture_free(&c1);
}

/* A whole object formatted from two captures, paired by position: each
 * row what perfbuf_v1_plan_format_all gives for that instance's blocks;
 * objects of different instance counts are not paired by position. */
static void test_plan_formats_whole_object(void)
{
    capture c0 = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c0, PERFBUF_STRICT));
    perfbuf_v1_object o0;
    CHECK(object_at(&c0.b, TB_V1_THREAD, &o0));
    perfbuf_v1_counter_block blk0;
    CHECK(block_of(&c0.b, &o0, 0, &blk0));
    capture c1 = {one_second_later(&c0.b, blk0.offset + 4), {0}, {0}};
    CHECK(capture_parse(&c1, PERFBUF_STRICT));
    perfbuf_v1_object o1;
    CHECK(object_at(&c1.b, TB_V1_THREAD, &o1));
    perfbuf_v1_plan_entry e0[MAX_COUNTERS], e1[MAX_COUNTERS];
    perfbuf_v1_plan p0, p1;
    CHECK(perfbuf_v1_plan_build(&c0.b, &o0, e0, MAX_COUNTERS, &p0) == PERFBUF_OK);
    CHECK(perfbuf_v1_plan_build(&c1.b, &o1, e1, MAX_COUNTERS, &p1) == PERFBUF_OK);
    enum { CELLS = 4 * MAX_COUNTERS };
    perfbuf_value matrix[CELLS];
    size_t needed = 0;
    CHECK_EQ_U(perfbuf_v1_plan_format_object(&p1, &c1.b, &o1, &p0, &c0.b, &o0, PERFBUF_FMT_DOUBLE,
                                             matrix, 1, &needed),
               PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(needed, 4u * p1.count);
    CHECK(perfbuf_v1_plan_format_object(&p1, &c1.b, &o1, &p0, &c0.b, &o0, PERFBUF_FMT_DOUBLE,
                                        matrix, CELLS, &needed) == PERFBUF_OK);
    CHECK_EQ_U(needed, 4u * p1.count);
    perfbuf_v1_counter_block b0, b1;
    uint32_t i = 0;
    for (; block_of(&c0.b, &o0, i, &b0); i++) {
        CHECK(block_of(&c1.b, &o1, i, &b1));
        perfbuf_value all[MAX_COUNTERS];
        CHECK(perfbuf_v1_plan_format_all(&p1, &c1.b, &b1, &p0, &c0.b, &b0, PERFBUF_FMT_DOUBLE,
                                         all, MAX_COUNTERS) == PERFBUF_OK);
        for (uint32_t k = 0; k < p1.count; k++) {
            CHECK_EQ_U(matrix[i * p1.count + k].status, all[k].status);
            CHECK(matrix[i * p1.count + k].as_double == all[k].as_double);
        }
    }
    CHECK_EQ_U(i, 4);
    /* The first thread's PERF_COUNTER_COUNTER: 500 more in one second. */
    CHECK_EQ_U(matrix[0].status, PERFBUF_CSTATUS_VALID_DATA);
    CHECK(matrix[0].as_double > 499.999 && matrix[0].as_double < 500.001);
    /* Three processes against four threads: not paired by position. */
    perfbuf_v1_object process0;
    CHECK(object_at(&c0.b, TB_V1_PROCESS, &process0));
    perfbuf_v1_plan_entry ep[MAX_COUNTERS];
    perfbuf_v1_plan pp;
    CHECK(perfbuf_v1_plan_build(&c0.b, &process0, ep, MAX_COUNTERS, &pp) == PERFBUF_OK);
    CHECK_EQ_U(perfbuf_v1_plan_format_object(&p1, &c1.b, &o1, &pp, &c0.b, &process0,
                                             PERFBUF_FMT_DOUBLE, matrix, CELLS, &needed),
               PERFBUF_E_INCONSISTENT);
    /* A plan given with the other capture's object or parse. */
    CHECK_EQ_U(perfbuf_v1_plan_format_object(&p1, &c1.b, &o1, &p0, &c1.b, &o1, PERFBUF_FMT_DOUBLE,
                                             matrix, CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_object(&p1, &c1.b, &o1, &p0, &c0.b, &process0,
                                             PERFBUF_FMT_DOUBLE, matrix, CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_object(&p1, &c1.b, &o1, &p0, &c0.b, &o0, PERFBUF_FMT_DOUBLE,
                                             matrix, CELLS, NULL),
               PERFBUF_E_INVALID_ARGUMENT);
    /* The newer capture's second Thread counter renamed: its column pairs
     * with no counter of the older plan (INVALID_DATA in every row), the
     * others as perfbuf_v1_plan_format_all gives them. The call compares
     * the plans' columns once, not per row. */
    perfbuf_v1_iter ci;
    perfbuf_v1_counter second;
    perfbuf_v1_counters_begin(&o0, &ci);
    CHECK(perfbuf_v1_counters_next(&c0.b, &ci, &second));
    CHECK(perfbuf_v1_counters_next(&c0.b, &ci, &second));
    capture c2 = {one_second_later(&c0.b, blk0.offset + 4), {0}, {0}};
    /* CounterNameTitleIndex: the DWORD after ByteLength (winperf.h). */
    c2.v.buf.data[second.offset + 4] ^= 0x40;
    CHECK(capture_parse(&c2, PERFBUF_STRICT));
    perfbuf_v1_object o2;
    CHECK(object_at(&c2.b, TB_V1_THREAD, &o2));
    perfbuf_v1_plan_entry e2[MAX_COUNTERS];
    perfbuf_v1_plan p2;
    CHECK(perfbuf_v1_plan_build(&c2.b, &o2, e2, MAX_COUNTERS, &p2) == PERFBUF_OK);
    CHECK(p2.count >= 2 && e2[1].title_index != e0[1].title_index);
    CHECK(perfbuf_v1_plan_format_object(&p2, &c2.b, &o2, &p0, &c0.b, &o0, PERFBUF_FMT_DOUBLE,
                                        matrix, CELLS, &needed) == PERFBUF_OK);
    for (i = 0; block_of(&c0.b, &o0, i, &b0); i++) {
        CHECK(block_of(&c2.b, &o2, i, &b1));
        perfbuf_value all[MAX_COUNTERS];
        CHECK(perfbuf_v1_plan_format_all(&p2, &c2.b, &b1, &p0, &c0.b, &b0, PERFBUF_FMT_DOUBLE,
                                         all, MAX_COUNTERS) == PERFBUF_OK);
        for (uint32_t k = 0; k < p2.count; k++) {
            const perfbuf_value *v = &matrix[i * p2.count + k];
            CHECK_EQ_U(v->status, all[k].status);
            CHECK(v->as_double == all[k].as_double);
            CHECK_EQ_U(v->format, PERFBUF_FMT_DOUBLE);
        }
        CHECK_EQ_U(matrix[i * p2.count + 1].status, PERFBUF_CSTATUS_INVALID_DATA);
        CHECK(matrix[i * p2.count + 1].as_double == 0);
    }
    CHECK_EQ_U(i, 4);
    CHECK_EQ_U(matrix[0].status, PERFBUF_CSTATUS_VALID_DATA);
    capture_free(&c2);
    capture_free(&c0);
    capture_free(&c1);
}

/*
 * The seal: every field of an entry and every field of the plan but the
 * entries pointer, changed by one bit, makes the whole-object calls refuse
 * the plan (INVALID_ARGUMENT, nothing read); restored, it is read again.
 * Entries copied elsewhere keep their seal: the pointer is not sealed.
 */
static void test_plan_seal_refuses_changed_plans(void)
{
    capture c = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object thread;
    CHECK(object_at(&c.b, TB_V1_THREAD, &thread));
    perfbuf_v1_plan_entry entries[MAX_COUNTERS];
    perfbuf_v1_plan plan;
    CHECK(perfbuf_v1_plan_build(&c.b, &thread, entries, MAX_COUNTERS, &plan) == PERFBUF_OK);
    CHECK(plan.seal != 0);
    CHECK(plan.count >= 2);
    uint64_t matrix[8 * MAX_COUNTERS];
    perfbuf_value formatted[8 * MAX_COUNTERS];
    size_t cap = sizeof matrix / sizeof matrix[0];
    size_t needed;
    CHECK(perfbuf_v1_plan_read_object(&plan, &c.b, &thread, matrix, cap, &needed) == PERFBUF_OK);
    /* Each byte of each entry, one bit flipped at a time. */
    for (uint32_t k = 0; k < plan.count; k++) {
        for (size_t at = 0; at < sizeof entries[k]; at++) {
            uint8_t *byte = (uint8_t *)&entries[k] + at;
            if (at >= offsetof(perfbuf_v1_plan_entry, formula) + sizeof entries[k].formula) {
                continue; /* tail padding, if any: no field */
            }
            *byte ^= 0x10u;
            CHECK_EQ_U(perfbuf_v1_plan_read_object(&plan, &c.b, &thread, matrix, cap, &needed),
                       PERFBUF_E_INVALID_ARGUMENT);
            CHECK_EQ_U(perfbuf_v1_plan_format_object(&plan, &c.b, &thread, &plan, &c.b, &thread,
                                                     PERFBUF_FMT_LARGE, formatted, cap, &needed),
                       PERFBUF_E_INVALID_ARGUMENT);
            *byte ^= 0x10u;
        }
    }
    /* Two entries swapped: each sealed at its own position. */
    perfbuf_v1_plan_entry first = entries[0];
    entries[0] = entries[1];
    entries[1] = first;
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&plan, &c.b, &thread, matrix, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    entries[1] = entries[0];
    entries[0] = first;
    /* The plan's own fields: reach, clocks, the seal itself. */
    perfbuf_v1_plan changed = plan;
    changed.reach += 1;
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&changed, &c.b, &thread, matrix, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    changed = plan;
    changed.clock[PERFBUF_TIME_100NS] += 1;
    CHECK_EQ_U(perfbuf_v1_plan_format_object(&changed, &c.b, &thread, &plan, &c.b, &thread,
                                             PERFBUF_FMT_LARGE, formatted, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    changed = plan;
    changed.seal ^= 1u;
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&changed, &c.b, &thread, matrix, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    /* The entries copied elsewhere: still the sealed entries. */
    perfbuf_v1_plan_entry copy[MAX_COUNTERS];
    memcpy(copy, entries, sizeof copy);
    changed = plan;
    changed.entries = copy;
    CHECK(perfbuf_v1_plan_read_object(&changed, &c.b, &thread, matrix, cap, &needed) ==
          PERFBUF_OK);
    /* Another object's plan, its seal intact, with this object. */
    perfbuf_v1_object process;
    CHECK(object_at(&c.b, TB_V1_PROCESS, &process));
    perfbuf_v1_plan_entry process_entries[MAX_COUNTERS];
    perfbuf_v1_plan process_plan;
    CHECK(perfbuf_v1_plan_build(&c.b, &process, process_entries, MAX_COUNTERS, &process_plan) ==
          PERFBUF_OK);
    changed = plan;
    changed.entries = process_entries;
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&changed, &c.b, &thread, matrix, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&process_plan, &c.b, &thread, matrix, cap, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    capture_free(&c);
}

/*
 * Layouts the whole-object read takes run by run (counters one after the
 * other, 8 bytes then 4), and those it reads entry by entry (more runs than
 * it keeps, a counter of another size, counters out of order or sharing
 * bytes): every row is what perfbuf_v1_plan_read gives for that block.
 */
enum { LAYOUT_COUNTERS = 12, LAYOUT_BLOCK = 128 };

static void check_layout(const uint32_t *sizes, const uint32_t *offsets, uint32_t n)
{
    capture c;
    tb_v1_begin(&c.v, "VM");
    tb_v1_object_begin(&c.v, 600, 0, 0);
    for (uint32_t k = 0; k < n; k++) {
        /* A size other than 4 and 8: text, whose length is its own. */
        uint32_t type = sizes[k] == 8   ? PERF_COUNTER_LARGE_RAWCOUNT
                        : sizes[k] == 4 ? PERF_COUNTER_RAWCOUNT
                                        : PERF_COUNTER_TEXT;
        tb_v1_counter(&c.v, 10 + 2 * k, type, sizes[k], offsets[k]);
    }
    tb_v1_definitions_end(&c.v);
    for (uint32_t i = 0; i < 3; i++) {
        uint8_t data[LAYOUT_BLOCK];
        for (uint32_t at = 0; at < LAYOUT_BLOCK; at++) {
            data[at] = (uint8_t)(at * 7u + i * 31u + 1u);
        }
        char name[8] = {'i', (char)('0' + i), 0};
        tb_v1_instance(&c.v, name, 0, 0);
        tb_v1_counter_block(&c.v, data, sizeof data);
    }
    tb_v1_object_end(&c.v);
    tb_v1_end(&c.v);
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object o;
    CHECK(object_at(&c.b, 600, &o));
    perfbuf_v1_plan_entry entries[LAYOUT_COUNTERS];
    perfbuf_v1_plan plan;
    CHECK(perfbuf_v1_plan_build(&c.b, &o, entries, LAYOUT_COUNTERS, &plan) == PERFBUF_OK);
    uint64_t matrix[3 * LAYOUT_COUNTERS];
    size_t needed;
    CHECK(perfbuf_v1_plan_read_object(&plan, &c.b, &o, matrix, 3 * LAYOUT_COUNTERS, &needed) ==
          PERFBUF_OK);
    CHECK_EQ_U(needed, 3u * n);
    for (uint32_t i = 0; i < 3; i++) {
        perfbuf_v1_counter_block blk;
        uint64_t row[LAYOUT_COUNTERS];
        CHECK(block_of(&c.b, &o, i, &blk));
        CHECK(perfbuf_v1_plan_read(&plan, &c.b, &blk, row, LAYOUT_COUNTERS) == PERFBUF_OK);
        for (uint32_t k = 0; k < n; k++) {
            CHECK_EQ_U(matrix[i * n + k], row[k]);
            CHECK(sizes[k] == 4 || sizes[k] == 8 || row[k] == 0);
        }
    }
    capture_free(&c);
}

static void test_plan_read_object_layouts(void)
{
    /* Runs: 8-byte counters back to back, then 4-byte ones. */
    static const uint32_t run_sizes[6] = {8, 8, 8, 4, 4, 4};
    static const uint32_t run_offsets[6] = {8, 16, 24, 32, 36, 40};
    check_layout(run_sizes, run_offsets, 6);
    /* Twelve runs of one counter each (a gap after each): entry by entry. */
    uint32_t gap_sizes[LAYOUT_COUNTERS];
    uint32_t gap_offsets[LAYOUT_COUNTERS];
    for (uint32_t k = 0; k < LAYOUT_COUNTERS; k++) {
        gap_sizes[k] = 4;
        gap_offsets[k] = 8 + 8 * k;
    }
    check_layout(gap_sizes, gap_offsets, LAYOUT_COUNTERS);
    /* A counter of another size between runs: read as 0, entry by entry. */
    static const uint32_t odd_sizes[4] = {8, 16, 4, 4};
    static const uint32_t odd_offsets[4] = {8, 16, 32, 36};
    check_layout(odd_sizes, odd_offsets, 4);
    /* Out of order, and two counters over the same bytes. */
    static const uint32_t shuffled_sizes[5] = {4, 4, 8, 8, 4};
    static const uint32_t shuffled_offsets[5] = {40, 36, 16, 16, 44};
    check_layout(shuffled_sizes, shuffled_offsets, 5);
}

static const th_case cases[] = {
    TH_CASE(test_plan_reads_every_value),
    TH_CASE(test_plan_samples_equal_raw_sample),
    TH_CASE(test_plan_formats_two_captures),
    TH_CASE(test_plan_refuses_other_blocks),
    TH_CASE(test_plan_arguments),
    TH_CASE(test_plan_missing_multi_base),
    TH_CASE(test_plan_reads_whole_object),
    TH_CASE(test_plan_read_object_refuses),
    TH_CASE(test_plan_formats_whole_object),
    TH_CASE(test_plan_seal_refuses_changed_plans),
    TH_CASE(test_plan_read_object_layouts),
};

TH_MAIN(cases)
