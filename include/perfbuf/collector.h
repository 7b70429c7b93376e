/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Two captures of one object, paired instance by instance, and formatted
 * into arrays as PdhGetFormattedCounterArray and PdhGetRawCounterArray
 * return them (docs/collector.md). No allocation: the caller provides the
 * scratch whose size a first call reports, and the item and string areas
 * whose sizes a first call to the array functions reports.
 *
 *   size_t slots;
 *   perfbuf_v1_pairing_scratch(&older, &newer, 230, &slots);
 *   uint64_t *scratch = malloc(slots * sizeof *scratch);
 *   perfbuf_v1_pair(&older, &newer, 230, scratch, slots, &pairing);
 *   perfbuf_v1_formatted_array(&pairing, 6, &path, PERFBUF_FMT_DOUBLE,
 *                              NULL, &items, NULL, &bytes);  // sizes
 *   ... allocate, then the same call again fills them.
 */
#ifndef PERFBUF_COLLECTOR_H
#define PERFBUF_COLLECTOR_H

#include "perfbuf/common.h"
#include "perfbuf/paths.h"
#include "perfbuf/v1.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/v2_query.h"
#include "perfbuf/values.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How an instance of the newer capture was matched (perfbuf_v1_pair). */
#define PERFBUF_PAIR_MATCHED            0u /* the same key in the older capture */
#define PERFBUF_PAIR_NEW                1u /* no instance of its key in the older capture */
#define PERFBUF_PAIR_AMBIGUOUS          2u /* its key's hash collides with another name's */
#define PERFBUF_PAIR_DEFINITION_CHANGED 3u /* arrays: the counter's definition changed */
#define PERFBUF_PAIR_UNPAIRED           4u /* query: an instance of a later object of a title
                                              the capture repeats, which no key pairs */

/* The bytes of a parent's name an array item's name keeps: three UTF-8
 * bytes for each character a path's parent part may hold. */
#define PERFBUF_ARRAY_PARENT_MAX_BYTES (3u * PERFBUF_PATH_MAX_INSTANCE)
/* A bound on a V1 array's string area per byte of the newer capture: an
 * instance takes at least 28 of them (PERF_INSTANCE_DEFINITION and a
 * PERF_COUNTER_BLOCK's ByteLength), and its item at most the parent's part,
 * '/', '#' and ten digits and a NUL (3,085 bytes), plus three per byte of
 * its own name, which lies inside the instance's bytes: 3,085 / 28 < 111.
 * A V2 item is its own name (three bytes per UTF-16 byte pair at most),
 * suffix and NUL, well inside the same bound. */
#define PERFBUF_ARRAY_STRING_BYTES_PER_BYTE 111u

/* An ordinal perfbuf_v1_pairing_instance reports for an ambiguous instance. */
#define PERFBUF_PAIR_NO_ORDINAL 0xFFFFFFFFu

/*
 * A pairing of one object (by ObjectNameTitleIndex) of two validated
 * blocks. It points into the blocks and into the caller's scratch; all
 * three must outlive it and stay unchanged. Array calls write names into
 * the scratch's text area and sort children into its parent answers, so
 * one pairing serves one thread at a time.
 */
typedef struct perfbuf_v1_pairing {
    const perfbuf_v1_block *older;
    const perfbuf_v1_block *newer;
    perfbuf_v1_object older_object;
    perfbuf_v1_object newer_object;
    bool has_older;               /* the object is in the older block */
    uint32_t paired;              /* newer instances matched to an older one */
    uint32_t new_instances;       /* PERFBUF_PAIR_NEW */
    uint32_t ambiguous;           /* PERFBUF_PAIR_AMBIGUOUS */
    perfbuf_v1_instance_index older_parents; /* block indexes, in the scratch */
    perfbuf_v1_instance_index newer_parents;
    const uint64_t *matches;      /* one slot per newer instance */
    const uint64_t *older_counters; /* its older counter block, when matched */
    uint64_t *parent_answers;     /* array calls: 2 per newer instance */
    char *text;                   /* name area of the array calls */
    size_t text_cap;
} perfbuf_v1_pairing;

/*
 * The scratch perfbuf_v1_pair needs, in uint64_t slots: proportional to
 * the object's instances in both blocks plus their block indexes.
 * NOT_FOUND when the newer block has no object of that title index;
 * LIMIT_EXCEEDED when the size does not fit a size_t; INVALID_ARGUMENT for
 * a NULL argument. O(objects).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_pairing_scratch(
    const perfbuf_v1_block *older, const perfbuf_v1_block *newer, uint32_t object_title,
    size_t *slots);

/*
 * Pairs every instance of the newer capture's object with the older's
 * instance of the same key: its parent's name, its own name and its
 * ordinal #N among instances of that parent and name in buffer order, or,
 * in place of the name, its UniqueID when the provider set one. Names
 * compare unit by unit, ASCII letters case-insensitively, as PDH compares
 * instance names. Older instances without a match (processes that exited)
 * are dropped. A single-instance object pairs its one counter block.
 * OUTPUT_TOO_SMALL when cap is below perfbuf_v1_pairing_scratch's answer;
 * NOT_FOUND when the newer block lacks the object (an older block without
 * it makes every instance PERFBUF_PAIR_NEW). On any failure *out is zeroed. O(n log n) in the instances
 * plus linear in the blocks' bytes (docs/collector.md).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_pair(const perfbuf_v1_block *older,
                                                            const perfbuf_v1_block *newer,
                                                            uint32_t object_title,
                                                            uint64_t *scratch, size_t cap,
                                                            perfbuf_v1_pairing *out);

/*
 * perfbuf_v1_pair for a caller that pairs many objects of the same two
 * blocks: the caller finds the objects (older_object NULL when the older
 * block has none) and builds each block's index once
 * (perfbuf_v1_block_index_build), so a call costs only the two objects'
 * instances, their names and their parents' names, O(i log i + their
 * bytes), and pairing every object of a block is O(n log n) in the block,
 * where perfbuf_v1_pair per object would find the objects and build both
 * indexes again each time. The scratch holds no block index:
 * perfbuf_v1_pairing_scratch_objects says how many slots. The indexes must
 * outlive *out. INVALID_ARGUMENT when an object is not of its block or an
 * index is not the block form of its block's parse (one kept from an
 * earlier capture received into the same buffer included); OUTPUT_TOO_SMALL as
 * perfbuf_v1_pair.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_pairing_scratch_objects(
    const perfbuf_v1_object *older_object, const perfbuf_v1_object *newer_object, size_t *slots);
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_pair_objects(
    const perfbuf_v1_block *older, const perfbuf_v1_object *older_object,
    const perfbuf_v1_instance_index *older_parents, const perfbuf_v1_block *newer,
    const perfbuf_v1_object *newer_object, const perfbuf_v1_instance_index *newer_parents,
    uint64_t *scratch, size_t cap, perfbuf_v1_pairing *out);

/*
 * The newer capture's instance at position `newer_index`: how it was
 * paired (PERFBUF_PAIR_*), its ordinal #N (PERFBUF_PAIR_NO_ORDINAL when
 * ambiguous) and, when matched, the older instance's position. False when
 * the position is out of range. O(1).
 */
PERFBUF_API bool perfbuf_v1_pairing_instance(const perfbuf_v1_pairing *p, uint32_t newer_index,
                                             uint32_t *pairing, uint32_t *ordinal,
                                             uint32_t *older_index);

/* One element of a formatted array. */
typedef struct perfbuf_formatted_item {
    const char *name;   /* "parent/name#N" in the caller's string area, NUL-terminated */
    size_t name_len;
    uint32_t pairing;   /* PERFBUF_PAIR_* */
    uint32_t position;  /* its instance's position in the capture's object (V1) or block
                           (V2), so items of several arrays interleave in buffer order;
                           PERFBUF_ITEM_NO_INSTANCE for an object's one counter block */
    uint32_t counter;   /* the counter's CounterNameTitleIndex (V1) or id (V2): which one
                           an item of a query's counter "*" is */
    uint32_t object;    /* its object's position among the capture's objects (V1) or its
                           block's among the blocks (V2) */
    perfbuf_value value; /* value.status is the item's CStatus */
} perfbuf_formatted_item;

/* perfbuf_formatted_item.position of an object without instances. */
#define PERFBUF_ITEM_NO_INSTANCE UINT32_MAX

/* One element of a raw array. */
typedef struct perfbuf_raw_item {
    const char *name;
    size_t name_len;
    uint32_t pairing;
    uint32_t position;            /* as perfbuf_formatted_item's */
    uint32_t counter;             /* as perfbuf_formatted_item's */
    uint32_t object;              /* as perfbuf_formatted_item's */
    bool has_older;               /* older holds a sample of this instance */
    perfbuf_raw_sample older;
    perfbuf_raw_sample newer;     /* newer.status is the item's CStatus */
    perfbuf_value_context context; /* the newer sample's */
    uint32_t older_position;      /* the older capture's instance the key paired this one
                                     with (pairing MATCHED or DEFINITION_CHANGED), as
                                     position counts; PERFBUF_ITEM_NO_INSTANCE otherwise
                                     and for an object's one counter block */
    uint32_t object_title;        /* V1: its object's ObjectNameTitleIndex; V2: 0 */
} perfbuf_raw_item;

/*
 * PdhGetFormattedCounterArray for the counter `counter_title` of the
 * paired object: one item per instance of the newer capture that the
 * path's instance part selects (perfbuf_path_instance_matches; NULL path:
 * every instance), in buffer order; a single-instance object gives one
 * item with an empty name when the path has no instance part (or is NULL).
 *
 * Two calls. On entry *item_count and *string_bytes are the capacities of
 * items and strings (0 with NULL to ask); on return they are the items and
 * string bytes the answer needs. Either too small: OUTPUT_TOO_SMALL and
 * nothing is written to items or strings. The string size may exceed what
 * the names finally take (names are sized before they are converted);
 * *string_bytes after a fill is the bytes used. Items and strings must not
 * overlap the pairing's scratch (its name area, matches, older counter
 * blocks or block indexes): INVALID_ARGUMENT, checked in O(1), before
 * anything is read or written. The fill writes at most the capacities
 * given, even for a path whose text lies in items or strings (and so
 * changes as they are written): it then stops early, *item_count the
 * items written.
 *
 * An item's name is "parent/name#N" (parent/ when the instance has a
 * parent perfbuf converts, #N for N > 0). The parent's part is cut after
 * the last whole UTF-8 character within PERFBUF_ARRAY_PARENT_MAX_BYTES
 * (any parent a path can name, PERFBUF_PATH_MAX_INSTANCE characters, shows
 * whole), so the string size a first call reports is at most
 * PERFBUF_ARRAY_STRING_BYTES_PER_BYTE times the newer capture's
 * TotalByteLength, however many children share one long parent.
 *
 * Each item's value is perfbuf_format_value of the newer sample with the
 * older when paired. A new instance, and every instance when the counter's
 * definition (type, size, offset, or its base's) differs between the
 * captures, is formatted without an older sample, so a two-sample type
 * reports PERFBUF_CSTATUS_INVALID_DATA as PDH does for a first sample.
 * NOT_FOUND when the newer object has no such counter. Linear in the
 * blocks' bytes and the string area; for a path naming a parent, the
 * children are sorted by parent in the pairing's scratch (O(i log i)) so
 * that each distinct parent's name is compared once, never converted.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_formatted_array(
    const perfbuf_v1_pairing *p, uint32_t counter_title, const perfbuf_counter_path *path,
    uint32_t flags, perfbuf_formatted_item *items, size_t *item_count, char *strings,
    size_t *string_bytes);

/* The same as PdhGetRawCounterArray: both raw samples of every item. */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_raw_array(
    const perfbuf_v1_pairing *p, uint32_t counter_title, const perfbuf_counter_path *path,
    perfbuf_raw_item *items, size_t *item_count, char *strings, size_t *string_bytes);

/* ---- PerfLib V2 query data ---- */

/*
 * A pairing of the instances of one counter block in each of two query
 * buffers (the same counterset, e.g. blocks found through its
 * identifiers). Points into both buffers and the scratch.
 */
typedef struct perfbuf_v2_pairing {
    const perfbuf_v2_query *older;
    const perfbuf_v2_query *newer;
    perfbuf_v2_block older_block;
    perfbuf_v2_block newer_block;
    bool has_older;
    uint32_t paired;
    uint32_t new_instances;
    uint32_t ambiguous;
    const uint64_t *matches;         /* one slot per newer instance */
    const uint64_t *older_to_newer;  /* per older instance: newer position + 1, or 0 */
    uint64_t *older_samples;         /* array calls: 5 slots per newer instance */
    char *text;                      /* name area of the array calls */
    size_t text_cap;
} perfbuf_v2_pairing;

/*
 * The scratch perfbuf_v2_pair needs for these blocks (older_block may be
 * NULL: no older sample), in uint64_t slots. O(1).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_pairing_scratch(
    const perfbuf_v2_block *older_block, const perfbuf_v2_block *newer_block, size_t *slots);

/*
 * Pairs each instance of newer_block with the instance of older_block
 * that has the same key: its InstanceId, its name (ASCII
 * case-insensitive, as for V1) and its ordinal among instances of that id
 * and name in buffer order. Hashes are confirmed as for V1; collisions
 * make PERFBUF_PAIR_AMBIGUOUS. A block without instances (single or
 * multiple counters) has nothing to pair; its arrays have one item.
 * older_block NULL (or of a kind without instances while the newer has
 * them): every instance is PERFBUF_PAIR_NEW. O(n log n + bytes).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_pair(
    const perfbuf_v2_query *older, const perfbuf_v2_block *older_block,
    const perfbuf_v2_query *newer, const perfbuf_v2_block *newer_block, uint64_t *scratch,
    size_t cap, perfbuf_v2_pairing *out);

/* As perfbuf_v1_pairing_instance. */
PERFBUF_API bool perfbuf_v2_pairing_instance(const perfbuf_v2_pairing *p, uint32_t newer_index,
                                             uint32_t *pairing, uint32_t *ordinal,
                                             uint32_t *older_index);

/*
 * As perfbuf_v1_formatted_array, for the counter `counter_id` of the
 * registration `reg` (the counterset's, which defines the counter for
 * both captures): samples through perfbuf_v2_raw_sample. Names are the
 * instance names with "#N" for N > 0; a path's parent part never matches
 * (V2 instances have none) unless it is "*". NOT_FOUND when the
 * registration has no such counter. Linear in both buffers and the
 * string area.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_formatted_array(
    const perfbuf_v2_pairing *p, const perfbuf_v2_reginfo *reg, uint32_t counter_id,
    const perfbuf_counter_path *path, uint32_t flags, perfbuf_formatted_item *items,
    size_t *item_count, char *strings, size_t *string_bytes);

PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_raw_array(
    const perfbuf_v2_pairing *p, const perfbuf_v2_reginfo *reg, uint32_t counter_id,
    const perfbuf_counter_path *path, perfbuf_raw_item *items, size_t *item_count,
    char *strings, size_t *string_bytes);

#ifdef __cplusplus
}
#endif

#endif
