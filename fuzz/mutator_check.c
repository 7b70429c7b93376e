/*
 * Checks the structure-aware mutators without a fuzzing engine: from each
 * valid seed given on the command line, many single mutations, counting how
 * many mutants the library still accepts (lenient parse), against the same
 * number of plain byte mutations. The engine's LLVMFuzzerMutate is replaced
 * by a small byte mutator of the same kind (flip, set, insert, erase,
 * interesting values), which both sides use.
 * Usage: mutator_check --v2 SEED... --v1 SEED...
 */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "mutator_v1.h"
#include "mutator_v2_query.h"
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

/* A stand-in for LLVMFuzzerMutate: one byte-level change within max_size. */
static size_t byte_mutate(uint8_t *data, size_t size, size_t max_size)
{
    size_t at = size == 0 ? 0 : mut_rand(&byte_rng, (uint32_t)size);
    switch (mut_rand(&byte_rng, 5)) {
    case 0:
        if (size > 0) {
            data[at] ^= (uint8_t)(1u << mut_rand(&byte_rng, 8));
        }
        return size;
    case 1:
        if (size > 0) {
            data[at] = (uint8_t)mut_rand(&byte_rng, 256);
        }
        return size;
    case 2:
        if (size >= max_size) {
            return size;
        }
        memmove(data + at + 1, data + at, size - at);
        data[at] = (uint8_t)mut_rand(&byte_rng, 256);
        return size + 1;
    case 3:
        if (size <= 1) {
            return size;
        }
        memmove(data + at, data + at + 1, size - at - 1);
        return size - 1;
    default:
        if (size >= 4) {
            at = mut_rand(&byte_rng, (uint32_t)(size - 3));
            mut_put32(data + at, mut_interesting32(&byte_rng, mut_get32(data + at)));
        }
        return size;
    }
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

static const th_case cases[] = {
    TH_CASE(v2_mutants_mostly_valid),
    TH_CASE(v1_mutants_mostly_valid),
    TH_CASE(unreadable_inputs_fall_back),
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
