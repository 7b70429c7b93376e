/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
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

/* What the side files add to the query data, each when given and valid. */
typedef struct v2_side {
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
 * the same position, the same kind and, for an instance, the same name. */
typedef struct v2_prev {
    bool block_ok;
    perfbuf_v2_block block;
    bool inst_ok;
    perfbuf_v2_instance inst;
} v2_prev;

bool detect_v2_query(const uint8_t *data, size_t size)
{
    /* PERF_DATA_HEADER: dwTotalSize equal to the file size is as sure a
     * sign as this format has; anything else needs --format. */
    return size >= 48 && dump_le32(data) == size && size % 8 == 0;
}

#define NAME_CAP 1024

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
        if (out->arena_cap - out->arena_used < NAME_CAP) {
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
        char *text = out->arena + out->arena_used;
        n->text = out->arena_used;
        n->conv = perfbuf_v2_counter_string_utf8(s, &cs, text, NAME_CAP, &n->len);
        size_t used = strlen(text) + 1;
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

static void emit_formatted(emitter *e, const v2_side *side, const perfbuf_v2_query *q,
                           const perfbuf_v2_block *b, const perfbuf_v2_instance *inst,
                           const perfbuf_v2_counter_reg *c, const v2_prev *prev)
{
    perfbuf_raw_sample s1;
    perfbuf_raw_sample s0;
    perfbuf_value_context ctx;
    perfbuf_value_context pctx;
    perfbuf_value v;
    uint32_t st = PERFBUF_INVALID_ARGUMENT;
    if (perfbuf_v2_raw_sample(q, b, inst, side->reg, c->id, &s1, &ctx) == PERFBUF_OK) {
        bool placed = inst != NULL ? prev->inst_ok : prev->block_ok;
        bool have_older = side->previous != NULL && placed &&
                          perfbuf_v2_raw_sample(side->previous, &prev->block,
                                                inst != NULL ? &prev->inst : NULL, side->reg,
                                                c->id, &s0, &pctx) == PERFBUF_OK;
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
    if (side->names != NULL) {
        size_t at = dump_find_high(side->names->keys, side->names->count, id);
        const v2_name *n = at < side->names->count
                               ? &side->names->entries[(uint32_t)side->names->keys[at]]
                               : NULL;
        if (n != NULL && n->present) {
            emit_str(e, "name", side->names->arena + n->text);
            if (n->conv != PERFBUF_OK) {
                emit_u64(e, "name_bytes", n->len);
            }
        }
    }
    const char *type = perfbuf_counter_type_name(c.type);
    emit_str(e, "type", type != NULL ? type : "");
    if (side->previous != NULL && perfbuf_counter_type_is_displayable(c.type)) {
        emit_formatted(e, side, q, b, inst, &c, prev);
    }
}

static void dump_values(const v2_side *side, const perfbuf_v2_query *q, const perfbuf_v2_block *b,
                        const perfbuf_v2_instance *inst, perfbuf_v2_iter *it, const v2_prev *prev,
                        emitter *e)
{
    emit_list_begin(e, "values");
    perfbuf_v2_value v;
    uint32_t single = PERFBUF_V2_NO_COUNTER_ID;
    if (b->kind == PERFBUF_V2_SINGLE_COUNTER || b->kind == PERFBUF_V2_MULTIPLE_INSTANCES) {
        single = block_counter(side, b);
    }
    while (perfbuf_v2_values_next(q, b, it, &v)) {
        DUMP_WORK(1);
        emit_object_begin(e, NULL);
        uint32_t id = v.counter_id != PERFBUF_V2_NO_COUNTER_ID ? v.counter_id : single;
        if (id != PERFBUF_V2_NO_COUNTER_ID) {
            emit_u64(e, "counter_id", id);
        }
        emit_hex(e, "offset", v.offset);
        emit_u64(e, "size", v.data_size);
        if (v.is_integer) {
            emit_u64(e, "value", v.integer);
        } else {
            char hex[2 * 64 + 4];
            size_t n = v.data_size < 64 ? v.data_size : 64;
            for (size_t i = 0; i < n; i++) {
                DUMP_WORK(1);
                snprintf(hex + 2 * i, 3, "%02x", v.bytes[i]);
            }
            hex[2 * n] = '\0';
            emit_str(e, "bytes", hex);
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

static void emit_crosscheck(emitter *e, const perfbuf_v2_query *q, const v2_side *side)
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
        emit_u64(e, "block_index", m.block_index);
        emit_u64(e, "counter_id", m.counter_id);
        emit_location(e, "in_query", &m.in_query);
        emit_location(e, "in_registration", &m.in_registration);
        emit_location(e, "in_identifiers", &m.in_identifiers);
    }
    emit_object_end(e);
}

perfbuf_status dump_v2_query(const dump_input *in, emitter *e, perfbuf_error *err)
{
    perfbuf_v2_query q;
    perfbuf_status st = perfbuf_v2_query_parse(in->data, in->size, &in->options, &q, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    v2_side side = {NULL, NULL, NULL, NULL, NULL, q.block_count};
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
            dump_side_rejected("--registration file", &side_err);
        }
    }
    if (in->counter_names != NULL) {
        if (dump_strings_parse(in->counter_names, in->counter_names_size, in->string_origin,
                               &in->options, &strings, &side_err,
                               &strings_scratch) == PERFBUF_OK) {
            names_build(&strings, &names);
            side.names = &names;
        } else {
            dump_side_rejected("--counter-names file", &side_err);
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
            dump_side_rejected("--identifiers file", &side_err);
        }
    }
    if (in->previous != NULL) {
        if (perfbuf_v2_query_parse(in->previous, in->previous_size, &in->options, &previous,
                                   &side_err) == PERFBUF_OK) {
            side.previous = &previous;
        } else {
            dump_side_rejected("--rate capture", &side_err);
        }
    }
    emit_u64(e, "received", q.received);
    emit_u64(e, "total_size", q.size);
    emit_i64(e, "perf_time_stamp", q.perf_time_stamp);
    emit_i64(e, "perf_time_100ns", q.perf_time_100ns);
    emit_i64(e, "perf_freq", q.perf_freq);
    dump_systemtime(e, "system_time", &q.system_time);
    dump_anomalies(e, q.anomalies, &q.first_anomaly);
    if (side.reg != NULL) {
        emit_crosscheck(e, &q, &side);
    }
    emit_list_begin(e, "blocks");
    perfbuf_v2_iter bi;
    perfbuf_v2_block b;
    /* The --rate capture is walked in step with this one: its block and
     * instance at the same position are the only candidates, so each is
     * read once rather than searched for per value. */
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
        emit_object_begin(e, NULL);
        emit_u64(e, "index", b.index);
        emit_str(e, "kind", perfbuf_v2_kind_name(b.kind));
        emit_hex(e, "status", b.status);
        emit_hex(e, "offset", b.offset);
        emit_u64(e, "size", b.size);
        if (b.kind == PERFBUF_V2_MULTIPLE_COUNTERS || b.kind == PERFBUF_V2_COUNTERSET) {
            emit_list_begin(e, "counter_ids");
            for (uint32_t i = 0; i < b.counter_count; i++) {
                DUMP_WORK(1);
                emit_u64(e, NULL, perfbuf_v2_block_counter_id(&q, &b, i));
            }
            emit_list_end(e);
        }
        perfbuf_v2_iter it;
        if (b.kind == PERFBUF_V2_MULTIPLE_INSTANCES || b.kind == PERFBUF_V2_COUNTERSET) {
            emit_list_begin(e, "instances");
            perfbuf_v2_instance inst;
            perfbuf_v2_iter pii;
            if (prev.block_ok) {
                perfbuf_v2_instances_begin(&prev.block, &pii);
            }
            perfbuf_v2_instances_begin(&b, &it);
            while (perfbuf_v2_instances_next(&q, &b, &it, &inst)) {
                DUMP_WORK(1);
                emit_object_begin(e, NULL);
                emit_u64(e, "index", inst.index);
                emit_u64(e, "id", inst.id);
                char name[4096];
                size_t len;
                /* A longer name is shown cut at a character boundary. */
                perfbuf_status name_st =
                    perfbuf_v2_instance_name_utf8(&q, &inst, name, sizeof name, &len);
                emit_str(e, "name", name);
                if (name_st != PERFBUF_OK) {
                    emit_u64(e, "name_bytes", len);
                }
                prev.inst_ok = false;
                if (prev.block_ok &&
                    perfbuf_v2_instances_next(side.previous, &prev.block, &pii, &prev.inst) &&
                    prev.inst.index == inst.index) {
                    char a[256];
                    char p[256];
                    size_t la;
                    size_t lp;
                    prev.inst_ok =
                        perfbuf_v2_instance_name_utf8(&q, &inst, a, sizeof a, &la) == PERFBUF_OK &&
                        perfbuf_v2_instance_name_utf8(side.previous, &prev.inst, p, sizeof p,
                                                      &lp) == PERFBUF_OK &&
                        strcmp(a, p) == 0;
                }
                perfbuf_v2_iter vi;
                perfbuf_v2_instance_values_begin(&inst, &vi);
                dump_values(&side, &q, &b, &inst, &vi, &prev, e);
                emit_object_end(e);
            }
            emit_list_end(e);
        } else if (b.kind != PERFBUF_V2_ERROR_RETURN) {
            perfbuf_v2_block_values_begin(&b, &it);
            dump_values(&side, &q, &b, NULL, &it, &prev, e);
        }
        emit_object_end(e);
    }
    emit_list_end(e);
    names_free(&names);
    free(block_ids);
    free(strings_scratch);
    free(reg_scratch);
    return PERFBUF_OK;
}
