/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The query's arrays with their names, for tests that check names: each
 * call asks for the sizes, then fills, the names in a buffer of this file
 * that the next call replaces (so a test reads them as it would the
 * arena's before). Test code: allocates; a failed allocation is a failed
 * call.
 */
#ifndef PERFBUF_TEST_QUERY_HELPERS_H
#define PERFBUF_TEST_QUERY_HELPERS_H

#include <stdlib.h>

#include "perfbuf/query.h"

static char *tq_names;
static perfbuf_query_instance *tq_listed;

static inline char *tq_name_room(size_t bytes)
{
    free(tq_names);
    tq_names = malloc(bytes + 1u);
    return tq_names;
}

/* perfbuf_query_formatted_array into items (room for *n; NULL asks), with names. */
static inline perfbuf_status tq_formatted(const perfbuf_query *q, const perfbuf_query_counter *c,
                                          uint32_t flags, perfbuf_formatted_item *items, size_t *n)
{
    size_t bytes = 0, cap = items == NULL ? 0 : *n;
    perfbuf_status st = perfbuf_query_formatted_array(q, c, flags, NULL, n, NULL, &bytes, NULL);
    if (st != PERFBUF_OK && st != PERFBUF_E_OUTPUT_TOO_SMALL) {
        return st;
    }
    if (items == NULL || *n > cap) {
        return *n == 0 ? PERFBUF_OK : PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    *n = cap;
    return perfbuf_query_formatted_array(q, c, flags, items, n, tq_name_room(bytes), &bytes, NULL);
}

/* The whole formatted array in one allocation the caller frees: the
 * items, then their names, so that several answers can be held at once. */
static inline perfbuf_status tq_formatted_alloc(const perfbuf_query *q,
                                                const perfbuf_query_counter *c, uint32_t flags,
                                                perfbuf_formatted_item **out, size_t *n)
{
    size_t bytes = 0;
    *n = 0;
    perfbuf_status st = perfbuf_query_formatted_array(q, c, flags, NULL, n, NULL, &bytes, NULL);
    *out = calloc(1, (*n + 1u) * sizeof **out + bytes + 1u);
    if (*out == NULL) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    if (st == PERFBUF_E_OUTPUT_TOO_SMALL) {
        st = perfbuf_query_formatted_array(q, c, flags, *out, n, (char *)(*out + *n + 1u), &bytes,
                                           NULL);
    }
    return st;
}

/* perfbuf_query_raw_array likewise. */
static inline perfbuf_status tq_raw(const perfbuf_query *q, const perfbuf_query_counter *c,
                                    perfbuf_raw_item *items, size_t *n)
{
    size_t bytes = 0, cap = items == NULL ? 0 : *n;
    perfbuf_status st = perfbuf_query_raw_array(q, c, NULL, n, NULL, &bytes, NULL);
    if (st != PERFBUF_OK && st != PERFBUF_E_OUTPUT_TOO_SMALL) {
        return st;
    }
    if (items == NULL || *n > cap) {
        return *n == 0 ? PERFBUF_OK : PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    *n = cap;
    return perfbuf_query_raw_array(q, c, items, n, tq_name_room(bytes), &bytes, NULL);
}

/* perfbuf_query_instances, each listed instance's name into names[] and,
 * when keys is not NULL, its key into keys[]; the full records stay in
 * tq_listed until the next call. */
static inline perfbuf_status tq_instances(const perfbuf_query *q, const perfbuf_query_counter *c,
                                          uint32_t which, const char **names, size_t *count)
{
    size_t bytes = 0, cap = names == NULL ? 0 : *count;
    perfbuf_status st = perfbuf_query_instances(q, c, which, NULL, count, NULL, &bytes, NULL);
    if (st != PERFBUF_OK && st != PERFBUF_E_OUTPUT_TOO_SMALL) {
        return st;
    }
    if (names == NULL || *count > cap) {
        return *count == 0 ? PERFBUF_OK : PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    free(tq_listed);
    tq_listed = calloc(*count + 1u, sizeof *tq_listed);
    if (tq_listed == NULL) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    st = perfbuf_query_instances(q, c, which, tq_listed, count, tq_name_room(bytes), &bytes, NULL);
    for (size_t i = 0; st == PERFBUF_OK && i < *count; i++) {
        names[i] = tq_listed[i].name;
    }
    return st;
}

#endif
