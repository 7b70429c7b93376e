/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The proof's entry for the V1 data block reader: src/v1/block.c exactly as
 * the library compiles it, calling the cursor core, the validation context
 * and the text scanners by their contracts (proved by cursor_proof.c,
 * check_proof.c and text_proof.c).
 */
#include "../src/v1/block.c"
