/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Two V1 captures and a counter path from one input, paired object by
 * object, with the formatted and raw arrays of their first counters.
 *
 * Input: byte 0 selects the format flags (bits 0-1) and the format (bit 2:
 * V2 query data); bytes 1-2 (little-endian) are the path's length, bytes
 * 3-6 the older capture's; V2 inputs then have 4 bytes of a counterset
 * registration's length. Then the path, the older capture, for V2 the
 * registration, and the newer capture (the rest). A path that does not
 * parse is replaced by none (every instance). V2 blocks are paired with the
 * older buffer's block at the same position.
 *
 * Oracles: every call within the work budget of its inputs (fuzz/oracle.h),
 * the pairing's counts add up, no older instance is paired twice, a
 * matched pair's names and parents' names are equal ASCII
 * case-insensitively; an array's size answer is what the fill uses at
 * most, every name lies in the string area and ends with a NUL, and a
 * call one item short writes nothing.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "perfbuf/collector.h"

#define MAX_OBJECTS 4u
#define MAX_COUNTERS 3u
#define CHECKED_PAIRS 32u
#define NAME_BYTES 512u

static uint32_t read_le(const uint8_t *p, unsigned n)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        v |= (uint32_t)p[i] << (8 * i);
    }
    return v;
}

static bool same_folded(const char *a, size_t la, const char *b, size_t lb)
{
    if (la != lb) {
        return false;
    }
    for (size_t i = 0; i < la; i++) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') {
            x = (char)(x + 32);
        }
        if (y >= 'A' && y <= 'Z') {
            y = (char)(y + 32);
        }
        if (x != y) {
            return false;
        }
    }
    return true;
}

/* A matched pair has one name and one parent name (when both convert
 * whole into NAME_BYTES; a UniqueID stands for the name). */
static void check_pair(const perfbuf_v1_pairing *p, const perfbuf_v1_instance *ni,
                       const perfbuf_v1_instance *oi, size_t bytes)
{
    static char a[NAME_BYTES], b[NAME_BYTES];
    size_t la = 0, lb = 0;
    perfbuf_status sa, sb;
    ORACLE(ni->unique_id == oi->unique_id);
    if (ni->unique_id == -1) {
        BUDGETED(bytes + NAME_BYTES,
                 sa = perfbuf_v1_instance_name_utf8(p->newer, ni, a, sizeof a, &la));
        BUDGETED(bytes + NAME_BYTES,
                 sb = perfbuf_v1_instance_name_utf8(p->older, oi, b, sizeof b, &lb));
        if (sa == PERFBUF_OK && sb == PERFBUF_OK) {
            ORACLE(same_folded(a, la, b, lb));
        }
    }
    perfbuf_v1_instance np, op;
    perfbuf_status pn, po;
    BUDGETED(bytes, pn = perfbuf_v1_parent(p->newer, &p->newer_object, ni, &p->newer_parents,
                                           &np, NULL));
    BUDGETED(bytes, po = perfbuf_v1_parent(p->older, &p->older_object, oi, &p->older_parents,
                                           &op, NULL));
    ORACLE((pn == PERFBUF_OK) == (po == PERFBUF_OK));
    if (pn == PERFBUF_OK) {
        BUDGETED(bytes + NAME_BYTES,
                 sa = perfbuf_v1_instance_name_utf8(p->newer, &np, a, sizeof a, &la));
        BUDGETED(bytes + NAME_BYTES,
                 sb = perfbuf_v1_instance_name_utf8(p->older, &op, b, sizeof b, &lb));
        if (sa == PERFBUF_OK && sb == PERFBUF_OK) {
            ORACLE(same_folded(a, la, b, lb));
        }
    }
}

static void check_pairing(const perfbuf_v1_pairing *p, size_t bytes)
{
    uint32_t n = p->newer_object.num_instances > 0 ? p->newer_object.instance_count : 0;
    ORACLE(p->paired + p->new_instances + p->ambiguous == n);
    uint32_t older_n = p->has_older && p->older_object.num_instances > 0
                           ? p->older_object.instance_count
                           : 0;
    uint8_t *seen = calloc((size_t)older_n + 1, 1);
    size_t *offsets = malloc(sizeof *offsets * ((size_t)older_n + 1));
    perfbuf_v1_instance_index older_index;
    perfbuf_status st = PERFBUF_E_NOT_FOUND;
    if (older_n > 0) {
        BUDGETED(bytes, st = perfbuf_v1_index_build(p->older, &p->older_object, offsets, older_n,
                                                    &older_index));
    }
    perfbuf_v1_iter it;
    perfbuf_v1_instance ni;
    uint32_t i = 0, checked = 0;
    perfbuf_v1_instances_begin(&p->newer_object, &it);
    while (i < n && perfbuf_v1_instances_next(p->newer, &it, &ni)) {
        uint32_t kind = 0, ordinal = 0, older = 0;
        bool answered;
        BUDGETED(0, answered = perfbuf_v1_pairing_instance(p, i, &kind, &ordinal, &older));
        ORACLE(answered);
        ORACLE(kind <= PERFBUF_PAIR_AMBIGUOUS);
        ORACLE((kind == PERFBUF_PAIR_AMBIGUOUS) == (ordinal == PERFBUF_PAIR_NO_ORDINAL));
        if (kind == PERFBUF_PAIR_MATCHED) {
            ORACLE(older < older_n && !seen[older]);
            seen[older] = 1;
            perfbuf_v1_instance oi;
            if (st == PERFBUF_OK && checked < CHECKED_PAIRS) {
                checked++;
                ORACLE(perfbuf_v1_index_get(p->older, &older_index, older, &oi) == PERFBUF_OK);
                check_pair(p, &ni, &oi, bytes);
            }
        }
        i++;
    }
    ORACLE(!perfbuf_v1_pairing_instance(p, n, NULL, NULL, NULL));
    free(offsets);
    free(seen);
}

/*
 * The objects form, with the objects and block indexes perfbuf_v1_pair
 * found and built: every instance answers as it does there, within the
 * budget of the two objects' bytes (here bounded by both blocks').
 */
static void check_objects_form(const perfbuf_v1_pairing *p, size_t bytes)
{
    const perfbuf_v1_object *older = p->has_older ? &p->older_object : NULL;
    size_t slots = 0;
    perfbuf_status st;
    BUDGETED(bytes, st = perfbuf_v1_pairing_scratch_objects(older, &p->newer_object, &slots));
    if (st != PERFBUF_OK || slots > ((size_t)1 << 24)) {
        return;
    }
    uint64_t *scratch = malloc(sizeof *scratch * (slots + 1));
    perfbuf_v1_pairing q;
    BUDGETED(bytes, st = perfbuf_v1_pair_objects(p->older, older,
                                                 older != NULL ? &p->older_parents : NULL,
                                                 p->newer, &p->newer_object, &p->newer_parents,
                                                 scratch, slots, &q));
    ORACLE(st == PERFBUF_OK);
    ORACLE(q.paired == p->paired && q.new_instances == p->new_instances &&
           q.ambiguous == p->ambiguous);
    uint32_t n = p->newer_object.num_instances > 0 ? p->newer_object.instance_count : 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k1 = 0, o1 = 0, a1 = 0, k2 = 0, o2 = 0, a2 = 0;
        ORACLE(perfbuf_v1_pairing_instance(p, i, &k1, &o1, &a1) ==
               perfbuf_v1_pairing_instance(&q, i, &k2, &o2, &a2));
        ORACLE(k1 == k2 && o1 == o2 && a1 == a2);
    }
    free(scratch);
}

static void check_arrays(const perfbuf_v1_pairing *p, uint32_t counter,
                         const perfbuf_counter_path *path, uint32_t flags, size_t bytes)
{
    size_t count = 0, string_bytes = 0;
    perfbuf_status st;
    BUDGETED(bytes,
                   st = perfbuf_v1_formatted_array(p, counter, path, flags, NULL, &count, NULL,
                                                   &string_bytes));
    ORACLE(st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL || st == PERFBUF_E_NOT_FOUND);
    /* The size a first call asks for is linear in the capture, however
     * many children share one long parent (collector.h). */
    ORACLE(string_bytes <= (size_t)PERFBUF_ARRAY_STRING_BYTES_PER_BYTE * p->newer->size);
    if (st == PERFBUF_E_OUTPUT_TOO_SMALL && string_bytes > 0) {
        /* Output over the pairing's own name area is refused, in O(1). */
        size_t overlap_count = count, overlap_bytes = string_bytes;
        perfbuf_status overlap;
        BUDGETED(0, overlap = perfbuf_v1_formatted_array(p, counter, path, flags, NULL,
                                                         &overlap_count, p->text, &overlap_bytes));
        ORACLE(overlap == PERFBUF_E_INVALID_ARGUMENT);
    }
    if (st == PERFBUF_E_NOT_FOUND || string_bytes > ((size_t)1 << 24)) {
        return;
    }
    ORACLE(st == PERFBUF_OK ? count == 0 && string_bytes == 0 : count > 0 || string_bytes > 0);
    perfbuf_formatted_item *items = malloc(sizeof *items * (count + 1));
    perfbuf_raw_item *raw = malloc(sizeof *raw * (count + 1));
    char *strings = malloc(string_bytes + 1);
    size_t want = count, want_bytes = string_bytes;
    if (count > 0) {
        memset(items, 0xAB, sizeof *items * count);
        size_t short_count = count - 1, sb = string_bytes;
        BUDGETED(bytes + sb,
                       st = perfbuf_v1_formatted_array(p, counter, path, flags, items,
                                                       &short_count, strings, &sb));
        ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL && short_count == want && sb == want_bytes);
        const uint8_t *raw_bytes = (const uint8_t *)items;
        for (size_t k = 0; k < sizeof *items * (count - 1); k++) {
            ORACLE(raw_bytes[k] == 0xAB);
        }
    }
    BUDGETED(bytes + string_bytes,
                   st = perfbuf_v1_formatted_array(p, counter, path, flags, items, &count, strings,
                                                   &string_bytes));
    ORACLE(st == PERFBUF_OK && count == want && string_bytes <= want_bytes);
    for (size_t k = 0; k < count; k++) {
        ORACLE(items[k].name >= strings && items[k].name_len < string_bytes);
        ORACLE((size_t)(items[k].name - strings) + items[k].name_len < string_bytes);
        ORACLE(items[k].name[items[k].name_len] == '\0');
        ORACLE(items[k].pairing <= PERFBUF_PAIR_DEFINITION_CHANGED);
        ORACLE(perfbuf_cstatus_name(items[k].value.status) != NULL);
    }
    size_t raw_count = want, raw_bytes = want_bytes;
    BUDGETED(bytes + want_bytes,
                   st = perfbuf_v1_raw_array(p, counter, path, raw, &raw_count, strings,
                                             &raw_bytes));
    ORACLE(st == PERFBUF_OK && raw_count == want && raw_bytes == string_bytes);
    for (size_t k = 0; k < raw_count; k++) {
        ORACLE(!raw[k].has_older || raw[k].pairing == PERFBUF_PAIR_MATCHED);
    }
    free(strings);
    free(raw);
    free(items);
}

/* ---- V2 ---- */

static uint32_t v2_instances(const perfbuf_v2_block *b)
{
    return b->kind == PERFBUF_V2_MULTIPLE_INSTANCES || b->kind == PERFBUF_V2_COUNTERSET
               ? b->instance_count
               : 0u;
}

static void check_v2_pairing(const perfbuf_v2_pairing *p, size_t bytes)
{
    uint32_t n = v2_instances(&p->newer_block);
    ORACLE(p->paired + p->new_instances + p->ambiguous == n);
    uint32_t older_n = p->has_older ? v2_instances(&p->older_block) : 0;
    perfbuf_v2_instance *olds = malloc(sizeof *olds * ((size_t)older_n + 1));
    uint8_t *seen = calloc((size_t)older_n + 1, 1);
    uint32_t listed = 0;
    perfbuf_v2_iter it;
    perfbuf_v2_instance inst;
    if (older_n > 0) {
        perfbuf_v2_instances_begin(&p->older_block, &it);
        while (listed < older_n && perfbuf_v2_instances_next(p->older, &p->older_block, &it,
                                                             &olds[listed])) {
            listed++;
        }
    }
    uint32_t i = 0, checked = 0;
    perfbuf_v2_instances_begin(&p->newer_block, &it);
    while (i < n && perfbuf_v2_instances_next(p->newer, &p->newer_block, &it, &inst)) {
        uint32_t kind = 0, ordinal = 0, older = 0;
        bool answered;
        BUDGETED(0, answered = perfbuf_v2_pairing_instance(p, i, &kind, &ordinal, &older));
        ORACLE(answered);
        ORACLE((kind == PERFBUF_PAIR_AMBIGUOUS) == (ordinal == PERFBUF_PAIR_NO_ORDINAL));
        if (kind == PERFBUF_PAIR_MATCHED) {
            ORACLE(older < listed && !seen[older]);
            seen[older] = 1;
            ORACLE(olds[older].id == inst.id);
            if (checked < CHECKED_PAIRS) {
                static char a[NAME_BYTES], b[NAME_BYTES];
                size_t la = 0, lb = 0;
                perfbuf_status sa, sb;
                checked++;
                BUDGETED(bytes + NAME_BYTES,
                         sa = perfbuf_v2_instance_name_utf8(p->newer, &inst, a, sizeof a, &la));
                BUDGETED(bytes + NAME_BYTES, sb = perfbuf_v2_instance_name_utf8(
                                                 p->older, &olds[older], b, sizeof b, &lb));
                if (sa == PERFBUF_OK && sb == PERFBUF_OK) {
                    ORACLE(same_folded(a, la, b, lb));
                }
            }
        }
        i++;
    }
    free(seen);
    free(olds);
}

static void check_v2_arrays(const perfbuf_v2_pairing *p, const perfbuf_v2_reginfo *reg,
                            uint32_t counter, const perfbuf_counter_path *path, uint32_t flags,
                            size_t bytes)
{
    size_t count = 0, string_bytes = 0;
    perfbuf_status st;
    BUDGETED(bytes, st = perfbuf_v2_formatted_array(p, reg, counter, path, flags, NULL, &count,
                                                    NULL, &string_bytes));
    ORACLE(st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL || st == PERFBUF_E_NOT_FOUND);
    ORACLE(string_bytes <= (size_t)PERFBUF_ARRAY_STRING_BYTES_PER_BYTE * p->newer->size);
    if (st == PERFBUF_E_OUTPUT_TOO_SMALL && string_bytes > 0) {
        size_t overlap_count = count, overlap_bytes = string_bytes;
        perfbuf_status overlap;
        BUDGETED(0, overlap = perfbuf_v2_formatted_array(p, reg, counter, path, flags, NULL,
                                                         &overlap_count, p->text, &overlap_bytes));
        ORACLE(overlap == PERFBUF_E_INVALID_ARGUMENT);
    }
    if (st == PERFBUF_E_NOT_FOUND || string_bytes > ((size_t)1 << 24)) {
        return;
    }
    perfbuf_formatted_item *items = malloc(sizeof *items * (count + 1));
    perfbuf_raw_item *raw = malloc(sizeof *raw * (count + 1));
    char *strings = malloc(string_bytes + 1);
    size_t want = count, want_bytes = string_bytes;
    if (count > 0) {
        memset(items, 0xAB, sizeof *items * count);
        size_t short_count = count - 1, sb = string_bytes;
        BUDGETED(bytes + sb, st = perfbuf_v2_formatted_array(p, reg, counter, path, flags, items,
                                                             &short_count, strings, &sb));
        ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL && short_count == want && sb == want_bytes);
        const uint8_t *raw_bytes = (const uint8_t *)items;
        for (size_t k = 0; k < sizeof *items * (count - 1); k++) {
            ORACLE(raw_bytes[k] == 0xAB);
        }
    }
    BUDGETED(bytes + string_bytes, st = perfbuf_v2_formatted_array(p, reg, counter, path, flags,
                                                                   items, &count, strings,
                                                                   &string_bytes));
    ORACLE(st == PERFBUF_OK && count == want && string_bytes <= want_bytes);
    for (size_t k = 0; k < count; k++) {
        ORACLE(items[k].name >= strings &&
               (size_t)(items[k].name - strings) + items[k].name_len < string_bytes);
        ORACLE(items[k].name[items[k].name_len] == '\0');
        ORACLE(perfbuf_cstatus_name(items[k].value.status) != NULL);
    }
    size_t raw_count = want, raw_bytes = want_bytes;
    BUDGETED(bytes + want_bytes, st = perfbuf_v2_raw_array(p, reg, counter, path, raw, &raw_count,
                                                           strings, &raw_bytes));
    ORACLE(st == PERFBUF_OK && raw_count == want && raw_bytes == string_bytes);
    for (size_t k = 0; k < raw_count; k++) {
        ORACLE(!raw[k].has_older || raw[k].pairing == PERFBUF_PAIR_MATCHED);
    }
    free(strings);
    free(raw);
    free(items);
}

static void fuzz_v2(const uint8_t *older_data, size_t older_len, const uint8_t *reg_data,
                    size_t reg_len, const uint8_t *newer_data, size_t newer_len,
                    const perfbuf_counter_path *path, size_t path_len, uint32_t flags)
{
    perfbuf_v2_query older, newer;
    perfbuf_v2_reginfo reg;
    perfbuf_status so, sn, sr;
    BUDGETED(older_len, so = perfbuf_v2_query_parse(older_data, older_len, NULL, &older, NULL));
    BUDGETED(newer_len, sn = perfbuf_v2_query_parse(newer_data, newer_len, NULL, &newer, NULL));
    BUDGETED(reg_len, sr = perfbuf_v2_reginfo_parse(reg_data, reg_len, NULL, &reg, NULL));
    if (sn != PERFBUF_OK) {
        return;
    }
    size_t bytes = older_len + newer_len + reg_len + path_len;
    perfbuf_v2_iter ni, oi;
    perfbuf_v2_block nb, ob;
    bool more_old = so == PERFBUF_OK;
    if (more_old) {
        perfbuf_v2_blocks_begin(&older, &oi);
    }
    perfbuf_v2_blocks_begin(&newer, &ni);
    for (uint32_t seen = 0; seen < MAX_OBJECTS && perfbuf_v2_blocks_next(&newer, &ni, &nb);
         seen++) {
        more_old = more_old && perfbuf_v2_blocks_next(&older, &oi, &ob);
        const perfbuf_v2_block *obp = more_old ? &ob : NULL;
        size_t slots = 0;
        perfbuf_status st;
        BUDGETED_APART(bytes, st = perfbuf_v2_pairing_scratch(obp, &nb, &slots));
        if (st != PERFBUF_OK || slots > ((size_t)1 << 24)) {
            continue;
        }
        uint64_t *scratch = malloc(sizeof *scratch * slots);
        perfbuf_v2_pairing p;
        BUDGETED_APART(bytes, st = perfbuf_v2_pair(more_old ? &older : NULL, obp, &newer, &nb,
                                                   scratch, slots - 1, &p));
        ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL);
        BUDGETED_APART(bytes, st = perfbuf_v2_pair(more_old ? &older : NULL, obp, &newer, &nb,
                                                   scratch, slots, &p));
        ORACLE(st == PERFBUF_OK);
        check_v2_pairing(&p, bytes);
        perfbuf_v2_counter_reg c;
        for (uint32_t k = 0; sr == PERFBUF_OK && k < MAX_COUNTERS &&
                             perfbuf_v2_reginfo_counter(&reg, k, &c);
             k++) {
            check_v2_arrays(&p, &reg, c.id, path, flags, bytes);
        }
        free(scratch);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 11) {
        return 0;
    }
    static const uint32_t formats[4] = {PERFBUF_FMT_DOUBLE, PERFBUF_FMT_LONG | PERFBUF_FMT_NOSCALE,
                                        PERFBUF_FMT_LARGE | PERFBUF_FMT_NOCAP100,
                                        PERFBUF_FMT_DOUBLE | PERFBUF_FMT_1000};
    uint32_t flags = formats[data[0] & 3u];
    size_t path_len = read_le(data + 1, 2);
    size_t older_len = read_le(data + 3, 4);
    bool v2 = (data[0] & 4u) != 0;
    size_t reg_len = v2 ? read_le(data + 7, 4) : 0;
    size_t header = v2 ? 11 : 7;
    size_t rest = size - header;
    if (path_len > rest) {
        path_len = rest;
    }
    rest -= path_len;
    if (older_len > rest) {
        older_len = rest;
    }
    rest -= older_len;
    if (reg_len > rest) {
        reg_len = rest;
    }
    const char *path_text = (const char *)data + header;
    const uint8_t *older_data = data + header + path_len;
    const uint8_t *reg_data = older_data + older_len;
    const uint8_t *newer_data = reg_data + reg_len;
    size_t newer_len = rest - reg_len;

    perfbuf_counter_path path;
    const perfbuf_counter_path *pp = NULL;
    perfbuf_status st;
    BUDGETED(path_len, st = perfbuf_path_parse(path_text, path_len, &path, NULL));
    if (st == PERFBUF_OK) {
        pp = &path;
    }
    if (v2) {
        fuzz_v2(older_data, older_len, reg_data, reg_len, newer_data, newer_len, pp, path_len,
                flags);
        return 0;
    }
    perfbuf_v1_block older, newer;
    perfbuf_status so, sn;
    BUDGETED(older_len, so = perfbuf_v1_parse(older_data, older_len, NULL, &older, NULL));
    BUDGETED(newer_len, sn = perfbuf_v1_parse(newer_data, newer_len, NULL, &newer, NULL));
    if (so != PERFBUF_OK || sn != PERFBUF_OK) {
        return 0;
    }
    size_t bytes = older_len + newer_len + path_len;
    perfbuf_v1_iter objects;
    perfbuf_v1_object o;
    uint32_t seen = 0;
    perfbuf_v1_objects_begin(&newer, &objects);
    while (seen < MAX_OBJECTS && perfbuf_v1_objects_next(&newer, &objects, &o)) {
        seen++;
        size_t slots = 0;
        BUDGETED_APART(bytes, st = perfbuf_v1_pairing_scratch(&older, &newer,
                                                              o.name_title_index, &slots));
        ORACLE(st == PERFBUF_OK || st == PERFBUF_E_LIMIT_EXCEEDED);
        if (st != PERFBUF_OK || slots > ((size_t)1 << 24)) {
            continue;
        }
        uint64_t *scratch = malloc(sizeof *scratch * slots);
        perfbuf_v1_pairing p;
        if (slots > 0) {
            BUDGETED_APART(bytes, st = perfbuf_v1_pair(&older, &newer, o.name_title_index,
                                                       scratch, slots - 1, &p));
            ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL);
        }
        BUDGETED_APART(bytes, st = perfbuf_v1_pair(&older, &newer, o.name_title_index, scratch,
                                                   slots, &p));
        ORACLE(st == PERFBUF_OK);
        check_pairing(&p, bytes);
        check_objects_form(&p, bytes);
        perfbuf_v1_iter counters;
        perfbuf_v1_counter c;
        uint32_t k = 0;
        perfbuf_v1_counters_begin(&p.newer_object, &counters);
        while (k < MAX_COUNTERS && perfbuf_v1_counters_next(&newer, &counters, &c)) {
            k++;
            check_arrays(&p, c.name_title_index, pp, flags, bytes);
            if (pp != NULL) {
                check_arrays(&p, c.name_title_index, NULL, flags, bytes);
            }
        }
        free(scratch);
    }
    return 0;
}

/* Only engine builds have LLVMFuzzerMutate; the replayer runs the oracle
 * alone. The captures inside the input get the structure-aware mutators
 * (fuzz/mutator_captures.h). */
#ifdef PERFBUF_FUZZ_MUTATOR
#include "mutator_captures.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    return mcap_mutate_pairing(data, size, max_size, seed, LLVMFuzzerMutate);
}
#endif
