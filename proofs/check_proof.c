/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The proof's entry for the validation context and the views' text path:
 * src/core/check.c exactly as the library compiles it. ci/prove.sh proves
 * the contracts that the readers call (pb_ctx_init, pb_fail, pb_anomaly,
 * pb_check_arguments, pb_window, pb_view_utf16_to_utf8, ...), calling
 * the cursor core and the UTF-8 writer by their own contracts (proved by
 * cursor_proof.c and text_proof.c).
 */
#include "../src/core/check.c"
