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

/*@ requires pb_v1_block_ok(b) && \valid_read(inst);
    assigns \nothing;
    ensures pb_valid_view(\result);
*/
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

/*@ requires pb_v1_block_ok(b) && \valid_read(inst);
    assigns \nothing;
*/
const uint8_t *perfbuf_v1_instance_name_bytes(const perfbuf_v1_block *b,
                                              const perfbuf_v1_instance *inst)
{
    /* Declared, then copied into: see v1/internal.h. */
    pb_cursor c;
    c = name_window(b, inst);
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

/*
 * What a whole-object pass needs of an instance: its parent reference and
 * the span its NameLength gives (unscanned: a name is converted up to its
 * terminator, and its length before it is found only when the output is
 * too small and a bound is wanted).
 */
typedef struct named_instance {
    uint32_t index;
    uint32_t parent_title_index;
    uint32_t parent_instance;
    pb_cursor name;
} named_instance;

/*
 * The next instance of a validated object, walked by its two ByteLengths
 * with no instance view (pb_v1_step_instance): false where the view's
 * checks stop a walk over other bytes.
 */
static bool next_named_instance(pb_cursor *walk, uint32_t code_page, named_instance *out)
{
    pb_v1_instance_step step;
    if (!pb_v1_step_instance(walk, code_page, &step)) {
        return false;
    }
    out->name = step.name;
    out->parent_title_index =
        pb_le32(step.head + PBO_PERF_INSTANCE_DEFINITION_ParentObjectTitleIndex);
    out->parent_instance = pb_le32(step.head + PBO_PERF_INSTANCE_DEFINITION_ParentObjectInstance);
    return true;
}

/* The text of a name span before its terminator, as an instance view
 * gives it (name_bytes): the whole span when a lenient parse let an
 * unterminated name by. */
static pb_cursor name_text(uint32_t code_page, pb_cursor span)
{
    size_t bytes;
    bool found = code_page == 0 ? pb_v1_utf16_name_bytes(&span, &bytes)
                                : pb_text_find_terminator(code_page, &span, &bytes);
    if (!found) {
        bytes = pb_cursor_remaining(&span);
    }
    pb_cursor text;
    (void)pb_cursor_slice(&span, 0, bytes, &text);
    return text;
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
        /* Walked by the instances' lengths, as perfbuf_v1_full_names_object
         * walks them: each name's length before its terminator is all an
         * instance adds here. */
        pb_cursor walk = pb_v1_view_window(b, o.data_offset, o.offset + o.total_length);
        for (uint32_t i = 0; i < o.instance_count; i++) {
            pb_v1_prefetch_ahead(&walk, PB_V1_PREFETCH_AHEAD);
            size_t offset = walk.pos;
            named_instance inst;
            if (!next_named_instance(&walk, o.code_page, &inst)) {
                break;
            }
            size_t name_bytes = pb_cursor_remaining(&inst.name);
            if (name_bytes > 0) {
                pb_cursor text = name_text(o.code_page, inst.name);
                name_bytes = pb_cursor_remaining(&text);
            }
            /* A V1 block is at most 4 GiB (TotalByteLength is 32 bits), so
             * an instance's offset and its name's length share a slot. */
            if (offset > UINT32_MAX || name_bytes > UINT32_MAX) {
                return PERFBUF_E_INVALID_ARGUMENT;
            }
            slots[next++] = (uint64_t)name_bytes << 32 | offset;
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
    /* The index is the caller's memory: a count past its slots would send
     * the search past the caller's array. */
    if (index->object_count > index->slot_count) {
        return false;
    }
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

/* Where an instance's parent is: its offset and code page, and with the
 * block index its slot there. */
typedef struct parent_place {
    size_t offset;
    size_t slot;
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

bool pb_v1_first_of_title(const perfbuf_v1_block *b, const perfbuf_v1_instance_index *index,
                          const perfbuf_v1_object *o)
{
    size_t slot;
    perfbuf_v1_object first;
    return is_block_index(b, index) &&
           block_index_object(b, index, o->name_title_index, &slot, &first) &&
           first.offset == o->offset;
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
    place->slot = 0;
    if (by_block_index) {
        place->slot = slot + 1 + inst->parent_instance;
        uint64_t entry = index->slots[place->slot];
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
/*@ requires pb_v1_block_ok(b) && \valid(span);
    assigns *span;
    ensures \result ==> pb_valid(span);
*/
static bool name_span(const perfbuf_v1_block *b, size_t offset, pb_cursor *span)
{
    pb_cursor all;
    all = pb_window(b->data, b->size, offset, b->size);
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
/*@ requires pb_v1_block_ok(b) && \valid_read(o) && \valid_read(inst);
    assigns \nothing;
*/
static bool instance_of_block(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                              const perfbuf_v1_instance *inst)
{
    if (!pb_v1_object_of_block(b, o) || inst->offset < o->data_offset ||
        inst->offset - o->data_offset >= o->total_length - o->definition_length) {
        return false;
    }
    pb_cursor all;
    all = pb_window(b->data, b->size, inst->offset, b->size);
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

perfbuf_status pb_v1_parent_slot(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                 const perfbuf_v1_instance *inst,
                                 const perfbuf_v1_instance_index *index, size_t *slot,
                                 perfbuf_v1_instance *parent)
{
    if (!is_block_index(b, index) || !instance_of_block(b, o, inst)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    parent_place place = {0};
    perfbuf_status st = locate_parent(b, o, inst, index, &place, NULL);
    if (st != PERFBUF_OK) {
        return st;
    }
    pb_cursor c = pb_v1_window(b, place.offset, b->size);
    if (!pb_v1_view_instance(&c, b->parse_id, place.code_page, &place.name_bytes, parent)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    parent->index = inst->parent_instance;
    *slot = place.slot;
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

/*
 * Whole-object full names (perfbuf_v1_full_names_object). The output is
 * written in order; once a name does not fit the pass stops writing and
 * only adds each remaining name's bound, without converting.
 */
typedef struct names_pass {
    char *out;
    size_t cap;
    size_t pos;      /* bytes written */
    size_t needed;   /* saturating: bytes written, then bounds */
    bool writing;
} names_pass;

static void add_saturating(size_t *total, size_t n)
{
    *total = n > SIZE_MAX - *total ? SIZE_MAX : *total + n;
}

/* The most UTF-8 a name of `bytes` bytes in code_page can become. */
static size_t utf8_bound(uint32_t code_page, size_t bytes)
{
    size_t items = code_page == 0 ? bytes / 2 + bytes % 2 : bytes;
    return items > SIZE_MAX / PB_UTF8_MAX_PER_ITEM ? SIZE_MAX : items * PB_UTF8_MAX_PER_ITEM;
}

/* A parent's part as an earlier record of this call holds it: the record
 * must be before `i` (written by this call) and name the same parent, and
 * its text must lie in what was written, so any scratch contents are safe. */
static bool earlier_parent(const perfbuf_v1_full_name *names, size_t candidate, size_t i,
                           size_t slot, size_t pos)
{
    /* A slot that does not fit a record (an index whose slot_count was
     * changed) is never remembered: UINT32_MAX marks "no parent". */
    return slot < PERFBUF_V1_FULL_NAME_NO_PARENT && candidate < i &&
           names[candidate].parent_slot == slot &&
           names[candidate].offset <= pos &&
           names[candidate].parent_length <= pos - names[candidate].offset;
}

/* Whether none of a word's four UTF-16 units is 0, each known below 0x80:
 * 0x7F added to a unit sets its bit 7 unless the unit is 0, and no sum
 * carries out of its unit. */
static bool ascii_units_nonzero(uint64_t units)
{
    const uint64_t bit7 = 0x0080008000800080u;
    return ((units + 0x007F007F007F007Fu) & bit7) == bit7;
}

/*
 * The ASCII run at the front of a UTF-16 name, written while it fits: 8
 * units per step while 8 are ASCII and not 0, then 4 once, then one at a
 * time. True when the name ended (its terminator or its span's end) within
 * the run; false at a unit that is not ASCII or does not fit, with *name
 * there.
 * Each ASCII unit is the one byte pb_text_convert_to_nul writes for it;
 * while the output is not full its count is exact (core/text.h), so one
 * byte written is one more needed.
 */
static bool utf16_ascii_run(pb_cursor *name, pb_utf8_out *text)
{
    /* Locals the compiler keeps in registers: the output is a char array,
     * through which any store may alias the cursor and the writer. */
    const uint64_t high = 0xFF80FF80FF80FF80u;
    pb_cursor walk = *name;
    char *out = text->buf;
    size_t used = text->used;
    size_t room = text->cap - used;
    bool ended = false;
    for (;;) {
        pb_cursor peek = walk;
        const uint8_t *units;
        if (room < 8 || !pb_cursor_take(&peek, 16, &units)) {
            break;
        }
        uint64_t first = pb_le64(units);
        uint64_t second = pb_le64(units + 8);
        if (((first | second) & high) != 0 || !ascii_units_nonzero(first) ||
            !ascii_units_nonzero(second)) {
            break;
        }
        for (unsigned k = 0; k < 4; k++) {
            out[used + k] = (char)(first >> (16 * k));
            out[used + 4 + k] = (char)(second >> (16 * k));
        }
        used += 8;
        room -= 8;
        walk = peek;
    }
    pb_cursor four_peek = walk;
    const uint8_t *four;
    if (room >= 4 && pb_cursor_take(&four_peek, 8, &four)) {
        uint64_t units = pb_le64(four);
        if ((units & high) == 0 && ascii_units_nonzero(units)) {
            for (unsigned k = 0; k < 4; k++) {
                out[used + k] = (char)(units >> (16 * k));
            }
            used += 4;
            room -= 4;
            walk = four_peek;
        }
    }
    while (room > 0) {
        pb_cursor peek = walk;
        const uint8_t *unit;
        if (!pb_cursor_take(&peek, 2, &unit)) {
            ended = true;
            break;
        }
        if (unit[1] != 0 || unit[0] >= 0x80u) {
            break;
        }
        if (unit[0] == 0) {
            ended = true;
            break;
        }
        out[used++] = (char)unit[0];
        room--;
        walk = peek;
    }
    text->needed += used - text->used;
    text->used = used;
    *name = walk;
    return ended;
}

/*
 * A name's text up to its terminator, as pb_text_convert_to_nul writes it,
 * UTF-16 (code page 0) ASCII taken in runs (most instance names are
 * ASCII, and the general converter spends a call and a decode per unit).
 * From a unit that is not ASCII or does not fit, the rest is the general
 * converter's, so every byte written and every count is its own.
 */
static void convert_name_to_nul(uint32_t code_page, pb_cursor name, pb_utf8_out *text)
{
    if (code_page == 0 && utf16_ascii_run(&name, text)) {
        return;
    }
    pb_text_convert_to_nul(code_page, name, text);
}

/* Writes inst's full name into the pass and its record; false when it
 * does not fit (nothing of it counts then). memo: the earlier record that
 * holds the parent's part (earlier_parent), or SIZE_MAX to convert it. */
static PB_NOINLINE bool write_full_name(const perfbuf_v1_block *b, uint32_t code_page,
                                        pb_cursor name, const parent_place *place,
                                        bool has_parent, size_t memo,
                                        perfbuf_v1_full_name *names, names_pass *p,
                                        perfbuf_v1_full_name *record)
{
    size_t start = p->pos;
    record->offset = start;
    record->parent_length = 0;
    record->parent_slot = PERFBUF_V1_FULL_NAME_NO_PARENT;
    if (has_parent) {
        size_t room = p->cap - p->pos;
        size_t len;
        if (memo != SIZE_MAX) {
            len = names[memo].parent_length;
            if (len >= room) {
                return false;
            }
            memcpy(p->out + p->pos, p->out + names[memo].offset, len);
            /* Counted per 64-byte line moved, as the cursor counts a slice
             * once: the copy is bounded by the cut, so linear in the output. */
            PB_WORK(1 + len / 64);
            record->flags |= names[memo].flags & PERFBUF_V1_FULL_NAME_PARENT_CUT;
        } else {
            pb_cursor span;
            (void)name_span(b, place->offset, &span);
            bool room_cuts = room <= PERFBUF_V1_FULL_NAME_PARENT_MAX_BYTES + 1u;
            pb_utf8_out text;
            pb_utf8_out_init(&text, p->out + p->pos,
                             room_cuts ? room : PERFBUF_V1_FULL_NAME_PARENT_MAX_BYTES + 1u);
            convert_name_to_nul(place->code_page, span, &text);
            if (text.full) {
                /* Cut by the maximum, or by the caller's room. */
                if (room_cuts) {
                    return false;
                }
                record->flags |= PERFBUF_V1_FULL_NAME_PARENT_CUT;
            }
            len = text.used;
        }
        p->pos += len;
        if (p->cap - p->pos < 2) {
            return false;
        }
        p->out[p->pos++] = '/';
        record->parent_length = len;
        record->parent_slot = place->slot < PERFBUF_V1_FULL_NAME_NO_PARENT
                                  ? (uint32_t)place->slot
                                  : PERFBUF_V1_FULL_NAME_NO_PARENT;
    }
    pb_utf8_out text;
    pb_utf8_out_init(&text, p->out + p->pos, p->cap - p->pos);
    convert_name_to_nul(code_page, name, &text);
    if (text.full) {
        return false;
    }
    p->pos += text.used;
    p->out[p->pos++] = '\0';
    record->length = p->pos - 1 - start;
    return true;
}

/* The parent object the previous child's title named: siblings share it,
 * so a call finds it once per run of one parent title, not per child. */
typedef struct parent_object_memo {
    uint32_t title;           /* 0: nothing remembered */
    bool found;
    size_t slot;
    size_t offset;            /* the object's, its instances and code page */
    uint32_t instance_count;
    uint32_t code_page;
} parent_object_memo;

/* Kept out of the caller, whose frame would otherwise hold an object view
 * (the library's frames stay within 512 bytes). */
static PB_NOINLINE void remember_parent_object(const perfbuf_v1_block *b,
                                               const perfbuf_v1_instance_index *index,
                                               uint32_t title, parent_object_memo *memo)
{
    perfbuf_v1_object object;
    memo->title = title;
    memo->found = block_index_object(b, index, title, &memo->slot, &object);
    if (memo->found) {
        memo->offset = object.offset;
        memo->instance_count = object.instance_count;
        memo->code_page = object.code_page;
    }
}

/* locate_parent with the block index, through the memo. */
static perfbuf_status locate_parent_memo(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                         const named_instance *inst,
                                         const perfbuf_v1_instance_index *index,
                                         parent_object_memo *memo, parent_place *place)
{
    if (memo->title != inst->parent_title_index) {
        remember_parent_object(b, index, inst->parent_title_index, memo);
    }
    if (!memo->found) {
        return PERFBUF_E_NOT_FOUND;
    }
    if (inst->parent_instance >= memo->instance_count ||
        (memo->offset == o->offset && inst->parent_instance == inst->index)) {
        return PERFBUF_E_BAD_REFERENCE;
    }
    place->code_page = memo->code_page;
    place->slot = memo->slot + 1 + inst->parent_instance;
    uint64_t entry = index->slots[place->slot];
    place->offset = (size_t)(entry & UINT32_MAX);
    place->name_bytes = (size_t)(entry >> 32);
    place->name_bytes_known = true;
    return PERFBUF_OK;
}

perfbuf_status perfbuf_v1_full_names_object(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                            const perfbuf_v1_instance_index *parent_index,
                                            size_t *scratch, size_t scratch_count,
                                            perfbuf_v1_full_name *names, size_t count, char *out,
                                            size_t cap, size_t *needed)
{
    if (needed != NULL) {
        *needed = 0;
    }
    if (b == NULL || o == NULL || (names == NULL && count != 0) || (out == NULL && cap != 0) ||
        (scratch == NULL && scratch_count != 0) || !pb_v1_object_of_block(b, o) ||
        foreign_index(b, parent_index)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    bool block_form = is_block_index(b, parent_index);
    if (scratch != NULL && (!block_form || scratch_count < parent_index->slot_count)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (!code_page_known(o->code_page)) {
        return PERFBUF_E_UNKNOWN_VALUE;
    }
    names_pass p = {out, cap, 0, 0, count >= o->instance_count};
    bool bad_reference = false;
    size_t last = SIZE_MAX; /* the last record with a parent's part */
    parent_object_memo parent_object = {0, false, 0, 0, 0, 0};
    uint32_t code_page = o->code_page;
    pb_cursor walk = pb_v1_view_window(b, o->data_offset, o->offset + o->total_length);
    named_instance inst;
    for (inst.index = 0; inst.index < o->instance_count; inst.index++) {
        pb_v1_prefetch_ahead(&walk, PB_V1_PREFETCH_AHEAD);
        if (!next_named_instance(&walk, code_page, &inst)) {
            break;
        }
        PB_WORK(1);
        parent_place place = {0, 0, 0, false, 0};
        perfbuf_status parent_st = PERFBUF_E_NOT_FOUND;
        if (inst.parent_title_index != 0) {
            if (!block_form) {
                return PERFBUF_E_SCRATCH_NEEDED;
            }
            parent_st = locate_parent_memo(b, o, &inst, parent_index, &parent_object, &place);
        }
        /* A parent an earlier record of this call holds needs neither its
         * span read again nor a conversion. */
        bool parent_named = parent_st == PERFBUF_OK && code_page_known(place.code_page);
        size_t memo = SIZE_MAX;
        if (parent_named && p.writing) {
            memo = scratch != NULL ? scratch[place.slot] : last;
            memo = earlier_parent(names, memo, inst.index, place.slot, p.pos) ? memo : SIZE_MAX;
        }
        pb_cursor span;
        bool has_parent = parent_named && (memo != SIZE_MAX || name_span(b, place.offset, &span));
        bad_reference = bad_reference || parent_st == PERFBUF_E_BAD_REFERENCE;
        /* UTF-16 is converted up to its terminator from the whole span,
         * which writes what the text before the terminator gives; a code
         * page's text is cut at its terminator first, as the views cut it. */
        pb_cursor name = code_page == 0 ? inst.name : name_text(code_page, inst.name);
        if (p.writing) {
            perfbuf_v1_full_name *record = &names[inst.index];
            record->flags = parent_st == PERFBUF_E_BAD_REFERENCE ? PERFBUF_V1_FULL_NAME_BAD_PARENT : 0;
            size_t start = p.pos;
            if (write_full_name(b, code_page, name, &place, has_parent, memo, names, &p,
                                record)) {
                if (has_parent) {
                    last = inst.index;
                    if (scratch != NULL) {
                        scratch[place.slot] = inst.index;
                    }
                }
                continue;
            }
            p.writing = false;
            p.pos = start;
            p.needed = start;
        }
        if (has_parent) {
            size_t part = utf8_bound(place.code_page, place.name_bytes);
            add_saturating(&p.needed, (part < PERFBUF_V1_FULL_NAME_PARENT_MAX_BYTES
                                           ? part
                                           : PERFBUF_V1_FULL_NAME_PARENT_MAX_BYTES) + 1u);
        }
        if (code_page == 0) {
            name = name_text(code_page, name);
        }
        add_saturating(&p.needed, utf8_bound(code_page, pb_cursor_remaining(&name)));
        add_saturating(&p.needed, 1u);
    }
    if (!p.writing) {
        if (p.out != NULL && p.cap > 0) {
            p.out[0] = '\0';
        }
        if (needed != NULL) {
            *needed = p.needed;
        }
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    if (needed != NULL) {
        *needed = p.pos;
    }
    return bad_reference ? PERFBUF_E_BAD_REFERENCE : PERFBUF_OK;
}

/*
 * Name classes. An instance's name by its slot in the block index: the
 * span its NameLength gives, cut to the length the slot records (the
 * text before its terminator, as the views give it). The slots are the
 * caller's memory: a tampered one names other bytes of the block, never
 * bytes outside it.
 */
static pb_cursor slot_name(const perfbuf_v1_block *b, const perfbuf_v1_instance_index *index,
                           uint32_t slot)
{
    uint64_t entry = index->slots[slot];
    pb_cursor span;
    if (!name_span(b, (size_t)(entry & UINT32_MAX), &span)) {
        return pb_v1_window(b, 0, 0);
    }
    pb_cursor name;
    if (pb_cursor_slice(&span, 0, (size_t)(entry >> 32), &name)) {
        return name;
    }
    return span;
}

/* While the classes are built: the low half of entry r is the slot of the
 * r-th instance in name order, the high half of an instance's own slot
 * its code page, then its class. */
static uint32_t low_half(uint64_t v)
{
    return (uint32_t)(v & UINT32_MAX);
}

static uint32_t high_half(uint64_t v)
{
    return (uint32_t)(v >> 32);
}

static void set_low_half(uint64_t *v, uint32_t half)
{
    *v = (*v & ~(uint64_t)UINT32_MAX) | half;
}

/* An instance's name as the sort reads it: its text, code page and slot. */
typedef struct sort_name {
    pb_cursor text;
    uint32_t code_page;
    uint32_t slot;
} sort_name;

/* The name of the instance ranked `rank`, whose code page its own slot's
 * high half holds while the sort runs. */
static sort_name name_ranked(const perfbuf_v1_block *b, const perfbuf_v1_instance_index *index,
                             const uint64_t *classes, size_t rank)
{
    sort_name name;
    name.slot = low_half(classes[rank]);
    name.code_page = high_half(classes[name.slot]);
    name.text = slot_name(b, index, name.slot);
    return name;
}

/* Names in lookup order, then slots: a strict total order, so that the
 * first of equal names in sorted order is the first in the block. */
static int name_order(const sort_name *x, const sort_name *y)
{
    int by_name = pb_text_compare(x->code_page, x->text, y->code_page, y->text);
    if (by_name != 0) {
        return by_name;
    }
    return x->slot < y->slot ? -1 : (x->slot > y->slot ? 1 : 0);
}

/*
 * Heapsort's sift over the low halves of classes[0, n). The sifted name is
 * compared with the left child first, and the right child with the larger
 * of the two, so each comparison has the sifted name on one side or else
 * moves the larger child up, and stops within the shorter of its names:
 * charged to the sifted name or to the name that moves up. A name is
 * sifted at most twice (O(log n) levels each) and moves up O(log n) times
 * in all, so the sort reads O((name bytes + instances) x log n)
 * characters (docs/v1.md).
 */
static void sift_names(const perfbuf_v1_block *b, const perfbuf_v1_instance_index *index,
                       uint64_t *classes, size_t root, size_t n)
{
    sort_name moving = name_ranked(b, index, classes, root);
    for (;;) {
        PB_WORK(1);
        size_t left = 2 * root + 1;
        if (left >= n) {
            return;
        }
        size_t largest = root;
        sort_name left_name = name_ranked(b, index, classes, left);
        const sort_name *largest_name = &moving;
        if (name_order(&left_name, &moving) > 0) {
            largest = left;
            largest_name = &left_name;
        }
        if (left + 1 < n) {
            sort_name right_name = name_ranked(b, index, classes, left + 1);
            if (name_order(&right_name, largest_name) > 0) {
                largest = left + 1;
            }
        }
        if (largest == root) {
            return;
        }
        /* The larger child moves up; the sifted name, still `moving`,
         * moves down. */
        set_low_half(&classes[root], low_half(classes[largest]));
        set_low_half(&classes[largest], moving.slot);
        root = largest;
    }
}

static void sort_names(const perfbuf_v1_block *b, const perfbuf_v1_instance_index *index,
                       uint64_t *classes, size_t n)
{
    for (size_t i = n / 2; i > 0; i--) {
        PB_WORK(1);
        sift_names(b, index, classes, i - 1, n);
    }
    for (size_t end = n; end > 1; end--) {
        PB_WORK(1);
        uint32_t top = low_half(classes[0]);
        set_low_half(&classes[0], low_half(classes[end - 1]));
        set_low_half(&classes[end - 1], top);
        sift_names(b, index, classes, 0, end - 1);
    }
}

perfbuf_status perfbuf_v1_block_index_classes(const perfbuf_v1_block *b,
                                              perfbuf_v1_instance_index *index, uint64_t *classes,
                                              size_t cap)
{
    if (b == NULL || index == NULL || (classes == NULL && cap != 0) || !is_block_index(b, index)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    index->name_classes = NULL;
    if (cap < index->slot_count) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    /* The build refuses a block whose slots do not fit in 32 bits. */
    if (index->slot_count > UINT32_MAX) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    for (size_t s = 0; s < index->slot_count; s++) {
        PB_WORK(1);
        classes[s] = 0;
    }
    /* The slots the build gave each instance, walking the block as it did. */
    size_t instances = 0;
    size_t slot = index->object_count;
    perfbuf_v1_iter oi;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(b, &oi);
    while (perfbuf_v1_objects_next(b, &oi, &o)) {
        slot++;
        perfbuf_v1_iter ii;
        perfbuf_v1_instance inst;
        perfbuf_v1_instances_begin(&o, &ii);
        while (perfbuf_v1_instances_next(b, &ii, &inst)) {
            if (slot >= index->slot_count) {
                return PERFBUF_E_INVALID_ARGUMENT;
            }
            classes[instances++] |= (uint32_t)slot;
            classes[slot] |= (uint64_t)o.code_page << 32;
            slot++;
        }
    }
    sort_names(b, index, classes, instances);
    /* Equal names are neighbours now, the first of each run the first in
     * the block: every instance's class is that one's slot. */
    sort_name previous = {pb_v1_window(b, 0, 0), 0, 0};
    uint32_t first = 0;
    for (size_t r = 0; r < instances; r++) {
        PB_WORK(1);
        sort_name name = name_ranked(b, index, classes, r);
        if (r == 0 || pb_text_compare(previous.code_page, previous.text, name.code_page,
                                      name.text) != 0) {
            first = name.slot;
        }
        classes[name.slot] = (uint64_t)first << 32 | low_half(classes[name.slot]);
        previous = name;
    }
    index->name_classes = classes;
    return PERFBUF_OK;
}

/*
 * The class of the names equal to a query's parent part: one pass over the
 * block's instances that stops at the first equal name, each comparison
 * within that name's own characters, so O(the block's bytes + the parent
 * part). False when no name of the block is equal: no parent can match.
 */
PB_NOINLINE static bool query_class(const perfbuf_v1_block *b,
                                    const perfbuf_v1_instance_index *index,
                                    const char *parent_name, size_t parent_len,
                                    uint32_t *name_class)
{
    size_t slot = index->object_count;
    perfbuf_v1_iter oi;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(b, &oi);
    while (perfbuf_v1_objects_next(b, &oi, &o)) {
        slot++;
        perfbuf_v1_iter ii;
        perfbuf_v1_instance inst;
        perfbuf_v1_instances_begin(&o, &ii);
        while (perfbuf_v1_instances_next(b, &ii, &inst)) {
            if (slot >= index->slot_count) {
                return false;
            }
            if (pb_text_equals_utf8(inst.code_page, name_window(b, &inst), parent_name,
                                    parent_len)) {
                *name_class = high_half(index->name_classes[slot]);
                return true;
            }
            slot++;
        }
    }
    return false;
}

/*
 * Whether inst's parent is in parent_class. The parent's entry is the
 * caller's memory: it must still name an instance's name (O(1)), as a
 * comparison would. Apart from perfbuf_v1_find_instance so that its frame
 * holds no parent's place.
 */
PB_NOINLINE static bool parent_in_class(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                        const perfbuf_v1_instance *inst,
                                        const perfbuf_v1_instance_index *parent_index,
                                        uint32_t parent_class)
{
    parent_place place;
    pb_cursor span;
    return locate_parent(b, o, inst, parent_index, &place, NULL) == PERFBUF_OK &&
           code_page_known(place.code_page) && name_span(b, place.offset, &span) &&
           high_half(parent_index->name_classes[place.slot]) == parent_class;
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
    /* The parent part is compared with the block's names once, at the
     * first candidate; each candidate's parent then matches by its class. */
    bool class_looked_up = false;
    bool class_found = false;
    uint32_t parent_class = 0;
    uint32_t seen = 0;
    perfbuf_v1_iter it;
    perfbuf_v1_instances_begin(o, &it);
    while (perfbuf_v1_instances_next(b, &it, out)) {
        bool match;
        if (parent_name != NULL && out->parent_title_index != 0) {
            if (!is_block_index(b, parent_index) || parent_index->name_classes == NULL) {
                return PERFBUF_E_SCRATCH_NEEDED;
            }
            match = pb_text_equals_utf8(out->code_page, name_window(b, out), name, name_len);
            if (match && !class_looked_up) {
                class_looked_up = true;
                class_found = query_class(b, parent_index, parent_name, parent_len, &parent_class);
            }
            match = match && class_found &&
                    parent_in_class(b, o, out, parent_index, parent_class);
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
