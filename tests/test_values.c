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
    {"sample base", PERF_SAMPLE_BASE, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_INVALID_ARGUMENT, 0},
    {"average base", PERF_AVERAGE_BASE, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_INVALID_ARGUMENT, 0},
    {"raw base", PERF_RAW_BASE, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_INVALID_ARGUMENT, 0},
    {"large raw base", PERF_LARGE_RAW_BASE, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_INVALID_ARGUMENT, 0},
    {"multi base", PERF_COUNTER_MULTI_BASE, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_INVALID_ARGUMENT, 0},
    {"text", PERF_COUNTER_TEXT, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_INVALID_ARGUMENT, 0},
    {"nodata", PERF_COUNTER_NODATA, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_INVALID_ARGUMENT, 0},
    {"histogram", PERF_COUNTER_HISTOGRAM_TYPE, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_INVALID_ARGUMENT, 0},
    {"unknown type", 0x12345678, NONE_, 0, 1, 1, 0, 1, 0, D, PERFBUF_INVALID_ARGUMENT, 0},
    /* statuses */
    {"one sample of two", PERF_COUNTER_COUNTER, NONE_, 0, 600, 5000, 0, 1000, 0, D, PERFBUF_CSTATUS_INVALID_DATA, 0},
    {"counter went back", PERF_COUNTER_COUNTER, 600, 0, 100, 5000, 0, 1000, 0, D, PERFBUF_CALC_NEGATIVE_VALUE, 0},
    {"time went back", PERF_COUNTER_COUNTER, 100, 5000, 600, 0, 0, 1000, 0, D, PERFBUF_CALC_NEGATIVE_DENOMINATOR, 0},
    {"no time passed", PERF_COUNTER_COUNTER, 100, 5000, 600, 5000, 0, 1000, 0, D, PERFBUF_CALC_NEGATIVE_DENOMINATOR, 0},
    {"zero frequency", PERF_COUNTER_COUNTER, 100, 0, 600, 5000, 0, 0, 0, D, PERFBUF_CALC_NEGATIVE_TIMEBASE, 0},
    {"zero frequency average", PERF_AVERAGE_TIMER, 0, 10, 3000, 16, 0, 0, 0, D, PERFBUF_CALC_NEGATIVE_TIMEBASE, 0},
    {"zero frequency elapsed", PERF_ELAPSED_TIME, NONE_, 0, 1000, 61000, 0, 0, 0, D, PERFBUF_CALC_NEGATIVE_TIMEBASE, 0},
    {"base unchanged", PERF_SAMPLE_FRACTION, 10, 100, 40, 100, 0, 0, 0, D, PERFBUF_CALC_NEGATIVE_DENOMINATOR, 0},
    {"base zero", PERF_RAW_FRACTION, NONE_, 0, 1, 0, 0, 0, 0, D, PERFBUF_CALC_NEGATIVE_DENOMINATOR, 0},
    {"multi zero", PERF_COUNTER_MULTI_TIMER, 0, 0, 500, 1000, 0, 1000, 0, D, PERFBUF_CALC_NEGATIVE_DENOMINATOR, 0},
    {"inverse below zero", PERF_100NSEC_TIMER_INV, 0, 0, 10000001, 10000000, 0, 0, 0, D, PERFBUF_CALC_NEGATIVE_VALUE, 0},
    {"multi inverse below zero", PERF_COUNTER_MULTI_TIMER_INV, 0, 0, 3000, 1000, 2, 1000, 0, D, PERFBUF_CALC_NEGATIVE_VALUE, 0},
    {"elapsed before start", PERF_ELAPSED_TIME, NONE_, 0, 61000, 1000, 0, 1000, 0, D, PERFBUF_CALC_NEGATIVE_VALUE, 0},
    {"average timer base unchanged", PERF_AVERAGE_TIMER, 0, 10, 3000, 10, 0, 1000, 0, D, PERFBUF_CALC_NEGATIVE_DENOMINATOR, 0},
    /* format flags */
    {"no format", PERF_COUNTER_RAWCOUNT, NONE_, 0, 42, 0, 0, 0, 0, 0, PERFBUF_INVALID_ARGUMENT, 0},
    {"two formats", PERF_COUNTER_RAWCOUNT, NONE_, 0, 42, 0, 0, 0, 0, D | PERFBUF_FMT_LONG, PERFBUF_INVALID_ARGUMENT, 0},
    {"scale 11", PERF_COUNTER_RAWCOUNT, NONE_, 0, 42, 0, 0, 0, 11, D, PERFBUF_INVALID_ARGUMENT, 0},
    {"scale -11", PERF_COUNTER_RAWCOUNT, NONE_, 0, 42, 0, 0, 0, -11, D, PERFBUF_INVALID_ARGUMENT, 0},
    {"scale 2", PERF_COUNTER_RAWCOUNT, NONE_, 0, 42, 0, 0, 0, 2, D, OK, 4200.0},
    {"scale -1", PERF_COUNTER_RAWCOUNT, NONE_, 0, 42, 0, 0, 0, -1, D, OK, 4.2},
    {"noscale", PERF_COUNTER_RAWCOUNT, NONE_, 0, 42, 0, 0, 0, 2, D | PERFBUF_FMT_NOSCALE, OK, 42.0},
    {"x1000", PERF_AVERAGE_TIMER, 0, 10, 3000, 16, 0, 1000, 0, D | PERFBUF_FMT_1000, OK, 500.0},
    {"percent capped", PERF_COUNTER_TIMER, 0, 0, 1500, 1000, 0, 1000, 0, D, OK, 100.0},
    {"percent nocap", PERF_COUNTER_TIMER, 0, 0, 1500, 1000, 0, 1000, 0, D | PERFBUF_FMT_NOCAP100, OK, 150.0},
    {"x1000 then cap", PERF_RAW_FRACTION, NONE_, 0, 1, 4, 0, 0, 0, D | PERFBUF_FMT_1000, OK, 100.0},
    {"scaled then cap", PERF_RAW_FRACTION, NONE_, 0, 1, 4, 0, 0, 1, D, OK, 100.0},
    {"rate not capped", PERF_COUNTER_COUNTER, 0, 0, 1500, 1000, 0, 1000, 0, D, OK, 1500.0},
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
        if (st != r->status || (st == OK && fabs(v.as_double - r->expect) > 1e-9 * fabs(r->expect))) {
            fprintf(stderr, "%s: status 0x%08x value %.17g\n", r->what, st, v.as_double);
        }
        CHECK_EQ_U(st, r->status);
        CHECK_EQ_U(v.status, st);
        if (st == OK) {
            CHECK(fabs(v.as_double - r->expect) <= 1e-9 * fabs(r->expect));
        }
    }
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
    CHECK_EQ_U(perfbuf_format_value(PERF_COUNTER_BULK_COUNT, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, &v),
               PERFBUF_CSTATUS_INVALID_DATA);
    CHECK_EQ_U(perfbuf_format_value(PERF_COUNTER_COUNTER, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, &v), OK);
    CHECK_EQ_U(perfbuf_format_value(PERF_COUNTER_COUNTER, NULL, &s0, &ctx, PERFBUF_FMT_DOUBLE, &v),
               PERFBUF_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_format_value(PERF_COUNTER_COUNTER, &s1, &s0, NULL, PERFBUF_FMT_DOUBLE, &v),
               PERFBUF_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_format_value(PERF_COUNTER_COUNTER, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, NULL),
               PERFBUF_INVALID_ARGUMENT);
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
               PERFBUF_INVALID_DATA);
    big.first = UINT64_MAX;
    CHECK_EQ_U(perfbuf_format_value(big.type, &big, NULL, &ctx, PERFBUF_FMT_LARGE, &v),
               PERFBUF_INVALID_DATA);
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
               PERFBUF_INVALID_DATA);
    ctx.scale = -1;
    CHECK_EQ_U(perfbuf_format_value(raw.type, &raw, NULL, &ctx, PERFBUF_FMT_LONG, &v), OK);
    CHECK_EQ_U(v.as_long, 300000000);
    ctx.scale = 10;
    CHECK_EQ_U(perfbuf_format_value(raw.type, &raw, NULL, &ctx, PERFBUF_FMT_LARGE, &v),
               PERFBUF_INVALID_DATA);
    /* The largest rate the inputs allow stays finite and is refused as an integer. */
    perfbuf_raw_sample r1 = {OK, PERF_COUNTER_BULK_COUNT, UINT64_MAX, 1, 0, 0};
    perfbuf_raw_sample r0 = {OK, PERF_COUNTER_BULK_COUNT, 0, 0, 0, 0};
    perfbuf_value_context huge = {UINT64_MAX, 10};
    CHECK_EQ_U(perfbuf_format_value(r1.type, &r1, &r0, &huge, PERFBUF_FMT_DOUBLE | PERFBUF_FMT_1000, &v), OK);
    CHECK(v.as_double > 1e50);
    CHECK_EQ_U(perfbuf_format_value(r1.type, &r1, &r0, &huge, PERFBUF_FMT_LARGE, &v),
               PERFBUF_INVALID_DATA);
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
               PERFBUF_NO_DATA);
    CHECK_EQ_U(s.count, 0);
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_RAWCOUNT, &ctx, PERFBUF_FMT_DOUBLE, 2, 2, ring, &s),
               PERFBUF_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_RAWCOUNT, &ctx, PERFBUF_FMT_DOUBLE, 0, 0, ring, &s),
               PERFBUF_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_RAW_BASE, &ctx, PERFBUF_FMT_DOUBLE, 0, 2, ring, &s),
               PERFBUF_INVALID_ARGUMENT);
    ring[0].status = OK;
    CHECK_EQ_U(perfbuf_compute_statistics(PERF_COUNTER_COUNTER, &ctx, PERFBUF_FMT_DOUBLE, 0, 2, ring, &s),
               PERFBUF_NO_DATA);
}

static void type_table(void)
{
    const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(PERF_AVERAGE_BULK);
    CHECK(info != NULL);
    CHECK_EQ_U(info->samples, 2); /* two samples without the DELTA bit */
    CHECK(info->needs_base);
    CHECK(!info->is_percent);
    CHECK_STR(perfbuf_counter_type_name(PERF_PRECISION_TIMESTAMP), "PERF_LARGE_RAW_BASE");
    CHECK(perfbuf_counter_type_is_base(PERFBUF_WMI_LARGE_RAW_BASE));
    CHECK(!perfbuf_counter_type_is_base(PERF_PRECISION_100NS_TIMER));
    CHECK_EQ_U(perfbuf_counter_type_lookup(PERF_ELAPSED_TIME)->samples, 1);
    CHECK_EQ_U(perfbuf_counter_type_size(PERF_COUNTER_TEXT), PERFBUF_SIZE_VARIABLE);
    CHECK_EQ_U(perfbuf_counter_type_size(PERF_COUNTER_NODATA), 0);
    CHECK_EQ_U(perfbuf_counter_type_size(PERF_COUNTER_BULK_COUNT), 8);
    CHECK_STR(perfbuf_counter_type_name(1), "unknown");
}

static const th_case cases[] = {
    TH_CASE(every_type_and_status),
    TH_CASE(one_sample_types_ignore_older),
    TH_CASE(mismatched_and_invalid_samples),
    TH_CASE(integer_formats),
    TH_CASE(statistics_of_one_sample_type),
    TH_CASE(statistics_of_two_sample_type),
    TH_CASE(statistics_edge_cases),
    TH_CASE(type_table),
};
TH_MAIN(cases)
