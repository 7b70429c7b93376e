/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The query of perfbuf/query.h opened on V2 registrations, over the
 * collector fixture's V2 captures (CF_V2_CPU, PERF_100NSEC_TIMER: 100 *
 * dCPU / dTime with dTime 10,000,000 per second; CF_V2_COUNT,
 * PERF_COUNTER_RAWCOUNT: the value), and V1 pairing by UniqueID. Every
 * value is worked out from its formula, every name from the instance's
 * name and its #N among instances of the same InstanceId and name.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfbuf/query.h"
#include "query_helpers.h"
#include "builder.h"
#include "collector_fixture.h"
#include "harness.h"

static const tb_reg_row rows[2] = {
    {CF_V2_CPU, PERF_100NSEC_TIMER, PERFBUF_V2_NO_ID, "cpu"},
    {CF_V2_COUNT, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, "count"}};

/* A V2 query on the fixture's counterset, named "Proc", as block 0, and
 * the same registration again as block 1 (its multiple-counters block),
 * named "Totals". */
typedef struct fixture {
    tb_buf reginfo, names, set_name, totals_name;
    perfbuf_query_registration regs[2];
    perfbuf_query q;
    void *arena;
    size_t arena_bytes;
} fixture;

static void setup(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->reginfo = cf_v2_registration();
    f->names = tb_v2_strings(rows, 2, PERFBUF_V2_STRINGS_FROM_ARRAY_END);
    f->set_name = tb_v2_string_answer("Proc");
    f->totals_name = tb_v2_string_answer("Totals");
    for (int i = 0; i < 2; i++) {
        f->regs[i] = (perfbuf_query_registration){
            .reginfo = f->reginfo.data,
            .reginfo_len = f->reginfo.len,
            .counter_names = f->names.data,
            .counter_names_len = f->names.len,
            .counterset_name = i == 0 ? f->set_name.data : f->totals_name.data,
            .counterset_name_len = i == 0 ? f->set_name.len : f->totals_name.len,
            .block = (uint32_t)i};
    }
    perfbuf_error err = {0};
    EXPECT(perfbuf_query_open_v2(&f->q, f->regs, 2, &err) == PERFBUF_OK);
}

static void teardown(fixture *f)
{
    free(f->arena);
    tb_free(&f->reginfo);
    tb_free(&f->names);
    tb_free(&f->set_name);
    tb_free(&f->totals_name);
}

/* A new arena that copies the old one at another address, the old one
 * poisoned, so every pointer the query kept must be moved. */
static perfbuf_status give_arena(perfbuf_query *q, void **arena, size_t *arena_bytes,
                                 size_t bytes)
{
    void *old = *arena;
    *arena = malloc(bytes + 1u);
    if (old != NULL) {
        memcpy(*arena, old, *arena_bytes < bytes ? *arena_bytes : bytes);
        memset(old, 0xEE, *arena_bytes);
    }
    *arena_bytes = bytes;
    perfbuf_status st = perfbuf_query_arena(q, *arena, arena_bytes, NULL);
    free(old);
    return st;
}

static perfbuf_status start(perfbuf_query *q, void **arena, size_t *arena_bytes)
{
    size_t bytes = 0;
    perfbuf_status st = perfbuf_query_arena(q, NULL, &bytes, NULL);
    return st == PERFBUF_E_OUTPUT_TOO_SMALL ? give_arena(q, arena, arena_bytes, bytes) : st;
}

static perfbuf_status collect(perfbuf_query *q, void **arena, size_t *arena_bytes,
                              const tb_buf *capture)
{
    size_t needed = 0;
    perfbuf_status st;
    int rounds = 0;
    while ((st = perfbuf_query_collect(q, capture->data, capture->len, &needed, NULL)) ==
               PERFBUF_E_OUTPUT_TOO_SMALL &&
           rounds++ < 2) {
        st = give_arena(q, arena, arena_bytes, needed);
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

static perfbuf_status formatted(const perfbuf_query *q, const perfbuf_query_counter *c,
                                perfbuf_formatted_item **out, size_t *n)
{
    return tq_formatted_alloc(q, c, PERFBUF_FMT_DOUBLE, out, n);
}

static bool near(double a, double b)
{
    return fabs(a - b) < 1e-9;
}

/* Two svchost of different InstanceIds share a name (V2's #N counts within
 * one id and name); the first exits and another process starts. Each
 * survivor keeps its own previous sample, the first capture gives
 * INVALID_DATA, and the exited and new instances are listed. */
static void first_sample_rates_and_churn(void)
{
    fixture f;
    CALL(setup(&f));
    perfbuf_query_counter cpu = {0}, count = {0};
    CHECK(add(&f, &cpu, "\\Proc(*)\\cpu") == PERFBUF_OK);
    CHECK(add(&f, &count, "\\proc(svchost)\\COUNT") == PERFBUF_OK);
    CHECK(perfbuf_query_pair_by(&f.q, &cpu, "ID Process", 10, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_query_pair_by_unique_id(&f.q, &cpu, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(cpu.status, PERFBUF_CSTATUS_ITEM_NOT_VALIDATED);
    CHECK(start(&f.q, &f.arena, &f.arena_bytes) == PERFBUF_OK);
    const cf_v2_instance before[] = {
        {0, "Idle", 1000000, 0}, {812, "svchost", 2000000, 812}, {1044, "svchost", 3000000, 1044}};
    const cf_v2_instance after[] = {
        {0, "Idle", 8000000, 0}, {1044, "svchost", 5000000, 1044}, {1300, "new", 0, 1300}};
    tb_buf c0 = cf_v2_capture(0, before, 3), c1 = cf_v2_capture(1, after, 3);
    CHECK_EQ_U(collect(&f.q, &f.arena, &f.arena_bytes, &c0), PERFBUF_OK);
    CHECK_EQ_U(cpu.status, PERFBUF_CSTATUS_VALID_DATA);
    perfbuf_formatted_item *items;
    size_t n;
    CHECK(formatted(&f.q, &cpu, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 3);
    CHECK_STR(items[1].name, "svchost");
    CHECK_STR(items[2].name, "svchost");
    CHECK_EQ_U(items[1].value.status, PERFBUF_CSTATUS_INVALID_DATA);
    free(items);
    const char *listed[4];
    size_t listed_count = 4;
    CHECK(tq_instances(&f.q, &cpu, PERFBUF_QUERY_EXITED, listed, &listed_count) ==
          PERFBUF_OK);
    CHECK_EQ_U(listed_count, 0);

    CHECK_EQ_U(collect(&f.q, &f.arena, &f.arena_bytes, &c1), PERFBUF_OK);
    CHECK(formatted(&f.q, &cpu, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 3);
    CHECK_STR(items[0].name, "Idle");
    CHECK(near(items[0].value.as_double, 70.0));
    /* 1044 against its own 3,000,000, not against 812's 2,000,000. */
    CHECK_STR(items[1].name, "svchost");
    CHECK_EQ_U(items[1].pairing, PERFBUF_PAIR_MATCHED);
    CHECK(near(items[1].value.as_double, 20.0));
    CHECK_STR(items[2].name, "new");
    CHECK_EQ_U(items[2].pairing, PERFBUF_PAIR_NEW);
    CHECK_EQ_U(items[2].value.status, PERFBUF_CSTATUS_INVALID_DATA);
    for (size_t i = 0; i < n; i++) {
        CHECK_EQ_U(items[i].position, i); /* the instance's place in the block */
        CHECK_EQ_U(items[i].object, 0);   /* the counterset's block's position */
        CHECK_EQ_U(items[i].counter, CF_V2_CPU);
    }
    CHECK_EQ_U(cpu.found, PERFBUF_QUERY_FOUND_ITEMS);
    free(items);
    listed_count = 4;
    CHECK(tq_instances(&f.q, &cpu, PERFBUF_QUERY_EXITED, listed, &listed_count) ==
          PERFBUF_OK);
    CHECK_EQ_U(listed_count, 1);
    CHECK_STR(listed[0], "svchost");
    listed_count = 4;
    CHECK(tq_instances(&f.q, &cpu, PERFBUF_QUERY_APPEARED, listed, &listed_count) ==
          PERFBUF_OK);
    CHECK_EQ_U(listed_count, 1);
    CHECK_STR(listed[0], "new");

    /* The named instance: one item, the raw samples of the same process. */
    perfbuf_raw_item raw[2];
    size_t raw_count = 2;
    CHECK(tq_raw(&f.q, &count, raw, &raw_count) == PERFBUF_OK);
    CHECK_EQ_U(raw_count, 1);
    CHECK(raw[0].has_older && raw[0].older.first == 1044 && raw[0].newer.first == 1044);
    CHECK_EQ_U(raw[0].position, 1);
    tb_free(&c0);
    tb_free(&c1);
    teardown(&f);
}

/* Paths by GUID and id, what a capture lacks as counter statuses, and the
 * multiple-counters block as a counterset without instances. */
static void paths_and_statuses(void)
{
    fixture f;
    CALL(setup(&f));
    perfbuf_query_counter by_id = {0}, no_set = {0}, no_counter = {0}, no_instance = {0}, totals = {0}, named_totals = {0}, guid = {0}, every = {0};
    CHECK(add(&f, &by_id, "\\Proc(Idle)\\1") == PERFBUF_OK);
    CHECK(add(&f, &no_set, "\\Processor\\cpu") == PERFBUF_OK);
    CHECK(add(&f, &no_counter, "\\Proc(*)\\% Idle Time") == PERFBUF_OK);
    CHECK(add(&f, &no_instance, "\\Proc(gone)\\cpu") == PERFBUF_OK);
    CHECK(add(&f, &totals, "\\Totals\\count") == PERFBUF_OK);
    CHECK(add(&f, &named_totals, "\\Totals(x)\\count") == PERFBUF_OK);
    CHECK(add(&f, &every, "\\Proc(*)\\cpu") == PERFBUF_OK);
    perfbuf_error err = {0};
    CHECK(perfbuf_query_add(&f.q, &guid, "\\Proc\\*", 7, &err) == PERFBUF_E_PATH_WILDCARD);
    CHECK_EQ_U(err.offset, 6);
    CHECK(start(&f.q, &f.arena, &f.arena_bytes) == PERFBUF_OK);
    const cf_v2_instance procs[] = {{0, "Idle", 1000000, 7}};
    tb_buf c0 = cf_v2_capture(0, procs, 1), c1 = cf_v2_capture(1, procs, 1);
    CHECK_EQ_U(collect(&f.q, &f.arena, &f.arena_bytes, &c0), PERFBUF_OK);
    CHECK_EQ_U(collect(&f.q, &f.arena, &f.arena_bytes, &c1), PERFBUF_OK);
    CHECK_EQ_U(by_id.status, PERFBUF_CSTATUS_VALID_DATA);
    CHECK_EQ_U(no_set.status, PERFBUF_CSTATUS_NO_OBJECT);
    CHECK_EQ_U(no_counter.status, PERFBUF_CSTATUS_NO_COUNTER);
    CHECK_EQ_U(no_instance.status, PERFBUF_CSTATUS_NO_INSTANCE);
    CHECK_EQ_U(totals.status, PERFBUF_CSTATUS_VALID_DATA);
    CHECK_EQ_U(no_set.found, PERFBUF_QUERY_FOUND_NO_OBJECT);
    CHECK_EQ_U(no_counter.found, PERFBUF_QUERY_FOUND_NO_COUNTER);
    CHECK_EQ_U(no_instance.found, PERFBUF_QUERY_FOUND_NO_INSTANCE);
    CHECK_EQ_U(named_totals.found, PERFBUF_QUERY_FOUND_NO_INSTANCE); /* a block of values */
    CHECK_EQ_U(totals.found, PERFBUF_QUERY_FOUND_ITEMS);
    perfbuf_formatted_item *items;
    size_t n;
    CHECK(formatted(&f.q, &by_id, &items, &n) == PERFBUF_OK);
    CHECK(n == 1 && near(items[0].value.as_double, 7.0));
    free(items);
    CHECK(formatted(&f.q, &no_set, &items, &n) == PERFBUF_E_NOT_FOUND);
    CHECK_EQ_U(n, 0);
    free(items);
    CHECK(formatted(&f.q, &no_instance, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 0);
    free(items);
    /* The multiple-counters block: one item, empty name, 40 + second. */
    CHECK(formatted(&f.q, &totals, &items, &n) == PERFBUF_OK);
    CHECK(n == 1 && items[0].name_len == 0 && near(items[0].value.as_double, 41.0));
    CHECK_EQ_U(items[0].pairing, PERFBUF_PAIR_MATCHED);
    free(items);
    CHECK(formatted(&f.q, &named_totals, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 0);
    free(items);
    /* Every instance gone: "*" finds an empty block, a name finds none. */
    tb_buf c2 = cf_v2_capture(2, procs, 0);
    CHECK_EQ_U(collect(&f.q, &f.arena, &f.arena_bytes, &c2), PERFBUF_OK);
    CHECK_EQ_U(every.found, PERFBUF_QUERY_FOUND_EMPTY_OBJECT);
    CHECK_EQ_U(every.status, PERFBUF_CSTATUS_VALID_DATA);
    CHECK_EQ_U(by_id.found, PERFBUF_QUERY_FOUND_NO_INSTANCE);
    tb_free(&c2);
    tb_free(&c0);
    tb_free(&c1);
    teardown(&f);

    /* The counterset by its GUID, without a name or counter names: the
     * counter by id. A registration whose block the capture lacks. */
    tb_buf reginfo = cf_v2_registration();
    perfbuf_query_registration reg = {.reginfo = reginfo.data, .reginfo_len = reginfo.len,
                                      .block = 7};
    perfbuf_query q;
    CHECK(perfbuf_query_open_v2(&q, &reg, 1, NULL) == PERFBUF_OK);
    char guid_text[PERFBUF_GUID_STRING_SIZE];
    perfbuf_guid_format(&reg.reg.counterset, guid_text);
    char path[96];
    snprintf(path, sizeof path, "\\%s(*)\\0", guid_text);
    perfbuf_query_counter c = {0};
    CHECK(perfbuf_query_add(&q, &c, path, strlen(path), NULL) == PERFBUF_OK);
    void *arena = NULL;
    size_t arena_bytes = 0;
    CHECK(start(&q, &arena, &arena_bytes) == PERFBUF_OK);
    c0 = cf_v2_capture(0, procs, 1);
    CHECK_EQ_U(collect(&q, &arena, &arena_bytes, &c0), PERFBUF_OK);
    CHECK_EQ_U(c.status, PERFBUF_CSTATUS_NO_OBJECT);
    reg.block = 0;
    CHECK(perfbuf_query_open_v2(&q, &reg, 1, NULL) == PERFBUF_OK);
    CHECK(perfbuf_query_add(&q, &c, path, strlen(path), NULL) == PERFBUF_OK);
    free(arena);
    arena = NULL;
    CHECK(start(&q, &arena, &arena_bytes) == PERFBUF_OK);
    CHECK_EQ_U(collect(&q, &arena, &arena_bytes, &c0), PERFBUF_OK);
    CHECK_EQ_U(c.status, PERFBUF_CSTATUS_VALID_DATA);
    free(arena);
    tb_free(&c0);
    tb_free(&reginfo);
}

/* A buffer of the other format is BAD_SIGNATURE, naming the V1 signature,
 * and changes nothing; open's arguments and a rejected registration. */
static void formats_and_arguments(void)
{
    fixture f;
    CALL(setup(&f));
    perfbuf_query_counter cpu = {0};
    CHECK(add(&f, &cpu, "\\Proc(*)\\cpu") == PERFBUF_OK);
    CHECK(start(&f.q, &f.arena, &f.arena_bytes) == PERFBUF_OK);
    const cf_process v1procs[] = {{"a", -1, -1, 0, 0}};
    tb_buf v1 = cf_capture(0, NULL, 0, v1procs, 1, 0);
    perfbuf_error err = {0};
    size_t needed = 1;
    CHECK(perfbuf_query_collect(&f.q, v1.data, v1.len, &needed, &err) ==
          PERFBUF_E_BAD_SIGNATURE);
    CHECK(err.status == PERFBUF_E_BAD_SIGNATURE && err.offset == 0 && needed == 0);
    CHECK_STR(err.structure, "PERF_DATA_BLOCK");
    CHECK_EQ_U(cpu.status, PERFBUF_CSTATUS_ITEM_NOT_VALIDATED);
    size_t n = 0;
    CHECK(tq_formatted(&f.q, &cpu, PERFBUF_FMT_DOUBLE, NULL, &n) ==
          PERFBUF_E_NOT_FOUND);
    teardown(&f);

    /* A V1 query given V2 query data. */
    tb_buf english;
    tb_init(&english);
    tb_utf16(&english, "230", 1);
    tb_utf16(&english, "Process", 1);
    tb_u16(&english, 0);
    perfbuf_query q1;
    CHECK(perfbuf_query_open(&q1, english.data, english.len, NULL, 0, NULL) == PERFBUF_OK);
    const cf_v2_instance procs[] = {{1, "a", 0, 0}};
    tb_buf v2 = cf_v2_capture(0, procs, 1);
    CHECK(perfbuf_query_collect(&q1, v2.data, v2.len, NULL, &err) == PERFBUF_E_BAD_SIGNATURE);
    CHECK(err.offset == 0);
    CHECK_STR(err.field, "Signature");

    perfbuf_query q;
    perfbuf_query_registration none = {0};
    CHECK(perfbuf_query_open_v2(&q, &none, 1, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_query_open_v2(&q, NULL, 1, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_query_open_v2(NULL, &none, 1, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_query_open_v2(&q, &none, 0, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    /* A registration cut short: refused with where, and the query stays closed. */
    tb_buf reginfo = cf_v2_registration();
    perfbuf_query_registration cut = {.reginfo = reginfo.data, .reginfo_len = 20};
    CHECK(perfbuf_query_open_v2(&q, &cut, 1, &err) == PERFBUF_E_TRUNCATED);
    perfbuf_query_counter c = {0};
    CHECK(perfbuf_query_add(&q, &c, "\\a\\b", 4, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    /* A counterset name that is not a string answer. */
    perfbuf_query_registration bad_name = {.reginfo = reginfo.data,
                                           .reginfo_len = reginfo.len,
                                           .counterset_name = "A",
                                           .counterset_name_len = 1};
    CHECK(perfbuf_query_open_v2(&q, &bad_name, 1, &err) != PERFBUF_OK);
    tb_free(&reginfo);
    tb_free(&v1);
    tb_free(&v2);
    tb_free(&english);
}

/* Forty counters whose ids descend and their names: the registration and
 * the name block need scratch, which the arena gives; the query works on,
 * and keeps working when the arena moves. */
static void unordered_ids_in_the_arena(void)
{
    enum { N = 40 };
    tb_reg_row many[N];
    char names[N][8];
    for (uint32_t i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "c%u", N - 1u - i);
        many[i] = (tb_reg_row){N - 1u - i, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, names[i]};
    }
    tb_buf reginfo = tb_v2_reginfo(many, N, PERFBUF_COUNTERSET_MULTI_INSTANCES);
    tb_buf strings = tb_v2_strings(many, N, PERFBUF_V2_STRINGS_FROM_ARRAY_END);
    tb_buf set = tb_v2_string_answer("Many");
    perfbuf_v2_reginfo plain;
    CHECK(perfbuf_v2_reginfo_parse(reginfo.data, reginfo.len, NULL, &plain, NULL) ==
          PERFBUF_E_SCRATCH_NEEDED);
    perfbuf_query_registration reg = {.reginfo = reginfo.data,
                                      .reginfo_len = reginfo.len,
                                      .counter_names = strings.data,
                                      .counter_names_len = strings.len,
                                      .counterset_name = set.data,
                                      .counterset_name_len = set.len};
    perfbuf_query q;
    /* Deferred to the arena, the ids' order is no failure: an open that
     * succeeds leaves no SCRATCH_NEEDED in *err, even when the deferred
     * buffer is the last one it parses. */
    perfbuf_error err = {PERFBUF_E_TRUNCATED, 1, "x", "y", 1, 2};
    perfbuf_query_registration reg_only = {.reginfo = reginfo.data, .reginfo_len = reginfo.len};
    CHECK(perfbuf_query_open_v2(&q, &reg_only, 1, &err) == PERFBUF_OK);
    CHECK_EQ_U(err.status, PERFBUF_OK);
    CHECK(err.offset == 0 && err.declared == 0 && err.limit == 0);
    perfbuf_query_registration names_last = reg;
    names_last.counterset_name = NULL;
    names_last.counterset_name_len = 0;
    CHECK(perfbuf_query_open_v2(&q, &names_last, 1, &err) == PERFBUF_OK);
    CHECK_EQ_U(err.status, PERFBUF_OK);
    CHECK(perfbuf_query_open_v2(&q, &reg, 1, NULL) == PERFBUF_OK);
    perfbuf_query_counter c = {0};
    CHECK(perfbuf_query_add(&q, &c, "\\Many(*)\\c1", 11, NULL) == PERFBUF_OK);
    void *arena = NULL;
    size_t arena_bytes = 0, bytes = 0;
    CHECK(perfbuf_query_arena(&q, NULL, &bytes, NULL) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(bytes >= 2u * N * sizeof(uint64_t));
    CHECK(start(&q, &arena, &arena_bytes) == PERFBUF_OK);
    const cf_v2_instance procs[] = {{3, "x", 0, 5}, {4, "y", 0, 6}};
    tb_buf c0 = cf_v2_capture(0, procs, 2);
    CHECK_EQ_U(collect(&q, &arena, &arena_bytes, &c0), PERFBUF_OK);
    CHECK_EQ_U(c.status, PERFBUF_CSTATUS_VALID_DATA);
    /* Move the arena twice: the orders and names follow. */
    CHECK(give_arena(&q, &arena, &arena_bytes, arena_bytes + 64u) == PERFBUF_OK);
    CHECK_EQ_U(collect(&q, &arena, &arena_bytes, &c0), PERFBUF_OK);
    CHECK(give_arena(&q, &arena, &arena_bytes, arena_bytes + 64u) == PERFBUF_OK);
    perfbuf_raw_item raw[2];
    size_t n = 2;
    CHECK(tq_raw(&q, &c, raw, &n) == PERFBUF_OK);
    CHECK(n == 2 && raw[1].newer.first == 6 && raw[1].has_older && raw[1].older.first == 6);
    CHECK_STR(raw[1].name, "y");
    free(arena);
    tb_free(&c0);
    tb_free(&reginfo);
    tb_free(&strings);
    tb_free(&set);
}

/* V1 pairing by UniqueID: when the first of three svchost exits, PDH's
 * names move each later one onto the sample of the one before; by
 * UniqueID each keeps its own. An instance without one pairs by name. */
static void unique_id_survives_exit(void)
{
    tb_buf english;
    tb_init(&english);
    const char *table[][2] = {{"230", "Process"}, {"6", "% Processor Time"}};
    for (size_t i = 0; i < 2; i++) {
        tb_utf16(&english, table[i][0], 1);
        tb_utf16(&english, table[i][1], 1);
    }
    tb_u16(&english, 0);
    perfbuf_query q;
    CHECK(perfbuf_query_open(&q, english.data, english.len, NULL, 0, NULL) == PERFBUF_OK);
    perfbuf_query_counter pdh = {0}, stable = {0}, other = {0};
    const char *path = "\\Process(*)\\% Processor Time";
    CHECK(perfbuf_query_add(&q, &pdh, path, strlen(path), NULL) == PERFBUF_OK);
    CHECK(perfbuf_query_add(&q, &stable, path, strlen(path), NULL) == PERFBUF_OK);
    CHECK(perfbuf_query_pair_by(&q, &stable, "ID Process", 10, NULL) == PERFBUF_OK);
    CHECK(perfbuf_query_pair_by_unique_id(&q, &stable, NULL) == PERFBUF_OK);
    CHECK_EQ_U(stable.identity, PERFBUF_QUERY_IDENTITY_UNIQUE_ID); /* the later choice */
    CHECK(perfbuf_query_pair_by_unique_id(&q, &other, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_query_pair_by_unique_id(NULL, &stable, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    void *arena = NULL;
    size_t arena_bytes = 0;
    CHECK(start(&q, &arena, &arena_bytes) == PERFBUF_OK);
    CHECK(perfbuf_query_pair_by_unique_id(&q, &pdh, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    const cf_process before[] = {{"Idle", -1, -1, 0, 0},
                                 {"svchost", -1, 812, 1000000, 0},
                                 {"svchost", -1, 1044, 5000000, 0},
                                 {"svchost", -1, 1300, 9000000, 0}};
    const cf_process after[] = {{"Idle", -1, -1, 4000000, 0},
                                {"svchost", -1, 1044, 7000000, 0},
                                {"svchost", -1, 1300, 12000000, 0}};
    tb_buf c0 = cf_capture(0, NULL, 0, before, 4, 0), c1 = cf_capture(1, NULL, 0, after, 3, 0);
    CHECK_EQ_U(collect(&q, &arena, &arena_bytes, &c0), PERFBUF_OK);
    CHECK_EQ_U(collect(&q, &arena, &arena_bytes, &c1), PERFBUF_OK);
    perfbuf_formatted_item *shifted, *kept;
    size_t n, m;
    CHECK(formatted(&q, &pdh, &shifted, &n) == PERFBUF_OK);
    CHECK(formatted(&q, &stable, &kept, &m) == PERFBUF_OK);
    CHECK(n == 3 && m == 3);
    /* Instances with a UniqueID count their #N among those of the same
     * UniqueID (perfbuf_v1_pair), so all three are "svchost": one key,
     * whose k-th instance pairs with the k-th of the older capture, as
     * PDH's "svchost#N" shift. 1044 pairs with 812's 1,000,000 and 1300
     * with 1044's 5,000,000. */
    CHECK_STR(shifted[1].name, "svchost");
    CHECK_STR(shifted[2].name, "svchost");
    CHECK(near(shifted[1].value.as_double, 60.0));
    CHECK_EQ_U(shifted[2].pairing, PERFBUF_PAIR_MATCHED);
    CHECK(near(shifted[2].value.as_double, 70.0));
    /* By UniqueID: each against its own; Idle (none) by its name. */
    CHECK_STR(kept[0].name, "Idle");
    CHECK(near(kept[0].value.as_double, 40.0));
    CHECK_STR(kept[1].name, "svchost");
    CHECK(near(kept[1].value.as_double, 20.0));
    CHECK_EQ_U(kept[2].pairing, PERFBUF_PAIR_MATCHED);
    CHECK(near(kept[2].value.as_double, 30.0));
    free(shifted);
    free(kept);
    const char *listed[4];
    size_t count = 4;
    CHECK(tq_instances(&q, &stable, PERFBUF_QUERY_EXITED, listed, &count) ==
          PERFBUF_OK);
    CHECK_EQ_U(count, 1);
    CHECK_STR(listed[0], "svchost");
    /* The process that exited, by its own UniqueID: 812. */
    CHECK_EQ_U(tq_listed[0].identity, PERFBUF_QUERY_IDENTITY_UNIQUE_ID);
    CHECK_EQ_U(tq_listed[0].key, 812);
    CHECK_EQ_U(tq_listed[0].position, 1);
    count = 4;
    CHECK(tq_instances(&q, &pdh, PERFBUF_QUERY_EXITED, listed, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 1); /* the third svchost of the key, 1300's */
    CHECK_EQ_U(tq_listed[0].identity, PERFBUF_QUERY_IDENTITY_NAME);
    free(arena);
    tb_free(&c0);
    tb_free(&c1);
    tb_free(&english);
}

/* A bundled file of corpus/captures/documented (the test exits if it is missing). */
static tb_buf documented(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", PERFBUF_DOCUMENTED_DIR, name);
    FILE *f = fopen(path, "rb");
    EXPECT(f != NULL);
    tb_buf b;
    tb_init(&b);
    uint8_t chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        tb_bytes(&b, chunk, got);
    }
    fclose(f);
    return b;
}

/* The documented Processor Information pair through the query, by the
 * counterset's GUID and registered names: the first capture gives
 * INVALID_DATA for a two-sample type, the second the values the corpus's
 * README works out (75, 25, 50, 50 % Processor Time; _Total's 90 %
 * Processor Performance, 50 % Processor Utility and 20 % Average Idle
 * Time), and nothing appears or exits between them. */
static void documented_processor_information(void)
{
    tb_buf reginfo = documented("v2-reginfo-documented-processor-information.bin");
    tb_buf names = documented("v2-names-documented-processor-information.bin");
    tb_buf c0 = documented("v2-query-documented-processor-information-0.bin");
    tb_buf c1 = documented("v2-query-documented-processor-information-1.bin");
    perfbuf_query_registration reg = {.reginfo = reginfo.data,
                                      .reginfo_len = reginfo.len,
                                      .counter_names = names.data,
                                      .counter_names_len = names.len};
    perfbuf_query q;
    CHECK(perfbuf_query_open_v2(&q, &reg, 1, NULL) == PERFBUF_OK);
    static const char *const paths[4] = {
        "\\{B4FC721A-0378-476F-89BA-A5A79F810B36}(*)\\% Processor Time",
        "\\{b4fc721a-0378-476f-89ba-a5a79f810b36}(_Total)\\% Processor Performance",
        "\\{b4fc721a-0378-476f-89ba-a5a79f810b36}(_Total)\\% processor utility",
        "\\{b4fc721a-0378-476f-89ba-a5a79f810b36}(_Total)\\Average Idle Time"};
    static const double expected[4] = {75.0, 90.0, 50.0, 20.0};
    perfbuf_query_counter c[4] = {0};
    for (int k = 0; k < 4; k++) {
        CHECK(perfbuf_query_add(&q, &c[k], paths[k], strlen(paths[k]), NULL) == PERFBUF_OK);
    }
    void *arena = NULL;
    size_t arena_bytes = 0;
    CHECK(start(&q, &arena, &arena_bytes) == PERFBUF_OK);
    CHECK_EQ_U(collect(&q, &arena, &arena_bytes, &c0), PERFBUF_OK);
    perfbuf_formatted_item *items;
    size_t n;
    CHECK(formatted(&q, &c[0], &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 4);
    CHECK_EQ_U(items[0].value.status, PERFBUF_CSTATUS_INVALID_DATA);
    free(items);
    CHECK_EQ_U(collect(&q, &arena, &arena_bytes, &c1), PERFBUF_OK);
    CHECK(formatted(&q, &c[0], &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 4);
    static const char *const instances[4] = {"0,0", "0,1", "0,_Total", "_Total"};
    static const double busy[4] = {75.0, 25.0, 50.0, 50.0};
    for (size_t i = 0; i < 4 && i < n; i++) {
        CHECK_STR(items[i].name, instances[i]);
        CHECK(items[i].value.status == PERFBUF_CSTATUS_VALID_DATA &&
              near(items[i].value.as_double, busy[i]));
    }
    free(items);
    for (int k = 1; k < 4; k++) {
        CHECK(formatted(&q, &c[k], &items, &n) == PERFBUF_OK);
        CHECK(n == 1 && near(items[0].value.as_double, expected[k]));
        free(items);
    }
    const char *listed[4];
    size_t count = 4;
    CHECK(tq_instances(&q, &c[0], PERFBUF_QUERY_EXITED, listed, &count) == PERFBUF_OK);
    CHECK_EQ_U(count, 0);
    count = 4;
    CHECK(tq_instances(&q, &c[0], PERFBUF_QUERY_APPEARED, listed, &count) ==
          PERFBUF_OK);
    CHECK_EQ_U(count, 0);
    /* Titles are Counter-table text: a V2 query has none to give. */
    uint32_t title = 7;
    size_t title_len = 0;
    CHECK(perfbuf_query_title(&q, &c[0], PERFBUF_QUERY_TITLE_COUNTER, PERFBUF_LANGUAGE_ENGLISH,
                              &title, NULL, 0, &title_len, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    free(arena);
    tb_free(&reginfo);
    tb_free(&names);
    tb_free(&c0);
    tb_free(&c1);
}

/* A V2 query parses its query data with the query's options too: a
 * lowered instance limit refuses what the default accepts. */
static void options_apply_to_query_data(void)
{
    fixture f;
    CALL(setup(&f));
    perfbuf_query_counter cpu = {0};
    CHECK(add(&f, &cpu, "\\Proc(*)\\cpu") == PERFBUF_OK);
    CHECK(start(&f.q, &f.arena, &f.arena_bytes) == PERFBUF_OK);
    const cf_v2_instance procs[] = {{1, "a", 0, 0}, {2, "b", 0, 0}, {3, "c", 0, 0}};
    tb_buf data = cf_v2_capture(1, procs, 3);
    const perfbuf_options lowered = {0, 0, 0, 2};
    CHECK(perfbuf_query_options(&f.q, &lowered, NULL) == PERFBUF_OK);
    perfbuf_error err = {0};
    CHECK(perfbuf_query_collect(&f.q, data.data, data.len, NULL, &err) ==
          PERFBUF_E_LIMIT_EXCEEDED);
    CHECK_EQ_U(err.declared, 3);
    CHECK_EQ_U(err.limit, 2);
    CHECK_EQ_U(cpu.status, PERFBUF_CSTATUS_ITEM_NOT_VALIDATED);
    const perfbuf_options defaults = {0, 0, 0, 0};
    CHECK(perfbuf_query_options(&f.q, &defaults, NULL) == PERFBUF_OK);
    CHECK(collect(&f.q, &f.arena, &f.arena_bytes, &data) == PERFBUF_OK);
    CHECK_EQ_U(cpu.status, PERFBUF_CSTATUS_VALID_DATA);
    tb_free(&data);
    teardown(&f);
}

/* A counter whose sample cannot be read (here a base type, which has no
 * formula of its own) keeps the sample's status in the formatted array, as
 * perfbuf_v2_formatted_array and the V1 arrays give it: PDH's
 * INVALID_ARGUMENT, not the INVALID_DATA of a sample formatted anyway. */
static void a_failed_sample_keeps_its_status(void)
{
    static const tb_reg_row base_rows[2] = {
        {CF_V2_CPU, PERF_100NSEC_TIMER, PERFBUF_V2_NO_ID, "cpu"},
        {CF_V2_COUNT, PERF_RAW_BASE, PERFBUF_V2_NO_ID, "count"}};
    tb_buf reginfo = tb_v2_reginfo(base_rows, 2, PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_query_registration reg = {.reginfo = reginfo.data, .reginfo_len = reginfo.len};
    perfbuf_query q;
    CHECK(perfbuf_query_open_v2(&q, &reg, 1, NULL) == PERFBUF_OK);
    char guid_text[PERFBUF_GUID_STRING_SIZE];
    perfbuf_guid_format(&reg.reg.counterset, guid_text);
    char path[96];
    snprintf(path, sizeof path, "\\%s(*)\\1", guid_text);
    perfbuf_query_counter c = {0};
    CHECK(perfbuf_query_add(&q, &c, path, strlen(path), NULL) == PERFBUF_OK);
    void *arena = NULL;
    size_t arena_bytes = 0;
    CHECK(start(&q, &arena, &arena_bytes) == PERFBUF_OK);
    const cf_v2_instance procs[2] = {{1, "a", 100, 5}, {2, "b", 200, 6}};
    tb_buf c0 = cf_v2_capture(0, procs, 2);
    tb_buf c1 = cf_v2_capture(1, procs, 2);
    CHECK_EQ_U(collect(&q, &arena, &arena_bytes, &c0), PERFBUF_OK);
    CHECK_EQ_U(collect(&q, &arena, &arena_bytes, &c1), PERFBUF_OK);
    perfbuf_formatted_item *items;
    size_t n;
    CHECK(formatted(&q, &c, &items, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 2);
    perfbuf_raw_item raw[2];
    size_t raw_n = 2;
    CHECK(tq_raw(&q, &c, raw, &raw_n) == PERFBUF_OK);
    for (size_t i = 0; i < n && i < raw_n; i++) {
        CHECK_EQ_U(raw[i].newer.status, PERFBUF_PDH_INVALID_ARGUMENT);
        CHECK_EQ_U(items[i].value.status, PERFBUF_PDH_INVALID_ARGUMENT);
        CHECK_EQ_U(items[i].value.format, PERFBUF_FMT_DOUBLE);
    }
    free(items);
    free(arena);
    tb_free(&c0);
    tb_free(&c1);
    tb_free(&reginfo);
}

/* Blocks with an id list and no value: a multiple-counters block of no
 * counter (block 1, "Totals") and a counterset block whose instances have
 * no value (block 0, "Proc"). Their rows of values are empty: the plan
 * sizes none and the collection must succeed (a fuzzed input once found
 * the tables refusing such a block as INCONSISTENT), each instance an item
 * whose sample is not found (INVALID_DATA), the block none. */
static void blocks_of_no_value(void)
{
    fixture f;
    setup(&f);
    perfbuf_query_counter c[2] = {0};
    CHECK(add(&f, &c[0], "\\Proc(*)\\cpu") == PERFBUF_OK);
    CHECK(add(&f, &c[1], "\\Totals\\count") == PERFBUF_OK);
    CHECK(start(&f.q, &f.arena, &f.arena_bytes) == PERFBUF_OK);
    for (int k = 0; k < 2; k++) {
        tb_v2 v;
        tb_v2_begin(&v, 1000 + k, 10000000 + k, 1000);
        tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
        tb_v2_ids(&v, NULL, 0);
        tb_v2_instances_begin(&v, 2);
        tb_v2_instance(&v, 1, "a");
        tb_v2_instance(&v, 2, "b");
        tb_v2_instances_end(&v);
        tb_v2_block_end(&v);
        tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
        tb_v2_ids(&v, NULL, 0);
        tb_v2_block_end(&v);
        tb_v2_end(&v);
        CHECK_EQ_U(collect(&f.q, &f.arena, &f.arena_bytes, &v.buf), PERFBUF_OK);
        tb_free(&v.buf);
    }
    perfbuf_raw_item raw[2];
    size_t n = 2;
    CHECK(tq_raw(&f.q, &c[0], raw, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 2);
    for (size_t i = 0; i < n; i++) {
        CHECK_EQ_U(raw[i].newer.status, PERFBUF_CSTATUS_INVALID_DATA);
    }
    n = 2;
    CHECK(tq_raw(&f.q, &c[1], raw, &n) == PERFBUF_OK);
    CHECK_EQ_U(n, 1);
    CHECK_EQ_U(raw[0].newer.status, PERFBUF_CSTATUS_INVALID_DATA);
    teardown(&f);
}

static const th_case cases[] = {
    TH_CASE(documented_processor_information),
    TH_CASE(first_sample_rates_and_churn), TH_CASE(paths_and_statuses),
    TH_CASE(formats_and_arguments),       TH_CASE(unordered_ids_in_the_arena),
    TH_CASE(unique_id_survives_exit), TH_CASE(options_apply_to_query_data),
    TH_CASE(a_failed_sample_keeps_its_status), TH_CASE(blocks_of_no_value),
};

TH_MAIN(cases)
