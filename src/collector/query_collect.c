/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * One collection (perfbuf_query_collect): the capture is validated, its
 * computer compared with the previous capture's, every counter's path
 * resolved (once: a path resolved by an earlier capture is looked for by
 * its title indexes), and the arena it needs worked out before anything
 * is written (the plan), so that a capture that does not fit, like one
 * that is rejected, changes nothing. Then the last capture's generation
 * moves down over the one before, and the new one is built after it:
 * tables (query_tables.c), each counter's items and their pairing
 * (query_items.c).
 *
 * The arena during a build, from its start: the fixed part (the tables'
 * indexes, the seal, the list of counters), the older generation, the new
 * one, free room, and at the end the scratch (the block index, the
 * per-object and per-slot maps, the pairs the sorts use).
 */
#include "perfbuf/counter_types.h"

#include "core/cursor.h"
#include "core/text.h"
#include "v1/internal.h"
#include "collector/internal.h"
#include "collector/query_internal.h"

/* The block index's description, before its slots in the scratch. */
#define INDEX_HEADER pb_q_align(sizeof(perfbuf_v1_instance_index))
_Static_assert(_Alignof(perfbuf_v1_instance_index) <= PB_Q_ALIGN &&
                   _Alignof(perfbuf_v1_plan) <= PB_Q_ALIGN &&
                   _Alignof(perfbuf_v1_plan_entry) <= PB_Q_ALIGN,
               "the scratch aligns them to 8");

/* Slack the plan allows per array it places, for its alignment. */
#define SLACK PB_Q_ALIGN

/* ---- what a path names in a capture ---- */

static bool counter_displayable(const perfbuf_v1_counter *def)
{
    return perfbuf_counter_type_is_displayable(def->type);
}

bool pb_q_next_object(const perfbuf_query *q, const perfbuf_query_counter *c,
                      const perfbuf_v1_block *b, perfbuf_v1_iter *it, perfbuf_v1_object *out)
{
    (void)q;
    while (perfbuf_v1_objects_next(b, it, out)) {
        PB_WORK(1);
        if (c->kind == PB_Q_EVERY_DEFINITION ||
            (c->planned_object != 0 && out->name_title_index == c->planned_object)) {
            return true;
        }
    }
    return false;
}

bool pb_q_next_definition(const perfbuf_query_counter *c, const perfbuf_v1_block *b,
                          perfbuf_v1_iter *it, perfbuf_v1_counter *def)
{
    while (perfbuf_v1_counters_next(b, it, def)) {
        PB_WORK(1);
        if (c->kind == PB_Q_EVERY_DEFINITION || counter_displayable(def)) {
            return true;
        }
    }
    return false;
}

bool pb_q_object_definitions(const perfbuf_query *q, const perfbuf_query_counter *c,
                             const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                             perfbuf_v1_counter *first, uint32_t *count)
{
    (void)q;
    perfbuf_v1_iter it;
    perfbuf_v1_counter def;
    perfbuf_v1_counters_begin(o, &it);
    *count = 0;
    if (c->kind == PB_Q_PATH) {
        /* The first displayable definition of the title the path resolved
         * to: Windows' providers give a base its counter's title, and a
         * base is never a path's counter (perfbuf_v1_resolve_counter). */
        while (perfbuf_v1_counters_next(b, &it, &def)) {
            PB_WORK(1);
            if (def.name_title_index == c->planned_counter && counter_displayable(&def)) {
                *first = def;
                *count = 1;
                return true;
            }
        }
        return false;
    }
    while (pb_q_next_definition(c, b, &it, &def)) {
        if (*count == 0) {
            *first = def;
        }
        (*count)++;
    }
    return *count > 0;
}

bool pb_q_key_definition(const perfbuf_query *q, const perfbuf_query_counter *c,
                         const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                         perfbuf_v1_counter *key)
{
    perfbuf_v1_iter it;
    perfbuf_v1_counters_begin(o, &it);
    if (c->kind == PB_Q_EVERY_DEFINITION) {
        /* Every object is looked in by name: most have no such counter. */
        return perfbuf_v1_resolve_counter(b, &q->names, &c->key, &it, key, NULL, NULL) ==
               PERFBUF_OK;
    }
    while (perfbuf_v1_counters_next(b, &it, key)) {
        PB_WORK(1);
        if (key->name_title_index == c->planned_key) {
            return true;
        }
    }
    return false;
}

/*
 * Resolves a V1 counter's path in capture b into its planned_* fields:
 * the titles it resolved to before, or, the first time, the first object
 * (in block order) whose name the path names that has the counter (and
 * the key counter), by name through the tables. Nothing is pinned until
 * the collection succeeds. planned_status says why a path names nothing.
 */
static void resolve_v1(const perfbuf_query *q, perfbuf_query_counter *c, const perfbuf_v1_block *b)
{
    c->planned_object = c->object_title;
    c->planned_counter = c->counter_title;
    c->planned_key = c->key_title;
    if (c->kind == PB_Q_EVERY_DEFINITION || c->object_title != 0) {
        return;
    }
    perfbuf_v1_iter objects;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(b, &objects);
    while (perfbuf_v1_resolve_object(b, &q->names, &c->path, &objects, &o, NULL, NULL) ==
           PERFBUF_OK) {
        perfbuf_v1_iter defs;
        perfbuf_v1_counter def, key;
        perfbuf_v1_counters_begin(&o, &defs);
        if (perfbuf_v1_resolve_counter(b, &q->names, &c->path, &defs, &def, NULL, NULL) !=
            PERFBUF_OK) {
            continue;
        }
        perfbuf_v1_counters_begin(&o, &defs);
        if (c->identity == PERFBUF_QUERY_IDENTITY_KEY_COUNTER &&
            perfbuf_v1_resolve_counter(b, &q->names, &c->key, &defs, &key, NULL, NULL) !=
                PERFBUF_OK) {
            continue;
        }
        c->planned_object = o.name_title_index;
        c->planned_counter = c->kind == PB_Q_PATH ? def.name_title_index : 0;
        c->planned_key =
            c->identity == PERFBUF_QUERY_IDENTITY_KEY_COUNTER ? key.name_title_index : 0;
        return;
    }
}

bool pb_q_registration_block(const perfbuf_query *q, const perfbuf_query_counter *c,
                             const perfbuf_v2_query *d, perfbuf_v2_block *out)
{
    if (c->resolution != PERFBUF_CSTATUS_VALID_DATA) {
        return false;
    }
    uint32_t wanted = q->registrations[c->registration].block;
    if (wanted >= d->block_count) {
        return false;
    }
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

/* ---- the plan: the arena a capture needs, before anything is written ---- */

typedef struct plan {
    size_t gen;       /* the new generation's bytes */
    size_t scratch;   /* the scratch's */
    size_t parents;   /* parents the tables may hold */
    size_t records;   /* records they hold */
    size_t sorted;    /* the most pairs one sort orders: records of an object,
                         parents, or items of a counter */
    size_t definitions; /* the most definitions of a tabled object */
    size_t cells;     /* V2: the values of the tabled blocks with an id list */
    size_t ids;       /* V2: the most ids of one such block */
    size_t registered; /* V2: the most counters of one registration */
    bool fits;        /* no size wrapped */
} plan;

static void plan_add(plan *p, size_t *total, size_t n)
{
    p->fits = p->fits && pb_add(*total, n, total);
}

static void plan_array(plan *p, size_t *total, size_t count, size_t each)
{
    size_t bytes = 0;
    p->fits = p->fits && pb_mul(count, each, &bytes) && pb_add(*total, bytes, total) &&
              pb_add(*total, SLACK, total);
}

/* The records a V1 object gives: one per instance, or its one counter
 * block; none for the metadata-only kinds (NumInstances -2 and -3). */
static size_t object_records(const perfbuf_v1_object *o)
{
    return o->num_instances >= 0 ? o->instance_count
                                 : o->num_instances == PERFBUF_V1_NO_INSTANCES ? 1u : 0u;
}

/* Instances of o that name a parent: one walk of its instances. */
static size_t with_parents(const perfbuf_v1_block *b, const perfbuf_v1_object *o)
{
    size_t n = 0;
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst;
    perfbuf_v1_instances_begin(o, &it);
    while (perfbuf_v1_instances_next(b, &it, &inst)) {
        n += inst.parent_title_index != 0 ? 1u : 0u;
    }
    return n;
}

/* Items c can take from o (its records times its definitions), whether c
 * names o at all. */
static bool object_items(const perfbuf_query *q, const perfbuf_query_counter *c,
                         const perfbuf_v1_block *b, const perfbuf_v1_object *o, size_t *items)
{
    perfbuf_v1_counter first;
    uint32_t count = 0;
    if (!((c->kind == PB_Q_EVERY_DEFINITION ||
           (c->planned_object != 0 && o->name_title_index == c->planned_object)) &&
          pb_q_object_definitions(q, c, b, o, &first, &count))) {
        return false;
    }
    return pb_mul(object_records(o), count, items);
}

/* The V1 plan: the new generation (the computer name, each tabled
 * object's records, its names, its parents', each counter's items) and
 * the scratch. One walk of the objects per counter, one of each tabled
 * object's instances. */
PB_NOINLINE static plan plan_v1(perfbuf_query *q, const perfbuf_v1_block *b)
{
    plan p = {.fits = true};
    for (perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
        resolve_v1(q, c, b);
    }
    size_t machine = 0, names = 0, items = 0;
    p.fits = pb_mul(b->system_name_units, 3u, &machine);
    plan_add(&p, &p.gen, pb_q_align(machine + 1u) + SLACK);
    perfbuf_v1_iter objects;
    perfbuf_v1_object o;
    /* Each counter's items: what its sort orders. */
    for (const perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
        size_t counter_items = 0;
        perfbuf_v1_objects_begin(b, &objects);
        while (perfbuf_v1_objects_next(b, &objects, &o)) {
            size_t n = 0;
            if (object_items(q, c, b, &o, &n)) {
                plan_add(&p, &counter_items, n);
            }
        }
        plan_add(&p, &items, counter_items);
        p.sorted = counter_items > p.sorted ? counter_items : p.sorted;
    }
    /* Each object some counter names: its records, names and parents. */
    perfbuf_v1_objects_begin(b, &objects);
    while (perfbuf_v1_objects_next(b, &objects, &o)) {
        bool tabled = false;
        for (const perfbuf_query_counter *c = q->first; c != NULL && !tabled; c = c->next) {
            size_t n = 0;
            tabled = object_items(q, c, b, &o, &n);
        }
        if (!tabled) {
            continue;
        }
        size_t own = 0, bytes = o.total_length - o.definition_length;
        p.fits = p.fits && pb_mul(bytes, 3u, &own);
        plan_add(&p, &names, own);
        plan_add(&p, &p.records, object_records(&o));
        plan_add(&p, &p.parents, with_parents(b, &o));
        p.sorted = object_records(&o) > p.sorted ? object_records(&o) : p.sorted;
        p.definitions = o.counter_count > p.definitions ? o.counter_count : p.definitions;
    }
    p.sorted = p.parents > p.sorted ? p.parents : p.sorted;
    plan_array(&p, &p.gen, p.records, sizeof(pb_qrec));
    plan_array(&p, &p.gen, p.parents, sizeof(pb_qparent));
    plan_array(&p, &p.gen, p.parents, 2u * sizeof(uint64_t));
    if (p.parents > 0) {
        /* Each distinct parent's name once: every instance of the block
         * is at most one parent, and its name lies inside it. */
        size_t parent_names = 0;
        p.fits = p.fits && pb_mul(b->size, 3u, &parent_names);
        plan_add(&p, &names, parent_names);
    }
    plan_add(&p, &p.gen, names);
    plan_add(&p, &p.gen, SLACK);
    plan_array(&p, &p.gen, items, sizeof(pb_qitem) + 2u * sizeof(uint64_t) + sizeof(uint32_t));
    plan_array(&p, &p.gen, q->counters, 3u * SLACK);
    /* Scratch: the block index and its description, the map of objects to
     * their first record, the map of slots to parents, the sorts' pairs
     * twice, a flag per parent and two words per record. */
    plan_add(&p, &p.scratch, INDEX_HEADER);
    plan_array(&p, &p.scratch, b->index_slots, sizeof(uint64_t));
    plan_array(&p, &p.scratch, b->object_count, sizeof(uint32_t));
    plan_array(&p, &p.scratch, b->index_slots, sizeof(uint32_t));
    plan_array(&p, &p.scratch, p.sorted, 4u * sizeof(uint64_t));
    plan_add(&p, &p.scratch, PB_Q_RADIX_BUCKETS * sizeof(size_t) + SLACK);
    plan_array(&p, &p.scratch, p.parents, 1u);
    plan_array(&p, &p.scratch, p.records, 2u * sizeof(uint32_t));
    /* And one object's plan: its entries, and the definitions taken. */
    plan_add(&p, &p.scratch, pb_q_align(sizeof(perfbuf_v1_plan)) + SLACK);
    plan_array(&p, &p.scratch, p.definitions,
               sizeof(perfbuf_v1_plan_entry) + sizeof(pb_qpick));
    return p;
}

/* The V2 plan: each tabled block's records and names, each counter's items. */
PB_NOINLINE static plan plan_v2(perfbuf_query *q, const perfbuf_v2_query *d)
{
    plan p = {.fits = true};
    size_t names = 0, items = 0;
    perfbuf_v2_iter blocks;
    perfbuf_v2_block block;
    perfbuf_v2_blocks_begin(d, &blocks);
    while (perfbuf_v2_blocks_next(d, &blocks, &block)) {
        bool tabled = false;
        size_t n = block.kind == PERFBUF_V2_MULTIPLE_INSTANCES || block.kind == PERFBUF_V2_COUNTERSET
                       ? block.instance_count
                       : 1u;
        for (const perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
            PB_WORK(1);
            if (c->resolution == PERFBUF_CSTATUS_VALID_DATA &&
                q->registrations[c->registration].block == block.index) {
                tabled = true;
                plan_add(&p, &items, n);
            }
        }
        if (!tabled) {
            continue;
        }
        size_t own = 0, cells = 0;
        p.fits = p.fits && pb_mul(block.size, 3u, &own);
        plan_add(&p, &names, own);
        plan_add(&p, &p.records, n);
        if (pb_q_v2_has_ids(&block)) {
            p.fits = p.fits && pb_mul(n, block.counter_count, &cells);
            plan_add(&p, &p.cells, cells);
            p.ids = block.counter_count > p.ids ? block.counter_count : p.ids;
        }
        /* A counter's items are its block's records at most. */
        p.sorted = n > p.sorted ? n : p.sorted;
    }
    plan_add(&p, &p.gen, SLACK);
    plan_array(&p, &p.gen, p.records, sizeof(pb_qrec));
    plan_add(&p, &p.gen, names);
    plan_add(&p, &p.gen, SLACK);
    plan_array(&p, &p.gen, items, sizeof(pb_qitem) + 2u * sizeof(uint64_t) + sizeof(uint32_t));
    plan_array(&p, &p.gen, q->counters, 3u * SLACK);
    for (uint32_t k = 0; k < q->registration_count; k++) {
        PB_WORK(1);
        uint32_t n = q->registrations[k].reg.counter_count;
        p.registered = n > p.registered ? n : p.registered;
    }
    plan_array(&p, &p.scratch, d->block_count, sizeof(uint32_t));
    plan_array(&p, &p.scratch, p.records, sizeof(perfbuf_v2_instance));
    /* Each instance's values read once, and one block's value plan. */
    plan_array(&p, &p.scratch, d->block_count, sizeof(size_t));
    plan_array(&p, &p.scratch, p.cells, sizeof(uint64_t));
    plan_array(&p, &p.scratch, p.records, sizeof(perfbuf_v2_values_read_result));
    plan_array(&p, &p.scratch, p.ids, sizeof(perfbuf_v2_plan_entry));
    plan_array(&p, &p.scratch, p.registered, sizeof(uint32_t));
    /* The records' sorted keys, and each record's item in a counter. */
    plan_array(&p, &p.scratch, p.records, 2u * sizeof(uint64_t) + sizeof(uint32_t));
    plan_array(&p, &p.scratch, p.sorted, 4u * sizeof(uint64_t));
    plan_add(&p, &p.scratch, PB_Q_RADIX_BUCKETS * sizeof(size_t) + SLACK);
    plan_array(&p, &p.scratch, p.records, 2u * sizeof(uint32_t));
    return p;
}

/* What the arena must hold for the plan: the fixed part, the last
 * capture's generation (moved down), the new one and the scratch. */
static size_t plan_total(const perfbuf_query *q, const plan *p)
{
    size_t total = q->fixed_bytes;
    if (q->newer.stamp != 0) {
        total = q->fixed_bytes + (q->newer.end - q->newer.start);
    } else if (q->older.stamp != 0) {
        total = q->older.end;
    }
    bool fits = p->fits && pb_add(total, SLACK, &total) && pb_add(total, p->gen, &total) &&
                pb_add(total, p->scratch, &total) && pb_add(total, SLACK, &total);
    return fits ? total : SIZE_MAX;
}

/* ---- the build ---- */

bool pb_q_take(pb_qbuild *w, size_t bytes, size_t *offset)
{
    size_t at = pb_q_align(w->at);
    if (at < w->at || at > w->limit || bytes > w->limit - at) {
        return false;
    }
    *offset = at;
    w->at = at + bytes;
    return true;
}

/* The scratch's next `bytes`, aligned, from the top of the room. */
static bool take_scratch(size_t *top, size_t floor, size_t bytes, size_t *offset)
{
    if (*top < floor || bytes > *top - floor) {
        return false;
    }
    *offset = (*top - bytes) / PB_Q_ALIGN * PB_Q_ALIGN;
    if (*offset < floor) {
        return false;
    }
    *top = *offset;
    return true;
}

/* An offset into the generation moved down by `shift`; 0 (an area the
 * generation does not have, as a V2 capture's computer name) stays 0.
 * Every area of a generation lies past the fixed part, so a held offset
 * is at least the shift. */
static size_t moved(size_t offset, size_t shift)
{
    return offset >= shift ? offset - shift : 0u;
}

/* The last capture's generation becomes the older one: moved down to the
 * end of the fixed part (it is position-free inside), and each counter's
 * kept samples with it. The generation before is dropped. */
static void shift_generations(perfbuf_query *q)
{
    if (q->newer.stamp == 0) {
        /* The last collection failed after its plan: the older generation
         * is still the last good capture's. */
        return;
    }
    size_t shift = q->newer.start - q->fixed_bytes;
    PB_WORK((q->newer.end - q->newer.start) / 64u);
    memmove(q->arena + q->fixed_bytes, q->arena + q->newer.start, q->newer.end - q->newer.start);
    q->older = q->newer;
    q->older.start = moved(q->older.start, shift);
    q->older.end = moved(q->older.end, shift);
    q->older.records = moved(q->older.records, shift);
    q->older.parents = moved(q->older.parents, shift);
    q->older.parent_order = moved(q->older.parent_order, shift);
    q->older.strings = moved(q->older.strings, shift);
    q->older.machine = moved(q->older.machine, shift);
    q->newer = (perfbuf_query_generation){0};
    for (perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
        PB_WORK(1);
        c->older = c->newer;
        if (c->older.stamp != 0) {
            c->older.items = moved(c->older.items, shift);
            c->older.keys = moved(c->older.keys, shift);
            c->older.claims = moved(c->older.claims, shift);
        }
        c->newer = (perfbuf_query_samples){0};
    }
}

/* Whether the path's machine part names the computer `system` (the
 * capture's SystemName as UTF-8), as one of the forms Microsoft's pages
 * give a computer name in a path: the name itself, its DNS name (the host
 * label before the first dot), or, since a NetBIOS name is the DNS host
 * name cut to MAX_COMPUTERNAME_LENGTH (15) characters (COMPUTER_NAME_FORMAT,
 * "ComputerNameNetBIOS"), a 15-character system name that begins the host
 * label. An address (digits and dots, or any ':') or "localhost" names
 * the computer by where it was reached, which a capture does not record:
 * such a part is not compared. ASCII letters case-insensitively. */
static bool machine_matches(const char *part, size_t len, const char *system, size_t system_len)
{
    if (len == 0) {
        return true;
    }
    bool address = true, has_colon = false;
    size_t label = len;
    for (size_t i = 0; i < len; i++) {
        PB_WORK(1);
        char ch = part[i];
        address = address && ((ch >= '0' && ch <= '9') || ch == '.');
        has_colon = has_colon || ch == ':';
        label = ch == '.' && label == len ? i : label;
    }
    if (address || has_colon || pb_q_text_equal(part, len, "localhost", 9)) {
        return true;
    }
    return pb_q_text_equal(part, len, system, system_len) ||
           pb_q_text_equal(part, label, system, system_len) ||
           (system_len == 15 && label > 15 && pb_q_text_equal(part, 15, system, system_len));
}

/* Each counter whose path names another computer than the capture's. */
static void compare_machines(pb_qbuild *w)
{
    perfbuf_query *q = w->q;
    const char *system = (const char *)pb_q_at(q, w->gen.machine);
    for (perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
        PB_WORK(1);
        const perfbuf_counter_path *path = &c->path;
        bool named = c->kind != PB_Q_EVERY_DEFINITION && (path->flags & PERFBUF_PATH_HAS_MACHINE) != 0;
        if (named && !machine_matches(path->text + path->machine.offset, path->machine.length,
                                      system, w->gen.machine_bytes)) {
            c->status = PERFBUF_CSTATUS_NO_MACHINE;
            c->found = PERFBUF_QUERY_FOUND_NO_MACHINE;
            c->planned_object = 0;
        } else {
            c->status = PERFBUF_CSTATUS_VALID_DATA;
        }
    }
}

/* The capture's computer name, as UTF-8, first in the new generation. */
static bool keep_machine(pb_qbuild *w)
{
    size_t bound = 0, at = 0, len = 0;
    if (!pb_mul(w->b->system_name_units, 3u, &bound) || !pb_q_take(w, bound + 1u, &at) ||
        perfbuf_v1_system_name_utf8(w->b, (char *)pb_q_at(w->q, at), bound + 1u, &len) !=
            PERFBUF_OK) {
        return false;
    }
    w->gen.machine = at;
    w->gen.machine_bytes = len;
    w->at = at + len;
    return true;
}

/* Places the scratch at the arena's end and lowers the build's limit to
 * it. V1: the block index is built there. */
static perfbuf_status place_scratch(pb_qbuild *w, const plan *p)
{
    perfbuf_query *q = w->q;
    size_t top = q->arena_bytes / PB_Q_ALIGN * PB_Q_ALIGN, floor = pb_q_align(w->at), at = 0;
    uint32_t objects = w->b != NULL ? w->b->object_count : w->d->block_count;
    bool fits = take_scratch(&top, floor, (size_t)objects * sizeof(uint32_t), &at);
    w->object_first = (uint32_t *)pb_q_at(q, at);
    fits = fits && take_scratch(&top, floor, p->sorted * 2u * sizeof(uint64_t), &at);
    w->sort = (uint64_t *)pb_q_at(q, at);
    fits = fits && take_scratch(&top, floor, p->sorted * 2u * sizeof(uint64_t), &at);
    w->spare = (uint64_t *)pb_q_at(q, at);
    w->sort_pairs = p->sorted;
    fits = fits && take_scratch(&top, floor, PB_Q_RADIX_BUCKETS * sizeof(size_t), &at);
    w->radix_counts = (size_t *)pb_q_at(q, at);
    fits = fits && take_scratch(&top, floor, p->records * sizeof(uint32_t), &at);
    w->same_as = (uint32_t *)pb_q_at(q, at);
    fits = fits && take_scratch(&top, floor, p->records * sizeof(uint32_t), &at);
    w->other_than = (uint32_t *)pb_q_at(q, at);
    if (w->b == NULL) {
        fits = fits && take_scratch(&top, floor, p->records * sizeof(perfbuf_v2_instance), &at);
        w->instances = (perfbuf_v2_instance *)pb_q_at(q, at);
        fits = fits && take_scratch(&top, floor, w->d->block_count * sizeof(size_t), &at);
        w->value_first = (size_t *)pb_q_at(q, at);
        fits = fits && take_scratch(&top, floor, p->cells * sizeof(uint64_t), &at);
        w->values = (uint64_t *)pb_q_at(q, at);
        w->value_cells = p->cells;
        fits = fits && take_scratch(&top, floor, p->records * sizeof(perfbuf_v2_values_read_result),
                                    &at);
        w->reads = (perfbuf_v2_values_read_result *)pb_q_at(q, at);
        fits = fits && take_scratch(&top, floor, p->ids * sizeof(perfbuf_v2_plan_entry), &at);
        w->v2_entries = (perfbuf_v2_plan_entry *)pb_q_at(q, at);
        w->v2_entry_cap = p->ids;
        fits = fits && take_scratch(&top, floor, p->registered * sizeof(uint32_t), &at);
        w->v2_plan_scratch = (uint32_t *)pb_q_at(q, at);
        w->v2_plan_scratch_cap = p->registered;
        fits = fits && take_scratch(&top, floor, p->records * 2u * sizeof(uint64_t), &at);
        w->record_keys = (uint64_t *)pb_q_at(q, at);
        fits = fits && take_scratch(&top, floor, p->records * sizeof(uint32_t), &at);
        w->item_of = (uint32_t *)pb_q_at(q, at);
    }
    if (w->b != NULL) {
        fits = fits && take_scratch(&top, floor, sizeof(perfbuf_v1_plan), &at);
        w->plan = (perfbuf_v1_plan *)pb_q_at(q, at);
        fits = fits && take_scratch(&top, floor, p->definitions * sizeof(perfbuf_v1_plan_entry), &at);
        w->entries = (perfbuf_v1_plan_entry *)pb_q_at(q, at);
        fits = fits && take_scratch(&top, floor, p->definitions * sizeof(pb_qpick), &at);
        w->picks = (pb_qpick *)pb_q_at(q, at);
        w->pick_cap = p->definitions;
        fits = fits && take_scratch(&top, floor, p->parents, &at);
        w->flags = pb_q_at(q, at);
        w->flag_count = p->parents;
        fits = fits && take_scratch(&top, floor, w->b->index_slots * sizeof(uint32_t), &at);
        w->parent_of_slot = (uint32_t *)pb_q_at(q, at);
        fits = fits && take_scratch(&top, floor, w->b->index_slots * sizeof(uint64_t), &at);
        uint64_t *slots = (uint64_t *)pb_q_at(q, at);
        fits = fits && take_scratch(&top, floor, INDEX_HEADER, &at);
        w->index = (perfbuf_v1_instance_index *)pb_q_at(q, at);
        if (!fits) {
            return PERFBUF_E_INCONSISTENT;
        }
        perfbuf_status st =
            perfbuf_v1_block_index_build(w->b, slots, w->b->index_slots, w->index);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    if (!fits) {
        return PERFBUF_E_INCONSISTENT;
    }
    w->limit = top;
    return PERFBUF_OK;
}

/* The new generation, tables and items, after the older one. */
PB_NOINLINE static perfbuf_status build(perfbuf_query *q, const perfbuf_v1_block *b,
                                        const perfbuf_v2_query *d, const plan *p)
{
    shift_generations(q);
    pb_qbuild w = {.q = q, .b = b, .d = d};
    w.at = q->older.stamp != 0 ? q->older.end : q->fixed_bytes;
    w.gen.start = pb_q_align(w.at);
    w.at = w.gen.start;
    w.limit = q->arena_bytes;
    perfbuf_status st = PERFBUF_OK;
    if (b != NULL && !keep_machine(&w)) {
        st = PERFBUF_E_INCONSISTENT;
    }
    st = st == PERFBUF_OK ? place_scratch(&w, p) : st;
    if (st == PERFBUF_OK && b != NULL) {
        compare_machines(&w);
        st = pb_q_table_v1(&w);
    } else if (st == PERFBUF_OK) {
        st = pb_q_table_v2(&w);
    }
    if (st == PERFBUF_OK) {
        pb_q_map_parents(&w);
    }
    for (perfbuf_query_counter *c = q->first; c != NULL && st == PERFBUF_OK; c = c->next) {
        st = b != NULL ? pb_q_items_v1(&w, c) : pb_q_items_v2(&w, c);
        if (st == PERFBUF_OK && c->newer.count > 0) {
            pb_q_pair(&w, c);
        }
    }
    if (st != PERFBUF_OK) {
        for (perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
            c->newer = (perfbuf_query_samples){0};
        }
        return st;
    }
    /* Committed: the generation, its stamp on the samples it holds, and
     * the titles each path resolved to, from now on its own. */
    q->stamp++;
    w.gen.stamp = q->stamp;
    w.gen.end = pb_q_align(w.at);
    q->newer = w.gen;
    for (perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
        PB_WORK(1);
        c->newer.stamp = c->newer.items != 0 ? q->stamp : 0u;
        if (b != NULL && c->kind != PB_Q_EVERY_DEFINITION && c->object_title == 0 &&
            c->newer.stamp != 0) {
            c->object_title = c->planned_object;
            c->counter_title = c->planned_counter;
            c->key_title = c->planned_key;
        }
    }
    return PERFBUF_OK;
}

/* ---- the call ---- */

/* Whether q's list is intact: every counter still q's, in its slot, and
 * as many as q counted. A counter another query took, or zeroed by the
 * caller, breaks it. O(counters). */
static bool list_intact(const perfbuf_query *q)
{
    const perfbuf_query_counter *c = q->first;
    uint32_t i = 0;
    for (; c != NULL && i < q->counters; c = c->next, i++) {
        PB_WORK(1);
        if (c->slot != i || !pb_q_owns(q, c)) {
            return false;
        }
    }
    return c == NULL && i == q->counters && (i == 0 || q->last != NULL);
}

/*
 * Whether the capture shares a byte with memory a collection writes: the
 * arena, the query or one of its counters. Every pass after the parse
 * reads the capture again through its views and relies on the bytes the
 * parse proved; a capture the collection wrote into would change under
 * them. O(counters).
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

/* The computer name of capture b against the last capture's: a query's
 * rates are of one computer (PERF_DATA_BLOCK.SystemNameOffset, winperf.h). */
static bool same_machine(const perfbuf_query *q, const perfbuf_v1_block *b)
{
    const perfbuf_query_generation *last = q->newer.stamp != 0 ? &q->newer : &q->older;
    if (last->stamp == 0) {
        return true;
    }
    size_t bytes = b->system_name_units * 2u;
    pb_cursor name = pb_v1_window(b, b->system_name_offset, b->system_name_offset + bytes);
    return pb_cursor_remaining(&name) == bytes &&
           pb_text_equals_utf8(0, name, (const char *)pb_q_at(q, last->machine),
                               last->machine_bytes);
}

PB_NOINLINE static perfbuf_status collect_v1(perfbuf_query *q, const void *capture, size_t len,
                                             size_t *needed, perfbuf_error *err)
{
    perfbuf_v1_block b;
    perfbuf_status st = perfbuf_v1_parse(capture, len, &q->options, &b, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    if (q->arena == NULL) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    if (!same_machine(q, &b)) {
        *err = (perfbuf_error){PERFBUF_E_MACHINE_CHANGED, b.system_name_offset, "PERF_DATA_BLOCK",
                               "SystemNameOffset", 0, 0};
        return PERFBUF_E_MACHINE_CHANGED;
    }
    plan p = plan_v1(q, &b);
    size_t total = plan_total(q, &p);
    if (total == SIZE_MAX) {
        return PERFBUF_E_LIMIT_EXCEEDED;
    }
    if (total > q->arena_bytes) {
        *needed = total;
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    return build(q, &b, NULL, &p);
}

PB_NOINLINE static perfbuf_status collect_v2(perfbuf_query *q, const void *capture, size_t len,
                                             size_t *needed, perfbuf_error *err)
{
    if (begins_as_v1(capture, len)) {
        *err = (perfbuf_error){PERFBUF_E_BAD_SIGNATURE, 0, "PERF_DATA_BLOCK", "Signature", 0, 0};
        return PERFBUF_E_BAD_SIGNATURE;
    }
    perfbuf_v2_query d;
    perfbuf_status st = perfbuf_v2_query_parse(capture, len, &q->options, &d, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    if (q->arena == NULL) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    plan p = plan_v2(q, &d);
    size_t total = plan_total(q, &p);
    if (total == SIZE_MAX) {
        return PERFBUF_E_LIMIT_EXCEEDED;
    }
    if (total > q->arena_bytes) {
        *needed = total;
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    return build(q, NULL, &d, &p);
}

perfbuf_status perfbuf_query_collect(perfbuf_query *q, const void *capture, size_t len,
                                     size_t *needed, perfbuf_error *err)
{
    static const char call[] = "perfbuf_query_collect";
    size_t asked = 0;
    if (needed != NULL) {
        *needed = 0;
    }
    if (q == NULL || (q->english.data == NULL && q->registrations == NULL) || !list_intact(q)) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "q");
    }
    if (capture == NULL || capture_overlaps_query(q, capture, len)) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "capture");
    }
    perfbuf_error rejection = {PERFBUF_OK, 0, NULL, NULL, 0, 0};
    perfbuf_status st = q->registrations != NULL ? collect_v2(q, capture, len, &asked, &rejection)
                                                 : collect_v1(q, capture, len, &asked, &rejection);
    if (st == PERFBUF_E_OUTPUT_TOO_SMALL && q->arena == NULL) {
        /* The tables' indexes come first: they resolve the paths. */
        asked = pb_q_least_arena(q);
    }
    if (needed != NULL) {
        *needed = asked;
    }
    if (err != NULL) {
        *err = rejection;
        err->status = st;
    }
    return st;
}
