/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Raw samples from a validated V1 block (FORMATS section 6). */
#include "perfbuf/counter_types.h"
#include "perfbuf/v1.h"

static uint64_t frequency_of(int64_t f)
{
    return f > 0 ? (uint64_t)f : 0;
}

static uint64_t clock_of(int64_t t)
{
    return t > 0 ? (uint64_t)t : 0;
}

perfbuf_status perfbuf_v1_raw_sample(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                     const perfbuf_v1_counter *counter,
                                     const perfbuf_v1_counter_block *block,
                                     perfbuf_raw_sample *sample, perfbuf_value_context *context)
{
    if (b == NULL || o == NULL || counter == NULL || block == NULL || sample == NULL ||
        context == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(counter->type);
    if (info == NULL || info->samples == 0) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    sample->status = PERFBUF_CSTATUS_VALID_DATA;
    sample->type = counter->type;
    sample->first = perfbuf_v1_counter_value(b, block, counter);
    sample->second = 0;
    sample->multi = 0;
    sample->time_stamp = b->perf_time_100ns;
    context->scale = counter->default_scale;
    context->frequency = 0;
    switch (info->time_base) {
    case PERFBUF_TIME_SYSTEM:
        sample->second = clock_of(b->perf_time);
        context->frequency = frequency_of(b->perf_freq);
        break;
    case PERFBUF_TIME_100NS:
        sample->second = clock_of(b->perf_time_100ns);
        context->frequency = 10000000u;
        break;
    case PERFBUF_TIME_OBJECT:
        sample->second = clock_of(o->perf_time);
        context->frequency = frequency_of(o->perf_freq);
        break;
    case PERFBUF_TIME_NONE:
    default:
        break;
    }
    if (!info->needs_base && !info->needs_multi) {
        return PERFBUF_OK;
    }
    /* Base and multi counters pair by position: the next definition. */
    perfbuf_v1_iter it;
    perfbuf_v1_counter next;
    perfbuf_v1_counters_begin(o, &it);
    while (perfbuf_v1_counters_next(b, &it, &next)) {
        if (next.index != counter->index + 1) {
            continue;
        }
        uint64_t value = perfbuf_v1_counter_value(b, block, &next);
        if (info->needs_base && perfbuf_counter_type_is_base(next.type)) {
            /* Precision timers divide by their timestamp instead of a clock. */
            sample->second = value;
            return PERFBUF_OK;
        }
        if (info->needs_multi && next.type == PERF_COUNTER_MULTI_BASE) {
            /* PDH's MultiCount is 32 bits: a larger base cannot be used as
             * it is, and a clamped one would give a wrong value that looks
             * right. */
            if (value > UINT32_MAX) {
                sample->status = PERFBUF_CSTATUS_INVALID_DATA;
            } else {
                sample->multi = (uint32_t)value;
            }
            return PERFBUF_OK;
        }
        break;
    }
    return PERFBUF_E_NOT_FOUND;
}
