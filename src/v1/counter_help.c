/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The Counter/Help title databases. The list is walked string by string;
 * every string ends at a NUL unit found by the cursor, so each loop step
 * consumes at least one code unit.
 */
#include "perfbuf/names.h"

#include "core/check.h"
#include "core/text.h"
#include "core/work.h"

/*@
  // A table whose bytes the caller still holds: every byte counted in size
  // may be read (perfbuf_names_parse gives back only such tables).
  predicate pb_names_table_ok(perfbuf_name_table *t) =
      \valid_read(t) && \valid_read(t->data + (0 .. t->size - 1));
*/

/* The next NUL-terminated string: *units before the NUL; false if the
 * bytes end first (then *units counts what is there). */
/*@ requires pb_valid(c) && \valid(c);
    requires \valid(units) && \separated(units, c);
    assigns c->pos, *units;
    ensures pb_valid(c);
    ensures \result ==> c->pos == \old(c->pos) + 2 * *units + 2;
    ensures !\result ==> c->pos == \old(c->pos) + 2 * *units;
*/
static bool next_string(pb_cursor *c, size_t *units)
{
    size_t n = 0;
    uint16_t u;
    /*@ loop invariant pb_valid(c);
        loop invariant c->pos == \at(c->pos, Pre) + 2 * n;
        loop assigns c->pos, n, u;
        loop variant c->end - c->pos;
    */
    while (pb_cursor_read_u16(c, &u)) {
        if (u == 0) {
            *units = n;
            return true;
        }
        n++;
    }
    *units = n;
    return false;
}

/* A decimal index: digits only, at most UINT32_MAX. */
/*@ requires pb_valid_view(s);
    requires \valid(value);
    assigns *value;
*/
static bool parse_index(pb_cursor s, size_t units, uint32_t *value)
{
    uint32_t v = 0;
    /*@ loop invariant 0 <= i <= units;
        loop invariant pb_valid(&s);
        loop assigns i, v, s.pos;
        loop variant units - i;
    */
    for (size_t i = 0; i < units; i++) {
        uint16_t u;
        if (!pb_cursor_read_u16(&s, &u) || u < '0' || u > '9') {
            return false;
        }
        uint32_t digit = (uint32_t)(u - '0');
        if (v > (UINT32_MAX - digit) / 10) {
            return false;
        }
        v = v * 10 + digit;
    }
    *value = v;
    return units > 0;
}

/*
 * One pair at c. *end is set when c holds the list's final empty string
 * (or, leniently, nothing at all).
 */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(c) && \valid(c);
    requires \valid(out) && \valid(end);
    requires \separated(c, out, end, ctx);
    requires ctx->err == \null || \separated(ctx->err, c, out, end);
    assigns c->pos, *out, *end, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_valid(c);
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
    ensures c->pos >= \old(c->pos);
    ensures \result == PERFBUF_OK && !*end ==> c->pos > \old(c->pos);
*/
static perfbuf_status read_entry(pb_ctx *ctx, pb_cursor *c, perfbuf_name_entry *out, bool *end)
{
    *end = false;
    size_t at = c->pos;
    if (pb_cursor_remaining(c) == 0) {
        *end = true;
        return pb_anomaly(ctx, PERFBUF_ANOMALY_UNTERMINATED, PERFBUF_E_UNTERMINATED_STRING, at,
                          PBF_REG_MULTI_SZ_Terminator);
    }
    pb_cursor index_text = *c;
    size_t units;
    if (!next_string(c, &units)) {
        return pb_fail(ctx, PERFBUF_E_UNTERMINATED_STRING, at, PBF_NAME_TABLE_ENTRY_Index);
    }
    if (units == 0) {
        *end = true;
        return PERFBUF_OK;
    }
    uint32_t value;
    if (!parse_index(index_text, units, &value)) {
        return pb_fail(ctx, PERFBUF_E_INVALID_NUMBER, at, PBF_NAME_TABLE_ENTRY_Index);
    }
    size_t text_at = c->pos;
    size_t text_units;
    bool terminated = next_string(c, &text_units);
    if (text_units == 0) {
        /* An empty string here ends the list: the index has no text. */
        return pb_fail(ctx, PERFBUF_E_TRUNCATED, text_at, PBF_NAME_TABLE_ENTRY_Text);
    }
    if (!terminated) {
        perfbuf_status st = pb_anomaly(ctx, PERFBUF_ANOMALY_UNTERMINATED,
                                       PERFBUF_E_UNTERMINATED_STRING, text_at,
                                       PBF_NAME_TABLE_ENTRY_Text);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    out->title_index = value;
    out->offset = at;
    out->text_offset = text_at;
    out->text_units = text_units;
    return PERFBUF_OK;
}

/*
 * Every pair from c's position on, then the terminator, into *out: the
 * walk of perfbuf_names_parse.
 */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(c) && \valid(c) && c->start == 0;
    requires \valid(out) && \separated(out, ctx) && \separated(c, out, ctx);
    requires \separated(ctx->err, out, c);
    assigns c->pos, *out, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures \result == PERFBUF_OK ==> out->data == \old(c->bytes) && out->size <= \old(c->end);
    ensures \result == PERFBUF_OK ==> pb_names_table_ok(out);
*/
static perfbuf_status walk_table(pb_ctx *ctx, pb_cursor *c, perfbuf_name_table *out)
{
    perfbuf_name_table t = {0};
    t.ascending = true;
    bool have_previous = false;
    uint32_t previous = 0;
    /*@ loop invariant pb_valid(c) && pb_ctx_ok(ctx);
        loop invariant ctx->err == \at(ctx->err, Pre);
        loop invariant c->bytes == \at(c->bytes, Pre) && c->start == 0 &&
                       c->end == \at(c->end, Pre);
        loop assigns c->pos, ctx->anomalies, ctx->first_anomaly, *\at(ctx->err, Pre), t.ascending,
                     t.count, have_previous, previous;
        loop variant c->end - c->pos;
    */
    for (;;) {
        perfbuf_name_entry e = {0, 0, 0, 0};
        bool end;
        perfbuf_status st = read_entry(ctx, c, &e, &end);
        if (st != PERFBUF_OK) {
            return st;
        }
        if (end) {
            break;
        }
        /* Order is not a rule of the format: real Counter tables rise to
         * about 21096 and restart near 20544, about a hundred times a
         * table. It only decides whether lookups need a sort. */
        if (have_previous && e.title_index <= previous) {
            t.ascending = false;
        }
        if (have_previous && e.title_index == previous) {
            st = pb_anomaly(ctx, PERFBUF_ANOMALY_DUPLICATE, PERFBUF_E_DUPLICATE_ID, e.offset,
                            PBF_NAME_TABLE_ENTRY_Index);
            if (st != PERFBUF_OK) {
                return st;
            }
        }
        have_previous = true;
        previous = e.title_index;
        t.count++;
    }
    t.data = c->bytes;
    t.size = c->pos;
    if (pb_cursor_remaining(c) > 0) {
        perfbuf_status st = pb_anomaly(ctx, PERFBUF_ANOMALY_TRAILING_BYTES,
                                       PERFBUF_E_TRAILING_BYTES, c->pos, PBF_REG_MULTI_SZ_Terminator);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    t.anomalies = ctx->anomalies;
    t.first_anomaly = ctx->first_anomaly;
    //@ assert t.data == \at(c->bytes, Pre) && t.size <= \at(c->end, Pre);
    //@ assert \valid_read(t.data + (0 .. t.size - 1));
    *out = t;
    return PERFBUF_OK;
}

/*
 * The bytes perfbuf_names_parse's argument checks let through: *out is
 * emptied, then filled by the walk.
 */
/*@ requires pb_ctx_ok(ctx);
    requires \valid_read(bytes + (0 .. size - 1));
    requires \valid(out) && \separated(out, ctx);
    requires ctx->err == \null || \separated(ctx->err, out);
    assigns *out, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures \result == PERFBUF_OK ==>
        out->data == bytes && out->size <= size && pb_names_table_ok(out);
*/
static perfbuf_status parse_table(pb_ctx *ctx, const uint8_t *bytes, size_t size,
                                  perfbuf_name_table *out)
{
    perfbuf_name_table zero = {0};
    *out = zero;
    if (size % 2 != 0) {
        return pb_fail(ctx, PERFBUF_E_ODD_LENGTH, 0, PBF_REG_MULTI_SZ_Length);
    }
    pb_cursor c = pb_cursor_make(bytes, size);
    return walk_table(ctx, &c, out);
}

/*@ requires data == \null || \valid_read((const uint8_t *)data + (0 .. size - 1));
    requires opts == \null || \valid_read(opts);
    requires out == \null || \valid(out);
    requires err == \null || \valid(err);
    requires out == \null || err == \null || \separated(out, err);
    assigns *out, *err;
    ensures \result == PERFBUF_OK ==>
        out->data == (const uint8_t *)data && out->size <= size && pb_names_table_ok(out);
*/
perfbuf_status perfbuf_names_parse(const void *data, size_t size, const perfbuf_options *opts,
                                   perfbuf_name_table *out, perfbuf_error *err)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, opts, err);
    if (pb_check_arguments(&ctx, data, size, out) != PERFBUF_OK) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    return parse_table(&ctx, (const uint8_t *)data, size, out);
}

/* The views read [pos, end) of a parsed table through this; its contract
 * says it writes nothing, without which WP would let it write anything, the
 * caller's iterator and outputs included. */
/*@ requires pb_names_table_ok((perfbuf_name_table *)t);
    assigns \nothing;
    ensures pb_valid_view(\result);
*/
static pb_cursor window(const perfbuf_name_table *t, size_t pos, size_t end)
{
    return pb_window(t->data, t->size, pos, end);
}

/*@ requires \valid_read(t) && \valid(it);
    assigns *it;
    ensures it->pos == 0 && it->next == 0 && it->count == t->count;
*/
void perfbuf_names_begin(const perfbuf_name_table *t, perfbuf_names_iter *it)
{
    it->pos = 0;
    it->next = 0;
    it->count = t->count;
}

/*@ requires pb_names_table_ok((perfbuf_name_table *)t);
    requires \valid(it) && \valid(out);
    requires \separated(t, it, out);
    assigns *it, *out;
    ensures it->count == \old(it->count);
    ensures \result ==> \old(it->next) < it->count && it->next == \old(it->next) + 1;
    ensures !\result ==> it->next >= \old(it->next);
*/
bool perfbuf_names_next(const perfbuf_name_table *t, perfbuf_names_iter *it,
                        perfbuf_name_entry *out)
{
    if (it->next >= it->count) {
        return false;
    }
    pb_ctx ctx;
    pb_ctx_init(&ctx, NULL, NULL);
    pb_cursor c = window(t, it->pos, t->size);
    bool end;
    if (read_entry(&ctx, &c, out, &end) != PERFBUF_OK || end) {
        /* An iterator of another table: nothing to read. */
        it->next = it->count;
        return false;
    }
    it->next++;
    it->pos = c.pos;
    return true;
}

/*@ requires t == \null || pb_names_table_ok((perfbuf_name_table *)t);
    requires e == \null || \valid_read(e);
    requires out == \null || \valid(out + (0 .. cap - 1));
    requires len == \null || \valid(len);
    requires \separated(out + (0 .. cap - 1), len);
    assigns out[0 .. cap - 1], *len;
*/
perfbuf_status perfbuf_names_text_utf8(const perfbuf_name_table *t, const perfbuf_name_entry *e,
                                       char *out, size_t cap, size_t *len)
{
    if (t == NULL || e == NULL || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    return pb_view_utf16_to_utf8(t->data, t->size, e->text_offset, e->text_units, out, cap, len);
}

/*@ requires t == \null || pb_names_table_ok((perfbuf_name_table *)t);
    requires out == \null || \valid(out);
    requires t == \null || out == \null || \separated(t, out);
    assigns *out;
*/
perfbuf_status perfbuf_names_find(const perfbuf_name_table *t, uint32_t title_index,
                                  perfbuf_name_entry *out)
{
    if (t == NULL || out == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_names_iter it;
    perfbuf_names_begin(t, &it);
    /*@ loop invariant it.next <= it.count;
        loop assigns it, *out;
        loop variant it.count - it.next;
    */
    while (perfbuf_names_next(t, &it, out)) {
        if (out->title_index == title_index) {
            return PERFBUF_OK;
        }
    }
    return PERFBUF_E_NOT_FOUND;
}

/* Slots order by index, then by position, so the first of duplicates
 * comes first. */
/*@ requires \valid_read(a) && \valid_read(b);
    assigns \nothing;
*/
static bool slot_less(const perfbuf_name_slot *a, const perfbuf_name_slot *b)
{
    return a->title_index < b->title_index ||
           (a->title_index == b->title_index && a->offset < b->offset);
}

/*@ requires n <= UINT32_MAX && root < n;
    requires \valid(s + (0 .. n - 1));
    assigns s[0 .. n - 1];
*/
static void sift_down(perfbuf_name_slot *s, size_t root, size_t n)
{
    /*@ loop invariant root < n;
        loop assigns root, s[0 .. n - 1];
        loop variant n - root;
    */
    for (;;) {
        PB_WORK(1);
        size_t child = 2 * root + 1;
        if (child >= n) {
            return;
        }
        if (child + 1 < n && slot_less(&s[child], &s[child + 1])) {
            child++;
        }
        if (!slot_less(&s[root], &s[child])) {
            return;
        }
        perfbuf_name_slot tmp = s[root];
        s[root] = s[child];
        s[child] = tmp;
        root = child;
    }
}

/* Heapsort: O(n log n), constant stack, no recursion. */
/*@ requires n <= UINT32_MAX;
    requires \valid(s + (0 .. n - 1));
    assigns s[0 .. n - 1];
*/
static void sort_slots(perfbuf_name_slot *s, size_t n)
{
    /*@ loop invariant 0 <= i <= n / 2;
        loop assigns i, s[0 .. n - 1];
        loop variant i;
    */
    for (size_t i = n / 2; i > 0; i--) {
        PB_WORK(1);
        sift_down(s, i - 1, n);
    }
    /*@ loop invariant end <= n;
        loop assigns end, s[0 .. n - 1];
        loop variant end;
    */
    for (size_t end = n; end > 1; end--) {
        PB_WORK(1);
        perfbuf_name_slot tmp = s[0];
        s[0] = s[end - 1];
        s[end - 1] = tmp;
        sift_down(s, 0, end - 1);
    }
}

/*@ requires t == \null || pb_names_table_ok((perfbuf_name_table *)t);
    requires out == \null || \valid(out);
    requires slots == \null || \valid(slots + (0 .. cap - 1));
    requires t == \null || \separated(slots + (0 .. cap - 1), t);
    requires out == \null || \separated(slots + (0 .. cap - 1), out);
    requires t == \null || out == \null || \separated(t, out);
    assigns slots[0 .. cap - 1], *out;
    ensures \result == PERFBUF_OK ==> out->slots == slots && out->count <= cap;
*/
perfbuf_status perfbuf_names_index_build(const perfbuf_name_table *t, perfbuf_name_slot *slots,
                                         size_t cap, perfbuf_name_index *out)
{
    if (t == NULL || out == NULL || (slots == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (t->count > cap) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    perfbuf_names_iter it;
    perfbuf_name_entry e;
    uint32_t n = 0;
    perfbuf_names_begin(t, &it);
    /*@ loop invariant it.count == t->count && it.next <= it.count;
        loop invariant n == it.next;
        loop assigns it, e, n, slots[0 .. cap - 1];
        loop variant it.count - it.next;
    */
    while (perfbuf_names_next(t, &it, &e)) {
        slots[n].title_index = e.title_index;
        slots[n].offset = e.offset;
        n++;
    }
    if (!t->ascending) {
        sort_slots(slots, n);
    }
    uint32_t duplicates = 0;
    /*@ loop invariant 1 <= i && (n >= 1 ==> i <= n);
        loop assigns i, duplicates;
        loop variant n - i;
    */
    for (uint32_t i = 1; i < n; i++) {
        PB_WORK(1);
        if (slots[i].title_index == slots[i - 1].title_index) {
            duplicates++;
        }
    }
    out->slots = slots;
    out->count = n;
    out->duplicates = duplicates;
    return PERFBUF_OK;
}

/*@ requires t == \null || pb_names_table_ok((perfbuf_name_table *)t);
    requires index == \null ||
        (\valid_read(index) && \valid_read(index->slots + (0 .. index->count - 1)));
    requires out == \null || \valid(out);
    requires out == \null || t == \null || \separated(out, t);
    requires out == \null || index == \null || \separated(out, index);
    assigns *out;
*/
perfbuf_status perfbuf_names_index_find(const perfbuf_name_table *t,
                                        const perfbuf_name_index *index, uint32_t title_index,
                                        perfbuf_name_entry *out)
{
    if (t == NULL || index == NULL || out == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    /* Lower bound: the first slot whose index is not below title_index. */
    size_t lo = 0;
    size_t hi = index->count;
    /*@ loop invariant 0 <= lo <= hi <= index->count;
        loop assigns lo, hi;
        loop variant hi - lo;
    */
    while (lo < hi) {
        PB_WORK(1);
        size_t mid = lo + (hi - lo) / 2;
        if (index->slots[mid].title_index < title_index) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == index->count || index->slots[lo].title_index != title_index) {
        return PERFBUF_E_NOT_FOUND;
    }
    if (index->slots[lo].offset >= t->size) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    pb_ctx ctx;
    pb_ctx_init(&ctx, NULL, NULL);
    pb_cursor c = window(t, index->slots[lo].offset, t->size);
    bool end;
    /* Slots come from the caller's memory: a tampered offset is re-checked
     * here like any other input, never trusted. */
    if (read_entry(&ctx, &c, out, &end) != PERFBUF_OK || end ||
        out->title_index != title_index) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    return PERFBUF_OK;
}
