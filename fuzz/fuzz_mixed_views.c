/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Views of one capture passed with another: two buffers split from one
 * input as fuzz/fuzz_v2_crosscheck.c splits its three,
 *   [u16 length of A][A][B]
 * (the length little-endian, cut to what the input holds), each copied to
 * an allocation of its own so that a read of one through the other's view
 * is an AddressSanitizer report. Each is read as a V1 data block, as V2
 * query data and as the V2 metadata that costs one parse (registration,
 * identifiers, instance list, string block). Then every view, iterator,
 * object, counter, instance, counter block and index taken from one is
 * given to every public call together with the other's block or query,
 * both ways round, including perfbuf_v1_raw_sample with a counter of the
 * other capture and the object and counter block of this one (the
 * two-sample pattern), the slip of that pattern (this capture's object and
 * counter with the other's counter block), and V1 value plans (one built
 * on a capture is refused with the other's counter blocks, and a plan of
 * this capture's own object with the other's). Last, the first capture is
 * parsed in a buffer that then receives the second and is parsed again, as
 * a collector with one buffer does, and the first parse's counter blocks
 * and plan are given with the second parse. Oracles: no sanitizer report
 * and no trap (fuzzing builds make PB_UNREACHABLE one: it must be
 * unreachable from any call sequence); every returned pointer, and every
 * offset a returned view holds, lies inside the buffer whose block or
 * query was passed; every status is one the header documents for that
 * call; a counter block of another parse is refused by every value read
 * as v1.h documents (INVALID_ARGUMENT, a value of 0, no bytes), never read
 * with OK; perfbuf_v2_raw_sample_pair answers as two perfbuf_v2_raw_sample
 * calls for views of either capture with either query; and each call
 * stays within its work budget over the buffers it is given
 * (docs/linear-time.md).
 */
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "perfbuf/v1.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/v2_query.h"

/* Items kept from each capture: enough to reach every call's branches for
 * items of another buffer, few enough to keep an input fast. */
#define KEEP 4u
/* Steps of an iterator of one capture run over the other. */
#define MIXED_STEPS 64u

#define ST(name) (1u << PERFBUF_E_##name)

static bool status_in(perfbuf_status st, unsigned allowed)
{
    return (unsigned)st < 32u && (allowed & (1u << (unsigned)st)) != 0;
}

typedef struct v1_part {
    bool ok;
    perfbuf_v1_block b;
    uint64_t *slots;
    uint64_t *classes;
    bool indexed;
    perfbuf_v1_instance_index block_index;
    perfbuf_v1_iter objects_after_first;
    uint32_t objects;
    perfbuf_v1_object object[KEEP];
    uint32_t counters[KEEP];
    perfbuf_v1_counter counter[KEEP][KEEP];
    uint32_t instances[KEEP];
    perfbuf_v1_instance instance[KEEP][KEEP];
    bool has_block[KEEP];
    perfbuf_v1_counter_block block[KEEP]; /* the object's own, or its first instance's */
    bool has_own_index[KEEP];
    size_t offsets[KEEP][64];
    perfbuf_v1_instance_index own_index[KEEP];
} v1_part;

typedef struct v2_part {
    bool ok;
    perfbuf_v2_query q;
    perfbuf_v2_iter blocks_after_first;
    uint32_t blocks;
    perfbuf_v2_block block[KEEP];
    uint32_t instances[KEEP];
    perfbuf_v2_instance instance[KEEP][2];
} v2_part;

typedef struct meta_part {
    bool reg_ok;
    perfbuf_v2_reginfo reg;
    uint64_t *reg_scratch;
    bool ids_ok;
    perfbuf_v2_identifiers ids;
    perfbuf_v2_list_iter ids_after_first;
    bool have_id;
    perfbuf_v2_identifier id;
    bool list_ok;
    perfbuf_v2_instance_list list;
    perfbuf_v2_list_iter list_after_first;
    bool have_listed;
    perfbuf_v2_listed_instance listed;
    bool strings_ok;
    perfbuf_v2_strings strings;
    bool have_string;
    perfbuf_v2_counter_string string;
} meta_part;

typedef struct capture {
    const uint8_t *data;
    size_t size;
    v1_part v1;
    v2_part v2;
    meta_part meta;
} capture;

/* ---- Reading each capture on its own ---------------------------------- */

static void read_v1(capture *c)
{
    v1_part *p = &c->v1;
    perfbuf_status st;
    BUDGETED(c->size, st = perfbuf_v1_parse(c->data, c->size, NULL, &p->b, NULL));
    p->ok = st == PERFBUF_OK;
    if (!p->ok) {
        return;
    }
    p->slots = malloc(sizeof *p->slots * (p->b.index_slots ? p->b.index_slots : 1));
    if (p->slots != NULL) {
        BUDGETED(c->size, st = perfbuf_v1_block_index_build(&p->b, p->slots, p->b.index_slots,
                                                            &p->block_index));
        ORACLE(st == PERFBUF_OK);
        p->indexed = true;
        /* With its name classes, so that "parent/" lookups are answered. */
        p->classes = malloc(sizeof *p->classes * (p->b.index_slots ? p->b.index_slots : 1));
        if (p->classes != NULL) {
            BUDGETED_LOG(c->size, p->b.index_slots,
                         st = perfbuf_v1_block_index_classes(&p->b, &p->block_index, p->classes,
                                                             p->b.index_slots));
            ORACLE(st == PERFBUF_OK);
        }
    }
    perfbuf_v1_iter oi;
    perfbuf_v1_object o;
    bool more;
    BUDGETED(0, perfbuf_v1_objects_begin(&p->b, &oi));
    while (p->objects < KEEP) {
        BUDGETED(c->size, more = perfbuf_v1_objects_next(&p->b, &oi, &o));
        if (!more) {
            break;
        }
        uint32_t k = p->objects++;
        if (k == 0) {
            p->objects_after_first = oi;
        }
        p->object[k] = o;
        perfbuf_v1_iter it;
        BUDGETED(0, perfbuf_v1_counters_begin(&o, &it));
        while (p->counters[k] < KEEP) {
            BUDGETED(c->size, more = perfbuf_v1_counters_next(&p->b, &it,
                                                              &p->counter[k][p->counters[k]]));
            if (!more) {
                break;
            }
            p->counters[k]++;
        }
        BUDGETED(c->size, p->has_block[k] = perfbuf_v1_object_counter_block(&p->b, &o, &p->block[k]));
        BUDGETED(0, perfbuf_v1_instances_begin(&o, &it));
        while (p->instances[k] < KEEP) {
            BUDGETED(c->size, more = perfbuf_v1_instances_next(&p->b, &it,
                                                               &p->instance[k][p->instances[k]]));
            if (!more) {
                break;
            }
            p->instances[k]++;
        }
        if (!p->has_block[k] && p->instances[k] > 0) {
            p->block[k] = p->instance[k][0].counters;
            p->has_block[k] = true;
        }
        if (o.instance_count <= 64) {
            BUDGETED(c->size, st = perfbuf_v1_index_build(&p->b, &o, p->offsets[k], 64,
                                                          &p->own_index[k]));
            ORACLE(st == PERFBUF_OK);
            p->has_own_index[k] = true;
        }
    }
}

static void read_v2(capture *c)
{
    v2_part *p = &c->v2;
    perfbuf_status st;
    BUDGETED(c->size, st = perfbuf_v2_query_parse(c->data, c->size, NULL, &p->q, NULL));
    p->ok = st == PERFBUF_OK;
    if (!p->ok) {
        return;
    }
    perfbuf_v2_iter bi;
    bool more;
    BUDGETED(0, perfbuf_v2_blocks_begin(&p->q, &bi));
    while (p->blocks < KEEP) {
        uint32_t k = p->blocks;
        BUDGETED(c->size, more = perfbuf_v2_blocks_next(&p->q, &bi, &p->block[k]));
        if (!more) {
            break;
        }
        p->blocks++;
        if (k == 0) {
            p->blocks_after_first = bi;
        }
        perfbuf_v2_iter ii;
        BUDGETED(0, perfbuf_v2_instances_begin(&p->block[k], &ii));
        while (p->instances[k] < 2) {
            BUDGETED(c->size, more = perfbuf_v2_instances_next(&p->q, &p->block[k], &ii,
                                                               &p->instance[k][p->instances[k]]));
            if (!more) {
                break;
            }
            p->instances[k]++;
        }
    }
}

static void read_meta(capture *c)
{
    meta_part *p = &c->meta;
    perfbuf_status st;
    BUDGETED(c->size, st = perfbuf_v2_reginfo_parse(c->data, c->size, NULL, &p->reg, NULL));
    if (st == PERFBUF_E_SCRATCH_NEEDED) {
        size_t cap = c->size / 48 + 1;
        p->reg_scratch = malloc(sizeof *p->reg_scratch * cap);
        if (p->reg_scratch != NULL) {
            BUDGETED(c->size, st = perfbuf_v2_reginfo_parse_indexed(c->data, c->size, NULL,
                                                                    p->reg_scratch, cap, &p->reg,
                                                                    NULL));
        }
    }
    p->reg_ok = st == PERFBUF_OK;
    bool more;
    BUDGETED(c->size, st = perfbuf_v2_identifiers_parse(c->data, c->size, NULL, &p->ids, NULL));
    p->ids_ok = st == PERFBUF_OK;
    if (p->ids_ok) {
        BUDGETED(0, perfbuf_v2_identifiers_begin(&p->ids_after_first));
        BUDGETED(c->size, more = perfbuf_v2_identifiers_next(&p->ids, &p->ids_after_first, &p->id));
        p->have_id = more;
    }
    BUDGETED(c->size, st = perfbuf_v2_instance_list_parse(c->data, c->size, NULL, &p->list, NULL));
    p->list_ok = st == PERFBUF_OK;
    if (p->list_ok) {
        BUDGETED(0, perfbuf_v2_instance_list_begin(&p->list_after_first));
        BUDGETED(c->size, more = perfbuf_v2_instance_list_next(&p->list, &p->list_after_first,
                                                                &p->listed));
        p->have_listed = more;
    }
    BUDGETED(c->size, st = perfbuf_v2_strings_parse(c->data, c->size, PERFBUF_V2_STRINGS_AUTO, NULL,
                                                    &p->strings, NULL));
    p->strings_ok = st == PERFBUF_OK;
    if (p->strings_ok) {
        BUDGETED(c->size, more = perfbuf_v2_strings_get(&p->strings, 0, &p->string));
        p->have_string = more;
    }
}

/* ---- V1 views of X given with Y's block ------------------------------- */

static void check_v1_instance(const capture *y, const perfbuf_v1_instance *inst)
{
    ORACLE(oracle_inside(inst->offset, inst->byte_length, y->size));
    ORACLE(oracle_inside(inst->name_offset, inst->name_bytes, y->size));
    ORACLE(oracle_inside(inst->counters.offset, inst->counters.byte_length, y->size));
}

static void check_v1_counter(const capture *y, const perfbuf_v1_counter *c)
{
    ORACLE(oracle_inside(c->offset, c->byte_length, y->size));
}

/*
 * Whether a view of X is certainly not one of Y's own: Y's bytes at its
 * offset do not hold the fields the view was read with (PERF_OBJECT_TYPE
 * and PERF_INSTANCE_DEFINITION, winperf.h), or it lies outside Y. Every
 * call the header says refuses an object or instance "not of this block"
 * must then return its documented failure, never OK. (A view whose fields
 * Y's bytes do hold at that offset may be read as Y's.)
 */
static uint32_t y_get32(const capture *y, size_t at)
{
    const uint8_t *p = y->data + at;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool v1_object_foreign(const capture *y, const perfbuf_v1_object *o)
{
    if (!oracle_inside(o->offset, 48, y->size)) {
        return true;
    }
    size_t at = o->offset;
    return y_get32(y, at) != o->total_length || y_get32(y, at + 4) != o->definition_length ||
           y_get32(y, at + 8) != o->header_length || y_get32(y, at + 12) != o->name_title_index ||
           y_get32(y, at + 32) != o->counter_count ||
           y_get32(y, at + 40) != (uint32_t)o->num_instances || y_get32(y, at + 44) != o->code_page;
}

static bool v1_instance_foreign(const capture *y, const perfbuf_v1_object *o,
                                const perfbuf_v1_instance *inst)
{
    if (v1_object_foreign(y, o) || inst->offset < o->data_offset ||
        inst->offset - o->data_offset >= (size_t)(o->total_length - o->definition_length) ||
        !oracle_inside(inst->offset, 24, y->size)) {
        return true;
    }
    size_t at = inst->offset;
    uint32_t name_length = y_get32(y, at + 20);
    return y_get32(y, at) != inst->byte_length || y_get32(y, at + 4) != inst->parent_title_index ||
           y_get32(y, at + 8) != inst->parent_instance ||
           (name_length != 0 && inst->name_offset - inst->offset != y_get32(y, at + 16)) ||
           inst->name_bytes > name_length || inst->code_page != o->code_page;
}

/* Parents and names of an instance with Y's block, through every index. */
static void mixed_instance(const capture *x, const capture *y, const perfbuf_v1_object *o,
                           const perfbuf_v1_instance *inst)
{
    const perfbuf_v1_block *b = &y->v1.b;
    size_t n = y->size;
    char text[64];
    size_t len = 0;
    perfbuf_status st;
    BUDGETED(n + sizeof text, st = perfbuf_v1_instance_name_utf8(b, inst, text, sizeof text, &len));
    ORACLE(status_in(st, ST(OK) | ST(OUTPUT_TOO_SMALL) | ST(UNKNOWN_VALUE) | ST(INVALID_ARGUMENT)));
    const uint8_t *raw;
    BUDGETED(n, raw = perfbuf_v1_instance_name_bytes(b, inst));
    ORACLE(oracle_ptr_inside(raw, raw != NULL ? inst->name_bytes : 0, y->data, n));

    bool instance_foreign = v1_instance_foreign(y, o, inst);
    const perfbuf_v1_instance_index *indexes[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    if (x->v1.indexed) {
        indexes[1] = &x->v1.block_index;
    }
    if (y->v1.indexed) {
        indexes[2] = &y->v1.block_index;
    }
    if (x->v1.has_own_index[0]) {
        indexes[3] = &x->v1.own_index[0];
    }
    if (y->v1.has_own_index[0]) {
        indexes[4] = &y->v1.own_index[0];
    }
    if (y->v1.objects > 1 && y->v1.has_own_index[1]) {
        indexes[5] = &y->v1.own_index[1];
    }
    for (size_t i = 0; i < 6; i++) {
        if (i > 0 && indexes[i] == NULL) {
            continue;
        }
        /* X's indexes (1, 3) are of another parse: every call refuses them.
         * Y's one-object indexes (4, 5) answer no parent lookup. */
        bool index_foreign = i == 1 || i == 3;
        bool one_object = i == 4 || i == 5;
        perfbuf_v1_instance parent;
        BUDGETED(n, st = perfbuf_v1_parent(b, o, inst, indexes[i], &parent, NULL));
        ORACLE(status_in(st, ST(OK) | ST(NOT_FOUND) | ST(BAD_REFERENCE) | ST(INVALID_ARGUMENT)) ||
               (one_object && st == PERFBUF_E_SCRATCH_NEEDED));
        ORACLE(!index_foreign || st == PERFBUF_E_INVALID_ARGUMENT);
        ORACLE(!one_object || status_in(st, ST(NOT_FOUND) | ST(SCRATCH_NEEDED) | ST(INVALID_ARGUMENT)));
        ORACLE(!instance_foreign || st == PERFBUF_E_INVALID_ARGUMENT);
        if (st == PERFBUF_OK) {
            check_v1_instance(y, &parent);
        }
        BUDGETED(n + sizeof text,
                 st = perfbuf_v1_full_name_utf8(b, o, inst, indexes[i], text, sizeof text, &len));
        ORACLE(status_in(st, ST(OK) | ST(OUTPUT_TOO_SMALL) | ST(BAD_REFERENCE) | ST(UNKNOWN_VALUE) |
                                 ST(INVALID_ARGUMENT)) ||
               (one_object && st == PERFBUF_E_SCRATCH_NEEDED));
        ORACLE(!index_foreign || (st == PERFBUF_E_INVALID_ARGUMENT && len == 0));
        ORACLE(strlen(text) < sizeof text);
        /* Refused with an empty name (v1.h). */
        ORACLE(!instance_foreign || (st == PERFBUF_E_INVALID_ARGUMENT && text[0] == '\0' && len == 0));
        if (index_foreign) {
            perfbuf_v1_instance found;
            BUDGETED(n, st = perfbuf_v1_find_instance(b, o, "x", 1, indexes[i], &found));
            ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        }
        if (st == PERFBUF_OK) {
            /* The name this capture gives the instance, looked up in the
             * other capture's block with the object of either. */
            perfbuf_v1_instance found;
            BUDGETED(n + len, st = perfbuf_v1_find_instance(b, o, text, len, indexes[i], &found));
            ORACLE(status_in(st, ST(OK) | ST(NOT_FOUND) | ST(SCRATCH_NEEDED) | ST(INVALID_ARGUMENT)));
            if (st == PERFBUF_OK) {
                check_v1_instance(y, &found);
            }
        }
    }
}

/* Values of a counter (of either capture) in a counter block, with Y's
 * block: raw values, bytes, and raw samples through an object of either
 * capture. A counter block of X's parse (foreign_block) is none of Y's:
 * every read refuses it, whatever the object and counter. */
static void mixed_value(const capture *y, const perfbuf_v1_object *o,
                        const perfbuf_v1_counter_block *blk, const perfbuf_v1_counter *c,
                        bool foreign_block)
{
    const perfbuf_v1_block *b = &y->v1.b;
    size_t n = y->size;
    uint64_t value;
    const uint8_t *bytes;
    BUDGETED(n, value = perfbuf_v1_counter_value(b, blk, c));
    ORACLE(!foreign_block || value == 0);
    BUDGETED(n, bytes = perfbuf_v1_counter_bytes(b, blk, c));
    ORACLE(oracle_ptr_inside(bytes, bytes != NULL ? c->size : 0, y->data, n));
    ORACLE(!foreign_block || bytes == NULL);
    perfbuf_raw_sample s;
    perfbuf_value_context ctx;
    perfbuf_status st;
    BUDGETED(n, st = perfbuf_v1_raw_sample(b, o, c, blk, &s, &ctx));
    ORACLE(status_in(st, ST(OK) | ST(NOT_FOUND) | ST(INVALID_ARGUMENT) | ST(INCONSISTENT)));
    ORACLE(!foreign_block || st == PERFBUF_E_INVALID_ARGUMENT);
    ORACLE(!v1_object_foreign(y, o) || st == PERFBUF_E_INVALID_ARGUMENT);
    if (st == PERFBUF_OK) {
        /* A value is never read through a definition of another type. */
        ORACLE(s.type == c->type);
        perfbuf_value v;
        BUDGETED(2 * sizeof s + sizeof ctx,
                 (void)perfbuf_format_value(c->type, &s, &s, &ctx, PERFBUF_FMT_DOUBLE, &v));
    }
}

/* A plan of Y's object m, on Y's parse, given a counter block of another
 * parse (foreign) with Y's block: refused by every plan call, on either side of a pair
 * whose other side is Y's own block. */
static void mixed_plan_slip(const capture *y, uint32_t m, const perfbuf_v1_counter_block *foreign)
{
    const v1_part *py = &y->v1;
    const perfbuf_v1_object *oy = &py->object[m];
    size_t n = y->size;
    size_t cap = oy->counter_count ? oy->counter_count : 1;
    perfbuf_v1_plan_entry *entries = malloc(sizeof *entries * cap);
    uint64_t *values = malloc(sizeof *values * cap);
    perfbuf_value *formatted = malloc(sizeof *formatted * cap);
    ORACLE(entries != NULL && values != NULL && formatted != NULL);
    perfbuf_v1_plan plan;
    perfbuf_status st;
    BUDGETED(n, st = perfbuf_v1_plan_build(&py->b, oy, entries, cap, &plan));
    ORACLE(st == PERFBUF_OK);
    BUDGETED(n, st = perfbuf_v1_plan_read(&plan, &py->b, foreign, values, cap));
    ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_raw_sample s;
    perfbuf_value_context ctx;
    perfbuf_value v;
    for (uint32_t k = 0; k < plan.count && k < KEEP; k++) {
        BUDGETED(n, st = perfbuf_v1_plan_sample(&plan, &py->b, foreign, k, &s, &ctx));
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        if (py->has_block[m]) {
            BUDGETED(n, st = perfbuf_v1_plan_format(&plan, &py->b, &py->block[m], &plan, &py->b,
                                                    foreign, k, PERFBUF_FMT_LARGE, &v));
            ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
            BUDGETED(n, st = perfbuf_v1_plan_format(&plan, &py->b, foreign, &plan, &py->b,
                                                    &py->block[m], k, PERFBUF_FMT_LARGE, &v));
            ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        }
    }
    if (py->has_block[m]) {
        BUDGETED(n, st = perfbuf_v1_plan_format_all(&plan, &py->b, &py->block[m], &plan, &py->b,
                                                    foreign, PERFBUF_FMT_LARGE, formatted, cap));
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        BUDGETED(n, st = perfbuf_v1_plan_format_all(&plan, &py->b, foreign, &plan, &py->b,
                                                    &py->block[m], PERFBUF_FMT_LARGE, formatted,
                                                    cap));
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
    }
    free(entries);
    free(values);
    free(formatted);
}

/* Value plans across captures: a plan of X's object built on Y is built
 * only where Y describes that object the same way, and a plan built on X
 * never reads a counter block given with Y's block, nor a whole object of
 * Y's (perfbuf_v1_plan_read_object, perfbuf_v1_plan_format_object). */
static void mixed_plans(const capture *x, const capture *y, uint32_t k)
{
    const v1_part *px = &x->v1;
    const v1_part *py = &y->v1;
    const perfbuf_v1_object *ox = &px->object[k];
    size_t n = y->size;
    size_t cap = ox->counter_count ? ox->counter_count : 1;
    perfbuf_v1_plan_entry *entries = malloc(sizeof *entries * cap);
    uint64_t *values = malloc(sizeof *values * cap);
    perfbuf_value *formatted = malloc(sizeof *formatted * cap);
    ORACLE(entries != NULL && values != NULL && formatted != NULL);
    perfbuf_v1_plan plan;
    perfbuf_status st;
    BUDGETED(n, st = perfbuf_v1_plan_build(&py->b, ox, entries, cap, &plan));
    ORACLE(status_in(st, ST(OK) | ST(INVALID_ARGUMENT)));
    ORACLE(!v1_object_foreign(y, ox) || st == PERFBUF_E_INVALID_ARGUMENT);
    if (st == PERFBUF_OK) {
        for (uint32_t m = 0; m < py->objects; m++) {
            if (py->has_block[m]) {
                BUDGETED(n, st = perfbuf_v1_plan_read(&plan, &py->b, &py->block[m], values, cap));
                ORACLE(status_in(st, ST(OK) | ST(INVALID_ARGUMENT)));
            }
        }
    }
    BUDGETED(x->size, st = perfbuf_v1_plan_build(&px->b, ox, entries, cap, &plan));
    ORACLE(st == PERFBUF_OK);
    for (uint32_t m = 0; m < py->objects && px->b.data != py->b.data; m++) {
        if (!py->has_block[m]) {
            continue;
        }
        BUDGETED(n, st = perfbuf_v1_plan_read(&plan, &py->b, &py->block[m], values, cap));
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        /* The whole object of another capture: refused before a row. */
        size_t needed;
        BUDGETED(n, st = perfbuf_v1_plan_read_object(&plan, &py->b, &py->object[m], values, cap,
                                                     &needed));
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        BUDGETED(n + x->size,
                 st = perfbuf_v1_plan_format_object(&plan, &py->b, &py->object[m], &plan, &px->b,
                                                    ox, PERFBUF_FMT_DOUBLE, formatted, cap,
                                                    &needed));
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        if (px->has_block[k]) {
            BUDGETED(n + x->size,
                     st = perfbuf_v1_plan_format_all(&plan, &py->b, &py->block[m], &plan, &px->b,
                                                     &px->block[k], PERFBUF_FMT_DOUBLE, formatted,
                                                     cap));
            ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        }
    }
    /* Y's own plans with X's counter block: the slip on the plan path. */
    if (px->has_block[k]) {
        for (uint32_t m = 0; m < py->objects; m++) {
            mixed_plan_slip(y, m, &px->block[k]);
        }
    }
    free(entries);
    free(values);
    free(formatted);
}

static void mixed_v1(const capture *x, const capture *y)
{
    const v1_part *px = &x->v1;
    const v1_part *py = &y->v1;
    if (!px->ok || !py->ok) {
        return;
    }
    const perfbuf_v1_block *b = &py->b;
    size_t n = y->size;
    bool more;
    perfbuf_status st;
    /* X's object iterator, one step in, walked over Y's block. */
    perfbuf_v1_iter it = px->objects_after_first;
    perfbuf_v1_object o;
    for (uint32_t step = 0; step < MIXED_STEPS; step++) {
        BUDGETED(n, more = perfbuf_v1_objects_next(b, &it, &o));
        if (!more) {
            break;
        }
        ORACLE(oracle_inside(o.offset, o.total_length, n));
    }
    for (uint32_t k = 0; k < px->objects; k++) {
        const perfbuf_v1_object *ox = &px->object[k];
        BUDGETED(n, st = perfbuf_v1_find_object(b, ox->name_title_index, &o));
        ORACLE(status_in(st, ST(OK) | ST(NOT_FOUND)));
        if (st == PERFBUF_OK) {
            ORACLE(oracle_inside(o.offset, o.total_length, n));
        }
        perfbuf_v1_counter c;
        BUDGETED(0, perfbuf_v1_counters_begin(ox, &it));
        for (uint32_t step = 0; step < MIXED_STEPS; step++) {
            BUDGETED(n, more = perfbuf_v1_counters_next(b, &it, &c));
            if (!more) {
                break;
            }
            check_v1_counter(y, &c);
        }
        perfbuf_v1_counter_block blk;
        BUDGETED(n, more = perfbuf_v1_object_counter_block(b, ox, &blk));
        if (more) {
            ORACLE(oracle_inside(blk.offset, blk.byte_length, n));
        }
        perfbuf_v1_instance inst;
        BUDGETED(0, perfbuf_v1_instances_begin(ox, &it));
        for (uint32_t step = 0; step < MIXED_STEPS; step++) {
            BUDGETED(n, more = perfbuf_v1_instances_next(b, &it, &inst));
            if (!more) {
                break;
            }
            check_v1_instance(y, &inst);
        }
        /* Indexes of X's object built on Y, and X's own index read on Y. */
        size_t offsets[64];
        perfbuf_v1_instance_index idx;
        BUDGETED(n, st = perfbuf_v1_index_build(b, ox, offsets, 64, &idx));
        ORACLE(status_in(st, ST(OK) | ST(OUTPUT_TOO_SMALL) | ST(INVALID_ARGUMENT)));
        for (uint32_t i = 0; i < KEEP; i++) {
            if (st == PERFBUF_OK) {
                perfbuf_status got;
                BUDGETED(n, got = perfbuf_v1_index_get(b, &idx, i, &inst));
                ORACLE(status_in(got, ST(OK) | ST(NOT_FOUND) | ST(INVALID_ARGUMENT)));
                if (got == PERFBUF_OK) {
                    check_v1_instance(y, &inst);
                }
            }
            if (px->has_own_index[k]) {
                /* X's index is of another parse. */
                perfbuf_status got;
                BUDGETED(n, got = perfbuf_v1_index_get(b, &px->own_index[k], i, &inst));
                ORACLE(got == PERFBUF_E_INVALID_ARGUMENT);
            }
        }
        /* Instances of X: with X's object, and with each of Y's objects. */
        for (uint32_t i = 0; i < px->instances[k]; i++) {
            mixed_instance(x, y, ox, &px->instance[k][i]);
            for (uint32_t m = 0; m < py->objects; m++) {
                mixed_instance(x, y, &py->object[m], &px->instance[k][i]);
            }
        }
        mixed_plans(x, y, k);
        /* Counters of X: in X's block, in each of Y's blocks with Y's
         * object (the two-sample pattern), and with X's object. */
        for (uint32_t j = 0; j < px->counters[k]; j++) {
            const perfbuf_v1_counter *cx = &px->counter[k][j];
            if (px->has_block[k]) {
                mixed_value(y, ox, &px->block[k], cx, true);
            }
            for (uint32_t m = 0; m < py->objects; m++) {
                if (py->has_block[m]) {
                    mixed_value(y, &py->object[m], &py->block[m], cx, false);
                    mixed_value(y, ox, &py->block[m], cx, false);
                }
                /* The slip: Y's object with X's counter blocks. */
                if (px->has_block[k]) {
                    mixed_value(y, &py->object[m], &px->block[k], cx, true);
                }
                for (uint32_t i = 0; i < px->instances[k]; i++) {
                    mixed_value(y, &py->object[m], &px->instance[k][i].counters, cx, true);
                }
            }
        }
        /* The slip with Y's own counters: all that is X's is the block. */
        for (uint32_t m = 0; m < py->objects && px->has_block[k]; m++) {
            for (uint32_t j = 0; j < py->counters[m]; j++) {
                mixed_value(y, &py->object[m], &px->block[k], &py->counter[m][j], true);
            }
        }
    }
}

/* ---- One buffer received into twice ------------------------------------ */

/*
 * The first capture parsed in a buffer, then the second received into the
 * same buffer and parsed, as a collector that keeps one buffer does: the
 * counter blocks and the plan of the first parse, kept across, are of a
 * parse that is gone. They are refused unless both parses have one
 * identity (identical headers at one address, which v1.h documents as one
 * parse); then only the documented statuses.
 */
/*
 * Two parses at one address with one identity (a replayed buffer) must
 * agree on everything an index or a view kept from the first holds: the
 * identity hashes the object headers and instance definitions with their
 * names (v1/block.c), so a second capture that moved any of them is
 * another parse.
 */
static void same_shape(const v1_part *p0, const v1_part *p1)
{
    ORACLE(p0->objects == p1->objects && p0->b.index_slots == p1->b.index_slots);
    for (uint32_t k = 0; k < p0->objects; k++) {
        const perfbuf_v1_object *o0 = &p0->object[k], *o1 = &p1->object[k];
        ORACLE(o0->offset == o1->offset && o0->total_length == o1->total_length &&
               o0->name_title_index == o1->name_title_index &&
               o0->instance_count == o1->instance_count && o0->code_page == o1->code_page);
        ORACLE(p0->instances[k] == p1->instances[k]);
        for (uint32_t i = 0; i < p0->instances[k]; i++) {
            const perfbuf_v1_instance *a = &p0->instance[k][i], *b = &p1->instance[k][i];
            ORACLE(a->offset == b->offset && a->byte_length == b->byte_length &&
                   a->parent_title_index == b->parent_title_index &&
                   a->parent_instance == b->parent_instance && a->unique_id == b->unique_id &&
                   a->name_offset == b->name_offset && a->name_bytes == b->name_bytes &&
                   a->counters.offset == b->counters.offset &&
                   a->counters.byte_length == b->counters.byte_length);
        }
    }
}

/*
 * The first named instance's first name byte changed in place, as a later
 * capture with every header field repeated would change it: a parse that
 * still succeeds is another parse. The same bytes received again are the
 * same parse.
 */
static void renamed_in_place(const capture *c)
{
    const v1_part *p = &c->v1;
    if (!p->ok) {
        return;
    }
    const perfbuf_v1_instance *named = NULL;
    for (uint32_t k = 0; k < p->objects && named == NULL; k++) {
        for (uint32_t i = 0; i < p->instances[k] && named == NULL; i++) {
            if (p->instance[k][i].name_bytes > 0) {
                named = &p->instance[k][i];
            }
        }
    }
    if (named == NULL || named->name_offset >= c->size) {
        return;
    }
    uint8_t *buf = malloc(c->size);
    ORACLE(buf != NULL);
    memcpy(buf, c->data, c->size);
    perfbuf_v1_block first, again;
    perfbuf_status st;
    BUDGETED(c->size, st = perfbuf_v1_parse(buf, c->size, NULL, &first, NULL));
    ORACLE(st == PERFBUF_OK);
    BUDGETED(c->size, st = perfbuf_v1_parse(buf, c->size, NULL, &again, NULL));
    ORACLE(st == PERFBUF_OK && again.parse_id == first.parse_id);
    buf[named->name_offset] ^= 0x20u;
    BUDGETED(c->size, st = perfbuf_v1_parse(buf, c->size, NULL, &again, NULL));
    ORACLE(st != PERFBUF_OK || again.parse_id != first.parse_id);
    free(buf);
}

static void reused_buffer(const capture *first, const capture *second)
{
    if (!first->v1.ok || !second->v1.ok) {
        return;
    }
    size_t cap = first->size > second->size ? first->size : second->size;
    uint8_t *buf = malloc(cap);
    capture *parse = calloc(2, sizeof *parse);
    ORACLE(buf != NULL && parse != NULL);
    memcpy(buf, first->data, first->size);
    parse[0].data = buf;
    parse[0].size = first->size;
    read_v1(&parse[0]);
    ORACLE(parse[0].v1.ok); /* the same bytes parsed at another address */
    const v1_part *p0 = &parse[0].v1;
    const perfbuf_v1_object *o0 = &p0->object[0];
    size_t plan_cap = o0->counter_count ? o0->counter_count : 1;
    perfbuf_v1_plan_entry *entries = malloc(sizeof *entries * plan_cap);
    uint64_t *values = malloc(sizeof *values * plan_cap);
    ORACLE(entries != NULL && values != NULL);
    perfbuf_v1_plan plan0;
    perfbuf_status st = PERFBUF_OK;
    bool planned = p0->objects > 0;
    if (planned) {
        BUDGETED(first->size, st = perfbuf_v1_plan_build(&p0->b, o0, entries, plan_cap, &plan0));
        ORACLE(st == PERFBUF_OK);
    }

    memcpy(buf, second->data, second->size);
    parse[1].data = buf;
    parse[1].size = second->size;
    read_v1(&parse[1]);
    ORACLE(parse[1].v1.ok);
    const v1_part *p1 = &parse[1].v1;
    bool refused = p0->b.parse_id != p1->b.parse_id;
    if (!refused) {
        same_shape(p0, p1);
    }
    for (uint32_t m = 0; m < p1->objects; m++) {
        if (planned && p1->has_block[m]) {
            BUDGETED(second->size, st = perfbuf_v1_plan_read(&plan0, &p1->b, &p1->block[m],
                                                             values, plan_cap));
            ORACLE(status_in(st, ST(OK) | ST(INVALID_ARGUMENT)));
            ORACLE(!refused || st == PERFBUF_E_INVALID_ARGUMENT);
        }
    }
    for (uint32_t k = 0; k < p0->objects; k++) {
        if (!p0->has_block[k]) {
            continue;
        }
        for (uint32_t m = 0; m < p1->objects; m++) {
            for (uint32_t j = 0; j < p1->counters[m]; j++) {
                mixed_value(&parse[1], &p1->object[m], &p0->block[k], &p1->counter[m][j],
                            refused);
            }
            for (uint32_t j = 0; j < p0->counters[k]; j++) {
                mixed_value(&parse[1], &p1->object[m], &p0->block[k], &p0->counter[k][j],
                            refused);
            }
            if (refused) {
                mixed_plan_slip(&parse[1], m, &p0->block[k]);
            }
        }
    }
    free(entries);
    free(values);
    free(parse[0].v1.slots);
    free(parse[1].v1.slots);
    free(parse[0].v1.classes);
    free(parse[1].v1.classes);
    free(parse);
    free(buf);
}

/* ---- V2 views of X given with Y's query -------------------------------- */

static void check_v2_instance(const capture *y, const perfbuf_v2_instance *inst)
{
    ORACLE(oracle_inside(inst->offset, inst->size, y->size));
    ORACLE(inst->name_units <= y->size / 2);
    ORACLE(oracle_inside(inst->name_offset, inst->name_units * 2, y->size));
}

static void mixed_values(const capture *y, const perfbuf_v2_block *block, perfbuf_v2_iter it)
{
    perfbuf_v2_value v;
    bool more;
    for (uint32_t step = 0; step < MIXED_STEPS; step++) {
        BUDGETED(y->size, more = perfbuf_v2_values_next(&y->v2.q, block, &it, &v));
        if (!more) {
            break;
        }
        ORACLE(oracle_inside(v.offset, 8, y->size));
        ORACLE(oracle_ptr_inside(v.bytes, v.bytes != NULL ? v.data_size : 0, y->data, y->size));
    }
}

/* The 32-bit field at off of Y's bytes, or false past its end. */
static bool y_u32(const capture *y, size_t off, uint32_t *v)
{
    if (off > y->size || y->size - off < 4) {
        return false;
    }
    const uint8_t *p = y->data + off;
    *v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return true;
}

/* Whether Y's bytes hold the block's header (dwSize, dwType) and the
 * instance's (Size, InstanceId) at their offsets: perfbuf_v2_raw_sample
 * refuses views they do not hold, before reading any value. */
static bool y_holds(const capture *y, const perfbuf_v2_block *block,
                    const perfbuf_v2_instance *inst)
{
    uint32_t size, kind, isize, iid;
    if (!y_u32(y, block->offset + 8, &size) || !y_u32(y, block->offset + 4, &kind) ||
        size != block->size || kind != (uint32_t)block->kind) {
        return false;
    }
    return inst == NULL || (y_u32(y, inst->offset, &isize) && y_u32(y, inst->offset + 4, &iid) &&
                            isize == inst->size && iid == inst->id);
}

/* Samples of the registrations' counters from a block and instance,
 * whichever captures they come from, with Y's query. */
static void mixed_samples(const capture *y, const perfbuf_v2_block *block,
                          const perfbuf_v2_instance *inst, const meta_part *reg_of)
{
    if (!reg_of->reg_ok) {
        return;
    }
    const perfbuf_v2_reginfo *reg = &reg_of->reg;
    perfbuf_v2_counter_reg c;
    bool more;
    for (uint32_t i = 0; i < KEEP; i++) {
        BUDGETED(reg->size, more = perfbuf_v2_reginfo_counter(reg, i, &c));
        if (!more) {
            break;
        }
        perfbuf_raw_sample s;
        perfbuf_value_context ctx;
        perfbuf_status st;
        BUDGETED(y->size + reg->size,
                 st = perfbuf_v2_raw_sample(&y->v2.q, block, inst, reg, c.id, &s, &ctx));
        ORACLE(status_in(st, ST(OK) | ST(NOT_FOUND) | ST(INVALID_ARGUMENT)));
        /* A view Y does not hold at its offset is never read through. */
        ORACLE(y_holds(y, block, inst) || st == PERFBUF_E_INVALID_ARGUMENT);
    }
}

static void mixed_v2(const capture *x, const capture *y)
{
    const v2_part *px = &x->v2;
    const v2_part *py = &y->v2;
    if (!px->ok || !py->ok) {
        return;
    }
    const perfbuf_v2_query *q = &py->q;
    size_t n = y->size;
    bool more;
    perfbuf_status st;
    perfbuf_v2_iter it = px->blocks_after_first;
    perfbuf_v2_block block;
    for (uint32_t step = 0; step < MIXED_STEPS; step++) {
        BUDGETED(n, more = perfbuf_v2_blocks_next(q, &it, &block));
        if (!more) {
            break;
        }
        ORACLE(oracle_inside(block.offset, block.size, n));
    }
    for (uint32_t k = 0; k < px->blocks; k++) {
        const perfbuf_v2_block *bx = &px->block[k];
        for (uint32_t i = 0; i < KEEP; i++) {
            uint32_t id;
            BUDGETED(n, id = perfbuf_v2_block_counter_id(q, bx, i));
            (void)id;
        }
        perfbuf_v2_instance inst;
        BUDGETED(0, perfbuf_v2_instances_begin(bx, &it));
        for (uint32_t step = 0; step < MIXED_STEPS; step++) {
            BUDGETED(n, more = perfbuf_v2_instances_next(q, bx, &it, &inst));
            if (!more) {
                break;
            }
            check_v2_instance(y, &inst);
        }
        BUDGETED(0, perfbuf_v2_block_values_begin(bx, &it));
        mixed_values(y, bx, it);
        for (uint32_t m = 0; m < py->blocks; m++) {
            mixed_values(y, &py->block[m], it);
        }
        mixed_samples(y, bx, NULL, &x->meta);
        mixed_samples(y, bx, NULL, &y->meta);
        for (uint32_t i = 0; i < px->instances[k]; i++) {
            const perfbuf_v2_instance *ix = &px->instance[k][i];
            BUDGETED(0, perfbuf_v2_instance_values_begin(ix, &it));
            mixed_values(y, bx, it);
            for (uint32_t m = 0; m < py->blocks; m++) {
                mixed_values(y, &py->block[m], it);
                mixed_samples(y, &py->block[m], ix, &x->meta);
                mixed_samples(y, &py->block[m], ix, &y->meta);
            }
            mixed_samples(y, bx, ix, &x->meta);
            char text[64];
            size_t len;
            BUDGETED(n + sizeof text, st = perfbuf_v2_instance_name_utf8(q, ix, text, sizeof text, &len));
            ORACLE(status_in(st, ST(OK) | ST(OUTPUT_TOO_SMALL) | ST(INVALID_ARGUMENT)));
            ORACLE(strlen(text) < sizeof text);
            uint16_t units[32];
            size_t count;
            BUDGETED(n + sizeof units, st = perfbuf_v2_instance_name_utf16(q, ix, units, 32, &count));
            ORACLE(status_in(st, ST(OK) | ST(OUTPUT_TOO_SMALL) | ST(INVALID_ARGUMENT)));
        }
    }
}

/* Two samples and contexts are the same: every field. */
static bool same_samples(const perfbuf_raw_sample *a, const perfbuf_value_context *ac,
                         const perfbuf_raw_sample *b, const perfbuf_value_context *bc)
{
    return a->status == b->status && a->type == b->type && a->first == b->first &&
           a->second == b->second && a->multi == b->multi && a->time_stamp == b->time_stamp &&
           ac->frequency == bc->frequency && ac->scale == bc->scale;
}

/*
 * perfbuf_v2_raw_sample_pair against two perfbuf_v2_raw_sample calls from
 * the same starting contents, for the registration's counters: the same
 * statuses, samples and contexts, within the budget of both queries and
 * the registration (searched once for both sides).
 */
static void pair_as_two_calls(const perfbuf_v2_query *qn, size_t qn_size,
                              const perfbuf_v2_block *bn, const perfbuf_v2_instance *in,
                              const perfbuf_v2_query *qo, size_t qo_size,
                              const perfbuf_v2_block *bo, const perfbuf_v2_instance *io,
                              const perfbuf_v2_reginfo *reg)
{
    perfbuf_v2_counter_reg c;
    for (uint32_t i = 0; i < KEEP && perfbuf_v2_reginfo_counter(reg, i, &c); i++) {
        const perfbuf_raw_sample start = {1, 2, 3, 4, 5, 6};
        const perfbuf_value_context start_ctx = {7, 8};
        perfbuf_raw_sample one_n = start, one_o = start, pair_n = start, pair_o = start;
        perfbuf_value_context one_nc = start_ctx, one_oc = start_ctx, pair_nc = start_ctx,
                              pair_oc = start_ctx;
        perfbuf_status st_n = perfbuf_v2_raw_sample(qn, bn, in, reg, c.id, &one_n, &one_nc);
        perfbuf_status st_o = perfbuf_v2_raw_sample(qo, bo, io, reg, c.id, &one_o, &one_oc);
        perfbuf_status pair_st_n, pair_st_o = PERFBUF_OK;
        BUDGETED(qn_size + qo_size + reg->size,
                 pair_st_n = perfbuf_v2_raw_sample_pair(qn, bn, in, qo, bo, io, reg, c.id, &pair_n,
                                                        &pair_nc, &pair_o, &pair_oc, &pair_st_o));
        ORACLE(pair_st_n == st_n && pair_st_o == st_o);
        ORACLE(same_samples(&one_n, &one_nc, &pair_n, &pair_nc));
        ORACLE(same_samples(&one_o, &one_oc, &pair_o, &pair_oc));
    }
}

/*
 * Each of X's views (a block alone, or with an instance) sampled with each
 * of Y's in one pair call: X's views with X's query (two captures of any
 * two layouts), and X's views with Y's query (a foreign newer side beside
 * a good older one).
 */
static void mixed_pairs(const capture *x, const capture *y, const meta_part *reg_of)
{
    const v2_part *px = &x->v2;
    const v2_part *py = &y->v2;
    if (!px->ok || !py->ok || !reg_of->reg_ok) {
        return;
    }
    for (uint32_t k = 0; k < px->blocks; k++) {
        for (uint32_t i = 0; i <= px->instances[k]; i++) {
            const perfbuf_v2_instance *ix = i == 0 ? NULL : &px->instance[k][i - 1];
            for (uint32_t m = 0; m < py->blocks; m++) {
                for (uint32_t j = 0; j <= py->instances[m]; j++) {
                    const perfbuf_v2_instance *iy = j == 0 ? NULL : &py->instance[m][j - 1];
                    pair_as_two_calls(&px->q, x->size, &px->block[k], ix, &py->q, y->size,
                                      &py->block[m], iy, &reg_of->reg);
                    pair_as_two_calls(&py->q, y->size, &px->block[k], ix, &py->q, y->size,
                                      &py->block[m], iy, &reg_of->reg);
                }
            }
        }
    }
}

/* Y's query against the registrations and identifiers of either capture. */
static void mixed_crosscheck(const capture *y, const capture *with)
{
    if (!y->v2.ok || !with->meta.reg_ok) {
        return;
    }
    const perfbuf_v2_identifiers *ids[2] = {NULL, NULL};
    ids[1] = y->meta.ids_ok ? &y->meta.ids : with->meta.ids_ok ? &with->meta.ids : NULL;
    for (size_t i = 0; i < 2; i++) {
        if (i > 0 && ids[i] == NULL) {
            continue;
        }
        size_t bytes = y->size + with->meta.reg.size + (ids[i] != NULL ? ids[i]->size : 0);
        perfbuf_v2_mismatch m;
        perfbuf_status st;
        BUDGETED(bytes, st = perfbuf_v2_crosscheck(&y->v2.q, &with->meta.reg, ids[i], &m));
        ORACLE(status_in(st, ST(OK) | ST(INCONSISTENT) | ST(SCRATCH_NEEDED)));
    }
}

/* ---- Metadata views of X given with Y's view ---------------------------- */

static void mixed_meta(const capture *x, const capture *y)
{
    const meta_part *px = &x->meta;
    const meta_part *py = &y->meta;
    size_t n = y->size;
    char text[64];
    size_t len;
    perfbuf_status st;
    bool more;
    if (px->have_id && py->ids_ok) {
        BUDGETED(n + sizeof text,
                 st = perfbuf_v2_identifier_name_utf8(&py->ids, &px->id, text, sizeof text, &len));
        ORACLE(status_in(st, ST(OK) | ST(OUTPUT_TOO_SMALL) | ST(INVALID_ARGUMENT)));
        perfbuf_v2_list_iter it = px->ids_after_first;
        perfbuf_v2_identifier id;
        for (uint32_t step = 0; step < MIXED_STEPS; step++) {
            BUDGETED(n, more = perfbuf_v2_identifiers_next(&py->ids, &it, &id));
            if (!more) {
                break;
            }
            ORACLE(oracle_inside(id.offset, id.size, n));
        }
    }
    if (px->have_listed && py->list_ok) {
        BUDGETED(n + sizeof text,
                 st = perfbuf_v2_listed_name_utf8(&py->list, &px->listed, text, sizeof text, &len));
        ORACLE(status_in(st, ST(OK) | ST(OUTPUT_TOO_SMALL) | ST(INVALID_ARGUMENT)));
        perfbuf_v2_list_iter it = px->list_after_first;
        perfbuf_v2_listed_instance inst;
        for (uint32_t step = 0; step < MIXED_STEPS; step++) {
            BUDGETED(n, more = perfbuf_v2_instance_list_next(&py->list, &it, &inst));
            if (!more) {
                break;
            }
            ORACLE(oracle_inside(inst.offset, 8, n));
        }
    }
    if (px->have_string && py->strings_ok) {
        BUDGETED(n + sizeof text, st = perfbuf_v2_counter_string_utf8(&py->strings, &px->string, text,
                                                                      sizeof text, &len));
        ORACLE(status_in(st, ST(OK) | ST(OUTPUT_TOO_SMALL) | ST(INVALID_ARGUMENT)));
    }
}

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

/* An exact-size copy: a read past it is a sanitizer report. */
static uint8_t *copy(const uint8_t *data, size_t size)
{
    uint8_t *p = malloc(size ? size : 1);
    if (p != NULL && size > 0) {
        memcpy(p, data, size);
    }
    return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t a_len = take_length(&data, &size);
    if (a_len > size) {
        a_len = size;
    }
    capture *c = calloc(2, sizeof *c);
    uint8_t *a = copy(data, a_len);
    uint8_t *b = copy(data + a_len, size - a_len);
    if (c != NULL && a != NULL && b != NULL) {
        c[0].data = a;
        c[0].size = a_len;
        c[1].data = b;
        c[1].size = size - a_len;
        for (int i = 0; i < 2; i++) {
            read_v1(&c[i]);
            read_v2(&c[i]);
            read_meta(&c[i]);
        }
        for (int i = 0; i < 2; i++) {
            const capture *x = &c[i];
            const capture *y = &c[1 - i];
            mixed_v1(x, y);
            mixed_v2(x, y);
            mixed_pairs(x, y, &x->meta);
            mixed_pairs(x, y, &y->meta);
            mixed_meta(x, y);
            mixed_crosscheck(y, x);
        }
        reused_buffer(&c[0], &c[1]);
        reused_buffer(&c[1], &c[0]);
        renamed_in_place(&c[0]);
    }
    if (c != NULL) {
        for (int i = 0; i < 2; i++) {
            free(c[i].v1.slots);
            free(c[i].v1.classes);
            free(c[i].meta.reg_scratch);
        }
    }
    free(c);
    free(a);
    free(b);
    return 0;
}

/* Only engine builds have LLVMFuzzerMutate; the replayer runs the oracle
 * alone. The captures inside the input get the structure-aware mutators
 * (fuzz/mutator_captures.h). */
#ifdef PERFBUF_FUZZ_MUTATOR
#include "mutator_captures.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    return mcap_mutate_mixed(data, size, max_size, seed, LLVMFuzzerMutate);
}
#endif
