/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Work accounting for the linear-time oracle.
 *
 * perfbuf promises that every public call does work linear in the bytes it
 * is given. Builds that define PERFBUF_COUNT_WORK (the fuzzers, the corpus
 * replayers and the growth tests; never the installed library) count units
 * of work in a thread-local counter: one per cursor primitive that hands
 * out or carves bytes, and one per iteration of any loop that does not go
 * through the cursor. Harnesses reset it before a call and compare it with
 * the budget of docs/linear-time.md afterwards, so a superlinear path is a
 * crash the fuzzing engines save. Everywhere else PB_WORK compiles to
 * nothing and the library keeps no state at all.
 */
#ifndef PERFBUF_WORK_H
#define PERFBUF_WORK_H

#include <stdint.h>

#ifdef PERFBUF_COUNT_WORK
extern _Thread_local uint64_t pb_work_units;
#  define PB_WORK(n) ((void)(pb_work_units += (uint64_t)(n)))
#else
#  define PB_WORK(n) ((void)0)
#endif

#endif
