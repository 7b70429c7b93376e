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

/* The next NUL-terminated string: *units before the NUL; false if the
 * bytes end first (then *units counts what is there). */
static bool next_string(pb_cursor *c, size_t *units)
{
    size_t n = 0;
    uint16_t u;
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
static bool parse_index(pb_cursor s, size_t units, uint32_t *value)
{
    uint32_t v = 0;
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

perfbuf_status perfbuf_names_parse(const void *data, size_t size, const perfbuf_options *opts,
                                   perfbuf_name_table *out, perfbuf_error *err)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, opts, err);
    if (pb_check_arguments(&ctx, data, size, out) != PERFBUF_OK) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_name_table zero = {0};
    *out = zero;
    if (size % 2 != 0) {
        return pb_fail(&ctx, PERFBUF_E_ODD_LENGTH, 0, PBF_REG_MULTI_SZ_Length);
    }
    pb_cursor c = pb_cursor_make((const uint8_t *)data, size);
    perfbuf_name_table t = {0};
    t.ascending = true;
    bool have_previous = false;
    uint32_t previous = 0;
    for (;;) {
        perfbuf_name_entry e = {0, 0, 0, 0};
        bool end;
        perfbuf_status st = read_entry(&ctx, &c, &e, &end);
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
            st = pb_anomaly(&ctx, PERFBUF_ANOMALY_DUPLICATE, PERFBUF_E_DUPLICATE_ID, e.offset,
                            PBF_NAME_TABLE_ENTRY_Index);
            if (st != PERFBUF_OK) {
                return st;
            }
        }
        have_previous = true;
        previous = e.title_index;
        t.count++;
    }
    if (pb_cursor_remaining(&c) > 0) {
        perfbuf_status st = pb_anomaly(&ctx, PERFBUF_ANOMALY_TRAILING_BYTES,
                                       PERFBUF_E_TRAILING_BYTES, c.pos, PBF_REG_MULTI_SZ_Terminator);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    t.data = (const uint8_t *)data;
    t.size = c.pos;
    t.anomalies = ctx.anomalies;
    t.first_anomaly = ctx.first_anomaly;
    *out = t;
    return PERFBUF_OK;
}

static pb_cursor window(const perfbuf_name_table *t, size_t pos, size_t end)
{
    return pb_window(t->data, t->size, pos, end);
}

void perfbuf_names_begin(const perfbuf_name_table *t, perfbuf_names_iter *it)
{
    it->pos = 0;
    it->next = 0;
    it->count = t->count;
}

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

perfbuf_status perfbuf_names_text_utf8(const perfbuf_name_table *t, const perfbuf_name_entry *e,
                                       char *out, size_t cap, size_t *len)
{
    if (t == NULL || e == NULL || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    return pb_view_utf16_to_utf8(t->data, t->size, e->text_offset, e->text_units, out, cap, len);
}

perfbuf_status perfbuf_names_find(const perfbuf_name_table *t, uint32_t title_index,
                                  perfbuf_name_entry *out)
{
    if (t == NULL || out == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    perfbuf_names_iter it;
    perfbuf_names_begin(t, &it);
    while (perfbuf_names_next(t, &it, out)) {
        if (out->title_index == title_index) {
            return PERFBUF_OK;
        }
    }
    return PERFBUF_E_NOT_FOUND;
}

/* Slots order by index, then by position, so the first of duplicates
 * comes first. */
static bool slot_less(const perfbuf_name_slot *a, const perfbuf_name_slot *b)
{
    return a->title_index < b->title_index ||
           (a->title_index == b->title_index && a->offset < b->offset);
}

static void sift_down(perfbuf_name_slot *s, size_t root, size_t n)
{
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
static void sort_slots(perfbuf_name_slot *s, size_t n)
{
    for (size_t i = n / 2; i > 0; i--) {
        PB_WORK(1);
        sift_down(s, i - 1, n);
    }
    for (size_t end = n; end > 1; end--) {
        PB_WORK(1);
        perfbuf_name_slot tmp = s[0];
        s[0] = s[end - 1];
        s[end - 1] = tmp;
        sift_down(s, 0, end - 1);
    }
}

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
    while (perfbuf_names_next(t, &it, &e)) {
        slots[n].title_index = e.title_index;
        slots[n].offset = e.offset;
        n++;
    }
    if (!t->ascending) {
        sort_slots(slots, n);
    }
    uint32_t duplicates = 0;
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
