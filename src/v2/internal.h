/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Decoding shared by the V2 query-data reader and the V2 metadata readers. */
#ifndef PERFBUF_V2_INTERNAL_H
#define PERFBUF_V2_INTERNAL_H

#include "perfbuf/v2_query.h"
#include "core/check.h"
#include "core/le_load.h"

/* A PERF_INSTANCE_HEADER block (header, NUL-terminated UTF-16LE name,
 * padding) followed by value_count PERF_COUNTER_DATA blocks. */
perfbuf_status pb_v2_read_instance(pb_ctx *ctx, pb_cursor *region, uint32_t value_count,
                                   perfbuf_v2_instance *out);

/*
 * The position of key among n u32 keys that ascend, the key of entry i at
 * byte first + i * stride of data (entries the parse proved inside it).
 * Ascending ids are most often consecutive (0, 1, 2, ... or from any
 * start), so the position key - first key is tried before the binary
 * search: one read for such a set, log2(n) otherwise.
 */
bool pb_v2_find_ascending(const uint8_t *data, size_t size, size_t first, size_t stride,
                          uint32_t n, uint32_t key, uint32_t *position);

/* A GUID's 16 bytes at p: Data1, Data2, Data3 little-endian, then Data4. */
static inline perfbuf_guid pb_v2_load_guid(const uint8_t *p)
{
    perfbuf_guid g;
    g.data1 = pb_le32(p);
    g.data2 = (uint16_t)(p[4] | p[5] << 8);
    g.data3 = (uint16_t)(p[6] | p[7] << 8);
    for (size_t i = 0; i < sizeof g.data4; i++) {
        g.data4[i] = p[8 + i];
    }
    return g;
}

#endif
