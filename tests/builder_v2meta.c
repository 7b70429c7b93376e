/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "builder_v2meta.h"

#include "perfbuf/counter_types.h"
#include "perfbuf/v2_query.h"

/* The Processor Information counterset of Microsoft's PerfLib V2 consumer
 * example: 31 counters, id 29 absent, three base counters (22 for 21, 25
 * for 24, 27 for 26 and 28), as that example lists them. */
const tb_reg_row tb_processor_information[TB_PROCESSOR_INFORMATION_COUNTERS] = {
    {0, PERF_100NSEC_TIMER_INV, PERFBUF_V2_NO_ID, "% Processor Time"},
    {1, PERF_100NSEC_TIMER, PERFBUF_V2_NO_ID, "% User Time"},
    {2, PERF_100NSEC_TIMER, PERFBUF_V2_NO_ID, "% Privileged Time"},
    {3, PERF_COUNTER_COUNTER, PERFBUF_V2_NO_ID, "Interrupts / sec"},
    {4, PERF_100NSEC_TIMER, PERFBUF_V2_NO_ID, "% DPC Time"},
    {5, PERF_100NSEC_TIMER, PERFBUF_V2_NO_ID, "% Interrupt Time"},
    {6, PERF_COUNTER_COUNTER, PERFBUF_V2_NO_ID, "DPCs Queued / sec"},
    {7, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, "DPC Rate"},
    {8, PERF_100NSEC_TIMER, PERFBUF_V2_NO_ID, "% Idle Time"},
    {9, PERF_100NSEC_TIMER, PERFBUF_V2_NO_ID, "% C1 Time"},
    {10, PERF_100NSEC_TIMER, PERFBUF_V2_NO_ID, "% C2 Time"},
    {11, PERF_100NSEC_TIMER, PERFBUF_V2_NO_ID, "% C3 Time"},
    {12, PERF_COUNTER_BULK_COUNT, PERFBUF_V2_NO_ID, "C1 Transitions / sec"},
    {13, PERF_COUNTER_BULK_COUNT, PERFBUF_V2_NO_ID, "C2 Transitions / sec"},
    {14, PERF_COUNTER_BULK_COUNT, PERFBUF_V2_NO_ID, "C3 Transitions / sec"},
    {15, PERF_100NSEC_TIMER_INV, PERFBUF_V2_NO_ID, "% Priority Time"},
    {16, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, "Parking Status"},
    {17, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, "Processor Frequency"},
    {18, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, "% of Maximum Frequency"},
    {19, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, "Processor State Flags"},
    {20, PERF_COUNTER_COUNTER, PERFBUF_V2_NO_ID, "Clock Interrupts / sec"},
    {21, PERF_PRECISION_100NS_TIMER, 22, "Average Idle Time"},
    {22, PERF_PRECISION_TIMESTAMP, PERFBUF_V2_NO_ID, "Average Idle Time Base"},
    {23, PERF_COUNTER_BULK_COUNT, PERFBUF_V2_NO_ID, "Idle Break Events / sec"},
    {24, PERF_AVERAGE_BULK, 25, "% Processor Performance"},
    {25, PERF_AVERAGE_BASE, PERFBUF_V2_NO_ID, "% Processor Performance Base"},
    {26, PERF_AVERAGE_BULK, 27, "% Processor Utility"},
    {27, PERF_AVERAGE_BASE, PERFBUF_V2_NO_ID, "% Utility Base"},
    {28, PERF_AVERAGE_BULK, 27, "% Privileged Utility"},
    {30, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, "% Performance Limit"},
    {31, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, "Performance Limit Flags"},
};

const uint8_t tb_processor_information_guid[16] = {0x1a, 0x72, 0xfc, 0xb4, 0x78, 0x03,
                                                   0x6f, 0x47, 0x89, 0xba, 0xa5, 0xa7,
                                                   0x9f, 0x81, 0x0b, 0x36};

tb_buf tb_v2_reginfo(const tb_reg_row *rows, uint32_t count, uint32_t instance_type)
{
    tb_buf b;
    tb_init(&b);
    tb_bytes(&b, tb_processor_information_guid, 16);
    tb_u32(&b, 0);            /* CounterSetType */
    tb_u32(&b, 100);          /* DetailLevel: novice */
    tb_u32(&b, count);
    tb_u32(&b, instance_type);
    for (uint32_t i = 0; i < count; i++) {
        tb_u32(&b, rows[i].id);
        tb_u32(&b, rows[i].type);
        tb_u64(&b, 0);        /* Attrib */
        tb_u32(&b, 100);      /* DetailLevel */
        tb_u32(&b, 0);        /* DefaultScale */
        tb_u32(&b, rows[i].base);
        tb_u32(&b, PERFBUF_V2_NO_ID);
        tb_u32(&b, PERFBUF_V2_NO_ID);
        tb_u32(&b, PERFBUF_V2_NO_ID);
        tb_u32(&b, 0);        /* AggregateFunc */
        tb_u32(&b, 0);        /* Reserved */
    }
    return b;
}

tb_v2 tb_v2_processor_information_query(const char *const *instances, uint32_t count)
{
    uint32_t ids[TB_PROCESSOR_INFORMATION_COUNTERS];
    for (uint32_t k = 0; k < TB_PROCESSOR_INFORMATION_COUNTERS; k++) {
        ids[k] = tb_processor_information[k].id;
    }
    tb_v2 v;
    tb_v2_begin(&v, 25368570629, 134398148561470699, 10000000);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(&v, ids, TB_PROCESSOR_INFORMATION_COUNTERS);
    tb_v2_instances_begin(&v, count);
    for (uint32_t i = 0; i < count; i++) {
        tb_v2_instance(&v, i, instances[i]);
        for (uint32_t k = 0; k < TB_PROCESSOR_INFORMATION_COUNTERS; k++) {
            uint64_t value = 1000u * (i + 1) + ids[k];
            if (perfbuf_counter_type_size(tb_processor_information[k].type) == 8) {
                tb_v2_u64(&v, value);
            } else {
                tb_v2_u32(&v, (uint32_t)value);
            }
        }
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    return v;
}

tb_buf tb_v2_string_answer(const char *utf8)
{
    tb_buf b;
    tb_init(&b);
    tb_utf16(&b, utf8, 1);
    return b;
}

tb_buf tb_v2_strings(const tb_reg_row *rows, uint32_t count, perfbuf_v2_string_origin origin)
{
    tb_buf b;
    tb_init(&b);
    tb_u32(&b, 0);            /* dwSize, patched below */
    tb_u32(&b, count);
    for (uint32_t i = 0; i < count; i++) {
        tb_u32(&b, rows[i].id);
        tb_u32(&b, PERFBUF_V2_NO_STRING);
    }
    size_t strings_at = b.len;
    size_t origin_at = origin == PERFBUF_V2_STRINGS_FROM_ARRAY_END ? strings_at : 0;
    for (uint32_t i = 0; i < count; i++) {
        if (rows[i].name != NULL) {
            tb_patch_u32(&b, 8 + 8 * (size_t)i + 4, (uint32_t)(b.len - origin_at));
            tb_utf16(&b, rows[i].name, 1);
        }
    }
    tb_pad8_from(&b, 0);
    tb_patch_u32(&b, 0, (uint32_t)b.len);
    return b;
}

void tb_v2_identifier(tb_buf *b, const uint8_t guid[16], uint32_t status, uint32_t counter_id,
                      uint32_t instance_id, uint32_t query_index, const char *name)
{
    size_t start = b->len;
    tb_bytes(b, guid, 16);
    tb_u32(b, status);
    tb_u32(b, 0);             /* Size, patched below */
    tb_u32(b, counter_id);
    tb_u32(b, instance_id);
    tb_u32(b, query_index);
    tb_u32(b, 0);             /* Reserved */
    if (name != NULL) {
        tb_utf16(b, name, 1);
        tb_pad8_from(b, start);
    }
    tb_patch_u32(b, start + 20, (uint32_t)(b->len - start));
}
