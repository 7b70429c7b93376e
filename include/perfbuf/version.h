/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#ifndef PERFBUF_VERSION_H
#define PERFBUF_VERSION_H

#include "perfbuf/common.h"

#define PERFBUF_VERSION_MAJOR 0
#define PERFBUF_VERSION_MINOR 1
#define PERFBUF_VERSION_PATCH 0
#define PERFBUF_VERSION_STRING "0.1.0"
#define PERFBUF_VERSION_NUMBER \
    (PERFBUF_VERSION_MAJOR * 10000 + PERFBUF_VERSION_MINOR * 100 + PERFBUF_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library actually linked, as PERFBUF_VERSION_NUMBER. */
PERFBUF_API int perfbuf_version_number(void);
PERFBUF_API const char *perfbuf_version_string(void);

#ifdef __cplusplus
}
#endif

#endif
