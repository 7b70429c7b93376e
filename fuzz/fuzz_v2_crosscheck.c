/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The cross-check of V2 query data against a registration and counter
 * identifiers, on three buffers split from one input:
 *   [u16 registration length][u16 identifiers length][registration]
 *   [identifiers][query data]
 * (lengths little-endian, cut to what the input holds; no identifiers
 * when their length is 0). Oracles: the cross-check runs only on what
 * the readers accepted, answers OK or INCONSISTENT, locates a
 * disagreement inside the buffers it names, and answers the same twice;
 * raw samples and formatted values through the registration never fail
 * unsafely; a value plan's samples equal the raw samples. Unordered registration ids and identifiers are sorted in
 * scratch (the _indexed calls) rather than dropped. The accepted
 * registration and identifiers equal an independent decoding of their
 * bytes (oracle_v2_meta.h), as the cross-check reads them through the
 * views. A block formatted whole as doubles equals the same formatted
 * value by value (oracle_v2_doubles.h). Every call stays within
 * its work budget over the buffers it is given (docs/linear-time.md).
 */
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "oracle_v2_doubles.h"
#include "oracle_v2_meta.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/values.h"

static size_t take_length(const uint8_t **data, size_t *size)
{
    if (*size < 2) {
        *size = 0;
        return 0;
    }
    size_t n = (size_t)(*data)[0] | ((size_t)(*data)[1] << 8);
    *data += 2;
    *size -= 2;
    return n;
}

static void check_location(const perfbuf_error *where, size_t size)
{
    if (where->status != PERFBUF_OK) {
        ORACLE(where->status == PERFBUF_E_INCONSISTENT);
        ORACLE(where->offset <= size);
        ORACLE(where->structure != NULL && where->structure[0] != '\0');
    }
}

/* Every value through the registration: samples and a value against
 * itself. A sample is a search of one block or instance, so each has its
 * own budget over the query and the registration, apart from the others
 * (64 counters per block are not a linear pattern). */
static void samples(const perfbuf_v2_query *q, const perfbuf_v2_reginfo *reg, size_t bytes)
{
    perfbuf_v2_iter bi;
    perfbuf_v2_block b;
    perfbuf_v2_counter_reg c;
    bool more;
    BUDGETED(q->received, perfbuf_v2_blocks_begin(q, &bi));
    for (;;) {
        BUDGETED(q->received, more = perfbuf_v2_blocks_next(q, &bi, &b));
        if (!more) {
            break;
        }
        perfbuf_v2_iter ii;
        perfbuf_v2_instance inst;
        bool any = b.instance_count == 0;
        bool have_inst;
        BUDGETED(q->received, perfbuf_v2_instances_begin(&b, &ii));
        BUDGETED(q->received, have_inst = perfbuf_v2_instances_next(q, &b, &ii, &inst));
        if (!any && !have_inst) {
            continue;
        }
        for (uint32_t i = 0; i < 64; i++) {
            BUDGETED(reg->size, more = perfbuf_v2_reginfo_counter(reg, i, &c));
            if (!more) {
                break;
            }
            perfbuf_raw_sample s;
            perfbuf_value_context ctx;
            perfbuf_status st;
            BUDGETED_APART(bytes, st = perfbuf_v2_raw_sample(q, &b, have_inst ? &inst : NULL, reg,
                                                             c.id, &s, &ctx));
            ORACLE(st == PERFBUF_OK || st == PERFBUF_E_NOT_FOUND ||
                   st == PERFBUF_E_INVALID_ARGUMENT);
            if (st != PERFBUF_OK) {
                continue;
            }
            perfbuf_value v;
            BUDGETED(2 * sizeof s + sizeof ctx,
                     (void)perfbuf_format_value(c.type, &s, &s, &ctx, PERFBUF_FMT_DOUBLE, &v));
        }
    }
}

/*
 * Every instance (or block without instances) through a value index: the
 * build stays within the budget of the query's bytes, each indexed sample
 * equals the plain one (status, sample and context from the same start)
 * and costs no more than a fixed budget, however large the instance.
 */
static void indexed_samples(const perfbuf_v2_query *q, const perfbuf_v2_reginfo *reg)
{
    perfbuf_v2_iter bi;
    perfbuf_v2_block b;
    perfbuf_v2_blocks_begin(q, &bi);
    while (perfbuf_v2_blocks_next(q, &bi, &b)) {
        size_t cap;
        BUDGETED(0, cap = perfbuf_v2_value_index_slots(&b));
        uint64_t *slots = cap < SIZE_MAX / sizeof *slots ? malloc(cap * sizeof *slots) : NULL;
        if (slots == NULL) {
            continue;
        }
        perfbuf_v2_iter ii;
        perfbuf_v2_instance inst;
        perfbuf_v2_instances_begin(&b, &ii);
        bool have_inst = perfbuf_v2_instances_next(q, &b, &ii, &inst);
        do {
            const perfbuf_v2_instance *in = have_inst ? &inst : NULL;
            perfbuf_v2_value_index index;
            perfbuf_status built;
            BUDGETED(q->size, built = perfbuf_v2_value_index_build(q, &b, in, slots, cap, &index));
            ORACLE(built == PERFBUF_OK);
            perfbuf_v2_counter_reg c;
            for (uint32_t i = 0; perfbuf_v2_reginfo_counter(reg, i, &c) && i < 64; i++) {
                perfbuf_raw_sample plain = {1, 2, 3, 4, 5, 6};
                perfbuf_raw_sample fast = plain;
                perfbuf_value_context plain_ctx = {7, 8};
                perfbuf_value_context fast_ctx = plain_ctx;
                perfbuf_status st = perfbuf_v2_raw_sample(q, &b, in, reg, c.id, &plain, &plain_ctx);
                perfbuf_status st_fast;
                BUDGETED(0, st_fast = perfbuf_v2_raw_sample_indexed(q, &b, in, reg, &index, c.id,
                                                                    &fast, &fast_ctx));
                ORACLE(st_fast == st);
                ORACLE(fast.status == plain.status && fast.type == plain.type &&
                       fast.first == plain.first && fast.second == plain.second &&
                       fast.multi == plain.multi && fast.time_stamp == plain.time_stamp);
                ORACLE(fast_ctx.frequency == plain_ctx.frequency &&
                       fast_ctx.scale == plain_ctx.scale);
            }
            have_inst = have_inst && perfbuf_v2_instances_next(q, &b, &ii, &inst);
        } while (have_inst);
        free(slots);
    }
}

/* A plan's sample and the reference sample agree: the same status, and
 * the same sample and context when it is OK. */
static void plan_sample_equals(perfbuf_status st_plan, const perfbuf_raw_sample *s,
                               const perfbuf_value_context *c, perfbuf_status st_ref,
                               const perfbuf_raw_sample *ref, const perfbuf_value_context *ref_c)
{
    ORACLE(st_plan == st_ref);
    if (st_ref == PERFBUF_OK) {
        ORACLE(s->status == ref->status && s->type == ref->type && s->first == ref->first &&
               s->second == ref->second && s->multi == ref->multi &&
               s->time_stamp == ref->time_stamp);
        ORACLE(c->frequency == ref_c->frequency && c->scale == ref_c->scale);
    }
}

/*
 * The block formatted whole as doubles (perfbuf_v2_plan_format_block_doubles)
 * with the query as both captures, for a double format with each of its
 * modifiers and an integer one: within the standard budget of the bytes,
 * and the status and every cell those of the value-by-value reference
 * (oracle_v2_doubles.h). A block the walk decides answers DUPLICATE_ID or
 * UNKNOWN_VALUE, as the reference finds.
 */
static void block_doubles(const perfbuf_v2_query *q, const perfbuf_v2_block *b,
                          const perfbuf_v2_reginfo *reg, const perfbuf_v2_plan *plan,
                          size_t bytes)
{
    static const uint32_t flags[] = {
        PERFBUF_FMT_DOUBLE, PERFBUF_FMT_DOUBLE | PERFBUF_FMT_1000 | PERFBUF_FMT_NOCAP100,
        PERFBUF_FMT_DOUBLE | PERFBUF_FMT_NOSCALE, PERFBUF_FMT_LARGE};
    uint32_t rows = b->kind == PERFBUF_V2_COUNTERSET ? b->instance_count : 1u;
    size_t cells = (size_t)rows * plan->count + 1u;
    size_t scratch_cap = PERFBUF_V2_FORMAT_SCRATCH(plan->count);
    double *values = malloc(sizeof *values * cells);
    double *ref = malloc(sizeof *ref * cells);
    uint8_t *codes = malloc(cells);
    uint32_t *ref_status = malloc(sizeof *ref_status * cells);
    uint64_t *scratch = malloc(sizeof *scratch * (scratch_cap + 1u));
    if (values != NULL && ref != NULL && codes != NULL && ref_status != NULL && scratch != NULL) {
        for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
            perfbuf_status st;
            size_t needed = 0;
            BUDGETED_APART(bytes, st = perfbuf_v2_plan_format_block_doubles(
                                      q, b, q, b, plan, flags[f], scratch, scratch_cap, values,
                                      codes, cells, &needed));
            perfbuf_status expected = PERFBUF_E_INVALID_ARGUMENT;
            ORACLE(v2_doubles_reference(q, b, q, b, reg, plan, flags[f], ref, ref_status, cells,
                                        &expected));
            ORACLE(st == expected && needed == cells - 1u);
            for (size_t c = 0; st == PERFBUF_OK && c + 1u < cells; c++) {
                ORACLE(v2_doubles_cell_equal(values[c], codes[c], ref[c], ref_status[c]));
            }
        }
    }
    free(values);
    free(ref);
    free(codes);
    free(ref_status);
    free(scratch);
}

/*
 * Every block with an id list through a value plan: the build stays within
 * the budget of the query and registration bytes, the bulk read within the
 * query's, and every plan sample equals perfbuf_v2_raw_sample of the id at
 * its position (status; sample and context when OK). The batch of every
 * position (perfbuf_v2_plan_samples) is held to the standard budget of
 * the query and registration whatever the block holds (repeated ids,
 * values that are not integers, thousands of counters), and each of its
 * positions is compared with the value index's sample, which the oracle
 * of indexed_samples holds equal to the walk's; the first 64 positions
 * are also compared with perfbuf_v2_raw_sample and perfbuf_v2_plan_sample
 * (each a walk of the instance when the walk decides, so not every one).
 */
static void planned_samples(const perfbuf_v2_query *q, const perfbuf_v2_reginfo *reg,
                            size_t bytes)
{
    perfbuf_v2_iter bi;
    perfbuf_v2_block b;
    perfbuf_v2_blocks_begin(q, &bi);
    while (perfbuf_v2_blocks_next(q, &bi, &b)) {
        size_t count = (size_t)b.counter_count + 1;
        size_t scratch_count = (size_t)reg->counter_count + 1;
        size_t slot_count = perfbuf_v2_value_index_slots(&b);
        perfbuf_v2_plan_entry *entries = malloc(sizeof *entries * count);
        uint32_t *scratch = malloc(sizeof *scratch * scratch_count);
        uint64_t *values = malloc(sizeof *values * count);
        perfbuf_raw_sample *batch = malloc(sizeof *batch * count);
        perfbuf_value_context *batch_ctx = malloc(sizeof *batch_ctx * count);
        perfbuf_status *batch_st = malloc(sizeof *batch_st * count);
        uint64_t *slots = slot_count < SIZE_MAX / sizeof *slots
                              ? malloc(sizeof *slots * slot_count)
                              : NULL;
        if (entries == NULL || scratch == NULL || values == NULL || batch == NULL ||
            batch_ctx == NULL || batch_st == NULL || slots == NULL) {
            free(entries);
            free(scratch);
            free(values);
            free(batch);
            free(batch_ctx);
            free(batch_st);
            free(slots);
            continue;
        }
        perfbuf_v2_plan plan;
        perfbuf_status built;
        BUDGETED(bytes, built = perfbuf_v2_plan_build(q, &b, reg, entries, count, scratch,
                                                      scratch_count, &plan));
        bool has_ids = b.kind == PERFBUF_V2_MULTIPLE_COUNTERS || b.kind == PERFBUF_V2_COUNTERSET;
        ORACLE(built == (has_ids ? PERFBUF_OK : PERFBUF_E_NOT_FOUND));
        if (built == PERFBUF_OK) {
            block_doubles(q, &b, reg, &plan, bytes);
        }
        perfbuf_v2_iter ii;
        perfbuf_v2_instance inst;
        perfbuf_v2_instances_begin(&b, &ii);
        bool have_inst = perfbuf_v2_instances_next(q, &b, &ii, &inst);
        do {
            const perfbuf_v2_instance *in = have_inst ? &inst : NULL;
            perfbuf_v2_values_read_result read;
            perfbuf_status st_read;
            BUDGETED(q->size, st_read = perfbuf_v2_values_read(q, &b, in, values, count, &read));
            ORACLE(st_read == PERFBUF_OK);
            if (built != PERFBUF_OK) {
                have_inst = have_inst && perfbuf_v2_instances_next(q, &b, &ii, &inst);
                continue;
            }
            /* Every position at once: linear in the counters, however the
             * values are laid out. */
            perfbuf_status st_batch;
            BUDGETED_APART(bytes, st_batch = perfbuf_v2_plan_samples(q, &b, in, reg, &plan,
                                                                     values, &read, batch,
                                                                     batch_ctx, batch_st, count));
            ORACLE(st_batch == PERFBUF_OK);
            perfbuf_v2_value_index index;
            ORACLE(perfbuf_v2_value_index_build(q, &b, in, slots, slot_count, &index) ==
                   PERFBUF_OK);
            for (uint32_t p = 0; p < plan.count; p++) {
                uint32_t id = perfbuf_v2_block_counter_id(q, &b, p);
                const perfbuf_prepared_formula *formula;
                BUDGETED(0, formula = perfbuf_v2_plan_formula(&plan, p));
                ORACLE(formula != NULL);
                perfbuf_raw_sample indexed = {1, 2, 3, 4, 5, 6};
                perfbuf_value_context indexed_ctx = {7, 8};
                perfbuf_status st_indexed = perfbuf_v2_raw_sample_indexed(
                    q, &b, in, reg, &index, id, &indexed, &indexed_ctx);
                plan_sample_equals(batch_st[p], &batch[p], &batch_ctx[p], st_indexed, &indexed,
                                   &indexed_ctx);
                if (p >= 64) {
                    continue;
                }
                perfbuf_raw_sample plain = {1, 2, 3, 4, 5, 6};
                perfbuf_raw_sample fast = plain;
                perfbuf_value_context plain_ctx = {7, 8};
                perfbuf_value_context fast_ctx = plain_ctx;
                perfbuf_status st = perfbuf_v2_raw_sample(q, &b, in, reg, id, &plain, &plain_ctx);
                perfbuf_status st_fast;
                BUDGETED_APART(bytes, st_fast = perfbuf_v2_plan_sample(q, &b, in, reg, &plan,
                                                                       values, &read, p, &fast,
                                                                       &fast_ctx));
                plan_sample_equals(st_fast, &fast, &fast_ctx, st, &plain, &plain_ctx);
                plan_sample_equals(batch_st[p], &batch[p], &batch_ctx[p], st, &plain, &plain_ctx);
            }
            have_inst = have_inst && perfbuf_v2_instances_next(q, &b, &ii, &inst);
        } while (have_inst);
        free(entries);
        free(scratch);
        free(values);
        free(batch);
        free(batch_ctx);
        free(batch_st);
        free(slots);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t reg_len = take_length(&data, &size);
    size_t ids_len = take_length(&data, &size);
    if (reg_len > size) {
        reg_len = size;
    }
    if (ids_len > size - reg_len) {
        ids_len = size - reg_len;
    }
    const uint8_t *reg_bytes = data;
    const uint8_t *ids_bytes = data + reg_len;
    const uint8_t *query_bytes = ids_bytes + ids_len;
    size_t query_len = size - reg_len - ids_len;

    perfbuf_v2_reginfo reg;
    perfbuf_v2_identifiers ids;
    perfbuf_v2_query q;
    perfbuf_status st;
    /* Scratch for the registration's ids (one per 48-byte counter) and
     * the identifiers' Indexes (one per 40-byte identifier). */
    size_t reg_cap = reg_len / 48 + 1;
    size_t ids_cap = ids_len / 40 + 1;
    uint64_t *reg_scratch = malloc(sizeof *reg_scratch * reg_cap);
    uint64_t *ids_scratch = malloc(sizeof *ids_scratch * ids_cap);
    if (reg_scratch == NULL || ids_scratch == NULL) {
        free(reg_scratch);
        free(ids_scratch);
        return 0;
    }
    BUDGETED(reg_len, st = perfbuf_v2_reginfo_parse(reg_bytes, reg_len, NULL, &reg, NULL));
    if (st == PERFBUF_E_SCRATCH_NEEDED) {
        BUDGETED(reg_len, st = perfbuf_v2_reginfo_parse_indexed(reg_bytes, reg_len, NULL,
                                                                reg_scratch, reg_cap, &reg, NULL));
        ORACLE(st != PERFBUF_E_SCRATCH_NEEDED && st != PERFBUF_E_OUTPUT_TOO_SMALL);
    }
    perfbuf_status query_st;
    BUDGETED(query_len, query_st = perfbuf_v2_query_parse(query_bytes, query_len, NULL, &q, NULL));
    const perfbuf_v2_identifiers *with_ids = NULL;
    perfbuf_status ids_st = PERFBUF_OK;
    if (ids_len > 0) {
        BUDGETED(ids_len, ids_st = perfbuf_v2_identifiers_parse(ids_bytes, ids_len, NULL, &ids, NULL));
        with_ids = &ids;
    }
    if (st != PERFBUF_OK || query_st != PERFBUF_OK || ids_st != PERFBUF_OK) {
        free(reg_scratch);
        free(ids_scratch);
        return 0;
    }
    reginfo_equals_bytes(&reg, reg_bytes, reg_len);
    if (with_ids != NULL) {
        identifiers_equal_bytes(&ids, ids_bytes, ids_len);
    }
    size_t bytes = query_len + reg_len + ids_len;
    perfbuf_v2_mismatch m;
    BUDGETED(bytes, st = perfbuf_v2_crosscheck(&q, &reg, with_ids, &m));
    bool indexed = false;
    if (st == PERFBUF_E_SCRATCH_NEEDED) {
        /* Only unordered identifiers need sorting, and only when there are
         * more than the small set. */
        ORACLE(with_ids != NULL && ids.count > PERFBUF_V2_SMALL_SET);
        ORACLE(m.in_identifiers.status == PERFBUF_E_SCRATCH_NEEDED);
        ORACLE(oracle_inside(m.in_identifiers.offset, 0, ids_len));
        BUDGETED(bytes, st = perfbuf_v2_crosscheck_indexed(&q, &reg, with_ids, ids_scratch,
                                                           ids_cap, &m));
        indexed = true;
    }
    ORACLE(st == PERFBUF_OK || st == PERFBUF_E_INCONSISTENT);
    if (st == PERFBUF_OK) {
        ORACLE(m.kind == PERFBUF_V2_AGREE);
        ORACLE(m.in_query.status == PERFBUF_OK && m.in_registration.status == PERFBUF_OK &&
               m.in_identifiers.status == PERFBUF_OK);
    } else {
        ORACLE(m.kind != PERFBUF_V2_AGREE);
        const char *kind_name;
        BUDGETED(0, kind_name = perfbuf_v2_mismatch_name(m.kind));
        ORACLE(strcmp(kind_name, "?") != 0);
        ORACLE(m.kind == PERFBUF_V2_INDEX_RANGE || m.block_index < q.block_count ||
               m.in_identifiers.status != PERFBUF_OK);
        ORACLE(m.in_query.status != PERFBUF_OK || m.in_identifiers.status != PERFBUF_OK);
        ORACLE(with_ids != NULL || m.in_identifiers.status == PERFBUF_OK);
    }
    check_location(&m.in_query, q.size);
    check_location(&m.in_registration, reg_len);
    check_location(&m.in_identifiers, ids_len);
    perfbuf_v2_mismatch again;
    perfbuf_status again_st;
    BUDGETED(bytes, again_st = indexed ? perfbuf_v2_crosscheck_indexed(&q, &reg, with_ids,
                                                                       ids_scratch, ids_cap, &again)
                                       : perfbuf_v2_crosscheck(&q, &reg, with_ids, &again));
    ORACLE(again_st == st);
    ORACLE(again.kind == m.kind && again.in_query.offset == m.in_query.offset &&
           again.in_registration.offset == m.in_registration.offset &&
           again.in_identifiers.offset == m.in_identifiers.offset);
    samples(&q, &reg, query_len + reg_len);
    indexed_samples(&q, &reg);
    planned_samples(&q, &reg, query_len + reg_len);
    free(reg_scratch);
    free(ids_scratch);
    return 0;
}
