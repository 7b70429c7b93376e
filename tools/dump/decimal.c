/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "decimal.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* 10^6: the six decimals. */
#define MILLION UINT64_C(1000000)

/*
 * round(r * 10^6 / 2^s), halves to even, for r < 2^53 and r < 2^s (a
 * fraction below one): at most 10^6. The product needs up to 73 bits, so
 * it is held as two 64-bit halves; a fraction of 74 or more binary places
 * is below half of 10^-6 and rounds to zero.
 */
static uint64_t round_millionths(uint64_t r, unsigned s)
{
    if (s >= 74) {
        return 0;
    }
    /* r * 10^6 = (r_high * 10^6) * 2^32 + r_low * 10^6, each part exact. */
    uint64_t low_part = (r & UINT32_MAX) * MILLION;  /* < 2^52 */
    uint64_t high_part = (r >> 32) * MILLION;        /* < 2^41 */
    /* The low 64 bits and the carry into the high ones, with no unsigned
     * wraparound (-fsanitize=integer): the sum is taken apart by hand. */
    uint64_t shifted = (high_part & UINT32_MAX) << 32;
    bool carry = shifted > UINT64_MAX - low_part;
    uint64_t lo = carry ? shifted - (UINT64_MAX - low_part) - 1u : low_part + shifted;
    uint64_t hi = (high_part >> 32) + (carry ? 1u : 0u);
    uint64_t q;
    bool above, exactly_half;
    if (s < 64) {
        /* s >= 1: the remainder is the low s bits of lo. */
        q = lo >> s | hi << (64u - s);
        uint64_t rem = lo & ((UINT64_C(1) << s) - 1u);
        uint64_t half = UINT64_C(1) << (s - 1u);
        above = rem > half;
        exactly_half = rem == half;
    } else if (s == 64) {
        q = hi;
        above = lo > UINT64_C(1) << 63;
        exactly_half = lo == UINT64_C(1) << 63;
    } else {
        /* 65..73: half is 2^(s-65) in the high half, 0 in the low. */
        unsigned t = s - 64u;
        q = hi >> t;
        uint64_t rem_hi = hi & ((UINT64_C(1) << t) - 1u);
        uint64_t half_hi = UINT64_C(1) << (t - 1u);
        above = rem_hi > half_hi || (rem_hi == half_hi && lo != 0);
        exactly_half = rem_hi == half_hi && lo == 0;
    }
    if (above || (exactly_half && (q & 1u) != 0)) {
        q++;
    }
    return q;
}

size_t dump_decimal6(double v, char out[DUMP_DECIMAL_BYTES])
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    bool negative = (bits >> 63) != 0;
    unsigned biased = (unsigned)(bits >> 52) & 0x7FFu;
    uint64_t m = bits & ((UINT64_C(1) << 52) - 1u);
    /* 2^63 and above (biased exponent 1023 + 63), infinities and NaN. */
    if (biased >= 1023u + 63u) {
        int n = snprintf(out, DUMP_DECIMAL_BYTES, "%.6f", v);
        return n < 0 ? 0 : (size_t)n < DUMP_DECIMAL_BYTES ? (size_t)n : DUMP_DECIMAL_BYTES - 1u;
    }
    /* v = m * 2^e exactly, m < 2^53. */
    int e = biased == 0 ? -1074 : (int)biased - 1075;
    if (biased != 0) {
        m |= UINT64_C(1) << 52;
    }
    uint64_t whole, millionths;
    if (e >= 0) {
        /* An integer below 2^63. */
        whole = m << e;
        millionths = 0;
    } else {
        unsigned s = (unsigned)-e;
        whole = s < 64 ? m >> s : 0;
        uint64_t fraction = s < 64 ? m & ((UINT64_C(1) << s) - 1u) : m;
        /* The parity that breaks a tie is that of whole * 10^6 +
         * millionths, which is millionths' since 10^6 is even. */
        millionths = round_millionths(fraction, s);
        if (millionths == MILLION) {
            whole++;
            millionths = 0;
        }
    }
    char digits[20];
    size_t n = 0;
    do {
        digits[sizeof digits - ++n] = (char)('0' + whole % 10u);
        whole /= 10u;
    } while (whole != 0);
    size_t len = 0;
    if (negative) {
        out[len++] = '-';
    }
    memcpy(out + len, digits + sizeof digits - n, n);
    len += n;
    out[len++] = '.';
    for (size_t k = 6; k > 0; k--) {
        out[len + k - 1u] = (char)('0' + millionths % 10u);
        millionths /= 10u;
    }
    len += 6;
    out[len] = '\0';
    return len;
}
