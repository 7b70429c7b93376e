/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Raw samples from a validated V1 block (docs/formats.md#values-and-formulas,
 * docs/counter-types.md). */
#include "perfbuf/counter_types.h"
#include "perfbuf/v1.h"

#include "core/formula.h"
#include "core/le_load.h"
#include "core/mix.h"
#include "v1/internal.h"

static uint64_t frequency_of(int64_t f)
{
    return f > 0 ? (uint64_t)f : 0;
}

static uint64_t clock_of(int64_t t)
{
    return t > 0 ? (uint64_t)t : 0;
}

/*
 * The definition at `offset` of o's definitions, as the i-th: the O(1)
 * path for a counter the caller took from o itself (or from a capture
 * laid out the same). Reading it again from b's bytes is what makes a
 * view of another buffer harmless here.
 */
static bool definition_at(const perfbuf_v1_block *b, const perfbuf_v1_object *o, size_t offset,
                          uint32_t i, perfbuf_v1_counter *out)
{
    if (i >= o->counter_count || offset < o->definitions_offset || offset >= o->data_offset) {
        return false;
    }
    perfbuf_v1_iter it;
    perfbuf_v1_counters_begin(o, &it);
    it.pos = offset;
    it.next_index = i;
    return perfbuf_v1_counters_next(b, &it, out);
}

/*
 * Whether b holds, at counter->offset of o's definitions and as its
 * counter->index-th, a definition equal to *counter in every field a
 * perfbuf_v1_counter carries (the O(1) path: a counter the caller took
 * from o itself, or from a capture laid out the same), read straight from the bytes without building a view
 * (the usual case of perfbuf_v1_raw_sample, once per value). Equal, the
 * definition is *counter, so nothing needs copying.
 */
static bool definition_is(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                          const perfbuf_v1_counter *counter)
{
    if (counter->index >= o->counter_count || counter->offset < o->definitions_offset ||
        counter->offset >= o->data_offset || counter->byte_length < PBS_PERF_COUNTER_DEFINITION) {
        return false;
    }
    pb_cursor window = pb_v1_view_window(b, counter->offset, o->data_offset);
    const uint8_t *d;
    if (counter->byte_length > pb_cursor_remaining(&window) ||
        !pb_cursor_take(&window, PBS_PERF_COUNTER_DEFINITION, &d)) {
        return false;
    }
    return pb_le32(d + PBO_PERF_COUNTER_DEFINITION_ByteLength) == counter->byte_length &&
           pb_le32(d + PBO_PERF_COUNTER_DEFINITION_CounterNameTitleIndex) ==
               counter->name_title_index &&
           pb_le32(d + PBO_PERF_COUNTER_DEFINITION_CounterHelpTitleIndex) ==
               counter->help_title_index &&
           pb_le32(d + PBO_PERF_COUNTER_DEFINITION_DefaultScale) ==
               (uint32_t)counter->default_scale &&
           pb_le32(d + PBO_PERF_COUNTER_DEFINITION_DetailLevel) == counter->detail_level &&
           pb_le32(d + PBO_PERF_COUNTER_DEFINITION_CounterType) == counter->type &&
           pb_le32(d + PBO_PERF_COUNTER_DEFINITION_CounterSize) == counter->size &&
           pb_le32(d + PBO_PERF_COUNTER_DEFINITION_CounterOffset) == counter->counter_offset;
}

/*
 * o's own definition for `counter`, which may be a definition of another
 * capture: the one at its position if title index and type agree, else
 * the first with its title index. The one after it (*next, *has_next)
 * only when with_next: a type without a base or multi counter never looks
 * at it.
 */
static perfbuf_status resolve_definition(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                         const perfbuf_v1_counter *counter, bool with_next,
                                         perfbuf_v1_counter *own, perfbuf_v1_counter *next,
                                         bool *has_next)
{
    bool found = definition_is(b, o, counter);
    if (found) {
        *own = *counter;
    } else {
        /* Another capture's counter: o's own at its position with the same
         * title and type, else the first of its title (moved). */
        bool same_title_found = false;
        perfbuf_v1_counter same_title;
        perfbuf_v1_iter it;
        perfbuf_v1_counter c;
        perfbuf_v1_counters_begin(o, &it);
        while (!found && perfbuf_v1_counters_next(b, &it, &c)) {
            if (c.name_title_index != counter->name_title_index) {
                continue;
            }
            if (c.index == counter->index && c.type == counter->type) {
                *own = c;
                found = true;
            } else if (!same_title_found) {
                same_title = c;
                same_title_found = true;
            }
        }
        if (!found && !same_title_found) {
            return PERFBUF_E_NOT_FOUND;
        }
        if (!found && same_title.type != counter->type) {
            return PERFBUF_E_INCONSISTENT;
        }
        if (!found) {
            *own = same_title;
        }
    }
    /* Base and multi counters pair by position: the definition after it. */
    *has_next = with_next &&
                definition_at(b, o, own->offset + own->byte_length, own->index + 1, next);
    return PERFBUF_OK;
}

/* A counter's value at a fixed offset of its block: 4 bytes zero-extended,
 * 8 whole, any other size 0 (as perfbuf_v1_counter_value). The cursor
 * proves the bytes are inside the window; pb_le32/pb_le64 then decode them
 * in the form gcc turns into one load, since every value read goes here. */
static inline uint64_t planned_value(const pb_cursor *window, uint32_t offset, uint32_t size)
{
    /* Each width with a constant length, so the compiler sees the bytes
     * handed out are never the empty take's NULL. */
    pb_cursor field;
    const uint8_t *bytes;
    if (size == 8) {
        return pb_cursor_slice(window, offset, 8, &field) && pb_cursor_take(&field, 8, &bytes)
                   ? pb_le64(bytes)
                   : 0;
    }
    return size == 4 && pb_cursor_slice(window, offset, 4, &field) &&
                   pb_cursor_take(&field, 4, &bytes)
               ? pb_le32(bytes)
               : 0;
}

/* A value at `offset` of a counter block's bytes, as planned_value reads
 * it; the caller has shown offset + size is within the bytes (a sealed
 * plan's entry in a block at least its reach long). */
static inline uint64_t row_value(const uint8_t *block, uint32_t offset, uint32_t size)
{
    if (size == 8) {
        return pb_le64(block + offset);
    }
    return size == 4 ? pb_le32(block + offset) : 0;
}

/* A planned value: unchecked from `row` when the caller passes the bytes
 * of a block a sealed plan's reach covers, else through the window. */
static inline uint64_t entry_value(const pb_cursor *window, const uint8_t *row, uint32_t offset,
                                   uint32_t size)
{
    return row != NULL ? row_value(row, offset, size) : planned_value(window, offset, size);
}

/* block is one of b's counter blocks (its parse, its ByteLength where it
 * says) and lies in o's instance data: *window is its bytes. */
static bool block_of_object(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                            const perfbuf_v1_counter_block *block, pb_cursor *window)
{
    size_t object_end = o->offset + o->total_length;
    return block->offset >= o->data_offset && block->offset <= object_end &&
           block->byte_length <= object_end - block->offset &&
           pb_v1_counter_block_of(b, block, window);
}

/* The counter's value in a checked counter block, if the block holds it. */
static inline bool read_value(const pb_cursor *window, const perfbuf_v1_counter *counter,
                              uint64_t *value)
{
    pb_cursor bytes;
    const uint8_t *at;
    if (!pb_cursor_slice(window, counter->counter_offset, counter->size, &bytes)) {
        return false;
    }
    /* The slice is the counter's bytes: each width taken from it whole
     * (as planned_value reads them, without slicing the window again). */
    if (counter->size == 8) {
        *value = pb_cursor_take(&bytes, 8, &at) ? pb_le64(at) : 0;
    } else {
        *value = counter->size == 4 && pb_cursor_take(&bytes, 4, &at) ? pb_le32(at) : 0;
    }
    return true;
}

/* The clock a time base names, and its frequency: a raw sample's second
 * value for types that divide by time. */
static void clock_and_frequency(perfbuf_time_base base, const perfbuf_v1_block *b,
                                const perfbuf_v1_object *o, uint64_t *clock, uint64_t *frequency)
{
    *clock = 0;
    *frequency = 0;
    switch (base) {
    case PERFBUF_TIME_SYSTEM:
        *clock = clock_of(b->perf_time);
        *frequency = frequency_of(b->perf_freq);
        break;
    case PERFBUF_TIME_100NS:
        *clock = clock_of(b->perf_time_100ns);
        *frequency = 10000000u;
        break;
    case PERFBUF_TIME_OBJECT:
        *clock = clock_of(o->perf_time);
        *frequency = frequency_of(o->perf_freq);
        break;
    case PERFBUF_TIME_NONE:
    default:
        break;
    }
}

/* How a type takes the definition after it (PERFBUF_V1_PLAN_*): base and
 * multi counters pair by position. */
static uint8_t pairing_of(const perfbuf_counter_type_info *info, bool has_next, uint32_t next_type)
{
    if (info == NULL || info->samples == 0) {
        return PERFBUF_V1_PLAN_UNDISPLAYABLE;
    }
    if (!info->needs_base && !info->needs_multi) {
        return PERFBUF_V1_PLAN_VALUE;
    }
    if (has_next && info->needs_base && perfbuf_counter_type_is_base(next_type)) {
        return PERFBUF_V1_PLAN_BASE;
    }
    if (has_next && info->needs_multi && next_type == PERF_COUNTER_MULTI_BASE) {
        return PERFBUF_V1_PLAN_MULTI;
    }
    return PERFBUF_V1_PLAN_MISSING_BASE;
}

/* The next definition's value, as its pairing puts it in the sample. */
static void apply_pairing(uint8_t pairing, uint64_t value, perfbuf_raw_sample *sample)
{
    if (pairing == PERFBUF_V1_PLAN_BASE) {
        /* Precision timers divide by their timestamp instead of a clock. */
        sample->second = value;
    } else if (value > UINT32_MAX) {
        /* PDH's MultiCount is 32 bits: a larger base cannot be used as it
         * is, and a clamped one would give a wrong value that looks right. */
        sample->status = PERFBUF_CSTATUS_INVALID_DATA;
    } else {
        sample->multi = (uint32_t)value;
    }
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
    /* The block first: another parse's counter block is refused the same
     * way whatever the counter. */
    pb_cursor window;
    if (!pb_v1_object_of_block(b, o) || !block_of_object(b, o, block, &window)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_v1_counter own;
    perfbuf_v1_counter next;
    next.type = 0;
    bool has_next;
    perfbuf_status st = resolve_definition(b, o, counter, info->needs_base || info->needs_multi,
                                           &own, &next, &has_next);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint64_t first;
    if (!read_value(&window, &own, &first)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    sample->status = PERFBUF_CSTATUS_VALID_DATA;
    sample->type = own.type;
    sample->first = first;
    sample->multi = 0;
    sample->time_stamp = b->perf_time_100ns;
    context->scale = own.default_scale;
    clock_and_frequency(info->time_base, b, o, &sample->second, &context->frequency);
    /* info has a formula (checked above): without a base or multi
     * counter its pairing is the value alone, as pairing_of answers. */
    bool paired = info->needs_base || info->needs_multi;
    uint8_t pairing = paired ? pairing_of(info, has_next, next.type) : PERFBUF_V1_PLAN_VALUE;
    if (pairing == PERFBUF_V1_PLAN_VALUE) {
        return PERFBUF_OK;
    }
    uint64_t value;
    if (pairing == PERFBUF_V1_PLAN_MISSING_BASE || !read_value(&window, &next, &value)) {
        return PERFBUF_E_NOT_FOUND;
    }
    apply_pairing(pairing, value, sample);
    return PERFBUF_OK;
}

/* ---- value plans ---- */

/* An entry's view of one definition; the pairing waits for the next. */
static void plan_entry_of(const perfbuf_v1_counter *c, perfbuf_v1_plan_entry *e)
{
    const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(c->type);
    e->title_index = c->name_title_index;
    e->type = c->type;
    e->offset = c->counter_offset;
    e->size = c->size;
    e->base_offset = 0;
    e->base_size = 0;
    e->scale = c->default_scale;
    e->time_base = (uint8_t)(info != NULL ? info->time_base : PERFBUF_TIME_NONE);
    e->pairing = pairing_of(info, false, 0);
    e->reserved = 0;
    (void)perfbuf_prepare_formula(c->type, &e->formula);
}

/* Resolves the pairing of e now that the definition after it is known. */
static void plan_pair(perfbuf_v1_plan_entry *e, const perfbuf_v1_counter *next)
{
    if (e->pairing != PERFBUF_V1_PLAN_MISSING_BASE) {
        return;
    }
    e->pairing = pairing_of(perfbuf_counter_type_lookup(e->type), true, next->type);
    e->base_offset = next->counter_offset;
    e->base_size = next->size;
}

/*
 * The seal of a plan: the plan's fields and each entry's are mixed in a
 * short chain of their own, started from their position (pb_mix64 is a
 * bijection, so given the words before it a changed word always changes
 * the chain's end), and the chains are XORed: they are independent, so
 * the work is O(count) without one long chain of multiplications waiting
 * on each other. It tells a plan perfbuf_v1_plan_build wrote from one
 * changed since (an entry moved, a reach or count edited, another
 * object's entries): a check against mistakes, not a secret. Never 0.
 */
static inline uint64_t pair32(uint32_t hi, uint32_t lo)
{
    return (uint64_t)hi << 32 | lo;
}

uint64_t pb_v1_plan_seal(const perfbuf_v1_plan *p)
{
    uint64_t head = pb_mix64((uint64_t)(uintptr_t)p->data);
    head = pb_mix64(head ^ p->size);
    head = pb_mix64(head ^ p->parse_id);
    head = pb_mix64(head ^ (uint64_t)p->perf_time);
    head = pb_mix64(head ^ (uint64_t)p->perf_time_100ns);
    head = pb_mix64(head ^ p->data_offset);
    head = pb_mix64(head ^ p->data_end);
    head = pb_mix64(head ^ p->reach);
    head = pb_mix64(head ^ p->count);
    for (size_t base = 0; base < 4; base++) {
        head = pb_mix64(head ^ p->clock[base]);
        head = pb_mix64(head ^ p->frequency[base]);
    }
    uint64_t seal = head;
    const perfbuf_v1_plan_entry *e = p->entries;
    for (uint32_t k = 0; k < p->count; k++) {
        PB_WORK(1);
        uint32_t small = (uint32_t)e[k].time_base | (uint32_t)e[k].pairing << 8 |
                         (uint32_t)e[k].reserved << 16;
        /* Started from k, so equal entries at two positions do not cancel. */
        uint64_t chain = pb_mix64(pair32(k, 0x5EA1u) ^ pair32(e[k].title_index, e[k].type));
        chain = pb_mix64(chain ^ pair32(e[k].offset, e[k].size));
        chain = pb_mix64(chain ^ pair32(e[k].base_offset, e[k].base_size));
        chain = pb_mix64(chain ^ pair32((uint32_t)e[k].scale, small));
        chain = pb_mix64(chain ^ pair32(e[k].formula.type, e[k].formula.formula));
        seal ^= chain;
    }
    return seal != 0 ? seal : 1u;
}

perfbuf_status perfbuf_v1_plan_build(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                     perfbuf_v1_plan_entry *entries, size_t cap,
                                     perfbuf_v1_plan *out)
{
    if (b == NULL || o == NULL || out == NULL || (entries == NULL && cap != 0) ||
        !pb_v1_object_of_block(b, o)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (cap < o->counter_count) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    uint64_t reach = 0;
    uint32_t n = 0;
    perfbuf_v1_iter it;
    perfbuf_v1_counter c;
    perfbuf_v1_counters_begin(o, &it);
    while (perfbuf_v1_counters_next(b, &it, &c)) {
        PB_WORK(1);
        if (n > 0) {
            plan_pair(&entries[n - 1], &c);
        }
        plan_entry_of(&c, &entries[n]);
        uint64_t end = (uint64_t)c.counter_offset + c.size;
        reach = end > reach ? end : reach;
        n++;
    }
    if (n != o->counter_count) {
        /* An object of another buffer whose header b repeats at the same
         * offset, but not its definitions: not an object of b. */
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    out->data = b->data;
    out->size = b->size;
    out->parse_id = b->parse_id;
    out->perf_time = b->perf_time;
    out->perf_time_100ns = b->perf_time_100ns;
    out->data_offset = o->data_offset;
    out->data_end = o->offset + o->total_length;
    out->reach = reach;
    out->entries = entries;
    out->count = n;
    for (int base = PERFBUF_TIME_NONE; base <= PERFBUF_TIME_OBJECT; base++) {
        clock_and_frequency((perfbuf_time_base)base, b, o, &out->clock[base],
                            &out->frequency[base]);
    }
    out->seal = pb_v1_plan_seal(out);
    return PERFBUF_OK;
}

/* The window of a counter block the plan may read: a counter block of the
 * plan's parse (pb_v1_counter_block_of), inside the planned object's data,
 * covering every planned counter. O(1): once per call, not per value. */
static inline bool plan_window(const perfbuf_v1_plan *p, const perfbuf_v1_block *b,
                               const perfbuf_v1_counter_block *block, pb_cursor *window)
{
    if (!pb_v1_same_parse(b, p->parse_id) || p->data != b->data || p->size != b->size ||
        p->perf_time != b->perf_time || p->perf_time_100ns != b->perf_time_100ns ||
        block->offset < p->data_offset || block->offset > p->data_end ||
        block->byte_length > p->data_end - block->offset || block->byte_length < p->reach) {
        return false;
    }
    return pb_v1_counter_block_of(b, block, window);
}

perfbuf_status perfbuf_v1_plan_read(const perfbuf_v1_plan *plan, const perfbuf_v1_block *b,
                                    const perfbuf_v1_counter_block *block, uint64_t *values,
                                    size_t cap)
{
    pb_cursor window;
    if (plan == NULL || b == NULL || block == NULL || (values == NULL && cap != 0) ||
        !plan_window(plan, b, block, &window)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (cap < plan->count) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    const perfbuf_v1_plan_entry *e = plan->entries;
    for (uint32_t k = 0; k < plan->count; k++) {
        PB_WORK(1);
        values[k] = planned_value(&window, e[k].offset, e[k].size);
    }
    return PERFBUF_OK;
}

/* The k-th counter's sample: row as for entry_value (NULL: each value
 * checked against window). */
static inline perfbuf_status plan_sample_from(const perfbuf_v1_plan *p, const pb_cursor *window,
                                              const uint8_t *row, uint32_t k,
                                              perfbuf_raw_sample *sample,
                                              perfbuf_value_context *context)
{
    const perfbuf_v1_plan_entry *e = &p->entries[k];
    if (e->pairing == PERFBUF_V1_PLAN_UNDISPLAYABLE) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    /* time_base is the caller's memory: an index, so bounded. */
    size_t clock = e->time_base <= PERFBUF_TIME_OBJECT ? e->time_base : PERFBUF_TIME_NONE;
    sample->status = PERFBUF_CSTATUS_VALID_DATA;
    sample->type = e->type;
    sample->first = entry_value(window, row, e->offset, e->size);
    sample->second = p->clock[clock];
    sample->multi = 0;
    sample->time_stamp = p->perf_time_100ns;
    context->scale = e->scale;
    context->frequency = p->frequency[clock];
    if (e->pairing == PERFBUF_V1_PLAN_VALUE) {
        return PERFBUF_OK;
    }
    if (e->pairing != PERFBUF_V1_PLAN_BASE && e->pairing != PERFBUF_V1_PLAN_MULTI) {
        return PERFBUF_E_NOT_FOUND;
    }
    apply_pairing(e->pairing, entry_value(window, row, e->base_offset, e->base_size), sample);
    return PERFBUF_OK;
}

static perfbuf_status plan_sample(const perfbuf_v1_plan *p, const pb_cursor *window, uint32_t k,
                                  perfbuf_raw_sample *sample, perfbuf_value_context *context)
{
    return plan_sample_from(p, window, NULL, k, sample, context);
}

perfbuf_status perfbuf_v1_plan_sample(const perfbuf_v1_plan *plan, const perfbuf_v1_block *b,
                                      const perfbuf_v1_counter_block *block, uint32_t k,
                                      perfbuf_raw_sample *sample, perfbuf_value_context *context)
{
    pb_cursor window;
    if (plan == NULL || b == NULL || block == NULL || sample == NULL || context == NULL ||
        k >= plan->count || !plan_window(plan, b, block, &window)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    return plan_sample(plan, &window, k, sample, context);
}

perfbuf_status perfbuf_v1_plan_format(const perfbuf_v1_plan *newer, const perfbuf_v1_block *newer_b,
                                      const perfbuf_v1_counter_block *newer_block,
                                      const perfbuf_v1_plan *older, const perfbuf_v1_block *older_b,
                                      const perfbuf_v1_counter_block *older_block, uint32_t k,
                                      uint32_t flags, perfbuf_value *value)
{
    pb_cursor newer_window;
    pb_cursor older_window;
    if (newer == NULL || newer_b == NULL || newer_block == NULL || older == NULL ||
        older_b == NULL || older_block == NULL || value == NULL || k >= newer->count ||
        k >= older->count || !plan_window(newer, newer_b, newer_block, &newer_window) ||
        !plan_window(older, older_b, older_block, &older_window)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    const perfbuf_v1_plan_entry *e = &newer->entries[k];
    if (e->title_index != older->entries[k].title_index || e->type != older->entries[k].type) {
        return PERFBUF_E_INCONSISTENT;
    }
    perfbuf_raw_sample s1;
    perfbuf_raw_sample s0;
    perfbuf_value_context c1;
    perfbuf_value_context c0;
    perfbuf_status st = plan_sample(newer, &newer_window, k, &s1, &c1);
    if (st == PERFBUF_OK) {
        st = plan_sample(older, &older_window, k, &s0, &c0);
    }
    if (st != PERFBUF_OK) {
        return st;
    }
    (void)perfbuf_format_prepared(&e->formula, &s1, &s0, &c1, flags, value);
    return PERFBUF_OK;
}

/* The k-th counters of the two plans are one counter (its title and
 * type); the value of one that is not is INVALID_DATA. */
static inline bool column_pairs(const perfbuf_v1_plan *newer, const perfbuf_v1_plan *older,
                                uint32_t k)
{
    return k < older->count && newer->entries[k].title_index == older->entries[k].title_index &&
           newer->entries[k].type == older->entries[k].type;
}

/* A value the formula is not asked for: its status, the format asked and
 * every number 0. */
static uint32_t value_not_formatted(perfbuf_value *value, uint32_t flags, uint32_t status)
{
    value->status = status;
    value->format = flags;
    value->as_double = 0;
    value->as_large = 0;
    value->as_long = 0;
    return status;
}

/* One counter of two captures, formatted: the windows are checked; rows
 * as for entry_value. paired: column_pairs already holds for every k (a
 * whole-object call checks the plans' columns once, not per row). The
 * formula clears what it writes, so a value is cleared here only where
 * the formula is not asked. */
static inline uint32_t plan_format_from(const perfbuf_v1_plan *newer, const pb_cursor *newer_window,
                                        const uint8_t *newer_row, const perfbuf_v1_plan *older,
                                        const pb_cursor *older_window, const uint8_t *older_row,
                                        uint32_t k, bool paired, uint32_t flags,
                                        perfbuf_value *value)
{
    const perfbuf_v1_plan_entry *e = &newer->entries[k];
    perfbuf_raw_sample s1;
    perfbuf_raw_sample s0;
    perfbuf_value_context c1;
    perfbuf_value_context c0;
    if (!paired && !column_pairs(newer, older, k)) {
        return value_not_formatted(value, flags, PERFBUF_CSTATUS_INVALID_DATA);
    }
    perfbuf_status st = plan_sample_from(newer, newer_window, newer_row, k, &s1, &c1);
    if (st == PERFBUF_OK) {
        st = plan_sample_from(older, older_window, older_row, k, &s0, &c0);
    }
    if (st == PERFBUF_E_NOT_FOUND) {
        return value_not_formatted(value, flags, PERFBUF_CSTATUS_NO_COUNTER);
    }
    if (st != PERFBUF_OK) {
        return value_not_formatted(value, flags, PERFBUF_PDH_INVALID_ARGUMENT);
    }
    return perfbuf_format_prepared(&e->formula, &s1, &s0, &c1, flags, value);
}

static uint32_t plan_format_one(const perfbuf_v1_plan *newer, const pb_cursor *newer_window,
                                const perfbuf_v1_plan *older, const pb_cursor *older_window,
                                uint32_t k, uint32_t flags, perfbuf_value *value)
{
    return plan_format_from(newer, newer_window, NULL, older, older_window, NULL, k, false, flags,
                            value);
}

perfbuf_status perfbuf_v1_plan_format_all(const perfbuf_v1_plan *newer,
                                          const perfbuf_v1_block *newer_b,
                                          const perfbuf_v1_counter_block *newer_block,
                                          const perfbuf_v1_plan *older,
                                          const perfbuf_v1_block *older_b,
                                          const perfbuf_v1_counter_block *older_block,
                                          uint32_t flags, perfbuf_value *values, size_t cap)
{
    pb_cursor newer_window;
    pb_cursor older_window;
    if (newer == NULL || newer_b == NULL || newer_block == NULL || older == NULL ||
        older_b == NULL || older_block == NULL || (values == NULL && cap != 0) ||
        !plan_window(newer, newer_b, newer_block, &newer_window) ||
        !plan_window(older, older_b, older_block, &older_window)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (cap < newer->count) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    for (uint32_t k = 0; k < newer->count; k++) {
        PB_WORK(1);
        (void)plan_format_one(newer, &newer_window, older, &older_window, k, flags, &values[k]);
    }
    return PERFBUF_OK;
}

/* ---- a whole object per call ---- */

/*
 * The next counter block of the object's data: after the instance
 * definition when the object has instances (skipped by its ByteLength, its
 * name never looked at), else the single block. *bytes is the block's
 * bytes as the cursor hands them out; false when the walk leaves the
 * object's data or a block falls short of reach, which validation rules
 * out on b's bytes (a buffer changed since its parse is refused, never
 * read past its counter block).
 */
static inline bool next_block(pb_cursor *data, bool has_instances, uint64_t reach,
                              pb_cursor *block)
{
    const uint8_t *field;
    uint32_t length;
    pb_cursor head = *data;
    pb_v1_prefetch_ahead(data, PB_V1_PREFETCH_AHEAD);
    if (has_instances) {
        if (!pb_cursor_take(&head, PBO_PERF_INSTANCE_DEFINITION_ByteLength + 4u, &field)) {
            return false;
        }
        length = pb_le32(field + PBO_PERF_INSTANCE_DEFINITION_ByteLength);
        if (length < PBS_PERF_INSTANCE_DEFINITION || !pb_cursor_skip(data, length)) {
            return false;
        }
        head = *data;
    }
    if (!pb_cursor_take(&head, PBO_PERF_COUNTER_BLOCK_ByteLength + 4u, &field)) {
        return false;
    }
    length = pb_le32(field + PBO_PERF_COUNTER_BLOCK_ByteLength);
    return length >= PBS_PERF_COUNTER_BLOCK && length >= reach &&
           pb_cursor_sub(data, length, block);
}

/*
 * Every value and base an entry reads (4 or 8 bytes; row_value reads
 * nothing of another size) ends within the plan's reach. Memory safety of
 * the unchecked row reads rests on this and on each row's block being at
 * least the reach long, never on the seal: the seal is a hash of caller
 * memory, which tells a plan changed by mistake or of another object, and
 * a check of O(counters) per call costs less than the seal itself.
 */
static bool entries_within_reach(const perfbuf_v1_plan *plan)
{
    const perfbuf_v1_plan_entry *e = plan->entries;
    for (uint32_t k = 0; k < plan->count; k++) {
        PB_WORK(1);
        bool value_read = e[k].size == 4u || e[k].size == 8u;
        bool base_read = e[k].base_size == 4u || e[k].base_size == 8u;
        if ((value_read && (uint64_t)e[k].offset + e[k].size > plan->reach) ||
            (base_read && (uint64_t)e[k].base_offset + e[k].base_size > plan->reach)) {
            return false;
        }
    }
    return true;
}

/*
 * The plan is of b's parse and of o (the identity plan_window asks of a
 * counter block, and o read again from b), and sealed as
 * perfbuf_v1_plan_build left it: its entries are then the ones the build
 * derived from o's definitions in this parse, each ending within the
 * plan's reach, the furthest end of those definitions, which validation
 * (check_definitions in v1/block.c) required of every counter block of o.
 * Once per call, O(o's counters).
 */
static bool plan_of_object(const perfbuf_v1_plan *plan, const perfbuf_v1_block *b,
                           const perfbuf_v1_object *o)
{
    /* The fields the walk takes from o are those b's header gives: its
     * offsets and instance count, not only what pb_v1_object_of_block
     * compares. */
    bool walkable = o->definitions_offset == o->offset + o->header_length &&
                    o->data_offset == o->offset + o->definition_length &&
                    o->instance_count == (o->num_instances > 0 ? (uint32_t)o->num_instances : 0u);
    return walkable && pb_v1_same_parse(b, plan->parse_id) && plan->data == b->data &&
           plan->size == b->size && plan->perf_time == b->perf_time &&
           plan->perf_time_100ns == b->perf_time_100ns && pb_v1_object_of_block(b, o) &&
           plan->data_offset == o->data_offset &&
           plan->data_end == o->offset + o->total_length && plan->count == o->counter_count &&
           (plan->entries != NULL || plan->count == 0) && entries_within_reach(plan) &&
           plan->seal == pb_v1_plan_seal(plan);
}

/* The rows of o's matrix, and the cells of rows x count into *needed:
 * false (OUTPUT_TOO_SMALL) when they do not fit in cap. */
static bool matrix_fits(const perfbuf_v1_object *o, uint32_t count, size_t cap, uint32_t *rows,
                        size_t *needed)
{
    *rows = o->num_instances == PERFBUF_V1_NO_INSTANCES ? 1u : o->instance_count;
    if (count != 0 && *rows > SIZE_MAX / count) {
        *needed = SIZE_MAX;
        return false;
    }
    *needed = (size_t)*rows * count;
    return cap >= *needed;
}

/*
 * Runs of a sealed plan: entries that follow each other in the block, all
 * 8 bytes or all 4 (a provider lays its counters out one after the other,
 * as the PERF_COUNTER_DEFINITION page's CounterOffset describes), read as
 * one stretch each, without an entry's offset and size loaded and its
 * width tested per value. Found once per call, O(counters); a plan of more
 * runs than PLAN_RUNS, or with an entry of another size, is read entry by
 * entry instead. Each run's bytes are its entries' bytes, so they end
 * within the reach the seal vouches for.
 */
#define PLAN_RUNS 8u

typedef struct plan_run {
    uint32_t first;  /* the run's first entry, its column in the row */
    uint32_t length; /* entries */
    uint32_t offset; /* the first entry's CounterOffset */
    uint32_t width;  /* 4 or 8 */
} plan_run;

static uint32_t plan_runs(const perfbuf_v1_plan_entry *e, uint32_t count, plan_run *runs)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < count; k++) {
        PB_WORK(1);
        uint32_t width = e[k].size;
        if (width != 4 && width != 8) {
            return 0;
        }
        plan_run *last = n > 0 ? &runs[n - 1u] : NULL;
        /* Next in the block: the previous entry's offset + width, computed
         * in 64 bits (an offset near 2^32 does not wrap onto another). */
        if (last != NULL && last->width == width &&
            (uint64_t)last->offset + (uint64_t)last->length * width == e[k].offset) {
            last->length++;
            continue;
        }
        if (n == PLAN_RUNS) {
            return 0;
        }
        runs[n] = (plan_run){k, 1u, e[k].offset, width};
        n++;
    }
    return n;
}

/* A row read run by run: the loops have no branch per value. */
static inline void read_runs(const uint8_t *bytes, const plan_run *runs, uint32_t run_count,
                             uint64_t *out)
{
    for (uint32_t r = 0; r < run_count; r++) {
        const uint8_t *from = bytes + runs[r].offset;
        uint64_t *to = out + runs[r].first;
        uint32_t length = runs[r].length;
        if (runs[r].width == 8) {
            for (uint32_t j = 0; j < length; j++) {
                to[j] = pb_le64(from + 8u * (size_t)j);
            }
        } else {
            for (uint32_t j = 0; j < length; j++) {
                to[j] = pb_le32(from + 4u * (size_t)j);
            }
        }
    }
}

perfbuf_status perfbuf_v1_plan_read_object(const perfbuf_v1_plan *plan, const perfbuf_v1_block *b,
                                           const perfbuf_v1_object *o, uint64_t *values,
                                           size_t cap, size_t *needed)
{
    if (plan == NULL || b == NULL || o == NULL || needed == NULL ||
        (values == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    *needed = 0;
    if (!plan_of_object(plan, b, o)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    uint32_t rows;
    if (!matrix_fits(o, plan->count, cap, &rows, needed)) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    if (plan->count == 0) {
        return PERFBUF_OK;
    }
    /*
     * What validation proved of b, whose parse this is: o's data holds
     * o->instance_count instance definitions (NumInstances -1: one
     * counter block), each of a ByteLength covering its header and inside
     * the object, each followed by a PERF_COUNTER_BLOCK whose ByteLength
     * is at least the plan's reach, the furthest end of o's definitions
     * (check_definitions and pb_v1_read_counter_block in v1/block.c).
     * The plan is sealed (plan_of_object), so every entry that reads ends
     * within that reach, and once the cursor has handed out a block's
     * ByteLength bytes no value of the row needs a bounds check of its
     * own: the le_load reads below stay inside those bytes. next_block
     * still compares each length with the reach, once per row: a buffer
     * changed since its parse is refused rather than read past a block.
     */
    const perfbuf_v1_plan_entry *e = plan->entries;
    uint32_t count = plan->count;
    uint64_t reach = plan->reach;
    bool has_instances = o->num_instances != PERFBUF_V1_NO_INSTANCES;
    pb_cursor data = pb_v1_view_window(b, o->data_offset, o->offset + o->total_length);
    plan_run runs[PLAN_RUNS];
    uint32_t run_count = plan_runs(e, count, runs);
    for (uint32_t row = 0; row < rows; row++) {
        PB_WORK(1u + count);
        pb_cursor block;
        const uint8_t *bytes;
        if (!next_block(&data, has_instances, reach, &block) ||
            !pb_cursor_take(&block, pb_cursor_remaining(&block), &bytes)) {
            return PERFBUF_E_INVALID_ARGUMENT;
        }
        uint64_t *out = values + (size_t)row * count;
        if (run_count > 0) {
            read_runs(bytes, runs, run_count, out);
            continue;
        }
        for (uint32_t k = 0; k < count; k++) {
            out[k] = row_value(bytes, e[k].offset, e[k].size);
        }
    }
    return PERFBUF_OK;
}

/*
 * The checks of perfbuf_v1_plan_format_object and of its doubles form, in
 * their order: NULL arguments (the outputs, given when outputs_given, may
 * be missing only with cap 0), both plans sealed on their objects, as many
 * instances on both sides, and the matrix within cap. OK with *rows and
 * *needed set; otherwise the status the call returns. Inline: out of
 * line, gcc gives each caller a larger frame.
 */
static inline perfbuf_status objects_formattable(
    const perfbuf_v1_plan *newer, const perfbuf_v1_block *newer_b, const perfbuf_v1_object *newer_o,
    const perfbuf_v1_plan *older, const perfbuf_v1_block *older_b, const perfbuf_v1_object *older_o,
    bool outputs_given, size_t cap, uint32_t *rows, size_t *needed)
{
    if (newer == NULL || newer_b == NULL || newer_o == NULL || older == NULL ||
        older_b == NULL || older_o == NULL || needed == NULL || (!outputs_given && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    *needed = 0;
    if (!plan_of_object(newer, newer_b, newer_o) || !plan_of_object(older, older_b, older_o)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    /* Position is an instance's identity only where the two captures hold
     * as many: otherwise which is which takes their names (pairing). */
    if (newer_o->num_instances != older_o->num_instances) {
        return PERFBUF_E_INCONSISTENT;
    }
    return matrix_fits(newer_o, newer->count, cap, rows, needed) ? PERFBUF_OK
                                                                 : PERFBUF_E_OUTPUT_TOO_SMALL;
}

perfbuf_status perfbuf_v1_plan_format_object(
    const perfbuf_v1_plan *newer, const perfbuf_v1_block *newer_b,
    const perfbuf_v1_object *newer_o, const perfbuf_v1_plan *older,
    const perfbuf_v1_block *older_b, const perfbuf_v1_object *older_o, uint32_t flags,
    perfbuf_value *values, size_t cap, size_t *needed)
{
    uint32_t rows;
    perfbuf_status st = objects_formattable(newer, newer_b, newer_o, older, older_b, older_o,
                                            values != NULL, cap, &rows, needed);
    if (st != PERFBUF_OK) {
        return st;
    }
    if (newer->count == 0) {
        return PERFBUF_OK;
    }
    bool has_instances = newer_o->num_instances != PERFBUF_V1_NO_INSTANCES;
    /* The plans' columns compared once per call: every row reads the same
     * entries. */
    bool paired = true;
    for (uint32_t k = 0; k < newer->count && paired; k++) {
        paired = column_pairs(newer, older, k);
    }
    pb_cursor newer_data =
        pb_v1_view_window(newer_b, newer_o->data_offset, newer_o->offset + newer_o->total_length);
    pb_cursor older_data =
        pb_v1_view_window(older_b, older_o->data_offset, older_o->offset + older_o->total_length);
    for (uint32_t row = 0; row < rows; row++) {
        PB_WORK(1u + newer->count);
        pb_cursor newer_block;
        pb_cursor older_block;
        const uint8_t *newer_row;
        const uint8_t *older_row;
        /* Both plans sealed: each row's values are read unchecked from
         * blocks the reach covers, as in perfbuf_v1_plan_read_object. */
        if (!next_block(&newer_data, has_instances, newer->reach, &newer_block) ||
            !next_block(&older_data, has_instances, older->reach, &older_block) ||
            !pb_cursor_take(&newer_block, pb_cursor_remaining(&newer_block), &newer_row) ||
            !pb_cursor_take(&older_block, pb_cursor_remaining(&older_block), &older_row)) {
            return PERFBUF_E_INVALID_ARGUMENT;
        }
        perfbuf_value *out = values + (size_t)row * newer->count;
        if (paired) {
            for (uint32_t k = 0; k < newer->count; k++) {
                (void)plan_format_from(newer, &newer_block, newer_row, older, &older_block,
                                       older_row, k, true, flags, &out[k]);
            }
        } else {
            for (uint32_t k = 0; k < newer->count; k++) {
                (void)plan_format_from(newer, &newer_block, newer_row, older, &older_block,
                                       older_row, k, false, flags, &out[k]);
            }
        }
    }
    return PERFBUF_OK;
}

/* ---- a whole object per call, as doubles ---- */

/*
 * Rows taken at once by perfbuf_v1_plan_format_object_doubles: their
 * blocks are found first, then each column is formatted down them with
 * its formula chosen once, so per value only the formula's arithmetic
 * is left. Each row is its block's offset in its capture, 32 bits (a V1
 * block's TotalByteLength is a DWORD), so 32 rows of two captures take
 * 256 bytes of the frame.
 */
#define FORMAT_ROWS 32u

typedef struct row_set {
    const uint8_t *newer;          /* the newer capture's bytes */
    const uint8_t *older;
    uint32_t newer_at[FORMAT_ROWS]; /* each row's counter block, from newer */
    uint32_t older_at[FORMAT_ROWS];
} row_set;

/* What a column of VALUE entries shares: every sample but its first
 * value, and the newer capture's context. */
typedef struct fast_column {
    uint32_t type;
    uint32_t offset1, size1; /* the newer entry's value */
    uint32_t offset0, size0; /* the older's */
    uint64_t clock1, clock0;
    uint64_t frequency;
    int32_t scale;
    bool stalled; /* the clocks did not move forward, or the frequency is 0,
                     and the formula divides by them */
} fast_column;

/* Formulas that divide by the interval between the two captures' clocks,
 * and those that divide by the clock's frequency. */
static inline bool divides_by_interval(formula f)
{
    return f == F_RATE || f == F_QUEUE || f == F_TIMER || f == F_TIMER_INV;
}

static inline bool divides_by_frequency(formula f)
{
    return f == F_RATE || f == F_ELAPSED;
}

/*
 * The formula of column k when every value of it can take the column
 * loops (format_column_as):
 * what plan_format_from would find for every row is then known from the
 * entries alone (the columns pair, both entries take their value alone,
 * the formula is one, of the entries' type, the scale in range) and the
 * flags ask for a double. Only the formulas of types that take their
 * value alone (the others need a base or multi counter, a pairing other
 * than VALUE). c->stalled when the clocks did not move forward or the
 * frequency is 0 where the formula divides by them (two captures of one
 * moment, a repeated capture): format_stalled_column answers it.
 * Otherwise F_NONE: the column goes value by value through
 * plan_format_from, whatever the plans hold.
 */
static formula fast_formula(const perfbuf_v1_plan *newer, const perfbuf_v1_plan *older, uint32_t k,
                            uint32_t flags, fast_column *c)
{
    if (!one_format(flags) || (flags & PERFBUF_FMT_DOUBLE) == 0 ||
        !column_pairs(newer, older, k)) {
        return F_NONE;
    }
    const perfbuf_v1_plan_entry *e1 = &newer->entries[k];
    const perfbuf_v1_plan_entry *e0 = &older->entries[k];
    formula f = prepared_formula_of(&e1->formula);
    if (e1->pairing != PERFBUF_V1_PLAN_VALUE || e0->pairing != PERFBUF_V1_PLAN_VALUE ||
        f == F_NONE || e1->formula.type != e1->type || !scale_in_range(e1->scale)) {
        return F_NONE;
    }
    /* time_base is the caller's memory: bounded as plan_sample_from does. */
    size_t clock1 = e1->time_base <= PERFBUF_TIME_OBJECT ? e1->time_base : PERFBUF_TIME_NONE;
    size_t clock0 = e0->time_base <= PERFBUF_TIME_OBJECT ? e0->time_base : PERFBUF_TIME_NONE;
    c->type = e1->type;
    c->offset1 = e1->offset;
    c->size1 = e1->size;
    c->offset0 = e0->offset;
    c->size0 = e0->size;
    c->clock1 = newer->clock[clock1];
    c->clock0 = older->clock[clock0];
    c->frequency = newer->frequency[clock1];
    c->scale = e1->scale;
    if (!formula_has_column_loop(f)) {
        return F_NONE;
    }
    c->stalled = (divides_by_interval(f) && c->clock1 <= c->clock0) ||
                 (divides_by_frequency(f) && c->frequency == 0);
    return f;
}

/*
 * A stalled column (fast_formula): no row has a value. gather compares the
 * counter's two values first (NEGATIVE_VALUE where it went back, for a
 * formula of two samples), then the clocks, and evaluate the frequency
 * and the interval, none of which depends on the counter's values: so
 * every other row has the status the formula gives a pair of equal values
 * of the column, found once, and 0.
 */
static void format_stalled_column(formula f, const fast_column *c, const row_set *rows,
                                  uint32_t n, uint32_t flags, double *values, uint8_t *codes,
                                  size_t stride)
{
    perfbuf_raw_sample s1 = {PERFBUF_CSTATUS_VALID_DATA, c->type, 0, c->clock1, 0, 0};
    perfbuf_raw_sample s0 = {PERFBUF_CSTATUS_VALID_DATA, c->type, 0, c->clock0, 0, 0};
    double unused;
    uint8_t stalled = compact_of(
        format_double_untested(f, &s1, &s0, c->frequency, c->scale, flags, &unused));
    /* In locals, as in format_column_as: the byte stores may alias them. */
    const uint8_t *newer = rows->newer + c->offset1;
    const uint8_t *older = rows->older + c->offset0;
    const uint32_t size1 = c->size1;
    const uint32_t size0 = c->size0;
    if (shapes[f].samples != 2) {
        for (uint32_t j = 0; j < n; j++) {
            values[j * stride] = 0.0;
            codes[j * stride] = stalled;
        }
        return;
    }
    for (uint32_t j = 0; j < n; j++) {
        uint64_t n1 = row_value(newer + rows->newer_at[j], 0, size1);
        uint64_t n0 = row_value(older + rows->older_at[j], 0, size0);
        values[j * stride] = 0.0;
        codes[j * stride] = n1 < n0 ? (uint8_t)PERFBUF_COMPACT_CALC_NEGATIVE_VALUE : stalled;
    }
}

/* An unrolled loop, where the compiler takes the hint: a column's values
 * are independent, and a step of 32 rows fully unrolled would be a copy
 * of the formula per row. */
#if defined(__GNUC__) || defined(__clang__)
#  define UNROLL_BY_4 _Pragma("GCC unroll 4")
#else
#  define UNROLL_BY_4
#endif

/*
 * A column down n rows with formula f a constant: the samples
 * plan_sample_from fills for a VALUE entry, through the steps of
 * format_double_adjusted. width is both entries' size, 4 or 8, so a 4-byte value is
 * known to fit 32 bits (its conversion to a double one instruction); plain
 * says no scale and no x1000 apply, so the adjustment is the cap alone.
 * The column's flags and scale are an adjustment (adjust_by), so the loop
 * has no branch the compiler would copy the loop for. False when a value
 * was not finite (nothing written can be used then).
 */
HOT_PATH bool format_column_as(formula f, uint32_t width, bool plain, const fast_column *c,
                               const row_set *rows, uint32_t n, uint32_t flags, double *values,
                               uint8_t *codes, size_t stride)
{
    /* The column in locals: the codes are bytes, whose stores may alias
     * anything, and would make every field be loaded again per value. */
    const uint8_t *newer = rows->newer + c->offset1;
    const uint8_t *older = rows->older + c->offset0;
    const uint32_t type = c->type;
    const uint64_t clock1 = c->clock1;
    /* fast_formula took the column only with the clocks forward and the
     * frequency not 0 where f divides by them (c->stalled otherwise): the
     * same numbers, written so that the compiler sees those tests of
     * gather and evaluate always pass and leaves them out of the loop. */
    const uint64_t clock0 =
        divides_by_interval(f) && c->clock0 >= clock1 ? clock1 - 1u : c->clock0;
    const uint64_t frequency = divides_by_frequency(f) && c->frequency == 0 ? 1u : c->frequency;
    adjustment a = adjustment_of(shapes[f].percent, c->scale, flags);
    if (plain) {
        a.up = 1.0;
        a.down = 1.0;
        a.thousand = 1.0;
    }
    /* Every value's finite test ORed into one word: no formula's value
     * leaves the finite doubles (evaluate's bound, below 2^128, scaled by
     * at most 10^13), so false, and the column taken again value by value
     * through plan_format_from, only if one ever did. A raw count or delta
     * that nothing scales is a 64-bit integer converted, finite whatever
     * its value, and not tested. */
    const bool tested = !(plain && shapes[f].integral);
    uint64_t not_finite = 0;
    UNROLL_BY_4
    for (uint32_t j = 0; j < n; j++) {
        perfbuf_raw_sample s1 = {PERFBUF_CSTATUS_VALID_DATA, type,
                                 row_value(newer + rows->newer_at[j], 0, width), clock1, 0, 0};
        perfbuf_raw_sample s0 = {PERFBUF_CSTATUS_VALID_DATA, type,
                                 row_value(older + rows->older_at[j], 0, width), clock0, 0, 0};
        double v;
        uint32_t st = format_double_adjusted(f, &s1, &s0, frequency, &a, &v);
        if (tested) {
            not_finite |= finite_bits(v);
        }
        values[j * stride] = v;
        codes[j * stride] = compact_of(st);
    }
    return not_finite == 0;
}

/* format_column_as with the width and plain constants chosen at run time:
 * one function per formula. False also for entries of two sizes or a
 * size other than 4 and 8, which go value by value. */
HOT_PATH bool format_column_formula(formula f, const fast_column *c, const row_set *rows,
                                    uint32_t n, uint32_t flags, double *values, uint8_t *codes,
                                    size_t stride)
{
    bool plain = ((flags & PERFBUF_FMT_NOSCALE) != 0 || c->scale == 0) &&
                 (flags & PERFBUF_FMT_1000) == 0;
    uint32_t width = c->size1 == c->size0 && (c->size1 == 4 || c->size1 == 8) ? c->size1 : 0;
    if (width == 8) {
        return plain ? format_column_as(f, 8, true, c, rows, n, flags, values, codes, stride)
                     : format_column_as(f, 8, false, c, rows, n, flags, values, codes, stride);
    }
    if (width == 4) {
        return plain ? format_column_as(f, 4, true, c, rows, n, flags, values, codes, stride)
                     : format_column_as(f, 4, false, c, rows, n, flags, values, codes, stride);
    }
    return false;
}

/* One function per formula, each a loop of its own: inlined into one
 * dispatch they would share its registers, and spill them per value. */
#if defined(__GNUC__) || defined(__clang__)
#  define COLUMN_LOOP static __attribute__((noinline)) bool
#else
#  define COLUMN_LOOP static bool
#endif
#define COLUMN_FOR(f, name)                                                                   \
    COLUMN_LOOP name(const fast_column *c, const row_set *rows, uint32_t n, uint32_t flags,   \
                     double *values, uint8_t *codes, size_t stride)                           \
    {                                                                                         \
        return format_column_formula(f, c, rows, n, flags, values, codes, stride);            \
    }
COLUMN_FOR(F_RATE, column_rate)
COLUMN_FOR(F_QUEUE, column_queue)
COLUMN_FOR(F_TIMER, column_timer)
COLUMN_FOR(F_TIMER_INV, column_timer_inv)
COLUMN_FOR(F_RAW, column_raw)
COLUMN_FOR(F_DELTA, column_delta)
COLUMN_FOR(F_ELAPSED, column_elapsed)
#undef COLUMN_FOR

/* Each formula's loop: those of formula_has_column_loop. */
typedef bool column_loop(const fast_column *c, const row_set *rows, uint32_t n, uint32_t flags,
                         double *values, uint8_t *codes, size_t stride);
static column_loop *const column_loops[F_COUNT] = {
    [F_RATE] = column_rate,         [F_QUEUE] = column_queue, [F_TIMER] = column_timer,
    [F_TIMER_INV] = column_timer_inv, [F_RAW] = column_raw,   [F_DELTA] = column_delta,
    [F_ELAPSED] = column_elapsed,
};

/* Column k down n rows whose blocks the sealed plans' reaches cover. Out
 * of line: its frame (a column, a perfbuf_value) is not added to the
 * caller's, which holds the rows. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void format_column(const perfbuf_v1_plan *newer, const perfbuf_v1_plan *older, uint32_t k,
                          const row_set *rows, uint32_t n, uint32_t flags, double *values,
                          uint8_t *codes, size_t stride)
{
    fast_column c;
    formula f = fast_formula(newer, older, k, flags, &c);
    if (f != F_NONE && c.stalled) {
        format_stalled_column(f, &c, rows, n, flags, values, codes, stride);
        return;
    }
    column_loop *loop = column_loops[f];
    if (loop != NULL && loop(&c, rows, n, flags, values, codes, stride)) {
        return;
    }
    /* Value by value, as perfbuf_v1_plan_format_object: the rows are
     * given, so the windows are never read. */
    pb_cursor unused = pb_cursor_make(NULL, 0);
    for (uint32_t j = 0; j < n; j++) {
        perfbuf_value value;
        (void)plan_format_from(newer, &unused, rows->newer + rows->newer_at[j], older, &unused,
                               rows->older + rows->older_at[j], k, false, flags, &value);
        values[j * stride] = value.as_double;
        codes[j * stride] = compact_of(value.status);
    }
}

/* The block's offset in its capture's bytes, which a DWORD TotalByteLength
 * keeps within 32 bits: false for a block past them. */
static inline bool row_at(const perfbuf_v1_block *b, const uint8_t *row, uint32_t *at)
{
    size_t offset = (size_t)(row - b->data);
    *at = (uint32_t)offset;
    return offset <= UINT32_MAX;
}

perfbuf_status perfbuf_v1_plan_format_object_doubles(
    const perfbuf_v1_plan *newer, const perfbuf_v1_block *newer_b,
    const perfbuf_v1_object *newer_o, const perfbuf_v1_plan *older,
    const perfbuf_v1_block *older_b, const perfbuf_v1_object *older_o, uint32_t flags,
    double *values, uint8_t *statuses, size_t cap, size_t *needed)
{
    uint32_t rows;
    perfbuf_status st = objects_formattable(newer, newer_b, newer_o, older, older_b, older_o,
                                            values != NULL && statuses != NULL, cap, &rows,
                                            needed);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint32_t count = newer->count;
    if (count == 0) {
        return PERFBUF_OK;
    }
    bool has_instances = newer_o->num_instances != PERFBUF_V1_NO_INSTANCES;
    pb_cursor newer_data =
        pb_v1_view_window(newer_b, newer_o->data_offset, newer_o->offset + newer_o->total_length);
    pb_cursor older_data =
        pb_v1_view_window(older_b, older_o->data_offset, older_o->offset + older_o->total_length);
    row_set rows_at;
    rows_at.newer = newer_b->data;
    rows_at.older = older_b->data;
    for (uint32_t first = 0; first < rows;) {
        uint32_t n = rows - first < FORMAT_ROWS ? rows - first : FORMAT_ROWS;
        /* The step's columns are set up once each: count steps. */
        PB_WORK(count);
        for (uint32_t j = 0; j < n; j++) {
            PB_WORK(1u + count);
            pb_cursor newer_block;
            pb_cursor older_block;
            const uint8_t *newer_row;
            const uint8_t *older_row;
            /* Both plans sealed: the rows are read unchecked from blocks
             * the reach covers, as in perfbuf_v1_plan_format_object. */
            if (!next_block(&newer_data, has_instances, newer->reach, &newer_block) ||
                !next_block(&older_data, has_instances, older->reach, &older_block) ||
                !pb_cursor_take(&newer_block, pb_cursor_remaining(&newer_block), &newer_row) ||
                !pb_cursor_take(&older_block, pb_cursor_remaining(&older_block), &older_row) ||
                !row_at(newer_b, newer_row, &rows_at.newer_at[j]) ||
                !row_at(older_b, older_row, &rows_at.older_at[j])) {
                return PERFBUF_E_INVALID_ARGUMENT;
            }
        }
        size_t at = (size_t)first * count;
        for (uint32_t k = 0; k < count; k++) {
            format_column(newer, older, k, &rows_at, n, flags, values + at + k, statuses + at + k,
                          count);
        }
        first += n;
    }
    return PERFBUF_OK;
}
