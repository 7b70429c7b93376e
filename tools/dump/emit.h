/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * One description of a decoded buffer, written either as indented text or
 * as JSON: each format's decoder calls these and never prints directly.
 */
#ifndef PERFBUF_DUMP_EMIT_H
#define PERFBUF_DUMP_EMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define EMIT_MAX_DEPTH 32

/* Output is gathered here and written in large pieces: a stdio call per
 * key, space or number (each taking the stream's lock) was most of the
 * tool's time on large buffers. */
#define EMIT_BUFFER_BYTES 16384

typedef struct emitter {
    FILE *out;
    bool json;
    int depth;
    bool has_items[EMIT_MAX_DEPTH];
    bool in_list[EMIT_MAX_DEPTH];
    bool failed;              /* a write failed: the rest is dropped */
    size_t used;
    char buffer[EMIT_BUFFER_BYTES];
} emitter;

void emit_init(emitter *e, FILE *out, bool json);
/* key is NULL for an element of a list. */
void emit_object_begin(emitter *e, const char *key);
void emit_object_end(emitter *e);
void emit_list_begin(emitter *e, const char *key);
void emit_list_end(emitter *e);
void emit_u64(emitter *e, const char *key, uint64_t v);
void emit_i64(emitter *e, const char *key, int64_t v);
/* Text shows 0x..., JSON a number. */
void emit_hex(emitter *e, const char *key, uint64_t v);
void emit_bool(emitter *e, const char *key, bool v);
/* Any bytes: what is not UTF-8, and characters a terminal acts on, are
 * escaped (text) or replaced and escaped (JSON stays valid UTF-8). */
void emit_str(emitter *e, const char *key, const char *utf8);
void emit_null(emitter *e, const char *key);
/* Ends the document and flushes it: false when any write failed. */
bool emit_finish(emitter *e);

/*
 * The character at p (avail bytes left): its code point and length, or
 * false (with *len 1) for a byte that does not start a well-formed UTF-8
 * sequence within avail. Strings from perfbuf's conversions are valid
 * UTF-8; a file name from the command line, or a name cut at a byte
 * limit, need not be.
 */
bool emit_next_char(const unsigned char *p, size_t avail, uint32_t *cp, size_t *len);
/*
 * Characters a terminal acts on or that reorder or break what it shows:
 * C0 and C1 controls (C1 holds CSI, OSC and U+0085 NEL), DEL, the
 * bidirectional marks, embeddings, overrides and isolates (U+061C,
 * U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), and the line and
 * paragraph separators (U+2028, U+2029). A hostile buffer's names must
 * not be able to move the cursor, change a title, make one line read as
 * another or end a line early. The text and JSON output escape them, the
 * CSV replaces them (csv.h).
 */
bool emit_char_unsafe(uint32_t cp);

#endif
