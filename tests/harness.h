/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A minimal test harness: each test file is one executable that runs its
 * cases and ends with the line "N passed, N failed". A case fails on its
 * first failed CHECK; the executable exits non-zero if any case failed.
 */
#ifndef PERFBUF_TEST_HARNESS_H
#define PERFBUF_TEST_HARNESS_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct th_state {
    int passed;
    int failed;
    bool case_failed;
    const char *case_name;
} th_state;

extern th_state th;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__,      \
                    th.case_name, #cond);                                             \
            th.case_failed = true;                                                    \
            return;                                                                   \
        }                                                                             \
    } while (0)

#define CHECK_EQ_U(a, b)                                                              \
    do {                                                                              \
        uint64_t th_a_ = (uint64_t)(a), th_b_ = (uint64_t)(b);                       \
        if (th_a_ != th_b_) {                                                         \
            fprintf(stderr, "%s:%d: %s: %s == %s failed: %" PRIu64 " != %" PRIu64 "\n", \
                    __FILE__, __LINE__, th.case_name, #a, #b, th_a_, th_b_);          \
            th.case_failed = true;                                                    \
            return;                                                                   \
        }                                                                             \
    } while (0)

#define CHECK_STR(a, b)                                                               \
    do {                                                                              \
        const char *th_a_ = (a), *th_b_ = (b);                                        \
        if (th_a_ == NULL || th_b_ == NULL || strcmp(th_a_, th_b_) != 0) {            \
            fprintf(stderr, "%s:%d: %s: %s == %s failed: \"%s\" != \"%s\"\n",        \
                    __FILE__, __LINE__, th.case_name, #a, #b,                         \
                    th_a_ ? th_a_ : "(null)", th_b_ ? th_b_ : "(null)");              \
            th.case_failed = true;                                                    \
            return;                                                                   \
        }                                                                             \
    } while (0)

/* CHECK for helpers that return a value: records the failure, goes on. */
#define EXPECT(cond)                                                                  \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: %s: EXPECT(%s) failed\n", __FILE__, __LINE__,     \
                    th.case_name, #cond);                                             \
            th.case_failed = true;                                                    \
        }                                                                             \
    } while (0)

/* Runs a helper that may fail a CHECK, and stops the case if it did. */
#define CALL(expr)                                                                    \
    do {                                                                              \
        expr;                                                                         \
        if (th.case_failed) {                                                         \
            fprintf(stderr, "%s:%d: %s: called from here\n", __FILE__, __LINE__,      \
                    th.case_name);                                                    \
            return;                                                                   \
        }                                                                             \
    } while (0)

typedef void (*th_case_fn)(void);

typedef struct th_case {
    const char *name;
    th_case_fn fn;
} th_case;

#define TH_CASE(fn) {#fn, fn}

int th_run(const th_case *cases, size_t count);

#define TH_MAIN(cases)                                                                \
    th_state th;                                                                      \
    int main(void) { return th_run(cases, sizeof(cases) / sizeof(cases[0])); }

#endif
