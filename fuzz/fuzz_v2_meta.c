/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The V2 metadata readers on arbitrary bytes; the first byte picks the
 * reader (0 registration info, 1 counterset list, 2 instance list, 3 one
 * counter's registration, 4 single string, 5 provider GUID, 6 string block
 * with the origin from the second byte, 7 counter identifiers). Oracles:
 * rejections inside the input naming a field; after a success every view
 * lies inside the input, references resolve to counters of the set, a
 * second walk sees the same, and every field of every registered counter,
 * counterset, listed instance, string header and identifier is what an
 * independent decoding of the accepted bytes gives (oracle_v2_meta.h).
 * Every call stays within its work budget and
 * every walk of a view within the walk budget (docs/linear-time.md).
 */
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "oracle_v2_meta.h"
#include "perfbuf/v2_meta.h"

static uint64_t walk_reginfo(const perfbuf_v2_reginfo *r, size_t size)
{
    uint64_t digest = 0;
    perfbuf_v2_counter_reg c;
    bool more;
    for (uint32_t i = 0;; i++) {
        BUDGETED(size, more = perfbuf_v2_reginfo_counter(r, i, &c));
        if (!more) {
            break;
        }
        ORACLE(oracle_inside(c.offset, 48, size));
        ORACLE(c.index == i);
        perfbuf_v2_counter_reg target;
        perfbuf_status st;
        /* Every counter finds itself by its id, in O(log n). */
        BUDGETED(size, st = perfbuf_v2_reginfo_find(r, c.id, &target));
        ORACLE(st == PERFBUF_OK && target.index == i);
        if (c.base_id != PERFBUF_V2_NO_ID) {
            BUDGETED(size, st = perfbuf_v2_reginfo_find(r, c.base_id, &target));
            ORACLE(st == PERFBUF_OK);
        }
        digest ^= c.id ^ ((uint64_t)c.type << 32);
    }
    return digest;
}

static const perfbuf_options strict_options = {PERFBUF_STRICT, 0, 0, 0};

static perfbuf_status one_counter(const uint8_t *data, size_t size, perfbuf_error *err)
{
    perfbuf_v2_counter_answer a;
    perfbuf_status st;
    BUDGETED(size, st = perfbuf_v2_counter_reg_parse(data, size, NULL, &a, err));
    if (st == PERFBUF_OK) {
        ORACLE(a.counter.offset == 0 && size >= 48);
        perfbuf_v2_counter_answer s;
        perfbuf_error serr;
        perfbuf_status strict_st;
        BUDGETED(size, strict_st = perfbuf_v2_counter_reg_parse(data, size, &strict_options, &s, &serr));
        if (strict_st == PERFBUF_OK) {
            ORACLE(a.anomalies == 0);
        } else {
            ORACLE(a.anomalies != 0);
        }
    }
    return st;
}

static perfbuf_status single_string(const uint8_t *data, size_t size, perfbuf_error *err)
{
    perfbuf_v2_string s;
    perfbuf_status st;
    BUDGETED(size, st = perfbuf_v2_string_parse(data, size, NULL, &s, err));
    if (st == PERFBUF_OK) {
        ORACLE(oracle_inside(0, s.units * 2 + 2, size));
        char text[64];
        size_t len;
        perfbuf_status conv;
        BUDGETED(size + sizeof text, conv = perfbuf_v2_string_utf8(&s, text, sizeof text, &len));
        ORACLE(oracle_text_status(conv));
        ORACLE(strlen(text) < sizeof text);
    }
    return st;
}

static perfbuf_status provider_guid(const uint8_t *data, size_t size, perfbuf_error *err)
{
    perfbuf_guid g;
    perfbuf_status st;
    BUDGETED(size, st = perfbuf_v2_provider_guid_parse(data, size, &g, err));
    ORACLE((st == PERFBUF_OK) == (size == 16));
    return st;
}

static uint64_t walk_strings(const perfbuf_v2_strings *s)
{
    uint64_t digest = 0;
    perfbuf_v2_counter_string cs;
    bool more;
    for (uint32_t i = 0;; i++) {
        BUDGETED(s->size, more = perfbuf_v2_strings_get(s, i, &cs));
        if (!more) {
            break;
        }
        ORACLE(cs.index == i);
        ORACLE(oracle_inside(cs.offset, 8, s->strings_offset));
        if (cs.present) {
            ORACLE(cs.text_offset >= s->strings_offset);
            ORACLE(oracle_inside(cs.text_offset, cs.units * 2 + 2, s->size));
        }
        perfbuf_v2_counter_string found;
        perfbuf_status st;
        BUDGETED(s->size, st = perfbuf_v2_strings_find(s, cs.counter_id, &found));
        ORACLE(st == PERFBUF_OK);
        ORACLE(found.index == i);
        char text[32];
        size_t len;
        perfbuf_status conv;
        BUDGETED(s->size + sizeof text,
                 conv = perfbuf_v2_counter_string_utf8(s, &cs, text, sizeof text, &len));
        ORACLE(oracle_text_status(conv));
        digest ^= (uint64_t)i ^ ((uint64_t)cs.counter_id << 32) ^ cs.text_offset ^ (cs.units << 16);
    }
    return digest;
}

static perfbuf_status string_block(const uint8_t *data, size_t size, perfbuf_error *err)
{
    if (size == 0) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_v2_string_origin origin = (perfbuf_v2_string_origin)(data[0] % 3);
    perfbuf_v2_strings s;
    perfbuf_status st;
    BUDGETED(size - 1, st = perfbuf_v2_strings_parse(data + 1, size - 1, origin, NULL, &s, err));
    uint64_t *scratch = NULL;
    if (st == PERFBUF_E_SCRATCH_NEEDED) {
        /* Unordered ids: sorted in scratch from the caller, the largest
         * count the bytes allow being one per 8-byte string header. */
        size_t cap = (size - 1) / 8 + 1;
        scratch = malloc(sizeof *scratch * cap);
        if (scratch == NULL) {
            return PERFBUF_E_INVALID_ARGUMENT;
        }
        BUDGETED(size - 1, st = perfbuf_v2_strings_parse_indexed(data + 1, size - 1, origin, NULL,
                                                                 scratch, cap, &s, err));
        ORACLE(st != PERFBUF_E_SCRATCH_NEEDED && st != PERFBUF_E_OUTPUT_TOO_SMALL);
    }
    if (st == PERFBUF_OK) {
        ORACLE(s.origin != PERFBUF_V2_STRINGS_AUTO);
        ORACLE(origin == PERFBUF_V2_STRINGS_AUTO || s.origin == origin);
        ORACLE(s.size <= size - 1);
        uint64_t first;
        uint64_t second;
        WALK_BUDGETED(s.size, first = walk_strings(&s));
        WALK_BUDGETED(s.size, second = walk_strings(&s));
        ORACLE(first == second);
        /* AUTO picks one of the two readings, which must then accept it. */
        perfbuf_v2_strings again;
        perfbuf_error again_err;
        perfbuf_status again_st;
        BUDGETED(size - 1, again_st = perfbuf_v2_strings_parse_indexed(data + 1, size - 1, s.origin,
                                                                       NULL, scratch,
                                                                       scratch ? (size - 1) / 8 + 1 : 0,
                                                                       &again, &again_err));
        ORACLE(again_st == PERFBUF_OK);
        strings_equal_bytes(&s, data + 1, size - 1);
    } else if (st != PERFBUF_E_INVALID_ARGUMENT) {
        ORACLE(err->offset <= size - 1);
    }
    free(scratch);
    /* The offset is checked by the caller against the whole input. */
    return st == PERFBUF_OK ? st : PERFBUF_E_INVALID_ARGUMENT;
}

static uint64_t walk_identifiers(const perfbuf_v2_identifiers *l, size_t size)
{
    uint64_t digest = 0;
    perfbuf_v2_list_iter it;
    perfbuf_v2_identifier id;
    uint32_t n = 0;
    size_t end = 0;
    bool more;
    BUDGETED(size, perfbuf_v2_identifiers_begin(&it));
    for (;;) {
        BUDGETED(size, more = perfbuf_v2_identifiers_next(l, &it, &id));
        if (!more) {
            break;
        }
        ORACLE(id.index == n && id.offset == end && id.size >= 40);
        ORACLE(oracle_inside(id.offset, id.size, size));
        if (id.has_name) {
            ORACLE(id.name_offset == id.offset + 40);
            ORACLE(oracle_inside(id.name_offset, id.name_units * 2 + 2, id.offset + id.size));
        }
        char name[32];
        size_t len;
        perfbuf_status conv;
        BUDGETED(size + sizeof name, conv = perfbuf_v2_identifier_name_utf8(l, &id, name, sizeof name, &len));
        ORACLE(oracle_text_status(conv));
        end = id.offset + id.size;
        digest ^= (uint64_t)n ^ ((uint64_t)id.counter_id << 32) ^ id.query_index ^ (id.name_units << 16);
        n++;
    }
    ORACLE(n == l->count && end == size);
    return digest;
}

static perfbuf_status identifiers(const uint8_t *data, size_t size, perfbuf_error *err)
{
    perfbuf_v2_identifiers l;
    perfbuf_status st;
    BUDGETED(size, st = perfbuf_v2_identifiers_parse(data, size, NULL, &l, err));
    if (st == PERFBUF_OK) {
        uint64_t first;
        uint64_t second;
        WALK_BUDGETED(size, first = walk_identifiers(&l, size));
        WALK_BUDGETED(size, second = walk_identifiers(&l, size));
        ORACLE(first == second);
        identifiers_equal_bytes(&l, data, size);
        perfbuf_v2_identifiers s;
        perfbuf_error serr;
        perfbuf_status strict_st;
        BUDGETED(size, strict_st = perfbuf_v2_identifiers_parse(data, size, &strict_options, &s, &serr));
        if (strict_st == PERFBUF_OK) {
            ORACLE(l.anomalies == 0);
        }
    }
    return st;
}

static uint32_t walk_instance_list(const perfbuf_v2_instance_list *l, size_t size)
{
    perfbuf_v2_list_iter it;
    perfbuf_v2_listed_instance inst;
    uint32_t n = 0;
    bool more;
    BUDGETED(size, perfbuf_v2_instance_list_begin(&it));
    for (;;) {
        BUDGETED(size, more = perfbuf_v2_instance_list_next(l, &it, &inst));
        if (!more) {
            break;
        }
        ORACLE(oracle_inside(inst.name_offset, inst.name_units * 2 + 2, size));
        char name[64];
        size_t len;
        perfbuf_status conv;
        BUDGETED(size + sizeof name, conv = perfbuf_v2_listed_name_utf8(l, &inst, name, sizeof name, &len));
        ORACLE(oracle_text_status(conv));
        n++;
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) {
        return 0;
    }
    uint8_t pick = data[0] % 8;
    data++;
    size--;
    perfbuf_error err;
    perfbuf_status st;
    if (pick == 3) {
        st = one_counter(data, size, &err);
    } else if (pick == 4) {
        st = single_string(data, size, &err);
    } else if (pick == 5) {
        st = provider_guid(data, size, &err);
    } else if (pick == 6) {
        st = string_block(data, size, &err);
    } else if (pick == 7) {
        st = identifiers(data, size, &err);
    } else if (pick == 0) {
        perfbuf_v2_reginfo r;
        BUDGETED(size, st = perfbuf_v2_reginfo_parse(data, size, NULL, &r, &err));
        uint64_t *scratch = NULL;
        /* One entry per 48-byte counter is always enough. */
        size_t cap = size / 48 + 1;
        if (st == PERFBUF_E_SCRATCH_NEEDED) {
            scratch = malloc(sizeof *scratch * cap);
            if (scratch == NULL) {
                return 0;
            }
            BUDGETED(size, st = perfbuf_v2_reginfo_parse_indexed(data, size, NULL, scratch, cap, &r,
                                                                 &err));
            ORACLE(st != PERFBUF_E_SCRATCH_NEEDED && st != PERFBUF_E_OUTPUT_TOO_SMALL);
        }
        if (st == PERFBUF_OK) {
            uint64_t first;
            uint64_t second;
            WALK_BUDGETED(size, first = walk_reginfo(&r, size));
            WALK_BUDGETED(size, second = walk_reginfo(&r, size));
            ORACLE(first == second);
            reginfo_equals_bytes(&r, data, size);
            perfbuf_options strict = {PERFBUF_STRICT, 0, 0, 0};
            perfbuf_v2_reginfo s;
            perfbuf_status strict_st;
            BUDGETED(size, strict_st = perfbuf_v2_reginfo_parse_indexed(
                               data, size, &strict, scratch, scratch ? cap : 0, &s, &err));
            if (strict_st == PERFBUF_OK) {
                ORACLE(r.anomalies == 0);
            }
        }
        free(scratch);
    } else if (pick == 1) {
        perfbuf_v2_countersets l;
        BUDGETED(size, st = perfbuf_v2_countersets_parse(data, size, &l, &err));
        if (st == PERFBUF_OK) {
            perfbuf_guid g;
            char text[PERFBUF_GUID_STRING_SIZE];
            bool more;
            for (size_t i = 0;; i++) {
                BUDGETED(size, more = perfbuf_v2_countersets_get(&l, i, &g));
                if (!more) {
                    break;
                }
                BUDGETED(sizeof g + sizeof text, perfbuf_guid_format(&g, text));
                ORACLE(strlen(text) == 38);
            }
            countersets_equal_bytes(&l, data, size);
        }
    } else {
        perfbuf_v2_instance_list l;
        BUDGETED(size, st = perfbuf_v2_instance_list_parse(data, size, NULL, &l, &err));
        if (st == PERFBUF_OK) {
            uint32_t n = 0;
            WALK_BUDGETED(size, n = walk_instance_list(&l, size));
            ORACLE(n == l.count);
            instance_list_equals_bytes(&l, data, size);
        }
    }
    if (st != PERFBUF_OK && st != PERFBUF_E_INVALID_ARGUMENT) {
        ORACLE(err.offset <= size);
        ORACLE(err.structure != NULL && err.field != NULL);
    }
    return 0;
}
