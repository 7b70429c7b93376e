/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * perfbuf/openmetrics.h on arbitrary input: a counter type, a sample, a
 * capture time, a range, a scale and three texts (a prefix, an object's and
 * a counter's name) taken from the bytes. Oracles, each an independent
 * computation of what the call must give:
 *   - the mapping exists exactly for the types PDH formats;
 *   - the name is the snake case of docs/prometheus.md, built here by
 *     another method (each part made whole, then cut), a metric name, and
 *     its size exact in both calls;
 *   - escaped text unescapes to the input with U+FFFD in place of every
 *     byte that is not UTF-8 and every unsafe character, and holds no raw
 *     quote, line feed or unsafe character;
 *   - numbers: integers, 100-ns values and timestamps digit for digit,
 *     x / F and start times against a long double;
 *   - the expression has every placeholder filled;
 * and every call runs under the work budget of docs/linear-time.md, its
 * text inputs and output capacity being its bytes.
 */
#include <float.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/openmetrics.h"

/* ---- an independent UTF-8 decoder (RFC 3629) ---- */

/* The code point at s[i], or -1 for a byte that starts no character;
 * *n the bytes it takes (1 for an invalid byte). */
static long decode(const unsigned char *s, size_t len, size_t i, size_t *n)
{
    unsigned c = s[i];
    size_t extra;
    unsigned long min;
    *n = 1;
    if (c < 0x80) {
        return (long)c;
    } else if (c >= 0xC2 && c <= 0xDF) {
        extra = 1;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        extra = 2;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        extra = 3;
        min = 0x10000;
    } else {
        return -1;
    }
    if (len - i <= extra) {
        return -1;
    }
    unsigned long cp = c & (0x3Fu >> extra);
    for (size_t k = 1; k <= extra; k++) {
        if ((s[i + k] & 0xC0) != 0x80) {
            return -1;
        }
        cp = (cp << 6) | (s[i + k] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return -1;
    }
    *n = extra + 1;
    return (long)cp;
}

static bool unsafe_cp(long cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x061C || cp == 0x200E ||
           cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

static bool valid_utf8(const unsigned char *s, size_t len)
{
    for (size_t i = 0; i < len;) {
        size_t n;
        if (decode(s, len, i, &n) < 0) {
            return false;
        }
        i += n;
    }
    return true;
}

/* ---- the name, built another way ---- */

/* The whole snake case of a text, into out (room for len + 1): every
 * ASCII letter or digit, lowered, and '_' for each run of others between
 * two of them. */
static size_t snake_of(const unsigned char *s, size_t len, char *out)
{
    size_t n = 0;
    bool gap = false;
    for (size_t i = 0; i < len;) {
        size_t k;
        long cp = decode(s, len, i, &k);
        i += k;
        bool alnum = (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
                     (cp >= '0' && cp <= '9');
        if (!alnum) {
            gap = n > 0;
            continue;
        }
        if (gap) {
            out[n++] = '_';
            gap = false;
        }
        out[n++] = (char)(cp >= 'A' && cp <= 'Z' ? cp - 'A' + 'a' : cp);
    }
    out[n] = '\0';
    return n;
}

static bool drop_word(char *s, size_t *n, const char *word)
{
    size_t w = strlen(word);
    if (*n > w && memcmp(s + *n - w, word, w) == 0) {
        *n -= w;
        s[*n] = '\0';
        return true;
    }
    return false;
}

/* docs/prometheus.md's name, or NULL when the prefix is not a name. */
static char *reference_name(const unsigned char *prefix, size_t plen, const unsigned char *object,
                            size_t olen, uint32_t oindex, const unsigned char *counter,
                            size_t clen, uint32_t cindex)
{
    if (plen == 0 || !((prefix[0] >= 'a' && prefix[0] <= 'z') ||
                       (prefix[0] >= 'A' && prefix[0] <= 'Z') || prefix[0] == '_' ||
                       prefix[0] == ':')) {
        return NULL;
    }
    for (size_t i = 0; i < plen; i++) {
        unsigned c = prefix[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == ':')) {
            return NULL;
        }
    }
    char *o = malloc(olen + 32);
    char *c = malloc(clen + 32);
    ORACLE(o != NULL && c != NULL);
    size_t on = snake_of(object, olen, o);
    size_t cn = snake_of(counter, clen, c);
    (void)drop_word(c, &cn, "_sec");
    (void)drop_word(c, &cn, "_total");
    const char *cpart = c;
    if (on > 0 && cn > on + 1 && memcmp(c, o, on) == 0 && c[on] == '_') {
        cpart = c + on + 1;
    }
    if (on == 0) {
        snprintf(o, 32, "object_%u", oindex);
    }
    if (cn == 0) {
        snprintf(c, 32, "counter_%u", cindex);
    }
    char *name = malloc(plen + strlen(o) + strlen(cpart) + 3);
    ORACLE(name != NULL);
    memcpy(name, prefix, plen);
    name[plen] = '_';
    strcpy(name + plen + 1, o);
    strcat(name, "_");
    strcat(name, cpart);
    free(o);
    free(c);
    return name;
}

static bool metric_name(const char *s)
{
    if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_' ||
          s[0] == ':')) {
        return false;
    }
    for (const char *p = s; *p != '\0'; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == ':')) {
            return false;
        }
    }
    return true;
}

/* ---- the pieces of the input ---- */

typedef struct input {
    uint32_t type;
    int32_t scale;
    perfbuf_raw_sample raw;
    perfbuf_value_context ctx;
    int64_t filetime;
    const unsigned char *prefix, *object, *counter, *range;
    size_t plen, olen, clen, rlen;
} input;

static uint64_t le(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = n; i > 0; i--) {
        v = (v << 8) | p[i - 1];
    }
    return v;
}

#define HEADER 64u

/* The header's fields, then the prefix, the range, the object's name and
 * the counter's, their lengths from the header (cut to what is there). */
static void split(const uint8_t *data, size_t size, input *in)
{
    uint8_t h[HEADER];
    memset(h, 0, sizeof h);
    memcpy(h, data, size < HEADER ? size : HEADER);
    in->type = (uint32_t)le(h, 4);
    /* Every displayable type, often: the low bits pick one of the named. */
    if (h[4] & 1u) {
        static const uint32_t types[] = {
            PERF_COUNTER_COUNTER, PERF_COUNTER_TIMER, PERF_COUNTER_QUEUELEN_TYPE,
            PERF_COUNTER_100NS_QUEUELEN_TYPE, PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE,
            PERF_COUNTER_RAWCOUNT, PERF_SAMPLE_FRACTION, PERF_COUNTER_TIMER_INV,
            PERF_AVERAGE_TIMER, PERF_AVERAGE_BULK, PERF_OBJ_TIME_TIMER, PERF_100NSEC_TIMER,
            PERF_100NSEC_TIMER_INV, PERF_COUNTER_MULTI_TIMER, PERF_100NSEC_MULTI_TIMER_INV,
            PERF_RAW_FRACTION, PERF_ELAPSED_TIME, PERF_COUNTER_DELTA,
            PERF_PRECISION_SYSTEM_TIMER, PERF_PRECISION_100NS_TIMER, PERF_PRECISION_OBJECT_TIMER,
            PERF_AVERAGE_BASE, PERF_COUNTER_TEXT};
        in->type = types[in->type % (sizeof types / sizeof types[0])];
    }
    in->scale = (int32_t)(int8_t)h[5] % 12;
    in->raw.status = (h[4] & 2u) ? PERFBUF_CSTATUS_INVALID_DATA : PERFBUF_CSTATUS_VALID_DATA;
    in->raw.type = in->type;
    in->raw.first = le(h + 8, 8);
    in->raw.second = le(h + 16, 8);
    in->raw.multi = (uint32_t)le(h + 24, 4);
    in->raw.time_stamp = 0;
    in->ctx.frequency = le(h + 28, 8);
    in->ctx.scale = 0;
    /* Small values too, where the interesting digits are. */
    if (h[4] & 4u) {
        in->raw.first &= 0xFFFFFu;
        in->raw.second &= 0xFFFFFFu;
        in->ctx.frequency &= 0xFFFu;
    }
    if (h[4] & 8u) {
        in->raw.second = 116444736000000000ull + (in->raw.second & 0xFFFFFFFFFFFFu);
    }
    /* Mostly times near 2026, some anywhere (negative ones too). */
    in->filetime = (int64_t)le(h + 36, 8);
    if (h[4] & 16u) {
        in->filetime = (int64_t)(134398152000000000ull + (le(h + 36, 8) & 0xFFFFFFFFFFFull));
    }
    size_t rest = size > HEADER ? size - HEADER : 0;
    const unsigned char *p = data + (size > HEADER ? HEADER : size);
    size_t lens[3] = {h[46], h[47], (size_t)le(h + 48, 2)};
    const unsigned char **parts[3] = {&in->prefix, &in->range, &in->object};
    size_t *out_lens[3] = {&in->plen, &in->rlen, &in->olen};
    for (int k = 0; k < 3; k++) {
        size_t n = lens[k] < rest ? lens[k] : rest;
        *parts[k] = p;
        *out_lens[k] = n;
        p += n;
        rest -= n;
    }
    in->counter = p;
    in->clen = rest;
}

/* ---- oracles ---- */

static char *name_checked(const input *in)
{
    size_t len = 0;
    perfbuf_status st;
    size_t text = in->plen + in->olen + in->clen;
    BUDGETED(text, st = perfbuf_openmetrics_name((const char *)in->prefix, in->plen,
                                                 (const char *)in->object, in->olen, 238,
                                                 (const char *)in->counter, in->clen, 6, NULL, 0,
                                                 &len));
    char *expected = reference_name(in->prefix, in->plen, in->object, in->olen, 238,
                                    in->counter, in->clen, 6);
    if (expected == NULL) {
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        return NULL;
    }
    ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL);
    ORACLE(len == strlen(expected));
    size_t cap = len + 1;
    char *out = malloc(cap);
    ORACLE(out != NULL);
    size_t again = 0;
    BUDGETED(text + cap, st = perfbuf_openmetrics_name((const char *)in->prefix, in->plen,
                                                       (const char *)in->object, in->olen, 238,
                                                       (const char *)in->counter, in->clen, 6,
                                                       out, cap, &again));
    ORACLE(st == PERFBUF_OK && again == len);
    ORACLE(strcmp(out, expected) == 0);
    ORACLE(metric_name(out));
    /* A buffer one byte short holds all but the last character. */
    BUDGETED(text + len, st = perfbuf_openmetrics_name((const char *)in->prefix, in->plen,
                                                       (const char *)in->object, in->olen, 238,
                                                       (const char *)in->counter, in->clen, 6,
                                                       out, len, &again));
    ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL && again == len);
    ORACLE(strlen(out) + 1 == len && memcmp(out, expected, len - 1) == 0);
    memcpy(out, expected, len + 1);
    free(expected);
    return out;
}

static void escape_checked(const unsigned char *s, size_t len)
{
    size_t need = 0;
    perfbuf_status st;
    BUDGETED(len, st = perfbuf_openmetrics_escape((const char *)s, len, NULL, 0, &need));
    ORACLE(st == (need == 0 ? PERFBUF_OK : PERFBUF_E_OUTPUT_TOO_SMALL));
    ORACLE(need <= 3 * len);
    size_t cap = need + 1;
    unsigned char *out = malloc(cap);
    ORACLE(out != NULL);
    size_t got = 0;
    BUDGETED(len + cap, st = perfbuf_openmetrics_escape((const char *)s, len, (char *)out, cap,
                                                        &got));
    ORACLE(st == PERFBUF_OK && got == need && strlen((const char *)out) == got);
    ORACLE(valid_utf8(out, got));
    /* Unescape it and walk the input beside it. */
    size_t i = 0;
    size_t j = 0;
    while (j < got) {
        size_t n;
        long want = i < len ? decode(s, len, i, &n) : -2;
        ORACLE(want != -2);
        if (want < 0 || (unsafe_cp(want) && want != '\n')) {
            want = 0xFFFD;
        }
        size_t m;
        long have = decode(out, got, j, &m);
        ORACLE(have != '"' && have != '\n' && !unsafe_cp(have));
        if (have == '\\') {
            ORACLE(j + 1 < got);
            char e = (char)out[j + 1];
            ORACLE(e == '\\' || e == '"' || e == 'n');
            have = e == 'n' ? '\n' : e;
            m = 2;
        }
        ORACLE(have == want);
        i += n;
        j += m;
    }
    ORACLE(i == len);
    /* Cut short, a whole prefix: never half of an escape. */
    if (got > 0) {
        BUDGETED(len + got, st = perfbuf_openmetrics_escape((const char *)s, len, (char *)out,
                                                            got, &need));
        ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL && need == got);
        size_t part = strlen((const char *)out);
        ORACLE(part < got && valid_utf8(out, part));
        size_t slashes = 0;
        while (slashes < part && out[part - 1 - slashes] == '\\') {
            slashes++;
        }
        ORACLE(slashes % 2 == 0);
    }
    free(out);
}

/* "-"? digits ("." digits ending in no 0)?, the form every number has. */
static bool decimal_form(const char *s)
{
    if (*s == '-') {
        s++;
    }
    if (*s < '0' || *s > '9' || (s[0] == '0' && s[1] >= '0' && s[1] <= '9')) {
        return false;
    }
    while (*s >= '0' && *s <= '9') {
        s++;
    }
    if (*s == '\0') {
        return true;
    }
    if (*s != '.' || s[1] == '\0') {
        return false;
    }
    s++;
    while (*s >= '0' && *s <= '9') {
        s++;
    }
    return *s == '\0' && s[-1] != '0';
}

/* q.r in decimal, r of `digits` digits with its trailing zeros dropped. */
static void fixed_text(char *out, size_t cap, bool negative, uint64_t q, uint64_t r,
                       unsigned digits)
{
    char frac[24];
    snprintf(frac, sizeof frac, "%0*llu", (int)digits, (unsigned long long)r);
    size_t n = strlen(frac);
    while (n > 0 && frac[n - 1] == '0') {
        frac[--n] = '\0';
    }
    snprintf(out, cap, "%s%llu%s%s", negative && (q != 0 || r != 0) ? "-" : "",
             (unsigned long long)q, n ? "." : "", frac);
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static void value_checked(const perfbuf_openmetrics_sample *s, const input *in, int64_t unix_ms,
                          bool time_valid)
{
    char out[PERFBUF_OPENMETRICS_NUMBER_MAX];
    size_t len = 0;
    perfbuf_status st;
    BUDGETED(sizeof in->raw + sizeof in->ctx + sizeof out,
             st = perfbuf_openmetrics_value(s, &in->raw, &in->ctx, unix_ms, out, sizeof out,
                                            &len));
    uint64_t x = s->source == PERFBUF_OPENMETRICS_FIRST    ? in->raw.first
                 : s->source == PERFBUF_OPENMETRICS_SECOND ? in->raw.second
                                                           : in->raw.multi;
    uint64_t f = in->ctx.frequency;
    if (s->conversion == PERFBUF_OPENMETRICS_START_TIME && !time_valid) {
        /* A negative capture time is none: the harness passes 0 then. */
        ORACLE(unix_ms == 0);
    }
    bool divides = s->conversion == PERFBUF_OPENMETRICS_SECONDS ||
                   s->conversion == PERFBUF_OPENMETRICS_WHOLE_SECONDS ||
                   s->conversion == PERFBUF_OPENMETRICS_FRACTION_SECONDS;
    bool none = in->raw.status != PERFBUF_CSTATUS_VALID_DATA || (divides && f == 0) ||
                (s->conversion == PERFBUF_OPENMETRICS_START_TIME &&
                 (f == 0 || in->raw.second < in->raw.first ||
                  (in->raw.second - in->raw.first) / f > ((uint64_t)1 << 62)));
    if (none) {
        ORACLE(st == PERFBUF_E_NOT_FOUND);
        return;
    }
    ORACLE(st == PERFBUF_OK && len == strlen(out) && len < sizeof out);
    ORACLE(decimal_form(out));
    char want[64];
    switch (s->conversion) {
    case PERFBUF_OPENMETRICS_AS_IS:
        snprintf(want, sizeof want, "%llu", (unsigned long long)x);
        ORACLE(strcmp(out, want) == 0);
        break;
    case PERFBUF_OPENMETRICS_UNIX_WHOLE:
    case PERFBUF_OPENMETRICS_UNIX_FRACTION: {
        /* Seconds since 1970, floor, and the rest of the second. */
        const uint64_t epoch = 116444736000000000ull;
        bool before = x < epoch;
        uint64_t d = before ? epoch - x : x - epoch;
        uint64_t whole = d / 10000000u;
        uint64_t part = d % 10000000u;
        if (before && part != 0) {
            whole++;
            part = 10000000u - part;
        }
        if (s->conversion == PERFBUF_OPENMETRICS_UNIX_WHOLE) {
            fixed_text(want, sizeof want, before, whole, 0, 1);
        } else {
            fixed_text(want, sizeof want, false, 0, part, 7);
        }
        ORACLE(strcmp(out, want) == 0);
        break;
    }
    case PERFBUF_OPENMETRICS_WHOLE_SECONDS:
        snprintf(want, sizeof want, "%llu", (unsigned long long)(x / f));
        ORACLE(strcmp(out, want) == 0);
        break;
    case PERFBUF_OPENMETRICS_FRACTION_SECONDS: {
        long double expected = (long double)(x % f) / (long double)f;
        long double got = strtold(out, NULL);
        long double diff = got > expected ? got - expected : expected - got;
        ORACLE(got < 1.0L && diff <= expected * 1e-15L);
        if (f == 10000000u) {
            fixed_text(want, sizeof want, false, 0, x % f, 7);
            ORACLE(strcmp(out, want) == 0);
        }
        break;
    }
    case PERFBUF_OPENMETRICS_SECONDS: {
        long double expected = (long double)x / (long double)f;
        long double got = strtold(out, NULL);
        long double diff = got > expected ? got - expected : expected - got;
        ORACLE(diff <= expected * 1e-15L);
        if (f == 10000000u) {
            fixed_text(want, sizeof want, false, x / f, x % f, 7);
            ORACLE(strcmp(out, want) == 0);
        }
        break;
    }
    case PERFBUF_OPENMETRICS_START_TIME: {
        /* Rounded to the nanosecond, against a long double whose own
         * rounding grows with the two terms subtracted. */
        long double a = (long double)unix_ms / 1000.0L;
        long double b = (long double)(in->raw.second - in->raw.first) / (long double)f;
        long double expected = a - b;
        long double got = strtold(out, NULL);
        long double diff = got > expected ? got - expected : expected - got;
        long double terms = (a < 0 ? -a : a) + b;
        ORACLE(diff <= 2e-9L + terms * 8 * LDBL_EPSILON);
        break;
    }
    default:
        ORACLE(0);
    }
}

static void promql_checked(const perfbuf_openmetrics_mapping *m, const char *name,
                           const input *in)
{
    size_t nlen = strlen(name);
    size_t len = 0;
    perfbuf_status st;
    BUDGETED(nlen + in->rlen, st = perfbuf_openmetrics_promql(m, name, nlen,
                                                              (const char *)in->range, in->rlen,
                                                              in->scale, NULL, 0, &len));
    bool range_ok = in->rlen > 0 && in->range[0] >= '0' && in->range[0] <= '9';
    for (size_t i = 0; i < in->rlen; i++) {
        unsigned c = in->range[i];
        range_ok = range_ok && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'));
    }
    bool ok = m->family_count > 0 && range_ok && in->scale >= PERFBUF_MIN_SCALE &&
              in->scale <= PERFBUF_MAX_SCALE;
    if (!ok) {
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        return;
    }
    ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL);
    char *out = malloc(len + 1);
    ORACLE(out != NULL);
    size_t got = 0;
    BUDGETED(nlen + in->rlen + len + 1,
             st = perfbuf_openmetrics_promql(m, name, nlen, (const char *)in->range, in->rlen,
                                             in->scale, out, len + 1, &got));
    ORACLE(st == PERFBUF_OK && got == len && strlen(out) == len);
    ORACLE(strstr(out, "<name>") == NULL && strstr(out, "<range>") == NULL &&
           strstr(out, "<scale>") == NULL);
    ORACLE(strncmp(out, name, nlen) == 0 || strstr(out, name) != NULL);
    ORACLE((strstr(out, " * 1e") != NULL) == (in->scale != 0));
    int depth = 0;
    for (const char *p = out; *p != '\0'; p++) {
        depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
        ORACLE(depth >= 0);
    }
    ORACLE(depth == 0);
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input in;
    split(data, size, &in);
    perfbuf_openmetrics_mapping m;
    perfbuf_status st;
    BUDGETED(0, st = perfbuf_openmetrics_map(in.type, &m));
    ORACLE((st == PERFBUF_OK) == perfbuf_counter_type_is_displayable(in.type));
    ORACLE(m.family_count <= PERFBUF_OPENMETRICS_MAX_FAMILIES);

    char *name = name_checked(&in);
    escape_checked(in.object, in.olen);
    escape_checked(in.counter, in.clen);

    int64_t unix_ms = 0;
    char text[PERFBUF_OPENMETRICS_NUMBER_MAX];
    size_t tlen = 0;
    BUDGETED(sizeof in.filetime + sizeof text,
             st = perfbuf_openmetrics_time(in.filetime, &unix_ms, text, sizeof text, &tlen));
    bool time_valid = in.filetime >= 0;
    ORACLE(st == (time_valid ? PERFBUF_OK : PERFBUF_E_NOT_FOUND));
    if (time_valid) {
        /* Milliseconds since 1601, less the 11,644,473,600 s to 1970. */
        int64_t ms = (int64_t)((uint64_t)in.filetime / 10000u) - 11644473600000;
        ORACLE(unix_ms == ms);
        char want[64];
        int64_t sec = floor_div(ms, 1000);
        int64_t frac = ms - sec * 1000;
        if (sec < 0 && frac != 0) {
            fixed_text(want, sizeof want, true, (uint64_t)(-(sec + 1)), (uint64_t)(1000 - frac),
                       3);
        } else {
            fixed_text(want, sizeof want, sec < 0, (uint64_t)(sec < 0 ? -sec : sec),
                       (uint64_t)frac, 3);
        }
        ORACLE(strcmp(text, want) == 0 && tlen == strlen(want));
    } else {
        unix_ms = 0;
    }

    for (uint32_t k = 0; k < m.family_count; k++) {
        const perfbuf_openmetrics_family *fam = &m.families[k];
        const char *unit;
        size_t nlen = name != NULL ? strlen(name) : 0;
        BUDGETED(0, unit = perfbuf_openmetrics_unit(fam, name, nlen));
        ORACLE(unit != NULL);
        if (strcmp(unit, "bytes") == 0) {
            ORACLE(nlen >= 6 && strcmp(name + nlen - 6, "_bytes") == 0 && fam->suffix[0] == '\0');
        }
        for (uint32_t s = 0; s < fam->sample_count; s++) {
            value_checked(&fam->samples[s], &in, unix_ms, time_valid);
        }
    }
    if (name != NULL) {
        promql_checked(&m, name, &in);
    }
    free(name);
    return 0;
}
