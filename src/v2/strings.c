/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * PerfLib V2 string answers of PerfQueryCounterSetRegistrationInfo: one
 * string, the provider GUID, and the per-counter string blocks
 * (PERF_STRING_BUFFER_HEADER + PERF_STRING_COUNTER_HEADER array + strings).
 */
#include "perfbuf/v2_meta.h"

#include "core/check.h"
#include "core/order.h"
#include "core/text.h"
#include "v2/internal.h"

/*@
  // A string answer whose bytes the caller still holds.
  predicate pb_v2_string_ok(perfbuf_v2_string *s) =
      \valid_read(s) && \valid_read(s->data + (0 .. s->size - 1));

  // A string block whose bytes the caller still holds, and whose sorted
  // scratch, when it has one, still holds its order_count entries.
  predicate pb_v2_strings_ok(perfbuf_v2_strings *s) =
      \valid_read(s) && \valid_read(s->data + (0 .. s->size - 1)) &&
      (s->order != \null ==> \valid_read(s->order + (0 .. s->order_count - 1)));
*/

/* Zeroed answers, copied rather than memset, with the same effect: WP
 * cannot follow memset's byte-wise writes into a structure. */
static const perfbuf_v2_string string_zero;
static const perfbuf_guid guid_zero;
static const perfbuf_v2_strings strings_zero;
static const perfbuf_v2_counter_string counter_string_zero;

/* The answers cleared, each in a function of its own: past a structure
 * copy in place the provers must show again, after each call, that the
 * local context's error pointer was kept; past a call that only
 * `assigns *out` they see it at once. */
/*@ requires \valid(out);
    assigns *out;
*/
static void clear_guid(perfbuf_guid *out)
{
    *out = guid_zero;
}

/*@ requires \valid(out);
    assigns *out;
*/
static void clear_string(perfbuf_v2_string *out)
{
    *out = string_zero;
}

/*@ requires \valid(out);
    assigns *out;
*/
static void clear_counter_string(perfbuf_v2_counter_string *out)
{
    *out = counter_string_zero;
}

/*@ requires \valid(out);
    assigns *out;
    ensures out->order == \null;
*/
static void clear_strings(perfbuf_v2_strings *out)
{
    *out = strings_zero;
}

/*@ requires \valid(out) && \valid_read(v) && \separated(out, v);
    assigns *out;
    ensures out->data == v->data && out->size == v->size;
    ensures out->order_count == v->order_count;
    ensures out->order == v->order;
*/
static void store_strings(perfbuf_v2_strings *out, const perfbuf_v2_strings *v)
{
    *out = *v;
    /* The same values stored again: the provers do not take a field back out
     * of a structure copy (as store_reginfo in meta.c). */
    out->data = v->data;
    out->size = v->size;
    out->order = v->order;
    out->order_count = v->order_count;
}

/*@ requires data == \null || \valid_read((const uint8_t *)data + (0 .. size - 1));
    requires opts == \null || \valid_read(opts);
    requires out == \null || \valid(out);
    requires err == \null || \valid(err);
    requires out == \null || err == \null || \separated(out, err);
    assigns *out, *err;
    ensures \result == PERFBUF_OK ==>
        out->data == (const uint8_t *)data && out->size == size && pb_v2_string_ok(out);
*/
perfbuf_status perfbuf_v2_string_parse(const void *data, size_t size, const perfbuf_options *opts,
                                       perfbuf_v2_string *out, perfbuf_error *err)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, opts, err);
    if (pb_check_arguments(&ctx, data, size, out) != PERFBUF_OK) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    clear_string(out);
    pb_cursor all = pb_cursor_make((const uint8_t *)data, size);
    size_t units = 0;
    if (!pb_utf16le_find_nul(&all, &units)) {
        return pb_fail(&ctx, PERFBUF_E_UNTERMINATED_STRING, 0, PBF_REG_STRING_Text);
    }
    /* units < size / 2: the string and its NUL fit. */
    size_t used = (units + 1) * 2;
    if (size > used) {
        perfbuf_status st = pb_anomaly(&ctx, PERFBUF_ANOMALY_TRAILING_BYTES,
                                       PERFBUF_E_TRAILING_BYTES, used, PBF_REG_ANSWER_Length);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    out->data = (const uint8_t *)data;
    out->size = size;
    out->units = units;
    out->anomalies = ctx.anomalies;
    out->first_anomaly = ctx.first_anomaly;
    return PERFBUF_OK;
}

/*@ requires s == \null || pb_v2_string_ok((perfbuf_v2_string *)s);
    requires out == \null || \valid(out + (0 .. cap - 1));
    requires len == \null || \valid(len);
    requires \separated(out + (0 .. cap - 1), len);
    assigns out[0 .. cap - 1], *len;
*/
perfbuf_status perfbuf_v2_string_utf8(const perfbuf_v2_string *s, char *out, size_t cap,
                                      size_t *len)
{
    if (s == NULL || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    return pb_view_utf16_to_utf8(s->data, s->size, 0, s->units, out, cap, len);
}

/*@ requires data == \null || \valid_read((const uint8_t *)data + (0 .. size - 1));
    requires out == \null || \valid(out);
    requires err == \null || \valid(err);
    requires out == \null || err == \null || \separated(out, err);
    assigns *out, *err;
*/
perfbuf_status perfbuf_v2_provider_guid_parse(const void *data, size_t size, perfbuf_guid *out,
                                              perfbuf_error *err)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, NULL, err);
    if (pb_check_arguments(&ctx, data, size, out) != PERFBUF_OK) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    clear_guid(out);
    pb_cursor all = pb_cursor_make((const uint8_t *)data, size);
    pb_cursor guid;
    perfbuf_status st = pb_take_struct(&ctx, &all, PBS_PROVIDER_GUID, PBF_PROVIDER_GUID_Guid, &guid);
    if (st != PERFBUF_OK) {
        return st;
    }
    /* A fixed 16-byte answer with more bytes is some other answer. */
    if (pb_cursor_remaining(&all) > 0) {
        return pb_fail(&ctx, PERFBUF_E_TRAILING_BYTES, PBS_PROVIDER_GUID, PBF_REG_ANSWER_Length);
    }
    *out = pb_field_guid(&guid, PBF_PROVIDER_GUID_Guid);
    return PERFBUF_OK;
}

/* The string header i of a block whose headers have been shown to fit. */
/*@ requires pb_valid((pb_cursor *)block);
    requires \valid(id) && \valid(offset) && \separated(id, offset);
    assigns *id, *offset;
*/
static void read_string_header(const pb_cursor *block, uint32_t i, uint32_t *id, uint32_t *offset)
{
    pb_cursor h;
    if (!pb_cursor_slice(block, PBS_PERF_STRING_BUFFER_HEADER + (size_t)i * PBS_PERF_STRING_COUNTER_HEADER,
                         PBS_PERF_STRING_COUNTER_HEADER, &h)) {
        PB_UNREACHABLE();
        *id = 0;
        *offset = PERFBUF_V2_NO_STRING;
        return;
    }
    *id = pb_field32(&h, PBF_PERF_STRING_COUNTER_HEADER_dwCounterId);
    *offset = pb_field32(&h, PBF_PERF_STRING_COUNTER_HEADER_dwOffset);
}

/*
 * MS-PCQ's origin puts the first string at dwOffset 0; perflib.h's puts
 * every string at or past the headers. An offset that would land inside
 * the headers under perflib.h's reading can only be MS-PCQ's.
 */
/*@ requires pb_valid((pb_cursor *)block);
    assigns \nothing;
*/
static perfbuf_v2_string_origin resolve_origin(const pb_cursor *block, uint32_t count,
                                               size_t strings_offset)
{
    /*@ loop invariant 0 <= i <= count;
        loop assigns i;
        loop variant count - i;
    */
    for (uint32_t i = 0; i < count; i++) {
        uint32_t id;
        uint32_t offset;
        read_string_header(block, i, &id, &offset);
        if (offset != PERFBUF_V2_NO_STRING && offset < strings_offset) {
            return PERFBUF_V2_STRINGS_FROM_ARRAY_END;
        }
    }
    return PERFBUF_V2_STRINGS_FROM_BLOCK;
}

/*
 * Locates the string of one header: where it starts and how many code
 * units precede its NUL. The block cursor covers exactly dwSize bytes.
 */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid((pb_cursor *)block);
    requires \valid(start) && \valid(units) && \separated(start, units);
    requires ctx->err == \null || \separated(ctx->err, start, units);
    assigns *start, *units, *ctx->err;
*/
static perfbuf_status locate_string(pb_ctx *ctx, const pb_cursor *block, size_t header_at,
                                    size_t origin_at, size_t strings_offset, uint32_t offset,
                                    size_t budget, size_t *start, size_t *units)
{
    size_t block_size = pb_cursor_size(block);
    if (offset > block_size - origin_at) {
        return pb_fail_compared(ctx, PERFBUF_E_OFFSET_OUT_OF_RANGE, header_at,
                                PBF_PERF_STRING_COUNTER_HEADER_dwOffset, offset,
                                block_size - origin_at);
    }
    size_t at = origin_at + offset;
    /* An origin never lies past the strings, so a string before them is
     * an offset below the least one, strings_offset - origin_at. */
    if (at < strings_offset) {
        return pb_fail_compared(ctx, PERFBUF_E_OFFSET_OUT_OF_RANGE, header_at,
                                PBF_PERF_STRING_COUNTER_HEADER_dwOffset, offset,
                                strings_offset - origin_at);
    }
    if (at >= block_size) {
        return pb_fail(ctx, PERFBUF_E_OFFSET_OUT_OF_RANGE, header_at,
                       PBF_PERF_STRING_COUNTER_HEADER_dwOffset);
    }
    /* The scan stops where the strings' shared budget runs out: past it
     * the strings must share bytes, whatever the rest holds. */
    size_t scan = block_size - at;
    bool cut_by_budget = budget < scan;
    pb_cursor text;
    if (!pb_cursor_slice(block, at, cut_by_budget ? budget : scan, &text)) {
        PB_UNREACHABLE();
        return pb_fail(ctx, PERFBUF_E_OFFSET_OUT_OF_RANGE, header_at,
                       PBF_PERF_STRING_COUNTER_HEADER_dwOffset);
    }
    if (!pb_utf16le_find_nul(&text, units)) {
        return pb_fail(ctx, cut_by_budget ? PERFBUF_E_OVERLAP : PERFBUF_E_UNTERMINATED_STRING,
                       header_at, PBF_PERF_STRING_COUNTER_HEADER_dwOffset);
    }
    *start = at;
    return PERFBUF_OK;
}

/*@ assigns \nothing; */
static size_t origin_offset(perfbuf_v2_string_origin origin, size_t strings_offset)
{
    return origin == PERFBUF_V2_STRINGS_FROM_ARRAY_END ? strings_offset : 0;
}

/* The dwCounterId of header i, for the ordering module. */
/*@ requires \valid_read((perfbuf_v2_strings *)source);
    requires \valid_read(((perfbuf_v2_strings *)source)->data +
                          (0 .. ((perfbuf_v2_strings *)source)->size - 1));
    requires \valid(id);
    assigns *id;
*/
static bool read_string_id(const void *source, uint32_t i, uint32_t *id)
{
    const perfbuf_v2_strings *s = source;
    size_t at = PBS_PERF_STRING_BUFFER_HEADER + (size_t)i * PBS_PERF_STRING_COUNTER_HEADER +
                pb_fields[PBF_PERF_STRING_COUNTER_HEADER_dwCounterId].offset;
    pb_cursor all = pb_cursor_make(s->data, s->size);
    return i < s->count && pb_cursor_get_u32(&all, at, id);
}

/*@ requires pb_ctx_ok(ctx);
    requires \valid(s) && \valid_read(s->data + (0 .. s->size - 1));
    requires (scratch == \null && cap == 0) || \valid(scratch + (0 .. cap - 1));
    requires \separated(s, ctx);
    requires ctx->err == \null || \separated(ctx->err, s);
    requires scratch == \null || \separated(scratch + (0 .. cap - 1), s, ctx);
    assigns s->ids_ascending, s->order, s->order_count, scratch[0 .. cap - 1], *ctx->err;
    ensures s->order == \old(s->order) || (s->order == scratch && s->order_count <= cap);
*/
static perfbuf_status check_ids(pb_ctx *ctx, perfbuf_v2_strings *s, uint64_t *scratch, size_t cap)
{
    uint32_t duplicate = 0;
    size_t sorted = 0;
    switch (pb_keys_check(read_string_id, s, s->count, scratch, cap, &sorted, &duplicate)) {
    case PB_KEYS_ASCENDING:
        s->ids_ascending = true;
        return PERFBUF_OK;
    case PB_KEYS_SMALL:
        return PERFBUF_OK;
    case PB_KEYS_SORTED:
        s->order = scratch;
        s->order_count = sorted;
        return PERFBUF_OK;
    case PB_KEYS_DUPLICATE:
        return pb_fail(ctx, PERFBUF_E_DUPLICATE_ID,
                       PBS_PERF_STRING_BUFFER_HEADER + (size_t)duplicate * PBS_PERF_STRING_COUNTER_HEADER,
                       PBF_PERF_STRING_COUNTER_HEADER_dwCounterId);
    case PB_KEYS_NEED_SCRATCH:
        break;
    }
    if (scratch != NULL) {
        return pb_fail(ctx, PERFBUF_E_OUTPUT_TOO_SMALL, 0, PBF_PERF_STRING_BUFFER_HEADER_dwCounters);
    }
    uint32_t i = 1;
    uint32_t prev = 0;
    uint32_t id = 0;
    /*@ loop invariant 1 <= i;
        loop assigns i, prev, id;
        loop variant s->count - i;
    */
    while (i < s->count && read_string_id(s, i - 1, &prev) && read_string_id(s, i, &id) && prev < id) {
        i++;
    }
    return pb_fail(ctx, PERFBUF_E_SCRATCH_NEEDED,
                   PBS_PERF_STRING_BUFFER_HEADER + (size_t)i * PBS_PERF_STRING_COUNTER_HEADER,
                   PBF_PERF_STRING_COUNTER_HEADER_dwCounterId);
}

/*@ requires data == \null || \valid_read((const uint8_t *)data + (0 .. size - 1));
    requires opts == \null || \valid_read(opts);
    requires out == \null || \valid(out);
    requires err == \null || \valid(err);
    requires (scratch == \null && cap == 0) || \valid(scratch + (0 .. cap - 1));
    requires out == \null || err == \null || \separated(out, err);
    requires scratch == \null || out == \null || \separated(scratch + (0 .. cap - 1), out);
    requires scratch == \null || err == \null || \separated(scratch + (0 .. cap - 1), err);
    assigns *out, *err, scratch[0 .. cap - 1];
    ensures \result == PERFBUF_OK ==>
        out->data == (const uint8_t *)data && out->size <= size && pb_v2_strings_ok(out);
*/
static perfbuf_status parse_strings(const void *data, size_t size, perfbuf_v2_string_origin origin,
                                    const perfbuf_options *opts, uint64_t *scratch, size_t cap,
                                    perfbuf_v2_strings *out, perfbuf_error *err)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, opts, err);
    bool origin_known = origin == PERFBUF_V2_STRINGS_AUTO ||
                        origin == PERFBUF_V2_STRINGS_FROM_BLOCK ||
                        origin == PERFBUF_V2_STRINGS_FROM_ARRAY_END;
    /* An unknown origin is refused like a missing output. */
    if (pb_check_arguments(&ctx, data, size, origin_known ? out : NULL) != PERFBUF_OK) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    clear_strings(out);
    pb_cursor all = pb_cursor_make((const uint8_t *)data, size);
    pb_cursor hdr;
    perfbuf_status st = pb_take_struct(&ctx, &all, PBS_PERF_STRING_BUFFER_HEADER,
                                       PBF_PERF_STRING_BUFFER_HEADER_dwSize, &hdr);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint32_t block_size = pb_field32(&hdr, PBF_PERF_STRING_BUFFER_HEADER_dwSize);
    uint32_t count = pb_field32(&hdr, PBF_PERF_STRING_BUFFER_HEADER_dwCounters);
    if (block_size < PBS_PERF_STRING_BUFFER_HEADER) {
        return pb_fail_compared(&ctx, PERFBUF_E_SIZE_TOO_SMALL, 0,
                                PBF_PERF_STRING_BUFFER_HEADER_dwSize, block_size,
                                PBS_PERF_STRING_BUFFER_HEADER);
    }
    if (block_size > size) {
        return pb_fail_compared(&ctx, PERFBUF_E_SIZE_EXCEEDS_RECEIVED, 0,
                                PBF_PERF_STRING_BUFFER_HEADER_dwSize, block_size, size);
    }
    uint32_t room = (block_size - PBS_PERF_STRING_BUFFER_HEADER) / PBS_PERF_STRING_COUNTER_HEADER;
    if (count > room) {
        return pb_fail_compared(&ctx, PERFBUF_E_COUNT_TOO_LARGE, 0,
                                PBF_PERF_STRING_BUFFER_HEADER_dwCounters, count, room);
    }
    if (count > ctx.max_counters) {
        return pb_fail_compared(&ctx, PERFBUF_E_LIMIT_EXCEEDED, 0,
                                PBF_PERF_STRING_BUFFER_HEADER_dwCounters, count,
                                ctx.max_counters);
    }
    if (block_size % 8 != 0) {
        st = pb_anomaly(&ctx, PERFBUF_ANOMALY_UNALIGNED_SIZE, PERFBUF_E_SIZE_UNALIGNED, 0,
                        PBF_PERF_STRING_BUFFER_HEADER_dwSize);
    }
    if (st == PERFBUF_OK && size > block_size) {
        st = pb_anomaly(&ctx, PERFBUF_ANOMALY_TRAILING_BYTES, PERFBUF_E_TRAILING_BYTES, 0,
                        PBF_PERF_STRING_BUFFER_HEADER_dwSize);
    }
    if (st != PERFBUF_OK) {
        return st;
    }
    /* Declared, then assigned: WP loses a copy that initializes a local
     * whose address is taken. */
    pb_cursor block;
    block = pb_window((const uint8_t *)data, block_size, 0, block_size);
    size_t strings_offset = PBS_PERF_STRING_BUFFER_HEADER + (size_t)count * PBS_PERF_STRING_COUNTER_HEADER;
    if (origin == PERFBUF_V2_STRINGS_AUTO) {
        origin = resolve_origin(&block, count, strings_offset);
    }
    perfbuf_v2_strings view;
    clear_strings(&view);
    view.data = (const uint8_t *)data;
    view.size = block_size;
    view.count = count;
    view.origin = origin;
    view.strings_offset = strings_offset;
    if ((st = check_ids(&ctx, &view, scratch, cap)) != PERFBUF_OK) {
        return st;
    }
    size_t origin_at = origin_offset(origin, strings_offset);
    /* Disjoint strings with their NULs fit in the bytes after the headers;
     * each scan spends from that. */
    size_t budget = block_size - strings_offset;
    /*@ loop invariant 0 <= i <= count;
        loop invariant pb_ctx_ok(&ctx) && ctx.err == err;
        loop assigns i, st, budget, *err;
        loop variant count - i;
    */
    for (uint32_t i = 0; i < count; i++) {
        size_t header_at = PBS_PERF_STRING_BUFFER_HEADER + (size_t)i * PBS_PERF_STRING_COUNTER_HEADER;
        uint32_t id;
        uint32_t offset;
        read_string_header(&block, i, &id, &offset);
        if (offset == PERFBUF_V2_NO_STRING) {
            continue;
        }
        size_t start = 0;
        size_t units = 0;
        st = locate_string(&ctx, &block, header_at, origin_at, strings_offset, offset, budget,
                           &start, &units);
        if (st != PERFBUF_OK) {
            return st;
        }
        /* The scan found the NUL inside the budget: (units + 1) * 2 fits. */
        budget -= (units + 1) * 2;
    }
    view.anomalies = ctx.anomalies;
    view.first_anomaly = ctx.first_anomaly;
    store_strings(out, &view);
    return PERFBUF_OK;
}

/*@ requires data == \null || \valid_read((const uint8_t *)data + (0 .. size - 1));
    requires opts == \null || \valid_read(opts);
    requires out == \null || \valid(out);
    requires err == \null || \valid(err);
    requires out == \null || err == \null || \separated(out, err);
    assigns *out, *err;
    ensures \result == PERFBUF_OK ==>
        out->data == (const uint8_t *)data && out->size <= size && pb_v2_strings_ok(out);
*/
perfbuf_status perfbuf_v2_strings_parse(const void *data, size_t size,
                                        perfbuf_v2_string_origin origin,
                                        const perfbuf_options *opts, perfbuf_v2_strings *out,
                                        perfbuf_error *err)
{
    return parse_strings(data, size, origin, opts, NULL, 0, out, err);
}

/*@ requires data == \null || \valid_read((const uint8_t *)data + (0 .. size - 1));
    requires opts == \null || \valid_read(opts);
    requires out == \null || \valid(out);
    requires err == \null || \valid(err);
    requires scratch == \null || \valid(scratch + (0 .. cap - 1));
    requires out == \null || err == \null || \separated(out, err);
    requires scratch == \null || out == \null || \separated(scratch + (0 .. cap - 1), out);
    requires scratch == \null || err == \null || \separated(scratch + (0 .. cap - 1), err);
    assigns *out, *err, scratch[0 .. cap - 1];
    ensures \result == PERFBUF_OK ==>
        out->data == (const uint8_t *)data && out->size <= size && pb_v2_strings_ok(out);
*/
perfbuf_status perfbuf_v2_strings_parse_indexed(const void *data, size_t size,
                                                perfbuf_v2_string_origin origin,
                                                const perfbuf_options *opts, uint64_t *scratch,
                                                size_t cap, perfbuf_v2_strings *out,
                                                perfbuf_error *err)
{
    if (scratch == NULL && cap != 0) {
        pb_ctx ctx;
        pb_ctx_init(&ctx, opts, err);
        return pb_check_arguments(&ctx, data, size, NULL);
    }
    return parse_strings(data, size, origin, opts, scratch, cap, out, err);
}

/*
 * Header i and its string as the parse accepted them: dwCounterId and
 * dwOffset at their offsets, the text from the origin plus dwOffset up to
 * its NUL. The offset's range, the overlap budget and the anomalies are
 * not judged again; the text is still found through a cursor bounded by
 * the block, so a header the parse never saw cannot read past it.
 */
/*@ requires s == \null || pb_v2_strings_ok((perfbuf_v2_strings *)s);
    requires out == \null || \valid(out);
    requires s == \null || out == \null || \separated(s, out);
    assigns *out;
*/
bool perfbuf_v2_strings_get(const perfbuf_v2_strings *s, uint32_t i, perfbuf_v2_counter_string *out)
{
    if (s == NULL || out == NULL || i >= s->count) {
        return false;
    }
    size_t header_at = PBS_PERF_STRING_BUFFER_HEADER + (size_t)i * PBS_PERF_STRING_COUNTER_HEADER;
    /* Declared, then assigned: WP loses a copy that initializes a local
     * whose address is taken. */
    pb_cursor header;
    header = pb_window(s->data, s->size, header_at, s->size);
    const uint8_t *hdr;
    clear_counter_string(out);
    out->index = i;
    out->offset = header_at;
    /* The parse proved count headers inside the block. */
    if (!pb_cursor_take(&header, PBS_PERF_STRING_COUNTER_HEADER, &hdr)) {
        PB_UNREACHABLE();
        return false;
    }
    out->counter_id = pb_le32(hdr + PBO_PERF_STRING_COUNTER_HEADER_dwCounterId);
    uint32_t offset = pb_le32(hdr + PBO_PERF_STRING_COUNTER_HEADER_dwOffset);
    if (offset == PERFBUF_V2_NO_STRING) {
        return true;
    }
    /* A start that would overflow stays SIZE_MAX: outside the block,
     * like any start the parse did not accept, it gives an empty window
     * with no NUL. */
    size_t at = SIZE_MAX;
    (void)pb_add(origin_offset(s->origin, s->strings_offset), offset, &at);
    pb_cursor text;
    text = pb_window(s->data, s->size, at, s->size);
    size_t units;
    if (!pb_utf16le_find_nul(&text, &units)) {
        PB_UNREACHABLE();
        return true;
    }
    out->present = true;
    out->text_offset = at;
    out->units = units;
    return true;
}

/*@ requires s == \null || pb_v2_strings_ok((perfbuf_v2_strings *)s);
    requires out == \null || \valid(out);
    requires s == \null || out == \null || \separated(s, out);
    assigns *out;
*/
perfbuf_status perfbuf_v2_strings_find(const perfbuf_v2_strings *s, uint32_t counter_id,
                                       perfbuf_v2_counter_string *out)
{
    if (s == NULL || out == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    uint32_t position = 0;
    bool found = false;
    if (s->ids_ascending) {
        found = pb_v2_find_ascending(
            s->data, s->size,
            PBS_PERF_STRING_BUFFER_HEADER + PBO_PERF_STRING_COUNTER_HEADER_dwCounterId,
            PBS_PERF_STRING_COUNTER_HEADER, s->count, counter_id, &position);
    } else if (s->order != NULL) {
        found = pb_keys_find_sorted(s->order, s->order_count, counter_id, &position);
    } else {
        /*@ loop invariant 0 <= i <= PERFBUF_V2_SMALL_SET;
            loop assigns i, found, position;
            loop variant PERFBUF_V2_SMALL_SET - i;
        */
        for (uint32_t i = 0; i < s->count && i < PERFBUF_V2_SMALL_SET && !found; i++) {
            uint32_t id;
            found = read_string_id(s, i, &id) && id == counter_id;
            position = i;
        }
    }
    if (!found || !perfbuf_v2_strings_get(s, position, out) || out->counter_id != counter_id) {
        return PERFBUF_E_NOT_FOUND;
    }
    return PERFBUF_OK;
}

/*@ requires s == \null || pb_v2_strings_ok((perfbuf_v2_strings *)s);
    requires str == \null || \valid_read(str);
    requires out == \null || \valid(out + (0 .. cap - 1));
    requires len == \null || \valid(len);
    requires \separated(out + (0 .. cap - 1), len);
    assigns out[0 .. cap - 1], *len;
*/
perfbuf_status perfbuf_v2_counter_string_utf8(const perfbuf_v2_strings *s,
                                              const perfbuf_v2_counter_string *str, char *out,
                                              size_t cap, size_t *len)
{
    if (s == NULL || str == NULL || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    return pb_view_utf16_to_utf8(s->data, s->size, str->text_offset, str->present ? str->units : 0,
                                 out, cap, len);
}
