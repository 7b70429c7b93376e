/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Raw samples from a validated V2 query and its counterset registration. */
#include "perfbuf/counter_types.h"
#include "perfbuf/v2_meta.h"

#include "core/check.h"
#include "core/order.h"
#include "core/work.h"
#include "v2/internal.h"

static bool block_has_ids(const perfbuf_v2_block *block)
{
    return block->kind == PERFBUF_V2_MULTIPLE_COUNTERS || block->kind == PERFBUF_V2_COUNTERSET;
}

/* The walk perfbuf_v2_raw_sample follows: the instance's values, or the
 * block's own when there is no instance. */
static void values_begin(const perfbuf_v2_block *block, const perfbuf_v2_instance *inst,
                         perfbuf_v2_iter *it)
{
    if (inst != NULL) {
        perfbuf_v2_instance_values_begin(inst, it);
    } else {
        perfbuf_v2_block_values_begin(block, it);
    }
}

static bool block_has_instances(const perfbuf_v2_block *block)
{
    return block->kind == PERFBUF_V2_MULTIPLE_INSTANCES || block->kind == PERFBUF_V2_COUNTERSET;
}

/* ---- the views compared in place ---- */

/* n bytes of the query at offset, inside [offset, end), or NULL. */
static const uint8_t *bytes_at(const perfbuf_v2_query *q, size_t offset, size_t end, size_t n)
{
    pb_cursor c = pb_v2_window(q, offset, end);
    const uint8_t *p;
    return pb_cursor_take(&c, n, &p) ? p : NULL;
}

/*
 * The block view is what the query's own bytes hold at its offset: the
 * header's size and kind, the id list's count, the instance list's size
 * and count, each compared where it lies, and the view's ranges inside
 * the block. A block of another capture is refused here, before any of
 * its offsets is followed. O(1).
 */
static bool block_in_place(const perfbuf_v2_query *q, const perfbuf_v2_block *block)
{
    const uint8_t *hdr = bytes_at(q, block->offset, q->size, PBS_PERF_COUNTER_HEADER);
    if (hdr == NULL || pb_le32(hdr + PBO_PERF_COUNTER_HEADER_dwSize) != block->size ||
        pb_le32(hdr + PBO_PERF_COUNTER_HEADER_dwType) != (uint32_t)block->kind ||
        block->size < PBS_PERF_COUNTER_HEADER || block->size > q->size - block->offset) {
        return false;
    }
    size_t body = block->offset + PBS_PERF_COUNTER_HEADER;
    size_t end = block->offset + block->size;
    if (block->items_offset < body || block->items_offset > block->items_end ||
        block->items_end > end) {
        return false;
    }
    if (block_has_ids(block)) {
        const uint8_t *list = bytes_at(q, body, end, PBS_PERF_MULTI_COUNTERS);
        if (list == NULL || block->ids_offset != body + PBS_PERF_MULTI_COUNTERS ||
            pb_le32(list + PBO_PERF_MULTI_COUNTERS_dwCounters) != block->counter_count ||
            block->items_offset < block->ids_offset ||
            (block->items_offset - block->ids_offset) / 4 < block->counter_count) {
            return false;
        }
    } else if (block->counter_count != (block->kind == PERFBUF_V2_ERROR_RETURN ? 0u : 1u)) {
        return false;
    }
    if (block_has_instances(block)) {
        if (block->items_offset - body < PBS_PERF_MULTI_INSTANCES) {
            return false;
        }
        size_t list_at = block->items_offset - PBS_PERF_MULTI_INSTANCES;
        const uint8_t *list = bytes_at(q, list_at, end, PBS_PERF_MULTI_INSTANCES);
        return list != NULL &&
               pb_le32(list + PBO_PERF_MULTI_INSTANCES_dwInstances) == block->instance_count &&
               pb_le32(list + PBO_PERF_MULTI_INSTANCES_dwTotalSize) ==
                   (uint64_t)block->items_end - list_at;
    }
    return block->items_end == end && block->instance_count == 0;
}

/* The instance view is what the query's bytes hold at its offset, inside
 * the block's instance list: its Size and InstanceId, its values right
 * after it, as many as the block's counters. O(1). */
static bool instance_in_place(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                              const perfbuf_v2_instance *inst)
{
    if (!block_has_instances(block) || inst->offset < block->items_offset ||
        inst->value_count != block->counter_count) {
        return false;
    }
    const uint8_t *hdr = bytes_at(q, inst->offset, block->items_end, PBS_PERF_INSTANCE_HEADER);
    return hdr != NULL && pb_le32(hdr + PBO_PERF_INSTANCE_HEADER_Size) == inst->size &&
           pb_le32(hdr + PBO_PERF_INSTANCE_HEADER_InstanceId) == inst->id &&
           inst->size >= PBS_PERF_INSTANCE_HEADER &&
           inst->size <= block->items_end - inst->offset &&
           inst->values_offset == inst->offset + inst->size;
}

/* ---- a value by its position ---- */

/* The values a sample reads: an instance's, or a block's own. */
typedef struct value_run {
    size_t first;   /* the first PERF_COUNTER_DATA */
    size_t end;     /* the block's items end: no value lies past it */
    uint32_t count;
} value_run;

static value_run run_of(const perfbuf_v2_block *block, const perfbuf_v2_instance *inst)
{
    perfbuf_v2_iter it;
    values_begin(block, inst, &it);
    value_run run = {it.pos, block->items_end, it.count};
    return run;
}

/*
 * The PERF_COUNTER_DATA at `at` (inside the run) as values_next decodes
 * it: true when it is there and holds its data; *integer then tells an
 * integer value, in *out. stride, when not 0, is the size it must have.
 */
static bool value_at_offset(const perfbuf_v2_query *q, const value_run *run, uint64_t at,
                            uint32_t stride, bool *integer, uint64_t *out)
{
    if (at > run->end) {
        return false;
    }
    pb_cursor c = pb_v2_window(q, (size_t)at, run->end);
    const uint8_t *hdr;
    if (!pb_cursor_take(&c, PBS_PERF_COUNTER_DATA, &hdr)) {
        return false;
    }
    uint32_t size = pb_le32(hdr + PBO_PERF_COUNTER_DATA_dwSize);
    uint32_t data_size = pb_le32(hdr + PBO_PERF_COUNTER_DATA_dwDataSize);
    const uint8_t *body;
    if (size < PBS_PERF_COUNTER_DATA || (stride != 0 && size != stride) ||
        data_size > size - PBS_PERF_COUNTER_DATA ||
        !pb_cursor_take(&c, size - PBS_PERF_COUNTER_DATA, &body)) {
        return false;
    }
    *integer = data_size == 4 || data_size == 8;
    *out = data_size == 8 ? pb_le64(body) : data_size == 4 ? pb_le32(body) : 0;
    return true;
}

/*
 * value_of where the parse proved every value of the block the size of
 * its first (PERFBUF_V2_LAYOUT_UNIFORM_VALUES): value k is k strides after
 * the first, so no walk finds it. The id's position comes from the id
 * list: a probe or binary search when the lists strictly ascend
 * (PERFBUF_V2_LAYOUT_ASCENDING_IDS: one position at most), else each
 * position holding the id in order, as the walk meets them. False when
 * the run cannot be read so (the walk then answers).
 */
static bool value_by_position(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                              const value_run *run, uint32_t id, perfbuf_status *st,
                              uint64_t *out)
{
    const uint8_t *first = bytes_at(q, run->first, run->end, PBS_PERF_COUNTER_DATA);
    if (first == NULL || (q->layout & PERFBUF_V2_LAYOUT_UNIFORM_VALUES) == 0) {
        return false;
    }
    uint32_t stride = pb_le32(first + PBO_PERF_COUNTER_DATA_dwSize);
    bool integer = false;
    uint64_t v = 0;
    *st = PERFBUF_E_NOT_FOUND;
    if ((q->layout & PERFBUF_V2_LAYOUT_ASCENDING_IDS) != 0) {
        uint32_t position;
        if (!pb_v2_find_ascending(q->data, block->items_offset, block->ids_offset, 4,
                                  run->count, id, &position)) {
            return true;
        }
        if (!value_at_offset(q, run, run->first + (uint64_t)position * stride, stride, &integer,
                             &v)) {
            return false;
        }
        if (integer) {
            *out = v;
            *st = PERFBUF_OK;
        }
        return true;
    }
    const uint8_t *ids = bytes_at(q, block->ids_offset, block->items_offset,
                                  (size_t)run->count * 4);
    if (ids == NULL) {
        return false;
    }
    for (uint32_t k = 0; k < run->count; k++) {
        PB_WORK(1);
        if (pb_le32(ids + (size_t)k * 4) != id) {
            continue;
        }
        if (!value_at_offset(q, run, run->first + (uint64_t)k * stride, stride, &integer, &v)) {
            return false;
        }
        if (integer) {
            *out = v;
            *st = PERFBUF_OK;
            return true;
        }
    }
    return true;
}

/*
 * The integer value of counter `id` among the values of an instance or of
 * a block without instances. A block without an id list holds one counter,
 * the one asked for (`own`): the counters it refers to (time, frequency,
 * base, multi) are not in it, and its value must not stand in for them.
 */
static perfbuf_status value_of(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                               const perfbuf_v2_instance *inst, uint32_t id, bool own,
                               uint64_t *out)
{
    bool has_ids = block_has_ids(block);
    /* 0xFFFFFFFF is a reference's "none": no value answers to it, not even
     * one whose id list entry happens to hold that number. */
    if ((!has_ids && !own) || id == PERFBUF_V2_NO_ID) {
        return PERFBUF_E_NOT_FOUND;
    }
    value_run run = run_of(block, inst);
    if (run.count == 0) {
        return PERFBUF_E_NOT_FOUND;
    }
    bool integer;
    uint64_t v;
    if (!has_ids) {
        /* The block's one value: the first, wherever the others are. */
        if (value_at_offset(q, &run, run.first, 0, &integer, &v)) {
            if (!integer) {
                return PERFBUF_E_NOT_FOUND;
            }
            *out = v;
            return PERFBUF_OK;
        }
    } else {
        perfbuf_status st;
        if (value_by_position(q, block, &run, id, &st, out)) {
            return st;
        }
    }
    /* The walk: a layout the parse did not prove uniform, or a view it
     * cannot read at its positions. */
    perfbuf_v2_iter it;
    perfbuf_v2_value value;
    values_begin(block, inst, &it);
    while (perfbuf_v2_values_next(q, block, &it, &value)) {
        if ((has_ids ? value.counter_id == id : value.index == 0) && value.is_integer) {
            *out = value.integer;
            return PERFBUF_OK;
        }
    }
    return PERFBUF_E_NOT_FOUND;
}

/* ---- the value index ---- */

/*
 * Scratch layout: INDEX_HEADER entries that repeat who the index belongs
 * to (so that scratch rebuilt for another instance is noticed), then the
 * offset of each value by position, then one key per integer value of a
 * block with an id list: id << 32 | position, ascending. Sorted that way,
 * the first key of an id is its first integer value in position order,
 * which is the one the walk finds.
 */
enum {
    HEADER_QUERY_DATA,
    HEADER_QUERY_TIME,
    HEADER_BLOCK_OFFSET,
    HEADER_INSTANCE_OFFSET,
    HEADER_COUNTS,
    INDEX_HEADER
};

static size_t slots_for(uint32_t value_count)
{
    size_t per_value;
    size_t total;
    if (!pb_mul((size_t)value_count, 2, &per_value) || !pb_add(per_value, INDEX_HEADER, &total)) {
        return SIZE_MAX;
    }
    return total;
}

size_t perfbuf_v2_value_index_slots(const perfbuf_v2_block *block)
{
    if (block == NULL) {
        return 0;
    }
    return slots_for(block->counter_count);
}

static size_t instance_offset_of(const perfbuf_v2_instance *inst)
{
    return inst != NULL ? inst->offset : SIZE_MAX;
}

static uint64_t counts_of(const perfbuf_v2_value_index *index)
{
    return (uint64_t)index->value_count << 32 | index->key_count;
}

static void write_header(const perfbuf_v2_value_index *index, uint64_t *slots)
{
    slots[HEADER_QUERY_DATA] = (uint64_t)(uintptr_t)index->query_data;
    slots[HEADER_QUERY_TIME] = (uint64_t)index->query_time_100ns;
    slots[HEADER_BLOCK_OFFSET] = (uint64_t)index->block_offset;
    slots[HEADER_INSTANCE_OFFSET] = (uint64_t)index->instance_offset;
    slots[HEADER_COUNTS] = counts_of(index);
}

perfbuf_status perfbuf_v2_value_index_build(const perfbuf_v2_query *q,
                                            const perfbuf_v2_block *block,
                                            const perfbuf_v2_instance *inst, uint64_t *slots,
                                            size_t cap, perfbuf_v2_value_index *out)
{
    if (q == NULL || block == NULL || out == NULL || (slots == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_v2_value_index index = {0};
    *out = index;
    perfbuf_v2_iter it;
    values_begin(block, inst, &it);
    size_t need = slots_for(it.count);
    if (cap < need) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    index.query_data = q->data;
    index.query_size = q->size;
    index.query_time_stamp = q->perf_time_stamp;
    index.query_time_100ns = q->perf_time_100ns;
    index.block_offset = block->offset;
    index.instance_offset = instance_offset_of(inst);
    index.values_offset = it.pos;

    uint64_t *offsets = slots + INDEX_HEADER;
    uint64_t *keys = offsets + it.count;
    bool has_ids = block_has_ids(block);
    bool ascending = true;
    uint32_t walked = 0;
    uint32_t key_count = 0;
    perfbuf_v2_value v;
    /* A walk that stops early (a view of another buffer) indexes what the
     * walk of perfbuf_v2_raw_sample would also see: the values before. */
    while (walked < it.count && perfbuf_v2_values_next(q, block, &it, &v)) {
        PB_WORK(1);
        offsets[walked] = (uint64_t)v.offset;
        if (has_ids && v.is_integer) {
            uint64_t key = (uint64_t)v.counter_id << 32 | walked;
            if (key_count > 0 && key < keys[key_count - 1]) {
                ascending = false;
            }
            keys[key_count++] = key;
        }
        walked++;
    }
    if (!ascending) {
        pb_sort_u64(keys, key_count);
    }
    index.slots = slots;
    index.value_count = walked;
    index.key_count = key_count;
    write_header(&index, slots);
    *out = index;
    return PERFBUF_OK;
}

/* The index was built for this query, block and instance, from scratch
 * that still says so. */
static bool index_belongs(const perfbuf_v2_value_index *index, const perfbuf_v2_query *q,
                          const perfbuf_v2_block *block, const perfbuf_v2_instance *inst)
{
    perfbuf_v2_iter it;
    values_begin(block, inst, &it);
    if (index->slots == NULL || index->query_data != q->data || index->query_size != q->size ||
        index->query_time_stamp != q->perf_time_stamp ||
        index->query_time_100ns != q->perf_time_100ns || index->block_offset != block->offset ||
        index->instance_offset != instance_offset_of(inst) || index->values_offset != it.pos ||
        index->value_count > it.count || index->key_count > index->value_count) {
        return false;
    }
    const uint64_t *slots = index->slots;
    return slots[HEADER_QUERY_DATA] == (uint64_t)(uintptr_t)index->query_data &&
           slots[HEADER_QUERY_TIME] == (uint64_t)index->query_time_100ns &&
           slots[HEADER_BLOCK_OFFSET] == (uint64_t)index->block_offset &&
           slots[HEADER_INSTANCE_OFFSET] == (uint64_t)index->instance_offset &&
           slots[HEADER_COUNTS] == counts_of(index);
}

/*
 * The value at `position`, read again through the query view from the
 * offset the scratch gives. The walk that built the index started at the
 * first value and put each value where the one before ended, so an entry
 * the build could not have written (the first value elsewhere, a value
 * that does not end where the next recorded one starts, an offset past the
 * data, bytes that do not decode) gives no value rather than another
 * value's bytes.
 */
static bool value_at(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                     const perfbuf_v2_instance *inst, const perfbuf_v2_value_index *index,
                     uint32_t position, perfbuf_v2_value *out)
{
    perfbuf_v2_iter it;
    values_begin(block, inst, &it);
    if (position >= index->value_count || position >= it.count) {
        return false;
    }
    const uint64_t *offsets = index->slots + INDEX_HEADER;
    uint64_t offset = offsets[position];
    if ((position == 0 ? offset != it.pos : offset < it.pos) || offset >= q->size) {
        return false;
    }
    it.pos = (size_t)offset;
    it.next_index = position;
    if (!perfbuf_v2_values_next(q, block, &it, out)) {
        return false;
    }
    return position + 1 >= index->value_count || offsets[position + 1] == it.pos;
}

/*
 * Is keys[id] the first key of id? Counter ids are numbered from 0 in a
 * provider's manifest (Processor Information runs from 0 to 31 with one
 * gap), so an id is often its own place among the sorted keys: probing
 * there first makes those lookups O(1), and the others fall back to a
 * binary search.
 */
static bool key_at_its_own_place(const uint64_t *keys, size_t count, uint32_t id,
                                 uint32_t *position)
{
    if (id >= count || keys[id] >> 32 != id || (id > 0 && keys[id - 1] >> 32 == id)) {
        return false;
    }
    *position = (uint32_t)keys[id];
    return true;
}

/* value_of through the index: the same answers in O(log v), or O(1) when
 * ids and positions agree. */
static perfbuf_status indexed_value_of(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                                       const perfbuf_v2_instance *inst,
                                       const perfbuf_v2_value_index *index, uint32_t id, bool own,
                                       uint64_t *out)
{
    bool has_ids = block_has_ids(block);
    if ((!has_ids && !own) || id == PERFBUF_V2_NO_ID) {
        return PERFBUF_E_NOT_FOUND;
    }
    perfbuf_v2_value v;
    if (!has_ids) {
        /* The walk takes the first value, and only when it is an integer. */
        if (index->value_count == 0) {
            return PERFBUF_E_NOT_FOUND;
        }
        if (!value_at(q, block, inst, index, 0, &v)) {
            return PERFBUF_E_INVALID_ARGUMENT;
        }
        if (!v.is_integer) {
            return PERFBUF_E_NOT_FOUND;
        }
        *out = v.integer;
        return PERFBUF_OK;
    }
    const uint64_t *keys = index->slots + INDEX_HEADER + (size_t)index->value_count;
    uint32_t position;
    if (!key_at_its_own_place(keys, index->key_count, id, &position) &&
        !pb_keys_find_sorted(keys, index->key_count, id, &position)) {
        return PERFBUF_E_NOT_FOUND;
    }
    /* The scratch is the caller's: what it names must still be an integer
     * value under that id, or the index is not the one that was built. */
    if (!value_at(q, block, inst, index, position, &v) || v.counter_id != id || !v.is_integer) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    *out = v.integer;
    return PERFBUF_OK;
}

/* ---- raw samples ---- */

/* Where a sample's values come from: a walk, or an index (not NULL). */
typedef struct value_source {
    const perfbuf_v2_query *q;
    const perfbuf_v2_block *block;
    const perfbuf_v2_instance *inst;
    const perfbuf_v2_value_index *index;
} value_source;

static perfbuf_status source_value(const value_source *src, uint32_t id, bool own, uint64_t *out)
{
    if (src->index != NULL) {
        return indexed_value_of(src->q, src->block, src->inst, src->index, id, own, out);
    }
    return value_of(src->q, src->block, src->inst, id, own, out);
}

static uint64_t positive(int64_t v)
{
    return v > 0 ? (uint64_t)v : 0;
}

/* The formula inputs of one counter, wherever its values come from. */
static perfbuf_status sample_from(const value_source *src, const perfbuf_v2_reginfo *reg,
                                  uint32_t counter_id, perfbuf_raw_sample *sample,
                                  perfbuf_value_context *context)
{
    const perfbuf_v2_query *q = src->q;
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
    perfbuf_status st = source_value(src, counter_id, true, &sample->first);
    if (st != PERFBUF_OK) {
        return st;
    }
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
        st = source_value(src, c.perf_time_id, false, &sample->second);
        if (st == PERFBUF_OK) {
            st = source_value(src, c.perf_freq_id, false, &context->frequency);
        }
        if (st != PERFBUF_OK) {
            return st;
        }
        break;
    case PERFBUF_TIME_NONE:
    default:
        break;
    }
    if (info->needs_base) {
        st = source_value(src, c.base_id, false, &sample->second);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    if (info->needs_multi) {
        uint64_t v;
        st = source_value(src, c.multi_id, false, &v);
        if (st != PERFBUF_OK) {
            return st;
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

perfbuf_status perfbuf_v2_raw_sample(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                                     const perfbuf_v2_instance *inst, const perfbuf_v2_reginfo *reg,
                                     uint32_t counter_id, perfbuf_raw_sample *sample,
                                     perfbuf_value_context *context)
{
    if (q == NULL || block == NULL || reg == NULL || sample == NULL || context == NULL ||
        !block_in_place(q, block) || (inst != NULL && !instance_in_place(q, block, inst))) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    value_source src = {q, block, inst, NULL};
    return sample_from(&src, reg, counter_id, sample, context);
}

perfbuf_status perfbuf_v2_raw_sample_indexed(const perfbuf_v2_query *q,
                                             const perfbuf_v2_block *block,
                                             const perfbuf_v2_instance *inst,
                                             const perfbuf_v2_reginfo *reg,
                                             const perfbuf_v2_value_index *index,
                                             uint32_t counter_id, perfbuf_raw_sample *sample,
                                             perfbuf_value_context *context)
{
    if (q == NULL || block == NULL || reg == NULL || index == NULL || sample == NULL ||
        context == NULL || !index_belongs(index, q, block, inst)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    value_source src = {q, block, inst, index};
    return sample_from(&src, reg, counter_id, sample, context);
}
