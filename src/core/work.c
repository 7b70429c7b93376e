/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The work counter of PERFBUF_COUNT_WORK builds (see work.h). */
#include "core/work.h"

#ifdef PERFBUF_COUNT_WORK
_Thread_local uint64_t pb_work_units;
#else
/* ISO C wants at least one declaration in a translation unit. */
typedef int pb_work_not_counted;
#endif
