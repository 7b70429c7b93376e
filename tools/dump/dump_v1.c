/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/names.h"
#include "perfbuf/v1.h"

bool detect_v1(const uint8_t *data, size_t size)
{
    return size >= 8 && memcmp(data, "P\0E\0R\0F\0", 8) == 0;
}

/* The title text for an index, when a name table was given. */
static void emit_title(emitter *e, const char *key, const perfbuf_name_table *names,
                       const perfbuf_name_index *index, uint32_t title_index)
{
    perfbuf_name_entry entry;
    if (names == NULL || title_index == 0 ||
        perfbuf_names_index_find(names, index, title_index, &entry) != PERFBUF_OK) {
        return;
    }
    char text[512];
    size_t len;
    if (perfbuf_names_text_utf8(names, &entry, text, sizeof text, &len) == PERFBUF_OK ||
        len >= sizeof text) {
        emit_str(e, key, text);
    }
}

static void emit_values(emitter *e, const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                        const perfbuf_v1_counter_block *blk)
{
    emit_list_begin(e, "values");
    perfbuf_v1_iter it;
    perfbuf_v1_counter c;
    perfbuf_v1_counters_begin(o, &it);
    while (perfbuf_v1_counters_next(b, &it, &c)) {
        if (c.size == 4 || c.size == 8) {
            emit_u64(e, NULL, perfbuf_v1_counter_value(b, blk, &c));
        } else {
            const uint8_t *bytes = perfbuf_v1_counter_bytes(b, blk, &c);
            char hex[2 * 64 + 1];
            size_t n = c.size < 64 ? c.size : 64;
            for (size_t i = 0; i < n; i++) {
                snprintf(hex + 2 * i, 3, "%02x", bytes[i]);
            }
            hex[2 * n] = '\0';
            emit_str(e, NULL, hex);
        }
    }
    emit_list_end(e);
}

/*
 * Formatted values of one counter block against the same block of an
 * earlier capture (the same object, the same instance position and name).
 */
static void emit_formatted(emitter *e, const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                           const perfbuf_v1_counter_block *blk, const perfbuf_v1_block *pb,
                           const perfbuf_v1_object *po, const perfbuf_v1_counter_block *pblk)
{
    emit_list_begin(e, "formatted");
    perfbuf_v1_iter it;
    perfbuf_v1_counter c;
    perfbuf_v1_counters_begin(o, &it);
    while (perfbuf_v1_counters_next(b, &it, &c)) {
        perfbuf_raw_sample s1;
        perfbuf_raw_sample s0;
        perfbuf_value_context ctx;
        perfbuf_value_context pctx;
        perfbuf_value v;
        uint32_t st = PERFBUF_INVALID_ARGUMENT;
        if (perfbuf_v1_raw_sample(b, o, &c, blk, &s1, &ctx) == PERFBUF_OK) {
            bool have_older = pb != NULL && pblk != NULL &&
                              perfbuf_v1_raw_sample(pb, po, &c, pblk, &s0, &pctx) == PERFBUF_OK;
            st = perfbuf_format_value(c.type, &s1, have_older ? &s0 : NULL, &ctx,
                                      PERFBUF_FMT_DOUBLE, &v);
        }
        if (st == PERFBUF_CSTATUS_VALID_DATA) {
            char text[64];
            snprintf(text, sizeof text, "%.6f", v.as_double);
            emit_str(e, NULL, text);
        } else {
            emit_str(e, NULL, dump_value_status_name(st));
        }
    }
    emit_list_end(e);
}

/* The instance of the earlier capture that matches inst: same object, same
 * position, same name; false when the instance set changed. */
static bool previous_instance(const perfbuf_v1_block *b, const perfbuf_v1_instance *inst,
                              const perfbuf_v1_block *pb, const perfbuf_v1_object *po,
                              perfbuf_v1_instance *out)
{
    perfbuf_v1_iter it;
    perfbuf_v1_instances_begin(po, &it);
    while (perfbuf_v1_instances_next(pb, &it, out)) {
        if (out->index == inst->index) {
            char a[256];
            char p[256];
            size_t la;
            size_t lp;
            return perfbuf_v1_instance_name_utf8(b, inst, a, sizeof a, &la) == PERFBUF_OK &&
                   perfbuf_v1_instance_name_utf8(pb, out, p, sizeof p, &lp) == PERFBUF_OK &&
                   strcmp(a, p) == 0;
        }
    }
    return false;
}

/*
 * Statistics of every counter of one counter block over a series of
 * captures (oldest first, the decoded buffer last), as
 * perfbuf_compute_statistics computes them. Instances match by position
 * and name; a capture without the instance contributes an invalid sample.
 */
static void emit_statistics(emitter *e, const dump_input *in, const perfbuf_v1_block *b,
                            const perfbuf_v1_object *o, const perfbuf_v1_instance *inst,
                            const perfbuf_v1_counter_block *blk)
{
    size_t n = in->series_count + 1;
    perfbuf_raw_sample *ring = calloc(n, sizeof *ring);
    perfbuf_v1_block *blocks = calloc(n, sizeof *blocks);
    if (ring == NULL || blocks == NULL) {
        free(ring);
        free(blocks);
        return;
    }
    bool *valid = calloc(n, sizeof *valid);
    for (size_t k = 0; valid != NULL && k < in->series_count; k++) {
        valid[k] = perfbuf_v1_parse(in->series[k], in->series_sizes[k], &in->options, &blocks[k],
                                    NULL) == PERFBUF_OK;
    }
    emit_list_begin(e, "statistics");
    perfbuf_v1_iter it;
    perfbuf_v1_counter c;
    perfbuf_v1_counters_begin(o, &it);
    while (valid != NULL && perfbuf_v1_counters_next(b, &it, &c)) {
        perfbuf_value_context ctx = {0, 0};
        for (size_t k = 0; k < n; k++) {
            ring[k].status = PERFBUF_CSTATUS_INVALID_DATA;
            const perfbuf_v1_block *kb = k + 1 == n ? b : &blocks[k];
            if (k + 1 < n && !valid[k]) {
                continue;
            }
            perfbuf_v1_object ko;
            perfbuf_v1_instance ki;
            perfbuf_v1_counter_block kblk;
            perfbuf_value_context kctx;
            if (perfbuf_v1_find_object(kb, o->name_title_index, &ko) != PERFBUF_OK) {
                continue;
            }
            if (inst != NULL) {
                if (!previous_instance(b, inst, kb, &ko, &ki)) {
                    continue;
                }
                kblk = ki.counters;
            } else if (!perfbuf_v1_object_counter_block(kb, &ko, &kblk)) {
                continue;
            }
            if (perfbuf_v1_raw_sample(kb, &ko, &c, &kblk, &ring[k], &kctx) == PERFBUF_OK) {
                ctx = kctx;
            } else {
                ring[k].status = PERFBUF_CSTATUS_INVALID_DATA;
            }
        }
        (void)blk;
        perfbuf_statistics st;
        uint32_t rc = perfbuf_compute_statistics(c.type, &ctx, PERFBUF_FMT_DOUBLE, 0, n, ring, &st);
        emit_object_begin(e, NULL);
        emit_u64(e, "count", st.count);
        if (rc == PERFBUF_CSTATUS_VALID_DATA) {
            char text[64];
            snprintf(text, sizeof text, "%.6f", st.min.as_double);
            emit_str(e, "min", text);
            snprintf(text, sizeof text, "%.6f", st.max.as_double);
            emit_str(e, "max", text);
            snprintf(text, sizeof text, "%.6f", st.mean.as_double);
            emit_str(e, "mean", text);
        } else {
            emit_str(e, "status", dump_value_status_name(rc));
        }
        emit_object_end(e);
    }
    emit_list_end(e);
    free(valid);
    free(ring);
    free(blocks);
}

/* An index of the object that o's instances name as parent, so that every
 * full name resolves in O(1). NULL when there is none. */
static size_t *parent_index(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                            perfbuf_v1_instance_index *index)
{
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst;
    perfbuf_v1_instances_begin(o, &it);
    if (!perfbuf_v1_instances_next(b, &it, &inst) || inst.parent_title_index == 0) {
        return NULL;
    }
    perfbuf_v1_object parent;
    if (perfbuf_v1_find_object(b, inst.parent_title_index, &parent) != PERFBUF_OK) {
        return NULL;
    }
    size_t *offsets = malloc(sizeof *offsets * (parent.instance_count ? parent.instance_count : 1));
    if (offsets == NULL ||
        perfbuf_v1_index_build(b, &parent, offsets, parent.instance_count, index) != PERFBUF_OK) {
        free(offsets);
        return NULL;
    }
    return offsets;
}

static void emit_instance(emitter *e, const dump_input *in, const perfbuf_v1_block *b,
                          const perfbuf_v1_object *o, const perfbuf_v1_instance *inst,
                          const perfbuf_v1_instance_index *index, const perfbuf_v1_block *pb,
                          const perfbuf_v1_object *po)
{
    emit_object_begin(e, NULL);
    emit_u64(e, "index", inst->index);
    emit_hex(e, "offset", inst->offset);
    char name[1024];
    size_t len;
    perfbuf_status st = perfbuf_v1_instance_name_utf8(b, inst, name, sizeof name, &len);
    if (st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL) {
        emit_str(e, "name", name);
    } else {
        emit_u64(e, "name_code_page", inst->code_page);
        emit_u64(e, "name_bytes", inst->name_bytes);
    }
    st = perfbuf_v1_full_name_utf8(b, o, inst, index, name, sizeof name, &len);
    if (st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL || st == PERFBUF_E_BAD_REFERENCE) {
        emit_str(e, "full_name", name);
    }
    if (st == PERFBUF_E_BAD_REFERENCE) {
        emit_str(e, "parent_error", perfbuf_status_name(st));
    }
    emit_u64(e, "parent_title_index", inst->parent_title_index);
    emit_u64(e, "parent_instance", inst->parent_instance);
    emit_i64(e, "unique_id", inst->unique_id);
    emit_values(e, b, o, &inst->counters);
    if (pb != NULL) {
        perfbuf_v1_instance older;
        bool matched = po != NULL && previous_instance(b, inst, pb, po, &older);
        emit_formatted(e, b, o, &inst->counters, pb, po, matched ? &older.counters : NULL);
    }
    if (in->series_count > 0) {
        emit_statistics(e, in, b, o, inst, &inst->counters);
    }
    emit_object_end(e);
}

perfbuf_status dump_v1(const dump_input *in, emitter *e, perfbuf_error *err)
{
    perfbuf_v1_block b;
    perfbuf_status st = perfbuf_v1_parse(in->data, in->size, &in->options, &b, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    perfbuf_name_table names;
    perfbuf_name_index index = {NULL, 0, 0};
    perfbuf_name_slot *slots = NULL;
    const perfbuf_name_table *have_names = NULL;
    if (in->names != NULL &&
        perfbuf_names_parse(in->names, in->names_size, NULL, &names, NULL) == PERFBUF_OK) {
        slots = malloc(sizeof *slots * (names.count ? names.count : 1));
        if (slots != NULL &&
            perfbuf_names_index_build(&names, slots, names.count, &index) == PERFBUF_OK) {
            have_names = &names;
        }
    }
    perfbuf_v1_block previous;
    const perfbuf_v1_block *pb = NULL;
    if (in->previous != NULL) {
        perfbuf_error perr;
        if (perfbuf_v1_parse(in->previous, in->previous_size, &in->options, &previous, &perr) !=
            PERFBUF_OK) {
            fprintf(stderr, "perfbuf-dump: the --rate capture is rejected: offset 0x%zx: %s.%s: %s\n",
                    perr.offset, perr.structure, perr.field, perfbuf_status_string(perr.status));
        } else {
            pb = &previous;
        }
    }
    char text[512];
    size_t len;
    emit_u64(e, "version", b.version);
    emit_u64(e, "revision", b.revision);
    emit_u64(e, "total_size", b.size);
    emit_u64(e, "header_length", b.header_length);
    if (perfbuf_v1_system_name_utf8(&b, text, sizeof text, &len) == PERFBUF_OK) {
        emit_str(e, "system_name", text);
    }
    dump_systemtime(e, "system_time", &b.system_time);
    emit_i64(e, "perf_time", b.perf_time);
    emit_i64(e, "perf_freq", b.perf_freq);
    emit_i64(e, "perf_time_100ns", b.perf_time_100ns);
    emit_i64(e, "default_object", b.default_object);
    emit_u64(e, "declared_objects", b.declared_object_count);
    dump_anomalies(e, b.anomalies, &b.first_anomaly);
    emit_list_begin(e, "objects");
    perfbuf_v1_iter oi;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(&b, &oi);
    while (perfbuf_v1_objects_next(&b, &oi, &o)) {
        emit_object_begin(e, NULL);
        emit_u64(e, "index", o.index);
        emit_hex(e, "offset", o.offset);
        emit_u64(e, "title_index", o.name_title_index);
        emit_title(e, "name", have_names, &index, o.name_title_index);
        emit_u64(e, "help_index", o.help_title_index);
        emit_u64(e, "detail_level", o.detail_level);
        emit_i64(e, "num_instances", o.num_instances);
        emit_u64(e, "code_page", o.code_page);
        emit_i64(e, "perf_time", o.perf_time);
        emit_i64(e, "perf_freq", o.perf_freq);
        emit_list_begin(e, "counters");
        perfbuf_v1_iter ci;
        perfbuf_v1_counter c;
        perfbuf_v1_counters_begin(&o, &ci);
        while (perfbuf_v1_counters_next(&b, &ci, &c)) {
            emit_object_begin(e, NULL);
            emit_u64(e, "index", c.index);
            emit_u64(e, "title_index", c.name_title_index);
            emit_title(e, "name", have_names, &index, c.name_title_index);
            emit_hex(e, "type", c.type);
            emit_str(e, "type_name", perfbuf_counter_type_name(c.type));
            emit_u64(e, "size", c.size);
            emit_u64(e, "counter_offset", c.counter_offset);
            emit_i64(e, "default_scale", c.default_scale);
            emit_object_end(e);
        }
        emit_list_end(e);
        perfbuf_v1_object po;
        bool have_po = pb != NULL && perfbuf_v1_find_object(pb, o.name_title_index, &po) == PERFBUF_OK;
        perfbuf_v1_counter_block blk;
        if (perfbuf_v1_object_counter_block(&b, &o, &blk)) {
            emit_values(e, &b, &o, &blk);
            if (pb != NULL) {
                perfbuf_v1_counter_block pblk;
                bool matched = have_po && perfbuf_v1_object_counter_block(pb, &po, &pblk);
                emit_formatted(e, &b, &o, &blk, pb, have_po ? &po : NULL, matched ? &pblk : NULL);
            }
            if (in->series_count > 0) {
                emit_statistics(e, in, &b, &o, NULL, &blk);
            }
        }
        if (o.num_instances >= 0) {
            perfbuf_v1_instance_index parents;
            size_t *offsets = parent_index(&b, &o, &parents);
            emit_list_begin(e, "instances");
            perfbuf_v1_iter ii;
            perfbuf_v1_instance inst;
            perfbuf_v1_instances_begin(&o, &ii);
            while (perfbuf_v1_instances_next(&b, &ii, &inst)) {
                emit_instance(e, in, &b, &o, &inst, offsets != NULL ? &parents : NULL, pb,
                              have_po ? &po : NULL);
            }
            emit_list_end(e);
            free(offsets);
        }
        emit_object_end(e);
    }
    emit_list_end(e);
    free(slots);
    return PERFBUF_OK;
}

bool detect_names(const uint8_t *data, size_t size)
{
    /* UTF-16LE text starting with a decimal digit and ending with two
     * NUL units: the shape of a Counter or Help value. */
    return size >= 6 && size % 2 == 0 && data[0] >= '0' && data[0] <= '9' && data[1] == 0 &&
           data[size - 1] == 0 && data[size - 2] == 0 && data[size - 3] == 0 && data[size - 4] == 0;
}

perfbuf_status dump_names(const dump_input *in, emitter *e, perfbuf_error *err)
{
    perfbuf_name_table t;
    perfbuf_status st = perfbuf_names_parse(in->data, in->size, &in->options, &t, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    emit_u64(e, "size", t.size);
    emit_u64(e, "count", t.count);
    emit_bool(e, "ascending", t.ascending);
    dump_anomalies(e, t.anomalies, &t.first_anomaly);
    emit_list_begin(e, "entries");
    perfbuf_names_iter it;
    perfbuf_name_entry entry;
    perfbuf_names_begin(&t, &it);
    while (perfbuf_names_next(&t, &it, &entry)) {
        char text[2048];
        size_t len;
        perfbuf_status text_st = perfbuf_names_text_utf8(&t, &entry, text, sizeof text, &len);
        emit_object_begin(e, NULL);
        emit_u64(e, "index", entry.title_index);
        emit_str(e, "text", text);
        if (text_st != PERFBUF_OK) {
            emit_u64(e, "text_bytes", len);
        }
        emit_object_end(e);
    }
    emit_list_end(e);
    return PERFBUF_OK;
}
