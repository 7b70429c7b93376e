/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The query (perfbuf/query.h) from one input: a Counter table (or a V2
 * registration), two hostile paths and two hostile captures; a V1 query
 * also holds a counter of every definition (perfbuf_query_add_definitions).
 *
 * Input: byte 0 selects the format flags (bits 0-1); bytes 1-2 and 3-4
 * (little-endian) are the paths' lengths, bytes 5-8 the table's, bytes
 * 9-12 the older capture's; bit 2 of byte 0 pairs the first counter by
 * the key counter the second path's bytes name, bit 4 by UniqueID (and
 * the counter of every definition with it). Then
 * the two paths, the table, the older capture and the newer one (the
 * rest). Bit 3 opens the query on V2 instead: the table's first two bytes
 * are the length of a registration (PERF_REG_COUNTERSET_STRUCT) that
 * follows them, the rest of the table its counter names, the counterset
 * is named "S" (bit 5: has no name, paths name it by GUID alone) and
 * answers in block 0, and the captures are V2 query data. A table that does not parse ends the run; a path that does not
 * parse is not added. Bit 6 of byte 0 collects strictly, bit 7 with
 * limits of 2 sections, counters and instances (perfbuf_query_options),
 * so strict refusals and LIMIT_EXCEEDED reach the collection.
 *
 * Oracles: every call within the work budget of its inputs (fuzz/oracle.h;
 * a collection's inputs are the capture once per counter and once more
 * for a key counter, the tables and
 * the arena it fills); a rejected add names the path's structure and an
 * offset inside it; a collection asked to grow succeeds with the size it
 * asked for; an array's size answer is what the fill uses; every name ends
 * with a NUL inside the arena; a raw item with an older sample is MATCHED;
 * the instances listed as appeared or exited are at most the items of
 * their capture; a title's text fits in the room its size answer gave; a
 * V2 open that succeeds leaves *err reporting no failure; options with an
 * unknown flag are refused; a capture the reader refuses with the query's
 * options the collection refuses with the same status, and a capture the
 * collection accepts the reader accepts with them. The counter of every
 * definition gives, per object that has definitions, its definitions
 * times its instances (or its one counter block), as the reader counts
 * them; a paired item (MATCHED or DEFINITION_CHANGED) alone names an
 * older instance, and only that counter's items change definition.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "perfbuf/query.h"
#include "perfbuf/v2_query.h"

#define MAX_ARENA ((size_t)1 << 26)

static uint32_t read_le(const uint8_t *p, unsigned n)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        v |= (uint32_t)p[i] << (8 * i);
    }
    return v;
}

typedef struct run {
    perfbuf_query q;
    perfbuf_query_counter counters[3]; /* the two paths, every definition */
    bool added[3];
    size_t path_len[2];
    size_t table_len;
    perfbuf_query_registration reg;
    void *arena;
    size_t arena_bytes;
    perfbuf_options options; /* the ones given to perfbuf_query_options */
    bool v2;
} run;

/* The reader's own answer for a capture with the query's options. */
static perfbuf_status parsed_alone(const run *r, const uint8_t *capture, size_t len)
{
    perfbuf_status st;
    if (r->v2) {
        perfbuf_v2_query d;
        BUDGETED(len, st = perfbuf_v2_query_parse(capture, len, &r->options, &d, NULL));
    } else {
        perfbuf_v1_block b;
        BUDGETED(len, st = perfbuf_v1_parse(capture, len, &r->options, &b, NULL));
    }
    return st;
}

/* Collects one capture, growing the arena once when asked. False when
 * the capture is not collected. */
static bool collect(run *r, const uint8_t *capture, size_t len)
{
    size_t needed = 0;
    perfbuf_status st;
    perfbuf_error err = {0};
    BUDGETED(len + len + len + len + r->table_len + r->arena_bytes,
             st = perfbuf_query_collect(&r->q, capture, len, &needed, &err));
    /* The collection parses with the query's options: the reader refuses
     * what it refuses, with the same status, and accepts what it accepts. A
     * V1 buffer given to a V2 query is refused before the parse. */
    perfbuf_status alone = parsed_alone(r, capture, len);
    ORACLE(alone == PERFBUF_OK || st == alone || st == PERFBUF_E_BAD_SIGNATURE);
    ORACLE(st != PERFBUF_OK || alone == PERFBUF_OK);
    if (st != PERFBUF_E_OUTPUT_TOO_SMALL) {
        return st == PERFBUF_OK;
    }
    ORACLE(needed > r->arena_bytes);
    if (needed > MAX_ARENA) {
        return false;
    }
    void *bigger = malloc(needed);
    if (r->arena != NULL) {
        memcpy(bigger, r->arena, r->arena_bytes);
    }
    size_t bytes = needed;
    BUDGETED(r->arena_bytes + r->table_len,
             st = perfbuf_query_arena(&r->q, bigger, &bytes));
    ORACLE(st == PERFBUF_OK);
    free(r->arena);
    r->arena = bigger;
    r->arena_bytes = bytes;
    BUDGETED(len + len + len + len + r->table_len + r->arena_bytes,
             st = perfbuf_query_collect(&r->q, capture, len, &needed, &err));
    ORACLE(st == PERFBUF_OK);
    return true;
}

static bool name_in_arena(const run *r, const char *name, size_t len)
{
    return oracle_ptr_inside((const uint8_t *)name, len + 1u, r->arena, r->arena_bytes) &&
           name[len] == '\0';
}

/* The items a counter of every definition gives for capture b: each
 * object's definitions times its instances, or times its one counter
 * block, as the reader counts them. */
static size_t definition_items(const perfbuf_v1_block *b)
{
    size_t total = 0;
    perfbuf_v1_iter it;
    perfbuf_v1_object o;
    perfbuf_v1_counter_block blk;
    perfbuf_v1_objects_begin(b, &it);
    while (perfbuf_v1_objects_next(b, &it, &o)) {
        size_t blocks = o.num_instances == PERFBUF_V1_NO_INSTANCES
                            ? (perfbuf_v1_object_counter_block(b, &o, &blk) ? 1u : 0u)
                            : o.instance_count;
        total += blocks * o.counter_count;
    }
    return total;
}

static void check_arrays(run *r, const perfbuf_query_counter *c, uint32_t flags,
                         const uint8_t *capture, size_t len)
{
    size_t count = 0;
    perfbuf_status st;
    BUDGETED(0, st = perfbuf_query_formatted_array(&r->q, c, flags, NULL, &count));
    if (st == PERFBUF_E_NOT_FOUND) {
        ORACLE(c->status != PERFBUF_CSTATUS_VALID_DATA);
        return;
    }
    ORACLE(st == PERFBUF_OK ? count == 0 : st == PERFBUF_E_OUTPUT_TOO_SMALL);
    /* What the path found agrees with the array: items exactly when some
     * are there, and a missing named instance is no empty object. */
    ORACLE((c->found == PERFBUF_QUERY_FOUND_ITEMS) == (count > 0));
    ORACLE(c->found >= PERFBUF_QUERY_FOUND_ITEMS && c->found <= PERFBUF_QUERY_FOUND_UNNAMED);
    ORACLE(c->status != PERFBUF_CSTATUS_NO_INSTANCE ||
           c->found == PERFBUF_QUERY_FOUND_NO_INSTANCE);
    if (c->every_definition) {
        perfbuf_v1_block b;
        ORACLE(perfbuf_v1_parse(capture, len, &r->options, &b, NULL) == PERFBUF_OK);
        ORACLE(count == definition_items(&b));
    }
    perfbuf_formatted_item *items = malloc(sizeof *items * (count + 1u));
    perfbuf_raw_item *raw = malloc(sizeof *raw * (count + 1u));
    size_t want = count;
    BUDGETED(sizeof *items * want,
             st = perfbuf_query_formatted_array(&r->q, c, flags, items, &count));
    ORACLE(st == PERFBUF_OK && count == want);
    size_t raw_count = want;
    BUDGETED(sizeof *raw * want, st = perfbuf_query_raw_array(&r->q, c, raw, &raw_count));
    ORACLE(st == PERFBUF_OK && raw_count == want);
    for (size_t k = 0; k < want; k++) {
        /* Buffer order: positions ascend, one item per instance (an
         * object's one counter block: PERFBUF_ITEM_NO_INSTANCE, the
         * greatest), or for a counter "*" one per instance and counter. */
        bool every =
            c->every_definition || (c->path.flags & PERFBUF_PATH_COUNTER_WILDCARD) != 0;
        ORACLE(items[k].position == raw[k].position && items[k].counter == raw[k].counter);
        ORACLE(items[k].object == raw[k].object);
        bool same_object = k > 0 && items[k - 1].object == items[k].object;
        ORACLE(k == 0 || items[k - 1].object < items[k].object ||
               (same_object && (every ? items[k - 1].position <= items[k].position
                                      : items[k - 1].position < items[k].position)));
        ORACLE(every || items[k].counter == (r->q.registrations != NULL ? c->counter_id
                                                                        : c->counter_title));
        ORACLE(name_in_arena(r, items[k].name, items[k].name_len));
        ORACLE(items[k].name == raw[k].name);
        /* Only the first object the path names pairs; its items come
         * first, those of later objects of its title after them. */
        bool unpaired = items[k].pairing == PERFBUF_PAIR_UNPAIRED;
        bool previous_unpaired = k > 0 && items[k - 1].pairing == PERFBUF_PAIR_UNPAIRED;
        bool changed = items[k].pairing == PERFBUF_PAIR_DEFINITION_CHANGED;
        ORACLE(items[k].pairing <= PERFBUF_PAIR_AMBIGUOUS || unpaired ||
               (changed && c->every_definition));
        /* A counter of every definition walks every object: a later
         * object of a title may come before another title's first. */
        ORACLE(c->every_definition || !previous_unpaired || unpaired);
        ORACLE(c->every_definition || k == 0 || !unpaired || previous_unpaired ||
               items[k - 1].object < items[k].object);
        ORACLE(!raw[k].has_older || raw[k].pairing == PERFBUF_PAIR_MATCHED);
        ORACLE(raw[k].pairing == PERFBUF_PAIR_MATCHED || changed ||
               raw[k].older_position == PERFBUF_ITEM_NO_INSTANCE);
        ORACLE(perfbuf_cstatus_name(items[k].value.status) != NULL);
        /* A sample that could not be read gives its own status, not the
         * INVALID_DATA of formatting it anyway. */
        ORACLE(PERFBUF_CSTATUS_IS_VALID(raw[k].newer.status) ||
               items[k].value.status == raw[k].newer.status);
    }
    static const uint32_t kinds[2] = {PERFBUF_QUERY_APPEARED, PERFBUF_QUERY_EXITED};
    for (int k = 0; k < 2; k++) {
        size_t listed = 0;
        BUDGETED(sizeof *raw * want + sizeof *raw * c->older.count,
                 st = perfbuf_query_instances(&r->q, c, kinds[k], NULL, &listed));
        ORACLE(st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL);
        size_t of = kinds[k] == PERFBUF_QUERY_APPEARED ? want : c->older.count;
        ORACLE(listed <= of);
        const char **list = malloc(sizeof *list * (listed + 1u));
        size_t filled = listed;
        BUDGETED(sizeof *raw * of,
                 st = perfbuf_query_instances(&r->q, c, kinds[k], list, &filled));
        ORACLE(st == PERFBUF_OK && filled == listed);
        for (size_t i = 0; i < filled; i++) {
            ORACLE(oracle_ptr_inside((const uint8_t *)list[i], 1, r->arena, r->arena_bytes));
        }
        free(list);
    }
    /* A title's text is the table's: UTF-16 to UTF-8, at most 1.5 x its bytes. */
    static const uint32_t which[2] = {PERFBUF_QUERY_TITLE_OBJECT, PERFBUF_QUERY_TITLE_COUNTER};
    for (int k = 0; k < 2; k++) {
        uint32_t title = 0;
        size_t title_len = 0;
        BUDGETED(r->table_len, st = perfbuf_query_title(&r->q, c, which[k],
                                                        PERFBUF_LANGUAGE_ENGLISH, &title, NULL,
                                                        0, &title_len));
        /* A V2 query has no Counter tables to name its titles from. */
        ORACLE(r->q.registrations != NULL ? st == PERFBUF_E_INVALID_ARGUMENT
                                          : st == PERFBUF_E_OUTPUT_TOO_SMALL ||
                                                st == PERFBUF_E_NOT_FOUND);
        ORACLE(title_len <= 3u * r->table_len);
        char *text = malloc(title_len + 1u);
        size_t room = title_len + 1u;
        BUDGETED(r->table_len, st = perfbuf_query_title(&r->q, c, which[k],
                                                        PERFBUF_LANGUAGE_ENGLISH, &title, text,
                                                        room, &title_len));
        ORACLE(st != PERFBUF_E_OUTPUT_TOO_SMALL &&
               (st != PERFBUF_OK || text[title_len] == '\0'));
        free(text);
    }
    free(raw);
    free(items);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 13) {
        return 0;
    }
    static const uint32_t formats[4] = {PERFBUF_FMT_DOUBLE, PERFBUF_FMT_LONG | PERFBUF_FMT_NOSCALE,
                                        PERFBUF_FMT_LARGE | PERFBUF_FMT_NOCAP100,
                                        PERFBUF_FMT_DOUBLE | PERFBUF_FMT_1000};
    uint32_t flags = formats[data[0] & 3u];
    static run r;
    memset(&r, 0, sizeof r);
    size_t lens[4] = {read_le(data + 1, 2), read_le(data + 3, 2), read_le(data + 5, 4),
                      read_le(data + 9, 4)};
    size_t rest = size - 13;
    const uint8_t *at = data + 13, *parts[4];
    for (int k = 0; k < 4; k++) {
        lens[k] = lens[k] > rest ? rest : lens[k];
        parts[k] = at;
        at += lens[k];
        rest -= lens[k];
    }
    r.table_len = lens[2];
    perfbuf_status st;
    perfbuf_error err = {0};
    bool v2 = (data[0] & 8u) != 0;
    if (v2) {
        /* "S" with its NUL, as PERF_REG_COUNTERSET_NAME_STRING answers. */
        static const uint8_t set_name[4] = {'S', 0, 0, 0};
        size_t reg_len = lens[2] < 2 ? 0 : read_le(parts[2], 2);
        reg_len = lens[2] < 2 ? 0 : reg_len > lens[2] - 2 ? lens[2] - 2 : reg_len;
        size_t names_at = lens[2] < 2 ? lens[2] : 2 + reg_len;
        r.reg = (perfbuf_query_registration){
            .reginfo = parts[2] + (lens[2] < 2 ? 0 : 2),
            .reginfo_len = reg_len,
            .counter_names = names_at < lens[2] ? parts[2] + names_at : NULL,
            .counter_names_len = lens[2] - names_at,
            .counterset_name = (data[0] & 32u) != 0 ? NULL : set_name,
            .counterset_name_len = (data[0] & 32u) != 0 ? 0 : sizeof set_name};
        BUDGETED(r.table_len, st = perfbuf_query_open_v2(&r.q, &r.reg, 1, &err));
    } else {
        BUDGETED(r.table_len, st = perfbuf_query_open(&r.q, parts[2], lens[2], NULL, 0, &err));
    }
    if (st != PERFBUF_OK) {
        return 0;
    }
    /* An open that succeeds reports no failure, ids' order deferred or not. */
    ORACLE(!v2 || err.status == PERFBUF_OK);
    r.v2 = v2;
    /* A flag the query does not know is refused; bits 6 and 7 choose the
     * options the captures are parsed with. */
    const perfbuf_options unknown = {PERFBUF_STRICT << 1, 0, 0, 0};
    BUDGETED(0, st = perfbuf_query_options(&r.q, &unknown));
    ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
    uint32_t limit = (data[0] & 128u) != 0 ? 2u : 0u;
    r.options = (perfbuf_options){(data[0] & 64u) != 0 ? PERFBUF_STRICT : 0u, limit, limit, limit};
    BUDGETED(0, st = perfbuf_query_options(&r.q, &r.options));
    ORACLE(st == PERFBUF_OK);
    for (int k = 0; k < 2; k++) {
        r.path_len[k] = lens[k];
        BUDGETED(lens[k], st = perfbuf_query_add(&r.q, &r.counters[k], (const char *)parts[k],
                                                 lens[k], &err));
        r.added[k] = st == PERFBUF_OK;
        if (!r.added[k] && st != PERFBUF_E_INVALID_ARGUMENT) {
            ORACLE(err.structure != NULL && strcmp(err.structure, "COUNTER_PATH") == 0);
            ORACLE(err.offset <= lens[k]);
        }
    }
    /* Bit 2: the first counter pairs by the second path's bytes as the
     * key counter's name (hostile, or a real name such as "ID Process"). */
    if ((data[0] & 4u) != 0) {
        BUDGETED(lens[1], st = perfbuf_query_pair_by(&r.q, &r.counters[0], (const char *)parts[1],
                                                     lens[1]));
        ORACLE(st == PERFBUF_OK || !r.added[0] || lens[1] == 0 || v2 ||
               st == PERFBUF_E_PATH_WILDCARD || lens[1] > 3u * PERFBUF_PATH_MAX_NAME);
    }
    /* Bit 4: the first counter pairs by UniqueID (a V1 query only). */
    if ((data[0] & 16u) != 0) {
        BUDGETED(0, st = perfbuf_query_pair_by_unique_id(&r.q, &r.counters[0]));
        ORACLE(st == PERFBUF_OK ? r.added[0] && !v2 : !r.added[0] || v2);
    }
    /* A counter of every definition: a V1 query's alone. */
    BUDGETED(0, st = perfbuf_query_add_definitions(&r.q, &r.counters[2]));
    r.added[2] = st == PERFBUF_OK;
    ORACLE(r.added[2] == !v2);
    /* It never pairs by a key counter, and by UniqueID with bit 4. */
    BUDGETED(0, st = perfbuf_query_pair_by(&r.q, &r.counters[2], "ID Process", 10));
    ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
    if ((data[0] & 16u) != 0) {
        BUDGETED(0, st = perfbuf_query_pair_by_unique_id(&r.q, &r.counters[2]));
        ORACLE((st == PERFBUF_OK) == r.added[2]);
    }
    size_t bytes = 0;
    BUDGETED(0, st = perfbuf_query_add_definitions(&r.q, &r.counters[2]));
    ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
    BUDGETED(0, st = perfbuf_query_arena(&r.q, NULL, &bytes));
    ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL);
    r.arena = malloc(bytes + 1u);
    r.arena_bytes = bytes;
    /* The first arena: the tables' indexes, or the registration's order
     * and the paths resolved against it once. */
    BUDGETED(r.table_len + lens[0] + lens[1],
             st = perfbuf_query_arena(&r.q, r.arena, &r.arena_bytes));
    if (st == PERFBUF_OK) {
        const uint8_t *newer = at;
        for (int round = 0; round < 2; round++) {
            const uint8_t *capture = round == 0 ? parts[3] : newer;
            size_t len = round == 0 ? lens[3] : rest;
            if (!collect(&r, capture, len)) {
                continue;
            }
            for (int k = 0; k < 3; k++) {
                if (r.added[k]) {
                    check_arrays(&r, &r.counters[k], flags, capture, len);
                }
            }
        }
    }
    free(r.arena);
    return 0;
}
