/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The oracle of the V1 data-block reader, shared by fuzz/fuzz_v1.c
 * (byte-level mutation) and fuzz/fuzz_v1_structured.c (structure-aware
 * mutation), so that both check exactly the same. Beyond "no crash":
 *   - a rejection names an offset inside the input, a structure and a field;
 *   - a strict success is a lenient success with no anomaly;
 *   - after a success every view lies inside the input, every accessor
 *     works (values, names, parents with and without an index, lookups),
 *     and a second walk sees exactly what the first saw.
 */
#ifndef PERFBUF_FUZZ_ORACLE_V1_H
#define PERFBUF_FUZZ_ORACLE_V1_H

#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "perfbuf/v1.h"

typedef struct digest {
    uint64_t objects, counters, instances, values, name_bytes, parents;
} digest;

static void walk_block(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                       const perfbuf_v1_counter_block *blk, const uint8_t *data, size_t size,
                       digest *d)
{
    ORACLE(oracle_inside(blk->offset, blk->byte_length, size));
    perfbuf_v1_iter ci;
    perfbuf_v1_counter c;
    perfbuf_v1_counters_begin(o, &ci);
    while (perfbuf_v1_counters_next(b, &ci, &c)) {
        d->values ^= perfbuf_v1_counter_value(b, blk, &c);
        ORACLE(oracle_ptr_inside(perfbuf_v1_counter_bytes(b, blk, &c), c.size, data, size));
    }
}

static digest walk(const perfbuf_v1_block *b, const uint8_t *data, size_t size)
{
    digest d;
    memset(&d, 0, sizeof d);
    char name[128];
    size_t len;
    perfbuf_status st = perfbuf_v1_system_name_utf8(b, name, sizeof name, &len);
    ORACLE(st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL);
    perfbuf_v1_iter oi;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(b, &oi);
    while (perfbuf_v1_objects_next(b, &oi, &o)) {
        ORACLE(oracle_inside(o.offset, o.total_length, size));
        ORACLE(o.index == d.objects);
        d.objects++;
        perfbuf_v1_iter ci;
        perfbuf_v1_counter c;
        perfbuf_v1_counters_begin(&o, &ci);
        while (perfbuf_v1_counters_next(b, &ci, &c)) {
            ORACLE(oracle_inside(c.offset, c.byte_length, size));
            d.counters++;
        }
        perfbuf_v1_counter_block blk;
        if (perfbuf_v1_object_counter_block(b, &o, &blk)) {
            walk_block(b, &o, &blk, data, size, &d);
        }
        /* An index of the object itself: parents inside one object are
         * how cycles and self-references would show. */
        size_t offsets[64];
        perfbuf_v1_instance_index index;
        bool indexed = o.instance_count <= 64 &&
                       perfbuf_v1_index_build(b, &o, offsets, 64, &index) == PERFBUF_OK;
        perfbuf_v1_iter ii;
        perfbuf_v1_instance inst;
        perfbuf_v1_instances_begin(&o, &ii);
        while (perfbuf_v1_instances_next(b, &ii, &inst)) {
            ORACLE(oracle_inside(inst.offset, inst.byte_length, size));
            ORACLE(oracle_inside(inst.name_offset, inst.name_bytes, size));
            d.instances++;
            st = perfbuf_v1_full_name_utf8(b, &o, &inst, indexed ? &index : NULL, name,
                                           sizeof name, &len);
            ORACLE(st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL ||
                   st == PERFBUF_E_BAD_REFERENCE || st == PERFBUF_E_UNKNOWN_VALUE);
            ORACLE(strlen(name) < sizeof name);
            d.name_bytes += len;
            perfbuf_v1_instance parent;
            perfbuf_error err;
            st = perfbuf_v1_parent(b, &o, &inst, NULL, &parent, &err);
            if (st == PERFBUF_OK) {
                ORACLE(parent.offset != inst.offset);
                d.parents++;
            } else if (st == PERFBUF_E_BAD_REFERENCE) {
                ORACLE(oracle_inside(err.offset, 4, size));
            }
            if (inst.code_page == 0 && inst.name_bytes < 64) {
                perfbuf_status conv = perfbuf_v1_instance_name_utf8(b, &inst, name, sizeof name, &len);
                perfbuf_v1_instance found;
                if (conv == PERFBUF_OK && strchr(name, '/') == NULL && strchr(name, '#') == NULL) {
                    /* Looking an instance up by its own name finds one of that name. */
                    ORACLE(perfbuf_v1_find_instance(b, &o, name, len, NULL, &found) == PERFBUF_OK);
                    ORACLE(found.index <= inst.index);
                }
            }
            walk_block(b, &o, &inst.counters, data, size, &d);
        }
    }
    ORACLE(d.objects == b->object_count);
    return d;
}

static int oracle_v1(const uint8_t *data, size_t size)
{
    perfbuf_v1_block lenient;
    perfbuf_error err;
    perfbuf_status st = perfbuf_v1_parse(data, size, NULL, &lenient, &err);
    if (st != PERFBUF_OK) {
        oracle_rejection(st, &err, size);
    } else {
        ORACLE(lenient.size <= size);
        digest first = walk(&lenient, data, size);
        digest second = walk(&lenient, data, size);
        ORACLE(memcmp(&first, &second, sizeof first) == 0);
    }
    perfbuf_options strict_opts = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_v1_block strict;
    perfbuf_status strict_st = perfbuf_v1_parse(data, size, &strict_opts, &strict, &err);
    if (strict_st == PERFBUF_OK) {
        ORACLE(st == PERFBUF_OK && lenient.anomalies == 0);
    } else {
        ORACLE(err.offset <= size);
    }
    return 0;
}

#endif
