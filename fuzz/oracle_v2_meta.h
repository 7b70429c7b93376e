/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Views equal validation, for the V2 metadata readers: shared by
 * fuzz/fuzz_v2_meta.c and fuzz/fuzz_v2_crosscheck.c. The views read the
 * fields validation proved at their offsets without judging the bytes
 * again, so each function here decodes an accepted buffer a second time,
 * independently, from its bytes as docs/formats.md lays it out, and
 * requires every field every view returns to be what the bytes say (and
 * no item past the last). Nothing here calls a library decoder.
 */
#ifndef PERFBUF_FUZZ_ORACLE_V2_META_H
#define PERFBUF_FUZZ_ORACLE_V2_META_H

#include <string.h>

#include "oracle.h"
#include "perfbuf/v2_meta.h"

static inline uint32_t ref_u32(const uint8_t *data, size_t size, size_t off)
{
    ORACLE(oracle_inside(off, 4, size));
    return (uint32_t)data[off] | (uint32_t)data[off + 1] << 8 | (uint32_t)data[off + 2] << 16 |
           (uint32_t)data[off + 3] << 24;
}

/* A GUID's 16 bytes: Data1, Data2, Data3 little-endian, then Data4. */
static inline int ref_guid_equals(const perfbuf_guid *g, const uint8_t *data, size_t size, size_t off)
{
    ORACLE(oracle_inside(off, 16, size));
    uint32_t d1 = ref_u32(data, size, off);
    uint16_t d2 = (uint16_t)(data[off + 4] | data[off + 5] << 8);
    uint16_t d3 = (uint16_t)(data[off + 6] | data[off + 7] << 8);
    return g->data1 == d1 && g->data2 == d2 && g->data3 == d3 &&
           memcmp(g->data4, data + off + 8, 8) == 0;
}

/* The code units before the first NUL code unit of [from, end), which the
 * accepted bytes hold. */
static inline size_t ref_units_to_nul(const uint8_t *data, size_t from, size_t end)
{
    size_t units = 0;
    for (;;) {
        ORACLE(oracle_inside(from + units * 2, 2, end));
        if (data[from + units * 2] == 0 && data[from + units * 2 + 1] == 0) {
            return units;
        }
        units++;
    }
}

/*
 * An accepted registration: PERF_COUNTERSET_REG_INFO (32 bytes), then
 * NumCounters PERF_COUNTER_REG_INFO of 48 bytes; every field of every
 * counter, each found again by its id.
 */
static inline void reginfo_equals_bytes(const perfbuf_v2_reginfo *r, const uint8_t *data, size_t size)
{
    uint32_t count = ref_u32(data, size, 24);
    ORACLE(r->data == data && r->size == size);
    ORACLE(r->counter_count == count);
    ORACLE(ref_guid_equals(&r->counterset, data, size, 0));
    ORACLE(r->detail_level == ref_u32(data, size, 20));
    ORACLE(r->instance_type == ref_u32(data, size, 28));
    for (uint32_t i = 0; i < count; i++) {
        size_t at = 32 + (size_t)i * 48;
        perfbuf_v2_counter_reg c;
        ORACLE(perfbuf_v2_reginfo_counter(r, i, &c));
        ORACLE(c.index == i && c.offset == at);
        ORACLE(c.id == ref_u32(data, size, at) && c.type == ref_u32(data, size, at + 4));
        ORACLE(c.attributes ==
               ((uint64_t)ref_u32(data, size, at + 8) | (uint64_t)ref_u32(data, size, at + 12) << 32));
        ORACLE(c.detail_level == ref_u32(data, size, at + 16));
        ORACLE((uint32_t)c.default_scale == ref_u32(data, size, at + 20));
        ORACLE(c.base_id == ref_u32(data, size, at + 24));
        ORACLE(c.perf_time_id == ref_u32(data, size, at + 28));
        ORACLE(c.perf_freq_id == ref_u32(data, size, at + 32));
        ORACLE(c.multi_id == ref_u32(data, size, at + 36));
        ORACLE(c.aggregate == ref_u32(data, size, at + 40));
        perfbuf_v2_counter_reg found;
        ORACLE(perfbuf_v2_reginfo_find(r, c.id, &found) == PERFBUF_OK);
        ORACLE(found.index == i && found.offset == at);
    }
    perfbuf_v2_counter_reg past;
    ORACLE(!perfbuf_v2_reginfo_counter(r, count, &past));
}

/* An accepted instance list: PERF_INSTANCE_HEADER (Size, InstanceId), a
 * NUL-terminated name, back to back to the end. */
static inline void instance_list_equals_bytes(const perfbuf_v2_instance_list *l, const uint8_t *data,
                                       size_t size)
{
    perfbuf_v2_list_iter it;
    perfbuf_v2_instance_list_begin(&it);
    size_t at = 0;
    uint32_t n = 0;
    while (at < size) {
        uint32_t inst_size = ref_u32(data, size, at);
        ORACLE(inst_size >= 10 && oracle_inside(at, inst_size, size));
        size_t units = ref_units_to_nul(data, at + 8, at + inst_size);
        perfbuf_v2_listed_instance inst;
        ORACLE(perfbuf_v2_instance_list_next(l, &it, &inst));
        ORACLE(inst.index == n && inst.offset == at && inst.id == ref_u32(data, size, at + 4));
        ORACLE(inst.name_offset == at + 8 && inst.name_units == units);
        at += inst_size;
        n++;
    }
    perfbuf_v2_listed_instance past;
    ORACLE(n == l->count && !perfbuf_v2_instance_list_next(l, &it, &past));
}

/*
 * Accepted counter identifiers: PERF_COUNTER_IDENTIFIER (CounterSetGuid,
 * Status, Size, CounterId, InstanceId, Index, Reserved: 40 bytes), then,
 * when Size leaves room, a NUL-terminated name; back to back to the end.
 */
static inline void identifiers_equal_bytes(const perfbuf_v2_identifiers *l, const uint8_t *data,
                                    size_t size)
{
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifiers_begin(&it);
    size_t at = 0;
    uint32_t n = 0;
    while (at < size) {
        uint32_t id_size = ref_u32(data, size, at + 20);
        ORACLE(id_size >= 40 && oracle_inside(at, id_size, size));
        perfbuf_v2_identifier id;
        ORACLE(perfbuf_v2_identifiers_next(l, &it, &id));
        ORACLE(id.index == n && id.offset == at && id.size == id_size);
        ORACLE(ref_guid_equals(&id.counterset, data, size, at));
        ORACLE(id.status == ref_u32(data, size, at + 16));
        ORACLE(id.counter_id == ref_u32(data, size, at + 24));
        ORACLE(id.instance_id == ref_u32(data, size, at + 28));
        ORACLE(id.query_index == ref_u32(data, size, at + 32));
        ORACLE(id.has_name == (id_size > 40));
        if (id_size > 40) {
            ORACLE(id.name_offset == at + 40);
            ORACLE(id.name_units == ref_units_to_nul(data, at + 40, at + id_size));
        }
        at += id_size;
        n++;
    }
    perfbuf_v2_identifier past;
    ORACLE(n == l->count && !perfbuf_v2_identifiers_next(l, &it, &past));
}

/*
 * An accepted string block: PERF_STRING_BUFFER_HEADER (dwSize, dwCounters),
 * dwCounters PERF_STRING_COUNTER_HEADER (dwCounterId, dwOffset), and each
 * string at its origin (the block, or the end of the header array) plus
 * dwOffset up to its NUL; 0xFFFFFFFF is no string. Every header's fields,
 * each found again by its id.
 */
static inline void strings_equal_bytes(const perfbuf_v2_strings *s, const uint8_t *data, size_t size)
{
    uint32_t block_size = ref_u32(data, size, 0);
    uint32_t count = ref_u32(data, size, 4);
    size_t strings_offset = 8 + (size_t)count * 8;
    ORACLE(s->data == data && s->size == block_size && block_size <= size);
    ORACLE(s->count == count && s->strings_offset == strings_offset);
    ORACLE(s->origin == PERFBUF_V2_STRINGS_FROM_BLOCK ||
           s->origin == PERFBUF_V2_STRINGS_FROM_ARRAY_END);
    size_t origin = s->origin == PERFBUF_V2_STRINGS_FROM_ARRAY_END ? strings_offset : 0;
    for (uint32_t i = 0; i < count; i++) {
        size_t header_at = 8 + (size_t)i * 8;
        uint32_t offset = ref_u32(data, block_size, header_at + 4);
        perfbuf_v2_counter_string cs;
        ORACLE(perfbuf_v2_strings_get(s, i, &cs));
        ORACLE(cs.index == i && cs.offset == header_at);
        ORACLE(cs.counter_id == ref_u32(data, block_size, header_at));
        ORACLE(cs.present == (offset != PERFBUF_V2_NO_STRING));
        if (cs.present) {
            size_t text = origin + offset;
            ORACLE(text >= strings_offset && text < block_size);
            ORACLE(cs.text_offset == text);
            ORACLE(cs.units == ref_units_to_nul(data, text, block_size));
        } else {
            ORACLE(cs.text_offset == 0 && cs.units == 0);
        }
        perfbuf_v2_counter_string found;
        ORACLE(perfbuf_v2_strings_find(s, cs.counter_id, &found) == PERFBUF_OK);
        ORACLE(found.index == i && found.present == cs.present &&
               found.text_offset == cs.text_offset && found.units == cs.units);
    }
    perfbuf_v2_counter_string past;
    ORACLE(!perfbuf_v2_strings_get(s, count, &past));
}

/* An accepted counterset list: 16-byte GUIDs back to back. */
static inline void countersets_equal_bytes(const perfbuf_v2_countersets *l, const uint8_t *data,
                                    size_t size)
{
    ORACLE(l->count == size / 16);
    for (size_t i = 0; i < size / 16; i++) {
        perfbuf_guid g;
        ORACLE(perfbuf_v2_countersets_get(l, i, &g));
        ORACLE(ref_guid_equals(&g, data, size, i * 16));
    }
    perfbuf_guid past;
    ORACLE(!perfbuf_v2_countersets_get(l, size / 16, &past));
}

#endif
