/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Pairing two captures and the arrays over a pairing (perfbuf/collector.h,
 * docs/collector.md): processes that exit, start and swap places, names
 * whose #N shift, UniqueIDs, parents that change, a counter whose layout
 * changes, single-instance objects, path patterns, and the size-then-fill
 * protocol with buffers too small by one.
 */
#include "collector_fixture.h"
#include "harness.h"
#include "perfbuf/collector.h"

typedef struct pair_fixture {
    tb_buf older_buf, newer_buf;
    perfbuf_v1_block older, newer;
    uint64_t *scratch;
    size_t slots;
    perfbuf_v1_pairing p;
} pair_fixture;

static const char *const no_parents[] = {"unused"};

static bool setup(pair_fixture *f, const char *const *older_parents, uint32_t older_parent_count,
                  const cf_process *older, uint32_t older_count, const char *const *newer_parents,
                  uint32_t newer_parent_count, const cf_process *newer, uint32_t newer_count,
                  int moved, uint32_t object)
{
    memset(f, 0, sizeof *f);
    f->older_buf = cf_capture(0, older_parents, older_parent_count, older, older_count, 0);
    f->newer_buf = cf_capture(1, newer_parents, newer_parent_count, newer, newer_count, moved);
    if (perfbuf_v1_parse(f->older_buf.data, f->older_buf.len, NULL, &f->older, NULL) !=
            PERFBUF_OK ||
        perfbuf_v1_parse(f->newer_buf.data, f->newer_buf.len, NULL, &f->newer, NULL) !=
            PERFBUF_OK ||
        perfbuf_v1_pairing_scratch(&f->older, &f->newer, object, &f->slots) != PERFBUF_OK) {
        return false;
    }
    f->scratch = malloc(f->slots * sizeof *f->scratch);
    return f->scratch != NULL &&
           perfbuf_v1_pair(&f->older, &f->newer, object, f->scratch, f->slots, &f->p) ==
               PERFBUF_OK;
}

static void teardown(pair_fixture *f)
{
    free(f->scratch);
    tb_free(&f->older_buf);
    tb_free(&f->newer_buf);
}

/* The pairing of newer instance i, in one number: older position, or -1
 * for new, -2 for ambiguous. */
static int older_of(const pair_fixture *f, uint32_t i)
{
    uint32_t kind, ordinal, older;
    if (!perfbuf_v1_pairing_instance(&f->p, i, &kind, &ordinal, &older)) {
        return -3;
    }
    return kind == PERFBUF_PAIR_MATCHED ? (int)older : kind == PERFBUF_PAIR_NEW ? -1 : -2;
}

typedef struct formatted {
    perfbuf_formatted_item items[16];
    char strings[512];
    size_t count;
    size_t bytes;
    perfbuf_status status;
} formatted;

static void format_array(const pair_fixture *f, uint32_t counter, const char *path_text,
                         uint32_t flags, formatted *out)
{
    perfbuf_counter_path path;
    const perfbuf_counter_path *pp = NULL;
    if (path_text != NULL) {
        EXPECT(perfbuf_path_parse(path_text, strlen(path_text), &path, NULL) == PERFBUF_OK);
        pp = &path;
    }
    out->count = 16;
    out->bytes = sizeof out->strings;
    out->status = perfbuf_v1_formatted_array(&f->p, counter, pp, flags, out->items, &out->count,
                                             out->strings, &out->bytes);
}

#define PROC(name, cpu) {name, -1, -1, cpu, 0}

/* a b c d -> b d a e: c exited, e started, the rest moved. Every remaining
 * one gets its own rate: 25, 50, 75 % of one second. */
static void exit_start_swap(void)
{
    const cf_process older[] = {PROC("a", 1000000), PROC("b", 2000000), PROC("c", 3000000),
                                PROC("d", 4000000)};
    const cf_process newer[] = {PROC("b", 7000000), PROC("d", 11500000), PROC("a", 3500000),
                                PROC("e", 100)};
    pair_fixture f;
    CHECK(setup(&f, no_parents, 0, older, 4, no_parents, 0, newer, 4, 0, CF_PROCESS));
    CHECK_EQ_U(f.p.paired, 3);
    CHECK_EQ_U(f.p.new_instances, 1);
    CHECK(older_of(&f, 0) == 1 && older_of(&f, 1) == 3 && older_of(&f, 2) == 0);
    CHECK(older_of(&f, 3) == -1);
    CHECK(older_of(&f, 4) == -3);
    formatted a;
    format_array(&f, CF_CPU, NULL, PERFBUF_FMT_DOUBLE, &a);
    CHECK(a.status == PERFBUF_OK);
    CHECK_EQ_U(a.count, 4);
    CHECK_STR(a.items[0].name, "b");
    CHECK(a.items[0].value.status == PERFBUF_CSTATUS_VALID_DATA);
    CHECK(a.items[0].value.as_double == 50.0);
    CHECK_STR(a.items[1].name, "d");
    CHECK(a.items[1].value.as_double == 75.0);
    CHECK_STR(a.items[2].name, "a");
    CHECK(a.items[2].value.as_double == 25.0);
    CHECK_STR(a.items[3].name, "e");
    CHECK(a.items[3].pairing == PERFBUF_PAIR_NEW);
    CHECK(a.items[3].value.status == PERFBUF_CSTATUS_INVALID_DATA);
    CHECK(a.items[0].name_len == 1 && a.bytes == 8);
    teardown(&f);
}

/* svchost#0 exits: PDH keys by name#N, so the new svchost (#0) pairs with
 * the old svchost (#0) and the new #1 with the old #1, as it would. Names
 * carry the #N the way PDH's arrays show duplicates. */
static void duplicates_shift(void)
{
    const cf_process older[] = {PROC("svchost", 1000000), PROC("svchost", 2000000),
                                PROC("svchost", 3000000)};
    const cf_process newer[] = {PROC("SVCHOST", 3000000), PROC("svchost", 4000000)};
    pair_fixture f;
    CHECK(setup(&f, no_parents, 0, older, 3, no_parents, 0, newer, 2, 0, CF_PROCESS));
    CHECK(older_of(&f, 0) == 0 && older_of(&f, 1) == 1);
    uint32_t kind, ordinal, o;
    CHECK(perfbuf_v1_pairing_instance(&f.p, 1, &kind, &ordinal, &o) && ordinal == 1);
    formatted a;
    format_array(&f, CF_CPU, NULL, PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 2);
    CHECK_STR(a.items[0].name, "SVCHOST");
    CHECK_STR(a.items[1].name, "svchost#1");
    CHECK(a.items[0].value.as_long == 20 && a.items[1].value.as_long == 20);
    teardown(&f);
}

/* With a UniqueID the id is the key, whatever the names and order. */
static void unique_ids(void)
{
    const cf_process older[] = {{"w", -1, 7, 100, 0}, {"w", -1, 8, 200, 0}, {"w", -1, 9, 300, 0}};
    const cf_process newer[] = {{"w", -1, 9, 400, 0}, {"other", -1, 7, 500, 0},
                                {"w", -1, 10, 0, 0}};
    pair_fixture f;
    CHECK(setup(&f, no_parents, 0, older, 3, no_parents, 0, newer, 3, 0, CF_PROCESS));
    CHECK(older_of(&f, 0) == 2 && older_of(&f, 1) == 0 && older_of(&f, 2) == -1);
    teardown(&f);
}

/* Children key on their parent's name, ASCII case-insensitively: x moved
 * from job p1 to p2 (new), y stays under p1 though the parents were
 * reordered and re-cased. */
static void parent_changes(void)
{
    const char *const older_jobs[] = {"p1", "p2"};
    const char *const newer_jobs[] = {"p2", "P1"};
    const cf_process older[] = {{"x", 0, -1, 0, 0}, {"y", 0, -1, 0, 0}, {"z", -1, -1, 0, 0}};
    const cf_process newer[] = {{"x", 0, -1, 0, 0}, {"y", 1, -1, 0, 0}, {"z", -1, -1, 0, 0}};
    pair_fixture f;
    CHECK(setup(&f, older_jobs, 2, older, 3, newer_jobs, 2, newer, 3, 0, CF_PROCESS));
    CHECK(older_of(&f, 0) == -1);
    CHECK(older_of(&f, 1) == 1);
    CHECK(older_of(&f, 2) == 2);
    formatted a;
    format_array(&f, CF_COUNT, NULL, PERFBUF_FMT_LARGE, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 3);
    CHECK_STR(a.items[0].name, "p2/x");
    CHECK_STR(a.items[1].name, "P1/y");
    CHECK_STR(a.items[2].name, "z");
    format_array(&f, CF_COUNT, "\\Process(p1/y)\\Count", PERFBUF_FMT_LARGE, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1);
    CHECK_STR(a.items[0].name, "P1/y");
    format_array(&f, CF_COUNT, "\\Process(*/x)\\Count", PERFBUF_FMT_LARGE, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1);
    teardown(&f);
}

/* CF_CPU moved: no value from the old bytes, the pairing says why; the
 * unchanged CF_COUNT still pairs. */
static void definition_changes(void)
{
    const cf_process older[] = {{"a", -1, -1, 1000, 5}};
    const cf_process newer[] = {{"a", -1, -1, 2000, 6}};
    pair_fixture f;
    CHECK(setup(&f, no_parents, 0, older, 1, no_parents, 0, newer, 1, 1, CF_PROCESS));
    CHECK(older_of(&f, 0) == 0);
    formatted a;
    format_array(&f, CF_CPU, NULL, PERFBUF_FMT_DOUBLE, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1);
    CHECK(a.items[0].pairing == PERFBUF_PAIR_DEFINITION_CHANGED);
    CHECK(a.items[0].value.status == PERFBUF_CSTATUS_INVALID_DATA);
    format_array(&f, CF_COUNT, NULL, PERFBUF_FMT_LONG, &a);
    CHECK(a.items[0].pairing == PERFBUF_PAIR_MATCHED);
    CHECK(a.items[0].value.status == PERFBUF_CSTATUS_VALID_DATA && a.items[0].value.as_long == 6);
    perfbuf_raw_item raw[2];
    char strings[8];
    size_t count = 2, bytes = sizeof strings;
    CHECK(perfbuf_v1_raw_array(&f.p, CF_COUNT, NULL, raw, &count, strings, &bytes) ==
          PERFBUF_OK);
    CHECK(count == 1 && raw[0].has_older && raw[0].older.first == 5 && raw[0].newer.first == 6);
    count = 2;
    bytes = sizeof strings;
    CHECK(perfbuf_v1_raw_array(&f.p, CF_CPU, NULL, raw, &count, strings, &bytes) ==
          PERFBUF_OK);
    CHECK(count == 1 && !raw[0].has_older && raw[0].newer.first == 2000);
    format_array(&f, 999, NULL, PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_E_NOT_FOUND && a.count == 0);
    teardown(&f);
}

/* NumInstances -1: one item, empty name; a path with an instance selects
 * none of it. */
static void single_instance(void)
{
    const cf_process procs[] = {PROC("a", 0)};
    pair_fixture f;
    CHECK(setup(&f, no_parents, 0, procs, 1, no_parents, 0, procs, 1, 0, CF_SYSTEM));
    CHECK(f.p.paired == 0 && f.p.new_instances == 0);
    formatted a;
    format_array(&f, CF_UPTIME, NULL, PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1 && a.bytes == 1);
    CHECK_STR(a.items[0].name, "");
    CHECK(a.items[0].pairing == PERFBUF_PAIR_MATCHED && a.items[0].value.as_long == 1);
    format_array(&f, CF_UPTIME, "\\System\\Uptime", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1);
    format_array(&f, CF_UPTIME, "\\System(*)\\Uptime", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 0);
    teardown(&f);
}

static void patterns(void)
{
    const cf_process procs[] = {PROC("svchost", 0), PROC("svchost", 0), PROC("svc", 0),
                                PROC("System", 0), PROC("sv", 0)};
    pair_fixture f;
    CHECK(setup(&f, no_parents, 0, procs, 5, no_parents, 0, procs, 5, 0, CF_PROCESS));
    formatted a;
    format_array(&f, CF_COUNT, "\\Process(*)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 5);
    format_array(&f, CF_COUNT, "\\Process(svc*)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 3);
    CHECK_STR(a.items[1].name, "svchost#1");
    CHECK_STR(a.items[2].name, "svc");
    format_array(&f, CF_COUNT, "\\Process(svchost#1)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1);
    CHECK_STR(a.items[0].name, "svchost#1");
    format_array(&f, CF_COUNT, "\\Process(SYSTEM)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1);
    format_array(&f, CF_COUNT, "\\Process(svchost)\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 1);
    CHECK_STR(a.items[0].name, "svchost");
    format_array(&f, CF_COUNT, "\\Process\\Count", PERFBUF_FMT_LONG, &a);
    CHECK(a.status == PERFBUF_OK && a.count == 0);
    teardown(&f);
}

/* Names longer than any path part (PDH_MAX_INSTANCE_NAME, 1024 units):
 * a prefix or a wildcard selects them, an exact name cannot be one. */
static void long_names(void)
{
    /* 1,100 euro signs: 1,100 UTF-16 units, 3,300 bytes of UTF-8, more than
     * the 3,080 the array calls convert a name into for matching. */
    char *longer = malloc(3301);
    CHECK(longer != NULL);
    for (int k = 0; k < 1100; k++) {
        memcpy(longer + 3 * k, "\xE2\x82\xAC", 3);
    }
    longer[3300] = '\0';
    const cf_process procs[] = {{longer, -1, -1, 0, 0}, PROC("\xE2\x82\xACy", 0)};
    pair_fixture f;
    CHECK(setup(&f, no_parents, 0, procs, 2, no_parents, 0, procs, 2, 0, CF_PROCESS));
    CHECK(older_of(&f, 0) == 0);
    size_t count = 0, bytes = 0;
    perfbuf_counter_path path;
    const char *prefix = "\\Process(\xE2\x82\xAC\xE2\x82\xAC*)\\Count";
    CHECK(perfbuf_path_parse(prefix, strlen(prefix), &path, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, &path, PERFBUF_FMT_LONG, NULL, &count, NULL,
                                     &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(count == 1 && bytes >= 3301);
    char *strings = malloc(bytes);
    perfbuf_formatted_item item;
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, &path, PERFBUF_FMT_LONG, &item, &count,
                                     strings, &bytes) == PERFBUF_OK);
    CHECK(count == 1 && item.name_len == 3300 && strcmp(item.name, longer) == 0);
    free(strings);
    const char *wild = "\\Process(*)\\Count";
    CHECK(perfbuf_path_parse(wild, strlen(wild), &path, NULL) == PERFBUF_OK);
    count = 0;
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, &path, PERFBUF_FMT_LONG, NULL, &count, NULL,
                                     &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(count == 2);
    /* A prefix longer than what the cut name holds would not be decided
     * by the cut; an exact name never selects a cut one. */
    const char *exact = "\\Process(\xE2\x82\xACy)\\Count";
    CHECK(perfbuf_path_parse(exact, strlen(exact), &path, NULL) == PERFBUF_OK);
    count = 0;
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, &path, PERFBUF_FMT_LONG, NULL, &count, NULL,
                                     &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(count == 1);
    teardown(&f);
    free(longer);
}

/* Size, then fill; one item or one byte short writes nothing. */
static void size_then_fill(void)
{
    const cf_process procs[] = {PROC("alpha", 0), PROC("beta", 0), PROC("alpha", 0)};
    pair_fixture f;
    CHECK(setup(&f, no_parents, 0, procs, 3, no_parents, 0, procs, 3, 0, CF_PROCESS));
    size_t count = 0, bytes = 0;
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, NULL, PERFBUF_FMT_LONG, NULL, &count, NULL,
                                     &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(count, 3);
    /* Sized before conversion: at least the names, NULs and "#1". */
    CHECK(bytes >= sizeof "alpha" + sizeof "beta" + sizeof "alpha#1" - 1);
    perfbuf_formatted_item items[3];
    char *strings = malloc(bytes);
    CHECK(strings != NULL);
    size_t want_bytes = bytes;
    memset(items, 0xAB, sizeof items);
    memset(strings, 0xCD, want_bytes);
    count = 2;
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, NULL, PERFBUF_FMT_LONG, items, &count,
                                     strings, &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(count == 3 && bytes == want_bytes);
    count = 3;
    bytes = want_bytes - 1;
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, NULL, PERFBUF_FMT_LONG, items, &count,
                                     strings, &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    const uint8_t *raw = (const uint8_t *)items;
    for (size_t i = 0; i < sizeof items; i++) {
        CHECK(raw[i] == 0xAB);
    }
    for (size_t i = 0; i < want_bytes; i++) {
        CHECK((uint8_t)strings[i] == 0xCD);
    }
    count = 3;
    bytes = want_bytes;
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, NULL, PERFBUF_FMT_LONG, items, &count,
                                     strings, &bytes) == PERFBUF_OK);
    CHECK(count == 3 && bytes == sizeof "alpha" + sizeof "beta" + sizeof "alpha#1");
    CHECK_STR(items[2].name, "alpha#1");
    CHECK(items[2].name == strings + sizeof "alpha" + sizeof "beta");
    free(strings);
    teardown(&f);
}

static void pairing_errors(void)
{
    const cf_process procs[] = {PROC("a", 0), PROC("b", 0)};
    pair_fixture f;
    CHECK(setup(&f, no_parents, 0, procs, 2, no_parents, 0, procs, 2, 0, CF_PROCESS));
    perfbuf_v1_pairing p;
    CHECK(perfbuf_v1_pair(&f.older, &f.newer, CF_PROCESS, f.scratch, f.slots - 1, &p) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(perfbuf_v1_pair(&f.older, &f.newer, 4242, f.scratch, f.slots, &p) ==
          PERFBUF_E_NOT_FOUND);
    size_t slots = 1;
    CHECK(perfbuf_v1_pairing_scratch(&f.older, &f.newer, 4242, &slots) == PERFBUF_E_NOT_FOUND &&
          slots == 0);
    CHECK(perfbuf_v1_pair(NULL, &f.newer, CF_PROCESS, f.scratch, f.slots, &p) ==
          PERFBUF_E_INVALID_ARGUMENT);
    size_t count = 0, bytes = 0;
    CHECK(perfbuf_v1_formatted_array(NULL, CF_COUNT, NULL, PERFBUF_FMT_LONG, NULL, &count, NULL,
                                     &bytes) == PERFBUF_E_INVALID_ARGUMENT);
    teardown(&f);
}

/* An object only in the newer block: every instance is new. */
static void object_only_in_newer(void)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_end(&v);
    const cf_process procs[] = {PROC("a", 0)};
    tb_buf newer_buf = cf_capture(1, no_parents, 0, procs, 1, 0);
    perfbuf_v1_block older, newer;
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, NULL, &older, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v1_parse(newer_buf.data, newer_buf.len, NULL, &newer, NULL) == PERFBUF_OK);
    size_t slots = 0;
    CHECK(perfbuf_v1_pairing_scratch(&older, &newer, CF_PROCESS, &slots) == PERFBUF_OK);
    uint64_t *scratch = malloc(slots * sizeof *scratch);
    perfbuf_v1_pairing p;
    CHECK(perfbuf_v1_pair(&older, &newer, CF_PROCESS, scratch, slots, &p) == PERFBUF_OK);
    CHECK(!p.has_older && p.new_instances == 1 && p.paired == 0);
    free(scratch);
    tb_free(&v.buf);
    tb_free(&newer_buf);
}

/* The objects form pairs as perfbuf_v1_pair does, from objects and block
 * indexes the caller found and built once, and refuses any that are not
 * of their block. */
static void pair_objects_matches_pair(void)
{
    const char *const older_jobs[] = {"p1", "p2"};
    const char *const newer_jobs[] = {"p2", "P1"};
    const cf_process older[] = {{"x", 0, -1, 0, 0}, {"y", 0, -1, 0, 0}, {"z", -1, -1, 0, 0},
                                {"w", 1, -1, 0, 0}};
    const cf_process newer[] = {{"x", 0, -1, 0, 0}, {"y", 1, -1, 0, 0}, {"z", -1, -1, 0, 0},
                                {"w", 0, -1, 0, 0}, {"v", -1, -1, 0, 0}};
    pair_fixture f;
    CHECK(setup(&f, older_jobs, 2, older, 4, newer_jobs, 2, newer, 5, 0, CF_PROCESS));
    perfbuf_v1_object oo, no, other;
    CHECK(perfbuf_v1_find_object(&f.older, CF_PROCESS, &oo) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&f.newer, CF_PROCESS, &no) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&f.newer, CF_JOB, &other) == PERFBUF_OK);
    uint64_t *os = calloc(f.older.index_slots + 1, sizeof *os);
    uint64_t *ns = calloc(f.newer.index_slots + 1, sizeof *ns);
    perfbuf_v1_instance_index oi, ni;
    CHECK(os != NULL && ns != NULL);
    CHECK(perfbuf_v1_block_index_build(&f.older, os, f.older.index_slots, &oi) == PERFBUF_OK);
    CHECK(perfbuf_v1_block_index_build(&f.newer, ns, f.newer.index_slots, &ni) == PERFBUF_OK);
    size_t slots = 0;
    CHECK(perfbuf_v1_pairing_scratch_objects(&oo, &no, &slots) == PERFBUF_OK);
    CHECK(slots > 0 && slots < f.slots); /* no block index in it */
    uint64_t *scratch = calloc(slots, sizeof *scratch);
    CHECK(scratch != NULL);
    perfbuf_v1_pairing p;
    CHECK(perfbuf_v1_pair_objects(&f.older, &oo, &oi, &f.newer, &no, &ni, scratch, slots - 1,
                                  &p) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(perfbuf_v1_pair_objects(&f.older, &oo, &oi, &f.newer, &no, &ni, scratch, slots, &p) ==
          PERFBUF_OK);
    CHECK_EQ_U(p.paired, f.p.paired);
    CHECK_EQ_U(p.new_instances, f.p.new_instances);
    /* y (p1/y and P1/y), z and p2/w pair; x moved from p1 to p2, v is new. */
    CHECK_EQ_U(p.paired, 3);
    CHECK_EQ_U(p.new_instances, 2);
    for (uint32_t i = 0; i < 5; i++) {
        uint32_t k1, o1, a1, k2, o2, a2;
        CHECK(perfbuf_v1_pairing_instance(&p, i, &k1, &o1, &a1));
        CHECK(perfbuf_v1_pairing_instance(&f.p, i, &k2, &o2, &a2));
        CHECK(k1 == k2 && o1 == o2 && a1 == a2);
    }
    /* No older object: every instance is new. */
    CHECK(perfbuf_v1_pair_objects(&f.older, NULL, NULL, &f.newer, &no, &ni, scratch, slots, &p) ==
          PERFBUF_OK);
    CHECK_EQ_U(p.new_instances, 5);
    CHECK_EQ_U(p.paired, 0);
    /* Objects and indexes of the other block, or not block indexes. */
    CHECK(perfbuf_v1_pair_objects(&f.older, &oo, &oi, &f.newer, &oo, &ni, scratch, slots, &p) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_pair_objects(&f.older, &oo, &ni, &f.newer, &no, &ni, scratch, slots, &p) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_pair_objects(&f.older, &oo, &oi, &f.newer, &no, &oi, scratch, slots, &p) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_pair_objects(&f.older, &oo, &oi, &f.newer, &no, NULL, scratch, slots, &p) ==
          PERFBUF_E_INVALID_ARGUMENT);
    size_t offsets[8];
    perfbuf_v1_instance_index one_object;
    CHECK(perfbuf_v1_index_build(&f.newer, &other, offsets, 8, &one_object) == PERFBUF_OK);
    CHECK(perfbuf_v1_pair_objects(&f.older, &oo, &oi, &f.newer, &no, &one_object, scratch, slots,
                                  &p) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(p.matches == NULL);
    CHECK(perfbuf_v1_pairing_scratch_objects(&oo, NULL, &slots) == PERFBUF_E_INVALID_ARGUMENT);
    free(scratch);
    free(os);
    free(ns);
    teardown(&f);
}

static const th_case cases[] = {
    TH_CASE(pair_objects_matches_pair),
    TH_CASE(exit_start_swap),   TH_CASE(duplicates_shift), TH_CASE(unique_ids),
    TH_CASE(parent_changes),    TH_CASE(definition_changes), TH_CASE(single_instance),
    TH_CASE(patterns),          TH_CASE(size_then_fill),   TH_CASE(pairing_errors),
    TH_CASE(object_only_in_newer), TH_CASE(long_names),
};

TH_MAIN(cases)
