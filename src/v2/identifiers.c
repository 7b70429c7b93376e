/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * PerfLib V2 counter identifiers: the PERF_COUNTER_IDENTIFIER blocks that
 * PerfQueryCounterInfo returns, each followed by an optional instance name
 * and padding, and whose Index says which PERF_COUNTER_HEADER of the query
 * data holds its results.
 */
#include "perfbuf/v2_meta.h"

#include "core/check.h"
#include "core/text.h"
#include "v2/internal.h"

/*@
  // A list whose bytes the caller still holds: every byte counted in size
  // may be read (perfbuf_v2_identifiers_parse gives back only such lists).
  predicate pb_v2_identifiers_ok(perfbuf_v2_identifiers *l) =
      \valid_read(l) && \valid_read(l->data + (0 .. l->size - 1));
*/

/* Zeroed answers, copied rather than memset, with the same effect: WP
 * cannot follow memset's byte-wise writes into a structure. */
static const perfbuf_v2_identifier identifier_zero;
static const perfbuf_v2_identifiers identifiers_zero;

/* An identifier's header fields, over a cleared answer. In a function of
 * its own: past a structure copy in place (the clearing, the GUID) the
 * provers must show again, after each later call, that the caller's
 * cursor and context were kept; past a call that only `assigns *out`
 * they see it at once. */
/*@ requires \valid(out) && pb_valid((pb_cursor *)hdr) && \separated(out, hdr);
    assigns *out;
*/
static void fill_identifier(perfbuf_v2_identifier *out, const pb_cursor *hdr, size_t at,
                            uint32_t size)
{
    *out = identifier_zero;
    out->offset = at;
    out->size = size;
    out->counterset = pb_field_guid(hdr, PBF_PERF_COUNTER_IDENTIFIER_CounterSetGuid);
    out->status = pb_field32(hdr, PBF_PERF_COUNTER_IDENTIFIER_Status);
    out->counter_id = pb_field32(hdr, PBF_PERF_COUNTER_IDENTIFIER_CounterId);
    out->instance_id = pb_field32(hdr, PBF_PERF_COUNTER_IDENTIFIER_InstanceId);
    out->query_index = pb_field32(hdr, PBF_PERF_COUNTER_IDENTIFIER_Index);
}

/* One identifier: steps region past it. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(region) && \valid(region);
    requires \valid(out) && \separated(region, out, ctx);
    requires ctx->err == \null || \separated(ctx->err, region, out);
    assigns region->pos, *out, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(region);
    ensures \result == PERFBUF_OK ==> region->pos > \old(region->pos);
*/
static perfbuf_status read_identifier(pb_ctx *ctx, pb_cursor *region, perfbuf_v2_identifier *out)
{
    size_t at = region->pos;
    pb_cursor hdr;
    perfbuf_status st = pb_take_struct(ctx, region, PBS_PERF_COUNTER_IDENTIFIER,
                                       PBF_PERF_COUNTER_IDENTIFIER_CounterSetGuid, &hdr);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint32_t size = pb_field32(&hdr, PBF_PERF_COUNTER_IDENTIFIER_Size);
    if (size < PBS_PERF_COUNTER_IDENTIFIER) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_SMALL, at,
                                PBF_PERF_COUNTER_IDENTIFIER_Size, size,
                                PBS_PERF_COUNTER_IDENTIFIER);
    }
    /* The header is already taken from region: the size counts it too. */
    if (size - PBS_PERF_COUNTER_IDENTIFIER > pb_cursor_remaining(region)) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_LARGE, at,
                                PBF_PERF_COUNTER_IDENTIFIER_Size, size,
                                (uint64_t)PBS_PERF_COUNTER_IDENTIFIER +
                                    pb_cursor_remaining(region));
    }
    if (size % 8 != 0) {
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_UNALIGNED_SIZE, PERFBUF_E_SIZE_UNALIGNED, at,
                        PBF_PERF_COUNTER_IDENTIFIER_Size);
    }
    if (st == PERFBUF_OK && pb_field32(&hdr, PBF_PERF_COUNTER_IDENTIFIER_Reserved) != 0) {
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_RESERVED_NONZERO, PERFBUF_E_RESERVED_NONZERO, at,
                        PBF_PERF_COUNTER_IDENTIFIER_Reserved);
    }
    if (st != PERFBUF_OK) {
        return st;
    }
    fill_identifier(out, &hdr, at, size);
    pb_cursor name;
    pb_take_checked(region, size - PBS_PERF_COUNTER_IDENTIFIER, &name);
    if (pb_cursor_size(&name) == 0) {
        return PERFBUF_OK;
    }
    size_t units = 0;
    if (!pb_utf16le_find_nul(&name, &units)) {
        return pb_fail(ctx, PERFBUF_E_UNTERMINATED_STRING, at, PBF_PERF_COUNTER_IDENTIFIER_Name);
    }
    /* units < (size - 40) / 2, so the name and its NUL fit. */
    size_t name_bytes = (units + 1) * 2;
    if (pb_cursor_size(&name) - name_bytes > pb_pad8(PBS_PERF_COUNTER_IDENTIFIER + name_bytes)) {
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_EXCESS_PADDING, PERFBUF_E_EXCESS_PADDING, at,
                        PBF_PERF_COUNTER_IDENTIFIER_Size);
    }
    out->has_name = true;
    out->name_offset = name.start;
    out->name_units = units;
    return st;
}

/* The answer cleared, in a function of its own for the same reason as
 * fill_identifier: past the copy in place the provers must show again,
 * after each call, that the local context's error pointer was kept. */
/*@ requires \valid(out);
    assigns *out;
*/
static void clear_identifiers(perfbuf_v2_identifiers *out)
{
    *out = identifiers_zero;
}

/*@ requires data == \null || \valid_read((const uint8_t *)data + (0 .. size - 1));
    requires opts == \null || \valid_read(opts);
    requires out == \null || \valid(out);
    requires err == \null || \valid(err);
    requires out == \null || err == \null || \separated(out, err);
    assigns *out, *err;
    ensures \result == PERFBUF_OK ==>
        out->data == (const uint8_t *)data && out->size == size && pb_v2_identifiers_ok(out);
*/
perfbuf_status perfbuf_v2_identifiers_parse(const void *data, size_t size,
                                            const perfbuf_options *opts,
                                            perfbuf_v2_identifiers *out, perfbuf_error *err)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, opts, err);
    if (pb_check_arguments(&ctx, data, size, out) != PERFBUF_OK) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    clear_identifiers(out);
    pb_cursor all = pb_cursor_make((const uint8_t *)data, size);
    uint32_t count = 0;
    /* Each identifier consumes at least its 40-byte header. */
    /*@ loop invariant pb_valid(&all) && pb_ctx_ok(&ctx) && ctx.err == err;
        loop invariant all.bytes == (const uint8_t *)data && all.start == 0 &&
                       all.end == (data == \null ? 0 : size);
        loop assigns all.pos, count, ctx.anomalies, ctx.first_anomaly, *err;
        loop variant all.end - all.pos;
    */
    while (pb_cursor_remaining(&all) > 0) {
        if (count >= ctx.max_counters) {
            return pb_fail(&ctx, PERFBUF_E_LIMIT_EXCEEDED, all.pos, PBF_PERF_COUNTER_IDENTIFIER_Size);
        }
        perfbuf_v2_identifier id;
        perfbuf_status st = read_identifier(&ctx, &all, &id);
        if (st != PERFBUF_OK) {
            return st;
        }
        count++;
    }
    out->data = (const uint8_t *)data;
    out->size = size;
    out->count = count;
    out->anomalies = ctx.anomalies;
    out->first_anomaly = ctx.first_anomaly;
    return PERFBUF_OK;
}

/*@ requires \valid(it);
    assigns *it;
    ensures it->pos == 0 && it->next_index == 0;
*/
void perfbuf_v2_identifiers_begin(perfbuf_v2_list_iter *it)
{
    it->pos = 0;
    it->next_index = 0;
}

/*
 * An identifier as the parse accepted it: its header's fields at their
 * offsets and its name up to the NUL; region stepped past it. No size
 * rule or anomaly is judged again. The two checks left do not depend on
 * the bytes being valid: Size covers the header and lies inside the
 * region (so each step moves forward by at least 40 bytes), and a name
 * area has its NUL. Anything else is a view of another buffer: false.
 */
/*@ requires pb_valid(region) && \valid(region);
    requires \valid(out) && \separated(region, out);
    assigns region->pos, *out;
*/
static bool view_identifier(pb_cursor *region, perfbuf_v2_identifier *out)
{
    size_t at = region->pos;
    const uint8_t *hdr;
    if (!pb_cursor_take(region, PBS_PERF_COUNTER_IDENTIFIER, &hdr)) {
        return false;
    }
    uint32_t size = pb_le32(hdr + PBO_PERF_COUNTER_IDENTIFIER_Size);
    pb_cursor name;
    if (size < PBS_PERF_COUNTER_IDENTIFIER ||
        !pb_cursor_sub(region, size - PBS_PERF_COUNTER_IDENTIFIER, &name)) {
        return false;
    }
    size_t units = 0;
    bool has_name = pb_cursor_size(&name) > 0;
    if (has_name && !pb_utf16le_find_nul(&name, &units)) {
        return false;
    }
    /* Filled in a local and stored once, as the zeroing and the field
     * stores left *out: one store keeps the proof of the region's cursor
     * short. */
    perfbuf_v2_identifier v = identifier_zero;
    v.offset = at;
    v.size = size;
    v.counterset = pb_v2_load_guid(hdr + PBO_PERF_COUNTER_IDENTIFIER_CounterSetGuid);
    v.status = pb_le32(hdr + PBO_PERF_COUNTER_IDENTIFIER_Status);
    v.counter_id = pb_le32(hdr + PBO_PERF_COUNTER_IDENTIFIER_CounterId);
    v.instance_id = pb_le32(hdr + PBO_PERF_COUNTER_IDENTIFIER_InstanceId);
    v.query_index = pb_le32(hdr + PBO_PERF_COUNTER_IDENTIFIER_Index);
    if (has_name) {
        v.has_name = true;
        v.name_offset = name.start;
        v.name_units = units;
    }
    *out = v;
    return true;
}

/*@ requires l == \null || pb_v2_identifiers_ok((perfbuf_v2_identifiers *)l);
    requires it == \null || \valid(it);
    requires out == \null || \valid(out);
    requires l == \null || it == \null || \separated(l, it);
    requires l == \null || out == \null || \separated(l, out);
    requires it == \null || out == \null || \separated(it, out);
    assigns *it, *out;
    ensures \result ==> it->next_index == \old(it->next_index) + 1;
*/
bool perfbuf_v2_identifiers_next(const perfbuf_v2_identifiers *l, perfbuf_v2_list_iter *it,
                                 perfbuf_v2_identifier *out)
{
    if (l == NULL || it == NULL || out == NULL || it->next_index >= l->count) {
        return false;
    }
    pb_cursor c = pb_window(l->data, l->size, it->pos, l->size);
    if (!view_identifier(&c, out)) {
        /* An iterator or view of another buffer: nothing to read. */
        it->next_index = l->count;
        return false;
    }
    out->index = it->next_index++;
    it->pos = c.pos;
    return true;
}

/*@ requires l == \null || pb_v2_identifiers_ok((perfbuf_v2_identifiers *)l);
    requires id == \null || \valid_read(id);
    requires out == \null || \valid(out + (0 .. cap - 1));
    requires len == \null || \valid(len);
    requires \separated(out + (0 .. cap - 1), len);
    assigns out[0 .. cap - 1], *len;
*/
perfbuf_status perfbuf_v2_identifier_name_utf8(const perfbuf_v2_identifiers *l,
                                               const perfbuf_v2_identifier *id, char *out,
                                               size_t cap, size_t *len)
{
    if (l == NULL || id == NULL || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    return pb_view_utf16_to_utf8(l->data, l->size, id->name_offset,
                                 id->has_name ? id->name_units : 0, out, cap, len);
}
