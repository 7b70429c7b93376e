/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include <stdio.h>

#include <string.h>

#include "dump.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/v2_query.h"
#include "perfbuf/values.h"

/* What the side files add to the query data, each when given and valid. */
typedef struct v2_side {
    const perfbuf_v2_reginfo *reg;
    const perfbuf_v2_strings *names;
    const perfbuf_v2_identifiers *ids;
    const perfbuf_v2_query *previous;
} v2_side;

bool detect_v2_query(const uint8_t *data, size_t size)
{
    /* PERF_DATA_HEADER: dwTotalSize equal to the file size is as sure a
     * sign as this format has; anything else needs --format. */
    return size >= 48 && dump_le32(data) == size && size % 8 == 0;
}

/* The counter of a block without an id list, from the identifiers. */
static uint32_t block_counter(const v2_side *side, const perfbuf_v2_block *b)
{
    if (side->ids == NULL) {
        return PERFBUF_V2_NO_COUNTER_ID;
    }
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifier id;
    perfbuf_v2_identifiers_begin(&it);
    while (perfbuf_v2_identifiers_next(side->ids, &it, &id)) {
        if (id.query_index == b->index && id.status == 0) {
            return id.counter_id;
        }
    }
    return PERFBUF_V2_NO_COUNTER_ID;
}

/* The same block and instance (same index and name) in the earlier capture. */
static bool previous_place(const v2_side *side, const perfbuf_v2_query *q,
                           const perfbuf_v2_block *b, const perfbuf_v2_instance *inst,
                           perfbuf_v2_block *pb, perfbuf_v2_instance *pinst)
{
    perfbuf_v2_iter it;
    perfbuf_v2_blocks_begin(side->previous, &it);
    bool found = false;
    while (!found && perfbuf_v2_blocks_next(side->previous, &it, pb)) {
        found = pb->index == b->index && pb->kind == b->kind;
    }
    if (!found || inst == NULL) {
        return found;
    }
    perfbuf_v2_instances_begin(pb, &it);
    while (perfbuf_v2_instances_next(side->previous, pb, &it, pinst)) {
        if (pinst->index == inst->index) {
            char a[256];
            char p[256];
            size_t la;
            size_t lp;
            return perfbuf_v2_instance_name_utf8(q, inst, a, sizeof a, &la) == PERFBUF_OK &&
                   perfbuf_v2_instance_name_utf8(side->previous, pinst, p, sizeof p, &lp) ==
                       PERFBUF_OK &&
                   strcmp(a, p) == 0;
        }
    }
    return false;
}

static void emit_formatted(emitter *e, const v2_side *side, const perfbuf_v2_query *q,
                           const perfbuf_v2_block *b, const perfbuf_v2_instance *inst,
                           const perfbuf_v2_counter_reg *c)
{
    perfbuf_raw_sample s1;
    perfbuf_raw_sample s0;
    perfbuf_value_context ctx;
    perfbuf_value_context pctx;
    perfbuf_v2_block pb;
    perfbuf_v2_instance pinst;
    perfbuf_value v;
    uint32_t st = PERFBUF_INVALID_ARGUMENT;
    if (perfbuf_v2_raw_sample(q, b, inst, side->reg, c->id, &s1, &ctx) == PERFBUF_OK) {
        bool have_older = side->previous != NULL &&
                          previous_place(side, q, b, inst, &pb, &pinst) &&
                          perfbuf_v2_raw_sample(side->previous, &pb, inst != NULL ? &pinst : NULL,
                                                side->reg, c->id, &s0, &pctx) == PERFBUF_OK;
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
                            uint32_t id)
{
    perfbuf_v2_counter_reg c;
    if (side->reg == NULL || id == PERFBUF_V2_NO_COUNTER_ID ||
        perfbuf_v2_reginfo_find(side->reg, id, &c) != PERFBUF_OK) {
        return;
    }
    perfbuf_v2_counter_string cs;
    if (side->names != NULL && perfbuf_v2_strings_find(side->names, id, &cs) == PERFBUF_OK &&
        cs.present) {
        char name[1024];
        size_t len;
        perfbuf_status conv = perfbuf_v2_counter_string_utf8(side->names, &cs, name, sizeof name,
                                                             &len);
        emit_str(e, "name", name);
        if (conv != PERFBUF_OK) {
            emit_u64(e, "name_bytes", len);
        }
    }
    const char *type = perfbuf_counter_type_name(c.type);
    emit_str(e, "type", type != NULL ? type : "");
    if (side->previous != NULL && perfbuf_counter_type_is_displayable(c.type)) {
        emit_formatted(e, side, q, b, inst, &c);
    }
}

static void dump_values(const v2_side *side, const perfbuf_v2_query *q, const perfbuf_v2_block *b,
                        const perfbuf_v2_instance *inst, perfbuf_v2_iter *it, emitter *e)
{
    emit_list_begin(e, "values");
    perfbuf_v2_value v;
    uint32_t single = PERFBUF_V2_NO_COUNTER_ID;
    if (b->kind == PERFBUF_V2_SINGLE_COUNTER || b->kind == PERFBUF_V2_MULTIPLE_INSTANCES) {
        single = block_counter(side, b);
    }
    while (perfbuf_v2_values_next(q, b, it, &v)) {
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
                snprintf(hex + 2 * i, 3, "%02x", v.bytes[i]);
            }
            hex[2 * n] = '\0';
            emit_str(e, "bytes", hex);
        }
        emit_registered(e, side, q, b, inst, id);
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
    v2_side side = {NULL, NULL, NULL, NULL};
    perfbuf_v2_reginfo reg;
    perfbuf_v2_strings names;
    perfbuf_v2_identifiers ids;
    perfbuf_v2_query previous;
    perfbuf_error side_err;
    if (in->registration != NULL) {
        if (perfbuf_v2_reginfo_parse(in->registration, in->registration_size, &in->options, &reg,
                                     &side_err) == PERFBUF_OK) {
            side.reg = &reg;
        } else {
            dump_side_rejected("--registration file", &side_err);
        }
    }
    if (in->counter_names != NULL) {
        if (perfbuf_v2_strings_parse(in->counter_names, in->counter_names_size,
                                     (perfbuf_v2_string_origin)in->string_origin, &in->options,
                                     &names, &side_err) == PERFBUF_OK) {
            side.names = &names;
        } else {
            dump_side_rejected("--counter-names file", &side_err);
        }
    }
    if (in->identifiers != NULL) {
        if (perfbuf_v2_identifiers_parse(in->identifiers, in->identifiers_size, &in->options, &ids,
                                         &side_err) == PERFBUF_OK) {
            side.ids = &ids;
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
    perfbuf_v2_blocks_begin(&q, &bi);
    while (perfbuf_v2_blocks_next(&q, &bi, &b)) {
        emit_object_begin(e, NULL);
        emit_u64(e, "index", b.index);
        emit_str(e, "kind", perfbuf_v2_kind_name(b.kind));
        emit_hex(e, "status", b.status);
        emit_hex(e, "offset", b.offset);
        emit_u64(e, "size", b.size);
        if (b.kind == PERFBUF_V2_MULTIPLE_COUNTERS || b.kind == PERFBUF_V2_COUNTERSET) {
            emit_list_begin(e, "counter_ids");
            for (uint32_t i = 0; i < b.counter_count; i++) {
                emit_u64(e, NULL, perfbuf_v2_block_counter_id(&q, &b, i));
            }
            emit_list_end(e);
        }
        perfbuf_v2_iter it;
        if (b.kind == PERFBUF_V2_MULTIPLE_INSTANCES || b.kind == PERFBUF_V2_COUNTERSET) {
            emit_list_begin(e, "instances");
            perfbuf_v2_instance inst;
            perfbuf_v2_instances_begin(&b, &it);
            while (perfbuf_v2_instances_next(&q, &b, &it, &inst)) {
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
                perfbuf_v2_iter vi;
                perfbuf_v2_instance_values_begin(&inst, &vi);
                dump_values(&side, &q, &b, &inst, &vi, e);
                emit_object_end(e);
            }
            emit_list_end(e);
        } else if (b.kind != PERFBUF_V2_ERROR_RETURN) {
            perfbuf_v2_block_values_begin(&b, &it);
            dump_values(&side, &q, &b, NULL, &it, e);
        }
        emit_object_end(e);
    }
    emit_list_end(e);
    return PERFBUF_OK;
}
