/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * doc_snippets OUTDIR PRELUDE FILE.md...: writes every ```c block of the
 * Markdown files as a C file of its own, OUTDIR/snippet-N.c, for
 * tests/docs_snippets.cmake to compile with the project's warnings and
 * -Werror, and lists them in OUTDIR/snippets.txt ("snippet-N.c FILE:LINE").
 *
 * The convention (docs/architecture.md, "C in the docs"): each file begins
 * with PRELUDE (the standard headers and every public header); a block's
 * #include lines come next; then the block itself, or, when an HTML
 * comment that begins "<!-- compiled as:" comes right before its fence
 * (blank lines between allowed), the comment's lines up to the line "-->"
 * with the block in place of the line "...". The comment holds what the
 * fragment assumes (a function around it, the variables it uses), so a
 * reader of the Markdown source sees it and the rendered page does not.
 * #line directives point every line at its place in the Markdown, so a
 * compiler's message names the page and line to fix.
 *
 * Exits 1 naming the place when a comment is not followed by a block, has
 * no "..." line or has two, or a block is not closed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct line {
    const char *text;
    size_t len;
} line;

static char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    size_t cap = 4096;
    size_t n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (bigger == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    int failed = ferror(f);
    fclose(f);
    if (buf == NULL || failed) {
        free(buf);
        return NULL;
    }
    *size = n;
    return buf;
}

/* Splits the text at '\n' (a '\r' before it dropped); the lines point into it. */
static line *split_lines(const char *text, size_t size, size_t *count)
{
    size_t n = 1;
    for (size_t i = 0; i < size; i++) {
        n += text[i] == '\n';
    }
    line *lines = calloc(n, sizeof *lines);
    if (lines == NULL) {
        return NULL;
    }
    size_t k = 0;
    size_t start = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i == size || text[i] == '\n') {
            size_t len = i - start;
            if (len > 0 && text[start + len - 1] == '\r') {
                len--;
            }
            if (i < size || len > 0) {
                lines[k].text = text + start;
                lines[k].len = len;
                k++;
            }
            start = i + 1;
        }
    }
    *count = k;
    return lines;
}

static int is(const line *l, const char *s)
{
    return l->len == strlen(s) && memcmp(l->text, s, l->len) == 0;
}

static int starts(const line *l, const char *s)
{
    return l->len >= strlen(s) && memcmp(l->text, s, strlen(s)) == 0;
}

static int blank(const line *l)
{
    for (size_t i = 0; i < l->len; i++) {
        if (l->text[i] != ' ' && l->text[i] != '\t') {
            return 0;
        }
    }
    return 1;
}

/* The backticks a line begins with, when it opens or closes a fence (three
 * or more), else 0. */
static size_t fence(const line *l)
{
    size_t n = 0;
    while (n < l->len && l->text[n] == '`') {
        n++;
    }
    return n >= 3 ? n : 0;
}

/* The line without the spaces around it is "...". */
static int placeholder(const line *l)
{
    size_t a = 0;
    size_t b = l->len;
    while (a < b && (l->text[a] == ' ' || l->text[a] == '\t')) {
        a++;
    }
    while (b > a && (l->text[b - 1] == ' ' || l->text[b - 1] == '\t')) {
        b--;
    }
    return b - a == 3 && memcmp(l->text + a, "...", 3) == 0;
}

static void put(FILE *out, const line *l)
{
    fwrite(l->text, 1, l->len, out);
    fputc('\n', out);
}

/* Lines [first, end) of the block, the #include lines only or all others. */
static void put_block(FILE *out, const char *md, const line *lines, size_t first, size_t end,
                      int includes)
{
    int placed = 0;
    for (size_t k = first; k < end; k++) {
        int include = starts(&lines[k], "#include");
        if (include != includes) {
            placed = 0;
            continue;
        }
        if (!placed) {
            fprintf(out, "#line %zu \"%s\"\n", k + 1, md);
            placed = 1;
        }
        put(out, &lines[k]);
    }
}

static int write_snippet(const char *dir, unsigned number, const char *prelude, const char *md,
                         const line *lines, size_t wrap_first, size_t wrap_end,
                         size_t block_first, size_t block_end, FILE *list)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/snippet-%u.c", dir, number);
    FILE *out = fopen(path, "w");
    if (out == NULL) {
        fprintf(stderr, "doc_snippets: cannot write %s\n", path);
        return 1;
    }
    fprintf(out, "/* %s, the block at line %zu */\n%s", md, block_first, prelude);
    put_block(out, md, lines, block_first, block_end, 1);
    if (wrap_first == wrap_end) {
        put_block(out, md, lines, block_first, block_end, 0);
    } else {
        fprintf(out, "#line %zu \"%s\"\n", wrap_first + 1, md);
        for (size_t k = wrap_first; k < wrap_end; k++) {
            if (placeholder(&lines[k])) {
                put_block(out, md, lines, block_first, block_end, 0);
                fprintf(out, "#line %zu \"%s\"\n", k + 2, md);
            } else {
                put(out, &lines[k]);
            }
        }
    }
    int failed = ferror(out);
    failed |= fclose(out) != 0;
    fprintf(list, "snippet-%u.c %s:%zu\n", number, md, block_first);
    return failed;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: doc_snippets OUTDIR PRELUDE FILE.md...\n");
        return 2;
    }
    size_t prelude_size;
    char *prelude = read_all(argv[2], &prelude_size);
    if (prelude == NULL) {
        fprintf(stderr, "doc_snippets: cannot read %s\n", argv[2]);
        return 2;
    }
    char *prelude_text = malloc(prelude_size + 1);
    if (prelude_text == NULL) {
        return 2;
    }
    memcpy(prelude_text, prelude, prelude_size);
    prelude_text[prelude_size] = '\0';
    free(prelude);
    char list_path[4096];
    snprintf(list_path, sizeof list_path, "%s/snippets.txt", argv[1]);
    FILE *list = fopen(list_path, "w");
    if (list == NULL) {
        fprintf(stderr, "doc_snippets: cannot write %s\n", list_path);
        return 2;
    }
    unsigned number = 0;
    int rc = 0;
    for (int f = 3; f < argc && rc == 0; f++) {
        const char *md = argv[f];
        size_t size;
        char *text = read_all(md, &size);
        size_t count = 0;
        line *lines = text != NULL ? split_lines(text, size, &count) : NULL;
        if (lines == NULL) {
            fprintf(stderr, "doc_snippets: cannot read %s\n", md);
            free(text);
            rc = 2;
            break;
        }
        /* The "compiled as" comment waiting for its block: lines [wrap_first, wrap_end). */
        size_t wrap_first = 0;
        size_t wrap_end = 0;
        size_t wrap_at = 0;
        int waiting = 0;
        for (size_t k = 0; k < count && rc == 0; k++) {
            if (starts(&lines[k], "<!-- compiled as:")) {
                size_t end = k + 1;
                while (end < count && !is(&lines[end], "-->")) {
                    end++;
                }
                size_t holes = 0;
                for (size_t j = k + 1; j < end; j++) {
                    holes += placeholder(&lines[j]) ? 1u : 0u;
                }
                if (end == count || holes != 1) {
                    fprintf(stderr, "%s:%zu: a \"compiled as\" comment needs one line \"...\" "
                                    "and a line \"-->\" to end it\n", md, k + 1);
                    rc = 1;
                    break;
                }
                wrap_first = k + 1;
                wrap_end = end;
                wrap_at = k + 1;
                waiting = 1;
                k = end;
            } else if (!is(&lines[k], "```c") && fence(&lines[k]) > 0) {
                /* Another language's block (a ```` block may show a ```c
                 * one as text): skipped whole, up to its closing fence. */
                if (waiting) {
                    fprintf(stderr, "%s:%zu: a \"compiled as\" comment followed by a block "
                                    "that is not ```c\n", md, wrap_at);
                    rc = 1;
                    break;
                }
                size_t ticks = fence(&lines[k]);
                size_t end = k + 1;
                while (end < count && !(fence(&lines[end]) >= ticks &&
                                        fence(&lines[end]) == lines[end].len)) {
                    end++;
                }
                k = end;
            } else if (is(&lines[k], "```c")) {
                size_t end = k + 1;
                while (end < count && !is(&lines[end], "```")) {
                    end++;
                }
                if (end == count) {
                    fprintf(stderr, "%s:%zu: a ```c block that is not closed\n", md, k + 1);
                    rc = 1;
                    break;
                }
                rc = write_snippet(argv[1], number++, prelude_text, md, lines,
                                   waiting ? wrap_first : 0, waiting ? wrap_end : 0, k + 1, end,
                                   list);
                waiting = 0;
                k = end;
            } else if (waiting && !blank(&lines[k])) {
                fprintf(stderr, "%s:%zu: a \"compiled as\" comment that no ```c block follows\n",
                        md, wrap_at);
                rc = 1;
            }
        }
        if (rc == 0 && waiting) {
            fprintf(stderr, "%s:%zu: a \"compiled as\" comment that no ```c block follows\n", md,
                    wrap_at);
            rc = 1;
        }
        free(lines);
        free(text);
    }
    if (fclose(list) != 0) {
        rc = 2;
    }
    free(prelude_text);
    printf("doc_snippets: %u blocks\n", number);
    return rc;
}
