/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * perfbuf_v2_plan_format_block_doubles against the value-by-value path it
 * stands for (perfbuf_v2_plan_samples on each capture, then
 * perfbuf_format_prepared: oracle_v2_doubles.h), cell for cell: the same
 * double bit for bit and a compact code of the same status. Over blocks of
 * 0, 1, 31, 32, 33 and 65 instances and a block without instances; every
 * formula kind, with base, time, frequency and multi counters present and
 * missing, a multi count past 32 bits, unregistered ids and a type without
 * a displayable value (samples that fail); clocks forward, equal, backward
 * and a zero frequency; values that step back, wrap or sit at the top of
 * 64 bits; every flag kind. Then the statuses: different instance counts
 * or kinds, a repeated id, a value that is not an integer, small outputs,
 * NULL arguments and blocks the plan was not built for.
 */
#include <stdlib.h>
#include <string.h>

#include "builder_v2meta.h"
#include "harness.h"
#include "oracle_v2_doubles.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/v2_query.h"
#include "perfbuf/values.h"

/* The registration: type, DefaultScale, and the ids of the base, time,
 * frequency and multi counters. Ids 0..21; the block lists 0..20 (not
 * 21, the base of 13) and 50, which nothing registers. */
#define REGISTERED 22u
#define LISTED_REGISTERED 21u
static const struct {
    uint32_t type;
    int32_t scale;
    uint32_t base, time, frequency, multi;
} registered[REGISTERED] = {
    {PERF_COUNTER_COUNTER, 0, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_COUNTER_BULK_COUNT, -1, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_100NSEC_TIMER, 0, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_100NSEC_TIMER_INV, 0, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_COUNTER_TIMER, 1, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_COUNTER_RAWCOUNT, 2, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_COUNTER_LARGE_RAWCOUNT, 0, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_COUNTER_DELTA, 0, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    /* An object timer type: its time and frequency counters. */
    {PERF_ELAPSED_TIME, 0, PERFBUF_V2_NO_ID, 6, 15, PERFBUF_V2_NO_ID},
    {PERF_COUNTER_QUEUELEN_TYPE, 0, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_COUNTER_100NS_QUEUELEN_TYPE, -3, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_RAW_FRACTION, 0, 12, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_RAW_BASE, 0, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    /* Its base, 21, is not in the block: NOT_FOUND. */
    {PERF_AVERAGE_BULK, 0, 21, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_OBJ_TIME_TIMER, 0, PERFBUF_V2_NO_ID, 6, 15, PERFBUF_V2_NO_ID},
    {PERF_COUNTER_LARGE_RAWCOUNT, 0, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_100NSEC_MULTI_TIMER_INV, 0, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, 17},
    {PERF_COUNTER_RAWCOUNT, 0, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_SAMPLE_FRACTION, 0, 19, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_SAMPLE_BASE, 0, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_AVERAGE_TIMER, 0, 12, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_AVERAGE_BASE, 0, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
};
#define LISTED (LISTED_REGISTERED + 1u)
#define UNREGISTERED_ID 50u
#define CAP 64u

static tb_buf registration(void)
{
    tb_reg_row rows[REGISTERED];
    for (uint32_t k = 0; k < REGISTERED; k++) {
        rows[k].id = k;
        rows[k].type = registered[k].type;
        rows[k].base = registered[k].base;
        rows[k].name = NULL;
    }
    tb_buf reg = tb_v2_reginfo(rows, REGISTERED, PERFBUF_COUNTERSET_MULTI_INSTANCES);
    /* Each 48-byte PERF_COUNTER_REG after the 32-byte PERF_COUNTERSET_REG. */
    for (uint32_t k = 0; k < REGISTERED; k++) {
        size_t at = 32u + 48u * k;
        tb_patch_u32(&reg, at + 20, (uint32_t)registered[k].scale);
        tb_patch_u32(&reg, at + 28, registered[k].time);
        tb_patch_u32(&reg, at + 32, registered[k].frequency);
        tb_patch_u32(&reg, at + 36, registered[k].multi);
    }
    return reg;
}

/* xorshift64, each left shift masked first so that no bit is shifted out:
 * the tests run under clang's -fsanitize=integer, which refuses a wrap. */
static uint64_t mix(uint64_t x)
{
    x ^= (x & (UINT64_MAX >> 13)) << 13;
    x ^= x >> 7;
    x ^= (x & (UINT64_MAX >> 17)) << 17;
    return x;
}

/* Row i, position p of the older capture, and of the newer one (tick 1):
 * small steps forward, and now and then a step back, a value at the top
 * of 64 bits, or 0. The multi counter (17) of row 2 passes 32 bits. */
static uint64_t cell_value(uint32_t i, uint32_t p, uint32_t tick, uint32_t size)
{
    uint64_t r = mix(0x9E3779B97F4A7C15ull ^ ((uint64_t)i << 8 | p));
    uint64_t older = (r >> 20) % 1000000u + 1u;
    uint64_t step = (r >> 4) % 64u;
    uint64_t value = older;
    if (tick != 0) {
        switch (r % 16u) {
        case 0:
            value = older / 2u; /* back */
            break;
        case 1:
            value = 0;
            break;
        default:
            value = older + step;
            break;
        }
    }
    if (size == 8 && r % 23u == 0) {
        value = UINT64_MAX - (tick ? 0u : step);
    }
    if (p == 17 && i == 2) {
        value = (uint64_t)UINT32_MAX + 5u;
    }
    return size == 4 ? (uint32_t)value : value;
}

typedef struct clock_set {
    int64_t stamp, time_100ns, freq;
} clock_set;

/* A capture of one block: counterset with `instances` instances (or,
 * instances UINT32_MAX, multiple counters with one row), every id
 * listed once (ids 0..20 and 50), values of each type's size. */
static tb_v2 capture(uint32_t instances, uint32_t tick, clock_set c)
{
    uint32_t ids[LISTED];
    for (uint32_t k = 0; k < LISTED_REGISTERED; k++) {
        ids[k] = k;
    }
    ids[LISTED_REGISTERED] = UNREGISTERED_ID;
    tb_v2 v;
    tb_v2_begin(&v, c.stamp, c.time_100ns, c.freq);
    bool rows = instances != UINT32_MAX;
    tb_v2_block_begin(&v, 0, rows ? PERFBUF_V2_COUNTERSET : PERFBUF_V2_MULTIPLE_COUNTERS);
    tb_v2_ids(&v, ids, LISTED);
    uint32_t n = rows ? instances : 1u;
    if (rows) {
        tb_v2_instances_begin(&v, instances);
    }
    for (uint32_t i = 0; i < n; i++) {
        if (rows) {
            char name[16];
            snprintf(name, sizeof name, "i%02u", i % 100u);
            tb_v2_instance(&v, i, name);
        }
        for (uint32_t p = 0; p < LISTED; p++) {
            /* The multi count (17, a 4-byte type) written in 8 bytes, so
             * that it can pass 32 bits. */
            uint32_t size = p < LISTED_REGISTERED && p != 17
                                ? perfbuf_counter_type_size(registered[p].type)
                                : 8u;
            if (size == 4) {
                tb_v2_u32(&v, (uint32_t)cell_value(i, p, tick, 4));
            } else {
                tb_v2_u64(&v, cell_value(i, p, tick, 8));
            }
        }
    }
    if (rows) {
        tb_v2_instances_end(&v);
    }
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    return v;
}

static bool first_block(const perfbuf_v2_query *q, perfbuf_v2_block *b)
{
    perfbuf_v2_iter it;
    perfbuf_v2_blocks_begin(q, &it);
    return perfbuf_v2_blocks_next(q, &it, b);
}

static const uint32_t every_flags[] = {
    PERFBUF_FMT_DOUBLE,
    PERFBUF_FMT_DOUBLE | PERFBUF_FMT_NOSCALE,
    PERFBUF_FMT_DOUBLE | PERFBUF_FMT_1000,
    PERFBUF_FMT_DOUBLE | PERFBUF_FMT_NOCAP100,
    PERFBUF_FMT_DOUBLE | PERFBUF_FMT_1000 | PERFBUF_FMT_NOCAP100 | PERFBUF_FMT_NOSCALE,
    PERFBUF_FMT_LONG,
    PERFBUF_FMT_LARGE | PERFBUF_FMT_1000,
    PERFBUF_FMT_LONG | PERFBUF_FMT_DOUBLE, /* two kinds: no format */
    0,                                     /* no kind */
};
#define FLAG_KINDS (sizeof every_flags / sizeof every_flags[0])

/* What one pair of captures gives through the call and through the
 * reference, for every flag kind; counts the cells of each status. */
static void compare(const tb_v2 *newer, const tb_v2 *older, const perfbuf_v2_reginfo *reg,
                    uint32_t counts[PERFBUF_COMPACT_COUNT])
{
    perfbuf_v2_query q1, q0;
    perfbuf_v2_block b1, b0;
    CHECK(perfbuf_v2_query_parse(newer->buf.data, newer->buf.len, NULL, &q1, NULL) ==
          PERFBUF_OK);
    CHECK(perfbuf_v2_query_parse(older->buf.data, older->buf.len, NULL, &q0, NULL) ==
          PERFBUF_OK);
    CHECK(first_block(&q1, &b1) && first_block(&q0, &b0));
    perfbuf_v2_plan_entry entries[CAP];
    uint32_t plan_scratch[CAP];
    perfbuf_v2_plan plan;
    CHECK(perfbuf_v2_plan_build(&q1, &b1, reg, entries, CAP, plan_scratch, CAP, &plan) ==
          PERFBUF_OK);
    CHECK_EQ_U(plan.count, LISTED);
    uint32_t rows = b1.kind == PERFBUF_V2_COUNTERSET ? b1.instance_count : 1u;
    size_t cells = (size_t)rows * LISTED;
    size_t room = cells + 1u;
    double *got = malloc(sizeof *got * room);
    uint8_t *codes = malloc(room);
    double *ref = malloc(sizeof *ref * room);
    uint32_t *ref_status = malloc(sizeof *ref_status * room);
    uint64_t *scratch = malloc(sizeof *scratch * PERFBUF_V2_FORMAT_SCRATCH(LISTED));
    CHECK(got != NULL && codes != NULL && ref != NULL && ref_status != NULL && scratch != NULL);
    for (size_t f = 0; f < FLAG_KINDS; f++) {
        /* Cells the call must overwrite. */
        memset(codes, 0xEE, room);
        for (size_t c = 0; c < room; c++) {
            got[c] = -12345.0;
        }
        size_t needed = 0;
        perfbuf_status st = perfbuf_v2_plan_format_block_doubles(
            &q1, &b1, &q0, &b0, &plan, every_flags[f], scratch, PERFBUF_V2_FORMAT_SCRATCH(LISTED),
            got, codes, room, &needed);
        CHECK_EQ_U(st, PERFBUF_OK);
        CHECK_EQ_U(needed, cells);
        perfbuf_status expected = PERFBUF_E_INVALID_ARGUMENT;
        CHECK(v2_doubles_reference(&q1, &b1, &q0, &b0, reg, &plan, every_flags[f], ref, ref_status,
                                   room, &expected));
        CHECK_EQ_U(expected, PERFBUF_OK);
        for (size_t c = 0; c < cells; c++) {
            if (!v2_doubles_cell_equal(got[c], codes[c], ref[c], ref_status[c])) {
                fprintf(stderr, "flags %#x cell %zu (row %zu, position %zu): %.17g code %u, "
                                "reference %.17g status %#x\n",
                        (unsigned)every_flags[f], c, c / LISTED, c % LISTED, got[c],
                        (unsigned)codes[c], ref[c], (unsigned)ref_status[c]);
            }
            CHECK(v2_doubles_cell_equal(got[c], codes[c], ref[c], ref_status[c]));
            counts[codes[c]]++;
        }
        /* Nothing past the matrix. */
        CHECK_EQ_U(codes[cells], 0xEE);
        CHECK(got[cells] == -12345.0);
    }
    free(got);
    free(codes);
    free(ref);
    free(ref_status);
    free(scratch);
}

static perfbuf_v2_reginfo parsed_registration(const tb_buf *buf)
{
    perfbuf_v2_reginfo reg;
    EXPECT(perfbuf_v2_reginfo_parse(buf->data, buf->len, NULL, &reg, NULL) == PERFBUF_OK);
    return reg;
}

/* Every shape of block and clock, cell for cell with the reference. */
static void equals_value_by_value(void)
{
    tb_buf reg_buf = registration();
    perfbuf_v2_reginfo reg = parsed_registration(&reg_buf);
    static const uint32_t instance_counts[] = {0, 1, 31, 32, 33, 65, UINT32_MAX};
    const clock_set older = {1000000000, 133000000000000000, 10000000};
    const clock_set newer[] = {
        {1010000000, 133000000010000000, 10000000}, /* 1 s later */
        {1000000000, 133000000000000000, 10000000}, /* the same moment */
        {990000000, 132999999990000000, 10000000},  /* earlier */
        {1010000000, 133000000010000000, 0},        /* no frequency */
    };
    uint32_t counts[PERFBUF_COMPACT_COUNT] = {0};
    for (size_t s = 0; s < sizeof instance_counts / sizeof instance_counts[0]; s++) {
        for (size_t c = 0; c < sizeof newer / sizeof newer[0]; c++) {
            tb_v2 v0 = capture(instance_counts[s], 0, older);
            tb_v2 v1 = capture(instance_counts[s], 1, newer[c]);
            compare(&v1, &v0, &reg, counts);
            tb_free(&v0.buf);
            tb_free(&v1.buf);
        }
    }
    /* Every status a cell can have was met, so none was compared only
     * as absent. */
    for (uint32_t k = 0; k < PERFBUF_COMPACT_COUNT; k++) {
        if (counts[k] == 0) {
            fprintf(stderr, "no cell of compact code %u\n", k);
        }
        CHECK(counts[k] > 0);
    }
    tb_free(&reg_buf);
}

/* The same call on blocks that do not pair, or that the walk decides. */
static void statuses(void)
{
    tb_buf reg_buf = registration();
    perfbuf_v2_reginfo reg = parsed_registration(&reg_buf);
    const clock_set clk = {1000000000, 133000000000000000, 10000000};
    tb_v2 v5 = capture(5, 1, clk), v4 = capture(4, 0, clk), one = capture(UINT32_MAX, 0, clk);
    perfbuf_v2_query q5, q4, q1;
    perfbuf_v2_block b5, b4, b1;
    CHECK(perfbuf_v2_query_parse(v5.buf.data, v5.buf.len, NULL, &q5, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v2_query_parse(v4.buf.data, v4.buf.len, NULL, &q4, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v2_query_parse(one.buf.data, one.buf.len, NULL, &q1, NULL) == PERFBUF_OK);
    CHECK(first_block(&q5, &b5) && first_block(&q4, &b4) && first_block(&q1, &b1));
    perfbuf_v2_plan_entry entries[CAP];
    uint32_t plan_scratch[CAP];
    perfbuf_v2_plan plan;
    CHECK(perfbuf_v2_plan_build(&q5, &b5, &reg, entries, CAP, plan_scratch, CAP, &plan) ==
          PERFBUF_OK);
    enum { SCRATCH = 2 * 32 * LISTED };
    static uint64_t scratch[SCRATCH];
    CHECK_EQ_U(PERFBUF_V2_FORMAT_SCRATCH(LISTED), SCRATCH);
    double values[5 * LISTED];
    uint8_t codes[5 * LISTED];
    size_t needed = 99;
    const uint32_t F = PERFBUF_FMT_DOUBLE;
    /* Five instances against four: position is no identity. */
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(&q5, &b5, &q4, &b4, &plan, F, scratch, SCRATCH,
                                                    values, codes, 5 * LISTED, &needed),
               PERFBUF_E_INCONSISTENT);
    /* A block of instances against one without. */
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(&q5, &b5, &q1, &b1, &plan, F, scratch, SCRATCH,
                                                    values, codes, 5 * LISTED, &needed),
               PERFBUF_E_INCONSISTENT);
    /* Outputs: one cell short, one scratch entry short. */
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(&q5, &b5, &q5, &b5, &plan, F, scratch, SCRATCH,
                                                    values, codes, 5 * LISTED - 1, &needed),
               PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(needed, 5 * LISTED);
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(&q5, &b5, &q5, &b5, &plan, F, scratch,
                                                    SCRATCH - 1, values, codes, 5 * LISTED,
                                                    &needed),
               PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(&q5, &b5, &q5, &b5, &plan, F, scratch, SCRATCH,
                                                    values, codes, 5 * LISTED, &needed),
               PERFBUF_OK);
    /* NULL arguments. */
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(NULL, &b5, &q5, &b5, &plan, F, scratch, SCRATCH,
                                                    values, codes, 5 * LISTED, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(&q5, &b5, &q5, &b5, NULL, F, scratch, SCRATCH,
                                                    values, codes, 5 * LISTED, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(&q5, &b5, &q5, &b5, &plan, F, scratch, SCRATCH,
                                                    values, NULL, 5 * LISTED, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(&q5, &b5, &q5, &b5, &plan, F, NULL, SCRATCH,
                                                    values, codes, 5 * LISTED, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(&q5, &b5, &q5, &b5, &plan, F, scratch, SCRATCH,
                                                    values, codes, 5 * LISTED, NULL),
               PERFBUF_E_INVALID_ARGUMENT);
    /* A block of the same offset but fewer ids than the plan: what
     * perfbuf_v2_plan_samples refuses. */
    static const uint32_t three[3] = {0, 1, 2};
    tb_v2 short_ids;
    tb_v2_begin(&short_ids, clk.stamp, clk.time_100ns, clk.freq);
    tb_v2_block_begin(&short_ids, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(&short_ids, three, 3);
    tb_v2_instances_begin(&short_ids, 5);
    for (uint32_t i = 0; i < 5; i++) {
        tb_v2_instance(&short_ids, i, "i00");
        tb_v2_u32(&short_ids, 1);
        tb_v2_u64(&short_ids, 2);
        tb_v2_u64(&short_ids, 3);
    }
    tb_v2_instances_end(&short_ids);
    tb_v2_block_end(&short_ids);
    tb_v2_end(&short_ids);
    perfbuf_v2_query qs;
    perfbuf_v2_block bs;
    CHECK(perfbuf_v2_query_parse(short_ids.buf.data, short_ids.buf.len, NULL, &qs, NULL) ==
          PERFBUF_OK);
    CHECK(first_block(&qs, &bs));
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(&q5, &b5, &qs, &bs, &plan, F, scratch, SCRATCH,
                                                    values, codes, 5 * LISTED, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    tb_free(&short_ids.buf);
    tb_free(&v5.buf);
    tb_free(&v4.buf);
    tb_free(&one.buf);
    tb_free(&reg_buf);
}

/* Where the walk decides which value of an id counts: a repeated id in
 * the list, a value of 16 bytes. The reference says the same. */
static void walk_decides(void)
{
    tb_buf reg_buf = registration();
    perfbuf_v2_reginfo reg = parsed_registration(&reg_buf);
    static const uint32_t repeated[4] = {0, 5, 5, 6};
    static const uint32_t plain[4] = {0, 5, 6, 7};
    for (int shape = 0; shape < 2; shape++) {
        tb_v2 v;
        tb_v2_begin(&v, 1000, 2000, 10000000);
        tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
        tb_v2_ids(&v, shape == 0 ? repeated : plain, 4);
        tb_v2_instances_begin(&v, 3);
        for (uint32_t i = 0; i < 3; i++) {
            tb_v2_instance(&v, i, "w");
            for (uint32_t p = 0; p < 4; p++) {
                if (shape == 1 && i == 2 && p == 3) {
                    static const uint8_t wide[16] = {1};
                    tb_v2_value(&v, wide, sizeof wide);
                } else {
                    tb_v2_u64(&v, 10u * i + p);
                }
            }
        }
        tb_v2_instances_end(&v);
        tb_v2_block_end(&v);
        tb_v2_end(&v);
        perfbuf_v2_query q;
        perfbuf_v2_block b;
        CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
        CHECK(first_block(&q, &b));
        perfbuf_v2_plan_entry entries[CAP];
        uint32_t plan_scratch[CAP];
        perfbuf_v2_plan plan;
        CHECK(perfbuf_v2_plan_build(&q, &b, &reg, entries, CAP, plan_scratch, CAP, &plan) ==
              PERFBUF_OK);
        CHECK(plan.repeated_ids == (shape == 0));
        static uint64_t scratch[2 * 32 * 4];
        double values[12], ref[12];
        uint8_t codes[12];
        uint32_t ref_status[12];
        size_t needed = 0;
        perfbuf_status want = shape == 0 ? PERFBUF_E_DUPLICATE_ID : PERFBUF_E_UNKNOWN_VALUE;
        CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(&q, &b, &q, &b, &plan, PERFBUF_FMT_DOUBLE,
                                                        scratch, 2 * 32 * 4, values, codes, 12,
                                                        &needed),
                   want);
        CHECK_EQ_U(needed, 12);
        perfbuf_status expected = PERFBUF_OK;
        CHECK(v2_doubles_reference(&q, &b, &q, &b, &reg, &plan, PERFBUF_FMT_DOUBLE, ref,
                                   ref_status, 12, &expected));
        CHECK_EQ_U(expected, want);
        tb_free(&v.buf);
    }
    tb_free(&reg_buf);
}

/* One query of one block: its parse and the block, kept together. */
typedef struct parsed_capture {
    tb_v2 v;
    perfbuf_v2_query q;
    perfbuf_v2_block b;
} parsed_capture;

static bool parse_capture(parsed_capture *c)
{
    return perfbuf_v2_query_parse(c->v.buf.data, c->v.buf.len, NULL, &c->q, NULL) ==
               PERFBUF_OK &&
           first_block(&c->q, &c->b);
}

/* The arguments not met above: each query and block NULL, outputs NULL
 * with no room (the size is still answered), a plan without entries or
 * of another block offset, an older block without an id list, and block
 * views that claim one instance more than their buffers hold. */
static void arguments_and_views(void)
{
    tb_buf reg_buf = registration();
    perfbuf_v2_reginfo reg = parsed_registration(&reg_buf);
    const clock_set clk = {1000000000, 133000000000000000, 10000000};
    parsed_capture c5 = {capture(5, 1, clk), {0}, {0}};
    CHECK(parse_capture(&c5));
    perfbuf_v2_plan_entry entries[CAP];
    uint32_t plan_scratch[CAP];
    perfbuf_v2_plan plan;
    CHECK(perfbuf_v2_plan_build(&c5.q, &c5.b, &reg, entries, CAP, plan_scratch, CAP, &plan) ==
          PERFBUF_OK);
    enum { SCRATCH = 2 * 32 * LISTED, CELLS = 5 * LISTED };
    static uint64_t scratch[SCRATCH];
    static double values[CELLS];
    static uint8_t codes[CELLS];
    const uint32_t F = PERFBUF_FMT_DOUBLE;
    const perfbuf_v2_query *q = &c5.q;
    const perfbuf_v2_block *b = &c5.b;
    size_t needed = 99;
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(q, NULL, q, b, &plan, F, scratch, SCRATCH,
                                                    values, codes, CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(q, b, NULL, b, &plan, F, scratch, SCRATCH,
                                                    values, codes, CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(q, b, q, NULL, &plan, F, scratch, SCRATCH,
                                                    values, codes, CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(q, b, q, b, &plan, F, scratch, SCRATCH, NULL,
                                                    codes, CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(needed, 99);
    /* No outputs and no room, no scratch and no room: the sizes. */
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(q, b, q, b, &plan, F, scratch, SCRATCH, NULL,
                                                    NULL, 0, &needed),
               PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(needed, CELLS);
    needed = 99;
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(q, b, q, b, &plan, F, NULL, 0, values, codes,
                                                    CELLS, &needed),
               PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(needed, CELLS);
    /* A plan without entries, and one of another block offset. */
    perfbuf_v2_plan changed = plan;
    changed.entries = NULL;
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(q, b, q, b, &changed, F, scratch, SCRATCH,
                                                    values, codes, CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(needed, 0);
    changed = plan;
    changed.block_offset += 8;
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(q, b, q, b, &changed, F, scratch, SCRATCH,
                                                    values, codes, CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    /* Views that claim a sixth instance: the rows run out, refused. */
    perfbuf_v2_block more = c5.b;
    more.instance_count += 1;
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(q, &more, q, &more, &plan, F, scratch, SCRATCH,
                                                    values, codes, CELLS + LISTED, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(needed, CELLS + LISTED);
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(q, b, q, b, &plan, F, scratch, SCRATCH, values,
                                                    codes, CELLS, &needed),
               PERFBUF_OK);
    /* A plan of a one-id list at the offset of an older block without an
     * id list (one value, no ids): refused as perfbuf_v2_plan_samples
     * refuses it. */
    static const uint32_t one_id[1] = {5};
    parsed_capture listed, single;
    memset(&listed, 0, sizeof listed);
    memset(&single, 0, sizeof single);
    tb_v2_begin(&listed.v, clk.stamp, clk.time_100ns, clk.freq);
    tb_v2_block_begin(&listed.v, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
    tb_v2_ids(&listed.v, one_id, 1);
    tb_v2_u32(&listed.v, 7);
    tb_v2_block_end(&listed.v);
    tb_v2_end(&listed.v);
    tb_v2_begin(&single.v, clk.stamp, clk.time_100ns, clk.freq);
    tb_v2_block_begin(&single.v, 0, PERFBUF_V2_SINGLE_COUNTER);
    tb_v2_u32(&single.v, 7);
    tb_v2_block_end(&single.v);
    tb_v2_end(&single.v);
    CHECK(parse_capture(&listed) && parse_capture(&single));
    perfbuf_v2_plan one;
    CHECK(perfbuf_v2_plan_build(&listed.q, &listed.b, &reg, entries, CAP, plan_scratch, CAP,
                                &one) == PERFBUF_OK);
    CHECK_EQ_U(one.count, 1);
    CHECK_EQ_U(single.b.counter_count, 1);
    CHECK_EQ_U(single.b.offset, listed.b.offset);
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(&listed.q, &listed.b, &single.q, &single.b,
                                                    &one, F, scratch, SCRATCH, values, codes,
                                                    CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(&listed.q, &listed.b, &listed.q, &listed.b,
                                                    &one, F, scratch, SCRATCH, values, codes,
                                                    CELLS, &needed),
               PERFBUF_OK);
    CHECK_EQ_U(needed, 1);
    CHECK_EQ_U(codes[0], PERFBUF_COMPACT_VALID_DATA);
    CHECK(values[0] == 700.0); /* id 5: a raw count of DefaultScale 2 */
    tb_free(&listed.v.buf);
    tb_free(&single.v.buf);
    tb_free(&c5.v.buf);
    tb_free(&reg_buf);
}

/* A plan whose entry at position 0 (a rate on the system clock, which
 * the column loops take) the caller changed since the build. */
enum {
    CHANGED_FIRST,          /* a position past the values */
    CHANGED_SECOND,         /* a second value read from past them */
    CHANGED_FREQUENCY,      /* a frequency read from past them */
    CHANGED_MULTI,          /* a multi count read from past them */
    CHANGED_SECOND_SOURCE,  /* a source past the four clocks */
    CHANGED_FREQUENCY_SOURCE,
    CHANGED_OUT_OF_RANGE,   /* the kinds above: the sample is refused */
    CHANGED_FORMULA = CHANGED_OUT_OF_RANGE, /* another type's formula */
    CHANGED_SCALE,          /* a DefaultScale past PERFBUF_MAX_SCALE */
    CHANGED_TYPE,           /* type and formula of a raw fraction, its clocks kept */
    CHANGED_ELAPSED,        /* of an elapsed time, its clocks kept */
    CHANGED_KINDS
};

static void change_entry(perfbuf_v2_plan_entry *e, int kind, uint32_t count)
{
    switch (kind) {
    case CHANGED_FIRST:
        e->first = count;
        break;
    case CHANGED_SECOND:
        e->second_source = 1; /* read from the values */
        e->second = count;
        break;
    case CHANGED_FREQUENCY:
        e->frequency_source = 1;
        e->frequency = count;
        break;
    case CHANGED_MULTI:
        e->multi = count;
        break;
    case CHANGED_SECOND_SOURCE:
        e->second_source = 4;
        break;
    case CHANGED_FREQUENCY_SOURCE:
        e->frequency_source = 4;
        break;
    case CHANGED_FORMULA:
        EXPECT(perfbuf_prepare_formula(PERF_COUNTER_RAWCOUNT, &e->formula) == PERFBUF_OK);
        break;
    case CHANGED_SCALE:
        e->scale = PERFBUF_MAX_SCALE + 1;
        break;
    case CHANGED_TYPE:
        e->type = PERF_RAW_FRACTION;
        EXPECT(perfbuf_prepare_formula(PERF_RAW_FRACTION, &e->formula) == PERFBUF_OK);
        break;
    default:
        e->type = PERF_ELAPSED_TIME;
        EXPECT(perfbuf_prepare_formula(PERF_ELAPSED_TIME, &e->formula) == PERFBUF_OK);
        break;
    }
}

/* Every changed entry: the cells are what the reference gives with the
 * same plan (perfbuf_v2_plan_samples, perfbuf_format_prepared), and for
 * the positions and sources out of range the column is refused in every
 * row (PDH_INVALID_ARGUMENT, 0) while the other columns are untouched. */
static void changed_entries(void)
{
    tb_buf reg_buf = registration();
    perfbuf_v2_reginfo reg = parsed_registration(&reg_buf);
    const clock_set older = {1000000000, 133000000000000000, 10000000};
    const clock_set newer = {1010000000, 133000000010000000, 10000000};
    enum { ROWS = 33, CELLS = ROWS * LISTED };
    parsed_capture c0 = {capture(ROWS, 0, older), {0}, {0}};
    parsed_capture c1 = {capture(ROWS, 1, newer), {0}, {0}};
    CHECK(parse_capture(&c0) && parse_capture(&c1));
    perfbuf_v2_plan_entry built[CAP], entries[CAP];
    uint32_t plan_scratch[CAP];
    perfbuf_v2_plan plan;
    CHECK(perfbuf_v2_plan_build(&c1.q, &c1.b, &reg, built, CAP, plan_scratch, CAP, &plan) ==
          PERFBUF_OK);
    CHECK_EQ_U(built[0].type, PERF_COUNTER_COUNTER);
    CHECK_EQ_U(built[0].status, PERFBUF_OK);
    static uint64_t scratch[2 * 32 * LISTED];
    static double unchanged[CELLS], got[CELLS], ref[CELLS];
    static uint8_t unchanged_codes[CELLS], codes[CELLS];
    static uint32_t ref_status[CELLS];
    size_t needed = 0;
    const uint32_t F = PERFBUF_FMT_DOUBLE;
    CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(&c1.q, &c1.b, &c0.q, &c0.b, &plan, F, scratch,
                                                    2 * 32 * LISTED, unchanged, unchanged_codes,
                                                    CELLS, &needed),
               PERFBUF_OK);
    /* The column as built: valid values, so a refusal below is the change's. */
    CHECK_EQ_U(unchanged_codes[0], PERFBUF_COMPACT_VALID_DATA);
    for (int kind = 0; kind < CHANGED_KINDS; kind++) {
        memcpy(entries, built, sizeof entries);
        CALL(change_entry(&entries[0], kind, LISTED));
        perfbuf_v2_plan changed = plan;
        changed.entries = entries;
        CHECK_EQ_U(perfbuf_v2_plan_format_block_doubles(&c1.q, &c1.b, &c0.q, &c0.b, &changed, F,
                                                        scratch, 2 * 32 * LISTED, got, codes,
                                                        CELLS, &needed),
                   PERFBUF_OK);
        perfbuf_status expected = PERFBUF_E_INVALID_ARGUMENT;
        CHECK(v2_doubles_reference(&c1.q, &c1.b, &c0.q, &c0.b, &reg, &changed, F, ref, ref_status,
                                   CELLS, &expected));
        CHECK_EQ_U(expected, PERFBUF_OK);
        for (size_t c = 0; c < CELLS; c++) {
            if (!v2_doubles_cell_equal(got[c], codes[c], ref[c], ref_status[c])) {
                fprintf(stderr, "change %d cell %zu: %.17g code %u, reference %.17g status %#x\n",
                        kind, c, got[c], (unsigned)codes[c], ref[c], (unsigned)ref_status[c]);
            }
            CHECK(v2_doubles_cell_equal(got[c], codes[c], ref[c], ref_status[c]));
            if (c % LISTED == 0 && kind < CHANGED_OUT_OF_RANGE) {
                CHECK_EQ_U(codes[c], PERFBUF_COMPACT_PDH_INVALID_ARGUMENT);
                CHECK(got[c] == 0.0);
            } else if (c % LISTED != 0) {
                CHECK_EQ_U(codes[c], unchanged_codes[c]);
                CHECK(memcmp(&got[c], &unchanged[c], sizeof got[c]) == 0);
            }
        }
    }
    tb_free(&c0.v.buf);
    tb_free(&c1.v.buf);
    tb_free(&reg_buf);
}

static const th_case cases[] = {
    TH_CASE(equals_value_by_value),
    TH_CASE(statuses),
    TH_CASE(walk_decides),
    TH_CASE(arguments_and_views),
    TH_CASE(changed_entries),
};
TH_MAIN(cases)
