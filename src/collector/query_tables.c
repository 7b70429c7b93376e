/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * One capture's tables (query_internal.h): a record per instance of each
 * V1 object a counter names (or per instance of each V2 block), with its
 * name converted to UTF-8 once, and a parent record per distinct parent
 * instance (found through the block index, told apart by its slot there,
 * its name converted once however many children it has). Every later step
 * (selection, keys, pairing, the names the arrays write) reads these, so
 * a name is converted, hashed and compared once per capture whatever the
 * number of counters, and a long parent name shared by many children
 * costs its length once.
 *
 * Names are compared as the UTF-8 the arrays show, ASCII letters folded,
 * as PDH compares instance names; #N counts the instances of one parent
 * name and one own key (name, or UniqueID when the provider sets one,
 * as perfbuf_v1_pair keys them; V2: InstanceId and name) in buffer order.
 * Hashes group the records, and a group is one key only once each member
 * was compared with its first: a group of two keys (a collision, which a
 * hostile provider can choose) gives its records no #N, and such a record
 * never pairs (docs/collector.md, "How keys are matched").
 */
#include "core/cursor.h"
#include "v1/internal.h"
#include "collector/internal.h"
#include "collector/pair_keys.h"
#include "collector/query_internal.h"

#define NO_PARENT_HASH UINT64_C(0x9E3779B97F4A7C15)
#define OPAQUE_HASH UINT64_C(0x6F70617175652121)
#define UNIQUE_ID_HASH UINT64_C(0x5555)

/* ---- names ---- */

static unsigned char fold(unsigned char ch)
{
    return ch >= 'A' && ch <= 'Z' ? (unsigned char)(ch + ('a' - 'A')) : ch;
}

uint64_t pb_q_hash(const char *text, size_t len)
{
    /* Two 32-bit lanes, each stirred by MurmurHash3's finalizer once per
     * eight bytes (core/mix.h: no product leaves 64 bits). */
    uint64_t lo = 0x811C9DC5u ^ (len & PB_MIX_LANE);
    uint64_t hi = 0x050C5D1Fu ^ ((uint64_t)len >> 32);
    size_t i = 0;
    while (i < len) {
        PB_WORK(1);
        uint64_t word = 0;
        for (size_t k = 0; k < 8u && i < len; k++, i++) {
            word |= (uint64_t)fold((unsigned char)text[i]) << (8u * k);
        }
        lo = pb_mix_fmix32(lo ^ (word & PB_MIX_LANE));
        hi = pb_mix_fmix32(hi ^ (word >> 32) ^ (lo >> 7));
    }
    return pb_mix64(hi << 32 | lo) & PB_PAIRING_HASH_MASK;
}

bool pb_q_text_equal(const char *a, size_t la, const char *b, size_t lb)
{
    if (la != lb) {
        return false;
    }
    for (size_t i = 0; i < la; i++) {
        PB_WORK(1);
        if (fold((unsigned char)a[i]) != fold((unsigned char)b[i])) {
            return false;
        }
    }
    return true;
}

size_t pb_q_parent_cut(const char *name, size_t len)
{
    if (len <= PERFBUF_ARRAY_PARENT_MAX_BYTES) {
        return len;
    }
    /* The byte after the cut begins a character, or the cut moves back
     * before the character it would split (at most three bytes). */
    size_t cut = PERFBUF_ARRAY_PARENT_MAX_BYTES;
    while (cut > 0 && ((unsigned char)name[cut] & 0xC0u) == 0x80u) {
        PB_WORK(1);
        cut--;
    }
    return cut;
}

static uint64_t mix2(uint64_t a, uint64_t b)
{
    return pb_mix64(a ^ pb_mix64(b)) & PB_PAIRING_HASH_MASK;
}

/* A name's hash, or its bytes' when perfbuf does not convert its code
 * page: those never equal a converted name. */
static uint64_t name_hash(const char *text, size_t len, uint32_t flags)
{
    uint64_t h = pb_q_hash(text, len);
    return (flags & PB_Q_REC_OPAQUE) != 0 ? mix2(h, OPAQUE_HASH) : h;
}

/* ---- sorting ---- */

void pb_q_sort(uint64_t *pairs, uint64_t *spare, size_t *counts, size_t n)
{
    if (n < 2) {
        return;
    }
    uint64_t *from = pairs, *to = spare;
    for (unsigned shift = 0; shift < 64; shift += 8) {
        size_t *count = counts;
        for (unsigned b = 0; b < PB_Q_RADIX_BUCKETS; b++) {
            count[b] = 0;
        }
        PB_WORK(PB_Q_RADIX_BUCKETS);
        for (size_t i = 0; i < n; i++) {
            PB_WORK(1);
            count[from[2u * i] >> shift & 0xFFu]++;
        }
        if (count[from[0] >> shift & 0xFFu] == n) {
            continue; /* every hash has this byte: the order stands */
        }
        size_t at = 0;
        for (unsigned b = 0; b < PB_Q_RADIX_BUCKETS; b++) {
            size_t c = count[b];
            count[b] = at;
            at += c;
        }
        PB_WORK(PB_Q_RADIX_BUCKETS);
        for (size_t i = 0; i < n; i++) {
            PB_WORK(1);
            size_t k = count[from[2u * i] >> shift & 0xFFu]++;
            to[2u * k] = from[2u * i];
            to[2u * k + 1u] = from[2u * i + 1u];
        }
        uint64_t *t = from;
        from = to;
        to = t;
    }
    if (from != pairs) {
        memcpy(pairs, from, n * 2u * sizeof *pairs);
        PB_WORK(n / 4u);
    }
}

/* ---- writing names ---- */

/* Converts an instance's name into the generation's strings: UTF-8 for
 * the code pages perfbuf converts, the bytes otherwise (*opaque). False
 * when the room the plan gave is short. */
static bool keep_name(pb_qbuild *w, const perfbuf_v1_instance *inst, size_t *offset, size_t *len,
                      bool *opaque)
{
    perfbuf_query *q = w->q;
    size_t at = w->gen.strings + w->gen.string_bytes;
    if (at >= w->limit) {
        return false;
    }
    char *out = (char *)pb_q_at(q, at);
    size_t room = w->limit - at;
    *opaque = false;
    perfbuf_status st = perfbuf_v1_instance_name_utf8(w->b, inst, out, room, len);
    if (st == PERFBUF_E_UNKNOWN_VALUE) {
        const uint8_t *bytes = perfbuf_v1_instance_name_bytes(w->b, inst);
        if (inst->name_bytes > room || (bytes == NULL && inst->name_bytes != 0)) {
            return false;
        }
        if (inst->name_bytes != 0) {
            memcpy(out, bytes, inst->name_bytes);
        }
        PB_WORK(inst->name_bytes / 8u);
        *len = inst->name_bytes;
        *opaque = true;
    } else if (st != PERFBUF_OK) {
        return false;
    }
    *offset = w->gen.string_bytes;
    w->gen.string_bytes += *len;
    return true;
}

/* inst's parent record: found by its slot, or made with its name. */
static bool parent_record(pb_qbuild *w, const perfbuf_v1_object *o, const perfbuf_v1_instance *inst,
                          uint32_t *out)
{
    *out = PB_Q_NONE;
    size_t slot = 0;
    perfbuf_v1_instance parent;
    if (inst->parent_title_index == 0 ||
        pb_v1_parent_slot(w->b, o, inst, w->index, &slot, &parent) != PERFBUF_OK) {
        /* No parent, or one the block does not hold: as perfbuf_v1_pair,
         * the instance is keyed without one. */
        return true;
    }
    if (slot >= w->b->index_slots) {
        return false;
    }
    if (w->parent_of_slot[slot] != PB_Q_NONE) {
        *out = w->parent_of_slot[slot];
        return true;
    }
    if (w->gen.parent_count >= w->flag_count) {
        return false;
    }
    pb_qparent *p = &pb_q_parents(w->q, &w->gen)[w->gen.parent_count];
    bool opaque = false;
    if (!keep_name(w, &parent, &p->name, &p->name_len, &opaque)) {
        return false;
    }
    p->flags = opaque ? PB_Q_REC_OPAQUE : 0u;
    p->hash = name_hash(pb_q_strings(w->q, &w->gen) + p->name, p->name_len, p->flags);
    p->rep = PB_Q_NONE;
    p->older = PB_Q_NONE;
    p->slot = (uint32_t)slot;
    w->parent_of_slot[slot] = w->gen.parent_count;
    *out = w->gen.parent_count++;
    return true;
}

/* ---- records ---- */

/* Whether a counter names object o in this capture (for the tables: the
 * object and a definition the counter takes from it). */
static bool names_object(const perfbuf_query *q, const perfbuf_query_counter *c,
                         const perfbuf_v1_block *b, const perfbuf_v1_object *o)
{
    perfbuf_v1_counter first;
    uint32_t count = 0;
    if (c->status == PERFBUF_CSTATUS_NO_MACHINE) {
        return false;
    }
    return (c->kind == PB_Q_EVERY_DEFINITION ||
            (c->planned_object != 0 && o->name_title_index == c->planned_object)) &&
           pb_q_object_definitions(q, c, b, o, &first, &count);
}

/* The objects some counter names, marked in object_first; their records
 * counted. */
PB_NOINLINE static size_t mark_objects(pb_qbuild *w)
{
    const perfbuf_v1_block *b = w->b;
    size_t records = 0;
    for (uint32_t i = 0; i < b->object_count; i++) {
        PB_WORK(1);
        w->object_first[i] = PB_Q_NONE;
    }
    perfbuf_v1_iter objects;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(b, &objects);
    while (perfbuf_v1_objects_next(b, &objects, &o)) {
        for (const perfbuf_query_counter *c = w->q->first; c != NULL; c = c->next) {
            if (o.index < b->object_count && names_object(w->q, c, b, &o)) {
                w->object_first[o.index] = 0;
                records += o.num_instances >= 0 ? o.instance_count
                           : o.num_instances == PERFBUF_V1_NO_INSTANCES ? 1u : 0u;
                break;
            }
        }
    }
    return records;
}

/* One object's records, in buffer order, from `next`. */
PB_NOINLINE static perfbuf_status object_records(pb_qbuild *w, const perfbuf_v1_object *o, uint32_t *next)
{
    pb_qrec *records = pb_q_records(w->q, &w->gen);
    uint32_t later = pb_v1_first_of_title(w->b, w->index, o) ? 0u : PB_Q_REC_LATER;
    if (o->num_instances == PERFBUF_V1_NO_INSTANCES) {
        perfbuf_v1_counter_block block;
        if (*next >= w->gen.record_count || !perfbuf_v1_object_counter_block(w->b, o, &block)) {
            return PERFBUF_E_INCONSISTENT;
        }
        records[*next] = (pb_qrec){.hash = pb_q_hash("", 0), .counters = pb_pack_counter_block(&block),
                                   .parent = PB_Q_NONE, .ordinal = 0,
                                   .position = PERFBUF_ITEM_NO_INSTANCE, .object = o->index,
                                   .object_title = o->name_title_index,
                                   .flags = PB_Q_REC_SINGLE | later};
        (*next)++;
        return PERFBUF_OK;
    }
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst;
    perfbuf_v1_instances_begin(o, &it);
    uint32_t position = 0;
    while (position < o->instance_count && perfbuf_v1_instances_next(w->b, &it, &inst)) {
        if (*next >= w->gen.record_count) {
            return PERFBUF_E_INCONSISTENT;
        }
        pb_qrec *r = &records[*next];
        bool opaque = false;
        if (!keep_name(w, &inst, &r->name, &r->name_len, &opaque) ||
            !parent_record(w, o, &inst, &r->parent)) {
            return PERFBUF_E_INCONSISTENT;
        }
        r->flags = (opaque ? PB_Q_REC_OPAQUE : 0u) | later;
        r->hash = name_hash(pb_q_strings(w->q, &w->gen) + r->name, r->name_len, r->flags);
        r->identity = inst.unique_id != -1 /* PERF_NO_UNIQUE_ID */
                          ? PB_Q_HAS_IDENTITY | (uint32_t)inst.unique_id
                          : 0u;
        r->counters = pb_pack_counter_block(&inst.counters);
        r->ordinal = 0;
        r->position = position++;
        r->object = o->index;
        r->object_title = o->name_title_index;
        (*next)++;
    }
    return position == o->instance_count ? PERFBUF_OK : PERFBUF_E_INCONSISTENT;
}

/* ---- representatives and #N ---- */

/* Parents of one name share the first as their representative; a hash
 * shared by two names makes its parents representative of nothing. */
static void represent_parents(pb_qbuild *w)
{
    pb_qparent *parents = pb_q_parents(w->q, &w->gen);
    uint64_t *order = (uint64_t *)pb_q_at(w->q, w->gen.parent_order);
    const char *strings = pb_q_strings(w->q, &w->gen);
    uint32_t n = w->gen.parent_count;
    for (uint32_t i = 0; i < n; i++) {
        PB_WORK(1);
        order[2u * i] = parents[i].hash;
        order[2u * i + 1u] = i;
    }
    pb_q_sort(order, w->spare, w->radix_counts, n);
    for (uint32_t s = 0; s < n;) {
        uint32_t e = s + 1u, first = (uint32_t)order[2u * s + 1u];
        bool pure = true;
        while (e < n && order[2u * e] == order[2u * s]) {
            PB_WORK(1);
            const pb_qparent *m = &parents[order[2u * e + 1u]];
            pure = pure && m->flags == parents[first].flags &&
                   pb_q_text_equal(strings + m->name, m->name_len,
                                   strings + parents[first].name, parents[first].name_len);
            e++;
        }
        for (uint32_t j = s; j < e; j++) {
            PB_WORK(1);
            parents[order[2u * j + 1u]].rep = pure ? first : PB_Q_NONE;
        }
        s = e;
    }
}

/* The representative of a record's parent: NO_PARENT_REP without one,
 * PB_Q_NONE for an ambiguous one. */
#define NO_PARENT_REP (PB_Q_NONE - 1u)

static uint32_t parent_rep(const pb_qparent *parents, const pb_qrec *r)
{
    return r->parent == PB_Q_NONE ? NO_PARENT_REP : parents[r->parent].rep;
}

/* Whether two records of one generation have one key for #N: one parent
 * name, one UniqueID or InstanceId (or none) and, without a UniqueID (V1)
 * or always (V2), one name. */
static bool same_ordinal_key(const char *strings, const pb_qparent *parents, const pb_qrec *a,
                             const pb_qrec *b, bool v2)
{
    if (parent_rep(parents, a) != parent_rep(parents, b) || a->identity != b->identity) {
        return false;
    }
    if (a->identity != 0 && !v2) {
        return true;
    }
    return (a->flags & PB_Q_REC_OPAQUE) == (b->flags & PB_Q_REC_OPAQUE) &&
           pb_q_text_equal(strings + a->name, a->name_len, strings + b->name, b->name_len);
}

/* #N of records [first, first + n) of one object or block. */
static void number_records(pb_qbuild *w, uint32_t first, uint32_t n, bool v2)
{
    pb_qrec *records = pb_q_records(w->q, &w->gen);
    const pb_qparent *parents = v2 ? NULL : pb_q_parents(w->q, &w->gen);
    const char *strings = pb_q_strings(w->q, &w->gen);
    uint64_t *order = w->sort;
    uint32_t keyed = 0;
    for (uint32_t i = 0; i < n; i++) {
        PB_WORK(1);
        pb_qrec *r = &records[first + i];
        uint32_t rep = v2 ? NO_PARENT_REP : parent_rep(parents, r);
        if (rep == PB_Q_NONE) {
            r->ordinal = PERFBUF_PAIR_NO_ORDINAL;
            continue;
        }
        uint64_t parent = rep == NO_PARENT_REP ? NO_PARENT_HASH : parents[rep].hash;
        uint64_t own = r->identity != 0 && !v2 ? mix2(r->identity, UNIQUE_ID_HASH) : r->hash;
        order[2u * keyed] = mix2(parent ^ (v2 ? r->identity : 0u), own);
        order[2u * keyed + 1u] = first + i;
        keyed++;
    }
    pb_q_sort(order, w->spare, w->radix_counts, keyed);
    for (uint32_t s = 0; s < keyed;) {
        uint32_t e = s + 1u;
        const pb_qrec *head = &records[order[2u * s + 1u]];
        bool pure = true;
        while (e < keyed && order[2u * e] == order[2u * s]) {
            PB_WORK(1);
            pure = pure && same_ordinal_key(strings, parents, head, &records[order[2u * e + 1u]], v2);
            e++;
        }
        for (uint32_t j = s; j < e; j++) {
            PB_WORK(1);
            records[order[2u * j + 1u]].ordinal = pure ? j - s : PERFBUF_PAIR_NO_ORDINAL;
        }
        s = e;
    }
}

/* Once #N is known, each record's hash becomes the part of its pairing
 * key that no counter changes: its parent's name and its own, mixed
 * (query_items.c adds #N, or the UniqueID, InstanceId or key value, and
 * the counter). */
static void key_records(pb_qbuild *w)
{
    pb_qrec *records = pb_q_records(w->q, &w->gen);
    const pb_qparent *parents = w->b != NULL ? pb_q_parents(w->q, &w->gen) : NULL;
    for (uint32_t i = 0; i < w->gen.record_count; i++) {
        PB_WORK(1);
        pb_qrec *r = &records[i];
        uint64_t parent = r->parent == PB_Q_NONE ? NO_PARENT_HASH : parents[r->parent].hash;
        r->hash = mix2(parent, r->hash);
    }
}

perfbuf_status pb_q_table_v1(pb_qbuild *w)
{
    const perfbuf_v1_block *b = w->b;
    size_t records = mark_objects(w);
    size_t at = 0;
    if (records > UINT32_MAX - 2u || !pb_q_take(w, records * sizeof(pb_qrec), &at)) {
        return PERFBUF_E_INCONSISTENT;
    }
    w->gen.records = at;
    w->gen.record_count = (uint32_t)records;
    if (!pb_q_take(w, w->flag_count * sizeof(pb_qparent), &w->gen.parents) ||
        !pb_q_take(w, w->flag_count * 2u * sizeof(uint64_t), &w->gen.parent_order) ||
        !pb_q_take(w, 0, &w->gen.strings)) {
        return PERFBUF_E_INCONSISTENT;
    }
    for (size_t s = 0; s < b->index_slots; s++) {
        PB_WORK(1);
        w->parent_of_slot[s] = PB_Q_NONE;
    }
    perfbuf_v1_iter objects;
    perfbuf_v1_object o;
    uint32_t next = 0;
    perfbuf_v1_objects_begin(b, &objects);
    while (perfbuf_v1_objects_next(b, &objects, &o)) {
        if (o.index >= b->object_count || w->object_first[o.index] == PB_Q_NONE) {
            continue;
        }
        w->object_first[o.index] = next;
        perfbuf_status st = object_records(w, &o, &next);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    if (next != w->gen.record_count) {
        return PERFBUF_E_INCONSISTENT;
    }
    w->at = w->gen.strings + w->gen.string_bytes;
    represent_parents(w);
    /* #N per object: its records are consecutive. */
    perfbuf_v1_objects_begin(b, &objects);
    while (perfbuf_v1_objects_next(b, &objects, &o)) {
        if (o.index < b->object_count && w->object_first[o.index] != PB_Q_NONE &&
            o.num_instances > 0) {
            if (o.instance_count > w->sort_pairs) {
                return PERFBUF_E_INCONSISTENT;
            }
            number_records(w, w->object_first[o.index], o.instance_count, false);
        }
    }
    key_records(w);
    return PERFBUF_OK;
}

/* ---- V2 ---- */

static bool block_has_instances(const perfbuf_v2_block *block)
{
    return block->kind == PERFBUF_V2_MULTIPLE_INSTANCES || block->kind == PERFBUF_V2_COUNTERSET;
}

/* A V2 instance's name into the generation's strings. */
static bool keep_v2_name(pb_qbuild *w, const perfbuf_v2_instance *inst, pb_qrec *r)
{
    size_t at = w->gen.strings + w->gen.string_bytes;
    if (at >= w->limit) {
        return false;
    }
    if (perfbuf_v2_instance_name_utf8(w->d, inst, (char *)pb_q_at(w->q, at), w->limit - at,
                                      &r->name_len) != PERFBUF_OK) {
        return false;
    }
    r->name = w->gen.string_bytes;
    w->gen.string_bytes += r->name_len;
    return true;
}

/* One block's records. */
/* The row of `cells` values a record of a block with an id list is read
 * into, or NULL (no id list: its samples are read without a plan). */
uint64_t *pb_q_value_row(const pb_qbuild *w, const perfbuf_v2_block *block, uint32_t position)
{
    size_t first = w->value_first[block->index];
    size_t cells = block->counter_count;
    if (first == PB_Q_NO_VALUES) {
        return NULL;
    }
    /* block_records reserved rows x counter_count cells for the block. */
    if (cells != 0 && (size_t)position >= (w->value_cells - first) / cells) {
        return NULL;
    }
    return w->values + first + (size_t)position * cells;
}

static perfbuf_status block_records(pb_qbuild *w, const perfbuf_v2_block *block, uint32_t *next)
{
    pb_qrec *records = pb_q_records(w->q, &w->gen);
    if (pb_q_v2_has_ids(block)) {
        size_t rows = block_has_instances(block) ? block->instance_count : 1u;
        /* The plan counted rows x counter_count cells for the block (none
         * for a block without values). */
        if (block->counter_count != 0 &&
            rows > (w->value_cells - w->value_next) / block->counter_count) {
            return PERFBUF_E_INCONSISTENT;
        }
        w->value_first[block->index] = w->value_next;
        w->value_next += rows * block->counter_count;
    }
    if (!block_has_instances(block)) {
        if (*next >= w->gen.record_count) {
            return PERFBUF_E_INCONSISTENT;
        }
        uint64_t *row = pb_q_value_row(w, block, 0);
        if (row != NULL && perfbuf_v2_values_read(w->d, block, NULL, row, block->counter_count,
                                                  &w->reads[*next]) != PERFBUF_OK) {
            return PERFBUF_E_INCONSISTENT;
        }
        records[(*next)++] = (pb_qrec){.hash = pb_q_hash("", 0), .parent = PB_Q_NONE,
                                       .position = PERFBUF_ITEM_NO_INSTANCE,
                                       .object = block->index, .flags = PB_Q_REC_SINGLE};
        return PERFBUF_OK;
    }
    perfbuf_v2_iter it;
    perfbuf_v2_instance inst;
    uint32_t position = 0;
    perfbuf_v2_instances_begin(block, &it);
    while (position < block->instance_count && *next < w->gen.record_count) {
        uint64_t *row = pb_q_value_row(w, block, position);
        perfbuf_status st =
            row != NULL ? perfbuf_v2_instances_next_values(w->d, block, &it, &inst, row,
                                                           block->counter_count, &w->reads[*next])
            : perfbuf_v2_instances_next(w->d, block, &it, &inst) ? PERFBUF_OK
                                                                  : PERFBUF_E_NOT_FOUND;
        if (st == PERFBUF_E_NOT_FOUND) {
            break;
        }
        if (st != PERFBUF_OK) {
            return PERFBUF_E_INCONSISTENT;
        }
        pb_qrec *r = &records[*next];
        w->instances[*next] = inst;
        *r = (pb_qrec){.parent = PB_Q_NONE, .identity = PB_Q_HAS_IDENTITY | inst.id,
                       .position = position++, .object = block->index};
        if (!keep_v2_name(w, &inst, r)) {
            return PERFBUF_E_INCONSISTENT;
        }
        r->hash = pb_q_hash(pb_q_strings(w->q, &w->gen) + r->name, r->name_len);
        (*next)++;
    }
    return position == block->instance_count ? PERFBUF_OK : PERFBUF_E_INCONSISTENT;
}

/* Each tabled block's records by pairing key, once for all its counters
 * (query_items.c picks each counter's items from the order). */
static perfbuf_status sort_record_keys(pb_qbuild *w)
{
    const pb_qrec *records = pb_q_records(w->q, &w->gen);
    uint32_t n = w->gen.record_count;
    for (uint32_t j = 0; j < n; j++) {
        PB_WORK(1);
        w->record_keys[2u * j] = pb_q_v2_record_key(&records[j]);
        w->record_keys[2u * j + 1u] = j;
    }
    /* A block's records are consecutive: sort each run of one block. */
    for (uint32_t s = 0; s < n;) {
        uint32_t e = s + 1u;
        while (e < n && records[e].object == records[s].object) {
            PB_WORK(1);
            e++;
        }
        if (e - s > w->sort_pairs) {
            return PERFBUF_E_INCONSISTENT;
        }
        pb_q_sort(&w->record_keys[2u * s], w->spare, w->radix_counts, e - s);
        s = e;
    }
    return PERFBUF_OK;
}

/* Whether a counter names block `index`. */
static bool names_block(const perfbuf_query *q, uint32_t index)
{
    for (const perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
        PB_WORK(1);
        if (c->resolution == PERFBUF_CSTATUS_VALID_DATA &&
            q->registrations[c->registration].block == index) {
            return true;
        }
    }
    return false;
}

perfbuf_status pb_q_table_v2(pb_qbuild *w)
{
    const perfbuf_v2_query *d = w->d;
    size_t records = 0;
    perfbuf_v2_iter blocks;
    perfbuf_v2_block block;
    perfbuf_v2_blocks_begin(d, &blocks);
    while (perfbuf_v2_blocks_next(d, &blocks, &block)) {
        bool named = block.index < d->block_count && names_block(w->q, block.index);
        if (block.index < d->block_count) {
            w->object_first[block.index] = named ? 0u : PB_Q_NONE;
            w->value_first[block.index] = PB_Q_NO_VALUES;
        }
        if (named) {
            records += block_has_instances(&block) ? block.instance_count : 1u;
        }
    }
    size_t at = 0;
    if (records > UINT32_MAX - 2u || !pb_q_take(w, records * sizeof(pb_qrec), &at) ||
        !pb_q_take(w, 0, &w->gen.strings)) {
        return PERFBUF_E_INCONSISTENT;
    }
    w->gen.records = at;
    w->gen.record_count = (uint32_t)records;
    uint32_t next = 0;
    perfbuf_v2_blocks_begin(d, &blocks);
    while (perfbuf_v2_blocks_next(d, &blocks, &block)) {
        if (block.index >= d->block_count || w->object_first[block.index] == PB_Q_NONE) {
            continue;
        }
        uint32_t first = next;
        w->object_first[block.index] = first;
        perfbuf_status st = block_records(w, &block, &next);
        if (st != PERFBUF_OK) {
            return st;
        }
        if (block_has_instances(&block)) {
            if (block.instance_count > w->sort_pairs) {
                return PERFBUF_E_INCONSISTENT;
            }
            number_records(w, first, block.instance_count, true);
        }
    }
    w->at = w->gen.strings + w->gen.string_bytes;
    if (next != w->gen.record_count) {
        return PERFBUF_E_INCONSISTENT;
    }
    key_records(w);
    return sort_record_keys(w);
}

/* ---- the older generation's parents ---- */

void pb_q_map_parents(pb_qbuild *w)
{
    const perfbuf_query *q = w->q;
    const perfbuf_query_generation *older = &q->older;
    if (older->stamp == 0 || w->gen.parent_count == 0 || older->parent_count == 0) {
        return;
    }
    pb_qparent *np = pb_q_parents(q, &w->gen);
    const pb_qparent *op = pb_q_parents(q, older);
    const uint64_t *no = (const uint64_t *)pb_q_at(q, w->gen.parent_order);
    const uint64_t *oo = (const uint64_t *)pb_q_at(q, older->parent_order);
    const char *ns = pb_q_strings(q, &w->gen), *os = pb_q_strings(q, older);
    uint32_t a = 0, b = 0;
    while (a < w->gen.parent_count && b < older->parent_count) {
        PB_WORK(1);
        uint64_t ha = no[2u * a], hb = oo[2u * b];
        if (ha != hb) {
            a += ha < hb ? 1u : 0u;
            b += hb < ha ? 1u : 0u;
            continue;
        }
        /* The first of each run is its representative, when the run is one name. */
        uint32_t n = (uint32_t)no[2u * a + 1u], o = (uint32_t)oo[2u * b + 1u];
        if (np[n].rep == n && op[o].rep == o && np[n].flags == op[o].flags &&
            pb_q_text_equal(ns + np[n].name, np[n].name_len, os + op[o].name, op[o].name_len)) {
            np[n].older = o;
        }
        while (a < w->gen.parent_count && no[2u * a] == ha) {
            PB_WORK(1);
            a++;
        }
        while (b < older->parent_count && oo[2u * b] == hb) {
            PB_WORK(1);
            b++;
        }
    }
}
