/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A V1 walk with no checks at all, for the benchmark only: the cost of
 * reading every value when every size in the buffer is trusted. Never use
 * it on bytes that were not produced by the benchmark itself.
 */
#ifndef PERFBUF_BENCH_UNCHECKED_WALK_H
#define PERFBUF_BENCH_UNCHECKED_WALK_H

#include <stddef.h>
#include <stdint.h>

/* The sum of every 4- and 8-byte counter value of every counter block. */
uint64_t unchecked_v1_sum_values(const uint8_t *data);

#endif
