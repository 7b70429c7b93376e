/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Reading the tool's inputs. A path may name anything: a device that never
 * ends (/dev/zero), a FIFO with no writer that would block the open for
 * ever, a file that grows while it is read. So a path is opened without
 * blocking, must be a regular file, and is read only up to the limit;
 * "-" is standard input, held to the same limit: sized first when it is
 * redirected from a file, and otherwise (a pipe) read in pieces and
 * refused as soon as it passes the limit, having read one byte more.
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

static int too_large(const char *path, size_t max)
{
    fprintf(stderr, "perfbuf-dump: %s: larger than %zu bytes (--max-input-bytes)\n", path, max);
    return 2;
}

/* What a pipe gives at a time: a pipe's whole default capacity on Linux. */
#define READ_PIECE ((size_t)1 << 16)

/*
 * Reads f to its end, at most max bytes, into an exact-size allocation.
 * The buffer grows with what has arrived (doubling, from the expected size
 * of a regular file or one piece for a pipe), never to the limit ahead of
 * the data, and each read asks for at most what is left of the limit plus
 * one byte: so a stream past the limit is refused once max + 1 bytes have
 * been read, and no more is read or held.
 */
static int read_bounded(FILE *f, const char *path, size_t expected, size_t max, uint8_t **data,
                        size_t *size)
{
    size_t cap = expected > 0 && expected <= max ? expected + 1 : READ_PIECE;
    if (cap > max + 1 && max < SIZE_MAX) {
        cap = max + 1;
    }
    size_t len = 0;
    uint8_t *buf = malloc(cap);
    if (buf == NULL) {
        return fail(path, "out of memory");
    }
    for (;;) {
        size_t want = cap - len;
        if (want > READ_PIECE && expected == 0) {
            want = READ_PIECE;
        }
        size_t got = fread(buf + len, 1, want, f);
        len += got;
        if (len > max) {
            free(buf);
            return too_large(path, max);
        }
        if (got < want) {
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
    /* Exactly the received bytes, so that a sanitizer sees any read past
     * them: shrunk in place rather than copied, so the peak is the buffer. */
    uint8_t *exact = realloc(buf, len ? len : 1);
    if (exact == NULL) {
        free(buf);
        return fail(path, "out of memory");
    }
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
        /* Redirected from a file, standard input has a size to check
         * before reading, as a path has; a pipe is read as it comes. */
        size_t expected = 0;
        if (is_regular(input_fileno(stdin), &expected) && expected > max) {
            return too_large("standard input", max);
        }
        return read_bounded(stdin, "standard input", expected, max, data, size);
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
        return too_large(path, max);
    }
    int rc = read_bounded(f, path, expected, max, data, size);
    fclose(f);
    return rc;
}
