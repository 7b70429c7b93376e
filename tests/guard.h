/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Places a buffer so that its last byte is the last byte before an
 * unmapped page: any read past the end faults at once, with or without a
 * sanitizer.
 */
#ifndef PERFBUF_TEST_GUARD_H
#define PERFBUF_TEST_GUARD_H

#include <stddef.h>
#include <stdint.h>

typedef struct guarded {
    uint8_t *bytes;   /* the copy, ending right at the guard page */
    void *mapping;
    size_t mapping_size;
} guarded;

/* Copies len bytes in front of a guard page; exits the test on failure. */
guarded guard_place(const void *data, size_t len);
void guard_release(guarded *g);

#endif
