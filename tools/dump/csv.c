/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "csv.h"

#include <string.h>

#include "dump.h"

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

void csv_field_add(csv_out *w, const char *text, size_t n)
{
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        DUMP_WORK(1);
        unsigned char c = (unsigned char)text[i];
        if (c != '"' && c >= 0x20 && c != 0x7F) {
            continue;
        }
        fwrite(text + from, 1, i - from, w->out);
        fputs(c == '"' ? "\"\"" : "\xEF\xBF\xBD", w->out);
        from = i + 1;
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
