/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "perfbuf/collector.h"
#include "perfbuf/query.h"
#include "perfbuf/v1.h"
#include "perfbuf/v2_query.h"
#include "perfbuf/values.h"

static bool leap_year(unsigned y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* True when the fields name a real instant that ISO 8601's four-digit
 * years can write: a hostile buffer's SYSTEMTIME may hold anything. */
static bool systemtime_valid(const perfbuf_systemtime *t)
{
    static const unsigned days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (t->year < 1601 || t->year > 9999 || t->month < 1 || t->month > 12 ||
        t->day_of_week > 6 || t->hour > 23 || t->minute > 59 || t->second > 59 ||
        t->milliseconds > 999) {
        return false;
    }
    unsigned last = days[t->month - 1] + (t->month == 2 && leap_year(t->year) ? 1u : 0u);
    return t->day >= 1 && t->day <= last;
}

void dump_systemtime(emitter *e, const char *key, const perfbuf_systemtime *t)
{
    emit_object_begin(e, key);
    emit_u64(e, "year", t->year);
    emit_u64(e, "month", t->month);
    emit_u64(e, "day_of_week", t->day_of_week);
    emit_u64(e, "day", t->day);
    emit_u64(e, "hour", t->hour);
    emit_u64(e, "minute", t->minute);
    emit_u64(e, "second", t->second);
    emit_u64(e, "milliseconds", t->milliseconds);
    if (systemtime_valid(t)) {
        char text[64];
        snprintf(text, sizeof text, "%04u-%02u-%02uT%02u:%02u:%02u.%03uZ", (unsigned)t->year,
                 (unsigned)t->month, (unsigned)t->day, (unsigned)t->hour, (unsigned)t->minute,
                 (unsigned)t->second, (unsigned)t->milliseconds);
        emit_str(e, "iso8601", text);
    } else {
        emit_null(e, "iso8601");
    }
    emit_object_end(e);
}

void dump_text_init(dump_text *t)
{
    t->cap = 256;
    t->buf = dump_calloc(t->cap, 1);
}

void dump_text_fit(dump_text *t, size_t len)
{
    if (len >= SIZE_MAX - 1) {
        fprintf(stderr, "perfbuf-dump: out of memory\n");
        exit(2);
    }
    if (len + 1 <= t->cap) {
        return;
    }
    free(t->buf);
    t->cap = len + 1;
    t->buf = dump_calloc(t->cap, 1);
}

void dump_text_free(dump_text *t)
{
    free(t->buf);
    t->buf = NULL;
    t->cap = 0;
}

void dump_hex(emitter *e, const char *key, const uint8_t *bytes, size_t n, dump_text *t)
{
    if (n > (SIZE_MAX - 1) / 2) {
        fprintf(stderr, "perfbuf-dump: out of memory\n");
        exit(2);
    }
    dump_text_fit(t, 2 * n);
    static const char digits[] = "0123456789abcdef";
    for (size_t k = 0; k < n; k++) {
        DUMP_WORK(1);
        t->buf[2 * k] = digits[bytes[k] >> 4];
        t->buf[2 * k + 1] = digits[bytes[k] & 0xF];
    }
    t->buf[2 * n] = '\0';
    emit_str(e, key, t->buf);
}

static const struct {
    uint32_t bit;
    const char *name;
} anomaly_names[] = {
    {PERFBUF_ANOMALY_UNALIGNED_SIZE, "unaligned-size"},
    {PERFBUF_ANOMALY_TRAILING_BYTES, "trailing-bytes"},
    {PERFBUF_ANOMALY_EXCESS_PADDING, "excess-padding"},
    {PERFBUF_ANOMALY_RESERVED_NONZERO, "reserved-nonzero"},
    {PERFBUF_ANOMALY_COUNT_MISMATCH, "count-mismatch"},
    {PERFBUF_ANOMALY_UNKNOWN_VALUE, "unknown-value"},
    {PERFBUF_ANOMALY_SIZE_MISMATCH, "size-mismatch"},
    {PERFBUF_ANOMALY_DUPLICATE, "duplicate"},
    {PERFBUF_ANOMALY_MISSING_BASE, "missing-base"},
    {PERFBUF_ANOMALY_UNTERMINATED, "unterminated"},
};

void dump_anomalies(emitter *e, uint32_t anomalies, const perfbuf_error *first)
{
    emit_list_begin(e, "anomalies");
    for (size_t i = 0; i < sizeof anomaly_names / sizeof anomaly_names[0]; i++) {
        DUMP_WORK(1);
        if (anomalies & anomaly_names[i].bit) {
            emit_str(e, NULL, anomaly_names[i].name);
        }
    }
    emit_list_end(e);
    if (anomalies != 0) {
        emit_object_begin(e, "first_anomaly");
        emit_hex(e, "offset", first->offset);
        emit_str(e, "structure", first->structure);
        emit_str(e, "field", first->field);
        emit_str(e, "status", perfbuf_status_name(first->status));
        emit_object_end(e);
    }
}

uint32_t dump_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/*
 * The status of a value that could not be formatted, as the JSON's word for
 * it: the token column of the library's own table (perfbuf/cstatus.def), so
 * that the dump knows exactly the statuses perfbuf_cstatus_name() names.
 */
const char *dump_value_status_name(uint32_t st)
{
    switch (st) {
#define PERFBUF_CSTATUS_ROW(name, token, text) \
    case PERFBUF_##name:                       \
        return token;
#include "perfbuf/cstatus.def"
#undef PERFBUF_CSTATUS_ROW
    default:
        return "unknown";
    }
}

void dump_side_rejected(const char *what, const char *file, const perfbuf_error *err)
{
    fprintf(stderr, "perfbuf-dump: %s: the %s is rejected: ", file != NULL ? file : "?", what);
    dump_print_rejection(stderr, err->status, err);
}

bool dump_compared(const perfbuf_error *err)
{
    /* A rejection never compares two equal numbers (perfbuf/common.h). */
    return err->declared != 0 || err->limit != 0;
}

/* The words the text line puts before the two numbers: what the bound is
 * for each status that compares two (perfbuf/common.h). A bound above the
 * value declared is the least one allowed, whatever the status (a size
 * below its structure's, an offset into the header it must not overlap). */
static void compared_words(perfbuf_status st, const perfbuf_error *err, const char **declared,
                           const char **limit)
{
    *declared = st == PERFBUF_E_TRUNCATED ? "needs" : "declared";
    *limit = err->declared < err->limit                ? "at least"
             : st == PERFBUF_E_SIZE_EXCEEDS_RECEIVED ? "received"
             : st == PERFBUF_E_COUNT_TOO_LARGE       ? "room for"
             : st == PERFBUF_E_LIMIT_EXCEEDED        ? "limit"
                                                     : "available";
}

void dump_print_rejection(FILE *f, perfbuf_status st, const perfbuf_error *err)
{
    const char *structure = err->structure != NULL ? err->structure : "?";
    const char *field = err->field != NULL ? err->field : "?";
    fprintf(f, "offset 0x%zx: %s.%s: %s", err->offset, structure, field,
            perfbuf_status_string(st));
    if (dump_compared(err)) {
        const char *declared;
        const char *limit;
        compared_words(st, err, &declared, &limit);
        fprintf(f, " (%s %llu, %s %llu)", declared, (unsigned long long)err->declared, limit,
                (unsigned long long)err->limit);
    }
    fputc('\n', f);
}

void dump_guid(emitter *e, const char *key, const perfbuf_guid *g)
{
    char text[PERFBUF_GUID_STRING_SIZE];
    perfbuf_guid_format(g, text);
    emit_str(e, key, text);
}

void *dump_calloc(size_t count, size_t size)
{
    void *p = NULL;
    if (size == 0 || count <= SIZE_MAX / size) {
        p = calloc(count ? count : 1, size ? size : 1);
    }
    if (p == NULL) {
        fprintf(stderr, "perfbuf-dump: out of memory\n");
        exit(2);
    }
    return p;
}

/*
 * LSD radix sort, one byte per pass: its cost is 8 passes over the keys
 * whatever their order, so sorting never makes the tool's work grow
 * faster than its input.
 */
void dump_sort_u64(uint64_t *keys, size_t count)
{
    if (count < 2) {
        return;
    }
    uint64_t *tmp = dump_calloc(count, sizeof *tmp);
    uint64_t *from = keys;
    uint64_t *to = tmp;
    for (unsigned shift = 0; shift < 64; shift += 8) {
        size_t start[257];
        memset(start, 0, sizeof start);
        for (size_t i = 0; i < count; i++) {
            DUMP_WORK(1);
            start[((from[i] >> shift) & 0xFF) + 1]++;
        }
        for (size_t d = 0; d < 256; d++) {
            DUMP_WORK(1);
            start[d + 1] += start[d];
        }
        for (size_t i = 0; i < count; i++) {
            DUMP_WORK(1);
            to[start[(from[i] >> shift) & 0xFF]++] = from[i];
        }
        uint64_t *swap = from;
        from = to;
        to = swap;
    }
    /* Eight passes: the sorted keys are back in `keys`. */
    free(tmp);
}

size_t dump_find_high(const uint64_t *keys, size_t count, uint32_t high)
{
    size_t lo = 0;
    size_t hi = count;
    while (lo < hi) {
        DUMP_WORK(1);
        size_t mid = lo + (hi - lo) / 2;
        if ((uint32_t)(keys[mid] >> 32) < high) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < count && (uint32_t)(keys[lo] >> 32) == high ? lo : count;
}

/* The count a header gives, when it is no more than the bytes could hold
 * at `per` bytes each: the scratch a retry needs. */
static bool header_count(const uint8_t *data, size_t size, size_t at, size_t per, uint32_t *count)
{
    if (size < at + 4) {
        return false;
    }
    *count = dump_le32(data + at);
    return *count <= size / per;
}

perfbuf_status dump_reginfo_parse(const uint8_t *data, size_t size, const perfbuf_options *opts,
                                  perfbuf_v2_reginfo *out, perfbuf_error *err,
                                  uint64_t **scratch)
{
    *scratch = NULL;
    perfbuf_status st = perfbuf_v2_reginfo_parse(data, size, opts, out, err);
    uint32_t count;
    /* NumCounters: PERF_COUNTERSET_REG_INFO offset 24; 48 bytes a counter. */
    if (st == PERFBUF_E_SCRATCH_NEEDED && header_count(data, size, 24, 48, &count)) {
        *scratch = dump_calloc(count, sizeof **scratch);
        st = perfbuf_v2_reginfo_parse_indexed(data, size, opts, *scratch, count, out, err);
    }
    return st;
}

perfbuf_status dump_strings_parse(const uint8_t *data, size_t size, int origin,
                                  const perfbuf_options *opts, perfbuf_v2_strings *out,
                                  perfbuf_error *err, uint64_t **scratch)
{
    *scratch = NULL;
    perfbuf_v2_string_origin o = (perfbuf_v2_string_origin)origin;
    perfbuf_status st = perfbuf_v2_strings_parse(data, size, o, opts, out, err);
    uint32_t count;
    /* dwCounters: PERF_STRING_BUFFER_HEADER offset 4; 8 bytes a header. */
    if (st == PERFBUF_E_SCRATCH_NEEDED && header_count(data, size, 4, 8, &count)) {
        *scratch = dump_calloc(count, sizeof **scratch);
        st = perfbuf_v2_strings_parse_indexed(data, size, o, opts, *scratch, count, out, err);
    }
    return st;
}

/* The pairing state as the dump names it. */
const char *dump_pairing_name(uint32_t state)
{
    switch (state) {
    case PERFBUF_PAIR_MATCHED:
        return "matched";
    case PERFBUF_PAIR_NEW:
        return "new";
    case PERFBUF_PAIR_AMBIGUOUS:
        return "ambiguous";
    default:
        return "unpaired";
    }
}

/* Collects one capture, growing the arena as the query asks. */
perfbuf_status dump_query_collect(perfbuf_query *q, uint8_t **arena, const uint8_t *data,
                                    size_t size, perfbuf_error *err)
{
    /* Before the arena the query asks for its indexes' size, then for the
     * capture's: a few rounds at most. */
    for (int round = 0; round < 4; round++) {
        DUMP_WORK(1);
        size_t needed = 0;
        perfbuf_status st = perfbuf_query_collect(q, data, size, &needed, err);
        if (st != PERFBUF_E_OUTPUT_TOO_SMALL) {
            return st;
        }
        uint8_t *grown = realloc(*arena, needed);
        if (grown == NULL) {
            fprintf(stderr, "perfbuf-dump: out of memory\n");
            exit(2);
        }
        *arena = grown;
        size_t bytes = needed;
        st = perfbuf_query_arena(q, grown, &bytes, err);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    return PERFBUF_E_OUTPUT_TOO_SMALL;
}

/* The error a path that matched nothing gives the JSON, from its miss. */
perfbuf_status dump_path_missed(const dump_miss *miss, perfbuf_error *err)
{
    memset(err, 0, sizeof *err);
    err->status = PERFBUF_E_NOT_FOUND;
    err->offset = miss->offset;
    err->structure = "COUNTER_PATH";
    err->field = miss->part;
    return PERFBUF_E_NOT_FOUND;
}

/* ---- --rate and --series: captures that can make a rate ---- */

/* The three clocks of a capture, and its computer's name (V1). */
typedef struct capture_clocks {
    int64_t perf_time;
    int64_t perf_time_100ns;
    perfbuf_systemtime system_time;
} capture_clocks;

/* SYSTEMTIME fields in order of significance (wDayOfWeek says nothing
 * about order), as one number per field compared in turn. */
static int systemtime_order(const perfbuf_systemtime *a, const perfbuf_systemtime *b)
{
    const unsigned x[7] = {a->year, a->month, a->day, a->hour, a->minute, a->second,
                           a->milliseconds};
    const unsigned y[7] = {b->year, b->month, b->day, b->hour, b->minute, b->second,
                           b->milliseconds};
    for (size_t k = 0; k < 7; k++) {
        if (x[k] != y[k]) {
            return x[k] < y[k] ? -1 : 1;
        }
    }
    return 0;
}

/* The fields as the buffer has them, in the order they are compared. */
static void systemtime_text(const perfbuf_systemtime *t, char *out, size_t cap)
{
    snprintf(out, cap, "%04u-%02u-%02u %02u:%02u:%02u.%03u", (unsigned)t->year,
             (unsigned)t->month, (unsigned)t->day, (unsigned)t->hour, (unsigned)t->minute,
             (unsigned)t->second, (unsigned)t->milliseconds);
}

/* A V1 block's computer name as UTF-8 into t; false when it does not convert. */
static bool system_name(const perfbuf_v1_block *b, dump_text *t)
{
    size_t len;
    perfbuf_status st = perfbuf_v1_system_name_utf8(b, t->buf, t->cap, &len);
    if (st == PERFBUF_E_OUTPUT_TOO_SMALL) {
        dump_text_fit(t, len);
        st = perfbuf_v1_system_name_utf8(b, t->buf, t->cap, &len);
    }
    return st == PERFBUF_OK;
}

/* Equal with ASCII letters folded: computer names are not case-sensitive. */
static bool same_name(const char *a, const char *b)
{
    size_t n = strlen(a);
    if (n != strlen(b)) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        DUMP_WORK(1);
        unsigned char x = (unsigned char)a[i];
        unsigned char y = (unsigned char)b[i];
        x = x >= 'A' && x <= 'Z' ? (unsigned char)(x + ('a' - 'A')) : x;
        y = y >= 'A' && y <= 'Z' ? (unsigned char)(y + ('a' - 'A')) : y;
        if (x != y) {
            return false;
        }
    }
    return true;
}

bool dump_earlier_fits(bool v1, const char *option, const char *earlier_path,
                       const uint8_t *earlier, size_t earlier_size, const char *later_path,
                       const uint8_t *later, size_t later_size, const perfbuf_options *options)
{
    capture_clocks c[2];
    const uint8_t *data[2] = {earlier, later};
    const size_t sizes[2] = {earlier_size, later_size};
    bool fits = true;
    if (v1) {
        perfbuf_v1_block b[2];
        for (int k = 0; k < 2; k++) {
            if (perfbuf_v1_parse(data[k], sizes[k], options, &b[k], NULL) != PERFBUF_OK) {
                return true; /* the caller refused it already */
            }
            c[k].perf_time = b[k].perf_time;
            c[k].perf_time_100ns = b[k].perf_time_100ns;
            c[k].system_time = b[k].system_time;
        }
        dump_text names[2];
        dump_text_init(&names[0]);
        dump_text_init(&names[1]);
        bool converted = system_name(&b[0], &names[0]) && system_name(&b[1], &names[1]);
        if (!converted || !same_name(names[0].buf, names[1].buf)) {
            fprintf(stderr,
                    "perfbuf-dump: %s: the %s capture is of computer \"%s\" and %s of \"%s\": "
                    "a rate pairs two captures of one computer\n",
                    earlier_path, option, converted ? names[0].buf : "?", later_path,
                    converted ? names[1].buf : "?");
            fits = false;
        }
        dump_text_free(&names[0]);
        dump_text_free(&names[1]);
    } else {
        perfbuf_v2_query q[2];
        for (int k = 0; k < 2; k++) {
            if (perfbuf_v2_query_parse(data[k], sizes[k], options, &q[k], NULL) != PERFBUF_OK) {
                return true; /* the caller refused it already */
            }
            c[k].perf_time = q[k].perf_time_stamp;
            c[k].perf_time_100ns = q[k].perf_time_100ns;
            c[k].system_time = q[k].system_time;
        }
    }
    const char *perf_time = v1 ? "PerfTime" : "PerfTimeStamp";
    const char *perf_time_100ns = v1 ? "PerfTime100nSec" : "PerfTime100NSec";
    int order = systemtime_order(&c[0].system_time, &c[1].system_time);
    if (c[0].perf_time <= c[1].perf_time && c[0].perf_time_100ns <= c[1].perf_time_100ns &&
        order <= 0) {
        return fits;
    }
    fprintf(stderr, "perfbuf-dump: %s: the %s capture is later than %s:", earlier_path, option,
            later_path);
    const char *sep = "";
    if (c[0].perf_time > c[1].perf_time) {
        fprintf(stderr, " %s %lld is after %lld", perf_time, (long long)c[0].perf_time,
                (long long)c[1].perf_time);
        sep = ",";
    }
    if (c[0].perf_time_100ns > c[1].perf_time_100ns) {
        fprintf(stderr, "%s %s %lld is after %lld", sep, perf_time_100ns,
                (long long)c[0].perf_time_100ns, (long long)c[1].perf_time_100ns);
        sep = ",";
    }
    if (order > 0) {
        char a[48];
        char b[48];
        systemtime_text(&c[0].system_time, a, sizeof a);
        systemtime_text(&c[1].system_time, b, sizeof b);
        fprintf(stderr, "%s SystemTime %s is after %s", sep, a, b);
    }
    fprintf(stderr, "; %s\n",
            strcmp(option, "--rate") == 0 ? "give --rate the earlier capture"
                                          : "give --series the captures oldest first, FILE last");
    return false;
}
