/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The counter formulas as perfbuf_format_value computed them before its
 * counter type was resolved in O(1) and the prepared formulas existed: a
 * linear search of a table of every named type, then the formula. Kept
 * unchanged as the reference that the library's results must equal bit
 * for bit (tests/test_values_property.c, fuzz/fuzz_values.c), so that a
 * faster path can never drift from the validated formulas.
 */
#ifndef PERFBUF_FUZZ_VALUES_REFERENCE_H
#define PERFBUF_FUZZ_VALUES_REFERENCE_H

#include <float.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/values.h"

typedef struct ref_type_row {
    uint32_t type;
    uint8_t samples;
    bool is_percent;
} ref_type_row;

/* type, samples, is_percent: the classification table's columns the
 * formulas read. */
static const ref_type_row ref_types[] = {
    {PERF_COUNTER_COUNTER, 2, false},
    {PERF_COUNTER_TIMER, 2, true},
    {PERF_COUNTER_QUEUELEN_TYPE, 2, false},
    {PERF_COUNTER_LARGE_QUEUELEN_TYPE, 2, false},
    {PERF_COUNTER_100NS_QUEUELEN_TYPE, 2, false},
    {PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE, 2, false},
    {PERF_COUNTER_BULK_COUNT, 2, false},
    {PERF_COUNTER_TEXT, 0, false},
    {PERF_COUNTER_RAWCOUNT, 1, false},
    {PERF_COUNTER_LARGE_RAWCOUNT, 1, false},
    {PERF_COUNTER_RAWCOUNT_HEX, 1, false},
    {PERF_COUNTER_LARGE_RAWCOUNT_HEX, 1, false},
    {PERF_SAMPLE_FRACTION, 2, true},
    {PERF_SAMPLE_COUNTER, 2, false},
    {PERF_COUNTER_NODATA, 0, false},
    {PERF_COUNTER_TIMER_INV, 2, true},
    {PERF_SAMPLE_BASE, 0, false},
    {PERF_AVERAGE_TIMER, 2, false},
    {PERF_AVERAGE_BASE, 0, false},
    {PERF_AVERAGE_BULK, 2, false},
    {PERF_OBJ_TIME_TIMER, 2, true},
    {PERF_100NSEC_TIMER, 2, true},
    {PERF_100NSEC_TIMER_INV, 2, true},
    {PERF_COUNTER_MULTI_TIMER, 2, true},
    {PERF_COUNTER_MULTI_TIMER_INV, 2, true},
    {PERF_COUNTER_MULTI_BASE, 0, false},
    {PERF_100NSEC_MULTI_TIMER, 2, true},
    {PERF_100NSEC_MULTI_TIMER_INV, 2, true},
    {PERF_RAW_FRACTION, 1, true},
    {PERF_LARGE_RAW_FRACTION, 1, true},
    {PERF_RAW_BASE, 0, false},
    {PERF_LARGE_RAW_BASE, 0, false},
    {PERFBUF_WMI_LARGE_RAW_BASE, 0, false},
    {PERF_ELAPSED_TIME, 1, false},
    {PERF_COUNTER_HISTOGRAM_TYPE, 0, false},
    {PERF_COUNTER_DELTA, 2, false},
    {PERF_COUNTER_LARGE_DELTA, 2, false},
    {PERF_PRECISION_SYSTEM_TIMER, 2, true},
    {PERF_PRECISION_100NS_TIMER, 2, true},
    {PERF_PRECISION_OBJECT_TIMER, 2, true},
};

static const ref_type_row *ref_lookup(uint32_t type)
{
    for (size_t i = 0; i < sizeof ref_types / sizeof ref_types[0]; i++) {
        if (ref_types[i].type == type) {
            return &ref_types[i];
        }
    }
    return NULL;
}

typedef enum ref_formula {
    REF_F_NONE,
    REF_F_RATE,            /* dN / (dT / F) */
    REF_F_QUEUE,           /* dN / dT */
    REF_F_TIMER,           /* 100 dN / dT */
    REF_F_TIMER_INV,       /* 100 (1 - dN / dT) */
    REF_F_MULTI_TIMER,     /* 100 (dN / dT) / M */
    REF_F_MULTI_TIMER_INV, /* 100 (M - dN / dT) / M */
    REF_F_DELTA_FRACTION,  /* 100 dN / dB: sample fraction, precision timers */
    REF_F_RAW_FRACTION,    /* 100 N / B */
    REF_F_AVERAGE_TIMER,   /* (dN / F) / dB */
    REF_F_AVERAGE_BULK,    /* dN / dB */
    REF_F_RAW,             /* N */
    REF_F_DELTA,           /* dN */
    REF_F_ELAPSED          /* (T - N) / F */
} ref_formula;

static ref_formula ref_formula_of(uint32_t type)
{
    switch (type) {
    case PERF_COUNTER_COUNTER:
    case PERF_COUNTER_BULK_COUNT:
    case PERF_SAMPLE_COUNTER:
        return REF_F_RATE;
    case PERF_COUNTER_QUEUELEN_TYPE:
    case PERF_COUNTER_LARGE_QUEUELEN_TYPE:
    case PERF_COUNTER_100NS_QUEUELEN_TYPE:
    case PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE:
        return REF_F_QUEUE;
    case PERF_COUNTER_TIMER:
    case PERF_100NSEC_TIMER:
    case PERF_OBJ_TIME_TIMER:
        return REF_F_TIMER;
    case PERF_COUNTER_TIMER_INV:
    case PERF_100NSEC_TIMER_INV:
        return REF_F_TIMER_INV;
    case PERF_COUNTER_MULTI_TIMER:
    case PERF_100NSEC_MULTI_TIMER:
        return REF_F_MULTI_TIMER;
    case PERF_COUNTER_MULTI_TIMER_INV:
    case PERF_100NSEC_MULTI_TIMER_INV:
        return REF_F_MULTI_TIMER_INV;
    case PERF_SAMPLE_FRACTION:
    case PERF_PRECISION_SYSTEM_TIMER:
    case PERF_PRECISION_100NS_TIMER:
    case PERF_PRECISION_OBJECT_TIMER:
        return REF_F_DELTA_FRACTION;
    case PERF_RAW_FRACTION:
    case PERF_LARGE_RAW_FRACTION:
        return REF_F_RAW_FRACTION;
    case PERF_AVERAGE_TIMER:
        return REF_F_AVERAGE_TIMER;
    case PERF_AVERAGE_BULK:
        return REF_F_AVERAGE_BULK;
    case PERF_COUNTER_RAWCOUNT:
    case PERF_COUNTER_LARGE_RAWCOUNT:
    case PERF_COUNTER_RAWCOUNT_HEX:
    case PERF_COUNTER_LARGE_RAWCOUNT_HEX:
        return REF_F_RAW;
    case PERF_COUNTER_DELTA:
    case PERF_COUNTER_LARGE_DELTA:
        return REF_F_DELTA;
    case PERF_ELAPSED_TIME:
        return REF_F_ELAPSED;
    default:
        return REF_F_NONE;
    }
}

/*
 * What a formula reads. Two-sample formulas: n = dN, d = dT or dB (0 for
 * the deltas, which have no second value). One-sample formulas: n = N,
 * d = B or T. m is the newer sample's multi count.
 */
typedef struct ref_inputs {
    uint64_t n;
    uint64_t d;
    uint32_t m;
} ref_inputs;

static uint32_t ref_gather(ref_formula f, const perfbuf_raw_sample *s1, const perfbuf_raw_sample *s0,
                       ref_inputs *in)
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
    if (f == REF_F_DELTA) {
        return PERFBUF_CSTATUS_VALID_DATA;
    }
    if (s1->second < s0->second) {
        return PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR;
    }
    in->d = s1->second - s0->second;
    return PERFBUF_CSTATUS_VALID_DATA;
}

static double ref_as_double(uint64_t v)
{
    return (double)v;
}

/*
 * The formula's value before scale, x1000 and cap; or a status. The
 * operands are at most 2^64, frequencies too, so no intermediate leaves
 * the finite doubles (the largest, F * dN / dT, is below 2^128).
 */
static uint32_t ref_evaluate(ref_formula f, const ref_inputs *in, uint64_t frequency, double *out)
{
    double n = ref_as_double(in->n);
    double d = ref_as_double(in->d);
    double freq = ref_as_double(frequency);
    switch (f) {
    case REF_F_RATE:
        if (frequency == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE;
        }
        if (in->d == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR;
        }
        *out = n * (freq / d);
        return PERFBUF_CSTATUS_VALID_DATA;
    case REF_F_QUEUE:
    case REF_F_AVERAGE_BULK:
        if (in->d == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR;
        }
        *out = n / d;
        return PERFBUF_CSTATUS_VALID_DATA;
    case REF_F_TIMER:
    case REF_F_DELTA_FRACTION:
    case REF_F_RAW_FRACTION:
        if (in->d == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR;
        }
        *out = 100.0 * (n / d);
        return PERFBUF_CSTATUS_VALID_DATA;
    case REF_F_TIMER_INV:
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
        *out = 100.0 * (ref_as_double(in->d - in->n) / d);
        return PERFBUF_CSTATUS_VALID_DATA;
    case REF_F_MULTI_TIMER:
    case REF_F_MULTI_TIMER_INV: {
        if (in->d == 0 || in->m == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR;
        }
        double m = (double)in->m;
        double ratio = n / d;
        if (f == REF_F_MULTI_TIMER) {
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
                                : (double)(in->m - whole - 1u) + ref_as_double(in->d - rest) / d;
        *out = 100.0 * idle / m;
        return PERFBUF_CSTATUS_VALID_DATA;
    }
    case REF_F_AVERAGE_TIMER:
        if (frequency == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE;
        }
        if (in->d == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR;
        }
        *out = (n / freq) / d;
        return PERFBUF_CSTATUS_VALID_DATA;
    case REF_F_RAW:
    case REF_F_DELTA:
        *out = n;
        return PERFBUF_CSTATUS_VALID_DATA;
    case REF_F_ELAPSED:
        if (frequency == 0) {
            return PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE;
        }
        if (in->d < in->n) {
            return PERFBUF_PDH_CALC_NEGATIVE_VALUE;
        }
        *out = ref_as_double(in->d - in->n) / freq;
        return PERFBUF_CSTATUS_VALID_DATA;
    case REF_F_NONE:
    default:
        return PERFBUF_PDH_INVALID_ARGUMENT;
    }
}

static bool ref_one_format(uint32_t flags)
{
    uint32_t kinds = flags & (PERFBUF_FMT_LONG | PERFBUF_FMT_DOUBLE | PERFBUF_FMT_LARGE);
    return kinds == PERFBUF_FMT_LONG || kinds == PERFBUF_FMT_DOUBLE || kinds == PERFBUF_FMT_LARGE;
}

static bool ref_scale_in_range(int32_t scale)
{
    return scale >= PERFBUF_MIN_SCALE && scale <= PERFBUF_MAX_SCALE;
}

/* Finite, and inside [lo, hi): false for NaN and infinities too. The
 * bounds are powers of two, exact in a double. */
static bool ref_in_range(double v, double lo, double hi)
{
    return v >= lo && v < hi;
}

/* Stores v in the requested format, truncating toward zero for integers. */
static uint32_t ref_store(double v, uint32_t flags, perfbuf_value *out)
{
    if (!(v >= -DBL_MAX && v <= DBL_MAX)) {
        return PERFBUF_PDH_INVALID_DATA;
    }
    out->as_double = v;
    if (flags & PERFBUF_FMT_LARGE) {
        if (!ref_in_range(v, -9223372036854775808.0, 9223372036854775808.0)) {
            return PERFBUF_PDH_INVALID_DATA;
        }
        out->as_large = (int64_t)v;
    } else if (flags & PERFBUF_FMT_LONG) {
        if (!ref_in_range(v, -2147483648.0, 2147483648.0)) {
            return PERFBUF_PDH_INVALID_DATA;
        }
        out->as_long = (int32_t)v;
        out->as_large = out->as_long;
    }
    return PERFBUF_CSTATUS_VALID_DATA;
}

/* 10^0 .. 10^10, each exact in a double; negative scales divide, so
 * 10^-k is applied with one correctly rounded operation. */
static const double ref_powers_of_ten[PERFBUF_MAX_SCALE + 1] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
};

static double ref_apply_scale(double v, int32_t scale)
{
    return scale >= 0 ? v * ref_powers_of_ten[scale] : v / ref_powers_of_ten[-scale];
}

/*
 * Scale, x1000 and cap, then the requested format. `exact` is the
 * integer value of raw counts and deltas: when nothing scales it, the
 * integer formats get it without a trip through a double.
 */
static uint32_t ref_present(bool percent, bool integral, uint64_t exact, double v,
                        int32_t scale, uint32_t flags, perfbuf_value *out)
{
    bool scaled = (flags & PERFBUF_FMT_NOSCALE) == 0 && scale != 0;
    bool times_1000 = (flags & PERFBUF_FMT_1000) != 0;
    if (integral && !scaled && !times_1000 && (flags & PERFBUF_FMT_DOUBLE) == 0) {
        uint64_t limit = (flags & PERFBUF_FMT_LONG) ? (uint64_t)INT32_MAX : (uint64_t)INT64_MAX;
        if (exact > limit) {
            return PERFBUF_PDH_INVALID_DATA;
        }
        out->as_double = ref_as_double(exact);
        out->as_large = (int64_t)exact;
        out->as_long = (flags & PERFBUF_FMT_LONG) ? (int32_t)exact : 0;
        return PERFBUF_CSTATUS_VALID_DATA;
    }
    if (scaled) {
        v = ref_apply_scale(v, scale);
    }
    if (times_1000) {
        v *= 1000.0;
    }
    if (percent && (flags & PERFBUF_FMT_NOCAP100) == 0 && v > 100.0) {
        v = 100.0;
    }
    return ref_store(v, flags, out);
}

static void ref_clear_value(perfbuf_value *v, uint32_t flags)
{
    perfbuf_value zero = {0, 0, 0.0, 0, 0};
    *v = zero;
    v->format = flags;
}

/* One value from checked arguments; `used` receives the formula's inputs. */
static uint32_t ref_compute(const ref_type_row *info, ref_formula f,
                        const perfbuf_raw_sample *s1, const perfbuf_raw_sample *s0,
                        const perfbuf_value_context *context, uint32_t flags,
                        perfbuf_value *out, ref_inputs *used)
{
    ref_clear_value(out, flags);
    uint32_t st = ref_gather(f, s1, info->samples == 2 ? s0 : NULL, used);
    double v = 0.0;
    if (st == PERFBUF_CSTATUS_VALID_DATA) {
        st = ref_evaluate(f, used, context->frequency, &v);
    }
    if (st == PERFBUF_CSTATUS_VALID_DATA) {
        st = ref_present(info->is_percent, f == REF_F_RAW || f == REF_F_DELTA, used->n, v, context->scale,
                     flags, out);
    }
    out->status = st;
    return st;
}

static bool ref_usable(const perfbuf_raw_sample *s, uint32_t type)
{
    return PERFBUF_CSTATUS_IS_VALID(s->status) && s->type == type;
}

static uint32_t reference_format_value(uint32_t type, const perfbuf_raw_sample *newer,
                              const perfbuf_raw_sample *older, const perfbuf_value_context *context,
                              uint32_t flags, perfbuf_value *out)
{
    if (out == NULL) {
        return PERFBUF_PDH_INVALID_ARGUMENT;
    }
    ref_clear_value(out, flags);
    const ref_type_row *info = ref_lookup(type);
    ref_formula f = ref_formula_of(type);
    if (newer == NULL || context == NULL || info == NULL || f == REF_F_NONE || !ref_one_format(flags) ||
        !ref_scale_in_range(context->scale)) {
        out->status = PERFBUF_PDH_INVALID_ARGUMENT;
        return out->status;
    }
    if (!ref_usable(newer, type) || (info->samples == 2 && (older == NULL || !ref_usable(older, type)))) {
        out->status = PERFBUF_CSTATUS_INVALID_DATA;
        return out->status;
    }
    ref_inputs used;
    return ref_compute(info, f, newer, older, context, flags, out, &used);
}

#endif
