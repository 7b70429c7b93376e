/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Counter paths on V2 metadata (perfbuf/resolve.h): a counterset by GUID or
 * name, its counters by registered name or id. Each candidate costs one
 * lookup and one comparison that stops at the first difference.
 */
#include "perfbuf/resolve.h"

#include "perfbuf/counter_types.h"

#include "core/check.h"
#include "core/work.h"
#include "collector/fold.h"

static bool span_inside(const perfbuf_counter_path *p, perfbuf_span s)
{
    return p->text != NULL && s.offset <= p->text_len && s.length <= p->text_len - s.offset;
}

static uint8_t ascii_lower(uint8_t b)
{
    return b >= 'A' && b <= 'Z' ? (uint8_t)(b + ('a' - 'A')) : b;
}

bool perfbuf_v2_counterset_matches(const perfbuf_v2_reginfo *r, const perfbuf_v2_string *name,
                                   const perfbuf_counter_path *path)
{
    if (r == NULL || path == NULL || !span_inside(path, path->object)) {
        return false;
    }
    const char *part = path->text + path->object.offset;
    size_t len = path->object.length;
    char guid[PERFBUF_GUID_STRING_SIZE];
    perfbuf_guid_format(&r->counterset, guid);
    if (len == PERFBUF_GUID_STRING_SIZE - 1) {
        bool same = true;
        for (size_t i = 0; i < len && same; i++) {
            PB_WORK(1);
            same = ascii_lower((uint8_t)part[i]) == ascii_lower((uint8_t)guid[i]);
        }
        if (same) {
            return true;
        }
    }
    if (name == NULL || name->data == NULL) {
        return false;
    }
    size_t bytes;
    if (!pb_mul(name->units, 2, &bytes)) {
        return false;
    }
    return pb_fold_compare_utf8(pb_window(name->data, name->size, 0, bytes), part, len) == 0;
}

/* The part as a decimal id: digits only, at most UINT32_MAX. */
static bool decimal_id(const char *text, size_t len, uint32_t *id)
{
    uint32_t v = 0;
    for (size_t i = 0; i < len; i++) {
        PB_WORK(1);
        uint8_t b = (uint8_t)text[i];
        if (b < '0' || b > '9') {
            return false;
        }
        uint32_t digit = (uint32_t)(b - '0');
        if (v > (UINT32_MAX - digit) / 10u) {
            return false;
        }
        v = v * 10u + digit;
    }
    *id = v;
    return len > 0;
}

static bool named(const perfbuf_v2_strings *names, uint32_t id, const char *text, size_t len)
{
    perfbuf_v2_counter_string str;
    if (names == NULL || perfbuf_v2_strings_find(names, id, &str) != PERFBUF_OK || !str.present) {
        return false;
    }
    size_t bytes;
    size_t end;
    if (!pb_mul(str.units, 2, &bytes) || !pb_add(str.text_offset, bytes, &end)) {
        return false;
    }
    return pb_fold_compare_utf8(pb_window(names->data, names->size, str.text_offset, end), text,
                                len) == 0;
}

perfbuf_status perfbuf_v2_resolve_counter(const perfbuf_v2_reginfo *r,
                                          const perfbuf_v2_strings *names,
                                          const perfbuf_counter_path *path, uint32_t *next,
                                          perfbuf_v2_counter_reg *out, perfbuf_error *err)
{
    if (r == NULL || path == NULL || next == NULL || out == NULL ||
        !span_inside(path, path->counter)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    const char *text = path->text + path->counter.offset;
    size_t len = path->counter.length;
    bool every = (path->flags & PERFBUF_PATH_COUNTER_WILDCARD) != 0;
    uint32_t id = 0;
    bool by_id = !every && decimal_id(text, len, &id);
    while (*next < r->counter_count) {
        PB_WORK(1);
        if (!perfbuf_v2_reginfo_counter(r, *next, out)) {
            break;
        }
        (*next)++;
        bool match = every ? perfbuf_counter_type_is_displayable(out->type)
                           : (by_id && out->id == id) || named(names, out->id, text, len);
        if (match) {
            return PERFBUF_OK;
        }
    }
    *next = r->counter_count;
    if (err != NULL) {
        pb_error_set(err, PERFBUF_E_NOT_FOUND, path->counter.offset, "COUNTER_PATH", "Counter");
    }
    return PERFBUF_E_NOT_FOUND;
}
