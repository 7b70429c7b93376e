/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Case-insensitive order of titles (perfbuf/resolve.h): UTF-16 units folded
 * one by one, compared as numbers, a proper prefix first.
 */
#ifndef PERFBUF_FOLD_H
#define PERFBUF_FOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cursor.h"

/* The simple lowercase of ASCII, Latin-1 and Latin Extended-A letters;
 * every other unit unchanged. */
uint16_t pb_fold_unit(uint16_t u);

/* Whether len bytes are strict UTF-8 (text.h's decoder). */
bool pb_utf8_valid(const char *utf8, size_t len);

/* Orders the UTF-16LE text of cursor a against that of b (whole units;
 * an odd trailing byte is ignored): <0, 0, >0. Stops at the first
 * difference. */
int pb_fold_compare_utf16(pb_cursor a, pb_cursor b);

/* Orders UTF-16LE text against valid UTF-8 text (as its UTF-16 units). */
int pb_fold_compare_utf8(pb_cursor a, const char *utf8, size_t len);

#endif
