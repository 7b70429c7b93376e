/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The edges of the V1 and V2 arrays over a pairing (perfbuf/collector.h,
 * docs/collector.md): counters whose type, size, base or multi base
 * changed between the captures, counters or objects only in the newer
 * capture, types with no displayable value or a missing base, names in a
 * code page perfbuf does not convert, parents that cannot be resolved or
 * read, V2 blocks of every kind, names longer than any path part, a path
 * whose text the fill overwrites, and NULL arguments.
 */
#include "collector_fixture.h"
#include "harness.h"
#include "perfbuf/collector.h"
#include "perfbuf/counter_types.h"

/* ---- V1 ---- */

enum { OBJ = 230, PARENT_OBJ = 500, MISSING_OBJ = 777, SINGLE_OBJ = 2 };

typedef struct def {
    uint32_t title, type, size, offset;
} def;

/* One object: its definitions, and per instance (or the one counter block
 * when single) one value per definition, stored at its CounterOffset. */
typedef struct obj_spec {
    uint32_t title;
    const def *defs;
    uint32_t ndefs;
    int single;
    uint32_t code_page;
    const char *const *names;
    uint32_t count;
    uint32_t parent_title;          /* 0: no parents */
    const uint32_t *parent_index;   /* per instance, with parent_title */
    const uint64_t *values;         /* count (1 when single) x ndefs */
} obj_spec;

/* A parent object (PARENT_OBJ) with these names in this code page. */
typedef struct parent_spec {
    uint32_t code_page;
    const char *const *names;
    uint32_t count;
} parent_spec;

static void put_value(uint8_t *data, const def *d, uint64_t v)
{
    if (d->size == 4) {
        tb_put32(data, d->offset, (uint32_t)v);
    } else if (d->size == 8) {
        tb_put64(data, d->offset, v);
    }
}

static void add_object(tb_v1 *v, const obj_spec *o)
{
    uint32_t reach = 8;
    tb_v1_object_begin(v, o->title, o->single, o->code_page);
    for (uint32_t k = 0; k < o->ndefs; k++) {
        tb_v1_counter(v, o->defs[k].title, o->defs[k].type, o->defs[k].size, o->defs[k].offset);
        if (o->defs[k].offset + o->defs[k].size > reach) {
            reach = o->defs[k].offset + o->defs[k].size;
        }
    }
    tb_v1_definitions_end(v);
    uint32_t blocks = o->single ? 1 : o->count;
    for (uint32_t i = 0; i < blocks; i++) {
        uint8_t data[64] = {0};
        for (uint32_t k = 0; k < o->ndefs; k++) {
            put_value(data, &o->defs[k], o->values[i * o->ndefs + k]);
        }
        if (!o->single) {
            tb_v1_instance(v, o->names[i], o->parent_title,
                           o->parent_title != 0 ? o->parent_index[i] : 0);
        }
        tb_v1_counter_block(v, data, reach - 4);
    }
    tb_v1_object_end(v);
}

/* A capture at `second` (PerfTime100nSec one second apart) with an
 * optional parent object and an optional object. */
static tb_buf capture_v1(uint32_t second, const parent_spec *parents, const obj_spec *o)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    uint64_t t = CF_TIME(second);
    tb_patch_u32(&v.buf, 72, (uint32_t)t);
    tb_patch_u32(&v.buf, 76, (uint32_t)(t >> 32));
    if (parents != NULL) {
        static const def parent_def = {CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 8};
        uint64_t zeros[8] = {0};
        obj_spec p = {PARENT_OBJ, &parent_def, 1, 0, parents->code_page, parents->names,
                      parents->count, 0, NULL, zeros};
        add_object(&v, &p);
    }
    if (o != NULL) {
        add_object(&v, o);
    }
    tb_v1_end(&v);
    return v.buf;
}

typedef struct v1_fixture {
    tb_buf older_buf, newer_buf;
    perfbuf_v1_block older, newer;
    uint64_t *scratch;
    perfbuf_v1_pairing p;
} v1_fixture;

static bool v1_setup(v1_fixture *f, const parent_spec *older_parents, const obj_spec *older,
                     const parent_spec *newer_parents, const obj_spec *newer, uint32_t object)
{
    memset(f, 0, sizeof *f);
    f->older_buf = capture_v1(0, older_parents, older);
    f->newer_buf = capture_v1(1, newer_parents, newer);
    size_t slots = 0;
    if (perfbuf_v1_parse(f->older_buf.data, f->older_buf.len, NULL, &f->older, NULL) !=
            PERFBUF_OK ||
        perfbuf_v1_parse(f->newer_buf.data, f->newer_buf.len, NULL, &f->newer, NULL) !=
            PERFBUF_OK ||
        perfbuf_v1_pairing_scratch(&f->older, &f->newer, object, &slots) != PERFBUF_OK) {
        return false;
    }
    f->scratch = malloc(slots * sizeof *f->scratch);
    return f->scratch != NULL &&
           perfbuf_v1_pair(&f->older, &f->newer, object, f->scratch, slots, &f->p) == PERFBUF_OK;
}

static void v1_teardown(v1_fixture *f)
{
    free(f->scratch);
    tb_free(&f->older_buf);
    tb_free(&f->newer_buf);
}

typedef struct formatted {
    perfbuf_formatted_item items[8];
    char strings[256];
    size_t count;
    size_t bytes;
    perfbuf_status status;
} formatted;

typedef struct raw_array {
    perfbuf_raw_item items[8];
    char strings[256];
    size_t count;
    size_t bytes;
    perfbuf_status status;
} raw_array;

static const perfbuf_counter_path *parse_path(const char *text, perfbuf_counter_path *path)
{
    if (text == NULL) {
        return NULL;
    }
    EXPECT(perfbuf_path_parse(text, strlen(text), path, NULL) == PERFBUF_OK);
    return path;
}

static void v1_format(const v1_fixture *f, uint32_t counter, const char *path_text,
                      uint32_t flags, formatted *out)
{
    perfbuf_counter_path path;
    const perfbuf_counter_path *pp = parse_path(path_text, &path);
    out->count = 8;
    out->bytes = sizeof out->strings;
    out->status = perfbuf_v1_formatted_array(&f->p, counter, pp, flags, out->items, &out->count,
                                             out->strings, &out->bytes);
}

static void v1_raw(const v1_fixture *f, uint32_t counter, raw_array *out)
{
    out->count = 8;
    out->bytes = sizeof out->strings;
    out->status = perfbuf_v1_raw_array(&f->p, counter, NULL, out->items, &out->count,
                                       out->strings, &out->bytes);
}

static const char *const ab[] = {"a", "b"};

#define OBJECT(defs, values) {OBJ, defs, sizeof defs / sizeof defs[0], 0, 0, ab, 2, 0, NULL, values}

/* Every NULL the arrays refuse, whatever else is valid. */
static void v1_null_arguments(void)
{
    static const def defs[] = {{CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 8}};
    static const uint64_t values[] = {1, 2};
    const obj_spec o = OBJECT(defs, values);
    v1_fixture f;
    CHECK(v1_setup(&f, NULL, &o, NULL, &o, OBJ));
    size_t count = 0, bytes = 0;
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, NULL, PERFBUF_FMT_LONG, NULL, &count, NULL,
                                     &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(count == 2 && bytes == 4);
    perfbuf_v1_pairing no_newer = f.p;
    no_newer.newer = NULL;
    perfbuf_v1_pairing no_matches = f.p;
    no_matches.matches = NULL;
    count = 5;
    bytes = 7;
    CHECK(perfbuf_v1_formatted_array(&no_newer, CF_COUNT, NULL, PERFBUF_FMT_LONG, NULL, &count,
                                     NULL, &bytes) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_raw_array(&no_matches, CF_COUNT, NULL, NULL, &count, NULL, &bytes) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, NULL, PERFBUF_FMT_LONG, NULL, NULL, NULL,
                                     &bytes) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_raw_array(&f.p, CF_COUNT, NULL, NULL, &count, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    /* Refused before anything was sized. */
    CHECK(count == 5 && bytes == 7);
    v1_teardown(&f);
}

/* Same title, another type (both 4-byte raw counts): the older sample is
 * not used, the newer is formatted alone. */
static void v1_type_changed(void)
{
    static const def older_defs[] = {{CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 8}};
    static const def newer_defs[] = {{CF_COUNT, PERF_COUNTER_RAWCOUNT_HEX, 4, 8}};
    static const uint64_t older_values[] = {5, 7};
    static const uint64_t newer_values[] = {6, 8};
    const obj_spec older = OBJECT(older_defs, older_values);
    const obj_spec newer = OBJECT(newer_defs, newer_values);
    v1_fixture f;
    CHECK(v1_setup(&f, NULL, &older, NULL, &newer, OBJ));
    CHECK_EQ_U(f.p.paired, 2);
    formatted a;
    v1_format(&f, CF_COUNT, NULL, PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK(a.items[0].pairing == PERFBUF_PAIR_DEFINITION_CHANGED);
    CHECK(a.items[0].value.status == PERFBUF_CSTATUS_VALID_DATA && a.items[0].value.as_long == 6);
    CHECK(a.items[1].pairing == PERFBUF_PAIR_DEFINITION_CHANGED && a.items[1].value.as_long == 8);
    raw_array r;
    v1_raw(&f, CF_COUNT, &r);
    CHECK(r.status == PERFBUF_OK && r.count == 2);
    CHECK(!r.items[0].has_older && r.items[0].newer.first == 6);
    CHECK(r.items[0].newer.type == PERF_COUNTER_RAWCOUNT_HEX);
    v1_teardown(&f);
}

/* Same title, type and offset, another CounterSize (a lenient parse lets
 * the mismatch with the type by): not paired either. */
static void v1_size_changed(void)
{
    static const def older_defs[] = {{CF_COUNT, PERF_COUNTER_LARGE_RAWCOUNT, 8, 8}};
    static const def newer_defs[] = {{CF_COUNT, PERF_COUNTER_LARGE_RAWCOUNT, 4, 8}};
    static const uint64_t older_values[] = {UINT64_C(0x100000005), 1};
    static const uint64_t newer_values[] = {9, 10};
    const obj_spec older = OBJECT(older_defs, older_values);
    const obj_spec newer = OBJECT(newer_defs, newer_values);
    v1_fixture f;
    CHECK(v1_setup(&f, NULL, &older, NULL, &newer, OBJ));
    CHECK((f.newer.anomalies & PERFBUF_ANOMALY_SIZE_MISMATCH) != 0);
    CHECK(f.older.anomalies == 0);
    raw_array r;
    v1_raw(&f, CF_COUNT, &r);
    CHECK(r.status == PERFBUF_OK && r.count == 2);
    CHECK(r.items[0].pairing == PERFBUF_PAIR_DEFINITION_CHANGED);
    CHECK(!r.items[0].has_older && r.items[0].newer.first == 9);
    CHECK(!r.items[1].has_older && r.items[1].newer.first == 10);
    v1_teardown(&f);
}

/* The older object lacks the counter: every matched instance says the
 * definition changed; a new instance stays new. */
static void v1_counter_only_in_newer(void)
{
    static const def older_defs[] = {{CF_CPU, PERF_COUNTER_RAWCOUNT, 4, 8}};
    static const def newer_defs[] = {{CF_CPU, PERF_COUNTER_RAWCOUNT, 4, 8},
                                     {CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 12}};
    static const char *const newer_names[] = {"a", "c"};
    static const uint64_t older_values[] = {1, 2};
    static const uint64_t newer_values[] = {3, 30, 4, 40};
    const obj_spec older = OBJECT(older_defs, older_values);
    obj_spec newer = OBJECT(newer_defs, newer_values);
    newer.names = newer_names;
    v1_fixture f;
    CHECK(v1_setup(&f, NULL, &older, NULL, &newer, OBJ));
    CHECK(f.p.paired == 1 && f.p.new_instances == 1);
    formatted a;
    v1_format(&f, CF_COUNT, NULL, PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK_STR(a.items[0].name, "a");
    CHECK(a.items[0].pairing == PERFBUF_PAIR_DEFINITION_CHANGED && a.items[0].value.as_long == 30);
    CHECK_STR(a.items[1].name, "c");
    CHECK(a.items[1].pairing == PERFBUF_PAIR_NEW && a.items[1].value.as_long == 40);
    /* The counter both have still pairs. */
    v1_format(&f, CF_CPU, NULL, PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.items[0].pairing == PERFBUF_PAIR_MATCHED);
    v1_teardown(&f);
}

/* The older capture lacks the object: instances are new, a two-sample
 * type has no value, and a single-instance object's item is new too. */
static void v1_object_only_in_newer(void)
{
    static const def defs[] = {{CF_CPU, PERF_100NSEC_TIMER, 8, 8},
                               {CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 16}};
    static const uint64_t values[] = {1000000, 11, 2000000, 12};
    const obj_spec newer = OBJECT(defs, values);
    v1_fixture f;
    CHECK(v1_setup(&f, NULL, NULL, NULL, &newer, OBJ));
    CHECK(!f.p.has_older && f.p.new_instances == 2);
    formatted a;
    v1_format(&f, CF_COUNT, NULL, PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK(a.items[0].pairing == PERFBUF_PAIR_NEW && a.items[0].value.as_long == 11);
    CHECK(a.items[1].pairing == PERFBUF_PAIR_NEW && a.items[1].value.as_long == 12);
    v1_format(&f, CF_CPU, NULL, PERFBUF_FMT_DOUBLE, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK(a.items[0].value.status == PERFBUF_CSTATUS_INVALID_DATA);
    v1_teardown(&f);

    static const uint64_t one[] = {1000000, 42};
    const obj_spec single = {SINGLE_OBJ, defs, 2, 1, 0, NULL, 0, 0, NULL, one};
    CHECK(v1_setup(&f, NULL, NULL, NULL, &single, SINGLE_OBJ));
    v1_format(&f, CF_COUNT, NULL, PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1 && a.bytes == 1);
    CHECK_STR(a.items[0].name, "");
    CHECK(a.items[0].pairing == PERFBUF_PAIR_NEW && a.items[0].value.as_long == 42);
    raw_array r;
    v1_raw(&f, CF_COUNT, &r);
    CHECK(r.status == PERFBUF_OK && r.count == 1 && !r.items[0].has_older);
    CHECK(r.items[0].newer.first == 42);
    v1_teardown(&f);
}

/* An object with instances in the older capture and a single counter
 * block in the newer: nothing to pair the one item with. */
static void v1_single_after_instances(void)
{
    static const def defs[] = {{CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 8}};
    static const uint64_t older_values[] = {1, 2};
    static const uint64_t newer_values[] = {77};
    const obj_spec older = {SINGLE_OBJ, defs, 1, 0, 0, ab, 2, 0, NULL, older_values};
    const obj_spec newer = {SINGLE_OBJ, defs, 1, 1, 0, NULL, 0, 0, NULL, newer_values};
    v1_fixture f;
    CHECK(v1_setup(&f, NULL, &older, NULL, &newer, SINGLE_OBJ));
    CHECK(f.p.has_older);
    formatted a;
    v1_format(&f, CF_COUNT, NULL, PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1);
    CHECK(a.items[0].pairing == PERFBUF_PAIR_NEW && a.items[0].value.as_long == 77);
    v1_teardown(&f);
}

/* PERF_RAW_FRACTION with its base: 100 N / B when both definitions agree;
 * a base that moved makes the definition changed though the counter did
 * not; the base itself has no displayable value. */
static void v1_base_counters(void)
{
    enum { FRACTION = 40, BASE = 41 };
    static const def defs[] = {{FRACTION, PERF_RAW_FRACTION, 4, 8}, {BASE, PERF_RAW_BASE, 4, 12}};
    static const def moved[] = {{FRACTION, PERF_RAW_FRACTION, 4, 8}, {BASE, PERF_RAW_BASE, 4, 16}};
    static const uint64_t older_values[] = {10, 100, 30, 200};
    static const uint64_t newer_values[] = {25, 100, 150, 200};
    const obj_spec older = OBJECT(defs, older_values);
    const obj_spec newer = OBJECT(defs, newer_values);
    const obj_spec newer_moved = OBJECT(moved, newer_values);
    v1_fixture f;
    CHECK(v1_setup(&f, NULL, &older, NULL, &newer, OBJ));
    formatted a;
    v1_format(&f, FRACTION, NULL, PERFBUF_FMT_DOUBLE, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK(a.items[0].pairing == PERFBUF_PAIR_MATCHED);
    CHECK(a.items[0].value.status == PERFBUF_CSTATUS_VALID_DATA);
    CHECK(a.items[0].value.as_double == 25.0);
    CHECK(a.items[1].value.as_double == 75.0);
    raw_array r;
    v1_raw(&f, FRACTION, &r);
    CHECK(r.status == PERFBUF_OK && r.items[0].has_older);
    CHECK(r.items[0].older.first == 10 && r.items[0].older.second == 100);
    CHECK(r.items[0].newer.first == 25 && r.items[0].newer.second == 100);

    /* The base: PDH_INVALID_ARGUMENT for the item, in both arrays. */
    v1_format(&f, BASE, NULL, PERFBUF_FMT_DOUBLE, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK(a.items[0].pairing == PERFBUF_PAIR_MATCHED);
    CHECK(a.items[0].value.status == PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK(a.items[0].value.format == PERFBUF_FMT_DOUBLE);
    v1_raw(&f, BASE, &r);
    CHECK(r.status == PERFBUF_OK && r.count == 2);
    CHECK(r.items[1].newer.status == PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK(r.items[1].newer.type == PERF_RAW_BASE && !r.items[1].has_older);
    v1_teardown(&f);

    CHECK(v1_setup(&f, NULL, &older, NULL, &newer_moved, OBJ));
    v1_format(&f, FRACTION, NULL, PERFBUF_FMT_DOUBLE, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK(a.items[0].pairing == PERFBUF_PAIR_DEFINITION_CHANGED);
    CHECK(a.items[0].value.status == PERFBUF_CSTATUS_VALID_DATA);
    CHECK(a.items[0].value.as_double == 25.0);
    v1_raw(&f, FRACTION, &r);
    CHECK(r.status == PERFBUF_OK && !r.items[0].has_older && r.items[0].newer.second == 100);
    v1_teardown(&f);
}

/* PERF_100NSEC_MULTI_TIMER: 100 (dN / dT) / M with M the next
 * PERF_COUNTER_MULTI_BASE; without that base (a lenient parse lets it
 * by) there is no value, and a base present in only one capture is a
 * definition change. */
static void v1_multi_timers(void)
{
    enum { TIMER = 50, MULTI = 51, OTHER = 52 };
    static const def with_base[] = {{TIMER, PERF_100NSEC_MULTI_TIMER, 8, 8},
                                    {MULTI, PERF_COUNTER_MULTI_BASE, 4, 16}};
    static const def without_base[] = {{OTHER, PERF_COUNTER_RAWCOUNT, 4, 16},
                                       {TIMER, PERF_100NSEC_MULTI_TIMER, 8, 8}};
    static const uint64_t older_with[] = {1000000, 2, 0, 2};
    static const uint64_t newer_with[] = {11000000, 2, 5000000, 2};
    static const uint64_t older_without[] = {0, 1000000, 0, 0};
    static const uint64_t newer_without[] = {0, 11000000, 0, 5000000};
    const obj_spec older = OBJECT(with_base, older_with);
    const obj_spec newer = OBJECT(with_base, newer_with);
    const obj_spec older_no_base = OBJECT(without_base, older_without);
    const obj_spec newer_no_base = OBJECT(without_base, newer_without);
    v1_fixture f;
    CHECK(v1_setup(&f, NULL, &older, NULL, &newer, OBJ));
    formatted a;
    v1_format(&f, TIMER, NULL, PERFBUF_FMT_DOUBLE, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK(a.items[0].pairing == PERFBUF_PAIR_MATCHED);
    /* 100 * (10,000,000 / 10,000,000) / 2 and 100 * (5,000,000 / 10,000,000) / 2 */
    CHECK(a.items[0].value.status == PERFBUF_CSTATUS_VALID_DATA);
    CHECK(a.items[0].value.as_double == 50.0);
    CHECK(a.items[1].value.as_double == 25.0);
    v1_teardown(&f);

    /* The base only in the older capture: no older sample is used. */
    CHECK(v1_setup(&f, NULL, &older, NULL, &newer_no_base, OBJ));
    CHECK((f.newer.anomalies & PERFBUF_ANOMALY_MISSING_BASE) != 0);
    v1_format(&f, TIMER, NULL, PERFBUF_FMT_DOUBLE, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK(a.items[0].pairing == PERFBUF_PAIR_DEFINITION_CHANGED);
    CHECK(a.items[0].value.status == PERFBUF_CSTATUS_INVALID_DATA);
    v1_teardown(&f);

    /* Neither has the base: the definitions agree, the samples are missing. */
    CHECK(v1_setup(&f, NULL, &older_no_base, NULL, &newer_no_base, OBJ));
    v1_format(&f, TIMER, NULL, PERFBUF_FMT_DOUBLE, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK(a.items[0].pairing == PERFBUF_PAIR_MATCHED);
    CHECK(a.items[0].value.status == PERFBUF_CSTATUS_INVALID_DATA);
    CHECK(a.items[0].value.format == PERFBUF_FMT_DOUBLE);
    raw_array r;
    v1_raw(&f, TIMER, &r);
    CHECK(r.status == PERFBUF_OK && r.count == 2);
    CHECK(r.items[0].pairing == PERFBUF_PAIR_MATCHED && !r.items[0].has_older);
    CHECK(r.items[0].newer.status == PERFBUF_CSTATUS_INVALID_DATA);
    CHECK(r.items[0].newer.type == PERF_100NSEC_MULTI_TIMER);
    v1_teardown(&f);
}

/* A CounterType perfbuf does not know (a lenient parse lets it by): the
 * definitions agree, but there is no formula for a value. */
static void v1_unknown_type(void)
{
    static const def defs[] = {{CF_COUNT, 0x12345678u, 4, 8}};
    static const uint64_t values[] = {1, 2};
    const obj_spec o = OBJECT(defs, values);
    v1_fixture f;
    CHECK(v1_setup(&f, NULL, &o, NULL, &o, OBJ));
    CHECK((f.newer.anomalies & PERFBUF_ANOMALY_UNKNOWN_VALUE) != 0);
    formatted a;
    v1_format(&f, CF_COUNT, NULL, PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK(a.items[0].pairing == PERFBUF_PAIR_MATCHED);
    CHECK(a.items[0].value.status == PERFBUF_PDH_INVALID_ARGUMENT);
    v1_teardown(&f);
}

/* Names in a code page perfbuf does not convert (932): only a wildcard
 * selects them, and they have no UTF-8 name to give. */
static void v1_unreadable_names(void)
{
    static const def defs[] = {{CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 8}};
    static const uint64_t values[] = {3, 4};
    obj_spec o = OBJECT(defs, values);
    o.code_page = 932;
    v1_fixture f;
    CHECK(v1_setup(&f, NULL, &o, NULL, &o, OBJ));
    formatted a;
    v1_format(&f, CF_COUNT, "\\Process(a)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 0 && a.bytes == 0);
    v1_format(&f, CF_COUNT, "\\Process(a*)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 0);
    v1_format(&f, CF_COUNT, "\\Process(*)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK(a.items[0].name_len == 0 && a.items[0].name[0] == '\0');
    CHECK(a.items[0].pairing == PERFBUF_PAIR_MATCHED && a.items[0].value.as_long == 3);
    CHECK(a.items[1].value.as_long == 4);
    v1_teardown(&f);
}

/* Parents: one in a code page perfbuf does not convert is never equal to
 * a named parent; one whose object is not in the capture is none; one
 * whose position is out of range leaves the plain name. */
static void v1_parents_not_read(void)
{
    static const def defs[] = {{CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 8}};
    static const uint64_t values[] = {5, 6};
    static const char *const jobs[] = {"p1"};
    static const uint32_t first_parent[] = {0, 0};
    static const uint32_t out_of_range[] = {0, 9};
    const parent_spec unreadable = {932, jobs, 1};
    const parent_spec readable = {0, jobs, 1};
    obj_spec o = OBJECT(defs, values);
    o.parent_title = PARENT_OBJ;
    o.parent_index = first_parent;
    v1_fixture f;
    CHECK(v1_setup(&f, &unreadable, &o, &unreadable, &o, OBJ));
    formatted a;
    v1_format(&f, CF_COUNT, "\\Process(p1/a)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 0);
    v1_format(&f, CF_COUNT, "\\Process(*/a)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1);
    CHECK_STR(a.items[0].name, "a");
    CHECK(a.items[0].value.as_long == 5);
    v1_teardown(&f);

    /* The same, readable: the named parent selects. */
    CHECK(v1_setup(&f, &readable, &o, &readable, &o, OBJ));
    v1_format(&f, CF_COUNT, "\\Process(p1/a)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1);
    CHECK_STR(a.items[0].name, "p1/a");
    v1_teardown(&f);

    /* A parent object the capture does not hold. */
    o.parent_title = MISSING_OBJ;
    CHECK(v1_setup(&f, NULL, &o, NULL, &o, OBJ));
    v1_format(&f, CF_COUNT, "\\Process(p1/a)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 0);
    v1_format(&f, CF_COUNT, "\\Process(b)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1);
    CHECK_STR(a.items[0].name, "b");
    v1_teardown(&f);

    /* b's parent position is out of range: its plain name. */
    o.parent_title = PARENT_OBJ;
    o.parent_index = out_of_range;
    CHECK(v1_setup(&f, &readable, &o, &readable, &o, OBJ));
    v1_format(&f, CF_COUNT, NULL, PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK_STR(a.items[0].name, "p1/a");
    CHECK_STR(a.items[1].name, "b");
    CHECK(a.items[1].name_len == 1 && a.items[1].value.as_long == 6);
    v1_teardown(&f);
}

/* A parent's name longer than PERFBUF_ARRAY_PARENT_MAX_BYTES is cut in
 * every child's item name, so the size a first call asks for stays within
 * PERFBUF_ARRAY_STRING_BYTES_PER_BYTE of the capture; a path still selects
 * by the whole parent's name. */
static void v1_long_parent_cut(void)
{
    static const def defs[] = {{CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 8}};
    static const uint64_t values[] = {5, 6};
    static const uint32_t both_first[] = {0, 0};
    enum { LONG = PERFBUF_ARRAY_PARENT_MAX_BYTES + 900 };
    char *long_name = malloc(LONG + 1);
    CHECK(long_name != NULL);
    memset(long_name, 'P', LONG);
    long_name[LONG] = '\0';
    const char *const parents[] = {long_name};
    const parent_spec spec = {0, parents, 1};
    obj_spec o = OBJECT(defs, values);
    o.parent_title = PARENT_OBJ;
    o.parent_index = both_first;
    v1_fixture f;
    CHECK(v1_setup(&f, &spec, &o, &spec, &o, OBJ));
    size_t count = 0, bytes = 0;
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, NULL, PERFBUF_FMT_LONG, NULL, &count, NULL,
                                     &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(count, 2);
    CHECK(bytes <= (size_t)PERFBUF_ARRAY_STRING_BYTES_PER_BYTE * f.newer.size);
    /* Each item keeps at most the cap of its parent, not all of it. */
    CHECK(bytes < 2 * (size_t)LONG);
    perfbuf_formatted_item items[2];
    char *strings = malloc(bytes);
    CHECK(strings != NULL);
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, NULL, PERFBUF_FMT_LONG, items, &count,
                                     strings, &bytes) == PERFBUF_OK);
    CHECK_EQ_U(items[0].name_len, PERFBUF_ARRAY_PARENT_MAX_BYTES + 2);
    CHECK(memcmp(items[0].name, long_name, PERFBUF_ARRAY_PARENT_MAX_BYTES) == 0);
    CHECK_STR(items[0].name + PERFBUF_ARRAY_PARENT_MAX_BYTES, "/a");
    CHECK_STR(items[1].name + PERFBUF_ARRAY_PARENT_MAX_BYTES, "/b");
    free(strings);
    v1_teardown(&f);
    free(long_name);
}

/* Children alternating between two parents: a named parent selects its
 * own children, each parent compared once (case-insensitively), whatever
 * order they come in. */
static void v1_alternating_parents(void)
{
    static const def defs[] = {{CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 8}};
    static const uint64_t values[] = {1, 2, 3, 4, 5};
    static const char *const names[] = {"a", "b", "c", "d", "e"};
    static const char *const jobs[] = {"p1", "p2"};
    static const uint32_t alternating[] = {0, 1, 0, 1, 7};
    const parent_spec two = {0, jobs, 2};
    obj_spec o = {OBJ, defs, 1, 0, 0, names, 5, PARENT_OBJ, alternating, values};
    v1_fixture f;
    CHECK(v1_setup(&f, &two, &o, &two, &o, OBJ));
    formatted a;
    v1_format(&f, CF_COUNT, "\\Process(P2/*)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK_STR(a.items[0].name, "p2/b");
    CHECK_STR(a.items[1].name, "p2/d");
    CHECK(a.items[1].value.as_long == 4);
    v1_format(&f, CF_COUNT, "\\Process(p1/c)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1);
    CHECK_STR(a.items[0].name, "p1/c");
    v1_format(&f, CF_COUNT, "\\Process(p3/*)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 0);
    /* e's parent is out of range: no named parent selects it. */
    v1_format(&f, CF_COUNT, "\\Process(*/e)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1);
    CHECK_STR(a.items[0].name, "e");
    v1_teardown(&f);
}

/* Output that overlaps what the array calls read of the pairing's scratch
 * is refused before anything is read or written. */
static void v1_output_over_scratch(void)
{
    static const def defs[] = {{CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 8}};
    static const uint64_t values[] = {5, 6};
    static const char *const jobs[] = {"p1"};
    static const uint32_t first_parent[] = {0, 0};
    const parent_spec readable = {0, jobs, 1};
    obj_spec o = OBJECT(defs, values);
    o.parent_title = PARENT_OBJ;
    o.parent_index = first_parent;
    v1_fixture f;
    CHECK(v1_setup(&f, &readable, &o, &readable, &o, OBJ));
    perfbuf_formatted_item items[2];
    char strings[64];
    size_t count = 2, bytes = sizeof strings;
    /* The name area. */
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, NULL, PERFBUF_FMT_LONG, items, &count,
                                     f.p.text + 8, &bytes) == PERFBUF_E_INVALID_ARGUMENT);
    /* The matches, as items. */
    size_t at = (size_t)(f.p.matches - f.scratch);
    count = 2;
    bytes = sizeof strings;
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, NULL, PERFBUF_FMT_LONG,
                                     (perfbuf_formatted_item *)(void *)&f.scratch[at], &count,
                                     strings, &bytes) == PERFBUF_E_INVALID_ARGUMENT);
    /* The newer block index, as raw strings. */
    at = (size_t)(f.p.newer_parents.slots - f.scratch);
    perfbuf_raw_item raw[2];
    count = 2;
    bytes = 16;
    CHECK(perfbuf_v1_raw_array(&f.p, CF_COUNT, NULL, raw, &count, (char *)(void *)&f.scratch[at],
                               &bytes) == PERFBUF_E_INVALID_ARGUMENT);
    /* Ending just before the scratch is not an overlap. */
    count = 2;
    bytes = sizeof strings;
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, NULL, PERFBUF_FMT_LONG, items, &count,
                                     strings, &bytes) == PERFBUF_OK);
    CHECK_STR(items[0].name, "p1/a");
    v1_teardown(&f);
}

/*
 * A path whose text lies in the items the fill writes: writing the first
 * item (its name_len, 1, whose low byte lies over the path's instance part
 * "a") makes the text "\x01", which names the next instance, one the
 * sizing pass did not count. The fill stops at the room the sizing pass
 * asked for: one item, the one after it (a canary) untouched.
 */
static perfbuf_counter_path path_in_first_item(perfbuf_raw_item *items)
{
    static const char text[] = "\\O(a)\\C";
    /* The byte of name_len that holds a 1: its first on a little-endian
     * machine, its last on a big-endian one. */
    size_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    size_t low_byte = first == 1 ? 0 : sizeof one - 1;
    char *instance = (char *)items + offsetof(perfbuf_raw_item, name_len) + low_byte;
    char *at = instance - 3; /* "\\O(" */
    memcpy(at, text, sizeof text - 1);
    perfbuf_counter_path path;
    EXPECT(perfbuf_path_parse(at, sizeof text - 1, &path, NULL) == PERFBUF_OK);
    EXPECT(path.text + path.instance.offset == instance && path.instance.length == 1);
    return path;
}

/* Items of capacity 1, the one after them a canary, and the path in the
 * first. */
typedef struct path_in_output {
    perfbuf_raw_item items[2];
    perfbuf_raw_item canary;
    char strings[64];
    perfbuf_counter_path path;
} path_in_output;

static void path_in_output_begin(path_in_output *t)
{
    memset(t->items, 0x5A, sizeof t->items);
    memcpy(&t->canary, &t->items[1], sizeof t->canary);
    t->path = path_in_first_item(t->items);
}

/* The fill wrote the one item the sizing pass counted (value 5), changed
 * the path's text, and stopped before the canary. */
static void path_in_output_filled(const path_in_output *t, size_t count)
{
    CHECK_EQ_U(count, 1);
    CHECK_EQ_U(t->items[0].newer.first, 5);
    CHECK_EQ_U((unsigned char)t->path.text[t->path.instance.offset], 1);
    CHECK(memcmp(&t->items[1], &t->canary, sizeof t->canary) == 0);
}

static void v1_path_changed_by_the_fill(void)
{
    static const def defs[] = {{CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 8}};
    static const uint64_t values[] = {5, 6};
    static const char *const names[] = {"a", "\x01"};
    obj_spec o = {OBJ, defs, 1, 0, 0, names, 2, 0, NULL, values};
    v1_fixture f;
    CHECK(v1_setup(&f, NULL, &o, NULL, &o, OBJ));
    path_in_output t;
    path_in_output_begin(&t);
    size_t count = 0, bytes = 0;
    CHECK(perfbuf_v1_raw_array(&f.p, CF_COUNT, &t.path, NULL, &count, NULL, &bytes) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(count, 1);
    CHECK(perfbuf_v1_raw_array(&f.p, CF_COUNT, &t.path, t.items, &count, t.strings, &bytes) ==
          PERFBUF_OK);
    CALL(path_in_output_filled(&t, count));
    v1_teardown(&f);
}

/* ---- V2 ---- */

enum { ID_A = 0, ID_B = 1, ID_BASE = 2, ID_ABSENT = 3 };

/* One block of `kind` per buffer: ids (COUNTERSET, MULTIPLE_COUNTERS),
 * instances (COUNTERSET, MULTIPLE_INSTANCES) and 4-byte values: per
 * instance one per id (one without ids), or the block's. */
typedef struct v2_spec {
    uint32_t kind;
    const uint32_t *ids;
    uint32_t nids;
    const char *const *names;
    const uint32_t *instance_ids;
    uint32_t n;
    const uint32_t *values;
} v2_spec;

static tb_buf capture_v2(uint32_t second, const v2_spec *s)
{
    tb_v2 v;
    tb_v2_begin(&v, 5000 + second, 133000000000000000 + 10000000 * (int64_t)second, 10000000);
    tb_v2_block_begin(&v, s->kind == PERFBUF_V2_ERROR_RETURN ? 0x1068u : 0u, s->kind);
    uint32_t per = s->nids > 0 ? s->nids : 1;
    if (s->kind == PERFBUF_V2_COUNTERSET || s->kind == PERFBUF_V2_MULTIPLE_COUNTERS) {
        tb_v2_ids(&v, s->ids, s->nids);
    }
    if (s->kind == PERFBUF_V2_COUNTERSET || s->kind == PERFBUF_V2_MULTIPLE_INSTANCES) {
        tb_v2_instances_begin(&v, s->n);
        for (uint32_t i = 0; i < s->n; i++) {
            tb_v2_instance(&v, s->instance_ids[i], s->names[i]);
            for (uint32_t k = 0; k < per; k++) {
                tb_v2_u32(&v, s->values[i * per + k]);
            }
        }
        tb_v2_instances_end(&v);
    } else if (s->kind != PERFBUF_V2_ERROR_RETURN) {
        for (uint32_t k = 0; k < per; k++) {
            tb_v2_u32(&v, s->values[k]);
        }
    }
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    return v.buf;
}

typedef struct v2_fixture {
    tb_buf ob, nb, regbuf;
    perfbuf_v2_query older, newer;
    perfbuf_v2_block older_block, newer_block;
    perfbuf_v2_reginfo reg;
    uint64_t *scratch;
    perfbuf_v2_pairing p;
} v2_fixture;

static bool first_block(const perfbuf_v2_query *q, perfbuf_v2_block *out)
{
    perfbuf_v2_iter it;
    perfbuf_v2_blocks_begin(q, &it);
    return perfbuf_v2_blocks_next(q, &it, out);
}

/* older NULL: the pairing has no older block. */
static bool v2_setup(v2_fixture *f, const v2_spec *older, const v2_spec *newer)
{
    static const tb_reg_row rows[] = {
        {ID_A, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, "a"},
        {ID_B, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, "b"},
        {ID_BASE, PERF_RAW_BASE, PERFBUF_V2_NO_ID, "base"},
        {ID_ABSENT, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, "absent"}};
    memset(f, 0, sizeof *f);
    f->regbuf = tb_v2_reginfo(rows, 4, PERFBUF_COUNTERSET_MULTI_INSTANCES);
    f->ob = capture_v2(0, older != NULL ? older : newer);
    f->nb = capture_v2(1, newer);
    size_t slots = 0;
    if (perfbuf_v2_reginfo_parse(f->regbuf.data, f->regbuf.len, NULL, &f->reg, NULL) !=
            PERFBUF_OK ||
        perfbuf_v2_query_parse(f->ob.data, f->ob.len, NULL, &f->older, NULL) != PERFBUF_OK ||
        perfbuf_v2_query_parse(f->nb.data, f->nb.len, NULL, &f->newer, NULL) != PERFBUF_OK ||
        !first_block(&f->older, &f->older_block) || !first_block(&f->newer, &f->newer_block)) {
        return false;
    }
    const perfbuf_v2_block *ob = older != NULL ? &f->older_block : NULL;
    if (perfbuf_v2_pairing_scratch(ob, &f->newer_block, &slots) != PERFBUF_OK) {
        return false;
    }
    f->scratch = malloc(slots * sizeof *f->scratch);
    return f->scratch != NULL &&
           perfbuf_v2_pair(older != NULL ? &f->older : NULL, ob, &f->newer, &f->newer_block,
                           f->scratch, slots, &f->p) == PERFBUF_OK;
}

static void v2_teardown(v2_fixture *f)
{
    free(f->scratch);
    tb_free(&f->ob);
    tb_free(&f->nb);
    tb_free(&f->regbuf);
}

static void v2_format(const v2_fixture *f, uint32_t id, const char *path_text, formatted *out)
{
    perfbuf_counter_path path;
    const perfbuf_counter_path *pp = parse_path(path_text, &path);
    out->count = 8;
    out->bytes = sizeof out->strings;
    out->status = perfbuf_v2_formatted_array(&f->p, &f->reg, id, pp, PERFBUF_FMT_LONG, out->items,
                                             &out->count, out->strings, &out->bytes);
}

static void v2_raw(const v2_fixture *f, uint32_t id, raw_array *out)
{
    out->count = 8;
    out->bytes = sizeof out->strings;
    out->status = perfbuf_v2_raw_array(&f->p, &f->reg, id, NULL, out->items, &out->count,
                                       out->strings, &out->bytes);
}

static const uint32_t ids_ab[] = {ID_A, ID_B};
static const uint32_t ids_a_base[] = {ID_A, ID_BASE};
static const uint32_t ids_a[] = {ID_A};
static const uint32_t inst_ids[] = {1, 2};

static void v2_null_arguments(void)
{
    static const uint32_t values[] = {1, 2, 3, 4};
    const v2_spec s = {PERFBUF_V2_COUNTERSET, ids_ab, 2, ab, inst_ids, 2, values};
    v2_fixture f;
    CHECK(v2_setup(&f, &s, &s));
    size_t count = 0, bytes = 0;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, ID_A, NULL, PERFBUF_FMT_LONG, NULL, &count,
                                     NULL, &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(count == 2 && bytes == 4);
    perfbuf_v2_pairing no_newer = f.p, no_matches = f.p;
    no_newer.newer = NULL;
    no_matches.matches = NULL;
    count = 5;
    bytes = 7;
    CHECK(perfbuf_v2_formatted_array(NULL, &f.reg, ID_A, NULL, PERFBUF_FMT_LONG, NULL, &count,
                                     NULL, &bytes) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_formatted_array(&no_newer, &f.reg, ID_A, NULL, PERFBUF_FMT_LONG, NULL,
                                     &count, NULL, &bytes) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_raw_array(&no_matches, &f.reg, ID_A, NULL, NULL, &count, NULL, &bytes) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_raw_array(&f.p, NULL, ID_A, NULL, NULL, &count, NULL, &bytes) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, ID_A, NULL, PERFBUF_FMT_LONG, NULL, NULL,
                                     NULL, &bytes) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_raw_array(&f.p, &f.reg, ID_A, NULL, NULL, &count, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(count == 5 && bytes == 7);
    v2_teardown(&f);
}

/* Items fit but the strings are one byte short: nothing is written. */
static void v2_strings_short_by_one(void)
{
    static const uint32_t values[] = {1, 2, 3, 4};
    const v2_spec s = {PERFBUF_V2_COUNTERSET, ids_ab, 2, ab, inst_ids, 2, values};
    v2_fixture f;
    CHECK(v2_setup(&f, &s, &s));
    perfbuf_formatted_item items[2];
    char strings[4];
    memset(items, 0xAB, sizeof items);
    memset(strings, 0xCD, sizeof strings);
    size_t count = 2, bytes = 3;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, ID_B, NULL, PERFBUF_FMT_LONG, items, &count,
                                     strings, &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(count == 2 && bytes == 4);
    CHECK((uint8_t)strings[0] == 0xCD && (uint8_t)strings[3] == 0xCD);
    CHECK(((const uint8_t *)items)[0] == 0xAB);
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, ID_B, NULL, PERFBUF_FMT_LONG, items, &count,
                                     strings, &bytes) == PERFBUF_OK);
    CHECK(count == 2 && bytes == 4);
    CHECK_STR(items[1].name, "b");
    CHECK(items[1].value.as_long == 4);
    v2_teardown(&f);
}

/* A MULTIPLE_INSTANCES block: one value per instance, which is the
 * counter's; instances pair by id and name. */
static void v2_multiple_instances(void)
{
    static const uint32_t older_values[] = {10, 20};
    static const uint32_t newer_values[] = {11, 21};
    const v2_spec older = {PERFBUF_V2_MULTIPLE_INSTANCES, NULL, 0, ab, inst_ids, 2, older_values};
    const v2_spec newer = {PERFBUF_V2_MULTIPLE_INSTANCES, NULL, 0, ab, inst_ids, 2, newer_values};
    v2_fixture f;
    CHECK(v2_setup(&f, &older, &newer));
    CHECK(f.p.paired == 2);
    raw_array r;
    v2_raw(&f, ID_A, &r);
    CHECK(r.status == PERFBUF_OK && r.count == 2);
    CHECK_STR(r.items[1].name, "b");
    CHECK(r.items[1].has_older && r.items[1].older.first == 20 && r.items[1].newer.first == 21);
    formatted a;
    v2_format(&f, ID_A, "\\Set(a)\\a", &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1 && a.items[0].value.as_long == 11);
    /* A path without an instance part selects no instance. */
    v2_format(&f, ID_A, "\\Set\\a", &a);
    CHECK(a.status == PERFBUF_OK && a.count == 0 && a.bytes == 0);
    v2_teardown(&f);
}

/* A SINGLE_COUNTER block: one item with an empty name; a path without an
 * instance part selects it, one with an instance part does not. */
static void v2_single_counter(void)
{
    static const uint32_t older_values[] = {70};
    static const uint32_t newer_values[] = {71};
    const v2_spec older = {PERFBUF_V2_SINGLE_COUNTER, NULL, 0, NULL, NULL, 0, older_values};
    const v2_spec newer = {PERFBUF_V2_SINGLE_COUNTER, NULL, 0, NULL, NULL, 0, newer_values};
    v2_fixture f;
    CHECK(v2_setup(&f, &older, &newer));
    formatted a;
    v2_format(&f, ID_A, "\\Set\\a", &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1 && a.bytes == 1);
    CHECK_STR(a.items[0].name, "");
    CHECK(a.items[0].pairing == PERFBUF_PAIR_MATCHED && a.items[0].value.as_long == 71);
    v2_format(&f, ID_A, "\\Set(*)\\a", &a);
    CHECK(a.status == PERFBUF_OK && a.count == 0);
    raw_array r;
    v2_raw(&f, ID_A, &r);
    CHECK(r.status == PERFBUF_OK && r.count == 1 && r.items[0].has_older);
    CHECK(r.items[0].older.first == 70 && r.items[0].newer.first == 71);
    v2_teardown(&f);
}

/* An error-return block has neither values nor instances: no items. */
static void v2_error_block(void)
{
    const v2_spec s = {PERFBUF_V2_ERROR_RETURN, NULL, 0, NULL, NULL, 0, NULL};
    v2_fixture f;
    CHECK(v2_setup(&f, &s, &s));
    formatted a;
    v2_format(&f, ID_A, NULL, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 0 && a.bytes == 0);
    a.count = 3;
    a.bytes = 3;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, ID_ABSENT + 10, NULL, PERFBUF_FMT_LONG, a.items,
                                     &a.count, a.strings, &a.bytes) == PERFBUF_E_NOT_FOUND);
    CHECK(a.count == 0 && a.bytes == 0);
    v2_teardown(&f);
}

/* A counter the registration has but the block does not carry, and a
 * base with no displayable value: each item says so. */
static void v2_sample_failures(void)
{
    static const uint32_t values[] = {1, 100, 2, 200};
    const v2_spec s = {PERFBUF_V2_COUNTERSET, ids_a_base, 2, ab, inst_ids, 2, values};
    v2_fixture f;
    CHECK(v2_setup(&f, &s, &s));
    formatted a;
    v2_format(&f, ID_ABSENT, NULL, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK(a.items[0].pairing == PERFBUF_PAIR_MATCHED);
    CHECK(a.items[0].value.status == PERFBUF_CSTATUS_INVALID_DATA);
    CHECK(a.items[0].value.format == PERFBUF_FMT_LONG);
    v2_format(&f, ID_BASE, NULL, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK(a.items[1].value.status == PERFBUF_PDH_INVALID_ARGUMENT);
    raw_array r;
    v2_raw(&f, ID_BASE, &r);
    CHECK(r.status == PERFBUF_OK && r.count == 2);
    CHECK(r.items[0].newer.status == PERFBUF_PDH_INVALID_ARGUMENT && !r.items[0].has_older);
    v2_format(&f, ID_A, NULL, &a);
    CHECK(a.items[1].value.status == PERFBUF_CSTATUS_VALID_DATA && a.items[1].value.as_long == 2);
    v2_teardown(&f);
}

/* The older block lacks the counter: matched instances have no older
 * sample, and a block without instances pairs nothing. */
static void v2_counter_only_in_newer(void)
{
    static const uint32_t older_values[] = {1, 2};
    static const uint32_t newer_values[] = {3, 30, 4, 40};
    const v2_spec older = {PERFBUF_V2_COUNTERSET, ids_a, 1, ab, inst_ids, 2, older_values};
    const v2_spec newer = {PERFBUF_V2_COUNTERSET, ids_ab, 2, ab, inst_ids, 2, newer_values};
    v2_fixture f;
    CHECK(v2_setup(&f, &older, &newer));
    CHECK(f.p.paired == 2);
    raw_array r;
    v2_raw(&f, ID_B, &r);
    CHECK(r.status == PERFBUF_OK && r.count == 2);
    CHECK(r.items[0].pairing == PERFBUF_PAIR_MATCHED && !r.items[0].has_older);
    CHECK(r.items[0].newer.first == 30 && r.items[1].newer.first == 40);
    v2_raw(&f, ID_A, &r);
    CHECK(r.items[1].has_older && r.items[1].older.first == 2 && r.items[1].newer.first == 4);
    v2_teardown(&f);

    static const uint32_t older_block[] = {5};
    static const uint32_t newer_block[] = {6, 60};
    const v2_spec older_mc = {PERFBUF_V2_MULTIPLE_COUNTERS, ids_a, 1, NULL, NULL, 0, older_block};
    const v2_spec newer_mc = {PERFBUF_V2_MULTIPLE_COUNTERS, ids_ab, 2, NULL, NULL, 0, newer_block};
    CHECK(v2_setup(&f, &older_mc, &newer_mc));
    formatted a;
    v2_format(&f, ID_B, NULL, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1);
    CHECK(a.items[0].pairing == PERFBUF_PAIR_NEW && a.items[0].value.as_long == 60);
    v2_format(&f, ID_A, NULL, &a);
    CHECK(a.items[0].pairing == PERFBUF_PAIR_MATCHED && a.items[0].value.as_long == 6);
    v2_teardown(&f);
}

/* No older block, or one of another kind: every item is new. */
static void v2_older_missing_or_other_kind(void)
{
    static const uint32_t inst_values[] = {3, 30, 4, 40};
    static const uint32_t block_values[] = {6, 60};
    const v2_spec instances = {PERFBUF_V2_COUNTERSET, ids_ab, 2, ab, inst_ids, 2, inst_values};
    const v2_spec counters = {PERFBUF_V2_MULTIPLE_COUNTERS, ids_ab, 2, NULL, NULL, 0,
                              block_values};
    v2_fixture f;
    raw_array r;
    CHECK(v2_setup(&f, NULL, &instances));
    CHECK(!f.p.has_older && f.p.new_instances == 2);
    v2_raw(&f, ID_B, &r);
    CHECK(r.status == PERFBUF_OK && r.count == 2);
    CHECK(r.items[1].pairing == PERFBUF_PAIR_NEW && !r.items[1].has_older);
    CHECK(r.items[1].newer.first == 40);
    v2_teardown(&f);

    CHECK(v2_setup(&f, NULL, &counters));
    v2_raw(&f, ID_B, &r);
    CHECK(r.status == PERFBUF_OK && r.count == 1);
    CHECK(r.items[0].pairing == PERFBUF_PAIR_NEW && !r.items[0].has_older);
    CHECK(r.items[0].newer.first == 60);
    v2_teardown(&f);

    CHECK(v2_setup(&f, &counters, &instances));
    CHECK(f.p.has_older && f.p.new_instances == 2);
    v2_raw(&f, ID_A, &r);
    CHECK(r.status == PERFBUF_OK && r.count == 2);
    CHECK(r.items[0].pairing == PERFBUF_PAIR_NEW && !r.items[0].has_older);
    CHECK(r.items[0].newer.first == 3);
    v2_teardown(&f);

    CHECK(v2_setup(&f, &instances, &counters));
    v2_raw(&f, ID_A, &r);
    CHECK(r.status == PERFBUF_OK && r.count == 1);
    CHECK(r.items[0].pairing == PERFBUF_PAIR_NEW && !r.items[0].has_older);
    CHECK(r.items[0].newer.first == 6);
    v2_teardown(&f);
}

/* A name longer than any path part (1,100 euro signs, 3,300 bytes of
 * UTF-8): a wildcard or a prefix selects it, an exact name does not. */
static void v2_long_names(void)
{
    char *longer = malloc(3301);
    CHECK(longer != NULL);
    for (int k = 0; k < 1100; k++) {
        memcpy(longer + 3 * k, "\xE2\x82\xAC", 3);
    }
    longer[3300] = '\0';
    const char *names[] = {longer, "\xE2\x82\xAC" "y"};
    static const uint32_t values[] = {8, 9};
    const v2_spec s = {PERFBUF_V2_COUNTERSET, ids_a, 1, names, inst_ids, 2, values};
    v2_fixture f;
    CHECK(v2_setup(&f, &s, &s));
    size_t count = 0, bytes = 0;
    perfbuf_counter_path path;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, ID_A, parse_path("\\Set(*)\\a", &path),
                                     PERFBUF_FMT_LONG, NULL, &count, NULL,
                                     &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(count == 2 && bytes >= 3300 + 1 + 5);
    count = 0;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, ID_A,
                                     parse_path("\\Set(\xE2\x82\xAC\xE2\x82\xAC*)\\a", &path),
                                     PERFBUF_FMT_LONG, NULL, &count, NULL,
                                     &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(count == 1);
    char *strings = malloc(bytes);
    CHECK(strings != NULL);
    perfbuf_formatted_item item;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, ID_A, &path, PERFBUF_FMT_LONG, &item, &count,
                                     strings, &bytes) == PERFBUF_OK);
    CHECK(count == 1 && item.name_len == 3300 && strcmp(item.name, longer) == 0);
    CHECK(item.pairing == PERFBUF_PAIR_MATCHED && item.value.as_long == 8);
    free(strings);
    /* A prefix the name does not start with, and an exact name. */
    count = 0;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, ID_A, parse_path("\\Set(\xE2\x82\xAC" "z*)\\a",
                                                                    &path),
                                     PERFBUF_FMT_LONG, NULL, &count, NULL, &bytes) == PERFBUF_OK);
    CHECK(count == 0);
    count = 0;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, ID_A,
                                     parse_path("\\Set(\xE2\x82\xAC" "y)\\a", &path),
                                     PERFBUF_FMT_LONG, NULL, &count, NULL,
                                     &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(count == 1);
    v2_teardown(&f);
    free(longer);
}

/* A view struct is the caller's: one whose name lies past any size_t,
 * however it got there, is refused with an empty name, never read. */
static void v2_forged_instance_names(void)
{
    static const uint32_t values[] = {1, 2};
    const v2_spec s = {PERFBUF_V2_COUNTERSET, ids_a, 1, ab, inst_ids, 2, values};
    v2_fixture f;
    CHECK(v2_setup(&f, &s, &s));
    perfbuf_v2_iter it;
    perfbuf_v2_instance inst;
    perfbuf_v2_instances_begin(&f.newer_block, &it);
    CHECK(perfbuf_v2_instances_next(&f.newer, &f.newer_block, &it, &inst));
    char out[8];
    size_t len = 99;
    CHECK(perfbuf_v2_instance_name_utf8(&f.newer, &inst, out, sizeof out, &len) == PERFBUF_OK);
    CHECK(len == 1 && strcmp(out, "a") == 0);
    perfbuf_v2_instance units_overflow = inst;
    units_overflow.name_units = SIZE_MAX / 2 + 1; /* twice that wraps */
    len = 99;
    memset(out, 'x', sizeof out);
    CHECK(perfbuf_v2_instance_name_utf8(&f.newer, &units_overflow, out, sizeof out, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(len == 0 && out[0] == '\0');
    perfbuf_v2_instance offset_overflow = inst;
    offset_overflow.name_offset = SIZE_MAX - 1; /* plus 2 bytes wraps */
    len = 99;
    memset(out, 'x', sizeof out);
    CHECK(perfbuf_v2_instance_name_utf8(&f.newer, &offset_overflow, out, sizeof out, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(len == 0 && out[0] == '\0');
    perfbuf_v2_instance past_end = inst;
    past_end.name_offset = f.newer.size - 1;
    CHECK(perfbuf_v2_instance_name_utf8(&f.newer, &past_end, out, sizeof out, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
    v2_teardown(&f);
}

/* The V2 arrays refuse output over the pairing's scratch too. */
static void v2_output_over_scratch(void)
{
    static const uint32_t values[] = {1, 2, 3, 4};
    const v2_spec s = {PERFBUF_V2_COUNTERSET, ids_ab, 2, ab, inst_ids, 2, values};
    v2_fixture f;
    CHECK(v2_setup(&f, &s, &s));
    perfbuf_formatted_item items[2];
    char strings[64];
    size_t count = 2, bytes = sizeof strings;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, ID_A, NULL, PERFBUF_FMT_LONG, items, &count,
                                     f.p.text, &bytes) == PERFBUF_E_INVALID_ARGUMENT);
    /* The older samples the call stores: the scratch's last slots. */
    count = 1;
    bytes = sizeof strings;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, ID_A, NULL, PERFBUF_FMT_LONG,
                                     (perfbuf_formatted_item *)(void *)f.p.older_samples, &count,
                                     strings, &bytes) == PERFBUF_E_INVALID_ARGUMENT);
    count = 2;
    bytes = sizeof strings;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, ID_A, NULL, PERFBUF_FMT_LONG, items, &count,
                                     strings, &bytes) == PERFBUF_OK);
    CHECK_EQ_U(count, 2);
    v2_teardown(&f);
}

/* The same over V2: the fill stops at the room the sizing pass asked for. */
static void v2_path_changed_by_the_fill(void)
{
    static const uint32_t values[] = {5, 6};
    static const char *const names[] = {"a", "\x01"};
    const v2_spec s = {PERFBUF_V2_COUNTERSET, ids_a, 1, names, inst_ids, 2, values};
    v2_fixture f;
    CHECK(v2_setup(&f, &s, &s));
    path_in_output t;
    path_in_output_begin(&t);
    size_t count = 0, bytes = 0;
    CHECK(perfbuf_v2_raw_array(&f.p, &f.reg, ID_A, &t.path, NULL, &count, NULL, &bytes) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(count, 1);
    CHECK(perfbuf_v2_raw_array(&f.p, &f.reg, ID_A, &t.path, t.items, &count, t.strings,
                               &bytes) == PERFBUF_OK);
    CALL(path_in_output_filled(&t, count));
    v2_teardown(&f);
}

static const th_case cases[] = {
    TH_CASE(v1_null_arguments),
    TH_CASE(v1_long_parent_cut),
    TH_CASE(v1_alternating_parents),
    TH_CASE(v1_output_over_scratch),
    TH_CASE(v2_output_over_scratch),
    TH_CASE(v1_path_changed_by_the_fill),
    TH_CASE(v2_path_changed_by_the_fill),
    TH_CASE(v1_type_changed),
    TH_CASE(v1_size_changed),
    TH_CASE(v1_counter_only_in_newer),
    TH_CASE(v1_object_only_in_newer),
    TH_CASE(v1_single_after_instances),
    TH_CASE(v1_base_counters),
    TH_CASE(v1_multi_timers),
    TH_CASE(v1_unknown_type),
    TH_CASE(v1_unreadable_names),
    TH_CASE(v1_parents_not_read),
    TH_CASE(v2_null_arguments),
    TH_CASE(v2_strings_short_by_one),
    TH_CASE(v2_multiple_instances),
    TH_CASE(v2_single_counter),
    TH_CASE(v2_error_block),
    TH_CASE(v2_sample_failures),
    TH_CASE(v2_counter_only_in_newer),
    TH_CASE(v2_older_missing_or_other_kind),
    TH_CASE(v2_long_names),
    TH_CASE(v2_forged_instance_names),
};

TH_MAIN(cases)
