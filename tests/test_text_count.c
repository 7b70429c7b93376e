/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The UTF-8 writer's count, white-box: it must saturate rather than wrap on
 * 32-bit hosts (CI runs this under i386). Linked with the internal build of
 * the library, whose src/core/text.h functions a shared build does not export.
 */
#include <stdint.h>

#include "harness.h"
#include "core/text.h"

/*
 * The count saturates instead of wrapping. A text of over SIZE_MAX / 3
 * bytes (1.4 GiB on a 32-bit host) cannot be allocated in a test, so the
 * source is a cursor that claims that many bytes over a small buffer: the
 * converter reads only what fits the output, then bounds the rest.
 */
static void needed_count_saturates_near_size_max(void)
{
    static const uint8_t text[16] = "abcdefghijklmnop";
    pb_cursor huge = pb_cursor_make(text, sizeof text);
    huge.end = SIZE_MAX - 1;
    char out[4];
    size_t len = 0;
    pb_utf8_out o;
    pb_utf8_out_init(&o, out, sizeof out);
    pb_codepage_convert(1252, huge, &o);
    CHECK(pb_utf8_finish(&o, &len) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(len == SIZE_MAX);
    CHECK_STR(out, "abc");
    pb_utf8_out_init(&o, out, sizeof out);
    pb_utf16le_convert(huge, &o);
    CHECK(pb_utf8_finish(&o, &len) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(len == SIZE_MAX);
    /* A count already near SIZE_MAX stays there rather than wrap to a
     * small number that would claim a cut name fits. */
    pb_utf8_out_init(&o, out, sizeof out);
    o.needed = SIZE_MAX - 1;
    pb_utf8_put(&o, 0x20AC);
    CHECK(o.needed == SIZE_MAX);
    pb_utf8_add_bound(&o, SIZE_MAX / 2);
    CHECK(o.needed == SIZE_MAX);
}

static const th_case cases[] = {
    TH_CASE(needed_count_saturates_near_size_max),
};
TH_MAIN(cases)
