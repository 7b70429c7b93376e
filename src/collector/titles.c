/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Title text -> title index over a caller-built index (perfbuf/resolve.h).
 *
 * The sort is a bottom-up merge sort rather than a heapsort: in a merge,
 * every comparison outputs the entry it is charged to and stops at the
 * first difference, so a pass costs at most the table's text units plus
 * one per entry, and the whole sort O(bytes * log n) on any texts. A
 * heapsort compares the same deep entries again and again, so texts that
 * share long prefixes would give it no such bound.
 */
#include "perfbuf/resolve.h"

#include "core/check.h"
#include "core/text.h"
#include "core/work.h"
#include "collector/fold.h"

uint16_t pb_fold_unit(uint16_t u)
{
    if (u >= 0x41u && u <= 0x5Au) {
        return (uint16_t)(u + 0x20u);
    }
    if (u < 0xC0u) {
        return u;
    }
    if (u <= 0xDEu) {
        return u == 0xD7u ? u : (uint16_t)(u + 0x20u);
    }
    if (u < 0x100u || u > 0x17Fu) {
        return u;
    }
    /* Latin Extended-A: capital/small pairs, capital even in two runs and
     * odd in two; the dotted/dotless i, kra, n-apostrophe and long s have
     * no simple pair and stay as they are. */
    if (u == 0x130u || u == 0x131u || u == 0x138u || u == 0x149u || u == 0x17Fu) {
        return u;
    }
    if (u == 0x178u) {
        return 0xFFu;
    }
    if (u <= 0x137u || (u >= 0x14Au && u <= 0x177u)) {
        return (uint16_t)(u | 1u);
    }
    return (u & 1u) != 0 ? (uint16_t)(u + 1u) : u;
}

bool pb_utf8_valid(const char *utf8, size_t len)
{
    if (utf8 == NULL) {
        return len == 0;
    }
    pb_cursor c = pb_cursor_make((const uint8_t *)utf8, len);
    for (;;) {
        uint32_t cp;
        pb_utf8_result r = pb_utf8_decode(&c, &cp);
        if (r == PB_UTF8_END) {
            return true;
        }
        if (r == PB_UTF8_INVALID) {
            return false;
        }
    }
}

static int order(uint16_t a, uint16_t b)
{
    uint16_t fa = pb_fold_unit(a);
    uint16_t fb = pb_fold_unit(b);
    return fa < fb ? -1 : fa > fb ? 1 : 0;
}

int pb_fold_compare_utf16(pb_cursor a, pb_cursor b)
{
    /* Each step reads through the cursor, which counts the work. */
    for (;;) {
        uint16_t ua = 0;
        uint16_t ub = 0;
        bool more_a = pb_cursor_read_u16(&a, &ua);
        bool more_b = pb_cursor_read_u16(&b, &ub);
        if (!more_a || !more_b) {
            return more_a ? 1 : more_b ? -1 : 0;
        }
        int o = order(ua, ub);
        if (o != 0) {
            return o;
        }
    }
}

/* The UTF-16 units of valid UTF-8, one at a time. */
typedef struct utf8_units {
    pb_cursor c;
    uint16_t pending;     /* a low surrogate still to give, or 0 */
} utf8_units;

static bool next_unit(utf8_units *s, uint16_t *u)
{
    if (s->pending != 0) {
        *u = s->pending;
        s->pending = 0;
        return true;
    }
    uint32_t cp;
    if (pb_utf8_decode(&s->c, &cp) != PB_UTF8_OK) {
        return false;
    }
    if (cp >= 0x10000u) {
        cp -= 0x10000u;
        *u = (uint16_t)(0xD800u + (cp >> 10));
        s->pending = (uint16_t)(0xDC00u + (cp & 0x3FFu));
    } else {
        *u = (uint16_t)cp;
    }
    return true;
}

int pb_fold_compare_utf8(pb_cursor a, const char *utf8, size_t len)
{
    utf8_units s = {pb_cursor_make((const uint8_t *)utf8, utf8 == NULL ? 0 : len), 0};
    /* Each step reads through the cursor, which counts the work. */
    for (;;) {
        uint16_t ua = 0;
        uint16_t ub = 0;
        bool more_a = pb_cursor_read_u16(&a, &ua);
        bool more_b = next_unit(&s, &ub);
        if (!more_a || !more_b) {
            return more_a ? 1 : more_b ? -1 : 0;
        }
        int o = order(ua, ub);
        if (o != 0) {
            return o;
        }
    }
}

/* A slot's text, bounds-checked again: slots are caller memory. A slot
 * that does not fit the table reads as empty text. */
static pb_cursor slot_text(const perfbuf_name_table *t, const perfbuf_title_slot *s)
{
    size_t bytes;
    size_t end;
    if (!pb_mul(s->text_units, 2, &bytes) || !pb_add(s->text_offset, bytes, &end)) {
        return pb_cursor_make(NULL, 0);
    }
    return pb_window(t->data, t->size, s->text_offset, end);
}

size_t perfbuf_title_index_slots(const perfbuf_name_table *t)
{
    return t == NULL ? 0 : 2u * (size_t)t->count;
}

/* Merges the runs [lo, mid) and [mid, hi) of src into dst; stable. */
static void merge(const perfbuf_name_table *t, const perfbuf_title_slot *src,
                  perfbuf_title_slot *dst, size_t lo, size_t mid, size_t hi)
{
    size_t i = lo;
    size_t j = mid;
    for (size_t k = lo; k < hi; k++) {
        PB_WORK(1);
        bool take_left = j >= hi || (i < mid && pb_fold_compare_utf16(slot_text(t, &src[i]),
                                                                      slot_text(t, &src[j])) <= 0);
        dst[k] = take_left ? src[i++] : src[j++];
    }
}

perfbuf_status perfbuf_title_index_build(const perfbuf_name_table *t, perfbuf_title_slot *slots,
                                         size_t cap, perfbuf_title_index *out)
{
    if (t == NULL || out == NULL || (slots == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    size_t n = t->count;
    if (cap / 2 < n) {
        return PERFBUF_E_OUTPUT_TOO_SMALL;
    }
    perfbuf_names_iter it;
    perfbuf_name_entry e;
    size_t filled = 0;
    perfbuf_names_begin(t, &it);
    while (filled < n && perfbuf_names_next(t, &it, &e)) {
        perfbuf_title_slot s = {e.text_offset, e.text_units, e.title_index};
        slots[filled++] = s;
    }
    n = filled;
    perfbuf_title_slot *src = slots;
    /* The second half is the scratch. An empty table may come with no
     * slots at all (NULL, cap 0), and NULL + 0 is undefined in C. */
    perfbuf_title_slot *dst = n == 0 ? slots : slots + n;
    for (size_t width = 1; width < n; width = width > n / 2 ? n : 2 * width) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            PB_WORK(1);
            size_t mid = n - lo > width ? lo + width : n;
            size_t hi = n - mid > width ? mid + width : n;
            merge(t, src, dst, lo, mid, hi);
        }
        perfbuf_title_slot *swap = src;
        src = dst;
        dst = swap;
    }
    if (src != slots) {
        for (size_t k = 0; k < n; k++) {
            PB_WORK(1);
            slots[k] = src[k];
        }
    }
    out->table = t;
    out->slots = slots;
    out->count = (uint32_t)n;
    return PERFBUF_OK;
}

/* The first slot whose text is not below the name (or, with `after`,
 * is above it). */
static size_t bound(const perfbuf_title_index *ix, const char *utf8, size_t len, bool after)
{
    size_t lo = 0;
    size_t hi = ix->count;
    while (lo < hi) {
        PB_WORK(1);
        size_t mid = lo + (hi - lo) / 2;
        int o = pb_fold_compare_utf8(slot_text(ix->table, &ix->slots[mid]), utf8, len);
        if (o < 0 || (after && o == 0)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

perfbuf_status perfbuf_title_index_find(const perfbuf_title_index *index, const char *utf8,
                                        size_t len, uint32_t *first, uint32_t *count)
{
    if (index == NULL || index->table == NULL || (index->slots == NULL && index->count != 0) ||
        first == NULL || count == NULL || (utf8 == NULL && len != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    *first = 0;
    *count = 0;
    if (!pb_utf8_valid(utf8, len)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    size_t lo = bound(index, utf8, len, false);
    size_t hi = bound(index, utf8, len, true);
    if (hi <= lo) {
        return PERFBUF_E_NOT_FOUND;
    }
    *first = (uint32_t)lo;
    *count = (uint32_t)(hi - lo);
    return PERFBUF_OK;
}

bool perfbuf_title_equals_utf8(const perfbuf_name_table *t, const perfbuf_name_entry *e,
                               const char *utf8, size_t len)
{
    if (t == NULL || e == NULL || (utf8 == NULL && len != 0) || !pb_utf8_valid(utf8, len)) {
        return false;
    }
    perfbuf_title_slot s = {e->text_offset, e->text_units, e->title_index};
    return pb_fold_compare_utf8(slot_text(t, &s), utf8, len) == 0;
}
