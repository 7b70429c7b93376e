/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Counter paths from arbitrary bytes. Oracles: a success has every span
 * inside the input and exactly its part's flags; formatting the parts
 * gives a text that parses back to the same parts, and every smaller
 * output buffer a NUL-terminated prefix of it with the exact size needed;
 * each part matches its own text; a rejection's offset lies inside
 * [0, size] and names a part; and every call stays inside the work budget
 * of the bytes it is given.
 */
#include <stdbool.h>
#include <string.h>

#include "oracle.h"
#include "perfbuf/paths.h"

#define MAX_PATH_BYTES 8192

static bool same_text(const perfbuf_counter_path *a, perfbuf_span sa,
                      const perfbuf_counter_path *b, perfbuf_span sb)
{
    return sa.length == sb.length &&
           (sa.length == 0 || memcmp(a->text + sa.offset, b->text + sb.offset, sa.length) == 0);
}

static void check_part(const perfbuf_counter_path *p, perfbuf_path_part part, perfbuf_span s,
                       bool present, size_t size)
{
    ORACLE(oracle_inside(s.offset, s.length, size));
    ORACLE(present ? s.length > 0 : (s.length == 0 && s.offset == 0));
    if (present) {
        bool m;
        BUDGETED(s.length, m = perfbuf_path_name_matches(p, part, p->text + s.offset, s.length));
        ORACLE(m);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_PATH_BYTES) {
        return 0;
    }
    const char *text = (const char *)data;
    perfbuf_counter_path p;
    perfbuf_error err = {0};
    perfbuf_status st;
    BUDGETED(size, st = perfbuf_path_parse(text, size, &p, &err));
    if (st != PERFBUF_OK) {
        oracle_rejection(st, &err, size);
        ORACLE(st != PERFBUF_E_INVALID_ARGUMENT && st != PERFBUF_E_OUTPUT_TOO_SMALL);
        ORACLE(p.flags == 0 && p.text == NULL);
        return 0;
    }
    uint32_t f = p.flags;
    ORACLE(p.text == text && p.text_len == size);
    check_part(&p, PERFBUF_PATH_MACHINE, p.machine, (f & PERFBUF_PATH_HAS_MACHINE) != 0, size);
    check_part(&p, PERFBUF_PATH_OBJECT, p.object, true, size);
    check_part(&p, PERFBUF_PATH_PARENT, p.parent, (f & PERFBUF_PATH_HAS_PARENT) != 0, size);
    check_part(&p, PERFBUF_PATH_INSTANCE, p.instance, (f & PERFBUF_PATH_HAS_INSTANCE) != 0, size);
    check_part(&p, PERFBUF_PATH_COUNTER, p.counter, true, size);
    ORACLE((f & PERFBUF_PATH_HAS_INDEX) != 0 || p.index == 0);
    ORACLE((f & PERFBUF_PATH_PARENT_WILDCARD) == 0 || p.parent.length == 1);
    ORACLE((f & PERFBUF_PATH_INSTANCE_WILDCARD) == 0 || p.instance.length == 1);
    ORACLE((f & PERFBUF_PATH_COUNTER_WILDCARD) == 0 || p.counter.length == 1);
    ORACLE((f & PERFBUF_PATH_INSTANCE_PREFIX) == 0 ||
           (p.instance.length > 1 && text[p.instance.offset + p.instance.length - 1] == '*'));

    static char out[MAX_PATH_BYTES + 64];
    size_t len = 0;
    BUDGETED(size + sizeof out, st = perfbuf_path_format(&p, out, sizeof out, &len));
    ORACLE(st == PERFBUF_OK && len < sizeof out && out[len] == '\0');
    /* One spelling per set of parts: the text comes back as it was. */
    ORACLE(len == size && memcmp(out, text, size) == 0);
    perfbuf_counter_path q;
    BUDGETED(len, st = perfbuf_path_parse(out, len, &q, &err));
    ORACLE(st == PERFBUF_OK && q.flags == p.flags && q.index == p.index);
    ORACLE(same_text(&p, p.machine, &q, q.machine) && same_text(&p, p.object, &q, q.object) &&
           same_text(&p, p.parent, &q, q.parent) && same_text(&p, p.instance, &q, q.instance) &&
           same_text(&p, p.counter, &q, q.counter));

    /* Cut outputs: a prefix on a character boundary, and the size needed. */
    for (size_t cap = 0; cap <= len && cap < 48; cap++) {
        char part[48];
        size_t need = 0;
        BUDGETED(cap, st = perfbuf_path_format(&p, cap ? part : NULL, cap, &need));
        ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL && need == len);
        if (cap > 0) {
            size_t got = strlen(part);
            ORACLE(got < cap && memcmp(part, out, got) == 0);
            ORACLE(got == len || ((uint8_t)out[got] & 0xC0u) != 0x80u);
        }
    }

    bool m;
    BUDGETED(size, m = perfbuf_path_instance_matches(&p, text + p.parent.offset, p.parent.length,
                                                     text + p.instance.offset, p.instance.length,
                                                     p.index));
    ORACLE(m == ((f & PERFBUF_PATH_HAS_INSTANCE) != 0));
    return 0;
}
