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
    uint32_t *found;         /* per path, PERFBUF_QUERY_FOUND_* */
} dump_selection;

bool select_active(const dump_selection *s);
/* Takes what the query found for FILE: counters[p] is path p's counter,
 * added[p] whether the query took it; `collected` whether FILE was
 * collected. Allocates what select_free releases. O(items log items). */
void select_take_query(dump_selection *s, const perfbuf_query *q,
                       const perfbuf_query_counter *counters, const bool *added, bool collected);
void select_free(dump_selection *s);
/* Says on stderr, naming file, each path that matched nothing and what is
 * missing; true when one did. A wildcard instance that found only an
 * object without instances is said too, and is not a failure. */
bool select_report_unmatched(const dump_selection *s, const char *file);
/* The stderr line of one path's answer (docs/cli.md, "Selecting
 * counters"); true when it fails the run. */
bool select_report_found(const perfbuf_counter_path *path, uint32_t found, const char *file);
/* Marks the paths whose object is o; true when any is. */
bool select_object(dump_selection *s, const perfbuf_v1_object *o);
/* Whether any marked path names c. */
bool select_counter(const dump_selection *s, const perfbuf_v1_counter *c);
/* Whether the query selected the single counter block of the object at
 * that position (a path without an instance part). */
bool select_block(const dump_selection *s, uint32_t object);
/* Whether the query selected that instance of the object at that position. */
bool select_instance(const dump_selection *s, uint32_t object, uint32_t instance);

#endif
