/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The proof's entry: the cursor core exactly as the library compiles it.
 * frama-c -wp proves every contract in src/core/cursor.h (ci/prove.sh).
 */
#include "../src/core/cursor.h"
