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

/* A conversion run under the budget of `budget` bytes: the wrappers below
 * make each call inside its own budget, where the oracle sees it. */
typedef perfbuf_status (*conversion)(const void *, size_t, char *, size_t, size_t *, size_t budget);

static void check(conversion convert,
                  const uint8_t *data, size_t size)
{
    static char full[4 * 4096 + 1];
    size_t full_len = 0;
    if (size > 4096) {
        return;
    }
    perfbuf_status st;
    st = convert(data, size, full, sizeof full, &full_len, size);
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
        pst = convert(data, size, cap ? part : NULL, cap, &len, cap);
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

static perfbuf_status utf16(const void *d, size_t n, char *o, size_t c, size_t *l, size_t budget)
{
    perfbuf_status st;
    BUDGETED(budget, st = perfbuf_utf16le_to_utf8(d, n, o, c, l));
    return st;
}

static perfbuf_status cp1252(const void *d, size_t n, char *o, size_t c, size_t *l, size_t budget)
{
    perfbuf_status st;
    BUDGETED(budget, st = perfbuf_codepage_to_utf8(1252, d, n, o, c, l));
    return st;
}

static perfbuf_status cp65001(const void *d, size_t n, char *o, size_t c, size_t *l, size_t budget)
{
    perfbuf_status st;
    BUDGETED(budget, st = perfbuf_codepage_to_utf8(65001, d, n, o, c, l));
    return st;
}

static perfbuf_status cp20127(const void *d, size_t n, char *o, size_t c, size_t *l, size_t budget)
{
    perfbuf_status st;
    BUDGETED(budget, st = perfbuf_codepage_to_utf8(20127, d, n, o, c, l));
    return st;
}

/* A code page the input names: converted exactly when it is supported,
 * otherwise refused with PERFBUF_E_UNKNOWN_VALUE before any work. */
static void check_code_page(const uint8_t *data, size_t size)
{
    if (size < 4) {
        return;
    }
    uint32_t code_page = (uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 |
                         (uint32_t)data[3] << 24;
    /* Mostly near the supported numbers, so both answers are seen. */
    if (code_page & 0x80000000u) {
        static const uint32_t near[] = {1252, 65001, 20127, 1251, 65000, 20128, 0, 1200};
        code_page = near[code_page % (sizeof near / sizeof near[0])];
    }
    bool supported;
    BUDGETED(sizeof code_page, supported = perfbuf_codepage_supported(code_page));
    ORACLE(supported == (code_page == 1252 || code_page == 65001 || code_page == 20127));
    char out[64];
    size_t len = 0;
    perfbuf_status st;
    BUDGETED(sizeof out, st = perfbuf_codepage_to_utf8(code_page, data + 4, size - 4, out,
                                                       sizeof out, &len));
    ORACLE(supported ? oracle_text_status(st) : st == PERFBUF_E_UNKNOWN_VALUE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(utf16, data, size);
    check(cp1252, data, size);
    check(cp65001, data, size);
    check(cp20127, data, size);
    check_code_page(data, size);
    return 0;
}
