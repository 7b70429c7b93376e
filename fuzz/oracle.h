/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Shared by the harnesses: a failed invariant is a crash the engines save. */
#ifndef PERFBUF_FUZZ_ORACLE_H
#define PERFBUF_FUZZ_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "perfbuf/common.h"
#include "work.h"

#define ORACLE(cond)            \
    do {                        \
        if (!(cond)) {          \
            __builtin_trap();   \
        }                       \
    } while (0)

/* [off, off + n) lies inside a buffer of len bytes. */
static inline int oracle_inside(size_t off, size_t n, size_t len)
{
    return off <= len && n <= len - off;
}

/* The pointer p, with n bytes, lies inside [base, base + len). */
static inline int oracle_ptr_inside(const uint8_t *p, size_t n, const uint8_t *base, size_t len)
{
    if (p == NULL) {
        return n == 0;
    }
    uintptr_t a = (uintptr_t)p;
    uintptr_t b = (uintptr_t)base;
    return a >= b && oracle_inside((size_t)(a - b), n, len);
}

/* A rejection of an input of size bytes: its status is the one returned,
 * its offset inside the input, and it names a structure and a field. */
static inline void oracle_rejection(perfbuf_status st, const perfbuf_error *err, size_t size)
{
    ORACLE(err->status == st);
    ORACLE(err->offset <= size);
    ORACLE(err->structure != NULL && err->structure[0] != '\0');
    ORACLE(err->field != NULL && err->field[0] != '\0');
}

/*
 * The work budget of docs/linear-time.md: a public call given `bytes` bytes
 * of input (all its buffers and strings together) does at most
 * WORK_PER_BYTE * bytes + WORK_FIXED units of work (src/work.h). A walk over
 * a whole validated buffer with the linear patterns the headers document
 * (every view, every name, every parent through an index) has the same
 * budget, so a per-item call that is linear on its own but repeats a scan
 * of the buffer is caught too.
 */
#define WORK_PER_BYTE 16u
#define WORK_FIXED 256u

#ifdef PERFBUF_COUNT_WORK
static inline void work_start(void)
{
    pb_work_units = 0;
}

static inline void work_check(size_t bytes)
{
    ORACLE(pb_work_units <= (uint64_t)WORK_PER_BYTE * bytes + WORK_FIXED);
}
#else
static inline void work_start(void) {}
static inline void work_check(size_t bytes) { (void)bytes; }
#endif

/* Runs one statement (a public call) under the budget of `bytes`. */
#define BUDGETED(bytes, stmt) \
    do {                      \
        work_start();         \
        stmt;                 \
        work_check(bytes);    \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
