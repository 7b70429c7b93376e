/*
 * The V2 metadata readers on arbitrary bytes; the first byte picks the
 * reader (registration info, counterset list, instance list). Oracles:
 * rejections inside the input naming a field; after a success every view
 * lies inside the input, references resolve to counters of the set, and a
 * second walk sees the same.
 */
#include <string.h>

#include "oracle.h"
#include "perfbuf/v2_meta.h"

static uint64_t walk_reginfo(const perfbuf_v2_reginfo *r, size_t size)
{
    uint64_t digest = 0;
    perfbuf_v2_counter_reg c;
    for (uint32_t i = 0; perfbuf_v2_reginfo_counter(r, i, &c); i++) {
        ORACLE(oracle_inside(c.offset, 48, size));
        ORACLE(c.index == i);
        perfbuf_v2_counter_reg target;
        if (c.base_id != PERFBUF_V2_NO_ID) {
            ORACLE(perfbuf_v2_reginfo_find(r, c.base_id, &target) == PERFBUF_OK);
        }
        digest ^= c.id ^ ((uint64_t)c.type << 32);
    }
    return digest;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) {
        return 0;
    }
    uint8_t pick = data[0] % 3;
    data++;
    size--;
    perfbuf_error err;
    perfbuf_status st;
    if (pick == 0) {
        perfbuf_v2_reginfo r;
        st = perfbuf_v2_reginfo_parse(data, size, NULL, &r, &err);
        if (st == PERFBUF_OK) {
            ORACLE(walk_reginfo(&r, size) == walk_reginfo(&r, size));
            perfbuf_options strict = {PERFBUF_STRICT, 0, 0, 0};
            perfbuf_v2_reginfo s;
            if (perfbuf_v2_reginfo_parse(data, size, &strict, &s, &err) == PERFBUF_OK) {
                ORACLE(r.anomalies == 0);
            }
        }
    } else if (pick == 1) {
        perfbuf_v2_countersets l;
        st = perfbuf_v2_countersets_parse(data, size, &l, &err);
        if (st == PERFBUF_OK) {
            perfbuf_guid g;
            char text[PERFBUF_GUID_STRING_SIZE];
            for (size_t i = 0; perfbuf_v2_countersets_get(&l, i, &g); i++) {
                perfbuf_guid_format(&g, text);
                ORACLE(strlen(text) == 38);
            }
        }
    } else {
        perfbuf_v2_instance_list l;
        st = perfbuf_v2_instance_list_parse(data, size, NULL, &l, &err);
        if (st == PERFBUF_OK) {
            perfbuf_v2_list_iter it;
            perfbuf_v2_listed_instance inst;
            uint32_t n = 0;
            perfbuf_v2_instance_list_begin(&it);
            while (perfbuf_v2_instance_list_next(&l, &it, &inst)) {
                ORACLE(oracle_inside(inst.name_offset, inst.name_units * 2 + 2, size));
                char name[64];
                size_t len;
                perfbuf_status conv = perfbuf_v2_listed_name_utf8(&l, &inst, name, sizeof name, &len);
                ORACLE(conv == PERFBUF_OK || conv == PERFBUF_E_OUTPUT_TOO_SMALL);
                n++;
            }
            ORACLE(n == l.count);
        }
    }
    if (st != PERFBUF_OK && st != PERFBUF_E_INVALID_ARGUMENT) {
        ORACLE(err.offset <= size);
        ORACLE(err.structure != NULL && err.field != NULL);
    }
    return 0;
}
