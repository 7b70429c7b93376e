#include <stdio.h>

#include "dump.h"
#include "perfbuf/v2_query.h"

bool detect_v2_query(const uint8_t *data, size_t size)
{
    /* PERF_DATA_HEADER: dwTotalSize equal to the file size is as sure a
     * sign as this format has; anything else needs --format. */
    return size >= 48 && dump_le32(data) == size && size % 8 == 0;
}

static void dump_values(const perfbuf_v2_query *q, const perfbuf_v2_block *b, perfbuf_v2_iter *it,
                        emitter *e)
{
    emit_list_begin(e, "values");
    perfbuf_v2_value v;
    while (perfbuf_v2_values_next(q, b, it, &v)) {
        emit_object_begin(e, NULL);
        if (v.counter_id != PERFBUF_V2_NO_COUNTER_ID) {
            emit_u64(e, "counter_id", v.counter_id);
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
        emit_object_end(e);
    }
    emit_list_end(e);
}

perfbuf_status dump_v2_query(const dump_input *in, emitter *e, perfbuf_error *err)
{
    perfbuf_v2_query q;
    perfbuf_status st = perfbuf_v2_query_parse(in->data, in->size, &in->options, &q, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    emit_u64(e, "received", q.received);
    emit_u64(e, "total_size", q.size);
    emit_i64(e, "perf_time_stamp", q.perf_time_stamp);
    emit_i64(e, "perf_time_100ns", q.perf_time_100ns);
    emit_i64(e, "perf_freq", q.perf_freq);
    dump_systemtime(e, "system_time", &q.system_time);
    dump_anomalies(e, q.anomalies, &q.first_anomaly);
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
                dump_values(&q, &b, &vi, e);
                emit_object_end(e);
            }
            emit_list_end(e);
        } else if (b.kind != PERFBUF_V2_ERROR_RETURN) {
            perfbuf_v2_block_values_begin(&b, &it);
            dump_values(&q, &b, &it, e);
        }
        emit_object_end(e);
    }
    emit_list_end(e);
    return PERFBUF_OK;
}
