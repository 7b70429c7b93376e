/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Builds well-formed performance buffers in memory for tests, seeds and
 * benchmarks. Test code only: it allocates and exits on allocation failure.
 */
#ifndef PERFBUF_TEST_BUILDER_H
#define PERFBUF_TEST_BUILDER_H

#include <stddef.h>
#include <stdint.h>

typedef struct tb_buf {
    uint8_t *data;
    size_t len;
    size_t cap;
} tb_buf;

void tb_init(tb_buf *b);
void tb_free(tb_buf *b);
void tb_bytes(tb_buf *b, const void *data, size_t n);
void tb_u8(tb_buf *b, uint8_t v);
void tb_u16(tb_buf *b, uint16_t v);
void tb_u32(tb_buf *b, uint32_t v);
void tb_u64(tb_buf *b, uint64_t v);
void tb_zeros(tb_buf *b, size_t n);
/* Zero bytes up to the next multiple of 8, counted from `origin`. */
void tb_pad8_from(tb_buf *b, size_t origin);
void tb_patch_u32(tb_buf *b, size_t at, uint32_t v);
uint32_t tb_get_u32(const tb_buf *b, size_t at);
/* UTF-8 text as UTF-16LE code units, surrogate pairs above U+FFFF;
 * with_nul appends a NUL unit. Returns the bytes written. */
size_t tb_utf16(tb_buf *b, const char *utf8, int with_nul);

/* ---- PerfLib V2 query data ---- */

typedef struct tb_v2 {
    tb_buf buf;
    uint32_t blocks;
    size_t block_start;
    size_t list_start;
} tb_v2;

/* Header with PerfTimeStamp, PerfTime100NSec, PerfFreq and a fixed
 * SystemTime (2026-11-22 10:00:00.000). */
void tb_v2_begin(tb_v2 *v, int64_t stamp, int64_t time_100ns, int64_t freq);
void tb_v2_block_begin(tb_v2 *v, uint32_t status, uint32_t kind);
void tb_v2_block_end(tb_v2 *v);
/* PERF_MULTI_COUNTERS + ids, padded to 8. */
void tb_v2_ids(tb_v2 *v, const uint32_t *ids, uint32_t count);
/* PERF_COUNTER_DATA with `size` value bytes, padded to 8. */
void tb_v2_value(tb_v2 *v, const void *value, uint32_t size);
void tb_v2_u32(tb_v2 *v, uint32_t value);
void tb_v2_u64(tb_v2 *v, uint64_t value);
void tb_v2_instances_begin(tb_v2 *v, uint32_t count);
void tb_v2_instances_end(tb_v2 *v);
void tb_v2_instance(tb_v2 *v, uint32_t id, const char *utf8_name);
/* Patches dwTotalSize and dwNumCounters; the buffer is then complete. */
void tb_v2_end(tb_v2 *v);

/* A buffer with one block of each of the five kinds (464 bytes). */
tb_v2 tb_v2_sample_all_kinds(void);

#endif
