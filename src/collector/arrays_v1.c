/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Formatted and raw arrays of one counter over a pairing, as
 * PdhGetFormattedCounterArray and PdhGetRawCounterArray return them
 * (docs/collector.md). Two passes over the newer capture's instances: one
 * selects and sizes, the second, only when everything fits, fills. So a
 * call that returns OUTPUT_TOO_SMALL has written nothing of the caller's.
 */
#include "perfbuf/collector.h"

#include <stdint.h>

#include "perfbuf/counter_types.h"
#include "core/check.h"
#include "core/cursor.h"
#include "core/order.h"
#include "core/text.h"
#include "core/work.h"
#include "v1/internal.h"
#include "collector/internal.h"

/* An array item's parent part and perfbuf_v1_full_names_object's are cut
 * by one rule, so the two name a child alike. */
_Static_assert(PERFBUF_ARRAY_PARENT_MAX_BYTES == PERFBUF_V1_FULL_NAME_PARENT_MAX_BYTES,
               "one cut for a parent's part");

/* A counter's definition and the one after it (its base or multi base). */
typedef struct definition {
    bool found;
    perfbuf_v1_counter counter;
    bool has_next;
    perfbuf_v1_counter next;
} definition;

static definition find_definition(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                  uint32_t title)
{
    definition d = {0};
    perfbuf_v1_iter it;
    perfbuf_v1_counter c;
    perfbuf_v1_counters_begin(o, &it);
    while (perfbuf_v1_counters_next(b, &it, &c)) {
        if (d.found) {
            d.has_next = true;
            d.next = c;
            break;
        }
        if (c.name_title_index == title) {
            d.found = true;
            d.counter = c;
        }
    }
    return d;
}

static bool same_layout(const perfbuf_v1_counter *a, const perfbuf_v1_counter *b)
{
    return a->type == b->type && a->size == b->size && a->counter_offset == b->counter_offset;
}

/* Whether a sample of the older definition may be paired with the newer's. */
static bool definitions_agree(const definition *older, const definition *newer)
{
    if (!older->found || !same_layout(&older->counter, &newer->counter)) {
        return false;
    }
    const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(newer->counter.type);
    bool uses_next = info != NULL && (info->needs_base || info->needs_multi);
    if (!uses_next) {
        return true;
    }
    return older->has_next == newer->has_next &&
           (!newer->has_next || same_layout(&older->next, &newer->next));
}

typedef struct array_call {
    const perfbuf_v1_pairing *p;
    const perfbuf_counter_path *path;
    definition newer_def;
    definition older_def;
    bool agree;
    uint32_t flags;
    bool raw;
    perfbuf_formatted_item *items;
    perfbuf_raw_item *raw_items;
    char *strings;
    size_t item_cap, string_cap;
    size_t item_count, string_bytes;
    /* The path without its parent part: a named parent is compared here,
     * against the parent's own bytes, never converted. */
    perfbuf_counter_path instance_part;
    bool named_parent;
    /* The instance fill_item is writing: its position among the newer
     * capture's instances, or PERFBUF_ITEM_NO_INSTANCE; the older
     * instance its key paired it with, or PERFBUF_ITEM_NO_INSTANCE. */
    uint32_t position;
    uint32_t older_position;
} array_call;

/* How a name reads as UTF-8 in the text area, for matching. */
typedef enum name_reading { NAME_WHOLE, NAME_CUT, NAME_UNREADABLE } name_reading;

/* The whole name, or (NAME_CUT) the first PB_NAME_TEXT_BYTES - 4 or more
 * bytes of a name longer than any path part, which a prefix can still be
 * compared with; a code page perfbuf does not convert is unreadable, so
 * only a wildcard selects it. */
static name_reading matchable_name(const perfbuf_v1_block *b, const perfbuf_v1_instance *inst,
                                char *out, size_t *len)
{
    *len = 0;
    perfbuf_status st = perfbuf_v1_instance_name_utf8(b, inst, out, PB_NAME_TEXT_BYTES, len);
    if (st == PERFBUF_OK) {
        return NAME_WHOLE;
    }
    if (st != PERFBUF_E_OUTPUT_TOO_SMALL) {
        *len = 0;
        return NAME_UNREADABLE;
    }
    *len = pb_cut_name_bytes(out);
    return NAME_CUT;
}

/* Per newer instance, in the pairing's parent answers: the first of its
 * parent's children (by the parent's offset), and whether the parent is
 * the one the path names. */
#define FIRST_OF_PARENT UINT64_C(1)
#define PARENT_NAMED UINT64_C(2)

/* inst's parent as the block index finds it, when its offset fits the
 * sort key (a V1 block is at most 4 GiB, so it always does). */
static bool parent_of(const perfbuf_v1_pairing *p, const perfbuf_v1_instance *inst,
                      perfbuf_v1_instance *parent)
{
    return inst->parent_title_index != 0 &&
           perfbuf_v1_parent(p->newer, &p->newer_object, inst, &p->newer_parents, parent, NULL) ==
               PERFBUF_OK &&
           parent->offset <= UINT32_MAX;
}

/* Whether parent's name is the path's parent part: compared in the
 * parent's own encoding, stopping at the first difference, never
 * converted. */
static bool parent_is_named(const array_call *a, const perfbuf_v1_instance *parent)
{
    const perfbuf_counter_path *path = a->path;
    bool readable = parent->code_page == 0 || perfbuf_codepage_supported(parent->code_page);
    pb_cursor name = pb_v1_view_window(a->p->newer, parent->name_offset,
                                       parent->name_offset + parent->name_bytes);
    return readable && path->parent.length > 0 &&
           pb_text_equals_utf8(parent->code_page, name, path->text + path->parent.offset,
                               path->parent.length);
}

/*
 * Answers, for every newer instance, whether its parent is the one the
 * path names, comparing each distinct parent once: the children are
 * sorted by their parent's offset (heapsort over the pairing's scratch),
 * the first child of each parent compares it in a walk in buffer order,
 * and the others take its answer. Comparing per child cost each child up
 * to the path's parent part when children alternate between parents, and
 * converting the parent per child cost each its parent's whole name.
 * O(i log i) plus each parent's name once. Kept out of array(): it runs
 * once per call, and inlined its name buffers made array()'s frame 528
 * bytes, over the library's 512.
 */
PB_NOINLINE static void answer_parents(const array_call *a)
{
    const perfbuf_v1_pairing *p = a->p;
    uint32_t n = p->newer_object.instance_count;
    uint64_t *by_parent = p->parent_answers;
    uint64_t *state = p->parent_answers + n;
    size_t with_parent = 0;
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst, parent;
    uint32_t i = 0;
    perfbuf_v1_instances_begin(&p->newer_object, &it);
    while (i < n && perfbuf_v1_instances_next(p->newer, &it, &inst)) {
        state[i] = 0;
        if (parent_of(p, &inst, &parent)) {
            by_parent[with_parent++] = (uint64_t)parent.offset << 32 | i;
        }
        i++;
    }
    pb_sort_u64(by_parent, with_parent);
    for (size_t k = 0; k < with_parent; k++) {
        PB_WORK(1);
        if (k == 0 || by_parent[k] >> 32 != by_parent[k - 1] >> 32) {
            state[(uint32_t)by_parent[k]] |= FIRST_OF_PARENT;
        }
    }
    i = 0;
    perfbuf_v1_instances_begin(&p->newer_object, &it);
    while (i < n && perfbuf_v1_instances_next(p->newer, &it, &inst)) {
        if ((state[i] & FIRST_OF_PARENT) != 0 && parent_of(p, &inst, &parent) &&
            parent_is_named(a, &parent)) {
            state[i] |= PARENT_NAMED;
        }
        i++;
    }
    uint64_t named = 0;
    for (size_t k = 0; k < with_parent; k++) {
        PB_WORK(1);
        uint32_t child = (uint32_t)by_parent[k];
        if ((state[child] & FIRST_OF_PARENT) != 0) {
            named = state[child] & PARENT_NAMED;
        } else {
            state[child] |= named;
        }
    }
}

static bool selected(const array_call *a, const perfbuf_v1_instance *inst, uint32_t position,
                     uint32_t ordinal)
{
    const perfbuf_counter_path *path = a->path;
    if (path == NULL) {
        return true;
    }
    if ((path->flags & PERFBUF_PATH_HAS_INSTANCE) == 0) {
        return false;
    }
    const perfbuf_v1_pairing *p = a->p;
    char *name_text = p->text + PB_NAME_TEXT_BYTES;
    size_t name_len = 0;
    uint32_t n = p->newer_object.instance_count;
    if (a->named_parent &&
        (position >= n || (p->parent_answers[n + position] & PARENT_NAMED) == 0)) {
        return false;
    }
    name_reading kind = matchable_name(p->newer, inst, name_text, &name_len);
    bool wildcard = (path->flags & PERFBUF_PATH_INSTANCE_WILDCARD) != 0;
    bool prefix = (path->flags & PERFBUF_PATH_INSTANCE_PREFIX) != 0;
    if ((kind == NAME_UNREADABLE && !wildcard) || (kind == NAME_CUT && !wildcard && !prefix)) {
        return false;
    }
    uint32_t index = ordinal == PERFBUF_PAIR_NO_ORDINAL ? UINT32_MAX : ordinal;
    return perfbuf_path_instance_matches(&a->instance_part, "", 0, name_text, name_len, index);
}

/* inst's parent, when it has one whose name perfbuf converts: the item's
 * name starts with it (a parent that is missing, out of range or in
 * another code page gives the plain name, as perfbuf_v1_full_name_utf8). */
static bool item_parent(const array_call *a, const perfbuf_v1_instance *inst,
                        perfbuf_v1_instance *parent)
{
    const perfbuf_v1_pairing *p = a->p;
    return inst->parent_title_index != 0 &&
           perfbuf_v1_parent(p->newer, &p->newer_object, inst, &p->newer_parents, parent, NULL) ==
               PERFBUF_OK &&
           (parent->code_page == 0 || perfbuf_codepage_supported(parent->code_page));
}

/*
 * The bytes an item's name may take with its suffix and NUL; false when
 * they do not fit a size_t. A parent's part is at most
 * PERFBUF_ARRAY_PARENT_MAX_BYTES, so the string area is linear in the
 * capture however many children share one long parent. Asked with no
 * room, the text contract answers a size that is enough at the cost of no
 * conversion (perfbuf/text.h).
 */
static bool name_bound(const array_call *a, const perfbuf_v1_instance *inst, uint32_t ordinal,
                       size_t *bytes)
{
    size_t parent_len = 0, len = 0;
    perfbuf_v1_instance parent;
    if (item_parent(a, inst, &parent)) {
        perfbuf_status st = perfbuf_v1_instance_name_utf8(a->p->newer, &parent, NULL, 0, &parent_len);
        if (st != PERFBUF_OK && st != PERFBUF_E_OUTPUT_TOO_SMALL) {
            parent_len = 0;
        }
        parent_len = (parent_len < PERFBUF_ARRAY_PARENT_MAX_BYTES ? parent_len
                                                                  : PERFBUF_ARRAY_PARENT_MAX_BYTES) +
                     1u; /* and '/' */
    }
    if (perfbuf_v1_instance_name_utf8(a->p->newer, inst, NULL, 0, &len) == PERFBUF_E_UNKNOWN_VALUE) {
        len = 0;
    }
    return pb_add(len, parent_len, &len) &&
           pb_add(len, pb_ordinal_suffix_bytes(ordinal) + 1u, bytes);
}

/* Writes inst's item name (without its suffix) into out[0 .. room) and
 * returns its length; the first pass sized room to hold it. */
static size_t write_item_name(const array_call *a, const perfbuf_v1_instance *inst, char *out,
                              size_t room)
{
    size_t len = 0;
    perfbuf_v1_instance parent;
    if (room > 1 && item_parent(a, inst, &parent)) {
        size_t cap = room - 1 < PERFBUF_ARRAY_PARENT_MAX_BYTES + 1 ? room - 1
                                                                  : PERFBUF_ARRAY_PARENT_MAX_BYTES + 1;
        size_t parent_len = 0;
        if (perfbuf_v1_instance_name_utf8(a->p->newer, &parent, out, cap, &parent_len) !=
            PERFBUF_OK) {
            /* Cut after the last whole character that fitted. */
            parent_len = 0;
            while (parent_len < cap && out[parent_len] != '\0') {
                PB_WORK(1);
                parent_len++;
            }
        }
        out[parent_len] = '/';
        len = parent_len + 1;
    }
    size_t name_len = 0;
    if (len < room &&
        perfbuf_v1_instance_name_utf8(a->p->newer, inst, out + len, room - len, &name_len) ==
            PERFBUF_OK) {
        len += name_len;
    } else if (len < room) {
        out[len] = '\0';
    }
    return len;
}

static uint32_t sample_failure(perfbuf_status st)
{
    return st == PERFBUF_E_INVALID_ARGUMENT ? PERFBUF_PDH_INVALID_ARGUMENT
                                            : PERFBUF_CSTATUS_INVALID_DATA;
}

static void fill_item(array_call *a, const perfbuf_v1_instance *inst,
                      const perfbuf_v1_counter_block *newer_block, uint32_t pairing,
                      uint32_t ordinal, const perfbuf_v1_counter_block *older_block)
{
    const perfbuf_v1_pairing *p = a->p;
    char *name = a->strings + a->string_bytes;
    size_t room = a->string_cap - a->string_bytes;
    size_t len = inst != NULL ? write_item_name(a, inst, name, room) : 0;
    size_t suffix = pb_ordinal_suffix_bytes(ordinal);
    if (len + suffix >= room) {
        suffix = 0;
    }
    pb_write_ordinal_suffix(name + len, ordinal, suffix);
    len += suffix;
    name[len] = '\0';
    a->string_bytes += len + 1;

    perfbuf_raw_sample newer = {0}, older = {0};
    perfbuf_value_context context = {0}, older_context;
    perfbuf_status st = perfbuf_v1_raw_sample(p->newer, &p->newer_object, &a->newer_def.counter,
                                              newer_block, &newer, &context);
    if (st != PERFBUF_OK) {
        newer = (perfbuf_raw_sample){0};
        newer.status = sample_failure(st);
        newer.type = a->newer_def.counter.type;
    }
    if (!a->agree && pairing == PERFBUF_PAIR_MATCHED) {
        pairing = PERFBUF_PAIR_DEFINITION_CHANGED;
    }
    bool has_older = pairing == PERFBUF_PAIR_MATCHED && older_block != NULL &&
                     perfbuf_v1_raw_sample(p->older, &p->older_object, &a->older_def.counter,
                                           older_block, &older, &older_context) == PERFBUF_OK;
    if (a->raw) {
        perfbuf_raw_item *it = &a->raw_items[a->item_count];
        *it = (perfbuf_raw_item){0};
        it->name = name;
        it->name_len = len;
        it->pairing = pairing;
        it->position = a->position;
        it->object = a->p->newer_object.index;
        it->counter = a->newer_def.counter.name_title_index;
        it->object_title = a->p->newer_object.name_title_index;
        it->older_position = a->older_position;
        it->has_older = has_older;
        it->older = older;
        it->newer = newer;
        it->context = context;
    } else {
        perfbuf_formatted_item *it = &a->items[a->item_count];
        *it = (perfbuf_formatted_item){0};
        it->name = name;
        it->name_len = len;
        it->pairing = pairing;
        it->position = a->position;
        it->object = a->p->newer_object.index;
        it->counter = a->newer_def.counter.name_title_index;
        if (st == PERFBUF_OK) {
            (void)perfbuf_format_value(newer.type, &newer, has_older ? &older : NULL, &context,
                                       a->flags, &it->value);
        } else {
            it->value.status = newer.status;
            it->value.format = a->flags;
        }
    }
    a->item_count++;
}

/*
 * Whether the fill has room for one more item and its name. The sizing
 * pass counted what the fill writes, so it always has, unless the path's
 * text changed under the call (it lies in the output, which the fill
 * writes as it walks) and now selects instances the sizing pass did not:
 * the fill then stops at the room, and the caller sees fewer items.
 */
static bool room_for_item(const array_call *a)
{
    return a->item_count < a->item_cap && a->string_bytes < a->string_cap;
}

/* One pass over the selected items: sizes them, or fills them. */
static bool walk(array_call *a, bool fill)
{
    const perfbuf_v1_pairing *p = a->p;
    a->item_count = 0;
    a->string_bytes = 0;
    if (p->newer_object.num_instances == PERFBUF_V1_NO_INSTANCES) {
        if (a->path != NULL && (a->path->flags & PERFBUF_PATH_HAS_INSTANCE) != 0) {
            return true;
        }
        perfbuf_v1_counter_block nb, ob;
        if (!perfbuf_v1_object_counter_block(p->newer, &p->newer_object, &nb)) {
            return true;
        }
        bool paired = p->has_older &&
                      perfbuf_v1_object_counter_block(p->older, &p->older_object, &ob);
        if (fill) {
            a->position = PERFBUF_ITEM_NO_INSTANCE;
            a->older_position = PERFBUF_ITEM_NO_INSTANCE;
            fill_item(a, NULL, &nb, paired ? PERFBUF_PAIR_MATCHED : PERFBUF_PAIR_NEW, 0,
                      paired ? &ob : NULL);
        } else {
            a->item_count = 1;
            a->string_bytes = 1;
        }
        return true;
    }
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst;
    uint32_t i = 0;
    perfbuf_v1_instances_begin(&p->newer_object, &it);
    while (perfbuf_v1_instances_next(p->newer, &it, &inst)) {
        uint32_t pairing = PERFBUF_PAIR_NEW, ordinal = 0, older_index = 0;
        if (!perfbuf_v1_pairing_instance(p, i, &pairing, &ordinal, &older_index)) {
            break;
        }
        if (selected(a, &inst, i, ordinal)) {
            if (fill && !room_for_item(a)) {
                break;
            }
            if (fill) {
                bool matched = pairing == PERFBUF_PAIR_MATCHED;
                perfbuf_v1_counter_block ob = {0, 0, 0};
                if (matched) {
                    ob = pb_unpack_counter_block(p->older_counters[i], p->older);
                }
                a->position = i;
                a->older_position = matched ? older_index : PERFBUF_ITEM_NO_INSTANCE;
                fill_item(a, &inst, &inst.counters, pairing, ordinal, matched ? &ob : NULL);
            } else {
                size_t bytes;
                if (!name_bound(a, &inst, ordinal, &bytes) ||
                    !pb_add(a->string_bytes, bytes, &a->string_bytes)) {
                    return false;
                }
                a->item_count++;
            }
        }
        i++;
    }
    return true;
}

/*
 * Whether the caller's items or strings overlap what the array calls use
 * of the pairing's scratch: the name area, the matches, older counter
 * blocks and parent answers after it, and both block indexes. Writing an item there would
 * change the pairing under the call. O(1).
 */
static bool output_overlaps_scratch(const array_call *a, size_t item_bytes)
{
    const perfbuf_v1_pairing *p = a->p;
    size_t n_new = p->newer_object.instance_count;
    const void *items = a->raw ? (const void *)a->raw_items : (const void *)a->items;
    const pb_region read[4] = {
        {p->text, (size_t)((const char *)(p->older_counters + n_new) - p->text)},
        {p->parent_answers, 2 * n_new * sizeof(uint64_t)},
        {p->newer_parents.slots, p->newer_parents.slot_count * sizeof(uint64_t)},
        {p->older_parents.slots, p->older_parents.slot_count * sizeof(uint64_t)},
    };
    for (size_t k = 0; k < 4; k++) {
        if (pb_regions_overlap(read[k], (pb_region){items, item_bytes}) ||
            pb_regions_overlap(read[k], (pb_region){a->strings, a->string_cap})) {
            return true;
        }
    }
    return false;
}

static perfbuf_status array(array_call *a, uint32_t counter_title, size_t *item_count,
                            size_t *string_bytes)
{
    const perfbuf_v1_pairing *p = a->p;
    if (p == NULL || p->newer == NULL || p->matches == NULL || p->text == NULL ||
        p->older_counters == NULL || p->parent_answers == NULL || item_count == NULL || string_bytes == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    a->item_cap = (a->items == NULL && a->raw_items == NULL) ? 0 : *item_count;
    a->string_cap = a->strings == NULL ? 0 : *string_bytes;
    size_t item_size = a->raw ? sizeof(perfbuf_raw_item) : sizeof(perfbuf_formatted_item);
    size_t item_bytes;
    if (!pb_mul(a->item_cap, item_size, &item_bytes) || output_overlaps_scratch(a, item_bytes)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (a->path != NULL) {
        a->instance_part = *a->path;
        a->instance_part.flags &= ~PERFBUF_PATH_HAS_PARENT;
        a->named_parent = (a->path->flags & PERFBUF_PATH_HAS_PARENT) != 0 &&
                          (a->path->flags & PERFBUF_PATH_PARENT_WILDCARD) == 0;
        if (a->named_parent && (a->path->flags & PERFBUF_PATH_HAS_INSTANCE) != 0 &&
            p->newer_object.num_instances > 0) {
            answer_parents(a);
        }
    }
    a->newer_def = find_definition(p->newer, &p->newer_object, counter_title);
    if (!a->newer_def.found) {
        *item_count = 0;
        *string_bytes = 0;
        return PERFBUF_E_NOT_FOUND;
    }
    a->older_def = p->has_older ? find_definition(p->older, &p->older_object, counter_title)
                                : (definition){0};
    a->agree = definitions_agree(&a->older_def, &a->newer_def);
    if (!walk(a, false)) {
        return PERFBUF_E_LIMIT_EXCEEDED;
    }
    *item_count = a->item_count;
    *string_bytes = a->string_bytes;
    if (a->item_count > a->item_cap || a->string_bytes > a->string_cap) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    (void)walk(a, true);
    *item_count = a->item_count;
    *string_bytes = a->string_bytes;
    return PERFBUF_OK;
}

perfbuf_status perfbuf_v1_formatted_array(const perfbuf_v1_pairing *p, uint32_t counter_title,
                                          const perfbuf_counter_path *path, uint32_t flags,
                                          perfbuf_formatted_item *items, size_t *item_count,
                                          char *strings, size_t *string_bytes)
{
    array_call a = {.p = p, .path = path, .flags = flags, .items = items, .strings = strings};
    return array(&a, counter_title, item_count, string_bytes);
}

perfbuf_status perfbuf_v1_raw_array(const perfbuf_v1_pairing *p, uint32_t counter_title,
                                    const perfbuf_counter_path *path, perfbuf_raw_item *items,
                                    size_t *item_count, char *strings, size_t *string_bytes)
{
    array_call a = {.p = p, .path = path, .raw = true, .raw_items = items, .strings = strings};
    return array(&a, counter_title, item_count, string_bytes);
}
