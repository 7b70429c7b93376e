/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Two V1 captures in, one formatted value per instance out, as PDH gives
 * them after PdhAddEnglishCounter and two collections
 * (PdhGetFormattedCounterArray):
 *
 *   collector OLDER NEWER ENGLISH_TABLE PATH [LOCALIZED_TABLE]
 *
 * ENGLISH_TABLE is the English ("009") Counter table; LOCALIZED_TABLE, when
 * given, the system language's. PATH names the object and the counter in
 * either language, e.g. '\Processor(*)\% Processor Time'. Each instance the
 * path selects prints as "name value status" (value "-" when the status is
 * not valid). Try it on corpus/captures/synthetic/.
 *
 * Exit status: 0 with the values, 1 when a buffer, table or path is
 * rejected or names nothing, 2 for usage, I/O or memory errors.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfbuf/collector.h>
#include <perfbuf/resolve.h>

/* The whole file, or exit 2. */
static void *read_file(const char *name, size_t *len)
{
    FILE *f = fopen(name, "rb");
    long size = -1;
    if (f != NULL && fseek(f, 0, SEEK_END) == 0) {
        size = ftell(f);
    }
    unsigned char *buf = NULL;
    if (size >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)size + 1);
    }
    *len = buf != NULL ? fread(buf, 1, (size_t)size, f) : 0;
    if (f != NULL) {
        fclose(f);
    }
    if (buf == NULL || *len != (size_t)size) {
        fprintf(stderr, "collector: %s: cannot read the file\n", name);
        exit(2);
    }
    return buf;
}

/* count + 1 elements (never a zero-sized request), zeroed, or exit 2. */
static void *allocate(size_t count, size_t size)
{
    void *p = count < SIZE_MAX ? calloc(count + 1, size) : NULL;
    if (p == NULL) {
        fprintf(stderr, "collector: out of memory\n");
        exit(2);
    }
    return p;
}

/* Exits 1 with "what: offset 0x..: STRUCT.field: PERFBUF_E_X (sentence)"
 * unless st is PERFBUF_OK; err may be NULL for calls that name no offset. */
static void check(perfbuf_status st, const char *what, const perfbuf_error *err)
{
    if (st == PERFBUF_OK) {
        return;
    }
    fprintf(stderr, "collector: %s: ", what);
    if (err != NULL && err->structure != NULL) {
        fprintf(stderr, "offset 0x%zx: %s.%s: ", err->offset, err->structure, err->field);
    }
    fprintf(stderr, "%s (%s)\n", perfbuf_status_name(st), perfbuf_status_string(st));
    exit(1);
}

/* A Counter table, its index by title index, and the memory both read. */
typedef struct counter_table {
    void *data;
    perfbuf_name_slot *slots;
    perfbuf_name_table table;
    perfbuf_name_index index;
} counter_table;

static void load_table(const char *file, counter_table *t)
{
    size_t len;
    t->data = read_file(file, &len);
    perfbuf_error err = {0};
    check(perfbuf_names_parse(t->data, len, NULL, &t->table, &err), file, &err);
    t->slots = allocate(t->table.count, sizeof *t->slots);
    check(perfbuf_names_index_build(&t->table, t->slots, t->table.count, &t->index), file, NULL);
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: collector OLDER NEWER ENGLISH_TABLE PATH [LOCALIZED_TABLE]\n");
        return 2;
    }
    const char *text = argv[4];
    size_t older_len, newer_len;
    void *older_data = read_file(argv[1], &older_len);
    void *newer_data = read_file(argv[2], &newer_len);

    perfbuf_error err = {0};
    perfbuf_v1_block older, newer;
    check(perfbuf_v1_parse(older_data, older_len, NULL, &older, &err), argv[1], &err);
    check(perfbuf_v1_parse(newer_data, newer_len, NULL, &newer, &err), argv[2], &err);
    /* An English path resolves through the 009 table, a localized one
     * through the system language's: both name the block's title indexes. */
    counter_table english = {0}, localized = {0};
    load_table(argv[3], &english);
    perfbuf_title_tables names = {&english.table, &english.index, NULL, NULL};
    if (argc == 6) {
        load_table(argv[5], &localized);
        names.localized = &localized.table;
        names.localized_index = &localized.index;
    }
    perfbuf_counter_path path;
    check(perfbuf_path_parse(text, strlen(text), &path, &err), text, &err);
    /* The first object and counter the path names (resolution lists every
     * match; a collector that takes `\Object(*)\*` loops here). */
    perfbuf_v1_iter it;
    perfbuf_v1_object object;
    perfbuf_v1_counter counter;
    perfbuf_v1_objects_begin(&newer, &it);
    check(perfbuf_v1_resolve_object(&newer, &names, &path, &it, &object, NULL, &err), text, &err);
    perfbuf_v1_counters_begin(&object, &it);
    check(perfbuf_v1_resolve_counter(&newer, &names, &path, &it, &counter, NULL, &err), text,
          &err);

    /* Pair the instances of both captures, then size and fill the array. */
    uint32_t object_title = object.name_title_index, counter_title = counter.name_title_index;
    size_t slots = 0;
    check(perfbuf_v1_pairing_scratch(&older, &newer, object_title, &slots), "pairing", NULL);
    uint64_t *scratch = allocate(slots, sizeof *scratch);
    perfbuf_v1_pairing pairing;
    check(perfbuf_v1_pair(&older, &newer, object_title, scratch, slots, &pairing), "pairing", NULL);
    size_t count = 0, bytes = 0;
    perfbuf_status st = perfbuf_v1_formatted_array(&pairing, counter_title, &path,
                                                   PERFBUF_FMT_DOUBLE, NULL, &count, NULL, &bytes);
    perfbuf_formatted_item *items = allocate(count, sizeof *items);
    char *strings = allocate(bytes, 1);
    if (st == PERFBUF_E_OUTPUT_TOO_SMALL) {
        st = perfbuf_v1_formatted_array(&pairing, counter_title, &path, PERFBUF_FMT_DOUBLE, items,
                                        &count, strings, &bytes);
    }
    check(st, "array", NULL);
    for (size_t i = 0; i < count; i++) {
        uint32_t status = items[i].value.status;
        const char *status_name = perfbuf_cstatus_name(status);
        if (PERFBUF_CSTATUS_IS_VALID(status)) {
            printf("%s %.3f %s\n", items[i].name, items[i].value.as_double, status_name);
        } else {
            printf("%s - %s (%s)\n", items[i].name, status_name != NULL ? status_name : "unknown",
                   perfbuf_cstatus_string(status));
        }
    }
    free(strings);
    free(items);
    free(scratch);
    free(localized.slots);
    free(localized.data);
    free(english.slots);
    free(english.data);
    free(newer_data);
    free(older_data);
    return 0;
}
