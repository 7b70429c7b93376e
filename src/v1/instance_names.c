/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * V1 instance names, parents and lookups. None of these walks more than
 * one object's instances per call; with the block index, resolving the
 * parent of every instance of a block is linear in total.
 */
#include "perfbuf/v1.h"

#include <string.h>

#include "core/order.h"
#include "core/text.h"
#include "core/work.h"
#include "v1/internal.h"

/* index was built from this parse of b: same buffer, same stamp. */
static bool index_of_parse(const perfbuf_v1_block *b, const perfbuf_v1_instance_index *index)
{
    return index->block_data == b->data && pb_v1_same_parse(b, index->parse_id);
}

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
    memset(out, 0, sizeof *out);
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
    out->block_data = b->data;
    out->parse_id = b->parse_id;
    return PERFBUF_OK;
}

perfbuf_status perfbuf_v1_index_get(const perfbuf_v1_block *b,
                                    const perfbuf_v1_instance_index *index, uint32_t i,
                                    perfbuf_v1_instance *out)
{
    if (b == NULL || index == NULL || out == NULL || index->slots != NULL ||
        index->offsets == NULL || !index_of_parse(b, index)) {
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
    pb_cursor c = pb_v1_window(b, index->offsets[i], end);
    if (!pb_v1_view_instance(&c, b->parse_id, index->object.code_page, NULL, out)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    out->index = i;
    return PERFBUF_OK;
}

perfbuf_status perfbuf_v1_block_index_build(const perfbuf_v1_block *b, uint64_t *slots, size_t cap,
                                            perfbuf_v1_instance_index *out)
{
    if (b == NULL || out == NULL || (slots == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (cap < b->index_slots) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    memset(out, 0, sizeof *out);
    /* Layout: object_count sorted keys (title << 32 | slot of the object),
     * then per object its offset and its instances' offsets. */
    size_t next = b->object_count;
    uint32_t objects = 0;
    perfbuf_v1_iter oi;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(b, &oi);
    while (perfbuf_v1_objects_next(b, &oi, &o)) {
        if (next >= cap || next > UINT32_MAX || 1 + (size_t)o.instance_count > cap - next) {
            return PERFBUF_E_OUTPUT_TOO_SMALL;
        }
        slots[objects++] = (uint64_t)o.name_title_index << 32 | (uint32_t)next;
        slots[next++] = o.offset;
        perfbuf_v1_iter ii;
        perfbuf_v1_instance inst;
        perfbuf_v1_instances_begin(&o, &ii);
        while (perfbuf_v1_instances_next(b, &ii, &inst)) {
            /* A V1 block is at most 4 GiB (TotalByteLength is 32 bits), so
             * an instance's offset and its name's length share a slot. */
            if (inst.offset > UINT32_MAX || inst.name_bytes > UINT32_MAX) {
                return PERFBUF_E_INVALID_ARGUMENT;
            }
            slots[next++] = (uint64_t)inst.name_bytes << 32 | inst.offset;
        }
    }
    pb_sort_u64(slots, objects);
    out->slots = slots;
    out->slot_count = next;
    out->object_count = objects;
    out->block_data = b->data;
    out->parse_id = b->parse_id;
    return PERFBUF_OK;
}

/* The first indexed object with that title: its slot, by binary search. */
static bool block_index_object(const perfbuf_v1_block *b, const perfbuf_v1_instance_index *index,
                               uint32_t title, size_t *slot, perfbuf_v1_object *object)
{
    size_t lo = 0;
    size_t hi = index->object_count;
    while (lo < hi) {
        PB_WORK(1);
        size_t mid = lo + (hi - lo) / 2;
        if (index->slots[mid] >> 32 < title) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == index->object_count || index->slots[lo] >> 32 != title) {
        return false;
    }
    *slot = (uint32_t)index->slots[lo];
    /* The slots are the caller's memory: what they name is read again. */
    return *slot < index->slot_count && index->slots[*slot] <= SIZE_MAX &&
           pb_v1_object_at(b, (size_t)index->slots[*slot], object) &&
           object->name_title_index == title && object->instance_count <= index->slot_count - *slot - 1;
}

/* The i-th instance of object o by walking it: O(o's bytes). The caller
 * has refused an i past o's instances (were one passed, the walk would
 * end without finding it). */
static bool nth_instance(const perfbuf_v1_block *b, const perfbuf_v1_object *o, uint32_t i,
                         perfbuf_v1_instance *out)
{
    perfbuf_v1_iter it;
    perfbuf_v1_instances_begin(o, &it);
    while (perfbuf_v1_instances_next(b, &it, out)) {
        if (out->index == i) {
            return true;
        }
    }
    return false;
}

static perfbuf_status bad_reference(perfbuf_error *err, const perfbuf_v1_instance *inst,
                                    pb_field_id field)
{
    if (err != NULL) {
        pb_describe(err, PERFBUF_E_BAD_REFERENCE, inst->offset, field);
    }
    return PERFBUF_E_BAD_REFERENCE;
}

/* Where an instance's parent is: its offset and code page. */
typedef struct parent_place {
    size_t offset;
    uint32_t code_page;
    bool name_bytes_known; /* from the block index: no scan for the NUL */
    size_t name_bytes;
} parent_place;

/* Whether index answers for parents without a walk or a name scan: the
 * block form of this parse. */
static bool is_block_index(const perfbuf_v1_block *b, const perfbuf_v1_instance_index *index)
{
    return index != NULL && index->slots != NULL && index_of_parse(b, index);
}

/* An index the parent lookups refuse outright: one of another parse. */
static bool foreign_index(const perfbuf_v1_block *b, const perfbuf_v1_instance_index *index)
{
    return index != NULL && !index_of_parse(b, index);
}

/*
 * Finds the parent of inst without reading the parent's name: through the
 * block index, or by walking the block when there is none. The one-object
 * form is refused (SCRATCH_NEEDED): it holds no name lengths, so each
 * answer would scan the parent's name. The block index's slots are the
 * caller's memory, so what they name is read again from the block.
 */
static perfbuf_status locate_parent(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                    const perfbuf_v1_instance *inst,
                                    const perfbuf_v1_instance_index *index, parent_place *place,
                                    perfbuf_error *err)
{
    if (inst->parent_title_index == 0) {
        return PERFBUF_E_NOT_FOUND;
    }
    if (foreign_index(b, index)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (index != NULL && index->slots == NULL) {
        return PERFBUF_E_SCRATCH_NEEDED;
    }
    perfbuf_v1_object parent_object;
    size_t slot = 0;
    bool by_block_index = index != NULL;
    if (by_block_index) {
        if (!block_index_object(b, index, inst->parent_title_index, &slot, &parent_object)) {
            return PERFBUF_E_NOT_FOUND;
        }
    } else if (perfbuf_v1_find_object(b, inst->parent_title_index, &parent_object) != PERFBUF_OK) {
        return PERFBUF_E_NOT_FOUND;
    }
    if (inst->parent_instance >= parent_object.instance_count) {
        return bad_reference(err, inst, PBF_PERF_INSTANCE_DEFINITION_ParentObjectInstance);
    }
    if (parent_object.offset == o->offset && inst->parent_instance == inst->index) {
        return bad_reference(err, inst, PBF_PERF_INSTANCE_DEFINITION_ParentObjectInstance);
    }
    place->code_page = parent_object.code_page;
    place->name_bytes_known = false;
    place->name_bytes = 0;
    if (by_block_index) {
        uint64_t entry = index->slots[slot + 1 + inst->parent_instance];
        place->offset = (size_t)(entry & UINT32_MAX);
        place->name_bytes = (size_t)(entry >> 32);
        place->name_bytes_known = true;
        return PERFBUF_OK;
    }
    perfbuf_v1_instance parent;
    if (!nth_instance(b, &parent_object, inst->parent_instance, &parent)) {
        return PERFBUF_E_NOT_FOUND;
    }
    place->offset = parent.offset;
    return PERFBUF_OK;
}

/* The span NameLength gives an instance's name at `offset`, unscanned. */
static bool name_span(const perfbuf_v1_block *b, size_t offset, pb_cursor *span)
{
    pb_cursor all = pb_window(b->data, b->size, offset, b->size);
    uint32_t name_offset;
    uint32_t name_length;
    uint32_t length;
    if (!pb_get32(&all, PBF_PERF_INSTANCE_DEFINITION_ByteLength, &length) ||
        !pb_get32(&all, PBF_PERF_INSTANCE_DEFINITION_NameOffset, &name_offset) ||
        !pb_get32(&all, PBF_PERF_INSTANCE_DEFINITION_NameLength, &name_length)) {
        return false;
    }
    if (name_length == 0) {
        return pb_cursor_slice(&all, 0, 0, span);
    }
    return name_offset <= length && name_length <= length - name_offset &&
           pb_cursor_slice(&all, name_offset, name_length, span);
}

/*
 * o is an object of b and inst one of its instances, as b's own bytes say:
 * views of another capture (two samples mixed up) must not name a parent
 * or a name in this one. O(1): the instance's header is read again.
 */
static bool instance_of_block(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                              const perfbuf_v1_instance *inst)
{
    if (!pb_v1_object_of_block(b, o) || inst->offset < o->data_offset ||
        inst->offset - o->data_offset >= o->total_length - o->definition_length) {
        return false;
    }
    pb_cursor all = pb_window(b->data, b->size, inst->offset, b->size);
    uint32_t length;
    uint32_t parent_title;
    uint32_t parent_instance;
    uint32_t name_offset;
    uint32_t name_length;
    return pb_get32(&all, PBF_PERF_INSTANCE_DEFINITION_ByteLength, &length) &&
           pb_get32(&all, PBF_PERF_INSTANCE_DEFINITION_ParentObjectTitleIndex, &parent_title) &&
           pb_get32(&all, PBF_PERF_INSTANCE_DEFINITION_ParentObjectInstance, &parent_instance) &&
           pb_get32(&all, PBF_PERF_INSTANCE_DEFINITION_NameOffset, &name_offset) &&
           pb_get32(&all, PBF_PERF_INSTANCE_DEFINITION_NameLength, &name_length) &&
           length == inst->byte_length && parent_title == inst->parent_title_index &&
           parent_instance == inst->parent_instance &&
           (name_length == 0 || inst->name_offset - inst->offset == name_offset) &&
           inst->name_bytes <= name_length && inst->code_page == o->code_page;
}

perfbuf_status perfbuf_v1_parent(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                 const perfbuf_v1_instance *inst,
                                 const perfbuf_v1_instance_index *parent_index,
                                 perfbuf_v1_instance *parent, perfbuf_error *err)
{
    if (b == NULL || o == NULL || inst == NULL || parent == NULL ||
        !instance_of_block(b, o, inst) || foreign_index(b, parent_index)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    parent_place place;
    perfbuf_status st = locate_parent(b, o, inst, parent_index, &place, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    pb_cursor c = pb_v1_window(b, place.offset, b->size);
    if (!pb_v1_view_instance(&c, b->parse_id, place.code_page,
                             place.name_bytes_known ? &place.name_bytes : NULL, parent)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    parent->index = inst->parent_instance;
    return PERFBUF_OK;
}

static bool code_page_known(uint32_t code_page)
{
    return code_page == 0 || perfbuf_codepage_supported(code_page);
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
    if (!instance_of_block(b, o, inst) || foreign_index(b, parent_index)) {
        (void)pb_utf8_finish(&text, len);
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    parent_place place;
    pb_cursor parent_name;
    perfbuf_status parent_st = locate_parent(b, o, inst, parent_index, &place, NULL);
    if (parent_st == PERFBUF_E_SCRATCH_NEEDED) {
        (void)pb_utf8_finish(&text, len);
        return parent_st;
    }
    /* The parent's name is read up to its NUL and only as far as the
     * output holds: a long one shared by many children costs each call
     * what the caller's buffer holds. */
    if (parent_st == PERFBUF_OK && code_page_known(place.code_page) &&
        name_span(b, place.offset, &parent_name)) {
        pb_text_convert_to_nul(place.code_page, parent_name, &text);
        pb_utf8_put(&text, '/');
    }
    if (!code_page_known(inst->code_page)) {
        (void)pb_utf8_finish(&text, len);
        return PERFBUF_E_UNKNOWN_VALUE;
    }
    pb_text_convert(inst->code_page, name_window(b, inst), &text);
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
        PB_WORK(1);
        i--;
    }
    if (i == len || i == 0 || q[i - 1] != '#' || len - i > 9) {
        return len;
    }
    uint32_t n = 0;
    for (size_t k = i; k < len; k++) {
        PB_WORK(1);
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
    if (b == NULL || o == NULL || out == NULL || (query == NULL && query_len != 0) ||
        foreign_index(b, parent_index)) {
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
        PB_WORK(1);
        if (query[i] == '/') {
            parent_name = query;
            parent_len = i;
            name = query + i + 1;
            name_len -= i + 1;
            break;
        }
    }
    /* Children of one parent come together: its answer is kept. */
    bool have_last = false;
    size_t last_offset = 0;
    bool last_match = false;
    uint32_t seen = 0;
    perfbuf_v1_iter it;
    perfbuf_v1_instances_begin(o, &it);
    while (perfbuf_v1_instances_next(b, &it, out)) {
        bool match;
        if (parent_name != NULL && out->parent_title_index != 0) {
            if (!is_block_index(b, parent_index)) {
                return PERFBUF_E_SCRATCH_NEEDED;
            }
            parent_place place;
            pb_cursor span;
            match = pb_text_equals_utf8(out->code_page, name_window(b, out), name, name_len) &&
                    locate_parent(b, o, out, parent_index, &place, NULL) == PERFBUF_OK &&
                    code_page_known(place.code_page);
            if (match && !(have_last && last_offset == place.offset)) {
                have_last = true;
                last_offset = place.offset;
                last_match = name_span(b, place.offset, &span) &&
                             pb_text_equals_utf8_to_nul(place.code_page, span, parent_name,
                                                        parent_len);
            }
            match = match && last_match;
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
