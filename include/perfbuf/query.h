/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A query in the manner of PDH's (docs/collector.md): counters added by
 * path, captures fed in as bytes (V1 data blocks, or PerfLib V2 query data
 * for a query opened on V2 registrations), PDH-style arrays read out. The
 * query, its counters and its arena are the caller's memory; the library
 * allocates nothing and keeps nothing outside them.
 *
 *   perfbuf_query q;
 *   perfbuf_query_counter cpu;
 *   perfbuf_query_open(&q, english, english_len, NULL, 0, &err);
 *   perfbuf_query_add(&q, &cpu, path, strlen(path), &err);  // err: where and why
 *   while (perfbuf_query_collect(&q, capture, len, &need, &err) ==
 *          PERFBUF_E_OUTPUT_TOO_SMALL)
 *       perfbuf_query_arena(&q, arena = realloc(arena, need), &need, &err);
 *   perfbuf_query_formatted_array(&q, &cpu, PERFBUF_FMT_DOUBLE, items, &count,
 *                                 names, &name_bytes, &err);
 *
 * Errors: every call answers a perfbuf_status (perfbuf_status_name and
 * perfbuf_status_string name and explain each) and fills the caller's
 * perfbuf_error (may be NULL) with it: for a rejected capture or table,
 * where in the bytes and which field (as the readers report it); for a
 * refused argument, `structure` the call's name and `field` the argument's
 * (offset 0). A counter's own state after a collection is a value status
 * (perfbuf_cstatus_name and perfbuf_cstatus_string):
 * PERFBUF_CSTATUS_VALID_DATA when the capture holds its object and counter,
 * PERFBUF_CSTATUS_NO_OBJECT, _NO_COUNTER, _NO_INSTANCE or _NO_MACHINE when
 * it does not, and PERFBUF_CSTATUS_ITEM_NOT_VALIDATED before the first
 * collection. Each array item carries its value's status as PDH's do.
 *
 * Ownership (SECURITY.md): a counter belongs to the query it was added to.
 * Every call that takes a counter checks, in O(1) and before it reads
 * anything through the counter, that it is one of this query's
 * (INVALID_ARGUMENT otherwise), and a counter that belongs to another
 * query is refused by perfbuf_query_add until that query is closed
 * (perfbuf_query_close). A query is used at the address it was opened at.
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

/* Private: the items one collection kept for one counter, in the arena. */
typedef struct perfbuf_query_samples {
    uint64_t stamp;              /* the collection that filled them; 0: none */
    uint32_t count;              /* items */
    uint32_t first_object_items; /* items of the first object the path names */
    size_t items;                /* arena offsets: the items, */
    size_t keys;                 /* their sorted (key hash, item) pairs, */
    size_t claims;               /* and which newer item claimed each */
} perfbuf_query_samples;

/*
 * A counter of a query, in the caller's memory like PDH's HCOUNTER: read
 * `status` and `found`; the other fields are private. Zero it, or leave it
 * as the last perfbuf_query_close left it, before it is added again: a
 * counter still marked as another live query's is refused. The path text
 * given to perfbuf_query_add (and a key name given to perfbuf_query_pair_by)
 * must outlive the counter, unchanged, outside the arena.
 */
typedef struct perfbuf_query_counter {
    uint32_t status;                /* a value status, see above */
    uint32_t found;                 /* PERFBUF_QUERY_FOUND_*, see below */
    /* Private. */
    const struct perfbuf_query *owner;
    uint64_t seal;                  /* ties owner and slot to this counter's address */
    uint32_t slot;                  /* its place in the owner's list */
    struct perfbuf_query_counter *next;
    uint32_t kind;                  /* a path, a counter "*", or every definition */
    uint32_t identity;              /* how its instances pair beyond PDH's key */
    perfbuf_counter_path path;
    perfbuf_counter_path key;       /* perfbuf_query_pair_by: the key counter's name */
    uint32_t object_title;          /* V1: resolved once, then looked for by index */
    uint32_t counter_title;
    uint32_t key_title;
    uint32_t planned_object;        /* what the collection in progress resolved */
    uint32_t planned_counter;
    uint32_t planned_key;
    uint32_t registration;          /* V2: the registration the path names, or UINT32_MAX */
    uint32_t counter_id;            /* V2: the counter it names there */
    uint32_t resolution;            /* V2: VALID_DATA, or why the path names nothing */
    perfbuf_query_samples older;    /* the capture before the last one */
    perfbuf_query_samples newer;    /* the last capture */
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
#define PERFBUF_QUERY_FOUND_NO_MACHINE   7u /* status PERFBUF_CSTATUS_NO_MACHINE: the
                                               path's machine is not the capture's */
#define PERFBUF_QUERY_FOUND_NO_PARENT    8u /* the path names a parent that none of the
                                               object's instances has (a named instance:
                                               status _NO_INSTANCE, else an empty array) */

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

/* Private: one capture's tables in the arena (docs/collector.md, "The query's arena"). */
typedef struct perfbuf_query_generation {
    uint64_t stamp;                 /* the collection that wrote it; 0: none */
    size_t start, end;              /* its bytes */
    size_t records;                 /* one per instance of each object a counter names */
    uint32_t record_count;
    size_t parents;                 /* one per distinct parent instance */
    size_t parent_order;            /* (name hash, parent) pairs, sorted */
    uint32_t parent_count;
    size_t strings;                 /* every name, once, as UTF-8 */
    size_t string_bytes;
    size_t machine;                 /* V1: the capture's SystemName, UTF-16LE as sent */
    size_t machine_bytes;
} perfbuf_query_generation;

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
    size_t table_bytes;     /* the name indexes or registration orders at the arena's start */
    size_t fixed_bytes;     /* those and the list of the query's counters */
    uint64_t seal;          /* written at the arena's start: tells this query's arena */
    uint64_t stamp;         /* the last successful collection; 0: none yet */
    perfbuf_query_generation older;
    perfbuf_query_generation newer;
    perfbuf_query_registration *registrations; /* a V2 query's; NULL for V1 */
    uint32_t registration_count;
    perfbuf_options options; /* what each capture is parsed with (perfbuf_query_options) */
} perfbuf_query;

/*
 * Opens a query on the English ("009") Counter table and, optionally (NULL,
 * 0), the system language's, both as the registry returns them
 * (perfbuf_names_parse). The tables' bytes must outlive the query. On
 * failure *err names the table's offset and field as perfbuf_names_parse
 * does. q is overwritten: a query opened before at this address no longer
 * owns its counters' memory (close it first to release them). O(tables).
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
 * Closes the query: every counter added to it belongs to no query again
 * (each may be added to another), and q is zeroed. The arena, the tables
 * and the counters stay the caller's to free. INVALID_ARGUMENT for a NULL
 * q. O(counters).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_close(perfbuf_query *q,
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
                                                                  const perfbuf_options *opts,
                                                                  perfbuf_error *err);

/*
 * Adds the counter `c` by path, in English or the localized language:
 * `\\machine\Object(parent/instance#N)\Counter`, with wildcard and prefix
 * instances (docs/paths.md). The path is parsed now (a failure's *err
 * holds the byte offset and the part, as perfbuf_path_parse reports it).
 * Its object and counter are resolved to title indexes once, by the first
 * capture that holds both, as PdhAddCounter resolves a path against the
 * computer's data; every later capture looks for those title indexes, so
 * a Counter table that gives two titles one text never makes a capture
 * pair one counter's sample with the other's. A counter the capture lacks
 * is a counter status, not a failure. A counter "*" names every
 * displayable counter of the object in each capture, in definition order,
 * as perfbuf_v1_resolve_counter lists them (bases are not displayable):
 * its arrays give one item per instance and counter
 * (perfbuf_formatted_item.counter says which), as PdhExpandWildCardPath
 * would list the paths. A V2 query refuses it, PERFBUF_E_PATH_WILDCARD at
 * the counter part's offset. A machine part is compared with each V1
 * capture's computer name (docs/collector.md, "One computer per query").
 * INVALID_ARGUMENT for a counter already added to this query or owned by
 * another, a query not opened, or one that has its arena already. O(path),
 * and O(counters) for a counter that was this query's before it was
 * opened again.
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
 * instance's key (PDH's "parent/name#N", its UniqueID after
 * perfbuf_query_pair_by_unique_id, or a key counter's value after
 * perfbuf_query_pair_by in each object that has that counter), and the
 * definition's title: the k-th definition of a title in an instance
 * pairs with the k-th of that title in the older instance. One whose
 * definition changed is PERFBUF_PAIR_DEFINITION_CHANGED, without the
 * older sample. Only the first object of each title pairs: instances of a
 * later object of a title the capture repeats are PERFBUF_PAIR_UNPAIRED
 * (no key tells which of two such objects is which in another capture),
 * in either capture. This is what a dump of every value beside its rate
 * reads (perfbuf-dump --rate). INVALID_ARGUMENT for a V2 query and as
 * perfbuf_query_add. O(1).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_add_definitions(perfbuf_query *q,
                                                                          perfbuf_query_counter *c,
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
 * PDH's; perfbuf_query_instances gives each listed instance's key value.
 * A capture whose object lacks the key counter gives the counter
 * PERFBUF_CSTATUS_NO_COUNTER (a counter of every definition pairs the
 * objects that lack it by PDH's key instead). The key counter is resolved
 * to its title index once, as the path is. `key` must outlive the query.
 * Before the arena; INVALID_ARGUMENT for an empty or over-long name, a
 * counter not of q, or a V2 query (which pairs by InstanceId already),
 * PERFBUF_E_PATH_WILDCARD for "*". O(counters): before the arena only
 * q's list says which counters are q's, and it is walked to find c.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_pair_by(perfbuf_query *q,
                                                                  perfbuf_query_counter *c,
                                                                  const char *key, size_t len,
                                                                  perfbuf_error *err);

/*
 * Pairs the counter's V1 instances by their UniqueID, for objects whose
 * provider sets one (PERF_INSTANCE_DEFINITION.UniqueID other than
 * PERF_NO_UNIQUE_ID, winperf.h), as perfbuf_v1_pair keys them, together
 * with the parent and name without #N as perfbuf_query_pair_by does: an
 * instance keeps its previous sample whatever others exit. Instances
 * without one pair by PDH's key. Names in the arrays stay PDH's. Before
 * the arena; INVALID_ARGUMENT for a counter not of q or a V2 query.
 * Replaces a key counter perfbuf_query_pair_by chose, and the reverse.
 * O(counters), as perfbuf_query_pair_by.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_pair_by_unique_id(
    perfbuf_query *q, perfbuf_query_counter *c, perfbuf_error *err);

/*
 * Gives the query its arena, as PdhGetFormattedCounterArray takes a buffer:
 * `arena` NULL asks, OUTPUT_TOO_SMALL with *bytes the least arena (the
 * tables' indexes, the list of counters and what the query keeps); a
 * collection may ask for more (perfbuf_query_collect). An arena of *bytes
 * bytes, aligned to 8, serves until the next call. The first time, the
 * query builds the tables' indexes at its start (a V2 query: the order of
 * registrations whose ids are out of order, then resolves every counter's
 * path once); afterwards the arena must begin with the previous arena's
 * bytes, as realloc leaves them (or a copy of them): one that does not
 * (its first bytes are not this query's seal) is INVALID_ARGUMENT, the
 * query unchanged. No counter's path or key text may lie in the arena
 * (the collections write it): INVALID_ARGUMENT. OUTPUT_TOO_SMALL, *bytes
 * the least size, when it is smaller than what the query keeps. Linear in
 * the tables the first time, then O(counters).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_arena(perfbuf_query *q, void *arena,
                                                                size_t *bytes, perfbuf_error *err);

/*
 * The arena one kept item and one kept instance take, the instance's
 * names besides (perfbuf_query_collect, docs/collector.md). Constants of
 * the arena's bound: fuzzing budgets count the work of a collection by
 * the items it gives times PERFBUF_QUERY_ITEM_BYTES.
 */
#define PERFBUF_QUERY_ITEM_BYTES 128u
#define PERFBUF_QUERY_INSTANCE_BYTES 64u
#define PERFBUF_QUERY_PARENT_BYTES 64u

/*
 * Collects one capture of the query's format. A V2 query takes V2 query
 * data (perfbuf_v2_query_parse, with the query's options: by default
 * lenient, the default limits, see perfbuf_query_options): each counter's
 * block is the one at its registration's position, its items those
 * perfbuf_v2_raw_array gives (the instance name with #N among instances of
 * one InstanceId and name), paired by InstanceId, name and #N as
 * perfbuf_v2_pair pairs; a missing block, or one with a non-zero
 * dwStatus, is PERFBUF_CSTATUS_NO_OBJECT; the rest is as below. A buffer
 * of the other format is PERFBUF_E_BAD_SIGNATURE at offset 0 naming
 * PERF_DATA_BLOCK's Signature, which V1 blocks begin with and V2 query
 * data cannot.
 *
 * A V1 query takes a V1 capture (perfbuf_v1_parse, with the query's
 * options likewise). Its computer name (PERF_DATA_BLOCK's SystemName) must
 * be the previous capture's, ASCII letters case-insensitively: a capture
 * of another computer is PERFBUF_E_MACHINE_CHANGED at the name's offset
 * and changes nothing (a query's rates are of one computer; open another
 * query for another). Each counter's object and counter are found by the
 * title indexes its path resolved to (perfbuf_query_add) in every object
 * of that title, in block order (a block may repeat a title: each item's
 * `object` says which; instances of a later object of the title are
 * PERFBUF_PAIR_UNPAIRED, since no key tells which of two objects of one
 * title is which in another capture); the instances its path selects in
 * the first such object are paired with the previous capture's by PDH's
 * key "parent/name#N" (ASCII letters case-insensitively, as PDH compares
 * names) or the key perfbuf_query_pair_by chose, and only when the two
 * samples are of the same object, counter, type and size (and base, for a
 * type that has one): otherwise PERFBUF_PAIR_DEFINITION_CHANGED without
 * the older sample. Their raw samples and names are kept in the arena, so
 * the caller may reuse the capture's buffer as soon as the call returns.
 * PERFBUF_CSTATUS_NO_OBJECT or _NO_COUNTER in a counter's status when the
 * capture lacks them (its arrays then answer NOT_FOUND),
 * PERFBUF_CSTATUS_NO_INSTANCE when the path names an instance (no
 * wildcard or prefix) that the capture lacks (its arrays are then empty,
 * as they are for a wildcard that selects nothing),
 * PERFBUF_CSTATUS_NO_MACHINE when the path's machine part is not the
 * capture's computer.
 *
 * The capture must not share a byte with memory the collection writes
 * (the arena, the query, its counters): INVALID_ARGUMENT, checked before
 * anything is read, O(counters). The query's list of counters is checked
 * too (each is still this query's, in its place): INVALID_ARGUMENT
 * otherwise.
 *
 * *err (may be NULL) holds the status returned and, for a rejected
 * capture, where and why (the parse's report: a capture over one of the
 * query's limits is LIMIT_EXCEEDED with the declared count and the
 * limit). A rejected capture changes nothing, and so does
 * OUTPUT_TOO_SMALL: *needed (may be NULL) is then an arena size that is
 * enough for this capture, worked out before anything is written;
 * collecting again after perfbuf_query_arena gave that arena succeeds.
 * Before the query has an arena, *needed is the least one. The arena a
 * capture needs is at most what is kept of the last capture, plus the
 * tables of this one: PERFBUF_QUERY_INSTANCE_BYTES per instance (or
 * single counter block) of each object a counter names, three bytes of
 * UTF-8 per byte of their names, PERFBUF_QUERY_PARENT_BYTES per instance
 * and three per byte of the block when those objects name parents, and
 * its computer name; PERFBUF_QUERY_ITEM_BYTES per item the counters can
 * select (each object's instances, times its displayable counters for a
 * counter "*" or its definitions for a counter of every definition), and
 * scratch of 12 bytes per slot of the block index and 16 per instance of
 * the largest object (docs/collector.md gives the measured ratios).
 * O(counters x (objects + definitions) + capture + i log i) for i
 * instances and items.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_collect(perfbuf_query *q,
                                                                  const void *capture,
                                                                  size_t len, size_t *needed,
                                                                  perfbuf_error *err);

/*
 * PdhGetFormattedCounterArray: one item per instance of the last capture
 * that the counter's path selects, in buffer order (for a counter "*":
 * each instance's items together, one per displayable counter in
 * definition order), each value perfbuf_format_value of the last sample
 * with the previous capture's sample of the same instance; an instance
 * that has none (the first capture, a new instance, a changed definition)
 * is formatted without it, so a two-sample type gives
 * PERFBUF_CSTATUS_INVALID_DATA as PDH does for a first sample; a sample
 * that could not be read (a base counter's type, which has no formula)
 * keeps its own status, as the arrays of perfbuf/collector.h give it.
 *
 * Names: each item's "parent/name#N" (a single-instance object's: empty)
 * is written into `names`, NUL-terminated, once per instance (the items of
 * one instance point at one name); the parent's part is cut after the
 * last whole UTF-8 character within PERFBUF_ARRAY_PARENT_MAX_BYTES, as
 * the arrays of perfbuf/collector.h cut it. names may be NULL with
 * *name_bytes 0: the items then have no names (NULL, 0). The names stay
 * the caller's.
 *
 * On entry *count and *name_bytes are the capacities of items and names
 * (0 with NULL to ask); on return the items and name bytes the answer
 * needs (both exact). OUTPUT_TOO_SMALL, nothing written, when either is
 * too small (names only when given). NOT_FOUND when the last collection
 * did not fill the counter (see its status). INVALID_ARGUMENT for a
 * counter not of q. O(items + name bytes written).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_formatted_array(
    const perfbuf_query *q, const perfbuf_query_counter *c, uint32_t flags,
    perfbuf_formatted_item *items, size_t *count, char *names, size_t *name_bytes,
    perfbuf_error *err);

/* PdhGetRawCounterArray: the same items with both raw samples. */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_raw_array(
    const perfbuf_query *q, const perfbuf_query_counter *c, perfbuf_raw_item *items,
    size_t *count, char *names, size_t *name_bytes, perfbuf_error *err);

/* Which instances perfbuf_query_instances lists. */
#define PERFBUF_QUERY_APPEARED 1u /* in the last capture, not in the one before */
#define PERFBUF_QUERY_EXITED   2u /* in the capture before, not in the last */

/* What identifies a listed instance besides its name (perfbuf_query_instance.identity). */
#define PERFBUF_QUERY_IDENTITY_NAME        0u /* PDH's key alone: its name is its key */
#define PERFBUF_QUERY_IDENTITY_KEY_COUNTER 1u /* the key counter's value (perfbuf_query_pair_by) */
#define PERFBUF_QUERY_IDENTITY_UNIQUE_ID   2u /* its UniqueID (perfbuf_query_pair_by_unique_id) */
#define PERFBUF_QUERY_IDENTITY_INSTANCE_ID 3u /* its V2 InstanceId */

/* An instance that appeared or exited. */
typedef struct perfbuf_query_instance {
    const char *name;     /* "parent/name#N" in its own capture, as the arrays name it */
    size_t name_len;
    uint32_t position;    /* among its object's instances in its own capture */
    uint32_t object;      /* its object's position in its own capture */
    uint32_t object_title; /* V1: its object's title index; V2: 0 */
    uint32_t identity;    /* PERFBUF_QUERY_IDENTITY_* */
    uint64_t key;         /* the key counter's value, UniqueID or InstanceId */
} perfbuf_query_instance;

/*
 * The instances of the counter that appeared in the last capture or exited
 * since the one before (`which`), in buffer order of their own capture,
 * each once (also under a counter "*": an instance appeared when none of
 * its items paired, exited when none of its older items was paired by the
 * last capture). Each is named as the arrays name it in its own capture,
 * and carries its key when the counter pairs by one (the key counter's
 * value, the UniqueID, the V2 InstanceId), so a process that exited is
 * told by its own name and key, never by the name another process holds
 * now. Names as for the arrays (optional, the caller's buffer);
 * the two-call protocol of the arrays. Nothing appears or exits before two
 * captures were collected. Items of a later object of a repeated title
 * (PERFBUF_PAIR_UNPAIRED) are never listed. O(items of both captures +
 * name bytes written).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_instances(
    const perfbuf_query *q, const perfbuf_query_counter *c, uint32_t which,
    perfbuf_query_instance *list, size_t *count, char *names, size_t *name_bytes,
    perfbuf_error *err);


/* ---- what the last collection resolved ---- */

/* Which title perfbuf_query_title gives. */
#define PERFBUF_QUERY_TITLE_OBJECT  1u
#define PERFBUF_QUERY_TITLE_COUNTER 2u

/*
 * The object or the counter (`which`) that c's path was resolved to, as
 * the capture carries it: *title_index its title index, and its text in
 * `language` (the English table, or the localized one the query was
 * opened with) as UTF-8 in out (perfbuf_title_text_utf8's contract: *len
 * the bytes written without the NUL, or OUTPUT_TOO_SMALL with *len a size
 * that is enough). A path matches a title in either language and ASCII
 * letters case-insensitively, so a caller that names its results, as
 * typeperf's CSV header does, takes the title from here rather than from
 * the path. out may be NULL (cap 0) to ask for *len. NOT_FOUND,
 * *title_index 0, when the arrays answer NOT_FOUND (c's status says why),
 * and for a counter "*" or of every definition's counter (its items each
 * name their own: perfbuf_formatted_item.counter); NOT_FOUND with
 * *title_index set when the language's table lacks the title or was not
 * given. INVALID_ARGUMENT for another `which` or language, a counter not
 * of q, and for a query opened on V2 registrations (it has no Counter
 * tables: its paths name countersets and counters by GUID, name or id).
 * O(log t) plus the text, for t titles in the table.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_query_title(
    const perfbuf_query *q, const perfbuf_query_counter *c, uint32_t which,
    perfbuf_language language, uint32_t *title_index, char *out, size_t cap, size_t *len,
    perfbuf_error *err);

#ifdef __cplusplus
}
#endif

#endif
