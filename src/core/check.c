/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "core/check.h"

#include "core/text.h"
#include "core/work.h"

/*@ assigns \nothing;
    ensures \result == (requested != 0 ? requested : fallback);
*/
static uint32_t limit_or(uint32_t requested, uint32_t fallback)
{
    return requested != 0 ? requested : fallback;
}

void pb_ctx_init(pb_ctx *ctx, const perfbuf_options *opts, perfbuf_error *err)
{
    perfbuf_options none = {0, 0, 0, 0};
    if (opts == NULL) {
        opts = &none;
    }
    ctx->flags = opts->flags;
    ctx->max_sections = limit_or(opts->max_sections, PERFBUF_DEFAULT_MAX_SECTIONS);
    ctx->max_counters = limit_or(opts->max_counters, PERFBUF_DEFAULT_MAX_COUNTERS);
    ctx->max_instances = limit_or(opts->max_instances, PERFBUF_DEFAULT_MAX_INSTANCES);
    ctx->err = err;
    ctx->anomalies = 0;
    ctx->first_anomaly.status = PERFBUF_OK;
    ctx->first_anomaly.offset = 0;
    ctx->first_anomaly.structure = "";
    ctx->first_anomaly.field = "";
    ctx->first_anomaly.declared = 0;
    ctx->first_anomaly.limit = 0;
    ctx->shape.low = 0;
    ctx->shape.high = 0;
    if (err != NULL) {
        *err = ctx->first_anomaly;
    }
}

void pb_describe(perfbuf_error *e, perfbuf_status status, size_t structure_offset,
                 pb_field_id field)
{
    e->status = status;
    e->structure = pb_fields[field].structure;
    e->field = pb_fields[field].name;
    /* Offsets inside a buffer the caller holds cannot overflow size_t; if
     * they ever could, report the structure's own offset. */
    e->offset = structure_offset;
    (void)pb_add(structure_offset, pb_fields[field].offset, &e->offset);
    e->declared = 0;
    e->limit = 0;
}

void pb_error_set(perfbuf_error *e, perfbuf_status status, size_t offset, const char *structure,
                  const char *field)
{
    e->status = status;
    e->offset = offset;
    e->structure = structure;
    e->field = field;
    e->declared = 0;
    e->limit = 0;
}

perfbuf_status pb_fail(pb_ctx *ctx, perfbuf_status status, size_t structure_offset,
                       pb_field_id field)
{
    if (ctx->err != NULL) {
        pb_describe(ctx->err, status, structure_offset, field);
    }
    return status;
}

perfbuf_status pb_fail_compared(pb_ctx *ctx, perfbuf_status status, size_t structure_offset,
                                pb_field_id field, uint64_t declared, uint64_t limit)
{
    if (ctx->err != NULL) {
        pb_describe(ctx->err, status, structure_offset, field);
        ctx->err->declared = declared;
        ctx->err->limit = limit;
    }
    return status;
}

perfbuf_status pb_fail_truncated(pb_ctx *ctx, size_t structure_offset, size_t available,
                                 pb_field_id first_field)
{
    const char *structure = pb_fields[first_field].structure;
    pb_field_id f = first_field;
    pb_field_id cut = first_field;
    /* Fields of one structure are consecutive in layout.def. */
    /*@ loop invariant first_field <= f <= PB_FIELD_COUNT;
        loop invariant 0 <= cut < PB_FIELD_COUNT;
        loop assigns f, cut;
        loop variant PB_FIELD_COUNT - f;
    */
    while (f < PB_FIELD_COUNT && pb_fields[f].structure == structure) {
        PB_WORK(1);
        if ((size_t)pb_fields[f].offset + pb_fields[f].width > available) {
            cut = f;
            break;
        }
        f = (pb_field_id)(f + 1);
    }
    /* The bytes the structure needs up to the end of the cut field, and
     * the bytes it has; none when only padding after the last field is
     * missing, as no field's end then passes them. */
    uint64_t needed = (uint64_t)pb_fields[cut].offset + pb_fields[cut].width;
    perfbuf_status st = needed > available
                            ? pb_fail_compared(ctx, PERFBUF_E_TRUNCATED, structure_offset, cut,
                                               needed, available)
                            : pb_fail(ctx, PERFBUF_E_TRUNCATED, structure_offset, cut);
    /* A field after a padding hole starts past the data; the error points
     * at where the data ends, so it always lies inside the input. */
    if (ctx->err != NULL && pb_fields[cut].offset > available) {
        ctx->err->offset = structure_offset + available;
    }
    return st;
}

perfbuf_status pb_anomaly(pb_ctx *ctx, uint32_t anomaly, perfbuf_status status,
                          size_t structure_offset, pb_field_id field)
{
    if (pb_strict(ctx)) {
        return pb_fail(ctx, status, structure_offset, field);
    }
    if (ctx->anomalies == 0) {
        pb_describe(&ctx->first_anomaly, status, structure_offset, field);
    }
    ctx->anomalies |= anomaly;
    return PERFBUF_OK;
}

perfbuf_status pb_check_arguments(pb_ctx *ctx, const void *data, size_t size, const void *out)
{
    if (out != NULL && (data != NULL || size == 0)) {
        return PERFBUF_OK;
    }
    if (ctx->err != NULL) {
        ctx->err->status = PERFBUF_E_INVALID_ARGUMENT;
    }
    return PERFBUF_E_INVALID_ARGUMENT;
}

perfbuf_systemtime pb_field_systemtime(const pb_cursor *s, pb_field_id f)
{
    perfbuf_systemtime t = {0, 0, 0, 0, 0, 0, 0, 0};
    pb_cursor w;
    if (!pb_cursor_slice(s, pb_fields[f].offset, 16, &w)) {
        PB_UNREACHABLE();
        return t;
    }
    /* Eight 2-byte reads from a 16-byte window: none can fail, and a read
     * that did would leave its field 0. */
    (void)pb_cursor_read_u16(&w, &t.year);
    (void)pb_cursor_read_u16(&w, &t.month);
    (void)pb_cursor_read_u16(&w, &t.day_of_week);
    (void)pb_cursor_read_u16(&w, &t.day);
    (void)pb_cursor_read_u16(&w, &t.hour);
    (void)pb_cursor_read_u16(&w, &t.minute);
    (void)pb_cursor_read_u16(&w, &t.second);
    (void)pb_cursor_read_u16(&w, &t.milliseconds);
    return t;
}

perfbuf_status pb_view_utf16_to_utf8(const uint8_t *data, size_t size, size_t offset,
                                     size_t units, char *out, size_t cap, size_t *len)
{
    pb_utf8_out o;
    pb_utf8_out_init(&o, out, cap);
    size_t bytes;
    size_t end;
    if (!pb_mul(units, 2, &bytes) || !pb_add(offset, bytes, &end) || end > size) {
        (void)pb_utf8_finish(&o, len);
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    pb_utf16le_convert(pb_window(data, size, offset, end), &o);
    return pb_utf8_finish(&o, len);
}

perfbuf_guid pb_read_guid(const pb_cursor *s, size_t rel)
{
    perfbuf_guid g = {0, 0, 0, {0, 0, 0, 0, 0, 0, 0, 0}};
    pb_cursor f;
    if (!pb_cursor_slice(s, rel, 16, &f)) {
        PB_UNREACHABLE();
        return g;
    }
    /* 4 + 2 + 2 + 8 bytes from a 16-byte window: no read can fail, and one
     * that did would leave its field 0. */
    (void)pb_cursor_read_u32(&f, &g.data1);
    (void)pb_cursor_read_u16(&f, &g.data2);
    (void)pb_cursor_read_u16(&f, &g.data3);
    for (size_t i = 0; i < sizeof g.data4; i++) {
        (void)pb_cursor_read_u8(&f, &g.data4[i]);
    }
    return g;
}

perfbuf_guid pb_field_guid(const pb_cursor *s, pb_field_id f)
{
    return pb_read_guid(s, pb_fields[f].offset);
}

pb_cursor pb_window(const uint8_t *data, size_t size, size_t pos, size_t end)
{
    if (end > size || pos > end) {
        return pb_cursor_make(NULL, 0);
    }
    pb_cursor c = pb_cursor_make(data, size);
    c.start = pos;
    c.pos = pos;
    c.end = end;
    return c;
}

void pb_view_ctx(pb_ctx *ctx)
{
    pb_ctx_init(ctx, NULL, NULL);
    ctx->max_sections = UINT32_MAX;
    ctx->max_counters = UINT32_MAX;
    ctx->max_instances = UINT32_MAX;
}
