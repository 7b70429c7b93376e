/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The counter-path calls' work grows linearly with the path: a path whose
 * every part is n bytes long costs at most 9 times as much at 8n as at n
 * (parse, format, name and instance matches). Linked with the counted
 * build, whose work counter the library's loops advance.
 */
#include <stdint.h>

#include "harness.h"
#include "perfbuf/paths.h"
#include "core/work.h"

/* "\\M..\O..(P../I..*)\C.." with every part n bytes: prefix instance,
 * the form whose matcher compares the longest. */
static size_t build(char *buf, size_t n)
{
    size_t len = 0;
    const char *seps[] = {"\\\\", "\\", "(", "/", ")\\"};
    const char fill[] = {'m', 'o', 'p', 'i', 'c'};
    for (size_t part = 0; part < 5; part++) {
        for (const char *s = seps[part]; *s != '\0'; s++) {
            buf[len++] = *s;
        }
        for (size_t i = 0; i < n; i++) {
            buf[len++] = fill[part];
        }
        if (part == 3) {
            buf[len - 1] = '*';
        }
    }
    return len;
}

static uint64_t work_of(size_t n)
{
    static char path[8 * 5 * 128 + 16];
    static char name[8 * 128];
    static char out[sizeof path + 1];
    size_t len = build(path, n);
    memset(name, 'i', n);
    perfbuf_counter_path p;
    size_t written = 0;
    pb_work_units = 0;
    if (perfbuf_path_parse(path, len, &p, NULL) != PERFBUF_OK ||
        perfbuf_path_format(&p, out, sizeof out, &written) != PERFBUF_OK ||
        !perfbuf_path_name_matches(&p, PERFBUF_PATH_INSTANCE, name, n) ||
        !perfbuf_path_instance_matches(&p, path + p.parent.offset, p.parent.length, name, n, 3)) {
        return UINT64_MAX;
    }
    return pb_work_units;
}

static void work_grows_linearly_with_part_length(void)
{
    /* Parts of 128 bytes fit every limit; 8 times 16 is the base. */
    uint64_t small = work_of(16);
    uint64_t large = work_of(128);
    CHECK(small != UINT64_MAX && large != UINT64_MAX);
    CHECK(small > 0);
    CHECK(large <= 9 * small);
    /* And the count does grow with n, so the bound above says something. */
    CHECK(large >= 4 * small);
}

static const th_case cases[] = {
    TH_CASE(work_grows_linearly_with_part_length),
};
TH_MAIN(cases)
