/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "decimal.h"
#include "dump.h"
#include "perfbuf/collector.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/names.h"
#include "perfbuf/query.h"
#include "perfbuf/resolve.h"
#include "perfbuf/v1.h"
#include "select.h"

bool detect_v1(const uint8_t *data, size_t size)
{
    return size >= 8 && memcmp(data, "P\0E\0R\0F\0", 8) == 0;
}

/* The title text for an index, when a name table was given. */
static void emit_title(emitter *e, const char *key, const perfbuf_name_table *names,
                       const perfbuf_name_index *index, uint32_t title_index, dump_text *t)
{
    perfbuf_name_entry entry;
    if (names == NULL || title_index == 0 ||
        perfbuf_names_index_find(names, index, title_index, &entry) != PERFBUF_OK) {
        return;
    }
    size_t len;
    perfbuf_status st = perfbuf_names_text_utf8(names, &entry, t->buf, t->cap, &len);
    if (st == PERFBUF_E_OUTPUT_TOO_SMALL) {
        dump_text_fit(t, len);
        st = perfbuf_names_text_utf8(names, &entry, t->buf, t->cap, &len);
    }
    if (st == PERFBUF_OK) {
        emit_str(e, key, t->buf);
    }
}

/*
 * The Counter tables: --names (the display language, often localized) and
 * --english-names (009). Titles are shown from --names, else from the
 * English table; --counter paths resolve against both.
 */
typedef struct v1_tables {
    perfbuf_name_table local, english;
    perfbuf_name_index local_index, english_index;
    perfbuf_name_slot *local_slots, *english_slots;
    perfbuf_title_tables tables;
    const perfbuf_name_table *display;
    const perfbuf_name_index *display_index;
} v1_tables;

/* One table, or false when it is absent or rejected (reported). */
static bool table_load(const uint8_t *data, size_t size, const char *what, const char *file,
                       perfbuf_name_table *t,
                       perfbuf_name_index *index, perfbuf_name_slot **slots)
{
    *slots = NULL;
    if (data == NULL) {
        return false;
    }
    perfbuf_error err;
    if (perfbuf_names_parse(data, size, NULL, t, &err) != PERFBUF_OK) {
        dump_side_rejected(what, file, &err);
        return false;
    }
    *slots = dump_calloc(t->count, sizeof **slots);
    return perfbuf_names_index_build(t, *slots, t->count, index) == PERFBUF_OK;
}

static void tables_load(const dump_input *in, v1_tables *t)
{
    memset(t, 0, sizeof *t);
    if (table_load(in->names, in->names_size, "--names table", in->names_path, &t->local, &t->local_index,
                   &t->local_slots)) {
        t->tables.localized = &t->local;
        t->tables.localized_index = &t->local_index;
    }
    if (table_load(in->english_names, in->english_names_size, "--english-names table", in->side_paths[3],
                   &t->english,
                   &t->english_index, &t->english_slots)) {
        t->tables.english = &t->english;
        t->tables.english_index = &t->english_index;
    }
    t->display = t->tables.localized ? t->tables.localized : t->tables.english;
    t->display_index = t->tables.localized ? t->tables.localized_index : t->tables.english_index;
}

static void tables_free(v1_tables *t)
{
    free(t->local_slots);
    free(t->english_slots);
}

/* Opens q on the tables, as --csv and --pair-by with a key counter read
 * them: paths resolve in English and the system's language; with one
 * table, that table is the one it reads. Each capture is parsed with the
 * options the text and JSON outputs parse with (--strict, --max-*), so
 * every output accepts and refuses exactly what the others do. False
 * when no table opens it. */
static bool query_open_tables(const dump_input *in, const v1_tables *tables, perfbuf_query *q)
{
    const perfbuf_name_table *first = tables->tables.english ? tables->tables.english
                                                             : tables->tables.localized;
    const perfbuf_name_table *second = tables->tables.english ? tables->tables.localized : NULL;
    const uint8_t *first_bytes = first == &tables->english ? in->english_names : in->names;
    size_t first_size = first == &tables->english ? in->english_names_size : in->names_size;
    return first != NULL &&
           perfbuf_query_open(q, first_bytes, first_size, second ? in->names : NULL,
                              second ? in->names_size : 0, NULL) == PERFBUF_OK &&
           perfbuf_query_options(q, &in->options, NULL) == PERFBUF_OK;
}

/* --pair-by's key counter as a path's counter part, as the query takes it. */
static perfbuf_counter_path key_path(const dump_input *in)
{
    size_t len = strlen(in->pair_key);
    return (perfbuf_counter_path){.text = in->pair_key, .text_len = len, .counter = {0, len}};
}

/* Whether object o of b has a counter the key names, as the query looks
 * for it in every object (perfbuf_v1_resolve_counter through the tables). */
static bool object_has_key(const perfbuf_v1_block *b, const v1_tables *tables,
                           const perfbuf_v1_object *o, const perfbuf_counter_path *key)
{
    perfbuf_v1_iter it;
    perfbuf_v1_counter found;
    perfbuf_v1_counters_begin(o, &it);
    return perfbuf_v1_resolve_counter(b, &tables->tables, key, &it, &found, NULL, NULL) ==
           PERFBUF_OK;
}

/* Whether some object of b that the path names has the key counter: the
 * query then pairs the path's instances by it. O(the block's definitions). */
static bool path_has_key(const perfbuf_v1_block *b, const v1_tables *tables,
                         const perfbuf_counter_path *path, const perfbuf_counter_path *key)
{
    perfbuf_v1_iter objects;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(b, &objects);
    while (perfbuf_v1_resolve_object(b, &tables->tables, path, &objects, &o, NULL, NULL) ==
           PERFBUF_OK) {
        DUMP_WORK(1);
        if (object_has_key(b, tables, &o, key)) {
            return true;
        }
    }
    return false;
}

/*
 * Sets how a counter pairs its instances (--pair-by, docs/cli.md,
 * "Pairing"): by UniqueID where the provider sets one (the default), by
 * PDH's key alone, or by the key counter's value. A path counter whose
 * object lacks the key counter would have no value at all (the query
 * gives it NO_COUNTER), so a path whose object in FILE (`file`) has no
 * such counter keeps PDH's key, as a counter of every definition keeps it
 * for such objects, and stderr says so.
 */
static bool pair_path(perfbuf_query *q, perfbuf_query_counter *c, const dump_input *in,
                      const v1_tables *tables, const perfbuf_v1_block *file, size_t p)
{
    if (in->pair_by == DUMP_PAIR_BY_PDH) {
        return true;
    }
    if (in->pair_by == DUMP_PAIR_BY_UNIQUE_ID) {
        return perfbuf_query_pair_by_unique_id(q, c, NULL) == PERFBUF_OK;
    }
    perfbuf_counter_path key = key_path(in);
    if (!path_has_key(file, tables, &in->paths[p], &key)) {
        fprintf(stderr, "perfbuf-dump: %s: --counter %s: its object has no counter \"%s\": "
                        "its instances pair by PDH's key (--pair-by)\n",
                in->path, in->paths[p].text, in->pair_key);
        return true;
    }
    return perfbuf_query_pair_by(q, c, key.text, key.text_len, NULL) == PERFBUF_OK;
}

/*
 * The library's query over the tables, as --csv and the text and JSON
 * --counter read it. Adds every path; added[p] says which the query took
 * (main parsed them already, with the same parser). `file`: FILE, whose
 * instances --rate and --series pair with earlier ones (--csv), each path
 * as --pair-by says (pair_path); NULL for FILE alone (the text and JSON
 * selection), whose paths pair by UniqueID as before, which selects the
 * same instances whatever --pair-by says. False when no table opens it.
 */
static bool query_open_on(const dump_input *in, const v1_tables *tables, perfbuf_query *q,
                          perfbuf_query_counter *counters, bool *added,
                          const perfbuf_v1_block *file)
{
    bool open = query_open_tables(in, tables, q);
    for (size_t p = 0; open && p < in->path_count; p++) {
        DUMP_WORK(1);
        added[p] = perfbuf_query_add(q, &counters[p], in->paths[p].text, in->paths[p].text_len,
                                     NULL) == PERFBUF_OK &&
                   (file != NULL ? pair_path(q, &counters[p], in, tables, file, p)
                                 : perfbuf_query_pair_by_unique_id(q, &counters[p], NULL) ==
                                       PERFBUF_OK);
    }
    return open;
}

bool dump_v1_key_known(const dump_input *in)
{
    v1_tables tables;
    tables_load(in, &tables);
    const perfbuf_name_table *each[2] = {tables.tables.localized, tables.tables.english};
    size_t len = strlen(in->pair_key);
    bool known = false;
    for (size_t k = 0; k < 2 && !known; k++) {
        if (each[k] == NULL) {
            continue;
        }
        perfbuf_names_iter it;
        perfbuf_name_entry entry;
        perfbuf_names_begin(each[k], &it);
        while (!known && perfbuf_names_next(each[k], &it, &entry)) {
            DUMP_WORK(1);
            known = perfbuf_title_matches(&tables.tables, entry.title_index, in->pair_key, len) != 0;
        }
    }
    tables_free(&tables);
    if (!known) {
        fprintf(stderr, "perfbuf-dump: --pair-by \"%s\": no title of the --names or "
                        "--english-names table has that text: name a counter (e.g. \"ID "
                        "Process\"), unique-id or pdh\n",
                in->pair_key);
    }
    return known;
}

/* A V1 instance's name as UTF-8 in t, whole. */
static perfbuf_status instance_name(const perfbuf_v1_block *b, const perfbuf_v1_instance *inst,
                                    dump_text *t)
{
    size_t len;
    perfbuf_status st = perfbuf_v1_instance_name_utf8(b, inst, t->buf, t->cap, &len);
    if (st == PERFBUF_E_OUTPUT_TOO_SMALL) {
        dump_text_fit(t, len);
        st = perfbuf_v1_instance_name_utf8(b, inst, t->buf, t->cap, &len);
    }
    return st;
}

/* The definitions of one object, walked once. */
static uint32_t collect_counters(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                 perfbuf_v1_counter *out)
{
    uint32_t n = 0;
    perfbuf_v1_iter it;
    perfbuf_v1_counters_begin(o, &it);
    while (n < o->counter_count && perfbuf_v1_counters_next(b, &it, &out[n])) {
        DUMP_WORK(1);
        n++;
    }
    return n;
}

/*
 * A query with a counter of every definition of every object
 * (perfbuf_query_add_definitions): after each collection, one item per
 * object, instance (or counter block) and definition of the capture
 * collected last, in block and definition order, each with the sample of
 * the same instance and definition in the capture collected before it.
 * Instances whose provider sets a UniqueID pair by it, the others by PDH's
 * key, as in every output (docs/cli.md); only the first object of a title
 * pairs. The counter names no title, so the query is opened on an empty
 * Counter table. Each capture is parsed with the options the text and JSON
 * outputs parse FILE with, so the query refuses exactly what they refuse.
 */
typedef struct v1_every {
    perfbuf_query q;
    perfbuf_query_counter every;
    uint8_t *arena;            /* the query's */
    bool open;
} v1_every;

/* An empty Counter table: its final empty string. */
static const uint8_t no_titles[2] = {0, 0};

/* A key counter is named in the Counter tables (main refused --pair-by
 * KEY without one), so that query is opened on them. */
static void every_open(v1_every *w, const dump_input *in, const v1_tables *tables)
{
    memset(w, 0, sizeof *w);
    if (in->pair_by == DUMP_PAIR_BY_KEY) {
        perfbuf_counter_path key = key_path(in);
        w->open = query_open_tables(in, tables, &w->q) &&
                  perfbuf_query_add_definitions(&w->q, &w->every, NULL) == PERFBUF_OK &&
                  perfbuf_query_pair_by(&w->q, &w->every, key.text, key.text_len, NULL) ==
                      PERFBUF_OK;
        return;
    }
    w->open = perfbuf_query_open(&w->q, no_titles, sizeof no_titles, NULL, 0, NULL) ==
                  PERFBUF_OK &&
              perfbuf_query_options(&w->q, &in->options, NULL) == PERFBUF_OK &&
              perfbuf_query_add_definitions(&w->q, &w->every, NULL) == PERFBUF_OK &&
              (in->pair_by == DUMP_PAIR_BY_PDH ||
               perfbuf_query_pair_by_unique_id(&w->q, &w->every, NULL) == PERFBUF_OK);
}

/* Collects an earlier capture (main has parsed it with these options and
 * reports its rejection): false when the query refuses it. */
static bool every_collect(v1_every *w, const uint8_t *data, size_t size, perfbuf_error *err)
{
    return w->open && dump_query_collect(&w->q, &w->arena, data, size, err) == PERFBUF_OK;
}

/* Collects FILE. It parsed with these options already and the run checked
 * that every capture is of one computer (dump_earlier_fits): only the
 * arena's size could stop the query, and dump_query_collect grows it as
 * asked. Says so on stderr when it fails all the same. */
static bool every_collect_file(v1_every *w, const dump_input *in)
{
    perfbuf_error err;
    perfbuf_status st = w->open ? dump_query_collect(&w->q, &w->arena, in->data, in->size, &err)
                                : PERFBUF_E_INVALID_ARGUMENT;
    if (st != PERFBUF_OK) {
        fprintf(stderr, "perfbuf-dump: %s: the query could not collect it: %s\n", in->path,
                perfbuf_status_name(st));
    }
    return st == PERFBUF_OK;
}

/*
 * FILE's items of one collection: the raw array alone. Its items carry
 * both samples, and the formatted value the query would give is made from
 * them only for the values shown (paired_value), so no second array is
 * read and nothing is formatted twice.
 */
/*
 * The instances that appeared in FILE, or exited since the earlier
 * capture (perfbuf_query_instances, which lists each once with its name
 * and key in its own capture), an object's counter block left out; kept
 * with their names after the query's arena is freed.
 */
typedef struct v1_changes {
    perfbuf_query_instance *list;
    size_t count;
    char *names;
    uint64_t *by_title;        /* object title << 32 | place in list, sorted */
    bool *shown;               /* per list entry: its title's run was shown */
    size_t cursor;             /* where the last object's run ended */
} v1_changes;

typedef struct v1_paired {
    bool valid;                /* FILE was collected: the items are there */
    perfbuf_raw_item *raw;
    size_t count;
    size_t cap;                /* room in raw */
    size_t cursor;             /* where paired_find last answered */
    v1_changes appeared, exited; /* --rate's */
} v1_paired;

/* Reads the raw array of the query's last collection into p, reusing its
 * room. The outputs name instances themselves: names are not asked for. */
static bool every_read(const v1_every *w, v1_paired *p)
{
    size_t n = 0;
    perfbuf_status st = perfbuf_query_raw_array(&w->q, &w->every, NULL, &n, NULL, NULL, NULL);
    p->valid = false;
    p->count = 0;
    p->cursor = 0;
    if (st != PERFBUF_OK && st != PERFBUF_E_OUTPUT_TOO_SMALL) {
        return false;
    }
    if (n > p->cap || p->raw == NULL) {
        free(p->raw);
        p->raw = dump_calloc(n, sizeof *p->raw);
        p->cap = n;
    }
    size_t got = n;
    p->valid = perfbuf_query_raw_array(&w->q, &w->every, p->raw, &got, NULL, NULL, NULL) ==
                   PERFBUF_OK &&
               got == n;
    p->count = p->valid ? n : 0;
    return p->valid;
}

/* Reads the instances of the query's last collection that appeared or
 * exited (`which`) into ch, their titles sorted for changes_exited. */
static void changes_read(const v1_every *w, uint32_t which, v1_changes *ch)
{
    memset(ch, 0, sizeof *ch);
    size_t n = 0, bytes = 0;
    perfbuf_status st =
        perfbuf_query_instances(&w->q, &w->every, which, NULL, &n, NULL, &bytes, NULL);
    if ((st != PERFBUF_OK && st != PERFBUF_E_OUTPUT_TOO_SMALL) || n == 0) {
        return;
    }
    perfbuf_query_instance *list = dump_calloc(n, sizeof *list);
    char *names = dump_calloc(bytes, 1);
    size_t got = n;
    if (perfbuf_query_instances(&w->q, &w->every, which, list, &got, names, &bytes, NULL) !=
            PERFBUF_OK ||
        got != n) {
        free(list);
        free(names);
        return;
    }
    /* Instances only: an object's counter block is no instance. */
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        DUMP_WORK(1);
        if (list[i].position != PERFBUF_ITEM_NO_INSTANCE) {
            list[kept++] = list[i];
        }
    }
    ch->list = list;
    ch->count = kept;
    ch->names = names;
    ch->by_title = dump_calloc(kept, sizeof *ch->by_title);
    ch->shown = dump_calloc(kept, sizeof *ch->shown);
    for (size_t i = 0; i < kept; i++) {
        DUMP_WORK(1);
        /* A capture of at most 1 GiB holds fewer than 2^32 instances. */
        ch->by_title[i] = (uint64_t)list[i].object_title << 32 | (uint32_t)i;
    }
    dump_sort_u64(ch->by_title, kept);
}

static void changes_free(v1_changes *ch)
{
    free(ch->list);
    free(ch->names);
    free(ch->by_title);
    free(ch->shown);
}

/*
 * --rate: PREVIOUS and then FILE, collected by one query, and FILE's
 * items read, with the instances that appeared and exited; the arena is
 * freed as soon as they are. *earlier_ok says whether PREVIOUS was
 * collected, *err why not (FILE is then not collected: there is no rate
 * to show).
 */
static void rate_build(v1_paired *p, const dump_input *in, const v1_tables *tables,
                       bool *earlier_ok, perfbuf_error *err)
{
    memset(p, 0, sizeof *p);
    v1_every w;
    every_open(&w, in, tables);
    *earlier_ok = every_collect(&w, in->previous, in->previous_size, err);
    if (*earlier_ok && every_collect_file(&w, in) && every_read(&w, p)) {
        changes_read(&w, PERFBUF_QUERY_APPEARED, &p->appeared);
        changes_read(&w, PERFBUF_QUERY_EXITED, &p->exited);
    }
    free(w.arena);
}

/*
 * The first item of an object's instance (position PERFBUF_ITEM_NO_INSTANCE:
 * its counter block): the items are in block order, so ordered by object
 * and then by position; p->count when it has none (an object without
 * definitions). The dump asks in block order too, so the search walks on
 * from where the last one ended, and the walks of a whole dump cost the
 * items once; a key behind that place (never asked by the dump) is found
 * by binary search, O(log items).
 */
static size_t paired_find(v1_paired *p, uint32_t object, uint32_t position)
{
    uint64_t key = (uint64_t)object << 32 | position;
    size_t lo = 0;
    size_t hi = p->count;
    size_t at = p->cursor < p->count ? p->cursor : p->count;
    if (at == p->count ||
        ((uint64_t)p->raw[at].object << 32 | p->raw[at].position) <= key) {
        while (at < p->count && ((uint64_t)p->raw[at].object << 32 | p->raw[at].position) < key) {
            DUMP_WORK(1);
            at++;
        }
        lo = at;
    } else {
        hi = at;
        while (lo < hi) {
            DUMP_WORK(1);
            size_t mid = lo + (hi - lo) / 2;
            uint64_t k = (uint64_t)p->raw[mid].object << 32 | p->raw[mid].position;
            if (k < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
    }
    p->cursor = lo;
    bool found = lo < p->count && p->raw[lo].object == object && p->raw[lo].position == position;
    return found ? lo : p->count;
}

/* The item of definition c at `first` (paired_find's answer), or -1: each
 * instance has one item per definition of its object, in definition order. */
static ptrdiff_t paired_item(const v1_paired *p, size_t first, const perfbuf_v1_counter *c)
{
    if (first >= p->count || c->index >= p->count - first) {
        return -1;
    }
    size_t at = first + c->index;
    bool same = p->raw[at].object == p->raw[first].object &&
                p->raw[at].position == p->raw[first].position;
    return same ? (ptrdiff_t)at : -1;
}

/*
 * An item's formatted value, as perfbuf_query_formatted_array gives it
 * (perfbuf/query.h): a sample that could not be read (a base's) keeps its
 * own status; else perfbuf_format_value of the newer sample with the older
 * one, which a raw item holds exactly when its instance matched (has_older:
 * a counter without one gives INVALID_DATA where its formula needs two).
 */
static uint32_t paired_value(const perfbuf_raw_item *item, perfbuf_value *v)
{
    if (!PERFBUF_CSTATUS_IS_VALID(item->newer.status)) {
        v->status = item->newer.status;
        return v->status;
    }
    return perfbuf_format_value(item->newer.type, &item->newer,
                                item->has_older ? &item->older : NULL, &item->context,
                                PERFBUF_FMT_DOUBLE, v);
}

/*
 * How an instance paired (the items at `first`): "matched", with the older
 * position, when any of its definitions found its older sample (one whose
 * type changed still names the older instance); else its first item's
 * state; DUMP_PAIR_NONE when it has no item.
 */
static uint32_t paired_state(const v1_paired *p, size_t first, uint32_t *older_position)
{
    if (first >= p->count) {
        return DUMP_PAIR_NONE;
    }
    for (size_t k = first; k < p->count && p->raw[k].object == p->raw[first].object &&
                           p->raw[k].position == p->raw[first].position;
         k++) {
        DUMP_WORK(1);
        uint32_t pairing = p->raw[k].pairing;
        if (pairing == PERFBUF_PAIR_MATCHED || pairing == PERFBUF_PAIR_DEFINITION_CHANGED) {
            *older_position = p->raw[k].older_position;
            return PERFBUF_PAIR_MATCHED;
        }
    }
    return p->raw[first].pairing;
}

/*
 * --series: each earlier capture paired with FILE, by one query that
 * collects EARLIER[0], FILE, EARLIER[1], FILE, ... (each collection pairs
 * with the one before it, so each FILE collection pairs with one earlier
 * capture). FILE's items are the same in every pairing (its objects,
 * instances and definitions, in block order); of each pairing only the
 * earlier capture's sample of each item is kept, 40 bytes an item, and
 * FILE's own samples are those of its last collection. One arena serves
 * every collection.
 */
typedef struct v1_series {
    v1_paired file;                /* FILE's items, of its last collection */
    perfbuf_raw_sample **earlier;  /* per capture, oldest first: its sample of
                                      each item of FILE (status INVALID_DATA
                                      when the item has none), or NULL */
    size_t *earlier_count;         /* the items each holds */
    size_t count;                  /* earlier captures */
    perfbuf_raw_sample *ring;      /* count + 1 samples */
} v1_series;

static void series_build(v1_series *s, const dump_input *in, const v1_tables *tables)
{
    memset(s, 0, sizeof *s);
    s->count = in->series_count;
    s->earlier = dump_calloc(s->count, sizeof *s->earlier);
    s->earlier_count = dump_calloc(s->count, sizeof *s->earlier_count);
    s->ring = dump_calloc(s->count + 1u, sizeof *s->ring);
    v1_every w;
    every_open(&w, in, tables);
    bool file_read = false;
    for (size_t k = 0; k < s->count; k++) {
        DUMP_WORK(1);
        perfbuf_error err;
        /* A capture the query refuses (main has reported it) contributes
         * no sample; the query is then as it was, and FILE is not
         * collected again, which would pair it with itself. */
        if (!every_collect(&w, in->series[k], in->series_sizes[k], &err) ||
            !every_collect_file(&w, in) || !every_read(&w, &s->file)) {
            continue;
        }
        file_read = true;
        perfbuf_raw_sample *samples = dump_calloc(s->file.count, sizeof *samples);
        for (size_t i = 0; i < s->file.count; i++) {
            DUMP_WORK(1);
            const perfbuf_raw_item *item = &s->file.raw[i];
            samples[i] = item->has_older ? item->older
                                         : (perfbuf_raw_sample){.status =
                                                                    PERFBUF_CSTATUS_INVALID_DATA};
        }
        s->earlier[k] = samples;
        s->earlier_count[k] = s->file.count;
    }
    /* No earlier capture was collected: FILE alone gives its own samples. */
    if (!file_read && every_collect_file(&w, in)) {
        (void)every_read(&w, &s->file);
    }
    free(w.arena);
}

static void series_free(v1_series *s)
{
    for (size_t k = 0; k < s->count; k++) {
        free(s->earlier[k]);
    }
    free(s->earlier);
    free(s->earlier_count);
    free(s->ring);
    free(s->file.raw);
}

/* The dumped object: its definitions, walked once for every use. */
typedef struct v1_current {
    const perfbuf_v1_block *b;
    const perfbuf_v1_object *o;
    const perfbuf_v1_counter *counters;
    uint32_t count;
    dump_text *text;           /* scratch for names and hex values */
} v1_current;

static void emit_values(emitter *e, const v1_current *cur, const perfbuf_v1_counter_block *blk)
{
    emit_list_begin(e, "values");
    for (uint32_t i = 0; i < cur->count; i++) {
        DUMP_WORK(1);
        const perfbuf_v1_counter *c = &cur->counters[i];
        if (c->size == 4 || c->size == 8) {
            emit_u64(e, NULL, perfbuf_v1_counter_value(cur->b, blk, c));
        } else {
            dump_hex(e, NULL, perfbuf_v1_counter_bytes(cur->b, blk, c), c->size, cur->text);
        }
    }
    emit_list_end(e);
}

/* A number as the outputs write one ("%.6f"). */
static void emit_decimal(emitter *e, const char *key, double v)
{
    char text[DUMP_DECIMAL_BYTES];
    (void)dump_decimal6(v, text);
    emit_str(e, key, text);
}

/*
 * Formatted values of one counter block (the items at `first`) against the
 * same block of the earlier capture, as the query formats them: a sample
 * that could not be read (a base's) gives its own status, a counter
 * without an older sample INVALID_DATA where its formula needs two.
 */
static void emit_formatted(emitter *e, const v1_current *cur, const v1_paired *p, size_t first)
{
    emit_list_begin(e, "formatted");
    for (uint32_t i = 0; i < cur->count; i++) {
        DUMP_WORK(1);
        ptrdiff_t at = paired_item(p, first, &cur->counters[i]);
        perfbuf_value v = {.status = PERFBUF_CSTATUS_INVALID_DATA};
        if (at >= 0) {
            (void)paired_value(&p->raw[at], &v);
        }
        if (v.status == PERFBUF_CSTATUS_VALID_DATA) {
            emit_decimal(e, NULL, v.as_double);
        } else {
            emit_str(e, NULL, dump_value_status_name(v.status));
        }
    }
    emit_list_end(e);
}

/* --rate and --series: FILE's items paired with the earlier captures. */
typedef struct v1_peers {
    v1_paired *rate;          /* NULL without --rate or when it was rejected */
    v1_series *series;        /* NULL without --series */
} v1_peers;

/*
 * Statistics of every counter of one counter block over the series
 * (oldest first, FILE last), as perfbuf_compute_statistics computes them:
 * each earlier capture's sample is the one its own pairing with FILE gives
 * the same instance and definition; a capture without it contributes an
 * invalid sample, and so does FILE for an instance no capture can pair (a
 * later object of a repeated title). `position` is the instance's, or
 * PERFBUF_ITEM_NO_INSTANCE for the object's counter block.
 */
static void emit_statistics(emitter *e, const v1_current *cur, v1_series *s, uint32_t position)
{
    size_t n = s->count + 1u;
    perfbuf_raw_sample *ring = s->ring;
    v1_paired *file = &s->file;
    size_t first = paired_find(file, cur->o->index, position);
    emit_list_begin(e, "statistics");
    for (uint32_t i = 0; i < cur->count; i++) {
        DUMP_WORK(1);
        const perfbuf_v1_counter *c = &cur->counters[i];
        ptrdiff_t at = paired_item(file, first, c);
        for (size_t k = 0; k + 1u < n; k++) {
            DUMP_WORK(1);
            ring[k].status = PERFBUF_CSTATUS_INVALID_DATA;
            if (at >= 0 && (size_t)at < s->earlier_count[k]) {
                ring[k] = s->earlier[k][at];
            }
        }
        /* FILE's own sample, and the frequency and scale it is read with. */
        perfbuf_value_context ctx = {0, 0};
        ring[n - 1u].status = PERFBUF_CSTATUS_INVALID_DATA;
        if (at >= 0 && file->raw[at].pairing != PERFBUF_PAIR_UNPAIRED &&
            PERFBUF_CSTATUS_IS_VALID(file->raw[at].newer.status)) {
            ring[n - 1u] = file->raw[at].newer;
            ctx = file->raw[at].context;
        }
        perfbuf_statistics st;
        uint32_t rc =
            perfbuf_compute_statistics(c->type, &ctx, PERFBUF_FMT_DOUBLE, 0, n, ring, &st);
        emit_object_begin(e, NULL);
        emit_u64(e, "count", st.count);
        if (rc == PERFBUF_CSTATUS_VALID_DATA) {
            emit_decimal(e, "min", st.min.as_double);
            emit_decimal(e, "max", st.max.as_double);
            emit_decimal(e, "mean", st.mean.as_double);
        } else {
            emit_str(e, "status", dump_value_status_name(rc));
        }
        emit_object_end(e);
    }
    emit_list_end(e);
}

/* The longest full name shown, in bytes. */
#define FULL_NAME_MAX 4095

static void emit_counter_block(emitter *e, const perfbuf_v1_counter_block *blk)
{
    emit_object_begin(e, "counter_block");
    emit_hex(e, "offset", blk->offset);
    emit_u64(e, "byte_length", blk->byte_length);
    emit_object_end(e);
}

static void emit_instance(emitter *e, const v1_current *cur, const perfbuf_v1_instance *inst,
                          const perfbuf_v1_instance_index *index, const v1_peers *peers)
{
    const perfbuf_v1_block *b = cur->b;
    emit_object_begin(e, NULL);
    emit_u64(e, "position", inst->index);
    emit_hex(e, "offset", inst->offset);
    emit_u64(e, "byte_length", inst->byte_length);
    emit_u64(e, "parent_object_title_index", inst->parent_title_index);
    emit_u64(e, "parent_object_instance", inst->parent_instance);
    emit_i64(e, "unique_id", inst->unique_id);
    /* NameOffset and NameLength as the buffer has them (the view keeps
     * only the name's bytes before its terminator). */
    uint32_t name_length = dump_le32(b->data + inst->offset + 20);
    emit_u64(e, "name_offset", dump_le32(b->data + inst->offset + 16));
    emit_u64(e, "name_length", name_length);
    dump_text *t = cur->text;
    perfbuf_status st = instance_name(b, inst, t);
    if (name_length == 0) {
        emit_null(e, "name");
    } else if (st == PERFBUF_OK) {
        emit_str(e, "name", t->buf);
    } else {
        emit_u64(e, "name_code_page", inst->code_page);
    }
    /* A full name repeats its parent's name in every child: whole, one
     * long parent name would make the output grow with children x name.
     * It is cut at FULL_NAME_MAX bytes instead, and says so. */
    size_t len;
    dump_text_fit(t, FULL_NAME_MAX);
    st = perfbuf_v1_full_name_utf8(b, cur->o, inst, index, t->buf, FULL_NAME_MAX + 1, &len);
    if (st == PERFBUF_OK || st == PERFBUF_E_BAD_REFERENCE || st == PERFBUF_E_OUTPUT_TOO_SMALL) {
        emit_str(e, "full_name", t->buf);
        emit_bool(e, "full_name_cut", st == PERFBUF_E_OUTPUT_TOO_SMALL);
    }
    if (st == PERFBUF_E_BAD_REFERENCE) {
        emit_str(e, "parent_error", perfbuf_status_name(st));
    }
    emit_counter_block(e, &inst->counters);
    emit_values(e, cur, &inst->counters);
    if (peers->rate != NULL) {
        v1_paired *p = peers->rate;
        size_t first = paired_find(p, cur->o->index, inst->index);
        uint32_t older_position = 0;
        uint32_t state = paired_state(p, first, &older_position);
        emit_str(e, "pairing", dump_pairing_name(state));
        if (state == PERFBUF_PAIR_MATCHED) {
            emit_u64(e, "previous_position", older_position);
        }
        emit_formatted(e, cur, p, first);
    }
    if (peers->series != NULL) {
        emit_statistics(e, cur, peers->series, inst->index);
    }
    emit_object_end(e);
}

/*
 * One instance that appeared or exited: its name and position in its own
 * capture, and what told it from the others besides its name (--pair-by):
 * the key counter (named as --pair-by named it) and its value, or its
 * UniqueID (a LONG, shown as the instance's unique_id is), or its name.
 */
static void emit_change(emitter *e, const dump_input *in, const perfbuf_query_instance *inst)
{
    emit_object_begin(e, NULL);
    emit_str(e, "name", inst->name != NULL ? inst->name : "");
    emit_u64(e, "position", inst->position);
    if (inst->identity == PERFBUF_QUERY_IDENTITY_KEY_COUNTER) {
        emit_str(e, "identity", in->pair_key);
        emit_u64(e, "key", inst->key);
    } else if (inst->identity == PERFBUF_QUERY_IDENTITY_UNIQUE_ID) {
        emit_str(e, "identity", "unique-id");
        emit_i64(e, "key", (int32_t)(uint32_t)inst->key);
    } else {
        emit_str(e, "identity", "name");
    }
    emit_object_end(e);
}

/*
 * --rate: the instances of the earlier capture's object of this title that
 * exited, shown with FILE's first object of the title (the query pairs
 * only the first object of a title in each capture, and lists no other's),
 * then those of object `object` that appeared, in buffer order of their
 * own capture. The dump asks for objects in block order: the appeared
 * walk on from where the last object's ended, and each title's exited
 * run is found by binary search and shown once, so a dump's lists cost
 * their instances once.
 */
static void emit_changes(emitter *e, const dump_input *in, v1_paired *p, uint32_t object,
                         uint32_t title)
{
    v1_changes *gone = &p->exited;
    emit_list_begin(e, "exited");
    size_t at = dump_find_high(gone->by_title, gone->count, title);
    if (at < gone->count && !gone->shown[at]) {
        gone->shown[at] = true;
        for (; at < gone->count && (uint32_t)(gone->by_title[at] >> 32) == title; at++) {
            DUMP_WORK(1);
            emit_change(e, in, &gone->list[(uint32_t)gone->by_title[at]]);
        }
    }
    emit_list_end(e);
    v1_changes *came = &p->appeared;
    emit_list_begin(e, "appeared");
    while (came->cursor < came->count && came->list[came->cursor].object < object) {
        DUMP_WORK(1);
        came->cursor++;
    }
    for (; came->cursor < came->count && came->list[came->cursor].object == object;
         came->cursor++) {
        DUMP_WORK(1);
        emit_change(e, in, &came->list[came->cursor]);
    }
    emit_list_end(e);
}

/*
 * --pair-by KEY: says on stderr which of FILE's objects with instances
 * lack the key counter, whose instances pair by PDH's key instead. Each
 * is named by its title index, and by its title's text too where that is
 * printable ASCII (a table's text could hold what a terminal acts on).
 * O(the block's definitions).
 */
static void note_keyless(const dump_input *in, const v1_tables *tables,
                         const perfbuf_v1_block *b)
{
    perfbuf_counter_path key = key_path(in);
    dump_text text;
    dump_text_init(&text);
    bool any = false;
    perfbuf_v1_iter it;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(b, &it);
    while (perfbuf_v1_objects_next(b, &it, &o)) {
        DUMP_WORK(1);
        if (o.num_instances < 0 || object_has_key(b, tables, &o, &key)) {
            continue;
        }
        if (!any) {
            fprintf(stderr, "perfbuf-dump: %s: --pair-by \"%s\": these objects have no such "
                            "counter; their instances pair by PDH's key:",
                    in->path, in->pair_key);
        }
        fprintf(stderr, "%s %u", any ? "," : "", o.name_title_index);
        any = true;
        /* The display language's title (--names), else the English one. */
        perfbuf_language language = tables->tables.localized != NULL ? PERFBUF_LANGUAGE_LOCALIZED
                                                                      : PERFBUF_LANGUAGE_ENGLISH;
        size_t len;
        perfbuf_status st = perfbuf_title_text_utf8(&tables->tables, language,
                                                    o.name_title_index, text.buf, text.cap, &len);
        if (st == PERFBUF_E_OUTPUT_TOO_SMALL) {
            dump_text_fit(&text, len);
            st = perfbuf_title_text_utf8(&tables->tables, language, o.name_title_index,
                                         text.buf, text.cap, &len);
        }
        bool printable = st == PERFBUF_OK;
        for (size_t k = 0; printable && text.buf[k] != '\0'; k++) {
            DUMP_WORK(1);
            printable = text.buf[k] >= 0x20 && text.buf[k] < 0x7F;
        }
        if (printable) {
            fprintf(stderr, " (%s)", text.buf);
        }
    }
    if (any) {
        fputc('\n', stderr);
    }
    dump_text_free(&text);
}

/* What a V1 path's instance part could have named, for the tool to tell
 * why it named none (select_report_paths). */
typedef struct v1_candidates_context {
    const perfbuf_v1_block *b;
    const perfbuf_v1_instance_index *parents; /* the block index, or NULL */
    const perfbuf_title_tables *tables;
} v1_candidates_context;

/* Whether the path names a parent by name (not "*"). */
static bool names_parent(const perfbuf_counter_path *path)
{
    return (path->flags & PERFBUF_PATH_HAS_PARENT) != 0 &&
           (path->flags & PERFBUF_PATH_PARENT_WILDCARD) == 0;
}

/*
 * The offsets of the block's instances whose name the path's parent part
 * names, ascending (the walk visits them in buffer order): every name is
 * converted once, so a parent's name costs its length once however many
 * children name it.
 */
static size_t v1_parents_named(const perfbuf_v1_block *b, const perfbuf_counter_path *path,
                               uint64_t **out)
{
    size_t count = 0;
    size_t cap = 0;
    *out = NULL;
    dump_text name;
    dump_text_init(&name);
    perfbuf_v1_iter oi;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(b, &oi);
    while (perfbuf_v1_objects_next(b, &oi, &o)) {
        DUMP_WORK(1);
        perfbuf_v1_iter ii;
        perfbuf_v1_instance inst;
        perfbuf_v1_instances_begin(&o, &ii);
        while (perfbuf_v1_instances_next(b, &ii, &inst)) {
            DUMP_WORK(1);
            if (instance_name(b, &inst, &name) != PERFBUF_OK ||
                !perfbuf_path_name_matches(path, PERFBUF_PATH_PARENT, name.buf,
                                           strlen(name.buf))) {
                continue;
            }
            if (count == cap) {
                cap = cap ? cap * 2u : 16u;
                uint64_t *grown = dump_calloc(cap, sizeof *grown);
                if (*out != NULL) {
                    memcpy(grown, *out, count * sizeof *grown);
                }
                free(*out);
                *out = grown;
            }
            (*out)[count++] = inst.offset;
        }
    }
    dump_text_free(&name);
    return count;
}

static bool offset_listed(const uint64_t *offsets, size_t count, uint64_t offset)
{
    size_t lo = 0;
    size_t hi = count;
    while (lo < hi) {
        DUMP_WORK(1);
        size_t mid = lo + (hi - lo) / 2;
        if (offsets[mid] < offset) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < count && offsets[lo] == offset;
}

/* Every instance of every object the path's object part names, with
 * whether its parent is one the path names: linear in the block, plus a
 * binary search per instance, and asked only for a path that named no
 * instance. */
static void v1_candidates(void *context, const perfbuf_counter_path *path,
                          select_candidates *out)
{
    const v1_candidates_context *ctx = context;
    uint64_t *parents = NULL;
    size_t parent_count = names_parent(path) ? v1_parents_named(ctx->b, path, &parents) : 0;
    dump_text name;
    dump_text_init(&name);
    perfbuf_v1_iter oi;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(ctx->b, &oi);
    while (perfbuf_v1_objects_next(ctx->b, &oi, &o)) {
        DUMP_WORK(1);
        if (perfbuf_title_matches(ctx->tables, o.name_title_index, path->text + path->object.offset,
                                  path->object.length) == 0) {
            continue;
        }
        out->has_instances = out->has_instances || o.num_instances >= 0;
        perfbuf_v1_iter ii;
        perfbuf_v1_instance inst;
        perfbuf_v1_instances_begin(&o, &ii);
        while (perfbuf_v1_instances_next(ctx->b, &ii, &inst)) {
            DUMP_WORK(1);
            perfbuf_v1_instance parent;
            bool parent_ok = !names_parent(path) ||
                             (ctx->parents != NULL &&
                              perfbuf_v1_parent(ctx->b, &o, &inst, ctx->parents, &parent, NULL) ==
                                  PERFBUF_OK &&
                              offset_listed(parents, parent_count, parent.offset));
            if (instance_name(ctx->b, &inst, &name) == PERFBUF_OK) {
                select_candidates_add(out, parent_ok, name.buf, strlen(name.buf));
            }
        }
    }
    free(parents);
    dump_text_free(&name);
}

/* Keeps the counters some path selects, in definition order; each keeps
 * its position, so what is shown says which it is. */
static uint32_t keep_selected(const dump_selection *sel, perfbuf_v1_counter *counters,
                              uint32_t count)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; i++) {
        DUMP_WORK(1);
        if (select_counter(sel, &counters[i])) {
            counters[kept++] = counters[i];
        }
    }
    return kept;
}

perfbuf_status dump_v1(const dump_input *in, emitter *e, perfbuf_error *err)
{
    perfbuf_v1_block b;
    perfbuf_status st = perfbuf_v1_parse(in->data, in->size, &in->options, &b, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    v1_tables tables;
    tables_load(in, &tables);
    const perfbuf_name_table *have_names = tables.display;
    const perfbuf_name_index *index = tables.display_index;
    dump_selection sel = {in->paths, in->path_count, &tables.tables, NULL, NULL, 0, NULL, NULL};
    if (in->path_count > 0) {
        /* FILE alone: the instances each path selects, and what it found. */
        perfbuf_query q;
        perfbuf_query_counter *qcounters = dump_calloc(in->path_count, sizeof *qcounters);
        bool *added = dump_calloc(in->path_count, sizeof *added);
        uint8_t *arena = NULL;
        bool collected = query_open_on(in, &tables, &q, qcounters, added, NULL) &&
                         dump_query_collect(&q, &arena, in->data, in->size, NULL) == PERFBUF_OK;
        select_take_query(&sel, &q, qcounters, added, collected);
        free(arena);
        free(added);
        free(qcounters);
    }
    /* Parents through the block-wide index: every instance's parent in
     * O(log objects), whichever objects the parents are in. */
    uint64_t *parent_slots = dump_calloc(b.index_slots, sizeof *parent_slots);
    perfbuf_v1_instance_index parents;
    const perfbuf_v1_instance_index *have_parents = NULL;
    if (perfbuf_v1_block_index_build(&b, parent_slots, b.index_slots, &parents) == PERFBUF_OK) {
        have_parents = &parents;
    }
    /* Each earlier capture and FILE through the library's query, once
     * for the whole dump: every value's item, looked up per instance. */
    v1_peers peers;
    memset(&peers, 0, sizeof peers);
    v1_paired rate;
    if (in->pair_by == DUMP_PAIR_BY_KEY && (in->previous != NULL || in->series_count > 0)) {
        note_keyless(in, &tables, &b);
    }
    if (in->previous != NULL) {
        perfbuf_error perr = {0};
        bool collected;
        rate_build(&rate, in, &tables, &collected, &perr);
        if (!collected) {
            dump_side_rejected("--rate capture", in->previous_path, &perr);
            free(rate.raw);
        } else {
            peers.rate = &rate;
        }
    }
    v1_series series;
    if (in->series_count > 0) {
        series_build(&series, in, &tables);
        peers.series = &series;
    }
    dump_text text;
    dump_text_init(&text);
    size_t len;
    /* Signature and LittleEndian can only be "PERF" and 1 in a block the
     * parse accepted; shown all the same, as every field is. */
    emit_str(e, "signature", "PERF");
    emit_u64(e, "little_endian", dump_le32(b.data + 8));
    emit_u64(e, "version", b.version);
    emit_u64(e, "revision", b.revision);
    emit_u64(e, "total_byte_length", b.size);
    emit_u64(e, "header_length", b.header_length);
    emit_u64(e, "num_object_types", b.declared_object_count);
    emit_i64(e, "default_object", b.default_object);
    dump_systemtime(e, "system_time", &b.system_time);
    emit_i64(e, "perf_time", b.perf_time);
    emit_i64(e, "perf_freq", b.perf_freq);
    emit_i64(e, "perf_time_100ns", b.perf_time_100ns);
    emit_u64(e, "system_name_length", dump_le32(b.data + 80));
    emit_u64(e, "system_name_offset", dump_le32(b.data + 84));
    perfbuf_status name_st = perfbuf_v1_system_name_utf8(&b, text.buf, text.cap, &len);
    if (name_st == PERFBUF_E_OUTPUT_TOO_SMALL) {
        dump_text_fit(&text, len);
        name_st = perfbuf_v1_system_name_utf8(&b, text.buf, text.cap, &len);
    }
    if (name_st == PERFBUF_OK) {
        emit_str(e, "system_name", text.buf);
    }
    dump_anomalies(e, b.anomalies, &b.first_anomaly);
    emit_list_begin(e, "objects");
    perfbuf_v1_counter *counters = NULL;
    size_t counters_cap = 0;
    perfbuf_v1_iter oi;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(&b, &oi);
    while (perfbuf_v1_objects_next(&b, &oi, &o)) {
        DUMP_WORK(1);
        bool selecting = select_active(&sel);
        if (selecting && !select_object(&sel, &o)) {
            continue;
        }
        if (o.counter_count > counters_cap) {
            free(counters);
            counters = dump_calloc(o.counter_count, sizeof *counters);
            counters_cap = o.counter_count;
        }
        v1_current cur = {&b, &o, counters, 0, &text};
        cur.count = collect_counters(&b, &o, counters);
        if (selecting) {
            cur.count = keep_selected(&sel, counters, cur.count);
        }
        emit_object_begin(e, NULL);
        emit_u64(e, "position", o.index);
        emit_hex(e, "offset", o.offset);
        emit_u64(e, "total_byte_length", o.total_length);
        emit_u64(e, "definition_length", o.definition_length);
        emit_u64(e, "header_length", o.header_length);
        emit_u64(e, "object_name_title_index", o.name_title_index);
        emit_u64(e, "object_name_title", dump_le32(b.data + o.offset + 16));
        emit_u64(e, "object_help_title_index", o.help_title_index);
        emit_u64(e, "object_help_title", dump_le32(b.data + o.offset + 24));
        emit_title(e, "name", have_names, index, o.name_title_index, &text);
        emit_u64(e, "detail_level", o.detail_level);
        emit_u64(e, "num_counters", o.counter_count);
        emit_i64(e, "default_counter", o.default_counter);
        emit_i64(e, "num_instances", o.num_instances);
        emit_u64(e, "code_page", o.code_page);
        emit_i64(e, "perf_time", o.perf_time);
        emit_i64(e, "perf_freq", o.perf_freq);
        emit_list_begin(e, "counters");
        for (uint32_t i = 0; i < cur.count; i++) {
            DUMP_WORK(1);
            const perfbuf_v1_counter *c = &counters[i];
            emit_object_begin(e, NULL);
            emit_u64(e, "position", c->index);
            emit_hex(e, "offset", c->offset);
            emit_u64(e, "byte_length", c->byte_length);
            emit_u64(e, "counter_name_title_index", c->name_title_index);
            emit_u64(e, "counter_name_title", dump_le32(b.data + c->offset + 8));
            emit_u64(e, "counter_help_title_index", c->help_title_index);
            emit_u64(e, "counter_help_title", dump_le32(b.data + c->offset + 16));
            emit_title(e, "name", have_names, index, c->name_title_index, &text);
            emit_i64(e, "default_scale", c->default_scale);
            emit_u64(e, "detail_level", c->detail_level);
            emit_hex(e, "counter_type", c->type);
            emit_str(e, "counter_type_name", perfbuf_counter_type_name(c->type));
            emit_u64(e, "counter_size", c->size);
            emit_u64(e, "counter_offset", c->counter_offset);
            emit_object_end(e);
        }
        emit_list_end(e);
        perfbuf_v1_counter_block blk;
        if (perfbuf_v1_object_counter_block(&b, &o, &blk) &&
            (!selecting || select_block(&sel, o.index))) {
            emit_counter_block(e, &blk);
            emit_values(e, &cur, &blk);
            if (peers.rate != NULL) {
                emit_formatted(e, &cur, peers.rate,
                               paired_find(peers.rate, o.index, PERFBUF_ITEM_NO_INSTANCE));
            }
            if (peers.series != NULL) {
                emit_statistics(e, &cur, peers.series, PERFBUF_ITEM_NO_INSTANCE);
            }
        }
        if (o.num_instances >= 0) {
            emit_list_begin(e, "instances");
            perfbuf_v1_iter ii;
            perfbuf_v1_instance inst;
            perfbuf_v1_instances_begin(&o, &ii);
            while (perfbuf_v1_instances_next(&b, &ii, &inst)) {
                DUMP_WORK(1);
                if (!selecting || select_instance(&sel, o.index, inst.index)) {
                    emit_instance(e, &cur, &inst, have_parents, &peers);
                }
            }
            emit_list_end(e);
            if (peers.rate != NULL) {
                emit_changes(e, in, peers.rate, o.index, o.name_title_index);
            }
        }
        emit_object_end(e);
    }
    emit_list_end(e);
    free(counters);
    if (peers.rate != NULL) {
        free(peers.rate->raw);
        changes_free(&peers.rate->appeared);
        changes_free(&peers.rate->exited);
    }
    if (peers.series != NULL) {
        series_free(peers.series);
    }
    dump_miss miss;
    memset(&miss, 0, sizeof miss);
    v1_candidates_context candidates = {&b, have_parents, &tables.tables};
    bool missed = select_active(&sel) &&
                  select_report_paths(in->paths, sel.found, in->path_count, in->path, SELECT_V1,
                                      v1_candidates, &candidates, &miss);
    free(parent_slots);
    tables_free(&tables);
    select_free(&sel);
    dump_text_free(&text);
    if (missed) {
        if (in->miss != NULL) {
            *in->miss = miss;
        }
        return dump_path_missed(&miss, err);
    }
    return PERFBUF_OK;
}

bool detect_names(const uint8_t *data, size_t size)
{
    /* UTF-16LE text starting with a decimal digit and ending with two
     * NUL units: the shape of a Counter or Help value. */
    return size >= 6 && size % 2 == 0 && data[0] >= '0' && data[0] <= '9' && data[1] == 0 &&
           data[size - 1] == 0 && data[size - 2] == 0 && data[size - 3] == 0 && data[size - 4] == 0;
}

perfbuf_status dump_names(const dump_input *in, emitter *e, perfbuf_error *err)
{
    perfbuf_name_table t;
    perfbuf_status st = perfbuf_names_parse(in->data, in->size, &in->options, &t, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    emit_u64(e, "size", t.size);
    emit_u64(e, "count", t.count);
    emit_bool(e, "ascending", t.ascending);
    dump_anomalies(e, t.anomalies, &t.first_anomaly);
    emit_list_begin(e, "entries");
    dump_text text;
    dump_text_init(&text);
    perfbuf_names_iter it;
    perfbuf_name_entry entry;
    perfbuf_names_begin(&t, &it);
    while (perfbuf_names_next(&t, &it, &entry)) {
        DUMP_WORK(1);
        size_t len;
        perfbuf_status text_st = perfbuf_names_text_utf8(&t, &entry, text.buf, text.cap, &len);
        if (text_st == PERFBUF_E_OUTPUT_TOO_SMALL) {
            dump_text_fit(&text, len);
            text_st = perfbuf_names_text_utf8(&t, &entry, text.buf, text.cap, &len);
        }
        /* The second call has the room the first asked for: whatever it
         * returns, the buffer holds the converted text. */
        (void)text_st;
        emit_object_begin(e, NULL);
        emit_u64(e, "title_index", entry.title_index);
        emit_str(e, "text", text.buf);
        emit_object_end(e);
    }
    emit_list_end(e);
    dump_text_free(&text);
    return PERFBUF_OK;
}

/* ---- --csv, on the query (perfbuf/query.h) ---- */

/*
 * One item of one capture, kept until the records are written: where it
 * is, its value, and its name, which points into the capture's copy of
 * the query's names (the query keeps them only until its next
 * collection). The query writes one name per instance, which all the
 * instance's items point at, so a name is kept once per instance and
 * path, never once per item or per record.
 */
typedef struct csv_cell {
    const char *name;  /* in one of the capture's name buffers */
    size_t name_len;
    double value;
    uint32_t object;   /* the object's position in its capture */
    uint32_t position; /* the instance's, or PERFBUF_ITEM_NO_INSTANCE */
    uint32_t counter;  /* CounterNameTitleIndex */
    bool has_value;
} csv_cell;

/* A capture's items, path after path (each path's in block order). */
typedef struct csv_capture {
    perfbuf_systemtime time;
    csv_cell *cells;
    size_t count;
    size_t cap;
    char **names;             /* per path: the query's names of its items */
    size_t *path_end;         /* where each path's items end */
    uint32_t *object_title;   /* per object position */
    uint32_t *object_ordinal; /* among the capture's objects of its title */
    uint32_t object_count;
} csv_capture;

/*
 * The CSV's look-ups (an object's ordinal among objects of its title, a
 * counter's rank in its object, a column's title text) go through sorted
 * keys and binary search, and a column's cell in an earlier capture through
 * classes of equal keys (csv_match), never through a hash table: the keys
 * (titles, names) come from the buffers, and a table's probes can be made
 * to pile up on one slot by keys chosen for it, which would make the
 * tool's work grow with the square of its input. Sorting and splitting
 * cost the same whatever the keys.
 */

static uint8_t csv_fold(uint8_t c)
{
    return c >= 'A' && c <= 'Z' ? (uint8_t)(c + ('a' - 'A')) : c;
}

static void csv_capture_free(csv_capture *c, size_t paths)
{
    for (size_t p = 0; c->names != NULL && p < paths; p++) {
        free(c->names[p]);
    }
    free(c->names);
    free(c->cells);
    free(c->path_end);
    free(c->object_title);
    free(c->object_ordinal);
}

/* Each object's title and its ordinal among the objects of that title. */
static void csv_objects(csv_capture *c, const perfbuf_v1_block *b)
{
    uint32_t n = 0;
    perfbuf_v1_iter it;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(b, &it);
    while (perfbuf_v1_objects_next(b, &it, &o)) {
        DUMP_WORK(1);
        n++;
    }
    c->object_count = n;
    c->object_title = dump_calloc(n, sizeof *c->object_title);
    c->object_ordinal = dump_calloc(n, sizeof *c->object_ordinal);
    /* title << 32 | position, sorted: each title's objects adjacent, in
     * block order. */
    uint64_t *keys = dump_calloc(n, sizeof *keys);
    uint32_t k = 0;
    perfbuf_v1_objects_begin(b, &it);
    while (k < n && perfbuf_v1_objects_next(b, &it, &o)) {
        DUMP_WORK(1);
        c->object_title[k] = o.name_title_index;
        keys[k] = (uint64_t)o.name_title_index << 32 | k;
        k++;
    }
    dump_sort_u64(keys, k);
    for (uint32_t i = 0; i < k; i++) {
        DUMP_WORK(1);
        uint32_t at = (uint32_t)keys[i];
        bool same_title = i > 0 && keys[i - 1] >> 32 == keys[i] >> 32;
        c->object_ordinal[at] = same_title ? c->object_ordinal[(uint32_t)keys[i - 1]] + 1u : 0;
    }
    free(keys);
}

/*
 * Appends path p's items of the last collection to the capture: the
 * query's names in a buffer of their own, of exactly the size the query
 * asks, and a cell per item (`items` is scratch, reused from call to call).
 */
static void csv_keep(csv_capture *c, size_t p, const perfbuf_query *q,
                     const perfbuf_query_counter *qc, perfbuf_formatted_item **items,
                     size_t *items_cap)
{
    /* Asked with no room, an array that has items answers OUTPUT_TOO_SMALL;
     * one without (NOT_FOUND, or empty) has nothing to keep. */
    size_t count = 0, name_bytes = 0;
    if (perfbuf_query_formatted_array(q, qc, PERFBUF_FMT_DOUBLE, NULL, &count, NULL, &name_bytes,
                                      NULL) != PERFBUF_E_OUTPUT_TOO_SMALL) {
        return;
    }
    if (count > *items_cap) {
        free(*items);
        *items = dump_calloc(count, sizeof **items);
        *items_cap = count;
    }
    c->names[p] = dump_calloc(name_bytes, 1);
    if (perfbuf_query_formatted_array(q, qc, PERFBUF_FMT_DOUBLE, *items, &count, c->names[p],
                                      &name_bytes, NULL) != PERFBUF_OK) {
        return;
    }
    /* Room for this path's cells at once, doubling, so many paths cost
     * what their cells do. */
    if (count > c->cap - c->count) {
        size_t want = c->count + count;
        size_t cap = c->cap > want / 2u ? c->cap * 2u : want;
        csv_cell *grown = dump_calloc(cap, sizeof *grown);
        if (c->count > 0) {
            memcpy(grown, c->cells, c->count * sizeof *grown);
        }
        free(c->cells);
        c->cells = grown;
        c->cap = cap;
    }
    for (size_t i = 0; i < count; i++) {
        DUMP_WORK(1);
        const perfbuf_formatted_item *it = &(*items)[i];
        csv_cell *cell = &c->cells[c->count++];
        cell->object = it->object;
        cell->position = it->position;
        cell->counter = it->counter;
        /* The query names every item when given room for names; an empty
         * name ("" of a single-instance object) is still a name. */
        cell->name = it->name != NULL ? it->name : "";
        cell->name_len = it->name != NULL ? it->name_len : 0;
        /* fabs rather than isfinite: mingw-w64's isfinite macro narrows to float under
         * -Wfloat-conversion. The comparison is false for NaN and both infinities. */
        cell->has_value = it->value.status == PERFBUF_CSTATUS_VALID_DATA &&
                          fabs(it->value.as_double) <= DBL_MAX;
        cell->value = it->value.as_double;
    }
}

/*
 * The header's titles, each converted once: every column names its
 * object's title and its counter's, and columns share them. The distinct
 * title indexes, sorted, with their texts back to back; a column's is
 * found by binary search.
 */
typedef struct csv_titles {
    uint64_t *titles;         /* distinct title indexes, ascending */
    size_t *text_end;         /* per title: where its text ends in text */
    size_t count;
    char *text;
} csv_titles;

/* Appends a title's text in the display language, else English, else its
 * number, to the texts (grown as needed). */
static void csv_title_text(csv_titles *t, size_t *cap, const v1_tables *tables,
                           dump_text *scratch, uint32_t title_index)
{
    const perfbuf_language order[2] = {PERFBUF_LANGUAGE_LOCALIZED, PERFBUF_LANGUAGE_ENGLISH};
    const char *text = NULL;
    char number[16];
    for (size_t k = 0; k < 2 && text == NULL; k++) {
        size_t len;
        perfbuf_status st = perfbuf_title_text_utf8(&tables->tables, order[k], title_index,
                                                    scratch->buf, scratch->cap, &len);
        if (st == PERFBUF_E_OUTPUT_TOO_SMALL) {
            dump_text_fit(scratch, len);
            st = perfbuf_title_text_utf8(&tables->tables, order[k], title_index, scratch->buf,
                                         scratch->cap, &len);
        }
        text = st == PERFBUF_OK ? scratch->buf : NULL;
    }
    if (text == NULL) {
        snprintf(number, sizeof number, "%u", title_index);
        text = number;
    }
    size_t len = strlen(text);
    size_t at = t->count > 0 ? t->text_end[t->count - 1u] : 0;
    if (len > *cap - at) {
        size_t bigger = *cap > len ? *cap * 2u : *cap + len + 256u;
        char *grown = dump_calloc(bigger, 1);
        if (at > 0) {
            memcpy(grown, t->text, at);
        }
        free(t->text);
        t->text = grown;
        *cap = bigger;
    }
    DUMP_WORK(len);
    if (len > 0) {
        memcpy(t->text + at, text, len);
    }
    t->text_end[t->count++] = at + len;
}

static csv_titles csv_titles_build(const v1_tables *tables, const csv_capture *newest,
                                   const size_t *columns, size_t n)
{
    csv_titles t = {dump_calloc(2u * n, sizeof(uint64_t)), dump_calloc(2u * n, sizeof(size_t)),
                    0, NULL};
    size_t keys = 0;
    for (size_t k = 0; k < n; k++) {
        DUMP_WORK(1);
        const csv_cell *cell = &newest->cells[columns[k]];
        t.titles[keys++] =
            cell->object < newest->object_count ? newest->object_title[cell->object] : 0;
        t.titles[keys++] = cell->counter;
    }
    dump_sort_u64(t.titles, keys);
    size_t cap = 0;
    dump_text scratch;
    dump_text_init(&scratch);
    for (size_t k = 0; k < keys; k++) {
        DUMP_WORK(1);
        if (k > 0 && t.titles[k] == t.titles[k - 1u]) {
            continue;
        }
        uint32_t title = (uint32_t)t.titles[k];
        t.titles[t.count] = title;
        csv_title_text(&t, &cap, tables, &scratch, title);
    }
    dump_text_free(&scratch);
    return t;
}

static void csv_titles_free(csv_titles *t)
{
    free(t->titles);
    free(t->text_end);
    free(t->text);
}

/* Adds a title's text to the open field. */
static void csv_title(csv_out *w, const csv_titles *t, uint32_t title_index)
{
    size_t lo = 0;
    size_t hi = t->count;
    while (lo < hi) {
        DUMP_WORK(1);
        size_t mid = lo + (hi - lo) / 2;
        if (t->titles[mid] < title_index) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    /* Every title of a column was converted: lo is always found. */
    if (lo < t->count && t->titles[lo] == title_index) {
        size_t at = lo > 0 ? t->text_end[lo - 1u] : 0;
        csv_field_add(w, t->text + at, t->text_end[lo] - at);
    }
}

/* A capture's SystemTime as typeperf writes its timestamps. */
typedef struct csv_stamp_text {
    char text[64];
} csv_stamp_text;

static csv_stamp_text csv_stamp(const perfbuf_systemtime *t)
{
    csv_stamp_text s;
    snprintf(s.text, sizeof s.text, "%02u/%02u/%04u %02u:%02u:%02u.%03u", (unsigned)t->month,
             (unsigned)t->day, (unsigned)t->year, (unsigned)t->hour, (unsigned)t->minute,
             (unsigned)t->second, (unsigned)t->milliseconds);
    return s;
}

static void csv_value(csv_out *w, const csv_cell *cell)
{
    if (cell != NULL && cell->has_value) {
        char text[DUMP_DECIMAL_BYTES];
        (void)dump_decimal6(cell->value, text);
        csv_field(w, text);
    } else {
        csv_field(w, " ");
    }
}

/* A counter's place among its object's displayable definitions: the
 * order of a record's counters. */
typedef struct csv_rank_entry {
    uint64_t key; /* object position << 32 | CounterNameTitleIndex */
    uint32_t rank;
} csv_rank_entry;

typedef struct csv_ranks {
    csv_rank_entry *entries; /* by key, then rank */
    size_t count;
} csv_ranks;

static int csv_rank_entry_order(const void *a, const void *b)
{
    DUMP_WORK(1);
    const csv_rank_entry *x = a;
    const csv_rank_entry *y = b;
    if (x->key != y->key) {
        return x->key < y->key ? -1 : 1;
    }
    return x->rank < y->rank ? -1 : x->rank > y->rank ? 1 : 0;
}

static csv_ranks csv_ranks_build(const perfbuf_v1_block *b)
{
    size_t total = 0;
    perfbuf_v1_iter it;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(b, &it);
    while (perfbuf_v1_objects_next(b, &it, &o)) {
        DUMP_WORK(1);
        total += o.counter_count;
    }
    csv_ranks r = {dump_calloc(total, sizeof(csv_rank_entry)), 0};
    uint32_t object = 0;
    perfbuf_v1_objects_begin(b, &it);
    while (perfbuf_v1_objects_next(b, &it, &o)) {
        DUMP_WORK(1);
        uint32_t rank = 0;
        perfbuf_v1_iter ci;
        perfbuf_v1_counter c;
        perfbuf_v1_counters_begin(&o, &ci);
        for (uint32_t n = 0; n < o.counter_count && r.count < total &&
                             perfbuf_v1_counters_next(b, &ci, &c);
             n++) {
            DUMP_WORK(1);
            if (!perfbuf_counter_type_is_displayable(c.type)) {
                continue;
            }
            r.entries[r.count].key = (uint64_t)object << 32 | c.name_title_index;
            r.entries[r.count].rank = rank;
            r.count++;
            rank++;
        }
        object++;
    }
    qsort(r.entries, r.count, sizeof *r.entries, csv_rank_entry_order);
    return r;
}

/* The rank of the first displayable definition of the cell's counter in
 * its object (the smallest, ranks rising in definition order). */
static uint32_t csv_rank(const csv_ranks *r, const csv_cell *cell)
{
    uint64_t key = (uint64_t)cell->object << 32 | cell->counter;
    size_t lo = 0;
    size_t hi = r->count;
    while (lo < hi) {
        DUMP_WORK(1);
        size_t mid = lo + (hi - lo) / 2;
        if (r->entries[mid].key < key) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < r->count && r->entries[lo].key == key ? r->entries[lo].rank : UINT32_MAX;
}

/* Block order: object, instance (the single block after none), counter. */
static bool csv_before(const csv_cell *a, uint32_t rank_a, const csv_cell *b, uint32_t rank_b)
{
    if (a->object != b->object) {
        return a->object < b->object;
    }
    if (a->position != b->position) {
        return a->position < b->position;
    }
    return rank_a < rank_b;
}

/*
 * The columns: the newest capture's items of every path, merged in block
 * order. Each path's items are in block order already, so a merge of the
 * paths' runs costs the items times the paths, as matching them did; a
 * cell two paths select is the same (object, position, counter) and
 * comes out once.
 */
static size_t csv_columns(const csv_capture *c, size_t paths, const perfbuf_v1_block *b,
                          size_t **out)
{
    csv_ranks ranks = csv_ranks_build(b);
    size_t *head = dump_calloc(paths, sizeof *head);
    uint32_t *head_rank = dump_calloc(paths, sizeof *head_rank);
    for (size_t p = 0; p < paths; p++) {
        head[p] = p > 0 ? c->path_end[p - 1] : 0;
        if (head[p] < c->path_end[p]) {
            head_rank[p] = csv_rank(&ranks, &c->cells[head[p]]);
        }
    }
    size_t *columns = dump_calloc(c->count, sizeof *columns);
    size_t n = 0;
    for (;;) {
        DUMP_WORK(1);
        size_t best = paths;
        for (size_t p = 0; p < paths; p++) {
            DUMP_WORK(1);
            if (head[p] < c->path_end[p] &&
                (best == paths || csv_before(&c->cells[head[p]], head_rank[p],
                                             &c->cells[head[best]], head_rank[best]))) {
                best = p;
            }
        }
        if (best == paths) {
            break;
        }
        const csv_cell *cell = &c->cells[head[best]];
        const csv_cell *last = n > 0 ? &c->cells[columns[n - 1]] : NULL;
        if (last == NULL || last->object != cell->object || last->position != cell->position ||
            last->counter != cell->counter) {
            columns[n++] = head[best];
        }
        head[best]++;
        if (head[best] < c->path_end[best]) {
            head_rank[best] = csv_rank(&ranks, &c->cells[head[best]]);
        }
    }
    free(head);
    free(head_rank);
    free(ranks.entries);
    *out = columns;
    return n;
}

/*
 * A key as a column is looked up by in an earlier capture: its object's
 * title and its ordinal among the capture's objects of that title, the
 * counter, whether it is an instance (CSV_KEY_FIXED bytes), then its name
 * with ASCII letters folded, as the query pairs names (docs/cli.md, "CSV").
 */
#define CSV_KEY_FIXED 13u

typedef struct csv_key {
    uint8_t fixed[CSV_KEY_FIXED];
    const uint8_t *name;
    size_t name_len;
    size_t who; /* a cell of the earlier capture, or cells + the column's index */
} csv_key;

static void csv_key_make(csv_key *k, const csv_capture *c, const csv_cell *cell, size_t who)
{
    const uint32_t parts[3] = {c->object_title[cell->object], c->object_ordinal[cell->object],
                               cell->counter};
    for (size_t p = 0; p < 3; p++) {
        k->fixed[4 * p] = (uint8_t)(parts[p] >> 24);
        k->fixed[4 * p + 1] = (uint8_t)(parts[p] >> 16);
        k->fixed[4 * p + 2] = (uint8_t)(parts[p] >> 8);
        k->fixed[4 * p + 3] = (uint8_t)parts[p];
    }
    k->fixed[12] = cell->position != PERFBUF_ITEM_NO_INSTANCE ? 1u : 0u;
    k->name = (const uint8_t *)cell->name;
    k->name_len = cell->name_len;
    k->who = who;
}

/* The key's symbol at depth d: 0 past its end, else its byte plus one. */
static unsigned csv_key_symbol(const csv_key *k, size_t d)
{
    if (d < CSV_KEY_FIXED) {
        return 1u + k->fixed[d];
    }
    d -= CSV_KEY_FIXED;
    return d < k->name_len ? 1u + csv_fold(k->name[d]) : 0u;
}

/* A run of keys (positions lo..hi of the order) that agree on their
 * first `depth` symbols, and how many more to compare at once. */
typedef struct csv_group {
    size_t lo, hi, depth, window;
} csv_group;

/* The first window, and the largest: a group whose keys keep agreeing
 * reads on in longer strides. */
#define CSV_WINDOW_FIRST 16u
#define CSV_WINDOW_MOST 4096u

/* How many symbols from depth d, at most `most`, a and b share before
 * they differ or either ends. */
static size_t csv_key_agree(const csv_key *a, const csv_key *b, size_t d, size_t most)
{
    size_t t = 0;
    while (t < most && d + t < CSV_KEY_FIXED) {
        DUMP_WORK(1);
        if (a->fixed[d + t] != b->fixed[d + t]) {
            return t;
        }
        t++;
    }
    if (t == most) {
        return t; /* the stride ended inside the fixed symbols */
    }
    size_t at = d + t - CSV_KEY_FIXED;
    size_t end = a->name_len < b->name_len ? a->name_len : b->name_len;
    size_t limit = at + (most - t);
    end = end < limit ? end : limit;
    size_t from = at;
    while (at < end) {
        /* Eight bytes that are equal are equal folded: names that share a
         * long prefix are compared a word at a time. */
        if (end - at >= 8u) {
            uint64_t x, y;
            memcpy(&x, a->name + at, sizeof x);
            memcpy(&y, b->name + at, sizeof y);
            if (x == y) {
                at += 8u;
                continue;
            }
        }
        if (csv_fold(a->name[at]) != csv_fold(b->name[at])) {
            break;
        }
        at++;
    }
    DUMP_WORK(at - from + 1u);
    return t + (at - from);
}

/* Groups up to this size are split by insertion sort, larger ones by
 * counting their 257 symbols. */
#define CSV_SMALL_GROUP 16u

/*
 * A class of equal keys, in their order (the earlier capture's cells in
 * capture order, then the columns): its first key, when it is a cell, is
 * what every column of the class finds.
 */
static void csv_class(const csv_key *keys, const size_t *order, size_t lo, size_t hi,
                      size_t cells, size_t *found)
{
    size_t first = keys[order[lo]].who;
    for (size_t i = lo; first < cells && i < hi; i++) {
        DUMP_WORK(1);
        size_t who = keys[order[i]].who;
        if (who >= cells) {
            found[who - cells] = first;
        }
    }
}

/*
 * Finds each column's cell: found[k] the first cell (in capture order) of
 * the same key, else SIZE_MAX. The keys are split into classes of equal
 * keys by their symbols (partition refinement): a group of keys that agree
 * so far is compared with its first key a window further, in a stride
 * that doubles while they all agree, and split, the order within each part
 * kept, at the first symbol where they differ. Each key's bytes are read
 * up to where it differs from the others (or ends), and at most one
 * window past it each time its group splits, plus 257 per split of a large
 * group: linear, whatever names share long prefixes (children of one long
 * parent: a comparison sort costs n log n such prefixes, and reading one
 * symbol of every key per step misses the cache at each). No hash, so no
 * key chosen for it makes the work grow.
 */
static void csv_match(const csv_key *keys, size_t count, size_t cells, size_t *found)
{
    size_t *order = dump_calloc(count, sizeof *order);
    size_t *spare = dump_calloc(count, sizeof *spare);
    unsigned *symbol = dump_calloc(count, sizeof *symbol);
    /* Open groups are disjoint and hold two keys or more. */
    csv_group *stack = dump_calloc(count / 2u + 1u, sizeof *stack);
    size_t open = 0;
    for (size_t i = 0; i < count; i++) {
        DUMP_WORK(1);
        order[i] = i;
    }
    if (count >= 2) {
        stack[open++] = (csv_group){0, count, 0, CSV_WINDOW_FIRST};
    } else if (count == 1) {
        csv_class(keys, order, 0, 1, cells, found);
    }
    while (open > 0) {
        DUMP_WORK(1);
        csv_group g = stack[--open];
        const csv_key *first = &keys[order[g.lo]];
        size_t agree = g.window;
        for (size_t i = g.lo; i < g.hi; i++) {
            DUMP_WORK(1);
            size_t a = csv_key_agree(first, &keys[order[i]], g.depth, agree);
            agree = a < agree ? a : agree;
        }
        if (agree == g.window) {
            /* All agree over the window: read on, in a longer stride. */
            size_t window = g.window < CSV_WINDOW_MOST ? 2u * g.window : g.window;
            stack[open++] = (csv_group){g.lo, g.hi, g.depth + agree, window};
            continue;
        }
        size_t depth = g.depth + agree;
        for (size_t i = g.lo; i < g.hi; i++) {
            DUMP_WORK(1);
            symbol[i] = csv_key_symbol(&keys[order[i]], depth);
        }
        if (g.hi - g.lo <= CSV_SMALL_GROUP) {
            for (size_t i = g.lo + 1u; i < g.hi; i++) {
                size_t key = order[i];
                unsigned s = symbol[i];
                size_t j = i;
                while (j > g.lo && symbol[j - 1u] > s) {
                    DUMP_WORK(1);
                    order[j] = order[j - 1u];
                    symbol[j] = symbol[j - 1u];
                    j--;
                }
                order[j] = key;
                symbol[j] = s;
            }
        } else {
            size_t start[258];
            memset(start, 0, sizeof start);
            for (size_t i = g.lo; i < g.hi; i++) {
                DUMP_WORK(1);
                start[symbol[i] + 1u]++;
            }
            for (size_t s = 0; s < 257; s++) {
                DUMP_WORK(1);
                start[s + 1u] += start[s];
            }
            for (size_t i = g.lo; i < g.hi; i++) {
                DUMP_WORK(1);
                spare[g.lo + start[symbol[i]]++] = order[i];
            }
            for (size_t i = g.lo; i < g.hi; i++) {
                DUMP_WORK(1);
                order[i] = spare[i];
                symbol[i] = csv_key_symbol(&keys[order[i]], depth);
            }
        }
        /* The parts: keys that end here are equal (a class); a part of
         * one key is a class of its own; the others read on. */
        for (size_t lo = g.lo; lo < g.hi;) {
            size_t hi = lo + 1u;
            while (hi < g.hi && symbol[hi] == symbol[lo]) {
                DUMP_WORK(1);
                hi++;
            }
            if (symbol[lo] == 0 || hi - lo == 1u) {
                csv_class(keys, order, lo, hi, cells, found);
            } else {
                stack[open++] = (csv_group){lo, hi, depth + 1u, CSV_WINDOW_FIRST};
            }
            lo = hi;
        }
    }
    free(order);
    free(spare);
    free(symbol);
    free(stack);
}

/* An earlier capture's record: each column's cell of the same key there. */
static void csv_record_of(csv_out *w, const csv_capture *earlier, const csv_capture *newest,
                          const size_t *columns, size_t n)
{
    /* The earlier capture's cells in capture order, then the columns; a
     * cell whose object the capture does not list has no key (every cell
     * has one: its object is of the same block). */
    csv_key *keys = dump_calloc(earlier->count + n, sizeof *keys);
    size_t count = 0;
    for (size_t i = 0; i < earlier->count; i++) {
        DUMP_WORK(1);
        if (earlier->cells[i].object < earlier->object_count) {
            csv_key_make(&keys[count++], earlier, &earlier->cells[i], i);
        }
    }
    size_t cells = earlier->count;
    size_t *found = dump_calloc(n, sizeof *found);
    for (size_t k = 0; k < n; k++) {
        DUMP_WORK(1);
        found[k] = SIZE_MAX;
        const csv_cell *col = &newest->cells[columns[k]];
        if (col->object < newest->object_count) {
            csv_key_make(&keys[count++], newest, col, cells + k);
        }
    }
    csv_match(keys, count, cells, found);
    for (size_t k = 0; k < n; k++) {
        DUMP_WORK(1);
        csv_value(w, found[k] < cells ? &earlier->cells[found[k]] : NULL);
    }
    free(found);
    free(keys);
}

/* The header and the records: `earlier` captures before FILE's, n columns. */
static void csv_write(FILE *out, const dump_input *in, const v1_tables *tables,
                      const perfbuf_v1_block *b, const csv_capture *captures, size_t earlier,
                      const size_t *columns, size_t n)
{
    const csv_capture *newest = &captures[earlier];
    csv_titles titles = csv_titles_build(tables, newest, columns, n);
    dump_text machine;
    dump_text_init(&machine);
    size_t len;
    perfbuf_status mst = perfbuf_v1_system_name_utf8(b, machine.buf, machine.cap, &len);
    if (mst == PERFBUF_E_OUTPUT_TOO_SMALL) {
        dump_text_fit(&machine, len);
        mst = perfbuf_v1_system_name_utf8(b, machine.buf, machine.cap, &len);
    }
    if (mst != PERFBUF_OK) {
        machine.buf[0] = '\0';
    }
    csv_out w;
    csv_init(&w, out);
    /* The capture's SystemTime is UTC (docs/v1.md): the header says so. */
    csv_field(&w, "(PDH-CSV 4.0) (Coordinated Universal Time)(0)");
    for (size_t k = 0; k < n; k++) {
        DUMP_WORK(1);
        const csv_cell *cell = &newest->cells[columns[k]];
        csv_field_begin(&w);
        csv_field_add(&w, "\\\\", 2);
        csv_field_add(&w, machine.buf, strlen(machine.buf));
        csv_field_add(&w, "\\", 1);
        csv_title(&w, &titles,
                  cell->object < newest->object_count ? newest->object_title[cell->object] : 0);
        if (cell->position != PERFBUF_ITEM_NO_INSTANCE) {
            csv_field_add(&w, "(", 1);
            csv_field_add(&w, cell->name, cell->name_len);
            csv_field_add(&w, ")", 1);
        }
        csv_field_add(&w, "\\", 1);
        csv_title(&w, &titles, cell->counter);
        csv_field_end(&w);
    }
    csv_row_end(&w);
    /* --rate: PREVIOUS only paired FILE's instances; its own record
     * is not written. --series: a record per capture, oldest first. */
    for (size_t k = in->previous != NULL ? 1u : 0u; k < earlier; k++) {
        DUMP_WORK(1);
        csv_stamp_text stamp = csv_stamp(&captures[k].time);
        csv_field(&w, stamp.text);
        csv_record_of(&w, &captures[k], newest, columns, n);
        csv_row_end(&w);
    }
    csv_stamp_text stamp = csv_stamp(&b->system_time);
    csv_field(&w, stamp.text);
    for (size_t k = 0; k < n; k++) {
        DUMP_WORK(1);
        csv_value(&w, &newest->cells[columns[k]]);
    }
    csv_row_end(&w);
    csv_flush(&w);
    csv_titles_free(&titles);
    dump_text_free(&machine);
}

perfbuf_status dump_v1_csv(const dump_input *in, FILE *out, perfbuf_error *err)
{
    perfbuf_v1_block b;
    perfbuf_status st = perfbuf_v1_parse(in->data, in->size, &in->options, &b, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    v1_tables tables;
    tables_load(in, &tables);
    perfbuf_query q;
    perfbuf_query_counter *counters = dump_calloc(in->path_count, sizeof *counters);
    bool *added = dump_calloc(in->path_count, sizeof *added);
    /* Each path pairs FILE's instances with the earlier captures' as
     * --pair-by says; FILE alone pairs nothing. */
    bool pairs = in->previous != NULL || in->series_count > 0;
    bool open = query_open_on(in, &tables, &q, counters, added, pairs ? &b : NULL);
    /* Oldest first: --rate PREVIOUS, or the --series captures; then FILE. */
    size_t earlier = in->previous != NULL ? 1u : in->series_count;
    size_t total = earlier + 1u;
    csv_capture *captures = dump_calloc(total, sizeof *captures);
    bool earlier_failed = false;
    uint8_t *arena = NULL;
    perfbuf_formatted_item *items = NULL;
    size_t items_cap = 0;
    for (size_t k = 0; k < total; k++) {
        DUMP_WORK(1);
        const uint8_t *data = k == earlier ? in->data
                              : in->previous != NULL ? in->previous
                                                     : in->series[k];
        size_t size = k == earlier ? in->size
                      : in->previous != NULL ? in->previous_size
                                             : in->series_sizes[k];
        csv_capture *c = &captures[k];
        c->path_end = dump_calloc(in->path_count, sizeof *c->path_end);
        c->names = dump_calloc(in->path_count, sizeof *c->names);
        /* --rate PREVIOUS has no record of its own: only FILE's items are kept. */
        bool keep = in->previous == NULL || k == earlier;
        perfbuf_v1_block cb;
        /* main rejected an earlier capture that does not parse. */
        if (keep && perfbuf_v1_parse(data, size, &in->options, &cb, NULL) == PERFBUF_OK) {
            c->time = cb.system_time;
            csv_objects(c, &cb);
        }
        perfbuf_error cerr;
        memset(&cerr, 0, sizeof cerr);
        perfbuf_status cst = open ? dump_query_collect(&q, &arena, data, size, &cerr) : PERFBUF_OK;
        if (cst != PERFBUF_OK && k == earlier) {
            *err = cerr;
            st = cst;
            break;
        }
        if (cst != PERFBUF_OK) {
            /* main refused an earlier capture that does not parse with the
             * options; one the query cannot collect otherwise (its arena
             * cannot grow) fails the run the same way. */
            dump_side_rejected(in->previous != NULL ? "--rate capture" : "--series capture",
                               in->previous != NULL ? in->previous_path : in->series_paths[k],
                               &cerr);
            earlier_failed = true;
            break;
        }
        for (size_t p = 0; open && p < in->path_count; p++) {
            DUMP_WORK(1);
            if (added[p] && keep) {
                csv_keep(c, p, &q, &counters[p], &items, &items_cap);
            }
            c->path_end[p] = c->count;
        }
    }
    if (earlier_failed && in->unmatched != NULL) {
        *in->unmatched = true;
    }
    if (st == PERFBUF_OK && !earlier_failed) {
        csv_capture *newest = &captures[earlier];
        size_t *columns;
        size_t n = csv_columns(newest, in->path_count, &b, &columns);
        /* What each path found, with the block's parents to tell a parent
         * that names nothing from a name that does not. */
        uint32_t *found = dump_calloc(in->path_count, sizeof *found);
        for (size_t p = 0; p < in->path_count; p++) {
            DUMP_WORK(1);
            found[p] = open && added[p] ? counters[p].found : PERFBUF_QUERY_FOUND_NO_OBJECT;
        }
        uint64_t *parent_slots = dump_calloc(b.index_slots, sizeof *parent_slots);
        perfbuf_v1_instance_index parents;
        v1_candidates_context candidates = {&b, NULL, &tables.tables};
        if (perfbuf_v1_block_index_build(&b, parent_slots, b.index_slots, &parents) ==
            PERFBUF_OK) {
            candidates.parents = &parents;
        }
        if (n == 0) {
            /* A CSV without a column holds no value: nothing is written,
             * and the run fails, as typeperf refuses a query without a
             * valid counter. */
            (void)select_report_paths(in->paths, found, in->path_count, in->path, SELECT_V1,
                                      v1_candidates, &candidates, NULL);
            fprintf(stderr, "perfbuf-dump: %s: the --counter paths select no column: no CSV "
                            "is written\n",
                    in->path);
            if (in->unmatched != NULL) {
                *in->unmatched = true;
            }
        } else {
            csv_write(out, in, &tables, &b, captures, earlier, columns, n);
            if (select_report_paths(in->paths, found, in->path_count, in->path, SELECT_V1,
                                    v1_candidates, &candidates, NULL) &&
                in->unmatched != NULL) {
                *in->unmatched = true;
            }
        }
        free(parent_slots);
        free(found);
        free(columns);
    }
    for (size_t k = 0; k < total; k++) {
        csv_capture_free(&captures[k], in->path_count);
    }
    free(captures);
    free(items);
    free(arena);
    free(added);
    free(counters);
    tables_free(&tables);
    return st;
}
