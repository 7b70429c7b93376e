/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Keys of instances for pairing two captures (src/collector/pair_keys.c). A name is
 * recorded in one slot as its offset in the buffer, its encoding and its
 * length; buffers of both formats are at most 4 GiB (a u32 total size).
 */
#ifndef PERFBUF_PAIR_KEYS_H
#define PERFBUF_PAIR_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* No name (an instance without parent); a name that never pairs. */
#define PB_KEY_NO_NAME 0u
#define PB_KEY_UNPAIRABLE UINT64_MAX

/* Tests narrow the hashes to force collisions (tests/test_collector_collide.c);
 * the library keeps all 64 bits. */
#ifndef PB_PAIRING_HASH_MASK
#  define PB_PAIRING_HASH_MASK UINT64_MAX
#endif

uint64_t pb_key_mix(uint64_t x);

/* Records a name of `bytes` bytes at `offset`, in `code_page` (0: UTF-16LE);
 * false when it does not fit a slot. */
bool pb_key_pack_name(size_t offset, size_t bytes, uint32_t code_page, uint64_t *out);

/* A hash of the name's units, ASCII letters folded, and its length. */
uint64_t pb_key_name_hash(const uint8_t *data, size_t size, uint64_t name);

/* Equal unit by unit, ASCII letters folded; names of two encodings, or
 * UNPAIRABLE ones, never. Reads at most the shorter name. */
bool pb_key_names_equal(const uint8_t *da, size_t sa, uint64_t a, const uint8_t *db, size_t sb,
                        uint64_t b);

/* Heapsort of n two-slot records, by slot 0 then slot 1. */
void pb_key_sort_records(uint64_t *v, size_t n);

#endif
