/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * --counter PATH in the text and JSON outputs: which V1 objects, instances
 * and counters are shown (docs/cli.md). Objects and counters are matched
 * by name through the Counter tables (perfbuf_title_matches, in English or
 * the localized language), as the query resolves a path's parts; the
 * instances shown are those the library's query selects in FILE
 * (perfbuf_query, the same query --csv reads), so a path's parent, name
 * and #N mean the same in every output, and what a path found is the
 * query's answer.
 */
#ifndef PERFBUF_DUMP_SELECT_H
#define PERFBUF_DUMP_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dump.h"
#include "perfbuf/query.h"
#include "perfbuf/resolve.h"

typedef struct dump_selection {
    const perfbuf_counter_path *paths;
    size_t count;            /* 0: everything is selected */
    const perfbuf_title_tables *names;
    bool *object_ok;         /* per path, for the current object */
    /* What the query's items select in FILE: (object position << 32 |
     * instance position), sorted; an object's one counter block is
     * position PERFBUF_ITEM_NO_INSTANCE. */
    uint64_t *items;
    size_t item_count;
    /* The counters of those items: (object position << 32 | counter), sorted;
     * the counter a title index (V1) or an id (V2). */
    uint64_t *counters;
    uint32_t *found;         /* per path, PERFBUF_QUERY_FOUND_* */
} dump_selection;

/*
 * The instances a path's instance part could have named, for telling why it
 * named none: for each, whether its parent is one the path's parent part
 * names (true when the path names no parent), and its own name, UTF-8.
 * `has_instances` says whether any object the path names holds instances
 * at all (PERF_NO_INSTANCES objects hold one counter block). The filler
 * compares each parent's name once, however many children it has, so a
 * long parent name costs its length once (docs/cli.md, "Cost").
 */
typedef struct select_candidates {
    char *text;              /* every name, back to back */
    size_t text_len;
    size_t text_cap;
    size_t *spans;           /* 3 per candidate: parent matches (0 or 1), name at, its length */
    size_t count;
    size_t cap;
    bool has_instances;
} select_candidates;

void select_candidates_add(select_candidates *c, bool parent_matches, const char *name,
                           size_t name_len);
void select_candidates_free(select_candidates *c);

/* Fills the candidates of one path whose instance part named nothing. */
typedef void (*select_candidates_fn)(void *context, const perfbuf_counter_path *path,
                                     select_candidates *out);

/*
 * Says on stderr, naming file, what each path found when it is not items:
 * the part that matched nothing and why, or, not an error, a wildcard over
 * an object that has no instance now. Why a path of `found`
 * PERFBUF_QUERY_FOUND_NO_INSTANCE named nothing is told from the
 * candidates (fill gives them, only for such a path): no instance has that
 * parent, none has that name (or starts with that prefix), or the name is
 * there and the #N is not; the query's `found` does not tell these apart.
 * kind: SELECT_V1, or the object part names a V2 counterset, whose name
 * was given (SELECT_V2) or not (SELECT_V2_UNNAMED: only its GUID names it).
 * True when a path failed the run; *first (may be NULL) is then the first
 * such path.
 */
#define SELECT_V1 0
#define SELECT_V2 1
#define SELECT_V2_UNNAMED 2
bool select_report_paths(const perfbuf_counter_path *paths, const uint32_t *found, size_t count,
                         const char *file, int kind, select_candidates_fn fill, void *context,
                         dump_miss *first);

bool select_active(const dump_selection *s);
/* Takes what the query found for FILE: counters[p] is path p's counter,
 * added[p] whether the query took it; `collected` whether FILE was
 * collected. Allocates what select_free releases. O(items log items). */
void select_take_query(dump_selection *s, const perfbuf_query *q,
                       const perfbuf_query_counter *counters, const bool *added, bool collected);
void select_free(dump_selection *s);
/* Marks the paths whose object is o; true when any is. */
bool select_object(dump_selection *s, const perfbuf_v1_object *o);
/* Whether any marked path names c. */
bool select_counter(const dump_selection *s, const perfbuf_v1_counter *c);
/* Whether the query selected the single counter block of the object at
 * that position (a path without an instance part). */
bool select_block(const dump_selection *s, uint32_t object);
/* Whether the query selected that instance of the object at that position. */
bool select_instance(const dump_selection *s, uint32_t object, uint32_t instance);
/* Whether the query selected any item of the object (V2: block) at that position. */
bool select_any(const dump_selection *s, uint32_t object);
/* Whether an item the query selected in that object is of that counter. */
bool select_counter_id(const dump_selection *s, uint32_t object, uint32_t counter);

#endif
