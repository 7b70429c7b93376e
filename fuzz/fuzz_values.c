/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Counter formulas on arbitrary samples, types, flags and scales. Built
 * with -fsanitize=float-cast-overflow too, so an out-of-range conversion
 * would be reported. Oracles: the status is one of the documented ones; a
 * valid value is finite, not negative, capped at 100 where capping
 * applies, and its integer forms agree with the double. Each call stays
 * within its work budget over the samples and context it reads
 * (docs/linear-time.md). perfbuf_format_value and perfbuf_format_prepared
 * equal the formulas as they were before the fast path
 * (values_reference.h) bit for bit.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "oracle.h"
#include "values_reference.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/values.h"
#include "perfbuf/version.h"

static const uint32_t named[] = {
    PERF_COUNTER_COUNTER, PERF_COUNTER_TIMER, PERF_COUNTER_QUEUELEN_TYPE,
    PERF_COUNTER_LARGE_QUEUELEN_TYPE, PERF_COUNTER_100NS_QUEUELEN_TYPE,
    PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE, PERF_COUNTER_BULK_COUNT, PERF_COUNTER_TEXT,
    PERF_COUNTER_RAWCOUNT, PERF_COUNTER_LARGE_RAWCOUNT, PERF_COUNTER_RAWCOUNT_HEX,
    PERF_COUNTER_LARGE_RAWCOUNT_HEX, PERF_SAMPLE_FRACTION, PERF_SAMPLE_COUNTER,
    PERF_COUNTER_NODATA, PERF_COUNTER_TIMER_INV, PERF_SAMPLE_BASE, PERF_AVERAGE_TIMER,
    PERF_AVERAGE_BASE, PERF_AVERAGE_BULK, PERF_OBJ_TIME_TIMER, PERF_100NSEC_TIMER,
    PERF_100NSEC_TIMER_INV, PERF_COUNTER_MULTI_TIMER, PERF_COUNTER_MULTI_TIMER_INV,
    PERF_COUNTER_MULTI_BASE, PERF_100NSEC_MULTI_TIMER, PERF_100NSEC_MULTI_TIMER_INV,
    PERF_RAW_FRACTION, PERF_LARGE_RAW_FRACTION, PERF_RAW_BASE, PERF_LARGE_RAW_BASE,
    PERF_ELAPSED_TIME, PERF_COUNTER_HISTOGRAM_TYPE, PERF_COUNTER_DELTA,
    PERF_COUNTER_LARGE_DELTA, PERF_PRECISION_SYSTEM_TIMER, PERF_PRECISION_100NS_TIMER,
    PERF_PRECISION_OBJECT_TIMER,
};

static uint64_t take(const uint8_t **p, size_t *left, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n && *left > 0; i++) {
        v |= (uint64_t)**p << (8 * i);
        (*p)++;
        (*left)--;
    }
    return v;
}

static bool status_known(uint32_t st)
{
    return st == PERFBUF_CSTATUS_VALID_DATA || st == PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR ||
           st == PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE || st == PERFBUF_PDH_CALC_NEGATIVE_VALUE ||
           st == PERFBUF_CSTATUS_INVALID_DATA || st == PERFBUF_PDH_INVALID_ARGUMENT ||
           st == PERFBUF_PDH_INVALID_DATA || st == PERFBUF_PDH_NO_DATA;
}

static void check_value(const perfbuf_value *v, uint32_t type, uint32_t flags)
{
    ORACLE(status_known(v->status));
    if (v->status != PERFBUF_CSTATUS_VALID_DATA) {
        return;
    }
    ORACLE(v->as_double >= -DBL_MAX && v->as_double <= DBL_MAX);
    ORACLE(v->as_double >= 0.0);
    const perfbuf_counter_type_info *info;
    BUDGETED(sizeof type, info = perfbuf_counter_type_lookup(type));
    ORACLE(info != NULL && info->samples > 0);
    if (info->is_percent && !(flags & PERFBUF_FMT_NOCAP100)) {
        ORACLE(v->as_double <= 100.0);
    }
    if (flags & PERFBUF_FMT_LARGE) {
        ORACLE(fabs((double)v->as_large - trunc(v->as_double)) <= 1.0 + fabs(v->as_double) * 1e-15);
    }
    if (flags & PERFBUF_FMT_LONG) {
        ORACLE((double)v->as_long == trunc(v->as_double) ||
               fabs((double)v->as_long - v->as_double) < 1.0);
        ORACLE(v->as_large == v->as_long);
    }
}

/* Every field, the double by its bits. */
static bool same_value(const perfbuf_value *a, const perfbuf_value *b)
{
    return a->status == b->status && a->format == b->format && a->as_large == b->as_large &&
           a->as_long == b->as_long && memcmp(&a->as_double, &b->as_double, sizeof a->as_double) == 0;
}

/* lo <= v <= hi, allowing the roundings of a sum or a quotient (and,
 * for integers, of a truncation next to them). */
static bool between(double lo, double v, double hi, double ulp)
{
    double slack = ulp + 1e-9 * (fabs(hi) > 1.0 ? fabs(hi) : 1.0);
    return v >= lo - slack && v <= hi + slack;
}

/* The mean within [min, max], compared in the format asked for: integer
 * formats pick min and max by their integer values. */
static bool mean_inside(const perfbuf_statistics *s, uint32_t flags)
{
    if (flags & PERFBUF_FMT_DOUBLE) {
        return between(s->min.as_double, s->mean.as_double, s->max.as_double, 0.0);
    }
    return between((double)s->min.as_large, (double)s->mean.as_large, (double)s->max.as_large, 1.0);
}

/* The type's properties agree with its table entry, and the names of a
 * number (a type, a value status, a library status) are constant calls. */
static void check_type_names(uint32_t type, uint32_t status, uint32_t library_status)
{
    const perfbuf_counter_type_info *info;
    BUDGETED(sizeof type, info = perfbuf_counter_type_lookup(type));
    const char *name;
    const char *suffix;
    bool is_base;
    bool is_hex;
    unsigned samples;
    uint32_t value_size;
    BUDGETED(sizeof type, name = perfbuf_counter_type_name(type));
    BUDGETED(sizeof type, suffix = perfbuf_counter_type_suffix(type));
    BUDGETED(sizeof type, is_base = perfbuf_counter_type_is_base(type));
    BUDGETED(sizeof type, is_hex = perfbuf_counter_type_is_hex(type));
    BUDGETED(sizeof type, samples = perfbuf_counter_type_samples(type));
    BUDGETED(sizeof type, value_size = perfbuf_counter_type_size(type));
    ORACLE(name != NULL && suffix != NULL);
    ORACLE(value_size == PERFBUF_SIZE_VARIABLE || value_size == 0 || value_size == 4 ||
           value_size == 8);
    if (info != NULL) {
        ORACLE(strcmp(name, info->name) == 0 && strcmp(suffix, info->suffix) == 0);
        ORACLE(is_base == info->is_base && samples == info->samples);
    } else {
        ORACLE(strcmp(name, "unknown") == 0 && suffix[0] == '\0');
        ORACLE(!is_base && !is_hex && samples == 0);
    }
    ORACLE(!is_hex || (type == PERF_COUNTER_RAWCOUNT_HEX || type == PERF_COUNTER_LARGE_RAWCOUNT_HEX));
    const char *cstatus_name;
    const char *cstatus_text;
    BUDGETED(sizeof status, cstatus_name = perfbuf_cstatus_name(status));
    BUDGETED(sizeof status, cstatus_text = perfbuf_cstatus_string(status));
    ORACLE(cstatus_text != NULL && cstatus_text[0] != '\0');
    ORACLE((cstatus_name != NULL) == (strcmp(cstatus_text, "unknown value status") != 0));
    const char *status_name;
    const char *status_text;
    BUDGETED(sizeof library_status,
             status_name = perfbuf_status_name((perfbuf_status)library_status));
    BUDGETED(sizeof library_status,
             status_text = perfbuf_status_string((perfbuf_status)library_status));
    ORACLE(status_name != NULL && status_name[0] != '\0');
    ORACLE(status_text != NULL && status_text[0] != '\0');
    int version;
    const char *version_text;
    BUDGETED(0, version = perfbuf_version_number());
    BUDGETED(0, version_text = perfbuf_version_string());
    ORACLE(version == PERFBUF_VERSION_NUMBER && strcmp(version_text, PERFBUF_VERSION_STRING) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *p = data;
    size_t left = size;
    uint32_t pick = (uint32_t)take(&p, &left, 1);
    uint32_t type = pick < 200 ? named[pick % (sizeof named / sizeof named[0])]
                               : (uint32_t)take(&p, &left, 4);
    static const uint32_t formats[4] = {PERFBUF_FMT_DOUBLE, PERFBUF_FMT_LARGE, PERFBUF_FMT_LONG, 0};
    uint32_t options = (uint32_t)take(&p, &left, 1);
    uint32_t flags = formats[options & 3] | ((options & 4) ? PERFBUF_FMT_NOSCALE : 0) |
                     ((options & 8) ? PERFBUF_FMT_1000 : 0) | ((options & 16) ? PERFBUF_FMT_NOCAP100 : 0);
    perfbuf_value_context ctx;
    ctx.frequency = take(&p, &left, 8);
    /* -12..12: mostly accepted scales, and the first refused ones. */
    ctx.scale = (int32_t)(int8_t)take(&p, &left, 1) % 13;
    perfbuf_raw_sample ring[8];
    size_t n = 0;
    while (n < 8 && left >= 8) {
        perfbuf_raw_sample *s = &ring[n++];
        s->status = (take(&p, &left, 1) & 7) == 7 ? PERFBUF_CSTATUS_INVALID_DATA : PERFBUF_CSTATUS_VALID_DATA;
        s->type = type;
        s->first = take(&p, &left, 8);
        s->second = take(&p, &left, 8);
        s->multi = (uint32_t)take(&p, &left, 4);
        s->time_stamp = 0;
    }
    if (n == 0) {
        return 0;
    }
    perfbuf_value v;
    uint32_t st;
    size_t pair_bytes = 2 * sizeof ring[0] + sizeof ctx;
    BUDGETED(pair_bytes, st = perfbuf_format_value(type, &ring[n - 1], n > 1 ? &ring[n - 2] : NULL,
                                                   &ctx, flags, &v));
    ORACLE(st == v.status);
    check_value(&v, type, flags);
    check_type_names(type, st, options % ((uint32_t)PERFBUF_STATUS_COUNT + 4u));
    /* Bit for bit the reference's, and so through a prepared formula. */
    perfbuf_value want, prepared_value;
    uint32_t want_st = reference_format_value(type, &ring[n - 1], n > 1 ? &ring[n - 2] : NULL, &ctx,
                                              flags, &want);
    ORACLE(st == want_st && same_value(&v, &want));
    perfbuf_prepared_formula prepared;
    uint32_t prepare_st;
    BUDGETED(sizeof type, prepare_st = perfbuf_prepare_formula(type, &prepared));
    BUDGETED(pair_bytes, st = perfbuf_format_prepared(&prepared, &ring[n - 1],
                                                      n > 1 ? &ring[n - 2] : NULL, &ctx, flags,
                                                      &prepared_value));
    ORACLE(st == want_st && same_value(&prepared_value, &want));
    /* A prepared formula the caller damaged is refused or is some type's:
     * never a crash, and a status the call documents. */
    perfbuf_prepared_formula damaged = prepared;
    damaged.formula ^= (uint32_t)ctx.frequency;
    BUDGETED(pair_bytes, st = perfbuf_format_prepared(&damaged, &ring[n - 1],
                                                      n > 1 ? &ring[n - 2] : NULL, &ctx, flags,
                                                      &prepared_value));
    ORACLE(st == prepared_value.status && status_known(st));
    /* Only a type without a value, bad flags or a bad scale are refused. */
    bool arguments_ok = (flags & (PERFBUF_FMT_DOUBLE | PERFBUF_FMT_LARGE | PERFBUF_FMT_LONG)) != 0 &&
                        ctx.scale >= PERFBUF_MIN_SCALE && ctx.scale <= PERFBUF_MAX_SCALE;
    bool displayable;
    BUDGETED(sizeof type, displayable = perfbuf_counter_type_is_displayable(type));
    ORACLE((want_st == PERFBUF_PDH_INVALID_ARGUMENT) == (!arguments_ok || !displayable));
    ORACLE((prepare_st == PERFBUF_CSTATUS_VALID_DATA) == displayable);
    /* The same samples again give the same value. */
    perfbuf_value again;
    BUDGETED(pair_bytes, (void)perfbuf_format_value(type, &ring[n - 1], n > 1 ? &ring[n - 2] : NULL,
                                                    &ctx, flags, &again));
    ORACLE(v.status == again.status && v.as_large == again.as_large && v.as_long == again.as_long &&
           memcmp(&v.as_double, &again.as_double, sizeof v.as_double) == 0);

    perfbuf_statistics stats;
    size_t first = (size_t)(ctx.frequency % n);
    BUDGETED(n * sizeof ring[0] + sizeof ctx,
             st = perfbuf_compute_statistics(type, &ctx, flags, first, n, ring, &stats));
    ORACLE(st == stats.status && status_known(st));
    ORACLE(stats.count <= n);
    if (stats.count > 0) {
        check_value(&stats.min, type, flags);
        check_value(&stats.max, type, flags);
        ORACLE((flags & PERFBUF_FMT_DOUBLE) ? stats.min.as_double <= stats.max.as_double
                                            : stats.min.as_large <= stats.max.as_large);
    }
    /* The mean lies between min and max, except for multi-timers, whose
     * mean divides by the newest M while each pair used its own. */
    if (st == PERFBUF_CSTATUS_VALID_DATA) {
        ORACLE(stats.count > 0);
        check_value(&stats.mean, type, flags);
        const perfbuf_counter_type_info *info;
        BUDGETED(sizeof type, info = perfbuf_counter_type_lookup(type));
        if (info->needs_multi == false) {
            ORACLE(mean_inside(&stats, flags));
        }
    }
    return 0;
}
