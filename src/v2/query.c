/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * PerfLib V2 query data. The parse validates every structure once; the
 * views and iterators then read what it proved, at fixed offsets, without
 * judging it again (docs/v2-query.md, "Validate once, views trust").
 *
 * A cursor copied into a local whose address is taken is declared first
 * and then assigned: WP loses a copy that initializes such a local
 * (docs/proofs.md), and the compiler makes the same code of both.
 */
#include "perfbuf/v2_query.h"

#include "core/check.h"
#include "core/text.h"
#include "v2/internal.h"

/*@ assigns \nothing;
    ensures \result != \null;
*/
const char *perfbuf_v2_kind_name(uint32_t kind)
{
    switch (kind) {
    case PERFBUF_V2_ERROR_RETURN:
        return "PERF_ERROR_RETURN";
    case PERFBUF_V2_SINGLE_COUNTER:
        return "PERF_SINGLE_COUNTER";
    case PERFBUF_V2_MULTIPLE_COUNTERS:
        return "PERF_MULTIPLE_COUNTERS";
    case PERFBUF_V2_MULTIPLE_INSTANCES:
        return "PERF_MULTIPLE_INSTANCES";
    case PERFBUF_V2_COUNTERSET:
        return "PERF_COUNTERSET";
    default:
        return "unknown";
    }
}

/*@ assigns \nothing; */
static bool kind_is_known(uint32_t kind)
{
    return kind == PERFBUF_V2_ERROR_RETURN || kind == PERFBUF_V2_SINGLE_COUNTER ||
           kind == PERFBUF_V2_MULTIPLE_COUNTERS || kind == PERFBUF_V2_MULTIPLE_INSTANCES ||
           kind == PERFBUF_V2_COUNTERSET;
}

/*@ assigns \nothing; */
static bool kind_has_ids(uint32_t kind)
{
    return kind == PERFBUF_V2_MULTIPLE_COUNTERS || kind == PERFBUF_V2_COUNTERSET;
}

/*@ assigns \nothing; */
static bool kind_has_instances(uint32_t kind)
{
    return kind == PERFBUF_V2_MULTIPLE_INSTANCES || kind == PERFBUF_V2_COUNTERSET;
}

/*
 * What is left of a region after its last structure: padding up to the
 * next multiple of 8 (counted from the region's first byte) is allowed,
 * more is trailing bytes.
 */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid((pb_cursor *)region);
    requires 0 <= size_field < PB_FIELD_COUNT;
    assigns ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status check_leftover(pb_ctx *ctx, const pb_cursor *region, size_t structure_offset,
                                     pb_field_id size_field)
{
    size_t left = pb_cursor_remaining(region);
    if (left == 0 || left <= pb_pad8(pb_cursor_consumed(region))) {
        return PERFBUF_OK;
    }
    return pb_anomaly(ctx, PERFBUF_ANOMALY_TRAILING_BYTES, PERFBUF_E_TRAILING_BYTES,
                      structure_offset, size_field);
}

/* A size that covers a header and what follows it: at least the header,
 * inside the parent, a multiple of 8. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid((pb_cursor *)parent);
    requires 0 <= field < PB_FIELD_COUNT;
    assigns ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status check_block_size(pb_ctx *ctx, uint32_t size, size_t header_size,
                                       const pb_cursor *parent, size_t at, pb_field_id field)
{
    if (size < header_size) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_SMALL, at, field, size, header_size);
    }
    /* The header is already taken from parent: the size counts it too. */
    if (size - header_size > pb_cursor_remaining(parent)) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_LARGE, at, field, size,
                                (uint64_t)header_size + pb_cursor_remaining(parent));
    }
    if (size % 8 != 0) {
        return pb_anomaly(ctx, PERFBUF_ANOMALY_UNALIGNED_SIZE, PERFBUF_E_SIZE_UNALIGNED, at, field);
    }
    return PERFBUF_OK;
}

/* PERF_COUNTER_DATA: steps parent past it; *value covers the dwDataSize
 * bytes of the value. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(parent) && \valid(parent);
    requires \valid(value) && \separated(parent, value, ctx);
    requires ctx->err == \null || \separated(ctx->err, parent, value);
    assigns parent->pos, *value, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(parent) && pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status read_counter_data(pb_ctx *ctx, pb_cursor *parent, pb_cursor *value)
{
    size_t at = parent->pos;
    pb_cursor hdr;
    perfbuf_status st = pb_take_struct(ctx, parent, PBS_PERF_COUNTER_DATA,
                                       PBF_PERF_COUNTER_DATA_dwDataSize, &hdr);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint32_t data_size = pb_field32(&hdr, PBF_PERF_COUNTER_DATA_dwDataSize);
    uint32_t size = pb_field32(&hdr, PBF_PERF_COUNTER_DATA_dwSize);
    st = check_block_size(ctx, size, PBS_PERF_COUNTER_DATA, parent, at,
                                         PBF_PERF_COUNTER_DATA_dwSize);
    if (st != PERFBUF_OK) {
        return st;
    }
    size_t body_len = size - PBS_PERF_COUNTER_DATA;
    if (data_size > body_len) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_LARGE, at,
                                PBF_PERF_COUNTER_DATA_dwDataSize, data_size, body_len);
    }
    if (body_len - data_size > pb_pad8(PBS_PERF_COUNTER_DATA + (size_t)data_size)) {
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_EXCESS_PADDING, PERFBUF_E_EXCESS_PADDING, at,
                        PBF_PERF_COUNTER_DATA_dwSize);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    pb_cursor body;
    pb_take_checked(parent, body_len, &body);
    pb_take_checked(&body, data_size, value);
    return PERFBUF_OK;
}

/* The full judgement of one PERF_COUNTER_DATA, off the fast path. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(parent) && \valid(parent) && \separated(parent, ctx);
    requires ctx->err == \null || \separated(ctx->err, parent);
    assigns parent->pos, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(parent) && pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
PB_NOINLINE static perfbuf_status judge_counter_data(pb_ctx *ctx, pb_cursor *parent)
{
    pb_cursor value = pb_cursor_make(NULL, 0);
    return read_counter_data(ctx, parent, &value);
}

/* What the parse learns of a block's value sizes, for
 * PERFBUF_V2_LAYOUT_UNIFORM_VALUES: the dwSize of its first value (0 before
 * it), and whether any other differs. */
typedef struct value_sizes {
    uint32_t first;
    bool mixed;
} value_sizes;

/* The common value: its header and up to 8 bytes of data, padded to 8
 * (PERF_COUNTER_DATA is 8 bytes): every value of 4 or 8 bytes has it. */
enum { COMMON_VALUE_STRIDE = PBS_PERF_COUNTER_DATA + 8 };
_Static_assert(PBO_PERF_COUNTER_DATA_dwSize == PBO_PERF_COUNTER_DATA_dwDataSize + 4,
               "common_row_wrong reads dwDataSize and dwSize as one 64-bit word");

/*
 * skip_uniform_row's judgement of a row of COMMON_VALUE_STRIDE values,
 * with the stride known to the compiler. A value's dwDataSize and dwSize
 * read as one little-endian 64-bit word are dwSize << 32 | dwDataSize;
 * the test "dwSize is 16 and 16 - 8 - dwDataSize lies in [0, 8)" is
 * "dwSize is 16 and dwDataSize is 1 to 8", that is dwSize xor 16 is 0 and
 * (dwDataSize + 7) >> 3 is 1 (a dwDataSize of 0 gives 0). No operation
 * wraps: the sanitizers' unsigned-overflow check holds here too.
 */
/*@ requires \valid_read(row + (0 .. 16 * count - 1));
    assigns \nothing;
*/
static uint64_t common_row_wrong(const uint8_t *row, uint32_t count)
{
    uint64_t wrong = 0;
    /*@ loop invariant 0 <= i <= count;
        loop assigns i, wrong;
        loop variant count - i;
    */
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *value = row + (size_t)i * COMMON_VALUE_STRIDE;
        uint64_t word = pb_le64(value + PBO_PERF_COUNTER_DATA_dwDataSize);
        wrong |= ((word >> 32) ^ COMMON_VALUE_STRIDE) | (((word & 0xFFFFFFFFu) + 7u) >> 3 ^ 1u);
    }
    return wrong;
}

/*
 * The common row: count values that all have one dwSize, the block's (or,
 * for its first row, the first value's). The row's count x size bytes are
 * taken from the parent at once, so no value needs a bounds check of its
 * own, and each value is judged by the one test skip_counter_data makes
 * (below), folded without a branch: its dwSize is the row's, and the row's
 * size minus the header minus dwDataSize lies in [0, 8), which with a size
 * that is a multiple of 8 is "size = header + dwDataSize rounded up to 8".
 * False, with the parent unchanged, for any other row.
 */
/*@ requires pb_valid(parent) && \valid(parent);
    requires \valid(sizes) && \separated(parent, sizes);
    assigns *parent, sizes->first;
    ensures pb_valid(parent);
    ensures parent->bytes == \old(parent->bytes) && parent->start == \old(parent->start) &&
            parent->end == \old(parent->end);
*/
static bool skip_uniform_row(pb_cursor *parent, uint32_t count, value_sizes *sizes)
{
    uint32_t size = sizes->first;
    if (size == 0) {
        pb_cursor peek;
        peek = *parent;
        const uint8_t *first;
        if (!pb_cursor_take(&peek, PBS_PERF_COUNTER_DATA, &first)) {
            return false;
        }
        size = pb_le32(first + PBO_PERF_COUNTER_DATA_dwSize);
    }
    /* Two 32-bit factors: the product fits in 64 bits, and once it is at
     * most what remains it fits in a size_t. */
    uint64_t row_bytes = (uint64_t)count * size;
    //@ assert row_bytes == count * size;
    if (size < PBS_PERF_COUNTER_DATA || size % 8 != 0 || row_bytes > pb_cursor_remaining(parent)) {
        return false;
    }
    pb_cursor c;
    c = *parent;
    const uint8_t *row;
    if (!pb_cursor_take(&c, (size_t)row_bytes, &row)) {
        return false;
    }
    PB_WORK(count);
    uint64_t wrong;
    if (size == COMMON_VALUE_STRIDE) {
        wrong = common_row_wrong(row, count);
    } else {
        /* size is a multiple of 8, so the room after the header is too,
         * and "dwDataSize <= room < dwDataSize + 8" is "dwDataSize
         * rounded up to 8 is the room", with nothing that wraps. */
        uint64_t room = (uint64_t)size - PBS_PERF_COUNTER_DATA;
        wrong = 0;
        /*@ loop invariant 0 <= i <= count;
            loop assigns i, wrong;
            loop variant count - i;
        */
        for (uint32_t i = 0; i < count; i++) {
            //@ assert (i + 1) * size <= count * size;
            const uint8_t *value = row + (size_t)i * size;
            uint64_t data_size = pb_le32(value + PBO_PERF_COUNTER_DATA_dwDataSize);
            wrong |= (uint64_t)(pb_le32(value + PBO_PERF_COUNTER_DATA_dwSize) ^ size) |
                     (((data_size + 7u) & ~(uint64_t)7) ^ room);
        }
    }
    if (wrong != 0) {
        return false;
    }
    sizes->first = size;
    *parent = c;
    return true;
}

/*
 * skip_counter_data's slow path: the value at `at` judged in full. On a
 * copy, so that the fast path's cursor stays in registers; in a function
 * of its own, because WP models each copy in place as forgetting every
 * cell of the cursor, after which the provers could not see that the
 * caller's window was kept.
 */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(c) && \valid(c) && \separated(c, ctx);
    requires ctx->err == \null || \separated(ctx->err, c);
    requires c->start <= at <= c->end;
    assigns *c, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(c) && pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
    ensures c->bytes == \old(c->bytes) && c->start == \old(c->start) && c->end == \old(c->end);
*/
static perfbuf_status judge_value_at(pb_ctx *ctx, pb_cursor *c, size_t at)
{
    pb_cursor slow;
    slow = *c;
    slow.pos = at;
    perfbuf_status st = judge_counter_data(ctx, &slow);
    *c = slow;
    return st;
}

/*
 * count PERF_COUNTER_DATA in one pass. A row of one size goes through
 * skip_uniform_row. Otherwise each value is decoded at once and judged
 * by one test that stands for everything read_counter_data checks: a size
 * of exactly the header plus dwDataSize rounded up to 8 (at least the
 * header, a multiple of 8, holding the data, less than 8 bytes of padding),
 * inside the parent. Only a value that fails it (an error, or an anomaly a
 * lenient parse tolerates) goes back through read_counter_data, which names
 * what is wrong; so every path accepts exactly the same bytes. sizes
 * records whether every value had the block's first size.
 */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(parent) && \valid(parent);
    requires \valid(sizes) && \separated(parent, sizes, ctx);
    requires ctx->err == \null || \separated(ctx->err, parent, sizes);
    assigns *parent, *sizes, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(parent) && pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
    ensures parent->bytes == \old(parent->bytes) && parent->start == \old(parent->start) &&
            parent->end == \old(parent->end);
*/
static perfbuf_status skip_counter_data(pb_ctx *ctx, pb_cursor *parent, uint32_t count,
                                        value_sizes *sizes)
{
    if (count == 0 || skip_uniform_row(parent, count, sizes)) {
        return PERFBUF_OK;
    }
    /* A local copy keeps the cursor in registers through the loop. */
    pb_cursor c;
    c = *parent;
    uint32_t first = sizes->first;
    bool mixed = false;
    /*@ loop invariant 0 <= i <= count;
        loop invariant pb_valid(&c) && c.bytes == \at(parent->bytes, Pre) &&
                       c.start == \at(parent->start, Pre) && c.end == \at(parent->end, Pre);
        loop invariant pb_ctx_ok(ctx) && ctx->err == \at(ctx->err, Pre);
        loop assigns i, c, first, mixed, ctx->anomalies, ctx->first_anomaly, *\at(ctx->err, Pre);
        loop variant count - i;
    */
    for (uint32_t i = 0; i < count; i++) {
        size_t at = c.pos;
        const uint8_t *p;
        if (pb_cursor_take(&c, PBS_PERF_COUNTER_DATA, &p)) {
            uint64_t data_size = pb_le32(p + PBO_PERF_COUNTER_DATA_dwDataSize);
            uint32_t size = pb_le32(p + PBO_PERF_COUNTER_DATA_dwSize);
            first = first == 0 ? size : first;
            mixed |= size != first;
            /* The one size the rules accept without an anomaly: the
             * header, the data, and its padding to 8. */
            if (size == ((data_size + 7) & ~(uint64_t)7) + PBS_PERF_COUNTER_DATA &&
                pb_cursor_skip(&c, (size_t)size - PBS_PERF_COUNTER_DATA)) {
                continue;
            }
        }
        perfbuf_status st = judge_value_at(ctx, &c, at);
        if (st != PERFBUF_OK) {
            *parent = c;
            return st;
        }
    }
    sizes->first = first;
    sizes->mixed |= mixed;
    *parent = c;
    return PERFBUF_OK;
}

/*
 * Not a rule (a repeated or unordered id is accepted), a fact for the
 * views: PERFBUF_V2_LAYOUT_ASCENDING_IDS. The count ids (exact bytes) at
 * the cursor, read on a copy of it. A function of its own so that the
 * provers of read_id_list see at once that the cursor is only read.
 */
/*@ requires pb_valid((pb_cursor *)body);
    requires exact == count * 4;
    requires \valid(ascending) && \separated(ascending, body);
    assigns *ascending;
*/
static void ids_ascend(const pb_cursor *body, uint32_t count, size_t exact, bool *ascending)
{
    const uint8_t *ids;
    pb_cursor list;
    list = *body;
    if (count > 0 && pb_cursor_take(&list, exact, &ids) && ids != NULL) {
        PB_WORK(count);
        uint32_t previous = pb_le32(ids);
        /*@ loop invariant 1 <= i <= count;
            loop assigns i, previous, *ascending;
            loop variant count - i;
        */
        for (uint32_t i = 1; i < count && *ascending; i++) {
            uint32_t id = pb_le32(ids + (size_t)i * 4);
            *ascending = id > previous;
            previous = id;
        }
    }
}

/* PERF_MULTI_COUNTERS and its id list, then the padding to 8. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(body) && \valid(body);
    requires \valid(out) && \valid(ascending) && \separated(body, out, ascending, ctx);
    requires ctx->err == \null || \separated(ctx->err, body, out, ascending);
    assigns body->pos, out->counter_count, out->ids_offset, *ascending, ctx->anomalies,
            ctx->first_anomaly, *ctx->err;
    ensures pb_valid(body) && pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status read_id_list(pb_ctx *ctx, pb_cursor *body, perfbuf_v2_block *out,
                                   bool *ascending)
{
    size_t at = body->pos;
    pb_cursor hdr;
    perfbuf_status st = pb_take_struct(ctx, body, PBS_PERF_MULTI_COUNTERS,
                                       PBF_PERF_MULTI_COUNTERS_dwSize, &hdr);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint32_t size = pb_field32(&hdr, PBF_PERF_MULTI_COUNTERS_dwSize);
    uint32_t count = pb_field32(&hdr, PBF_PERF_MULTI_COUNTERS_dwCounters);
    if (size < PBS_PERF_MULTI_COUNTERS) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_SMALL, at,
                                PBF_PERF_MULTI_COUNTERS_dwSize, size, PBS_PERF_MULTI_COUNTERS);
    }
    size_t list_bytes = size - PBS_PERF_MULTI_COUNTERS;
    if (list_bytes > pb_cursor_remaining(body)) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_LARGE, at,
                                PBF_PERF_MULTI_COUNTERS_dwSize, size,
                                (uint64_t)PBS_PERF_MULTI_COUNTERS + pb_cursor_remaining(body));
    }
    /* count * 4 <= list_bytes, written so that it cannot overflow. */
    if (count > list_bytes / 4) {
        return pb_fail_compared(ctx, PERFBUF_E_COUNT_TOO_LARGE, at,
                                PBF_PERF_MULTI_COUNTERS_dwCounters, count, list_bytes / 4);
    }
    if (count > ctx->max_counters) {
        return pb_fail_compared(ctx, PERFBUF_E_LIMIT_EXCEEDED, at,
                                PBF_PERF_MULTI_COUNTERS_dwCounters, count, ctx->max_counters);
    }
    /* dwSize is 8 + 4n, possibly rounded up to 8; anything more is slack. */
    size_t exact = (size_t)count * 4;
    if (list_bytes - exact > pb_pad8(PBS_PERF_MULTI_COUNTERS + exact)) {
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_EXCESS_PADDING,
                                       PERFBUF_E_EXCESS_PADDING, at, PBF_PERF_MULTI_COUNTERS_dwSize);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    out->counter_count = count;
    out->ids_offset = body->pos;
    ids_ascend(body, count, exact, ascending);
    /* The next structure starts 8-aligned whether or not dwSize counted
     * the padding (docs/formats.md#o-5-perf_multi_counters-dwsize). */
    if (!pb_cursor_skip(body, list_bytes) || !pb_cursor_skip(body, pb_pad8(size))) {
        return pb_fail(ctx, PERFBUF_E_TRUNCATED, at, PBF_PERF_MULTI_COUNTERS_dwSize);
    }
    return PERFBUF_OK;
}

/* PERF_MULTI_INSTANCES: *region receives the instance blocks it covers. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(body) && \valid(body);
    requires \valid(out) && \valid(region) && \separated(body, out, region, ctx);
    requires ctx->err == \null || \separated(ctx->err, body, out, region);
    assigns body->pos, *region, out->instance_count, out->items_offset, out->items_end,
            ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(body) && pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
    ensures \result == PERFBUF_OK ==> pb_valid(region);
*/
static perfbuf_status read_instance_list(pb_ctx *ctx, pb_cursor *body, perfbuf_v2_block *out,
                                         pb_cursor *region)
{
    size_t at = body->pos;
    pb_cursor hdr;
    perfbuf_status st = pb_take_struct(ctx, body, PBS_PERF_MULTI_INSTANCES,
                                       PBF_PERF_MULTI_INSTANCES_dwTotalSize, &hdr);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint32_t total = pb_field32(&hdr, PBF_PERF_MULTI_INSTANCES_dwTotalSize);
    uint32_t count = pb_field32(&hdr, PBF_PERF_MULTI_INSTANCES_dwInstances);
    st = check_block_size(ctx, total, PBS_PERF_MULTI_INSTANCES, body, at,
                                         PBF_PERF_MULTI_INSTANCES_dwTotalSize);
    if (st != PERFBUF_OK) {
        return st;
    }
    size_t region_len = total - PBS_PERF_MULTI_INSTANCES;
    /* The smallest instance is a header and a NUL: 10 bytes. */
    if (count > region_len / (PBS_PERF_INSTANCE_HEADER + 2)) {
        return pb_fail_compared(ctx, PERFBUF_E_COUNT_TOO_LARGE, at,
                                PBF_PERF_MULTI_INSTANCES_dwInstances, count,
                                region_len / (PBS_PERF_INSTANCE_HEADER + 2));
    }
    if (count > ctx->max_instances) {
        return pb_fail_compared(ctx, PERFBUF_E_LIMIT_EXCEEDED, at,
                                PBF_PERF_MULTI_INSTANCES_dwInstances, count, ctx->max_instances);
    }
    pb_take_checked(body, region_len, region);
    out->instance_count = count;
    out->items_offset = region->start;
    out->items_end = region->end;
    return PERFBUF_OK;
}

/*
 * The common instance, decoded at once: a Size that is a multiple of 8
 * inside the region, a name with its NUL, padding shorter than 8. False,
 * with region unchanged, for anything else, which the full judgement in
 * pb_v2_read_instance then names.
 */
/*@ requires pb_valid(region) && \valid(region);
    requires \valid(out) && \separated(region, out);
    assigns *region, out->id, out->offset, out->size, out->name_offset, out->name_units,
            out->values_offset;
    ensures pb_valid(region);
    ensures region->bytes == \old(region->bytes) && region->start == \old(region->start) &&
            region->end == \old(region->end);
*/
static bool fast_instance_header(pb_cursor *region, perfbuf_v2_instance *out)
{
    pb_cursor c;
    c = *region;
    const uint8_t *hdr;
    if (!pb_cursor_take(&c, PBS_PERF_INSTANCE_HEADER, &hdr)) {
        return false;
    }
    uint32_t size = pb_le32(hdr + PBO_PERF_INSTANCE_HEADER_Size);
    pb_cursor name;
    size_t units;
    const uint8_t *name_bytes;
    if (size < PBS_PERF_INSTANCE_HEADER || size % 8 != 0 ||
        !pb_cursor_sub(&c, size - PBS_PERF_INSTANCE_HEADER, &name) ||
        !pb_cursor_take(&name, pb_cursor_size(&name), &name_bytes) ||
        !pb_v2_find_nul(name_bytes, pb_cursor_size(&name), &units) ||
        pb_cursor_size(&name) - (units + 1) * 2 >= 8) {
        return false;
    }
    out->id = pb_le32(hdr + PBO_PERF_INSTANCE_HEADER_InstanceId);
    out->offset = region->pos;
    out->size = size;
    out->name_offset = name.start;
    out->name_units = units;
    out->values_offset = c.pos;
    *region = c;
    return true;
}

/* PERF_INSTANCE_HEADER with its name; its value_count values follow. */
perfbuf_status pb_v2_read_instance(pb_ctx *ctx, pb_cursor *region, uint32_t value_count,
                                   perfbuf_v2_instance *out)
{
    size_t at = region->pos;
    pb_cursor hdr;
    perfbuf_status st = pb_take_struct(ctx, region, PBS_PERF_INSTANCE_HEADER,
                                       PBF_PERF_INSTANCE_HEADER_Size, &hdr);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint32_t size = pb_field32(&hdr, PBF_PERF_INSTANCE_HEADER_Size);
    uint32_t id = pb_field32(&hdr, PBF_PERF_INSTANCE_HEADER_InstanceId);
    st = check_block_size(ctx, size, PBS_PERF_INSTANCE_HEADER, region, at,
                                         PBF_PERF_INSTANCE_HEADER_Size);
    if (st != PERFBUF_OK) {
        return st;
    }
    pb_cursor name;
    pb_take_checked(region, size - PBS_PERF_INSTANCE_HEADER, &name);
    size_t units;
    if (!pb_utf16le_find_nul(&name, &units)) {
        return pb_fail(ctx, PERFBUF_E_UNTERMINATED_STRING, at, PBF_PERF_INSTANCE_HEADER_Name);
    }
    /* units < size / 2, so the name with its NUL fits in size. */
    size_t name_bytes = (units + 1) * 2;
    if (pb_cursor_size(&name) - name_bytes > pb_pad8(PBS_PERF_INSTANCE_HEADER + name_bytes)) {
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_EXCESS_PADDING, PERFBUF_E_EXCESS_PADDING, at,
                        PBF_PERF_INSTANCE_HEADER_Size);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    /* The provers reach the postcondition more easily in two steps. */
    //@ assert pb_valid(region);
    out->id = id;
    out->offset = at;
    out->size = size;
    out->name_offset = name.start;
    out->name_units = units;
    out->values_offset = region->pos;
    out->value_count = value_count;
    return PERFBUF_OK;
}

/*
 * read_block's steps sit in the static functions below, in the same
 * order: proved as one function, its goals (every check of the header
 * and of what the block contains merged into one postcondition) timed
 * out.
 */

/* What a block's header says. A call of its own: after it the provers see
 * at once that the cursors and the context were kept, which after nine
 * stores in a row they did not. */
/*@ requires \valid(out) && pb_valid((pb_cursor *)body) && \separated(out, body);
    assigns out->status, out->kind, out->offset, out->size, out->counter_count,
            out->instance_count, out->ids_offset, out->items_offset, out->items_end;
*/
static void describe_block(perfbuf_v2_block *out, uint32_t status, uint32_t kind, size_t at,
                           uint32_t size, const pb_cursor *body)
{
    out->status = status;
    out->kind = (perfbuf_v2_kind)kind;
    out->offset = at;
    out->size = size;
    out->counter_count = (kind == PERFBUF_V2_ERROR_RETURN) ? 0 : 1;
    out->instance_count = 0;
    out->ids_offset = 0;
    out->items_offset = body->pos;
    out->items_end = body->end;
}

/* A Reserved that is not 0: an anomaly. A call of its own, so that no
 * memory state of two branches is merged before the block's body is
 * carved. */
/*@ requires pb_ctx_ok(ctx);
    assigns ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status check_reserved(pb_ctx *ctx, uint32_t reserved, size_t at)
{
    if (reserved != 0) {
        return pb_anomaly(ctx, PERFBUF_ANOMALY_RESERVED_NONZERO, PERFBUF_E_RESERVED_NONZERO, at,
                          PBF_PERF_COUNTER_HEADER_Reserved);
    }
    return PERFBUF_OK;
}

/* The PERF_COUNTER_HEADER at `at`: *body receives the bytes it covers,
 * *kind its dwType, and out what the header says. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(blocks) && \valid(blocks);
    requires \valid(out) && \valid(body) && \valid(kind);
    requires \separated(blocks, out, body, kind, ctx);
    requires ctx->err == \null || \separated(ctx->err, blocks, out, body, kind);
    assigns blocks->pos, *body, *kind, *out, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(blocks) && pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
    ensures \result == PERFBUF_OK ==> pb_valid(body);
*/
static perfbuf_status read_block_header(pb_ctx *ctx, pb_cursor *blocks, size_t at,
                                        perfbuf_v2_block *out, pb_cursor *body, uint32_t *kind)
{
    pb_cursor hdr;
    perfbuf_status st = pb_take_struct(ctx, blocks, PBS_PERF_COUNTER_HEADER,
                                       PBF_PERF_COUNTER_HEADER_dwStatus, &hdr);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint32_t status = pb_field32(&hdr, PBF_PERF_COUNTER_HEADER_dwStatus);
    uint32_t type = pb_field32(&hdr, PBF_PERF_COUNTER_HEADER_dwType);
    uint32_t size = pb_field32(&hdr, PBF_PERF_COUNTER_HEADER_dwSize);
    uint32_t reserved = pb_field32(&hdr, PBF_PERF_COUNTER_HEADER_Reserved);
    st = check_block_size(ctx, size, PBS_PERF_COUNTER_HEADER, blocks, at,
                                         PBF_PERF_COUNTER_HEADER_dwSize);
    if (st != PERFBUF_OK) {
        return st;
    }
    if (!kind_is_known(type)) {
        return pb_fail(ctx, PERFBUF_E_UNKNOWN_VALUE, at, PBF_PERF_COUNTER_HEADER_dwType);
    }
    st = check_reserved(ctx, reserved, at);
    if (st != PERFBUF_OK) {
        return st;
    }
    pb_take_checked(blocks, size - PBS_PERF_COUNTER_HEADER, body);
    describe_block(out, status, type, at, size, body);
    *kind = type;
    return PERFBUF_OK;
}

/* One instance of a block: its header and name, then its values. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(region) && \valid(region);
    requires \valid(sizes) && \separated(region, sizes, ctx);
    requires ctx->err == \null || \separated(ctx->err, region, sizes);
    assigns *region, *sizes, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(region) && pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status read_instance_values(pb_ctx *ctx, pb_cursor *region, uint32_t counter_count,
                                           value_sizes *sizes)
{
    perfbuf_v2_instance inst;
    if (!fast_instance_header(region, &inst)) {
        perfbuf_status st = pb_v2_read_instance(ctx, region, counter_count, &inst);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    return skip_counter_data(ctx, region, counter_count, sizes);
}

/* PERF_MULTI_INSTANCES and its instances, each with its values. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(body) && \valid(body);
    requires \valid(out) && \valid(sizes) && \separated(body, out, sizes, ctx);
    requires ctx->err == \null || \separated(ctx->err, body, out, sizes);
    assigns body->pos, out->instance_count, out->items_offset, out->items_end, *sizes,
            ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(body) && pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status read_instances(pb_ctx *ctx, pb_cursor *body, perfbuf_v2_block *out,
                                     value_sizes *sizes)
{
    pb_cursor region = pb_cursor_make(NULL, 0);
    perfbuf_status st = read_instance_list(ctx, body, out, &region);
    if (st != PERFBUF_OK) {
        return st;
    }
    /*@ loop invariant 0 <= i <= out->instance_count;
        loop invariant pb_valid(&region) && pb_ctx_ok(ctx) && ctx->err == \at(ctx->err, Pre);
        loop assigns i, st, region, *sizes, ctx->anomalies, ctx->first_anomaly, *\at(ctx->err, Pre);
        loop variant out->instance_count - i;
    */
    for (uint32_t i = 0; i < out->instance_count; i++) {
        st = read_instance_values(ctx, &region, out->counter_count, sizes);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    return check_leftover(ctx, &region, region.start - PBS_PERF_MULTI_INSTANCES,
                          PBF_PERF_MULTI_INSTANCES_dwTotalSize);
}

/* One PERF_COUNTER_HEADER block and everything it contains. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(blocks) && \valid(blocks);
    requires \valid(out) && \valid(layout) && \separated(blocks, out, layout, ctx);
    requires ctx->err == \null || \separated(ctx->err, blocks, out, layout);
    assigns blocks->pos, *out, *layout, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(blocks) && pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
PB_NOINLINE static perfbuf_status read_block(pb_ctx *ctx, pb_cursor *blocks,
                                              perfbuf_v2_block *out, uint32_t *layout)
{
    size_t at = blocks->pos;
    /* Set here although read_block_header sets both before any success: gcc
     * at -O2 cannot see that (-Wmaybe-uninitialized). Assigned on a line of
     * its own, as WP loses a copy that initializes an address-taken local. */
    pb_cursor body;
    body = pb_cursor_make(NULL, 0);
    uint32_t kind = 0;
    perfbuf_status st = read_block_header(ctx, blocks, at, out, &body, &kind);
    if (st != PERFBUF_OK) {
        return st;
    }

    bool ascending = true;
    value_sizes sizes = {0, false};
    if (kind_has_ids(kind)) {
        st = read_id_list(ctx, &body, out, &ascending);
        if (st != PERFBUF_OK) {
            return st;
        }
        out->items_offset = body.pos;
    }
    if (kind_has_instances(kind)) {
        st = read_instances(ctx, &body, out, &sizes);
    } else {
        st = skip_counter_data(ctx, &body, out->counter_count, &sizes);
    }
    if (st != PERFBUF_OK) {
        return st;
    }
    if (sizes.mixed) {
        *layout &= ~PERFBUF_V2_LAYOUT_UNIFORM_VALUES;
    }
    if (!ascending) {
        *layout &= ~PERFBUF_V2_LAYOUT_ASCENDING_IDS;
    }
    return check_leftover(ctx, &body, at, PBF_PERF_COUNTER_HEADER_dwSize);
}

/* Clears the answer. A call rather than the copy in place: WP models a
 * structure copy as forgetting every cell under *out, after which each
 * later call made the provers show again that the context was kept. */
/*@ requires \valid(out);
    assigns *out;
*/
static void clear_query(perfbuf_v2_query *out)
{
    perfbuf_v2_query zero = {0};
    *out = zero;
}

/* Stores the finished answer into the caller's, for the same reason a
 * call: q's fields, then what the walk learnt (the anomalies it tolerated
 * and the layout). The provers do not take a field back out of a
 * structure copy, so the two fields the parse's postcondition names are
 * stored again: the caller's data and the size the header gave. */
/*@ requires \valid(out) && \valid_read(q) && \valid_read(ctx);
    requires \separated(out, q, ctx);
    assigns *out;
    ensures out->data == data && out->size == size;
*/
static void store_query(perfbuf_v2_query *out, const perfbuf_v2_query *q, const pb_ctx *ctx,
                        uint32_t layout, const uint8_t *data, size_t size)
{
    *out = *q;
    out->anomalies = ctx->anomalies;
    out->first_anomaly = ctx->first_anomaly;
    out->layout = layout;
    out->data = data;
    out->size = size;
}

/* The parse's first step, a function of its own as parse_reginfo's
 * (src/v2/meta.c): as one function with the block walk, the walk's
 * invariant on the context was not shown to hold on entry. The
 * PERF_DATA_HEADER's fields into *q, its TotalSize judged against the
 * bytes received, the blocks' bytes carved into *blocks, and NumCounters
 * judged against them and the limit. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid((pb_cursor *)hdr) && pb_valid(all) && \valid(all);
    requires \valid(q) && \valid(blocks);
    requires \separated(ctx, hdr, all, q, blocks);
    requires ctx->err == \null || \separated(ctx->err, hdr, all, q, blocks);
    assigns all->pos, *blocks, q->perf_time_stamp, q->perf_time_100ns, q->perf_freq,
            q->system_time, q->received, q->size, q->block_count,
            ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
    ensures \result == PERFBUF_OK ==> pb_valid(blocks) && q->size <= received;
*/
static perfbuf_status read_query_header(pb_ctx *ctx, const pb_cursor *hdr, pb_cursor *all,
                                        size_t received, perfbuf_v2_query *q, pb_cursor *blocks)
{
    perfbuf_status st = PERFBUF_OK;
    uint32_t total = pb_field32(hdr, PBF_PERF_DATA_HEADER_dwTotalSize);
    uint32_t count = pb_field32(hdr, PBF_PERF_DATA_HEADER_dwNumCounters);
    q->perf_time_stamp = pb_i64(pb_field64(hdr, PBF_PERF_DATA_HEADER_PerfTimeStamp));
    q->perf_time_100ns = pb_i64(pb_field64(hdr, PBF_PERF_DATA_HEADER_PerfTime100NSec));
    q->perf_freq = pb_i64(pb_field64(hdr, PBF_PERF_DATA_HEADER_PerfFreq));
    q->system_time = pb_field_systemtime(hdr, PBF_PERF_DATA_HEADER_SystemTime);
    if (total < PBS_PERF_DATA_HEADER) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_SMALL, 0,
                                PBF_PERF_DATA_HEADER_dwTotalSize, total, PBS_PERF_DATA_HEADER);
    }
    if (total > received) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_EXCEEDS_RECEIVED, 0,
                                PBF_PERF_DATA_HEADER_dwTotalSize, total, received);
    }
    if (total % 8 != 0) {
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_UNALIGNED_SIZE, PERFBUF_E_SIZE_UNALIGNED, 0,
                        PBF_PERF_DATA_HEADER_dwTotalSize);
    } else if (total < received) {
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_TRAILING_BYTES, PERFBUF_E_TRAILING_BYTES, 0,
                        PBF_PERF_DATA_HEADER_dwTotalSize);
    }
    if (st != PERFBUF_OK) {
        return st;
    }
    pb_take_checked(all, total - PBS_PERF_DATA_HEADER, blocks);
    if (count > pb_cursor_remaining(blocks) / PBS_PERF_COUNTER_HEADER) {
        return pb_fail_compared(ctx, PERFBUF_E_COUNT_TOO_LARGE, 0,
                                PBF_PERF_DATA_HEADER_dwNumCounters, count,
                                pb_cursor_remaining(blocks) / PBS_PERF_COUNTER_HEADER);
    }
    if (count > ctx->max_sections) {
        return pb_fail_compared(ctx, PERFBUF_E_LIMIT_EXCEEDED, 0,
                                PBF_PERF_DATA_HEADER_dwNumCounters, count, ctx->max_sections);
    }
    q->received = received;
    q->size = total;
    q->block_count = count;
    return PERFBUF_OK;
}

/*@ requires data == \null || \valid_read((const uint8_t *)data + (0 .. received - 1));
    requires opts == \null || \valid_read(opts);
    requires out == \null || \valid(out);
    requires err == \null || \valid(err);
    requires out == \null || err == \null || \separated(out, err);
    assigns *out, *err;
    ensures \result == PERFBUF_OK ==> pb_v2_query_ok(out);
*/
perfbuf_status perfbuf_v2_query_parse(const void *data, size_t received,
                                      const perfbuf_options *opts, perfbuf_v2_query *out,
                                      perfbuf_error *err)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, opts, err);
    if (pb_check_arguments(&ctx, data, received, out) != PERFBUF_OK) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    clear_query(out);

    pb_cursor all = pb_cursor_make((const uint8_t *)data, received);
    pb_cursor hdr;
    perfbuf_status st = pb_take_struct(&ctx, &all, PBS_PERF_DATA_HEADER,
                                       PBF_PERF_DATA_HEADER_dwTotalSize, &hdr);
    if (st != PERFBUF_OK) {
        return st;
    }
    perfbuf_v2_query q;
    clear_query(&q);
    pb_cursor blocks;
    st = read_query_header(&ctx, &hdr, &all, received, &q, &blocks);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint32_t count = q.block_count;
    uint32_t layout = PERFBUF_V2_LAYOUT_UNIFORM_VALUES | PERFBUF_V2_LAYOUT_ASCENDING_IDS;
    /*@ loop invariant 0 <= i <= count;
        loop invariant pb_valid(&blocks) && pb_ctx_ok(&ctx) && ctx.err == err;
        loop assigns i, st, blocks.pos, layout, ctx.anomalies, ctx.first_anomaly, *err;
        loop variant count - i;
    */
    for (uint32_t i = 0; i < count; i++) {
        perfbuf_v2_block block;
        st = read_block(&ctx, &blocks, &block, &layout);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    st = check_leftover(&ctx, &blocks, 0, PBF_PERF_DATA_HEADER_dwNumCounters);
    if (st != PERFBUF_OK) {
        return st;
    }
    store_query(out, &q, &ctx, layout, (const uint8_t *)data, q.size);
    return PERFBUF_OK;
}

/* ---- views of a validated buffer ----
 *
 * The parse proved every structure below: the views read their fields at
 * fixed offsets and follow their sizes without judging them again (no
 * size rules, no anomalies, no limits). Every read still goes through the
 * cursor, bounded by the buffer, and every step moves forward by at least
 * a header; so a view or iterator of another buffer (a caller's mix-up)
 * stops with false or a documented status, never reads outside the buffer
 * and never loops. fuzz/oracle_v2_query.h checks that, on every buffer the
 * parse accepts, each view equals an independent validating walk.
 */

/* pb_window, inline: it runs once per value. */
/*@ requires pb_v2_query_ok((perfbuf_v2_query *)q);
    assigns \nothing;
    ensures pb_valid_view(\result);
*/
static inline pb_cursor window(const perfbuf_v2_query *q, size_t pos, size_t end)
{
    return pb_v2_window(q, pos, end);
}

/* The header of a structure of `size` bytes at the cursor, and the n bytes
 * its first size field says follow it (n = field - size), or false. */
/*@ requires pb_valid(c) && \valid(c);
    requires size_field_offset + 4 <= header;
    requires \valid(hdr) && \valid(body) && \separated(c, hdr, body);
    assigns c->pos, *hdr, *body;
    ensures pb_valid(c);
    ensures \result ==> c->pos == \old(c->pos) + header;
    ensures \result ==> \valid_read(*hdr + (0 .. header - 1));
    ensures \result ==> *body <= c->end - c->pos;
    ensures !\result ==> c->pos == \old(c->pos);
*/
static bool take_sized(pb_cursor *c, size_t header, size_t size_field_offset,
                       const uint8_t **hdr, size_t *body)
{
    size_t at = c->pos;
    if (!pb_cursor_take(c, header, hdr)) {
        return false;
    }
    uint32_t size = pb_le32(*hdr + size_field_offset);
    if (size < header || size - header > pb_cursor_remaining(c)) {
        c->pos = at;
        return false;
    }
    *body = size - header;
    return true;
}

/* One block as the parse saw it: header, id list, instance list. */
/*@ requires pb_valid(blocks) && \valid(blocks);
    requires \valid(out) && \separated(blocks, out);
    assigns blocks->pos, *out;
    ensures pb_valid(blocks);
*/
PB_NOINLINE static bool view_block(pb_cursor *blocks, perfbuf_v2_block *out)
{
    size_t at = blocks->pos;
    const uint8_t *hdr;
    size_t body_len;
    if (!take_sized(blocks, PBS_PERF_COUNTER_HEADER, PBO_PERF_COUNTER_HEADER_dwSize, &hdr,
                    &body_len)) {
        return false;
    }
    uint32_t kind = pb_le32(hdr + PBO_PERF_COUNTER_HEADER_dwType);
    if (!kind_is_known(kind)) {
        return false;
    }
    pb_cursor body;
    pb_take_checked(blocks, body_len, &body);
    out->status = pb_le32(hdr + PBO_PERF_COUNTER_HEADER_dwStatus);
    out->kind = (perfbuf_v2_kind)kind;
    out->offset = at;
    out->size = body_len + PBS_PERF_COUNTER_HEADER;
    out->counter_count = (kind == PERFBUF_V2_ERROR_RETURN) ? 0 : 1;
    out->instance_count = 0;
    out->ids_offset = 0;
    out->items_end = body.end;
    const uint8_t *list;
    size_t list_bytes;
    if (kind_has_ids(kind)) {
        if (!take_sized(&body, PBS_PERF_MULTI_COUNTERS, PBO_PERF_MULTI_COUNTERS_dwSize, &list,
                        &list_bytes)) {
            return false;
        }
        uint32_t count = pb_le32(list + PBO_PERF_MULTI_COUNTERS_dwCounters);
        out->ids_offset = body.pos;
        if (count > list_bytes / 4 ||
            !pb_cursor_skip(&body, list_bytes + pb_pad8(list_bytes + PBS_PERF_MULTI_COUNTERS))) {
            return false;
        }
        out->counter_count = count;
    }
    out->items_offset = body.pos;
    if (kind_has_instances(kind)) {
        if (!take_sized(&body, PBS_PERF_MULTI_INSTANCES, PBO_PERF_MULTI_INSTANCES_dwTotalSize,
                        &list, &list_bytes)) {
            return false;
        }
        out->instance_count = pb_le32(list + PBO_PERF_MULTI_INSTANCES_dwInstances);
        out->items_offset = body.pos;
        out->items_end = body.pos + list_bytes;
    }
    return true;
}

/*@ requires \valid_read(q) && \valid(it) && \separated(q, it);
    assigns *it;
*/
void perfbuf_v2_blocks_begin(const perfbuf_v2_query *q, perfbuf_v2_iter *it)
{
    it->pos = PBS_PERF_DATA_HEADER;
    it->end = q->size;
    it->next_index = 0;
    it->count = q->block_count;
}

/*@ requires pb_v2_query_ok((perfbuf_v2_query *)q);
    requires \valid(it) && \valid(out) && \separated(q, it, out);
    assigns *it, *out;
*/
bool perfbuf_v2_blocks_next(const perfbuf_v2_query *q, perfbuf_v2_iter *it, perfbuf_v2_block *out)
{
    if (it->next_index >= it->count) {
        return false;
    }
    pb_cursor c = window(q, it->pos, it->end);
    if (!view_block(&c, out)) {
        /* An iterator or view of another buffer: nothing to read. */
        it->next_index = it->count;
        return false;
    }
    out->index = it->next_index++;
    it->pos = c.pos;
    return true;
}

/*@ requires pb_v2_query_ok((perfbuf_v2_query *)q);
    requires \valid_read(block);
    assigns \nothing;
*/
uint32_t perfbuf_v2_block_counter_id(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                                     uint32_t i)
{
    if (!kind_has_ids(block->kind) || i >= block->counter_count) {
        return PERFBUF_V2_NO_COUNTER_ID;
    }
    pb_cursor ids = window(q, block->ids_offset, block->items_offset);
    uint32_t id;
    if (!pb_cursor_get_u32(&ids, (size_t)i * 4, &id)) {
        /* An iterator or view of another buffer: nothing to read. */
        return PERFBUF_V2_NO_COUNTER_ID;
    }
    return id;
}

/*@ requires \valid_read(block) && \valid(it) && \separated(block, it);
    assigns *it;
*/
void perfbuf_v2_instances_begin(const perfbuf_v2_block *block, perfbuf_v2_iter *it)
{
    it->pos = block->items_offset;
    it->end = block->items_end;
    it->next_index = 0;
    it->count = kind_has_instances(block->kind) ? block->instance_count : 0;
}

/* PERF_COUNTER_DATA at the cursor: its value's bytes, and the cursor past
 * it; or false. */
/*@ requires pb_valid(c) && \valid(c);
    requires \valid(value) && \separated(c, value);
    assigns c->pos, *value;
    ensures pb_valid(c);
    ensures \result ==> pb_valid(value);
*/
static inline bool view_counter_data(pb_cursor *c, pb_cursor *value)
{
    const uint8_t *hdr;
    size_t body_len;
    if (!take_sized(c, PBS_PERF_COUNTER_DATA, PBO_PERF_COUNTER_DATA_dwSize, &hdr, &body_len)) {
        return false;
    }
    uint32_t data_size = pb_le32(hdr + PBO_PERF_COUNTER_DATA_dwDataSize);
    if (data_size > body_len) {
        return false;
    }
    pb_cursor body;
    pb_take_checked(c, body_len, &body);
    pb_take_checked(&body, data_size, value);
    return true;
}

/* An instance's header and name up to its NUL, as the parse saw them;
 * region is left at its first value. */
/*@ requires pb_valid(region) && \valid(region);
    requires \valid(out) && \separated(region, out);
    assigns region->pos, *out;
    ensures pb_valid(region);
*/
static bool view_instance_header(pb_cursor *region, uint32_t value_count,
                                 perfbuf_v2_instance *out)
{
    size_t at = region->pos;
    const uint8_t *hdr;
    size_t name_len;
    if (!take_sized(region, PBS_PERF_INSTANCE_HEADER, PBO_PERF_INSTANCE_HEADER_Size, &hdr,
                    &name_len)) {
        return false;
    }
    size_t name_offset = region->pos;
    const uint8_t *name;
    size_t units;
    if (!pb_cursor_take(region, name_len, &name) || !pb_v2_find_nul(name, name_len, &units)) {
        return false;
    }
    out->id = pb_le32(hdr + PBO_PERF_INSTANCE_HEADER_InstanceId);
    out->offset = at;
    out->size = name_len + PBS_PERF_INSTANCE_HEADER;
    out->name_offset = name_offset;
    out->name_units = units;
    out->values_offset = region->pos;
    out->value_count = value_count;
    return true;
}

/* An instance as the parse saw it: header, name, and past its values. */
/*@ requires \valid_read(q);
    requires pb_valid(region) && \valid(region);
    requires \valid(out) && \separated(q, region, out);
    assigns *region, *out;
    ensures pb_valid(region);
*/
static bool view_instance(const perfbuf_v2_query *q, pb_cursor *region, uint32_t value_count,
                          perfbuf_v2_instance *out)
{
    if (!view_instance_header(region, value_count, out)) {
        return false;
    }
    /* Only the sizes are needed to step over the values; when the parse
     * proved that they are all the first one's, their count times it. */
    pb_cursor c;
    c = *region;
    const uint8_t *first;
    pb_cursor peek;
    peek = c;
    if ((q->layout & PERFBUF_V2_LAYOUT_UNIFORM_VALUES) != 0 && value_count > 0 &&
        pb_cursor_take(&peek, PBS_PERF_COUNTER_DATA, &first)) {
        uint32_t size = pb_le32(first + PBO_PERF_COUNTER_DATA_dwSize);
        uint64_t row_bytes = (uint64_t)value_count * size;
        if (size >= PBS_PERF_COUNTER_DATA && row_bytes <= pb_cursor_remaining(&c) &&
            pb_cursor_skip(&c, (size_t)row_bytes)) {
            *region = c;
            return true;
        }
    }
    /*@ loop invariant 0 <= i <= value_count;
        loop invariant pb_valid(&c);
        loop assigns i, c.pos;
        loop variant value_count - i;
    */
    for (uint32_t i = 0; i < value_count; i++) {
        const uint8_t *value_hdr;
        if (!pb_cursor_take(&c, PBS_PERF_COUNTER_DATA, &value_hdr)) {
            return false;
        }
        uint32_t size = pb_le32(value_hdr + PBO_PERF_COUNTER_DATA_dwSize);
        if (size < PBS_PERF_COUNTER_DATA || !pb_cursor_skip(&c, size - PBS_PERF_COUNTER_DATA)) {
            return false;
        }
    }
    *region = c;
    return true;
}

/* read_row_at_stride is copied into its caller with its stride: the
 * common one a constant, each value's place needs no multiplication. */
#if defined(__GNUC__) || defined(__clang__)
#  define ROW_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#  define ROW_ALWAYS_INLINE inline
#endif

/* count values of `stride` bytes (at least the header) at row, bytes the
 * cursor handed out, into values: the number that are not integers, or
 * UINT32_MAX at the first whose dwSize is not the stride or whose
 * dwDataSize exceeds the room after the header. */
/*@ requires PBS_PERF_COUNTER_DATA <= stride;
    requires \valid_read(row + (0 .. count * stride - 1));
    requires \valid(values + (0 .. count - 1));
    assigns values[0 .. count - 1];
*/
static ROW_ALWAYS_INLINE uint32_t read_row_at_stride(const uint8_t *row, uint32_t count,
                                                     uint32_t stride, uint64_t *values)
{
    uint32_t room = stride - PBS_PERF_COUNTER_DATA;
    uint32_t others = 0;
    /* Four values per iteration: the loop's own count, pointers and branch
     * were a third of a value's instructions. */
#if defined(__GNUC__) || defined(__clang__)
    _Pragma("GCC unroll 4")
#endif
    /*@ loop invariant 0 <= i <= count;
        loop assigns i, others, values[0 .. count - 1];
        loop variant count - i;
    */
    for (uint32_t i = 0; i < count; i++) {
        PB_WORK(1);
        /*@ assert i * stride + stride <= count * stride; */
        const uint8_t *value = row + (size_t)i * stride;
        uint32_t data_size = pb_le32(value + PBO_PERF_COUNTER_DATA_dwDataSize);
        if (pb_le32(value + PBO_PERF_COUNTER_DATA_dwSize) != stride || data_size > room) {
            return UINT32_MAX;
        }
        const uint8_t *body = value + PBS_PERF_COUNTER_DATA;
        uint64_t v = 0;
        if (data_size == 8) {
            v = (uint64_t)pb_le32(body) | (uint64_t)pb_le32(body + 4) << 32;
        } else if (data_size == 4) {
            v = pb_le32(body);
        } else {
            others++;
        }
        values[i] = v;
    }
    return others;
}

/*
 * The common row: every value the same dwSize as the first (a producer
 * writes one PERF_COUNTER_DATA layout per counterset). The row's
 * count x dwSize bytes are taken from the cursor at once, and each value's
 * place is then a multiple of the stride, not the sum of the sizes before
 * it: the loads of one value no longer wait on the last. Every dwSize is
 * still compared with the stride and every dwDataSize with the room after
 * the header, so a row that is not uniform is left to the general walk.
 */
/*@ requires pb_valid(region) && \valid(region);
    requires \valid(values + (0 .. count - 1)) && \valid(non_integers);
    requires \separated(region, values + (0 .. count - 1), non_integers);
    assigns *region, values[0 .. count - 1], *non_integers;
    ensures pb_valid(region);
*/
static ROW_ALWAYS_INLINE bool read_uniform_values(pb_cursor *region, uint32_t count,
                                                  uint64_t *values, uint32_t *non_integers)
{
    pb_cursor c;
    c = *region;
    pb_cursor first;
    first = c;
    const uint8_t *hdr;
    if (count == 0 || !pb_cursor_take(&first, PBS_PERF_COUNTER_DATA, &hdr)) {
        return false;
    }
    uint32_t stride = pb_le32(hdr + PBO_PERF_COUNTER_DATA_dwSize);
    const uint8_t *row;
    /* Two 32-bit factors: the product fits in 64 bits, and once it is at
     * most what remains it fits in a size_t (no division per row). */
    uint64_t row_bytes = (uint64_t)count * stride;
    if (stride < PBS_PERF_COUNTER_DATA || row_bytes > pb_cursor_remaining(&c) ||
        !pb_cursor_take(&c, (size_t)row_bytes, &row)) {
        return false;
    }
    uint32_t others = stride == COMMON_VALUE_STRIDE
                          ? read_row_at_stride(row, count, COMMON_VALUE_STRIDE, values)
                          : read_row_at_stride(row, count, stride, values);
    if (others == UINT32_MAX) {
        return false;
    }
    *region = c;
    *non_integers = others;
    return true;
}

/*@ requires pb_valid(region) && \valid(region);
    requires \valid(values + (0 .. count - 1)) && \valid(done) && \valid(non_integers);
    requires \separated(region, values + (0 .. count - 1), done, non_integers);
    assigns *region, values[0 .. count - 1], *done, *non_integers;
    ensures pb_valid(region);
*/
static bool walk_values(pb_cursor *region, uint32_t count, uint64_t *values, uint32_t *done,
                        uint32_t *non_integers);

/*
 * count PERF_COUNTER_DATA at the cursor into values[0, count): the
 * integer, or 0 for a value of another size (counted). False, with *done
 * values written, where a size does not hold (a view of another buffer).
 */
/*@ requires pb_valid(region) && \valid(region);
    requires \valid(values + (0 .. count - 1)) && \valid(done) && \valid(non_integers);
    requires \separated(region, values + (0 .. count - 1), done, non_integers);
    assigns *region, values[0 .. count - 1], *done, *non_integers;
    ensures pb_valid(region);
*/
static bool read_values(pb_cursor *region, uint32_t count, uint64_t *values, uint32_t *done,
                        uint32_t *non_integers)
{
    if (read_uniform_values(region, count, values, non_integers)) {
        *done = count;
        return true;
    }
    return walk_values(region, count, values, done, non_integers);
}

/* read_values after its uniform row failed: each value by its own dwSize. */
/*@ requires pb_valid(region) && \valid(region);
    requires \valid(values + (0 .. count - 1)) && \valid(done) && \valid(non_integers);
    requires \separated(region, values + (0 .. count - 1), done, non_integers);
    assigns *region, values[0 .. count - 1], *done, *non_integers;
    ensures pb_valid(region);
*/
PB_NOINLINE static bool walk_values(pb_cursor *region, uint32_t count, uint64_t *values,
                                    uint32_t *done, uint32_t *non_integers)
{
    pb_cursor c;
    c = *region;
    uint32_t others = 0;
    /*@ loop invariant 0 <= i <= count;
        loop invariant pb_valid(&c);
        loop assigns i, c.pos, others, values[0 .. count - 1];
        loop variant count - i;
    */
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *hdr;
        const uint8_t *body;
        uint32_t data_size = 0;
        uint32_t size = 0;
        bool fits = pb_cursor_take(&c, PBS_PERF_COUNTER_DATA, &hdr);
        if (fits) {
            data_size = pb_le32(hdr + PBO_PERF_COUNTER_DATA_dwDataSize);
            size = pb_le32(hdr + PBO_PERF_COUNTER_DATA_dwSize);
        }
        if (!fits || size < PBS_PERF_COUNTER_DATA || data_size > size - PBS_PERF_COUNTER_DATA ||
            !pb_cursor_take(&c, size - PBS_PERF_COUNTER_DATA, &body)) {
            *done = i;
            *non_integers = others;
            return false;
        }
        /* body holds at least data_size bytes the cursor handed out. */
        uint64_t v = 0;
        if (data_size == 8) {
            v = (uint64_t)pb_le32(body) | (uint64_t)pb_le32(body + 4) << 32;
        } else if (data_size == 4) {
            v = pb_le32(body);
        } else {
            others++;
        }
        values[i] = v;
    }
    *region = c;
    *done = count;
    *non_integers = others;
    return true;
}

/*@ requires pb_v2_query_ok((perfbuf_v2_query *)q);
    requires \valid_read(block) && \valid(it) && \valid(out);
    requires \separated(q, block, it, out);
    assigns *it, *out;
*/
bool perfbuf_v2_instances_next(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                               perfbuf_v2_iter *it, perfbuf_v2_instance *out)
{
    if (it->next_index >= it->count) {
        return false;
    }
    pb_cursor c = window(q, it->pos, it->end);
    if (!view_instance(q, &c, block->counter_count, out)) {
        /* An iterator or view of another buffer: nothing to read. */
        it->next_index = it->count;
        return false;
    }
    out->index = it->next_index++;
    it->pos = c.pos;
    return true;
}

/*@ requires \valid_read(block) && \valid(it) && \separated(block, it);
    assigns *it;
*/
void perfbuf_v2_block_values_begin(const perfbuf_v2_block *block, perfbuf_v2_iter *it)
{
    it->pos = block->items_offset;
    it->end = block->items_end;
    it->next_index = 0;
    it->count = kind_has_instances(block->kind) ? 0 : block->counter_count;
}

/*@ requires \valid_read(inst) && \valid(it) && \separated(inst, it);
    assigns *it;
*/
void perfbuf_v2_instance_values_begin(const perfbuf_v2_instance *inst, perfbuf_v2_iter *it)
{
    it->pos = inst->values_offset;
    /* The values lie inside the instance list; the validated sizes stop
     * each one, and the buffer's end bounds the window. */
    it->end = SIZE_MAX;
    it->next_index = 0;
    it->count = inst->value_count;
}

/*@ requires pb_v2_query_ok((perfbuf_v2_query *)q);
    requires \valid_read(block) && \valid(it) && \valid(out);
    requires \separated(q, block, it, out);
    assigns *it, *out;
*/
bool perfbuf_v2_values_next(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                            perfbuf_v2_iter *it, perfbuf_v2_value *out)
{
    if (it->next_index >= it->count) {
        return false;
    }
    size_t end = it->end < block->items_end ? it->end : block->items_end;
    pb_cursor c = window(q, it->pos, end);
    size_t at = c.pos;
    pb_cursor value;
    if (!view_counter_data(&c, &value)) {
        /* An iterator or view of another buffer: nothing to read. */
        it->next_index = it->count;
        return false;
    }
    out->index = it->next_index;
    out->counter_id = PERFBUF_V2_NO_COUNTER_ID;
    if (kind_has_ids(block->kind)) {
        out->counter_id = perfbuf_v2_block_counter_id(q, block, it->next_index);
    }
    out->offset = at;
    out->data_size = (uint32_t)pb_cursor_size(&value);
    out->bytes = pb_cursor_data(&value);
    out->integer = 0;
    out->is_integer = false;
    if (out->data_size == 4) {
        uint32_t v32 = 0;
        out->is_integer = pb_cursor_read_u32(&value, &v32);
        out->integer = v32;
    } else if (out->data_size == 8) {
        out->is_integer = pb_cursor_read_u64(&value, &out->integer);
    }
    it->next_index++;
    it->pos = c.pos;
    return true;
}

/*@ requires q == \null || pb_v2_query_ok((perfbuf_v2_query *)q);
    requires block == \null || \valid_read(block);
    requires inst == \null || \valid_read(inst);
    requires values == \null || \valid(values + (0 .. cap - 1));
    requires out == \null || \valid(out);
    requires q == \null || out == \null || \separated(q, out);
    requires q == \null || values == \null || \separated(q, values + (0 .. cap - 1));
    requires block == \null || out == \null || \separated(block, out);
    requires block == \null || values == \null || \separated(block, values + (0 .. cap - 1));
    requires inst == \null || out == \null || \separated(inst, out);
    requires inst == \null || values == \null || \separated(inst, values + (0 .. cap - 1));
    requires out == \null || values == \null || \separated(out, values + (0 .. cap - 1));
    assigns *out, values[0 .. cap - 1];
*/
perfbuf_status perfbuf_v2_values_read(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                                     const perfbuf_v2_instance *inst, uint64_t *values,
                                     size_t cap, perfbuf_v2_values_read_result *out)
{
    if (q == NULL || block == NULL || out == NULL || (values == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_v2_iter it;
    if (inst != NULL) {
        perfbuf_v2_instance_values_begin(inst, &it);
    } else {
        perfbuf_v2_block_values_begin(block, &it);
    }
    out->count = it.count;
    out->non_integers = 0;
    if (cap < it.count) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    size_t end = it.end < block->items_end ? it.end : block->items_end;
    pb_cursor c = window(q, it.pos, end);
    if (!read_values(&c, it.count, values, &out->count, &out->non_integers)) {
        /* A view of another buffer: nothing more to read. */
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    return PERFBUF_OK;
}

/*@ requires q == \null || pb_v2_query_ok((perfbuf_v2_query *)q);
    requires block == \null || \valid_read(block);
    requires it == \null || \valid(it);
    requires out == \null || \valid(out);
    requires read == \null || \valid(read);
    requires values == \null || \valid(values + (0 .. cap - 1));
    requires q == \null || it == \null || \separated(q, it);
    requires q == \null || out == \null || \separated(q, out);
    requires q == \null || read == \null || \separated(q, read);
    requires q == \null || values == \null || \separated(q, values + (0 .. cap - 1));
    requires block == \null || it == \null || \separated(block, it);
    requires block == \null || out == \null || \separated(block, out);
    requires block == \null || read == \null || \separated(block, read);
    requires block == \null || values == \null || \separated(block, values + (0 .. cap - 1));
    requires it == \null || out == \null || \separated(it, out);
    requires it == \null || read == \null || \separated(it, read);
    requires it == \null || values == \null || \separated(it, values + (0 .. cap - 1));
    requires out == \null || read == \null || \separated(out, read);
    requires out == \null || values == \null || \separated(out, values + (0 .. cap - 1));
    requires read == \null || values == \null || \separated(read, values + (0 .. cap - 1));
    assigns *it, *out, *read, values[0 .. cap - 1];
*/
perfbuf_status perfbuf_v2_instances_next_values(const perfbuf_v2_query *q,
                                                const perfbuf_v2_block *block,
                                                perfbuf_v2_iter *it, perfbuf_v2_instance *out,
                                                uint64_t *values, size_t cap,
                                                perfbuf_v2_values_read_result *read)
{
    if (q == NULL || block == NULL || it == NULL || out == NULL || read == NULL ||
        (values == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    read->count = block->counter_count;
    read->non_integers = 0;
    if (it->next_index >= it->count) {
        read->count = 0;
        return PERFBUF_E_NOT_FOUND;
    }
    if (cap < block->counter_count) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    pb_cursor c = window(q, it->pos, it->end);
    if (!view_instance_header(&c, block->counter_count, out) ||
        !read_values(&c, block->counter_count, values, &read->count, &read->non_integers)) {
        /* An iterator or view of another buffer: nothing to read. */
        it->next_index = it->count;
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    out->index = it->next_index++;
    it->pos = c.pos;
    return PERFBUF_OK;
}

/*
 * Every value of a block in one call. An instance is stepped over by its
 * Size (header, name and padding) without looking for its name's NUL: the
 * parse proved the name is terminated inside it, and only its length
 * matters here. Each value still carries its own dwSize, so the walk keeps
 * the cursor's take per value: in V2 that size is where the next value
 * starts, not a check a plan could make once.
 */
/*@ requires q == \null || pb_v2_query_ok((perfbuf_v2_query *)q);
    requires block == \null || \valid_read(block);
    requires needed == \null || \valid(needed);
    requires values == \null || \valid(values + (0 .. cap - 1));
    requires q == \null || needed == \null || \separated(q, needed);
    requires q == \null || values == \null || \separated(q, values + (0 .. cap - 1));
    requires block == \null || needed == \null || \separated(block, needed);
    requires block == \null || values == \null || \separated(block, values + (0 .. cap - 1));
    requires needed == \null || values == \null || \separated(needed, values + (0 .. cap - 1));
    assigns *needed, values[0 .. cap - 1];
*/
perfbuf_status perfbuf_v2_block_read_all(const perfbuf_v2_query *q, const perfbuf_v2_block *block,
                                         uint64_t *values, size_t cap, size_t *needed)
{
    if (q == NULL || block == NULL || needed == NULL || (values == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    bool instances = kind_has_instances(block->kind);
    uint32_t rows = instances ? block->instance_count : 1u;
    uint32_t count = block->counter_count;
    if (count != 0 && rows > SIZE_MAX / count) {
        *needed = SIZE_MAX;
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    /*@ assert rows * count <= SIZE_MAX; */
    *needed = (size_t)rows * count;
    if (cap < *needed) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    if (count == 0) {
        /* Nothing to read, and values may be NULL: no row to point at. */
        return PERFBUF_OK;
    }
    pb_cursor c = window(q, block->items_offset, block->items_end);
    /*@ loop invariant 0 <= row <= rows;
        loop invariant rows * count <= cap;
        loop invariant pb_valid(&c);
        loop assigns row, c, values[0 .. cap - 1];
        loop variant rows - row;
    */
    for (uint32_t row = 0; row < rows; row++) {
        PB_WORK(1);
        const uint8_t *hdr;
        size_t name_len;
        /* take_sized proves name_len is inside the window: the skip holds. */
        if (instances && (!take_sized(&c, PBS_PERF_INSTANCE_HEADER, PBO_PERF_INSTANCE_HEADER_Size,
                                      &hdr, &name_len) ||
                          !pb_cursor_skip(&c, name_len))) {
            /* A block of another buffer: nothing more to read. */
            return PERFBUF_E_INVALID_ARGUMENT;
        }
        uint32_t done;
        uint32_t non_integers;
        /* read_values, its uniform row copied in: no call per row. The
         * row's values end inside the output, as row < rows: a product's
         * bound the provers take from this hint (itself a goal). */
        /*@ assert (row + 1) * count <= rows * count; */
        uint64_t *row_values = values + (size_t)row * count;
        if (!read_uniform_values(&c, count, row_values, &non_integers) &&
            !walk_values(&c, count, row_values, &done, &non_integers)) {
            return PERFBUF_E_INVALID_ARGUMENT;
        }
    }
    return PERFBUF_OK;
}

/*@ requires q == \null || pb_v2_query_ok((perfbuf_v2_query *)q);
    requires inst == \null || \valid_read(inst);
    requires out == \null || \valid(out + (0 .. cap - 1));
    requires len == \null || \valid(len);
    requires \separated(out + (0 .. cap - 1), len);
    assigns out[0 .. cap - 1], *len;
*/
perfbuf_status perfbuf_v2_instance_name_utf8(const perfbuf_v2_query *q,
                                             const perfbuf_v2_instance *inst, char *out,
                                             size_t cap, size_t *len)
{
    if (q == NULL || inst == NULL || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    return pb_view_utf16_to_utf8(q->data, q->size, inst->name_offset, inst->name_units, out, cap,
                                 len);
}

/*@ requires q == \null || pb_v2_query_ok((perfbuf_v2_query *)q);
    requires inst == \null || \valid_read(inst);
    requires out == \null || \valid(out + (0 .. cap - 1));
    requires units == \null || \valid(units);
    requires q == \null || out == \null || \separated(q, out + (0 .. cap - 1));
    requires q == \null || units == \null || \separated(q, units);
    requires inst == \null || out == \null || \separated(inst, out + (0 .. cap - 1));
    requires inst == \null || units == \null || \separated(inst, units);
    requires out == \null || units == \null || \separated(out + (0 .. cap - 1), units);
    assigns out[0 .. cap - 1], *units;
*/
perfbuf_status perfbuf_v2_instance_name_utf16(const perfbuf_v2_query *q,
                                              const perfbuf_v2_instance *inst, uint16_t *out,
                                              size_t cap, size_t *units)
{
    if (q == NULL || inst == NULL || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (units != NULL) {
        *units = inst->name_units;
    }
    if (inst->name_units > cap) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    size_t bytes;
    size_t end;
    if (!pb_mul(inst->name_units, 2, &bytes) || !pb_add(inst->name_offset, bytes, &end)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    pb_cursor c = window(q, inst->name_offset, end);
    /*@ loop invariant 0 <= i <= inst->name_units;
        loop invariant pb_valid(&c);
        loop assigns i, c.pos, out[0 .. cap - 1];
        loop variant inst->name_units - i;
    */
    for (size_t i = 0; i < inst->name_units; i++) {
        if (!pb_cursor_read_u16(&c, &out[i])) {
            /* An iterator or view of another buffer: nothing to read. */
            return PERFBUF_E_INVALID_ARGUMENT;
        }
    }
    return PERFBUF_OK;
}
