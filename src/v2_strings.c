/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * PerfLib V2 string answers of PerfQueryCounterSetRegistrationInfo: one
 * string, the provider GUID, and the per-counter string blocks
 * (PERF_STRING_BUFFER_HEADER + PERF_STRING_COUNTER_HEADER array + strings).
 */
#include <string.h>

#include "perfbuf/v2_meta.h"

#include "check.h"
#include "text.h"

/* Ids are compared pairwise; without a caller's limit, bound them here. */
#define STRINGS_DEFAULT_MAX_COUNTERS 4096u

perfbuf_status perfbuf_v2_string_parse(const void *data, size_t size, const perfbuf_options *opts,
                                       perfbuf_v2_string *out, perfbuf_error *err)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, opts, err);
    if (pb_check_arguments(&ctx, data, size, out) != PERFBUF_OK) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    memset(out, 0, sizeof *out);
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

perfbuf_status perfbuf_v2_string_utf8(const perfbuf_v2_string *s, char *out, size_t cap,
                                      size_t *len)
{
    if (s == NULL || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    return pb_view_utf16_to_utf8(s->data, s->size, 0, s->units, out, cap, len);
}

perfbuf_status perfbuf_v2_provider_guid_parse(const void *data, size_t size, perfbuf_guid *out,
                                              perfbuf_error *err)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, NULL, err);
    if (pb_check_arguments(&ctx, data, size, out) != PERFBUF_OK) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    memset(out, 0, sizeof *out);
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
static perfbuf_v2_string_origin resolve_origin(const pb_cursor *block, uint32_t count,
                                               size_t strings_offset)
{
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
static perfbuf_status locate_string(pb_ctx *ctx, const pb_cursor *block, size_t header_at,
                                    size_t origin_at, size_t strings_offset, uint32_t offset,
                                    size_t *start, size_t *units)
{
    size_t block_size = pb_cursor_size(block);
    if (offset > block_size - origin_at) {
        return pb_fail(ctx, PERFBUF_E_OFFSET_OUT_OF_RANGE, header_at,
                       PBF_PERF_STRING_COUNTER_HEADER_dwOffset);
    }
    size_t at = origin_at + offset;
    if (at < strings_offset || at >= block_size) {
        return pb_fail(ctx, PERFBUF_E_OFFSET_OUT_OF_RANGE, header_at,
                       PBF_PERF_STRING_COUNTER_HEADER_dwOffset);
    }
    pb_cursor text;
    if (!pb_cursor_slice(block, at, block_size - at, &text)) {
        PB_UNREACHABLE();
        return pb_fail(ctx, PERFBUF_E_OFFSET_OUT_OF_RANGE, header_at,
                       PBF_PERF_STRING_COUNTER_HEADER_dwOffset);
    }
    if (!pb_utf16le_find_nul(&text, units)) {
        return pb_fail(ctx, PERFBUF_E_UNTERMINATED_STRING, header_at,
                       PBF_PERF_STRING_COUNTER_HEADER_dwOffset);
    }
    *start = at;
    return PERFBUF_OK;
}

static size_t origin_offset(perfbuf_v2_string_origin origin, size_t strings_offset)
{
    return origin == PERFBUF_V2_STRINGS_FROM_ARRAY_END ? strings_offset : 0;
}

perfbuf_status perfbuf_v2_strings_parse(const void *data, size_t size,
                                        perfbuf_v2_string_origin origin,
                                        const perfbuf_options *opts, perfbuf_v2_strings *out,
                                        perfbuf_error *err)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, opts, err);
    if (opts == NULL || opts->max_counters == 0) {
        ctx.max_counters = STRINGS_DEFAULT_MAX_COUNTERS;
    }
    bool origin_known = origin == PERFBUF_V2_STRINGS_AUTO ||
                        origin == PERFBUF_V2_STRINGS_FROM_BLOCK ||
                        origin == PERFBUF_V2_STRINGS_FROM_ARRAY_END;
    /* An unknown origin is refused like a missing output. */
    if (pb_check_arguments(&ctx, data, size, origin_known ? out : NULL) != PERFBUF_OK) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    memset(out, 0, sizeof *out);
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
        return pb_fail(&ctx, PERFBUF_E_SIZE_TOO_SMALL, 0, PBF_PERF_STRING_BUFFER_HEADER_dwSize);
    }
    if (block_size > size) {
        return pb_fail(&ctx, PERFBUF_E_SIZE_EXCEEDS_RECEIVED, 0,
                       PBF_PERF_STRING_BUFFER_HEADER_dwSize);
    }
    if (count > (block_size - PBS_PERF_STRING_BUFFER_HEADER) / PBS_PERF_STRING_COUNTER_HEADER) {
        return pb_fail(&ctx, PERFBUF_E_COUNT_TOO_LARGE, 0, PBF_PERF_STRING_BUFFER_HEADER_dwCounters);
    }
    if (count > ctx.max_counters) {
        return pb_fail(&ctx, PERFBUF_E_LIMIT_EXCEEDED, 0, PBF_PERF_STRING_BUFFER_HEADER_dwCounters);
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
    pb_cursor block = pb_window((const uint8_t *)data, block_size, 0, block_size);
    size_t strings_offset = PBS_PERF_STRING_BUFFER_HEADER + (size_t)count * PBS_PERF_STRING_COUNTER_HEADER;
    if (origin == PERFBUF_V2_STRINGS_AUTO) {
        origin = resolve_origin(&block, count, strings_offset);
    }
    size_t origin_at = origin_offset(origin, strings_offset);
    for (uint32_t i = 0; i < count; i++) {
        size_t header_at = PBS_PERF_STRING_BUFFER_HEADER + (size_t)i * PBS_PERF_STRING_COUNTER_HEADER;
        uint32_t id;
        uint32_t offset;
        read_string_header(&block, i, &id, &offset);
        for (uint32_t j = 0; j < i; j++) {
            uint32_t earlier_id;
            uint32_t earlier_offset;
            read_string_header(&block, j, &earlier_id, &earlier_offset);
            if (earlier_id == id) {
                return pb_fail(&ctx, PERFBUF_E_DUPLICATE_ID, header_at,
                               PBF_PERF_STRING_COUNTER_HEADER_dwCounterId);
            }
        }
        if (offset == PERFBUF_V2_NO_STRING) {
            continue;
        }
        size_t start = 0;
        size_t units = 0;
        st = locate_string(&ctx, &block, header_at, origin_at, strings_offset, offset, &start,
                           &units);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    out->data = (const uint8_t *)data;
    out->size = block_size;
    out->count = count;
    out->origin = origin;
    out->strings_offset = strings_offset;
    out->anomalies = ctx.anomalies;
    out->first_anomaly = ctx.first_anomaly;
    return PERFBUF_OK;
}

bool perfbuf_v2_strings_get(const perfbuf_v2_strings *s, uint32_t i, perfbuf_v2_counter_string *out)
{
    if (s == NULL || out == NULL || i >= s->count) {
        return false;
    }
    pb_cursor block = pb_window(s->data, s->size, 0, s->size);
    uint32_t id;
    uint32_t offset;
    read_string_header(&block, i, &id, &offset);
    memset(out, 0, sizeof *out);
    out->index = i;
    out->offset = PBS_PERF_STRING_BUFFER_HEADER + (size_t)i * PBS_PERF_STRING_COUNTER_HEADER;
    out->counter_id = id;
    if (offset == PERFBUF_V2_NO_STRING) {
        return true;
    }
    pb_ctx ctx;
    pb_view_ctx(&ctx);
    size_t start = 0;
    size_t units = 0;
    if (locate_string(&ctx, &block, out->offset, origin_offset(s->origin, s->strings_offset),
                      s->strings_offset, offset, &start, &units) != PERFBUF_OK) {
        PB_UNREACHABLE();
        return true;
    }
    out->present = true;
    out->text_offset = start;
    out->units = units;
    return true;
}

perfbuf_status perfbuf_v2_strings_find(const perfbuf_v2_strings *s, uint32_t counter_id,
                                       perfbuf_v2_counter_string *out)
{
    if (s == NULL || out == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    for (uint32_t i = 0; perfbuf_v2_strings_get(s, i, out); i++) {
        if (out->counter_id == counter_id) {
            return PERFBUF_OK;
        }
    }
    return PERFBUF_E_NOT_FOUND;
}

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
