/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * PerfLib V2 metadata: what a consumer needs besides the query data.
 *   - counterset registration (PerfQueryCounterSetRegistrationInfo with
 *     PERF_REG_COUNTERSET_STRUCT): PERF_COUNTERSET_REG_INFO followed by its
 *     PERF_COUNTER_REG_INFO array;
 *   - the instance list (PerfEnumerateCounterSetInstances): a packed
 *     sequence of PERF_INSTANCE_HEADER blocks;
 *   - the counterset list (PerfEnumerateCounterSet): an array of GUIDs;
 *   - one counter's registration (PERF_REG_COUNTER_STRUCT);
 *   - the string results: one string (counterset name, help, English name,
 *     provider name), the provider GUID, and the per-counter string blocks
 *     (PERF_STRING_BUFFER_HEADER: names, help, English names);
 *   - the counter identifiers of PerfQueryCounterInfo;
 *   - a cross-check of a query-data buffer against a registration.
 * Each is validated whole before its view exists (docs/v2-metadata.md).
 */
#ifndef PERFBUF_V2_META_H
#define PERFBUF_V2_META_H

#include "perfbuf/common.h"
#include "perfbuf/v2_query.h"
#include "perfbuf/values.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PERFBUF_V2_NO_ID 0xFFFFFFFFu

/* PERF_COUNTERSET_REG_INFO.InstanceType values. */
#define PERFBUF_COUNTERSET_SINGLE_INSTANCE 0x00u
#define PERFBUF_COUNTERSET_MULTI_INSTANCES 0x02u
#define PERFBUF_COUNTERSET_SINGLE_AGGREGATE 0x04u
#define PERFBUF_COUNTERSET_MULTI_AGGREGATE 0x06u
#define PERFBUF_COUNTERSET_SINGLE_AGGREGATE_HISTORY 0x0Cu
#define PERFBUF_COUNTERSET_INSTANCE_AGGREGATE 0x16u

typedef struct perfbuf_v2_reginfo {
    const uint8_t *data;
    size_t size;
    perfbuf_guid counterset;
    uint32_t detail_level;
    uint32_t counter_count;
    uint32_t instance_type;
    uint32_t anomalies;
    perfbuf_error first_anomaly;
    /* How perfbuf_v2_reginfo_find finds an id in O(log n): the ids ascend,
     * or `order` (the caller's scratch of perfbuf_v2_reginfo_parse_indexed,
     * which must outlive the view) holds them sorted. Neither: at most
     * PERFBUF_V2_SMALL_SET counters, scanned. */
    bool ids_ascending;
    const uint64_t *order;
    size_t order_count;
} perfbuf_v2_reginfo;

/* Up to this many unordered ids or indexes are checked without scratch. */
#define PERFBUF_V2_SMALL_SET 32u

typedef struct perfbuf_v2_counter_reg {
    uint32_t index;            /* position in the array */
    size_t offset;
    uint32_t id;
    uint32_t type;             /* a counter type, counter_types.h */
    uint64_t attributes;       /* PERF_ATTRIB_* */
    uint32_t detail_level;
    int32_t default_scale;
    uint32_t base_id, perf_time_id, perf_freq_id, multi_id; /* or PERFBUF_V2_NO_ID */
    uint32_t aggregate;        /* PERF_AGGREGATE_* */
} perfbuf_v2_counter_reg;

/*
 * Validates a PERF_REG_COUNTERSET_STRUCT answer: the counter count against
 * the bytes, unique counter ids, every BaseCounterId / PerfTimeId /
 * PerfFreqId / MultiId either PERFBUF_V2_NO_ID or the id of a counter of the
 * set whose type can serve that role, documented values for the instance
 * type (an error) and for types, detail levels, scales, attributes and
 * aggregation (anomalies; errors under PERFBUF_STRICT).
 * When the counter ids ascend (as Windows lists them), or when there are
 * at most PERFBUF_V2_SMALL_SET counters, uniqueness is one pass and each
 * reference a binary search: O(n log n) in the counters, no pair compared.
 * Otherwise the ids must be sorted to be checked, and this call returns
 * PERFBUF_E_SCRATCH_NEEDED (naming the first CounterId out of order):
 * call perfbuf_v2_reginfo_parse_indexed with counter_count entries.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_reginfo_parse(const void *data,
                                                                     size_t size,
                                                                     const perfbuf_options *opts,
                                                                     perfbuf_v2_reginfo *out,
                                                                     perfbuf_error *err);

/*
 * The same, with scratch of `cap` entries for sorting unordered ids
 * (NumCounters of them suffice; OUTPUT_TOO_SMALL when fewer). The view
 * keeps a pointer to the scratch for its lookups: keep it unchanged while
 * the view is used.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_reginfo_parse_indexed(
    const void *data, size_t size, const perfbuf_options *opts, uint64_t *scratch, size_t cap,
    perfbuf_v2_reginfo *out, perfbuf_error *err);

/* The i-th counter (i < counter_count); false past the end. */
PERFBUF_API bool perfbuf_v2_reginfo_counter(const perfbuf_v2_reginfo *r, uint32_t i,
                                            perfbuf_v2_counter_reg *out);
/* The counter with that id; NOT_FOUND otherwise. O(log counters). */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_reginfo_find(const perfbuf_v2_reginfo *r,
                                                                    uint32_t id,
                                                                    perfbuf_v2_counter_reg *out);

/* The counterset list: size a multiple of 16, GUIDs decoded field by field. */
typedef struct perfbuf_v2_countersets {
    const uint8_t *data;
    size_t count;
} perfbuf_v2_countersets;

PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_countersets_parse(const void *data,
                                                                         size_t size,
                                                                         perfbuf_v2_countersets *out,
                                                                         perfbuf_error *err);
PERFBUF_API bool perfbuf_v2_countersets_get(const perfbuf_v2_countersets *l, size_t i,
                                            perfbuf_guid *out);

/* The instance list of PerfEnumerateCounterSetInstances. */
typedef struct perfbuf_v2_instance_list {
    const uint8_t *data;
    size_t size;
    uint32_t count;
    uint32_t anomalies;
    perfbuf_error first_anomaly;
} perfbuf_v2_instance_list;

typedef struct perfbuf_v2_listed_instance {
    uint32_t index;
    uint32_t id;
    size_t offset;
    size_t name_offset;
    size_t name_units;
} perfbuf_v2_listed_instance;

typedef struct perfbuf_v2_list_iter {
    size_t pos;
    uint32_t next_index;
} perfbuf_v2_list_iter;

PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_instance_list_parse(
    const void *data, size_t size, const perfbuf_options *opts, perfbuf_v2_instance_list *out,
    perfbuf_error *err);
PERFBUF_API void perfbuf_v2_instance_list_begin(perfbuf_v2_list_iter *it);
PERFBUF_API bool perfbuf_v2_instance_list_next(const perfbuf_v2_instance_list *l,
                                               perfbuf_v2_list_iter *it,
                                               perfbuf_v2_listed_instance *out);
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_listed_name_utf8(
    const perfbuf_v2_instance_list *l, const perfbuf_v2_listed_instance *inst, char *out,
    size_t cap, size_t *len);

/*
 * One counter's registration (PERF_REG_COUNTER_STRUCT): a single
 * PERF_COUNTER_REG_INFO. Its own fields are judged as in a counterset
 * (its CounterId not 0xFFFFFFFF, type, attributes, detail level, scale,
 * aggregation, Reserved); the ids it refers to cannot be, since the other
 * counters are not in the buffer.
 */
typedef struct perfbuf_v2_counter_answer {
    perfbuf_v2_counter_reg counter;
    uint32_t anomalies;
    perfbuf_error first_anomaly;
} perfbuf_v2_counter_answer;

PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_counter_reg_parse(
    const void *data, size_t size, const perfbuf_options *opts, perfbuf_v2_counter_answer *out,
    perfbuf_error *err);

/*
 * A single-string result (PERF_REG_COUNTERSET_NAME_STRING, _HELP_STRING,
 * PERF_REG_PROVIDER_NAME, PERF_REG_COUNTERSET_ENGLISH_NAME): UTF-16LE with a
 * NUL inside the buffer. Bytes after the NUL are an anomaly (TRAILING_BYTES).
 */
typedef struct perfbuf_v2_string {
    const uint8_t *data;
    size_t size;
    size_t units;              /* UTF-16 code units before the NUL */
    uint32_t anomalies;
    perfbuf_error first_anomaly;
} perfbuf_v2_string;

PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_string_parse(const void *data, size_t size,
                                                                    const perfbuf_options *opts,
                                                                    perfbuf_v2_string *out,
                                                                    perfbuf_error *err);
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_string_utf8(const perfbuf_v2_string *s,
                                                                   char *out, size_t cap,
                                                                   size_t *len);

/* PERF_REG_PROVIDER_GUID: exactly 16 bytes. */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_provider_guid_parse(const void *data,
                                                                           size_t size,
                                                                           perfbuf_guid *out,
                                                                           perfbuf_error *err);

/*
 * Where PERF_STRING_COUNTER_HEADER.dwOffset counts from. perflib.h and its
 * reference page say the start of the PERF_STRING_BUFFER_HEADER; MS-PCQ
 * 2.2.4.4 says the end of the string-header array. AUTO decides per buffer
 * (docs/v2-metadata.md): from the block start when no present offset points
 * into the headers, from the array end otherwise.
 */
typedef enum perfbuf_v2_string_origin {
    PERFBUF_V2_STRINGS_AUTO = 0,
    PERFBUF_V2_STRINGS_FROM_BLOCK = 1,
    PERFBUF_V2_STRINGS_FROM_ARRAY_END = 2
} perfbuf_v2_string_origin;

/* PERF_STRING_COUNTER_HEADER.dwOffset of a counter without a string. */
#define PERFBUF_V2_NO_STRING 0xFFFFFFFFu

/* A validated PERF_STRING_BUFFER_HEADER block. */
typedef struct perfbuf_v2_strings {
    const uint8_t *data;
    size_t size;                      /* dwSize: the bytes that were walked */
    uint32_t count;                   /* dwCounters */
    perfbuf_v2_string_origin origin;  /* the one used: never AUTO */
    size_t strings_offset;            /* 8 + 8 * count: where strings may start */
    uint32_t anomalies;
    perfbuf_error first_anomaly;
    /* How perfbuf_v2_strings_find finds an id: as in perfbuf_v2_reginfo. */
    bool ids_ascending;
    const uint64_t *order;
    size_t order_count;
} perfbuf_v2_strings;

typedef struct perfbuf_v2_counter_string {
    uint32_t index;            /* position among the string headers */
    size_t offset;             /* of its PERF_STRING_COUNTER_HEADER */
    uint32_t counter_id;
    bool present;              /* false when dwOffset is PERFBUF_V2_NO_STRING */
    size_t text_offset;        /* of the first code unit, when present */
    size_t units;              /* code units before the NUL; 0 when absent */
} perfbuf_v2_counter_string;

/*
 * Validates a string block: dwSize inside the received bytes and large
 * enough for dwCounters headers; counter ids unique; every present string at
 * or after the headers, starting inside dwSize and NUL-terminated before
 * it; and the present strings together, each with its NUL, no longer than
 * the bytes after the headers (OVERLAP otherwise, naming the dwOffset whose
 * string went past that). Strings that do not share bytes always pass; the
 * rule is what lets the walk, and every later walk of the view, read each
 * byte a bounded number of times when hostile headers all point into one
 * long string. Bytes after dwSize and a dwSize that is not a multiple of 8
 * are anomalies. A string may start at an odd offset: it is read byte by
 * byte. Ids are checked as perfbuf_v2_reginfo_parse checks counter ids:
 * linear when they ascend or are few, else PERFBUF_E_SCRATCH_NEEDED and
 * perfbuf_v2_strings_parse_indexed sorts them in n log n.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_strings_parse(
    const void *data, size_t size, perfbuf_v2_string_origin origin, const perfbuf_options *opts,
    perfbuf_v2_strings *out, perfbuf_error *err);
/* With scratch of `cap` entries (dwCounters suffice) kept by the view. */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_strings_parse_indexed(
    const void *data, size_t size, perfbuf_v2_string_origin origin, const perfbuf_options *opts,
    uint64_t *scratch, size_t cap, perfbuf_v2_strings *out, perfbuf_error *err);
/* The i-th string header (i < count); false past the end. */
PERFBUF_API bool perfbuf_v2_strings_get(const perfbuf_v2_strings *s, uint32_t i,
                                        perfbuf_v2_counter_string *out);
/* The string of that counter id; NOT_FOUND otherwise. O(log count + its length). */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_strings_find(const perfbuf_v2_strings *s,
                                                                    uint32_t counter_id,
                                                                    perfbuf_v2_counter_string *out);
/* UTF-8 of a present string (an absent one converts to ""). */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_counter_string_utf8(
    const perfbuf_v2_strings *s, const perfbuf_v2_counter_string *str, char *out, size_t cap,
    size_t *len);

/* PERF_WILDCARD_COUNTER: an identifier that asks for every counter. */
#define PERFBUF_V2_WILDCARD_COUNTER 0xFFFFFFFFu
/* An InstanceId that does not filter on the id. */
#define PERFBUF_V2_ANY_INSTANCE_ID 0xFFFFFFFFu

/* The PERF_COUNTER_IDENTIFIER blocks of PerfQueryCounterInfo. */
typedef struct perfbuf_v2_identifiers {
    const uint8_t *data;
    size_t size;
    uint32_t count;
    uint32_t anomalies;
    perfbuf_error first_anomaly;
} perfbuf_v2_identifiers;

typedef struct perfbuf_v2_identifier {
    uint32_t index;            /* position in the buffer */
    size_t offset;             /* of the PERF_COUNTER_IDENTIFIER */
    size_t size;               /* Size: header, name and padding */
    perfbuf_guid counterset;
    uint32_t status;           /* a Win32 error code; 0 for a usable one */
    uint32_t counter_id;       /* or PERFBUF_V2_WILDCARD_COUNTER */
    uint32_t instance_id;      /* or PERFBUF_V2_ANY_INSTANCE_ID */
    uint32_t query_index;      /* Index: its PERF_COUNTER_HEADER in the query data */
    bool has_name;             /* Size > 40 */
    size_t name_offset;
    size_t name_units;         /* code units before the NUL */
} perfbuf_v2_identifier;

/*
 * Validates the sequence: each Size at least 40 and inside the buffer; a
 * Size above 40 holds a NUL-terminated name. A Size that is not a multiple
 * of 8, padding longer than alignment needs and a non-zero Reserved are
 * anomalies. max_counters caps the number of identifiers.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_identifiers_parse(
    const void *data, size_t size, const perfbuf_options *opts, perfbuf_v2_identifiers *out,
    perfbuf_error *err);
PERFBUF_API void perfbuf_v2_identifiers_begin(perfbuf_v2_list_iter *it);
PERFBUF_API bool perfbuf_v2_identifiers_next(const perfbuf_v2_identifiers *l,
                                             perfbuf_v2_list_iter *it,
                                             perfbuf_v2_identifier *out);
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_identifier_name_utf8(
    const perfbuf_v2_identifiers *l, const perfbuf_v2_identifier *id, char *out, size_t cap,
    size_t *len);

/* What a cross-check found. */
typedef enum perfbuf_v2_mismatch_kind {
    PERFBUF_V2_AGREE = 0,
    PERFBUF_V2_UNKNOWN_COUNTER = 1,  /* a counter id the registration does not have */
    PERFBUF_V2_VALUE_SIZE = 2,       /* dwDataSize is not the size of the counter's type */
    PERFBUF_V2_RESULT_KIND = 3,      /* instances from a single-instance counterset */
    PERFBUF_V2_INDEX_RANGE = 4,      /* an identifier's Index past the query's blocks */
    PERFBUF_V2_INDEX_DUPLICATE = 5   /* two usable identifiers with the same Index */
} perfbuf_v2_mismatch_kind;

PERFBUF_API const char *perfbuf_v2_mismatch_name(perfbuf_v2_mismatch_kind kind);

/*
 * The first disagreement, located in each buffer involved: in_query names
 * a field of the query data, in_registration one of the registration, and
 * in_identifiers one of the identifiers when they were given (status
 * PERFBUF_OK and structure "" for a buffer not involved).
 */
typedef struct perfbuf_v2_mismatch {
    perfbuf_v2_mismatch_kind kind;
    uint32_t block_index;
    uint32_t counter_id;
    perfbuf_error in_query;
    perfbuf_error in_registration;
    perfbuf_error in_identifiers;
} perfbuf_v2_mismatch;

/*
 * Checks that a validated query-data buffer and a validated registration
 * agree: every counter id of the data is registered, every value's
 * dwDataSize is the size its type's size bits give (4, 8 or 0; variable-
 * length types take any), and a single-instance counterset has no
 * instance blocks (PERF_SINGLE_COUNTER and PERF_MULTIPLE_COUNTERS may come
 * from one instance of any counterset). PERF_ERROR_RETURN blocks carry no
 * data and always agree.
 * ids (may be NULL) are the identifiers of the query: they give the counter
 * of blocks without an id list (single counter, multiple instances) and
 * limit the check to blocks of the registration's counterset; without them
 * every block is taken to belong to it and blocks without an id list are
 * checked for their kind only.
 * PERFBUF_OK when they agree, PERFBUF_E_INCONSISTENT with *out filled when
 * not. Cost: linear in the three buffers, with an O(log n) registration
 * lookup where a value's id-list position is past the first 64 (the view
 * finds ids as perfbuf_v2_reginfo_find does). Blocks are paired with their
 * identifiers in one pass when the usable identifiers come in Index order
 * (as PerfQueryCounterInfo lists them) or number at most
 * PERFBUF_V2_SMALL_SET; otherwise they must be sorted by Index, and this
 * call returns PERFBUF_E_SCRATCH_NEEDED with in_identifiers naming the
 * first Index out of order: call perfbuf_v2_crosscheck_indexed.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_crosscheck(
    const perfbuf_v2_query *q, const perfbuf_v2_reginfo *reg, const perfbuf_v2_identifiers *ids,
    perfbuf_v2_mismatch *out);

/* The same, with scratch of `cap` entries (one per identifier) for sorting
 * unordered identifiers by Index. */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_crosscheck_indexed(
    const perfbuf_v2_query *q, const perfbuf_v2_reginfo *reg, const perfbuf_v2_identifiers *ids,
    uint64_t *scratch, size_t cap, perfbuf_v2_mismatch *out);

/*
 * The raw sample of one counter of one instance (or of a block without
 * instances), ready for perfbuf_format_value, using the registration for
 * the counter's type and its BaseCounterId, PerfTimeId, PerfFreqId and
 * MultiId: first = the counter's value; second = the header's PerfTimeStamp
 * or PerfTime100NSec, the PerfTimeId counter's value for object timers, or
 * the base counter's value; multi = the MultiId counter's value. *context
 * gets the frequency (PerfFreq, 10,000,000, or the PerfFreqId counter's
 * value) and the DefaultScale. For blocks without a counter-id list (single
 * counter, multiple instances) the block's one value is the counter's, and
 * the counters it refers to are not there: a type that needs a time,
 * frequency, base or multi counter has no sample from such a block.
 * NOT_FOUND when the counter, or one it refers to, is not in the data;
 * INVALID_ARGUMENT when the type has no displayable value.
 * Of two values under one id (the query reader does not refuse a repeated
 * id in an id list), the first integer one in position order counts.
 * block and inst must be views of q: each is compared with the bytes q
 * holds at its offset (the block's header, id-list count and instance-list
 * size and count; the instance's Size and InstanceId, inside the block's
 * instance list), and one q does not hold there, such as another
 * capture's, is INVALID_ARGUMENT before any value is read, as is an
 * instance given with a block without instances.
 * Cost: O(log counters) for the registration, then, where the parse proved
 * the layout (q->layout has PERFBUF_V2_LAYOUT_UNIFORM_VALUES: each value at
 * a multiple of one size), the value's position from the id list, O(1) for
 * ids numbered from the first without gaps and O(log counters) otherwise,
 * or O(counters) for an id list that does not ascend. Any other layout
 * walks the instance's values from the first for the counter and for each
 * counter it refers to: O(values of the instance) per call, so sampling
 * every counter of an instance of v values this way is O(v^2); a caller
 * that samples more than a few counters of such an instance builds a
 * perfbuf_v2_value_index.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_raw_sample(
    const perfbuf_v2_query *q, const perfbuf_v2_block *block, const perfbuf_v2_instance *inst,
    const perfbuf_v2_reginfo *reg, uint32_t counter_id, perfbuf_raw_sample *sample,
    perfbuf_value_context *context);

/*
 * One counter of one instance sampled in two captures at once: what
 * perfbuf_v2_raw_sample(newer, newer_block, newer_inst, reg, counter_id,
 * newer_sample, newer_context) returns, and in *older_status what the same
 * call with the older query, views, sample and context returns, each
 * sample and context written as that call writes it. Each side's block and
 * instance must be views of its own query, compared in place with its
 * bytes as perfbuf_v2_raw_sample compares them: a side whose views its
 * query does not hold (or whose query, block, sample or context is NULL)
 * is INVALID_ARGUMENT and reads no value, whatever the other side gives.
 * The two captures need not share a layout. INVALID_ARGUMENT, with nothing
 * written, for a NULL older_status.
 * Cost: that of the two calls, with the registration search and the type
 * lookup run once. Where both captures' layouts have
 * PERFBUF_V2_LAYOUT_UNIFORM_VALUES and PERFBUF_V2_LAYOUT_ASCENDING_IDS,
 * each value the older side reads is first looked for at the position the
 * newer side found it (one load of the older capture's own id list), and
 * searched for, as perfbuf_v2_raw_sample does, only where that position
 * holds another id.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_raw_sample_pair(
    const perfbuf_v2_query *newer, const perfbuf_v2_block *newer_block,
    const perfbuf_v2_instance *newer_inst, const perfbuf_v2_query *older,
    const perfbuf_v2_block *older_block, const perfbuf_v2_instance *older_inst,
    const perfbuf_v2_reginfo *reg, uint32_t counter_id, perfbuf_raw_sample *newer_sample,
    perfbuf_value_context *newer_context, perfbuf_raw_sample *older_sample,
    perfbuf_value_context *older_context, perfbuf_status *older_status);

/*
 * Where each value of one instance (or of one block without instances) is,
 * found by counter id in O(log v), or O(1) for an id equal to its position
 * among the ids in order (counters numbered from 0 without gaps). The index lives in caller scratch and
 * holds offsets into the query data, never pointers: each lookup reads the
 * value again through the query view, and checks that the id list still
 * gives that position the id asked for. It records the query (buffer
 * address, size, timestamps), the block and the instance it was built for,
 * in this struct and in the scratch; a lookup with any other query, block or
 * instance, or on scratch rebuilt or changed since, answers
 * PERFBUF_E_INVALID_ARGUMENT and reads no value. Treat the fields as opaque.
 */
typedef struct perfbuf_v2_value_index {
    const uint64_t *slots;
    const uint8_t *query_data;
    size_t query_size;
    int64_t query_time_stamp;
    int64_t query_time_100ns;
    size_t block_offset;
    size_t instance_offset;    /* SIZE_MAX: built without an instance */
    size_t values_offset;      /* the first value's PERF_COUNTER_DATA */
    uint32_t value_count;      /* values walked: one offset each */
    uint32_t key_count;        /* integer values with an id: one sorted key each */
} perfbuf_v2_value_index;

/*
 * Scratch entries perfbuf_v2_value_index_build needs for any instance of
 * this block, or for the block itself: a small header and two per value
 * (SIZE_MAX if that does not fit in size_t; 0 for a NULL block).
 */
PERFBUF_API size_t perfbuf_v2_value_index_slots(const perfbuf_v2_block *block);

/*
 * Builds the index of inst's values (inst NULL: of the block's own values,
 * for a block without instances) in slots[0, cap), which must stay
 * unchanged while the index is used. Cost: one walk of the values, O(v),
 * when the block's counter-id list ascends (as Windows writes it) or has
 * no id list; otherwise the ids are sorted in the scratch, O(v log v)
 * (heapsort). INVALID_ARGUMENT for a NULL q, block or out, or NULL slots
 * with a non-zero cap; OUTPUT_TOO_SMALL when cap is less than the
 * instance needs (perfbuf_v2_value_index_slots).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_value_index_build(
    const perfbuf_v2_query *q, const perfbuf_v2_block *block, const perfbuf_v2_instance *inst,
    uint64_t *slots, size_t cap, perfbuf_v2_value_index *out);

/*
 * perfbuf_v2_raw_sample through an index built for the same q, block and
 * inst: the same statuses and the same sample and context, at O(log
 * counters + log v) per call, so a whole instance of v values costs
 * O(v log v) with the build. INVALID_ARGUMENT, before anything is read,
 * for a NULL index or one built for another query, block or instance (or
 * whose scratch was rebuilt for one). Scratch the caller changed since the
 * build is not trusted either: the value an entry names is read again
 * through the query view and must decode there, carry the id asked for and
 * end where the next recorded value starts, or the answer is
 * INVALID_ARGUMENT; no read leaves the query data.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_raw_sample_indexed(
    const perfbuf_v2_query *q, const perfbuf_v2_block *block, const perfbuf_v2_instance *inst,
    const perfbuf_v2_reginfo *reg, const perfbuf_v2_value_index *index, uint32_t counter_id,
    perfbuf_raw_sample *sample, perfbuf_value_context *context);

/*
 * Value plans. perfbuf_v2_raw_sample looks the registration up again for
 * every value; a plan does it once per block: for each position of the
 * block's counter-id list, the registration entry (type, DefaultScale) and
 * the positions of the values its formula reads (the counter's own, and
 * its BaseCounterId, PerfTimeId, PerfFreqId, MultiId counters'). Then
 * perfbuf_v2_values_read puts an instance's values into an array in one
 * pass, and perfbuf_v2_plan_sample fills a raw sample from a few loads.
 * A plan holds positions, never offsets or pointers into a query, so one
 * plan serves every capture of the same query (the same id list), as two
 * captures need for perfbuf_format_value. Treat the fields as opaque.
 */
#define PERFBUF_V2_PLAN_NONE 0xFFFFFFFFu

typedef struct perfbuf_v2_plan_entry {
    uint32_t counter_id;       /* the id list's entry at this position */
    uint32_t type;
    int32_t scale;
    perfbuf_status status;     /* of the sample when every value is an integer */
    uint32_t first, second, frequency, multi; /* positions, or PERFBUF_V2_PLAN_NONE */
    uint8_t second_source, frequency_source;
    perfbuf_prepared_formula formula; /* the type's, for perfbuf_format_prepared */
} perfbuf_v2_plan_entry;

typedef struct perfbuf_v2_plan {
    const perfbuf_v2_plan_entry *entries;
    uint32_t count;            /* entries: the block's counter_count */
    size_t scratch_needed;     /* uint32_t scratch for the build: the registration's counters */
    size_t block_offset;
    bool repeated_ids;         /* an id repeats in the id list */
} perfbuf_v2_plan;

/*
 * Builds the plan of a block with a counter-id list (MULTIPLE_COUNTERS,
 * COUNTERSET) in entries[0, entry_cap), using scratch[0, scratch_cap)
 * while it runs. On OUTPUT_TOO_SMALL out->count and out->scratch_needed
 * say what is needed. NOT_FOUND for a block without an id list (its one
 * value needs no plan: perfbuf_v2_raw_sample). INVALID_ARGUMENT for NULL
 * arguments. Cost: two passes over the id list with one registration
 * lookup each, O(c log r), and nothing per instance.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_plan_build(
    const perfbuf_v2_query *q, const perfbuf_v2_block *block, const perfbuf_v2_reginfo *reg,
    perfbuf_v2_plan_entry *entries, size_t entry_cap, uint32_t *scratch, size_t scratch_cap,
    perfbuf_v2_plan *out);

/*
 * The raw sample of the counter at `position` of the plan's id list, for
 * inst (or the block) whose values perfbuf_v2_values_read wrote into
 * values with result *read: the same status, sample and context as
 * perfbuf_v2_raw_sample(q, block, inst, reg, <the id at position>) on a
 * block with the id list the plan was built from, in O(1). When the id
 * list repeats an id, or a value is not an integer, which value counts
 * depends on the walk, and the call is perfbuf_v2_raw_sample itself; so
 * it is for inst NULL on a block of instances (no values: NOT_FOUND).
 * That walk is O(values of the instance) per call: to sample every
 * position, perfbuf_v2_plan_samples walks once for all of them.
 * INVALID_ARGUMENT for NULL arguments, a position past the plan, values
 * and a block that do not have the plan's count and block offset, or a
 * block without an id list.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_plan_sample(
    const perfbuf_v2_query *q, const perfbuf_v2_block *block, const perfbuf_v2_instance *inst,
    const perfbuf_v2_reginfo *reg, const perfbuf_v2_plan *plan, const uint64_t *values,
    const perfbuf_v2_values_read_result *read, uint32_t position, perfbuf_raw_sample *sample,
    perfbuf_value_context *context);

/*
 * perfbuf_v2_plan_sample for every position of the plan at once, the
 * arguments checked once: statuses[p] as that call gives it for position
 * p, and samples[p] and contexts[p] as it gives them where statuses[p] is
 * OK (where it is not, they hold nothing to use). OK when every position
 * was answered (each with its own status); OUTPUT_TOO_SMALL when cap is
 * less than plan->count; INVALID_ARGUMENT as perfbuf_v2_plan_sample,
 * before any position is answered. O(counters) in every case: when the
 * walk decides (repeated ids, values that are not integers, no instance
 * on a block of instances), one walk of the instance's values answers
 * every position, never one walk per position; the samples array holds
 * what the walk found until the call returns.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_plan_samples(
    const perfbuf_v2_query *q, const perfbuf_v2_block *block, const perfbuf_v2_instance *inst,
    const perfbuf_v2_reginfo *reg, const perfbuf_v2_plan *plan, const uint64_t *values,
    const perfbuf_v2_values_read_result *read, perfbuf_raw_sample *samples,
    perfbuf_value_context *contexts, perfbuf_status *statuses, size_t cap);

/*
 * The prepared formula of the counter at `position` (perfbuf_format_prepared
 * with it formats that position's samples as perfbuf_format_value does), or
 * NULL when the plan has no such position. O(1).
 */
PERFBUF_API const perfbuf_prepared_formula *perfbuf_v2_plan_formula(const perfbuf_v2_plan *plan,
                                                                    uint32_t position);

/*
 * Rows perfbuf_v2_plan_format_block_doubles reads before it formats them
 * column by column, and the uint64_t scratch entries it needs for a plan
 * of `count` positions: each row's values in both captures.
 */
#define PERFBUF_V2_FORMAT_ROWS 32u
#define PERFBUF_V2_FORMAT_SCRATCH(count) ((size_t)2u * PERFBUF_V2_FORMAT_ROWS * (size_t)(count))

/*
 * Every counter of every instance of a block (of a block without
 * instances, its one row) formatted from two captures in one call, the
 * instances paired by position (the registration is the plan's, so none is
 * passed), into a matrix of doubles and one-byte
 * compact statuses (PERFBUF_COMPACT_*, perfbuf/values.h). plan is built
 * on newer_block (perfbuf_v2_plan_build) and serves both captures, as for
 * perfbuf_v2_plan_samples. Cell c = i * plan->count + k is what this
 * gives for the i-th instance of each capture (the values from
 * perfbuf_v2_instances_next_values; perfbuf_v2_values_read for a block
 * without instances): perfbuf_v2_plan_samples on each side, then
 *   - where both sides' status at k is OK, perfbuf_format_prepared(
 *     perfbuf_v2_plan_formula(plan, k), newer sample, older sample, newer
 *     context, flags): values[c] its as_double, statuses[c] the code of
 *     its status;
 *   - otherwise the sample failed and no formula runs: values[c] 0 and
 *     statuses[c] PERFBUF_COMPACT_NO_COUNTER for NOT_FOUND (the counter
 *     or one it refers to is not in the block), PERFBUF_COMPACT_PDH_
 *     INVALID_ARGUMENT for any other status (a type without a displayable
 *     value), the newer side's status first.
 * With a format of kind PERFBUF_FMT_LONG or PERFBUF_FMT_LARGE the integer
 * is not kept. Each column is one counter of one type in every row, so
 * for a counter whose formula takes its value alone (rates, timers,
 * queues, raw counts and deltas on the system or 100-ns clock) with a double asked, the formula, clocks, frequency and scale
 * are taken once per PERFBUF_V2_FORMAT_ROWS rows, not per value.
 * Where perfbuf_v2_plan_samples lets the walk of the values decide which
 * value of an id counts, the call formats nothing and the caller formats
 * that block per value (perfbuf_v2_plan_samples, perfbuf_format_prepared):
 * DUPLICATE_ID when the plan's id list repeats an id (before any value is
 * read), UNKNOWN_VALUE when a row of either capture holds a value that is
 * not 4 or 8 bytes long (values and statuses unspecified then).
 * *needed is the cells of each matrix (rows x plan->count); OUTPUT_TOO_SMALL
 * when cap is less, or scratch_cap less than
 * PERFBUF_V2_FORMAT_SCRATCH(plan->count). INCONSISTENT when the two blocks
 * differ in whether they hold instances or in how many. INVALID_ARGUMENT
 * for NULL arguments, or where perfbuf_v2_plan_samples would refuse either
 * side (a block of another offset or counter count than the plan's, or
 * without an id list), or a block of another buffer.
 * No heap; O(plan->count + both blocks' bytes): one pass over each
 * capture's values and O(1) per cell.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_plan_format_block_doubles(
    const perfbuf_v2_query *newer, const perfbuf_v2_block *newer_block,
    const perfbuf_v2_query *older, const perfbuf_v2_block *older_block,
    const perfbuf_v2_plan *plan, uint32_t flags, uint64_t *scratch, size_t scratch_cap, double *values, uint8_t *statuses, size_t cap,
    size_t *needed);

#ifdef __cplusplus
}
#endif

#endif
