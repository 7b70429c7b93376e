/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The reference of perfbuf_v2_plan_format_block_doubles: a block's rows
 * paired by position and formatted as a caller does it value by value
 * (perfbuf_v2_instances_next_values, or perfbuf_v2_values_read for a
 * block without instances; perfbuf_v2_plan_samples on each side; then
 * perfbuf_format_prepared with the plan's formula where both samples are
 * OK). Shared by the unit test, the growth test and the fuzz harnesses.
 * Test code: it allocates.
 */
#ifndef PERFBUF_FUZZ_ORACLE_V2_DOUBLES_H
#define PERFBUF_FUZZ_ORACLE_V2_DOUBLES_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "perfbuf/v2_meta.h"
#include "perfbuf/v2_query.h"
#include "perfbuf/values.h"

/* The status a cell reports for a sample that failed. */
static inline uint32_t v2_doubles_failed_status(perfbuf_status st)
{
    return st == PERFBUF_E_NOT_FOUND ? PERFBUF_CSTATUS_NO_COUNTER : PERFBUF_PDH_INVALID_ARGUMENT;
}

/* One row of one capture: the next instance's values, or the block's. */
static inline perfbuf_status v2_doubles_row(const perfbuf_v2_query *q, const perfbuf_v2_block *b,
                                            perfbuf_v2_iter *it, perfbuf_v2_instance *inst,
                                            uint64_t *values, size_t cap,
                                            perfbuf_v2_values_read_result *read)
{
    if (b->kind == PERFBUF_V2_COUNTERSET) {
        return perfbuf_v2_instances_next_values(q, b, it, inst, values, cap, read);
    }
    return perfbuf_v2_values_read(q, b, NULL, values, cap, read);
}

/*
 * The cells of the two blocks into as_double[rows * plan->count] and
 * status[...] (the counter status the cell stands for), and in *expected
 * the status the call answers for them: OK, INCONSISTENT for blocks of
 * other row counts, DUPLICATE_ID for a plan with a repeated id,
 * UNKNOWN_VALUE for a row with a value that is not an integer (the cells
 * are then those of the rows read). False when a row or a batch of
 * samples could not be read at all (the call answers INVALID_ARGUMENT),
 * or memory ran out.
 */
static inline bool v2_doubles_reference(const perfbuf_v2_query *newer,
                                        const perfbuf_v2_block *nb,
                                        const perfbuf_v2_query *older,
                                        const perfbuf_v2_block *ob,
                                        const perfbuf_v2_reginfo *reg,
                                        const perfbuf_v2_plan *plan, uint32_t flags,
                                        double *as_double, uint32_t *status, size_t cells,
                                        perfbuf_status *expected)
{
    bool instances = nb->kind == PERFBUF_V2_COUNTERSET;
    if (instances != (ob->kind == PERFBUF_V2_COUNTERSET) ||
        (instances && nb->instance_count != ob->instance_count)) {
        *expected = PERFBUF_E_INCONSISTENT;
        return true;
    }
    if (plan->repeated_ids) {
        *expected = PERFBUF_E_DUPLICATE_ID;
        return true;
    }
    *expected = PERFBUF_OK;
    uint32_t rows = instances ? nb->instance_count : 1u;
    size_t count = plan->count;
    if ((size_t)rows * count > cells) {
        return false;
    }
    size_t n = count + 1;
    uint64_t *v1 = malloc(sizeof *v1 * n), *v0 = malloc(sizeof *v0 * n);
    perfbuf_raw_sample *s1 = malloc(sizeof *s1 * n), *s0 = malloc(sizeof *s0 * n);
    perfbuf_value_context *c1 = malloc(sizeof *c1 * n), *c0 = malloc(sizeof *c0 * n);
    perfbuf_status *st1 = malloc(sizeof *st1 * n), *st0 = malloc(sizeof *st0 * n);
    bool ok = v1 != NULL && v0 != NULL && s1 != NULL && s0 != NULL && c1 != NULL && c0 != NULL &&
              st1 != NULL && st0 != NULL;
    perfbuf_v2_iter it1, it0;
    perfbuf_v2_instances_begin(nb, &it1);
    perfbuf_v2_instances_begin(ob, &it0);
    for (uint32_t i = 0; ok && i < rows; i++) {
        perfbuf_v2_instance in1, in0;
        perfbuf_v2_values_read_result r1, r0;
        if (v2_doubles_row(newer, nb, &it1, &in1, v1, n, &r1) != PERFBUF_OK ||
            v2_doubles_row(older, ob, &it0, &in0, v0, n, &r0) != PERFBUF_OK) {
            ok = false;
            break;
        }
        if (r1.non_integers != 0 || r0.non_integers != 0) {
            *expected = PERFBUF_E_UNKNOWN_VALUE;
            break;
        }
        if (perfbuf_v2_plan_samples(newer, nb, instances ? &in1 : NULL, reg, plan, v1, &r1, s1,
                                    c1, st1, n) != PERFBUF_OK ||
            perfbuf_v2_plan_samples(older, ob, instances ? &in0 : NULL, reg, plan, v0, &r0, s0,
                                    c0, st0, n) != PERFBUF_OK) {
            ok = false;
            break;
        }
        for (size_t k = 0; k < count; k++) {
            size_t c = (size_t)i * count + k;
            if (st1[k] != PERFBUF_OK || st0[k] != PERFBUF_OK) {
                as_double[c] = 0.0;
                status[c] = v2_doubles_failed_status(st1[k] != PERFBUF_OK ? st1[k] : st0[k]);
                continue;
            }
            perfbuf_value v;
            status[c] = perfbuf_format_prepared(perfbuf_v2_plan_formula(plan, (uint32_t)k), &s1[k],
                                                &s0[k], &c1[k], flags, &v);
            as_double[c] = v.as_double;
        }
    }
    free(v1);
    free(v0);
    free(s1);
    free(s0);
    free(c1);
    free(c0);
    free(st1);
    free(st0);
    return ok;
}

/* Cell c of the call equals the reference's: the same double, bit for
 * bit, and a compact code that stands for the same status. */
static inline bool v2_doubles_cell_equal(double value, uint8_t code, double ref_value,
                                         uint32_t ref_status)
{
    return code < PERFBUF_COMPACT_COUNT && perfbuf_compact_cstatus(code) == ref_status &&
           memcmp(&value, &ref_value, sizeof value) == 0;
}

#endif
