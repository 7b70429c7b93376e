/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * typeperf's CSV (docs/cli.md, "CSV"): every field quoted, '"' doubled,
 * records ended by CRLF. Control characters, line and paragraph
 * separators and bidirectional controls in a field (what the text output
 * escapes: emit_char_unsafe), and bytes that are not UTF-8, become
 * U+FFFD, so a record is always one line and shows in its order. Every field the tool writes starts with
 * '(', '\\', a digit, a space or a minus sign before a digit, never with
 * '=', '+', '@' or a tab, so a spreadsheet never reads one as a formula.
 */
#ifndef PERFBUF_DUMP_CSV_H
#define PERFBUF_DUMP_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Records are gathered here and written in large pieces, as the emitter
 * writes the text and JSON outputs (emit.h): a stdio call per field and
 * per run of characters took the stream's lock each time. */
#define CSV_BUFFER_BYTES 16384

typedef struct csv_out {
    FILE *out;
    bool row_started;
    bool field_open;
    size_t used;
    char buffer[CSV_BUFFER_BYTES];
} csv_out;

void csv_init(csv_out *w, FILE *out);
/* Writes what is gathered to the stream (the caller checks it for errors). */
void csv_flush(csv_out *w);
/* Starts a quoted field (after a comma unless it is the record's first). */
void csv_field_begin(csv_out *w);
/* Appends n bytes to the open field, escaped. */
void csv_field_add(csv_out *w, const char *text, size_t n);
void csv_field_end(csv_out *w);
/* A whole field. */
void csv_field(csv_out *w, const char *text);
void csv_row_end(csv_out *w);

#endif
