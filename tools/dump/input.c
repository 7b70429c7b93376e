/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Reading the tool's inputs. A path may name anything: a device that never
 * ends (/dev/zero), a FIFO with no writer that would block the open for
 * ever, a file that grows while it is read. So a path is opened without
 * blocking, must be a regular file, and is read only up to the limit;
 * "-" is standard input, which may be a pipe and is read up to the same
 * limit.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#  define _POSIX_C_SOURCE 200809L /* open, fstat, fdopen, fileno under -std=c11 */
#endif

#include "input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef _WIN32
#  include <fcntl.h>
#  include <io.h>
#  define input_fileno _fileno
#else
#  include <fcntl.h>
#  include <unistd.h>
#  define input_fileno fileno
#endif

static int fail(const char *path, const char *why)
{
    fprintf(stderr, "perfbuf-dump: %s: %s\n", path, why);
    return 2;
}

static bool is_regular(int fd, size_t *size)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || (st.st_mode & S_IFMT) != S_IFREG || st.st_size < 0) {
        return false;
    }
    *size = (uintmax_t)st.st_size > SIZE_MAX ? SIZE_MAX : (size_t)st.st_size;
    return true;
}

/* Opens path for reading without waiting on a FIFO that has no writer. */
static FILE *open_input(const char *path)
{
#ifdef _WIN32
    return fopen(path, "rb");
#else
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        return NULL;
    }
    /* Regular files never block; what is not one is refused next. */
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) {
        (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    }
    FILE *f = fdopen(fd, "rb");
    if (f == NULL) {
        close(fd);
    }
    return f;
#endif
}

/* Reads f to its end, at most max bytes, into an exact-size allocation. */
static int read_bounded(FILE *f, const char *path, size_t expected, size_t max, uint8_t **data,
                        size_t *size)
{
    size_t cap = expected > 0 && expected <= max ? expected + 1 : 4096;
    size_t len = 0;
    uint8_t *buf = malloc(cap);
    if (buf == NULL) {
        return fail(path, "out of memory");
    }
    for (;;) {
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (len > max) {
            free(buf);
            fprintf(stderr, "perfbuf-dump: %s: larger than %zu bytes\n", path, max);
            return 2;
        }
        if (got == 0) {
            break;
        }
        if (len == cap) {
            /* One byte past the limit is enough to know it is too large. */
            size_t next = cap > max / 2 ? max + 1 : cap * 2;
            uint8_t *bigger = realloc(buf, next);
            if (bigger == NULL) {
                free(buf);
                return fail(path, "out of memory");
            }
            buf = bigger;
            cap = next;
        }
    }
    if (ferror(f)) {
        free(buf);
        return fail(path, "read error");
    }
    /* An exact-size copy: the decoders get exactly the received bytes, and
     * a sanitizer sees any read past them. */
    uint8_t *exact = malloc(len ? len : 1);
    if (exact == NULL) {
        free(buf);
        return fail(path, "out of memory");
    }
    if (len > 0) {
        memcpy(exact, buf, len);
    }
    free(buf);
    *data = exact;
    *size = len;
    return 0;
}

int dump_read_input(const char *path, size_t max, uint8_t **data, size_t *size)
{
    if (strcmp(path, "-") == 0) {
#ifdef _WIN32
        (void)_setmode(_fileno(stdin), _O_BINARY);
#endif
        return read_bounded(stdin, "standard input", 0, max, data, size);
    }
    FILE *f = open_input(path);
    if (f == NULL) {
        return fail(path, strerror(errno));
    }
    size_t expected = 0;
    if (!is_regular(input_fileno(f), &expected)) {
        fclose(f);
        return fail(path, "not a regular file (use - for standard input)");
    }
    if (expected > max) {
        fclose(f);
        fprintf(stderr, "perfbuf-dump: %s: larger than %zu bytes\n", path, max);
        return 2;
    }
    int rc = read_bounded(f, path, expected, max, data, size);
    fclose(f);
    return rc;
}
