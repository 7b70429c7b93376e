/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Field and structure identifiers generated from layout.def. */
#ifndef PERFBUF_LAYOUT_H
#define PERFBUF_LAYOUT_H

#include <stdint.h>

typedef struct pb_field {
    const char *structure;
    const char *name;
    uint32_t offset;
    uint32_t width;
} pb_field;

/* PBF_<struct>_<field>: index into pb_fields. */
typedef enum pb_field_id {
#define PB_STRUCT(s, size)
#define PB_FIELD(s, f, off, width) PBF_##s##_##f,
#include "core/layout.def"
#undef PB_STRUCT
#undef PB_FIELD
    PB_FIELD_COUNT
} pb_field_id;

/* PBO_<struct>_<field>: the field's offset inside its structure. */
enum pb_field_offset {
#define PB_STRUCT(s, size)
#define PB_FIELD(s, f, off, width) PBO_##s##_##f = (off),
#include "core/layout.def"
#undef PB_STRUCT
#undef PB_FIELD
    PBO_UNUSED_
};

/* PBS_<struct>: the structure's size. */
enum pb_struct_size {
#define PB_STRUCT(s, size) PBS_##s = (size),
#define PB_FIELD(s, f, off, width)
#include "core/layout.def"
#undef PB_STRUCT
#undef PB_FIELD
    PBS_UNUSED_
};

extern const pb_field pb_fields[PB_FIELD_COUNT];

#endif
