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

/* Characters that stand for themselves in a quoted string; text mode
 * escapes DEL too. */
static bool plain(unsigned char c, bool json)
{
    return c != '"' && c != '\\' && c >= 0x20 && (json || c != 0x7F);
}

/* Text-mode strings are quoted and their control characters escaped, so
 * a hostile name cannot forge lines of output. */
static void quoted(emitter *e, const char *s, bool json)
{
    put_char(e, '"');
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        const unsigned char *run = p;
        while (*p && plain(*p, json)) {
            DUMP_WORK(1);
            p++;
        }
        put(e, run, (size_t)(p - run));
        if (*p == '\0') {
            break;
        }
        if (*p == '"' || *p == '\\') {
            put_char(e, '\\');
            put_char(e, (char)*p);
        } else {
            char esc[8];
            snprintf(esc, sizeof esc, json ? "\\u%04x" : "\\x%02x", *p);
            put_text(e, esc);
        }
        p++;
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
