/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * PERF_COUNTER_IDENTIFIER sequences (PerfQueryCounterInfo) and the
 * cross-check of query data against a registration and identifiers.
 * Every buffer is parsed in front of a guard page.
 */
#include <stdio.h>
#include <string.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/v2_meta.h"
#include "builder_v2meta.h"
#include "guard.h"
#include "harness.h"

static const uint8_t memory_guid[16] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
                                        0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00};

/*
 * Three identifiers:
 *   0  Processor Information, every counter, instance "*", results in block 0 (48 bytes)
 *   48 another counterset, counter 5, no name, results in block 1 (40 bytes)
 *   88 a counterset the machine does not have (status 0x1068), name "ab" (48 bytes)
 */
static tb_buf three_identifiers(void)
{
    tb_buf b;
    tb_init(&b);
    tb_v2_identifier(&b, tb_processor_information_guid, 0, PERFBUF_V2_WILDCARD_COUNTER,
                     PERFBUF_V2_ANY_INSTANCE_ID, 0, "*");
    tb_v2_identifier(&b, memory_guid, 0, 5, PERFBUF_V2_ANY_INSTANCE_ID, 1, NULL);
    tb_v2_identifier(&b, memory_guid, 0x1068, 7, 3, 2, "ab");
    return b;
}

static perfbuf_status parse_ids(const tb_buf *b, size_t len, uint32_t flags, uint32_t max,
                                perfbuf_v2_identifiers *l, perfbuf_error *err)
{
    guarded g = guard_place(b->data, len);
    perfbuf_options opts = {flags, 0, max, 0};
    perfbuf_status st = perfbuf_v2_identifiers_parse(g.bytes, len, &opts, l, err);
    if (st == PERFBUF_OK) {
        perfbuf_v2_list_iter it;
        perfbuf_v2_identifier id;
        uint32_t n = 0;
        perfbuf_v2_identifiers_begin(&it);
        while (perfbuf_v2_identifiers_next(l, &it, &id)) {
            EXPECT(id.index == n);
            EXPECT(id.offset + id.size <= len);
            EXPECT(!id.has_name || id.name_offset + 2 * id.name_units + 2 <= id.offset + id.size);
            char name[16];
            size_t nlen;
            perfbuf_status conv = perfbuf_v2_identifier_name_utf8(l, &id, name, sizeof name, &nlen);
            EXPECT(conv == PERFBUF_OK || conv == PERFBUF_E_OUTPUT_TOO_SMALL);
            n++;
        }
        EXPECT(n == l->count);
    }
    guard_release(&g);
    l->data = NULL;
    return st;
}

static void identifiers(void)
{
    tb_buf b = three_identifiers();
    CHECK_EQ_U(b.len, 136);
    perfbuf_v2_identifiers l;
    perfbuf_error err;
    CHECK(parse_ids(&b, b.len, PERFBUF_STRICT, 0, &l, &err) == PERFBUF_OK);
    CHECK_EQ_U(l.count, 3);
    l.data = b.data;
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifier id;
    char text[PERFBUF_GUID_STRING_SIZE];
    char name[8];
    size_t n;
    perfbuf_v2_identifiers_begin(&it);
    CHECK(perfbuf_v2_identifiers_next(&l, &it, &id));
    perfbuf_guid_format(&id.counterset, text);
    CHECK_STR(text, "{b4fc721a-0378-476f-89ba-a5a79f810b36}");
    CHECK_EQ_U(id.counter_id, PERFBUF_V2_WILDCARD_COUNTER);
    CHECK_EQ_U(id.size, 48);
    CHECK(id.has_name);
    CHECK(perfbuf_v2_identifier_name_utf8(&l, &id, name, sizeof name, &n) == PERFBUF_OK);
    CHECK_STR(name, "*");
    CHECK(perfbuf_v2_identifiers_next(&l, &it, &id));
    CHECK_EQ_U(id.offset, 48);
    CHECK_EQ_U(id.counter_id, 5);
    CHECK_EQ_U(id.query_index, 1);
    CHECK(!id.has_name);
    CHECK(perfbuf_v2_identifier_name_utf8(&l, &id, name, sizeof name, &n) == PERFBUF_OK);
    CHECK_STR(name, "");
    CHECK(perfbuf_v2_identifiers_next(&l, &it, &id));
    CHECK_EQ_U(id.status, 0x1068);
    CHECK_EQ_U(id.instance_id, 3);
    CHECK(perfbuf_v2_identifier_name_utf8(&l, &id, name, sizeof name, &n) == PERFBUF_OK);
    CHECK_STR(name, "ab");
    CHECK(!perfbuf_v2_identifiers_next(&l, &it, &id));
    /* None at all is a valid answer. */
    CHECK(parse_ids(&b, 0, PERFBUF_STRICT, 0, &l, &err) == PERFBUF_OK);
    CHECK_EQ_U(l.count, 0);
    tb_free(&b);
}

typedef struct id_rejection {
    const char *what;
    size_t at;
    uint32_t value;
    size_t cut;          /* bytes removed from the end */
    uint32_t flags;
    perfbuf_status status;
    const char *field;
    size_t offset;
} id_rejection;

static const id_rejection id_rejections[] = {
    {"Size 0", 20, 0, 0, 0, PERFBUF_E_SIZE_TOO_SMALL, "Size", 20},
    {"Size len-1", 20, 39, 0, 0, PERFBUF_E_SIZE_TOO_SMALL, "Size", 20},
    {"Size beyond the buffer", 88 + 20, 49, 0, 0, PERFBUF_E_SIZE_TOO_LARGE, "Size", 88 + 20},
    {"Size huge", 20, 0xFFFFFFFF, 0, 0, PERFBUF_E_SIZE_TOO_LARGE, "Size", 20},
    {"Size not a multiple of 8", 88 + 20, 46, 2, PERFBUF_STRICT, PERFBUF_E_SIZE_UNALIGNED, "Size",
     88 + 20},
    {"name unterminated", 88 + 44, 0x00430043, 0, 0, PERFBUF_E_UNTERMINATED_STRING, "Name",
     88 + 40},
    {"reserved", 48 + 36, 1, 0, PERFBUF_STRICT, PERFBUF_E_RESERVED_NONZERO, "Reserved", 48 + 36},
};

static void every_identifier_rejection(void)
{
    tb_buf b = three_identifiers();
    for (size_t i = 0; i < sizeof id_rejections / sizeof id_rejections[0]; i++) {
        const id_rejection *x = &id_rejections[i];
        uint32_t saved = tb_get_u32(&b, x->at);
        tb_patch_u32(&b, x->at, x->value);
        perfbuf_v2_identifiers l;
        perfbuf_error err = {PERFBUF_OK, 0, "", "", 0, 0};
        perfbuf_status st = parse_ids(&b, b.len - x->cut, x->flags, 0, &l, &err);
        if (st != x->status || err.offset != x->offset) {
            fprintf(stderr, "%s: %s at %zu %s.%s\n", x->what, perfbuf_status_name(st), err.offset,
                    err.structure, err.field);
        }
        CHECK_STR(perfbuf_status_name(st), perfbuf_status_name(x->status));
        CHECK_STR(err.structure, "PERF_COUNTER_IDENTIFIER");
        CHECK_STR(err.field, x->field);
        CHECK_EQ_U(err.offset, x->offset);
        if (x->flags == PERFBUF_STRICT) {
            CHECK(parse_ids(&b, b.len - x->cut, 0, 0, &l, &err) == PERFBUF_OK);
            CHECK_STR(l.first_anomaly.field, x->field);
        }
        tb_patch_u32(&b, x->at, saved);
    }
    /* Padding longer than alignment needs: 8 more zero bytes in the last. */
    tb_zeros(&b, 8);
    tb_patch_u32(&b, 88 + 20, 56);
    perfbuf_v2_identifiers l;
    perfbuf_error err;
    CHECK(parse_ids(&b, b.len, PERFBUF_STRICT, 0, &l, &err) == PERFBUF_E_EXCESS_PADDING);
    CHECK_EQ_U(err.offset, 88 + 20);
    CHECK(parse_ids(&b, b.len, 0, 0, &l, &err) == PERFBUF_OK);
    CHECK_EQ_U(l.anomalies, PERFBUF_ANOMALY_EXCESS_PADDING);
    tb_patch_u32(&b, 88 + 20, 48);
    b.len -= 8;
    /* The caller's limit. */
    CHECK(parse_ids(&b, b.len, 0, 3, &l, &err) == PERFBUF_OK);
    CHECK(parse_ids(&b, b.len, 0, 2, &l, &err) == PERFBUF_E_LIMIT_EXCEEDED);
    CHECK_EQ_U(err.offset, 88 + 20);
    /* Every truncation is rejected inside the input, except at a boundary. */
    for (size_t len = 0; len < b.len; len++) {
        perfbuf_status st = parse_ids(&b, len, 0, 0, &l, &err);
        if (len == 0 || len == 48 || len == 88) {
            CHECK(st == PERFBUF_OK);
        } else {
            CHECK(st != PERFBUF_OK);
            CHECK(err.offset <= len);
        }
    }
    CHECK(perfbuf_v2_identifiers_parse(NULL, 40, NULL, &l, &err) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_identifiers_parse(b.data, b.len, NULL, NULL, &err) ==
          PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifier id;
    char name[4];
    size_t n;
    perfbuf_v2_identifiers_begin(&it);
    CHECK(!perfbuf_v2_identifiers_next(NULL, &it, &id));
    CHECK(perfbuf_v2_identifier_name_utf8(NULL, &id, name, sizeof name, &n) ==
          PERFBUF_E_INVALID_ARGUMENT);
    tb_free(&b);
}

/* ---- the cross-check ---- */

typedef struct fixture {
    tb_buf reg_buf;
    tb_v2 query;
    tb_buf ids_buf;
    perfbuf_v2_reginfo reg;
    perfbuf_v2_query q;
    perfbuf_v2_identifiers ids;
} fixture;

static const char *const four_instances[4] = {"_Total", "0,_Total", "0,0", "0,1"};

/* Parses the three buffers of f, each in front of a guard page, and
 * cross-checks them (with the identifiers when asked). */
static perfbuf_status crosscheck_with(fixture *f, bool with_ids, uint64_t *scratch, size_t cap,
                                      perfbuf_v2_mismatch *m)
{
    guarded reg = guard_place(f->reg_buf.data, f->reg_buf.len);
    guarded query = guard_place(f->query.buf.data, f->query.buf.len);
    guarded ids = guard_place(f->ids_buf.data, f->ids_buf.len);
    EXPECT(perfbuf_v2_reginfo_parse(reg.bytes, f->reg_buf.len, NULL, &f->reg, NULL) ==
           PERFBUF_OK);
    EXPECT(perfbuf_v2_query_parse(query.bytes, f->query.buf.len, NULL, &f->q, NULL) ==
           PERFBUF_OK);
    EXPECT(perfbuf_v2_identifiers_parse(ids.bytes, f->ids_buf.len, NULL, &f->ids, NULL) ==
           PERFBUF_OK);
    perfbuf_status st =
        scratch == NULL && cap == 0
            ? perfbuf_v2_crosscheck(&f->q, &f->reg, with_ids ? &f->ids : NULL, m)
            : perfbuf_v2_crosscheck_indexed(&f->q, &f->reg, with_ids ? &f->ids : NULL, scratch,
                                            cap, m);
    guard_release(&reg);
    guard_release(&query);
    guard_release(&ids);
    return st;
}

static perfbuf_status crosscheck(fixture *f, bool with_ids, perfbuf_v2_mismatch *m)
{
    return crosscheck_with(f, with_ids, NULL, 0, m);
}

static fixture processor_fixture(uint32_t instance_type)
{
    fixture f;
    memset(&f, 0, sizeof f);
    f.reg_buf = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                              instance_type);
    f.query = tb_v2_processor_information_query(four_instances, 4);
    tb_init(&f.ids_buf);
    tb_v2_identifier(&f.ids_buf, tb_processor_information_guid, 0, PERFBUF_V2_WILDCARD_COUNTER,
                     PERFBUF_V2_ANY_INSTANCE_ID, 0, "*");
    return f;
}

static void fixture_free(fixture *f)
{
    tb_free(&f->reg_buf);
    tb_free(&f->query.buf);
    tb_free(&f->ids_buf);
}

static void agreeing_buffers(void)
{
    fixture f = processor_fixture(PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_mismatch m;
    CHECK(crosscheck(&f, false, &m) == PERFBUF_OK);
    CHECK(m.kind == PERFBUF_V2_AGREE);
    CHECK_STR(m.in_query.structure, "");
    CHECK(crosscheck(&f, true, &m) == PERFBUF_OK);
    /* The same registration listed backwards: no binary search, same answer. */
    tb_reg_row reversed[TB_PROCESSOR_INFORMATION_COUNTERS];
    for (uint32_t i = 0; i < TB_PROCESSOR_INFORMATION_COUNTERS; i++) {
        reversed[i] = tb_processor_information[TB_PROCESSOR_INFORMATION_COUNTERS - 1 - i];
    }
    tb_free(&f.reg_buf);
    f.reg_buf = tb_v2_reginfo(reversed, TB_PROCESSOR_INFORMATION_COUNTERS,
                              PERFBUF_COUNTERSET_MULTI_INSTANCES);
    CHECK(crosscheck(&f, true, &m) == PERFBUF_OK);
    CHECK(perfbuf_v2_crosscheck(NULL, &f.reg, NULL, &m) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_crosscheck(&f.q, NULL, NULL, &m) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_crosscheck(&f.q, &f.reg, NULL, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    fixture_free(&f);
}

/* Offsets in the Processor Information query: header 48, counter header
 * 48..64, PERF_MULTI_COUNTERS 64..72, ids 72..196, PERF_MULTI_INSTANCES
 * 200, first instance header 208 ("_Total": 8 + 14 + 2 pad = 24), its
 * first value at 232. */
#define QUERY_IDS 72u
#define FIRST_VALUE 232u

static void unknown_counter_in_the_data(void)
{
    fixture f = processor_fixture(PERFBUF_COUNTERSET_MULTI_INSTANCES);
    CHECK_EQ_U(tb_get_u32(&f.query.buf, QUERY_IDS + 4 * 28), 28);
    tb_patch_u32(&f.query.buf, QUERY_IDS + 4 * 28, 29);
    perfbuf_v2_mismatch m;
    CHECK(crosscheck(&f, false, &m) == PERFBUF_E_INCONSISTENT);
    CHECK(m.kind == PERFBUF_V2_UNKNOWN_COUNTER);
    CHECK_STR(perfbuf_v2_mismatch_name(m.kind), "UNKNOWN_COUNTER");
    CHECK_EQ_U(m.counter_id, 29);
    CHECK_EQ_U(m.block_index, 0);
    CHECK_STR(m.in_query.structure, "PERF_MULTI_COUNTERS_ID");
    CHECK_STR(m.in_query.field, "CounterId");
    CHECK_EQ_U(m.in_query.offset, QUERY_IDS + 4 * 28);
    CHECK_STR(m.in_registration.field, "NumCounters");
    CHECK_EQ_U(m.in_registration.offset, 24);
    CHECK_STR(m.in_identifiers.structure, "");
    fixture_free(&f);
}

static void value_size_against_type(void)
{
    fixture f = processor_fixture(PERFBUF_COUNTERSET_MULTI_INSTANCES);
    /* Counter 3 (index 3) registered as 8 bytes; the data has 4. */
    size_t type_at = 32 + 48 * 3 + 4;
    tb_patch_u32(&f.reg_buf, type_at, PERF_COUNTER_BULK_COUNT);
    perfbuf_v2_mismatch m;
    CHECK(crosscheck(&f, true, &m) == PERFBUF_E_INCONSISTENT);
    CHECK(m.kind == PERFBUF_V2_VALUE_SIZE);
    CHECK_EQ_U(m.counter_id, 3);
    CHECK_STR(m.in_query.structure, "PERF_COUNTER_DATA");
    CHECK_STR(m.in_query.field, "dwDataSize");
    /* Values 0..2 of the first instance are 16 bytes each. */
    CHECK_EQ_U(m.in_query.offset, FIRST_VALUE + 3 * 16);
    CHECK_EQ_U(tb_get_u32(&f.query.buf, m.in_query.offset), 4);
    CHECK_STR(m.in_registration.field, "Type");
    CHECK_EQ_U(m.in_registration.offset, type_at);
    fixture_free(&f);
}

static void instances_from_a_single_instance_set(void)
{
    fixture f = processor_fixture(PERFBUF_COUNTERSET_SINGLE_AGGREGATE);
    perfbuf_v2_mismatch m;
    CHECK(crosscheck(&f, false, &m) == PERFBUF_E_INCONSISTENT);
    CHECK(m.kind == PERFBUF_V2_RESULT_KIND);
    CHECK_STR(m.in_query.field, "dwType");
    CHECK_EQ_U(m.in_query.offset, 52);
    CHECK_STR(m.in_registration.field, "InstanceType");
    CHECK_EQ_U(m.in_registration.offset, 28);
    fixture_free(&f);
    /* Every multi-instance type takes instances. */
    const uint32_t multi[3] = {PERFBUF_COUNTERSET_MULTI_INSTANCES, PERFBUF_COUNTERSET_MULTI_AGGREGATE,
                               PERFBUF_COUNTERSET_INSTANCE_AGGREGATE};
    for (int i = 0; i < 3; i++) {
        f = processor_fixture(multi[i]);
        CHECK(crosscheck(&f, false, &m) == PERFBUF_OK);
        fixture_free(&f);
    }
}

static void identifiers_against_the_data(void)
{
    fixture f = processor_fixture(PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_mismatch m;
    /* Index 1 of a query with one block: len + 1. */
    tb_patch_u32(&f.ids_buf, 32, 1);
    CHECK(crosscheck(&f, true, &m) == PERFBUF_E_INCONSISTENT);
    CHECK(m.kind == PERFBUF_V2_INDEX_RANGE);
    CHECK_STR(m.in_identifiers.field, "Index");
    CHECK_EQ_U(m.in_identifiers.offset, 32);
    CHECK_STR(m.in_query.field, "dwNumCounters");
    /* The same identifier for another counterset, or one that failed, is
     * not this registration's business. */
    tb_buf other;
    tb_init(&other);
    tb_v2_identifier(&other, memory_guid, 0, PERFBUF_V2_WILDCARD_COUNTER, 0, 1, "*");
    tb_v2_identifier(&other, tb_processor_information_guid, 0x1068, 29, 0, 7, "*");
    tb_v2_identifier(&other, tb_processor_information_guid, 0, PERFBUF_V2_WILDCARD_COUNTER, 0, 0,
                     "*");
    tb_free(&f.ids_buf);
    f.ids_buf = other;
    CHECK(crosscheck(&f, true, &m) == PERFBUF_OK);
    /* A counter the registration does not have, in a block that exists. */
    tb_patch_u32(&f.ids_buf, 48 + 16, 0);
    CHECK(crosscheck(&f, true, &m) == PERFBUF_E_INCONSISTENT);
    CHECK(m.kind == PERFBUF_V2_INDEX_RANGE);
    CHECK_EQ_U(m.in_identifiers.offset, 48 + 32);
    tb_patch_u32(&f.ids_buf, 48 + 32, 0);
    CHECK(crosscheck(&f, true, &m) == PERFBUF_E_INCONSISTENT);
    CHECK(m.kind == PERFBUF_V2_UNKNOWN_COUNTER);
    CHECK_EQ_U(m.counter_id, 29);
    CHECK_STR(m.in_identifiers.field, "CounterId");
    CHECK_EQ_U(m.in_identifiers.offset, 48 + 24);
    fixture_free(&f);
}

/* Blocks without an id list: their counter comes from the identifiers. */
static void single_counter_blocks(void)
{
    fixture f = processor_fixture(PERFBUF_COUNTERSET_MULTI_INSTANCES);
    tb_free(&f.query.buf);
    tb_v2_begin(&f.query, 1, 2, 10000000);
    tb_v2_block_begin(&f.query, 0, PERFBUF_V2_SINGLE_COUNTER);
    tb_v2_u32(&f.query, 42);                 /* counter 7, a 4-byte raw count */
    tb_v2_block_end(&f.query);
    tb_v2_block_begin(&f.query, 0x1068, PERFBUF_V2_ERROR_RETURN);
    tb_v2_block_end(&f.query);
    tb_v2_block_begin(&f.query, 0, PERFBUF_V2_MULTIPLE_INSTANCES);
    tb_v2_instances_begin(&f.query, 2);
    tb_v2_instance(&f.query, 0, "_Total");
    tb_v2_u64(&f.query, 5);                  /* counter 0, an 8-byte timer */
    tb_v2_instance(&f.query, 1, "0,0");
    tb_v2_u64(&f.query, 6);
    tb_v2_instances_end(&f.query);
    tb_v2_block_end(&f.query);
    tb_v2_end(&f.query);
    tb_free(&f.ids_buf);
    tb_init(&f.ids_buf);
    /* Out of Index order on purpose: the search wraps around. */
    tb_v2_identifier(&f.ids_buf, tb_processor_information_guid, 0, 0, PERFBUF_V2_ANY_INSTANCE_ID,
                     2, "*");
    tb_v2_identifier(&f.ids_buf, tb_processor_information_guid, 0, 7, PERFBUF_V2_ANY_INSTANCE_ID,
                     0, "_Total");
    tb_v2_identifier(&f.ids_buf, memory_guid, 0, 3, PERFBUF_V2_ANY_INSTANCE_ID, 1, NULL);
    perfbuf_v2_mismatch m;
    CHECK(crosscheck(&f, true, &m) == PERFBUF_OK);
    CHECK(crosscheck(&f, false, &m) == PERFBUF_OK);
    /* Counter 7 as the single counter's id would need 4 bytes; say 0 is. */
    tb_patch_u32(&f.ids_buf, 48 + 24, 0);
    CHECK(crosscheck(&f, true, &m) == PERFBUF_E_INCONSISTENT);
    CHECK(m.kind == PERFBUF_V2_VALUE_SIZE);
    CHECK_EQ_U(m.block_index, 0);
    CHECK_EQ_U(m.in_query.offset, 64);
    CHECK_EQ_U(m.in_registration.offset, 32 + 4);
    /* Without identifiers the blocks cannot be tied to counters. */
    CHECK(crosscheck(&f, false, &m) == PERFBUF_OK);
    /* Instances, through an identifier, from a single-instance set. */
    tb_patch_u32(&f.ids_buf, 48 + 24, 7);
    tb_patch_u32(&f.reg_buf, 28, PERFBUF_COUNTERSET_SINGLE_INSTANCE);
    CHECK(crosscheck(&f, true, &m) == PERFBUF_E_INCONSISTENT);
    CHECK(m.kind == PERFBUF_V2_RESULT_KIND);
    CHECK_EQ_U(m.block_index, 2);
    fixture_free(&f);
}

/* What only some buffers exercise: a variable-length type, a block no
 * identifier names, a GUID that differs only in its last bytes. */
static void loose_ends(void)
{
    static const tb_reg_row rows[2] = {{1, PERF_COUNTER_TEXT, PERFBUF_V2_NO_ID, NULL},
                                       {2, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, NULL}};
    fixture f;
    memset(&f, 0, sizeof f);
    f.reg_buf = tb_v2_reginfo(rows, 2, PERFBUF_COUNTERSET_SINGLE_INSTANCE);
    static const uint32_t ids[2] = {1, 2};
    static const uint8_t text[12] = {'h', 0, 'i', 0, 0, 0, 1, 2, 3, 4, 5, 6};
    tb_v2_begin(&f.query, 1, 2, 10000000);
    tb_v2_block_begin(&f.query, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
    tb_v2_ids(&f.query, ids, 2);
    tb_v2_value(&f.query, text, sizeof text);   /* any size for text */
    tb_v2_u32(&f.query, 9);
    tb_v2_block_end(&f.query);
    tb_v2_block_begin(&f.query, 0, PERFBUF_V2_SINGLE_COUNTER);
    tb_v2_u64(&f.query, 9);                     /* 8 bytes: wrong for counter 2 */
    tb_v2_block_end(&f.query);
    tb_v2_end(&f.query);
    tb_init(&f.ids_buf);
    /* Block 1 is named by an identifier of a counterset that differs from
     * the registration's only in the last byte of its GUID. */
    uint8_t near_guid[16];
    memcpy(near_guid, tb_processor_information_guid, 16);
    near_guid[15] ^= 1;
    tb_v2_identifier(&f.ids_buf, near_guid, 0, 2, PERFBUF_V2_ANY_INSTANCE_ID, 1, NULL);
    perfbuf_v2_mismatch m;
    CHECK(crosscheck(&f, true, &m) == PERFBUF_OK);
    /* Now the same counterset: block 1's 8 bytes are wrong for a raw count,
     * and block 0, which no identifier names, is not judged. */
    tb_patch_u32(&f.ids_buf, 12, tb_get_u32(&f.ids_buf, 12) ^ 0x01000000u);
    CHECK(crosscheck(&f, true, &m) == PERFBUF_E_INCONSISTENT);
    CHECK(m.kind == PERFBUF_V2_VALUE_SIZE);
    CHECK_EQ_U(m.block_index, 1);
    fixture_free(&f);
    /* Every kind has a name. */
    CHECK_STR(perfbuf_v2_mismatch_name(PERFBUF_V2_AGREE), "AGREE");
    CHECK_STR(perfbuf_v2_mismatch_name(PERFBUF_V2_UNKNOWN_COUNTER), "UNKNOWN_COUNTER");
    CHECK_STR(perfbuf_v2_mismatch_name(PERFBUF_V2_VALUE_SIZE), "VALUE_SIZE");
    CHECK_STR(perfbuf_v2_mismatch_name(PERFBUF_V2_RESULT_KIND), "RESULT_KIND");
    CHECK_STR(perfbuf_v2_mismatch_name(PERFBUF_V2_INDEX_RANGE), "INDEX_RANGE");
    CHECK_STR(perfbuf_v2_mismatch_name((perfbuf_v2_mismatch_kind)99), "?");
    /* Views refuse missing arguments. */
    perfbuf_v2_identifiers l;
    perfbuf_error err;
    CHECK(perfbuf_v2_identifiers_parse(NULL, 0, NULL, &l, &err) == PERFBUF_OK);
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifier id;
    perfbuf_v2_identifiers_begin(&it);
    CHECK(!perfbuf_v2_identifiers_next(&l, NULL, &id));
    CHECK(!perfbuf_v2_identifiers_next(&l, &it, NULL));
    char name[4];
    size_t n;
    CHECK(perfbuf_v2_identifier_name_utf8(&l, NULL, name, sizeof name, &n) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_identifier_name_utf8(&l, &id, NULL, 4, &n) == PERFBUF_E_INVALID_ARGUMENT);
}

/* f's identifiers become one given identifier, then the usable wildcard
 * one of Processor Information for block 0. */
static void ahead_of_the_usable_one(fixture *f, const uint8_t guid[16], uint32_t status,
                                    uint32_t counter_id, uint32_t index)
{
    tb_free(&f->ids_buf);
    tb_init(&f->ids_buf);
    tb_v2_identifier(&f->ids_buf, guid, status, counter_id, 0, index, "*");
    tb_v2_identifier(&f->ids_buf, tb_processor_information_guid, 0, PERFBUF_V2_WILDCARD_COUNTER,
                     PERFBUF_V2_ANY_INSTANCE_ID, 0, "*");
}

/*
 * One block, one usable identifier: a failed identifier with the same
 * Index owns nothing and must not hide the block from the check; two
 * usable ones with one Index are reported; usable ones out of Index order
 * but each with its own are fine.
 */
static void identifiers_sharing_an_index(void)
{
    fixture f = processor_fixture(PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_mismatch m;
    tb_patch_u32(&f.query.buf, QUERY_IDS + 4 * 28, 29); /* a counter not registered */
    ahead_of_the_usable_one(&f, tb_processor_information_guid, 0x1068, 28, 0);
    CHECK(crosscheck(&f, true, &m) == PERFBUF_E_INCONSISTENT);
    CHECK(m.kind == PERFBUF_V2_UNKNOWN_COUNTER);
    CHECK_EQ_U(m.counter_id, 29);

    ahead_of_the_usable_one(&f, memory_guid, 0, PERFBUF_V2_WILDCARD_COUNTER, 0);
    CHECK(crosscheck(&f, true, &m) == PERFBUF_E_INCONSISTENT);
    CHECK(m.kind == PERFBUF_V2_INDEX_DUPLICATE);
    CHECK_STR(perfbuf_v2_mismatch_name(m.kind), "INDEX_DUPLICATE");
    CHECK_EQ_U(m.block_index, 0);
    CHECK_STR(m.in_identifiers.structure, "PERF_COUNTER_IDENTIFIER");
    CHECK_STR(m.in_identifiers.field, "Index");
    CHECK_EQ_U(m.in_identifiers.offset, 48 + 32);
    CHECK_STR(m.in_query.structure, "");

    tb_patch_u32(&f.query.buf, QUERY_IDS + 4 * 28, 28);
    ahead_of_the_usable_one(&f, memory_guid, 0, PERFBUF_V2_WILDCARD_COUNTER, 1);
    CHECK(crosscheck(&f, true, &m) == PERFBUF_OK);
    fixture_free(&f);
}

/*
 * More identifiers than are scanned without scratch, usable ones out of
 * Index order (another counterset's, listed backwards, then the one for
 * block 0): the plain check asks for scratch, naming the first Index out
 * of order; with scratch the pairing holds and shared Indexes are found.
 */
static void many_unordered_identifiers(void)
{
    fixture f = processor_fixture(PERFBUF_COUNTERSET_MULTI_INSTANCES);
    tb_free(&f.ids_buf);
    tb_init(&f.ids_buf);
    uint32_t others = 40;
    for (uint32_t i = 0; i < others; i++) {
        tb_v2_identifier(&f.ids_buf, memory_guid, 0, 3, 0, 100 - i, NULL);
    }
    size_t each = f.ids_buf.len / others;
    tb_v2_identifier(&f.ids_buf, tb_processor_information_guid, 0, PERFBUF_V2_WILDCARD_COUNTER,
                     PERFBUF_V2_ANY_INSTANCE_ID, 0, "*");
    perfbuf_v2_mismatch m;
    CHECK(crosscheck(&f, true, &m) == PERFBUF_E_SCRATCH_NEEDED);
    CHECK_STR(m.in_identifiers.field, "Index");
    CHECK_EQ_U(m.in_identifiers.offset, 1 * each + 32);
    uint64_t scratch[41];
    CHECK(crosscheck_with(&f, true, scratch, 40, &m) ==
          PERFBUF_E_SCRATCH_NEEDED);
    CHECK(crosscheck_with(&f, true, NULL, 41, &m) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(crosscheck_with(&f, true, scratch, 41, &m) == PERFBUF_OK);
    /* The block is still checked through its identifier: break a value. */
    tb_patch_u32(&f.query.buf, QUERY_IDS + 4 * 28, 29);
    CHECK(crosscheck(&f, true, &m) == PERFBUF_E_SCRATCH_NEEDED);
    CHECK(crosscheck_with(&f, true, scratch, 41, &m) ==
          PERFBUF_E_INCONSISTENT);
    CHECK(m.kind == PERFBUF_V2_UNKNOWN_COUNTER);
    tb_patch_u32(&f.query.buf, QUERY_IDS + 4 * 28, 28);
    /* Identifiers 30 and 35 share Index 70: the later one is named. */
    tb_patch_u32(&f.ids_buf, 35 * each + 32, 70);
    CHECK(crosscheck(&f, true, &m) == PERFBUF_E_SCRATCH_NEEDED);
    CHECK(crosscheck_with(&f, true, scratch, 41, &m) ==
          PERFBUF_E_INCONSISTENT);
    CHECK(m.kind == PERFBUF_V2_INDEX_DUPLICATE);
    CHECK_EQ_U(m.in_identifiers.offset, 35 * each + 32);
    fixture_free(&f);
}

/*
 * Failed identifiers and identifiers of other countersets before and
 * after the usable ones, all in Index order: one merge pass pairs them.
 */
static void failed_identifiers_in_order(void)
{
    fixture f = processor_fixture(PERFBUF_COUNTERSET_MULTI_INSTANCES);
    tb_free(&f.ids_buf);
    tb_init(&f.ids_buf);
    for (uint32_t i = 0; i < 50; i++) {
        tb_v2_identifier(&f.ids_buf, tb_processor_information_guid, 0x1068, 3, 0, i % 7, NULL);
    }
    tb_v2_identifier(&f.ids_buf, tb_processor_information_guid, 0, PERFBUF_V2_WILDCARD_COUNTER,
                     PERFBUF_V2_ANY_INSTANCE_ID, 0, "*");
    for (uint32_t i = 0; i < 50; i++) {
        tb_v2_identifier(&f.ids_buf, memory_guid, 0, 3, 0, 1 + i, NULL);
    }
    perfbuf_v2_mismatch m;
    CHECK(crosscheck(&f, true, &m) == PERFBUF_OK);
    tb_patch_u32(&f.query.buf, QUERY_IDS + 4 * 28, 29);
    CHECK(crosscheck(&f, true, &m) == PERFBUF_E_INCONSISTENT);
    CHECK(m.kind == PERFBUF_V2_UNKNOWN_COUNTER);
    fixture_free(&f);
}

/*
 * An iterator of one identifier list used with another: the view reads
 * the other list's bytes where the iterator points, which are not an
 * identifier the parse accepted there. Whatever they hold (too few bytes
 * left, a Size under 40 or past the end, a name without its NUL), the
 * iterator stops with false, reads only inside the list it is given, and
 * stays stopped.
 */
static void iterator_of_another_list(void)
{
    /* After one 40-byte identifier of A, the iterator points 40 bytes
     * into B: 8 bytes of B's first name area, then B's second identifier,
     * whose GUID bytes 12..15 are read as the Size and whose Index and
     * Reserved as the name. */
    static const struct {
        uint32_t size_read;    /* B's second GUID bytes 12..15 */
        const char *why;
    } cases[] = {{0, "Size under 40"}, {0xFFFFFFF8u, "Size past the end"}, {48, "no NUL"}};
    tb_buf a;
    tb_init(&a);
    tb_v2_identifier(&a, memory_guid, 0, 5, 0, 0, NULL);
    tb_v2_identifier(&a, memory_guid, 0, 6, 0, 1, NULL);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint8_t guid[16];
        memcpy(guid, memory_guid, sizeof guid);
        guid[12] = (uint8_t)cases[k].size_read;
        guid[13] = (uint8_t)(cases[k].size_read >> 8);
        guid[14] = (uint8_t)(cases[k].size_read >> 16);
        guid[15] = (uint8_t)(cases[k].size_read >> 24);
        tb_buf b;
        tb_init(&b);
        tb_v2_identifier(&b, memory_guid, 0, 5, 0, 0, "x");
        /* Index and Reserved without a zero code unit (Reserved non-zero
         * is an anomaly the lenient parse tolerates). */
        tb_v2_identifier(&b, guid, 0, 6, 0, 0x00010001u, NULL);
        tb_patch_u32(&b, 48 + 36, 0x00010001u);
        guarded ga = guard_place(a.data, a.len);
        guarded gb = guard_place(b.data, b.len);
        perfbuf_v2_identifiers la;
        perfbuf_v2_identifiers lb;
        CHECK(perfbuf_v2_identifiers_parse(ga.bytes, a.len, NULL, &la, NULL) == PERFBUF_OK);
        CHECK(perfbuf_v2_identifiers_parse(gb.bytes, b.len, NULL, &lb, NULL) == PERFBUF_OK);
        CHECK_EQ_U(lb.count, 2);
        perfbuf_v2_list_iter it;
        perfbuf_v2_identifier id;
        perfbuf_v2_identifiers_begin(&it);
        CHECK(perfbuf_v2_identifiers_next(&la, &it, &id));
        CHECK_EQ_U(it.pos, 40);
        if (perfbuf_v2_identifiers_next(&lb, &it, &id)) {
            fprintf(stderr, "read an identifier where there is none: %s\n", cases[k].why);
            CHECK(false);
        }
        CHECK(!perfbuf_v2_identifiers_next(&lb, &it, &id));
        guard_release(&ga);
        guard_release(&gb);
        tb_free(&b);
    }
    /* Past the end of a shorter list: too few bytes for a header. */
    tb_buf longer;
    tb_init(&longer);
    tb_v2_identifier(&longer, memory_guid, 0, 5, 0, 0, "x");
    tb_v2_identifier(&longer, memory_guid, 0, 6, 0, 1, "y");
    tb_v2_identifier(&longer, memory_guid, 0, 7, 0, 2, "z");
    tb_buf shorter;
    tb_init(&shorter);
    tb_v2_identifier(&shorter, memory_guid, 0, 5, 0, 0, NULL);
    tb_v2_identifier(&shorter, memory_guid, 0, 6, 0, 1, NULL);
    tb_v2_identifier(&shorter, memory_guid, 0, 7, 0, 2, NULL);
    perfbuf_v2_identifiers ll;
    perfbuf_v2_identifiers ls;
    CHECK(perfbuf_v2_identifiers_parse(longer.data, longer.len, NULL, &ll, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v2_identifiers_parse(shorter.data, shorter.len, NULL, &ls, NULL) == PERFBUF_OK);
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifier id;
    perfbuf_v2_identifiers_begin(&it);
    CHECK(perfbuf_v2_identifiers_next(&ll, &it, &id));
    CHECK(perfbuf_v2_identifiers_next(&ll, &it, &id));
    CHECK_EQ_U(it.pos, 96);
    CHECK(!perfbuf_v2_identifiers_next(&ls, &it, &id));
    tb_free(&longer);
    tb_free(&shorter);
    tb_free(&a);
}

static const th_case cases[] = {
    TH_CASE(identifiers),
    TH_CASE(every_identifier_rejection),
    TH_CASE(agreeing_buffers),
    TH_CASE(unknown_counter_in_the_data),
    TH_CASE(value_size_against_type),
    TH_CASE(instances_from_a_single_instance_set),
    TH_CASE(identifiers_against_the_data),
    TH_CASE(identifiers_sharing_an_index),
    TH_CASE(many_unordered_identifiers),
    TH_CASE(failed_identifiers_in_order),
    TH_CASE(single_counter_blocks),
    TH_CASE(loose_ends),
    TH_CASE(iterator_of_another_list),
};
TH_MAIN(cases)
