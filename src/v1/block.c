/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The V1 data block. As for V2, one set of decoding functions serves both
 * the validating parse (deep) and the iterators (shallow, on a block the
 * parse accepted).
 */
#include <string.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/v1.h"

#include "core/check.h"
#include "core/le_load.h"
#include "core/mix.h"
#include "core/text.h"
#include "v1/internal.h"

/* Cursors here are declared, then copied into: the proof (docs/proofs.md)
 * loses a structure copy that initialises a local whose address is taken.
 * The steps and their order are the same. */

/* The smallest instance: its definition and an empty counter block. */
#define MIN_INSTANCE_BYTES PB_V1_MIN_INSTANCE_BYTES

/*@ requires pb_ctx_ok(ctx);
    requires pb_valid((pb_cursor *)region);
    requires 0 <= field < PB_FIELD_COUNT;
    assigns ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status check_leftover(pb_ctx *ctx, const pb_cursor *region, size_t at,
                                     pb_field_id field)
{
    size_t left = pb_cursor_remaining(region);
    if (left == 0 || left <= pb_pad8(pb_cursor_consumed(region))) {
        return PERFBUF_OK;
    }
    return pb_anomaly(ctx, PERFBUF_ANOMALY_TRAILING_BYTES, PERFBUF_E_TRAILING_BYTES, at, field);
}

/* A length that covers its own fixed header: at least it, inside parent. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid((pb_cursor *)parent);
    requires 0 <= field < PB_FIELD_COUNT;
    assigns ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status check_length(pb_ctx *ctx, uint32_t length, size_t header,
                                   const pb_cursor *parent, size_t at, pb_field_id field,
                                   bool must_align)
{
    if (length < header) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_SMALL, at, field, length, header);
    }
    if (length > pb_cursor_remaining(parent)) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_LARGE, at, field, length,
                                pb_cursor_remaining(parent));
    }
    if (must_align && length % 8 != 0) {
        return pb_anomaly(ctx, PERFBUF_ANOMALY_UNALIGNED_SIZE, PERFBUF_E_SIZE_UNALIGNED, at, field);
    }
    return PERFBUF_OK;
}

static perfbuf_status check_counter_fields(pb_ctx *ctx, const perfbuf_v1_counter *out, size_t at);

/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(defs) && \valid(defs);
    requires \valid(out) && \separated(defs, out, ctx);
    requires ctx->err == \null || \separated(ctx->err, defs, out);
    assigns defs->pos, *out, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(defs) && pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
perfbuf_status pb_v1_read_counter(pb_ctx *ctx, pb_cursor *defs, perfbuf_v1_counter *out)
{
    size_t at = defs->pos;
    pb_cursor peek;
    peek = *defs;
    pb_cursor hdr;
    perfbuf_status st = pb_take_struct(ctx, &peek, PBS_PERF_COUNTER_DEFINITION,
                                       PBF_PERF_COUNTER_DEFINITION_ByteLength, &hdr);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint32_t length = pb_field32(&hdr, PBF_PERF_COUNTER_DEFINITION_ByteLength);
    st = check_length(ctx, length, PBS_PERF_COUNTER_DEFINITION, defs, at,
                      PBF_PERF_COUNTER_DEFINITION_ByteLength, false);
    if (st != PERFBUF_OK) {
        return st;
    }
    pb_cursor def;
    pb_take_checked(defs, length, &def);
    /* For the proof: the cursor's bytes are the caller's, none of the
     * locals freed on return, and the error pointer is the caller's. */
    /*@ assert pb_valid(defs); */
    /*@ assert defs->bytes == \at(defs->bytes, Pre); */
    /*@ assert ctx->err == \at(ctx->err, Pre); */
    /*@ assert hdr_kept: pb_valid(&hdr); */
    out->offset = at;
    out->byte_length = length;
    out->name_title_index = pb_field32(&hdr, PBF_PERF_COUNTER_DEFINITION_CounterNameTitleIndex);
    out->help_title_index = pb_field32(&hdr, PBF_PERF_COUNTER_DEFINITION_CounterHelpTitleIndex);
    out->default_scale = pb_i32(pb_field32(&hdr, PBF_PERF_COUNTER_DEFINITION_DefaultScale));
    out->detail_level = pb_field32(&hdr, PBF_PERF_COUNTER_DEFINITION_DetailLevel);
    out->type = pb_field32(&hdr, PBF_PERF_COUNTER_DEFINITION_CounterType);
    out->size = pb_field32(&hdr, PBF_PERF_COUNTER_DEFINITION_CounterSize);
    out->counter_offset = pb_field32(&hdr, PBF_PERF_COUNTER_DEFINITION_CounterOffset);
    st = check_counter_fields(ctx, out, at);
    /*@ assert pb_valid(defs) && defs->bytes == \at(defs->bytes, Pre); */
    return st;
}

/* The checks of a decoded definition's type, size and offset, apart from
 * its reading so that each proof stays small enough for the provers. */
/*@ requires pb_ctx_ok(ctx);
    requires \valid_read(out) && \separated(out, ctx);
    requires ctx->err == \null || \separated(ctx->err, out);
    assigns ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status check_counter_fields(pb_ctx *ctx, const perfbuf_v1_counter *out, size_t at)
{
    perfbuf_status st;
    if (perfbuf_counter_type_lookup(out->type) == NULL) {
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_UNKNOWN_VALUE, PERFBUF_E_UNKNOWN_VALUE, at,
                        PBF_PERF_COUNTER_DEFINITION_CounterType);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    uint32_t expected = perfbuf_counter_type_size(out->type);
    /* A DWORD type over a 64-bit field: Windows' disk provider writes each
     * CounterSize as its field's size, and its PERF_AVERAGE_TIMER counters
     * sit in LONGLONG fields. The value is read whole, as any size 8. */
    bool widened_dword = expected == 4 && out->size == 8;
    if (expected != PERFBUF_SIZE_VARIABLE && expected != out->size && !widened_dword) {
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_SIZE_MISMATCH, PERFBUF_E_INCONSISTENT, at,
                        PBF_PERF_COUNTER_DEFINITION_CounterSize);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    /* The first four bytes of a counter block are its ByteLength. */
    if (out->size > 0 && out->counter_offset < PBS_PERF_COUNTER_BLOCK) {
        return pb_fail_compared(ctx, PERFBUF_E_OFFSET_OUT_OF_RANGE, at,
                                PBF_PERF_COUNTER_DEFINITION_CounterOffset, out->counter_offset,
                                PBS_PERF_COUNTER_BLOCK);
    }
    return PERFBUF_OK;
}

/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(data) && \valid(data);
    requires reach == \null || \valid_read(reach);
    requires \valid(out) && \separated(data, out, ctx);
    requires ctx->err == \null || \separated(ctx->err, data, out);
    assigns data->pos, *out, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(data) && pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
perfbuf_status pb_v1_read_counter_block(pb_ctx *ctx, pb_cursor *data, const pb_v1_reach *reach,
                                        perfbuf_v1_counter_block *out)
{
    size_t at = data->pos;
    pb_cursor peek;
    peek = *data;
    pb_cursor hdr;
    perfbuf_status st = pb_take_struct(ctx, &peek, PBS_PERF_COUNTER_BLOCK,
                                       PBF_PERF_COUNTER_BLOCK_ByteLength, &hdr);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint32_t length = pb_field32(&hdr, PBF_PERF_COUNTER_BLOCK_ByteLength);
    st = check_length(ctx, length, PBS_PERF_COUNTER_BLOCK, data, at,
                      PBF_PERF_COUNTER_BLOCK_ByteLength, true);
    if (st != PERFBUF_OK) {
        return st;
    }
    /* A counter that reaches past a block is the definition's fault: it
     * is named, so the error points at the field that says where. */
    if (reach != NULL && length < reach->end) {
        return pb_fail_compared(ctx, PERFBUF_E_OFFSET_OUT_OF_RANGE, reach->definition,
                                PBF_PERF_COUNTER_DEFINITION_CounterOffset, reach->end, length);
    }
    pb_cursor block;
    pb_take_checked(data, length, &block);
    /* For the proof: the cursor's bytes are the caller's, none of the
     * locals freed on return. */
    /*@ assert pb_valid(data) && data->bytes == \at(data->bytes, Pre); */
    out->offset = at;
    out->byte_length = length;
    out->parse_id = 0; /* bytes, not yet a parse's: only views stamp one */
    return PERFBUF_OK;
}

/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(data) && \valid(data);
    requires \valid(out) && \separated(data, out, ctx);
    requires ctx->err == \null || \separated(ctx->err, data, out);
    assigns data->pos, *out, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(data) && pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
perfbuf_status pb_v1_read_instance(pb_ctx *ctx, pb_cursor *data, uint32_t code_page,
                                   perfbuf_v1_instance *out)
{
    return pb_v1_read_instance_known(ctx, data, code_page, NULL, out);
}

/* An instance's name: its span inside the instance's bytes (inst) and its
 * length before the terminator. Apart from pb_v1_read_instance_known so
 * that the proof of the caller's cursor sees one call, not every return. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid((pb_cursor *)inst);
    requires known_name_bytes == \null || \valid_read(known_name_bytes);
    requires \valid(out) && \separated(out, ctx);
    requires ctx->err == \null || \separated(ctx->err, out);
    assigns out->name_offset, out->name_bytes, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status read_instance_name(pb_ctx *ctx, const pb_cursor *inst, size_t at,
                                         uint32_t length, uint32_t name_offset,
                                         uint32_t name_length, uint32_t code_page,
                                         const size_t *known_name_bytes,
                                         perfbuf_v1_instance *out)
{
    perfbuf_status st;
    if (name_length == 0) {
        return PERFBUF_OK;
    }
    if (name_offset < PBS_PERF_INSTANCE_DEFINITION) {
        return pb_fail_compared(ctx, PERFBUF_E_OVERLAP, at,
                                PBF_PERF_INSTANCE_DEFINITION_NameOffset, name_offset,
                                PBS_PERF_INSTANCE_DEFINITION);
    }
    if (name_offset > length) {
        return pb_fail_compared(ctx, PERFBUF_E_OFFSET_OUT_OF_RANGE, at,
                                PBF_PERF_INSTANCE_DEFINITION_NameOffset, name_offset, length);
    }
    if (name_length > length - name_offset) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_LARGE, at,
                                PBF_PERF_INSTANCE_DEFINITION_NameLength, name_length,
                                length - name_offset);
    }
    if (code_page == 0 && name_length % 2 != 0) {
        return pb_fail(ctx, PERFBUF_E_ODD_LENGTH, at, PBF_PERF_INSTANCE_DEFINITION_NameLength);
    }
    pb_cursor name;
    if (!pb_cursor_slice(inst, name_offset, name_length, &name)) {
        PB_UNREACHABLE();
        return pb_fail(ctx, PERFBUF_E_OFFSET_OUT_OF_RANGE, at,
                       PBF_PERF_INSTANCE_DEFINITION_NameOffset);
    }
    out->name_offset = name.start;
    /* NameLength counts the terminator; a name without one is its whole
     * span, tolerated (and reported) since its length is known anyway. */
    size_t text_bytes;
    if (known_name_bytes != NULL && *known_name_bytes <= name_length) {
        /* An index recorded it when this instance was walked: a parent
         * shared by many children is not scanned again for each. */
        out->name_bytes = *known_name_bytes;
        return PERFBUF_OK;
    }
    if (!pb_text_find_terminator(code_page, &name, &text_bytes)) {
        text_bytes = name_length;
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_UNTERMINATED, PERFBUF_E_UNTERMINATED_STRING, at,
                        PBF_PERF_INSTANCE_DEFINITION_NameLength);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    out->name_bytes = text_bytes;
    return PERFBUF_OK;
}

/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(data) && \valid(data);
    requires known_name_bytes == \null || \valid_read(known_name_bytes);
    requires \valid(out) && \separated(data, out, ctx);
    requires ctx->err == \null || \separated(ctx->err, data, out);
    assigns data->pos, *out, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(data) && pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
perfbuf_status pb_v1_read_instance_known(pb_ctx *ctx, pb_cursor *data, uint32_t code_page,
                                         const size_t *known_name_bytes, perfbuf_v1_instance *out)
{
    size_t at = data->pos;
    pb_cursor peek;
    peek = *data;
    pb_cursor hdr;
    perfbuf_status st = pb_take_struct(ctx, &peek, PBS_PERF_INSTANCE_DEFINITION,
                                       PBF_PERF_INSTANCE_DEFINITION_ByteLength, &hdr);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint32_t length = pb_field32(&hdr, PBF_PERF_INSTANCE_DEFINITION_ByteLength);
    st = check_length(ctx, length, PBS_PERF_INSTANCE_DEFINITION, data, at,
                      PBF_PERF_INSTANCE_DEFINITION_ByteLength, true);
    if (st != PERFBUF_OK) {
        return st;
    }
    pb_cursor inst;
    pb_take_checked(data, length, &inst);
    /* For the proof: the cursor's bytes are the caller's, none of the
     * locals freed on return, and the error pointer is the caller's. */
    /*@ assert pb_valid(data) && data->bytes == \at(data->bytes, Pre) &&
               ctx->err == \at(ctx->err, Pre); */
    uint32_t name_offset = pb_field32(&hdr, PBF_PERF_INSTANCE_DEFINITION_NameOffset);
    uint32_t name_length = pb_field32(&hdr, PBF_PERF_INSTANCE_DEFINITION_NameLength);
    out->offset = at;
    out->byte_length = length;
    out->parent_title_index = pb_field32(&hdr, PBF_PERF_INSTANCE_DEFINITION_ParentObjectTitleIndex);
    out->parent_instance = pb_field32(&hdr, PBF_PERF_INSTANCE_DEFINITION_ParentObjectInstance);
    out->unique_id = pb_i32(pb_field32(&hdr, PBF_PERF_INSTANCE_DEFINITION_UniqueID));
    out->code_page = code_page;
    out->name_offset = at + PBS_PERF_INSTANCE_DEFINITION;
    out->name_bytes = 0;
    /*@ assert pb_valid(data) && data->bytes == \at(data->bytes, Pre) &&
               ctx->err == \at(ctx->err, Pre); */
    st = read_instance_name(ctx, &inst, at, length, name_offset, name_length, code_page,
                            known_name_bytes, out);
    /* For the proof, as above: the name's checks wrote none of *data. */
    /*@ assert pb_valid(data) && data->bytes == \at(data->bytes, Pre); */
    return st;
}

/*
 * The claim budget. The PERF_COUNTER_DEFINITION reference page allows
 * counters to share data ("multiple counters can use the same raw data and
 * point to the same offset in the PERF_COUNTER_BLOCK block"), and Windows'
 * disk objects do: four precision-timer bases read one 8-byte timestamp.
 * Sharing is not limited, but the bytes all definitions claim (a counter of
 * size 0 claims one) are: at most PB_V1_CLAIM_FACTOR times the furthest
 * claimed end (at least 4, the block's own ByteLength), which every counter
 * block of the object reaches. An object then holds at most
 * PB_V1_CLAIM_FACTOR values per byte of each counter block (plus two: a
 * counter of size 0 may sit at the block's very end), so reading
 * every value of every instance stays linear in the buffer. A partial overlap is not told apart from an
 * identical range: the page restricts neither, and each read stays inside
 * its counter block whatever it shares.
 */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid_view(defs);
    assigns *ctx->err;
*/
static perfbuf_status fail_claim_budget(pb_ctx *ctx, pb_cursor defs, uint32_t counter_count,
                                        uint64_t budget_end)
{
    /* Found after every definition was read, since the furthest end is
     * known only then; a second pass names the definition whose claim
     * first went over it. The definitions were all validated above. */
    uint64_t claimed = 0;
    size_t at = defs.pos;
    /*@ loop invariant 0 <= i <= counter_count;
        loop invariant pb_valid(&defs);
        loop assigns i, defs.pos, at, claimed;
        loop variant counter_count - i;
    */
    for (uint32_t i = 0; i < counter_count; i++) {
        perfbuf_v1_counter c;
        if (!pb_v1_view_counter(&defs, &c)) {
            break;
        }
        at = c.offset;
        claimed += pb_v1_counter_claim(&c);
        if (claimed > PB_V1_CLAIM_FACTOR * budget_end) {
            break;
        }
    }
    return pb_fail(ctx, PERFBUF_E_OVERLAP, at, PBF_PERF_COUNTER_DEFINITION_CounterOffset);
}

/* Definitions of one object: each one's own checks, the base counter that
 * must follow fraction, average and precision types, and the largest end
 * of any counter, which every counter block must reach. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid_view(defs);
    requires \valid_read(o) && \valid(reach) && \separated(reach, o, ctx);
    requires ctx->err == \null || \separated(ctx->err, o, reach);
    assigns *reach, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status check_definitions(pb_ctx *ctx, pb_cursor defs, const perfbuf_v1_object *o,
                                        pb_v1_reach *reach)
{
    const pb_cursor all_defs = defs;
    const perfbuf_counter_type_info *pending = NULL;
    size_t pending_at = 0;
    reach->end = 0;
    reach->definition = 0;
    /* Bytes the counters claim in every counter block and the furthest
     * claimed end: see fail_claim_budget. */
    uint64_t claimed = 0;
    uint64_t claimed_end = 0;
    /*@ loop invariant 0 <= i <= o->counter_count;
        loop invariant pb_valid(&defs) && pb_ctx_ok(ctx);
        loop invariant ctx->err == \at(ctx->err, Pre);
        loop invariant pending == \null || \valid_read(pending);
        loop assigns i, defs.pos, pending, pending_at, reach->end, reach->definition, claimed,
                     claimed_end, ctx->anomalies, ctx->first_anomaly, *\at(ctx->err, Pre);
        loop variant o->counter_count - i;
    */
    for (uint32_t i = 0; i < o->counter_count; i++) {
        perfbuf_v1_counter c;
        perfbuf_status st = pb_v1_read_counter(ctx, &defs, &c);
        if (st != PERFBUF_OK) {
            return st;
        }
        const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(c.type);
        if (pending != NULL) {
            bool is_base = info != NULL && info->is_base;
            bool is_multi_base = c.type == PERF_COUNTER_MULTI_BASE;
            if (pending->needs_base && !is_base) {
                return pb_fail(ctx, PERFBUF_E_BAD_REFERENCE, pending_at,
                               PBF_PERF_COUNTER_DEFINITION_CounterType);
            }
            if (pending->needs_multi && !is_multi_base) {
                st = pb_anomaly(ctx, PERFBUF_ANOMALY_MISSING_BASE, PERFBUF_E_BAD_REFERENCE,
                                pending_at, PBF_PERF_COUNTER_DEFINITION_CounterType);
                if (st != PERFBUF_OK) {
                    return st;
                }
            }
        }
        pending = (info != NULL && (info->needs_base || info->needs_multi)) ? info : NULL;
        pending_at = c.offset;
        uint64_t end = (uint64_t)c.counter_offset + c.size;
        if (end > reach->end) {
            reach->end = end;
            reach->definition = c.offset;
        }
        uint64_t claim = pb_v1_counter_claim(&c);
        claimed += claim;
        if ((uint64_t)c.counter_offset + claim > claimed_end) {
            claimed_end = (uint64_t)c.counter_offset + claim;
        }
    }
    /* Every counter block holds at least its own 4-byte ByteLength, so
     * counters of size 0 inside it are budgeted against those 4 bytes. */
    uint64_t budget_end = claimed_end > PBS_PERF_COUNTER_BLOCK ? claimed_end : PBS_PERF_COUNTER_BLOCK;
    if (claimed > PB_V1_CLAIM_FACTOR * budget_end) {
        return fail_claim_budget(ctx, all_defs, o->counter_count, budget_end);
    }
    if (pending != NULL) {
        if (pending->needs_base) {
            return pb_fail(ctx, PERFBUF_E_BAD_REFERENCE, pending_at,
                           PBF_PERF_COUNTER_DEFINITION_CounterType);
        }
        perfbuf_status st = pb_anomaly(ctx, PERFBUF_ANOMALY_MISSING_BASE, PERFBUF_E_BAD_REFERENCE,
                                       pending_at, PBF_PERF_COUNTER_DEFINITION_CounterType);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    /* No source describes padding after the definitions: a gap short of
     * the next 8-byte boundary means the last ByteLength is short, so it
     * is that field that is named, not taken for padding. */
    size_t gap = pb_cursor_remaining(&defs);
    if (o->counter_count > 0 && gap > 0 && gap <= pb_pad8(pb_cursor_consumed(&defs))) {
        size_t last_definition_at = pending_at; /* set by every definition */
        return pb_anomaly(ctx, PERFBUF_ANOMALY_SIZE_MISMATCH, PERFBUF_E_INCONSISTENT,
                          last_definition_at, PBF_PERF_COUNTER_DEFINITION_ByteLength);
    }
    return check_leftover(ctx, &defs, o->offset, PBF_PERF_OBJECT_TYPE_DefinitionLength);
}

/* The instance walk, inlined where its text unit is a constant. */
#if defined(__GNUC__) || defined(__clang__)
#  define PB_V1_WALK_INLINE static inline __attribute__((always_inline))
#else
#  define PB_V1_WALK_INLINE static inline
#endif

/*
 * Whether one instance and its counter block pass every check of
 * pb_v1_read_instance and pb_v1_read_counter_block with nothing to report,
 * moving *data past both when they do. Every check below is the negation
 * of one of their rejections or anomalies; when any does not hold, those
 * decoders run on the same bytes and name the field (or record the
 * anomaly) exactly as they always have, so this path changes only the
 * time taken. It is the parse's loop over every instance, so it reads each
 * field once through the cursor's bounds check and decodes it in place
 * (core/le_load.h): three checks per instance (its header, its whole
 * ByteLength, its counter block's) where reading field by field took one
 * per field. A name's span ends in its terminator (NameLength counts it),
 * so its last unit is the NUL and the name is not scanned; any other span
 * goes to the full scan.
 */
/*@ requires pb_valid(data) && \valid(data);
    requires unit == 1 || unit == 2;
    assigns data->pos;
    ensures pb_valid(data);
*/
PB_V1_WALK_INLINE bool instance_passes(pb_cursor *data, uint32_t unit, uint64_t reach_end)
{
    pb_cursor head_peek;
    head_peek = *data;
    const uint8_t *head;
    if (!pb_cursor_take(&head_peek, PBS_PERF_INSTANCE_DEFINITION, &head)) {
        return false;
    }
    uint32_t length = pb_le32(head + PBO_PERF_INSTANCE_DEFINITION_ByteLength);
    uint32_t name_offset = pb_le32(head + PBO_PERF_INSTANCE_DEFINITION_NameOffset);
    uint32_t name_length = pb_le32(head + PBO_PERF_INSTANCE_DEFINITION_NameLength);
    pb_cursor walk;
    walk = *data;
    const uint8_t *inst;
    if (length < PBS_PERF_INSTANCE_DEFINITION || length % 8 != 0 ||
        !pb_cursor_take(&walk, length, &inst)) {
        return false;
    }
    if (name_length != 0) {
        /* unit is the name's: 2 bytes for UTF-16 (code page 0), where odd
         * lengths are refused, else 1. A length that is not 0 and a whole
         * number of units holds the terminator's unit. */
        uint64_t name_end = (uint64_t)name_offset + name_length;
        if (name_offset < PBS_PERF_INSTANCE_DEFINITION || name_end > length ||
            (name_length & (unit - 1u)) != 0) {
            return false;
        }
        /* Inside the instance's bytes taken above: name_end <= length. */
        const uint8_t *last = inst + name_end - unit;
        if ((last[0] | last[unit - 1u]) != 0) {
            return false;
        }
    }
    pb_cursor block_peek;
    block_peek = walk;
    const uint8_t *block;
    if (!pb_cursor_take(&block_peek, PBS_PERF_COUNTER_BLOCK, &block)) {
        return false;
    }
    uint32_t block_length = pb_le32(block + PBO_PERF_COUNTER_BLOCK_ByteLength);
    if (block_length < PBS_PERF_COUNTER_BLOCK || block_length % 8 != 0 ||
        block_length < reach_end || !pb_cursor_skip(&walk, block_length)) {
        return false;
    }
    /* Only the position moved: the window stays the caller's. */
    data->pos = walk.pos;
    return true;
}

/* The instance instance_passes did not accept, through the decoders that
 * name what is wrong with it (or record what they tolerate); *consumed is
 * how far they read. The cursor comes by value, so that the walk's own
 * stays in registers. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid_view(data);
    requires \valid_read(reach);
    requires \valid(consumed) && \separated(consumed, ctx);
    requires ctx->err == \null || \separated(ctx->err, consumed);
    assigns *consumed, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static PB_NOINLINE perfbuf_status check_instance_decoded(pb_ctx *ctx, pb_cursor data,
                                                         uint32_t code_page,
                                                         const pb_v1_reach *reach,
                                                         size_t *consumed)
{
    perfbuf_v1_instance decoded;
    perfbuf_v1_counter_block block;
    size_t from = data.pos;
    perfbuf_status st = pb_v1_read_instance(ctx, &data, code_page, &decoded);
    if (st == PERFBUF_OK) {
        st = pb_v1_read_counter_block(ctx, &data, reach, &block);
    }
    *consumed = data.pos - from;
    return st;
}

/*
 * An accepted instance into the parse's shape (pb_ctx.shape): its
 * definition with its name (every field an instance index or a name lookup
 * derives from) and its counter block's ByteLength, from the consumed
 * bytes at `at`. The counter values are left out: hashing them would double
 * the parse's time, and nothing kept across calls is derived from them.
 */
/*@ requires \valid(shape);
    requires pb_valid_view(at);
    assigns *shape;
*/
static inline void mix_instance_shape(pb_mix_lanes *shape, pb_cursor at, size_t consumed)
{
    const uint8_t *bytes;
    if (!pb_cursor_take(&at, consumed, &bytes) || consumed < PBS_PERF_INSTANCE_DEFINITION) {
        PB_UNREACHABLE();
        return;
    }
    uint32_t length = pb_le32(bytes + PBO_PERF_INSTANCE_DEFINITION_ByteLength);
    size_t definition = length < consumed ? length : consumed;
    pb_mix_lanes_bytes(shape, bytes, definition);
    if (consumed - definition >= PBS_PERF_COUNTER_BLOCK) {
        pb_mix_lanes_word(shape, pb_le32(bytes + definition + PBO_PERF_COUNTER_BLOCK_ByteLength));
    }
}

/*
 * Every instance of an object, unit the size of its names' text unit (a
 * constant at each call, so the name checks fold). The walk's place is a
 * chain from one instance to the next: it is kept in a local cursor that
 * never leaves registers (the decoders get a copy and say how far they
 * read), since a cursor whose address is passed out would go through
 * memory at every step.
 */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(data) && \valid(data) && \separated(data, ctx);
    requires \valid_read(reach);
    requires unit == 1 || unit == 2;
    requires ctx->err == \null || \separated(ctx->err, data);
    assigns data->pos, ctx->shape, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(data) && pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
PB_V1_WALK_INLINE perfbuf_status walk_instances(pb_ctx *ctx, pb_cursor *data, uint32_t count,
                                                uint32_t code_page, uint32_t unit,
                                                const pb_v1_reach *reach)
{
    uint64_t reach_end = reach->end;
    pb_cursor walk;
    walk = *data;
    pb_mix_lanes shape = ctx->shape;
    /*@ loop invariant 0 <= i <= count;
        loop invariant pb_valid(&walk) && pb_ctx_ok(ctx);
        loop invariant ctx->err == \at(ctx->err, Pre);
        loop invariant walk.bytes == data->bytes && walk.start == data->start;
        loop invariant walk.end == data->end;
        loop assigns i, walk.pos, shape, ctx->anomalies, ctx->first_anomaly, *\at(ctx->err, Pre);
        loop variant count - i;
    */
    for (uint32_t i = 0; i < count; i++) {
        pb_v1_prefetch_ahead(&walk, PB_V1_PREFETCH_AHEAD);
        pb_cursor instance;
        instance = walk;
        if (!instance_passes(&walk, unit, reach_end)) {
            size_t consumed = 0;
            perfbuf_status st = check_instance_decoded(ctx, walk, code_page, reach, &consumed);
            if (st != PERFBUF_OK) {
                return st;
            }
            if (!pb_cursor_skip(&walk, consumed)) {
                PB_UNREACHABLE();
                return pb_fail(ctx, PERFBUF_E_SIZE_TOO_LARGE, walk.pos,
                               PBF_PERF_INSTANCE_DEFINITION_ByteLength);
            }
        }
        mix_instance_shape(&shape, instance, walk.pos - instance.pos);
    }
    ctx->shape = shape;
    /* Only the position moved (the window is the caller's): one store
     * rather than a structure copy, which the proof follows. */
    data->pos = walk.pos;
    return PERFBUF_OK;
}

/*@ requires pb_ctx_ok(ctx);
    requires pb_valid_view(data);
    requires \valid_read(o) && \valid_read(reach);
    assigns ctx->shape, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status check_object_data(pb_ctx *ctx, pb_cursor data, const perfbuf_v1_object *o,
                                        const pb_v1_reach *reach)
{
    perfbuf_v1_counter_block block;
    perfbuf_status st = PERFBUF_OK;
    if (o->num_instances == PERFBUF_V1_NO_INSTANCES) {
        st = pb_v1_read_counter_block(ctx, &data, reach, &block);
    } else {
        st = o->code_page == 0 ? walk_instances(ctx, &data, o->instance_count, 0, 2, reach)
                               : walk_instances(ctx, &data, o->instance_count, o->code_page, 1,
                                                reach);
    }
    if (st != PERFBUF_OK) {
        return st;
    }
    return check_leftover(ctx, &data, o->offset, PBF_PERF_OBJECT_TYPE_TotalByteLength);
}

/* A decoded object's definitions and data (the deep parse), apart from
 * its header's reading so that each proof stays small enough for the
 * provers (docs/proofs.md): the same steps in the same order. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid((pb_cursor *)hdr) && pb_valid((pb_cursor *)obj);
    requires \separated(ctx, hdr, obj);
    requires \valid_read(o) && \separated(o, ctx);
    requires ctx->err == \null || \separated(ctx->err, o);
    assigns ctx->shape, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status check_object_parts(pb_ctx *ctx, const pb_cursor *hdr, const pb_cursor *obj,
                                         size_t at, const perfbuf_v1_object *o)
{
    size_t header = o->header_length;
    size_t definition = o->definition_length;
    size_t total = o->total_length;
    /* The object's header into the parse's shape: its lengths and counts
     * place every instance, and its PerfTime moves with each capture. */
    const uint8_t *header_bytes;
    pb_cursor header_copy;
    header_copy = *hdr;
    if (!pb_cursor_take(&header_copy, PBS_PERF_OBJECT_TYPE, &header_bytes)) {
        PB_UNREACHABLE(); /* hdr is this structure's bytes, taken above */
    } else {
        pb_mix_lanes_bytes(&ctx->shape, header_bytes, PBS_PERF_OBJECT_TYPE);
    }
    pb_cursor defs;
    pb_cursor data;
    if (!pb_cursor_slice(obj, header, definition - header, &defs) ||
        !pb_cursor_slice(obj, definition, total - definition, &data)) {
        PB_UNREACHABLE();
        return pb_fail(ctx, PERFBUF_E_SIZE_TOO_LARGE, at, PBF_PERF_OBJECT_TYPE_DefinitionLength);
    }
    pb_v1_reach reach;
    perfbuf_status st = check_definitions(ctx, defs, o, &reach);
    if (st != PERFBUF_OK) {
        return st;
    }
    return check_object_data(ctx, data, o, &reach);
}

/* An object's header: the structure whole at the walk's place, its
 * TotalByteLength covering it inside what is left of the walk, and
 * HeaderLength <= DefinitionLength <= TotalByteLength. The walk's cursor is
 * only read, so that the caller's keeps its window past these checks
 * (docs/proofs.md). *hdr is said to be a window only when the header is
 * accepted: pb_take_struct's contract says nothing of a refused one, which
 * the provers cannot then tell from a window into the local copy gone on
 * return. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid((pb_cursor *)objects);
    requires \valid(hdr) && \separated(hdr, objects, ctx);
    requires ctx->err == \null || \separated(ctx->err, objects, hdr);
    assigns *hdr, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
    ensures \result == PERFBUF_OK ==> pb_valid(hdr);
*/
static perfbuf_status read_object_header(pb_ctx *ctx, const pb_cursor *objects, pb_cursor *hdr)
{
    size_t at = objects->pos;
    pb_cursor peek;
    peek = *objects;
    perfbuf_status st = pb_take_struct(ctx, &peek, PBS_PERF_OBJECT_TYPE,
                                       PBF_PERF_OBJECT_TYPE_TotalByteLength, hdr);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint32_t total = pb_field32(hdr, PBF_PERF_OBJECT_TYPE_TotalByteLength);
    uint32_t definition = pb_field32(hdr, PBF_PERF_OBJECT_TYPE_DefinitionLength);
    uint32_t header = pb_field32(hdr, PBF_PERF_OBJECT_TYPE_HeaderLength);
    st = check_length(ctx, total, PBS_PERF_OBJECT_TYPE, objects, at,
                      PBF_PERF_OBJECT_TYPE_TotalByteLength, true);
    if (st != PERFBUF_OK) {
        return st;
    }
    if (header < PBS_PERF_OBJECT_TYPE) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_SMALL, at,
                                PBF_PERF_OBJECT_TYPE_HeaderLength, header, PBS_PERF_OBJECT_TYPE);
    }
    if (header > definition) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_LARGE, at,
                                PBF_PERF_OBJECT_TYPE_HeaderLength, header, definition);
    }
    if (definition > total) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_LARGE, at,
                                PBF_PERF_OBJECT_TYPE_DefinitionLength, definition, total);
    }
    return PERFBUF_OK;
}

/* The object's description from its header's fields, in a call that
 * writes only *out, so that the many stores do not reach the proof of the
 * caller's cursor (docs/proofs.md). */
/*@ requires \valid(out) && pb_valid((pb_cursor *)hdr) && \separated(out, hdr);
    assigns *out;
*/
static void describe_object(perfbuf_v1_object *out, const pb_cursor *hdr, size_t at,
                            uint32_t total, uint32_t definition, uint32_t header)
{
    out->offset = at;
    out->total_length = total;
    out->definition_length = definition;
    out->header_length = header;
    out->name_title_index = pb_field32(hdr, PBF_PERF_OBJECT_TYPE_ObjectNameTitleIndex);
    out->help_title_index = pb_field32(hdr, PBF_PERF_OBJECT_TYPE_ObjectHelpTitleIndex);
    out->detail_level = pb_field32(hdr, PBF_PERF_OBJECT_TYPE_DetailLevel);
    out->counter_count = pb_field32(hdr, PBF_PERF_OBJECT_TYPE_NumCounters);
    out->default_counter = pb_i32(pb_field32(hdr, PBF_PERF_OBJECT_TYPE_DefaultCounter));
    out->num_instances = pb_i32(pb_field32(hdr, PBF_PERF_OBJECT_TYPE_NumInstances));
    out->code_page = pb_field32(hdr, PBF_PERF_OBJECT_TYPE_CodePage);
    out->perf_time = pb_i64(pb_field64(hdr, PBF_PERF_OBJECT_TYPE_PerfTime));
    out->perf_freq = pb_i64(pb_field64(hdr, PBF_PERF_OBJECT_TYPE_PerfFreq));
    out->definitions_offset = at + header;
    out->data_offset = at + definition;
    out->instance_count = out->num_instances > 0 ? (uint32_t)out->num_instances : 0;
}

/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(objects) && \valid(objects);
    requires \valid(out) && \separated(objects, out, ctx);
    requires ctx->err == \null || \separated(ctx->err, objects, out);
    assigns objects->pos, *out, ctx->shape, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(objects) && pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
perfbuf_status pb_v1_read_object(pb_ctx *ctx, pb_cursor *objects, bool deep,
                                 perfbuf_v1_object *out)
{
    size_t at = objects->pos;
    pb_cursor hdr;
    perfbuf_status st = read_object_header(ctx, objects, &hdr);
    if (st != PERFBUF_OK) {
        return st;
    }
    uint32_t total = pb_field32(&hdr, PBF_PERF_OBJECT_TYPE_TotalByteLength);
    uint32_t definition = pb_field32(&hdr, PBF_PERF_OBJECT_TYPE_DefinitionLength);
    uint32_t header = pb_field32(&hdr, PBF_PERF_OBJECT_TYPE_HeaderLength);
    pb_cursor obj;
    pb_take_checked(objects, total, &obj);
    describe_object(out, &hdr, at, total, definition, header);

    if (out->counter_count > (definition - header) / PBS_PERF_COUNTER_DEFINITION) {
        return pb_fail_compared(ctx, PERFBUF_E_COUNT_TOO_LARGE, at,
                                PBF_PERF_OBJECT_TYPE_NumCounters, out->counter_count,
                                (definition - header) / PBS_PERF_COUNTER_DEFINITION);
    }
    if (out->counter_count > ctx->max_counters) {
        return pb_fail_compared(ctx, PERFBUF_E_LIMIT_EXCEEDED, at,
                                PBF_PERF_OBJECT_TYPE_NumCounters, out->counter_count,
                                ctx->max_counters);
    }
    if (out->num_instances < PERFBUF_V1_METADATA_NO_INSTANCES) {
        return pb_fail(ctx, PERFBUF_E_UNKNOWN_VALUE, at, PBF_PERF_OBJECT_TYPE_NumInstances);
    }
    if (out->instance_count > (total - definition) / MIN_INSTANCE_BYTES) {
        return pb_fail_compared(ctx, PERFBUF_E_COUNT_TOO_LARGE, at,
                                PBF_PERF_OBJECT_TYPE_NumInstances, out->instance_count,
                                (total - definition) / MIN_INSTANCE_BYTES);
    }
    if (out->instance_count > ctx->max_instances) {
        return pb_fail_compared(ctx, PERFBUF_E_LIMIT_EXCEEDED, at,
                                PBF_PERF_OBJECT_TYPE_NumInstances, out->instance_count,
                                ctx->max_instances);
    }
    if (!deep) {
        return PERFBUF_OK;
    }
    return check_object_parts(ctx, &hdr, &obj, at, out);
}

/*@ requires pb_valid((pb_cursor *)hdr);
    assigns \nothing;
*/
static bool signature_ok(const pb_cursor *hdr)
{
    static const uint16_t perf[4] = {'P', 'E', 'R', 'F'};
    pb_cursor sig;
    if (!pb_cursor_slice(hdr, PBO_PERF_DATA_BLOCK_Signature, 8, &sig)) {
        return false;
    }
    /*@ loop invariant 0 <= i <= 4 && pb_valid(&sig);
        loop assigns i, sig.pos;
        loop variant 4 - i;
    */
    for (int i = 0; i < 4; i++) {
        uint16_t u;
        if (!pb_cursor_read_u16(&sig, &u) || u != perf[i]) {
            return false;
        }
    }
    return true;
}

/* The computer name span inside the header; an empty name is valid. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid((pb_cursor *)header_region) && pb_valid((pb_cursor *)hdr);
    requires \valid(q) && \separated(q, ctx, header_region, hdr);
    requires ctx->err == \null || \separated(ctx->err, q);
    assigns q->system_name_offset, q->system_name_units, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status read_system_name(pb_ctx *ctx, const pb_cursor *header_region,
                                       const pb_cursor *hdr, perfbuf_v1_block *q)
{
    uint32_t length = pb_field32(hdr, PBF_PERF_DATA_BLOCK_SystemNameLength);
    uint32_t offset = pb_field32(hdr, PBF_PERF_DATA_BLOCK_SystemNameOffset);
    q->system_name_offset = PBS_PERF_DATA_BLOCK;
    q->system_name_units = 0;
    if (length == 0) {
        return PERFBUF_OK;
    }
    if (offset < PBS_PERF_DATA_BLOCK) {
        return pb_fail_compared(ctx, PERFBUF_E_OVERLAP, 0, PBF_PERF_DATA_BLOCK_SystemNameOffset,
                                offset, PBS_PERF_DATA_BLOCK);
    }
    size_t header_size = pb_cursor_size(header_region);
    if (offset > header_size) {
        return pb_fail_compared(ctx, PERFBUF_E_OFFSET_OUT_OF_RANGE, 0,
                                PBF_PERF_DATA_BLOCK_SystemNameOffset, offset, header_size);
    }
    if (length > header_size - offset) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_LARGE, 0,
                                PBF_PERF_DATA_BLOCK_SystemNameLength, length,
                                header_size - offset);
    }
    if (length % 2 != 0) {
        return pb_fail(ctx, PERFBUF_E_ODD_LENGTH, 0, PBF_PERF_DATA_BLOCK_SystemNameLength);
    }
    pb_cursor name;
    if (!pb_cursor_slice(header_region, offset, length, &name)) {
        PB_UNREACHABLE();
        return pb_fail(ctx, PERFBUF_E_SIZE_TOO_LARGE, 0, PBF_PERF_DATA_BLOCK_SystemNameLength);
    }
    size_t units;
    if (!pb_utf16le_find_nul(&name, &units)) {
        units = length / 2;
    }
    q->system_name_offset = offset;
    q->system_name_units = units;
    return PERFBUF_OK;
}

/* The whole parse, writing the view straight into *q (no copy on the
 * stack: the largest frame stays small). */
/*@ requires pb_ctx_ok(ctx);
    requires \valid_read((const uint8_t *)data + (0 .. received - 1));
    requires \valid(out) && \separated(out, ctx);
    requires ctx->err == \null || \separated(ctx->err, out);
    assigns *out, ctx->shape, ctx->anomalies, ctx->first_anomaly, *ctx->err;
*/
static perfbuf_status parse_block(pb_ctx *ctx, const void *data, size_t received,
                                  perfbuf_v1_block *out)
{

    pb_cursor all;

    all = pb_cursor_make((const uint8_t *)data, received);
    pb_cursor peek;
    peek = all;
    pb_cursor hdr;
    perfbuf_status st = pb_take_struct(ctx, &peek, PBS_PERF_DATA_BLOCK,
                                       PBF_PERF_DATA_BLOCK_Signature, &hdr);
    if (st != PERFBUF_OK) {
        return st;
    }
    if (!signature_ok(&hdr)) {
        return pb_fail(ctx, PERFBUF_E_BAD_SIGNATURE, 0, PBF_PERF_DATA_BLOCK_Signature);
    }
    uint32_t little_endian = pb_field32(&hdr, PBF_PERF_DATA_BLOCK_LittleEndian);
    if (little_endian == 0) {
        return pb_fail(ctx, PERFBUF_E_BIG_ENDIAN_DATA, 0, PBF_PERF_DATA_BLOCK_LittleEndian);
    }
    if (little_endian != 1) {
        return pb_fail(ctx, PERFBUF_E_UNKNOWN_VALUE, 0, PBF_PERF_DATA_BLOCK_LittleEndian);
    }
    uint32_t total = pb_field32(&hdr, PBF_PERF_DATA_BLOCK_TotalByteLength);
    uint32_t header = pb_field32(&hdr, PBF_PERF_DATA_BLOCK_HeaderLength);
    uint32_t declared = pb_field32(&hdr, PBF_PERF_DATA_BLOCK_NumObjectTypes);
    if (total < PBS_PERF_DATA_BLOCK) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_SMALL, 0,
                                PBF_PERF_DATA_BLOCK_TotalByteLength, total, PBS_PERF_DATA_BLOCK);
    }
    if (total > received) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_EXCEEDS_RECEIVED, 0,
                                PBF_PERF_DATA_BLOCK_TotalByteLength, total, received);
    }
    if (total % 8 != 0) {
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_UNALIGNED_SIZE, PERFBUF_E_SIZE_UNALIGNED, 0,
                        PBF_PERF_DATA_BLOCK_TotalByteLength);
    } else if (total < received) {
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_TRAILING_BYTES, PERFBUF_E_TRAILING_BYTES, 0,
                        PBF_PERF_DATA_BLOCK_TotalByteLength);
    }
    if (st != PERFBUF_OK) {
        return st;
    }
    if (header < PBS_PERF_DATA_BLOCK) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_SMALL, 0,
                                PBF_PERF_DATA_BLOCK_HeaderLength, header, PBS_PERF_DATA_BLOCK);
    }
    if (header > total) {
        return pb_fail_compared(ctx, PERFBUF_E_SIZE_TOO_LARGE, 0,
                                PBF_PERF_DATA_BLOCK_HeaderLength, header, total);
    }
    if (header % 8 != 0) {
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_UNALIGNED_SIZE, PERFBUF_E_SIZE_UNALIGNED, 0,
                        PBF_PERF_DATA_BLOCK_HeaderLength);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    pb_cursor block;
    pb_cursor header_region;
    pb_take_checked(&all, total, &block);
    pb_take_checked(&block, header, &header_region);
    /*@ assert pb_valid(&block); */
    st = read_system_name(ctx, &header_region, &hdr, out);
    if (st != PERFBUF_OK) {
        return st;
    }
    /* For the proof: the walk's cursor and the header's, and the error
     * pointer, are kept past the writes through the caller's pointers. */
    /*@ assert pb_valid(&block); */
    /*@ assert pb_valid(&hdr); */
    /*@ assert ctx->err == \at(ctx->err, Pre); */
    if (declared > ctx->max_sections) {
        return pb_fail_compared(ctx, PERFBUF_E_LIMIT_EXCEEDED, 0,
                                PBF_PERF_DATA_BLOCK_NumObjectTypes, declared, ctx->max_sections);
    }
    if (pb_strict(ctx) && declared > pb_cursor_remaining(&block) / PBS_PERF_OBJECT_TYPE) {
        return pb_fail_compared(ctx, PERFBUF_E_COUNT_TOO_LARGE, 0,
                                PBF_PERF_DATA_BLOCK_NumObjectTypes, declared,
                                pb_cursor_remaining(&block) / PBS_PERF_OBJECT_TYPE);
    }
    uint32_t found = 0;
    size_t instances = 0;
    /*@ loop invariant 0 <= found <= declared;
        loop invariant pb_valid(&block) && pb_ctx_ok(ctx);
        loop invariant ctx->err == \at(ctx->err, Pre);
        loop assigns found, instances, st, block.pos, ctx->shape, ctx->anomalies,
                     ctx->first_anomaly, *\at(ctx->err, Pre);
        loop variant declared - found;
    */
    for (; found < declared; found++) {
        /* Providers are known to claim more objects than they wrote: a
         * lenient parse keeps the objects that are there. */
        if (pb_cursor_remaining(&block) == 0) {
            /* Strict: the objects there are, against the count declared. */
            st = pb_strict(ctx)
                     ? pb_fail_compared(ctx, PERFBUF_E_COUNT_TOO_LARGE, 0,
                                        PBF_PERF_DATA_BLOCK_NumObjectTypes, declared, found)
                     : pb_anomaly(ctx, PERFBUF_ANOMALY_COUNT_MISMATCH, PERFBUF_E_COUNT_TOO_LARGE,
                                  0, PBF_PERF_DATA_BLOCK_NumObjectTypes);
            if (st != PERFBUF_OK) {
                return st;
            }
            break;
        }
        perfbuf_v1_object o;
        st = pb_v1_read_object(ctx, &block, true, &o);
        if (st != PERFBUF_OK) {
            return st;
        }
        /* Each instance takes at least its 24-byte definition, so the sum
         * stays below the block's size. */
        instances += o.instance_count;
    }
    st = check_leftover(ctx, &block, 0, PBF_PERF_DATA_BLOCK_NumObjectTypes);
    if (st != PERFBUF_OK) {
        return st;
    }
    out->data = (const uint8_t *)data;
    out->received = received;
    out->size = total;
    out->version = pb_field32(&hdr, PBF_PERF_DATA_BLOCK_Version);
    out->revision = pb_field32(&hdr, PBF_PERF_DATA_BLOCK_Revision);
    out->header_length = header;
    out->object_count = found;
    out->index_slots = 2 * (size_t)found + instances;
    out->declared_object_count = declared;
    out->default_object = pb_i32(pb_field32(&hdr, PBF_PERF_DATA_BLOCK_DefaultObject));
    out->system_time = pb_field_systemtime(&hdr, PBF_PERF_DATA_BLOCK_SystemTime);
    out->perf_time = pb_i64(pb_field64(&hdr, PBF_PERF_DATA_BLOCK_PerfTime));
    out->perf_freq = pb_i64(pb_field64(&hdr, PBF_PERF_DATA_BLOCK_PerfFreq));
    out->perf_time_100ns = pb_i64(pb_field64(&hdr, PBF_PERF_DATA_BLOCK_PerfTime100nSec));
    out->anomalies = ctx->anomalies;
    out->first_anomaly = ctx->first_anomaly;
    out->parse_id = pb_v1_parse_identity(out, &ctx->shape);
    return PERFBUF_OK;
}

/* Each field through the mixer of core/mix.h (a bijection of 64 bits whose
 * arithmetic never wraps, for -fsanitize=integer): a field that differs
 * changes the identity but for a 2^-64 chance. */
/*@ assigns \nothing; */
static uint64_t identity_step(uint64_t h, uint64_t field)
{
    return pb_mix64(h ^ field);
}

/*@ requires \valid_read(b) && \valid_read(shape);
    assigns \nothing;
*/
uint64_t pb_v1_parse_identity(const perfbuf_v1_block *b, const pb_mix_lanes *shape)
{
    const perfbuf_systemtime *t = &b->system_time;
    uint64_t h = identity_step(UINT64_C(0x50455246), (uint64_t)(uintptr_t)b->data);
    h = identity_step(h, b->size);
    h = identity_step(h, (uint64_t)b->version << 32 | b->revision);
    h = identity_step(h, b->header_length);
    h = identity_step(h, (uint64_t)b->declared_object_count << 32 | b->object_count);
    h = identity_step(h, (uint64_t)(uint32_t)b->default_object);
    h = identity_step(h, b->index_slots);
    h = identity_step(h, (uint64_t)t->year << 48 | (uint64_t)t->month << 32 |
                             (uint64_t)t->day_of_week << 16 | t->day);
    h = identity_step(h, (uint64_t)t->hour << 48 | (uint64_t)t->minute << 32 |
                             (uint64_t)t->second << 16 | t->milliseconds);
    h = identity_step(h, (uint64_t)b->perf_time);
    h = identity_step(h, (uint64_t)b->perf_freq);
    h = identity_step(h, (uint64_t)b->perf_time_100ns);
    h = identity_step(h, (uint64_t)b->system_name_offset << 32 ^ b->system_name_units);
    h = identity_step(h, pb_mix_lanes_value(shape));
    return h != 0 ? h : 1u;
}

/* Clears the answer: a zeroed constant rather than memset, which WP's typed
 * memory model cannot follow through the cast to bytes (every field gets
 * the same zero; only the padding between fields is no longer written, and
 * no caller reads it), and in a call rather than a copy in place, after
 * which the provers lose that the context's fields were kept
 * (docs/proofs.md). */
/*@ requires \valid(out);
    assigns *out;
*/
static void clear_block(perfbuf_v1_block *out)
{
    static const perfbuf_v1_block block_zero;
    *out = block_zero;
}

/*@ requires data == \null || \valid_read((const uint8_t *)data + (0 .. received - 1));
    requires opts == \null || \valid_read(opts);
    requires out == \null || \valid(out);
    requires err == \null || \valid(err);
    requires out == \null || err == \null || \separated(out, err);
    assigns *out, *err;
*/
perfbuf_status perfbuf_v1_parse(const void *data, size_t received, const perfbuf_options *opts,
                                perfbuf_v1_block *out, perfbuf_error *err)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, opts, err);
    if (pb_check_arguments(&ctx, data, received, out) != PERFBUF_OK) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    clear_block(out);
    perfbuf_status st = parse_block(&ctx, data, received, out);
    if (st != PERFBUF_OK) {
        clear_block(out);
    }
    return st;
}

/* ---- views of a validated block ----
 *
 * The parse proved every structure these read: its length covers its
 * fixed header and lies inside its parent, names lie inside their
 * instance, every counter inside every counter block. A view therefore
 * reads fixed offsets and keeps only the checks that hold a walk's shape
 * for an iterator or view of ANOTHER buffer (a length at least its header
 * and inside the window, so every step moves forward and stays inside the
 * buffer); it never judges a field again. fuzz/oracle_v1_views.h checks, on
 * every accepted input, that what the views return is field for field
 * what the validating decoders above return.
 */

/* A field of a window carved at its structure's full size: cannot fail.
 * The cursor proves the field's bytes are inside the window; pb_le32 and
 * pb_le64 decode them in the form gcc folds into one load (src/core/le_load.h),
 * since every view of every instance reads its fields here. */
/*@ requires pb_valid((pb_cursor *)s);
    assigns \nothing;
*/
static uint32_t field32(const pb_cursor *s, size_t rel)
{
    pb_cursor field;
    const uint8_t *bytes;
    if (!pb_cursor_slice(s, rel, 4, &field) || !pb_cursor_take(&field, 4, &bytes)) {
        PB_UNREACHABLE();
        return 0;
    }
    return pb_le32(bytes);
}

/*@ requires pb_valid((pb_cursor *)s);
    assigns \nothing;
*/
static uint64_t field64(const pb_cursor *s, size_t rel)
{
    pb_cursor field;
    const uint8_t *bytes;
    if (!pb_cursor_slice(s, rel, 8, &field) || !pb_cursor_take(&field, 8, &bytes)) {
        PB_UNREACHABLE();
        return 0;
    }
    return pb_le64(bytes);
}

/*@ requires pb_valid(objects) && \valid(objects);
    requires \valid(out) && \separated(objects, out);
    assigns objects->pos, *out;
    ensures pb_valid(objects);
*/
bool pb_v1_view_object(pb_cursor *objects, perfbuf_v1_object *out)
{
    size_t at = objects->pos;
    pb_cursor peek;
    peek = *objects;
    pb_cursor hdr;
    if (!pb_cursor_sub(&peek, PBS_PERF_OBJECT_TYPE, &hdr)) {
        return false;
    }
    uint32_t total = field32(&hdr, PBO_PERF_OBJECT_TYPE_TotalByteLength);
    uint32_t definition = field32(&hdr, PBO_PERF_OBJECT_TYPE_DefinitionLength);
    uint32_t header = field32(&hdr, PBO_PERF_OBJECT_TYPE_HeaderLength);
    int32_t num_instances = pb_i32(field32(&hdr, PBO_PERF_OBJECT_TYPE_NumInstances));
    uint32_t counter_count = field32(&hdr, PBO_PERF_OBJECT_TYPE_NumCounters);
    uint32_t instance_count = num_instances > 0 ? (uint32_t)num_instances : 0;
    /* The shape the iterators rely on: definitions, then data, inside the
     * object, with room for the counts they will walk. */
    if (total < PBS_PERF_OBJECT_TYPE || header < PBS_PERF_OBJECT_TYPE || header > definition ||
        definition > total || counter_count > (definition - header) / PBS_PERF_COUNTER_DEFINITION ||
        num_instances < PERFBUF_V1_METADATA_NO_INSTANCES ||
        instance_count > (total - definition) / MIN_INSTANCE_BYTES ||
        !pb_cursor_skip(objects, total)) {
        return false;
    }
    out->offset = at;
    out->total_length = total;
    out->definition_length = definition;
    out->header_length = header;
    out->name_title_index = field32(&hdr, PBO_PERF_OBJECT_TYPE_ObjectNameTitleIndex);
    out->help_title_index = field32(&hdr, PBO_PERF_OBJECT_TYPE_ObjectHelpTitleIndex);
    out->detail_level = field32(&hdr, PBO_PERF_OBJECT_TYPE_DetailLevel);
    out->counter_count = counter_count;
    out->default_counter = pb_i32(field32(&hdr, PBO_PERF_OBJECT_TYPE_DefaultCounter));
    out->num_instances = num_instances;
    out->instance_count = instance_count;
    out->code_page = field32(&hdr, PBO_PERF_OBJECT_TYPE_CodePage);
    out->perf_time = pb_i64(field64(&hdr, PBO_PERF_OBJECT_TYPE_PerfTime));
    out->perf_freq = pb_i64(field64(&hdr, PBO_PERF_OBJECT_TYPE_PerfFreq));
    out->definitions_offset = at + header;
    out->data_offset = at + definition;
    return true;
}

/*@ requires pb_valid(defs) && \valid(defs);
    requires \valid(out) && \separated(defs, out);
    assigns defs->pos, *out;
    ensures pb_valid(defs);
*/
bool pb_v1_view_counter(pb_cursor *defs, perfbuf_v1_counter *out)
{
    size_t at = defs->pos;
    pb_cursor peek;
    peek = *defs;
    pb_cursor hdr;
    if (!pb_cursor_sub(&peek, PBS_PERF_COUNTER_DEFINITION, &hdr)) {
        return false;
    }
    uint32_t length = field32(&hdr, PBO_PERF_COUNTER_DEFINITION_ByteLength);
    if (length < PBS_PERF_COUNTER_DEFINITION || !pb_cursor_skip(defs, length)) {
        return false;
    }
    out->offset = at;
    out->byte_length = length;
    out->name_title_index = field32(&hdr, PBO_PERF_COUNTER_DEFINITION_CounterNameTitleIndex);
    out->help_title_index = field32(&hdr, PBO_PERF_COUNTER_DEFINITION_CounterHelpTitleIndex);
    out->default_scale = pb_i32(field32(&hdr, PBO_PERF_COUNTER_DEFINITION_DefaultScale));
    out->detail_level = field32(&hdr, PBO_PERF_COUNTER_DEFINITION_DetailLevel);
    out->type = field32(&hdr, PBO_PERF_COUNTER_DEFINITION_CounterType);
    out->size = field32(&hdr, PBO_PERF_COUNTER_DEFINITION_CounterSize);
    out->counter_offset = field32(&hdr, PBO_PERF_COUNTER_DEFINITION_CounterOffset);
    return true;
}

/*@ requires pb_valid(data) && \valid(data);
    requires \valid(out) && \separated(data, out);
    assigns data->pos, *out;
    ensures pb_valid(data);
*/
bool pb_v1_view_counter_block(pb_cursor *data, uint64_t parse_id, perfbuf_v1_counter_block *out)
{
    size_t at = data->pos;
    pb_cursor peek;
    peek = *data;
    const uint8_t *head;
    if (!pb_cursor_take(&peek, PBS_PERF_COUNTER_BLOCK, &head)) {
        return false;
    }
    uint32_t length = pb_le32(head + PBO_PERF_COUNTER_BLOCK_ByteLength);
    if (length < PBS_PERF_COUNTER_BLOCK || !pb_cursor_skip(data, length)) {
        return false;
    }
    out->offset = at;
    out->byte_length = length;
    out->parse_id = parse_id;
    return true;
}

/*
 * The bytes of a UTF-16LE name before its first NUL unit, what
 * pb_text_find_terminator answers (fuzz/oracle_v1_views.h compares them on
 * every accepted input), reading four units at a time: a view finds the
 * length of every instance's name, so this is on every walk's path.
 */
/*@ requires pb_valid((pb_cursor *)name);
    requires \valid(bytes);
    assigns *bytes;
*/
bool pb_v1_utf16_name_bytes(const pb_cursor *name, size_t *bytes)
{
    pb_cursor scan;
    scan = *name;
    const uint8_t *four;
    /*@ loop invariant pb_valid(&scan);
        loop assigns scan.pos, four;
        loop variant scan.end - scan.pos;
    */
    for (;;) {
        size_t at = pb_cursor_consumed(&scan);
        if (pb_cursor_remaining(&scan) < 8 || !pb_cursor_take(&scan, 8, &four)) {
            break;
        }
        PB_WORK(1);
        uint64_t word = pb_le64(four);
        /* A unit's low 15 bits plus 0x7FFF set its top bit unless they are
         * all 0 (no carry leaves the unit): the top bits still clear after
         * or-ing the word in mark the units that are 0. */
        uint64_t low = (word & 0x7FFF7FFF7FFF7FFFu) + 0x7FFF7FFF7FFF7FFFu;
        if ((~(low | word) & 0x8000800080008000u) != 0) {
            /*@ loop invariant 0 <= unit <= 4;
                loop assigns unit;
                loop variant 4 - unit;
            */
            for (unsigned unit = 0; unit < 4; unit++) {
                if (((word >> (16 * unit)) & 0xFFFFu) == 0) {
                    *bytes = at + 2 * (size_t)unit;
                    return true;
                }
            }
        }
    }
    /* Fewer than 8 bytes are left, at most three whole units: taken in
     * one step. */
    size_t at = pb_cursor_consumed(&scan);
    /* Whole units, as a difference rather than a mask: the same value,
     * and one the provers see is even. */
    size_t left = pb_cursor_remaining(&scan);
    size_t tail = left - left % 2;
    const uint8_t *units;
    if (tail == 0 || !pb_cursor_take(&scan, tail, &units)) {
        return false;
    }
    /*@ loop invariant 0 <= k <= tail && k % 2 == 0;
        loop assigns k;
        loop variant tail - k;
    */
    for (size_t k = 0; k < tail; k += 2) {
        if ((units[k] | units[k + 1]) == 0) {
            *bytes = at + k;
            return true;
        }
    }
    return false;
}

/*@ requires pb_valid(data) && \valid(data);
    requires known_name_bytes == \null || \valid_read(known_name_bytes);
    requires \valid(out) && \separated(data, out);
    assigns *data, *out;
    ensures pb_valid(data);
*/
bool pb_v1_view_instance(pb_cursor *data, uint64_t parse_id, uint32_t code_page,
                         const size_t *known_name_bytes, perfbuf_v1_instance *out)
{
    size_t at = data->pos;
    pb_v1_instance_step step;
    if (!pb_v1_step_instance(data, code_page, &step)) {
        return false;
    }
    const uint8_t *head = step.head;
    out->offset = at;
    out->byte_length = step.byte_length;
    out->parent_title_index = pb_le32(head + PBO_PERF_INSTANCE_DEFINITION_ParentObjectTitleIndex);
    out->parent_instance = pb_le32(head + PBO_PERF_INSTANCE_DEFINITION_ParentObjectInstance);
    out->unique_id = pb_i32(pb_le32(head + PBO_PERF_INSTANCE_DEFINITION_UniqueID));
    out->code_page = code_page;
    out->name_offset = step.name.start;
    out->name_bytes = 0;
    size_t name_length = pb_cursor_remaining(&step.name);
    if (name_length != 0) {
        size_t text_bytes;
        if (known_name_bytes != NULL && *known_name_bytes <= name_length) {
            text_bytes = *known_name_bytes;
        } else if (code_page == 0 ? !pb_v1_utf16_name_bytes(&step.name, &text_bytes)
                                  : !pb_text_find_terminator(code_page, &step.name, &text_bytes)) {
            /* A lenient parse let an unterminated name by: its whole span. */
            text_bytes = name_length;
        }
        out->name_bytes = text_bytes;
    }
    out->counters = (perfbuf_v1_counter_block){step.counters, step.counters_bytes, parse_id};
    return true;
}

/* Its contract is on its declaration (v1/internal.h), for every caller. */
pb_cursor pb_v1_window(const perfbuf_v1_block *b, size_t pos, size_t end)
{
    return pb_window(b->data, b->size, pos, end);
}


/*@ requires \valid_read(b) && \valid(it);
    assigns *it;
    ensures it->next_index == 0;
*/
void perfbuf_v1_objects_begin(const perfbuf_v1_block *b, perfbuf_v1_iter *it)
{
    it->pos = b->header_length;
    it->end = b->size;
    it->next_index = 0;
    it->count = b->object_count;
    it->code_page = 0;
}

/*@ requires pb_v1_block_ok(b);
    requires \valid(it) && \valid(out) && \separated(it, out, b);
    assigns *it, *out;
    ensures it->count == \old(it->count);
    ensures \result ==> \old(it->next_index) < it->count &&
                        it->next_index == \old(it->next_index) + 1;
*/
bool perfbuf_v1_objects_next(const perfbuf_v1_block *b, perfbuf_v1_iter *it,
                             perfbuf_v1_object *out)
{
    if (it->next_index >= it->count) {
        return false;
    }
    pb_cursor c;
    c = pb_v1_window(b, it->pos, it->end);
    if (!pb_v1_view_object(&c, out)) {
        /* An iterator or view of another buffer: nothing to read. */
        it->next_index = it->count;
        return false;
    }
    out->index = it->next_index++;
    it->pos = c.pos;
    return true;
}

/*@ requires b == \null || pb_v1_block_ok(b);
    requires out == \null || \valid(out);
    requires b == \null || out == \null || \separated(out, b);
    assigns *out;
*/
perfbuf_status perfbuf_v1_find_object(const perfbuf_v1_block *b, uint32_t title_index,
                                      perfbuf_v1_object *out)
{
    if (b == NULL || out == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_v1_iter it;
    perfbuf_v1_objects_begin(b, &it);
    /*@ loop invariant it.next_index <= it.count;
        loop assigns it, *out;
        loop variant it.count - it.next_index;
    */
    while (perfbuf_v1_objects_next(b, &it, out)) {
        if (out->name_title_index == title_index) {
            return PERFBUF_OK;
        }
    }
    return PERFBUF_E_NOT_FOUND;
}

/*@ requires \valid_read(o) && \valid(it);
    assigns *it;
*/
void perfbuf_v1_counters_begin(const perfbuf_v1_object *o, perfbuf_v1_iter *it)
{
    it->pos = o->definitions_offset;
    it->end = o->data_offset;
    it->next_index = 0;
    it->count = o->counter_count;
    it->code_page = 0;
}

/*@ requires pb_v1_block_ok(b);
    requires \valid(it) && \valid(out) && \separated(it, out, b);
    assigns *it, *out;
    ensures it->count == \old(it->count);
    ensures \result ==> \old(it->next_index) < it->count &&
                        it->next_index == \old(it->next_index) + 1;
*/
bool perfbuf_v1_counters_next(const perfbuf_v1_block *b, perfbuf_v1_iter *it,
                              perfbuf_v1_counter *out)
{
    if (it->next_index >= it->count) {
        return false;
    }
    pb_cursor c;
    c = pb_v1_view_window(b, it->pos, it->end);
    if (!pb_v1_view_counter(&c, out)) {
        /* An iterator or view of another buffer: nothing to read. */
        it->next_index = it->count;
        return false;
    }
    out->index = it->next_index++;
    it->pos = c.pos;
    return true;
}

/*@ requires pb_v1_block_ok(b) && \valid_read(o);
    requires \valid(out);
    assigns *out;
*/
bool perfbuf_v1_object_counter_block(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                     perfbuf_v1_counter_block *out)
{
    if (o->num_instances != PERFBUF_V1_NO_INSTANCES) {
        return false;
    }
    pb_cursor c;
    c = pb_v1_window(b, o->data_offset, o->offset + o->total_length);
    if (!pb_v1_view_counter_block(&c, b->parse_id, out)) {
        /* An iterator or view of another buffer: nothing to read. */
        return false;
    }
    return true;
}

/*@ requires \valid_read(o) && \valid(it);
    assigns *it;
*/
void perfbuf_v1_instances_begin(const perfbuf_v1_object *o, perfbuf_v1_iter *it)
{
    it->pos = o->data_offset;
    it->end = o->offset + o->total_length;
    it->next_index = 0;
    it->count = o->instance_count;
    it->code_page = o->code_page;
}

/*@ requires pb_v1_block_ok(b);
    requires \valid(it) && \valid(out) && \separated(it, out, b);
    assigns *it, *out;
    ensures it->count == \old(it->count);
    ensures \result ==> \old(it->next_index) < it->count &&
                        it->next_index == \old(it->next_index) + 1;
*/
bool perfbuf_v1_instances_next(const perfbuf_v1_block *b, perfbuf_v1_iter *it,
                               perfbuf_v1_instance *out)
{
    if (it->next_index >= it->count) {
        return false;
    }
    pb_cursor c;
    c = pb_v1_view_window(b, it->pos, it->end);
    pb_v1_prefetch_ahead(&c, PB_V1_PREFETCH_AHEAD);
    if (!pb_v1_view_instance(&c, b->parse_id, it->code_page, NULL, out)) {
        /* An iterator or view of another buffer: nothing to read. */
        it->next_index = it->count;
        return false;
    }
    out->index = it->next_index++;
    it->pos = c.pos;
    return true;
}

/*@ requires pb_v1_block_ok(b) && \valid(out);
    assigns *out;
*/
bool pb_v1_object_at(const perfbuf_v1_block *b, size_t offset, perfbuf_v1_object *out)
{
    pb_cursor c;
    c = pb_v1_window(b, offset, b->size);
    return offset >= b->header_length && pb_v1_view_object(&c, out);
}

/*@ requires pb_v1_block_ok(b);
    requires \valid_read(block) && \valid_read(counter);
    requires \valid(value);
    assigns *value;
    ensures \result ==> pb_valid(value);
*/
bool pb_v1_counter_slice(const perfbuf_v1_block *b, const perfbuf_v1_counter_block *block,
                         const perfbuf_v1_counter *counter, pb_cursor *value)
{
    pb_cursor c;
    return pb_v1_counter_block_of(b, block, &c) &&
           pb_cursor_slice(&c, counter->counter_offset, counter->size, value);
}

/*@ requires b == \null || pb_v1_block_ok(b);
    requires block == \null || \valid_read(block);
    requires counter == \null || \valid_read(counter);
    assigns \nothing;
*/
uint64_t perfbuf_v1_counter_value(const perfbuf_v1_block *b, const perfbuf_v1_counter_block *block,
                                  const perfbuf_v1_counter *counter)
{
    pb_cursor value;
    if (b == NULL || block == NULL || counter == NULL ||
        !pb_v1_counter_slice(b, block, counter, &value)) {
        return 0;
    }
    if (counter->size == 4) {
        uint32_t v = 0;
        (void)pb_cursor_read_u32(&value, &v);
        return v;
    }
    uint64_t v = 0;
    if (counter->size == 8) {
        (void)pb_cursor_read_u64(&value, &v);
    }
    return v;
}

/*@ requires b == \null || pb_v1_block_ok(b);
    requires block == \null || \valid_read(block);
    requires counter == \null || \valid_read(counter);
    assigns \nothing;
*/
const uint8_t *perfbuf_v1_counter_bytes(const perfbuf_v1_block *b,
                                        const perfbuf_v1_counter_block *block,
                                        const perfbuf_v1_counter *counter)
{
    pb_cursor value;
    if (b == NULL || block == NULL || counter == NULL ||
        !pb_v1_counter_slice(b, block, counter, &value)) {
        return NULL;
    }
    return pb_cursor_data(&value);
}

/*@ requires b == \null || pb_v1_block_ok(b);
    requires cap == 0 || \valid(out + (0 .. cap - 1));
    requires len == \null || \valid(len);
    requires \separated(out + (0 .. cap - 1), len);
    assigns out[0 .. cap - 1], *len;
*/
perfbuf_status perfbuf_v1_system_name_utf8(const perfbuf_v1_block *b, char *out, size_t cap,
                                           size_t *len)
{
    if (b == NULL || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    return pb_view_utf16_to_utf8(b->data, b->size, b->system_name_offset, b->system_name_units,
                                 out, cap, len);
}
