/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The query's stages (perfbuf/query.h, docs/collector.md) and what they
 * share: the arena's records, parents and items, the ownership checks,
 * and the hashing and comparison of names.
 *
 *   query_setup.c    open, add, pairing options, close, arena: what the
 *                    caller hands over, and the checks that it is ours
 *   query_collect.c  one capture: parse, computer, plan (the size asked
 *                    for, before anything is written), then the build
 *   query_tables.c   each named object's instances (V1) or block's (V2):
 *                    names converted once, parents once, #N
 *   query_items.c    each counter's items: selection, samples, keys, and
 *                    the pairing with the previous capture's items
 *   query_arrays.c   the arrays, the appeared and exited instances, and
 *                    the titles, read from what the arena kept
 *
 * A generation (perfbuf_query_generation) is what one capture left in the
 * arena: its records, parents and strings, and after them each counter's
 * items. Everything inside a generation refers to the rest by index or by
 * offset from the generation's own areas, so a generation moves in the
 * arena (the newer becomes the older) without being rewritten.
 */
#ifndef PERFBUF_COLLECTOR_QUERY_INTERNAL_H
#define PERFBUF_COLLECTOR_QUERY_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "perfbuf/query.h"
#include "core/check.h"
#include "core/mix.h"
#include "core/work.h"

#define PB_Q_ALIGN 8u
#define PB_Q_NONE UINT32_MAX

/* perfbuf_query_counter.kind */
#define PB_Q_PATH 0u             /* a path naming one counter */
#define PB_Q_EVERY_COUNTER 1u    /* a path whose counter part is "*" */
#define PB_Q_EVERY_DEFINITION 2u /* perfbuf_query_add_definitions */

/* One instance (or single counter block) of an object a counter names, in
 * one capture. */
typedef struct pb_qrec {
    uint64_t hash;         /* its parent's name and its own, hashed (the tables
                              hash its name alone until #N is counted) */
    uint64_t identity;     /* PB_Q_HAS_IDENTITY | UniqueID (V1) or InstanceId (V2); 0: none */
    uint64_t counters;     /* V1: its counter block (pb_pack_counter_block) */
    size_t name;           /* its name in the generation's strings */
    size_t name_len;
    uint32_t parent;       /* its parent among the generation's parents, or PB_Q_NONE */
    uint32_t ordinal;      /* #N, or PERFBUF_PAIR_NO_ORDINAL when its key is ambiguous */
    uint32_t position;     /* among its object's instances, or PERFBUF_ITEM_NO_INSTANCE */
    uint32_t object;       /* its object's (block's) position in the capture */
    uint32_t object_title; /* V1: ObjectNameTitleIndex; V2: 0 */
    uint32_t flags;        /* PB_Q_REC_* */
} pb_qrec;

#define PB_Q_HAS_IDENTITY (UINT64_C(1) << 32)
#define PB_Q_REC_OPAQUE 1u /* a name in a code page perfbuf does not convert: its bytes */
#define PB_Q_REC_LATER 2u  /* of a later object of a title the capture repeats */
#define PB_Q_REC_SINGLE 4u /* an object's one counter block, or a V2 block of values */

/* One distinct parent instance named by records of a generation. */
typedef struct pb_qparent {
    uint64_t hash;  /* its name's hash */
    size_t name;    /* its name in the generation's strings */
    size_t name_len;
    uint32_t rep;   /* the first parent of the generation with an equal name, or
                       PB_Q_NONE when its hash is shared by another name */
    uint32_t older; /* a representative: the older generation's representative of the
                       same name, or PB_Q_NONE */
    uint32_t flags; /* PB_Q_REC_OPAQUE */
    uint32_t slot;  /* its slot in the block index: what makes it distinct */
} pb_qparent;

/* One item of a counter in one capture. */
typedef struct pb_qitem {
    perfbuf_raw_sample sample;
    perfbuf_value_context context;
    uint64_t key;         /* the key counter's value, when `keyed` */
    uint32_t record;      /* its instance among the generation's records */
    uint32_t counter;     /* CounterNameTitleIndex (V1) or counter id (V2) */
    uint32_t size;        /* CounterSize (V1) */
    uint32_t base;        /* the base's title, when the type reads one */
    uint32_t base_type;
    uint32_t base_size;
    uint32_t pairing;     /* PERFBUF_PAIR_* */
    uint32_t older;       /* the older item it pairs with, or PB_Q_NONE */
    uint32_t keyed;       /* paired by the key counter's value */
    uint32_t reserved;
} pb_qitem;

/* A definition a counter takes from an object: its place in the object's
 * plan and what an item records of it. */
typedef struct pb_qpick {
    uint32_t k;
    uint32_t counter;
    uint32_t size;
    uint32_t base, base_type, base_size;
} pb_qpick;

/* An item and its two companions: its sorted key (hash, item) and its claim. */
#define PB_Q_ITEM_ARENA_BYTES (sizeof(pb_qitem) + 2u * sizeof(uint64_t) + sizeof(uint32_t))
_Static_assert(PB_Q_ITEM_ARENA_BYTES <= PERFBUF_QUERY_ITEM_BYTES, "the documented item bound");
_Static_assert(sizeof(pb_qrec) <= PERFBUF_QUERY_INSTANCE_BYTES, "the documented instance bound");
_Static_assert(sizeof(pb_qparent) + 2u * sizeof(uint64_t) <= PERFBUF_QUERY_PARENT_BYTES,
               "the documented parent bound");
_Static_assert(_Alignof(pb_qrec) <= PB_Q_ALIGN && _Alignof(pb_qparent) <= PB_Q_ALIGN &&
                   _Alignof(pb_qitem) <= PB_Q_ALIGN,
               "the arena aligns its arrays to 8");

/* ---- the arena ---- */

static inline size_t pb_q_align(size_t n)
{
    return (n + (PB_Q_ALIGN - 1u)) & ~(size_t)(PB_Q_ALIGN - 1u);
}

static inline void *pb_q_at(const perfbuf_query *q, size_t offset)
{
    return q->arena + offset;
}

static inline pb_qrec *pb_q_records(const perfbuf_query *q, const perfbuf_query_generation *g)
{
    return (pb_qrec *)pb_q_at(q, g->records);
}

static inline pb_qparent *pb_q_parents(const perfbuf_query *q, const perfbuf_query_generation *g)
{
    return (pb_qparent *)pb_q_at(q, g->parents);
}

static inline const char *pb_q_strings(const perfbuf_query *q, const perfbuf_query_generation *g)
{
    return (const char *)pb_q_at(q, g->strings);
}

static inline pb_qitem *pb_q_items(const perfbuf_query *q, const perfbuf_query_samples *s)
{
    return (pb_qitem *)pb_q_at(q, s->items);
}

/*
 * Whether a counter's samples are the last collection's and lie, with the
 * records they name, inside what the arena keeps: the O(1) check every
 * call that reads them makes first. The items were written by the library
 * itself, so their record indexes are below the generation's count; this
 * proves the offsets the call is about to read from the sizes alone.
 */
bool pb_q_samples_readable(const perfbuf_query *q, const perfbuf_query_generation *g,
                           const perfbuf_query_samples *s);

/* ---- ownership (query_setup.c) ---- */

/* The seal a counter of q at `slot` carries: its own address, q's and the
 * slot, mixed (core/mix.h). */
uint64_t pb_q_counter_seal(const perfbuf_query *q, const perfbuf_query_counter *c, uint32_t slot);

/* Whether c is one of q's counters, as far as O(1) can tell: its owner,
 * slot and seal, and once q has an arena, the arena's list of counters. */
bool pb_q_owns(const perfbuf_query *q, const perfbuf_query_counter *c);

/* The least arena q takes: its fixed part (once it has an arena; before,
 * what the first arena will hold) and what its generations keep. */
size_t pb_q_least_arena(const perfbuf_query *q);

/* Fills *err (may be NULL) for a refused argument: the call's name and
 * the argument's. Returns the status. */
perfbuf_status pb_q_refuse(perfbuf_error *err, perfbuf_status status, const char *call,
                           const char *argument);

/* Fills *err (may be NULL) with a status and nothing else. */
perfbuf_status pb_q_answer(perfbuf_error *err, perfbuf_status status);

/* ---- names (query_tables.c) ---- */

/* A hash of text with ASCII letters folded, eight bytes a step: equal for
 * any two texts pb_q_text_equal calls equal. */
uint64_t pb_q_hash(const char *text, size_t len);

/* Whether two texts are equal with ASCII letters folded (A-Z as a-z),
 * every other byte exactly. */
bool pb_q_text_equal(const char *a, size_t la, const char *b, size_t lb);

/* The bytes of a parent's name that an item's name holds: all of them, or
 * up to the last whole UTF-8 character within PERFBUF_ARRAY_PARENT_MAX_BYTES. */
size_t pb_q_parent_cut(const char *name, size_t len);

/* ---- one collection (query_collect.c, query_tables.c, query_items.c) ---- */

/*
 * What a collection writes with: the arena between `at` and `limit` is the
 * new generation's room, the scratch lies above `limit`. Every write is
 * checked against `limit` (pb_q_take): the plan that sized the arena
 * worked out the same counts, but a write is never trusted to it.
 */
typedef struct pb_qbuild {
    perfbuf_query *q;
    const perfbuf_v1_block *b;       /* V1, or NULL */
    const perfbuf_v2_query *d;       /* V2, or NULL */
    perfbuf_query_generation gen;    /* the new generation */
    size_t at;                       /* its next free byte */
    size_t limit;                    /* where it must end */
    perfbuf_v1_instance_index *index; /* V1: the capture's block index, in the scratch */
    uint32_t *object_first;          /* per object (block): its first record, or PB_Q_NONE */
    uint32_t *parent_of_slot;        /* V1: per block index slot, its parent record */
    uint64_t *sort;                  /* pairs for the sorts: the records' (hash, index) */
    uint64_t *spare;                 /* and as many again, where a sort moves them */
    size_t sort_pairs;               /* the pairs each holds */
    size_t *radix_counts;            /* PB_Q_RADIX_BUCKETS: a sort pass's counts, in the
                                        arena and not on the stack (2 KiB) */
    perfbuf_v2_instance *instances;  /* V2, per record: its instance's view, from the one
                                        walk of the tables, so no counter walks the block */
    size_t *value_first;             /* V2, per block with an id list: its first value in
                                        `values`, else PB_Q_NO_VALUES */
    uint64_t *values;                /* V2: each such block's instances' values, read once,
                                        a row of counter_count per record */
    size_t value_cells;
    size_t value_next;               /* the next free cell */
    uint64_t *record_keys;           /* V2: per record, (its pairing key, record), sorted
                                        within each block: one sort serves every counter */
    uint32_t *item_of;               /* V2, per record: its item in the counter being
                                        built, or PB_Q_NONE */
    uint32_t pair_first, pair_count; /* V2: the records of that counter's block */
    perfbuf_v2_values_read_result *reads; /* V2, per record: what reading its row found */
    perfbuf_v2_plan_entry *v2_entries;    /* V2: the value plan of one block */
    size_t v2_entry_cap;
    uint32_t *v2_plan_scratch;            /* and what building it needs */
    size_t v2_plan_scratch_cap;
    uint32_t *same_as;               /* per record: the older record it was found equal to */
    uint32_t *other_than;            /* and the last one it was found unequal to */
    uint8_t *flags;                  /* per parent: what a path's parent part said of it */
    size_t flag_count;
    perfbuf_v1_plan *plan;           /* V1: the plan of the object being read */
    perfbuf_v1_plan_entry *entries;  /* its entries */
    pb_qpick *picks;                 /* the definitions the counter takes */
    size_t pick_cap;                 /* room in entries and picks: the most definitions */
} pb_qbuild;

#define PB_Q_RADIX_BUCKETS 256u
#define PB_Q_NO_VALUES SIZE_MAX

/* Whether a V2 block has a counter-id list, which a value plan reads
 * (perfbuf_v2_plan_build: MULTIPLE_COUNTERS and COUNTERSET). */
static inline bool pb_q_v2_has_ids(const perfbuf_v2_block *block)
{
    return block->kind == PERFBUF_V2_MULTIPLE_COUNTERS || block->kind == PERFBUF_V2_COUNTERSET;
}

/* Sorts n (hash, index) pairs by hash, pairs of one hash in their order
 * (a stable LSD radix sort, eight passes of a byte, each skipped when every
 * hash shares that byte), through `spare` (room for n pairs) and `counts`
 * (PB_Q_RADIX_BUCKETS). O(n). */
void pb_q_sort(uint64_t *pairs, uint64_t *spare, size_t *counts, size_t n);

/* A V2 record's pairing key: its name and InstanceId hashed with #N. A
 * V2 counter reads one id of one block, so its items' keys are their
 * records' and one sorted list of a block's records orders the items of
 * every counter over it. */
uint64_t pb_q_v2_record_key(const pb_qrec *r);

/* The row of values block_records read for the record at `position` of a
 * V2 block with an id list (pb_q_v2_has_ids), or NULL: then its samples
 * are read without a plan. */
uint64_t *pb_q_value_row(const pb_qbuild *w, const perfbuf_v2_block *block, uint32_t position);

/* `bytes` of the new generation, aligned, or false when they pass its limit. */
bool pb_q_take(pb_qbuild *w, size_t bytes, size_t *offset);

/* The V1 objects and V2 blocks the counters name, tabled into records and
 * parents (query_tables.c); false on a failure of the capture's views that
 * the parse excludes (PERFBUF_E_INCONSISTENT). */
perfbuf_status pb_q_table_v1(pb_qbuild *w);
perfbuf_status pb_q_table_v2(pb_qbuild *w);

/* Each parent representative of the new generation paired with the older
 * generation's of the same name. */
void pb_q_map_parents(pb_qbuild *w);

/* Each counter's items of the new generation, and their pairing with the
 * older generation's (query_items.c). */
perfbuf_status pb_q_items_v1(pb_qbuild *w, perfbuf_query_counter *c);
perfbuf_status pb_q_items_v2(pb_qbuild *w, perfbuf_query_counter *c);
void pb_q_pair(pb_qbuild *w, perfbuf_query_counter *c);

/* V1: the objects of b a counter names in this capture, in block order
 * (it: perfbuf_v1_objects_begin), by the titles the plan resolved. */
bool pb_q_next_object(const perfbuf_query *q, const perfbuf_query_counter *c,
                      const perfbuf_v1_block *b, perfbuf_v1_iter *it, perfbuf_v1_object *out);

/* V1: the definitions a counter takes from object o: the one its path
 * resolved to (*count 1), every displayable one ("*") or every one; false
 * when o has none of them. The first is in *first. */
bool pb_q_object_definitions(const perfbuf_query *q, const perfbuf_query_counter *c,
                             const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                             perfbuf_v1_counter *first, uint32_t *count);

/* V1: the next definition of o after `it` a counter of several takes. */
bool pb_q_next_definition(const perfbuf_query_counter *c, const perfbuf_v1_block *b,
                          perfbuf_v1_iter *it, perfbuf_v1_counter *def);

/* V1: the key counter's definition in o for a counter paired by one. */
bool pb_q_key_definition(const perfbuf_query *q, const perfbuf_query_counter *c,
                         const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                         perfbuf_v1_counter *key);

/* V2: the block a counter's registration answers in capture d. */
bool pb_q_registration_block(const perfbuf_query *q, const perfbuf_query_counter *c,
                             const perfbuf_v2_query *d, perfbuf_v2_block *out);

#endif
