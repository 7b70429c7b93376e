/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The V1 title databases: the "Counter" and "Help" values (REG_MULTI_SZ,
 * UTF-16LE), a list of decimal index / text pairs ended by an empty string.
 * Object and counter definitions name their titles by these indexes.
 *
 *   perfbuf_names_parse() validates the whole list; the views cannot fail.
 */
#ifndef PERFBUF_NAMES_H
#define PERFBUF_NAMES_H

#include "perfbuf/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfbuf_name_table {
    const uint8_t *data;
    size_t size;              /* bytes walked, up to and with the final empty string */
    uint32_t count;           /* index/text pairs */
    bool ascending;           /* indexes strictly increase in buffer order */
    uint32_t anomalies;
    perfbuf_error first_anomaly;
} perfbuf_name_table;

typedef struct perfbuf_name_entry {
    uint32_t title_index;
    size_t offset;            /* of the index string */
    size_t text_offset;
    size_t text_units;        /* UTF-16 units before the text's NUL */
} perfbuf_name_entry;

typedef struct perfbuf_names_iter {
    size_t pos;
    uint32_t next;
    uint32_t count;
} perfbuf_names_iter;

PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_names_parse(const void *data, size_t size,
                                                                const perfbuf_options *opts,
                                                                perfbuf_name_table *out,
                                                                perfbuf_error *err);

PERFBUF_API void perfbuf_names_begin(const perfbuf_name_table *t, perfbuf_names_iter *it);
PERFBUF_API bool perfbuf_names_next(const perfbuf_name_table *t, perfbuf_names_iter *it,
                                    perfbuf_name_entry *out);

PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_names_text_utf8(const perfbuf_name_table *t,
                                                                    const perfbuf_name_entry *e,
                                                                    char *out, size_t cap,
                                                                    size_t *len);

/* The first entry with that title index, walking the list: O(n). */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_names_find(const perfbuf_name_table *t,
                                                               uint32_t title_index,
                                                               perfbuf_name_entry *out);

/* A sorted index over a table, in caller memory: one slot per entry. */
typedef struct perfbuf_name_slot {
    uint32_t title_index;
    size_t offset;
} perfbuf_name_slot;

typedef struct perfbuf_name_index {
    const perfbuf_name_slot *slots;
    uint32_t count;
    uint32_t duplicates;      /* entries whose index an earlier entry has */
} perfbuf_name_index;

/*
 * Fills and sorts slots (O(n), or O(n log n) when the table is not in
 * ascending order; no recursion, no allocation). OUTPUT_TOO_SMALL when
 * cap < t->count. Of duplicate indexes, lookups find the first in buffer
 * order, as perfbuf_names_find does.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_names_index_build(const perfbuf_name_table *t,
                                                                      perfbuf_name_slot *slots,
                                                                      size_t cap,
                                                                      perfbuf_name_index *out);
/* O(log n). */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_names_index_find(
    const perfbuf_name_table *t, const perfbuf_name_index *index, uint32_t title_index,
    perfbuf_name_entry *out);

#ifdef __cplusplus
}
#endif

#endif
