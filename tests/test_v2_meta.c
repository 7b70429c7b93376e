/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * V2 metadata: the Processor Information registration exactly as Microsoft's
 * example gives it (31 counters, id 29 absent, three base counters, one of
 * them shared), every rejection of the registration reader, the counterset
 * list and the instance list. Every buffer is parsed in front of a guard page.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/v2_query.h"
#include "builder_v2meta.h"
#include "guard.h"
#include "harness.h"

static perfbuf_status parse_reg(const tb_buf *b, size_t len, uint32_t flags, perfbuf_v2_reginfo *r,
                                perfbuf_error *err)
{
    guarded g = guard_place(b->data, len);
    perfbuf_options opts = {flags, 0, 0, 0};
    perfbuf_status st = perfbuf_v2_reginfo_parse(g.bytes, len, &opts, r, err);
    guard_release(&g);
    r->data = NULL;
    return st;
}

static void processor_information_registration(void)
{
    tb_buf b = tb_v2_reginfo(tb_processor_information, 31, PERFBUF_COUNTERSET_MULTI_INSTANCES);
    CHECK_EQ_U(b.len, 32 + 31 * 48);
    perfbuf_v2_reginfo r;
    perfbuf_error err;
    CHECK(perfbuf_v2_reginfo_parse(b.data, b.len, NULL, &r, &err) == PERFBUF_OK);
    CHECK_EQ_U(r.counter_count, 31);
    CHECK_EQ_U(r.instance_type, PERFBUF_COUNTERSET_MULTI_INSTANCES);
    char g[PERFBUF_GUID_STRING_SIZE];
    perfbuf_guid_format(&r.counterset, g);
    CHECK_STR(g, "{b4fc721a-0378-476f-89ba-a5a79f810b36}");
    perfbuf_v2_counter_reg c;
    CHECK(perfbuf_v2_reginfo_find(&r, 29, &c) == PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_v2_reginfo_find(&r, 28, &c) == PERFBUF_OK);
    CHECK_EQ_U(c.base_id, 27);
    CHECK_EQ_U(c.index, 28);
    CHECK(perfbuf_v2_reginfo_find(&r, 31, &c) == PERFBUF_OK);
    CHECK_EQ_U(c.index, 30);
    /* Three base counters, one shared by two counters. */
    unsigned bases = 0;
    unsigned users_of_27 = 0;
    for (uint32_t i = 0; perfbuf_v2_reginfo_counter(&r, i, &c); i++) {
        bases += perfbuf_counter_type_is_base(c.type);
        users_of_27 += c.base_id == 27;
    }
    CHECK_EQ_U(bases, 3);
    CHECK_EQ_U(users_of_27, 2);
    CHECK(!perfbuf_v2_reginfo_counter(&r, 31, &c));
    perfbuf_v2_reginfo strict;
    CHECK(parse_reg(&b, b.len, PERFBUF_STRICT, &strict, &err) == PERFBUF_OK);
    CHECK_EQ_U(strict.anomalies, 0);
    tb_free(&b);
}

typedef struct reg_rejection {
    const char *what;
    size_t at;
    uint32_t value;
    uint32_t flags;
    perfbuf_status status;
    const char *field;
    size_t offset;
} reg_rejection;

#define C(i) (32 + 48 * (i))
static const reg_rejection reg_rejections[] = {
    {"counterset type", 16, 1, PERFBUF_STRICT, PERFBUF_E_RESERVED_NONZERO, "CounterSetType", 16},
    {"detail level", 20, 300, PERFBUF_STRICT, PERFBUF_E_UNKNOWN_VALUE, "DetailLevel", 20},
    {"instance type", 28, 1, 0, PERFBUF_E_UNKNOWN_VALUE, "InstanceType", 28},
    {"counters beyond bytes", 24, 32, 0, PERFBUF_E_COUNT_TOO_LARGE, "NumCounters", 24},
    {"counters huge", 24, 0xFFFFFFFF, 0, PERFBUF_E_COUNT_TOO_LARGE, "NumCounters", 24},
    {"fewer counters", 24, 30, PERFBUF_STRICT, PERFBUF_E_TRAILING_BYTES, "NumCounters", 24},
    {"unknown type", C(3) + 4, 0x12345678, PERFBUF_STRICT, PERFBUF_E_UNKNOWN_VALUE, "Type", C(3) + 4},
    {"attribute bit", C(3) + 8, 0x20, PERFBUF_STRICT, PERFBUF_E_UNKNOWN_VALUE, "Attrib", C(3) + 8},
    {"counter detail", C(3) + 16, 400, PERFBUF_STRICT, PERFBUF_E_UNKNOWN_VALUE, "DetailLevel", C(3) + 16},
    {"scale 11", C(3) + 20, 11, PERFBUF_STRICT, PERFBUF_E_UNKNOWN_VALUE, "DefaultScale", C(3) + 20},
    {"scale -11", C(3) + 20, 0xFFFFFFF5, PERFBUF_STRICT, PERFBUF_E_UNKNOWN_VALUE, "DefaultScale", C(3) + 20},
    {"aggregate 5", C(3) + 40, 5, PERFBUF_STRICT, PERFBUF_E_UNKNOWN_VALUE, "AggregateFunc", C(3) + 40},
    {"reserved", C(3) + 44, 1, PERFBUF_STRICT, PERFBUF_E_RESERVED_NONZERO, "Reserved", C(3) + 44},
    {"duplicate id", C(5), 4, 0, PERFBUF_E_DUPLICATE_ID, "CounterId", C(5)},
    {"base missing", C(21) + 24, 29, 0, PERFBUF_E_BAD_REFERENCE, "BaseCounterId", C(21) + 24},
    {"base not a base", C(24) + 24, 3, 0, PERFBUF_E_BAD_REFERENCE, "BaseCounterId", C(24) + 24},
    {"base itself", C(25) + 24, 25, 0, PERFBUF_E_BAD_REFERENCE, "BaseCounterId", C(25) + 24},
    {"time not large raw", C(3) + 28, 7, 0, PERFBUF_E_BAD_REFERENCE, "PerfTimeId", C(3) + 28},
    {"freq missing", C(3) + 32, 1000, 0, PERFBUF_E_BAD_REFERENCE, "PerfFreqId", C(3) + 32},
    {"multi not raw", C(3) + 36, 0, 0, PERFBUF_E_BAD_REFERENCE, "MultiId", C(3) + 36},
};
#undef C

static void every_registration_rejection(void)
{
    tb_buf b = tb_v2_reginfo(tb_processor_information, 31, PERFBUF_COUNTERSET_MULTI_INSTANCES);
    for (size_t i = 0; i < sizeof reg_rejections / sizeof reg_rejections[0]; i++) {
        const reg_rejection *x = &reg_rejections[i];
        uint32_t saved = tb_get_u32(&b, x->at);
        tb_patch_u32(&b, x->at, x->value);
        perfbuf_v2_reginfo r;
        perfbuf_error err = {PERFBUF_OK, 0, "", "", 0, 0};
        perfbuf_status st = parse_reg(&b, b.len, x->flags, &r, &err);
        if (st != x->status || err.offset != x->offset) {
            fprintf(stderr, "%s: %s at %zu %s.%s\n", x->what, perfbuf_status_name(st), err.offset,
                    err.structure, err.field);
        }
        CHECK_STR(perfbuf_status_name(st), perfbuf_status_name(x->status));
        CHECK_STR(err.field, x->field);
        CHECK_EQ_U(err.offset, x->offset);
        if (x->flags == PERFBUF_STRICT) {
            /* Leniently, the same buffer parses with the anomaly recorded. */
            CHECK(parse_reg(&b, b.len, 0, &r, &err) == PERFBUF_OK);
            CHECK(r.anomalies != 0);
            CHECK_STR(r.first_anomaly.field, x->field);
        }
        tb_patch_u32(&b, x->at, saved);
    }
    /* Every truncation of the registration is rejected inside the input. */
    for (size_t len = 0; len < b.len; len++) {
        perfbuf_v2_reginfo r;
        perfbuf_error err;
        CHECK(parse_reg(&b, len, 0, &r, &err) != PERFBUF_OK);
        CHECK(err.offset <= len);
    }
    perfbuf_v2_reginfo r;
    perfbuf_error err;
    perfbuf_options few = {0, 0, 30, 0};
    CHECK(perfbuf_v2_reginfo_parse(b.data, b.len, &few, &r, &err) == PERFBUF_E_LIMIT_EXCEEDED);
    CHECK(perfbuf_v2_reginfo_parse(NULL, 4, NULL, &r, &err) == PERFBUF_E_INVALID_ARGUMENT);
    tb_free(&b);
}

static void counterset_list(void)
{
    static const uint8_t two[32] = {0x1a, 0x72, 0xfc, 0xb4, 0x78, 0x03, 0x6f, 0x47, 0x89, 0xba, 0xa5,
                                    0xa7, 0x9f, 0x81, 0x0b, 0x36, 1, 0, 0, 0, 2, 0, 3, 0};
    guarded g = guard_place(two, sizeof two);
    perfbuf_v2_countersets l;
    perfbuf_error err;
    CHECK(perfbuf_v2_countersets_parse(g.bytes, 32, &l, &err) == PERFBUF_OK);
    CHECK_EQ_U(l.count, 2);
    perfbuf_guid guid;
    char text[PERFBUF_GUID_STRING_SIZE];
    CHECK(perfbuf_v2_countersets_get(&l, 1, &guid));
    perfbuf_guid_format(&guid, text);
    CHECK_STR(text, "{00000001-0002-0003-0000-000000000000}");
    CHECK(!perfbuf_v2_countersets_get(&l, 2, &guid));
    CHECK(perfbuf_v2_countersets_parse(g.bytes + 1, 31, &l, &err) == PERFBUF_E_SIZE_NOT_WHOLE_ITEMS);
    CHECK_STR(err.structure, "COUNTERSET_LIST");
    /* A multiple of 8 that is no whole number of GUIDs is refused as such. */
    CHECK(perfbuf_v2_countersets_parse(g.bytes + 8, 24, &l, &err) ==
          PERFBUF_E_SIZE_NOT_WHOLE_ITEMS);
    CHECK(perfbuf_v2_countersets_parse(g.bytes, 0, &l, &err) == PERFBUF_OK);
    CHECK_EQ_U(l.count, 0);
    guard_release(&g);
}

static void instance_list(void)
{
    /* The MS-PCQ example: a 6-byte name ("ab" + NUL) makes Size 16. */
    tb_v2 v;
    tb_v2_begin(&v, 0, 0, 0);
    size_t start = v.buf.len;
    tb_v2_instance(&v, 1, "ab");
    tb_v2_instance(&v, 2, "_Total");
    tb_v2_instance(&v, 3, "\xF0\x9F\x98\x80");
    const uint8_t *list = v.buf.data + start;
    size_t len = v.buf.len - start;
    CHECK_EQ_U(tb_get_u32(&v.buf, start), 16);
    guarded g = guard_place(list, len);
    perfbuf_v2_instance_list l;
    perfbuf_error err;
    CHECK(perfbuf_v2_instance_list_parse(g.bytes, len, NULL, &l, &err) == PERFBUF_OK);
    CHECK_EQ_U(l.count, 3);
    perfbuf_v2_list_iter it;
    perfbuf_v2_listed_instance inst;
    char name[32];
    size_t n;
    perfbuf_v2_instance_list_begin(&it);
    CHECK(perfbuf_v2_instance_list_next(&l, &it, &inst));
    CHECK(perfbuf_v2_instance_list_next(&l, &it, &inst));
    CHECK_EQ_U(inst.id, 2);
    CHECK(perfbuf_v2_listed_name_utf8(&l, &inst, name, sizeof name, &n) == PERFBUF_OK);
    CHECK_STR(name, "_Total");
    CHECK(perfbuf_v2_instance_list_next(&l, &it, &inst));
    CHECK(!perfbuf_v2_instance_list_next(&l, &it, &inst));
    perfbuf_v2_instance_list_begin(&it);
    CHECK(!perfbuf_v2_instance_list_next(NULL, &it, &inst));
    CHECK(!perfbuf_v2_instance_list_next(&l, NULL, &inst));
    CHECK(!perfbuf_v2_instance_list_next(&l, &it, NULL));
    CHECK(perfbuf_v2_instance_list_next(&l, &it, &inst));
    /* A prefix is a valid list exactly when it ends between instances. */
    for (size_t cut = 0; cut <= len; cut++) {
        guarded p = guard_place(list, cut);
        perfbuf_status st = perfbuf_v2_instance_list_parse(p.bytes, cut, NULL, &l, &err);
        guard_release(&p);
        bool boundary = cut == 0 || cut == 16 || cut == 16 + 24 || cut == len;
        CHECK((st == PERFBUF_OK) == boundary);
        CHECK(st == PERFBUF_OK || err.offset <= cut);
    }
    perfbuf_options one = {0, 0, 0, 2};
    CHECK(perfbuf_v2_instance_list_parse(g.bytes, len, &one, &l, &err) == PERFBUF_E_LIMIT_EXCEEDED);
    guard_release(&g);
    /* A name without its NUL inside Size. */
    tb_patch_u32(&v.buf, start + 12, 0x00630063);
    g = guard_place(list, len);
    CHECK(perfbuf_v2_instance_list_parse(g.bytes, len, NULL, &l, &err) == PERFBUF_E_UNTERMINATED_STRING);
    CHECK_STR(err.field, "Name");
    CHECK_EQ_U(err.offset, 8);
    guard_release(&g);
    tb_free(&v.buf);
}

/* One Processor Information query sample: instance "_Total" with the
 * given values for counters 0, 21, 22, 24 and 25; other counters 7. */
static tb_v2 processor_sample(int64_t time_100ns, uint64_t idle, uint64_t precision,
                              uint64_t stamp, uint64_t perf, uint32_t perf_base)
{
    uint32_t ids[31];
    for (uint32_t i = 0; i < 31; i++) {
        ids[i] = tb_processor_information[i].id;
    }
    tb_v2 v;
    tb_v2_begin(&v, 1000, time_100ns, 10000000);
    tb_v2_block_begin(&v, 0, 6);
    tb_v2_ids(&v, ids, 31);
    tb_v2_instances_begin(&v, 1);
    tb_v2_instance(&v, 0, "_Total");
    for (uint32_t i = 0; i < 31; i++) {
        uint32_t id = ids[i];
        uint32_t size = perfbuf_counter_type_size(tb_processor_information[i].type);
        uint64_t value = id == 0 ? idle : id == 21 ? precision : id == 22 ? stamp
                       : id == 24 ? perf : id == 25 ? perf_base : 7;
        if (size == 8) {
            tb_v2_u64(&v, value);
        } else {
            tb_v2_u32(&v, (uint32_t)value);
        }
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    return v;
}

static void values_through_the_registration(void)
{
    tb_buf reg_buf = tb_v2_reginfo(tb_processor_information, 31, PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_reginfo reg;
    CHECK(perfbuf_v2_reginfo_parse(reg_buf.data, reg_buf.len, NULL, &reg, NULL) == PERFBUF_OK);
    const int64_t t0 = 134398148561470699;
    tb_v2 older = processor_sample(t0, 5000000000u, 1000, 10000, 0, 0);
    tb_v2 newer = processor_sample(t0 + 100000000, 5087500000u, 1250, 11000, 3000, 100);
    perfbuf_v2_query q0;
    perfbuf_v2_query q1;
    CHECK(perfbuf_v2_query_parse(older.buf.data, older.buf.len, NULL, &q0, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v2_query_parse(newer.buf.data, newer.buf.len, NULL, &q1, NULL) == PERFBUF_OK);
    perfbuf_v2_iter it;
    perfbuf_v2_block b0;
    perfbuf_v2_block b1;
    perfbuf_v2_instance i0;
    perfbuf_v2_instance i1;
    perfbuf_v2_blocks_begin(&q0, &it);
    CHECK(perfbuf_v2_blocks_next(&q0, &it, &b0));
    perfbuf_v2_blocks_begin(&q1, &it);
    CHECK(perfbuf_v2_blocks_next(&q1, &it, &b1));
    perfbuf_v2_instances_begin(&b0, &it);
    CHECK(perfbuf_v2_instances_next(&q0, &b0, &it, &i0));
    perfbuf_v2_instances_begin(&b1, &it);
    CHECK(perfbuf_v2_instances_next(&q1, &b1, &it, &i1));

    /* % Processor Time: 100 x (1 - 87,500,000 / 100,000,000) = 12.5;
     * % Disk-style precision timer: 100 x 250 / 1000 = 25;
     * % Processor Performance (average bulk over base 25): 3000 / 100 = 30. */
    static const struct {
        uint32_t id;
        double value;
    } want[3] = {{0, 12.5}, {21, 25.0}, {24, 30.0}};
    for (int k = 0; k < 3; k++) {
        perfbuf_raw_sample s0;
        perfbuf_raw_sample s1;
        perfbuf_value_context ctx;
        CHECK(perfbuf_v2_raw_sample(&q0, &b0, &i0, &reg, want[k].id, &s0, &ctx) == PERFBUF_OK);
        CHECK(perfbuf_v2_raw_sample(&q1, &b1, &i1, &reg, want[k].id, &s1, &ctx) == PERFBUF_OK);
        perfbuf_value v;
        CHECK_EQ_U(perfbuf_format_value(s1.type, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE | PERFBUF_FMT_NOCAP100, &v),
                   PERFBUF_CSTATUS_VALID_DATA);
        if (v.as_double < want[k].value - 1e-9 || v.as_double > want[k].value + 1e-9) {
            fprintf(stderr, "counter %u: %.9f\n", want[k].id, v.as_double);
        }
        CHECK(v.as_double > want[k].value - 1e-9 && v.as_double < want[k].value + 1e-9);
    }
    perfbuf_raw_sample s;
    perfbuf_value_context ctx;
    CHECK(perfbuf_v2_raw_sample(&q1, &b1, &i1, &reg, 29, &s, &ctx) == PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_v2_raw_sample(&q1, &b1, &i1, &reg, 25, &s, &ctx) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_raw_sample(&q1, &b1, &i1, NULL, 0, &s, &ctx) == PERFBUF_E_INVALID_ARGUMENT);
    tb_free(&reg_buf);
    tb_free(&older.buf);
    tb_free(&newer.buf);
}

/*
 * perfbuf_v2_raw_sample finds a value by its position where the parse
 * proved the layout (every value one size, ids ascending), and reads only
 * the query's own layout: a block or instance view is compared with the
 * bytes at its offset first. Another capture laid out alike reads that
 * capture's own values there; an instance whose InstanceId or place the
 * bytes do not hold is refused, never read.
 */
static void raw_samples_read_their_own_capture(void)
{
    tb_buf reg_buf = tb_v2_reginfo(tb_processor_information, 31, PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_reginfo reg;
    CHECK(perfbuf_v2_reginfo_parse(reg_buf.data, reg_buf.len, NULL, &reg, NULL) == PERFBUF_OK);
    tb_v2 older = processor_sample(1000, 5000000000u, 1000, 10000, 0, 0);
    tb_v2 newer = processor_sample(2000, 5087500000u, 1250, 11000, 3000, 100);
    perfbuf_v2_query q0, q1;
    CHECK(perfbuf_v2_query_parse(older.buf.data, older.buf.len, NULL, &q0, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v2_query_parse(newer.buf.data, newer.buf.len, NULL, &q1, NULL) == PERFBUF_OK);
    CHECK_EQ_U(q1.layout, PERFBUF_V2_LAYOUT_UNIFORM_VALUES | PERFBUF_V2_LAYOUT_ASCENDING_IDS);
    perfbuf_v2_iter it;
    perfbuf_v2_block b0, b1;
    perfbuf_v2_instance i0, i1;
    perfbuf_v2_blocks_begin(&q0, &it);
    CHECK(perfbuf_v2_blocks_next(&q0, &it, &b0));
    perfbuf_v2_blocks_begin(&q1, &it);
    CHECK(perfbuf_v2_blocks_next(&q1, &it, &b1));
    perfbuf_v2_instances_begin(&b0, &it);
    CHECK(perfbuf_v2_instances_next(&q0, &b0, &it, &i0));
    perfbuf_v2_instances_begin(&b1, &it);
    CHECK(perfbuf_v2_instances_next(&q1, &b1, &it, &i1));
    perfbuf_raw_sample own, slipped;
    perfbuf_value_context own_ctx, slipped_ctx;
    /* Counter 24 divides by counter 25: two values found by position. */
    CHECK(perfbuf_v2_raw_sample(&q1, &b1, &i1, &reg, 24, &own, &own_ctx) == PERFBUF_OK);
    CHECK_EQ_U(own.first, 3000);
    CHECK_EQ_U(own.second, 100);
    CHECK(perfbuf_v2_raw_sample(&q1, &b0, &i0, &reg, 24, &slipped, &slipped_ctx) == PERFBUF_OK);
    CHECK_EQ_U(slipped.first, own.first);
    CHECK_EQ_U(slipped.second, own.second);

    perfbuf_v2_instance moved = i1;
    moved.offset += 8;
    moved.values_offset += 8;
    CHECK(perfbuf_v2_raw_sample(&q1, &b1, &moved, &reg, 24, &slipped, &slipped_ctx) ==
          PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_v2_instance renamed = i1;
    renamed.id ^= 1;
    CHECK(perfbuf_v2_raw_sample(&q1, &b1, &renamed, &reg, 24, &slipped, &slipped_ctx) ==
          PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_v2_block resized = b1;
    resized.instance_count++;
    CHECK(perfbuf_v2_raw_sample(&q1, &resized, &i1, &reg, 24, &slipped, &slipped_ctx) ==
          PERFBUF_E_INVALID_ARGUMENT);
    /* An instance given with a block without instances. */
    perfbuf_v2_block single = b1;
    single.kind = PERFBUF_V2_MULTIPLE_COUNTERS;
    CHECK(perfbuf_v2_raw_sample(&q1, &single, &i1, &reg, 24, &slipped, &slipped_ctx) ==
          PERFBUF_E_INVALID_ARGUMENT);

    /* The same capture with another InstanceId: i1's offset there holds
     * another instance, which is not read as i1. */
    uint8_t *copy = malloc(newer.buf.len);
    CHECK(copy != NULL);
    if (copy != NULL) {
        memcpy(copy, newer.buf.data, newer.buf.len);
        copy[i1.offset + 4] ^= 1;
        perfbuf_v2_query q2;
        CHECK(perfbuf_v2_query_parse(copy, newer.buf.len, NULL, &q2, NULL) == PERFBUF_OK);
        CHECK(perfbuf_v2_raw_sample(&q2, &b1, &i1, &reg, 24, &slipped, &slipped_ctx) ==
              PERFBUF_E_INVALID_ARGUMENT);
        free(copy);
    }
    tb_free(&reg_buf);
    tb_free(&older.buf);
    tb_free(&newer.buf);
}

/* A set with an object timer (time and frequency counters), a 100-ns
 * multi-timer and its multi counter, read from blocks without instances. */
static void object_and_multi_timers_without_instances(void)
{
    static const struct {
        uint32_t id, type, time, freq, multi;
    } set[5] = {
        {0, PERF_OBJ_TIME_TIMER, 1, 2, 0xFFFFFFFF},
        {1, PERF_COUNTER_LARGE_RAWCOUNT, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF},
        {2, PERF_COUNTER_LARGE_RAWCOUNT, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF},
        {3, PERF_100NSEC_MULTI_TIMER, 0xFFFFFFFF, 0xFFFFFFFF, 4},
        {4, PERF_COUNTER_RAWCOUNT, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF},
    };
    tb_reg_row rows[5];
    for (int i = 0; i < 5; i++) {
        rows[i].id = set[i].id;
        rows[i].type = set[i].type;
        rows[i].base = 0xFFFFFFFF;
        rows[i].name = NULL;
    }
    tb_buf reg_buf = tb_v2_reginfo(rows, 5, PERFBUF_COUNTERSET_SINGLE_INSTANCE);
    for (uint32_t i = 0; i < 5; i++) {
        tb_patch_u32(&reg_buf, 32 + 48 * i + 28, set[i].time);
        tb_patch_u32(&reg_buf, 32 + 48 * i + 32, set[i].freq);
        tb_patch_u32(&reg_buf, 32 + 48 * i + 36, set[i].multi);
    }
    perfbuf_v2_reginfo reg;
    perfbuf_error err;
    CHECK(perfbuf_v2_reginfo_parse(reg_buf.data, reg_buf.len, NULL, &reg, &err) == PERFBUF_OK);
    static const uint32_t ids[5] = {0, 1, 2, 3, 4};
    tb_v2 v[2];
    for (int k = 0; k < 2; k++) {
        tb_v2_begin(&v[k], 0, 1000000 + k * 10000000, 10000000);
        tb_v2_block_begin(&v[k], 0, 2);
        tb_v2_ids(&v[k], ids, 5);
        tb_v2_u64(&v[k], (uint64_t)k * 250);      /* object ticks busy */
        tb_v2_u64(&v[k], 5000 + (uint64_t)k * 1000); /* object clock */
        tb_v2_u64(&v[k], 1000);                   /* object frequency */
        tb_v2_u64(&v[k], (uint64_t)k * 20000000);  /* 100-ns busy over 4 units */
        tb_v2_u32(&v[k], 4);
        tb_v2_block_end(&v[k]);
        tb_v2_block_begin(&v[k], 0, 1);            /* a single counter: id 4 */
        tb_v2_u64(&v[k], 8589934592ull);
        tb_v2_block_end(&v[k]);
        static const uint32_t multi_ids[2] = {3, 4};
        tb_v2_block_begin(&v[k], 0, 2);            /* a multi-timer, its base past 32 bits */
        tb_v2_ids(&v[k], multi_ids, 2);
        tb_v2_u64(&v[k], (uint64_t)k * 20000000);
        tb_v2_u64(&v[k], 8589934592ull);
        tb_v2_block_end(&v[k]);
        tb_v2_end(&v[k]);
    }
    perfbuf_v2_query q[2];
    perfbuf_v2_block blocks[2][3];
    for (int k = 0; k < 2; k++) {
        CHECK(perfbuf_v2_query_parse(v[k].buf.data, v[k].buf.len, NULL, &q[k], NULL) == PERFBUF_OK);
        perfbuf_v2_iter it;
        perfbuf_v2_blocks_begin(&q[k], &it);
        CHECK(perfbuf_v2_blocks_next(&q[k], &it, &blocks[k][0]));
        CHECK(perfbuf_v2_blocks_next(&q[k], &it, &blocks[k][1]));
        CHECK(perfbuf_v2_blocks_next(&q[k], &it, &blocks[k][2]));
    }
    static const struct {
        uint32_t id;
        double value;
    } want[2] = {{0, 25.0}, {3, 50.0}};
    for (int i = 0; i < 2; i++) {
        perfbuf_raw_sample s0;
        perfbuf_raw_sample s1;
        perfbuf_value_context ctx;
        CHECK(perfbuf_v2_raw_sample(&q[0], &blocks[0][0], NULL, &reg, want[i].id, &s0, &ctx) == PERFBUF_OK);
        CHECK(perfbuf_v2_raw_sample(&q[1], &blocks[1][0], NULL, &reg, want[i].id, &s1, &ctx) == PERFBUF_OK);
        perfbuf_value value;
        CHECK_EQ_U(perfbuf_format_value(s1.type, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, &value),
                   PERFBUF_CSTATUS_VALID_DATA);
        CHECK(value.as_double > want[i].value - 1e-9 && value.as_double < want[i].value + 1e-9);
    }
    /* The single-counter block: its one value is the counter's, and only
     * that counter's: the time, frequency and multi counters another type
     * needs are not in it, so its value cannot stand in for them. */
    perfbuf_raw_sample s;
    perfbuf_value_context ctx;
    CHECK(perfbuf_v2_raw_sample(&q[1], &blocks[1][1], NULL, &reg, 4, &s, &ctx) == PERFBUF_OK);
    CHECK_EQ_U(s.first, 8589934592ull);
    CHECK(perfbuf_v2_raw_sample(&q[1], &blocks[1][1], NULL, &reg, 0, &s, &ctx) ==
          PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_v2_raw_sample(&q[1], &blocks[1][1], NULL, &reg, 3, &s, &ctx) ==
          PERFBUF_E_NOT_FOUND);
    /* A multi value too large for PDH's 32-bit MultiCount makes the sample
     * invalid rather than silently clamped. */
    CHECK(perfbuf_v2_raw_sample(&q[1], &blocks[1][2], NULL, &reg, 3, &s, &ctx) == PERFBUF_OK);
    CHECK_EQ_U(s.status, PERFBUF_CSTATUS_INVALID_DATA);
    CHECK_EQ_U(s.multi, 0);
    perfbuf_value refused;
    CHECK_EQ_U(perfbuf_format_value(s.type, &s, &s, &ctx, PERFBUF_FMT_DOUBLE, &refused),
               PERFBUF_CSTATUS_INVALID_DATA);
    CHECK(perfbuf_v2_raw_sample(NULL, &blocks[1][1], NULL, &reg, 3, &s, &ctx) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_raw_sample(&q[1], NULL, NULL, &reg, 3, &s, &ctx) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_raw_sample(&q[1], &blocks[1][1], NULL, &reg, 3, NULL, &ctx) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_raw_sample(&q[1], &blocks[1][1], NULL, &reg, 3, &s, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    /* Without its time counter in the data, an object timer has no sample. */
    tb_patch_u32(&reg_buf, 32 + 28, 3);
    perfbuf_v2_reginfo bad;
    CHECK(perfbuf_v2_reginfo_parse(reg_buf.data, reg_buf.len, NULL, &bad, &err) == PERFBUF_E_BAD_REFERENCE);
    tb_free(&reg_buf);
    tb_free(&v[0].buf);
    tb_free(&v[1].buf);
}

static void metadata_null_arguments(void)
{
    static const uint8_t bytes[16] = {16};
    perfbuf_error err;
    perfbuf_v2_countersets l;
    perfbuf_v2_instance_list il;
    perfbuf_v2_reginfo r;
    perfbuf_v2_counter_reg c;
    perfbuf_v2_listed_instance li = {0, 0, 0, 0, 0};
    char out[8];
    size_t len;
    CHECK(perfbuf_v2_countersets_parse(NULL, 16, &l, &err) == PERFBUF_E_INVALID_ARGUMENT);
    /* Every reader says so in the caller's error too. */
    CHECK(err.status == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_countersets_parse(bytes, 16, NULL, &err) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(!perfbuf_v2_countersets_get(NULL, 0, NULL));
    CHECK(perfbuf_v2_instance_list_parse(NULL, 8, NULL, &il, &err) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(err.status == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_instance_list_parse(bytes, 16, NULL, NULL, &err) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_instance_list_parse(bytes, 0, NULL, &il, &err) == PERFBUF_OK);
    CHECK(perfbuf_v2_listed_name_utf8(NULL, &li, out, sizeof out, &len) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_listed_name_utf8(&il, NULL, out, sizeof out, &len) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_listed_name_utf8(&il, &li, NULL, 4, &len) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_reginfo_parse(bytes, 16, NULL, NULL, &err) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(!perfbuf_v2_reginfo_counter(NULL, 0, &c));
    CHECK(perfbuf_v2_reginfo_find(NULL, 0, &c) == PERFBUF_E_INVALID_ARGUMENT);
    /* 16 of 32 bytes: the first field that does not fit is named. */
    CHECK(perfbuf_v2_reginfo_parse(bytes, 16, NULL, &r, &err) == PERFBUF_E_TRUNCATED);
    CHECK_STR(err.field, "CounterSetType");
}

/*
 * PERF_PRECISION_OBJECT_TIMER divides by its base (O-20), so a counter
 * with a BaseCounterId and no PerfTimeId / PerfFreqId has a sample; and a
 * reference of 0xFFFFFFFF ("none") finds no value even when an id list
 * holds that number.
 */
static void precision_timer_and_none_references(void)
{
    tb_reg_row rows[3] = {
        {0, PERF_PRECISION_OBJECT_TIMER, 1, NULL},
        {1, PERF_PRECISION_TIMESTAMP, PERFBUF_V2_NO_ID, NULL},
        {2, PERF_OBJ_TIME_TIMER, PERFBUF_V2_NO_ID, NULL},
    };
    tb_buf reg_buf = tb_v2_reginfo(rows, 3, PERFBUF_COUNTERSET_SINGLE_INSTANCE);
    perfbuf_v2_reginfo reg;
    CHECK(perfbuf_v2_reginfo_parse(reg_buf.data, reg_buf.len, NULL, &reg, NULL) == PERFBUF_OK);
    /* Block 0: the precision timer and its base; block 1: the object
     * timer and a value under 0xFFFFFFFF. */
    static const uint32_t timer_ids[2] = {0, 1};
    static const uint32_t none_ids[2] = {2, PERFBUF_V2_NO_ID};
    tb_v2 v[2];
    perfbuf_v2_query q[2];
    perfbuf_v2_block block[2][2];
    for (int k = 0; k < 2; k++) {
        tb_v2_begin(&v[k], 0, 1000000 + k * 10000000, 10000000);
        tb_v2_block_begin(&v[k], 0, 2);
        tb_v2_ids(&v[k], timer_ids, 2);
        tb_v2_u64(&v[k], (uint64_t)k * 300);          /* precision timer */
        tb_v2_u64(&v[k], 1000 + (uint64_t)k * 1000);  /* its timestamp base */
        tb_v2_block_end(&v[k]);
        tb_v2_block_begin(&v[k], 0, 2);
        tb_v2_ids(&v[k], none_ids, 2);
        tb_v2_u64(&v[k], 50);                          /* object timer */
        tb_v2_u64(&v[k], 100);                         /* under id 0xFFFFFFFF */
        tb_v2_block_end(&v[k]);
        tb_v2_end(&v[k]);
        CHECK(perfbuf_v2_query_parse(v[k].buf.data, v[k].buf.len, NULL, &q[k], NULL) == PERFBUF_OK);
        perfbuf_v2_iter it;
        perfbuf_v2_blocks_begin(&q[k], &it);
        CHECK(perfbuf_v2_blocks_next(&q[k], &it, &block[k][0]));
        CHECK(perfbuf_v2_blocks_next(&q[k], &it, &block[k][1]));
    }
    perfbuf_raw_sample s[2];
    perfbuf_value_context ctx;
    for (int k = 0; k < 2; k++) {
        CHECK(perfbuf_v2_raw_sample(&q[k], &block[k][0], NULL, &reg, 0, &s[k], &ctx) == PERFBUF_OK);
        CHECK_EQ_U(s[k].second, 1000 + (uint64_t)k * 1000);
    }
    perfbuf_value value;
    CHECK_EQ_U(perfbuf_format_value(s[1].type, &s[1], &s[0], &ctx, PERFBUF_FMT_DOUBLE, &value),
               PERFBUF_CSTATUS_VALID_DATA);
    CHECK(value.as_double > 30.0 - 1e-9 && value.as_double < 30.0 + 1e-9);
    /* The object timer's PerfTimeId and PerfFreqId are "none": no sample,
     * though its block holds a value under 0xFFFFFFFF. */
    CHECK(perfbuf_v2_raw_sample(&q[1], &block[1][1], NULL, &reg, 2, &s[1], &ctx) ==
          PERFBUF_E_NOT_FOUND);
    tb_free(&reg_buf);
    tb_free(&v[0].buf);
    tb_free(&v[1].buf);
}

/* A counter registered under 0xFFFFFFFF, the wildcard and "none", is
 * refused in both modes, by the counterset and the one-counter readers. */
static void counter_id_of_none_is_refused(void)
{
    tb_reg_row rows[2] = {
        {0, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, NULL},
        {PERFBUF_V2_NO_ID, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, NULL},
    };
    tb_buf reg_buf = tb_v2_reginfo(rows, 2, PERFBUF_COUNTERSET_SINGLE_INSTANCE);
    perfbuf_options strict = {PERFBUF_STRICT, 0, 0, 0};
    const perfbuf_options *modes[2] = {NULL, &strict};
    for (int m = 0; m < 2; m++) {
        perfbuf_v2_reginfo reg;
        perfbuf_error err;
        CHECK(perfbuf_v2_reginfo_parse(reg_buf.data, reg_buf.len, modes[m], &reg, &err) ==
              PERFBUF_E_UNKNOWN_VALUE);
        CHECK_STR(err.structure, "PERF_COUNTER_REG_INFO");
        CHECK_STR(err.field, "CounterId");
        CHECK_EQ_U(err.offset, 32 + 48);
        perfbuf_v2_counter_answer one;
        CHECK(perfbuf_v2_counter_reg_parse(reg_buf.data + 32 + 48, 48, modes[m], &one, &err) ==
              PERFBUF_E_UNKNOWN_VALUE);
        CHECK_STR(err.field, "CounterId");
        CHECK_EQ_U(err.offset, 0);
    }
    tb_free(&reg_buf);
}

/* n raw counters whose ids descend from 1000 (or with one repeated). */
static tb_buf descending_registration(uint32_t n, bool repeat_one, tb_reg_row *rows)
{
    for (uint32_t i = 0; i < n; i++) {
        rows[i].id = 1000 - i;
        rows[i].type = PERF_COUNTER_RAWCOUNT;
        rows[i].base = PERFBUF_V2_NO_ID;
        rows[i].name = NULL;
    }
    if (repeat_one) {
        rows[n - 3].id = rows[5].id;
    }
    return tb_v2_reginfo(rows, n, PERFBUF_COUNTERSET_SINGLE_INSTANCE);
}

/*
 * Ids out of order: a small set is scanned; a larger one needs scratch to
 * be sorted (never compared pairwise), and the plain parse says so by
 * naming the first id out of order. With scratch, duplicates are found
 * and every id is found again through the sorted scratch.
 */
static void unordered_ids_need_scratch(void)
{
    tb_reg_row rows[64];
    perfbuf_v2_reginfo r;
    perfbuf_error err;
    perfbuf_v2_counter_reg c;
    tb_buf small = descending_registration(PERFBUF_V2_SMALL_SET, false, rows);
    CHECK(perfbuf_v2_reginfo_parse(small.data, small.len, NULL, &r, &err) == PERFBUF_OK);
    CHECK(!r.ids_ascending && r.order == NULL);
    CHECK(perfbuf_v2_reginfo_find(&r, 1000 - 31, &c) == PERFBUF_OK);
    CHECK_EQ_U(c.index, 31);
    tb_free(&small);

    tb_buf big = descending_registration(64, false, rows);
    CHECK(perfbuf_v2_reginfo_parse(big.data, big.len, NULL, &r, &err) == PERFBUF_E_SCRATCH_NEEDED);
    CHECK_STR(err.field, "CounterId");
    CHECK_EQ_U(err.offset, 32 + 1 * 48);
    uint64_t scratch[64];
    CHECK(perfbuf_v2_reginfo_parse_indexed(big.data, big.len, NULL, scratch, 63, &r, &err) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_STR(err.field, "NumCounters");
    CHECK(perfbuf_v2_reginfo_parse_indexed(big.data, big.len, NULL, NULL, 64, &r, &err) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_reginfo_parse_indexed(big.data, big.len, NULL, scratch, 64, &r, &err) ==
          PERFBUF_OK);
    CHECK(r.order == scratch && r.order_count == 64);
    for (uint32_t i = 0; i < 64; i++) {
        CHECK(perfbuf_v2_reginfo_find(&r, 1000 - i, &c) == PERFBUF_OK);
        CHECK_EQ_U(c.index, i);
    }
    CHECK(perfbuf_v2_reginfo_find(&r, 1001, &c) == PERFBUF_E_NOT_FOUND);
    /* A tampered scratch entry names a counter whose id differs: not found. */
    scratch[0] = (uint64_t)(1000 - 63) << 32 | 5;
    CHECK(perfbuf_v2_reginfo_find(&r, 1000 - 63, &c) == PERFBUF_E_NOT_FOUND);
    tb_free(&big);

    tb_buf dup = descending_registration(64, true, rows);
    CHECK(perfbuf_v2_reginfo_parse_indexed(dup.data, dup.len, NULL, scratch, 64, &r, &err) ==
          PERFBUF_E_DUPLICATE_ID);
    CHECK_EQ_U(err.offset, 32 + 61 * 48);
    tb_free(&dup);
    tb_buf small_dup = descending_registration(PERFBUF_V2_SMALL_SET, true, rows);
    CHECK(perfbuf_v2_reginfo_parse(small_dup.data, small_dup.len, NULL, &r, &err) ==
          PERFBUF_E_DUPLICATE_ID);
    CHECK_EQ_U(err.offset, 32 + (PERFBUF_V2_SMALL_SET - 3) * 48);
    tb_free(&small_dup);
}

/* n raw counters whose ids are first + i, except that ids past the gap
 * (positions >= gap_at) are one higher. */
static tb_buf ascending_registration(uint32_t n, uint32_t first, uint32_t gap_at, tb_reg_row *rows)
{
    for (uint32_t i = 0; i < n; i++) {
        rows[i].id = first + i + (i >= gap_at ? 1 : 0);
        rows[i].type = PERF_COUNTER_RAWCOUNT;
        rows[i].base = PERFBUF_V2_NO_ID;
        rows[i].name = NULL;
    }
    return tb_v2_reginfo(rows, n, PERFBUF_COUNTERSET_SINGLE_INSTANCE);
}

/*
 * Ascending ids are looked for first at position id - first id: consecutive
 * ids from any start are all found there, and where a gap puts another id
 * at that position the lookup falls back to the binary search, never to
 * the wrong counter. The same for the string headers.
 */
static void ascending_ids_with_and_without_gaps(void)
{
    tb_reg_row rows[40];
    perfbuf_v2_reginfo r;
    perfbuf_v2_counter_reg c;
    tb_buf dense = ascending_registration(40, 100, 40, rows);
    CHECK(perfbuf_v2_reginfo_parse(dense.data, dense.len, NULL, &r, NULL) == PERFBUF_OK);
    CHECK(r.ids_ascending);
    for (uint32_t i = 0; i < 40; i++) {
        CHECK(perfbuf_v2_reginfo_find(&r, 100 + i, &c) == PERFBUF_OK);
        CHECK_EQ_U(c.index, i);
        CHECK_EQ_U(c.id, 100 + i);
    }
    CHECK(perfbuf_v2_reginfo_find(&r, 99, &c) == PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_v2_reginfo_find(&r, 140, &c) == PERFBUF_E_NOT_FOUND);
    tb_free(&dense);

    /* Ids 0, 2, 3, ..., 40: id k >= 2 sits at k - 1, its dense position
     * holds k + 1. */
    tb_buf gap = ascending_registration(40, 0, 1, rows);
    CHECK(perfbuf_v2_reginfo_parse(gap.data, gap.len, NULL, &r, NULL) == PERFBUF_OK);
    CHECK(r.ids_ascending);
    CHECK(perfbuf_v2_reginfo_find(&r, 0, &c) == PERFBUF_OK);
    CHECK_EQ_U(c.index, 0);
    for (uint32_t k = 2; k <= 40; k++) {
        CHECK(perfbuf_v2_reginfo_find(&r, k, &c) == PERFBUF_OK);
        CHECK_EQ_U(c.index, k - 1);
        CHECK_EQ_U(c.id, k);
    }
    CHECK(perfbuf_v2_reginfo_find(&r, 1, &c) == PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_v2_reginfo_find(&r, 41, &c) == PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_v2_reginfo_find(&r, PERFBUF_V2_NO_ID, &c) == PERFBUF_E_NOT_FOUND);
    tb_free(&gap);

    for (uint32_t i = 0; i < 40; i++) {
        rows[i].name = "x";
    }
    tb_buf strings = tb_v2_strings(rows, 40, PERFBUF_V2_STRINGS_FROM_BLOCK);
    perfbuf_v2_strings s;
    perfbuf_v2_counter_string cs;
    CHECK(perfbuf_v2_strings_parse(strings.data, strings.len, PERFBUF_V2_STRINGS_FROM_BLOCK, NULL,
                                   &s, NULL) == PERFBUF_OK);
    CHECK(s.ids_ascending);
    for (uint32_t k = 2; k <= 40; k++) {
        CHECK(perfbuf_v2_strings_find(&s, k, &cs) == PERFBUF_OK);
        CHECK_EQ_U(cs.index, k - 1);
        CHECK(cs.present && cs.units == 1);
    }
    CHECK(perfbuf_v2_strings_find(&s, 1, &cs) == PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_v2_strings_find(&s, 41, &cs) == PERFBUF_E_NOT_FOUND);
    tb_free(&strings);
}

/* An instance list of the given names, ids 1, 2, ... */
static tb_buf listed(const char *const *names, size_t count)
{
    tb_v2 v;
    tb_init(&v.buf);
    for (size_t i = 0; i < count; i++) {
        tb_v2_instance(&v, (uint32_t)i + 1, names[i]);
    }
    return v.buf;
}

/*
 * An iterator of one instance list used with another: the view reads
 * the other list's bytes where the iterator points, which are not an
 * instance the parse accepted there. Whatever they hold (no header left,
 * a Size under 8 or past the end, a name without its NUL), the iterator
 * stops with false, reads only inside the list it is given (a guard page
 * follows it), and stays stopped.
 */
static void instance_list_iterator_of_another_list(void)
{
    /* A's first instance ("a") is 16 bytes: the iterator points 16 bytes
     * into B's first instance, at its third name code unit. */
    static const char *const a_names[] = {"a", "b"};
    static const char *const size_zero[] = {"abcd", "e"};       /* NUL, padding: Size 0 */
    static const char *const size_huge[] = {"abcdefghijk", "e"}; /* "ef": Size 0x00660065 */
    static const char *const no_nul[] = {"abcd\x0a", "e"};     /* Size 10: 2 bytes, no NUL */
    static const char *const long_names[] = {"abcdefghijk", "abcdefghijk"};
    static const char *const short_names[] = {"a", "b"};
    const char *const *b_names[] = {size_zero, size_huge, no_nul};
    tb_buf a = listed(a_names, 2);
    guarded ga = guard_place(a.data, a.len);
    perfbuf_v2_instance_list la;
    CHECK(perfbuf_v2_instance_list_parse(ga.bytes, a.len, NULL, &la, NULL) == PERFBUF_OK);
    for (size_t k = 0; k < sizeof b_names / sizeof b_names[0]; k++) {
        tb_buf b = listed(b_names[k], 2);
        guarded gb = guard_place(b.data, b.len);
        perfbuf_v2_instance_list lb;
        CHECK(perfbuf_v2_instance_list_parse(gb.bytes, b.len, NULL, &lb, NULL) == PERFBUF_OK);
        perfbuf_v2_list_iter it;
        perfbuf_v2_listed_instance inst;
        perfbuf_v2_instance_list_begin(&it);
        CHECK(perfbuf_v2_instance_list_next(&la, &it, &inst));
        CHECK_EQ_U(it.pos, 16);
        CHECK(!perfbuf_v2_instance_list_next(&lb, &it, &inst));
        CHECK(!perfbuf_v2_instance_list_next(&lb, &it, &inst));
        guard_release(&gb);
        tb_free(&b);
    }
    /* Past the end of a shorter list: no header left. */
    tb_buf longer = listed(long_names, 2);
    tb_buf shorter = listed(short_names, 2);
    guarded gs = guard_place(shorter.data, shorter.len);
    perfbuf_v2_instance_list ll;
    perfbuf_v2_instance_list ls;
    CHECK(perfbuf_v2_instance_list_parse(longer.data, longer.len, NULL, &ll, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v2_instance_list_parse(gs.bytes, shorter.len, NULL, &ls, NULL) == PERFBUF_OK);
    perfbuf_v2_list_iter it;
    perfbuf_v2_listed_instance inst;
    perfbuf_v2_instance_list_begin(&it);
    CHECK(perfbuf_v2_instance_list_next(&ll, &it, &inst));
    CHECK_EQ_U(it.pos, 32);
    CHECK(!perfbuf_v2_instance_list_next(&ls, &it, &inst));
    guard_release(&gs);
    guard_release(&ga);
    tb_free(&longer);
    tb_free(&shorter);
    tb_free(&a);
}

static const th_case cases[] = {
    TH_CASE(processor_information_registration),
    TH_CASE(every_registration_rejection),
    TH_CASE(counterset_list),
    TH_CASE(instance_list),
    TH_CASE(values_through_the_registration),
    TH_CASE(raw_samples_read_their_own_capture),
    TH_CASE(object_and_multi_timers_without_instances),
    TH_CASE(precision_timer_and_none_references),
    TH_CASE(counter_id_of_none_is_refused),
    TH_CASE(metadata_null_arguments),
    TH_CASE(unordered_ids_need_scratch),
    TH_CASE(ascending_ids_with_and_without_gaps),
    TH_CASE(instance_list_iterator_of_another_list),
};
TH_MAIN(cases)
