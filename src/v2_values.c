/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Raw samples from a validated V2 query and its counterset registration. */
#include "perfbuf/counter_types.h"
#include "perfbuf/v2_meta.h"

/*
 * The integer value of counter `id` among the values of an instance or of
 * a block without instances. A block without an id list holds one counter,
 * the one asked for (`own`): the counters it refers to (time, frequency,
 * base, multi) are not in it, and its value must not stand in for them.
 */
static bool value_of(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                     const perfbuf_v2_instance *inst, uint32_t id, bool own, uint64_t *out)
{
    perfbuf_v2_iter it;
    perfbuf_v2_value v;
    if (inst != NULL) {
        perfbuf_v2_instance_values_begin(inst, &it);
    } else {
        perfbuf_v2_block_values_begin(block, &it);
    }
    bool has_ids = block->kind == PERFBUF_V2_MULTIPLE_COUNTERS || block->kind == PERFBUF_V2_COUNTERSET;
    /* 0xFFFFFFFF is a reference's "none": no value answers to it, not even
     * one whose id list entry happens to hold that number. */
    if ((!has_ids && !own) || id == PERFBUF_V2_NO_ID) {
        return false;
    }
    while (perfbuf_v2_values_next(q, block, &it, &v)) {
        if ((has_ids ? v.counter_id == id : v.index == 0) && v.is_integer) {
            *out = v.integer;
            return true;
        }
    }
    return false;
}

static uint64_t positive(int64_t v)
{
    return v > 0 ? (uint64_t)v : 0;
}

perfbuf_status perfbuf_v2_raw_sample(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                                     const perfbuf_v2_instance *inst, const perfbuf_v2_reginfo *reg,
                                     uint32_t counter_id, perfbuf_raw_sample *sample,
                                     perfbuf_value_context *context)
{
    if (q == NULL || block == NULL || reg == NULL || sample == NULL || context == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_v2_counter_reg c;
    if (perfbuf_v2_reginfo_find(reg, counter_id, &c) != PERFBUF_OK) {
        return PERFBUF_E_NOT_FOUND;
    }
    const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(c.type);
    if (info == NULL || info->samples == 0) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    sample->status = PERFBUF_CSTATUS_VALID_DATA;
    sample->type = c.type;
    sample->second = 0;
    sample->multi = 0;
    sample->time_stamp = q->perf_time_100ns;
    context->scale = c.default_scale;
    context->frequency = 0;
    if (!value_of(q, block, inst, counter_id, true, &sample->first)) {
        return PERFBUF_E_NOT_FOUND;
    }
    uint64_t v;
    switch (info->time_base) {
    case PERFBUF_TIME_SYSTEM:
        sample->second = positive(q->perf_time_stamp);
        context->frequency = positive(q->perf_freq);
        break;
    case PERFBUF_TIME_100NS:
        sample->second = positive(q->perf_time_100ns);
        context->frequency = 10000000u;
        break;
    case PERFBUF_TIME_OBJECT:
        /* PERF_PRECISION_OBJECT_TIMER divides by its base counter, not by
         * a clock (docs/counter-types.md, O-20): it needs no PerfTimeId or
         * PerfFreqId, only the BaseCounterId read below. */
        if (info->needs_base) {
            break;
        }
        if (!value_of(q, block, inst, c.perf_time_id, false, &sample->second) ||
            !value_of(q, block, inst, c.perf_freq_id, false, &context->frequency)) {
            return PERFBUF_E_NOT_FOUND;
        }
        break;
    case PERFBUF_TIME_NONE:
    default:
        break;
    }
    if (info->needs_base) {
        if (!value_of(q, block, inst, c.base_id, false, &sample->second)) {
            return PERFBUF_E_NOT_FOUND;
        }
    }
    if (info->needs_multi) {
        if (!value_of(q, block, inst, c.multi_id, false, &v)) {
            return PERFBUF_E_NOT_FOUND;
        }
        /* PDH's MultiCount is 32 bits: a larger base cannot be used as it is,
         * and a clamped one would give a wrong value that looks right. */
        if (v > UINT32_MAX) {
            sample->status = PERFBUF_CSTATUS_INVALID_DATA;
        } else {
            sample->multi = (uint32_t)v;
        }
    }
    return PERFBUF_OK;
}
