/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Writes inputs on which a perfbuf-dump that searches per item does work
 * quadratic in their size, at a size proportional to SCALE, into DIR:
 *   v1-parents.bin      a parent object of many instances, then an object
 *                       whose first instance has no parent and every other
 *                       one names the parent object's last instance;
 *   v1-rate.bin, v1-rate-prev.bin
 *                       --rate: an object of 2,500 x SCALE instances whose
 *                       earlier capture lacks the first instance (every
 *                       other one pairs by key, one place off); an
 *                       object whose counters the earlier capture defines
 *                       in reverse order; 200 x SCALE counters of one
 *                       instance, reversed too; and 500 x SCALE small
 *                       objects the earlier capture lists in reverse;
 *   v1-long-parents.bin two parents of 1,000 x SCALE characters, in two
 *                       objects (titles 232 and 234), and 1,000 x SCALE
 *                       Process (230) children named "c" alternating
 *                       between them: --counter naming another parent
 *                       must not convert every child's full name;
 *   v1-children.bin, v1-children-prev.bin
 *                       --rate, --counter, --csv: 2,500 x SCALE Process
 *                       (230) children named "c" (counters 10 "ID" and 12
 *                       "Count", a PERF_COUNTER_COUNTER that rose by 5)
 *                       of one Thread (232) parent of 1,000 x SCALE
 *                       characters; the earlier capture lacks the first
 *                       child (every #N shifts): a tool or query that
 *                       rebuilt each child's "parent/c#N" does work of
 *                       children times the parent's length;
 *   v1-children-4k.bin, v1-children-4k-prev.bin
 *                       the same with 250 x SCALE children of a parent of
 *                       4,096 characters at every scale, past the cuts of
 *                       a full name (4,095 bytes) and of an array name's
 *                       parent part (3,072): every child's output is as
 *                       long at every scale, so --rate, --counter and
 *                       --csv --series over them grow with the input, and
 *                       a --csv --series that compared names sharing
 *                       3,072 bytes n log n times would not;
 *   v1-objects.bin, v1-objects-prev.bin
 *                       --rate: 500 x SCALE objects of one instance each,
 *                       listed in reverse in the earlier capture;
 *   v1-rate-names.bin   a Counter table naming the --rate pair's titles,
 *                       for --counter and --csv;
 *   v1-same.bin         2,500 x SCALE instances all named "svchost"
 *                       (their #N come from a sort of the names);
 *   v1-series-0.bin, v1-series-1.bin, v1-series.bin
 *                       --series over 500 x SCALE instances;
 *   v1-collide.bin      a Process (230) object, then 500 x SCALE objects
 *                       of one counter whose titles a multiply-xorshift
 *                       hash (FNV's basis and prime, then h ^ h >> 29)
 *                       sends to one slot of any table of up to 8,192
 *                       slots: a --csv that looks objects or counters up
 *                       in such a table probes quadratically;
 *   v2-ids.bin, v2-ids-ids.bin, v2-reginfo.bin
 *                       --identifiers: 500 x SCALE instance blocks tied to
 *                       their counter by identifiers listed in reverse
 *                       Index order (the cross-check needs scratch);
 *   v2-rate.bin, v2-rate-prev.bin
 *                       --rate: 1,000 x SCALE instances in one block,
 *                       missing the first in the earlier capture, then
 *                       100 x SCALE small blocks;
 *   v2-names.bin, v2-names-strings.bin
 *                       --counter-names whose one name is 2,000 x SCALE
 *                       characters long, shared by 1,000 x SCALE values;
 *   v2-unordered-reginfo.bin, v2-unordered-strings.bin, v2-unordered.bin
 *                       a registration and a string block of 64 x SCALE
 *                       counters in descending id order (the parses need
 *                       scratch), and a query of those counters;
 *   v2-overlap.bin      1,000 x SCALE string headers all pointing into one
 *                       string of 1,000 x SCALE characters (rejected);
 *   v2-wide.bin, v2-wide-prev.bin, v2-wide-reginfo.bin, and the same
 *   v2-wide-desc*.bin with the ids descending
 *                       --rate over one instance of 500 x SCALE counters,
 *                       each a PERF_COUNTER_COUNTER that rose by 5 in the
 *                       second between the captures.
 * The values are chosen so that tests/dump_growth.cmake can check what the
 * tool shows, not only what it costs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder_v1.h"
#include "builder_v2meta.h"
#include "perfbuf/counter_types.h"

static const char *out_dir;

static int write_buf(const char *name, tb_buf *b)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", out_dir, name);
    FILE *f = fopen(path, "wb");
    int rc = 0;
    if (f == NULL || fwrite(b->data, 1, b->len, f) != b->len) {
        rc = 2;
    }
    if (f != NULL && fclose(f) != 0) {
        rc = 2;
    }
    if (rc != 0) {
        fprintf(stderr, "make_adversarial_dump: cannot write %s\n", path);
    }
    tb_free(b);
    return rc;
}

/* PERF_DATA_BLOCK.PerfTime (offset 56, in PerfFreq ticks of 10 MHz), so that
 * rates have one second between captures. */
static void v1_set_time(tb_v1 *v, uint32_t seconds)
{
    tb_patch_u32(&v->buf, 56, tb_get_u32(&v->buf, 56) + seconds * 10000000u);
}

static int v1_parents(uint32_t scale)
{
    uint32_t n = 1000 * scale;
    tb_v1 v;
    tb_v1_begin(&v, "VM");
    tb_v1_object_begin(&v, 500, 0, 0);
    tb_v1_counter(&v, 10, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    uint8_t data[4] = {1, 0, 0, 0};
    char name[32];
    for (uint32_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "p%u", i);
        tb_v1_instance(&v, name, 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_object_begin(&v, 600, 0, 0);
    tb_v1_counter(&v, 10, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    for (uint32_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "c%u", i);
        tb_v1_instance(&v, name, i == 0 ? 0 : 500, i == 0 ? 0 : n - 1);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return write_buf("v1-parents.bin", &v.buf);
}

static int v1_long_parents(uint32_t scale)
{
    uint32_t n = 1000 * scale;
    char *parent = malloc((size_t)n + 1);
    if (parent == NULL) {
        return 1;
    }
    memset(parent, 'P', n);
    parent[n] = '\0';
    tb_v1 v;
    tb_v1_begin(&v, "VM");
    uint8_t data[4] = {1, 0, 0, 0};
    for (uint32_t k = 0; k < 2; k++) {
        parent[n - 1] = (char)('A' + k);
        tb_v1_object_begin(&v, 232 + 2 * k, 0, 0);
        tb_v1_counter(&v, 12, PERF_COUNTER_RAWCOUNT, 4, 4);
        tb_v1_definitions_end(&v);
        tb_v1_instance(&v, parent, 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
        tb_v1_object_end(&v);
    }
    free(parent);
    tb_v1_object_begin(&v, 230, 0, 0);
    tb_v1_counter(&v, 12, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    for (uint32_t i = 0; i < n; i++) {
        tb_v1_instance(&v, "c", 232 + 2 * (i % 2), 0);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return write_buf("v1-long-parents.bin", &v.buf);
}

/* One capture of the --rate pair: `previous` drops the first instance of
 * object 230, reverses the definitions of 232 and 234 and the order of the
 * small objects; its counters read 5 less, one second earlier. */
static tb_buf v1_rate_capture(uint32_t scale, int previous)
{
    uint32_t gone = 2500 * scale;
    uint32_t kept = 100 * scale;
    uint32_t wide = 200 * scale;
    uint32_t small = 500 * scale;
    uint32_t base = previous ? 1000 : 1005;
    tb_v1 v;
    tb_v1_begin(&v, "VM");
    v1_set_time(&v, previous ? 0 : 1);
    char name[32];

    tb_v1_object_begin(&v, 230, 0, 0);
    tb_v1_counter(&v, 10, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_counter(&v, 12, PERF_COUNTER_COUNTER, 4, 8);
    tb_v1_definitions_end(&v);
    for (uint32_t i = previous ? 1 : 0; i < gone; i++) {
        uint8_t data[8] = {0};
        tb_put32(data, 4, i);
        tb_put32(data, 8, base);
        snprintf(name, sizeof name, "i%u", i);
        tb_v1_instance(&v, name, 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);

    tb_v1_object_begin(&v, 232, 0, 0);
    if (previous) {
        tb_v1_counter(&v, 12, PERF_COUNTER_COUNTER, 4, 8);
        tb_v1_counter(&v, 10, PERF_COUNTER_RAWCOUNT, 4, 4);
    } else {
        tb_v1_counter(&v, 10, PERF_COUNTER_RAWCOUNT, 4, 4);
        tb_v1_counter(&v, 12, PERF_COUNTER_COUNTER, 4, 8);
    }
    tb_v1_definitions_end(&v);
    for (uint32_t i = 0; i < kept; i++) {
        uint8_t data[8] = {0};
        tb_put32(data, 4, i);
        tb_put32(data, 8, base);
        snprintf(name, sizeof name, "k%u", i);
        tb_v1_instance(&v, name, 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);

    tb_v1_object_begin(&v, 234, 0, 0);
    for (uint32_t k = 0; k < wide; k++) {
        uint32_t c = previous ? wide - 1 - k : k;
        tb_v1_counter(&v, 2000 + 2 * c, PERF_COUNTER_COUNTER, 4, 4 + 4 * c);
    }
    tb_v1_definitions_end(&v);
    uint8_t *wide_data = calloc(wide, 4);
    if (wide_data == NULL) {
        fprintf(stderr, "make_adversarial_dump: out of memory\n");
        exit(2);
    }
    for (uint32_t c = 0; c < wide; c++) {
        tb_put32(wide_data, 4 + 4 * c, base + c);
    }
    tb_v1_instance(&v, "wide", 0, 0);
    tb_v1_counter_block(&v, wide_data, 4 * wide);
    free(wide_data);
    tb_v1_object_end(&v);

    for (uint32_t k = 0; k < small; k++) {
        uint32_t o = previous ? small - 1 - k : k;
        tb_v1_object_begin(&v, 3000 + 2 * o, 1, 0);
        tb_v1_counter(&v, 10, PERF_COUNTER_COUNTER, 4, 4);
        tb_v1_definitions_end(&v);
        uint8_t data[4] = {0};
        tb_put32(data, 4, base + o);
        tb_v1_counter_block(&v, data, sizeof data);
        tb_v1_object_end(&v);
    }
    tb_v1_end(&v);
    return v.buf;
}

/* 500 x SCALE objects of one instance each, the earlier capture listing
 * them in reverse: pairing each object must not find both objects and
 * index both blocks again (quadratic in the objects). */
static tb_buf v1_objects_capture(uint32_t scale, int previous)
{
    uint32_t objects = 500 * scale;
    tb_v1 v;
    tb_v1_begin(&v, "ADVERSARY");
    v1_set_time(&v, previous ? 0 : 1);
    for (uint32_t k = 0; k < objects; k++) {
        uint32_t o = previous ? objects - 1 - k : k;
        tb_v1_object_begin(&v, 5000 + 2 * o, 0, 0);
        tb_v1_counter(&v, 10, PERF_COUNTER_COUNTER, 4, 4);
        tb_v1_definitions_end(&v);
        uint8_t data[8] = {0};
        tb_put32(data, 4, previous ? o : o + 5);
        tb_v1_instance(&v, "only", 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
        tb_v1_object_end(&v);
    }
    tb_v1_end(&v);
    return v.buf;
}

/* One capture of a children pair: n children of a parent of `length`
 * characters; `previous`: without the first child, one second earlier,
 * each count 5 less. */
static tb_buf v1_children_capture(uint32_t n, uint32_t length, int previous)
{
    char *parent = malloc((size_t)length + 1);
    if (parent == NULL) {
        exit(1);
    }
    memset(parent, 'P', length);
    parent[length] = '\0';
    tb_v1 v;
    tb_v1_begin(&v, "VM");
    v1_set_time(&v, previous ? 0u : 1u);
    tb_v1_object_begin(&v, 232, 0, 0);
    tb_v1_counter(&v, 12, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    uint8_t one[4] = {1, 0, 0, 0};
    tb_v1_instance(&v, parent, 0, 0);
    tb_v1_counter_block(&v, one, sizeof one);
    tb_v1_object_end(&v);
    free(parent);
    tb_v1_object_begin(&v, 230, 0, 0);
    tb_v1_counter(&v, 10, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_counter(&v, 12, PERF_COUNTER_COUNTER, 4, 8);
    tb_v1_definitions_end(&v);
    for (uint32_t i = previous ? 0u : 1u; i < n; i++) {
        uint8_t data[12] = {0};
        tb_put32(data, 4, i);
        tb_put32(data, 8, 1000u + i - (previous ? 5u : 0u));
        tb_v1_instance(&v, "c", 232, 0);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

static int v1_children(uint32_t scale)
{
    tb_buf b = v1_children_capture(2500 * scale, 1000 * scale, 1);
    int rc = write_buf("v1-children-prev.bin", &b);
    b = v1_children_capture(2500 * scale, 1000 * scale, 0);
    rc = rc ? rc : write_buf("v1-children.bin", &b);
    /* The parent past both cuts at every scale: each child's output is
     * the same, so the output grows with the input. */
    b = v1_children_capture(250 * scale, 4096, 1);
    rc = rc ? rc : write_buf("v1-children-4k-prev.bin", &b);
    b = v1_children_capture(250 * scale, 4096, 0);
    return rc ? rc : write_buf("v1-children-4k.bin", &b);
}

static int v1_objects(uint32_t scale)
{
    tb_buf b = v1_objects_capture(scale, 1);
    int rc = write_buf("v1-objects-prev.bin", &b);
    b = v1_objects_capture(scale, 0);
    return rc ? rc : write_buf("v1-objects.bin", &b);
}

static int v1_rate(uint32_t scale)
{
    tb_buf b = v1_rate_capture(scale, 1);
    int rc = write_buf("v1-rate-prev.bin", &b);
    b = v1_rate_capture(scale, 0);
    rc = rc ? rc : write_buf("v1-rate.bin", &b);
    static const char *const names[] = {"230", "Process", "232", "Thread", "234", "Wide",
                                        "10", "ID", "12", "Count"};
    tb_init(&b);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        (void)tb_utf16(&b, names[i], 1);
    }
    tb_u16(&b, 0);
    rc = rc ? rc : write_buf("v1-rate-names.bin", &b);
    tb_v1 v;
    tb_v1_begin(&v, "VM");
    tb_v1_object_begin(&v, 230, 0, 0);
    tb_v1_counter(&v, 10, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    for (uint32_t i = 0; i < 2500 * scale; i++) {
        uint8_t data[4] = {0};
        tb_put32(data, 4, i);
        tb_v1_instance(&v, "svchost", 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return rc ? rc : write_buf("v1-same.bin", &v.buf);
}

/* Capture k of three, one second apart: each counter goes up 5 a second. */
static int v1_series(uint32_t scale)
{
    uint32_t n = 500 * scale;
    int rc = 0;
    for (uint32_t k = 0; k < 3 && rc == 0; k++) {
        tb_v1 v;
        tb_v1_begin(&v, "VM");
        v1_set_time(&v, k);
        tb_v1_object_begin(&v, 230, 0, 0);
        tb_v1_counter(&v, 10, PERF_COUNTER_RAWCOUNT, 4, 4);
        tb_v1_counter(&v, 12, PERF_COUNTER_COUNTER, 4, 8);
        tb_v1_definitions_end(&v);
        char name[32];
        for (uint32_t i = 0; i < n; i++) {
            uint8_t data[8] = {0};
            tb_put32(data, 4, i);
            tb_put32(data, 8, 1000 + 5 * k);
            snprintf(name, sizeof name, "i%u", i);
            tb_v1_instance(&v, name, 0, 0);
            tb_v1_counter_block(&v, data, sizeof data);
        }
        tb_v1_object_end(&v);
        tb_v1_end(&v);
        char file[32];
        if (k < 2) {
            snprintf(file, sizeof file, "v1-series-%u.bin", k);
        } else {
            snprintf(file, sizeof file, "v1-series.bin");
        }
        rc = write_buf(file, &v.buf);
    }
    return rc;
}

/* a x b modulo 2^64 in 32-bit halves, so that nothing wraps (the tests
 * run under clang's -fsanitize=integer too). */
static uint64_t multiply_low64(uint64_t a, uint64_t b)
{
    const uint64_t half = 0xFFFFFFFFu;
    uint64_t low = (a & half) * (b & half);
    uint64_t cross = (((a >> 32) * (b & half)) & half) + (((a & half) * (b >> 32)) & half);
    return (((low >> 32) + cross) & half) << 32 | (low & half);
}

/* The next title after `from` whose mix has its low 13 bits clear. */
static uint32_t colliding_title(uint32_t from)
{
    for (uint32_t t = from + 1;; t++) {
        uint64_t h = multiply_low64(0xcbf29ce484222325ull ^ t, 0x100000001b3ull);
        h ^= h >> 29;
        if ((h & 0x1FFF) == 0) {
            return t;
        }
    }
}

static int v1_collide(uint32_t scale)
{
    tb_v1 v;
    tb_v1_begin(&v, "VM");
    tb_v1_object_begin(&v, 230, 0, 0);
    tb_v1_counter(&v, 10, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    uint8_t data[8] = {0};
    tb_put32(data, 4, 7);
    tb_v1_instance(&v, "only", 0, 0);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    uint32_t title = 1000;
    for (uint32_t k = 0; k < 500 * scale; k++) {
        title = colliding_title(title);
        tb_v1_object_begin(&v, title, 0, 0);
        tb_v1_counter(&v, title, PERF_COUNTER_RAWCOUNT, 4, 4);
        tb_v1_definitions_end(&v);
        tb_v1_instance(&v, "only", 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
        tb_v1_object_end(&v);
    }
    tb_v1_end(&v);
    return write_buf("v1-collide.bin", &v.buf);
}

static int v2_ids(uint32_t scale)
{
    uint32_t blocks = 500 * scale;
    tb_v2 v;
    tb_v2_begin(&v, 5000, 133000000000000000, 10000000);
    for (uint32_t i = 0; i < blocks; i++) {
        tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_INSTANCES);
        tb_v2_instances_begin(&v, 2);
        tb_v2_instance(&v, 0, "_Total");
        tb_v2_u32(&v, 10 + i);
        tb_v2_instance(&v, 1, "0,0");
        tb_v2_u32(&v, 20 + i);
        tb_v2_instances_end(&v);
        tb_v2_block_end(&v);
    }
    tb_v2_end(&v);
    int rc = write_buf("v2-ids.bin", &v.buf);
    tb_buf ids;
    tb_init(&ids);
    for (uint32_t i = 0; i < blocks; i++) {
        tb_v2_identifier(&ids, tb_processor_information_guid, 0, 7, PERFBUF_V2_ANY_INSTANCE_ID,
                         blocks - 1 - i, NULL);
    }
    rc = rc ? rc : write_buf("v2-ids-ids.bin", &ids);
    tb_buf reg = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                               PERFBUF_COUNTERSET_MULTI_INSTANCES);
    return rc ? rc : write_buf("v2-reginfo.bin", &reg);
}

/* Interrupts / sec (3, a rate) and DPC Rate (7, a raw count) per instance.
 * The earlier capture is one second before, 5 interrupts fewer, and its
 * first block lacks its first instance. */
static tb_buf v2_rate_capture(uint32_t scale, int previous)
{
    static const uint32_t ids[2] = {3, 7};
    uint32_t many = 1000 * scale;
    uint32_t blocks = 100 * scale;
    uint32_t base = previous ? 1000 : 1005;
    tb_v2 v;
    tb_v2_begin(&v, previous ? 25368570629 : 25368570629 + 10000000, 134398148561470699,
                10000000);
    char name[32];
    tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(&v, ids, 2);
    tb_v2_instances_begin(&v, previous ? many - 1 : many);
    for (uint32_t i = previous ? 1 : 0; i < many; i++) {
        snprintf(name, sizeof name, "i%u", i);
        tb_v2_instance(&v, i, name);
        tb_v2_u32(&v, base);
        tb_v2_u32(&v, i);
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    for (uint32_t k = 0; k < blocks; k++) {
        tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
        tb_v2_ids(&v, ids, 2);
        tb_v2_instances_begin(&v, 2);
        for (uint32_t i = 0; i < 2; i++) {
            snprintf(name, sizeof name, "b%u-%u", k, i);
            tb_v2_instance(&v, i, name);
            tb_v2_u32(&v, base + k);
            tb_v2_u32(&v, i);
        }
        tb_v2_instances_end(&v);
        tb_v2_block_end(&v);
    }
    tb_v2_end(&v);
    return v.buf;
}

static int v2_rate(uint32_t scale)
{
    tb_buf b = v2_rate_capture(scale, 1);
    int rc = write_buf("v2-rate-prev.bin", &b);
    b = v2_rate_capture(scale, 0);
    return rc ? rc : write_buf("v2-rate.bin", &b);
}

static int v2_names(uint32_t scale)
{
    static const uint32_t ids[1] = {7};
    uint32_t values = 1000 * scale;
    size_t length = 2000 * (size_t)scale;
    char *long_name = malloc(length + 1);
    if (long_name == NULL) {
        fprintf(stderr, "make_adversarial_dump: out of memory\n");
        exit(2);
    }
    memset(long_name, 'n', length);
    long_name[length] = '\0';
    tb_reg_row rows[2] = {{3, PERF_COUNTER_COUNTER, PERFBUF_V2_NO_ID, "Interrupts / sec"},
                          {7, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, long_name}};
    tb_buf strings = tb_v2_strings(rows, 2, PERFBUF_V2_STRINGS_FROM_ARRAY_END);
    free(long_name);
    int rc = write_buf("v2-names-strings.bin", &strings);
    tb_v2 v;
    tb_v2_begin(&v, 5000, 133000000000000000, 10000000);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(&v, ids, 1);
    tb_v2_instances_begin(&v, values);
    char name[32];
    for (uint32_t i = 0; i < values; i++) {
        snprintf(name, sizeof name, "i%u", i);
        tb_v2_instance(&v, i, name);
        tb_v2_u32(&v, i);
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    return rc ? rc : write_buf("v2-names.bin", &v.buf);
}

/* Counters 64 x SCALE - 1 down to 0, all raw counts, named "c<id>". */
static int v2_unordered(uint32_t scale)
{
    uint32_t n = 64 * scale;
    tb_reg_row *rows = calloc(n, sizeof *rows);
    char (*names)[16] = calloc(n, sizeof *names);
    uint32_t *ids = calloc(n, sizeof *ids);
    if (rows == NULL || names == NULL || ids == NULL) {
        fprintf(stderr, "make_adversarial_dump: out of memory\n");
        exit(2);
    }
    for (uint32_t i = 0; i < n; i++) {
        ids[i] = n - 1 - i;
        snprintf(names[i], sizeof names[i], "c%u", ids[i]);
        rows[i].id = ids[i];
        rows[i].type = PERF_COUNTER_RAWCOUNT;
        rows[i].base = PERFBUF_V2_NO_ID;
        rows[i].name = names[i];
    }
    tb_buf b = tb_v2_reginfo(rows, n, PERFBUF_COUNTERSET_MULTI_INSTANCES);
    int rc = write_buf("v2-unordered-reginfo.bin", &b);
    b = tb_v2_strings(rows, n, PERFBUF_V2_STRINGS_FROM_ARRAY_END);
    rc = rc ? rc : write_buf("v2-unordered-strings.bin", &b);
    tb_v2 v;
    tb_v2_begin(&v, 5000, 133000000000000000, 10000000);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(&v, ids, n);
    tb_v2_instances_begin(&v, 4);
    for (uint32_t i = 0; i < 4; i++) {
        tb_v2_instance(&v, i, "x");
        for (uint32_t k = 0; k < n; k++) {
            tb_v2_u32(&v, 100 * i + ids[k]);
        }
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    rc = rc ? rc : write_buf("v2-unordered.bin", &v.buf);
    free(rows);
    free(names);
    free(ids);
    return rc;
}

static int v2_overlap(uint32_t scale)
{
    uint32_t headers = 1000 * scale;
    uint32_t length = 1000 * scale;
    tb_buf b;
    tb_init(&b);
    tb_u32(&b, 0);
    tb_u32(&b, headers);
    for (uint32_t i = 0; i < headers; i++) {
        tb_u32(&b, i);
        tb_u32(&b, 0);        /* every string starts at the first code unit */
    }
    for (uint32_t i = 0; i < length; i++) {
        tb_u16(&b, 'x');
    }
    tb_u16(&b, 0);
    tb_pad8_from(&b, 0);
    tb_patch_u32(&b, 0, (uint32_t)b.len);
    return write_buf("v2-overlap.bin", &b);
}

static tb_buf v2_wide_capture(const uint32_t *ids, uint32_t n, int previous)
{
    tb_v2 v;
    tb_v2_begin(&v, previous ? 25368570629 : 25368570629 + 10000000, 134398148561470699,
                10000000);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(&v, ids, n);
    tb_v2_instances_begin(&v, 1);
    tb_v2_instance(&v, 0, "w");
    for (uint32_t k = 0; k < n; k++) {
        tb_v2_u32(&v, 1000 + ids[k] + (previous ? 0 : 5));
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    return v.buf;
}

/* One instance of many counters: sampling each through a walk of the
 * instance's values is quadratic in them. */
static int v2_wide(uint32_t scale, int descending, const char *prefix)
{
    uint32_t n = 500 * scale;
    tb_reg_row *rows = calloc(n, sizeof *rows);
    uint32_t *ids = calloc(n, sizeof *ids);
    if (rows == NULL || ids == NULL) {
        fprintf(stderr, "make_adversarial_dump: out of memory\n");
        exit(2);
    }
    for (uint32_t i = 0; i < n; i++) {
        ids[i] = descending ? n - 1 - i : i;
        rows[i].id = ids[i];
        rows[i].type = PERF_COUNTER_COUNTER;
        rows[i].base = PERFBUF_V2_NO_ID;
        rows[i].name = "c";
    }
    char name[64];
    tb_buf b = tb_v2_reginfo(rows, n, PERFBUF_COUNTERSET_MULTI_INSTANCES);
    snprintf(name, sizeof name, "%s-reginfo.bin", prefix);
    int rc = write_buf(name, &b);
    b = v2_wide_capture(ids, n, 1);
    snprintf(name, sizeof name, "%s-prev.bin", prefix);
    rc = rc ? rc : write_buf(name, &b);
    b = v2_wide_capture(ids, n, 0);
    snprintf(name, sizeof name, "%s.bin", prefix);
    rc = rc ? rc : write_buf(name, &b);
    free(rows);
    free(ids);
    return rc;
}

int main(int argc, char **argv)
{
    char *end = NULL;
    unsigned long scale = argc == 3 ? strtoul(argv[2], &end, 10) : 0;
    if (argc != 3 || end == NULL || *end != '\0' || scale == 0 || scale > 64) {
        fprintf(stderr, "usage: make_adversarial_dump DIR SCALE (1 to 64)\n");
        return 2;
    }
    out_dir = argv[1];
    uint32_t s = (uint32_t)scale;
    int rc = v1_parents(s);
    rc = rc ? rc : v1_long_parents(s);
    rc = rc ? rc : v1_rate(s);
    rc = rc ? rc : v1_objects(s);
    rc = rc ? rc : v1_children(s);
    rc = rc ? rc : v1_series(s);
    rc = rc ? rc : v1_collide(s);
    rc = rc ? rc : v2_ids(s);
    rc = rc ? rc : v2_rate(s);
    rc = rc ? rc : v2_names(s);
    rc = rc ? rc : v2_unordered(s);
    rc = rc ? rc : v2_overlap(s);
    rc = rc ? rc : v2_wide(s, 0, "v2-wide");
    rc = rc ? rc : v2_wide(s, 1, "v2-wide-desc");
    return rc;
}
