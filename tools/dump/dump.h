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
#include <stdio.h>

#include "emit.h"
#include "perfbuf/common.h"
#include "perfbuf/paths.h"
#include "perfbuf/query.h"
#include "perfbuf/v2_meta.h"

/*
 * The counted build (perfbuf-dump-counted) adds the tool's own loop steps
 * to the library's work counter, so a test can tell linear growth from
 * quadratic without timing anything; every other build counts nothing.
 */
#ifdef PERFBUF_COUNT_WORK
#  include "core/work.h"
#  define DUMP_WORK(n) PB_WORK(n)
#else
#  define DUMP_WORK(n) ((void)0)
#endif

/*
 * The first --counter path that matched nothing (docs/cli.md, "Selecting
 * counters"): which path, the part that did not match (named as
 * perfbuf_path_parse names parts: "Object", "Counter", "Parent",
 * "Instance", "Index"), that part's byte offset in the path, and the words
 * its stderr line ends with. A dump that sets it answers
 * PERFBUF_E_NOT_FOUND, so the JSON's `valid` is false and the exit 1.
 */
typedef struct dump_miss {
    bool set;
    size_t path;
    const char *part;
    size_t offset;
    char words[160];
} dump_miss;

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
    /* --english-names: the English (009) Counter table, beside --names. */
    const uint8_t *english_names;
    size_t english_names_size;
    /* --counter: what is shown (none: everything). */
    const perfbuf_counter_path *paths;
    size_t path_count;
    /* Set when a --counter path matches nothing, or --csv has no column:
     * the run then exits 1. */
    bool *unmatched;
    /* The first path that matched nothing, for the JSON's error. */
    dump_miss *miss;
    /* The file of the --rate capture, for the lines that name it. */
    const char *previous_path;
    const char *names_path;
    /* --registration, --counter-names, --identifiers, --english-names,
     * --counterset-name. */
    const char *const *side_paths;
    /* --counterset-name: the V2 counterset's name (a v2-string answer), or NULL. */
    const uint8_t *counterset_name;
    size_t counterset_name_size;
    /* The files of the --series captures, as series. */
    const char *const *series_paths;
    /* --pair-by: how V1 --rate and --series pair instances (docs/cli.md,
     * "Pairing"), and for DUMP_PAIR_BY_KEY the key counter's name. */
    int pair_by;
    const char *pair_key;
} dump_input;

/* --pair-by's values. */
#define DUMP_PAIR_BY_UNIQUE_ID 0 /* UniqueID where the provider sets one, else PDH's key */
#define DUMP_PAIR_BY_PDH       1 /* PDH's key "parent/name#N" alone */
#define DUMP_PAIR_BY_KEY       2 /* a key counter's value, in objects that have it */

/*
 * Whether --pair-by's key counter names a title of the Counter tables given
 * (--names, --english-names), as the query matches a path's counter part
 * (perfbuf_title_matches); false, said on stderr, when no table has it.
 * O(titles).
 */
bool dump_v1_key_known(const dump_input *in);

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

/* "offset 0x..: STRUCTURE.Field: reason" and a newline, with the two
 * numbers compared when the rejection carries them, e.g.
 * " (declared 1088, received 300)". */
void dump_print_rejection(FILE *f, perfbuf_status st, const perfbuf_error *err);

/* Whether the rejection carries the two numbers it compared (err's
 * `declared` and `limit`). */
bool dump_compared(const perfbuf_error *err);

perfbuf_status dump_v2_query(const dump_input *in, emitter *e, perfbuf_error *err);
bool detect_v2_query(const uint8_t *data, size_t size);
perfbuf_status dump_v1(const dump_input *in, emitter *e, perfbuf_error *err);
bool detect_v1(const uint8_t *data, size_t size);
perfbuf_status dump_names(const dump_input *in, emitter *e, perfbuf_error *err);
/* --csv: typeperf's layout for a V1 block and its --rate or --series captures,
 * read through a perfbuf_query. */
perfbuf_status dump_v1_csv(const dump_input *in, FILE *out, perfbuf_error *err);
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

/*
 * Whether `earlier` (a --rate or --series capture, named by option) can be
 * paired with `later` into rates, both accepted already: no clock of the
 * earlier capture is after the later one's (V1: PerfTime, PerfTime100nSec,
 * SystemTime; V2 query data: its header's PerfTimeStamp, PerfTime100NSec
 * and SystemTime), and, for V1, both are of one computer (SystemName,
 * ASCII letters folded). When not, says so on stderr,
 * naming both files and every clock or name that differs: PDH pairs a
 * counter's previous collection with its current one, of the computer its
 * path names (docs/cli.md, "Exit status").
 */
bool dump_earlier_fits(bool v1, const char *option, const char *earlier_path,
                       const uint8_t *earlier, size_t earlier_size, const char *later_path,
                       const uint8_t *later, size_t later_size, const perfbuf_options *options);

/* Collects one capture into the query, growing *arena as the query asks
 * (realloc; exits 2 when memory runs out). */
perfbuf_status dump_query_collect(perfbuf_query *q, uint8_t **arena, const uint8_t *data,
                                  size_t size, perfbuf_error *err);
/* Fills err from a path's miss (status PERFBUF_E_NOT_FOUND, structure
 * "COUNTER_PATH", the part and its offset) and returns that status. */
perfbuf_status dump_path_missed(const dump_miss *miss, perfbuf_error *err);

/* Shared helpers for decoders. */
/* The status of a value that could not be formatted, by name. */
const char *dump_value_status_name(uint32_t status);
/* An instance's PERFBUF_PAIR_* state by name ("matched", "new",
 * "ambiguous"); DUMP_PAIR_NONE, when no pairing applies, is "unpaired". */
#define DUMP_PAIR_NONE 0xFFFFFFFFu
const char *dump_pairing_name(uint32_t state);
/* Reports a rejected side file on stderr; the main buffer goes on. */
void dump_side_rejected(const char *what, const char *file, const perfbuf_error *err);
void dump_guid(emitter *e, const char *key, const perfbuf_guid *g);
/* Always the eight SYSTEMTIME fields; "iso8601" is the instant as text, or
 * null when a field is out of range. */
void dump_systemtime(emitter *e, const char *key, const perfbuf_systemtime *t);

/*
 * Room for one converted name or text, grown to what the library says is
 * needed: names are never shown cut. A conversion that returns
 * PERFBUF_E_OUTPUT_TOO_SMALL is retried once after dump_text_fit(t, len).
 */
typedef struct dump_text {
    char *buf;
    size_t cap;
} dump_text;
void dump_text_init(dump_text *t);
/* Room for len bytes and a NUL; exits with status 2 when memory runs out. */
void dump_text_fit(dump_text *t, size_t len);
void dump_text_free(dump_text *t);
/* Every byte as two lowercase hex digits. */
void dump_hex(emitter *e, const char *key, const uint8_t *bytes, size_t n, dump_text *t);
void dump_anomalies(emitter *e, uint32_t anomalies, const perfbuf_error *first);
uint32_t dump_le32(const uint8_t *p);
/* count elements of size bytes, zeroed (at least one, so never NULL for
 * 0); on overflow or exhaustion reports and exits with status 2. */
void *dump_calloc(size_t count, size_t size);
/* Sorts 64-bit keys in place, ascending. */
void dump_sort_u64(uint64_t *keys, size_t count);
/* The first key whose high 32 bits are `high`, by binary search over
 * sorted keys: its position, or count when there is none. */
size_t dump_find_high(const uint64_t *keys, size_t count, uint32_t high);

/*
 * The library's parses of registrations and string blocks check unordered
 * ids only with caller scratch (PERFBUF_E_SCRATCH_NEEDED without it): these
 * retry with scratch of the count the header gives, so a valid buffer is
 * never refused for it. *scratch (NULL when none was needed) backs the
 * view's lookups: free it after the view's last use.
 */
perfbuf_status dump_reginfo_parse(const uint8_t *data, size_t size, const perfbuf_options *opts,
                                  perfbuf_v2_reginfo *out, perfbuf_error *err,
                                  uint64_t **scratch);
perfbuf_status dump_strings_parse(const uint8_t *data, size_t size, int origin,
                                  const perfbuf_options *opts, perfbuf_v2_strings *out,
                                  perfbuf_error *err, uint64_t **scratch);

#endif
