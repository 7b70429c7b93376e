/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Views equal validation (docs/v1.md#views): the views of a parsed V1 block
 * read fixed offsets and trust what the parse proved, so on every accepted
 * input this walks the block twice, once with the validating decoders the
 * parse runs (src/v1/internal.h: pb_v1_read_object, pb_v1_read_counter,
 * pb_v1_read_instance, pb_v1_read_counter_block) and once with the public
 * views, and requires every field of every object, counter, instance and
 * counter block to agree, and every value the accessors and value plans
 * give to be the bytes the decoded definition names. Value plans: samples
 * equal perfbuf_v1_raw_sample's, statuses included, a whole object read
 * in one call (perfbuf_v1_plan_read_object) equals perfbuf_v1_plan_read of
 * each of its counter blocks (formatted: perfbuf_v1_plan_format_all), and
 * plan calls stay in the work budget.
 */
#ifndef PERFBUF_FUZZ_ORACLE_V1_VIEWS_H
#define PERFBUF_FUZZ_ORACLE_V1_VIEWS_H

#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "perfbuf/v1.h"
#include "v1/internal.h"

static bool same_object(const perfbuf_v1_object *a, const perfbuf_v1_object *b)
{
    return a->offset == b->offset && a->total_length == b->total_length &&
           a->definition_length == b->definition_length && a->header_length == b->header_length &&
           a->name_title_index == b->name_title_index &&
           a->help_title_index == b->help_title_index && a->detail_level == b->detail_level &&
           a->counter_count == b->counter_count && a->default_counter == b->default_counter &&
           a->num_instances == b->num_instances && a->instance_count == b->instance_count &&
           a->code_page == b->code_page && a->perf_time == b->perf_time &&
           a->perf_freq == b->perf_freq && a->definitions_offset == b->definitions_offset &&
           a->data_offset == b->data_offset;
}

static bool same_counter(const perfbuf_v1_counter *a, const perfbuf_v1_counter *b)
{
    return a->offset == b->offset && a->byte_length == b->byte_length &&
           a->name_title_index == b->name_title_index &&
           a->help_title_index == b->help_title_index && a->default_scale == b->default_scale &&
           a->detail_level == b->detail_level && a->type == b->type && a->size == b->size &&
           a->counter_offset == b->counter_offset;
}

static bool same_instance(const perfbuf_v1_instance *a, const perfbuf_v1_instance *b)
{
    return a->offset == b->offset && a->byte_length == b->byte_length &&
           a->parent_title_index == b->parent_title_index &&
           a->parent_instance == b->parent_instance && a->unique_id == b->unique_id &&
           a->name_offset == b->name_offset && a->name_bytes == b->name_bytes &&
           a->code_page == b->code_page && a->counters.offset == b->counters.offset &&
           a->counters.byte_length == b->counters.byte_length &&
           a->counters.parse_id == b->counters.parse_id;
}

/* The value the decoded definition names, read from the input itself. */
static uint64_t decoded_value(const uint8_t *data, const perfbuf_v1_counter_block *blk,
                              const perfbuf_v1_counter *c)
{
    ORACLE((uint64_t)c->counter_offset + c->size <= blk->byte_length);
    uint64_t v = 0;
    if (c->size == 4 || c->size == 8) {
        for (uint32_t i = c->size; i > 0; i--) {
            v = (v << 8) | data[blk->offset + c->counter_offset + i - 1];
        }
    }
    return v;
}

static bool same_sample(const perfbuf_raw_sample *a, const perfbuf_value_context *ac,
                        const perfbuf_raw_sample *b, const perfbuf_value_context *bc)
{
    return a->status == b->status && a->type == b->type && a->first == b->first &&
           a->second == b->second && a->multi == b->multi && a->time_stamp == b->time_stamp &&
           ac->scale == bc->scale && ac->frequency == bc->frequency;
}

/* One counter block: the accessors, the plan's values and samples against
 * the decoded definitions, and a plan refusing a block it does not cover. */
static void views_check_block(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                              const perfbuf_v1_plan *plan, const perfbuf_v1_counter *defs,
                              uint64_t *values, const perfbuf_v1_counter_block *blk,
                              const uint8_t *data, size_t size)
{
    perfbuf_status st;
    BUDGETED_APART(size, st = perfbuf_v1_plan_read(plan, b, blk, values, o->counter_count));
    ORACLE(st == PERFBUF_OK);
    for (uint32_t k = 0; k < o->counter_count; k++) {
        uint64_t want = decoded_value(data, blk, &defs[k]);
        ORACLE(values[k] == want);
        uint64_t by_accessor;
        BUDGETED(size, by_accessor = perfbuf_v1_counter_value(b, blk, &defs[k]));
        ORACLE(by_accessor == want);
        perfbuf_raw_sample by_plan, by_view;
        perfbuf_value_context plan_ctx, view_ctx;
        perfbuf_status plan_st, view_st;
        BUDGETED_APART(size, plan_st = perfbuf_v1_plan_sample(plan, b, blk, k, &by_plan, &plan_ctx));
        BUDGETED_APART(size, view_st = perfbuf_v1_raw_sample(b, o, &defs[k], blk, &by_view, &view_ctx));
        ORACLE(plan_st == view_st);
        if (plan_st == PERFBUF_OK) {
            ORACLE(same_sample(&by_plan, &plan_ctx, &by_view, &view_ctx));
            perfbuf_value v;
            BUDGETED_APART(size, st = perfbuf_v1_plan_format(plan, b, blk, plan, b, blk, k,
                                                             PERFBUF_FMT_DOUBLE, &v));
            ORACLE(st == PERFBUF_OK);
        }
    }
    perfbuf_value *all = malloc(sizeof *all * (o->counter_count ? o->counter_count : 1));
    ORACLE(all != NULL);
    BUDGETED_APART(size, st = perfbuf_v1_plan_format_all(plan, b, blk, plan, b, blk,
                                                         PERFBUF_FMT_LARGE, all, o->counter_count));
    ORACLE(st == PERFBUF_OK);
    for (uint32_t k = 0; k < o->counter_count; k++) {
        perfbuf_value one;
        perfbuf_status one_st;
        BUDGETED_APART(size, one_st = perfbuf_v1_plan_format(plan, b, blk, plan, b, blk, k,
                                                             PERFBUF_FMT_LARGE, &one));
        if (one_st == PERFBUF_OK) {
            ORACLE(all[k].status == one.status && all[k].as_large == one.as_large);
        } else {
            ORACLE(all[k].status == (one_st == PERFBUF_E_NOT_FOUND ? PERFBUF_CSTATUS_NO_COUNTER
                                                                   : PERFBUF_PDH_INVALID_ARGUMENT));
        }
    }
    free(all);
    /* One byte short of the plan's reach is refused, whatever the block. */
    if (plan->reach > 0) {
        perfbuf_v1_counter_block shorter = {blk->offset, (uint32_t)plan->reach - 1u, blk->parse_id};
        BUDGETED_APART(size, st = perfbuf_v1_plan_read(plan, b, &shorter, values, o->counter_count));
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
    }
    /* Moved within the parse: a value read needs a ByteLength of that
     * length where the block says it starts. */
    perfbuf_v1_counter_block moved = {blk->offset + 8u, blk->byte_length, blk->parse_id};
    bool length_there = false;
    if (size >= 4u && moved.offset <= size - 4u) {
        uint32_t length = 0;
        for (uint32_t i = 4; i > 0; i--) {
            length = (length << 8) | data[moved.offset + i - 1];
        }
        length_there = length == blk->byte_length;
    }
    BUDGETED_APART(size, st = perfbuf_v1_plan_read(plan, b, &moved, values, o->counter_count));
    ORACLE(st == PERFBUF_E_INVALID_ARGUMENT || (st == PERFBUF_OK && length_there));
    const uint8_t *moved_bytes;
    for (uint32_t k = 0; k < o->counter_count; k++) {
        BUDGETED(size, moved_bytes = perfbuf_v1_counter_bytes(b, &moved, &defs[k]));
        ORACLE(moved_bytes == NULL || length_there);
    }
}

/* A counter block the decoders read carries no parse's identity (only views
 * of a parse stamp one): every value read refuses it. */
static void views_check_unstamped(const perfbuf_v1_block *b, const perfbuf_v1_plan *plan,
                                  const perfbuf_v1_counter_block *blk, uint64_t *values,
                                  size_t size)
{
    perfbuf_status st;
    ORACLE(blk->parse_id == 0 && b->parse_id != 0);
    BUDGETED_APART(size, st = perfbuf_v1_plan_read(plan, b, blk, values, plan->count));
    ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
}

/* The instances (or the single counter block) of one object, decoded and
 * viewed side by side. */
static void views_check_data(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                             const perfbuf_v1_plan *plan, const perfbuf_v1_counter *defs,
                             uint64_t *values, const uint8_t *data, size_t size)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, NULL, NULL);
    pb_cursor decoded_data = pb_v1_window(b, o->data_offset, o->offset + o->total_length);
    perfbuf_v1_counter_block blk, viewed_blk;
    if (o->num_instances == PERFBUF_V1_NO_INSTANCES) {
        ORACLE(pb_v1_read_counter_block(&ctx, &decoded_data, NULL, &blk) == PERFBUF_OK);
        ORACLE(perfbuf_v1_object_counter_block(b, o, &viewed_blk));
        views_check_unstamped(b, plan, &blk, values, size);
        blk.parse_id = b->parse_id;
        ORACLE(blk.offset == viewed_blk.offset && blk.byte_length == viewed_blk.byte_length &&
               blk.parse_id == viewed_blk.parse_id);
        views_check_block(b, o, plan, defs, values, &blk, data, size);
        return;
    }
    ORACLE(!perfbuf_v1_object_counter_block(b, o, &viewed_blk));
    perfbuf_v1_iter ii;
    perfbuf_v1_instance viewed, decoded;
    perfbuf_v1_instances_begin(o, &ii);
    for (uint32_t i = 0; i < o->instance_count; i++) {
        ORACLE(pb_v1_read_instance(&ctx, &decoded_data, o->code_page, &decoded) == PERFBUF_OK);
        ORACLE(pb_v1_read_counter_block(&ctx, &decoded_data, NULL, &decoded.counters) ==
               PERFBUF_OK);
        views_check_unstamped(b, plan, &decoded.counters, values, size);
        decoded.counters.parse_id = b->parse_id;
        ORACLE(perfbuf_v1_instances_next(b, &ii, &viewed));
        ORACLE(viewed.index == i);
        ORACLE(same_instance(&viewed, &decoded));
        views_check_block(b, o, plan, defs, values, &decoded.counters, data, size);
    }
    ORACLE(!perfbuf_v1_instances_next(b, &ii, &viewed));
}

/* The whole object in one call (perfbuf_v1_plan_read_object): the needed
 * size, a matrix one cell short refused, every row equal to
 * perfbuf_v1_plan_read of that instance's block, and an entry moved past
 * the proved reach, an entry changed inside it and a changed reach
 * refused by the seal before anything is read; formatted
 * (perfbuf_v1_plan_format_object, the object against itself), every row
 * equal to perfbuf_v1_plan_format_all of that block. */
static void views_check_object(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                               const perfbuf_v1_plan *plan, size_t size)
{
    bool has_instances = o->num_instances != PERFBUF_V1_NO_INSTANCES;
    size_t rows = has_instances ? o->instance_count : 1u;
    size_t cells = rows * plan->count;
    size_t needed = 0;
    perfbuf_status st;
    BUDGETED_APART(size, st = perfbuf_v1_plan_read_object(plan, b, o, NULL, 0, &needed));
    ORACLE(needed == cells);
    ORACLE(st == (cells == 0 ? PERFBUF_OK : PERFBUF_E_OUTPUT_TOO_SMALL));
    uint64_t *matrix = malloc(sizeof *matrix * (cells ? cells : 1));
    uint64_t *row = malloc(sizeof *row * (plan->count ? plan->count : 1));
    ORACLE(matrix != NULL && row != NULL);
    if (cells > 0) {
        BUDGETED_APART(size, st = perfbuf_v1_plan_read_object(plan, b, o, matrix, cells - 1u,
                                                              &needed));
        ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL && needed == cells);
    }
    BUDGETED_APART(size, st = perfbuf_v1_plan_read_object(plan, b, o, matrix, cells, &needed));
    ORACLE(st == PERFBUF_OK && needed == cells);
    if (!has_instances) {
        perfbuf_v1_counter_block blk;
        ORACLE(perfbuf_v1_object_counter_block(b, o, &blk));
        BUDGETED_APART(size, st = perfbuf_v1_plan_read(plan, b, &blk, row, plan->count));
        ORACLE(st == PERFBUF_OK);
        ORACLE(plan->count == 0 || memcmp(row, matrix, sizeof *row * plan->count) == 0);
    } else {
        perfbuf_v1_iter ii;
        perfbuf_v1_instance inst;
        size_t i = 0;
        perfbuf_v1_instances_begin(o, &ii);
        while (perfbuf_v1_instances_next(b, &ii, &inst)) {
            BUDGETED_APART(size, st = perfbuf_v1_plan_read(plan, b, &inst.counters, row,
                                                           plan->count));
            ORACLE(st == PERFBUF_OK && i < rows);
            ORACLE(plan->count == 0 ||
                   memcmp(row, matrix + i * plan->count, sizeof *row * plan->count) == 0);
            i++;
        }
        ORACLE(i == rows);
    }
    /* Formatted against itself, paired by position: each row what
     * perfbuf_v1_plan_format_all gives for that instance's block. */
    perfbuf_value *formatted = malloc(sizeof *formatted * (cells ? cells : 1));
    perfbuf_value *one_row = malloc(sizeof *one_row * (plan->count ? plan->count : 1));
    ORACLE(formatted != NULL && one_row != NULL);
    BUDGETED_APART(size, st = perfbuf_v1_plan_format_object(plan, b, o, plan, b, o,
                                                            PERFBUF_FMT_LARGE, formatted, cells,
                                                            &needed));
    ORACLE(st == PERFBUF_OK && needed == cells);
    if (cells > 0) {
        BUDGETED_APART(size, st = perfbuf_v1_plan_format_object(plan, b, o, plan, b, o,
                                                                PERFBUF_FMT_LARGE, formatted,
                                                                cells - 1u, &needed));
        ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL && needed == cells);
    }
    perfbuf_v1_iter fi;
    perfbuf_v1_instance finst;
    perfbuf_v1_instances_begin(o, &fi);
    for (size_t i = 0; i < rows && plan->count > 0; i++) {
        perfbuf_v1_counter_block blk;
        if (has_instances) {
            ORACLE(perfbuf_v1_instances_next(b, &fi, &finst));
            blk = finst.counters;
        } else {
            ORACLE(perfbuf_v1_object_counter_block(b, o, &blk));
        }
        BUDGETED_APART(size, st = perfbuf_v1_plan_format_all(plan, b, &blk, plan, b, &blk,
                                                             PERFBUF_FMT_LARGE, one_row,
                                                             plan->count));
        ORACLE(st == PERFBUF_OK);
        for (uint32_t k = 0; k < plan->count; k++) {
            const perfbuf_value *cell = &formatted[i * plan->count + k];
            ORACLE(cell->status == one_row[k].status && cell->as_large == one_row[k].as_large);
        }
    }
    /* The same object as doubles and compact codes
     * (perfbuf_v1_plan_format_object_doubles): every cell the as_double
     * and the code of the status the perfbuf_value call wrote, for a
     * double format with each of its modifiers and an integer one. */
    static const uint32_t doubles_flags[] = {
        PERFBUF_FMT_DOUBLE, PERFBUF_FMT_DOUBLE | PERFBUF_FMT_1000 | PERFBUF_FMT_NOCAP100,
        PERFBUF_FMT_DOUBLE | PERFBUF_FMT_NOSCALE, PERFBUF_FMT_LARGE};
    double *as_doubles = malloc(sizeof *as_doubles * (cells ? cells : 1));
    uint8_t *codes = malloc(cells ? cells : 1);
    ORACLE(as_doubles != NULL && codes != NULL);
    for (size_t f = 0; f < sizeof doubles_flags / sizeof doubles_flags[0]; f++) {
        BUDGETED_APART(size, st = perfbuf_v1_plan_format_object(plan, b, o, plan, b, o,
                                                                doubles_flags[f], formatted,
                                                                cells, &needed));
        ORACLE(st == PERFBUF_OK);
        size_t doubles_needed = 0;
        BUDGETED_APART(size, st = perfbuf_v1_plan_format_object_doubles(
                                 plan, b, o, plan, b, o, doubles_flags[f], as_doubles, codes,
                                 cells, &doubles_needed));
        ORACLE(st == PERFBUF_OK && doubles_needed == cells);
        for (size_t c = 0; c < cells; c++) {
            uint32_t status;
            BUDGETED_APART(size, status = perfbuf_compact_cstatus(codes[c]));
            ORACLE(codes[c] < PERFBUF_COMPACT_COUNT && status == formatted[c].status);
            ORACLE(memcmp(&as_doubles[c], &formatted[c].as_double, sizeof as_doubles[c]) == 0);
        }
        if (cells > 0) {
            BUDGETED_APART(size, st = perfbuf_v1_plan_format_object_doubles(
                                     plan, b, o, plan, b, o, doubles_flags[f], as_doubles, codes,
                                     cells - 1u, &doubles_needed));
            ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL && doubles_needed == cells);
        }
    }
    free(as_doubles);
    free(codes);
    free(formatted);
    free(one_row);
    /* The entries are the caller's: one moved to end a byte past the
     * furthest definition's end is refused, whatever the instances. A
     * reach past 32 bits (definitions of an object without instances may
     * claim one) leaves no CounterOffset that ends past it. */
    if (plan->count > 0 && plan->reach <= UINT32_MAX) {
        perfbuf_v1_plan_entry *moved = malloc(sizeof *moved * plan->count);
        ORACLE(moved != NULL);
        memcpy(moved, plan->entries, sizeof *moved * plan->count);
        moved[plan->count - 1u].size = 4;
        moved[plan->count - 1u].offset = (uint32_t)(plan->reach > 3u ? plan->reach - 3u : 1u);
        perfbuf_v1_plan altered = *plan;
        altered.entries = moved;
        BUDGETED_APART(size, st = perfbuf_v1_plan_read_object(&altered, b, o, matrix, cells,
                                                              &needed));
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        free(moved);
    }
    /* The plan is sealed: an entry changed anywhere, even to a place
     * inside the reach, and a reach changed are refused by both
     * whole-object calls, before anything is read. */
    if (plan->count > 0) {
        perfbuf_v1_plan_entry *edited = malloc(sizeof *edited * plan->count);
        perfbuf_value *cells_out = malloc(sizeof *cells_out * (cells ? cells : 1));
        ORACLE(edited != NULL && cells_out != NULL);
        memcpy(edited, plan->entries, sizeof *edited * plan->count);
        edited[plan->count / 2u].offset ^= 1u;
        perfbuf_v1_plan altered = *plan;
        altered.entries = edited;
        BUDGETED_APART(size, st = perfbuf_v1_plan_read_object(&altered, b, o, matrix, cells,
                                                              &needed));
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        BUDGETED_APART(size, st = perfbuf_v1_plan_format_object(&altered, b, o, plan, b, o,
                                                                PERFBUF_FMT_LARGE, cells_out,
                                                                cells, &needed));
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        altered = *plan;
        altered.reach = plan->reach > 0 ? plan->reach - 1u : 1u;
        BUDGETED_APART(size, st = perfbuf_v1_plan_read_object(&altered, b, o, matrix, cells,
                                                              &needed));
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        free(edited);
        free(cells_out);
    }
    free(matrix);
    free(row);
}

static void oracle_v1_views(const perfbuf_v1_block *b, const uint8_t *data, size_t size)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, NULL, NULL);
    pb_cursor objects = pb_v1_window(b, b->header_length, b->size);
    perfbuf_v1_iter oi;
    perfbuf_v1_object viewed, decoded;
    perfbuf_v1_objects_begin(b, &oi);
    for (uint32_t n = 0; n < b->object_count; n++) {
        ORACLE(pb_v1_read_object(&ctx, &objects, false, &decoded) == PERFBUF_OK);
        ORACLE(perfbuf_v1_objects_next(b, &oi, &viewed));
        ORACLE(viewed.index == n);
        ORACLE(same_object(&viewed, &decoded));
        size_t count = decoded.counter_count ? decoded.counter_count : 1;
        perfbuf_v1_counter *defs = malloc(sizeof *defs * count);
        perfbuf_v1_plan_entry *entries = malloc(sizeof *entries * count);
        uint64_t *values = malloc(sizeof *values * count);
        ORACLE(defs != NULL && entries != NULL && values != NULL);
        pb_cursor decoded_defs = pb_v1_window(b, decoded.definitions_offset, decoded.data_offset);
        perfbuf_v1_iter ci;
        perfbuf_v1_counter c;
        perfbuf_v1_counters_begin(&viewed, &ci);
        for (uint32_t k = 0; k < decoded.counter_count; k++) {
            ORACLE(pb_v1_read_counter(&ctx, &decoded_defs, &defs[k]) == PERFBUF_OK);
            defs[k].index = k; /* the decoder reads a definition, not its position */
            ORACLE(perfbuf_v1_counters_next(b, &ci, &c));
            ORACLE(c.index == k);
            ORACLE(same_counter(&c, &defs[k]));
        }
        ORACLE(!perfbuf_v1_counters_next(b, &ci, &c));
        perfbuf_v1_plan plan;
        perfbuf_status st;
        if (decoded.counter_count > 0) {
            BUDGETED_APART(size, st = perfbuf_v1_plan_build(b, &viewed, entries,
                                                            decoded.counter_count - 1u, &plan));
            ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL);
        }
        BUDGETED_APART(size, st = perfbuf_v1_plan_build(b, &viewed, entries, decoded.counter_count,
                                                        &plan));
        ORACLE(st == PERFBUF_OK && plan.count == decoded.counter_count);
        for (uint32_t k = 0; k < plan.count; k++) {
            ORACLE(entries[k].title_index == defs[k].name_title_index);
            ORACLE(entries[k].type == defs[k].type && entries[k].size == defs[k].size);
            ORACLE(entries[k].offset == defs[k].counter_offset);
        }
        views_check_data(b, &viewed, &plan, defs, values, data, size);
        views_check_object(b, &viewed, &plan, size);
        free(defs);
        free(entries);
        free(values);
    }
    ORACLE(!perfbuf_v1_objects_next(b, &oi, &viewed));
}

#endif
