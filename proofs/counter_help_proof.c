/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The proof's entry for the Counter/Help table reader: src/v1/counter_help.c
 * exactly as the library compiles it, calling the cursor core and the
 * validation context by their contracts (proved by cursor_proof.c,
 * check_proof.c and text_proof.c).
 *
 * Not run by ci/prove.sh yet: some goals of perfbuf_names_next and
 * perfbuf_names_index_find are still unproved (docs/proofs.md gives the
 * status and the command).
 */
#include "../src/v1/counter_help.c"
