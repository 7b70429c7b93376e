/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * perfbuf-dump: decodes a captured performance buffer to text or JSON.
 * Exit status (docs/cli.md, "Exit status"): 0 every input was accepted and
 * every --counter path found what it names; 1 an input was rejected (FILE
 * or any other, an empty one included: the reason on stderr as "offset
 * 0x...: STRUCT.field: reason"), captures that cannot make a rate, or a
 * path that matched nothing; 2 usage or I/O error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "input.h"
#include "openmetrics.h"
#include "perfbuf/names.h"
#include "perfbuf/v1.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/v2_query.h"
#include "perfbuf/version.h"

/* Largest file read: far above any real buffer, small enough to refuse
 * reading a device or a mistaken path into memory. --max-input-bytes
 * lowers it for every input, a path or standard input. */
#define MAX_INPUT_BYTES ((size_t)1 << 30)
static size_t max_input_bytes = MAX_INPUT_BYTES;

/* Detection runs in this order; put the surest signatures first. */
static const dump_format formats[] = {
    {"v1", "V1 data block (HKEY_PERFORMANCE_DATA: PERF_DATA_BLOCK)", detect_v1, dump_v1},
    {"v1-names", "V1 Counter or Help name table (REG_MULTI_SZ)", detect_names, dump_names},
    {"v2-query", "PerfLib V2 query data (PerfQueryCounterData)", detect_v2_query, dump_v2_query},
    {"v2-reginfo", "V2 counterset registration (PERF_REG_COUNTERSET_STRUCT)", NULL,
     dump_v2_reginfo},
    {"v2-counter", "V2 one counter's registration (PERF_REG_COUNTER_STRUCT)", NULL,
     dump_v2_counter},
    {"v2-string", "V2 name, help or provider-name string (codes 3, 4, 7, 9)", NULL,
     dump_v2_string},
    {"v2-provider-guid", "V2 provider GUID (PERF_REG_PROVIDER_GUID)", NULL, dump_v2_provider_guid},
    {"v2-strings", "V2 per-counter names or help (PERF_STRING_BUFFER_HEADER)", NULL,
     dump_v2_strings},
    {"v2-countersets", "V2 counterset list (PerfEnumerateCounterSet)", NULL, dump_v2_countersets},
    {"v2-instances", "V2 instance list (PerfEnumerateCounterSetInstances)", NULL,
     dump_v2_instances},
    {"v2-identifiers", "V2 counter identifiers (PerfQueryCounterInfo)", NULL, dump_v2_identifiers},
};
#define FORMAT_COUNT (sizeof formats / sizeof formats[0])

static void usage(FILE *out)
{
    fprintf(out,
            "usage: perfbuf-dump [options] FILE   (- reads standard input)\n"
            "  -f, --format NAME   the buffer's format (default: auto)\n"
            "      --json          write JSON (schema: docs/perfbuf-dump.schema.json)\n"
            "      --strict        reject what real producers do loosely\n"
            "      --names FILE    a Counter name table: show V1 object and counter names\n"
            "      --english-names FILE  the English (009) Counter table: --counter paths\n"
            "                      may then be written in English too\n"
            "      --counter PATH  show only what the counter path names, e.g.\n"
            "                      '\\Process(svchost*)\\%% Processor Time'; repeatable;\n"
            "                      V1 needs --names or --english-names, V2 --registration\n"
            "      --csv           V1: typeperf's CSV of the --counter paths (with --rate:\n"
            "                      formatted against PREVIOUS; with --series: a record\n"
            "                      per capture)\n"
            "      --rate PREVIOUS an earlier capture of the same query: show formatted values\n"
            "                      (V2 needs --registration)\n"
            "      --series EARLIER... --  earlier captures of the same V1 query, oldest\n"
            "                      first: show each counter's min, max and mean over them and FILE\n"
            "      --pair-by KEY   V1 --rate and --series: pair instances by unique-id (the\n"
            "                      default: UniqueID where set, else PDH's key), pdh (PDH's\n"
            "                      parent/name#N alone) or a key counter's name, e.g.\n"
            "                      'ID Process' (needs --names or --english-names)\n"
            "      --registration FILE  V2: the counterset's registration (v2-reginfo): show\n"
            "                      counter types and check the query data against it\n"
            "      --counter-names FILE V2: the counters' names (v2-strings)\n"
            "      --counterset-name FILE V2: the counterset's name (v2-string): --counter\n"
            "                      paths may name it\n"
            "      --identifiers FILE   V2: the query's counter identifiers (v2-identifiers)\n"
            "      --origin auto|block|array-end  where v2-strings offsets count from\n"
            "      --max-sections N, --max-counters N, --max-instances N\n"
            "                      limits on counts (0: the library's default)\n"
            "      --max-input-bytes N  refuse an input (a file or -) larger than N bytes\n"
            "                      (default and largest 1073741824)\n");
    om_usage(out);
    fprintf(out,
            "  -h, --help          this text\n"
            "      --version       the library version\n"
            "formats:\n"
            "  auto                detect where the bytes are unambiguous\n");
    for (size_t i = 0; i < FORMAT_COUNT; i++) {
        fprintf(out, "  %-19s %s\n", formats[i].name, formats[i].description);
    }
    fprintf(out, "exit status: 0 success, 1 an input rejected (an empty one included), captures\n"
                 "  that cannot make a rate, or a --counter path that matched nothing (--csv: no\n"
                 "  column), 2 usage or I/O error\n");
}

static int read_file(const char *path, uint8_t **data, size_t *size)
{
    return dump_read_input(path, max_input_bytes, data, size);
}

/* Every write to stdout is checked here at once (ferror is sticky): output
 * that did not reach its destination is an I/O error, never exit 0. */
static int finish_output(int rc)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "perfbuf-dump: writing the output failed\n");
        return 2;
    }
    return rc;
}

static int parse_count(const char *text, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v > UINT32_MAX || text[0] == '-') {
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

static const dump_format *find_format(const char *name, const uint8_t *data, size_t size)
{
    if (strcmp(name, "auto") != 0) {
        for (size_t i = 0; i < FORMAT_COUNT; i++) {
            DUMP_WORK(1);
            if (strcmp(formats[i].name, name) == 0) {
                return &formats[i];
            }
        }
        return NULL;
    }
    for (size_t i = 0; i < FORMAT_COUNT; i++) {
        DUMP_WORK(1);
        if (formats[i].detect != NULL && formats[i].detect(data, size)) {
            return &formats[i];
        }
    }
    return NULL;
}

/* The side files, in the order they are read and in dump_input's side_paths. */
enum { SIDE_REGISTRATION, SIDE_COUNTER_NAMES, SIDE_IDENTIFIERS, SIDE_ENGLISH_NAMES,
       SIDE_COUNTERSET_NAME, SIDE_COUNT, SIDE_NAMES = SIDE_COUNT };
static const char *const side_names[SIDE_COUNT] = {
    "--registration file", "--counter-names file", "--identifiers file",
    "--english-names table", "--counterset-name file"};

/* How stderr names an input: "-" is standard input. */
static const char *input_name(const char *file)
{
    return strcmp(file, "-") == 0 ? "standard input" : file;
}

/* Says on stderr, naming the file, why an input other than FILE is
 * rejected: empty, or its parse's report. */
static void say_rejected(const char *what, const char *file, size_t size, perfbuf_status st,
                         const perfbuf_error *err)
{
    if (size == 0) {
        fprintf(stderr, "perfbuf-dump: %s: the %s is empty (0 bytes)\n", input_name(file),
                what);
        return;
    }
    fprintf(stderr, "perfbuf-dump: %s: the %s is rejected: ", file, what);
    dump_print_rejection(stderr, st, err);
}

/* 1 when a side file (SIDE_*, or SIDE_NAMES for --names) is rejected, said
 * on stderr; 0 when it is valid. Each is parsed as its dump parses it: the
 * Counter tables leniently with the default limits (they configure the
 * reading, the capture is what --strict is about), the V2 answers with the
 * run's options. Every side file given is checked, whatever FILE's format,
 * so none is taken on trust. */
static int side_rejected(int which, const char *what, const char *file, const uint8_t *data,
                         size_t size, const perfbuf_options *options, int origin)
{
    perfbuf_error err;
    memset(&err, 0, sizeof err);
    perfbuf_status st = PERFBUF_OK;
    uint64_t *scratch = NULL;
    if (size == 0) {
        /* As FILE: an empty input is rejected whatever its parser says. */
        say_rejected(what, file, size, st, &err);
        return 1;
    }
    if (which == SIDE_NAMES || which == SIDE_ENGLISH_NAMES) {
        perfbuf_name_table t;
        st = perfbuf_names_parse(data, size, NULL, &t, &err);
    } else if (which == SIDE_REGISTRATION) {
        perfbuf_v2_reginfo reg;
        st = dump_reginfo_parse(data, size, options, &reg, &err, &scratch);
    } else if (which == SIDE_COUNTER_NAMES) {
        perfbuf_v2_strings strings;
        st = dump_strings_parse(data, size, origin, options, &strings, &err, &scratch);
    } else if (which == SIDE_IDENTIFIERS) {
        perfbuf_v2_identifiers ids;
        st = perfbuf_v2_identifiers_parse(data, size, options, &ids, &err);
    } else {
        perfbuf_v2_string name;
        st = perfbuf_v2_string_parse(data, size, options, &name, &err);
    }
    free(scratch);
    if (st == PERFBUF_OK) {
        return 0;
    }
    say_rejected(what, file, size, st, &err);
    return 1;
}

/* 2 when the options do not go with FILE's format (said on stderr), else 0. */
static int options_fit(const dump_format *format, size_t path_count, bool csv, bool have_tables,
                       bool have_registration)
{
    if (csv && format->dump != dump_v1) {
        fprintf(stderr, "perfbuf-dump: --csv is for V1 data blocks\n");
        return 2;
    }
    if (path_count == 0) {
        return 0;
    }
    if (format->dump == dump_v1 && !have_tables) {
        fprintf(stderr, "perfbuf-dump: --counter on a V1 data block needs --names or "
                        "--english-names\n");
        return 2;
    }
    if (format->dump == dump_v2_query && !have_registration) {
        fprintf(stderr, "perfbuf-dump: --counter on V2 query data needs --registration\n");
        return 2;
    }
    if (format->dump != dump_v1 && format->dump != dump_v2_query) {
        fprintf(stderr, "perfbuf-dump: --counter is for V1 data blocks and V2 query data\n");
        return 2;
    }
    return 0;
}

/* Whether an earlier capture (--rate or --series, named by `option`) of a
 * V1 or V2 query dump is rejected, said on stderr with its file: its
 * values would be computed against nothing, so the run fails before
 * anything is written, as typeperf refuses a query it cannot collect. */
static bool earlier_rejected(const dump_format *format, const char *option,
                             const char *previous_path, const uint8_t *previous,
                             size_t previous_size, const perfbuf_options *options)
{
    perfbuf_error err;
    memset(&err, 0, sizeof err);
    perfbuf_status st = PERFBUF_OK;
    if (previous_size == 0) {
        st = PERFBUF_E_TRUNCATED; /* said as empty, below */
    } else if (format->dump == dump_v1) {
        perfbuf_v1_block b;
        st = perfbuf_v1_parse(previous, previous_size, options, &b, &err);
    } else if (format->dump == dump_v2_query) {
        perfbuf_v2_query q;
        st = perfbuf_v2_query_parse(previous, previous_size, options, &q, &err);
    }
    if (st == PERFBUF_OK) {
        return false;
    }
    char what[32];
    snprintf(what, sizeof what, "%s capture", option);
    say_rejected(what, previous_path, previous_size, st, &err);
    return true;
}

/* Everything the command line gave, for the run's second half. */
typedef struct run_args {
    const char *format_name, *path, *names_path, *english_names_path, *previous_path;
    const char *registration_path, *counter_names_path, *identifiers_path;
    const char *counterset_name_path;
    bool csv, json;
    int pair_by;
    const char *pair_key;    /* --pair-by's value as given, or NULL */
    const om_options *om;
    const perfbuf_counter_path *paths;
    size_t path_count;
    const char *const *series_paths;
    size_t series_count;
    int origin;
    perfbuf_options options;
} run_args;

/* Every buffer the run reads, freed once by run() whatever happened. */
typedef struct run_buffers {
    uint8_t *data, *names, *previous;
    size_t size, names_size, previous_size;
    uint8_t *side[SIDE_COUNT];
    size_t side_sizes[SIDE_COUNT];
    uint8_t *series[64];
    size_t series_sizes[64];
} run_buffers;

/* Reads and checks every input, then writes the output: the exit status. */
static int run_files(const run_args *args, run_buffers *b)
{
    const char *format_name = args->format_name, *path = args->path;
    const char *names_path = args->names_path, *english_names_path = args->english_names_path;
    const char *previous_path = args->previous_path;
    const char *registration_path = args->registration_path;
    const perfbuf_counter_path *paths = args->paths;
    const char *const *series_paths = args->series_paths;
    size_t path_count = args->path_count, series_count = args->series_count;
    bool csv = args->csv, json = args->json;
    int origin = args->origin;
    perfbuf_options options = args->options;
    /* The side files: --registration, --counter-names, --identifiers,
     * --english-names, --counterset-name. */
    const char *side_paths[SIDE_COUNT] = {registration_path, args->counter_names_path,
                                          args->identifiers_path, english_names_path,
                                          args->counterset_name_path};
    uint8_t **side = b->side;
    size_t *side_sizes = b->side_sizes;
    int rc = read_file(path, &b->data, &b->size);
    if (rc != 0) {
        return rc;
    }
    if (b->size == 0) {
        /* An empty input is what a failed read or a wrong path leaves, in
         * any role: it is rejected before any format is considered, even
         * one whose parser would accept no bytes (docs/cli.md). */
        fprintf(stderr, "perfbuf-dump: %s: the file is empty (0 bytes)\n", input_name(path));
        return 1;
    }
    const dump_format *format = find_format(format_name, b->data, b->size);
    if (format == NULL) {
        if (strcmp(format_name, "auto") == 0) {
            fprintf(stderr, "perfbuf-dump: %s: format not recognised; name it with --format\n",
                    path);
        } else {
            fprintf(stderr, "perfbuf-dump: unknown format %s (see --help)\n", format_name);
        }
        return 2;
    }
    if ((rc = options_fit(format, path_count, csv,
                          names_path != NULL || english_names_path != NULL,
                          registration_path != NULL)) != 0) {
        return rc;
    }
    if (args->pair_key != NULL && format->dump != dump_v1) {
        /* V2 query data pairs by InstanceId, name and #N (perfbuf_v2_pair). */
        fprintf(stderr, "perfbuf-dump: --pair-by is for V1 data blocks\n");
        return 2;
    }
    /* Each input is validated as soon as it is read, with what its dump
     * parses it with: a rejected one fails the run before anything is
     * written (docs/cli.md, "Exit status"). */
    if (names_path != NULL &&
        ((rc = read_file(names_path, &b->names, &b->names_size)) != 0 ||
         (rc = side_rejected(SIDE_NAMES, "--names table", names_path, b->names, b->names_size,
                             &options, origin)) != 0)) {
        return rc;
    }
    if (previous_path != NULL &&
        ((rc = read_file(previous_path, &b->previous, &b->previous_size)) != 0 ||
         (rc = earlier_rejected(format, "--rate", previous_path, b->previous, b->previous_size,
                                &options) ? 1 : 0) != 0)) {
        return rc;
    }
    for (size_t k = 0; k < SIDE_COUNT; k++) {
        if (side_paths[k] != NULL &&
            ((rc = read_file(side_paths[k], &side[k], &side_sizes[k])) != 0 ||
             (rc = side_rejected((int)k, side_names[k], side_paths[k], side[k], side_sizes[k],
                                 &options, origin)) != 0)) {
            return rc;
        }
    }
    for (size_t k = 0; k < series_count; k++) {
        DUMP_WORK(1);
        if ((rc = read_file(series_paths[k], &b->series[k], &b->series_sizes[k])) != 0 ||
            (rc = earlier_rejected(format, "--series", series_paths[k], b->series[k],
                                   b->series_sizes[k], &options) ? 1 : 0) != 0) {
            return rc;
        }
    }
    /* A rate pairs an earlier capture of one computer with a later one
     * (each --series capture with the next, the last with FILE); the other
     * formats do not read the earlier captures. */
    bool rates = format->dump == dump_v1 || format->dump == dump_v2_query;
    if (rates && b->previous != NULL &&
        !dump_earlier_fits(format->dump == dump_v1, "--rate", previous_path, b->previous,
                           b->previous_size, path, b->data, b->size, &options)) {
        return 1;
    }
    for (size_t k = 0; rates && k < series_count; k++) {
        DUMP_WORK(1);
        bool last = k + 1 == series_count;
        if (!dump_earlier_fits(format->dump == dump_v1, "--series", series_paths[k],
                               b->series[k], b->series_sizes[k],
                               last ? path : series_paths[k + 1],
                               last ? b->data : b->series[k + 1],
                               last ? b->size : b->series_sizes[k + 1], &options)) {
            return 1;
        }
    }
    bool unmatched = false;
    dump_miss miss;
    memset(&miss, 0, sizeof miss);
    dump_input in = {b->data, b->size, path, options, b->names, b->names_size, b->previous,
                     b->previous_size, (const uint8_t *const *)b->series, b->series_sizes,
                     series_count,
                     side[0], side_sizes[0], side[1], side_sizes[1], side[2], side_sizes[2],
                     origin, side[3], side_sizes[3], paths, path_count, &unmatched, &miss,
                     previous_path, names_path, side_paths, side[4], side_sizes[4],
                     series_paths, args->pair_by,
                     args->pair_by == DUMP_PAIR_BY_KEY ? args->pair_key : NULL};
    /* A key counter no table names would pair nothing: a usage error,
     * said before anything is written. */
    if (args->pair_by == DUMP_PAIR_BY_KEY && !dump_v1_key_known(&in)) {
        return 2;
    }
    perfbuf_error err;
    memset(&err, 0, sizeof err);
    if (args->om->enabled) {
        bool v1 = format->dump == dump_v1;
        if (!v1 && format->dump != dump_v2_query) {
            fprintf(stderr, "perfbuf-dump: --openmetrics is for V1 data blocks and V2 query data\n");
            return 2;
        }
        int orc = dump_openmetrics(&in, args->om, v1, max_input_bytes, stdout);
        int output = finish_output(0);
        return output != 0 ? output : orc != 0 ? orc : unmatched ? 1 : 0;
    }
    if (csv) {
        perfbuf_status cst = dump_v1_csv(&in, stdout, &err);
        int output = finish_output(0);
        if (cst != PERFBUF_OK) {
            fprintf(stderr, "%s: ", path);
            dump_print_rejection(stderr, cst, &err);
        }
        return output != 0 ? output : cst != PERFBUF_OK || unmatched ? 1 : 0;
    }
    emitter e;
    emit_init(&e, stdout, json);
    emit_str(&e, "format", format->name);
    emit_str(&e, "file", path);
    emit_u64(&e, "bytes", b->size);
    perfbuf_status st = format->dump(&in, &e, &err);
    /* valid is the run's verdict: true exactly when it exits 0. */
    emit_bool(&e, "valid", st == PERFBUF_OK);
    if (st != PERFBUF_OK) {
        emit_object_begin(&e, "error");
        emit_hex(&e, "offset", err.offset);
        emit_str(&e, "structure", err.structure ? err.structure : "");
        emit_str(&e, "field", err.field ? err.field : "");
        emit_str(&e, "status", perfbuf_status_name(st));
        emit_str(&e, "message", miss.set ? miss.words : perfbuf_status_string(st));
        if (miss.set) {
            emit_str(&e, "path", paths[miss.path].text);
        }
        if (dump_compared(&err)) {
            emit_u64(&e, "declared", err.declared);
            emit_u64(&e, "limit", err.limit);
        }
        emit_object_end(&e);
    }
    bool written = emit_finish(&e);
    int output = finish_output(0);
    if (!written && output == 0) {
        fprintf(stderr, "perfbuf-dump: writing the output failed\n");
        output = 2;
    }
    if (st != PERFBUF_OK && !miss.set) {
        /* A path that matched nothing has had its line already. */
        fprintf(stderr, "%s: ", path);
        dump_print_rejection(stderr, st, &err);
    }
    return output != 0 ? output : st != PERFBUF_OK ? 1 : 0;
}

/* paths: room for one counter path per argument (main owns it). */
static int run(int argc, char **argv, perfbuf_counter_path *paths)
{
    const char *format_name = "auto";
    const char *path = NULL;
    const char *names_path = NULL;
    const char *english_names_path = NULL;
    bool csv = false;
    size_t path_count = 0;
    const char *previous_path = NULL;
    const char *registration_path = NULL;
    const char *counter_names_path = NULL;
    const char *identifiers_path = NULL;
    const char *counterset_name_path = NULL;
    int origin = PERFBUF_V2_STRINGS_AUTO;
    const char *series_paths[64];
    size_t series_count = 0;
    bool json = false;
    int pair_by = DUMP_PAIR_BY_UNIQUE_ID;
    const char *pair_key = NULL;
    om_options om;
    om_options_init(&om);
    bool om_usage_error = false;
    perfbuf_options options = {0, 0, 0, 0};
    for (int i = 1; i < argc; i++) {
        DUMP_WORK(1);
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        uint32_t *limit = NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return finish_output(0);
        } else if (strcmp(a, "--version") == 0) {
            printf("perfbuf-dump %s\n", perfbuf_version_string());
            return finish_output(0);
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--strict") == 0) {
            options.flags |= PERFBUF_STRICT;
        } else if (strcmp(a, "--series") == 0) {
            while (i + 1 < argc && strcmp(argv[i + 1], "--") != 0) {
                DUMP_WORK(1);
                if (series_count == sizeof series_paths / sizeof series_paths[0]) {
                    fprintf(stderr, "perfbuf-dump: at most 64 captures in a series\n");
                    return 2;
                }
                series_paths[series_count++] = argv[++i];
            }
            if (i + 1 >= argc) {
                fprintf(stderr, "perfbuf-dump: --series ends with --\n");
                return 2;
            }
            i++;
        } else if (strcmp(a, "--rate") == 0 && next != NULL) {
            previous_path = next;
            i++;
        } else if (strcmp(a, "--registration") == 0 && next != NULL) {
            registration_path = next;
            i++;
        } else if (strcmp(a, "--counter-names") == 0 && next != NULL) {
            counter_names_path = next;
            i++;
        } else if (strcmp(a, "--counterset-name") == 0 && next != NULL) {
            counterset_name_path = next;
            i++;
        } else if (strcmp(a, "--identifiers") == 0 && next != NULL) {
            identifiers_path = next;
            i++;
        } else if (strcmp(a, "--origin") == 0 && next != NULL) {
            if (strcmp(next, "auto") == 0) {
                origin = PERFBUF_V2_STRINGS_AUTO;
            } else if (strcmp(next, "block") == 0) {
                origin = PERFBUF_V2_STRINGS_FROM_BLOCK;
            } else if (strcmp(next, "array-end") == 0) {
                origin = PERFBUF_V2_STRINGS_FROM_ARRAY_END;
            } else {
                fprintf(stderr, "perfbuf-dump: --origin is auto, block or array-end\n");
                return 2;
            }
            i++;
        } else if (strcmp(a, "--names") == 0 && next != NULL) {
            names_path = next;
            i++;
        } else if (strcmp(a, "--english-names") == 0 && next != NULL) {
            english_names_path = next;
            i++;
        } else if (strcmp(a, "--csv") == 0) {
            csv = true;
        } else if (strcmp(a, "--pair-by") == 0 && next != NULL) {
            pair_key = next;
            pair_by = strcmp(next, "unique-id") == 0 ? DUMP_PAIR_BY_UNIQUE_ID
                      : strcmp(next, "pdh") == 0     ? DUMP_PAIR_BY_PDH
                                                     : DUMP_PAIR_BY_KEY;
            /* The key is a counter's name, as a path's counter part: not
             * empty, not "*", no longer than PDH's longest. */
            if (pair_by == DUMP_PAIR_BY_KEY &&
                (next[0] == '\0' || strcmp(next, "*") == 0 ||
                 strlen(next) > PERFBUF_PATH_MAX_NAME * 3u)) {
                fprintf(stderr, "perfbuf-dump: --pair-by is unique-id, pdh or a counter's "
                                "name (e.g. 'ID Process'), not \"%s\"\n",
                        next);
                return 2;
            }
            i++;
        } else if (strcmp(a, "--counter") == 0 && next != NULL) {
            perfbuf_error perr;
            if (perfbuf_path_parse(next, strlen(next), &paths[path_count], &perr) != PERFBUF_OK) {
                fprintf(stderr, "perfbuf-dump: --counter %s: offset %zu: %s: %s\n", next,
                        perr.offset, perr.field, perfbuf_status_string(perr.status));
                return 2;
            }
            path_count++;
            i++;
        } else if ((strcmp(a, "-f") == 0 || strcmp(a, "--format") == 0) && next != NULL) {
            format_name = next;
            i++;
        } else if (strcmp(a, "--max-input-bytes") == 0) {
            char *end;
            errno = 0;
            unsigned long long v = next != NULL ? strtoull(next, &end, 10) : 0;
            if (next == NULL || errno != 0 || end == next || *end != '\0' || next[0] == '-' ||
                v == 0 || v > MAX_INPUT_BYTES) {
                fprintf(stderr, "perfbuf-dump: --max-input-bytes needs a number from 1 to %zu\n",
                        MAX_INPUT_BYTES);
                return 2;
            }
            max_input_bytes = (size_t)v;
            i++;
        } else if (strcmp(a, "--max-sections") == 0) {
            limit = &options.max_sections;
        } else if (strcmp(a, "--max-counters") == 0) {
            limit = &options.max_counters;
        } else if (strcmp(a, "--max-instances") == 0) {
            limit = &options.max_instances;
        } else if (om_take_option(&om, argc, argv, &i, &om_usage_error)) {
            if (om_usage_error) {
                fprintf(stderr, "perfbuf-dump: %s needs a value\n", a);
                return 2;
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "perfbuf-dump: unknown or incomplete option %s\n", a);
            usage(stderr);
            return 2;
        } else if (path == NULL) {
            path = a;
        } else {
            fprintf(stderr, "perfbuf-dump: one file at a time\n");
            return 2;
        }
        if (limit != NULL) {
            if (next == NULL || parse_count(next, limit) != 0) {
                fprintf(stderr, "perfbuf-dump: %s needs a number from 0 to 4294967295\n", a);
                return 2;
            }
            i++;
        }
    }
    if (path == NULL) {
        usage(stderr);
        return 2;
    }
    if (path_count > 0 && names_path == NULL && english_names_path == NULL &&
        registration_path == NULL) {
        fprintf(stderr, "perfbuf-dump: --counter needs --names or --english-names (V1), or "
                        "--registration (V2)\n");
        return 2;
    }
    if (csv && (path_count == 0 || json || (series_count > 0 && previous_path != NULL))) {
        fprintf(stderr, "perfbuf-dump: --csv needs --counter, does not go with --json, and "
                        "takes --rate or --series, not both\n");
        return 2;
    }
    if (pair_key != NULL && previous_path == NULL && series_count == 0) {
        fprintf(stderr, "perfbuf-dump: --pair-by goes with --rate or --series (text, --json "
                        "or --csv): FILE alone pairs nothing\n");
        return 2;
    }
    if (pair_key != NULL && om.enabled) {
        fprintf(stderr, "perfbuf-dump: --pair-by does not go with --openmetrics\n");
        return 2;
    }
    if (pair_by == DUMP_PAIR_BY_KEY && names_path == NULL && english_names_path == NULL) {
        fprintf(stderr, "perfbuf-dump: --pair-by %s names a key counter: it needs --names or "
                        "--english-names to find it\n",
                pair_key);
        return 2;
    }
    if ((om.help_names_path != NULL || om.no_timestamps || strcmp(om.prefix, "windows") != 0) &&
        !om.enabled) {
        fprintf(stderr, "perfbuf-dump: --help-names, --metric-prefix and --no-timestamps go "
                        "with --openmetrics\n");
        return 2;
    }
    if (om.enabled && (json || csv)) {
        fprintf(stderr, "perfbuf-dump: --openmetrics does not go with --json or --csv\n");
        return 2;
    }
    /* Standard input can be read once: "-" may stand for one input only. */
    const char *inputs[9] = {path, names_path, previous_path, registration_path,
                             counter_names_path, identifiers_path, english_names_path,
                             counterset_name_path, om.help_names_path};
    size_t stdin_uses = 0;
    for (size_t k = 0; k < 9; k++) {
        stdin_uses += inputs[k] != NULL && strcmp(inputs[k], "-") == 0;
    }
    for (size_t k = 0; k < series_count; k++) {
        stdin_uses += strcmp(series_paths[k], "-") == 0;
    }
    if (stdin_uses > 1) {
        fprintf(stderr, "perfbuf-dump: - (standard input) names one input at most\n");
        return 2;
    }
    run_args a = {format_name, path, names_path, english_names_path, previous_path,
                  registration_path, counter_names_path, identifiers_path, counterset_name_path,
                  csv, json, pair_by, pair_key, &om,
                  paths, path_count, series_paths, series_count, origin, options};
    run_buffers b;
    memset(&b, 0, sizeof b);
    int rc = run_files(&a, &b);
    free(b.data);
    free(b.names);
    free(b.previous);
    for (size_t k = 0; k < SIDE_COUNT; k++) {
        free(b.side[k]);
    }
    for (size_t k = 0; k < series_count; k++) {
        free(b.series[k]);
    }
    return rc;
}

int main(int argc, char **argv)
{
    perfbuf_counter_path *paths = calloc(argc > 0 ? (size_t)argc : 1u, sizeof *paths);
    if (paths == NULL) {
        fprintf(stderr, "perfbuf-dump: out of memory\n");
        return 2;
    }
    int rc = run(argc, argv, paths);
    free(paths);
#ifdef PERFBUF_COUNT_WORK
    /* The counted build's total, for tests that compare the work of
     * inputs of growing size. */
    if (getenv("PERFBUF_DUMP_PRINT_WORK") != NULL) {
        fprintf(stderr, "perfbuf-dump: work %llu\n", (unsigned long long)pb_work_units);
    }
#endif
    return rc;
}
