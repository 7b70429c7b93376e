/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The proof's entry for the V2 metadata readers: src/v2/meta.c exactly as
 * the library compiles it, calling the cursor core, the validation context,
 * the UTF-8 writer, the ordering module and the V2 instance reader by their
 * contracts.
 */
#include "../src/v2/meta.c"
