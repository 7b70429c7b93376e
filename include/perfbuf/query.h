/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A query in the manner of PDH's (docs/collector.md): counters added by
 * path, V1 captures fed in as bytes, PDH-style arrays read out. The query,
 * its counters and its arena are the caller's memory; the library
 * allocates nothing and keeps nothing outside them.
 *
 *   perfbuf_query q;
 *   perfbuf_query_counter cpu;
 *   perfbuf_query_open(&q, english, english_len, NULL, 0, &err);
 *   perfbuf_query_add(&q, &cpu, path, strlen(path), &err);  // err: where and why
 *   while (perfbuf_query_collect(&q, capture, len, &need, &err) ==
 *          PERFBUF_E_OUTPUT_TOO_SMALL)
 *       perfbuf_query_arena(&q, arena = realloc(arena, need), &need);
 *   perfbuf_query_formatted_array(&q, &cpu, PERFBUF_FMT_DOUBLE, items, &count);
 *
 * Statuses: every call answers a perfbuf_status (perfbuf_status_name and
 * perfbuf_status_string name and explain each); a counter's own state
 * after a collection is a value status (perfbuf_cstatus_name and
 * perfbuf_cstatus_string): PERFBUF_CSTATUS_VALID_DATA when the capture
 * holds its object and counter, PERFBUF_CSTATUS_NO_OBJECT,
 * PERFBUF_CSTATUS_NO_COUNTER or PERFBUF_CSTATUS_NO_INSTANCE when it does
 * not, and
 * PERFBUF_CSTATUS_ITEM_NOT_VALIDATED before the first collection. Each
 * array item carries its value's status as PDH's do.
 */
#ifndef PERFBUF_QUERY_H
#define PERFBUF_QUERY_H

#include "perfbuf/collector.h"
#include "perfbuf/common.h"
#include "perfbuf/names.h"
#include "perfbuf/paths.h"
#include "perfbuf/resolve.h"
#include "perfbuf/v1.h"
#include "perfbuf/values.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The samples one collection kept for one counter: offsets into the arena. */
typedef struct perfbuf_query_samples {
    bool valid;            /* a collection filled them */
    uint32_t count;        /* items, one per instance the path selects */
    size_t items;          /* perfbuf_raw_item[count] */
    size_t keys;           /* uint64_t[2 * count]: (key hash, position), sorted */
    size_t claims;         /* uint32_t[count]: newer position + 1 that paired it, or 0 */
    size_t name_offsets;   /* size_t[count]: each item's name in the strings */
    size_t key_values;     /* uint64_t[count]: the key counter's values (perfbuf_query_pair_by) */
    size_t strings;        /* the items' names */
    size_t string_bytes;
} perfbuf_query_samples;

/*
 * A counter of a query, in the caller's memory like PDH's HCOUNTER. The
 * path text given to perfbuf_query_add must outlive it. Read `status`;
 * treat the other fields as private.
 */
typedef struct perfbuf_query_counter {
    struct perfbuf_query_counter *next;
    perfbuf_counter_path path;
    uint32_t status;                /* a value status, see above */
    uint32_t object_title;          /* the object and counter the last capture resolved */
    uint32_t counter_title;
    bool by_key;                    /* perfbuf_query_pair_by */
    perfbuf_counter_path key;       /* the key counter's name, as a path's counter part */
    perfbuf_query_samples older;    /* the capture before the last one */
    perfbuf_query_samples newer;    /* the last capture */
} perfbuf_query_counter;

/* A query. Treat the fields as private. */
typedef struct perfbuf_query {
    perfbuf_name_table english;
    perfbuf_name_table localized;
    bool has_localized;
    perfbuf_name_index english_index;
    perfbuf_name_index localized_index;
    perfbuf_title_tables names;
    perfbuf_query_counter *first;
    perfbuf_query_counter *last;
    uint32_t counters;
    uint8_t *arena;
    size_t arena_bytes;
    size_t fixed_bytes;     /* the name indexes at the arena's start */
    size_t kept_end;        /* the end of the samples kept in the arena */
    bool has_newer;         /* a collection succeeded */
    bool has_older;         /* two did */
} perfbuf_query;

/*
 * Opens a query on the English ("009") Counter table and, optionally (NULL,
 * 0), the system language's, both as the registry returns them
 * (perfbuf_names_parse). The tables' bytes must outlive the query. On
 * failure *err names the table's offset and field as perfbuf_names_parse
 * does. O(tables).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_open(perfbuf_query *q,
                                                               const void *english,
                                                               size_t english_len,
                                                               const void *localized,
                                                               size_t localized_len,
                                                               perfbuf_error *err);

/*
 * Adds the counter `c` by path, in English or the localized language:
 * `\Object(parent/instance#N)\Counter`, with wildcard and prefix instances
 * (docs/paths.md). The path is parsed now (a failure's *err holds the
 * byte offset and the part, as perfbuf_path_parse reports it) and resolved
 * on each capture, so a counter the capture lacks is a counter status, not
 * a failure. A counter "*" is PERFBUF_E_PATH_WILDCARD (offset of the
 * counter part), as PdhAddCounter wants one counter per handle; an
 * already-added c, or a counter added after the arena was given,
 * INVALID_ARGUMENT. O(path).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_add(perfbuf_query *q,
                                                              perfbuf_query_counter *c,
                                                              const char *path, size_t len,
                                                              perfbuf_error *err);

/*
 * Pairs the counter's instances by identity rather than by PDH's key:
 * by the value of the key counter `key` of the same object (its name in
 * English or the localized language, as a path's counter part: "ID
 * Process", "ID Thread", or any counter) together with the instance's
 * parent and name without its #N. So when one of several "svchost"
 * exits, every other keeps its own previous sample, where PDH's
 * "svchost#N" moves each later one onto the sample of the one before
 * (docs/collector.md, "Pairing by identity"). Names in the arrays stay
 * PDH's. A capture whose object lacks the key counter gives the counter
 * PERFBUF_CSTATUS_NO_COUNTER. `key` must outlive the query. Before the
 * arena; INVALID_ARGUMENT for an empty or over-long name or a counter not
 * added to q, PERFBUF_E_PATH_WILDCARD for "*". O(1).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_pair_by(perfbuf_query *q,
                                                                  perfbuf_query_counter *c,
                                                                  const char *key, size_t len);

/*
 * Gives the query its arena, as PdhGetFormattedCounterArray takes a buffer:
 * `arena` NULL asks, OUTPUT_TOO_SMALL with *bytes the least arena (the
 * tables' indexes and what the query keeps); a collection may ask for more
 * (perfbuf_query_collect). An arena of *bytes bytes, aligned to 8, serves
 * until the next call. The first time, the query builds the tables' indexes
 * at its start; afterwards the arena must begin with the previous arena's
 * bytes, as realloc leaves them (or a copy of them), and the query points
 * its names into it again. OUTPUT_TOO_SMALL, *bytes the least size, when
 * it is smaller than what the query keeps. Linear in the tables the first
 * time, then in the kept instances.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_arena(perfbuf_query *q, void *arena,
                                                                size_t *bytes);

/* The arena one kept instance takes besides its name (perfbuf_query_collect). */
#define PERFBUF_QUERY_ITEM_BYTES \
    (sizeof(perfbuf_raw_item) + 3u * sizeof(uint64_t) + sizeof(uint32_t) + sizeof(size_t))

/*
 * Collects one V1 capture (perfbuf_v1_parse, lenient): each counter's
 * object and counter are resolved through the tables, the instances its
 * path selects are paired with the previous capture's by PDH's key
 * "parent/name#N" (ASCII letters case-insensitively, as PDH compares
 * names) or the key perfbuf_query_pair_by chose, and their raw samples
 * and names are kept in the arena, so the caller may reuse the capture's
 * buffer as soon as the call returns. PERFBUF_CSTATUS_NO_OBJECT or
 * _NO_COUNTER in a counter's status when the capture lacks them (its
 * arrays then answer NOT_FOUND), PERFBUF_CSTATUS_NO_INSTANCE when the path
 * names an instance (no wildcard or prefix) that the capture lacks (its
 * arrays are then empty, as they are for a wildcard that selects nothing).
 *
 * *err (may be NULL) holds the status returned and, for a rejected
 * capture, where and why (perfbuf_v1_parse's report); a rejected capture
 * changes nothing. OUTPUT_TOO_SMALL when the arena is too small, with
 * *needed (may be NULL) an arena size that is enough for this capture;
 * collecting again after perfbuf_query_arena gave that arena succeeds.
 * Before the query has an arena, *needed is the least one (the tables'
 * indexes, which resolve the paths), and the next call says what the
 * capture needs. After OUTPUT_TOO_SMALL or any failure past the
 * validation, the last successful capture's samples are the ones the
 * next collection pairs with, and the arrays answer NOT_FOUND until one
 * succeeds. The arena a capture needs is at most what is kept plus, for
 * each counter, its instances times PERFBUF_QUERY_ITEM_BYTES plus
 * PERFBUF_ARRAY_STRING_BYTES_PER_BYTE times the capture's bytes plus 64
 * (twice for a counter paired by a key counter, whose samples are read
 * the same way), plus the largest pairing scratch
 * (perfbuf_v1_pairing_scratch) and a perfbuf_v1_pairing, both taken from
 * the arena's end: linear in the capture per counter.
 * O(counters x (capture + i log i)) for i instances.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_collect(perfbuf_query *q,
                                                                  const void *capture,
                                                                  size_t len, size_t *needed,
                                                                  perfbuf_error *err);

/*
 * PdhGetFormattedCounterArray: one item per instance of the last capture
 * that the counter's path selects, in buffer order, named
 * "parent/name#N" (a single-instance object: one item, empty name). Each
 * value is perfbuf_format_value of the last sample with the previous
 * capture's sample of the same instance; an instance that has none (the
 * first capture, a new instance, a name whose key collides) is formatted
 * without it, so a two-sample type gives PERFBUF_CSTATUS_INVALID_DATA as
 * PDH does for a first sample. Names point into the arena and stay valid
 * until the next collection or arena.
 *
 * On entry *count is the capacity of items (0 with NULL to ask); on return
 * the items there are. OUTPUT_TOO_SMALL, nothing written, when it is too
 * small. NOT_FOUND when the last collection did not fill the counter
 * (see its status). O(items).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_formatted_array(
    const perfbuf_query *q, const perfbuf_query_counter *c, uint32_t flags,
    perfbuf_formatted_item *items, size_t *count);

/* PdhGetRawCounterArray: the same items with both raw samples. */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_raw_array(const perfbuf_query *q,
                                                                    const perfbuf_query_counter *c,
                                                                    perfbuf_raw_item *items,
                                                                    size_t *count);

/* Which instances perfbuf_query_instances lists. */
#define PERFBUF_QUERY_APPEARED 1u /* in the last capture, not in the one before */
#define PERFBUF_QUERY_EXITED   2u /* in the capture before, not in the last */

/*
 * The names ("parent/name#N") of the counter's instances that appeared
 * or exited between the last two captures, in buffer order: as the
 * arrays, a two-call size answer in *count. Nothing appears or exits
 * before two captures were collected. Names stay valid as the arrays'.
 * O(items of both captures).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_instances(
    const perfbuf_query *q, const perfbuf_query_counter *c, uint32_t which, const char **names,
    size_t *count);


/* ---- what the last collection resolved ---- */

/* Which title perfbuf_query_title gives. */
#define PERFBUF_QUERY_TITLE_OBJECT  1u
#define PERFBUF_QUERY_TITLE_COUNTER 2u

/*
 * The object or the counter (`which`) that the last collection resolved
 * c's path to, as the capture carries it: *title_index its title index,
 * and its text in `language` (the English table, or the localized one the
 * query was opened with) as UTF-8 in out (perfbuf_title_text_utf8's
 * contract: *len the bytes written without the NUL, or OUTPUT_TOO_SMALL
 * with *len a size that is enough). A path matches a title in either language and ASCII letters
 * case-insensitively, so a caller that names its results, as typeperf's
 * CSV header does, takes the title from here rather than from the path.
 * out may be NULL (cap 0) to ask for *len. NOT_FOUND, *title_index 0, when
 * the arrays answer NOT_FOUND (c's status says why); NOT_FOUND with
 * *title_index set when the language's table lacks the title or was not
 * given. INVALID_ARGUMENT for another `which` or language. O(log t) plus
 * the text, for t titles in the table.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_title(
    const perfbuf_query *q, const perfbuf_query_counter *c, uint32_t which,
    perfbuf_language language, uint32_t *title_index, char *out, size_t cap, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
