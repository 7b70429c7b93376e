/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "perfbuf/collector.h"
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
