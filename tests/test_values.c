/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Counter values: every counter type with hand-computed expectations, every
 * status path, the format flags, and statistics over a ring of samples.
 */
#include <math.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/values.h"
#include "harness.h"

#define NONE_ 0xFFFFFFFFFFFFFFFFull

typedef struct row {
    const char *what;
    uint32_t type;
    uint64_t n0, t0, n1, t1; /* n0 == NONE_: one sample only */
    uint32_t multi;
    uint64_t frequency;
    int32_t scale;
    uint32_t flags;
    uint32_t status;
    double expect;
} row;

#define D PERFBUF_FMT_DOUBLE
#define OK PERFBUF_CSTATUS_VALID_DATA
#define T100 134398148561470699ull
static const row rows[] = {
    /* counters and rates: dN / (dT / F) */
    {"counter", PERF_COUNTER_COUNTER, 100, 0, 600, 5000, 0, 1000, 0, D, OK, 100.0},
    {"bulk", PERF_COUNTER_BULK_COUNT, 1000000000000ull, 0, 1000002000000ull, 2000, 0, 1000, 0, D, OK, 1000000.0},
    {"sample counter", PERF_SAMPLE_COUNTER, 100, 0, 600, 5000, 0, 1000, 0, D, OK, 100.0},
    /* queue lengths: dN / dT */
    {"queuelen", PERF_COUNTER_QUEUELEN_TYPE, 0, 0, 3000, 1000, 0, 1000, 0, D, OK, 3.0},
    {"large queuelen", PERF_COUNTER_LARGE_QUEUELEN_TYPE, 0, 0, 3000, 1000, 0, 1000, 0, D, OK, 3.0},
    {"100ns queuelen", PERF_COUNTER_100NS_QUEUELEN_TYPE, 0, T100, 50000000, T100 + 10000000, 0, 0, 0, D, OK, 5.0},
    {"obj queuelen", PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE, 0, 100, 400, 300, 0, 50, 0, D, OK, 2.0},
    /* timers: 100 dN / dT, inverse 100 (1 - dN / dT) */
    {"timer", PERF_COUNTER_TIMER, 0, 0, 250, 1000, 0, 1000, 0, D, OK, 25.0},
    {"timer inv", PERF_COUNTER_TIMER_INV, 0, 0, 250, 1000, 0, 1000, 0, D, OK, 75.0},
    {"100ns timer", PERF_100NSEC_TIMER, 0, T100, 2500000, T100 + 10000000, 0, 0, 0, D, OK, 25.0},
    /* % Processor Time: 8.75 s idle of 10 s */
    {"% processor time", PERF_100NSEC_TIMER_INV, 5000000000ull, T100, 5087500000ull, T100 + 100000000, 0, 0, 0, D, OK, 12.5},
    {"obj timer", PERF_OBJ_TIME_TIMER, 0, 0, 50, 200, 0, 10, 0, D, OK, 25.0},
    /* multi-timers: 100 (dN / dT) / M and 100 (M - dN / dT) / M */
    {"multi timer", PERF_COUNTER_MULTI_TIMER, 0, 0, 500, 1000, 2, 1000, 0, D, OK, 25.0},
    {"multi timer inv", PERF_COUNTER_MULTI_TIMER_INV, 0, 0, 500, 1000, 2, 1000, 0, D, OK, 75.0},
    {"100ns multi", PERF_100NSEC_MULTI_TIMER, 0, 0, 15000000, 10000000, 4, 0, 0, D, OK, 37.5},
    {"100ns multi inv", PERF_100NSEC_MULTI_TIMER_INV, 0, 0, 15000000, 10000000, 4, 0, 0, D, OK, 62.5},
    /* fractions: 100 dN / dB, 100 N / B */
    {"sample fraction", PERF_SAMPLE_FRACTION, 10, 100, 40, 220, 0, 0, 0, D, OK, 25.0},
    {"raw fraction", PERF_RAW_FRACTION, NONE_, 0, 1, 4, 0, 0, 0, D, OK, 25.0},
    {"large raw fraction", PERF_LARGE_RAW_FRACTION, NONE_, 0, 3000000000ull, 12000000000ull, 0, 0, 0, D, OK, 25.0},
    /* precision timers: 100 dN / dB */
    {"precision system", PERF_PRECISION_SYSTEM_TIMER, 0, 0, 300, 1200, 0, 1000, 0, D, OK, 25.0},
    {"precision 100ns", PERF_PRECISION_100NS_TIMER, 0, 0, 300, 1200, 0, 0, 0, D, OK, 25.0},
    {"precision object", PERF_PRECISION_OBJECT_TIMER, 0, 0, 300, 1200, 0, 50, 0, D, OK, 25.0},
    /* averages: (dN / F) / dB and dN / dB */
    {"average timer", PERF_AVERAGE_TIMER, 0, 10, 3000, 16, 0, 1000, 0, D, OK, 0.5},
    {"average bulk", PERF_AVERAGE_BULK, 0, 0, 1000000, 250, 0, 0, 0, D, OK, 4000.0},
    /* raw counts, deltas, elapsed time */
    {"rawcount", PERF_COUNTER_RAWCOUNT, NONE_, 0, 42, 0, 0, 0, 0, D, OK, 42.0},
    {"large rawcount", PERF_COUNTER_LARGE_RAWCOUNT, NONE_, 0, 1099511627776ull, 0, 0, 0, 0, D, OK, 1099511627776.0},
    {"rawcount hex", PERF_COUNTER_RAWCOUNT_HEX, NONE_, 0, 0xBEEF, 0, 0, 0, 0, D, OK, 48879.0},
    {"large rawcount hex", PERF_COUNTER_LARGE_RAWCOUNT_HEX, NONE_, 0, 0xBEEF, 0, 0, 0, 0, D, OK, 48879.0},
    {"delta", PERF_COUNTER_DELTA, 10, 0, 25, 0, 0, 0, 0, D, OK, 15.0},
    {"large delta", PERF_COUNTER_LARGE_DELTA, 10, 0, 25, 0, 0, 0, 0, D, OK, 15.0},
    {"elapsed", PERF_ELAPSED_TIME, NONE_, 0, 1000, 61000, 0, 1000, 0, D, OK, 60.0},
    /* not displayable */
    {"sample base", PERF_SAMPLE_BASE, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_PDH_INVALID_ARGUMENT, 0},
    {"average base", PERF_AVERAGE_BASE, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_PDH_INVALID_ARGUMENT, 0},
    {"raw base", PERF_RAW_BASE, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_PDH_INVALID_ARGUMENT, 0},
    {"large raw base", PERF_LARGE_RAW_BASE, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_PDH_INVALID_ARGUMENT, 0},
    {"wmi large raw base", PERFBUF_WMI_LARGE_RAW_BASE, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_PDH_INVALID_ARGUMENT, 0},
    {"multi base", PERF_COUNTER_MULTI_BASE, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_PDH_INVALID_ARGUMENT, 0},
    {"text", PERF_COUNTER_TEXT, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_PDH_INVALID_ARGUMENT, 0},
    {"nodata", PERF_COUNTER_NODATA, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_PDH_INVALID_ARGUMENT, 0},
    {"histogram", PERF_COUNTER_HISTOGRAM_TYPE, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_PDH_INVALID_ARGUMENT, 0},
    {"unknown type", 0x12345678, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_PDH_INVALID_ARGUMENT, 0},
    /* statuses */
    {"one sample of two", PERF_COUNTER_COUNTER, NONE_, 0, 600, 5000, 0, 1000, 0, D, PERFBUF_CSTATUS_INVALID_DATA, 0},
    {"counter went back", PERF_COUNTER_COUNTER, 600, 0, 100, 5000, 0, 1000, 0, D, PERFBUF_PDH_CALC_NEGATIVE_VALUE, 0},
    {"time went back", PERF_COUNTER_COUNTER, 100, 5000, 600, 0, 0, 1000, 0, D, PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR, 0},
    {"no time passed", PERF_COUNTER_COUNTER, 100, 5000, 600, 5000, 0, 1000, 0, D, PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR, 0},
    {"zero frequency", PERF_COUNTER_COUNTER, 100, 0, 600, 5000, 0, 0, 0, D, PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE, 0},
    {"zero frequency average", PERF_AVERAGE_TIMER, 0, 10, 3000, 16, 0, 0, 0, D, PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE, 0},
    {"zero frequency elapsed", PERF_ELAPSED_TIME, NONE_, 0, 1000, 61000, 0, 0, 0, D, PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE, 0},
    {"base unchanged", PERF_SAMPLE_FRACTION, 10, 100, 40, 100, 0, 0, 0, D, PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR, 0},
    {"base zero", PERF_RAW_FRACTION, NONE_, 0, 1, 0, 0, 0, 0, D, PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR, 0},
    {"multi zero", PERF_COUNTER_MULTI_TIMER, 0, 0, 500, 1000, 0, 1000, 0, D, PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR, 0},
    {"inverse below zero", PERF_100NSEC_TIMER_INV, 0, 0, 10000001, 10000000, 0, 0, 0, D, PERFBUF_PDH_CALC_NEGATIVE_VALUE, 0},
    {"multi inverse below zero", PERF_COUNTER_MULTI_TIMER_INV, 0, 0, 3000, 1000, 2, 1000, 0, D, PERFBUF_PDH_CALC_NEGATIVE_VALUE, 0},
    {"elapsed before start", PERF_ELAPSED_TIME, NONE_, 0, 61000, 1000, 0, 1000, 0, D, PERFBUF_PDH_CALC_NEGATIVE_VALUE, 0},
    {"average timer base unchanged", PERF_AVERAGE_TIMER, 0, 10, 3000, 10, 0, 1000, 0, D, PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR, 0},
    {"average bulk base went back", PERF_AVERAGE_BULK, 0, 10, 3000, 9, 0, 0, 0, D, PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR, 0},
    {"precision base unchanged", PERF_PRECISION_100NS_TIMER, 0, 7, 300, 7, 0, 0, 0, D, PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR, 0},
    {"queue no time passed", PERF_COUNTER_QUEUELEN_TYPE, 0, 9, 3000, 9, 0, 1000, 0, D, PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR, 0},
    {"timer no time passed", PERF_100NSEC_TIMER, 0, 9, 3000, 9, 0, 0, 0, D, PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR, 0},
    {"inverse no time passed", PERF_100NSEC_TIMER_INV, 0, 9, 0, 9, 0, 0, 0, D, PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR, 0},
    {"delta went back", PERF_COUNTER_DELTA, 25, 0, 10, 0, 0, 0, 0, D, PERFBUF_PDH_CALC_NEGATIVE_VALUE, 0},
    /* a delta has no clock: its second value is not checked */
    {"delta ignores second", PERF_COUNTER_LARGE_DELTA, 10, 99, 25, 1, 0, 0, 0, D, OK, 15.0},
    /* boundaries that are exact: all idle, all busy, elapsed zero */
    {"inverse all idle", PERF_100NSEC_TIMER_INV, 0, 0, 10000000, 10000000, 0, 0, 0, D, OK, 0.0},
    {"inverse all busy", PERF_100NSEC_TIMER_INV, 0, 0, 0, 10000000, 0, 0, 0, D, OK, 100.0},
    {"multi inverse exactly M", PERF_100NSEC_MULTI_TIMER_INV, 0, 0, 40000000, 10000000, 4, 0, 0, D, OK, 0.0},
    {"elapsed zero", PERF_ELAPSED_TIME, NONE_, 0, 5000, 5000, 0, 1000, 0, D, OK, 0.0},
    /* format flags */
    {"no format", PERF_COUNTER_RAWCOUNT, NONE_, 0, 42, 0, 0, 0, 0, 0, PERFBUF_PDH_INVALID_ARGUMENT, 0},
    {"two formats", PERF_COUNTER_RAWCOUNT, NONE_, 0, 42, 0, 0, 0, 0, D | PERFBUF_FMT_LONG, PERFBUF_PDH_INVALID_ARGUMENT, 0},
    {"scale 11", PERF_COUNTER_RAWCOUNT, NONE_, 0, 42, 0, 0, 0, 11, D, PERFBUF_PDH_INVALID_ARGUMENT, 0},
    {"scale -11", PERF_COUNTER_RAWCOUNT, NONE_, 0, 42, 0, 0, 0, -11, D, PERFBUF_PDH_INVALID_ARGUMENT, 0},
    {"scale 2", PERF_COUNTER_RAWCOUNT, NONE_, 0, 42, 0, 0, 0, 2, D, OK, 4200.0},
    {"scale -1", PERF_COUNTER_RAWCOUNT, NONE_, 0, 42, 0, 0, 0, -1, D, OK, 4.2},
    {"noscale", PERF_COUNTER_RAWCOUNT, NONE_, 0, 42, 0, 0, 0, 2, D | PERFBUF_FMT_NOSCALE, OK, 42.0},
    {"x1000", PERF_AVERAGE_TIMER, 0, 10, 3000, 16, 0, 1000, 0, D | PERFBUF_FMT_1000, OK, 500.0},
    {"percent capped", PERF_COUNTER_TIMER, 0, 0, 1500, 1000, 0, 1000, 0, D, OK, 100.0},
    {"percent nocap", PERF_COUNTER_TIMER, 0, 0, 1500, 1000, 0, 1000, 0, D | PERFBUF_FMT_NOCAP100, OK, 150.0},
    {"x1000 then cap", PERF_RAW_FRACTION, NONE_, 0, 1, 4, 0, 0, 0, D | PERFBUF_FMT_1000, OK, 100.0},
    {"scaled then cap", PERF_RAW_FRACTION, NONE_, 0, 1, 4, 0, 0, 1, D, OK, 100.0},
    {"rate not capped", PERF_COUNTER_COUNTER, 0, 0, 1500, 1000, 0, 1000, 0, D, OK, 1500.0},
    {"fraction capped", PERF_SAMPLE_FRACTION, 0, 0, 30, 20, 0, 0, 0, D, OK, 100.0},
    {"fraction nocap", PERF_SAMPLE_FRACTION, 0, 0, 30, 20, 0, 0, 0, D | PERFBUF_FMT_NOCAP100, OK, 150.0},
    {"average bulk not capped", PERF_AVERAGE_BULK, 0, 0, 1000000, 250, 0, 0, 0, D, OK, 4000.0},
    {"scale 10", PERF_COUNTER_RAWCOUNT, NONE_, 0, 3, 0, 0, 0, 10, D, OK, 3e10},
    {"scale -10", PERF_COUNTER_RAWCOUNT, NONE_, 0, 3, 0, 0, 0, -10, D, OK, 3e-10},
    {"scale and x1000", PERF_COUNTER_COUNTER, 100, 0, 600, 5000, 0, 1000, -2, D | PERFBUF_FMT_1000, OK, 1000.0},
};
#undef D

static void every_type_and_status(void)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const row *r = &rows[i];
        perfbuf_raw_sample s1 = {PERFBUF_CSTATUS_NEW_DATA, r->type, r->n1, r->t1, r->multi, 0};
        perfbuf_raw_sample s0 = {PERFBUF_CSTATUS_VALID_DATA, r->type, r->n0, r->t0, r->multi, 0};
        perfbuf_value_context ctx = {r->frequency, r->scale};
        perfbuf_value v;
        uint32_t st = perfbuf_format_value(r->type, &s1, r->n0 == NONE_ ? NULL : &s0, &ctx,
                                           r->flags, &v);
        if (st != r->status || (st == OK && fabs(v.as_double - r->expect) > 1e-12 * fabs(r->expect))) {
            fprintf(stderr, "%s: status 0x%08x value %.17g\n", r->what, st, v.as_double);
        }
        CHECK_EQ_U(st, r->status);
        CHECK_EQ_U(v.status, st);
        if (st == OK) {
            /* Exact where the expectation is, else within a few roundings. */
            CHECK(fabs(v.as_double - r->expect) <= 1e-12 * fabs(r->expect));
        }
    }
}

/*
 * An inverse timer whose busy time is within a few parts in 10^8 of the
 * interval, on clocks near 2^62: the idle part must be exact. Computed as
 * 1 - dN / dT in doubles it lost nine digits (relative error ~2e-9), which
 * the statistics fuzzer found as a mean outside [min, max].
 */
static void inverse_timer_near_zero_is_exact(void)
{
    const uint64_t interval = 3182967604875373454ull; /* dT */
    const uint64_t idle = 189719653219ull;            /* dT - dN */
    perfbuf_raw_sample s0 = {OK, PERF_100NSEC_TIMER_INV, 0, 0, 0, 0};
    perfbuf_raw_sample s1 = {OK, PERF_100NSEC_TIMER_INV, interval - idle, interval, 0, 0};
    perfbuf_value_context ctx = {0, 0};
    perfbuf_value v;
    CHECK_EQ_U(perfbuf_format_value(PERF_100NSEC_TIMER_INV, &s1, &s0, &ctx,
                                    PERFBUF_FMT_DOUBLE | PERFBUF_FMT_NOSCALE, &v), OK);
    long double want = 100.0L * (long double)idle / (long double)interval;
    CHECK(fabsl((long double)v.as_double - want) <= want * 1e-14L);
    /* The multi-timer form, with dN / dT just below M = 2. */
    const uint64_t half = interval / 2;
    perfbuf_raw_sample m0 = {OK, PERF_100NSEC_MULTI_TIMER_INV, 0, 0, 2, 0};
    perfbuf_raw_sample m1 = {OK, PERF_100NSEC_MULTI_TIMER_INV, 2 * half - idle, half, 2, 0};
    CHECK_EQ_U(perfbuf_format_value(PERF_100NSEC_MULTI_TIMER_INV, &m1, &m0, &ctx,
                                    PERFBUF_FMT_DOUBLE | PERFBUF_FMT_NOSCALE | PERFBUF_FMT_NOCAP100,
                                    &v), OK);
    want = 100.0L * ((long double)idle / (long double)half) / 2.0L;
    CHECK(fabsl((long double)v.as_double - want) <= want * 1e-14L);
}

static void one_sample_types_ignore_older(void)
{
    perfbuf_raw_sample s1 = {OK, PERF_COUNTER_RAWCOUNT, 42, 0, 0, 0};
    perfbuf_raw_sample junk = {0x12345, 0xFFFFFFFF, 99, 99, 0, 0};
    perfbuf_value_context ctx = {0, 0};
    perfbuf_value v;
    CHECK_EQ_U(perfbuf_format_value(PERF_COUNTER_RAWCOUNT, &s1, &junk, &ctx, PERFBUF_FMT_LARGE, &v), OK);
    CHECK_EQ_U(v.as_large, 42);
}

static void mismatched_and_invalid_samples(void)
{
    perfbuf_value_context ctx = {1000, 0};
    perfbuf_raw_sample s1 = {OK, PERF_COUNTER_COUNTER, 600, 5000, 0, 0};
    perfbuf_raw_sample s0 = {OK, PERF_COUNTER_BULK_COUNT, 100, 0, 0, 0};
    perfbuf_value v;
    CHECK_EQ_U(perfbuf_format_value(PERF_COUNTER_COUNTER, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, &v),
               PERFBUF_CSTATUS_INVALID_DATA);
    s0.type = PERF_COUNTER_COUNTER;
    s0.status = 0xC0000BB8u; /* PDH_CSTATUS_NO_OBJECT */
    CHECK_EQ_U(perfbuf_format_value(PERF_COUNTER_COUNTER, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, &v),
               PERFBUF_CSTATUS_INVALID_DATA);
    s0.status = OK;
    /* The newer sample's status counts as much as the older one's, for one-
     * and two-sample types alike. */
    s1.status = PERFBUF_CSTATUS_INVALID_DATA;
    CHECK_EQ_U(perfbuf_format_value(PERF_COUNTER_COUNTER, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, &v),
               PERFBUF_CSTATUS_INVALID_DATA);
    perfbuf_raw_sample raw = {0x800007D1u /* PDH_CSTATUS_NO_INSTANCE */, PERF_COUNTER_RAWCOUNT, 5, 0, 0, 0};
    CHECK_EQ_U(perfbuf_format_value(raw.type, &raw, NULL, &ctx, PERFBUF_FMT_DOUBLE, &v),
               PERFBUF_CSTATUS_INVALID_DATA);
    raw.status = OK;
    raw.type = PERF_COUNTER_LARGE_RAWCOUNT;
    CHECK_EQ_U(perfbuf_format_value(PERF_COUNTER_RAWCOUNT, &raw, NULL, &ctx, PERFBUF_FMT_DOUBLE, &v),
               PERFBUF_CSTATUS_INVALID_DATA);
    s1.status = PERFBUF_CSTATUS_NEW_DATA;
    CHECK_EQ_U(perfbuf_format_value(PERF_COUNTER_BULK_COUNT, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, &v),
               PERFBUF_CSTATUS_INVALID_DATA);
    CHECK_EQ_U(perfbuf_format_value(PERF_COUNTER_COUNTER, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, &v), OK);
    CHECK_EQ_U(perfbuf_format_value(PERF_COUNTER_COUNTER, NULL, &s0, &ctx, PERFBUF_FMT_DOUBLE, &v),
               PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_format_value(PERF_COUNTER_COUNTER, &s1, &s0, NULL, PERFBUF_FMT_DOUBLE, &v),
               PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_format_value(PERF_COUNTER_COUNTER, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, NULL),
               PERFBUF_PDH_INVALID_ARGUMENT);
}

static void integer_formats(void)
{
    perfbuf_value_context ctx = {1000, 0};
    perfbuf_value v;
    /* Exact 64-bit raw counts, beyond what a double holds. */
    perfbuf_raw_sample big = {OK, PERF_COUNTER_LARGE_RAWCOUNT, 9007199254740993ull, 0, 0, 0};
    CHECK_EQ_U(perfbuf_format_value(big.type, &big, NULL, &ctx, PERFBUF_FMT_LARGE, &v), OK);
    CHECK_EQ_U(v.as_large, 9007199254740993ull);
    CHECK_EQ_U(perfbuf_format_value(big.type, &big, NULL, &ctx, PERFBUF_FMT_LONG, &v),
               PERFBUF_PDH_INVALID_DATA);
    big.first = UINT64_MAX;
    CHECK_EQ_U(perfbuf_format_value(big.type, &big, NULL, &ctx, PERFBUF_FMT_LARGE, &v),
               PERFBUF_PDH_INVALID_DATA);
    CHECK_EQ_U(perfbuf_format_value(big.type, &big, NULL, &ctx, PERFBUF_FMT_DOUBLE, &v), OK);
    /* Truncation toward zero. */
    perfbuf_raw_sample s1 = {OK, PERF_AVERAGE_TIMER, 4900, 11, 0, 0};
    perfbuf_raw_sample s0 = {OK, PERF_AVERAGE_TIMER, 0, 10, 0, 0};
    CHECK_EQ_U(perfbuf_format_value(s1.type, &s1, &s0, &ctx, PERFBUF_FMT_LONG, &v), OK);
    CHECK_EQ_U(v.as_long, 4);
    CHECK(fabs(v.as_double - 4.9) < 1e-12);
    /* A scaled raw count goes through the double, and must still fit. */
    perfbuf_raw_sample raw = {OK, PERF_COUNTER_RAWCOUNT, 3000000000u, 0, 0, 0};
    CHECK_EQ_U(perfbuf_format_value(raw.type, &raw, NULL, &ctx, PERFBUF_FMT_LONG, &v),
               PERFBUF_PDH_INVALID_DATA);
    ctx.scale = -1;
    CHECK_EQ_U(perfbuf_format_value(raw.type, &raw, NULL, &ctx, PERFBUF_FMT_LONG, &v), OK);
    CHECK_EQ_U(v.as_long, 300000000);
    ctx.scale = 10;
    CHECK_EQ_U(perfbuf_format_value(raw.type, &raw, NULL, &ctx, PERFBUF_FMT_LARGE, &v),
               PERFBUF_PDH_INVALID_DATA);
    /* The largest rate the inputs allow stays finite and is refused as an integer. */
    perfbuf_raw_sample r1 = {OK, PERF_COUNTER_BULK_COUNT, UINT64_MAX, 1, 0, 0};
    perfbuf_raw_sample r0 = {OK, PERF_COUNTER_BULK_COUNT, 0, 0, 0, 0};
    perfbuf_value_context huge = {UINT64_MAX, 10};
    CHECK_EQ_U(perfbuf_format_value(r1.type, &r1, &r0, &huge, PERFBUF_FMT_DOUBLE | PERFBUF_FMT_1000, &v), OK);
    CHECK(v.as_double > 1e50);
    CHECK_EQ_U(perfbuf_format_value(r1.type, &r1, &r0, &huge, PERFBUF_FMT_LARGE, &v),
               PERFBUF_PDH_INVALID_DATA);
}

static void statistics_of_one_sample_type(void)
{
    /* Chronological from index 2: 30, (invalid), 40, 10, 20. */
    perfbuf_raw_sample ring[5] = {
        {OK, PERF_COUNTER_RAWCOUNT, 10, 0, 0, 0},
        {OK, PERF_COUNTER_RAWCOUNT, 20, 0, 0, 0},
        {OK, PERF_COUNTER_RAWCOUNT, 30, 0, 0, 0},
        {PERFBUF_CSTATUS_INVALID_DATA, PERF_COUNTER_RAWCOUNT, 1000, 0, 0, 0},
        {OK, PERF_COUNTER_RAWCOUNT, 40, 0, 0, 0},
    };
    perfbuf_value_context ctx = {0, 0};
    perfbuf_statistics s;
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_RAWCOUNT, &ctx, PERFBUF_FMT_DOUBLE, 2, 5, ring, &s), OK);
    CHECK_EQ_U(s.count, 4);
    CHECK(s.min.as_double == 10.0);
    CHECK(s.max.as_double == 40.0);
    CHECK(s.mean.as_double == 25.0);
    CHECK_EQ_U(s.format, PERFBUF_FMT_DOUBLE);
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_RAWCOUNT, &ctx, PERFBUF_FMT_LARGE, 0, 5, ring, &s), OK);
    CHECK_EQ_U(s.mean.as_large, 25);
    CHECK_EQ_U(s.max.as_large, 40);
}

static void statistics_of_two_sample_type(void)
{
    /* Samples 1 s apart (F = 1000), counts 0, 100, 300, 600, stored with the
     * oldest at index 1: rates 100, 200, 300, mean over the series 200. */
    perfbuf_raw_sample ring[4] = {
        {OK, PERF_COUNTER_COUNTER, 600, 3000, 0, 0},
        {OK, PERF_COUNTER_COUNTER, 0, 0, 0, 0},
        {OK, PERF_COUNTER_COUNTER, 100, 1000, 0, 0},
        {OK, PERF_COUNTER_COUNTER, 300, 2000, 0, 0},
    };
    perfbuf_value_context ctx = {1000, 0};
    perfbuf_statistics s;
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_COUNTER, &ctx, PERFBUF_FMT_DOUBLE, 1, 4, ring, &s), OK);
    CHECK_EQ_U(s.count, 3);
    CHECK(fabs(s.min.as_double - 100.0) < 1e-9);
    CHECK(fabs(s.max.as_double - 300.0) < 1e-9);
    CHECK(fabs(s.mean.as_double - 200.0) < 1e-9);
    /* A counter reset in the middle: that pair is skipped, not negative. */
    ring[2].first = 500;
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_COUNTER, &ctx, PERFBUF_FMT_DOUBLE, 1, 4, ring, &s), OK);
    CHECK_EQ_U(s.count, 2);
    CHECK(fabs(s.min.as_double - 300.0) < 1e-9);
    CHECK(fabs(s.max.as_double - 500.0) < 1e-9);
    /* The mean divides the used pairs' sums, 800 counts in 2 s: it stays
     * between min and max, where the oldest-to-newest formula (600 / 3 s)
     * would not. */
    CHECK(fabs(s.mean.as_double - 400.0) < 1e-9);
}

static void exact_comparisons(void)
{
    perfbuf_value_context ctx = {0, 0};
    perfbuf_value v;
    /* dN / dT = 4 + 1/(2^60 + 1): a double rounds the ratio to exactly 4 = M,
     * the integer comparison still sees it exceed M. */
    perfbuf_raw_sample s0 = {OK, PERF_100NSEC_MULTI_TIMER_INV, 0, 0, 4, 0};
    perfbuf_raw_sample s1 = {OK, PERF_100NSEC_MULTI_TIMER_INV, (1ull << 62) + 5, (1ull << 60) + 1, 4, 0};
    CHECK_EQ_U(perfbuf_format_value(s1.type, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, &v),
               PERFBUF_PDH_CALC_NEGATIVE_VALUE);
    s1.first = (1ull << 62) + 4;
    CHECK_EQ_U(perfbuf_format_value(s1.type, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, &v), OK);
    CHECK(v.as_double == 0.0);
    /* Busy one tick longer than an interval of 2^62 ticks: the doubles are
     * equal, the integers are not. */
    perfbuf_raw_sample t0 = {OK, PERF_100NSEC_TIMER_INV, 0, 0, 0, 0};
    perfbuf_raw_sample t1 = {OK, PERF_100NSEC_TIMER_INV, (1ull << 62) + 1, 1ull << 62, 0, 0};
    CHECK_EQ_U(perfbuf_format_value(t1.type, &t1, &t0, &ctx, PERFBUF_FMT_DOUBLE, &v),
               PERFBUF_PDH_CALC_NEGATIVE_VALUE);
    /* Differences of values beyond 2^53 are exact before they are doubles. */
    perfbuf_raw_sample d0 = {OK, PERF_COUNTER_LARGE_DELTA, (1ull << 60) + 1, 0, 0, 0};
    perfbuf_raw_sample d1 = {OK, PERF_COUNTER_LARGE_DELTA, (1ull << 60) + 4, 0, 0, 0};
    CHECK_EQ_U(perfbuf_format_value(d1.type, &d1, &d0, &ctx, PERFBUF_FMT_DOUBLE, &v), OK);
    CHECK(v.as_double == 3.0);
    CHECK_EQ_U(perfbuf_format_value(d1.type, &d1, &d0, &ctx, PERFBUF_FMT_LONG, &v), OK);
    CHECK_EQ_U(v.as_long, 3);
}

static void negative_scales_round_once(void)
{
    static const double expect[11] = {7e0, 7e-1, 7e-2, 7e-3, 7e-4, 7e-5,
                                      7e-6, 7e-7, 7e-8, 7e-9, 7e-10};
    perfbuf_raw_sample s = {OK, PERF_COUNTER_RAWCOUNT, 7, 0, 0, 0};
    perfbuf_value v;
    for (int32_t k = 0; k <= 10; k++) {
        perfbuf_value_context ctx = {0, -k};
        CHECK_EQ_U(perfbuf_format_value(s.type, &s, NULL, &ctx, PERFBUF_FMT_DOUBLE, &v), OK);
        /* 7 / 10^k is correctly rounded, so it equals the literal 7e-k. */
        CHECK(v.as_double == expect[k]);
    }
}

static void long_boundaries(void)
{
    perfbuf_value v;
    perfbuf_raw_sample s = {OK, PERF_COUNTER_RAWCOUNT, INT32_MAX, 0, 0, 0};
    perfbuf_value_context plain = {0, 0};
    CHECK_EQ_U(perfbuf_format_value(s.type, &s, NULL, &plain, PERFBUF_FMT_LONG, &v), OK);
    CHECK_EQ_U(v.as_long, INT32_MAX);
    s.first = (uint64_t)INT32_MAX + 1;
    CHECK_EQ_U(perfbuf_format_value(s.type, &s, NULL, &plain, PERFBUF_FMT_LONG, &v),
               PERFBUF_PDH_INVALID_DATA);
    CHECK_EQ_U(perfbuf_format_value(s.type, &s, NULL, &plain, PERFBUF_FMT_LARGE, &v), OK);
    CHECK_EQ_U(v.as_large, (uint64_t)INT32_MAX + 1);
    /* Through the double: 214748364.7 x 10 truncates to INT32_MAX. */
    perfbuf_raw_sample f0 = {OK, PERF_AVERAGE_BULK, 0, 0, 0, 0};
    perfbuf_raw_sample f1 = {OK, PERF_AVERAGE_BULK, 2147483647, 10, 0, 0};
    perfbuf_value_context ten = {0, 1};
    CHECK_EQ_U(perfbuf_format_value(f1.type, &f1, &f0, &ten, PERFBUF_FMT_LONG, &v), OK);
    CHECK_EQ_U(v.as_long, INT32_MAX);
    CHECK_EQ_U(v.as_large, INT32_MAX);
    f1.first = 2147483648u;
    CHECK_EQ_U(perfbuf_format_value(f1.type, &f1, &f0, &ten, PERFBUF_FMT_LONG, &v),
               PERFBUF_PDH_INVALID_DATA);
    /* 2^63 is the first value a LARGE cannot hold. */
    perfbuf_raw_sample big = {OK, PERF_COUNTER_LARGE_RAWCOUNT, 1ull << 62, 0, 0, 0};
    perfbuf_value_context two = {0, 0};
    CHECK_EQ_U(perfbuf_format_value(big.type, &big, NULL, &two, PERFBUF_FMT_LARGE | PERFBUF_FMT_1000, &v),
               PERFBUF_PDH_INVALID_DATA);
    big.first = (1ull << 53);
    CHECK_EQ_U(perfbuf_format_value(big.type, &big, NULL, &two, PERFBUF_FMT_LARGE | PERFBUF_FMT_1000, &v),
               OK);
    CHECK_EQ_U(v.as_large, (1ull << 53) * 1000u);
}

static void statistics_exact_and_bounded(void)
{
    perfbuf_value_context ctx = {0, 0};
    perfbuf_statistics s;
    /* 2^53 + 1 and 2^53 are one double apart from nothing: the integer
     * format still tells the larger. */
    perfbuf_raw_sample ring[2] = {
        {OK, PERF_COUNTER_LARGE_RAWCOUNT, 1ull << 53, 0, 0, 0},
        {OK, PERF_COUNTER_LARGE_RAWCOUNT, (1ull << 53) + 1, 0, 0, 0},
    };
    CHECK_EQ_U(perfbuf_compute_statistics(ring[0].type, &ctx, PERFBUF_FMT_LARGE, 0, 2, ring, &s), OK);
    CHECK_EQ_U(s.max.as_large, (1ull << 53) + 1);
    CHECK_EQ_U(s.min.as_large, 1ull << 53);
    CHECK_EQ_U(perfbuf_compute_statistics(ring[0].type, &ctx, PERFBUF_FMT_LARGE, 1, 2, ring, &s), OK);
    CHECK_EQ_U(s.max.as_large, (1ull << 53) + 1);
    ctx.scale = 11;
    CHECK_EQ_U(perfbuf_compute_statistics(ring[0].type, &ctx, PERFBUF_FMT_LARGE, 0, 2, ring, &s),
               PERFBUF_PDH_INVALID_ARGUMENT);
    ctx.scale = 0;
#if SIZE_MAX > UINT32_MAX
    /* Refused before any entry is read. */
    CHECK_EQ_U(perfbuf_compute_statistics(ring[0].type, &ctx, PERFBUF_FMT_LARGE, 0,
                                          (size_t)UINT32_MAX + 1, ring, &s),
               PERFBUF_PDH_INVALID_ARGUMENT);
#endif
    /* Two full-range pairs around a reset: the summed differences do not
     * fit 64 bits, so the mean has no value; min and max still do. */
    perfbuf_value_context f = {1000, 0};
    perfbuf_raw_sample wide[4] = {
        {OK, PERF_COUNTER_BULK_COUNT, 0, 0, 0, 0},
        {OK, PERF_COUNTER_BULK_COUNT, UINT64_MAX, 1000, 0, 0},
        {OK, PERF_COUNTER_BULK_COUNT, 0, 2000, 0, 0},
        {OK, PERF_COUNTER_BULK_COUNT, UINT64_MAX, 3000, 0, 0},
    };
    CHECK_EQ_U(perfbuf_compute_statistics(wide[0].type, &f, PERFBUF_FMT_DOUBLE, 0, 4, wide, &s),
               PERFBUF_PDH_INVALID_DATA);
    CHECK_EQ_U(s.count, 2);
    CHECK_EQ_U(s.mean.status, PERFBUF_PDH_INVALID_DATA);
    /* 2^64 - 1 rounds to 2^64 as a double. Compared with 2^64 itself: a
     * literal of 2^64 - 1 keeps all its bits where doubles are evaluated in
     * x87 extended precision (i386) and would not compare equal. */
    CHECK(s.max.as_double == 0x1p64);
}

static void statistics_of_percent_and_delta_types(void)
{
    /* % Processor Time over three seconds: idle 0.5 s, 0.75 s, 1.0 s of each
     * second, so 50, 25 and 0 % busy; over the series 25 %. */
    perfbuf_raw_sample ring[4] = {
        {OK, PERF_100NSEC_TIMER_INV, 0, T100, 0, 0},
        {OK, PERF_100NSEC_TIMER_INV, 5000000, T100 + 10000000, 0, 0},
        {OK, PERF_100NSEC_TIMER_INV, 12500000, T100 + 20000000, 0, 0},
        {OK, PERF_100NSEC_TIMER_INV, 22500000, T100 + 30000000, 0, 0},
    };
    perfbuf_value_context ctx = {0, 0};
    perfbuf_statistics s;
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_100NSEC_TIMER_INV, &ctx, PERFBUF_FMT_DOUBLE, 0, 4, ring, &s), OK);
    CHECK_EQ_U(s.count, 3);
    CHECK(fabs(s.min.as_double - 0.0) < 1e-12);
    CHECK(fabs(s.max.as_double - 50.0) < 1e-12);
    CHECK(fabs(s.mean.as_double - 25.0) < 1e-12);
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_100NSEC_TIMER_INV, &ctx, PERFBUF_FMT_LONG, 0, 4, ring, &s), OK);
    CHECK_EQ_U(s.max.as_long, 50);
    CHECK_EQ_U(s.mean.as_long, 25);
    /* Deltas: the arithmetic mean of the differences 5, 10, 30. */
    perfbuf_raw_sample deltas[4] = {
        {OK, PERF_COUNTER_DELTA, 0, 0, 0, 0},
        {OK, PERF_COUNTER_DELTA, 5, 0, 0, 0},
        {OK, PERF_COUNTER_DELTA, 15, 0, 0, 0},
        {OK, PERF_COUNTER_DELTA, 45, 0, 0, 0},
    };
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_DELTA, &ctx, PERFBUF_FMT_DOUBLE, 0, 4, deltas, &s), OK);
    CHECK_EQ_U(s.count, 3);
    CHECK(s.min.as_double == 5.0);
    CHECK(s.max.as_double == 30.0);
    CHECK(s.mean.as_double == 15.0);
}

static void statistics_edge_cases(void)
{
    perfbuf_raw_sample ring[2] = {
        {PERFBUF_CSTATUS_INVALID_DATA, PERF_COUNTER_RAWCOUNT, 1, 0, 0, 0},
        {PERFBUF_CSTATUS_INVALID_DATA, PERF_COUNTER_RAWCOUNT, 2, 0, 0, 0},
    };
    perfbuf_value_context ctx = {0, 0};
    perfbuf_statistics s;
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_RAWCOUNT, &ctx, PERFBUF_FMT_DOUBLE, 0, 2, ring, &s),
               PERFBUF_PDH_NO_DATA);
    CHECK_EQ_U(s.count, 0);
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_RAWCOUNT, &ctx, PERFBUF_FMT_DOUBLE, 2, 2, ring, &s),
               PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_RAWCOUNT, &ctx, PERFBUF_FMT_DOUBLE, 0, 0, ring, &s),
               PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_RAW_BASE, &ctx, PERFBUF_FMT_DOUBLE, 0, 2, ring, &s),
               PERFBUF_PDH_INVALID_ARGUMENT);
    ring[0].status = OK;
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_COUNTER, &ctx, PERFBUF_FMT_DOUBLE, 0, 2, ring, &s),
               PERFBUF_PDH_NO_DATA);
}

/* docs/formats.md#named-counter-types (size, suffix bits) and
 * docs/counter-types.md#every-type (samples), written out again. */
typedef struct type_row {
    uint32_t type;
    const char *name;
    uint32_t size;
    unsigned samples;
    const char *suffix;
} type_row;

static const type_row type_rows[] = {
    {PERF_COUNTER_COUNTER, "PERF_COUNTER_COUNTER", 4, 2, "/sec"},
    {PERF_COUNTER_TIMER, "PERF_COUNTER_TIMER", 8, 2, "%"},
    {PERF_COUNTER_QUEUELEN_TYPE, "PERF_COUNTER_QUEUELEN_TYPE", 4, 2, ""},
    {PERF_COUNTER_LARGE_QUEUELEN_TYPE, "PERF_COUNTER_LARGE_QUEUELEN_TYPE", 8, 2, ""},
    {PERF_COUNTER_100NS_QUEUELEN_TYPE, "PERF_COUNTER_100NS_QUEUELEN_TYPE", 8, 2, ""},
    {PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE, "PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE", 8, 2, ""},
    {PERF_COUNTER_BULK_COUNT, "PERF_COUNTER_BULK_COUNT", 8, 2, "/sec"},
    {PERF_COUNTER_TEXT, "PERF_COUNTER_TEXT", PERFBUF_SIZE_VARIABLE, 0, ""},
    {PERF_COUNTER_RAWCOUNT, "PERF_COUNTER_RAWCOUNT", 4, 1, ""},
    {PERF_COUNTER_LARGE_RAWCOUNT, "PERF_COUNTER_LARGE_RAWCOUNT", 8, 1, ""},
    {PERF_COUNTER_RAWCOUNT_HEX, "PERF_COUNTER_RAWCOUNT_HEX", 4, 1, ""},
    {PERF_COUNTER_LARGE_RAWCOUNT_HEX, "PERF_COUNTER_LARGE_RAWCOUNT_HEX", 8, 1, ""},
    {PERF_SAMPLE_FRACTION, "PERF_SAMPLE_FRACTION", 4, 2, "%"},
    {PERF_SAMPLE_COUNTER, "PERF_SAMPLE_COUNTER", 4, 2, ""},
    {PERF_COUNTER_NODATA, "PERF_COUNTER_NODATA", 0, 0, ""},
    {PERF_COUNTER_TIMER_INV, "PERF_COUNTER_TIMER_INV", 8, 2, "%"},
    {PERF_SAMPLE_BASE, "PERF_SAMPLE_BASE", 4, 0, ""},
    {PERF_AVERAGE_TIMER, "PERF_AVERAGE_TIMER", 4, 2, "secs"},
    {PERF_AVERAGE_BASE, "PERF_AVERAGE_BASE", 4, 0, ""},
    {PERF_AVERAGE_BULK, "PERF_AVERAGE_BULK", 8, 2, ""},
    {PERF_OBJ_TIME_TIMER, "PERF_OBJ_TIME_TIMER", 8, 2, "%"},
    {PERF_100NSEC_TIMER, "PERF_100NSEC_TIMER", 8, 2, "%"},
    {PERF_100NSEC_TIMER_INV, "PERF_100NSEC_TIMER_INV", 8, 2, "%"},
    {PERF_COUNTER_MULTI_TIMER, "PERF_COUNTER_MULTI_TIMER", 8, 2, "%"},
    {PERF_COUNTER_MULTI_TIMER_INV, "PERF_COUNTER_MULTI_TIMER_INV", 8, 2, "%"},
    {PERF_COUNTER_MULTI_BASE, "PERF_COUNTER_MULTI_BASE", 8, 0, ""},
    {PERF_100NSEC_MULTI_TIMER, "PERF_100NSEC_MULTI_TIMER", 8, 2, "%"},
    {PERF_100NSEC_MULTI_TIMER_INV, "PERF_100NSEC_MULTI_TIMER_INV", 8, 2, "%"},
    {PERF_RAW_FRACTION, "PERF_RAW_FRACTION", 4, 1, "%"},
    {PERF_LARGE_RAW_FRACTION, "PERF_LARGE_RAW_FRACTION", 8, 1, "%"},
    {PERF_RAW_BASE, "PERF_RAW_BASE", 4, 0, ""},
    {PERF_LARGE_RAW_BASE, "PERF_LARGE_RAW_BASE", 8, 0, ""},
    {0x40030503u, "PERF_LARGE_RAW_BASE", 8, 0, ""},
    {PERF_ELAPSED_TIME, "PERF_ELAPSED_TIME", 8, 1, "secs"},
    {PERF_COUNTER_HISTOGRAM_TYPE, "PERF_COUNTER_HISTOGRAM_TYPE", 4, 0, ""},
    {PERF_COUNTER_DELTA, "PERF_COUNTER_DELTA", 4, 2, ""},
    {PERF_COUNTER_LARGE_DELTA, "PERF_COUNTER_LARGE_DELTA", 8, 2, ""},
    {PERF_PRECISION_SYSTEM_TIMER, "PERF_PRECISION_SYSTEM_TIMER", 8, 2, "%"},
    {PERF_PRECISION_100NS_TIMER, "PERF_PRECISION_100NS_TIMER", 8, 2, "%"},
    {PERF_PRECISION_OBJECT_TIMER, "PERF_PRECISION_OBJECT_TIMER", 8, 2, "%"},
};

static void type_table(void)
{
    for (size_t i = 0; i < sizeof type_rows / sizeof type_rows[0]; i++) {
        const type_row *r = &type_rows[i];
        const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(r->type);
        CHECK(info != NULL);
        CHECK_EQ_U(info->type, r->type);
        CHECK_STR(perfbuf_counter_type_name(r->type), r->name);
        CHECK_EQ_U(perfbuf_counter_type_size(r->type), r->size);
        CHECK_EQ_U(perfbuf_counter_type_samples(r->type), r->samples);
        CHECK(perfbuf_counter_type_is_displayable(r->type) == (r->samples != 0));
        CHECK_STR(perfbuf_counter_type_suffix(r->type), r->suffix);
        /* Percent capping follows the PERF_DISPLAY_PERCENT suffix bits. */
        CHECK(info->is_percent == ((r->type & 0x70000000u) == 0x20000000u));
        /* Base types by subtype, never by the NOSHOW bit. */
        bool base = (r->type & 0x000F0C00u) == 0x00030400u;
        CHECK(perfbuf_counter_type_is_base(r->type) == base);
        /* A displayable type gets a value, or a status from its inputs,
         * never INVALID_ARGUMENT. */
        perfbuf_raw_sample s1 = {OK, r->type, 1, 1, 1, 0};
        perfbuf_raw_sample s0 = {OK, r->type, 0, 0, 1, 0};
        perfbuf_value_context ctx = {1, 0};
        perfbuf_value v;
        uint32_t st = perfbuf_format_value(r->type, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, &v);
        CHECK((st == PERFBUF_PDH_INVALID_ARGUMENT) == (r->samples == 0));
    }
    /* Every named type above, and nothing else, is in the table. */
    size_t named = 0;
    for (uint32_t bits = 0; bits < 0x100u; bits++) {
        /* The suffix, modifier, time-base, subtype, type and size fields
         * of every row, with the low byte walked: nothing else matches. */
        named += perfbuf_counter_type_lookup(PERF_COUNTER_COUNTER | bits) != NULL;
    }
    CHECK_EQ_U(named, 1);
    const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(PERF_AVERAGE_BULK);
    CHECK(info != NULL);
    CHECK(info->needs_base);
    CHECK(!info->needs_multi);
    CHECK(perfbuf_counter_type_lookup(PERF_100NSEC_MULTI_TIMER)->needs_multi);
    CHECK_EQ_U(perfbuf_counter_type_lookup(PERF_100NSEC_TIMER_INV)->time_base, PERFBUF_TIME_100NS);
    CHECK_EQ_U(perfbuf_counter_type_lookup(PERF_ELAPSED_TIME)->time_base, PERFBUF_TIME_OBJECT);
    CHECK_EQ_U(perfbuf_counter_type_lookup(PERF_COUNTER_BULK_COUNT)->time_base, PERFBUF_TIME_SYSTEM);
    CHECK_EQ_U(perfbuf_counter_type_lookup(PERF_RAW_FRACTION)->time_base, PERFBUF_TIME_NONE);
    CHECK_STR(perfbuf_counter_type_name(PERF_PRECISION_TIMESTAMP), "PERF_LARGE_RAW_BASE");
    /* Unknown types: no name, no value. */
    CHECK_STR(perfbuf_counter_type_name(1), "unknown");
    CHECK(perfbuf_counter_type_lookup(0x00012000u) == NULL); /* WMI's PERF_DOUBLE_RAW */
    CHECK_EQ_U(perfbuf_counter_type_samples(0x12345678u), 0);
    CHECK(!perfbuf_counter_type_is_displayable(0x12345678u));
    CHECK_STR(perfbuf_counter_type_suffix(0x12345678u), "");
    CHECK(perfbuf_counter_type_is_hex(PERF_COUNTER_RAWCOUNT_HEX));
    CHECK(perfbuf_counter_type_is_hex(PERF_COUNTER_LARGE_RAWCOUNT_HEX));
    CHECK(!perfbuf_counter_type_is_hex(PERF_COUNTER_RAWCOUNT));
    CHECK(!perfbuf_counter_type_is_hex(PERF_COUNTER_NODATA)); /* HEX subtype bits, no value */
    CHECK(!perfbuf_counter_type_is_base(0x12345678u));
}

/*
 * A prepared formula answers as perfbuf_format_value for its type, stays
 * valid for every later pair of samples, and refuses what it was not
 * prepared for: samples of another type, a NULL formula, a formula field
 * no preparation writes.
 */
static void prepared_formulas(void)
{
    perfbuf_prepared_formula timer;
    CHECK_EQ_U(perfbuf_prepare_formula(PERF_100NSEC_TIMER_INV, &timer), OK);
    perfbuf_value_context ctx = {0, 0};
    perfbuf_value v;
    for (uint64_t busy = 0; busy <= 100000000ull; busy += 12500000ull) {
        perfbuf_raw_sample s0 = {OK, PERF_100NSEC_TIMER_INV, 5000000000ull, T100, 0, 0};
        perfbuf_raw_sample s1 = {OK, PERF_100NSEC_TIMER_INV, 5000000000ull + busy, T100 + 100000000ull, 0, 0};
        CHECK_EQ_U(perfbuf_format_prepared(&timer, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, &v), OK);
        CHECK(v.as_double == 100.0 * (double)(100000000ull - busy) / 100000000.0);
    }
    /* Samples are checked against the prepared type. */
    perfbuf_raw_sample raw = {OK, PERF_COUNTER_RAWCOUNT, 42, 0, 0, 0};
    CHECK_EQ_U(perfbuf_format_prepared(&timer, &raw, &raw, &ctx, PERFBUF_FMT_DOUBLE, &v), PERFBUF_CSTATUS_INVALID_DATA);
    perfbuf_prepared_formula count;
    CHECK_EQ_U(perfbuf_prepare_formula(PERF_COUNTER_RAWCOUNT, &count), OK);
    CHECK_EQ_U(perfbuf_format_prepared(&count, &raw, NULL, &ctx, PERFBUF_FMT_LARGE, &v), OK);
    CHECK_EQ_U(v.as_large, 42);
    CHECK_EQ_U(v.format, PERFBUF_FMT_LARGE);
    /* Types with no value prepare to a refusal. */
    perfbuf_prepared_formula base;
    CHECK_EQ_U(perfbuf_prepare_formula(PERF_RAW_BASE, &base), PERFBUF_PDH_INVALID_ARGUMENT);
    perfbuf_raw_sample b = {OK, PERF_RAW_BASE, 1, 1, 1, 0};
    CHECK_EQ_U(perfbuf_format_prepared(&base, &b, &b, &ctx, PERFBUF_FMT_DOUBLE, &v), PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK_EQ_U(v.status, PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_prepare_formula(0x12345678u, &base), PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_prepare_formula(PERF_COUNTER_RAWCOUNT, NULL), PERFBUF_PDH_INVALID_ARGUMENT);
    /* NULL formula, and formula numbers past the last one. */
    CHECK_EQ_U(perfbuf_format_prepared(NULL, &raw, NULL, &ctx, PERFBUF_FMT_DOUBLE, &v), PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK_EQ_U(v.status, PERFBUF_PDH_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_format_prepared(&count, &raw, NULL, &ctx, PERFBUF_FMT_DOUBLE, NULL), PERFBUF_PDH_INVALID_ARGUMENT);
    static const uint32_t damaged[] = {14u, 15u, 255u, 0x80000000u, 0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof damaged / sizeof damaged[0]; i++) {
        perfbuf_prepared_formula bad = count;
        bad.formula = damaged[i];
        CHECK_EQ_U(perfbuf_format_prepared(&bad, &raw, &raw, &ctx, PERFBUF_FMT_DOUBLE, &v), PERFBUF_PDH_INVALID_ARGUMENT);
    }
}

static const th_case cases[] = {
    TH_CASE(prepared_formulas),
    TH_CASE(every_type_and_status),
    TH_CASE(inverse_timer_near_zero_is_exact),
    TH_CASE(one_sample_types_ignore_older),
    TH_CASE(mismatched_and_invalid_samples),
    TH_CASE(integer_formats),
    TH_CASE(statistics_of_one_sample_type),
    TH_CASE(statistics_of_two_sample_type),
    TH_CASE(exact_comparisons),
    TH_CASE(negative_scales_round_once),
    TH_CASE(long_boundaries),
    TH_CASE(statistics_exact_and_bounded),
    TH_CASE(statistics_of_percent_and_delta_types),
    TH_CASE(statistics_edge_cases),
    TH_CASE(type_table),
};
TH_MAIN(cases)
