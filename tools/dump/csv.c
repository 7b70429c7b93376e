/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "csv.h"

#include <string.h>

#include "dump.h"
#include "emit.h"

void csv_init(csv_out *w, FILE *out)
{
    w->out = out;
    w->row_started = false;
    w->field_open = false;
    w->used = 0;
}

void csv_flush(csv_out *w)
{
    if (w->used > 0) {
        /* A failed write leaves the stream's error set for the caller. */
        (void)fwrite(w->buffer, 1, w->used, w->out);
    }
    w->used = 0;
}

static void put(csv_out *w, const char *data, size_t n)
{
    while (n > 0) {
        DUMP_WORK(1);
        if (w->used == sizeof w->buffer) {
            csv_flush(w);
        }
        size_t room = sizeof w->buffer - w->used;
        size_t take = n < room ? n : room;
        memcpy(w->buffer + w->used, data, take);
        w->used += take;
        data += take;
        n -= take;
    }
}

static void put_char(csv_out *w, char c)
{
    if (w->used == sizeof w->buffer) {
        csv_flush(w);
    }
    w->buffer[w->used++] = c;
}

void csv_field_begin(csv_out *w)
{
    if (w->row_started) {
        put_char(w, ',');
    }
    put_char(w, '"');
    w->row_started = true;
    w->field_open = true;
}

/*
 * CSV has no escape a spreadsheet or a CSV reader would undo, so what the
 * text and JSON output escape (emit_char_unsafe: controls, NEL, the line
 * and paragraph separators, the bidirectional controls) is replaced here
 * by U+FFFD, as is a byte that is not UTF-8: a record stays one line for
 * any reader that splits lines on Unicode breaks (Python's splitlines
 * splits on U+0085, U+2028, U+2029 and U+001C-U+001E too), a name cannot
 * reorder what a spreadsheet shows, and the file is valid UTF-8.
 */
void csv_field_add(csv_out *w, const char *text, size_t n)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t from = 0;
    size_t i = 0;
    while (i < n) {
        DUMP_WORK(1);
        unsigned char c = p[i];
        if (c >= 0x20 && c < 0x7F && c != '"') {
            i++;
            continue;
        }
        uint32_t cp = 0;
        size_t len = 1;
        bool character = c == '"' || emit_next_char(p + i, n - i, &cp, &len);
        if (character && c != '"' && !emit_char_unsafe(cp)) {
            i += len;
            continue;
        }
        put(w, text + from, i - from);
        if (c == '"') {
            put(w, "\"\"", 2);
        } else {
            put(w, "\xEF\xBF\xBD", 3);
        }
        i += len;
        from = i;
    }
    put(w, text + from, n - from);
}

void csv_field_end(csv_out *w)
{
    put_char(w, '"');
    w->field_open = false;
}

void csv_field(csv_out *w, const char *text)
{
    csv_field_begin(w);
    csv_field_add(w, text, strlen(text));
    csv_field_end(w);
}

void csv_row_end(csv_out *w)
{
    put(w, "\r\n", 2);
    w->row_started = false;
}
