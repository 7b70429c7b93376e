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

/*
 * Beside the floor, the least a walk over instances must do: one load per
 * instance, at the instances' mean stride. Out of cache the hardware
 * prefetcher still streams every line between the loads, so this shows
 * what fetching the instances' bytes costs whatever the instructions.
 */
uint64_t one_load_per_stride(const uint8_t *data, size_t len, size_t stride)
{
    uint64_t sum = 0;
    if (stride < 8) {
        stride = 8;
    }
    for (size_t at = 0; len >= 8 && at <= len - 8; at += stride) {
        uint64_t w;
        memcpy(&w, data + at, 8);
        sum += w;
    }
    return sum;
}
