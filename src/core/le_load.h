/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Little-endian decoding of bytes the cursor has already handed out
 * (pb_cursor_take after a bounds-checked pb_cursor_slice or carve), for
 * views and plans reading what validation proved. The bounds are the
 * cursor's, proved in src/core/cursor.h; these only compose bytes already known
 * to be there. They are written with shifts because gcc folds that form
 * into one load and does not fold the cursor's proved `p[0] + 256u * p[1]`
 * form, so a hot read through them costs a load instead of a dozen
 * instructions (bench/README.md).
 */
#ifndef PERFBUF_LE_LOAD_H
#define PERFBUF_LE_LOAD_H

#include <stdint.h>

/*@ requires \valid_read(p + (0 .. 3));
    assigns \nothing;
*/
static inline uint32_t pb_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*@ requires \valid_read(p + (0 .. 7));
    assigns \nothing;
*/
static inline uint64_t pb_le64(const uint8_t *p)
{
    return (uint64_t)pb_le32(p) | (uint64_t)pb_le32(p + 4) << 32;
}

#endif
