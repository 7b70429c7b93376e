/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The scalar summing read: the floor of the targets (summing_read_scalar.c). */
#ifndef PERFBUF_BENCH_SUMMING_READ_SCALAR_H
#define PERFBUF_BENCH_SUMMING_READ_SCALAR_H

#include <stddef.h>
#include <stdint.h>

uint64_t summing_read_scalar(const uint8_t *data, size_t len);

/* One 8-byte load every `stride` bytes, in order: the least any walk that
 * finds each instance must fetch (the scaling table's lower bound). */
uint64_t one_load_per_stride(const uint8_t *data, size_t len, size_t stride);

#endif
