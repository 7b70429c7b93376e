/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Counter paths to V1 objects and counters (perfbuf/resolve.h). Each
 * candidate's title index is looked up in each table's sorted index
 * (O(log n)) and its text compared with the path's name, stopping at the
 * first difference: enumerating an object's definitions is linear in them
 * times (log n + the name's length), with no per-text setup.
 */
#include "perfbuf/resolve.h"

#include "perfbuf/counter_types.h"

#include "core/check.h"
#include "core/work.h"
#include "collector/fold.h"

#define STRUCTURE "COUNTER_PATH"

static bool span_inside(const perfbuf_counter_path *p, perfbuf_span s)
{
    return p->text != NULL && s.offset <= p->text_len && s.length <= p->text_len - s.offset;
}

static bool text_matches(const perfbuf_name_table *t, const perfbuf_name_index *index,
                         uint32_t title_index, const char *name, size_t len)
{
    perfbuf_name_entry e;
    if (t == NULL || index == NULL ||
        perfbuf_names_index_find(t, index, title_index, &e) != PERFBUF_OK) {
        return false;
    }
    size_t bytes;
    size_t end;
    if (!pb_mul(e.text_units, 2, &bytes) || !pb_add(e.text_offset, bytes, &end)) {
        return false;
    }
    return pb_fold_compare_utf8(pb_window(t->data, t->size, e.text_offset, end), name, len) == 0;
}

/* Which tables name title_index with exactly `name`. */
static perfbuf_language_set languages(const perfbuf_title_tables *names, uint32_t title_index,
                                      const char *name, size_t len)
{
    perfbuf_language_set set = 0;
    if (text_matches(names->english, names->english_index, title_index, name, len)) {
        set |= PERFBUF_LANGUAGE_ENGLISH;
    }
    if (text_matches(names->localized, names->localized_index, title_index, name, len)) {
        set |= PERFBUF_LANGUAGE_LOCALIZED;
    }
    return set;
}

perfbuf_language_set perfbuf_title_matches(const perfbuf_title_tables *names,
                                           uint32_t title_index, const char *utf8, size_t len)
{
    if (names == NULL || (utf8 == NULL && len != 0)) {
        return 0;
    }
    /* Invalid UTF-8 ends the comparison early, so it can only match a
     * text that stops there too: refuse it outright instead. */
    if (!pb_utf8_valid(utf8, len)) {
        return 0;
    }
    return languages(names, title_index, utf8, len);
}

static perfbuf_status not_found(perfbuf_error *err, size_t offset, const char *field)
{
    if (err != NULL) {
        pb_error_set(err, PERFBUF_E_NOT_FOUND, offset, STRUCTURE, field);
    }
    return PERFBUF_E_NOT_FOUND;
}

static bool arguments_ok(const perfbuf_v1_block *b, const perfbuf_title_tables *names,
                         const perfbuf_counter_path *path, const void *it, const void *out,
                         perfbuf_span part)
{
    return b != NULL && names != NULL && path != NULL && it != NULL && out != NULL &&
           span_inside(path, part);
}

perfbuf_status perfbuf_v1_resolve_object(const perfbuf_v1_block *b,
                                         const perfbuf_title_tables *names,
                                         const perfbuf_counter_path *path, perfbuf_v1_iter *it,
                                         perfbuf_v1_object *out, perfbuf_language_set *matched,
                                         perfbuf_error *err)
{
    if (!arguments_ok(b, names, path, it, out, path == NULL ? (perfbuf_span){0, 0} : path->object)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    const char *name = path->text + path->object.offset;
    size_t len = path->object.length;
    while (perfbuf_v1_objects_next(b, it, out)) {
        PB_WORK(1);
        perfbuf_language_set set = languages(names, out->name_title_index, name, len);
        if (set != 0) {
            if (matched != NULL) {
                *matched = set;
            }
            return PERFBUF_OK;
        }
    }
    return not_found(err, path->object.offset, "Object");
}

perfbuf_status perfbuf_v1_resolve_counter(const perfbuf_v1_block *b,
                                          const perfbuf_title_tables *names,
                                          const perfbuf_counter_path *path, perfbuf_v1_iter *it,
                                          perfbuf_v1_counter *out, perfbuf_language_set *matched,
                                          perfbuf_error *err)
{
    if (!arguments_ok(b, names, path, it, out,
                      path == NULL ? (perfbuf_span){0, 0} : path->counter)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    bool every = (path->flags & PERFBUF_PATH_COUNTER_WILDCARD) != 0;
    const char *name = path->text + path->counter.offset;
    size_t len = path->counter.length;
    while (perfbuf_v1_counters_next(b, it, out)) {
        PB_WORK(1);
        /* Base counters are never a path's counter, named or "*": PDH lists
         * and adds only counters with a displayable value, and Windows'
         * providers give a base its counter's title index (the disk
         * objects' timestamp bases carry % Disk Time's), so a name alone
         * would also find the base. */
        if (!perfbuf_counter_type_is_displayable(out->type)) {
            continue;
        }
        perfbuf_language_set set;
        if (every) {
            set = PERFBUF_LANGUAGE_ENGLISH | PERFBUF_LANGUAGE_LOCALIZED;
        } else {
            set = languages(names, out->name_title_index, name, len);
        }
        if (set != 0) {
            if (matched != NULL) {
                *matched = set;
            }
            return PERFBUF_OK;
        }
    }
    return not_found(err, path->counter.offset, "Counter");
}

perfbuf_status perfbuf_title_text_utf8(const perfbuf_title_tables *names,
                                       perfbuf_language language, uint32_t title_index,
                                       char *out, size_t cap, size_t *len)
{
    if (names == NULL || len == NULL || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    const perfbuf_name_table *t;
    const perfbuf_name_index *index;
    if (language == PERFBUF_LANGUAGE_ENGLISH) {
        t = names->english;
        index = names->english_index;
    } else if (language == PERFBUF_LANGUAGE_LOCALIZED) {
        t = names->localized;
        index = names->localized_index;
    } else {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_name_entry e;
    if (t == NULL || index == NULL || perfbuf_names_index_find(t, index, title_index, &e) != PERFBUF_OK) {
        if (cap > 0) {
            out[0] = '\0';
        }
        *len = 0;
        return PERFBUF_E_NOT_FOUND;
    }
    return perfbuf_names_text_utf8(t, &e, out, cap, len);
}
