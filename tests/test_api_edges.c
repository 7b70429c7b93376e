/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The edges of the public API: NULL and out-of-range arguments to every
 * function that takes them, and the V1 value paths that the Global-like
 * fixture does not reach (object timers, multi-timers and their bases).
 */
#include "perfbuf/counter_types.h"
#include "perfbuf/names.h"
#include "perfbuf/text.h"
#include "perfbuf/v1.h"
#include "perfbuf/v2_query.h"
#include "builder_v1.h"
#include "harness.h"

static void null_arguments_are_refused(void)
{
    tb_v1 v = tb_v1_sample_global();
    perfbuf_v1_block b;
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, NULL, &b, NULL) == PERFBUF_OK);
    perfbuf_v1_object o;
    CHECK(perfbuf_v1_find_object(&b, TB_V1_THREAD, &o) == PERFBUF_OK);
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst;
    perfbuf_v1_instances_begin(&o, &it);
    CHECK(perfbuf_v1_instances_next(&b, &it, &inst));
    perfbuf_v1_counter c;
    perfbuf_v1_counters_begin(&o, &it);
    CHECK(perfbuf_v1_counters_next(&b, &it, &c));
    char out[16];
    size_t len;
    size_t offsets[4];
    perfbuf_v1_instance_index index;
    perfbuf_raw_sample s;
    perfbuf_value_context ctx;
    perfbuf_error err;
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, NULL, NULL, &err) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(err.status == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_find_object(NULL, 1, &o) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_system_name_utf8(NULL, out, sizeof out, &len) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_system_name_utf8(&b, NULL, 4, &len) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_instance_name_utf8(&b, NULL, out, sizeof out, &len) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_index_build(&b, NULL, offsets, 4, &index) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_index_get(&b, NULL, 0, &inst) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_parent(&b, &o, NULL, NULL, &inst, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_full_name_utf8(&b, NULL, &inst, NULL, out, sizeof out, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_find_instance(&b, &o, NULL, 3, NULL, &inst) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_raw_sample(&b, &o, &c, NULL, &s, &ctx) == PERFBUF_E_INVALID_ARGUMENT);
    /* A tampered index entry is checked, not followed. */
    perfbuf_v1_object process;
    CHECK(perfbuf_v1_find_object(&b, TB_V1_PROCESS, &process) == PERFBUF_OK);
    CHECK(perfbuf_v1_index_build(&b, &process, offsets, 4, &index) == PERFBUF_OK);
    offsets[1] = 0;
    CHECK(perfbuf_v1_index_get(&b, &index, 1, &inst) == PERFBUF_E_INVALID_ARGUMENT);
    offsets[1] = offsets[0] + 4;
    CHECK(perfbuf_v1_index_get(&b, &index, 1, &inst) == PERFBUF_E_INVALID_ARGUMENT);

    perfbuf_name_table t;
    perfbuf_name_entry e = {0, 0, 0, 0};
    perfbuf_name_slot slots[2];
    perfbuf_name_index ni;
    CHECK(perfbuf_names_parse("1\0\0\0a\0\0\0\0\0", 10, NULL, NULL, &err) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_names_parse("1\0\0\0a\0\0\0\0\0", 10, NULL, &t, &err) == PERFBUF_OK);
    CHECK(perfbuf_names_text_utf8(NULL, &e, out, sizeof out, &len) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_names_find(NULL, 1, &e) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_names_index_build(&t, NULL, 2, &ni) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_names_index_build(&t, slots, 2, &ni) == PERFBUF_OK);
    CHECK(perfbuf_names_index_find(&t, NULL, 1, &e) == PERFBUF_E_INVALID_ARGUMENT);

    perfbuf_v2_query q;
    perfbuf_v2_instance vi = {0, 0, 0, 0, 0, 0, 0, 0};
    uint16_t units[2];
    CHECK(perfbuf_v2_instance_name_utf8(NULL, &vi, out, sizeof out, &len) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_instance_name_utf16(NULL, &vi, units, 2, &len) == PERFBUF_E_INVALID_ARGUMENT);
    (void)q;
    CHECK(perfbuf_codepage_to_utf8(1252, NULL, 2, out, sizeof out, &len) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK_STR(perfbuf_status_string((perfbuf_status)-1), "unknown status");
    CHECK(perfbuf_counter_type_lookup(PERF_COUNTER_TEXT)->samples == 0);
    tb_free(&v.buf);
}

/* Each pointer argument NULL in turn: every public function refuses it
 * with PERFBUF_E_INVALID_ARGUMENT (or PDH's invalid-argument status). */
static void every_pointer_argument_null_in_turn(void)
{
    tb_v1 v = tb_v1_sample_global();
    const uint8_t *d = v.buf.data;
    size_t n = v.buf.len;
    perfbuf_v1_block b;
    CHECK(perfbuf_v1_parse(d, n, NULL, &b, NULL) == PERFBUF_OK);
    perfbuf_v1_object o;
    CHECK(perfbuf_v1_find_object(&b, TB_V1_THREAD, &o) == PERFBUF_OK);
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst;
    perfbuf_v1_instances_begin(&o, &it);
    CHECK(perfbuf_v1_instances_next(&b, &it, &inst));
    perfbuf_v1_counter c;
    perfbuf_v1_counters_begin(&o, &it);
    CHECK(perfbuf_v1_counters_next(&b, &it, &c));
    char out[16];
    size_t len;
    size_t offsets[8];
    perfbuf_v1_instance_index index;
    CHECK(perfbuf_v1_index_build(&b, &o, offsets, 8, &index) == PERFBUF_OK);
    perfbuf_raw_sample s;
    perfbuf_value_context ctx = {1000, 0};
    const perfbuf_status bad = PERFBUF_E_INVALID_ARGUMENT;

    CHECK(perfbuf_v1_parse(NULL, n, NULL, &b, NULL) == bad);
    CHECK(perfbuf_v1_find_object(&b, 1, NULL) == bad);
    CHECK(perfbuf_v1_instance_name_utf8(NULL, &inst, out, sizeof out, &len) == bad);
    CHECK(perfbuf_v1_instance_name_utf8(&b, &inst, NULL, 4, &len) == bad);
    CHECK(perfbuf_v1_index_build(NULL, &o, offsets, 8, &index) == bad);
    CHECK(perfbuf_v1_index_build(&b, &o, NULL, 8, &index) == bad);
    CHECK(perfbuf_v1_index_build(&b, &o, offsets, 8, NULL) == bad);
    CHECK(perfbuf_v1_index_get(NULL, &index, 0, &inst) == bad);
    CHECK(perfbuf_v1_index_get(&b, &index, 0, NULL) == bad);
    CHECK(perfbuf_v1_parent(NULL, &o, &inst, NULL, &inst, NULL) == bad);
    CHECK(perfbuf_v1_parent(&b, NULL, &inst, NULL, &inst, NULL) == bad);
    CHECK(perfbuf_v1_parent(&b, &o, &inst, NULL, NULL, NULL) == bad);
    CHECK(perfbuf_v1_full_name_utf8(NULL, &o, &inst, NULL, out, sizeof out, &len) == bad);
    CHECK(perfbuf_v1_full_name_utf8(&b, &o, NULL, NULL, out, sizeof out, &len) == bad);
    CHECK(perfbuf_v1_full_name_utf8(&b, &o, &inst, NULL, NULL, 4, &len) == bad);
    CHECK(perfbuf_v1_find_instance(NULL, &o, "0", 1, NULL, &inst) == bad);
    CHECK(perfbuf_v1_find_instance(&b, NULL, "0", 1, NULL, &inst) == bad);
    CHECK(perfbuf_v1_find_instance(&b, &o, "0", 1, NULL, NULL) == bad);
    CHECK(perfbuf_v1_raw_sample(NULL, &o, &c, &inst.counters, &s, &ctx) == bad);
    CHECK(perfbuf_v1_raw_sample(&b, NULL, &c, &inst.counters, &s, &ctx) == bad);
    CHECK(perfbuf_v1_raw_sample(&b, &o, NULL, &inst.counters, &s, &ctx) == bad);
    CHECK(perfbuf_v1_raw_sample(&b, &o, &c, &inst.counters, NULL, &ctx) == bad);
    CHECK(perfbuf_v1_raw_sample(&b, &o, &c, &inst.counters, &s, NULL) == bad);
    CHECK(perfbuf_v1_raw_sample(&b, &o, &c, &inst.counters, &s, &ctx) == PERFBUF_OK);

    perfbuf_name_table t;
    perfbuf_name_entry e = {0, 0, 0, 0};
    perfbuf_name_slot slots[2];
    perfbuf_name_index ni;
    static const char table[] = "1\0\0\0a\0\0\0\0\0";
    CHECK(perfbuf_names_parse(NULL, 10, NULL, &t, NULL) == bad);
    CHECK(perfbuf_names_parse(table, 10, NULL, &t, NULL) == PERFBUF_OK);
    CHECK(perfbuf_names_text_utf8(&t, NULL, out, sizeof out, &len) == bad);
    CHECK(perfbuf_names_text_utf8(&t, &e, NULL, 4, &len) == bad);
    CHECK(perfbuf_names_find(&t, 1, NULL) == bad);
    CHECK(perfbuf_names_index_build(NULL, slots, 2, &ni) == bad);
    CHECK(perfbuf_names_index_build(&t, slots, 2, NULL) == bad);
    CHECK(perfbuf_names_index_build(&t, slots, 2, &ni) == PERFBUF_OK);
    CHECK(perfbuf_names_index_find(NULL, &ni, 1, &e) == bad);
    CHECK(perfbuf_names_index_find(&t, &ni, 1, NULL) == bad);

    perfbuf_v2_query q;
    perfbuf_v2_instance vi = {0, 0, 0, 0, 0, 0, 0, 0};
    uint16_t units[2];
    static const uint8_t header[48] = {48};
    CHECK(perfbuf_v2_query_parse(header, 48, NULL, &q, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v2_instance_name_utf8(&q, NULL, out, sizeof out, &len) == bad);
    CHECK(perfbuf_v2_instance_name_utf8(&q, &vi, NULL, 4, &len) == bad);
    CHECK(perfbuf_v2_instance_name_utf16(&q, NULL, units, 2, &len) == bad);
    CHECK(perfbuf_v2_instance_name_utf16(&q, &vi, NULL, 2, &len) == bad);
    CHECK(perfbuf_codepage_to_utf8(1252, "a", 1, NULL, 4, &len) == bad);

    perfbuf_value value;
    perfbuf_statistics stats;
    perfbuf_raw_sample ring[1] = {{0, PERF_COUNTER_RAWCOUNT, 1, 0, 0, 0}};
    CHECK_EQ_U(perfbuf_format_value(PERF_COUNTER_RAWCOUNT, ring, NULL, &ctx, PERFBUF_FMT_DOUBLE, NULL),
               PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_RAWCOUNT, &ctx, PERFBUF_FMT_DOUBLE, 0, 1, NULL, &stats),
               PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_RAWCOUNT, NULL, PERFBUF_FMT_DOUBLE, 0, 1, ring, &stats),
               PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_RAWCOUNT, &ctx, PERFBUF_FMT_DOUBLE, 0, 1, ring, NULL),
               PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_RAWCOUNT, &ctx, PERFBUF_FMT_LONG | PERFBUF_FMT_LARGE, 0, 1,
                                          ring, &stats),
               PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_compute_statistics(0x12345678, &ctx, PERFBUF_FMT_DOUBLE, 0, 1, ring, &stats),
               PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_RAWCOUNT, &ctx, PERFBUF_FMT_DOUBLE, 0, 1, ring, &stats),
               PERFBUF_CSTATUS_VALID_DATA);
    (void)value;
    tb_free(&v.buf);
}

/* An object with an object timer, a multi-timer and its base, and an
 * elapsed time: the V1 value paths of the other time bases. */
static void object_timers_and_multi_timers(void)
{
    tb_v1 older;
    tb_v1 newer;
    for (int k = 0; k < 2; k++) {
        tb_v1 *v = k == 0 ? &older : &newer;
        tb_v1_begin(v, "HOST");
        tb_v1_object_begin(v, 700, 1, 0);
        tb_v1_counter(v, 702, PERF_OBJ_TIME_TIMER, 8, 8);
        tb_v1_counter(v, 704, PERF_100NSEC_MULTI_TIMER, 8, 16);
        tb_v1_counter(v, 0, PERF_COUNTER_MULTI_BASE, 8, 24);
        tb_v1_counter(v, 706, PERF_COUNTER_TIMER, 8, 32);
        tb_v1_counter(v, 708, PERF_ELAPSED_TIME, 8, 40);
        tb_v1_definitions_end(v);
        uint8_t data[44] = {0};
        tb_put64(data, 8, k == 0 ? 0 : 250);          /* object ticks busy */
        tb_put64(data, 16, k == 0 ? 0 : 10000000);    /* 100-ns busy, over 4 units */
        tb_put64(data, 24, 4);
        tb_put64(data, 32, k == 0 ? 0 : 5000000);     /* system ticks busy */
        tb_put64(data, 40, 2000);                     /* start time, object units */
        tb_v1_counter_block(v, data, sizeof data);
        tb_v1_object_end(v);
        tb_v1_end(v);
        /* Object PerfTime (offset 48 of the object) and PerfFreq 1000:
         * 1000 object ticks later; the block's clocks one second later. */
        size_t object_at = tb_get_u32(&v->buf, 24); /* HeaderLength */
        tb_patch_u32(&v->buf, object_at + 48, k == 0 ? 5555 : 6555);
        tb_patch_u32(&v->buf, 56, k == 0 ? 100000000u : 110000000u);
        tb_patch_u32(&v->buf, 72, k == 0 ? 100000000u : 110000000u);
    }
    perfbuf_v1_block b0;
    perfbuf_v1_block b1;
    CHECK(perfbuf_v1_parse(older.buf.data, older.buf.len, NULL, &b0, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v1_parse(newer.buf.data, newer.buf.len, NULL, &b1, NULL) == PERFBUF_OK);
    perfbuf_v1_object o0;
    perfbuf_v1_object o1;
    CHECK(perfbuf_v1_find_object(&b0, 700, &o0) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&b1, 700, &o1) == PERFBUF_OK);
    perfbuf_v1_counter_block k0;
    perfbuf_v1_counter_block k1;
    CHECK(perfbuf_v1_object_counter_block(&b0, &o0, &k0));
    CHECK(perfbuf_v1_object_counter_block(&b1, &o1, &k1));
    const double expect[5] = {25.0, 25.0, -1.0, 50.0, 4.555};
    perfbuf_v1_iter it;
    perfbuf_v1_counter c;
    perfbuf_v1_counters_begin(&o1, &it);
    while (perfbuf_v1_counters_next(&b1, &it, &c)) {
        perfbuf_raw_sample s0;
        perfbuf_raw_sample s1;
        perfbuf_value_context ctx;
        perfbuf_status st0 = perfbuf_v1_raw_sample(&b0, &o0, &c, &k0, &s0, &ctx);
        perfbuf_status st1 = perfbuf_v1_raw_sample(&b1, &o1, &c, &k1, &s1, &ctx);
        if (expect[c.index] < 0) {
            CHECK(st1 == PERFBUF_E_INVALID_ARGUMENT); /* the base has no value */
            continue;
        }
        CHECK(st0 == PERFBUF_OK && st1 == PERFBUF_OK);
        perfbuf_value v;
        CHECK_EQ_U(perfbuf_format_value(c.type, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, &v),
                   PERFBUF_CSTATUS_VALID_DATA);
        if (v.as_double < expect[c.index] - 1e-9 || v.as_double > expect[c.index] + 1e-9) {
            fprintf(stderr, "counter %u: %.9f\n", c.index, v.as_double);
        }
        CHECK(v.as_double > expect[c.index] - 1e-9 && v.as_double < expect[c.index] + 1e-9);
    }
    /* A multi base past 32 bits (PDH's MultiCount is a DWORD) makes the
     * sample invalid instead of clamping it to a wrong value. */
    size_t base_at = k1.offset + 24;
    tb_patch_u32(&newer.buf, base_at + 4, 1);
    CHECK(perfbuf_v1_parse(newer.buf.data, newer.buf.len, NULL, &b1, NULL) == PERFBUF_OK);
    perfbuf_v1_counter multi;
    perfbuf_v1_counters_begin(&o1, &it);
    CHECK(perfbuf_v1_counters_next(&b1, &it, &multi) && perfbuf_v1_counters_next(&b1, &it, &multi));
    CHECK_EQ_U(multi.type, PERF_100NSEC_MULTI_TIMER);
    perfbuf_raw_sample big;
    perfbuf_value_context ctx;
    CHECK(perfbuf_v1_raw_sample(&b1, &o1, &multi, &k1, &big, &ctx) == PERFBUF_OK);
    CHECK_EQ_U(big.status, PERFBUF_CSTATUS_INVALID_DATA);
    tb_free(&older.buf);
    tb_free(&newer.buf);
}

/* A lenient parse of v, its object 700 and that object's counter block. */
static void open_object_700(const tb_v1 *v, perfbuf_v1_block *b, perfbuf_v1_object *o,
                            perfbuf_v1_counter_block *k)
{
    CHECK(perfbuf_v1_parse(v->buf.data, v->buf.len, NULL, b, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(b, 700, o) == PERFBUF_OK);
    CHECK(perfbuf_v1_object_counter_block(b, o, k));
}

static void multi_timer_without_its_base(void)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, 700, 1, 0);
    tb_v1_counter(&v, 704, PERF_100NSEC_MULTI_TIMER, 8, 8);
    tb_v1_counter(&v, 706, PERF_COUNTER_LARGE_RAWCOUNT, 8, 16);
    tb_v1_counter(&v, 708, PERF_COUNTER_MULTI_TIMER_INV, 8, 24);
    tb_v1_definitions_end(&v);
    uint8_t data[28] = {0};
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    perfbuf_options strict = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_v1_block b;
    perfbuf_error err;
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, &strict, &b, &err) == PERFBUF_E_BAD_REFERENCE);
    CHECK_STR(err.field, "CounterType");
    CHECK_EQ_U(err.offset, tb_get_u32(&v.buf, 24) + 64 + 28);
    perfbuf_v1_object o;
    perfbuf_v1_counter_block k;
    CALL(open_object_700(&v, &b, &o, &k));
    CHECK(b.anomalies & PERFBUF_ANOMALY_MISSING_BASE);
    perfbuf_v1_iter it;
    perfbuf_v1_counter c;
    perfbuf_v1_counters_begin(&o, &it);
    CHECK(perfbuf_v1_counters_next(&b, &it, &c));
    perfbuf_raw_sample s;
    perfbuf_value_context ctx;
    CHECK(perfbuf_v1_raw_sample(&b, &o, &c, &k, &s, &ctx) == PERFBUF_E_NOT_FOUND);
    /* The last definition needs a base and has nothing after it. */
    CHECK(perfbuf_v1_counters_next(&b, &it, &c));
    CHECK(perfbuf_v1_counters_next(&b, &it, &c));
    CHECK(perfbuf_v1_raw_sample(&b, &o, &c, &k, &s, &ctx) == PERFBUF_E_NOT_FOUND);
    tb_free(&v.buf);
}

/*
 * Clocks that are zero or negative reach the formulas as 0 (which then
 * report them rather than divide by them); a type with no displayable
 * value has no sample. (A fraction whose next definition is no base never
 * gets this far: the parse refuses it in both modes.)
 */
static void samples_from_unusable_clocks_and_pairs(void)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, 700, 1, 0);
    tb_v1_counter(&v, 702, PERF_COUNTER_COUNTER, 4, 8);
    tb_v1_counter(&v, 704, PERF_OBJ_TIME_TIMER, 8, 16);
    tb_v1_counter(&v, 706, PERF_COUNTER_LARGE_RAWCOUNT, 8, 24);
    tb_v1_counter(&v, 708, PERF_COUNTER_TEXT, 4, 32);
    tb_v1_definitions_end(&v);
    uint8_t data[36] = {0};
    tb_put32(data, 8, 77);
    tb_put64(data, 16, 5000);
    tb_put64(data, 24, 9);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    /* Block PerfTime -5 and PerfFreq 0; object PerfTime 0 and PerfFreq -1. */
    size_t object_at = tb_get_u32(&v.buf, 24);
    tb_patch_u32(&v.buf, 56, 0xFFFFFFFBu);
    tb_patch_u32(&v.buf, 60, 0xFFFFFFFFu);
    tb_patch_u32(&v.buf, 64, 0);
    tb_patch_u32(&v.buf, 68, 0);
    tb_patch_u32(&v.buf, object_at + 48, 0);
    tb_patch_u32(&v.buf, object_at + 52, 0);
    tb_patch_u32(&v.buf, object_at + 56, 0xFFFFFFFFu);
    tb_patch_u32(&v.buf, object_at + 60, 0xFFFFFFFFu);

    perfbuf_v1_block b;
    perfbuf_v1_object o;
    perfbuf_v1_counter_block k;
    CALL(open_object_700(&v, &b, &o, &k));
    CHECK(b.perf_time == -5 && b.perf_freq == 0);
    CHECK(o.perf_time == 0 && o.perf_freq == -1);
    perfbuf_v1_iter it;
    perfbuf_v1_counter c[4];
    perfbuf_v1_counters_begin(&o, &it);
    for (int i = 0; i < 4; i++) {
        CHECK(perfbuf_v1_counters_next(&b, &it, &c[i]));
    }
    perfbuf_raw_sample s;
    perfbuf_value_context ctx;
    perfbuf_value value;

    CHECK(perfbuf_v1_raw_sample(&b, &o, &c[0], &k, &s, &ctx) == PERFBUF_OK);
    CHECK_EQ_U(s.first, 77);
    CHECK_EQ_U(s.second, 0);
    CHECK_EQ_U(ctx.frequency, 0);
    CHECK(!PERFBUF_CSTATUS_IS_VALID(
        perfbuf_format_value(c[0].type, &s, &s, &ctx, PERFBUF_FMT_DOUBLE, &value)));

    CHECK(perfbuf_v1_raw_sample(&b, &o, &c[1], &k, &s, &ctx) == PERFBUF_OK);
    CHECK_EQ_U(s.first, 5000);
    CHECK_EQ_U(s.second, 0);
    CHECK_EQ_U(ctx.frequency, 0);
    CHECK(!PERFBUF_CSTATUS_IS_VALID(
        perfbuf_format_value(c[1].type, &s, NULL, &ctx, PERFBUF_FMT_DOUBLE, &value)));

    CHECK(perfbuf_v1_raw_sample(&b, &o, &c[2], &k, &s, &ctx) == PERFBUF_OK);
    CHECK_EQ_U(s.first, 9);
    CHECK(perfbuf_v1_raw_sample(&b, &o, &c[3], &k, &s, &ctx) == PERFBUF_E_INVALID_ARGUMENT);
    tb_free(&v.buf);
}

static const th_case cases[] = {
    TH_CASE(null_arguments_are_refused),
    TH_CASE(every_pointer_argument_null_in_turn),
    TH_CASE(object_timers_and_multi_timers),
    TH_CASE(multi_timer_without_its_base),
    TH_CASE(samples_from_unusable_clocks_and_pairs),
};
TH_MAIN(cases)
