/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "builder_v1.h"

#include <string.h>

#include "perfbuf/counter_types.h"

void tb_v1_begin(tb_v1 *v, const char *system_name)
{
    tb_init(&v->buf);
    v->objects = 0;
    tb_bytes(&v->buf, "P\0E\0R\0F\0", 8);
    tb_u32(&v->buf, 1);  /* LittleEndian */
    tb_u32(&v->buf, 1);  /* Version */
    tb_u32(&v->buf, 1);  /* Revision */
    tb_u32(&v->buf, 0);  /* TotalByteLength */
    tb_u32(&v->buf, 0);  /* HeaderLength */
    tb_u32(&v->buf, 0);  /* NumObjectTypes */
    tb_u32(&v->buf, 0xFFFFFFFFu); /* DefaultObject */
    const uint16_t st[8] = {2026, 11, 0, 22, 10, 0, 0, 0};
    for (int i = 0; i < 8; i++) {
        tb_u16(&v->buf, st[i]);
    }
    tb_u32(&v->buf, 0);             /* padding */
    tb_u64(&v->buf, 123456789);     /* PerfTime */
    tb_u64(&v->buf, 10000000);      /* PerfFreq */
    tb_u64(&v->buf, 134398148561470699ull); /* PerfTime100nSec */
    tb_u32(&v->buf, 0);             /* SystemNameLength */
    tb_u32(&v->buf, 88);            /* SystemNameOffset */
    size_t name_bytes = tb_utf16(&v->buf, system_name, 1);
    tb_patch_u32(&v->buf, 80, (uint32_t)name_bytes);
    tb_pad8_from(&v->buf, 0);
    tb_patch_u32(&v->buf, 24, (uint32_t)v->buf.len);
}

void tb_v1_object_begin(tb_v1 *v, uint32_t title_index, int single, uint32_t code_page)
{
    v->object_start = v->buf.len;
    v->counters = 0;
    v->instances = 0;
    v->code_page = code_page;
    v->single = single;
    tb_u32(&v->buf, 0);           /* TotalByteLength */
    tb_u32(&v->buf, 0);           /* DefinitionLength */
    tb_u32(&v->buf, 64);          /* HeaderLength */
    tb_u32(&v->buf, title_index);
    tb_u32(&v->buf, 0);
    tb_u32(&v->buf, title_index + 1);
    tb_u32(&v->buf, 0);
    tb_u32(&v->buf, 100);         /* DetailLevel */
    tb_u32(&v->buf, 0);           /* NumCounters */
    tb_u32(&v->buf, 0);           /* DefaultCounter */
    tb_u32(&v->buf, single ? 0xFFFFFFFFu : 0); /* NumInstances */
    tb_u32(&v->buf, code_page);
    tb_u64(&v->buf, 5555);        /* PerfTime */
    tb_u64(&v->buf, 1000);        /* PerfFreq */
}

void tb_v1_counter(tb_v1 *v, uint32_t title_index, uint32_t type, uint32_t size, uint32_t offset)
{
    tb_u32(&v->buf, 40);
    tb_u32(&v->buf, title_index);
    tb_u32(&v->buf, 0);
    tb_u32(&v->buf, title_index ? title_index + 1 : 0);
    tb_u32(&v->buf, 0);
    tb_u32(&v->buf, 0);           /* DefaultScale */
    tb_u32(&v->buf, 100);         /* DetailLevel */
    tb_u32(&v->buf, type);
    tb_u32(&v->buf, size);
    tb_u32(&v->buf, offset);
    v->counters++;
}

void tb_v1_definitions_end(tb_v1 *v)
{
    tb_patch_u32(&v->buf, v->object_start + 4, (uint32_t)(v->buf.len - v->object_start));
    tb_patch_u32(&v->buf, v->object_start + 32, v->counters);
}

void tb_v1_instance(tb_v1 *v, const char *name, uint32_t parent_title, uint32_t parent_instance)
{
    size_t start = v->buf.len;
    tb_u32(&v->buf, 0);
    tb_u32(&v->buf, parent_title);
    tb_u32(&v->buf, parent_instance);
    tb_u32(&v->buf, 0xFFFFFFFFu); /* UniqueID: not used */
    tb_u32(&v->buf, 24);
    tb_u32(&v->buf, 0);
    size_t name_bytes;
    if (v->code_page == 0) {
        name_bytes = tb_utf16(&v->buf, name, 1);
    } else {
        name_bytes = strlen(name) + 1;
        tb_bytes(&v->buf, name, name_bytes);
    }
    tb_patch_u32(&v->buf, start + 20, (uint32_t)name_bytes);
    tb_pad8_from(&v->buf, start);
    tb_patch_u32(&v->buf, start, (uint32_t)(v->buf.len - start));
    v->instances++;
}

void tb_v1_counter_block(tb_v1 *v, const uint8_t *data, uint32_t size)
{
    size_t start = v->buf.len;
    tb_u32(&v->buf, 0);
    tb_bytes(&v->buf, data, size);
    tb_pad8_from(&v->buf, start);
    tb_patch_u32(&v->buf, start, (uint32_t)(v->buf.len - start));
}

void tb_v1_object_end(tb_v1 *v)
{
    tb_pad8_from(&v->buf, v->object_start);
    tb_patch_u32(&v->buf, v->object_start, (uint32_t)(v->buf.len - v->object_start));
    if (!v->single) {
        tb_patch_u32(&v->buf, v->object_start + 40, v->instances);
    }
    v->objects++;
}

void tb_v1_end(tb_v1 *v)
{
    tb_patch_u32(&v->buf, 20, (uint32_t)v->buf.len);
    tb_patch_u32(&v->buf, 28, v->objects);
}

void tb_put32(uint8_t *block_data, uint32_t counter_offset, uint32_t v)
{
    uint8_t *p = block_data + counter_offset - 4;
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

void tb_put64(uint8_t *block_data, uint32_t counter_offset, uint64_t v)
{
    tb_put32(block_data, counter_offset, (uint32_t)v);
    tb_put32(block_data, counter_offset + 4, (uint32_t)(v >> 32));
}

/*
 * A Global-like block: Process (3 instances, two named svchost), Thread
 * (4 instances whose parents are processes, a raw fraction with its base)
 * and Memory (one counter block, a precision timer with its timestamp).
 */
tb_v1 tb_v1_sample_global(void)
{
    return tb_v1_sample_global_of("VM");
}

tb_v1 tb_v1_sample_global_of(const char *system_name)
{
    tb_v1 v;
    tb_v1_begin(&v, system_name);

    tb_v1_object_begin(&v, TB_V1_PROCESS, 0, 0);
    tb_v1_counter(&v, 6, PERF_100NSEC_TIMER, 8, 8);
    tb_v1_counter(&v, 784, PERF_COUNTER_RAWCOUNT, 4, 16);
    tb_v1_counter(&v, 680, PERF_COUNTER_RAWCOUNT, 4, 20);
    tb_v1_definitions_end(&v);
    const char *procs[3] = {"Idle", "svchost", "svchost"};
    for (uint32_t i = 0; i < 3; i++) {
        uint8_t data[20] = {0};
        tb_put64(data, 8, 1000000ull * (i + 1));
        tb_put32(data, 16, 100 + i);
        tb_put32(data, 20, 2 + i);
        tb_v1_instance(&v, procs[i], 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);

    tb_v1_object_begin(&v, TB_V1_THREAD, 0, 0);
    tb_v1_counter(&v, 146, PERF_COUNTER_COUNTER, 4, 4);
    tb_v1_counter(&v, 1000, PERF_RAW_FRACTION, 4, 8);
    tb_v1_counter(&v, 0, PERF_RAW_BASE, 4, 12);
    tb_v1_definitions_end(&v);
    const char *threads[4] = {"0", "0", "1", "0"};
    const uint32_t parents[4] = {0, 1, 1, 2};
    for (uint32_t i = 0; i < 4; i++) {
        uint8_t data[12] = {0};
        tb_put32(data, 4, 7000 + i);
        tb_put32(data, 8, 25);
        tb_put32(data, 12, 100);
        tb_v1_instance(&v, threads[i], TB_V1_PROCESS, parents[i]);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);

    tb_v1_object_begin(&v, TB_V1_MEMORY, 1, 0);
    tb_v1_counter(&v, 1380, PERF_COUNTER_LARGE_RAWCOUNT, 8, 8);
    tb_v1_counter(&v, 200, PERF_PRECISION_100NS_TIMER, 8, 16);
    tb_v1_counter(&v, 0, PERF_PRECISION_TIMESTAMP, 8, 24);
    tb_v1_definitions_end(&v);
    uint8_t mem[28] = {0};
    tb_put64(mem, 8, 8589934592ull);
    tb_put64(mem, 16, 4000);
    tb_put64(mem, 24, 10000);
    tb_v1_counter_block(&v, mem, sizeof mem);
    tb_v1_object_end(&v);

    tb_v1_end(&v);
    return v;
}

