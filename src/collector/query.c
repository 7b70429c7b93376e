/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The query (perfbuf/query.h, docs/collector.md): paths resolved on each
 * capture (collector/resolve_v1.c), instances named, ordered and sampled by
 * the V1 pairing and raw array (collector/pairing_v1.c, arrays_v1.c) of the
 * capture with itself, and paired with the previous capture through what
 * the arena kept of it: each instance's name, raw sample and key hash.
 *
 * The arena, from its start: the tables' indexes, then the samples of the
 * capture before the last, then those of the last; a collection moves the
 * last capture's samples down over the older ones, writes the new ones
 * after them, and places the pairing's scratch at the arena's end.
 */
#include "perfbuf/query.h"

#include <string.h>

#include "core/check.h"
#include "core/cursor.h"
#include "core/work.h"
#include "collector/pair_keys.h"

#define ALIGNMENT 8u

/* The pairing collect_counter keeps in the arena, just below its scratch,
 * rounded to keep the scratch and what lies below aligned. */
#define PAIRING_BYTES ((sizeof(perfbuf_v1_pairing) + (ALIGNMENT - 1u)) & ~(size_t)(ALIGNMENT - 1u))
_Static_assert(_Alignof(perfbuf_v1_pairing) <= ALIGNMENT, "the arena aligns the pairing to 8");

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

perfbuf_status perfbuf_query_add(perfbuf_query *q, perfbuf_query_counter *c, const char *path,
                                 size_t len, perfbuf_error *err)
{
    if (q == NULL || c == NULL || path == NULL || q->english.data == NULL || q->arena != NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    for (const perfbuf_query_counter *k = q->first; k != NULL; k = k->next) {
        PB_WORK(1);
        if (k == c) {
            return PERFBUF_E_INVALID_ARGUMENT;
        }
    }
    perfbuf_counter_path parsed;
    perfbuf_status st = perfbuf_path_parse(path, len, &parsed, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    if ((parsed.flags & PERFBUF_PATH_COUNTER_WILDCARD) != 0) {
        if (err != NULL) {
            *err = (perfbuf_error){PERFBUF_E_PATH_WILDCARD, parsed.counter.offset, "COUNTER_PATH",
                                   "Counter", 0, 0};
        }
        return PERFBUF_E_PATH_WILDCARD;
    }
    memset(c, 0, sizeof *c);
    c->path = parsed;
    c->status = PERFBUF_CSTATUS_ITEM_NOT_VALIDATED;
    if (q->last != NULL) {
        q->last->next = c;
    } else {
        q->first = c;
    }
    q->last = c;
    q->counters++;
    return PERFBUF_OK;
}

perfbuf_status perfbuf_query_pair_by(perfbuf_query *q, perfbuf_query_counter *c, const char *key,
                                     size_t len)
{
    if (q == NULL || c == NULL || key == NULL || len == 0 || len > PERFBUF_PATH_MAX_NAME * 3u ||
        q->arena != NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    bool added = false;
    for (const perfbuf_query_counter *k = q->first; k != NULL && !added; k = k->next) {
        PB_WORK(1);
        added = k == c;
    }
    if (!added) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (len == 1 && key[0] == '*') {
        return PERFBUF_E_PATH_WILDCARD;
    }
    c->by_key = true;
    c->key = (perfbuf_counter_path){.text = key, .text_len = len, .counter = {0, len}};
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

perfbuf_status perfbuf_query_arena(perfbuf_query *q, void *arena, size_t *bytes)
{
    if (q == NULL || bytes == NULL || q->english.data == NULL) {
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
    if (q->arena == NULL) {
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

/* The object and counter a capture has for the path: the first the
 * resolution lists, taken as the pairing finds it (by title index). */
static uint32_t resolve(const perfbuf_query *q, const perfbuf_counter_path *path,
                        const perfbuf_v1_block *b, perfbuf_v1_object *object,
                        uint32_t *counter_title)
{
    perfbuf_v1_iter it;
    perfbuf_v1_object found;
    perfbuf_v1_counter counter;
    perfbuf_v1_objects_begin(b, &it);
    if (perfbuf_v1_resolve_object(b, &q->names, path, &it, &found, NULL, NULL) != PERFBUF_OK ||
        perfbuf_v1_find_object(b, found.name_title_index, object) != PERFBUF_OK) {
        return PERFBUF_CSTATUS_NO_OBJECT;
    }
    perfbuf_v1_counters_begin(object, &it);
    if (perfbuf_v1_resolve_counter(b, &q->names, path, &it, &counter, NULL, NULL) !=
        PERFBUF_OK) {
        return PERFBUF_CSTATUS_NO_COUNTER;
    }
    *counter_title = counter.name_title_index;
    return PERFBUF_CSTATUS_VALID_DATA;
}

/* The bound perfbuf_query_collect documents, for the counters as this
 * capture resolves them: what is kept, each counter's instances and
 * names, and the largest pairing scratch with the pairing itself. Kept
 * out of line: it runs once per call that does not fit, and inlined its
 * locals would add to collect's frame. */
PB_NOINLINE static size_t capture_bound(const perfbuf_query *q, const perfbuf_v1_block *b)
{
    size_t total = q->kept_end, scratch_max = 0;
    bool fits = true;
    for (perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
        perfbuf_v1_object o;
        uint32_t counter_title = 0;
        size_t slots = 0, items = 0, names = 0;
        if (resolve(q, &c->path, b, &o, &counter_title) != PERFBUF_CSTATUS_VALID_DATA ||
            perfbuf_v1_pairing_scratch(b, b, o.name_title_index, &slots) != PERFBUF_OK) {
            continue;
        }
        fits = fits && pb_mul((size_t)o.instance_count + 1u, PERFBUF_QUERY_ITEM_BYTES, &items) &&
               pb_mul(b->size, PERFBUF_ARRAY_STRING_BYTES_PER_BYTE, &names) &&
               add_size(&total, items) && add_size(&total, names) && add_size(&total, 64u) &&
               (!c->by_key ||
                (add_size(&total, items) && add_size(&total, names) && add_size(&total, 64u)));
        scratch_max = slots > scratch_max ? slots : scratch_max;
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

/* Pairs each newer item with the older item of the same key: the first
 * older item of its hash, when the names agree and nothing claimed it
 * yet; a hash shared by different names pairs nothing (AMBIGUOUS). */
static void pair_with_older(uint8_t *base, bool by_key, perfbuf_query_samples *older,
                            perfbuf_query_samples *newer)
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
    for (uint32_t k = 0; k < newer->count; k++) {
        PB_WORK(1);
        uint32_t i = (uint32_t)keys[2u * k + 1u];
        perfbuf_raw_item *item = &items[i];
        item->pairing = PERFBUF_PAIR_NEW;
        item->has_older = false;
        uint32_t at = find_key(older_keys, older_count, keys[2u * k]);
        if (at == older_count) {
            continue;
        }
        uint32_t j = (uint32_t)older_keys[2u * at + 1u];
        const perfbuf_raw_item *o = &older_items[j];
        size_t ol = by_key ? without_ordinal(o->name, o->name_len) : o->name_len;
        size_t nl = by_key ? without_ordinal(item->name, item->name_len) : item->name_len;
        if (!folded_equal(o->name, ol, item->name, nl) ||
            (by_key && older_values[j] != values[i])) {
            item->pairing = PERFBUF_PAIR_AMBIGUOUS;
        } else if (claims[j] == 0) {
            claims[j] = i + 1u;
            item->pairing = PERFBUF_PAIR_MATCHED;
            item->has_older = true;
            item->older = o->newer;
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

/* One counter's samples of capture b, written at *at, with the pairing
 * and its scratch at the arena's end, below which everything else must
 * fit (`top`). The pairing lives in the arena, not on the stack, where it
 * would take most of a frame the library keeps under 512 bytes; out of
 * line for the same reason. OUTPUT_TOO_SMALL when they do not fit. */
PB_NOINLINE static perfbuf_status collect_counter(perfbuf_query *q, perfbuf_query_counter *c,
                                                  const perfbuf_v1_block *b, size_t *at)
{
    perfbuf_v1_object o;
    uint32_t counter_title = 0;
    c->status = resolve(q, &c->path, b, &o, &counter_title);
    c->newer = (perfbuf_query_samples){.valid = c->status == PERFBUF_CSTATUS_VALID_DATA};
    if (!c->newer.valid) {
        return PERFBUF_OK;
    }
    c->object_title = o.name_title_index;
    c->counter_title = counter_title;
    size_t slots = 0, scratch_bytes = 0;
    perfbuf_status st = perfbuf_v1_pairing_scratch(b, b, c->object_title, &slots);
    if (st != PERFBUF_OK) {
        return st;
    }
    if (!pb_mul(slots, sizeof(uint64_t), &scratch_bytes) || scratch_bytes > q->arena_bytes ||
        (q->arena_bytes - scratch_bytes) / ALIGNMENT * ALIGNMENT < PAIRING_BYTES ||
        (q->arena_bytes - scratch_bytes) / ALIGNMENT * ALIGNMENT - PAIRING_BYTES < *at) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    size_t scratch_at = (q->arena_bytes - scratch_bytes) / ALIGNMENT * ALIGNMENT;
    size_t top = scratch_at - PAIRING_BYTES;
    uint64_t *scratch = (uint64_t *)(void *)(q->arena + scratch_at);
    perfbuf_v1_pairing *self = (perfbuf_v1_pairing *)(void *)(q->arena + top);
    st = perfbuf_v1_pair(b, b, c->object_title, scratch, slots, self);
    size_t count = 0, string_bytes = 0;
    if (st == PERFBUF_OK) {
        st = perfbuf_v1_raw_array(self, c->counter_title, &c->path, NULL, &count, NULL,
                                  &string_bytes);
    }
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
    perfbuf_query_samples s = {.valid = true, .count = (uint32_t)count};
    size_t end = *at, item_bytes = 0;
    bool fits = count <= UINT32_MAX && pb_mul(count, sizeof(perfbuf_raw_item), &item_bytes);
    s.items = end;
    fits = fits && add_size(&end, item_bytes);
    s.keys = end;
    fits = fits && add_size(&end, count * 2u * sizeof(uint64_t));
    s.claims = end;
    fits = fits && add_size(&end, align_up(count * sizeof(uint32_t)));
    s.name_offsets = end;
    fits = fits && add_size(&end, count * sizeof(size_t));
    s.key_values = end;
    fits = fits && add_size(&end, count * sizeof(uint64_t));
    s.strings = end;
    fits = fits && add_size(&end, string_bytes) && end <= top;
    if (!fits) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    perfbuf_raw_item *items = (perfbuf_raw_item *)(void *)(q->arena + s.items);
    size_t string_need = string_bytes; /* a fill may use less than the size answer */
    if (count > 0) {
        st = perfbuf_v1_raw_array(self, c->counter_title, &c->path, items, &count,
                                  (char *)(q->arena + s.strings), &string_bytes);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    s.string_bytes = string_bytes;
    uint64_t *values = (uint64_t *)(void *)(q->arena + s.key_values);
    memset(values, 0, count * sizeof *values);
    st = c->by_key ? read_key_values(q, c, b, &o, self, &s, string_need, top) : PERFBUF_OK;
    if (st != PERFBUF_OK || !c->newer.valid) {
        return st;
    }
    uint64_t *keys = (uint64_t *)(void *)(q->arena + s.keys);
    size_t *offsets = (size_t *)(void *)(q->arena + s.name_offsets);
    for (uint32_t i = 0; i < s.count; i++) {
        offsets[i] = (size_t)(items[i].name - (const char *)(q->arena + s.strings));
        keys[2u * i] = c->by_key ? pb_key_mix(folded_hash(items[i].name,
                                                          without_ordinal(items[i].name,
                                                                          items[i].name_len)) ^
                                              pb_key_mix(values[i])) &
                                       PB_PAIRING_HASH_MASK
                                 : folded_hash(items[i].name, items[i].name_len);
        keys[2u * i + 1u] = i;
        ((uint32_t *)(void *)(q->arena + s.claims))[i] = 0;
    }
    pb_key_sort_records(keys, s.count);
    c->newer = s;
    pair_with_older(q->arena, c->by_key, &c->older, &c->newer);
    *at = align_up(s.strings + s.string_bytes);
    return PERFBUF_OK;
}

static perfbuf_status collect(perfbuf_query *q, const void *capture, size_t len, size_t *needed,
                              perfbuf_error *err)
{
    if (needed != NULL) {
        *needed = 0;
    }
    if (q == NULL || capture == NULL || q->english.data == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_v1_block b;
    perfbuf_status st = perfbuf_v1_parse(capture, len, NULL, &b, err);
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
        st = collect_counter(q, c, &b, &at);
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
        *needed = capture_bound(q, &b);
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
        items[i] = (perfbuf_formatted_item){raw[i].name, raw[i].name_len, raw[i].pairing, {0}};
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
            bool listed = which == PERFBUF_QUERY_EXITED ? claims[i] == 0
                                                        : raw[i].pairing != PERFBUF_PAIR_MATCHED;
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
