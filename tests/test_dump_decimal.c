/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * perfbuf-dump's "%.6f" without printf (tools/dump/decimal.c) writes the
 * bytes snprintf writes: on the values where rounding is decided (exact
 * halves of 10^-6, neighbours of a carry into the integer part, the
 * boundaries of its 128-bit arithmetic and of its fallback to snprintf,
 * subnormals, signed zeros) and on some 210,000 pseudo-random doubles
 * of every magnitude. The outputs' formatted values are only as unchanged as
 * this comparison says.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "decimal.h"

static unsigned long failures;
static unsigned long checked;

static void check(double v)
{
    char want[DUMP_DECIMAL_BYTES];
    char got[DUMP_DECIMAL_BYTES];
    memset(got, 'x', sizeof got);
    snprintf(want, sizeof want, "%.6f", v);
    size_t len = dump_decimal6(v, got);
    checked++;
    if (strcmp(want, got) != 0 || len != strlen(want)) {
        if (failures < 20) {
            uint64_t bits;
            memcpy(&bits, &v, sizeof bits);
            printf("FAIL %a (bits %016llx): snprintf '%s', dump_decimal6 '%.*s' (length %zu)\n",
                   v, (unsigned long long)bits, want, (int)sizeof got, got, len);
        }
        failures++;
    }
}

/* v and its neighbours, both signs. */
static void around(double v)
{
    double below = nextafter(v, 0.0);
    double above = nextafter(v, HUGE_VAL);
    const double each[3] = {below, v, above};
    for (int k = 0; k < 3; k++) {
        check(each[k]);
        check(-each[k]);
    }
}

static uint64_t state = UINT64_C(0x9E3779B97F4A7C15);

/* xorshift64: reproducible pseudo-random bits, each left shift masked
 * first so that no bit is shifted out (the tests run under clang's
 * -fsanitize=integer, which refuses a wrap). */
static uint64_t next_bits(void)
{
    state ^= (state & (UINT64_MAX >> 13)) << 13;
    state ^= state >> 7;
    state ^= (state & (UINT64_MAX >> 17)) << 17;
    return state;
}

static double from_bits(uint64_t bits)
{
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

int main(void)
{
    check(0.0);
    check(-0.0);
    check(DBL_MIN);
    check(-DBL_MIN);
    check(from_bits(1));          /* the least subnormal */
    check(DBL_MAX);               /* printf's own, cut at 63 bytes */
    check(-DBL_MAX);
    check(HUGE_VAL);
    check(-HUGE_VAL);
    check((double)NAN);
    /* The fallback's boundary, 2^63, and the largest doubles below it. */
    around(9223372036854775808.0);
    around(9223372036854774784.0);
    around(4503599627370496.0);   /* 2^52: the last with a fraction bit */
    around(9007199254740992.0);   /* 2^53 */
    /* Exact halves of 10^-6 that a double holds (k / 2^n with 10^6 * k /
     * 2^n ending in .5), whose rounding goes to the even neighbour. */
    for (int n = 1; n <= 80; n++) {
        for (uint64_t k = 1; k < 64; k += 2) {
            around(ldexp((double)k, -n));
        }
    }
    /* Carries: x.9999995 and the like, and every k * 10^-6 near powers of
     * two and ten. */
    for (int p = -30; p <= 62; p++) {
        double base = ldexp(1.0, p);
        around(base);
        around(base - 5e-7);
        around(base + 5e-7);
        around(base - 1e-6);
    }
    for (uint64_t k = 0; k < 3000000; k += 997) {
        around((double)k / 1e6);
        around((double)k + 0.5e-6);
        around((double)k + 0.9999995);
    }
    /* Fractions of 64 to 75 binary places, where the arithmetic changes
     * representation, and 1074 (the subnormals). */
    for (int s = 60; s <= 80; s++) {
        for (int k = 0; k < 200; k++) {
            around(ldexp((double)(next_bits() >> 11), -s));
        }
    }
    /* Random doubles: every bit pattern, and magnitudes below 2^63 where
     * the formatting is the tool's own. */
    for (int k = 0; k < 100000; k++) {
        if (k % 8 == 0) {
            check(from_bits(next_bits()));
        }
        uint64_t bits = next_bits();
        uint64_t exponent = (bits >> 52 & 0x7FFu) % (1023u + 63u + 1u);
        check(from_bits((bits & ~(UINT64_C(0x7FF) << 52)) | exponent << 52));
    }
    /* Values the formulas give: ratios of counts and times. */
    for (int k = 0; k < 50000; k++) {
        double num = (double)(next_bits() >> 20);
        double den = (double)((next_bits() >> 40) + 1u);
        check(num / den);
        check(100.0 * den / (num + 1.0));
    }
    printf("%lu values, %lu differ\n", checked, failures);
    return failures == 0 ? 0 : 1;
}
