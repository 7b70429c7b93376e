/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * perfbuf_v1_plan_format_object_doubles: every cell is the as_double and
 * the compact code of the status perfbuf_v1_plan_format_object writes in
 * that cell, for every flags, on objects of every formula, both widths,
 * scales in and out of range, counters that go backwards, clocks that
 * stand still or go back, a frequency of 0, columns that do not pair,
 * and row counts on both sides of the call's 32-row steps. Every buffer
 * is parsed in front of a guard page.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/v1.h"
#include "builder_v1.h"
#include "guard.h"
#include "harness.h"

typedef struct capture {
    tb_v1 v;
    guarded g;
    perfbuf_v1_block b;
} capture;

static bool capture_parse(capture *c)
{
    c->g = guard_place(c->v.buf.data, c->v.buf.len);
    /* Not strict: a multi timer's missing multi base is an anomaly the
     * default parse accepts, and its column's status NO_COUNTER. */
    perfbuf_options opts = {0, 0, 0, 0};
    return perfbuf_v1_parse(c->g.bytes, c->v.buf.len, &opts, &c->b, NULL) == PERFBUF_OK;
}

static void capture_free(capture *c)
{
    guard_release(&c->g);
    tb_free(&c->v.buf);
}

/* The counters of the generated object: every formula, the base and
 * multi counters after the types that take them, 4- and 8-byte values. */
typedef struct column_def {
    uint32_t type;
    uint32_t size;
} column_def;

static const column_def columns[] = {
    {PERF_COUNTER_COUNTER, 4},
    {PERF_COUNTER_BULK_COUNT, 8},
    {PERF_SAMPLE_COUNTER, 4},
    {PERF_COUNTER_QUEUELEN_TYPE, 4},
    {PERF_COUNTER_LARGE_QUEUELEN_TYPE, 8},
    {PERF_COUNTER_100NS_QUEUELEN_TYPE, 8},
    {PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE, 8},
    {PERF_COUNTER_TIMER, 8},
    {PERF_100NSEC_TIMER, 8},
    {PERF_OBJ_TIME_TIMER, 8},
    {PERF_COUNTER_TIMER_INV, 8},
    {PERF_100NSEC_TIMER_INV, 8},
    {PERF_COUNTER_MULTI_TIMER, 8},
    {PERF_COUNTER_MULTI_BASE, 8},
    {PERF_100NSEC_MULTI_TIMER_INV, 8},
    {PERF_COUNTER_MULTI_BASE, 8},
    {PERF_SAMPLE_FRACTION, 4},
    {PERF_SAMPLE_BASE, 4},
    {PERF_PRECISION_100NS_TIMER, 8},
    {PERF_PRECISION_TIMESTAMP, 8},
    {PERF_RAW_FRACTION, 4},
    {PERF_RAW_BASE, 4},
    {PERF_LARGE_RAW_FRACTION, 8},
    {PERF_LARGE_RAW_BASE, 8},
    {PERF_AVERAGE_TIMER, 4},
    {PERF_AVERAGE_BASE, 4},
    {PERF_AVERAGE_BULK, 8},
    {PERF_AVERAGE_BASE, 4},
    {PERF_COUNTER_RAWCOUNT, 4},
    {PERF_COUNTER_LARGE_RAWCOUNT, 8},
    {PERF_COUNTER_RAWCOUNT_HEX, 4},
    {PERF_COUNTER_DELTA, 4},
    {PERF_COUNTER_LARGE_DELTA, 8},
    {PERF_ELAPSED_TIME, 8},
    {PERF_100NSEC_MULTI_TIMER, 8}, /* its multi base missing (an anomaly): a raw count next */
    {PERF_COUNTER_RAWCOUNT, 4},
    {PERF_COUNTER_LARGE_RAWCOUNT, 8},
};
enum { COLUMNS = sizeof columns / sizeof columns[0], MAX_ROWS = 70 };

/* xorshift64, each left shift masked first so that no bit is shifted out:
 * the tests run under clang's -fsanitize=integer, which refuses a wrap. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= (x & (UINT64_MAX >> 13)) << 13;
    x ^= x >> 7;
    x ^= (x & (UINT64_MAX >> 17)) << 17;
    *state = x;
    return x;
}

/* A value for row i, column k of a capture: small steps forward, and now
 * and then a wrap, a step back, 0, or a value with its top bit set. */
static uint64_t cell_value(uint64_t *state, uint32_t size)
{
    uint64_t r = next_random(state);
    uint64_t v;
    switch (r % 8) {
    case 0:
        v = 0;
        break;
    case 1:
        v = UINT64_MAX - (r >> 40);
        break;
    case 2:
        v = r;
        break;
    default:
        v = 1000000u + (r >> 50);
        break;
    }
    return size == 4 ? (v & 0xFFFFFFFFu) : v;
}

/*
 * One capture: an object of `rows` instances (NumInstances -1 and one
 * block when rows is 0) with the columns above, and a second object of
 * raw counts; PerfTime, PerfFreq and PerfTime100nSec as given, every
 * counter's DefaultScale from `scales`, `retyped` (when below COLUMNS)
 * given another type, the cells from `seed`.
 */
static tb_v1 make_capture(uint32_t rows, uint64_t perf_time, uint64_t perf_freq, uint64_t t100,
                          const int32_t *scales, uint32_t retyped, uint64_t seed)
{
    tb_v1 v;
    tb_v1_begin(&v, "DOUBLES");
    /* PERF_DATA_BLOCK's PerfTime, PerfFreq, PerfTime100nSec (winperf.h). */
    for (int i = 0; i < 8; i++) {
        v.buf.data[56 + i] = (uint8_t)(perf_time >> (8 * i));
        v.buf.data[64 + i] = (uint8_t)(perf_freq >> (8 * i));
        v.buf.data[72 + i] = (uint8_t)(t100 >> (8 * i));
    }
    uint32_t offsets[COLUMNS];
    uint32_t at = 8;
    tb_v1_object_begin(&v, 700, rows == 0, 0);
    for (uint32_t k = 0; k < COLUMNS; k++) {
        offsets[k] = at;
        uint32_t type = k == retyped ? PERF_COUNTER_LARGE_RAWCOUNT : columns[k].type;
        uint32_t size = k == retyped ? 8 : columns[k].size;
        tb_v1_counter(&v, 2 * k + 2, type, size, at);
        at += size;
    }
    tb_v1_definitions_end(&v);
    uint32_t block_size = (at + 7u) & ~7u;
    uint8_t *data = calloc(1, block_size);
    EXPECT(data != NULL);
    uint64_t state = seed;
    for (uint32_t i = 0; i < (rows == 0 ? 1u : rows); i++) {
        for (uint32_t k = 0; k < COLUMNS; k++) {
            uint32_t size = k == retyped ? 8 : columns[k].size;
            uint64_t value = cell_value(&state, size);
            if (size == 4) {
                tb_put32(data, offsets[k], (uint32_t)value);
            } else {
                tb_put64(data, offsets[k], value);
            }
        }
        if (rows != 0) {
            char name[16];
            snprintf(name, sizeof name, "i%u", i);
            tb_v1_instance(&v, name, 0, 0);
        }
        tb_v1_counter_block(&v, data, block_size);
    }
    free(data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    /* DefaultScale (winperf.h PERF_COUNTER_DEFINITION, the sixth DWORD),
     * patched in place: the builder writes 0. */
    perfbuf_v1_block b;
    perfbuf_v1_object o;
    perfbuf_v1_iter it;
    perfbuf_v1_counter c;
    perfbuf_error err;
    perfbuf_status st = perfbuf_v1_parse(v.buf.data, v.buf.len, NULL, &b, &err);
    if (st != PERFBUF_OK) {
        fprintf(stderr, "generated capture refused: %s.%s at %zu\n", err.structure, err.field,
                err.offset);
    }
    EXPECT(st == PERFBUF_OK);
    EXPECT(perfbuf_v1_find_object(&b, 700, &o) == PERFBUF_OK);
    perfbuf_v1_counters_begin(&o, &it);
    while (perfbuf_v1_counters_next(&b, &it, &c)) {
        for (int i = 0; i < 4; i++) {
            v.buf.data[c.offset + 20u + (size_t)i] = (uint8_t)((uint32_t)scales[c.index] >> (8 * i));
        }
    }
    return v;
}

static const uint32_t all_flags[] = {
    PERFBUF_FMT_DOUBLE,
    PERFBUF_FMT_DOUBLE | PERFBUF_FMT_NOSCALE,
    PERFBUF_FMT_DOUBLE | PERFBUF_FMT_1000,
    PERFBUF_FMT_DOUBLE | PERFBUF_FMT_NOCAP100,
    PERFBUF_FMT_DOUBLE | PERFBUF_FMT_1000 | PERFBUF_FMT_NOCAP100 | PERFBUF_FMT_NOSCALE,
    PERFBUF_FMT_LARGE,
    PERFBUF_FMT_LARGE | PERFBUF_FMT_NOSCALE,
    PERFBUF_FMT_LONG | PERFBUF_FMT_1000,
    0,
    PERFBUF_FMT_DOUBLE | PERFBUF_FMT_LONG,
};

/* How often each code was written, over every comparison. */
static size_t seen[PERFBUF_COMPACT_COUNT];

/* Every cell of the doubles call against perfbuf_v1_plan_format_object;
 * the number of valid cells (so a caller can tell the case formatted). */
static size_t compare_object(const perfbuf_v1_plan *p1, const perfbuf_v1_block *b1,
                             const perfbuf_v1_object *o1, const perfbuf_v1_plan *p0,
                             const perfbuf_v1_block *b0, const perfbuf_v1_object *o0,
                             uint32_t flags)
{
    size_t cap = (size_t)(MAX_ROWS + 1) * COLUMNS;
    perfbuf_value *expected = malloc(sizeof *expected * cap);
    double *values = malloc(sizeof *values * cap);
    uint8_t *codes = malloc(cap);
    EXPECT(expected != NULL && values != NULL && codes != NULL);
    size_t needed = 0;
    size_t needed_doubles = 1;
    EXPECT((perfbuf_v1_plan_format_object(p1, b1, o1, p0, b0, o0, flags, expected, cap,
                                             &needed)) == (PERFBUF_OK));
    memset(codes, 0xEE, cap);
    EXPECT((perfbuf_v1_plan_format_object_doubles(p1, b1, o1, p0, b0, o0, flags, values, codes,
                                                     cap, &needed_doubles)) == (PERFBUF_OK));
    EXPECT((needed_doubles) == (needed));
    size_t valid = 0;
    for (size_t c = 0; c < needed; c++) {
        EXPECT(codes[c] < PERFBUF_COMPACT_COUNT);
        EXPECT((perfbuf_compact_cstatus(codes[c])) == (expected[c].status));
        EXPECT(memcmp(&values[c], &expected[c].as_double, sizeof values[c]) == 0);
        valid += expected[c].status == PERFBUF_CSTATUS_VALID_DATA;
        seen[codes[c] < PERFBUF_COMPACT_COUNT ? codes[c] : 0]++;
    }
    free(expected);
    free(values);
    free(codes);
    return valid;
}

typedef struct clocks {
    uint64_t time, freq, t100;
} clocks;

/* Two captures of `rows` instances (0: one block), compared under every
 * flags; the valid cells over all flags. */
static size_t compare_captures(uint32_t rows, clocks older, clocks newer, const int32_t *scales,
                               uint32_t retyped, uint64_t seed)
{
    capture c0 = {make_capture(rows, older.time, older.freq, older.t100, scales, COLUMNS, seed),
                  {0}, {0}};
    capture c1 = {make_capture(rows, newer.time, newer.freq, newer.t100, scales, retyped,
                               seed * 31u + 7u),
                  {0}, {0}};
    EXPECT(capture_parse(&c0));
    EXPECT(capture_parse(&c1));
    size_t valid = 0;
    {
        uint32_t title = 700;
        perfbuf_v1_object o0, o1;
        EXPECT(perfbuf_v1_find_object(&c0.b, title, &o0) == PERFBUF_OK);
        EXPECT(perfbuf_v1_find_object(&c1.b, title, &o1) == PERFBUF_OK);
        perfbuf_v1_plan_entry e0[COLUMNS], e1[COLUMNS];
        perfbuf_v1_plan p0, p1;
        EXPECT(perfbuf_v1_plan_build(&c0.b, &o0, e0, COLUMNS, &p0) == PERFBUF_OK);
        EXPECT(perfbuf_v1_plan_build(&c1.b, &o1, e1, COLUMNS, &p1) == PERFBUF_OK);
        for (size_t f = 0; f < sizeof all_flags / sizeof all_flags[0]; f++) {
            valid += compare_object(&p1, &c1.b, &o1, &p0, &c0.b, &o0, all_flags[f]);
            /* The captures the other way round: every counter backwards. */
            valid += compare_object(&p0, &c0.b, &o0, &p1, &c1.b, &o1, all_flags[f]);
        }
    }
    capture_free(&c0);
    capture_free(&c1);
    return valid;
}

static void test_doubles_equal_format_object(void)
{
    int32_t no_scales[COLUMNS];
    int32_t scales[COLUMNS];
    for (uint32_t k = 0; k < COLUMNS; k++) {
        no_scales[k] = 0;
        /* -11 and 11 are outside PERFBUF_MIN_SCALE..MAX_SCALE. */
        static const int32_t pick[] = {0, 2, -3, 10, -10, 11, -11, 1};
        scales[k] = pick[k % 8];
    }
    clocks older = {1000000, 10000000, 134398148561470699ull};
    clocks later = {1000000 + 10000000, 10000000, 134398148561470699ull + 10000000};
    clocks same = older;
    clocks back = {999, 10000000, 134398148561470000ull};
    clocks no_freq = {1000000 + 10000000, 0, 134398148561470699ull + 10000000};
    static const uint32_t row_counts[] = {0, 1, 17, 31, 32, 33, 65, MAX_ROWS};
    size_t valid = 0;
    for (size_t r = 0; r < sizeof row_counts / sizeof row_counts[0]; r++) {
        uint32_t rows = row_counts[r];
        valid += compare_captures(rows, older, later, no_scales, COLUMNS, 1 + r);
        valid += compare_captures(rows, older, later, scales, COLUMNS, 11 + r);
        valid += compare_captures(rows, older, same, scales, COLUMNS, 21 + r);
        valid += compare_captures(rows, older, back, no_scales, COLUMNS, 31 + r);
        valid += compare_captures(rows, older, no_freq, scales, COLUMNS, 41 + r);
        /* One column of the newer capture retyped: it pairs with nothing. */
        valid += compare_captures(rows, older, later, no_scales, (uint32_t)(r % COLUMNS), 51 + r);
    }
    CHECK(valid > 0);
    /* Every status a formatted value can have was met and compared. */
    for (uint32_t code = 0; code < PERFBUF_COMPACT_COUNT; code++) {
        if (seen[code] == 0) { fprintf(stderr, "code %u never seen\n", code); }
        CHECK(seen[code] > 0);
    }
}

/* The arguments: what perfbuf_v1_plan_format_object answers, and the
 * statuses matrix too must be given when cap is not 0. */
static void test_doubles_arguments(void)
{
    int32_t scales[COLUMNS] = {0};
    capture c0 = {make_capture(3, 1000, 10000000, 5000, scales, COLUMNS, 1), {0}, {0}};
    capture c1 = {make_capture(3, 2000, 10000000, 6000, scales, COLUMNS, 2), {0}, {0}};
    capture c2 = {make_capture(4, 2000, 10000000, 6000, scales, COLUMNS, 2), {0}, {0}};
    CHECK(capture_parse(&c0) && capture_parse(&c1) && capture_parse(&c2));
    perfbuf_v1_object o0, o1, o2;
    CHECK(perfbuf_v1_find_object(&c0.b, 700, &o0) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&c1.b, 700, &o1) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&c2.b, 700, &o2) == PERFBUF_OK);
    perfbuf_v1_plan_entry e0[COLUMNS], e1[COLUMNS], e2[COLUMNS];
    perfbuf_v1_plan p0, p1, p2;
    CHECK(perfbuf_v1_plan_build(&c0.b, &o0, e0, COLUMNS, &p0) == PERFBUF_OK);
    CHECK(perfbuf_v1_plan_build(&c1.b, &o1, e1, COLUMNS, &p1) == PERFBUF_OK);
    CHECK(perfbuf_v1_plan_build(&c2.b, &o2, e2, COLUMNS, &p2) == PERFBUF_OK);
    enum { CELLS = 3 * COLUMNS };
    double values[CELLS];
    uint8_t codes[CELLS];
    size_t needed = 0;
    uint32_t f = PERFBUF_FMT_DOUBLE;
    CHECK_EQ_U(perfbuf_v1_plan_format_object_doubles(&p1, &c1.b, &o1, &p0, &c0.b, &o0, f, values,
                                                     codes, CELLS - 1, &needed),
               PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(needed, CELLS);
    CHECK_EQ_U(perfbuf_v1_plan_format_object_doubles(&p1, &c1.b, &o1, &p0, &c0.b, &o0, f, NULL,
                                                     NULL, 0, &needed),
               PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(needed, CELLS);
    CHECK_EQ_U(perfbuf_v1_plan_format_object_doubles(&p1, &c1.b, &o1, &p0, &c0.b, &o0, f, values,
                                                     NULL, CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_object_doubles(&p1, &c1.b, &o1, &p0, &c0.b, &o0, f, NULL,
                                                     codes, CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_object_doubles(&p1, &c1.b, &o1, &p0, &c0.b, &o0, f, values,
                                                     codes, CELLS, NULL),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_object_doubles(NULL, &c1.b, &o1, &p0, &c0.b, &o0, f, values,
                                                     codes, CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    /* A plan given with the other capture's parse, and instance counts
     * that differ (not paired by position). */
    CHECK_EQ_U(perfbuf_v1_plan_format_object_doubles(&p1, &c1.b, &o1, &p0, &c1.b, &o1, f, values,
                                                     codes, CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_object_doubles(&p2, &c2.b, &o2, &p0, &c0.b, &o0, f, values,
                                                     codes, CELLS, &needed),
               PERFBUF_E_INCONSISTENT);
    /* An entry changed since the build: the seal refuses it. */
    e1[2].offset ^= 8u;
    CHECK_EQ_U(perfbuf_v1_plan_format_object_doubles(&p1, &c1.b, &o1, &p0, &c0.b, &o0, f, values,
                                                     codes, CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    e1[2].offset ^= 8u;
    CHECK_EQ_U(perfbuf_v1_plan_format_object_doubles(&p1, &c1.b, &o1, &p0, &c0.b, &o0, f, values,
                                                     codes, CELLS, &needed),
               PERFBUF_OK);
    capture_free(&c0);
    capture_free(&c1);
    capture_free(&c2);
}

/* Each pointer argument NULL, of the doubles call and of the two calls
 * whose checks it shares: INVALID_ARGUMENT before *needed is written. */
static void test_null_arguments(void)
{
    int32_t scales[COLUMNS] = {0};
    capture c0 = {make_capture(3, 1000, 10000000, 5000, scales, COLUMNS, 1), {0}, {0}};
    capture c1 = {make_capture(3, 2000, 10000000, 6000, scales, COLUMNS, 2), {0}, {0}};
    CHECK(capture_parse(&c0) && capture_parse(&c1));
    perfbuf_v1_object o0, o1;
    CHECK(perfbuf_v1_find_object(&c0.b, 700, &o0) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&c1.b, 700, &o1) == PERFBUF_OK);
    perfbuf_v1_plan_entry e0[COLUMNS], e1[COLUMNS];
    perfbuf_v1_plan p0, p1;
    CHECK(perfbuf_v1_plan_build(&c0.b, &o0, e0, COLUMNS, &p0) == PERFBUF_OK);
    CHECK(perfbuf_v1_plan_build(&c1.b, &o1, e1, COLUMNS, &p1) == PERFBUF_OK);
    enum { CELLS = 3 * COLUMNS };
    static double values[CELLS];
    static uint8_t codes[CELLS];
    static perfbuf_value formatted[CELLS];
    static uint64_t raw[CELLS];
    const uint32_t f = PERFBUF_FMT_DOUBLE;
    /* Which of the six plan, block and object arguments is NULL. */
    for (int which = 0; which < 6; which++) {
        const perfbuf_v1_plan *np = which == 0 ? NULL : &p1;
        const perfbuf_v1_block *nb = which == 1 ? NULL : &c1.b;
        const perfbuf_v1_object *no = which == 2 ? NULL : &o1;
        const perfbuf_v1_plan *op = which == 3 ? NULL : &p0;
        const perfbuf_v1_block *ob = which == 4 ? NULL : &c0.b;
        const perfbuf_v1_object *oo = which == 5 ? NULL : &o0;
        size_t needed = 99;
        CHECK_EQ_U(perfbuf_v1_plan_format_object_doubles(np, nb, no, op, ob, oo, f, values, codes,
                                                         CELLS, &needed),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_EQ_U(needed, 99);
        CHECK_EQ_U(perfbuf_v1_plan_format_object(np, nb, no, op, ob, oo, f, formatted, CELLS,
                                                 &needed),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_EQ_U(needed, 99);
        if (which < 3) {
            CHECK_EQ_U(perfbuf_v1_plan_read_object(np, nb, no, raw, CELLS, &needed),
                       PERFBUF_E_INVALID_ARGUMENT);
            CHECK_EQ_U(needed, 99);
        }
    }
    size_t needed = 99;
    CHECK_EQ_U(perfbuf_v1_plan_format_object(&p1, &c1.b, &o1, &p0, &c0.b, &o0, f, formatted,
                                             CELLS, NULL),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_object(&p1, &c1.b, &o1, &p0, &c0.b, &o0, f, NULL, CELLS,
                                             &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(needed, 99);
    /* No output and no room: the size asked for. */
    CHECK_EQ_U(perfbuf_v1_plan_format_object(&p1, &c1.b, &o1, &p0, &c0.b, &o0, f, NULL, 0,
                                             &needed),
               PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(needed, CELLS);
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&p1, &c1.b, &o1, raw, CELLS, NULL),
               PERFBUF_E_INVALID_ARGUMENT);
    needed = 99;
    CHECK_EQ_U(perfbuf_v1_plan_read_object(&p1, &c1.b, &o1, NULL, CELLS, &needed),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(needed, 99);
    capture_free(&c0);
    capture_free(&c1);
}

/* A plan or object view changed in one field since the build: refused by
 * the three whole-object calls before anything is read (plan_of_object),
 * and accepted again once restored. */
static void test_changed_plan_or_object(void)
{
    int32_t scales[COLUMNS] = {0};
    capture c0 = {make_capture(3, 1000, 10000000, 5000, scales, COLUMNS, 1), {0}, {0}};
    capture c1 = {make_capture(3, 2000, 10000000, 6000, scales, COLUMNS, 2), {0}, {0}};
    CHECK(capture_parse(&c0) && capture_parse(&c1));
    perfbuf_v1_object o0, o1;
    CHECK(perfbuf_v1_find_object(&c0.b, 700, &o0) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&c1.b, 700, &o1) == PERFBUF_OK);
    perfbuf_v1_plan_entry e0[COLUMNS], e1[COLUMNS];
    perfbuf_v1_plan p0, p1;
    CHECK(perfbuf_v1_plan_build(&c0.b, &o0, e0, COLUMNS, &p0) == PERFBUF_OK);
    CHECK(perfbuf_v1_plan_build(&c1.b, &o1, e1, COLUMNS, &p1) == PERFBUF_OK);
    enum { CELLS = 3 * COLUMNS, KINDS = 10 };
    static double values[CELLS];
    static uint8_t codes[CELLS];
    static perfbuf_value formatted[CELLS];
    static uint64_t raw[CELLS];
    const uint32_t f = PERFBUF_FMT_DOUBLE;
    for (int kind = 0; kind < KINDS; kind++) {
        perfbuf_v1_plan p = p1;
        perfbuf_v1_object o = o1;
        switch (kind) {
        case 0: p.data = c0.b.data; break;           /* another capture's bytes */
        case 1: p.size -= 1; break;
        case 2: p.perf_time += 1; break;
        case 3: p.perf_time_100ns += 1; break;
        case 4: p.data_offset += 8; break;
        case 5: p.data_end -= 8; break;
        case 6: p.count -= 1; break;
        case 7: p.entries = NULL; break;
        case 8: o.definitions_offset += 4; break;   /* not where the header ends */
        default: o.instance_count += 1; break;      /* not NumInstances */
        }
        size_t needed = 99;
        CHECK_EQ_U(perfbuf_v1_plan_format_object_doubles(&p, &c1.b, &o, &p0, &c0.b, &o0, f, values,
                                                         codes, CELLS, &needed),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_EQ_U(needed, 0);
        /* On the older side as well. */
        CHECK_EQ_U(perfbuf_v1_plan_format_object_doubles(&p0, &c0.b, &o0, &p, &c1.b, &o, f, values,
                                                         codes, CELLS, &needed),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_EQ_U(perfbuf_v1_plan_format_object(&p, &c1.b, &o, &p0, &c0.b, &o0, f, formatted,
                                                 CELLS, &needed),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_EQ_U(perfbuf_v1_plan_read_object(&p, &c1.b, &o, raw, CELLS, &needed),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_EQ_U(needed, 0);
    }
    size_t needed = 0;
    CHECK_EQ_U(perfbuf_v1_plan_format_object_doubles(&p1, &c1.b, &o1, &p0, &c0.b, &o0, f, values,
                                                     codes, CELLS, &needed),
               PERFBUF_OK);
    CHECK_EQ_U(needed, CELLS);
    capture_free(&c0);
    capture_free(&c1);
}

/* A ByteLength (the first DWORD of PERF_INSTANCE_DEFINITION and of
 * PERF_COUNTER_BLOCK) written over. */
static void put_le32(uint8_t *at, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        at[i] = (uint8_t)(v >> (8 * i));
    }
}

/* The bytes changed after the parse, under a plan sealed on them: an
 * instance's ByteLength below its header or past the object, a counter
 * block's below its header, below the plan's reach or past the object. Refused, never read past a block. */
static void test_bytes_changed_after_parse(void)
{
    int32_t scales[COLUMNS] = {0};
    enum { ROWS = 3, CELLS = ROWS * COLUMNS };
    static double values[CELLS];
    static uint8_t codes[CELLS];
    static perfbuf_value formatted[CELLS];
    static uint64_t raw[CELLS];
    const uint32_t f = PERFBUF_FMT_DOUBLE;
    for (int kind = 0; kind < 5; kind++) {
        for (int side = 0; side < 2; side++) {
            capture c0 = {make_capture(ROWS, 1000, 10000000, 5000, scales, COLUMNS, 1), {0}, {0}};
            capture c1 = {make_capture(ROWS, 2000, 10000000, 6000, scales, COLUMNS, 2), {0}, {0}};
            CHECK(capture_parse(&c0) && capture_parse(&c1));
            perfbuf_v1_object o0, o1;
            CHECK(perfbuf_v1_find_object(&c0.b, 700, &o0) == PERFBUF_OK);
            CHECK(perfbuf_v1_find_object(&c1.b, 700, &o1) == PERFBUF_OK);
            perfbuf_v1_plan_entry e0[COLUMNS], e1[COLUMNS];
            perfbuf_v1_plan p0, p1;
            CHECK(perfbuf_v1_plan_build(&c0.b, &o0, e0, COLUMNS, &p0) == PERFBUF_OK);
            CHECK(perfbuf_v1_plan_build(&c1.b, &o1, e1, COLUMNS, &p1) == PERFBUF_OK);
            capture *changed = side == 0 ? &c1 : &c0;
            const perfbuf_v1_object *o = side == 0 ? &o1 : &o0;
            /* The last instance: the rows before it are read first. */
            perfbuf_v1_iter it;
            perfbuf_v1_instance inst;
            perfbuf_v1_instances_begin(o, &it);
            uint32_t seen_rows = 0;
            while (seen_rows < ROWS && perfbuf_v1_instances_next(&changed->b, &it, &inst)) {
                seen_rows++;
            }
            CHECK_EQ_U(seen_rows, ROWS);
            uint8_t *bytes = changed->g.bytes;
            switch (kind) {
            case 0: /* instance ByteLength below PERF_INSTANCE_DEFINITION's 24 */
                put_le32(bytes + inst.offset, 8);
                break;
            case 1: /* instance ByteLength past the object */
                put_le32(bytes + inst.offset, 0x7FFFFFF0u);
                break;
            case 2: /* counter block ByteLength below PERF_COUNTER_BLOCK's 4 */
                put_le32(bytes + inst.counters.offset, 3);
                break;
            case 3: /* counter block ByteLength past the object */
                put_le32(bytes + inst.counters.offset, 0x7FFFFFF0u);
                break;
            default: /* counter block ByteLength below the reach */
                CHECK(p1.reach > 16);
                put_le32(bytes + inst.counters.offset, 16);
                break;
            }
            size_t needed = 0;
            CHECK_EQ_U(perfbuf_v1_plan_format_object_doubles(&p1, &c1.b, &o1, &p0, &c0.b, &o0, f,
                                                             values, codes, CELLS, &needed),
                       PERFBUF_E_INVALID_ARGUMENT);
            CHECK_EQ_U(perfbuf_v1_plan_format_object(&p1, &c1.b, &o1, &p0, &c0.b, &o0, f,
                                                     formatted, CELLS, &needed),
                       PERFBUF_E_INVALID_ARGUMENT);
            const perfbuf_v1_plan *p = side == 0 ? &p1 : &p0;
            CHECK_EQ_U(perfbuf_v1_plan_read_object(p, &changed->b, o, raw, CELLS, &needed),
                       PERFBUF_E_INVALID_ARGUMENT);
            capture_free(&c0);
            capture_free(&c1);
        }
    }
}

/* An object whose PerfFreq is 0: its elapsed-time column (a one-sample
 * formula divided by that frequency) stands still in every row, as
 * perfbuf_v1_plan_format_object says cell for cell. */
static void test_object_frequency_zero(void)
{
    int32_t scales[COLUMNS] = {0};
    clocks older = {1000000, 10000000, 134398148561470699ull};
    clocks later = {1000000 + 10000000, 10000000, 134398148561470699ull + 10000000};
    capture c[2] = {
        {make_capture(33, older.time, older.freq, older.t100, scales, COLUMNS, 5), {0}, {0}},
        {make_capture(33, later.time, later.freq, later.t100, scales, COLUMNS, 6), {0}, {0}},
    };
    perfbuf_v1_object o[2];
    perfbuf_v1_plan_entry e[2][COLUMNS];
    perfbuf_v1_plan p[2];
    for (int s = 0; s < 2; s++) {
        /* The object's PerfFreq (PERF_OBJECT_TYPE, bytes 56..63), before
         * the parse. */
        perfbuf_v1_block unparsed;
        perfbuf_v1_object found;
        CHECK(perfbuf_v1_parse(c[s].v.buf.data, c[s].v.buf.len, NULL, &unparsed, NULL) ==
              PERFBUF_OK);
        CHECK(perfbuf_v1_find_object(&unparsed, 700, &found) == PERFBUF_OK);
        CHECK_EQ_U(found.perf_freq, 1000);
        memset(c[s].v.buf.data + found.offset + 56, 0, 8);
        CHECK(capture_parse(&c[s]));
        CHECK(perfbuf_v1_find_object(&c[s].b, 700, &o[s]) == PERFBUF_OK);
        CHECK_EQ_U(o[s].perf_freq, 0);
        CHECK(perfbuf_v1_plan_build(&c[s].b, &o[s], e[s], COLUMNS, &p[s]) == PERFBUF_OK);
    }
    size_t before = seen[PERFBUF_COMPACT_CALC_NEGATIVE_TIMEBASE];
    for (size_t f = 0; f < sizeof all_flags / sizeof all_flags[0]; f++) {
        CALL((void)compare_object(&p[1], &c[1].b, &o[1], &p[0], &c[0].b, &o[0], all_flags[f]));
    }
    /* The elapsed column of each row, under each double flags at least. */
    CHECK(seen[PERFBUF_COMPACT_CALC_NEGATIVE_TIMEBASE] - before >= 33u * 5u);
    capture_free(&c[0]);
    capture_free(&c[1]);
}

/* Every code names its status, and a byte no call writes the documented
 * fallback. */
static void test_compact_codes(void)
{
    static const uint32_t statuses[PERFBUF_COMPACT_COUNT] = {
        PERFBUF_CSTATUS_VALID_DATA,         PERFBUF_CSTATUS_INVALID_DATA,
        PERFBUF_PDH_INVALID_ARGUMENT,       PERFBUF_PDH_INVALID_DATA,
        PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR, PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE,
        PERFBUF_PDH_CALC_NEGATIVE_VALUE,    PERFBUF_CSTATUS_NO_COUNTER,
    };
    for (uint32_t code = 0; code < PERFBUF_COMPACT_COUNT; code++) {
        CHECK_EQ_U(perfbuf_compact_cstatus((uint8_t)code), statuses[code]);
    }
    for (uint32_t code = PERFBUF_COMPACT_COUNT; code < 256; code++) {
        CHECK_EQ_U(perfbuf_compact_cstatus((uint8_t)code), PERFBUF_PDH_INVALID_ARGUMENT);
    }
}

static const th_case cases[] = {
    TH_CASE(test_doubles_equal_format_object),
    TH_CASE(test_doubles_arguments),
    TH_CASE(test_null_arguments),
    TH_CASE(test_changed_plan_or_object),
    TH_CASE(test_bytes_changed_after_parse),
    TH_CASE(test_object_frequency_zero),
    TH_CASE(test_compact_codes),
};

TH_MAIN(cases)
