/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Counter paths as PDH writes them (docs/paths.md):
 *
 *   \\machine\Object(parent/instance#N)\Counter
 *
 * The machine, the parenthesised instance part, its parent and its index
 * are optional. A parsed path is a set of spans into the caller's UTF-8
 * string: nothing is copied, and the string must outlive the result.
 */
#ifndef PERFBUF_PATHS_H
#define PERFBUF_PATHS_H

#include "perfbuf/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* PDH's limits (pdh.h), in UTF-16 code units as PDH counts them. */
#define PERFBUF_PATH_MAX_PATH     2048u /* PDH_MAX_COUNTER_PATH, the whole path */
#define PERFBUF_PATH_MAX_NAME     1024u /* PDH_MAX_COUNTER_NAME: object and counter */
#define PERFBUF_PATH_MAX_INSTANCE 1024u /* PDH_MAX_INSTANCE_NAME: instance and parent */
#define PERFBUF_PATH_MAX_MACHINE   255u /* a DNS name (RFC 1035), also bounds NetBIOS names */

/* Bytes [offset, offset + length) of the path string. */
typedef struct perfbuf_span {
    size_t offset;
    size_t length;
} perfbuf_span;

typedef enum perfbuf_path_part {
    PERFBUF_PATH_MACHINE,
    PERFBUF_PATH_OBJECT,
    PERFBUF_PATH_PARENT,
    PERFBUF_PATH_INSTANCE,
    PERFBUF_PATH_COUNTER
} perfbuf_path_part;

#define PERFBUF_PATH_HAS_MACHINE       0x01u
#define PERFBUF_PATH_HAS_INSTANCE      0x02u /* the path has "(...)" */
#define PERFBUF_PATH_HAS_PARENT        0x04u
#define PERFBUF_PATH_HAS_INDEX         0x08u
#define PERFBUF_PATH_INSTANCE_WILDCARD 0x10u /* the instance is "*" */
#define PERFBUF_PATH_INSTANCE_PREFIX   0x20u /* "name*": the span includes the '*' */
#define PERFBUF_PATH_PARENT_WILDCARD   0x40u /* the parent is "*" */
#define PERFBUF_PATH_COUNTER_WILDCARD  0x80u /* the counter is "*" */

/*
 * A parsed path. `text` and `text_len` are the caller's string; a part
 * that is absent has an empty span at offset 0 and its flag clear.
 */
typedef struct perfbuf_counter_path {
    const char *text;
    size_t text_len;
    perfbuf_span machine;  /* without the leading "\\" */
    perfbuf_span object;
    perfbuf_span parent;
    perfbuf_span instance;
    perfbuf_span counter;
    uint32_t index;        /* 0 unless PERFBUF_PATH_HAS_INDEX */
    uint32_t flags;
} perfbuf_counter_path;

/*
 * Parses `len` bytes of UTF-8 (no NUL terminator needed; a NUL inside is
 * rejected). On failure *out is zeroed and err (may be NULL) names the
 * byte offset, the structure "COUNTER_PATH" and the part: "Path",
 * "Machine", "Object", "Parent", "Instance", "Index" or "Counter".
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_path_parse(const char *utf8, size_t len,
                                                               perfbuf_counter_path *out,
                                                               perfbuf_error *err);

/*
 * Whether a name matches one part of the path, comparing ASCII letters
 * case-insensitively as PDH does and every other byte exactly. A "*"
 * part matches every name, a prefix instance every name that starts with
 * the prefix. An absent part matches nothing.
 */
PERFBUF_API bool perfbuf_path_name_matches(const perfbuf_counter_path *path,
                                           perfbuf_path_part part, const char *utf8,
                                           size_t len);

/*
 * Whether an instance (its parent's name, may be empty, and its own name,
 * with `index` its position among instances of the same name and parent)
 * is one the path selects: the names as above; a path without a parent
 * accepts any parent; a path without an index selects index 0 unless its
 * instance is a wildcard or a prefix, which select every index. A path
 * without an instance part selects nothing.
 */
PERFBUF_API bool perfbuf_path_instance_matches(const perfbuf_counter_path *path,
                                               const char *parent, size_t parent_len,
                                               const char *instance, size_t instance_len,
                                               uint32_t index);

/*
 * Writes the path from its parts (spans into path->text, which must lie
 * inside text_len, else PERFBUF_E_INVALID_ARGUMENT) under the contract of
 * perfbuf/text.h: NUL-terminated when cap > 0, *len the bytes written or,
 * with PERFBUF_E_OUTPUT_TOO_SMALL, exactly the bytes needed, the output
 * cut on a whole UTF-8 character. The result parses back to the same parts.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_path_format(const perfbuf_counter_path *path,
                                                                char *out, size_t cap,
                                                                size_t *len);

#ifdef __cplusplus
}
#endif

#endif
