/*
 * The double path of perfbuf_format_value against an independent
 * computation in long double, on pseudo-random samples (fixed seed, so the
 * run is repeatable). Statuses must agree exactly; values within a relative
 * 1e-9 (a double carries ~1e-16; the formulas take at most four roundings).
 */
#include <math.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/values.h"
#include "harness.h"

static uint64_t state = 0x9E3779B97F4A7C15ull;

/* xorshift64; the masks keep the shifts free of discarded bits, so the
 * integer sanitizer has nothing to report. */
static uint64_t next_random(void)
{
    state ^= (state & (UINT64_MAX >> 13)) << 13;
    state ^= state >> 7;
    state ^= (state & (UINT64_MAX >> 17)) << 17;
    return state;
}

/* Mostly small values, sometimes huge ones, sometimes equal or reversed. */
static uint64_t pick(void)
{
    switch (next_random() % 6) {
    case 0:
        return next_random();
    case 1:
        return next_random() % 1000;
    case 2:
        return 0;
    default:
        return next_random() % 100000000000ull;
    }
}

typedef struct model {
    uint32_t status;
    long double value;
} model;

static const uint32_t all_types[] = {
    PERF_COUNTER_COUNTER, PERF_COUNTER_BULK_COUNT, PERF_SAMPLE_COUNTER,
    PERF_COUNTER_QUEUELEN_TYPE, PERF_COUNTER_100NS_QUEUELEN_TYPE, PERF_COUNTER_TIMER,
    PERF_COUNTER_TIMER_INV, PERF_100NSEC_TIMER, PERF_100NSEC_TIMER_INV, PERF_OBJ_TIME_TIMER,
    PERF_COUNTER_MULTI_TIMER, PERF_100NSEC_MULTI_TIMER_INV, PERF_SAMPLE_FRACTION,
    PERF_RAW_FRACTION, PERF_LARGE_RAW_FRACTION, PERF_AVERAGE_TIMER, PERF_AVERAGE_BULK,
    PERF_COUNTER_RAWCOUNT, PERF_COUNTER_LARGE_DELTA, PERF_ELAPSED_TIME,
    PERF_PRECISION_100NS_TIMER,
};

/* The formulas of docs/counter-types.md, written again independently. */
static model expected(uint32_t type, uint64_t n0, uint64_t d0, uint64_t n1, uint64_t d1,
                      uint32_t m, uint64_t f)
{
    model r = {PERFBUF_CSTATUS_VALID_DATA, 0.0L};
    long double N0 = (long double)n0, N1 = (long double)n1;
    long double D0 = (long double)d0, D1 = (long double)d1;
    long double F = (long double)f, M = (long double)m;
    bool one = type == PERF_RAW_FRACTION || type == PERF_LARGE_RAW_FRACTION ||
               type == PERF_COUNTER_RAWCOUNT || type == PERF_ELAPSED_TIME;
    if (!one) {
        if (n1 < n0) {
            r.status = PERFBUF_CALC_NEGATIVE_VALUE;
            return r;
        }
        if (d1 < d0) {
            r.status = PERFBUF_CALC_NEGATIVE_DENOMINATOR;
            return r;
        }
    }
    long double dn = N1 - N0, dd = D1 - D0;
    switch (type) {
    case PERF_COUNTER_COUNTER:
    case PERF_COUNTER_BULK_COUNT:
    case PERF_SAMPLE_COUNTER:
        if (f == 0) { r.status = PERFBUF_CALC_NEGATIVE_TIMEBASE; break; }
        if (d1 == d0) { r.status = PERFBUF_CALC_NEGATIVE_DENOMINATOR; break; }
        r.value = dn / (dd / F);
        break;
    case PERF_COUNTER_QUEUELEN_TYPE:
    case PERF_COUNTER_100NS_QUEUELEN_TYPE:
    case PERF_AVERAGE_BULK:
        if (d1 == d0) { r.status = PERFBUF_CALC_NEGATIVE_DENOMINATOR; break; }
        r.value = dn / dd;
        break;
    case PERF_COUNTER_TIMER:
    case PERF_100NSEC_TIMER:
    case PERF_OBJ_TIME_TIMER:
    case PERF_SAMPLE_FRACTION:
    case PERF_PRECISION_100NS_TIMER:
        if (d1 == d0) { r.status = PERFBUF_CALC_NEGATIVE_DENOMINATOR; break; }
        r.value = 100.0L * dn / dd;
        break;
    case PERF_COUNTER_TIMER_INV:
    case PERF_100NSEC_TIMER_INV:
        if (d1 == d0) { r.status = PERFBUF_CALC_NEGATIVE_DENOMINATOR; break; }
        if (n1 - n0 > d1 - d0) { r.status = PERFBUF_CALC_NEGATIVE_VALUE; break; }
        r.value = 100.0L * (1.0L - dn / dd);
        break;
    case PERF_COUNTER_MULTI_TIMER:
        if (d1 == d0 || m == 0) { r.status = PERFBUF_CALC_NEGATIVE_DENOMINATOR; break; }
        r.value = 100.0L * (dn / dd) / M;
        break;
    case PERF_100NSEC_MULTI_TIMER_INV:
        if (d1 == d0 || m == 0) { r.status = PERFBUF_CALC_NEGATIVE_DENOMINATOR; break; }
        if (dn / dd > M) { r.status = PERFBUF_CALC_NEGATIVE_VALUE; break; }
        r.value = 100.0L * (M - dn / dd) / M;
        break;
    case PERF_RAW_FRACTION:
    case PERF_LARGE_RAW_FRACTION:
        if (d1 == 0) { r.status = PERFBUF_CALC_NEGATIVE_DENOMINATOR; break; }
        r.value = 100.0L * N1 / D1;
        break;
    case PERF_AVERAGE_TIMER:
        if (f == 0) { r.status = PERFBUF_CALC_NEGATIVE_TIMEBASE; break; }
        if (d1 == d0) { r.status = PERFBUF_CALC_NEGATIVE_DENOMINATOR; break; }
        r.value = (dn / F) / dd;
        break;
    case PERF_COUNTER_RAWCOUNT:
        r.value = N1;
        break;
    case PERF_COUNTER_LARGE_DELTA:
        r.value = dn;
        break;
    case PERF_ELAPSED_TIME:
        if (f == 0) { r.status = PERFBUF_CALC_NEGATIVE_TIMEBASE; break; }
        if (d1 < n1) { r.status = PERFBUF_CALC_NEGATIVE_VALUE; break; }
        r.value = (D1 - N1) / F;
        break;
    default:
        r.status = PERFBUF_INVALID_ARGUMENT;
        break;
    }
    return r;
}

static void double_path_matches_long_double(void)
{
    size_t checked = 0;
    size_t valid = 0;
    for (int round = 0; round < 200000; round++) {
        uint32_t type = all_types[next_random() % (sizeof all_types / sizeof all_types[0])];
        uint64_t n0 = pick(), d0 = pick();
        uint64_t n1 = (next_random() % 4 == 0) ? pick() : n0 + pick() % 1000000000ull;
        uint64_t d1 = (next_random() % 4 == 0) ? pick() : d0 + pick() % 1000000000ull;
        if (n1 < n0 && next_random() % 2 == 0) {
            n1 = n0;
        }
        uint32_t m = (uint32_t)(next_random() % 8);
        uint64_t f = next_random() % 5 == 0 ? 0 : pick();
        perfbuf_raw_sample s1 = {PERFBUF_CSTATUS_VALID_DATA, type, n1, d1, m, 0};
        perfbuf_raw_sample s0 = {PERFBUF_CSTATUS_VALID_DATA, type, n0, d0, m, 0};
        perfbuf_value_context ctx = {f, 0};
        perfbuf_value v;
        uint32_t st = perfbuf_format_value(type, &s1, &s0, &ctx,
                                           PERFBUF_FMT_DOUBLE | PERFBUF_FMT_NOCAP100, &v);
        model want = expected(type, n0, d0, n1, d1, m, f);
        if (st != want.status) {
            fprintf(stderr, "type %08x n0 %llu d0 %llu n1 %llu d1 %llu m %u f %llu: 0x%08x vs 0x%08x\n",
                    type, (unsigned long long)n0, (unsigned long long)d0,
                    (unsigned long long)n1, (unsigned long long)d1, m,
                    (unsigned long long)f, st, want.status);
        }
        CHECK_EQ_U(st, want.status);
        if (st == PERFBUF_CSTATUS_VALID_DATA) {
            long double diff = fabsl((long double)v.as_double - want.value);
            CHECK(diff <= 1e-9L * fabsl(want.value) || diff < 1e-300L);
            valid++;
        }
        checked++;
    }
    printf("%zu samples compared, %zu with a value\n", checked, valid);
    CHECK(valid > checked / 4);
}

static const th_case cases[] = {
    TH_CASE(double_path_matches_long_double),
};
TH_MAIN(cases)
