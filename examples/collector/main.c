/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* collector OLDER NEWER ENGLISH_TABLE: PDH's query on two V1 captures (docs/collector.md) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfbuf/query.h>
static perfbuf_error err; /* every call says here where and why it failed */
static void *load(const char *name, size_t *len)
{
    FILE *f = fopen(name, "rb");
    long size = f != NULL && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    void *buf = size >= 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)size + 1) : NULL;
    if (buf == NULL || (*len = fread(buf, 1, (size_t)size, f)) != (size_t)size) {
        fprintf(stderr, "collector: %s: cannot read the file\n", name);
        exit(2);
    }
    return buf; /* the FILE closes at exit */
}
static void check(perfbuf_status st, const char *what)
{
    if (st != PERFBUF_OK) {
        fprintf(stderr, "collector: %s: at %zu: %s (%s.%s)\n", what, err.offset,
                perfbuf_status_name(st), err.structure ? err.structure : "",
                err.field ? err.field : "");
        exit(1);
    }
}
int main(int argc, char **argv)
{
    const char *path[2] = {"\\Process(*)\\% Processor Time",
                           "\\Processor(_Total)\\% Processor Time"};
    static perfbuf_formatted_item items[4096]; /* more: OUTPUT_TOO_SMALL, exit 1 */
    static perfbuf_query_instance exited[4096];
    static char names[1 << 16];
    size_t len, need = 0, n = 4096, gone = 4096, bytes = sizeof names;
    perfbuf_query q;
    perfbuf_query_counter counter[2] = {0}; /* zeroed: owned by no query yet */
    void *data = argc == 4 ? load(argv[3], &len) : NULL, *arena = NULL;
    check(data ? perfbuf_query_open(&q, data, len, NULL, 0, &err) : PERFBUF_E_INVALID_ARGUMENT,
          "usage: collector OLDER NEWER ENGLISH_TABLE");
    check(perfbuf_query_add(&q, &counter[0], path[0], strlen(path[0]), &err), path[0]);
    check(perfbuf_query_add(&q, &counter[1], path[1], strlen(path[1]), &err), path[1]);
    for (int i = 1; i <= 2; i++) { /* the capture's buffer is free again after each call */
        data = load(argv[i], &len);
        while (perfbuf_query_collect(&q, data, len, &need, &err) == PERFBUF_E_OUTPUT_TOO_SMALL) {
            check(perfbuf_query_arena(&q, arena = realloc(arena, need), &need, &err), "arena");
        }
        check(err.status, argv[i]);
    }
    for (int c = 0; c < 2; c++, n = 4096, bytes = sizeof names) {
        check(perfbuf_query_formatted_array(&q, &counter[c], PERFBUF_FMT_DOUBLE, items, &n, names,
                                            &bytes, &err),
              path[c]);
        for (size_t k = 0; k < n; k++) {
            printf("%s %.3f %s\n", items[k].name, items[k].value.as_double,
                   perfbuf_cstatus_name(items[k].value.status));
        }
    }
    check(perfbuf_query_instances(&q, &counter[0], PERFBUF_QUERY_EXITED, exited, &gone, names,
                                  &bytes, &err),
          "exited");
    for (size_t k = 0; k < gone; k++) {
        printf("exited: %s\n", exited[k].name);
    }
    return 0;
}
