/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Internal text conversion over cursors, shared by every reader. */
#ifndef PERFBUF_TEXT_INTERNAL_H
#define PERFBUF_TEXT_INTERNAL_H

#include "perfbuf/text.h"
#include "core/cursor.h"

/*
 * A UTF-8 writer into a caller buffer. Until a character does not fit it
 * counts exactly; from then on the converters stop decoding and add an
 * upper bound for the rest (PB_UTF8_MAX_PER_ITEM per UTF-16 unit or
 * code-page byte), so a call costs at most what the caller's buffer holds
 * plus O(1), whatever the length of the text. The count saturates at
 * SIZE_MAX.
 */
typedef struct pb_utf8_out {
    char *buf;
    size_t cap;     /* bytes usable for text: caller's cap minus the NUL */
    size_t used;    /* bytes written so far (<= cap) */
    size_t needed;  /* exact while !full; afterwards a size that is enough */
    bool full;      /* a character did not fit: write no more */
} pb_utf8_out;

/*@
  // A writer that may write buf[0 .. cap] (the text and its NUL), a buffer
  // apart from the writer itself; with no buffer it writes nothing.
  predicate pb_out_ok(pb_utf8_out *o) =
      \valid(o) && o->used <= o->cap &&
      (o->buf == \null ==> o->cap == 0) &&
      (o->buf != \null ==>
          \valid(o->buf + (0 .. o->cap)) && \separated(o, o->buf + (0 .. o->cap)));
*/

/* UTF-8 bytes one UTF-16 unit or one code-page byte can become: a BMP
 * character or U+FFFD takes 3, a surrogate pair 4 for 2 units. */
#define PB_UTF8_MAX_PER_ITEM 3u

/* One step of strict UTF-8 decoding (RFC 3629: no overlong form, no
 * surrogate, nothing above U+10FFFF). OK consumes the character; INVALID
 * and END consume nothing, so the caller decides what a bad byte means. */
typedef enum pb_utf8_result { PB_UTF8_END, PB_UTF8_OK, PB_UTF8_INVALID } pb_utf8_result;
pb_utf8_result pb_utf8_decode(pb_cursor *c, uint32_t *cp);

/*@ requires \valid(o);
    requires cap == 0 || \valid(buf + (0 .. cap - 1));
    requires \separated(o, buf + (0 .. cap - 1));
    assigns *o;
    ensures pb_out_ok(o);
    ensures o->buf != \null ==> o->buf == buf && o->cap == cap - 1;
*/
void pb_utf8_out_init(pb_utf8_out *o, char *buf, size_t cap);
/*@ requires pb_out_ok(o);
    assigns o->used, o->needed, o->full, o->buf[0 .. o->cap];
    ensures pb_out_ok(o);
*/
void pb_utf8_put(pb_utf8_out *o, uint32_t code_point);
/* Adds n bytes to the count, saturating. */
/*@ requires \valid(o);
    assigns o->needed;
*/
void pb_utf8_add_needed(pb_utf8_out *o, size_t n);
/* Adds the most that `items` more units or bytes could need. */
/*@ requires \valid(o);
    assigns o->needed;
*/
void pb_utf8_add_bound(pb_utf8_out *o, size_t items);
/* Terminates and reports: OK or OUTPUT_TOO_SMALL; *len = needed. */
/*@ requires pb_out_ok(o);
    requires len == \null || \valid(len);
    requires len == \null || \separated(len, o);
    requires len == \null || o->buf == \null || \separated(len, o->buf + (0 .. o->cap));
    assigns o->buf[o->used], *len;
*/
perfbuf_status pb_utf8_finish(pb_utf8_out *o, size_t *len);

/* Converts every remaining byte of c (an even count) from UTF-16LE. */
/*@ requires pb_valid_view(c);
    requires pb_out_ok(o);
    assigns o->used, o->needed, o->full, o->buf[0 .. o->cap];
    ensures pb_out_ok(o);
*/
void pb_utf16le_convert(pb_cursor c, pb_utf8_out *o);
/* Converts every remaining byte of c from a supported code page. */
void pb_codepage_convert(uint32_t code_page, pb_cursor c, pb_utf8_out *o);

/*
 * Finds the first NUL code unit among the remaining whole units of c.
 * On success *units is the count before it.
 */
/*@ requires pb_valid((pb_cursor *)c);
    requires \valid(units) && \separated(units, c);
    assigns *units;
    ensures \result ==> 2 * *units + 2 <= c->end - c->pos;
*/
bool pb_utf16le_find_nul(const pb_cursor *c, size_t *units);

/*
 * Finds the terminator of a name in a code page (0: UTF-16LE, a NUL code
 * unit; otherwise a NUL byte). On success *bytes is the text's length.
 */
/*@ requires pb_valid((pb_cursor *)c);
    requires \valid(bytes);
    assigns *bytes;
*/
bool pb_text_find_terminator(uint32_t code_page, const pb_cursor *c, size_t *bytes);

/* Converts every remaining byte of c as text in code_page (0: UTF-16LE). */
void pb_text_convert(uint32_t code_page, pb_cursor c, pb_utf8_out *o);

/*
 * The same up to the first NUL character: for a name whose span is known
 * but whose terminator was never looked for, so that reading it costs what
 * the output holds rather than a scan of the whole span first.
 */
void pb_text_convert_to_nul(uint32_t code_page, pb_cursor c, pb_utf8_out *o);

/* ASCII case-insensitive comparison of text in code_page (0: UTF-16LE)
 * with UTF-8 text. It stops at the first difference, so it reads at most
 * as many characters of c as utf8 has, plus one, and the reverse. */
bool pb_text_equals_utf8(uint32_t code_page, pb_cursor c, const char *utf8, size_t utf8_len);

/*
 * Orders two texts, each in its code page (0: UTF-16LE; 65001 for UTF-8,
 * a query's), by their code points with ASCII letters folded to lower
 * case: negative, 0 or positive. 0 is exactly pb_text_equals_utf8's
 * equality (a text against a query in 65001), so texts this calls equal
 * are equal to the same queries, and the relation is transitive: it is
 * equality of the folded code-point sequences. A comparison stops at the
 * first difference: it reads at most min(characters of a, of b) + 1
 * characters of each.
 */
int pb_text_compare(uint32_t code_page_a, pb_cursor a, uint32_t code_page_b, pb_cursor b);

/* ASCII case-insensitive comparison of UTF-16LE text with UTF-8 text, as
 * Windows compares instance names. */
bool pb_utf16le_equals_utf8(pb_cursor c, const char *utf8, size_t utf8_len);

#endif
