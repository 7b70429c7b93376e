/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Raw samples from a validated V2 query and its counterset registration. */
#include "perfbuf/counter_types.h"
#include "perfbuf/v2_meta.h"

#include "core/check.h"
#include "core/order.h"
#include "core/work.h"
#include "v2/internal.h"

/* A step of the per-value path the compiler must copy into its caller:
 * gcc -O2 kept located_value out of line, a call and its frame for each
 * value read (callgrind: 4 instructions per raw sample). */
#if defined(__GNUC__) || defined(__clang__)
#  define PB_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#  define PB_ALWAYS_INLINE inline
#endif

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

/*
 * The block view is what the query's own bytes hold at its offset: the
 * header's size and kind, the id list's count, the instance list's size
 * and count, each compared where it lies, and the view's ranges inside
 * the block. A block of another capture is refused here (NULL), before
 * any of its offsets is followed. The bytes from the header to the first
 * item are taken from the cursor at once, and returned: the id list lies
 * in them. O(1).
 */
static PB_ALWAYS_INLINE const uint8_t *block_in_place(const perfbuf_v2_query *q,
                                                      const perfbuf_v2_block *block)
{
    bool ids = block_has_ids(block);
    bool instances = block_has_instances(block);
    size_t lists = (ids ? (size_t)PBS_PERF_MULTI_COUNTERS : 0u) +
                   (instances ? (size_t)PBS_PERF_MULTI_INSTANCES : 0u);
    pb_cursor c = pb_v2_window(q, block->offset, block->items_offset);
    const uint8_t *hdr;
    if (pb_cursor_remaining(&c) < PBS_PERF_COUNTER_HEADER + lists ||
        block->items_end > q->size || block->size > q->size - block->offset ||
        !pb_cursor_take(&c, pb_cursor_remaining(&c), &hdr) || hdr == NULL) {
        return NULL;
    }
    size_t head = block->items_offset - block->offset;
    const uint8_t *ids_list = hdr + PBS_PERF_COUNTER_HEADER;
    const uint8_t *instance_list = hdr + head - PBS_PERF_MULTI_INSTANCES;
    if (pb_le32(hdr + PBO_PERF_COUNTER_HEADER_dwSize) != block->size ||
        pb_le32(hdr + PBO_PERF_COUNTER_HEADER_dwType) != (uint32_t)block->kind ||
        block->items_end < block->items_offset ||
        block->items_end - block->offset > block->size) {
        return NULL;
    }
    if (ids ? block->ids_offset != block->offset + PBS_PERF_COUNTER_HEADER +
                                       PBS_PERF_MULTI_COUNTERS ||
                  pb_le32(ids_list + PBO_PERF_MULTI_COUNTERS_dwCounters) != block->counter_count ||
                  (head - PBS_PERF_COUNTER_HEADER - lists) / 4 < block->counter_count
            : block->counter_count != (block->kind == PERFBUF_V2_ERROR_RETURN ? 0u : 1u)) {
        return NULL;
    }
    if (instances ? pb_le32(instance_list + PBO_PERF_MULTI_INSTANCES_dwInstances) !=
                            block->instance_count ||
                        pb_le32(instance_list + PBO_PERF_MULTI_INSTANCES_dwTotalSize) !=
                            (uint64_t)(block->items_end - block->items_offset) +
                                PBS_PERF_MULTI_INSTANCES
                  : block->instance_count != 0 || block->items_end - block->offset != block->size) {
        return NULL;
    }
    return hdr;
}

/* The instance view is what the query's bytes hold at its offset, inside
 * the block's instance list: its Size and InstanceId, its values right
 * after it, as many as the block's counters. O(1). */
static PB_ALWAYS_INLINE bool instance_in_place(const perfbuf_v2_query *q,
                                               const perfbuf_v2_block *block,
                                               const perfbuf_v2_instance *inst)
{
    pb_cursor c = pb_v2_window(q, inst->offset, block->items_end);
    const uint8_t *hdr;
    if (!block_has_instances(block) || inst->offset < block->items_offset ||
        !pb_cursor_take(&c, PBS_PERF_INSTANCE_HEADER, &hdr)) {
        return false;
    }
    return pb_le32(hdr + PBO_PERF_INSTANCE_HEADER_Size) == inst->size &&
           pb_le32(hdr + PBO_PERF_INSTANCE_HEADER_InstanceId) == inst->id &&
           inst->value_count == block->counter_count && inst->size >= PBS_PERF_INSTANCE_HEADER &&
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

/* What values_begin gives, without the iterator. */
static value_run run_of(const perfbuf_v2_block *block, const perfbuf_v2_instance *inst)
{
    value_run run = {block->items_offset, block->items_end,
                     block_has_instances(block) ? 0 : block->counter_count};
    if (inst != NULL) {
        run.first = inst->values_offset;
        run.count = inst->value_count;
    }
    return run;
}

/* The integer in a PERF_COUNTER_DATA of `stride` bytes at value (bytes
 * the cursor handed out): false when it is not one, or its dwSize is not
 * the stride (a view the parse did not prove). */
static inline bool integer_in(const uint8_t *value, uint32_t stride, bool *integer,
                              uint64_t *out)
{
    uint32_t data_size = pb_le32(value + PBO_PERF_COUNTER_DATA_dwDataSize);
    if (pb_le32(value + PBO_PERF_COUNTER_DATA_dwSize) != stride ||
        data_size > stride - PBS_PERF_COUNTER_DATA) {
        return false;
    }
    const uint8_t *body = value + PBS_PERF_COUNTER_DATA;
    *integer = data_size == 4 || data_size == 8;
    /* data_size is inside the value: only an integer's bytes are read. */
    *out = data_size == 8 ? pb_le64(body) : data_size == 4 ? pb_le32(body) : 0;
    return true;
}

/*
 * A run located once for every value a sample reads, where the parse
 * proved every value of the block the size of its first
 * (PERFBUF_V2_LAYOUT_UNIFORM_VALUES): the id list's count entries and the
 * run's count x stride bytes, each taken from the cursor once, so value k
 * is k strides after the first and no walk finds it.
 */
typedef struct located_run {
    const uint8_t *ids;  /* NULL: not located, the walk answers */
    const uint8_t *row;
    uint32_t stride;
    uint32_t count;
    bool ascending;      /* PERFBUF_V2_LAYOUT_ASCENDING_IDS: one position per id at most */
} located_run;

static PB_ALWAYS_INLINE located_run locate_run(const perfbuf_v2_query *q,
                                               const perfbuf_v2_block *block,
                                               const uint8_t *head, const value_run *run)
{
    located_run none = {NULL, NULL, 0, 0, false};
    pb_cursor c = pb_v2_window(q, run->first, run->end);
    pb_cursor peek = c;
    const uint8_t *first;
    /* block_in_place proved the block's id list inside head, after the
     * two headers; the run has the block's count of values. */
    if ((q->layout & PERFBUF_V2_LAYOUT_UNIFORM_VALUES) == 0 || !block_has_ids(block) ||
        run->count == 0 || run->count != block->counter_count ||
        !pb_cursor_take(&peek, PBS_PERF_COUNTER_DATA, &first)) {
        return none;
    }
    const uint8_t *ids = head + PBS_PERF_COUNTER_HEADER + PBS_PERF_MULTI_COUNTERS;
    uint32_t stride = pb_le32(first + PBO_PERF_COUNTER_DATA_dwSize);
    /* Two 32-bit factors: the product fits in 64 bits. */
    uint64_t row_bytes = (uint64_t)run->count * stride;
    const uint8_t *row;
    if (stride < PBS_PERF_COUNTER_DATA || row_bytes > pb_cursor_remaining(&c) ||
        !pb_cursor_take(&c, (size_t)row_bytes, &row)) {
        return none;
    }
    located_run located = {ids, row, stride, run->count,
                           (q->layout & PERFBUF_V2_LAYOUT_ASCENDING_IDS) != 0};
    return located;
}

/*
 * value_of in a located run: the id's position from the id list (a probe
 * or binary search when the lists ascend, else each position holding the
 * id in order, as the walk meets them), its value read in place. False
 * when a value there is not what the parse proved (the walk answers).
 * *position, when it names a place inside the run, is tried first with
 * one load where the ids ascend: strictly ascending, an id holds one
 * position at most, so a place that holds it is the search's answer. The
 * id list read is this run's own; a hint from another capture only saves
 * the search. *position gets the place found (UINT32_MAX: none).
 */
static PB_ALWAYS_INLINE bool located_value(const located_run *run, uint32_t id,
                                           uint32_t *position, perfbuf_status *st, uint64_t *out)
{
    bool integer = false;
    uint64_t v = 0;
    *st = PERFBUF_E_NOT_FOUND;
    if (run->ascending) {
        uint32_t at = *position;
        if ((at >= run->count || pb_le32(run->ids + (size_t)at * 4) != id) &&
            !pb_v2_find_in_keys(run->ids, 4, run->count, id, &at)) {
            *position = UINT32_MAX;
            return true;
        }
        *position = at;
        if (!integer_in(run->row + (size_t)at * run->stride, run->stride, &integer, &v)) {
            return false;
        }
        if (integer) {
            *out = v;
            *st = PERFBUF_OK;
        }
        return true;
    }
    for (uint32_t k = 0; k < run->count; k++) {
        PB_WORK(1);
        if (pb_le32(run->ids + (size_t)k * 4) != id) {
            continue;
        }
        if (!integer_in(run->row + (size_t)k * run->stride, run->stride, &integer, &v)) {
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
    if (!has_ids) {
        /* The block's one value: the first, wherever the others are. */
        pb_cursor c = pb_v2_window(q, run.first, run.end);
        pb_cursor peek = c;
        const uint8_t *hdr;
        bool integer;
        uint64_t v;
        if (pb_cursor_take(&peek, PBS_PERF_COUNTER_DATA, &hdr)) {
            uint32_t size = pb_le32(hdr + PBO_PERF_COUNTER_DATA_dwSize);
            if (size >= PBS_PERF_COUNTER_DATA && pb_cursor_take(&c, size, &hdr) &&
                integer_in(hdr, size, &integer, &v)) {
                if (!integer) {
                    return PERFBUF_E_NOT_FOUND;
                }
                *out = v;
                return PERFBUF_OK;
            }
        }
    }
    /* The walk: a layout the parse did not prove uniform (a located run
     * answers before this otherwise), or a view it cannot read in place. */
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

/* Where a sample's values come from: a walk, an index (not NULL), or a
 * located run (run.ids not NULL). */
typedef struct value_source {
    const perfbuf_v2_query *q;
    const perfbuf_v2_block *block;
    const perfbuf_v2_instance *inst;
    const perfbuf_v2_value_index *index;
    located_run run;
} value_source;

/* A value through the index or the walk: off the located path. */
PB_NOINLINE static perfbuf_status unlocated_value(const value_source *src, uint32_t id, bool own,
                                                  uint64_t *out)
{
    if (src->index != NULL) {
        return indexed_value_of(src->q, src->block, src->inst, src->index, id, own, out);
    }
    return value_of(src->q, src->block, src->inst, id, own, out);
}

static PB_ALWAYS_INLINE perfbuf_status source_value(const value_source *src, uint32_t id, bool own,
                                          uint32_t *position, uint64_t *out)
{
    perfbuf_status st;
    /* A located run is a block with an id list: own does not matter, and
     * the reference's "none" is no id. */
    if (src->run.ids != NULL && id != PERFBUF_V2_NO_ID &&
        located_value(&src->run, id, position, &st, out)) {
        return st;
    }
    return unlocated_value(src, id, own, out);
}

/*
 * perfbuf_v2_reginfo_find's answer with the fields a sample reads. Where
 * the registration's ids ascend, the counter array is taken from the
 * cursor once and searched in place here, inline, since a raw sample runs
 * it for every value; otherwise the public lookup answers.
 */
static PB_ALWAYS_INLINE bool counter_of(const perfbuf_v2_reginfo *r, uint32_t id,
                                        perfbuf_v2_counter_reg *out)
{
    if (!r->ids_ascending) {
        return perfbuf_v2_reginfo_find(r, id, out) == PERFBUF_OK;
    }
    pb_cursor all = pb_cursor_make(r->data, r->size);
    const uint8_t *counters;
    uint32_t position;
    uint64_t bytes = (uint64_t)r->counter_count * PBS_PERF_COUNTER_REG_INFO;
    if (r->counter_count == 0 || !pb_cursor_skip(&all, PBS_PERF_COUNTERSET_REG_INFO) ||
        bytes > pb_cursor_remaining(&all) || !pb_cursor_take(&all, (size_t)bytes, &counters) ||
        counters == NULL ||
        !pb_v2_find_in_keys(counters + PBO_PERF_COUNTER_REG_INFO_CounterId,
                            PBS_PERF_COUNTER_REG_INFO, r->counter_count, id, &position)) {
        return false;
    }
    const uint8_t *p = counters + (size_t)position * PBS_PERF_COUNTER_REG_INFO;
    out->id = id;
    out->type = pb_le32(p + PBO_PERF_COUNTER_REG_INFO_Type);
    out->default_scale = pb_i32(pb_le32(p + PBO_PERF_COUNTER_REG_INFO_DefaultScale));
    out->base_id = pb_le32(p + PBO_PERF_COUNTER_REG_INFO_BaseCounterId);
    out->perf_time_id = pb_le32(p + PBO_PERF_COUNTER_REG_INFO_PerfTimeId);
    out->perf_freq_id = pb_le32(p + PBO_PERF_COUNTER_REG_INFO_PerfFreqId);
    out->multi_id = pb_le32(p + PBO_PERF_COUNTER_REG_INFO_MultiId);
    return true;
}

static uint64_t positive(int64_t v)
{
    return v > 0 ? (uint64_t)v : 0;
}

/* The values a sample reads, each with its place in a located run. */
enum { READ_FIRST, READ_TIME, READ_FREQ, READ_BASE, READ_MULTI, SAMPLE_READS };

/* The registration entry and type of the counter a sample is for. */
typedef struct sampled_counter {
    perfbuf_v2_counter_reg c;
    const perfbuf_counter_type_info *info;
} sampled_counter;

/* NOT_FOUND for a counter not registered, INVALID_ARGUMENT for a type with
 * no displayable value: what a sample answers once its views are proved. */
static PB_ALWAYS_INLINE perfbuf_status counter_to_sample(const perfbuf_v2_reginfo *reg,
                                                         uint32_t counter_id,
                                                         sampled_counter *out)
{
    if (!counter_of(reg, counter_id, &out->c)) {
        return PERFBUF_E_NOT_FOUND;
    }
    out->info = perfbuf_counter_type_lookup(out->c.type);
    if (out->info == NULL || out->info->samples == 0) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    return PERFBUF_OK;
}

/* The formula inputs of one counter, wherever its values come from.
 * places[] are the located positions of the values read (see
 * located_value): hints on entry, the places found on return. */
static PB_ALWAYS_INLINE perfbuf_status sample_with(const value_source *src, const sampled_counter *counter,
                                         uint32_t counter_id, uint32_t places[SAMPLE_READS],
                                         perfbuf_raw_sample *sample, perfbuf_value_context *context)
{
    const perfbuf_v2_query *q = src->q;
    const perfbuf_v2_counter_reg *c = &counter->c;
    const perfbuf_counter_type_info *info = counter->info;
    sample->status = PERFBUF_CSTATUS_VALID_DATA;
    sample->type = c->type;
    sample->second = 0;
    sample->multi = 0;
    sample->time_stamp = q->perf_time_100ns;
    context->scale = c->default_scale;
    context->frequency = 0;
    perfbuf_status st = source_value(src, counter_id, true, &places[READ_FIRST], &sample->first);
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
        st = source_value(src, c->perf_time_id, false, &places[READ_TIME], &sample->second);
        if (st == PERFBUF_OK) {
            st = source_value(src, c->perf_freq_id, false, &places[READ_FREQ],
                              &context->frequency);
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
        st = source_value(src, c->base_id, false, &places[READ_BASE], &sample->second);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    if (info->needs_multi) {
        uint64_t v;
        st = source_value(src, c->multi_id, false, &places[READ_MULTI], &v);
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

/* No place known yet: every located value is searched for. */
#define NO_PLACES {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX}

/* The views of one capture proved in place (NULL otherwise: the sample is
 * INVALID_ARGUMENT before any value is read), and its run located. */
static PB_ALWAYS_INLINE bool source_in_place(const perfbuf_v2_query *q,
                                             const perfbuf_v2_block *block,
                                             const perfbuf_v2_instance *inst, value_source *out)
{
    if (q == NULL || block == NULL) {
        return false;
    }
    const uint8_t *head = block_in_place(q, block);
    if (head == NULL || (inst != NULL && !instance_in_place(q, block, inst))) {
        return false;
    }
    value_run run = run_of(block, inst);
    out->q = q;
    out->block = block;
    out->inst = inst;
    out->index = NULL;
    out->run = locate_run(q, block, head, &run);
    return true;
}

perfbuf_status perfbuf_v2_raw_sample(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                                     const perfbuf_v2_instance *inst, const perfbuf_v2_reginfo *reg,
                                     uint32_t counter_id, perfbuf_raw_sample *sample,
                                     perfbuf_value_context *context)
{
    value_source src;
    if (reg == NULL || sample == NULL || context == NULL ||
        !source_in_place(q, block, inst, &src)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    sampled_counter counter;
    perfbuf_status st = counter_to_sample(reg, counter_id, &counter);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint32_t places[SAMPLE_READS] = NO_PLACES;
    return sample_with(&src, &counter, counter_id, places, sample, context);
}

/*
 * Both captures' samples of one counter: each side's views are proved in
 * its own query, as perfbuf_v2_raw_sample does; the registration search
 * and the type lookup run once; the older side tries the newer's places
 * first (one load each where its id list holds the id there).
 */
perfbuf_status perfbuf_v2_raw_sample_pair(
    const perfbuf_v2_query *newer, const perfbuf_v2_block *newer_block,
    const perfbuf_v2_instance *newer_inst, const perfbuf_v2_query *older,
    const perfbuf_v2_block *older_block, const perfbuf_v2_instance *older_inst,
    const perfbuf_v2_reginfo *reg, uint32_t counter_id, perfbuf_raw_sample *newer_sample,
    perfbuf_value_context *newer_context, perfbuf_raw_sample *older_sample,
    perfbuf_value_context *older_context, perfbuf_status *older_status)
{
    if (older_status == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    value_source newer_src, older_src;
    bool newer_ok = reg != NULL && newer_sample != NULL && newer_context != NULL &&
                    source_in_place(newer, newer_block, newer_inst, &newer_src);
    bool older_ok = reg != NULL && older_sample != NULL && older_context != NULL &&
                    source_in_place(older, older_block, older_inst, &older_src);
    if (!newer_ok && !older_ok) {
        *older_status = PERFBUF_E_INVALID_ARGUMENT;
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    sampled_counter counter;
    perfbuf_status found = counter_to_sample(reg, counter_id, &counter);
    uint32_t places[SAMPLE_READS] = NO_PLACES;
    perfbuf_status newer_st = PERFBUF_E_INVALID_ARGUMENT;
    *older_status = PERFBUF_E_INVALID_ARGUMENT;
    if (newer_ok) {
        newer_st = found == PERFBUF_OK ? sample_with(&newer_src, &counter, counter_id, places,
                                                     newer_sample, newer_context)
                                       : found;
    }
    if (older_ok) {
        *older_status = found == PERFBUF_OK ? sample_with(&older_src, &counter, counter_id, places,
                                                          older_sample, older_context)
                                            : found;
    }
    return newer_st;
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
    sampled_counter counter;
    perfbuf_status st = counter_to_sample(reg, counter_id, &counter);
    if (st != PERFBUF_OK) {
        return st;
    }
    value_source src = {q, block, inst, index, {NULL, NULL, 0, 0, false}};
    uint32_t places[SAMPLE_READS] = NO_PLACES;
    return sample_with(&src, &counter, counter_id, places, sample, context);
}
