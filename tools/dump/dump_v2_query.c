/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "select.h"
#include "perfbuf/collector.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/v2_query.h"
#include "perfbuf/values.h"

/*
 * Each counter's name from --counter-names, converted once: values look
 * their counter up here in O(log counters) instead of asking the string
 * block, which finds a string by scanning it for its NUL, once per value.
 */
typedef struct v2_name {
    bool present;
    perfbuf_status conv;
    size_t len;
    size_t text;              /* offset of its UTF-8 in the arena */
} v2_name;

typedef struct v2_names {
    uint64_t *keys;           /* counter id << 32 | entry, sorted */
    v2_name *entries;
    size_t count;
    char *arena;
    size_t arena_used;
    size_t arena_cap;
} v2_names;

/*
 * --rate's samples through value indexes, one for the instance (or block)
 * being dumped and one for its peer in the earlier capture: built once per
 * instance, so that sampling each of its v values costs O(log v) rather
 * than a walk of them all. The scratch is kept and grown across instances.
 */
typedef struct v2_sampler {
    uint64_t *slots[2];
    size_t caps[2];
    perfbuf_v2_value_index index[2];
    bool ok[2];
} v2_sampler;

/* What the side files add to the query data, each when given and valid. */
typedef struct v2_side {
    const dump_selection *sel; /* --counter: what is shown; NULL for everything */
    v2_sampler *sampler;
    const perfbuf_v2_reginfo *reg;
    const v2_names *names;
    const perfbuf_v2_identifiers *ids;
    const perfbuf_v2_query *previous;
    /* Per block index: 1 << 32 | the counter of the first usable
     * identifier naming that block, or 0; NULL without --identifiers. */
    const uint64_t *block_ids;
    uint32_t block_count;
} v2_side;

/* Where the block and instance being dumped are in the --rate capture:
 * the block at the same position and of the same kind (the query lists
 * its counters in the same order each time); in it, the instance of the
 * same key (perfbuf_v2_pair: InstanceId, name, #N). */
typedef struct v2_prev {
    bool block_ok;
    perfbuf_v2_block block;
    bool inst_ok;
    perfbuf_v2_instance inst;
} v2_prev;

/* The instances of a block pairing and the older block's instances by
 * position; the scratch is kept and grown across blocks. */
typedef struct v2_pairer {
    uint64_t *scratch;
    size_t scratch_cap;
    bool ok;
    perfbuf_v2_pairing pairing;
    perfbuf_v2_instance *older;
    uint32_t older_count;
    size_t older_cap;
} v2_pairer;

/*
 * Pairs b's instances with those of prev->block (none when the --rate
 * capture has no block of that kind there: every instance is new), and
 * lists the older instances so that a partner is found in O(1).
 */
static void pairer_block(v2_pairer *pr, const perfbuf_v2_query *previous, const v2_prev *prev,
                         const perfbuf_v2_query *q, const perfbuf_v2_block *b)
{
    pr->ok = false;
    pr->older_count = 0;
    const perfbuf_v2_block *older = prev->block_ok ? &prev->block : NULL;
    size_t slots;
    if (perfbuf_v2_pairing_scratch(older, b, &slots) != PERFBUF_OK) {
        return;
    }
    if (slots > pr->scratch_cap) {
        free(pr->scratch);
        pr->scratch = dump_calloc(slots, sizeof *pr->scratch);
        pr->scratch_cap = slots;
    }
    if (perfbuf_v2_pair(previous, older, q, b, pr->scratch, pr->scratch_cap, &pr->pairing) !=
        PERFBUF_OK) {
        return;
    }
    pr->ok = true;
    if (older == NULL || older->instance_count == 0) {
        return;
    }
    if (older->instance_count > pr->older_cap) {
        free(pr->older);
        pr->older = dump_calloc(older->instance_count, sizeof *pr->older);
        pr->older_cap = older->instance_count;
    }
    perfbuf_v2_iter it;
    perfbuf_v2_instances_begin(older, &it);
    while (pr->older_count < older->instance_count &&
           perfbuf_v2_instances_next(previous, older, &it, &pr->older[pr->older_count])) {
        DUMP_WORK(1);
        pr->older_count++;
    }
}

bool detect_v2_query(const uint8_t *data, size_t size)
{
    /* PERF_DATA_HEADER: dwTotalSize equal to the file size is as sure a
     * sign as this format has; anything else needs --format. */
    return size >= 48 && dump_le32(data) == size && size % 8 == 0;
}

/* The names arena's first size: doubled as names need. */
#define NAME_CAP 1024

/* Room for `need` more bytes in the arena, doubling it: the names of a
 * block cost twice their length at most. */
static void names_grow(v2_names *out, size_t need)
{
    while (out->arena_cap - out->arena_used < need) {
        DUMP_WORK(1);
        char *bigger = NULL;
        if (out->arena_cap <= SIZE_MAX / 2) {
            bigger = realloc(out->arena, out->arena_cap * 2);
        }
        if (bigger == NULL) {
            fprintf(stderr, "perfbuf-dump: out of memory\n");
            exit(2);
        }
        out->arena = bigger;
        out->arena_cap *= 2;
    }
}

static void names_build(const perfbuf_v2_strings *s, v2_names *out)
{
    out->count = s->count;
    out->keys = dump_calloc(s->count, sizeof *out->keys);
    out->entries = dump_calloc(s->count, sizeof *out->entries);
    out->arena_cap = NAME_CAP;
    out->arena = dump_calloc(out->arena_cap, 1);
    out->arena_used = 0;
    perfbuf_v2_counter_string cs;
    /* perfbuf_v2_strings_parse bounds what every get reads together by
     * the bytes after the headers: one pass is linear in the block. */
    for (uint32_t i = 0; perfbuf_v2_strings_get(s, i, &cs); i++) {
        DUMP_WORK(1);
        v2_name *n = &out->entries[i];
        out->keys[i] = (uint64_t)cs.counter_id << 32 | i;
        n->present = cs.present;
        if (!cs.present) {
            continue;
        }
        names_grow(out, 1);
        size_t room = out->arena_cap - out->arena_used;
        n->text = out->arena_used;
        n->conv = perfbuf_v2_counter_string_utf8(s, &cs, out->arena + n->text, room, &n->len);
        if (n->conv == PERFBUF_E_OUTPUT_TOO_SMALL) {
            names_grow(out, n->len + 1);
            room = out->arena_cap - out->arena_used;
            n->conv = perfbuf_v2_counter_string_utf8(s, &cs, out->arena + n->text, room, &n->len);
        }
        size_t used = strlen(out->arena + n->text) + 1;
        DUMP_WORK(used);
        out->arena_used += used;
    }
    dump_sort_u64(out->keys, out->count);
}

static void names_free(v2_names *n)
{
    free(n->keys);
    free(n->entries);
    free(n->arena);
}

/* The counter of a block without an id list, from the identifiers. */
static uint32_t block_counter(const v2_side *side, const perfbuf_v2_block *b)
{
    if (side->block_ids == NULL || b->index >= side->block_count ||
        side->block_ids[b->index] == 0) {
        return PERFBUF_V2_NO_COUNTER_ID;
    }
    return (uint32_t)side->block_ids[b->index];
}

/* Indexes the values of inst (or of block b, for NULL) into slot k. */
static void sampler_build(v2_sampler *sm, int k, const perfbuf_v2_query *q,
                          const perfbuf_v2_block *b, const perfbuf_v2_instance *inst)
{
    size_t need = perfbuf_v2_value_index_slots(b);
    sm->ok[k] = false;
    if (need == SIZE_MAX) {
        return;
    }
    if (need > sm->caps[k]) {
        free(sm->slots[k]);
        sm->slots[k] = dump_calloc(need, sizeof *sm->slots[k]);
        sm->caps[k] = need;
    }
    sm->ok[k] = perfbuf_v2_value_index_build(q, b, inst, sm->slots[k], sm->caps[k],
                                             &sm->index[k]) == PERFBUF_OK;
}

/* A raw sample through the index when it was built, else by the walk
 * (the same answer: perfbuf_v2_raw_sample_indexed promises it). */
static perfbuf_status sample(const v2_sampler *sm, int k, const perfbuf_v2_query *q,
                             const perfbuf_v2_block *b, const perfbuf_v2_instance *inst,
                             const perfbuf_v2_reginfo *reg, uint32_t id, perfbuf_raw_sample *out,
                             perfbuf_value_context *ctx)
{
    if (sm != NULL && sm->ok[k]) {
        return perfbuf_v2_raw_sample_indexed(q, b, inst, reg, &sm->index[k], id, out, ctx);
    }
    return perfbuf_v2_raw_sample(q, b, inst, reg, id, out, ctx);
}

static void emit_formatted(emitter *e, const v2_side *side, const perfbuf_v2_query *q,
                           const perfbuf_v2_block *b, const perfbuf_v2_instance *inst,
                           const perfbuf_v2_counter_reg *c, const v2_prev *prev)
{
    perfbuf_raw_sample s1;
    perfbuf_raw_sample s0;
    perfbuf_value_context ctx;
    perfbuf_value_context pctx;
    perfbuf_value v;
    uint32_t st = PERFBUF_PDH_INVALID_ARGUMENT;
    if (sample(side->sampler, 0, q, b, inst, side->reg, c->id, &s1, &ctx) == PERFBUF_OK) {
        bool placed = inst != NULL ? prev->inst_ok : prev->block_ok;
        bool have_older = side->previous != NULL && placed &&
                          sample(side->sampler, 1, side->previous, &prev->block,
                                 inst != NULL ? &prev->inst : NULL, side->reg, c->id, &s0,
                                 &pctx) == PERFBUF_OK;
        st = perfbuf_format_value(c->type, &s1, have_older ? &s0 : NULL, &ctx, PERFBUF_FMT_DOUBLE,
                                  &v);
    }
    if (st == PERFBUF_CSTATUS_VALID_DATA) {
        char text[64];
        snprintf(text, sizeof text, "%.6f", v.as_double);
        emit_str(e, "formatted", text);
    } else {
        emit_str(e, "formatted", dump_value_status_name(st));
    }
}

static void emit_registered(emitter *e, const v2_side *side, const perfbuf_v2_query *q,
                            const perfbuf_v2_block *b, const perfbuf_v2_instance *inst,
                            uint32_t id, const v2_prev *prev)
{
    perfbuf_v2_counter_reg c;
    if (side->reg == NULL || id == PERFBUF_V2_NO_COUNTER_ID ||
        perfbuf_v2_reginfo_find(side->reg, id, &c) != PERFBUF_OK) {
        return;
    }
    emit_hex(e, "counter_type", c.type);
    emit_str(e, "counter_type_name", perfbuf_counter_type_name(c.type));
    if (side->previous != NULL && perfbuf_counter_type_is_displayable(c.type)) {
        emit_formatted(e, side, q, b, inst, &c, prev);
    }
}

static void dump_values(const v2_side *side, const perfbuf_v2_query *q, const perfbuf_v2_block *b,
                        const perfbuf_v2_instance *inst, perfbuf_v2_iter *it, const v2_prev *prev,
                        emitter *e, dump_text *text)
{
    if (side->sampler != NULL) {
        sampler_build(side->sampler, 0, q, b, inst);
        bool placed = inst != NULL ? prev->inst_ok : prev->block_ok;
        side->sampler->ok[1] = false;
        if (placed) {
            sampler_build(side->sampler, 1, side->previous, &prev->block,
                          inst != NULL ? &prev->inst : NULL);
        }
    }
    emit_list_begin(e, "values");
    perfbuf_v2_value v;
    uint32_t single = PERFBUF_V2_NO_COUNTER_ID;
    if (b->kind == PERFBUF_V2_SINGLE_COUNTER || b->kind == PERFBUF_V2_MULTIPLE_INSTANCES) {
        single = block_counter(side, b);
    }
    while (perfbuf_v2_values_next(q, b, it, &v)) {
        DUMP_WORK(1);
        uint32_t id = v.counter_id != PERFBUF_V2_NO_COUNTER_ID ? v.counter_id : single;
        if (side->sel != NULL && !select_counter_id(side->sel, b->index, id)) {
            continue;
        }
        emit_object_begin(e, NULL);
        emit_u64(e, "position", v.index);
        emit_hex(e, "offset", v.offset);
        if (id != PERFBUF_V2_NO_COUNTER_ID) {
            emit_u64(e, "counter_id", id);
        }
        emit_u64(e, "data_size", v.data_size);
        /* dwSize: the value and its padding, as the buffer has it. */
        emit_u64(e, "size", dump_le32(q->data + v.offset + 4));
        if (v.is_integer) {
            emit_u64(e, "value", v.integer);
        } else {
            dump_hex(e, "bytes", v.bytes, v.data_size, text);
        }
        emit_registered(e, side, q, b, inst, id, prev);
        emit_object_end(e);
    }
    emit_list_end(e);
}

static void emit_location(emitter *e, const char *key, const perfbuf_error *where)
{
    if (where->status == PERFBUF_OK) {
        return;
    }
    emit_object_begin(e, key);
    emit_hex(e, "offset", where->offset);
    emit_str(e, "structure", where->structure);
    emit_str(e, "field", where->field);
    emit_object_end(e);
}

/* Emits the cross-check; on a disagreement fills *err with where it is,
 * in the query data when the query is involved, and returns
 * PERFBUF_E_INCONSISTENT: the pair is rejected. */
static perfbuf_status emit_crosscheck(emitter *e, const perfbuf_v2_query *q, const v2_side *side,
                                      perfbuf_error *err)
{
    perfbuf_v2_mismatch m;
    perfbuf_status st = perfbuf_v2_crosscheck(q, side->reg, side->ids, &m);
    /* Identifiers out of Index order are paired with blocks by sorting
     * them: scratch of one entry per identifier, so that a valid set
     * never shows as a mismatch. */
    if (st == PERFBUF_E_SCRATCH_NEEDED && side->ids != NULL) {
        uint64_t *scratch = dump_calloc(side->ids->count, sizeof *scratch);
        st = perfbuf_v2_crosscheck_indexed(q, side->reg, side->ids, scratch, side->ids->count, &m);
        free(scratch);
    }
    emit_object_begin(e, "crosscheck");
    emit_bool(e, "agree", st == PERFBUF_OK);
    if (st != PERFBUF_OK) {
        emit_str(e, "mismatch", perfbuf_v2_mismatch_name(m.kind));
        emit_u64(e, "block_position", m.block_index);
        if (m.counter_id != PERFBUF_V2_NO_COUNTER_ID) {
            emit_u64(e, "counter_id", m.counter_id);
        } else {
            emit_null(e, "counter_id");
        }
        emit_location(e, "in_query", &m.in_query);
        emit_location(e, "in_registration", &m.in_registration);
        emit_location(e, "in_identifiers", &m.in_identifiers);
    }
    emit_object_end(e);
    if (st == PERFBUF_OK) {
        return PERFBUF_OK;
    }
    const perfbuf_error *where = m.in_query.status != PERFBUF_OK        ? &m.in_query
                                 : m.in_identifiers.status != PERFBUF_OK ? &m.in_identifiers
                                                                         : &m.in_registration;
    *err = *where;
    err->status = PERFBUF_E_INCONSISTENT;
    return PERFBUF_E_INCONSISTENT;
}

/*
 * --counter on V2 query data: what each path selects in FILE, through the
 * library's query opened on the registration, the counter names and the
 * counterset's name (perfbuf_query_open_v2), so a path names the
 * counterset by its name or GUID and a counter by its name or id, as a
 * PerfLib V2 consumer writes it. The counterset's block is the one the
 * identifiers give its GUID (PERF_COUNTER_IDENTIFIER.Index), else 0, the
 * block of a query of one counterset. *block says which.
 */
static void v2_select(const dump_input *in, const perfbuf_v2_reginfo *reg,
                      const perfbuf_v2_identifiers *ids, dump_selection *sel, uint32_t *block)
{
    *block = 0;
    perfbuf_v2_list_iter li;
    perfbuf_v2_identifier id;
    perfbuf_v2_identifiers_begin(&li);
    while (ids != NULL && reg != NULL && perfbuf_v2_identifiers_next(ids, &li, &id)) {
        DUMP_WORK(1);
        if (id.status == 0 && memcmp(&id.counterset, &reg->counterset, sizeof id.counterset) == 0) {
            *block = id.query_index;
            break;
        }
    }
    perfbuf_query_registration r;
    memset(&r, 0, sizeof r);
    r.reginfo = in->registration;
    r.reginfo_len = in->registration_size;
    r.counter_names = in->counter_names;
    r.counter_names_len = in->counter_names != NULL ? in->counter_names_size : 0;
    r.counterset_name = in->counterset_name;
    r.counterset_name_len = in->counterset_name != NULL ? in->counterset_name_size : 0;
    r.block = *block;
    perfbuf_query q;
    perfbuf_query_counter *counters = dump_calloc(in->path_count, sizeof *counters);
    bool *added = dump_calloc(in->path_count, sizeof *added);
    uint8_t *arena = NULL;
    bool open = in->registration != NULL && perfbuf_query_open_v2(&q, &r, 1, NULL) == PERFBUF_OK &&
                perfbuf_query_options(&q, &in->options, NULL) == PERFBUF_OK;
    for (size_t p = 0; open && p < in->path_count; p++) {
        DUMP_WORK(1);
        added[p] = perfbuf_query_add(&q, &counters[p], in->paths[p].text, in->paths[p].text_len,
                                     NULL) == PERFBUF_OK;
    }
    bool collected = open && dump_query_collect(&q, &arena, in->data, in->size, NULL) == PERFBUF_OK;
    select_take_query(sel, &q, counters, added, collected);
    free(arena);
    free(added);
    free(counters);
}

/* What a V2 path's instance part could have named: the instances of the
 * counterset's block (V2 instances have no parent). */
typedef struct v2_candidates_context {
    const perfbuf_v2_query *q;
    uint32_t block;
} v2_candidates_context;

static void v2_candidates(void *context, const perfbuf_counter_path *path,
                          select_candidates *out)
{
    const v2_candidates_context *ctx = context;
    bool parent_ok = (path->flags & PERFBUF_PATH_HAS_PARENT) == 0 ||
                     (path->flags & PERFBUF_PATH_PARENT_WILDCARD) != 0;
    dump_text name;
    dump_text_init(&name);
    perfbuf_v2_iter bi;
    perfbuf_v2_block b;
    perfbuf_v2_blocks_begin(ctx->q, &bi);
    while (perfbuf_v2_blocks_next(ctx->q, &bi, &b)) {
        DUMP_WORK(1);
        if (b.index != ctx->block) {
            continue;
        }
        out->has_instances = b.kind == PERFBUF_V2_MULTIPLE_INSTANCES ||
                             b.kind == PERFBUF_V2_COUNTERSET;
        perfbuf_v2_iter it;
        perfbuf_v2_instance inst;
        perfbuf_v2_instances_begin(&b, &it);
        while (out->has_instances && perfbuf_v2_instances_next(ctx->q, &b, &it, &inst)) {
            DUMP_WORK(1);
            size_t len;
            perfbuf_status st = perfbuf_v2_instance_name_utf8(ctx->q, &inst, name.buf, name.cap,
                                                              &len);
            if (st == PERFBUF_E_OUTPUT_TOO_SMALL) {
                dump_text_fit(&name, len);
                st = perfbuf_v2_instance_name_utf8(ctx->q, &inst, name.buf, name.cap, &len);
            }
            if (st == PERFBUF_OK) {
                select_candidates_add(out, parent_ok, name.buf, len);
            }
        }
        break;
    }
    dump_text_free(&name);
}

perfbuf_status dump_v2_query(const dump_input *in, emitter *e, perfbuf_error *err)
{
    perfbuf_v2_query q;
    perfbuf_status st = perfbuf_v2_query_parse(in->data, in->size, &in->options, &q, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    v2_side side = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, q.block_count};
    perfbuf_v2_reginfo reg;
    perfbuf_v2_strings strings;
    v2_names names = {NULL, NULL, 0, NULL, 0, 0};
    perfbuf_v2_identifiers ids;
    perfbuf_v2_query previous;
    perfbuf_error side_err;
    uint64_t *reg_scratch = NULL;
    uint64_t *strings_scratch = NULL;
    uint64_t *block_ids = NULL;
    if (in->registration != NULL) {
        if (dump_reginfo_parse(in->registration, in->registration_size, &in->options, &reg,
                               &side_err, &reg_scratch) == PERFBUF_OK) {
            side.reg = &reg;
        } else {
            dump_side_rejected("--registration file", in->side_paths[0], &side_err);
        }
    }
    if (in->counter_names != NULL) {
        if (dump_strings_parse(in->counter_names, in->counter_names_size, in->string_origin,
                               &in->options, &strings, &side_err,
                               &strings_scratch) == PERFBUF_OK) {
            names_build(&strings, &names);
            side.names = &names;
        } else {
            dump_side_rejected("--counter-names file", in->side_paths[1], &side_err);
        }
    }
    if (in->identifiers != NULL) {
        if (perfbuf_v2_identifiers_parse(in->identifiers, in->identifiers_size, &in->options, &ids,
                                         &side_err) == PERFBUF_OK) {
            side.ids = &ids;
            /* One pass gives every block its identifier; looking it up
             * per block (or per instance) would scan them all each time. */
            block_ids = dump_calloc(q.block_count, sizeof *block_ids);
            perfbuf_v2_list_iter li;
            perfbuf_v2_identifier id;
            perfbuf_v2_identifiers_begin(&li);
            while (perfbuf_v2_identifiers_next(&ids, &li, &id)) {
                DUMP_WORK(1);
                if (id.status == 0 && id.query_index < q.block_count &&
                    block_ids[id.query_index] == 0) {
                    block_ids[id.query_index] = (uint64_t)1 << 32 | id.counter_id;
                }
            }
            side.block_ids = block_ids;
        } else {
            dump_side_rejected("--identifiers file", in->side_paths[2], &side_err);
        }
    }
    if (in->previous != NULL) {
        if (perfbuf_v2_query_parse(in->previous, in->previous_size, &in->options, &previous,
                                   &side_err) == PERFBUF_OK) {
            side.previous = &previous;
        } else {
            dump_side_rejected("--rate capture", in->previous_path, &side_err);
        }
    }
    dump_selection sel = {in->paths, in->path_count, NULL, NULL, NULL, 0, NULL, NULL};
    uint32_t query_block = 0;
    if (in->path_count > 0) {
        v2_select(in, side.reg, side.ids, &sel, &query_block);
        side.sel = &sel;
    }
    v2_sampler sampler;
    memset(&sampler, 0, sizeof sampler);
    if (side.previous != NULL && side.reg != NULL) {
        side.sampler = &sampler;
    }
    dump_text text;
    dump_text_init(&text);
    v2_pairer pairer;
    memset(&pairer, 0, sizeof pairer);
    emit_u64(e, "received", q.received);
    emit_u64(e, "total_size", q.size);
    emit_u64(e, "num_counters", q.block_count);
    emit_i64(e, "perf_time_stamp", q.perf_time_stamp);
    emit_i64(e, "perf_time_100ns", q.perf_time_100ns);
    emit_i64(e, "perf_freq", q.perf_freq);
    dump_systemtime(e, "system_time", &q.system_time);
    dump_anomalies(e, q.anomalies, &q.first_anomaly);
    perfbuf_status verdict = PERFBUF_OK;
    if (side.reg != NULL) {
        verdict = emit_crosscheck(e, &q, &side, err);
    }
    /* Each name once, not with each value: a long name repeated per value
     * would make the output grow with names x values. */
    if (side.names != NULL) {
        emit_list_begin(e, "counter_names");
        for (size_t k = 0; k < names.count; k++) {
            DUMP_WORK(1);
            const v2_name *n = &names.entries[(uint32_t)names.keys[k]];
            emit_object_begin(e, NULL);
            emit_u64(e, "counter_id", names.keys[k] >> 32);
            if (n->present) {
                emit_str(e, "name", names.arena + n->text);
            } else {
                emit_null(e, "name");
            }
            emit_object_end(e);
        }
        emit_list_end(e);
    }
    emit_list_begin(e, "blocks");
    perfbuf_v2_iter bi;
    perfbuf_v2_block b;
    /* The --rate capture's blocks are walked in step with this one's: the
     * block at the same position is the only candidate. Its instances are
     * paired by key once per block (pairer_block), so no value searches. */
    perfbuf_v2_iter pbi;
    if (side.previous != NULL) {
        perfbuf_v2_blocks_begin(side.previous, &pbi);
    }
    perfbuf_v2_blocks_begin(&q, &bi);
    while (perfbuf_v2_blocks_next(&q, &bi, &b)) {
        DUMP_WORK(1);
        v2_prev prev;
        memset(&prev, 0, sizeof prev);
        if (side.previous != NULL && perfbuf_v2_blocks_next(side.previous, &pbi, &prev.block)) {
            prev.block_ok = prev.block.index == b.index && prev.block.kind == b.kind;
        }
        if (side.sel != NULL && !select_any(&sel, b.index)) {
            continue;
        }
        emit_object_begin(e, NULL);
        emit_u64(e, "position", b.index);
        emit_hex(e, "offset", b.offset);
        emit_hex(e, "status", b.status);
        emit_u64(e, "type", (uint32_t)b.kind);
        emit_str(e, "type_name", perfbuf_v2_kind_name(b.kind));
        emit_u64(e, "size", b.size);
        emit_u64(e, "reserved", dump_le32(q.data + b.offset + 12));
        if (b.kind == PERFBUF_V2_MULTIPLE_COUNTERS || b.kind == PERFBUF_V2_COUNTERSET) {
            /* PERF_MULTI_COUNTERS: dwSize and dwCounters before the ids. */
            size_t at = b.ids_offset - 8;
            emit_object_begin(e, "multi_counters");
            emit_hex(e, "offset", at);
            emit_u64(e, "size", dump_le32(q.data + at));
            emit_u64(e, "counters", dump_le32(q.data + at + 4));
            emit_object_end(e);
            emit_list_begin(e, "counter_ids");
            for (uint32_t i = 0; i < b.counter_count; i++) {
                DUMP_WORK(1);
                emit_u64(e, NULL, perfbuf_v2_block_counter_id(&q, &b, i));
            }
            emit_list_end(e);
        }
        perfbuf_v2_iter it;
        if (b.kind == PERFBUF_V2_MULTIPLE_INSTANCES || b.kind == PERFBUF_V2_COUNTERSET) {
            /* PERF_MULTI_INSTANCES: dwTotalSize and dwInstances before the
             * first instance. */
            size_t at = b.items_offset - 8;
            emit_object_begin(e, "multi_instances");
            emit_hex(e, "offset", at);
            emit_u64(e, "total_size", dump_le32(q.data + at));
            emit_u64(e, "instances", dump_le32(q.data + at + 4));
            emit_object_end(e);
            emit_list_begin(e, "instances");
            perfbuf_v2_instance inst;
            if (side.previous != NULL) {
                pairer_block(&pairer, side.previous, &prev, &q, &b);
            }
            perfbuf_v2_instances_begin(&b, &it);
            while (perfbuf_v2_instances_next(&q, &b, &it, &inst)) {
                DUMP_WORK(1);
                if (side.sel != NULL && !select_instance(&sel, b.index, inst.index)) {
                    continue;
                }
                emit_object_begin(e, NULL);
                emit_u64(e, "position", inst.index);
                emit_hex(e, "offset", inst.offset);
                emit_u64(e, "size", inst.size);
                emit_u64(e, "instance_id", inst.id);
                size_t len;
                perfbuf_status name_st =
                    perfbuf_v2_instance_name_utf8(&q, &inst, text.buf, text.cap, &len);
                if (name_st == PERFBUF_E_OUTPUT_TOO_SMALL) {
                    dump_text_fit(&text, len);
                    name_st = perfbuf_v2_instance_name_utf8(&q, &inst, text.buf, text.cap, &len);
                }
                /* A name the conversion could not finish is shown as far
                 * as it went: it is for reading, not for pairing. */
                (void)name_st;
                emit_str(e, "name", text.buf);
                prev.inst_ok = false;
                if (side.previous != NULL) {
                    uint32_t state = DUMP_PAIR_NONE;
                    uint32_t ordinal;
                    uint32_t older_position = 0;
                    if (!pairer.ok ||
                        !perfbuf_v2_pairing_instance(&pairer.pairing, inst.index, &state,
                                                     &ordinal, &older_position)) {
                        state = DUMP_PAIR_NONE;
                    }
                    emit_str(e, "pairing", dump_pairing_name(state));
                    if (state == PERFBUF_PAIR_MATCHED && older_position < pairer.older_count) {
                        prev.inst = pairer.older[older_position];
                        prev.inst_ok = true;
                        emit_u64(e, "previous_position", older_position);
                    }
                }
                perfbuf_v2_iter vi;
                perfbuf_v2_instance_values_begin(&inst, &vi);
                dump_values(&side, &q, &b, &inst, &vi, &prev, e, &text);
                emit_object_end(e);
            }
            emit_list_end(e);
        } else if (b.kind != PERFBUF_V2_ERROR_RETURN) {
            perfbuf_v2_block_values_begin(&b, &it);
            dump_values(&side, &q, &b, NULL, &it, &prev, e, &text);
        }
        emit_object_end(e);
    }
    emit_list_end(e);
    dump_miss miss;
    memset(&miss, 0, sizeof miss);
    v2_candidates_context candidates = {&q, query_block};
    bool missed = side.sel != NULL &&
                  select_report_paths(in->paths, sel.found, in->path_count, in->path,
                                      in->counterset_name != NULL ? SELECT_V2 : SELECT_V2_UNNAMED,
                                      v2_candidates, &candidates, &miss);
    if (side.sel != NULL) {
        select_free(&sel);
    }
    if (missed && verdict == PERFBUF_OK) {
        if (in->miss != NULL) {
            *in->miss = miss;
        }
        verdict = dump_path_missed(&miss, err);
    }
    names_free(&names);
    free(block_ids);
    free(strings_scratch);
    free(reg_scratch);
    free(sampler.slots[0]);
    free(sampler.slots[1]);
    dump_text_free(&text);
    free(pairer.scratch);
    free(pairer.older);
    return verdict;
}
