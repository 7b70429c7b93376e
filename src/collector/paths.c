/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Counter paths (docs/paths.md). The path is read through the cursor in a
 * fixed number of passes over disjoint or nested spans: one UTF-8 pass over
 * the whole string, then one search per delimiter, one count per part and
 * one wildcard search per part, so the work is linear in the path's bytes.
 */
#include "perfbuf/paths.h"

#include "core/check.h"
#include "core/cursor.h"
#include "core/text.h"
#include "core/work.h"

#define STRUCTURE "COUNTER_PATH"

static perfbuf_status fail(perfbuf_counter_path *out, perfbuf_error *err, perfbuf_status st,
                           size_t offset, const char *field)
{
    perfbuf_counter_path zero = {0};
    *out = zero;
    if (err != NULL) {
        pb_error_set(err, st, offset, STRUCTURE, field);
    }
    return st;
}

/* The first offset in [from, to) whose byte is in `set` (a NUL-terminated
 * list), or `to`. */
static size_t find_any(const pb_cursor *w, size_t from, size_t to, const char *set)
{
    pb_cursor s;
    if (to < from || !pb_cursor_slice(w, from, to - from, &s)) {
        return to;
    }
    uint8_t b;
    size_t at = s.pos;
    while (pb_cursor_read_u8(&s, &b)) {
        for (const char *p = set; *p != '\0'; p++) {
            PB_WORK(1);
            if ((uint8_t)*p == b) {
                return at;
            }
        }
        at = s.pos;
    }
    return to;
}

/* Callers pass offsets below the path's length, so at + 1 cannot wrap. */
static bool byte_is(const pb_cursor *w, size_t at, char want)
{
    const char set[2] = {want, '\0'};
    return find_any(w, at, at + 1, set) == at;
}

/*
 * Valid UTF-8 (RFC 3629: no overlongs, no surrogates, nothing above
 * U+10FFFF) without NUL, and at most PERFBUF_PATH_MAX_PATH UTF-16 units.
 */
static perfbuf_status check_text(pb_cursor c, size_t *bad)
{
    size_t units = 0;
    for (;;) {
        *bad = c.pos;
        uint32_t cp;
        pb_utf8_result r = pb_utf8_decode(&c, &cp);
        if (r == PB_UTF8_END) {
            return PERFBUF_OK;
        }
        if (r == PB_UTF8_INVALID || cp == 0) {
            return PERFBUF_E_PATH_ENCODING;
        }
        units += cp >= 0x10000u ? 2u : 1u;
        if (units > PERFBUF_PATH_MAX_PATH) {
            return PERFBUF_E_PATH_TOO_LONG;
        }
    }
}

/* The offset of the character that takes the span past `limit` UTF-16
 * units (PDH's unit), or SIZE_MAX when it fits. The text is valid UTF-8. */
static size_t over_limit(const pb_cursor *w, perfbuf_span sp, size_t limit)
{
    pb_cursor s;
    if (!pb_cursor_slice(w, sp.offset, sp.length, &s)) {
        return SIZE_MAX;
    }
    size_t units = 0;
    uint8_t b;
    size_t at = s.pos;
    while (pb_cursor_read_u8(&s, &b)) {
        if ((b & 0xC0u) != 0x80u) {
            units += b >= 0xF0u ? 2u : 1u;
            if (units > limit) {
                return at;
            }
        }
        at = s.pos;
    }
    return SIZE_MAX;
}

static perfbuf_span span(size_t from, size_t to)
{
    perfbuf_span s = {from, to - from};
    return s;
}

/* "#N": decimal, no sign, no leading zero, at most UINT32_MAX. */
static bool parse_index(const pb_cursor *w, size_t from, size_t to, uint32_t *value, size_t *bad)
{
    pb_cursor s;
    *bad = from;
    if (to <= from || !pb_cursor_slice(w, from, to - from, &s)) {
        return false;
    }
    uint32_t v = 0;
    uint8_t b;
    size_t at = s.pos;
    while (pb_cursor_read_u8(&s, &b)) {
        *bad = at;
        if (b < '0' || b > '9' || (at == from + 1 && v == 0)) {
            return false;
        }
        uint32_t digit = (uint32_t)(b - '0');
        if (v > (UINT32_MAX - digit) / 10u) {
            return false;
        }
        v = v * 10u + digit;
        at = s.pos;
    }
    *value = v;
    return true;
}

/* A part's wildcard: none, the whole part ("*"), or, where `prefix_ok`, a
 * trailing '*' after a name. Anything else is the offset of a misplaced '*'. */
enum { STAR_NONE, STAR_WHOLE, STAR_PREFIX, STAR_BAD };

static int star_kind(const pb_cursor *w, perfbuf_span sp, bool prefix_ok, size_t *bad)
{
    size_t end = sp.offset + sp.length;
    size_t s = find_any(w, sp.offset, end, "*");
    *bad = s;
    if (s == end) {
        return STAR_NONE;
    }
    if (sp.length == 1) {
        return STAR_WHOLE;
    }
    return prefix_ok && s == end - 1 ? STAR_PREFIX : STAR_BAD;
}

/* The parenthesised part [from, to): "parent/instance#N". */
static perfbuf_status parse_instance_part(const pb_cursor *w, size_t from, size_t to,
                                          perfbuf_counter_path *p, perfbuf_error *err)
{
    size_t bad;
    size_t name = from;
    size_t slash = find_any(w, from, to, "/");
    if (slash != to) {
        if (slash == from) {
            return fail(p, err, PERFBUF_E_PATH_EMPTY_PART, from, "Parent");
        }
        p->parent = span(from, slash);
        p->flags |= PERFBUF_PATH_HAS_PARENT;
        int k = star_kind(w, p->parent, false, &bad);
        if (k == STAR_BAD) {
            return fail(p, err, PERFBUF_E_PATH_WILDCARD, bad, "Parent");
        }
        if (k == STAR_WHOLE) {
            p->flags |= PERFBUF_PATH_PARENT_WILDCARD;
        }
        bad = over_limit(w, p->parent, PERFBUF_PATH_MAX_INSTANCE);
        if (bad != SIZE_MAX) {
            return fail(p, err, PERFBUF_E_PATH_TOO_LONG, bad, "Parent");
        }
        name = slash + 1;
    }
    size_t hash = find_any(w, name, to, "#");
    if (hash == name) {
        return fail(p, err, PERFBUF_E_PATH_EMPTY_PART, name, "Instance");
    }
    p->instance = span(name, hash);
    int k = star_kind(w, p->instance, true, &bad);
    if (k == STAR_BAD) {
        return fail(p, err, PERFBUF_E_PATH_WILDCARD, bad, "Instance");
    }
    if (k == STAR_WHOLE) {
        p->flags |= PERFBUF_PATH_INSTANCE_WILDCARD;
    } else if (k == STAR_PREFIX) {
        p->flags |= PERFBUF_PATH_INSTANCE_PREFIX;
    }
    bad = over_limit(w, p->instance, PERFBUF_PATH_MAX_INSTANCE);
    if (bad != SIZE_MAX) {
        return fail(p, err, PERFBUF_E_PATH_TOO_LONG, bad, "Instance");
    }
    if (hash != to) {
        /* An index picks one of several instances of one name; a
         * wildcard names many, so the two together select nothing. */
        if (k != STAR_NONE) {
            return fail(p, err, PERFBUF_E_PATH_WILDCARD, hash, "Index");
        }
        if (!parse_index(w, hash + 1, to, &p->index, &bad)) {
            return fail(p, err, PERFBUF_E_INVALID_NUMBER, bad, "Index");
        }
        p->flags |= PERFBUF_PATH_HAS_INDEX;
    }
    return PERFBUF_OK;
}

perfbuf_status perfbuf_path_parse(const char *utf8, size_t len, perfbuf_counter_path *out,
                                  perfbuf_error *err)
{
    perfbuf_counter_path scratch;
    if (out == NULL || (utf8 == NULL && len > 0)) {
        return fail(out != NULL ? out : &scratch, err, PERFBUF_E_INVALID_ARGUMENT, 0, "Path");
    }
    pb_cursor w = pb_cursor_make((const uint8_t *)utf8, len);
    perfbuf_counter_path p = {0};
    size_t bad = 0;
    perfbuf_status st = check_text(w, &bad);
    if (st != PERFBUF_OK) {
        return fail(out, err, st, bad, "Path");
    }
    if (!byte_is(&w, 0, '\\')) {
        return fail(out, err, PERFBUF_E_PATH_SYNTAX, 0, "Path");
    }
    size_t object = 1;
    if (byte_is(&w, 1, '\\')) {
        size_t end = find_any(&w, 2, len, "\\");
        if (end == len) {
            return fail(out, err, PERFBUF_E_PATH_SYNTAX, len, "Object");
        }
        if (end == 2) {
            return fail(out, err, PERFBUF_E_PATH_EMPTY_PART, 2, "Machine");
        }
        bad = find_any(&w, 2, end, "*()/#");
        if (bad != end) {
            return fail(out, err, byte_is(&w, bad, '*') ? PERFBUF_E_PATH_WILDCARD
                                                        : PERFBUF_E_PATH_SYNTAX,
                        bad, "Machine");
        }
        p.machine = span(2, end);
        bad = over_limit(&w, p.machine, PERFBUF_PATH_MAX_MACHINE);
        if (bad != SIZE_MAX) {
            return fail(out, err, PERFBUF_E_PATH_TOO_LONG, bad, "Machine");
        }
        p.flags |= PERFBUF_PATH_HAS_MACHINE;
        object = end + 1;
    }
    size_t stop = find_any(&w, object, len, "(\\)*");
    if (stop == len) {
        return fail(out, err, PERFBUF_E_PATH_SYNTAX, len, "Counter");
    }
    if (byte_is(&w, stop, ')')) {
        return fail(out, err, PERFBUF_E_PATH_SYNTAX, stop, "Object");
    }
    if (byte_is(&w, stop, '*')) {
        return fail(out, err, PERFBUF_E_PATH_WILDCARD, stop, "Object");
    }
    if (stop == object) {
        return fail(out, err, PERFBUF_E_PATH_EMPTY_PART, object, "Object");
    }
    p.object = span(object, stop);
    bad = over_limit(&w, p.object, PERFBUF_PATH_MAX_NAME);
    if (bad != SIZE_MAX) {
        return fail(out, err, PERFBUF_E_PATH_TOO_LONG, bad, "Object");
    }
    size_t counter = stop + 1;
    if (byte_is(&w, stop, '(')) {
        /* The instance part runs from the first '(' after the object to
         * the ')' that ends it right before the counter's '\'. */
        size_t sep = find_any(&w, counter, len, "\\");
        if (sep == len) {
            bool closed = len > counter && byte_is(&w, len - 1, ')');
            return fail(out, err, PERFBUF_E_PATH_SYNTAX, len, closed ? "Counter" : "Instance");
        }
        if (sep == counter || !byte_is(&w, sep - 1, ')')) {
            return fail(out, err, PERFBUF_E_PATH_SYNTAX, sep, "Instance");
        }
        if (sep - 1 == counter) {
            return fail(out, err, PERFBUF_E_PATH_EMPTY_PART, counter, "Instance");
        }
        p.flags |= PERFBUF_PATH_HAS_INSTANCE;
        st = parse_instance_part(&w, counter, sep - 1, &p, err);
        if (st != PERFBUF_OK) {
            *out = p;
            return st;
        }
        counter = sep + 1;
    }
    bad = find_any(&w, counter, len, "\\");
    if (bad != len) {
        return fail(out, err, PERFBUF_E_PATH_SYNTAX, bad, "Counter");
    }
    if (counter == len) {
        return fail(out, err, PERFBUF_E_PATH_EMPTY_PART, len, "Counter");
    }
    p.counter = span(counter, len);
    int k = star_kind(&w, p.counter, false, &bad);
    if (k == STAR_BAD) {
        return fail(out, err, PERFBUF_E_PATH_WILDCARD, bad, "Counter");
    }
    if (k == STAR_WHOLE) {
        p.flags |= PERFBUF_PATH_COUNTER_WILDCARD;
    }
    bad = over_limit(&w, p.counter, PERFBUF_PATH_MAX_NAME);
    if (bad != SIZE_MAX) {
        return fail(out, err, PERFBUF_E_PATH_TOO_LONG, bad, "Counter");
    }
    p.text = utf8;
    p.text_len = len;
    *out = p;
    return PERFBUF_OK;
}

static bool span_inside(const perfbuf_counter_path *p, perfbuf_span s)
{
    return s.offset <= p->text_len && s.length <= p->text_len - s.offset &&
           (p->text != NULL || s.length == 0);
}

static uint8_t lower(uint8_t b)
{
    return b >= 'A' && b <= 'Z' ? (uint8_t)(b + ('a' - 'A')) : b;
}

/* Whether the first n bytes of a and b agree, ASCII letters in any case. */
static bool same_ci(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        PB_WORK(1);
        if (lower((uint8_t)a[i]) != lower((uint8_t)b[i])) {
            return false;
        }
    }
    return true;
}

bool perfbuf_path_name_matches(const perfbuf_counter_path *path, perfbuf_path_part part,
                               const char *utf8, size_t len)
{
    if (path == NULL || path->text == NULL || (utf8 == NULL && len > 0)) {
        return false;
    }
    perfbuf_span s;
    bool present = true;
    bool whole = false;
    bool prefix = false;
    switch (part) {
    case PERFBUF_PATH_MACHINE:
        s = path->machine;
        present = (path->flags & PERFBUF_PATH_HAS_MACHINE) != 0;
        break;
    case PERFBUF_PATH_OBJECT:
        s = path->object;
        break;
    case PERFBUF_PATH_PARENT:
        s = path->parent;
        present = (path->flags & PERFBUF_PATH_HAS_PARENT) != 0;
        whole = (path->flags & PERFBUF_PATH_PARENT_WILDCARD) != 0;
        break;
    case PERFBUF_PATH_INSTANCE:
        s = path->instance;
        present = (path->flags & PERFBUF_PATH_HAS_INSTANCE) != 0;
        whole = (path->flags & PERFBUF_PATH_INSTANCE_WILDCARD) != 0;
        prefix = (path->flags & PERFBUF_PATH_INSTANCE_PREFIX) != 0;
        break;
    case PERFBUF_PATH_COUNTER:
        s = path->counter;
        whole = (path->flags & PERFBUF_PATH_COUNTER_WILDCARD) != 0;
        break;
    default:
        return false;
    }
    if (!present || !span_inside(path, s)) {
        return false;
    }
    if (whole) {
        return true;
    }
    if (prefix && s.length > 0) {
        size_t n = s.length - 1;
        return len >= n && same_ci(path->text + s.offset, utf8, n);
    }
    return len == s.length && same_ci(path->text + s.offset, utf8, len);
}

bool perfbuf_path_instance_matches(const perfbuf_counter_path *path, const char *parent,
                                   size_t parent_len, const char *instance, size_t instance_len,
                                   uint32_t index)
{
    if (path == NULL || (path->flags & PERFBUF_PATH_HAS_INSTANCE) == 0) {
        return false;
    }
    if ((path->flags & PERFBUF_PATH_HAS_PARENT) != 0 &&
        !perfbuf_path_name_matches(path, PERFBUF_PATH_PARENT, parent, parent_len)) {
        return false;
    }
    if (!perfbuf_path_name_matches(path, PERFBUF_PATH_INSTANCE, instance, instance_len)) {
        return false;
    }
    if ((path->flags & PERFBUF_PATH_HAS_INDEX) != 0) {
        return index == path->index;
    }
    if ((path->flags & (PERFBUF_PATH_INSTANCE_WILDCARD | PERFBUF_PATH_INSTANCE_PREFIX)) != 0) {
        return true;
    }
    return index == 0;
}

/* Writes while the output has room, then only counts; `cut` is where a
 * cut output ends: before the character the first byte that did not fit
 * belongs to. */
typedef struct path_writer {
    char *out;
    size_t cap;
    size_t pos;
    size_t lead;
    size_t cut;
    size_t needed;
    bool full;
} path_writer;

static void put_bytes(path_writer *w, const char *text, size_t n)
{
    w->needed = w->needed > SIZE_MAX - n ? SIZE_MAX : w->needed + n;
    for (size_t i = 0; i < n && !w->full; i++) {
        PB_WORK(1);
        uint8_t b = (uint8_t)text[i];
        bool continuation = (b & 0xC0u) == 0x80u;
        if (w->cap == 0 || w->pos >= w->cap - 1) {
            w->full = true;
            w->cut = continuation ? w->lead : w->pos;
            break;
        }
        if (!continuation) {
            w->lead = w->pos;
        }
        w->out[w->pos++] = (char)b;
    }
}

static void put_span(path_writer *w, const perfbuf_counter_path *p, perfbuf_span s)
{
    put_bytes(w, s.length > 0 ? p->text + s.offset : "", s.length);
}

perfbuf_status perfbuf_path_format(const perfbuf_counter_path *path, char *out, size_t cap,
                                   size_t *len)
{
    if (path == NULL || len == NULL || (out == NULL && cap > 0) ||
        !span_inside(path, path->machine) || !span_inside(path, path->object) ||
        !span_inside(path, path->parent) || !span_inside(path, path->instance) ||
        !span_inside(path, path->counter)) {
        if (len != NULL) {
            *len = 0;
        }
        if (out != NULL && cap > 0) {
            out[0] = '\0';
        }
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    path_writer w = {out, cap, 0, 0, 0, 0, false};
    uint32_t f = path->flags;
    if ((f & PERFBUF_PATH_HAS_MACHINE) != 0) {
        put_bytes(&w, "\\\\", 2);
        put_span(&w, path, path->machine);
    }
    put_bytes(&w, "\\", 1);
    put_span(&w, path, path->object);
    if ((f & PERFBUF_PATH_HAS_INSTANCE) != 0) {
        put_bytes(&w, "(", 1);
        if ((f & PERFBUF_PATH_HAS_PARENT) != 0) {
            put_span(&w, path, path->parent);
            put_bytes(&w, "/", 1);
        }
        put_span(&w, path, path->instance);
        if ((f & PERFBUF_PATH_HAS_INDEX) != 0) {
            char digits[11];
            size_t n = sizeof digits;
            uint32_t v = path->index;
            do {
                PB_WORK(1);
                digits[--n] = (char)('0' + v % 10u);
                v /= 10u;
            } while (v != 0);
            digits[--n] = '#';
            put_bytes(&w, digits + n, sizeof digits - n);
        }
        put_bytes(&w, ")", 1);
    }
    put_bytes(&w, "\\", 1);
    put_span(&w, path, path->counter);
    *len = w.needed;
    if (cap > 0) {
        out[w.full ? w.cut : w.pos] = '\0';
    }
    return w.full ? PERFBUF_E_OUTPUT_TOO_SMALL : PERFBUF_OK;
}
