/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The V1 data-block reader under structure-aware mutation: the same oracle
 * as fuzz/fuzz_v1.c (fuzz/oracle_v1.h), fed by a mutator that
 * changes one structure at a time and rewrites every size and count around
 * it (fuzz/mutator_v1.h), so that most mutants get past the size
 * checks into the walk and the views. One mutation in eight, and every
 * input the mutator cannot read as a tree, still gets the engine's byte
 * mutation, so broken sizes are explored here too.
 */
#include "oracle_v1.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return oracle_v1(data, size);
}

/* Only engine builds have LLVMFuzzerMutate; the replayer runs the oracle
 * alone. */
#ifdef PERFBUF_FUZZ_MUTATOR
#include "mutator_v1.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    bool structured;
    return v1m_mutate(data, size, max_size, seed, LLVMFuzzerMutate, &structured);
}
#endif
