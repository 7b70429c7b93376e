/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Decoding shared by the V2 query-data reader and the V2 metadata readers. */
#ifndef PERFBUF_V2_INTERNAL_H
#define PERFBUF_V2_INTERNAL_H

#include "perfbuf/v2_query.h"
#include "check.h"

/* A PERF_INSTANCE_HEADER block (header, NUL-terminated UTF-16LE name,
 * padding) followed by value_count PERF_COUNTER_DATA blocks. */
perfbuf_status pb_v2_read_instance(pb_ctx *ctx, pb_cursor *region, uint32_t value_count,
                                   perfbuf_v2_instance *out);

/* A little-endian u32 at p, for views reading bytes the cursor has handed
 * out (pb_cursor_take) after validation proved their layout. */
static inline uint32_t pb_v2_load32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#endif
