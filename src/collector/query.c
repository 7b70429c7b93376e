/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The query (perfbuf/query.h, docs/collector.md): paths resolved on each
 * capture (collector/resolve_v1.c) in every object they name, instances
 * named, ordered and sampled by the V1 pairing and raw array
 * (collector/pairing_v1.c, arrays_v1.c) of each such object with itself
 * alone, and paired with the previous capture through what the arena kept
 * of it: each instance's name, raw sample and key hash.
 * A V2 query resolves its paths once against the registrations
 * (collector/resolve_v2.c) and samples each capture through the V2
 * pairing and raw array (pairing_v2.c, arrays_v2.c) of the capture alone;
 * what it keeps, and how it pairs, is the same, keyed by InstanceId.
 *
 * The arena, from its start: the tables' indexes, then the samples of the
 * capture before the last, then those of the last; a collection moves the
 * last capture's samples down over the older ones, writes the new ones
 * after them, and places the block index and the pairing's scratch at
 * the arena's end.
 */
#include "perfbuf/query.h"

#include <string.h>

#include "core/check.h"
#include "core/cursor.h"
#include "core/work.h"
#include "collector/internal.h"
#include "collector/pair_keys.h"
#include "v1/internal.h"

#define ALIGNMENT 8u

/* The pairing collect_counter keeps in the arena, just below its scratch,
 * rounded to keep the scratch and what lies below aligned: room for either
 * format's. */
#define LARGER_PAIRING                                                   \
    (sizeof(perfbuf_v1_pairing) > sizeof(perfbuf_v2_pairing) ? sizeof(perfbuf_v1_pairing) \
                                                             : sizeof(perfbuf_v2_pairing))
#define PAIRING_BYTES ((LARGER_PAIRING + (ALIGNMENT - 1u)) & ~(size_t)(ALIGNMENT - 1u))
/* A block index's description, before its slots at the arena's end. */
#define INDEX_HEADER \
    ((sizeof(perfbuf_v1_instance_index) + (ALIGNMENT - 1u)) & ~(size_t)(ALIGNMENT - 1u))
_Static_assert(_Alignof(perfbuf_v1_instance_index) <= ALIGNMENT, "the arena aligns it to 8");
_Static_assert(_Alignof(perfbuf_query_samples) <= ALIGNMENT, "the arena aligns it to 8");
/* Before each object's samples in the arena, their description, until
 * collect_counter merges them. */
#define SAMPLES_HEADER \
    ((sizeof(perfbuf_query_samples) + (ALIGNMENT - 1u)) & ~(size_t)(ALIGNMENT - 1u))
_Static_assert(_Alignof(perfbuf_v1_pairing) <= ALIGNMENT, "the arena aligns the pairing to 8");
_Static_assert(_Alignof(perfbuf_v2_pairing) <= ALIGNMENT, "the arena aligns the pairing to 8");

/* How a counter's instances pair besides PDH's name (perfbuf_query_counter.identity). */
enum { IDENTITY_NONE = 0, IDENTITY_UNIQUE_ID = 1, IDENTITY_INSTANCE_ID = 2 };

/* A counter "*" (every displayable counter of the object) or a counter of
 * every definition (perfbuf_query_add_definitions): one item per instance
 * and counter. */
static bool every_counter(const perfbuf_query_counter *c)
{
    return c->every_definition || (c->path.flags & PERFBUF_PATH_COUNTER_WILDCARD) != 0;
}

/* Either format's query was opened. */
static bool opened(const perfbuf_query *q)
{
    return q->english.data != NULL || q->registrations != NULL;
}

static size_t align_up(size_t n)
{
    return (n + (ALIGNMENT - 1u)) & ~(size_t)(ALIGNMENT - 1u);
}

static bool add_size(size_t *total, size_t n)
{
    return pb_add(*total, n, total);
}

/* A hash of a name with ASCII letters folded, as the keys compare them. */
static uint64_t folded_hash(const char *name, size_t len)
{
    uint64_t h = pb_key_mix((uint64_t)len);
    for (size_t i = 0; i < len; i++) {
        PB_WORK(1);
        unsigned char c = (unsigned char)name[i];
        if (c >= 'A' && c <= 'Z') {
            c = (unsigned char)(c + 32u);
        }
        h = pb_key_mix(h ^ c);
    }
    return h & PB_PAIRING_HASH_MASK;
}

static bool folded_equal(const char *a, size_t la, const char *b, size_t lb)
{
    if (la != lb) {
        return false;
    }
    for (size_t i = 0; i < la; i++) {
        PB_WORK(1);
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x >= 'A' && x <= 'Z') {
            x = (unsigned char)(x + 32u);
        }
        if (y >= 'A' && y <= 'Z') {
            y = (unsigned char)(y + 32u);
        }
        if (x != y) {
            return false;
        }
    }
    return true;
}

perfbuf_status perfbuf_query_open(perfbuf_query *q, const void *english, size_t english_len,
                                  const void *localized, size_t localized_len, perfbuf_error *err)
{
    if (q == NULL || english == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    memset(q, 0, sizeof *q);
    perfbuf_status st = perfbuf_names_parse(english, english_len, NULL, &q->english, err);
    if (st == PERFBUF_OK && localized != NULL) {
        st = perfbuf_names_parse(localized, localized_len, NULL, &q->localized, err);
        q->has_localized = st == PERFBUF_OK;
    }
    size_t slots = (size_t)q->english.count + (q->has_localized ? q->localized.count : 0u);
    if (st == PERFBUF_OK && !pb_mul(slots, sizeof(perfbuf_name_slot), &q->fixed_bytes)) {
        st = PERFBUF_E_LIMIT_EXCEEDED;
    }
    if (st != PERFBUF_OK) {
        memset(q, 0, sizeof *q);
        return st;
    }
    q->fixed_bytes = align_up(q->fixed_bytes);
    q->kept_end = q->fixed_bytes;
    return PERFBUF_OK;
}

perfbuf_status perfbuf_query_options(perfbuf_query *q, const perfbuf_options *opts)
{
    if (q == NULL || opts == NULL || !opened(q) || (opts->flags & ~PERFBUF_STRICT) != 0) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    q->options = *opts;
    return PERFBUF_OK;
}

/* Scratch for a buffer whose ids are out of order: one entry per 8 bytes
 * is at least one per counter (a PERF_COUNTER_REG_INFO or a
 * PERF_STRING_COUNTER_HEADER takes more), placed at the arena's start.
 * The parse's SCRATCH_NEEDED is then no failure of the open: *err no
 * longer reports it (LIMIT_EXCEEDED when the arena's size would wrap). */
static bool defer_order(perfbuf_query *q, size_t len, size_t *at, perfbuf_error *err)
{
    *at = q->fixed_bytes;
    bool fits = add_size(&q->fixed_bytes, len / 8u * sizeof(uint64_t));
    if (err != NULL) {
        pb_error_set(err, fits ? PERFBUF_OK : PERFBUF_E_LIMIT_EXCEEDED, 0, "", "");
    }
    return fits;
}

/* One registration's buffers, validated without scratch; ids out of order
 * get theirs from the arena (finish_registration). */
static perfbuf_status open_registration(perfbuf_query *q, perfbuf_query_registration *r,
                                        perfbuf_error *err)
{
    r->reg_order = SIZE_MAX;
    r->names_order = SIZE_MAX;
    r->has_names = false;
    r->has_name = false;
    if (r->reginfo == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_status st = perfbuf_v2_reginfo_parse(r->reginfo, r->reginfo_len, NULL, &r->reg, err);
    if (st == PERFBUF_E_SCRATCH_NEEDED) {
        st = defer_order(q, r->reginfo_len, &r->reg_order, err) ? PERFBUF_OK
                                                            : PERFBUF_E_LIMIT_EXCEEDED;
    }
    if (st == PERFBUF_OK && r->counter_names != NULL) {
        st = perfbuf_v2_strings_parse(r->counter_names, r->counter_names_len,
                                      PERFBUF_V2_STRINGS_AUTO, NULL, &r->names, err);
        if (st == PERFBUF_E_SCRATCH_NEEDED) {
            st = defer_order(q, r->counter_names_len, &r->names_order, err)
                     ? PERFBUF_OK
                     : PERFBUF_E_LIMIT_EXCEEDED;
        }
        r->has_names = st == PERFBUF_OK;
    }
    if (st == PERFBUF_OK && r->counterset_name != NULL) {
        st = perfbuf_v2_string_parse(r->counterset_name, r->counterset_name_len, NULL, &r->name,
                                     err);
        r->has_name = st == PERFBUF_OK;
    }
    return st;
}

perfbuf_status perfbuf_query_open_v2(perfbuf_query *q, perfbuf_query_registration *registrations,
                                     size_t count, perfbuf_error *err)
{
    if (q == NULL || registrations == NULL || count == 0 || count > UINT32_MAX - 1u) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    memset(q, 0, sizeof *q);
    perfbuf_status st = PERFBUF_OK;
    for (size_t i = 0; i < count && st == PERFBUF_OK; i++) {
        PB_WORK(1);
        st = open_registration(q, &registrations[i], err);
    }
    if (st != PERFBUF_OK) {
        memset(q, 0, sizeof *q);
        return st;
    }
    q->registrations = registrations;
    q->registration_count = (uint32_t)count;
    q->fixed_bytes = align_up(q->fixed_bytes);
    q->kept_end = q->fixed_bytes;
    return PERFBUF_OK;
}

/* Whether c may be added to q: q open, without its arena, and c not in
 * it yet. O(counters). */
static bool addable(const perfbuf_query *q, const perfbuf_query_counter *c)
{
    if (q == NULL || c == NULL || !opened(q) || q->arena != NULL) {
        return false;
    }
    for (const perfbuf_query_counter *k = q->first; k != NULL; k = k->next) {
        PB_WORK(1);
        if (k == c) {
            return false;
        }
    }
    return true;
}

/* Links a counter the caller filled at the end of the query's list. */
static void link_counter(perfbuf_query *q, perfbuf_query_counter *c)
{
    if (q->last != NULL) {
        q->last->next = c;
    } else {
        q->first = c;
    }
    q->last = c;
    q->counters++;
}

perfbuf_status perfbuf_query_add(perfbuf_query *q, perfbuf_query_counter *c, const char *path,
                                 size_t len, perfbuf_error *err)
{
    if (path == NULL || !addable(q, c)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_counter_path parsed;
    perfbuf_status st = perfbuf_path_parse(path, len, &parsed, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    if ((parsed.flags & PERFBUF_PATH_COUNTER_WILDCARD) != 0 && q->registrations != NULL) {
        if (err != NULL) {
            *err = (perfbuf_error){PERFBUF_E_PATH_WILDCARD, parsed.counter.offset, "COUNTER_PATH",
                                   "Counter", 0, 0};
        }
        return PERFBUF_E_PATH_WILDCARD;
    }
    memset(c, 0, sizeof *c);
    c->path = parsed;
    c->status = PERFBUF_CSTATUS_ITEM_NOT_VALIDATED;
    c->identity = q->registrations != NULL ? IDENTITY_INSTANCE_ID : IDENTITY_NONE;
    c->registration = UINT32_MAX;
    c->resolution = PERFBUF_CSTATUS_ITEM_NOT_VALIDATED;
    link_counter(q, c);
    return PERFBUF_OK;
}

perfbuf_status perfbuf_query_add_definitions(perfbuf_query *q, perfbuf_query_counter *c)
{
    if (!addable(q, c) || q->registrations != NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    memset(c, 0, sizeof *c);
    c->every_definition = true;
    c->status = PERFBUF_CSTATUS_ITEM_NOT_VALIDATED;
    c->identity = IDENTITY_NONE;
    c->registration = UINT32_MAX;
    c->resolution = PERFBUF_CSTATUS_ITEM_NOT_VALIDATED;
    link_counter(q, c);
    return PERFBUF_OK;
}

/* Whether c was added to q, a V1 query that has no arena yet: the state
 * in which its pairing may still change. O(counters). */
static bool pairing_changeable(const perfbuf_query *q, const perfbuf_query_counter *c)
{
    if (q == NULL || c == NULL || q->arena != NULL || q->registrations != NULL) {
        return false;
    }
    bool added = false;
    for (const perfbuf_query_counter *k = q->first; k != NULL && !added; k = k->next) {
        PB_WORK(1);
        added = k == c;
    }
    return added;
}

perfbuf_status perfbuf_query_pair_by(perfbuf_query *q, perfbuf_query_counter *c, const char *key,
                                     size_t len)
{
    /* A counter of every definition spans objects that have no such key
     * counter: one of them would leave the whole counter without samples. */
    if (key == NULL || len == 0 || len > PERFBUF_PATH_MAX_NAME * 3u ||
        !pairing_changeable(q, c) || c->every_definition) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (len == 1 && key[0] == '*') {
        return PERFBUF_E_PATH_WILDCARD;
    }
    c->by_key = true;
    c->identity = IDENTITY_NONE;
    c->key = (perfbuf_counter_path){.text = key, .text_len = len, .counter = {0, len}};
    return PERFBUF_OK;
}

perfbuf_status perfbuf_query_pair_by_unique_id(perfbuf_query *q, perfbuf_query_counter *c)
{
    if (!pairing_changeable(q, c)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    c->by_key = false;
    c->key = (perfbuf_counter_path){0};
    c->identity = IDENTITY_UNIQUE_ID;
    return PERFBUF_OK;
}

/* The length of an item's name without its "#N": its key's name part when
 * paired by a key counter, the same in both captures. */
static size_t without_ordinal(const char *name, size_t len)
{
    size_t end = len;
    while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') {
        PB_WORK(1);
        end--;
    }
    return end < len && end > 0 && name[end - 1] == '#' ? end - 1 : len;
}

/* Points each kept item's name into the arena at `base`: offsets survive
 * any move of the arena, pointers do not. */
static void rebase_names(perfbuf_query_samples *s, uint8_t *base)
{
    if (!s->valid) {
        return;
    }
    perfbuf_raw_item *items = (perfbuf_raw_item *)(void *)(base + s->items);
    const size_t *offsets = (const size_t *)(const void *)(base + s->name_offsets);
    for (uint32_t i = 0; i < s->count; i++) {
        PB_WORK(1);
        items[i].name = (const char *)(base + s->strings + offsets[i]);
    }
}

/* A registration whose ids are out of order, validated with its scratch
 * at the arena's start, or (moved) pointed at it again. */
static perfbuf_status order_registration(perfbuf_query_registration *r, uint8_t *base,
                                         bool first)
{
    perfbuf_status st = PERFBUF_OK;
    if (r->reg_order != SIZE_MAX) {
        uint64_t *order = (uint64_t *)(void *)(base + r->reg_order);
        if (first) {
            st = perfbuf_v2_reginfo_parse_indexed(r->reginfo, r->reginfo_len, NULL, order,
                                                  r->reginfo_len / 8u, &r->reg, NULL);
        } else {
            r->reg.order = order;
        }
    }
    if (st == PERFBUF_OK && r->names_order != SIZE_MAX) {
        uint64_t *order = (uint64_t *)(void *)(base + r->names_order);
        if (first) {
            st = perfbuf_v2_strings_parse_indexed(r->counter_names, r->counter_names_len,
                                                  PERFBUF_V2_STRINGS_AUTO, NULL, order,
                                                  r->counter_names_len / 8u, &r->names, NULL);
            r->has_names = st == PERFBUF_OK;
        } else {
            r->names.order = order;
        }
    }
    return st;
}

/* Each counter's registration and counter id, found once: a V2 path names
 * the same counter in every capture of the query's registrations. */
static void resolve_v2_paths(perfbuf_query *q)
{
    for (perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
        c->resolution = PERFBUF_CSTATUS_NO_OBJECT;
        for (uint32_t i = 0; i < q->registration_count && c->registration == UINT32_MAX; i++) {
            PB_WORK(1);
            const perfbuf_query_registration *r = &q->registrations[i];
            if (perfbuf_v2_counterset_matches(&r->reg, r->has_name ? &r->name : NULL,
                                              &c->path)) {
                c->registration = i;
            }
        }
        if (c->registration == UINT32_MAX) {
            continue;
        }
        const perfbuf_query_registration *r = &q->registrations[c->registration];
        uint32_t next = 0;
        perfbuf_v2_counter_reg counter;
        if (perfbuf_v2_resolve_counter(&r->reg, r->has_names ? &r->names : NULL, &c->path,
                                       &next, &counter, NULL) == PERFBUF_OK) {
            c->counter_id = counter.id;
            c->resolution = PERFBUF_CSTATUS_VALID_DATA;
        } else {
            c->resolution = PERFBUF_CSTATUS_NO_COUNTER;
        }
    }
}

/* A V2 query's arena: the order of registrations whose ids are out of
 * order at its start, and the first time, the paths resolved. */
static perfbuf_status place_registrations(perfbuf_query *q, uint8_t *base)
{
    bool first = q->arena == NULL;
    perfbuf_status st = PERFBUF_OK;
    for (uint32_t i = 0; i < q->registration_count && st == PERFBUF_OK; i++) {
        PB_WORK(1);
        st = order_registration(&q->registrations[i], base, first);
    }
    if (st == PERFBUF_OK && first) {
        resolve_v2_paths(q);
    }
    return st;
}

perfbuf_status perfbuf_query_arena(perfbuf_query *q, void *arena, size_t *bytes)
{
    if (q == NULL || bytes == NULL || !opened(q)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (arena == NULL || *bytes < q->kept_end) {
        *bytes = q->kept_end;
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    if (((uintptr_t)arena & (ALIGNMENT - 1u)) != 0) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    uint8_t *base = arena;
    perfbuf_name_slot *slots = arena;
    if (q->registrations != NULL) {
        perfbuf_status st = place_registrations(q, base);
        if (st != PERFBUF_OK) {
            return st;
        }
        for (perfbuf_query_counter *c = q->first; c != NULL && q->arena != NULL; c = c->next) {
            rebase_names(&c->older, base);
            rebase_names(&c->newer, base);
        }
    } else if (q->arena == NULL) {
        perfbuf_status st = perfbuf_names_index_build(&q->english, slots, q->english.count,
                                                      &q->english_index);
        if (st == PERFBUF_OK && q->has_localized) {
            st = perfbuf_names_index_build(&q->localized, slots + q->english.count,
                                           q->localized.count, &q->localized_index);
        }
        if (st != PERFBUF_OK) {
            return st;
        }
        q->names = (perfbuf_title_tables){&q->english, &q->english_index,
                                          q->has_localized ? &q->localized : NULL,
                                          q->has_localized ? &q->localized_index : NULL};
    } else {
        /* The caller moved the kept bytes here (realloc, or a copy). */
        q->english_index.slots = slots;
        q->localized_index.slots = slots + q->english.count;
        for (perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
            rebase_names(&c->older, base);
            rebase_names(&c->newer, base);
        }
    }
    q->arena = base;
    q->arena_bytes = *bytes;
    return PERFBUF_OK;
}

/* The last capture's samples become the older ones: moved down to where
 * the kept samples start, their names rebased. The capture before is
 * dropped. Linear in the bytes moved. */
static void shift_generations(perfbuf_query *q)
{
    if (!q->has_newer) {
        return;
    }
    size_t start = SIZE_MAX, end = q->fixed_bytes;
    for (perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
        PB_WORK(1);
        if (c->newer.valid && c->newer.items < start) {
            start = c->newer.items;
        }
    }
    if (start == SIZE_MAX) {
        start = q->kept_end;
    }
    size_t shift = start - q->fixed_bytes;
    uint8_t *base = q->arena;
    memmove(base + q->fixed_bytes, base + start, q->kept_end - start);
    for (perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
        c->older = c->newer;
        if (c->older.valid) {
            c->older.items -= shift;
            c->older.keys -= shift;
            c->older.claims -= shift;
            c->older.name_offsets -= shift;
            c->older.key_values -= shift;
            c->older.strings -= shift;
            rebase_names(&c->older, base);
            size_t e = c->older.strings + c->older.string_bytes;
            end = e > end ? e : end;
        }
        c->newer = (perfbuf_query_samples){0};
    }
    q->kept_end = align_up(end);
    q->has_older = true;
    q->has_newer = false;
}

/* The counter the path names in one object the path names: its title
 * and, for a counter "*", how many displayable counters it spreads to. */
static uint32_t object_counter(const perfbuf_query *q, const perfbuf_query_counter *c,
                               const perfbuf_v1_block *b, const perfbuf_v1_object *object,
                               uint32_t *counter_title, uint32_t *expanded)
{
    const perfbuf_counter_path *path = &c->path;
    perfbuf_v1_iter it;
    perfbuf_v1_counter counter;
    perfbuf_v1_counters_begin(object, &it);
    if (c->every_definition) {
        /* Every definition: the first one's title reads the instances
         * (perfbuf_v1_raw_array), expand_counters the rest. */
        if (!perfbuf_v1_counters_next(b, &it, &counter)) {
            return PERFBUF_CSTATUS_NO_COUNTER;
        }
        *counter_title = counter.name_title_index;
        *expanded = object->counter_count;
        return PERFBUF_CSTATUS_VALID_DATA;
    }
    if (perfbuf_v1_resolve_counter(b, &q->names, path, &it, &counter, NULL, NULL) !=
        PERFBUF_OK) {
        return PERFBUF_CSTATUS_NO_COUNTER;
    }
    *counter_title = counter.name_title_index;
    /* A counter "*" names the first displayable counter and every one
     * after it, in definition order, as perfbuf_v1_resolve_counter lists
     * them: bases are not among them. */
    *expanded = 1;
    while ((path->flags & PERFBUF_PATH_COUNTER_WILDCARD) != 0 &&
           perfbuf_v1_resolve_counter(b, &q->names, path, &it, &counter, NULL, NULL) ==
               PERFBUF_OK) {
        PB_WORK(1);
        (*expanded)++;
    }
    return PERFBUF_CSTATUS_VALID_DATA;
}

/* The next object of b the path names (it: perfbuf_v1_objects_begin), in
 * block order, every object of a title the block repeats included. */
static bool next_object(const perfbuf_query *q, const perfbuf_query_counter *c,
                        const perfbuf_v1_block *b, perfbuf_v1_iter *it, perfbuf_v1_object *out)
{
    if (c->every_definition) {
        return perfbuf_v1_objects_next(b, it, out);
    }
    return perfbuf_v1_resolve_object(b, &q->names, &c->path, it, out, NULL, NULL) == PERFBUF_OK;
}

/* The V2 block a registration answers in capture d: the one at its
 * position, when the provider filled it (dwStatus 0, not an error
 * return). */
static bool registration_block(const perfbuf_query *q, const perfbuf_query_counter *c,
                               const perfbuf_v2_query *d, perfbuf_v2_block *out)
{
    if (c->resolution != PERFBUF_CSTATUS_VALID_DATA) {
        return false;
    }
    uint32_t wanted = q->registrations[c->registration].block;
    perfbuf_v2_iter it;
    perfbuf_v2_blocks_begin(d, &it);
    for (uint32_t i = 0; perfbuf_v2_blocks_next(d, &it, out); i++) {
        PB_WORK(1);
        if (i == wanted) {
            return out->status == 0 && out->kind != PERFBUF_V2_ERROR_RETURN;
        }
    }
    return false;
}

/* The bound's share of one counter: its items (instances + 1, for a block
 * without instances) and their names, twice when a key counter is read
 * the same way. */
static bool bound_counter(const perfbuf_query_counter *c, size_t instances, uint32_t expanded,
                          size_t capture_bytes, size_t *total)
{
    size_t items = 0, names = 0, expanded_items = 0;
    return pb_mul(instances + 1u, expanded, &expanded_items) &&
           pb_mul(expanded_items, PERFBUF_QUERY_ITEM_BYTES, &items) &&
           pb_mul(capture_bytes, PERFBUF_ARRAY_STRING_BYTES_PER_BYTE, &names) &&
           add_size(total, items) && add_size(total, names) && add_size(total, 64u) &&
           (!c->by_key ||
            (add_size(total, items) && add_size(total, names) && add_size(total, 64u)));
}

/* The bound perfbuf_query_collect documents, for the counters as this
 * capture resolves them: what is kept, each counter's instances and
 * names, and the largest pairing scratch with the pairing itself. One of
 * b (V1) and d (V2) is given. Kept out of line: it runs once per call
 * that does not fit, and inlined its locals would add to collect's
 * frame. */
PB_NOINLINE static size_t capture_bound(const perfbuf_query *q, const perfbuf_v1_block *b,
                                        const perfbuf_v2_query *d)
{
    size_t total = q->kept_end, scratch_max = 0;
    bool fits = true;
    for (perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
        size_t slots = 0;
        if (d != NULL) {
            perfbuf_v2_block block;
            if (!registration_block(q, c, d, &block) ||
                perfbuf_v2_pairing_scratch(NULL, &block, &slots) != PERFBUF_OK) {
                continue;
            }
            fits = fits && bound_counter(c, block.instance_count, 1, d->size, &total);
            scratch_max = slots > scratch_max ? slots : scratch_max;
        } else {
            /* Each object the path names; their samples are merged, which
             * takes as much again, and the block index (index_slots). */
            perfbuf_v1_iter objects;
            perfbuf_v1_object o;
            size_t objects_total = 0;
            uint32_t named = 0;
            perfbuf_v1_objects_begin(b, &objects);
            while (next_object(q, c, b, &objects, &o)) {
                uint32_t counter_title = 0, expanded = 1;
                if (object_counter(q, c, b, &o, &counter_title, &expanded) !=
                        PERFBUF_CSTATUS_VALID_DATA ||
                    perfbuf_v1_pairing_scratch_objects(NULL, &o, &slots) != PERFBUF_OK) {
                    continue;
                }
                named++;
                /* An item's name lies in its instance, inside the object,
                 * but for the parent's cut part: PERFBUF_ARRAY_STRING_BYTES_PER_BYTE
                 * of the object's bytes (perfbuf/collector.h). */
                fits = fits && bound_counter(c, o.instance_count, expanded, o.total_length,
                                             &objects_total) &&
                       add_size(&objects_total, SAMPLES_HEADER);
                scratch_max = slots > scratch_max ? slots : scratch_max;
            }
            size_t index_bytes = 0;
            fits = fits && add_size(&total, objects_total) &&
                   (named < 2 || add_size(&total, objects_total)) &&
                   pb_mul(b->index_slots, sizeof(uint64_t), &index_bytes) &&
                   add_size(&total, index_bytes) && add_size(&total, INDEX_HEADER);
        }
    }
    size_t scratch = 0;
    fits = fits && pb_mul(scratch_max, sizeof(uint64_t), &scratch) && add_size(&total, scratch) &&
           add_size(&total, PAIRING_BYTES) && add_size(&total, ALIGNMENT);
    return fits ? total : SIZE_MAX;
}

/* The first of prev's sorted keys whose hash is h, or prev->count. */
static uint32_t find_key(const uint64_t *keys, uint32_t count, uint64_t h)
{
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        PB_WORK(1);
        uint32_t mid = lo + (hi - lo) / 2u;
        if (keys[2u * mid] < h) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo < count && keys[2u * lo] == h ? lo : count;
}

/* Whether an item with this key value pairs by it (a key counter's value,
 * a UniqueID, an InstanceId) rather than by PDH's name alone, and whether
 * its name then drops its #N: a key counter and a UniqueID tell
 * duplicates apart themselves, V2's #N counts within one InstanceId and
 * name, as perfbuf_v2_pair keys them. */
static bool keyed_by_value(const perfbuf_query_counter *c, uint64_t value)
{
    return c->by_key || (c->identity != IDENTITY_NONE && value != 0);
}

static size_t key_name_length(const perfbuf_query_counter *c, uint64_t value, const char *name,
                              size_t len)
{
    bool drops = c->by_key || (c->identity == IDENTITY_UNIQUE_ID && value != 0);
    return drops ? without_ordinal(name, len) : len;
}

static uint64_t item_key(const perfbuf_query_counter *c, uint64_t value, const char *name,
                         size_t len)
{
    uint64_t h = folded_hash(name, key_name_length(c, value, name, len));
    return keyed_by_value(c, value) ? pb_key_mix(h ^ pb_key_mix(value)) & PB_PAIRING_HASH_MASK
                                    : h;
}

/* Whether an item is of a later object of a title the capture repeats
 * (no key says which of them is which in another capture; perfbuf-dump
 * leaves them unpaired too): a counter of every definition marks them as
 * it reads them, for any other the first object's items come first. */
static bool of_later_object(const perfbuf_query_counter *c, const perfbuf_query_samples *s,
                            const perfbuf_raw_item *item, uint32_t i)
{
    return c->every_definition ? item->pairing == PERFBUF_PAIR_UNPAIRED
                               : i >= s->first_object_items;
}

/* The rank of sorted key k among the keys of its hash: 0 but for a
 * counter of every definition, whose instance may hold several
 * definitions of one title (perfbuf_query_add_definitions pairs the k-th
 * with the k-th). O(log count). */
static uint32_t rank_in_hash(const perfbuf_query_counter *c, const uint64_t *keys,
                             uint32_t count, uint32_t k)
{
    return c->every_definition ? k - find_key(keys, count, keys[2u * k]) : 0u;
}

/* Pairs each newer item with the older item of the same key: the first
 * older item of its hash (for a counter of every definition, the one of
 * the same rank among its hash's), when the names (and key values) agree
 * and nothing claimed it yet; a hash shared by different keys pairs
 * nothing (AMBIGUOUS). */
static void pair_with_older(uint8_t *base, const perfbuf_query_counter *c,
                            perfbuf_query_samples *older, perfbuf_query_samples *newer)
{
    perfbuf_raw_item *items = (perfbuf_raw_item *)(void *)(base + newer->items);
    const uint64_t *keys = (const uint64_t *)(void *)(base + newer->keys);
    const perfbuf_raw_item *older_items =
        older->valid ? (const perfbuf_raw_item *)(void *)(base + older->items) : NULL;
    const uint64_t *older_keys =
        older->valid ? (const uint64_t *)(const void *)(base + older->keys) : NULL;
    uint32_t *claims = older->valid ? (uint32_t *)(void *)(base + older->claims) : NULL;
    const uint64_t *values = (const uint64_t *)(const void *)(base + newer->key_values);
    const uint64_t *older_values =
        older->valid ? (const uint64_t *)(const void *)(base + older->key_values) : NULL;
    uint32_t older_count = older->valid ? older->count : 0;
    for (uint32_t k = 0; k < older_count; k++) {
        PB_WORK(1);
        claims[k] = 0;
    }
    /* The items in their own order, each with its place among the sorted
     * keys (the newer claims hold it until the next collection needs
     * them): the items of one instance under a counter "*" are adjacent
     * and share one name, compared once for all of them. Items of one key
     * still claim in position order, as in key order. */
    uint32_t *place = (uint32_t *)(void *)(base + newer->claims);
    for (uint32_t k = 0; k < newer->count; k++) {
        PB_WORK(1);
        place[(uint32_t)keys[2u * k + 1u]] = k;
    }
    const char *compared_newer = NULL, *compared_older = NULL;
    uint64_t compared_values[2] = {0, 0};
    bool compared_equal = false;
    for (uint32_t i = 0; i < newer->count; i++) {
        PB_WORK(1);
        uint32_t k = place[i];
        place[i] = 0;
        perfbuf_raw_item *item = &items[i];
        bool later = of_later_object(c, newer, item, i);
        item->pairing = later ? PERFBUF_PAIR_UNPAIRED : PERFBUF_PAIR_NEW;
        item->has_older = false;
        item->older_position = PERFBUF_ITEM_NO_INSTANCE;
        /* A later object's items sort after the first object's of the
         * same hash, so find_key meets those first. */
        if (later) {
            continue;
        }
        uint32_t at = find_key(older_keys, older_count, keys[2u * k]);
        uint32_t rank = rank_in_hash(c, keys, newer->count, k);
        if (at == older_count || rank >= older_count - at ||
            older_keys[2u * (at + rank)] != keys[2u * k]) {
            continue;
        }
        at += rank;
        uint32_t j = (uint32_t)older_keys[2u * at + 1u];
        const perfbuf_raw_item *o = &older_items[j];
        if (of_later_object(c, older, o, j)) {
            continue;
        }
        if (item->name != compared_newer || o->name != compared_older ||
            values[i] != compared_values[0] || older_values[j] != compared_values[1]) {
            size_t ol = key_name_length(c, older_values[j], o->name, o->name_len);
            size_t nl = key_name_length(c, values[i], item->name, item->name_len);
            compared_equal = folded_equal(o->name, ol, item->name, nl);
            compared_newer = item->name;
            compared_older = o->name;
            compared_values[0] = values[i];
            compared_values[1] = older_values[j];
        }
        bool keyed = keyed_by_value(c, values[i]);
        if (!compared_equal ||
            (every_counter(c) && (o->counter != item->counter ||
                                  o->object_title != item->object_title)) ||
            keyed != keyed_by_value(c, older_values[j]) ||
            (keyed && older_values[j] != values[i])) {
            item->pairing = PERFBUF_PAIR_AMBIGUOUS;
        } else if (claims[j] == 0) {
            claims[j] = i + 1u;
            item->older_position = o->position;
            /* A definition whose type changed has no formula over both
             * samples, as the arrays say of such a pair. */
            bool same_type = !c->every_definition || o->newer.type == item->newer.type;
            item->pairing = same_type ? PERFBUF_PAIR_MATCHED : PERFBUF_PAIR_DEFINITION_CHANGED;
            item->has_older = same_type;
            item->older = same_type ? o->newer : (perfbuf_raw_sample){0};
        }
    }
}

/* The key counter's value for each item of s, read as the items were
 * (the same pairing and path, so the same instances in the same order)
 * into the space after s, below `top`. A capture without the key counter
 * leaves the counter without samples, status NO_COUNTER. */
static perfbuf_status read_key_values(perfbuf_query *q, perfbuf_query_counter *c,
                                      const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                      const perfbuf_v1_pairing *self,
                                      const perfbuf_query_samples *s, size_t string_need,
                                      size_t top)
{
    perfbuf_v1_iter it;
    perfbuf_v1_counter key;
    perfbuf_v1_counters_begin(o, &it);
    if (perfbuf_v1_resolve_counter(b, &q->names, &c->key, &it, &key, NULL, NULL) != PERFBUF_OK) {
        c->status = PERFBUF_CSTATUS_NO_COUNTER;
        c->newer.valid = false;
        c->found = PERFBUF_QUERY_FOUND_NO_COUNTER;
        return PERFBUF_OK;
    }
    size_t count = s->count, string_bytes = string_need, item_bytes = 0;
    size_t at = align_up(s->strings + s->string_bytes), strings = at;
    if (count == 0) {
        return PERFBUF_OK;
    }
    if (!pb_mul(count, sizeof(perfbuf_raw_item), &item_bytes) || !add_size(&strings, item_bytes) ||
        strings > top || top - strings < string_bytes) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    perfbuf_raw_item *items = (perfbuf_raw_item *)(void *)(q->arena + at);
    perfbuf_status st = perfbuf_v1_raw_array(self, key.name_title_index, &c->path, items, &count,
                                             (char *)(q->arena + strings), &string_bytes);
    /* Other instances than the counter's own: the path's text changed
     * since they were read, as in fill_samples (tests/test_query.c). */
    if (st != PERFBUF_OK || count != s->count) {
        return st != PERFBUF_OK ? st : PERFBUF_E_INCONSISTENT;
    }
    uint64_t *values = (uint64_t *)(void *)(q->arena + s->key_values);
    for (size_t i = 0; i < count; i++) {
        PB_WORK(1);
        values[i] = items[i].newer.first;
    }
    return PERFBUF_OK;
}

/* Where one counter's items come from in this capture: a V1 pairing of
 * the capture with itself and the counter's title, or a V2 pairing of the
 * counterset's block alone, its registration and counter id. For V1, the
 * block and object a key counter is read from. */
typedef struct item_source {
    const perfbuf_v1_pairing *v1;
    uint32_t counter_title;
    const perfbuf_v1_block *block;
    const perfbuf_v1_object *object;
    const perfbuf_v2_pairing *v2;
    const perfbuf_v2_reginfo *reg;
    uint32_t counter_id;
    uint32_t expanded; /* V1: the displayable counters a counter "*" names, or the
                          definitions perfbuf_query_add_definitions names; else 1 */
    bool later_of_title; /* V1: the object is not the first of its title in the block */
} item_source;

/* The items (NULL: their count and string size), with each instance's
 * identity in `identities` when the counter pairs by one. */
static perfbuf_status read_items(const perfbuf_query_counter *c, const item_source *src,
                                 perfbuf_raw_item *items, size_t *count, char *strings,
                                 size_t *string_bytes, uint64_t *identities)
{
    uint64_t *ids = c->identity != IDENTITY_NONE ? identities : NULL;
    if (src->v2 != NULL) {
        return pb_v2_raw_array_identities(src->v2, src->reg, src->counter_id, &c->path, items,
                                          count, strings, string_bytes, ids);
    }
    /* Every definition: every instance, or the object's one block. */
    const perfbuf_counter_path *path = c->every_definition ? NULL : &c->path;
    return pb_v1_raw_array_identities(src->v1, src->counter_title, path, items, count,
                                      strings, string_bytes, ids);
}

/* The instances of the capture's object (V1) or block (V2) the items come
 * from, or -1 when it has none by kind: PERF_NO_INSTANCES and the other
 * negative NumInstances (winperf.h), a V2 block of values. */
static int64_t object_instances(const item_source *src)
{
    if (src->v2 != NULL) {
        const perfbuf_v2_block *b = &src->v2->newer_block;
        bool with = b->kind == PERFBUF_V2_MULTIPLE_INSTANCES || b->kind == PERFBUF_V2_COUNTERSET;
        return with ? (int64_t)b->instance_count : -1;
    }
    return src->object->num_instances < 0 ? -1 : (int64_t)src->object->instance_count;
}

/* What `count` items of the path over this object mean (PERFBUF_QUERY_FOUND_*). */
static uint32_t found_for(const perfbuf_query_counter *c, const item_source *src, size_t count)
{
    int64_t instances = object_instances(src);
    if (count > 0) {
        return PERFBUF_QUERY_FOUND_ITEMS;
    }
    if ((c->path.flags & PERFBUF_PATH_HAS_INSTANCE) == 0) {
        return instances >= 0 ? PERFBUF_QUERY_FOUND_UNNAMED : PERFBUF_QUERY_FOUND_NO_INSTANCE;
    }
    /* A wildcard, with a parent part or without: an object without
     * instances has no parents either, so neither names one that is
     * missing. A prefix or a name names one. */
    bool wildcard = (c->path.flags & PERFBUF_PATH_INSTANCE_WILDCARD) != 0;
    return wildcard && instances == 0 ? PERFBUF_QUERY_FOUND_EMPTY_OBJECT
                                      : PERFBUF_QUERY_FOUND_NO_INSTANCE;
}

/* The next definition a counter "*" spreads to: the next displayable one
 * (perfbuf_v1_resolve_counter), or the next of all of them for a counter
 * of every definition. */
static bool next_definition(const perfbuf_query *q, const perfbuf_query_counter *c,
                            const perfbuf_v1_block *b, perfbuf_v1_iter *it,
                            perfbuf_v1_counter *def)
{
    if (c->every_definition) {
        return perfbuf_v1_counters_next(b, it, def);
    }
    return perfbuf_v1_resolve_counter(b, &q->names, &c->path, it, def, NULL, NULL) == PERFBUF_OK;
}

/*
 * A counter "*": the `count` instances read into the last places of items
 * (and their key values) become one item per instance and displayable
 * counter, instance by instance, each counter in definition order as
 * perfbuf_v1_resolve_counter lists them. Writing forward never reaches an
 * instance not yet spread: instance j's items end at (j + 1) x expanded,
 * at most where instance j itself was read. One walk over the object's
 * instances, and its definitions per selected instance: linear in the
 * object, whose values are at most two per byte of its counter blocks
 * (docs/v1.md). Out of line: the item copy would grow collect's frame.
 */
PB_NOINLINE static perfbuf_status expand_counters(const perfbuf_query *q,
                                                  const perfbuf_query_counter *c,
                                                  const item_source *src,
                                                  perfbuf_raw_item *items, uint64_t *values,
                                                  size_t count)
{
    const perfbuf_v1_block *b = src->block;
    const perfbuf_v1_object *o = src->object;
    size_t per = src->expanded, base = count * per - count;
    perfbuf_v1_iter instances, counters;
    perfbuf_v1_instance inst = {0};
    bool walking = false;
    perfbuf_v1_instances_begin(o, &instances);
    for (size_t j = 0; j < count; j++) {
        perfbuf_raw_item read = items[base + j];
        uint64_t value = values[base + j];
        perfbuf_v1_counter_block block;
        if (read.position == PERFBUF_ITEM_NO_INSTANCE) {
            /* The raw array gives this position only for an object of
             * PERF_NO_INSTANCES whose counter block this same call read
             * from the same b and o (arrays_v1.c, walk); the capture is
             * not written during the call (capture_overlaps_query). */
            if (!perfbuf_v1_object_counter_block(b, o, &block)) {
                PB_UNREACHABLE();
                return PERFBUF_E_INCONSISTENT;
            }
        } else {
            /* The positions are those of o's instances the raw array
             * walked in this call, increasing and below instance_count, so
             * this walk of the same unchanged bytes reaches each. */
            while (!walking || inst.index < read.position) {
                PB_WORK(1);
                if (!perfbuf_v1_instances_next(b, &instances, &inst)) {
                    PB_UNREACHABLE();
                    return PERFBUF_E_INCONSISTENT;
                }
                walking = true;
            }
            block = inst.counters;
        }
        perfbuf_v1_counter def;
        size_t k = 0;
        perfbuf_v1_counters_begin(o, &counters);
        /* A later object of a repeated title pairs with nothing; its items
         * say so from here to pair_with_older (perfbuf_query_add_definitions). */
        uint32_t pairing = src->later_of_title ? PERFBUF_PAIR_UNPAIRED : PERFBUF_PAIR_NEW;
        while (k < per && next_definition(q, c, b, &counters, &def)) {
            PB_WORK(1);
            perfbuf_raw_item *it = &items[j * per + k];
            *it = (perfbuf_raw_item){.name = read.name, .name_len = read.name_len,
                                     .pairing = pairing, .position = read.position,
                                     .counter = def.name_title_index, .object = read.object,
                                     .older_position = PERFBUF_ITEM_NO_INSTANCE,
                                     .object_title = o->name_title_index};
            perfbuf_status st = perfbuf_v1_raw_sample(b, o, &def, &block, &it->newer,
                                                      &it->context);
            if (st != PERFBUF_OK) {
                /* As the arrays give a sample they cannot read. */
                uint32_t status = st == PERFBUF_E_INVALID_ARGUMENT ? PERFBUF_PDH_INVALID_ARGUMENT
                                                                   : PERFBUF_CSTATUS_INVALID_DATA;
                it->newer = (perfbuf_raw_sample){.status = status, .type = def.type};
                it->context = (perfbuf_value_context){0};
            }
            values[j * per + k] = value;
            k++;
        }
        /* per is what object_counter counted in this call: the same
         * resolution over the same definitions of the unchanged capture,
         * with the same path flags (a counter "*" matches by type alone,
         * never by the path's text or the tables). */
        if (k != per) {
            PB_UNREACHABLE();
            return PERFBUF_E_INCONSISTENT;
        }
    }
    return PERFBUF_OK;
}

/* The counter's samples of this capture, laid out from *at below `top`
 * (items, keys, claims, name offsets, key values, names), keyed and
 * paired with the older ones. OUTPUT_TOO_SMALL when they do not fit. */
static perfbuf_status fill_samples(perfbuf_query *q, perfbuf_query_counter *c,
                                   const item_source *src, size_t *at, size_t top,
                                   perfbuf_query_samples *out)
{
    size_t count = 0, string_bytes = 0;
    perfbuf_status st = read_items(c, src, NULL, &count, NULL, &string_bytes, NULL);
    if (st != PERFBUF_OK && st != PERFBUF_E_OUTPUT_TOO_SMALL) {
        return st;
    }
    /* A named instance that is not there is PDH's NO_INSTANCE; a wildcard
     * or prefix that selects nothing is an empty answer, as PDH's. */
    uint32_t named = PERFBUF_PATH_HAS_INSTANCE;
    uint32_t open = PERFBUF_PATH_INSTANCE_WILDCARD | PERFBUF_PATH_INSTANCE_PREFIX;
    if (count == 0 && (c->path.flags & named) != 0 && (c->path.flags & open) == 0) {
        c->status = PERFBUF_CSTATUS_NO_INSTANCE;
    }
    c->found = found_for(c, src, count);
    /* A counter "*": one item per selected instance and displayable
     * counter, the instance's name kept once. */
    size_t total = 0, end = *at, item_bytes = 0;
    bool fits = pb_mul(count, src->expanded, &total) && total <= UINT32_MAX &&
                pb_mul(total, sizeof(perfbuf_raw_item), &item_bytes);
    perfbuf_query_samples s = {.valid = true, .count = (uint32_t)total};
    s.items = end;
    fits = fits && add_size(&end, item_bytes);
    s.keys = end;
    fits = fits && add_size(&end, total * 2u * sizeof(uint64_t));
    s.claims = end;
    fits = fits && add_size(&end, align_up(total * sizeof(uint32_t)));
    s.name_offsets = end;
    fits = fits && add_size(&end, total * sizeof(size_t));
    s.key_values = end;
    fits = fits && add_size(&end, total * sizeof(uint64_t));
    s.strings = end;
    fits = fits && add_size(&end, string_bytes) && end <= top;
    if (!fits) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    perfbuf_raw_item *items = (perfbuf_raw_item *)(void *)(q->arena + s.items);
    uint64_t *values = (uint64_t *)(void *)(q->arena + s.key_values);
    memset(values, 0, total * sizeof *values);
    size_t string_need = string_bytes; /* a fill may use less than the size answer */
    /* The instances are read into the last `count` places, from which
     * expand_counters spreads them forward. */
    size_t base = total - count, selected = count;
    perfbuf_query_samples read = s;
    read.count = (uint32_t)count;
    read.items = s.items + base * sizeof(perfbuf_raw_item);
    read.key_values = s.key_values + base * sizeof(uint64_t);
    if (count > 0) {
        st = read_items(c, src, items + base, &count, (char *)(q->arena + s.strings),
                        &string_bytes, values + base);
        /* Fewer than the sizing pass selected: the path's text changed
         * between the passes. It is the caller's memory (perfbuf_query_add
         * keeps a pointer to it), and when it lies in the arena the
         * collection itself writes over it (tests/test_query.c). */
        if (st != PERFBUF_OK || count != selected) {
            return st != PERFBUF_OK ? st : PERFBUF_E_INCONSISTENT;
        }
    }
    s.string_bytes = string_bytes;
    read.string_bytes = string_bytes;
    st = c->by_key
             ? read_key_values(q, c, src->block, src->object, src->v1, &read, string_need, top)
             : PERFBUF_OK;
    if (st != PERFBUF_OK || !c->newer.valid) {
        return st;
    }
    if (every_counter(c) && count > 0) {
        st = expand_counters(q, c, src, items, values, count);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    s.first_object_items = s.count;
    *out = s;
    *at = align_up(s.strings + s.string_bytes);
    return PERFBUF_OK;
}

/* Keys the counter's newer samples, sorts them and pairs them with the
 * older ones. */
PB_NOINLINE static void finish_samples(perfbuf_query *q, perfbuf_query_counter *c)
{
    const perfbuf_query_samples s = c->newer;
    perfbuf_raw_item *items = (perfbuf_raw_item *)(void *)(q->arena + s.items);
    const uint64_t *values = (const uint64_t *)(const void *)(q->arena + s.key_values);
    uint64_t *keys = (uint64_t *)(void *)(q->arena + s.keys);
    size_t *offsets = (size_t *)(void *)(q->arena + s.name_offsets);
    uint64_t name_key = 0;
    for (uint32_t i = 0; i < s.count; i++) {
        offsets[i] = (size_t)(items[i].name - (const char *)(q->arena + s.strings));
        /* An instance's items under a counter "*" share its name: hashed once. */
        if (i == 0 || items[i].name != items[i - 1u].name || values[i] != values[i - 1u]) {
            name_key = item_key(c, values[i], items[i].name, items[i].name_len);
        }
        keys[2u * i] = name_key;
        if (every_counter(c)) {
            uint64_t which = (uint64_t)items[i].object_title << 32 | items[i].counter;
            keys[2u * i] = pb_key_mix(keys[2u * i] ^ which) & PB_PAIRING_HASH_MASK;
        }
        keys[2u * i + 1u] = i;
        ((uint32_t *)(void *)(q->arena + s.claims))[i] = 0;
    }
    pb_key_sort_records(keys, s.count);
    pair_with_older(q->arena, c, &c->older, &c->newer);
}

/* One object's samples, kept and paired: a V2 counter's only block. */
static perfbuf_status keep_samples(perfbuf_query *q, perfbuf_query_counter *c,
                                   const item_source *src, size_t *at, size_t top)
{
    perfbuf_query_samples s;
    perfbuf_status st = fill_samples(q, c, src, at, top, &s);
    if (st == PERFBUF_OK && c->newer.valid) {
        c->newer = s;
        finish_samples(q, c);
    }
    return st;
}

/* PERFBUF_QUERY_FOUND_* of a path the capture does not resolve. */
static uint32_t found_unresolved(uint32_t status)
{
    return status == PERFBUF_CSTATUS_NO_COUNTER ? PERFBUF_QUERY_FOUND_NO_COUNTER
                                                : PERFBUF_QUERY_FOUND_NO_OBJECT;
}

/* Where the pairing and its scratch of `slots` go, at the arena's end,
 * above everything kept (*at): *top is where the kept bytes must end.
 * False when they do not fit. */
static bool place_pairing_below(size_t end, size_t slots, size_t at, size_t *top)
{
    size_t scratch_bytes = 0;
    if (!pb_mul(slots, sizeof(uint64_t), &scratch_bytes) || scratch_bytes > end ||
        (end - scratch_bytes) / ALIGNMENT * ALIGNMENT < PAIRING_BYTES ||
        (end - scratch_bytes) / ALIGNMENT * ALIGNMENT - PAIRING_BYTES < at) {
        return false;
    }
    *top = (end - scratch_bytes) / ALIGNMENT * ALIGNMENT - PAIRING_BYTES;
    return true;
}

static bool place_pairing(const perfbuf_query *q, size_t slots, size_t at, size_t *top)
{
    return place_pairing_below(q->arena_bytes, slots, at, top);
}

/* One object's samples of V1 capture b, at *at after their description
 * (SAMPLES_HEADER), the object paired with itself for its names and #N
 * (perfbuf_v1_pair_objects with the block index `parents`, which lies
 * at `end`), the pairing and its scratch below `end`. */
PB_NOINLINE static perfbuf_status collect_object(perfbuf_query *q, perfbuf_query_counter *c,
                                     const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                     const item_source *base, const perfbuf_v1_instance_index *parents,
                                     size_t end, size_t *at)
{
    size_t slots = 0, top = 0, header = *at, start = *at;
    perfbuf_status st = perfbuf_v1_pairing_scratch_objects(NULL, o, &slots);
    if (st != PERFBUF_OK) {
        return st;
    }
    if (!add_size(&start, SAMPLES_HEADER) || !place_pairing_below(end, slots, start, &top)) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    uint64_t *scratch = (uint64_t *)(void *)(q->arena + top + PAIRING_BYTES);
    perfbuf_v1_pairing *self = (perfbuf_v1_pairing *)(void *)(q->arena + top);
    st = perfbuf_v1_pair_objects(b, NULL, NULL, b, o, parents, scratch, slots, self);
    if (st != PERFBUF_OK) {
        return st;
    }
    item_source src = *base;
    src.v1 = self;
    src.object = o;
    perfbuf_query_samples s = {0};
    *at = start;
    st = fill_samples(q, c, &src, at, top, &s);
    if (st == PERFBUF_OK) {
        memcpy(q->arena + header, &s, sizeof s);
    }
    return st;
}

/*
 * The objects' samples that collect_counter wrote one after the other
 * from `start` (each after its description), merged into one array laid
 * out after them and moved down to `start`: the first object's items
 * first. Linear in what they hold.
 */
PB_NOINLINE static perfbuf_status merge_objects(perfbuf_query *q, size_t start, uint32_t objects,
                                    perfbuf_query_samples *merged, size_t *at)
{
    size_t total = 0, strings = 0, h = start, first_items = 0;
    for (uint32_t k = 0; k < objects; k++) {
        PB_WORK(1);
        perfbuf_query_samples s;
        memcpy(&s, q->arena + h, sizeof s);
        first_items = k == 0 ? s.count : first_items;
        total += s.count;
        strings += s.string_bytes;
        h = align_up(s.strings + s.string_bytes);
    }
    perfbuf_query_samples m = {.valid = true, .count = (uint32_t)total,
                               .first_object_items = (uint32_t)first_items};
    size_t end = h, item_bytes = 0;
    bool fits = total <= UINT32_MAX && pb_mul(total, sizeof(perfbuf_raw_item), &item_bytes);
    m.items = end;
    fits = fits && add_size(&end, item_bytes);
    m.keys = end;
    fits = fits && add_size(&end, total * 2u * sizeof(uint64_t));
    m.claims = end;
    fits = fits && add_size(&end, align_up(total * sizeof(uint32_t)));
    m.name_offsets = end;
    fits = fits && add_size(&end, total * sizeof(size_t));
    m.key_values = end;
    fits = fits && add_size(&end, total * sizeof(uint64_t));
    m.strings = end;
    fits = fits && add_size(&end, strings) && end <= q->arena_bytes;
    if (!fits) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    size_t shift = h - start;
    /* Names point where the strings will be once moved down. */
    char *final_strings = (char *)(q->arena + m.strings - shift);
    perfbuf_raw_item *items = (perfbuf_raw_item *)(void *)(q->arena + m.items);
    uint64_t *values = (uint64_t *)(void *)(q->arena + m.key_values);
    size_t item_at = 0, string_at = 0;
    h = start;
    for (uint32_t k = 0; k < objects; k++) {
        perfbuf_query_samples s;
        memcpy(&s, q->arena + h, sizeof s);
        const perfbuf_raw_item *from = (const perfbuf_raw_item *)(const void *)(q->arena + s.items);
        const uint64_t *from_values = (const uint64_t *)(const void *)(q->arena + s.key_values);
        const char *from_strings = (const char *)(q->arena + s.strings);
        for (uint32_t i = 0; i < s.count; i++) {
            PB_WORK(1);
            items[item_at + i] = from[i];
            items[item_at + i].name = final_strings + string_at + (size_t)(from[i].name - from_strings);
            values[item_at + i] = from_values[i];
        }
        PB_WORK(s.string_bytes);
        memcpy(q->arena + m.strings + string_at, from_strings, s.string_bytes);
        item_at += s.count;
        string_at += s.string_bytes;
        h = align_up(s.strings + s.string_bytes);
    }
    m.string_bytes = strings;
    PB_WORK((end - m.items) / 8u);
    memmove(q->arena + start, q->arena + m.items, end - m.items);
    m.items -= shift;
    m.keys -= shift;
    m.claims -= shift;
    m.name_offsets -= shift;
    m.key_values -= shift;
    m.strings -= shift;
    *merged = m;
    *at = align_up(m.strings + m.string_bytes);
    return PERFBUF_OK;
}

/* One counter's samples of V1 capture b, written at *at: those of every
 * object the path names that has the counter, in block order, merged
 * (collect_object, merge_objects). The block index and each object's
 * pairing with its scratch lie at the arena's end, below which everything
 * else must fit. The pairing lives in the arena, not on the stack, where it
 * would take most of a frame the library keeps under 512 bytes; out of line
 * for the same reason. OUTPUT_TOO_SMALL when they do not fit. */
PB_NOINLINE static perfbuf_status collect_counter(perfbuf_query *q, perfbuf_query_counter *c,
                                                  const perfbuf_v1_block *b, size_t *at)
{
    perfbuf_v1_iter objects;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(b, &objects);
    c->status = PERFBUF_CSTATUS_NO_OBJECT;
    c->found = PERFBUF_QUERY_FOUND_NO_OBJECT;
    c->newer = (perfbuf_query_samples){.valid = true};
    /* The block index, its description below its slots, at the arena's
     * end: on the stack the description would take a third of a frame. */
    size_t index_bytes = 0, start = *at, end = 0;
    if (!pb_mul(b->index_slots, sizeof(uint64_t), &index_bytes) ||
        !add_size(&index_bytes, INDEX_HEADER) || index_bytes > q->arena_bytes) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    end = (q->arena_bytes - index_bytes) / ALIGNMENT * ALIGNMENT;
    perfbuf_v1_instance_index *parents = (perfbuf_v1_instance_index *)(void *)(q->arena + end);
    bool indexed = false;
    uint32_t objects_kept = 0, first_status = 0, first_found = 0;
    bool items = false;
    while (next_object(q, c, b, &objects, &o)) {
        uint32_t counter_title = 0, expanded = 1;
        if (object_counter(q, c, b, &o, &counter_title, &expanded) !=
            PERFBUF_CSTATUS_VALID_DATA) {
            c->status = objects_kept == 0 ? PERFBUF_CSTATUS_NO_COUNTER : c->status;
            continue;
        }
        if (!indexed) {
            if (end < *at) {
                return PERFBUF_E_OUTPUT_TOO_SMALL;
            }
            perfbuf_status st = perfbuf_v1_block_index_build(
                b, (uint64_t *)(void *)(q->arena + end + INDEX_HEADER), b->index_slots, parents);
            if (st != PERFBUF_OK) {
                return st;
            }
            indexed = true;
        }
        if (objects_kept == 0) {
            c->object_title = o.name_title_index;
            c->counter_title = counter_title;
        }
        c->status = PERFBUF_CSTATUS_VALID_DATA;
        item_source src = {.counter_title = counter_title, .block = b, .expanded = expanded,
                           .later_of_title = c->every_definition &&
                                             !pb_v1_first_of_title(b, parents, &o)};
        perfbuf_status st = collect_object(q, c, b, &o, &src, parents, end, at);
        if (st != PERFBUF_OK || !c->newer.valid) {
            return st;
        }
        first_status = objects_kept == 0 ? c->status : first_status;
        first_found = objects_kept == 0 ? c->found : first_found;
        items = items || c->found == PERFBUF_QUERY_FOUND_ITEMS;
        objects_kept++;
    }
    if (objects_kept == 0) {
        c->newer.valid = false;
        c->found = found_unresolved(c->status);
        return PERFBUF_OK;
    }
    /* The first object speaks for the path, unless it selects nothing
     * where a later one of the title has items. */
    c->status = items ? PERFBUF_CSTATUS_VALID_DATA : first_status;
    c->found = items ? PERFBUF_QUERY_FOUND_ITEMS : first_found;
    if (objects_kept == 1) {
        memcpy(&c->newer, q->arena + start, sizeof c->newer);
    } else {
        perfbuf_status st = merge_objects(q, start, objects_kept, &c->newer, at);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    finish_samples(q, c);
    return PERFBUF_OK;
}

/* The same for V2 query data d: the counterset's block, paired with
 * itself alone (no older block) for its names and #N. */
PB_NOINLINE static perfbuf_status collect_counter_v2(perfbuf_query *q, perfbuf_query_counter *c,
                                                     const perfbuf_v2_query *d, size_t *at)
{
    perfbuf_v2_block block;
    c->status = c->resolution;
    if (c->status == PERFBUF_CSTATUS_VALID_DATA && !registration_block(q, c, d, &block)) {
        c->status = PERFBUF_CSTATUS_NO_OBJECT;
    }
    c->newer = (perfbuf_query_samples){.valid = c->status == PERFBUF_CSTATUS_VALID_DATA};
    if (!c->newer.valid) {
        c->found = found_unresolved(c->status);
        return PERFBUF_OK;
    }
    size_t slots = 0, top = 0;
    perfbuf_status st = perfbuf_v2_pairing_scratch(NULL, &block, &slots);
    if (st != PERFBUF_OK) {
        return st;
    }
    if (!place_pairing(q, slots, *at, &top)) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    uint64_t *scratch = (uint64_t *)(void *)(q->arena + top + PAIRING_BYTES);
    perfbuf_v2_pairing *self = (perfbuf_v2_pairing *)(void *)(q->arena + top);
    st = perfbuf_v2_pair(NULL, NULL, d, &block, scratch, slots, self);
    if (st != PERFBUF_OK) {
        return st;
    }
    item_source src = {.v2 = self, .reg = &q->registrations[c->registration].reg,
                       .counter_id = c->counter_id, .expanded = 1};
    return keep_samples(q, c, &src, at, top);
}

/* Whether the buffer begins as a V1 data block: PERF_DATA_BLOCK's
 * Signature "PERF" in UTF-16LE (winperf.h). A V2 PERF_DATA_HEADER cannot:
 * those bytes would be a dwTotalSize of 0x00450050 with a dwNumCounters
 * of 0x00460052, and that many PERF_COUNTER_HEADERs (24 bytes each,
 * perflib.h) do not fit in that total. */
static bool begins_as_v1(const void *capture, size_t len)
{
    pb_cursor cur = pb_cursor_make(capture, len);
    uint64_t signature = 0;
    return pb_cursor_get_u64(&cur, 0, &signature) && signature == UINT64_C(0x0046005200450050);
}

/* Either format's capture, validated: its view in *b or *d. A buffer of
 * the other format than the query's is BAD_SIGNATURE at offset 0, naming
 * PERF_DATA_BLOCK's Signature, which the V1 format has and V2's lacks. */
static perfbuf_status parse_capture(const perfbuf_query *q, const void *capture, size_t len,
                                    perfbuf_v1_block *b, perfbuf_v2_query *d, perfbuf_error *err)
{
    if (q->registrations == NULL) {
        return perfbuf_v1_parse(capture, len, &q->options, b, err);
    }
    if (begins_as_v1(capture, len)) {
        *err = (perfbuf_error){PERFBUF_E_BAD_SIGNATURE, 0, "PERF_DATA_BLOCK", "Signature", 0, 0};
        return PERFBUF_E_BAD_SIGNATURE;
    }
    return perfbuf_v2_query_parse(capture, len, &q->options, d, err);
}

/*
 * Whether the capture shares a byte with memory a collection writes: the
 * arena, the query or one of its counters. Every pass after the parse
 * (each counter's objects, the sizing and the filling of its items, a
 * counter "*" spread per instance) reads the capture again through its
 * views and relies on the bytes the parse proved; a capture the
 * collection wrote into would change under them. O(counters).
 */
static bool capture_overlaps_query(const perfbuf_query *q, const void *capture, size_t len)
{
    pb_region bytes = {capture, len};
    if (pb_regions_overlap(bytes, (pb_region){q->arena, q->arena_bytes}) ||
        pb_regions_overlap(bytes, (pb_region){q, sizeof *q})) {
        return true;
    }
    for (const perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
        PB_WORK(1);
        if (pb_regions_overlap(bytes, (pb_region){c, sizeof *c})) {
            return true;
        }
    }
    return false;
}

static perfbuf_status collect(perfbuf_query *q, const void *capture, size_t len, size_t *needed,
                              perfbuf_error *err)
{
    if (needed != NULL) {
        *needed = 0;
    }
    if (q == NULL || capture == NULL || !opened(q) || capture_overlaps_query(q, capture, len)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_v1_block b;
    perfbuf_v2_query d;
    bool v2 = q->registrations != NULL;
    perfbuf_status st = parse_capture(q, capture, len, &b, &d, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    if (q->arena == NULL) {
        /* The tables' indexes come first: they resolve the paths. */
        if (needed != NULL) {
            *needed = q->kept_end;
        }
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    shift_generations(q);
    size_t at = q->kept_end;
    for (perfbuf_query_counter *c = q->first; c != NULL && st == PERFBUF_OK; c = c->next) {
        st = v2 ? collect_counter_v2(q, c, &d, &at) : collect_counter(q, c, &b, &at);
    }
    if (st == PERFBUF_OK) {
        q->has_newer = true;
        q->kept_end = at;
        return PERFBUF_OK;
    }
    for (perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
        c->newer = (perfbuf_query_samples){0};
    }
    if (st == PERFBUF_E_OUTPUT_TOO_SMALL && needed != NULL) {
        *needed = v2 ? capture_bound(q, NULL, &d) : capture_bound(q, &b, NULL);
    }
    return st;
}

perfbuf_status perfbuf_query_collect(perfbuf_query *q, const void *capture, size_t len,
                                     size_t *needed, perfbuf_error *err)
{
    perfbuf_error rejection = {PERFBUF_OK, 0, NULL, NULL, 0, 0};
    perfbuf_status st = collect(q, capture, len, needed, &rejection);
    if (err != NULL) {
        *err = rejection;
        err->status = st;
    }
    return st;
}

static bool filled(const perfbuf_query *q, const perfbuf_query_counter *c)
{
    return q != NULL && c != NULL && q->has_newer && c->newer.valid;
}

perfbuf_status perfbuf_query_formatted_array(const perfbuf_query *q, const perfbuf_query_counter *c,
                                             uint32_t flags, perfbuf_formatted_item *items,
                                             size_t *count)
{
    if (q == NULL || c == NULL || count == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    size_t cap = items == NULL ? 0 : *count;
    if (!filled(q, c)) {
        *count = 0;
        return PERFBUF_E_NOT_FOUND;
    }
    *count = c->newer.count;
    if (cap < c->newer.count) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    const perfbuf_raw_item *raw =
        (const perfbuf_raw_item *)(const void *)(q->arena + c->newer.items);
    for (uint32_t i = 0; i < c->newer.count; i++) {
        items[i] = (perfbuf_formatted_item){raw[i].name, raw[i].name_len, raw[i].pairing,
                                            raw[i].position, raw[i].counter, raw[i].object,
                                            {0}};
        if (!PERFBUF_CSTATUS_IS_VALID(raw[i].newer.status)) {
            /* A sample that could not be read keeps its own status (a base
             * type's PDH_INVALID_ARGUMENT), as the arrays of collector.h
             * give it: formatting it would say INVALID_DATA instead. */
            items[i].value.status = raw[i].newer.status;
            items[i].value.format = flags;
            continue;
        }
        (void)perfbuf_format_value(raw[i].newer.type, &raw[i].newer,
                                   raw[i].has_older ? &raw[i].older : NULL, &raw[i].context, flags,
                                   &items[i].value);
    }
    return PERFBUF_OK;
}

perfbuf_status perfbuf_query_raw_array(const perfbuf_query *q, const perfbuf_query_counter *c,
                                       perfbuf_raw_item *items, size_t *count)
{
    if (q == NULL || c == NULL || count == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    size_t cap = items == NULL ? 0 : *count;
    if (!filled(q, c)) {
        *count = 0;
        return PERFBUF_E_NOT_FOUND;
    }
    *count = c->newer.count;
    if (cap < c->newer.count) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    const perfbuf_raw_item *raw =
        (const perfbuf_raw_item *)(const void *)(q->arena + c->newer.items);
    for (uint32_t i = 0; i < c->newer.count; i++) {
        PB_WORK(1);
        items[i] = raw[i];
    }
    return PERFBUF_OK;
}

perfbuf_status perfbuf_query_instances(const perfbuf_query *q, const perfbuf_query_counter *c,
                                       uint32_t which, const char **names, size_t *count)
{
    if (q == NULL || c == NULL || count == NULL ||
        (which != PERFBUF_QUERY_APPEARED && which != PERFBUF_QUERY_EXITED)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    size_t cap = names == NULL ? 0 : *count;
    *count = 0;
    if (!filled(q, c) || !c->older.valid) {
        return PERFBUF_OK;
    }
    const perfbuf_query_samples *s = which == PERFBUF_QUERY_EXITED ? &c->older : &c->newer;
    const perfbuf_raw_item *raw = (const perfbuf_raw_item *)(const void *)(q->arena + s->items);
    const uint32_t *claims = (const uint32_t *)(const void *)(q->arena + c->older.claims);
    size_t n = 0;
    for (int pass = 0; pass < 2; pass++) {
        n = 0;
        for (uint32_t i = 0; i < s->count; i++) {
            PB_WORK(1);
            /* An instance (or an object's one counter block) once, though
             * a counter "*" gives it an item per counter: its items are
             * adjacent, and those of the next share neither its object
             * nor its position. */
            bool first = i == 0 || raw[i].position != raw[i - 1u].position ||
                         raw[i].object != raw[i - 1u].object;
            bool paired = raw[i].pairing == PERFBUF_PAIR_MATCHED ||
                          raw[i].pairing == PERFBUF_PAIR_DEFINITION_CHANGED;
            bool listed = first && raw[i].pairing != PERFBUF_PAIR_UNPAIRED &&
                          (which == PERFBUF_QUERY_EXITED ? claims[i] == 0 : !paired);
            if (listed && pass == 1) {
                names[n] = raw[i].name;
            }
            n += listed ? 1u : 0u;
        }
        if (n > cap) {
            break;
        }
    }
    *count = n;
    return n > cap ? PERFBUF_E_OUTPUT_TOO_SMALL : PERFBUF_OK;
}
