/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The query of perfbuf/query.h over the collector fixture's captures: every
 * value is worked out from its formula (PERF_100NSEC_TIMER: 100 * dCPU /
 * dTime with dTime 10,000,000 per second; PERF_COUNTER_RAWCOUNT: the
 * value), every name from PDH's "parent/name#N".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbuf/query.h"
#include "query_helpers.h"
#include "builder.h"
#include "collector_fixture.h"
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

static const pair english_pairs[] = {
    {CF_SYSTEM, "System"},  {CF_CPU, "% Processor Time"}, {CF_COUNT, "ID Process"},
    {CF_PROCESS, "Process"}, {CF_JOB, "Job"},             {CF_UPTIME, "System Up Time"},
};
static const pair german_pairs[] = {
    {CF_PROCESS, "Prozess"}, {CF_CPU, "Prozessorzeit (%)"}, {CF_COUNT, "Prozesskennung"},
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A query with its tables and an arena grown as collections ask. */
typedef struct fixture {
    tb_buf english, german;
    perfbuf_query q;
    void *arena;
    size_t arena_bytes;
} fixture;

static void setup(fixture *f, bool german)
{
    memset(f, 0, sizeof *f);
    f->english = table_of(english_pairs, COUNT(english_pairs));
    f->german = table_of(german_pairs, COUNT(german_pairs));
    perfbuf_error err = {0};
    perfbuf_status st = perfbuf_query_open(&f->q, f->english.data, f->english.len,
                                           german ? f->german.data : NULL,
                                           german ? f->german.len : 0, &err);
    EXPECT(st == PERFBUF_OK);
}

static void teardown(fixture *f)
{
    free(f->arena);
    tb_free(&f->english);
    tb_free(&f->german);
}

/* A new arena of `bytes` that starts with a copy of the old one (as
 * realloc would, but always at another address, so every pointer the
 * query kept must be moved), the old one poisoned and freed. */
static perfbuf_status give_arena(fixture *f, size_t bytes)
{
    void *old = f->arena;
    f->arena = malloc(bytes + 1u);
    if (old != NULL) {
        memcpy(f->arena, old, f->arena_bytes < bytes ? f->arena_bytes : bytes);
        memset(old, 0xEE, f->arena_bytes);
    }
    f->arena_bytes = bytes;
    perfbuf_status st = perfbuf_query_arena(&f->q, f->arena, &f->arena_bytes, NULL);
    free(old);
    return st;
}

static perfbuf_status start(fixture *f)
{
    size_t bytes = 0;
    perfbuf_status st = perfbuf_query_arena(&f->q, NULL, &bytes, NULL);
    return st == PERFBUF_E_OUTPUT_TOO_SMALL ? give_arena(f, bytes) : st;
}

/* Collects, growing the arena when the query asks for more. */
static perfbuf_status collect(fixture *f, const tb_buf *capture)
{
    size_t needed = 0;
    perfbuf_status st;
    int rounds = 0;
    while ((st = perfbuf_query_collect(&f->q, capture->data, capture->len, &needed, NULL)) ==
               PERFBUF_E_OUTPUT_TOO_SMALL &&
           rounds++ < 2) {
        st = give_arena(f, needed);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    return st;
}

static perfbuf_status add(fixture *f, perfbuf_query_counter *c, const char *path)
{
    return perfbuf_query_add(&f->q, c, path, strlen(path), NULL);
}

/* The formatted array as doubles, items and their names in *out (caller frees). */
static perfbuf_status formatted(fixture *f, const perfbuf_query_counter *c,
                                perfbuf_formatted_item **out, size_t *n)
{
    return tq_formatted_alloc(&f->q, c, PERFBUF_FMT_DOUBLE, out, n);
}

/* The raw array into `items` (capacity *n), with names. */
static perfbuf_status raw_array(fixture *f, const perfbuf_query_counter *c, perfbuf_raw_item *items,
                                size_t *n)
{
    return tq_raw(&f->q, c, items, n);
}

/* The names of the instances that appeared or exited (query_helpers.h). */
static perfbuf_status instances(fixture *f, const perfbuf_query_counter *c, uint32_t which,
                                const char **listed, size_t *count)
{
    return tq_instances(&f->q, c, which, listed, count);
}

static bool near(double a, double b)
{
    return fabs(a - b) < 1e-9;
}

static const cf_process first[] = {
    {"Idle", -1, -1, 0, 0},
    {"svchost", -1, -1, 1000000, 812},
    {"svchost", -1, -1, 5000000, 1044},
    {"svchost", -1, -1, 9000000, 1300},
};

/* The first capture gives INVALID_DATA for a two-sample type, as PDH's
 * first sample; the second the rates 100 * dCPU / 10,000,000. */
static void first_sample_then_rates(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter cpu = {0};
    CHECK(add(&f, &cpu, "\\Process(*)\\% Processor Time") == PERFBUF_OK);
    CHECK_EQ_U(cpu.status, PERFBUF_CSTATUS_ITEM_NOT_VALIDATED);
    CHECK(start(&f) == PERFBUF_OK);
    tb_buf c0 = cf_capture(0, NULL, 0, first, 4, 0);
    const cf_process later[] = {
        {"Idle", -1, -1, 0, 0},
        {"svchost", -1, -1, 3000000, 812},
        {"svchost", -1, -1, 5500000, 1044},
        {"svchost", -1, -1, 9000000, 1300},
    };
    tb_buf c1 = cf_capture(1, NULL, 0, later, 4, 0);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    CHECK_EQ_U(cpu.status, PERFBUF_CSTATUS_VALID_DATA);
    perfbuf_formatted_item *items;
    size_t n;
    CHECK(formatted(&f, &cpu, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 4);
    for (size_t i = 0; i < n; i++) {
        CHECK_EQ_U(items[i].value.status, PERFBUF_CSTATUS_INVALID_DATA);
        CHECK_EQ_U(items[i].pairing, PERFBUF_PAIR_NEW);
    }
    free(items);
    CHECK(collect(&f, &c1) == PERFBUF_OK);
    CHECK(formatted(&f, &cpu, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 4);
    const char *names[] = {"Idle", "svchost", "svchost#1", "svchost#2"};
    const double rates[] = {0.0, 20.0, 5.0, 0.0};
    for (size_t i = 0; i < n; i++) {
        CHECK_STR(items[i].name, names[i]);
        CHECK_EQ_U(items[i].name_len, strlen(names[i]));
        CHECK_EQ_U(items[i].value.status, PERFBUF_CSTATUS_VALID_DATA);
        CHECK_EQ_U(items[i].pairing, PERFBUF_PAIR_MATCHED);
        CHECK(near(items[i].value.as_double, rates[i]));
    }
    free(items);
    size_t none = 8;
    const char *listed[8];
    CHECK(instances(&f, &cpu, PERFBUF_QUERY_EXITED, listed, &none) == PERFBUF_OK);
    CHECK_EQ_U(none, 0);
    tb_free(&c0);
    tb_free(&c1);
    teardown(&f);
}

/*
 * A process exits: PDH's key "name#N" moves every later svchost onto the
 * one before it, and the query does the same, by design (the default is
 * PDH's). The exited instance is the last one of the key, svchost#2.
 */
static void exit_shifts_ordinals(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter cpu = {0};
    CHECK(add(&f, &cpu, "\\Process(svchost*)\\% Processor Time") == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    tb_buf c0 = cf_capture(0, NULL, 0, first, 4, 0);
    const cf_process later[] = {
        {"Idle", -1, -1, 0, 0},
        {"svchost", -1, -1, 7000000, 1044},
        {"svchost", -1, -1, 12000000, 1300},
        {"notepad", -1, -1, 100000, 2000},
    };
    tb_buf c1 = cf_capture(1, NULL, 0, later, 4, 0);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    CHECK(collect(&f, &c1) == PERFBUF_OK);
    perfbuf_formatted_item *items;
    size_t n;
    CHECK(formatted(&f, &cpu, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 2);
    /* 1044 is paired with 812's sample, 1300 with 1044's. */
    CHECK_STR(items[0].name, "svchost");
    CHECK(near(items[0].value.as_double, 100.0 * (7000000 - 1000000) / 10000000.0));
    CHECK_STR(items[1].name, "svchost#1");
    CHECK(near(items[1].value.as_double, 100.0 * (12000000 - 5000000) / 10000000.0));
    free(items);
    const char *listed[4];
    size_t count = 0;
    CHECK(instances(&f, &cpu, PERFBUF_QUERY_EXITED, NULL, &count) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(count, 1);
    CHECK(instances(&f, &cpu, PERFBUF_QUERY_EXITED, listed, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 1);
    CHECK_STR(listed[0], "svchost#2");
    count = 4;
    CHECK(instances(&f, &cpu, PERFBUF_QUERY_APPEARED, listed, &count) ==
          PERFBUF_OK);
    CHECK_EQ_U(count, 0); /* notepad is not selected by svchost* */
    tb_free(&c0);
    tb_free(&c1);
    teardown(&f);
}

/* Appeared and exited over every instance, with parents in the names. */
static void appeared_and_exited_with_parents(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter pid = {0};
    CHECK(add(&f, &pid, "\\Process(*/*)\\ID Process") == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    const char *jobs[] = {"build", "web"};
    const cf_process before[] = {
        {"cc", 0, -1, 0, 10}, {"ld", 0, -1, 0, 11}, {"nginx", 1, -1, 0, 20}};
    const cf_process after[] = {
        {"nginx", 1, -1, 0, 20}, {"cc", 0, -1, 0, 10}, {"nginx", 1, -1, 0, 21}};
    tb_buf c0 = cf_capture(0, jobs, 2, before, 3, 0);
    tb_buf c1 = cf_capture(1, jobs, 2, after, 3, 0);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    /* The capture's buffer may be reused at once: overwrite it. */
    memset(c0.data, 0xA5, c0.len);
    CHECK(collect(&f, &c1) == PERFBUF_OK);
    perfbuf_raw_item raw[3];
    size_t n = 3;
    CHECK(raw_array(&f, &pid, raw, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 3);
    CHECK_STR(raw[0].name, "web/nginx");
    CHECK(raw[0].has_older);
    CHECK_EQ_U(raw[0].older.first, 20);
    CHECK_EQ_U(raw[0].newer.first, 20);
    CHECK_STR(raw[1].name, "build/cc");
    CHECK(raw[1].has_older);
    CHECK_EQ_U(raw[1].older.first, 10);
    CHECK_STR(raw[2].name, "web/nginx#1");
    CHECK(!raw[2].has_older);
    CHECK_EQ_U(raw[2].pairing, PERFBUF_PAIR_NEW);
    CHECK_EQ_U(raw[2].newer.first, 21);
    const char *listed[4];
    size_t count = 4;
    CHECK(instances(&f, &pid, PERFBUF_QUERY_EXITED, listed, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 1);
    CHECK_STR(listed[0], "build/ld");
    count = 4;
    CHECK(instances(&f, &pid, PERFBUF_QUERY_APPEARED, listed, &count) ==
          PERFBUF_OK);
    CHECK_EQ_U(count, 1);
    CHECK_STR(listed[0], "web/nginx#1");
    tb_free(&c0);
    tb_free(&c1);
    teardown(&f);
}

/* A path is checked when added, with its position and reason. */
static void add_errors(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter c = {0}, d = {0};
    perfbuf_error err = {0};
    const char *bad = "\\Process(*\\% Processor Time";
    CHECK(perfbuf_query_add(&f.q, &c, bad, strlen(bad), &err) != PERFBUF_OK);
    CHECK(err.structure != NULL);
    CHECK_STR(err.structure, "COUNTER_PATH");
    CHECK(add(&f, &c, "\\Process(*)\\ID Process") == PERFBUF_OK);
    CHECK(add(&f, &c, "\\Process(*)\\ID Process") == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(start(&f) == PERFBUF_OK);
    /* After the arena, the counters are fixed. */
    CHECK(add(&f, &d, "\\Process(*)\\ID Process") == PERFBUF_E_INVALID_ARGUMENT);
    teardown(&f);
}

/* A capture without the object or counter is a counter status; a rejected
 * capture changes nothing. */
static void missing_and_rejected(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter none = {0}, nocounter = {0}, uptime = {0}, unnamed = {0}, absent = {0}, nothing = {0};
    CHECK(add(&f, &absent, "\\Process(notepad)\\% Processor Time") == PERFBUF_OK);
    CHECK(add(&f, &nothing, "\\Process(notepad*)\\% Processor Time") == PERFBUF_OK);
    CHECK(add(&f, &none, "\\Job(*)\\% Processor Time") == PERFBUF_OK);
    CHECK(add(&f, &unnamed, "\\Memory\\Available Bytes") == PERFBUF_OK);
    CHECK(add(&f, &nocounter, "\\System\\% Processor Time") == PERFBUF_OK);
    CHECK(add(&f, &uptime, "\\System\\System Up Time") == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    tb_buf c0 = cf_capture(3, NULL, 0, first, 4, 0);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    CHECK_EQ_U(none.status, PERFBUF_CSTATUS_NO_COUNTER); /* Job exists without that counter */
    CHECK_EQ_U(nocounter.status, PERFBUF_CSTATUS_NO_COUNTER);
    CHECK_EQ_U(unnamed.status, PERFBUF_CSTATUS_NO_OBJECT);
    /* A named instance that is missing, and a prefix that selects nothing:
     * both empty, only the first an error, as in PDH. */
    CHECK_EQ_U(absent.status, PERFBUF_CSTATUS_NO_INSTANCE);
    CHECK_EQ_U(nothing.status, PERFBUF_CSTATUS_VALID_DATA);
    size_t zero = 4;
    perfbuf_formatted_item none_items[4];
    CHECK(perfbuf_query_formatted_array(&f.q, &absent, PERFBUF_FMT_LARGE, none_items, &zero, NULL,
                                        NULL, NULL) == PERFBUF_OK);
    CHECK_EQ_U(zero, 0);
    CHECK_EQ_U(uptime.status, PERFBUF_CSTATUS_VALID_DATA);
    size_t n = 0;
    CHECK(perfbuf_query_formatted_array(&f.q, &none, PERFBUF_FMT_LARGE, NULL, &n, NULL, NULL,
                                        NULL) == PERFBUF_E_NOT_FOUND);
    perfbuf_formatted_item item;
    char name[8];
    size_t name_bytes = sizeof name;
    n = 1;
    CHECK(perfbuf_query_formatted_array(&f.q, &uptime, PERFBUF_FMT_LARGE, &item, &n, name,
                                        &name_bytes, NULL) == PERFBUF_OK);
    CHECK_EQ_U(name_bytes, 1);
    CHECK_EQ_U(n, 1);
    CHECK_STR(item.name, "");
    CHECK_EQ_U(item.value.status, PERFBUF_CSTATUS_VALID_DATA);
    CHECK_EQ_U(item.value.as_large, 3);
    perfbuf_error err = {0};
    CHECK(perfbuf_query_collect(&f.q, c0.data, 20, NULL, &err) != PERFBUF_OK);
    CHECK(err.status != PERFBUF_OK);
    n = 1;
    CHECK(perfbuf_query_formatted_array(&f.q, &uptime, PERFBUF_FMT_LARGE, &item, &n, NULL, NULL,
                                        NULL) == PERFBUF_OK);
    CHECK_EQ_U(item.value.as_large, 3);
    CHECK(item.name == NULL); /* no names asked for */
    tb_free(&c0);
    teardown(&f);
}

/*
 * The arena grows between captures: what the query kept moves to the new
 * arena and still pairs, and a collection that does not fit keeps the
 * previous samples.
 */
static void arena_moves(void)
{
    fixture f;
    CALL(setup(&f, true));
    perfbuf_query_counter cpu = {0};
    CHECK(add(&f, &cpu, "\\Prozess(*)\\Prozessorzeit (%)") == PERFBUF_OK);
    size_t least = 0;
    tb_buf c0 = cf_capture(0, NULL, 0, first, 4, 0);
    size_t needed = 0;
    /* Without an arena, a collection asks for the least one first. */
    CHECK(perfbuf_query_collect(&f.q, c0.data, c0.len, &needed, NULL) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(perfbuf_query_arena(&f.q, NULL, &least, NULL) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(needed, least);
    /* The tables' indexes, the seal and the one counter's address. */
    size_t slots = (COUNT(english_pairs) + COUNT(german_pairs)) * sizeof(perfbuf_name_slot);
    CHECK_EQ_U(least, (slots + 7u) / 8u * 8u + 8u + 8u);
    CHECK(give_arena(&f, least) == PERFBUF_OK);
    CHECK(perfbuf_query_collect(&f.q, c0.data, c0.len, &needed, NULL) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(needed > least);
    CHECK(give_arena(&f, needed) == PERFBUF_OK);
    CHECK(perfbuf_query_collect(&f.q, c0.data, c0.len, &needed, NULL) == PERFBUF_OK);
    /* A larger capture needs more: the query keeps its samples meanwhile. */
    enum { MANY = 2048 };
    cf_process *many = calloc(MANY, sizeof *many);
    char(*names)[16] = calloc(MANY, sizeof *names);
    for (uint32_t i = 0; i < MANY; i++) {
        snprintf(names[i], sizeof names[i], "p%u", i);
        many[i] = (cf_process){names[i], -1, -1, 0, i};
    }
    many[0] = (cf_process){"svchost", -1, -1, 4000000, 812};
    tb_buf c1 = cf_capture(1, NULL, 0, many, MANY, 0);
    free(many);
    free(names);
    CHECK(perfbuf_query_collect(&f.q, c1.data, c1.len, &needed, NULL) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(give_arena(&f, needed) == PERFBUF_OK);
    CHECK(perfbuf_query_collect(&f.q, c1.data, c1.len, &needed, NULL) == PERFBUF_OK);
    perfbuf_formatted_item *items;
    size_t n;
    CHECK(formatted(&f, &cpu, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, MANY);
    CHECK_STR(items[0].name, "svchost");
    CHECK(near(items[0].value.as_double, 30.0));
    CHECK_EQ_U(items[1].pairing, PERFBUF_PAIR_NEW);
    free(items);
    const char *listed[4];
    size_t count = 4;
    CHECK(instances(&f, &cpu, PERFBUF_QUERY_EXITED, listed, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 3);
    CHECK_STR(listed[0], "Idle");
    CHECK_STR(listed[1], "svchost#1");
    CHECK_STR(listed[2], "svchost#2");
    tb_free(&c0);
    tb_free(&c1);
    teardown(&f);
}

/*
 * The same exit with the option: paired by ID Process (CF_COUNT holds the
 * PID), each svchost keeps its own previous sample, and the one that
 * exited is 812, PDH's "svchost" of the first capture.
 */
static void identity_pairing_survives_exit(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter pdh = {0}, stable = {0}, missing = {0};
    const char *path = "\\Process(svchost*)\\% Processor Time";
    CHECK(add(&f, &pdh, path) == PERFBUF_OK);
    CHECK(add(&f, &stable, path) == PERFBUF_OK);
    CHECK(add(&f, &missing, path) == PERFBUF_OK);
    CHECK(perfbuf_query_pair_by(&f.q, &stable, "id process", 10, NULL) == PERFBUF_OK);
    CHECK(perfbuf_query_pair_by(&f.q, &missing, "ID Thread", 9, NULL) == PERFBUF_OK);
    CHECK(perfbuf_query_pair_by(&f.q, &missing, "*", 1, NULL) == PERFBUF_E_PATH_WILDCARD);
    perfbuf_query_counter stranger = {0};
    CHECK(perfbuf_query_pair_by(&f.q, &stranger, "ID Process", 10, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(start(&f) == PERFBUF_OK);
    tb_buf c0 = cf_capture(0, NULL, 0, first, 4, 0);
    const cf_process later[] = {
        {"Idle", -1, -1, 0, 0},
        {"svchost", -1, -1, 7000000, 1044},
        {"svchost", -1, -1, 12000000, 1300},
    };
    tb_buf c1 = cf_capture(1, NULL, 0, later, 3, 0);
    CHECK_EQ_U(collect(&f, &c0), PERFBUF_OK);
    CHECK(collect(&f, &c1) == PERFBUF_OK);
    CHECK_EQ_U(missing.status, PERFBUF_CSTATUS_NO_COUNTER);
    CHECK_EQ_U(stable.status, PERFBUF_CSTATUS_VALID_DATA);
    perfbuf_formatted_item *shifted, *kept;
    size_t n, m;
    CHECK(formatted(&f, &pdh, &shifted, &n) == PERFBUF_OK);
    CHECK(formatted(&f, &stable, &kept, &m) == PERFBUF_OK);
    CHECK_EQ_U(n, 2);
    CHECK_EQ_U(m, 2);
    /* PDH: 1044 against 812's sample, 1300 against 1044's. */
    CHECK(near(shifted[0].value.as_double, 60.0));
    CHECK(near(shifted[1].value.as_double, 70.0));
    /* By PID: 1044 against its own, 1300 against its own; PDH's names. */
    CHECK_STR(kept[0].name, "svchost");
    CHECK(near(kept[0].value.as_double, 100.0 * (7000000 - 5000000) / 10000000.0));
    CHECK_STR(kept[1].name, "svchost#1");
    CHECK(near(kept[1].value.as_double, 100.0 * (12000000 - 9000000) / 10000000.0));
    free(shifted);
    free(kept);
    const char *listed[4];
    size_t count = 4;
    CHECK(instances(&f, &stable, PERFBUF_QUERY_EXITED, listed, &count) ==
          PERFBUF_OK);
    CHECK_EQ_U(count, 1);
    CHECK_STR(listed[0], "svchost");
    tb_free(&c0);
    tb_free(&c1);
    teardown(&f);
}

/*
 * The titles a collection resolved, as the tables give them: a German
 * path in other letter case names "Prozess" and "Prozesskennung", and the
 * English table "Process" and "ID Process"; a title the German table
 * lacks, a counter without samples and an unknown `which` are told apart.
 */
static void titles_as_resolved(void)
{
    fixture f;
    CALL(setup(&f, true));
    perfbuf_query_counter id = {0}, uptime = {0}, unnamed = {0};
    CHECK(add(&f, &id, "\\PROZESS(svchost)\\prozesskennung") == PERFBUF_OK);
    CHECK(add(&f, &uptime, "\\System\\System Up Time") == PERFBUF_OK);
    CHECK(add(&f, &unnamed, "\\Memory\\Available Bytes") == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    uint32_t title = 99;
    char text[32];
    size_t len = 99;
    CHECK(perfbuf_query_title(&f.q, &id, PERFBUF_QUERY_TITLE_OBJECT, PERFBUF_LANGUAGE_ENGLISH,
                              &title, text, sizeof text, &len, NULL) == PERFBUF_E_NOT_FOUND);
    CHECK_EQ_U(title, 0);
    CHECK_EQ_U(len, 0);
    tb_buf c0 = cf_capture(0, NULL, 0, first, 4, 0);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    const struct {
        uint32_t which;
        perfbuf_language language;
        uint32_t title;
        const char *text;
    } expected[] = {
        {PERFBUF_QUERY_TITLE_OBJECT, PERFBUF_LANGUAGE_LOCALIZED, CF_PROCESS, "Prozess"},
        {PERFBUF_QUERY_TITLE_OBJECT, PERFBUF_LANGUAGE_ENGLISH, CF_PROCESS, "Process"},
        {PERFBUF_QUERY_TITLE_COUNTER, PERFBUF_LANGUAGE_LOCALIZED, CF_COUNT, "Prozesskennung"},
        {PERFBUF_QUERY_TITLE_COUNTER, PERFBUF_LANGUAGE_ENGLISH, CF_COUNT, "ID Process"},
    };
    for (size_t k = 0; k < COUNT(expected); k++) {
        CHECK(perfbuf_query_title(&f.q, &id, expected[k].which, expected[k].language, &title,
                                  text, sizeof text, &len, NULL) == PERFBUF_OK);
        CHECK_EQ_U(title, expected[k].title);
        CHECK_STR(text, expected[k].text);
        CHECK_EQ_U(len, strlen(expected[k].text));
    }
    /* The size answer is enough (text.h: an upper bound past what fitted),
     * then too little room. */
    CHECK(perfbuf_query_title(&f.q, &id, PERFBUF_QUERY_TITLE_OBJECT, PERFBUF_LANGUAGE_LOCALIZED,
                              &title, NULL, 0, &len, NULL) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(len >= strlen("Prozess") && len < sizeof text);
    CHECK(perfbuf_query_title(&f.q, &id, PERFBUF_QUERY_TITLE_OBJECT, PERFBUF_LANGUAGE_LOCALIZED,
                              &title, text, len + 1u, &len, NULL) == PERFBUF_OK);
    CHECK_STR(text, "Prozess");
    CHECK(perfbuf_query_title(&f.q, &id, PERFBUF_QUERY_TITLE_OBJECT, PERFBUF_LANGUAGE_LOCALIZED,
                              &title, text, 3, &len, NULL) == PERFBUF_E_OUTPUT_TOO_SMALL);
    /* Resolved, but the German table has no "System Up Time". */
    CHECK(perfbuf_query_title(&f.q, &uptime, PERFBUF_QUERY_TITLE_COUNTER,
                              PERFBUF_LANGUAGE_LOCALIZED, &title, text, sizeof text,
                              &len, NULL) == PERFBUF_E_NOT_FOUND);
    CHECK_EQ_U(title, CF_UPTIME);
    CHECK(perfbuf_query_title(&f.q, &uptime, PERFBUF_QUERY_TITLE_COUNTER, PERFBUF_LANGUAGE_ENGLISH,
                              &title, text, sizeof text, &len, NULL) == PERFBUF_OK);
    CHECK_STR(text, "System Up Time");
    CHECK_EQ_U(unnamed.status, PERFBUF_CSTATUS_NO_OBJECT);
    CHECK(perfbuf_query_title(&f.q, &unnamed, PERFBUF_QUERY_TITLE_OBJECT, PERFBUF_LANGUAGE_ENGLISH,
                              &title, text, sizeof text, &len, NULL) == PERFBUF_E_NOT_FOUND);
    CHECK_EQ_U(title, 0);
    CHECK(perfbuf_query_title(&f.q, &id, 3u, PERFBUF_LANGUAGE_ENGLISH, &title, text, sizeof text,
                              &len, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_query_title(&f.q, &id, PERFBUF_QUERY_TITLE_OBJECT, (perfbuf_language)3, &title,
                              text, sizeof text, &len, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    /* A rejected capture changes nothing: the titles stay, as the arrays do. */
    CHECK(perfbuf_query_collect(&f.q, c0.data, 20, NULL, NULL) != PERFBUF_OK);
    CHECK(perfbuf_query_title(&f.q, &id, PERFBUF_QUERY_TITLE_OBJECT, PERFBUF_LANGUAGE_ENGLISH,
                              &title, text, sizeof text, &len, NULL) == PERFBUF_OK);
    tb_free(&c0);
    teardown(&f);
}

/*
 * What each path found, finer than its status: an object without
 * instances at this moment (Job, NumInstances 0) under a "*" path is no
 * error; a prefix that selects nothing, a missing name, an instance part
 * over a single-instance object and no instance part over an object with
 * instances each name nothing.
 */
static void found_tells_empty_from_missing(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter empty = {0}, empty_parent = {0}, prefix = {0}, named = {0}, over_single = {0}, unnamed = {0}, unnamed_empty = {0}, counter = {0}, object = {0}, items = {0};
    CHECK(add(&f, &empty, "\\Job(*)\\ID Process") == PERFBUF_OK);
    CHECK(add(&f, &empty_parent, "\\Job(svc/*)\\ID Process") == PERFBUF_OK);
    CHECK(add(&f, &prefix, "\\Process(notepad*)\\ID Process") == PERFBUF_OK);
    CHECK(add(&f, &named, "\\Process(notepad)\\ID Process") == PERFBUF_OK);
    CHECK(add(&f, &over_single, "\\System(*)\\System Up Time") == PERFBUF_OK);
    CHECK(add(&f, &unnamed, "\\Process\\ID Process") == PERFBUF_OK);
    CHECK(add(&f, &unnamed_empty, "\\Job\\ID Process") == PERFBUF_OK);
    CHECK(add(&f, &counter, "\\Process(*)\\System Up Time") == PERFBUF_OK);
    CHECK(add(&f, &object, "\\Memory(*)\\ID Process") == PERFBUF_OK);
    CHECK(add(&f, &items, "\\Process(svchost*)\\ID Process") == PERFBUF_OK);
    CHECK_EQ_U(items.found, PERFBUF_QUERY_FOUND_NOT_YET);
    CHECK(start(&f) == PERFBUF_OK);
    tb_buf c0 = cf_capture(0, NULL, 0, first, 4, 0);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    CHECK_EQ_U(empty.found, PERFBUF_QUERY_FOUND_EMPTY_OBJECT);
    CHECK_EQ_U(empty.status, PERFBUF_CSTATUS_VALID_DATA);
    CHECK_EQ_U(empty_parent.found, PERFBUF_QUERY_FOUND_EMPTY_OBJECT);
    CHECK_EQ_U(prefix.found, PERFBUF_QUERY_FOUND_NO_INSTANCE);
    CHECK_EQ_U(named.found, PERFBUF_QUERY_FOUND_NO_INSTANCE);
    CHECK_EQ_U(named.status, PERFBUF_CSTATUS_NO_INSTANCE);
    CHECK_EQ_U(over_single.found, PERFBUF_QUERY_FOUND_NO_INSTANCE);
    CHECK_EQ_U(unnamed.found, PERFBUF_QUERY_FOUND_UNNAMED);
    CHECK_EQ_U(unnamed_empty.found, PERFBUF_QUERY_FOUND_UNNAMED);
    CHECK_EQ_U(counter.found, PERFBUF_QUERY_FOUND_NO_COUNTER);
    CHECK_EQ_U(object.found, PERFBUF_QUERY_FOUND_NO_OBJECT);
    CHECK_EQ_U(items.found, PERFBUF_QUERY_FOUND_ITEMS);
    /* The same Job with a parent instance: the "*" path selects it, the
     * parent "svc" names none of Job's instances (they have no parent). */
    const char *const parents[] = {"svc"};
    tb_buf c1 = cf_capture(1, parents, 1, first, 4, 0);
    CHECK(collect(&f, &c1) == PERFBUF_OK);
    CHECK_EQ_U(empty.found, PERFBUF_QUERY_FOUND_ITEMS);
    CHECK_EQ_U(empty_parent.found, PERFBUF_QUERY_FOUND_NO_PARENT);
    CHECK_EQ_U(empty_parent.status, PERFBUF_CSTATUS_VALID_DATA);
    tb_free(&c0);
    tb_free(&c1);
    teardown(&f);
}

/* Each item carries its instance's position in the capture's object, so
 * several paths' items interleave in block order; an object's one
 * counter block has none. */
static void items_carry_positions(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter svc = {0}, idle = {0}, uptime = {0};
    CHECK(add(&f, &svc, "\\Process(svchost*)\\ID Process") == PERFBUF_OK);
    CHECK(add(&f, &idle, "\\Process(Idle)\\% Processor Time") == PERFBUF_OK);
    CHECK(add(&f, &uptime, "\\System\\System Up Time") == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    tb_buf c0 = cf_capture(0, NULL, 0, first, 4, 0);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    perfbuf_formatted_item *items;
    size_t n;
    CHECK(formatted(&f, &svc, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 3);
    for (size_t i = 0; i < n; i++) {
        CHECK_EQ_U(items[i].position, i + 1u);
    }
    free(items);
    CHECK(formatted(&f, &idle, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 1);
    CHECK_EQ_U(items[0].position, 0);
    free(items);
    perfbuf_raw_item raw[4];
    n = 4;
    CHECK(raw_array(&f, &svc, raw, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 3);
    CHECK_EQ_U(raw[2].position, 3);
    n = 4;
    CHECK(raw_array(&f, &uptime, raw, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 1);
    CHECK_EQ_U(raw[0].position, PERFBUF_ITEM_NO_INSTANCE);
    tb_free(&c0);
    teardown(&f);
}

/*
 * A counter "*": one item per selected instance and displayable counter,
 * instance by instance, counters in definition order, each paired with
 * the same instance's same counter; an exited instance is listed once.
 */
static void every_counter_of_an_object(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter svc = {0}, system = {0};
    CHECK(add(&f, &svc, "\\Process(svchost*)\\*") == PERFBUF_OK);
    CHECK(add(&f, &system, "\\System\\*") == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    tb_buf c0 = cf_capture(0, NULL, 0, first, 4, 0);
    const cf_process later[] = {
        {"Idle", -1, -1, 0, 0},
        {"svchost", -1, -1, 3000000, 812},
        {"svchost", -1, -1, 5500000, 1044},
    };
    tb_buf c1 = cf_capture(1, NULL, 0, later, 3, 0);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    CHECK(collect(&f, &c1) == PERFBUF_OK);
    CHECK_EQ_U(svc.status, PERFBUF_CSTATUS_VALID_DATA);
    CHECK_EQ_U(svc.found, PERFBUF_QUERY_FOUND_ITEMS);
    perfbuf_formatted_item *items;
    size_t n;
    CHECK(formatted(&f, &svc, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 4);
    const char *names[] = {"svchost", "svchost", "svchost#1", "svchost#1"};
    const uint32_t counters[] = {CF_CPU, CF_COUNT, CF_CPU, CF_COUNT};
    const uint32_t positions[] = {1, 1, 2, 2};
    /* PDH's key: the old svchost#1 (5,000,000) pairs with the new one. */
    const double values[] = {20.0, 812.0, 5.0, 1044.0};
    for (size_t i = 0; i < n && i < 4; i++) {
        CHECK_STR(items[i].name, names[i]);
        CHECK_EQ_U(items[i].counter, counters[i]);
        CHECK_EQ_U(items[i].position, positions[i]);
        CHECK_EQ_U(items[i].object, 1); /* Process, after Job */
        CHECK_EQ_U(items[i].pairing, PERFBUF_PAIR_MATCHED);
        CHECK_EQ_U(items[i].value.status, PERFBUF_CSTATUS_VALID_DATA);
        CHECK(near(items[i].value.as_double, values[i]));
    }
    free(items);
    const char *listed[4];
    size_t count = 4;
    CHECK(instances(&f, &svc, PERFBUF_QUERY_EXITED, listed, &count) ==
          PERFBUF_OK);
    CHECK_EQ_U(count, 1);
    CHECK_STR(listed[0], "svchost#2");
    CHECK(formatted(&f, &system, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 1);
    CHECK_EQ_U(items[0].counter, CF_UPTIME);
    CHECK_EQ_U(items[0].position, PERFBUF_ITEM_NO_INSTANCE);
    CHECK(near(items[0].value.as_double, 1.0));
    free(items);
    tb_free(&c0);
    tb_free(&c1);
    teardown(&f);
}

/* A base counter carries its counter's title, as Windows' providers
 * write it, yet is not displayable: "*" skips it, and the fraction is
 * formatted with it. An object with no displayable counter: NO_COUNTER. */
static void every_counter_skips_bases(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter every = {0}, job = {0};
    CHECK(add(&f, &every, "\\System\\*") == PERFBUF_OK);
    CHECK(add(&f, &job, "\\Job(*)\\*") == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, CF_JOB, 1, 0);
    tb_v1_counter(&v, CF_COUNT, PERF_RAW_BASE, 4, 8);
    tb_v1_definitions_end(&v);
    uint8_t job_data[12] = {0};
    tb_v1_counter_block(&v, job_data, sizeof job_data);
    tb_v1_object_end(&v);
    tb_v1_object_begin(&v, CF_SYSTEM, 1, 0);
    tb_v1_counter(&v, CF_UPTIME, PERF_COUNTER_RAWCOUNT, 4, 8);
    tb_v1_counter(&v, CF_CPU, PERF_RAW_FRACTION, 4, 12);
    tb_v1_counter(&v, CF_CPU, PERF_RAW_BASE, 4, 16);
    tb_v1_definitions_end(&v);
    uint8_t data[20] = {0};
    tb_put32(data, 8, 7);
    tb_put32(data, 12, 1);
    tb_put32(data, 16, 4);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    CHECK(collect(&f, &v.buf) == PERFBUF_OK);
    perfbuf_formatted_item *items;
    size_t n;
    CHECK(formatted(&f, &every, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 2);
    if (n == 2) {
        CHECK_EQ_U(items[0].counter, CF_UPTIME);
        CHECK(near(items[0].value.as_double, 7.0));
        CHECK_EQ_U(items[1].counter, CF_CPU);
        CHECK_EQ_U(items[1].value.status, PERFBUF_CSTATUS_VALID_DATA);
        CHECK(near(items[1].value.as_double, 25.0));
    }
    free(items);
    CHECK_EQ_U(job.status, PERFBUF_CSTATUS_NO_COUNTER);
    CHECK_EQ_U(job.found, PERFBUF_QUERY_FOUND_NO_COUNTER);
    tb_free(&v.buf);
    teardown(&f);
}

/* A capture whose block repeats the Process title: `names` in the first
 * object, `later` in the second, each with ID Process = 100 + position
 * (+ 1000 in the second object) and no other counter. */
static tb_buf repeated_title(const char *const *names, uint32_t n, const char *const *later,
                             uint32_t m)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    for (int object = 0; object < 2; object++) {
        tb_v1_object_begin(&v, CF_PROCESS, 0, 0);
        tb_v1_counter(&v, CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 8);
        tb_v1_definitions_end(&v);
        const char *const *list = object == 0 ? names : later;
        for (uint32_t i = 0; i < (object == 0 ? n : m); i++) {
            uint8_t data[12] = {0};
            tb_put32(data, 8, 100u + i + 1000u * (uint32_t)object);
            tb_v1_instance(&v, list[i], 0, 0);
            tb_v1_counter_block(&v, data, sizeof data);
        }
        tb_v1_object_end(&v);
    }
    tb_v1_end(&v);
    return v.buf;
}

/*
 * A path names every object of its title, in block order, each item
 * carrying its object's position: the first object's instances pair
 * across captures, a later object's are never paired (no key tells which
 * of two objects of one title is which) and are not listed as appearing
 * or exiting. A name only a later object has is found there.
 */
static void every_object_of_a_title(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter all = {0}, only_later = {0};
    CHECK(add(&f, &all, "\\Process(*)\\ID Process") == PERFBUF_OK);
    CHECK(add(&f, &only_later, "\\Process(c)\\ID Process") == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    const char *const first_names[] = {"a", "b"}, *const later_names[] = {"c"};
    tb_buf c0 = repeated_title(first_names, 2, later_names, 1);
    tb_buf c1 = repeated_title(first_names + 1, 1, later_names, 1);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    CHECK(collect(&f, &c1) == PERFBUF_OK);
    perfbuf_formatted_item *items;
    size_t n;
    CHECK(formatted(&f, &all, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 2);
    if (n == 2) {
        CHECK_STR(items[0].name, "b");
        CHECK_EQ_U(items[0].object, 0);
        CHECK_EQ_U(items[0].position, 0);
        CHECK_EQ_U(items[0].pairing, PERFBUF_PAIR_MATCHED);
        CHECK(near(items[0].value.as_double, 100.0));
        CHECK_STR(items[1].name, "c");
        CHECK_EQ_U(items[1].object, 1);
        CHECK_EQ_U(items[1].position, 0);
        CHECK_EQ_U(items[1].pairing, PERFBUF_PAIR_UNPAIRED);
        CHECK(near(items[1].value.as_double, 1100.0));
    }
    free(items);
    const char *listed[4];
    size_t count = 4;
    CHECK(instances(&f, &all, PERFBUF_QUERY_EXITED, listed, &count) ==
          PERFBUF_OK);
    CHECK_EQ_U(count, 1);
    CHECK_STR(listed[0], "a");
    count = 4;
    CHECK(instances(&f, &all, PERFBUF_QUERY_APPEARED, listed, &count) ==
          PERFBUF_OK);
    CHECK_EQ_U(count, 0);
    CHECK_EQ_U(only_later.status, PERFBUF_CSTATUS_VALID_DATA);
    CHECK_EQ_U(only_later.found, PERFBUF_QUERY_FOUND_ITEMS);
    CHECK(formatted(&f, &only_later, &items, &n) == PERFBUF_OK);
    CHECK(n == 1 && items[0].object == 1 && near(items[0].value.as_double, 1100.0));
    free(items);
    tb_free(&c0);
    tb_free(&c1);
    teardown(&f);
}

/*
 * A capture for every_definition_of_every_object: Process with four
 * definitions, two sharing CF_COUNT and a fraction with its base, over
 * `names` (values base + 10 x position + the definition's slot); a second
 * Process object with "b"; System, whose uptime is 8 bytes in `second`;
 * Job with an instance and no definition.
 */
static tb_buf every_definition_capture(const char *const *names, uint32_t n, uint32_t base,
                                       bool second)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    for (int object = 0; object < 2; object++) {
        tb_v1_object_begin(&v, CF_PROCESS, 0, 0);
        tb_v1_counter(&v, CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 8);
        tb_v1_counter(&v, CF_CPU, PERF_RAW_FRACTION, 4, 12);
        tb_v1_counter(&v, CF_CPU, PERF_RAW_BASE, 4, 16);
        tb_v1_counter(&v, CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 20);
        tb_v1_definitions_end(&v);
        static const char *const later[] = {"b"};
        const char *const *list = object == 0 ? names : later;
        for (uint32_t i = 0; i < (object == 0 ? n : 1u); i++) {
            uint8_t data[24] = {0};
            for (uint32_t slot = 0; slot < 4; slot++) {
                tb_put32(data, 8u + 4u * slot, base + 10u * i + slot);
            }
            tb_v1_instance(&v, list[i], 0, 0);
            tb_v1_counter_block(&v, data, sizeof data);
        }
        tb_v1_object_end(&v);
    }
    tb_v1_object_begin(&v, CF_SYSTEM, 1, 0);
    tb_v1_counter(&v, CF_UPTIME, second ? PERF_COUNTER_LARGE_RAWCOUNT : PERF_COUNTER_RAWCOUNT,
                  second ? 8u : 4u, 8);
    tb_v1_definitions_end(&v);
    uint8_t data[16] = {0};
    tb_put32(data, 8, 5);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_object_begin(&v, CF_JOB, 0, 0);
    tb_v1_definitions_end(&v);
    uint8_t job[8] = {0};
    tb_v1_instance(&v, "job", 0, 0);
    tb_v1_counter_block(&v, job, sizeof job);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

/*
 * A counter of every definition, in a query opened on an empty table (it
 * needs no title): every object, instance and definition, bases and a
 * repeated title included, in block and definition order; the k-th
 * definition of a title pairs with the k-th; a later object of a repeated
 * title is unpaired; a definition whose type changed is
 * DEFINITION_CHANGED without the older sample; an object without
 * definitions gives nothing. Each paired item says its older instance.
 */
static void every_definition_of_every_object(void)
{
    fixture f;
    memset(&f, 0, sizeof f);
    const pair none[] = {{0, NULL}};
    f.english = table_of(none, 0);
    tb_init(&f.german);
    CHECK(perfbuf_query_open(&f.q, f.english.data, f.english.len, NULL, 0, NULL) == PERFBUF_OK);
    perfbuf_query_counter all = {0};
    CHECK(perfbuf_query_add_definitions(&f.q, &all, NULL) == PERFBUF_OK);
    CHECK(perfbuf_query_add_definitions(&f.q, &all, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    /* A key counter pairs the objects that have it; an empty table names
     * none, so every object here keeps PDH's key. */
    CHECK(perfbuf_query_pair_by(&f.q, &all, "ID Process", 10, NULL) == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    perfbuf_query_counter late = {0};
    CHECK(perfbuf_query_add_definitions(&f.q, &late, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    const char *const before[] = {"a", "b"}, *const after[] = {"b", "c"};
    tb_buf c0 = every_definition_capture(before, 2, 100, false);
    tb_buf c1 = every_definition_capture(after, 2, 200, true);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    CHECK(collect(&f, &c1) == PERFBUF_OK);
    CHECK_EQ_U(all.status, PERFBUF_CSTATUS_VALID_DATA);
    size_t n = 0;
    CHECK(raw_array(&f, &all, NULL, &n) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(n, 13);
    perfbuf_raw_item *items = calloc(n + 1u, sizeof *items);
    CHECK(raw_array(&f, &all, items, &n) == PERFBUF_OK);
    const uint32_t titles[] = {CF_COUNT, CF_CPU, CF_CPU, CF_COUNT};
    for (size_t i = 0; n == 13 && i < 12; i++) {
        uint32_t slot = (uint32_t)(i % 4u), position = (uint32_t)(i / 4u) % 2u;
        const perfbuf_raw_item *it = &items[i];
        CHECK_EQ_U(it->counter, titles[slot]);
        CHECK_EQ_U(it->object_title, CF_PROCESS);
        CHECK_EQ_U(it->object, i < 8 ? 0 : 1);
        CHECK_EQ_U(it->position, i < 8 ? position : 0);
        /* A base is not read (no formula): its status says so, below. */
        uint32_t expected = slot == 2 ? 0u : 200u + 10u * (i < 8 ? position : 0) + slot;
        CHECK_EQ_U(it->newer.first, expected);
        if (i < 4) {
            /* "b": position 1 before; each of its two CF_COUNT
             * definitions with its own older value. */
            CHECK_STR(it->name, "b");
            CHECK_EQ_U(it->pairing, PERFBUF_PAIR_MATCHED);
            CHECK(it->has_older);
            CHECK_EQ_U(it->older_position, 1);
            CHECK_EQ_U(it->older.first, slot == 2 ? 0u : 110u + slot);
        } else {
            CHECK_EQ_U(it->pairing, i < 8 ? PERFBUF_PAIR_NEW : PERFBUF_PAIR_UNPAIRED);
            CHECK(!it->has_older);
            CHECK_EQ_U(it->older_position, PERFBUF_ITEM_NO_INSTANCE);
        }
    }
    if (n == 13) {
        CHECK_EQ_U(items[2].newer.status, PERFBUF_PDH_INVALID_ARGUMENT); /* the base */
        CHECK_EQ_U(items[12].object_title, CF_SYSTEM);
        CHECK_EQ_U(items[12].position, PERFBUF_ITEM_NO_INSTANCE);
        CHECK_EQ_U(items[12].pairing, PERFBUF_PAIR_DEFINITION_CHANGED);
        CHECK(!items[12].has_older);
        CHECK_EQ_U(items[12].newer.first, 5);
    }
    free(items);
    const char *listed[4];
    size_t count = 4;
    CHECK(instances(&f, &all, PERFBUF_QUERY_EXITED, listed, &count) ==
          PERFBUF_OK);
    CHECK(count == 1 && strcmp(listed[0], "a") == 0);
    tb_free(&c0);
    tb_free(&c1);
    teardown(&f);
}

/*
 * The query parses each capture with the options perfbuf_query_options
 * gave: a capture over a lowered limit is refused with the declared count
 * and the limit, one with an anomaly only a strict parse refuses is
 * accepted leniently; the defaults accept both.
 */
static void options_apply_to_captures(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter cpu = {0};
    CHECK(add(&f, &cpu, "\\Process(*)\\% Processor Time") == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    const perfbuf_options lowered = {0, 0, 0, 3};
    const perfbuf_options unknown_flag = {PERFBUF_STRICT << 1, 0, 0, 3};
    const perfbuf_options strict = {PERFBUF_STRICT, 0, 0, 0};
    const perfbuf_options defaults = {0, 0, 0, 0};
    perfbuf_query unopened;
    memset(&unopened, 0, sizeof unopened);
    CHECK(perfbuf_query_options(NULL, &lowered, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_query_options(&f.q, NULL, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_query_options(&unopened, &lowered, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_query_options(&f.q, &unknown_flag, NULL) == PERFBUF_E_INVALID_ARGUMENT);

    /* Four processes: the refused options left the default limits. */
    tb_buf c0 = cf_capture(3, NULL, 0, first, 4, 0);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    size_t n = 0;
    CHECK(perfbuf_query_formatted_array(&f.q, &cpu, PERFBUF_FMT_DOUBLE, NULL, &n, NULL, NULL,
                                        NULL) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(n, 4);

    CHECK(perfbuf_query_options(&f.q, &lowered, NULL) == PERFBUF_OK);
    perfbuf_error err = {0};
    CHECK(perfbuf_query_collect(&f.q, c0.data, c0.len, NULL, &err) == PERFBUF_E_LIMIT_EXCEEDED);
    CHECK_EQ_U(err.status, PERFBUF_E_LIMIT_EXCEEDED);
    CHECK_EQ_U(err.declared, 4);
    CHECK_EQ_U(err.limit, 3);
    CHECK_STR(err.structure, "PERF_OBJECT_TYPE");
    CHECK_STR(err.field, "NumInstances");
    /* The refusal changed nothing: the arrays still hold the first capture. */
    n = 0;
    CHECK(perfbuf_query_formatted_array(&f.q, &cpu, PERFBUF_FMT_DOUBLE, NULL, &n, NULL, NULL,
                                        NULL) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(n, 4);
    CHECK(perfbuf_query_options(&f.q, &defaults, NULL) == PERFBUF_OK);
    CHECK(collect(&f, &c0) == PERFBUF_OK);

    /* Eight bytes past TotalByteLength: an anomaly (TRAILING_BYTES) that
     * only a strict parse refuses. */
    tb_buf trailing = cf_capture(4, NULL, 0, first, 4, 0);
    for (int k = 0; k < 4; k++) {
        tb_u16(&trailing, 0);
    }
    CHECK(collect(&f, &trailing) == PERFBUF_OK);
    CHECK(perfbuf_query_options(&f.q, &strict, NULL) == PERFBUF_OK);
    CHECK(perfbuf_query_collect(&f.q, trailing.data, trailing.len, NULL, &err) ==
          PERFBUF_E_TRAILING_BYTES);
    CHECK_EQ_U(err.offset, 20); /* PERF_DATA_BLOCK.TotalByteLength */
    CHECK_STR(err.field, "TotalByteLength");
    /* Strict accepts the capture without the trailing bytes. */
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    tb_free(&trailing);
    tb_free(&c0);
    teardown(&f);
}

/*
 * A capture inside memory the collection writes (the arena, the query,
 * a counter) would change under the passes that read it again after the
 * parse: refused before anything is read, the query unchanged.
 */
static void capture_over_written_memory(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter cpu = {0};
    CHECK(add(&f, &cpu, "\\Process(*)\\% Processor Time") == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    tb_buf c0 = cf_capture(0, NULL, 0, first, 4, 0);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    size_t kept = f.q.newer.end, needed = 1;
    CHECK(kept + c0.len <= f.arena_bytes || give_arena(&f, kept + c0.len) == PERFBUF_OK);
    uint8_t *spare = (uint8_t *)f.arena + f.q.newer.end;
    memcpy(spare, c0.data, c0.len);
    CHECK_EQ_U(perfbuf_query_collect(&f.q, spare, c0.len, &needed, NULL),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(needed, 0);
    /* Its first byte alone in the arena (the arena's last). */
    uint8_t *elsewhere = malloc(c0.len);
    CHECK(elsewhere != NULL);
    CHECK_EQ_U(perfbuf_query_collect(&f.q, (uint8_t *)f.arena + f.arena_bytes - 1, c0.len, NULL,
                                     NULL),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_query_collect(&f.q, &f.q, sizeof f.q, NULL, NULL),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_query_collect(&f.q, &cpu, sizeof cpu, NULL, NULL),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(f.q.newer.end, kept);
    CHECK_EQ_U(cpu.status, PERFBUF_CSTATUS_VALID_DATA);
    /* The same bytes elsewhere collect. */
    memcpy(elsewhere, c0.data, c0.len);
    perfbuf_status st = perfbuf_query_collect(&f.q, elsewhere, c0.len, &needed, NULL);
    if (st == PERFBUF_E_OUTPUT_TOO_SMALL) {
        CHECK(give_arena(&f, needed) == PERFBUF_OK);
        st = perfbuf_query_collect(&f.q, elsewhere, c0.len, &needed, NULL);
    }
    CHECK_EQ_U(st, PERFBUF_OK);
    free(elsewhere);
    tb_free(&c0);
    teardown(&f);
}

/*
 * A path's text, which perfbuf_query_add keeps a pointer to, inside the
 * memory then given as the arena, which collections write: refused by
 * perfbuf_query_arena, for the path and for a key counter's name, the
 * query unchanged; the same texts elsewhere are taken.
 */
static void path_text_in_the_arena(void)
{
    const char *texts[2][2] = {{"\\Process(Idle)\\% Processor Time", NULL},
                               {"\\Process(Idle)\\% Processor Time", "ID Process"}};
    for (int k = 0; k < 2; k++) {
        fixture f;
        CALL(setup(&f, false));
        size_t bytes = 0;
        perfbuf_query_counter c = {0};
        char *memory = calloc(1, 4096);
        CHECK(memory != NULL);
        const char *path = texts[k][0], *key = texts[k][1];
        char *in_path = memory + 4000, *in_key = memory + 4060;
        memcpy(in_path, path, strlen(path));
        CHECK(perfbuf_query_add(&f.q, &c, k == 0 ? in_path : path, strlen(path), NULL) ==
              PERFBUF_OK);
        if (key != NULL) {
            memcpy(in_key, key, strlen(key));
            CHECK(perfbuf_query_pair_by(&f.q, &c, in_key, strlen(key), NULL) == PERFBUF_OK);
        }
        CHECK(perfbuf_query_arena(&f.q, NULL, &bytes, NULL) == PERFBUF_E_OUTPUT_TOO_SMALL);
        CHECK(bytes < 4000);
        perfbuf_error err = {0};
        size_t given = 4096;
        CHECK_EQ_U(perfbuf_query_arena(&f.q, memory, &given, &err), PERFBUF_E_INVALID_ARGUMENT);
        CHECK_STR(err.structure, "perfbuf_query_arena");
        CHECK_STR(err.field, "arena");
        CHECK(f.q.arena == NULL);
        /* The same arena without the text over it serves. */
        given = 3999;
        CHECK_EQ_U(perfbuf_query_arena(&f.q, memory, &given, NULL), PERFBUF_OK);
        free(memory);
        teardown(&f);
    }
}

/* The arguments add, pair_by and arena refuse before anything changes:
 * NULL pointers, a query never opened, an empty or over-long key name, an
 * arena not aligned to 8. The query then goes on as if none was made. */
static void refused_arguments(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter c = {0};
    perfbuf_error err = {0};
    const char *path = "\\Process(*)\\% Processor Time";
    const perfbuf_status bad = PERFBUF_E_INVALID_ARGUMENT;
    CHECK_EQ_U(perfbuf_query_add(NULL, &c, path, strlen(path), &err), bad);
    CHECK_EQ_U(perfbuf_query_add(&f.q, NULL, path, strlen(path), &err), bad);
    CHECK_EQ_U(perfbuf_query_add(&f.q, &c, NULL, strlen(path), &err), bad);
    perfbuf_query never_opened;
    memset(&never_opened, 0, sizeof never_opened);
    CHECK_EQ_U(perfbuf_query_add(&never_opened, &c, path, strlen(path), &err), bad);
    CHECK(add(&f, &c, path) == PERFBUF_OK);
    CHECK_EQ_U(perfbuf_query_pair_by(&f.q, &c, NULL, 10, NULL), bad);
    CHECK_EQ_U(perfbuf_query_pair_by(&f.q, &c, "ID Process", 0, NULL), bad);
    /* One byte past three bytes of UTF-8 per character of the longest name. */
    size_t long_len = PERFBUF_PATH_MAX_NAME * 3u + 1u;
    char *long_key = malloc(long_len);
    CHECK(long_key != NULL);
    memset(long_key, 'k', long_len);
    CHECK_EQ_U(perfbuf_query_pair_by(&f.q, &c, long_key, long_len, NULL), bad);
    free(long_key);
    size_t bytes = 0;
    CHECK_EQ_U(perfbuf_query_arena(NULL, NULL, &bytes, NULL), bad);
    CHECK_EQ_U(perfbuf_query_arena(&f.q, NULL, NULL, NULL), bad);
    CHECK_EQ_U(perfbuf_query_arena(&never_opened, NULL, &bytes, NULL), bad);
    CHECK_EQ_U(bytes, 0);
    CHECK_EQ_U(perfbuf_query_arena(&f.q, NULL, &bytes, NULL), PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(bytes > 0);
    /* Room enough, one byte off the alignment. */
    uint64_t *room = malloc(bytes + 8u);
    CHECK(room != NULL);
    size_t given = bytes;
    CHECK_EQ_U(perfbuf_query_arena(&f.q, (uint8_t *)room + 1, &given, NULL), bad);
    CHECK_EQ_U(given, bytes);
    free(room);
    /* None of it changed the query: the counter collects. */
    CHECK(start(&f) == PERFBUF_OK);
    tb_buf c0 = cf_capture(0, NULL, 0, first, 4, 0);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    CHECK_EQ_U(c.status, PERFBUF_CSTATUS_VALID_DATA);
    tb_free(&c0);
    teardown(&f);
}

/* ---- what a caller hands back ---- */

/*
 * Every call that takes a counter refuses one of another query, and a
 * copy of one at another address, naming the call and the argument; a
 * counter of a query is refused by another query's add until the first is
 * closed, and the first query's list stays whole (before, the second add
 * took the counter and cut the list: the first query's arrays then read
 * its counters' offsets in the other arena).
 */
static void ownership_refuses_what_is_not_the_query_s(void)
{
    fixture f, g;
    CALL(setup(&f, false));
    CALL(setup(&g, false));
    perfbuf_query_counter a = {0}, a2 = {0}, b = {0}, copy;
    const char *path = "\\Process(*)\\% Processor Time";
    CHECK(add(&f, &a, path) == PERFBUF_OK);
    CHECK(add(&f, &a2, "\\Process(*)\\ID Process") == PERFBUF_OK);
    CHECK(add(&g, &b, path) == PERFBUF_OK);
    perfbuf_error err = {0};
    /* a is f's: g refuses it, and f keeps both its counters. */
    CHECK_EQ_U(perfbuf_query_add(&g.q, &a, path, strlen(path), &err), PERFBUF_E_INVALID_ARGUMENT);
    CHECK_STR(err.structure, "perfbuf_query_add");
    CHECK_STR(err.field, "c");
    CHECK_EQ_U(perfbuf_query_add_definitions(&g.q, &a2, NULL), PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_query_pair_by(&g.q, &a, "ID Process", 10, NULL), PERFBUF_E_INVALID_ARGUMENT);
    CHECK(start(&f) == PERFBUF_OK);
    CHECK(start(&g) == PERFBUF_OK);
    tb_buf c0 = cf_capture(0, NULL, 0, first, 4, 0);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    CHECK(collect(&g, &c0) == PERFBUF_OK);
    CHECK_EQ_U(a.status, PERFBUF_CSTATUS_VALID_DATA);
    CHECK_EQ_U(a2.status, PERFBUF_CSTATUS_VALID_DATA);
    memcpy(&copy, &a, sizeof copy);
    const perfbuf_query_counter *strangers[2] = {&b, &copy};
    for (int k = 0; k < 2; k++) {
        const perfbuf_query_counter *s = strangers[k];
        size_t n = 8, bytes = 0;
        perfbuf_formatted_item items[8];
        perfbuf_raw_item raw[8];
        perfbuf_query_instance listed[8];
        uint32_t title = 7;
        err = (perfbuf_error){0};
        CHECK_EQ_U(perfbuf_query_formatted_array(&f.q, s, PERFBUF_FMT_DOUBLE, items, &n, NULL,
                                                 &bytes, &err),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_STR(err.structure, "perfbuf_query_formatted_array");
        CHECK_STR(err.field, "c");
        CHECK_EQ_U(n, 8); /* nothing written */
        CHECK_EQ_U(perfbuf_query_raw_array(&f.q, s, raw, &n, NULL, &bytes, &err),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_STR(err.structure, "perfbuf_query_raw_array");
        CHECK_EQ_U(perfbuf_query_instances(&f.q, s, PERFBUF_QUERY_EXITED, listed, &n, NULL,
                                           &bytes, &err),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_STR(err.structure, "perfbuf_query_instances");
        CHECK_EQ_U(perfbuf_query_title(&f.q, s, PERFBUF_QUERY_TITLE_OBJECT,
                                       PERFBUF_LANGUAGE_ENGLISH, &title, NULL, 0, &bytes, &err),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_STR(err.structure, "perfbuf_query_title");
        CHECK_EQ_U(title, 7);
    }
    /* Closed, f owns nothing: a may join g's next query. */
    CHECK(perfbuf_query_close(&f.q, NULL) == PERFBUF_OK);
    CHECK(a.owner == NULL && a2.owner == NULL);
    fixture h;
    CALL(setup(&h, false));
    CHECK(add(&h, &a, path) == PERFBUF_OK);
    CHECK(start(&h) == PERFBUF_OK);
    CHECK(collect(&h, &c0) == PERFBUF_OK);
    CHECK_EQ_U(a.status, PERFBUF_CSTATUS_VALID_DATA);
    teardown(&h);
    tb_free(&c0);
    teardown(&f);
    teardown(&g);
}

/*
 * What a caller may break: a counter zeroed while the query holds it
 * (the list is no longer the query's), a query opened again at the same
 * address (its old counters are not the new query's), an arena that does
 * not begin with the previous one's bytes. Each is refused; none is read.
 */
static void a_broken_list_a_stale_counter_and_a_fresh_arena_are_refused(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter a = {0}, b = {0}, x = {0};
    CHECK(add(&f, &a, "\\Process(*)\\% Processor Time") == PERFBUF_OK);
    CHECK(add(&f, &b, "\\Process(*)\\ID Process") == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    tb_buf c0 = cf_capture(0, NULL, 0, first, 4, 0);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    /* An arena of the right size that is not a copy of the query's. */
    size_t bytes = f.arena_bytes;
    void *fresh = calloc(1, bytes);
    perfbuf_error err = {0};
    CHECK_EQ_U(perfbuf_query_arena(&f.q, fresh, &bytes, &err), PERFBUF_E_INVALID_ARGUMENT);
    CHECK_STR(err.field, "arena");
    CHECK(f.q.arena == f.arena);
    free(fresh);
    size_t n = 0;
    CHECK(perfbuf_query_formatted_array(&f.q, &a, PERFBUF_FMT_DOUBLE, NULL, &n, NULL, NULL,
                                        NULL) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(n, 4);
    /* b zeroed by the caller: the list is broken; collect refuses it, and
     * the arrays refuse b. */
    memset(&b, 0, sizeof b);
    CHECK_EQ_U(perfbuf_query_collect(&f.q, c0.data, c0.len, NULL, &err),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_STR(err.structure, "perfbuf_query_collect");
    CHECK_STR(err.field, "q");
    CHECK_EQ_U(perfbuf_query_formatted_array(&f.q, &b, PERFBUF_FMT_DOUBLE, NULL, &n, NULL, NULL,
                                             NULL),
               PERFBUF_E_INVALID_ARGUMENT);
    /* The query opened again at the same address, with x in slot 0: a
     * still says it is slot 0 of this address's query, and is refused by
     * the arrays (the arena lists x), never read at its old offsets. */
    free(f.arena);
    f.arena = NULL;
    f.arena_bytes = 0;
    CHECK(perfbuf_query_open(&f.q, f.english.data, f.english.len, NULL, 0, NULL) == PERFBUF_OK);
    CHECK(add(&f, &x, "\\Process(svchost)\\ID Process") == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    CHECK_EQ_U(a.slot, 0);
    CHECK_EQ_U(perfbuf_query_formatted_array(&f.q, &a, PERFBUF_FMT_DOUBLE, NULL, &n, NULL, NULL,
                                             &err),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_STR(err.field, "c");
    n = 0;
    CHECK(perfbuf_query_formatted_array(&f.q, &x, PERFBUF_FMT_DOUBLE, NULL, &n, NULL, NULL,
                                        NULL) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(n, 1);
    tb_free(&c0);
    teardown(&f);
}

/* ---- resolved once ---- */

/* PerfTime100nSec of a tb_v1 block: capture `second` of a series. */
static void stamp(tb_v1 *v, uint32_t second)
{
    uint64_t t = CF_TIME(second);
    tb_patch_u32(&v->buf, 72, (uint32_t)t);
    tb_patch_u32(&v->buf, 76, (uint32_t)(t >> 32));
}

/* An object 30 with one instance "a" and two definitions: `titles` in
 * definition order, of `types`, 8 bytes each, valued `values`. */
static tb_buf two_definitions(uint32_t second, const uint32_t titles[2], const uint32_t types[2],
                              const uint64_t values[2])
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    stamp(&v, second);
    tb_v1_object_begin(&v, 30, 0, 0);
    tb_v1_counter(&v, titles[0], types[0], 8, 8);
    tb_v1_counter(&v, titles[1], types[1], 8, 16);
    tb_v1_definitions_end(&v);
    uint8_t data[24] = {0};
    tb_put64(data, 8, values[0]);
    tb_put64(data, 16, values[1]);
    tb_v1_instance(&v, "a", 0, 0);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

/*
 * Two titles of one text ("Busy", as real Counter tables give 1,110 names
 * several indexes): the path resolves, on the first capture, to the first
 * definition of that text (title 10), and every later capture looks for
 * title 10, wherever it is. Before, each capture resolved the text again:
 * when title 20 came first, its 9,500,000 was paired with title 10's
 * 1,000,000, 85 % with VALID_DATA, where each counter moved by 5 %. A
 * capture without title 10 has no such counter, though 20 has the text.
 */
static void a_path_is_resolved_once(void)
{
    fixture f;
    memset(&f, 0, sizeof f);
    const pair table[] = {{10, "Busy"}, {20, "Busy"}, {30, "Obj"}};
    f.english = table_of(table, 3);
    tb_init(&f.german);
    CHECK(perfbuf_query_open(&f.q, f.english.data, f.english.len, NULL, 0, NULL) == PERFBUF_OK);
    perfbuf_query_counter busy = {0};
    CHECK(add(&f, &busy, "\\Obj(*)\\Busy") == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    const uint32_t timer[2] = {PERF_100NSEC_TIMER, PERF_100NSEC_TIMER};
    const uint32_t in_order[2] = {10, 20}, swapped[2] = {20, 10}, other[2] = {20, 21};
    const uint64_t v0[2] = {1000000, 9000000}, v1[2] = {9500000, 1500000};
    tb_buf c0 = two_definitions(0, in_order, timer, v0);
    tb_buf c1 = two_definitions(1, swapped, timer, v1);
    tb_buf c2 = two_definitions(2, other, timer, v1);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    CHECK(collect(&f, &c1) == PERFBUF_OK);
    perfbuf_formatted_item *items;
    size_t n;
    CHECK(formatted(&f, &busy, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 1);
    CHECK_EQ_U(items[0].counter, 10);
    CHECK_EQ_U(items[0].pairing, PERFBUF_PAIR_MATCHED);
    CHECK(near(items[0].value.as_double, 5.0));
    free(items);
    uint32_t title = 0;
    size_t len = 0;
    CHECK(perfbuf_query_title(&f.q, &busy, PERFBUF_QUERY_TITLE_COUNTER, PERFBUF_LANGUAGE_ENGLISH,
                              &title, NULL, 0, &len, NULL) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(title, 10);
    CHECK(collect(&f, &c2) == PERFBUF_OK);
    CHECK_EQ_U(busy.status, PERFBUF_CSTATUS_NO_COUNTER);
    CHECK_EQ_U(busy.found, PERFBUF_QUERY_FOUND_NO_COUNTER);
    tb_free(&c0);
    tb_free(&c1);
    tb_free(&c2);
    teardown(&f);
}

/*
 * A counter whose type changed between captures (a provider rebuilt its
 * definitions) pairs its samples no more: DEFINITION_CHANGED, without the
 * older sample, for a path as for a counter "*". Before, a path's items
 * were MATCHED and the raw array gave the other type's sample.
 */
static void a_changed_type_is_not_paired(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter cpu = {0}, every = {0};
    CHECK(add(&f, &cpu, "\\Process(*)\\% Processor Time") == PERFBUF_OK);
    CHECK(add(&f, &every, "\\Process(*)\\*") == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    tb_buf c0 = cf_capture(0, NULL, 0, first, 2, 0);
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    stamp(&v, 1);
    tb_v1_object_begin(&v, CF_PROCESS, 0, 0);
    tb_v1_counter(&v, CF_CPU, PERF_COUNTER_LARGE_RAWCOUNT, 8, 8);
    tb_v1_counter(&v, CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 24);
    tb_v1_definitions_end(&v);
    for (int i = 0; i < 2; i++) {
        uint8_t data[28] = {0};
        tb_put64(data, 8, 7000000);
        tb_put32(data, 24, 5);
        tb_v1_instance(&v, first[i].name, 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    CHECK(collect(&f, &v.buf) == PERFBUF_OK);
    perfbuf_raw_item raw[4];
    size_t n = 4;
    CHECK(raw_array(&f, &cpu, raw, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 2);
    for (size_t i = 0; i < n; i++) {
        CHECK_EQ_U(raw[i].pairing, PERFBUF_PAIR_DEFINITION_CHANGED);
        CHECK(!raw[i].has_older);
        CHECK_EQ_U(raw[i].newer.type, PERF_COUNTER_LARGE_RAWCOUNT);
        CHECK_EQ_U(raw[i].older_position, i);
    }
    perfbuf_formatted_item *items;
    CHECK(formatted(&f, &every, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 4);
    for (size_t i = 0; i < n && i < 4; i++) {
        /* The changed counter alone; the count kept its type. */
        CHECK_EQ_U(items[i].pairing, i % 2 == 0 ? PERFBUF_PAIR_DEFINITION_CHANGED
                                                : PERFBUF_PAIR_MATCHED);
    }
    CHECK(near(items[0].value.as_double, 7000000.0)); /* one sample: the raw count */
    free(items);
    tb_free(&v.buf);
    tb_free(&c0);
    teardown(&f);
}

/* ---- one computer ---- */

/* The fixture's capture with its computer name "HOST" written as `name`
 * (four characters: the bytes after it stay where they are). */
static tb_buf renamed_capture(uint32_t second, const char *name)
{
    tb_buf c = cf_capture(second, NULL, 0, first, 4, 0);
    for (int i = 0; i < 4; i++) {
        c.data[88 + 2 * i] = (uint8_t)name[i];
    }
    return c;
}

/*
 * A query's captures are of one computer (PERF_DATA_BLOCK.SystemName,
 * ASCII letters in either case): another computer's capture is refused
 * and changes nothing. Before, it was paired with the first computer's,
 * and every rate was the difference of two machines' counters.
 */
static void a_capture_of_another_computer_is_refused(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter cpu = {0};
    CHECK(add(&f, &cpu, "\\Process(*)\\% Processor Time") == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    tb_buf c0 = renamed_capture(0, "HOST"), other = renamed_capture(1, "HOSZ");
    tb_buf lower = renamed_capture(1, "host");
    CHECK(collect(&f, &c0) == PERFBUF_OK);
    perfbuf_error err = {0};
    size_t needed = 7;
    CHECK_EQ_U(perfbuf_query_collect(&f.q, other.data, other.len, &needed, &err),
               PERFBUF_E_MACHINE_CHANGED);
    CHECK_EQ_U(err.offset, 88);
    CHECK_STR(err.structure, "PERF_DATA_BLOCK");
    CHECK_STR(err.field, "SystemNameOffset");
    CHECK_EQ_U(needed, 0);
    /* Nothing changed: the arrays are the first capture's. */
    perfbuf_formatted_item *items;
    size_t n;
    CHECK(formatted(&f, &cpu, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 4);
    CHECK_EQ_U(items[1].value.status, PERFBUF_CSTATUS_INVALID_DATA);
    free(items);
    /* The same computer in other letter case pairs. */
    CHECK(collect(&f, &lower) == PERFBUF_OK);
    CHECK(formatted(&f, &cpu, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(items[1].pairing, PERFBUF_PAIR_MATCHED);
    free(items);
    tb_free(&c0);
    tb_free(&other);
    tb_free(&lower);
    teardown(&f);
}

/*
 * A path's machine part against the capture's computer name, in the forms
 * a path names a computer by: the name (either case), its DNS name, an
 * address or localhost (not compared: a capture does not record them),
 * and a 15-character NetBIOS name cut from a longer host name
 * (COMPUTER_NAME_FORMAT). Any other name: NO_MACHINE, no items.
 */
static void a_path_names_the_capture_s_computer(void)
{
    static const struct {
        const char *system;
        const char *machine;
        bool same;
    } cases[] = {
        {"HOST", "HOST", true},
        {"HOST", "host", true},
        {"HOST", "host.corp.example", true},
        {"HOST", "10.0.0.5", true},
        {"HOST", "fe80::1", true},
        {"HOST", "localhost", true},
        {"HOST", "OTHER", false},
        {"HOST", "hostx", false},
        {"HOST", "other.corp.example", false},
        {"CORPORATE-MAIL-", "corporate-mail-server", true},
        {"CORPORATE-MAIL-", "corporate-mail-server.example.com", true},
        {"CORPORATE-MAIL-", "corporate-mail", false},
        {"CORPORATE-MAIL-", "corporate-web-server", false},
    };
    for (size_t k = 0; k < COUNT(cases); k++) {
        fixture f;
        CALL(setup(&f, false));
        char path[96];
        snprintf(path, sizeof path, "\\\\%s\\Process(*)\\ID Process", cases[k].machine);
        perfbuf_query_counter c = {0};
        CHECK(add(&f, &c, path) == PERFBUF_OK);
        CHECK(start(&f) == PERFBUF_OK);
        tb_v1 v;
        tb_v1_begin(&v, cases[k].system);
        tb_v1_object_begin(&v, CF_PROCESS, 0, 0);
        tb_v1_counter(&v, CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 8);
        tb_v1_definitions_end(&v);
        uint8_t data[12] = {0};
        tb_v1_instance(&v, "a", 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
        tb_v1_object_end(&v);
        tb_v1_end(&v);
        CHECK(collect(&f, &v.buf) == PERFBUF_OK);
        if (cases[k].same) {
            CHECK_EQ_U(c.status, PERFBUF_CSTATUS_VALID_DATA);
            CHECK_EQ_U(c.found, PERFBUF_QUERY_FOUND_ITEMS);
        } else {
            CHECK_EQ_U(c.status, PERFBUF_CSTATUS_NO_MACHINE);
            CHECK_EQ_U(c.found, PERFBUF_QUERY_FOUND_NO_MACHINE);
            size_t n = 0;
            CHECK(perfbuf_query_formatted_array(&f.q, &c, PERFBUF_FMT_DOUBLE, NULL, &n, NULL,
                                                NULL, NULL) == PERFBUF_E_NOT_FOUND);
        }
        if (th.case_failed) {
            printf("  case %zu: %s against %s\n", k, cases[k].machine, cases[k].system);
        }
        tb_free(&v.buf);
        teardown(&f);
    }
}

/* ---- appeared and exited ---- */

/*
 * Under a counter "*", an instance appeared when none of its items paired
 * and exited when none of its older items was paired: a counter the
 * provider added at the front of the object (its items new) leaves every
 * instance neither. Before, each instance was judged by its first item:
 * every one was listed as appeared, and as exited.
 */
static void appeared_and_exited_per_instance(void)
{
    fixture f;
    CALL(setup(&f, false));
    perfbuf_query_counter every = {0};
    CHECK(add(&f, &every, "\\Process(*)\\*") == PERFBUF_OK);
    CHECK(start(&f) == PERFBUF_OK);
    tb_buf c[2];
    for (uint32_t k = 0; k < 2; k++) {
        tb_v1 v;
        tb_v1_begin(&v, "HOST");
        stamp(&v, k);
        tb_v1_object_begin(&v, CF_PROCESS, 0, 0);
        if (k == 1) {
            tb_v1_counter(&v, CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 16);
        }
        tb_v1_counter(&v, CF_CPU, PERF_100NSEC_TIMER, 8, 8);
        tb_v1_definitions_end(&v);
        const char *names[2] = {"a", "b"};
        for (int i = 0; i < 2; i++) {
            uint8_t data[20] = {0};
            tb_put64(data, 8, 1000000u * (k + 1u));
            tb_v1_instance(&v, names[i], 0, 0);
            tb_v1_counter_block(&v, data, sizeof data);
        }
        tb_v1_object_end(&v);
        tb_v1_end(&v);
        c[k] = v.buf;
        CHECK(collect(&f, &c[k]) == PERFBUF_OK);
    }
    const char *listed[4];
    size_t count = 4;
    CHECK(instances(&f, &every, PERFBUF_QUERY_APPEARED, listed, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 0);
    count = 4;
    CHECK(instances(&f, &every, PERFBUF_QUERY_EXITED, listed, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 0);
    perfbuf_formatted_item *items;
    size_t n;
    CHECK(formatted(&f, &every, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 4);
    CHECK_EQ_U(items[0].pairing, PERFBUF_PAIR_NEW);     /* the new counter */
    CHECK_EQ_U(items[1].pairing, PERFBUF_PAIR_MATCHED); /* the timer, 10 % */
    CHECK(near(items[1].value.as_double, 10.0));
    free(items);
    tb_free(&c[0]);
    tb_free(&c[1]);
    teardown(&f);
}

/* A bundled capture of corpus/captures/series, read whole (NULL: none). */
static uint8_t *series_file(const char *name, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", PERFBUF_SERIES_DIR, name);
    FILE *in = fopen(path, "rb");
    uint8_t *data = NULL;
    *len = 0;
    if (in != NULL && fseek(in, 0, SEEK_END) == 0) {
        long size = ftell(in);
        data = size > 0 && fseek(in, 0, SEEK_SET) == 0 ? malloc((size_t)size) : NULL;
        if (data != NULL && fread(data, 1, (size_t)size, in) == (size_t)size) {
            *len = (size_t)size;
        }
    }
    if (in != NULL) {
        fclose(in);
    }
    return data;
}

/*
 * The bundled series (corpus/captures/series/README.md), captures 1 and 2:
 * PID 812 ("svchost") exits and PID 1044, "svchost#1" in capture 1, becomes
 * "svchost". By PDH's key the exited list names svchost#1, the name 1044
 * held, and svchost's rate mixes both processes (60 %); paired by ID
 * Process, svchost keeps 1044's 10 % and the exited list names svchost with
 * its PID, 812. Its provider sets no UniqueID: paired by UniqueID, the
 * instances keep PDH's key (identity NAME).
 */
static void series_paired_by_id_process(void)
{
    size_t table_len = 0, len[2] = {0, 0};
    uint8_t *table = series_file("v1-names-series-counter-009.bin", &table_len);
    uint8_t *capture[2] = {series_file("v1-series-1.bin", &len[0]),
                           series_file("v1-series-2.bin", &len[1])};
    CHECK(table != NULL && capture[0] != NULL && capture[1] != NULL);
    static const char path[] = "\\Process(*)\\% Processor Time";
    for (int by = 0; by < 3; by++) {
        perfbuf_query q;
        perfbuf_query_counter c = {0};
        CHECK(perfbuf_query_open(&q, table, table_len, NULL, 0, NULL) == PERFBUF_OK);
        CHECK(perfbuf_query_add(&q, &c, path, strlen(path), NULL) == PERFBUF_OK);
        if (by == 1) {
            CHECK(perfbuf_query_pair_by(&q, &c, "ID Process", 10, NULL) == PERFBUF_OK);
        } else if (by == 2) {
            CHECK(perfbuf_query_pair_by_unique_id(&q, &c, NULL) == PERFBUF_OK);
        }
        void *arena = NULL;
        for (int k = 0; k < 2; k++) {
            size_t needed = 0;
            perfbuf_status st;
            while ((st = perfbuf_query_collect(&q, capture[k], len[k], &needed, NULL)) ==
                   PERFBUF_E_OUTPUT_TOO_SMALL) {
                arena = realloc(arena, needed);
                CHECK(arena != NULL && perfbuf_query_arena(&q, arena, &needed, NULL) == PERFBUF_OK);
            }
            CHECK_EQ_U(st, PERFBUF_OK);
        }
        perfbuf_formatted_item items[8];
        size_t n = 8;
        CHECK(tq_formatted(&q, &c, PERFBUF_FMT_DOUBLE, items, &n) == PERFBUF_OK);
        bool seen = false;
        for (size_t i = 0; i < n; i++) {
            if (strcmp(items[i].name, "svchost") == 0) {
                seen = true;
                CHECK(fabs(items[i].value.as_double - (by == 1 ? 10.0 : 60.0)) < 1e-9);
            }
        }
        CHECK(seen);
        const char *gone[4];
        size_t count = 4;
        CHECK(tq_instances(&q, &c, PERFBUF_QUERY_EXITED, gone, &count) == PERFBUF_OK);
        CHECK_EQ_U(count, 1);
        CHECK_STR(gone[0], by == 1 ? "svchost" : "svchost#1");
        CHECK_EQ_U(tq_listed[0].identity,
                   by == 1 ? PERFBUF_QUERY_IDENTITY_KEY_COUNTER : PERFBUF_QUERY_IDENTITY_NAME);
        CHECK_EQ_U(tq_listed[0].key, by == 1 ? 812u : 0u);
        count = 4;
        CHECK(tq_instances(&q, &c, PERFBUF_QUERY_APPEARED, gone, &count) == PERFBUF_OK);
        CHECK_EQ_U(count, 0);
        CHECK(perfbuf_query_close(&q, NULL) == PERFBUF_OK);
        free(arena);
    }
    free(table);
    free(capture[0]);
    free(capture[1]);
}

static const th_case cases[] = {
    TH_CASE(first_sample_then_rates), TH_CASE(exit_shifts_ordinals),
    TH_CASE(appeared_and_exited_with_parents), TH_CASE(add_errors), TH_CASE(refused_arguments),
    TH_CASE(missing_and_rejected), TH_CASE(arena_moves), TH_CASE(identity_pairing_survives_exit),
    TH_CASE(titles_as_resolved), TH_CASE(found_tells_empty_from_missing),
    TH_CASE(items_carry_positions), TH_CASE(every_counter_of_an_object),
    TH_CASE(every_counter_skips_bases), TH_CASE(every_object_of_a_title),
    TH_CASE(options_apply_to_captures), TH_CASE(capture_over_written_memory),
    TH_CASE(path_text_in_the_arena), TH_CASE(every_definition_of_every_object),
    TH_CASE(ownership_refuses_what_is_not_the_query_s),
    TH_CASE(a_broken_list_a_stale_counter_and_a_fresh_arena_are_refused),
    TH_CASE(a_path_is_resolved_once), TH_CASE(a_changed_type_is_not_paired),
    TH_CASE(a_capture_of_another_computer_is_refused),
    TH_CASE(a_path_names_the_capture_s_computer), TH_CASE(appeared_and_exited_per_instance),
    TH_CASE(series_paired_by_id_process),
};

TH_MAIN(cases)
