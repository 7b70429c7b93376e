/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The named counter types of winperf.h and what a reader needs to know
 * about each: value size, whether it needs a base or multi counter, how
 * many samples its formula takes, its time base and display suffix.
 */
#ifndef PERFBUF_COUNTER_TYPES_H
#define PERFBUF_COUNTER_TYPES_H

#include "perfbuf/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PERF_COUNTER_COUNTER              0x10410400u
#define PERF_COUNTER_TIMER                0x20410500u
#define PERF_COUNTER_QUEUELEN_TYPE        0x00450400u
#define PERF_COUNTER_LARGE_QUEUELEN_TYPE  0x00450500u
#define PERF_COUNTER_100NS_QUEUELEN_TYPE  0x00550500u
#define PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE 0x00650500u
#define PERF_COUNTER_BULK_COUNT           0x10410500u
#define PERF_COUNTER_TEXT                 0x00000B00u
#define PERF_COUNTER_RAWCOUNT             0x00010000u
#define PERF_COUNTER_LARGE_RAWCOUNT       0x00010100u
#define PERF_COUNTER_RAWCOUNT_HEX         0x00000000u
#define PERF_COUNTER_LARGE_RAWCOUNT_HEX   0x00000100u
#define PERF_SAMPLE_FRACTION              0x20C20400u
#define PERF_SAMPLE_COUNTER               0x00410400u
#define PERF_COUNTER_NODATA               0x40000200u
#define PERF_COUNTER_TIMER_INV            0x21410500u
#define PERF_SAMPLE_BASE                  0x40030401u
#define PERF_AVERAGE_TIMER                0x30020400u
#define PERF_AVERAGE_BASE                 0x40030402u
#define PERF_AVERAGE_BULK                 0x40020500u
#define PERF_OBJ_TIME_TIMER               0x20610500u
#define PERF_100NSEC_TIMER                0x20510500u
#define PERF_100NSEC_TIMER_INV            0x21510500u
#define PERF_COUNTER_MULTI_TIMER          0x22410500u
#define PERF_COUNTER_MULTI_TIMER_INV      0x23410500u
#define PERF_COUNTER_MULTI_BASE           0x42030500u
#define PERF_100NSEC_MULTI_TIMER          0x22510500u
#define PERF_100NSEC_MULTI_TIMER_INV      0x23510500u
#define PERF_RAW_FRACTION                 0x20020400u
#define PERF_LARGE_RAW_FRACTION           0x20020500u
#define PERF_RAW_BASE                     0x40030403u
#define PERF_LARGE_RAW_BASE               0x40030500u
#define PERF_ELAPSED_TIME                 0x30240500u
#define PERF_COUNTER_HISTOGRAM_TYPE       0x80000000u
#define PERF_COUNTER_DELTA                0x00400400u
#define PERF_COUNTER_LARGE_DELTA          0x00400500u
#define PERF_PRECISION_SYSTEM_TIMER       0x20470500u
#define PERF_PRECISION_100NS_TIMER        0x20570500u
#define PERF_PRECISION_OBJECT_TIMER       0x20670500u
#define PERF_PRECISION_TIMESTAMP          PERF_LARGE_RAW_BASE
/* The WMI documentation's value for PERF_LARGE_RAW_BASE; accepted as it. */
#define PERFBUF_WMI_LARGE_RAW_BASE        0x40030503u

/* The value size a type's size bits give; VARIABLE means "see CounterSize". */
#define PERFBUF_SIZE_VARIABLE 0xFFFFFFFFu
/*@ assigns \nothing; */
PERFBUF_API uint32_t perfbuf_counter_type_size(uint32_t type);

typedef enum perfbuf_time_base {
    PERFBUF_TIME_NONE = 0,    /* the formula uses no clock */
    PERFBUF_TIME_SYSTEM = 1,  /* PerfTime / PerfFreq of the data block (V2: header) */
    PERFBUF_TIME_100NS = 2,   /* PerfTime100nSec, 10,000,000 per second */
    PERFBUF_TIME_OBJECT = 3   /* the object's PerfTime / PerfFreq (V2: PerfTimeId/PerfFreqId) */
} perfbuf_time_base;

typedef struct perfbuf_counter_type_info {
    uint32_t type;
    const char *name;
    uint8_t samples;        /* samples the formula needs: 0 = not displayable */
    bool is_base;           /* serves as B or M for another counter */
    bool needs_base;        /* the next V1 definition must be a base type */
    bool needs_multi;       /* needs a PERF_COUNTER_MULTI_BASE value */
    bool is_percent;        /* PERF_DISPLAY_PERCENT: capped at 100 by default */
    perfbuf_time_base time_base;
    const char *suffix;     /* "", "/sec", "%", "secs" */
} perfbuf_counter_type_info;

/* The entry for a named type, or NULL for any other value. */
/*@ assigns \nothing;
    ensures \result == \null || \valid_read(\result);
*/
PERFBUF_API const perfbuf_counter_type_info *perfbuf_counter_type_lookup(uint32_t type);
/* The type's name, or "unknown". */
PERFBUF_API const char *perfbuf_counter_type_name(uint32_t type);
/* True for the base types (by value, not by the NOSHOW bit). */
/*@ assigns \nothing; */
PERFBUF_API bool perfbuf_counter_type_is_base(uint32_t type);
/* Samples the type's formula needs (1 or 2), from the formulas rather than
 * the PERF_DELTA_COUNTER bit; 0 for bases, text, no-data, histogram and
 * unknown types, which have no displayable value. */
PERFBUF_API unsigned perfbuf_counter_type_samples(uint32_t type);
/* True when perfbuf_format_value can give the type a value. */
PERFBUF_API bool perfbuf_counter_type_is_displayable(uint32_t type);
/* True for the raw counts a display shows in hexadecimal
 * (PERF_COUNTER_RAWCOUNT_HEX, PERF_COUNTER_LARGE_RAWCOUNT_HEX). */
PERFBUF_API bool perfbuf_counter_type_is_hex(uint32_t type);
/* "/sec", "%", "secs", or "" (also for unknown types). */
PERFBUF_API const char *perfbuf_counter_type_suffix(uint32_t type);

#ifdef __cplusplus
}
#endif

#endif
