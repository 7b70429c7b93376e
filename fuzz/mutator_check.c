/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Checks the structure-aware mutators without a fuzzing engine: from each
 * valid seed given on the command line, many single mutations, counting how
 * many mutants the library still accepts (lenient parse), against the same
 * number of plain byte mutations. The engine's LLVMFuzzerMutate is replaced
 * by a small byte mutator of the same kind (flip, set, insert, erase,
 * interesting values), which both sides use. The AFL++ mutator library
 * (fuzz/afl_mutator.c), linked in, is checked through its afl_custom_*
 * entry points as afl-fuzz calls them.
 * Usage: mutator_check --v2 SEED... --v1 SEED...
 */
/* setenv, for the AFL++ library's format variable. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#  define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>

#include "builder_v1.h"
#include "harness.h"
#include "mutator_captures.h"
#include "perfbuf/v1.h"
#include "perfbuf/v2_query.h"

#define MUTATIONS_PER_SEED 3000u
#define MAX_SEEDS 16
#define BUF_CAP (64u * 1024u)

typedef struct seed {
    uint8_t *data;
    size_t size;
} seed;

static seed v2_seeds[MAX_SEEDS], v1_seeds[MAX_SEEDS];
static size_t v2_count, v1_count;
static uint8_t buf[BUF_CAP], again[BUF_CAP];

static mut_rng byte_rng;

/* A stand-in for LLVMFuzzerMutate. */
static size_t byte_mutate(uint8_t *data, size_t size, size_t max_size)
{
    return mut_byte_change(&byte_rng, data, size, max_size);
}

typedef size_t (*mutate_fn)(uint8_t *, size_t, size_t, unsigned int, mut_bytes_fn, bool *);
typedef bool (*accept_fn)(const uint8_t *, size_t);

static bool v2_accepts(const uint8_t *data, size_t size)
{
    perfbuf_v2_query q;
    return perfbuf_v2_query_parse(data, size, NULL, &q, NULL) == PERFBUF_OK;
}

static bool v1_accepts(const uint8_t *data, size_t size)
{
    perfbuf_v1_block b;
    return perfbuf_v1_parse(data, size, NULL, &b, NULL) == PERFBUF_OK;
}

typedef struct tally {
    unsigned structured, structured_ok, unchanged, fallback, fallback_ok, bytes_ok, total;
} tally;

/* Mutations of every seed: the structured mutator's, and as many plain
 * byte mutations; every mutant within max_size and the same for the same
 * engine seed. */
static void measure(const seed *seeds, size_t count, mutate_fn mutate, accept_fn accepts,
                    tally *t)
{
    memset(t, 0, sizeof *t);
    for (size_t s = 0; s < count; s++) {
        size_t max_size = seeds[s].size + 256;
        CHECK(max_size <= BUF_CAP);
        for (unsigned i = 0; i < MUTATIONS_PER_SEED; i++) {
            bool structured;
            memcpy(buf, seeds[s].data, seeds[s].size);
            mut_rng_seed(&byte_rng, i);
            size_t n = mutate(buf, seeds[s].size, max_size, i, byte_mutate, &structured);
            CHECK(n <= max_size);
            bool ok = accepts(buf, n);
            t->structured += structured;
            t->structured_ok += structured && ok;
            t->unchanged += n == seeds[s].size && memcmp(buf, seeds[s].data, n) == 0;
            t->fallback += !structured;
            t->fallback_ok += !structured && ok;

            bool structured_again;
            memcpy(again, seeds[s].data, seeds[s].size);
            mut_rng_seed(&byte_rng, i);
            size_t m = mutate(again, seeds[s].size, max_size, i, byte_mutate, &structured_again);
            CHECK(m == n && structured_again == structured && memcmp(buf, again, n) == 0);

            memcpy(buf, seeds[s].data, seeds[s].size);
            mut_rng_seed(&byte_rng, i + 0x10000u);
            n = byte_mutate(buf, seeds[s].size, max_size);
            t->bytes_ok += accepts(buf, n);
            t->total++;
        }
    }
}

static void report(const char *name, const tally *t)
{
    printf("%s: %u mutations of valid seeds; accepted by the lenient parse:\n", name, t->total);
    printf("  structured (%u of them): %.1f %%\n", t->structured,
           t->structured ? 100.0 * t->structured_ok / t->structured : 0.0);
    printf("  mutants identical to their seed: %u\n", t->unchanged);
    printf("  mutator overall, byte fallback included: %.1f %%\n",
           100.0 * (t->structured_ok + t->fallback_ok) / t->total);
    printf("  one plain byte mutation: %.1f %%\n", 100.0 * t->bytes_ok / t->total);
}

/* Most structured mutants stay valid, and far more than byte mutants. */
static void check_tally(const tally *t)
{
    CHECK(t->total > 0);
    CHECK(t->structured > t->total / 2);
    CHECK(t->unchanged < t->total / 10);
    CHECK(t->structured_ok * 10u >= t->structured * 6u);
    CHECK(t->structured_ok + t->fallback_ok > t->bytes_ok + t->total / 5);
}

static void v2_mutants_mostly_valid(void)
{
    tally t;
    CHECK(v2_count > 0);
    CALL(measure(v2_seeds, v2_count, v2m_mutate, v2_accepts, &t));
    report("V2 query data", &t);
    CALL(check_tally(&t));
}

static void v1_mutants_mostly_valid(void)
{
    tally t;
    CHECK(v1_count > 0);
    CALL(measure(v1_seeds, v1_count, v1m_mutate, v1_accepts, &t));
    report("V1 data blocks", &t);
    CALL(check_tally(&t));
}

/* Inputs the walkers cannot place (prefixes of a seed shorter than its
 * header) still mutate, through the byte fallback; every prefix mutates
 * within max_size. */
static void unreadable_inputs_fall_back(void)
{
    const seed *s[2] = {&v2_seeds[0], &v1_seeds[0]};
    mutate_fn fn[2] = {v2m_mutate, v1m_mutate};
    CHECK(v2_count > 0 && v1_count > 0);
    /* An engine seed for which the driver does not take its one-in-eight
     * byte fallback: what follows is the walker's refusal alone. */
    unsigned int engine_seed = 0;
    for (mut_rng r = {0};; engine_seed++) {
        mut_rng_seed(&r, engine_seed);
        if (mut_rand(&r, 8) != 0) {
            break;
        }
    }
    for (int f = 0; f < 2; f++) {
        for (size_t len = 0; len < s[f]->size; len++) {
            bool structured = true;
            memcpy(buf, s[f]->data, len);
            size_t n = fn[f](buf, len, len + 8, engine_seed, byte_mutate, &structured);
            CHECK(n <= len + 8);
            if (len < 48) {
                CHECK(!structured);
            }
        }
    }
}

void *afl_mutator_open(const char *format, unsigned int seed);
void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size);
void afl_custom_deinit(void *data);

/* afl_custom_init reads the format from the environment, as afl-fuzz
 * passes it. */
static void set_afl_format(const char *format)
{
#ifdef _WIN32
    CHECK(_putenv_s("PERFBUF_AFL_MUTATOR", format) == 0);
#else
    CHECK(setenv("PERFBUF_AFL_MUTATOR", format, 1) == 0);
#endif
}

/* The library as afl-fuzz drives it: one mutant per call in a buffer of
 * its own, within max_size, the input left as it was, and most mutants of
 * valid seeds still valid. */
static void afl_library_mutants(const char *format, const seed *seeds, size_t count,
                                accept_fn accepts)
{
    CALL(set_afl_format(format));
    void *m = afl_custom_init(NULL, 11);
    CHECK(m != NULL);
    unsigned total = 0, ok = 0, changed = 0;
    for (size_t s = 0; s < count; s++) {
        size_t max_size = seeds[s].size + 4096u;
        CHECK(max_size <= BUF_CAP);
        for (unsigned i = 0; i < 500u; i++) {
            memcpy(again, seeds[s].data, seeds[s].size);
            uint8_t *out = NULL;
            size_t n = afl_custom_fuzz(m, again, seeds[s].size, &out, NULL, 0, max_size);
            CHECK(out != NULL && out != again);
            CHECK(n <= max_size);
            CHECK(memcmp(again, seeds[s].data, seeds[s].size) == 0);
            ok += accepts(out, n);
            changed += n != seeds[s].size || memcmp(out, seeds[s].data, n) != 0;
            total++;
        }
    }
    afl_custom_deinit(m);
    printf("AFL++ mutator library, %s: %u mutants, %.1f %% accepted, %u differ from their seed\n",
           format, total, 100.0 * ok / total, changed);
    CHECK(total > 0);
    CHECK(ok * 10u >= total * 6u);
    CHECK(changed * 10u >= total * 9u);
}

static void afl_library_mutates_both_formats(void)
{
    CHECK(v2_count > 0 && v1_count > 0);
    CALL(afl_library_mutants("v2-query", v2_seeds, v2_count, v2_accepts));
    CALL(afl_library_mutants("v1", v1_seeds, v1_count, v1_accepts));
}

/* A format the library does not know gives no mutator (afl_custom_init
 * then stops afl-fuzz), and a host that calls on without one gets no
 * mutant rather than a crash. */
static void afl_library_needs_a_format(void)
{
    CHECK(afl_mutator_open(NULL, 1) == NULL);
    CHECK(afl_mutator_open("v3", 1) == NULL);
    uint8_t in[4] = {1, 2, 3, 4};
    uint8_t *out = NULL;
    CHECK(afl_custom_fuzz(NULL, in, sizeof in, &out, NULL, 0, 64) == 0);
    CHECK(out == in);
    afl_custom_deinit(NULL);
}

/* The engines' largest input, as ci/fuzz-smoke.sh gives it. */
#define LARGE_MAX (1u << 20)
static uint8_t large[LARGE_MAX];

/* The V1 object with the most definitions in a block, 0 when it does not parse. */
static uint32_t v1_most_definitions(const uint8_t *data, size_t size)
{
    perfbuf_v1_block b;
    if (perfbuf_v1_parse(data, size, NULL, &b, NULL) != PERFBUF_OK) {
        return 0;
    }
    perfbuf_v1_iter it;
    perfbuf_v1_object o;
    uint32_t most = 0;
    perfbuf_v1_objects_begin(&b, &it);
    while (perfbuf_v1_objects_next(&b, &it, &o)) {
        most = o.counter_count > most ? o.counter_count : most;
    }
    return most;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* A block with an id list that a value plan cannot answer from its fast
 * path (docs/v2-metadata.md): an id repeated, or a value that is not an
 * integer. */
static bool v2_leaves_fast_path(const perfbuf_v2_query *q, const perfbuf_v2_block *b)
{
    if (b->kind != PERFBUF_V2_MULTIPLE_COUNTERS && b->kind != PERFBUF_V2_COUNTERSET) {
        return false;
    }
    perfbuf_v2_iter it;
    perfbuf_v2_value v;
    perfbuf_v2_instance inst;
    if (b->instance_count > 0) {
        perfbuf_v2_instances_begin(b, &it);
        if (!perfbuf_v2_instances_next(q, b, &it, &inst)) {
            return false;
        }
        perfbuf_v2_instance_values_begin(&inst, &it);
    } else {
        perfbuf_v2_block_values_begin(b, &it);
    }
    while (perfbuf_v2_values_next(q, b, &it, &v)) {
        if (!v.is_integer) {
            return true;
        }
    }
    uint32_t *ids = malloc(sizeof *ids * ((size_t)b->counter_count + 1));
    if (ids == NULL) {
        return false; /* no memory: the shape is not counted, and the check fails */
    }
    for (uint32_t i = 0; i < b->counter_count; i++) {
        ids[i] = perfbuf_v2_block_counter_id(q, b, i);
    }
    qsort(ids, b->counter_count, sizeof *ids, compare_u32);
    bool repeated = false;
    for (uint32_t i = 1; i < b->counter_count && !repeated; i++) {
        repeated = ids[i] == ids[i - 1];
    }
    free(ids);
    return repeated;
}

/* The V2 block with the most counters among those that leave a value
 * plan's fast path, 0 when the data does not parse. */
static uint32_t v2_most_counters(const uint8_t *data, size_t size)
{
    perfbuf_v2_query q;
    if (perfbuf_v2_query_parse(data, size, NULL, &q, NULL) != PERFBUF_OK) {
        return 0;
    }
    perfbuf_v2_iter it;
    perfbuf_v2_block b;
    uint32_t most = 0;
    perfbuf_v2_blocks_begin(&q, &it);
    while (perfbuf_v2_blocks_next(&q, &it, &b)) {
        if (b.counter_count > most && v2_leaves_fast_path(&q, &b)) {
            most = b.counter_count;
        }
    }
    return most;
}

/* With the engines' 1 MB to grow into, one mutation of a valid seed makes,
 * for some engine seed among a few hundred, an object of a thousand
 * definitions or more (V1) and a block of a thousand counters or more
 * with a repeated id or a value that is not an integer (V2, the block a
 * value plan must answer with its one fallback walk): the shapes that cost
 * work come out at the size that shows it. */
static void large_shapes_within_reach(void)
{
    const seed *sources[2] = {v1_seeds, v2_seeds};
    size_t counts[2] = {v1_count, v2_count};
    mutate_fn fn[2] = {v1m_mutate, v2m_mutate};
    uint32_t (*most[2])(const uint8_t *, size_t) = {v1_most_definitions, v2_most_counters};
    for (int f = 0; f < 2; f++) {
        uint32_t best = 0;
        for (size_t s = 0; s < counts[f] && best < 1000; s++) {
            for (unsigned i = 0; i < 2000u && best < 1000; i++) {
                bool structured;
                memcpy(large, sources[f][s].data, sources[f][s].size);
                mut_rng_seed(&byte_rng, i);
                size_t n = fn[f](large, sources[f][s].size, LARGE_MAX, i, byte_mutate, &structured);
                CHECK(n <= LARGE_MAX);
                uint32_t got = structured ? most[f](large, n) : 0;
                best = got > best ? got : best;
            }
        }
        printf("%s: at most %u %s in one mutant within 1 MB\n", f == 0 ? "V1" : "V2", best,
               f == 0 ? "definitions in an object"
                      : "counters in a block off the plan's fast path");
        CHECK(best >= 1000);
    }
}

/* The two-capture inputs (pairing, mixed views) through the AFL++
 * library: within max_size, the input left alone, and most mutants still
 * two captures that parse where the harness cuts them. */
static void afl_library_mutates_two_captures(void)
{
    CHECK(v1_count >= 2);
    const seed *older = &v1_seeds[0];
    const seed *newer = &v1_seeds[1];
    for (int format = 0; format < 2; format++) {
        /* Pairing: flags 0 (V1), no path, the older's length, older, newer.
         * Mixed views: A's length, A, B. */
        size_t header = format == 0 ? 7 : 2;
        size_t size = header + older->size + newer->size;
        CHECK(size <= BUF_CAP && older->size <= 0xFFFFu);
        uint8_t *in = malloc(size);
        CHECK(in != NULL);
        memset(in, 0, header);
        mcap_put(in + (format == 0 ? 3 : 0), format == 0 ? 4 : 2, older->size);
        memcpy(in + header, older->data, older->size);
        memcpy(in + header + older->size, newer->data, newer->size);
        CALL(set_afl_format(format == 0 ? "pairing" : "mixed-views"));
        void *m = afl_custom_init(NULL, 5);
        CHECK(m != NULL);
        unsigned total = 0, both = 0;
        size_t max_size = size + 4096u;
        for (unsigned i = 0; i < 500u; i++) {
            memcpy(again, in, size);
            uint8_t *out = NULL;
            size_t n = afl_custom_fuzz(m, again, size, &out, NULL, 0, max_size);
            CHECK(out != NULL && n <= max_size);
            CHECK(memcmp(again, in, size) == 0);
            total++;
            if (n < header) {
                continue;
            }
            size_t first = mcap_get(out + (format == 0 ? 3 : 0), format == 0 ? 4 : 2);
            size_t path = format == 0 ? mcap_get(out + 1, 2) : 0;
            if (out[0] & (format == 0 ? 4u : 0u)) {
                continue; /* a V2 pairing input now: another layout */
            }
            if (path > n - header || first > n - header - path) {
                continue;
            }
            both += v1_accepts(out + header + path, first) &&
                    v1_accepts(out + header + path + first, n - header - path - first);
        }
        afl_custom_deinit(m);
        free(in);
        printf("AFL++ mutator library, %s: %u mutants, %.1f %% still two V1 captures\n",
               format == 0 ? "pairing" : "mixed-views", total, 100.0 * both / total);
        CHECK(both * 10u >= total * 4u);
    }
}

/*
 * The pairing mutator's path naming the newer capture's longest parent:
 * a name of CJK characters takes 2 bytes a character in UTF-16 and 3 in a
 * path, so the path can be longer than the whole input and than max_size.
 * Every mutant fits max_size (the buffer is exactly that long, so an
 * overrun is a sanitizer report), and some mutant is such a path when it
 * fits.
 */
static void pairing_path_names_a_parent(void)
{
    char parent[3 * 900 + 1];
    for (size_t k = 0; k < 900; k++) {
        memcpy(parent + 3 * k, "\xE4\xB8\x80", 3); /* U+4E00 */
    }
    parent[3 * 900] = '\0';
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, TB_V1_PROCESS, 0, 0);
    tb_v1_counter(&v, 2, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    uint8_t data[4] = {0};
    tb_v1_instance(&v, parent, 0, 0);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_instance(&v, "child", TB_V1_PROCESS, 0);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    CHECK(v1_accepts(v.buf.data, v.buf.len));
    /* No path, no older capture, the newer one: the path that names the
     * parent (3 + 2,700 + 5 bytes) is longer than this input. */
    size_t size = 7 + v.buf.len;
    CHECK(size < 3 + 3 * 900 + 5);
    unsigned named = 0;
    for (int room = 0; room < 2; room++) {
        size_t max_size = room == 0 ? size : size + 4096u;
        for (unsigned draw = 0; draw < 400u; draw++) {
            uint8_t *in = malloc(max_size);
            CHECK(in != NULL);
            memset(in, 0, 7);
            memcpy(in + 7, v.buf.data, v.buf.len);
            size_t n = mcap_mutate_pairing(in, size, max_size, draw, byte_mutate);
            CHECK(n <= max_size);
            size_t path = mcap_get(in + 1, 2);
            if (room == 1 && n >= 7 + path && path > 3 + 3 * 900 && memcmp(in + 7, "\\O(", 3) == 0 &&
                memcmp(in + 10, parent, 3 * 900) == 0) {
                named++;
            }
            free(in);
        }
    }
    printf("pairing mutator: %u of 400 mutants name the 900-character parent in the path\n",
           named);
    CHECK(named > 0);
    tb_free(&v.buf);
}

static const th_case cases[] = {
    TH_CASE(v2_mutants_mostly_valid),
    TH_CASE(v1_mutants_mostly_valid),
    TH_CASE(unreadable_inputs_fall_back),
    TH_CASE(afl_library_mutates_both_formats),
    TH_CASE(afl_library_mutates_two_captures),
    TH_CASE(pairing_path_names_a_parent),
    TH_CASE(large_shapes_within_reach),
    TH_CASE(afl_library_needs_a_format),
};

th_state th;

static bool load(const char *path, seed *out)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return false;
    }
    out->data = malloc(BUF_CAP);
    out->size = out->data == NULL ? 0 : fread(out->data, 1, BUF_CAP - 256, f);
    fclose(f);
    return out->data != NULL && out->size > 0;
}

int main(int argc, char **argv)
{
    seed *into = NULL;
    size_t *count = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--v2") == 0) {
            into = v2_seeds;
            count = &v2_count;
        } else if (strcmp(argv[i], "--v1") == 0) {
            into = v1_seeds;
            count = &v1_count;
        } else if (into != NULL && *count < MAX_SEEDS && load(argv[i], &into[*count])) {
            (*count)++;
        } else {
            fprintf(stderr, "mutator_check: cannot use %s\n", argv[i]);
            return 2;
        }
    }
    int rc = th_run(cases, sizeof cases / sizeof cases[0]);
    for (size_t i = 0; i < v2_count; i++) {
        free(v2_seeds[i].data);
    }
    for (size_t i = 0; i < v1_count; i++) {
        free(v1_seeds[i].data);
    }
    return rc;
}
