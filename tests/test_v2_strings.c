/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The V2 registration answers besides the counterset structure: one
 * counter's registration, single strings, the provider GUID and the
 * per-counter string blocks with both offset origins. Every buffer is
 * parsed in front of a guard page.
 */
#include <string.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/v2_meta.h"
#include "builder_v2meta.h"
#include "guard.h"
#include "harness.h"

typedef struct rejection {
    const char *what;
    size_t at;           /* where the patch goes */
    uint32_t value;
    size_t extra;        /* zero bytes appended before parsing */
    uint32_t flags;
    perfbuf_status status;
    const char *structure;
    const char *field;
    size_t offset;
} rejection;

static void report(const rejection *x, perfbuf_status st, const perfbuf_error *err)
{
    if (st != x->status || err->offset != x->offset || strcmp(err->field, x->field) != 0) {
        fprintf(stderr, "%s: got %s at %zu %s.%s\n", x->what, perfbuf_status_name(st),
                err->offset, err->structure, err->field);
    }
    CHECK_STR(perfbuf_status_name(st), perfbuf_status_name(x->status));
    CHECK_STR(err->structure, x->structure);
    CHECK_STR(err->field, x->field);
    CHECK_EQ_U(err->offset, x->offset);
}

/* ---- single strings and the provider GUID ---- */

static perfbuf_status parse_string(const uint8_t *bytes, size_t len, uint32_t flags,
                                   perfbuf_v2_string *s, perfbuf_error *err, char *text,
                                   size_t cap)
{
    guarded g = guard_place(bytes, len);
    perfbuf_options opts = {flags, 0, 0, 0};
    perfbuf_status st = perfbuf_v2_string_parse(g.bytes, len, &opts, s, err);
    if (st == PERFBUF_OK && text != NULL) {
        size_t n;
        EXPECT(perfbuf_v2_string_utf8(s, text, cap, &n) == PERFBUF_OK);
        EXPECT(n == strlen(text));
    }
    guard_release(&g);
    s->data = NULL;
    return st;
}

static void single_strings(void)
{
    tb_buf b = tb_v2_string_answer("Processor Information");
    CHECK_EQ_U(b.len, 44);
    perfbuf_v2_string s;
    perfbuf_error err;
    char text[64];
    CHECK(parse_string(b.data, b.len, PERFBUF_STRICT, &s, &err, text, sizeof text) == PERFBUF_OK);
    CHECK_EQ_U(s.units, 21);
    CHECK_STR(text, "Processor Information");
    CHECK_EQ_U(s.anomalies, 0);
    /* Non-ASCII survives the conversion. */
    tb_buf u = tb_v2_string_answer("Prozessorzeit (%) \xc3\xa4\xe2\x82\xac");
    CHECK(parse_string(u.data, u.len, PERFBUF_STRICT, &s, &err, text, sizeof text) == PERFBUF_OK);
    CHECK_STR(text, "Prozessorzeit (%) \xc3\xa4\xe2\x82\xac");
    tb_free(&u);
    /* len - 1: the NUL is cut, nothing terminates the string. */
    CHECK(parse_string(b.data, b.len - 1, 0, &s, &err, NULL, 0) == PERFBUF_E_UNTERMINATED_STRING);
    CHECK_STR(err.structure, "REG_STRING");
    CHECK_STR(err.field, "Text");
    CHECK_EQ_U(err.offset, 0);
    /* len + 1 and len + 2: bytes after the NUL, loose but known. */
    for (size_t extra = 1; extra <= 2; extra++) {
        tb_zeros(&b, 1);
        CHECK(parse_string(b.data, b.len, PERFBUF_STRICT, &s, &err, NULL, 0) ==
              PERFBUF_E_TRAILING_BYTES);
        CHECK_STR(err.structure, "REG_ANSWER");
        CHECK_EQ_U(err.offset, 44);
        CHECK(parse_string(b.data, b.len, 0, &s, &err, text, sizeof text) == PERFBUF_OK);
        CHECK_EQ_U(s.anomalies, PERFBUF_ANOMALY_TRAILING_BYTES);
        CHECK_EQ_U(s.first_anomaly.offset, 44);
        CHECK_STR(text, "Processor Information");
    }
    /* The empty string is two zero bytes; no bytes at all is no string. */
    static const uint8_t empty[2] = {0, 0};
    CHECK(parse_string(empty, 2, PERFBUF_STRICT, &s, &err, text, sizeof text) == PERFBUF_OK);
    CHECK_EQ_U(s.units, 0);
    CHECK_STR(text, "");
    CHECK(parse_string(empty, 0, 0, &s, &err, NULL, 0) == PERFBUF_E_UNTERMINATED_STRING);
    CHECK(parse_string(empty, 1, 0, &s, &err, NULL, 0) == PERFBUF_E_UNTERMINATED_STRING);
    /* Too small an output: truncated at a character, reported. */
    CHECK(parse_string(b.data, 44, 0, &s, &err, NULL, 0) == PERFBUF_OK);
    s.data = b.data;
    size_t n;
    char small[5];
    CHECK(perfbuf_v2_string_utf8(&s, small, sizeof small, &n) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_STR(small, "Proc");
    CHECK(perfbuf_v2_string_parse(NULL, 2, NULL, &s, &err) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_string_parse(empty, 2, NULL, NULL, &err) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_string_utf8(NULL, small, sizeof small, &n) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_string_utf8(&s, NULL, 4, &n) == PERFBUF_E_INVALID_ARGUMENT);
    tb_free(&b);
}

static void provider_guid(void)
{
    perfbuf_guid g;
    perfbuf_error err;
    char text[PERFBUF_GUID_STRING_SIZE];
    for (size_t len = 0; len <= 17; len++) {
        uint8_t bytes[17];
        memset(bytes, 0, sizeof bytes);
        memcpy(bytes, tb_processor_information_guid, 16);
        guarded p = guard_place(bytes, len);
        perfbuf_status st = perfbuf_v2_provider_guid_parse(p.bytes, len, &g, &err);
        guard_release(&p);
        if (len < 16) {
            CHECK(st == PERFBUF_E_TRUNCATED);
            CHECK_STR(err.structure, "PROVIDER_GUID");
            CHECK_STR(err.field, "Guid");
            CHECK_EQ_U(err.offset, 0);
        } else if (len == 16) {
            CHECK(st == PERFBUF_OK);
            perfbuf_guid_format(&g, text);
            CHECK_STR(text, "{b4fc721a-0378-476f-89ba-a5a79f810b36}");
        } else {
            CHECK(st == PERFBUF_E_TRAILING_BYTES);
            CHECK_STR(err.structure, "REG_ANSWER");
            CHECK_EQ_U(err.offset, 16);
        }
    }
    CHECK(perfbuf_v2_provider_guid_parse(NULL, 16, &g, &err) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_provider_guid_parse(tb_processor_information_guid, 16, NULL, &err) ==
          PERFBUF_E_INVALID_ARGUMENT);
}

/* ---- one counter's registration ---- */

/* Counter 21 of Processor Information as PERF_REG_COUNTER_STRUCT answers it. */
static tb_buf counter_struct(void)
{
    tb_buf set = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                               PERFBUF_COUNTERSET_MULTI_INSTANCES);
    tb_buf one;
    tb_init(&one);
    tb_bytes(&one, set.data + 32 + 21 * 48, 48);
    tb_free(&set);
    return one;
}

static perfbuf_status parse_counter(const tb_buf *b, size_t len, uint32_t flags,
                                    perfbuf_v2_counter_answer *a, perfbuf_error *err)
{
    guarded g = guard_place(b->data, len);
    perfbuf_options opts = {flags, 0, 0, 0};
    perfbuf_status st = perfbuf_v2_counter_reg_parse(g.bytes, len, &opts, a, err);
    guard_release(&g);
    return st;
}

static const rejection counter_rejections[] = {
    {"unknown type", 4, 0x12345678, 0, PERFBUF_STRICT, PERFBUF_E_UNKNOWN_VALUE,
     "PERF_COUNTER_REG_INFO", "Type", 4},
    {"attribute bit", 8, 0x40, 0, PERFBUF_STRICT, PERFBUF_E_UNKNOWN_VALUE,
     "PERF_COUNTER_REG_INFO", "Attrib", 8},
    {"detail level", 16, 150, 0, PERFBUF_STRICT, PERFBUF_E_UNKNOWN_VALUE,
     "PERF_COUNTER_REG_INFO", "DetailLevel", 16},
    {"scale 11", 20, 11, 0, PERFBUF_STRICT, PERFBUF_E_UNKNOWN_VALUE, "PERF_COUNTER_REG_INFO",
     "DefaultScale", 20},
    {"aggregate", 40, 9, 0, PERFBUF_STRICT, PERFBUF_E_UNKNOWN_VALUE, "PERF_COUNTER_REG_INFO",
     "AggregateFunc", 40},
    {"reserved", 44, 1, 0, PERFBUF_STRICT, PERFBUF_E_RESERVED_NONZERO, "PERF_COUNTER_REG_INFO",
     "Reserved", 44},
};

static void one_counter(void)
{
    tb_buf b = counter_struct();
    perfbuf_v2_counter_answer a;
    perfbuf_error err;
    CHECK(parse_counter(&b, b.len, PERFBUF_STRICT, &a, &err) == PERFBUF_OK);
    CHECK_EQ_U(a.counter.id, 21);
    CHECK_EQ_U(a.counter.type, PERF_PRECISION_100NS_TIMER);
    /* The base it names is not in this answer and is not judged. */
    CHECK_EQ_U(a.counter.base_id, 22);
    CHECK_EQ_U(a.anomalies, 0);
    for (size_t i = 0; i < sizeof counter_rejections / sizeof counter_rejections[0]; i++) {
        const rejection *x = &counter_rejections[i];
        uint32_t saved = tb_get_u32(&b, x->at);
        tb_patch_u32(&b, x->at, x->value);
        perfbuf_status st = parse_counter(&b, b.len, x->flags, &a, &err);
        report(x, st, &err);
        CHECK(parse_counter(&b, b.len, 0, &a, &err) == PERFBUF_OK);
        CHECK_STR(a.first_anomaly.field, x->field);
        tb_patch_u32(&b, x->at, saved);
    }
    /* Every length short of 48 names the first field cut; 49 is trailing. */
    for (size_t len = 0; len < 48; len++) {
        CHECK(parse_counter(&b, len, 0, &a, &err) == PERFBUF_E_TRUNCATED);
        CHECK_STR(err.structure, "PERF_COUNTER_REG_INFO");
        CHECK(err.offset <= len);
    }
    tb_zeros(&b, 1);
    CHECK(parse_counter(&b, b.len, PERFBUF_STRICT, &a, &err) == PERFBUF_E_TRAILING_BYTES);
    CHECK_EQ_U(err.offset, 48);
    CHECK(parse_counter(&b, b.len, 0, &a, &err) == PERFBUF_OK);
    CHECK_EQ_U(a.anomalies, PERFBUF_ANOMALY_TRAILING_BYTES);
    CHECK(perfbuf_v2_counter_reg_parse(NULL, 48, NULL, &a, &err) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_counter_reg_parse(b.data, 48, NULL, NULL, &err) == PERFBUF_E_INVALID_ARGUMENT);
    tb_free(&b);
}

/* ---- per-counter string blocks ---- */

static perfbuf_status parse_strings(const tb_buf *b, size_t len, perfbuf_v2_string_origin origin,
                                    uint32_t flags, uint32_t max_counters, perfbuf_v2_strings *s,
                                    perfbuf_error *err)
{
    guarded g = guard_place(b->data, len);
    perfbuf_options opts = {flags, 0, max_counters, 0};
    perfbuf_status st = perfbuf_v2_strings_parse(g.bytes, len, origin, &opts, s, err);
    if (st == PERFBUF_OK) {
        /* Every string lies inside the block and converts. */
        perfbuf_v2_counter_string cs;
        for (uint32_t i = 0; perfbuf_v2_strings_get(s, i, &cs); i++) {
            EXPECT(cs.index == i);
            EXPECT(!cs.present || (cs.text_offset >= s->strings_offset &&
                                   cs.text_offset + 2 * cs.units + 2 <= s->size));
            char text[64];
            size_t n;
            perfbuf_status conv = perfbuf_v2_counter_string_utf8(s, &cs, text, sizeof text, &n);
            EXPECT(conv == PERFBUF_OK);
        }
    }
    guard_release(&g);
    s->data = NULL;
    return st;
}

static void names_of_processor_information(void)
{
    const perfbuf_v2_string_origin origins[2] = {PERFBUF_V2_STRINGS_FROM_BLOCK,
                                                 PERFBUF_V2_STRINGS_FROM_ARRAY_END};
    for (int o = 0; o < 2; o++) {
        tb_buf b = tb_v2_strings(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                                 origins[o]);
        perfbuf_v2_strings s;
        perfbuf_error err;
        /* The origin it was written with, and AUTO, read it. */
        CHECK(parse_strings(&b, b.len, origins[o], PERFBUF_STRICT, 0, &s, &err) == PERFBUF_OK);
        CHECK(parse_strings(&b, b.len, PERFBUF_V2_STRINGS_AUTO, PERFBUF_STRICT, 0, &s, &err) ==
              PERFBUF_OK);
        CHECK(s.origin == origins[o]);
        CHECK_EQ_U(s.count, 31);
        CHECK_EQ_U(s.strings_offset, 8 + 31 * 8);
        CHECK_EQ_U(s.size % 8, 0);
        s.data = b.data;
        perfbuf_v2_counter_string cs;
        char text[64];
        size_t n;
        for (uint32_t i = 0; i < TB_PROCESSOR_INFORMATION_COUNTERS; i++) {
            CHECK(perfbuf_v2_strings_find(&s, tb_processor_information[i].id, &cs) == PERFBUF_OK);
            CHECK(cs.present);
            CHECK(perfbuf_v2_counter_string_utf8(&s, &cs, text, sizeof text, &n) == PERFBUF_OK);
            CHECK_STR(text, tb_processor_information[i].name);
        }
        CHECK(perfbuf_v2_strings_find(&s, 29, &cs) == PERFBUF_E_NOT_FOUND);
        CHECK(!perfbuf_v2_strings_get(&s, 31, &cs));
        /* The other origin reads MS-PCQ's offsets as pointing into the
         * headers, or perflib.h's as reaching past the block. */
        perfbuf_v2_string_origin other = origins[1 - o];
        CHECK(parse_strings(&b, b.len, other, 0, 0, &s, &err) == PERFBUF_E_OFFSET_OUT_OF_RANGE);
        CHECK_STR(err.structure, "PERF_STRING_COUNTER_HEADER");
        CHECK_STR(err.field, "dwOffset");
        tb_free(&b);
    }
}

static void absent_strings(void)
{
    tb_reg_row rows[3] = {{7, 0, 0, "DPC Rate"}, {8, 0, 0, NULL}, {9, 0, 0, ""}};
    tb_buf b = tb_v2_strings(rows, 3, PERFBUF_V2_STRINGS_FROM_BLOCK);
    perfbuf_v2_strings s;
    perfbuf_error err;
    CHECK(parse_strings(&b, b.len, PERFBUF_V2_STRINGS_AUTO, PERFBUF_STRICT, 0, &s, &err) ==
          PERFBUF_OK);
    s.data = b.data;
    perfbuf_v2_counter_string cs;
    char text[16];
    size_t n;
    CHECK(perfbuf_v2_strings_find(&s, 8, &cs) == PERFBUF_OK);
    CHECK(!cs.present);
    CHECK_EQ_U(cs.units, 0);
    CHECK(perfbuf_v2_counter_string_utf8(&s, &cs, text, sizeof text, &n) == PERFBUF_OK);
    CHECK_STR(text, "");
    CHECK(perfbuf_v2_strings_find(&s, 9, &cs) == PERFBUF_OK);
    CHECK(cs.present);
    CHECK_EQ_U(cs.units, 0);
    tb_free(&b);
    /* No string at all, and no counters at all. */
    tb_reg_row none[1] = {{1, 0, 0, NULL}};
    b = tb_v2_strings(none, 1, PERFBUF_V2_STRINGS_FROM_ARRAY_END);
    CHECK(parse_strings(&b, b.len, PERFBUF_V2_STRINGS_AUTO, PERFBUF_STRICT, 0, &s, &err) ==
          PERFBUF_OK);
    CHECK(s.origin == PERFBUF_V2_STRINGS_FROM_BLOCK);
    tb_free(&b);
    b = tb_v2_strings(none, 0, PERFBUF_V2_STRINGS_FROM_BLOCK);
    CHECK_EQ_U(b.len, 8);
    CHECK(parse_strings(&b, b.len, PERFBUF_V2_STRINGS_AUTO, PERFBUF_STRICT, 0, &s, &err) ==
          PERFBUF_OK);
    CHECK_EQ_U(s.count, 0);
    tb_free(&b);
}

/* Offsets in a block of the three rows below, block origin:
 *   0 header, 8/16/24 string headers (dwOffset at +4), 32 "ab", 38 "cd", 44 pad. */
static const tb_reg_row three[3] = {{1, 0, 0, "ab"}, {2, 0, 0, "cd"}, {3, 0, 0, NULL}};

static const rejection string_rejections[] = {
    {"dwSize below header", 0, 7, 0, 0, PERFBUF_E_SIZE_TOO_SMALL, "PERF_STRING_BUFFER_HEADER",
     "dwSize", 0},
    {"dwSize len+1", 0, 49, 0, 0, PERFBUF_E_SIZE_EXCEEDS_RECEIVED, "PERF_STRING_BUFFER_HEADER",
     "dwSize", 0},
    {"dwSize len-1", 0, 47, 0, PERFBUF_STRICT, PERFBUF_E_SIZE_UNALIGNED,
     "PERF_STRING_BUFFER_HEADER", "dwSize", 0},
    {"received len+8", 0, 48, 8, PERFBUF_STRICT, PERFBUF_E_TRAILING_BYTES,
     "PERF_STRING_BUFFER_HEADER", "dwSize", 0},
    {"dwCounters one too many", 4, 6, 0, 0, PERFBUF_E_COUNT_TOO_LARGE,
     "PERF_STRING_BUFFER_HEADER", "dwCounters", 4},
    {"dwCounters huge", 4, 0xFFFFFFFF, 0, 0, PERFBUF_E_COUNT_TOO_LARGE,
     "PERF_STRING_BUFFER_HEADER", "dwCounters", 4},
    {"duplicate id", 16, 1, 0, 0, PERFBUF_E_DUPLICATE_ID, "PERF_STRING_COUNTER_HEADER",
     "dwCounterId", 16},
    {"offset into headers", 12, 24, 0, 0, PERFBUF_E_OFFSET_OUT_OF_RANGE,
     "PERF_STRING_COUNTER_HEADER", "dwOffset", 12},
    {"offset at dwSize", 12, 48, 0, 0, PERFBUF_E_OFFSET_OUT_OF_RANGE,
     "PERF_STRING_COUNTER_HEADER", "dwOffset", 12},
    {"offset huge", 12, 0xFFFFFFFE, 0, 0, PERFBUF_E_OFFSET_OUT_OF_RANGE,
     "PERF_STRING_COUNTER_HEADER", "dwOffset", 12},
    {"string cut by dwSize", 0, 42, 0, 0, PERFBUF_E_UNTERMINATED_STRING,
     "PERF_STRING_COUNTER_HEADER", "dwOffset", 20},
    {"string runs into the end", 44, 0x00410041, 0, 0, PERFBUF_E_UNTERMINATED_STRING,
     "PERF_STRING_COUNTER_HEADER", "dwOffset", 28},
};

static void every_string_rejection(void)
{
    tb_buf b = tb_v2_strings(three, 3, PERFBUF_V2_STRINGS_FROM_BLOCK);
    CHECK_EQ_U(b.len, 48);
    perfbuf_v2_strings s;
    perfbuf_error err;
    CHECK(parse_strings(&b, b.len, PERFBUF_V2_STRINGS_FROM_BLOCK, PERFBUF_STRICT, 0, &s, &err) ==
          PERFBUF_OK);
    CHECK_EQ_U(tb_get_u32(&b, 12), 32);
    CHECK_EQ_U(tb_get_u32(&b, 20), 38);
    for (size_t i = 0; i < sizeof string_rejections / sizeof string_rejections[0]; i++) {
        const rejection *x = &string_rejections[i];
        tb_buf c;
        tb_init(&c);
        tb_bytes(&c, b.data, b.len);
        tb_patch_u32(&c, x->at, x->value);
        tb_zeros(&c, x->extra);
        if (strcmp(x->what, "string runs into the end") == 0) {
            /* Counter 3 points at the padding, made into text. */
            tb_patch_u32(&c, 28, 44);
        }
        perfbuf_status st = parse_strings(&c, c.len, PERFBUF_V2_STRINGS_FROM_BLOCK, x->flags, 0,
                                          &s, &err);
        report(x, st, &err);
        if (x->flags == PERFBUF_STRICT) {
            CHECK(parse_strings(&c, c.len, PERFBUF_V2_STRINGS_FROM_BLOCK, 0, 0, &s, &err) ==
                  PERFBUF_OK);
            CHECK_STR(s.first_anomaly.field, x->field);
        }
        tb_free(&c);
        if (th.case_failed) {
            break;
        }
    }
    /* The caller's limit, at count and count - 1. */
    CHECK(parse_strings(&b, b.len, PERFBUF_V2_STRINGS_AUTO, 0, 3, &s, &err) == PERFBUF_OK);
    CHECK(parse_strings(&b, b.len, PERFBUF_V2_STRINGS_AUTO, 0, 2, &s, &err) ==
          PERFBUF_E_LIMIT_EXCEEDED);
    CHECK_STR(err.field, "dwCounters");
    /* Every truncation is rejected inside the input. */
    for (size_t len = 0; len < b.len; len++) {
        CHECK(parse_strings(&b, len, PERFBUF_V2_STRINGS_AUTO, 0, 0, &s, &err) != PERFBUF_OK);
        CHECK(err.offset <= len);
    }
    CHECK(perfbuf_v2_strings_parse(b.data, b.len, (perfbuf_v2_string_origin)3, NULL, &s, &err) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_strings_parse(NULL, 8, PERFBUF_V2_STRINGS_AUTO, NULL, &s, &err) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_strings_parse(b.data, b.len, PERFBUF_V2_STRINGS_AUTO, NULL, NULL, &err) ==
          PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_v2_counter_string cs;
    char text[4];
    size_t n;
    /* No bytes at all: a pointer is not needed, and nothing is there. */
    CHECK(perfbuf_v2_strings_parse(NULL, 0, PERFBUF_V2_STRINGS_AUTO, NULL, &s, NULL) ==
          PERFBUF_E_TRUNCATED);
    CHECK(perfbuf_v2_strings_parse(NULL, 8, PERFBUF_V2_STRINGS_AUTO, NULL, &s, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_v2_string one;
    CHECK(perfbuf_v2_string_parse(NULL, 0, NULL, &one, NULL) == PERFBUF_E_UNTERMINATED_STRING);
    CHECK(perfbuf_v2_string_parse(NULL, 2, NULL, &one, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_guid g;
    CHECK(perfbuf_v2_provider_guid_parse(NULL, 0, &g, &err) == PERFBUF_E_TRUNCATED);
    CHECK(perfbuf_v2_provider_guid_parse(NULL, 16, &g, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_v2_counter_answer a;
    CHECK(perfbuf_v2_counter_reg_parse(NULL, 0, NULL, &a, &err) == PERFBUF_E_TRUNCATED);
    CHECK(perfbuf_v2_counter_reg_parse(NULL, 48, NULL, &a, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(parse_strings(&b, b.len, PERFBUF_V2_STRINGS_AUTO, 0, 0, &s, &err) == PERFBUF_OK);
    s.data = b.data;
    CHECK(!perfbuf_v2_strings_get(&s, 0, NULL));
    CHECK(perfbuf_v2_strings_find(&s, 1, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_counter_string_utf8(&s, NULL, text, sizeof text, &n) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_strings_get(&s, 0, &cs));
    CHECK(perfbuf_v2_counter_string_utf8(&s, &cs, NULL, 4, &n) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(!perfbuf_v2_strings_get(NULL, 0, &cs));
    CHECK(perfbuf_v2_strings_find(NULL, 1, &cs) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_counter_string_utf8(NULL, &cs, text, sizeof text, &n) ==
          PERFBUF_E_INVALID_ARGUMENT);
    tb_free(&b);
}

/*
 * Strings that share bytes beyond what the string area holds are refused:
 * many headers pointing into one long string would otherwise be scanned
 * once each. Strings that share within the budget (two headers naming one
 * short string in a block with room to spare) still pass.
 */
static void strings_sharing_bytes(void)
{
    /* 8 headers, all at one 40-unit string: 8 * 82 bytes > the 82 there. */
    tb_buf b;
    tb_init(&b);
    uint32_t count = 8;
    size_t strings_at = 8 + 8 * (size_t)count;
    tb_u32(&b, 0);
    tb_u32(&b, count);
    for (uint32_t i = 0; i < count; i++) {
        tb_u32(&b, i + 1);
        tb_u32(&b, (uint32_t)strings_at);
    }
    for (int i = 0; i < 40; i++) {
        tb_u16(&b, 'x');
    }
    tb_u16(&b, 0);
    tb_pad8_from(&b, 0);
    tb_patch_u32(&b, 0, (uint32_t)b.len);
    perfbuf_v2_strings s;
    perfbuf_error err;
    CHECK(perfbuf_v2_strings_parse(b.data, b.len, PERFBUF_V2_STRINGS_FROM_BLOCK, NULL, &s, &err) ==
          PERFBUF_E_OVERLAP);
    CHECK_STR(err.field, "dwOffset");
    CHECK_EQ_U(err.offset, 8 + 1 * 8 + 4);
    /* Two headers share a 3-unit string; the padding leaves room for it. */
    tb_buf two;
    tb_init(&two);
    tb_u32(&two, 0);
    tb_u32(&two, 2);
    tb_u32(&two, 1);
    tb_u32(&two, 24);
    tb_u32(&two, 2);
    tb_u32(&two, 24);
    tb_u16(&two, 'a');
    tb_u16(&two, 'b');
    tb_u16(&two, 'c');
    tb_u16(&two, 0);
    tb_zeros(&two, 8);
    tb_patch_u32(&two, 0, (uint32_t)two.len);
    CHECK(perfbuf_v2_strings_parse(two.data, two.len, PERFBUF_V2_STRINGS_FROM_BLOCK, NULL, &s,
                                   &err) == PERFBUF_OK);
    perfbuf_v2_counter_string cs;
    CHECK(perfbuf_v2_strings_find(&s, 2, &cs) == PERFBUF_OK);
    CHECK_EQ_U(cs.units, 3);
    tb_free(&two);
    tb_free(&b);
}

/* Unordered ids: as the registration's, a large set needs scratch. */
static void unordered_string_ids(void)
{
    tb_reg_row rows[40];
    static const char *names[40];
    char storage[40][8];
    for (uint32_t i = 0; i < 40; i++) {
        snprintf(storage[i], sizeof storage[i], "c%u", (unsigned)i);
        names[i] = storage[i];
        rows[i].id = 500 - i;
        rows[i].type = 0;
        rows[i].base = PERFBUF_V2_NO_ID;
        rows[i].name = names[i];
    }
    tb_buf b = tb_v2_strings(rows, 40, PERFBUF_V2_STRINGS_FROM_BLOCK);
    perfbuf_v2_strings s;
    perfbuf_error err;
    CHECK(perfbuf_v2_strings_parse(b.data, b.len, PERFBUF_V2_STRINGS_AUTO, NULL, &s, &err) ==
          PERFBUF_E_SCRATCH_NEEDED);
    CHECK_EQ_U(err.offset, 8 + 1 * 8);
    uint64_t scratch[40];
    CHECK(perfbuf_v2_strings_parse_indexed(b.data, b.len, PERFBUF_V2_STRINGS_AUTO, NULL, scratch,
                                           40, &s, &err) == PERFBUF_OK);
    perfbuf_v2_counter_string cs;
    char text[8];
    size_t n;
    for (uint32_t i = 0; i < 40; i++) {
        CHECK(perfbuf_v2_strings_find(&s, 500 - i, &cs) == PERFBUF_OK);
        CHECK(perfbuf_v2_counter_string_utf8(&s, &cs, text, sizeof text, &n) == PERFBUF_OK);
        CHECK_STR(text, storage[i]);
    }
    tb_patch_u32(&b, 8 + 7 * 8, 500 - 2);
    CHECK(perfbuf_v2_strings_parse_indexed(b.data, b.len, PERFBUF_V2_STRINGS_AUTO, NULL, scratch,
                                           40, &s, &err) == PERFBUF_E_DUPLICATE_ID);
    CHECK_EQ_U(err.offset, 8 + 7 * 8);
    tb_free(&b);
}

static const th_case cases[] = {
    TH_CASE(single_strings),
    TH_CASE(provider_guid),
    TH_CASE(one_counter),
    TH_CASE(names_of_processor_information),
    TH_CASE(absent_strings),
    TH_CASE(every_string_rejection),
    TH_CASE(strings_sharing_bytes),
    TH_CASE(unordered_string_ids),
};
TH_MAIN(cases)
