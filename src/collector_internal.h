/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * What the pairing leaves in the caller's scratch for the array calls: one
 * slot per newer instance, pairing << 62 | ordinal << 32 | older position.
 * A V1 block is at most 4 GiB and an instance takes at least 40 bytes, so
 * positions and ordinals fit in 27 bits.
 */
#ifndef PERFBUF_COLLECTOR_INTERNAL_H
#define PERFBUF_COLLECTOR_INTERNAL_H

#include <stdint.h>

#include "perfbuf/collector.h"

#define PB_PAIRING_SHIFT 62
#define PB_ORDINAL_MASK UINT64_C(0x3FFFFFFF)

/* The text area the array calls match names in: a parent's and an
 * instance's name as UTF-8 at the longest a path part can be, plus room
 * that shows a name is longer than any path part. */
#define PB_NAME_TEXT_BYTES ((size_t)PERFBUF_PATH_MAX_INSTANCE * 3u + 8u)
#define PB_TEXT_SLOTS ((2u * PB_NAME_TEXT_BYTES + 7u) / 8u)

/* A counter block in one slot (offset << 32 | bytes), as the pairing keeps
 * the older capture's; 0 for none. The library re-checks both against the
 * block when it reads a sample through them. */
static inline uint64_t pb_pack_counter_block(const perfbuf_v1_counter_block *c)
{
    return c->offset > UINT32_MAX ? 0u : (uint64_t)c->offset << 32 | c->byte_length;
}

static inline perfbuf_v1_counter_block pb_unpack_counter_block(uint64_t v)
{
    perfbuf_v1_counter_block c = {(size_t)(v >> 32), (uint32_t)v};
    return c;
}

#endif
