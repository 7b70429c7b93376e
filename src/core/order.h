/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Unique keys in linear time, or in n log n over caller scratch.
 *
 * Several answers carry ids that must be unique and that later calls look
 * up (registered counter ids, string-block ids, identifier indexes).
 * Comparing every pair is quadratic, so a hostile buffer of a few thousand
 * items holds a call for seconds. Keys that ascend are unique after one
 * neighbour pass and are found by binary search; up to PB_SMALL_KEYS items
 * are compared pairwise (a constant); anything else is sorted in caller
 * scratch (heapsort: no recursion, no allocation) or refused with
 * PERFBUF_E_SCRATCH_NEEDED, never compared pairwise.
 */
#ifndef PERFBUF_ORDER_H
#define PERFBUF_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* At most this many items are compared pairwise: 496 comparisons. */
#define PB_SMALL_KEYS 32u

/* The key at position i; false leaves that position out of the check. */
typedef bool (*pb_key_reader)(const void *source, uint32_t i, uint32_t *key);

typedef enum pb_keys_result {
    PB_KEYS_ASCENDING,      /* strictly ascending in position order */
    PB_KEYS_SMALL,          /* unordered, few enough to scan */
    PB_KEYS_SORTED,         /* unordered, sorted into the scratch */
    PB_KEYS_DUPLICATE,      /* *duplicate_at: the later position of a pair */
    PB_KEYS_NEED_SCRATCH    /* unordered, and no room to sort */
} pb_keys_result;

/*
 * Checks the keys of positions [0, n) for uniqueness. scratch (may be NULL)
 * receives, on PB_KEYS_SORTED, key << 32 | position of every included
 * position in ascending order; *sorted_count their number. Of several
 * duplicates, the one whose later position comes first is reported.
 */
/*@ requires scratch == \null || \valid(scratch + (0 .. cap - 1));
    requires \valid(sorted_count) && \valid(duplicate_at);
    requires \separated(sorted_count, duplicate_at);
    requires scratch == \null || \separated(scratch + (0 .. cap - 1), sorted_count, duplicate_at);
    assigns scratch[0 .. cap - 1], *sorted_count, *duplicate_at;
    ensures \result == PB_KEYS_SORTED ==> scratch != \null && *sorted_count <= cap;
*/
pb_keys_result pb_keys_check(pb_key_reader read, const void *source, uint32_t n,
                             uint64_t *scratch, size_t cap, size_t *sorted_count,
                             uint32_t *duplicate_at);

/* The position of key in sorted scratch entries, by binary search. */
/*@ requires \valid_read(sorted + (0 .. count - 1));
    requires \valid(position);
    assigns *position;
*/
bool pb_keys_find_sorted(const uint64_t *sorted, size_t count, uint32_t key, uint32_t *position);

/* Sorts n integers ascending: heapsort, O(n log n), constant stack. */
void pb_sort_u64(uint64_t *v, size_t n);

#endif
