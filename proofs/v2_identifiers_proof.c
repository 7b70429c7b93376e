/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The proof's entry for the V2 counter identifiers: src/v2/identifiers.c
 * exactly as the library compiles it, calling the cursor core, the
 * validation context and the UTF-8 writer by their contracts (proved by
 * cursor_proof.c, check_proof.c and text_proof.c). The little-endian loads
 * of src/core/le_load.h and src/v2/internal.h that it reads a viewed
 * header with have no file of their own and are proved here.
 */
#include "../src/v2/identifiers.c"
