/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Pairing the instances of one object across two V1 captures
 * (docs/collector.md).
 *
 * Each instance gets a key: its parent's name, its own name (or its
 * UniqueID) and its ordinal among instances of the same parent and name.
 * Keys are hashed, the hashes sorted (heapsort in the caller's scratch) and
 * the two sorted lists merge-joined. A hash is never trusted alone: an
 * equal-hash run is one name only after every member was compared with its
 * first, and two runs pair only after their firsts were compared. A run
 * holding two different names (a collision a hostile buffer can force) is
 * ambiguous and pairs nothing, so no instance is ever paired with one of
 * another name. Every comparison is with a run's first member and stops at
 * the first difference, so each name is compared O(1) times: linear, after
 * the n log n sorts.
 *
 * Parents: a parent's name is hashed once (children are sorted by their
 * parent first), and parents with equal names are given one representative
 * in the same way, so children compare parents by representative without
 * reading a parent's name again however many children share it.
 */
#include "perfbuf/collector.h"

#include "core/check.h"
#include "core/cursor.h"
#include "core/order.h"
#include "core/work.h"
#include "v1/internal.h"
#include "collector/internal.h"
#include "collector/pair_keys.h"

/* Scratch slots of one capture's keys, per instance (see key_capture). */
#define PER_INSTANCE_SLOTS 14u

#define IMPURE (UINT64_C(1) << 63)
#define HAS_UNIQUE_ID (UINT64_C(1) << 32)
#define NO_PARENT_HASH UINT64_C(0x9E3779B97F4A7C15)

/* The keys' helpers, on a V1 block's bytes. */
static uint64_t name_hash(const perfbuf_v1_block *b, uint64_t name)
{
    return pb_key_name_hash(b->data, b->size, name) & PB_PAIRING_HASH_MASK;
}

static bool names_equal(const perfbuf_v1_block *ba, uint64_t a, const perfbuf_v1_block *bb,
                        uint64_t b)
{
    return pb_key_names_equal(ba->data, ba->size, a, bb->data, bb->size, b);
}

#define mix pb_key_mix
#define pack_name pb_key_pack_name
#define sort_records pb_key_sort_records
#define NO_NAME PB_KEY_NO_NAME
#define UNPAIRABLE PB_KEY_UNPAIRABLE

/* One capture's key arrays, each `count` slots (records: 2 * count). */
typedef struct capture_keys {
    const perfbuf_v1_block *block;
    uint32_t count;
    uint64_t *name;        /* packed own name */
    uint64_t *unique_id;   /* HAS_UNIQUE_ID | id, or 0 */
    uint64_t *parent;      /* packed parent name, NO_NAME without one */
    uint64_t *parent_hash;
    uint64_t *parent_rep;  /* packed name of the representative; IMPURE bit */
    uint64_t *ordinal;     /* within its run, or PERFBUF_PAIR_NO_ORDINAL */
    uint64_t *records;     /* 2 * count: key hash, position */
    uint64_t *temp;        /* 2 * count */
    uint64_t *counters;    /* counter block: offset << 32 | bytes */
    uint64_t *parent_list_hash; /* distinct unambiguous parent names: hashes ascending */
    uint64_t *parent_list_name; /* and the representative's packed name */
    size_t parent_list_count;
    uint64_t *shared_parents;   /* hashes of names both captures have as parents */
    size_t shared_count;
} capture_keys;

static void carve(capture_keys *k, uint64_t *area, uint32_t count)
{
    k->count = count;
    k->name = area;
    k->unique_id = area + count;
    k->parent = area + 2 * (size_t)count;
    k->parent_hash = area + 3 * (size_t)count;
    k->parent_rep = area + 4 * (size_t)count;
    k->ordinal = area + 5 * (size_t)count;
    k->records = area + 6 * (size_t)count;
    k->temp = area + 8 * (size_t)count;
    k->counters = area + 10 * (size_t)count;
    k->parent_list_hash = area + 11 * (size_t)count;
    k->parent_list_name = area + 12 * (size_t)count;
    k->shared_parents = area + 13 * (size_t)count;
    k->parent_list_count = 0;
    k->shared_count = 0;
}

/* Names, ids and parents of every instance, in buffer order. */
static void read_instances(capture_keys *k, const perfbuf_v1_object *o,
                           const perfbuf_v1_instance_index *parents)
{
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst;
    uint32_t i = 0;
    perfbuf_v1_instances_begin(o, &it);
    while (i < k->count && perfbuf_v1_instances_next(k->block, &it, &inst)) {
        if (!pack_name(inst.name_offset, inst.name_bytes, inst.code_page, &k->name[i])) {
            k->name[i] = UNPAIRABLE;
        }
        k->counters[i] = pb_pack_counter_block(&inst.counters);
        k->unique_id[i] = inst.unique_id != -1 ? HAS_UNIQUE_ID | (uint32_t)inst.unique_id : 0u;
        perfbuf_v1_instance parent;
        k->parent[i] = NO_NAME;
        if (inst.parent_title_index != 0 &&
            perfbuf_v1_parent(k->block, o, &inst, parents, &parent, NULL) == PERFBUF_OK &&
            !pack_name(parent.name_offset, parent.name_bytes, parent.code_page, &k->parent[i])) {
            k->parent[i] = NO_NAME;
            k->name[i] = UNPAIRABLE;
        }
        i++;
    }
    for (; i < k->count; i++) {
        PB_WORK(1);
        k->name[i] = UNPAIRABLE;
        k->unique_id[i] = 0;
        k->parent[i] = NO_NAME;
        k->counters[i] = 0;
    }
}

/*
 * Parent hashes and representatives. The children are sorted by their
 * parent's name offset, so each parent's name is hashed once; then the
 * distinct parents are sorted by hash, and each equal-hash run is checked
 * against its first: all equal, they share the first as representative;
 * otherwise every member is IMPURE (its children are ambiguous).
 */
static void resolve_parents(capture_keys *k)
{
    uint64_t *by_parent = k->temp;          /* offset << 32 | child */
    uint64_t *distinct = k->records;         /* hash, distinct position */
    uint64_t *distinct_name = k->ordinal;    /* distinct position -> packed name */
    size_t m = 0;
    for (uint32_t i = 0; i < k->count; i++) {
        PB_WORK(1);
        k->parent_hash[i] = NO_PARENT_HASH;
        k->parent_rep[i] = NO_NAME;
        if (k->parent[i] != NO_NAME) {
            by_parent[m++] = (k->parent[i] >> 32) << 32 | i;
        }
    }
    pb_sort_u64(by_parent, m);
    size_t d = 0;
    uint64_t last_offset = 0, hash = 0;
    for (size_t j = 0; j < m; j++) {
        PB_WORK(1);
        uint32_t child = (uint32_t)by_parent[j];
        if (j == 0 || by_parent[j] >> 32 != last_offset) {
            last_offset = by_parent[j] >> 32;
            hash = name_hash(k->block, k->parent[child]);
            distinct[2 * d] = hash;
            distinct[2 * d + 1] = d;
            distinct_name[d] = k->parent[child];
            d++;
        }
        k->parent_hash[child] = hash;
        k->parent_rep[child] = d - 1; /* the distinct position, for now */
    }
    sort_records(distinct, d);
    /* by_parent is free again: it maps distinct position -> representative. */
    uint64_t *rep = by_parent;
    for (size_t s = 0; s < d;) {
        size_t e = s + 1;
        bool pure = true;
        uint64_t first = distinct_name[distinct[2 * s + 1]];
        while (e < d && distinct[2 * e] == distinct[2 * s]) {
            PB_WORK(1);
            if (!names_equal(k->block, first, k->block, distinct_name[distinct[2 * e + 1]])) {
                pure = false;
            }
            e++;
        }
        for (size_t j = s; j < e; j++) {
            PB_WORK(1);
            rep[distinct[2 * j + 1]] = pure ? first : (IMPURE | distinct_name[distinct[2 * j + 1]]);
        }
        if (pure) {
            k->parent_list_hash[k->parent_list_count] = distinct[2 * s];
            k->parent_list_name[k->parent_list_count] = first;
            k->parent_list_count++;
        }
        s = e;
    }
    for (uint32_t i = 0; i < k->count; i++) {
        PB_WORK(1);
        if (k->parent[i] != NO_NAME) {
            k->parent_rep[i] = rep[k->parent_rep[i]];
        }
    }
}

static bool same_own_key(const capture_keys *k, uint32_t a, uint32_t b)
{
    if (k->name[a] == UNPAIRABLE || k->name[b] == UNPAIRABLE ||
        k->unique_id[a] != k->unique_id[b]) {
        return false;
    }
    return k->unique_id[a] != 0 || names_equal(k->block, k->name[a], k->block, k->name[b]);
}

/* Key hashes sorted with positions (buffer order inside a run), and each
 * run's ordinals, or PERFBUF_PAIR_NO_ORDINAL for a run of several names. */
static void key_capture(capture_keys *k, const perfbuf_v1_object *o,
                        const perfbuf_v1_instance_index *parents)
{
    read_instances(k, o, parents);
    resolve_parents(k);
    for (uint32_t i = 0; i < k->count; i++) {
        PB_WORK(1);
        uint64_t own = k->unique_id[i] != 0 ? mix(k->unique_id[i] ^ UINT64_C(0x5555))
                                            : name_hash(k->block, k->name[i]);
        k->records[2 * (size_t)i] = mix(k->parent_hash[i] ^ mix(own ^ NO_PARENT_HASH)) & PB_PAIRING_HASH_MASK;
        k->records[2 * (size_t)i + 1] = i;
    }
    sort_records(k->records, k->count);
    for (size_t s = 0; s < k->count;) {
        size_t e = s + 1;
        uint32_t first = (uint32_t)k->records[2 * s + 1];
        bool pure = (k->parent_rep[first] & IMPURE) == 0;
        while (e < k->count && k->records[2 * e] == k->records[2 * s]) {
            uint32_t m = (uint32_t)k->records[2 * e + 1];
            PB_WORK(1);
            if (k->parent_rep[m] != k->parent_rep[first] || !same_own_key(k, first, m)) {
                pure = false;
            }
            e++;
        }
        for (size_t j = s; j < e; j++) {
            PB_WORK(1);
            k->ordinal[k->records[2 * j + 1]] = pure ? (uint64_t)(j - s) : PERFBUF_PAIR_NO_ORDINAL;
        }
        s = e;
    }
}

/*
 * The parent names both captures have: their lists of unambiguous parent
 * names are each sorted by hash with one name per hash, so a merge compares
 * each pair of equal hashes once. Children then compare parents by hash
 * through this list, never by reading a parent's name again.
 */
static void share_parents(const capture_keys *older, capture_keys *newer)
{
    size_t a = 0, b = 0;
    while (a < older->parent_list_count && b < newer->parent_list_count) {
        PB_WORK(1);
        uint64_t ha = older->parent_list_hash[a], hb = newer->parent_list_hash[b];
        if (ha < hb) {
            a++;
        } else if (hb < ha) {
            b++;
        } else {
            if (names_equal(older->block, older->parent_list_name[a], newer->block,
                            newer->parent_list_name[b])) {
                newer->shared_parents[newer->shared_count++] = hb;
            }
            a++;
            b++;
        }
    }
}

static bool parent_shared(const capture_keys *newer, uint64_t hash)
{
    size_t lo = 0, hi = newer->shared_count;
    while (lo < hi) {
        PB_WORK(1);
        size_t mid = lo + (hi - lo) / 2;
        if (newer->shared_parents[mid] < hash) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < newer->shared_count && newer->shared_parents[lo] == hash;
}

/* Whether the first members of two unambiguous runs of equal hash have
 * one key: an unambiguous run's parent is unambiguous, so its hash names
 * one parent name per capture. */
static bool runs_match(const capture_keys *older, uint32_t a, const capture_keys *newer,
                       uint32_t b)
{
    if (older->name[a] == UNPAIRABLE || newer->name[b] == UNPAIRABLE ||
        older->unique_id[a] != newer->unique_id[b]) {
        return false;
    }
    if (older->unique_id[a] == 0 &&
        !names_equal(older->block, older->name[a], newer->block, newer->name[b])) {
        return false;
    }
    bool older_parent = older->parent_rep[a] != NO_NAME;
    bool newer_parent = newer->parent_rep[b] != NO_NAME;
    if (!older_parent || !newer_parent) {
        return older_parent == newer_parent;
    }
    return older->parent_hash[a] == newer->parent_hash[b] &&
           parent_shared(newer, newer->parent_hash[b]);
}

static void merge(const capture_keys *older, const capture_keys *newer, uint64_t *matches,
                  uint64_t *older_counters, perfbuf_v1_pairing *out)
{
    for (uint32_t i = 0; i < newer->count; i++) {
        PB_WORK(1);
        older_counters[i] = 0;
        uint64_t ord = newer->ordinal[i];
        matches[i] = pb_pairing_slot(ord == PERFBUF_PAIR_NO_ORDINAL ? PERFBUF_PAIR_AMBIGUOUS
                                                               : PERFBUF_PAIR_NEW,
                                ord, 0);
    }
    size_t a = 0, b = 0;
    while (a < older->count && b < newer->count) {
        PB_WORK(1);
        uint64_t ha = older->records[2 * a], hb = newer->records[2 * b];
        size_t ea = a + 1, eb = b + 1;
        while (ea < older->count && older->records[2 * ea] == ha) {
            PB_WORK(1);
            ea++;
        }
        while (eb < newer->count && newer->records[2 * eb] == hb) {
            PB_WORK(1);
            eb++;
        }
        if (ha < hb) {
            a = ea;
            continue;
        }
        if (hb < ha) {
            b = eb;
            continue;
        }
        uint32_t fa = (uint32_t)older->records[2 * a + 1];
        uint32_t fb = (uint32_t)newer->records[2 * b + 1];
        if (older->ordinal[fa] != PERFBUF_PAIR_NO_ORDINAL &&
            newer->ordinal[fb] != PERFBUF_PAIR_NO_ORDINAL && runs_match(older, fa, newer, fb)) {
            for (size_t j = 0; a + j < ea && b + j < eb; j++) {
                PB_WORK(1);
                uint32_t nb = (uint32_t)newer->records[2 * (b + j) + 1];
                uint32_t na = (uint32_t)older->records[2 * (a + j) + 1];
                matches[nb] = pb_pairing_slot(PERFBUF_PAIR_MATCHED, j, na);
                older_counters[nb] = older->counters[na];
            }
        }
        a = ea;
        b = eb;
    }
    for (uint32_t i = 0; i < newer->count; i++) {
        PB_WORK(1);
        uint32_t pairing = (uint32_t)(matches[i] >> PB_PAIRING_SHIFT);
        out->paired += pairing == PERFBUF_PAIR_MATCHED;
        out->new_instances += pairing == PERFBUF_PAIR_NEW;
        out->ambiguous += pairing == PERFBUF_PAIR_AMBIGUOUS;
    }
}

/* Instances of an object that has instances; 0 for a single counter block. */
static uint32_t instances_of(const perfbuf_v1_object *o)
{
    return o->num_instances > 0 ? o->instance_count : 0;
}

static bool add_slots(size_t *total, size_t more)
{
    return pb_add(*total, more, total);
}

/* The scratch of the keys, the matches and the name area; the block
 * indexes come on top unless the caller built them (perfbuf_v1_pair_objects). */
static bool keys_layout(const perfbuf_v1_object *oo, bool has_older, const perfbuf_v1_object *no,
                        size_t *slots)
{
    uint32_t n_old = has_older ? instances_of(oo) : 0;
    uint32_t n_new = instances_of(no);
    size_t keys = 0;
    size_t total = PB_TEXT_SLOTS;
    return pb_add((size_t)n_old, (size_t)n_new, &keys) &&
           pb_mul(keys, PER_INSTANCE_SLOTS, &keys) && add_slots(&total, keys) &&
           add_slots(&total, n_new) && add_slots(&total, n_new) &&
           add_slots(&total, 2 * (size_t)n_new) && (*slots = total, true);
}

static bool scratch_layout(const perfbuf_v1_block *older, const perfbuf_v1_object *oo,
                           bool has_older, const perfbuf_v1_block *newer,
                           const perfbuf_v1_object *no, size_t *slots)
{
    return keys_layout(oo, has_older, no, slots) &&
           add_slots(slots, has_older ? older->index_slots : 0) &&
           add_slots(slots, newer->index_slots);
}

static bool find_objects(const perfbuf_v1_block *older, const perfbuf_v1_block *newer,
                         uint32_t title, perfbuf_v1_object *oo, bool *has_older,
                         perfbuf_v1_object *no)
{
    if (perfbuf_v1_find_object(newer, title, no) != PERFBUF_OK) {
        return false;
    }
    *has_older = perfbuf_v1_find_object(older, title, oo) == PERFBUF_OK;
    return true;
}

perfbuf_status perfbuf_v1_pairing_scratch(const perfbuf_v1_block *older,
                                          const perfbuf_v1_block *newer, uint32_t object_title,
                                          size_t *slots)
{
    if (older == NULL || newer == NULL || slots == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    *slots = 0;
    perfbuf_v1_object oo, no;
    bool has_older = false;
    if (!find_objects(older, newer, object_title, &oo, &has_older, &no)) {
        return PERFBUF_E_NOT_FOUND;
    }
    return scratch_layout(older, &oo, has_older, newer, &no, slots) ? PERFBUF_OK
                                                                    : PERFBUF_E_LIMIT_EXCEEDED;
}

/* The keys of both captures and the merge, with their own frame: the
 * entry point's holds the pairing it fills (bench/stack-usage.sh). */
static PB_NOINLINE void pair_keys(perfbuf_v1_pairing *out, uint64_t *scratch, uint64_t *at,
                                  uint32_t n_old, uint32_t n_new)
{
    uint64_t *matches = scratch + PB_TEXT_SLOTS; /* as pair_layout placed them */
    capture_keys ok = {.block = out->older}, nk = {.block = out->newer};
    carve(&nk, at, n_new);
    carve(&ok, at + (size_t)n_new * PER_INSTANCE_SLOTS, n_old);
    key_capture(&nk, &out->newer_object, &out->newer_parents);
    key_capture(&ok, &out->older_object, &out->older_parents);
    share_parents(&ok, &nk);
    merge(&ok, &nk, matches, matches + n_new, out);
}

/* Places the name area, the matches, the older counter blocks and the
 * array calls' parent answers; returns the first slot after them. */
static uint64_t *place_results(perfbuf_v1_pairing *out, uint64_t *scratch)
{
    uint64_t *at = scratch;
    out->text = (char *)at;
    out->text_cap = PB_TEXT_SLOTS * sizeof(uint64_t);
    at += PB_TEXT_SLOTS;
    uint32_t n_new = instances_of(&out->newer_object);
    out->matches = at;
    at += n_new;
    out->older_counters = at;
    at += n_new;
    out->parent_answers = at;
    at += 2 * (size_t)n_new;
    return at;
}

/* Fills *out as far as the block indexes; false when one cannot be built. */
static bool pair_layout(perfbuf_v1_pairing *out, uint64_t *scratch, uint64_t **keys)
{
    uint64_t *at = place_results(out, scratch);
    if (perfbuf_v1_block_index_build(out->newer, at, out->newer->index_slots,
                                     &out->newer_parents) != PERFBUF_OK) {
        return false;
    }
    at += out->newer->index_slots;
    if (out->has_older) {
        if (perfbuf_v1_block_index_build(out->older, at, out->older->index_slots,
                                         &out->older_parents) != PERFBUF_OK) {
            return false;
        }
        at += out->older->index_slots;
    }
    *keys = at;
    return true;
}

perfbuf_status perfbuf_v1_pair(const perfbuf_v1_block *older, const perfbuf_v1_block *newer,
                               uint32_t object_title, uint64_t *scratch, size_t cap,
                               perfbuf_v1_pairing *out)
{
    if (out == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    *out = (perfbuf_v1_pairing){0};
    if (older == NULL || newer == NULL || (scratch == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    out->older = older;
    out->newer = newer;
    perfbuf_status st = PERFBUF_OK;
    size_t need = 0;
    uint64_t *keys = NULL;
    if (!find_objects(older, newer, object_title, &out->older_object, &out->has_older,
                      &out->newer_object)) {
        st = PERFBUF_E_NOT_FOUND;
    } else if (!scratch_layout(older, &out->older_object, out->has_older, newer,
                               &out->newer_object, &need)) {
        st = PERFBUF_E_LIMIT_EXCEEDED;
    } else if (cap < need) {
        st = PERFBUF_E_OUTPUT_TOO_SMALL;
    } else if (!pair_layout(out, scratch, &keys)) {
        st = PERFBUF_E_INVALID_ARGUMENT;
    }
    if (st != PERFBUF_OK) {
        *out = (perfbuf_v1_pairing){0};
        return st;
    }
    /* Names in two code pages are not comparable, so an object whose
     * CodePage changed pairs nothing: its older instances are not keyed. */
    uint32_t n_old = out->has_older && out->older_object.code_page == out->newer_object.code_page
                         ? instances_of(&out->older_object)
                         : 0u;
    pair_keys(out, scratch, keys, n_old, instances_of(&out->newer_object));
    return PERFBUF_OK;
}

perfbuf_status perfbuf_v1_pairing_scratch_objects(const perfbuf_v1_object *older_object,
                                                  const perfbuf_v1_object *newer_object,
                                                  size_t *slots)
{
    if (newer_object == NULL || slots == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    *slots = 0;
    return keys_layout(older_object, older_object != NULL, newer_object, slots)
               ? PERFBUF_OK
               : PERFBUF_E_LIMIT_EXCEEDED;
}

/* A block index of the whole block b, as perfbuf_v1_block_index_build
 * makes it for this parse: anything else would make each parent a walk of
 * the block, or (an index kept from an earlier capture received into the
 * same buffer) read the old names' lengths over the new names. */
static bool block_index_of(const perfbuf_v1_block *b, const perfbuf_v1_instance_index *index)
{
    return index != NULL && index->slots != NULL && index->block_data == b->data &&
           index->parse_id == b->parse_id && index->slot_count == b->index_slots;
}

perfbuf_status perfbuf_v1_pair_objects(const perfbuf_v1_block *older,
                                       const perfbuf_v1_object *older_object,
                                       const perfbuf_v1_instance_index *older_parents,
                                       const perfbuf_v1_block *newer,
                                       const perfbuf_v1_object *newer_object,
                                       const perfbuf_v1_instance_index *newer_parents,
                                       uint64_t *scratch, size_t cap, perfbuf_v1_pairing *out)
{
    if (out == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    *out = (perfbuf_v1_pairing){0};
    bool has_older = older_object != NULL;
    if (older == NULL || newer == NULL || newer_object == NULL ||
        (scratch == NULL && cap != 0) || !pb_v1_object_of_block(newer, newer_object) ||
        !block_index_of(newer, newer_parents) ||
        (has_older &&
         (!pb_v1_object_of_block(older, older_object) || !block_index_of(older, older_parents)))) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    size_t need = 0;
    if (!keys_layout(older_object, has_older, newer_object, &need)) {
        return PERFBUF_E_LIMIT_EXCEEDED;
    }
    if (cap < need) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    out->older = older;
    out->newer = newer;
    out->newer_object = *newer_object;
    out->newer_parents = *newer_parents;
    out->has_older = has_older;
    if (has_older) {
        out->older_object = *older_object;
        out->older_parents = *older_parents;
    }
    uint64_t *keys = place_results(out, scratch);
    uint32_t n_old = has_older && out->older_object.code_page == out->newer_object.code_page
                         ? instances_of(&out->older_object)
                         : 0u;
    pair_keys(out, scratch, keys, n_old, instances_of(&out->newer_object));
    return PERFBUF_OK;
}

bool perfbuf_v1_pairing_instance(const perfbuf_v1_pairing *p, uint32_t newer_index,
                                 uint32_t *pairing, uint32_t *ordinal, uint32_t *older_index)
{
    if (p == NULL || p->matches == NULL || newer_index >= instances_of(&p->newer_object)) {
        return false;
    }
    pb_read_pairing_slot(p->matches[newer_index], pairing, ordinal, older_index);
    return true;
}
