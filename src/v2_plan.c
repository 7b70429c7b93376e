/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Value plans: what perfbuf_v2_raw_sample resolves for every call (the
 * registration entry, the type's formula inputs, where each referenced
 * counter's value is) resolved once per block, so that a sample costs a
 * few loads from the values perfbuf_v2_values_read wrote.
 */
#include "perfbuf/counter_types.h"
#include "perfbuf/v2_meta.h"

#include "check.h"
#include "work.h"

enum { SOURCE_NONE, SOURCE_VALUE, SOURCE_SYSTEM, SOURCE_100NS };

static bool block_has_ids(const perfbuf_v2_block *block)
{
    return block->kind == PERFBUF_V2_MULTIPLE_COUNTERS || block->kind == PERFBUF_V2_COUNTERSET;
}

/* The position of the first id-list entry of a registered counter id, or
 * PERFBUF_V2_PLAN_NONE. */
static uint32_t position_of(const perfbuf_v2_reginfo *reg, const uint32_t *first_position,
                            uint32_t id)
{
    perfbuf_v2_counter_reg c;
    if (id == PERFBUF_V2_NO_ID || perfbuf_v2_reginfo_find(reg, id, &c) != PERFBUF_OK ||
        c.index >= reg->counter_count) {
        return PERFBUF_V2_PLAN_NONE;
    }
    return first_position[c.index];
}

/* One entry: the statuses and sources sample_from in v2_values.c would
 * reach, when every value is an integer and positions are first ones. */
static void plan_entry(const perfbuf_v2_reginfo *reg, const uint32_t *first_position,
                       uint32_t id, perfbuf_v2_plan_entry *e)
{
    perfbuf_v2_plan_entry zero = {0};
    *e = zero;
    e->counter_id = id;
    e->first = e->second = e->frequency = e->multi = PERFBUF_V2_PLAN_NONE;
    e->status = PERFBUF_E_NOT_FOUND;
    perfbuf_v2_counter_reg c;
    if (perfbuf_v2_reginfo_find(reg, id, &c) != PERFBUF_OK) {
        return;
    }
    const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(c.type);
    if (info == NULL || info->samples == 0) {
        e->status = PERFBUF_E_INVALID_ARGUMENT;
        return;
    }
    e->type = c.type;
    e->scale = c.default_scale;
    (void)perfbuf_prepare_formula(c.type, &e->formula);
    e->first = position_of(reg, first_position, id);
    bool found = e->first != PERFBUF_V2_PLAN_NONE;
    switch (info->time_base) {
    case PERFBUF_TIME_SYSTEM:
        e->second_source = e->frequency_source = SOURCE_SYSTEM;
        break;
    case PERFBUF_TIME_100NS:
        e->second_source = e->frequency_source = SOURCE_100NS;
        break;
    case PERFBUF_TIME_OBJECT:
        if (!info->needs_base) {
            e->second_source = e->frequency_source = SOURCE_VALUE;
            e->second = position_of(reg, first_position, c.perf_time_id);
            e->frequency = position_of(reg, first_position, c.perf_freq_id);
            found = found && e->second != PERFBUF_V2_PLAN_NONE &&
                    e->frequency != PERFBUF_V2_PLAN_NONE;
        }
        break;
    case PERFBUF_TIME_NONE:
    default:
        break;
    }
    if (info->needs_base) {
        e->second_source = SOURCE_VALUE;
        e->second = position_of(reg, first_position, c.base_id);
        found = found && e->second != PERFBUF_V2_PLAN_NONE;
    }
    if (info->needs_multi) {
        e->multi = position_of(reg, first_position, c.multi_id);
        found = found && e->multi != PERFBUF_V2_PLAN_NONE;
    }
    e->status = found ? PERFBUF_OK : PERFBUF_E_NOT_FOUND;
}

perfbuf_status perfbuf_v2_plan_build(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                                     const perfbuf_v2_reginfo *reg,
                                     perfbuf_v2_plan_entry *entries, size_t entry_cap,
                                     uint32_t *scratch, size_t scratch_cap,
                                     perfbuf_v2_plan *out)
{
    if (q == NULL || block == NULL || reg == NULL || out == NULL ||
        (entries == NULL && entry_cap != 0) || (scratch == NULL && scratch_cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_v2_plan plan = {0};
    plan.block_offset = block->offset;
    plan.count = block_has_ids(block) ? block->counter_count : 0;
    plan.scratch_needed = reg->counter_count;
    *out = plan;
    if (!block_has_ids(block)) {
        /* One value, no references: perfbuf_v2_raw_sample is already direct. */
        return PERFBUF_E_NOT_FOUND;
    }
    if (entry_cap < plan.count || scratch_cap < plan.scratch_needed) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    for (uint32_t r = 0; r < reg->counter_count; r++) {
        PB_WORK(1);
        scratch[r] = PERFBUF_V2_PLAN_NONE;
    }
    /* First pass: where each registered counter first appears. */
    for (uint32_t i = 0; i < plan.count; i++) {
        PB_WORK(1);
        uint32_t id = perfbuf_v2_block_counter_id(q, block, i);
        perfbuf_v2_counter_reg c;
        if (id == PERFBUF_V2_NO_ID || perfbuf_v2_reginfo_find(reg, id, &c) != PERFBUF_OK ||
            c.index >= reg->counter_count) {
            continue;
        }
        if (scratch[c.index] == PERFBUF_V2_PLAN_NONE) {
            scratch[c.index] = i;
        } else {
            plan.repeated_ids = true;
        }
    }
    /* Second pass: every position's formula inputs. */
    for (uint32_t i = 0; i < plan.count; i++) {
        PB_WORK(1);
        plan_entry(reg, scratch, perfbuf_v2_block_counter_id(q, block, i), &entries[i]);
    }
    plan.entries = entries;
    *out = plan;
    return PERFBUF_OK;
}

static uint64_t positive(int64_t v)
{
    return v > 0 ? (uint64_t)v : 0;
}

/* What the clocks of one query give each source, read once per call. */
typedef struct clocks {
    uint64_t second[4];
    uint64_t frequency[4];
    int64_t time_stamp;
} clocks;

static void clocks_of(const perfbuf_v2_query *q, clocks *k)
{
    k->second[SOURCE_NONE] = k->second[SOURCE_VALUE] = 0;
    k->second[SOURCE_SYSTEM] = positive(q->perf_time_stamp);
    k->second[SOURCE_100NS] = positive(q->perf_time_100ns);
    k->frequency[SOURCE_NONE] = k->frequency[SOURCE_VALUE] = 0;
    k->frequency[SOURCE_SYSTEM] = positive(q->perf_freq);
    k->frequency[SOURCE_100NS] = 10000000u;
    k->time_stamp = q->perf_time_100ns;
}

/* One entry's sample from the values of an instance with every value an
 * integer and no repeated id: the few loads the plan resolved. */
static inline perfbuf_status fill_sample(const clocks *restrict k, const uint64_t *restrict values,
                                         uint32_t count, const perfbuf_v2_plan_entry *restrict e,
                                         perfbuf_raw_sample *restrict sample,
                                         perfbuf_value_context *restrict context)
{
    if (e->status != PERFBUF_OK) {
        return e->status;
    }
    /* The build wrote positions below the plan's count, which the values
     * have, or NONE, and sources from the four above; a plan the caller
     * changed since still stays inside. */
    bool second_read = e->second_source == SOURCE_VALUE;
    bool frequency_read = e->frequency_source == SOURCE_VALUE;
    if (e->first >= count || (second_read && e->second >= count) ||
        (frequency_read && e->frequency >= count) ||
        (e->multi != PERFBUF_V2_PLAN_NONE && e->multi >= count) || e->second_source > 3 ||
        e->frequency_source > 3) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    sample->status = PERFBUF_CSTATUS_VALID_DATA;
    sample->type = e->type;
    sample->first = values[e->first];
    sample->second = second_read ? values[e->second] : k->second[e->second_source];
    sample->multi = 0;
    sample->time_stamp = k->time_stamp;
    context->scale = e->scale;
    context->frequency = frequency_read ? values[e->frequency] : k->frequency[e->frequency_source];
    if (e->multi != PERFBUF_V2_PLAN_NONE) {
        uint64_t v = values[e->multi];
        /* As perfbuf_v2_raw_sample: PDH's MultiCount is 32 bits. */
        if (v > UINT32_MAX) {
            sample->status = PERFBUF_CSTATUS_INVALID_DATA;
        } else {
            sample->multi = (uint32_t)v;
        }
    }
    return PERFBUF_OK;
}

/* The arguments every plan sample needs, checked once. */
static bool plan_arguments(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                           const perfbuf_v2_reginfo *reg, const perfbuf_v2_plan *plan,
                           const uint64_t *values, const perfbuf_v2_values_read_result *read)
{
    return q != NULL && block != NULL && reg != NULL && plan != NULL && values != NULL &&
           read != NULL && plan->entries != NULL && plan->block_offset == block->offset &&
           block->counter_count == plan->count;
}

/* Which of two values under one id counts depends on which ones are
 * integers: the walk decides, as it always does. So it does for a block
 * of instances asked without one, which has no values. */
static bool walk_decides(const perfbuf_v2_instance *inst, const perfbuf_v2_plan *plan,
                         const perfbuf_v2_values_read_result *read)
{
    return plan->repeated_ids || read->non_integers != 0 || (inst == NULL && read->count == 0);
}

perfbuf_status perfbuf_v2_plan_sample(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                                      const perfbuf_v2_instance *inst,
                                      const perfbuf_v2_reginfo *reg, const perfbuf_v2_plan *plan,
                                      const uint64_t *values,
                                      const perfbuf_v2_values_read_result *read,
                                      uint32_t position, perfbuf_raw_sample *sample,
                                      perfbuf_value_context *context)
{
    if (!plan_arguments(q, block, reg, plan, values, read) || sample == NULL || context == NULL ||
        position >= plan->count) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    const perfbuf_v2_plan_entry *e = &plan->entries[position];
    if (walk_decides(inst, plan, read)) {
        return perfbuf_v2_raw_sample(q, block, inst, reg, e->counter_id, sample, context);
    }
    if (read->count != plan->count) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    clocks k;
    clocks_of(q, &k);
    return fill_sample(&k, values, read->count, e, sample, context);
}

perfbuf_status perfbuf_v2_plan_samples(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                                       const perfbuf_v2_instance *inst,
                                       const perfbuf_v2_reginfo *reg, const perfbuf_v2_plan *plan,
                                       const uint64_t *values,
                                       const perfbuf_v2_values_read_result *read,
                                       perfbuf_raw_sample *samples,
                                       perfbuf_value_context *contexts, perfbuf_status *statuses,
                                       size_t cap)
{
    if (!plan_arguments(q, block, reg, plan, values, read) || samples == NULL ||
        contexts == NULL || statuses == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (cap < plan->count) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    if (walk_decides(inst, plan, read)) {
        for (uint32_t p = 0; p < plan->count; p++) {
            PB_WORK(1);
            statuses[p] = perfbuf_v2_raw_sample(q, block, inst, reg, plan->entries[p].counter_id,
                                                &samples[p], &contexts[p]);
        }
        return PERFBUF_OK;
    }
    if (read->count != plan->count) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    clocks k;
    clocks_of(q, &k);
    for (uint32_t p = 0; p < plan->count; p++) {
        PB_WORK(1);
        statuses[p] = fill_sample(&k, values, read->count, &plan->entries[p], &samples[p],
                                  &contexts[p]);
    }
    return PERFBUF_OK;
}

const perfbuf_prepared_formula *perfbuf_v2_plan_formula(const perfbuf_v2_plan *plan,
                                                        uint32_t position)
{
    if (plan == NULL || plan->entries == NULL || position >= plan->count) {
        return NULL;
    }
    return &plan->entries[position].formula;
}
