/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The proof's entry for the V1 instance names: src/v1/instance_names.c
 * exactly as the library compiles it, calling the cursor core, the
 * validation context and the V1 block's views by their contracts (proved
 * by cursor_proof.c, check_proof.c and v1_block_proof.c).
 */
#include "../src/v1/instance_names.c"
