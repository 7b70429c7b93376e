/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "emit.h"

#include <string.h>

#include "dump.h"

static void flush(emitter *e)
{
    if (e->used > 0 && !e->failed && fwrite(e->buffer, 1, e->used, e->out) != e->used) {
        e->failed = true;
    }
    e->used = 0;
}

static void put(emitter *e, const void *data, size_t n)
{
    const char *p = data;
    while (n > 0) {
        DUMP_WORK(1);
        if (e->used == sizeof e->buffer) {
            flush(e);
        }
        size_t room = sizeof e->buffer - e->used;
        size_t take = n < room ? n : room;
        memcpy(e->buffer + e->used, p, take);
        e->used += take;
        p += take;
        n -= take;
    }
}

static void put_char(emitter *e, char c)
{
    if (e->used == sizeof e->buffer) {
        flush(e);
    }
    e->buffer[e->used++] = c;
}

static void put_text(emitter *e, const char *s)
{
    put(e, s, strlen(s));
}

/* Decimal or hexadecimal digits of v, without leading zeros. */
static void put_digits(emitter *e, uint64_t v, unsigned base)
{
    char digits[20];
    size_t n = 0;
    do {
        DUMP_WORK(1);
        digits[sizeof digits - ++n] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v != 0);
    put(e, digits + sizeof digits - n, n);
}

void emit_init(emitter *e, FILE *out, bool json)
{
    e->out = out;
    e->json = json;
    e->depth = 0;
    e->has_items[0] = false;
    e->in_list[0] = false;
    e->failed = false;
    e->used = 0;
    if (json) {
        put_char(e, '{');
    }
}

static void indent(emitter *e)
{
    static const char spaces[2 * EMIT_MAX_DEPTH + 1] =
        "                                                                ";
    put(e, spaces, 2 * (size_t)e->depth);
}

bool emit_next_char(const unsigned char *p, size_t avail, uint32_t *cp, size_t *len)
{
    *len = 1;
    if (p[0] < 0x80) {
        *cp = p[0];
        return true;
    }
    size_t n = p[0] >= 0xC2 && p[0] <= 0xDF ? 2 : p[0] >= 0xE0 && p[0] <= 0xEF ? 3
             : p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : 0;
    if (n == 0 || n > avail) {
        return false;
    }
    uint32_t v = p[0] & (0xFFu >> (n + 1));
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) { /* also stops at a NUL */
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

bool emit_char_unsafe(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x061C || cp == 0x200E ||
           cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Bytes that stand for themselves whatever follows: printable ASCII but the
 * quote and the backslash. The rest is decoded as UTF-8. */
static bool plain(unsigned char c)
{
    return c >= 0x20 && c < 0x7F && c != '"' && c != '\\';
}

/*
 * A quoted string. Text mode escapes a byte that is not UTF-8 as \xNN, a C0
 * control or DEL as \xNN and another unsafe character as \u{XXXX}; JSON
 * replaces a byte that is not UTF-8 by U+FFFD (so the document stays valid
 * UTF-8) and escapes every unsafe character as \uXXXX, which a JSON reader
 * turns back into the same text.
 */
static void quoted(emitter *e, const char *s, bool json)
{
    put_char(e, '"');
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *end = p + strlen(s);
    while (*p) {
        const unsigned char *run = p;
        while (plain(*p)) {
            DUMP_WORK(1);
            p++;
        }
        put(e, run, (size_t)(p - run));
        if (*p == '\0') {
            break;
        }
        uint32_t cp;
        size_t len = 1;
        char esc[16];
        if (*p == '"' || *p == '\\') {
            put_char(e, '\\');
            put_char(e, (char)*p);
        } else if (!emit_next_char(p, (size_t)(end - p), &cp, &len)) {
            put_text(e, json ? "\\ufffd" : "");
            if (!json) {
                snprintf(esc, sizeof esc, "\\x%02x", *p);
                put_text(e, esc);
            }
        } else if (!emit_char_unsafe(cp)) {
            put(e, p, len);
        } else {
            if (json) {
                snprintf(esc, sizeof esc, "\\u%04x", (unsigned)cp);
            } else if (cp < 0x20 || cp == 0x7F) {
                snprintf(esc, sizeof esc, "\\x%02x", (unsigned)cp);
            } else {
                snprintf(esc, sizeof esc, "\\u{%04x}", (unsigned)cp);
            }
            put_text(e, esc);
        }
        DUMP_WORK(1);
        p += len;
    }
    put_char(e, '"');
}

/* Starts an item: separator, indentation and key. */
static void item(emitter *e, const char *key)
{
    if (e->json) {
        if (e->has_items[e->depth]) {
            put_char(e, ',');
        }
        put_char(e, '\n');
        indent(e);
        put(e, "  ", 2);
        if (key != NULL && !e->in_list[e->depth]) {
            quoted(e, key, true);
            put(e, ": ", 2);
        }
    } else {
        if (!e->has_items[e->depth] && e->depth > 0) {
            put_char(e, '\n');
        }
        indent(e);
        if (e->in_list[e->depth]) {
            put(e, "- ", 2);
        }
        if (key != NULL) {
            put_text(e, key);
            put(e, ": ", 2);
        }
    }
    e->has_items[e->depth] = true;
}

/* Text-mode key of a container, written without the ": " of scalars. */
static void container_key(emitter *e, const char *key)
{
    if (!e->has_items[e->depth] && e->depth > 0) {
        put_char(e, '\n');
    }
    indent(e);
    if (e->in_list[e->depth]) {
        put_char(e, '-');
    }
    if (key != NULL) {
        if (e->in_list[e->depth]) {
            put_char(e, ' ');
        }
        put_text(e, key);
    }
    e->has_items[e->depth] = true;
}

static void open_container(emitter *e, const char *key, bool list)
{
    if (e->json) {
        item(e, key);
        put_char(e, list ? '[' : '{');
    } else {
        container_key(e, key);
        /* The newline comes with the first item, or "(none)" at the end. */
        if (key != NULL) {
            put_char(e, ':');
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
            put_char(e, '\n');
            indent(e);
            put(e, "  ", 2);
        }
        put_char(e, list ? ']' : '}');
    } else if (!had) {
        put_text(e, " (none)\n");
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

static void end_scalar(emitter *e)
{
    if (!e->json) {
        put_char(e, '\n');
    }
}

void emit_u64(emitter *e, const char *key, uint64_t v)
{
    item(e, key);
    put_digits(e, v, 10);
    end_scalar(e);
}

void emit_i64(emitter *e, const char *key, int64_t v)
{
    item(e, key);
    if (v < 0) {
        put_char(e, '-');
        /* -(v + 1) + 1: INT64_MIN's magnitude has no int64_t. */
        put_digits(e, (uint64_t)(-(v + 1)) + 1, 10);
    } else {
        put_digits(e, (uint64_t)v, 10);
    }
    end_scalar(e);
}

void emit_hex(emitter *e, const char *key, uint64_t v)
{
    item(e, key);
    if (e->json) {
        put_digits(e, v, 10);
    } else {
        put(e, "0x", 2);
        put_digits(e, v, 16);
    }
    end_scalar(e);
}

void emit_bool(emitter *e, const char *key, bool v)
{
    item(e, key);
    put_text(e, v ? "true" : "false");
    end_scalar(e);
}

void emit_str(emitter *e, const char *key, const char *utf8)
{
    item(e, key);
    quoted(e, utf8, e->json);
    end_scalar(e);
}

void emit_null(emitter *e, const char *key)
{
    item(e, key);
    put_text(e, e->json ? "null" : "(none)\n");
}

bool emit_finish(emitter *e)
{
    if (e->json) {
        put_text(e, "\n}\n");
    }
    flush(e);
    if (fflush(e->out) != 0 || ferror(e->out)) {
        e->failed = true;
    }
    return !e->failed;
}
