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
}

void csv_field_begin(csv_out *w)
{
    if (w->row_started) {
        fputc(',', w->out);
    }
    fputc('"', w->out);
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
        fwrite(text + from, 1, i - from, w->out);
        fputs(c == '"' ? "\"\"" : "\xEF\xBF\xBD", w->out);
        i += len;
        from = i;
    }
    fwrite(text + from, 1, n - from, w->out);
}

void csv_field_end(csv_out *w)
{
    fputc('"', w->out);
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
    fputs("\r\n", w->out);
    w->row_started = false;
}
