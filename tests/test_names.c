/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The Counter/Help title databases: parsing, every rejection, lookups. */
#include "perfbuf/names.h"
#include "builder.h"
#include "guard.h"
#include "harness.h"

/* Strings separated by '|' become a REG_MULTI_SZ (with the final empty
 * string when `final` is set). */
static tb_buf multi_sz(const char *pipe_separated, int final)
{
    tb_buf b;
    tb_init(&b);
    char part[256];
    const char *p = pipe_separated;
    while (*p) {
        size_t n = strcspn(p, "|");
        memcpy(part, p, n);
        part[n] = '\0';
        tb_utf16(&b, part, 1);
        p += n;
        if (*p == '|') {
            p++;
        }
    }
    if (final) {
        tb_u16(&b, 0);
    }
    return b;
}

typedef struct result {
    perfbuf_status status;
    perfbuf_error err;
    perfbuf_name_table t;
    char texts[256];
} result;

static result parse_guarded(const uint8_t *data, size_t len, uint32_t flags)
{
    result r;
    memset(&r, 0, sizeof r);
    guarded g = guard_place(data, len);
    perfbuf_options opts = {flags, 0, 0, 0};
    r.status = perfbuf_names_parse(g.bytes, len, &opts, &r.t, &r.err);
    if (r.status == PERFBUF_OK) {
        perfbuf_names_iter it;
        perfbuf_name_entry e;
        perfbuf_names_begin(&r.t, &it);
        while (perfbuf_names_next(&r.t, &it, &e)) {
            char text[64];
            size_t n;
            if (perfbuf_names_text_utf8(&r.t, &e, text, sizeof text, &n) == PERFBUF_OK) {
                char line[96];
                snprintf(line, sizeof line, "%u=%s;", e.title_index, text);
                strncat(r.texts, line, sizeof r.texts - strlen(r.texts) - 1);
            }
        }
    }
    r.t.data = NULL;
    guard_release(&g);
    return r;
}

static void wine_capture(void)
{
    /* corpus/captures/wine-8.0/v1-names-counter-009.bin */
    tb_buf b = multi_sz("1|1847|1846|End Marker", 1);
    CHECK_EQ_U(b.len, 48);
    result r = parse_guarded(b.data, b.len, PERFBUF_STRICT);
    CHECK(r.status == PERFBUF_OK);
    CHECK_EQ_U(r.t.count, 2);
    CHECK(r.t.ascending);
    CHECK_STR(r.texts, "1=1847;1846=End Marker;");
    CHECK_EQ_U(r.t.size, 48);
    tb_free(&b);
}

static void largest_index_and_unicode(void)
{
    tb_buf b = multi_sz("4294967295|\xE2\x82\xAC uro|7|a\xF0\x9F\x98\x80", 1);
    result r = parse_guarded(b.data, b.len, 0);
    CHECK(r.status == PERFBUF_OK);
    CHECK_STR(r.texts, "4294967295=\xE2\x82\xAC uro;7=a\xF0\x9F\x98\x80;");
    CHECK(!r.t.ascending);
    CHECK_EQ_U(r.t.anomalies, 0);
    tb_free(&b);
}

/* Real Counter tables rise to about 21096 and restart near 20544: strict
 * mode takes them, and lookups still find every pair through the index. */
static void real_tables_restart_their_order(void)
{
    tb_buf b = multi_sz("1|1847|2|System|21096|Late|20544|Restart|20546|Next|4|Memory", 1);
    result r = parse_guarded(b.data, b.len, PERFBUF_STRICT);
    CHECK(r.status == PERFBUF_OK);
    CHECK(!r.t.ascending);
    CHECK_EQ_U(r.t.anomalies, 0);
    CHECK_EQ_U(r.t.count, 6);
    /* parse_guarded leaves no view behind: look up on the builder's bytes. */
    perfbuf_name_table t;
    perfbuf_options strict = {PERFBUF_STRICT, 0, 0, 0};
    CHECK(perfbuf_names_parse(b.data, b.len, &strict, &t, NULL) == PERFBUF_OK);
    perfbuf_name_slot slots[6];
    perfbuf_name_index index;
    CHECK(perfbuf_names_index_build(&t, slots, 6, &index) == PERFBUF_OK);
    CHECK_EQ_U(index.duplicates, 0);
    perfbuf_name_entry e;
    CHECK(perfbuf_names_index_find(&t, &index, 20544, &e) == PERFBUF_OK);
    CHECK_EQ_U(e.title_index, 20544);
    CHECK(perfbuf_names_index_find(&t, &index, 4, &e) == PERFBUF_OK);
    CHECK_EQ_U(e.title_index, 4);
    CHECK(perfbuf_names_index_find(&t, &index, 3, &e) == PERFBUF_E_NOT_FOUND);
    tb_free(&b);
}

typedef struct rejection {
    const char *what;
    const char *list;
    int final;
    int cut;               /* bytes removed from the end */
    uint32_t flags;
    perfbuf_status status;
    const char *structure;
    const char *field;
    size_t offset;
    bool lenient_ok;
} rejection;

#define S PERFBUF_STRICT
static const rejection rejections[] = {
    {"odd length", "1|a", 1, 1, 0, PERFBUF_E_ODD_LENGTH, "REG_MULTI_SZ", "Length", 0, false},
    {"empty input", "", 0, 0, S, PERFBUF_E_UNTERMINATED_STRING, "REG_MULTI_SZ", "Terminator", 0, true},
    {"no final empty string", "1|a", 0, 0, S, PERFBUF_E_UNTERMINATED_STRING, "REG_MULTI_SZ", "Terminator", 8, true},
    {"text cut", "1|abc", 0, 2, S, PERFBUF_E_UNTERMINATED_STRING, "NAME_TABLE_ENTRY", "Text", 4, true},
    {"index cut", "1|a|22", 0, 2, 0, PERFBUF_E_UNTERMINATED_STRING, "NAME_TABLE_ENTRY", "Index", 8, false},
    {"letter in index", "1|a|2x|b", 1, 0, 0, PERFBUF_E_INVALID_NUMBER, "NAME_TABLE_ENTRY", "Index", 8, false},
    {"sign in index", "-1|a", 1, 0, 0, PERFBUF_E_INVALID_NUMBER, "NAME_TABLE_ENTRY", "Index", 0, false},
    {"index overflow", "4294967296|a", 1, 0, 0, PERFBUF_E_INVALID_NUMBER, "NAME_TABLE_ENTRY", "Index", 0, false},
    {"index without text", "1|a|2", 1, 0, 0, PERFBUF_E_TRUNCATED, "NAME_TABLE_ENTRY", "Text", 12, false},
    {"duplicate index", "1|a|1|b", 1, 0, S, PERFBUF_E_DUPLICATE_ID, "NAME_TABLE_ENTRY", "Index", 8, true},
};
#undef S

static void every_rejection(void)
{
    for (size_t i = 0; i < sizeof rejections / sizeof rejections[0]; i++) {
        const rejection *x = &rejections[i];
        tb_buf b = multi_sz(x->list, x->final);
        b.len -= (size_t)x->cut;
        result r = parse_guarded(b.data, b.len, x->flags);
        if (r.status != x->status || r.err.offset != x->offset) {
            fprintf(stderr, "%s: got %s at %zu %s.%s\n", x->what, perfbuf_status_name(r.status),
                    r.err.offset, r.err.structure, r.err.field);
        }
        CHECK_STR(perfbuf_status_name(r.status), perfbuf_status_name(x->status));
        CHECK_STR(r.err.structure, x->structure);
        CHECK_STR(r.err.field, x->field);
        CHECK_EQ_U(r.err.offset, x->offset);
        if (x->lenient_ok) {
            r = parse_guarded(b.data, b.len, 0);
            CHECK(r.status == PERFBUF_OK);
            CHECK(r.t.anomalies != 0);
            CHECK_STR(r.t.first_anomaly.field, x->field);
        }
        tb_free(&b);
    }
}

static void trailing_bytes_after_the_list(void)
{
    tb_buf b = multi_sz("1|a", 1);
    tb_u16(&b, 0);
    result r = parse_guarded(b.data, b.len, PERFBUF_STRICT);
    CHECK(r.status == PERFBUF_E_TRAILING_BYTES);
    CHECK_EQ_U(r.err.offset, 10);
    r = parse_guarded(b.data, b.len, 0);
    CHECK(r.status == PERFBUF_OK);
    CHECK_EQ_U(r.t.size, 10);
    tb_free(&b);
}

static void truncation_at_every_length(void)
{
    tb_buf b = multi_sz("1|1847|2|System|4|Memory|6|% Processor Time", 1);
    for (size_t len = 0; len < b.len; len++) {
        result r = parse_guarded(b.data, len, PERFBUF_STRICT);
        CHECK(r.status != PERFBUF_OK);
        CHECK(r.err.offset <= len);
        r = parse_guarded(b.data, len, 0);
        CHECK(r.status != PERFBUF_OK || r.t.count <= 4);
    }
    tb_free(&b);
}

static void index_matches_linear_lookup(void)
{
    /* 10,000 pairs in descending order with a duplicate: the sorted index
     * must find what the linear walk finds, for every index. */
    tb_buf b;
    tb_init(&b);
    char num[16];
    for (int i = 10000; i >= 1; i--) {
        snprintf(num, sizeof num, "%d", 2 * i);
        tb_utf16(&b, num, 1);
        snprintf(num, sizeof num, "n%d", i);
        tb_utf16(&b, num, 1);
    }
    tb_utf16(&b, "20", 1);
    tb_utf16(&b, "dup", 1);
    tb_u16(&b, 0);
    perfbuf_name_table t;
    CHECK(perfbuf_names_parse(b.data, b.len, NULL, &t, NULL) == PERFBUF_OK);
    CHECK_EQ_U(t.count, 10001);
    perfbuf_name_slot *slots = malloc(sizeof *slots * t.count);
    CHECK(slots != NULL);
    perfbuf_name_index index;
    CHECK(perfbuf_names_index_build(&t, slots, 10, &index) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(perfbuf_names_index_build(&t, slots, t.count, &index) == PERFBUF_OK);
    CHECK_EQ_U(index.duplicates, 1);
    /* Every key through the index against the table's known contents; a
     * sample of keys also through the linear walk. */
    for (uint32_t k = 0; k <= 20002; k++) {
        perfbuf_name_entry c;
        perfbuf_status sc = perfbuf_names_index_find(&t, &index, k, &c);
        bool present = k % 2 == 0 && k >= 2 && k <= 20000;
        CHECK(sc == (present ? PERFBUF_OK : PERFBUF_E_NOT_FOUND));
        if (present && k != 20) {
            char want[16];
            char got[16];
            size_t got_len;
            snprintf(want, sizeof want, "n%u", k / 2);
            CHECK(perfbuf_names_text_utf8(&t, &c, got, sizeof got, &got_len) == PERFBUF_OK);
            CHECK_STR(got, want);
        }
        if (k % 97 == 0 || k == 20) {
            perfbuf_name_entry a;
            CHECK(perfbuf_names_find(&t, k, &a) == sc);
            CHECK(sc != PERFBUF_OK || a.offset == c.offset);
        }
    }
    perfbuf_name_entry e;
    CHECK(perfbuf_names_index_find(&t, &index, 20, &e) == PERFBUF_OK);
    char text[16];
    size_t n;
    CHECK(perfbuf_names_text_utf8(&t, &e, text, sizeof text, &n) == PERFBUF_OK);
    CHECK_STR(text, "n10");
    /* A slot pointing elsewhere is checked, not trusted. */
    slots[0].offset += 2;
    CHECK(perfbuf_names_index_find(&t, &index, slots[0].title_index, &e) == PERFBUF_E_INVALID_ARGUMENT);
    slots[0].offset = SIZE_MAX;
    CHECK(perfbuf_names_index_find(&t, &index, slots[0].title_index, &e) == PERFBUF_E_INVALID_ARGUMENT);
    free(slots);
    tb_free(&b);
}

static void ascending_table_needs_no_sort(void)
{
    tb_buf b = multi_sz("1|1847|2|System|4|Memory", 1);
    perfbuf_name_table t;
    CHECK(perfbuf_names_parse(b.data, b.len, NULL, &t, NULL) == PERFBUF_OK);
    CHECK(t.ascending);
    perfbuf_name_slot slots[3];
    perfbuf_name_index index;
    CHECK(perfbuf_names_index_build(&t, slots, 3, &index) == PERFBUF_OK);
    CHECK_EQ_U(slots[0].title_index, 1);
    CHECK_EQ_U(slots[2].title_index, 4);
    perfbuf_name_entry e;
    CHECK(perfbuf_names_index_find(&t, &index, 3, &e) == PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_names_index_find(&t, &index, 5, &e) == PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_names_index_find(&t, &index, 0, &e) == PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_names_index_find(&t, &index, 4, &e) == PERFBUF_OK);
    CHECK(perfbuf_names_parse(NULL, 2, NULL, &t, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    tb_free(&b);
}

static const th_case cases[] = {
    TH_CASE(wine_capture),
    TH_CASE(largest_index_and_unicode),
    TH_CASE(real_tables_restart_their_order),
    TH_CASE(every_rejection),
    TH_CASE(trailing_bytes_after_the_list),
    TH_CASE(truncation_at_every_length),
    TH_CASE(index_matches_linear_lookup),
    TH_CASE(ascending_table_needs_no_sort),
};
TH_MAIN(cases)
