/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * What a query's last collection resolved (perfbuf/query.h): read from the
 * counter and the query's tables, never from a capture, so these calls
 * cost nothing in the captures' bytes.
 */
#include "perfbuf/query.h"

perfbuf_status perfbuf_query_title(const perfbuf_query *q, const perfbuf_query_counter *c,
                                   uint32_t which, perfbuf_language language,
                                   uint32_t *title_index, char *out, size_t cap, size_t *len)
{
    if (q == NULL || c == NULL || title_index == NULL || len == NULL ||
        (out == NULL && cap != 0) ||
        (which != PERFBUF_QUERY_TITLE_OBJECT && which != PERFBUF_QUERY_TITLE_COUNTER) ||
        (language != PERFBUF_LANGUAGE_ENGLISH && language != PERFBUF_LANGUAGE_LOCALIZED) ||
        q->registrations != NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    *title_index = 0;
    *len = 0;
    if (cap > 0) {
        out[0] = '\0';
    }
    /* The titles are those of the samples the arrays give: a collection
     * that failed, or left c without samples, names nothing. */
    if (!q->has_newer || !c->newer.valid) {
        return PERFBUF_E_NOT_FOUND;
    }
    *title_index = which == PERFBUF_QUERY_TITLE_OBJECT ? c->object_title : c->counter_title;
    return perfbuf_title_text_utf8(&q->names, language, *title_index, out, cap, len);
}
