/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Structure-aware mutation of V1 data blocks (docs/v1.md):
 *   PERF_DATA_BLOCK + system name                 depth 0
 *     PERF_OBJECT_TYPE                            depth 1
 *       PERF_COUNTER_DEFINITION ...               depth 2
 *       PERF_COUNTER_BLOCK                        depth 2 (NumInstances -1)
 *       PERF_INSTANCE_DEFINITION + name ...       depth 2
 *         PERF_COUNTER_BLOCK                      depth 3
 * The writer computes TotalByteLength, HeaderLength, NumObjectTypes and the
 * system name's offset and length; each object's TotalByteLength,
 * DefinitionLength, HeaderLength, NumCounters and NumInstances; every
 * definition's and instance's ByteLength, NameOffset and NameLength; and
 * every counter block's ByteLength, grown to reach the farthest counter the
 * definitions place. Inserting or deleting an instance renumbers the
 * ParentObjectInstance fields that point into its object.
 */
#ifndef PERFBUF_FUZZ_MUTATOR_V1_H
#define PERFBUF_FUZZ_MUTATOR_V1_H

#include "mutator.h"
#include "perfbuf/counter_types.h"

enum { V1M_HEADER = 1, V1M_OBJECT, V1M_DEFINITION, V1M_BLOCK, V1M_INSTANCE };

/* flags of an object: NumInstances when it is negative (no instances, or
 * metadata only), 0 when the object has instance definitions. Of an
 * instance or the header: whether it has a name at all. */
#define V1M_NAMED 1u

/* Counter blocks grow to the farthest counter, up to here; a definition
 * placing a counter farther is left for the reader to reject. */
#define V1M_MAX_REACH (1u << 16)

static bool v1m_read_block(mut_tree *t, size_t *p, size_t end, uint8_t depth)
{
    if (!mut_inside(*p, 4, end)) {
        return false;
    }
    uint32_t len = mut_get32(t->arena + *p);
    if (len < 4 || !mut_inside(*p, len, end)) {
        return false;
    }
    if (mut_add(t, V1M_BLOCK, depth, *p, 4, *p + 4, len - 4) == NULL) {
        return false;
    }
    *p += len;
    return true;
}

/* The bytes of a name before its terminator (or all of them). */
static size_t v1m_name_bytes(const uint8_t *s, size_t len, bool wide)
{
    size_t n = 0;
    if (wide) {
        while (n + 2 <= len && (s[n] | s[n + 1]) != 0) {
            n += 2;
        }
        return n;
    }
    while (n < len && s[n] != 0) {
        n++;
    }
    return n;
}

static bool v1m_read_instance(mut_tree *t, size_t *p, size_t end, bool wide)
{
    const uint8_t *d = t->arena;
    if (!mut_inside(*p, 24, end)) {
        return false;
    }
    uint32_t len = mut_get32(d + *p);
    uint32_t name_off = mut_get32(d + *p + 16);
    uint32_t name_len = mut_get32(d + *p + 20);
    if (len < 24 || !mut_inside(*p, len, end)) {
        return false;
    }
    mut_node *n = mut_add(t, V1M_INSTANCE, 2, *p, 24, *p + 24, 0);
    if (n == NULL) {
        return false;
    }
    if (name_len != 0) {
        if (name_off < 24 || !mut_inside(name_off, name_len, len)) {
            return false;
        }
        n->flags = V1M_NAMED;
        n->var_off = (uint32_t)(*p + name_off);
        n->var_len = (uint32_t)v1m_name_bytes(d + *p + name_off, name_len, wide);
    }
    *p += len;
    return v1m_read_block(t, p, end, 3);
}

static bool v1m_read_object(mut_tree *t, size_t pos, size_t end)
{
    const uint8_t *d = t->arena;
    uint32_t total = mut_get32(d + pos);
    uint32_t definition = mut_get32(d + pos + 4);
    uint32_t header = mut_get32(d + pos + 8);
    uint32_t counters = mut_get32(d + pos + 32);
    uint32_t instances = mut_get32(d + pos + 40);
    bool wide = mut_get32(d + pos + 44) == 0;
    if (total < 64 || !mut_inside(pos, total, end) || header < 64 || header > definition ||
        definition > total || counters > (definition - header) / 40) {
        return false;
    }
    mut_node *o = mut_add(t, V1M_OBJECT, 1, pos, 64, 0, 0);
    if (o == NULL) {
        return false;
    }
    o->flags = instances >= 0xFFFFFFFDu ? instances : 0;
    size_t p = pos + header;
    for (uint32_t i = 0; i < counters; i++) {
        if (!mut_inside(p, 40, pos + definition)) {
            return false;
        }
        uint32_t len = mut_get32(d + p);
        if (len < 40 || !mut_inside(p, len, pos + definition)) {
            return false;
        }
        if (mut_add(t, V1M_DEFINITION, 2, p, 40, 0, 0) == NULL) {
            return false;
        }
        p += len;
    }
    p = pos + definition;
    if (instances == 0xFFFFFFFFu) {
        return v1m_read_block(t, &p, pos + total, 2);
    }
    if (instances >= 0xFFFFFFFDu) {
        return true;
    }
    if (instances > (total - definition) / 28) {
        return false;
    }
    for (uint32_t i = 0; i < instances; i++) {
        if (!v1m_read_instance(t, &p, pos + total, wide)) {
            return false;
        }
    }
    return true;
}

static bool v1m_read(mut_tree *t, size_t size)
{
    const uint8_t *d = t->arena;
    if (size < 88) {
        return false;
    }
    uint32_t total = mut_get32(d + 20);
    uint32_t header = mut_get32(d + 24);
    uint32_t objects = mut_get32(d + 28);
    uint32_t name_len = mut_get32(d + 80);
    uint32_t name_off = mut_get32(d + 84);
    if (total < 88 || total > size || header < 88 || header > total) {
        return false;
    }
    mut_node *h = mut_add(t, V1M_HEADER, 0, 0, 88, 88, 0);
    if (h == NULL) {
        return false;
    }
    if (name_len != 0 && name_off >= 88 && mut_inside(name_off, name_len, header)) {
        h->flags = V1M_NAMED;
        h->var_off = name_off;
        h->var_len = (uint32_t)v1m_name_bytes(d + name_off, name_len, true);
    }
    size_t pos = header;
    /* Producers claim more objects than they wrote: keep those present. */
    for (uint32_t i = 0; i < objects && pos < total; i++) {
        if (!mut_inside(pos, 64, total) || !v1m_read_object(t, pos, total)) {
            return false;
        }
        pos += mut_get32(d + pos);
    }
    return true;
}

/* ---- the writer ---- */

/* The farthest byte any counter of object o reaches, from its block's start. */
static uint32_t v1m_reach(const mut_tree *t, uint32_t o)
{
    uint64_t reach = 0;
    uint32_t end = mut_subtree_end(t, o);
    for (uint32_t i = o + 1; i < end; i++) {
        if (t->node[i].kind == V1M_DEFINITION) {
            const uint8_t *h = t->arena + t->node[i].hdr_off;
            uint64_t e = (uint64_t)mut_get32(h + 36) + mut_get32(h + 32);
            reach = e > reach ? e : reach;
        }
    }
    return reach > V1M_MAX_REACH ? 0 : (uint32_t)reach;
}

static void v1m_name(mut_out *o, const uint8_t *name, uint32_t len, bool wide, uint8_t *len_field)
{
    uint32_t bytes = wide ? len & ~1u : len;
    mut_emit(o, name, bytes);
    mut_emit(o, NULL, wide ? 2 : 1);
    if (len_field != NULL) {
        mut_put32(len_field, bytes + (wide ? 2u : 1u));
    }
}

typedef struct v1m_open {
    size_t at;        /* the object's first byte, in the output */
    bool defs_done;   /* DefinitionLength written */
    uint32_t counters, instances, flags, reach;
    bool wide;
} v1m_open;

static void v1m_close_object(mut_out *o, v1m_open *ob)
{
    if (!ob->defs_done) {
        mut_patch32(o, ob->at + 4, (uint32_t)(o->len - ob->at));
    }
    mut_patch32(o, ob->at, (uint32_t)(o->len - ob->at));
    mut_patch32(o, ob->at + 32, ob->counters);
    mut_patch32(o, ob->at + 40, ob->flags != 0 ? ob->flags : ob->instances);
}

static void v1m_write(const mut_tree *t, mut_out *o)
{
    const uint8_t *a = t->arena;
    uint32_t objects = 0;
    v1m_open ob = {0, true, 0, 0, 0, 0, true};
    for (uint32_t i = 0; i < t->count && o->ok; i++) {
        const mut_node *n = &t->node[i];
        size_t at = o->len;
        if (objects > 0 && !ob.defs_done && n->kind != V1M_DEFINITION) {
            mut_patch32(o, ob.at + 4, (uint32_t)(at - ob.at));
            ob.defs_done = true;
        }
        switch (n->kind) {
        case V1M_HEADER: {
            uint8_t *h = mut_emit(o, a + n->hdr_off, 88);
            if (h == NULL) {
                break;
            }
            mut_put32(h + 80, 0);
            mut_put32(h + 84, 0);
            if (n->flags & V1M_NAMED) {
                mut_put32(h + 84, 88);
                v1m_name(o, a + n->var_off, n->var_len, true, o->p + 80);
            }
            mut_pad8(o, 0);
            mut_patch32(o, 24, (uint32_t)o->len);
            break;
        }
        case V1M_OBJECT:
            if (objects > 0) {
                v1m_close_object(o, &ob);
            }
            objects++;
            ob.at = at;
            ob.defs_done = false;
            ob.counters = 0;
            ob.instances = 0;
            ob.flags = n->flags;
            ob.reach = v1m_reach(t, i);
            ob.wide = mut_get32(a + n->hdr_off + 44) == 0;
            mut_emit(o, a + n->hdr_off, 64);
            mut_patch32(o, at + 8, 64);
            break;
        case V1M_DEFINITION:
            mut_emit(o, a + n->hdr_off, 40);
            mut_patch32(o, at, 40);
            ob.counters++;
            break;
        case V1M_INSTANCE: {
            uint8_t *h = mut_emit(o, a + n->hdr_off, 24);
            if (h == NULL) {
                break;
            }
            mut_put32(h + 16, 24);
            mut_put32(h + 20, 0);
            if (n->flags & V1M_NAMED) {
                v1m_name(o, a + n->var_off, n->var_len, ob.wide, h + 20);
            }
            mut_pad8(o, at);
            mut_patch32(o, at, (uint32_t)(o->len - at));
            ob.instances++;
            break;
        }
        case V1M_BLOCK:
            mut_emit(o, NULL, 4);
            mut_emit(o, a + n->var_off, n->var_len);
            if (o->len - at < ob.reach) {
                mut_emit(o, NULL, ob.reach - (o->len - at));
            }
            mut_pad8(o, at);
            mut_patch32(o, at, (uint32_t)(o->len - at));
            break;
        default:
            o->ok = false;
            break;
        }
    }
    if (objects > 0) {
        v1m_close_object(o, &ob);
    }
    mut_patch32(o, 20, (uint32_t)o->len);
    mut_patch32(o, 28, objects);
}

/* ---- mutations ---- */

/* Counter types by the company they keep: standalone, needing a base
 * right after, and the bases. A type replaced within its class keeps
 * the definitions' pairing valid. */
static const uint32_t v1m_standalone[] = {0x00010000, 0x00010100, 0x00000000, 0x00000100,
                                          0x10410400, 0x10410500, 0x20410500, 0x20510500,
                                          0x21510500, 0x30240500, 0x00400400, 0x00400500,
                                          0x00450400, 0x00550500, 0x40000200, 0x00000B00};
static const uint32_t v1m_needs_base[] = {0x20C20400, 0x30020400, 0x40020500, 0x20020400,
                                          0x20020500, 0x20470500, 0x20570500, 0x20670500};
static const uint32_t v1m_bases[] = {0x40030401, 0x40030402, 0x40030403, 0x40030500};

static bool v1m_needs_partner(uint32_t type)
{
    const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(type);
    return info != NULL && (info->needs_base || info->needs_multi);
}

static uint32_t v1m_pick(mut_rng *r, const uint32_t *table, uint32_t n)
{
    return table[mut_rand(r, n)];
}

/* A counter type in the class of old, with the size that type has. */
static void v1m_retype(mut_rng *r, uint8_t *def)
{
    uint32_t old = mut_get32(def + 28);
    uint32_t type;
    if (v1m_needs_partner(old)) {
        type = v1m_pick(r, v1m_needs_base, 8);
    } else if (perfbuf_counter_type_is_base(old)) {
        type = v1m_pick(r, v1m_bases, 4);
    } else {
        type = v1m_pick(r, v1m_standalone, 16);
    }
    uint32_t size = perfbuf_counter_type_size(type);
    mut_put32(def + 28, type);
    if (size != PERFBUF_SIZE_VARIABLE) {
        mut_put32(def + 32, size);
    }
}

/* The run of definitions that must move together with definition i: a
 * type that needs a base and the base after it. */
static void v1m_def_group(const mut_tree *t, uint32_t i, uint32_t *from, uint32_t *end)
{
    *from = i;
    *end = i + 1;
    const uint8_t *a = t->arena;
    if (v1m_needs_partner(mut_get32(a + t->node[i].hdr_off + 28)) && i + 1 < t->count &&
        t->node[i + 1].kind == V1M_DEFINITION) {
        *end = i + 2;
    } else if (i > 0 && t->node[i - 1].kind == V1M_DEFINITION &&
               v1m_needs_partner(mut_get32(a + t->node[i - 1].hdr_off + 28))) {
        *from = i - 1;
    }
}

/* Index of instance i within its object, and the object's title index. */
static uint32_t v1m_instance_index(const mut_tree *t, uint32_t i, uint32_t *title)
{
    uint32_t o = mut_parent(t, i);
    *title = o < t->count ? mut_get32(t->arena + t->node[o].hdr_off + 12) : 0;
    uint32_t k = 0;
    for (uint32_t j = o + 1; j < i; j++) {
        k += t->node[j].kind == V1M_INSTANCE;
    }
    return k;
}

/* After instance k of the object with this title index was removed
 * (delta -1) or a copy of it inserted after it (delta +1), the parent
 * references into that object follow the instances they named. */
static void v1m_renumber(mut_tree *t, uint32_t title, uint32_t k, int delta)
{
    for (uint32_t i = 0; i < t->count; i++) {
        mut_node *n = &t->node[i];
        if (n->kind != V1M_INSTANCE || title == 0 ||
            mut_get32(t->arena + n->hdr_off + 4) != title) {
            continue;
        }
        uint32_t parent = mut_get32(t->arena + n->hdr_off + 8);
        if (parent <= k || parent == UINT32_MAX) {
            continue;
        }
        uint8_t *h = mut_own_hdr(t, n);
        if (h != NULL) {
            mut_put32(h + 8, delta > 0 ? parent + 1 : parent - 1);
        }
    }
}

static bool v1m_dup_instance(mut_tree *t, uint32_t i)
{
    uint32_t title;
    uint32_t k = v1m_instance_index(t, i, &title);
    uint32_t end = mut_subtree_end(t, i);
    if (!mut_copy_run(t, i, end, end)) {
        return false;
    }
    v1m_renumber(t, title, k, 1);
    return true;
}

static void v1m_delete_instance(mut_tree *t, uint32_t i)
{
    uint32_t title;
    uint32_t k = v1m_instance_index(t, i, &title);
    mut_delete_run(t, i, mut_subtree_end(t, i));
    v1m_renumber(t, title, k, -1);
}

/* A new definition after the object's last one, placing its counter past
 * every other: every counter block of the object grows to hold it. */
static bool v1m_add_counter(mut_tree *t, mut_rng *r)
{
    uint32_t o = mut_pick_kind(t, r, V1M_OBJECT);
    if (o >= t->count) {
        return false;
    }
    uint32_t reach = v1m_reach(t, o);
    bool pair = mut_rand(r, 3) == 0;
    uint32_t types[2] = {pair ? v1m_pick(r, v1m_needs_base, 8) : v1m_pick(r, v1m_standalone, 16),
                         v1m_pick(r, v1m_bases, 4)};
    uint32_t at = o + 1 + mut_child_count(t, o, V1M_DEFINITION);
    for (uint32_t k = 0; k < (pair ? 2u : 1u); k++) {
        uint32_t off;
        uint8_t *def = mut_alloc(t, 40, &off);
        if (def == NULL || t->count >= MUT_MAX_NODES) {
            return k > 0;
        }
        memset(def, 0, 40);
        uint32_t size = perfbuf_counter_type_size(types[k]);
        size = size == PERFBUF_SIZE_VARIABLE ? 8 : size;
        uint32_t counter = (reach < 4 ? 4 : reach);
        counter = size == 8 ? (uint32_t)mut_align8(counter) : counter;
        mut_put32(def + 4, 2 * mut_rand(r, 1000));
        mut_put32(def + 28, types[k]);
        mut_put32(def + 32, size);
        mut_put32(def + 36, counter);
        reach = counter + size;
        mut_node n = {V1M_DEFINITION, 2, 0, off, 40, 0, 0};
        memmove(&t->node[at + 1], &t->node[at], (t->count - at) * sizeof n);
        t->node[at] = n;
        t->count++;
        at++;
    }
    return true;
}

static void v1m_field_header(mut_rng *r, mut_bytes_fn bytes, uint8_t *h)
{
    /* Version, Revision, DefaultObject, SystemTime, PerfTime, PerfFreq,
     * PerfTime100nSec; rarely Signature and LittleEndian. */
    static const uint8_t at[] = {12, 16, 32, 36, 56, 64, 72, 0, 8};
    static const uint8_t width[] = {4, 4, 4, 16, 8, 8, 8, 8, 4};
    uint32_t f = mut_rand(r, 40) == 0 ? 7 + mut_rand(r, 2) : mut_rand(r, 7);
    mut_field(bytes, h + at[f], width[f]);
}

static void v1m_field_object(mut_rng *r, mut_bytes_fn bytes, uint8_t *h)
{
    switch (mut_rand(r, 6)) {
    case 0: {
        static const uint32_t pages[] = {0, 1252, 65001, 20127, 437, 1200};
        mut_put32(h + 44, pages[mut_rand(r, 6)]);
        break;
    }
    case 1:
        /* ObjectNameTitleIndex: the key parent references look objects up by. */
        mut_put32(h + 12, mut_rand(r, 2) ? 2 * mut_rand(r, 8) : mut_interesting32(r, 0));
        break;
    case 2:
        mut_put32(h + 36, mut_interesting32(r, mut_get32(h + 36)));
        break;
    default: {
        /* ObjectHelpTitleIndex, DetailLevel, PerfTime, PerfFreq, titles. */
        static const uint8_t at[] = {20, 28, 48, 56, 16, 24};
        static const uint8_t width[] = {4, 4, 8, 8, 4, 4};
        uint32_t f = mut_rand(r, 6);
        mut_field(bytes, h + at[f], width[f]);
        break;
    }
    }
}

static void v1m_field_definition(mut_rng *r, mut_bytes_fn bytes, uint8_t *h)
{
    switch (mut_rand(r, 6)) {
    case 0:
    case 1:
        v1m_retype(r, h);
        break;
    case 2: {
        static const uint32_t sizes[] = {0, 4, 8, 16, 1, 3};
        mut_put32(h + 32, sizes[mut_rand(r, 6)]);
        break;
    }
    case 3:
        /* Anywhere in a block of up to 64 bytes, mostly aligned. */
        mut_put32(h + 36, mut_rand(r, 4) ? 4 * (1 + mut_rand(r, 16)) : mut_rand(r, 72));
        break;
    case 4:
        mut_put32(h + 20, mut_rand(r, 2) ? (uint32_t)((int32_t)mut_rand(r, 21) - 10) : mut_interesting32(r, 0));
        break;
    default: {
        static const uint8_t at[] = {4, 12, 24, 8, 16};
        mut_field(bytes, h + at[mut_rand(r, 5)], 4);
        break;
    }
    }
}

static void v1m_field_instance(const mut_tree *t, mut_rng *r, mut_bytes_fn bytes, uint8_t *h)
{
    switch (mut_rand(r, 4)) {
    case 0: {
        /* A parent in an object that is there, at an index that may be. */
        uint32_t o = mut_pick_kind(t, r, V1M_OBJECT);
        uint32_t count = o < t->count ? mut_child_count(t, o, V1M_INSTANCE) : 0;
        mut_put32(h + 4, o < t->count ? mut_get32(t->arena + t->node[o].hdr_off + 12) : 0);
        mut_put32(h + 8, mut_rand(r, count + 1));
        break;
    }
    case 1:
        mut_put32(h + 8, mut_interesting32(r, mut_get32(h + 8)));
        break;
    case 2:
        mut_put32(h + 4, mut_rand(r, 4) ? 0 : mut_interesting32(r, 0));
        break;
    default:
        mut_field(bytes, h + 12, 4);
        break;
    }
}

static bool v1m_field(mut_tree *t, mut_rng *r, mut_bytes_fn bytes)
{
    mut_node *n = &t->node[mut_rand(r, t->count)];
    if (n->kind == V1M_BLOCK) {
        return mut_var_bytes(t, n, bytes, n->var_len + 8);
    }
    uint8_t *h = mut_own_hdr(t, n);
    if (h == NULL) {
        return false;
    }
    switch (n->kind) {
    case V1M_HEADER:
        v1m_field_header(r, bytes, h);
        break;
    case V1M_OBJECT:
        v1m_field_object(r, bytes, h);
        break;
    case V1M_DEFINITION:
        v1m_field_definition(r, bytes, h);
        break;
    default:
        v1m_field_instance(t, r, bytes, h);
        break;
    }
    return true;
}

/* Instance names and the computer name: longer, shorter, or mutated. */
static bool v1m_rename(mut_tree *t, mut_rng *r, mut_bytes_fn bytes)
{
    uint32_t i = mut_rand(r, 4) ? mut_pick_kind(t, r, V1M_INSTANCE) : 0;
    if (i >= t->count) {
        return false;
    }
    mut_node *n = &t->node[i];
    n->flags |= V1M_NAMED;
    switch (mut_rand(r, 3)) {
    case 0: {
        static const char *const parts[] = {"_Total", "svchost", "#1", "/", "0", "C:", "\xe9"};
        const char *s = parts[mut_rand(r, 7)];
        size_t len = strlen(s);
        bool wide = i == 0 || mut_get32(t->arena + t->node[mut_parent(t, i)].hdr_off + 44) == 0;
        uint32_t off;
        uint8_t *p = mut_alloc(t, n->var_len + len * 2, &off);
        if (p == NULL) {
            return false;
        }
        memcpy(p, t->arena + n->var_off, n->var_len);
        uint8_t *q = p + n->var_len;
        for (size_t k = 0; k < len; k++) {
            *q++ = (uint8_t)s[k];
            if (wide) {
                *q++ = 0;
            }
        }
        n->var_off = off;
        n->var_len = (uint32_t)(q - p);
        return true;
    }
    case 1:
        n->var_len = n->var_len == 0 ? 0 : mut_rand(r, n->var_len);
        if (mut_rand(r, 8) == 0) {
            n->flags &= ~V1M_NAMED;
        }
        return true;
    default:
        return mut_var_bytes(t, n, bytes, n->var_len + 16);
    }
}

static bool v1m_duplicate(mut_tree *t, mut_rng *r)
{
    switch (mut_rand(r, 3)) {
    case 0: {
        uint32_t i = mut_pick_kind(t, r, V1M_INSTANCE);
        return i < t->count && v1m_dup_instance(t, i);
    }
    case 1: {
        uint32_t i = mut_pick_kind(t, r, V1M_DEFINITION);
        uint32_t from, end;
        if (i >= t->count) {
            return false;
        }
        v1m_def_group(t, i, &from, &end);
        return mut_copy_run(t, from, end, end);
    }
    default: {
        uint32_t i = mut_pick_kind(t, r, V1M_OBJECT);
        if (i >= t->count) {
            return false;
        }
        uint32_t end = mut_subtree_end(t, i);
        return mut_copy_run(t, i, end, mut_rand(r, 2) ? end : i);
    }
    }
}

static bool v1m_delete(mut_tree *t, mut_rng *r)
{
    switch (mut_rand(r, 3)) {
    case 0: {
        uint32_t i = mut_pick_kind(t, r, V1M_INSTANCE);
        if (i >= t->count) {
            return false;
        }
        v1m_delete_instance(t, i);
        return true;
    }
    case 1: {
        uint32_t i = mut_pick_kind(t, r, V1M_DEFINITION);
        uint32_t from, end;
        if (i >= t->count) {
            return false;
        }
        v1m_def_group(t, i, &from, &end);
        mut_delete_run(t, from, end);
        return true;
    }
    default: {
        uint32_t i = mut_pick_kind(t, r, V1M_OBJECT);
        if (i >= t->count) {
            return false;
        }
        mut_delete_run(t, i, mut_subtree_end(t, i));
        return true;
    }
    }
}

/* An object with instances gets a new instance count: copies of its
 * instances, or fewer of them. */
static bool v1m_instance_count(mut_tree *t, mut_rng *r)
{
    uint32_t i = mut_pick_kind(t, r, V1M_INSTANCE);
    if (i >= t->count) {
        return false;
    }
    uint32_t o = mut_parent(t, i);
    uint32_t have = mut_child_count(t, o, V1M_INSTANCE);
    uint32_t want = mut_rand(r, 2) ? mut_rand(r, have) : have + 1 + mut_rand(r, 16);
    while (have > want) {
        v1m_delete_instance(t, mut_child(t, o, V1M_INSTANCE, have - 1));
        have--;
    }
    while (have < want) {
        if (!v1m_dup_instance(t, mut_child(t, o, V1M_INSTANCE, mut_rand(r, have)))) {
            break;
        }
        have++;
    }
    return true;
}

/* Whether instance (or, for node 0, the computer) names are UTF-16. */
static bool v1m_wide(const mut_tree *t, uint32_t i)
{
    return i == 0 || mut_get32(t->arena + t->node[mut_parent(t, i)].hdr_off + 44) == 0;
}

/* Gives node i (an instance, or the header's computer name) a name of up
 * to `units` characters of `fill`, its last one `last`: long names shared
 * by many references are what costs when a reader scans them per item. */
static bool v1m_long_name(mut_tree *t, uint32_t i, size_t units, char fill, char last)
{
    bool wide = v1m_wide(t, i);
    size_t width = wide ? 2u : 1u;
    units = mut_growth_that_fits(t, units * width) / width;
    if (units == 0) {
        return false;
    }
    uint32_t off;
    uint8_t *p = mut_alloc(t, units * width, &off);
    if (p == NULL) {
        return false;
    }
    for (size_t k = 0; k < units; k++) {
        p[k * width] = (uint8_t)(k + 1 == units ? last : fill);
        if (wide) {
            p[k * width + 1] = 0;
        }
    }
    mut_node *n = &t->node[i];
    n->flags |= V1M_NAMED;
    n->var_off = off;
    n->var_len = (uint32_t)(units * width);
    return true;
}

/* Many instances of one object point at one long-named parent, or in turn
 * at two parents whose long names differ only at the end, the second one
 * in the same object or in another: a reader that reads or compares the
 * parent's name per child pays its length for every child, and one that
 * caches the last parent's object or name is made to switch at every
 * child. The children are multiplied first. */
static bool v1m_shared_parent(mut_tree *t, mut_rng *r)
{
    uint32_t c = mut_pick_kind(t, r, V1M_INSTANCE);
    if (c >= t->count) {
        return false;
    }
    /* The children's object by its position among objects: the copies of
     * the parent below move nodes. */
    uint32_t object_ordinal = 0;
    for (uint32_t i = 0; i < mut_parent(t, c); i++) {
        object_ordinal += t->node[i].kind == V1M_OBJECT;
    }
    /* Up to 2,048 children in one step: the coverage a fuzzer follows
     * stops growing at a hundred or so copies, and a per-child cost needs
     * thousands to outgrow a parent's name of thousands of characters. */
    uint32_t want = (mut_factor(r) << mut_rand(r, 6)) - 1;
    uint32_t copies = mut_copies_that_fit(t, c, mut_subtree_end(t, c), want);
    uint32_t made = 0;
    while (made < copies && v1m_dup_instance(t, c)) {
        made++;
    }
    uint32_t p = mut_pick_kind(t, r, V1M_INSTANCE);
    if (p >= t->count) {
        return false;
    }
    /* 64 to 32,768 characters: a size bound per child outgrows the
     * capture only past a few thousand. */
    size_t units = 64u << mut_rand(r, 10);
    /* 0: one parent; 1: two in one object; 2: two in two objects. */
    uint32_t shape = mut_rand(r, 3);
    if (shape == 1 && !v1m_dup_instance(t, p)) {
        shape = 0;
    }
    uint32_t title;
    uint32_t k = v1m_instance_index(t, p, &title);
    uint32_t p2 = t->count;
    uint32_t title2 = title;
    uint32_t k2 = k + 1;
    if (shape == 1) {
        p2 = mut_subtree_end(t, p);
    } else if (shape == 2) {
        p2 = mut_pick_kind(t, r, V1M_INSTANCE);
        if (p2 < t->count) {
            k2 = v1m_instance_index(t, p2, &title2);
        }
        if (p2 >= t->count || title2 == 0 || title2 == title) {
            shape = 0;
        }
    }
    if (title == 0 || !v1m_long_name(t, p, units, 'p', 'a')) {
        return false;
    }
    if (shape != 0 && (p2 >= t->count || t->node[p2].kind != V1M_INSTANCE ||
                       !v1m_long_name(t, p2, units, 'p', 'b'))) {
        shape = 0;
    }
    if (shape == 0) {
        p2 = t->count;
    }
    uint32_t object = mut_nth_kind(t, V1M_OBJECT, object_ordinal);
    if (object >= t->count) {
        return false;
    }
    /* One pass over the object's subtree: its direct instances in order. */
    uint32_t end = mut_subtree_end(t, object);
    uint32_t j = 0;
    for (uint32_t child = object + 1; child < end; child++) {
        if (t->node[child].kind != V1M_INSTANCE ||
            t->node[child].depth != t->node[object].depth + 1) {
            continue;
        }
        if (child == p || child == p2) {
            j++;
            continue;
        }
        uint8_t *h = mut_own_hdr(t, &t->node[child]);
        if (h == NULL) {
            return j > 0;
        }
        bool second = shape != 0 && j % 2 == 1;
        mut_put32(h + 4, second ? title2 : title);
        mut_put32(h + 8, second ? k2 : k);
        j++;
    }
    return true;
}

/*
 * One definition (with its base) repeated hundreds to thousands of times
 * at once, as many as fit; a lone one either with every copy at the same
 * CounterOffset, or with each copy at its own offset past the others (the
 * counter blocks grow to hold them), the last made text with a CounterSize
 * that is not an integer's. A reader comparing definitions pairwise, or
 * falling back to a slow path per counter once one is odd, shows here.
 */
static bool v1m_many_definitions(mut_tree *t, mut_rng *r)
{
    uint32_t i = mut_pick_kind(t, r, V1M_DEFINITION);
    uint32_t from, end;
    if (i >= t->count) {
        return false;
    }
    v1m_def_group(t, i, &from, &end);
    uint32_t group = end - from;
    uint32_t copies = mut_copies_that_fit(t, from, end, 256u << mut_rand(r, 4));
    if (copies == 0) {
        return false;
    }
    uint32_t reach = v1m_reach(t, mut_parent(t, from));
    /* One move of what follows, then the copies: linear in the tree. */
    memmove(&t->node[end + copies * group], &t->node[end],
            (t->count - end) * sizeof t->node[0]);
    for (uint32_t k = 0; k < copies; k++) {
        memcpy(&t->node[end + k * group], &t->node[from], group * sizeof t->node[0]);
    }
    t->count += copies * group;
    if (group != 1) {
        return true;
    }
    static const uint32_t odd_sizes[] = {2, 3, 12, 16};
    bool spread = mut_rand(r, 2) == 0;
    uint32_t width = mut_get32(t->arena + t->node[from].hdr_off + 32);
    width = width == 0 || width > 8 ? 8 : width;
    for (uint32_t k = spread ? 0 : copies - 1; k < copies; k++) {
        uint8_t *h = mut_own_hdr(t, &t->node[end + k]);
        if (h == NULL) {
            break;
        }
        if (spread) {
            mut_put32(h + 36, reach + k * width);
        }
        if (k + 1 == copies) {
            mut_put32(h + 28, PERF_COUNTER_TEXT);
            mut_put32(h + 32, odd_sizes[mut_rand(r, 4)]);
        }
    }
    return true;
}

/* An instance, a definition (with its base) or an object, 2 to 64 times
 * over, as far as max_size allows; or a long instance or computer name. */
static bool v1m_multiply(mut_tree *t, mut_rng *r)
{
    uint32_t want = mut_factor(r) - 1;
    switch (mut_rand(r, 4)) {
    case 0: {
        uint32_t i = mut_pick_kind(t, r, V1M_INSTANCE);
        if (i >= t->count) {
            return false;
        }
        uint32_t copies = mut_copies_that_fit(t, i, mut_subtree_end(t, i), want);
        uint32_t made = 0;
        while (made < copies && v1m_dup_instance(t, i)) {
            made++;
        }
        return made > 0;
    }
    case 1: {
        uint32_t i = mut_pick_kind(t, r, V1M_DEFINITION);
        uint32_t from, end;
        if (i >= t->count) {
            return false;
        }
        v1m_def_group(t, i, &from, &end);
        return mut_repeat_run(t, from, end, want);
    }
    case 2: {
        uint32_t i = mut_pick_kind(t, r, V1M_OBJECT);
        if (i >= t->count) {
            return false;
        }
        uint32_t end = mut_subtree_end(t, i);
        return mut_repeat_run(t, i, end, want);
    }
    default: {
        uint32_t i = mut_rand(r, 4) ? mut_pick_kind(t, r, V1M_INSTANCE) : 0;
        return i < t->count && v1m_long_name(t, i, 64u << mut_rand(r, 7), 'n', 'n');
    }
    }
}

static bool v1m_change(mut_tree *t, mut_rng *r, mut_bytes_fn bytes)
{
    if (mut_rand(r, 8) == 0) {
        switch (mut_rand(r, 3)) {
        case 0:
            return v1m_multiply(t, r);
        case 1:
            return v1m_shared_parent(t, r);
        default:
            return v1m_many_definitions(t, r);
        }
    }
    switch (mut_rand(r, 12)) {
    case 0:
    case 1:
    case 2:
    case 3:
        return v1m_field(t, r, bytes);
    case 4:
    case 5:
        return v1m_duplicate(t, r);
    case 6:
        return v1m_delete(t, r);
    case 7:
        return v1m_add_counter(t, r);
    case 8:
    case 9:
        return v1m_rename(t, r, bytes);
    default:
        return v1m_instance_count(t, r);
    }
}

MUT_DRIVER(v1m)

#endif
