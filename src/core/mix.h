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

#include <stdint.h>

/* The hashes work on 32-bit lanes whose products fit 64 bits, reduced by
 * this mask. */
#define PB_MIX_LANE 0xFFFFFFFFu

/* A 32-bit finalizer (the avalanche step of MurmurHash3's fmix32). */
static inline uint64_t pb_mix_fmix32(uint64_t h)
{
    h ^= h >> 16;
    h = (h * 0x85EBCA6Bu) & PB_MIX_LANE;
    h ^= h >> 13;
    h = (h * 0xC2B2AE35u) & PB_MIX_LANE;
    h ^= h >> 16;
    return h;
}

static inline uint64_t pb_mix64(uint64_t x)
{
    uint64_t lo = pb_mix_fmix32(x & PB_MIX_LANE);
    uint64_t hi = pb_mix_fmix32((x >> 32) ^ lo);
    lo = pb_mix_fmix32(lo ^ hi ^ 0x9E3779B9u);
    return hi << 32 | lo;
}

#endif
