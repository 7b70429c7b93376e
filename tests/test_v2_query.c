/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The V2 query-data reader: valid buffers of all five kinds, every
 * rejection branch at its boundary, lenient versus strict, and the views.
 * Every buffer is parsed right in front of a guard page.
 */
#include "perfbuf/v2_query.h"
#include "builder.h"
#include "guard.h"
#include "harness.h"

/* What a full walk of a parsed buffer saw, kept after the guard is gone. */
typedef struct walk {
    perfbuf_status status;
    perfbuf_error err;
    perfbuf_v2_query q;
    uint32_t blocks, instances, values;
    uint64_t integer_sum;
    char first_name[64];
    char last_name[64];
    uint32_t last_counter_id;
    bool views_inside;
} walk;

static bool inside(size_t off, size_t n, size_t len)
{
    return off <= len && n <= len - off;
}

static void walk_values(const perfbuf_v2_query *q, const perfbuf_v2_block *b, perfbuf_v2_iter *it,
                        walk *w, size_t len)
{
    perfbuf_v2_value v;
    while (perfbuf_v2_values_next(q, b, it, &v)) {
        w->values++;
        w->last_counter_id = v.counter_id;
        if (v.is_integer) {
            w->integer_sum += v.integer;
        }
        size_t data_at = v.bytes ? (size_t)(v.bytes - q->data) : v.offset + 8;
        if (!inside(v.offset, 8, len) || !inside(data_at, v.data_size, len)) {
            w->views_inside = false;
        }
    }
}

static walk parse_and_walk(const uint8_t *data, size_t len, uint32_t flags)
{
    walk w;
    memset(&w, 0, sizeof w);
    w.views_inside = true;
    guarded g = guard_place(data, len);
    perfbuf_options opts = {flags, 0, 0, 0};
    w.status = perfbuf_v2_query_parse(g.bytes, len, &opts, &w.q, &w.err);
    if (w.status == PERFBUF_OK) {
        perfbuf_v2_iter bi;
        perfbuf_v2_block b;
        perfbuf_v2_blocks_begin(&w.q, &bi);
        while (perfbuf_v2_blocks_next(&w.q, &bi, &b)) {
            w.blocks++;
            if (!inside(b.offset, b.size, len)) {
                w.views_inside = false;
            }
            for (uint32_t i = 0; i < b.counter_count; i++) {
                (void)perfbuf_v2_block_counter_id(&w.q, &b, i);
            }
            perfbuf_v2_iter vi;
            perfbuf_v2_block_values_begin(&b, &vi);
            walk_values(&w.q, &b, &vi, &w, len);
            perfbuf_v2_iter ii;
            perfbuf_v2_instance inst;
            perfbuf_v2_instances_begin(&b, &ii);
            while (perfbuf_v2_instances_next(&w.q, &b, &ii, &inst)) {
                w.instances++;
                if (!inside(inst.name_offset, inst.name_units * 2 + 2, len)) {
                    w.views_inside = false;
                }
                char *name = w.instances == 1 ? w.first_name : w.last_name;
                size_t name_len;
                if (perfbuf_v2_instance_name_utf8(&w.q, &inst, name, sizeof w.first_name,
                                                  &name_len) != PERFBUF_OK) {
                    w.views_inside = false;
                }
                perfbuf_v2_instance_values_begin(&inst, &vi);
                walk_values(&w.q, &b, &vi, &w, len);
            }
        }
        if (w.blocks != w.q.block_count) {
            w.views_inside = false;
        }
    } else if (w.err.offset > len) {
        w.views_inside = false;
    }
    w.q.data = NULL; /* the guarded copy is gone */
    guard_release(&g);
    return w;
}

/* ---- the buffers ---- */

static const uint32_t set_ids[3] = {0, 3, 24};

/* One block of each kind: tb_v2_sample_all_kinds() in builder.c. */
static tb_v2 all_kinds(void)
{
    return tb_v2_sample_all_kinds();
}

/* ---- valid buffers ---- */

static void header_only_is_valid(void)
{
    tb_v2 v;
    tb_v2_begin(&v, 1, 2, 3);
    tb_v2_end(&v);
    walk w = parse_and_walk(v.buf.data, v.buf.len, PERFBUF_STRICT);
    CHECK(w.status == PERFBUF_OK);
    CHECK_EQ_U(w.q.size, 48);
    CHECK_EQ_U(w.q.block_count, 0);
    CHECK_EQ_U(w.q.perf_freq, 3);
    CHECK_EQ_U(w.q.system_time.year, 2026);
    CHECK_EQ_U(w.q.system_time.day, 22);
    tb_free(&v.buf);
}

static void all_five_kinds(void)
{
    tb_v2 v = all_kinds();
    walk w = parse_and_walk(v.buf.data, v.buf.len, PERFBUF_STRICT);
    CHECK(w.status == PERFBUF_OK);
    CHECK(w.views_inside);
    CHECK_EQ_U(w.q.anomalies, 0);
    CHECK_EQ_U(w.blocks, 5);
    CHECK_EQ_U(w.instances, 4);
    /* 1 single + 3 multi + 2 instances x 1 + 2 instances x 3 */
    CHECK_EQ_U(w.values, 12);
    CHECK_EQ_U(w.integer_sum, 1000 + 1 + 2 + 3 + 10 + 20 + 100 + 200 + 300 + 400 + 500 + 600);
    CHECK_STR(w.first_name, "_Total");
    CHECK_STR(w.last_name, "");
    CHECK_EQ_U(w.last_counter_id, 24);
    CHECK_EQ_U(w.q.perf_time_stamp, 5000);
    CHECK_EQ_U(w.q.perf_time_100ns, 133000000000000000);
    tb_free(&v.buf);
}

static void block_views(void)
{
    tb_v2 v = all_kinds();
    perfbuf_v2_query q;
    perfbuf_error err;
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, &err) == PERFBUF_OK);
    perfbuf_v2_iter it;
    perfbuf_v2_block b;
    perfbuf_v2_blocks_begin(&q, &it);
    CHECK(perfbuf_v2_blocks_next(&q, &it, &b));
    CHECK(b.kind == PERFBUF_V2_ERROR_RETURN);
    CHECK_EQ_U(b.status, 0x1068);
    CHECK_EQ_U(b.size, 16);
    CHECK_EQ_U(b.counter_count, 0);
    CHECK_EQ_U(perfbuf_v2_block_counter_id(&q, &b, 0), PERFBUF_V2_NO_COUNTER_ID);
    CHECK(perfbuf_v2_blocks_next(&q, &it, &b));
    CHECK(b.kind == PERFBUF_V2_SINGLE_COUNTER);
    perfbuf_v2_iter vi;
    perfbuf_v2_value val;
    perfbuf_v2_block_values_begin(&b, &vi);
    CHECK(perfbuf_v2_values_next(&q, &b, &vi, &val));
    CHECK(val.is_integer);
    CHECK_EQ_U(val.integer, 1000);
    CHECK_EQ_U(val.data_size, 8);
    CHECK_EQ_U(val.counter_id, PERFBUF_V2_NO_COUNTER_ID);
    CHECK(!perfbuf_v2_values_next(&q, &b, &vi, &val));
    CHECK(perfbuf_v2_blocks_next(&q, &it, &b));
    CHECK(b.kind == PERFBUF_V2_MULTIPLE_COUNTERS);
    CHECK_EQ_U(b.counter_count, 3);
    CHECK_EQ_U(perfbuf_v2_block_counter_id(&q, &b, 2), 24);
    CHECK_EQ_U(perfbuf_v2_block_counter_id(&q, &b, 3), PERFBUF_V2_NO_COUNTER_ID);
    CHECK(perfbuf_v2_blocks_next(&q, &it, &b));
    CHECK(b.kind == PERFBUF_V2_MULTIPLE_INSTANCES);
    CHECK_EQ_U(b.instance_count, 2);
    perfbuf_v2_iter ii;
    perfbuf_v2_instance inst;
    perfbuf_v2_instances_begin(&b, &ii);
    CHECK(perfbuf_v2_instances_next(&q, &b, &ii, &inst));
    CHECK(perfbuf_v2_instances_next(&q, &b, &ii, &inst));
    CHECK_EQ_U(inst.id, 1);
    CHECK_EQ_U(inst.name_units, 3);
    uint16_t units[3];
    size_t n;
    CHECK(perfbuf_v2_instance_name_utf16(&q, &inst, units, 3, &n) == PERFBUF_OK);
    CHECK_EQ_U(units[0], '0');
    CHECK_EQ_U(units[1], ',');
    CHECK(perfbuf_v2_instance_name_utf16(&q, &inst, units, 2, &n) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(n, 3);
    CHECK(!perfbuf_v2_instances_next(&q, &b, &ii, &inst));
    CHECK(perfbuf_v2_blocks_next(&q, &it, &b));
    CHECK(b.kind == PERFBUF_V2_COUNTERSET);
    CHECK(!perfbuf_v2_blocks_next(&q, &it, &b));
    CHECK_STR(perfbuf_v2_kind_name(PERFBUF_V2_COUNTERSET), "PERF_COUNTERSET");
    CHECK_STR(perfbuf_v2_kind_name(3), "unknown");
    tb_free(&v.buf);
}

static void many_instances_and_names(void)
{
    tb_v2 v;
    tb_v2_begin(&v, 0, 0, 10000000);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(&v, set_ids, 1);
    tb_v2_instances_begin(&v, 1000);
    char name[32];
    for (uint32_t i = 0; i < 1000; i++) {
        snprintf(name, sizeof name, "%u,%u", i / 64, i % 64);
        tb_v2_instance(&v, i, i == 999 ? "\xF0\x9F\x98\x80 non-BMP \xE2\x82\xAC" : name);
        tb_v2_u64(&v, i);
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    walk w = parse_and_walk(v.buf.data, v.buf.len, PERFBUF_STRICT);
    CHECK(w.status == PERFBUF_OK);
    CHECK_EQ_U(w.instances, 1000);
    CHECK_EQ_U(w.integer_sum, 999 * 1000 / 2);
    CHECK_STR(w.first_name, "0,0");
    CHECK_STR(w.last_name, "\xF0\x9F\x98\x80 non-BMP \xE2\x82\xAC");
    tb_free(&v.buf);
}

static void odd_value_sizes_are_bytes(void)
{
    tb_v2 v;
    tb_v2_begin(&v, 0, 0, 1);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_SINGLE_COUNTER);
    const uint8_t three[3] = {1, 2, 3};
    tb_v2_value(&v, three, 3);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    perfbuf_v2_query q;
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    perfbuf_v2_iter it;
    perfbuf_v2_block b;
    perfbuf_v2_blocks_begin(&q, &it);
    CHECK(perfbuf_v2_blocks_next(&q, &it, &b));
    perfbuf_v2_value val;
    perfbuf_v2_block_values_begin(&b, &it);
    CHECK(perfbuf_v2_values_next(&q, &b, &it, &val));
    CHECK(!val.is_integer);
    CHECK_EQ_U(val.data_size, 3);
    CHECK(val.bytes != NULL && val.bytes[2] == 3);
    CHECK(val.bytes == v.buf.data + 48 + 16 + 8);
    tb_free(&v.buf);
}

/*
 * A row of values of the common size (header + 8) is judged with the two
 * sizes read as one 64-bit word; every dwDataSize, at the edges of that
 * subtraction and at the wrap of 32 bits, must still get the
 * answer the per-value judgement gives: 1..8 fit, 0 leaves 8 bytes of
 * padding (an anomaly), anything larger does not fit. The strict
 * rejection of the padding is in every_rejection.
 */
static void common_stride_row_judged_per_value(void)
{
    static const uint32_t data_sizes[] = {0, 1, 3, 4, 7, 8, 9, 15, 16, 0x7FFFFFFF,
                                          0x80000000, 0x80000008, 0xFFFFFFF8, 0xFFFFFFFF};
    tb_v2 v;
    tb_v2_begin(&v, 0, 0, 1);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(&v, set_ids, 3);
    tb_v2_instances_begin(&v, 2);
    for (uint32_t i = 0; i < 2; i++) {
        tb_v2_instance(&v, i, "x");
        for (uint32_t k = 0; k < 3; k++) {
            tb_v2_u64(&v, 10 * i + k);
        }
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    /* The second instance's middle value, found through the views. */
    perfbuf_v2_query q;
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    perfbuf_v2_iter it;
    perfbuf_v2_block b;
    perfbuf_v2_instance inst;
    perfbuf_v2_value val;
    perfbuf_v2_blocks_begin(&q, &it);
    CHECK(perfbuf_v2_blocks_next(&q, &it, &b));
    perfbuf_v2_instances_begin(&b, &it);
    CHECK(perfbuf_v2_instances_next(&q, &b, &it, &inst));
    CHECK(perfbuf_v2_instances_next(&q, &b, &it, &inst));
    perfbuf_v2_instance_values_begin(&inst, &it);
    CHECK(perfbuf_v2_values_next(&q, &b, &it, &val));
    CHECK(perfbuf_v2_values_next(&q, &b, &it, &val));
    CHECK_EQ_U(val.integer, 11);
    size_t at = val.offset;
    CHECK_EQ_U(v.buf.data[at + 4], 16 /* an 8-byte header and 8 bytes */);
    for (size_t n = 0; n < sizeof data_sizes / sizeof data_sizes[0]; n++) {
        uint32_t d = data_sizes[n];
        for (int byte = 0; byte < 4; byte++) {
            v.buf.data[at + (size_t)byte] = (uint8_t)(d >> (8 * byte));
        }
        perfbuf_error err;
        perfbuf_status st = perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, &err);
        if (d <= 8) {
            /* 0 is padding a lenient parse counts and accepts. */
            CHECK(st == PERFBUF_OK);
            CHECK_EQ_U(q.anomalies, (d == 0 ? (uint32_t)PERFBUF_ANOMALY_EXCESS_PADDING : 0u));
            continue;
        }
        CHECK(st == PERFBUF_E_SIZE_TOO_LARGE);
        CHECK_EQ_U(err.offset, at);
        CHECK_STR(err.field, "dwDataSize");
    }
    tb_free(&v.buf);
}

static void wine_capture_decodes(void)
{
    /* corpus/captures/wine-8.0/v2-query-processor-information.bin */
    static const uint8_t capture[48] = {
        0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0xab, 0x15, 0xe8, 0x05, 0x00, 0x00, 0x00,
        0xeb, 0x04, 0x7a, 0x6f, 0x67, 0x7a, 0xdd, 0x01, 0x80, 0x96, 0x98, 0x00, 0x00, 0x00, 0x00, 0x00,
        0xea, 0x07, 0x0b, 0x00, 0x00, 0x00, 0x16, 0x00, 0x09, 0x00, 0x36, 0x00, 0x10, 0x00, 0x93, 0x00};
    walk w = parse_and_walk(capture, sizeof capture, PERFBUF_STRICT);
    CHECK(w.status == PERFBUF_OK);
    CHECK_EQ_U(w.q.size, 48);
    CHECK_EQ_U(w.q.block_count, 0);
    CHECK_EQ_U(w.q.perf_freq, 10000000);
    CHECK_EQ_U(w.q.system_time.year, 2026);
    CHECK_EQ_U(w.q.system_time.month, 11);
    CHECK_EQ_U(w.q.system_time.hour, 9);
    CHECK_EQ_U(w.q.system_time.milliseconds, 147);
}

static void null_arguments(void)
{
    perfbuf_v2_query q;
    perfbuf_error err;
    CHECK(perfbuf_v2_query_parse(NULL, 48, NULL, &q, &err) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(err.status == PERFBUF_E_INVALID_ARGUMENT);
    uint8_t b[48] = {0};
    CHECK(perfbuf_v2_query_parse(b, sizeof b, NULL, NULL, &err) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_query_parse(NULL, 0, NULL, &q, NULL) == PERFBUF_E_TRUNCATED);
}

/* ---- rejections ---- */

typedef struct rejection {
    const char *what;
    size_t patch_at;        /* offset in the all_kinds buffer */
    uint32_t value;         /* written as u32 there */
    uint32_t flags;
    perfbuf_status status;
    const char *structure;
    const char *field;
    size_t offset;          /* expected error offset */
    bool lenient_ok;        /* a lenient parse accepts it with an anomaly */
} rejection;

/*
 * Offsets in all_kinds():
 *   0 PERF_DATA_HEADER (total 464)
 *  48 block 0 ERROR_RETURN (16)
 *  64 block 1 SINGLE (16 + data 16)
 *  96 block 2 MULTIPLE_COUNTERS: 112 PERF_MULTI_COUNTERS (8 + 12 ids + 4 pad),
 *     136 data u64, 152 data u32, 168 data u64 -> ends 184
 * 184 block 3 MULTIPLE_INSTANCES: 200 PERF_MULTI_INSTANCES (dwTotalSize 80),
 *     208 instance "_Total" (24), 232 data (16), 248 instance "0,0" (16),
 *     264 data (16) -> ends 280
 * 280 block 4 COUNTERSET: 296 ids (24), 320 PERF_MULTI_INSTANCES (dwTotalSize 144),
 *     328 "_Total" (24), 352..400 three values, 400 "" (16), 416..464, ends 464
 */
static void layout_is_as_documented(void)
{
    tb_v2 v = all_kinds();
    CHECK_EQ_U(v.buf.len, 464);
    CHECK_EQ_U(tb_get_u32(&v.buf, 48 + 8), 16);
    CHECK_EQ_U(tb_get_u32(&v.buf, 96 + 4), PERFBUF_V2_MULTIPLE_COUNTERS);
    CHECK_EQ_U(tb_get_u32(&v.buf, 112), 20);
    CHECK_EQ_U(tb_get_u32(&v.buf, 184 + 4), PERFBUF_V2_MULTIPLE_INSTANCES);
    CHECK_EQ_U(tb_get_u32(&v.buf, 200), 80);
    CHECK_EQ_U(tb_get_u32(&v.buf, 208), 24);
    CHECK_EQ_U(tb_get_u32(&v.buf, 280 + 4), PERFBUF_V2_COUNTERSET);
    CHECK_EQ_U(tb_get_u32(&v.buf, 320), 144);
    CHECK_EQ_U(tb_get_u32(&v.buf, 400), 16);
    tb_free(&v.buf);
}

#define S PERFBUF_STRICT
static const rejection rejections[] = {
    /* PERF_DATA_HEADER */
    {"total below header", 0, 47, 0, PERFBUF_E_SIZE_TOO_SMALL, "PERF_DATA_HEADER", "dwTotalSize", 0, false},
    {"total beyond received", 0, 465, 0, PERFBUF_E_SIZE_EXCEEDS_RECEIVED, "PERF_DATA_HEADER", "dwTotalSize", 0, false},
    {"total cuts the last block", 0, 456, 0, PERFBUF_E_SIZE_TOO_LARGE, "PERF_COUNTER_HEADER", "dwSize", 288, false},
    {"count beyond bytes", 4, 27, 0, PERFBUF_E_COUNT_TOO_LARGE, "PERF_DATA_HEADER", "dwNumCounters", 4, false},
    {"count huge", 4, 0xFFFFFFFF, 0, PERFBUF_E_COUNT_TOO_LARGE, "PERF_DATA_HEADER", "dwNumCounters", 4, false},
    {"count below blocks", 4, 4, S, PERFBUF_E_TRAILING_BYTES, "PERF_DATA_HEADER", "dwNumCounters", 4, true},
    {"count above blocks", 4, 6, 0, PERFBUF_E_TRUNCATED, "PERF_COUNTER_HEADER", "dwStatus", 464, false},
    /* PERF_COUNTER_HEADER */
    {"block size 15", 48 + 8, 15, 0, PERFBUF_E_SIZE_TOO_SMALL, "PERF_COUNTER_HEADER", "dwSize", 56, false},
    {"block size 0", 48 + 8, 0, 0, PERFBUF_E_SIZE_TOO_SMALL, "PERF_COUNTER_HEADER", "dwSize", 56, false},
    {"block size beyond total", 48 + 8, 417, 0, PERFBUF_E_SIZE_TOO_LARGE, "PERF_COUNTER_HEADER", "dwSize", 56, false},
    {"block size huge", 48 + 8, 0xFFFFFFF8, 0, PERFBUF_E_SIZE_TOO_LARGE, "PERF_COUNTER_HEADER", "dwSize", 56, false},
    {"block size unaligned", 48 + 8, 20, S, PERFBUF_E_SIZE_UNALIGNED, "PERF_COUNTER_HEADER", "dwSize", 56, false},
    {"error block with body", 48 + 8, 24, S, PERFBUF_E_TRAILING_BYTES, "PERF_COUNTER_HEADER", "dwSize", 56, false},
    {"kind 3", 48 + 4, 3, 0, PERFBUF_E_UNKNOWN_VALUE, "PERF_COUNTER_HEADER", "dwType", 52, false},
    {"kind 5", 48 + 4, 5, 0, PERFBUF_E_UNKNOWN_VALUE, "PERF_COUNTER_HEADER", "dwType", 52, false},
    {"kind 7", 48 + 4, 7, 0, PERFBUF_E_UNKNOWN_VALUE, "PERF_COUNTER_HEADER", "dwType", 52, false},
    {"kind huge", 48 + 4, 0x80000000, 0, PERFBUF_E_UNKNOWN_VALUE, "PERF_COUNTER_HEADER", "dwType", 52, false},
    {"reserved set", 48 + 12, 1, S, PERFBUF_E_RESERVED_NONZERO, "PERF_COUNTER_HEADER", "Reserved", 60, true},
    /* PERF_COUNTER_DATA (block 1 at 64, data at 80) */
    {"data size 7", 80 + 4, 7, 0, PERFBUF_E_SIZE_TOO_SMALL, "PERF_COUNTER_DATA", "dwSize", 84, false},
    {"data size beyond block", 80 + 4, 24, 0, PERFBUF_E_SIZE_TOO_LARGE, "PERF_COUNTER_DATA", "dwSize", 84, false},
    {"data size huge", 80 + 4, 0xFFFFFFFF, 0, PERFBUF_E_SIZE_TOO_LARGE, "PERF_COUNTER_DATA", "dwSize", 84, false},
    {"data size unaligned", 80 + 4, 12, S, PERFBUF_E_SIZE_UNALIGNED, "PERF_COUNTER_DATA", "dwSize", 84, false},
    {"data size 8 leaves block slack", 80 + 4, 8, 0, PERFBUF_E_SIZE_TOO_LARGE, "PERF_COUNTER_DATA", "dwDataSize", 80, false},
    {"value beyond data", 80, 9, 0, PERFBUF_E_SIZE_TOO_LARGE, "PERF_COUNTER_DATA", "dwDataSize", 80, false},
    {"value huge", 80, 0xFFFFFFFF, 0, PERFBUF_E_SIZE_TOO_LARGE, "PERF_COUNTER_DATA", "dwDataSize", 80, false},
    {"value leaves 8 padding", 80, 0, S, PERFBUF_E_EXCESS_PADDING, "PERF_COUNTER_DATA", "dwSize", 84, true},
    /* PERF_MULTI_COUNTERS (block 2: header 96, list 112) */
    {"list size 7", 112, 7, 0, PERFBUF_E_SIZE_TOO_SMALL, "PERF_MULTI_COUNTERS", "dwSize", 112, false},
    {"list size beyond block", 112, 81, 0, PERFBUF_E_SIZE_TOO_LARGE, "PERF_MULTI_COUNTERS", "dwSize", 112, false},
    {"list size huge", 112, 0xFFFFFFFF, 0, PERFBUF_E_SIZE_TOO_LARGE, "PERF_MULTI_COUNTERS", "dwSize", 112, false},
    {"ids beyond list", 116, 4, 0, PERFBUF_E_COUNT_TOO_LARGE, "PERF_MULTI_COUNTERS", "dwCounters", 116, false},
    {"ids overflow x4", 116, 0x40000001, 0, PERFBUF_E_COUNT_TOO_LARGE, "PERF_MULTI_COUNTERS", "dwCounters", 116, false},
    {"list slack", 112, 28, S, PERFBUF_E_EXCESS_PADDING, "PERF_MULTI_COUNTERS", "dwSize", 112, false},
    {"fewer ids than values", 116, 2, S, PERFBUF_E_EXCESS_PADDING, "PERF_MULTI_COUNTERS", "dwSize", 112, true},
    /* PERF_MULTI_INSTANCES (block 3: list 200) */
    {"instances size 7", 200, 7, 0, PERFBUF_E_SIZE_TOO_SMALL, "PERF_MULTI_INSTANCES", "dwTotalSize", 200, false},
    {"instances size beyond block", 200, 88, 0, PERFBUF_E_SIZE_TOO_LARGE, "PERF_MULTI_INSTANCES", "dwTotalSize", 200, false},
    {"instances size unaligned", 200, 76, S, PERFBUF_E_SIZE_UNALIGNED, "PERF_MULTI_INSTANCES", "dwTotalSize", 200, false},
    {"instances size cuts last value", 200, 72, 0, PERFBUF_E_SIZE_TOO_LARGE, "PERF_COUNTER_DATA", "dwSize", 268, false},
    {"instance count beyond bytes", 204, 8, 0, PERFBUF_E_COUNT_TOO_LARGE, "PERF_MULTI_INSTANCES", "dwInstances", 204, false},
    {"instance count huge", 204, 0xFFFFFFFF, 0, PERFBUF_E_COUNT_TOO_LARGE, "PERF_MULTI_INSTANCES", "dwInstances", 204, false},
    {"instance count above", 204, 3, 0, PERFBUF_E_TRUNCATED, "PERF_INSTANCE_HEADER", "Size", 280, false},
    {"instance count below", 204, 1, S, PERFBUF_E_TRAILING_BYTES, "PERF_MULTI_INSTANCES", "dwTotalSize", 200, true},
    /* PERF_INSTANCE_HEADER (block 3: instance at 208, Size 24) */
    {"instance size 7", 208, 7, 0, PERFBUF_E_SIZE_TOO_SMALL, "PERF_INSTANCE_HEADER", "Size", 208, false},
    {"instance size beyond list", 208, 73, 0, PERFBUF_E_SIZE_TOO_LARGE, "PERF_INSTANCE_HEADER", "Size", 208, false},
    {"instance size huge", 208, 0xFFFFFFF8, 0, PERFBUF_E_SIZE_TOO_LARGE, "PERF_INSTANCE_HEADER", "Size", 208, false},
    {"instance size unaligned", 208, 22, S, PERFBUF_E_SIZE_UNALIGNED, "PERF_INSTANCE_HEADER", "Size", 208, false},
    {"instance size 8: no name", 208, 8, 0, PERFBUF_E_UNTERMINATED_STRING, "PERF_INSTANCE_HEADER", "Name", 216, false},
    {"name without NUL", 228, 0x00410041, 0, PERFBUF_E_UNTERMINATED_STRING, "PERF_INSTANCE_HEADER", "Name", 216, false},
    {"name slack", 208, 32, S, PERFBUF_E_EXCESS_PADDING, "PERF_INSTANCE_HEADER", "Size", 208, false},
    /* COUNTERSET (block 4): ids at 296, instances at 320 */
    {"set ids beyond", 300, 5, 0, PERFBUF_E_COUNT_TOO_LARGE, "PERF_MULTI_COUNTERS", "dwCounters", 300, false},
    {"set list size huge", 296, 0xFFFFFFF0, 0, PERFBUF_E_SIZE_TOO_LARGE, "PERF_MULTI_COUNTERS", "dwSize", 296, false},
    {"set instances cut", 324, 3, 0, PERFBUF_E_TRUNCATED, "PERF_INSTANCE_HEADER", "Size", 464, false},
};
#undef S

static void every_rejection(void)
{
    tb_v2 v = all_kinds();
    for (size_t i = 0; i < sizeof rejections / sizeof rejections[0]; i++) {
        const rejection *r = &rejections[i];
        uint32_t saved = tb_get_u32(&v.buf, r->patch_at);
        tb_patch_u32(&v.buf, r->patch_at, r->value);
        walk w = parse_and_walk(v.buf.data, v.buf.len, r->flags);
        tb_patch_u32(&v.buf, r->patch_at, saved);
        if (w.status != r->status || strcmp(w.err.structure, r->structure) != 0 ||
            strcmp(w.err.field, r->field) != 0 || w.err.offset != r->offset) {
            fprintf(stderr, "%s: got %s at %zu %s.%s\n", r->what, perfbuf_status_name(w.status),
                    w.err.offset, w.err.structure, w.err.field);
        }
        CHECK_STR(perfbuf_status_name(w.status), perfbuf_status_name(r->status));
        CHECK_STR(w.err.structure, r->structure);
        CHECK_STR(w.err.field, r->field);
        CHECK_EQ_U(w.err.offset, r->offset);
        CHECK(w.views_inside);
    }
    tb_free(&v.buf);
}

static void lenient_reports_anomalies(void)
{
    tb_v2 v = all_kinds();
    /* Each strict-only rejection above parses leniently with a flag. */
    for (size_t i = 0; i < sizeof rejections / sizeof rejections[0]; i++) {
        const rejection *r = &rejections[i];
        if (!r->lenient_ok) {
            continue;
        }
        uint32_t saved = tb_get_u32(&v.buf, r->patch_at);
        tb_patch_u32(&v.buf, r->patch_at, r->value);
        walk w = parse_and_walk(v.buf.data, v.buf.len, 0);
        tb_patch_u32(&v.buf, r->patch_at, saved);
        if (w.status != PERFBUF_OK) {
            fprintf(stderr, "%s: lenient got %s at %zu %s.%s\n", r->what,
                    perfbuf_status_name(w.status), w.err.offset, w.err.structure, w.err.field);
        }
        CHECK(w.status == PERFBUF_OK);
        CHECK(w.q.anomalies != 0);
        CHECK_STR(perfbuf_status_name(w.q.first_anomaly.status), perfbuf_status_name(r->status));
        CHECK_STR(w.q.first_anomaly.field, r->field);
        CHECK(w.views_inside);
    }
    tb_free(&v.buf);
}

static void truncation_at_every_length(void)
{
    /* len-1 of every prefix: each shorter buffer is rejected, never read past. */
    tb_v2 v = all_kinds();
    for (size_t len = 0; len < v.buf.len; len++) {
        walk w = parse_and_walk(v.buf.data, len, 0);
        CHECK(w.status != PERFBUF_OK);
        CHECK(w.err.offset <= len);
        CHECK(w.views_inside);
    }
    /* received one more than dwTotalSize: trailing byte, lenient accepts. */
    tb_u8(&v.buf, 0);
    walk w = parse_and_walk(v.buf.data, v.buf.len, 0);
    CHECK(w.status == PERFBUF_OK);
    CHECK(w.q.anomalies & PERFBUF_ANOMALY_TRAILING_BYTES);
    CHECK_EQ_U(w.q.size, 464);
    w = parse_and_walk(v.buf.data, v.buf.len, PERFBUF_STRICT);
    CHECK(w.status == PERFBUF_E_TRAILING_BYTES);
    tb_free(&v.buf);
}

/* A block whose dwSize leaves no room for what its kind requires. */
static void empty_bodies_truncate(void)
{
    static const struct {
        uint32_t kind;
        const char *structure;
        const char *field;
        size_t offset;
    } cases[] = {
        {PERFBUF_V2_SINGLE_COUNTER, "PERF_COUNTER_DATA", "dwDataSize", 64},
        {PERFBUF_V2_MULTIPLE_COUNTERS, "PERF_MULTI_COUNTERS", "dwSize", 64},
        {PERFBUF_V2_MULTIPLE_INSTANCES, "PERF_MULTI_INSTANCES", "dwTotalSize", 64},
        {PERFBUF_V2_COUNTERSET, "PERF_MULTI_INSTANCES", "dwTotalSize", 72},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb_v2 v;
        tb_v2_begin(&v, 0, 0, 1);
        tb_v2_block_begin(&v, 0, cases[i].kind);
        if (cases[i].kind == PERFBUF_V2_COUNTERSET) {
            tb_v2_ids(&v, set_ids, 0);
        }
        tb_v2_block_end(&v);
        tb_v2_end(&v);
        walk w = parse_and_walk(v.buf.data, v.buf.len, 0);
        tb_free(&v.buf);
        CHECK(w.status == PERFBUF_E_TRUNCATED);
        CHECK_STR(w.err.structure, cases[i].structure);
        CHECK_STR(w.err.field, cases[i].field);
        CHECK_EQ_U(w.err.offset, cases[i].offset);
    }
}

static void id_list_padding_past_block(void)
{
    /* Only an unaligned block (lenient) can end inside the id list's padding. */
    tb_v2 v;
    tb_v2_begin(&v, 0, 0, 1);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
    tb_u32(&v.buf, 12);
    tb_u32(&v.buf, 1);
    tb_u32(&v.buf, 42);
    tb_patch_u32(&v.buf, 48 + 8, 28);
    v.blocks = 1;
    tb_v2_end(&v);
    walk w = parse_and_walk(v.buf.data, v.buf.len, 0);
    CHECK(w.status == PERFBUF_E_TRUNCATED);
    CHECK_STR(w.err.structure, "PERF_MULTI_COUNTERS");
    CHECK_STR(w.err.field, "dwSize");
    CHECK_EQ_U(w.err.offset, 64);
    tb_free(&v.buf);
}

static void unaligned_total(void)
{
    tb_v2 v = all_kinds();
    tb_u32(&v.buf, 0);
    tb_patch_u32(&v.buf, 0, 468);
    walk w = parse_and_walk(v.buf.data, v.buf.len, PERFBUF_STRICT);
    CHECK(w.status == PERFBUF_E_SIZE_UNALIGNED);
    CHECK_STR(w.err.field, "dwTotalSize");
    w = parse_and_walk(v.buf.data, v.buf.len, 0);
    CHECK(w.status == PERFBUF_OK);
    CHECK_EQ_U(w.q.anomalies, PERFBUF_ANOMALY_UNALIGNED_SIZE | PERFBUF_ANOMALY_TRAILING_BYTES);
    CHECK_STR(perfbuf_status_name(w.q.first_anomaly.status), "PERFBUF_E_SIZE_UNALIGNED");
    tb_free(&v.buf);
}

static void header_truncation_names_the_field(void)
{
    uint8_t b[48] = {48};
    walk w = parse_and_walk(b, 47, 0);
    CHECK(w.status == PERFBUF_E_TRUNCATED);
    CHECK_STR(w.err.field, "SystemTime");
    CHECK_EQ_U(w.err.offset, 32);
    w = parse_and_walk(b, 3, 0);
    CHECK_STR(w.err.field, "dwTotalSize");
    w = parse_and_walk(b, 48, 0);
    CHECK(w.status == PERFBUF_OK);
}

static void caller_limits(void)
{
    tb_v2 v = all_kinds();
    perfbuf_v2_query q;
    perfbuf_error err;
    perfbuf_options opts = {0, 4, 0, 0};
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, &opts, &q, &err) == PERFBUF_E_LIMIT_EXCEEDED);
    CHECK_STR(err.field, "dwNumCounters");
    opts.max_sections = 5;
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, &opts, &q, &err) == PERFBUF_OK);
    opts.max_counters = 2;
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, &opts, &q, &err) == PERFBUF_E_LIMIT_EXCEEDED);
    CHECK_STR(err.structure, "PERF_MULTI_COUNTERS");
    CHECK_EQ_U(err.offset, 116);
    opts.max_counters = 3;
    opts.max_instances = 1;
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, &opts, &q, &err) == PERFBUF_E_LIMIT_EXCEEDED);
    CHECK_STR(err.field, "dwInstances");
    CHECK_EQ_U(err.offset, 204);
    /* A failed parse leaves no view behind. */
    CHECK(q.data == NULL);
    CHECK_EQ_U(q.block_count, 0);
    tb_free(&v.buf);
}

static const th_case cases[] = {
    TH_CASE(header_only_is_valid),
    TH_CASE(all_five_kinds),
    TH_CASE(block_views),
    TH_CASE(many_instances_and_names),
    TH_CASE(odd_value_sizes_are_bytes),
    TH_CASE(common_stride_row_judged_per_value),
    TH_CASE(wine_capture_decodes),
    TH_CASE(null_arguments),
    TH_CASE(layout_is_as_documented),
    TH_CASE(every_rejection),
    TH_CASE(lenient_reports_anomalies),
    TH_CASE(truncation_at_every_length),
    TH_CASE(empty_bodies_truncate),
    TH_CASE(id_list_padding_past_block),
    TH_CASE(unaligned_total),
    TH_CASE(header_truncation_names_the_field),
    TH_CASE(caller_limits),
};
TH_MAIN(cases)
