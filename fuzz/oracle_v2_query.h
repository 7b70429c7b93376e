/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The oracle of the V2 query-data reader, shared by fuzz/fuzz_v2_query.c
 * (byte-level mutation) and fuzz/fuzz_v2_query_structured.c (structure-aware
 * mutation), so that both check exactly the same. Beyond "no crash":
 *   - a rejection names an offset inside the input and a structure and field;
 *   - a strict success is a lenient success with no anomaly;
 *   - after a success every view lies inside the input, every accessor
 *     works, and a second walk sees exactly what the first one saw;
 *   - every call stays within its work budget and each whole walk within
 *     the walk budget (docs/linear-time.md).
 */
#ifndef PERFBUF_FUZZ_ORACLE_V2_QUERY_H
#define PERFBUF_FUZZ_ORACLE_V2_QUERY_H

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
