/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * perfbuf-dump's formats. Each format is one module with a detector (for
 * --format auto) and a decoder that describes a validated buffer through
 * the emitter. Adding a format is adding a module and a row in formats[].
 */
#ifndef PERFBUF_DUMP_H
#define PERFBUF_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emit.h"
#include "perfbuf/common.h"

typedef struct dump_input {
    const uint8_t *data;
    size_t size;
    const char *path;
    perfbuf_options options;
    const uint8_t *names;     /* a Counter name table for V1 titles, or NULL */
    size_t names_size;
    const uint8_t *previous;  /* an earlier capture of the same query, or NULL */
    size_t previous_size;
    const uint8_t *const *series;   /* earlier captures, oldest first (--series) */
    const size_t *series_sizes;
    size_t series_count;
    /* V2 side files: the counterset registration, its counter names (a
     * string block) and the query's counter identifiers, or NULL. */
    const uint8_t *registration;
    size_t registration_size;
    const uint8_t *counter_names;
    size_t counter_names_size;
    const uint8_t *identifiers;
    size_t identifiers_size;
    int string_origin;        /* a perfbuf_v2_string_origin */
} dump_input;

/* Decodes in->data; on rejection fills *err and returns its status. */
typedef perfbuf_status (*dump_fn)(const dump_input *in, emitter *e, perfbuf_error *err);
/* True when the bytes can only be this format. */
typedef bool (*detect_fn)(const uint8_t *data, size_t size);

typedef struct dump_format {
    const char *name;
    const char *description;
    detect_fn detect; /* NULL: only by name */
    dump_fn dump;
} dump_format;

perfbuf_status dump_v2_query(const dump_input *in, emitter *e, perfbuf_error *err);
bool detect_v2_query(const uint8_t *data, size_t size);
perfbuf_status dump_v1(const dump_input *in, emitter *e, perfbuf_error *err);
bool detect_v1(const uint8_t *data, size_t size);
perfbuf_status dump_names(const dump_input *in, emitter *e, perfbuf_error *err);
bool detect_names(const uint8_t *data, size_t size);

/* V2 metadata, by name only: none has a signature. */
perfbuf_status dump_v2_reginfo(const dump_input *in, emitter *e, perfbuf_error *err);
perfbuf_status dump_v2_counter(const dump_input *in, emitter *e, perfbuf_error *err);
perfbuf_status dump_v2_string(const dump_input *in, emitter *e, perfbuf_error *err);
perfbuf_status dump_v2_provider_guid(const dump_input *in, emitter *e, perfbuf_error *err);
perfbuf_status dump_v2_strings(const dump_input *in, emitter *e, perfbuf_error *err);
perfbuf_status dump_v2_countersets(const dump_input *in, emitter *e, perfbuf_error *err);
perfbuf_status dump_v2_instances(const dump_input *in, emitter *e, perfbuf_error *err);
perfbuf_status dump_v2_identifiers(const dump_input *in, emitter *e, perfbuf_error *err);

/* Shared helpers for decoders. */
/* The status of a value that could not be formatted, by name. */
const char *dump_value_status_name(uint32_t status);
/* Reports a rejected side file on stderr; the main buffer goes on. */
void dump_side_rejected(const char *what, const perfbuf_error *err);
void dump_guid(emitter *e, const char *key, const perfbuf_guid *g);
void dump_systemtime(emitter *e, const char *key, const perfbuf_systemtime *t);
void dump_anomalies(emitter *e, uint32_t anomalies, const perfbuf_error *first);
uint32_t dump_le32(const uint8_t *p);

#endif
