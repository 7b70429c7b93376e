/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A formatted value as the outputs write it: printf's "%.6f", the same
 * bytes, without going through printf. printf converts a double through
 * arbitrary-precision arithmetic, which was most of what --rate, --series
 * and --csv cost per value; a value below 2^63 in magnitude needs no more
 * than 128-bit integers to be rounded exactly (docs/cli.md, "Cost").
 */
#ifndef PERFBUF_DUMP_DECIMAL_H
#define PERFBUF_DUMP_DECIMAL_H

#include <stddef.h>

/* Room for any answer, its NUL included: what the outputs always gave
 * snprintf, so a value of 58 or more integer digits is cut as before. */
#define DUMP_DECIMAL_BYTES 64

/*
 * Writes v as snprintf(out, DUMP_DECIMAL_BYTES, "%.6f", v) writes it with a
 * correctly rounded printf (glibc's; the C standard's recommended practice):
 * six decimals, the exact value of v rounded half to even, a '-' for any
 * negative v (so -0.0 and a negative value that rounds to zero give
 * "-0.000000"). Values of magnitude 2^63 or more, infinities and NaN are
 * given to snprintf itself. Returns the length written, NUL excluded.
 */
size_t dump_decimal6(double v, char out[DUMP_DECIMAL_BYTES]);

#endif
