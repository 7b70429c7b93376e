/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Two V1 captures in, one formatted value per instance out, as
 * PdhGetFormattedCounterArray gives them:
 *
 *   collector OLDER NEWER [OBJECT COUNTER [PATH]]
 *
 * OBJECT and COUNTER are title indexes (default 230 and 6: Process and
 * % Processor Time in Windows' English Counter table); PATH selects the
 * instances (default \Process(*)\% Processor Time). Try it on
 * corpus/captures/synthetic/v1-synthetic-processor-{0,1}.bin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfbuf/collector.h>

static unsigned char *read_file(const char *name, size_t *len)
{
    FILE *f = fopen(name, "rb");
    unsigned char *buf = malloc(64u << 20);
    *len = f != NULL && buf != NULL ? fread(buf, 1, 64u << 20, f) : 0;
    if (f != NULL) {
        fclose(f);
    }
    return buf;
}

static int fail(const char *what, perfbuf_status st)
{
    fprintf(stderr, "collector: %s: %s\n", what, perfbuf_status_string(st));
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 5 && argc != 6) {
        fprintf(stderr, "usage: collector OLDER NEWER [OBJECT COUNTER [PATH]]\n");
        return 2;
    }
    uint32_t object = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 230;
    uint32_t counter = argc > 3 ? (uint32_t)strtoul(argv[4], NULL, 10) : 6;
    const char *text = argc > 5 ? argv[5] : "\\Process(*)\\% Processor Time";
    size_t older_len, newer_len;
    unsigned char *older_data = read_file(argv[1], &older_len);
    unsigned char *newer_data = read_file(argv[2], &newer_len);

    /* The API use: parse, pair, size the array, fill it. */
    perfbuf_v1_block older, newer;
    perfbuf_counter_path path;
    perfbuf_status st;
    if ((st = perfbuf_v1_parse(older_data, older_len, NULL, &older, NULL)) != PERFBUF_OK ||
        (st = perfbuf_v1_parse(newer_data, newer_len, NULL, &newer, NULL)) != PERFBUF_OK) {
        return fail("parse", st);
    }
    if ((st = perfbuf_path_parse(text, strlen(text), &path, NULL)) != PERFBUF_OK) {
        return fail(text, st);
    }
    size_t slots = 0;
    if ((st = perfbuf_v1_pairing_scratch(&older, &newer, object, &slots)) != PERFBUF_OK) {
        return fail("object", st);
    }
    uint64_t *scratch = malloc(slots * sizeof *scratch);
    perfbuf_v1_pairing pairing;
    if ((st = perfbuf_v1_pair(&older, &newer, object, scratch, slots, &pairing)) != PERFBUF_OK) {
        return fail("pair", st);
    }
    size_t count = 0, bytes = 0;
    st = perfbuf_v1_formatted_array(&pairing, counter, &path, PERFBUF_FMT_DOUBLE, NULL, &count,
                                    NULL, &bytes);
    perfbuf_formatted_item *items = malloc((count + 1) * sizeof *items);
    char *names = malloc(bytes + 1);
    if (st == PERFBUF_E_OUTPUT_TOO_SMALL) {
        st = perfbuf_v1_formatted_array(&pairing, counter, &path, PERFBUF_FMT_DOUBLE, items,
                                        &count, names, &bytes);
    }
    if (st != PERFBUF_OK) {
        return fail("array", st);
    }
    for (size_t i = 0; i < count; i++) {
        if (PERFBUF_CSTATUS_IS_VALID(items[i].value.status)) {
            printf("%-24s %10.3f\n", items[i].name, items[i].value.as_double);
        } else {
            printf("%-24s %10s  (%s)\n", items[i].name, "-",
                   perfbuf_cstatus_string(items[i].value.status));
        }
    }
    free(items);
    free(names);
    free(scratch);
    free(older_data);
    free(newer_data);
    return 0;
}
