/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* UTF-16LE and code-page conversion to UTF-8 into caller buffers. */
#include "perfbuf/text.h"
#include "harness.h"
#include "builder.h"

static void ascii_and_bmp(void)
{
    tb_buf b;
    tb_init(&b);
    tb_utf16(&b, "0,_Total \xC3\xA9\xE2\x82\xAC", 0);
    char out[64];
    size_t len;
    CHECK(perfbuf_utf16le_to_utf8(b.data, b.len, out, sizeof out, &len) == PERFBUF_OK);
    CHECK_STR(out, "0,_Total \xC3\xA9\xE2\x82\xAC");
    CHECK_EQ_U(len, strlen(out));
    tb_free(&b);
}

static void non_bmp_pairs(void)
{
    tb_buf b;
    tb_init(&b);
    tb_utf16(&b, "a\xF0\x9F\x98\x80z", 0);
    CHECK_EQ_U(b.len, 8);
    char out[16];
    size_t len;
    CHECK(perfbuf_utf16le_to_utf8(b.data, b.len, out, sizeof out, &len) == PERFBUF_OK);
    CHECK_STR(out, "a\xF0\x9F\x98\x80z");
    tb_free(&b);
}

static void lone_surrogates_become_replacement(void)
{
    const uint8_t high_then_a[] = {0x00, 0xD8, 0x61, 0x00};
    const uint8_t lone_low[] = {0x00, 0xDC};
    const uint8_t high_at_end[] = {0x62, 0x00, 0x3D, 0xD8};
    char out[16];
    size_t len;
    CHECK(perfbuf_utf16le_to_utf8(high_then_a, 4, out, sizeof out, &len) == PERFBUF_OK);
    CHECK_STR(out, "\xEF\xBF\xBD" "a");
    CHECK(perfbuf_utf16le_to_utf8(lone_low, 2, out, sizeof out, &len) == PERFBUF_OK);
    CHECK_STR(out, "\xEF\xBF\xBD");
    CHECK(perfbuf_utf16le_to_utf8(high_at_end, 4, out, sizeof out, &len) == PERFBUF_OK);
    CHECK_STR(out, "b\xEF\xBF\xBD");
}

static void output_too_small_keeps_whole_characters(void)
{
    tb_buf b;
    tb_init(&b);
    tb_utf16(&b, "ab\xE2\x82\xAC", 0);
    char out[5];
    size_t len;
    /* "ab€" needs 5 bytes + NUL: 4 usable bytes hold "ab" only. */
    CHECK(perfbuf_utf16le_to_utf8(b.data, b.len, out, sizeof out, &len) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(len, 5);
    CHECK_STR(out, "ab");
    char exact[6];
    CHECK(perfbuf_utf16le_to_utf8(b.data, b.len, exact, sizeof exact, &len) == PERFBUF_OK);
    CHECK_STR(exact, "ab\xE2\x82\xAC");
    char one[1] = {'x'};
    CHECK(perfbuf_utf16le_to_utf8(b.data, b.len, one, 1, &len) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(one[0], 0);
    /* Measuring only: no buffer at all. Conversion stops at the first
     * character, so the size is exact for it (1) and 3 per unit after. */
    CHECK(perfbuf_utf16le_to_utf8(b.data, b.len, NULL, 0, &len) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(len, 1 + 3 * 2);
    /* The size is enough: a second call with it succeeds, exactly. */
    char retry[8];
    CHECK(len + 1 <= sizeof retry);
    CHECK(perfbuf_utf16le_to_utf8(b.data, b.len, retry, len + 1, &len) == PERFBUF_OK);
    CHECK_EQ_U(len, 5);
    CHECK_STR(retry, "ab\xE2\x82\xAC");
    tb_free(&b);
}

static void odd_length_and_arguments(void)
{
    const uint8_t three[] = {0x61, 0x00, 0x62};
    char out[8];
    size_t len;
    CHECK(perfbuf_utf16le_to_utf8(three, 3, out, sizeof out, &len) == PERFBUF_E_ODD_LENGTH);
    CHECK(perfbuf_utf16le_to_utf8(NULL, 2, out, sizeof out, &len) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_utf16le_to_utf8(three, 2, NULL, 4, &len) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_utf16le_to_utf8(NULL, 0, out, sizeof out, &len) == PERFBUF_OK);
    CHECK_STR(out, "");
}

static void code_pages(void)
{
    const uint8_t cp1252[] = {'C', 'a', 'f', 0xE9, ' ', 0x80, 0x81};
    char out[32];
    size_t len;
    CHECK(perfbuf_codepage_to_utf8(1252, cp1252, sizeof cp1252, out, sizeof out, &len) == PERFBUF_OK);
    CHECK_STR(out, "Caf\xC3\xA9 \xE2\x82\xAC\xEF\xBF\xBD");
    const uint8_t utf8_bad[] = {'o', 'k', 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0xE2, 0x82};
    CHECK(perfbuf_codepage_to_utf8(65001, utf8_bad, sizeof utf8_bad, out, sizeof out, &len) ==
          PERFBUF_OK);
    /* Overlong, surrogate and cut-short sequences each become U+FFFD per byte. */
    CHECK(strncmp(out, "ok\xEF\xBF\xBD\xEF\xBF\xBD", 8) == 0);
    CHECK(perfbuf_codepage_to_utf8(20127, cp1252, 4, out, sizeof out, &len) == PERFBUF_OK);
    CHECK_STR(out, "Caf\xEF\xBF\xBD");
    CHECK(perfbuf_codepage_to_utf8(932, cp1252, 4, out, sizeof out, &len) == PERFBUF_E_UNKNOWN_VALUE);
    CHECK(!perfbuf_codepage_supported(932));
    CHECK(perfbuf_codepage_supported(65001));
}

static void guid_format(void)
{
    perfbuf_guid g = {0xb4fc721a, 0x0378, 0x476f, {0x89, 0xba, 0xa5, 0xa7, 0x9f, 0x81, 0x0b, 0x36}};
    char s[PERFBUF_GUID_STRING_SIZE];
    perfbuf_guid_format(&g, s);
    CHECK_STR(s, "{b4fc721a-0378-476f-89ba-a5a79f810b36}");
}

static void status_strings(void)
{
    CHECK_STR(perfbuf_status_name(PERFBUF_E_TRUNCATED), "PERFBUF_E_TRUNCATED");
    CHECK_STR(perfbuf_status_string(PERFBUF_OK), "no error");
    CHECK_STR(perfbuf_status_name((perfbuf_status)9999), "PERFBUF_E_UNKNOWN");
    /* Every status has a distinct name and a message. */
    for (int i = 0; i < PERFBUF_STATUS_COUNT; i++) {
        CHECK(strlen(perfbuf_status_string((perfbuf_status)i)) > 0);
        for (int j = 0; j < i; j++) {
            CHECK(strcmp(perfbuf_status_name((perfbuf_status)i),
                         perfbuf_status_name((perfbuf_status)j)) != 0);
        }
    }
}

static const th_case cases[] = {
    TH_CASE(ascii_and_bmp),
    TH_CASE(non_bmp_pairs),
    TH_CASE(lone_surrogates_become_replacement),
    TH_CASE(output_too_small_keeps_whole_characters),
    TH_CASE(odd_length_and_arguments),
    TH_CASE(code_pages),
    TH_CASE(guid_format),
    TH_CASE(status_strings),
};
TH_MAIN(cases)
