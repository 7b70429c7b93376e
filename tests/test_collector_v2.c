/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Pairing two V2 query buffers by (InstanceId, name, #N) and the arrays
 * over a pairing: instances that exit, start and swap places, an id reused
 * under another name, duplicate keys whose #N shift, a block without
 * instances, patterns and the size-then-fill protocol.
 */
#include "collector_fixture.h"
#include "harness.h"
#include "perfbuf/collector.h"
#include "perfbuf/counter_types.h"

#define CPU_ID CF_V2_CPU
#define COUNT_ID CF_V2_COUNT
#define capture cf_v2_capture
typedef cf_v2_instance v2_proc;

typedef struct fixture {
    tb_buf ob, nb, regbuf;
    perfbuf_v2_query older, newer;
    perfbuf_v2_block older_block, newer_block;
    perfbuf_v2_reginfo reg;
    uint64_t *scratch;
    size_t slots;
    perfbuf_v2_pairing p;
} fixture;

static bool nth_block(const perfbuf_v2_query *q, uint32_t n, perfbuf_v2_block *out)
{
    perfbuf_v2_iter it;
    perfbuf_v2_blocks_begin(q, &it);
    for (uint32_t i = 0; perfbuf_v2_blocks_next(q, &it, out); i++) {
        if (i == n) {
            return true;
        }
    }
    return false;
}

static bool setup(fixture *f, const v2_proc *older, uint32_t no, const v2_proc *newer,
                  uint32_t nn, uint32_t block)
{
    memset(f, 0, sizeof *f);
    f->regbuf = cf_v2_registration();
    f->ob = capture(0, older, no);
    f->nb = capture(1, newer, nn);
    if (perfbuf_v2_reginfo_parse(f->regbuf.data, f->regbuf.len, NULL, &f->reg, NULL) !=
            PERFBUF_OK ||
        perfbuf_v2_query_parse(f->ob.data, f->ob.len, NULL, &f->older, NULL) != PERFBUF_OK ||
        perfbuf_v2_query_parse(f->nb.data, f->nb.len, NULL, &f->newer, NULL) != PERFBUF_OK ||
        !nth_block(&f->older, block, &f->older_block) ||
        !nth_block(&f->newer, block, &f->newer_block) ||
        perfbuf_v2_pairing_scratch(&f->older_block, &f->newer_block, &f->slots) != PERFBUF_OK) {
        return false;
    }
    f->scratch = malloc(f->slots * sizeof *f->scratch);
    return perfbuf_v2_pair(&f->older, &f->older_block, &f->newer, &f->newer_block, f->scratch,
                           f->slots, &f->p) == PERFBUF_OK;
}

static void teardown(fixture *f)
{
    free(f->scratch);
    tb_free(&f->ob);
    tb_free(&f->nb);
    tb_free(&f->regbuf);
}

static int older_of(const fixture *f, uint32_t i)
{
    uint32_t kind, ordinal, older;
    if (!perfbuf_v2_pairing_instance(&f->p, i, &kind, &ordinal, &older)) {
        return -3;
    }
    return kind == PERFBUF_PAIR_MATCHED ? (int)older : kind == PERFBUF_PAIR_NEW ? -1 : -2;
}

/* b and d moved, c exited, e started, and id 1 now names another process
 * (a new one: the key is the id and the name). */
static void exit_start_swap(void)
{
    const v2_proc older[] = {{1, "a", 1000000, 1}, {2, "b", 2000000, 2}, {3, "c", 0, 3},
                             {4, "d", 4000000, 4}};
    const v2_proc newer[] = {{2, "B", 7000000, 5}, {4, "d", 11500000, 6}, {1, "z", 0, 7},
                             {5, "e", 0, 8}};
    fixture f;
    CHECK(setup(&f, older, 4, newer, 4, 0));
    CHECK(older_of(&f, 0) == 1 && older_of(&f, 1) == 3);
    CHECK(older_of(&f, 2) == -1 && older_of(&f, 3) == -1 && older_of(&f, 4) == -3);
    CHECK(f.p.paired == 2 && f.p.new_instances == 2);
    perfbuf_formatted_item items[4];
    char strings[64];
    size_t count = 0, bytes = 0;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, CPU_ID, NULL, PERFBUF_FMT_DOUBLE, NULL, &count,
                                     NULL, &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(count == 4 && bytes >= 8 && bytes <= sizeof strings);
    size_t asked = bytes;
    count = 3;
    memset(items, 0xAB, sizeof items);
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, CPU_ID, NULL, PERFBUF_FMT_DOUBLE, items, &count,
                                     strings, &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(((const uint8_t *)items)[0] == 0xAB && count == 4 && bytes == asked);
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, CPU_ID, NULL, PERFBUF_FMT_DOUBLE, items, &count,
                                     strings, &bytes) == PERFBUF_OK);
    CHECK(count == 4 && bytes == 8);
    CHECK_STR(items[0].name, "B");
    CHECK(items[0].value.status == PERFBUF_CSTATUS_VALID_DATA && items[0].value.as_double == 50.0);
    CHECK_STR(items[1].name, "d");
    CHECK(items[1].value.as_double == 75.0);
    CHECK_STR(items[2].name, "z");
    CHECK(items[2].pairing == PERFBUF_PAIR_NEW);
    CHECK(items[2].value.status == PERFBUF_CSTATUS_INVALID_DATA);
    perfbuf_raw_item raw[4];
    count = 4;
    bytes = sizeof strings;
    CHECK(perfbuf_v2_raw_array(&f.p, &f.reg, COUNT_ID, NULL, raw, &count, strings, &bytes) ==
          PERFBUF_OK);
    CHECK(count == 4 && raw[0].has_older && raw[0].older.first == 2 && raw[0].newer.first == 5);
    CHECK(!raw[3].has_older && raw[3].newer.first == 8);
    count = 0;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, 77, NULL, PERFBUF_FMT_DOUBLE, NULL, &count,
                                     NULL, &bytes) == PERFBUF_E_NOT_FOUND);
    teardown(&f);
}

/* Two instances with one id and name: #0 exits, the old #1 becomes #0 and
 * pairs with the old #0, by key, as for V1. */
static void duplicates_shift(void)
{
    const v2_proc older[] = {{9, "w", 1000000, 0}, {9, "w", 2000000, 0}};
    const v2_proc newer[] = {{9, "W", 3000000, 0}};
    fixture f;
    CHECK(setup(&f, older, 2, newer, 1, 0));
    CHECK(older_of(&f, 0) == 0);
    teardown(&f);
    const v2_proc both[] = {{9, "w", 0, 0}, {9, "w", 0, 0}};
    CHECK(setup(&f, both, 2, both, 2, 0));
    perfbuf_counter_path path;
    const char *text = "\\Set(w#1)\\n";
    CHECK(perfbuf_path_parse(text, strlen(text), &path, NULL) == PERFBUF_OK);
    perfbuf_formatted_item items[2];
    char strings[16];
    size_t count = 2, bytes = sizeof strings;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, COUNT_ID, &path, PERFBUF_FMT_LONG, items,
                                     &count, strings, &bytes) == PERFBUF_OK);
    CHECK(count == 1);
    CHECK_STR(items[0].name, "w#1");
    text = "\\Set(p/w)\\n";
    CHECK(perfbuf_path_parse(text, strlen(text), &path, NULL) == PERFBUF_OK);
    count = 2;
    bytes = sizeof strings;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, COUNT_ID, &path, PERFBUF_FMT_LONG, items,
                                     &count, strings, &bytes) == PERFBUF_OK);
    CHECK(count == 0);
    teardown(&f);
}

/* A multiple-counters block: one item, empty name, paired. */
static void block_without_instances(void)
{
    const v2_proc procs[] = {{1, "a", 0, 0}};
    fixture f;
    CHECK(setup(&f, procs, 1, procs, 1, 1));
    perfbuf_formatted_item items[1];
    char strings[4];
    size_t count = 1, bytes = sizeof strings;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, COUNT_ID, NULL, PERFBUF_FMT_LONG, items, &count,
                                     strings, &bytes) == PERFBUF_OK);
    CHECK(count == 1 && bytes == 1);
    CHECK_STR(items[0].name, "");
    CHECK(items[0].pairing == PERFBUF_PAIR_MATCHED && items[0].value.as_long == 41);
    count = 1;
    bytes = sizeof strings;
    CHECK(perfbuf_v2_formatted_array(&f.p, &f.reg, CPU_ID, NULL, PERFBUF_FMT_LONG, items, &count,
                                     strings, &bytes) == PERFBUF_OK);
    CHECK(items[0].value.status == PERFBUF_CSTATUS_VALID_DATA && items[0].value.as_long == 10);
    teardown(&f);
}

/* No older block: all new; and the arguments. */
static void no_older_block(void)
{
    const v2_proc procs[] = {{1, "a", 0, 0}, {2, "b", 0, 0}};
    fixture f;
    CHECK(setup(&f, procs, 2, procs, 2, 0));
    perfbuf_v2_pairing p;
    CHECK(perfbuf_v2_pair(NULL, NULL, &f.newer, &f.newer_block, f.scratch, f.slots, &p) ==
          PERFBUF_OK);
    CHECK(p.new_instances == 2 && p.paired == 0 && !p.has_older);
    CHECK(perfbuf_v2_pair(&f.older, &f.older_block, &f.newer, &f.newer_block, f.scratch,
                          f.slots - 1, &p) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(perfbuf_v2_pair(&f.older, &f.older_block, NULL, &f.newer_block, f.scratch, f.slots,
                          &p) == PERFBUF_E_INVALID_ARGUMENT);
    teardown(&f);
}

/* A block given with another query (the reader's views re-read what they
 * need, so this is safe): the pairing and arrays stay inside the buffers
 * and answer for what the query's own bytes hold. Run under ASan in CI. */
static void foreign_block(void)
{
    const v2_proc older[] = {{1, "a", 0, 0}};
    const v2_proc newer[] = {
        {1, "a", 0, 0}, {2, "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", 0, 0},
        {3, "c", 0, 0}};
    fixture f;
    CHECK(setup(&f, older, 1, newer, 3, 0));
    size_t slots = 0;
    CHECK(perfbuf_v2_pairing_scratch(&f.newer_block, &f.newer_block, &slots) == PERFBUF_OK);
    uint64_t *scratch = malloc(slots * sizeof *scratch);
    perfbuf_v2_pairing p;
    CHECK(perfbuf_v2_pair(&f.older, &f.newer_block, &f.newer, &f.newer_block, scratch, slots,
                          &p) == PERFBUF_OK);
    CHECK(p.paired + p.new_instances + p.ambiguous == 3);
    perfbuf_formatted_item items[4];
    char strings[512];
    size_t count = 4, bytes = sizeof strings;
    perfbuf_status st = perfbuf_v2_formatted_array(&p, &f.reg, COUNT_ID, NULL, PERFBUF_FMT_LONG,
                                                   items, &count, strings, &bytes);
    CHECK(st == PERFBUF_OK && count == 3);
    free(scratch);
    teardown(&f);
}

static const th_case cases[] = {
    TH_CASE(exit_start_swap),
    TH_CASE(duplicates_shift),
    TH_CASE(block_without_instances),
    TH_CASE(no_older_block),
    TH_CASE(foreign_block),
};

TH_MAIN(cases)
