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
 * a collection's inputs are the capture once per counter and twice more,
 * the table, and the items it gave times PERFBUF_QUERY_ITEM_BYTES, never
 * the arena it asked for; an array's size answer's, the items it sizes);
 * a rejected add names the path's structure and an offset inside it; a
 * collection asked to grow succeeds with the size it asked for; a capture
 * of another computer than the first is refused (MACHINE_CHANGED), the
 * names compared whole however long; an array's size answer is what the
 * fill uses; every name ends with a NUL inside the caller's names; a raw
 * item with an older sample is MATCHED;
 * the instances listed as appeared or exited are at most the items of
 * their capture; a title's text fits in the room its size answer gave; a
 * V2 open that succeeds leaves *err reporting no failure; options with an
 * unknown flag are refused; a capture the reader refuses with the query's
 * options the collection refuses with the same status, and a capture the
 * collection accepts the reader accepts with them. The counter of every
 * definition gives, per object that has definitions, its definitions
 * times its instances (or its one counter block), as the reader counts
 * them; a paired item (MATCHED or DEFINITION_CHANGED) alone names an
 * older instance, and no V2 item changes definition (the registration
 * defines both samples). Ownership: a counter of a second query, or a
 * copy of one of this query's counters at another address, is refused by
 * every call that takes a counter, and a counter of this query is refused
 * by the second query's add.
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
    /* A second query on the same table, with a counter of its own. */
    perfbuf_query other;
    perfbuf_query_counter foreign;
    bool other_open;
    /* The first capture's computer name, as UTF-8 (allocated). */
    char *machine;
    size_t machine_len;
    bool machine_known;
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

/* Whether a V1 capture's computer name is known and another than the
 * first collected capture's (ASCII letters case-insensitively); records
 * the first. The name is converted whole, however long: the collection
 * compares the whole name, so a name cut to a room of the harness's would
 * make the two disagree. */
static bool other_machine(run *r, const uint8_t *capture, size_t len, bool collected)
{
    perfbuf_v1_block b;
    size_t name_len = 0;
    perfbuf_status st;
    if (r->v2 || perfbuf_v1_parse(capture, len, &r->options, &b, NULL) != PERFBUF_OK) {
        return false;
    }
    /* At most three bytes of UTF-8 per UTF-16 unit, and the NUL. */
    size_t room = 3u * b.system_name_units + 1u;
    char *name = malloc(room);
    BUDGETED(len, st = perfbuf_v1_system_name_utf8(&b, name, room, &name_len));
    ORACLE(st == PERFBUF_OK);
    if (!r->machine_known) {
        if (collected) {
            r->machine = name;
            r->machine_len = name_len;
            r->machine_known = true;
        } else {
            free(name);
        }
        return false;
    }
    bool other = name_len != r->machine_len;
    for (size_t i = 0; !other && i < name_len; i++) {
        char a = name[i], c = r->machine[i];
        a = a >= 'A' && a <= 'Z' ? (char)(a + 32) : a;
        c = c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
        other = a != c;
    }
    free(name);
    return other;
}

/* Collects one capture, growing the arena once when asked. False when
 * the capture is not collected. */
static bool collect(run *r, const uint8_t *capture, size_t len)
{
    size_t needed = 0, items = 0;
    perfbuf_status st;
    perfbuf_error err = {0};
    bool another = other_machine(r, capture, len, false);
    /* The budget: the capture for each counter and twice more, the table,
     * and the items the collection gave (read after it from the counters);
     * never the arena, a size the collection itself asks for. */
    BUDGETED(len + len + len + len + len + r->table_len + items * PERFBUF_QUERY_ITEM_BYTES,
             (st = perfbuf_query_collect(&r->q, capture, len, &needed, &err),
              items = (size_t)r->counters[0].newer.count + r->counters[1].newer.count +
                      r->counters[2].newer.count));
    /* The collection parses with the query's options: the reader refuses
     * what it refuses, with the same status, and accepts what it accepts. A
     * V1 buffer given to a V2 query is refused before the parse, a capture
     * of another computer after it. */
    perfbuf_status alone = parsed_alone(r, capture, len);
    ORACLE(alone == PERFBUF_OK || st == alone || st == PERFBUF_E_BAD_SIGNATURE);
    ORACLE(st != PERFBUF_OK || alone == PERFBUF_OK);
    ORACLE((st == PERFBUF_E_MACHINE_CHANGED) == (alone == PERFBUF_OK && another));
    if (st != PERFBUF_E_OUTPUT_TOO_SMALL) {
        (void)other_machine(r, capture, len, st == PERFBUF_OK);
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
    BUDGETED(r->table_len, st = perfbuf_query_arena(&r->q, bigger, &bytes, NULL));
    ORACLE(st == PERFBUF_OK);
    free(r->arena);
    r->arena = bigger;
    r->arena_bytes = bytes;
    BUDGETED(len + len + len + len + len + r->table_len + items * PERFBUF_QUERY_ITEM_BYTES,
             (st = perfbuf_query_collect(&r->q, capture, len, &needed, &err),
              items = (size_t)r->counters[0].newer.count + r->counters[1].newer.count +
                      r->counters[2].newer.count));
    ORACLE(st == PERFBUF_OK);
    (void)other_machine(r, capture, len, true);
    return true;
}

/* A name ends with its NUL inside the names the call was given. */
static bool name_in(const char *names, size_t bytes, const char *name, size_t len)
{
    return oracle_ptr_inside((const uint8_t *)name, len + 1u, (const uint8_t *)names, bytes) &&
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

/* Every call that takes a counter refuses one of another query, and a
 * copy of one of this query's at another address, before reading it. */
static void check_ownership(run *r, const perfbuf_query_counter *c)
{
    perfbuf_status st;
    size_t count = 0, name_bytes = 0, title_len = 0;
    uint32_t title = 0;
    static perfbuf_query_counter copy;
    memcpy(&copy, c, sizeof copy);
    const perfbuf_query_counter *strangers[2] = {&copy, r->other_open ? &r->foreign : NULL};
    for (int k = 0; k < 2; k++) {
        const perfbuf_query_counter *s = strangers[k];
        if (s == NULL) {
            continue;
        }
        perfbuf_error err = {0};
        BUDGETED(0, st = perfbuf_query_formatted_array(&r->q, s, PERFBUF_FMT_DOUBLE, NULL, &count,
                                                       NULL, &name_bytes, &err));
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT && err.field != NULL &&
               strcmp(err.field, "c") == 0);
        BUDGETED(0, st = perfbuf_query_raw_array(&r->q, s, NULL, &count, NULL, &name_bytes, NULL));
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        BUDGETED(0, st = perfbuf_query_instances(&r->q, s, PERFBUF_QUERY_EXITED, NULL, &count,
                                                 NULL, &name_bytes, NULL));
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        BUDGETED(0, st = perfbuf_query_title(&r->q, s, PERFBUF_QUERY_TITLE_OBJECT,
                                             PERFBUF_LANGUAGE_ENGLISH, &title, NULL, 0,
                                             &title_len, NULL));
        ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
    }
}

static void check_arrays(run *r, const perfbuf_query_counter *c, uint32_t flags,
                         const uint8_t *capture, size_t len)
{
    size_t count = 0, name_bytes = 0;
    perfbuf_status st;
    bool every_definition = c == &r->counters[2];
    bool every = every_definition || (c->path.flags & PERFBUF_PATH_COUNTER_WILDCARD) != 0;
    check_ownership(r, c);
    /* The size answer walks the kept items to sum their names' bytes
     * (O(items), query.h): its budget is the items it sizes, as the fill's. */
    BUDGETED(sizeof(perfbuf_formatted_item) * c->newer.count,
             st = perfbuf_query_formatted_array(&r->q, c, flags, NULL, &count, NULL,
                                                &name_bytes, NULL));
    if (st == PERFBUF_E_NOT_FOUND) {
        ORACLE(c->status != PERFBUF_CSTATUS_VALID_DATA);
        return;
    }
    ORACLE(st == PERFBUF_OK ? count == 0 : st == PERFBUF_E_OUTPUT_TOO_SMALL);
    /* What the path found agrees with the array: items exactly when some
     * are there, and a missing named instance is no empty object. */
    ORACLE((c->found == PERFBUF_QUERY_FOUND_ITEMS) == (count > 0));
    ORACLE((c->found >= PERFBUF_QUERY_FOUND_ITEMS && c->found <= PERFBUF_QUERY_FOUND_UNNAMED) ||
           c->found == PERFBUF_QUERY_FOUND_NO_PARENT);
    ORACLE(c->status != PERFBUF_CSTATUS_NO_INSTANCE ||
           c->found == PERFBUF_QUERY_FOUND_NO_INSTANCE ||
           c->found == PERFBUF_QUERY_FOUND_NO_PARENT);
    if (every_definition) {
        perfbuf_v1_block b;
        ORACLE(perfbuf_v1_parse(capture, len, &r->options, &b, NULL) == PERFBUF_OK);
        ORACLE(count == definition_items(&b));
    }
    perfbuf_formatted_item *items = malloc(sizeof *items * (count + 1u));
    perfbuf_raw_item *raw = malloc(sizeof *raw * (count + 1u));
    char *names = malloc(name_bytes + 1u), *raw_names = malloc(name_bytes + 1u);
    size_t want = count, want_names = name_bytes;
    BUDGETED(sizeof *items * want + want_names,
             st = perfbuf_query_formatted_array(&r->q, c, flags, items, &count, names,
                                                &name_bytes, NULL));
    ORACLE(st == PERFBUF_OK && count == want && name_bytes == want_names);
    size_t raw_count = want, raw_bytes = want_names;
    BUDGETED(sizeof *raw * want + want_names,
             st = perfbuf_query_raw_array(&r->q, c, raw, &raw_count, raw_names, &raw_bytes, NULL));
    ORACLE(st == PERFBUF_OK && raw_count == want && raw_bytes == want_names);
    for (size_t k = 0; k < want; k++) {
        /* Buffer order: positions ascend, one item per instance (an
         * object's one counter block: PERFBUF_ITEM_NO_INSTANCE, the
         * greatest), or for a counter "*" one per instance and counter. */
        ORACLE(items[k].position == raw[k].position && items[k].counter == raw[k].counter);
        ORACLE(items[k].object == raw[k].object);
        bool same_object = k > 0 && items[k - 1].object == items[k].object;
        ORACLE(k == 0 || items[k - 1].object < items[k].object ||
               (same_object && (every ? items[k - 1].position <= items[k].position
                                      : items[k - 1].position < items[k].position)));
        ORACLE(every || items[k].counter == (r->q.registrations != NULL ? c->counter_id
                                                                        : c->counter_title));
        /* Names: NUL-terminated in the caller's buffer, the same text at
         * the same place in both calls, one per instance. */
        ORACLE(name_in(names, want_names, items[k].name, items[k].name_len));
        ORACLE(name_in(raw_names, want_names, raw[k].name, raw[k].name_len));
        ORACLE(items[k].name - names == raw[k].name - raw_names);
        ORACLE(memcmp(items[k].name, raw[k].name, items[k].name_len) == 0);
        ORACLE(k == 0 || items[k].name == items[k - 1].name ||
               items[k].name == items[k - 1].name + items[k - 1].name_len + 1u);
        /* Only the first object the path names pairs; its items come
         * first, those of later objects of its title after them. */
        bool unpaired = items[k].pairing == PERFBUF_PAIR_UNPAIRED;
        bool previous_unpaired = k > 0 && items[k - 1].pairing == PERFBUF_PAIR_UNPAIRED;
        bool changed = items[k].pairing == PERFBUF_PAIR_DEFINITION_CHANGED;
        ORACLE(items[k].pairing <= PERFBUF_PAIR_AMBIGUOUS || unpaired ||
               (changed && r->q.registrations == NULL));
        /* A counter of every definition walks every object: a later
         * object of a title may come before another title's first. */
        ORACLE(every_definition || !previous_unpaired || unpaired);
        ORACLE(every_definition || k == 0 || !unpaired || previous_unpaired ||
               items[k - 1].object < items[k].object);
        ORACLE(!raw[k].has_older || raw[k].pairing == PERFBUF_PAIR_MATCHED);
        ORACLE(raw[k].pairing == PERFBUF_PAIR_MATCHED || changed ||
               raw[k].older_position == PERFBUF_ITEM_NO_INSTANCE);
        /* Two samples of one counter: a matched item's older sample is of
         * its type (a V2 sample that could not be read has none). */
        bool both_read = PERFBUF_CSTATUS_IS_VALID(raw[k].older.status) &&
                         PERFBUF_CSTATUS_IS_VALID(raw[k].newer.status);
        ORACLE(!raw[k].has_older || raw[k].older.type == raw[k].newer.type ||
               (r->q.registrations != NULL && !both_read));
        ORACLE(perfbuf_cstatus_name(items[k].value.status) != NULL);
        /* A sample that could not be read gives its own status, not the
         * INVALID_DATA of formatting it anyway. */
        ORACLE(PERFBUF_CSTATUS_IS_VALID(raw[k].newer.status) ||
               items[k].value.status == raw[k].newer.status);
    }
    static const uint32_t kinds[2] = {PERFBUF_QUERY_APPEARED, PERFBUF_QUERY_EXITED};
    for (int k = 0; k < 2; k++) {
        size_t listed = 0, listed_bytes = 0;
        size_t of = kinds[k] == PERFBUF_QUERY_APPEARED ? want : c->older.count;
        BUDGETED(sizeof *raw * want + sizeof *raw * c->older.count,
                 st = perfbuf_query_instances(&r->q, c, kinds[k], NULL, &listed, NULL,
                                              &listed_bytes, NULL));
        ORACLE(st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL);
        ORACLE(listed <= of);
        perfbuf_query_instance *list = malloc(sizeof *list * (listed + 1u));
        char *list_names = malloc(listed_bytes + 1u);
        size_t filled = listed, filled_bytes = listed_bytes;
        BUDGETED(sizeof *raw * of + listed_bytes,
                 st = perfbuf_query_instances(&r->q, c, kinds[k], list, &filled, list_names,
                                              &filled_bytes, NULL));
        ORACLE(st == PERFBUF_OK && filled == listed && filled_bytes == listed_bytes);
        for (size_t i = 0; i < filled; i++) {
            ORACLE(name_in(list_names, listed_bytes, list[i].name, list[i].name_len));
            ORACLE(list[i].identity <= PERFBUF_QUERY_IDENTITY_INSTANCE_ID);
            ORACLE(list[i].identity == PERFBUF_QUERY_IDENTITY_INSTANCE_ID ||
                   r->q.registrations == NULL);
        }
        free(list_names);
        free(list);
    }
    /* A title's text is the table's: UTF-16 to UTF-8, at most 1.5 x its bytes. */
    static const uint32_t which[2] = {PERFBUF_QUERY_TITLE_OBJECT, PERFBUF_QUERY_TITLE_COUNTER};
    for (int k = 0; k < 2; k++) {
        uint32_t title = 0;
        size_t title_len = 0;
        BUDGETED(r->table_len, st = perfbuf_query_title(&r->q, c, which[k],
                                                        PERFBUF_LANGUAGE_ENGLISH, &title, NULL,
                                                        0, &title_len, NULL));
        /* A V2 query has no Counter tables to name its titles from. */
        ORACLE(r->q.registrations != NULL ? st == PERFBUF_E_INVALID_ARGUMENT
                                          : st == PERFBUF_E_OUTPUT_TOO_SMALL ||
                                                st == PERFBUF_E_NOT_FOUND);
        ORACLE(title_len <= 3u * r->table_len);
        char *text = malloc(title_len + 1u);
        size_t room = title_len + 1u;
        BUDGETED(r->table_len, st = perfbuf_query_title(&r->q, c, which[k],
                                                        PERFBUF_LANGUAGE_ENGLISH, &title, text,
                                                        room, &title_len, NULL));
        ORACLE(st != PERFBUF_E_OUTPUT_TOO_SMALL &&
               (st != PERFBUF_OK || text[title_len] == '\0'));
        free(text);
    }
    free(raw_names);
    free(names);
    free(raw);
    free(items);
}

/* The second query: the same table, one counter of its own; a counter of
 * the first query is refused by its add. */
static void open_other(run *r, const uint8_t *table, size_t table_len)
{
    perfbuf_status st;
    if (r->v2) {
        return;
    }
    BUDGETED(table_len, st = perfbuf_query_open(&r->other, table, table_len, NULL, 0, NULL));
    if (st != PERFBUF_OK) {
        return;
    }
    r->other_open = true;
    BUDGETED(0, st = perfbuf_query_add_definitions(&r->other, &r->foreign, NULL));
    ORACLE(st == PERFBUF_OK);
    for (int k = 0; k < 3; k++) {
        if (r->added[k]) {
            perfbuf_error err = {0};
            BUDGETED(0, st = perfbuf_query_add_definitions(&r->other, &r->counters[k], &err));
            ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
        }
    }
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
    ORACLE(err.status == PERFBUF_OK);
    r.v2 = v2;
    /* A flag the query does not know is refused; bits 6 and 7 choose the
     * options the captures are parsed with. */
    const perfbuf_options unknown = {PERFBUF_STRICT << 1, 0, 0, 0};
    BUDGETED(0, st = perfbuf_query_options(&r.q, &unknown, &err));
    ORACLE(st == PERFBUF_E_INVALID_ARGUMENT && err.status == st);
    uint32_t limit = (data[0] & 128u) != 0 ? 2u : 0u;
    r.options = (perfbuf_options){(data[0] & 64u) != 0 ? PERFBUF_STRICT : 0u, limit, limit, limit};
    BUDGETED(0, st = perfbuf_query_options(&r.q, &r.options, NULL));
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
                                                     lens[1], NULL));
        ORACLE(st == PERFBUF_OK || !r.added[0] || lens[1] == 0 || v2 ||
               st == PERFBUF_E_PATH_WILDCARD || lens[1] > 3u * PERFBUF_PATH_MAX_NAME);
    }
    /* Bit 4: the first counter pairs by UniqueID (a V1 query only). */
    if ((data[0] & 16u) != 0) {
        BUDGETED(0, st = perfbuf_query_pair_by_unique_id(&r.q, &r.counters[0], NULL));
        ORACLE(st == PERFBUF_OK ? r.added[0] && !v2 : !r.added[0] || v2);
    }
    /* A counter of every definition: a V1 query's alone. */
    BUDGETED(0, st = perfbuf_query_add_definitions(&r.q, &r.counters[2], NULL));
    r.added[2] = st == PERFBUF_OK;
    ORACLE(r.added[2] == !v2);
    /* It pairs by UniqueID with bit 4, or by "ID Process" where an object
     * has it with bit 2 (every other object keeps PDH's key). */
    if ((data[0] & 16u) != 0) {
        BUDGETED(0, st = perfbuf_query_pair_by_unique_id(&r.q, &r.counters[2], NULL));
        ORACLE((st == PERFBUF_OK) == r.added[2]);
    } else if ((data[0] & 4u) != 0) {
        BUDGETED(0, st = perfbuf_query_pair_by(&r.q, &r.counters[2], "ID Process", 10, NULL));
        ORACLE((st == PERFBUF_OK) == r.added[2]);
    }
    size_t bytes = 0;
    BUDGETED(0, st = perfbuf_query_add_definitions(&r.q, &r.counters[2], NULL));
    ORACLE(st == PERFBUF_E_INVALID_ARGUMENT);
    open_other(&r, parts[2], lens[2]);
    BUDGETED(0, st = perfbuf_query_arena(&r.q, NULL, &bytes, NULL));
    ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL);
    r.arena = malloc(bytes + 1u);
    r.arena_bytes = bytes;
    /* The first arena: the tables' indexes, or the registration's order
     * and the paths resolved against it once. */
    BUDGETED(r.table_len + lens[0] + lens[1],
             st = perfbuf_query_arena(&r.q, r.arena, &r.arena_bytes, NULL));
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
    if (r.other_open) {
        BUDGETED(0, st = perfbuf_query_close(&r.other, NULL));
        ORACLE(st == PERFBUF_OK);
    }
    BUDGETED(0, st = perfbuf_query_close(&r.q, NULL));
    ORACLE(st == PERFBUF_OK);
    free(r.machine);
    free(r.arena);
    return 0;
}
