/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The proof's entry for the ordering module: src/core/order.c exactly as
 * the library compiles it. ci/prove.sh proves the sorted-key lookup the
 * V2 registration lookups call (pb_keys_find_sorted).
 */
#include "../src/core/order.c"
