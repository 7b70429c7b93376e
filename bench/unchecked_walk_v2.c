/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The price of safety, for the benchmark only: a walk of V2 query data
 * the way an unchecked reader does it, trusting every size and count in
 * the buffer (no bounds, no validation). It is only ever given buffers the
 * benchmark built itself; never use it on received data.
 */
#include "unchecked_walk_v2.h"

#include <string.h>

static uint32_t u32_at(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4); /* the benchmark runs on little-endian hosts */
    return v;
}

static uint64_t u64_at(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* count PERF_COUNTER_DATA from p: the sum of their integer values. */
static const uint8_t *sum_values(const uint8_t *p, uint32_t count, uint64_t *sum)
{
    for (uint32_t i = 0; i < count; i++) {
        uint32_t data_size = u32_at(p);
        uint32_t size = u32_at(p + 4);
        if (data_size == 8) {
            *sum += u64_at(p + 8);
        } else if (data_size == 4) {
            *sum += u32_at(p + 8);
        }
        p += size;
    }
    return p;
}

uint64_t unchecked_walk_v2(const uint8_t *data)
{
    uint64_t sum = 0;
    uint32_t blocks = u32_at(data + 4);
    const uint8_t *block = data + 48;
    for (uint32_t b = 0; b < blocks; b++) {
        uint32_t kind = u32_at(block + 4);
        uint32_t size = u32_at(block + 8);
        const uint8_t *p = block + 16;
        uint32_t counters = kind == 0 ? 0 : 1;
        if (kind == 2 || kind == 6) {
            uint32_t list_size = u32_at(p);
            counters = u32_at(p + 4);
            p += (list_size + 7) & ~7u;
        }
        if (kind == 4 || kind == 6) {
            uint32_t instances = u32_at(p + 4);
            p += 8;
            for (uint32_t i = 0; i < instances; i++) {
                p = sum_values(p + u32_at(p), counters, &sum);
            }
        } else {
            (void)sum_values(p, counters, &sum);
        }
        block += size;
    }
    return sum;
}
