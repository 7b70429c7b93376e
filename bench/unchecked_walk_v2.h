/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* An unchecked V2 query walk, for the benchmark's price-of-safety row. */
#ifndef PERFBUF_BENCH_UNCHECKED_WALK_V2_H
#define PERFBUF_BENCH_UNCHECKED_WALK_V2_H

#include <stdint.h>

/* Sum of every integer value of a V2 query buffer the benchmark built,
 * trusting every size in it. */
uint64_t unchecked_walk_v2(const uint8_t *data);

#endif
