/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The counter formulas' steps (gather, evaluate, present), shared by
 * perfbuf_format_value and the calls that format a whole column of one
 * counter: a column compiles the same steps with its formula a constant,
 * so both give the same value bit for bit. Internal: not a public header.
 */
#ifndef PERFBUF_CORE_FORMULA_H
#define PERFBUF_CORE_FORMULA_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "perfbuf/values.h"

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

static inline double as_double(uint64_t v)
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

static inline bool one_format(uint32_t flags)
{
    uint32_t kinds = flags & (PERFBUF_FMT_LONG | PERFBUF_FMT_DOUBLE | PERFBUF_FMT_LARGE);
    return kinds == PERFBUF_FMT_LONG || kinds == PERFBUF_FMT_DOUBLE || kinds == PERFBUF_FMT_LARGE;
}

static inline bool scale_in_range(int32_t scale)
{
    return scale >= PERFBUF_MIN_SCALE && scale <= PERFBUF_MAX_SCALE;
}

/* Finite, and inside [lo, hi): false for NaN and infinities too. The
 * bounds are powers of two, exact in a double. */
static inline bool in_range(double v, double lo, double hi)
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

static inline double apply_scale(double v, int32_t scale)
{
    return scale >= 0 ? v * powers_of_ten[scale] : v / powers_of_ten[-scale];
}

/* Scale, x1000 and the cap of percentages, in that order: the steps every
 * format shares. */
HOT_PATH double adjust(bool percent, double v, int32_t scale, uint32_t flags)
{
    if ((flags & PERFBUF_FMT_NOSCALE) == 0 && scale != 0) {
        v = apply_scale(v, scale);
    }
    if ((flags & PERFBUF_FMT_1000) != 0) {
        v *= 1000.0;
    }
    if (percent && (flags & PERFBUF_FMT_NOCAP100) == 0 && v > 100.0) {
        v = 100.0;
    }
    return v;
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
    return store(adjust(percent, v, scale, flags), flags, out);
}

/*
 * One value of a formula whose checks of the arguments passed
 * (perfbuf_format_prepared's: a formula, one format of kind DOUBLE, a
 * scale in range, usable samples of its type): gather, evaluate and
 * adjust, the steps compute() takes, so *out is the number present()
 * would test for finiteness and store in as_double, bit for bit (0 where
 * the status is not valid, as a cleared perfbuf_value holds it). The
 * finite test itself is the caller's: a column tests its values together
 * (finite_bits). Inlined with f a constant, the formula's switch is gone.
 */
HOT_PATH uint32_t format_double_untested(formula f, const perfbuf_raw_sample *s1,
                                         const perfbuf_raw_sample *s0, uint64_t frequency,
                                         int32_t scale, uint32_t flags, double *out)
{
    inputs used;
    uint32_t st = gather(f, s1, shapes[f].samples == 2 ? s0 : NULL, &used);
    double v = 0.0;
    if (st == PERFBUF_CSTATUS_VALID_DATA) {
        st = evaluate(f, &used, frequency, &v);
    }
    *out = st == PERFBUF_CSTATUS_VALID_DATA ? adjust(shapes[f].percent, v, scale, flags) : 0.0;
    return st;
}

/*
 * adjust() as four numbers, for a loop that applies one column's flags
 * and scale to many values without a branch: ((v * up) / down) *
 * thousand, then at most limit. Each factor a step does not take is 1.0,
 * and multiplying or dividing by 1.0 gives the number itself (IEEE 754),
 * and no v is above an infinite limit: so for every v the result is the
 * one adjust() gives, operation for operation.
 */
typedef struct adjustment {
    double up, down, thousand, limit;
} adjustment;

static inline adjustment adjustment_of(bool percent, int32_t scale, uint32_t flags)
{
    adjustment a = {1.0, 1.0, 1.0, (double)INFINITY};
    if ((flags & PERFBUF_FMT_NOSCALE) == 0 && scale != 0 && scale_in_range(scale)) {
        if (scale >= 0) {
            a.up = powers_of_ten[scale];
        } else {
            a.down = powers_of_ten[-scale];
        }
    }
    if ((flags & PERFBUF_FMT_1000) != 0) {
        a.thousand = 1000.0;
    }
    if (percent && (flags & PERFBUF_FMT_NOCAP100) == 0) {
        a.limit = 100.0;
    }
    return a;
}

/* percent: the formula's (a constant where the caller knows it), so a
 * formula that is not a percentage has no cap to test. One assignment a
 * step, as adjust() takes them: where doubles are evaluated in a wider
 * format (FLT_EVAL_METHOD 2, the x87 of a 32-bit x86 build), C11 rounds
 * each assignment to double, and a single expression would round only
 * once, one unit in the last place away from adjust()'s result. */
HOT_PATH double adjust_by(bool percent, const adjustment *a, double v)
{
    v = v * a->up;
    v = v / a->down;
    v = v * a->thousand;
    return percent && v > a->limit ? a->limit : v;
}

/* format_double_untested with adjust_by in place of adjust. */
HOT_PATH uint32_t format_double_adjusted(formula f, const perfbuf_raw_sample *s1,
                                         const perfbuf_raw_sample *s0, uint64_t frequency,
                                         const adjustment *a, double *out)
{
    inputs used;
    uint32_t st = gather(f, s1, shapes[f].samples == 2 ? s0 : NULL, &used);
    double v = 0.0;
    if (st == PERFBUF_CSTATUS_VALID_DATA) {
        st = evaluate(f, &used, frequency, &v);
    }
    *out = st == PERFBUF_CSTATUS_VALID_DATA ? adjust_by(shapes[f].percent, a, v) : 0.0;
    return st;
}

/* The bits of v - v: 0 for every finite v (+0.0), a NaN's otherwise, so
 * ORed over many values they are 0 exactly when all are finite. */
static inline uint64_t finite_bits(double v)
{
    double d = v - v;
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

/* The prepared formula, or F_NONE for one no perfbuf_prepare_formula made
 * (the struct is the caller's memory, and an index comes from it). */
static inline formula prepared_formula_of(const perfbuf_prepared_formula *prepared)
{
    return prepared->formula < F_COUNT ? (formula)prepared->formula : F_NONE;
}

/*
 * The formulas a column of one counter can be formatted with by a loop of
 * its own, the formula a constant (the doubles calls of the V1 and V2
 * plans): those that take the counter's value alone, so that every row's
 * samples differ only in their first values. The others read a base or
 * multi counter in every row and go value by value.
 */
static inline bool formula_has_column_loop(formula f)
{
    return f == F_RATE || f == F_QUEUE || f == F_TIMER || f == F_TIMER_INV || f == F_RAW ||
           f == F_DELTA || f == F_ELAPSED;
}

/* The compact code of a formatted value's status (PERFBUF_COMPACT_*):
 * every status perfbuf_format_prepared and the plans' formatting write has
 * one; the tests compare perfbuf_compact_cstatus of each code written with
 * the status itself, so another status cannot go unnoticed as
 * PDH_INVALID_ARGUMENT. */
static inline uint8_t compact_of(uint32_t status)
{
    switch (status) {
    case PERFBUF_CSTATUS_VALID_DATA:
        return PERFBUF_COMPACT_VALID_DATA;
    case PERFBUF_CSTATUS_INVALID_DATA:
        return PERFBUF_COMPACT_INVALID_DATA;
    case PERFBUF_PDH_INVALID_DATA:
        return PERFBUF_COMPACT_PDH_INVALID_DATA;
    case PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR:
        return PERFBUF_COMPACT_CALC_NEGATIVE_DENOMINATOR;
    case PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE:
        return PERFBUF_COMPACT_CALC_NEGATIVE_TIMEBASE;
    case PERFBUF_PDH_CALC_NEGATIVE_VALUE:
        return PERFBUF_COMPACT_CALC_NEGATIVE_VALUE;
    case PERFBUF_CSTATUS_NO_COUNTER:
        return PERFBUF_COMPACT_NO_COUNTER;
    case PERFBUF_PDH_INVALID_ARGUMENT:
    default:
        return PERFBUF_COMPACT_PDH_INVALID_ARGUMENT;
    }
}

#endif
