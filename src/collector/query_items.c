/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Each counter's items in one capture, and their pairing with the
 * previous capture's (docs/collector.md). An item is one selected record
 * (query_tables.c) and one definition: its raw sample, the identity of
 * the definition it was read through (title, type, size, and the base's
 * for a type that reads one), and, for a counter paired by a key counter,
 * that counter's value.
 *
 * Pairing: each item's key (its record's parent name, name and #N, or
 * UniqueID or key value; the counter's title and the object's) is hashed;
 * the hashes are sorted with the items (a radix sort in the arena's spare,
 * linear), and one walk of the newer and the older sorted lists meets
 * each item with the item of the same rank among the older items of its
 * hash. A hash is never trusted: the two items pair only
 * when their keys are equal field by field, and otherwise the newer one is
 * AMBIGUOUS. Two samples of the same key pair as MATCHED only when their
 * definitions agree, else DEFINITION_CHANGED without the older sample: a
 * value is never computed from samples of two different counters.
 */
#include "perfbuf/counter_types.h"

#include "core/cursor.h"
#include "v1/internal.h"
#include "collector/internal.h"
#include "collector/pair_keys.h"
#include "collector/query_internal.h"

#define KEY_HASH UINT64_C(0x4B4559)
#define UNIQUE_ID_HASH UINT64_C(0x5555)

/* A counter's items are pending until the collection commits its stamp. */
#define PENDING UINT64_MAX

/* What a path's parent part said of a parent, per counter. */
#define PARENT_UNKNOWN 0u
#define PARENT_NAMED 1u
#define PARENT_OTHER 2u

static uint32_t sample_failure(perfbuf_status st)
{
    return st == PERFBUF_E_INVALID_ARGUMENT ? PERFBUF_PDH_INVALID_ARGUMENT
                                            : PERFBUF_CSTATUS_INVALID_DATA;
}

/* ---- selection ---- */

/* What one counter selects with: its path without the parent part (a
 * named parent is compared once per parent record instead), and whether
 * it names a parent. */
typedef struct selection {
    const perfbuf_query_counter *c;
    perfbuf_counter_path instance_part;
    bool named_parent;
    bool parent_seen; /* some record's parent is the one the path names */
} selection;

static void selection_begin(pb_qbuild *w, const perfbuf_query_counter *c, selection *s)
{
    s->c = c;
    s->instance_part = c->path;
    s->instance_part.flags &= ~PERFBUF_PATH_HAS_PARENT;
    s->named_parent = c->kind != PB_Q_EVERY_DEFINITION &&
                      (c->path.flags & PERFBUF_PATH_HAS_PARENT) != 0 &&
                      (c->path.flags & PERFBUF_PATH_PARENT_WILDCARD) == 0;
    s->parent_seen = false;
    if (s->named_parent && w->flags != NULL) {
        for (uint32_t i = 0; i < w->gen.parent_count && i < w->flag_count; i++) {
            PB_WORK(1);
            w->flags[i] = PARENT_UNKNOWN;
        }
    }
}

/* Whether the path's parent part names record r's parent: compared once
 * per parent record for each counter, however many children it has. */
static bool parent_named(pb_qbuild *w, selection *s, const pb_qrec *r)
{
    if (r->parent == PB_Q_NONE || r->parent >= w->flag_count) {
        return false;
    }
    uint8_t *flag = &w->flags[r->parent];
    if (*flag == PARENT_UNKNOWN) {
        const pb_qparent *p = &pb_q_parents(w->q, &w->gen)[r->parent];
        bool named = (p->flags & PB_Q_REC_OPAQUE) == 0 &&
                     perfbuf_path_name_matches(&s->c->path, PERFBUF_PATH_PARENT,
                                               pb_q_strings(w->q, &w->gen) + p->name, p->name_len);
        *flag = named ? PARENT_NAMED : PARENT_OTHER;
    }
    s->parent_seen = s->parent_seen || *flag == PARENT_NAMED;
    return *flag == PARENT_NAMED;
}

static bool selected(pb_qbuild *w, selection *s, const pb_qrec *r)
{
    const perfbuf_query_counter *c = s->c;
    if (c->kind == PB_Q_EVERY_DEFINITION) {
        return true;
    }
    const perfbuf_counter_path *path = &c->path;
    if ((path->flags & PERFBUF_PATH_HAS_INSTANCE) == 0) {
        return (r->flags & PB_Q_REC_SINGLE) != 0;
    }
    if ((r->flags & PB_Q_REC_SINGLE) != 0) {
        return false;
    }
    if (s->named_parent && (w->b == NULL || !parent_named(w, s, r))) {
        /* V2 instances have no parent: a parent part selects nothing
         * unless it is "*". */
        return false;
    }
    if ((r->flags & PB_Q_REC_OPAQUE) != 0) {
        /* A name perfbuf does not convert: only "*" selects it. */
        return (path->flags & PERFBUF_PATH_INSTANCE_WILDCARD) != 0;
    }
    if ((path->flags & (PERFBUF_PATH_INSTANCE_WILDCARD | PERFBUF_PATH_HAS_INDEX)) ==
        PERFBUF_PATH_INSTANCE_WILDCARD) {
        return true; /* "*" without "#N": what perfbuf_path_instance_matches answers */
    }
    uint32_t index = r->ordinal == PERFBUF_PAIR_NO_ORDINAL ? UINT32_MAX : r->ordinal;
    return perfbuf_path_instance_matches(&s->instance_part, "", 0,
                                         pb_q_strings(w->q, &w->gen) + r->name, r->name_len,
                                         index);
}

/* What `count` items of the path over an object of `instances` instances
 * (-1: none by kind) mean (PERFBUF_QUERY_FOUND_*). */
static uint32_t found_for(const selection *s, int64_t instances, size_t count)
{
    const perfbuf_counter_path *path = &s->c->path;
    if (count > 0) {
        return PERFBUF_QUERY_FOUND_ITEMS;
    }
    if ((path->flags & PERFBUF_PATH_HAS_INSTANCE) == 0) {
        return instances >= 0 ? PERFBUF_QUERY_FOUND_UNNAMED : PERFBUF_QUERY_FOUND_NO_INSTANCE;
    }
    if (s->named_parent && instances > 0 && !s->parent_seen) {
        return PERFBUF_QUERY_FOUND_NO_PARENT;
    }
    /* A wildcard, with a parent part or without: an object without
     * instances has no parents either, so neither names one that is
     * missing. A prefix or a name names one. */
    bool wildcard = (path->flags & PERFBUF_PATH_INSTANCE_WILDCARD) != 0;
    return wildcard && instances == 0 ? PERFBUF_QUERY_FOUND_EMPTY_OBJECT
                                      : PERFBUF_QUERY_FOUND_NO_INSTANCE;
}

/* A named instance that is not there is PDH's NO_INSTANCE; a wildcard or
 * prefix that selects nothing is an empty answer, as PDH's. */
static uint32_t status_for(const perfbuf_query_counter *c, size_t count)
{
    uint32_t open = PERFBUF_PATH_INSTANCE_WILDCARD | PERFBUF_PATH_INSTANCE_PREFIX;
    return count == 0 && (c->path.flags & PERFBUF_PATH_HAS_INSTANCE) != 0 &&
                   (c->path.flags & open) == 0
               ? PERFBUF_CSTATUS_NO_INSTANCE
               : PERFBUF_CSTATUS_VALID_DATA;
}

/* ---- V1 items ---- */

/* The definitions a counter takes from one object, from the object's plan
 * (perfbuf_v1_plan_build: each definition resolved once, so that a sample
 * costs a load or two, not a definition lookup): each one's position in
 * the plan and what an item records of it. */
static bool pick_definitions(pb_qbuild *w, const perfbuf_query_counter *c, uint32_t expected)
{
    const perfbuf_v1_plan *plan = w->plan;
    uint32_t n = 0;
    for (uint32_t k = 0; k < plan->count; k++) {
        PB_WORK(1);
        const perfbuf_v1_plan_entry *e = &plan->entries[k];
        bool displayable = perfbuf_counter_type_is_displayable(e->type);
        bool taken = c->kind == PB_Q_EVERY_DEFINITION ||
                     (c->kind == PB_Q_EVERY_COUNTER && displayable) ||
                     (c->kind == PB_Q_PATH && displayable && e->title_index == c->planned_counter &&
                      n == 0);
        if (!taken) {
            continue;
        }
        if (n >= w->pick_cap) {
            return false;
        }
        pb_qpick *p = &w->picks[n++];
        *p = (pb_qpick){.k = k, .counter = e->title_index, .size = e->size};
        const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(e->type);
        if (info != NULL && (info->needs_base || info->needs_multi) && k + 1u < plan->count) {
            p->base = plan->entries[k + 1u].title_index;
            p->base_type = plan->entries[k + 1u].type;
            p->base_size = plan->entries[k + 1u].size;
        }
    }
    /* As many as pb_q_object_definitions counted over the same unchanged
     * definitions. */
    return n == expected;
}

/* One item of record `record` through pick p, at the new generation's end. */
static bool write_item(pb_qbuild *w, const perfbuf_v1_counter_block *block, uint32_t record,
                       const pb_qpick *p, bool keyed, uint64_t key)
{
    size_t at = 0;
    if (!pb_q_take(w, sizeof(pb_qitem), &at)) {
        return false;
    }
    pb_qitem *it = (pb_qitem *)pb_q_at(w->q, at);
    *it = (pb_qitem){.key = key, .record = record, .counter = p->counter, .size = p->size,
                     .base = p->base, .base_type = p->base_type, .base_size = p->base_size,
                     .pairing = PERFBUF_PAIR_NEW, .older = PB_Q_NONE, .keyed = keyed ? 1u : 0u};
    perfbuf_status st =
        perfbuf_v1_plan_sample(w->plan, w->b, block, p->k, &it->sample, &it->context);
    if (st != PERFBUF_OK) {
        /* As the arrays give a sample they cannot read. */
        it->sample = (perfbuf_raw_sample){.status = sample_failure(st),
                                          .type = w->plan->entries[p->k].type};
        it->context = (perfbuf_value_context){0};
    }
    return true;
}

/* The items counter c takes from object o: each selected record times
 * each definition it takes. *count the items written. */
PB_NOINLINE static perfbuf_status object_items(pb_qbuild *w, perfbuf_query_counter *c, selection *s,
                                   const perfbuf_v1_object *o, uint32_t definitions,
                                   const perfbuf_v1_counter *key_def, size_t *count)
{
    uint32_t rf = w->object_first[o->index];
    uint32_t rn = o->num_instances >= 0 ? o->instance_count
                  : o->num_instances == PERFBUF_V1_NO_INSTANCES ? 1u : 0u;
    if (rf == PB_Q_NONE || rf > w->gen.record_count || rn > w->gen.record_count - rf ||
        perfbuf_v1_plan_build(w->b, o, w->entries, w->pick_cap, w->plan) != PERFBUF_OK ||
        !pick_definitions(w, c, definitions) ||
        (key_def != NULL && key_def->index >= w->plan->count)) {
        return PERFBUF_E_INCONSISTENT;
    }
    const pb_qrec *records = pb_q_records(w->q, &w->gen);
    *count = 0;
    for (uint32_t i = rf; i < rf + rn; i++) {
        PB_WORK(1);
        const pb_qrec *r = &records[i];
        if (!selected(w, s, r)) {
            continue;
        }
        perfbuf_v1_counter_block block = pb_unpack_counter_block(r->counters, w->b);
        uint64_t key = 0;
        if (key_def != NULL) {
            perfbuf_raw_sample ks;
            perfbuf_value_context kc;
            key = perfbuf_v1_plan_sample(w->plan, w->b, &block, key_def->index, &ks, &kc) ==
                          PERFBUF_OK
                      ? ks.first
                      : 0u;
        }
        for (uint32_t k = 0; k < definitions; k++) {
            PB_WORK(1);
            if (!write_item(w, &block, i, &w->picks[k], key_def != NULL, key)) {
                return PERFBUF_E_INCONSISTENT;
            }
        }
        *count += definitions;
    }
    return PERFBUF_OK;
}

/* Why an unresolved V1 path names nothing. */
PB_NOINLINE static uint32_t unresolved(const perfbuf_query *q, const perfbuf_query_counter *c,
                           const perfbuf_v1_block *b)
{
    perfbuf_v1_iter objects;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(b, &objects);
    if (c->kind == PB_Q_EVERY_DEFINITION) {
        return perfbuf_v1_objects_next(b, &objects, &o) ? PERFBUF_CSTATUS_NO_COUNTER
                                                        : PERFBUF_CSTATUS_NO_OBJECT;
    }
    if (c->planned_object != 0) {
        return pb_q_next_object(q, c, b, &objects, &o) ? PERFBUF_CSTATUS_NO_COUNTER
                                                       : PERFBUF_CSTATUS_NO_OBJECT;
    }
    return perfbuf_v1_resolve_object(b, &q->names, &c->path, &objects, &o, NULL, NULL) ==
                   PERFBUF_OK
               ? PERFBUF_CSTATUS_NO_COUNTER
               : PERFBUF_CSTATUS_NO_OBJECT;
}

static uint32_t found_unresolved(uint32_t status)
{
    return status == PERFBUF_CSTATUS_NO_COUNTER ? PERFBUF_QUERY_FOUND_NO_COUNTER
                                                : PERFBUF_QUERY_FOUND_NO_OBJECT;
}

/* The counter's items' sorted keys and claims, after its items. */
static perfbuf_status finish_items(pb_qbuild *w, perfbuf_query_counter *c, size_t start,
                                   size_t count)
{
    size_t keys = 0, claims = 0;
    if (count > UINT32_MAX - 1u || !pb_q_take(w, count * 2u * sizeof(uint64_t), &keys) ||
        !pb_q_take(w, count * sizeof(uint32_t), &claims)) {
        return PERFBUF_E_INCONSISTENT;
    }
    c->newer = (perfbuf_query_samples){.stamp = PENDING, .count = (uint32_t)count,
                                       .items = start, .keys = keys, .claims = claims};
    return PERFBUF_OK;
}

#define OBJECT_TAKEN 0u
#define OBJECT_WITHOUT_COUNTER 1u /* the object lacks the counter */
#define OBJECT_WITHOUT_KEY 2u     /* or the key counter a path needs */

/* The items of object o, apart so that its definitions' frames are not
 * held by the walk over objects (bench/stack-usage.sh). */
PB_NOINLINE static perfbuf_status take_object(pb_qbuild *w, perfbuf_query_counter *c,
                                              selection *s, const perfbuf_v1_object *o,
                                              uint32_t *taken, size_t *n)
{
    const perfbuf_query *q = w->q;
    perfbuf_v1_counter first, key;
    uint32_t definitions = 0;
    if (!pb_q_object_definitions(q, c, w->b, o, &first, &definitions)) {
        *taken = OBJECT_WITHOUT_COUNTER;
        return PERFBUF_OK;
    }
    bool keyed = c->identity == PERFBUF_QUERY_IDENTITY_KEY_COUNTER &&
                 pb_q_key_definition(q, c, w->b, o, &key);
    if (c->identity == PERFBUF_QUERY_IDENTITY_KEY_COUNTER && !keyed &&
        c->kind != PB_Q_EVERY_DEFINITION) {
        *taken = OBJECT_WITHOUT_KEY;
        return PERFBUF_OK;
    }
    s->parent_seen = false;
    return object_items(w, c, s, o, definitions, keyed ? &key : NULL, n);
}

perfbuf_status pb_q_items_v1(pb_qbuild *w, perfbuf_query_counter *c)
{
    const perfbuf_query *q = w->q;
    const perfbuf_v1_block *b = w->b;
    c->newer = (perfbuf_query_samples){0};
    if (c->status == PERFBUF_CSTATUS_NO_MACHINE) {
        return PERFBUF_OK;
    }
    selection s;
    selection_begin(w, c, &s);
    size_t start = 0, count = 0;
    if (!pb_q_take(w, 0, &start)) {
        return PERFBUF_E_INCONSISTENT;
    }
    perfbuf_v1_iter objects;
    perfbuf_v1_object o;
    uint32_t kept = 0, status = PERFBUF_CSTATUS_NO_OBJECT, first_status = 0, first_found = 0;
    bool any = false;
    perfbuf_v1_objects_begin(b, &objects);
    while ((c->kind == PB_Q_EVERY_DEFINITION || c->planned_object != 0) &&
           pb_q_next_object(q, c, b, &objects, &o)) {
        size_t n = 0;
        uint32_t taken = OBJECT_TAKEN;
        perfbuf_status st = take_object(w, c, &s, &o, &taken, &n);
        if (st != PERFBUF_OK) {
            return st;
        }
        if (taken == OBJECT_WITHOUT_COUNTER) {
            status = kept == 0 ? PERFBUF_CSTATUS_NO_COUNTER : status;
            continue;
        }
        if (taken == OBJECT_WITHOUT_KEY) {
            /* The key counter is missing: no sample of this capture could
             * be told from another's. */
            c->status = PERFBUF_CSTATUS_NO_COUNTER;
            c->found = PERFBUF_QUERY_FOUND_NO_COUNTER;
            w->at = start;
            return PERFBUF_OK;
        }
        int64_t instances = o.num_instances < 0 ? -1 : (int64_t)o.instance_count;
        if (kept == 0) {
            first_status = status_for(c, n);
            first_found = c->kind == PB_Q_EVERY_DEFINITION && n == 0
                              ? PERFBUF_QUERY_FOUND_UNNAMED
                              : found_for(&s, instances, n);
        }
        any = any || n > 0;
        count += n;
        kept++;
    }
    if (kept == 0) {
        c->status = c->kind == PB_Q_EVERY_DEFINITION || c->planned_object == 0 ? unresolved(q, c, b)
                                                                             : status;
        c->found = found_unresolved(c->status);
        w->at = start;
        return PERFBUF_OK;
    }
    /* The first object speaks for the path, unless it selects nothing
     * where a later one of the title has items. */
    c->status = any ? PERFBUF_CSTATUS_VALID_DATA : first_status;
    c->found = any ? PERFBUF_QUERY_FOUND_ITEMS : first_found;
    return finish_items(w, c, start, count);
}

/* ---- V2 items ---- */

perfbuf_status pb_q_items_v2(pb_qbuild *w, perfbuf_query_counter *c)
{
    const perfbuf_query *q = w->q;
    c->newer = (perfbuf_query_samples){0};
    perfbuf_v2_block block;
    c->status = c->resolution;
    if (c->status == PERFBUF_CSTATUS_VALID_DATA && !pb_q_registration_block(q, c, w->d, &block)) {
        c->status = PERFBUF_CSTATUS_NO_OBJECT;
    }
    if (c->status != PERFBUF_CSTATUS_VALID_DATA) {
        c->found = found_unresolved(c->status);
        return PERFBUF_OK;
    }
    bool instances = block.kind == PERFBUF_V2_MULTIPLE_INSTANCES ||
                     block.kind == PERFBUF_V2_COUNTERSET;
    uint32_t rf = w->object_first[block.index];
    uint32_t rn = instances ? block.instance_count : 1u;
    if (block.index >= w->d->block_count || rf == PB_Q_NONE || rf > w->gen.record_count ||
        rn > w->gen.record_count - rf) {
        return PERFBUF_E_INCONSISTENT;
    }
    const perfbuf_v2_reginfo *reg = &q->registrations[c->registration].reg;
    const pb_qrec *records = pb_q_records(q, &w->gen);
    selection s;
    selection_begin(w, c, &s);
    size_t start = 0, count = 0;
    if (!pb_q_take(w, 0, &start)) {
        return PERFBUF_E_INCONSISTENT;
    }
    /* The block's value plan: each sample from the row its record's
     * values were read into, in O(1) (perfbuf_v2_plan_sample gives what
     * perfbuf_v2_raw_sample gives). */
    perfbuf_v2_plan vplan;
    uint32_t position = PERFBUF_V2_PLAN_NONE;
    if (w->value_first[block.index] != PB_Q_NO_VALUES &&
        perfbuf_v2_plan_build(w->d, &block, reg, w->v2_entries, w->v2_entry_cap,
                              w->v2_plan_scratch, w->v2_plan_scratch_cap, &vplan) == PERFBUF_OK) {
        for (uint32_t k = 0; k < vplan.count && position == PERFBUF_V2_PLAN_NONE; k++) {
            PB_WORK(1);
            position = vplan.entries[k].counter_id == c->counter_id ? k : position;
        }
    }
    w->pair_first = rf;
    w->pair_count = rn;
    for (uint32_t i = rf; i < rf + rn; i++) {
        PB_WORK(1);
        const pb_qrec *r = &records[i];
        w->item_of[i] = PB_Q_NONE;
        if (!selected(w, &s, r)) {
            continue;
        }
        w->item_of[i] = (uint32_t)count;
        size_t at = 0;
        if (!pb_q_take(w, sizeof(pb_qitem), &at)) {
            return PERFBUF_E_INCONSISTENT;
        }
        pb_qitem *item = (pb_qitem *)pb_q_at(q, at);
        *item = (pb_qitem){.record = i, .counter = c->counter_id, .pairing = PERFBUF_PAIR_NEW,
                           .older = PB_Q_NONE};
        /* The records of an instance block are its instances in order,
         * each with the view the tables' walk kept. */
        const perfbuf_v2_instance *inst = instances ? &w->instances[i] : NULL;
        const uint64_t *row = position != PERFBUF_V2_PLAN_NONE
                                  ? pb_q_value_row(w, &block, instances ? i - rf : 0u)
                                  : NULL;
        perfbuf_status st =
            row != NULL ? perfbuf_v2_plan_sample(w->d, &block, inst, reg, &vplan, row,
                                                 &w->reads[i], position, &item->sample,
                                                 &item->context)
                        : perfbuf_v2_raw_sample(w->d, &block, inst, reg, c->counter_id,
                                                &item->sample, &item->context);
        if (st != PERFBUF_OK) {
            item->sample = (perfbuf_raw_sample){.status = sample_failure(st)};
            item->context = (perfbuf_value_context){0};
        }
        count++;
    }
    c->status = status_for(c, count);
    c->found = found_for(&s, instances ? (int64_t)block.instance_count : -1, count);
    return finish_items(w, c, start, count);
}

/* ---- pairing ---- */

/* The key of an item as a hash, from the same inputs in every generation:
 * its record's (parent and name, query_tables.c), what tells records of
 * that name apart (#N, the UniqueID, the InstanceId and #N, or the key
 * counter's value), the counter and the object's title. */
/* x rotated left by 17 bits, no bit shifted out (-fsanitize=integer). */
static uint64_t rotate17(uint64_t x)
{
    return (x & (UINT64_MAX >> 17)) << 17 | x >> 47;
}

static uint64_t key_of(uint64_t which, uint32_t counter, const pb_qrec *r)
{
    /* The counter and object in the high half, where #N and the ids are
     * rarely: one mix of both, then one with the record's. */
    uint64_t where = ((uint64_t)counter << 32 | r->object_title) ^ rotate17(which);
    return pb_mix64(r->hash ^ pb_mix64(which ^ where)) & PB_PAIRING_HASH_MASK;
}

uint64_t pb_q_v2_record_key(const pb_qrec *r)
{
    return key_of((r->identity & PB_MIX_LANE) << 32 | r->ordinal, 0, r);
}

static uint64_t item_key(const perfbuf_query_counter *c, const pb_qitem *it, const pb_qrec *r,
                         bool v2)
{
    uint64_t which;
    if (it->keyed != 0) {
        which = pb_mix64(it->key) ^ KEY_HASH;
    } else if (v2) {
        return pb_q_v2_record_key(r);
    } else if (c->identity == PERFBUF_QUERY_IDENTITY_UNIQUE_ID && r->identity != 0) {
        which = r->identity ^ UNIQUE_ID_HASH << 40;
    } else {
        which = r->ordinal;
    }
    return key_of(which, it->counter, r);
}

/* Whether an item's own key can pair at all: not of an ambiguous #N (a
 * hash group of two names) when #N is part of it, not under an
 * ambiguous parent name. */
static bool pairable(const perfbuf_query_counter *c, const pb_qitem *it, const pb_qrec *r,
                     const pb_qparent *parents, bool v2)
{
    if (r->parent != PB_Q_NONE && parents[r->parent].rep == PB_Q_NONE) {
        return false;
    }
    bool by_ordinal = it->keyed == 0 &&
                      (v2 || c->identity != PERFBUF_QUERY_IDENTITY_UNIQUE_ID || r->identity == 0);
    return !by_ordinal || r->ordinal != PERFBUF_PAIR_NO_ORDINAL;
}

/* The two generations an item pairing compares. */
typedef struct pair_view {
    const perfbuf_query *q;
    const perfbuf_query_counter *c;
    bool v2;
    const pb_qrec *nr, *orec;
    const pb_qparent *np, *op;
    const char *ns, *os;
} pair_view;

/* Whether newer item a (of record ra) and older item b (of rb) are of one
 * instance, field by field: the same kind of record, object title, parent
 * name, name, and #N, UniqueID, InstanceId or key value as the counter
 * pairs. The counter's title is compared apart: the items of one instance
 * share everything else. */
static bool same_instance(const pair_view *v, const pb_qitem *a, const pb_qrec *ra,
                          const pb_qitem *b, const pb_qrec *rb)
{
    uint32_t kinds = PB_Q_REC_SINGLE | PB_Q_REC_OPAQUE;
    if (((ra->flags ^ rb->flags) & kinds) != 0 || ra->object_title != rb->object_title ||
        a->keyed != b->keyed) {
        return false;
    }
    if (ra->parent == PB_Q_NONE || rb->parent == PB_Q_NONE) {
        if (ra->parent != rb->parent) {
            return false;
        }
    } else {
        uint32_t nrep = v->np[ra->parent].rep, orep = v->op[rb->parent].rep;
        if (nrep == PB_Q_NONE || orep == PB_Q_NONE || v->np[nrep].older != orep) {
            return false;
        }
    }
    if (!pb_q_text_equal(v->ns + ra->name, ra->name_len, v->os + rb->name, rb->name_len)) {
        return false;
    }
    if (a->keyed != 0) {
        return a->key == b->key;
    }
    if (v->v2) {
        return ra->identity == rb->identity && ra->ordinal == rb->ordinal;
    }
    if (v->c->identity == PERFBUF_QUERY_IDENTITY_UNIQUE_ID &&
        (ra->identity != 0 || rb->identity != 0)) {
        return ra->identity == rb->identity;
    }
    /* PDH's key: parent, name and #N; a UniqueID is not part of it. */
    return ra->ordinal == rb->ordinal;
}

/* Whether two samples of one key were read through one definition. */
static bool same_definition(const pb_qitem *a, const pb_qitem *b)
{
    return a->sample.type == b->sample.type && a->size == b->size && a->base == b->base &&
           a->base_type == b->base_type && a->base_size == b->base_size;
}

/* Whether newer record r is the same instance as older record o for
 * items a and b: the comparison of their names is made once per pair of
 * records, whatever the number of items (a counter "*" gives an instance
 * one per counter), and remembered per newer record. */
static bool remembered_same(pb_qbuild *w, const pair_view *v, const pb_qitem *a,
                            const pb_qitem *b)
{
    uint32_t r = a->record, o = b->record;
    if (w->same_as[r] == o) {
        return true;
    }
    if (w->other_than[r] == o) {
        return false;
    }
    bool same = same_instance(v, a, &v->nr[r], b, &v->orec[o]);
    if (same) {
        w->same_as[r] = o;
    } else {
        w->other_than[r] = o;
    }
    return same;
}

/* The newer item at sorted place k and the older one at place j (of one
 * hash): paired when they are one instance's one counter and the older is
 * not yet claimed. */
static void pair_one(pb_qbuild *w, const pair_view *v, pb_qitem *items, uint32_t i,
                     const pb_qitem *older_items, uint32_t j, uint32_t *claims)
{
    pb_qitem *item = &items[i];
    const pb_qitem *o = &older_items[j];
    if (item->pairing != PERFBUF_PAIR_NEW || o->record >= v->q->older.record_count ||
        (v->orec[o->record].flags & PB_Q_REC_LATER) != 0) {
        return;
    }
    if (o->counter != item->counter || !remembered_same(w, v, item, o)) {
        /* Equal hashes, other keys: never paired (a collision). */
        item->pairing = PERFBUF_PAIR_AMBIGUOUS;
        return;
    }
    if (claims[j] != 0) {
        return;
    }
    claims[j] = i + 1u;
    item->older = j;
    /* A V2 counter is its registration's in both captures: nothing to
     * differ (a sample that failed has no type of its own). */
    item->pairing = v->v2 || same_definition(item, o) ? PERFBUF_PAIR_MATCHED
                                                      : PERFBUF_PAIR_DEFINITION_CHANGED;
}

/*
 * Pairs a counter's items of the new generation with its items of the
 * older one: the newer keys are computed and sorted (the next collection
 * pairs with them), and the two sorted lists are walked together; in a
 * hash both have, the t-th newer item (position order) meets the t-th
 * older one. Linear after the sort.
 */
void pb_q_pair(pb_qbuild *w, perfbuf_query_counter *c)
{
    const perfbuf_query *q = w->q;
    const perfbuf_query_generation *older = &q->older;
    bool v2 = w->d != NULL;
    pb_qitem *items = pb_q_items(q, &c->newer);
    uint64_t *keys = (uint64_t *)pb_q_at(q, c->newer.keys);
    uint32_t *newer_claims = (uint32_t *)pb_q_at(q, c->newer.claims);
    uint32_t n = c->newer.count;
    pair_view v = {.q = q, .c = c, .v2 = v2, .nr = pb_q_records(q, &w->gen),
                   .np = pb_q_parents(q, &w->gen), .ns = pb_q_strings(q, &w->gen)};
    for (uint32_t i = 0; i < n; i++) {
        PB_WORK(1);
        pb_qitem *item = &items[i];
        const pb_qrec *r = &v.nr[item->record];
        if (!v2) {
            keys[2u * i] = item_key(c, item, r, v2);
            keys[2u * i + 1u] = i;
        }
        newer_claims[i] = 0;
        item->older = PB_Q_NONE;
        /* No key tells which of two objects of one title is which in
         * another capture; an ambiguous #N or parent name pairs nothing. */
        item->pairing = (r->flags & PB_Q_REC_LATER) != 0 ? PERFBUF_PAIR_UNPAIRED
                        : !pairable(c, item, r, v.np, v2) ? PERFBUF_PAIR_AMBIGUOUS
                                                          : PERFBUF_PAIR_NEW;
    }
    if (v2) {
        /* The block's records in key order, each with its item here. */
        uint32_t m = 0;
        for (uint32_t j = w->pair_first; j - w->pair_first < w->pair_count; j++) {
            PB_WORK(1);
            uint64_t record = w->record_keys[2u * j + 1u];
            uint32_t it = record < w->gen.record_count ? w->item_of[record] : PB_Q_NONE;
            if (it != PB_Q_NONE && m < n) {
                keys[2u * m] = w->record_keys[2u * j];
                keys[2u * m + 1u] = it;
                m++;
            }
        }
        if (m != n) {
            PB_UNREACHABLE(); /* each item is of one record of the block */
            return;
        }
    } else if (n > w->sort_pairs) {
        PB_UNREACHABLE(); /* the plan sized the spare for the largest counter */
        return;
    } else {
        pb_q_sort(keys, w->spare, w->radix_counts, n);
    }
    bool has_older = c->older.stamp != 0 && c->older.stamp == older->stamp &&
                     pb_q_samples_readable(q, older, &c->older);
    if (!has_older) {
        return;
    }
    const pb_qitem *older_items = pb_q_items(q, &c->older);
    const uint64_t *older_keys = (const uint64_t *)pb_q_at(q, c->older.keys);
    uint32_t *claims = (uint32_t *)pb_q_at(q, c->older.claims);
    uint32_t on = c->older.count;
    v.orec = pb_q_records(q, older);
    v.op = pb_q_parents(q, older);
    v.os = pb_q_strings(q, older);
    for (uint32_t j = 0; j < on; j++) {
        PB_WORK(1);
        claims[j] = 0;
    }
    /* Only this counter's records are asked about: their memo is reset,
     * not every record of the capture for every counter. */
    for (uint32_t i = 0; i < n; i++) {
        PB_WORK(1);
        uint32_t r = items[i].record;
        if (r < w->gen.record_count) {
            w->same_as[r] = PB_Q_NONE;
            w->other_than[r] = PB_Q_NONE;
        }
    }
    uint32_t a = 0, b = 0;
    while (a < n && b < on) {
        PB_WORK(1);
        uint64_t ha = keys[2u * a], hb = older_keys[2u * b];
        uint32_t ae = a + 1u, be = b + 1u;
        while (ae < n && keys[2u * ae] == ha) {
            PB_WORK(1);
            ae++;
        }
        while (be < on && older_keys[2u * be] == hb) {
            PB_WORK(1);
            be++;
        }
        if (ha == hb) {
            for (uint32_t t = 0; a + t < ae && b + t < be; t++) {
                PB_WORK(1);
                uint32_t i = (uint32_t)keys[2u * (a + t) + 1u];
                uint32_t j = (uint32_t)older_keys[2u * (b + t) + 1u];
                if (i < n && j < on) {
                    pair_one(w, &v, items, i, older_items, j, claims);
                }
            }
        }
        a = ha <= hb ? ae : a;
        b = hb <= ha ? be : b;
    }
}
