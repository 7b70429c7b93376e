/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The proof's entry for the UTF-16LE to UTF-8 path of src/core/text.c,
 * exactly as the library compiles it. ci/prove.sh proves the writer
 * (pb_utf8_out_init, pb_utf8_put, pb_utf8_finish, ...) and
 * pb_utf16le_convert, calling the cursor core by its proved contracts.
 */
#include "../src/core/text.c"
