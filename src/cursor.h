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

typedef struct pb_cursor {
    const uint8_t *bytes; /* the caller's whole buffer; offsets count from here */
    size_t start;         /* first byte this cursor covers */
    size_t pos;           /* next byte to read */
    size_t end;           /* one past the last byte this cursor covers */
} pb_cursor;

/*@ predicate pb_valid(pb_cursor *c) =
      \valid_read(c) && c->start <= c->pos && c->pos <= c->end &&
      (c->end == 0 || \valid_read(c->bytes + (0 .. c->end - 1)));
 */

/* The one validity predicate. */
static inline bool pb_cursor_is_valid(const pb_cursor *c)
{
    return c != NULL && c->start <= c->pos && c->pos <= c->end &&
           (c->bytes != NULL || c->end == 0);
}

static inline pb_cursor pb_cursor_make(const uint8_t *bytes, size_t len)
{
    pb_cursor c;
    c.bytes = bytes;
    c.start = 0;
    c.pos = 0;
    c.end = bytes != NULL ? len : 0;
    return c;
}

static inline size_t pb_cursor_remaining(const pb_cursor *c)
{
    return c->end - c->pos;
}

/* Bytes of the window already read. */
static inline size_t pb_cursor_consumed(const pb_cursor *c)
{
    return c->pos - c->start;
}

static inline size_t pb_cursor_size(const pb_cursor *c)
{
    return c->end - c->start;
}

/*
 * The one bounds check. Hands out the next n bytes and advances past them,
 * or fails and changes nothing. The comparison subtracts from the trusted
 * side, so it cannot overflow.
 */
static inline bool pb_cursor_take(pb_cursor *c, size_t n, const uint8_t **out)
{
    if (n > c->end - c->pos) {
        return false;
    }
    *out = n > 0 ? c->bytes + c->pos : NULL;
    c->pos += n;
    return true;
}

static inline bool pb_cursor_skip(pb_cursor *c, size_t n)
{
    const uint8_t *ignored;
    return pb_cursor_take(c, n, &ignored);
}

static inline bool pb_cursor_read_u8(pb_cursor *c, uint8_t *v)
{
    const uint8_t *p;
    if (!pb_cursor_take(c, 1, &p)) {
        return false;
    }
    *v = p[0];
    return true;
}

static inline bool pb_cursor_read_u16(pb_cursor *c, uint16_t *v)
{
    const uint8_t *p;
    if (!pb_cursor_take(c, 2, &p)) {
        return false;
    }
    *v = (uint16_t)((unsigned)p[0] | ((unsigned)p[1] << 8));
    return true;
}

static inline bool pb_cursor_read_u32(pb_cursor *c, uint32_t *v)
{
    const uint8_t *p;
    if (!pb_cursor_take(c, 4, &p)) {
        return false;
    }
    *v = (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
         ((uint32_t)p[3] << 24);
    return true;
}

static inline bool pb_cursor_read_u64(pb_cursor *c, uint64_t *v)
{
    const uint8_t *p;
    if (!pb_cursor_take(c, 8, &p)) {
        return false;
    }
    *v = (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) |
         ((uint64_t)p[3] << 24) | ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40) |
         ((uint64_t)p[6] << 48) | ((uint64_t)p[7] << 56);
    return true;
}

/*
 * Carves the next n bytes of the parent into a child and advances the
 * parent past them. The child starts reading at its first byte.
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
static inline bool pb_cursor_slice(const pb_cursor *c, size_t rel, size_t n, pb_cursor *child)
{
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
static inline bool pb_cursor_get_u16(const pb_cursor *c, size_t rel, uint16_t *v)
{
    pb_cursor f;
    return pb_cursor_slice(c, rel, 2, &f) && pb_cursor_read_u16(&f, v);
}

static inline bool pb_cursor_get_u32(const pb_cursor *c, size_t rel, uint32_t *v)
{
    pb_cursor f;
    return pb_cursor_slice(c, rel, 4, &f) && pb_cursor_read_u32(&f, v);
}

static inline bool pb_cursor_get_u64(const pb_cursor *c, size_t rel, uint64_t *v)
{
    pb_cursor f;
    return pb_cursor_slice(c, rel, 8, &f) && pb_cursor_read_u64(&f, v);
}

/* Pointer to the first byte of the window, for handing a validated view
 * of the caller's own bytes back to the caller (never NULL-offset). */
static inline const uint8_t *pb_cursor_data(const pb_cursor *c)
{
    return c->end > c->start ? c->bytes + c->start : NULL;
}

/* Arithmetic on values from the buffer: each returns false instead of
 * wrapping. */
static inline bool pb_add(size_t a, size_t b, size_t *sum)
{
    if (b > SIZE_MAX - a) {
        return false;
    }
    *sum = a + b;
    return true;
}

static inline bool pb_mul(size_t a, size_t b, size_t *product)
{
    if (a != 0 && b > SIZE_MAX / a) {
        return false;
    }
    *product = a * b;
    return true;
}

/* Bytes needed to round n up to a multiple of 8 (0..7); cannot overflow. */
static inline size_t pb_pad8(size_t n)
{
    return (8 - (n & 7u)) & 7u;
}

#endif
