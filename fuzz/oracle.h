/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Shared by the harnesses: a failed invariant is a crash the engines save. */
#ifndef PERFBUF_FUZZ_ORACLE_H
#define PERFBUF_FUZZ_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "perfbuf/common.h"
#include "core/work.h"

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
 * of input (all its buffers and strings together, and the capacity of an
 * output it writes text into) does at most WORK_PER_BYTE * bytes +
 * WORK_FIXED units of work (src/core/work.h). A walk over a whole validated
 * buffer with the linear patterns the headers document (every view, every
 * name, every parent through a block index) has its own budget of
 * WALK_PER_BYTE * bytes + WALK_FIXED, so a per-item call that is linear on
 * its own but repeats a scan of the buffer is caught too.
 *
 * Budgets nest: a call's units count against its own budget and then are
 * added to the budget around it (BUDGETED), or are checked and dropped
 * (BUDGETED_APART) for calls that are linear per call but whose repetition
 * per item is not one of the linear patterns (a lookup by name for every
 * instance, a value for every counter of every instance).
 */
#define WORK_PER_BYTE 16u
#define WORK_FIXED 256u
#define WALK_PER_BYTE 16u
#define WALK_FIXED 256u

#ifdef PERFBUF_COUNT_WORK
/* Starts a budget: the units counted so far belong to the enclosing one. */
static inline uint64_t work_enter(void)
{
    uint64_t outer = pb_work_units;
    pb_work_units = 0;
    return outer;
}

static inline void work_leave(uint64_t outer, size_t bytes, uint64_t per_byte, uint64_t fixed,
                              int merge)
{
    ORACLE(pb_work_units <= per_byte * (uint64_t)bytes + fixed);
    pb_work_units = merge ? outer + pb_work_units : outer;
}
#else
static inline uint64_t work_enter(void)
{
    return 0;
}

static inline void work_leave(uint64_t outer, size_t bytes, uint64_t per_byte, uint64_t fixed,
                              int merge)
{
    (void)outer;
    (void)bytes;
    (void)per_byte;
    (void)fixed;
    (void)merge;
}
#endif

#define WORK_SCOPE(bytes, per_byte, fixed, merge, stmt)                 \
    do {                                                                \
        uint64_t work_outer_ = work_enter();                            \
        stmt;                                                           \
        work_leave(work_outer_, (bytes), (per_byte), (fixed), (merge)); \
    } while (0)

/* Runs one statement (a public call) under the budget of `bytes`. */
#define BUDGETED(bytes, stmt) WORK_SCOPE(bytes, WORK_PER_BYTE, WORK_FIXED, 1, stmt)
/* The same, leaving the call's units out of the enclosing budget. */
#define BUDGETED_APART(bytes, stmt) WORK_SCOPE(bytes, WORK_PER_BYTE, WORK_FIXED, 0, stmt)
/*
 * The bound of a lookup that compares a path with each of several items
 * (fuzz_resolve: objects and counters by name): linear in the buffer and
 * the path, plus, for each item compared, the path's length: a comparison
 * stops at the first difference or the path's end, and reads at most
 * LOOKUP_PER_QUERY_BYTE units per path byte (a code unit of the name, the
 * path's UTF-8 bytes, the loop). The path is the caller's, so a hostile
 * buffer cannot grow that term.
 */
#define LOOKUP_PER_QUERY_BYTE 8u
#define BUDGETED_LOOKUP(bytes, items, query_len, stmt)                                   \
    WORK_SCOPE(bytes, WORK_PER_BYTE,                                                     \
               WORK_FIXED + (uint64_t)(items) * LOOKUP_PER_QUERY_BYTE * ((query_len) + 1u), \
               0, stmt)
/*
 * The documented n log n of a sort of texts into caller scratch (the title
 * index of perfbuf/resolve.h, the name classes of
 * perfbuf_v1_block_index_classes): the per-byte budget times
 * ceil(log2 n) + 1, n the items sorted (or more), apart from the enclosing
 * budget.
 */
static inline uint64_t passes(uint64_t n)
{
    uint64_t p = 1;
    for (uint64_t w = 1; w < n; w *= 2) {
        p++;
    }
    return p;
}

#define BUDGETED_LOG(bytes, n, stmt)                                                    \
    WORK_SCOPE((bytes), WORK_PER_BYTE * passes(n), WORK_FIXED * passes(n), 0, stmt)

/*
 * BUDGETED_APART that also adds the call's units to `total`, so that a
 * harness can hold many calls, each under its own budget, to one budget
 * together as well (the value reads of a V1 walk: fuzz/oracle_v1.h).
 */
#ifdef PERFBUF_COUNT_WORK
#  define BUDGETED_APART_SUMMED(total, bytes, stmt)                           \
      do {                                                                  \
          uint64_t work_outer_ = work_enter();                              \
          stmt;                                                             \
          (total) += pb_work_units;                                         \
          work_leave(work_outer_, (bytes), WORK_PER_BYTE, WORK_FIXED, 0);   \
      } while (0)
#else
#  define BUDGETED_APART_SUMMED(total, bytes, stmt) BUDGETED_APART(bytes, stmt)
#endif
/* A whole walk over a buffer of `bytes` bytes under the walk budget. */
#define WALK_BUDGETED(bytes, stmt) WORK_SCOPE(bytes, WALK_PER_BYTE, WALK_FIXED, 1, stmt)

/* The documented statuses of a *_utf8 conversion of a view's text. */
static inline int oracle_text_status(perfbuf_status st)
{
    return st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
