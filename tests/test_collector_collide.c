/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The pairing when every hash collides. A hostile buffer can choose names
 * whose 64-bit hashes collide; constructing such names is costly, so this
 * test compiles the pairing with its hashes narrowed to nothing
 * (PB_PAIRING_HASH_MASK 0): every key then lands in one run, and what must
 * hold is what docs/collector.md promises under collisions:
 *   - no instance is ever paired with one of another name or parent;
 *   - a run of one name still pairs by #N;
 *   - colliding names are reported PERFBUF_PAIR_AMBIGUOUS;
 *   - the work stays n log n (counted, at n and 8n).
 * Linked with the counted library, whose own pairing.o and pairing_v2.o
 * are then not used.
 */

#define PB_PAIRING_HASH_MASK UINT64_C(0)
#include "../src/collector/pair_keys.c"
#include "../src/collector/pairing_v1.c"
#include "../src/collector/pairing_v2.c"

#include "collector_fixture.h"
#include "harness.h"
#include "oracle.h"

typedef struct pair_fixture {
    tb_buf older_buf, newer_buf;
    perfbuf_v1_block older, newer;
    uint64_t *scratch;
    perfbuf_v1_pairing p;
} pair_fixture;

static bool setup(pair_fixture *f, const char *const *parents, uint32_t parent_count,
                  const cf_process *older, uint32_t older_count, const cf_process *newer,
                  uint32_t newer_count)
{
    memset(f, 0, sizeof *f);
    f->older_buf = cf_capture(0, parents, parent_count, older, older_count, 0);
    f->newer_buf = cf_capture(1, parents, parent_count, newer, newer_count, 0);
    size_t slots = 0;
    if (perfbuf_v1_parse(f->older_buf.data, f->older_buf.len, NULL, &f->older, NULL) !=
            PERFBUF_OK ||
        perfbuf_v1_parse(f->newer_buf.data, f->newer_buf.len, NULL, &f->newer, NULL) !=
            PERFBUF_OK ||
        perfbuf_v1_pairing_scratch(&f->older, &f->newer, CF_PROCESS, &slots) != PERFBUF_OK) {
        return false;
    }
    f->scratch = malloc(slots * sizeof *f->scratch);
    return f->scratch != NULL && perfbuf_v1_pair(&f->older, &f->newer, CF_PROCESS, f->scratch,
                                                 slots, &f->p) == PERFBUF_OK;
}

static void teardown(pair_fixture *f)
{
    free(f->scratch);
    tb_free(&f->older_buf);
    tb_free(&f->newer_buf);
}

static uint32_t kind_of(const pair_fixture *f, uint32_t i, uint32_t *older)
{
    uint32_t kind = 99, ordinal;
    *older = 0;
    if (!perfbuf_v1_pairing_instance(&f->p, i, &kind, &ordinal, older)) {
        return 99;
    }
    return kind;
}

#define PROC(name) {name, -1, -1, 0, 0}

/* One name in both: still pairs by #N, though every hash is equal. */
static void one_name_pairs(void)
{
    const cf_process older[] = {PROC("x"), PROC("X"), PROC("x")};
    const cf_process newer[] = {PROC("x"), PROC("x")};
    pair_fixture f;
    CHECK(setup(&f, NULL, 0, older, 3, newer, 2));
    uint32_t o;
    CHECK(kind_of(&f, 0, &o) == PERFBUF_PAIR_MATCHED && o == 0);
    CHECK(kind_of(&f, 1, &o) == PERFBUF_PAIR_MATCHED && o == 1);
    teardown(&f);
}

/* Two names under one hash: ambiguous, never paired. */
static void two_names_are_ambiguous(void)
{
    const cf_process procs[] = {PROC("a"), PROC("b")};
    pair_fixture f;
    CHECK(setup(&f, NULL, 0, procs, 2, procs, 2));
    uint32_t o;
    CHECK(kind_of(&f, 0, &o) == PERFBUF_PAIR_AMBIGUOUS);
    CHECK(kind_of(&f, 1, &o) == PERFBUF_PAIR_AMBIGUOUS);
    CHECK(f.p.ambiguous == 2 && f.p.paired == 0);
    /* An ambiguous instance has no #N: a wildcard selects it, a name
     * (which means #0) does not. */
    perfbuf_counter_path path;
    const char *text = "\\Process(a)\\Count";
    CHECK(perfbuf_path_parse(text, strlen(text), &path, NULL) == PERFBUF_OK);
    size_t count = 0, bytes = 0;
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, &path, PERFBUF_FMT_LONG, NULL, &count, NULL,
                                     &bytes) == PERFBUF_OK);
    CHECK(count == 0);
    CHECK(perfbuf_v1_formatted_array(&f.p, CF_COUNT, NULL, PERFBUF_FMT_LONG, NULL, &count, NULL,
                                     &bytes) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(count == 2);
    teardown(&f);
}

/* One name per capture, different: equal hashes, different keys: new. */
static void renamed_is_new(void)
{
    const cf_process older[] = {PROC("a")};
    const cf_process newer[] = {PROC("b")};
    pair_fixture f;
    CHECK(setup(&f, NULL, 0, older, 1, newer, 1));
    uint32_t o;
    CHECK(kind_of(&f, 0, &o) == PERFBUF_PAIR_NEW);
    teardown(&f);
}

/* Same child name, parents of different names under one hash: the parents
 * are ambiguous, so are their children. A child without parent next to a
 * child with one is another key. */
static void colliding_parents(void)
{
    const char *const parents[] = {"p", "q"};
    const cf_process procs[] = {{"x", 0, -1, 0, 0}, {"x", 1, -1, 0, 0}};
    pair_fixture f;
    CHECK(setup(&f, parents, 2, procs, 2, procs, 2));
    uint32_t o;
    CHECK(kind_of(&f, 0, &o) == PERFBUF_PAIR_AMBIGUOUS);
    CHECK(kind_of(&f, 1, &o) == PERFBUF_PAIR_AMBIGUOUS);
    teardown(&f);
    const char *const one[] = {"p"};
    const cf_process older[] = {{"x", 0, -1, 0, 0}};
    const cf_process newer[] = {{"x", -1, -1, 0, 0}};
    CHECK(setup(&f, one, 1, older, 1, newer, 1));
    CHECK(kind_of(&f, 0, &o) == PERFBUF_PAIR_NEW);
    teardown(&f);
    /* One parent per capture, of two names under one hash: x moved from p
     * to q, so it is new, though every hash is equal. */
    const char *const q[] = {"q"};
    f.older_buf = cf_capture(0, one, 1, older, 1, 0);
    f.newer_buf = cf_capture(1, q, 1, older, 1, 0);
    size_t slots = 0;
    CHECK(perfbuf_v1_parse(f.older_buf.data, f.older_buf.len, NULL, &f.older, NULL) ==
              PERFBUF_OK &&
          perfbuf_v1_parse(f.newer_buf.data, f.newer_buf.len, NULL, &f.newer, NULL) ==
              PERFBUF_OK &&
          perfbuf_v1_pairing_scratch(&f.older, &f.newer, CF_PROCESS, &slots) == PERFBUF_OK);
    f.scratch = malloc(slots * sizeof *f.scratch);
    CHECK(perfbuf_v1_pair(&f.older, &f.newer, CF_PROCESS, f.scratch, slots, &f.p) ==
          PERFBUF_OK);
    CHECK(kind_of(&f, 0, &o) == PERFBUF_PAIR_NEW);
    teardown(&f);
}

/* UniqueIDs under one hash: an id and a name never match each other. */
static void ids_and_names(void)
{
    const cf_process older[] = {{"7", -1, 7, 0, 0}};
    const cf_process newer[] = {{"7", -1, -1, 0, 0}};
    pair_fixture f;
    CHECK(setup(&f, NULL, 0, older, 1, newer, 1));
    uint32_t o;
    CHECK(kind_of(&f, 0, &o) == PERFBUF_PAIR_NEW);
    teardown(&f);
}

/* n distinct names of one length, every hash equal: the run is compared
 * with its first member only, so the work is n log n (the sorts). */
static uint64_t colliding_work(uint32_t n, size_t *bytes)
{
    cf_process *procs = malloc(sizeof *procs * n);
    char *names = malloc((size_t)n * 16);
    for (uint32_t i = 0; i < n; i++) {
        snprintf(names + 16 * (size_t)i, 16, "n%06u", i % 1000000u);
        procs[i] = (cf_process){names + 16 * (size_t)i, -1, -1, 0, 0};
    }
    pair_fixture f;
    memset(&f, 0, sizeof f);
    f.older_buf = cf_capture(0, NULL, 0, procs, n, 0);
    f.newer_buf = cf_capture(1, NULL, 0, procs, n, 0);
    *bytes = f.older_buf.len + f.newer_buf.len;
    size_t slots = 0;
    uint64_t work = 0;
    if (perfbuf_v1_parse(f.older_buf.data, f.older_buf.len, NULL, &f.older, NULL) == PERFBUF_OK &&
        perfbuf_v1_parse(f.newer_buf.data, f.newer_buf.len, NULL, &f.newer, NULL) == PERFBUF_OK &&
        perfbuf_v1_pairing_scratch(&f.older, &f.newer, CF_PROCESS, &slots) == PERFBUF_OK) {
        f.scratch = malloc(slots * sizeof *f.scratch);
        pb_work_units = 0;
        perfbuf_status st = perfbuf_v1_pair(&f.older, &f.newer, CF_PROCESS, f.scratch, slots,
                                            &f.p);
        work = pb_work_units;
        if (st != PERFBUF_OK || f.p.ambiguous != n) {
            work = 0;
        }
    }
    teardown(&f);
    free(names);
    free(procs);
    return work;
}

static void collisions_stay_n_log_n(void)
{
    size_t small_bytes = 0, large_bytes = 0;
    uint64_t small = colliding_work(512, &small_bytes);
    uint64_t large = colliding_work(4096, &large_bytes);
    printf("  all hashes equal: n 512: %" PRIu64 " units %.2f/B; 8n: %" PRIu64
           " units %.2f/B; x%.2f\n",
           small, (double)small / (double)small_bytes, large, (double)large / (double)large_bytes,
           (double)large / (double)small);
    CHECK(small > 0 && large > 0);
    /* log2(4096) / log2(512) = 12 / 9 */
    CHECK(large * 9u <= small * 9u * 12u);
    CHECK(large <= (uint64_t)WORK_PER_BYTE * large_bytes + WORK_FIXED);
}

/* V2: one name under two ids is two keys (new, not paired), and two keys
 * in one run are ambiguous. */
static bool v2_pair(const cf_v2_instance *older, uint32_t no, const cf_v2_instance *newer,
                    uint32_t nn, perfbuf_v2_pairing *p, uint64_t **scratch, tb_buf bufs[2],
                    perfbuf_v2_query q[2])
{
    bufs[0] = cf_v2_capture(0, older, no);
    bufs[1] = cf_v2_capture(1, newer, nn);
    perfbuf_v2_block b[2];
    for (int i = 0; i < 2; i++) {
        perfbuf_v2_iter it;
        if (perfbuf_v2_query_parse(bufs[i].data, bufs[i].len, NULL, &q[i], NULL) != PERFBUF_OK) {
            return false;
        }
        perfbuf_v2_blocks_begin(&q[i], &it);
        if (!perfbuf_v2_blocks_next(&q[i], &it, &b[i])) {
            return false;
        }
    }
    size_t slots = 0;
    if (perfbuf_v2_pairing_scratch(&b[0], &b[1], &slots) != PERFBUF_OK) {
        return false;
    }
    *scratch = malloc(slots * sizeof **scratch);
    return perfbuf_v2_pair(&q[0], &b[0], &q[1], &b[1], *scratch, slots, p) == PERFBUF_OK;
}

static void v2_collisions(void)
{
    const cf_v2_instance older[] = {{3, "w", 0, 0}};
    const cf_v2_instance newer[] = {{4, "w", 0, 0}};
    perfbuf_v2_pairing p;
    uint64_t *scratch = NULL;
    tb_buf bufs[2];
    perfbuf_v2_query q[2];
    CHECK(v2_pair(older, 1, newer, 1, &p, &scratch, bufs, q));
    uint32_t kind = 99;
    CHECK(perfbuf_v2_pairing_instance(&p, 0, &kind, NULL, NULL) && kind == PERFBUF_PAIR_NEW);
    free(scratch);
    tb_free(&bufs[0]);
    tb_free(&bufs[1]);
    const cf_v2_instance two[] = {{1, "x", 0, 0}, {1, "x", 0, 0}, {2, "x", 0, 0}};
    CHECK(v2_pair(two, 3, two, 3, &p, &scratch, bufs, q));
    CHECK(p.ambiguous == 3 && p.paired == 0);
    free(scratch);
    tb_free(&bufs[0]);
    tb_free(&bufs[1]);
    CHECK(v2_pair(two, 2, two, 2, &p, &scratch, bufs, q));
    CHECK(p.paired == 2);
    free(scratch);
    tb_free(&bufs[0]);
    tb_free(&bufs[1]);
}

static const th_case cases[] = {
    TH_CASE(v2_collisions),
    TH_CASE(one_name_pairs),   TH_CASE(two_names_are_ambiguous), TH_CASE(renamed_is_new),
    TH_CASE(colliding_parents), TH_CASE(ids_and_names),          TH_CASE(collisions_stay_n_log_n),
};

TH_MAIN(cases)
