/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Counter-path resolution (perfbuf/resolve.h) on arbitrary bytes. The
 * input is a 2-byte little-endian path length, the path (UTF-8), a 4-byte
 * table length, a Counter table, and a V1 data block (docs/fuzzing.md).
 * After the three parse: every object and counter resolve_* gives is one
 * perfbuf_title_matches accepts, resolution gives exactly those a walk
 * with perfbuf_title_matches gives, and each enumeration stays within the
 * lookup budget (fuzz/oracle.h: linear in the bytes, plus the path's
 * length per candidate compared). The table serves as both languages.
 * When the table and block do not parse as V1, they are tried as a V2
 * counter-name string block and a counterset registration: counters come
 * out once each in registration order, "*" gives exactly the displayable
 * ones, a decimal part at most the one counter of that id, each call
 * within the same budget.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/resolve.h"

/* Counters compared per object at most: enough to reach every branch,
 * few enough that the harness stays linear. */
#define OBJECTS_WITH_COUNTERS 8u

/*
 * The text of a title the path matched in `langs`: in each of those
 * languages it converts (or is cut by the output's size), and the whole
 * text matches its own title again. The one table serves both languages,
 * so both answer alike.
 */
static void check_title_text(const perfbuf_title_tables *names, uint32_t title_index,
                             perfbuf_language_set langs, size_t size)
{
    char english[256];
    char localized[256];
    size_t english_len = 0;
    size_t localized_len = 0;
    perfbuf_status english_st;
    perfbuf_status localized_st;
    BUDGETED(size + sizeof english,
             english_st = perfbuf_title_text_utf8(names, PERFBUF_LANGUAGE_ENGLISH, title_index,
                                                  english, sizeof english, &english_len));
    BUDGETED(size + sizeof localized,
             localized_st = perfbuf_title_text_utf8(names, PERFBUF_LANGUAGE_LOCALIZED, title_index,
                                                    localized, sizeof localized, &localized_len));
    ORACLE(english_st == localized_st && english_len == localized_len);
    ORACLE(oracle_text_status(english_st));
    ORACLE(strcmp(english, localized) == 0);
    if (english_st == PERFBUF_OK) {
        perfbuf_language_set again;
        BUDGETED(size + english_len,
                 again = perfbuf_title_matches(names, title_index, english, english_len));
        ORACLE((again & langs) == langs);
    }
}

static void resolve_all(const perfbuf_v1_block *b, const perfbuf_title_tables *names,
                        const perfbuf_counter_path *path, size_t size)
{
    const char *object = path->text + path->object.offset;
    const char *counter = path->text + path->counter.offset;
    bool every = (path->flags & PERFBUF_PATH_COUNTER_WILDCARD) != 0;
    perfbuf_v1_iter it;
    perfbuf_v1_iter walk;
    perfbuf_v1_object o;
    perfbuf_v1_object w;
    perfbuf_v1_objects_begin(b, &it);
    perfbuf_v1_objects_begin(b, &walk);
    uint32_t objects = 0;
    for (;;) {
        perfbuf_status st;
        perfbuf_error err;
        perfbuf_language_set langs = 0;
        BUDGETED_LOOKUP(size, b->object_count, path->text_len,
                        st = perfbuf_v1_resolve_object(b, names, path, &it, &o, &langs, &err));
        /* The walk's next match is the resolution's answer. */
        bool found = false;
        while (perfbuf_v1_objects_next(b, &walk, &w)) {
            perfbuf_language_set object_langs;
            BUDGETED_APART(size, object_langs = perfbuf_title_matches(names, w.name_title_index,
                                                                       object, path->object.length));
            if (object_langs != 0) {
                found = true;
                break;
            }
        }
        if (st != PERFBUF_OK) {
            ORACLE(st == PERFBUF_E_NOT_FOUND && !found);
            ORACLE(err.offset == path->object.offset && err.field != NULL);
            break;
        }
        ORACLE(found && w.offset == o.offset && langs != 0);
        check_title_text(names, o.name_title_index, langs, size);
        if (objects++ >= OBJECTS_WITH_COUNTERS) {
            continue;
        }
        perfbuf_v1_iter ci;
        perfbuf_v1_iter cw;
        perfbuf_v1_counter c;
        perfbuf_v1_counter d;
        perfbuf_v1_counters_begin(&o, &ci);
        perfbuf_v1_counters_begin(&o, &cw);
        for (;;) {
            BUDGETED_LOOKUP(size, o.counter_count, path->text_len,
                            st = perfbuf_v1_resolve_counter(b, names, path, &ci, &c, NULL, NULL));
            bool cfound = false;
            while (perfbuf_v1_counters_next(b, &cw, &d)) {
                perfbuf_language_set counter_langs = 0;
                if (!every) {
                    BUDGETED_APART(size, counter_langs = perfbuf_title_matches(
                                             names, d.name_title_index, counter,
                                             path->counter.length));
                }
                /* Only counters with a displayable value, named or "*". */
                if (perfbuf_counter_type_is_displayable(d.type) && (every || counter_langs != 0)) {
                    cfound = true;
                    break;
                }
            }
            if (st != PERFBUF_OK) {
                ORACLE(st == PERFBUF_E_NOT_FOUND && !cfound);
                break;
            }
            ORACLE(cfound && c.offset == d.offset);
        }
    }
}

static void resolve_v2(const uint8_t *table, size_t table_len, const uint8_t *block,
                       size_t block_len, const perfbuf_counter_path *path, size_t size)
{
    perfbuf_v2_reginfo r;
    perfbuf_v2_strings names;
    if (perfbuf_v2_reginfo_parse(block, block_len, NULL, &r, NULL) != PERFBUF_OK ||
        perfbuf_v2_strings_parse(table, table_len, PERFBUF_V2_STRINGS_AUTO, NULL, &names, NULL) !=
            PERFBUF_OK) {
        return;
    }
    bool matches;
    BUDGETED(size, matches = perfbuf_v2_counterset_matches(&r, NULL, path));
    if (matches) {
        /* Only the GUID's own spelling, 38 characters, matches without a name. */
        ORACLE(path->object.length == PERFBUF_GUID_STRING_SIZE - 1);
    }
    bool every = (path->flags & PERFBUF_PATH_COUNTER_WILDCARD) != 0;
    uint32_t displayable = 0;
    for (uint32_t i = 0; i < r.counter_count; i++) {
        perfbuf_v2_counter_reg c;
        ORACLE(perfbuf_v2_reginfo_counter(&r, i, &c));
        displayable += perfbuf_counter_type_is_displayable(c.type);
    }
    uint32_t next = 0;
    uint32_t found = 0;
    uint32_t last = 0;
    for (;;) {
        perfbuf_v2_counter_reg c;
        perfbuf_status st;
        BUDGETED_LOOKUP(size, r.counter_count, path->text_len,
                        st = perfbuf_v2_resolve_counter(&r, &names, path, &next, &c, NULL));
        if (st != PERFBUF_OK) {
            ORACLE(st == PERFBUF_E_NOT_FOUND && next == r.counter_count);
            break;
        }
        ORACLE(c.index < r.counter_count && (found == 0 || c.index > last));
        ORACLE(!every || perfbuf_counter_type_is_displayable(c.type));
        last = c.index;
        found++;
    }
    ORACLE(!every || found == displayable);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 6) {
        return 0;
    }
    size_t path_len = (size_t)data[0] | (size_t)data[1] << 8;
    if (path_len > size - 6) {
        return 0;
    }
    const uint8_t *p = data + 2 + path_len;
    size_t table_len = (size_t)p[0] | (size_t)p[1] << 8 | (size_t)p[2] << 16 | (size_t)p[3] << 24;
    size_t rest = size - 6 - path_len;
    if (table_len > rest) {
        return 0;
    }
    const uint8_t *table = p + 4;
    const uint8_t *block = table + table_len;
    size_t block_len = rest - table_len;

    perfbuf_counter_path path;
    perfbuf_name_table t;
    perfbuf_v1_block b;
    if (perfbuf_path_parse((const char *)data + 2, path_len, &path, NULL) != PERFBUF_OK) {
        return 0;
    }
    if (perfbuf_names_parse(table, table_len, NULL, &t, NULL) != PERFBUF_OK ||
        perfbuf_v1_parse(block, block_len, NULL, &b, NULL) != PERFBUF_OK) {
        resolve_v2(table, table_len, block, block_len, &path, size);
        return 0;
    }
    perfbuf_name_slot *slots = malloc(sizeof *slots * ((size_t)t.count + 1u));
    if (slots == NULL) {
        return 0;
    }
    perfbuf_name_index index;
    ORACLE(perfbuf_names_index_build(&t, slots, t.count, &index) == PERFBUF_OK);
    perfbuf_title_tables names = {&t, &index, &t, &index};
    resolve_all(&b, &names, &path, size);
    free(slots);
    return 0;
}
