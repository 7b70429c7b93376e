/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The V1 registry format: what RegQueryValueEx(HKEY_PERFORMANCE_DATA, ...)
 * returns, and what remote registry and SMB tools fetch.
 *
 *   perfbuf_v1_parse() validates the whole data block; only after it returns
 *   PERFBUF_OK do the views below exist, and they cannot fail.
 *
 * Layout (docs/v1.md): PERF_DATA_BLOCK (system name inside its header),
 * then NumObjectTypes objects, each PERF_OBJECT_TYPE + NumCounters
 * PERF_COUNTER_DEFINITION + either one PERF_COUNTER_BLOCK (NumInstances -1),
 * nothing (-2, -3: metadata only) or NumInstances pairs of
 * PERF_INSTANCE_DEFINITION (with its name) and PERF_COUNTER_BLOCK.
 */
#ifndef PERFBUF_V1_H
#define PERFBUF_V1_H

#include "perfbuf/common.h"
#include "perfbuf/values.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PERFBUF_V1_NO_INSTANCES -1
#define PERFBUF_V1_METADATA_MULTIPLE_INSTANCES -2
#define PERFBUF_V1_METADATA_NO_INSTANCES -3

/* A validated data block. */
typedef struct perfbuf_v1_block {
    const uint8_t *data;
    size_t received;
    size_t size;              /* TotalByteLength: the bytes walked */
    uint32_t version, revision;
    size_t header_length;     /* offset of the first object */
    uint32_t object_count;    /* objects present (lenient: may be < declared) */
    uint32_t declared_object_count; /* NumObjectTypes */
    int32_t default_object;
    perfbuf_systemtime system_time;
    int64_t perf_time, perf_freq, perf_time_100ns;
    size_t system_name_offset;
    size_t system_name_units; /* UTF-16 units before the NUL or the span's end */
    size_t index_slots;       /* entries perfbuf_v1_block_index_build needs */
    uint32_t anomalies;
    perfbuf_error first_anomaly;
    /* The identity of this parse, never 0: a hash of the bytes' address, of
     * the header that tells one capture from the next (TotalByteLength,
     * SystemTime, PerfTime, PerfFreq, PerfTime100nSec, the object and
     * instance counts), and of every object header and instance definition
     * (lengths, parents, names) as validation walked them. Counter blocks
     * and indexes carry it; value reads and index calls compare it. */
    uint64_t parse_id;
} perfbuf_v1_block;

typedef struct perfbuf_v1_object {
    uint32_t index;
    size_t offset;
    size_t total_length, definition_length, header_length;
    uint32_t name_title_index, help_title_index, detail_level;
    uint32_t counter_count;
    int32_t default_counter;
    int32_t num_instances;    /* as in the buffer: -1, -2, -3 or a count */
    uint32_t instance_count;  /* instances present: max(num_instances, 0) */
    uint32_t code_page;
    int64_t perf_time, perf_freq;
    size_t definitions_offset;
    size_t data_offset;       /* first instance or the single counter block */
} perfbuf_v1_object;

typedef struct perfbuf_v1_counter {
    uint32_t index;
    size_t offset;
    uint32_t byte_length;
    uint32_t name_title_index, help_title_index;
    int32_t default_scale;
    uint32_t detail_level;
    uint32_t type;            /* CounterType; see counter_types.h */
    uint32_t size;            /* CounterSize */
    uint32_t counter_offset;  /* from the start of each PERF_COUNTER_BLOCK */
} perfbuf_v1_counter;

/*
 * A PERF_COUNTER_BLOCK: every counter of its object lies inside it. Only
 * the views make one (perfbuf_v1_instances_next, perfbuf_v1_object_counter_block,
 * perfbuf_v1_index_get, perfbuf_v1_parent, perfbuf_v1_find_instance), and it
 * belongs to the parse they read: a value read (perfbuf_v1_counter_value,
 * perfbuf_v1_counter_bytes, perfbuf_v1_raw_sample, perfbuf_v1_plan_*)
 * accepts a counter block only when its parse_id is the block's and the
 * four bytes at its offset are a ByteLength equal to its byte_length, so
 * another capture's counter block (the two-sample slip: the newer
 * instance's `counters` passed with the older block), a block of the same
 * buffer before it was filled and parsed again, or one the caller moved or
 * resized is a documented failure, never a value read from where no
 * counter block starts. Two parses of identical headers at one address are
 * one parse to this check; the ByteLength must still be there.
 */
typedef struct perfbuf_v1_counter_block {
    size_t offset;
    uint32_t byte_length;
    uint64_t parse_id;        /* the perfbuf_v1_block.parse_id it was read from */
} perfbuf_v1_counter_block;

typedef struct perfbuf_v1_instance {
    uint32_t index;
    size_t offset;
    uint32_t byte_length;
    uint32_t parent_title_index;
    uint32_t parent_instance;
    int32_t unique_id;
    size_t name_offset;
    size_t name_bytes;        /* before the terminator (NUL unit, or NUL byte) */
    uint32_t code_page;       /* the object's */
    perfbuf_v1_counter_block counters;
} perfbuf_v1_instance;

typedef struct perfbuf_v1_iter {
    size_t pos;
    size_t end;
    uint32_t next_index;
    uint32_t count;
    uint32_t code_page;       /* instances: the object's CodePage */
} perfbuf_v1_iter;

PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_parse(const void *data, size_t received,
                                                             const perfbuf_options *opts,
                                                             perfbuf_v1_block *out,
                                                             perfbuf_error *err);

PERFBUF_API void perfbuf_v1_objects_begin(const perfbuf_v1_block *b, perfbuf_v1_iter *it);
PERFBUF_API bool perfbuf_v1_objects_next(const perfbuf_v1_block *b, perfbuf_v1_iter *it,
                                         perfbuf_v1_object *out);
/* The first object whose ObjectNameTitleIndex is title_index. */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_find_object(const perfbuf_v1_block *b,
                                                                   uint32_t title_index,
                                                                   perfbuf_v1_object *out);

PERFBUF_API void perfbuf_v1_counters_begin(const perfbuf_v1_object *o, perfbuf_v1_iter *it);
PERFBUF_API bool perfbuf_v1_counters_next(const perfbuf_v1_block *b, perfbuf_v1_iter *it,
                                          perfbuf_v1_counter *out);

/* The single counter block of an object with NumInstances -1; false otherwise. */
PERFBUF_API bool perfbuf_v1_object_counter_block(const perfbuf_v1_block *b,
                                                 const perfbuf_v1_object *o,
                                                 perfbuf_v1_counter_block *out);

PERFBUF_API void perfbuf_v1_instances_begin(const perfbuf_v1_object *o, perfbuf_v1_iter *it);
PERFBUF_API bool perfbuf_v1_instances_next(const perfbuf_v1_block *b, perfbuf_v1_iter *it,
                                           perfbuf_v1_instance *out);

/*
 * A counter's raw value in a counter block: CounterSize 4 is zero-extended,
 * 8 read whole; other sizes read as 0 (use perfbuf_v1_counter_bytes).
 * 0 as well when block is not a counter block of b (see
 * perfbuf_v1_counter_block) or the counter does not lie inside it: a
 * caller that must tell a foreign block from a value of 0 asks
 * perfbuf_v1_counter_bytes, which is NULL then.
 */
PERFBUF_API uint64_t perfbuf_v1_counter_value(const perfbuf_v1_block *b,
                                              const perfbuf_v1_counter_block *block,
                                              const perfbuf_v1_counter *counter);
/* The counter's CounterSize bytes inside the caller's buffer; NULL when
 * CounterSize is 0, when block is not a counter block of b, or when the
 * counter does not lie inside it. */
PERFBUF_API const uint8_t *perfbuf_v1_counter_bytes(const perfbuf_v1_block *b,
                                                    const perfbuf_v1_counter_block *block,
                                                    const perfbuf_v1_counter *counter);

/* The computer name as UTF-8 (text.h contract). */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_system_name_utf8(const perfbuf_v1_block *b,
                                                                        char *out, size_t cap,
                                                                        size_t *len);

/*
 * The instance name as UTF-8: UTF-16LE when the object's CodePage is 0,
 * converted from 1252, 65001 and 20127; any other code page gives
 * PERFBUF_E_UNKNOWN_VALUE (take the bytes from perfbuf_v1_instance_name_bytes).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_instance_name_utf8(
    const perfbuf_v1_block *b, const perfbuf_v1_instance *inst, char *out, size_t cap,
    size_t *len);
PERFBUF_API const uint8_t *perfbuf_v1_instance_name_bytes(const perfbuf_v1_block *b,
                                                          const perfbuf_v1_instance *inst);

/*
 * Random access to instances, and parents in linear total time. Two forms:
 *   - one object (perfbuf_v1_index_build): one size_t per instance of it,
 *     for perfbuf_v1_index_get (the i-th instance in O(1));
 *   - the whole block (perfbuf_v1_block_index_build): b->index_slots
 *     entries; every parent of every object is found in O(log objects),
 *     with its name's length, so a long parent name shared by many children
 *     is never scanned again.
 * Parent lookups (perfbuf_v1_parent, perfbuf_v1_full_name_utf8,
 * perfbuf_v1_find_instance) take the block form. Passed the one-object
 * form, they answer PERFBUF_E_SCRATCH_NEEDED for an instance that has a
 * parent: that form cannot give a parent's name without scanning it, and
 * naming every child of a long-named parent would grow with their product.
 * Passed NULL, each such lookup walks the block (O(n)): fine for one
 * instance; a caller naming many builds the block form once.
 *
 * An index records the parse it was built from (the data pointer and
 * b->parse_id): every call taking one refuses an index of another parse
 * with PERFBUF_E_INVALID_ARGUMENT, including one built on an earlier
 * capture received into the same buffer, so a stale index finds nothing
 * rather than something wrong. Two captures agreeing on the buffer's
 * address, TotalByteLength, PerfTime, PerfTime100nSec and SystemTime cannot
 * be told apart; Windows' clocks advance between two queries.
 */
typedef struct perfbuf_v1_instance_index {
    perfbuf_v1_object object;  /* one-object form: the object indexed */
    const size_t *offsets;
    uint32_t count;
    const uint64_t *slots;     /* block form; NULL in the one-object form */
    size_t slot_count;
    uint32_t object_count;
    const uint8_t *block_data; /* the parse indexed: its data and parse_id */
    uint64_t parse_id;
    /* Block form: NULL until perfbuf_v1_block_index_classes fills it. */
    const uint64_t *name_classes;
} perfbuf_v1_instance_index;

/* Fills offsets[0 .. instance_count) in one pass; OUTPUT_TOO_SMALL if cap
 * is less than the object's instance count. */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_index_build(
    const perfbuf_v1_block *b, const perfbuf_v1_object *o, size_t *offsets, size_t cap,
    perfbuf_v1_instance_index *out);
/* Indexes every object of the block in O(n log objects): slots must hold
 * b->index_slots entries (OUTPUT_TOO_SMALL otherwise) and outlive *out. */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_block_index_build(
    const perfbuf_v1_block *b, uint64_t *slots, size_t cap, perfbuf_v1_instance_index *out);
/*
 * Name classes for "parent/name" lookups (perfbuf_v1_find_instance): gives
 * every instance of the block the slot of the first instance in the block
 * whose name is equal to its own as lookups compare names (decoded, ASCII
 * case-insensitive), so that a lookup compares the query's parent part
 * with names once per call, not once per candidate. `index` must be the
 * block form of this parse (INVALID_ARGUMENT otherwise); classes must hold
 * index->slot_count entries (OUTPUT_TOO_SMALL otherwise) and outlive
 * *index, which records them. The names are sorted in classes (heapsort:
 * no recursion, no allocation), O((name bytes + instances) x log2
 * instances); a separate call, because every other user of the block index
 * (parents, full names, pairing) would pay that sort for nothing.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_block_index_classes(
    const perfbuf_v1_block *b, perfbuf_v1_instance_index *index, uint64_t *classes, size_t cap);
/* The i-th instance of the one-object form's object: O(1) plus a scan of
 * its name. INVALID_ARGUMENT for an index of another parse or the block form. */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_index_get(
    const perfbuf_v1_block *b, const perfbuf_v1_instance_index *index, uint32_t i,
    perfbuf_v1_instance *out);

/*
 * The parent of an instance: the ParentObjectInstance-th instance of the
 * object whose ObjectNameTitleIndex is ParentObjectTitleIndex.
 *   NOT_FOUND      no parent (title index 0) or the parent object is not in
 *                  this block (Windows leaves it out unless it was asked for);
 *   BAD_REFERENCE  the parent index is out of range, or names the instance
 *                  itself;
 *   SCRATCH_NEEDED parent_index is the one-object form (see above);
 *   INVALID_ARGUMENT o or inst is not of this block, or parent_index is an
 *                  index of another parse.
 * With the block index the call is O(log objects); with NULL, one walk of
 * the block, O(objects + instances). *err (may be NULL) names the field of
 * a BAD_REFERENCE.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_parent(
    const perfbuf_v1_block *b, const perfbuf_v1_object *o, const perfbuf_v1_instance *inst,
    const perfbuf_v1_instance_index *parent_index, perfbuf_v1_instance *parent,
    perfbuf_error *err);

/*
 * The display name "parent/name" (or "name" without a parent), as Windows
 * tools show it. A BAD_REFERENCE parent is reported and the plain name
 * written; output follows the text.h contract, so with the block index a
 * call costs O(log objects) plus what the output holds, however long the
 * parent's name. parent_index as for perfbuf_v1_parent: SCRATCH_NEEDED
 * (and an empty name) for the one-object form and an instance with a
 * parent; INVALID_ARGUMENT (and an empty name) when o or inst is not of
 * this block or the index is of another parse.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_full_name_utf8(
    const perfbuf_v1_block *b, const perfbuf_v1_object *o, const perfbuf_v1_instance *inst,
    const perfbuf_v1_instance_index *parent_index, char *out, size_t cap, size_t *len);

/*
 * Every instance's full name of one object in one call: the text
 * perfbuf_v1_full_name_utf8 gives each instance, written one after the
 * other into out (each with its NUL), names[i] saying where the i-th
 * instance's is. A parent's name is converted once per call and copied
 * (memcpy from the output written so far) for each further child of it:
 * with scratch, whatever the order of the children; without (NULL, 0),
 * for consecutive children of one parent only (each other child converts
 * it again, still linear in the output). scratch, when given, needs the
 * block form and parent_index->slot_count entries (INVALID_ARGUMENT
 * otherwise), and no clearing: an entry is trusted only when it names a
 * record this call wrote earlier for the same parent, so any contents
 * give the same text.
 *
 * One difference from perfbuf_v1_full_name_utf8: a parent's part is cut
 * after the last whole UTF-8 character within
 * PERFBUF_V1_FULL_NAME_PARENT_MAX_BYTES (the rule PDH-style arrays follow,
 * PERFBUF_ARRAY_PARENT_MAX_BYTES), and the record says so
 * (PERFBUF_V1_FULL_NAME_PARENT_CUT). Without the cut, children alternating
 * among long parents would make the output grow with the product of their
 * numbers; with it the output is at most PERFBUF_V1_FULL_NAMES_BYTES_PER_BYTE
 * bytes per byte of the object: an instance takes at least 28 bytes
 * (PERF_INSTANCE_DEFINITION and a counter block's ByteLength) and its full
 * name at most the parent's part, '/', its NUL and three bytes per byte of
 * its own name, which lies inside it: (3,072 + 2) / 28 < 110.
 *
 * Two calls: names must hold o->instance_count records and out *needed
 * bytes; when either is short the call answers PERFBUF_E_OUTPUT_TOO_SMALL
 * (out then holds an empty string, the records nothing to use) and
 * *needed is a size that is enough (the bytes written before the
 * shortfall, then each remaining name's bound: three bytes per UTF-16
 * unit or code-page byte, the parent's part at most the cut), found
 * without converting. On success *needed is the bytes written.
 * O(the object's bytes + the output + instances x log objects), no
 * allocation.
 *
 * Statuses, as perfbuf_v1_full_name_utf8's: INVALID_ARGUMENT when o is not
 * of b or parent_index is of another parse; UNKNOWN_VALUE when o's code
 * page is not converted (nothing written); SCRATCH_NEEDED when an instance
 * has a parent and parent_index is not the block form, NULL included (a
 * walk of the block per child would make the call quadratic); a parent
 * out of range gives the plain name, PERFBUF_V1_FULL_NAME_BAD_PARENT in its
 * record and PERFBUF_E_BAD_REFERENCE once every name is written.
 */
#define PERFBUF_V1_FULL_NAME_PARENT_MAX_BYTES 3072u
#define PERFBUF_V1_FULL_NAMES_BYTES_PER_BYTE 110u
#define PERFBUF_V1_FULL_NAME_NO_PARENT UINT32_MAX
#define PERFBUF_V1_FULL_NAME_BAD_PARENT 1u /* the parent is out of range: the plain name */
#define PERFBUF_V1_FULL_NAME_PARENT_CUT 2u /* the parent's part was cut at the maximum */

typedef struct perfbuf_v1_full_name {
    size_t offset;            /* the name's first byte in out; a NUL follows it */
    size_t length;            /* its bytes before the NUL */
    size_t parent_length;     /* of those, the parent's part before '/'; 0 without one */
    uint32_t parent_slot;     /* the parent's slot in the block index, or NO_PARENT */
    uint32_t flags;           /* PERFBUF_V1_FULL_NAME_* */
} perfbuf_v1_full_name;

PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_full_names_object(
    const perfbuf_v1_block *b, const perfbuf_v1_object *o,
    const perfbuf_v1_instance_index *parent_index, size_t *scratch, size_t scratch_count,
    perfbuf_v1_full_name *names, size_t count, char *out, size_t cap, size_t *needed);

/*
 * Finds an instance by "name", "parent/name" or either with "#N" (the
 * N+1-th instance of that name; "svchost#3" is the fourth svchost), ASCII
 * case-insensitive as Windows compares them. O(the object's bytes + the
 * query's length): each comparison stops within the instance's own name.
 * A "parent/" query on an object whose instances have parents needs the
 * block index with its name classes (perfbuf_v1_block_index_classes):
 * the parent part is then compared once with the names of the block, in
 * one pass that stops at the first equal name, and each candidate's parent
 * matches when its class is that name's, in O(log objects), so the call
 * is O(the block's bytes + the query's length + candidates x log
 * objects). Without that index the parent of every candidate would be a
 * walk of the block, a scan of its name (one-object form) or a comparison
 * with the query (block form without classes), so the call returns
 * PERFBUF_E_SCRATCH_NEEDED instead. INVALID_ARGUMENT for an index of
 * another parse.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_find_instance(
    const perfbuf_v1_block *b, const perfbuf_v1_object *o, const char *query, size_t query_len,
    const perfbuf_v1_instance_index *parent_index, perfbuf_v1_instance *out);

/*
 * The raw sample of one counter in one counter block, ready for
 * perfbuf_format_value: first = the counter's value; second = the clock
 * its type's time base names (the block's PerfTime or PerfTime100nSec, or
 * the object's PerfTime) or, for types with a base, the next definition's
 * value; multi = the following PERF_COUNTER_MULTI_BASE value (saturated to
 * 32 bits). *context gets the matching frequency (10,000,000 for 100-ns
 * types) and the definition's DefaultScale. NOT_FOUND when a base or multi
 * counter the type needs is missing (a lenient parse may have let that by);
 * INVALID_ARGUMENT when the type has no displayable value, when o is not
 * of this block, or when block is not one of b's counter blocks in o's
 * data (another parse's, or not where a PERF_COUNTER_BLOCK of that
 * ByteLength starts: see perfbuf_v1_counter_block); the block is checked
 * before the definition, so a foreign block is INVALID_ARGUMENT whatever
 * the counter.
 *
 * `counter` may come from another capture of the same object (the usual
 * two-sample pattern): the definition used is o's own, the one at the same
 * position with the same title index and type, or else the first with that
 * title index, so a layout that moved between captures is read where it
 * is in this one. NOT_FOUND when o has no counter of that title index;
 * INCONSISTENT when o's has another type: a value is never read
 * through a definition of another block. O(1) when `counter` is o's own
 * or sits at the same offset in a capture laid out the same (the usual
 * case); otherwise a walk of o's definitions, O(o's definitions) per call:
 * a collector reading every value of such a pair should take each
 * capture's own definitions.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_raw_sample(
    const perfbuf_v1_block *b, const perfbuf_v1_object *o, const perfbuf_v1_counter *counter,
    const perfbuf_v1_counter_block *block, perfbuf_raw_sample *sample,
    perfbuf_value_context *context);

/*
 * Value plans: what every counter of one object needs, resolved once per
 * object instead of once per value (its offset and size in a counter
 * block, the base or multi counter after it, its time base and scale), so
 * that reading a value costs a load and a formatted value a few loads and
 * the formula. The entries are the caller's memory: o->counter_count of
 * them, no heap; they must outlive the plan, which points at them.
 *
 * A plan belongs to the parse it was built from: its bytes (data and size),
 * its PerfTime and PerfTime100nSec and its parse_id. A counter block is used
 * only when that parse is the one passed, the block is a counter block of
 * that parse (its parse_id, and its ByteLength at its offset: see
 * perfbuf_v1_counter_block), lies in the planned object's data, and is at
 * least as long as the plan's reach (the furthest counter's end, which
 * validation proved every counter block of the object reaches). Anything
 * else is INVALID_ARGUMENT: a plan of one capture never reads another
 * capture's bytes through its own layout. The checks cost O(1) per call,
 * not per value. Build one plan per
 * capture; perfbuf_v1_plan_format pairs them by position and refuses
 * (INCONSISTENT) a counter whose title index or type differs between them.
 */
#define PERFBUF_V1_PLAN_VALUE 0u          /* the value alone */
#define PERFBUF_V1_PLAN_BASE 1u           /* + the next definition's base value */
#define PERFBUF_V1_PLAN_MULTI 2u          /* + the next PERF_COUNTER_MULTI_BASE */
#define PERFBUF_V1_PLAN_MISSING_BASE 3u   /* the base it needs is not there: NOT_FOUND */
#define PERFBUF_V1_PLAN_UNDISPLAYABLE 4u  /* no formula: INVALID_ARGUMENT */

typedef struct perfbuf_v1_plan_entry {
    uint32_t title_index;     /* CounterNameTitleIndex */
    uint32_t type;            /* CounterType */
    uint32_t offset;          /* CounterOffset */
    uint32_t size;            /* CounterSize: 4 and 8 are read, other sizes read as 0 */
    uint32_t base_offset;     /* the next definition's, for BASE and MULTI */
    uint32_t base_size;
    int32_t scale;            /* DefaultScale */
    uint8_t time_base;        /* perfbuf_time_base */
    uint8_t pairing;          /* PERFBUF_V1_PLAN_* */
    uint16_t reserved;        /* 0 */
    perfbuf_prepared_formula formula; /* the type's, for perfbuf_format_prepared */
} perfbuf_v1_plan_entry;

typedef struct perfbuf_v1_plan {
    const uint8_t *data;      /* the parse it belongs to */
    size_t size;
    uint64_t parse_id;
    int64_t perf_time, perf_time_100ns;
    size_t data_offset;       /* the object's counter blocks lie in [data_offset, data_end) */
    size_t data_end;
    uint64_t reach;           /* every planned read ends within this many bytes of a block */
    const perfbuf_v1_plan_entry *entries;
    uint32_t count;           /* the object's counters, in definition order */
    uint64_t clock[4];        /* per perfbuf_time_base: the sample's second value */
    uint64_t frequency[4];    /* and its frequency */
    /* A hash over every field above but `entries` (the pointer), and over
     * every entry, never 0: the whole-object calls recompute it, O(count)
     * once per call, so a plan or an entry changed since
     * perfbuf_v1_plan_build is refused before any value is read. */
    uint64_t seal;
} perfbuf_v1_plan;

/* One pass over o's definitions, then the seal. OUTPUT_TOO_SMALL when cap
 * is less than o->counter_count; INVALID_ARGUMENT when o is not of b. */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_plan_build(const perfbuf_v1_block *b,
                                                                  const perfbuf_v1_object *o,
                                                                  perfbuf_v1_plan_entry *entries,
                                                                  size_t cap,
                                                                  perfbuf_v1_plan *out);

/* values[k] = the k-th counter's raw value in block, as
 * perfbuf_v1_counter_value reads it; OUTPUT_TOO_SMALL when cap is less
 * than plan->count (nothing written then). */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_plan_read(
    const perfbuf_v1_plan *plan, const perfbuf_v1_block *b, const perfbuf_v1_counter_block *block,
    uint64_t *values, size_t cap);

/*
 * Every counter of every instance of the planned object o in one call:
 * values[i * plan->count + k] is the k-th counter's raw value in the i-th
 * instance's counter block (an object with NumInstances -1: one row, its
 * single block; -2 and -3: none), what perfbuf_v1_plan_read gives for that
 * block. The instances are walked by their ByteLengths: no instance view
 * is built and no name is measured. *needed is the cells the matrix takes
 * (rows x plan->count); OUTPUT_TOO_SMALL when cap is less (nothing
 * written then). INVALID_ARGUMENT when the plan is not of b's parse and
 * of o (perfbuf_v1_plan_read's identity, checked once per call), when o
 * is not an object of b, or when the plan is not sealed as
 * perfbuf_v1_plan_build left it (its seal, recomputed once per call over
 * the plan and every entry: a plan or entry changed by mistake since the
 * build is refused; the seal is a 64-bit hash, not a secret, and a seal
 * forged to match is outside this contract). A sealed plan's entries end
 * within its reach, which validation proved every counter block of o
 * reaches, so no value has a bounds check of its own: once per call
 * every entry's value and base are checked to end within the reach, and
 * each row's block is compared with the reach once, so reads stay in the
 * block whatever the plan holds (a forged seal gives wrong values, never
 * a read outside the row). The values are unspecified on
 * INVALID_ARGUMENT. O(o's counters + instances x counters).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_plan_read_object(
    const perfbuf_v1_plan *plan, const perfbuf_v1_block *b, const perfbuf_v1_object *o,
    uint64_t *values, size_t cap, size_t *needed);

/* The k-th counter's raw sample in block: what perfbuf_v1_raw_sample gives
 * for that counter of the planned object, statuses included. */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_plan_sample(
    const perfbuf_v1_plan *plan, const perfbuf_v1_block *b, const perfbuf_v1_counter_block *block,
    uint32_t k, perfbuf_raw_sample *sample, perfbuf_value_context *context);

/*
 * The k-th counter formatted from two captures (perfbuf_format_value with
 * the newer capture's context): value->status is the counter status.
 * INCONSISTENT when the two plans' k-th counters differ in title index or
 * type; otherwise the statuses of perfbuf_v1_plan_sample.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_plan_format(
    const perfbuf_v1_plan *newer, const perfbuf_v1_block *newer_b,
    const perfbuf_v1_counter_block *newer_block, const perfbuf_v1_plan *older,
    const perfbuf_v1_block *older_b, const perfbuf_v1_counter_block *older_block, uint32_t k,
    uint32_t flags, perfbuf_value *value);

/*
 * Every counter of the newer plan formatted from two captures' blocks into
 * values[0 .. newer->count): values[k] is what perfbuf_v1_plan_format gives
 * for k, with the statuses that call returns as counter statuses:
 * CSTATUS_INVALID_DATA where the plans' k-th counters differ (or the older
 * plan has none), CSTATUS_NO_COUNTER where a base is missing,
 * PDH_INVALID_ARGUMENT where the type has no displayable value. The blocks
 * are checked once: INVALID_ARGUMENT as for perfbuf_v1_plan_read,
 * OUTPUT_TOO_SMALL when cap is less than newer->count.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_plan_format_all(
    const perfbuf_v1_plan *newer, const perfbuf_v1_block *newer_b,
    const perfbuf_v1_counter_block *newer_block, const perfbuf_v1_plan *older,
    const perfbuf_v1_block *older_b, const perfbuf_v1_counter_block *older_block,
    uint32_t flags, perfbuf_value *values, size_t cap);

/*
 * Every counter of every instance of an object formatted from two
 * captures in one call, the instances paired by position: values[i *
 * newer->count + k] is what perfbuf_v1_plan_format_all gives for k with
 * the i-th instance's counter block of each capture (its counter statuses
 * included). Position is an instance's identity only when both captures
 * hold as many instances and the caller knows they are the same ones
 * (an object whose instances do not come and go, such as Processor):
 * INCONSISTENT when newer_o and older_o differ in NumInstances; a caller
 * whose instances may have changed pairs them by name (perfbuf_v1_pair in
 * perfbuf/collector.h) and formats each pair with
 * perfbuf_v1_plan_format_all. *needed, OUTPUT_TOO_SMALL and
 * INVALID_ARGUMENT as for perfbuf_v1_plan_read_object, for either plan.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_plan_format_object(
    const perfbuf_v1_plan *newer, const perfbuf_v1_block *newer_b,
    const perfbuf_v1_object *newer_o, const perfbuf_v1_plan *older,
    const perfbuf_v1_block *older_b, const perfbuf_v1_object *older_o, uint32_t flags,
    perfbuf_value *values, size_t cap, size_t *needed);

/*
 * perfbuf_v1_plan_format_object in the form a collector stores: for each
 * cell c = i * newer->count + k, values[c] is the as_double and
 * statuses[c] the compact code (PERFBUF_COMPACT_*, perfbuf/values.h) of
 * the status that perfbuf_v1_plan_format_object writes in its cell c,
 * for every flags: 9 bytes per value instead of a 32-byte perfbuf_value.
 * With a format of kind PERFBUF_FMT_DOUBLE that is the whole value (a
 * value whose status is not valid holds 0); with PERFBUF_FMT_LONG or
 * PERFBUF_FMT_LARGE the integer is not kept (take
 * perfbuf_v1_plan_format_object for it). Each column is one counter of
 * one type in every row, so its formula, clocks, frequency and scale are
 * taken once per 32 rows rather than per value. cap counts cells of
 * each matrix; *needed, OUTPUT_TOO_SMALL, INCONSISTENT and
 * INVALID_ARGUMENT as for perfbuf_v1_plan_format_object (values and
 * statuses unspecified then). No heap; O(both objects' counters +
 * instances x counters).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_plan_format_object_doubles(
    const perfbuf_v1_plan *newer, const perfbuf_v1_block *newer_b,
    const perfbuf_v1_object *newer_o, const perfbuf_v1_plan *older,
    const perfbuf_v1_block *older_b, const perfbuf_v1_object *older_o, uint32_t flags,
    double *values, uint8_t *statuses, size_t cap, size_t *needed);

#ifdef __cplusplus
}
#endif

#endif
