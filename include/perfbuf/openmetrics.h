/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Counter values as OpenMetrics time series (docs/prometheus.md): for every
 * counter type, which raw values a sample exposes, in which unit, and the
 * PromQL expression that gives PDH's formatted value from two consecutive
 * samples; and the pieces every writer of the text needs to give the same
 * bytes (perfbuf-dump --openmetrics, the Python package): metric names
 * from Counter-table names, escaped label values and help text, the
 * numbers, the timestamps. Nothing here allocates, prints or keeps state;
 * text goes into caller buffers with the two-call size contract of
 * perfbuf/text.h, except that *len is always the exact size.
 */
#ifndef PERFBUF_OPENMETRICS_H
#define PERFBUF_OPENMETRICS_H

#include "perfbuf/common.h"
#include "perfbuf/values.h"

#ifdef __cplusplus
extern "C" {
#endif

/* OpenMetrics metric types (the "# TYPE" line). */
#define PERFBUF_OPENMETRICS_GAUGE   1u
#define PERFBUF_OPENMETRICS_COUNTER 2u
#define PERFBUF_OPENMETRICS_SUMMARY 3u

/* Which raw value of a perfbuf_raw_sample a sample line writes. */
#define PERFBUF_OPENMETRICS_FIRST  1u /* N, the counter's own value */
#define PERFBUF_OPENMETRICS_SECOND 2u /* T, its clock, or B, its base */
#define PERFBUF_OPENMETRICS_MULTI  3u /* M, its multi count */

/*
 * How the raw value becomes the number written. A clock is written in two
 * families, its whole seconds and the fraction of a second: each is exact
 * in a double, and so is the difference of two clocks PromQL sums from
 * them, where one number of seconds since 1970 would keep only 2.4e-7 s
 * (docs/prometheus.md, "Clocks").
 */
#define PERFBUF_OPENMETRICS_AS_IS            0u /* the unsigned integer */
#define PERFBUF_OPENMETRICS_SECONDS          1u /* ticks of the sample's frequency F: x / F */
#define PERFBUF_OPENMETRICS_WHOLE_SECONDS    2u /* floor(x / F) */
#define PERFBUF_OPENMETRICS_FRACTION_SECONDS 3u /* (x mod F) / F */
#define PERFBUF_OPENMETRICS_UNIX_WHOLE       4u /* a 100-ns time since 1601 (PerfTime100nSec)
                                                   as whole seconds since 1970 (floor) */
#define PERFBUF_OPENMETRICS_UNIX_FRACTION    5u /* and the fraction of its second */
#define PERFBUF_OPENMETRICS_START_TIME       6u /* an elapsed time's start, T and N of the
                                                   object's clock: the capture's time minus
                                                   (T - N) / F */

/* One sample line of a family: the family's name, then `suffix`. */
typedef struct perfbuf_openmetrics_sample {
    const char *suffix;   /* "_total", "_sum", "_count" or "" */
    uint32_t source;      /* PERFBUF_OPENMETRICS_FIRST, _SECOND or _MULTI */
    uint32_t conversion;  /* PERFBUF_OPENMETRICS_AS_IS, ... */
} perfbuf_openmetrics_sample;

/* One metric family of a counter: its name is the counter's metric name
 * (perfbuf_openmetrics_name) followed by `suffix`. */
typedef struct perfbuf_openmetrics_family {
    const char *suffix;   /* "", "_seconds", "_inverse_seconds", "_clock_seconds",
                             "_clock_fraction_seconds", "_clock", "_base", "_multi",
                             "_start_time_seconds" */
    uint32_t kind;        /* PERFBUF_OPENMETRICS_GAUGE, _COUNTER or _SUMMARY */
    const char *unit;     /* "seconds" or "": see perfbuf_openmetrics_unit */
    const char *role;     /* what it holds, for help text: "value of ", "clock of ", ... */
    uint32_t sample_count;
    perfbuf_openmetrics_sample samples[2];
} perfbuf_openmetrics_family;

#define PERFBUF_OPENMETRICS_MAX_FAMILIES 4

/*
 * A counter type's mapping. family_count 0: the type is not exported, and
 * `reason` says why (a base, text, no data, a histogram, an unknown
 * value); otherwise `promql` is the expression that gives PDH's formatted
 * value, with the placeholders <name> (the counter's metric name), <range>
 * (a range a little longer than the time between two captures) and
 * <scale> (perfbuf_openmetrics_promql fills all three).
 */
typedef struct perfbuf_openmetrics_mapping {
    uint32_t type;
    uint32_t family_count;
    perfbuf_openmetrics_family families[PERFBUF_OPENMETRICS_MAX_FAMILIES];
    const char *promql;   /* "" when not exported */
    const char *reason;   /* "" when exported */
} perfbuf_openmetrics_mapping;

/*
 * Fills *out with the mapping of `type`. OK when the type is exported;
 * NOT_FOUND when it is not (out->reason says why; every value, unknown
 * ones included, gets a mapping); INVALID_ARGUMENT for a NULL out. O(1).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_openmetrics_map(uint32_t type,
                                                                    perfbuf_openmetrics_mapping *out);

/*
 * The metric name of a counter: prefix "_" object "_" counter, each name
 * (UTF-8, normally the English Counter table's title) in lower snake case:
 * ASCII letters lowered, ASCII digits kept, every run of anything else one
 * "_", none at either end; the counter's trailing words "sec" and then
 * "total" dropped ("Bytes Total/sec" is "bytes"), and its leading words
 * when they repeat the whole object name ("% Processor Time" of
 * "Processor" is "time"). A part that comes out empty (no name, or one
 * without an ASCII letter or digit) is "object_" or "counter_" and its
 * index. The prefix must be a metric name of its own
 * ([a-zA-Z_:][a-zA-Z0-9_:]*), else INVALID_ARGUMENT. Invalid UTF-8 counts
 * as "anything else". O(prefix + object + counter) (docs/prometheus.md,
 * "Metric names").
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_openmetrics_name(
    const char *prefix, size_t prefix_len, const char *object, size_t object_len,
    uint32_t object_index, const char *counter, size_t counter_len, uint32_t counter_index,
    char *out, size_t cap, size_t *len);

/*
 * The unit of a family whose full name is `name`: the family's own unit
 * ("seconds"), else "bytes" when a family without a suffix has a name
 * ending in "_bytes", else "". The "# UNIT" line is written when it is
 * not "" (OpenMetrics requires the name to end with "_" and the unit,
 * which both cases guarantee). Never NULL. O(1).
 */
PERFBUF_API const char *perfbuf_openmetrics_unit(const perfbuf_openmetrics_family *family,
                                                 const char *name, size_t len);

/*
 * A label value or help text as the OpenMetrics text format writes it
 * between quotes or after "# HELP name ": "\" as "\\", a double quote as
 * "\"", a line feed as "\n"; every other C0 control, DEL, the C1 controls,
 * the line and paragraph separators and the bidirectional controls (what
 * would break a line or reorder the file on a terminal), and every byte
 * that is not UTF-8, as U+FFFD. O(len).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_openmetrics_escape(const char *text,
                                                                       size_t len, char *out,
                                                                       size_t cap, size_t *out_len);

/* The longest number perfbuf_openmetrics_value or _time writes, with its NUL. */
#define PERFBUF_OPENMETRICS_NUMBER_MAX 48u

/*
 * The number one sample line of a family writes for a raw sample, as
 * decimal text: exact for integers and 100-ns values, and x / F to 20
 * significant digits, rounded half up (docs/prometheus.md, "Numbers").
 * unix_ms is the capture's time (perfbuf_openmetrics_time), which only
 * PERFBUF_OPENMETRICS_START_TIME reads. NOT_FOUND when the sample has no
 * such number: its status is not valid (PERFBUF_CSTATUS_IS_VALID), F is 0
 * where the conversion divides by it, or T < N, or a start time more than
 * 2^62 s away. INVALID_ARGUMENT for a NULL argument or a source or
 * conversion that is not one of the above. O(1).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_openmetrics_value(
    const perfbuf_openmetrics_sample *sample, const perfbuf_raw_sample *raw,
    const perfbuf_value_context *context, int64_t unix_ms, char *out, size_t cap, size_t *len);

/*
 * A capture's time as milliseconds since 1970 in *unix_ms (rounded down)
 * and as the OpenMetrics timestamp, seconds, in out ("1795341600" or
 * "1795341600.25"). `filetime` is the time the raw samples carry
 * (perfbuf_raw_sample.time_stamp): PERF_DATA_BLOCK.PerfTime100nSec or
 * PERF_DATA_HEADER.PerfTime100NSec, 100-ns intervals since 1601 UTC
 * (docs/formats.md, O-11). NOT_FOUND for a negative time. O(1).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_openmetrics_time(int64_t filetime,
                                                                     int64_t *unix_ms, char *out,
                                                                     size_t cap, size_t *len);

/*
 * The mapping's PromQL expression with <name> the counter's metric name,
 * <range> the range (a PromQL duration such as "90s" or "1500ms") and
 * <scale> " * 1e<scale>" or nothing for 0: PDH multiplies every value by
 * 10^scale (docs/counter-types.md, "After the formula"), and the exported
 * numbers are not scaled. INVALID_ARGUMENT for a mapping that is not
 * exported, a name that is not a metric name, a range that is not digits
 * and letters starting with a digit, or a scale outside
 * PERFBUF_MIN_SCALE..PERFBUF_MAX_SCALE. O(template + name + range).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_openmetrics_promql(
    const perfbuf_openmetrics_mapping *mapping, const char *name, size_t name_len,
    const char *range, size_t range_len, int32_t scale, char *out, size_t cap, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
