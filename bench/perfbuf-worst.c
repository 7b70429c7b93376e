/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Worst-case table: every entry point (or documented walk) on its
 * adversarial input from tests/adversarial.c, sized to about 2 MB, timed
 * as milliseconds per call and per megabyte of input next to the plain
 * parse of the same bytes. The growth test proves the shapes linear in
 * work units; this shows what those units cost in time. Not run by the
 * tests: speed belongs in numbers, not in pass/fail.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adversarial.h"
#include "builder_v2meta.h"
#include "collector_fixture.h"
#include "perfbuf/collector.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/names.h"
#include "perfbuf/paths.h"
#include "perfbuf/query.h"
#include "perfbuf/text.h"
#include "perfbuf/v1.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/v2_query.h"
#include "perfbuf/values.h"

#define REPEATS 3
#define TARGET_MS_PER_MB 20.0
#define TARGET_MS_PER_CALL 60.0

/* The process's CPU time, not the wall clock: the bench is one thread, so
 * the two agree on an idle machine, and on a shared one the wall clock
 * also counts the time other work held the cores. */
static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static volatile uint64_t sink;

/* Everything a row needs; unused fields stay zero. */
typedef struct input {
    const uint8_t *data;      /* the input the row is measured against */
    size_t len;
    const uint8_t *data2;     /* a second buffer: identifiers, older capture */
    size_t len2;
    const uint8_t *data3;     /* a third: registration */
    size_t len3;
    uint32_t n;
    uint32_t code_page;
    uint32_t object;          /* the object a lookup searches, by number */
    const perfbuf_raw_sample *samples;
} input;

typedef uint64_t (*bench_fn)(const input *in);

/* Median milliseconds of one call; each run repeats the call until it has
 * taken at least 20 ms (a slow call runs once per run). */
static double measure(bench_fn fn, const input *in)
{
    double runs[REPEATS];
    for (int r = 0; r < REPEATS; r++) {
        unsigned calls = 0;
        double start = now_ms();
        double elapsed;
        do {
            sink += fn(in);
            calls++;
            elapsed = now_ms() - start;
        } while (elapsed < 20.0);
        runs[r] = elapsed / calls;
        /* A call of more than a second is its own median. */
        if (r == 0 && runs[0] > 1000.0) {
            return runs[0];
        }
    }
    qsort(runs, REPEATS, sizeof runs[0], compare_double);
    return runs[REPEATS / 2];
}

static unsigned misses;

static void row(const char *what, const input *in, bench_fn fn, bench_fn parse)
{
    double mb = (double)in->len / 1e6;
    double ms = measure(fn, in);
    double per_mb = ms / mb;
    char parse_col[32] = "-";
    if (parse != NULL) {
        snprintf(parse_col, sizeof parse_col, "%.2f", measure(parse, in) / mb);
    }
    bool miss = per_mb > TARGET_MS_PER_MB || ms > TARGET_MS_PER_CALL;
    misses += miss;
    printf("| %-62s | %9zu | %9.3f | %9.2f | %9s | %s |\n", what, in->len, ms, per_mb, parse_col,
           miss ? "**miss**" : "ok");
}

static void header(const char *title)
{
    printf("\n%s\n\n", title);
    printf("| %-62s | %9s | %9s | %9s | %9s | %s |\n", "entry point: adversarial input", "bytes",
           "ms/call", "ms/MB", "parse ms/MB", "target");
    printf("|%s|-----------|-----------|-----------|-----------|------|\n",
           "----------------------------------------------------------------");
}

/* ---- plain parses ---- */

static uint64_t parse_v1(const input *in)
{
    perfbuf_v1_block b;
    return perfbuf_v1_parse(in->data, in->len, NULL, &b, NULL) == PERFBUF_OK ? b.object_count : 0;
}

static uint64_t parse_names(const input *in)
{
    perfbuf_name_table t;
    return perfbuf_names_parse(in->data, in->len, NULL, &t, NULL) == PERFBUF_OK ? t.count : 0;
}

static uint64_t parse_v2(const input *in)
{
    perfbuf_v2_query q;
    return perfbuf_v2_query_parse(in->data, in->len, NULL, &q, NULL) == PERFBUF_OK ? q.block_count
                                                                                   : 0;
}

static uint64_t parse_reginfo(const input *in)
{
    perfbuf_v2_reginfo r;
    return (uint64_t)perfbuf_v2_reginfo_parse(in->data, in->len, NULL, &r, NULL);
}

/* More string headers than the default limit of counters: a caller that
 * takes a 2 MB string block raises it. */
static const perfbuf_options many_counters = {0, 0, 1000000, 0};

static uint64_t parse_strings(const input *in)
{
    perfbuf_v2_strings s;
    return perfbuf_v2_strings_parse(in->data, in->len, PERFBUF_V2_STRINGS_AUTO, &many_counters, &s,
                                    NULL) == PERFBUF_OK
               ? s.count
               : 0;
}

static uint64_t parse_identifiers(const input *in)
{
    perfbuf_v2_identifiers l;
    return (uint64_t)perfbuf_v2_identifiers_parse(in->data, in->len, NULL, &l, NULL);
}

static uint64_t parse_instance_list(const input *in)
{
    perfbuf_v2_instance_list l;
    return (uint64_t)perfbuf_v2_instance_list_parse(in->data, in->len, NULL, &l, NULL);
}

static uint64_t parse_string_answer(const input *in)
{
    perfbuf_v2_string s;
    return (uint64_t)perfbuf_v2_string_parse(in->data, in->len, NULL, &s, NULL);
}

static uint64_t parse_countersets(const input *in)
{
    perfbuf_v2_countersets l;
    return (uint64_t)perfbuf_v2_countersets_parse(in->data, in->len, &l, NULL);
}

/* ---- V1 ---- */

static bool v1_open(const input *in, perfbuf_v1_block *b)
{
    return perfbuf_v1_parse(in->data, in->len, NULL, b, NULL) == PERFBUF_OK;
}

static uint64_t *index_slots;
static uint64_t *class_slots;

/* The documented linear walk: block index, every view, name, full name,
 * value and raw sample, and every parent unless `parents` is false. */
static uint64_t v1_walk_with(const input *in, bool parents)
{
    perfbuf_v1_block b;
    perfbuf_v1_instance_index index;
    if (!v1_open(in, &b) ||
        perfbuf_v1_block_index_build(&b, index_slots, b.index_slots, &index) != PERFBUF_OK) {
        return 0;
    }
    uint64_t sum = 0;
    perfbuf_v1_iter oi, ci, ii;
    perfbuf_v1_object o;
    static perfbuf_v1_counter counters[65536];
    perfbuf_v1_objects_begin(&b, &oi);
    while (perfbuf_v1_objects_next(&b, &oi, &o)) {
        uint32_t nc = 0;
        perfbuf_v1_counters_begin(&o, &ci);
        while (nc < 65536 && perfbuf_v1_counters_next(&b, &ci, &counters[nc])) {
            nc++;
        }
        perfbuf_raw_sample s;
        perfbuf_value_context c;
        perfbuf_v1_counter_block single;
        if (perfbuf_v1_object_counter_block(&b, &o, &single)) {
            for (uint32_t k = 0; k < nc; k++) {
                if (perfbuf_v1_raw_sample(&b, &o, &counters[k], &single, &s, &c) == PERFBUF_OK) {
                    sum += s.first;
                }
            }
        }
        perfbuf_v1_instance inst, parent;
        perfbuf_v1_instances_begin(&o, &ii);
        while (perfbuf_v1_instances_next(&b, &ii, &inst)) {
            char name[64];
            size_t len;
            if (perfbuf_v1_instance_name_utf8(&b, &inst, name, sizeof name, &len) == PERFBUF_OK) {
                sum += len;
            }
            if (perfbuf_v1_full_name_utf8(&b, &o, &inst, &index, name, sizeof name, &len) ==
                PERFBUF_OK) {
                sum += len;
            }
            if (parents && perfbuf_v1_parent(&b, &o, &inst, &index, &parent, NULL) == PERFBUF_OK) {
                sum += parent.index;
            }
            for (uint32_t k = 0; k < nc; k++) {
                sum += perfbuf_v1_counter_value(&b, &inst.counters, &counters[k]);
                if (perfbuf_counter_type_samples(counters[k].type) != 0 &&
                    perfbuf_v1_raw_sample(&b, &o, &counters[k], &inst.counters, &s, &c) ==
                        PERFBUF_OK) {
                    sum += s.first;
                }
            }
        }
    }
    return sum;
}

/* Two captures (data2 the older), every object formatted as doubles in
 * one call each (perfbuf_v1_plan_format_object_doubles), plans included. */
static uint64_t v1_doubles(const input *in)
{
    perfbuf_v1_block b1, b0;
    if (!v1_open(in, &b1) ||
        perfbuf_v1_parse(in->data2, in->len2, NULL, &b0, NULL) != PERFBUF_OK) {
        return 0;
    }
    enum { MOST_CELLS = ADV_V1_DOUBLES_ROWS * 16 };
    perfbuf_v1_plan_entry e0[16], e1[16];
    perfbuf_v1_plan p0, p1;
    double values[MOST_CELLS];
    uint8_t codes[MOST_CELLS];
    uint64_t sum = 0;
    perfbuf_v1_iter oi0, oi1;
    perfbuf_v1_object o0, o1;
    perfbuf_v1_objects_begin(&b0, &oi0);
    perfbuf_v1_objects_begin(&b1, &oi1);
    while (perfbuf_v1_objects_next(&b0, &oi0, &o0) && perfbuf_v1_objects_next(&b1, &oi1, &o1)) {
        size_t cells;
        if (perfbuf_v1_plan_build(&b0, &o0, e0, 16, &p0) != PERFBUF_OK ||
            perfbuf_v1_plan_build(&b1, &o1, e1, 16, &p1) != PERFBUF_OK ||
            perfbuf_v1_plan_format_object_doubles(&p1, &b1, &o1, &p0, &b0, &o0,
                                                  PERFBUF_FMT_DOUBLE, values, codes, MOST_CELLS,
                                                  &cells) != PERFBUF_OK) {
            return 0;
        }
        for (size_t c = 0; c < cells; c++) {
            sum += codes[c];
        }
    }
    return sum;
}

static uint64_t v1_walk(const input *in) { return v1_walk_with(in, true); }
static uint64_t v1_walk_no_parents(const input *in) { return v1_walk_with(in, false); }

static uint64_t v1_block_index(const input *in)
{
    perfbuf_v1_block b;
    perfbuf_v1_instance_index index;
    return v1_open(in, &b) &&
           perfbuf_v1_block_index_build(&b, index_slots, b.index_slots, &index) == PERFBUF_OK;
}

static uint64_t v1_find_last_object(const input *in)
{
    perfbuf_v1_block b;
    perfbuf_v1_object o;
    return v1_open(in, &b) &&
           perfbuf_v1_find_object(&b, ADV_V1_TITLE(in->n - 1), &o) == PERFBUF_OK;
}

/* Every parent through the block index, nothing else. */
static uint64_t v1_every_parent(const input *in)
{
    perfbuf_v1_block b;
    perfbuf_v1_instance_index index;
    if (!v1_open(in, &b) ||
        perfbuf_v1_block_index_build(&b, index_slots, b.index_slots, &index) != PERFBUF_OK) {
        return 0;
    }
    uint64_t sum = 0;
    perfbuf_v1_iter oi, ii;
    perfbuf_v1_object o;
    perfbuf_v1_instance inst, parent;
    perfbuf_v1_objects_begin(&b, &oi);
    while (perfbuf_v1_objects_next(&b, &oi, &o)) {
        perfbuf_v1_instances_begin(&o, &ii);
        while (perfbuf_v1_instances_next(&b, &ii, &inst)) {
            if (perfbuf_v1_parent(&b, &o, &inst, &index, &parent, NULL) == PERFBUF_OK) {
                sum += parent.index;
            }
        }
    }
    return sum;
}

/* The block index and its name classes: the sort of every instance name. */
static uint64_t v1_block_index_classes(const input *in)
{
    perfbuf_v1_block b;
    perfbuf_v1_instance_index index;
    return v1_open(in, &b) &&
           perfbuf_v1_block_index_build(&b, index_slots, b.index_slots, &index) == PERFBUF_OK &&
           perfbuf_v1_block_index_classes(&b, &index, class_slots, b.index_slots) == PERFBUF_OK;
}

/* One find_instance with the query in `in->data2` on object
 * ADV_V1_TITLE(in->object), after the block index and, for a "parent/"
 * query, its name classes: the row times what one such lookup costs a
 * caller who has neither. */
static uint64_t v1_find(const input *in)
{
    perfbuf_v1_block b;
    perfbuf_v1_object o;
    perfbuf_v1_instance_index index;
    perfbuf_v1_instance inst;
    bool parent_part = memchr(in->data2, '/', in->len2) != NULL;
    if (!v1_open(in, &b) || perfbuf_v1_find_object(&b, ADV_V1_TITLE(in->object), &o) ||
        perfbuf_v1_block_index_build(&b, index_slots, b.index_slots, &index) != PERFBUF_OK ||
        (parent_part &&
         perfbuf_v1_block_index_classes(&b, &index, class_slots, b.index_slots) != PERFBUF_OK)) {
        return 0;
    }
    return perfbuf_v1_find_instance(&b, &o, (const char *)in->data2, in->len2, &index, &inst) ==
                   PERFBUF_OK
               ? inst.index
               : 0;
}

/* A block index with name classes built once for the input, before the
 * row: a caller looking up many instances of one capture. A parse of the
 * same bytes at the same address is the same parse, so each timed call's
 * own parse accepts it. */
static uint64_t *prebuilt_slots;
static uint64_t *prebuilt_classes;
static perfbuf_v1_instance_index prebuilt;

static bool prebuild_index(const input *in)
{
    perfbuf_v1_block b;
    return v1_open(in, &b) &&
           perfbuf_v1_block_index_build(&b, prebuilt_slots, b.index_slots, &prebuilt) ==
               PERFBUF_OK &&
           perfbuf_v1_block_index_classes(&b, &prebuilt, prebuilt_classes, b.index_slots) ==
               PERFBUF_OK;
}

/* The lookup of v1_find through the prebuilt index: the parse and the call. */
static uint64_t v1_find_prebuilt(const input *in)
{
    perfbuf_v1_block b;
    perfbuf_v1_object o;
    perfbuf_v1_instance inst;
    if (!v1_open(in, &b) || perfbuf_v1_find_object(&b, ADV_V1_TITLE(in->object), &o)) {
        return 0;
    }
    return perfbuf_v1_find_instance(&b, &o, (const char *)in->data2, in->len2, &prebuilt,
                                    &inst) == PERFBUF_OK
               ? inst.index
               : 0;
}

/* Every child of object ADV_V1_TITLE(in->object): its parent and its
 * full name into a 64-byte buffer with the one-object index of object 0,
 * which parent lookups refuse in O(1) (it would scan each parent's name). */
static uint64_t v1_one_object_index(const input *in)
{
    perfbuf_v1_block b;
    perfbuf_v1_object parents, o;
    perfbuf_v1_instance_index index;
    static size_t offsets[1];
    if (!v1_open(in, &b) || perfbuf_v1_find_object(&b, ADV_V1_TITLE(0), &parents) ||
        perfbuf_v1_find_object(&b, ADV_V1_TITLE(in->object), &o) ||
        perfbuf_v1_index_build(&b, &parents, offsets, 1, &index) != PERFBUF_OK) {
        return 0;
    }
    uint64_t refused = 0;
    perfbuf_v1_iter ii;
    perfbuf_v1_instance inst, parent;
    perfbuf_v1_instances_begin(&o, &ii);
    while (perfbuf_v1_instances_next(&b, &ii, &inst)) {
        char name[64];
        size_t len;
        refused += perfbuf_v1_parent(&b, &o, &inst, &index, &parent, NULL) ==
                   PERFBUF_E_SCRATCH_NEEDED;
        refused += perfbuf_v1_full_name_utf8(&b, &o, &inst, &index, name, sizeof name, &len) ==
                   PERFBUF_E_SCRATCH_NEEDED;
    }
    return refused;
}

/* The capture paired with itself (object ADV_V1_TITLE(in->object)), then
 * the formatted array of its first counter with the path in data2 (NULL
 * when len2 is 0): the first call, and the fill when `fill` and it fits in
 * the 64 MB the bench keeps for strings. */
static perfbuf_formatted_item *array_items;
static char *array_strings;
#define ARRAY_STRING_CAP ((size_t)64 << 20)

static uint64_t v1_array_with(const input *in, bool fill)
{
    perfbuf_v1_block b;
    static uint64_t *scratch;
    static size_t scratch_cap;
    size_t slots = 0;
    if (!v1_open(in, &b) ||
        perfbuf_v1_pairing_scratch(&b, &b, ADV_V1_TITLE(in->object), &slots) != PERFBUF_OK) {
        return 0;
    }
    if (slots > scratch_cap) {
        free(scratch);
        scratch = malloc(sizeof *scratch * slots);
        scratch_cap = slots;
    }
    perfbuf_v1_pairing p;
    perfbuf_counter_path path;
    const perfbuf_counter_path *pp = NULL;
    if (in->len2 > 0) {
        if (perfbuf_path_parse((const char *)in->data2, in->len2, &path, NULL) != PERFBUF_OK) {
            return 0;
        }
        pp = &path;
    }
    if (perfbuf_v1_pair(&b, &b, ADV_V1_TITLE(in->object), scratch, slots, &p) != PERFBUF_OK) {
        return 0;
    }
    size_t count = 0, bytes = 0;
    perfbuf_status st = perfbuf_v1_formatted_array(&p, 2, pp, PERFBUF_FMT_LONG, NULL, &count, NULL,
                                                   &bytes);
    if (fill && st == PERFBUF_E_OUTPUT_TOO_SMALL && bytes <= ARRAY_STRING_CAP &&
        count <= in->n) {
        st = perfbuf_v1_formatted_array(&p, 2, pp, PERFBUF_FMT_LONG, array_items, &count,
                                        array_strings, &bytes);
    }
    return st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL ? bytes + count : 0;
}

static uint64_t v1_array_size(const input *in) { return v1_array_with(in, false); }
static uint64_t v1_array_fill(const input *in) { return v1_array_with(in, true); }

/* Every counter of the newer capture (data) read from the older (data2),
 * laid out alike or not. */
static uint64_t v1_raw_sample_other_capture(const input *in)
{
    perfbuf_v1_block b1, b0;
    perfbuf_v1_object o1, o0;
    perfbuf_v1_counter_block blk;
    if (!v1_open(in, &b1) || perfbuf_v1_parse(in->data2, in->len2, NULL, &b0, NULL) ||
        perfbuf_v1_find_object(&b1, ADV_V1_TITLE(0), &o1) ||
        perfbuf_v1_find_object(&b0, ADV_V1_TITLE(0), &o0) ||
        !perfbuf_v1_object_counter_block(&b0, &o0, &blk)) {
        return 0;
    }
    uint64_t sum = 0;
    perfbuf_v1_iter ci;
    perfbuf_v1_counter c;
    perfbuf_raw_sample s;
    perfbuf_value_context ctx;
    perfbuf_v1_counters_begin(&o1, &ci);
    for (uint32_t k = 0; k < in->n && perfbuf_v1_counters_next(&b1, &ci, &c); k++) {
        if (perfbuf_v1_raw_sample(&b0, &o0, &c, &blk, &s, &ctx) == PERFBUF_OK) {
            sum += s.first;
        }
    }
    return sum;
}

/* The last instance's name (the long one) into a buffer that holds it. */
static uint64_t v1_long_name(const input *in)
{
    perfbuf_v1_block b;
    perfbuf_v1_object o;
    static char out[3 * 4000000 + 1];
    if (!v1_open(in, &b) || perfbuf_v1_find_object(&b, ADV_V1_TITLE(0), &o)) {
        return 0;
    }
    perfbuf_v1_iter ii;
    perfbuf_v1_instance inst, last;
    perfbuf_v1_instances_begin(&o, &ii);
    while (perfbuf_v1_instances_next(&b, &ii, &inst)) {
        last = inst;
    }
    size_t len = 0;
    return perfbuf_v1_instance_name_utf8(&b, &last, out, sizeof out, &len) == PERFBUF_OK ? len : 0;
}

/* ---- name tables ---- */

static perfbuf_name_slot *name_slots;

static uint64_t names_index(const input *in)
{
    perfbuf_name_table t;
    perfbuf_name_index index;
    return perfbuf_names_parse(in->data, in->len, NULL, &t, NULL) == PERFBUF_OK &&
           perfbuf_names_index_build(&t, name_slots, t.count, &index) == PERFBUF_OK;
}

static uint64_t names_walk(const input *in)
{
    perfbuf_name_table t;
    perfbuf_name_index index;
    if (perfbuf_names_parse(in->data, in->len, NULL, &t, NULL) != PERFBUF_OK ||
        perfbuf_names_index_build(&t, name_slots, t.count, &index) != PERFBUF_OK) {
        return 0;
    }
    uint64_t sum = 0;
    perfbuf_names_iter it;
    perfbuf_name_entry e, found;
    perfbuf_names_begin(&t, &it);
    while (perfbuf_names_next(&t, &it, &e)) {
        char text[64];
        size_t len;
        if (perfbuf_names_text_utf8(&t, &e, text, sizeof text, &len) == PERFBUF_OK &&
            perfbuf_names_index_find(&t, &index, e.title_index, &found) == PERFBUF_OK) {
            sum += len + found.offset;
        }
    }
    return sum;
}

static uint64_t names_find_last(const input *in)
{
    perfbuf_name_table t;
    perfbuf_name_entry e;
    return perfbuf_names_parse(in->data, in->len, NULL, &t, NULL) == PERFBUF_OK &&
           perfbuf_names_find(&t, ADV_NAMES_BASE + 2 * in->n, &e) == PERFBUF_OK;
}

/* ---- V2 query data ---- */

static uint64_t v2_walk(const input *in)
{
    perfbuf_v2_query q;
    if (perfbuf_v2_query_parse(in->data, in->len, NULL, &q, NULL) != PERFBUF_OK) {
        return 0;
    }
    uint64_t sum = 0;
    perfbuf_v2_iter bi, ii, vi;
    perfbuf_v2_block blk;
    perfbuf_v2_instance inst;
    perfbuf_v2_value v;
    perfbuf_v2_blocks_begin(&q, &bi);
    while (perfbuf_v2_blocks_next(&q, &bi, &blk)) {
        for (uint32_t i = 0; i < blk.counter_count; i++) {
            sum += perfbuf_v2_block_counter_id(&q, &blk, i);
        }
        perfbuf_v2_block_values_begin(&blk, &vi);
        while (perfbuf_v2_values_next(&q, &blk, &vi, &v)) {
            sum += v.integer;
        }
        perfbuf_v2_instances_begin(&blk, &ii);
        while (perfbuf_v2_instances_next(&q, &blk, &ii, &inst)) {
            char name[64];
            size_t len;
            if (perfbuf_v2_instance_name_utf8(&q, &inst, name, sizeof name, &len) == PERFBUF_OK) {
                sum += len;
            }
            perfbuf_v2_instance_values_begin(&inst, &vi);
            while (perfbuf_v2_values_next(&q, &blk, &vi, &v)) {
                sum += v.integer;
            }
        }
    }
    return sum;
}

static uint64_t v2_long_name(const input *in)
{
    perfbuf_v2_query q;
    static char out[3 * 2000000 + 1];
    if (perfbuf_v2_query_parse(in->data, in->len, NULL, &q, NULL) != PERFBUF_OK) {
        return 0;
    }
    perfbuf_v2_iter bi, ii;
    perfbuf_v2_block blk;
    perfbuf_v2_instance inst;
    perfbuf_v2_blocks_begin(&q, &bi);
    size_t len = 0;
    if (perfbuf_v2_blocks_next(&q, &bi, &blk)) {
        perfbuf_v2_instances_begin(&blk, &ii);
        if (perfbuf_v2_instances_next(&q, &blk, &ii, &inst) &&
            perfbuf_v2_instance_name_utf8(&q, &inst, out, sizeof out, &len) == PERFBUF_OK) {
            return len;
        }
    }
    return 0;
}

/* ---- V2 metadata ---- */

static uint64_t *scratch;

static uint64_t reginfo_indexed(const input *in)
{
    perfbuf_v2_reginfo r;
    return (uint64_t)perfbuf_v2_reginfo_parse_indexed(in->data, in->len, NULL, scratch, in->n, &r,
                                                      NULL);
}

static uint64_t reginfo_find_every(const input *in)
{
    perfbuf_v2_reginfo r;
    if (perfbuf_v2_reginfo_parse_indexed(in->data, in->len, NULL, scratch, in->n, &r, NULL) !=
        PERFBUF_OK) {
        return 0;
    }
    uint64_t sum = 0;
    perfbuf_v2_counter_reg c;
    for (uint32_t id = 0; id < in->n; id++) {
        if (perfbuf_v2_reginfo_find(&r, id, &c) == PERFBUF_OK) {
            sum += c.index;
        }
    }
    return sum;
}

static uint64_t strings_indexed(const input *in)
{
    perfbuf_v2_strings s;
    return perfbuf_v2_strings_parse_indexed(in->data, in->len, PERFBUF_V2_STRINGS_AUTO,
                                            &many_counters, scratch, in->n, &s,
                                            NULL) == PERFBUF_OK
               ? s.count
               : 0;
}

static uint64_t strings_walk(const input *in)
{
    perfbuf_v2_strings s;
    if (perfbuf_v2_strings_parse_indexed(in->data, in->len, PERFBUF_V2_STRINGS_AUTO,
                                         &many_counters, scratch, in->n, &s, NULL) != PERFBUF_OK) {
        return 0;
    }
    uint64_t sum = 0;
    perfbuf_v2_counter_string str, found;
    for (uint32_t i = 0; i < s.count; i++) {
        char text[64];
        size_t len;
        if (perfbuf_v2_strings_get(&s, i, &str) &&
            perfbuf_v2_counter_string_utf8(&s, &str, text, sizeof text, &len) == PERFBUF_OK &&
            perfbuf_v2_strings_find(&s, str.counter_id, &found) == PERFBUF_OK) {
            sum += len + found.index;
        }
    }
    return sum;
}

static uint64_t identifiers_walk(const input *in)
{
    perfbuf_v2_identifiers l;
    if (perfbuf_v2_identifiers_parse(in->data, in->len, NULL, &l, NULL) != PERFBUF_OK) {
        return 0;
    }
    uint64_t sum = 0;
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifier id;
    perfbuf_v2_identifiers_begin(&it);
    while (perfbuf_v2_identifiers_next(&l, &it, &id)) {
        char name[64];
        size_t len;
        if (perfbuf_v2_identifier_name_utf8(&l, &id, name, sizeof name, &len) == PERFBUF_OK) {
            sum += len;
        }
    }
    return sum;
}

static uint64_t instance_list_walk(const input *in)
{
    perfbuf_v2_instance_list l;
    if (perfbuf_v2_instance_list_parse(in->data, in->len, NULL, &l, NULL) != PERFBUF_OK) {
        return 0;
    }
    uint64_t sum = 0;
    perfbuf_v2_list_iter it;
    perfbuf_v2_listed_instance inst;
    perfbuf_v2_instance_list_begin(&it);
    while (perfbuf_v2_instance_list_next(&l, &it, &inst)) {
        char name[64];
        size_t len;
        if (perfbuf_v2_listed_name_utf8(&l, &inst, name, sizeof name, &len) == PERFBUF_OK) {
            sum += len;
        }
    }
    return sum;
}

static uint64_t countersets_walk(const input *in)
{
    perfbuf_v2_countersets l;
    perfbuf_guid g;
    uint64_t sum = 0;
    if (perfbuf_v2_countersets_parse(in->data, in->len, &l, NULL) == PERFBUF_OK) {
        for (size_t i = 0; perfbuf_v2_countersets_get(&l, i, &g); i++) {
            sum += g.data1;
        }
    }
    return sum;
}

static uint64_t string_answer_utf8(const input *in)
{
    perfbuf_v2_string s;
    static char out[3 * 2000000 + 1];
    size_t len = 0;
    return perfbuf_v2_string_parse(in->data, in->len, NULL, &s, NULL) == PERFBUF_OK &&
                   perfbuf_v2_string_utf8(&s, out, sizeof out, &len) == PERFBUF_OK
               ? len
               : 0;
}

/* Query data (data), identifiers (data2, may be absent), registration
 * (data3): all three parsed and cross-checked, with scratch when the
 * identifiers are out of order. */
static uint64_t crosscheck(const input *in)
{
    perfbuf_v2_query q;
    perfbuf_v2_identifiers l;
    perfbuf_v2_reginfo r;
    perfbuf_v2_mismatch m;
    if (perfbuf_v2_query_parse(in->data, in->len, NULL, &q, NULL) != PERFBUF_OK ||
        perfbuf_v2_reginfo_parse(in->data3, in->len3, NULL, &r, NULL) != PERFBUF_OK) {
        return 0;
    }
    if (in->data2 == NULL) {
        return perfbuf_v2_crosscheck(&q, &r, NULL, &m) == PERFBUF_OK;
    }
    if (perfbuf_v2_identifiers_parse(in->data2, in->len2, NULL, &l, NULL) != PERFBUF_OK) {
        return 0;
    }
    return perfbuf_v2_crosscheck_indexed(&q, &r, &l, scratch, l.count, &m) == PERFBUF_OK;
}

/* Every registered counter (data3) of every block with an id list. */
static uint64_t v2_raw_samples(const input *in)
{
    perfbuf_v2_query q;
    perfbuf_v2_reginfo r;
    if (perfbuf_v2_query_parse(in->data, in->len, NULL, &q, NULL) != PERFBUF_OK ||
        perfbuf_v2_reginfo_parse(in->data3, in->len3, NULL, &r, NULL) != PERFBUF_OK) {
        return 0;
    }
    uint64_t sum = 0;
    perfbuf_v2_iter bi, ii;
    perfbuf_v2_block blk;
    perfbuf_v2_instance inst;
    perfbuf_raw_sample s;
    perfbuf_value_context c;
    perfbuf_v2_blocks_begin(&q, &bi);
    while (perfbuf_v2_blocks_next(&q, &bi, &blk)) {
        if (blk.kind == PERFBUF_V2_MULTIPLE_COUNTERS) {
            for (uint32_t k = 0; k < r.counter_count; k++) {
                sum += perfbuf_v2_raw_sample(&q, &blk, NULL, &r, k, &s, &c) == PERFBUF_OK;
            }
        }
        if (blk.kind != PERFBUF_V2_COUNTERSET) {
            continue;
        }
        perfbuf_v2_instances_begin(&blk, &ii);
        while (perfbuf_v2_instances_next(&q, &blk, &ii, &inst)) {
            for (uint32_t k = 0; k < r.counter_count; k++) {
                sum += perfbuf_v2_raw_sample(&q, &blk, &inst, &r, k, &s, &c) == PERFBUF_OK;
            }
        }
    }
    return sum;
}

/* Every registered counter of every instance sampled in both captures at
 * once (data: the newer, data2: the older, data3: the registration), each
 * id one position later in the older so no hint the newer side finds holds. */
static uint64_t v2_raw_sample_pairs(const input *in)
{
    perfbuf_v2_query newer, older;
    perfbuf_v2_reginfo r;
    if (perfbuf_v2_query_parse(in->data, in->len, NULL, &newer, NULL) != PERFBUF_OK ||
        perfbuf_v2_query_parse(in->data2, in->len2, NULL, &older, NULL) != PERFBUF_OK ||
        perfbuf_v2_reginfo_parse(in->data3, in->len3, NULL, &r, NULL) != PERFBUF_OK) {
        return 0;
    }
    uint64_t sum = 0;
    perfbuf_v2_iter nb_it, ob_it, ni_it, oi_it;
    perfbuf_v2_block nb, ob;
    perfbuf_v2_instance ni, oi;
    perfbuf_raw_sample ns, os;
    perfbuf_value_context nc, oc;
    perfbuf_status older_status;
    perfbuf_v2_blocks_begin(&newer, &nb_it);
    perfbuf_v2_blocks_begin(&older, &ob_it);
    while (perfbuf_v2_blocks_next(&newer, &nb_it, &nb) &&
           perfbuf_v2_blocks_next(&older, &ob_it, &ob)) {
        if (nb.kind != PERFBUF_V2_COUNTERSET || ob.kind != PERFBUF_V2_COUNTERSET) {
            continue;
        }
        perfbuf_v2_instances_begin(&nb, &ni_it);
        perfbuf_v2_instances_begin(&ob, &oi_it);
        while (perfbuf_v2_instances_next(&newer, &nb, &ni_it, &ni) &&
               perfbuf_v2_instances_next(&older, &ob, &oi_it, &oi)) {
            for (uint32_t k = 0; k < r.counter_count; k++) {
                sum += perfbuf_v2_raw_sample_pair(&newer, &nb, &ni, &older, &ob, &oi, &r, k, &ns,
                                                  &nc, &os, &oc, &older_status) == PERFBUF_OK;
            }
        }
    }
    return sum;
}

/* Two captures of adv_v2_doubles_worst (data the newer, data2 the older,
 * data3 the registration), every block formatted as doubles in one call
 * each (perfbuf_v2_plan_format_block_doubles), plans included. */
static uint64_t v2_doubles(const input *in)
{
    perfbuf_v2_query newer, older;
    perfbuf_v2_reginfo r;
    if (perfbuf_v2_query_parse(in->data, in->len, NULL, &newer, NULL) != PERFBUF_OK ||
        perfbuf_v2_query_parse(in->data2, in->len2, NULL, &older, NULL) != PERFBUF_OK ||
        perfbuf_v2_reginfo_parse(in->data3, in->len3, NULL, &r, NULL) != PERFBUF_OK) {
        return 0;
    }
    enum { COUNT = ADV_V2_DOUBLES_COUNTERS, MOST_CELLS = ADV_V2_DOUBLES_ROWS * COUNT };
    perfbuf_v2_plan_entry entries[COUNT];
    uint32_t plan_scratch[COUNT];
    static uint64_t rows[PERFBUF_V2_FORMAT_SCRATCH(COUNT)];
    perfbuf_v2_plan plan;
    double values[MOST_CELLS];
    uint8_t codes[MOST_CELLS];
    uint64_t sum = 0;
    perfbuf_v2_iter nb_it, ob_it;
    perfbuf_v2_block nb, ob;
    perfbuf_v2_blocks_begin(&newer, &nb_it);
    perfbuf_v2_blocks_begin(&older, &ob_it);
    while (perfbuf_v2_blocks_next(&newer, &nb_it, &nb) &&
           perfbuf_v2_blocks_next(&older, &ob_it, &ob)) {
        size_t cells;
        if (perfbuf_v2_plan_build(&newer, &nb, &r, entries, COUNT, plan_scratch, COUNT, &plan) !=
                PERFBUF_OK ||
            perfbuf_v2_plan_format_block_doubles(&newer, &nb, &older, &ob, &plan,
                                                 PERFBUF_FMT_DOUBLE, rows,
                                                 PERFBUF_V2_FORMAT_SCRATCH(COUNT), values, codes,
                                                 MOST_CELLS, &cells) != PERFBUF_OK) {
            return 0;
        }
        for (size_t c = 0; c < cells; c++) {
            sum += codes[c];
        }
    }
    return sum;
}

/* Every counter of every instance through a value index built once per
 * instance: the linear way to sample a whole instance. */
static uint64_t v2_indexed_samples(const input *in)
{
    perfbuf_v2_query q;
    perfbuf_v2_reginfo r;
    if (perfbuf_v2_query_parse(in->data, in->len, NULL, &q, NULL) != PERFBUF_OK ||
        perfbuf_v2_reginfo_parse(in->data3, in->len3, NULL, &r, NULL) != PERFBUF_OK) {
        return 0;
    }
    uint64_t sum = 0;
    perfbuf_v2_iter bi, ii;
    perfbuf_v2_block blk;
    perfbuf_v2_instance inst;
    perfbuf_raw_sample s;
    perfbuf_value_context c;
    perfbuf_v2_blocks_begin(&q, &bi);
    while (perfbuf_v2_blocks_next(&q, &bi, &blk)) {
        if (blk.kind != PERFBUF_V2_COUNTERSET) {
            continue;
        }
        size_t cap = perfbuf_v2_value_index_slots(&blk);
        uint64_t *slots = malloc(sizeof *slots * cap);
        if (slots == NULL) {
            return 0;
        }
        perfbuf_v2_instances_begin(&blk, &ii);
        while (perfbuf_v2_instances_next(&q, &blk, &ii, &inst)) {
            perfbuf_v2_value_index index;
            if (perfbuf_v2_value_index_build(&q, &blk, &inst, slots, cap, &index) != PERFBUF_OK) {
                continue;
            }
            for (uint32_t k = 0; k < r.counter_count; k++) {
                sum += perfbuf_v2_raw_sample_indexed(&q, &blk, &inst, &r, &index, k, &s, &c) ==
                       PERFBUF_OK;
            }
        }
        free(slots);
    }
    return sum;
}

/* Every counter of every instance through a value plan, one
 * perfbuf_v2_plan_samples call per instance, on inputs where the walk
 * decides which value counts (adv_plan_irregular). */
static uint64_t v2_plan_samples(const input *in)
{
    perfbuf_v2_query q;
    perfbuf_v2_reginfo r;
    if (perfbuf_v2_query_parse(in->data, in->len, NULL, &q, NULL) != PERFBUF_OK ||
        perfbuf_v2_reginfo_parse(in->data3, in->len3, NULL, &r, NULL) != PERFBUF_OK) {
        return 0;
    }
    perfbuf_v2_iter bi, ii;
    perfbuf_v2_block blk;
    perfbuf_v2_instance inst;
    perfbuf_v2_blocks_begin(&q, &bi);
    if (!perfbuf_v2_blocks_next(&q, &bi, &blk)) {
        return 0;
    }
    uint32_t count = blk.counter_count;
    perfbuf_v2_plan_entry *entries = malloc(sizeof *entries * count);
    uint32_t *plan_scratch = malloc(sizeof *plan_scratch * r.counter_count);
    uint64_t *values = malloc(sizeof *values * count);
    perfbuf_raw_sample *samples = malloc(sizeof *samples * count);
    perfbuf_value_context *contexts = malloc(sizeof *contexts * count);
    perfbuf_status *statuses = malloc(sizeof *statuses * count);
    uint64_t sum = 0;
    perfbuf_v2_plan plan;
    if (entries != NULL && plan_scratch != NULL && values != NULL && samples != NULL &&
        contexts != NULL && statuses != NULL &&
        perfbuf_v2_plan_build(&q, &blk, &r, entries, count, plan_scratch, r.counter_count,
                              &plan) == PERFBUF_OK) {
        perfbuf_v2_values_read_result read;
        perfbuf_v2_instances_begin(&blk, &ii);
        while (perfbuf_v2_instances_next_values(&q, &blk, &ii, &inst, values, count, &read) ==
               PERFBUF_OK) {
            if (perfbuf_v2_plan_samples(&q, &blk, &inst, &r, &plan, values, &read, samples,
                                        contexts, statuses, count) != PERFBUF_OK) {
                continue;
            }
            for (uint32_t p = 0; p < count; p++) {
                sum += statuses[p] == PERFBUF_OK ? samples[p].second : 0;
            }
        }
    }
    free(entries);
    free(plan_scratch);
    free(values);
    free(samples);
    free(contexts);
    free(statuses);
    return sum;
}

/* ---- text and values ---- */

static char *text_out;

static uint64_t utf16_whole(const input *in)
{
    size_t len = 0;
    return perfbuf_utf16le_to_utf8(in->data, in->len, text_out, 3 * in->len + 1, &len) ==
                   PERFBUF_OK
               ? len
               : 0;
}

static uint64_t code_page_whole(const input *in)
{
    size_t len = 0;
    return perfbuf_codepage_to_utf8(in->code_page, in->data, in->len, text_out, 3 * in->len + 1,
                                    &len) == PERFBUF_OK
               ? len
               : 0;
}

static uint64_t statistics(const input *in)
{
    perfbuf_value_context c = {1000, 0};
    perfbuf_statistics st;
    return perfbuf_compute_statistics(PERF_COUNTER_COUNTER, &c, PERFBUF_FMT_DOUBLE, in->n / 3,
                                      in->n, in->samples, &st) == PERFBUF_CSTATUS_VALID_DATA
               ? st.count
               : 0;
}

/* ---- the table ---- */

static input of(const tb_buf *b, uint32_t n)
{
    input in;
    memset(&in, 0, sizeof in);
    in.data = b->data;
    in.len = b->len;
    in.n = n;
    return in;
}

static void v1_rows(void)
{
    header("V1 data blocks");
    tb_buf b = adv_v1_many_objects(7000);
    input in = of(&b, 7000);
    row("perfbuf_v1_parse: n objects", &in, parse_v1, parse_v1);
    row("walk: n objects, parents in the previous", &in, v1_walk, parse_v1);
    row("perfbuf_v1_block_index_build: n objects", &in, v1_block_index, parse_v1);
    row("perfbuf_v1_find_object: last of n", &in, v1_find_last_object, parse_v1);
    tb_free(&b);

    b = adv_v1_many_instances(14000);
    in = of(&b, 14000);
    row("walk: n parents, n children (far end first)", &in, v1_walk, parse_v1);
    row("perfbuf_v1_parent, every child, block index", &in, v1_every_parent, parse_v1);
    char query[64];
    int qlen = snprintf(query, sizeof query, "p0/c%u", 14000 - 1);
    in.data2 = (const uint8_t *)query;
    in.len2 = (size_t)qlen;
    in.object = 1;
    row("perfbuf_v1_find_instance: \"p0/c<n-1>\", block index + classes", &in, v1_find, parse_v1);
    tb_free(&b);

    b = adv_v1_same_names(28000);
    in = of(&b, 28000);
    qlen = snprintf(query, sizeof query, "svchost#%u", 28000 - 1);
    in.data2 = (const uint8_t *)query;
    in.len2 = (size_t)qlen;
    row("perfbuf_v1_find_instance: \"svchost#<n-1>\" of n svchost", &in, v1_find, parse_v1);
    tb_free(&b);

    /* Names that share a 64-character prefix, each with a twin in the other
     * case, in descending order: every comparison of the sort reads the
     * prefix (its documented O((name bytes + instances) x log n)). */
    b = adv_v1_shared_prefix(11000, 64);
    in = of(&b, 11000);
    row("perfbuf_v1_block_index_classes: n names, one 64-char prefix", &in,
        v1_block_index_classes, parse_v1);
    tb_free(&b);

    b = adv_v1_many_counters(48000, 0);
    tb_buf same = adv_v1_many_counters(48000, 0);
    tb_buf moved = adv_v1_many_counters(48000, 1);
    in = of(&b, 48000);
    row("walk: n counter definitions, one block", &in, v1_walk, parse_v1);
    in.data2 = same.data;
    in.len2 = same.len;
    row("perfbuf_v1_raw_sample: every counter, other capture alike", &in,
        v1_raw_sample_other_capture, parse_v1);
    /* A counter of a reordered capture is O(definitions) per call, as v1.h
     * documents: one call (every counter would be n^2, which v1.h tells a
     * collector to avoid by taking each capture's own definitions). */
    in.data2 = moved.data;
    in.len2 = moved.len;
    in.n = 1;
    row("perfbuf_v1_raw_sample: one counter, capture reordered", &in,
        v1_raw_sample_other_capture, parse_v1);
    tb_free(&same);
    tb_free(&moved);
    tb_free(&b);

    b = adv_v1_doubles_worst(60000, 1);
    tb_buf older = adv_v1_doubles_worst(60000, 0);
    in = of(&b, 60000);
    in.data2 = older.data;
    in.len2 = older.len;
    row("perfbuf_v1_plan_format_object_doubles: objects of 33, two captures", &in, v1_doubles,
        parse_v1);
    tb_free(&older);
    tb_free(&b);

    b = adv_v1_long_parent(30000);
    in = of(&b, 30000);
    row("walk without parents: n children of one n-char parent", &in, v1_walk_no_parents,
        parse_v1);
    row("perfbuf_v1_parent, every child of one n-char parent", &in, v1_every_parent, parse_v1);
    char *long_query = malloc(30000 + 32);
    memset(long_query, 'p', 30000);
    qlen = snprintf(long_query + 30000, 32, "/c#%u", 30000 - 1);
    in.data2 = (const uint8_t *)long_query;
    in.len2 = 30000 + (size_t)qlen;
    in.object = 1;
    row("perfbuf_v1_find_instance: \"<n-char parent>/c#<n-1>\"", &in, v1_find, parse_v1);
    tb_free(&b);

    b = adv_v1_two_parents(30000);
    in = of(&b, 30000);
    row("walk without parents: n children, two n-char parents", &in, v1_walk_no_parents, parse_v1);
    /* The parent part is compared with the block's names once per call,
     * each candidate's parent by its name class: 256 characters, then
     * PDH's longest, 1,024, both prefixes of the two parents' names. */
    qlen = snprintf(long_query + 256, 32, "/c#%u", 30000 / 2 - 1);
    in.data2 = (const uint8_t *)long_query;
    in.len2 = 256 + (size_t)qlen;
    in.object = 2;
    row("perfbuf_v1_find_instance: 256-char parent part, two parents", &in, v1_find, parse_v1);
    memset(long_query, 'p', 1024);
    qlen = snprintf(long_query + 1024, 32, "/c#%u", 30000 / 2 - 1);
    in.len2 = 1024 + (size_t)qlen;
    row("perfbuf_v1_find_instance: 1,024-char parent part, two parents", &in, v1_find, parse_v1);
    if (prebuild_index(&in)) {
        row("perfbuf_v1_find_instance: 1,024-char part, index built once", &in,
            v1_find_prebuilt, parse_v1);
    }
    row("parent + full name, every child, one-object index (refused)", &in, v1_one_object_index,
        parse_v1);
    /* Arrays over the pairing: a path naming a parent that is not there,
     * compared with each child's parent (64 characters, then 1,024, PDH's
     * longest); every item's size; and the fill, each child's copy of its
     * parent cut at PERFBUF_ARRAY_PARENT_MAX_BYTES. */
    array_items = malloc(sizeof *array_items * 30000);
    array_strings = malloc(ARRAY_STRING_CAP);
    memset(long_query, 'p', 30000);
    char *path_text = malloc(2048);
    int plen = snprintf(path_text, 2048, "\\O(%.64s/c)\\C", long_query);
    in.data2 = (const uint8_t *)path_text;
    in.len2 = (size_t)plen;
    row("pair + formatted array: path naming no parent, 64-char part", &in, v1_array_fill,
        parse_v1);
    plen = snprintf(path_text, 2048, "\\O(%.1024s/c)\\C", long_query);
    in.len2 = (size_t)plen;
    row("pair + formatted array: path naming no parent, 1,024-char part", &in, v1_array_fill,
        parse_v1);
    in.len2 = 0;
    row("pair + formatted array: size call, every child (cut parents)", &in, v1_array_size,
        parse_v1);
    row("pair + formatted array: fill, every child (cut parents)", &in, v1_array_fill, parse_v1);
    free(path_text);
    free(array_items);
    free(array_strings);
    free(long_query);
    tb_free(&b);

    static const uint32_t pages[3] = {1252, 65001, 20127};
    for (int k = 0; k < 3; k++) {
        b = adv_v1_code_page(28000, pages[k]);
        in = of(&b, 28000);
        char what[96];
        snprintf(what, sizeof what, "walk: code page %u, invalid bytes", pages[k]);
        row(what, &in, v1_walk, parse_v1);
        tb_free(&b);
    }
    b = adv_v1_long_name(2000000, 65001);
    in = of(&b, 2000000);
    row("perfbuf_v1_instance_name_utf8: one 2 MB cp 65001 name", &in, v1_long_name, parse_v1);
    tb_free(&b);
}

static void names_rows(void)
{
    header("V1 name tables");
    name_slots = malloc(sizeof *name_slots * 60000);
    for (int order = 0; order < 3; order++) {
        tb_buf b = adv_names(60000, order);
        input in = of(&b, 60000);
        static const char *const what[3] = {"ascending", "descending", "all one index"};
        char label[96];
        snprintf(label, sizeof label, "perfbuf_names_index_build: n pairs, %s", what[order]);
        row(label, &in, names_index, parse_names);
        snprintf(label, sizeof label, "walk, text + index lookup of each: %s", what[order]);
        row(label, &in, names_walk, parse_names);
        if (order == 0) {
            row("perfbuf_names_find: last of n", &in, names_find_last, parse_names);
        }
        tb_free(&b);
    }
    free(name_slots);
    tb_buf b = adv_names_long_text(1000000);
    input in = of(&b, 1000000);
    row("perfbuf_names_parse: one 1M-character text", &in, parse_names, parse_names);
    tb_free(&b);
}

static void v2_rows(void)
{
    header("V2 query data");
    tb_v2 v = adv_v2_many_blocks(21000);
    input in = of(&v.buf, 21000);
    row("perfbuf_v2_query_parse: n blocks of all kinds", &in, parse_v2, parse_v2);
    row("walk: n blocks of all kinds", &in, v2_walk, parse_v2);
    tb_free(&v.buf);
    v = adv_v2_wide(36000);
    in = of(&v.buf, 36000);
    row("walk: n counters in two blocks", &in, v2_walk, parse_v2);
    tb_free(&v.buf);
    v = adv_v2_many_instances(24000);
    in = of(&v.buf, 24000);
    row("walk: n instances", &in, v2_walk, parse_v2);
    tb_free(&v.buf);
    v = adv_v2_long_name(1000000);
    in = of(&v.buf, 1000000);
    row("perfbuf_v2_instance_name_utf8: one 1M-unit name", &in, v2_long_name, parse_v2);
    tb_free(&v.buf);
}

static void meta_rows(void)
{
    header("V2 metadata");
    scratch = malloc(sizeof *scratch * 400000);
    tb_buf b = adv_reginfo_refs(42000, 0);
    input in = of(&b, 42000);
    row("perfbuf_v2_reginfo_parse: n counters naming the last four", &in, parse_reginfo,
        parse_reginfo);
    tb_free(&b);
    b = adv_reginfo_refs(42000, 1);
    in = of(&b, 42000);
    row("perfbuf_v2_reginfo_parse: the same, ids descending (refused)", &in, parse_reginfo,
        parse_reginfo);
    row("perfbuf_v2_reginfo_parse_indexed: ids descending", &in, reginfo_indexed, parse_reginfo);
    row("perfbuf_v2_reginfo_find: every id, descending", &in, reginfo_find_every, parse_reginfo);
    tb_free(&b);

    static const char *const shapes[3] = {"n own strings", "n headers, one string",
                                          "n headers, one n-char string (refused)"};
    static const uint32_t counts[3] = {100000, 170000, 200000};
    for (int shape = 0; shape < 3; shape++) {
        b = adv_strings(counts[shape], shape, 0);
        in = of(&b, counts[shape]);
        char label[96];
        snprintf(label, sizeof label, "perfbuf_v2_strings_parse: %s", shapes[shape]);
        row(label, &in, parse_strings, parse_strings);
        if (shape < 2) {
            snprintf(label, sizeof label, "strings walk, get + utf8 + find: %s", shapes[shape]);
            row(label, &in, strings_walk, parse_strings);
        }
        tb_free(&b);
    }
    b = adv_strings(100000, 0, 1);
    in = of(&b, 100000);
    row("perfbuf_v2_strings_parse_indexed: ids descending", &in, strings_indexed, parse_strings);
    row("strings walk: ids descending", &in, strings_walk, parse_strings);
    tb_free(&b);

    b = adv_identifiers(36000, adv_guid);
    in = of(&b, 36000);
    row("identifiers: parse + every name", &in, identifiers_walk, parse_identifiers);
    tb_free(&b);
    b = adv_identifier_long_name(1000000);
    in = of(&b, 1000000);
    row("identifiers: one 1M-unit name", &in, identifiers_walk, parse_identifiers);
    tb_free(&b);
    b = adv_instance_list(85000);
    in = of(&b, 85000);
    row("instance list: parse + every name", &in, instance_list_walk, parse_instance_list);
    tb_free(&b);
    b = adv_countersets(128000);
    in = of(&b, 128000);
    row("counterset list: parse + every GUID", &in, countersets_walk, parse_countersets);
    tb_free(&b);
    b = adv_string_answer(1000000);
    in = of(&b, 1000000);
    row("string answer: parse + utf8 of 1M units", &in, string_answer_utf8, parse_string_answer);
    tb_free(&b);

    {
        tb_v2 newer = adv_v2_doubles_worst(60000, 1);
        tb_v2 older = adv_v2_doubles_worst(60000, 0);
        tb_buf doubles_registration = adv_v2_doubles_registration();
        in = of(&newer.buf, 60000);
        in.data2 = older.buf.data;
        in.len2 = older.buf.len;
        in.data3 = doubles_registration.data;
        in.len3 = doubles_registration.len;
        row("perfbuf_v2_plan_format_block_doubles: blocks of 33, two captures", &in, v2_doubles,
            parse_v2);
        tb_free(&doubles_registration);
        tb_free(&older.buf);
        tb_free(&newer.buf);
    }

    tb_buf registration = adv_crosscheck_registration();
    static const char *const ids_shapes[4] = {"identifiers in Index order", "one swapped pair",
                                              "+ failed identifiers past the blocks",
                                              "+ other counterset past the blocks"};
    for (int shape = 0; shape < 4; shape++) {
        tb_v2 query;
        tb_buf ids;
        adv_crosscheck(10000, shape, &query, &ids);
        in = of(&query.buf, 10000);
        in.data2 = ids.data;
        in.len2 = ids.len;
        in.data3 = registration.data;
        in.len3 = registration.len;
        char label[96];
        snprintf(label, sizeof label, "crosscheck_indexed: n blocks, %s", ids_shapes[shape]);
        row(label, &in, crosscheck, parse_v2);
        if (shape == 0) {
            in.data2 = NULL;
            row("crosscheck: n blocks, no identifiers", &in, crosscheck, parse_v2);
            row("perfbuf_v2_raw_sample: 8 counters of n blocks' instances", &in, v2_raw_samples,
                parse_v2);
        }
        tb_free(&query.buf);
        tb_free(&ids);
    }
    tb_free(&registration);
    tb_v2 wide;
    adv_crosscheck_wide(48000, &wide, &registration);
    in = of(&wide.buf, 48000);
    in.data3 = registration.data;
    in.len3 = registration.len;
    row("crosscheck: one block of n counters", &in, crosscheck, parse_v2);
    tb_free(&wide.buf);
    tb_free(&registration);
    adv_crosscheck_wide(48000, &wide, &registration);
    in = of(&wide.buf, 48000);
    in.data3 = registration.data;
    in.len3 = registration.len;
    row("raw_sample_indexed: every counter of n-counter instances", &in, v2_indexed_samples,
        parse_v2);
    tb_free(&wide.buf);
    tb_free(&registration);
    tb_v2 pair_newer, pair_older;
    adv_sample_pair(48000, &pair_newer, &pair_older, &registration);
    in = of(&pair_newer.buf, 48000);
    in.data2 = pair_older.buf.data;
    in.len2 = pair_older.buf.len;
    in.data3 = registration.data;
    in.len3 = registration.len;
    row("raw_sample_pair: every counter, no position shared", &in, v2_raw_sample_pairs, parse_v2);
    tb_free(&pair_newer.buf);
    tb_free(&pair_older.buf);
    tb_free(&registration);
    /* 16,384 counters, and the default cap of 65,536 (the repeated shape
     * lists four ids twice, so n + 4 positions fit the cap). */
    static const struct {
        uint32_t n;
        int shape;
        const char *label;
    } plans[4] = {
        {16384, ADV_PLAN_ONE_WIDE, "plan_samples: 16,384 counters, one 16-byte value"},
        {65536, ADV_PLAN_ONE_WIDE, "plan_samples: 65,536 counters, one 16-byte value"},
        {16380, ADV_PLAN_REPEATED_WIDE, "plan_samples: 16,384 positions, ids repeated, wide"},
        {65532, ADV_PLAN_REPEATED_WIDE, "plan_samples: 65,536 positions, ids repeated, wide"},
    };
    for (int k = 0; k < 4; k++) {
        adv_plan_irregular(plans[k].n, plans[k].shape, &wide, &registration);
        in = of(&wide.buf, plans[k].n);
        in.data3 = registration.data;
        in.len3 = registration.len;
        row(plans[k].label, &in, v2_plan_samples, parse_v2);
        tb_free(&wide.buf);
        tb_free(&registration);
    }
    free(scratch);
}

static void text_rows(void)
{
    header("Text and values (no parse: the input is the text or the samples)");
    text_out = malloc(3 * 2000000 + 1);
    tb_buf b = adv_utf16(1000000);
    input in = of(&b, 1000000);
    row("perfbuf_utf16le_to_utf8: 1M units, lone surrogates", &in, utf16_whole, NULL);
    tb_free(&b);
    static const uint32_t pages[3] = {1252, 65001, 20127};
    for (int k = 0; k < 3; k++) {
        b = adv_code_page_text(2000000, pages[k]);
        in = of(&b, 2000000);
        in.code_page = pages[k];
        char label[96];
        snprintf(label, sizeof label, "perfbuf_codepage_to_utf8: 2 MB of cp %u, invalid bytes",
                 pages[k]);
        row(label, &in, code_page_whole, NULL);
        tb_free(&b);
    }
    free(text_out);
    perfbuf_raw_sample *samples = adv_samples(50000);
    memset(&in, 0, sizeof in);
    in.data = (const uint8_t *)samples;
    in.len = sizeof *samples * 50000;
    in.n = 50000;
    in.samples = samples;
    row("perfbuf_compute_statistics: 50,000 samples, a wrapped ring", &in, statistics, NULL);
    free(samples);
}

/* ---- the query ---- */

/* One query run: its tables, its paths, its captures (older, then newer). */
typedef struct query_case {
    const tb_buf *table;          /* V1: an English Counter table */
    const perfbuf_query_registration *reg; /* V2: one registration */
    const char *const *paths;     /* NULL: a counter of every definition */
    uint32_t path_count;
    const char *key;              /* a key counter for every counter, or NULL */
    const tb_buf *older, *newer;
} query_case;

/* What the last run of a case left: the arena and the items, for the
 * arena table after the timings. */
static size_t last_arena, last_items;
static bool count_older;   /* query_run also counts the older capture's items */
static size_t older_items;

/* Both captures collected (the arena grown as asked, inside the timing:
 * a collector pays for it), then every counter's formatted array with its
 * names and its exited instances. */
static uint64_t query_run(const input *in)
{
    const query_case *qc = (const query_case *)(const void *)in->samples;
    perfbuf_query q;
    perfbuf_query_counter counters[8] = {0};
    perfbuf_query_registration reg;
    uint32_t n = qc->paths != NULL ? qc->path_count : 1u;
    if (qc->reg != NULL) {
        reg = *qc->reg;
        if (perfbuf_query_open_v2(&q, &reg, 1, NULL) != PERFBUF_OK) {
            return 0;
        }
    } else if (perfbuf_query_open(&q, qc->table->data, qc->table->len, NULL, 0, NULL) !=
               PERFBUF_OK) {
        return 0;
    }
    for (uint32_t k = 0; k < n; k++) {
        perfbuf_status st = qc->paths != NULL
                                ? perfbuf_query_add(&q, &counters[k], qc->paths[k],
                                                    strlen(qc->paths[k]), NULL)
                                : perfbuf_query_add_definitions(&q, &counters[k], NULL);
        if (st == PERFBUF_OK && qc->key != NULL) {
            st = perfbuf_query_pair_by(&q, &counters[k], qc->key, strlen(qc->key), NULL);
        }
        if (st != PERFBUF_OK) {
            return 0;
        }
    }
    void *arena = NULL;
    const tb_buf *captures[2] = {qc->older, qc->newer};
    uint64_t out = 0;
    for (int c = 0; c < 2; c++) {
        size_t needed = 0;
        perfbuf_status st;
        while ((st = perfbuf_query_collect(&q, captures[c]->data, captures[c]->len, &needed,
                                           NULL)) == PERFBUF_E_OUTPUT_TOO_SMALL) {
            arena = realloc(arena, needed);
            if (arena == NULL || perfbuf_query_arena(&q, arena, &needed, NULL) != PERFBUF_OK) {
                free(arena);
                return 0;
            }
        }
        if (st != PERFBUF_OK) {
            free(arena);
            return 0;
        }
        /* The arena holds both captures' items: the older ones are counted
         * by the untimed run that fills the arena table. */
        for (uint32_t k = 0; count_older && c == 0 && k < n; k++) {
            size_t count = 0, bytes = 0;
            if (perfbuf_query_formatted_array(&q, &counters[k], PERFBUF_FMT_DOUBLE, NULL, &count,
                                              NULL, &bytes, NULL) == PERFBUF_E_OUTPUT_TOO_SMALL) {
                older_items += count;
            }
        }
    }
    last_items = 0;
    for (uint32_t k = 0; k < n; k++) {
        size_t count = 0, bytes = 0;
        if (perfbuf_query_formatted_array(&q, &counters[k], PERFBUF_FMT_DOUBLE, NULL, &count,
                                          NULL, &bytes, NULL) != PERFBUF_E_OUTPUT_TOO_SMALL) {
            continue;
        }
        perfbuf_formatted_item *items = malloc(sizeof *items * count);
        char *names = malloc(bytes + 1u);
        if (items != NULL && names != NULL &&
            perfbuf_query_formatted_array(&q, &counters[k], PERFBUF_FMT_DOUBLE, items, &count,
                                          names, &bytes, NULL) == PERFBUF_OK) {
            out += count + bytes;
            last_items += count;
        }
        free(names);
        free(items);
        size_t gone = 0, gone_bytes = 0;
        if (perfbuf_query_instances(&q, &counters[k], PERFBUF_QUERY_EXITED, NULL, &gone, NULL,
                                    &gone_bytes, NULL) == PERFBUF_E_OUTPUT_TOO_SMALL) {
            perfbuf_query_instance *listed = malloc(sizeof *listed * gone);
            char *gone_names = malloc(gone_bytes + 1u);
            if (listed != NULL && gone_names != NULL &&
                perfbuf_query_instances(&q, &counters[k], PERFBUF_QUERY_EXITED, listed, &gone,
                                        gone_names, &gone_bytes, NULL) == PERFBUF_OK) {
                out += gone;
            }
            free(gone_names);
            free(listed);
        }
    }
    last_arena = q.arena_bytes;
    free(arena);
    return out;
}

/* The arena of each query row: bytes, and times the two captures. */
typedef struct arena_row {
    char what[64];
    size_t captures, arena, items;
} arena_row;
static arena_row arena_rows[32];
static unsigned arena_row_count;

static void query_row(const char *what, const query_case *qc)
{
    input in;
    memset(&in, 0, sizeof in);
    in.data = qc->newer->data;
    in.len = qc->older->len + qc->newer->len;
    in.samples = (const perfbuf_raw_sample *)(const void *)qc;
    row(what, &in, query_run, NULL);
    count_older = true;
    older_items = 0;
    (void)query_run(&in);
    count_older = false;
    if (arena_row_count < sizeof arena_rows / sizeof arena_rows[0]) {
        arena_row *a = &arena_rows[arena_row_count++];
        snprintf(a->what, sizeof a->what, "%s", what);
        a->captures = in.len;
        a->arena = last_arena;
        a->items = older_items + last_items;
    }
}

/* The smallest n of adv_pair's shape whose two captures reach `bytes`. */
static uint32_t pair_n(int shape, size_t bytes)
{
    uint32_t n = 64;
    for (;;) {
        tb_buf ob, nb;
        adv_pair(n, shape, &ob, &nb);
        size_t len = ob.len + nb.len;
        tb_free(&ob);
        tb_free(&nb);
        if (len >= bytes || n > (1u << 24)) {
            return n;
        }
        n = n * 3u / 2u;
    }
}

static tb_buf english_of(const char *const *pairs, size_t count)
{
    tb_buf t;
    tb_init(&t);
    for (size_t k = 0; k < count; k++) {
        tb_utf16(&t, pairs[k], 1);
    }
    tb_u16(&t, 0);
    return t;
}

static void query_rows(size_t bytes, const char *size_label)
{
    char title[96];
    snprintf(title, sizeof title, "The query: two captures of about %s, collected and read", size_label);
    header(title);
    static const char *titles[] = {"6", "% Processor Time", "10", "ID Process", "230", "Process"};
    tb_buf table = english_of(titles, 6);
    static const char *const v1_paths[2] = {"\\Process(*)\\% Processor Time",
                                            "\\Process(*)\\ID Process"};
    static const char *const shapes[5] = {
        "query: 2 counters, n names, 10 % churn", "query: 2 counters, n svchost, #N shifted",
        "query: 2 counters, n children of one 2,000-char parent",
        "query: 2 counters, two 2,000-char parents of one name",
        "query: 2 counters, names of 1,100 euro signs"};
    for (int shape = 0; shape < 5; shape++) {
        tb_buf ob, nb;
        adv_pair(pair_n(shape, bytes), shape, &ob, &nb);
        query_case qc = {.table = &table, .paths = v1_paths, .path_count = 2, .older = &ob,
                         .newer = &nb};
        query_row(shapes[shape], &qc);
        tb_free(&ob);
        tb_free(&nb);
    }
    {
        tb_buf ob, nb;
        adv_pair(pair_n(1, bytes), 1, &ob, &nb);
        query_case qc = {.table = &table, .paths = v1_paths, .path_count = 2, .key = "ID Process",
                         .older = &ob, .newer = &nb};
        query_row("query: n svchost paired by ID Process", &qc);
        query_case every = {.table = &table, .older = &ob, .newer = &nb};
        query_row("query: every definition, n svchost", &every);
        tb_free(&ob);
        tb_free(&nb);
    }
    {
        tb_buf ob, nb;
        uint32_t n = 64;
        do {
            n = n * 3u / 2u;
            adv_every_counter(n, &ob, &nb);
            size_t len = ob.len + nb.len;
            if (len >= bytes) {
                break;
            }
            tb_free(&ob);
            tb_free(&nb);
        } while (n < (1u << 24));
        static const char *const every_path[1] = {"\\Process(*)\\*"};
        query_case qc = {.table = &table, .paths = every_path, .path_count = 1, .older = &ob,
                         .newer = &nb};
        query_row("query: counter *, n/8 counters of 16 long-named instances", &qc);
        tb_free(&ob);
        tb_free(&nb);
    }
    /* V2: one counterset of two counters, eight paths over it. */
    static const tb_reg_row rows[2] = {
        {CF_V2_CPU, PERF_100NSEC_TIMER, PERFBUF_V2_NO_ID, "cpu"},
        {CF_V2_COUNT, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, "count"}};
    tb_buf reginfo = cf_v2_registration();
    tb_buf names = tb_v2_strings(rows, 2, PERFBUF_V2_STRINGS_FROM_ARRAY_END);
    tb_buf set = tb_v2_string_answer("Proc");
    perfbuf_query_registration reg = {.reginfo = reginfo.data, .reginfo_len = reginfo.len,
                                      .counter_names = names.data,
                                      .counter_names_len = names.len,
                                      .counterset_name = set.data,
                                      .counterset_name_len = set.len};
    static const char *const v2_paths[8] = {"\\Proc(*)\\cpu",  "\\Proc(*)\\count",
                                            "\\Proc(i*)\\cpu", "\\Proc(i*)\\count",
                                            "\\Proc(*)\\0",    "\\Proc(*)\\1",
                                            "\\Proc(w*)\\cpu", "\\Proc(w*)\\count"};
    for (int shape = 0; shape < 2; shape++) {
        tb_buf ob, nb;
        uint32_t n = 64;
        do {
            n = n * 3u / 2u;
            adv_pair_v2(n, shape, &ob, &nb);
            if (ob.len + nb.len >= bytes) {
                break;
            }
            tb_free(&ob);
            tb_free(&nb);
        } while (n < (1u << 24));
        query_case qc = {.reg = &reg, .paths = v2_paths, .path_count = 8, .older = &ob,
                         .newer = &nb};
        query_row(shape == 0 ? "query V2: 8 counters, n ids, 10 % churn"
                             : "query V2: 8 counters, n of one id and name",
                  &qc);
        tb_free(&ob);
        tb_free(&nb);
    }
    tb_free(&reginfo);
    tb_free(&names);
    tb_free(&set);
    tb_free(&table);
}

/* The arenas the query rows ended with: what a collector allocates. */
static void arena_table(void)
{
    printf("\nThe query's arena after each row's second capture (the fixed part, the kept and\n"
           "the new capture's tables and items, and the scratch of its plan); items: both\n"
           "captures', each counted at PERFBUF_QUERY_ITEM_BYTES (%u)\n\n",
           (unsigned)PERFBUF_QUERY_ITEM_BYTES);
    printf("| %-62s | %9s | %10s | %9s | %8s | %14s |\n", "row", "captures", "arena", "items",
           "arena/B", "w/o items /B");
    printf("|%s|-----------|------------|-----------|----------|----------------|\n",
           "----------------------------------------------------------------");
    for (unsigned k = 0; k < arena_row_count; k++) {
        const arena_row *a = &arena_rows[k];
        double per = (double)a->arena / (double)a->captures;
        double items = (double)a->items * PERFBUF_QUERY_ITEM_BYTES;
        double rest = a->arena > items ? ((double)a->arena - items) / (double)a->captures : 0.0;
        printf("| %-62s | %9zu | %10zu | %9zu | %8.2f | %14.2f |\n", a->what, a->captures,
               a->arena, a->items, per, rest);
    }
}

int main(int argc, char **argv)
{
    printf("perfbuf worst-case table: median of %d runs of >= 20 ms each; target <= %.0f ms/MB "
           "and <= %.0f ms/call\n",
           REPEATS, TARGET_MS_PER_MB, TARGET_MS_PER_CALL);
    if (argc == 2 && strcmp(argv[1], "--query") == 0) {
        /* The query alone, at 1 MB and 8 MB: its rows and its arenas. */
        query_rows(1000000, "1 MB");
        query_rows(8000000, "8 MB");
        arena_table();
        printf("\nrows missing a target: %u\n", misses);
        return 0;
    }
    index_slots = malloc(sizeof *index_slots * 200000);
    class_slots = malloc(sizeof *class_slots * 200000);
    prebuilt_slots = malloc(sizeof *prebuilt_slots * 200000);
    prebuilt_classes = malloc(sizeof *prebuilt_classes * 200000);
    v1_rows();
    names_rows();
    v2_rows();
    meta_rows();
    text_rows();
    query_rows(1000000, "1 MB");
    arena_table();
    free(index_slots);
    free(class_slots);
    free(prebuilt_slots);
    free(prebuilt_classes);
    printf("\nrows missing a target: %u\n", misses);
    return 0;
}
