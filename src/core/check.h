/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The validation context every reader threads through its walk: the
 * caller's options, where to report a rejection, and the anomalies a
 * lenient parse tolerated.
 */
#ifndef PERFBUF_CHECK_H
#define PERFBUF_CHECK_H

#include "perfbuf/common.h"
#include "core/cursor.h"
#include "core/layout.h"
#include "core/mix.h"

/*
 * A branch that validation makes impossible. Fuzzing builds trap there so
 * that a broken invariant is found; the library itself never aborts, so
 * other builds fall through to the defensive return that follows.
 */
#ifdef PERFBUF_FUZZING
#  define PB_UNREACHABLE() __builtin_trap()
#else
#  define PB_UNREACHABLE() ((void)0)
#endif

/*
 * A function kept out of its caller: for a pass that runs once and needs
 * its own scratch, so that the caller's frame stays small (the library's
 * target is 512 bytes per frame, bench/stack-usage.sh).
 */
#if defined(__GNUC__) || defined(__clang__)
#  define PB_NOINLINE __attribute__((noinline))
#else
#  define PB_NOINLINE
#endif

typedef struct pb_ctx {
    uint32_t flags;
    uint32_t max_sections;
    uint32_t max_counters;
    uint32_t max_instances;
    perfbuf_error *err;       /* may be NULL */
    uint32_t anomalies;
    perfbuf_error first_anomaly;
    /* What a V1 parse has validated of its objects and instances, hashed
     * into the parse's identity (v1/block.c). */
    pb_mix_lanes shape;
} pb_ctx;

/*@
  // A context a reader may report through: err, when set, is an object
  // of its own (never the context itself).
  predicate pb_ctx_ok(pb_ctx *ctx) =
      \valid(ctx) &&
      (ctx->err == \null || (\valid(ctx->err) && \separated(ctx->err, ctx)));
*/

/*@ requires \valid(ctx);
    requires opts == \null || \valid_read(opts);
    requires err == \null || (\valid(err) && \separated(err, ctx));
    assigns *ctx, *err;
    ensures pb_ctx_ok(ctx) && ctx->err == err;
*/
void pb_ctx_init(pb_ctx *ctx, const perfbuf_options *opts, perfbuf_error *err);

/* Fills *e to name the field at structure_offset + its own offset, with
 * no numbers compared. */
/*@ requires \valid(e);
    requires 0 <= field < PB_FIELD_COUNT;
    assigns *e;
*/
void pb_describe(perfbuf_error *e, perfbuf_status status, size_t structure_offset,
                 pb_field_id field);

/* Fills every field of *e from what a check outside the layout table
 * names (a path's part, a cross-check), with no numbers compared. */
void pb_error_set(perfbuf_error *e, perfbuf_status status, size_t offset, const char *structure,
                  const char *field);

/* Records a rejection of the field at structure_offset + its own offset. */
/*@ requires pb_ctx_ok(ctx);
    requires 0 <= field < PB_FIELD_COUNT;
    assigns *ctx->err;
    ensures ctx->err == \old(ctx->err);
    ensures \result == status;
*/
perfbuf_status pb_fail(pb_ctx *ctx, perfbuf_status status, size_t structure_offset,
                       pb_field_id field);

/* pb_fail for a size, count or offset that broke a bound: the error also
 * carries the value declared and the bound (perfbuf_error says which bound
 * each status compares with). */
/*@ requires pb_ctx_ok(ctx);
    requires 0 <= field < PB_FIELD_COUNT;
    assigns *ctx->err;
    ensures ctx->err == \old(ctx->err);
    ensures \result == status;
*/
perfbuf_status pb_fail_compared(pb_ctx *ctx, perfbuf_status status, size_t structure_offset,
                                pb_field_id field, uint64_t declared, uint64_t limit);

/*
 * A structure starting at structure_offset has only `available` bytes:
 * names the first of its fields that does not fit.
 */
/*@ requires pb_ctx_ok(ctx);
    requires 0 <= first_field < PB_FIELD_COUNT;
    assigns *ctx->err;
    ensures ctx->err == \old(ctx->err);
    ensures \result == PERFBUF_E_TRUNCATED;
*/
perfbuf_status pb_fail_truncated(pb_ctx *ctx, size_t structure_offset, size_t available,
                                 pb_field_id first_field);

/* Loose but known producer behaviour: an error in strict mode, otherwise
 * an anomaly flag (the first one's location is kept). */
/*@ requires pb_ctx_ok(ctx);
    requires 0 <= field < PB_FIELD_COUNT;
    assigns ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
    ensures \result == PERFBUF_OK || \result == status;
*/
perfbuf_status pb_anomaly(pb_ctx *ctx, uint32_t anomaly, perfbuf_status status,
                          size_t structure_offset, pb_field_id field);

/* A reader's arguments: an output, and bytes unless there are none.
 * INVALID_ARGUMENT (also in the caller's error) when they are missing. */
/*@ requires pb_ctx_ok(ctx);
    assigns ctx->err->status;
    ensures \result == PERFBUF_OK || \result == PERFBUF_E_INVALID_ARGUMENT;
    ensures \result == PERFBUF_OK <==> out != \null && (data != \null || size == 0);
*/
perfbuf_status pb_check_arguments(pb_ctx *ctx, const void *data, size_t size, const void *out);

/*@ requires \valid_read(ctx);
    assigns \nothing;
*/
static inline bool pb_strict(const pb_ctx *ctx)
{
    return (ctx->flags & PERFBUF_STRICT) != 0;
}

/* Reads a field of a structure window by its layout entry. */
/*@ requires pb_valid((pb_cursor *)s);
    requires 0 <= f < PB_FIELD_COUNT;
    requires \valid(v) && \separated(v, s);
    assigns *v;
*/
static inline bool pb_get32(const pb_cursor *s, pb_field_id f, uint32_t *v)
{
    return pb_cursor_get_u32(s, pb_fields[f].offset, v);
}

/*@ requires pb_valid((pb_cursor *)s);
    requires 0 <= f < PB_FIELD_COUNT;
    requires \valid(v) && \separated(v, s);
    assigns *v;
*/
static inline bool pb_get64(const pb_cursor *s, pb_field_id f, uint64_t *v)
{
    return pb_cursor_get_u64(s, pb_fields[f].offset, v);
}

/*
 * A field of a window that pb_take_struct carved at the structure's full
 * size: the read cannot fail (layout.c asserts every field lies inside its
 * structure). Should it ever, fuzzing builds trap and others read 0.
 */
/*@ requires pb_valid((pb_cursor *)s);
    requires 0 <= f < PB_FIELD_COUNT;
    assigns \nothing;
*/
static inline uint32_t pb_field32(const pb_cursor *s, pb_field_id f)
{
    uint32_t v;
    if (!pb_get32(s, f, &v)) {
        PB_UNREACHABLE();
        return 0;
    }
    return v;
}

/*@ requires pb_valid((pb_cursor *)s);
    requires 0 <= f < PB_FIELD_COUNT;
    assigns \nothing;
*/
static inline uint64_t pb_field64(const pb_cursor *s, pb_field_id f)
{
    uint64_t v;
    if (!pb_get64(s, f, &v)) {
        PB_UNREACHABLE();
        return 0;
    }
    return v;
}

/*
 * Carves the next `size` bytes of parent as the window of a fixed-size
 * structure, or reports which of its fields (from first_field on) is cut.
 */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(parent) && \valid(parent);
    requires \valid(window) && \separated(ctx, parent, window);
    requires ctx->err == \null || \separated(ctx->err, parent, window);
    requires 0 <= first_field < PB_FIELD_COUNT;
    assigns parent->pos, *window, *ctx->err;
    ensures pb_valid(parent) && pb_valid(window);
    ensures \result == PERFBUF_OK || \result == PERFBUF_E_TRUNCATED;
    ensures \result == PERFBUF_OK ==>
        parent->pos == \old(parent->pos) + size && window->bytes == parent->bytes &&
        window->start == \old(parent->pos) && window->pos == window->start &&
        window->end == window->start + size;
    ensures \result != PERFBUF_OK ==> parent->pos == \old(parent->pos);
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static inline perfbuf_status pb_take_struct(pb_ctx *ctx, pb_cursor *parent, size_t size,
                                            pb_field_id first_field, pb_cursor *window)
{
    size_t at = parent->pos;
    if (pb_cursor_sub(parent, size, window)) {
        return PERFBUF_OK;
    }
    *window = pb_cursor_make(NULL, 0);
    return pb_fail_truncated(ctx, at, pb_cursor_remaining(parent), first_field);
}

/*
 * Carves n bytes that a check has already shown to be there. Should they
 * not be, fuzzing builds trap and others get an empty window, on which
 * every later read fails safely.
 */
/*@ requires pb_valid(parent) && \valid(parent);
    requires \valid(child) && \separated(parent, child);
    assigns parent->pos, *child;
    ensures pb_valid(parent) && pb_valid(child);
    ensures child->bytes == parent->bytes;
    ensures child->start == \old(parent->pos) && child->pos == child->start;
    ensures n <= \old(parent->end - parent->pos) ==>
        parent->pos == \old(parent->pos) + n && child->end == \old(parent->pos) + n;
    ensures parent->pos >= \old(parent->pos);
*/
static inline void pb_take_checked(pb_cursor *parent, size_t n, pb_cursor *child)
{
    if (!pb_cursor_sub(parent, n, child)) {
        PB_UNREACHABLE();
        (void)pb_cursor_sub(parent, 0, child);
    }
}

/* Two's-complement reinterpretation without implementation-defined casts.
 * UINT64_MAX - v is ~v, written as a subtraction so that the provers see
 * it below INT64_MAX here (they are not told what ~ does to a bound). */
/*@ assigns \nothing; */
static inline int64_t pb_i64(uint64_t v)
{
    return v <= (uint64_t)INT64_MAX ? (int64_t)v : -(int64_t)(UINT64_MAX - v) - 1;
}

/*@ assigns \nothing; */
static inline int32_t pb_i32(uint32_t v)
{
    return v <= (uint32_t)INT32_MAX ? (int32_t)v : -(int32_t)(UINT32_MAX - v) - 1;
}

/*
 * A cursor over [pos, end) of a buffer a parse has validated, for the
 * views. Positions come from views and iterators the caller holds, which
 * may belong to another buffer (two captures of one query): a range
 * outside the buffer gives an empty cursor, on which reads fail safely.
 * That is a caller's mix-up, not a broken invariant, so it never traps;
 * the fuzz oracles check that views of one buffer agree with its parse.
 */
/*@ requires \valid_read(data + (0 .. size - 1));
    assigns \nothing;
    ensures pb_valid_view(\result);
    behavior inside:
      assumes end <= size && pos <= end;
      ensures \result.bytes == data && \result.start == pos;
      ensures \result.pos == pos && \result.end == end;
    behavior outside:
      assumes end > size || pos > end;
      ensures \result.start == 0 && \result.pos == 0 && \result.end == 0;
    complete behaviors;
    disjoint behaviors;
*/
pb_cursor pb_window(const uint8_t *data, size_t size, size_t pos, size_t end);

/* A silent, lenient context with no limits: re-decoding validated bytes
 * must not judge them again. */
/*@ requires \valid(ctx);
    assigns *ctx;
    ensures pb_ctx_ok(ctx) && ctx->err == \null;
*/
void pb_view_ctx(pb_ctx *ctx);

/* A SYSTEMTIME field of a structure window (same contract as pb_field32). */
/*@ requires pb_valid((pb_cursor *)s);
    requires 0 <= f < PB_FIELD_COUNT;
    assigns \nothing;
*/
perfbuf_systemtime pb_field_systemtime(const pb_cursor *s, pb_field_id f);

/*
 * UTF-8 of `units` UTF-16LE code units at byte `offset` of a buffer a parse
 * has validated (a view's name or string); out and len as in
 * perfbuf_utf16le_to_utf8. A range outside the buffer (a view of another
 * buffer) is INVALID_ARGUMENT, never an empty name.
 */
/*@ requires \valid_read(data + (0 .. size - 1));
    requires cap == 0 || \valid(out + (0 .. cap - 1));
    requires len == \null || \valid(len);
    requires \separated(out + (0 .. cap - 1), len);
    assigns out[0 .. cap - 1], *len;
*/
perfbuf_status pb_view_utf16_to_utf8(const uint8_t *data, size_t size, size_t offset,
                                     size_t units, char *out, size_t cap, size_t *len);

/* A GUID field of a structure window (same contract as pb_field32). */
/*@ requires pb_valid((pb_cursor *)s);
    requires 0 <= f < PB_FIELD_COUNT;
    assigns \nothing;
*/
perfbuf_guid pb_field_guid(const pb_cursor *s, pb_field_id f);

/* The GUID at byte rel of a window a parse has validated. */
/*@ requires pb_valid((pb_cursor *)s);
    assigns \nothing;
*/
perfbuf_guid pb_read_guid(const pb_cursor *s, size_t rel);

#endif
