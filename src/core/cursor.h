/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The cursor core: the only code in perfbuf that touches the bytes of an
 * untrusted buffer. Every other module reads through these functions.
 *
 * A cursor is a window [start, end) over one caller buffer, with a read
 * position pos inside it. Offsets are absolute (from the start of the
 * caller's buffer) so that every error can name the byte it concerns.
 * A child cursor is carved out of its parent and can never reach outside it.
 *
 * Every function leaves the cursor unchanged when it fails, never forms a
 * pointer outside [bytes, bytes + end), and decodes multi-byte values from
 * single bytes, so results do not depend on host byte order or alignment.
 */
#ifndef PERFBUF_CURSOR_H
#define PERFBUF_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/work.h"

typedef struct pb_cursor {
    const uint8_t *bytes; /* the caller's whole buffer; offsets count from here */
    size_t start;         /* first byte this cursor covers */
    size_t pos;           /* next byte to read */
    size_t end;           /* one past the last byte this cursor covers */
} pb_cursor;

/*@
  // A cursor is valid when its read position lies inside its window and
  // every byte of the window may be read.
  predicate pb_valid(pb_cursor *c) =
      \valid_read(c) && c->start <= c->pos <= c->end &&
      \valid_read(c->bytes + (c->start .. c->end - 1));

  // The same of a cursor held by value (a function's result or argument).
  predicate pb_valid_view(pb_cursor c) =
      c.start <= c.pos <= c.end && \valid_read(c.bytes + (c.start .. c.end - 1));

  // The little-endian value of n bytes at p.
  logic integer le16(uint8_t *p) = p[0] + 256 * p[1];
  logic integer le32(uint8_t *p) = le16(p) + 65536 * le16(p + 2);
  logic integer le64(uint8_t *p) = le32(p) + 4294967296 * le32(p + 4);
*/

/* The one validity predicate. */
/*@ requires c == \null || \valid_read(c);
    assigns \nothing;
    ensures \result ==> c != \null && c->start <= c->pos <= c->end;
*/
static inline bool pb_cursor_is_valid(const pb_cursor *c)
{
    return c != NULL && c->start <= c->pos && c->pos <= c->end &&
           (c->bytes != NULL || c->end == 0);
}

/*@ requires bytes == \null || \valid_read(bytes + (0 .. len - 1));
    assigns \nothing;
    ensures \result.bytes == bytes && \result.start == 0 && \result.pos == 0;
    ensures \result.end == (bytes == \null ? 0 : len);
*/
static inline pb_cursor pb_cursor_make(const uint8_t *bytes, size_t len)
{
    pb_cursor c;
    c.bytes = bytes;
    c.start = 0;
    c.pos = 0;
    c.end = bytes != NULL ? len : 0;
    return c;
}

/*@ requires pb_valid((pb_cursor *)c);
    assigns \nothing;
    ensures \result == c->end - c->pos;
*/
static inline size_t pb_cursor_remaining(const pb_cursor *c)
{
    return c->end - c->pos;
}

/* Bytes of the window already read. */
/*@ requires pb_valid((pb_cursor *)c);
    assigns \nothing;
    ensures \result == c->pos - c->start;
*/
static inline size_t pb_cursor_consumed(const pb_cursor *c)
{
    return c->pos - c->start;
}

/*@ requires pb_valid((pb_cursor *)c);
    assigns \nothing;
    ensures \result == c->end - c->start;
*/
static inline size_t pb_cursor_size(const pb_cursor *c)
{
    return c->end - c->start;
}

/*
 * The one bounds check. Hands out the next n bytes and advances past them,
 * or fails and changes nothing. The comparison subtracts from the trusted
 * side, so it cannot overflow.
 */
/*@ requires pb_valid(c) && \valid(c);
    requires \valid(out) && \separated(out, c);
    assigns c->pos, *out;
    ensures pb_valid(c);
    behavior fits:
      assumes n <= c->end - c->pos;
      ensures \result == \true;
      ensures c->pos == \old(c->pos) + n;
      ensures n > 0 ==> *out == c->bytes + \old(c->pos);
      ensures \valid_read(*out + (0 .. n - 1));
    behavior too_long:
      assumes n > c->end - c->pos;
      assigns \nothing;
      ensures \result == \false && c->pos == \old(c->pos);
    complete behaviors;
    disjoint behaviors;
*/
static inline bool pb_cursor_take(pb_cursor *c, size_t n, const uint8_t **out)
{
    PB_WORK(1);
    if (n > c->end - c->pos) {
        return false;
    }
    *out = n > 0 ? c->bytes + c->pos : NULL;
    c->pos += n;
    return true;
}

/*@ requires pb_valid(c) && \valid(c);
    assigns c->pos;
    ensures pb_valid(c);
    behavior fits:
      assumes n <= c->end - c->pos;
      ensures \result == \true && c->pos == \old(c->pos) + n;
    behavior too_long:
      assumes n > c->end - c->pos;
      ensures \result == \false && c->pos == \old(c->pos);
    complete behaviors;
    disjoint behaviors;
*/
static inline bool pb_cursor_skip(pb_cursor *c, size_t n)
{
    const uint8_t *ignored;
    return pb_cursor_take(c, n, &ignored);
}

/*@ requires pb_valid(c) && \valid(c);
    requires \valid(v) && \separated(v, c);
    assigns c->pos, *v;
    ensures pb_valid(c);
    behavior fits:
      assumes c->end - c->pos >= 1;
      ensures \result == \true && c->pos == \old(c->pos) + 1;
      ensures *v == c->bytes[\old(c->pos)];
    behavior too_long:
      assumes c->end - c->pos < 1;
      ensures \result == \false && c->pos == \old(c->pos);
    complete behaviors;
    disjoint behaviors;
*/
static inline bool pb_cursor_read_u8(pb_cursor *c, uint8_t *v)
{
    const uint8_t *p;
    if (!pb_cursor_take(c, 1, &p)) {
        return false;
    }
    *v = p[0];
    return true;
}

/*@ requires pb_valid(c) && \valid(c);
    requires \valid(v) && \separated(v, c);
    assigns c->pos, *v;
    ensures pb_valid(c);
    behavior fits:
      assumes c->end - c->pos >= 2;
      ensures \result == \true && c->pos == \old(c->pos) + 2;
      ensures *v == le16(c->bytes + \old(c->pos));
    behavior too_long:
      assumes c->end - c->pos < 2;
      ensures \result == \false && c->pos == \old(c->pos);
    complete behaviors;
    disjoint behaviors;
*/
static inline bool pb_cursor_read_u16(pb_cursor *c, uint16_t *v)
{
    const uint8_t *p;
    if (!pb_cursor_take(c, 2, &p)) {
        return false;
    }
    *v = (uint16_t)((unsigned)p[0] + 256u * p[1]);
    return true;
}

/*@ requires pb_valid(c) && \valid(c);
    requires \valid(v) && \separated(v, c);
    assigns c->pos, *v;
    ensures pb_valid(c);
    behavior fits:
      assumes c->end - c->pos >= 4;
      ensures \result == \true && c->pos == \old(c->pos) + 4;
      ensures *v == le32(c->bytes + \old(c->pos));
    behavior too_long:
      assumes c->end - c->pos < 4;
      ensures \result == \false && c->pos == \old(c->pos);
    complete behaviors;
    disjoint behaviors;
*/
static inline bool pb_cursor_read_u32(pb_cursor *c, uint32_t *v)
{
    const uint8_t *p;
    if (!pb_cursor_take(c, 4, &p)) {
        return false;
    }
    uint32_t low = (uint32_t)p[0] + 256u * p[1];
    uint32_t high = (uint32_t)p[2] + 256u * p[3];
    *v = low + 65536u * high;
    return true;
}

/*@ requires pb_valid(c) && \valid(c);
    requires \valid(v) && \separated(v, c);
    assigns c->pos, *v;
    ensures pb_valid(c);
    behavior fits:
      assumes c->end - c->pos >= 8;
      ensures \result == \true && c->pos == \old(c->pos) + 8;
      ensures *v == le64(c->bytes + \old(c->pos));
    behavior too_long:
      assumes c->end - c->pos < 8;
      ensures \result == \false && c->pos == \old(c->pos);
    complete behaviors;
    disjoint behaviors;
*/
static inline bool pb_cursor_read_u64(pb_cursor *c, uint64_t *v)
{
    const uint8_t *p;
    if (!pb_cursor_take(c, 8, &p)) {
        return false;
    }
    uint64_t low = (uint64_t)p[0] + 256u * (uint64_t)p[1] + 65536u * ((uint64_t)p[2] + 256u * (uint64_t)p[3]);
    uint64_t high = (uint64_t)p[4] + 256u * (uint64_t)p[5] + 65536u * ((uint64_t)p[6] + 256u * (uint64_t)p[7]);
    *v = low + 4294967296u * high;
    return true;
}

/*
 * Carves the next n bytes of the parent into a child and advances the
 * parent past them. The child starts reading at its first byte.
 */
/*@ requires pb_valid(parent) && \valid(parent);
    requires \valid(child) && \separated(parent, child);
    assigns parent->pos, *child;
    ensures pb_valid(parent);
    behavior fits:
      assumes n <= parent->end - parent->pos;
      ensures \result == \true;
      ensures parent->pos == \old(parent->pos) + n;
      ensures child->bytes == parent->bytes;
      ensures child->start == \old(parent->pos) && child->pos == child->start;
      ensures child->end == \old(parent->pos) + n;
      ensures pb_valid(child);
    behavior too_long:
      assumes n > parent->end - parent->pos;
      ensures \result == \false && parent->pos == \old(parent->pos);
    complete behaviors;
    disjoint behaviors;
*/
static inline bool pb_cursor_sub(pb_cursor *parent, size_t n, pb_cursor *child)
{
    size_t at = parent->pos;
    if (!pb_cursor_skip(parent, n)) {
        return false;
    }
    child->bytes = parent->bytes;
    child->start = at;
    child->pos = at;
    child->end = at + n;
    return true;
}

/*
 * A child covering [start + rel, start + rel + n) of c, for fields found at
 * an offset from the start of their structure. c itself does not move.
 */
/*@ requires pb_valid((pb_cursor *)c);
    requires \valid(child) && \separated(c, child);
    assigns *child;
    behavior fits:
      assumes rel <= c->end - c->start && n <= c->end - c->start - rel;
      ensures \result == \true;
      ensures child->bytes == c->bytes;
      ensures child->start == c->start + rel && child->pos == child->start;
      ensures child->end == c->start + rel + n;
      ensures pb_valid(child);
    behavior outside:
      assumes rel > c->end - c->start || n > c->end - c->start - rel;
      assigns \nothing;
      ensures \result == \false;
    complete behaviors;
    disjoint behaviors;
*/
static inline bool pb_cursor_slice(const pb_cursor *c, size_t rel, size_t n, pb_cursor *child)
{
    PB_WORK(1);
    size_t size = c->end - c->start;
    if (rel > size || n > size - rel) {
        return false;
    }
    child->bytes = c->bytes;
    child->start = c->start + rel;
    child->pos = child->start;
    child->end = child->start + n;
    return true;
}

/* Fixed-offset reads relative to the start of a structure's window. */
/*@ requires pb_valid((pb_cursor *)c);
    requires \valid(v) && \separated(v, c);
    assigns *v;
    behavior fits:
      assumes rel <= c->end - c->start && 2 <= c->end - c->start - rel;
      ensures \result == \true && *v == le16(c->bytes + c->start + rel);
    behavior outside:
      assumes rel > c->end - c->start || 2 > c->end - c->start - rel;
      assigns \nothing;
      ensures \result == \false;
    complete behaviors;
    disjoint behaviors;
*/
static inline bool pb_cursor_get_u16(const pb_cursor *c, size_t rel, uint16_t *v)
{
    pb_cursor f;
    return pb_cursor_slice(c, rel, 2, &f) && pb_cursor_read_u16(&f, v);
}

/*@ requires pb_valid((pb_cursor *)c);
    requires \valid(v) && \separated(v, c);
    assigns *v;
    behavior fits:
      assumes rel <= c->end - c->start && 4 <= c->end - c->start - rel;
      ensures \result == \true && *v == le32(c->bytes + c->start + rel);
    behavior outside:
      assumes rel > c->end - c->start || 4 > c->end - c->start - rel;
      assigns \nothing;
      ensures \result == \false;
    complete behaviors;
    disjoint behaviors;
*/
static inline bool pb_cursor_get_u32(const pb_cursor *c, size_t rel, uint32_t *v)
{
    pb_cursor f;
    return pb_cursor_slice(c, rel, 4, &f) && pb_cursor_read_u32(&f, v);
}

/*@ requires pb_valid((pb_cursor *)c);
    requires \valid(v) && \separated(v, c);
    assigns *v;
    behavior fits:
      assumes rel <= c->end - c->start && 8 <= c->end - c->start - rel;
      ensures \result == \true && *v == le64(c->bytes + c->start + rel);
    behavior outside:
      assumes rel > c->end - c->start || 8 > c->end - c->start - rel;
      assigns \nothing;
      ensures \result == \false;
    complete behaviors;
    disjoint behaviors;
*/
static inline bool pb_cursor_get_u64(const pb_cursor *c, size_t rel, uint64_t *v)
{
    pb_cursor f;
    return pb_cursor_slice(c, rel, 8, &f) && pb_cursor_read_u64(&f, v);
}

/* Pointer to the first byte of the window, for handing a validated view
 * of the caller's own bytes back to the caller (never NULL-offset). */
/*@ requires pb_valid((pb_cursor *)c);
    assigns \nothing;
    ensures c->end > c->start ==> \result == c->bytes + c->start;
    ensures c->end <= c->start ==> \result == \null;
*/
static inline const uint8_t *pb_cursor_data(const pb_cursor *c)
{
    return c->end > c->start ? c->bytes + c->start : NULL;
}

/* Arithmetic on values from the buffer: each returns false instead of
 * wrapping. */
/*@ requires \valid(sum);
    assigns *sum;
    behavior fits:
      assumes a + b <= SIZE_MAX;
      ensures \result == \true && *sum == a + b;
    behavior overflows:
      assumes a + b > SIZE_MAX;
      assigns \nothing;
      ensures \result == \false;
    complete behaviors;
    disjoint behaviors;
*/
static inline bool pb_add(size_t a, size_t b, size_t *sum)
{
    if (b > SIZE_MAX - a) {
        return false;
    }
    *sum = a + b;
    return true;
}

/*@ requires \valid(product);
    assigns *product;
    behavior fits:
      assumes a * b <= SIZE_MAX;
      ensures \result == \true && *product == a * b;
    behavior overflows:
      assumes a * b > SIZE_MAX;
      assigns \nothing;
      ensures \result == \false;
    complete behaviors;
    disjoint behaviors;
*/
static inline bool pb_mul(size_t a, size_t b, size_t *product)
{
    if (a != 0 && b > SIZE_MAX / a) {
        return false;
    }
    *product = a * b;
    return true;
}

/* Bytes needed to round n up to a multiple of 8 (0..7); cannot overflow. */
/*@ assigns \nothing;
    ensures 0 <= \result < 8 && (n + \result) % 8 == 0;
*/
static inline size_t pb_pad8(size_t n)
{
    return (8 - n % 8) % 8;
}

#endif
