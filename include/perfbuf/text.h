/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Text conversions for names found in performance buffers. All of them
 * write into caller-provided buffers and never allocate.
 *
 * Common contract: the output is always NUL-terminated when cap > 0. On
 * PERFBUF_OK, *len is the number of bytes written, not counting the NUL.
 * When the text does not fit, the function returns
 * PERFBUF_E_OUTPUT_TOO_SMALL, the output holds the longest prefix that ends
 * on a whole character, and *len is a size that is enough: call again with
 * *len + 1 bytes and the text fits. That size is exact up to the first
 * character that did not fit and an upper bound for the rest (3 bytes per
 * remaining UTF-16 unit or code-page byte), because conversion stops once
 * the output is full: a call costs what the caller's buffer holds, not
 * what a hostile name's length would. It saturates at SIZE_MAX.
 */
#ifndef PERFBUF_TEXT_H
#define PERFBUF_TEXT_H

#include "perfbuf/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * UTF-16LE code units to UTF-8. Conversion covers exactly `bytes` bytes (an
 * odd count is PERFBUF_E_ODD_LENGTH); a NUL unit is converted like any
 * other. A lone or reversed surrogate becomes U+FFFD, so the output is
 * always valid UTF-8.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_utf16le_to_utf8(const void *utf16le, size_t bytes,
                                                                    char *out, size_t cap,
                                                                    size_t *len);

/*
 * Single-byte or UTF-8 text in a Windows code page to UTF-8: 1252 maps
 * through the Windows-1252 table (its five unassigned bytes become U+FFFD),
 * 65001 is checked as UTF-8 with invalid sequences replaced by U+FFFD, and
 * 20127 (US-ASCII) maps bytes above 0x7F to U+FFFD. Other code pages are
 * PERFBUF_E_UNKNOWN_VALUE: the caller gets the raw bytes and the number.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_codepage_to_utf8(uint32_t code_page,
                                                                     const void *text,
                                                                     size_t bytes, char *out,
                                                                     size_t cap, size_t *len);

/* True for the code pages perfbuf_codepage_to_utf8 converts. */
PERFBUF_API bool perfbuf_codepage_supported(uint32_t code_page);

#ifdef __cplusplus
}
#endif

#endif
