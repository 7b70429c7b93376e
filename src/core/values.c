/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Counter formulas. Differences of raw values are taken in exact unsigned
 * arithmetic, after checking their order; only then do they become doubles.
 * Doubles divide only by quantities shown to be > 0, and every double is
 * checked for range before it becomes an integer.
 */
#include "perfbuf/values.h"

#include "perfbuf/counter_types.h"
#include "core/formula.h"
#include "core/work.h"

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

uint32_t perfbuf_format_prepared(const perfbuf_prepared_formula *prepared,
                                 const perfbuf_raw_sample *newer, const perfbuf_raw_sample *older,
                                 const perfbuf_value_context *context, uint32_t flags,
                                 perfbuf_value *out)
{
    if (out == NULL) {
        return PERFBUF_PDH_INVALID_ARGUMENT;
    }
    clear_value(out, flags);
    formula f = prepared != NULL ? prepared_formula_of(prepared) : F_NONE;
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

uint32_t perfbuf_compact_cstatus(uint8_t code)
{
    static const uint32_t statuses[PERFBUF_COMPACT_COUNT] = {
        [PERFBUF_COMPACT_VALID_DATA] = PERFBUF_CSTATUS_VALID_DATA,
        [PERFBUF_COMPACT_INVALID_DATA] = PERFBUF_CSTATUS_INVALID_DATA,
        [PERFBUF_COMPACT_PDH_INVALID_ARGUMENT] = PERFBUF_PDH_INVALID_ARGUMENT,
        [PERFBUF_COMPACT_PDH_INVALID_DATA] = PERFBUF_PDH_INVALID_DATA,
        [PERFBUF_COMPACT_CALC_NEGATIVE_DENOMINATOR] = PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR,
        [PERFBUF_COMPACT_CALC_NEGATIVE_TIMEBASE] = PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE,
        [PERFBUF_COMPACT_CALC_NEGATIVE_VALUE] = PERFBUF_PDH_CALC_NEGATIVE_VALUE,
        [PERFBUF_COMPACT_NO_COUNTER] = PERFBUF_CSTATUS_NO_COUNTER,
    };
    return code < PERFBUF_COMPACT_COUNT ? statuses[code] : PERFBUF_PDH_INVALID_ARGUMENT;
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
