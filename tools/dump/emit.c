/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "emit.h"

#include <inttypes.h>

void emit_init(emitter *e, FILE *out, bool json)
{
    e->out = out;
    e->json = json;
    e->depth = 0;
    e->has_items[0] = false;
    e->in_list[0] = false;
    if (json) {
        fputc('{', out);
    }
}

static void indent(const emitter *e)
{
    for (int i = 0; i < e->depth; i++) {
        fputs("  ", e->out);
    }
}

/*
 * The next character of a NUL-terminated string: its code point and length,
 * or false (with *len 1) for a byte that does not start a well-formed UTF-8
 * sequence. Strings from perfbuf's conversions are valid UTF-8; a file name
 * from the command line need not be.
 */
static bool next_char(const unsigned char *p, uint32_t *cp, size_t *len)
{
    *len = 1;
    if (p[0] < 0x80) {
        *cp = p[0];
        return true;
    }
    size_t n = p[0] >= 0xC2 && p[0] <= 0xDF ? 2 : p[0] >= 0xE0 && p[0] <= 0xEF ? 3
             : p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : 0;
    if (n == 0) {
        return false;
    }
    uint32_t v = p[0] & (0xFFu >> (n + 1));
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) { /* also stops at the NUL */
            return false;
        }
        v = v << 6 | (p[i] & 0x3Fu);
    }
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < least[n] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
        return false;
    }
    *cp = v;
    *len = n;
    return true;
}

/*
 * Characters a terminal acts on or that reorder what it shows: C0 and C1
 * controls (C1 holds CSI and OSC), DEL, the bidirectional marks, embeddings,
 * overrides and isolates, and the line and paragraph separators. A hostile
 * buffer's names must not be able to move the cursor, change a title or
 * make one line read as another.
 */
static bool is_unsafe(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x061C || cp == 0x200E ||
           cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* JSON: always valid UTF-8 out; invalid input bytes become U+FFFD and unsafe
 * characters \u escapes, which a JSON reader turns back into the same text. */
static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        uint32_t cp;
        size_t len;
        if (!next_char(p, &cp, &len)) {
            fputs("\\ufffd", out);
        } else if (cp == '"' || cp == '\\') {
            fputc('\\', out);
            fputc((int)cp, out);
        } else if (is_unsafe(cp)) {
            fprintf(out, "\\u%04x", (unsigned)cp);
        } else {
            fwrite(p, 1, len, out);
        }
        p += len;
    }
    fputc('"', out);
}

/* Text-mode strings are quoted and every unsafe character escaped (\xNN for
 * a byte that is not UTF-8, \u{XXXX} for a character), so a hostile name
 * can neither forge lines of output nor drive the terminal. */
static void text_string(FILE *out, const char *s)
{
    fputc('"', out);
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        uint32_t cp;
        size_t len;
        if (!next_char(p, &cp, &len)) {
            fprintf(out, "\\x%02x", *p);
        } else if (cp == '"' || cp == '\\') {
            fputc('\\', out);
            fputc((int)cp, out);
        } else if (cp < 0x20 || cp == 0x7F) {
            fprintf(out, "\\x%02x", (unsigned)cp);
        } else if (is_unsafe(cp)) {
            fprintf(out, "\\u{%04x}", (unsigned)cp);
        } else {
            fwrite(p, 1, len, out);
        }
        p += len;
    }
    fputc('"', out);
}

/* Starts an item: separator, indentation and key. */
static void item(emitter *e, const char *key)
{
    if (e->json) {
        if (e->has_items[e->depth]) {
            fputc(',', e->out);
        }
        fputc('\n', e->out);
        indent(e);
        fputs("  ", e->out);
        if (key != NULL && !e->in_list[e->depth]) {
            json_string(e->out, key);
            fputs(": ", e->out);
        }
    } else {
        if (!e->has_items[e->depth] && e->depth > 0) {
            fputc('\n', e->out);
        }
        indent(e);
        if (e->in_list[e->depth]) {
            fputs("- ", e->out);
        }
        if (key != NULL) {
            fprintf(e->out, "%s: ", key);
        }
    }
    e->has_items[e->depth] = true;
}

/* Text-mode key of a container, written without the ": " of scalars. */
static void container_key(emitter *e, const char *key)
{
    if (!e->has_items[e->depth] && e->depth > 0) {
        fputc('\n', e->out);
    }
    indent(e);
    if (e->in_list[e->depth]) {
        fputs("-", e->out);
    }
    if (key != NULL) {
        fputs(e->in_list[e->depth] ? " " : "", e->out);
        fputs(key, e->out);
    }
    e->has_items[e->depth] = true;
}

static void open_container(emitter *e, const char *key, bool list)
{
    if (e->json) {
        item(e, key);
    } else {
        container_key(e, key);
    }
    if (e->json) {
        fputc(list ? '[' : '{', e->out);
    } else {
        /* The newline comes with the first item, or "(none)" at the end. */
        if (key != NULL) {
            fputc(':', e->out);
        }
    }
    if (e->depth + 1 < EMIT_MAX_DEPTH) {
        e->depth++;
    }
    e->has_items[e->depth] = false;
    e->in_list[e->depth] = list;
}

static void close_container(emitter *e, bool list)
{
    bool had = e->has_items[e->depth];
    if (e->depth > 0) {
        e->depth--;
    }
    if (e->json) {
        if (had) {
            fputc('\n', e->out);
            indent(e);
            fputs("  ", e->out);
        }
        fputc(list ? ']' : '}', e->out);
    } else if (!had) {
        fputs(" (none)\n", e->out);
    }
}

void emit_object_begin(emitter *e, const char *key)
{
    open_container(e, key, false);
}

void emit_object_end(emitter *e)
{
    close_container(e, false);
}

void emit_list_begin(emitter *e, const char *key)
{
    open_container(e, key, true);
}

void emit_list_end(emitter *e)
{
    close_container(e, true);
}

void emit_u64(emitter *e, const char *key, uint64_t v)
{
    item(e, key);
    fprintf(e->out, "%" PRIu64, v);
    if (!e->json) {
        fputc('\n', e->out);
    }
}

void emit_i64(emitter *e, const char *key, int64_t v)
{
    item(e, key);
    fprintf(e->out, "%" PRId64, v);
    if (!e->json) {
        fputc('\n', e->out);
    }
}

void emit_hex(emitter *e, const char *key, uint64_t v)
{
    item(e, key);
    fprintf(e->out, e->json ? "%" PRIu64 : "0x%" PRIx64, v);
    if (!e->json) {
        fputc('\n', e->out);
    }
}

void emit_bool(emitter *e, const char *key, bool v)
{
    item(e, key);
    fputs(v ? "true" : "false", e->out);
    if (!e->json) {
        fputc('\n', e->out);
    }
}

void emit_str(emitter *e, const char *key, const char *utf8)
{
    item(e, key);
    if (e->json) {
        json_string(e->out, utf8);
    } else {
        text_string(e->out, utf8);
        fputc('\n', e->out);
    }
}

void emit_null(emitter *e, const char *key)
{
    item(e, key);
    fputs(e->json ? "null" : "(none)\n", e->out);
}

void emit_finish(emitter *e)
{
    if (e->json) {
        fputs("\n}\n", e->out);
    }
    fflush(e->out);
}
