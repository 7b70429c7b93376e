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
#include "core/work.h"

#define PB_PAIRING_SHIFT 62
#define PB_ORDINAL_MASK UINT64_C(0x3FFFFFFF)

/* The text area the array calls match names in: a parent's and an
 * instance's name as UTF-8 at the longest a path part can be, plus room
 * that shows a name is longer than any path part. */
#define PB_NAME_TEXT_BYTES ((size_t)PERFBUF_PATH_MAX_INSTANCE * 3u + 8u)
#define PB_TEXT_SLOTS ((2u * PB_NAME_TEXT_BYTES + 7u) / 8u)

/* A newer instance's slot, V1 or V2; an ordinal too large for its field
 * is stored as none. */
static inline uint64_t pb_pairing_slot(uint32_t pairing, uint64_t ordinal, uint32_t older_index)
{
    uint64_t ord = ordinal >= PB_ORDINAL_MASK ? PB_ORDINAL_MASK : ordinal;
    return (uint64_t)pairing << PB_PAIRING_SHIFT | ord << 32 | older_index;
}

/* The same slot read back: its pairing, its ordinal
 * (PERFBUF_PAIR_NO_ORDINAL for none) and, when matched, the older position;
 * any output may be NULL. */
static inline void pb_read_pairing_slot(uint64_t slot, uint32_t *pairing, uint32_t *ordinal,
                                        uint32_t *older_index)
{
    uint32_t kind = (uint32_t)(slot >> PB_PAIRING_SHIFT);
    uint64_t ord = slot >> 32 & PB_ORDINAL_MASK;
    if (pairing != NULL) {
        *pairing = kind;
    }
    if (ordinal != NULL) {
        *ordinal = ord == PB_ORDINAL_MASK ? PERFBUF_PAIR_NO_ORDINAL : (uint32_t)ord;
    }
    if (older_index != NULL) {
        *older_index = kind == PERFBUF_PAIR_MATCHED ? (uint32_t)slot : 0u;
    }
}

/* A caller's memory range: start and length in bytes (NULL, 0: none). */
typedef struct pb_region {
    const void *start;
    size_t bytes;
} pb_region;

/* Whether two ranges share a byte: compared as addresses, since they may be
 * separate objects (the caller's output and the pairing's scratch). */
static inline bool pb_regions_overlap(pb_region a, pb_region b)
{
    if (a.start == NULL || b.start == NULL || a.bytes == 0 || b.bytes == 0) {
        return false;
    }
    uintptr_t a0 = (uintptr_t)a.start, b0 = (uintptr_t)b.start;
    return a0 < b0 ? b0 - a0 < a.bytes : a0 - b0 < b.bytes;
}

/* The bytes a name conversion that ran out of room left in a
 * PB_NAME_TEXT_BYTES text area, up to their NUL: the text contract answers
 * a size that is enough, not what it wrote (perfbuf/text.h). */
static inline size_t pb_cut_name_bytes(const char *text)
{
    size_t written = 0;
    while (written < PB_NAME_TEXT_BYTES && text[written] != '\0') {
        PB_WORK(1);
        written++;
    }
    return written;
}

/* A counter block in one slot (offset << 32 | bytes), as the pairing keeps
 * the older capture's; 0 for none. The slot has no room for the parse's
 * identity: unpacking takes it from the block the pairing read, and a value
 * read still checks that a ByteLength of that length starts there. */
static inline uint64_t pb_pack_counter_block(const perfbuf_v1_counter_block *c)
{
    return c->offset > UINT32_MAX ? 0u : (uint64_t)c->offset << 32 | c->byte_length;
}

static inline perfbuf_v1_counter_block pb_unpack_counter_block(uint64_t v,
                                                               const perfbuf_v1_block *from)
{
    perfbuf_v1_counter_block c = {(size_t)(v >> 32), (uint32_t)v, from->parse_id};
    return c;
}

/* A raw sample in PB_V2_SAMPLE_SLOTS slots of the pairing's scratch, with
 * a flag saying whether one was stored. */
#define PB_V2_SAMPLE_SLOTS 5u
#define PB_SAMPLE_PRESENT (UINT64_C(1) << 63)

static inline void pb_store_sample(uint64_t *slots, const perfbuf_raw_sample *s)
{
    slots[0] = (uint64_t)s->type << 32 | s->status;
    slots[1] = s->first;
    slots[2] = s->second;
    slots[3] = PB_SAMPLE_PRESENT | s->multi;
    slots[4] = (uint64_t)s->time_stamp;
}

static inline bool pb_load_sample(const uint64_t *slots, perfbuf_raw_sample *s)
{
    if ((slots[3] & PB_SAMPLE_PRESENT) == 0) {
        return false;
    }
    s->status = (uint32_t)slots[0];
    s->type = (uint32_t)(slots[0] >> 32);
    s->first = slots[1];
    s->second = slots[2];
    s->multi = (uint32_t)slots[3];
    s->time_stamp = (int64_t)slots[4];
    return true;
}

/* "#N" for an ordinal N > 0 (PDH's arrays name duplicates so); nothing
 * for 0 or an unknown ordinal. At most "#" and 10 digits. */
static inline size_t pb_ordinal_suffix_bytes(uint32_t ordinal)
{
    if (ordinal == 0 || ordinal == PERFBUF_PAIR_NO_ORDINAL) {
        return 0;
    }
    size_t n = 1;
    for (uint32_t v = ordinal; v != 0; v /= 10) {
        n++;
    }
    return n;
}

static inline void pb_write_ordinal_suffix(char *out, uint32_t ordinal, size_t bytes)
{
    if (bytes == 0) {
        return;
    }
    out[0] = '#';
    for (size_t i = bytes - 1; i > 0; i--) {
        out[i] = (char)('0' + ordinal % 10);
        ordinal /= 10;
    }
}


#endif
