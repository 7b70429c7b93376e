/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Title -> index lookup and counter-path resolution against an English and
 * a German Counter table, both unsorted as real tables are.
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

static tb_buf table_of(const pair *pairs, size_t n)
{
    tb_buf b;
    tb_init(&b);
    char number[16];
    for (size_t i = 0; i < n; i++) {
        snprintf(number, sizeof number, "%u", pairs[i].index);
        tb_utf16(&b, number, 1);
        tb_utf16(&b, pairs[i].text, 1);
    }
    tb_u16(&b, 0);
    return b;
}

/* Indexes rise, then restart lower, as real tables do after updates. */
static const pair english_pairs[] = {
    {4, "Memory"},          {6, "% Processor Time"}, {230, "Process"},
    {238, "Processor"},     {784, "ID Process"},     {1000, "Changes/sec"},
    {7000, "Processor"},    {200, "Base"},           {500, "Temperature"},
};
static const pair german_pairs[] = {
    {230, "Prozess"},       {238, "Prozessor"},      {784, "Prozesskennung"},
    {1000, "Änderungen/s"}, {4, "Speicher"},         {6, "Prozessorzeit (%)"},
    {200, "Basis"},         {7000, "Prozessor"},     {500, "Temperatur"},
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

typedef struct fixture {
    tb_buf english_bytes, german_bytes;
    perfbuf_name_table english, german;
    perfbuf_name_slot english_slots[16], german_slots[16];
    perfbuf_name_index english_index, german_index;
    perfbuf_title_tables names;
    tb_v1 v;
    perfbuf_v1_block b;
} fixture;

/* A block: Processor (238) with % Processor Time (6) and its base (200);
 * Process (230) with % Processor Time and ID Process; Memory (4) with
 * Changes/sec; and a second object titled 7000, also named "Processor". */
static void fixture_make(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->english_bytes = table_of(english_pairs, COUNT(english_pairs));
    f->german_bytes = table_of(german_pairs, COUNT(german_pairs));
    EXPECT(perfbuf_names_parse(f->english_bytes.data, f->english_bytes.len, NULL, &f->english,
                               NULL) == PERFBUF_OK);
    EXPECT(perfbuf_names_parse(f->german_bytes.data, f->german_bytes.len, NULL, &f->german,
                               NULL) == PERFBUF_OK);
    EXPECT(!f->english.ascending && !f->german.ascending);
    EXPECT(perfbuf_names_index_build(&f->english, f->english_slots, 16, &f->english_index) ==
           PERFBUF_OK);
    EXPECT(perfbuf_names_index_build(&f->german, f->german_slots, 16, &f->german_index) ==
           PERFBUF_OK);
    f->names.english = &f->english;
    f->names.english_index = &f->english_index;
    f->names.localized = &f->german;
    f->names.localized_index = &f->german_index;
    uint8_t data[12] = {0};
    tb_v1_begin(&f->v, "HOST");
    tb_v1_object_begin(&f->v, 238, 1, 0);
    tb_v1_counter(&f->v, 6, PERF_SAMPLE_FRACTION, 4, 4);
    tb_v1_counter(&f->v, 200, PERF_SAMPLE_BASE, 4, 8);
    tb_v1_definitions_end(&f->v);
    tb_v1_counter_block(&f->v, data, 8);
    tb_v1_object_end(&f->v);
    tb_v1_object_begin(&f->v, 230, 0, 0);
    tb_v1_counter(&f->v, 6, PERF_100NSEC_TIMER, 8, 4);
    tb_v1_counter(&f->v, 784, PERF_COUNTER_RAWCOUNT, 4, 12);
    tb_v1_definitions_end(&f->v);
    tb_v1_instance(&f->v, "svchost", 0, 0);
    tb_v1_counter_block(&f->v, data, 12);
    tb_v1_object_end(&f->v);
    tb_v1_object_begin(&f->v, 4, 1, 0);
    tb_v1_counter(&f->v, 1000, PERF_COUNTER_COUNTER, 4, 4);
    tb_v1_definitions_end(&f->v);
    tb_v1_counter_block(&f->v, data, 4);
    tb_v1_object_end(&f->v);
    tb_v1_object_begin(&f->v, 7000, 1, 0);
    tb_v1_counter(&f->v, 6, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&f->v);
    tb_v1_counter_block(&f->v, data, 4);
    tb_v1_object_end(&f->v);
    tb_v1_end(&f->v);
    EXPECT(perfbuf_v1_parse(f->v.buf.data, f->v.buf.len, NULL, &f->b, NULL) == PERFBUF_OK);
}

static void fixture_free(fixture *f)
{
    tb_free(&f->english_bytes);
    tb_free(&f->german_bytes);
    tb_free(&f->v.buf);
}

static perfbuf_status find_title(const perfbuf_title_index *ix, const char *text, uint32_t *first,
                                 uint32_t *count)
{
    return perfbuf_title_index_find(ix, text, strlen(text), first, count);
}

static void title_index_finds_every_text_case_insensitively(void)
{
    fixture f;
    fixture_make(&f);
    CALL((void)0);
    perfbuf_title_slot slots[2 * COUNT(german_pairs)];
    perfbuf_title_index ix;
    CHECK_EQ_U(perfbuf_title_index_slots(&f.german), 2 * COUNT(german_pairs));
    CHECK(perfbuf_title_index_build(&f.german, slots, COUNT(slots), &ix) == PERFBUF_OK);
    CHECK_EQ_U(ix.count, COUNT(german_pairs));
    uint32_t first, count;
    CHECK(find_title(&ix, "Prozessorzeit (%)", &first, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 1);
    CHECK_EQ_U(ix.slots[first].title_index, 6);
    CHECK(find_title(&ix, "PROZESSORZEIT (%)", &first, &count) == PERFBUF_OK);
    CHECK_EQ_U(ix.slots[first].title_index, 6);
    /* Latin-1 letters fold too: Ä matches ä. */
    CHECK(find_title(&ix, "ÄNDERUNGEN/S", &first, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 1);
    CHECK_EQ_U(ix.slots[first].title_index, 1000);
    CHECK(find_title(&ix, "änderungen/s", &first, &count) == PERFBUF_OK);
    CHECK_EQ_U(ix.slots[first].title_index, 1000);
    /* A prefix of a text is not the text. */
    CHECK(find_title(&ix, "Prozesso", &first, &count) == PERFBUF_E_NOT_FOUND);
    CHECK_EQ_U(count, 0);
    CHECK(find_title(&ix, "Prozessorzeit (%) ", &first, &count) == PERFBUF_E_NOT_FOUND);
    CHECK(find_title(&ix, "", &first, &count) == PERFBUF_E_NOT_FOUND);
    /* Every text is found, at its own index among the range. */
    for (size_t i = 0; i < COUNT(german_pairs); i++) {
        CHECK(find_title(&ix, german_pairs[i].text, &first, &count) == PERFBUF_OK);
        bool seen = false;
        for (uint32_t k = first; k < first + count; k++) {
            seen = seen || ix.slots[k].title_index == german_pairs[i].index;
        }
        CHECK(seen);
    }
    fixture_free(&f);
}

static void title_index_lists_duplicates_in_table_order(void)
{
    fixture f;
    fixture_make(&f);
    CALL((void)0);
    perfbuf_title_slot slots[2 * COUNT(english_pairs)];
    perfbuf_title_index ix;
    CHECK(perfbuf_title_index_build(&f.english, slots, COUNT(slots), &ix) == PERFBUF_OK);
    uint32_t first, count;
    CHECK(find_title(&ix, "processor", &first, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 2);
    CHECK_EQ_U(ix.slots[first].title_index, 238);
    CHECK_EQ_U(ix.slots[first + 1].title_index, 7000);
    /* "Process" sorts before "Processor" and is its own range. */
    CHECK(find_title(&ix, "PROCESS", &first, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 1);
    CHECK_EQ_U(ix.slots[first].title_index, 230);
    fixture_free(&f);
}

static void title_index_all_equal_and_shared_prefixes(void)
{
    /* 40 entries: 20 equal texts, 20 sharing a 60-character prefix. */
    pair pairs[40];
    char texts[40][80];
    for (uint32_t i = 0; i < 40; i++) {
        if (i % 2 == 0) {
            snprintf(texts[i], sizeof texts[i], "Same");
        } else {
            memset(texts[i], 'a', 60);
            snprintf(texts[i] + 60, sizeof texts[i] - 60, "%02u", 39 - i);
        }
        pairs[i].index = 100 + i;
        pairs[i].text = texts[i];
    }
    tb_buf bytes = table_of(pairs, 40);
    perfbuf_name_table t;
    CHECK(perfbuf_names_parse(bytes.data, bytes.len, NULL, &t, NULL) == PERFBUF_OK);
    perfbuf_title_slot slots[80];
    perfbuf_title_index ix;
    CHECK(perfbuf_title_index_build(&t, slots, 79, &ix) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(perfbuf_title_index_build(&t, slots, 80, &ix) == PERFBUF_OK);
    uint32_t first, count;
    CHECK(find_title(&ix, "SAME", &first, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 20);
    for (uint32_t k = 0; k < count; k++) {
        /* Stable: equal texts stay in table order. */
        CHECK_EQ_U(ix.slots[first + k].title_index, 100 + 2 * k);
    }
    char upper[64];
    memset(upper, 'A', 60);
    memcpy(upper + 60, "08", 3);
    CHECK(find_title(&ix, upper, &first, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 1);
    CHECK_EQ_U(ix.slots[first].title_index, 100 + 39 - 8);
    /* Sorted: the long texts come first ('a' < 's') in ascending suffix. */
    for (uint32_t k = 0; k < 20; k++) {
        CHECK_EQ_U(ix.slots[k].title_index, 100 + 39 - 2 * k);
    }
    tb_free(&bytes);
}

static void title_index_arguments_and_tampered_slots(void)
{
    fixture f;
    fixture_make(&f);
    CALL((void)0);
    perfbuf_title_slot slots[2 * COUNT(german_pairs)];
    perfbuf_title_index ix;
    CHECK(perfbuf_title_index_build(NULL, slots, COUNT(slots), &ix) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_title_index_build(&f.german, NULL, 4, &ix) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_title_index_build(&f.german, slots, COUNT(slots), &ix) == PERFBUF_OK);
    uint32_t first = 9, count = 9;
    CHECK(perfbuf_title_index_find(&ix, "\xC3", 1, &first, &count) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_title_index_find(&ix, NULL, 1, &first, &count) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_title_index_find(NULL, "a", 1, &first, &count) == PERFBUF_E_INVALID_ARGUMENT);
    /* A slot pointing outside the table reads as empty text, never out of
     * bounds. */
    slots[0].text_offset = SIZE_MAX - 1;
    slots[0].text_units = 4;
    CHECK(find_title(&ix, "Zzz", &first, &count) == PERFBUF_E_NOT_FOUND);
    fixture_free(&f);
}

typedef struct resolved {
    perfbuf_status object_status, counter_status;
    perfbuf_v1_object object;
    perfbuf_v1_counter counter;
    perfbuf_language_set object_languages, counter_languages;
    perfbuf_error err;
} resolved;

static resolved resolve(const fixture *f, const perfbuf_title_tables *names, const char *text)
{
    resolved r;
    memset(&r, 0, sizeof r);
    perfbuf_counter_path p;
    r.object_status = perfbuf_path_parse(text, strlen(text), &p, &r.err);
    if (r.object_status != PERFBUF_OK) {
        return r;
    }
    perfbuf_v1_iter it;
    perfbuf_v1_objects_begin(&f->b, &it);
    r.object_status = perfbuf_v1_resolve_object(&f->b, names, &p, &it, &r.object,
                                                &r.object_languages, &r.err);
    r.counter_status = PERFBUF_E_NOT_FOUND;
    if (r.object_status == PERFBUF_OK) {
        perfbuf_v1_iter ci;
        perfbuf_v1_counters_begin(&r.object, &ci);
        r.counter_status = perfbuf_v1_resolve_counter(&f->b, names, &p, &ci, &r.counter,
                                                      &r.counter_languages, &r.err);
    }
    return r;
}

static void english_and_german_paths_resolve(void)
{
    fixture f;
    fixture_make(&f);
    CALL((void)0);
    resolved r = resolve(&f, &f.names, "\\Processor(_Total)\\% Processor Time");
    CHECK(r.object_status == PERFBUF_OK && r.counter_status == PERFBUF_OK);
    CHECK_EQ_U(r.object.name_title_index, 238);
    CHECK_EQ_U(r.object_languages, PERFBUF_LANGUAGE_ENGLISH);
    CHECK_EQ_U(r.counter.name_title_index, 6);
    CHECK_EQ_U(r.counter_languages, PERFBUF_LANGUAGE_ENGLISH);
    r = resolve(&f, &f.names, "\\Prozessor(_Total)\\Prozessorzeit (%)");
    CHECK(r.object_status == PERFBUF_OK && r.counter_status == PERFBUF_OK);
    CHECK_EQ_U(r.object.name_title_index, 238);
    CHECK_EQ_U(r.object_languages, PERFBUF_LANGUAGE_LOCALIZED);
    CHECK_EQ_U(r.counter.name_title_index, 6);
    CHECK_EQ_U(r.counter_languages, PERFBUF_LANGUAGE_LOCALIZED);
    /* Mixed and in any case. */
    r = resolve(&f, &f.names, "\\\\host\\PROZESS(*)\\% processor time");
    CHECK(r.object_status == PERFBUF_OK && r.counter_status == PERFBUF_OK);
    CHECK_EQ_U(r.object.name_title_index, 230);
    CHECK_EQ_U(r.counter.name_title_index, 6);
    CHECK_EQ_U(r.counter.type, PERF_100NSEC_TIMER);
    r = resolve(&f, &f.names, "\\speicher\\ÄNDERUNGEN/S");
    CHECK(r.object_status == PERFBUF_OK && r.counter_status == PERFBUF_OK);
    CHECK_EQ_U(r.object.name_title_index, 4);
    CHECK_EQ_U(r.counter.name_title_index, 1000);
    CHECK_EQ_U(perfbuf_title_matches(&f.names, 238, "PROCESSOR", 9), PERFBUF_LANGUAGE_ENGLISH);
    CHECK_EQ_U(perfbuf_title_matches(&f.names, 238, "prozessor", 9), PERFBUF_LANGUAGE_LOCALIZED);
    CHECK_EQ_U(perfbuf_title_matches(&f.names, 230, "Processor", 9), 0);
    CHECK_EQ_U(perfbuf_title_matches(&f.names, 238, "Prozessor\xC3", 10), 0);
    CHECK_EQ_U(perfbuf_title_matches(NULL, 238, "Prozessor", 9), 0);
    /* With the German table alone, the English path finds nothing. */
    perfbuf_title_tables german_only = {NULL, NULL, &f.german, &f.german_index};
    r = resolve(&f, &german_only, "\\Processor\\% Processor Time");
    CHECK(r.object_status == PERFBUF_E_NOT_FOUND);
    r = resolve(&f, &german_only, "\\Prozessor\\Prozessorzeit (%)");
    CHECK(r.object_status == PERFBUF_OK && r.counter_status == PERFBUF_OK);
    fixture_free(&f);
}

static void results_named_in_either_language(void)
{
    fixture f;
    fixture_make(&f);
    CALL((void)0);
    resolved r = resolve(&f, &f.names, "\\Processor(_Total)\\% Processor Time");
    CHECK(r.object_status == PERFBUF_OK && r.counter_status == PERFBUF_OK);
    char text[64];
    size_t len;
    CHECK(perfbuf_title_text_utf8(&f.names, PERFBUF_LANGUAGE_LOCALIZED, r.counter.name_title_index,
                                  text, sizeof text, &len) == PERFBUF_OK);
    CHECK_STR(text, "Prozessorzeit (%)");
    CHECK(perfbuf_title_text_utf8(&f.names, PERFBUF_LANGUAGE_ENGLISH, r.object.name_title_index,
                                  text, sizeof text, &len) == PERFBUF_OK);
    CHECK_STR(text, "Processor");
    CHECK(perfbuf_title_text_utf8(&f.names, PERFBUF_LANGUAGE_LOCALIZED, 1000, text, 4, &len) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    /* text.h: when cut, len is a size that is enough. */
    CHECK(len >= strlen("Änderungen/s"));
    CHECK(perfbuf_title_text_utf8(&f.names, PERFBUF_LANGUAGE_ENGLISH, 99999, text, sizeof text,
                                  &len) == PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_title_text_utf8(&f.names, (perfbuf_language)3, 6, text, sizeof text, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
    fixture_free(&f);
}

static void missing_names_say_which_part(void)
{
    fixture f;
    fixture_make(&f);
    CALL((void)0);
    resolved r = resolve(&f, &f.names, "\\Nothing(x)\\% Processor Time");
    CHECK(r.object_status == PERFBUF_E_NOT_FOUND);
    CHECK_STR(r.err.field, "Object");
    CHECK_STR(r.err.structure, "COUNTER_PATH");
    CHECK_EQ_U(r.err.offset, 1);
    /* "Process" is not "Processor", nor the reverse: no prefix matches. */
    r = resolve(&f, &f.names, "\\Processo\\% Processor Time");
    CHECK(r.object_status == PERFBUF_E_NOT_FOUND);
    r = resolve(&f, &f.names, "\\Process(a)\\Nothing");
    CHECK(r.object_status == PERFBUF_OK);
    CHECK(r.counter_status == PERFBUF_E_NOT_FOUND);
    CHECK_STR(r.err.field, "Counter");
    CHECK_EQ_U(r.err.offset, strlen("\\Process(a)\\"));
    /* A name one character longer than a text is no match either. */
    r = resolve(&f, &f.names, "\\Memory\\Changes/secs");
    CHECK(r.object_status == PERFBUF_OK && r.counter_status == PERFBUF_E_NOT_FOUND);
    fixture_free(&f);
}

static void too_long_names(void)
{
    fixture f;
    fixture_make(&f);
    CALL((void)0);
    /* A 1024-character object (PDH's limit) parses and is not found; one
     * more is refused by the parser before resolution. */
    char path[1100 + 8];
    path[0] = '\\';
    memset(path + 1, 'P', 1024);
    memcpy(path + 1025, "\\c", 3);
    resolved r = resolve(&f, &f.names, path);
    CHECK(r.object_status == PERFBUF_E_NOT_FOUND);
    CHECK_STR(r.err.field, "Object");
    memset(path + 1, 'P', 1025);
    memcpy(path + 1026, "\\c", 3);
    r = resolve(&f, &f.names, path);
    CHECK(r.object_status == PERFBUF_E_PATH_TOO_LONG);
    fixture_free(&f);
}

static void ambiguous_names_list_every_object(void)
{
    fixture f;
    fixture_make(&f);
    CALL((void)0);
    const char *text = "\\Processor(*)\\*";
    perfbuf_counter_path p;
    CHECK(perfbuf_path_parse(text, strlen(text), &p, NULL) == PERFBUF_OK);
    perfbuf_v1_iter it;
    perfbuf_v1_object o;
    uint32_t titles[4] = {0};
    uint32_t n = 0;
    perfbuf_v1_objects_begin(&f.b, &it);
    while (n < 4 && perfbuf_v1_resolve_object(&f.b, &f.names, &p, &it, &o, NULL, NULL) ==
                        PERFBUF_OK) {
        titles[n++] = o.name_title_index;
    }
    CHECK_EQ_U(n, 2);
    CHECK_EQ_U(titles[0], 238);
    CHECK_EQ_U(titles[1], 7000);
    /* The counter "*" lists displayable counters: the base is left out. */
    perfbuf_v1_objects_begin(&f.b, &it);
    CHECK(perfbuf_v1_resolve_object(&f.b, &f.names, &p, &it, &o, NULL, NULL) == PERFBUF_OK);
    perfbuf_v1_iter ci;
    perfbuf_v1_counter c;
    perfbuf_v1_counters_begin(&o, &ci);
    CHECK(perfbuf_v1_resolve_counter(&f.b, &f.names, &p, &ci, &c, NULL, NULL) == PERFBUF_OK);
    CHECK_EQ_U(c.name_title_index, 6);
    CHECK(perfbuf_v1_resolve_counter(&f.b, &f.names, &p, &ci, &c, NULL, NULL) ==
          PERFBUF_E_NOT_FOUND);
    fixture_free(&f);
}

static void resolve_arguments(void)
{
    fixture f;
    fixture_make(&f);
    CALL((void)0);
    const char *text = "\\Processor\\x";
    perfbuf_counter_path p;
    CHECK(perfbuf_path_parse(text, strlen(text), &p, NULL) == PERFBUF_OK);
    perfbuf_v1_iter it;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(&f.b, &it);
    CHECK(perfbuf_v1_resolve_object(NULL, &f.names, &p, &it, &o, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_resolve_object(&f.b, NULL, &p, &it, &o, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_resolve_object(&f.b, &f.names, NULL, &it, &o, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    /* A span outside the path string is refused, not read. */
    perfbuf_counter_path bad = p;
    bad.object.length = p.text_len + 1;
    CHECK(perfbuf_v1_resolve_object(&f.b, &f.names, &bad, &it, &o, NULL, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    fixture_free(&f);
}

/* ---- V2 ---- */

static perfbuf_counter_path path_of(const char *text)
{
    perfbuf_counter_path p;
    memset(&p, 0, sizeof p);
    EXPECT(perfbuf_path_parse(text, strlen(text), &p, NULL) == PERFBUF_OK);
    return p;
}

static void v2_countersets_and_counters_by_name_guid_and_id(void)
{
    tb_buf reg = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                               PERFBUF_COUNTERSET_MULTI_INSTANCES);
    tb_buf str = tb_v2_strings(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                               PERFBUF_V2_STRINGS_FROM_ARRAY_END);
    tb_buf name_bytes = tb_v2_string_answer("Processor Information");
    perfbuf_v2_reginfo r;
    perfbuf_v2_strings names;
    perfbuf_v2_string name;
    CHECK(perfbuf_v2_reginfo_parse(reg.data, reg.len, NULL, &r, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v2_strings_parse(str.data, str.len, PERFBUF_V2_STRINGS_AUTO, NULL, &names,
                                   NULL) == PERFBUF_OK);
    CHECK(perfbuf_v2_string_parse(name_bytes.data, name_bytes.len, NULL, &name, NULL) ==
          PERFBUF_OK);
    perfbuf_counter_path p = path_of("\\{B4FC721A-0378-476F-89BA-A5A79F810B36}(_Total)\\0");
    CHECK(perfbuf_v2_counterset_matches(&r, NULL, &p));
    p = path_of("\\processor information(*)\\% processor time");
    CHECK(!perfbuf_v2_counterset_matches(&r, NULL, &p));
    CHECK(perfbuf_v2_counterset_matches(&r, &name, &p));
    p = path_of("\\Processor Informatio(*)\\x");
    CHECK(!perfbuf_v2_counterset_matches(&r, &name, &p));
    p = path_of("\\{b4fc721a-0378-476f-89ba-a5a79f810b37}\\0");
    CHECK(!perfbuf_v2_counterset_matches(&r, &name, &p));

    perfbuf_v2_counter_reg c;
    uint32_t next = 0;
    p = path_of("\\Processor Information(*)\\% PROCESSOR TIME");
    CHECK(perfbuf_v2_resolve_counter(&r, &names, &p, &next, &c, NULL) == PERFBUF_OK);
    CHECK_EQ_U(c.id, 0);
    CHECK(perfbuf_v2_resolve_counter(&r, &names, &p, &next, &c, NULL) == PERFBUF_E_NOT_FOUND);
    next = 0;
    p = path_of("\\Processor Information(*)\\dpc rate");
    CHECK(perfbuf_v2_resolve_counter(&r, &names, &p, &next, &c, NULL) == PERFBUF_OK);
    CHECK_EQ_U(c.id, 7);
    /* By id, without names. */
    next = 0;
    p = path_of("\\{b4fc721a-0378-476f-89ba-a5a79f810b36}\\30");
    CHECK(perfbuf_v2_resolve_counter(&r, NULL, &p, &next, &c, NULL) == PERFBUF_OK);
    CHECK_EQ_U(c.id, 30);
    /* id 29 is not registered. */
    next = 0;
    perfbuf_error err;
    memset(&err, 0, sizeof err);
    p = path_of("\\{b4fc721a-0378-476f-89ba-a5a79f810b36}\\29");
    CHECK(perfbuf_v2_resolve_counter(&r, NULL, &p, &next, &c, &err) == PERFBUF_E_NOT_FOUND);
    CHECK_STR(err.field, "Counter");
    CHECK_EQ_U(err.offset, strlen("\\{b4fc721a-0378-476f-89ba-a5a79f810b36}\\"));
    /* "*": every displayable counter once, in registration order. */
    next = 0;
    p = path_of("\\Processor Information(*)\\*");
    uint32_t n = 0, displayable = 0;
    while (perfbuf_v2_resolve_counter(&r, &names, &p, &next, &c, NULL) == PERFBUF_OK) {
        n++;
    }
    for (uint32_t k = 0; k < TB_PROCESSOR_INFORMATION_COUNTERS; k++) {
        displayable += perfbuf_counter_type_is_displayable(tb_processor_information[k].type);
    }
    CHECK(n > 0);
    CHECK_EQ_U(n, displayable);
    /* A span outside the path is refused. */
    perfbuf_counter_path bad = p;
    bad.counter.offset = p.text_len + 1;
    next = 0;
    CHECK(perfbuf_v2_resolve_counter(&r, &names, &bad, &next, &c, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    tb_free(&reg);
    tb_free(&str);
    tb_free(&name_bytes);
}

/* Windows' disk provider gives each base definition its counter's title
 * index (every PERF_PRECISION_TIMESTAMP after % Disk Time carries 200): a
 * named path, like "*", resolves to the counter alone, never to its base. */
static void bases_with_their_counters_title_are_not_resolved(void)
{
    fixture f;
    fixture_make(&f);
    CALL((void)0);
    tb_v1 v;
    uint8_t data[24] = {0};
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, 238, 1, 0);
    tb_v1_counter(&v, 6, PERF_PRECISION_100NS_TIMER, 8, 8);
    tb_v1_counter(&v, 6, PERF_PRECISION_TIMESTAMP, 8, 16);
    tb_v1_counter(&v, 6, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    tb_v1_counter_block(&v, data, 24);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    perfbuf_v1_block b;
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, &(perfbuf_options){.flags = PERFBUF_STRICT},
                           &b, NULL) == PERFBUF_OK);
    const char *const texts[2] = {"\\Processor(*)\\% Processor Time", "\\Processor(*)\\*"};
    for (size_t t = 0; t < 2; t++) {
        perfbuf_counter_path p;
        perfbuf_error err;
        CHECK(perfbuf_path_parse(texts[t], strlen(texts[t]), &p, &err) == PERFBUF_OK);
        perfbuf_v1_iter it;
        perfbuf_v1_object o;
        perfbuf_v1_objects_begin(&b, &it);
        CHECK(perfbuf_v1_resolve_object(&b, &f.names, &p, &it, &o, NULL, &err) == PERFBUF_OK);
        perfbuf_v1_counters_begin(&o, &it);
        perfbuf_v1_counter c;
        CHECK(perfbuf_v1_resolve_counter(&b, &f.names, &p, &it, &c, NULL, &err) == PERFBUF_OK);
        CHECK_EQ_U(c.type, PERF_PRECISION_100NS_TIMER);
        /* The base between them is passed over; the raw count is next. */
        CHECK(perfbuf_v1_resolve_counter(&b, &f.names, &p, &it, &c, NULL, &err) == PERFBUF_OK);
        CHECK_EQ_U(c.type, PERF_COUNTER_RAWCOUNT);
        CHECK(perfbuf_v1_resolve_counter(&b, &f.names, &p, &it, &c, NULL, &err) ==
              PERFBUF_E_NOT_FOUND);
    }
    tb_free(&v.buf);
    fixture_free(&f);
}

static const th_case cases[] = {
    TH_CASE(title_index_finds_every_text_case_insensitively),
    TH_CASE(title_index_lists_duplicates_in_table_order),
    TH_CASE(title_index_all_equal_and_shared_prefixes),
    TH_CASE(title_index_arguments_and_tampered_slots),
    TH_CASE(english_and_german_paths_resolve),
    TH_CASE(results_named_in_either_language),
    TH_CASE(missing_names_say_which_part),
    TH_CASE(too_long_names),
    TH_CASE(ambiguous_names_list_every_object),
    TH_CASE(resolve_arguments),
    TH_CASE(v2_countersets_and_counters_by_name_guid_and_id),
    TH_CASE(bases_with_their_counters_title_are_not_resolved),
};
TH_MAIN(cases)
