/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#ifndef PERFBUF_DUMP_INPUT_H
#define PERFBUF_DUMP_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Reads a whole input into a new allocation of exactly its size: "-" is
 * standard input; any other path must be a regular file. More than max
 * bytes, a device, a FIFO or a folder is refused with a message on stderr.
 * Returns 0, or 2 (the tool's exit status for I/O errors).
 */
int dump_read_input(const char *path, size_t max, uint8_t **data, size_t *size);

#endif
