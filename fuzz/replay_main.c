/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Runs a harness over files and folders of inputs without a fuzzing
 * engine: the test run replays every committed corpus with it, and a
 * crash file can be checked with it on any machine.
 */
/* 32-bit hosts: readdir() fails on 64-bit inode numbers otherwise. */
#define _FILE_OFFSET_BITS 64

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"

static int replay_file(const char *path, size_t *count)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    size_t cap = 1 << 16;
    size_t len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf != NULL && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *bigger = realloc(buf, cap * 2);
            if (bigger == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf == NULL) {
        fprintf(stderr, "out of memory reading %s\n", path);
        return 1;
    }
    /* An exact-size copy, so that ASan sees any read past the input. */
    uint8_t *exact = malloc(len ? len : 1);
    if (exact == NULL) {
        free(buf);
        return 1;
    }
    memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    (*count)++;
    return 0;
}

static int replay_path(const char *path, size_t *count)
{
    /* opendir() rather than stat(): clang-14's MemorySanitizer does not
     * intercept glibc >= 2.33's stat, so it flags the result as uninitialised. */
    DIR *dir = opendir(path);
    if (dir == NULL) {
        /* Not a folder (the C runtimes disagree on the errno): a file, or
         * a path replay_file reports as missing. */
        return replay_file(path, count);
    }
    int failures = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.' || strcmp(entry->d_name, "README.md") == 0) {
            continue;
        }
        size_t n = strlen(path) + strlen(entry->d_name) + 2;
        char *child = malloc(n);
        if (child == NULL) {
            failures++;
            break;
        }
        snprintf(child, n, "%s/%s", path, entry->d_name);
        failures += replay_path(child, count);
        free(child);
    }
    closedir(dir);
    return failures;
}

int main(int argc, char **argv)
{
    size_t count = 0;
    int failures = 0;
    for (int i = 1; i < argc; i++) {
        failures += replay_path(argv[i], &count);
    }
    printf("replayed %zu inputs\n", count);
    if (count == 0) {
        fprintf(stderr, "no inputs found\n");
        return 1;
    }
    return failures == 0 ? 0 : 1;
}
