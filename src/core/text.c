/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "core/text.h"

#define PB_REPLACEMENT 0xFFFDu

void pb_utf8_out_init(pb_utf8_out *o, char *buf, size_t cap)
{
    /* With no room even for the NUL there is nothing to write at all. */
    o->buf = cap > 0 ? buf : NULL;
    o->cap = (buf != NULL && cap > 0) ? cap - 1 : 0;
    o->used = 0;
    o->needed = 0;
    o->full = false;
}

/*@ assigns \nothing;
    ensures 1 <= \result <= 4;
*/
static size_t utf8_length(uint32_t cp)
{
    return cp < 0x80u ? 1u : cp < 0x800u ? 2u : cp < 0x10000u ? 3u : 4u;
}

void pb_utf8_add_needed(pb_utf8_out *o, size_t n)
{
    /* Saturates: on a 32-bit host a name of over 1.4 GiB in a code page
     * that triples (1252, invalid 65001) needs more than SIZE_MAX bytes,
     * and a wrapped count would report a cut name as whole. */
    o->needed = n > SIZE_MAX - o->needed ? SIZE_MAX : o->needed + n;
}

void pb_utf8_add_bound(pb_utf8_out *o, size_t items)
{
    size_t bound = items > SIZE_MAX / PB_UTF8_MAX_PER_ITEM ? SIZE_MAX : items * PB_UTF8_MAX_PER_ITEM;
    pb_utf8_add_needed(o, bound);
}

void pb_utf8_put(pb_utf8_out *o, uint32_t cp)
{
    size_t n = utf8_length(cp);
    pb_utf8_add_needed(o, n);
    if (o->full || n > o->cap - o->used) {
        o->full = true;
        return;
    }
    char *p = o->buf + o->used;
    switch (n) {
    case 1:
        p[0] = (char)cp;
        break;
    case 2:
        p[0] = (char)(0xC0u | (cp >> 6));
        p[1] = (char)(0x80u | (cp & 0x3Fu));
        break;
    case 3:
        p[0] = (char)(0xE0u | (cp >> 12));
        p[1] = (char)(0x80u | ((cp >> 6) & 0x3Fu));
        p[2] = (char)(0x80u | (cp & 0x3Fu));
        break;
    default:
        p[0] = (char)(0xF0u | (cp >> 18));
        p[1] = (char)(0x80u | ((cp >> 12) & 0x3Fu));
        p[2] = (char)(0x80u | ((cp >> 6) & 0x3Fu));
        p[3] = (char)(0x80u | (cp & 0x3Fu));
        break;
    }
    o->used += n;
}

perfbuf_status pb_utf8_finish(pb_utf8_out *o, size_t *len)
{
    if (o->buf != NULL) {
        o->buf[o->used] = '\0';
    }
    if (len != NULL) {
        *len = o->needed;
    }
    return o->needed > o->used ? PERFBUF_E_OUTPUT_TOO_SMALL : PERFBUF_OK;
}

/* Next code point of UTF-16LE text; lone surrogates become U+FFFD. */
/*@ requires pb_valid(c) && \valid(c);
    requires \valid(cp) && \separated(c, cp);
    assigns *c, *cp;
    ensures pb_valid(c);
    ensures c->bytes == \old(c->bytes) && c->start == \old(c->start) && c->end == \old(c->end);
    ensures \old(c->pos) <= c->pos;
    ensures \result ==> \old(c->pos) < c->pos;
*/
static bool next_utf16(pb_cursor *c, uint32_t *cp)
{
    uint16_t u;
    if (!pb_cursor_read_u16(c, &u)) {
        return false;
    }
    if (u >= 0xD800u && u <= 0xDBFFu) {
        pb_cursor peek;
        peek = *c;
        uint16_t low;
        if (pb_cursor_read_u16(&peek, &low) && low >= 0xDC00u && low <= 0xDFFFu) {
            *c = peek;
            *cp = 0x10000u + (((uint32_t)u - 0xD800u) << 10) + ((uint32_t)low - 0xDC00u);
            return true;
        }
        *cp = PB_REPLACEMENT;
        return true;
    }
    *cp = (u >= 0xDC00u && u <= 0xDFFFu) ? PB_REPLACEMENT : u;
    return true;
}

void pb_utf16le_convert(pb_cursor c, pb_utf8_out *o)
{
    uint32_t cp;
    /*@ loop invariant pb_valid(&c) && pb_out_ok(o);
        loop invariant c.end == \at(c.end, Pre);
        loop invariant o->buf == \at(o->buf, Pre) && o->cap == \at(o->cap, Pre);
        loop assigns c, cp, o->used, o->needed, o->full, o->buf[0 .. o->cap];
        loop variant c.end - c.pos;
    */
    while (!o->full && next_utf16(&c, &cp)) {
        pb_utf8_put(o, cp);
    }
    /* Decoding on once the output is full would cost the whole text on
     * every call that cannot print it (a long name shared by many
     * instances): what is left is bounded instead. */
    if (o->full) {
        pb_utf8_add_bound(o, pb_cursor_remaining(&c) / 2);
    }
}

pb_utf8_result pb_utf8_decode(pb_cursor *c, uint32_t *cp)
{
    pb_cursor peek = *c;
    uint8_t b0;
    if (!pb_cursor_read_u8(&peek, &b0)) {
        return PB_UTF8_END;
    }
    size_t extra;
    uint32_t v;
    uint32_t min;
    if (b0 < 0x80u) {
        extra = 0;
        v = b0;
        min = 0;
    } else if (b0 >= 0xC2u && b0 <= 0xDFu) {
        extra = 1;
        v = b0 & 0x1Fu;
        min = 0x80u;
    } else if (b0 >= 0xE0u && b0 <= 0xEFu) {
        extra = 2;
        v = b0 & 0x0Fu;
        min = 0x800u;
    } else if (b0 >= 0xF0u && b0 <= 0xF4u) {
        extra = 3;
        v = b0 & 0x07u;
        min = 0x10000u;
    } else {
        return PB_UTF8_INVALID;
    }
    for (size_t i = 0; i < extra; i++) {
        uint8_t b;
        if (!pb_cursor_read_u8(&peek, &b) || (b & 0xC0u) != 0x80u) {
            return PB_UTF8_INVALID;
        }
        v = (v << 6) | (b & 0x3Fu);
    }
    if (v < min || v > 0x10FFFFu || (v >= 0xD800u && v <= 0xDFFFu)) {
        return PB_UTF8_INVALID;
    }
    *c = peek;
    *cp = v;
    return PB_UTF8_OK;
}

/*
 * Next code point of UTF-8 text. An invalid sequence (overlong, surrogate,
 * above U+10FFFF, cut short) yields U+FFFD and consumes one byte, as the
 * WHATWG decoder's "maximal subpart" rule does in the common cases.
 */
static bool next_utf8(pb_cursor *c, uint32_t *cp)
{
    switch (pb_utf8_decode(c, cp)) {
    case PB_UTF8_OK:
        return true;
    case PB_UTF8_INVALID:
        (void)pb_cursor_skip(c, 1);
        *cp = PB_REPLACEMENT;
        return true;
    case PB_UTF8_END:
    default:
        return false;
    }
}

/* Windows-1252 bytes 0x80..0x9F; 0 marks the five unassigned ones. */
static const uint16_t cp1252_high[32] = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,
    0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178,
};

bool perfbuf_codepage_supported(uint32_t code_page)
{
    return code_page == 1252u || code_page == 65001u || code_page == 20127u;
}

static bool next_codepoint(uint32_t code_page, pb_cursor *c, uint32_t *cp);

void pb_codepage_convert(uint32_t code_page, pb_cursor c, pb_utf8_out *o)
{
    uint32_t cp;
    while (!o->full && next_codepoint(code_page, &c, &cp)) {
        pb_utf8_put(o, cp);
    }
    if (o->full) {
        pb_utf8_add_bound(o, pb_cursor_remaining(&c));
    }
}

perfbuf_status perfbuf_utf16le_to_utf8(const void *utf16le, size_t bytes, char *out, size_t cap,
                                       size_t *len)
{
    if ((utf16le == NULL && bytes != 0) || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (bytes % 2 != 0) {
        return PERFBUF_E_ODD_LENGTH;
    }
    pb_utf8_out o;
    pb_utf8_out_init(&o, out, cap);
    pb_utf16le_convert(pb_cursor_make((const uint8_t *)utf16le, bytes), &o);
    return pb_utf8_finish(&o, len);
}

perfbuf_status perfbuf_codepage_to_utf8(uint32_t code_page, const void *text, size_t bytes,
                                        char *out, size_t cap, size_t *len)
{
    if ((text == NULL && bytes != 0) || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (!perfbuf_codepage_supported(code_page)) {
        return PERFBUF_E_UNKNOWN_VALUE;
    }
    pb_utf8_out o;
    pb_utf8_out_init(&o, out, cap);
    pb_codepage_convert(code_page, pb_cursor_make((const uint8_t *)text, bytes), &o);
    return pb_utf8_finish(&o, len);
}

bool pb_utf16le_find_nul(const pb_cursor *c, size_t *units)
{
    /* Declared, then copied: WP loses the copy when it is the initializer
     * of a local whose address is taken (as in next_utf16). */
    pb_cursor scan;
    scan = *c;
    uint16_t u;
    size_t n = 0;
    /*@ loop invariant pb_valid(&scan);
        loop invariant scan.bytes == c->bytes && scan.start == c->start && scan.end == c->end;
        loop invariant scan.pos == c->pos + 2 * n;
        loop assigns scan.pos, u, n;
        loop variant scan.end - scan.pos;
    */
    while (pb_cursor_read_u16(&scan, &u)) {
        if (u == 0) {
            *units = n;
            return true;
        }
        n++;
    }
    return false;
}

bool pb_text_find_terminator(uint32_t code_page, const pb_cursor *c, size_t *bytes)
{
    if (code_page == 0) {
        size_t units;
        if (!pb_utf16le_find_nul(c, &units)) {
            return false;
        }
        *bytes = units * 2;
        return true;
    }
    /* Declared, then copied into: the proof loses a copy that initialises
     * a local whose address is taken (docs/proofs.md). */
    pb_cursor scan;
    scan = *c;
    uint8_t b;
    size_t n = 0;
    /*@ loop invariant pb_valid(&scan);
        loop assigns scan.pos, b, n;
        loop variant scan.end - scan.pos;
    */
    while (pb_cursor_read_u8(&scan, &b)) {
        if (b == 0) {
            *bytes = n;
            return true;
        }
        n++;
    }
    return false;
}

void pb_text_convert_to_nul(uint32_t code_page, pb_cursor c, pb_utf8_out *o)
{
    uint32_t cp;
    while (!o->full && next_codepoint(code_page, &c, &cp) && cp != 0) {
        pb_utf8_put(o, cp);
    }
    if (o->full) {
        size_t rest = pb_cursor_remaining(&c);
        pb_utf8_add_bound(o, code_page == 0 ? rest / 2 : rest);
    }
}

void pb_text_convert(uint32_t code_page, pb_cursor c, pb_utf8_out *o)
{
    if (code_page == 0) {
        pb_utf16le_convert(c, o);
    } else {
        pb_codepage_convert(code_page, c, o);
    }
}

/* Next code point of text in a code page (0: UTF-16LE). */
static bool next_codepoint(uint32_t code_page, pb_cursor *c, uint32_t *cp)
{
    if (code_page == 0) {
        return next_utf16(c, cp);
    }
    if (code_page == 65001u) {
        return next_utf8(c, cp);
    }
    uint8_t b;
    if (!pb_cursor_read_u8(c, &b)) {
        return false;
    }
    *cp = b;
    if (b >= 0x80u) {
        if (code_page != 1252u) {
            *cp = PB_REPLACEMENT;
        } else if (b < 0xA0u) {
            *cp = cp1252_high[b - 0x80u] != 0 ? cp1252_high[b - 0x80u] : PB_REPLACEMENT;
        }
    }
    return true;
}

static uint32_t ascii_fold(uint32_t cp)
{
    return (cp >= 'A' && cp <= 'Z') ? cp + ('a' - 'A') : cp;
}

bool pb_utf16le_equals_utf8(pb_cursor c, const char *utf8, size_t utf8_len)
{
    return pb_text_equals_utf8(0, c, utf8, utf8_len);
}

/*
 * A character that decodes as itself, at base[i] (i <= left): a UTF-16 unit
 * outside the surrogates, a byte below 0x80 in any other code page, and in
 * 1252 also one from 0xA0. Comparisons read these straight from the bytes
 * the cursor hands out, the common case at a fraction of a decoder step.
 */
static bool plain_char(uint32_t code_page, const uint8_t *base, size_t left, size_t i,
                       uint32_t *cp, size_t *width)
{
    if (code_page == 0) {
        if (left - i < 2) {
            return false;
        }
        uint32_t unit = (uint32_t)base[i] | (uint32_t)base[i + 1] << 8;
        if (unit >= 0xD800u && unit <= 0xDFFFu) {
            return false;
        }
        *cp = unit;
        *width = 2;
        return true;
    }
    if (i >= left) {
        return false;
    }
    uint8_t byte = base[i];
    if (byte >= 0x80u && !(code_page == 1252u && byte >= 0xA0u)) {
        return false;
    }
    *cp = byte;
    *width = 1;
    return true;
}

int pb_text_compare(uint32_t code_page_a, pb_cursor a, uint32_t code_page_b, pb_cursor b)
{
    uint32_t x;
    uint32_t y;
    for (;;) {
        size_t left_a = pb_cursor_remaining(&a);
        size_t left_b = pb_cursor_remaining(&b);
        const uint8_t *base_a = NULL;
        const uint8_t *base_b = NULL;
        pb_cursor rest_a = a;
        pb_cursor rest_b = b;
        if (!pb_cursor_take(&rest_a, left_a, &base_a) || !pb_cursor_take(&rest_b, left_b, &base_b)) {
            return 0;
        }
        size_t at_a = 0;
        size_t at_b = 0;
        size_t width_a;
        size_t width_b;
        while (plain_char(code_page_a, base_a, left_a, at_a, &x, &width_a) &&
               plain_char(code_page_b, base_b, left_b, at_b, &y, &width_b)) {
            PB_WORK(1);
            x = ascii_fold(x);
            y = ascii_fold(y);
            if (x != y) {
                return x < y ? -1 : 1;
            }
            at_a += width_a;
            at_b += width_b;
        }
        (void)pb_cursor_skip(&a, at_a);
        (void)pb_cursor_skip(&b, at_b);
        /* The end of either text, or a character to decode. */
        bool more_a = next_codepoint(code_page_a, &a, &x);
        bool more_b = next_codepoint(code_page_b, &b, &y);
        if (!more_a || !more_b) {
            return (int)more_a - (int)more_b;
        }
        x = ascii_fold(x);
        y = ascii_fold(y);
        if (x != y) {
            return x < y ? -1 : 1;
        }
    }
}

bool pb_text_equals_utf8(uint32_t code_page, pb_cursor c, const char *utf8, size_t utf8_len)
{
    /* A query is UTF-8: the same order's equality, which the name classes
     * of perfbuf_v1_block_index_classes rely on. */
    return pb_text_compare(code_page, c, 65001u, pb_cursor_make((const uint8_t *)utf8, utf8_len)) == 0;
}
