/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Nanoseconds per formatted value: perfbuf_format_value, and
 * perfbuf_format_prepared with the formulas prepared beforehand as a value
 * plan keeps them, on pairs of samples of the common counter types (the
 * mix of a Process/Processor capture), the samples built beforehand so
 * that only the formatting is timed. Prints
 * numbers, run by hand (an optional argument sets the rounds); it asserts
 * nothing about time.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/values.h"

#define PAIRS 4096u

static const uint32_t mix[] = {
    PERF_COUNTER_COUNTER,        PERF_COUNTER_BULK_COUNT, PERF_100NSEC_TIMER,
    PERF_100NSEC_TIMER_INV,      PERF_COUNTER_RAWCOUNT,   PERF_COUNTER_LARGE_RAWCOUNT,
    PERF_RAW_FRACTION,           PERF_AVERAGE_TIMER,      PERF_AVERAGE_BULK,
    PERF_ELAPSED_TIME,           PERF_COUNTER_RAWCOUNT,   PERF_COUNTER_LARGE_RAWCOUNT,
};
#define MIX (sizeof mix / sizeof mix[0])

static perfbuf_raw_sample newer[PAIRS], older[PAIRS];
static perfbuf_value_context contexts[PAIRS];
/* What a value plan keeps per counter. */
static perfbuf_prepared_formula formulas[PAIRS];

static uint64_t lcg = 88172645463325252ull;
static uint64_t next_number(void)
{
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return lcg >> 20;
}

static void build(void)
{
    for (uint32_t i = 0; i < PAIRS; i++) {
        uint32_t type = mix[i % MIX];
        uint64_t n0 = next_number() % 1000000000ull;
        uint64_t t0 = 134398148561470699ull + next_number() % 1000000ull;
        uint64_t dt = 10000000ull + next_number() % 1000ull;
        perfbuf_raw_sample s0 = {PERFBUF_CSTATUS_VALID_DATA, type, n0, t0, 1, 0};
        perfbuf_raw_sample s1 = {PERFBUF_CSTATUS_VALID_DATA, type, n0 + next_number() % dt, t0 + dt,
                                 1, 0};
        if (type == PERF_ELAPSED_TIME) {
            s1.first = t0 - next_number() % 1000000ull;
        }
        older[i] = s0;
        newer[i] = s1;
        contexts[i].frequency = 10000000ull;
        contexts[i].scale = 0;
        (void)perfbuf_prepare_formula(type, &formulas[i]);
    }
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The sum keeps the compiler from dropping the calls. */
static uint32_t rounds = 2000u;

static double format_all(uint32_t flags, double *sum)
{
    double start = now_ns();
    for (uint32_t r = 0; r < rounds; r++) {
        for (uint32_t i = 0; i < PAIRS; i++) {
            perfbuf_value v;
            if (perfbuf_format_value(newer[i].type, &newer[i], &older[i], &contexts[i], flags, &v) ==
                PERFBUF_CSTATUS_VALID_DATA) {
                *sum += v.as_double;
            }
        }
    }
    return (now_ns() - start) / ((double)PAIRS * rounds);
}

static double format_all_prepared(uint32_t flags, double *sum)
{
    double start = now_ns();
    for (uint32_t r = 0; r < rounds; r++) {
        for (uint32_t i = 0; i < PAIRS; i++) {
            perfbuf_value v;
            if (perfbuf_format_prepared(&formulas[i], &newer[i], &older[i], &contexts[i], flags, &v) ==
                PERFBUF_CSTATUS_VALID_DATA) {
                *sum += v.as_double;
            }
        }
    }
    return (now_ns() - start) / ((double)PAIRS * rounds);
}

/* An optional argument sets the rounds (fewer under valgrind). */
int main(int argc, char **argv)
{
    if (argc > 1) {
        long asked = strtol(argv[1], NULL, 10);
        rounds = asked > 0 && asked < 1000000 ? (uint32_t)asked : rounds;
    }
    build();
    double sum = 0.0;
    (void)format_all(PERFBUF_FMT_DOUBLE, &sum); /* warm-up */
    printf("perfbuf_format_value, FMT_DOUBLE:   %.2f ns/value\n", format_all(PERFBUF_FMT_DOUBLE, &sum));
    printf("perfbuf_format_value, FMT_LARGE:    %.2f ns/value\n", format_all(PERFBUF_FMT_LARGE, &sum));
    printf("perfbuf_format_prepared, FMT_DOUBLE: %.2f ns/value\n", format_all_prepared(PERFBUF_FMT_DOUBLE, &sum));
    printf("perfbuf_format_prepared, FMT_LARGE:  %.2f ns/value\n", format_all_prepared(PERFBUF_FMT_LARGE, &sum));
    printf("(checksum %g)\n", sum);
    return 0;
}
