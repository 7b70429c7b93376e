/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The Counter/Help name-table reader on arbitrary bytes: rejections point
 * inside the input; after a success every entry converts, the sorted index
 * finds exactly what the linear walk finds, and strict implies lenient;
 * every call stays within its work budget and the walk with every entry,
 * text and indexed lookup within the walk budget (docs/linear-time.md).
 * The title index (perfbuf/resolve.h) is sorted and finds every entry's
 * text with the entry among its range, within the n log n budget its
 * header documents: the build at most ceil(log2 n) + 1 times the per-byte
 * budget, and every lookup of every text the same.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "perfbuf/names.h"
#include "perfbuf/resolve.h"

/* The sorted index, then every entry, its text and its indexed lookup:
 * n log n for the sort and the lookups, well inside the walk budget since
 * each entry takes at least eight bytes. */
static void walk(const perfbuf_name_table *t, perfbuf_name_slot *slots, size_t size)
{
    perfbuf_name_index index_storage;
    const perfbuf_name_index *index = &index_storage;
    perfbuf_status built;
    BUDGETED(size, built = perfbuf_names_index_build(t, slots, t->count, &index_storage));
    ORACLE(built == PERFBUF_OK);
    for (uint32_t i = 1; i < index->count; i++) {
        ORACLE(slots[i - 1].title_index <= slots[i].title_index);
    }
    perfbuf_names_iter it;
    perfbuf_name_entry e;
    uint32_t n = 0;
    bool more;
    BUDGETED(size, perfbuf_names_begin(t, &it));
    for (;;) {
        BUDGETED(size, more = perfbuf_names_next(t, &it, &e));
        if (!more) {
            break;
        }
        ORACLE(oracle_inside(e.text_offset, e.text_units * 2, size));
        char text[64];
        size_t len;
        perfbuf_status conv;
        BUDGETED(size + sizeof text, conv = perfbuf_names_text_utf8(t, &e, text, sizeof text, &len));
        ORACLE(oracle_text_status(conv));
        perfbuf_name_entry linear;
        perfbuf_name_entry sorted;
        perfbuf_status st;
        /* A linear lookup per entry is O(n) each: budgeted per call only. */
        BUDGETED_APART(size, st = perfbuf_names_find(t, e.title_index, &linear));
        ORACLE(st == PERFBUF_OK);
        BUDGETED(size, st = perfbuf_names_index_find(t, index, e.title_index, &sorted));
        ORACLE(st == PERFBUF_OK);
        ORACLE(linear.offset == sorted.offset && linear.offset <= e.offset);
        n++;
    }
    ORACLE(n == t->count);
}

/* Whether converted text holds U+FFFD, what unpaired surrogates become. */
static bool has_replacement(const char *text, size_t len)
{
    for (size_t i = 0; i + 2 < len; i++) {
        if ((uint8_t)text[i] == 0xEF && (uint8_t)text[i + 1] == 0xBF &&
            (uint8_t)text[i + 2] == 0xBD) {
            return true;
        }
    }
    return false;
}

/* The title index: sorted by folded text, and every text that converts
 * whole finds a range holding its own entry. */
static void titles(const perfbuf_name_table *t, perfbuf_title_slot *slots, size_t size)
{
    perfbuf_title_index ix;
    perfbuf_status built;
    BUDGETED_LOG(size, t->count,
                 built = perfbuf_title_index_build(t, slots, perfbuf_title_index_slots(t), &ix));
    ORACLE(built == PERFBUF_OK && ix.count == t->count);
    BUDGETED_LOG(size, t->count, {
        perfbuf_names_iter it;
        perfbuf_name_entry e;
        perfbuf_names_begin(t, &it);
        while (perfbuf_names_next(t, &it, &e)) {
            char text[64];
            size_t len;
            if (perfbuf_names_text_utf8(t, &e, text, sizeof text, &len) != PERFBUF_OK) {
                continue;
            }
            uint32_t first;
            uint32_t count;
            perfbuf_status st = perfbuf_title_index_find(&ix, text, len, &first, &count);
            /* Unpaired surrogates convert to U+FFFD: such a text is not
             * its own UTF-8 spelling, and may be absent. */
            if (st == PERFBUF_E_NOT_FOUND) {
                ORACLE(has_replacement(text, len));
                continue;
            }
            ORACLE(st == PERFBUF_OK && count > 0 && first + count <= ix.count);
            /* The ends of the range hold the text; equal texts keep table
             * order, so the entry's own slot is found by its offset. */
            ORACLE(perfbuf_title_equals_utf8(t, &(perfbuf_name_entry){0, 0,
                                                    ix.slots[first].text_offset,
                                                    ix.slots[first].text_units}, text, len));
            ORACLE(perfbuf_title_equals_utf8(t, &(perfbuf_name_entry){0, 0,
                                                    ix.slots[first + count - 1].text_offset,
                                                    ix.slots[first + count - 1].text_units},
                                             text, len));
            uint32_t lo = first;
            uint32_t hi = first + count;
            while (lo < hi) {
                uint32_t mid = lo + (hi - lo) / 2;
                ORACLE(mid == first || ix.slots[mid - 1].text_offset < ix.slots[mid].text_offset);
                if (ix.slots[mid].text_offset < e.text_offset) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            bool own = lo < first + count && ix.slots[lo].text_offset == e.text_offset;
            ORACLE(own || has_replacement(text, len));
        }
    });
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    perfbuf_name_table t;
    perfbuf_error err;
    perfbuf_status st;
    BUDGETED(size, st = perfbuf_names_parse(data, size, NULL, &t, &err));
    if (st != PERFBUF_OK) {
        ORACLE(err.offset <= size);
        ORACLE(err.structure != NULL && err.field != NULL);
    } else {
        ORACLE(t.size <= size);
        perfbuf_name_slot *slots = malloc(sizeof *slots * (t.count ? t.count : 1));
        if (slots == NULL) {
            return 0;
        }
        WALK_BUDGETED(size, walk(&t, slots, size));
        free(slots);
        perfbuf_title_slot *title_slots = malloc(sizeof *title_slots * (2u * (size_t)t.count + 1u));
        if (title_slots == NULL) {
            return 0;
        }
        titles(&t, title_slots, size);
        free(title_slots);
    }
    perfbuf_options strict_opts = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_name_table strict;
    perfbuf_status strict_st;
    BUDGETED(size, strict_st = perfbuf_names_parse(data, size, &strict_opts, &strict, &err));
    if (strict_st == PERFBUF_OK) {
        ORACLE(st == PERFBUF_OK && t.anomalies == 0);
    }
    return 0;
}
