/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The unchecked V1 walk (unchecked_walk.h): what a reader that trusts the
 * buffer does, written from the layouts in docs/formats.md. Each structure
 * is found by adding the lengths the previous one states; no length,
 * offset or count is compared with anything. The benchmark's own buffers
 * are well formed, which is the only reason this does not read out of
 * bounds.
 */
#include "unchecked_walk.h"

#include <string.h>

#define MAX_COUNTERS 256

static uint32_t u32_at(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static uint64_t u64_at(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The values of one counter block, by the definitions' offsets and sizes. */
static uint64_t sum_block(const uint8_t *block, const uint32_t *offsets, const uint32_t *sizes,
                          uint32_t counters)
{
    uint64_t sum = 0;
    for (uint32_t k = 0; k < counters; k++) {
        sum += sizes[k] == 8 ? u64_at(block + offsets[k]) : u32_at(block + offsets[k]);
    }
    return sum;
}

uint64_t unchecked_v1_sum_values(const uint8_t *data)
{
    uint32_t header_length = u32_at(data + 24);     /* PERF_DATA_BLOCK.HeaderLength */
    uint32_t objects = u32_at(data + 28);           /* NumObjectTypes */
    const uint8_t *object = data + header_length;
    uint32_t offsets[MAX_COUNTERS];
    uint32_t sizes[MAX_COUNTERS];
    uint64_t sum = 0;
    for (uint32_t i = 0; i < objects; i++) {
        uint32_t total = u32_at(object);            /* PERF_OBJECT_TYPE.TotalByteLength */
        uint32_t definition = u32_at(object + 4);   /* DefinitionLength */
        uint32_t header = u32_at(object + 8);       /* HeaderLength */
        uint32_t counters = u32_at(object + 32);    /* NumCounters */
        int32_t instances = (int32_t)u32_at(object + 40);
        const uint8_t *def = object + header;
        for (uint32_t k = 0; k < counters && k < MAX_COUNTERS; k++) {
            sizes[k] = u32_at(def + 32);            /* CounterSize */
            offsets[k] = u32_at(def + 36);          /* CounterOffset */
            def += u32_at(def);                     /* ByteLength */
        }
        counters = counters < MAX_COUNTERS ? counters : MAX_COUNTERS;
        const uint8_t *p = object + definition;
        if (instances < 0) {
            sum += sum_block(p, offsets, sizes, counters);
        }
        for (int32_t n = 0; n < instances; n++) {
            p += u32_at(p);                         /* PERF_INSTANCE_DEFINITION.ByteLength */
            sum += sum_block(p, offsets, sizes, counters);
            p += u32_at(p);                         /* PERF_COUNTER_BLOCK.ByteLength */
        }
        object += total;
    }
    return sum;
}
