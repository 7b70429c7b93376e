/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Edges of the pairing (perfbuf/collector.h, docs/collector.md) on the
 * library as built, hashes and all: invalid arguments, captures whose older
 * side outlasts the newer, duplicate UniqueIDs, parents that cannot be
 * resolved or that live in objects of different code pages, narrow code
 * pages, a CodePage that changes between captures, V2 blocks of kind
 * MULTIPLE_INSTANCES, and names whose 64-bit hashes really collide.
 *
 * The colliding names were found offline against the key hash of
 * src/collector/pair_keys.c (two FNV-1a lanes over UTF-16 units, then a bijective
 * mix): a name's hash collides exactly when both 32-bit lanes do, and since
 * a unit only touches a lane's low 16 bits, prefixes whose lanes agree in
 * their high halves and differ by the same low half in both lanes become
 * equal after one more unit each (a 48-bit birthday search, narrowed by
 * solving for one unit). The UniqueID below is the one whose key equals
 * the name's key. The names that hash to a chosen value were met in the
 * middle: prefixes run forward, suffixes backward from the value (each
 * step inverts), joined by one unit where both lanes agree. Names of two
 * encodings collide with no search at all: the hash reads units, the
 * comparison also the encoding. Should the hash change, these names stop
 * colliding and the checks of ambiguity fail: the names are then to be
 * searched again, not the checks relaxed.
 */
#include "collector_fixture.h"
#include "harness.h"
#include "perfbuf/collector.h"

/* Two names of four UTF-16 units under one hash, and a third of four units
 * with a fourth of six units under another. */
#define COLLIDE_A "\xe8\x8e\xa9\xe4\xb8\x9d\xe5\xb7\xb4\xe6\x80\x80"
#define COLLIDE_B "\xe6\x8a\xa9\xe4\xb9\x83\xe5\xa6\x8a\xe9\xa0\xa0"
#define COLLIDE_SHORT "\xe5\x93\xac\xe4\xb9\x86\xe6\xa0\x8d\xe6\x80\x80"
#define COLLIDE_LONG                                                                        \
    "\xe9\x8f\x8d\xe4\xb8\x98\xe4\xb8\x80\xe4\xb8\x80\xe6\xb3\x8b\xe9\x94\xbd"
/* A name whose key equals that of the UniqueID ID_OF_NAME. */
#define NAME_OF_ID "\xe4\xb9\x91\xe8\x8a\x92\xe7\xb7\xbe"
#define ID_OF_NAME 1373646903

/* A parent's name whose hash is the one the keys give "no parent". */
#define PARENT_HASHED_AS_NONE                                                               \
    "\xe4\xb8\x80\xe7\xb6\x8c\xe4\xb8\x85\xe7\x9f\x87"                                    \
    "\xe5\x82\xa7\xe5\xb0\xb4\xe4\xb8\x8a\xe6\xbd\x98"
/* A V2 name whose key under InstanceId 2 equals that of "w" under id 1. */
#define V2_NAME_OF_ID_2                                                                     \
    "\xe4\xb8\x80\xe9\x99\x89\xe4\xb8\x80\xe8\xb2\x8c"                                    \
    "\xe7\x97\x8f\xcb\xaf\xe4\xb8\x81\xe8\xbf\xa9"
/* A V2 name whose key under InstanceId 0 equals that of an instance the
 * pairing cannot read (its name recorded as unpairable). */
#define V2_NAME_AS_UNREADABLE                                                               \
    "\xe4\xb8\x80\xe6\x89\xa7\xe4\xb8\x8c\xeb\xa7\x8f"                                    \
    "\xe1\xae\xb6\xe5\x98\xab\xe4\xb8\x83\xe8\x8c\xa5"

enum { OTHER_JOB = 600, MISSING_OBJECT = 999 };

/* ---- V1 captures of objects with any code page and any parents ---- */

typedef struct v1_inst {
    const char *name;
    uint32_t parent_title; /* 0: none */
    uint32_t parent_index;
    int32_t unique_id;     /* -1: none */
    uint32_t count;        /* CF_COUNT */
} v1_inst;

typedef struct v1_obj {
    uint32_t title;
    uint32_t code_page;
    const v1_inst *inst;
    uint32_t n;
} v1_obj;

static tb_buf v1_capture(uint32_t second, const v1_obj *objs, uint32_t n_objs)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    uint64_t t = CF_TIME(second);
    tb_patch_u32(&v.buf, 72, (uint32_t)t);
    tb_patch_u32(&v.buf, 76, (uint32_t)(t >> 32));
    for (uint32_t o = 0; o < n_objs; o++) {
        tb_v1_object_begin(&v, objs[o].title, 0, objs[o].code_page);
        tb_v1_counter(&v, CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 8);
        tb_v1_definitions_end(&v);
        for (uint32_t i = 0; i < objs[o].n; i++) {
            const v1_inst *in = &objs[o].inst[i];
            size_t start = v.buf.len;
            tb_v1_instance(&v, in->name, in->parent_title, in->parent_index);
            tb_patch_u32(&v.buf, start + 12, (uint32_t)in->unique_id);
            uint8_t data[8] = {0};
            tb_put32(data, 8, in->count);
            tb_v1_counter_block(&v, data, sizeof data);
        }
        tb_v1_object_end(&v);
    }
    tb_v1_end(&v);
    return v.buf;
}

typedef struct pair_fixture {
    tb_buf older_buf, newer_buf;
    perfbuf_v1_block older, newer;
    uint64_t *scratch;
    size_t slots;
    perfbuf_v1_pairing p;
} pair_fixture;

static bool parse_both(pair_fixture *f)
{
    return perfbuf_v1_parse(f->older_buf.data, f->older_buf.len, NULL, &f->older, NULL) ==
               PERFBUF_OK &&
           perfbuf_v1_parse(f->newer_buf.data, f->newer_buf.len, NULL, &f->newer, NULL) ==
               PERFBUF_OK;
}

/* Pairs object `title` of two captures built from the object lists. */
static bool setup(pair_fixture *f, const v1_obj *older, uint32_t n_older, const v1_obj *newer,
                  uint32_t n_newer, uint32_t title)
{
    memset(f, 0, sizeof *f);
    f->older_buf = v1_capture(0, older, n_older);
    f->newer_buf = v1_capture(1, newer, n_newer);
    if (!parse_both(f) ||
        perfbuf_v1_pairing_scratch(&f->older, &f->newer, title, &f->slots) != PERFBUF_OK) {
        return false;
    }
    f->scratch = malloc(f->slots * sizeof *f->scratch);
    return f->scratch != NULL &&
           perfbuf_v1_pair(&f->older, &f->newer, title, f->scratch, f->slots, &f->p) ==
               PERFBUF_OK;
}

static void teardown(pair_fixture *f)
{
    free(f->scratch);
    tb_free(&f->older_buf);
    tb_free(&f->newer_buf);
}

/* Newer instance i in one number: the older position, -1 new, -2
 * ambiguous, -3 out of range. */
static int older_of(const perfbuf_v1_pairing *p, uint32_t i)
{
    uint32_t kind, ordinal, older;
    if (!perfbuf_v1_pairing_instance(p, i, &kind, &ordinal, &older)) {
        return -3;
    }
    return kind == PERFBUF_PAIR_MATCHED ? (int)older : kind == PERFBUF_PAIR_NEW ? -1 : -2;
}

static uint32_t ordinal_of(const perfbuf_v1_pairing *p, uint32_t i)
{
    uint32_t ordinal = 12345;
    return perfbuf_v1_pairing_instance(p, i, NULL, &ordinal, NULL) ? ordinal : 12345;
}

#define INST(name) {name, 0, 0, -1, 0}
#define CHILD(name, title, index) {name, title, index, -1, 0}
#define PROCS(list) {CF_PROCESS, 0, list, sizeof list / sizeof list[0]}

/* ---- V1: arguments ---- */

static void v1_invalid_arguments(void)
{
    const v1_inst procs[] = {INST("a"), INST("b")};
    const v1_obj objs[] = {PROCS(procs)};
    pair_fixture f;
    CHECK(setup(&f, objs, 1, objs, 1, CF_PROCESS));
    size_t slots = 7;
    CHECK(perfbuf_v1_pairing_scratch(NULL, &f.newer, CF_PROCESS, &slots) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_pairing_scratch(&f.older, NULL, CF_PROCESS, &slots) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_pairing_scratch(&f.older, &f.newer, CF_PROCESS, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(slots, 7);

    perfbuf_v1_pairing p;
    CHECK(perfbuf_v1_pair(&f.older, &f.newer, CF_PROCESS, f.scratch, f.slots, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    memset(&p, 0xAB, sizeof p);
    CHECK(perfbuf_v1_pair(&f.older, NULL, CF_PROCESS, f.scratch, f.slots, &p) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(p.matches == NULL && p.older == NULL);
    /* No scratch with a capacity is a caller's error; no scratch with
     * none is the question "how much", answered as too small. */
    CHECK(perfbuf_v1_pair(&f.older, &f.newer, CF_PROCESS, NULL, f.slots, &p) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_pair(&f.older, &f.newer, CF_PROCESS, NULL, 0, &p) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(p.matches == NULL && p.newer == NULL);

    /* A zeroed or missing pairing has no instances; NULL outputs are
     * allowed. */
    CHECK(!perfbuf_v1_pairing_instance(NULL, 0, NULL, NULL, NULL));
    CHECK(!perfbuf_v1_pairing_instance(&p, 0, NULL, NULL, NULL));
    CHECK(perfbuf_v1_pairing_instance(&f.p, 1, NULL, NULL, NULL));
    CHECK(older_of(&f.p, 0) == 0 && older_of(&f.p, 1) == 1);
    teardown(&f);
}

static void v1_pair_objects_invalid_arguments(void)
{
    const v1_inst procs[] = {INST("a"), INST("b")};
    const v1_obj objs[] = {PROCS(procs)};
    pair_fixture f;
    CHECK(setup(&f, objs, 1, objs, 1, CF_PROCESS));
    perfbuf_v1_object oo, no;
    CHECK(perfbuf_v1_find_object(&f.older, CF_PROCESS, &oo) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&f.newer, CF_PROCESS, &no) == PERFBUF_OK);
    uint64_t *os = calloc(f.older.index_slots + 1, sizeof *os);
    uint64_t *ns = calloc(f.newer.index_slots + 1, sizeof *ns);
    CHECK(os != NULL && ns != NULL);
    perfbuf_v1_instance_index oi, ni;
    CHECK(perfbuf_v1_block_index_build(&f.older, os, f.older.index_slots, &oi) == PERFBUF_OK);
    CHECK(perfbuf_v1_block_index_build(&f.newer, ns, f.newer.index_slots, &ni) == PERFBUF_OK);
    size_t slots = 0;
    CHECK(perfbuf_v1_pairing_scratch_objects(&oo, &no, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_pairing_scratch_objects(&oo, &no, &slots) == PERFBUF_OK);
    uint64_t *scratch = calloc(slots, sizeof *scratch);
    CHECK(scratch != NULL);
    perfbuf_v1_pairing p;

    CHECK(perfbuf_v1_pair_objects(&f.older, &oo, &oi, &f.newer, &no, &ni, scratch, slots, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_pair_objects(NULL, &oo, &oi, &f.newer, &no, &ni, scratch, slots, &p) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_pair_objects(&f.older, &oo, &oi, NULL, &no, &ni, scratch, slots, &p) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_pair_objects(&f.older, &oo, &oi, &f.newer, NULL, &ni, scratch, slots, &p) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_pair_objects(&f.older, &oo, &oi, &f.newer, &no, &ni, NULL, slots, &p) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_pair_objects(&f.older, &oo, &oi, &f.newer, &no, &ni, NULL, 0, &p) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(p.matches == NULL);
    /* An older object that is not the block's as parsed. */
    perfbuf_v1_object altered = oo;
    altered.counter_count++;
    CHECK(perfbuf_v1_pair_objects(&f.older, &altered, &oi, &f.newer, &no, &ni, scratch, slots,
                                  &p) == PERFBUF_E_INVALID_ARGUMENT);
    /* A block index whose size is not the block's. */
    perfbuf_v1_instance_index short_index = ni;
    short_index.slot_count--;
    CHECK(perfbuf_v1_pair_objects(&f.older, &oo, &oi, &f.newer, &no, &short_index, scratch, slots,
                                  &p) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(p.matches == NULL);

    CHECK(perfbuf_v1_pair_objects(&f.older, &oo, &oi, &f.newer, &no, &ni, scratch, slots, &p) ==
          PERFBUF_OK);
    CHECK(older_of(&p, 0) == 0 && older_of(&p, 1) == 1 && p.paired == 2);
    free(scratch);
    free(os);
    free(ns);
    teardown(&f);
}

/* ---- V1: keys ---- */

/* Two instances share a UniqueID: the id and #N are the key, whatever
 * the names, so the first with the id pairs with the first. */
static void v1_duplicate_unique_ids(void)
{
    const v1_inst older[] = {{"w", 0, 0, 7, 0}, {"x", 0, 0, 7, 0}, {"y", 0, 0, 8, 0}};
    const v1_inst newer[] = {{"y", 0, 0, 8, 0}, {"x", 0, 0, 7, 0}, {"w", 0, 0, 7, 0}};
    const v1_obj o[] = {PROCS(older)}, n[] = {PROCS(newer)};
    pair_fixture f;
    CHECK(setup(&f, o, 1, n, 1, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == 2);
    CHECK(older_of(&f.p, 1) == 0 && ordinal_of(&f.p, 1) == 0);
    CHECK(older_of(&f.p, 2) == 1 && ordinal_of(&f.p, 2) == 1);
    CHECK(f.p.paired == 3 && f.p.new_instances == 0 && f.p.ambiguous == 0);
    teardown(&f);
}

/* The older capture has instances past every newer one (whichever order
 * the hashes put them in, one of the newer choices below is not the
 * last): each newer instance still finds its own. */
static void v1_older_outlasts_newer(void)
{
    const v1_inst older[] = {INST("a"), INST("b"), INST("c"), INST("d"), INST("e")};
    const char *const names[] = {"a", "b", "c", "d", "e"};
    const v1_obj o[] = {PROCS(older)};
    for (uint32_t k = 0; k < 5; k++) {
        const v1_inst newer[] = {INST(names[k])};
        const v1_obj n[] = {PROCS(newer)};
        pair_fixture f;
        CHECK(setup(&f, o, 1, n, 1, CF_PROCESS));
        CHECK(older_of(&f.p, 0) == (int)k);
        CHECK(f.p.paired == 1 && f.p.new_instances == 0);
        teardown(&f);
    }
}

/* Parents: the older capture has more parents' names than the newer, so
 * the merge of the parents' lists ends on the newer side for one of the
 * choices; the child under the remaining parent pairs with its own. */
static void v1_older_has_more_parents(void)
{
    const v1_inst jobs[] = {INST("pa"), INST("pb"), INST("pc")};
    const v1_inst children[] = {CHILD("x", CF_JOB, 0), CHILD("x", CF_JOB, 1),
                                CHILD("x", CF_JOB, 2)};
    const v1_obj o[] = {{CF_JOB, 0, jobs, 3}, PROCS(children)};
    const char *const job_names[] = {"pa", "pb", "pc"};
    for (uint32_t k = 0; k < 3; k++) {
        const v1_inst one_job[] = {INST(job_names[k])};
        const v1_inst child[] = {CHILD("x", CF_JOB, 0)};
        const v1_obj n[] = {{CF_JOB, 0, one_job, 1}, PROCS(child)};
        pair_fixture f;
        CHECK(setup(&f, o, 2, n, 2, CF_PROCESS));
        CHECK(older_of(&f.p, 0) == (int)k);
        CHECK(f.p.paired == 1);
        teardown(&f);
    }
}

/* A parent that cannot be found (its object is not in the block, or its
 * position is past the object's instances) is no parent: the child keys
 * on its own name, in both captures alike. */
static void v1_unresolved_parents(void)
{
    const v1_inst jobs[] = {INST("p")};
    const v1_inst older[] = {CHILD("x", MISSING_OBJECT, 0), CHILD("y", CF_JOB, 5),
                             CHILD("z", CF_JOB, 0)};
    const v1_inst newer[] = {CHILD("z", CF_JOB, 0), CHILD("y", CF_JOB, 5),
                             CHILD("x", MISSING_OBJECT, 0)};
    const v1_obj o[] = {{CF_JOB, 0, jobs, 1}, PROCS(older)};
    const v1_obj n[] = {{CF_JOB, 0, jobs, 1}, PROCS(newer)};
    pair_fixture f;
    CHECK(setup(&f, o, 2, n, 2, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == 2 && older_of(&f.p, 1) == 1 && older_of(&f.p, 2) == 0);
    CHECK(f.p.paired == 3);
    teardown(&f);
    /* Without a parent x in the newer capture is the same key as the
     * child of a parent that is not there. */
    const v1_inst top[] = {INST("x")};
    const v1_obj n2[] = {{CF_JOB, 0, jobs, 1}, PROCS(top)};
    CHECK(setup(&f, o, 2, n2, 2, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == 0);
    teardown(&f);
}

/* ---- V1: code pages ---- */

/* Names in a code page other than UTF-16 compare byte by byte, ASCII
 * letters folded, for each code page perfbuf knows and one it does not. */
static void v1_narrow_code_pages(void)
{
    const uint32_t pages[] = {1252, 65001, 20127, 437};
    const v1_inst older[] = {INST("Alpha"), INST("beta"), INST("gamma")};
    const v1_inst newer[] = {INST("BETA"), INST("delta"), INST("alpha")};
    for (uint32_t i = 0; i < 4; i++) {
        const v1_obj o[] = {{CF_PROCESS, pages[i], older, 3}};
        const v1_obj n[] = {{CF_PROCESS, pages[i], newer, 3}};
        pair_fixture f;
        CHECK(setup(&f, o, 1, n, 1, CF_PROCESS));
        CHECK(older_of(&f.p, 0) == 1 && older_of(&f.p, 1) == -1 && older_of(&f.p, 2) == 0);
        CHECK(f.p.paired == 2 && f.p.new_instances == 1);
        teardown(&f);
    }
}

/* The object's CodePage changed between the captures: the same bytes mean
 * other characters, so nothing pairs, through either entry point. */
static void v1_code_page_changes(void)
{
    const v1_inst procs[] = {INST("a"), INST("b")};
    const v1_obj o[] = {{CF_PROCESS, 0, procs, 2}};
    const v1_obj n[] = {{CF_PROCESS, 1252, procs, 2}};
    pair_fixture f;
    CHECK(setup(&f, o, 1, n, 1, CF_PROCESS));
    CHECK(f.p.has_older);
    CHECK(older_of(&f.p, 0) == -1 && older_of(&f.p, 1) == -1);
    CHECK(f.p.paired == 0 && f.p.new_instances == 2);

    perfbuf_v1_object oo, no;
    CHECK(perfbuf_v1_find_object(&f.older, CF_PROCESS, &oo) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&f.newer, CF_PROCESS, &no) == PERFBUF_OK);
    uint64_t *os = calloc(f.older.index_slots + 1, sizeof *os);
    uint64_t *ns = calloc(f.newer.index_slots + 1, sizeof *ns);
    CHECK(os != NULL && ns != NULL);
    perfbuf_v1_instance_index oi, ni;
    CHECK(perfbuf_v1_block_index_build(&f.older, os, f.older.index_slots, &oi) == PERFBUF_OK);
    CHECK(perfbuf_v1_block_index_build(&f.newer, ns, f.newer.index_slots, &ni) == PERFBUF_OK);
    size_t slots = 0;
    CHECK(perfbuf_v1_pairing_scratch_objects(&oo, &no, &slots) == PERFBUF_OK);
    uint64_t *scratch = calloc(slots, sizeof *scratch);
    CHECK(scratch != NULL);
    perfbuf_v1_pairing p;
    CHECK(perfbuf_v1_pair_objects(&f.older, &oo, &oi, &f.newer, &no, &ni, scratch, slots, &p) ==
          PERFBUF_OK);
    CHECK(p.has_older && p.paired == 0 && p.new_instances == 2);
    CHECK(older_of(&p, 0) == -1 && older_of(&p, 1) == -1);
    free(scratch);
    free(os);
    free(ns);
    teardown(&f);
}

/* A hostile block gives children parents in two objects of different code
 * pages, both named "p": one hash (the units are equal), two names (the
 * encodings differ). Neither parent can stand for the other, so their
 * children are ambiguous and have no #N; a child without parent still
 * pairs. */
static void v1_parents_of_two_encodings(void)
{
    const v1_inst wide_job[] = {INST("p")};
    const v1_inst narrow_job[] = {INST("p")};
    const v1_inst procs[] = {CHILD("x", CF_JOB, 0), CHILD("x", OTHER_JOB, 0), INST("z"),
                             CHILD("y", OTHER_JOB, 0)};
    const v1_obj objs[] = {{CF_JOB, 0, wide_job, 1}, {OTHER_JOB, 1252, narrow_job, 1},
                           PROCS(procs)};
    pair_fixture f;
    CHECK(setup(&f, objs, 3, objs, 3, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == -2 && older_of(&f.p, 1) == -2 && older_of(&f.p, 3) == -2);
    CHECK(ordinal_of(&f.p, 0) == PERFBUF_PAIR_NO_ORDINAL);
    CHECK(ordinal_of(&f.p, 3) == PERFBUF_PAIR_NO_ORDINAL);
    CHECK(older_of(&f.p, 2) == 2);
    CHECK(f.p.ambiguous == 3 && f.p.paired == 1 && f.p.new_instances == 0);
    teardown(&f);
    /* Ambiguous on the older side only: the newer x has a single parent,
     * yet is never paired with a child of the ambiguous older ones. */
    const v1_inst newer_procs[] = {CHILD("x", CF_JOB, 0), INST("z")};
    const v1_obj newer[] = {{CF_JOB, 0, wide_job, 1}, {OTHER_JOB, 1252, narrow_job, 1},
                            PROCS(newer_procs)};
    CHECK(setup(&f, objs, 3, newer, 3, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == -1 && older_of(&f.p, 1) == 2);
    CHECK(f.p.ambiguous == 0 && f.p.new_instances == 1 && f.p.paired == 1);
    teardown(&f);
    /* Ambiguous on the newer side only. */
    CHECK(setup(&f, newer, 3, objs, 3, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == -2 && older_of(&f.p, 1) == -2 && older_of(&f.p, 3) == -2);
    CHECK(older_of(&f.p, 2) == 1);
    CHECK(f.p.ambiguous == 3 && f.p.paired == 1 && f.p.new_instances == 0);
    teardown(&f);
}

/* The parents' object changed CodePage between the captures: "p" in UTF-16
 * and "p" in 1252 hash alike but are not one name, so the child under it
 * is new; children of parents in an unchanged object still pair. */
static void v1_parent_changes_encoding(void)
{
    const v1_inst job[] = {INST("p")};
    const v1_inst others[] = {INST("q1"), INST("q2"), INST("q3"), INST("q4")};
    const v1_inst procs[] = {CHILD("x", CF_JOB, 0),    CHILD("y", OTHER_JOB, 0),
                             CHILD("y", OTHER_JOB, 1), CHILD("y", OTHER_JOB, 2),
                             CHILD("y", OTHER_JOB, 3)};
    const v1_obj o[] = {{CF_JOB, 0, job, 1}, {OTHER_JOB, 0, others, 4}, PROCS(procs)};
    const v1_obj n[] = {{CF_JOB, 1252, job, 1}, {OTHER_JOB, 0, others, 4}, PROCS(procs)};
    pair_fixture f;
    CHECK(setup(&f, o, 3, n, 3, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == -1);
    for (uint32_t i = 1; i < 5; i++) {
        CHECK(older_of(&f.p, i) == (int)i);
    }
    CHECK(f.p.paired == 4 && f.p.new_instances == 1 && f.p.ambiguous == 0);
    teardown(&f);
    /* With no parent name shared at all. */
    const v1_inst child[] = {CHILD("x", CF_JOB, 0)};
    const v1_obj o2[] = {{CF_JOB, 0, job, 1}, PROCS(child)};
    const v1_obj n2[] = {{CF_JOB, 1252, job, 1}, PROCS(child)};
    CHECK(setup(&f, o2, 2, n2, 2, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == -1 && f.p.new_instances == 1);
    teardown(&f);
}

/* ---- V1: names whose hashes collide ---- */

/* Two names under one hash in one capture: ambiguous, never paired, though
 * each is in the older capture too; other names pair as before. */
static void v1_colliding_names(void)
{
    const v1_inst procs[] = {INST(COLLIDE_A), INST("plain"), INST(COLLIDE_B)};
    const v1_obj objs[] = {PROCS(procs)};
    pair_fixture f;
    CHECK(setup(&f, objs, 1, objs, 1, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == -2 && older_of(&f.p, 2) == -2);
    CHECK(ordinal_of(&f.p, 0) == PERFBUF_PAIR_NO_ORDINAL);
    CHECK(older_of(&f.p, 1) == 1);
    CHECK(f.p.ambiguous == 2 && f.p.paired == 1);
    teardown(&f);
    /* Under parents, the children collide the same way. */
    const v1_inst jobs[] = {INST("job")};
    const v1_inst children[] = {CHILD(COLLIDE_A, CF_JOB, 0), CHILD(COLLIDE_B, CF_JOB, 0)};
    const v1_obj with_parent[] = {{CF_JOB, 0, jobs, 1}, PROCS(children)};
    CHECK(setup(&f, with_parent, 2, with_parent, 2, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == -2 && older_of(&f.p, 1) == -2);
    teardown(&f);
}

/* One name per capture, the two under one hash: the keys differ, so the
 * newer instance is new, not the older one renamed. Likewise for names of
 * different lengths under one hash. */
static void v1_renamed_under_one_hash(void)
{
    const char *const pairs[2][2] = {{COLLIDE_A, COLLIDE_B}, {COLLIDE_SHORT, COLLIDE_LONG}};
    for (uint32_t k = 0; k < 2; k++) {
        for (uint32_t dir = 0; dir < 2; dir++) {
            const v1_inst older[] = {INST(pairs[k][dir]), INST("keep")};
            const v1_inst newer[] = {INST("keep"), INST(pairs[k][1 - dir])};
            const v1_obj o[] = {PROCS(older)}, n[] = {PROCS(newer)};
            pair_fixture f;
            CHECK(setup(&f, o, 1, n, 1, CF_PROCESS));
            CHECK(older_of(&f.p, 0) == 1 && older_of(&f.p, 1) == -1);
            CHECK(f.p.paired == 1 && f.p.new_instances == 1 && f.p.ambiguous == 0);
            teardown(&f);
        }
    }
    /* The same names do pair, so it was the name that kept them apart. */
    const v1_inst same[] = {INST(COLLIDE_LONG), INST(COLLIDE_B)};
    const v1_obj s[] = {PROCS(same)};
    pair_fixture f;
    CHECK(setup(&f, s, 1, s, 1, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == 0 && older_of(&f.p, 1) == 1);
    teardown(&f);
}

/* A UniqueID and a name under one key hash: an id never matches a name. */
static void v1_unique_id_and_name_collide(void)
{
    const v1_inst by_id[] = {{"u", 0, 0, ID_OF_NAME, 0}};
    const v1_inst by_name[] = {INST(NAME_OF_ID)};
    const v1_obj o[] = {PROCS(by_id)}, n[] = {PROCS(by_name)};
    pair_fixture f;
    CHECK(setup(&f, o, 1, n, 1, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == -1 && f.p.new_instances == 1);
    teardown(&f);
    /* Both in one capture: one hash, two keys, ambiguous. */
    const v1_inst both[] = {{"u", 0, 0, ID_OF_NAME, 0}, INST(NAME_OF_ID)};
    const v1_obj b[] = {PROCS(both)};
    CHECK(setup(&f, b, 1, b, 1, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == -2 && older_of(&f.p, 1) == -2 && f.p.ambiguous == 2);
    teardown(&f);
    /* Each by itself pairs with itself. */
    CHECK(setup(&f, o, 1, o, 1, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == 0);
    teardown(&f);
    CHECK(setup(&f, n, 1, n, 1, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == 0);
    teardown(&f);
}

/* A child under a parent whose name hashes as "no parent" has the key
 * hash of the same child without parent, yet is another key: new across
 * the captures, ambiguous within one. */
static void v1_parent_hashed_as_none(void)
{
    const v1_inst jobs[] = {INST(PARENT_HASHED_AS_NONE)};
    const v1_inst under[] = {CHILD("x", CF_JOB, 0)};
    const v1_inst alone[] = {INST("x")};
    const v1_inst both[] = {CHILD("x", CF_JOB, 0), INST("x")};
    const v1_obj o[] = {{CF_JOB, 0, jobs, 1}, PROCS(under)};
    const v1_obj n[] = {{CF_JOB, 0, jobs, 1}, PROCS(alone)};
    const v1_obj b[] = {{CF_JOB, 0, jobs, 1}, PROCS(both)};
    pair_fixture f;
    CHECK(setup(&f, o, 2, n, 2, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == -1 && f.p.new_instances == 1);
    teardown(&f);
    CHECK(setup(&f, b, 2, b, 2, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == -2 && older_of(&f.p, 1) == -2 && f.p.ambiguous == 2);
    teardown(&f);
    CHECK(setup(&f, o, 2, o, 2, CF_PROCESS));
    CHECK(older_of(&f.p, 0) == 0);
    teardown(&f);
}

/* ---- V2 ---- */

typedef struct v2_fixture {
    tb_buf ob, nb;
    perfbuf_v2_query older, newer;
    perfbuf_v2_block older_block, newer_block;
    uint64_t *scratch;
    size_t slots;
    perfbuf_v2_pairing p;
} v2_fixture;

/* Query data of one block of `kind` (COUNTERSET, or MULTIPLE_INSTANCES
 * with one value per instance). */
static tb_buf v2_capture(uint32_t second, uint32_t kind, const cf_v2_instance *procs, uint32_t n)
{
    if (kind == PERFBUF_V2_COUNTERSET) {
        return cf_v2_capture(second, procs, n);
    }
    tb_v2 v;
    tb_v2_begin(&v, 5000 + second, 133000000000000000 + 10000000 * (int64_t)second, 10000000);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_INSTANCES);
    tb_v2_instances_begin(&v, n);
    for (uint32_t i = 0; i < n; i++) {
        tb_v2_instance(&v, procs[i].id, procs[i].name);
        tb_v2_u32(&v, procs[i].count);
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    return v.buf;
}

static bool first_block(const perfbuf_v2_query *q, perfbuf_v2_block *out)
{
    perfbuf_v2_iter it;
    perfbuf_v2_blocks_begin(q, &it);
    return perfbuf_v2_blocks_next(q, &it, out);
}

static bool v2_setup(v2_fixture *f, uint32_t kind, const cf_v2_instance *older, uint32_t no,
                     const cf_v2_instance *newer, uint32_t nn)
{
    memset(f, 0, sizeof *f);
    f->ob = v2_capture(0, kind, older, no);
    f->nb = v2_capture(1, kind, newer, nn);
    if (perfbuf_v2_query_parse(f->ob.data, f->ob.len, NULL, &f->older, NULL) != PERFBUF_OK ||
        perfbuf_v2_query_parse(f->nb.data, f->nb.len, NULL, &f->newer, NULL) != PERFBUF_OK ||
        !first_block(&f->older, &f->older_block) || !first_block(&f->newer, &f->newer_block) ||
        perfbuf_v2_pairing_scratch(&f->older_block, &f->newer_block, &f->slots) != PERFBUF_OK) {
        return false;
    }
    f->scratch = malloc(f->slots * sizeof *f->scratch);
    return f->scratch != NULL &&
           perfbuf_v2_pair(&f->older, &f->older_block, &f->newer, &f->newer_block, f->scratch,
                           f->slots, &f->p) == PERFBUF_OK;
}

static void v2_teardown(v2_fixture *f)
{
    free(f->scratch);
    tb_free(&f->ob);
    tb_free(&f->nb);
}

static int v2_older_of(const perfbuf_v2_pairing *p, uint32_t i)
{
    uint32_t kind, ordinal, older;
    if (!perfbuf_v2_pairing_instance(p, i, &kind, &ordinal, &older)) {
        return -3;
    }
    return kind == PERFBUF_PAIR_MATCHED ? (int)older : kind == PERFBUF_PAIR_NEW ? -1 : -2;
}

static void v2_invalid_arguments(void)
{
    const cf_v2_instance procs[] = {{1, "a", 0, 0}, {2, "b", 0, 0}};
    v2_fixture f;
    CHECK(v2_setup(&f, PERFBUF_V2_COUNTERSET, procs, 2, procs, 2));
    size_t slots = 7;
    CHECK(perfbuf_v2_pairing_scratch(&f.older_block, NULL, &slots) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_pairing_scratch(&f.older_block, &f.newer_block, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(slots, 7);
    perfbuf_v2_pairing p;
    CHECK(perfbuf_v2_pair(&f.older, &f.older_block, &f.newer, &f.newer_block, f.scratch, f.slots,
                          NULL) == PERFBUF_E_INVALID_ARGUMENT);
    memset(&p, 0xAB, sizeof p);
    CHECK(perfbuf_v2_pair(&f.older, &f.older_block, &f.newer, NULL, f.scratch, f.slots, &p) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(p.matches == NULL && p.newer == NULL);
    /* An older block needs its query. */
    CHECK(perfbuf_v2_pair(NULL, &f.older_block, &f.newer, &f.newer_block, f.scratch, f.slots,
                          &p) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_pair(&f.older, &f.older_block, &f.newer, &f.newer_block, NULL, f.slots,
                          &p) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v2_pair(&f.older, &f.older_block, &f.newer, &f.newer_block, NULL, 0, &p) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(p.matches == NULL);
    CHECK(!perfbuf_v2_pairing_instance(NULL, 0, NULL, NULL, NULL));
    CHECK(!perfbuf_v2_pairing_instance(&p, 0, NULL, NULL, NULL));
    CHECK(perfbuf_v2_pairing_instance(&f.p, 1, NULL, NULL, NULL));
    CHECK(v2_older_of(&f.p, 0) == 0 && v2_older_of(&f.p, 1) == 1);
    v2_teardown(&f);
}

/* A MULTIPLE_INSTANCES block pairs as a counterset's does. */
static void v2_multiple_instances_block(void)
{
    const cf_v2_instance older[] = {{0, "_Total", 0, 30}, {1, "a", 0, 10}, {2, "b", 0, 20}};
    const cf_v2_instance newer[] = {{2, "B", 0, 21}, {3, "c", 0, 5}, {0, "_total", 0, 31}};
    v2_fixture f;
    CHECK(v2_setup(&f, PERFBUF_V2_MULTIPLE_INSTANCES, older, 3, newer, 3));
    CHECK(f.newer_block.kind == PERFBUF_V2_MULTIPLE_INSTANCES);
    CHECK(v2_older_of(&f.p, 0) == 2 && v2_older_of(&f.p, 1) == -1 && v2_older_of(&f.p, 2) == 0);
    CHECK(f.p.paired == 2 && f.p.new_instances == 1);
    v2_teardown(&f);
}

static void v2_older_outlasts_newer(void)
{
    const cf_v2_instance older[] = {{1, "a", 0, 0}, {2, "b", 0, 0}, {3, "c", 0, 0},
                                    {4, "d", 0, 0}, {5, "e", 0, 0}};
    for (uint32_t k = 0; k < 5; k++) {
        const cf_v2_instance newer[] = {older[k]};
        v2_fixture f;
        CHECK(v2_setup(&f, PERFBUF_V2_COUNTERSET, older, 5, newer, 1));
        CHECK(v2_older_of(&f.p, 0) == (int)k);
        CHECK(f.p.paired == 1 && f.p.new_instances == 0);
        v2_teardown(&f);
    }
}

/* Two names under one hash with one id: ambiguous wherever they meet. */
static void v2_colliding_names(void)
{
    const cf_v2_instance both[] = {{1, COLLIDE_A, 0, 0}, {1, "plain", 0, 0},
                                   {1, COLLIDE_B, 0, 0}};
    const cf_v2_instance one[] = {{1, COLLIDE_A, 0, 0}, {1, "plain", 0, 0}};
    const cf_v2_instance other[] = {{1, COLLIDE_B, 0, 0}, {1, "plain", 0, 0}};
    v2_fixture f;
    /* Ambiguous in both captures. */
    CHECK(v2_setup(&f, PERFBUF_V2_COUNTERSET, both, 3, both, 3));
    CHECK(v2_older_of(&f.p, 0) == -2 && v2_older_of(&f.p, 1) == 1 && v2_older_of(&f.p, 2) == -2);
    uint32_t ordinal = 0;
    CHECK(perfbuf_v2_pairing_instance(&f.p, 2, NULL, &ordinal, NULL));
    CHECK(ordinal == PERFBUF_PAIR_NO_ORDINAL);
    CHECK(f.p.ambiguous == 2 && f.p.paired == 1);
    v2_teardown(&f);
    /* Ambiguous in the older capture only: the newer one is new. */
    CHECK(v2_setup(&f, PERFBUF_V2_COUNTERSET, both, 3, one, 2));
    CHECK(v2_older_of(&f.p, 0) == -1 && v2_older_of(&f.p, 1) == 1);
    v2_teardown(&f);
    /* Ambiguous in the newer capture only. */
    CHECK(v2_setup(&f, PERFBUF_V2_COUNTERSET, one, 2, both, 3));
    CHECK(v2_older_of(&f.p, 0) == -2 && v2_older_of(&f.p, 2) == -2 && v2_older_of(&f.p, 1) == 1);
    v2_teardown(&f);
    /* Renamed to the other name: new, not paired. */
    CHECK(v2_setup(&f, PERFBUF_V2_COUNTERSET, one, 2, other, 2));
    CHECK(v2_older_of(&f.p, 0) == -1 && v2_older_of(&f.p, 1) == 1);
    CHECK(f.p.new_instances == 1 && f.p.paired == 1 && f.p.ambiguous == 0);
    v2_teardown(&f);
    /* And the same name pairs. */
    CHECK(v2_setup(&f, PERFBUF_V2_COUNTERSET, other, 2, other, 2));
    CHECK(v2_older_of(&f.p, 0) == 0 && v2_older_of(&f.p, 1) == 1);
    v2_teardown(&f);
}

/* Two keys of different InstanceIds under one hash: ambiguous in one
 * capture, new across two. */
static void v2_ids_collide(void)
{
    const cf_v2_instance w[] = {{1, "w", 0, 0}};
    const cf_v2_instance other[] = {{2, V2_NAME_OF_ID_2, 0, 0}};
    const cf_v2_instance both[] = {{1, "w", 0, 0}, {2, V2_NAME_OF_ID_2, 0, 0}};
    v2_fixture f;
    CHECK(v2_setup(&f, PERFBUF_V2_COUNTERSET, w, 1, other, 1));
    CHECK(v2_older_of(&f.p, 0) == -1 && f.p.new_instances == 1);
    v2_teardown(&f);
    CHECK(v2_setup(&f, PERFBUF_V2_COUNTERSET, both, 2, both, 2));
    CHECK(v2_older_of(&f.p, 0) == -2 && v2_older_of(&f.p, 1) == -2 && f.p.ambiguous == 2);
    v2_teardown(&f);
    CHECK(v2_setup(&f, PERFBUF_V2_COUNTERSET, other, 1, other, 1));
    CHECK(v2_older_of(&f.p, 0) == 0);
    v2_teardown(&f);
}

/* Query data of a MULTIPLE_INSTANCES block with `names` (InstanceId 0),
 * then, when `tail`, a MULTIPLE_COUNTERS block of 8 values. */
static tb_buf v2_named_block(const char *const *names, uint32_t n, bool tail)
{
    static const uint32_t ids[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    tb_v2 v;
    tb_v2_begin(&v, 5000, 133000000000000000, 10000000);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_INSTANCES);
    tb_v2_instances_begin(&v, n);
    for (uint32_t i = 0; i < n; i++) {
        tb_v2_instance(&v, 0, names[i]);
        tb_v2_u32(&v, i);
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    if (tail) {
        tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
        tb_v2_ids(&v, ids, 8);
        for (uint32_t i = 0; i < 8; i++) {
            tb_v2_u64(&v, i);
        }
        tb_v2_block_end(&v);
    }
    tb_v2_end(&v);
    return v.buf;
}

/* A block passed with another buffer's query: the pairing reads what it
 * can, and an instance it cannot read pairs with nothing. Here the block
 * promises two instances where the buffer holds one, followed by another
 * block; the first instance is read, the second not. A readable name
 * whose key hash is the unreadable one's is then ambiguous too: the hash
 * alone never stands for a name. */
static void v2_block_of_another_buffer(void)
{
    const char *const plain[] = {"plain", "zz"};
    const char *const colliding[] = {V2_NAME_AS_UNREADABLE, "zz"};
    const char *const *const firsts[2] = {plain, colliding};
    for (uint32_t k = 0; k < 2; k++) {
        tb_buf one = v2_named_block(firsts[k], 1, true);
        tb_buf two = v2_named_block(firsts[k], 2, false);
        perfbuf_v2_query q1, q2;
        perfbuf_v2_block b1, b2;
        CHECK(perfbuf_v2_query_parse(one.data, one.len, NULL, &q1, NULL) == PERFBUF_OK);
        CHECK(perfbuf_v2_query_parse(two.data, two.len, NULL, &q2, NULL) == PERFBUF_OK);
        CHECK(first_block(&q1, &b1) && first_block(&q2, &b2));
        CHECK(b2.instance_count == 2 && b2.items_end <= q1.size);
        size_t slots = 0;
        CHECK(perfbuf_v2_pairing_scratch(NULL, &b2, &slots) == PERFBUF_OK);
        uint64_t *scratch = malloc(slots * sizeof *scratch);
        CHECK(scratch != NULL);
        perfbuf_v2_pairing p;
        CHECK(perfbuf_v2_pair(NULL, NULL, &q1, &b2, scratch, slots, &p) == PERFBUF_OK);
        CHECK(v2_older_of(&p, 1) == -2);
        CHECK(v2_older_of(&p, 0) == (k == 0 ? -1 : -2));
        CHECK(p.ambiguous == (k == 0 ? 1u : 2u) && p.paired == 0);
        free(scratch);
        tb_free(&one);
        tb_free(&two);
    }
}

static const th_case cases[] = {
    TH_CASE(v1_invalid_arguments),
    TH_CASE(v1_pair_objects_invalid_arguments),
    TH_CASE(v1_duplicate_unique_ids),
    TH_CASE(v1_older_outlasts_newer),
    TH_CASE(v1_older_has_more_parents),
    TH_CASE(v1_unresolved_parents),
    TH_CASE(v1_narrow_code_pages),
    TH_CASE(v1_code_page_changes),
    TH_CASE(v1_parents_of_two_encodings),
    TH_CASE(v1_parent_changes_encoding),
    TH_CASE(v1_colliding_names),
    TH_CASE(v1_renamed_under_one_hash),
    TH_CASE(v1_unique_id_and_name_collide),
    TH_CASE(v1_parent_hashed_as_none),
    TH_CASE(v2_invalid_arguments),
    TH_CASE(v2_multiple_instances_block),
    TH_CASE(v2_older_outlasts_newer),
    TH_CASE(v2_colliding_names),
    TH_CASE(v2_ids_collide),
    TH_CASE(v2_block_of_another_buffer),
};

TH_MAIN(cases)
