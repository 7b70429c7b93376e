/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Pairing the instances of one counter block across two V2 query buffers
 * (docs/collector.md). The key is (InstanceId, name, ordinal among that id
 * and name). As for V1, hashes are sorted in the caller's scratch and
 * merge-joined, and a hash is never trusted alone: each run is compared
 * with its first member, two runs pair only after their firsts compared
 * equal, and a run of several keys (a collision) pairs nothing.
 */
#include "perfbuf/collector.h"

#include "core/check.h"
#include "core/work.h"
#include "collector/internal.h"
#include "collector/pair_keys.h"

/* Per instance: name, id, ordinal, two record slots. */
#define V2_KEY_SLOTS 5u
/* Per newer instance besides its keys: match, and an older sample. */
#define V2_NEWER_SLOTS (1u + PB_V2_SAMPLE_SLOTS)

typedef struct v2_keys {
    const perfbuf_v2_query *q;
    uint32_t count;
    uint64_t *name;
    uint64_t *id;
    uint64_t *ordinal;
    uint64_t *records;
} v2_keys;

static uint32_t instances_in(const perfbuf_v2_block *b)
{
    return b != NULL && (b->kind == PERFBUF_V2_MULTIPLE_INSTANCES ||
                         b->kind == PERFBUF_V2_COUNTERSET)
               ? b->instance_count
               : 0u;
}

static void v2_carve(v2_keys *k, uint64_t *area, uint32_t count)
{
    k->count = count;
    k->name = area;
    k->id = area + count;
    k->ordinal = area + 2 * (size_t)count;
    k->records = area + 3 * (size_t)count;
}

static bool same_key(const v2_keys *a, uint32_t i, const v2_keys *b, uint32_t j)
{
    return a->id[i] == b->id[j] &&
           pb_key_names_equal(a->q->data, a->q->size, a->name[i], b->q->data, b->q->size,
                              b->name[j]);
}

static void key_block(v2_keys *k, const perfbuf_v2_block *block)
{
    perfbuf_v2_iter it;
    perfbuf_v2_instance inst;
    uint32_t i = 0;
    perfbuf_v2_instances_begin(block, &it);
    while (i < k->count && perfbuf_v2_instances_next(k->q, block, &it, &inst)) {
        if (!pb_key_pack_name(inst.name_offset, inst.name_units * 2u, 0, &k->name[i])) {
            k->name[i] = PB_KEY_UNPAIRABLE;
        }
        k->id[i] = inst.id;
        i++;
    }
    for (; i < k->count; i++) {
        PB_WORK(1);
        k->name[i] = PB_KEY_UNPAIRABLE;
        k->id[i] = 0;
    }
    for (i = 0; i < k->count; i++) {
        PB_WORK(1);
        uint64_t h = pb_key_name_hash(k->q->data, k->q->size, k->name[i]);
        k->records[2 * (size_t)i] = pb_key_mix(h ^ pb_key_mix(k->id[i] + 1u)) &
                                    PB_PAIRING_HASH_MASK;
        k->records[2 * (size_t)i + 1] = i;
    }
    pb_key_sort_records(k->records, k->count);
    for (size_t s = 0; s < k->count;) {
        size_t e = s + 1;
        uint32_t first = (uint32_t)k->records[2 * s + 1];
        bool pure = k->name[first] != PB_KEY_UNPAIRABLE;
        while (e < k->count && k->records[2 * e] == k->records[2 * s]) {
            PB_WORK(1);
            if (!same_key(k, first, k, (uint32_t)k->records[2 * e + 1])) {
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

static void v2_merge(const v2_keys *older, const v2_keys *newer, uint64_t *matches,
                  uint64_t *older_to_newer, perfbuf_v2_pairing *out)
{
    for (uint32_t i = 0; i < newer->count; i++) {
        PB_WORK(1);
        uint64_t ord = newer->ordinal[i];
        matches[i] = pb_pairing_slot(ord == PERFBUF_PAIR_NO_ORDINAL ? PERFBUF_PAIR_AMBIGUOUS
                                                               : PERFBUF_PAIR_NEW,
                                ord, 0);
    }
    for (uint32_t i = 0; i < older->count; i++) {
        PB_WORK(1);
        older_to_newer[i] = 0;
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
        if (ha != hb) {
            if (ha < hb) {
                a = ea;
            } else {
                b = eb;
            }
            continue;
        }
        uint32_t fa = (uint32_t)older->records[2 * a + 1];
        uint32_t fb = (uint32_t)newer->records[2 * b + 1];
        if (older->ordinal[fa] != PERFBUF_PAIR_NO_ORDINAL &&
            newer->ordinal[fb] != PERFBUF_PAIR_NO_ORDINAL && same_key(older, fa, newer, fb)) {
            for (size_t j = 0; a + j < ea && b + j < eb; j++) {
                PB_WORK(1);
                uint32_t nb = (uint32_t)newer->records[2 * (b + j) + 1];
                uint32_t na = (uint32_t)older->records[2 * (a + j) + 1];
                matches[nb] = pb_pairing_slot(PERFBUF_PAIR_MATCHED, j, na);
                older_to_newer[na] = (uint64_t)nb + 1u;
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

static bool v2_slots(uint32_t n_old, uint32_t n_new, size_t *slots)
{
    size_t total = PB_TEXT_SLOTS, part = 0;
    return pb_mul((size_t)n_new, V2_KEY_SLOTS + V2_NEWER_SLOTS, &part) &&
           pb_add(total, part, &total) &&
           pb_mul((size_t)n_old, V2_KEY_SLOTS + 1u, &part) && pb_add(total, part, &total) &&
           (*slots = total, true);
}

perfbuf_status perfbuf_v2_pairing_scratch(const perfbuf_v2_block *older_block,
                                          const perfbuf_v2_block *newer_block, size_t *slots)
{
    if (newer_block == NULL || slots == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    *slots = 0;
    return v2_slots(instances_in(older_block), instances_in(newer_block), slots)
               ? PERFBUF_OK
               : PERFBUF_E_LIMIT_EXCEEDED;
}

static PB_NOINLINE void pair_v2_keys(perfbuf_v2_pairing *out, uint64_t *at, uint32_t n_old,
                                     uint32_t n_new)
{
    v2_keys ok = {.q = out->older}, nk = {.q = out->newer};
    v2_carve(&nk, at, n_new);
    v2_carve(&ok, at + (size_t)n_new * V2_KEY_SLOTS, n_old);
    key_block(&nk, &out->newer_block);
    if (n_old > 0) {
        key_block(&ok, &out->older_block);
    }
    uint64_t *matches = at + (size_t)n_new * V2_KEY_SLOTS + (size_t)n_old * V2_KEY_SLOTS;
    uint64_t *older_to_newer = matches + n_new;
    out->matches = matches;
    out->older_to_newer = older_to_newer;
    out->older_samples = older_to_newer + n_old;
    v2_merge(&ok, &nk, matches, older_to_newer, out);
}

perfbuf_status perfbuf_v2_pair(const perfbuf_v2_query *older, const perfbuf_v2_block *older_block,
                               const perfbuf_v2_query *newer, const perfbuf_v2_block *newer_block,
                               uint64_t *scratch, size_t cap, perfbuf_v2_pairing *out)
{
    if (out == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    *out = (perfbuf_v2_pairing){0};
    if (newer == NULL || newer_block == NULL || (older_block != NULL && older == NULL) ||
        (scratch == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    uint32_t n_new = instances_in(newer_block);
    uint32_t n_old = instances_in(older_block);
    size_t need = 0;
    if (!v2_slots(n_old, n_new, &need)) {
        return PERFBUF_E_LIMIT_EXCEEDED;
    }
    if (cap < need) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    out->older = older;
    out->newer = newer;
    out->newer_block = *newer_block;
    out->has_older = older_block != NULL;
    if (older_block != NULL) {
        out->older_block = *older_block;
    }
    out->text = (char *)scratch;
    out->text_cap = PB_TEXT_SLOTS * sizeof(uint64_t);
    pair_v2_keys(out, scratch + PB_TEXT_SLOTS, n_old, n_new);
    return PERFBUF_OK;
}

bool perfbuf_v2_pairing_instance(const perfbuf_v2_pairing *p, uint32_t newer_index,
                                 uint32_t *pairing, uint32_t *ordinal, uint32_t *older_index)
{
    if (p == NULL || p->matches == NULL || newer_index >= instances_in(&p->newer_block)) {
        return false;
    }
    pb_read_pairing_slot(p->matches[newer_index], pairing, ordinal, older_index);
    return true;
}
