/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * perfbuf-dump's V2 metadata formats: counterset and counter registration,
 * string answers, string blocks, the counterset and instance lists, and
 * counter identifiers.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dump.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/v2_meta.h"

static void emit_id(emitter *e, const char *key, uint32_t id)
{
    if (id == PERFBUF_V2_NO_ID) {
        emit_null(e, key);
    } else {
        emit_u64(e, key, id);
    }
}

/* One PERF_COUNTER_REG_INFO; data is the buffer it was read from (for
 * Reserved, which the view does not keep). */
static void emit_counter(emitter *e, const uint8_t *data, const perfbuf_v2_counter_reg *c)
{
    emit_u64(e, "position", c->index);
    emit_hex(e, "offset", c->offset);
    emit_u64(e, "counter_id", c->id);
    emit_hex(e, "type", c->type);
    emit_str(e, "type_name", perfbuf_counter_type_name(c->type));
    emit_hex(e, "attrib", c->attributes);
    emit_u64(e, "detail_level", c->detail_level);
    emit_i64(e, "default_scale", c->default_scale);
    emit_id(e, "base_counter_id", c->base_id);
    emit_id(e, "perf_time_id", c->perf_time_id);
    emit_id(e, "perf_freq_id", c->perf_freq_id);
    emit_id(e, "multi_id", c->multi_id);
    emit_u64(e, "aggregate_func", c->aggregate);
    emit_u64(e, "reserved", dump_le32(data + c->offset + 44));
}

/* A UTF-16 text converted whole, through t. */
#define CONVERT_WHOLE(st, t, len, call_with_buf)                                                   \
    do {                                                                                           \
        (st) = call_with_buf;                                                                      \
        if ((st) == PERFBUF_E_OUTPUT_TOO_SMALL) {                                                  \
            dump_text_fit((t), (len));                                                             \
            (st) = call_with_buf;                                                                  \
        }                                                                                          \
    } while (0)

perfbuf_status dump_v2_reginfo(const dump_input *in, emitter *e, perfbuf_error *err)
{
    perfbuf_v2_reginfo r;
    uint64_t *scratch;
    perfbuf_status st = dump_reginfo_parse(in->data, in->size, &in->options, &r, err, &scratch);
    if (st != PERFBUF_OK) {
        free(scratch);
        return st;
    }
    dump_guid(e, "counterset_guid", &r.counterset);
    emit_u64(e, "counterset_type", dump_le32(in->data + 16));
    emit_u64(e, "detail_level", r.detail_level);
    emit_u64(e, "num_counters", r.counter_count);
    emit_hex(e, "instance_type", r.instance_type);
    dump_anomalies(e, r.anomalies, &r.first_anomaly);
    emit_list_begin(e, "counters");
    perfbuf_v2_counter_reg c;
    for (uint32_t i = 0; perfbuf_v2_reginfo_counter(&r, i, &c); i++) {
        DUMP_WORK(1);
        emit_object_begin(e, NULL);
        emit_counter(e, in->data, &c);
        emit_object_end(e);
    }
    emit_list_end(e);
    free(scratch);
    return PERFBUF_OK;
}

perfbuf_status dump_v2_counter(const dump_input *in, emitter *e, perfbuf_error *err)
{
    perfbuf_v2_counter_answer a;
    perfbuf_status st = perfbuf_v2_counter_reg_parse(in->data, in->size, &in->options, &a, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    dump_anomalies(e, a.anomalies, &a.first_anomaly);
    emit_object_begin(e, "counter");
    emit_counter(e, in->data, &a.counter);
    emit_object_end(e);
    return PERFBUF_OK;
}

perfbuf_status dump_v2_string(const dump_input *in, emitter *e, perfbuf_error *err)
{
    perfbuf_v2_string s;
    perfbuf_status st = perfbuf_v2_string_parse(in->data, in->size, &in->options, &s, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    dump_text t;
    dump_text_init(&t);
    size_t len;
    perfbuf_status conv;
    CONVERT_WHOLE(conv, &t, len, perfbuf_v2_string_utf8(&s, t.buf, t.cap, &len));
    (void)conv; /* the retry has the room the first call asked for */
    emit_str(e, "text", t.buf);
    dump_text_free(&t);
    dump_anomalies(e, s.anomalies, &s.first_anomaly);
    return PERFBUF_OK;
}

perfbuf_status dump_v2_provider_guid(const dump_input *in, emitter *e, perfbuf_error *err)
{
    perfbuf_guid g;
    perfbuf_status st = perfbuf_v2_provider_guid_parse(in->data, in->size, &g, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    dump_guid(e, "provider", &g);
    return PERFBUF_OK;
}

static const char *origin_name(perfbuf_v2_string_origin origin)
{
    return origin == PERFBUF_V2_STRINGS_FROM_ARRAY_END ? "array-end" : "block";
}

perfbuf_status dump_v2_strings(const dump_input *in, emitter *e, perfbuf_error *err)
{
    perfbuf_v2_strings s;
    uint64_t *scratch;
    perfbuf_status st = dump_strings_parse(in->data, in->size, in->string_origin, &in->options,
                                           &s, err, &scratch);
    if (st != PERFBUF_OK) {
        free(scratch);
        return st;
    }
    emit_u64(e, "size", s.size);
    emit_u64(e, "counters", s.count);
    emit_str(e, "offset_origin", origin_name(s.origin));
    dump_anomalies(e, s.anomalies, &s.first_anomaly);
    emit_list_begin(e, "strings");
    dump_text t;
    dump_text_init(&t);
    perfbuf_v2_counter_string cs;
    /* One get per header: the parse bounds what all of them read together
     * by the bytes after the headers. */
    for (uint32_t i = 0; perfbuf_v2_strings_get(&s, i, &cs); i++) {
        DUMP_WORK(1);
        emit_object_begin(e, NULL);
        emit_u64(e, "position", cs.index);
        emit_hex(e, "offset", cs.offset);
        emit_u64(e, "counter_id", cs.counter_id);
        if (cs.present) {
            emit_u64(e, "string_offset", dump_le32(in->data + cs.offset + 4));
            emit_hex(e, "text_offset", cs.text_offset);
            size_t len;
            perfbuf_status conv;
            CONVERT_WHOLE(conv, &t, len, perfbuf_v2_counter_string_utf8(&s, &cs, t.buf, t.cap, &len));
            (void)conv;
            emit_str(e, "text", t.buf);
        } else {
            emit_null(e, "string_offset");
            emit_null(e, "text_offset");
            emit_null(e, "text");
        }
        emit_object_end(e);
    }
    dump_text_free(&t);
    emit_list_end(e);
    free(scratch);
    return PERFBUF_OK;
}

perfbuf_status dump_v2_countersets(const dump_input *in, emitter *e, perfbuf_error *err)
{
    perfbuf_v2_countersets l;
    perfbuf_status st = perfbuf_v2_countersets_parse(in->data, in->size, &l, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    emit_list_begin(e, "countersets");
    perfbuf_guid g;
    for (size_t i = 0; perfbuf_v2_countersets_get(&l, i, &g); i++) {
        DUMP_WORK(1);
        dump_guid(e, NULL, &g);
    }
    emit_list_end(e);
    return PERFBUF_OK;
}

perfbuf_status dump_v2_instances(const dump_input *in, emitter *e, perfbuf_error *err)
{
    perfbuf_v2_instance_list l;
    perfbuf_status st = perfbuf_v2_instance_list_parse(in->data, in->size, &in->options, &l, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    dump_anomalies(e, l.anomalies, &l.first_anomaly);
    emit_list_begin(e, "instances");
    perfbuf_v2_list_iter it;
    perfbuf_v2_listed_instance inst;
    dump_text t;
    dump_text_init(&t);
    perfbuf_v2_instance_list_begin(&it);
    while (perfbuf_v2_instance_list_next(&l, &it, &inst)) {
        DUMP_WORK(1);
        emit_object_begin(e, NULL);
        emit_u64(e, "position", inst.index);
        emit_hex(e, "offset", inst.offset);
        emit_u64(e, "size", dump_le32(in->data + inst.offset));
        emit_u64(e, "instance_id", inst.id);
        size_t len;
        perfbuf_status conv;
        CONVERT_WHOLE(conv, &t, len, perfbuf_v2_listed_name_utf8(&l, &inst, t.buf, t.cap, &len));
        (void)conv;
        emit_str(e, "name", t.buf);
        emit_object_end(e);
    }
    dump_text_free(&t);
    emit_list_end(e);
    return PERFBUF_OK;
}

perfbuf_status dump_v2_identifiers(const dump_input *in, emitter *e, perfbuf_error *err)
{
    perfbuf_v2_identifiers l;
    perfbuf_status st = perfbuf_v2_identifiers_parse(in->data, in->size, &in->options, &l, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    dump_anomalies(e, l.anomalies, &l.first_anomaly);
    emit_list_begin(e, "identifiers");
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifier id;
    dump_text t;
    dump_text_init(&t);
    perfbuf_v2_identifiers_begin(&it);
    while (perfbuf_v2_identifiers_next(&l, &it, &id)) {
        DUMP_WORK(1);
        emit_object_begin(e, NULL);
        emit_u64(e, "position", id.index);
        emit_hex(e, "offset", id.offset);
        dump_guid(e, "counterset_guid", &id.counterset);
        emit_hex(e, "status", id.status);
        emit_u64(e, "size", id.size);
        emit_id(e, "counter_id", id.counter_id);
        emit_id(e, "instance_id", id.instance_id);
        emit_u64(e, "block_position", id.query_index);
        emit_u64(e, "reserved", dump_le32(in->data + id.offset + 36));
        if (id.has_name) {
            size_t len;
            perfbuf_status conv;
            CONVERT_WHOLE(conv, &t, len, perfbuf_v2_identifier_name_utf8(&l, &id, t.buf, t.cap, &len));
            (void)conv;
            emit_str(e, "instance_name", t.buf);
        } else {
            emit_null(e, "instance_name");
        }
        emit_object_end(e);
    }
    emit_list_end(e);
    dump_text_free(&t);
    return PERFBUF_OK;
}
