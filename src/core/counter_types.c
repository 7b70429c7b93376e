/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * One row per named counter type (winperf.h, cross-checked with the WMI
 * and MS-PCQ 2.2.4.2 tables: docs/formats.md#named-counter-types).
 * "Samples" comes from the formulas, not from the PERF_DELTA_COUNTER bit:
 * PERF_AVERAGE_TIMER and PERF_AVERAGE_BULK take two samples without it,
 * PERF_ELAPSED_TIME one.
 */
#include "perfbuf/counter_types.h"
#include "core/work.h"

#define SYS PERFBUF_TIME_SYSTEM
#define NS PERFBUF_TIME_100NS
#define OBJ PERFBUF_TIME_OBJECT
#define NONE PERFBUF_TIME_NONE

/* type, name, samples, is_base, needs_base, needs_multi, is_percent, time base, suffix */
#define COUNTER_TYPES(X) \
    X(PERF_COUNTER_COUNTER, "PERF_COUNTER_COUNTER", 2, false, false, false, false, SYS, "/sec") \
    X(PERF_COUNTER_TIMER, "PERF_COUNTER_TIMER", 2, false, false, false, true, SYS, "%") \
    X(PERF_COUNTER_QUEUELEN_TYPE, "PERF_COUNTER_QUEUELEN_TYPE", 2, false, false, false, false, SYS, "") \
    X(PERF_COUNTER_LARGE_QUEUELEN_TYPE, "PERF_COUNTER_LARGE_QUEUELEN_TYPE", 2, false, false, false, false, SYS, "") \
    X(PERF_COUNTER_100NS_QUEUELEN_TYPE, "PERF_COUNTER_100NS_QUEUELEN_TYPE", 2, false, false, false, false, NS, "") \
    X(PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE, "PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE", 2, false, false, false, false, OBJ, "") \
    X(PERF_COUNTER_BULK_COUNT, "PERF_COUNTER_BULK_COUNT", 2, false, false, false, false, SYS, "/sec") \
    X(PERF_COUNTER_TEXT, "PERF_COUNTER_TEXT", 0, false, false, false, false, NONE, "") \
    X(PERF_COUNTER_RAWCOUNT, "PERF_COUNTER_RAWCOUNT", 1, false, false, false, false, NONE, "") \
    X(PERF_COUNTER_LARGE_RAWCOUNT, "PERF_COUNTER_LARGE_RAWCOUNT", 1, false, false, false, false, NONE, "") \
    X(PERF_COUNTER_RAWCOUNT_HEX, "PERF_COUNTER_RAWCOUNT_HEX", 1, false, false, false, false, NONE, "") \
    X(PERF_COUNTER_LARGE_RAWCOUNT_HEX, "PERF_COUNTER_LARGE_RAWCOUNT_HEX", 1, false, false, false, false, NONE, "") \
    X(PERF_SAMPLE_FRACTION, "PERF_SAMPLE_FRACTION", 2, false, true, false, true, NONE, "%") \
    X(PERF_SAMPLE_COUNTER, "PERF_SAMPLE_COUNTER", 2, false, false, false, false, SYS, "") \
    X(PERF_COUNTER_NODATA, "PERF_COUNTER_NODATA", 0, false, false, false, false, NONE, "") \
    X(PERF_COUNTER_TIMER_INV, "PERF_COUNTER_TIMER_INV", 2, false, false, false, true, SYS, "%") \
    X(PERF_SAMPLE_BASE, "PERF_SAMPLE_BASE", 0, true, false, false, false, NONE, "") \
    X(PERF_AVERAGE_TIMER, "PERF_AVERAGE_TIMER", 2, false, true, false, false, SYS, "secs") \
    X(PERF_AVERAGE_BASE, "PERF_AVERAGE_BASE", 0, true, false, false, false, NONE, "") \
    X(PERF_AVERAGE_BULK, "PERF_AVERAGE_BULK", 2, false, true, false, false, NONE, "") \
    X(PERF_OBJ_TIME_TIMER, "PERF_OBJ_TIME_TIMER", 2, false, false, false, true, OBJ, "%") \
    X(PERF_100NSEC_TIMER, "PERF_100NSEC_TIMER", 2, false, false, false, true, NS, "%") \
    X(PERF_100NSEC_TIMER_INV, "PERF_100NSEC_TIMER_INV", 2, false, false, false, true, NS, "%") \
    X(PERF_COUNTER_MULTI_TIMER, "PERF_COUNTER_MULTI_TIMER", 2, false, false, true, true, SYS, "%") \
    X(PERF_COUNTER_MULTI_TIMER_INV, "PERF_COUNTER_MULTI_TIMER_INV", 2, false, false, true, true, SYS, "%") \
    X(PERF_COUNTER_MULTI_BASE, "PERF_COUNTER_MULTI_BASE", 0, true, false, false, false, NONE, "") \
    X(PERF_100NSEC_MULTI_TIMER, "PERF_100NSEC_MULTI_TIMER", 2, false, false, true, true, NS, "%") \
    X(PERF_100NSEC_MULTI_TIMER_INV, "PERF_100NSEC_MULTI_TIMER_INV", 2, false, false, true, true, NS, "%") \
    X(PERF_RAW_FRACTION, "PERF_RAW_FRACTION", 1, false, true, false, true, NONE, "%") \
    X(PERF_LARGE_RAW_FRACTION, "PERF_LARGE_RAW_FRACTION", 1, false, true, false, true, NONE, "%") \
    X(PERF_RAW_BASE, "PERF_RAW_BASE", 0, true, false, false, false, NONE, "") \
    X(PERF_LARGE_RAW_BASE, "PERF_LARGE_RAW_BASE", 0, true, false, false, false, NONE, "") \
    X(PERFBUF_WMI_LARGE_RAW_BASE, "PERF_LARGE_RAW_BASE", 0, true, false, false, false, NONE, "") \
    X(PERF_ELAPSED_TIME, "PERF_ELAPSED_TIME", 1, false, false, false, false, OBJ, "secs") \
    X(PERF_COUNTER_HISTOGRAM_TYPE, "PERF_COUNTER_HISTOGRAM_TYPE", 0, false, false, false, false, NONE, "") \
    X(PERF_COUNTER_DELTA, "PERF_COUNTER_DELTA", 2, false, false, false, false, NONE, "") \
    X(PERF_COUNTER_LARGE_DELTA, "PERF_COUNTER_LARGE_DELTA", 2, false, false, false, false, NONE, "") \
    X(PERF_PRECISION_SYSTEM_TIMER, "PERF_PRECISION_SYSTEM_TIMER", 2, false, true, false, true, SYS, "%") \
    X(PERF_PRECISION_100NS_TIMER, "PERF_PRECISION_100NS_TIMER", 2, false, true, false, true, NS, "%") \
    X(PERF_PRECISION_OBJECT_TIMER, "PERF_PRECISION_OBJECT_TIMER", 2, false, true, false, true, OBJ, "%")

#define AS_INDEX(type, ...) INDEX_##type,
enum type_index { COUNTER_TYPES(AS_INDEX) TYPE_COUNT };

#define AS_ROW(type, ...) {type, __VA_ARGS__},
static const perfbuf_counter_type_info types[TYPE_COUNT] = {COUNTER_TYPES(AS_ROW)};

/* A switch rather than a search of the table: formatting asks for every
 * value, and the compiler turns the cases into a few comparisons. The
 * table's row is the case's own by construction (one list makes both).
 * Its work is that of a binary search of the table, ceil(log2 40) steps,
 * as a search of a sorted table is counted elsewhere. */
#define LOOKUP_STEPS 6
_Static_assert(TYPE_COUNT <= (1 << LOOKUP_STEPS), "the lookup's work is log2 of the types");
#define AS_CASE(type, ...) \
    case type:             \
        return &types[INDEX_##type];

const perfbuf_counter_type_info *perfbuf_counter_type_lookup(uint32_t type)
{
    PB_WORK(LOOKUP_STEPS);
    switch (type) {
        COUNTER_TYPES(AS_CASE)
    default:
        return NULL;
    }
}

const char *perfbuf_counter_type_name(uint32_t type)
{
    const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(type);
    return info != NULL ? info->name : "unknown";
}

bool perfbuf_counter_type_is_base(uint32_t type)
{
    const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(type);
    return info != NULL && info->is_base;
}

unsigned perfbuf_counter_type_samples(uint32_t type)
{
    const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(type);
    return info != NULL ? info->samples : 0u;
}

bool perfbuf_counter_type_is_displayable(uint32_t type)
{
    return perfbuf_counter_type_samples(type) != 0;
}

bool perfbuf_counter_type_is_hex(uint32_t type)
{
    return type == PERF_COUNTER_RAWCOUNT_HEX || type == PERF_COUNTER_LARGE_RAWCOUNT_HEX;
}

const char *perfbuf_counter_type_suffix(uint32_t type)
{
    const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(type);
    return info != NULL ? info->suffix : "";
}

uint32_t perfbuf_counter_type_size(uint32_t type)
{
    switch (type & 0x300u) {
    case 0x000u:
        return 4;
    case 0x100u:
        return 8;
    case 0x200u:
        return 0;
    default:
        return PERFBUF_SIZE_VARIABLE;
    }
}
