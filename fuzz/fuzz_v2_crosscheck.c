/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The cross-check of V2 query data against a registration and counter
 * identifiers, on three buffers split from one input:
 *   [u16 registration length][u16 identifiers length][registration]
 *   [identifiers][query data]
 * (lengths little-endian, cut to what the input holds; no identifiers
 * when their length is 0). Oracles: the cross-check runs only on what
 * the readers accepted, answers OK or INCONSISTENT, locates a
 * disagreement inside the buffers it names, and answers the same twice;
 * raw samples and formatted values through the registration never fail
 * unsafely.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/values.h"

static size_t take_length(const uint8_t **data, size_t *size)
{
    if (*size < 2) {
        *size = 0;
        return 0;
    }
    size_t n = (size_t)(*data)[0] | ((size_t)(*data)[1] << 8);
    *data += 2;
    *size -= 2;
    return n;
}

static void check_location(const perfbuf_error *where, size_t size)
{
    if (where->status != PERFBUF_OK) {
        ORACLE(where->status == PERFBUF_E_INCONSISTENT);
        ORACLE(where->offset <= size);
        ORACLE(where->structure != NULL && where->structure[0] != '\0');
    }
}

/* Every value through the registration: samples and a value against itself. */
static void samples(const perfbuf_v2_query *q, const perfbuf_v2_reginfo *reg)
{
    perfbuf_v2_iter bi;
    perfbuf_v2_block b;
    perfbuf_v2_counter_reg c;
    perfbuf_v2_blocks_begin(q, &bi);
    while (perfbuf_v2_blocks_next(q, &bi, &b)) {
        perfbuf_v2_iter ii;
        perfbuf_v2_instance inst;
        bool any = b.instance_count == 0;
        perfbuf_v2_instances_begin(&b, &ii);
        bool have_inst = perfbuf_v2_instances_next(q, &b, &ii, &inst);
        if (!any && !have_inst) {
            continue;
        }
        for (uint32_t i = 0; perfbuf_v2_reginfo_counter(reg, i, &c) && i < 64; i++) {
            perfbuf_raw_sample s;
            perfbuf_value_context ctx;
            if (perfbuf_v2_raw_sample(q, &b, have_inst ? &inst : NULL, reg, c.id, &s, &ctx) !=
                PERFBUF_OK) {
                continue;
            }
            perfbuf_value v;
            (void)perfbuf_format_value(c.type, &s, &s, &ctx, PERFBUF_FMT_DOUBLE, &v);
        }
    }
}

/*
 * Every instance (or block without instances) through a value index: the
 * build stays within the budget of the query's bytes, each indexed sample
 * equals the plain one (status, sample and context from the same start)
 * and costs no more than a fixed budget, however large the instance.
 */
static void indexed_samples(const perfbuf_v2_query *q, const perfbuf_v2_reginfo *reg)
{
    perfbuf_v2_iter bi;
    perfbuf_v2_block b;
    perfbuf_v2_blocks_begin(q, &bi);
    while (perfbuf_v2_blocks_next(q, &bi, &b)) {
        size_t cap = perfbuf_v2_value_index_slots(&b);
        uint64_t *slots = cap < SIZE_MAX / sizeof *slots ? malloc(cap * sizeof *slots) : NULL;
        if (slots == NULL) {
            continue;
        }
        perfbuf_v2_iter ii;
        perfbuf_v2_instance inst;
        perfbuf_v2_instances_begin(&b, &ii);
        bool have_inst = perfbuf_v2_instances_next(q, &b, &ii, &inst);
        do {
            const perfbuf_v2_instance *in = have_inst ? &inst : NULL;
            perfbuf_v2_value_index index;
            perfbuf_status built;
            BUDGETED(q->size, built = perfbuf_v2_value_index_build(q, &b, in, slots, cap, &index));
            ORACLE(built == PERFBUF_OK);
            perfbuf_v2_counter_reg c;
            for (uint32_t i = 0; perfbuf_v2_reginfo_counter(reg, i, &c) && i < 64; i++) {
                perfbuf_raw_sample plain = {1, 2, 3, 4, 5, 6};
                perfbuf_raw_sample fast = plain;
                perfbuf_value_context plain_ctx = {7, 8};
                perfbuf_value_context fast_ctx = plain_ctx;
                perfbuf_status st = perfbuf_v2_raw_sample(q, &b, in, reg, c.id, &plain, &plain_ctx);
                perfbuf_status st_fast;
                BUDGETED(0, st_fast = perfbuf_v2_raw_sample_indexed(q, &b, in, reg, &index, c.id,
                                                                    &fast, &fast_ctx));
                ORACLE(st_fast == st);
                ORACLE(fast.status == plain.status && fast.type == plain.type &&
                       fast.first == plain.first && fast.second == plain.second &&
                       fast.multi == plain.multi && fast.time_stamp == plain.time_stamp);
                ORACLE(fast_ctx.frequency == plain_ctx.frequency &&
                       fast_ctx.scale == plain_ctx.scale);
            }
            have_inst = have_inst && perfbuf_v2_instances_next(q, &b, &ii, &inst);
        } while (have_inst);
        free(slots);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t reg_len = take_length(&data, &size);
    size_t ids_len = take_length(&data, &size);
    if (reg_len > size) {
        reg_len = size;
    }
    if (ids_len > size - reg_len) {
        ids_len = size - reg_len;
    }
    const uint8_t *reg_bytes = data;
    const uint8_t *ids_bytes = data + reg_len;
    const uint8_t *query_bytes = ids_bytes + ids_len;
    size_t query_len = size - reg_len - ids_len;

    perfbuf_v2_reginfo reg;
    perfbuf_v2_identifiers ids;
    perfbuf_v2_query q;
    if (perfbuf_v2_reginfo_parse(reg_bytes, reg_len, NULL, &reg, NULL) != PERFBUF_OK ||
        perfbuf_v2_query_parse(query_bytes, query_len, NULL, &q, NULL) != PERFBUF_OK) {
        return 0;
    }
    const perfbuf_v2_identifiers *with_ids = NULL;
    if (ids_len > 0) {
        if (perfbuf_v2_identifiers_parse(ids_bytes, ids_len, NULL, &ids, NULL) != PERFBUF_OK) {
            return 0;
        }
        with_ids = &ids;
    }
    perfbuf_v2_mismatch m;
    perfbuf_status st = perfbuf_v2_crosscheck(&q, &reg, with_ids, &m);
    ORACLE(st == PERFBUF_OK || st == PERFBUF_E_INCONSISTENT);
    if (st == PERFBUF_OK) {
        ORACLE(m.kind == PERFBUF_V2_AGREE);
        ORACLE(m.in_query.status == PERFBUF_OK && m.in_registration.status == PERFBUF_OK &&
               m.in_identifiers.status == PERFBUF_OK);
    } else {
        ORACLE(m.kind != PERFBUF_V2_AGREE);
        ORACLE(strcmp(perfbuf_v2_mismatch_name(m.kind), "?") != 0);
        ORACLE(m.kind == PERFBUF_V2_INDEX_RANGE || m.block_index < q.block_count ||
               m.in_identifiers.status != PERFBUF_OK);
        ORACLE(m.in_query.status != PERFBUF_OK || m.in_identifiers.status != PERFBUF_OK);
        ORACLE(with_ids != NULL || m.in_identifiers.status == PERFBUF_OK);
    }
    check_location(&m.in_query, q.size);
    check_location(&m.in_registration, reg_len);
    check_location(&m.in_identifiers, ids_len);
    perfbuf_v2_mismatch again;
    ORACLE(perfbuf_v2_crosscheck(&q, &reg, with_ids, &again) == st);
    ORACLE(again.kind == m.kind && again.in_query.offset == m.in_query.offset &&
           again.in_registration.offset == m.in_registration.offset &&
           again.in_identifiers.offset == m.in_identifiers.offset);
    samples(&q, &reg);
    indexed_samples(&q, &reg);
    return 0;
}
