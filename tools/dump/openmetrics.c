/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * --openmetrics (docs/prometheus.md, docs/cli.md). Every capture is
 * collected by the library's query, with a counter of every definition
 * (V1) or of every registered counter (V2): its raw items give each
 * instance's PDH name and samples. Every exported counter of every
 * instance becomes a point: the counter (its metric, named once, first
 * seen first), the series (its labels) and the capture. The points are
 * then written family by family, series by series, capture by capture,
 * as OpenMetrics requires: a family's lines together, a series' samples
 * in time order. Numbers, names, escapes, timestamps: perfbuf/openmetrics.h,
 * so that python/perfbuf/_openmetrics.py writes the same bytes.
 */
#include "openmetrics.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "perfbuf/collector.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/names.h"
#include "perfbuf/openmetrics.h"
#include "perfbuf/query.h"
#include "perfbuf/v1.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/v2_query.h"
#include "select.h"

void om_options_init(om_options *o)
{
    memset(o, 0, sizeof *o);
    o->prefix = "windows";
}

bool om_take_option(om_options *o, int argc, char **argv, int *i, bool *usage)
{
    const char *a = argv[*i];
    const char *next = *i + 1 < argc ? argv[*i + 1] : NULL;
    *usage = false;
    if (strcmp(a, "--openmetrics") == 0) {
        o->enabled = true;
    } else if (strcmp(a, "--no-timestamps") == 0) {
        o->no_timestamps = true;
    } else if (strcmp(a, "--metric-prefix") == 0 || strcmp(a, "--help-names") == 0) {
        if (next == NULL) {
            *usage = true;
            return true;
        }
        if (a[2] == 'm') {
            o->prefix = next;
        } else {
            o->help_names_path = next;
        }
        (*i)++;
    } else {
        return false;
    }
    return true;
}

void om_usage(FILE *out)
{
    fprintf(out,
            "      --openmetrics   OpenMetrics text of FILE, or of --series EARLIER... -- FILE\n"
            "                      or --rate PREVIOUS FILE: every counter a time series\n"
            "                      (docs/prometheus.md); V1 with --names, V2 with --registration\n"
            "      --help-names FILE  the Help table: --openmetrics help text\n"
            "      --metric-prefix NAME  --openmetrics metric names' prefix (default windows)\n"
            "      --no-timestamps --openmetrics of one capture without timestamps\n");
}

/* ---- text that grows ---- */

typedef struct om_text {
    char *buf;
    size_t len;
    size_t cap;
} om_text;

static void text_reserve(om_text *t, size_t more)
{
    if (more > SIZE_MAX - t->len - 1) {
        fprintf(stderr, "perfbuf-dump: out of memory\n");
        exit(2);
    }
    if (t->len + more + 1 <= t->cap) {
        return;
    }
    size_t cap = t->cap ? t->cap : 64;
    while (cap < t->len + more + 1) {
        DUMP_WORK(1);
        cap = cap > SIZE_MAX / 2 ? t->len + more + 1 : cap * 2;
    }
    char *grown = realloc(t->buf, cap);
    if (grown == NULL) {
        fprintf(stderr, "perfbuf-dump: out of memory\n");
        exit(2);
    }
    t->buf = grown;
    t->cap = cap;
}

static void text_put(om_text *t, const char *s, size_t n)
{
    text_reserve(t, n);
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = '\0';
}

static void text_cstr(om_text *t, const char *s)
{
    text_put(t, s, strlen(s));
}

static void text_clear(om_text *t)
{
    t->len = 0;
    if (t->buf != NULL) {
        t->buf[0] = '\0';
    }
}

/* A library call that writes text into (out, cap) and its size into *len. */
typedef perfbuf_status (*text_call)(const void *ctx, char *out, size_t cap, size_t *len);

/* Appends what the call writes, sized by a first call; false when it
 * fails otherwise (the text unchanged). */
static bool text_from(om_text *t, text_call call, const void *ctx)
{
    /* Room for the NUL alone: every text call takes it as a request for
     * the size (some refuse a NULL output). */
    char probe[1];
    size_t need = 0;
    perfbuf_status st = call(ctx, probe, sizeof probe, &need);
    if (st == PERFBUF_OK && need == 0) {
        return true;
    }
    if (st != PERFBUF_E_OUTPUT_TOO_SMALL) {
        return false;
    }
    text_reserve(t, need);
    size_t got = 0;
    /* perfbuf/text.h's sizes are enough, not always exact: got <= need. */
    if (call(ctx, t->buf + t->len, need + 1, &got) != PERFBUF_OK || got > need) {
        t->buf[t->len] = '\0';
        return false;
    }
    t->len += got;
    return true;
}

typedef struct span {
    const char *s;
    size_t n;
} span;

static perfbuf_status escape_call(const void *ctx, char *out, size_t cap, size_t *len)
{
    const span *sp = ctx;
    return perfbuf_openmetrics_escape(sp->s, sp->n, out, cap, len);
}

static void text_escaped(om_text *t, const char *s, size_t n)
{
    span sp = {s, n};
    if (!text_from(t, escape_call, &sp)) {
        fprintf(stderr, "perfbuf-dump: escaping a text failed\n");
        exit(2);
    }
}

static char *text_steal(om_text *t)
{
    char *s = t->buf != NULL ? t->buf : calloc(1, 1);
    if (s == NULL) {
        fprintf(stderr, "perfbuf-dump: out of memory\n");
        exit(2);
    }
    t->buf = NULL;
    t->len = t->cap = 0;
    return s;
}

/* ---- a map from byte strings to numbers ---- */

typedef struct om_slot {
    char *key;
    size_t len;
    size_t value;
} om_slot;

typedef struct om_map {
    om_slot *slots;
    size_t cap;
    size_t count;
} om_map;

/* FNV-1a on a 32-bit lane: each product fits 64 bits, so no arithmetic
 * wraps (the tools build under clang's -fsanitize=integer too). */
static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        DUMP_WORK(1);
        h = ((h ^ (uint8_t)s[i]) * 16777619u) & 0xFFFFFFFFu;
    }
    return h;
}

static om_slot *map_slot(om_map *m, const char *key, size_t len)
{
    size_t at = (size_t)(hash_bytes(key, len) & (m->cap - 1));
    while (m->slots[at].key != NULL &&
           (m->slots[at].len != len || memcmp(m->slots[at].key, key, len) != 0)) {
        DUMP_WORK(1);
        at = (at + 1) & (m->cap - 1);
    }
    return &m->slots[at];
}

/* The value of key, or `value` stored as its value when it has none:
 * true when it was added. */
static bool map_add(om_map *m, const char *key, size_t len, size_t value, size_t *out)
{
    if (2 * (m->count + 1) > m->cap) {
        om_map grown = {dump_calloc(m->cap ? 2 * m->cap : 64, sizeof(om_slot)),
                        m->cap ? 2 * m->cap : 64, m->count};
        for (size_t i = 0; i < m->cap; i++) {
            DUMP_WORK(1);
            if (m->slots[i].key != NULL) {
                *map_slot(&grown, m->slots[i].key, m->slots[i].len) = m->slots[i];
            }
        }
        free(m->slots);
        *m = grown;
    }
    om_slot *s = map_slot(m, key, len);
    if (s->key != NULL) {
        *out = s->value;
        return false;
    }
    s->key = dump_calloc(len + 1, 1);
    memcpy(s->key, key, len);
    s->len = len;
    s->value = value;
    m->count++;
    *out = value;
    return true;
}

static bool map_has(om_map *m, const char *key, size_t len)
{
    return m->cap != 0 && map_slot(m, key, len)->key != NULL;
}

static void map_set(om_map *m, const char *key, size_t len, size_t value)
{
    size_t old;
    if (!map_add(m, key, len, value, &old)) {
        map_slot(m, key, len)->value = value;
    }
}

static void map_free(om_map *m)
{
    for (size_t i = 0; i < m->cap; i++) {
        free(m->slots[i].key);
    }
    free(m->slots);
}

/* ---- the model: counters, series, points ---- */

/* A counter: one metric, with its families. Its key says which
 * definition it is in every capture. */
typedef struct om_counter {
    uint32_t object_title;  /* V1 ObjectNameTitleIndex; V2 0 */
    uint32_t counter_title; /* V1 CounterNameTitleIndex; V2 counter id */
    uint32_t occurrence;    /* V1: the k-th definition of that title in its object */
    uint32_t type;
    int32_t scale;
    perfbuf_openmetrics_mapping map;
    char *name;             /* the metric name, unique */
    char *help;             /* the help text's tail, unescaped */
} om_counter;

typedef struct om_point {
    uint32_t counter;
    uint32_t series;
    uint32_t capture;
    size_t item;            /* in its capture's items */
    size_t order;           /* when it was made: the first of two equal points stays */
} om_point;

typedef struct om_capture {
    perfbuf_raw_item *items;
    size_t count;
    int64_t unix_ms;
    char time[PERFBUF_OPENMETRICS_NUMBER_MAX];
} om_capture;

typedef struct om_state {
    const om_options *options;
    om_counter *counters;
    size_t counter_count, counter_cap;
    char **series;          /* each series' labels, "{...}" or "" */
    size_t series_count, series_cap;
    om_point *points;
    size_t point_count, point_cap;
    om_capture *captures;
    size_t capture_count;
    om_map counter_ids;     /* counter key -> counter */
    om_map series_ids;      /* counter, labels -> series */
    om_map taken;           /* every metric and sample name given */
    om_map next_suffix;     /* a name -> the next _N to try after it */
} om_state;

static void *grow(void *p, size_t *cap, size_t count, size_t size)
{
    if (count < *cap) {
        return p;
    }
    size_t n = *cap ? 2 * *cap : 16;
    if (n > SIZE_MAX / size) {
        fprintf(stderr, "perfbuf-dump: out of memory\n");
        exit(2);
    }
    void *q = realloc(p, n * size);
    if (q == NULL) {
        fprintf(stderr, "perfbuf-dump: out of memory\n");
        exit(2);
    }
    *cap = n;
    return q;
}

/* The names a counter's families take: each family's, each sample's and,
 * for counters and summaries, the "_created" OpenMetrics reserves. */
static size_t counter_names(const perfbuf_openmetrics_mapping *m, const char *base, om_text *names,
                            size_t *ends)
{
    size_t n = 0;
    text_clear(names);
    for (uint32_t k = 0; k < m->family_count; k++) {
        const perfbuf_openmetrics_family *f = &m->families[k];
        size_t family_start = names->len;
        text_cstr(names, base);
        text_cstr(names, f->suffix);
        size_t family_len = names->len - family_start;
        ends[n++] = names->len;
        const char *more[3] = {f->samples[0].suffix,
                               f->sample_count > 1 ? f->samples[1].suffix : "",
                               f->kind == PERFBUF_OPENMETRICS_GAUGE ? "" : "_created"};
        for (int s = 0; s < 3; s++) {
            if (more[s][0] == '\0') {
                continue;
            }
            text_reserve(names, family_len);
            memmove(names->buf + names->len, names->buf + family_start, family_len);
            names->len += family_len;
            text_cstr(names, more[s]);
            ends[n++] = names->len;
        }
    }
    return n;
}

static bool names_taken(om_state *s, const om_text *names, const size_t *ends, size_t n)
{
    size_t from = 0;
    for (size_t k = 0; k < n; k++) {
        if (map_has(&s->taken, names->buf + from, ends[k] - from)) {
            return true;
        }
        from = ends[k];
    }
    return false;
}

/* The counter's unique name: its derived name, or that name and "_2",
 * "_3" ... when one of its families' names is taken (docs/prometheus.md,
 * "Metric names"). */
static char *unique_name(om_state *s, const perfbuf_openmetrics_mapping *m, const char *base)
{
    om_text names = {NULL, 0, 0};
    om_text candidate = {NULL, 0, 0};
    size_t ends[3 * PERFBUF_OPENMETRICS_MAX_FAMILIES * 4];
    size_t next = 2;
    text_cstr(&candidate, base);
    size_t n = counter_names(m, candidate.buf, &names, ends);
    if (names_taken(s, &names, ends, n)) {
        size_t stored;
        (void)map_add(&s->next_suffix, base, strlen(base), 2, &stored);
        next = stored;
        for (;;) {
            DUMP_WORK(1);
            char number[24];
            snprintf(number, sizeof number, "_%zu", next++);
            text_clear(&candidate);
            text_cstr(&candidate, base);
            text_cstr(&candidate, number);
            n = counter_names(m, candidate.buf, &names, ends);
            if (!names_taken(s, &names, ends, n)) {
                break;
            }
        }
        map_set(&s->next_suffix, base, strlen(base), next);
    }
    size_t from = 0;
    for (size_t k = 0; k < n; k++) {
        size_t unused;
        (void)map_add(&s->taken, names.buf + from, ends[k] - from, 0, &unused);
        from = ends[k];
    }
    free(names.buf);
    return text_steal(&candidate);
}

typedef struct name_args {
    const char *prefix;
    const char *object;
    uint32_t object_index;
    const char *counter;
    uint32_t counter_index;
} name_args;

static perfbuf_status name_call(const void *ctx, char *out, size_t cap, size_t *len)
{
    const name_args *a = ctx;
    return perfbuf_openmetrics_name(a->prefix, strlen(a->prefix), a->object,
                                    a->object ? strlen(a->object) : 0, a->object_index,
                                    a->counter, a->counter ? strlen(a->counter) : 0,
                                    a->counter_index, out, cap, len);
}

/* What a new counter needs besides its key: its objects's and its own
 * name (NULL when the tables have none) and its help text (NULL: none). */
typedef struct counter_texts {
    const char *object;     /* the object's name, or NULL */
    const char *object_ref; /* how help text names an object without one */
    const char *counter;
    const char *help;
} counter_texts;

/* A counter's key in the map: what says which definition it is. */
static void counter_key(const om_counter *key, uint32_t fields[5])
{
    fields[0] = key->object_title;
    fields[1] = key->counter_title;
    fields[2] = key->occurrence;
    fields[3] = key->type;
    fields[4] = (uint32_t)key->scale;
}

/* The counter of that key, or UINT32_MAX when there is none yet. */
static uint32_t counter_find(om_state *s, const om_counter *key)
{
    uint32_t fields[5];
    counter_key(key, fields);
    if (s->counter_ids.cap == 0) {
        return UINT32_MAX;
    }
    om_slot *slot = map_slot(&s->counter_ids, (const char *)fields, sizeof fields);
    return slot->key != NULL ? (uint32_t)slot->value : UINT32_MAX;
}

/* A new counter of that key, named now (counter_find found none). */
static uint32_t counter_add(om_state *s, const om_counter *key, const counter_texts *texts)
{
    uint32_t fields[5];
    counter_key(key, fields);
    size_t id;
    (void)map_add(&s->counter_ids, (const char *)fields, sizeof fields, s->counter_count, &id);
    s->counters = grow(s->counters, &s->counter_cap, s->counter_count, sizeof *s->counters);
    om_counter *c = &s->counters[s->counter_count++];
    *c = *key;
    om_text base = {NULL, 0, 0};
    name_args args = {s->options->prefix, texts->object, key->object_title, texts->counter,
                      key->counter_title};
    if (!text_from(&base, name_call, &args)) {
        fprintf(stderr, "perfbuf-dump: --metric-prefix %s is not a metric name\n",
                s->options->prefix);
        exit(2);
    }
    c->name = unique_name(s, &c->map, base.buf);
    free(base.buf);
    /* "\Object\Counter (TYPE)" and ": " the Help table's text. */
    om_text help = {NULL, 0, 0};
    char number[16];
    text_cstr(&help, "\\");
    if (texts->object != NULL) {
        text_cstr(&help, texts->object);
    } else {
        text_cstr(&help, texts->object_ref);
    }
    text_cstr(&help, "\\");
    if (texts->counter != NULL) {
        text_cstr(&help, texts->counter);
    } else {
        snprintf(number, sizeof number, "%" PRIu32, key->counter_title);
        text_cstr(&help, number);
    }
    text_cstr(&help, " (");
    text_cstr(&help, perfbuf_counter_type_name(key->type));
    text_cstr(&help, ")");
    if (texts->help != NULL) {
        text_cstr(&help, ": ");
        text_cstr(&help, texts->help);
    }
    /* OpenMetrics escapes a double quote in help text, the Prometheus text
     * format a textfile collector reads refuses that escape: a single quote
     * in its place reads alike in both (docs/prometheus.md, "Help"). */
    for (size_t i = 0; i < help.len; i++) {
        DUMP_WORK(1);
        if (help.buf[i] == '"') {
            help.buf[i] = '\'';
        }
    }
    c->help = text_steal(&help);
    return (uint32_t)id;
}

static uint32_t series_of(om_state *s, uint32_t counter, const om_text *labels)
{
    om_text key = {NULL, 0, 0};
    text_put(&key, (const char *)&counter, sizeof counter);
    text_put(&key, labels->buf != NULL ? labels->buf : "", labels->len);
    size_t id;
    if (map_add(&s->series_ids, key.buf, key.len, s->series_count, &id)) {
        s->series = grow(s->series, &s->series_cap, s->series_count, sizeof *s->series);
        char *copy = dump_calloc(labels->len + 1, 1);
        if (labels->len > 0) {
            memcpy(copy, labels->buf, labels->len);
        }
        s->series[s->series_count++] = copy;
    }
    free(key.buf);
    return (uint32_t)id;
}

/* The number one sample writes for a raw item, into out; false when it
 * has none (perfbuf_openmetrics_value's NOT_FOUND). */
static bool sample_text(const perfbuf_openmetrics_sample *sample, const perfbuf_raw_item *item,
                        int64_t unix_ms, char out[PERFBUF_OPENMETRICS_NUMBER_MAX])
{
    size_t len = 0;
    return perfbuf_openmetrics_value(sample, &item->newer, &item->context, unix_ms, out,
                                     PERFBUF_OPENMETRICS_NUMBER_MAX, &len) == PERFBUF_OK;
}

/* Whether every sample of the mapping has a number for the item: a point
 * is written whole or not at all. */
static bool item_exported(const perfbuf_openmetrics_mapping *m, const perfbuf_raw_item *item,
                          int64_t unix_ms)
{
    char out[PERFBUF_OPENMETRICS_NUMBER_MAX];
    for (uint32_t k = 0; k < m->family_count; k++) {
        for (uint32_t s = 0; s < m->families[k].sample_count; s++) {
            if (!sample_text(&m->families[k].samples[s], item, unix_ms, out)) {
                return false;
            }
        }
    }
    return true;
}

static void add_point(om_state *s, uint32_t counter, uint32_t series, uint32_t capture,
                      size_t item)
{
    s->points = grow(s->points, &s->point_cap, s->point_count, sizeof *s->points);
    om_point p = {counter, series, capture, item, s->point_count};
    s->points[s->point_count++] = p;
}

static void label(om_text *labels, const char *name, const char *value, size_t len)
{
    text_cstr(labels, labels->len == 0 ? "{" : ",");
    text_cstr(labels, name);
    text_cstr(labels, "=\"");
    text_escaped(labels, value, len);
    text_cstr(labels, "\"");
}

static void labels_end(om_text *labels)
{
    if (labels->len > 0) {
        text_cstr(labels, "}");
    }
}

/* ---- Counter and Help tables ---- */

typedef struct om_titles {
    bool ok;
    perfbuf_name_table table;
    perfbuf_name_index index;
    perfbuf_name_slot *slots;
} om_titles;

static void titles_load(om_titles *t, const uint8_t *data, size_t size, const char *what,
                        const char *file)
{
    memset(t, 0, sizeof *t);
    if (data == NULL) {
        return;
    }
    perfbuf_error err;
    if (perfbuf_names_parse(data, size, NULL, &t->table, &err) != PERFBUF_OK) {
        dump_side_rejected(what, file, &err);
        return;
    }
    t->slots = dump_calloc(t->table.count, sizeof *t->slots);
    t->ok = perfbuf_names_index_build(&t->table, t->slots, t->table.count, &t->index) ==
            PERFBUF_OK;
}

typedef struct title_args {
    const om_titles *t;
    perfbuf_name_entry entry;
} title_args;

static perfbuf_status title_call(const void *ctx, char *out, size_t cap, size_t *len)
{
    const title_args *a = ctx;
    return perfbuf_names_text_utf8(&a->t->table, &a->entry, out, cap, len);
}

/* The title's text, a new string, or NULL when the table has none. */
static char *title_text(const om_titles *t, uint32_t index)
{
    title_args a;
    a.t = t;
    if (!t->ok || index == 0 ||
        perfbuf_names_index_find(&t->table, &t->index, index, &a.entry) != PERFBUF_OK) {
        return NULL;
    }
    om_text text = {NULL, 0, 0};
    if (!text_from(&text, title_call, &a)) {
        free(text.buf);
        return NULL;
    }
    return text_steal(&text);
}

/* ---- collecting ---- */

/* The query needs no title for its every-definition counter. */
static const uint8_t no_titles[2] = {0, 0};

static perfbuf_status collect(perfbuf_query *q, uint8_t **arena, const uint8_t *data,
                              size_t size)
{
    for (int round = 0; round < 4; round++) {
        DUMP_WORK(1);
        size_t needed = 0;
        perfbuf_status st = perfbuf_query_collect(q, data, size, &needed, NULL);
        if (st != PERFBUF_E_OUTPUT_TOO_SMALL) {
            return st;
        }
        uint8_t *grown = realloc(*arena, needed);
        if (grown == NULL) {
            fprintf(stderr, "perfbuf-dump: out of memory\n");
            exit(2);
        }
        *arena = grown;
        size_t bytes = needed;
        st = perfbuf_query_arena(q, grown, &bytes, NULL);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    return PERFBUF_E_OUTPUT_TOO_SMALL;
}

/* A counter's raw array, a new allocation that holds the items' names
 * after them (the names live as long as the items); *count 0 when it has
 * none. */
static perfbuf_raw_item *raw_items(const perfbuf_query *q, const perfbuf_query_counter *c,
                                   size_t *count)
{
    size_t n = 0, bytes = 0;
    *count = 0;
    perfbuf_status st = perfbuf_query_raw_array(q, c, NULL, &n, NULL, &bytes, NULL);
    if (st != PERFBUF_OK && st != PERFBUF_E_OUTPUT_TOO_SMALL) {
        return NULL;
    }
    perfbuf_raw_item *items = dump_calloc(1, (n + 1) * sizeof *items + bytes + 1);
    size_t got = n;
    if (perfbuf_query_raw_array(q, c, items, &got, (char *)(items + n + 1), &bytes, NULL) !=
        PERFBUF_OK) {
        free(items);
        return NULL;
    }
    *count = got;
    return items;
}

/* What --counter paths selected in a capture: object << 32 | position,
 * then the counter's title, sorted. */
typedef struct selected {
    uint64_t where;
    uint32_t counter;
} selected;

static int selected_compare(const void *a, const void *b)
{
    const selected *x = a;
    const selected *y = b;
    if (x->where != y->where) {
        return x->where < y->where ? -1 : 1;
    }
    return x->counter < y->counter ? -1 : x->counter > y->counter;
}

static bool is_selected(const selected *set, size_t n, uint32_t object, uint32_t position,
                        uint32_t counter)
{
    selected key = {(uint64_t)object << 32 | position, counter};
    /* bsearch takes no NULL array, even of no element. */
    return n > 0 && bsearch(&key, set, n, sizeof *set, selected_compare) != NULL;
}

/* The time of a capture, or false (said on stderr) when it has none. */
static bool capture_time(int64_t filetime, const char *file, om_capture *c)
{
    size_t len = 0;
    if (perfbuf_openmetrics_time(filetime, &c->unix_ms, c->time, sizeof c->time, &len) !=
        PERFBUF_OK) {
        fprintf(stderr,
                "perfbuf-dump: %s: its PerfTime100nSec is not a time: its samples have no "
                "timestamp\n",
                file);
        return false;
    }
    return true;
}

typedef struct full_name_args {
    const perfbuf_v1_block *b;
    const perfbuf_v1_object *o;
    const perfbuf_v1_instance *inst;
    const perfbuf_v1_instance_index *index;
} full_name_args;

static perfbuf_status own_name_call(const void *ctx, char *out, size_t cap, size_t *len)
{
    const full_name_args *a = ctx;
    return perfbuf_v1_instance_name_utf8(a->b, a->inst, out, cap, len);
}

static perfbuf_status system_name_call(const void *ctx, char *out, size_t cap, size_t *len)
{
    return perfbuf_v1_system_name_utf8(ctx, out, cap, len);
}

/*
 * The labels of a V1 instance (docs/prometheus.md, "Labels"): machine,
 * the parent's name, the instance as PDH names it ("parent/name#N", the
 * item's name), or, for an instance whose provider sets a UniqueID, its
 * "parent/name" and the UniqueID, the key its samples pair by.
 */
static void v1_labels(om_text *labels, const char *machine, const perfbuf_v1_block *b,
                      const perfbuf_v1_object *o, const perfbuf_v1_instance *inst,
                      const perfbuf_v1_instance_index *index, const perfbuf_raw_item *item)
{
    text_clear(labels);
    if (machine[0] != '\0') {
        label(labels, "machine", machine, strlen(machine));
    }
    if (inst != NULL) {
        full_name_args a = {b, o, inst, index};
        om_text own = {NULL, 0, 0};
        bool named = text_from(&own, own_name_call, &a);
        /* "parent/name" into room for the parent's part the labels keep
         * (PERFBUF_ARRAY_PARENT_MAX_BYTES, as the query's item names cut it)
         * and the name: a longer parent is cut by the call, which then
         * costs that room and not the parent's length, however many
         * children share it. The parent's name is what comes before
         * "/name", or the whole cut text. */
        size_t cap = PERFBUF_ARRAY_PARENT_MAX_BYTES + own.len + 8u;
        char *full = dump_calloc(cap, 1);
        size_t len = 0;
        perfbuf_status st = named ? perfbuf_v1_full_name_utf8(b, o, inst, index, full, cap, &len)
                                  : PERFBUF_E_INVALID_ARGUMENT;
        size_t written = 0;
        while (written < cap && full[written] != '\0') {
            DUMP_WORK(1);
            written++;
        }
        named = st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL;
        bool has_parent = st == PERFBUF_E_OUTPUT_TOO_SMALL ||
                          (st == PERFBUF_OK && written > own.len + 1 &&
                           full[written - own.len - 1] == '/' &&
                           memcmp(full + written - own.len, own.buf != NULL ? own.buf : "",
                                  own.len) == 0);
        size_t parent = 0;
        if (has_parent) {
            parent = st == PERFBUF_OK ? written - own.len - 1 : written;
            if (parent > PERFBUF_ARRAY_PARENT_MAX_BYTES) {
                parent = PERFBUF_ARRAY_PARENT_MAX_BYTES;
                while (parent > 0 && ((uint8_t)full[parent] & 0xC0u) == 0x80u) {
                    DUMP_WORK(1);
                    parent--;
                }
            }
            label(labels, "parent", full, parent);
        }
        if (inst->unique_id != -1 && named) {
            /* The cut parent, '/' and the name. */
            om_text key = {NULL, 0, 0};
            if (has_parent) {
                text_put(&key, full, parent);
                text_put(&key, "/", 1);
            }
            text_put(&key, own.buf != NULL ? own.buf : "", own.len);
            label(labels, "instance_name", key.buf != NULL ? key.buf : "", key.len);
            free(key.buf);
            char number[16];
            snprintf(number, sizeof number, "%" PRId32, inst->unique_id);
            label(labels, "unique_id", number, strlen(number));
        } else {
            label(labels, "instance_name", item->name, item->name_len);
        }
        free(full);
        free(own.buf);
    }
    labels_end(labels);
}

/* One V1 capture's points. */
static void v1_capture(om_state *s, const dump_input *in, uint32_t k, const uint8_t *data,
                       size_t size, const char *file, perfbuf_query *q, uint8_t **arena,
                       perfbuf_query_counter *every, perfbuf_query_counter *paths,
                       const bool *added, const om_titles *names, const om_titles *help,
                       bool last)
{
    perfbuf_v1_block b;
    if (perfbuf_v1_parse(data, size, &in->options, &b, NULL) != PERFBUF_OK ||
        collect(q, arena, data, size) != PERFBUF_OK) {
        /* main validated every capture with these options already. */
        fprintf(stderr, "perfbuf-dump: %s: the query could not collect it\n", file);
        exit(2);
    }
    om_capture *c = &s->captures[k];
    c->items = raw_items(q, every, &c->count);
    /* What the paths selected, each path's own items. */
    selected *set = NULL;
    size_t set_count = 0;
    size_t set_cap = 0;
    if (last && in->path_count > 0) {
        /* A path the query could not take names no object, as it names
         * none in the other outputs. */
        uint32_t *found = dump_calloc(in->path_count, sizeof *found);
        for (size_t p = 0; p < in->path_count; p++) {
            DUMP_WORK(1);
            found[p] = added[p] ? paths[p].found : PERFBUF_QUERY_FOUND_NO_OBJECT;
        }
        *in->unmatched = select_report_paths(in->paths, found, in->path_count, file, SELECT_V1,
                                             NULL, NULL, NULL) ||
                         *in->unmatched;
        free(found);
    }
    for (size_t p = 0; p < in->path_count; p++) {
        DUMP_WORK(1);
        if (!added[p]) {
            continue;
        }
        size_t n = 0;
        perfbuf_raw_item *items = raw_items(q, &paths[p], &n);
        for (size_t i = 0; i < n; i++) {
            DUMP_WORK(1);
            set = grow(set, &set_cap, set_count, sizeof *set);
            selected one = {(uint64_t)items[i].object << 32 | items[i].position, items[i].counter};
            set[set_count++] = one;
        }
        free(items);
    }
    if (set_count > 0) {
        qsort(set, set_count, sizeof *set, selected_compare);
    }
    /* The block's views: objects, their definitions and instances. */
    uint64_t *slots = dump_calloc(b.index_slots, sizeof *slots);
    perfbuf_v1_instance_index index;
    bool indexed = perfbuf_v1_block_index_build(&b, slots, b.index_slots, &index) == PERFBUF_OK;
    om_text machine = {NULL, 0, 0};
    (void)text_from(&machine, system_name_call, &b);
    perfbuf_v1_object *objects = dump_calloc(b.object_count, sizeof *objects);
    uint32_t object_count = 0;
    perfbuf_v1_iter it;
    perfbuf_v1_objects_begin(&b, &it);
    while (object_count < b.object_count && perfbuf_v1_objects_next(&b, &it, &objects[object_count])) {
        DUMP_WORK(1);
        object_count++;
    }
    om_text labels = {NULL, 0, 0};
    uint32_t current_object = UINT32_MAX;
    perfbuf_v1_counter *defs = NULL;
    uint32_t *occurrence = NULL;
    uint32_t def_count = 0;
    perfbuf_v1_instance *instances = NULL;
    uint32_t instance_count = 0;
    char *object_name = NULL;
    size_t first = 0;
    uint64_t current_instance = UINT64_MAX;
    for (size_t i = 0; i < c->count; i++) {
        DUMP_WORK(1);
        const perfbuf_raw_item *item = &c->items[i];
        /* A later object of a title the capture repeats: no key pairs its
         * instances with another capture's, so it is no series. */
        if (item->pairing == PERFBUF_PAIR_UNPAIRED || item->object >= object_count) {
            continue;
        }
        if (item->object != current_object) {
            current_object = item->object;
            const perfbuf_v1_object *o = &objects[current_object];
            free(defs);
            free(occurrence);
            free(instances);
            free(object_name);
            defs = dump_calloc(o->counter_count, sizeof *defs);
            occurrence = dump_calloc(o->counter_count, sizeof *occurrence);
            def_count = 0;
            /* Which definition of its title each is: the key that tells two
             * of one title apart in every capture, as the query pairs them. */
            om_map seen = {NULL, 0, 0};
            perfbuf_v1_counters_begin(o, &it);
            while (def_count < o->counter_count &&
                   perfbuf_v1_counters_next(&b, &it, &defs[def_count])) {
                DUMP_WORK(1);
                size_t before;
                const char *title = (const char *)&defs[def_count].name_title_index;
                if (!map_add(&seen, title, sizeof(uint32_t), 1, &before)) {
                    map_set(&seen, title, sizeof(uint32_t), before + 1);
                    occurrence[def_count] = (uint32_t)before;
                }
                def_count++;
            }
            map_free(&seen);
            instances = dump_calloc(o->instance_count, sizeof *instances);
            instance_count = 0;
            perfbuf_v1_instances_begin(o, &it);
            while (instance_count < o->instance_count &&
                   perfbuf_v1_instances_next(&b, &it, &instances[instance_count])) {
                DUMP_WORK(1);
                instance_count++;
            }
            object_name = title_text(names, o->name_title_index);
        }
        uint64_t where = (uint64_t)item->object << 32 | item->position;
        if (where != current_instance) {
            current_instance = where;
            first = i;
            const perfbuf_v1_instance *inst =
                item->position < instance_count ? &instances[item->position] : NULL;
            v1_labels(&labels, machine.buf != NULL ? machine.buf : "", &b,
                      &objects[current_object], inst, indexed ? &index : NULL, item);
        }
        size_t d = i - first;
        if (d >= def_count) {
            continue;
        }
        const perfbuf_v1_counter *def = &defs[d];
        om_counter key;
        memset(&key, 0, sizeof key);
        if (perfbuf_openmetrics_map(def->type, &key.map) != PERFBUF_OK ||
            (in->path_count > 0 && !is_selected(set, set_count, item->object, item->position,
                                                def->name_title_index)) ||
            !item_exported(&key.map, item, c->unix_ms)) {
            continue;
        }
        key.object_title = objects[current_object].name_title_index;
        key.counter_title = def->name_title_index;
        key.occurrence = occurrence[d];
        key.type = def->type;
        key.scale = def->default_scale;
        uint32_t counter = counter_find(s, &key);
        if (counter == UINT32_MAX) {
            char *counter_name = title_text(names, def->name_title_index);
            char *help_text = title_text(help, def->help_title_index);
            char ref[16];
            snprintf(ref, sizeof ref, "%" PRIu32, key.object_title);
            counter_texts texts = {object_name, ref, counter_name, help_text};
            counter = counter_add(s, &key, &texts);
            free(counter_name);
            free(help_text);
        }
        add_point(s, counter, series_of(s, counter, &labels), k, i);
    }
    free(defs);
    free(occurrence);
    free(instances);
    free(object_name);
    free(objects);
    free(labels.buf);
    free(machine.buf);
    free(slots);
    free(set);
}

/* ---- V2 ---- */

typedef struct v2_setup {
    perfbuf_query_registration reg;
    perfbuf_v2_reginfo reginfo;
    uint64_t *reg_scratch;
    perfbuf_v2_strings strings;
    bool has_strings;
    uint64_t *strings_scratch;
    char guid[PERFBUF_GUID_STRING_SIZE];
    char **path_texts;
    uint32_t *ids;
    size_t counter_count;
} v2_setup;

typedef struct v2_name_args {
    const perfbuf_v2_strings *s;
    perfbuf_v2_counter_string str;
} v2_name_args;

static perfbuf_status v2_name_call(const void *ctx, char *out, size_t cap, size_t *len)
{
    const v2_name_args *a = ctx;
    return perfbuf_v2_counter_string_utf8(a->s, &a->str, out, cap, len);
}

static char *v2_counter_name(const v2_setup *v, uint32_t id)
{
    v2_name_args a;
    a.s = &v->strings;
    if (!v->has_strings || perfbuf_v2_strings_find(&v->strings, id, &a.str) != PERFBUF_OK ||
        !a.str.present) {
        return NULL;
    }
    om_text text = {NULL, 0, 0};
    if (!text_from(&text, v2_name_call, &a) || text.len == 0) {
        free(text.buf);
        return NULL;
    }
    return text_steal(&text);
}

typedef struct v2_instance_args {
    const perfbuf_v2_query *q;
    const perfbuf_v2_instance *inst;
} v2_instance_args;

/* The block of the registration's counterset: the one --identifiers places
 * it at, else the first. */
static uint32_t v2_block_position(const dump_input *in, const perfbuf_v2_reginfo *reg)
{
    perfbuf_v2_identifiers ids;
    if (in->identifiers == NULL ||
        perfbuf_v2_identifiers_parse(in->identifiers, in->identifiers_size, &in->options, &ids,
                                     NULL) != PERFBUF_OK) {
        return 0;
    }
    perfbuf_v2_list_iter li;
    perfbuf_v2_identifier id;
    perfbuf_v2_identifiers_begin(&li);
    while (perfbuf_v2_identifiers_next(&ids, &li, &id)) {
        DUMP_WORK(1);
        if (id.status == 0 && memcmp(&id.counterset, &reg->counterset, sizeof id.counterset) == 0) {
            return id.query_index;
        }
    }
    return 0;
}

/* The query over the registration: a counter per exported registered
 * counter, by GUID and id, with "(*)" where the first capture's block has
 * instances. False (said on stderr) when the registration is missing or
 * rejected. */
static bool v2_open(v2_setup *v, const dump_input *in, perfbuf_query *q,
                    perfbuf_query_counter **counters)
{
    memset(v, 0, sizeof *v);
    perfbuf_error err;
    if (in->registration == NULL) {
        fprintf(stderr, "perfbuf-dump: --openmetrics of V2 query data needs --registration\n");
        return false;
    }
    if (dump_reginfo_parse(in->registration, in->registration_size, &in->options, &v->reginfo,
                           &err, &v->reg_scratch) != PERFBUF_OK) {
        dump_side_rejected("--registration file", in->side_paths[0], &err);
        return false;
    }
    if (in->counter_names != NULL) {
        if (dump_strings_parse(in->counter_names, in->counter_names_size, in->string_origin,
                               &in->options, &v->strings, &err,
                               &v->strings_scratch) == PERFBUF_OK) {
            v->has_strings = true;
        } else {
            dump_side_rejected("--counter-names file", in->side_paths[1], &err);
        }
    }
    perfbuf_guid_format(&v->reginfo.counterset, v->guid);
    memset(&v->reg, 0, sizeof v->reg);
    v->reg.reginfo = in->registration;
    v->reg.reginfo_len = in->registration_size;
    v->reg.block = v2_block_position(in, &v->reginfo);
    if (perfbuf_query_open_v2(q, &v->reg, 1, &err) != PERFBUF_OK ||
        perfbuf_query_options(q, &in->options, NULL) != PERFBUF_OK) {
        dump_side_rejected("--registration file", in->side_paths[0], &err);
        return false;
    }
    /* Instances or not, from the first capture's block. */
    const uint8_t *first = in->series_count > 0 ? in->series[0]
                           : in->previous != NULL ? in->previous
                                                  : in->data;
    size_t first_size = in->series_count > 0 ? in->series_sizes[0]
                        : in->previous != NULL ? in->previous_size
                                               : in->size;
    bool instances = true;
    perfbuf_v2_query pq;
    if (perfbuf_v2_query_parse(first, first_size, &in->options, &pq, NULL) == PERFBUF_OK) {
        perfbuf_v2_iter bi;
        perfbuf_v2_block blk;
        perfbuf_v2_blocks_begin(&pq, &bi);
        while (perfbuf_v2_blocks_next(&pq, &bi, &blk)) {
            DUMP_WORK(1);
            if (blk.index == v->reg.block) {
                instances = blk.kind == PERFBUF_V2_COUNTERSET ||
                            blk.kind == PERFBUF_V2_MULTIPLE_INSTANCES;
            }
        }
    }
    size_t n = v->reginfo.counter_count;
    *counters = dump_calloc(n, sizeof **counters);
    v->path_texts = dump_calloc(n, sizeof *v->path_texts);
    v->ids = dump_calloc(n, sizeof *v->ids);
    for (uint32_t i = 0; i < n; i++) {
        DUMP_WORK(1);
        perfbuf_v2_counter_reg c;
        perfbuf_openmetrics_mapping m;
        if (!perfbuf_v2_reginfo_counter(&v->reginfo, i, &c) ||
            perfbuf_openmetrics_map(c.type, &m) != PERFBUF_OK) {
            continue;
        }
        char path[96];
        snprintf(path, sizeof path, "\\%s%s\\%" PRIu32, v->guid, instances ? "(*)" : "", c.id);
        v->path_texts[v->counter_count] = dump_calloc(strlen(path) + 1, 1);
        memcpy(v->path_texts[v->counter_count], path, strlen(path));
        if (perfbuf_query_add(q, &(*counters)[v->counter_count], v->path_texts[v->counter_count],
                              strlen(path), NULL) == PERFBUF_OK) {
            v->ids[v->counter_count++] = c.id;
        } else {
            free(v->path_texts[v->counter_count]);
            v->path_texts[v->counter_count] = NULL;
        }
    }
    return true;
}

static void v2_close(v2_setup *v)
{
    for (size_t i = 0; i < v->counter_count; i++) {
        free(v->path_texts[i]);
    }
    free(v->path_texts);
    free(v->ids);
    free(v->reg_scratch);
    free(v->strings_scratch);
}

/* One V2 capture's points: every query counter's items, counter by
 * counter. Labels: the instance as the query names it ("name#N") and its
 * InstanceId, the key its samples pair by. */
static void v2_capture(om_state *s, const dump_input *in, uint32_t k, const uint8_t *data,
                       size_t size, const char *file, perfbuf_query *q, uint8_t **arena,
                       const perfbuf_query_counter *counters, const v2_setup *v)
{
    perfbuf_v2_query pq;
    if (perfbuf_v2_query_parse(data, size, &in->options, &pq, NULL) != PERFBUF_OK ||
        collect(q, arena, data, size) != PERFBUF_OK) {
        fprintf(stderr, "perfbuf-dump: %s: the query could not collect it\n", file);
        exit(2);
    }
    /* InstanceId by position, in the registration's block. */
    uint32_t *instance_ids = NULL;
    uint32_t instance_count = 0;
    perfbuf_v2_iter bi;
    perfbuf_v2_block blk;
    perfbuf_v2_blocks_begin(&pq, &bi);
    while (perfbuf_v2_blocks_next(&pq, &bi, &blk)) {
        DUMP_WORK(1);
        if (blk.index != v->reg.block || (blk.kind != PERFBUF_V2_COUNTERSET &&
                                          blk.kind != PERFBUF_V2_MULTIPLE_INSTANCES)) {
            continue;
        }
        instance_ids = dump_calloc(blk.instance_count, sizeof *instance_ids);
        perfbuf_v2_iter ii;
        perfbuf_v2_instance inst;
        perfbuf_v2_instances_begin(&blk, &ii);
        while (instance_count < blk.instance_count && perfbuf_v2_instances_next(&pq, &blk, &ii, &inst)) {
            DUMP_WORK(1);
            instance_ids[instance_count++] = inst.id;
        }
    }
    /* Every counter's items, one after the other, in one array. */
    om_capture *c = &s->captures[k];
    size_t cap = 0;
    om_text labels = {NULL, 0, 0};
    for (size_t j = 0; j < v->counter_count; j++) {
        DUMP_WORK(1);
        size_t n = 0;
        perfbuf_raw_item *items = raw_items(q, &counters[j], &n);
        if (n > 0) {
            if (cap < c->count + n) {
                cap = 2 * (c->count + n);
                perfbuf_raw_item *grown = realloc(c->items, cap * sizeof *grown);
                if (grown == NULL) {
                    fprintf(stderr, "perfbuf-dump: out of memory\n");
                    exit(2);
                }
                c->items = grown;
            }
            memcpy(c->items + c->count, items, n * sizeof *items);
        }
        perfbuf_v2_counter_reg reg;
        if (perfbuf_v2_reginfo_find(&v->reginfo, v->ids[j], &reg) != PERFBUF_OK) {
            free(items);
            continue;
        }
        char *counter_name = v2_counter_name(v, reg.id);
        for (size_t i = 0; i < n; i++) {
            DUMP_WORK(1);
            size_t at = c->count + i;
            const perfbuf_raw_item *item = &c->items[at];
            om_counter key;
            memset(&key, 0, sizeof key);
            if (perfbuf_openmetrics_map(reg.type, &key.map) != PERFBUF_OK ||
                !item_exported(&key.map, item, c->unix_ms)) {
                continue;
            }
            key.counter_title = reg.id;
            key.type = reg.type;
            key.scale = reg.default_scale;
            uint32_t counter = counter_find(s, &key);
            if (counter == UINT32_MAX) {
                counter_texts texts = {v->guid, v->guid, counter_name, NULL};
                counter = counter_add(s, &key, &texts);
            }
            text_clear(&labels);
            if (item->position != PERFBUF_ITEM_NO_INSTANCE) {
                label(&labels, "instance_name", item->name, item->name_len);
                if (item->position < instance_count) {
                    char number[16];
                    snprintf(number, sizeof number, "%" PRIu32, instance_ids[item->position]);
                    label(&labels, "instance_id", number, strlen(number));
                }
            }
            labels_end(&labels);
            add_point(s, counter, series_of(s, counter, &labels), k, at);
        }
        c->count += n;
        free(counter_name);
        free(items);
    }
    free(labels.buf);
    free(instance_ids);
}

/* ---- writing ---- */

static int point_compare(const void *a, const void *b)
{
    const om_point *x = a;
    const om_point *y = b;
    uint64_t kx[4] = {x->counter, x->series, x->capture, x->order};
    uint64_t ky[4] = {y->counter, y->series, y->capture, y->order};
    for (int i = 0; i < 4; i++) {
        if (kx[i] != ky[i]) {
            return kx[i] < ky[i] ? -1 : 1;
        }
    }
    return 0;
}

static const char *kind_name(uint32_t kind)
{
    return kind == PERFBUF_OPENMETRICS_COUNTER   ? "counter"
           : kind == PERFBUF_OPENMETRICS_SUMMARY ? "summary"
                                                 : "gauge";
}

static void write_text(const om_state *s, FILE *out)
{
    om_text line = {NULL, 0, 0};
    size_t p = 0;
    while (p < s->point_count) {
        DUMP_WORK(1);
        uint32_t id = s->points[p].counter;
        size_t end = p;
        while (end < s->point_count && s->points[end].counter == id) {
            DUMP_WORK(1);
            end++;
        }
        const om_counter *c = &s->counters[id];
        for (uint32_t k = 0; k < c->map.family_count; k++) {
            const perfbuf_openmetrics_family *f = &c->map.families[k];
            text_clear(&line);
            text_cstr(&line, c->name);
            text_cstr(&line, f->suffix);
            size_t family_len = line.len;
            const char *unit = perfbuf_openmetrics_unit(f, line.buf, family_len);
            fprintf(out, "# TYPE %s %s\n", line.buf, kind_name(f->kind));
            if (unit[0] != '\0') {
                fprintf(out, "# UNIT %s %s\n", line.buf, unit);
            }
            text_cstr(&line, " ");
            text_cstr(&line, f->role);
            text_escaped(&line, c->help, strlen(c->help));
            fprintf(out, "# HELP %s\n", line.buf);
            for (size_t i = p; i < end; i++) {
                DUMP_WORK(1);
                const om_point *pt = &s->points[i];
                const om_capture *cap = &s->captures[pt->capture];
                for (uint32_t j = 0; j < f->sample_count; j++) {
                    char number[PERFBUF_OPENMETRICS_NUMBER_MAX];
                    if (!sample_text(&f->samples[j], &cap->items[pt->item], cap->unix_ms,
                                     number)) {
                        continue; /* not reached: the point was made with every number */
                    }
                    line.len = family_len;
                    line.buf[family_len] = '\0';
                    fprintf(out, "%s%s%s %s", line.buf, f->samples[j].suffix,
                            s->series[pt->series], number);
                    if (!s->options->no_timestamps) {
                        fprintf(out, " %s", cap->time);
                    }
                    fputc('\n', out);
                }
            }
        }
        p = end;
    }
    fputs("# EOF\n", out);
    free(line.buf);
}

/* Sorts the points into writing order and keeps the first point of each
 * series in each capture (a name twice in one object: its series has one
 * sample per time). */
static void order_points(om_state *s)
{
    if (s->point_count == 0) {
        return;
    }
    qsort(s->points, s->point_count, sizeof *s->points, point_compare);
    size_t kept = 1;
    for (size_t i = 1; i < s->point_count; i++) {
        DUMP_WORK(1);
        const om_point *prev = &s->points[kept - 1];
        if (s->points[i].series == prev->series && s->points[i].capture == prev->capture) {
            continue;
        }
        s->points[kept++] = s->points[i];
    }
    s->point_count = kept;
}

static void state_free(om_state *s)
{
    for (size_t i = 0; i < s->counter_count; i++) {
        free(s->counters[i].name);
        free(s->counters[i].help);
    }
    for (size_t i = 0; i < s->series_count; i++) {
        free(s->series[i]);
    }
    for (size_t i = 0; i < s->capture_count; i++) {
        free(s->captures[i].items);
    }
    free(s->counters);
    free(s->series);
    free(s->points);
    free(s->captures);
    map_free(&s->counter_ids);
    map_free(&s->series_ids);
    map_free(&s->taken);
    map_free(&s->next_suffix);
}

int dump_openmetrics(const dump_input *in, const om_options *o, bool v1, size_t max_input_bytes,
                     FILE *out)
{
    if (in->series_count > 0 && in->previous != NULL) {
        fprintf(stderr, "perfbuf-dump: --openmetrics takes --rate or --series, not both\n");
        return 2;
    }
    size_t count = in->series_count + (in->previous != NULL ? 1u : 0u) + 1u;
    if (o->no_timestamps && count > 1) {
        fprintf(stderr, "perfbuf-dump: --no-timestamps is for one capture: a series needs "
                        "its times\n");
        return 2;
    }
    if (!v1 && in->path_count > 0) {
        fprintf(stderr, "perfbuf-dump: --counter is for V1 data blocks\n");
        return 2;
    }
    /* The captures, oldest first, and their files. */
    const uint8_t **datas = dump_calloc(count, sizeof *datas);
    size_t *sizes = dump_calloc(count, sizeof *sizes);
    const char **files = dump_calloc(count, sizeof *files);
    for (size_t k = 0; k < in->series_count; k++) {
        datas[k] = in->series[k];
        sizes[k] = in->series_sizes[k];
        files[k] = in->series_paths[k];
    }
    if (in->previous != NULL) {
        datas[count - 2] = in->previous;
        sizes[count - 2] = in->previous_size;
        files[count - 2] = in->previous_path;
    }
    datas[count - 1] = in->data;
    sizes[count - 1] = in->size;
    files[count - 1] = in->path;

    om_state s;
    memset(&s, 0, sizeof s);
    s.options = o;
    s.captures = dump_calloc(count, sizeof *s.captures);
    s.capture_count = count;
    int rc = 0;
    for (size_t k = 0; k < count && rc == 0; k++) {
        DUMP_WORK(1);
        int64_t t = 0;
        perfbuf_error err;
        perfbuf_status st;
        if (v1) {
            perfbuf_v1_block b;
            st = perfbuf_v1_parse(datas[k], sizes[k], &in->options, &b, &err);
            t = b.perf_time_100ns;
        } else {
            perfbuf_v2_query q;
            st = perfbuf_v2_query_parse(datas[k], sizes[k], &in->options, &q, &err);
            t = q.perf_time_100ns;
        }
        /* main refused a rejected earlier capture already; FILE is said
         * here, as the other outputs say it. */
        if (st != PERFBUF_OK) {
            fprintf(stderr, "%s: ", files[k]);
            dump_print_rejection(stderr, st, &err);
            rc = 1;
        } else if (!capture_time(t, files[k], &s.captures[k])) {
            rc = 1;
        } else if (rc == 0 && k > 0 && s.captures[k].unix_ms <= s.captures[k - 1].unix_ms) {
            fprintf(stderr,
                    "perfbuf-dump: %s: its PerfTime100nSec is not after %s's: a series' "
                    "samples must be in time order\n",
                    files[k], files[k - 1]);
            rc = 1;
        }
    }

    uint8_t *help_data = NULL;
    size_t help_size = 0;
    om_titles names;
    om_titles help;
    memset(&names, 0, sizeof names);
    memset(&help, 0, sizeof help);
    if (rc == 0 && o->help_names_path != NULL) {
        rc = dump_read_input(o->help_names_path, max_input_bytes, &help_data, &help_size);
    }
    if (rc == 0) {
        /* Metric names from the English table when it was given. */
        if (in->english_names != NULL) {
            titles_load(&names, in->english_names, in->english_names_size,
                        "--english-names table", in->side_paths[3]);
        } else {
            titles_load(&names, in->names, in->names_size, "--names table", in->names_path);
        }
        titles_load(&help, help_data, help_size, "--help-names table", o->help_names_path);
    }
    perfbuf_query q;
    uint8_t *arena = NULL;
    if (rc == 0 && v1) {
        perfbuf_query_counter every = {0};
        perfbuf_query_counter *paths = dump_calloc(in->path_count + 1, sizeof *paths);
        bool *added = dump_calloc(in->path_count + 1, sizeof *added);
        /* As the other outputs open it: paths in English and the
         * system's language; no table, no path (main requires one). */
        const uint8_t *first = in->english_names != NULL ? in->english_names : in->names;
        size_t first_size = in->english_names != NULL ? in->english_names_size : in->names_size;
        const uint8_t *second = in->english_names != NULL ? in->names : NULL;
        size_t second_size = in->english_names != NULL ? in->names_size : 0;
        bool open = first != NULL &&
                    perfbuf_query_open(&q, first, first_size, second, second_size, NULL) ==
                        PERFBUF_OK;
        if (!open && perfbuf_query_open(&q, no_titles, sizeof no_titles, NULL, 0, NULL) !=
                         PERFBUF_OK) {
            rc = 2;
        }
        if (rc == 0 && (perfbuf_query_options(&q, &in->options, NULL) != PERFBUF_OK ||
                        perfbuf_query_add_definitions(&q, &every, NULL) != PERFBUF_OK ||
                        perfbuf_query_pair_by_unique_id(&q, &every, NULL) != PERFBUF_OK)) {
            rc = 2;
        }
        for (size_t p = 0; rc == 0 && open && p < in->path_count; p++) {
            DUMP_WORK(1);
            added[p] = perfbuf_query_add(&q, &paths[p], in->paths[p].text, in->paths[p].text_len,
                                         NULL) == PERFBUF_OK;
        }
        for (size_t k = 0; rc == 0 && k < count; k++) {
            DUMP_WORK(1);
            v1_capture(&s, in, (uint32_t)k, datas[k], sizes[k], files[k], &q, &arena, &every,
                       paths, added, &names, &help, k + 1 == count);
        }
        free(paths);
        free(added);
    } else if (rc == 0) {
        v2_setup v;
        perfbuf_query_counter *counters = NULL;
        if (!v2_open(&v, in, &q, &counters)) {
            rc = 2;
        }
        for (size_t k = 0; rc == 0 && k < count; k++) {
            DUMP_WORK(1);
            v2_capture(&s, in, (uint32_t)k, datas[k], sizes[k], files[k], &q, &arena, counters,
                       &v);
        }
        v2_close(&v);
        free(counters);
    }
    if (rc == 0) {
        order_points(&s);
        write_text(&s, out);
    }
    free(arena);
    free(names.slots);
    free(help.slots);
    free(help_data);
    state_free(&s);
    free(datas);
    free(sizes);
    free(files);
    return rc;
}
