/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Decoding functions shared by the V1 parse, its views and name lookups. */
#ifndef PERFBUF_V1_INTERNAL_H
#define PERFBUF_V1_INTERNAL_H

#include "perfbuf/v1.h"
#include "check.h"

/* How far into every counter block the object's counters reach, and the
 * definition that reaches furthest. */
typedef struct pb_v1_reach {
    uint64_t end;
    size_t definition;
} pb_v1_reach;

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
 * counter block too. known_name_bytes as above, or NULL.
 */
bool pb_v1_view_object(pb_cursor *objects, perfbuf_v1_object *out);
bool pb_v1_view_counter(pb_cursor *defs, perfbuf_v1_counter *out);
bool pb_v1_view_counter_block(pb_cursor *data, perfbuf_v1_counter_block *out);
bool pb_v1_view_instance(pb_cursor *data, uint32_t code_page, const size_t *known_name_bytes,
                         perfbuf_v1_instance *out);

/* A cursor over [pos, end) of a validated block. */
pb_cursor pb_v1_window(const perfbuf_v1_block *b, size_t pos, size_t end);
/* The same, inline for the iterators and plans (an empty cursor when the
 * range is not inside b). */
static inline pb_cursor pb_v1_view_window(const perfbuf_v1_block *b, size_t pos, size_t end)
{
    pb_cursor c = pb_cursor_make(b->data, b->size);
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
 * What tells one parse from another of a buffer at the same address (the
 * usual collector receives every sample into one buffer): the block's
 * TotalByteLength, PerfTime, PerfTime100nSec and SystemTime, mixed into 64
 * bits. Indexes store it with the data pointer and compare both.
 */
static inline uint64_t pb_v1_parse_stamp(uint64_t total_length, int64_t perf_time,
                                         int64_t perf_time_100ns, const perfbuf_systemtime *st)
{
    const uint64_t words[4] = {
        total_length,
        (uint64_t)perf_time,
        (uint64_t)perf_time_100ns,
        (uint64_t)st->year << 48 ^ (uint64_t)st->month << 44 ^ (uint64_t)st->day << 38 ^
            (uint64_t)st->day_of_week << 35 ^ (uint64_t)st->hour << 28 ^
            (uint64_t)st->minute << 20 ^ (uint64_t)st->second << 12 ^ st->milliseconds,
    };
    uint64_t h = UINT64_C(0x9E3779B97F4A7C15);
    for (unsigned k = 0; k < 4; k++) {
        /* splitmix64's finaliser on each word chained into the next. */
        uint64_t z = h ^ words[k];
        z = (z ^ z >> 30) * UINT64_C(0xBF58476D1CE4E5B9);
        z = (z ^ z >> 27) * UINT64_C(0x94D049BB133111EB);
        h = z ^ z >> 31;
    }
    return h;
}

/* The object of b at `offset`, read again (no deep checks). */
bool pb_v1_object_at(const perfbuf_v1_block *b, size_t offset, perfbuf_v1_object *out);
/* o is an object of b as b's own bytes describe it: a view the caller
 * holds is used only once b says the same. */
bool pb_v1_object_of_block(const perfbuf_v1_block *b, const perfbuf_v1_object *o);
bool pb_v1_counter_slice(const perfbuf_v1_block *b, const perfbuf_v1_counter_block *block,
                         const perfbuf_v1_counter *counter, pb_cursor *value);

#endif
