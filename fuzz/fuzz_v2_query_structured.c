/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The V2 query-data reader under structure-aware mutation: the same oracle
 * as fuzz/fuzz_v2_query.c (fuzz/oracle_v2_query.h), fed by a mutator that
 * changes one structure at a time and rewrites every size and count around
 * it (fuzz/mutator_v2_query.h), so that most mutants get past the size
 * checks into the walk and the views. One mutation in eight, and every
 * input the mutator cannot read as a tree, still gets the engine's byte
 * mutation, so broken sizes are explored here too.
 *
 * Then every block with an id list goes through a value plan
 * (perfbuf_v2_plan_build, perfbuf_v2_plan_samples) over a registration the
 * harness writes from that block's own ids, so that the shapes the mutator
 * builds at up to 1 MB (thousands of counters, one value that is not an
 * integer, a repeated id) reach the plan's fallback under the plain work
 * budget of the query and registration bytes.
 */
#include "oracle_v2_query.h"
#include "perfbuf/v2_meta.h"

/* Integer counter types without references, so every registered id plans
 * OK and every position is a sample: the value alone, the value over the
 * system clock, the value over the 100 ns clock. */
static const uint32_t registered_types[] = {
    0x00010000u, /* PERF_COUNTER_RAWCOUNT */
    0x00010100u, /* PERF_COUNTER_LARGE_RAWCOUNT */
    0x10410400u, /* PERF_COUNTER_COUNTER */
    0x20510500u, /* PERF_100NSEC_TIMER */
};

static int compare_ids(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++) {
        p[k] = (uint8_t)(v >> (8 * k));
    }
}

/*
 * PERF_COUNTERSET_REG_INFO and one PERF_COUNTER_REG_INFO per distinct id
 * of the block (PERFBUF_V2_NO_ID left out), ids ascending as Windows lists
 * them. Returns the bytes (malloc'd; NULL when out of memory) and their
 * length.
 */
static uint8_t *registration_of(const perfbuf_v2_query *q, const perfbuf_v2_block *b,
                                size_t *len)
{
    uint32_t n = b->counter_count;
    uint32_t *ids = malloc(sizeof *ids * ((size_t)n + 1));
    if (ids == NULL) {
        return NULL;
    }
    uint32_t distinct = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id = perfbuf_v2_block_counter_id(q, b, i);
        if (id != PERFBUF_V2_NO_ID) {
            ids[distinct++] = id;
        }
    }
    qsort(ids, distinct, sizeof *ids, compare_ids);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < distinct; i++) {
        if (kept == 0 || ids[kept - 1] != ids[i]) {
            ids[kept++] = ids[i];
        }
    }
    *len = 32u + 48u * (size_t)kept;
    uint8_t *reg = calloc(1, *len);
    if (reg == NULL) {
        free(ids);
        return NULL;
    }
    put32(reg + 20, 100); /* DetailLevel: novice */
    put32(reg + 24, kept);
    put32(reg + 28, b->kind == PERFBUF_V2_COUNTERSET ? PERFBUF_COUNTERSET_MULTI_INSTANCES
                                                      : PERFBUF_COUNTERSET_SINGLE_INSTANCE);
    for (uint32_t i = 0; i < kept; i++) {
        uint8_t *c = reg + 32u + 48u * (size_t)i;
        put32(c, ids[i]);
        put32(c + 4, registered_types[ids[i] % 4u]);
        put32(c + 16, 100); /* DetailLevel */
        put32(c + 24, PERFBUF_V2_NO_ID);
        put32(c + 28, PERFBUF_V2_NO_ID);
        put32(c + 32, PERFBUF_V2_NO_ID);
        put32(c + 36, PERFBUF_V2_NO_ID);
    }
    free(ids);
    return reg;
}

/* A plan's sample and the walk's sample agree: the same status, and the
 * same sample and context when it is OK. */
static void same_sample(perfbuf_status st_plan, const perfbuf_raw_sample *s,
                        const perfbuf_value_context *c, perfbuf_status st_ref,
                        const perfbuf_raw_sample *ref, const perfbuf_value_context *ref_c)
{
    ORACLE(st_plan == st_ref);
    if (st_ref == PERFBUF_OK) {
        ORACLE(s->status == ref->status && s->type == ref->type && s->first == ref->first &&
               s->second == ref->second && s->multi == ref->multi &&
               s->time_stamp == ref->time_stamp);
        ORACLE(c->frequency == ref_c->frequency && c->scale == ref_c->scale);
    }
}

/* Positions compared with perfbuf_v2_raw_sample, each a walk of the
 * instance: a fixed number, so the oracle stays linear. */
#define WALKED_POSITIONS 16u

/* Where a plan, its values and one instance's samples go. */
typedef struct plan_buffers {
    perfbuf_v2_plan_entry *entries;
    uint32_t *scratch;
    uint64_t *values;
    perfbuf_raw_sample *samples;
    perfbuf_value_context *contexts;
    perfbuf_status *statuses;
    size_t count, scratch_count;
} plan_buffers;

/*
 * One block through its plan: the build within the budget of the query
 * and registration bytes, the bulk read within the query's, and each
 * instance's perfbuf_v2_plan_samples (every position at once) within the
 * query and registration's too, whatever the values (one not an integer,
 * an id repeated). Its answers at the first positions equal the walk's.
 */
static void plan_every_instance(const perfbuf_v2_query *q, const perfbuf_v2_block *b,
                                const perfbuf_v2_reginfo *reg, size_t size, size_t bytes,
                                const plan_buffers *m)
{
    perfbuf_v2_plan plan;
    perfbuf_status st;
    BUDGETED(bytes, st = perfbuf_v2_plan_build(q, b, reg, m->entries, m->count, m->scratch,
                                               m->scratch_count, &plan));
    ORACLE(st == PERFBUF_OK);
    perfbuf_v2_iter ii;
    perfbuf_v2_instance inst;
    perfbuf_v2_instances_begin(b, &ii);
    bool have_inst = perfbuf_v2_instances_next(q, b, &ii, &inst);
    do {
        const perfbuf_v2_instance *in = have_inst ? &inst : NULL;
        perfbuf_v2_values_read_result read;
        BUDGETED(size, st = perfbuf_v2_values_read(q, b, in, m->values, m->count, &read));
        ORACLE(st == PERFBUF_OK);
        BUDGETED_APART(bytes, st = perfbuf_v2_plan_samples(q, b, in, reg, &plan, m->values, &read,
                                                           m->samples, m->contexts, m->statuses,
                                                           m->count));
        ORACLE(st == PERFBUF_OK);
        for (uint32_t p = 0; p < plan.count && p < WALKED_POSITIONS; p++) {
            perfbuf_raw_sample walked = {1, 2, 3, 4, 5, 6};
            perfbuf_value_context walked_ctx = {7, 8};
            perfbuf_status st_walked = perfbuf_v2_raw_sample(
                q, b, in, reg, perfbuf_v2_block_counter_id(q, b, p), &walked, &walked_ctx);
            same_sample(m->statuses[p], &m->samples[p], &m->contexts[p], st_walked, &walked,
                        &walked_ctx);
        }
        have_inst = have_inst && perfbuf_v2_instances_next(q, b, &ii, &inst);
    } while (have_inst);
}

static void planned_block(const perfbuf_v2_query *q, const perfbuf_v2_block *b, size_t size)
{
    size_t reg_len = 0;
    uint8_t *reg_bytes = registration_of(q, b, &reg_len);
    if (reg_bytes == NULL) {
        return;
    }
    perfbuf_v2_reginfo reg;
    perfbuf_status st;
    BUDGETED(reg_len, st = perfbuf_v2_reginfo_parse(reg_bytes, reg_len, NULL, &reg, NULL));
    /* Distinct ascending ids of integer types without references: valid. */
    ORACLE(st == PERFBUF_OK);
    plan_buffers m;
    m.count = (size_t)b->counter_count + 1;
    m.scratch_count = (size_t)reg.counter_count + 1;
    m.entries = malloc(sizeof *m.entries * m.count);
    m.scratch = malloc(sizeof *m.scratch * m.scratch_count);
    m.values = malloc(sizeof *m.values * m.count);
    m.samples = malloc(sizeof *m.samples * m.count);
    m.contexts = malloc(sizeof *m.contexts * m.count);
    m.statuses = malloc(sizeof *m.statuses * m.count);
    if (m.entries != NULL && m.scratch != NULL && m.values != NULL && m.samples != NULL &&
        m.contexts != NULL && m.statuses != NULL) {
        plan_every_instance(q, b, &reg, size, size + reg_len, &m);
    }
    free(m.entries);
    free(m.scratch);
    free(m.values);
    free(m.samples);
    free(m.contexts);
    free(m.statuses);
    free(reg_bytes);
}

static void planned_samples(const uint8_t *data, size_t size)
{
    perfbuf_v2_query q;
    if (perfbuf_v2_query_parse(data, size, NULL, &q, NULL) != PERFBUF_OK) {
        return;
    }
    perfbuf_v2_iter bi;
    perfbuf_v2_block b;
    perfbuf_v2_blocks_begin(&q, &bi);
    while (perfbuf_v2_blocks_next(&q, &bi, &b)) {
        if (b.kind == PERFBUF_V2_MULTIPLE_COUNTERS || b.kind == PERFBUF_V2_COUNTERSET) {
            planned_block(&q, &b, size);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int rc = oracle_v2_query(data, size);
    planned_samples(data, size);
    return rc;
}

/* Only engine builds have LLVMFuzzerMutate; the replayer runs the oracle
 * alone. */
#ifdef PERFBUF_FUZZ_MUTATOR
#include "mutator_v2_query.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    bool structured;
    return v2m_mutate(data, size, max_size, seed, LLVMFuzzerMutate, &structured);
}
#endif
