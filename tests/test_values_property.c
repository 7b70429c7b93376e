/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * perfbuf_format_value against an independent model, on pseudo-random
 * samples, types, scales and flags (fixed seed: every run is the same).
 * The model computes in long double and decides its statuses with exact
 * integer comparisons written differently from the library's.
 *   statuses             agree exactly;
 *   FMT_DOUBLE values    within a relative 1e-9 (a double carries ~1.1e-16,
 *                        a formula and its scaling take at most six
 *                        roundings, so 1e-9 leaves room for long double
 *                        being as narrow as double on some targets);
 *   FMT_LARGE / LONG     equal to the model's value truncated toward zero
 *                        when it is below 1e12 and not within 1e-9 of an
 *                        integer; otherwise (a rounding may fall either
 *                        side, and doubles above 2^53 skip integers) off
 *                        by at most 1 + 1e-9 of the value;
 *                        INVALID_DATA exactly when the value is outside the
 *                        integer type (either is accepted within 1e-9 of
 *                        the limit);
 *   raw counts, deltas   unscaled integer results are exact.
 * And against the formulas as they were before the fast path
 * (fuzz/values_reference.h): perfbuf_format_value and
 * perfbuf_format_prepared equal them bit for bit on every input, the
 * refused ones included.
 */
#include <math.h>
#include <string.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/values.h"
#include "harness.h"
#include "../fuzz/values_reference.h"

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

/* Mostly moderate values, sometimes huge ones or zero. */
/* Counters wrap by design; these wrap without tripping -fsanitize=integer. */
static uint64_t wrapping_add(uint64_t a, uint64_t b)
{
    uint64_t r;
    (void)__builtin_add_overflow(a, b, &r);
    return r;
}

static uint64_t wrapping_sub(uint64_t a, uint64_t b)
{
    uint64_t r;
    (void)__builtin_sub_overflow(a, b, &r);
    return r;
}

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

/* Every displayable type, and whether PERF_DISPLAY_PERCENT caps it. */
typedef struct kind {
    uint32_t type;
    bool percent;
    bool two;
} kind;

static const kind kinds[] = {
    {PERF_COUNTER_COUNTER, false, true},
    {PERF_COUNTER_BULK_COUNT, false, true},
    {PERF_SAMPLE_COUNTER, false, true},
    {PERF_COUNTER_QUEUELEN_TYPE, false, true},
    {PERF_COUNTER_LARGE_QUEUELEN_TYPE, false, true},
    {PERF_COUNTER_100NS_QUEUELEN_TYPE, false, true},
    {PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE, false, true},
    {PERF_COUNTER_TIMER, true, true},
    {PERF_COUNTER_TIMER_INV, true, true},
    {PERF_100NSEC_TIMER, true, true},
    {PERF_100NSEC_TIMER_INV, true, true},
    {PERF_OBJ_TIME_TIMER, true, true},
    {PERF_COUNTER_MULTI_TIMER, true, true},
    {PERF_COUNTER_MULTI_TIMER_INV, true, true},
    {PERF_100NSEC_MULTI_TIMER, true, true},
    {PERF_100NSEC_MULTI_TIMER_INV, true, true},
    {PERF_SAMPLE_FRACTION, true, true},
    {PERF_RAW_FRACTION, true, false},
    {PERF_LARGE_RAW_FRACTION, true, false},
    {PERF_PRECISION_SYSTEM_TIMER, true, true},
    {PERF_PRECISION_100NS_TIMER, true, true},
    {PERF_PRECISION_OBJECT_TIMER, true, true},
    {PERF_AVERAGE_TIMER, false, true},
    {PERF_AVERAGE_BULK, false, true},
    {PERF_COUNTER_RAWCOUNT, false, false},
    {PERF_COUNTER_LARGE_RAWCOUNT, false, false},
    {PERF_COUNTER_RAWCOUNT_HEX, false, false},
    {PERF_COUNTER_LARGE_RAWCOUNT_HEX, false, false},
    {PERF_COUNTER_DELTA, false, true},
    {PERF_COUNTER_LARGE_DELTA, false, true},
    {PERF_ELAPSED_TIME, false, false},
};

typedef struct model {
    uint32_t status;
    long double value;
    bool integral; /* value is the exact integer `exact` */
    uint64_t exact;
} model;

/* The sign of m * d - n, with the product formed in 32-bit halves:
 * m * (d >> 32) + carry stays below 2^64. */
static int compare_product(uint32_t m, uint64_t d, uint64_t n)
{
    uint64_t low = (uint64_t)m * (d & 0xFFFFFFFFu);
    uint64_t high = (uint64_t)m * (d >> 32) + (low >> 32);
    if ((high >> 32) != 0) {
        return 1;
    }
    uint64_t product = (high << 32) | (low & 0xFFFFFFFFu);
    return product > n ? 1 : product < n ? -1 : 0;
}

/* The formulas of docs/counter-types.md, written again independently. */
static model formula(const kind *k, uint64_t n0, uint64_t d0, uint64_t n1, uint64_t d1,
                     uint32_t m, uint64_t f)
{
    model r = {PERFBUF_CSTATUS_VALID_DATA, 0.0L, false, 0};
    uint32_t t = k->type;
    bool delta = t == PERF_COUNTER_DELTA || t == PERF_COUNTER_LARGE_DELTA;
    if (k->two) {
        if (n1 < n0) {
            r.status = PERFBUF_PDH_CALC_NEGATIVE_VALUE;
            return r;
        }
        if (!delta && d1 < d0) {
            r.status = PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR;
            return r;
        }
    }
    /* Meaningful for two-sample types only; zero otherwise, so that the
     * model never wraps (the tests run under -fsanitize=integer). */
    uint64_t dn = n1 >= n0 ? n1 - n0 : 0;
    uint64_t dd = d1 >= d0 ? d1 - d0 : 0;
    long double DN = (long double)dn, DD = (long double)dd;
    long double F = (long double)f, M = (long double)m;
    switch (t) {
    case PERF_COUNTER_COUNTER:
    case PERF_COUNTER_BULK_COUNT:
    case PERF_SAMPLE_COUNTER:
    case PERF_AVERAGE_TIMER:
        if (f == 0) { r.status = PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE; break; }
        if (dd == 0) { r.status = PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR; break; }
        r.value = t == PERF_AVERAGE_TIMER ? DN / F / DD : DN * F / DD;
        break;
    case PERF_COUNTER_QUEUELEN_TYPE:
    case PERF_COUNTER_LARGE_QUEUELEN_TYPE:
    case PERF_COUNTER_100NS_QUEUELEN_TYPE:
    case PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE:
    case PERF_AVERAGE_BULK:
        if (dd == 0) { r.status = PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR; break; }
        r.value = DN / DD;
        break;
    case PERF_COUNTER_TIMER:
    case PERF_100NSEC_TIMER:
    case PERF_OBJ_TIME_TIMER:
    case PERF_SAMPLE_FRACTION:
    case PERF_PRECISION_SYSTEM_TIMER:
    case PERF_PRECISION_100NS_TIMER:
    case PERF_PRECISION_OBJECT_TIMER:
        if (dd == 0) { r.status = PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR; break; }
        r.value = 100.0L * DN / DD;
        break;
    case PERF_COUNTER_TIMER_INV:
    case PERF_100NSEC_TIMER_INV:
        if (dd == 0) { r.status = PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR; break; }
        if (dn > dd) { r.status = PERFBUF_PDH_CALC_NEGATIVE_VALUE; break; }
        r.value = 100.0L * (DD - DN) / DD;
        break;
    case PERF_COUNTER_MULTI_TIMER:
    case PERF_100NSEC_MULTI_TIMER:
        if (dd == 0 || m == 0) { r.status = PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR; break; }
        r.value = 100.0L * DN / (DD * M);
        break;
    case PERF_COUNTER_MULTI_TIMER_INV:
    case PERF_100NSEC_MULTI_TIMER_INV:
        if (dd == 0 || m == 0) { r.status = PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR; break; }
        if (compare_product(m, dd, dn) < 0) { r.status = PERFBUF_PDH_CALC_NEGATIVE_VALUE; break; }
        r.value = 100.0L * (M * DD - DN) / (M * DD);
        break;
    case PERF_RAW_FRACTION:
    case PERF_LARGE_RAW_FRACTION:
        if (d1 == 0) { r.status = PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR; break; }
        r.value = 100.0L * (long double)n1 / (long double)d1;
        break;
    case PERF_COUNTER_RAWCOUNT:
    case PERF_COUNTER_LARGE_RAWCOUNT:
    case PERF_COUNTER_RAWCOUNT_HEX:
    case PERF_COUNTER_LARGE_RAWCOUNT_HEX:
        r.value = (long double)n1;
        r.integral = true;
        r.exact = n1;
        break;
    case PERF_COUNTER_DELTA:
    case PERF_COUNTER_LARGE_DELTA:
        r.value = DN;
        r.integral = true;
        r.exact = dn;
        break;
    case PERF_ELAPSED_TIME:
        if (f == 0) { r.status = PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE; break; }
        if (d1 < n1) { r.status = PERFBUF_PDH_CALC_NEGATIVE_VALUE; break; }
        r.value = (long double)(d1 - n1) / F;
        break;
    default:
        r.status = PERFBUF_PDH_INVALID_ARGUMENT;
        break;
    }
    return r;
}

/* Scale, x1000 and cap, as docs/counter-types.md orders them. */
static model finish(model r, const kind *k, int32_t scale, uint32_t flags)
{
    if (r.status != PERFBUF_CSTATUS_VALID_DATA) {
        return r;
    }
    if (!(flags & PERFBUF_FMT_NOSCALE)) {
        for (int32_t i = 0; i < scale; i++) {
            r.value *= 10.0L;
        }
        for (int32_t i = 0; i > scale; i--) {
            r.value /= 10.0L;
        }
        r.integral = r.integral && scale == 0;
    }
    if (flags & PERFBUF_FMT_1000) {
        r.value *= 1000.0L;
        r.integral = false;
    }
    if (k->percent && !(flags & PERFBUF_FMT_NOCAP100) && r.value > 100.0L) {
        r.value = 100.0L;
    }
    return r;
}

static size_t compared_integers;

/* Checks an integer result against the model; limit = 2^31 or 2^63. */
static void check_integer(const model *want, long double limit, uint32_t st, int64_t got)
{
    long double v = want->value;
    if (want->integral) {
        bool fits = want->exact < (uint64_t)limit;
        CHECK_EQ_U(st, fits ? PERFBUF_CSTATUS_VALID_DATA : PERFBUF_PDH_INVALID_DATA);
        if (fits) {
            CHECK_EQ_U((uint64_t)got, want->exact);
            compared_integers++;
        }
        return;
    }
    long double slack = 1e-9L * (v > 1.0L ? v : 1.0L);
    if (v >= limit + slack) {
        CHECK_EQ_U(st, PERFBUF_PDH_INVALID_DATA);
        return;
    }
    if (v >= limit - slack) {
        CHECK(st == PERFBUF_PDH_INVALID_DATA || st == PERFBUF_CSTATUS_VALID_DATA);
        return;
    }
    CHECK_EQ_U(st, PERFBUF_CSTATUS_VALID_DATA);
    long double truncated = truncl(v);
    long double diff = fabsl((long double)got - truncated);
    if (v < 1e12L && v - truncated >= slack && truncated + 1.0L - v >= slack) {
        /* Well inside the doubles' exact integers and clear of a rounding
         * edge: the truncation must be the model's. */
        CHECK(diff == 0.0L);
        compared_integers++;
    } else {
        CHECK(diff <= 1.0L + slack);
    }
}

static size_t compared_with_reference;

/* Every field, the double by its bits (0.0 and -0.0, NaNs, all told apart). */
static bool same_value(const perfbuf_value *a, const perfbuf_value *b)
{
    return a->status == b->status && a->format == b->format && a->as_large == b->as_large &&
           a->as_long == b->as_long && memcmp(&a->as_double, &b->as_double, sizeof a->as_double) == 0;
}

/* perfbuf_format_value and perfbuf_format_prepared against the reference. */
static void check_reference(uint32_t type, const perfbuf_raw_sample *newer,
                            const perfbuf_raw_sample *older, const perfbuf_value_context *ctx,
                            uint32_t flags)
{
    perfbuf_value want, got, prepared_got;
    memset(&want, 0xA5, sizeof want);
    memset(&got, 0x5A, sizeof got);
    memset(&prepared_got, 0x3C, sizeof prepared_got);
    uint32_t want_st = reference_format_value(type, newer, older, ctx, flags, &want);
    uint32_t got_st = perfbuf_format_value(type, newer, older, ctx, flags, &got);
    perfbuf_prepared_formula prepared;
    uint32_t prepare_st = perfbuf_prepare_formula(type, &prepared);
    CHECK_EQ_U(prepare_st, perfbuf_counter_type_is_displayable(type) ? PERFBUF_CSTATUS_VALID_DATA
                                                                     : PERFBUF_PDH_INVALID_ARGUMENT);
    uint32_t prepared_st = perfbuf_format_prepared(&prepared, newer, older, ctx, flags, &prepared_got);
    if (got_st != want_st || !same_value(&got, &want)) {
        fprintf(stderr, "type %08x flags %08x: 0x%08x %.17g vs reference 0x%08x %.17g\n", type,
                flags, got_st, got.as_double, want_st, want.as_double);
    }
    CHECK_EQ_U(got_st, want_st);
    CHECK(same_value(&got, &want));
    CHECK_EQ_U(prepared_st, want_st);
    CHECK(same_value(&prepared_got, &want));
    compared_with_reference++;
}

static void every_format_matches_the_model(void)
{
    static const uint32_t formats[3] = {PERFBUF_FMT_DOUBLE, PERFBUF_FMT_LARGE, PERFBUF_FMT_LONG};
    size_t checked = 0;
    size_t valid = 0;
    size_t statuses[4] = {0, 0, 0, 0};
    for (int round = 0; round < 300000; round++) {
        const kind *k = &kinds[next_random() % (sizeof kinds / sizeof kinds[0])];
        uint64_t n0 = pick(), d0 = pick();
        uint64_t n1 = (next_random() % 4 == 0) ? pick() : wrapping_add(n0, pick() % 1000000000ull);
        uint64_t d1 = (next_random() % 4 == 0) ? pick() : wrapping_add(d0, pick() % 1000000000ull);
        if (n1 < n0 && next_random() % 2 == 0) {
            n1 = n0;
        }
        /* Sometimes an inverse timer right at its limit. */
        if (next_random() % 16 == 0) {
            n1 = wrapping_add(n0, wrapping_sub(d1, d0));
        }
        uint32_t m = (uint32_t)(next_random() % 8);
        uint64_t f = next_random() % 5 == 0 ? 0 : pick();
        int32_t scale = next_random() % 3 == 0 ? (int32_t)(next_random() % 21) - 10 : 0;
        uint32_t options = (uint32_t)next_random();
        uint32_t flags = formats[options % 3] | ((options & 8) ? PERFBUF_FMT_NOSCALE : 0) |
                         ((options & 16) ? PERFBUF_FMT_1000 : 0) |
                         ((options & 32) ? PERFBUF_FMT_NOCAP100 : 0);
        perfbuf_raw_sample s1 = {PERFBUF_CSTATUS_VALID_DATA, k->type, n1, d1, m, 0};
        perfbuf_raw_sample s0 = {PERFBUF_CSTATUS_VALID_DATA, k->type, n0, d0, m, 0};
        perfbuf_value_context ctx = {f, scale};
        perfbuf_value v;
        uint32_t st = perfbuf_format_value(k->type, &s1, &s0, &ctx, flags, &v);
        CALL(check_reference(k->type, &s1, &s0, &ctx, flags));
        model want = finish(formula(k, n0, d0, n1, d1, m, f), k, scale, flags);
        if (want.status != PERFBUF_CSTATUS_VALID_DATA) {
            if (st != want.status) {
                fprintf(stderr, "type %08x n0 %llu d0 %llu n1 %llu d1 %llu m %u f %llu: 0x%08x vs 0x%08x\n",
                        k->type, (unsigned long long)n0, (unsigned long long)d0,
                        (unsigned long long)n1, (unsigned long long)d1, m,
                        (unsigned long long)f, st, want.status);
            }
            CHECK_EQ_U(st, want.status);
            statuses[want.status == PERFBUF_PDH_CALC_NEGATIVE_VALUE ? 1
                     : want.status == PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR ? 2 : 3]++;
        } else if (flags & PERFBUF_FMT_DOUBLE) {
            CHECK_EQ_U(st, PERFBUF_CSTATUS_VALID_DATA);
            long double diff = fabsl((long double)v.as_double - want.value);
            CHECK(diff <= 1e-9L * fabsl(want.value));
            valid++;
        } else if (flags & PERFBUF_FMT_LARGE) {
            CALL(check_integer(&want, 9223372036854775808.0L, st, v.as_large));
            valid += st == PERFBUF_CSTATUS_VALID_DATA;
        } else {
            CALL(check_integer(&want, 2147483648.0L, st, v.as_long));
            valid += st == PERFBUF_CSTATUS_VALID_DATA;
        }
        statuses[0] += st == PERFBUF_CSTATUS_VALID_DATA;
        checked++;
    }
    printf("%zu samples compared: %zu valid values (%zu integers exact), %zu negative value, "
           "%zu negative denominator, %zu other statuses\n",
           checked, valid, compared_integers, statuses[1], statuses[2], statuses[3]);
    /* The inputs reach every kind of outcome in quantity. */
    CHECK(valid > checked / 4);
    CHECK(compared_integers > checked / 10);
    CHECK(statuses[1] > checked / 50 && statuses[2] > checked / 50 && statuses[3] > checked / 100);
}

/*
 * Everything the model above leaves out, against the reference: every
 * named type and unknown ones, samples of another type or with a status
 * that is not valid, a missing older sample, no format or several, scales
 * out of range, huge frequencies and values.
 */
static void every_input_matches_the_reference(void)
{
    static const uint32_t extra_types[] = {
        PERF_COUNTER_TEXT, PERF_COUNTER_NODATA, PERF_SAMPLE_BASE, PERF_AVERAGE_BASE,
        PERF_COUNTER_MULTI_BASE, PERF_RAW_BASE, PERF_LARGE_RAW_BASE, PERFBUF_WMI_LARGE_RAW_BASE,
        PERF_COUNTER_HISTOGRAM_TYPE, 0x12345678u, 0x00012000u, 0xFFFFFFFFu,
    };
    static const uint32_t statuses[] = {
        PERFBUF_CSTATUS_VALID_DATA, PERFBUF_CSTATUS_NEW_DATA, PERFBUF_CSTATUS_INVALID_DATA,
        PERFBUF_CSTATUS_NO_INSTANCE,
    };
    size_t before = compared_with_reference;
    for (int round = 0; round < 200000; round++) {
        uint32_t type;
        size_t which = (size_t)(next_random() % (sizeof kinds / sizeof kinds[0] + 12));
        type = which < sizeof kinds / sizeof kinds[0] ? kinds[which].type
                                                      : extra_types[which - sizeof kinds / sizeof kinds[0]];
        uint64_t r = next_random();
        perfbuf_raw_sample s1 = {statuses[(r & 0x30) ? 0 : (r >> 2) % 4], type, pick(), pick(),
                                 (uint32_t)pick(), 0};
        perfbuf_raw_sample s0 = {statuses[(r & 0x300) ? 0 : (r >> 10) % 4], type, pick(), pick(),
                                 (uint32_t)pick(), 0};
        if (r % 7 == 0) {
            s0.type ^= 1u;
        }
        if (r % 11 == 0) {
            s1.type = 0x12345678u;
        }
        if (r % 3 == 0) {
            s1.first = wrapping_add(s0.first, pick() % 1000000ull);
            s1.second = wrapping_add(s0.second, pick() % 1000000ull);
        }
        perfbuf_value_context ctx = {pick(), (int32_t)(next_random() % 25) - 12};
        uint32_t flags = (uint32_t)next_random() &
                         (PERFBUF_FMT_LONG | PERFBUF_FMT_DOUBLE | PERFBUF_FMT_LARGE |
                          PERFBUF_FMT_NOSCALE | PERFBUF_FMT_1000 | PERFBUF_FMT_NOCAP100 | 0x1u);
        const perfbuf_raw_sample *older = (r >> 20) % 9 == 0 ? NULL : &s0;
        CALL(check_reference(type, &s1, older, &ctx, flags));
    }
    /* And the NULL arguments. */
    perfbuf_raw_sample s = {PERFBUF_CSTATUS_VALID_DATA, PERF_COUNTER_RAWCOUNT, 1, 1, 1, 0};
    perfbuf_value_context ctx = {1, 0};
    CALL(check_reference(PERF_COUNTER_RAWCOUNT, NULL, &s, &ctx, PERFBUF_FMT_DOUBLE));
    CALL(check_reference(PERF_COUNTER_RAWCOUNT, &s, &s, NULL, PERFBUF_FMT_DOUBLE));
    CHECK_EQ_U(reference_format_value(PERF_COUNTER_RAWCOUNT, &s, NULL, &ctx, PERFBUF_FMT_DOUBLE, NULL),
               perfbuf_format_value(PERF_COUNTER_RAWCOUNT, &s, NULL, &ctx, PERFBUF_FMT_DOUBLE, NULL));
    printf("%zu inputs compared with the reference bit for bit\n",
           compared_with_reference);
    CHECK(compared_with_reference - before > 200000);
}

static const th_case cases[] = {
    TH_CASE(every_format_matches_the_model),
    TH_CASE(every_input_matches_the_reference),
};
TH_MAIN(cases)
