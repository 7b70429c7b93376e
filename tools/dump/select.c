/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/text.h"

/* The longest parent/name kept, in bytes, as for `full_name`: PDH's
 * limits are far below it, so no path can name a longer one. */
#define NAME_MAX_BYTES 4095

bool select_active(const dump_selection *s)
{
    return s != NULL && s->count > 0;
}

static const char *part_text(const perfbuf_counter_path *p, perfbuf_span sp)
{
    return p->text + sp.offset;
}

static bool select_instance_by(const dump_selection *s, size_t p, const dump_instance_names *n,
                               uint32_t i);

void select_track(dump_selection *s)
{
    s->object_ok = dump_calloc(s->count, sizeof *s->object_ok);
    s->used = dump_calloc(s->count, sizeof *s->used);
    s->counter_found = dump_calloc(s->count, sizeof *s->counter_found);
    s->instance_found = dump_calloc(s->count, sizeof *s->instance_found);
    s->empty_found = dump_calloc(s->count, sizeof *s->empty_found);
}

void select_free(dump_selection *s)
{
    free(s->object_ok);
    free(s->used);
    free(s->counter_found);
    free(s->instance_found);
    free(s->empty_found);
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
        if (s->used != NULL && s->object_ok[p]) {
            s->used[p] = true;
            bool has_instance = (path->flags & PERFBUF_PATH_HAS_INSTANCE) != 0;
            /* PERF_NO_INSTANCES (-1): the object's one counter block is
             * what a path without an instance names. */
            if (!has_instance && o->num_instances < 0) {
                s->instance_found[p] = true;
            }
            if (has_instance && o->num_instances == 0) {
                s->empty_found[p] = true;
            }
        }
    }
    return any;
}

void select_mark_instances(const dump_selection *s, const dump_instance_names *n)
{
    for (size_t p = 0; s->instance_found != NULL && p < s->count; p++) {
        for (uint32_t i = 0; s->object_ok[p] && !s->instance_found[p] && i < n->count; i++) {
            DUMP_WORK(1);
            s->instance_found[p] = select_instance_by(s, p, n, i);
        }
    }
}

bool select_report_unmatched(const dump_selection *s, const char *file)
{
    bool failed = false;
    for (size_t p = 0; s->used != NULL && p < s->count; p++) {
        DUMP_WORK(1);
        const perfbuf_counter_path *path = &s->paths[p];
        bool has_instance = (path->flags & PERFBUF_PATH_HAS_INSTANCE) != 0;
        /* A wildcard instance with a parent part or without one: an
         * object with no instances has no parents either, so neither can
         * name an instance that is not there. */
        bool wildcard = (path->flags & PERFBUF_PATH_INSTANCE_WILDCARD) != 0;
        const char *missing = NULL;
        if (!s->used[p]) {
            missing = "no object of that name";
        } else if (!s->counter_found[p]) {
            missing = "no counter of that name in the object";
        } else if (!s->instance_found[p] && s->empty_found[p] && wildcard) {
            fprintf(stderr, "perfbuf-dump: %s: --counter %.*s: the object has no instances; "
                    "only the header is shown\n", file,
                    (int)(path->text_len > 4096 ? 4096 : path->text_len), path->text);
            continue;
        } else if (!s->instance_found[p]) {
            missing = has_instance ? "no instance of that name"
                                   : "the object has instances and the path names none";
        }
        if (missing != NULL) {
            fprintf(stderr, "perfbuf-dump: %s: --counter %.*s: %s\n", file,
                    (int)(path->text_len > 4096 ? 4096 : path->text_len), path->text, missing);
            failed = true;
        }
    }
    return failed;
}

/* Whether path p (its object marked) names counter c. */
static bool select_counter_by(const dump_selection *s, size_t p, const perfbuf_v1_counter *c)
{
    const perfbuf_counter_path *path = &s->paths[p];
    if (!s->object_ok[p]) {
        return false;
    }
    /* As perfbuf_v1_resolve_counter: a base counter is never selected, even
     * where it carries its counter's title index. */
    if (!perfbuf_counter_type_is_displayable(c->type)) {
        return false;
    }
    bool found = (path->flags & PERFBUF_PATH_COUNTER_WILDCARD) != 0 ||
                 perfbuf_title_matches(s->names, c->name_title_index,
                                       part_text(path, path->counter),
                                       path->counter.length) != 0;
    if (found && s->counter_found != NULL) {
        s->counter_found[p] = true;
    }
    return found;
}

bool select_counter(const dump_selection *s, const perfbuf_v1_counter *c)
{
    /* Every path is asked, so each records whether it found a counter. */
    bool any = false;
    for (size_t p = 0; p < s->count; p++) {
        DUMP_WORK(1);
        any = select_counter_by(s, p, c) || any;
    }
    return any;
}

bool select_block_by(const dump_selection *s, size_t p)
{
    return s->object_ok[p] && (s->paths[p].flags & PERFBUF_PATH_HAS_INSTANCE) == 0;
}

/* Whether path p selects instance i of names. */
static bool select_instance_by(const dump_selection *s, size_t p, const dump_instance_names *n,
                               uint32_t i)
{
    if (!s->object_ok[p] || i >= n->count || !n->named[i]) {
        return false;
    }
    return perfbuf_path_instance_matches(&s->paths[p], n->arena + n->parent_at[i],
                                         n->parent_len[i], n->arena + n->name_at[i],
                                         n->name_len[i], n->ordinal[i]);
}

bool select_instance(const dump_selection *s, const dump_instance_names *n, uint32_t i)
{
    for (size_t p = 0; p < s->count; p++) {
        DUMP_WORK(1);
        if (select_instance_by(s, p, n, i)) {
            return true;
        }
    }
    return false;
}

void instance_names_init(dump_instance_names *n)
{
    memset(n, 0, sizeof *n);
}

void instance_names_free(dump_instance_names *n)
{
    free(n->arena);
    free(n->parent_at);
    free(n->parent_len);
    free(n->name_at);
    free(n->name_len);
    free(n->ordinal);
    free(n->cut);
    free(n->named);
    free(n->parent_key);
    instance_names_init(n);
}

static void reserve(dump_instance_names *n, uint32_t count)
{
    if (count <= n->cap) {
        return;
    }
    free(n->parent_at);
    free(n->parent_len);
    free(n->name_at);
    free(n->name_len);
    free(n->ordinal);
    free(n->cut);
    free(n->named);
    free(n->parent_key);
    n->parent_at = dump_calloc(count, sizeof *n->parent_at);
    n->parent_len = dump_calloc(count, sizeof *n->parent_len);
    n->name_at = dump_calloc(count, sizeof *n->name_at);
    n->name_len = dump_calloc(count, sizeof *n->name_len);
    n->ordinal = dump_calloc(count, sizeof *n->ordinal);
    n->cut = dump_calloc(count, sizeof *n->cut);
    n->named = dump_calloc(count, sizeof *n->named);
    n->parent_key = dump_calloc(count, sizeof *n->parent_key);
    n->cap = count;
}

/* Room for `more` bytes in the arena. */
static void arena_fit(dump_instance_names *n, size_t more)
{
    if (n->arena_cap - n->arena_used >= more) {
        return;
    }
    size_t cap = n->arena_cap ? n->arena_cap : 4096;
    while (cap - n->arena_used < more) {
        DUMP_WORK(1);
        cap *= 2;
    }
    char *grown = dump_calloc(cap, 1);
    if (n->arena_used > 0) {
        memcpy(grown, n->arena, n->arena_used);
    }
    free(n->arena);
    n->arena = grown;
    n->arena_cap = cap;
}

/* The sorts below order positions by a key of `sorting`: qsort has no
 * context argument, and the tool is single-threaded. */
static const dump_instance_names *sorting;

static int by_parent(const void *a, const void *b)
{
    DUMP_WORK(1);
    uint32_t i = *(const uint32_t *)a;
    uint32_t j = *(const uint32_t *)b;
    size_t ki = sorting->parent_key[i], kj = sorting->parent_key[j];
    return ki < kj ? -1 : ki > kj ? 1 : i < j ? -1 : i > j ? 1 : 0;
}

/* The order of two UTF-8 names with ASCII letters folded and every other
 * byte compared as it is, a proper prefix first: the query's instance
 * keys compare names so (only A-Z fold, docs/cli.md), and UTF-8 writes an
 * ASCII letter as that one byte and never uses its value inside another
 * character, so folding bytes folds exactly those letters. */
static int folded_order(const char *a, size_t la, const char *b, size_t lb)
{
    size_t shorter = la < lb ? la : lb;
    for (size_t k = 0; k < shorter; k++) {
        DUMP_WORK(1);
        unsigned char x = (unsigned char)a[k], y = (unsigned char)b[k];
        x = x >= 'A' && x <= 'Z' ? (unsigned char)(x + ('a' - 'A')) : x;
        y = y >= 'A' && y <= 'Z' ? (unsigned char)(y + ('a' - 'A')) : y;
        if (x != y) {
            return x < y ? -1 : 1;
        }
    }
    return la == lb ? 0 : la < lb ? -1 : 1;
}

/* Orders instances by parent, then name, both ASCII-folded: instances
 * that #N counts together (equal parent and name) are adjacent, in buffer
 * order. */
static int folded_full_name_order(const dump_instance_names *n, uint32_t i, uint32_t j)
{
    /* Children of one parent share its text: a long parent is not read
     * again for every pair of them. */
    bool shared_parent = n->parent_at[i] == n->parent_at[j] &&
                         n->parent_len[i] == n->parent_len[j];
    int c = shared_parent ? 0 : folded_order(n->arena + n->parent_at[i], n->parent_len[i],
                         n->arena + n->parent_at[j], n->parent_len[j]);
    if (c == 0) {
        c = folded_order(n->arena + n->name_at[i], n->name_len[i], n->arena + n->name_at[j],
                         n->name_len[j]);
    }
    return c;
}

static int by_full_name(const void *a, const void *b)
{
    DUMP_WORK(1);
    uint32_t i = *(const uint32_t *)a;
    uint32_t j = *(const uint32_t *)b;
    int c = folded_full_name_order(sorting, i, j);
    if (c == 0) {
        c = i < j ? -1 : i > j ? 1 : 0;
    }
    return c;
}

/* inst's parent when it names one whose name converts (otherwise its full
 * name is its own name, as perfbuf_v1_full_name_utf8 writes it). */
static bool named_parent(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                         const perfbuf_v1_instance *inst,
                         const perfbuf_v1_instance_index *parents, perfbuf_v1_instance *parent)
{
    return inst->parent_title_index != 0 &&
           perfbuf_v1_parent(b, o, inst, parents, parent, NULL) == PERFBUF_OK &&
           (parent->code_page == 0 || perfbuf_codepage_supported(parent->code_page));
}

/* Converts text into the arena, at most NAME_MAX_BYTES of it; *cut when
 * it did not fit. The arena offset it starts at. */
static size_t arena_name(dump_instance_names *n, const perfbuf_v1_block *b,
                         const perfbuf_v1_instance *inst, size_t *len, bool *cut)
{
    arena_fit(n, NAME_MAX_BYTES + 1);
    size_t at = n->arena_used;
    *len = 0;
    perfbuf_status st =
        perfbuf_v1_instance_name_utf8(b, inst, n->arena + at, NAME_MAX_BYTES + 1, len);
    *cut = st == PERFBUF_E_OUTPUT_TOO_SMALL;
    *len = st == PERFBUF_OK || *cut ? strlen(n->arena + at) : 0;
    n->arena_used += *len + 1;
    return at;
}

/* Whether some path of the object could select an instance of this
 * parent and name, whatever its #N. */
static bool could_select(const dump_selection *s, const dump_instance_names *n, uint32_t i,
                         const char *own, size_t own_len)
{
    for (size_t p = 0; p < s->count; p++) {
        DUMP_WORK(1);
        const perfbuf_counter_path *path = &s->paths[p];
        if (!s->object_ok[p] || (path->flags & PERFBUF_PATH_HAS_INSTANCE) == 0) {
            continue;
        }
        uint32_t any = (path->flags & PERFBUF_PATH_HAS_INDEX) != 0 ? path->index : 0;
        if (perfbuf_path_instance_matches(path, n->arena + n->parent_at[i], n->parent_len[i], own,
                                          own_len, any)) {
            return true;
        }
    }
    return false;
}

/*
 * Names the instances of o that some path could select and numbers them
 * (#N) among those of the same parent and name, ASCII case folded as the
 * query's keys fold it: a path's case-insensitive match selects all of
 * such a group or none of it, so the numbering is the query's.
 * Each parent's name is converted once, for all its children (grouped by
 * the parent's offset), and an instance no path can select keeps no name:
 * converting every child's "parent/name" whole made a long parent shared
 * by many children cost their product, whatever the path selected.
 * O(n log n) in the instances plus the object's and its parents' names.
 */
void instance_names_collect(dump_instance_names *n, const dump_selection *s,
                            const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                            const perfbuf_v1_instance_index *parents)
{
    n->count = 0;
    n->arena_used = 0;
    reserve(n, o->instance_count);
    uint32_t *order = dump_calloc(o->instance_count, sizeof *order);
    uint32_t with_parent = 0;
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst, parent;
    perfbuf_v1_instances_begin(o, &it);
    while (n->count < o->instance_count && perfbuf_v1_instances_next(b, &it, &inst)) {
        DUMP_WORK(1);
        uint32_t i = n->count++;
        n->parent_key[i] = 0;
        n->parent_at[i] = 0;
        n->parent_len[i] = 0;
        n->cut[i] = false;
        n->named[i] = false;
        n->ordinal[i] = 0;
        if (named_parent(b, o, &inst, parents, &parent)) {
            n->parent_key[i] = parent.offset + 1;
            order[with_parent++] = i;
        }
    }
    /* Every parent once: the first of its children (by the parent's
     * offset) converts it, in a walk in buffer order; the others share its
     * text in the arena. */
    arena_fit(n, 1);
    n->arena[n->arena_used++] = '\0'; /* the empty parent, at 0 */
    sorting = n;
    qsort(order, with_parent, sizeof *order, by_parent);
    bool *converts = dump_calloc(n->count, sizeof *converts);
    for (uint32_t k = 0; k < with_parent; k++) {
        DUMP_WORK(1);
        converts[order[k]] = k == 0 || n->parent_key[order[k - 1]] != n->parent_key[order[k]];
    }
    uint32_t i = 0;
    perfbuf_v1_instances_begin(o, &it);
    for (i = 0; i < n->count && perfbuf_v1_instances_next(b, &it, &inst); i++) {
        DUMP_WORK(1);
        if (converts[i] && named_parent(b, o, &inst, parents, &parent)) {
            n->parent_at[i] = arena_name(n, b, &parent, &n->parent_len[i], &n->cut[i]);
        }
    }
    for (uint32_t k = 1; k < with_parent; k++) {
        DUMP_WORK(1);
        uint32_t child = order[k], before = order[k - 1];
        if (!converts[child]) {
            n->parent_at[child] = n->parent_at[before];
            n->parent_len[child] = n->parent_len[before];
            n->cut[child] = n->cut[before];
        }
    }
    free(converts);
    /* Own names, kept only where some path could select them. */
    dump_text own;
    dump_text_init(&own);
    uint32_t named = 0;
    perfbuf_v1_instances_begin(o, &it);
    for (i = 0; i < n->count && perfbuf_v1_instances_next(b, &it, &inst); i++) {
        DUMP_WORK(1);
        size_t own_len = 0;
        perfbuf_status st = perfbuf_v1_instance_name_utf8(b, &inst, own.buf, own.cap, &own_len);
        if (st == PERFBUF_E_OUTPUT_TOO_SMALL) {
            dump_text_fit(&own, own_len);
            st = perfbuf_v1_instance_name_utf8(b, &inst, own.buf, own.cap, &own_len);
        }
        own_len = st == PERFBUF_OK ? strlen(own.buf) : 0;
        /* A parent/name longer than the tool keeps is cut: it is matched
         * and shown by its parent part alone, with no #N. */
        bool has_parent = n->parent_key[i] != 0;
        if (n->cut[i] || (has_parent ? n->parent_len[i] + 1 : 0) + own_len > NAME_MAX_BYTES) {
            n->cut[i] = true;
            own_len = 0;
        }
        if (!could_select(s, n, i, own.buf, own_len)) {
            continue;
        }
        arena_fit(n, own_len + 1);
        n->name_at[i] = n->arena_used;
        memcpy(n->arena + n->arena_used, own.buf, own_len);
        n->arena[n->arena_used + own_len] = '\0';
        n->arena_used += own_len + 1;
        n->name_len[i] = own_len;
        n->named[i] = true;
        order[named++] = i;
    }
    dump_text_free(&own);
    qsort(order, named, sizeof *order, by_full_name);
    sorting = NULL;
    for (uint32_t k = 0; k < named; k++) {
        DUMP_WORK(1);
        uint32_t at = order[k];
        uint32_t before = k > 0 ? order[k - 1] : at;
        bool same = k > 0 && folded_full_name_order(n, at, before) == 0;
        n->ordinal[at] = same ? n->ordinal[before] + 1 : 0;
    }
    free(order);
}
