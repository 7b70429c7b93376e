/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The proof's entry for the Counter/Help table reader: src/v1/counter_help.c
 * exactly as the library compiles it, calling the cursor core and the
 * validation context by their contracts (proved by cursor_proof.c,
 * check_proof.c and text_proof.c). ci/prove.sh proves it with
 * -wp-model Typed+cast, as perfbuf_names_parse converts the caller's
 * const void * to const uint8_t *.
 */
#include "../src/v1/counter_help.c"
