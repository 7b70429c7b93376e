/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Counter formulas. Differences of raw values are taken in exact unsigned
 * arithmetic, after checking their order; only then do they become doubles.
 * Doubles divide only by quantities shown to be > 0, and every double is
 * checked for range before it becomes an integer.
 */
#include "perfbuf/values.h"

#include <float.h>

#include "perfbuf/counter_types.h"
#include "core/work.h"

/* The formatting path in one function: every value goes through gather,
 * evaluate and present, and calls between them cost as much as a formula. */
#if defined(__GNUC__) || defined(__clang__)
#  define HOT_PATH static inline __attribute__((always_inline))
#else
#  define HOT_PATH static inline
#endif

typedef enum formula {
    F_NONE,
    F_RATE,            /* dN / (dT / F) */
    F_QUEUE,           /* dN / dT */
    F_TIMER,           /* 100 dN / dT */
    F_TIMER_INV,       /* 100 (1 - dN / dT) */
    F_MULTI_TIMER,     /* 100 (dN / dT) / M */
    F_MULTI_TIMER_INV, /* 100 (M - dN / dT) / M */
    F_DELTA_FRACTION,  /* 100 dN / dB: sample fraction, precision timers */
    F_RAW_FRACTION,    /* 100 N / B */
    F_AVERAGE_TIMER,   /* (dN / F) / dB */
    F_AVERAGE_BULK,    /* dN / dB */
    F_RAW,             /* N */
    F_DELTA,           /* dN */
    F_ELAPSED          /* (T - N) / F */
} formula;
#define F_COUNT ((unsigned)F_ELAPSED + 1u)

/* What follows from the formula alone: the samples it takes, whether its
 * types are PERF_DISPLAY_PERCENT (capped at 100), and whether its value is
 * an integer that can reach the integer formats without a double. Every
 * type of a formula shares these (src/core/counter_types.c agrees, and the
 * tests compare every type). */
typedef struct formula_shape {
    uint8_t samples;
    bool percent;
    bool integral;
} formula_shape;

static const formula_shape shapes[F_COUNT] = {
    [F_NONE] = {0, false, false},
    [F_RATE] = {2, false, false},
    [F_QUEUE] = {2, false, false},
    [F_TIMER] = {2, true, false},
    [F_TIMER_INV] = {2, true, false},
    [F_MULTI_TIMER] = {2, true, false},
    [F_MULTI_TIMER_INV] = {2, true, false},
    [F_DELTA_FRACTION] = {2, true, false},
    [F_RAW_FRACTION] = {1, true, false},
    [F_AVERAGE_TIMER] = {2, false, false},
    [F_AVERAGE_BULK] = {2, false, false},
    [F_RAW] = {1, false, true},
    [F_DELTA] = {2, false, true},
    [F_ELAPSED] = {1, false, false},
};

static formula formula_of(uint32_t type)
{
    switch (type) {
    case PERF_COUNTER_COUNTER:
    case PERF_COUNTER_BULK_COUNT:
    case PERF_SAMPLE_COUNTER:
        return F_RATE;
    case PERF_COUNTER_QUEUELEN_TYPE:
    case PERF_COUNTER_LARGE_QUEUELEN_TYPE:
    case PERF_COUNTER_100NS_QUEUELEN_TYPE:
    case PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE:
        return F_QUEUE;
    case PERF_COUNTER_TIMER:
    case PERF_100NSEC_TIMER:
    case PERF_OBJ_TIME_TIMER:
        return F_TIMER;
    case PERF_COUNTER_TIMER_INV:
    case PERF_100NSEC_TIMER_INV:
        return F_TIMER_INV;
    case PERF_COUNTER_MULTI_TIMER:
    case PERF_100NSEC_MULTI_TIMER:
        return F_MULTI_TIMER;
    case PERF_COUNTER_MULTI_TIMER_INV:
    case PERF_100NSEC_MULTI_TIMER_INV:
        return F_MULTI_TIMER_INV;
    case PERF_SAMPLE_FRACTION:
    case PERF_PRECISION_SYSTEM_TIMER:
    case PERF_PRECISION_100NS_TIMER:
    case PERF_PRECISION_OBJECT_TIMER:
        return F_DELTA_FRACTION;
    case PERF_RAW_FRACTION:
    case PERF_LARGE_RAW_FRACTION:
        return F_RAW_FRACTION;
    case PERF_AVERAGE_TIMER:
        return F_AVERAGE_TIMER;
    case PERF_AVERAGE_BULK:
        return F_AVERAGE_BULK;
    case PERF_COUNTER_RAWCOUNT:
    case PERF_COUNTER_LARGE_RAWCOUNT:
    case PERF_COUNTER_RAWCOUNT_HEX:
    case PERF_COUNTER_LARGE_RAWCOUNT_HEX:
        return F_RAW;
    case PERF_COUNTER_DELTA:
    case PERF_COUNTER_LARGE_DELTA:
        return F_DELTA;
    case PERF_ELAPSED_TIME:
        return F_ELAPSED;
    default:
        return F_NONE;
    }
}

/*
 * What a formula reads. Two-sample formulas: n = dN, d = dT or dB (0 for
 * the deltas, which have no second value). One-sample formulas: n = N,
 * d = B or T. m is the newer sample's multi count.
 */
typedef struct inputs {
    uint64_t n;
    uint64_t d;
    uint32_t m;
} inputs;

HOT_PATH uint32_t gather(formula f, const perfbuf_raw_sample *s1, const perfbuf_raw_sample *s0,
                       inputs *in)
{
    in->m = s1->multi;
    if (s0 == NULL) {
        in->n = s1->first;
        in->d = s1->second;
        return PERFBUF_CSTATUS_VALID_DATA;
    }
    if (s1->first < s0->first) {
        return PERFBUF_PDH_CALC_NEGATIVE_VALUE;
    }
    in->n = s1->first - s0->first;
    in->d = 0;
    /* Deltas carry nothing in their second value: whatever is there is
     * not a clock and must not make the value fail. */
    if (f == F_DELTA) {
        return PERFBUF_CSTATUS_VALID_DATA;
    }
    if (s1->second < s0->second) {
        return PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR;
    }
    in->d = s1->second - s0->second;
    return PERFBUF_CSTATUS_VALID_DATA;
}

static double as_double(uint64_t v)
{
    return (double)v;
}

/*
 * The formula's value before scale, x1000 and cap; or a status. The
 * operands are at most 2^64, frequencies too, so no intermediate leaves
 * the finite doubles (the largest, F * dN / dT, is below 2^128).
 */
HOT_PATH uint32_t evaluate(formula f, const inputs *in, uint64_t frequency, double *out)
{
    /* Each case converts what it uses, so that a formula pays only for
     * its own conversions (a u64 to double is several instructions). */
    switch (f) {
    case F_RATE:
        if (frequency == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE;
        }
        if (in->d == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR;
        }
        *out = as_double(in->n) * (as_double(frequency) / as_double(in->d));
        return PERFBUF_CSTATUS_VALID_DATA;
    case F_QUEUE:
    case F_AVERAGE_BULK:
        if (in->d == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR;
        }
        *out = as_double(in->n) / as_double(in->d);
        return PERFBUF_CSTATUS_VALID_DATA;
    case F_TIMER:
    case F_DELTA_FRACTION:
    case F_RAW_FRACTION:
        if (in->d == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR;
        }
        *out = 100.0 * (as_double(in->n) / as_double(in->d));
        return PERFBUF_CSTATUS_VALID_DATA;
    case F_TIMER_INV:
        if (in->d == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR;
        }
        /* Exact: a busy time longer than the interval is negative idle. */
        if (in->n > in->d) {
            return PERFBUF_PDH_CALC_NEGATIVE_VALUE;
        }
        /* The idle part dT - dN is taken exactly, before any rounding:
         * 1 - dN / dT in doubles cancels when dN is close to dT, and on
         * 2^62-scale clocks loses nine digits of a value near 0 %. */
        *out = 100.0 * (as_double(in->d - in->n) / as_double(in->d));
        return PERFBUF_CSTATUS_VALID_DATA;
    case F_MULTI_TIMER:
    case F_MULTI_TIMER_INV: {
        if (in->d == 0 || in->m == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR;
        }
        double m = (double)in->m;
        double ratio = as_double(in->n) / as_double(in->d);
        if (f == F_MULTI_TIMER) {
            *out = 100.0 * ratio / m;
            return PERFBUF_CSTATUS_VALID_DATA;
        }
        /* dN / dT > M exactly when dN > M * dT; M * dT may need 96 bits,
         * so compare the quotient and remainder instead of multiplying. */
        uint64_t whole = in->n / in->d;
        if (whole > in->m || (whole == in->m && in->n % in->d != 0)) {
            return PERFBUF_PDH_CALC_NEGATIVE_VALUE;
        }
        /* M - dN / dT as (M - q - 1) + (dT - r) / dT, with q and r the
         * exact quotient and remainder: two parts that are never negative,
         * so nothing cancels when dN / dT is close to M. */
        uint64_t rest = in->n % in->d;
        double idle = rest == 0 ? (double)(in->m - whole)
                                : (double)(in->m - whole - 1u) +
                                      as_double(in->d - rest) / as_double(in->d);
        *out = 100.0 * idle / m;
        return PERFBUF_CSTATUS_VALID_DATA;
    }
    case F_AVERAGE_TIMER:
        if (frequency == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE;
        }
        if (in->d == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR;
        }
        *out = (as_double(in->n) / as_double(frequency)) / as_double(in->d);
        return PERFBUF_CSTATUS_VALID_DATA;
    case F_RAW:
    case F_DELTA:
        *out = as_double(in->n);
        return PERFBUF_CSTATUS_VALID_DATA;
    case F_ELAPSED:
        if (frequency == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE;
        }
        if (in->d < in->n) {
            return PERFBUF_PDH_CALC_NEGATIVE_VALUE;
        }
        *out = as_double(in->d - in->n) / as_double(frequency);
        return PERFBUF_CSTATUS_VALID_DATA;
    case F_NONE:
    default:
        return PERFBUF_PDH_INVALID_ARGUMENT;
    }
}

static bool one_format(uint32_t flags)
{
    uint32_t kinds = flags & (PERFBUF_FMT_LONG | PERFBUF_FMT_DOUBLE | PERFBUF_FMT_LARGE);
    return kinds == PERFBUF_FMT_LONG || kinds == PERFBUF_FMT_DOUBLE || kinds == PERFBUF_FMT_LARGE;
}

static bool scale_in_range(int32_t scale)
{
    return scale >= PERFBUF_MIN_SCALE && scale <= PERFBUF_MAX_SCALE;
}

/* Finite, and inside [lo, hi): false for NaN and infinities too. The
 * bounds are powers of two, exact in a double. */
static bool in_range(double v, double lo, double hi)
{
    return v >= lo && v < hi;
}

/* Stores v in the requested format, truncating toward zero for integers. */
HOT_PATH uint32_t store(double v, uint32_t flags, perfbuf_value *out)
{
    if (!(v >= -DBL_MAX && v <= DBL_MAX)) {
        return PERFBUF_PDH_INVALID_DATA;
    }
    out->as_double = v;
    if (flags & PERFBUF_FMT_LARGE) {
        if (!in_range(v, -9223372036854775808.0, 9223372036854775808.0)) {
            return PERFBUF_PDH_INVALID_DATA;
        }
        out->as_large = (int64_t)v;
    } else if (flags & PERFBUF_FMT_LONG) {
        if (!in_range(v, -2147483648.0, 2147483648.0)) {
            return PERFBUF_PDH_INVALID_DATA;
        }
        out->as_long = (int32_t)v;
        out->as_large = out->as_long;
    }
    return PERFBUF_CSTATUS_VALID_DATA;
}

/* 10^0 .. 10^10, each exact in a double; negative scales divide, so
 * 10^-k is applied with one correctly rounded operation. */
static const double powers_of_ten[PERFBUF_MAX_SCALE + 1] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
};

static double apply_scale(double v, int32_t scale)
{
    return scale >= 0 ? v * powers_of_ten[scale] : v / powers_of_ten[-scale];
}

/*
 * Scale, x1000 and cap, then the requested format. `exact` is the
 * integer value of raw counts and deltas: when nothing scales it, the
 * integer formats get it without a trip through a double.
 */
HOT_PATH uint32_t present(bool percent, bool integral, uint64_t exact, double v,
                        int32_t scale, uint32_t flags, perfbuf_value *out)
{
    bool scaled = (flags & PERFBUF_FMT_NOSCALE) == 0 && scale != 0;
    bool times_1000 = (flags & PERFBUF_FMT_1000) != 0;
    if (integral && !scaled && !times_1000 && (flags & PERFBUF_FMT_DOUBLE) == 0) {
        uint64_t limit = (flags & PERFBUF_FMT_LONG) ? (uint64_t)INT32_MAX : (uint64_t)INT64_MAX;
        if (exact > limit) {
            return PERFBUF_PDH_INVALID_DATA;
        }
        out->as_double = as_double(exact);
        out->as_large = (int64_t)exact;
        out->as_long = (flags & PERFBUF_FMT_LONG) ? (int32_t)exact : 0;
        return PERFBUF_CSTATUS_VALID_DATA;
    }
    if (scaled) {
        v = apply_scale(v, scale);
    }
    if (times_1000) {
        v *= 1000.0;
    }
    if (percent && (flags & PERFBUF_FMT_NOCAP100) == 0 && v > 100.0) {
        v = 100.0;
    }
    return store(v, flags, out);
}

static void clear_value(perfbuf_value *v, uint32_t flags)
{
    perfbuf_value zero = {0, 0, 0.0, 0, 0};
    *v = zero;
    v->format = flags;
}

/* One value from checked arguments into an out that clear_value cleared;
 * `used` receives the formula's inputs. */
HOT_PATH uint32_t compute(formula f, const perfbuf_raw_sample *s1, const perfbuf_raw_sample *s0,
                        const perfbuf_value_context *context, uint32_t flags,
                        perfbuf_value *out, inputs *used)
{
    const formula_shape *shape = &shapes[f];
    uint32_t st = gather(f, s1, shape->samples == 2 ? s0 : NULL, used);
    double v = 0.0;
    if (st == PERFBUF_CSTATUS_VALID_DATA) {
        st = evaluate(f, used, context->frequency, &v);
    }
    if (st == PERFBUF_CSTATUS_VALID_DATA) {
        st = present(shape->percent, shape->integral, used->n, v, context->scale, flags, out);
    }
    out->status = st;
    return st;
}

static bool usable(const perfbuf_raw_sample *s, uint32_t type)
{
    return PERFBUF_CSTATUS_IS_VALID(s->status) && s->type == type;
}

uint32_t perfbuf_prepare_formula(uint32_t type, perfbuf_prepared_formula *out)
{
    if (out == NULL) {
        return PERFBUF_PDH_INVALID_ARGUMENT;
    }
    out->type = type;
    out->formula = (uint32_t)formula_of(type);
    return out->formula != F_NONE ? PERFBUF_CSTATUS_VALID_DATA : PERFBUF_PDH_INVALID_ARGUMENT;
}

/* The prepared formula, or F_NONE for one no perfbuf_prepare_formula made
 * (the struct is the caller's memory, and an index comes from it). */
static formula prepared_formula(const perfbuf_prepared_formula *prepared)
{
    return prepared->formula < F_COUNT ? (formula)prepared->formula : F_NONE;
}

uint32_t perfbuf_format_prepared(const perfbuf_prepared_formula *prepared,
                                 const perfbuf_raw_sample *newer, const perfbuf_raw_sample *older,
                                 const perfbuf_value_context *context, uint32_t flags,
                                 perfbuf_value *out)
{
    if (out == NULL) {
        return PERFBUF_PDH_INVALID_ARGUMENT;
    }
    clear_value(out, flags);
    formula f = prepared != NULL ? prepared_formula(prepared) : F_NONE;
    if (newer == NULL || context == NULL || f == F_NONE || !one_format(flags) ||
        !scale_in_range(context->scale)) {
        out->status = PERFBUF_PDH_INVALID_ARGUMENT;
        return out->status;
    }
    uint32_t type = prepared->type;
    if (!usable(newer, type) || (shapes[f].samples == 2 && (older == NULL || !usable(older, type)))) {
        out->status = PERFBUF_CSTATUS_INVALID_DATA;
        return out->status;
    }
    inputs used;
    return compute(f, newer, older, context, flags, out, &used);
}

uint32_t perfbuf_format_value(uint32_t type, const perfbuf_raw_sample *newer,
                              const perfbuf_raw_sample *older, const perfbuf_value_context *context,
                              uint32_t flags, perfbuf_value *out)
{
    perfbuf_prepared_formula prepared;
    (void)perfbuf_prepare_formula(type, &prepared);
    return perfbuf_format_prepared(&prepared, newer, older, context, flags, out);
}

/* ---- statistics ---- */

/* a < b in the format the values were asked in; integers compare exactly. */
static bool less(const perfbuf_value *a, const perfbuf_value *b, uint32_t flags)
{
    if (flags & PERFBUF_FMT_DOUBLE) {
        return a->as_double < b->as_double;
    }
    return a->as_large < b->as_large;
}

static void keep(const perfbuf_value *v, uint32_t flags, perfbuf_statistics *s, double *sum)
{
    if (s->count == 0 || less(v, &s->min, flags)) {
        s->min = *v;
    }
    if (s->count == 0 || less(&s->max, v, flags)) {
        s->max = *v;
    }
    *sum += v->as_double;
    s->count++;
}

/* a += b, or false when the sum does not fit. */
static bool accumulate(uint64_t *a, uint64_t b)
{
    if (b > UINT64_MAX - *a) {
        return false;
    }
    *a += b;
    return true;
}

uint32_t perfbuf_compute_statistics(uint32_t type, const perfbuf_value_context *context,
                                    uint32_t flags, size_t first, size_t count,
                                    const perfbuf_raw_sample *entries, perfbuf_statistics *out)
{
    if (out == NULL) {
        return PERFBUF_PDH_INVALID_ARGUMENT;
    }
    perfbuf_statistics empty = {0, flags, 0, {0, 0, 0.0, 0, 0}, {0, 0, 0.0, 0, 0}, {0, 0, 0.0, 0, 0}};
    *out = empty;
    clear_value(&out->min, flags);
    clear_value(&out->max, flags);
    clear_value(&out->mean, flags);
    formula f = formula_of(type);
    const formula_shape *shape = &shapes[f];
    /* PDH counts entries in a DWORD; so does out->count. */
    if (entries == NULL || context == NULL || f == F_NONE || count == 0 ||
        count > UINT32_MAX || first >= count || !one_format(flags) ||
        !scale_in_range(context->scale)) {
        out->status = PERFBUF_PDH_INVALID_ARGUMENT;
        return out->status;
    }
    /* Two-sample means divide the summed differences of the pairs used:
     * with no gap that is the "average" formula from the oldest to the
     * newest sample, and it always lies between the pairs' min and max. */
    bool by_sums = shape->samples == 2 && f != F_DELTA;
    inputs total = {0, 0, 0};
    bool sums_fit = true;
    const perfbuf_raw_sample *previous = NULL;
    double sum = 0.0;
    for (size_t k = 0; k < count; k++) {
        PB_WORK(1);
        /* Chronological: first .. count-1, then 0 .. first-1. */
        size_t i = k < count - first ? first + k : k - (count - first);
        const perfbuf_raw_sample *s = &entries[i];
        if (!usable(s, type)) {
            continue;
        }
        if (shape->samples == 1 || previous != NULL) {
            perfbuf_value v;
            clear_value(&v, flags);
            inputs used;
            if (compute(f, s, previous, context, flags, &v, &used) ==
                PERFBUF_CSTATUS_VALID_DATA) {
                keep(&v, flags, out, &sum);
                sums_fit = sums_fit && accumulate(&total.n, used.n) && accumulate(&total.d, used.d);
                total.m = used.m;
            }
        }
        previous = s;
    }
    if (out->count == 0) {
        out->status = PERFBUF_PDH_NO_DATA;
        return out->status;
    }
    uint32_t st;
    double mean = 0.0;
    if (!by_sums) {
        st = store(sum / (double)out->count, flags, &out->mean);
    } else if (!sums_fit) {
        st = PERFBUF_PDH_INVALID_DATA;
    } else {
        st = evaluate(f, &total, context->frequency, &mean);
        if (st == PERFBUF_CSTATUS_VALID_DATA) {
            st = present(shape->percent, false, 0, mean, context->scale, flags, &out->mean);
        }
    }
    out->mean.status = st;
    out->status = st;
    return st;
}
