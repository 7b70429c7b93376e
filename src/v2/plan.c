/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Value plans: what perfbuf_v2_raw_sample resolves for every call (the
 * registration entry, the type's formula inputs, where each referenced
 * counter's value is) resolved once per block, so that a sample costs a
 * few loads from the values perfbuf_v2_values_read wrote.
 */
#include <string.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/v2_meta.h"

#include "core/check.h"
#include "core/formula.h"
#include "core/work.h"

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

/* One entry: the statuses and sources sample_from in v2/values.c would
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
    /* Set before the type is judged: a base counter has no sample of its
     * own, but the walk of plan_samples finds every id's values through
     * the first position of its id (walked_values). */
    e->first = position_of(reg, first_position, id);
    const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(c.type);
    if (info == NULL || info->samples == 0) {
        e->status = PERFBUF_E_INVALID_ARGUMENT;
        return;
    }
    e->type = c.type;
    e->scale = c.default_scale;
    (void)perfbuf_prepare_formula(c.type, &e->formula);
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

/* The arguments every plan sample needs, checked once. A plan is built
 * only for a block with an id list: a block without one (another query's,
 * at the same offset) matches values by position, not by id, and no
 * position of the plan means it. */
static bool plan_arguments(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                           const perfbuf_v2_reginfo *reg, const perfbuf_v2_plan *plan,
                           const uint64_t *values, const perfbuf_v2_values_read_result *read)
{
    return q != NULL && block != NULL && reg != NULL && plan != NULL && values != NULL &&
           read != NULL && plan->entries != NULL && plan->block_offset == block->offset &&
           block->counter_count == plan->count && block_has_ids(block);
}

/* Which of two values under one id counts depends on which ones are
 * integers: the walk decides, as it always does. So it does for a block
 * of instances asked without one, which has no values. One position asks
 * perfbuf_v2_raw_sample; every position at once walks once
 * (walked_samples). */
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

/*
 * When the walk decides, the value of an id is the first integer value
 * under that id in position order (value_of in v2/values.c). Calling
 * perfbuf_v2_raw_sample for each position would walk the values once per
 * position, O(counters^2) per instance; one walk answers every id instead.
 * Every position of an id has, in its plan entry, the id's first position
 * (plan_entry sets it for every registered id), so the first integer value
 * the walk meets at a position of an id is recorded at that first
 * position, and the samples then read the record where the fast path reads
 * values[]. The records need a value and a flag per position and the call
 * may not allocate: they live in the two fields of the samples that every
 * sample takes from the plan and the query alone (type, time_stamp), which
 * are written last. No field is read before this call wrote it.
 */
enum { RECORD_NONE = 0, RECORD_FOUND = 1 };

static void record_put(perfbuf_raw_sample *slot, uint64_t value)
{
    /* The value's bits, not its value: time_stamp is signed. */
    memcpy(&slot->time_stamp, &value, sizeof value);
    slot->type = RECORD_FOUND;
}

static bool record_get(const perfbuf_raw_sample *records, uint32_t position, uint64_t *value)
{
    if (records[position].type != RECORD_FOUND) {
        return false;
    }
    memcpy(value, &records[position].time_stamp, sizeof *value);
    return true;
}

/* The first integer value of each id, recorded at the id's first position:
 * one walk of the values perfbuf_v2_raw_sample walks. A position whose
 * id is not the plan's (a block with another id list) records nothing, as
 * the walk for the plan's id would not stop there. */
static void walked_values(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                          const perfbuf_v2_instance *inst, const perfbuf_v2_plan *plan,
                          perfbuf_raw_sample *records)
{
    uint32_t count = plan->count;
    for (uint32_t p = 0; p < count; p++) {
        PB_WORK(1);
        records[p].type = RECORD_NONE;
    }
    perfbuf_v2_iter it;
    if (inst != NULL) {
        perfbuf_v2_instance_values_begin(inst, &it);
    } else {
        perfbuf_v2_block_values_begin(block, &it);
    }
    perfbuf_v2_value v;
    while (perfbuf_v2_values_next(q, block, &it, &v) && v.index < count) {
        const perfbuf_v2_plan_entry *e = &plan->entries[v.index];
        uint32_t head = e->first;
        if (!v.is_integer || v.counter_id != e->counter_id || v.counter_id == PERFBUF_V2_NO_ID ||
            head >= count || records[head].type == RECORD_FOUND) {
            continue;
        }
        record_put(&records[head], v.integer);
    }
}

/* fill_sample with the recorded values in place of values[]: the same
 * checks of the entry, and NOT_FOUND where the walk found no integer. */
static perfbuf_status walked_sample(const clocks *k, const perfbuf_raw_sample *records,
                                    uint32_t count, const perfbuf_v2_plan_entry *e,
                                    perfbuf_raw_sample *sample, perfbuf_value_context *context)
{
    if (e->status != PERFBUF_OK) {
        return e->status;
    }
    bool second_read = e->second_source == SOURCE_VALUE;
    bool frequency_read = e->frequency_source == SOURCE_VALUE;
    bool multi_read = e->multi != PERFBUF_V2_PLAN_NONE;
    if (e->first >= count || (second_read && e->second >= count) ||
        (frequency_read && e->frequency >= count) || (multi_read && e->multi >= count) ||
        e->second_source > 3 || e->frequency_source > 3) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    uint64_t first = 0;
    uint64_t second = k->second[e->second_source];
    uint64_t frequency = k->frequency[e->frequency_source];
    uint64_t multi = 0;
    if (!record_get(records, e->first, &first) ||
        (second_read && !record_get(records, e->second, &second)) ||
        (frequency_read && !record_get(records, e->frequency, &frequency)) ||
        (multi_read && !record_get(records, e->multi, &multi))) {
        return PERFBUF_E_NOT_FOUND;
    }
    /* sample may be one of the records: only fields that hold none. */
    sample->status = PERFBUF_CSTATUS_VALID_DATA;
    sample->first = first;
    sample->second = second;
    sample->multi = 0;
    context->scale = e->scale;
    context->frequency = frequency;
    if (multi_read) {
        /* As perfbuf_v2_raw_sample: PDH's MultiCount is 32 bits. */
        if (multi > UINT32_MAX) {
            sample->status = PERFBUF_CSTATUS_INVALID_DATA;
        } else {
            sample->multi = (uint32_t)multi;
        }
    }
    return PERFBUF_OK;
}

/* Every position when the walk decides: O(counters), one walk. */
static void walked_samples(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                           const perfbuf_v2_instance *inst, const perfbuf_v2_plan *plan,
                           perfbuf_raw_sample *samples, perfbuf_value_context *contexts,
                           perfbuf_status *statuses)
{
    clocks k;
    clocks_of(q, &k);
    walked_values(q, block, inst, plan, samples);
    for (uint32_t p = 0; p < plan->count; p++) {
        PB_WORK(1);
        statuses[p] = walked_sample(&k, samples, plan->count, &plan->entries[p], &samples[p],
                                    &contexts[p]);
    }
    /* The records are read: now the fields that held them. */
    for (uint32_t p = 0; p < plan->count; p++) {
        PB_WORK(1);
        samples[p].type = plan->entries[p].type;
        samples[p].time_stamp = k.time_stamp;
    }
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
        walked_samples(q, block, inst, plan, samples, contexts, statuses);
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

/* ---- a whole block per call, as doubles ---- */

/* The status of a sample that failed, as the cell reports it. */
static uint8_t failed_sample_code(perfbuf_status st)
{
    return st == PERFBUF_E_NOT_FOUND ? (uint8_t)PERFBUF_COMPACT_NO_COUNTER
                                     : (uint8_t)PERFBUF_COMPACT_PDH_INVALID_ARGUMENT;
}

/* The rows of one step: each row's values in both captures, count apart. */
typedef struct step_rows {
    const uint64_t *newer;
    const uint64_t *older;
    uint32_t count;
    uint32_t n;
} step_rows;

/* Column k down the step's rows value by value: fill_sample on each side
 * and perfbuf_format_prepared, as perfbuf_v2_plan_samples and the
 * caller's loop do. */
static void format_column_each(const clocks *k1, const clocks *k0, const perfbuf_v2_plan_entry *e,
                               const step_rows *rows, uint32_t flags, double *values,
                               uint8_t *codes)
{
    for (uint32_t j = 0; j < rows->n; j++) {
        const size_t at = (size_t)j * rows->count;
        perfbuf_raw_sample s1, s0;
        perfbuf_value_context c1, c0;
        perfbuf_status st = fill_sample(k1, rows->newer + at, rows->count, e, &s1, &c1);
        if (st == PERFBUF_OK) {
            st = fill_sample(k0, rows->older + at, rows->count, e, &s0, &c0);
        }
        if (st != PERFBUF_OK) {
            values[at] = 0.0;
            codes[at] = failed_sample_code(st);
            continue;
        }
        perfbuf_value v;
        uint32_t status = perfbuf_format_prepared(&e->formula, &s1, &s0, &c1, flags, &v);
        values[at] = v.as_double;
        codes[at] = compact_of(status);
    }
}

/* What a column whose formula takes its value alone shares in every row. */
typedef struct clock_column {
    uint32_t type;
    uint32_t first;
    uint64_t clock1, clock0;
    int64_t stamp1, stamp0;
    uint64_t frequency;
    adjustment adjust;
} clock_column;

/*
 * A column down the step's rows with formula f a constant: the samples
 * fill_sample writes for an entry whose second value and frequency come
 * from the clocks, through the steps of perfbuf_format_prepared
 * (format_double_adjusted). False when a value was not finite: the
 * column is then taken again value by value, where present() reports it.
 */
HOT_PATH bool format_column_clocked(formula f, const clock_column *c, const step_rows *rows,
                                    double *values, uint8_t *codes)
{
    const uint64_t *newer = rows->newer + c->first;
    const uint64_t *older = rows->older + c->first;
    const uint32_t count = rows->count;
    const adjustment a = c->adjust;
    uint64_t not_finite = 0;
    for (uint32_t j = 0; j < rows->n; j++) {
        const size_t at = (size_t)j * count;
        perfbuf_raw_sample s1 = {PERFBUF_CSTATUS_VALID_DATA, c->type, newer[at], c->clock1, 0,
                                 c->stamp1};
        perfbuf_raw_sample s0 = {PERFBUF_CSTATUS_VALID_DATA, c->type, older[at], c->clock0, 0,
                                 c->stamp0};
        double v;
        uint32_t st = format_double_adjusted(f, &s1, &s0, c->frequency, &a, &v);
        not_finite |= finite_bits(v);
        values[at] = v;
        codes[at] = compact_of(st);
    }
    return not_finite == 0;
}

/* One function per formula, each a loop of its own (inlined into one
 * dispatch they would share its registers, and spill them per value). */
#if defined(__GNUC__) || defined(__clang__)
#  define CLOCKED_LOOP static __attribute__((noinline)) bool
#else
#  define CLOCKED_LOOP static bool
#endif
#define CLOCKED_FOR(f, name)                                                                  \
    CLOCKED_LOOP name(const clock_column *c, const step_rows *rows, double *values,           \
                      uint8_t *codes)                                                         \
    {                                                                                         \
        return format_column_clocked(f, c, rows, values, codes);                              \
    }
CLOCKED_FOR(F_RATE, clocked_rate)
CLOCKED_FOR(F_QUEUE, clocked_queue)
CLOCKED_FOR(F_TIMER, clocked_timer)
CLOCKED_FOR(F_TIMER_INV, clocked_timer_inv)
CLOCKED_FOR(F_RAW, clocked_raw)
CLOCKED_FOR(F_DELTA, clocked_delta)
#undef CLOCKED_FOR

/* Each formula's loop, where clocked_formula answers the formula. */
typedef bool clocked_loop(const clock_column *c, const step_rows *rows, double *values,
                          uint8_t *codes);
static clocked_loop *const clocked_loops[F_COUNT] = {
    [F_RATE] = clocked_rate, [F_QUEUE] = clocked_queue, [F_TIMER] = clocked_timer,
    [F_TIMER_INV] = clocked_timer_inv, [F_RAW] = clocked_raw, [F_DELTA] = clocked_delta,
};

/*
 * The formula of an entry whose every row can take the clocked loops:
 * the entry's sample is OK with the values in range, its second value and
 * frequency come from the clocks (no base, time, frequency or multi
 * counter), its formula is of its type and takes its value alone, its
 * scale is in range and the flags ask for one format, a double. Then
 * every row's samples differ only in their first values, and
 * perfbuf_format_prepared's argument checks pass for every row.
 * Otherwise F_NONE: the column goes value by value.
 */
static formula clocked_formula(const clocks *k1, const clocks *k0, const perfbuf_v2_plan_entry *e,
                               uint32_t count, uint32_t flags, clock_column *c)
{
    if (!one_format(flags) || (flags & PERFBUF_FMT_DOUBLE) == 0 || e->status != PERFBUF_OK ||
        e->first >= count || e->second_source == SOURCE_VALUE || e->second_source > 3 ||
        e->frequency_source == SOURCE_VALUE || e->frequency_source > 3 ||
        e->multi != PERFBUF_V2_PLAN_NONE || e->formula.type != e->type ||
        !scale_in_range(e->scale)) {
        return F_NONE;
    }
    formula f = prepared_formula_of(&e->formula);
    /* Elapsed times take their value alone too, but their types are
     * object timers, whose clock is a counter of the block. */
    if (!formula_has_column_loop(f) || f == F_ELAPSED) {
        return F_NONE;
    }
    c->type = e->type;
    c->first = e->first;
    c->clock1 = k1->second[e->second_source];
    c->clock0 = k0->second[e->second_source];
    c->stamp1 = k1->time_stamp;
    c->stamp0 = k0->time_stamp;
    c->frequency = k1->frequency[e->frequency_source];
    c->adjust = adjustment_of(shapes[f].percent, e->scale, flags);
    return f;
}

/* Column k down the step's rows. Out of line: its frame is not added to
 * the caller's. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void format_block_column(const clocks *k1, const clocks *k0, const perfbuf_v2_plan_entry *e,
                                const step_rows *rows, uint32_t flags, double *values,
                                uint8_t *codes)
{
    clock_column c;
    formula f = clocked_formula(k1, k0, e, rows->count, flags, &c);
    clocked_loop *loop = clocked_loops[f];
    if (loop == NULL || !loop(&c, rows, values, codes)) {
        format_column_each(k1, k0, e, rows, flags, values, codes);
    }
}

/* The block fits the plan as perfbuf_v2_plan_samples requires. */
static bool plan_fits(const perfbuf_v2_block *block, const perfbuf_v2_plan *plan)
{
    return plan->entries != NULL && plan->block_offset == block->offset &&
           block->counter_count == plan->count && block_has_ids(block);
}

/* One row's values: the next instance's, or a block's own. OK, or the
 * status that ends the call: UNKNOWN_VALUE where the walk would decide. */
static perfbuf_status read_row(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                               perfbuf_v2_iter *it, uint64_t *row, uint32_t count)
{
    perfbuf_v2_values_read_result read;
    perfbuf_status st;
    if (block->kind == PERFBUF_V2_COUNTERSET) {
        perfbuf_v2_instance inst;
        st = perfbuf_v2_instances_next_values(q, block, it, &inst, row, count, &read);
    } else {
        st = perfbuf_v2_values_read(q, block, NULL, row, count, &read);
    }
    if (st != PERFBUF_OK || read.count != count) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    return read.non_integers != 0 ? PERFBUF_E_UNKNOWN_VALUE : PERFBUF_OK;
}

perfbuf_status perfbuf_v2_plan_format_block_doubles(
    const perfbuf_v2_query *newer, const perfbuf_v2_block *newer_block,
    const perfbuf_v2_query *older, const perfbuf_v2_block *older_block,
    const perfbuf_v2_plan *plan, uint32_t flags, uint64_t *scratch, size_t scratch_cap,
    double *values, uint8_t *statuses, size_t cap, size_t *needed)
{
    if (newer == NULL || newer_block == NULL || older == NULL || older_block == NULL ||
        plan == NULL || needed == NULL || (scratch == NULL && scratch_cap != 0) ||
        ((values == NULL || statuses == NULL) && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    *needed = 0;
    if (!plan_fits(newer_block, plan) || !plan_fits(older_block, plan)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    bool has_instances = newer_block->kind == PERFBUF_V2_COUNTERSET;
    if (has_instances != (older_block->kind == PERFBUF_V2_COUNTERSET) ||
        (has_instances && newer_block->instance_count != older_block->instance_count)) {
        return PERFBUF_E_INCONSISTENT;
    }
    uint32_t rows = has_instances ? newer_block->instance_count : 1u;
    uint32_t count = plan->count;
    if (count != 0 && rows > SIZE_MAX / count) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    *needed = (size_t)rows * count;
    if (plan->repeated_ids) {
        return PERFBUF_E_DUPLICATE_ID;
    }
#if SIZE_MAX / (2u * PERFBUF_V2_FORMAT_ROWS) < UINT32_MAX
    /* A size_t narrower than 38 bits: a scratch this large cannot exist. */
    if (count > SIZE_MAX / (2u * PERFBUF_V2_FORMAT_ROWS)) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
#endif
    if (cap < *needed || scratch_cap < PERFBUF_V2_FORMAT_SCRATCH(count)) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    if (count == 0) {
        return PERFBUF_OK;
    }
    clocks k1, k0;
    clocks_of(newer, &k1);
    clocks_of(older, &k0);
    perfbuf_v2_iter newer_it, older_it;
    perfbuf_v2_instances_begin(newer_block, &newer_it);
    perfbuf_v2_instances_begin(older_block, &older_it);
    step_rows step;
    step.newer = scratch;
    step.older = scratch + (size_t)PERFBUF_V2_FORMAT_ROWS * count;
    step.count = count;
    for (uint32_t first = 0; first < rows;) {
        uint32_t n = rows - first < PERFBUF_V2_FORMAT_ROWS ? rows - first : PERFBUF_V2_FORMAT_ROWS;
        /* The step's columns are set up once each: count steps. */
        PB_WORK(count);
        for (uint32_t j = 0; j < n; j++) {
            PB_WORK(1u + count);
            size_t at = (size_t)j * count;
            perfbuf_status st = read_row(newer, newer_block, &newer_it, scratch + at, count);
            if (st == PERFBUF_OK) {
                st = read_row(older, older_block, &older_it,
                              scratch + (size_t)PERFBUF_V2_FORMAT_ROWS * count + at, count);
            }
            if (st != PERFBUF_OK) {
                return st;
            }
        }
        step.n = n;
        size_t at = (size_t)first * count;
        for (uint32_t k = 0; k < count; k++) {
            format_block_column(&k1, &k0, &plan->entries[k], &step, flags, values + at + k,
                                statuses + at + k);
        }
        first += n;
    }
    return PERFBUF_OK;
}
