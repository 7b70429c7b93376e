/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Structure-aware mutation of PerfLib V2 query data (docs/v2-query.md):
 *   PERF_DATA_HEADER
 *     PERF_COUNTER_HEADER ...                    one node per block
 *       [PERF_MULTI_COUNTERS + ids]              the block's var bytes
 *       [PERF_MULTI_INSTANCES]                   written, never stored
 *         PERF_INSTANCE_HEADER + name            depth 2
 *           PERF_COUNTER_DATA ...                depth 3
 *       PERF_COUNTER_DATA ...                    depth 2 (no instances)
 * The writer computes dwTotalSize, dwNumCounters, every dwSize,
 * PERF_MULTI_COUNTERS, PERF_MULTI_INSTANCES, instance Size and dwDataSize,
 * so a mutant is invalid only where the mutation meant a field to be.
 */
#ifndef PERFBUF_FUZZ_MUTATOR_V2_QUERY_H
#define PERFBUF_FUZZ_MUTATOR_V2_QUERY_H

#include "mutator.h"

enum { V2M_HEADER = 1, V2M_BLOCK, V2M_INSTANCE, V2M_VALUE };

/* Block kinds (PERF_COUNTER_HEADER.dwType) and what each one holds. */
static bool v2m_has_ids(uint32_t type)
{
    return type == 2 || type == 6;
}

static bool v2m_has_instances(uint32_t type)
{
    return type == 4 || type == 6;
}

static bool v2m_known(uint32_t type)
{
    return type == 0 || type == 1 || type == 2 || type == 4 || type == 6;
}

static uint32_t v2m_type(const mut_tree *t, const mut_node *n)
{
    return mut_get32(t->arena + n->hdr_off + 4);
}

/* count PERF_COUNTER_DATA at p, inside [.., end), as nodes of depth. */
static bool v2m_read_values(mut_tree *t, size_t *p, size_t end, uint32_t count, uint8_t depth)
{
    const uint8_t *d = t->arena;
    for (uint32_t i = 0; i < count; i++) {
        if (!mut_inside(*p, 8, end)) {
            return false;
        }
        uint32_t data_size = mut_get32(d + *p);
        uint32_t size = mut_get32(d + *p + 4);
        if (size < 8 || !mut_inside(*p, size, end) || data_size > size - 8) {
            return false;
        }
        if (mut_add(t, V2M_VALUE, depth, *p, 8, *p + 8, data_size) == NULL) {
            return false;
        }
        *p += size;
    }
    return true;
}

static bool v2m_read_instances(mut_tree *t, size_t *p, size_t end, uint32_t counters)
{
    const uint8_t *d = t->arena;
    if (!mut_inside(*p, 8, end)) {
        return false;
    }
    uint32_t total = mut_get32(d + *p);
    uint32_t count = mut_get32(d + *p + 4);
    if (total < 8 || !mut_inside(*p, total, end) || count > (total - 8) / 10) {
        return false;
    }
    size_t region_end = *p + total;
    *p += 8;
    for (uint32_t i = 0; i < count; i++) {
        if (!mut_inside(*p, 8, region_end)) {
            return false;
        }
        uint32_t size = mut_get32(d + *p);
        if (size < 8 || !mut_inside(*p, size, region_end)) {
            return false;
        }
        size_t units = 0;
        while (units < (size - 8) / 2 && (d[*p + 8 + units * 2] | d[*p + 9 + units * 2]) != 0) {
            units++;
        }
        if (units == (size - 8) / 2) {
            return false;
        }
        if (mut_add(t, V2M_INSTANCE, 2, *p, 8, *p + 8, units * 2) == NULL) {
            return false;
        }
        *p += size;
        if (!v2m_read_values(t, p, region_end, counters, 3)) {
            return false;
        }
    }
    *p = region_end;
    return true;
}

static bool v2m_read(mut_tree *t, size_t size)
{
    const uint8_t *d = t->arena;
    if (size < 48) {
        return false;
    }
    uint32_t total = mut_get32(d);
    uint32_t count = mut_get32(d + 4);
    if (total < 48 || total > size || count > (total - 48) / 16) {
        return false;
    }
    if (mut_add(t, V2M_HEADER, 0, 8, 40, 0, 0) == NULL) {
        return false;
    }
    size_t pos = 48;
    for (uint32_t i = 0; i < count; i++) {
        if (!mut_inside(pos, 16, total)) {
            return false;
        }
        uint32_t type = mut_get32(d + pos + 4);
        uint32_t bsize = mut_get32(d + pos + 8);
        if (bsize < 16 || !mut_inside(pos, bsize, total) || !v2m_known(type)) {
            return false;
        }
        size_t end = pos + bsize;
        size_t p = pos + 16;
        mut_node *block = mut_add(t, V2M_BLOCK, 1, pos, 16, 0, 0);
        if (block == NULL) {
            return false;
        }
        uint32_t counters = type == 0 ? 0 : 1;
        if (v2m_has_ids(type)) {
            if (!mut_inside(p, 8, end)) {
                return false;
            }
            uint32_t msize = mut_get32(d + p);
            uint32_t n = mut_get32(d + p + 4);
            if (msize < 8 || !mut_inside(p, msize, end) || !mut_inside(p, mut_align8(msize), end) ||
                n > (msize - 8) / 4) {
                return false;
            }
            block->var_off = (uint32_t)(p + 8);
            block->var_len = n * 4;
            counters = n;
            p += mut_align8(msize);
        }
        if (v2m_has_instances(type)) {
            if (!v2m_read_instances(t, &p, end, counters)) {
                return false;
            }
        } else if (!v2m_read_values(t, &p, end, counters, 2)) {
            return false;
        }
        pos = end;
    }
    return true;
}

static void v2m_close_block(mut_out *o, size_t block_at, size_t list_at, uint32_t instances)
{
    mut_patch32(o, block_at + 8, (uint32_t)(o->len - block_at));
    if (list_at != 0) {
        mut_patch32(o, list_at, (uint32_t)(o->len - list_at));
        mut_patch32(o, list_at + 4, instances);
    }
}

static void v2m_write(const mut_tree *t, mut_out *o)
{
    const uint8_t *a = t->arena;
    uint32_t blocks = 0, instances = 0;
    size_t block_at = 0, list_at = 0;
    mut_emit(o, NULL, 8);
    for (uint32_t i = 0; i < t->count && o->ok; i++) {
        const mut_node *n = &t->node[i];
        size_t at = o->len;
        switch (n->kind) {
        case V2M_HEADER:
            mut_emit(o, a + n->hdr_off, n->hdr_len);
            break;
        case V2M_BLOCK: {
            if (blocks > 0) {
                v2m_close_block(o, block_at, list_at, instances);
            }
            blocks++;
            block_at = at;
            list_at = 0;
            instances = 0;
            mut_emit(o, a + n->hdr_off, 16);
            uint32_t type = v2m_type(t, n);
            if (v2m_has_ids(type)) {
                uint8_t list[8];
                uint32_t len = n->var_len & ~3u;
                mut_put32(list, 8 + len);
                mut_put32(list + 4, len / 4);
                size_t list_start = o->len;
                mut_emit(o, list, 8);
                mut_emit(o, a + n->var_off, len);
                mut_pad8(o, list_start);
            }
            if (v2m_has_instances(type)) {
                list_at = o->len;
                mut_emit(o, NULL, 8);
            }
            break;
        }
        case V2M_INSTANCE: {
            uint8_t *h = mut_emit(o, a + n->hdr_off, 8);
            uint32_t len = n->var_len & ~1u;
            mut_emit(o, a + n->var_off, len);
            mut_emit(o, NULL, 2);
            mut_pad8(o, at);
            if (h != NULL) {
                mut_put32(h, (uint32_t)(o->len - at));
            }
            instances++;
            break;
        }
        case V2M_VALUE: {
            uint8_t h[8];
            mut_put32(h, n->var_len);
            mut_put32(h + 4, (uint32_t)mut_align8(8u + n->var_len));
            mut_emit(o, h, 8);
            mut_emit(o, a + n->var_off, n->var_len);
            mut_pad8(o, at);
            break;
        }
        default:
            o->ok = false;
            break;
        }
    }
    if (blocks > 0) {
        v2m_close_block(o, block_at, list_at, instances);
    }
    mut_patch32(o, 0, (uint32_t)o->len);
    mut_patch32(o, 4, blocks);
}

/* ---- mutations ---- */

/* A fresh value node at position at: 4 or 8 bytes, as most counters are. */
static bool v2m_new_value(mut_tree *t, mut_rng *r, uint32_t at, uint8_t depth)
{
    uint32_t len = mut_rand(r, 2) ? 8 : 4;
    uint32_t off;
    uint8_t *p = mut_alloc(t, len, &off);
    if (p == NULL || t->count >= MUT_MAX_NODES) {
        return false;
    }
    for (uint32_t i = 0; i < len; i++) {
        p[i] = (uint8_t)mut_rand(r, 256);
    }
    mut_node n = {V2M_VALUE, depth, 0, 0, 0, off, len};
    memmove(&t->node[at + 1], &t->node[at], (t->count - at) * sizeof n);
    t->node[at] = n;
    t->count++;
    return true;
}

/* In one value list (a block's, or an instance's): a value at k, a copy
 * of a neighbour when there is one. */
static bool v2m_insert_value(mut_tree *t, mut_rng *r, uint32_t parent, uint32_t k)
{
    uint32_t c = mut_child_count(t, parent, V2M_VALUE);
    uint32_t at = k < c ? mut_child(t, parent, V2M_VALUE, k) : mut_subtree_end(t, parent);
    if (c == 0) {
        return v2m_new_value(t, r, at, (uint8_t)(t->node[parent].depth + 1));
    }
    uint32_t src = mut_child(t, parent, V2M_VALUE, k < c ? k : c - 1);
    return mut_copy_run(t, src, src + 1, at);
}

static void v2m_remove_value(mut_tree *t, uint32_t parent, uint32_t k)
{
    uint32_t i = mut_child(t, parent, V2M_VALUE, k);
    if (i < t->count) {
        mut_delete_run(t, i, i + 1);
    }
}

/* Adds (add) or removes counter k of a block with an id list: the id, and
 * the value at k of the block or of every instance. */
static bool v2m_counter(mut_tree *t, mut_rng *r, uint32_t b, bool add)
{
    uint32_t n = t->node[b].var_len / 4;
    if (!add && n == 0) {
        return false;
    }
    uint32_t k = mut_rand(r, add ? n + 1 : n);
    uint32_t off;
    uint8_t *ids = mut_alloc(t, (size_t)(n + 1) * 4, &off);
    if (ids == NULL) {
        return false;
    }
    const uint8_t *old = t->arena + t->node[b].var_off;
    memcpy(ids, old, (size_t)k * 4);
    if (add) {
        mut_put32(ids + k * 4, mut_rand(r, 4) ? mut_rand(r, 64) : mut_rand(r, UINT32_MAX));
        memcpy(ids + (k + 1) * 4, old + k * 4, (size_t)(n - k) * 4);
    } else {
        memcpy(ids + k * 4, old + (k + 1) * 4, (size_t)(n - k - 1) * 4);
    }
    t->node[b].var_off = off;
    t->node[b].var_len = (add ? n + 1 : n - 1) * 4;
    if (!v2m_has_instances(v2m_type(t, &t->node[b]))) {
        if (add) {
            return v2m_insert_value(t, r, b, k);
        }
        v2m_remove_value(t, b, k);
        return true;
    }
    uint32_t count = mut_child_count(t, b, V2M_INSTANCE);
    for (uint32_t j = 0; j < count; j++) {
        uint32_t inst = mut_child(t, b, V2M_INSTANCE, j);
        if (add) {
            if (!v2m_insert_value(t, r, inst, k)) {
                return false;
            }
        } else {
            v2m_remove_value(t, inst, k);
        }
    }
    return true;
}

/* UTF-16 units names are made of: plain, separators the reader treats
 * specially, non-ASCII, and lone surrogates. */
static uint16_t v2m_name_unit(mut_rng *r)
{
    static const uint16_t units[] = {'_', 'T', 'o', 'a', 'l', '0', '9', '#', '/', ' ', '*',
                                     0x00E9, 0x4E2D, 0xD800, 0xDC00, 0xFFFF};
    return units[mut_rand(r, (uint32_t)(sizeof units / sizeof units[0]))];
}

static bool v2m_name(mut_tree *t, mut_rng *r, mut_bytes_fn bytes, uint32_t i)
{
    mut_node *n = &t->node[i];
    switch (mut_rand(r, 3)) {
    case 0: {
        uint32_t grow = 1 + mut_rand(r, 8);
        uint32_t off;
        uint8_t *p = mut_alloc(t, n->var_len + (size_t)grow * 2, &off);
        if (p == NULL) {
            return false;
        }
        memcpy(p, t->arena + n->var_off, n->var_len);
        for (uint32_t u = 0; u < grow; u++) {
            uint16_t c = v2m_name_unit(r);
            p[n->var_len + u * 2] = (uint8_t)c;
            p[n->var_len + u * 2 + 1] = (uint8_t)(c >> 8);
        }
        n->var_off = off;
        n->var_len += grow * 2;
        return true;
    }
    case 1:
        if (n->var_len == 0) {
            return false;
        }
        n->var_len = mut_rand(r, n->var_len / 2) * 2;
        return true;
    default:
        return mut_var_bytes(t, n, bytes, n->var_len + 16);
    }
}

/* One field of one structure, through the engine's byte mutation or a
 * value that such fields are often wrong by. */
static bool v2m_field(mut_tree *t, mut_rng *r, mut_bytes_fn bytes)
{
    uint32_t i = mut_rand(r, t->count);
    mut_node *n = &t->node[i];
    switch (n->kind) {
    case V2M_HEADER: {
        /* PerfTimeStamp, PerfTime100NSec, PerfFreq, SystemTime. */
        static const uint8_t at[] = {0, 8, 16, 24}, width[] = {8, 8, 8, 16};
        uint8_t *h = mut_own_hdr(t, n);
        uint32_t f = mut_rand(r, 4);
        if (h == NULL) {
            return false;
        }
        mut_field(bytes, h + at[f], width[f]);
        return true;
    }
    case V2M_BLOCK: {
        uint8_t *h = mut_own_hdr(t, n);
        if (h == NULL) {
            return false;
        }
        switch (mut_rand(r, 6)) {
        case 0:
            mut_field(bytes, h, 4);
            break;
        case 1: {
            /* A kind change leaves the contents of the old kind: mostly a
             * rejection, sometimes a reading of one kind as another. */
            static const uint32_t kinds[] = {0, 1, 2, 4, 6, 3, 5, 7};
            mut_put32(h + 4, kinds[mut_rand(r, 8)]);
            break;
        }
        case 2:
            mut_put32(h + 12, mut_rand(r, 2) ? 0 : mut_interesting32(r, mut_get32(h + 12)));
            break;
        default:
            if (n->var_len < 4) {
                mut_field(bytes, h, 4);
                break;
            }
            uint32_t off;
            uint8_t *ids = mut_alloc(t, n->var_len, &off);
            if (ids == NULL) {
                return false;
            }
            memcpy(ids, t->arena + n->var_off, n->var_len);
            uint32_t k = mut_rand(r, n->var_len / 4);
            if (mut_rand(r, 2)) {
                mut_field(bytes, ids + k * 4, 4);
            } else {
                mut_put32(ids + k * 4, mut_interesting32(r, mut_get32(ids + k * 4)));
            }
            n->var_off = off;
            break;
        }
        return true;
    }
    case V2M_INSTANCE: {
        uint8_t *h = mut_own_hdr(t, n);
        if (h == NULL) {
            return false;
        }
        if (mut_rand(r, 2)) {
            mut_field(bytes, h + 4, 4);
        } else {
            mut_put32(h + 4, mut_interesting32(r, mut_get32(h + 4)));
        }
        return true;
    }
    case V2M_VALUE:
        if (mut_rand(r, 4) == 0) {
            /* An integer of the other width: 4 and 8 bytes read as numbers. */
            uint32_t len = n->var_len == 4 ? 8 : 4, off;
            uint8_t *p = mut_alloc(t, len, &off);
            if (p == NULL) {
                return false;
            }
            for (uint32_t b = 0; b < len; b++) {
                p[b] = (uint8_t)mut_rand(r, 256);
            }
            n->var_off = off;
            n->var_len = len;
            return true;
        }
        return mut_var_bytes(t, n, bytes, n->var_len + 8);
    default:
        return false;
    }
}

/* A copy of a block or an instance, with all it holds, next to it. */
static bool v2m_duplicate(mut_tree *t, mut_rng *r, uint8_t kind, uint32_t times)
{
    uint32_t i = mut_pick_kind(t, r, kind);
    if (i >= t->count) {
        return false;
    }
    uint32_t end = mut_subtree_end(t, i);
    for (uint32_t k = 0; k < times; k++) {
        if (!mut_copy_run(t, i, end, mut_rand(r, 2) ? end : i)) {
            return k > 0;
        }
        i = end;
        end = mut_subtree_end(t, i);
    }
    return true;
}

static bool v2m_delete(mut_tree *t, mut_rng *r, uint8_t kind)
{
    uint32_t i = mut_pick_kind(t, r, kind);
    if (i >= t->count) {
        return false;
    }
    mut_delete_run(t, i, mut_subtree_end(t, i));
    return true;
}

/* A block whose kind carries ids or instances, picked at random. */
static uint32_t v2m_pick_block(const mut_tree *t, mut_rng *r, bool (*has)(uint32_t))
{
    uint32_t found = 0, pick = t->count;
    for (uint32_t i = 0; i < t->count; i++) {
        if (t->node[i].kind == V2M_BLOCK && has(v2m_type(t, &t->node[i])) &&
            mut_rand(r, ++found) == 0) {
            pick = i;
        }
    }
    return pick;
}

/* Sets a block's instance count to a new value: copies of its instances
 * appended, or its last instances removed. */
static bool v2m_instance_count(mut_tree *t, mut_rng *r)
{
    uint32_t b = v2m_pick_block(t, r, v2m_has_instances);
    if (b >= t->count) {
        return false;
    }
    uint32_t have = mut_child_count(t, b, V2M_INSTANCE);
    uint32_t want = mut_rand(r, 2) ? mut_rand(r, have + 1) : have + 1 + mut_rand(r, 16);
    if (have == 0 || want == have) {
        return false;
    }
    while (have > want) {
        uint32_t i = mut_child(t, b, V2M_INSTANCE, have - 1);
        mut_delete_run(t, i, mut_subtree_end(t, i));
        have--;
    }
    while (have < want) {
        uint32_t i = mut_child(t, b, V2M_INSTANCE, mut_rand(r, have));
        if (!mut_copy_run(t, i, mut_subtree_end(t, i), mut_subtree_end(t, b))) {
            break;
        }
        have++;
    }
    return true;
}

/* A new block of a random kind among the blocks: the smallest contents
 * that kind can have (one id, one instance named "_Total", one value). */
static bool v2m_new_block(mut_tree *t, mut_rng *r)
{
    static const uint32_t kinds[] = {0, 1, 2, 4, 6};
    static const uint8_t name[] = {'_', 0, 'T', 0, 'o', 0, 't', 0, 'a', 0, 'l', 0};
    uint32_t type = kinds[mut_rand(r, 5)];
    uint32_t blocks = mut_count_kind(t, V2M_BLOCK);
    uint32_t at = mut_rand(r, blocks + 1);
    at = at < blocks ? mut_nth_kind(t, V2M_BLOCK, at) : t->count;
    /* Block header, instance header, a 4-byte id or value, the name. */
    uint32_t off;
    uint8_t *p = mut_alloc(t, 28 + sizeof name, &off);
    if (p == NULL || t->count > MUT_MAX_NODES - 3) {
        return false;
    }
    memset(p, 0, 28);
    mut_put32(p + 4, type);
    mut_put32(p + 20, mut_rand(r, 4));
    mut_put32(p + 24, mut_rand(r, 16));
    memcpy(p + 28, name, sizeof name);
    mut_node nodes[3] = {{V2M_BLOCK, 1, 0, off, 16, off + 24, v2m_has_ids(type) ? 4u : 0u},
                         {V2M_INSTANCE, 2, 0, off + 16, 8, off + 28, sizeof name},
                         {V2M_VALUE, 3, 0, 0, 0, off + 24, 4}};
    uint32_t n = 3;
    if (!v2m_has_instances(type)) {
        nodes[1] = nodes[2];
        nodes[1].depth = 2;
        n = type == 0 ? 1 : 2;
    }
    memmove(&t->node[at + n], &t->node[at], (t->count - at) * sizeof nodes[0]);
    memcpy(&t->node[at], nodes, n * sizeof nodes[0]);
    t->count += n;
    return true;
}

static bool v2m_multiple_counters(uint32_t type)
{
    return type == 2;
}

/*
 * A block of PERF_MULTIPLE_COUNTERS given about a thousand more counters at
 * once (as many as fit), their ids mostly new and ascending, with one id
 * repeated and one value of a width that is not an integer's (2, 3, 12 or
 * 16 bytes): a reader with a fast path for the usual shape and a fallback
 * for any exception must not take the fallback once per counter.
 */
static bool v2m_many_counters(mut_tree *t, mut_rng *r)
{
    uint32_t b = v2m_pick_block(t, r, v2m_multiple_counters);
    if (b >= t->count) {
        return false;
    }
    uint32_t n = t->node[b].var_len / 4;
    uint32_t end = mut_subtree_end(t, b);
    uint32_t want = 512u << mut_rand(r, 4);
    /* Each counter: 4 bytes of id, a value node of 8 + 8 bytes. */
    size_t room = t->max_size > t->in_size ? t->max_size - t->in_size : 0;
    if (want > room / 20u) {
        want = (uint32_t)(room / 20u);
    }
    if (want > MUT_MAX_NODES - t->count) {
        want = MUT_MAX_NODES - t->count;
    }
    if (want < 2) {
        return false;
    }
    uint32_t ids_off, values_off, odd_off;
    uint8_t *ids = mut_alloc(t, ((size_t)n + want) * 4u, &ids_off);
    uint8_t *values = ids != NULL ? mut_alloc(t, 8, &values_off) : NULL;
    uint8_t *odd = values != NULL ? mut_alloc(t, 16, &odd_off) : NULL;
    if (odd == NULL) {
        return false;
    }
    memcpy(ids, t->arena + t->node[b].var_off, (size_t)n * 4u);
    uint32_t next = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t id = mut_get32(ids + (size_t)k * 4u);
        next = id >= next && id < UINT32_MAX - want ? id + 1 : next;
    }
    for (uint32_t k = 0; k < want; k++) {
        mut_put32(ids + ((size_t)n + k) * 4u, next + k);
    }
    uint32_t total = n + want;
    uint32_t repeated = mut_rand(r, total);
    uint32_t copy_of = mut_rand(r, total);
    memcpy(ids + (size_t)repeated * 4u, ids + (size_t)copy_of * 4u, 4);
    for (uint32_t k = 0; k < 8; k++) {
        values[k] = (uint8_t)mut_rand(r, 256);
    }
    for (uint32_t k = 0; k < 16; k++) {
        odd[k] = (uint8_t)mut_rand(r, 256);
    }
    static const uint32_t odd_widths[] = {2, 3, 12, 16};
    uint32_t odd_at = mut_rand(r, want);
    memmove(&t->node[end + want], &t->node[end], (t->count - end) * sizeof t->node[0]);
    for (uint32_t k = 0; k < want; k++) {
        mut_node v = {V2M_VALUE, (uint8_t)(t->node[b].depth + 1), 0, 0, 0, values_off, 8};
        if (k == odd_at) {
            v.var_off = odd_off;
            v.var_len = odd_widths[mut_rand(r, 4)];
        }
        t->node[end + k] = v;
    }
    t->count += want;
    t->node[b].var_off = ids_off;
    t->node[b].var_len = total * 4u;
    return true;
}

/* An instance or a block 2 to 64 times over (as far as max_size allows),
 * counters added to a block with an id list as many times, or an instance
 * name made long: counts and lengths that grow with the input are what a
 * superlinear path needs to show under the work budget. */
static bool v2m_multiply(mut_tree *t, mut_rng *r)
{
    uint32_t want = mut_factor(r) - 1;
    switch (mut_rand(r, 4)) {
    case 0:
    case 1: {
        uint32_t i = mut_pick_kind(t, r, mut_rand(r, 2) ? V2M_INSTANCE : V2M_BLOCK);
        if (i >= t->count) {
            return false;
        }
        uint32_t end = mut_subtree_end(t, i);
        return mut_repeat_run(t, i, end, want);
    }
    case 2: {
        uint32_t b = v2m_pick_block(t, r, v2m_has_ids);
        if (b >= t->count) {
            return false;
        }
        /* Each counter adds an id and a value to every instance. */
        uint32_t per = 1 + mut_child_count(t, b, V2M_INSTANCE);
        uint32_t copies = mut_copies_that_fit(t, b, b + (per < 2 ? 1 : per), want);
        uint32_t made = 0;
        while (made < copies && v2m_counter(t, r, b, true)) {
            made++;
        }
        return made > 0;
    }
    default: {
        uint32_t i = mut_pick_kind(t, r, V2M_INSTANCE);
        if (i >= t->count) {
            return false;
        }
        size_t units = mut_growth_that_fits(t, (size_t)128u << mut_rand(r, 6)) / 2;
        uint32_t off;
        uint8_t *p = units > 0 ? mut_alloc(t, units * 2, &off) : NULL;
        if (p == NULL) {
            return false;
        }
        uint16_t fill = v2m_name_unit(r);
        for (size_t k = 0; k < units; k++) {
            p[k * 2] = (uint8_t)fill;
            p[k * 2 + 1] = (uint8_t)(fill >> 8);
        }
        t->node[i].var_off = off;
        t->node[i].var_len = (uint32_t)(units * 2);
        return true;
    }
    }
}

static bool v2m_change(mut_tree *t, mut_rng *r, mut_bytes_fn bytes)
{
    if (mut_rand(r, 8) == 0) {
        return mut_rand(r, 4) ? v2m_multiply(t, r) : v2m_many_counters(t, r);
    }
    if (mut_rand(r, 16) == 0) {
        return v2m_new_block(t, r);
    }
    switch (mut_rand(r, 12)) {
    case 0:
    case 1:
    case 2:
    case 3:
        return v2m_field(t, r, bytes);
    case 4:
        return v2m_duplicate(t, r, mut_rand(r, 3) ? V2M_INSTANCE : V2M_BLOCK, 1);
    case 5:
        return v2m_delete(t, r, mut_rand(r, 3) ? V2M_INSTANCE : V2M_BLOCK);
    case 6:
    case 7: {
        uint32_t b = v2m_pick_block(t, r, v2m_has_ids);
        return b < t->count && v2m_counter(t, r, b, mut_rand(r, 2) != 0);
    }
    case 8:
    case 9: {
        uint32_t i = mut_pick_kind(t, r, V2M_INSTANCE);
        return i < t->count && v2m_name(t, r, bytes, i);
    }
    default:
        return v2m_instance_count(t, r);
    }
}

MUT_DRIVER(v2m)

#endif
