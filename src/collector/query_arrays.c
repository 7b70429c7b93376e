/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * What a query gives back (perfbuf/query.h): the formatted and raw
 * arrays, the instances that appeared or exited, and the titles a path
 * resolved to. Each is read from the arena alone, after the O(1) checks
 * that the counter is the query's and its samples the last collection's,
 * inside what the arena keeps (pb_q_owns, pb_q_samples_readable). Names
 * are made here, into the caller's buffer, from the parts the tables
 * kept: "parent/name#N" costs what it writes.
 */
#include "core/cursor.h"
#include "collector/internal.h"
#include "collector/query_internal.h"

/* ---- names ---- */

/* The parent's part of a record's name ("parent/"), when it has a parent
 * whose name perfbuf converts, as the arrays of perfbuf/collector.h name
 * children; its length before the '/'. */
static bool parent_part(const perfbuf_query *q, const perfbuf_query_generation *g,
                        const pb_qrec *r, const char **text, size_t *len)
{
    if (r->parent == PB_Q_NONE || r->parent >= g->parent_count) {
        return false;
    }
    const pb_qparent *p = &pb_q_parents(q, g)[r->parent];
    if ((p->flags & PB_Q_REC_OPAQUE) != 0) {
        return false;
    }
    *text = pb_q_strings(q, g) + p->name;
    *len = pb_q_parent_cut(*text, p->name_len);
    return true;
}

/* The bytes of a record's name, its NUL included. */
static size_t name_size(const perfbuf_query *q, const perfbuf_query_generation *g,
                        const pb_qrec *r)
{
    const char *parent = NULL;
    size_t parent_len = 0;
    size_t own = (r->flags & PB_Q_REC_OPAQUE) != 0 ? 0u : r->name_len;
    size_t bytes = own + pb_ordinal_suffix_bytes(r->ordinal) + 1u;
    if (parent_part(q, g, r, &parent, &parent_len)) {
        bytes += parent_len + 1u;
    }
    return bytes;
}

/* Writes a record's name at out (name_size bytes); returns its length. */
static size_t write_name(const perfbuf_query *q, const perfbuf_query_generation *g,
                         const pb_qrec *r, char *out)
{
    const char *parent = NULL;
    size_t len = 0, parent_len = 0;
    if (parent_part(q, g, r, &parent, &parent_len)) {
        memcpy(out, parent, parent_len);
        out[parent_len] = '/';
        len = parent_len + 1u;
    }
    if ((r->flags & PB_Q_REC_OPAQUE) == 0) {
        memcpy(out + len, pb_q_strings(q, g) + r->name, r->name_len);
        len += r->name_len;
    }
    size_t suffix = pb_ordinal_suffix_bytes(r->ordinal);
    pb_write_ordinal_suffix(out + len, r->ordinal, suffix);
    len += suffix;
    out[len] = '\0';
    PB_WORK(len / 8u);
    return len;
}

/* ---- checks ---- */

/* The shared opening of the calls that read a counter's samples: its
 * arguments, that it is q's, and whether the last collection filled it. */
static perfbuf_status open_call(const perfbuf_query *q, const perfbuf_query_counter *c,
                                const char *call, size_t *count, const char *names,
                                const size_t *name_bytes, perfbuf_error *err)
{
    if (q == NULL) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "q");
    }
    if (count == NULL) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "count");
    }
    if (names != NULL && name_bytes == NULL) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "name_bytes");
    }
    if (!pb_q_owns(q, c)) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "c");
    }
    return PERFBUF_OK;
}

/* Whether the last collection filled c, and its samples lie where the
 * arena keeps them: O(1). */
static bool filled(const perfbuf_query *q, const perfbuf_query_counter *c)
{
    return q->arena != NULL && q->stamp != 0 && q->newer.stamp == q->stamp &&
           c->newer.stamp == q->stamp && pb_q_samples_readable(q, &q->newer, &c->newer);
}

/* Whether c's older samples are the capture before the last, readable. */
static bool older_readable(const perfbuf_query *q, const perfbuf_query_counter *c)
{
    return q->older.stamp != 0 && c->older.stamp == q->older.stamp &&
           pb_q_samples_readable(q, &q->older, &c->older);
}

/* The name bytes the items of s take: one name per run of items of one
 * record. */
static size_t names_size(const perfbuf_query *q, const perfbuf_query_generation *g,
                         const perfbuf_query_samples *s)
{
    const pb_qitem *items = pb_q_items(q, s);
    const pb_qrec *records = pb_q_records(q, g);
    size_t bytes = 0;
    for (uint32_t i = 0; i < s->count; i++) {
        PB_WORK(1);
        if (i == 0 || items[i].record != items[i - 1u].record) {
            bytes += name_size(q, g, &records[items[i].record]);
        }
    }
    return bytes;
}

/* Sizes an array call's answer: *count and *name_bytes set; OK when the
 * caller's room holds it. */
static perfbuf_status size_answer(const perfbuf_query *q, const perfbuf_query_counter *c,
                                  const void *items, size_t *count, const char *names,
                                  size_t *name_bytes, const char *call, perfbuf_error *err)
{
    size_t cap = items == NULL ? 0 : *count;
    size_t name_cap = names == NULL || name_bytes == NULL ? 0 : *name_bytes;
    *count = c->newer.count;
    size_t need = 0;
    if (name_bytes != NULL) {
        need = names_size(q, &q->newer, &c->newer);
        *name_bytes = need;
    }
    if (cap < c->newer.count || (names != NULL && name_cap < need)) {
        return pb_q_refuse(err, PERFBUF_E_OUTPUT_TOO_SMALL, call,
                           cap < c->newer.count ? "count" : "name_bytes");
    }
    return PERFBUF_OK;
}

/* ---- the arrays ---- */

perfbuf_status perfbuf_query_raw_array(const perfbuf_query *q, const perfbuf_query_counter *c,
                                       perfbuf_raw_item *items, size_t *count, char *names,
                                       size_t *name_bytes, perfbuf_error *err)
{
    static const char call[] = "perfbuf_query_raw_array";
    perfbuf_status st = open_call(q, c, call, count, names, name_bytes, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    if (!filled(q, c)) {
        *count = 0;
        if (name_bytes != NULL) {
            *name_bytes = 0;
        }
        return pb_q_refuse(err, PERFBUF_E_NOT_FOUND, call, "c");
    }
    st = size_answer(q, c, items, count, names, name_bytes, call, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    const pb_qitem *kept = pb_q_items(q, &c->newer);
    const pb_qrec *records = pb_q_records(q, &q->newer);
    bool has_older = older_readable(q, c);
    const pb_qitem *older = has_older ? pb_q_items(q, &c->older) : NULL;
    const pb_qrec *older_records = has_older ? pb_q_records(q, &q->older) : NULL;
    const char *name = NULL;
    size_t name_len = 0, written = 0;
    for (uint32_t i = 0; i < c->newer.count; i++) {
        PB_WORK(1);
        const pb_qitem *k = &kept[i];
        const pb_qrec *r = &records[k->record];
        if (names != NULL && (i == 0 || k->record != kept[i - 1u].record)) {
            name = names + written;
            name_len = write_name(q, &q->newer, r, names + written);
            written += name_len + 1u;
        }
        bool paired = has_older && k->older < c->older.count &&
                      (k->pairing == PERFBUF_PAIR_MATCHED ||
                       k->pairing == PERFBUF_PAIR_DEFINITION_CHANGED);
        const pb_qitem *o = paired ? &older[k->older] : NULL;
        bool matched = paired && k->pairing == PERFBUF_PAIR_MATCHED;
        items[i] = (perfbuf_raw_item){
            .name = name, .name_len = name_len, .pairing = k->pairing, .position = r->position,
            .counter = k->counter, .object = r->object, .has_older = matched,
            .older = matched ? o->sample : (perfbuf_raw_sample){0}, .newer = k->sample,
            .context = k->context,
            .older_position = paired && o->record < q->older.record_count
                                  ? older_records[o->record].position
                                  : PERFBUF_ITEM_NO_INSTANCE,
            .object_title = r->object_title};
    }
    if (name_bytes != NULL && names != NULL) {
        *name_bytes = written;
    }
    return pb_q_answer(err, PERFBUF_OK);
}

perfbuf_status perfbuf_query_formatted_array(const perfbuf_query *q, const perfbuf_query_counter *c,
                                             uint32_t flags, perfbuf_formatted_item *items,
                                             size_t *count, char *names, size_t *name_bytes,
                                             perfbuf_error *err)
{
    static const char call[] = "perfbuf_query_formatted_array";
    perfbuf_status st = open_call(q, c, call, count, names, name_bytes, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    if (!filled(q, c)) {
        *count = 0;
        if (name_bytes != NULL) {
            *name_bytes = 0;
        }
        return pb_q_refuse(err, PERFBUF_E_NOT_FOUND, call, "c");
    }
    st = size_answer(q, c, items, count, names, name_bytes, call, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    const pb_qitem *kept = pb_q_items(q, &c->newer);
    const pb_qrec *records = pb_q_records(q, &q->newer);
    bool has_older = older_readable(q, c);
    const pb_qitem *older = has_older ? pb_q_items(q, &c->older) : NULL;
    const char *name = NULL;
    size_t name_len = 0, written = 0;
    for (uint32_t i = 0; i < c->newer.count; i++) {
        PB_WORK(1);
        const pb_qitem *k = &kept[i];
        const pb_qrec *r = &records[k->record];
        if (names != NULL && (i == 0 || k->record != kept[i - 1u].record)) {
            name = names + written;
            name_len = write_name(q, &q->newer, r, names + written);
            written += name_len + 1u;
        }
        items[i] = (perfbuf_formatted_item){name, name_len, k->pairing, r->position,
                                            k->counter, r->object, {0}};
        if (!PERFBUF_CSTATUS_IS_VALID(k->sample.status)) {
            /* A sample that could not be read (a base type's
             * PDH_INVALID_ARGUMENT) keeps its own status, as the arrays of
             * collector.h give it: formatting it would say INVALID_DATA. */
            items[i].value.status = k->sample.status;
            items[i].value.format = flags;
            continue;
        }
        bool matched = has_older && k->pairing == PERFBUF_PAIR_MATCHED &&
                       k->older < c->older.count;
        (void)perfbuf_format_value(k->sample.type, &k->sample,
                                   matched ? &older[k->older].sample : NULL, &k->context, flags,
                                   &items[i].value);
    }
    if (name_bytes != NULL && names != NULL) {
        *name_bytes = written;
    }
    return pb_q_answer(err, PERFBUF_OK);
}

/* ---- appeared and exited ---- */

/* A listed instance's identity: how its counter pairs it. */
static perfbuf_query_instance listed_instance(const perfbuf_query *q,
                                              const perfbuf_query_counter *c, const pb_qitem *k,
                                              const pb_qrec *r)
{
    perfbuf_query_instance out = {.position = r->position, .object = r->object,
                                  .object_title = r->object_title,
                                  .identity = PERFBUF_QUERY_IDENTITY_NAME};
    if (k->keyed != 0) {
        out.identity = PERFBUF_QUERY_IDENTITY_KEY_COUNTER;
        out.key = k->key;
    } else if (q->registrations != NULL) {
        out.identity = PERFBUF_QUERY_IDENTITY_INSTANCE_ID;
        out.key = r->identity & UINT32_MAX;
    } else if (c->identity == PERFBUF_QUERY_IDENTITY_UNIQUE_ID && r->identity != 0) {
        out.identity = PERFBUF_QUERY_IDENTITY_UNIQUE_ID;
        out.key = r->identity & UINT32_MAX;
    }
    return out;
}

/*
 * One pass over the items of the last capture (appeared) or of the one
 * before (exited), grouped by record: an instance appeared when none of
 * its items paired, exited when none of its older items was claimed. With
 * `list` NULL it counts; else it fills list (and names) with as many.
 */
static size_t walk_instances(const perfbuf_query *q, const perfbuf_query_counter *c,
                             uint32_t which, perfbuf_query_instance *list, char *names,
                             size_t *name_bytes)
{
    bool exited = which == PERFBUF_QUERY_EXITED;
    const perfbuf_query_samples *s = exited ? &c->older : &c->newer;
    const perfbuf_query_generation *g = exited ? &q->older : &q->newer;
    const pb_qitem *items = pb_q_items(q, s);
    const pb_qrec *records = pb_q_records(q, g);
    const uint32_t *claims = (const uint32_t *)pb_q_at(q, c->older.claims);
    size_t n = 0, bytes = 0;
    for (uint32_t i = 0; i < s->count;) {
        uint32_t record = items[i].record, e = i;
        bool paired = false;
        for (; e < s->count && items[e].record == record; e++) {
            PB_WORK(1);
            paired = paired || (exited ? claims[e] != 0
                                       : items[e].pairing == PERFBUF_PAIR_MATCHED ||
                                             items[e].pairing == PERFBUF_PAIR_DEFINITION_CHANGED);
        }
        const pb_qrec *r = &records[record];
        if (!paired && (r->flags & PB_Q_REC_LATER) == 0) {
            if (list != NULL) {
                list[n] = listed_instance(q, c, &items[i], r);
                if (names != NULL) {
                    list[n].name = names + bytes;
                    list[n].name_len = write_name(q, g, r, names + bytes);
                }
            }
            bytes += name_size(q, g, r);
            n++;
        }
        i = e;
    }
    *name_bytes = bytes;
    return n;
}

perfbuf_status perfbuf_query_instances(const perfbuf_query *q, const perfbuf_query_counter *c,
                                       uint32_t which, perfbuf_query_instance *list, size_t *count,
                                       char *names, size_t *name_bytes, perfbuf_error *err)
{
    static const char call[] = "perfbuf_query_instances";
    perfbuf_status st = open_call(q, c, call, count, names, name_bytes, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    if (which != PERFBUF_QUERY_APPEARED && which != PERFBUF_QUERY_EXITED) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "which");
    }
    size_t cap = list == NULL ? 0 : *count;
    size_t name_cap = names == NULL ? 0 : *name_bytes;
    *count = 0;
    if (name_bytes != NULL) {
        *name_bytes = 0;
    }
    /* Nothing appears or exits before two captures: the older samples are
     * the capture before the last. */
    if (!filled(q, c) || !older_readable(q, c)) {
        return pb_q_answer(err, PERFBUF_OK);
    }
    size_t bytes = 0;
    size_t n = walk_instances(q, c, which, NULL, NULL, &bytes);
    *count = n;
    if (name_bytes != NULL) {
        *name_bytes = bytes;
    }
    if (n > cap || (names != NULL && bytes > name_cap)) {
        return pb_q_refuse(err, PERFBUF_E_OUTPUT_TOO_SMALL, call, n > cap ? "count" : "name_bytes");
    }
    if (n > 0) {
        (void)walk_instances(q, c, which, list, names, &bytes);
    }
    return pb_q_answer(err, PERFBUF_OK);
}

/* ---- titles ---- */

perfbuf_status perfbuf_query_title(const perfbuf_query *q, const perfbuf_query_counter *c,
                                   uint32_t which, perfbuf_language language,
                                   uint32_t *title_index, char *out, size_t cap, size_t *len,
                                   perfbuf_error *err)
{
    static const char call[] = "perfbuf_query_title";
    if (q == NULL || q->registrations != NULL) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "q");
    }
    if (title_index == NULL || len == NULL) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call,
                           title_index == NULL ? "title_index" : "len");
    }
    if ((out == NULL && cap != 0)) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "out");
    }
    if (which != PERFBUF_QUERY_TITLE_OBJECT && which != PERFBUF_QUERY_TITLE_COUNTER) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "which");
    }
    if (language != PERFBUF_LANGUAGE_ENGLISH && language != PERFBUF_LANGUAGE_LOCALIZED) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "language");
    }
    if (!pb_q_owns(q, c)) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "c");
    }
    *title_index = 0;
    *len = 0;
    if (cap > 0) {
        out[0] = '\0';
    }
    /* The titles are those of the samples the arrays give: a collection
     * that failed, or left c without samples, names nothing; nor does a
     * counter whose items each name their own. */
    uint32_t title = which == PERFBUF_QUERY_TITLE_OBJECT ? c->object_title : c->counter_title;
    if (!filled(q, c) || title == 0) {
        return pb_q_refuse(err, PERFBUF_E_NOT_FOUND, call, "c");
    }
    *title_index = title;
    perfbuf_status st = perfbuf_title_text_utf8(&q->names, language, title, out, cap, len);
    return st == PERFBUF_OK ? pb_q_answer(err, st) : pb_q_refuse(err, st, call, "language");
}
