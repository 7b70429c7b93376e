/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The scalar summing read: the floor of the targets (summing_read_scalar.c). */
#ifndef PERFBUF_BENCH_SUMMING_READ_SCALAR_H
#define PERFBUF_BENCH_SUMMING_READ_SCALAR_H

#include <stddef.h>
#include <stdint.h>

uint64_t summing_read_scalar(const uint8_t *data, size_t len);

#endif
