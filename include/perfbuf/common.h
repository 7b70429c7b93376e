/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * perfbuf: safe parsing of Windows performance-counter buffers.
 * Types shared by every reader: status codes, error reports, options.
 */
#ifndef PERFBUF_COMMON_H
#define PERFBUF_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(PERFBUF_SHARED)
#  ifdef PERFBUF_BUILDING
#    define PERFBUF_API __declspec(dllexport)
#  else
#    define PERFBUF_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) && defined(PERFBUF_BUILDING)
#  define PERFBUF_API __attribute__((visibility("default")))
#else
#  define PERFBUF_API
#endif

/* A status that is ignored is a rejected buffer that is read anyway. */
#if defined(__GNUC__) || defined(__clang__)
#  define PERFBUF_MUST_USE __attribute__((warn_unused_result))
#else
#  define PERFBUF_MUST_USE
#endif

typedef enum perfbuf_status {
#define PERFBUF_ERROR(name, text) PERFBUF_E_##name,
#include "perfbuf/errors.def"
#undef PERFBUF_ERROR
    PERFBUF_STATUS_COUNT
} perfbuf_status;

#define PERFBUF_OK PERFBUF_E_OK

/*
 * Where and why a buffer was rejected. `offset` is the byte offset of the
 * offending field from the start of the buffer the caller passed in;
 * `structure` and `field` name it as the Windows headers do
 * ("PERF_COUNTER_HEADER", "dwSize"). The strings are static.
 *
 * `declared` and `limit` are the two numbers a rejection of a size, count
 * or offset compared: what the field declared (for a counter that reaches
 * past its counter block, the end it reaches) and the bound it broke.
 * By status, `limit` is: SIZE_EXCEEDS_RECEIVED, the bytes received;
 * SIZE_TOO_LARGE and OFFSET_OUT_OF_RANGE, the bytes there are from where
 * the field counts; SIZE_TOO_SMALL, the least size; COUNT_TOO_LARGE, the
 * most items the bytes can hold; LIMIT_EXCEEDED, the caller's limit (where
 * the count is read from a header); TRUNCATED, the bytes that remain,
 * `declared` then being the bytes the structure needs up to the end of
 * the field that is cut. An offset below the least one allowed (into a
 * header it must not overlap: OFFSET_OUT_OF_RANGE or OVERLAP) carries that
 * least offset. So `limit` is above `declared` exactly when it is a least
 * value. A rejection never compares two equal numbers, so both are 0 when
 * it compared none (any other reason, a check that names no numbers, or a
 * refused call).
 */
typedef struct perfbuf_error {
    perfbuf_status status;
    size_t offset;
    const char *structure;
    const char *field;
    uint64_t declared;
    uint64_t limit;
} perfbuf_error;

/* Reject what real producers are known to do loosely (padding, trailing
 * bytes, unaligned sizes, non-zero reserved fields) instead of reporting
 * it as an anomaly. */
#define PERFBUF_STRICT 0x1u

/* Anomalies a lenient parse tolerated; each is an error in strict mode. */
#define PERFBUF_ANOMALY_UNALIGNED_SIZE   0x01u
#define PERFBUF_ANOMALY_TRAILING_BYTES   0x02u
#define PERFBUF_ANOMALY_EXCESS_PADDING   0x04u
#define PERFBUF_ANOMALY_RESERVED_NONZERO 0x08u
#define PERFBUF_ANOMALY_COUNT_MISMATCH   0x10u
#define PERFBUF_ANOMALY_UNKNOWN_VALUE    0x20u
#define PERFBUF_ANOMALY_SIZE_MISMATCH    0x40u
#define PERFBUF_ANOMALY_DUPLICATE        0x80u
/* 0x100u is not used: it marked Counter tables out of index order, which real
 * tables are, so order is no anomaly. */
#define PERFBUF_ANOMALY_MISSING_BASE     0x200u
#define PERFBUF_ANOMALY_UNTERMINATED     0x400u

#define PERFBUF_DEFAULT_MAX_SECTIONS  65536u
#define PERFBUF_DEFAULT_MAX_COUNTERS  65536u
#define PERFBUF_DEFAULT_MAX_INSTANCES 16777216u

/*
 * Options every reader takes; pass NULL for the defaults (lenient, default
 * limits). A limit of 0 means its default. The limits bound work beyond
 * what the byte count already bounds.
 */
typedef struct perfbuf_options {
    uint32_t flags;          /* PERFBUF_STRICT */
    uint32_t max_sections;   /* V2 counter blocks, V1 objects */
    uint32_t max_counters;   /* counter ids or definitions in one block or object */
    uint32_t max_instances;  /* instances in one block or object */
} perfbuf_options;

/* SYSTEMTIME, decoded field by field. */
typedef struct perfbuf_systemtime {
    uint16_t year, month, day_of_week, day;
    uint16_t hour, minute, second, milliseconds;
} perfbuf_systemtime;

/* A GUID as its four fields; perfbuf_guid_format writes the usual form. */
typedef struct perfbuf_guid {
    uint32_t data1;
    uint16_t data2, data3;
    uint8_t data4[8];
} perfbuf_guid;

PERFBUF_API const char *perfbuf_status_name(perfbuf_status status);
PERFBUF_API const char *perfbuf_status_string(perfbuf_status status);

/* Writes "{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}" and a NUL (39 bytes). */
#define PERFBUF_GUID_STRING_SIZE 39
PERFBUF_API void perfbuf_guid_format(const perfbuf_guid *guid,
                                     char out[PERFBUF_GUID_STRING_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
