/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Builds well-formed V1 data blocks (test code: allocates, exits on failure). */
#ifndef PERFBUF_TEST_BUILDER_V1_H
#define PERFBUF_TEST_BUILDER_V1_H

#include "builder.h"

typedef struct tb_v1 {
    tb_buf buf;
    uint32_t objects;
    size_t object_start;
    uint32_t counters;
    uint32_t instances;
    uint32_t code_page;
    int single;
} tb_v1;

/* PERF_DATA_BLOCK with the system name right after it, padded to 8. */
void tb_v1_begin(tb_v1 *v, const char *system_name);
/* single: NumInstances -1; otherwise it counts the instances written. */
void tb_v1_object_begin(tb_v1 *v, uint32_t title_index, int single, uint32_t code_page);
void tb_v1_counter(tb_v1 *v, uint32_t title_index, uint32_t type, uint32_t size, uint32_t offset);
void tb_v1_definitions_end(tb_v1 *v);
/* Instance definition with its name (UTF-16 when the object's code page is
 * 0, the bytes as given otherwise), NUL, padded to 8. */
void tb_v1_instance(tb_v1 *v, const char *name, uint32_t parent_title, uint32_t parent_instance);
/* PERF_COUNTER_BLOCK: ByteLength, then `data` as the bytes from offset 4. */
void tb_v1_counter_block(tb_v1 *v, const uint8_t *data, uint32_t size);
void tb_v1_object_end(tb_v1 *v);
void tb_v1_end(tb_v1 *v);

enum { TB_V1_PROCESS = 230, TB_V1_THREAD = 232, TB_V1_MEMORY = 4 };
tb_v1 tb_v1_sample_global(void);
/* The same block of another computer (system name). */
tb_v1 tb_v1_sample_global_of(const char *system_name);

/* Little-endian stores into a counter block's data (offsets as in
 * CounterOffset, i.e. counting the 4-byte ByteLength). */
void tb_put32(uint8_t *block_data, uint32_t counter_offset, uint32_t v);
void tb_put64(uint8_t *block_data, uint32_t counter_offset, uint64_t v);

#endif
