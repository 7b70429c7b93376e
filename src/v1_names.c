/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * V1 instance names, parents and lookups. None of these walks more than
 * one object's instances per call; with an index of the parent object,
 * resolving the parent of every instance of an object is linear in total.
 */
#include "perfbuf/v1.h"

#include "text.h"
#include "v1_internal.h"

static pb_cursor name_window(const perfbuf_v1_block *b, const perfbuf_v1_instance *inst)
{
    return pb_v1_window(b, inst->name_offset, inst->name_offset + inst->name_bytes);
}

perfbuf_status perfbuf_v1_instance_name_utf8(const perfbuf_v1_block *b,
                                             const perfbuf_v1_instance *inst, char *out,
                                             size_t cap, size_t *len)
{
    if (b == NULL || inst == NULL || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (inst->code_page != 0 && !perfbuf_codepage_supported(inst->code_page)) {
        return PERFBUF_E_UNKNOWN_VALUE;
    }
    pb_utf8_out o;
    pb_utf8_out_init(&o, out, cap);
    pb_text_convert(inst->code_page, name_window(b, inst), &o);
    return pb_utf8_finish(&o, len);
}

const uint8_t *perfbuf_v1_instance_name_bytes(const perfbuf_v1_block *b,
                                              const perfbuf_v1_instance *inst)
{
    pb_cursor c = name_window(b, inst);
    return pb_cursor_data(&c);
}

perfbuf_status perfbuf_v1_index_build(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                      size_t *offsets, size_t cap,
                                      perfbuf_v1_instance_index *out)
{
    if (b == NULL || o == NULL || out == NULL || (offsets == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (o->instance_count > cap) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst;
    perfbuf_v1_instances_begin(o, &it);
    uint32_t n = 0;
    while (perfbuf_v1_instances_next(b, &it, &inst)) {
        offsets[n++] = inst.offset;
    }
    out->object = *o;
    out->offsets = offsets;
    out->count = n;
    return PERFBUF_OK;
}

perfbuf_status perfbuf_v1_index_get(const perfbuf_v1_block *b,
                                    const perfbuf_v1_instance_index *index, uint32_t i,
                                    perfbuf_v1_instance *out)
{
    if (b == NULL || index == NULL || out == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (i >= index->count) {
        return PERFBUF_E_NOT_FOUND;
    }
    /* The offsets came from perfbuf_v1_index_build on this block; a window
     * bounded by the object keeps a tampered index inside it. */
    size_t end = index->object.offset + index->object.total_length;
    if (index->offsets[i] < index->object.data_offset || index->offsets[i] > end) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    pb_ctx ctx;
    pb_view_ctx(&ctx);
    pb_cursor c = pb_v1_window(b, index->offsets[i], end);
    if (pb_v1_read_instance(&ctx, &c, index->object.code_page, out) != PERFBUF_OK ||
        pb_v1_read_counter_block(&ctx, &c, NULL, &out->counters) != PERFBUF_OK) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    out->index = i;
    return PERFBUF_OK;
}

/* The i-th instance of object o by walking it: O(i). */
static bool nth_instance(const perfbuf_v1_block *b, const perfbuf_v1_object *o, uint32_t i,
                         perfbuf_v1_instance *out)
{
    if (i >= o->instance_count) {
        return false;
    }
    perfbuf_v1_iter it;
    perfbuf_v1_instances_begin(o, &it);
    while (perfbuf_v1_instances_next(b, &it, out)) {
        if (out->index == i) {
            return true;
        }
    }
    PB_UNREACHABLE();
    return false;
}

static perfbuf_status bad_reference(perfbuf_error *err, const perfbuf_v1_instance *inst,
                                    pb_field_id field)
{
    if (err != NULL) {
        err->status = PERFBUF_E_BAD_REFERENCE;
        err->offset = inst->offset + pb_fields[field].offset;
        err->structure = pb_fields[field].structure;
        err->field = pb_fields[field].name;
    }
    return PERFBUF_E_BAD_REFERENCE;
}

perfbuf_status perfbuf_v1_parent(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                 const perfbuf_v1_instance *inst,
                                 const perfbuf_v1_instance_index *parent_index,
                                 perfbuf_v1_instance *parent, perfbuf_error *err)
{
    if (b == NULL || o == NULL || inst == NULL || parent == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (inst->parent_title_index == 0) {
        return PERFBUF_E_NOT_FOUND;
    }
    perfbuf_v1_object parent_object;
    bool indexed = parent_index != NULL &&
                   parent_index->object.name_title_index == inst->parent_title_index;
    if (indexed) {
        parent_object = parent_index->object;
    } else if (perfbuf_v1_find_object(b, inst->parent_title_index, &parent_object) != PERFBUF_OK) {
        return PERFBUF_E_NOT_FOUND;
    }
    if (inst->parent_instance >= parent_object.instance_count) {
        return bad_reference(err, inst, PBF_PERF_INSTANCE_DEFINITION_ParentObjectInstance);
    }
    if (parent_object.offset == o->offset && inst->parent_instance == inst->index) {
        return bad_reference(err, inst, PBF_PERF_INSTANCE_DEFINITION_ParentObjectInstance);
    }
    if (indexed) {
        return perfbuf_v1_index_get(b, parent_index, inst->parent_instance, parent);
    }
    if (!nth_instance(b, &parent_object, inst->parent_instance, parent)) {
        return PERFBUF_E_NOT_FOUND;
    }
    return PERFBUF_OK;
}

/* Appends an instance's name to o; false for an unsupported code page. */
static bool put_name(const perfbuf_v1_block *b, const perfbuf_v1_instance *inst, pb_utf8_out *o)
{
    if (inst->code_page != 0 && !perfbuf_codepage_supported(inst->code_page)) {
        return false;
    }
    pb_text_convert(inst->code_page, name_window(b, inst), o);
    return true;
}

perfbuf_status perfbuf_v1_full_name_utf8(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                         const perfbuf_v1_instance *inst,
                                         const perfbuf_v1_instance_index *parent_index, char *out,
                                         size_t cap, size_t *len)
{
    if (b == NULL || o == NULL || inst == NULL || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    pb_utf8_out text;
    pb_utf8_out_init(&text, out, cap);
    perfbuf_v1_instance parent;
    perfbuf_status parent_st = perfbuf_v1_parent(b, o, inst, parent_index, &parent, NULL);
    if (parent_st == PERFBUF_OK && put_name(b, &parent, &text)) {
        pb_utf8_put(&text, '/');
    }
    if (!put_name(b, inst, &text)) {
        (void)pb_utf8_finish(&text, len);
        return PERFBUF_E_UNKNOWN_VALUE;
    }
    perfbuf_status st = pb_utf8_finish(&text, len);
    if (st == PERFBUF_OK && parent_st == PERFBUF_E_BAD_REFERENCE) {
        return PERFBUF_E_BAD_REFERENCE;
    }
    return st;
}

/* "#N" at the end of a query: the N+1-th instance of that name. */
static size_t split_ordinal(const char *q, size_t len, uint32_t *ordinal)
{
    *ordinal = 0;
    size_t i = len;
    while (i > 0 && q[i - 1] >= '0' && q[i - 1] <= '9') {
        i--;
    }
    if (i == len || i == 0 || q[i - 1] != '#' || len - i > 9) {
        return len;
    }
    uint32_t n = 0;
    for (size_t k = i; k < len; k++) {
        n = n * 10 + (uint32_t)(q[k] - '0');
    }
    *ordinal = n;
    return i - 1;
}

perfbuf_status perfbuf_v1_find_instance(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                        const char *query, size_t query_len,
                                        const perfbuf_v1_instance_index *parent_index,
                                        perfbuf_v1_instance *out)
{
    if (b == NULL || o == NULL || out == NULL || (query == NULL && query_len != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    uint32_t ordinal;
    size_t name_len = split_ordinal(query, query_len, &ordinal);
    /* "parent/name" only where instances have parents: a '/' may also be
     * part of a plain name. */
    const char *parent_name = NULL;
    size_t parent_len = 0;
    const char *name = query;
    for (size_t i = 0; i < name_len; i++) {
        if (query[i] == '/') {
            parent_name = query;
            parent_len = i;
            name = query + i + 1;
            name_len -= i + 1;
            break;
        }
    }
    uint32_t seen = 0;
    perfbuf_v1_iter it;
    perfbuf_v1_instances_begin(o, &it);
    while (perfbuf_v1_instances_next(b, &it, out)) {
        bool match;
        if (parent_name != NULL && out->parent_title_index != 0) {
            perfbuf_v1_instance parent;
            match = perfbuf_v1_parent(b, o, out, parent_index, &parent, NULL) == PERFBUF_OK &&
                    pb_text_equals_utf8(parent.code_page, name_window(b, &parent), parent_name,
                                        parent_len) &&
                    pb_text_equals_utf8(out->code_page, name_window(b, out), name, name_len);
        } else {
            /* Without parents the whole query (slash included) is the name. */
            const char *whole = parent_name != NULL ? query : name;
            size_t whole_len = parent_name != NULL ? parent_len + 1 + name_len : name_len;
            match = pb_text_equals_utf8(out->code_page, name_window(b, out), whole, whole_len);
        }
        if (match && seen++ == ordinal) {
            return PERFBUF_OK;
        }
    }
    return PERFBUF_E_NOT_FOUND;
}
