/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A 64-bit mixer: a bijection whose every operation stays inside 64 bits
 * without wrapping, so the sanitizers' unsigned-overflow checks
 * (ci/test.sh builds with -fsanitize=integer) hold here as everywhere.
 * Used where a value must change with every bit of its input: the identity
 * of a V1 parse (v1/block.c) and the pairing keys' hashes
 * (collector/pair_keys.c).
 */
#ifndef PERFBUF_CORE_MIX_H
#define PERFBUF_CORE_MIX_H

#include <stddef.h>
#include <stdint.h>

#include "core/le_load.h"
#include "core/work.h"

/* The hashes work on 32-bit lanes whose products fit 64 bits, reduced by
 * this mask. */
#define PB_MIX_LANE 0xFFFFFFFFu

/* A 32-bit finalizer (the avalanche step of MurmurHash3's fmix32). */
/*@ assigns \nothing; */
static inline uint64_t pb_mix_fmix32(uint64_t h)
{
    h ^= h >> 16;
    h = (h * 0x85EBCA6Bu) & PB_MIX_LANE;
    h ^= h >> 13;
    h = (h * 0xC2B2AE35u) & PB_MIX_LANE;
    h ^= h >> 16;
    return h;
}

/*@ assigns \nothing; */
static inline uint64_t pb_mix64(uint64_t x)
{
    uint64_t lo = pb_mix_fmix32(x & PB_MIX_LANE);
    uint64_t hi = pb_mix_fmix32((x >> 32) ^ lo);
    lo = pb_mix_fmix32(lo ^ hi ^ 0x9E3779B9u);
    return hi << 32 | lo;
}

/*
 * A running hash of bytes, 8 at a time on two 32-bit lanes (the low and the
 * high half of each little-endian word), cheap enough to run over every
 * instance definition of a V1 parse: each step is a bijection of the lane
 * for a given input and of the input for a given lane, so a single changed
 * word always changes the state. Not made to resist a pair of inputs
 * crafted to collide: it tells captures apart, it does not authenticate.
 */
typedef struct pb_mix_lanes {
    uint64_t low;
    uint64_t high;
} pb_mix_lanes;

/*@ requires \valid(m);
    assigns *m;
*/
static inline void pb_mix_lanes_word(pb_mix_lanes *m, uint64_t word)
{
    m->low = ((m->low ^ (word & PB_MIX_LANE)) * 0x9E3779B1u) & PB_MIX_LANE;
    m->high = ((m->high ^ (word >> 32)) * 0x85EBCA77u) & PB_MIX_LANE;
}

/* n bytes at p, which the caller's cursor handed out (pb_cursor_take). */
/*@ requires \valid(m);
    requires \valid_read(p + (0 .. n - 1));
    assigns *m;
*/
static inline void pb_mix_lanes_bytes(pb_mix_lanes *m, const uint8_t *p, size_t n)
{
    PB_WORK(n / 8 + 1); /* a step a word, counted as the cursor counts its reads */
    size_t i = 0;
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, *m;
        loop variant n - i;
    */
    for (; n - i >= 8; i += 8) {
        pb_mix_lanes_word(m, pb_le64(p + i));
    }
    if (i < n) {
        uint64_t tail = 0;
        /*@ loop invariant 0 <= k && i + k <= n;
            loop assigns k, tail;
            loop variant n - i - k;
        */
        for (unsigned k = 0; i + k < n; k++) {
            tail |= (uint64_t)p[i + k] << (8 * k);
        }
        pb_mix_lanes_word(m, tail ^ (uint64_t)(n - i) << 56);
    }
}

/*@ requires \valid_read(m);
    assigns \nothing;
*/
static inline uint64_t pb_mix_lanes_value(const pb_mix_lanes *m)
{
    return pb_mix64(m->high << 32 | m->low);
}

#endif
