/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "emit.h"

#include <inttypes.h>

#include "dump.h"

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
        DUMP_WORK(1);
        fputs("  ", e->out);
    }
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        DUMP_WORK(1);
        if (*p == '"' || *p == '\\') {
            fputc('\\', out);
            fputc(*p, out);
        } else if (*p < 0x20) {
            fprintf(out, "\\u%04x", *p);
        } else {
            fputc(*p, out);
        }
    }
    fputc('"', out);
}

/* Text-mode strings are quoted and their control characters escaped, so
 * a hostile name cannot forge lines of output. */
static void text_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        DUMP_WORK(1);
        if (*p == '"' || *p == '\\') {
            fputc('\\', out);
            fputc(*p, out);
        } else if (*p < 0x20 || *p == 0x7F) {
            fprintf(out, "\\x%02x", *p);
        } else {
            fputc(*p, out);
        }
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
