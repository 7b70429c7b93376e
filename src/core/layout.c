/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "core/layout.h"

const pb_field pb_fields[PB_FIELD_COUNT] = {
#define PB_STRUCT(s, size)
#define PB_FIELD(s, f, off, width) {#s, #f, (off), (width)},
#include "core/layout.def"
#undef PB_STRUCT
#undef PB_FIELD
};

/* A field that does not fit in its structure is a typo in layout.def; stop
 * the build rather than read it. */
#define PB_STRUCT(s, size)
#define PB_FIELD(s, f, off, width) \
    _Static_assert((off) + (width) <= PBS_##s, #s "." #f " lies outside " #s);
#include "core/layout.def"
#undef PB_STRUCT
#undef PB_FIELD
