/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A query in the manner of PDH's (docs/collector.md): counters added by
 * path, captures fed in as bytes (V1 data blocks, or PerfLib V2 query data
 * for a query opened on V2 registrations), PDH-style arrays read out. The
 * query,
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
#include "perfbuf/v2_meta.h"
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
    uint32_t first_object_items; /* items of the first object the path names; those
                                    after are of later objects of its title */
} perfbuf_query_samples;

/*
 * A counter of a query, in the caller's memory like PDH's HCOUNTER. The
 * path text given to perfbuf_query_add must outlive it, unchanged, outside
 * the arena (perfbuf_query_collect). Read `status`
 * and `found`; treat the other fields as private.
 */
typedef struct perfbuf_query_counter {
    struct perfbuf_query_counter *next;
    perfbuf_counter_path path;
    uint32_t status;                /* a value status, see above */
    uint32_t found;                 /* PERFBUF_QUERY_FOUND_*, see below */
    uint32_t object_title;          /* the object and counter the last capture resolved */
    uint32_t counter_title;
    bool by_key;                    /* perfbuf_query_pair_by */
    perfbuf_counter_path key;       /* the key counter's name, as a path's counter part */
    perfbuf_query_samples older;    /* the capture before the last one */
    perfbuf_query_samples newer;    /* the last capture */
    uint32_t identity;              /* pairing by UniqueID (V1) or InstanceId (V2) */
    uint32_t registration;          /* V2: the registration the path names, or UINT32_MAX */
    uint32_t counter_id;            /* V2: the counter it names there */
    uint32_t resolution;            /* V2: VALID_DATA, or why the path names nothing */
    bool every_definition;          /* perfbuf_query_add_definitions */
} perfbuf_query_counter;

/*
 * What the last collection found for a counter's path, in `found`: finer
 * than its status where a caller that reports each path, as typeperf
 * does, must tell an object that has no instance at this moment from a
 * path that names nothing (docs/collector.md, "What a path found").
 */
#define PERFBUF_QUERY_FOUND_NOT_YET      0u /* no collection filled it yet */
#define PERFBUF_QUERY_FOUND_ITEMS        1u /* the arrays have at least one item */
#define PERFBUF_QUERY_FOUND_EMPTY_OBJECT 2u /* a "*" instance, with or without a parent
                                               part, over an object that has no instance
                                               now (NumInstances 0): empty arrays, no error */
#define PERFBUF_QUERY_FOUND_NO_INSTANCE  3u /* the instance part selects none of the
                                               object's instances, or the object has none
                                               by kind (PERF_NO_INSTANCES) */
#define PERFBUF_QUERY_FOUND_UNNAMED      4u /* no instance part, over an object that has
                                               instances: the path names none of them */
#define PERFBUF_QUERY_FOUND_NO_COUNTER   5u /* status PERFBUF_CSTATUS_NO_COUNTER */
#define PERFBUF_QUERY_FOUND_NO_OBJECT    6u /* status PERFBUF_CSTATUS_NO_OBJECT */

/*
 * One counterset of a V2 query, as PerfLib answers for it
 * (PerfQueryCounterSetRegistrationInfo): the caller fills the first
 * fields, perfbuf_query_open_v2 the rest. The bytes and the struct must
 * outlive the query.
 */
typedef struct perfbuf_query_registration {
    const void *reginfo;            /* PERF_REG_COUNTERSET_STRUCT's answer (required) */
    size_t reginfo_len;
    const void *counter_names;      /* PERF_REG_COUNTER_NAME_STRINGS's, or NULL */
    size_t counter_names_len;
    const void *counterset_name;    /* PERF_REG_COUNTERSET_NAME_STRING's, or NULL */
    size_t counterset_name_len;
    uint32_t block;                 /* its PERF_COUNTER_IDENTIFIER.Index: the position of
                                       its PERF_COUNTER_HEADER in every query data buffer */
    /* Filled by perfbuf_query_open_v2 and perfbuf_query_arena; private. */
    perfbuf_v2_reginfo reg;
    perfbuf_v2_strings names;
    perfbuf_v2_string name;
    bool has_names;
    bool has_name;
    size_t reg_order;               /* arena offset of the ids' order, or SIZE_MAX */
    size_t names_order;
} perfbuf_query_registration;

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
    perfbuf_query_registration *registrations; /* a V2 query's; NULL for V1 */
    uint32_t registration_count;
    perfbuf_options options; /* what each capture is parsed with (perfbuf_query_options) */
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
 * Opens a query on V2 registrations instead: `count` countersets, each
 * with its registration, optionally its counter names (paths name
 * counters by them, or by decimal id) and its name (paths name the
 * counterset by it, or by its GUID as perfbuf_guid_format writes it,
 * braces included), and the position of its block in the query data
 * (perfbuf_v2_counterset_matches, perfbuf_v2_resolve_counter). Such a
 * query collects V2 query data (PerfQueryCounterData) and pairs
 * instances by InstanceId, name and #N as perfbuf_v2_pair does.
 * Each buffer is validated as perfbuf_v2_reginfo_parse,
 * perfbuf_v2_strings_parse (origin AUTO) and perfbuf_v2_string_parse do
 * (*err names the offset and field); ids out of order need scratch, which
 * the arena's start provides (perfbuf_query_arena finishes their
 * validation then and may answer their failure). O(the registrations'
 * bytes): each buffer is validated once.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_open_v2(
    perfbuf_query *q, perfbuf_query_registration *registrations, size_t count,
    perfbuf_error *err);

/*
 * Sets the options every later capture of the query is parsed with
 * (perfbuf_query_collect): PERFBUF_STRICT or lenient, and the limits on
 * sections, counters and instances (0: the library's default), as
 * perfbuf_v1_parse and perfbuf_v2_query_parse take them. A query opened by
 * perfbuf_query_open or perfbuf_query_open_v2 starts with the defaults
 * (lenient, the default limits), as a NULL perfbuf_options gives a reader;
 * the Counter tables and registrations given to the open are validated
 * with those defaults. The options are copied into the query; a call may
 * come at any time after the open and applies from the next collection
 * (the samples kept are not parsed again). INVALID_ARGUMENT, the query
 * unchanged, for a NULL q or opts, a query not opened, or flags other
 * than PERFBUF_STRICT (a flag the query does not know would otherwise be
 * silently ignored). O(1).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_options(perfbuf_query *q,
                                                                  const perfbuf_options *opts);

/*
 * Adds the counter `c` by path, in English or the localized language:
 * `\Object(parent/instance#N)\Counter`, with wildcard and prefix instances
 * (docs/paths.md). The path is parsed now (a failure's *err holds the
 * byte offset and the part, as perfbuf_path_parse reports it) and resolved
 * on each capture, so a counter the capture lacks is a counter status, not
 * a failure. A counter "*" names every displayable counter of the object
 * in the capture, in definition order, as perfbuf_v1_resolve_counter
 * lists them (bases are not displayable): its arrays give one item per
 * instance and counter (perfbuf_formatted_item.counter says which), as
 * PdhExpandWildCardPath would list the paths. A V2 query refuses it,
 * PERFBUF_E_PATH_WILDCARD at the counter part's offset. An already-added
 * c, or a counter added after the arena was given, INVALID_ARGUMENT.
 * O(path).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_add(perfbuf_query *q,
                                                              perfbuf_query_counter *c,
                                                              const char *path, size_t len,
                                                              perfbuf_error *err);

/*
 * Adds the counter `c` that names, in every V1 capture, every counter
 * definition of every object, by title index rather than by name, so it
 * needs no title from the Counter tables (a query opened on an empty table,
 * one empty string, serves): each object in block order, each of its
 * instances (or its one counter block), each definition in definition
 * order, bases and definitions that share a title or a CounterOffset
 * included, one item each (perfbuf_raw_item.counter and .object_title say
 * which; a definition's position among its object's is the item's place
 * among its instance's items). An object without definitions gives no
 * items. A base, which has no formula, keeps the status
 * PERFBUF_PDH_INVALID_ARGUMENT, as the arrays give it.
 *
 * Items pair with the previous capture's by their object's title, the
 * instance's key (PDH's "parent/name#N", or its UniqueID with
 * perfbuf_query_pair_by_unique_id, as for any counter), and the
 * definition's title: the k-th definition of a title in an instance
 * pairs with the k-th of that title in the older instance. One whose
 * type changed is PERFBUF_PAIR_DEFINITION_CHANGED, without the older
 * sample. Only the first object of each title pairs: instances of a later
 * object of a title the capture repeats are PERFBUF_PAIR_UNPAIRED (no key
 * tells which of two such objects is which in another capture), in
 * either capture. This is what a dump of every value beside its rate
 * reads (perfbuf-dump --rate); perfbuf_query_formatted_array formats its
 * items as for any counter. The arena a capture needs is as
 * perfbuf_query_collect bounds it, each object counted with its
 * definitions as a counter "*" counts its displayable ones. It pairs by
 * UniqueID after perfbuf_query_pair_by_unique_id, never by a key counter
 * (perfbuf_query_pair_by). INVALID_ARGUMENT for a V2 query, an already-added c, or a counter added
 * after the arena was given. O(counters).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_add_definitions(perfbuf_query *q,
                                                                          perfbuf_query_counter *c);

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
 * arena; INVALID_ARGUMENT for an empty or over-long name, a counter not
 * added to q, a counter of every definition (perfbuf_query_add_definitions:
 * most objects have no such key counter), or a V2 query (which pairs by
 * InstanceId already),
 * PERFBUF_E_PATH_WILDCARD for "*". O(1).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_pair_by(perfbuf_query *q,
                                                                  perfbuf_query_counter *c,
                                                                  const char *key, size_t len);

/*
 * Pairs the counter's V1 instances by their UniqueID, for objects whose
 * provider sets one (PERF_INSTANCE_DEFINITION.UniqueID other than
 * PERF_NO_UNIQUE_ID, winperf.h), as perfbuf_v1_pair keys them, together
 * with the parent and name without #N as perfbuf_query_pair_by does: an
 * instance keeps its previous sample whatever others exit. Instances
 * without one pair by PDH's key. Names in the arrays stay PDH's. Before
 * the arena; INVALID_ARGUMENT for a counter not added to q or a V2 query.
 * Replaces a key counter perfbuf_query_pair_by chose, and the reverse.
 * O(counters).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_pair_by_unique_id(
    perfbuf_query *q, perfbuf_query_counter *c);

/*
 * Gives the query its arena, as PdhGetFormattedCounterArray takes a buffer:
 * `arena` NULL asks, OUTPUT_TOO_SMALL with *bytes the least arena (the
 * tables' indexes and what the query keeps); a collection may ask for more
 * (perfbuf_query_collect). An arena of *bytes bytes, aligned to 8, serves
 * until the next call. The first time, the query builds the tables' indexes
 * at its start (a V2 query: the order of registrations whose ids are out
 * of order, then resolves every counter's path once); afterwards the arena must begin with the previous arena's
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
 * Collects one capture of the query's format. A V2 query takes V2 query
 * data (perfbuf_v2_query_parse, with the query's options: by default
 * lenient, the default limits, see perfbuf_query_options): each counter's block is the one
 * at its registration's position, its items those perfbuf_v2_raw_array
 * gives (the instance name with #N among instances of one InstanceId and
 * name), paired by InstanceId, name and #N as perfbuf_v2_pair pairs; a
 * missing block, or one with a non-zero dwStatus, is
 * PERFBUF_CSTATUS_NO_OBJECT; the rest is as below. A buffer of the other
 * format is PERFBUF_E_BAD_SIGNATURE at offset 0 naming PERF_DATA_BLOCK's
 * Signature, which V1 blocks begin with and V2 query data cannot.
 *
 * A V1 query takes a V1 capture (perfbuf_v1_parse, with the query's
 * options likewise): each counter's
 * object and counter are resolved through the tables in every object the
 * path names, in block order (a block may repeat a title: each item's
 * `object` says which; instances of a later object of the title are
 * PERFBUF_PAIR_UNPAIRED, since no key tells which of two objects of one
 * title is which in another capture), the instances its
 * path selects in the first such object are paired with the previous capture's by PDH's key
 * "parent/name#N" (ASCII letters case-insensitively, as PDH compares
 * names) or the key perfbuf_query_pair_by chose, and their raw samples
 * and names are kept in the arena, so the caller may reuse the capture's
 * buffer as soon as the call returns. PERFBUF_CSTATUS_NO_OBJECT or
 * _NO_COUNTER in a counter's status when the capture lacks them (its
 * arrays then answer NOT_FOUND), PERFBUF_CSTATUS_NO_INSTANCE when the path
 * names an instance (no wildcard or prefix) that the capture lacks (its
 * arrays are then empty, as they are for a wildcard that selects nothing).
 *
 * The capture must not share a byte with memory the collection writes
 * (the arena, the query, its counters): INVALID_ARGUMENT, checked before
 * anything is read, O(counters). A path whose text changed during the
 * collection, as a text that lies in the arena does when the collection
 * writes over it, makes the passes that read the path disagree:
 * INCONSISTENT, every write still inside the arena.
 *
 * *err (may be NULL) holds the status returned and, for a rejected
 * capture, where and why (the parse's report: a capture over one of the
 * query's limits is LIMIT_EXCEEDED with the declared count and the
 * limit); a rejected capture changes nothing. OUTPUT_TOO_SMALL when the arena is too small, with
 * *needed (may be NULL) an arena size that is enough for this capture;
 * collecting again after perfbuf_query_arena gave that arena succeeds.
 * Before the query has an arena, *needed is the least one (the tables'
 * indexes, which resolve the paths), and the next call says what the
 * capture needs. After OUTPUT_TOO_SMALL or any failure past the
 * validation, the last successful capture's samples are the ones the
 * next collection pairs with, and the arrays answer NOT_FOUND until one
 * succeeds. The arena a capture needs is at most what is kept plus, for
 * each counter and each object it names, the object's instances plus one
 * (times its displayable counters, for a counter "*") times
 * PERFBUF_QUERY_ITEM_BYTES plus PERFBUF_ARRAY_STRING_BYTES_PER_BYTE times
 * the object's bytes (V2: the capture's) plus 64 (twice for a counter
 * paired by a key counter, whose samples are read the same way) plus a
 * perfbuf_query_samples rounded to 8, all twice when the counter names
 * several objects (their samples are merged), and for a V1 counter the
 * capture's block index (index_slots x 8 bytes and its
 * perfbuf_v1_instance_index); plus the largest pairing
 * scratch (perfbuf_v1_pairing_scratch_objects, perfbuf_v2_pairing_scratch)
 * and the larger of a perfbuf_v1_pairing and a perfbuf_v2_pairing, taken
 * from the arena's end: linear in the capture per counter.
 * O(counters x (capture + i log i)) for i instances.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_collect(perfbuf_query *q,
                                                                  const void *capture,
                                                                  size_t len, size_t *needed,
                                                                  perfbuf_error *err);

/*
 * PdhGetFormattedCounterArray: one item per instance of the last capture
 * that the counter's path selects, in buffer order (for a counter "*":
 * each instance's items together, one per displayable counter in
 * definition order, each paired with the same instance's same counter by
 * its CounterNameTitleIndex), named
 * "parent/name#N" (a single-instance object: one item, empty name). Each
 * value is perfbuf_format_value of the last sample with the previous
 * capture's sample of the same instance; an instance that has none (the
 * first capture, a new instance, a name whose key collides) is formatted
 * without it, so a two-sample type gives PERFBUF_CSTATUS_INVALID_DATA as
 * PDH does for a first sample; a sample that could not be read (a base
 * counter's type, which has no formula) keeps its own status, as the arrays
 * of perfbuf/collector.h give it. Names point into the arena and stay valid
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
 * or exited between the last two captures, in buffer order, each once
 * (also under a counter "*"): as the
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
 * given. INVALID_ARGUMENT for another `which` or language, and for a
 * query opened on V2 registrations (it has no Counter tables: its paths
 * name countersets and counters by GUID, name or id). O(log t) plus
 * the text, for t titles in the table.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_title(
    const perfbuf_query *q, const perfbuf_query_counter *c, uint32_t which,
    perfbuf_language language, uint32_t *title_index, char *out, size_t cap, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
