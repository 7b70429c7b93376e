/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The per-field malformed corpus, checked rather than claimed: every size,
 * count, offset and kind field of every structure in valid seeds is set to
 * values that cannot be right (0, 1, the structure's size - 1, one past
 * what remains, 0xFFFFFFFF, 0x80000000, off-alignment), and each buffer is
 * truncated at every structure boundary +-1. A strict parse must reject
 * every variant that cannot be valid, naming exactly the mutated field;
 * variants that may legitimately parse (a smaller count, an empty name)
 * are counted, not asserted.
 */
#include "perfbuf/v1.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/v2_query.h"
#include "builder.h"
#include "builder_v1.h"
#include "builder_v2meta.h"
#include "guard.h"
#include "harness.h"

typedef enum kind {
    SIZE,      /* a length: below min or past the end cannot be right */
    UPPER,     /* a length whose lower bound another field enforces */
    COUNT,     /* huge counts cannot fit */
    SCOUNT,    /* a signed count: negative values other than -1..-3 are invalid */
    OFFSET,    /* an offset: below min (over a header) or past the end */
    ENUMERATED, /* one of a few values */
    STRING_OFFSET, /* from the buffer start; 0xFFFFFFFF means none */
    COUNTER_TYPE  /* a counter type: 0x80000000 is PERF_COUNTER_HISTOGRAM_TYPE */
} kind;

typedef struct field_rule {
    const char *structure;
    const char *field;
    uint32_t offset;  /* in the structure */
    kind kind;
    uint32_t min;     /* smallest valid value (SIZE, OFFSET) */
    bool aligned;     /* strict mode requires a multiple of 8 */
} field_rule;

typedef struct located {
    size_t at;        /* of the structure */
    const field_rule *rule;
} located;

typedef struct tally {
    unsigned variants, named, accepted, elsewhere, must, truncations;
    unsigned compared; /* rejections that carried the two numbers they compared */
    unsigned least;    /* of those, the ones whose bound is a least value */
    unsigned offsets_below; /* offsets set below the least one, rejected naming the field */
} tally;

typedef perfbuf_status (*parse_fn)(const uint8_t *data, size_t len, perfbuf_error *err);

static perfbuf_status parse_v2(const uint8_t *data, size_t len, perfbuf_error *err)
{
    perfbuf_options strict = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_v2_query q;
    return perfbuf_v2_query_parse(data, len, &strict, &q, err);
}

static perfbuf_status parse_v1(const uint8_t *data, size_t len, perfbuf_error *err)
{
    perfbuf_options strict = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_v1_block b;
    return perfbuf_v1_parse(data, len, &strict, &b, err);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* Whether a value can never be valid for the field, whatever else holds. */
static bool must_reject(const field_rule *r, uint32_t v, uint32_t original, size_t room,
                        size_t len)
{
    switch (r->kind) {
    case SIZE:
        return v < r->min || v > room || (r->aligned && v % 8 != 0);
    case UPPER:
        return v > room;
    case COUNT:
        return v >= 0x80000000u;
    case SCOUNT:
        return v == 0x80000000u || (v > room && v < 0x80000000u);
    case OFFSET:
        return (v < r->min || v > room) && original != 0;
    case ENUMERATED:
        return v == 3 || v == 5 || v == 7 || v >= 0x80000000u;
    case COUNTER_TYPE:
        return v == 3 || v == 5 || v == 7 || v == 0xFFFFFFFFu;
    case STRING_OFFSET:
        return v != 0xFFFFFFFFu && (v < r->min || v >= len);
    default:
        return false;
    }
}

/* A size or count rejected against a bound: its error must carry the value
 * and the bound (perfbuf/common.h). */
static bool compares_sizes(perfbuf_status st)
{
    return st == PERFBUF_E_SIZE_TOO_SMALL || st == PERFBUF_E_SIZE_TOO_LARGE ||
           st == PERFBUF_E_SIZE_EXCEEDS_RECEIVED || st == PERFBUF_E_COUNT_TOO_LARGE ||
           st == PERFBUF_E_LIMIT_EXCEEDED;
}

/*
 * The numbers a rejection carries: none, or two different ones in the
 * order its status says (below the least size or the least offset past a
 * header, above every other bound) with the bound inside the buffer for a
 * bound of bytes. `written` is the value a mutation put in the field the
 * error names, or NULL: a size or count rejected there must carry it as
 * `declared`, and so must an offset below the rule's least one
 * (`least_offset`, 0 when the field is no such offset or the value is not
 * below it), with that least value as `limit`.
 */
static void check_compared(const perfbuf_error *err, perfbuf_status st, size_t len,
                           const uint32_t *written, uint32_t least_offset, tally *t)
{
    bool carried = err->declared != 0 || err->limit != 0;
    bool below = err->declared < err->limit;
    /* An offset may break either bound; an overlap carries only a least one. */
    bool ordered = st == PERFBUF_E_OFFSET_OUT_OF_RANGE ? err->declared != err->limit
                   : st == PERFBUF_E_SIZE_TOO_SMALL || st == PERFBUF_E_OVERLAP ? below
                                                                              : !below;
    bool of_bytes = st == PERFBUF_E_SIZE_TOO_LARGE || st == PERFBUF_E_SIZE_EXCEEDS_RECEIVED ||
                    st == PERFBUF_E_TRUNCATED || st == PERFBUF_E_OFFSET_OUT_OF_RANGE ||
                    st == PERFBUF_E_OVERLAP;
    bool may_carry = compares_sizes(st) || st == PERFBUF_E_TRUNCATED ||
                     st == PERFBUF_E_OFFSET_OUT_OF_RANGE || st == PERFBUF_E_OVERLAP;
    bool ok = !carried || (may_carry && ordered && (!of_bytes || err->limit <= len));
    if (written != NULL && compares_sizes(st)) {
        ok = ok && carried && err->declared == *written;
    }
    if (written != NULL && least_offset != 0) {
        ok = ok && carried && err->declared == *written && err->limit == least_offset;
    }
    if (!ok) {
        fprintf(stderr, "%s.%s: %s carries declared %llu, limit %llu\n", err->structure,
                err->field, perfbuf_status_name(st), (unsigned long long)err->declared,
                (unsigned long long)err->limit);
        th.case_failed = true;
    }
    t->compared += carried;
    t->least += carried && below;
}

static void mutate(uint8_t *buf, size_t len, const located *loc, parse_fn parse, tally *t)
{
    const field_rule *r = loc->rule;
    size_t field_at = loc->at + r->offset;
    uint32_t original = get32(buf + field_at);
    size_t room = len - loc->at;
    uint32_t room32 = room >= 0xFFFFFFFFu ? 0xFFFFFFFEu : (uint32_t)room;
    uint32_t values[10] = {0, 1, r->min > 1 ? r->min - 1 : 2, room32 + 1, 0xFFFFFFFFu,
                           0x80000000u, original == UINT32_MAX ? 1 : original + 1, 3, 5, 7};
    size_t count = r->kind == ENUMERATED || r->kind == COUNTER_TYPE ? 10 : 7;
    for (size_t i = 0; i < count; i++) {
        uint32_t v = values[i];
        if (v == original) {
            continue;
        }
        put32(buf + field_at, v);
        guarded g = guard_place(buf, len);
        perfbuf_error err = {PERFBUF_OK, 0, "", "", 0, 0};
        perfbuf_status st = parse(g.bytes, len, &err);
        guard_release(&g);
        put32(buf + field_at, original);
        t->variants++;
        bool named = st != PERFBUF_OK && strcmp(err.structure, r->structure) == 0 &&
                     strcmp(err.field, r->field) == 0 && err.offset == field_at;
        bool below_least = (r->kind == OFFSET || r->kind == STRING_OFFSET) && v < r->min;
        if (st != PERFBUF_OK) {
            check_compared(&err, st, len, named ? &v : NULL, named && below_least ? r->min : 0,
                           t);
        }
        if (named) {
            t->named++;
            t->offsets_below += below_least;
        } else if (st == PERFBUF_OK) {
            t->accepted++;
        } else {
            t->elsewhere++;
        }
        if (st != PERFBUF_OK && err.offset > len) {
            fprintf(stderr, "%s.%s = 0x%x: error offset %zu outside %zu bytes\n", r->structure,
                    r->field, v, err.offset, len);
            th.case_failed = true;
        }
        if (must_reject(r, v, original, room, len)) {
            t->must++;
            if (!named) {
                fprintf(stderr, "%s.%s at %zu = 0x%x: got %s naming %s.%s at %zu\n", r->structure,
                        r->field, field_at, v, perfbuf_status_name(st), err.structure, err.field,
                        err.offset);
                th.case_failed = true;
            }
        }
    }
}

/* A list may end at any of its boundaries: then only boundary +-1 must fail. */
static void truncate_around(const uint8_t *buf, size_t len, size_t boundary, bool is_list,
                            parse_fn parse, tally *t)
{
    for (size_t cut = boundary > 0 ? boundary - 1 : 0; cut <= boundary + 1 && cut < len; cut++) {
        if (is_list && cut == boundary) {
            continue;
        }
        guarded g = guard_place(buf, cut);
        perfbuf_error err;
        perfbuf_status st = parse(g.bytes, cut, &err);
        guard_release(&g);
        t->truncations++;
        if (st != PERFBUF_OK) {
            check_compared(&err, st, cut, NULL, 0, t);
        }
        if (st == PERFBUF_OK || err.offset > cut) {
            fprintf(stderr, "truncated at %zu of %zu: %s at %zu\n", cut, len, perfbuf_status_name(st),
                    err.offset);
            th.case_failed = true;
        }
    }
}

/* ---- V2 query data ---- */

static const field_rule v2_rules[] = {
    {"PERF_DATA_HEADER", "dwTotalSize", 0, SIZE, 48, true},
    {"PERF_DATA_HEADER", "dwNumCounters", 4, COUNT, 0, false},
    {"PERF_COUNTER_HEADER", "dwType", 4, ENUMERATED, 0, false},
    {"PERF_COUNTER_HEADER", "dwSize", 8, SIZE, 16, true},
    {"PERF_MULTI_COUNTERS", "dwSize", 0, SIZE, 8, false},
    {"PERF_MULTI_COUNTERS", "dwCounters", 4, COUNT, 0, false},
    {"PERF_MULTI_INSTANCES", "dwTotalSize", 0, SIZE, 8, true},
    {"PERF_MULTI_INSTANCES", "dwInstances", 4, COUNT, 0, false},
    {"PERF_INSTANCE_HEADER", "Size", 0, SIZE, 8, true},
    {"PERF_COUNTER_DATA", "dwDataSize", 0, UPPER, 0, false},
    {"PERF_COUNTER_DATA", "dwSize", 4, SIZE, 8, true},
};

enum { V2_HEADER = 0, V2_BLOCK = 2, V2_IDS = 4, V2_INSTANCES = 6, V2_INSTANCE = 8, V2_DATA = 9 };

static size_t add(located *list, size_t n, size_t at, const field_rule *first, size_t fields)
{
    for (size_t i = 0; i < fields; i++) {
        list[n].at = at;
        list[n].rule = &first[i];
        n++;
    }
    return n;
}

/* Every structure of a valid V2 buffer, found through the views. */
static size_t locate_v2(const uint8_t *buf, size_t len, located *list)
{
    perfbuf_v2_query q;
    if (perfbuf_v2_query_parse(buf, len, NULL, &q, NULL) != PERFBUF_OK) {
        return 0;
    }
    size_t n = add(list, 0, 0, &v2_rules[V2_HEADER], 2);
    perfbuf_v2_iter bi;
    perfbuf_v2_block b;
    perfbuf_v2_blocks_begin(&q, &bi);
    while (perfbuf_v2_blocks_next(&q, &bi, &b)) {
        n = add(list, n, b.offset, &v2_rules[V2_BLOCK], 2);
        if (b.kind == PERFBUF_V2_MULTIPLE_COUNTERS || b.kind == PERFBUF_V2_COUNTERSET) {
            n = add(list, n, b.ids_offset - 8, &v2_rules[V2_IDS], 2);
        }
        perfbuf_v2_iter it;
        perfbuf_v2_value v;
        perfbuf_v2_block_values_begin(&b, &it);
        while (perfbuf_v2_values_next(&q, &b, &it, &v)) {
            n = add(list, n, v.offset, &v2_rules[V2_DATA], 2);
        }
        if (b.kind == PERFBUF_V2_MULTIPLE_INSTANCES || b.kind == PERFBUF_V2_COUNTERSET) {
            n = add(list, n, b.items_offset - 8, &v2_rules[V2_INSTANCES], 2);
            perfbuf_v2_iter ii;
            perfbuf_v2_instance inst;
            perfbuf_v2_instances_begin(&b, &ii);
            while (perfbuf_v2_instances_next(&q, &b, &ii, &inst)) {
                n = add(list, n, inst.offset, &v2_rules[V2_INSTANCE], 1);
                perfbuf_v2_instance_values_begin(&inst, &it);
                while (perfbuf_v2_values_next(&q, &b, &it, &v)) {
                    n = add(list, n, v.offset, &v2_rules[V2_DATA], 2);
                }
            }
        }
    }
    return n;
}

static tb_v2 v2_seed(void)
{
    return tb_v2_sample_all_kinds();
}

static void v2_every_field(void)
{
    tb_v2 v = v2_seed();
    located list[256];
    size_t n = locate_v2(v.buf.data, v.buf.len, list);
    CHECK(n > 40);
    tally t = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        mutate(v.buf.data, v.buf.len, &list[i], parse_v2, &t);
        truncate_around(v.buf.data, v.buf.len, list[i].at, false, parse_v2, &t);
    }
    printf("v2: %zu fields, %u variants: %u rejected naming the field (%u had to be), "
           "%u rejected at another field, %u accepted; %u truncations rejected; "
           "%u rejections carried the numbers compared (%u a least value; %u offsets below "
           "the least one)\n",
           n, t.variants, t.named, t.must, t.elsewhere, t.accepted, t.truncations, t.compared,
           t.least, t.offsets_below);
    CHECK(t.must > 100);
    CHECK(t.compared > 50);
    tb_free(&v.buf);
}

/* ---- V1 data blocks ---- */

static const field_rule v1_rules[] = {
    {"PERF_DATA_BLOCK", "TotalByteLength", 20, SIZE, 88, true},
    {"PERF_DATA_BLOCK", "HeaderLength", 24, SIZE, 88, true},
    {"PERF_DATA_BLOCK", "NumObjectTypes", 28, COUNT, 0, false},
    {"PERF_DATA_BLOCK", "SystemNameLength", 80, UPPER, 0, false},
    {"PERF_DATA_BLOCK", "SystemNameOffset", 84, OFFSET, 88, false},
    {"PERF_OBJECT_TYPE", "TotalByteLength", 0, SIZE, 64, true},
    {"PERF_OBJECT_TYPE", "DefinitionLength", 4, UPPER, 0, false},
    {"PERF_OBJECT_TYPE", "HeaderLength", 8, SIZE, 64, false},
    {"PERF_OBJECT_TYPE", "NumCounters", 32, COUNT, 0, false},
    {"PERF_OBJECT_TYPE", "NumInstances", 40, SCOUNT, 0, false},
    {"PERF_COUNTER_DEFINITION", "ByteLength", 0, SIZE, 40, false},
    {"PERF_COUNTER_DEFINITION", "CounterOffset", 36, OFFSET, 4, false},
    {"PERF_INSTANCE_DEFINITION", "ByteLength", 0, SIZE, 24, true},
    {"PERF_INSTANCE_DEFINITION", "NameOffset", 16, OFFSET, 24, false},
    {"PERF_INSTANCE_DEFINITION", "NameLength", 20, UPPER, 0, false},
    {"PERF_COUNTER_BLOCK", "ByteLength", 0, SIZE, 4, true},
};

enum { V1_BLOCK = 0, V1_OBJECT = 5, V1_DEFINITION = 10, V1_INSTANCE = 12, V1_COUNTERS = 15 };

static size_t locate_v1(const uint8_t *buf, size_t len, located *list)
{
    perfbuf_v1_block b;
    if (perfbuf_v1_parse(buf, len, NULL, &b, NULL) != PERFBUF_OK) {
        return 0;
    }
    size_t n = add(list, 0, 0, &v1_rules[V1_BLOCK], 5);
    perfbuf_v1_iter oi;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(&b, &oi);
    while (perfbuf_v1_objects_next(&b, &oi, &o)) {
        n = add(list, n, o.offset, &v1_rules[V1_OBJECT], 5);
        perfbuf_v1_iter ci;
        perfbuf_v1_counter c;
        perfbuf_v1_counters_begin(&o, &ci);
        while (perfbuf_v1_counters_next(&b, &ci, &c)) {
            n = add(list, n, c.offset, &v1_rules[V1_DEFINITION], 2);
        }
        perfbuf_v1_counter_block blk;
        if (perfbuf_v1_object_counter_block(&b, &o, &blk)) {
            n = add(list, n, blk.offset, &v1_rules[V1_COUNTERS], 1);
        }
        perfbuf_v1_iter ii;
        perfbuf_v1_instance inst;
        perfbuf_v1_instances_begin(&o, &ii);
        while (perfbuf_v1_instances_next(&b, &ii, &inst)) {
            n = add(list, n, inst.offset, &v1_rules[V1_INSTANCE], 3);
            n = add(list, n, inst.counters.offset, &v1_rules[V1_COUNTERS], 1);
        }
    }
    return n;
}

static void v1_every_field(void)
{
    tb_v1 v = tb_v1_sample_global();
    located list[256];
    size_t n = locate_v1(v.buf.data, v.buf.len, list);
    CHECK(n > 60);
    tally t = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        mutate(v.buf.data, v.buf.len, &list[i], parse_v1, &t);
        truncate_around(v.buf.data, v.buf.len, list[i].at, false, parse_v1, &t);
    }
    printf("v1: %zu fields, %u variants: %u rejected naming the field (%u had to be), "
           "%u rejected at another field, %u accepted; %u truncations rejected; "
           "%u rejections carried the numbers compared (%u a least value; %u offsets below "
           "the least one)\n",
           n, t.variants, t.named, t.must, t.elsewhere, t.accepted, t.truncations, t.compared,
           t.least, t.offsets_below);
    CHECK(t.must > 150);
    CHECK(t.compared > 50);
    CHECK(t.offsets_below >= 3);
    tb_free(&v.buf);
}

/* ---- V2 metadata ---- */

static perfbuf_status parse_reginfo(const uint8_t *data, size_t len, perfbuf_error *err)
{
    perfbuf_options strict = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_v2_reginfo r;
    return perfbuf_v2_reginfo_parse(data, len, &strict, &r, err);
}

/* Offsets count from the block start here, as perflib.h documents them:
 * AUTO would read an offset into the headers as MS-PCQ's. */
static perfbuf_status parse_strings(const uint8_t *data, size_t len, perfbuf_error *err)
{
    perfbuf_options strict = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_v2_strings s;
    return perfbuf_v2_strings_parse(data, len, PERFBUF_V2_STRINGS_FROM_BLOCK, &strict, &s, err);
}

static perfbuf_status parse_identifiers(const uint8_t *data, size_t len, perfbuf_error *err)
{
    perfbuf_options strict = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_v2_identifiers l;
    return perfbuf_v2_identifiers_parse(data, len, &strict, &l, err);
}

static perfbuf_status parse_instance_list(const uint8_t *data, size_t len, perfbuf_error *err)
{
    perfbuf_options strict = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_v2_instance_list l;
    return perfbuf_v2_instance_list_parse(data, len, &strict, &l, err);
}

/* The string seed has three headers: strings start at 8 + 3 * 8. */
static const field_rule meta_rules[] = {
    {"PERF_COUNTERSET_REG_INFO", "NumCounters", 24, COUNT, 0, false},
    {"PERF_COUNTERSET_REG_INFO", "InstanceType", 28, ENUMERATED, 0, false},
    {"PERF_COUNTER_REG_INFO", "Type", 4, COUNTER_TYPE, 0, false},
    {"PERF_STRING_BUFFER_HEADER", "dwSize", 0, SIZE, 8, true},
    {"PERF_STRING_BUFFER_HEADER", "dwCounters", 4, COUNT, 0, false},
    {"PERF_STRING_COUNTER_HEADER", "dwOffset", 4, STRING_OFFSET, 32, false},
    {"PERF_COUNTER_IDENTIFIER", "Size", 20, SIZE, 40, true},
    {"PERF_INSTANCE_HEADER", "Size", 0, SIZE, 8, true},
};

enum { M_SET = 0, M_COUNTER = 2, M_STRINGS = 3, M_STRING = 5, M_IDENTIFIER = 6, M_INSTANCE = 7 };

static void walk(const char *label, tb_buf *b, const located *list, size_t n, bool is_list,
                 parse_fn parse, unsigned must_floor, unsigned offsets_below_floor)
{
    tally t = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    guarded g = guard_place(b->data, b->len);
    perfbuf_error err;
    CHECK(parse(g.bytes, b->len, &err) == PERFBUF_OK);
    guard_release(&g);
    for (size_t i = 0; i < n; i++) {
        mutate(b->data, b->len, &list[i], parse, &t);
        truncate_around(b->data, b->len, list[i].at, is_list, parse, &t);
    }
    truncate_around(b->data, b->len, b->len, is_list, parse, &t);
    printf("%s: %zu fields, %u variants: %u rejected naming the field (%u had to be), "
           "%u rejected at another field, %u accepted; %u truncations rejected; "
           "%u rejections carried the numbers compared (%u a least value; %u offsets below "
           "the least one)\n",
           label, n, t.variants, t.named, t.must, t.elsewhere, t.accepted, t.truncations,
           t.compared, t.least, t.offsets_below);
    CHECK(t.must >= must_floor);
    CHECK(t.offsets_below >= offsets_below_floor);
}

static void v2_metadata_every_field(void)
{
    located list[64];
    size_t n = 0;
    tb_buf reg = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                               PERFBUF_COUNTERSET_MULTI_INSTANCES);
    n = add(list, 0, 0, &meta_rules[M_SET], 2);
    for (uint32_t i = 0; i < TB_PROCESSOR_INFORMATION_COUNTERS; i++) {
        n = add(list, n, 32 + 48 * (size_t)i, &meta_rules[M_COUNTER], 1);
    }
    CALL(walk("v2 registration", &reg, list, n, false, parse_reginfo, 100, 0));
    tb_free(&reg);

    static const tb_reg_row three[3] = {{1, 0, 0, "ab"}, {2, 0, 0, "cd"}, {3, 0, 0, NULL}};
    tb_buf strings = tb_v2_strings(three, 3, PERFBUF_V2_STRINGS_FROM_BLOCK);
    n = add(list, 0, 0, &meta_rules[M_STRINGS], 2);
    for (size_t i = 0; i < 3; i++) {
        n = add(list, n, 8 + 8 * i, &meta_rules[M_STRING], 1);
    }
    CALL(walk("v2 string block", &strings, list, n, false, parse_strings, 20, 3));
    tb_free(&strings);

    tb_buf ids;
    tb_init(&ids);
    n = 0;
    const char *names[3] = {"*", NULL, "a longer instance name"};
    for (uint32_t i = 0; i < 3; i++) {
        n = add(list, n, ids.len, &meta_rules[M_IDENTIFIER], 1);
        tb_v2_identifier(&ids, tb_processor_information_guid, 0, i, PERFBUF_V2_ANY_INSTANCE_ID,
                         i, names[i]);
    }
    CALL(walk("v2 identifiers", &ids, list, n, true, parse_identifiers, 10, 0));
    tb_free(&ids);

    tb_buf instances;
    tb_init(&instances);
    n = 0;
    for (uint32_t i = 0; i < 3; i++) {
        size_t start = instances.len;
        n = add(list, n, start, &meta_rules[M_INSTANCE], 1);
        tb_u32(&instances, 0);
        tb_u32(&instances, i);
        tb_utf16(&instances, names[i] != NULL ? names[i] : "", 1);
        tb_pad8_from(&instances, start);
        tb_patch_u32(&instances, start, (uint32_t)(instances.len - start));
    }
    CALL(walk("v2 instance list", &instances, list, n, true, parse_instance_list, 10, 0));
    tb_free(&instances);
}

static const th_case cases[] = {
    TH_CASE(v2_every_field),
    TH_CASE(v1_every_field),
    TH_CASE(v2_metadata_every_field),
};
TH_MAIN(cases)
