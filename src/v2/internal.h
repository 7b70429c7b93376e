/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Decoding shared by the V2 query-data reader and the V2 metadata readers. */
#ifndef PERFBUF_V2_INTERNAL_H
#define PERFBUF_V2_INTERNAL_H

#include "perfbuf/v2_query.h"
#include "core/check.h"
#include "core/le_load.h"
#include "core/work.h"

/*@
  // A query whose bytes the caller still holds: every byte the parse
  // walked may be read (perfbuf_v2_query_parse gives back only such).
  predicate pb_v2_query_ok(perfbuf_v2_query *q) =
      \valid_read(q) && \valid_read(q->data + (0 .. q->size - 1));
*/

/* The query's bytes [pos, end), or an empty cursor when that is not
 * inside the walked buffer (a view of another buffer). Inline: the views
 * run it once per value. */
/*@ requires pb_v2_query_ok((perfbuf_v2_query *)q);
    assigns \nothing;
    ensures pb_valid_view(\result);
*/
static inline pb_cursor pb_v2_window(const perfbuf_v2_query *q, size_t pos, size_t end)
{
    pb_cursor c = pb_cursor_make(NULL, 0);
    if (end <= q->size && pos <= end && q->data != NULL) {
        c.bytes = q->data;
        c.start = pos;
        c.pos = pos;
        c.end = end;
    }
    return c;
}

/*
 * The first NUL code unit of the n bytes at p (bytes the cursor handed
 * out), four units per 8-byte load: what pb_utf16le_find_nul answers, the
 * units before it in *units. A unit's low 15 bits plus 0x7FFF set its top
 * bit unless they are all 0, and no carry leaves the unit, so the top bits
 * still clear after or-ing the unit in mark exactly the units that are 0,
 * with no arithmetic that wraps (the sanitizers' unsigned-overflow check
 * holds here too). A trailing odd byte is no unit.
 */
/*@ requires \valid_read(p + (0 .. n - 1));
    requires \valid(units);
    assigns *units;
*/
static inline bool pb_v2_find_nul(const uint8_t *p, size_t n, size_t *units)
{
    size_t i = 0;
    /*@ loop invariant 0 <= i <= n;
        loop assigns i;
        loop variant n - i;
    */
    for (; n - i >= 8; i += 8) {
        PB_WORK(1);
        uint64_t x = pb_le64(p + i);
        uint64_t low = (x & 0x7FFF7FFF7FFF7FFFu) + 0x7FFF7FFF7FFF7FFFu;
        uint64_t zero = ~(low | x) & 0x8000800080008000u;
        if (zero != 0) {
            /* Once per name: the first zero unit of the four. */
            size_t lane = (zero & 0x8000u) ? 0 : (zero & 0x80000000u) ? 1
                          : (zero & 0x800000000000u) ? 2 : 3;
            *units = i / 2 + lane;
            return true;
        }
    }
    /*@ loop invariant 0 <= i <= n;
        loop assigns i;
        loop variant n - i;
    */
    for (; n - i >= 2; i += 2) {
        PB_WORK(1);
        if ((p[i] | p[i + 1]) == 0) {
            *units = i / 2;
            return true;
        }
    }
    return false;
}

/* A PERF_INSTANCE_HEADER block (header, NUL-terminated UTF-16LE name,
 * padding) followed by value_count PERF_COUNTER_DATA blocks. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(region) && \valid(region);
    requires \valid(out) && \separated(ctx, region, out);
    requires ctx->err == \null || \separated(ctx->err, region, out);
    assigns region->pos, *out, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(region);
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
    ensures \result == PERFBUF_OK ==> region->pos > \old(region->pos);
*/
perfbuf_status pb_v2_read_instance(pb_ctx *ctx, pb_cursor *region, uint32_t value_count,
                                   perfbuf_v2_instance *out);

/*
 * The position of key among n u32 keys that ascend, the key of entry i at
 * keys + i * stride (bytes the cursor handed out, all n entries): the
 * probe at key - first key, then a binary search. Inline: a raw sample
 * runs it twice.
 */
/*@ requires 1 <= n && 4 <= stride <= UINT32_MAX;
    requires \valid_read(keys + (0 .. (n - 1) * stride + 3));
    requires \valid(position);
    assigns *position;
    ensures \result ==> *position < n;
*/
static inline bool pb_v2_find_in_keys(const uint8_t *keys, size_t stride, uint32_t n, uint32_t key,
                                      uint32_t *position)
{
    uint32_t k = pb_le32(keys);
    if (n == 0 || key < k) {
        return false;
    }
    uint32_t guess = key - k;
    if (guess < n && pb_le32(keys + (size_t)guess * stride) == key) {
        *position = guess;
        return true;
    }
    uint32_t lo = 0;
    uint32_t hi = n;
    /*@ loop invariant 0 <= lo <= hi <= n;
        loop assigns lo, hi, k;
        loop variant hi - lo;
    */
    while (lo < hi) {
        PB_WORK(1);
        uint32_t mid = lo + (hi - lo) / 2;
        k = pb_le32(keys + (size_t)mid * stride);
        if (k == key) {
            *position = mid;
            return true;
        }
        if (k < key) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return false;
}

/*
 * The position of key among n u32 keys that ascend, the key of entry i at
 * byte first + i * stride of data (entries the parse proved inside it).
 * Ascending ids are most often consecutive (0, 1, 2, ... or from any
 * start), so the position key - first key is tried before the binary
 * search: one read for such a set, log2(n) otherwise.
 */
/*@ requires data == \null || \valid_read(data + (0 .. size - 1));
    requires \valid(position);
    assigns *position;
*/
bool pb_v2_find_ascending(const uint8_t *data, size_t size, size_t first, size_t stride,
                          uint32_t n, uint32_t key, uint32_t *position);

/* A GUID's 16 bytes at p: Data1, Data2, Data3 little-endian, then Data4. */
/*@ requires \valid_read(p + (0 .. 15));
    assigns \nothing;
*/
static inline perfbuf_guid pb_v2_load_guid(const uint8_t *p)
{
    perfbuf_guid g;
    g.data1 = pb_le32(p);
    g.data2 = (uint16_t)(p[4] | p[5] << 8);
    g.data3 = (uint16_t)(p[6] | p[7] << 8);
    /*@ loop invariant 0 <= i <= 8;
        loop assigns i, g.data4[0 .. 7];
        loop variant 8 - i;
    */
    for (size_t i = 0; i < sizeof g.data4; i++) {
        g.data4[i] = p[8 + i];
    }
    return g;
}

#endif
