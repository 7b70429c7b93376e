/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The structure-aware mutators (fuzz/mutator_v2_query.h, fuzz/mutator_v1.h)
 * as an AFL++ custom mutator library. libFuzzer reaches them through the
 * structured harnesses' LLVMFuzzerCustomMutator; afl-fuzz mutates in its
 * own process, not in the target's, so it takes a mutator only from a
 * shared library named in AFL_CUSTOM_MUTATOR_LIBRARY, and calls its
 * afl_custom_fuzz before its own havoc stage.
 *
 * PERFBUF_AFL_MUTATOR picks the format: "v2-query", "v1", "pairing" or
 * "mixed-views" (the two-capture inputs, fuzz/mutator_captures.h). Without it, or
 * with anything else, afl_custom_init stops the process with a message: a
 * run that meant to use the mutator must not go on without it, and afl-fuzz
 * (4.04c) does not check for a null state but passes it to every call.
 *
 * Fuzzer code, not library code: it allocates its output buffer.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mutator_captures.h"

typedef size_t (*afl_mutate_fn)(uint8_t *, size_t, size_t, unsigned int, mut_bytes_fn, bool *);

typedef struct afl_mutator {
    afl_mutate_fn mutate;
    mut_rng rng;
    uint8_t *out;
    size_t cap;
} afl_mutator;

/* The byte fallback has no state argument: one mutator per process, as
 * afl-fuzz loads it, so one generator for it is enough. */
static mut_rng byte_rng;

static size_t byte_fallback(uint8_t *data, size_t size, size_t max_size)
{
    return mut_byte_change(&byte_rng, data, size, max_size);
}

/* The two-capture inputs of the pairing and mixed-views harnesses. */
static size_t pairing_mutate(uint8_t *data, size_t size, size_t max_size, unsigned int seed,
                             mut_bytes_fn bytes, bool *structured)
{
    *structured = true;
    return mcap_mutate_pairing(data, size, max_size, seed, bytes);
}

static size_t mixed_mutate(uint8_t *data, size_t size, size_t max_size, unsigned int seed,
                           mut_bytes_fn bytes, bool *structured)
{
    *structured = true;
    return mcap_mutate_mixed(data, size, max_size, seed, bytes);
}

/* The mutator for a format, or NULL for a format it does not know. */
void *afl_mutator_open(const char *format, unsigned int seed);

/* afl-fuzz passes its afl_state_t, which this library does not use. */
void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size);
void afl_custom_deinit(void *data);

void *afl_mutator_open(const char *format, unsigned int seed)
{
    afl_mutate_fn mutate = NULL;
    if (format != NULL && strcmp(format, "v2-query") == 0) {
        mutate = v2m_mutate;
    } else if (format != NULL && strcmp(format, "v1") == 0) {
        mutate = v1m_mutate;
    } else if (format != NULL && strcmp(format, "pairing") == 0) {
        mutate = pairing_mutate;
    } else if (format != NULL && strcmp(format, "mixed-views") == 0) {
        mutate = mixed_mutate;
    } else {
        return NULL;
    }
    afl_mutator *m = calloc(1, sizeof *m);
    if (m == NULL) {
        return NULL;
    }
    m->mutate = mutate;
    mut_rng_seed(&m->rng, seed);
    mut_rng_seed(&byte_rng, seed ^ 0x5A5A5A5Au);
    return m;
}

void *afl_custom_init(void *afl, unsigned int seed)
{
    (void)afl;
    void *m = afl_mutator_open(getenv("PERFBUF_AFL_MUTATOR"), seed);
    if (m == NULL) {
        fprintf(stderr, "perfbuf AFL++ mutator: set PERFBUF_AFL_MUTATOR to v2-query, v1, pairing "
                        "or mixed-views\n");
        exit(2);
    }
    return m;
}

/*
 * One mutant of buf in a buffer this library owns (afl-fuzz copies it out
 * before the next call). buf itself is left as it is. Returns 0, which
 * afl-fuzz takes as "no mutant", when there is no mutator or no buffer.
 */
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size)
{
    (void)add_buf;
    (void)add_buf_size;
    afl_mutator *m = data;
    if (m == NULL) {
        *out_buf = buf;
        return 0;
    }
    if (buf_size > max_size) {
        buf_size = max_size;
    }
    if (m->cap < max_size) {
        uint8_t *grown = realloc(m->out, max_size);
        if (grown == NULL) {
            *out_buf = buf;
            return 0;
        }
        m->out = grown;
        m->cap = max_size;
    }
    if (buf_size > 0) {
        memcpy(m->out, buf, buf_size);
    }
    bool structured;
    size_t n = m->mutate(m->out, buf_size, max_size, mut_rand(&m->rng, UINT32_MAX), byte_fallback,
                         &structured);
    *out_buf = m->out;
    return n;
}

void afl_custom_deinit(void *data)
{
    afl_mutator *m = data;
    if (m != NULL) {
        free(m->out);
        free(m);
    }
}
