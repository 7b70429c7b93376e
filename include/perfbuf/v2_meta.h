/*
 * PerfLib V2 metadata: what a consumer needs besides the query data.
 *   - counterset registration (PerfQueryCounterSetRegistrationInfo with
 *     PERF_REG_COUNTERSET_STRUCT): PERF_COUNTERSET_REG_INFO followed by its
 *     PERF_COUNTER_REG_INFO array;
 *   - the instance list (PerfEnumerateCounterSetInstances): a packed
 *     sequence of PERF_INSTANCE_HEADER blocks;
 *   - the counterset list (PerfEnumerateCounterSet): an array of GUIDs.
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
} perfbuf_v2_reginfo;

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
 * Id checks compare every pair: their cost is quadratic in the count, which
 * max_counters caps (registered countersets have tens of counters).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_reginfo_parse(const void *data,
                                                                     size_t size,
                                                                     const perfbuf_options *opts,
                                                                     perfbuf_v2_reginfo *out,
                                                                     perfbuf_error *err);

/* The i-th counter (i < counter_count); false past the end. */
PERFBUF_API bool perfbuf_v2_reginfo_counter(const perfbuf_v2_reginfo *r, uint32_t i,
                                            perfbuf_v2_counter_reg *out);
/* The counter with that id; NOT_FOUND otherwise. O(counters). */
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
 * The raw sample of one counter of one instance (or of a block without
 * instances), ready for perfbuf_format_value, using the registration for
 * the counter's type and its BaseCounterId, PerfTimeId, PerfFreqId and
 * MultiId: first = the counter's value; second = the header's PerfTimeStamp
 * or PerfTime100NSec, the PerfTimeId counter's value for object timers, or
 * the base counter's value; multi = the MultiId counter's value. *context
 * gets the frequency (PerfFreq, 10,000,000, or the PerfFreqId counter's
 * value) and the DefaultScale. For blocks without a counter-id list (single
 * counter, multiple instances) the block's one value is the counter's.
 * NOT_FOUND when the counter, or one it refers to, is not in the data;
 * INVALID_ARGUMENT when the type has no displayable value.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_raw_sample(
    const perfbuf_v2_query *q, const perfbuf_v2_block *block, const perfbuf_v2_instance *inst,
    const perfbuf_v2_reginfo *reg, uint32_t counter_id, perfbuf_raw_sample *sample,
    perfbuf_value_context *context);

#ifdef __cplusplus
}
#endif

#endif
