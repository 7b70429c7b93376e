/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Formatted and raw arrays of one V2 counter over a pairing
 * (docs/collector.md). As for V1: one pass selects and sizes, and only when
 * everything fits do the fill passes run, so OUTPUT_TOO_SMALL writes
 * nothing of the caller's. The fill first walks the older block once and
 * keeps each matched instance's sample in the pairing's scratch, so no
 * older instance is looked up by position.
 */
#include "perfbuf/collector.h"

#include "core/cursor.h"
#include "core/work.h"
#include "collector/internal.h"

typedef struct v2_array {
    const perfbuf_v2_pairing *p;
    const perfbuf_v2_reginfo *reg;
    uint32_t counter_id;
    const perfbuf_counter_path *path;
    uint32_t flags;
    bool raw;
    perfbuf_formatted_item *items;
    perfbuf_raw_item *raw_items;
    char *strings;
    size_t item_cap, string_cap;
    size_t item_count, string_bytes;
    /* The instance fill_item is writing: its position among the newer
     * capture's instances, or PERFBUF_ITEM_NO_INSTANCE; the older
     * instance its key paired it with, or PERFBUF_ITEM_NO_INSTANCE. */
    uint32_t position;
    uint32_t older_position;
} v2_array;

static bool has_instances(const perfbuf_v2_block *b)
{
    return b->kind == PERFBUF_V2_MULTIPLE_INSTANCES || b->kind == PERFBUF_V2_COUNTERSET;
}

static bool has_values(const perfbuf_v2_block *b)
{
    return b->kind == PERFBUF_V2_SINGLE_COUNTER || b->kind == PERFBUF_V2_MULTIPLE_COUNTERS;
}

static bool selected(const v2_array *a, const perfbuf_v2_instance *inst, uint32_t ordinal)
{
    const perfbuf_counter_path *path = a->path;
    if (path == NULL) {
        return true;
    }
    if ((path->flags & PERFBUF_PATH_HAS_INSTANCE) == 0) {
        return false;
    }
    char *text = a->p->text;
    size_t len = 0;
    perfbuf_status st = perfbuf_v2_instance_name_utf8(a->p->newer, inst, text,
                                                      PB_NAME_TEXT_BYTES, &len);
    bool wildcard = (path->flags & PERFBUF_PATH_INSTANCE_WILDCARD) != 0;
    bool prefix = (path->flags & PERFBUF_PATH_INSTANCE_PREFIX) != 0;
    if (st != PERFBUF_OK) {
        /* Longer than any path part: a prefix still compares with the
         * part that was converted. */
        if (st != PERFBUF_E_OUTPUT_TOO_SMALL || (!wildcard && !prefix)) {
            return false;
        }
        len = pb_cut_name_bytes(text);
    }
    uint32_t index = ordinal == PERFBUF_PAIR_NO_ORDINAL ? UINT32_MAX : ordinal;
    return perfbuf_path_instance_matches(path, "", 0, text, len, index);
}

static uint32_t sample_failure(perfbuf_status st)
{
    return st == PERFBUF_E_INVALID_ARGUMENT ? PERFBUF_PDH_INVALID_ARGUMENT
                                            : PERFBUF_CSTATUS_INVALID_DATA;
}

static void fill_item(v2_array *a, const perfbuf_v2_instance *inst, uint32_t pairing,
                      uint32_t ordinal, const perfbuf_raw_sample *older)
{
    const perfbuf_v2_pairing *p = a->p;
    char *name = a->strings + a->string_bytes;
    size_t room = a->string_cap - a->string_bytes;
    size_t len = 0;
    if (inst != NULL &&
        perfbuf_v2_instance_name_utf8(p->newer, inst, name, room, &len) != PERFBUF_OK &&
        len >= room) {
        len = 0; /* cannot happen: the sizing pass made room */
    }
    size_t suffix = pb_ordinal_suffix_bytes(ordinal);
    if (len + suffix >= room) {
        suffix = 0;
    }
    pb_write_ordinal_suffix(name + len, ordinal, suffix);
    len += suffix;
    name[len] = '\0';
    a->string_bytes += len + 1;

    perfbuf_raw_sample newer = {0};
    perfbuf_value_context context = {0};
    perfbuf_status st = perfbuf_v2_raw_sample(p->newer, &p->newer_block, inst, a->reg,
                                              a->counter_id, &newer, &context);
    if (st != PERFBUF_OK) {
        newer = (perfbuf_raw_sample){0};
        newer.status = sample_failure(st);
    }
    bool has_older = older != NULL;
    if (a->raw) {
        perfbuf_raw_item *it = &a->raw_items[a->item_count];
        *it = (perfbuf_raw_item){0};
        it->name = name;
        it->name_len = len;
        it->pairing = pairing;
        it->position = a->position;
        it->object = a->p->newer_block.index;
        it->counter = a->counter_id;
        it->older_position = a->older_position;
        it->has_older = has_older;
        if (has_older) {
            it->older = *older;
        }
        it->newer = newer;
        it->context = context;
    } else {
        perfbuf_formatted_item *it = &a->items[a->item_count];
        *it = (perfbuf_formatted_item){0};
        it->name = name;
        it->name_len = len;
        it->pairing = pairing;
        it->position = a->position;
        it->object = a->p->newer_block.index;
        it->counter = a->counter_id;
        if (st == PERFBUF_OK) {
            (void)perfbuf_format_value(newer.type, &newer, older, &context, a->flags, &it->value);
        } else {
            it->value.status = newer.status;
            it->value.format = a->flags;
        }
    }
    a->item_count++;
}

/* The older block's samples of the matched instances, into the scratch. */
static void load_older_samples(const v2_array *a)
{
    const perfbuf_v2_pairing *p = a->p;
    uint32_t n_new = has_instances(&p->newer_block) ? p->newer_block.instance_count : 0;
    for (uint32_t i = 0; i < n_new; i++) {
        PB_WORK(1);
        p->older_samples[(size_t)i * PB_V2_SAMPLE_SLOTS + 3] = 0;
    }
    if (!p->has_older || !has_instances(&p->older_block)) {
        return;
    }
    perfbuf_v2_iter it;
    perfbuf_v2_instance inst;
    uint32_t j = 0;
    uint32_t n_old = p->older_block.instance_count;
    perfbuf_v2_instances_begin(&p->older_block, &it);
    while (j < n_old && perfbuf_v2_instances_next(p->older, &p->older_block, &it, &inst)) {
        uint64_t partner = p->older_to_newer[j];
        if (partner != 0 && partner <= n_new) {
            perfbuf_raw_sample s;
            perfbuf_value_context c;
            if (perfbuf_v2_raw_sample(p->older, &p->older_block, &inst, a->reg, a->counter_id, &s,
                                      &c) == PERFBUF_OK) {
                pb_store_sample(p->older_samples + (size_t)(partner - 1u) * PB_V2_SAMPLE_SLOTS,
                                &s);
            }
        }
        j++;
    }
}

/*
 * Whether the fill has room for one more item and its name. The sizing
 * pass counted what the fill writes, so it always has, unless the path's
 * text changed under the call (it lies in the output, which the fill
 * writes as it walks) and now selects instances the sizing pass did not:
 * the fill then stops at the room, and the caller sees fewer items.
 */
static bool room_for_item(const v2_array *a)
{
    return a->item_count < a->item_cap && a->string_bytes < a->string_cap;
}

static bool walk(v2_array *a, bool fill)
{
    const perfbuf_v2_pairing *p = a->p;
    a->item_count = 0;
    a->string_bytes = 0;
    if (has_values(&p->newer_block)) {
        if (a->path != NULL && (a->path->flags & PERFBUF_PATH_HAS_INSTANCE) != 0) {
            return true;
        }
        if (fill) {
            perfbuf_raw_sample older;
            perfbuf_value_context c;
            bool paired = p->has_older && has_values(&p->older_block) &&
                          perfbuf_v2_raw_sample(p->older, &p->older_block, NULL, a->reg,
                                                a->counter_id, &older, &c) == PERFBUF_OK;
            a->position = PERFBUF_ITEM_NO_INSTANCE;
            a->older_position = PERFBUF_ITEM_NO_INSTANCE;
            fill_item(a, NULL, paired ? PERFBUF_PAIR_MATCHED : PERFBUF_PAIR_NEW, 0,
                      paired ? &older : NULL);
        } else {
            a->item_count = 1;
            a->string_bytes = 1;
        }
        return true;
    }
    if (!has_instances(&p->newer_block)) {
        return true;
    }
    if (fill) {
        load_older_samples(a);
    }
    perfbuf_v2_iter it;
    perfbuf_v2_instance inst;
    uint32_t i = 0;
    perfbuf_v2_instances_begin(&p->newer_block, &it);
    while (perfbuf_v2_instances_next(p->newer, &p->newer_block, &it, &inst)) {
        uint32_t pairing = PERFBUF_PAIR_NEW, ordinal = 0, older_index = 0;
        if (!perfbuf_v2_pairing_instance(p, i, &pairing, &ordinal, &older_index)) {
            break;
        }
        if (selected(a, &inst, ordinal)) {
            if (fill && !room_for_item(a)) {
                break;
            }
            if (fill) {
                perfbuf_raw_sample older;
                bool has_older = pairing == PERFBUF_PAIR_MATCHED &&
                                 pb_load_sample(p->older_samples +
                                                    (size_t)i * PB_V2_SAMPLE_SLOTS,
                                                &older);
                a->position = i;
                a->older_position =
                    pairing == PERFBUF_PAIR_MATCHED ? older_index : PERFBUF_ITEM_NO_INSTANCE;
                fill_item(a, &inst, pairing, ordinal, has_older ? &older : NULL);
            } else {
                size_t len = 0;
                char none[1];
                /* With no room the text contract answers a size that is
                 * enough without converting (perfbuf/text.h). */
                perfbuf_status st = perfbuf_v2_instance_name_utf8(p->newer, &inst, none, 0, &len);
                if (st == PERFBUF_E_INVALID_ARGUMENT) {
                    len = 0;
                }
                size_t bytes = 0;
                if (!pb_add(len, pb_ordinal_suffix_bytes(ordinal) + 1u, &bytes) ||
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
 * Whether the caller's items or strings overlap the pairing's scratch as
 * the array calls use it: from the name area at its start to the older
 * samples at its end (matches and older positions lie between). Writing an
 * item there would change the pairing under the call. O(1).
 */
static bool output_overlaps_scratch(const v2_array *a, size_t item_bytes)
{
    const perfbuf_v2_pairing *p = a->p;
    size_t n_new = has_instances(&p->newer_block) ? p->newer_block.instance_count : 0;
    const uint64_t *end = p->older_samples + n_new * PB_V2_SAMPLE_SLOTS;
    pb_region scratch = {p->text, (size_t)((const char *)end - p->text)};
    const void *items = a->raw ? (const void *)a->raw_items : (const void *)a->items;
    return pb_regions_overlap(scratch, (pb_region){items, item_bytes}) ||
           pb_regions_overlap(scratch, (pb_region){a->strings, a->string_cap});
}

static perfbuf_status array(v2_array *a, size_t *item_count, size_t *string_bytes)
{
    const perfbuf_v2_pairing *p = a->p;
    if (p == NULL || p->newer == NULL || p->matches == NULL || p->text == NULL ||
        p->older_samples == NULL || a->reg == NULL || item_count == NULL ||
        string_bytes == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    a->item_cap = (a->items == NULL && a->raw_items == NULL) ? 0 : *item_count;
    a->string_cap = a->strings == NULL ? 0 : *string_bytes;
    size_t item_size = a->raw ? sizeof(perfbuf_raw_item) : sizeof(perfbuf_formatted_item);
    size_t item_bytes;
    if (!pb_mul(a->item_cap, item_size, &item_bytes) || output_overlaps_scratch(a, item_bytes)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_v2_counter_reg c;
    if (perfbuf_v2_reginfo_find(a->reg, a->counter_id, &c) != PERFBUF_OK) {
        *item_count = 0;
        *string_bytes = 0;
        return PERFBUF_E_NOT_FOUND;
    }
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

perfbuf_status perfbuf_v2_formatted_array(const perfbuf_v2_pairing *p,
                                          const perfbuf_v2_reginfo *reg, uint32_t counter_id,
                                          const perfbuf_counter_path *path, uint32_t flags,
                                          perfbuf_formatted_item *items, size_t *item_count,
                                          char *strings, size_t *string_bytes)
{
    v2_array a = {.p = p, .reg = reg, .counter_id = counter_id, .path = path, .flags = flags,
                  .items = items, .strings = strings};
    return array(&a, item_count, string_bytes);
}

perfbuf_status perfbuf_v2_raw_array(const perfbuf_v2_pairing *p, const perfbuf_v2_reginfo *reg,
                                    uint32_t counter_id, const perfbuf_counter_path *path,
                                    perfbuf_raw_item *items, size_t *item_count, char *strings,
                                    size_t *string_bytes)
{
    v2_array a = {.p = p, .reg = reg, .counter_id = counter_id, .path = path, .raw = true,
                  .raw_items = items, .strings = strings};
    return array(&a, item_count, string_bytes);
}
