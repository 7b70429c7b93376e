/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * --counter PATH: which V1 objects, instances and counters are shown
 * (docs/cli.md). Paths are resolved by name through the Counter tables
 * (perfbuf/resolve.h), in English or the localized language; instances
 * are matched by parent, name and #N, the position among instances of the
 * same parent/name with ASCII case folded, as the query numbers them.
 */
#ifndef PERFBUF_DUMP_SELECT_H
#define PERFBUF_DUMP_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfbuf/resolve.h"

/* The names of the instances of one object, with their #N. */
typedef struct dump_instance_names {
    char *arena;             /* every instance's parent and name, UTF-8 */
    size_t arena_used, arena_cap;
    size_t *parent_at, *parent_len, *name_at, *name_len;
    uint32_t *ordinal;       /* position among instances of one parent/name, ASCII folded */
    bool *cut;               /* the parent/name did not fit: no #N is given */
    bool *named;             /* some path could select it: the fields above are set */
    size_t *parent_key;      /* its parent's offset + 1, or 0 */
    uint32_t count, cap;
} dump_instance_names;

typedef struct dump_selection {
    const perfbuf_counter_path *paths;
    size_t count;            /* 0: everything is selected */
    const perfbuf_title_tables *names;
    bool *object_ok;         /* per path, for the current object */
    bool *used;              /* per path: it named some object (may be NULL) */
    /* Per path, what it found (all NULL or all set, as `used`): a
     * counter, an instance (or the block, for a path without one), and a
     * named object that has no instances now (what a wildcard instance
     * may find). */
    bool *counter_found, *instance_found, *empty_found;
} dump_selection;

bool select_active(const dump_selection *s);
/* Tells stderr of every path that named no object of the block. */
/* Allocates the per-path records; select_free releases them. */
void select_track(dump_selection *s);
void select_free(dump_selection *s);
/* Says on stderr, naming file, each path that matched nothing and what
 * is missing; true when one did. A wildcard instance, with a parent part
 * or not, that found only an object without instances is said too, and is
 * not a failure. */
bool select_report_unmatched(const dump_selection *s, const char *file);
/* Records which paths select some instance of the current object. */
void select_mark_instances(const dump_selection *s, const dump_instance_names *n);
/* Marks the paths whose object is o; true when any is. */
bool select_object(dump_selection *s, const perfbuf_v1_object *o);
/* Whether any marked path names c. */
bool select_counter(const dump_selection *s, const perfbuf_v1_counter *c);
/* Whether path p selects the single counter block (a path without an
 * instance part). */
bool select_block_by(const dump_selection *s, size_t p);
bool select_instance(const dump_selection *s, const dump_instance_names *n, uint32_t i);

void instance_names_init(dump_instance_names *n);
void instance_names_free(dump_instance_names *n);
/* Names the instances of o that a path of s (its object marked) could
 * select, and numbers them among those of the same parent/name; each
 * parent's name is converted once. O(n log n) in the instances. */
void instance_names_collect(dump_instance_names *n, const dump_selection *s,
                            const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                            const perfbuf_v1_instance_index *parents);

#endif
