/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Displayable counter values from raw samples, as PDH computes them, with
 * PDH's format flags and statuses. Every formula is exact about its failure
 * cases: no division by zero, no signed overflow, and no conversion of an
 * out-of-range double to an integer, on any input (docs/counter-types.md).
 */
#ifndef PERFBUF_VALUES_H
#define PERFBUF_VALUES_H

#include "perfbuf/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Sample and value statuses: PDH's CStatus numbers (pdhmsg.h), kept so that
 * a number read in a log or a debugger greps to the same thing in both.
 * Macros, not an enum: C11 requires enumeration constants to fit an int,
 * and the warning and error codes have the top bit set.
 *
 * These are not perfbuf_status (PERFBUF_E_*, a parser's verdict on a
 * buffer). The naming rule keeps the two apart: a value status is named
 * after pdhmsg.h, with PDH_CSTATUS_<X> becoming PERFBUF_CSTATUS_<X> and every
 * other PDH_<X> becoming PERFBUF_PDH_<X>; so PDH_INVALID_ARGUMENT is
 * PERFBUF_PDH_INVALID_ARGUMENT, never PERFBUF_E_INVALID_ARGUMENT's look-alike.
 * Every one has a row in perfbuf/cstatus.def, and so a name
 * (perfbuf_cstatus_name) and a sentence (perfbuf_cstatus_string).
 *
 * Produced by perfbuf_format_value and perfbuf_compute_statistics: */
#define PERFBUF_CSTATUS_VALID_DATA          0x00000000u
#define PERFBUF_PDH_NO_DATA                 0x800007D5u /* no valid sample in a series */
#define PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR 0x800007D6u /* time, base or multi difference <= 0 */
#define PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE  0x800007D7u /* frequency 0 */
#define PERFBUF_PDH_CALC_NEGATIVE_VALUE     0x800007D8u /* counter went backwards, or result < 0 */
#define PERFBUF_CSTATUS_INVALID_DATA        0xC0000BBAu /* missing or mismatched samples */
#define PERFBUF_PDH_INVALID_ARGUMENT        0xC0000BBDu /* bad flags or scale, or a type with no value */
#define PERFBUF_PDH_INVALID_DATA            0xC0000BC6u /* the value does not fit the requested format */
/* Accepted in perfbuf_raw_sample.status, as PDH_RAW_COUNTER.CStatus can
 * carry them: NEW_DATA counts as valid, the others make the sample invalid. */
#define PERFBUF_CSTATUS_NEW_DATA            0x00000001u
#define PERFBUF_CSTATUS_NO_MACHINE          0x800007D0u
#define PERFBUF_CSTATUS_NO_INSTANCE         0x800007D1u
#define PERFBUF_CSTATUS_ITEM_NOT_VALIDATED  0x800007D3u
#define PERFBUF_CSTATUS_NO_OBJECT           0xC0000BB8u
#define PERFBUF_CSTATUS_NO_COUNTER          0xC0000BB9u
#define PERFBUF_CSTATUS_NO_COUNTERNAME      0xC0000BBFu
#define PERFBUF_CSTATUS_BAD_COUNTERNAME     0xC0000BC0u

/*
 * "PERFBUF_CSTATUS_INVALID_DATA" for PERFBUF_CSTATUS_INVALID_DATA: the
 * macro's name of every status above; NULL for any other number, so that a
 * caller can tell a status perfbuf does not know and print its number.
 */
PERFBUF_API const char *perfbuf_cstatus_name(uint32_t status);

/*
 * A sentence saying what the status means, in the manner of
 * perfbuf_status_string; for a number with no name (perfbuf_cstatus_name
 * returns NULL) the fixed text "unknown value status", never NULL.
 */
PERFBUF_API const char *perfbuf_cstatus_string(uint32_t status);

/* True for the two statuses of a usable sample or value. */
#define PERFBUF_CSTATUS_IS_VALID(s) ((s) == PERFBUF_CSTATUS_VALID_DATA || (s) == PERFBUF_CSTATUS_NEW_DATA)

/*
 * Compact value statuses: one byte per value, for the calls that write a
 * matrix of doubles and a matrix of these beside it
 * (perfbuf_v1_plan_format_object_doubles,
 * perfbuf_v2_plan_format_block_doubles) instead of a 32-byte
 * perfbuf_value per value. Each names one status a formatted value can
 * have; perfbuf_compact_cstatus gives the status back.
 */
#define PERFBUF_COMPACT_VALID_DATA                 0u /* PERFBUF_CSTATUS_VALID_DATA */
#define PERFBUF_COMPACT_INVALID_DATA               1u /* PERFBUF_CSTATUS_INVALID_DATA */
#define PERFBUF_COMPACT_PDH_INVALID_ARGUMENT       2u /* PERFBUF_PDH_INVALID_ARGUMENT */
#define PERFBUF_COMPACT_PDH_INVALID_DATA           3u /* PERFBUF_PDH_INVALID_DATA */
#define PERFBUF_COMPACT_CALC_NEGATIVE_DENOMINATOR  4u /* PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR */
#define PERFBUF_COMPACT_CALC_NEGATIVE_TIMEBASE     5u /* PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE */
#define PERFBUF_COMPACT_CALC_NEGATIVE_VALUE        6u /* PERFBUF_PDH_CALC_NEGATIVE_VALUE */
#define PERFBUF_COMPACT_NO_COUNTER                 7u /* PERFBUF_CSTATUS_NO_COUNTER */
#define PERFBUF_COMPACT_COUNT                      8u

/*
 * The status a compact code stands for (the comments above); for a byte
 * no call writes (PERFBUF_COMPACT_COUNT and above),
 * PERFBUF_PDH_INVALID_ARGUMENT. O(1).
 */
PERFBUF_API uint32_t perfbuf_compact_cstatus(uint8_t code);

/* Format flags: PDH's values (pdh.h). Exactly one of LONG, DOUBLE, LARGE;
 * other bits (PDH_FMT_RAW, _ANSI, _UNICODE, _NODATA) are ignored. */
#define PERFBUF_FMT_LONG     0x00000100u
#define PERFBUF_FMT_DOUBLE   0x00000200u
#define PERFBUF_FMT_LARGE    0x00000400u
#define PERFBUF_FMT_NOSCALE  0x00001000u
#define PERFBUF_FMT_1000     0x00002000u
#define PERFBUF_FMT_NOCAP100 0x00008000u

/* The scales perfbuf_value_context accepts: a V1 DefaultScale or a V2
 * counter's Scale, as a power of ten. */
#define PERFBUF_MIN_SCALE (-10)
#define PERFBUF_MAX_SCALE 10

/*
 * One raw sample, in the manner of PDH_RAW_COUNTER, plus the counter type
 * it was taken for so that samples of different counters are never paired.
 *   first   the counter's own value (4-byte values zero-extended)
 *   second  its time stamp (PerfTime, PerfTime100nSec or the object's) or
 *           its base counter's value, as the type needs (docs/counter-types.md)
 *   multi   the PERF_COUNTER_MULTI_BASE value, for multi-timers
 */
typedef struct perfbuf_raw_sample {
    uint32_t status;
    uint32_t type;
    uint64_t first;
    uint64_t second;
    uint32_t multi;
    int64_t time_stamp; /* the collection time (FILETIME units); not used by formulas */
} perfbuf_raw_sample;

/* The frequency and scale a formula needs besides the samples. */
typedef struct perfbuf_value_context {
    uint64_t frequency; /* ticks per second of the type's time base (PerfFreq or
                           the object's); 100-ns types ignore it */
    int32_t scale;      /* power of ten applied unless NOSCALE:
                           PERFBUF_MIN_SCALE..PERFBUF_MAX_SCALE */
} perfbuf_value_context;

typedef struct perfbuf_value {
    uint32_t status;
    uint32_t format;    /* the flags asked for */
    double as_double;   /* FMT_DOUBLE */
    int64_t as_large;   /* FMT_LARGE (truncated toward zero) */
    int32_t as_long;    /* FMT_LONG (truncated toward zero) */
} perfbuf_value;

/*
 * The displayable value of `type` from `newer` and, for two-sample types,
 * `older` (may be NULL otherwise). Returns out->status.
 *
 * `context` is the newer sample's: the one perfbuf_v1_raw_sample or
 * perfbuf_v2_raw_sample filled with `newer`. Its frequency divides the
 * whole time difference and its scale applies, and the older sample's
 * context is not consulted, not even compared: PDH, too, formats a pair of
 * raw samples with one time base, the counter's current one
 * (PdhFormatFromRawValue's pTimeBase, PdhGetCounterTimeBase). A caller that
 * wants a pair taken under different frequencies refused compares the two
 * contexts itself (docs/counter-types.md, "Which context").
 */
PERFBUF_API uint32_t perfbuf_format_value(uint32_t type, const perfbuf_raw_sample *newer,
                                          const perfbuf_raw_sample *older,
                                          const perfbuf_value_context *context, uint32_t flags,
                                          perfbuf_value *out);

/*
 * A counter type's formula resolved once, for callers that format many
 * values of the same counter (a value plan keeps one per counter): the
 * type is looked up by perfbuf_prepare_formula, and perfbuf_format_prepared
 * then costs a few loads and the formula. Treat the fields as opaque; a
 * struct that perfbuf_prepare_formula did not fill gives
 * PERFBUF_PDH_INVALID_ARGUMENT or another type's formula, never undefined
 * behaviour.
 */
typedef struct perfbuf_prepared_formula {
    uint32_t type;     /* the counter type, which samples must carry */
    uint32_t formula;  /* internal; 0 for a type with no value */
} perfbuf_prepared_formula;

/*
 * Fills *out for `type`. Returns PERFBUF_CSTATUS_VALID_DATA when the type
 * has a value (perfbuf_counter_type_is_displayable), else
 * PERFBUF_PDH_INVALID_ARGUMENT, and then *out still makes
 * perfbuf_format_prepared answer as perfbuf_format_value does for the
 * type: PERFBUF_PDH_INVALID_ARGUMENT. NULL out: PERFBUF_PDH_INVALID_ARGUMENT.
 */
PERFBUF_API uint32_t perfbuf_prepare_formula(uint32_t type, perfbuf_prepared_formula *out);

/*
 * perfbuf_format_value(formula->type, newer, older, context, flags, out),
 * with the same result bit for bit, for a formula perfbuf_prepare_formula
 * filled. NULL formula: PERFBUF_PDH_INVALID_ARGUMENT.
 */
PERFBUF_API uint32_t perfbuf_format_prepared(const perfbuf_prepared_formula *formula,
                                             const perfbuf_raw_sample *newer,
                                             const perfbuf_raw_sample *older,
                                             const perfbuf_value_context *context, uint32_t flags,
                                             perfbuf_value *out);

typedef struct perfbuf_statistics {
    uint32_t status;
    uint32_t format;
    uint32_t count;     /* values the statistics cover */
    perfbuf_value min, max, mean;
} perfbuf_statistics;

/*
 * Statistics over a ring of samples as PdhComputeCounterStatistics takes
 * them: entries[first] is the oldest, the ring wraps, entries[first - 1]
 * is the newest; count is at most UINT32_MAX, as for PDH. Samples whose
 * status is not valid, or of another type, are skipped, and so are values
 * that fail (a pair across a counter reset). One-sample types and deltas:
 * min, max and arithmetic mean of the values. Other two-sample types: min
 * and max over consecutive usable pairs; the mean is the formula applied to
 * the pairs' summed differences, which without gaps is the counter type's
 * "average" formula from the oldest to the newest sample. out->count is the
 * number of values used. Returns out->status: the mean's status, or
 * PERFBUF_PDH_NO_DATA when no value was usable. `context` is the newest
 * sample's, as for perfbuf_format_value.
 */
PERFBUF_API uint32_t perfbuf_compute_statistics(uint32_t type, const perfbuf_value_context *context,
                                                uint32_t flags, size_t first, size_t count,
                                                const perfbuf_raw_sample *entries,
                                                perfbuf_statistics *out);

#ifdef __cplusplus
}
#endif

#endif
