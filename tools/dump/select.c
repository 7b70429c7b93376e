/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        s->counters[s->item_count] = (uint64_t)items[k].object << 32 | items[k].counter;
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
    s->counters = dump_calloc(total, sizeof *s->counters);
    perfbuf_formatted_item *items = dump_calloc(largest, sizeof *items);
    for (size_t p = 0; p < s->count; p++) {
        DUMP_WORK(1);
        take_items(s, q, &counters[p], items, counts[p]);
    }
    free(items);
    free(counts);
    dump_sort_u64(s->items, s->item_count);
    dump_sort_u64(s->counters, s->item_count);
}

void select_free(dump_selection *s)
{
    free(s->object_ok);
    free(s->found);
    free(s->items);
    free(s->counters);
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

static bool has_key(const uint64_t *keys, size_t count, uint64_t key)
{
    size_t lo = 0;
    size_t hi = count;
    while (lo < hi) {
        DUMP_WORK(1);
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < key) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < count && keys[lo] == key;
}

static bool has_item(const dump_selection *s, uint64_t key)
{
    return has_key(s->items, s->item_count, key);
}

bool select_any(const dump_selection *s, uint32_t object)
{
    return dump_find_high(s->items, s->item_count, object) != s->item_count;
}

bool select_counter_id(const dump_selection *s, uint32_t object, uint32_t counter)
{
    return has_key(s->counters, s->item_count, (uint64_t)object << 32 | counter);
}

bool select_block(const dump_selection *s, uint32_t object)
{
    return has_item(s, (uint64_t)object << 32 | PERFBUF_ITEM_NO_INSTANCE);
}

bool select_instance(const dump_selection *s, uint32_t object, uint32_t instance)
{
    return has_item(s, (uint64_t)object << 32 | instance);
}

/* ---- why a path matched nothing ---- */

void select_candidates_add(select_candidates *c, bool parent_matches, const char *name,
                           size_t name_len)
{
    if (c->count == c->cap) {
        c->cap = c->cap ? c->cap * 2u : 16u;
        size_t *grown = dump_calloc(c->cap, 3 * sizeof *grown);
        if (c->spans != NULL) {
            memcpy(grown, c->spans, c->count * 3 * sizeof *grown);
        }
        free(c->spans);
        c->spans = grown;
    }
    while (c->text_cap - c->text_len < name_len) {
        DUMP_WORK(1);
        size_t bigger = c->text_cap ? c->text_cap * 2u : 256u;
        char *grown = dump_calloc(bigger, 1);
        if (c->text != NULL) {
            memcpy(grown, c->text, c->text_len);
        }
        free(c->text);
        c->text = grown;
        c->text_cap = bigger;
    }
    size_t *span = &c->spans[3 * c->count++];
    span[0] = parent_matches ? 1u : 0u;
    span[1] = c->text_len;
    span[2] = name_len;
    memcpy(c->text + c->text_len, name, name_len);
    c->text_len += name_len;
    DUMP_WORK(name_len);
}

void select_candidates_free(select_candidates *c)
{
    free(c->text);
    free(c->spans);
    memset(c, 0, sizeof *c);
}

static void miss_words(dump_miss *m, const char *part, size_t offset, const char *words)
{
    m->part = part;
    m->offset = offset;
    snprintf(m->words, sizeof m->words, "%s", words);
}

/*
 * Why an instance part named none of the candidates. The query's answer
 * (PERFBUF_QUERY_FOUND_NO_INSTANCE) is the same for each of these, so the
 * tool compares the parts itself, as the query compares them
 * (perfbuf_path_name_matches: ASCII letters case-insensitively).
 */
static void explain_instance(const perfbuf_counter_path *path, const select_candidates *c,
                             dump_miss *m)
{
    const perfbuf_span *inst = &path->instance;
    if (!c->has_instances) {
        miss_words(m, "Instance", inst->offset,
                   "the object has no instances: it holds one counter block, "
                   "which a path names without \"(...)\"");
        return;
    }
    bool named_parent = (path->flags & PERFBUF_PATH_HAS_PARENT) != 0 &&
                        (path->flags & PERFBUF_PATH_PARENT_WILDCARD) == 0;
    bool parent_found = false;
    bool name_found = false;
    for (size_t k = 0; k < c->count; k++) {
        DUMP_WORK(1);
        const size_t *span = &c->spans[3 * k];
        bool parent_ok = span[0] != 0;
        parent_found = parent_found || parent_ok;
        name_found = name_found ||
                     (parent_ok && perfbuf_path_name_matches(path, PERFBUF_PATH_INSTANCE,
                                                             c->text + span[1], span[2]));
    }
    if (named_parent && !parent_found) {
        miss_words(m, "Parent", path->parent.offset,
                   "no instance of the object has a parent of that name");
    } else if (!name_found && (path->flags & PERFBUF_PATH_INSTANCE_PREFIX) != 0) {
        miss_words(m, "Instance", inst->offset,
                   named_parent ? "no instance under that parent has a name that starts "
                                  "with that prefix"
                                : "no instance has a name that starts with that prefix");
    } else if (!name_found) {
        miss_words(m, "Instance", inst->offset,
                   named_parent ? "no instance of that name under that parent"
                                : "no instance of that name");
    } else if ((path->flags & PERFBUF_PATH_HAS_INDEX) == 0) {
        /* A name the candidates have, and no #N: what the query compared
         * otherwise (a UniqueID's own numbering, docs/collector.md) names
         * none. */
        miss_words(m, "Instance", inst->offset, "no instance of that name");
    } else {
        /* The name is there: the #N is what names none. */
        char words[96];
        snprintf(words, sizeof words, "no instance of that name has the index #%u",
                 (unsigned)path->index);
        miss_words(m, "Index", inst->offset + inst->length, words);
    }
}

/* Fills m for a path that failed the run; false for an answer that does not. */
static bool explain(const perfbuf_counter_path *path, uint32_t found, int kind,
                    select_candidates_fn fill, void *context, dump_miss *m)
{
    switch (found) {
    case PERFBUF_QUERY_FOUND_NO_OBJECT:
        miss_words(m, "Object", path->object.offset,
                   kind == SELECT_V1 ? "no object of that name"
                   : kind == SELECT_V2
                       ? "no counterset of that name or GUID in the registration"
                       : "no counterset of that GUID in the registration (its name needs "
                         "--counterset-name)");
        return true;
    case PERFBUF_QUERY_FOUND_NO_COUNTER:
        miss_words(m, "Counter", path->counter.offset, "no counter of that name in the object");
        return true;
    case PERFBUF_QUERY_FOUND_UNNAMED:
        miss_words(m, "Instance", path->object.offset + path->object.length,
                   "the object has instances and the path names none");
        return true;
    case PERFBUF_QUERY_FOUND_NO_PARENT:
        miss_words(m, "Parent", path->parent.offset,
                   "no instance of the object has a parent of that name");
        return true;
    case PERFBUF_QUERY_FOUND_NO_MACHINE:
        miss_words(m, "Machine", path->machine.offset,
                   "the path names another computer than the capture's (its SystemName)");
        return true;
    case PERFBUF_QUERY_FOUND_NO_INSTANCE: {
        select_candidates c;
        memset(&c, 0, sizeof c);
        if (fill != NULL) {
            fill(context, path, &c);
        } else {
            c.has_instances = true;
        }
        explain_instance(path, &c, m);
        select_candidates_free(&c);
        return true;
    }
    default:
        return false;
    }
}

bool select_report_paths(const perfbuf_counter_path *paths, const uint32_t *found, size_t count,
                         const char *file, int kind, select_candidates_fn fill, void *context,
                         dump_miss *first)
{
    bool failed = false;
    for (size_t p = 0; p < count; p++) {
        DUMP_WORK(1);
        const perfbuf_counter_path *path = &paths[p];
        int shown = (int)(path->text_len > 4096 ? 4096 : path->text_len);
        dump_miss m;
        memset(&m, 0, sizeof m);
        if (found[p] == PERFBUF_QUERY_FOUND_EMPTY_OBJECT) {
            fprintf(stderr,
                    "perfbuf-dump: %s: --counter %.*s: the object has no instances at this "
                    "moment (not an error)\n",
                    file, shown, path->text);
        } else if (explain(path, found[p], kind, fill, context, &m)) {
            fprintf(stderr, "perfbuf-dump: %s: --counter %.*s: %s\n", file, shown, path->text,
                    m.words);
            if (!failed && first != NULL) {
                *first = m;
                first->set = true;
                first->path = p;
            }
            failed = true;
        }
    }
    return failed;
}
