/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The name conversions on arbitrary bytes: UTF-16LE and code pages to
 * UTF-8 into caller buffers of every size. Oracles: the output is always
 * NUL-terminated inside the buffer, valid UTF-8, a prefix of the full
 * conversion cut at a character boundary; the reported length is that of
 * the full conversion when it fits and a size that is enough when it does
 * not (at most 3 bytes per input unit or byte); and a call costs what the
 * output holds, not what the input is long (the work budget over the
 * bytes the call writes, not the bytes it is given).
 */
#include <stdbool.h>
#include <string.h>

#include "oracle.h"
#include "perfbuf/text.h"

/* Valid UTF-8 by RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF. */
static int valid_utf8(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t extra;
        unsigned min;
        if (c < 0x80) {
            i++;
            continue;
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
            return 0;
        }
        if (n - i <= extra) {
            return 0;
        }
        unsigned cp = c & (0x3Fu >> extra);
        for (size_t k = 1; k <= extra; k++) {
            if ((s[i + k] & 0xC0) != 0x80) {
                return 0;
            }
            cp = (cp << 6) | (s[i + k] & 0x3Fu);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return 0;
        }
        i += extra + 1;
    }
    return 1;
}

static size_t bounded_length(const char *s, size_t cap)
{
    size_t n = 0;
    while (n < cap && s[n] != '\0') {
        n++;
    }
    return n;
}

static void check(perfbuf_status (*convert)(const void *, size_t, char *, size_t, size_t *),
                  const uint8_t *data, size_t size)
{
    static char full[4 * 4096 + 1];
    size_t full_len = 0;
    if (size > 4096) {
        return;
    }
    perfbuf_status st;
    BUDGETED(size, st = convert(data, size, full, sizeof full, &full_len));
    if (st != PERFBUF_OK) {
        ORACLE(st == PERFBUF_E_ODD_LENGTH || st == PERFBUF_E_UNKNOWN_VALUE);
        return;
    }
    ORACLE(strlen(full) <= full_len);
    ORACLE(valid_utf8((const unsigned char *)full, full_len));
    /* Every smaller buffer holds a prefix that ends on a whole character. */
    for (size_t cap = 0; cap <= full_len && cap < 64; cap++) {
        char part[64];
        memset(part, 'x', sizeof part);
        size_t len = 0;
        perfbuf_status pst;
        /* Bounded by the capacity, not by the input: the budget is cap. */
        BUDGETED(cap, pst = convert(data, size, cap ? part : NULL, cap, &len));
        /* An empty text "fits" a zero capacity: a measuring call. */
        bool fits = cap > full_len || full_len == 0;
        ORACLE(pst == (fits ? PERFBUF_OK : PERFBUF_E_OUTPUT_TOO_SMALL));
        ORACLE(fits ? len == full_len : (len >= full_len && len <= 3 * size));
        if (cap > 0) {
            size_t got = bounded_length(part, cap);
            ORACLE(got < cap);
            ORACLE(memcmp(part, full, got) == 0);
            ORACLE(valid_utf8((const unsigned char *)part, got));
        }
    }
}

static perfbuf_status utf16(const void *d, size_t n, char *o, size_t c, size_t *l)
{
    return perfbuf_utf16le_to_utf8(d, n, o, c, l);
}

static perfbuf_status cp1252(const void *d, size_t n, char *o, size_t c, size_t *l)
{
    return perfbuf_codepage_to_utf8(1252, d, n, o, c, l);
}

static perfbuf_status cp65001(const void *d, size_t n, char *o, size_t c, size_t *l)
{
    return perfbuf_codepage_to_utf8(65001, d, n, o, c, l);
}

static perfbuf_status cp20127(const void *d, size_t n, char *o, size_t c, size_t *l)
{
    return perfbuf_codepage_to_utf8(20127, d, n, o, c, l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(utf16, data, size);
    check(cp1252, data, size);
    check(cp65001, data, size);
    check(cp20127, data, size);
    return 0;
}
