/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Counter paths: every form of docs/paths.md, the examples of Microsoft's
 * "Specifying a Counter Path" page, and each rejection with its offset and
 * part, so that a caller's diagnostics point at the byte PDH would object to.
 */
#include "harness.h"
#include "perfbuf/paths.h"

static perfbuf_counter_path parsed;

static bool ok(const char *s)
{
    perfbuf_error err = {0};
    return perfbuf_path_parse(s, strlen(s), &parsed, &err) == PERFBUF_OK;
}

static bool part_is(perfbuf_span sp, const char *want)
{
    return sp.length == strlen(want) && memcmp(parsed.text + sp.offset, want, sp.length) == 0;
}

/* The rejection of s: status, byte offset and part. */
static bool rejects(const char *s, size_t n, perfbuf_status st, size_t offset, const char *field)
{
    perfbuf_error err = {0};
    perfbuf_status got = perfbuf_path_parse(s, n, &parsed, &err);
    if (got != st || err.status != st || err.offset != offset || strcmp(err.field, field) != 0 ||
        strcmp(err.structure, "COUNTER_PATH") != 0 || parsed.flags != 0 || parsed.text != NULL) {
        fprintf(stderr, "  %s: got %s at %zu field %s\n", s, perfbuf_status_name(got),
                err.offset, err.field ? err.field : "(null)");
        return false;
    }
    return true;
}

#define REJECTS(s, st, off, field) CHECK(rejects(s, strlen(s), PERFBUF_E_##st, off, field))

/* Formatting the parts and parsing the result gives the same parts. */
static bool round_trips(const char *s)
{
    perfbuf_counter_path a, b;
    char out[4200];
    size_t len = 0;
    if (perfbuf_path_parse(s, strlen(s), &a, NULL) != PERFBUF_OK ||
        perfbuf_path_format(&a, out, sizeof out, &len) != PERFBUF_OK || len != strlen(out) ||
        perfbuf_path_parse(out, len, &b, NULL) != PERFBUF_OK) {
        return false;
    }
    /* The grammar has one spelling per set of parts: the text comes back. */
    return a.flags == b.flags && a.index == b.index && len == strlen(s) &&
           memcmp(out, s, len) == 0;
}

static void machine_object_instance_counter(void)
{
    CHECK(ok("\\\\web01\\Processor(_Total)\\% Processor Time"));
    CHECK(part_is(parsed.machine, "web01"));
    CHECK(part_is(parsed.object, "Processor"));
    CHECK(part_is(parsed.instance, "_Total"));
    CHECK(part_is(parsed.counter, "% Processor Time"));
    CHECK_EQ_U(parsed.flags, PERFBUF_PATH_HAS_MACHINE | PERFBUF_PATH_HAS_INSTANCE);
    CHECK(ok("\\\\m\\o(i)\\c"));
    CHECK_EQ_U(parsed.machine.offset, 2);
    CHECK_EQ_U(parsed.object.offset, 4);
    CHECK_EQ_U(parsed.instance.offset, 6);
    CHECK_EQ_U(parsed.counter.offset, 9);
}

/* The page's own examples: (Explorer), (Explorer/0), (Explorer/0#1). */
static void documented_examples(void)
{
    CHECK(ok("\\Process(Explorer)\\Thread Count"));
    CHECK(part_is(parsed.instance, "Explorer"));
    CHECK_EQ_U(parsed.flags, PERFBUF_PATH_HAS_INSTANCE);
    CHECK(ok("\\Thread(Explorer/0)\\% Processor Time"));
    CHECK(part_is(parsed.parent, "Explorer"));
    CHECK(part_is(parsed.instance, "0"));
    CHECK_EQ_U(parsed.flags, PERFBUF_PATH_HAS_INSTANCE | PERFBUF_PATH_HAS_PARENT);
    CHECK(ok("\\Thread(Explorer/0#1)\\% Processor Time"));
    CHECK_EQ_U(parsed.index, 1);
    CHECK_EQ_U(parsed.flags,
               PERFBUF_PATH_HAS_INSTANCE | PERFBUF_PATH_HAS_PARENT | PERFBUF_PATH_HAS_INDEX);
    CHECK(ok("\\Memory\\Available Bytes"));
    CHECK(part_is(parsed.object, "Memory"));
    CHECK(part_is(parsed.counter, "Available Bytes"));
    CHECK_EQ_U(parsed.flags, 0);
    CHECK_EQ_U(parsed.instance.length, 0);
}

static void names_with_special_characters(void)
{
    CHECK(ok("\\Network Interface(Intel[R] 82574L.1)\\Bytes Total/sec"));
    CHECK(part_is(parsed.counter, "Bytes Total/sec"));
    CHECK(ok("\\.NET CLR Memory(w3wp)\\# Bytes in all Heaps"));
    CHECK(part_is(parsed.object, ".NET CLR Memory"));
    CHECK(part_is(parsed.counter, "# Bytes in all Heaps"));
    CHECK(ok("\\a/b#c.d%e f\\g(h)"));
    CHECK(part_is(parsed.object, "a/b#c.d%e f"));
    CHECK(part_is(parsed.counter, "g(h)"));
    CHECK(ok("\\Proc\xc3\xa9s(\xe2\x82\xac)\\c"));
    CHECK(part_is(parsed.instance, "\xe2\x82\xac"));
}

/* The one parenthesis rule: the instance runs from the first '(' to the
 * ')' right before the counter's '\', whatever lies between. */
static void parentheses_inside_instances(void)
{
    CHECK(ok("\\Process(svchost (1))\\c"));
    CHECK(part_is(parsed.instance, "svchost (1)"));
    CHECK(ok("\\o(a(b)\\c"));
    CHECK(part_is(parsed.instance, "a(b"));
    CHECK(ok("\\o(a)b)\\c"));
    CHECK(part_is(parsed.instance, "a)b"));
    CHECK(ok("\\o((x/y))\\c"));
    CHECK(part_is(parsed.parent, "(x"));
    CHECK(part_is(parsed.instance, "y)"));
    CHECK(ok("\\o(a/b/c)\\c"));
    CHECK(part_is(parsed.parent, "a"));
    CHECK(part_is(parsed.instance, "b/c"));
}

static void indices(void)
{
    CHECK(ok("\\o(a/b#0)\\c"));
    CHECK_EQ_U(parsed.index, 0);
    CHECK(parsed.flags & PERFBUF_PATH_HAS_INDEX);
    CHECK(ok("\\o(i#4294967295)\\c"));
    CHECK_EQ_U(parsed.index, UINT32_MAX);
    CHECK(ok("\\o(i#10)\\c"));
    CHECK_EQ_U(parsed.index, 10);
    REJECTS("\\o(i#4294967296)\\c", INVALID_NUMBER, 14, "Index");
    REJECTS("\\o(i#)\\c", INVALID_NUMBER, 5, "Index");
    REJECTS("\\o(i#-1)\\c", INVALID_NUMBER, 5, "Index");
    REJECTS("\\o(i#+1)\\c", INVALID_NUMBER, 5, "Index");
    REJECTS("\\o(i#01)\\c", INVALID_NUMBER, 6, "Index");
    REJECTS("\\o(i#1#2)\\c", INVALID_NUMBER, 6, "Index");
    REJECTS("\\o(#1)\\c", PATH_EMPTY_PART, 3, "Instance");
    REJECTS("\\o(p/#1)\\c", PATH_EMPTY_PART, 5, "Instance");
}

static void wildcards(void)
{
    CHECK(ok("\\Process(*)\\% Processor Time"));
    CHECK_EQ_U(parsed.flags, PERFBUF_PATH_HAS_INSTANCE | PERFBUF_PATH_INSTANCE_WILDCARD);
    CHECK(ok("\\Process(svchost*)\\c"));
    CHECK_EQ_U(parsed.flags, PERFBUF_PATH_HAS_INSTANCE | PERFBUF_PATH_INSTANCE_PREFIX);
    CHECK(part_is(parsed.instance, "svchost*"));
    CHECK(ok("\\Thread(*/*)\\c"));
    CHECK_EQ_U(parsed.flags, PERFBUF_PATH_HAS_INSTANCE | PERFBUF_PATH_HAS_PARENT |
                                 PERFBUF_PATH_PARENT_WILDCARD | PERFBUF_PATH_INSTANCE_WILDCARD);
    CHECK(ok("\\Thread(*/0#2)\\c"));
    CHECK(parsed.flags & PERFBUF_PATH_PARENT_WILDCARD);
    CHECK(ok("\\Memory\\*"));
    CHECK_EQ_U(parsed.flags, PERFBUF_PATH_COUNTER_WILDCARD);
    CHECK(ok("\\\\m\\Process(*)\\*"));
    REJECTS("\\o(*/*#1)\\c", PATH_WILDCARD, 6, "Index");
    REJECTS("\\o(sv*#1)\\c", PATH_WILDCARD, 6, "Index");
    REJECTS("\\o(*a)\\c", PATH_WILDCARD, 3, "Instance");
    REJECTS("\\o(a*b)\\c", PATH_WILDCARD, 4, "Instance");
    REJECTS("\\o(a**)\\c", PATH_WILDCARD, 4, "Instance");
    REJECTS("\\o(p*/i)\\c", PATH_WILDCARD, 4, "Parent");
    REJECTS("\\o(i)\\c*", PATH_WILDCARD, 7, "Counter");
    REJECTS("\\o*\\c", PATH_WILDCARD, 2, "Object");
    REJECTS("\\*\\c", PATH_WILDCARD, 1, "Object");
    REJECTS("\\\\*\\o\\c", PATH_WILDCARD, 2, "Machine");
}

static void malformed(void)
{
    REJECTS("", PATH_SYNTAX, 0, "Path");
    REJECTS("o\\c", PATH_SYNTAX, 0, "Path");
    REJECTS("\\o", PATH_SYNTAX, 2, "Counter");
    REJECTS("\\o(i)", PATH_SYNTAX, 5, "Counter");
    REJECTS("\\o(i", PATH_SYNTAX, 4, "Instance");
    REJECTS("\\o(", PATH_SYNTAX, 3, "Instance");
    REJECTS("\\o(i\\c", PATH_SYNTAX, 4, "Instance");
    REJECTS("\\o(\\c", PATH_SYNTAX, 3, "Instance");
    REJECTS("\\o(i)x\\c", PATH_SYNTAX, 6, "Instance");
    REJECTS("\\o)\\c", PATH_SYNTAX, 2, "Object");
    REJECTS("\\o()\\c", PATH_EMPTY_PART, 3, "Instance");
    REJECTS("\\o(/x)\\c", PATH_EMPTY_PART, 3, "Parent");
    REJECTS("\\\\\\o\\c", PATH_EMPTY_PART, 2, "Machine");
    REJECTS("\\\\m", PATH_SYNTAX, 3, "Object");
    REJECTS("\\\\m(\\o\\c", PATH_SYNTAX, 3, "Machine");
    REJECTS("\\\\m/x\\o\\c", PATH_SYNTAX, 3, "Machine");
    REJECTS("\\\\m\\\\c", PATH_EMPTY_PART, 4, "Object");
    REJECTS("\\(i)\\c", PATH_EMPTY_PART, 1, "Object");
    REJECTS("\\o\\", PATH_EMPTY_PART, 3, "Counter");
    REJECTS("\\o(i)\\", PATH_EMPTY_PART, 6, "Counter");
    REJECTS("\\o\\c\\", PATH_SYNTAX, 4, "Counter");
    REJECTS("\\o(i)\\c\\d", PATH_SYNTAX, 7, "Counter");
    CHECK(rejects("\\o\\c\0d", 6, PERFBUF_E_PATH_ENCODING, 4, "Path"));
    CHECK(rejects("\0", 1, PERFBUF_E_PATH_ENCODING, 0, "Path"));
}

static void invalid_utf8(void)
{
    REJECTS("\\o\\\x80", PATH_ENCODING, 3, "Path");
    REJECTS("\\o\\\xc0\xaf", PATH_ENCODING, 3, "Path");           /* overlong '/' */
    REJECTS("\\o\\\xe0\x80\xaf", PATH_ENCODING, 3, "Path");       /* overlong */
    REJECTS("\\o\\\xed\xa0\x80", PATH_ENCODING, 3, "Path");       /* surrogate */
    REJECTS("\\o\\\xf4\x90\x80\x80", PATH_ENCODING, 3, "Path");   /* above U+10FFFF */
    REJECTS("\\o\\\xf5\x80\x80\x80", PATH_ENCODING, 3, "Path");
    REJECTS("\\o\\\xc3", PATH_ENCODING, 3, "Path");               /* cut short */
    REJECTS("\\o\\\xc3(", PATH_ENCODING, 3, "Path");
    CHECK(ok("\\o\\\xf0\x9f\x98\x80"));
}

/* A path with one part of n characters of `unit` (a UTF-8 character). */
static size_t build(char *buf, const char *before, const char *unit, size_t n, const char *after)
{
    size_t len = strlen(before);
    memcpy(buf, before, len);
    for (size_t i = 0; i < n; i++) {
        memcpy(buf + len, unit, strlen(unit));
        len += strlen(unit);
    }
    memcpy(buf + len, after, strlen(after) + 1);
    return len + strlen(after);
}

static void limits(void)
{
    static char buf[8192];
    size_t n = build(buf, "\\o\\", "c", 1024, "");
    CHECK(perfbuf_path_parse(buf, n, &parsed, NULL) == PERFBUF_OK);
    n = build(buf, "\\o\\", "c", 1025, "");
    CHECK(rejects(buf, n, PERFBUF_E_PATH_TOO_LONG, 3 + 1024, "Counter"));
    n = build(buf, "\\", "o", 1024, "\\c");
    CHECK(perfbuf_path_parse(buf, n, &parsed, NULL) == PERFBUF_OK);
    n = build(buf, "\\", "o", 1025, "\\c");
    CHECK(rejects(buf, n, PERFBUF_E_PATH_TOO_LONG, 1 + 1024, "Object"));
    n = build(buf, "\\o(", "i", 1024, ")\\c");
    CHECK(perfbuf_path_parse(buf, n, &parsed, NULL) == PERFBUF_OK);
    n = build(buf, "\\o(", "i", 1025, ")\\c");
    CHECK(rejects(buf, n, PERFBUF_E_PATH_TOO_LONG, 3 + 1024, "Instance"));
    n = build(buf, "\\o(", "p", 1025, "/i)\\c");
    CHECK(rejects(buf, n, PERFBUF_E_PATH_TOO_LONG, 3 + 1024, "Parent"));
    n = build(buf, "\\\\", "m", 255, "\\o\\c");
    CHECK(perfbuf_path_parse(buf, n, &parsed, NULL) == PERFBUF_OK);
    n = build(buf, "\\\\", "m", 256, "\\o\\c");
    CHECK(rejects(buf, n, PERFBUF_E_PATH_TOO_LONG, 2 + 255, "Machine"));
    /* PDH counts UTF-16 units: 512 characters outside the BMP fill 1024. */
    n = build(buf, "\\o\\", "\xf0\x9f\x98\x80", 512, "");
    CHECK(perfbuf_path_parse(buf, n, &parsed, NULL) == PERFBUF_OK);
    n = build(buf, "\\o\\", "\xf0\x9f\x98\x80", 513, "");
    CHECK(rejects(buf, n, PERFBUF_E_PATH_TOO_LONG, 3 + 4 * 512, "Counter"));
    n = build(buf, "\\o\\", "\xc3\xa9", 1024, "");
    CHECK(perfbuf_path_parse(buf, n, &parsed, NULL) == PERFBUF_OK);
    /* The whole path: PDH_MAX_COUNTER_PATH units. */
    n = build(buf, "\\", "o", 1000, "");
    n += (size_t)sprintf(buf + n, "(");
    for (size_t i = 0; i < 1000; i++) {
        buf[n++] = 'i';
    }
    memcpy(buf + n, ")\\", 2);
    n += 2;
    while (n < 2048) {
        buf[n++] = 'c';
    }
    CHECK(perfbuf_path_parse(buf, n, &parsed, NULL) == PERFBUF_OK);
    buf[n++] = 'c';
    CHECK(rejects(buf, n, PERFBUF_E_PATH_TOO_LONG, 2048, "Path"));
}

static void arguments(void)
{
    perfbuf_error err = {0};
    CHECK(perfbuf_path_parse(NULL, 1, &parsed, &err) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(err.status == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_path_parse("\\o\\c", 4, NULL, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(rejects(NULL, 0, PERFBUF_E_PATH_SYNTAX, 0, "Path"));
    /* The length given is what is parsed, not the string up to its NUL. */
    CHECK(perfbuf_path_parse("\\o\\cXYZ", 4, &parsed, NULL) == PERFBUF_OK);
    CHECK(part_is(parsed.counter, "c"));
}

static void name_matching(void)
{
    CHECK(ok("\\\\Web01\\Process(svchost*)\\% Processor Time"));
    CHECK(perfbuf_path_name_matches(&parsed, PERFBUF_PATH_MACHINE, "WEB01", 5));
    CHECK(!perfbuf_path_name_matches(&parsed, PERFBUF_PATH_MACHINE, "web02", 5));
    CHECK(perfbuf_path_name_matches(&parsed, PERFBUF_PATH_OBJECT, "process", 7));
    CHECK(!perfbuf_path_name_matches(&parsed, PERFBUF_PATH_OBJECT, "processes", 9));
    CHECK(perfbuf_path_name_matches(&parsed, PERFBUF_PATH_COUNTER, "% PROCESSOR TIME", 16));
    CHECK(perfbuf_path_name_matches(&parsed, PERFBUF_PATH_INSTANCE, "SvcHost", 7));
    CHECK(perfbuf_path_name_matches(&parsed, PERFBUF_PATH_INSTANCE, "svchost#1", 9));
    CHECK(!perfbuf_path_name_matches(&parsed, PERFBUF_PATH_INSTANCE, "svcho", 5));
    CHECK(!perfbuf_path_name_matches(&parsed, PERFBUF_PATH_INSTANCE, "explorer", 8));
    CHECK(!perfbuf_path_name_matches(&parsed, PERFBUF_PATH_PARENT, "x", 1));
    CHECK(!perfbuf_path_name_matches(&parsed, (perfbuf_path_part)99, "x", 1));
    CHECK(!perfbuf_path_name_matches(&parsed, PERFBUF_PATH_OBJECT, NULL, 7));
    CHECK(!perfbuf_path_name_matches(NULL, PERFBUF_PATH_OBJECT, "x", 1));
    /* Only ASCII letters fold, as in PDH's comparison of names. */
    CHECK(ok("\\\xc3\xa9t\xc3\xa9\\*"));
    CHECK(perfbuf_path_name_matches(&parsed, PERFBUF_PATH_OBJECT, "\xc3\xa9T\xc3\xa9", 5));
    CHECK(!perfbuf_path_name_matches(&parsed, PERFBUF_PATH_OBJECT, "\xc3\x89t\xc3\xa9", 5));
    CHECK(perfbuf_path_name_matches(&parsed, PERFBUF_PATH_COUNTER, "anything", 8));
    CHECK(!perfbuf_path_name_matches(&parsed, PERFBUF_PATH_MACHINE, "", 0));
    CHECK(!perfbuf_path_name_matches(&parsed, PERFBUF_PATH_INSTANCE, "", 0));
    /* A span outside the text matches nothing. */
    perfbuf_counter_path bent = parsed;
    bent.object.length = 100;
    CHECK(!perfbuf_path_name_matches(&bent, PERFBUF_PATH_OBJECT, "x", 1));
    perfbuf_counter_path zero = {0};
    CHECK(!perfbuf_path_name_matches(&zero, PERFBUF_PATH_OBJECT, "", 0));
}

static void instance_matching(void)
{
    CHECK(ok("\\Thread(explorer/0)\\c"));
    CHECK(perfbuf_path_instance_matches(&parsed, "Explorer", 8, "0", 1, 0));
    CHECK(!perfbuf_path_instance_matches(&parsed, "Explorer", 8, "0", 1, 1));
    CHECK(!perfbuf_path_instance_matches(&parsed, "svchost", 7, "0", 1, 0));
    CHECK(!perfbuf_path_instance_matches(&parsed, "Explorer", 8, "1", 1, 0));
    CHECK(ok("\\Thread(*/0#1)\\c"));
    CHECK(perfbuf_path_instance_matches(&parsed, "any", 3, "0", 1, 1));
    CHECK(!perfbuf_path_instance_matches(&parsed, "any", 3, "0", 1, 0));
    CHECK(ok("\\Process(svchost*)\\c"));
    CHECK(perfbuf_path_instance_matches(&parsed, "", 0, "svchost", 7, 3));
    CHECK(perfbuf_path_instance_matches(&parsed, NULL, 0, "svchostx", 8, 0));
    CHECK(!perfbuf_path_instance_matches(&parsed, NULL, 0, "svc", 3, 0));
    CHECK(ok("\\Process(*)\\c"));
    CHECK(perfbuf_path_instance_matches(&parsed, NULL, 0, "a", 1, 7));
    CHECK(ok("\\Memory\\c"));
    CHECK(!perfbuf_path_instance_matches(&parsed, NULL, 0, "a", 1, 0));
    CHECK(!perfbuf_path_instance_matches(NULL, NULL, 0, "a", 1, 0));
}

static void formatting(void)
{
    static const char *const paths[] = {
        "\\\\m\\o(i)\\c",
        "\\o(a/b#0)\\c",
        "\\Thread(Explorer/0#1)\\% Processor Time",
        "\\Memory\\Available Bytes",
        "\\o(i#4294967295)\\c",
        "\\Process(svchost*)\\*",
        "\\Thread(*/*)\\c",
        "\\Process(svchost (1))\\c",
        "\\\\web01.example.com\\\xc3\xa9(\xe2\x82\xac)\\\xf0\x9f\x98\x80",
    };
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        CHECK(round_trips(paths[i]));
    }
}

/* The text contract: every capacity gives a NUL-terminated prefix cut on
 * a whole character, and the exact size needed. */
static void formatting_small_buffers(void)
{
    const char *s = "\\o(\xe2\x82\xac)\\c";
    CHECK(ok(s));
    size_t full = strlen(s);
    for (size_t cap = 0; cap <= full + 1; cap++) {
        char out[32];
        memset(out, 'x', sizeof out);
        size_t len = 0;
        perfbuf_status st = perfbuf_path_format(&parsed, cap ? out : NULL, cap, &len);
        CHECK_EQ_U(len, full);
        CHECK(st == (cap > full ? PERFBUF_OK : PERFBUF_E_OUTPUT_TOO_SMALL));
        if (cap > 0) {
            size_t got = strlen(out);
            CHECK(got < cap);
            CHECK(memcmp(out, s, got) == 0);
            /* Never half of the euro sign (bytes 3 to 5). */
            CHECK(got <= 3 || got >= 6);
        }
    }
}

static void formatting_arguments(void)
{
    CHECK(ok("\\o\\c"));
    char out[16] = "zz";
    size_t len = 9;
    CHECK(perfbuf_path_format(NULL, out, sizeof out, &len) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(len, 0);
    CHECK_STR(out, "");
    CHECK(perfbuf_path_format(&parsed, out, sizeof out, NULL) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_path_format(&parsed, NULL, 4, &len) == PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_counter_path bent = parsed;
    bent.counter.offset = 5;
    CHECK(perfbuf_path_format(&bent, out, sizeof out, &len) == PERFBUF_E_INVALID_ARGUMENT);
    bent = parsed;
    bent.text = NULL;
    CHECK(perfbuf_path_format(&bent, NULL, 0, &len) == PERFBUF_E_INVALID_ARGUMENT);
    /* Parts built by hand: the index is written in decimal. */
    perfbuf_counter_path made = {0};
    made.text = "ProcessExplorer% Processor Time";
    made.text_len = strlen(made.text);
    made.object = (perfbuf_span){0, 7};
    made.instance = (perfbuf_span){7, 8};
    made.counter = (perfbuf_span){15, 16};
    made.index = 12;
    made.flags = PERFBUF_PATH_HAS_INSTANCE | PERFBUF_PATH_HAS_INDEX;
    char big[64];
    CHECK(perfbuf_path_format(&made, big, sizeof big, &len) == PERFBUF_OK);
    CHECK_STR(big, "\\Process(Explorer#12)\\% Processor Time");
    CHECK_EQ_U(len, strlen(big));
}

static const th_case cases[] = {
    TH_CASE(machine_object_instance_counter),
    TH_CASE(documented_examples),
    TH_CASE(names_with_special_characters),
    TH_CASE(parentheses_inside_instances),
    TH_CASE(indices),
    TH_CASE(wildcards),
    TH_CASE(malformed),
    TH_CASE(invalid_utf8),
    TH_CASE(limits),
    TH_CASE(arguments),
    TH_CASE(name_matching),
    TH_CASE(instance_matching),
    TH_CASE(formatting),
    TH_CASE(formatting_small_buffers),
    TH_CASE(formatting_arguments),
};
TH_MAIN(cases)
