/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Decoding functions shared by the V1 parse, its views and name lookups. */
#ifndef PERFBUF_V1_INTERNAL_H
#define PERFBUF_V1_INTERNAL_H

#include "perfbuf/v1.h"
#include "core/check.h"
#include "core/le_load.h"

/* Cursors here are declared, then copied into: the proof (docs/proofs.md)
 * loses a structure copy that initialises a local whose address is taken. */

/*@
  // A block whose bytes the caller still holds: every byte counted in size
  // may be read (a parse gives back only such blocks, a zeroed one too).
  predicate pb_v1_block_ok(perfbuf_v1_block *b) =
      \valid_read(b) && \valid_read(b->data + (0 .. b->size - 1));
*/

/* How far into every counter block the object's counters reach, and the
 * definition that reaches furthest. */
typedef struct pb_v1_reach {
    uint64_t end;
    size_t definition;
} pb_v1_reach;

/*
 * The bytes of every counter block that a counter claims (a counter of size
 * 0 claims one, so that any number of them costs), and the multiple of the
 * furthest claimed end that the claims of one object's definitions may add
 * up to (docs/v1.md, "Shared counter data"). Shared ranges are allowed, as
 * the PERF_COUNTER_DEFINITION page documents; this bounds how many.
 */
#define PB_V1_CLAIM_FACTOR 2u
/*@ requires \valid_read(c);
    assigns \nothing;
*/
static inline uint64_t pb_v1_counter_claim(const perfbuf_v1_counter *c)
{
    return c->size > 0 ? c->size : 1u;
}

perfbuf_status pb_v1_read_object(pb_ctx *ctx, pb_cursor *objects, bool deep,
                                 perfbuf_v1_object *out);
perfbuf_status pb_v1_read_counter(pb_ctx *ctx, pb_cursor *defs, perfbuf_v1_counter *out);
perfbuf_status pb_v1_read_instance(pb_ctx *ctx, pb_cursor *data, uint32_t code_page,
                                   perfbuf_v1_instance *out);
/* The same, with the name's length before its terminator already known (a
 * block index recorded it): the name is not scanned again. */
perfbuf_status pb_v1_read_instance_known(pb_ctx *ctx, pb_cursor *data, uint32_t code_page,
                                         const size_t *known_name_bytes, perfbuf_v1_instance *out);
/* reach is NULL on validated bytes, where it was already checked. */
perfbuf_status pb_v1_read_counter_block(pb_ctx *ctx, pb_cursor *data, const pb_v1_reach *reach,
                                        perfbuf_v1_counter_block *out);

/*
 * Views: the same structures read at fixed offsets, on bytes a parse
 * accepted, keeping only the checks that keep a walk over another buffer
 * moving forward inside it (false there). The instance view takes its
 * counter block too; a counter block gets parse_id, the identity of the
 * parse whose bytes the cursor reads (perfbuf_v1_block.parse_id).
 * known_name_bytes as above, or NULL.
 */
bool pb_v1_view_object(pb_cursor *objects, perfbuf_v1_object *out);
bool pb_v1_view_counter(pb_cursor *defs, perfbuf_v1_counter *out);
bool pb_v1_view_counter_block(pb_cursor *data, uint64_t parse_id, perfbuf_v1_counter_block *out);
bool pb_v1_view_instance(pb_cursor *data, uint64_t parse_id, uint32_t code_page,
                         const size_t *known_name_bytes, perfbuf_v1_instance *out);

/* The bytes of a UTF-16LE name before its first NUL unit, as
 * pb_text_find_terminator answers them, four units a step. */
bool pb_v1_utf16_name_bytes(const pb_cursor *name, size_t *bytes);

/* A cursor over [pos, end) of a validated block. */
/*@ requires pb_v1_block_ok(b);
    assigns \nothing;
    ensures pb_valid_view(\result);
*/
pb_cursor pb_v1_window(const perfbuf_v1_block *b, size_t pos, size_t end);
/* The same, inline for the iterators and plans (an empty cursor when the
 * range is not inside b). */
/*@ requires pb_v1_block_ok(b);
    assigns \nothing;
    ensures pb_valid_view(\result) && \result.bytes == b->data;
*/
static inline pb_cursor pb_v1_view_window(const perfbuf_v1_block *b, size_t pos, size_t end)
{
    pb_cursor c;
    c = pb_cursor_make(b->data, b->size);
    if (end > c.end || pos > end) {
        /* Empty, over b's own bytes rather than NULL: no read can succeed,
         * and no compiler follows a NULL base into the callers' loads. */
        c.start = 0;
        c.pos = 0;
        c.end = 0;
        return c;
    }
    c.start = pos;
    c.pos = pos;
    c.end = end;
    return c;
}
/*
 * One instance of validated bytes as every instance walk steps over it:
 * the PERF_INSTANCE_DEFINITION header through one bounds check, its fields
 * decoded in place, its ByteLength, the span its NameOffset and NameLength
 * give (not scanned for the terminator), and the counter block after it by
 * its ByteLength. The checks are the views' (a walk over other bytes stays
 * inside them: false there, *data unchanged); on success *data is past the
 * counter block. The instance view (pb_v1_view_instance) and the
 * whole-object walks that build no view (the block index, full names an
 * object per call) share it. Inline: out of line (in block.c, called from
 * instance_names.c) it cost the block index and the whole-object full
 * names 14 % more instructions per instance (561 -> 640 on the benchmark's
 * Thread object, callgrind), the instance iterator 5 %.
 */
typedef struct pb_v1_instance_step {
    const uint8_t *head;     /* the header's PBS_PERF_INSTANCE_DEFINITION bytes */
    uint32_t byte_length;    /* its ByteLength */
    pb_cursor name;          /* the name's span; for none, empty just after the header */
    size_t counters;         /* the counter block's offset */
    uint32_t counters_bytes; /* and its ByteLength */
} pb_v1_instance_step;

/*@ requires pb_valid(data) && \valid(data);
    requires \valid(out) && \separated(data, out);
    assigns *data, *out;
    ensures pb_valid(data);
    ensures data->bytes == \old(data->bytes) && data->start == \old(data->start) &&
            data->end == \old(data->end);
    ensures \result ==> data->pos > \old(data->pos);
    ensures !\result ==> data->pos == \old(data->pos);
    ensures \result ==> pb_valid(&out->name) && \valid_read(out->head + (0 .. 23));
    ensures \result ==> out->name.bytes == \old(data->bytes) &&
            out->head == \old(data->bytes) + \old(data->pos);
*/
static inline bool pb_v1_step_instance(pb_cursor *data, uint32_t code_page,
                                       pb_v1_instance_step *out)
{
    pb_cursor peek;
    peek = *data;
    const uint8_t *head;
    if (!pb_cursor_take(&peek, PBS_PERF_INSTANCE_DEFINITION, &head)) {
        return false;
    }
    uint32_t length = pb_le32(head + PBO_PERF_INSTANCE_DEFINITION_ByteLength);
    uint32_t name_offset = pb_le32(head + PBO_PERF_INSTANCE_DEFINITION_NameOffset);
    uint32_t name_length = pb_le32(head + PBO_PERF_INSTANCE_DEFINITION_NameLength);
    pb_cursor inst;
    peek = *data;
    if (length < PBS_PERF_INSTANCE_DEFINITION || !pb_cursor_sub(&peek, length, &inst)) {
        return false;
    }
    /* The name stays inside its instance and after its header, and is
     * whole UTF-16 units, whichever buffer this is. */
    if (name_length == 0) {
        (void)pb_cursor_slice(&inst, PBS_PERF_INSTANCE_DEFINITION, 0, &out->name);
    } else if (name_offset < PBS_PERF_INSTANCE_DEFINITION ||
               (code_page == 0 && name_length % 2 != 0) ||
               !pb_cursor_slice(&inst, name_offset, name_length, &out->name)) {
        return false;
    }
    size_t counters = peek.pos;
    pb_cursor block;
    block = peek;
    const uint8_t *block_head;
    if (!pb_cursor_take(&block, PBS_PERF_COUNTER_BLOCK, &block_head)) {
        return false;
    }
    uint32_t block_length = pb_le32(block_head + PBO_PERF_COUNTER_BLOCK_ByteLength);
    if (block_length < PBS_PERF_COUNTER_BLOCK || !pb_cursor_skip(&peek, block_length)) {
        return false;
    }
    out->head = head;
    out->byte_length = length;
    out->counters = counters;
    out->counters_bytes = block_length;
    *data = peek;
    return true;
}

/* The object of b at `offset`, read again (no deep checks). */
bool pb_v1_object_at(const perfbuf_v1_block *b, size_t offset, perfbuf_v1_object *out);

/* Whether o is the first object of its title in b, by the block form of
 * b's index (perfbuf_v1_block_index_build): O(log objects). False for an
 * index of another parse or form. */
bool pb_v1_first_of_title(const perfbuf_v1_block *b, const perfbuf_v1_instance_index *index,
                          const perfbuf_v1_object *o);
/* inst's parent, as perfbuf_v1_parent finds it through the block form of
 * b's index, and its slot there: one number per instance of the block, so
 * a caller tells distinct parents apart without comparing their names.
 * INVALID_ARGUMENT for any other index. O(log objects). */
perfbuf_status pb_v1_parent_slot(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                 const perfbuf_v1_instance *inst,
                                 const perfbuf_v1_instance_index *index, size_t *slot,
                                 perfbuf_v1_instance *parent);
/* The fewest bytes an instance takes: its definition and a counter block. */
#define PB_V1_MIN_INSTANCE_BYTES (PBS_PERF_INSTANCE_DEFINITION + PBS_PERF_COUNTER_BLOCK)

/*
 * o is an object of b as b's own bytes describe it: a view the caller
 * holds is used only once b says the same. What pb_v1_object_at and a
 * comparison of the fields below would answer, without building the
 * view: every value read asks it once per call, so it reads the seven
 * fields in place, inline. The header bytes equal o's fields,
 * so the shape pb_v1_view_object requires of the bytes is checked on o's
 * (its two divisions as products, which fit 64 bits: a count below 2^32
 * times a structure's size).
 */
/*@ requires pb_v1_block_ok(b) && \valid_read(o);
    assigns \nothing;
*/
static inline bool pb_v1_object_of_block(const perfbuf_v1_block *b, const perfbuf_v1_object *o)
{
    if (o->offset < b->header_length) {
        return false;
    }
    pb_cursor c;
    c = pb_v1_view_window(b, o->offset, b->size);
    const uint8_t *h;
    if (!pb_cursor_take(&c, PBS_PERF_OBJECT_TYPE, &h)) {
        return false;
    }
    size_t total = o->total_length;
    size_t definition = o->definition_length;
    size_t header = o->header_length;
    uint32_t instance_count = o->num_instances > 0 ? (uint32_t)o->num_instances : 0;
    bool same = pb_le32(h + PBO_PERF_OBJECT_TYPE_TotalByteLength) == total &&
                pb_le32(h + PBO_PERF_OBJECT_TYPE_DefinitionLength) == definition &&
                pb_le32(h + PBO_PERF_OBJECT_TYPE_HeaderLength) == header &&
                pb_le32(h + PBO_PERF_OBJECT_TYPE_ObjectNameTitleIndex) == o->name_title_index &&
                pb_le32(h + PBO_PERF_OBJECT_TYPE_NumCounters) == o->counter_count &&
                pb_le32(h + PBO_PERF_OBJECT_TYPE_NumInstances) == (uint32_t)o->num_instances &&
                pb_le32(h + PBO_PERF_OBJECT_TYPE_CodePage) == o->code_page;
    return same && total >= PBS_PERF_OBJECT_TYPE && header >= PBS_PERF_OBJECT_TYPE &&
           header <= definition && definition <= total &&
           (uint64_t)o->counter_count * PBS_PERF_COUNTER_DEFINITION <= definition - header &&
           o->num_instances >= PERFBUF_V1_METADATA_NO_INSTANCES &&
           (uint64_t)instance_count * PB_V1_MIN_INSTANCE_BYTES <= total - definition &&
           total <= b->size - o->offset;
}


/*
 * The identity of a parse (perfbuf_v1_block.parse_id): the bytes' address
 * mixed with every header field a parse reads (TotalByteLength, SystemTime,
 * PerfTime, PerfFreq, PerfTime100nSec, ...), the object and instance
 * counts it found, and its shape: every object header and every instance
 * definition with its name and its counter block's ByteLength, hashed as
 * validation walked them. Two buffers differ by address; one buffer
 * received into again holds a later capture, whose clocks moved, and a
 * capture whose clocks did not move (replayed, or a frozen clock) differs
 * in its shape wherever an index built over the other would read
 * differently. Never 0, so a zeroed struct belongs to no parse. Computed
 * once, at the end of a parse.
 */
uint64_t pb_v1_parse_identity(const perfbuf_v1_block *b, const pb_mix_lanes *shape);

/*
 * Whether something that records the parse it was read from (a counter
 * block, a plan, an index) is of b's parse: the one comparison every user
 * of parse_id makes, O(1). A zeroed b (a failed parse) has parse_id 0 and
 * matches nothing.
 */
/*@ requires \valid_read(b);
    assigns \nothing;
*/
static inline bool pb_v1_same_parse(const perfbuf_v1_block *b, uint64_t parse_id)
{
    return b->parse_id != 0 && parse_id == b->parse_id;
}

/*
 * Whether block is one of b's counter blocks: made by a view of this parse
 * (its parse_id) and still where it was made (the four bytes at its offset
 * are a PERF_COUNTER_BLOCK.ByteLength equal to its byte_length, inside b).
 * O(1). *window is then the block's bytes.
 */
/*@ requires pb_v1_block_ok(b);
    requires \valid_read(block) && \valid(window);
    assigns *window;
    ensures \result ==> pb_valid(window) && window->bytes == \old(b->data);
*/
static inline bool pb_v1_counter_block_of(const perfbuf_v1_block *b,
                                          const perfbuf_v1_counter_block *block, pb_cursor *window)
{
    uint32_t length;
    if (!pb_v1_same_parse(b, block->parse_id) || block->offset > b->size ||
        block->byte_length > b->size - block->offset) {
        return false;
    }
    *window = pb_v1_view_window(b, block->offset, block->offset + block->byte_length);
    pb_cursor head;
    head = *window;
    const uint8_t *field;
    /* Taken through the cursor's check, decoded in the form gcc folds
     * into one load (core/le_load.h): every value read passes here. */
    if (!pb_cursor_take(&head, 4, &field)) {
        return false;
    }
    length = pb_le32(field);
    return length == block->byte_length;
}

/* How far ahead of the instance walk to ask for bytes: several instances
 * (with its counter block one is commonly 100 to 400 bytes), far enough
 * to hide a memory access. Measured on the benchmark's blocks of 216- and
 * 240-byte instances: 2 KB ahead took the parse from about 7 to 4.5 ns
 * per instance on the 2.3 MB block, where 1, 1.5, 3 and 4 KB took 6 to 7
 * (bench/README.md). */
#define PB_V1_PREFETCH_AHEAD 2048u

/*
 * Asks the processor to fetch bytes an instance walk (the parse, the
 * instance iterator, a whole-object read) will reach a few instances on. The walk is a chain (each instance's place comes from the
 * lengths before it), so on a block larger than the caches every step
 * would otherwise wait for memory; the summing read it is measured against
 * streams. Four lines a step, as many as a Process or Thread instance
 * spans (about 230 bytes): one line a step left the others to the
 * hardware, and validation of a 1M-instance block took 1.54x the time of
 * a vectorised read of the same bytes, 1.04x with four (perfbuf-bench's
 * scaling table). A hint only: nothing is read through it, and the
 * address is formed only inside the window.
 */
/*@ requires pb_valid((pb_cursor *)c);
    assigns \nothing;
*/
static inline void pb_v1_prefetch_ahead(const pb_cursor *c, size_t ahead)
{
#if defined(__GNUC__) || defined(__clang__)
    if (pb_cursor_remaining(c) > ahead + 192u) {
        const uint8_t *at = c->bytes + c->pos + ahead;
        __builtin_prefetch(at);
        __builtin_prefetch(at + 64);
        __builtin_prefetch(at + 128);
        __builtin_prefetch(at + 192);
    }
#else
    (void)c;
    (void)ahead;
#endif
}

/* The counter's bytes in one of b's counter blocks (pb_v1_counter_block_of),
 * or false: a counter block of another parse, or one the counter does not
 * fit. */
bool pb_v1_counter_slice(const perfbuf_v1_block *b, const perfbuf_v1_counter_block *block,
                         const perfbuf_v1_counter *counter, pb_cursor *value);

/* The seal perfbuf_v1_plan_build writes (v1/values.c): a hash of the plan
 * and its entries, never 0. Internal, so that a white-box test can seal a
 * plan it changed and show the reads stay in the row all the same. */
uint64_t pb_v1_plan_seal(const perfbuf_v1_plan *p);

#endif
