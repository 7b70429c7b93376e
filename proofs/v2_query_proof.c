/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The proof's entry for the V2 query-data reader: src/v2/query.c exactly
 * as the library compiles it, calling the cursor core, the validation
 * context and the UTF-8 writer by their contracts (proved by
 * cursor_proof.c, check_proof.c and text_proof.c). ci/prove.sh proves the
 * parse's helpers; the rest of the file is not proved in full yet
 * (docs/proofs.md).
 */
#include "../src/v2/query.c"
