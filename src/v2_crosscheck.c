/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Whether a V2 query-data buffer and a counterset registration (and, when
 * given, the query's counter identifiers) agree. All three were validated
 * on their own; this finds what only shows when they are read together,
 * and reports it in each buffer involved.
 */
#include <string.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/v2_meta.h"

#include "check.h"

const char *perfbuf_v2_mismatch_name(perfbuf_v2_mismatch_kind kind)
{
    switch (kind) {
    case PERFBUF_V2_AGREE:
        return "AGREE";
    case PERFBUF_V2_UNKNOWN_COUNTER:
        return "UNKNOWN_COUNTER";
    case PERFBUF_V2_VALUE_SIZE:
        return "VALUE_SIZE";
    case PERFBUF_V2_RESULT_KIND:
        return "RESULT_KIND";
    case PERFBUF_V2_INDEX_RANGE:
        return "INDEX_RANGE";
    case PERFBUF_V2_INDEX_DUPLICATE:
        return "INDEX_DUPLICATE";
    }
    return "?";
}

#define CACHED_POSITIONS 64u

/* A counter type's value size in two bits. */
enum { SIZE_CODE_ZERO = 0, SIZE_CODE_DWORD = 1, SIZE_CODE_LARGE = 2, SIZE_CODE_VARIABLE = 3 };

typedef struct crosscheck {
    const perfbuf_v2_query *q;
    const perfbuf_v2_reginfo *reg;
    const perfbuf_v2_identifiers *ids;
    bool reg_sorted;          /* counter ids strictly ascending: binary search */
    perfbuf_v2_list_iter id_pos;
    perfbuf_v2_mismatch *out;
    /* The value sizes of the first CACHED_POSITIONS positions of the
     * current block's id list (2 bits each, SIZE_CODE_*): every instance
     * repeats the same ids, so most values skip the lookup. */
    uint64_t known_positions;
    uint64_t size_codes[2];
} crosscheck;

static void no_location(perfbuf_error *e)
{
    e->status = PERFBUF_OK;
    e->offset = 0;
    e->structure = "";
    e->field = "";
}

/* Names a field of one buffer in the report, as a rejection would. */
static void locate(perfbuf_error *where, size_t structure_offset, pb_field_id field)
{
    pb_describe(where, PERFBUF_E_INCONSISTENT, structure_offset, field);
}

static perfbuf_status disagree(crosscheck *x, perfbuf_v2_mismatch_kind kind, uint32_t block_index,
                               uint32_t counter_id)
{
    x->out->kind = kind;
    x->out->block_index = block_index;
    x->out->counter_id = counter_id;
    return PERFBUF_E_INCONSISTENT;
}

static bool ids_ascending(const perfbuf_v2_reginfo *reg)
{
    perfbuf_v2_counter_reg prev;
    perfbuf_v2_counter_reg c;
    for (uint32_t i = 0; perfbuf_v2_reginfo_counter(reg, i, &c); i++) {
        if (i > 0 && prev.id >= c.id) {
            return false;
        }
        prev = c;
    }
    return true;
}

/* The registered counter with that id: O(log n) when the ids ascend. */
static bool lookup(const crosscheck *x, uint32_t id, perfbuf_v2_counter_reg *c)
{
    if (!x->reg_sorted) {
        return perfbuf_v2_reginfo_find(x->reg, id, c) == PERFBUF_OK;
    }
    uint32_t lo = 0;
    uint32_t hi = x->reg->counter_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (!perfbuf_v2_reginfo_counter(x->reg, mid, c)) {
            PB_UNREACHABLE();
            return false;
        }
        if (c->id == id) {
            return true;
        }
        if (c->id < id) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return false;
}

static bool same_guid(const perfbuf_guid *a, const perfbuf_guid *b)
{
    uint32_t differ = (a->data1 ^ b->data1) | (uint32_t)(a->data2 ^ b->data2) |
                      (uint32_t)(a->data3 ^ b->data3);
    return differ == 0 && memcmp(a->data4, b->data4, sizeof a->data4) == 0;
}

/* An identifier that asks this counterset for something and got it. */
static bool answered_here(const crosscheck *x, const perfbuf_v2_identifier *id)
{
    return id->status == 0 && same_guid(&id->counterset, &x->reg->counterset);
}

/*
 * The identifier whose results are in block `index`: the one with Status 0
 * and that Index (a failed one owns no block, whatever its Index says;
 * check_identifiers has made sure no two usable ones share an Index).
 * Scans on from where the last search ended and wraps once, so identifiers
 * in Index order cost one pass over them in all.
 */
static bool identifier_of_block(crosscheck *x, uint32_t index, perfbuf_v2_identifier *found)
{
    for (int lap = 0; lap < 2; lap++) {
        while (perfbuf_v2_identifiers_next(x->ids, &x->id_pos, found)) {
            if (found->status == 0 && found->query_index == index) {
                return true;
            }
        }
        perfbuf_v2_identifiers_begin(&x->id_pos);
    }
    return false;
}

/*
 * Two usable identifiers with one Index would both claim one block, and
 * whichever came first would decide whether it is checked. Called only
 * when the usable identifiers are not in strictly ascending Index order
 * (in order, no two can share one), so the quadratic scan is paid only
 * where the block searches are quadratic already.
 */
static perfbuf_status check_unique_indexes(crosscheck *x)
{
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifier id;
    perfbuf_v2_identifiers_begin(&it);
    for (uint32_t position = 0; perfbuf_v2_identifiers_next(x->ids, &it, &id); position++) {
        if (id.status != 0) {
            continue;
        }
        perfbuf_v2_list_iter before;
        perfbuf_v2_identifier earlier;
        perfbuf_v2_identifiers_begin(&before);
        for (uint32_t k = 0; k < position && perfbuf_v2_identifiers_next(x->ids, &before, &earlier);
             k++) {
            if (earlier.status == 0 && earlier.query_index == id.query_index) {
                locate(&x->out->in_identifiers, id.offset, PBF_PERF_COUNTER_IDENTIFIER_Index);
                return disagree(x, PERFBUF_V2_INDEX_DUPLICATE, id.query_index, id.counter_id);
            }
        }
    }
    return PERFBUF_OK;
}

/* Every identifier of this counterset points at a block and, when it names
 * one counter, at a registered one; no two usable identifiers (of any
 * counterset) point at the same block. Runs once, before the blocks, with
 * scratch of its own: kept out of perfbuf_v2_crosscheck's frame. */
PB_NOINLINE static perfbuf_status check_identifiers(crosscheck *x)
{
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifier id;
    perfbuf_v2_counter_reg c;
    bool ascending = true;
    bool seen_usable = false;
    uint32_t last_index = 0;
    perfbuf_v2_identifiers_begin(&it);
    while (perfbuf_v2_identifiers_next(x->ids, &it, &id)) {
        if (id.status != 0) {
            continue;
        }
        if (seen_usable && id.query_index <= last_index) {
            ascending = false;
        }
        seen_usable = true;
        last_index = id.query_index;
        if (!answered_here(x, &id)) {
            continue;
        }
        if (id.query_index >= x->q->block_count) {
            locate(&x->out->in_identifiers, id.offset, PBF_PERF_COUNTER_IDENTIFIER_Index);
            locate(&x->out->in_query, 0, PBF_PERF_DATA_HEADER_dwNumCounters);
            return disagree(x, PERFBUF_V2_INDEX_RANGE, id.query_index, id.counter_id);
        }
        if (id.counter_id != PERFBUF_V2_WILDCARD_COUNTER && !lookup(x, id.counter_id, &c)) {
            locate(&x->out->in_identifiers, id.offset, PBF_PERF_COUNTER_IDENTIFIER_CounterId);
            locate(&x->out->in_registration, 0, PBF_PERF_COUNTERSET_REG_INFO_NumCounters);
            return disagree(x, PERFBUF_V2_UNKNOWN_COUNTER, id.query_index, id.counter_id);
        }
    }
    return ascending ? PERFBUF_OK : check_unique_indexes(x);
}

static bool has_instances(perfbuf_v2_kind kind)
{
    return kind == PERFBUF_V2_MULTIPLE_INSTANCES || kind == PERFBUF_V2_COUNTERSET;
}

static bool has_id_list(perfbuf_v2_kind kind)
{
    return kind == PERFBUF_V2_MULTIPLE_COUNTERS || kind == PERFBUF_V2_COUNTERSET;
}

static uint32_t size_code(uint32_t size)
{
    return size == 0 ? SIZE_CODE_ZERO
         : size == 4 ? SIZE_CODE_DWORD
         : size == 8 ? SIZE_CODE_LARGE
                     : SIZE_CODE_VARIABLE;
}

static uint32_t size_of_code(uint32_t code)
{
    static const uint32_t sizes[4] = {0, 4, 8, PERFBUF_SIZE_VARIABLE};
    return sizes[code & 3u];
}

/*
 * The size a value must have (PERFBUF_SIZE_VARIABLE: any): of counter id,
 * at position `position` of its block's id list (or any position when the
 * block has no list). False when the registration lacks the counter. A
 * lookup uses the caller's *scratch, to keep one counter on the stack.
 */
static bool expected_size(crosscheck *x, bool cacheable, uint32_t position, uint32_t id,
                          perfbuf_v2_counter_reg *scratch, uint32_t *size)
{
    cacheable = cacheable && position < CACHED_POSITIONS;
    uint32_t word = position / 32u;
    uint32_t shift = (position % 32u) * 2u;
    if (cacheable && (x->known_positions >> position & 1u) != 0) {
        *size = size_of_code((uint32_t)(x->size_codes[word] >> shift));
        return true;
    }
    if (!lookup(x, id, scratch)) {
        return false;
    }
    *size = perfbuf_counter_type_size(scratch->type);
    if (cacheable) {
        x->size_codes[word] |= (uint64_t)size_code(*size) << shift;
        x->known_positions |= (uint64_t)1 << position;
    }
    return true;
}

static perfbuf_status check_values(crosscheck *x, const perfbuf_v2_block *b, perfbuf_v2_iter *it,
                                   uint32_t block_counter)
{
    perfbuf_v2_value v;
    perfbuf_v2_counter_reg c;
    while (perfbuf_v2_values_next(x->q, b, it, &v)) {
        bool listed = has_id_list(b->kind);
        uint32_t id = listed ? v.counter_id : block_counter;
        uint32_t expected;
        if (id == PERFBUF_V2_NO_COUNTER_ID) {
            continue;
        }
        if (!expected_size(x, listed, v.index, id, &c, &expected)) {
            /* Id lists are checked before their values; this is an
             * identifier's counter, checked before any block. */
            PB_UNREACHABLE();
            continue;
        }
        if (expected != PERFBUF_SIZE_VARIABLE && v.data_size != expected) {
            /* The size may have come from the cache: find the counter. */
            if (!lookup(x, id, &c)) {
                PB_UNREACHABLE();
                continue;
            }
            locate(&x->out->in_query, v.offset, PBF_PERF_COUNTER_DATA_dwDataSize);
            locate(&x->out->in_registration, c.offset, PBF_PERF_COUNTER_REG_INFO_Type);
            return disagree(x, PERFBUF_V2_VALUE_SIZE, b->index, id);
        }
    }
    return PERFBUF_OK;
}

static perfbuf_status check_block(crosscheck *x, const perfbuf_v2_block *b, uint32_t block_counter)
{
    /* PERF_COUNTERSET_FLAG_MULTIPLE: without it there are no instances. */
    if (has_instances(b->kind) && (x->reg->instance_type & PERFBUF_COUNTERSET_MULTI_INSTANCES) == 0) {
        locate(&x->out->in_query, b->offset, PBF_PERF_COUNTER_HEADER_dwType);
        locate(&x->out->in_registration, 0, PBF_PERF_COUNTERSET_REG_INFO_InstanceType);
        return disagree(x, PERFBUF_V2_RESULT_KIND, b->index, block_counter);
    }
    perfbuf_v2_counter_reg c;
    for (uint32_t i = 0; has_id_list(b->kind) && i < b->counter_count; i++) {
        uint32_t id = perfbuf_v2_block_counter_id(x->q, b, i);
        if (!lookup(x, id, &c)) {
            locate(&x->out->in_query, b->ids_offset + (size_t)i * PBS_PERF_MULTI_COUNTERS_ID,
                   PBF_PERF_MULTI_COUNTERS_ID_CounterId);
            locate(&x->out->in_registration, 0, PBF_PERF_COUNTERSET_REG_INFO_NumCounters);
            return disagree(x, PERFBUF_V2_UNKNOWN_COUNTER, b->index, id);
        }
    }
    x->known_positions = 0;
    x->size_codes[0] = 0;
    x->size_codes[1] = 0;
    perfbuf_v2_iter vi;
    perfbuf_v2_block_values_begin(b, &vi);
    perfbuf_status st = check_values(x, b, &vi, block_counter);
    perfbuf_v2_iter ii;
    perfbuf_v2_instance inst;
    perfbuf_v2_instances_begin(b, &ii);
    while (st == PERFBUF_OK && perfbuf_v2_instances_next(x->q, b, &ii, &inst)) {
        perfbuf_v2_instance_values_begin(&inst, &vi);
        st = check_values(x, b, &vi, block_counter);
    }
    return st;
}

perfbuf_status perfbuf_v2_crosscheck(const perfbuf_v2_query *q, const perfbuf_v2_reginfo *reg,
                                     const perfbuf_v2_identifiers *ids, perfbuf_v2_mismatch *out)
{
    if (q == NULL || reg == NULL || out == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    memset(out, 0, sizeof *out);
    out->kind = PERFBUF_V2_AGREE;
    no_location(&out->in_query);
    no_location(&out->in_registration);
    no_location(&out->in_identifiers);
    crosscheck x;
    memset(&x, 0, sizeof x);
    x.q = q;
    x.reg = reg;
    x.ids = ids;
    x.reg_sorted = ids_ascending(reg);
    x.out = out;
    perfbuf_status st = ids != NULL ? check_identifiers(&x) : PERFBUF_OK;
    if (ids != NULL) {
        perfbuf_v2_identifiers_begin(&x.id_pos);
    }
    perfbuf_v2_iter bi;
    perfbuf_v2_block b;
    perfbuf_v2_blocks_begin(q, &bi);
    while (st == PERFBUF_OK && perfbuf_v2_blocks_next(q, &bi, &b)) {
        if (b.kind == PERFBUF_V2_ERROR_RETURN) {
            continue;
        }
        uint32_t block_counter = PERFBUF_V2_NO_COUNTER_ID;
        if (ids != NULL) {
            perfbuf_v2_identifier id;
            if (!identifier_of_block(&x, b.index, &id) || !answered_here(&x, &id)) {
                continue;
            }
            block_counter = id.counter_id;
        }
        st = check_block(&x, &b, block_counter);
    }
    return st;
}
