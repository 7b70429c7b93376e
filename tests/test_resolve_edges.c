/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Edges of title lookup and counter-path resolution: the folding of every
 * letter class the contract names (and of the units it leaves alone),
 * tables in odd layouts, scratch of exactly the documented size, entries,
 * slots and views from caller memory that do not fit what they describe,
 * and every argument the entry points refuse.
 */
#include "perfbuf/counter_types.h"
#include "perfbuf/resolve.h"
#include "builder.h"
#include "builder_v1.h"
#include "builder_v2meta.h"
#include "harness.h"

typedef struct pair {
    uint32_t index;
    const char *text;
} pair;

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void append_pair(tb_buf *b, uint32_t index, const char *text, int text_nul)
{
    char number[16];
    snprintf(number, sizeof number, "%u", index);
    tb_utf16(b, number, 1);
    tb_utf16(b, text, text_nul);
}

/* A REG_MULTI_SZ of index/text pairs ended by the empty string. */
static tb_buf table_of(const pair *pairs, size_t n)
{
    tb_buf b;
    tb_init(&b);
    for (size_t i = 0; i < n; i++) {
        append_pair(&b, pairs[i].index, pairs[i].text, 1);
    }
    tb_u16(&b, 0);
    return b;
}

static perfbuf_status find_title(const perfbuf_title_index *ix, const char *text, uint32_t *first,
                                 uint32_t *count)
{
    return perfbuf_title_index_find(ix, text, strlen(text), first, count);
}

static bool equals(const perfbuf_name_table *t, const perfbuf_name_entry *e, const char *text)
{
    return perfbuf_title_equals_utf8(t, e, text, strlen(text));
}

/* ---- folding ---- */

/* One letter per class of the folding rule, and units it must leave alone.
 * Out of index order, as real tables are. */
static const pair fold_pairs[] = {
    {14, "\u014A"},        /* LATIN CAPITAL LETTER ENG: second even-capital run */
    {2, "\u0100"},         /* A WITH MACRON: first even-capital run */
    {4, "\u0130"},         /* I WITH DOT ABOVE: no simple pair */
    {6, "\u0131"},         /* DOTLESS I: no simple pair */
    {8, "\u0138"},         /* KRA: no capital */
    {10, "\u0139"},        /* L WITH ACUTE: odd-capital run */
    {12, "\u0149"},        /* N PRECEDED BY APOSTROPHE: no capital */
    {16, "\u0178"},        /* Y WITH DIAERESIS: its small letter is U+00FF */
    {18, "\u0179"},        /* Z WITH ACUTE: second odd-capital run */
    {20, "\u017F"},        /* LONG S: no simple pair */
    {22, "A\u00D7B"},      /* MULTIPLICATION SIGN: not a letter */
    {24, "\u03A9"},        /* GREEK OMEGA: outside the folded blocks */
    {26, "\U0001D11E Clef"}, /* a surrogate pair */
};

typedef struct fold_fixture {
    tb_buf bytes;
    perfbuf_name_table t;
} fold_fixture;

static void fold_fixture_make(fold_fixture *f)
{
    f->bytes = table_of(fold_pairs, COUNT(fold_pairs));
    EXPECT(perfbuf_names_parse(f->bytes.data, f->bytes.len, NULL, &f->t, NULL) == PERFBUF_OK);
    EXPECT(f->t.count == COUNT(fold_pairs));
}

static perfbuf_name_entry entry_of(const perfbuf_name_table *t, uint32_t title_index)
{
    perfbuf_name_entry e;
    memset(&e, 0, sizeof e);
    EXPECT(perfbuf_names_find(t, title_index, &e) == PERFBUF_OK);
    return e;
}

static void latin_extended_a_pairs_fold(void)
{
    fold_fixture f;
    CALL(fold_fixture_make(&f));
    perfbuf_name_entry e = entry_of(&f.t, 2);
    CHECK(equals(&f.t, &e, "\u0100"));
    CHECK(equals(&f.t, &e, "\u0101"));
    CHECK(!equals(&f.t, &e, "a"));
    CHECK(!equals(&f.t, &e, "\u0102"));
    e = entry_of(&f.t, 10);
    CHECK(equals(&f.t, &e, "\u013A"));
    CHECK(!equals(&f.t, &e, "\u0138"));
    CHECK(!equals(&f.t, &e, "\u013B"));
    e = entry_of(&f.t, 14);
    CHECK(equals(&f.t, &e, "\u014B"));
    CHECK(!equals(&f.t, &e, "\u0149"));
    e = entry_of(&f.t, 18);
    CHECK(equals(&f.t, &e, "\u017A"));
    CHECK(!equals(&f.t, &e, "\u017B"));
    CHECK(!equals(&f.t, &e, "z"));
    e = entry_of(&f.t, 16);
    CHECK(equals(&f.t, &e, "\u00FF"));
    CHECK(equals(&f.t, &e, "\u0178"));
    CHECK(!equals(&f.t, &e, "y"));
    CHECK(!equals(&f.t, &e, "\u0179"));
    tb_free(&f.bytes);
}

static void letters_without_simple_pairs_stay(void)
{
    fold_fixture f;
    CALL(fold_fixture_make(&f));
    /* The dotted and dotless i are different letters, and neither is i. */
    perfbuf_name_entry e = entry_of(&f.t, 4);
    CHECK(equals(&f.t, &e, "\u0130"));
    CHECK(!equals(&f.t, &e, "\u0131"));
    CHECK(!equals(&f.t, &e, "i"));
    CHECK(!equals(&f.t, &e, "I"));
    e = entry_of(&f.t, 6);
    CHECK(equals(&f.t, &e, "\u0131"));
    CHECK(!equals(&f.t, &e, "\u0130"));
    CHECK(!equals(&f.t, &e, "I"));
    e = entry_of(&f.t, 8);
    CHECK(equals(&f.t, &e, "\u0138"));
    CHECK(!equals(&f.t, &e, "\u0139"));
    CHECK(!equals(&f.t, &e, "K"));
    /* Odd, but no capital: not the ENG that follows it. */
    e = entry_of(&f.t, 12);
    CHECK(equals(&f.t, &e, "\u0149"));
    CHECK(!equals(&f.t, &e, "\u014A"));
    CHECK(!equals(&f.t, &e, "\u014B"));
    /* The long s is neither s nor the unit after it. */
    e = entry_of(&f.t, 20);
    CHECK(equals(&f.t, &e, "\u017F"));
    CHECK(!equals(&f.t, &e, "s"));
    CHECK(!equals(&f.t, &e, "S"));
    CHECK(!equals(&f.t, &e, "\u0180"));
    /* U+00D7 sits among the Latin-1 capitals but is no letter: it does
     * not become the division sign 0x20 above it. */
    e = entry_of(&f.t, 22);
    CHECK(equals(&f.t, &e, "a\u00D7b"));
    CHECK(!equals(&f.t, &e, "a\u00F7b"));
    /* Greek compares as itself. */
    e = entry_of(&f.t, 24);
    CHECK(equals(&f.t, &e, "\u03A9"));
    CHECK(!equals(&f.t, &e, "\u03C9"));
    tb_free(&f.bytes);
}

static void supplementary_characters_compare_as_surrogate_pairs(void)
{
    fold_fixture f;
    CALL(fold_fixture_make(&f));
    perfbuf_name_entry e = entry_of(&f.t, 26);
    CHECK(equals(&f.t, &e, "\U0001D11E clef"));
    CHECK(equals(&f.t, &e, "\U0001D11E CLEF"));
    /* Same high surrogate, different low one. */
    CHECK(!equals(&f.t, &e, "\U0001D11F Clef"));
    /* Different high surrogate, same low one. */
    CHECK(!equals(&f.t, &e, "\U0001D51E Clef"));
    CHECK(!equals(&f.t, &e, "\U0001D11E"));
    CHECK(!equals(&f.t, &e, "\U0001D11E Clefs"));
    tb_free(&f.bytes);
}

static void title_index_sorts_and_finds_under_the_folding(void)
{
    fold_fixture f;
    CALL(fold_fixture_make(&f));
    perfbuf_title_slot slots[2 * COUNT(fold_pairs)];
    perfbuf_title_index ix;
    /* Scratch: one slot short of 2 x count is refused, exactly 2 x count
     * is enough. */
    CHECK_EQ_U(perfbuf_title_index_slots(&f.t), 2 * COUNT(fold_pairs));
    CHECK(perfbuf_title_index_build(&f.t, slots, COUNT(slots) - 1, &ix) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(perfbuf_title_index_build(&f.t, slots, COUNT(slots), &ix) == PERFBUF_OK);
    CHECK_EQ_U(ix.count, COUNT(fold_pairs));
    static const struct {
        const char *name;
        uint32_t index;
    } hits[] = {
        {"\u0101", 2},          {"\u0130", 4},           {"\u0131", 6},  {"\u0138", 8},
        {"\u013A", 10},         {"\u0149", 12},          {"\u014B", 14}, {"\u00FF", 16},
        {"\u017A", 18},         {"\u017F", 20},          {"a\u00D7B", 22}, {"\u03A9", 24},
        {"\U0001D11E CLEF", 26},
    };
    uint32_t first, count;
    for (size_t i = 0; i < COUNT(hits); i++) {
        CHECK(find_title(&ix, hits[i].name, &first, &count) == PERFBUF_OK);
        CHECK_EQ_U(count, 1);
        CHECK_EQ_U(ix.slots[first].title_index, hits[i].index);
    }
    static const char *const misses[] = {"a",      "i",       "\u014A\u014A", "\u0180",
                                         "s",      "a\u00F7b", "\u03C9",      "\U0001D11F Clef",
                                         "\u0102"};
    for (size_t i = 0; i < COUNT(misses); i++) {
        first = 7;
        count = 7;
        CHECK(find_title(&ix, misses[i], &first, &count) == PERFBUF_E_NOT_FOUND);
        CHECK_EQ_U(first, 0);
        CHECK_EQ_U(count, 0);
    }
    /* Sorted by folded unit: 'a', U+00FF (from U+0178), U+0101 (from
     * U+0100), U+0130, U+0131, U+0138, U+013A, U+0149, U+014B, U+017A,
     * U+017F, U+03A9, and the high surrogate U+D834 last. */
    static const uint32_t order[] = {22, 16, 2, 4, 6, 8, 10, 12, 14, 18, 20, 24, 26};
    for (uint32_t k = 0; k < COUNT(order); k++) {
        CHECK_EQ_U(ix.slots[k].title_index, order[k]);
    }
    tb_free(&f.bytes);
}

/* ---- odd layouts ---- */

static void odd_layout_duplicates_restarts_and_an_unterminated_text(void)
{
    /* Indexes fall and restart, one index has two texts, two indexes share
     * a text in different case, and the last text ends with the bytes
     * (no NUL, no final empty string): a lenient parse keeps it. */
    static const pair pairs[] = {
        {900, "Zeta"}, {20, "alpha"}, {21, "Beta"}, {5, "ALPHA"}, {21, "gamma"}, {1000, "Beta"},
    };
    tb_buf bytes;
    tb_init(&bytes);
    for (size_t i = 0; i < COUNT(pairs); i++) {
        append_pair(&bytes, pairs[i].index, pairs[i].text, 1);
    }
    append_pair(&bytes, 7, "Omega", 0);
    perfbuf_name_table t;
    CHECK(perfbuf_names_parse(bytes.data, bytes.len, NULL, &t, NULL) == PERFBUF_OK);
    CHECK_EQ_U(t.count, COUNT(pairs) + 1);
    CHECK(!t.ascending);
    CHECK((t.anomalies & PERFBUF_ANOMALY_UNTERMINATED) != 0);
    perfbuf_title_slot slots[2 * (COUNT(pairs) + 1)];
    perfbuf_title_index ix;
    CHECK(perfbuf_title_index_build(&t, slots, COUNT(slots), &ix) == PERFBUF_OK);
    CHECK_EQ_U(ix.count, COUNT(pairs) + 1);
    uint32_t first, count;
    CHECK(find_title(&ix, "Alpha", &first, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 2);
    CHECK_EQ_U(ix.slots[first].title_index, 20);
    CHECK_EQ_U(ix.slots[first + 1].title_index, 5);
    CHECK(find_title(&ix, "BETA", &first, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 2);
    CHECK_EQ_U(ix.slots[first].title_index, 21);
    CHECK_EQ_U(ix.slots[first + 1].title_index, 1000);
    CHECK(find_title(&ix, "gamma", &first, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 1);
    CHECK_EQ_U(ix.slots[first].title_index, 21);
    /* The unterminated text is whole, and no longer than the bytes. */
    CHECK(find_title(&ix, "omega", &first, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 1);
    CHECK_EQ_U(ix.slots[first].title_index, 7);
    CHECK(find_title(&ix, "Omeg", &first, &count) == PERFBUF_E_NOT_FOUND);
    CHECK(find_title(&ix, "Omega ", &first, &count) == PERFBUF_E_NOT_FOUND);
    /* Sorted: alpha, ALPHA, Beta, Beta, gamma, Omega, Zeta. */
    static const uint32_t order[] = {20, 5, 21, 1000, 21, 7, 900};
    for (uint32_t k = 0; k < COUNT(order); k++) {
        CHECK_EQ_U(ix.slots[k].title_index, order[k]);
    }
    /* A strict parse refuses what the lenient one kept. */
    perfbuf_options strict = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_name_table strict_table;
    CHECK(perfbuf_names_parse(bytes.data, bytes.len, &strict, &strict_table, NULL) ==
          PERFBUF_E_UNTERMINATED_STRING);
    tb_free(&bytes);
}

static void empty_table_needs_no_scratch(void)
{
    uint8_t terminator[2] = {0, 0};
    perfbuf_name_table t;
    CHECK(perfbuf_names_parse(terminator, sizeof terminator, NULL, &t, NULL) == PERFBUF_OK);
    CHECK_EQ_U(t.count, 0);
    CHECK_EQ_U(perfbuf_title_index_slots(&t), 0);
    perfbuf_title_index ix;
    CHECK(perfbuf_title_index_build(&t, NULL, 0, &ix) == PERFBUF_OK);
    CHECK_EQ_U(ix.count, 0);
    CHECK(ix.table == &t);
    uint32_t first = 5, count = 5;
    CHECK(find_title(&ix, "x", &first, &count) == PERFBUF_E_NOT_FOUND);
    CHECK_EQ_U(first, 0);
    CHECK_EQ_U(count, 0);
    CHECK(perfbuf_title_index_find(&ix, NULL, 0, &first, &count) == PERFBUF_E_NOT_FOUND);
    /* A table with entries and no scratch at all. */
    static const pair one[] = {{2, "System"}};
    tb_buf bytes = table_of(one, 1);
    perfbuf_name_table t1;
    CHECK(perfbuf_names_parse(bytes.data, bytes.len, NULL, &t1, NULL) == PERFBUF_OK);
    CHECK(perfbuf_title_index_build(&t1, NULL, 0, &ix) == PERFBUF_E_OUTPUT_TOO_SMALL);
    perfbuf_title_slot slots[2];
    CHECK(perfbuf_title_index_build(&t1, slots, 1, &ix) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(perfbuf_title_index_build(&t1, slots, 2, &ix) == PERFBUF_OK);
    CHECK(find_title(&ix, "SYSTEM", &first, &count) == PERFBUF_OK);
    CHECK_EQ_U(ix.slots[first].title_index, 2);
    tb_free(&bytes);
}

/* ---- arguments and caller memory ---- */

static void title_index_arguments(void)
{
    fold_fixture f;
    CALL(fold_fixture_make(&f));
    perfbuf_title_slot slots[2 * COUNT(fold_pairs)];
    perfbuf_title_index ix;
    CHECK_EQ_U(perfbuf_title_index_slots(NULL), 0);
    CHECK(perfbuf_title_index_build(&f.t, slots, COUNT(slots), NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_title_index_build(&f.t, slots, COUNT(slots), &ix) == PERFBUF_OK);
    uint32_t first = 3, count = 3;
    CHECK(find_title(&ix, "\u0101", &first, &count) == PERFBUF_OK);
    perfbuf_title_index no_table = ix;
    no_table.table = NULL;
    CHECK(find_title(&no_table, "\u0101", &first, &count) == PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_title_index no_slots = ix;
    no_slots.slots = NULL;
    CHECK(find_title(&no_slots, "\u0101", &first, &count) == PERFBUF_E_INVALID_ARGUMENT);
    /* No slots and no count: an index of nothing, where nothing is found. */
    no_slots.count = 0;
    CHECK(find_title(&no_slots, "\u0101", &first, &count) == PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_title_index_find(&ix, "\u0101", 2, NULL, &count) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_title_index_find(&ix, "\u0101", 2, &first, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    /* No name: the empty name, which no entry has (texts are never empty). */
    first = 3;
    count = 3;
    CHECK(perfbuf_title_index_find(&ix, NULL, 0, &first, &count) == PERFBUF_E_NOT_FOUND);
    CHECK_EQ_U(count, 0);
    CHECK(perfbuf_title_index_find(&ix, "", 0, &first, &count) == PERFBUF_E_NOT_FOUND);
    tb_free(&f.bytes);
}

static void title_equals_arguments(void)
{
    fold_fixture f;
    CALL(fold_fixture_make(&f));
    perfbuf_name_entry e = entry_of(&f.t, 2);
    CHECK(perfbuf_title_equals_utf8(&f.t, &e, "\u0101", 2));
    CHECK(!perfbuf_title_equals_utf8(NULL, &e, "\u0101", 2));
    CHECK(!perfbuf_title_equals_utf8(&f.t, NULL, "\u0101", 2));
    CHECK(!perfbuf_title_equals_utf8(&f.t, &e, NULL, 2));
    CHECK(!perfbuf_title_equals_utf8(&f.t, &e, NULL, 0));
    /* Invalid UTF-8 after a matching prefix would stop the comparison
     * where the text ends: it is refused instead. */
    CHECK(!perfbuf_title_equals_utf8(&f.t, &e, "\u0101\xFF", 3));
    CHECK(!perfbuf_title_equals_utf8(&f.t, &e, "\xC4", 1));
    tb_free(&f.bytes);
}

static void entries_that_do_not_fit_read_as_empty(void)
{
    fold_fixture f;
    CALL(fold_fixture_make(&f));
    perfbuf_name_entry e = entry_of(&f.t, 2);
    /* A unit count whose byte count wraps to 2 would read the entry's
     * first unit; it reads as empty text instead. */
    perfbuf_name_entry wraps = e;
    wraps.text_units = SIZE_MAX / 2 + 2;
    CHECK(!equals(&f.t, &wraps, "\u0100"));
    CHECK(equals(&f.t, &wraps, ""));
    CHECK(perfbuf_title_equals_utf8(&f.t, &wraps, NULL, 0));
    /* An end past SIZE_MAX: also empty. */
    perfbuf_name_entry past = e;
    past.text_offset = SIZE_MAX - 1;
    past.text_units = 2;
    CHECK(!equals(&f.t, &past, "\u0100"));
    CHECK(equals(&f.t, &past, ""));
    tb_free(&f.bytes);
}

static void table_count_beyond_its_entries(void)
{
    /* The table view is caller memory too: a count that claims more pairs
     * than its bytes hold indexes the pairs there are, never more. */
    static const pair pairs[] = {{30, "Cache"}, {10, "Memory"}, {20, "Paging File"}};
    tb_buf bytes = table_of(pairs, COUNT(pairs));
    perfbuf_name_table t;
    CHECK(perfbuf_names_parse(bytes.data, bytes.len, NULL, &t, NULL) == PERFBUF_OK);
    perfbuf_name_table overstated = t;
    overstated.count = t.count + 3;
    perfbuf_title_slot slots[2 * (COUNT(pairs) + 3)];
    memset(slots, 0xA5, sizeof slots);
    perfbuf_title_index ix;
    CHECK(perfbuf_title_index_build(&overstated, slots, COUNT(slots) - 1, &ix) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(perfbuf_title_index_build(&overstated, slots, COUNT(slots), &ix) == PERFBUF_OK);
    CHECK_EQ_U(ix.count, COUNT(pairs));
    CHECK_EQ_U(ix.slots[0].title_index, 30);
    CHECK_EQ_U(ix.slots[1].title_index, 10);
    CHECK_EQ_U(ix.slots[2].title_index, 20);
    uint32_t first, count;
    CHECK(find_title(&ix, "paging file", &first, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 1);
    CHECK_EQ_U(ix.slots[first].title_index, 20);
    CHECK(find_title(&ix, "Zz", &first, &count) == PERFBUF_E_NOT_FOUND);
    tb_free(&bytes);
}

/* ---- V1 paths ---- */

static const pair english_pairs[] = {
    {238, "Processor"}, {6, "% Processor Time"}, {230, "Process"}, {200, "Base"},
};
static const pair german_pairs[] = {
    {6, "Prozessorzeit (%)"}, {238, "Prozessor"}, {230, "Prozess"},
};

typedef struct v1_fixture {
    tb_buf english_bytes, german_bytes;
    perfbuf_name_table english, german;
    perfbuf_name_slot english_slots[8], german_slots[8];
    perfbuf_name_index english_index, german_index;
    perfbuf_title_tables names;
    tb_v1 v;
    perfbuf_v1_block b;
} v1_fixture;

/* Processor (238) with % Processor Time (6) and a base (200). */
static void v1_fixture_make(v1_fixture *f)
{
    memset(f, 0, sizeof *f);
    f->english_bytes = table_of(english_pairs, COUNT(english_pairs));
    f->german_bytes = table_of(german_pairs, COUNT(german_pairs));
    EXPECT(perfbuf_names_parse(f->english_bytes.data, f->english_bytes.len, NULL, &f->english,
                               NULL) == PERFBUF_OK);
    EXPECT(perfbuf_names_parse(f->german_bytes.data, f->german_bytes.len, NULL, &f->german,
                               NULL) == PERFBUF_OK);
    EXPECT(perfbuf_names_index_build(&f->english, f->english_slots, 8, &f->english_index) ==
           PERFBUF_OK);
    EXPECT(perfbuf_names_index_build(&f->german, f->german_slots, 8, &f->german_index) ==
           PERFBUF_OK);
    f->names.english = &f->english;
    f->names.english_index = &f->english_index;
    f->names.localized = &f->german;
    f->names.localized_index = &f->german_index;
    uint8_t data[8] = {0};
    tb_v1_begin(&f->v, "HOST");
    tb_v1_object_begin(&f->v, 238, 1, 0);
    tb_v1_counter(&f->v, 6, PERF_SAMPLE_FRACTION, 4, 4);
    tb_v1_counter(&f->v, 200, PERF_SAMPLE_BASE, 4, 8);
    tb_v1_definitions_end(&f->v);
    tb_v1_counter_block(&f->v, data, 8);
    tb_v1_object_end(&f->v);
    tb_v1_end(&f->v);
    EXPECT(perfbuf_v1_parse(f->v.buf.data, f->v.buf.len, NULL, &f->b, NULL) == PERFBUF_OK);
}

static void v1_fixture_free(v1_fixture *f)
{
    tb_free(&f->english_bytes);
    tb_free(&f->german_bytes);
    tb_free(&f->v.buf);
}

static perfbuf_counter_path path_of(const char *text)
{
    perfbuf_counter_path p;
    memset(&p, 0, sizeof p);
    EXPECT(perfbuf_path_parse(text, strlen(text), &p, NULL) == PERFBUF_OK);
    return p;
}

static void table_without_its_index_is_not_read(void)
{
    v1_fixture f;
    CALL(v1_fixture_make(&f));
    /* The English table is given without its index: only German answers. */
    perfbuf_title_tables half = f.names;
    half.english_index = NULL;
    CHECK_EQ_U(perfbuf_title_matches(&f.names, 238, "Processor", 9), PERFBUF_LANGUAGE_ENGLISH);
    CHECK_EQ_U(perfbuf_title_matches(&half, 238, "Processor", 9), 0);
    CHECK_EQ_U(perfbuf_title_matches(&half, 238, "PROZESSOR", 9), PERFBUF_LANGUAGE_LOCALIZED);
    perfbuf_counter_path p = path_of("\\Processor\\% Processor Time");
    perfbuf_v1_iter it;
    perfbuf_v1_object o;
    perfbuf_error err;
    memset(&err, 0, sizeof err);
    perfbuf_v1_objects_begin(&f.b, &it);
    CHECK(perfbuf_v1_resolve_object(&f.b, &half, &p, &it, &o, NULL, &err) == PERFBUF_E_NOT_FOUND);
    CHECK_STR(err.field, "Object");
    p = path_of("\\Prozessor\\Prozessorzeit (%)");
    perfbuf_language_set matched = 0;
    perfbuf_v1_objects_begin(&f.b, &it);
    CHECK(perfbuf_v1_resolve_object(&f.b, &half, &p, &it, &o, &matched, NULL) == PERFBUF_OK);
    CHECK_EQ_U(o.name_title_index, 238);
    CHECK_EQ_U(matched, PERFBUF_LANGUAGE_LOCALIZED);
    char text[32] = "unchanged";
    size_t len = 99;
    CHECK(perfbuf_title_text_utf8(&half, PERFBUF_LANGUAGE_ENGLISH, 238, text, sizeof text, &len) ==
          PERFBUF_E_NOT_FOUND);
    CHECK_STR(text, "");
    CHECK_EQ_U(len, 0);
    CHECK(perfbuf_title_text_utf8(&half, PERFBUF_LANGUAGE_LOCALIZED, 238, text, sizeof text,
                                  &len) == PERFBUF_OK);
    CHECK_STR(text, "Prozessor");
    v1_fixture_free(&f);
}

static void title_matches_without_a_name(void)
{
    v1_fixture f;
    CALL(v1_fixture_make(&f));
    CHECK_EQ_U(perfbuf_title_matches(&f.names, 238, NULL, 0), 0);
    CHECK_EQ_U(perfbuf_title_matches(&f.names, 238, NULL, 9), 0);
    CHECK_EQ_U(perfbuf_title_matches(&f.names, 238, "", 0), 0);
    CHECK_EQ_U(perfbuf_title_matches(&f.names, 6, "% processor time", 16),
               PERFBUF_LANGUAGE_ENGLISH);
    v1_fixture_free(&f);
}

static void resolve_object_arguments(void)
{
    v1_fixture f;
    CALL(v1_fixture_make(&f));
    perfbuf_counter_path p = path_of("\\Processor\\% Processor Time");
    perfbuf_v1_iter it;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(&f.b, &it);
    CHECK(perfbuf_v1_resolve_object(&f.b, &f.names, &p, NULL, &o, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_resolve_object(&f.b, &f.names, &p, &it, NULL, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_counter_path no_text = p;
    no_text.text = NULL;
    CHECK(perfbuf_v1_resolve_object(&f.b, &f.names, &no_text, &it, &o, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_counter_path past = p;
    past.object.offset = p.text_len + 1;
    past.object.length = 0;
    CHECK(perfbuf_v1_resolve_object(&f.b, &f.names, &past, &it, &o, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    /* None of the refusals moved the iterator. */
    perfbuf_language_set matched = 0;
    CHECK(perfbuf_v1_resolve_object(&f.b, &f.names, &p, &it, &o, &matched, NULL) == PERFBUF_OK);
    CHECK_EQ_U(o.name_title_index, 238);
    CHECK_EQ_U(matched, PERFBUF_LANGUAGE_ENGLISH);
    v1_fixture_free(&f);
}

static void resolve_counter_arguments(void)
{
    v1_fixture f;
    CALL(v1_fixture_make(&f));
    perfbuf_counter_path p = path_of("\\Processor\\% Processor Time");
    perfbuf_v1_iter it;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(&f.b, &it);
    CHECK(perfbuf_v1_resolve_object(&f.b, &f.names, &p, &it, &o, NULL, NULL) == PERFBUF_OK);
    perfbuf_v1_iter ci;
    perfbuf_v1_counter c;
    perfbuf_v1_counters_begin(&o, &ci);
    CHECK(perfbuf_v1_resolve_counter(NULL, &f.names, &p, &ci, &c, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_resolve_counter(&f.b, NULL, &p, &ci, &c, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_resolve_counter(&f.b, &f.names, NULL, &ci, &c, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_resolve_counter(&f.b, &f.names, &p, NULL, &c, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_resolve_counter(&f.b, &f.names, &p, &ci, NULL, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_counter_path no_text = p;
    no_text.text = NULL;
    CHECK(perfbuf_v1_resolve_counter(&f.b, &f.names, &no_text, &ci, &c, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_counter_path longer = p;
    longer.counter.length = p.text_len - p.counter.offset + 1;
    CHECK(perfbuf_v1_resolve_counter(&f.b, &f.names, &longer, &ci, &c, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_language_set matched = 0;
    CHECK(perfbuf_v1_resolve_counter(&f.b, &f.names, &p, &ci, &c, &matched, NULL) ==
          PERFBUF_OK);
    CHECK_EQ_U(c.name_title_index, 6);
    CHECK_EQ_U(matched, PERFBUF_LANGUAGE_ENGLISH);
    CHECK(perfbuf_v1_resolve_counter(&f.b, &f.names, &p, &ci, &c, NULL, NULL) ==
          PERFBUF_E_NOT_FOUND);
    v1_fixture_free(&f);
}

static void title_text_arguments_and_sizes(void)
{
    v1_fixture f;
    CALL(v1_fixture_make(&f));
    char text[32];
    size_t len = 99;
    CHECK(perfbuf_title_text_utf8(NULL, PERFBUF_LANGUAGE_ENGLISH, 238, text, sizeof text, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_title_text_utf8(&f.names, PERFBUF_LANGUAGE_ENGLISH, 238, text, sizeof text,
                                  NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_title_text_utf8(&f.names, PERFBUF_LANGUAGE_ENGLISH, 238, NULL, 4, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
    /* No output at all: the size needed, then the text in that size. */
    len = 0;
    CHECK(perfbuf_title_text_utf8(&f.names, PERFBUF_LANGUAGE_ENGLISH, 238, NULL, 0, &len) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(len >= strlen("Processor") && len < sizeof text);
    CHECK(perfbuf_title_text_utf8(&f.names, PERFBUF_LANGUAGE_ENGLISH, 238, text, len + 1, &len) ==
          PERFBUF_OK);
    CHECK_STR(text, "Processor");
    CHECK_EQ_U(len, strlen("Processor"));
    /* A title the table lacks, with no output: NOT_FOUND, nothing written. */
    len = 99;
    CHECK(perfbuf_title_text_utf8(&f.names, PERFBUF_LANGUAGE_LOCALIZED, 200, NULL, 0, &len) ==
          PERFBUF_E_NOT_FOUND);
    CHECK_EQ_U(len, 0);
    CHECK(perfbuf_title_text_utf8(&f.names, PERFBUF_LANGUAGE_ENGLISH, 200, text, sizeof text,
                                  &len) == PERFBUF_OK);
    CHECK_STR(text, "Base");
    v1_fixture_free(&f);
}

/* ---- V2 ---- */

typedef struct v2_fixture {
    tb_buf reg_bytes, name_bytes;
    perfbuf_v2_reginfo r;
    perfbuf_v2_string name;
} v2_fixture;

static void v2_fixture_make(v2_fixture *f)
{
    f->reg_bytes = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                                 PERFBUF_COUNTERSET_MULTI_INSTANCES);
    f->name_bytes = tb_v2_string_answer("Processor Information");
    EXPECT(perfbuf_v2_reginfo_parse(f->reg_bytes.data, f->reg_bytes.len, NULL, &f->r, NULL) ==
           PERFBUF_OK);
    EXPECT(perfbuf_v2_string_parse(f->name_bytes.data, f->name_bytes.len, NULL, &f->name, NULL) ==
           PERFBUF_OK);
}

static void v2_fixture_free(v2_fixture *f)
{
    tb_free(&f->reg_bytes);
    tb_free(&f->name_bytes);
}

#define PI_GUID "{b4fc721a-0378-476f-89ba-a5a79f810b36}"

static void v2_counterset_arguments(void)
{
    v2_fixture f;
    CALL(v2_fixture_make(&f));
    perfbuf_counter_path p = path_of("\\" PI_GUID "(_Total)\\0");
    CHECK(perfbuf_v2_counterset_matches(&f.r, NULL, &p));
    CHECK(!perfbuf_v2_counterset_matches(NULL, &f.name, &p));
    CHECK(!perfbuf_v2_counterset_matches(&f.r, &f.name, NULL));
    perfbuf_counter_path no_text = p;
    no_text.text = NULL;
    CHECK(!perfbuf_v2_counterset_matches(&f.r, &f.name, &no_text));
    perfbuf_counter_path past = p;
    past.object.offset = p.text_len + 1;
    CHECK(!perfbuf_v2_counterset_matches(&f.r, &f.name, &past));
    perfbuf_counter_path longer = p;
    longer.object.length = p.text_len;
    CHECK(!perfbuf_v2_counterset_matches(&f.r, &f.name, &longer));
    /* One character short of a GUID, one too many. */
    p = path_of("\\{b4fc721a-0378-476f-89ba-a5a79f810b3}\\0");
    CHECK(!perfbuf_v2_counterset_matches(&f.r, &f.name, &p));
    p = path_of("\\{b4fc721a-0378-476f-89ba-a5a79f810b366}\\0");
    CHECK(!perfbuf_v2_counterset_matches(&f.r, &f.name, &p));
    v2_fixture_free(&f);
}

static void v2_counterset_names_that_do_not_fit(void)
{
    v2_fixture f;
    CALL(v2_fixture_make(&f));
    perfbuf_counter_path p = path_of("\\PROCESSOR INFORMATION(*)\\0");
    CHECK(perfbuf_v2_counterset_matches(&f.r, &f.name, &p));
    /* A name view without data names nothing. */
    perfbuf_v2_string no_data = f.name;
    no_data.data = NULL;
    CHECK(!perfbuf_v2_counterset_matches(&f.r, &no_data, &p));
    /* A unit count whose byte count wraps to 2 would read "P" alone. */
    perfbuf_counter_path one_letter = path_of("\\P\\0");
    perfbuf_v2_string wraps = f.name;
    wraps.units = SIZE_MAX / 2 + 2;
    CHECK(!perfbuf_v2_counterset_matches(&f.r, &wraps, &one_letter));
    CHECK(!perfbuf_v2_counterset_matches(&f.r, &wraps, &p));
    /* ... and one that wraps to 0 would read as the empty name. */
    wraps.units = SIZE_MAX / 2 + 1;
    perfbuf_counter_path empty_object = one_letter;
    empty_object.object.length = 0;
    CHECK(!perfbuf_v2_counterset_matches(&f.r, &wraps, &empty_object));
    v2_fixture_free(&f);
}

static void v2_resolve_counter_arguments(void)
{
    v2_fixture f;
    CALL(v2_fixture_make(&f));
    perfbuf_counter_path p = path_of("\\" PI_GUID "\\30");
    perfbuf_v2_counter_reg c;
    uint32_t next = 0;
    CHECK(perfbuf_v2_resolve_counter(NULL, NULL, &p, &next, &c, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_resolve_counter(&f.r, NULL, NULL, &next, &c, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_resolve_counter(&f.r, NULL, &p, NULL, &c, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_resolve_counter(&f.r, NULL, &p, &next, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_counter_path no_text = p;
    no_text.text = NULL;
    CHECK(perfbuf_v2_resolve_counter(&f.r, NULL, &no_text, &next, &c, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_counter_path longer = p;
    longer.counter.length = p.text_len - p.counter.offset + 1;
    CHECK(perfbuf_v2_resolve_counter(&f.r, NULL, &longer, &next, &c, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(next, 0);
    CHECK(perfbuf_v2_resolve_counter(&f.r, NULL, &p, &next, &c, NULL) == PERFBUF_OK);
    CHECK_EQ_U(c.id, 30);
    v2_fixture_free(&f);
}

static void v2_counter_ids_beyond_32_bits(void)
{
    v2_fixture f;
    CALL(v2_fixture_make(&f));
    perfbuf_v2_counter_reg c;
    uint32_t next = 0;
    perfbuf_counter_path p = path_of("\\" PI_GUID "\\31");
    CHECK(perfbuf_v2_resolve_counter(&f.r, NULL, &p, &next, &c, NULL) == PERFBUF_OK);
    CHECK_EQ_U(c.id, 31);
    /* 2^32 + 31 and 2^32 are no ids, not 31 and 0 wrapped. */
    next = 0;
    perfbuf_error err;
    memset(&err, 0, sizeof err);
    p = path_of("\\" PI_GUID "\\4294967327");
    CHECK(perfbuf_v2_resolve_counter(&f.r, NULL, &p, &next, &c, &err) == PERFBUF_E_NOT_FOUND);
    CHECK_STR(err.field, "Counter");
    CHECK_EQ_U(next, TB_PROCESSOR_INFORMATION_COUNTERS);
    next = 0;
    p = path_of("\\" PI_GUID "\\4294967296");
    CHECK(perfbuf_v2_resolve_counter(&f.r, NULL, &p, &next, &c, NULL) == PERFBUF_E_NOT_FOUND);
    next = 0;
    p = path_of("\\" PI_GUID "\\4294967295");
    CHECK(perfbuf_v2_resolve_counter(&f.r, NULL, &p, &next, &c, NULL) == PERFBUF_E_NOT_FOUND);
    v2_fixture_free(&f);
}

static void v2_counters_without_strings(void)
{
    v2_fixture f;
    CALL(v2_fixture_make(&f));
    /* Counter 7 ("DPC Rate") has a header without a string; only the
     * first eight counters have headers at all. */
    tb_reg_row rows[8];
    memcpy(rows, tb_processor_information, sizeof rows);
    CHECK_EQ_U(rows[7].id, 7);
    rows[7].name = NULL;
    tb_buf str = tb_v2_strings(rows, 8, PERFBUF_V2_STRINGS_FROM_ARRAY_END);
    perfbuf_v2_strings names;
    CHECK(perfbuf_v2_strings_parse(str.data, str.len, PERFBUF_V2_STRINGS_AUTO, NULL, &names,
                                   NULL) == PERFBUF_OK);
    perfbuf_v2_counter_reg c;
    uint32_t next = 0;
    perfbuf_counter_path p = path_of("\\Processor Information\\% dpc time");
    CHECK(perfbuf_v2_resolve_counter(&f.r, &names, &p, &next, &c, NULL) == PERFBUF_OK);
    CHECK_EQ_U(c.id, 4);
    CHECK(perfbuf_v2_resolve_counter(&f.r, &names, &p, &next, &c, NULL) == PERFBUF_E_NOT_FOUND);
    next = 0;
    p = path_of("\\Processor Information\\DPC Rate");
    CHECK(perfbuf_v2_resolve_counter(&f.r, &names, &p, &next, &c, NULL) == PERFBUF_E_NOT_FOUND);
    next = 0;
    p = path_of("\\Processor Information\\% Idle Time");
    CHECK(perfbuf_v2_resolve_counter(&f.r, &names, &p, &next, &c, NULL) == PERFBUF_E_NOT_FOUND);
    /* The id still finds both. */
    next = 0;
    p = path_of("\\Processor Information\\7");
    CHECK(perfbuf_v2_resolve_counter(&f.r, &names, &p, &next, &c, NULL) == PERFBUF_OK);
    CHECK_EQ_U(c.id, 7);
    next = 0;
    p = path_of("\\Processor Information\\8");
    CHECK(perfbuf_v2_resolve_counter(&f.r, &names, &p, &next, &c, NULL) == PERFBUF_OK);
    CHECK_EQ_U(c.id, 8);
    tb_free(&str);
    v2_fixture_free(&f);
}

static const th_case cases[] = {
    TH_CASE(latin_extended_a_pairs_fold),
    TH_CASE(letters_without_simple_pairs_stay),
    TH_CASE(supplementary_characters_compare_as_surrogate_pairs),
    TH_CASE(title_index_sorts_and_finds_under_the_folding),
    TH_CASE(odd_layout_duplicates_restarts_and_an_unterminated_text),
    TH_CASE(empty_table_needs_no_scratch),
    TH_CASE(title_index_arguments),
    TH_CASE(title_equals_arguments),
    TH_CASE(entries_that_do_not_fit_read_as_empty),
    TH_CASE(table_count_beyond_its_entries),
    TH_CASE(table_without_its_index_is_not_read),
    TH_CASE(title_matches_without_a_name),
    TH_CASE(resolve_object_arguments),
    TH_CASE(resolve_counter_arguments),
    TH_CASE(title_text_arguments_and_sizes),
    TH_CASE(v2_counterset_arguments),
    TH_CASE(v2_counterset_names_that_do_not_fit),
    TH_CASE(v2_resolve_counter_arguments),
    TH_CASE(v2_counter_ids_beyond_32_bits),
    TH_CASE(v2_counters_without_strings),
};
TH_MAIN(cases)
