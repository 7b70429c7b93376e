/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Growth of the work every public call does on its worst known inputs.
 *
 * Linked with the counting build (src/core/work.h): each case runs a call, or a
 * documented linear walk over a whole buffer (parse, every view, every
 * name, parents through the block index, values), on an adversarial input
 * of size n and of size 8n, and checks
 *   - work(8n) <= 9 * work(n): linear, with a little slack for the fixed
 *     part; where a path is n log n (a sort into caller scratch, O(log n)
 *     lookups by id the headers document, and the registration parse's
 *     reference checks, which v2_meta.h calls linear: see its case) the
 *     bound is widened by exactly log2(8n) / log2(n), marked N_LOG_N;
 *   - work <= WORK_PER_BYTE * bytes + WORK_FIXED (fuzz/oracle.h), the
 *     budget the fuzzers enforce on a single call and on such a walk.
 * Speed is not measured here (bench/perfbuf-worst.c times the same
 * inputs); the work counter is deterministic, so these checks are too.
 *
 * Left out, because the counter cannot judge them: perfbuf_compute_statistics
 * and perfbuf_format_value count no work units at all (their loops run over
 * caller memory, not the cursor), so a growth check would compare 0 with 0.
 * For the same reason the heapsort of perfbuf_names_index_build and the
 * binary search of perfbuf_names_index_find are invisible to the counter:
 * the name-table walks below measure the rest of the walk, and
 * bench/perfbuf-worst.c times the sort on a descending table.
 *
 * Bounds that are not linear in the buffer alone, each checked as documented:
 *   - perfbuf_v1_block_index_classes sorts the block's names: n log n in
 *     the bytes (N_LOG_BUDGET), as fuzz/oracle.h's BUDGETED_LOG enforces;
 *   - perfbuf_v2_raw_sample walks its instance's values on every call
 *     where the parse did not prove the values one size (elsewhere it reads
 *     by position, tests/test_v2_values_count.c), so sampling every counter
 *     of one instance is measured through the value index
 *     (perfbuf_v2_raw_sample_indexed), which is the linear pattern.
 */
#include <stdlib.h>
#include <string.h>

#include "adversarial.h"
#include "harness.h"
#include "oracle.h"
#include "oracle_v2_doubles.h"
#include "collector_fixture.h"
#include "perfbuf/collector.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/names.h"
#include "perfbuf/openmetrics.h"
#include "perfbuf/query.h"
#include "query_helpers.h"
#include "perfbuf/resolve.h"
#include "perfbuf/text.h"
#include "perfbuf/v1.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/v2_query.h"
#include "core/work.h"

/* Small enough that the 8n inputs (a few hundred KB) run in well under a
 * second under ASan; large enough that fixed costs do not hide a slope. */
#define N 512u

typedef struct run {
    uint64_t work;
    size_t bytes;
} run;

typedef void (*run_fn)(uint32_t n, run *r);

/* N_LOG_BUDGET: n log n in the bytes, not only in the items: the title
 * sort and lookups (perfbuf/resolve.h) compare texts, so their budget is
 * the per-byte one times the merge passes, ceil(log2 n) + 1, as
 * fuzz_v1_names enforces it. */
enum { LINEAR = 0, N_LOG_N = 1, N_LOG_BUDGET = 2 };

static unsigned bits(uint64_t v)
{
    unsigned b = 0;
    while (v != 0) {
        b++;
        v >>= 1;
    }
    return b;
}

static void growth(const char *what, run_fn fn, uint32_t n, int shape)
{
    run small = {0, 0};
    run large = {0, 0};
    fn(n, &small);
    if (th.case_failed) {
        return;
    }
    fn(8 * n, &large);
    if (th.case_failed) {
        return;
    }
    printf("  %-58s n %6u: %9" PRIu64 " units %5.2f/B; 8n: %10" PRIu64 " units %5.2f/B; x%.2f\n",
           what, n, small.work, (double)small.work / (double)small.bytes, large.work,
           (double)large.work / (double)large.bytes, (double)large.work / (double)small.work);
    /* Every measured call does counted work, so the bound below can fail. */
    CHECK(small.work > 0);
    /* The generator grew its input linearly: 8n is 4 to 10 times n's bytes. */
    CHECK(large.bytes >= 4 * small.bytes && large.bytes <= 10 * small.bytes);
    if (shape != LINEAR) {
        CHECK(large.work * bits(n) <= 9u * small.work * bits(8u * (uint64_t)n));
    } else {
        CHECK(large.work <= 9u * small.work);
    }
    uint64_t small_passes = shape == N_LOG_BUDGET ? bits((uint64_t)n - 1u) + 1u : 1u;
    uint64_t large_passes = shape == N_LOG_BUDGET ? bits(8u * (uint64_t)n - 1u) + 1u : 1u;
    CHECK(small.work <= small_passes * ((uint64_t)WORK_PER_BYTE * small.bytes + WORK_FIXED));
    CHECK(large.work <= large_passes * ((uint64_t)WORK_PER_BYTE * large.bytes + WORK_FIXED));
}

#define GROWTH(what, fn, shape) CALL(growth(what, fn, N, shape))

static void start(void)
{
    pb_work_units = 0;
}

static void stop(run *r)
{
    r->work += pb_work_units;
}

static bool inside(const uint8_t *p, size_t n, const uint8_t *base, size_t len)
{
    return oracle_ptr_inside(p, n, base, len) != 0;
}

/* ---- V1 ---- */

/* Which values the generator wrote (adversarial.h). */
enum { V1_STANDARD, V1_COUNTER_K, V1_SHARED };

/*
 * The linear walk of a whole V1 block as v1.h documents it: parse, the
 * block index, every object, counter and instance, every name and full
 * name, every parent through the block index, every value and every raw
 * sample with the object's own definitions.
 */
static void v1_walk(const tb_buf *buf, int values, bool parents, run *r)
{
    r->bytes = buf->len;
    perfbuf_v1_block b;
    start();
    perfbuf_status st = perfbuf_v1_parse(buf->data, buf->len, NULL, &b, NULL);
    stop(r);
    EXPECT(st == PERFBUF_OK);
    if (st != PERFBUF_OK) {
        return;
    }
    uint64_t *slots = malloc(sizeof *slots * (b.index_slots + 1));
    perfbuf_v1_counter *counters = NULL;
    start();
    perfbuf_v1_instance_index index;
    EXPECT(perfbuf_v1_block_index_build(&b, slots, b.index_slots, &index) == PERFBUF_OK);
    perfbuf_v1_iter oi, ci, ii;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(&b, &oi);
    while (perfbuf_v1_objects_next(&b, &oi, &o)) {
        uint32_t object = (o.name_title_index - ADV_V1_TITLE(0)) / 2;
        counters = realloc(counters, sizeof *counters * (o.counter_count + 1u));
        uint32_t nc = 0;
        perfbuf_v1_counters_begin(&o, &ci);
        while (nc < o.counter_count && perfbuf_v1_counters_next(&b, &ci, &counters[nc])) {
            nc++;
        }
        EXPECT(nc == o.counter_count);
        perfbuf_v1_counter_block single;
        if (perfbuf_v1_object_counter_block(&b, &o, &single)) {
            for (uint32_t k = 0; k < nc; k++) {
                uint32_t which = (counters[k].name_title_index - 2) / 2;
                EXPECT(values != V1_COUNTER_K ||
                       perfbuf_v1_counter_value(&b, &single, &counters[k]) == 3u * which + 1u);
                perfbuf_raw_sample s;
                perfbuf_value_context c;
                EXPECT(perfbuf_v1_raw_sample(&b, &o, &counters[k], &single, &s, &c) == PERFBUF_OK);
                EXPECT(values != V1_COUNTER_K || s.first == 3u * which + 1u);
            }
        }
        perfbuf_v1_instance inst;
        perfbuf_v1_instances_begin(&o, &ii);
        while (perfbuf_v1_instances_next(&b, &ii, &inst)) {
            char name[64];
            size_t len;
            st = perfbuf_v1_instance_name_utf8(&b, &inst, name, sizeof name, &len);
            EXPECT(st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL);
            EXPECT(inside(perfbuf_v1_instance_name_bytes(&b, &inst), inst.name_bytes, buf->data,
                          buf->len));
            st = perfbuf_v1_full_name_utf8(&b, &o, &inst, &index, name, sizeof name, &len);
            EXPECT(st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL);
            if (parents && inst.parent_title_index != 0) {
                perfbuf_v1_instance parent;
                EXPECT(perfbuf_v1_parent(&b, &o, &inst, &index, &parent, NULL) == PERFBUF_OK);
                EXPECT(parent.index == inst.parent_instance);
            }
            for (uint32_t k = 0; k < nc; k++) {
                uint64_t v = perfbuf_v1_counter_value(&b, &inst.counters, &counters[k]);
                EXPECT(values != V1_STANDARD || v == adv_v1_value(object, inst.index, k));
                EXPECT(values != V1_SHARED || v == adv_v1_shared_value(inst.index, k));
                if (perfbuf_counter_type_samples(counters[k].type) == 0) {
                    continue;
                }
                perfbuf_raw_sample s;
                perfbuf_value_context c;
                EXPECT(perfbuf_v1_raw_sample(&b, &o, &counters[k], &inst.counters, &s, &c) ==
                       PERFBUF_OK);
                EXPECT(s.first == v);
            }
        }
    }
    stop(r);
    free(counters);
    free(slots);
}

static void walk_v1_many_objects(uint32_t n, run *r)
{
    tb_buf b = adv_v1_many_objects(n);
    v1_walk(&b, V1_STANDARD, true, r);
    tb_free(&b);
}

static void walk_v1_many_instances(uint32_t n, run *r)
{
    tb_buf b = adv_v1_many_instances(n);
    v1_walk(&b, V1_STANDARD, true, r);
    tb_free(&b);
}

static void walk_v1_many_counters(uint32_t n, run *r)
{
    tb_buf b = adv_v1_many_counters(n, 0);
    v1_walk(&b, V1_COUNTER_K, true, r);
    tb_free(&b);
}

static void walk_v1_long_parent(uint32_t n, run *r)
{
    tb_buf b = adv_v1_long_parent(n);
    v1_walk(&b, V1_STANDARD, true, r);
    tb_free(&b);
}

static void walk_v1_two_parents(uint32_t n, run *r)
{
    tb_buf b = adv_v1_two_parents(n);
    v1_walk(&b, V1_STANDARD, true, r);
    tb_free(&b);
}

static void walk_v1_cp1252(uint32_t n, run *r)
{
    tb_buf b = adv_v1_code_page(n, 1252);
    v1_walk(&b, V1_STANDARD, true, r);
    tb_free(&b);
}

static void walk_v1_cp65001(uint32_t n, run *r)
{
    tb_buf b = adv_v1_code_page(n, 65001);
    v1_walk(&b, V1_STANDARD, true, r);
    tb_free(&b);
}

static void walk_v1_cp20127(uint32_t n, run *r)
{
    tb_buf b = adv_v1_code_page(n, 20127);
    v1_walk(&b, V1_STANDARD, true, r);
    tb_free(&b);
}

/* Shared counter data at the claim budget: the counters per instance grow
 * with the counter block, so reading them all is linear in either shape. */
enum { SHARED_FEW = 8, SHARED_MANY_DEFINITIONS = 64 };

/*
 * Every value of every instance through the per-value reads: the instance
 * iterator, then each definition's value and bytes with the object's own
 * definitions (read once per object). The values are the generator's.
 */
static void v1_value_walk(const tb_buf *buf, bool shared_values, run *r)
{
    perfbuf_v1_block b;
    r->bytes = buf->len;
    if (perfbuf_v1_parse(buf->data, buf->len, NULL, &b, NULL) != PERFBUF_OK) {
        EXPECT(false);
        return;
    }
    start();
    perfbuf_v1_iter oi, ci, ii;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(&b, &oi);
    while (perfbuf_v1_objects_next(&b, &oi, &o)) {
        perfbuf_v1_counter *counters = malloc(sizeof *counters * (o.counter_count + 1u));
        uint32_t nc = 0;
        perfbuf_v1_counters_begin(&o, &ci);
        while (nc < o.counter_count && perfbuf_v1_counters_next(&b, &ci, &counters[nc])) {
            nc++;
        }
        perfbuf_v1_instance inst;
        perfbuf_v1_instances_begin(&o, &ii);
        while (perfbuf_v1_instances_next(&b, &ii, &inst)) {
            for (uint32_t k = 0; k < nc; k++) {
                uint64_t v = perfbuf_v1_counter_value(&b, &inst.counters, &counters[k]);
                EXPECT(v == (shared_values ? adv_v1_shared_value(inst.index, k) : 0));
                EXPECT(inside(perfbuf_v1_counter_bytes(&b, &inst.counters, &counters[k]),
                              counters[k].size, buf->data, buf->len));
            }
        }
        free(counters);
    }
    stop(r);
}

static void walk_v1_shared_definitions(uint32_t n, run *r)
{
    tb_buf b = adv_v1_shared_offset(n, SHARED_FEW, 0);
    v1_walk(&b, V1_SHARED, true, r);
    tb_free(&b);
}

static void values_v1_shared_definitions(uint32_t n, run *r)
{
    tb_buf b = adv_v1_shared_offset(n, SHARED_FEW, 0);
    v1_value_walk(&b, true, r);
    tb_free(&b);
}

static void values_v1_shared_instances(uint32_t n, run *r)
{
    tb_buf b = adv_v1_shared_offset(SHARED_MANY_DEFINITIONS, n, 0);
    v1_value_walk(&b, true, r);
    tb_free(&b);
}

static void values_v1_dense_zero(uint32_t n, run *r)
{
    tb_buf b = adv_v1_dense_zero(n);
    v1_value_walk(&b, false, r);
    tb_free(&b);
}

static void v1_walks(void)
{
    GROWTH("V1 walk: n objects, parents in the previous", walk_v1_many_objects, N_LOG_N);
    GROWTH("V1 walk: n parents, n children (far end first)", walk_v1_many_instances, LINEAR);
    GROWTH("V1 walk: n counter definitions, one block", walk_v1_many_counters, LINEAR);
    GROWTH("V1 walk: n children of one n-char parent", walk_v1_long_parent, LINEAR);
    GROWTH("V1 walk: n children alternating two n-char parents", walk_v1_two_parents, LINEAR);
    GROWTH("V1 walk: code page 1252, invalid bytes", walk_v1_cp1252, LINEAR);
    GROWTH("V1 walk: code page 65001, invalid bytes", walk_v1_cp65001, LINEAR);
    GROWTH("V1 walk: code page 20127, invalid bytes", walk_v1_cp20127, LINEAR);
    GROWTH("V1 walk: n definitions at one offset, 8 instances", walk_v1_shared_definitions,
           LINEAR);
    GROWTH("V1 values: n definitions at one offset, 8 instances", values_v1_shared_definitions,
           LINEAR);
    GROWTH("V1 values: 64 definitions at one offset, n instances", values_v1_shared_instances,
           LINEAR);
    GROWTH("V1 values: n instances, two size-0 counters per block byte", values_v1_dense_zero,
           LINEAR);
}

/* A parsed V1 block for the single-call cases (the parse is not counted). */
static bool v1_parsed(const tb_buf *buf, perfbuf_v1_block *b, run *r)
{
    r->bytes = buf->len;
    bool ok = perfbuf_v1_parse(buf->data, buf->len, NULL, b, NULL) == PERFBUF_OK;
    EXPECT(ok);
    return ok;
}

/*
 * Value plans over a whole block: a plan per object, then every counter
 * block read whole, every counter's sample and its formatted pair. The
 * plan is built once per object, so this is linear where a per-value
 * definition lookup would not be.
 */
static void v1_plan_walk(const tb_buf *buf, run *r)
{
    perfbuf_v1_block b;
    if (!v1_parsed(buf, &b, r)) {
        return;
    }
    start();
    perfbuf_v1_iter oi, ii;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(&b, &oi);
    while (perfbuf_v1_objects_next(&b, &oi, &o)) {
        size_t cap = o.counter_count ? o.counter_count : 1;
        perfbuf_v1_plan_entry *entries = malloc(sizeof *entries * cap);
        uint64_t *values = malloc(sizeof *values * cap);
        perfbuf_value *formatted = malloc(sizeof *formatted * cap);
        perfbuf_v1_plan plan;
        EXPECT(entries != NULL && values != NULL && formatted != NULL &&
               perfbuf_v1_plan_build(&b, &o, entries, cap, &plan) == PERFBUF_OK);
        perfbuf_v1_counter_block single;
        perfbuf_v1_instance inst;
        bool more = perfbuf_v1_object_counter_block(&b, &o, &single);
        const perfbuf_v1_counter_block *blk = more ? &single : &inst.counters;
        perfbuf_v1_instances_begin(&o, &ii);
        if (!more) {
            more = perfbuf_v1_instances_next(&b, &ii, &inst);
        }
        while (more) {
            EXPECT(perfbuf_v1_plan_read(&plan, &b, blk, values, cap) == PERFBUF_OK);
            EXPECT(perfbuf_v1_plan_format_all(&plan, &b, blk, &plan, &b, blk, PERFBUF_FMT_LARGE,
                                              formatted, cap) == PERFBUF_OK);
            for (uint32_t k = 0; k < plan.count; k++) {
                perfbuf_raw_sample s;
                perfbuf_value_context c;
                perfbuf_value v;
                perfbuf_status st = perfbuf_v1_plan_sample(&plan, &b, blk, k, &s, &c);
                EXPECT(st == perfbuf_v1_plan_format(&plan, &b, blk, &plan, &b, blk, k,
                                                    PERFBUF_FMT_DOUBLE, &v));
            }
            more = blk == &inst.counters && perfbuf_v1_instances_next(&b, &ii, &inst);
        }
        free(entries);
        free(values);
        free(formatted);
    }
    stop(r);
}

/*
 * A whole object per call (perfbuf_v1_plan_read_object): a plan per
 * object, the matrix's size asked, then every value of the object in one
 * call, and formatted against itself (perfbuf_v1_plan_format_object). Its work is the object's definitions plus one step per instance
 * and per value, so the dense block (two values per byte) is its worst
 * case and long names cost it nothing: it never measures one. Every cell
 * is compared with the plan's read of that block, outside the count.
 */
static void v1_object_walk(const tb_buf *buf, run *r)
{
    perfbuf_v1_block b;
    if (!v1_parsed(buf, &b, r)) {
        return;
    }
    perfbuf_v1_iter oi;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(&b, &oi);
    while (perfbuf_v1_objects_next(&b, &oi, &o)) {
        size_t cap = o.counter_count ? o.counter_count : 1;
        perfbuf_v1_plan_entry *entries = malloc(sizeof *entries * cap);
        perfbuf_v1_plan plan;
        EXPECT(entries != NULL && perfbuf_v1_plan_build(&b, &o, entries, cap, &plan) == PERFBUF_OK);
        size_t needed = 0;
        start();
        perfbuf_status st = perfbuf_v1_plan_read_object(&plan, &b, &o, NULL, 0, &needed);
        stop(r);
        EXPECT(st == (needed == 0 ? PERFBUF_OK : PERFBUF_E_OUTPUT_TOO_SMALL));
        uint64_t *matrix = malloc(sizeof *matrix * (needed ? needed : 1));
        EXPECT(matrix != NULL);
        start();
        st = perfbuf_v1_plan_read_object(&plan, &b, &o, matrix, needed, &needed);
        stop(r);
        EXPECT(st == PERFBUF_OK);
        perfbuf_value *formatted = malloc(sizeof *formatted * (needed ? needed : 1));
        EXPECT(formatted != NULL);
        start();
        st = perfbuf_v1_plan_format_object(&plan, &b, &o, &plan, &b, &o, PERFBUF_FMT_LARGE,
                                           formatted, needed, &needed);
        stop(r);
        EXPECT(st == PERFBUF_OK);
        double *doubles = malloc(sizeof *doubles * (needed ? needed : 1));
        uint8_t *codes = malloc(needed ? needed : 1);
        EXPECT(doubles != NULL && codes != NULL);
        start();
        st = perfbuf_v1_plan_format_object_doubles(&plan, &b, &o, &plan, &b, &o,
                                                   PERFBUF_FMT_DOUBLE, doubles, codes, needed,
                                                   &needed);
        stop(r);
        EXPECT(st == PERFBUF_OK);
        free(doubles);
        free(codes);
        free(formatted);
        uint64_t *row = malloc(sizeof *row * cap);
        EXPECT(row != NULL);
        perfbuf_v1_iter ii;
        perfbuf_v1_instance inst;
        perfbuf_v1_counter_block single;
        size_t i = 0;
        if (perfbuf_v1_object_counter_block(&b, &o, &single)) {
            EXPECT(perfbuf_v1_plan_read(&plan, &b, &single, row, cap) == PERFBUF_OK);
            EXPECT(plan.count == 0 || memcmp(row, matrix, sizeof *row * plan.count) == 0);
            i = 1;
        }
        perfbuf_v1_instances_begin(&o, &ii);
        while (perfbuf_v1_instances_next(&b, &ii, &inst)) {
            EXPECT(perfbuf_v1_plan_read(&plan, &b, &inst.counters, row, cap) == PERFBUF_OK);
            EXPECT(plan.count == 0 ||
                   memcmp(row, matrix + i * plan.count, sizeof *row * plan.count) == 0);
            i++;
        }
        EXPECT(i * plan.count == needed);
        free(row);
        free(matrix);
        free(entries);
    }
}

/*
 * Two captures of adv_v1_doubles_worst formatted as doubles, an object
 * per call: every column leaves the call's column loops, and every object
 * ends in a step of one row, so each column's setup is paid per row. Each
 * cell is compared with perfbuf_v1_plan_format_object's, outside the
 * count.
 */
static void doubles_v1_worst(uint32_t n, run *r)
{
    tb_buf older = adv_v1_doubles_worst(n, 0);
    tb_buf newer = adv_v1_doubles_worst(n, 1);
    perfbuf_v1_block b0, b1;
    EXPECT(perfbuf_v1_parse(older.data, older.len, NULL, &b0, NULL) == PERFBUF_OK);
    if (!v1_parsed(&newer, &b1, r)) {
        tb_free(&older);
        tb_free(&newer);
        return;
    }
    perfbuf_v1_iter oi0, oi1;
    perfbuf_v1_object o0, o1;
    perfbuf_v1_plan_entry e0[16], e1[16];
    perfbuf_v1_plan p0, p1;
    enum { CELLS = ADV_V1_DOUBLES_ROWS * 16 };
    double doubles[CELLS];
    uint8_t codes[CELLS];
    perfbuf_value values[CELLS];
    size_t valid = 0;
    perfbuf_v1_objects_begin(&b0, &oi0);
    perfbuf_v1_objects_begin(&b1, &oi1);
    while (perfbuf_v1_objects_next(&b0, &oi0, &o0) && perfbuf_v1_objects_next(&b1, &oi1, &o1)) {
        EXPECT(perfbuf_v1_plan_build(&b0, &o0, e0, 16, &p0) == PERFBUF_OK);
        EXPECT(perfbuf_v1_plan_build(&b1, &o1, e1, 16, &p1) == PERFBUF_OK);
        size_t needed = 0;
        start();
        perfbuf_status st = perfbuf_v1_plan_format_object_doubles(
            &p1, &b1, &o1, &p0, &b0, &o0, PERFBUF_FMT_DOUBLE, doubles, codes, CELLS, &needed);
        stop(r);
        EXPECT(st == PERFBUF_OK && needed == CELLS);
        EXPECT(perfbuf_v1_plan_format_object(&p1, &b1, &o1, &p0, &b0, &o0, PERFBUF_FMT_DOUBLE,
                                             values, CELLS, &needed) == PERFBUF_OK);
        for (size_t c = 0; c < CELLS; c++) {
            EXPECT(perfbuf_compact_cstatus(codes[c]) == values[c].status &&
                   memcmp(&doubles[c], &values[c].as_double, sizeof doubles[c]) == 0);
            valid += values[c].status == PERFBUF_CSTATUS_VALID_DATA;
        }
    }
    EXPECT(valid > 0);
    tb_free(&older);
    tb_free(&newer);
}

static void objects_v1_many_instances(uint32_t n, run *r)
{
    tb_buf b = adv_v1_many_instances(n);
    v1_object_walk(&b, r);
    tb_free(&b);
}

static void objects_v1_many_counters(uint32_t n, run *r)
{
    tb_buf b = adv_v1_many_counters(n, 0);
    v1_object_walk(&b, r);
    tb_free(&b);
}

static void objects_v1_many_objects(uint32_t n, run *r)
{
    tb_buf b = adv_v1_many_objects(n);
    v1_object_walk(&b, r);
    tb_free(&b);
}

static void objects_v1_dense(uint32_t n, run *r)
{
    tb_buf b = adv_v1_dense_zero(n);
    v1_object_walk(&b, r);
    tb_free(&b);
}

static void objects_v1_shared_instances(uint32_t n, run *r)
{
    tb_buf b = adv_v1_shared_offset(SHARED_MANY_DEFINITIONS, n, 0);
    v1_object_walk(&b, r);
    tb_free(&b);
}

static void objects_v1_long_parent(uint32_t n, run *r)
{
    tb_buf b = adv_v1_long_parent(n);
    v1_object_walk(&b, r);
    tb_free(&b);
}

static void plans_v1_many_instances(uint32_t n, run *r)
{
    tb_buf b = adv_v1_many_instances(n);
    v1_plan_walk(&b, r);
    tb_free(&b);
}

static void plans_v1_many_counters(uint32_t n, run *r)
{
    tb_buf b = adv_v1_many_counters(n, 0);
    v1_plan_walk(&b, r);
    tb_free(&b);
}

static void plans_v1_many_objects(uint32_t n, run *r)
{
    tb_buf b = adv_v1_many_objects(n);
    v1_plan_walk(&b, r);
    tb_free(&b);
}

static void plans_v1_shared_definitions(uint32_t n, run *r)
{
    tb_buf b = adv_v1_shared_offset(n, SHARED_FEW, 0);
    v1_plan_walk(&b, r);
    tb_free(&b);
}

static void plans_v1_shared_instances(uint32_t n, run *r)
{
    tb_buf b = adv_v1_shared_offset(SHARED_MANY_DEFINITIONS, n, 0);
    v1_plan_walk(&b, r);
    tb_free(&b);
}

/* One claim past the budget: refused after the definitions, and the
 * second pass that names the definition is linear too. */
static void call_v1_parse_shared_over(uint32_t n, run *r)
{
    tb_buf b = adv_v1_shared_offset(n, SHARED_FEW, 1);
    perfbuf_v1_block blk;
    perfbuf_error err;
    r->bytes = b.len;
    start();
    EXPECT(perfbuf_v1_parse(b.data, b.len, NULL, &blk, &err) == PERFBUF_E_OVERLAP);
    stop(r);
    /* The last definition, n + 1 after the far one: the object follows the
     * 88-byte header and "HOST" (10 bytes, padded to 16), the definitions
     * its 64-byte header; 36 is its CounterOffset. */
    EXPECT(err.offset == 104u + 64u + 40u * ((uint64_t)n + 1u) + 36u);
    EXPECT(strcmp(err.field, "CounterOffset") == 0);
    tb_free(&b);
}

static void v1_plan_walks(void)
{
    GROWTH("V1 plans: n instances, every value and sample", plans_v1_many_instances, LINEAR);
    GROWTH("V1 plans: n counter definitions, one block", plans_v1_many_counters, LINEAR);
    GROWTH("V1 plans: n objects", plans_v1_many_objects, LINEAR);
    GROWTH("V1 plans: n definitions at one offset, 8 instances", plans_v1_shared_definitions,
           LINEAR);
    GROWTH("V1 plans: 64 definitions at one offset, n instances", plans_v1_shared_instances,
           LINEAR);
    GROWTH("perfbuf_v1_parse: n definitions at one offset, one over", call_v1_parse_shared_over,
           LINEAR);
    GROWTH("V1 whole object: n instances", objects_v1_many_instances, LINEAR);
    GROWTH("V1 whole object: n counter definitions, one block", objects_v1_many_counters, LINEAR);
    GROWTH("V1 whole object: n objects", objects_v1_many_objects, LINEAR);
    GROWTH("V1 whole object: n instances, two size-0 counters per block byte", objects_v1_dense,
           LINEAR);
    GROWTH("V1 whole object: 64 definitions at one offset, n instances",
           objects_v1_shared_instances, LINEAR);
    GROWTH("V1 whole object: n children of one n-char parent", objects_v1_long_parent, LINEAR);
    GROWTH("V1 whole object as doubles: n instances, 33 per object, mixed columns",
           doubles_v1_worst, LINEAR);
}

static void call_v1_parse(uint32_t n, run *r)
{
    tb_buf b = adv_v1_many_objects(n);
    perfbuf_v1_block blk;
    r->bytes = b.len;
    start();
    EXPECT(perfbuf_v1_parse(b.data, b.len, NULL, &blk, NULL) == PERFBUF_OK);
    stop(r);
    EXPECT(blk.object_count == n);
    tb_free(&b);
}

static void call_v1_find_object(uint32_t n, run *r)
{
    tb_buf buf = adv_v1_many_objects(n);
    perfbuf_v1_block b;
    perfbuf_v1_object o;
    if (v1_parsed(&buf, &b, r)) {
        start();
        EXPECT(perfbuf_v1_find_object(&b, ADV_V1_TITLE(n - 1), &o) == PERFBUF_OK);
        stop(r);
        EXPECT(o.index == n - 1);
    }
    tb_free(&buf);
}

/* O(n log objects): the objects' keys are sorted. */
static void call_v1_block_index(uint32_t n, run *r)
{
    tb_buf buf = adv_v1_many_objects(n);
    perfbuf_v1_block b;
    if (v1_parsed(&buf, &b, r)) {
        uint64_t *slots = malloc(sizeof *slots * b.index_slots);
        perfbuf_v1_instance_index index;
        start();
        EXPECT(perfbuf_v1_block_index_build(&b, slots, b.index_slots, &index) == PERFBUF_OK);
        stop(r);
        EXPECT(index.object_count == n);
        free(slots);
    }
    tb_free(&buf);
}

static void call_v1_index_build(uint32_t n, run *r)
{
    tb_buf buf = adv_v1_many_instances(n);
    perfbuf_v1_block b;
    perfbuf_v1_object o;
    if (v1_parsed(&buf, &b, r) && perfbuf_v1_find_object(&b, ADV_V1_TITLE(0), &o) == PERFBUF_OK) {
        size_t *offsets = malloc(sizeof *offsets * n);
        perfbuf_v1_instance_index index;
        perfbuf_v1_instance inst;
        start();
        EXPECT(perfbuf_v1_index_build(&b, &o, offsets, n, &index) == PERFBUF_OK);
        EXPECT(perfbuf_v1_index_get(&b, &index, n - 1, &inst) == PERFBUF_OK);
        stop(r);
        EXPECT(inst.index == n - 1);
        free(offsets);
    }
    tb_free(&buf);
}

/* The block index with its name classes, for "parent/name" lookups; the
 * caller frees *classes. */
static bool index_with_classes(const perfbuf_v1_block *b, uint64_t *slots,
                               perfbuf_v1_instance_index *index, uint64_t **classes)
{
    *classes = malloc(sizeof **classes * (b->index_slots + 1));
    return *classes != NULL &&
           perfbuf_v1_block_index_build(b, slots, b->index_slots, index) == PERFBUF_OK &&
           perfbuf_v1_block_index_classes(b, index, *classes, b->index_slots) == PERFBUF_OK;
}

/* The last of n instances by name, and "parent/name" through the block
 * index: one pass over the object. */
static void call_v1_find_instance(uint32_t n, run *r)
{
    tb_buf buf = adv_v1_many_instances(n);
    perfbuf_v1_block b;
    perfbuf_v1_object parents, children;
    if (v1_parsed(&buf, &b, r) &&
        perfbuf_v1_find_object(&b, ADV_V1_TITLE(0), &parents) == PERFBUF_OK &&
        perfbuf_v1_find_object(&b, ADV_V1_TITLE(1), &children) == PERFBUF_OK) {
        uint64_t *slots = malloc(sizeof *slots * b.index_slots);
        uint64_t *classes;
        perfbuf_v1_instance_index index;
        EXPECT(index_with_classes(&b, slots, &index, &classes));
        char q[64];
        perfbuf_v1_instance inst;
        int len = snprintf(q, sizeof q, "p%u", n - 1);
        start();
        EXPECT(perfbuf_v1_find_instance(&b, &parents, q, (size_t)len, NULL, &inst) == PERFBUF_OK);
        stop(r);
        EXPECT(inst.index == n - 1);
        /* Child n - 1 has parent 0. */
        len = snprintf(q, sizeof q, "P0/C%u", n - 1);
        start();
        EXPECT(perfbuf_v1_find_instance(&b, &children, q, (size_t)len, &index, &inst) ==
               PERFBUF_OK);
        stop(r);
        EXPECT(inst.index == n - 1);
        /* Without an index a parent query would walk the block per child. */
        EXPECT(perfbuf_v1_find_instance(&b, &children, q, (size_t)len, NULL, &inst) ==
               PERFBUF_E_SCRATCH_NEEDED);
        free(classes);
        free(slots);
    }
    tb_free(&buf);
}

static void call_v1_find_same_names(uint32_t n, run *r)
{
    tb_buf buf = adv_v1_same_names(n);
    perfbuf_v1_block b;
    perfbuf_v1_object o;
    if (v1_parsed(&buf, &b, r) && perfbuf_v1_find_object(&b, ADV_V1_TITLE(0), &o) == PERFBUF_OK) {
        char q[64];
        perfbuf_v1_instance inst;
        int len = snprintf(q, sizeof q, "SVCHOST#%u", n - 1);
        start();
        EXPECT(perfbuf_v1_find_instance(&b, &o, q, (size_t)len, NULL, &inst) == PERFBUF_OK);
        stop(r);
        EXPECT(inst.index == n - 1);
    }
    tb_free(&buf);
}

/* "<n-char parent>/c#<n-1>": every child matches its name and shares the
 * parent, whose long name must not be compared once per child. */
static void call_v1_find_long_parent(uint32_t n, run *r)
{
    tb_buf buf = adv_v1_long_parent(n);
    perfbuf_v1_block b;
    perfbuf_v1_object children;
    if (v1_parsed(&buf, &b, r) &&
        perfbuf_v1_find_object(&b, ADV_V1_TITLE(1), &children) == PERFBUF_OK) {
        uint64_t *slots = malloc(sizeof *slots * b.index_slots);
        uint64_t *classes;
        perfbuf_v1_instance_index index;
        EXPECT(index_with_classes(&b, slots, &index, &classes));
        char *q = malloc((size_t)n + 32);
        memset(q, 'p', n);
        int tail = snprintf(q + n, 32, "/c#%u", n - 1);
        perfbuf_v1_instance inst;
        r->bytes += (size_t)n + (size_t)tail;
        start();
        EXPECT(perfbuf_v1_find_instance(&b, &children, q, n + (size_t)tail, &index, &inst) ==
               PERFBUF_OK);
        stop(r);
        EXPECT(inst.index == n - 1);
        free(q);
        free(classes);
        free(slots);
    }
    tb_free(&buf);
}

/*
 * Children alternating between two parents of `parent_chars` characters
 * that share the query's parent part of `part` characters as a prefix:
 * the parent part is compared with the block's names once, not once per
 * candidate, so a query that names neither parent (NOT_FOUND after every
 * candidate) and one naming the first parent cost the block plus the query.
 */
static void find_alternating(uint32_t n, uint32_t parent_chars, uint32_t part, run *r)
{
    tb_buf buf = adv_v1_two_parents_of(n, parent_chars);
    perfbuf_v1_block b;
    perfbuf_v1_object children;
    if (v1_parsed(&buf, &b, r) &&
        perfbuf_v1_find_object(&b, ADV_V1_TITLE(2), &children) == PERFBUF_OK) {
        uint64_t *slots = malloc(sizeof *slots * b.index_slots);
        uint64_t *classes;
        perfbuf_v1_instance_index index;
        EXPECT(index_with_classes(&b, slots, &index, &classes));
        char *q = malloc((size_t)parent_chars + 32);
        memset(q, 'P', parent_chars);
        int tail = snprintf(q + part, 32, "/c#%u", n);
        perfbuf_v1_instance inst;
        r->bytes += part + (size_t)tail;
        start();
        EXPECT(perfbuf_v1_find_instance(&b, &children, q, part + (size_t)tail, &index, &inst) ==
               PERFBUF_E_NOT_FOUND);
        stop(r);
        /* The first parent's whole name: its last child (children alternate). */
        memset(q, 'P', parent_chars);
        q[parent_chars - 1] = 'a';
        tail = snprintf(q + parent_chars, 32, "/C#%u", (n + 1) / 2 - 1);
        r->bytes += parent_chars + (size_t)tail;
        start();
        EXPECT(perfbuf_v1_find_instance(&b, &children, q, parent_chars + (size_t)tail, &index,
                                        &inst) == PERFBUF_OK);
        stop(r);
        EXPECT(inst.index == (n % 2 == 0 ? n - 2 : n - 1));
        free(q);
        free(classes);
        free(slots);
    }
    tb_free(&buf);
}

/* A parent part of 64 characters, parents of n. */
static void call_v1_find_two_parents(uint32_t n, run *r) { find_alternating(n, n, 64, r); }

/* PDH's longest instance name as the parent part, parents a little longer,
 * both sizes of the same length: the buffer grows by its children alone. */
static void call_v1_find_two_parents_1024(uint32_t n, run *r) { find_alternating(n, 1100, 1024, r); }

/* The name classes of n names that share a 64-character prefix, each with
 * a twin in the other case: a heapsort whose every comparison reads the
 * prefix. */
static void call_v1_block_index_classes(uint32_t n, run *r)
{
    tb_buf buf = adv_v1_shared_prefix(n, 64);
    perfbuf_v1_block b;
    if (v1_parsed(&buf, &b, r)) {
        uint64_t *slots = malloc(sizeof *slots * b.index_slots);
        uint64_t *classes = malloc(sizeof *classes * b.index_slots);
        perfbuf_v1_instance_index index;
        EXPECT(perfbuf_v1_block_index_build(&b, slots, b.index_slots, &index) == PERFBUF_OK);
        start();
        EXPECT(perfbuf_v1_block_index_classes(&b, &index, classes, b.index_slots) == PERFBUF_OK);
        stop(r);
        /* Instance i and its twin i ^ 1 (slots 2 + i: one object) are one
         * class, whose first instance is the even one. */
        uint32_t wrong = 0;
        for (uint32_t i = 0; i < n; i++) {
            wrong += (uint32_t)(classes[2u + i] >> 32) != 2u + (i & ~1u);
        }
        EXPECT(wrong == 0);
        free(classes);
        free(slots);
    }
    tb_free(&buf);
}

/* One call with the whole long parent name in the output. */
static void call_v1_full_name_long(uint32_t n, run *r)
{
    tb_buf buf = adv_v1_long_parent(n);
    perfbuf_v1_block b;
    perfbuf_v1_object children;
    if (v1_parsed(&buf, &b, r) &&
        perfbuf_v1_find_object(&b, ADV_V1_TITLE(1), &children) == PERFBUF_OK) {
        perfbuf_v1_iter it;
        perfbuf_v1_instance inst;
        perfbuf_v1_instances_begin(&children, &it);
        EXPECT(perfbuf_v1_instances_next(&b, &it, &inst));
        size_t cap = (size_t)n + 8;
        char *out = malloc(cap);
        size_t len = 0;
        start();
        /* Without an index: the parent is found by walking the block. */
        EXPECT(perfbuf_v1_full_name_utf8(&b, &children, &inst, NULL, out, cap, &len) ==
               PERFBUF_OK);
        stop(r);
        EXPECT(len == (size_t)n + 2 && out[0] == 'P' && out[n] == '/' && out[n + 1] == 'c');
        free(out);
    }
    tb_free(&buf);
}

/*
 * Every child's full name of adv_v1_alternating_parents in one call: each
 * parent's name (past the cut) is converted once with scratch, and copied
 * from the output for its other children; without scratch each child's
 * parent is converted again, cut at the maximum, so either is linear in
 * the buffer plus the output. The bytes the budget is measured against are
 * the buffer and the output the call is given: what the fuzz harness
 * grants, the output at most PERFBUF_V1_FULL_NAMES_BYTES_PER_BYTE per byte
 * of the object.
 */
static void v1_full_names_object(uint32_t n, bool with_scratch, run *r)
{
    tb_buf buf = adv_v1_alternating_parents(n);
    perfbuf_v1_block b;
    perfbuf_v1_object children;
    if (v1_parsed(&buf, &b, r) &&
        perfbuf_v1_find_object(&b, ADV_V1_TITLE(1), &children) == PERFBUF_OK) {
        uint64_t *slots = malloc(sizeof *slots * b.index_slots);
        size_t *scratch = with_scratch ? calloc(b.index_slots, sizeof *scratch) : NULL;
        perfbuf_v1_full_name *names = malloc(sizeof *names * n);
        perfbuf_v1_instance_index index;
        EXPECT(perfbuf_v1_block_index_build(&b, slots, b.index_slots, &index) == PERFBUF_OK);
        size_t needed = 0;
        start();
        EXPECT(perfbuf_v1_full_names_object(&b, &children, &index, scratch,
                                            with_scratch ? b.index_slots : 0, NULL, 0, NULL, 0,
                                            &needed) == PERFBUF_E_OUTPUT_TOO_SMALL);
        stop(r);
        EXPECT(needed <= PERFBUF_V1_FULL_NAMES_BYTES_PER_BYTE * children.total_length);
        char *out = malloc(needed);
        size_t written = 0;
        start();
        EXPECT(perfbuf_v1_full_names_object(&b, &children, &index, scratch,
                                            with_scratch ? b.index_slots : 0, names, n, out,
                                            needed, &written) == PERFBUF_OK);
        stop(r);
        r->bytes += needed;
        /* Each name is the parent's first 3,072 bytes (1,536 U+00E9), '/'
         * and "c"; children of one parent share its slot. */
        size_t cut = PERFBUF_V1_FULL_NAME_PARENT_MAX_BYTES;
        EXPECT(written == (size_t)n * (cut + 3));
        uint32_t parents = adv_v1_alternating_parent_count(n);
        for (uint32_t i = 0; i < n; i++) {
            const perfbuf_v1_full_name *f = &names[i];
            EXPECT(f->length == cut + 2 && f->parent_length == cut &&
                   f->flags == PERFBUF_V1_FULL_NAME_PARENT_CUT);
            EXPECT(memcmp(out + f->offset + cut, "/c", 3) == 0);
            EXPECT(memcmp(out + f->offset, "\xC3\xA9", 2) == 0 &&
                   memcmp(out + f->offset + cut - 2, "\xC3\xA9", 2) == 0);
            EXPECT(i < parents || f->parent_slot == names[i - parents].parent_slot);
            EXPECT(i == 0 || f->parent_slot != names[i - 1].parent_slot);
        }
        free(out);
        free(names);
        free(scratch);
        free(slots);
    }
    tb_free(&buf);
}

static void call_v1_full_names_scratch(uint32_t n, run *r) { v1_full_names_object(n, true, r); }
static void call_v1_full_names_no_scratch(uint32_t n, run *r) { v1_full_names_object(n, false, r); }

/*
 * Every child of adv_v1_two_parents (parents of n characters in two
 * objects, children alternating between them): its parent, its full name
 * into a 16-byte buffer and its "parent/c" lookup with the one-object index
 * of one parent object answer SCRATCH_NEEDED in O(1) (that index would
 * scan the parent's name for each child: n x n), and the same through the
 * block index cost O(log objects) plus the output.
 */
static void call_v1_parent_lookups_every_child(uint32_t n, run *r)
{
    tb_buf buf = adv_v1_two_parents(n);
    perfbuf_v1_block b;
    perfbuf_v1_object parents, children;
    if (v1_parsed(&buf, &b, r) &&
        perfbuf_v1_find_object(&b, ADV_V1_TITLE(0), &parents) == PERFBUF_OK &&
        perfbuf_v1_find_object(&b, ADV_V1_TITLE(2), &children) == PERFBUF_OK) {
        size_t offsets[1];
        uint64_t *slots = malloc(sizeof *slots * (b.index_slots + 1));
        perfbuf_v1_instance_index one, whole;
        uint32_t refused = 0, named = 0;
        start();
        EXPECT(perfbuf_v1_index_build(&b, &parents, offsets, 1, &one) == PERFBUF_OK);
        EXPECT(perfbuf_v1_block_index_build(&b, slots, b.index_slots, &whole) == PERFBUF_OK);
        perfbuf_v1_iter it;
        perfbuf_v1_instance inst, parent, found;
        perfbuf_v1_instances_begin(&children, &it);
        while (perfbuf_v1_instances_next(&b, &it, &inst)) {
            char text[16];
            size_t len = 0;
            refused += perfbuf_v1_parent(&b, &children, &inst, &one, &parent, NULL) ==
                           PERFBUF_E_SCRATCH_NEEDED &&
                       perfbuf_v1_full_name_utf8(&b, &children, &inst, &one, text, sizeof text,
                                                 &len) == PERFBUF_E_SCRATCH_NEEDED;
            named += perfbuf_v1_parent(&b, &children, &inst, &whole, &parent, NULL) ==
                         PERFBUF_OK &&
                     parent.name_bytes == 2 * (size_t)n &&
                     perfbuf_v1_full_name_utf8(&b, &children, &inst, &whole, text, sizeof text,
                                               &len) == PERFBUF_E_OUTPUT_TOO_SMALL;
        }
        EXPECT(perfbuf_v1_find_instance(&b, &children, "P/c", 3, &one, &found) ==
               PERFBUF_E_SCRATCH_NEEDED);
        stop(r);
        EXPECT(refused == n && named == n);
        free(slots);
    }
    tb_free(&buf);
}

/* The parent of the last child without an index: a walk of the block. */
static void call_v1_parent_walk(uint32_t n, run *r)
{
    tb_buf buf = adv_v1_many_instances(n);
    perfbuf_v1_block b;
    perfbuf_v1_object children;
    if (v1_parsed(&buf, &b, r) &&
        perfbuf_v1_find_object(&b, ADV_V1_TITLE(1), &children) == PERFBUF_OK) {
        perfbuf_v1_iter it;
        perfbuf_v1_instance inst, parent;
        perfbuf_v1_instances_begin(&children, &it);
        EXPECT(perfbuf_v1_instances_next(&b, &it, &inst));
        start();
        EXPECT(perfbuf_v1_parent(&b, &children, &inst, NULL, &parent, NULL) == PERFBUF_OK);
        stop(r);
        EXPECT(parent.index == n - 1);
    }
    tb_free(&buf);
}

/* A counter of a capture laid out in the opposite order: found by a walk
 * of o's definitions, O(definitions) per call as v1.h says. */
static void call_v1_raw_sample_moved(uint32_t n, run *r)
{
    tb_buf older = adv_v1_many_counters(n, 1);
    tb_buf newer = adv_v1_many_counters(n, 0);
    perfbuf_v1_block b0, b1;
    perfbuf_v1_object o0, o1;
    r->bytes = newer.len;
    if (v1_parsed(&older, &b0, r) && v1_parsed(&newer, &b1, r) &&
        perfbuf_v1_find_object(&b0, ADV_V1_TITLE(0), &o0) == PERFBUF_OK &&
        perfbuf_v1_find_object(&b1, ADV_V1_TITLE(0), &o1) == PERFBUF_OK) {
        /* The newer capture's first counter is the older's last. */
        perfbuf_v1_iter it;
        perfbuf_v1_counter c;
        perfbuf_v1_counter_block blk;
        perfbuf_v1_counters_begin(&o1, &it);
        EXPECT(perfbuf_v1_counters_next(&b1, &it, &c));
        EXPECT(perfbuf_v1_object_counter_block(&b0, &o0, &blk));
        perfbuf_raw_sample s;
        perfbuf_value_context ctx;
        r->bytes = older.len;
        start();
        EXPECT(perfbuf_v1_raw_sample(&b0, &o0, &c, &blk, &s, &ctx) == PERFBUF_OK);
        stop(r);
        EXPECT(s.first == 1);
    }
    tb_free(&older);
    tb_free(&newer);
}

static void v1_name_call(uint32_t n, uint32_t code_page, size_t cap, run *r)
{
    tb_buf buf = adv_v1_code_page(n, code_page);
    perfbuf_v1_block b;
    perfbuf_v1_object o;
    if (v1_parsed(&buf, &b, r) && perfbuf_v1_find_object(&b, ADV_V1_TITLE(0), &o) == PERFBUF_OK) {
        perfbuf_v1_instance_index index;
        size_t *offsets = malloc(sizeof *offsets * (n + 1));
        perfbuf_v1_instance inst;
        EXPECT(perfbuf_v1_index_build(&b, &o, offsets, n + 1, &index) == PERFBUF_OK);
        EXPECT(perfbuf_v1_index_get(&b, &index, n, &inst) == PERFBUF_OK);
        char *out = malloc(cap);
        size_t len;
        start();
        perfbuf_status st = perfbuf_v1_instance_name_utf8(&b, &inst, out, cap, &len);
        stop(r);
        /* n bytes, each at most 3 in UTF-8. */
        EXPECT(cap > 3 * (size_t)n ? st == PERFBUF_OK : st == PERFBUF_E_OUTPUT_TOO_SMALL);
        free(out);
        free(offsets);
    }
    tb_free(&buf);
}

static void call_v1_system_name(uint32_t n, run *r)
{
    tb_buf buf = adv_v1_long_system_name(n);
    perfbuf_v1_block b;
    size_t cap = 3 * (size_t)n + 1;
    char *out = malloc(cap);
    size_t len = 0;
    r->bytes = buf.len;
    start();
    EXPECT(perfbuf_v1_parse(buf.data, buf.len, NULL, &b, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_v1_system_name_utf8(&b, out, cap, &len) == PERFBUF_OK);
    stop(r);
    /* Three of every four units are 'h', the fourth U+FFFD (3 bytes). */
    EXPECT(len == (size_t)n / 4 * 6 + (size_t)n % 4);
    free(out);
    tb_free(&buf);
}

static void call_v1_name_1252(uint32_t n, run *r) { v1_name_call(n, 1252, 3 * (size_t)n + 1, r); }
static void call_v1_name_65001(uint32_t n, run *r) { v1_name_call(n, 65001, 3 * (size_t)n + 1, r); }
static void call_v1_name_20127(uint32_t n, run *r) { v1_name_call(n, 20127, 3 * (size_t)n + 1, r); }
static void call_v1_name_small(uint32_t n, run *r) { v1_name_call(n, 65001, 16, r); }

static void v1_calls(void)
{
    GROWTH("perfbuf_v1_parse: n objects", call_v1_parse, LINEAR);
    GROWTH("perfbuf_v1_find_object: last of n", call_v1_find_object, LINEAR);
    GROWTH("perfbuf_v1_block_index_build: n objects (sorts keys)", call_v1_block_index, N_LOG_N);
    GROWTH("perfbuf_v1_index_build + index_get: n instances", call_v1_index_build, LINEAR);
    GROWTH("perfbuf_v1_find_instance: last name, parent/name", call_v1_find_instance, LINEAR);
    GROWTH("perfbuf_v1_find_instance: svchost#<n-1>", call_v1_find_same_names, LINEAR);
    GROWTH("perfbuf_v1_find_instance: <n-char parent>/c#<n-1>", call_v1_find_long_parent, LINEAR);
    GROWTH("perfbuf_v1_find_instance: 64-char parent part, two n-char parents",
           call_v1_find_two_parents, LINEAR);
    GROWTH("perfbuf_v1_find_instance: 1,024-char parent part, parents alternating",
           call_v1_find_two_parents_1024, LINEAR);
    GROWTH("perfbuf_v1_block_index_classes: n names, one 64-char prefix",
           call_v1_block_index_classes, N_LOG_BUDGET);
    GROWTH("perfbuf_v1_full_name_utf8: n-char parent, no index", call_v1_full_name_long, LINEAR);
    GROWTH("perfbuf_v1_full_names_object: children alternating, scratch",
           call_v1_full_names_scratch, LINEAR);
    GROWTH("perfbuf_v1_full_names_object: children alternating, no scratch",
           call_v1_full_names_no_scratch, LINEAR);
    GROWTH("perfbuf_v1_parent: no index, parent at the far end", call_v1_parent_walk, LINEAR);
    GROWTH("parent, full name: every child of two n-char parents, both index forms",
           call_v1_parent_lookups_every_child, LINEAR);
    GROWTH("perfbuf_v1_raw_sample: counter of a reordered capture", call_v1_raw_sample_moved,
           LINEAR);
    GROWTH("perfbuf_v1_parse + system_name_utf8: n-char name", call_v1_system_name, LINEAR);
    GROWTH("perfbuf_v1_instance_name_utf8: n bytes of cp 1252", call_v1_name_1252, LINEAR);
    GROWTH("perfbuf_v1_instance_name_utf8: n bytes of cp 65001", call_v1_name_65001, LINEAR);
    GROWTH("perfbuf_v1_instance_name_utf8: n bytes of cp 20127", call_v1_name_20127, LINEAR);
    GROWTH("perfbuf_v1_instance_name_utf8: n bytes, 16-byte output", call_v1_name_small, LINEAR);
}

/* ---- pairing ---- */

/*
 * perfbuf_v1_pair on adv_pair's shapes, and with `arrays` the formatted
 * array of both counters of CF_PROCESS on top, sized then filled: the
 * string area the caller gives is counted as input, as for every call
 * that writes text (docs/linear-time.md). n log n: the pairing sorts.
 */
static void pair_case_path(uint32_t n, int shape, bool arrays, const char *path_text, run *r)
{
    tb_buf ob, nb;
    adv_pair(n, shape, &ob, &nb);
    r->bytes = ob.len + nb.len;
    perfbuf_v1_block older, newer;
    EXPECT(perfbuf_v1_parse(ob.data, ob.len, NULL, &older, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_v1_parse(nb.data, nb.len, NULL, &newer, NULL) == PERFBUF_OK);
    size_t slots = 0;
    EXPECT(perfbuf_v1_pairing_scratch(&older, &newer, CF_PROCESS, &slots) == PERFBUF_OK);
    uint64_t *scratch = malloc(sizeof *scratch * slots);
    perfbuf_v1_pairing p;
    start();
    EXPECT(perfbuf_v1_pair(&older, &newer, CF_PROCESS, scratch, slots, &p) == PERFBUF_OK);
    stop(r);
    uint32_t expected = shape == 0 ? n - (n + 9) / 10 : shape == 1 ? n - 1 : n;
    EXPECT(p.paired == expected && p.ambiguous == 0);
    const uint32_t counters[2] = {CF_CPU, CF_COUNT};
    perfbuf_counter_path path;
    const perfbuf_counter_path *pp = NULL;
    if (path_text != NULL) {
        EXPECT(perfbuf_path_parse(path_text, strlen(path_text), &path, NULL) == PERFBUF_OK);
        pp = &path;
        r->bytes += strlen(path_text);
    }
    for (int k = 0; arrays && k < 2; k++) {
        size_t count = 0, bytes = 0;
        start();
        EXPECT(perfbuf_v1_formatted_array(&p, counters[k], pp, PERFBUF_FMT_DOUBLE, NULL, &count,
                                          NULL, &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
        EXPECT(count == (shape == 0 ? n - (n + 9) / 10 + n / 10 : shape == 1 ? n - 1 : n));
        stop(r);
        perfbuf_formatted_item *items = malloc(sizeof *items * (count + 1));
        char *strings = malloc(bytes + 1);
        r->bytes += bytes;
        start();
        EXPECT(perfbuf_v1_formatted_array(&p, counters[k], pp, PERFBUF_FMT_DOUBLE, items,
                                          &count, strings, &bytes) == PERFBUF_OK);
        stop(r);
        free(items);
        free(strings);
    }
    free(scratch);
    tb_free(&ob);
    tb_free(&nb);
}

static void pair_case(uint32_t n, int shape, bool arrays, run *r)
{
    pair_case_path(n, shape, arrays, NULL, r);
}

static void call_pair_churn(uint32_t n, run *r) { pair_case(n, 0, false, r); }
/* Every name cut at the text area's end, then compared with a prefix. */
static void call_arrays_long_names(uint32_t n, run *r)
{
    pair_case_path(n, 4, true, "\\Process(\xE2\x82\xAC\xE2\x82\xAC*)\\Count", r);
}
static void call_pair_same_names(uint32_t n, run *r) { pair_case(n, 1, false, r); }
static void call_pair_long_parent(uint32_t n, run *r) { pair_case(n, 2, false, r); }
static void call_pair_two_parents(uint32_t n, run *r) { pair_case(n, 3, false, r); }
static void call_arrays_churn(uint32_t n, run *r) { pair_case(n, 0, true, r); }
static void call_arrays_same_names(uint32_t n, run *r) { pair_case(n, 1, true, r); }
static void call_arrays_long_parent(uint32_t n, run *r) { pair_case(n, 2, true, r); }
static void call_arrays_two_parents(uint32_t n, run *r) { pair_case(n, 3, true, r); }

/*
 * Children alternating between two parents of n characters in two objects
 * (adv_v1_two_parents), paired with a second parse of the same bytes. A
 * path naming a parent (1,024 'P's, as long as PDH allows) compares it
 * with each distinct parent once, never converting it (which cost the
 * parent's whole name per child, up to the text area), and selects
 * nothing; the
 * size call of every item reports at most PERFBUF_ARRAY_STRING_BYTES_PER_BYTE
 * times the capture, cutting each child's copy of its parent's name (whole,
 * the parent's n characters per child).
 */
static void call_arrays_parent_path(uint32_t n, run *r)
{
    tb_buf buf = adv_v1_two_parents(n);
    /* PDH's longest parent part, every character equal to the parents'. */
    char parent_part[PERFBUF_PATH_MAX_INSTANCE + 1];
    memset(parent_part, 'P', PERFBUF_PATH_MAX_INSTANCE);
    parent_part[PERFBUF_PATH_MAX_INSTANCE] = '\0';
    char path_text[PERFBUF_PATH_MAX_INSTANCE + 32];
    int len = snprintf(path_text, sizeof path_text, "\\O(%s/c)\\C", parent_part);
    EXPECT(len > 0);
    r->bytes = 2 * buf.len + (size_t)len;
    perfbuf_v1_block older, newer;
    EXPECT(perfbuf_v1_parse(buf.data, buf.len, NULL, &older, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_v1_parse(buf.data, buf.len, NULL, &newer, NULL) == PERFBUF_OK);
    size_t slots = 0;
    EXPECT(perfbuf_v1_pairing_scratch(&older, &newer, ADV_V1_TITLE(2), &slots) == PERFBUF_OK);
    uint64_t *scratch = malloc(sizeof *scratch * slots);
    perfbuf_v1_pairing p;
    perfbuf_counter_path path;
    EXPECT(perfbuf_path_parse(path_text, (size_t)len, &path, NULL) == PERFBUF_OK);
    start();
    EXPECT(perfbuf_v1_pair(&older, &newer, ADV_V1_TITLE(2), scratch, slots, &p) == PERFBUF_OK);
    size_t count = 0, bytes = 0;
    EXPECT(perfbuf_v1_formatted_array(&p, 2, &path, PERFBUF_FMT_LONG, NULL, &count, NULL,
                                      &bytes) == PERFBUF_OK);
    EXPECT(count == 0 && bytes == 0);
    perfbuf_raw_item none[1];
    EXPECT(perfbuf_v1_raw_array(&p, 2, &path, none, &count, NULL, &bytes) == PERFBUF_OK);
    count = 0;
    bytes = 0;
    EXPECT(perfbuf_v1_formatted_array(&p, 2, NULL, PERFBUF_FMT_LONG, NULL, &count, NULL,
                                      &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    stop(r);
    EXPECT(count == n);
    EXPECT(bytes <= (size_t)PERFBUF_ARRAY_STRING_BYTES_PER_BYTE * newer.size);
    free(scratch);
    tb_free(&buf);
}


/*
 * Every object of a block of n objects (one instance each, its parent in
 * the previous object) paired with the same object of a second parse:
 * the block indexes are built once, and each perfbuf_v1_pair_objects costs
 * its own instances, where perfbuf_v1_pair per object would find the
 * objects and index both blocks again (quadratic in the objects).
 */
static void call_pair_every_object(uint32_t n, run *r)
{
    tb_buf buf = adv_v1_many_objects(n);
    r->bytes = 2 * buf.len;
    perfbuf_v1_block older, newer;
    EXPECT(perfbuf_v1_parse(buf.data, buf.len, NULL, &older, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_v1_parse(buf.data, buf.len, NULL, &newer, NULL) == PERFBUF_OK);
    uint64_t *os = malloc(sizeof *os * (older.index_slots + 1));
    uint64_t *ns = malloc(sizeof *ns * (newer.index_slots + 1));
    uint64_t scratch[4096];
    perfbuf_v1_instance_index oi, ni;
    uint32_t paired = 0;
    start();
    EXPECT(perfbuf_v1_block_index_build(&older, os, older.index_slots, &oi) == PERFBUF_OK);
    EXPECT(perfbuf_v1_block_index_build(&newer, ns, newer.index_slots, &ni) == PERFBUF_OK);
    perfbuf_v1_iter oit, nit;
    perfbuf_v1_object oo, no;
    perfbuf_v1_objects_begin(&older, &oit);
    perfbuf_v1_objects_begin(&newer, &nit);
    while (perfbuf_v1_objects_next(&older, &oit, &oo) &&
           perfbuf_v1_objects_next(&newer, &nit, &no)) {
        size_t slots = 0;
        perfbuf_v1_pairing p;
        EXPECT(perfbuf_v1_pairing_scratch_objects(&oo, &no, &slots) == PERFBUF_OK &&
               slots <= 4096);
        EXPECT(perfbuf_v1_pair_objects(&older, &oo, &oi, &newer, &no, &ni, scratch, 4096, &p) ==
               PERFBUF_OK);
        paired += p.paired;
    }
    stop(r);
    EXPECT(paired == n);
    free(os);
    free(ns);
    tb_free(&buf);
}

/* perfbuf_v2_pair and both formatted arrays on adv_pair_v2's shapes. */
static void pair_v2_case(uint32_t n, int shape, run *r)
{
    tb_buf ob, nb;
    adv_pair_v2(n, shape, &ob, &nb);
    tb_buf regbuf = cf_v2_registration();
    r->bytes = ob.len + nb.len + regbuf.len;
    perfbuf_v2_query older, newer;
    perfbuf_v2_reginfo reg;
    perfbuf_v2_block obk, nbk;
    perfbuf_v2_iter it;
    EXPECT(perfbuf_v2_query_parse(ob.data, ob.len, NULL, &older, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_v2_query_parse(nb.data, nb.len, NULL, &newer, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_v2_reginfo_parse(regbuf.data, regbuf.len, NULL, &reg, NULL) == PERFBUF_OK);
    perfbuf_v2_blocks_begin(&older, &it);
    EXPECT(perfbuf_v2_blocks_next(&older, &it, &obk));
    perfbuf_v2_blocks_begin(&newer, &it);
    EXPECT(perfbuf_v2_blocks_next(&newer, &it, &nbk));
    size_t slots = 0;
    EXPECT(perfbuf_v2_pairing_scratch(&obk, &nbk, &slots) == PERFBUF_OK);
    uint64_t *scratch = malloc(sizeof *scratch * slots);
    perfbuf_v2_pairing p;
    start();
    EXPECT(perfbuf_v2_pair(&older, &obk, &newer, &nbk, scratch, slots, &p) == PERFBUF_OK);
    stop(r);
    uint32_t expected = shape == 0 ? n - (n + 9) / 10 : n - 1;
    EXPECT(p.paired == expected && p.ambiguous == 0);
    const uint32_t counters[2] = {CF_V2_CPU, CF_V2_COUNT};
    for (int k = 0; k < 2; k++) {
        size_t count = 0, bytes = 0;
        start();
        EXPECT(perfbuf_v2_formatted_array(&p, &reg, counters[k], NULL, PERFBUF_FMT_DOUBLE, NULL,
                                          &count, NULL, &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
        stop(r);
        perfbuf_formatted_item *items = malloc(sizeof *items * (count + 1));
        char *strings = malloc(bytes + 1);
        r->bytes += bytes;
        start();
        EXPECT(perfbuf_v2_formatted_array(&p, &reg, counters[k], NULL, PERFBUF_FMT_DOUBLE, items,
                                          &count, strings, &bytes) == PERFBUF_OK);
        stop(r);
        uint32_t valid = 0;
        for (size_t i = 0; i < count; i++) {
            valid += items[i].value.status == PERFBUF_CSTATUS_VALID_DATA;
        }
        EXPECT(valid >= (k == 0 ? expected : (uint32_t)count));
        free(items);
        free(strings);
    }
    free(scratch);
    tb_free(&ob);
    tb_free(&nb);
    tb_free(&regbuf);
}

static void call_pair_v2_churn(uint32_t n, run *r) { pair_v2_case(n, 0, r); }
static void call_pair_v2_same_key(uint32_t n, run *r) { pair_v2_case(n, 1, r); }

static void pairing_cases(void)
{
    GROWTH("perfbuf_v2_pair + arrays: n ids, 10 % churn", call_pair_v2_churn, N_LOG_N);
    GROWTH("perfbuf_v2_pair + arrays: n of one id and name, #N shifted", call_pair_v2_same_key,
           N_LOG_N);
    GROWTH("perfbuf_v1_pair_objects: every one of n objects", call_pair_every_object, N_LOG_N);
    GROWTH("perfbuf_v1_pair: n names, 10 % churn", call_pair_churn, N_LOG_N);
    GROWTH("perfbuf_v1_pair: n svchost, #N shifted", call_pair_same_names, N_LOG_N);
    GROWTH("perfbuf_v1_pair: n children of one long parent", call_pair_long_parent, N_LOG_N);
    GROWTH("perfbuf_v1_pair: two long parents of one name", call_pair_two_parents, N_LOG_N);
    GROWTH("pair + formatted arrays: 10 % churn", call_arrays_churn, N_LOG_N);
    GROWTH("pair + formatted arrays: n svchost", call_arrays_same_names, N_LOG_N);
    GROWTH("pair + formatted arrays: one long parent", call_arrays_long_parent, N_LOG_N);
    GROWTH("pair + formatted arrays: two long parents", call_arrays_two_parents, N_LOG_N);
    GROWTH("pair + arrays: path naming a parent, two n-char parents", call_arrays_parent_path,
           N_LOG_N);
    /* At n / 4: each name is 2 KB, and the 8n run would dominate the test. */
    CALL(growth("pair + arrays, prefix path: names past the text area", call_arrays_long_names,
                N / 4, N_LOG_N));
}

/* The items a query's counters hold after a collection: what the budget
 * of a collection counts besides its input (docs/linear-time.md). Asked
 * outside the counted work. */
static size_t query_items(const perfbuf_query *q, const perfbuf_query_counter *counters, int k)
{
    size_t total = 0;
    for (int i = 0; i < k; i++) {
        size_t n = 0;
        perfbuf_status st = perfbuf_query_raw_array(q, &counters[i], NULL, &n, NULL, NULL, NULL);
        total += st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL ? n : 0u;
    }
    return total * PERFBUF_QUERY_ITEM_BYTES;
}

/*
 * The query (perfbuf/query.h) on adv_pair's shapes: two counters of
 * CF_PROCESS, both captures collected, both formatted arrays, the
 * exited instances and the counters' titles read. The work of the collections and reads is
 * counted; the budget's input is both captures, the table and the items
 * the collections gave, never the arena they asked for (a size the
 * library reports would let a cost it causes pay for itself).
 */
static void query_case(uint32_t n, int shape, run *r)
{
    tb_buf ob, nb;
    adv_pair(n, shape, &ob, &nb);
    tb_buf table;
    tb_init(&table);
    const char *titles[] = {"6", "% Processor Time", "10", "ID Process", "230", "Process"};
    for (int k = 0; k < 6; k++) {
        tb_utf16(&table, titles[k], 1);
    }
    tb_u16(&table, 0);
    perfbuf_query q;
    perfbuf_query_counter counters[2] = {0};
    const char *paths[2] = {"\\Process(*)\\% Processor Time", "\\Process(*)\\ID Process"};
    EXPECT(perfbuf_query_open(&q, table.data, table.len, NULL, 0, NULL) == PERFBUF_OK);
    for (int k = 0; k < 2; k++) {
        EXPECT(perfbuf_query_add(&q, &counters[k], paths[k], strlen(paths[k]), NULL) ==
               PERFBUF_OK);
    }
    void *arena = NULL;
    size_t needed = 0, items_bytes = 0;
    const tb_buf *captures[2] = {&ob, &nb};
    for (int c = 0; c < 2; c++) {
        perfbuf_status st;
        start();
        while ((st = perfbuf_query_collect(&q, captures[c]->data, captures[c]->len, &needed,
                                           NULL)) == PERFBUF_E_OUTPUT_TOO_SMALL) {
            void *bigger = realloc(arena, needed);
            arena = bigger;
            EXPECT(perfbuf_query_arena(&q, arena, &needed, NULL) == PERFBUF_OK);
        }
        stop(r);
        EXPECT(st == PERFBUF_OK);
        items_bytes += query_items(&q, counters, 2);
    }
    uint32_t expected = shape == 0 ? n - (n + 9) / 10 + n / 10 : shape == 1 ? n - 1 : n;
    for (int k = 0; k < 2; k++) {
        size_t count = expected;
        perfbuf_formatted_item *items = malloc(sizeof *items * (count + 1));
        const char **exited = malloc(sizeof *exited * (n + 1));
        size_t gone = n;
        start();
        EXPECT(tq_formatted(&q, &counters[k], PERFBUF_FMT_DOUBLE, items, &count) == PERFBUF_OK);
        EXPECT(tq_instances(&q, &counters[k], PERFBUF_QUERY_EXITED, exited, &gone) ==
               PERFBUF_OK);
        uint32_t title = 0;
        char text[32];
        size_t len = 0;
        EXPECT(perfbuf_query_title(&q, &counters[k], PERFBUF_QUERY_TITLE_COUNTER,
                                   PERFBUF_LANGUAGE_ENGLISH, &title, text, sizeof text,
                                   &len, NULL) == PERFBUF_OK);
        stop(r);
        EXPECT(title == (k == 0 ? 6u : 10u));
        EXPECT(count == expected);
        EXPECT(gone == (shape == 0 ? (n + 9) / 10 : shape == 1 ? 1 : 0));
        free(exited);
        free(items);
    }
    r->bytes = ob.len + nb.len + table.len + items_bytes;
    free(arena);
    tb_free(&table);
    tb_free(&ob);
    tb_free(&nb);
}

static void call_query_churn(uint32_t n, run *r) { query_case(n, 0, r); }
static void call_query_same_names(uint32_t n, run *r) { query_case(n, 1, r); }
static void call_query_long_parent(uint32_t n, run *r) { query_case(n, 2, r); }
static void call_query_two_parents(uint32_t n, run *r) { query_case(n, 3, r); }
static void call_query_long_names(uint32_t n, run *r) { query_case(n, 4, r); }

/* Collects both captures into the query, growing the arena as asked;
 * the collections' work is counted. Returns the bytes of the items the
 * collections gave to `count` counters (query_items). */
static size_t query_collect_both(perfbuf_query *q, const perfbuf_query_counter *counters, int count,
                                 void **arena, const tb_buf *const captures[2], run *r)
{
    size_t needed = 0, items_bytes = 0;
    for (int c = 0; c < 2; c++) {
        perfbuf_status st;
        start();
        while ((st = perfbuf_query_collect(q, captures[c]->data, captures[c]->len, &needed,
                                           NULL)) == PERFBUF_E_OUTPUT_TOO_SMALL) {
            *arena = realloc(*arena, needed);
            EXPECT(perfbuf_query_arena(q, *arena, &needed, NULL) == PERFBUF_OK);
        }
        stop(r);
        EXPECT(st == PERFBUF_OK);
        items_bytes += query_items(q, counters, count);
    }
    return items_bytes;
}

/* The formatted array and exited instances of c: `count` items, `gone`
 * exited; the reads' work is counted. */
static void query_read(const perfbuf_query *q, const perfbuf_query_counter *c, uint32_t count,
                       uint32_t gone, run *r)
{
    size_t items_count = count, exited_count = (size_t)gone + 1u;
    perfbuf_formatted_item *items = malloc(sizeof *items * (items_count + 1));
    const char **exited = malloc(sizeof *exited * (exited_count + 1));
    start();
    EXPECT(tq_formatted(q, c, PERFBUF_FMT_DOUBLE, items, &items_count) == PERFBUF_OK);
    EXPECT(tq_instances(q, c, PERFBUF_QUERY_EXITED, exited, &exited_count) == PERFBUF_OK);
    stop(r);
    EXPECT(items_count == count && exited_count == gone);
    free(exited);
    free(items);
}

/*
 * adv_v1_long_parent's n children "c" of one parent of n characters, in
 * both captures, through a path and a counter of every definition: the
 * parent's name is converted and hashed once per capture whatever the
 * number of children, so the work grows with the bytes. adv_pair's long
 * parent above keeps 2,000 characters, where a parent name converted
 * again for each child costs n x 2,000 units, which is linear in n and
 * within the budget; here it would cost n x n. Input: both captures, the
 * table and the items.
 */
static void call_query_parent_of_n(uint32_t n, run *r)
{
    tb_buf ob = adv_v1_long_parent(n), nb = adv_v1_long_parent(n);
    tb_buf table;
    tb_init(&table);
    char child[16];
    snprintf(child, sizeof child, "%u", ADV_V1_TITLE(1));
    const char *titles[] = {"2", "Count", child, "Child"};
    for (int k = 0; k < 4; k++) {
        tb_utf16(&table, titles[k], 1);
    }
    tb_u16(&table, 0);
    perfbuf_query q;
    perfbuf_query_counter counters[2] = {0};
    const char *path = "\\Child(*)\\Count";
    EXPECT(perfbuf_query_open(&q, table.data, table.len, NULL, 0, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_query_add(&q, &counters[0], path, strlen(path), NULL) == PERFBUF_OK);
    EXPECT(perfbuf_query_add_definitions(&q, &counters[1], NULL) == PERFBUF_OK);
    void *arena = NULL;
    const tb_buf *const captures[2] = {&ob, &nb};
    size_t items_bytes = query_collect_both(&q, counters, 2, &arena, captures, r);
    /* The collections alone: each child's name in the arrays carries its
     * parent's (cut at 3,072 bytes), so what a read writes grows with
     * n x n here, and the reads are measured on adv_pair's shapes above. */
    size_t count = 0;
    EXPECT(perfbuf_query_raw_array(&q, &counters[0], NULL, &count, NULL, NULL, NULL) ==
           PERFBUF_E_OUTPUT_TOO_SMALL);
    EXPECT(count == n);
    r->bytes = ob.len + nb.len + table.len + items_bytes;
    free(arena);
    tb_free(&ob);
    tb_free(&nb);
    tb_free(&table);
}

/*
 * The query opened on V2 (perfbuf_query_open_v2) on adv_pair_v2's shapes:
 * two counters by name, both captures collected, arrays and exited
 * instances read. Input: both captures, the registration and names, and
 * the arena the query filled.
 */
static void query_v2_case(uint32_t n, int shape, run *r)
{
    tb_buf ob, nb;
    adv_pair_v2(n, shape, &ob, &nb);
    static const tb_reg_row rows[2] = {
        {CF_V2_CPU, PERF_100NSEC_TIMER, PERFBUF_V2_NO_ID, "cpu"},
        {CF_V2_COUNT, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, "count"}};
    tb_buf reginfo = cf_v2_registration();
    tb_buf names = tb_v2_strings(rows, 2, PERFBUF_V2_STRINGS_FROM_ARRAY_END);
    tb_buf set = tb_v2_string_answer("Proc");
    perfbuf_query_registration reg = {.reginfo = reginfo.data,
                                      .reginfo_len = reginfo.len,
                                      .counter_names = names.data,
                                      .counter_names_len = names.len,
                                      .counterset_name = set.data,
                                      .counterset_name_len = set.len};
    perfbuf_query q;
    perfbuf_query_counter counters[2] = {0};
    const char *paths[2] = {"\\Proc(*)\\cpu", "\\Proc(*)\\count"};
    EXPECT(perfbuf_query_open_v2(&q, &reg, 1, NULL) == PERFBUF_OK);
    for (int k = 0; k < 2; k++) {
        EXPECT(perfbuf_query_add(&q, &counters[k], paths[k], strlen(paths[k]), NULL) ==
               PERFBUF_OK);
    }
    void *arena = NULL;
    const tb_buf *const captures[2] = {&ob, &nb};
    size_t items_bytes = query_collect_both(&q, counters, 2, &arena, captures, r);
    uint32_t expected = shape == 0 ? n - (n + 9) / 10 + n / 10 : n - 1;
    uint32_t gone = shape == 0 ? (n + 9) / 10 : 1;
    for (int k = 0; k < 2; k++) {
        query_read(&q, &counters[k], expected, gone, r);
    }
    r->bytes = ob.len + nb.len + reginfo.len + names.len + set.len + items_bytes;
    free(arena);
    tb_free(&ob);
    tb_free(&nb);
    tb_free(&reginfo);
    tb_free(&names);
    tb_free(&set);
}

static void call_query_v2_churn(uint32_t n, run *r) { query_v2_case(n, 0, r); }
static void call_query_v2_same_key(uint32_t n, run *r) { query_v2_case(n, 1, r); }

/* A V2 query opened on a registration of n counters and n names whose
 * ids descend (the arena gives both their order), with a path naming the
 * last counter: open, arena and the path's resolution are counted. */
static void call_query_v2_registration(uint32_t n, run *r)
{
    tb_buf reginfo = adv_reginfo_refs(n, 1);
    tb_buf names = adv_strings(n, 0, 1);
    perfbuf_query_registration reg = {.reginfo = reginfo.data,
                                      .reginfo_len = reginfo.len,
                                      .counter_names = names.data,
                                      .counter_names_len = names.len};
    perfbuf_query q;
    perfbuf_query_counter c = {0};
    char path[80];
    size_t bytes = 0;
    start();
    EXPECT(perfbuf_query_open_v2(&q, &reg, 1, NULL) == PERFBUF_OK);
    stop(r);
    /* The GUID as a caller knows it: the query validates this registration
     * only once the arena gives its ids their order. */
    uint64_t *order = malloc(sizeof *order * n);
    perfbuf_v2_reginfo parsed;
    EXPECT(perfbuf_v2_reginfo_parse_indexed(reginfo.data, reginfo.len, NULL, order, n, &parsed,
                                            NULL) == PERFBUF_OK);
    char guid[PERFBUF_GUID_STRING_SIZE];
    perfbuf_guid_format(&parsed.counterset, guid);
    free(order);
    snprintf(path, sizeof path, "\\%s(*)\\s%u", guid, n - 1u);
    EXPECT(perfbuf_query_add(&q, &c, path, strlen(path), NULL) == PERFBUF_OK);
    EXPECT(perfbuf_query_arena(&q, NULL, &bytes, NULL) == PERFBUF_E_OUTPUT_TOO_SMALL);
    void *arena = malloc(bytes);
    start();
    EXPECT(perfbuf_query_arena(&q, arena, &bytes, NULL) == PERFBUF_OK);
    stop(r);
    EXPECT(c.resolution == PERFBUF_CSTATUS_VALID_DATA);
    r->bytes = reginfo.len + names.len + bytes;
    free(arena);
    tb_free(&reginfo);
    tb_free(&names);
}

/* perfbuf_query_pair_by_unique_id on adv_pair_unique_id: n - 1 pairs,
 * one exited. */
static void call_query_unique_id(uint32_t n, run *r)
{
    tb_buf ob, nb;
    adv_pair_unique_id(n, &ob, &nb);
    tb_buf table;
    tb_init(&table);
    const char *titles[] = {"6", "% Processor Time", "230", "Process"};
    for (int k = 0; k < 4; k++) {
        tb_utf16(&table, titles[k], 1);
    }
    tb_u16(&table, 0);
    perfbuf_query q;
    perfbuf_query_counter c = {0};
    const char *path = "\\Process(*)\\% Processor Time";
    EXPECT(perfbuf_query_open(&q, table.data, table.len, NULL, 0, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_query_add(&q, &c, path, strlen(path), NULL) == PERFBUF_OK);
    EXPECT(perfbuf_query_pair_by_unique_id(&q, &c, NULL) == PERFBUF_OK);
    void *arena = NULL;
    const tb_buf *const captures[2] = {&ob, &nb};
    size_t items_bytes = query_collect_both(&q, &c, 1, &arena, captures, r);
    query_read(&q, &c, n - 1u, 1u, r);
    r->bytes = ob.len + nb.len + table.len + items_bytes;
    free(arena);
    tb_free(&ob);
    tb_free(&nb);
    tb_free(&table);
}

/*
 * A counter "*" over adv_every_counter's object: an item per instance and
 * counter, each instance's long name hashed and compared once, not once
 * per counter. Input: both captures, the table and the arena.
 */
static void call_query_every_counter(uint32_t n, run *r)
{
    tb_buf ob, nb;
    adv_every_counter(n, &ob, &nb);
    tb_buf table;
    tb_init(&table);
    tb_utf16(&table, "230", 1);
    tb_utf16(&table, "Process", 1);
    tb_u16(&table, 0);
    perfbuf_query q;
    perfbuf_query_counter c = {0};
    const char *path = "\\Process(*)\\*";
    EXPECT(perfbuf_query_open(&q, table.data, table.len, NULL, 0, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_query_add(&q, &c, path, strlen(path), NULL) == PERFBUF_OK);
    void *arena = NULL;
    const tb_buf *const captures[2] = {&ob, &nb};
    size_t items_bytes = query_collect_both(&q, &c, 1, &arena, captures, r);
    query_read(&q, &c, (ADV_EVERY_INSTANCES - 1u) * (n / 8u + 1u), 1u, r);
    r->bytes = ob.len + nb.len + table.len + items_bytes;
    free(arena);
    tb_free(&ob);
    tb_free(&nb);
    tb_free(&table);
}

/*
 * A path over adv_repeated_title's n objects of one title: every object
 * read, self-paired against one block index, and merged into one array;
 * only the first object's instances pair: p0 exits (listed), p1 is the
 * newer capture's first. Input: both
 * captures, the table and the arena.
 */
static void call_query_repeated_title(uint32_t n, run *r)
{
    tb_buf ob, nb;
    adv_repeated_title(n, &ob, &nb);
    tb_buf table;
    tb_init(&table);
    tb_utf16(&table, "230", 1);
    tb_utf16(&table, "Process", 1);
    tb_u16(&table, 0);
    perfbuf_query q;
    perfbuf_query_counter c = {0};
    const char *path = "\\Process(*)\\*";
    EXPECT(perfbuf_query_open(&q, table.data, table.len, NULL, 0, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_query_add(&q, &c, path, strlen(path), NULL) == PERFBUF_OK);
    void *arena = NULL;
    const tb_buf *const captures[2] = {&ob, &nb};
    size_t items_bytes = query_collect_both(&q, &c, 1, &arena, captures, r);
    query_read(&q, &c, 2u * (n - 1u), 1u, r);
    r->bytes = ob.len + nb.len + table.len + items_bytes;
    free(arena);
    tb_free(&ob);
    tb_free(&nb);
    tb_free(&table);
}

/*
 * A counter of every definition (perfbuf_query_add_definitions) over a
 * query opened on an empty table: shape 0, adv_repeated_title's n objects
 * of one title (each first-of-title looked up in the block index); 1,
 * adv_every_counter's n / 8 + 1 definitions per instance; 2, the same
 * all of one title (each paired by its rank among its key's). Input:
 * both captures, the table and the arena.
 */
static void definitions_case(uint32_t n, int shape, run *r)
{
    tb_buf ob, nb;
    if (shape == 0) {
        adv_repeated_title(n, &ob, &nb);
    } else if (shape == 1) {
        adv_every_counter(n, &ob, &nb);
    } else {
        adv_one_title_definitions(n, &ob, &nb);
    }
    tb_buf table;
    tb_init(&table);
    tb_u16(&table, 0);
    perfbuf_query q;
    perfbuf_query_counter c = {0};
    EXPECT(perfbuf_query_open(&q, table.data, table.len, NULL, 0, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_query_add_definitions(&q, &c, NULL) == PERFBUF_OK);
    void *arena = NULL;
    const tb_buf *const captures[2] = {&ob, &nb};
    size_t items_bytes = query_collect_both(&q, &c, 1, &arena, captures, r);
    uint32_t items = shape == 0 ? 2u * (n - 1u) : (ADV_EVERY_INSTANCES - 1u) * (n / 8u + 1u);
    query_read(&q, &c, items, 1u, r);
    r->bytes = ob.len + nb.len + table.len + items_bytes;
    free(arena);
    tb_free(&ob);
    tb_free(&nb);
    tb_free(&table);
}

static void call_definitions_repeated_title(uint32_t n, run *r) { definitions_case(n, 0, r); }
static void call_definitions_many(uint32_t n, run *r) { definitions_case(n, 1, r); }
static void call_definitions_one_title(uint32_t n, run *r) { definitions_case(n, 2, r); }

static void query_cases(void)
{
    GROWTH("query V2: 2 counters, 2 captures, n ids, 10 % churn", call_query_v2_churn, N_LOG_N);
    GROWTH("query V2: n of one id and name, #N shifted", call_query_v2_same_key, N_LOG_N);
    GROWTH("query V2: a registration of n unordered counters and names",
           call_query_v2_registration, N_LOG_N);
    GROWTH("query: n svchost paired by UniqueID, the first exits", call_query_unique_id, N_LOG_N);
    GROWTH("query: 2 counters, 2 captures, n names, 10 % churn", call_query_churn, N_LOG_N);
    GROWTH("query: n svchost, #N shifted", call_query_same_names, N_LOG_N);
    GROWTH("query: n children of one long parent", call_query_long_parent, N_LOG_N);
    GROWTH("query: two long parents of one name", call_query_two_parents, N_LOG_N);
    GROWTH("query: n children of one n-char parent", call_query_parent_of_n, N_LOG_N);
    CALL(growth("query: names of 1,100 euro signs", call_query_long_names, N / 4, N_LOG_N));
    GROWTH("query: counter *, n / 8 counters of 16 long-named instances",
           call_query_every_counter, N_LOG_N);
    GROWTH("query: n objects of one title, merged", call_query_repeated_title, N_LOG_N);
    GROWTH("query, every definition: n objects of one title", call_definitions_repeated_title,
           N_LOG_N);
    GROWTH("query, every definition: n / 8 definitions, 16 long-named instances",
           call_definitions_many, N_LOG_N);
    GROWTH("query, every definition: n / 8 definitions of one title",
           call_definitions_one_title, N_LOG_N);
}

/* ---- name tables ---- */

static void names_walk(const tb_buf *buf, int order, uint32_t n, run *r)
{
    r->bytes = buf->len;
    perfbuf_name_table t;
    start();
    perfbuf_status st = perfbuf_names_parse(buf->data, buf->len, NULL, &t, NULL);
    EXPECT(st == PERFBUF_OK);
    if (st != PERFBUF_OK) {
        stop(r);
        return;
    }
    EXPECT(t.count == n);
    perfbuf_name_slot *slots = malloc(sizeof *slots * (t.count + 1u));
    perfbuf_name_index index;
    EXPECT(perfbuf_names_index_build(&t, slots, t.count, &index) == PERFBUF_OK);
    perfbuf_names_iter it;
    perfbuf_name_entry e, found;
    perfbuf_names_begin(&t, &it);
    while (perfbuf_names_next(&t, &it, &e)) {
        char text[32];
        size_t len;
        EXPECT(perfbuf_names_text_utf8(&t, &e, text, sizeof text, &len) == PERFBUF_OK);
        char expected[32];
        snprintf(expected, sizeof expected, "T%u", e.title_index);
        EXPECT(strcmp(text, expected) == 0);
        EXPECT(perfbuf_names_index_find(&t, &index, e.title_index, &found) == PERFBUF_OK);
        /* Duplicates: the first in buffer order. */
        EXPECT(order == 2 ? found.offset == 0 : found.offset == e.offset);
    }
    stop(r);
    free(slots);
}

static void walk_names_ascending(uint32_t n, run *r)
{
    tb_buf b = adv_names(n, 0);
    names_walk(&b, 0, n, r);
    tb_free(&b);
}

static void walk_names_descending(uint32_t n, run *r)
{
    tb_buf b = adv_names(n, 1);
    names_walk(&b, 1, n, r);
    tb_free(&b);
}

static void walk_names_duplicates(uint32_t n, run *r)
{
    tb_buf b = adv_names(n, 2);
    names_walk(&b, 2, n, r);
    tb_free(&b);
}

static void call_names_find_last(uint32_t n, run *r)
{
    tb_buf b = adv_names(n, 0);
    perfbuf_name_table t;
    perfbuf_name_entry e;
    r->bytes = b.len;
    EXPECT(perfbuf_names_parse(b.data, b.len, NULL, &t, NULL) == PERFBUF_OK);
    start();
    EXPECT(perfbuf_names_find(&t, ADV_NAMES_BASE + 2 * n, &e) == PERFBUF_OK);
    stop(r);
    EXPECT(e.title_index == ADV_NAMES_BASE + 2 * n);
    tb_free(&b);
}

static void call_names_long_text(uint32_t n, run *r)
{
    tb_buf b = adv_names_long_text(n);
    perfbuf_name_table t;
    perfbuf_names_iter it;
    perfbuf_name_entry e;
    r->bytes = b.len;
    char *out = malloc((size_t)n + 1);
    size_t len = 0;
    start();
    EXPECT(perfbuf_names_parse(b.data, b.len, NULL, &t, NULL) == PERFBUF_OK);
    perfbuf_names_begin(&t, &it);
    EXPECT(perfbuf_names_next(&t, &it, &e));
    EXPECT(perfbuf_names_text_utf8(&t, &e, out, (size_t)n + 1, &len) == PERFBUF_OK);
    stop(r);
    EXPECT(len == n);
    free(out);
    tb_free(&b);
}

/* ---- title index and resolution (perfbuf/resolve.h) ---- */

static void titles_build(uint32_t n, int shape, run *r)
{
    tb_buf b = adv_names_texts(n, shape);
    r->bytes = b.len;
    perfbuf_name_table t;
    EXPECT(perfbuf_names_parse(b.data, b.len, NULL, &t, NULL) == PERFBUF_OK);
    size_t cap = perfbuf_title_index_slots(&t);
    perfbuf_title_slot *slots = malloc(sizeof *slots * (cap + 1u));
    perfbuf_title_index ix;
    start();
    EXPECT(perfbuf_title_index_build(&t, slots, cap, &ix) == PERFBUF_OK);
    stop(r);
    EXPECT(ix.count == n);
    /* Every text is found; all-equal texts form one range of n. */
    char text[ADV_NAMES_PREFIX + 32];
    perfbuf_names_iter it;
    perfbuf_name_entry e;
    perfbuf_names_begin(&t, &it);
    start();
    while (perfbuf_names_next(&t, &it, &e)) {
        size_t len;
        uint32_t first, count;
        EXPECT(perfbuf_names_text_utf8(&t, &e, text, sizeof text, &len) == PERFBUF_OK);
        EXPECT(perfbuf_title_index_find(&ix, text, len, &first, &count) == PERFBUF_OK);
        EXPECT(count == (shape == 0 ? n : 1u));
        EXPECT(shape == 0 || ix.slots[first].title_index == e.title_index);
    }
    stop(r);
    free(slots);
    tb_free(&b);
}

static void titles_all_equal(uint32_t n, run *r) { titles_build(n, 0, r); }
static void titles_shared_prefix(uint32_t n, run *r) { titles_build(n, 1, r); }
static void titles_restarting(uint32_t n, run *r) { titles_build(n, 2, r); }

/* Resolves "\<object>\*" (every counter) and "\<object>\T<last>" on
 * an object of n counters named by a table of n entries. */
static void call_resolve_counters(uint32_t n, run *r)
{
    tb_buf table = adv_names_texts(n, 2);
    tb_buf block = adv_v1_titled_counters(n);
    r->bytes = table.len + block.len;
    perfbuf_name_table t;
    perfbuf_v1_block b;
    EXPECT(perfbuf_names_parse(table.data, table.len, NULL, &t, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_v1_parse(block.data, block.len, NULL, &b, NULL) == PERFBUF_OK);
    perfbuf_name_slot *slots = malloc(sizeof *slots * ((size_t)n + 1u));
    perfbuf_name_index index;
    EXPECT(perfbuf_names_index_build(&t, slots, n, &index) == PERFBUF_OK);
    perfbuf_title_tables names = {&t, &index, NULL, NULL};
    perfbuf_v1_object o;
    EXPECT(perfbuf_v1_find_object(&b, ADV_NAMES_BASE, &o) == PERFBUF_OK);
    /* The object's own title is not in the table: name it after the
     * first counter's title, which the table has. */
    char every[64], last[64];
    uint32_t last_title = ADV_NAMES_BASE + 2 * (64 * ((n - 1) / 64) + 63 - (n - 1) % 64) + 2;
    snprintf(every, sizeof every, "\\o\\*");
    snprintf(last, sizeof last, "\\o\\t%u", last_title);
    perfbuf_counter_path pe, pl;
    EXPECT(perfbuf_path_parse(every, strlen(every), &pe, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_path_parse(last, strlen(last), &pl, NULL) == PERFBUF_OK);
    perfbuf_v1_iter it;
    perfbuf_v1_counter c;
    uint32_t listed = 0;
    start();
    perfbuf_v1_counters_begin(&o, &it);
    while (perfbuf_v1_resolve_counter(&b, &names, &pe, &it, &c, NULL, NULL) == PERFBUF_OK) {
        listed++;
    }
    perfbuf_v1_counters_begin(&o, &it);
    EXPECT(perfbuf_v1_resolve_counter(&b, &names, &pl, &it, &c, NULL, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_v1_resolve_counter(&b, &names, &pl, &it, &c, NULL, NULL) == PERFBUF_E_NOT_FOUND);
    stop(r);
    EXPECT(listed == n);
    EXPECT(c.name_title_index == last_title);
    free(slots);
    tb_free(&table);
    tb_free(&block);
}

/* Every counter of n ("*"), then the last by its name, then one by id. */
static void call_v2_resolve_counters(uint32_t n, run *r)
{
    tb_buf reg, str;
    adv_v2_named_counters(n, &reg, &str);
    r->bytes = reg.len + str.len;
    perfbuf_v2_reginfo ri;
    perfbuf_v2_strings names;
    EXPECT(perfbuf_v2_reginfo_parse(reg.data, reg.len, NULL, &ri, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_v2_strings_parse(str.data, str.len, PERFBUF_V2_STRINGS_AUTO, NULL, &names,
                                    NULL) == PERFBUF_OK);
    char last[ADV_NAMES_PREFIX + 32];
    memcpy(last, "\\s\\", 3);
    memset(last + 3, 'A', ADV_NAMES_PREFIX);
    snprintf(last + 3 + ADV_NAMES_PREFIX, 16, "%07u", n - 1);
    perfbuf_counter_path every, by_name, by_id;
    EXPECT(perfbuf_path_parse("\\s\\*", 4, &every, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_path_parse(last, strlen(last), &by_name, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_path_parse("\\s\\5", 4, &by_id, NULL) == PERFBUF_OK);
    perfbuf_v2_counter_reg c;
    uint32_t next = 0, listed = 0, found = UINT32_MAX;
    start();
    while (perfbuf_v2_resolve_counter(&ri, &names, &every, &next, &c, NULL) == PERFBUF_OK) {
        listed++;
    }
    next = 0;
    if (perfbuf_v2_resolve_counter(&ri, &names, &by_name, &next, &c, NULL) == PERFBUF_OK) {
        found = c.id;
    }
    next = 0;
    EXPECT(perfbuf_v2_resolve_counter(&ri, &names, &by_id, &next, &c, NULL) == PERFBUF_OK);
    stop(r);
    EXPECT(listed == n);
    EXPECT(found == n - 1);
    EXPECT(c.id == 5);
    tb_free(&reg);
    tb_free(&str);
}

static void names_cases(void)
{
    GROWTH("perfbuf_v2_resolve_counter: n named counters, *, last, id", call_v2_resolve_counters,
           N_LOG_N);
    GROWTH("perfbuf_title_index_build + find each: n equal texts", titles_all_equal, N_LOG_BUDGET);
    GROWTH("perfbuf_title_index_build + find each: 64-char prefixes", titles_shared_prefix,
           N_LOG_BUDGET);
    GROWTH("perfbuf_title_index_build + find each: restarting indexes", titles_restarting,
           N_LOG_BUDGET);
    GROWTH("perfbuf_v1_resolve_counter: n counters, * and the last", call_resolve_counters,
           N_LOG_N);
    GROWTH("names walk: n ascending pairs, index, every lookup", walk_names_ascending, N_LOG_N);
    GROWTH("names walk: n descending pairs (index sorts)", walk_names_descending, N_LOG_N);
    GROWTH("names walk: n pairs of one index", walk_names_duplicates, N_LOG_N);
    GROWTH("perfbuf_names_find: last of n", call_names_find_last, LINEAR);
    GROWTH("names: parse + text of one n-char text", call_names_long_text, LINEAR);
}

/* ---- V2 query data ---- */

/* Every block, id, instance, value and name (UTF-8 into 64 bytes, and
 * UTF-16 into a buffer that holds it). */
static void v2_walk(const tb_v2 *v, run *r)
{
    r->bytes = v->buf.len;
    perfbuf_v2_query q;
    start();
    perfbuf_status st = perfbuf_v2_query_parse(v->buf.data, v->buf.len, NULL, &q, NULL);
    EXPECT(st == PERFBUF_OK);
    if (st != PERFBUF_OK) {
        stop(r);
        return;
    }
    size_t units_cap = v->buf.len / 2;
    uint16_t *units = malloc(sizeof *units * (units_cap + 1));
    perfbuf_v2_iter bi, ii, vi;
    perfbuf_v2_block blk;
    perfbuf_v2_instance inst;
    perfbuf_v2_value val;
    uint32_t blocks = 0;
    perfbuf_v2_blocks_begin(&q, &bi);
    while (perfbuf_v2_blocks_next(&q, &bi, &blk)) {
        blocks++;
        for (uint32_t i = 0; i < blk.counter_count; i++) {
            uint32_t id = perfbuf_v2_block_counter_id(&q, &blk, i);
            bool listed = blk.kind == PERFBUF_V2_MULTIPLE_COUNTERS || blk.kind == PERFBUF_V2_COUNTERSET;
            EXPECT(listed ? id != PERFBUF_V2_NO_COUNTER_ID : id == PERFBUF_V2_NO_COUNTER_ID);
        }
        perfbuf_v2_block_values_begin(&blk, &vi);
        while (perfbuf_v2_values_next(&q, &blk, &vi, &val)) {
            EXPECT(inside(val.bytes, val.data_size, v->buf.data, v->buf.len));
        }
        perfbuf_v2_instances_begin(&blk, &ii);
        while (perfbuf_v2_instances_next(&q, &blk, &ii, &inst)) {
            char name[64];
            size_t len;
            st = perfbuf_v2_instance_name_utf8(&q, &inst, name, sizeof name, &len);
            EXPECT(st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL);
            EXPECT(perfbuf_v2_instance_name_utf16(&q, &inst, units, units_cap, &len) == PERFBUF_OK);
            EXPECT(len == inst.name_units);
            perfbuf_v2_instance_values_begin(&inst, &vi);
            while (perfbuf_v2_values_next(&q, &blk, &vi, &val)) {
                EXPECT(inside(val.bytes, val.data_size, v->buf.data, v->buf.len));
            }
        }
        /* The bulk reads: the block's own values, then every instance with
         * its values in one pass. */
        uint64_t *values = malloc(sizeof *values * ((size_t)blk.counter_count + 1));
        perfbuf_v2_values_read_result read;
        EXPECT(values != NULL);
        EXPECT(perfbuf_v2_values_read(&q, &blk, NULL, values, blk.counter_count, &read) ==
               PERFBUF_OK);
        perfbuf_v2_instances_begin(&blk, &ii);
        uint32_t with_values = 0;
        while (perfbuf_v2_instances_next_values(&q, &blk, &ii, &inst, values, blk.counter_count,
                                                &read) == PERFBUF_OK) {
            EXPECT(read.count == blk.counter_count);
            with_values++;
        }
        EXPECT(with_values == blk.instance_count);
        free(values);
        /* The whole block in one call: its size, then the matrix. */
        size_t needed = 0;
        st = perfbuf_v2_block_read_all(&q, &blk, NULL, 0, &needed);
        EXPECT(st == (needed == 0 ? PERFBUF_OK : PERFBUF_E_OUTPUT_TOO_SMALL));
        uint64_t *matrix = malloc(sizeof *matrix * (needed ? needed : 1));
        EXPECT(matrix != NULL);
        EXPECT(perfbuf_v2_block_read_all(&q, &blk, matrix, needed, &needed) == PERFBUF_OK);
        EXPECT(needed == (size_t)blk.counter_count *
                             (blk.kind == PERFBUF_V2_MULTIPLE_INSTANCES ||
                                      blk.kind == PERFBUF_V2_COUNTERSET
                                  ? blk.instance_count
                                  : 1u));
        free(matrix);
    }
    stop(r);
    EXPECT(blocks == q.block_count);
    free(units);
}

static void walk_v2_many_blocks(uint32_t n, run *r)
{
    tb_v2 v = adv_v2_many_blocks(n);
    v2_walk(&v, r);
    tb_free(&v.buf);
}

static void walk_v2_wide(uint32_t n, run *r)
{
    tb_v2 v = adv_v2_wide(n);
    v2_walk(&v, r);
    tb_free(&v.buf);
}

static void walk_v2_many_instances(uint32_t n, run *r)
{
    tb_v2 v = adv_v2_many_instances(n);
    v2_walk(&v, r);
    tb_free(&v.buf);
}

static void walk_v2_long_name(uint32_t n, run *r)
{
    tb_v2 v = adv_v2_long_name(n);
    v2_walk(&v, r);
    tb_free(&v.buf);
}

static void call_v2_long_name_utf8(uint32_t n, run *r)
{
    tb_v2 v = adv_v2_long_name(n);
    perfbuf_v2_query q;
    r->bytes = v.buf.len;
    EXPECT(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    perfbuf_v2_iter bi, ii;
    perfbuf_v2_block blk;
    perfbuf_v2_instance inst;
    perfbuf_v2_blocks_begin(&q, &bi);
    EXPECT(perfbuf_v2_blocks_next(&q, &bi, &blk));
    perfbuf_v2_instances_begin(&blk, &ii);
    EXPECT(perfbuf_v2_instances_next(&q, &blk, &ii, &inst));
    size_t cap = 3 * (size_t)n + 1;
    char *out = malloc(cap);
    size_t len = 0;
    start();
    EXPECT(perfbuf_v2_instance_name_utf8(&q, &inst, out, cap, &len) == PERFBUF_OK);
    stop(r);
    /* Three of every four units are 'a', the fourth a lone surrogate
     * (U+FFFD, three bytes). */
    EXPECT(len == (size_t)n / 4 * 6 + (size_t)n % 4);
    free(out);
    tb_free(&v.buf);
}

/*
 * Two captures of adv_v2_doubles_worst formatted as doubles, a block per
 * call: most columns leave the call's clocked loops, and every block ends
 * in a step of one row, so each column's setup is paid per row. Each cell
 * is compared with the value-by-value reference (oracle_v2_doubles.h),
 * outside the count.
 */
static void doubles_v2_worst(uint32_t n, run *r)
{
    tb_v2 older = adv_v2_doubles_worst(n, 0);
    tb_v2 newer = adv_v2_doubles_worst(n, 1);
    tb_buf reg_buf = adv_v2_doubles_registration();
    perfbuf_v2_reginfo reg;
    perfbuf_v2_query q1, q0;
    r->bytes = newer.buf.len;
    EXPECT(perfbuf_v2_reginfo_parse(reg_buf.data, reg_buf.len, NULL, &reg, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_v2_query_parse(newer.buf.data, newer.buf.len, NULL, &q1, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_v2_query_parse(older.buf.data, older.buf.len, NULL, &q0, NULL) == PERFBUF_OK);
    enum { COUNT = ADV_V2_DOUBLES_COUNTERS, CELLS = ADV_V2_DOUBLES_ROWS * COUNT };
    perfbuf_v2_plan_entry entries[COUNT];
    uint32_t plan_scratch[COUNT];
    static uint64_t scratch[PERFBUF_V2_FORMAT_SCRATCH(COUNT)];
    double doubles[CELLS], ref[CELLS];
    uint8_t codes[CELLS];
    uint32_t ref_status[CELLS];
    size_t valid = 0, blocks = 0;
    perfbuf_v2_iter bi1, bi0;
    perfbuf_v2_block b1, b0;
    perfbuf_v2_blocks_begin(&q1, &bi1);
    perfbuf_v2_blocks_begin(&q0, &bi0);
    while (perfbuf_v2_blocks_next(&q1, &bi1, &b1) && perfbuf_v2_blocks_next(&q0, &bi0, &b0)) {
        perfbuf_v2_plan plan;
        EXPECT(perfbuf_v2_plan_build(&q1, &b1, &reg, entries, COUNT, plan_scratch, COUNT,
                                     &plan) == PERFBUF_OK);
        size_t needed = 0;
        start();
        perfbuf_status st = perfbuf_v2_plan_format_block_doubles(
            &q1, &b1, &q0, &b0, &plan, PERFBUF_FMT_DOUBLE, scratch,
            sizeof scratch / sizeof scratch[0], doubles, codes, CELLS, &needed);
        stop(r);
        EXPECT(st == PERFBUF_OK && needed == CELLS);
        perfbuf_status expected = PERFBUF_E_INVALID_ARGUMENT;
        EXPECT(v2_doubles_reference(&q1, &b1, &q0, &b0, &reg, &plan, PERFBUF_FMT_DOUBLE, ref,
                                    ref_status, CELLS, &expected));
        EXPECT(expected == PERFBUF_OK);
        for (size_t c = 0; c < CELLS; c++) {
            EXPECT(v2_doubles_cell_equal(doubles[c], codes[c], ref[c], ref_status[c]));
            valid += ref_status[c] == PERFBUF_CSTATUS_VALID_DATA;
        }
        blocks++;
    }
    EXPECT(blocks == (n + ADV_V2_DOUBLES_ROWS - 1u) / ADV_V2_DOUBLES_ROWS);
    EXPECT(valid > 0);
    tb_free(&reg_buf);
    tb_free(&older.buf);
    tb_free(&newer.buf);
}

static void v2_query_cases(void)
{
    GROWTH("V2 walk: n blocks of all five kinds", walk_v2_many_blocks, LINEAR);
    GROWTH("V2 walk: n counters in two blocks", walk_v2_wide, LINEAR);
    GROWTH("V2 walk: n instances", walk_v2_many_instances, LINEAR);
    GROWTH("V2 whole block as doubles: n instances, 33 per block, mixed columns",
           doubles_v2_worst, LINEAR);
    GROWTH("V2 walk: one n-unit instance name", walk_v2_long_name, LINEAR);
    GROWTH("perfbuf_v2_instance_name_utf8: n units, whole", call_v2_long_name_utf8, LINEAR);
}

/* ---- V2 metadata ---- */

/* Parse (plain, or indexed for descending ids) and every counter by
 * position and by id. Lookups by id are O(log n) (v2_meta.h), so is each
 * reference the parse checks: n log n. */
static void reginfo_walk(uint32_t n, int unordered, run *r)
{
    tb_buf b = adv_reginfo_refs(n, unordered);
    r->bytes = b.len;
    uint64_t *scratch = malloc(sizeof *scratch * n);
    perfbuf_v2_reginfo reg;
    perfbuf_error err;
    start();
    perfbuf_status st = perfbuf_v2_reginfo_parse(b.data, b.len, NULL, &reg, &err);
    if (unordered) {
        EXPECT(st == PERFBUF_E_SCRATCH_NEEDED);
        st = perfbuf_v2_reginfo_parse_indexed(b.data, b.len, NULL, scratch, n, &reg, &err);
    }
    EXPECT(st == PERFBUF_OK);
    perfbuf_v2_counter_reg c, found;
    for (uint32_t k = 0; st == PERFBUF_OK && k < n; k++) {
        EXPECT(perfbuf_v2_reginfo_counter(&reg, k, &c));
        EXPECT(c.id == adv_reginfo_refs_id(n, unordered, k));
        EXPECT(perfbuf_v2_reginfo_find(&reg, c.id, &found) == PERFBUF_OK && found.index == k);
    }
    stop(r);
    free(scratch);
    tb_free(&b);
}

static void walk_reginfo_refs(uint32_t n, run *r) { reginfo_walk(n, 0, r); }
static void walk_reginfo_unordered(uint32_t n, run *r) { reginfo_walk(n, 1, r); }

/* The plain parse of unordered ids refuses in one pass. */
static void call_reginfo_refuse(uint32_t n, run *r)
{
    tb_buf b = adv_reginfo_refs(n, 1);
    perfbuf_v2_reginfo reg;
    r->bytes = b.len;
    start();
    EXPECT(perfbuf_v2_reginfo_parse(b.data, b.len, NULL, &reg, NULL) == PERFBUF_E_SCRATCH_NEEDED);
    stop(r);
    tb_free(&b);
}

static void strings_walk(uint32_t n, int shape, int unordered, run *r)
{
    tb_buf b = adv_strings(n, shape, unordered);
    r->bytes = b.len;
    uint64_t *scratch = malloc(sizeof *scratch * n);
    perfbuf_v2_strings s;
    start();
    perfbuf_status st = perfbuf_v2_strings_parse(b.data, b.len, PERFBUF_V2_STRINGS_FROM_ARRAY_END,
                                                 NULL, &s, NULL);
    if (unordered) {
        EXPECT(st == PERFBUF_E_SCRATCH_NEEDED);
        st = perfbuf_v2_strings_parse_indexed(b.data, b.len, PERFBUF_V2_STRINGS_FROM_ARRAY_END,
                                              NULL, scratch, n, &s, NULL);
    }
    EXPECT(st == PERFBUF_OK);
    perfbuf_v2_counter_string str, found;
    for (uint32_t k = 0; st == PERFBUF_OK && k < n; k++) {
        char text[32];
        size_t len;
        EXPECT(perfbuf_v2_strings_get(&s, k, &str));
        EXPECT(perfbuf_v2_counter_string_utf8(&s, &str, text, sizeof text, &len) == PERFBUF_OK);
        char expected[32];
        snprintf(expected, sizeof expected, "s%u", str.counter_id);
        EXPECT(strcmp(text, shape == 0 ? expected : "x") == 0);
        EXPECT(perfbuf_v2_strings_find(&s, str.counter_id, &found) == PERFBUF_OK &&
               found.index == k);
    }
    stop(r);
    free(scratch);
    tb_free(&b);
}

static void walk_strings_own(uint32_t n, run *r) { strings_walk(n, 0, 0, r); }
static void walk_strings_shared(uint32_t n, run *r) { strings_walk(n, 1, 0, r); }
static void walk_strings_unordered(uint32_t n, run *r) { strings_walk(n, 0, 1, r); }

/* The parse alone: ids ascending are checked by neighbours, and strings
 * that share bytes are bounded by the area, so no log factor. */
static void strings_parse_only(uint32_t n, int shape, run *r)
{
    tb_buf b = adv_strings(n, shape, 0);
    perfbuf_v2_strings s;
    r->bytes = b.len;
    start();
    EXPECT(perfbuf_v2_strings_parse(b.data, b.len, PERFBUF_V2_STRINGS_FROM_ARRAY_END, NULL, &s,
                                    NULL) == PERFBUF_OK);
    stop(r);
    EXPECT(s.count == n);
    tb_free(&b);
}

static void call_strings_own(uint32_t n, run *r) { strings_parse_only(n, 0, r); }
static void call_strings_shared(uint32_t n, run *r) { strings_parse_only(n, 1, r); }

/* The parse alone, ids ascending: each of the four references of a
 * counter is found by binary search among the ascending ids, so this is
 * n log n although v2_meta.h calls the ascending case linear. */
static void call_reginfo_refs(uint32_t n, run *r)
{
    tb_buf b = adv_reginfo_refs(n, 0);
    perfbuf_v2_reginfo reg;
    r->bytes = b.len;
    start();
    EXPECT(perfbuf_v2_reginfo_parse(b.data, b.len, NULL, &reg, NULL) == PERFBUF_OK);
    stop(r);
    EXPECT(reg.counter_count == n && reg.ids_ascending);
    tb_free(&b);
}

/* n headers into one n-character string: refused, in one pass. */
static void call_strings_overlap(uint32_t n, run *r)
{
    tb_buf b = adv_strings(n, 2, 0);
    perfbuf_v2_strings s;
    r->bytes = b.len;
    start();
    EXPECT(perfbuf_v2_strings_parse(b.data, b.len, PERFBUF_V2_STRINGS_FROM_ARRAY_END, NULL, &s,
                                    NULL) == PERFBUF_E_OVERLAP);
    stop(r);
    tb_free(&b);
}

static void walk_identifiers(uint32_t n, run *r)
{
    tb_buf b = adv_identifiers(n, adv_guid);
    r->bytes = b.len;
    perfbuf_v2_identifiers l;
    start();
    EXPECT(perfbuf_v2_identifiers_parse(b.data, b.len, NULL, &l, NULL) == PERFBUF_OK);
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifier id;
    uint32_t k = 0;
    perfbuf_v2_identifiers_begin(&it);
    while (perfbuf_v2_identifiers_next(&l, &it, &id)) {
        char name[32], expected[32];
        size_t len;
        EXPECT(perfbuf_v2_identifier_name_utf8(&l, &id, name, sizeof name, &len) == PERFBUF_OK);
        snprintf(expected, sizeof expected, "n%u", k);
        EXPECT(strcmp(name, expected) == 0 && id.query_index == k);
        k++;
    }
    stop(r);
    EXPECT(k == n);
    tb_free(&b);
}

static void call_identifier_long_name(uint32_t n, run *r)
{
    tb_buf b = adv_identifier_long_name(n);
    r->bytes = b.len;
    perfbuf_v2_identifiers l;
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifier id;
    char *out = malloc((size_t)n + 1);
    size_t len = 0;
    start();
    EXPECT(perfbuf_v2_identifiers_parse(b.data, b.len, NULL, &l, NULL) == PERFBUF_OK);
    perfbuf_v2_identifiers_begin(&it);
    EXPECT(perfbuf_v2_identifiers_next(&l, &it, &id));
    EXPECT(perfbuf_v2_identifier_name_utf8(&l, &id, out, (size_t)n + 1, &len) == PERFBUF_OK);
    stop(r);
    EXPECT(len == n);
    free(out);
    tb_free(&b);
}

static void walk_instance_list(uint32_t n, run *r)
{
    tb_buf b = adv_instance_list(n);
    r->bytes = b.len;
    perfbuf_v2_instance_list l;
    start();
    EXPECT(perfbuf_v2_instance_list_parse(b.data, b.len, NULL, &l, NULL) == PERFBUF_OK);
    perfbuf_v2_list_iter it;
    perfbuf_v2_listed_instance inst;
    uint32_t k = 0;
    perfbuf_v2_instance_list_begin(&it);
    while (perfbuf_v2_instance_list_next(&l, &it, &inst)) {
        char name[32], expected[32];
        size_t len;
        EXPECT(perfbuf_v2_listed_name_utf8(&l, &inst, name, sizeof name, &len) == PERFBUF_OK);
        snprintf(expected, sizeof expected, "i%07u", k);
        EXPECT(strcmp(name, expected) == 0 && inst.id == k);
        k++;
    }
    stop(r);
    EXPECT(k == n);
    tb_free(&b);
}

static void walk_countersets(uint32_t n, run *r)
{
    tb_buf b = adv_countersets(n);
    r->bytes = b.len;
    perfbuf_v2_countersets l;
    perfbuf_guid g;
    start();
    EXPECT(perfbuf_v2_countersets_parse(b.data, b.len, &l, NULL) == PERFBUF_OK);
    for (uint32_t k = 0; k < n; k++) {
        EXPECT(perfbuf_v2_countersets_get(&l, k, &g) && g.data1 == k);
    }
    stop(r);
    tb_free(&b);
}

static void call_string_answer(uint32_t n, run *r)
{
    tb_buf b = adv_string_answer(n);
    r->bytes = b.len;
    perfbuf_v2_string s;
    char *out = malloc((size_t)n + 1);
    size_t len = 0;
    start();
    EXPECT(perfbuf_v2_string_parse(b.data, b.len, NULL, &s, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_v2_string_utf8(&s, out, (size_t)n + 1, &len) == PERFBUF_OK);
    stop(r);
    EXPECT(len == n);
    free(out);
    tb_free(&b);
}

static void v2_meta_cases(void)
{
    GROWTH("reginfo: n counters referring to the last four", walk_reginfo_refs, N_LOG_N);
    GROWTH("reginfo: the same, ids descending (indexed)", walk_reginfo_unordered, N_LOG_N);
    GROWTH("perfbuf_v2_reginfo_parse: n counters naming the last four", call_reginfo_refs,
           N_LOG_N);
    GROWTH("perfbuf_v2_reginfo_parse: descending ids refused", call_reginfo_refuse, LINEAR);
    GROWTH("perfbuf_v2_strings_parse: n own strings", call_strings_own, LINEAR);
    GROWTH("perfbuf_v2_strings_parse: n headers sharing one string", call_strings_shared, LINEAR);
    GROWTH("strings: n own strings, get/utf8/find each", walk_strings_own, N_LOG_N);
    GROWTH("strings: n headers sharing one string", walk_strings_shared, N_LOG_N);
    GROWTH("strings: ids descending (indexed)", walk_strings_unordered, N_LOG_N);
    GROWTH("perfbuf_v2_strings_parse: n headers into one n-char string", call_strings_overlap,
           LINEAR);
    GROWTH("identifiers: n, every name", walk_identifiers, LINEAR);
    GROWTH("identifiers: one n-char name", call_identifier_long_name, LINEAR);
    GROWTH("instance list: n, every name", walk_instance_list, LINEAR);
    GROWTH("counterset list: n GUIDs", walk_countersets, LINEAR);
    GROWTH("string answer: n chars, parse + utf8", call_string_answer, LINEAR);
}

/* ---- cross-check and V2 samples ---- */

typedef struct crosscheck_inputs {
    tb_v2 query;
    tb_buf ids;
    tb_buf registration;
    perfbuf_v2_query q;
    perfbuf_v2_identifiers l;
    perfbuf_v2_reginfo reg;
} crosscheck_inputs;

static bool crosscheck_setup(crosscheck_inputs *x, uint32_t n, int ids_shape, run *r)
{
    adv_crosscheck(n, ids_shape, &x->query, &x->ids);
    x->registration = adv_crosscheck_registration();
    r->bytes = x->query.buf.len + x->ids.len + x->registration.len;
    bool ok = perfbuf_v2_query_parse(x->query.buf.data, x->query.buf.len, NULL, &x->q, NULL) ==
                  PERFBUF_OK &&
              perfbuf_v2_identifiers_parse(x->ids.data, x->ids.len, NULL, &x->l, NULL) ==
                  PERFBUF_OK &&
              perfbuf_v2_reginfo_parse(x->registration.data, x->registration.len, NULL, &x->reg,
                                       NULL) == PERFBUF_OK;
    EXPECT(ok);
    return ok;
}

static void crosscheck_free(crosscheck_inputs *x)
{
    tb_free(&x->query.buf);
    tb_free(&x->ids);
    tb_free(&x->registration);
}

static void crosscheck_case(uint32_t n, int ids_shape, bool with_ids, run *r)
{
    crosscheck_inputs x;
    if (crosscheck_setup(&x, n, ids_shape, r)) {
        perfbuf_v2_mismatch m;
        start();
        perfbuf_status st = perfbuf_v2_crosscheck(&x.q, &x.reg, with_ids ? &x.l : NULL, &m);
        stop(r);
        /* Shapes 1 and 3 have usable Indexes out of order. */
        EXPECT(with_ids && (ids_shape == 1 || ids_shape == 3) ? st == PERFBUF_E_SCRATCH_NEEDED
                                                              : st == PERFBUF_OK);
    }
    crosscheck_free(&x);
}

static void crosscheck_indexed_case(uint32_t n, int ids_shape, run *r)
{
    crosscheck_inputs x;
    if (crosscheck_setup(&x, n, ids_shape, r)) {
        size_t cap = x.l.count;
        uint64_t *scratch = malloc(sizeof *scratch * cap);
        perfbuf_v2_mismatch m;
        start();
        EXPECT(perfbuf_v2_crosscheck_indexed(&x.q, &x.reg, &x.l, scratch, cap, &m) == PERFBUF_OK);
        stop(r);
        free(scratch);
    }
    crosscheck_free(&x);
}

static void call_crosscheck_in_order(uint32_t n, run *r) { crosscheck_case(n, 0, true, r); }
static void call_crosscheck_no_ids(uint32_t n, run *r) { crosscheck_case(n, 0, false, r); }
static void call_crosscheck_swapped(uint32_t n, run *r) { crosscheck_case(n, 1, true, r); }
static void call_crosscheck_failed(uint32_t n, run *r) { crosscheck_case(n, 2, true, r); }
static void call_crosscheck_other(uint32_t n, run *r) { crosscheck_case(n, 3, true, r); }
static void call_crosscheck_swapped_indexed(uint32_t n, run *r) { crosscheck_indexed_case(n, 1, r); }
static void call_crosscheck_other_indexed(uint32_t n, run *r) { crosscheck_indexed_case(n, 3, r); }

/* One block of n counters: lookups past the first 64 positions. */
static void call_crosscheck_wide(uint32_t n, run *r)
{
    tb_v2 query;
    tb_buf registration;
    adv_crosscheck_wide(n, &query, &registration);
    r->bytes = query.buf.len + registration.len;
    perfbuf_v2_query q;
    perfbuf_v2_reginfo reg;
    perfbuf_v2_mismatch m;
    EXPECT(perfbuf_v2_query_parse(query.buf.data, query.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_v2_reginfo_parse(registration.data, registration.len, NULL, &reg, NULL) ==
           PERFBUF_OK);
    start();
    EXPECT(perfbuf_v2_crosscheck(&q, &reg, NULL, &m) == PERFBUF_OK);
    stop(r);
    tb_free(&query.buf);
    tb_free(&registration);
}

/* Every counter of the first instance of one block of n counters, through
 * a value index built once: linear, where a plain perfbuf_v2_raw_sample
 * per counter walks the instance's values each time. */
static void walk_v2_wide_indexed(uint32_t n, run *r)
{
    tb_v2 query;
    tb_buf registration;
    adv_crosscheck_wide(n, &query, &registration);
    r->bytes = query.buf.len + registration.len;
    perfbuf_v2_query q;
    perfbuf_v2_reginfo reg;
    EXPECT(perfbuf_v2_query_parse(query.buf.data, query.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_v2_reginfo_parse(registration.data, registration.len, NULL, &reg, NULL) ==
           PERFBUF_OK);
    perfbuf_v2_iter bi, ii;
    perfbuf_v2_block blk;
    perfbuf_v2_instance inst;
    perfbuf_v2_blocks_begin(&q, &bi);
    EXPECT(perfbuf_v2_blocks_next(&q, &bi, &blk));
    perfbuf_v2_instances_begin(&blk, &ii);
    EXPECT(perfbuf_v2_instances_next(&q, &blk, &ii, &inst));
    size_t cap = perfbuf_v2_value_index_slots(&blk);
    uint64_t *slots = malloc(sizeof *slots * cap);
    perfbuf_v2_value_index index;
    uint32_t sampled = 0;
    start();
    EXPECT(perfbuf_v2_value_index_build(&q, &blk, &inst, slots, cap, &index) == PERFBUF_OK);
    perfbuf_v2_counter_reg c;
    for (uint32_t i = 0; perfbuf_v2_reginfo_counter(&reg, i, &c); i++) {
        perfbuf_raw_sample s;
        perfbuf_value_context ctx;
        if (perfbuf_v2_raw_sample_indexed(&q, &blk, &inst, &reg, &index, c.id, &s, &ctx) ==
            PERFBUF_OK) {
            sampled++;
        }
    }
    stop(r);
    EXPECT(sampled == n);
    free(slots);
    tb_free(&query.buf);
    tb_free(&registration);
}

/* A value plan of n counters that all refer to the last four, ids
 * descending: the build, then every value of both instances read into an
 * array and every counter sampled through the plan, one by one and then
 * all at once. */
static void walk_v2_plan(uint32_t n, run *r)
{
    tb_v2 query;
    tb_buf registration;
    adv_plan(n, &query, &registration);
    r->bytes = query.buf.len + registration.len;
    perfbuf_v2_query q;
    perfbuf_v2_reginfo reg;
    EXPECT(perfbuf_v2_query_parse(query.buf.data, query.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_v2_reginfo_parse(registration.data, registration.len, NULL, &reg, NULL) ==
           PERFBUF_OK);
    perfbuf_v2_iter bi, ii;
    perfbuf_v2_block blk;
    perfbuf_v2_instance inst;
    perfbuf_v2_blocks_begin(&q, &bi);
    EXPECT(perfbuf_v2_blocks_next(&q, &bi, &blk));
    perfbuf_v2_plan_entry *entries = malloc(sizeof *entries * n);
    uint32_t *scratch = malloc(sizeof *scratch * n);
    uint64_t *values = malloc(sizeof *values * n);
    EXPECT(entries != NULL && scratch != NULL && values != NULL);
    perfbuf_v2_plan plan;
    uint32_t sampled = 0;
    start();
    EXPECT(perfbuf_v2_plan_build(&q, &blk, &reg, entries, n, scratch, n, &plan) == PERFBUF_OK);
    perfbuf_v2_instances_begin(&blk, &ii);
    while (perfbuf_v2_instances_next(&q, &blk, &ii, &inst)) {
        perfbuf_v2_values_read_result read;
        EXPECT(perfbuf_v2_values_read(&q, &blk, &inst, values, n, &read) == PERFBUF_OK);
        for (uint32_t p = 0; p < plan.count; p++) {
            perfbuf_raw_sample s;
            perfbuf_value_context ctx;
            if (perfbuf_v2_plan_sample(&q, &blk, &inst, &reg, &plan, values, &read, p, &s,
                                       &ctx) == PERFBUF_OK) {
                sampled++;
            }
        }
    }
    /* Every counter of every instance again, one call per instance. */
    perfbuf_raw_sample *samples = malloc(sizeof *samples * n);
    perfbuf_value_context *contexts = malloc(sizeof *contexts * n);
    perfbuf_status *statuses = malloc(sizeof *statuses * n);
    EXPECT(samples != NULL && contexts != NULL && statuses != NULL);
    perfbuf_v2_instances_begin(&blk, &ii);
    perfbuf_v2_values_read_result read;
    while (perfbuf_v2_instances_next_values(&q, &blk, &ii, &inst, values, n, &read) ==
           PERFBUF_OK) {
        EXPECT(perfbuf_v2_plan_samples(&q, &blk, &inst, &reg, &plan, values, &read, samples,
                                       contexts, statuses, n) == PERFBUF_OK);
        for (uint32_t p = 0; p < plan.count; p++) {
            sampled += statuses[p] == PERFBUF_OK ? 1u : 0u;
        }
    }
    stop(r);
    /* Every counter but the base: n - 1 per instance, twice. */
    EXPECT(sampled == 4 * (n - 1));
    free(samples);
    free(contexts);
    free(statuses);
    free(entries);
    free(scratch);
    free(values);
    tb_free(&query.buf);
    tb_free(&registration);
}

/* Every registered counter of every instance or block without instances,
 * on n blocks of 8 counters each: values from the generator. */
static void walk_v2_raw_samples(uint32_t n, run *r)
{
    crosscheck_inputs x;
    if (crosscheck_setup(&x, n, 0, r)) {
        perfbuf_v2_iter bi, ii;
        perfbuf_v2_block blk;
        perfbuf_v2_instance inst;
        start();
        perfbuf_v2_blocks_begin(&x.q, &bi);
        while (perfbuf_v2_blocks_next(&x.q, &bi, &blk)) {
            if (blk.kind != PERFBUF_V2_MULTIPLE_COUNTERS && blk.kind != PERFBUF_V2_COUNTERSET) {
                continue;
            }
            uint32_t i = blk.index;
            perfbuf_v2_instances_begin(&blk, &ii);
            bool more = blk.kind == PERFBUF_V2_MULTIPLE_COUNTERS;
            uint32_t j = 0;
            while (more || perfbuf_v2_instances_next(&x.q, &blk, &ii, &inst)) {
                const perfbuf_v2_instance *which = more ? NULL : &inst;
                for (uint32_t k = 0; k < 8; k++) {
                    perfbuf_raw_sample s;
                    perfbuf_value_context c;
                    EXPECT(perfbuf_v2_raw_sample(&x.q, &blk, which, &x.reg, k, &s, &c) ==
                           PERFBUF_OK);
                    uint64_t expected = which == NULL ? 10u * i + k : 100u * i + 10u * j + k;
                    EXPECT(s.first == expected);
                }
                if (more) {
                    break;
                }
                j++;
            }
        }
        stop(r);
    }
    crosscheck_free(&x);
}

/* Every registered counter of both instances sampled in two captures at
 * once, through perfbuf_v2_raw_sample_pair, where no position the newer
 * capture gives holds the same id in the older (adv_sample_pair): each
 * older value is searched for, O(log n), never walked. */
static void walk_v2_sample_pairs(uint32_t n, run *r)
{
    tb_v2 newer_buf, older_buf;
    tb_buf registration;
    adv_sample_pair(n, &newer_buf, &older_buf, &registration);
    r->bytes = newer_buf.buf.len + older_buf.buf.len + registration.len;
    perfbuf_v2_query newer, older;
    perfbuf_v2_reginfo reg;
    EXPECT(perfbuf_v2_query_parse(newer_buf.buf.data, newer_buf.buf.len, NULL, &newer, NULL) ==
           PERFBUF_OK);
    EXPECT(perfbuf_v2_query_parse(older_buf.buf.data, older_buf.buf.len, NULL, &older, NULL) ==
           PERFBUF_OK);
    EXPECT(perfbuf_v2_reginfo_parse(registration.data, registration.len, NULL, &reg, NULL) ==
           PERFBUF_OK);
    perfbuf_v2_iter nbi, obi, nii, oii;
    perfbuf_v2_block nb, ob;
    perfbuf_v2_instance ni, oi;
    uint32_t newer_ok = 0, older_ok = 0;
    start();
    perfbuf_v2_blocks_begin(&newer, &nbi);
    perfbuf_v2_blocks_begin(&older, &obi);
    EXPECT(perfbuf_v2_blocks_next(&newer, &nbi, &nb) && perfbuf_v2_blocks_next(&older, &obi, &ob));
    perfbuf_v2_instances_begin(&nb, &nii);
    perfbuf_v2_instances_begin(&ob, &oii);
    for (uint64_t j = 0; perfbuf_v2_instances_next(&newer, &nb, &nii, &ni) &&
                         perfbuf_v2_instances_next(&older, &ob, &oii, &oi);
         j++) {
        perfbuf_v2_counter_reg c;
        for (uint32_t i = 0; perfbuf_v2_reginfo_counter(&reg, i, &c); i++) {
            perfbuf_raw_sample sn, so;
            perfbuf_value_context cn, co;
            perfbuf_status st_o;
            perfbuf_status st_n = perfbuf_v2_raw_sample_pair(&newer, &nb, &ni, &older, &ob, &oi,
                                                             &reg, c.id, &sn, &cn, &so, &co,
                                                             &st_o);
            if (st_n == PERFBUF_OK) {
                EXPECT(sn.first == ((uint64_t)1 << 40) + 2u * c.id + j);
                EXPECT(sn.second == ((uint64_t)1 << 40) + 2u * (n - 1) + j);
                newer_ok++;
            }
            if (st_o == PERFBUF_OK) {
                EXPECT(so.first == 2u * c.id + j && so.second == 2u * (n - 1) + j);
                older_ok++;
            }
        }
    }
    stop(r);
    /* Newer: ids 1..n-2 (0 is not in it, n-1 is the base); older: 0..n-2. */
    EXPECT(newer_ok == 2 * (n - 2));
    EXPECT(older_ok == 2 * (n - 1));
    tb_free(&newer_buf.buf);
    tb_free(&older_buf.buf);
    tb_free(&registration);
}

static void crosscheck_cases(void)
{
    GROWTH("crosscheck: n blocks x n identifiers in Index order", call_crosscheck_in_order,
           LINEAR);
    GROWTH("crosscheck: n blocks, no identifiers", call_crosscheck_no_ids, LINEAR);
    GROWTH("crosscheck: one swapped pair (plain: refused)", call_crosscheck_swapped, LINEAR);
    GROWTH("crosscheck: + failed identifiers past the blocks", call_crosscheck_failed, LINEAR);
    GROWTH("crosscheck: + other counterset past the blocks (refused)", call_crosscheck_other,
           LINEAR);
    GROWTH("crosscheck_indexed: one swapped pair (sorts)", call_crosscheck_swapped_indexed,
           N_LOG_N);
    GROWTH("crosscheck_indexed: other counterset past the blocks", call_crosscheck_other_indexed,
           N_LOG_N);
    GROWTH("crosscheck: one block of n counters (O(log n) lookups)", call_crosscheck_wide,
           N_LOG_N);
    GROWTH("perfbuf_v2_raw_sample_indexed: every counter of an n-counter instance",
           walk_v2_wide_indexed, N_LOG_N);
    GROWTH("perfbuf_v2_raw_sample: 8 counters of n blocks' instances", walk_v2_raw_samples,
           LINEAR);
    GROWTH("value plan: n counters naming the last four, every sample", walk_v2_plan, N_LOG_N);
    GROWTH("perfbuf_v2_raw_sample_pair: every counter of 2 instances, positions shifted",
           walk_v2_sample_pairs, N_LOG_N);
}

/*
 * perfbuf_v2_plan_samples where the walk decides which value counts (one
 * value that is not an integer, repeated ids, both: adv_plan_irregular):
 * every instance's call, and nothing else, counted; each call on its own
 * also stays within the per-call budget of the query and registration.
 */
static void plan_samples_irregular(uint32_t n, int shape, run *r)
{
    tb_v2 query;
    tb_buf registration;
    adv_plan_irregular(n, shape, &query, &registration);
    r->bytes = query.buf.len + registration.len;
    perfbuf_v2_query q;
    perfbuf_v2_reginfo reg;
    EXPECT(perfbuf_v2_query_parse(query.buf.data, query.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    EXPECT(perfbuf_v2_reginfo_parse(registration.data, registration.len, NULL, &reg, NULL) ==
           PERFBUF_OK);
    perfbuf_v2_iter bi, ii;
    perfbuf_v2_block blk;
    perfbuf_v2_instance inst;
    perfbuf_v2_blocks_begin(&q, &bi);
    EXPECT(perfbuf_v2_blocks_next(&q, &bi, &blk));
    uint32_t count = blk.counter_count;
    perfbuf_v2_plan_entry *entries = malloc(sizeof *entries * count);
    uint32_t *scratch = malloc(sizeof *scratch * n);
    uint64_t *values = malloc(sizeof *values * count);
    perfbuf_raw_sample *samples = malloc(sizeof *samples * count);
    perfbuf_value_context *contexts = malloc(sizeof *contexts * count);
    perfbuf_status *statuses = malloc(sizeof *statuses * count);
    EXPECT(entries != NULL && scratch != NULL && values != NULL && samples != NULL &&
           contexts != NULL && statuses != NULL);
    perfbuf_v2_plan plan;
    EXPECT(perfbuf_v2_plan_build(&q, &blk, &reg, entries, count, scratch, n, &plan) ==
           PERFBUF_OK);
    uint32_t sampled = 0;
    perfbuf_v2_values_read_result read;
    perfbuf_v2_instances_begin(&blk, &ii);
    while (perfbuf_v2_instances_next_values(&q, &blk, &ii, &inst, values, count, &read) ==
           PERFBUF_OK) {
        CHECK(read.non_integers > 0 || plan.repeated_ids);
        uint64_t before = pb_work_units;
        start();
        EXPECT(perfbuf_v2_plan_samples(&q, &blk, &inst, &reg, &plan, values, &read, samples,
                                       contexts, statuses, count) == PERFBUF_OK);
        CHECK(pb_work_units <= (uint64_t)WORK_PER_BYTE * r->bytes + WORK_FIXED);
        stop(r);
        pb_work_units = before;
        for (uint32_t p = 0; p < plan.count; p++) {
            sampled += statuses[p] == PERFBUF_OK ? 1u : 0u;
        }
    }
    /* Every counter but the base, and id 0 when its one value is wide. */
    EXPECT(sampled == 2 * (shape == ADV_PLAN_ONE_WIDE ? n - 2 : n + 2));
    free(samples);
    free(contexts);
    free(statuses);
    free(entries);
    free(scratch);
    free(values);
    tb_free(&query.buf);
    tb_free(&registration);
}

static void call_plan_samples_one_wide(uint32_t n, run *r)
{
    plan_samples_irregular(n, ADV_PLAN_ONE_WIDE, r);
}
static void call_plan_samples_repeated(uint32_t n, run *r)
{
    plan_samples_irregular(n, ADV_PLAN_REPEATED, r);
}
static void call_plan_samples_repeated_wide(uint32_t n, run *r)
{
    plan_samples_irregular(n, ADV_PLAN_REPEATED_WIDE, r);
}

static void plan_irregular_cases(void)
{
    GROWTH("perfbuf_v2_plan_samples: one 16-byte value among n", call_plan_samples_one_wide,
           LINEAR);
    GROWTH("perfbuf_v2_plan_samples: the four referenced ids repeated",
           call_plan_samples_repeated, LINEAR);
    GROWTH("perfbuf_v2_plan_samples: repeated, the first copies 16 bytes",
           call_plan_samples_repeated_wide, LINEAR);
}

/* ---- text ---- */

static void utf16_call(uint32_t n, size_t cap, run *r)
{
    tb_buf b = adv_utf16(n);
    r->bytes = b.len;
    char *out = malloc(cap);
    size_t len = 0;
    start();
    perfbuf_status st = perfbuf_utf16le_to_utf8(b.data, b.len, out, cap, &len);
    stop(r);
    EXPECT(cap > 3 * (size_t)n ? st == PERFBUF_OK : st == PERFBUF_E_OUTPUT_TOO_SMALL);
    free(out);
    tb_free(&b);
}

static void code_page_call(uint32_t n, uint32_t code_page, size_t cap, run *r)
{
    tb_buf b = adv_code_page_text(n, code_page);
    r->bytes = b.len;
    char *out = malloc(cap);
    size_t len = 0;
    start();
    perfbuf_status st = perfbuf_codepage_to_utf8(code_page, b.data, b.len, out, cap, &len);
    stop(r);
    EXPECT(cap > 3 * (size_t)n ? st == PERFBUF_OK : st == PERFBUF_E_OUTPUT_TOO_SMALL);
    free(out);
    tb_free(&b);
}

static void call_utf16_whole(uint32_t n, run *r) { utf16_call(n, 3 * (size_t)n + 1, r); }
static void call_utf16_small(uint32_t n, run *r) { utf16_call(n, 16, r); }
static void call_cp1252(uint32_t n, run *r) { code_page_call(n, 1252, 3 * (size_t)n + 1, r); }
static void call_cp65001(uint32_t n, run *r) { code_page_call(n, 65001, 3 * (size_t)n + 1, r); }
static void call_cp20127(uint32_t n, run *r) { code_page_call(n, 20127, 3 * (size_t)n + 1, r); }
static void call_cp65001_small(uint32_t n, run *r) { code_page_call(n, 65001, 16, r); }

/* The name of adv_om_object(n) and adv_om_counter(n), into `cap` bytes;
 * the expected length follows from the generator: "p_" and the object's
 * snake case ("ab_" per 4 bytes, less the last '_'), "_z". */
static void om_name_call(uint32_t n, size_t cap, run *r)
{
    tb_buf object = adv_om_object(n);
    tb_buf counter = adv_om_counter(n);
    r->bytes = object.len + counter.len;
    char *out = malloc(cap > 0 ? cap : 1);
    size_t len = 0;
    start();
    perfbuf_status st = perfbuf_openmetrics_name("p", 1, (const char *)object.data, object.len, 1,
                                                 (const char *)counter.data, counter.len, 2,
                                                 cap > 0 ? out : NULL, cap, &len);
    stop(r);
    size_t snake = 3 * (size_t)(n / 4) - 1;
    EXPECT(len == 2 + snake + 2);
    EXPECT(cap > len ? st == PERFBUF_OK : st == PERFBUF_E_OUTPUT_TOO_SMALL);
    free(out);
    tb_free(&object);
    tb_free(&counter);
}

static void call_om_name_whole(uint32_t n, run *r) { om_name_call(n, (size_t)n + 16, r); }
static void call_om_name_measure(uint32_t n, run *r) { om_name_call(n, 0, r); }

static void call_om_escape(uint32_t n, run *r)
{
    tb_buf text = adv_om_escapes(n);
    r->bytes = text.len;
    size_t cap = 3 * (size_t)n + 1;
    char *out = malloc(cap);
    size_t len = 0;
    start();
    perfbuf_status st = perfbuf_openmetrics_escape((const char *)text.data, text.len, out, cap,
                                                   &len);
    stop(r);
    /* Per 8 bytes: three escapes of 2, ESC and 0xFF as U+FFFD (3 each),
     * U+202E as U+FFFD: 15 bytes. */
    EXPECT(st == PERFBUF_OK && len == 15 * (size_t)(n / 8));
    free(out);
    tb_free(&text);
}

static void text_cases(void)
{
    GROWTH("perfbuf_openmetrics_name: n-byte names, the object repeated", call_om_name_whole,
           LINEAR);
    GROWTH("perfbuf_openmetrics_name: the same, measured", call_om_name_measure, LINEAR);
    GROWTH("perfbuf_openmetrics_escape: n bytes all escaped or replaced", call_om_escape,
           LINEAR);
    GROWTH("perfbuf_utf16le_to_utf8: n units with lone surrogates", call_utf16_whole, LINEAR);
    GROWTH("perfbuf_utf16le_to_utf8: the same into 16 bytes", call_utf16_small, LINEAR);
    GROWTH("perfbuf_codepage_to_utf8: 1252, unassigned bytes", call_cp1252, LINEAR);
    GROWTH("perfbuf_codepage_to_utf8: 65001, invalid sequences", call_cp65001, LINEAR);
    GROWTH("perfbuf_codepage_to_utf8: 20127, bytes above 0x7F", call_cp20127, LINEAR);
    GROWTH("perfbuf_codepage_to_utf8: 65001 into 16 bytes", call_cp65001_small, LINEAR);
}

static const th_case cases[] = {
    TH_CASE(v1_walks),       TH_CASE(v1_plan_walks),    TH_CASE(v1_calls),         TH_CASE(names_cases),
    TH_CASE(v2_query_cases), TH_CASE(v2_meta_cases),    TH_CASE(crosscheck_cases),
    TH_CASE(text_cases),     TH_CASE(pairing_cases),    TH_CASE(query_cases),
    TH_CASE(plan_irregular_cases),
};

TH_MAIN(cases)
