/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The oracle of the V2 query-data reader, shared by fuzz/fuzz_v2_query.c
 * (byte-level mutation) and fuzz/fuzz_v2_query_structured.c (structure-aware
 * mutation), so that both check exactly the same. Beyond "no crash":
 *   - a rejection names an offset inside the input and a structure and field;
 *   - a strict success is a lenient success with no anomaly;
 *   - after a success every view lies inside the input, every accessor
 *     works, and a second walk sees exactly what the first one saw;
 *   - views equal validation: the views read fixed offsets without judging
 *     the bytes again, so an independent walk of every accepted buffer,
 *     decoding each structure from its bytes as docs/formats.md lays it
 *     out, must find every block, id, instance, name and value field (and
 *     perfbuf_v2_values_read's array, and perfbuf_v2_block_read_all's
 *     matrix row by row) exactly where the views say;
 *   - every call stays within its work budget and each whole walk within
 *     the walk budget (docs/linear-time.md).
 */
#ifndef PERFBUF_FUZZ_ORACLE_V2_QUERY_H
#define PERFBUF_FUZZ_ORACLE_V2_QUERY_H

#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "perfbuf/v2_query.h"

typedef struct digest {
    uint64_t blocks, instances, values, integers, name_bytes;
} digest;

static void walk_values(const perfbuf_v2_query *q, const perfbuf_v2_block *b, perfbuf_v2_iter *it,
                        const uint8_t *data, size_t size, digest *d)
{
    perfbuf_v2_value v;
    bool more;
    for (;;) {
        BUDGETED(size, more = perfbuf_v2_values_next(q, b, it, &v));
        if (!more) {
            break;
        }
        ORACLE(oracle_inside(v.offset, 8, size));
        ORACLE(oracle_ptr_inside(v.bytes, v.data_size, data, size));
        ORACLE(v.is_integer == (v.data_size == 4 || v.data_size == 8));
        d->values++;
        d->integers ^= v.integer;
    }
}

/* Every view, every name and every value: each value is a structure of
 * its own in the buffer, so the whole walk is linear and has the walk
 * budget too. */
static digest walk(const perfbuf_v2_query *q, const uint8_t *data, size_t size)
{
    digest d;
    memset(&d, 0, sizeof d);
    perfbuf_v2_iter bi;
    perfbuf_v2_block b;
    bool more;
    BUDGETED(size, perfbuf_v2_blocks_begin(q, &bi));
    for (;;) {
        BUDGETED(size, more = perfbuf_v2_blocks_next(q, &bi, &b));
        if (!more) {
            break;
        }
        ORACLE(oracle_inside(b.offset, b.size, q->size));
        ORACLE(b.index == d.blocks);
        d.blocks++;
        for (uint32_t i = 0; i < b.counter_count && i < 64; i++) {
            uint32_t id;
            BUDGETED(size, id = perfbuf_v2_block_counter_id(q, &b, i));
            d.integers ^= id;
        }
        perfbuf_v2_iter vi;
        BUDGETED(size, perfbuf_v2_block_values_begin(&b, &vi));
        walk_values(q, &b, &vi, data, size, &d);
        perfbuf_v2_iter ii;
        perfbuf_v2_instance inst;
        BUDGETED(size, perfbuf_v2_instances_begin(&b, &ii));
        for (;;) {
            BUDGETED(size, more = perfbuf_v2_instances_next(q, &b, &ii, &inst));
            if (!more) {
                break;
            }
            ORACLE(oracle_inside(inst.offset, inst.size, size));
            ORACLE(oracle_inside(inst.name_offset, inst.name_units * 2 + 2, size));
            char name[256];
            size_t len = 0;
            perfbuf_status st;
            BUDGETED(size + sizeof name,
                     st = perfbuf_v2_instance_name_utf8(q, &inst, name, sizeof name, &len));
            ORACLE(oracle_text_status(st));
            ORACLE(strlen(name) <= len && strlen(name) < sizeof name);
            d.name_bytes += len;
            uint16_t units[64];
            size_t unit_count = 0;
            BUDGETED(size + sizeof units,
                     st = perfbuf_v2_instance_name_utf16(q, &inst, units, 64, &unit_count));
            ORACLE(unit_count == inst.name_units);
            ORACLE(st == (inst.name_units <= 64 ? PERFBUF_OK : PERFBUF_E_OUTPUT_TOO_SMALL));
            d.instances++;
            BUDGETED(size, perfbuf_v2_instance_values_begin(&inst, &vi));
            walk_values(q, &b, &vi, data, size, &d);
        }
        ORACLE(d.instances <= size);
    }
    ORACLE(d.blocks == q->block_count);
    return d;
}

/* ---- the view-equals-validation oracle ---- */

/* A field of the accepted buffer; a read outside it is itself a failure. */
static uint32_t ref_u32(const uint8_t *data, size_t size, size_t off)
{
    ORACLE(oracle_inside(off, 4, size));
    return (uint32_t)data[off] | (uint32_t)data[off + 1] << 8 | (uint32_t)data[off + 2] << 16 |
           (uint32_t)data[off + 3] << 24;
}

static uint64_t ref_u64(const uint8_t *data, size_t size, size_t off)
{
    return (uint64_t)ref_u32(data, size, off) | (uint64_t)ref_u32(data, size, off + 4) << 32;
}

static size_t ref_pad8(size_t n)
{
    return (8 - n % 8) % 8;
}

/* count PERF_COUNTER_DATA from pos against the value iterator and the bulk
 * read; returns the offset after the last. */
static size_t ref_values(const perfbuf_v2_query *q, const perfbuf_v2_block *b,
                         const perfbuf_v2_instance *inst, size_t pos, size_t end,
                         const uint8_t *data, size_t size)
{
    perfbuf_v2_iter it;
    if (inst != NULL) {
        perfbuf_v2_instance_values_begin(inst, &it);
    } else {
        perfbuf_v2_block_values_begin(b, &it);
    }
    uint32_t count = inst != NULL ? b->counter_count
                                  : (b->kind == PERFBUF_V2_MULTIPLE_INSTANCES ||
                                     b->kind == PERFBUF_V2_COUNTERSET)
                                        ? 0
                                        : b->counter_count;
    ORACLE(it.count == count);
    uint64_t *bulk = malloc(sizeof *bulk * ((size_t)count + 1));
    ORACLE(bulk != NULL);
    perfbuf_v2_values_read_result read;
    perfbuf_status st_read;
    BUDGETED(size, st_read = perfbuf_v2_values_read(q, b, inst, bulk, count, &read));
    ORACLE(st_read == PERFBUF_OK);
    ORACLE(read.count == count);
    uint32_t non_integers = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t data_size = ref_u32(data, size, pos);
        uint32_t vsize = ref_u32(data, size, pos + 4);
        ORACLE(vsize >= 8 && oracle_inside(pos, vsize, end) && data_size <= vsize - 8);
        perfbuf_v2_value v;
        ORACLE(perfbuf_v2_values_next(q, b, &it, &v));
        ORACLE(v.index == i && v.offset == pos && v.data_size == data_size);
        ORACLE(v.bytes == (data_size > 0 ? data + pos + 8 : NULL));
        uint32_t id = PERFBUF_V2_NO_COUNTER_ID;
        if (b->kind == PERFBUF_V2_MULTIPLE_COUNTERS || b->kind == PERFBUF_V2_COUNTERSET) {
            id = ref_u32(data, size, b->ids_offset + (size_t)i * 4);
        }
        ORACLE(v.counter_id == id);
        uint64_t integer = data_size == 8   ? ref_u64(data, size, pos + 8)
                           : data_size == 4 ? ref_u32(data, size, pos + 8)
                                            : 0;
        ORACLE(v.is_integer == (data_size == 4 || data_size == 8));
        ORACLE(v.integer == integer && bulk[i] == integer);
        non_integers += v.is_integer ? 0 : 1;
        pos += vsize;
    }
    ORACLE(read.non_integers == non_integers);
    perfbuf_v2_value past;
    ORACLE(!perfbuf_v2_values_next(q, b, &it, &past));
    free(bulk);
    return pos;
}

static void ref_instance(const perfbuf_v2_query *q, const perfbuf_v2_block *b, size_t *pos,
                         size_t end, uint32_t index, perfbuf_v2_iter *ii, perfbuf_v2_iter *with,
                         const uint8_t *data, size_t size)
{
    size_t at = *pos;
    uint32_t isize = ref_u32(data, size, at);
    uint32_t id = ref_u32(data, size, at + 4);
    ORACLE(isize >= 10 && oracle_inside(at, isize, end));
    size_t units = 0;
    for (;;) {
        size_t unit = at + 8 + units * 2;
        ORACLE(oracle_inside(unit, 2, at + isize));
        if ((data[unit] | data[unit + 1]) == 0) {
            break;
        }
        units++;
    }
    perfbuf_v2_instance inst;
    ORACLE(perfbuf_v2_instances_next(q, b, ii, &inst));
    ORACLE(inst.index == index && inst.id == id && inst.offset == at && inst.size == isize);
    ORACLE(inst.name_offset == at + 8 && inst.name_units == units);
    ORACLE(inst.values_offset == at + isize && inst.value_count == b->counter_count);
    *pos = ref_values(q, b, &inst, at + isize, end, data, size);
    /* The one-pass iterator: the same instance, and the same values as the
     * bulk read that ref_values compared with the bytes. */
    size_t cap = (size_t)b->counter_count + 1;
    uint64_t *values = malloc(sizeof *values * cap);
    uint64_t *again = malloc(sizeof *again * cap);
    ORACLE(values != NULL && again != NULL);
    perfbuf_v2_instance same;
    perfbuf_v2_values_read_result read, read_again;
    perfbuf_status st_next;
    BUDGETED(size, st_next = perfbuf_v2_instances_next_values(q, b, with, &same, values, cap, &read));
    ORACLE(st_next == PERFBUF_OK);
    ORACLE(same.index == inst.index && same.id == inst.id && same.offset == inst.offset &&
           same.size == inst.size && same.name_offset == inst.name_offset &&
           same.name_units == inst.name_units && same.values_offset == inst.values_offset &&
           same.value_count == inst.value_count);
    ORACLE(perfbuf_v2_values_read(q, b, &inst, again, cap, &read_again) == PERFBUF_OK);
    ORACLE(read.count == read_again.count && read.non_integers == read_again.non_integers);
    ORACLE(memcmp(values, again, sizeof *values * read.count) == 0);
    free(values);
    free(again);
}

/* A whole block in one call (perfbuf_v2_block_read_all): the needed size,
 * a matrix one cell short refused, and every row equal to
 * perfbuf_v2_values_read of that instance (of the block without
 * instances). */
static void ref_block_matrix(const perfbuf_v2_query *q, const perfbuf_v2_block *b, size_t size)
{
    bool instances = b->kind == PERFBUF_V2_MULTIPLE_INSTANCES || b->kind == PERFBUF_V2_COUNTERSET;
    size_t rows = instances ? b->instance_count : 1u;
    size_t cells = rows * b->counter_count;
    size_t needed = 0;
    perfbuf_status st;
    BUDGETED(size, st = perfbuf_v2_block_read_all(q, b, NULL, 0, &needed));
    ORACLE(needed == cells && st == (cells == 0 ? PERFBUF_OK : PERFBUF_E_OUTPUT_TOO_SMALL));
    uint64_t *matrix = malloc(sizeof *matrix * (cells ? cells : 1));
    uint64_t *row = malloc(sizeof *row * ((size_t)b->counter_count + 1));
    ORACLE(matrix != NULL && row != NULL);
    if (cells > 0) {
        BUDGETED(size, st = perfbuf_v2_block_read_all(q, b, matrix, cells - 1u, &needed));
        ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL && needed == cells);
    }
    BUDGETED(size, st = perfbuf_v2_block_read_all(q, b, matrix, cells, &needed));
    ORACLE(st == PERFBUF_OK && needed == cells);
    perfbuf_v2_values_read_result read;
    if (!instances) {
        ORACLE(perfbuf_v2_values_read(q, b, NULL, row, b->counter_count, &read) == PERFBUF_OK);
        ORACLE(cells == 0 || memcmp(row, matrix, sizeof *row * cells) == 0);
    } else {
        perfbuf_v2_iter ii;
        perfbuf_v2_instance inst;
        size_t i = 0;
        perfbuf_v2_instances_begin(b, &ii);
        while (perfbuf_v2_instances_next(q, b, &ii, &inst)) {
            ORACLE(i < rows);
            ORACLE(perfbuf_v2_values_read(q, b, &inst, row, b->counter_count, &read) ==
                   PERFBUF_OK);
            ORACLE(b->counter_count == 0 ||
                   memcmp(row, matrix + i * b->counter_count,
                          sizeof *row * b->counter_count) == 0);
            i++;
        }
        ORACLE(i == rows);
    }
    free(matrix);
    free(row);
}

/* Whether every PERF_COUNTER_DATA of a block from pos (its instances, or
 * its own values) has the first one's dwSize: PERFBUF_V2_LAYOUT_UNIFORM_VALUES
 * of that block, from the bytes. */
static bool ref_values_uniform(const uint8_t *data, size_t size, size_t pos, bool instances,
                               uint32_t instance_count, uint32_t counters)
{
    uint32_t rows = instances ? instance_count : 1u;
    bool have_first = false;
    uint32_t first = 0;
    for (uint32_t r = 0; r < rows; r++) {
        if (instances) {
            pos += ref_u32(data, size, pos);
        }
        for (uint32_t i = 0; i < counters; i++) {
            uint32_t vsize = ref_u32(data, size, pos + 4);
            if (have_first && vsize != first) {
                return false;
            }
            first = vsize;
            have_first = true;
            pos += vsize;
        }
    }
    return true;
}

/* Walks the accepted buffer from its bytes and compares every view. */
static void views_equal_validation(const perfbuf_v2_query *q, const uint8_t *data, size_t size)
{
    size_t total = ref_u32(data, size, 0);
    uint32_t count = ref_u32(data, size, 4);
    ORACLE(q->size == total && q->block_count == count && total <= size);
    ORACLE(q->perf_time_stamp == (int64_t)ref_u64(data, size, 8));
    ORACLE(q->perf_time_100ns == (int64_t)ref_u64(data, size, 16));
    ORACLE(q->perf_freq == (int64_t)ref_u64(data, size, 24));
    perfbuf_v2_iter bi;
    perfbuf_v2_blocks_begin(q, &bi);
    size_t pos = 48;
    uint32_t layout = PERFBUF_V2_LAYOUT_UNIFORM_VALUES | PERFBUF_V2_LAYOUT_ASCENDING_IDS;
    for (uint32_t k = 0; k < count; k++) {
        size_t at = pos;
        uint32_t status = ref_u32(data, size, at);
        uint32_t kind = ref_u32(data, size, at + 4);
        uint32_t bsize = ref_u32(data, size, at + 8);
        ORACLE(bsize >= 16 && oracle_inside(at, bsize, total));
        perfbuf_v2_block b;
        ORACLE(perfbuf_v2_blocks_next(q, &bi, &b));
        ORACLE(b.index == k && b.offset == at && b.size == bsize && b.status == status &&
               (uint32_t)b.kind == kind);
        const char *kind_name;
        BUDGETED(0, kind_name = perfbuf_v2_kind_name(kind));
        ORACLE(kind_name != NULL && (strcmp(kind_name, "unknown") == 0) ==
                                        (kind > PERFBUF_V2_COUNTERSET || kind == 3 || kind == 5));
        size_t body = at + 16;
        size_t block_end = at + bsize;
        bool ids = kind == PERFBUF_V2_MULTIPLE_COUNTERS || kind == PERFBUF_V2_COUNTERSET;
        bool instances = kind == PERFBUF_V2_MULTIPLE_INSTANCES || kind == PERFBUF_V2_COUNTERSET;
        uint32_t counters = kind == PERFBUF_V2_ERROR_RETURN ? 0 : 1;
        if (ids) {
            uint32_t list_size = ref_u32(data, size, body);
            counters = ref_u32(data, size, body + 4);
            ORACLE(b.ids_offset == body + 8);
            for (uint32_t i = 0; i < counters; i++) {
                uint32_t id = ref_u32(data, size, body + 8 + (size_t)i * 4);
                ORACLE(perfbuf_v2_block_counter_id(q, &b, i) == id);
                if (i > 0 && id <= ref_u32(data, size, body + 8 + (size_t)(i - 1) * 4)) {
                    layout &= ~PERFBUF_V2_LAYOUT_ASCENDING_IDS;
                }
            }
            ORACLE(perfbuf_v2_block_counter_id(q, &b, counters) == PERFBUF_V2_NO_COUNTER_ID);
            body += list_size + ref_pad8(list_size);
        }
        ORACLE(b.counter_count == counters);
        if (!ref_values_uniform(data, size, instances ? body + 8 : body, instances,
                                instances ? ref_u32(data, size, body + 4) : 0, counters)) {
            layout &= ~PERFBUF_V2_LAYOUT_UNIFORM_VALUES;
        }
        perfbuf_v2_iter ii;
        perfbuf_v2_instances_begin(&b, &ii);
        if (instances) {
            uint32_t list_total = ref_u32(data, size, body);
            uint32_t instance_count = ref_u32(data, size, body + 4);
            ORACLE(b.instance_count == instance_count && b.items_offset == body + 8 &&
                   b.items_end == body + list_total);
            size_t ipos = body + 8;
            perfbuf_v2_iter with;
            perfbuf_v2_instances_begin(&b, &with);
            for (uint32_t i = 0; i < instance_count; i++) {
                ref_instance(q, &b, &ipos, b.items_end, i, &ii, &with, data, size);
            }
            perfbuf_v2_instance end_inst;
            perfbuf_v2_values_read_result end_read;
            ORACLE(perfbuf_v2_instances_next_values(q, &b, &with, &end_inst, NULL, 0, &end_read) ==
                   PERFBUF_E_NOT_FOUND);
        } else {
            ORACLE(b.instance_count == 0 && b.items_offset == body && b.items_end == block_end);
            (void)ref_values(q, &b, NULL, body, block_end, data, size);
        }
        ref_block_matrix(q, &b, size);
        perfbuf_v2_instance none;
        ORACLE(!perfbuf_v2_instances_next(q, &b, &ii, &none));
        pos = block_end;
    }
    perfbuf_v2_block past;
    ORACLE(!perfbuf_v2_blocks_next(q, &bi, &past));
    ORACLE(q->layout == layout);
}

static int oracle_v2_query(const uint8_t *data, size_t size)
{
    perfbuf_v2_query lenient;
    perfbuf_error err;
    perfbuf_status st;
    BUDGETED(size, st = perfbuf_v2_query_parse(data, size, NULL, &lenient, &err));
    if (st != PERFBUF_OK) {
        oracle_rejection(st, &err, size);
    } else {
        ORACLE(lenient.size <= size);
        digest first;
        digest second;
        WALK_BUDGETED(size, first = walk(&lenient, data, size));
        WALK_BUDGETED(size, second = walk(&lenient, data, size));
        ORACLE(memcmp(&first, &second, sizeof first) == 0);
        views_equal_validation(&lenient, data, size);
    }

    perfbuf_options strict_opts = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_v2_query strict;
    perfbuf_status strict_st;
    BUDGETED(size, strict_st = perfbuf_v2_query_parse(data, size, &strict_opts, &strict, &err));
    if (strict_st == PERFBUF_OK) {
        ORACLE(st == PERFBUF_OK && lenient.anomalies == 0);
        ORACLE(strict.anomalies == 0);
    } else {
        ORACLE(err.offset <= size);
    }
    return 0;
}

#endif
