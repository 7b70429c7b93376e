/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Raw samples from a validated V1 block (docs/formats.md#values-and-formulas,
 * docs/counter-types.md). */
#include "perfbuf/counter_types.h"
#include "perfbuf/v1.h"

#include "v1_internal.h"

static uint64_t frequency_of(int64_t f)
{
    return f > 0 ? (uint64_t)f : 0;
}

static uint64_t clock_of(int64_t t)
{
    return t > 0 ? (uint64_t)t : 0;
}

/*
 * o's own definition for `counter`, which may be a definition of another
 * capture: the one at its position if title index and type agree, else
 * the first with its title index. *next is the definition after it.
 */
static bool same_definition(const perfbuf_v1_counter *a, const perfbuf_v1_counter *b)
{
    return a->byte_length == b->byte_length && a->name_title_index == b->name_title_index &&
           a->help_title_index == b->help_title_index && a->default_scale == b->default_scale &&
           a->detail_level == b->detail_level && a->type == b->type && a->size == b->size &&
           a->counter_offset == b->counter_offset;
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

static perfbuf_status resolve_definition(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                         const perfbuf_v1_counter *counter,
                                         perfbuf_v1_counter *own, perfbuf_v1_counter *next,
                                         bool *has_next)
{
    bool found = definition_at(b, o, counter->offset, counter->index, own) &&
                 same_definition(own, counter);
    if (!found) {
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
    *has_next = definition_at(b, o, own->offset + own->byte_length, own->index + 1, next);
    return PERFBUF_OK;
}

/* The block lies in o's instance data and holds the counter. */
static bool read_value(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                       const perfbuf_v1_counter_block *block, const perfbuf_v1_counter *counter,
                       uint64_t *value)
{
    pb_cursor bytes;
    size_t object_end = o->offset + o->total_length;
    if (block->offset < o->data_offset || block->offset > object_end ||
        block->byte_length > object_end - block->offset ||
        !pb_v1_counter_slice(b, block, counter, &bytes)) {
        return false;
    }
    *value = perfbuf_v1_counter_value(b, block, counter);
    return true;
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
    if (!pb_v1_object_of_block(b, o)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_v1_counter own;
    perfbuf_v1_counter next;
    bool has_next;
    perfbuf_status st = resolve_definition(b, o, counter, &own, &next, &has_next);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint64_t first;
    if (!read_value(b, o, block, &own, &first)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    sample->status = PERFBUF_CSTATUS_VALID_DATA;
    sample->type = own.type;
    sample->first = first;
    sample->second = 0;
    sample->multi = 0;
    sample->time_stamp = b->perf_time_100ns;
    context->scale = own.default_scale;
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
    uint64_t value;
    if (!has_next || !read_value(b, o, block, &next, &value)) {
        return PERFBUF_E_NOT_FOUND;
    }
    if (info->needs_base && perfbuf_counter_type_is_base(next.type)) {
        /* Precision timers divide by their timestamp instead of a clock. */
        sample->second = value;
        return PERFBUF_OK;
    }
    if (info->needs_multi && next.type == PERF_COUNTER_MULTI_BASE) {
        /* PDH's MultiCount is 32 bits: a larger base cannot be used as it
         * is, and a clamped one would give a wrong value that looks right. */
        if (value > UINT32_MAX) {
            sample->status = PERFBUF_CSTATUS_INVALID_DATA;
        } else {
            sample->multi = (uint32_t)value;
        }
        return PERFBUF_OK;
    }
    return PERFBUF_E_NOT_FOUND;
}
