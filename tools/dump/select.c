/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "select.h"

#include <stdio.h>
#include <stdlib.h>

#include "dump.h"
#include "perfbuf/counter_types.h"

bool select_active(const dump_selection *s)
{
    return s != NULL && s->count > 0;
}

static const char *part_text(const perfbuf_counter_path *p, perfbuf_span sp)
{
    return p->text + sp.offset;
}

/* The items of one counter's formatted array: their count, or 0 when it
 * has none (NOT_FOUND included: the counter's `found` says why). */
static size_t item_count(const perfbuf_query *q, const perfbuf_query_counter *c)
{
    size_t count = 0;
    bool some = perfbuf_query_formatted_array(q, c, PERFBUF_FMT_DOUBLE, NULL, &count, NULL, NULL,
                                              NULL) == PERFBUF_E_OUTPUT_TOO_SMALL;
    return some ? count : 0;
}

/* Appends the object << 32 | position key of each of the counter's items
 * to s->items, which has room for `count` more. */
static void take_items(dump_selection *s, const perfbuf_query *q, const perfbuf_query_counter *c,
                       perfbuf_formatted_item *items, size_t count)
{
    size_t got = count;
    if (count == 0 ||
        perfbuf_query_formatted_array(q, c, PERFBUF_FMT_DOUBLE, items, &got, NULL, NULL, NULL) !=
            PERFBUF_OK) {
        return;
    }
    for (size_t k = 0; k < got; k++) {
        DUMP_WORK(1);
        s->items[s->item_count++] = (uint64_t)items[k].object << 32 | items[k].position;
    }
}

void select_take_query(dump_selection *s, const perfbuf_query *q,
                       const perfbuf_query_counter *counters, const bool *added, bool collected)
{
    s->object_ok = dump_calloc(s->count, sizeof *s->object_ok);
    s->found = dump_calloc(s->count, sizeof *s->found);
    s->item_count = 0;
    /* Every path's items are counted first, so the keys are allocated once. */
    size_t *counts = dump_calloc(s->count, sizeof *counts);
    size_t total = 0, largest = 0;
    for (size_t p = 0; p < s->count; p++) {
        DUMP_WORK(1);
        /* A path the query could not take (no Counter table to resolve it
         * by) names no object, as it names none here. */
        s->found[p] = added[p] && collected ? counters[p].found : PERFBUF_QUERY_FOUND_NO_OBJECT;
        counts[p] = added[p] && collected ? item_count(q, &counters[p]) : 0;
        total += counts[p];
        largest = counts[p] > largest ? counts[p] : largest;
    }
    s->items = dump_calloc(total, sizeof *s->items);
    perfbuf_formatted_item *items = dump_calloc(largest, sizeof *items);
    for (size_t p = 0; p < s->count; p++) {
        DUMP_WORK(1);
        take_items(s, q, &counters[p], items, counts[p]);
    }
    free(items);
    free(counts);
    dump_sort_u64(s->items, s->item_count);
}

void select_free(dump_selection *s)
{
    free(s->object_ok);
    free(s->found);
    free(s->items);
}

bool select_object(dump_selection *s, const perfbuf_v1_object *o)
{
    bool any = false;
    for (size_t p = 0; p < s->count; p++) {
        DUMP_WORK(1);
        const perfbuf_counter_path *path = &s->paths[p];
        s->object_ok[p] = perfbuf_title_matches(s->names, o->name_title_index,
                                                part_text(path, path->object),
                                                path->object.length) != 0;
        any = any || s->object_ok[p];
    }
    return any;
}

bool select_report_found(const perfbuf_counter_path *path, uint32_t found, const char *file)
{
    const char *missing = NULL;
    switch (found) {
    case PERFBUF_QUERY_FOUND_NO_OBJECT:
        missing = "no object of that name";
        break;
    case PERFBUF_QUERY_FOUND_NO_COUNTER:
        missing = "no counter of that name in the object";
        break;
    case PERFBUF_QUERY_FOUND_NO_INSTANCE:
        missing = "no instance of that name";
        break;
    case PERFBUF_QUERY_FOUND_NO_PARENT:
        missing = "no instance has a parent of that name";
        break;
    case PERFBUF_QUERY_FOUND_NO_MACHINE:
        missing = "the path names another computer than the capture's";
        break;
    case PERFBUF_QUERY_FOUND_UNNAMED:
        missing = "the object has instances and the path names none";
        break;
    case PERFBUF_QUERY_FOUND_EMPTY_OBJECT:
        fprintf(stderr,
                "perfbuf-dump: %s: --counter %.*s: the object has no instances; "
                "only the header is shown\n",
                file, (int)(path->text_len > 4096 ? 4096 : path->text_len), path->text);
        return false;
    default:
        return false;
    }
    fprintf(stderr, "perfbuf-dump: %s: --counter %.*s: %s\n", file,
            (int)(path->text_len > 4096 ? 4096 : path->text_len), path->text, missing);
    return true;
}

bool select_report_unmatched(const dump_selection *s, const char *file)
{
    bool failed = false;
    for (size_t p = 0; p < s->count; p++) {
        DUMP_WORK(1);
        failed = select_report_found(&s->paths[p], s->found[p], file) || failed;
    }
    return failed;
}

bool select_counter(const dump_selection *s, const perfbuf_v1_counter *c)
{
    /* As perfbuf_v1_resolve_counter: a base counter is never selected, even
     * where it carries its counter's title index. */
    if (!perfbuf_counter_type_is_displayable(c->type)) {
        return false;
    }
    for (size_t p = 0; p < s->count; p++) {
        DUMP_WORK(1);
        const perfbuf_counter_path *path = &s->paths[p];
        if (s->object_ok[p] &&
            ((path->flags & PERFBUF_PATH_COUNTER_WILDCARD) != 0 ||
             perfbuf_title_matches(s->names, c->name_title_index, part_text(path, path->counter),
                                   path->counter.length) != 0)) {
            return true;
        }
    }
    return false;
}

static bool has_item(const dump_selection *s, uint64_t key)
{
    size_t lo = 0;
    size_t hi = s->item_count;
    while (lo < hi) {
        DUMP_WORK(1);
        size_t mid = lo + (hi - lo) / 2;
        if (s->items[mid] < key) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < s->item_count && s->items[lo] == key;
}

bool select_block(const dump_selection *s, uint32_t object)
{
    return has_item(s, (uint64_t)object << 32 | PERFBUF_ITEM_NO_INSTANCE);
}

bool select_instance(const dump_selection *s, uint32_t object, uint32_t instance)
{
    return has_item(s, (uint64_t)object << 32 | instance);
}
