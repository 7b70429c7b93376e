/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * What the caller hands the query (perfbuf/query.h): the tables or
 * registrations it opens on, its counters, their pairing options, and its
 * arena; and the O(1) checks that a counter handed back is one of this
 * query's (SECURITY.md, "the query"). A counter records its owner, its
 * slot in the owner's list and a seal of both with its own address; once
 * the query has an arena, the arena lists the counters' addresses by
 * slot, so a counter of another query, a stale one of a query opened
 * again at the same address, or one moved from a list to another is
 * refused before anything is read through it.
 */
#include <string.h>

#include "core/cursor.h"
#include "collector/internal.h"
#include "collector/query_internal.h"

/* The arena's fixed part, after the tables' indexes: the seal, then one
 * address per counter. */
#define ARENA_SEAL_BYTES sizeof(uint64_t)

static bool opened(const perfbuf_query *q)
{
    return q->english.data != NULL || q->registrations != NULL;
}

perfbuf_status pb_q_refuse(perfbuf_error *err, perfbuf_status status, const char *call,
                           const char *argument)
{
    if (err != NULL) {
        *err = (perfbuf_error){status, 0, call, argument, 0, 0};
    }
    return status;
}

perfbuf_status pb_q_answer(perfbuf_error *err, perfbuf_status status)
{
    if (err != NULL) {
        *err = (perfbuf_error){status, 0, NULL, NULL, 0, 0};
    }
    return status;
}

static uint64_t address(const void *p)
{
    return (uint64_t)(uintptr_t)p;
}

uint64_t pb_q_counter_seal(const perfbuf_query *q, const perfbuf_query_counter *c, uint32_t slot)
{
    return pb_mix64(address(c) ^ pb_mix64(address(q) ^ (uint64_t)slot << 1));
}

static uint64_t arena_seal(const perfbuf_query *q)
{
    return pb_mix64(address(q) ^ UINT64_C(0x7065726662756621)) | 1u;
}

static const uint64_t *counter_list(const perfbuf_query *q)
{
    return (const uint64_t *)pb_q_at(q, q->table_bytes + ARENA_SEAL_BYTES);
}

bool pb_q_owns(const perfbuf_query *q, const perfbuf_query_counter *c)
{
    if (q == NULL || c == NULL || c->owner != q || c->slot >= q->counters ||
        c->seal != pb_q_counter_seal(q, c, c->slot)) {
        return false;
    }
    return q->arena == NULL || counter_list(q)[c->slot] == address(c);
}

bool pb_q_samples_readable(const perfbuf_query *q, const perfbuf_query_generation *g,
                           const perfbuf_query_samples *s)
{
    size_t items = 0, keys = 0, claims = 0;
    return s->stamp != 0 && s->stamp == g->stamp && g->end <= q->arena_bytes &&
           s->items >= g->start && pb_mul(s->count, sizeof(pb_qitem), &items) &&
           items <= g->end - s->items && s->keys >= g->start &&
           pb_mul(s->count, 2u * sizeof(uint64_t), &keys) && keys <= g->end - s->keys &&
           s->claims >= g->start && pb_mul(s->count, sizeof(uint32_t), &claims) &&
           claims <= g->end - s->claims && g->records >= g->start &&
           g->record_count * sizeof(pb_qrec) <= g->end - g->records;
}

perfbuf_status perfbuf_query_open(perfbuf_query *q, const void *english, size_t english_len,
                                  const void *localized, size_t localized_len, perfbuf_error *err)
{
    if (q == NULL) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, "perfbuf_query_open", "q");
    }
    if (english == NULL) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, "perfbuf_query_open", "english");
    }
    memset(q, 0, sizeof *q);
    perfbuf_status st = perfbuf_names_parse(english, english_len, NULL, &q->english, err);
    if (st == PERFBUF_OK && localized != NULL) {
        st = perfbuf_names_parse(localized, localized_len, NULL, &q->localized, err);
        q->has_localized = st == PERFBUF_OK;
    }
    size_t slots = (size_t)q->english.count + (q->has_localized ? q->localized.count : 0u);
    if (st == PERFBUF_OK && !pb_mul(slots, sizeof(perfbuf_name_slot), &q->table_bytes)) {
        st = PERFBUF_E_LIMIT_EXCEEDED;
        (void)pb_q_refuse(err, st, "perfbuf_query_open", "english");
    }
    if (st != PERFBUF_OK) {
        memset(q, 0, sizeof *q);
        return st;
    }
    q->table_bytes = pb_q_align(q->table_bytes);
    q->seal = arena_seal(q);
    return pb_q_answer(err, PERFBUF_OK);
}

perfbuf_status perfbuf_query_options(perfbuf_query *q, const perfbuf_options *opts,
                                     perfbuf_error *err)
{
    if (q == NULL || !opened(q)) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, "perfbuf_query_options", "q");
    }
    if (opts == NULL || (opts->flags & ~PERFBUF_STRICT) != 0) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, "perfbuf_query_options", "opts");
    }
    q->options = *opts;
    return pb_q_answer(err, PERFBUF_OK);
}

/* Scratch for a buffer whose ids are out of order: one entry per 8 bytes
 * is at least one per counter (a PERF_COUNTER_REG_INFO or a
 * PERF_STRING_COUNTER_HEADER takes more), placed at the arena's start.
 * The parse's SCRATCH_NEEDED is then no failure of the open: *err no
 * longer reports it (LIMIT_EXCEEDED when the arena's size would wrap). */
static bool defer_order(perfbuf_query *q, size_t len, size_t *at, perfbuf_error *err)
{
    *at = q->table_bytes;
    bool fits = pb_add(q->table_bytes, len / 8u * sizeof(uint64_t), &q->table_bytes);
    if (err != NULL) {
        pb_error_set(err, fits ? PERFBUF_OK : PERFBUF_E_LIMIT_EXCEEDED, 0, "", "");
    }
    return fits;
}

/* One registration's buffers, validated without scratch; ids out of order
 * get theirs from the arena (order_registration). */
static perfbuf_status open_registration(perfbuf_query *q, perfbuf_query_registration *r,
                                        perfbuf_error *err)
{
    r->reg_order = SIZE_MAX;
    r->names_order = SIZE_MAX;
    r->has_names = false;
    r->has_name = false;
    if (r->reginfo == NULL) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, "perfbuf_query_open_v2",
                           "registrations");
    }
    perfbuf_status st = perfbuf_v2_reginfo_parse(r->reginfo, r->reginfo_len, NULL, &r->reg, err);
    if (st == PERFBUF_E_SCRATCH_NEEDED) {
        st = defer_order(q, r->reginfo_len, &r->reg_order, err) ? PERFBUF_OK
                                                                : PERFBUF_E_LIMIT_EXCEEDED;
    }
    if (st == PERFBUF_OK && r->counter_names != NULL) {
        st = perfbuf_v2_strings_parse(r->counter_names, r->counter_names_len,
                                      PERFBUF_V2_STRINGS_AUTO, NULL, &r->names, err);
        if (st == PERFBUF_E_SCRATCH_NEEDED) {
            st = defer_order(q, r->counter_names_len, &r->names_order, err)
                     ? PERFBUF_OK
                     : PERFBUF_E_LIMIT_EXCEEDED;
        }
        r->has_names = st == PERFBUF_OK;
    }
    if (st == PERFBUF_OK && r->counterset_name != NULL) {
        st = perfbuf_v2_string_parse(r->counterset_name, r->counterset_name_len, NULL, &r->name,
                                     err);
        r->has_name = st == PERFBUF_OK;
    }
    return st;
}

perfbuf_status perfbuf_query_open_v2(perfbuf_query *q, perfbuf_query_registration *registrations,
                                     size_t count, perfbuf_error *err)
{
    if (q == NULL) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, "perfbuf_query_open_v2", "q");
    }
    if (registrations == NULL || count == 0 || count > UINT32_MAX - 1u) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, "perfbuf_query_open_v2",
                           registrations == NULL ? "registrations" : "count");
    }
    memset(q, 0, sizeof *q);
    perfbuf_status st = PERFBUF_OK;
    for (size_t i = 0; i < count && st == PERFBUF_OK; i++) {
        PB_WORK(1);
        st = open_registration(q, &registrations[i], err);
    }
    if (st != PERFBUF_OK) {
        memset(q, 0, sizeof *q);
        return st;
    }
    q->registrations = registrations;
    q->registration_count = (uint32_t)count;
    q->table_bytes = pb_q_align(q->table_bytes);
    q->seal = arena_seal(q);
    return pb_q_answer(err, PERFBUF_OK);
}

perfbuf_status perfbuf_query_close(perfbuf_query *q, perfbuf_error *err)
{
    if (q == NULL) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, "perfbuf_query_close", "q");
    }
    /* At most the counters the query counted: a list the caller broke
     * (a counter added elsewhere since) ends where it stops being ours. */
    perfbuf_query_counter *c = q->first;
    for (uint32_t i = 0; i < q->counters && c != NULL && c->owner == q; i++) {
        PB_WORK(1);
        perfbuf_query_counter *next = c->next;
        c->owner = NULL;
        c->seal = 0;
        c->next = NULL;
        c = next;
    }
    memset(q, 0, sizeof *q);
    return pb_q_answer(err, PERFBUF_OK);
}

/* Whether c is in q's list: walked only for a counter whose seal says it
 * was q's, which a query opened again at the same address may no longer
 * hold. */
static bool listed(const perfbuf_query *q, const perfbuf_query_counter *c)
{
    const perfbuf_query_counter *k = q->first;
    for (uint32_t i = 0; i < q->counters && k != NULL; i++, k = k->next) {
        PB_WORK(1);
        if (k == c) {
            return true;
        }
    }
    return false;
}

/*
 * Whether c may be added to q: q open and without its arena, and c no
 * live query's. A counter whose seal names another query is that query's
 * until it is closed; one whose seal names q is refused when q lists it
 * (added twice), and taken again when it is a leftover of a query opened
 * before at q's address. Garbage in a fresh counter matches a seal only
 * by the chance of a 64-bit collision.
 */
static perfbuf_status check_addable(const perfbuf_query *q, const perfbuf_query_counter *c,
                                    const char *call, perfbuf_error *err)
{
    if (q == NULL || !opened(q)) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "q");
    }
    if (q->arena != NULL) {
        /* The arena lists the counters; one added after it would be unlisted. */
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "q");
    }
    if (c == NULL || q->counters == UINT32_MAX) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "c");
    }
    bool sealed = c->owner != NULL && c->seal == pb_q_counter_seal(c->owner, c, c->slot);
    if (sealed && (c->owner != q || (c->slot < q->counters && listed(q, c)))) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "c");
    }
    return PERFBUF_OK;
}

/* Makes c, filled by the caller's call, the last counter of q. */
static void link_counter(perfbuf_query *q, perfbuf_query_counter *c, uint32_t kind,
                         uint32_t identity)
{
    c->status = PERFBUF_CSTATUS_ITEM_NOT_VALIDATED;
    c->found = PERFBUF_QUERY_FOUND_NOT_YET;
    c->owner = q;
    c->slot = q->counters;
    c->seal = pb_q_counter_seal(q, c, c->slot);
    c->next = NULL;
    c->kind = kind;
    c->identity = identity;
    c->registration = UINT32_MAX;
    c->resolution = PERFBUF_CSTATUS_ITEM_NOT_VALIDATED;
    if (q->last != NULL) {
        q->last->next = c;
    } else {
        q->first = c;
    }
    q->last = c;
    q->counters++;
}

perfbuf_status perfbuf_query_add(perfbuf_query *q, perfbuf_query_counter *c, const char *path,
                                 size_t len, perfbuf_error *err)
{
    perfbuf_status st = check_addable(q, c, "perfbuf_query_add", err);
    if (st != PERFBUF_OK) {
        return st;
    }
    if (path == NULL) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, "perfbuf_query_add", "path");
    }
    perfbuf_counter_path parsed;
    st = perfbuf_path_parse(path, len, &parsed, err);
    if (st != PERFBUF_OK) {
        return st;
    }
    bool every = (parsed.flags & PERFBUF_PATH_COUNTER_WILDCARD) != 0;
    if (every && q->registrations != NULL) {
        if (err != NULL) {
            *err = (perfbuf_error){PERFBUF_E_PATH_WILDCARD, parsed.counter.offset, "COUNTER_PATH",
                                   "Counter", 0, 0};
        }
        return PERFBUF_E_PATH_WILDCARD;
    }
    memset(c, 0, sizeof *c);
    c->path = parsed;
    link_counter(q, c, every ? PB_Q_EVERY_COUNTER : PB_Q_PATH,
                 q->registrations != NULL ? PERFBUF_QUERY_IDENTITY_INSTANCE_ID
                                          : PERFBUF_QUERY_IDENTITY_NAME);
    return pb_q_answer(err, PERFBUF_OK);
}

perfbuf_status perfbuf_query_add_definitions(perfbuf_query *q, perfbuf_query_counter *c,
                                             perfbuf_error *err)
{
    perfbuf_status st = check_addable(q, c, "perfbuf_query_add_definitions", err);
    if (st != PERFBUF_OK) {
        return st;
    }
    if (q->registrations != NULL) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, "perfbuf_query_add_definitions", "q");
    }
    memset(c, 0, sizeof *c);
    link_counter(q, c, PB_Q_EVERY_DEFINITION, PERFBUF_QUERY_IDENTITY_NAME);
    return pb_q_answer(err, PERFBUF_OK);
}

/* Whether c's pairing may still change: c is q's, a V1 query's, and q has
 * no arena yet. Before the arena, the list is the only record of q's
 * counters, and a counter left over from a query opened before at q's
 * address carries a seal that passes: it is looked for, O(counters). */
static perfbuf_status check_changeable(const perfbuf_query *q, const perfbuf_query_counter *c,
                                       const char *call, perfbuf_error *err)
{
    if (q == NULL || q->arena != NULL || q->registrations != NULL) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "q");
    }
    if (!pb_q_owns(q, c) || !listed(q, c)) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "c");
    }
    return PERFBUF_OK;
}

perfbuf_status perfbuf_query_pair_by(perfbuf_query *q, perfbuf_query_counter *c, const char *key,
                                     size_t len, perfbuf_error *err)
{
    perfbuf_status st = check_changeable(q, c, "perfbuf_query_pair_by", err);
    if (st != PERFBUF_OK) {
        return st;
    }
    if (key == NULL || len == 0 || len > PERFBUF_PATH_MAX_NAME * 3u) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, "perfbuf_query_pair_by", "key");
    }
    if (len == 1 && key[0] == '*') {
        return pb_q_refuse(err, PERFBUF_E_PATH_WILDCARD, "perfbuf_query_pair_by", "key");
    }
    c->identity = PERFBUF_QUERY_IDENTITY_KEY_COUNTER;
    c->key = (perfbuf_counter_path){.text = key, .text_len = len, .counter = {0, len}};
    c->key_title = 0;
    return pb_q_answer(err, PERFBUF_OK);
}

perfbuf_status perfbuf_query_pair_by_unique_id(perfbuf_query *q, perfbuf_query_counter *c,
                                               perfbuf_error *err)
{
    perfbuf_status st = check_changeable(q, c, "perfbuf_query_pair_by_unique_id", err);
    if (st != PERFBUF_OK) {
        return st;
    }
    c->identity = PERFBUF_QUERY_IDENTITY_UNIQUE_ID;
    c->key = (perfbuf_counter_path){0};
    c->key_title = 0;
    return pb_q_answer(err, PERFBUF_OK);
}

/* ---- the arena ---- */

/* A registration whose ids are out of order, validated with its scratch
 * at the arena's start, or (moved) pointed at it again. */
static perfbuf_status order_registration(perfbuf_query_registration *r, uint8_t *base,
                                         bool first)
{
    perfbuf_status st = PERFBUF_OK;
    if (r->reg_order != SIZE_MAX) {
        uint64_t *order = (uint64_t *)(void *)(base + r->reg_order);
        if (first) {
            st = perfbuf_v2_reginfo_parse_indexed(r->reginfo, r->reginfo_len, NULL, order,
                                                  r->reginfo_len / 8u, &r->reg, NULL);
        } else {
            r->reg.order = order;
        }
    }
    if (st == PERFBUF_OK && r->names_order != SIZE_MAX) {
        uint64_t *order = (uint64_t *)(void *)(base + r->names_order);
        if (first) {
            st = perfbuf_v2_strings_parse_indexed(r->counter_names, r->counter_names_len,
                                                  PERFBUF_V2_STRINGS_AUTO, NULL, order,
                                                  r->counter_names_len / 8u, &r->names, NULL);
            r->has_names = st == PERFBUF_OK;
        } else {
            r->names.order = order;
        }
    }
    return st;
}

/* Each counter's registration and counter id, found once: a V2 path names
 * the same counter in every capture of the query's registrations. */
static void resolve_v2_paths(perfbuf_query *q)
{
    for (perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
        c->resolution = PERFBUF_CSTATUS_NO_OBJECT;
        c->registration = UINT32_MAX;
        for (uint32_t i = 0; i < q->registration_count && c->registration == UINT32_MAX; i++) {
            PB_WORK(1);
            const perfbuf_query_registration *r = &q->registrations[i];
            if (perfbuf_v2_counterset_matches(&r->reg, r->has_name ? &r->name : NULL,
                                              &c->path)) {
                c->registration = i;
            }
        }
        if (c->registration == UINT32_MAX) {
            continue;
        }
        const perfbuf_query_registration *r = &q->registrations[c->registration];
        uint32_t next = 0;
        perfbuf_v2_counter_reg counter;
        if (perfbuf_v2_resolve_counter(&r->reg, r->has_names ? &r->names : NULL, &c->path,
                                       &next, &counter, NULL) == PERFBUF_OK) {
            c->counter_id = counter.id;
            c->resolution = PERFBUF_CSTATUS_VALID_DATA;
        } else {
            c->resolution = PERFBUF_CSTATUS_NO_COUNTER;
        }
    }
}

/* Whether a counter's path or key text lies in [arena, arena + bytes):
 * the collections write there, and a path must not change under them. */
static bool texts_in(const perfbuf_query *q, const void *arena, size_t bytes)
{
    pb_region a = {arena, bytes};
    for (const perfbuf_query_counter *c = q->first; c != NULL; c = c->next) {
        PB_WORK(1);
        if (pb_regions_overlap(a, (pb_region){c->path.text, c->path.text_len}) ||
            pb_regions_overlap(a, (pb_region){c->key.text, c->key.text_len})) {
            return true;
        }
    }
    return false;
}

size_t pb_q_least_arena(const perfbuf_query *q)
{
    size_t fixed = q->fixed_bytes;
    if (q->arena == NULL) {
        fixed = q->table_bytes + ARENA_SEAL_BYTES + (size_t)q->counters * sizeof(uint64_t);
    }
    size_t kept = fixed;
    kept = q->older.stamp != 0 && q->older.end > kept ? q->older.end : kept;
    kept = q->newer.stamp != 0 && q->newer.end > kept ? q->newer.end : kept;
    return kept;
}

/* The first arena: the tables' indexes (V1) or the registrations' orders
 * and resolved paths (V2), the seal, and the list of counters. */
static perfbuf_status place_first(perfbuf_query *q, uint8_t *base)
{
    perfbuf_status st = PERFBUF_OK;
    if (q->registrations != NULL) {
        for (uint32_t i = 0; i < q->registration_count && st == PERFBUF_OK; i++) {
            PB_WORK(1);
            st = order_registration(&q->registrations[i], base, true);
        }
        if (st == PERFBUF_OK) {
            resolve_v2_paths(q);
        }
    } else {
        perfbuf_name_slot *slots = (perfbuf_name_slot *)(void *)base;
        st = perfbuf_names_index_build(&q->english, slots, q->english.count, &q->english_index);
        if (st == PERFBUF_OK && q->has_localized) {
            st = perfbuf_names_index_build(&q->localized, slots + q->english.count,
                                           q->localized.count, &q->localized_index);
        }
        q->names = (perfbuf_title_tables){&q->english, &q->english_index,
                                          q->has_localized ? &q->localized : NULL,
                                          q->has_localized ? &q->localized_index : NULL};
    }
    if (st != PERFBUF_OK) {
        return st;
    }
    memcpy(base + q->table_bytes, &q->seal, sizeof q->seal);
    uint64_t *list = (uint64_t *)(void *)(base + q->table_bytes + ARENA_SEAL_BYTES);
    uint32_t slot = 0;
    for (perfbuf_query_counter *c = q->first; c != NULL; c = c->next, slot++) {
        PB_WORK(1);
        list[slot] = address(c);
    }
    q->fixed_bytes = pb_q_align(q->table_bytes + ARENA_SEAL_BYTES +
                                (size_t)q->counters * sizeof(uint64_t));
    return PERFBUF_OK;
}

/* An arena the caller moved: the tables' indexes and orders pointed into
 * it again. Nothing else in the arena holds an address. */
static void place_again(perfbuf_query *q, uint8_t *base)
{
    if (q->registrations != NULL) {
        for (uint32_t i = 0; i < q->registration_count; i++) {
            PB_WORK(1);
            (void)order_registration(&q->registrations[i], base, false);
        }
        return;
    }
    perfbuf_name_slot *slots = (perfbuf_name_slot *)(void *)base;
    q->english_index.slots = slots;
    q->localized_index.slots = slots + q->english.count;
}

perfbuf_status perfbuf_query_arena(perfbuf_query *q, void *arena, size_t *bytes, perfbuf_error *err)
{
    static const char call[] = "perfbuf_query_arena";
    if (q == NULL || !opened(q)) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "q");
    }
    if (bytes == NULL) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "bytes");
    }
    size_t least = pb_q_least_arena(q);
    if (arena == NULL || *bytes < least) {
        *bytes = least;
        return pb_q_refuse(err, PERFBUF_E_OUTPUT_TOO_SMALL, call, "bytes");
    }
    if (((uintptr_t)arena & (PB_Q_ALIGN - 1u)) != 0 || texts_in(q, arena, *bytes)) {
        return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "arena");
    }
    uint8_t *base = arena;
    if (q->arena != NULL) {
        /* The caller's copy of the previous arena: its seal says so. */
        uint64_t seal;
        memcpy(&seal, base + q->table_bytes, sizeof seal);
        if (seal != q->seal) {
            return pb_q_refuse(err, PERFBUF_E_INVALID_ARGUMENT, call, "arena");
        }
        place_again(q, base);
    } else {
        perfbuf_status st = place_first(q, base);
        if (st != PERFBUF_OK) {
            return pb_q_refuse(err, st, call, "arena");
        }
    }
    q->arena = base;
    q->arena_bytes = *bytes;
    return pb_q_answer(err, PERFBUF_OK);
}
