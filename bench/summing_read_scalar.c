/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The floor the targets are shares of: a scalar read that adds every
 * 8-byte word of the buffer, one word per step. It lives in its own file,
 * built without the compiler's vectoriser (bench/CMakeLists.txt), because
 * at -O3 the same loop becomes a SIMD sum that reads two to three times
 * faster in cache: that is a floor no parser that looks at its fields one
 * by one can be compared with, and not the "scalar summing read" the
 * targets are stated against. perfbuf-bench prints the vectorised read
 * beside it.
 */
#include "summing_read_scalar.h"

#include <string.h>

uint64_t summing_read_scalar(const uint8_t *data, size_t len)
{
    uint64_t sum = 0;
    size_t words = len / 8;
    for (size_t i = 0; i < words; i++) {
        uint64_t w;
        memcpy(&w, data + 8 * i, 8);
        sum += w;
    }
    return sum;
}
