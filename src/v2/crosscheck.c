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

#include "core/check.h"
#include "core/order.h"

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

/* How blocks find their identifier, decided once by check_identifiers. */
typedef enum {
    PAIR_IN_ORDER,      /* usable identifiers ascend by Index: one merge pass */
    PAIR_SMALL,         /* at most PERFBUF_V2_SMALL_SET identifiers: scanned */
    PAIR_SORTED         /* sorted by Index in the caller's scratch */
} pairing;

typedef struct crosscheck {
    const perfbuf_v2_query *q;
    const perfbuf_v2_reginfo *reg;
    const perfbuf_v2_identifiers *ids;
    pairing pairing;
    perfbuf_v2_list_iter id_pos;   /* PAIR_IN_ORDER: the next identifier */
    uint64_t *sorted;              /* PAIR_SORTED: Index << 32 | offset */
    size_t sorted_cap;
    size_t sorted_count;
    size_t sorted_next;
    perfbuf_v2_mismatch *out;
    /* The value sizes of the first CACHED_POSITIONS positions of the
     * current block's id list (2 bits each, SIZE_CODE_*): every instance
     * repeats the same ids, so most values skip the lookup. */
    uint64_t known_positions;
    uint64_t size_codes[2];
} crosscheck;

static void no_location(perfbuf_error *e)
{
    pb_error_set(e, PERFBUF_OK, 0, "", "");
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

/* The registered counter with that id: O(log n), as the view finds it. */
static bool lookup(const crosscheck *x, uint32_t id, perfbuf_v2_counter_reg *c)
{
    return perfbuf_v2_reginfo_find(x->reg, id, c) == PERFBUF_OK;
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

static bool usable(const perfbuf_v2_identifier *id)
{
    return id->status == 0;
}

/* The identifier whose PERF_COUNTER_IDENTIFIER starts at `offset`. */
static bool identifier_at(const crosscheck *x, size_t offset, perfbuf_v2_identifier *found)
{
    perfbuf_v2_list_iter it = {offset, 0};
    return perfbuf_v2_identifiers_next(x->ids, &it, found);
}

/*
 * The identifier whose results are in block `index`: the one with Status 0
 * and that Index (a failed one owns no block, whatever its Index says;
 * check_identifiers has made sure no two usable ones share an Index).
 * Blocks come in ascending index, so in order and sorted pairing each
 * advance a position that never goes back: one pass over the identifiers
 * for all the blocks together.
 */
static bool identifier_of_block(crosscheck *x, uint32_t index, perfbuf_v2_identifier *found)
{
    switch (x->pairing) {
    case PAIR_IN_ORDER:
        for (;;) {
            perfbuf_v2_list_iter peek = x->id_pos;
            if (!perfbuf_v2_identifiers_next(x->ids, &peek, found)) {
                return false;
            }
            if (usable(found) && found->query_index > index) {
                return false;
            }
            x->id_pos = peek;
            if (usable(found) && found->query_index == index) {
                return true;
            }
        }
    case PAIR_SORTED:
        while (x->sorted_next < x->sorted_count && x->sorted[x->sorted_next] >> 32 < index) {
            PB_WORK(1);
            x->sorted_next++;
        }
        if (x->sorted_next == x->sorted_count || x->sorted[x->sorted_next] >> 32 != index) {
            return false;
        }
        return identifier_at(x, (size_t)(uint32_t)x->sorted[x->sorted_next], found);
    case PAIR_SMALL:
        break;
    }
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifiers_begin(&it);
    while (perfbuf_v2_identifiers_next(x->ids, &it, found)) {
        if (usable(found) && found->query_index == index) {
            return true;
        }
    }
    return false;
}

static perfbuf_status duplicate_index(crosscheck *x, const perfbuf_v2_identifier *id)
{
    locate(&x->out->in_identifiers, id->offset, PBF_PERF_COUNTER_IDENTIFIER_Index);
    return disagree(x, PERFBUF_V2_INDEX_DUPLICATE, id->query_index, id->counter_id);
}

/* PAIR_SMALL: at most PERFBUF_V2_SMALL_SET identifiers, compared pairwise. */
static perfbuf_status small_unique_indexes(crosscheck *x)
{
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifier id;
    perfbuf_v2_identifiers_begin(&it);
    for (uint32_t position = 0; perfbuf_v2_identifiers_next(x->ids, &it, &id); position++) {
        perfbuf_v2_list_iter before;
        perfbuf_v2_identifier earlier;
        perfbuf_v2_identifiers_begin(&before);
        for (uint32_t k = 0; usable(&id) && k < position &&
                             perfbuf_v2_identifiers_next(x->ids, &before, &earlier);
             k++) {
            if (usable(&earlier) && earlier.query_index == id.query_index) {
                return duplicate_index(x, &id);
            }
        }
    }
    return PERFBUF_OK;
}

/* PAIR_SORTED: usable identifiers sorted by Index in the caller's scratch;
 * equal neighbours share one. The later one in the buffer is reported, of
 * the pair whose later one comes first, as the pairwise scan would. */
static perfbuf_status sorted_unique_indexes(crosscheck *x)
{
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifier id;
    size_t n = 0;
    perfbuf_v2_identifiers_begin(&it);
    while (perfbuf_v2_identifiers_next(x->ids, &it, &id)) {
        if (usable(&id)) {
            x->sorted[n++] = (uint64_t)id.query_index << 32 | (uint32_t)id.offset;
        }
    }
    pb_sort_u64(x->sorted, n);
    x->sorted_count = n;
    bool found = false;
    uint32_t first_later = 0;
    for (size_t k = 1; k < n; k++) {
        PB_WORK(1);
        if (x->sorted[k] >> 32 == x->sorted[k - 1] >> 32 &&
            (!found || (uint32_t)x->sorted[k] < first_later)) {
            first_later = (uint32_t)x->sorted[k];
            found = true;
        }
    }
    if (found && identifier_at(x, first_later, &id)) {
        return duplicate_index(x, &id);
    }
    return PERFBUF_OK;
}

/* Every identifier of this counterset points at a block and, when it names
 * one counter, at a registered one; no two usable identifiers (of any
 * counterset) point at the same block; and how blocks will find their
 * identifier. Runs once, before the blocks, with scratch of its own: kept
 * out of perfbuf_v2_crosscheck's frame. */
PB_NOINLINE static perfbuf_status check_identifiers(crosscheck *x)
{
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifier id;
    perfbuf_v2_counter_reg c;
    bool ascending = true;
    bool seen_usable = false;
    uint32_t last_index = 0;
    size_t first_unordered = 0;
    perfbuf_v2_identifiers_begin(&it);
    while (perfbuf_v2_identifiers_next(x->ids, &it, &id)) {
        if (!usable(&id)) {
            continue;
        }
        if (ascending && seen_usable && id.query_index <= last_index) {
            ascending = false;
            first_unordered = id.offset;
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
    if (ascending) {
        x->pairing = PAIR_IN_ORDER;
        return PERFBUF_OK;
    }
    if (x->ids->count <= PERFBUF_V2_SMALL_SET) {
        x->pairing = PAIR_SMALL;
        return small_unique_indexes(x);
    }
    /* Offsets go into 32 bits of a scratch entry. */
    if (x->sorted != NULL && x->sorted_cap >= x->ids->count && x->ids->size <= UINT32_MAX) {
        x->pairing = PAIR_SORTED;
        return sorted_unique_indexes(x);
    }
    pb_describe(&x->out->in_identifiers, PERFBUF_E_SCRATCH_NEEDED, first_unordered,
                PBF_PERF_COUNTER_IDENTIFIER_Index);
    return PERFBUF_E_SCRATCH_NEEDED;
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
        /* Id lists and identifiers' counters were found before any value,
         * so a lookup fails here only when the registration view's scratch
         * changed under it (reused by another parse): its ids are unknown. */
        if (!expected_size(x, listed, v.index, id, &c, &expected) ||
            (expected != PERFBUF_SIZE_VARIABLE && v.data_size != expected && !lookup(x, id, &c))) {
            locate(&x->out->in_query, v.offset, PBF_PERF_COUNTER_DATA_dwDataSize);
            locate(&x->out->in_registration, 0, PBF_PERF_COUNTERSET_REG_INFO_NumCounters);
            return disagree(x, PERFBUF_V2_UNKNOWN_COUNTER, b->index, id);
        }
        if (expected != PERFBUF_SIZE_VARIABLE && v.data_size != expected) {
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

static perfbuf_status run_crosscheck(const perfbuf_v2_query *q, const perfbuf_v2_reginfo *reg,
                                     const perfbuf_v2_identifiers *ids, uint64_t *scratch,
                                     size_t cap, perfbuf_v2_mismatch *out)
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
    x.sorted = scratch;
    x.sorted_cap = cap;
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

perfbuf_status perfbuf_v2_crosscheck(const perfbuf_v2_query *q, const perfbuf_v2_reginfo *reg,
                                     const perfbuf_v2_identifiers *ids, perfbuf_v2_mismatch *out)
{
    return run_crosscheck(q, reg, ids, NULL, 0, out);
}

perfbuf_status perfbuf_v2_crosscheck_indexed(const perfbuf_v2_query *q,
                                             const perfbuf_v2_reginfo *reg,
                                             const perfbuf_v2_identifiers *ids, uint64_t *scratch,
                                             size_t cap, perfbuf_v2_mismatch *out)
{
    if (scratch == NULL && cap != 0) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    return run_crosscheck(q, reg, ids, scratch, cap, out);
}
