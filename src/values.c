/*
 * Counter formulas. Differences of raw values are taken in exact unsigned
 * arithmetic, after checking their order; only then do they become doubles.
 * Every double is checked for range before it becomes an integer.
 */
#include "perfbuf/values.h"

#include <float.h>

#include "perfbuf/counter_types.h"

#define TEN_MILLION 10000000.0

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

static double as_double(uint64_t v)
{
    return (double)v;
}

/* newer - older, or false when the value went backwards. */
static bool difference(uint64_t newer, uint64_t older, uint64_t *d)
{
    if (newer < older) {
        return false;
    }
    *d = newer - older;
    return true;
}

/* The formula's value before scale, x1000 and cap; or a status. */
static uint32_t evaluate(formula f, const perfbuf_raw_sample *s1, const perfbuf_raw_sample *s0,
                         uint64_t frequency, double *out)
{
    uint64_t dn = 0;
    uint64_t dd = 0;
    bool two = s0 != NULL;
    if (two) {
        if (!difference(s1->first, s0->first, &dn)) {
            return PERFBUF_CALC_NEGATIVE_VALUE;
        }
        /* The second value is a clock or a base: it must move forward. */
        if (!difference(s1->second, s0->second, &dd)) {
            return PERFBUF_CALC_NEGATIVE_DENOMINATOR;
        }
    }
    double n = as_double(dn);
    double d = as_double(dd);
    double freq = as_double(frequency);
    switch (f) {
    case F_RATE:
        if (frequency == 0) {
            return PERFBUF_CALC_NEGATIVE_TIMEBASE;
        }
        if (dd == 0) {
            return PERFBUF_CALC_NEGATIVE_DENOMINATOR;
        }
        *out = n * (freq / d);
        return PERFBUF_CSTATUS_VALID_DATA;
    case F_QUEUE:
    case F_AVERAGE_BULK:
        if (dd == 0) {
            return PERFBUF_CALC_NEGATIVE_DENOMINATOR;
        }
        *out = n / d;
        return PERFBUF_CSTATUS_VALID_DATA;
    case F_TIMER:
    case F_DELTA_FRACTION:
        if (dd == 0) {
            return PERFBUF_CALC_NEGATIVE_DENOMINATOR;
        }
        *out = 100.0 * (n / d);
        return PERFBUF_CSTATUS_VALID_DATA;
    case F_TIMER_INV:
        if (dd == 0) {
            return PERFBUF_CALC_NEGATIVE_DENOMINATOR;
        }
        if (dn > dd) {
            return PERFBUF_CALC_NEGATIVE_VALUE;
        }
        *out = 100.0 * (1.0 - n / d);
        return PERFBUF_CSTATUS_VALID_DATA;
    case F_MULTI_TIMER:
    case F_MULTI_TIMER_INV: {
        if (dd == 0 || s1->multi == 0) {
            return PERFBUF_CALC_NEGATIVE_DENOMINATOR;
        }
        double m = (double)s1->multi;
        double ratio = n / d;
        if (f == F_MULTI_TIMER) {
            *out = 100.0 * ratio / m;
            return PERFBUF_CSTATUS_VALID_DATA;
        }
        if (ratio > m) {
            return PERFBUF_CALC_NEGATIVE_VALUE;
        }
        *out = 100.0 * (m - ratio) / m;
        return PERFBUF_CSTATUS_VALID_DATA;
    }
    case F_RAW_FRACTION:
        if (s1->second == 0) {
            return PERFBUF_CALC_NEGATIVE_DENOMINATOR;
        }
        *out = 100.0 * (as_double(s1->first) / as_double(s1->second));
        return PERFBUF_CSTATUS_VALID_DATA;
    case F_AVERAGE_TIMER:
        if (frequency == 0) {
            return PERFBUF_CALC_NEGATIVE_TIMEBASE;
        }
        if (dd == 0) {
            return PERFBUF_CALC_NEGATIVE_DENOMINATOR;
        }
        *out = (n / freq) / d;
        return PERFBUF_CSTATUS_VALID_DATA;
    case F_RAW:
        *out = as_double(s1->first);
        return PERFBUF_CSTATUS_VALID_DATA;
    case F_DELTA:
        *out = n;
        return PERFBUF_CSTATUS_VALID_DATA;
    case F_ELAPSED:
        if (frequency == 0) {
            return PERFBUF_CALC_NEGATIVE_TIMEBASE;
        }
        if (s1->second < s1->first) {
            return PERFBUF_CALC_NEGATIVE_VALUE;
        }
        *out = as_double(s1->second - s1->first) / freq;
        return PERFBUF_CSTATUS_VALID_DATA;
    case F_NONE:
    default:
        return PERFBUF_INVALID_ARGUMENT;
    }
}

static bool one_format(uint32_t flags)
{
    uint32_t kinds = flags & (PERFBUF_FMT_LONG | PERFBUF_FMT_DOUBLE | PERFBUF_FMT_LARGE);
    return kinds == PERFBUF_FMT_LONG || kinds == PERFBUF_FMT_DOUBLE || kinds == PERFBUF_FMT_LARGE;
}

/* Finite, and inside [lo, hi): false for NaN and infinities too. */
static bool in_range(double v, double lo, double hi)
{
    return v >= lo && v < hi;
}

/* Stores v in the requested format, truncating toward zero for integers. */
static uint32_t store(double v, uint32_t flags, perfbuf_value *out)
{
    if (!(v >= -DBL_MAX && v <= DBL_MAX)) {
        return PERFBUF_INVALID_DATA;
    }
    out->as_double = v;
    if (flags & PERFBUF_FMT_LARGE) {
        if (!in_range(v, -9223372036854775808.0, 9223372036854775808.0)) {
            return PERFBUF_INVALID_DATA;
        }
        out->as_large = (int64_t)v;
    } else if (flags & PERFBUF_FMT_LONG) {
        if (!in_range(v, -2147483648.0, 2147483648.0)) {
            return PERFBUF_INVALID_DATA;
        }
        out->as_long = (int32_t)v;
        out->as_large = out->as_long;
    }
    return PERFBUF_CSTATUS_VALID_DATA;
}

static double power_of_ten(int32_t scale)
{
    double p = 1.0;
    for (int32_t i = 0; i < scale; i++) {
        p *= 10.0;
    }
    for (int32_t i = 0; i > scale; i--) {
        p /= 10.0;
    }
    return p;
}

static uint32_t finish(perfbuf_value *out, uint32_t status)
{
    out->status = status;
    return status;
}

uint32_t perfbuf_format_value(uint32_t type, const perfbuf_raw_sample *newer,
                              const perfbuf_raw_sample *older, const perfbuf_value_context *context,
                              uint32_t flags, perfbuf_value *out)
{
    if (out == NULL) {
        return PERFBUF_INVALID_ARGUMENT;
    }
    perfbuf_value zero = {0, 0, 0.0, 0, 0};
    *out = zero;
    out->format = flags;
    const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(type);
    formula f = formula_of(type);
    if (newer == NULL || context == NULL || info == NULL || f == F_NONE || !one_format(flags) ||
        context->scale < -10 || context->scale > 10) {
        return finish(out, PERFBUF_INVALID_ARGUMENT);
    }
    if (!PERFBUF_STATUS_IS_VALID(newer->status) || newer->type != type) {
        return finish(out, PERFBUF_CSTATUS_INVALID_DATA);
    }
    const perfbuf_raw_sample *base = NULL;
    if (info->samples == 2) {
        if (older == NULL || !PERFBUF_STATUS_IS_VALID(older->status) || older->type != type) {
            return finish(out, PERFBUF_CSTATUS_INVALID_DATA);
        }
        base = older;
    }
    double v = 0.0;
    uint32_t st = evaluate(f, newer, base, context->frequency, &v);
    if (st != PERFBUF_CSTATUS_VALID_DATA) {
        return finish(out, st);
    }
    bool scaled = (flags & PERFBUF_FMT_NOSCALE) == 0 && context->scale != 0;
    bool times_1000 = (flags & PERFBUF_FMT_1000) != 0;
    /* Raw counts and deltas are integers: when nothing scales them, the
     * 64-bit result is exact, not rounded through a double. */
    if ((f == F_RAW || f == F_DELTA) && !scaled && !times_1000 && (flags & PERFBUF_FMT_DOUBLE) == 0) {
        uint64_t exact = f == F_RAW ? newer->first : newer->first - older->first;
        if ((flags & PERFBUF_FMT_LONG) ? exact > (uint64_t)INT32_MAX : exact > (uint64_t)INT64_MAX) {
            return finish(out, PERFBUF_INVALID_DATA);
        }
        out->as_double = as_double(exact);
        out->as_large = (int64_t)exact;
        out->as_long = (flags & PERFBUF_FMT_LONG) ? (int32_t)exact : 0;
        return finish(out, PERFBUF_CSTATUS_VALID_DATA);
    }
    if (scaled) {
        v *= power_of_ten(context->scale);
    }
    if (times_1000) {
        v *= 1000.0;
    }
    if (info->is_percent && (flags & PERFBUF_FMT_NOCAP100) == 0 && v > 100.0) {
        v = 100.0;
    }
    return finish(out, store(v, flags, out));
}

/* ---- statistics ---- */

static void keep_extremes(const perfbuf_value *v, perfbuf_statistics *s, double *sum)
{
    if (s->count == 0 || v->as_double < s->min.as_double) {
        s->min = *v;
    }
    if (s->count == 0 || v->as_double > s->max.as_double) {
        s->max = *v;
    }
    *sum += v->as_double;
    s->count++;
}

uint32_t perfbuf_compute_statistics(uint32_t type, const perfbuf_value_context *context,
                                    uint32_t flags, size_t first, size_t count,
                                    const perfbuf_raw_sample *entries, perfbuf_statistics *out)
{
    if (out == NULL) {
        return PERFBUF_INVALID_ARGUMENT;
    }
    perfbuf_statistics empty = {0, flags, 0, {0, 0, 0.0, 0, 0}, {0, 0, 0.0, 0, 0}, {0, 0, 0.0, 0, 0}};
    *out = empty;
    const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(type);
    if (entries == NULL || context == NULL || info == NULL || info->samples == 0 ||
        count == 0 || first >= count || !one_format(flags)) {
        out->status = PERFBUF_INVALID_ARGUMENT;
        return out->status;
    }
    const perfbuf_raw_sample *oldest = NULL;
    const perfbuf_raw_sample *previous = NULL;
    const perfbuf_raw_sample *newest = NULL;
    double sum = 0.0;
    for (size_t k = 0; k < count; k++) {
        /* Chronological: first .. count-1, then 0 .. first-1. */
        size_t i = k < count - first ? first + k : k - (count - first);
        const perfbuf_raw_sample *s = &entries[i];
        if (!PERFBUF_STATUS_IS_VALID(s->status) || s->type != type) {
            continue;
        }
        perfbuf_value v;
        if (info->samples == 1) {
            if (perfbuf_format_value(type, s, NULL, context, flags, &v) ==
                PERFBUF_CSTATUS_VALID_DATA) {
                keep_extremes(&v, out, &sum);
            }
        } else if (previous != NULL &&
                   perfbuf_format_value(type, s, previous, context, flags, &v) ==
                       PERFBUF_CSTATUS_VALID_DATA) {
            keep_extremes(&v, out, &sum);
        }
        if (oldest == NULL) {
            oldest = s;
        }
        previous = s;
        newest = s;
    }
    if (out->count == 0) {
        out->status = PERFBUF_NO_DATA;
        return out->status;
    }
    uint32_t st;
    if (info->samples == 1) {
        st = store(sum / (double)out->count, flags, &out->mean);
        out->mean.format = flags;
        out->mean.status = st;
    } else {
        st = perfbuf_format_value(type, newest, oldest, context, flags, &out->mean);
    }
    out->status = st;
    return st;
}
