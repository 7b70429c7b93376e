/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "perfbuf/counter_types.h"

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
        }
    }
    return any;
}

void select_report_unused(const dump_selection *s)
{
    for (size_t p = 0; s->used != NULL && p < s->count; p++) {
        DUMP_WORK(1);
        if (!s->used[p]) {
            const perfbuf_counter_path *path = &s->paths[p];
            fprintf(stderr, "perfbuf-dump: --counter %.*s: no object of that name\n",
                    (int)(path->text_len > 4096 ? 4096 : path->text_len), path->text);
        }
    }
}

bool select_counter_by(const dump_selection *s, size_t p, const perfbuf_v1_counter *c)
{
    const perfbuf_counter_path *path = &s->paths[p];
    if (!s->object_ok[p]) {
        return false;
    }
    if ((path->flags & PERFBUF_PATH_COUNTER_WILDCARD) != 0) {
        return perfbuf_counter_type_is_displayable(c->type);
    }
    return perfbuf_title_matches(s->names, c->name_title_index, part_text(path, path->counter),
                                 path->counter.length) != 0;
}

bool select_counter(const dump_selection *s, const perfbuf_v1_counter *c)
{
    for (size_t p = 0; p < s->count; p++) {
        DUMP_WORK(1);
        if (select_counter_by(s, p, c)) {
            return true;
        }
    }
    return false;
}

bool select_block_by(const dump_selection *s, size_t p)
{
    return s->object_ok[p] && (s->paths[p].flags & PERFBUF_PATH_HAS_INSTANCE) == 0;
}

bool select_instance_by(const dump_selection *s, size_t p, const dump_instance_names *n,
                        uint32_t i)
{
    if (!s->object_ok[p] || i >= n->count) {
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
    n->parent_at = dump_calloc(count, sizeof *n->parent_at);
    n->parent_len = dump_calloc(count, sizeof *n->parent_len);
    n->name_at = dump_calloc(count, sizeof *n->name_at);
    n->name_len = dump_calloc(count, sizeof *n->name_len);
    n->ordinal = dump_calloc(count, sizeof *n->ordinal);
    n->cut = dump_calloc(count, sizeof *n->cut);
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

/* The sort below orders positions by parent/name: qsort has no context
 * argument, and the tool is single-threaded. */
static const dump_instance_names *sorting;

static int by_full_name(const void *a, const void *b)
{
    DUMP_WORK(1);
    uint32_t i = *(const uint32_t *)a;
    uint32_t j = *(const uint32_t *)b;
    const dump_instance_names *n = sorting;
    size_t pi = n->parent_len[i], pj = n->parent_len[j];
    int c = memcmp(n->arena + n->parent_at[i], n->arena + n->parent_at[j], pi < pj ? pi : pj);
    if (c == 0 && pi != pj) {
        c = pi < pj ? -1 : 1;
    }
    if (c == 0) {
        size_t ni = n->name_len[i], nj = n->name_len[j];
        c = memcmp(n->arena + n->name_at[i], n->arena + n->name_at[j], ni < nj ? ni : nj);
        if (c == 0 && ni != nj) {
            c = ni < nj ? -1 : 1;
        }
    }
    if (c == 0) {
        c = i < j ? -1 : i > j ? 1 : 0;
    }
    return c;
}

void instance_names_collect(dump_instance_names *n, const perfbuf_v1_block *b,
                            const perfbuf_v1_object *o, const perfbuf_v1_instance_index *parents)
{
    n->count = 0;
    n->arena_used = 0;
    reserve(n, o->instance_count);
    char full[NAME_MAX_BYTES + 1];
    dump_text own;
    dump_text_init(&own);
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst;
    perfbuf_v1_instances_begin(o, &it);
    while (n->count < o->instance_count && perfbuf_v1_instances_next(b, &it, &inst)) {
        DUMP_WORK(1);
        uint32_t i = n->count++;
        size_t full_len = 0;
        full[0] = '\0';
        perfbuf_status st = perfbuf_v1_full_name_utf8(b, o, &inst, parents, full, sizeof full,
                                                      &full_len);
        bool cut = st == PERFBUF_E_OUTPUT_TOO_SMALL;
        if (st != PERFBUF_OK && st != PERFBUF_E_BAD_REFERENCE && !cut) {
            full[0] = '\0';
        }
        full_len = strlen(full);
        /* The own name, to split "parent/name" where the name holds '/'
         * too; a name that cannot be converted is empty. */
        size_t own_len = 0;
        st = perfbuf_v1_instance_name_utf8(b, &inst, own.buf, own.cap, &own_len);
        if (st == PERFBUF_E_OUTPUT_TOO_SMALL) {
            dump_text_fit(&own, own_len);
            st = perfbuf_v1_instance_name_utf8(b, &inst, own.buf, own.cap, &own_len);
        }
        own_len = st == PERFBUF_OK ? strlen(own.buf) : 0;
        size_t parent_len = 0;
        size_t name_from = 0;
        if (!cut && full_len > own_len && full[full_len - own_len - 1] == '/' &&
            memcmp(full + full_len - own_len, own.buf, own_len) == 0) {
            parent_len = full_len - own_len - 1;
            name_from = full_len - own_len;
        } else if (cut) {
            /* Only the parent can make the full name this long. */
            parent_len = full_len;
            name_from = full_len;
        }
        arena_fit(n, full_len + 1);
        memcpy(n->arena + n->arena_used, full, full_len + 1);
        n->parent_at[i] = n->arena_used;
        n->parent_len[i] = parent_len;
        n->name_at[i] = n->arena_used + name_from;
        n->name_len[i] = cut ? 0 : full_len - name_from;
        n->cut[i] = cut;
        n->arena_used += full_len + 1;
    }
    dump_text_free(&own);
    uint32_t *order = dump_calloc(n->count, sizeof *order);
    for (uint32_t i = 0; i < n->count; i++) {
        DUMP_WORK(1);
        order[i] = i;
    }
    sorting = n;
    qsort(order, n->count, sizeof *order, by_full_name);
    sorting = NULL;
    for (uint32_t k = 0; k < n->count; k++) {
        DUMP_WORK(1);
        uint32_t i = order[k];
        bool same = false;
        if (k > 0) {
            uint32_t j = order[k - 1];
            same = n->parent_len[i] == n->parent_len[j] && n->name_len[i] == n->name_len[j] &&
                   memcmp(n->arena + n->parent_at[i], n->arena + n->parent_at[j],
                          n->parent_len[i]) == 0 &&
                   memcmp(n->arena + n->name_at[i], n->arena + n->name_at[j], n->name_len[i]) == 0;
            n->ordinal[i] = same ? n->ordinal[j] + 1 : 0;
        } else {
            n->ordinal[i] = 0;
        }
    }
    free(order);
}
