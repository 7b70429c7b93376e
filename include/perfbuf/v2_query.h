/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * PerfLib V2 query data: the buffer PerfQueryCounterData fills and the
 * MS-PCQ remote protocol carries.
 *
 *   perfbuf_v2_query_parse() validates the whole buffer. Only after it
 *   returns PERFBUF_OK do the iterators below exist, and they cannot fail:
 *   every offset they follow was checked by the parse.
 *
 * Layout (all little-endian, every structure 8-byte aligned):
 *   PERF_DATA_HEADER, then dwNumCounters blocks, each a PERF_COUNTER_HEADER
 *   followed by what its dwType says (docs/formats.md#v2-query-data).
 */
#ifndef PERFBUF_V2_QUERY_H
#define PERFBUF_V2_QUERY_H

#include "perfbuf/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* PERF_COUNTER_HEADER.dwType */
typedef enum perfbuf_v2_kind {
    PERFBUF_V2_ERROR_RETURN = 0,
    PERFBUF_V2_SINGLE_COUNTER = 1,
    PERFBUF_V2_MULTIPLE_COUNTERS = 2,
    PERFBUF_V2_MULTIPLE_INSTANCES = 4,
    PERFBUF_V2_COUNTERSET = 6
} perfbuf_v2_kind;

PERFBUF_API const char *perfbuf_v2_kind_name(uint32_t kind);

/* The counter id of a value whose block carries no id list. */
#define PERFBUF_V2_NO_COUNTER_ID 0xFFFFFFFFu

/*
 * What the parse proved of the whole buffer's layout (perfbuf_v2_query.layout),
 * so that a read can find a value by its position instead of walking to it.
 * A buffer without these properties is read as before, by the walk.
 */
/* In every block, every PERF_COUNTER_DATA (of every instance) has the
 * dwSize of the block's first one: value k of an instance or block starts
 * k x that size after its first. */
#define PERFBUF_V2_LAYOUT_UNIFORM_VALUES 0x1u
/* Every block's counter-id list strictly ascends: an id is at one position
 * at most, found by a probe or a binary search. */
#define PERFBUF_V2_LAYOUT_ASCENDING_IDS 0x2u

/* A validated query-data buffer. */
typedef struct perfbuf_v2_query {
    const uint8_t *data;      /* the caller's buffer */
    size_t received;          /* bytes the caller said it received */
    size_t size;              /* dwTotalSize: the bytes that were walked */
    uint32_t block_count;     /* dwNumCounters */
    int64_t perf_time_stamp;  /* PerfTimeStamp, PerfFreq ticks */
    int64_t perf_time_100ns;  /* PerfTime100NSec, 100 ns since 1601 UTC */
    int64_t perf_freq;        /* PerfFreq */
    perfbuf_systemtime system_time;
    uint32_t anomalies;       /* PERFBUF_ANOMALY_* tolerated by a lenient parse */
    uint32_t layout;          /* PERFBUF_V2_LAYOUT_* the parse proved */
    perfbuf_error first_anomaly;
} perfbuf_v2_query;

/* One PERF_COUNTER_HEADER block. */
typedef struct perfbuf_v2_block {
    uint32_t index;           /* position among the blocks */
    uint32_t status;          /* dwStatus, a Win32 error code */
    perfbuf_v2_kind kind;
    size_t offset;            /* of the PERF_COUNTER_HEADER */
    size_t size;              /* dwSize */
    uint32_t counter_count;   /* values per instance, or in the block */
    uint32_t instance_count;  /* MULTIPLE_INSTANCES and COUNTERSET; else 0 */
    size_t ids_offset;        /* first counter id, when the kind has ids */
    size_t items_offset;      /* first PERF_COUNTER_DATA or PERF_INSTANCE_HEADER */
    size_t items_end;         /* end of the values, or of PERF_MULTI_INSTANCES */
} perfbuf_v2_block;

/* One PERF_INSTANCE_HEADER with its name. */
typedef struct perfbuf_v2_instance {
    uint32_t index;
    uint32_t id;              /* InstanceId */
    size_t offset;            /* of the PERF_INSTANCE_HEADER */
    size_t size;              /* Size: header, name and padding */
    size_t name_offset;
    size_t name_units;        /* UTF-16 code units before the NUL */
    size_t values_offset;     /* first PERF_COUNTER_DATA of the instance */
    uint32_t value_count;
} perfbuf_v2_instance;

/* One PERF_COUNTER_DATA. */
typedef struct perfbuf_v2_value {
    uint32_t index;           /* position in its block or instance */
    uint32_t counter_id;      /* from the id list, or PERFBUF_V2_NO_COUNTER_ID */
    size_t offset;            /* of the PERF_COUNTER_DATA */
    uint32_t data_size;       /* dwDataSize */
    bool is_integer;          /* data_size is 4 or 8 */
    uint64_t integer;         /* the value when is_integer (4 bytes zero-extended) */
    const uint8_t *bytes;     /* data_size bytes inside the caller's buffer, NULL if 0 */
} perfbuf_v2_value;

/* Position of an iteration; fill it with one of the _begin functions. */
typedef struct perfbuf_v2_iter {
    size_t pos;
    size_t end;
    uint32_t next_index;
    uint32_t count;
} perfbuf_v2_iter;

/*
 * Validates `received` bytes at `data`. The received count wins: a
 * dwTotalSize beyond it is an error, a smaller one bounds the walk.
 * On success *out describes the buffer; on failure *out is zeroed and *err
 * (if not NULL) names the offset, structure and field.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_query_parse(const void *data,
                                                                   size_t received,
                                                                   const perfbuf_options *opts,
                                                                   perfbuf_v2_query *out,
                                                                   perfbuf_error *err);

PERFBUF_API void perfbuf_v2_blocks_begin(const perfbuf_v2_query *q, perfbuf_v2_iter *it);
PERFBUF_API bool perfbuf_v2_blocks_next(const perfbuf_v2_query *q, perfbuf_v2_iter *it,
                                        perfbuf_v2_block *out);

/* The i-th id of a block's PERF_MULTI_COUNTERS list, or
 * PERFBUF_V2_NO_COUNTER_ID when the kind has none or i is out of range. */
PERFBUF_API uint32_t perfbuf_v2_block_counter_id(const perfbuf_v2_query *q,
                                                 const perfbuf_v2_block *block, uint32_t i);

PERFBUF_API void perfbuf_v2_instances_begin(const perfbuf_v2_block *block, perfbuf_v2_iter *it);
PERFBUF_API bool perfbuf_v2_instances_next(const perfbuf_v2_query *q,
                                           const perfbuf_v2_block *block, perfbuf_v2_iter *it,
                                           perfbuf_v2_instance *out);

/* Values of a block without instances (SINGLE_COUNTER, MULTIPLE_COUNTERS). */
PERFBUF_API void perfbuf_v2_block_values_begin(const perfbuf_v2_block *block, perfbuf_v2_iter *it);
/* Values of one instance. */
PERFBUF_API void perfbuf_v2_instance_values_begin(const perfbuf_v2_instance *inst,
                                                  perfbuf_v2_iter *it);
PERFBUF_API bool perfbuf_v2_values_next(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                                        perfbuf_v2_iter *it, perfbuf_v2_value *out);

/* What perfbuf_v2_values_read found. */
typedef struct perfbuf_v2_values_read_result {
    uint32_t count;           /* values of the instance or block (written or wanted) */
    uint32_t non_integers;    /* of them, values not 4 or 8 bytes long (written as 0) */
} perfbuf_v2_values_read_result;

/*
 * Every value of an instance (inst NULL: of a block without instances) in
 * position order into values[0, cap): 4-byte values zero-extended, 8-byte
 * values as they are, others 0 (counted in non_integers; their bytes are
 * in perfbuf_v2_values_next). One pass over the values, O(v). out->count
 * is the instance's value count; OUTPUT_TOO_SMALL (nothing written) when
 * cap is less; INVALID_ARGUMENT for NULL arguments, or for an instance or
 * block of another buffer (then out->count values were written).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_values_read(
    const perfbuf_v2_query *q, const perfbuf_v2_block *block, const perfbuf_v2_instance *inst,
    uint64_t *values, size_t cap, perfbuf_v2_values_read_result *out);

/*
 * perfbuf_v2_instances_next and perfbuf_v2_values_read of that instance in
 * one pass over its values: the collector's loop. OK: *out is the next
 * instance and values[0, read->count) its values. NOT_FOUND: the iteration
 * is over. OUTPUT_TOO_SMALL: cap is less than the block's counter_count
 * (read->count), the iterator does not move. INVALID_ARGUMENT: NULL
 * arguments, or an iterator or block of another buffer (the iteration
 * then ends).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_instances_next_values(
    const perfbuf_v2_query *q, const perfbuf_v2_block *block, perfbuf_v2_iter *it,
    perfbuf_v2_instance *out, uint64_t *values, size_t cap,
    perfbuf_v2_values_read_result *read);

/*
 * Every value of a block in one call, as a matrix: values[i * counter_count
 * + k] is the k-th value of the i-th instance (a block without instances:
 * one row), what perfbuf_v2_values_read gives for that instance: 4-byte
 * values zero-extended, 8-byte values whole, others 0. Instances are
 * stepped over by their Size: no instance view is built and no name is
 * looked at. *needed is the cells the matrix takes (rows x
 * block->counter_count); OUTPUT_TOO_SMALL (nothing written) when cap is
 * less. INVALID_ARGUMENT for NULL arguments or a block of another buffer
 * (the values are then unspecified). O(the block's bytes).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_block_read_all(
    const perfbuf_v2_query *q, const perfbuf_v2_block *block, uint64_t *values, size_t cap,
    size_t *needed);

/* The instance name as UTF-8 (text.h contract; lone surrogates become
 * U+FFFD). */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_instance_name_utf8(
    const perfbuf_v2_query *q, const perfbuf_v2_instance *inst, char *out, size_t cap,
    size_t *len);

/* The instance name as UTF-16 code units, without the NUL; *units receives
 * inst->name_units. OUTPUT_TOO_SMALL copies nothing. */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_instance_name_utf16(
    const perfbuf_v2_query *q, const perfbuf_v2_instance *inst, uint16_t *out, size_t cap,
    size_t *units);

#ifdef __cplusplus
}
#endif

#endif
