/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * One row per named counter type (winperf.h, cross-checked with the WMI
 * and MS-PCQ 2.2.4.2 tables: docs/formats.md#named-counter-types).
 * "Samples" comes from the formulas, not from the PERF_DELTA_COUNTER bit:
 * PERF_AVERAGE_TIMER and PERF_AVERAGE_BULK take two samples without it,
 * PERF_ELAPSED_TIME one.
 */
#include "perfbuf/counter_types.h"
#include "work.h"

#define SYS PERFBUF_TIME_SYSTEM
#define NS PERFBUF_TIME_100NS
#define OBJ PERFBUF_TIME_OBJECT
#define NONE PERFBUF_TIME_NONE

/* type, name, samples, is_base, needs_base, needs_multi, is_percent, time base, suffix */
static const perfbuf_counter_type_info types[] = {
    {PERF_COUNTER_COUNTER, "PERF_COUNTER_COUNTER", 2, false, false, false, false, SYS, "/sec"},
    {PERF_COUNTER_TIMER, "PERF_COUNTER_TIMER", 2, false, false, false, true, SYS, "%"},
    {PERF_COUNTER_QUEUELEN_TYPE, "PERF_COUNTER_QUEUELEN_TYPE", 2, false, false, false, false, SYS, ""},
    {PERF_COUNTER_LARGE_QUEUELEN_TYPE, "PERF_COUNTER_LARGE_QUEUELEN_TYPE", 2, false, false, false, false, SYS, ""},
    {PERF_COUNTER_100NS_QUEUELEN_TYPE, "PERF_COUNTER_100NS_QUEUELEN_TYPE", 2, false, false, false, false, NS, ""},
    {PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE, "PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE", 2, false, false, false, false, OBJ, ""},
    {PERF_COUNTER_BULK_COUNT, "PERF_COUNTER_BULK_COUNT", 2, false, false, false, false, SYS, "/sec"},
    {PERF_COUNTER_TEXT, "PERF_COUNTER_TEXT", 0, false, false, false, false, NONE, ""},
    {PERF_COUNTER_RAWCOUNT, "PERF_COUNTER_RAWCOUNT", 1, false, false, false, false, NONE, ""},
    {PERF_COUNTER_LARGE_RAWCOUNT, "PERF_COUNTER_LARGE_RAWCOUNT", 1, false, false, false, false, NONE, ""},
    {PERF_COUNTER_RAWCOUNT_HEX, "PERF_COUNTER_RAWCOUNT_HEX", 1, false, false, false, false, NONE, ""},
    {PERF_COUNTER_LARGE_RAWCOUNT_HEX, "PERF_COUNTER_LARGE_RAWCOUNT_HEX", 1, false, false, false, false, NONE, ""},
    {PERF_SAMPLE_FRACTION, "PERF_SAMPLE_FRACTION", 2, false, true, false, true, NONE, "%"},
    {PERF_SAMPLE_COUNTER, "PERF_SAMPLE_COUNTER", 2, false, false, false, false, SYS, ""},
    {PERF_COUNTER_NODATA, "PERF_COUNTER_NODATA", 0, false, false, false, false, NONE, ""},
    {PERF_COUNTER_TIMER_INV, "PERF_COUNTER_TIMER_INV", 2, false, false, false, true, SYS, "%"},
    {PERF_SAMPLE_BASE, "PERF_SAMPLE_BASE", 0, true, false, false, false, NONE, ""},
    {PERF_AVERAGE_TIMER, "PERF_AVERAGE_TIMER", 2, false, true, false, false, SYS, "secs"},
    {PERF_AVERAGE_BASE, "PERF_AVERAGE_BASE", 0, true, false, false, false, NONE, ""},
    {PERF_AVERAGE_BULK, "PERF_AVERAGE_BULK", 2, false, true, false, false, NONE, ""},
    {PERF_OBJ_TIME_TIMER, "PERF_OBJ_TIME_TIMER", 2, false, false, false, true, OBJ, "%"},
    {PERF_100NSEC_TIMER, "PERF_100NSEC_TIMER", 2, false, false, false, true, NS, "%"},
    {PERF_100NSEC_TIMER_INV, "PERF_100NSEC_TIMER_INV", 2, false, false, false, true, NS, "%"},
    {PERF_COUNTER_MULTI_TIMER, "PERF_COUNTER_MULTI_TIMER", 2, false, false, true, true, SYS, "%"},
    {PERF_COUNTER_MULTI_TIMER_INV, "PERF_COUNTER_MULTI_TIMER_INV", 2, false, false, true, true, SYS, "%"},
    {PERF_COUNTER_MULTI_BASE, "PERF_COUNTER_MULTI_BASE", 0, true, false, false, false, NONE, ""},
    {PERF_100NSEC_MULTI_TIMER, "PERF_100NSEC_MULTI_TIMER", 2, false, false, true, true, NS, "%"},
    {PERF_100NSEC_MULTI_TIMER_INV, "PERF_100NSEC_MULTI_TIMER_INV", 2, false, false, true, true, NS, "%"},
    {PERF_RAW_FRACTION, "PERF_RAW_FRACTION", 1, false, true, false, true, NONE, "%"},
    {PERF_LARGE_RAW_FRACTION, "PERF_LARGE_RAW_FRACTION", 1, false, true, false, true, NONE, "%"},
    {PERF_RAW_BASE, "PERF_RAW_BASE", 0, true, false, false, false, NONE, ""},
    {PERF_LARGE_RAW_BASE, "PERF_LARGE_RAW_BASE", 0, true, false, false, false, NONE, ""},
    {PERFBUF_WMI_LARGE_RAW_BASE, "PERF_LARGE_RAW_BASE", 0, true, false, false, false, NONE, ""},
    {PERF_ELAPSED_TIME, "PERF_ELAPSED_TIME", 1, false, false, false, false, OBJ, "secs"},
    {PERF_COUNTER_HISTOGRAM_TYPE, "PERF_COUNTER_HISTOGRAM_TYPE", 0, false, false, false, false, NONE, ""},
    {PERF_COUNTER_DELTA, "PERF_COUNTER_DELTA", 2, false, false, false, false, NONE, ""},
    {PERF_COUNTER_LARGE_DELTA, "PERF_COUNTER_LARGE_DELTA", 2, false, false, false, false, NONE, ""},
    {PERF_PRECISION_SYSTEM_TIMER, "PERF_PRECISION_SYSTEM_TIMER", 2, false, true, false, true, SYS, "%"},
    {PERF_PRECISION_100NS_TIMER, "PERF_PRECISION_100NS_TIMER", 2, false, true, false, true, NS, "%"},
    {PERF_PRECISION_OBJECT_TIMER, "PERF_PRECISION_OBJECT_TIMER", 2, false, true, false, true, OBJ, "%"},
};

const perfbuf_counter_type_info *perfbuf_counter_type_lookup(uint32_t type)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        PB_WORK(1);
        if (types[i].type == type) {
            return &types[i];
        }
    }
    return NULL;
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
