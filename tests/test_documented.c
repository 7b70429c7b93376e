/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The documented layouts of corpus/captures/documented/, decoded field by
 * field: every file is accepted in strict mode; the objects, their counter
 * definitions (the disk objects packed as Windows' disk provider packs
 * them, their four timestamp bases reading one field,
 * Processor Information's base shared by two counters), instance names and
 * the threads' parents are what the README describes; and every counter
 * the collector layer formats from the two captures equals its formula
 * worked by hand from the raw bytes of the files.
 */
#include <math.h>

#include "harness.h"
#include "perfbuf/collector.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/names.h"
#include "perfbuf/query.h"
#include "perfbuf/v1.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/v2_query.h"

typedef struct file {
    uint8_t *data;
    size_t len;
} file;

static file load(const char *name)
{
    file f = {NULL, 0};
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", PERFBUF_DOCUMENTED_DIR, name);
    FILE *in = fopen(path, "rb");
    if (in == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        return f;
    }
    if (fseek(in, 0, SEEK_END) == 0) {
        long size = ftell(in);
        if (size > 0 && fseek(in, 0, SEEK_SET) == 0) {
            f.data = malloc((size_t)size);
            if (f.data != NULL && fread(f.data, 1, (size_t)size, in) == (size_t)size) {
                f.len = (size_t)size;
            }
        }
    }
    fclose(in);
    return f;
}

static const perfbuf_options strict = {PERFBUF_STRICT, 0, 0, 0};

/* The two Global captures, parsed strictly. */
typedef struct pair {
    file files[2];
    perfbuf_v1_block blocks[2];
    bool ok;
} pair;

static pair load_pair(void)
{
    pair p;
    memset(&p, 0, sizeof p);
    p.files[0] = load("v1-documented-global-0.bin");
    p.files[1] = load("v1-documented-global-1.bin");
    p.ok = true;
    for (int k = 0; k < 2; k++) {
        perfbuf_error err;
        p.ok = p.ok && p.files[k].data != NULL &&
               perfbuf_v1_parse(p.files[k].data, p.files[k].len, &strict, &p.blocks[k], &err) ==
                   PERFBUF_OK;
    }
    return p;
}

static void free_pair(pair *p)
{
    free(p->files[0].data);
    free(p->files[1].data);
}

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

/* ---- what the README documents ---- */

typedef struct expected_object {
    uint32_t title;
    int32_t num_instances;
    uint32_t counters;
    uint32_t block_bytes;
} expected_object;

static const expected_object objects[] = {
    {2, -1, 6, 32},     {4, -1, 6, 48},     {238, 3, 4, 40},    {230, 6, 7, 56},
    {232, 7, 4, 32},    {234, 2, 31, 184},  {236, 2, 34, 200},  {510, 1, 4, 40},
    {700, 2, 4, 24},    {1848, 4, 10, 72},
};

typedef struct expected_definition {
    uint32_t title, type, size, offset;
} expected_definition;

/* The disk provider's definitions, in its order, at the offsets of its
 * packed fields (the README's tables): first the current queue length,
 * last the split count. */
#define TIMER(title, offset, stamp) \
    {title, PERF_PRECISION_100NS_TIMER, 8, offset}, {0, PERF_PRECISION_TIMESTAMP, 8, stamp}
#define QUEUE(title, offset) {title, PERF_COUNTER_100NS_QUEUELEN_TYPE, 8, offset}
/* a DWORD type over its LONGLONG field: CounterSize 8, as the provider
 * writes it */
#define AVERAGE_TIMER(title, offset, base) \
    {title, PERF_AVERAGE_TIMER, 8, offset}, {0, PERF_AVERAGE_BASE, 4, base}
#define AVERAGE_BULK(title, offset, base) \
    {title, PERF_AVERAGE_BULK, 8, offset}, {0, PERF_AVERAGE_BASE, 4, base}
#define RATE(title, offset) {title, PERF_COUNTER_COUNTER, 4, offset}
#define BYTES(title, offset) {title, PERF_COUNTER_BULK_COUNT, 8, offset}

static const expected_definition physical_disk[] = {
    {198, PERF_COUNTER_RAWCOUNT, 4, 4},
    TIMER(200, 8, 168),           QUEUE(1400, 16),
    TIMER(202, 24, 168),          QUEUE(1402, 32),
    TIMER(204, 40, 168),          QUEUE(1404, 48),
    AVERAGE_TIMER(206, 56, 72),   AVERAGE_TIMER(208, 64, 76),  AVERAGE_TIMER(210, 80, 88),
    RATE(212, 92),                RATE(214, 96),               RATE(216, 100),
    BYTES(218, 104),              BYTES(220, 112),             BYTES(222, 120),
    AVERAGE_BULK(224, 128, 144),  AVERAGE_BULK(226, 136, 148), AVERAGE_BULK(228, 152, 176),
    TIMER(1482, 160, 168),        RATE(1484, 180),
};
static const expected_definition logical_disk[] = {
    {408, PERF_RAW_FRACTION, 4, 4}, {0, PERF_RAW_BASE, 4, 8}, {410, PERF_COUNTER_RAWCOUNT, 4, 12},
    {198, PERF_COUNTER_RAWCOUNT, 4, 16},
    TIMER(200, 24, 184),          QUEUE(1400, 32),
    TIMER(202, 40, 184),          QUEUE(1402, 48),
    TIMER(204, 56, 184),          QUEUE(1404, 64),
    AVERAGE_TIMER(206, 72, 20),   AVERAGE_TIMER(208, 80, 96),  AVERAGE_TIMER(210, 88, 100),
    RATE(212, 104),               RATE(214, 108),              RATE(216, 112),
    BYTES(218, 120),              BYTES(220, 128),             BYTES(222, 136),
    AVERAGE_BULK(224, 144, 116),  AVERAGE_BULK(226, 152, 168), AVERAGE_BULK(228, 160, 172),
    TIMER(1482, 176, 184),        RATE(1484, 192),
};
static const expected_definition processor_information[] = {
    {1850, PERF_100NSEC_TIMER_INV, 8, 8},     {1892, PERF_PRECISION_100NS_TIMER, 8, 16},
    {1894, PERF_PRECISION_TIMESTAMP, 8, 24},  {1898, PERF_AVERAGE_BULK, 8, 32},
    {1900, PERF_AVERAGE_BASE, 4, 40},         {1884, PERF_COUNTER_RAWCOUNT, 4, 44},
    {1902, PERF_AVERAGE_BULK, 8, 48},         {1904, PERF_AVERAGE_BASE, 4, 56},
    {1906, PERF_AVERAGE_BULK, 8, 64},         {1904, PERF_AVERAGE_BASE, 4, 56},
};

static bool find(const perfbuf_v1_block *b, uint32_t title, perfbuf_v1_object *o)
{
    return perfbuf_v1_find_object(b, title, o) == PERFBUF_OK;
}

/* Instance names of an object, in buffer order, joined by '|'. */
static void instance_names(const perfbuf_v1_block *b, const perfbuf_v1_object *o, char *out,
                           size_t cap)
{
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst;
    size_t used = 0;
    out[0] = '\0';
    perfbuf_v1_instances_begin(o, &it);
    while (perfbuf_v1_instances_next(b, &it, &inst)) {
        char name[256];
        size_t len = 0;
        if (perfbuf_v1_instance_name_utf8(b, &inst, name, sizeof name, &len) != PERFBUF_OK) {
            snprintf(name, sizeof name, "?");
        }
        used += (size_t)snprintf(out + used, cap - used, "%s%s", used ? "|" : "", name);
        if (used >= cap) {
            return;
        }
    }
}

/* ---- the cases ---- */

static void every_file_is_strict(void)
{
    static const char *const v1[] = {"v1-documented-global-0.bin", "v1-documented-global-1.bin"};
    for (size_t i = 0; i < 2; i++) {
        file f = load(v1[i]);
        perfbuf_v1_block b;
        perfbuf_error err;
        CHECK(f.data != NULL);
        CHECK(perfbuf_v1_parse(f.data, f.len, &strict, &b, &err) == PERFBUF_OK);
        CHECK(b.anomalies == 0 && b.size == f.len && b.object_count == 10);
        CHECK(b.perf_freq == 10000000 && b.perf_time == 123456789 + 10000000 * (int64_t)i);
        CHECK(b.perf_time_100ns == 134398152000000000 + 10000000 * (int64_t)i);
        CHECK(b.system_time.year == 2026 && b.system_time.month == 11 &&
              b.system_time.day == 22 && b.system_time.day_of_week == 0);
        CHECK(b.system_time.hour == 10 && b.system_time.minute == 0 &&
              b.system_time.second == i && b.system_time.milliseconds == 0);
        char name[32];
        size_t len;
        CHECK(perfbuf_v1_system_name_utf8(&b, name, sizeof name, &len) == PERFBUF_OK);
        CHECK_STR(name, "DOCUMENTED");
        free(f.data);
    }
    file t = load("v1-names-documented-counter-009.bin");
    perfbuf_name_table names;
    CHECK(t.data != NULL);
    CHECK(perfbuf_names_parse(t.data, t.len, &strict, &names, NULL) == PERFBUF_OK);
    CHECK(names.anomalies == 0);
    free(t.data);
    static const char *const queries[] = {"v2-query-documented-processor-information-0.bin",
                                          "v2-query-documented-processor-information-1.bin"};
    for (size_t i = 0; i < 2; i++) {
        file f = load(queries[i]);
        perfbuf_v2_query q;
        CHECK(f.data != NULL);
        CHECK(perfbuf_v2_query_parse(f.data, f.len, &strict, &q, NULL) == PERFBUF_OK);
        CHECK(q.anomalies == 0);
        free(f.data);
    }
    file r = load("v2-reginfo-documented-processor-information.bin");
    perfbuf_v2_reginfo reg;
    CHECK(r.data != NULL);
    CHECK(perfbuf_v2_reginfo_parse(r.data, r.len, &strict, &reg, NULL) == PERFBUF_OK);
    CHECK(reg.counter_count == 31 && reg.anomalies == 0);
    free(r.data);
    file s = load("v2-names-documented-processor-information.bin");
    perfbuf_v2_strings strings;
    CHECK(s.data != NULL);
    CHECK(perfbuf_v2_strings_parse(s.data, s.len, PERFBUF_V2_STRINGS_FROM_ARRAY_END, &strict,
                                   &strings, NULL) == PERFBUF_OK);
    free(s.data);
    file n = load("v2-counterset-name-documented-processor-information.bin");
    perfbuf_v2_string name;
    CHECK(n.data != NULL);
    CHECK(perfbuf_v2_string_parse(n.data, n.len, &strict, &name, NULL) == PERFBUF_OK);
    char text[64];
    size_t text_len;
    CHECK(perfbuf_v2_string_utf8(&name, text, sizeof text, &text_len) == PERFBUF_OK);
    CHECK_STR(text, "Processor Information");
    free(n.data);
}

/* The objects, in order, with their instance counts, definition counts
 * and counter-block sizes; every instance's names. */
static void objects_and_instances(void)
{
    pair p = load_pair();
    CHECK(p.ok);
    for (int k = 0; k < 2; k++) {
        const perfbuf_v1_block *b = &p.blocks[k];
        perfbuf_v1_iter it;
        perfbuf_v1_object o;
        size_t n = 0;
        perfbuf_v1_objects_begin(b, &it);
        while (perfbuf_v1_objects_next(b, &it, &o)) {
            CHECK(n < sizeof objects / sizeof objects[0]);
            CHECK_EQ_U(o.name_title_index, objects[n].title);
            CHECK_EQ_U(o.help_title_index, objects[n].title + 1);
            CHECK(o.num_instances == objects[n].num_instances);
            CHECK_EQ_U(o.counter_count, objects[n].counters);
            CHECK(o.code_page == 0 && o.detail_level == 100);
            perfbuf_v1_counter_block block;
            perfbuf_v1_iter insts;
            perfbuf_v1_instance inst;
            if (o.num_instances < 0) {
                CHECK(perfbuf_v1_object_counter_block(b, &o, &block));
                CHECK_EQ_U(block.byte_length, objects[n].block_bytes);
            }
            perfbuf_v1_instances_begin(&o, &insts);
            while (perfbuf_v1_instances_next(b, &insts, &inst)) {
                CHECK_EQ_U(inst.counters.byte_length, objects[n].block_bytes);
                CHECK(inst.unique_id == -1);
            }
            n++;
        }
        CHECK(n == sizeof objects / sizeof objects[0]);
        static const struct {
            uint32_t title;
            const char *names;
        } named[] = {
            {238, "0|1|_Total"},
            {230, "Idle|System|smss|svchost|svchost|_Total"},
            {232, "0|1|0|0|0|0|_Total"},
            {234, "0 C:|_Total"},
            {236, "C:|_Total"},
            {510, "Intel[R] Ethernet Connection I219-LM"},
            {700, "\\??\\C:\\pagefile.sys|_Total"},
            {1848, "0,0|0,1|0,_Total|_Total"},
        };
        for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
            char joined[256];
            CHECK(find(b, named[i].title, &o));
            instance_names(b, &o, joined, sizeof joined);
            CHECK_STR(joined, named[i].names);
        }
    }
    free_pair(&p);
}

static void check_definitions(const perfbuf_v1_block *b, uint32_t title,
                              const expected_definition *want, size_t count)
{
    perfbuf_v1_object o;
    CHECK(find(b, title, &o));
    CHECK_EQ_U(o.counter_count, count);
    perfbuf_v1_iter it;
    perfbuf_v1_counter c;
    size_t i = 0;
    perfbuf_v1_counters_begin(&o, &it);
    while (perfbuf_v1_counters_next(b, &it, &c)) {
        CHECK(i < count);
        CHECK_EQ_U(c.name_title_index, want[i].title);
        CHECK_EQ_U(c.help_title_index, want[i].title ? want[i].title + 1 : 0);
        CHECK_EQ_U(c.type, want[i].type);
        CHECK_EQ_U(c.size, want[i].size);
        CHECK_EQ_U(c.counter_offset, want[i].offset);
        CHECK(c.byte_length == 40 && c.default_scale == 0 && c.detail_level == 100);
        i++;
    }
    CHECK(i == count);
}

/* Every definition of the disk objects and Processor Information as the
 * README lists them; Processor Information's % Utility Base follows both
 * counters that take it.
 *
 * The disk objects as Windows' disk provider packs them: every
 * CounterSize is its field's size, which is its type's size bits but for
 * the three average timers, DWORD types over LONGLONG fields with
 * CounterSize 8; the four bases read the one 8-byte timestamp field (168,
 * 184), each right after its precision timer, and it holds the block's
 * PerfTime100nSec in every instance; every other byte up to the furthest
 * end is read exactly once. So the definitions claim more bytes than reach
 * their furthest end, which a rule forbidding shared bytes would refuse,
 * and stay inside the parse's budget of twice that end. */
static void shared_definitions(void)
{
    pair p = load_pair();
    CHECK(p.ok);
    CALL(check_definitions(&p.blocks[1], 234, physical_disk,
                           sizeof physical_disk / sizeof physical_disk[0]));
    CALL(check_definitions(&p.blocks[1], 236, logical_disk,
                           sizeof logical_disk / sizeof logical_disk[0]));
    CALL(check_definitions(&p.blocks[1], 1848, processor_information,
                           sizeof processor_information / sizeof processor_information[0]));
    enum { MAX_BLOCK = 200 };
    static const struct {
        uint32_t title, stamp, block, end, claimed;
    } disks[] = {{234, 168, 184, 184, 204}, {236, 184, 200, 196, 216}};
    for (size_t d = 0; d < 2; d++) {
        for (int k = 0; k < 2; k++) {
            const perfbuf_v1_block *b = &p.blocks[k];
            perfbuf_v1_object o;
            CHECK(find(b, disks[d].title, &o));
            uint32_t readers[MAX_BLOCK] = {0};
            uint32_t stamp_readers = 0;
            uint32_t previous_type = 0;
            uint64_t claimed = 0;
            uint32_t end = 0;
            perfbuf_v1_iter it;
            perfbuf_v1_counter c;
            perfbuf_v1_counters_begin(&o, &it);
            while (perfbuf_v1_counters_next(b, &it, &c)) {
                CHECK(c.counter_offset >= 4 && c.counter_offset + c.size <= disks[d].block);
                if (c.type == PERF_AVERAGE_TIMER) {
                    /* a DWORD type over a LONGLONG field, read whole */
                    CHECK_EQ_U(perfbuf_counter_type_size(c.type), 4);
                    CHECK_EQ_U(c.size, 8);
                    CHECK(c.counter_offset % 8 == 0);
                } else {
                    CHECK_EQ_U(c.size, perfbuf_counter_type_size(c.type));
                }
                /* as the claim budget counts (docs/v1.md, "Shared counter data") */
                claimed += c.size > 0 ? c.size : 1u;
                if (c.counter_offset + c.size > end) {
                    end = c.counter_offset + c.size;
                }
                for (uint32_t at = c.counter_offset; at < c.counter_offset + c.size; at++) {
                    readers[at]++;
                }
                if (c.counter_offset == disks[d].stamp) {
                    CHECK(c.type == PERF_PRECISION_TIMESTAMP && c.type == 0x40030500u && c.size == 8);
                    CHECK(previous_type == PERF_PRECISION_100NS_TIMER);
                    perfbuf_v1_iter insts;
                    perfbuf_v1_instance inst;
                    uint32_t instances = 0;
                    perfbuf_v1_instances_begin(&o, &insts);
                    while (perfbuf_v1_instances_next(b, &insts, &inst)) {
                        const uint8_t *field = b->data + inst.counters.offset + disks[d].stamp;
                        CHECK(le(field, 8) == (uint64_t)b->perf_time_100ns);
                        CHECK(perfbuf_v1_counter_value(b, &inst.counters, &c) ==
                              (uint64_t)b->perf_time_100ns);
                        instances++;
                    }
                    CHECK(instances == 2);
                    stamp_readers++;
                }
                previous_type = c.type;
            }
            CHECK(stamp_readers == 4);
            CHECK_EQ_U(end, disks[d].end);
            CHECK_EQ_U(claimed, disks[d].claimed);
            CHECK(claimed > end && claimed <= 2u * end);
            for (uint32_t at = 4; at < end; at++) {
                bool in_stamp = at >= disks[d].stamp && at < disks[d].stamp + 8;
                CHECK_EQ_U(readers[at], in_stamp ? 4u : 1u);
            }
        }
    }
    free_pair(&p);
}

/* Threads name their process by ParentObjectTitleIndex 230 and
 * ParentObjectInstance; the full names are "process/thread". */
static void thread_parents(void)
{
    pair p = load_pair();
    CHECK(p.ok);
    const perfbuf_v1_block *b = &p.blocks[1];
    uint64_t *slots = malloc(b->index_slots * sizeof *slots);
    perfbuf_v1_instance_index index;
    CHECK(slots != NULL);
    CHECK(perfbuf_v1_block_index_build(b, slots, b->index_slots, &index) == PERFBUF_OK);
    perfbuf_v1_object threads;
    CHECK(find(b, 232, &threads));
    static const uint32_t parent_positions[7] = {0, 0, 1, 2, 3, 4, 5};
    static const char *const parents[7] = {"Idle", "Idle", "System", "smss", "svchost",
                                           "svchost", "_Total"};
    static const char *const full[7] = {"Idle/0", "Idle/1", "System/0", "smss/0",
                                        "svchost/0", "svchost/0", "_Total/_Total"};
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst, parent;
    uint32_t i = 0;
    perfbuf_v1_instances_begin(&threads, &it);
    while (perfbuf_v1_instances_next(b, &it, &inst)) {
        CHECK(i < 7);
        CHECK(inst.parent_title_index == 230 && inst.parent_instance == parent_positions[i]);
        CHECK(perfbuf_v1_parent(b, &threads, &inst, &index, &parent, NULL) == PERFBUF_OK);
        CHECK_EQ_U(parent.index, parent_positions[i]);
        char name[64];
        size_t len;
        CHECK(perfbuf_v1_instance_name_utf8(b, &parent, name, sizeof name, &len) == PERFBUF_OK);
        CHECK_STR(name, parents[i]);
        CHECK(perfbuf_v1_full_name_utf8(b, &threads, &inst, &index, name, sizeof name, &len) ==
              PERFBUF_OK);
        CHECK_STR(name, full[i]);
        i++;
    }
    CHECK(i == 7);
    perfbuf_v1_object processes;
    CHECK(find(b, 230, &processes));
    perfbuf_v1_instances_begin(&processes, &it);
    CHECK(perfbuf_v1_instances_next(b, &it, &inst));
    CHECK(perfbuf_v1_parent(b, &processes, &inst, &index, &parent, NULL) == PERFBUF_E_NOT_FOUND);
    free(slots);
    free_pair(&p);
}

/* ---- formulas by hand ---- */

/* The raw bytes of the counter at `position` of instance i (or the single
 * block) of object `title`, read from the file, not through the library's
 * value views. */
typedef struct raw {
    uint64_t value;      /* the counter's */
    uint64_t base;       /* the next definition's, for types with a base */
    uint32_t type;
    uint32_t title;
    int64_t object_time, object_freq;
} raw;

static bool read_raw(const perfbuf_v1_block *b, uint32_t title, uint32_t instance,
                     uint32_t position, raw *out)
{
    perfbuf_v1_object o;
    if (!find(b, title, &o)) {
        return false;
    }
    perfbuf_v1_counter_block block;
    if (o.num_instances < 0) {
        if (!perfbuf_v1_object_counter_block(b, &o, &block)) {
            return false;
        }
    } else {
        perfbuf_v1_iter it;
        perfbuf_v1_instance inst;
        uint32_t i = 0;
        bool found = false;
        perfbuf_v1_instances_begin(&o, &it);
        while (!found && perfbuf_v1_instances_next(b, &it, &inst)) {
            found = i++ == instance;
        }
        if (!found) {
            return false;
        }
        block = inst.counters;
    }
    perfbuf_v1_iter it;
    perfbuf_v1_counter c, next;
    uint32_t i = 0;
    bool found = false;
    perfbuf_v1_counters_begin(&o, &it);
    while (!found && perfbuf_v1_counters_next(b, &it, &c)) {
        found = i++ == position;
    }
    if (!found) {
        return false;
    }
    const uint8_t *at = b->data + block.offset;
    out->value = le(at + c.counter_offset, c.size);
    out->base = 0;
    if (perfbuf_v1_counters_next(b, &it, &next)) {
        out->base = le(at + next.counter_offset, next.size);
    }
    out->type = c.type;
    out->title = c.name_title_index;
    out->object_time = o.perf_time;
    out->object_freq = o.perf_freq;
    return true;
}

/* The counter's formula (PDH's, from the counter-type reference) over the
 * two captures' raw values and clocks; false for types not used here. */
static bool by_hand(const perfbuf_v1_block *older, const raw *r0, const perfbuf_v1_block *newer,
                    const raw *r1, double *out)
{
    double n = (double)(r1->value - r0->value);
    double seconds = (double)(newer->perf_time - older->perf_time) / (double)newer->perf_freq;
    double ticks_100ns = (double)(newer->perf_time_100ns - older->perf_time_100ns);
    switch (r1->type) {
    case PERF_COUNTER_RAWCOUNT:
    case PERF_COUNTER_LARGE_RAWCOUNT:
        *out = (double)r1->value;
        return true;
    case PERF_COUNTER_COUNTER:
    case PERF_COUNTER_BULK_COUNT:
        *out = n / seconds;
        return true;
    case PERF_100NSEC_TIMER:
        *out = 100.0 * n / ticks_100ns;
        return true;
    case PERF_100NSEC_TIMER_INV:
        *out = 100.0 * (1.0 - n / ticks_100ns);
        return true;
    case PERF_PRECISION_100NS_TIMER:
        *out = 100.0 * n / (double)(r1->base - r0->base);
        return true;
    case PERF_COUNTER_100NS_QUEUELEN_TYPE:
        *out = n / ticks_100ns;
        return true;
    case PERF_AVERAGE_TIMER:
        *out = n / (double)newer->perf_freq / (double)(r1->base - r0->base);
        return true;
    case PERF_AVERAGE_BULK:
        *out = n / (double)(r1->base - r0->base);
        return true;
    case PERF_RAW_FRACTION:
        *out = 100.0 * (double)r1->value / (double)r1->base;
        return true;
    case PERF_ELAPSED_TIME:
        *out = (double)(r1->object_time - (int64_t)r1->value) / (double)r1->object_freq;
        return true;
    default:
        return false;
    }
}

/* What the collector layer formats for counter `title` of object `object`
 * from the pair: one value per instance of the newer capture. */
static bool formatted(const pair *p, uint32_t object, uint32_t title, perfbuf_formatted_item *items,
                      size_t cap, size_t *count, char *strings, size_t strings_cap)
{
    size_t slots = 0;
    if (perfbuf_v1_pairing_scratch(&p->blocks[0], &p->blocks[1], object, &slots) != PERFBUF_OK) {
        return false;
    }
    uint64_t *scratch = malloc((slots ? slots : 1) * sizeof *scratch);
    perfbuf_v1_pairing pairing;
    bool ok = scratch != NULL &&
              perfbuf_v1_pair(&p->blocks[0], &p->blocks[1], object, scratch, slots, &pairing) ==
                  PERFBUF_OK &&
              pairing.paired + pairing.new_instances + pairing.ambiguous ==
                  pairing.newer_object.instance_count &&
              pairing.new_instances == 0 && pairing.ambiguous == 0;
    *count = cap;
    size_t bytes = strings_cap;
    ok = ok && perfbuf_v1_formatted_array(&pairing, title, NULL, PERFBUF_FMT_DOUBLE, items, count,
                                          strings, &bytes) == PERFBUF_OK;
    free(scratch);
    return ok;
}

static bool close_to(double got, double want)
{
    return fabs(got - want) <= 1e-9 * (fabs(want) > 1.0 ? fabs(want) : 1.0);
}

/* Every displayable counter of every object, formatted by the collector
 * layer from the two captures, equals its formula worked from the files'
 * bytes. */
static void every_value_by_hand(void)
{
    pair p = load_pair();
    CHECK(p.ok);
    uint32_t compared = 0;
    for (size_t n = 0; n < sizeof objects / sizeof objects[0]; n++) {
        uint32_t instances = objects[n].num_instances < 0 ? 1u : (uint32_t)objects[n].num_instances;
        for (uint32_t position = 0; position < objects[n].counters; position++) {
            raw r0, r1;
            CHECK(read_raw(&p.blocks[0], objects[n].title, 0, position, &r0));
            CHECK(read_raw(&p.blocks[1], objects[n].title, 0, position, &r1));
            const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(r1.type);
            CHECK(info != NULL);
            if (info->is_base) {
                continue;
            }
            perfbuf_formatted_item items[8];
            char strings[512];
            size_t count;
            CHECK(formatted(&p, objects[n].title, r1.title, items, 8, &count, strings,
                            sizeof strings));
            CHECK_EQ_U(count, instances);
            for (uint32_t i = 0; i < instances; i++) {
                CHECK(read_raw(&p.blocks[0], objects[n].title, i, position, &r0));
                CHECK(read_raw(&p.blocks[1], objects[n].title, i, position, &r1));
                double want = 0;
                CHECK(by_hand(&p.blocks[0], &r0, &p.blocks[1], &r1, &want));
                if (!(PERFBUF_CSTATUS_IS_VALID(items[i].value.status) &&
                      close_to(items[i].value.as_double, want))) {
                    fprintf(stderr, "object %u counter %u instance %u: %g, by hand %g\n",
                            objects[n].title, r1.title, i, items[i].value.as_double, want);
                    CHECK(false);
                }
                compared++;
            }
        }
    }
    CHECK_EQ_U(compared, 213); /* every displayable counter of every instance */
    free_pair(&p);
}

/* The round numbers the README promises, through the same path. */
static void documented_values(void)
{
    pair p = load_pair();
    CHECK(p.ok);
    static const struct {
        uint32_t object, counter, instance;
        double value;
    } want[] = {
        {234, 200, 0, 25.0},  {234, 202, 0, 10.0},  {234, 204, 0, 15.0},   {234, 1482, 0, 75.0},
        {234, 1482, 1, 75.0}, {236, 200, 0, 25.0},  {236, 1482, 1, 75.0},  {236, 408, 0, 25.0},
        {234, 206, 0, 0.002}, {234, 224, 0, 8192.0}, {234, 1400, 0, 0.5},  {234, 212, 0, 150.0},
        {234, 198, 0, 2.0},   {234, 208, 0, 0.002}, {234, 210, 1, 0.002},  {234, 228, 0, 8192.0},
        {234, 1484, 0, 3.0},  {234, 218, 0, 1228800.0}, {236, 1402, 0, 0.2}, {236, 1404, 1, 0.3},
        {236, 226, 1, 8192.0}, {236, 410, 0, 51200.0}, {236, 216, 0, 90.0},
        {238, 6, 0, 75.0},    {238, 6, 2, 50.0},    {230, 6, 3, 15.0},     {230, 684, 3, 3601.0},
        {230, 684, 4, 61.0},  {230, 784, 4, 1044.0}, {230, 1410, 4, 700.0}, {232, 6, 6, 80.0},
        {2, 146, 0, 12000.0}, {2, 674, 0, 86401.0}, {4, 1406, 0, 50.0},   {4, 28, 0, 1500.0},
        {510, 388, 0, 1500000.0}, {700, 702, 0, 26.0}, {700, 704, 1, 50.0},
        {1848, 1850, 0, 75.0}, {1848, 1892, 1, 20.0}, {1848, 1898, 2, 90.0},
        {1848, 1902, 3, 50.0}, {1848, 1906, 3, 20.0},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        perfbuf_formatted_item items[8];
        char strings[512];
        size_t count;
        CHECK(formatted(&p, want[i].object, want[i].counter, items, 8, &count, strings,
                        sizeof strings));
        CHECK(want[i].instance < count);
        CHECK(PERFBUF_CSTATUS_IS_VALID(items[want[i].instance].value.status));
        if (!close_to(items[want[i].instance].value.as_double, want[i].value)) {
            fprintf(stderr, "object %u counter %u: %g, want %g\n", want[i].object,
                    want[i].counter, items[want[i].instance].value.as_double, want[i].value);
            CHECK(false);
        }
    }
    free_pair(&p);
}

/* The Counter table names every object and counter index the blocks use
 * (bases without a title excepted). */
static void counter_table_names_everything(void)
{
    pair p = load_pair();
    file t = load("v1-names-documented-counter-009.bin");
    perfbuf_name_table names;
    CHECK(p.ok && t.data != NULL);
    CHECK(perfbuf_names_parse(t.data, t.len, &strict, &names, NULL) == PERFBUF_OK);
    const perfbuf_v1_block *b = &p.blocks[0];
    perfbuf_v1_iter objects_it;
    perfbuf_v1_object o;
    perfbuf_name_entry e;
    uint32_t looked_up = 0;
    perfbuf_v1_objects_begin(b, &objects_it);
    while (perfbuf_v1_objects_next(b, &objects_it, &o)) {
        CHECK(perfbuf_names_find(&names, o.name_title_index, &e) == PERFBUF_OK);
        perfbuf_v1_iter it;
        perfbuf_v1_counter c;
        perfbuf_v1_counters_begin(&o, &it);
        while (perfbuf_v1_counters_next(b, &it, &c)) {
            if (c.name_title_index != 0) {
                CHECK(perfbuf_names_find(&names, c.name_title_index, &e) == PERFBUF_OK);
                looked_up++;
            }
        }
    }
    CHECK(looked_up > 60);
    static const struct {
        uint32_t index;
        const char *text;
    } named[] = {
        {1, "1847"}, {2, "System"}, {4, "Memory"}, {200, "% Disk Time"},
        {208, "Avg. Disk sec/Read"}, {210, "Avg. Disk sec/Write"}, {228, "Avg. Disk Bytes/Write"},
        {230, "Process"},
        {232, "Thread"}, {234, "PhysicalDisk"}, {236, "LogicalDisk"}, {238, "Processor"},
        {510, "Network Interface"}, {700, "Paging File"}, {1482, "% Idle Time"},
        {1410, "Creating Process ID"}, {1848, "Processor Information"},
        {1904, "% Utility Base"},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        char text[64];
        size_t len;
        CHECK(perfbuf_names_find(&names, named[i].index, &e) == PERFBUF_OK);
        CHECK(perfbuf_names_text_utf8(&names, &e, text, sizeof text, &len) == PERFBUF_OK);
        CHECK_STR(text, named[i].text);
    }
    free(t.data);
    free_pair(&p);
}

/* ---- V2 ---- */

static uint64_t v2_expected(uint32_t id, uint32_t i, unsigned k)
{
    static const uint64_t idle[4] = {2500000u, 7500000u, 5000000u, 5000000u};
    switch (id) {
    case 0: return 400000000u + k * idle[i];
    case 21: return 1000000u + k * 2000000u;
    case 22: return 134398152000000000ull + k * 10000000ull;
    case 24: return 100000u + k * 9000u;
    case 25: return 1000u + k * 100u;
    case 17: return 2400u;
    case 26: return 200000u + k * 5000u;
    case 27: return 2000u + k * 100u;
    case 28: return 300000u + k * 2000u;
    default: return 1000u * (i + 1u) + id;
    }
}

/* Processor Information in V2: one PERF_COUNTERSET block, four named
 * instances, 31 values each (no id 29) that the registration types; the
 * pair formats % Processor Time and the two counters sharing base 27. */
static void v2_processor_information(void)
{
    file files[2] = {load("v2-query-documented-processor-information-0.bin"),
                     load("v2-query-documented-processor-information-1.bin")};
    file r = load("v2-reginfo-documented-processor-information.bin");
    perfbuf_v2_query q[2];
    perfbuf_v2_block blocks[2];
    perfbuf_v2_reginfo reg;
    CHECK(files[0].data != NULL && files[1].data != NULL && r.data != NULL);
    CHECK(perfbuf_v2_reginfo_parse(r.data, r.len, &strict, &reg, NULL) == PERFBUF_OK);
    static const char *const names[4] = {"0,0", "0,1", "0,_Total", "_Total"};
    for (unsigned k = 0; k < 2; k++) {
        CHECK(perfbuf_v2_query_parse(files[k].data, files[k].len, &strict, &q[k], NULL) ==
              PERFBUF_OK);
        perfbuf_v2_mismatch mismatch;
        CHECK(perfbuf_v2_crosscheck(&q[k], &reg, NULL, &mismatch) == PERFBUF_OK);
        perfbuf_v2_iter it;
        perfbuf_v2_blocks_begin(&q[k], &it);
        CHECK(perfbuf_v2_blocks_next(&q[k], &it, &blocks[k]));
        CHECK(blocks[k].kind == PERFBUF_V2_COUNTERSET && blocks[k].status == 0);
        CHECK(blocks[k].instance_count == 4 && blocks[k].counter_count == 31);
        perfbuf_v2_block extra;
        CHECK(!perfbuf_v2_blocks_next(&q[k], &it, &extra));
        perfbuf_v2_iter insts;
        perfbuf_v2_instance inst;
        uint64_t values[31];
        perfbuf_v2_values_read_result read;
        uint32_t i = 0;
        perfbuf_v2_instances_begin(&blocks[k], &insts);
        while (perfbuf_v2_instances_next_values(&q[k], &blocks[k], &insts, &inst, values, 31,
                                                &read) == PERFBUF_OK) {
            CHECK(i < 4 && read.count == 31 && read.non_integers == 0 && inst.id == i);
            char name[32];
            size_t len;
            CHECK(perfbuf_v2_instance_name_utf8(&q[k], &inst, name, sizeof name, &len) ==
                  PERFBUF_OK);
            CHECK_STR(name, names[i]);
            for (uint32_t c = 0; c < 31; c++) {
                uint32_t id = perfbuf_v2_block_counter_id(&q[k], &blocks[k], c);
                CHECK_EQ_U(id, c < 29 ? c : c + 1);
                CHECK_EQ_U(values[c], v2_expected(id, i, k));
            }
            i++;
        }
        CHECK(i == 4);
    }
    size_t slots;
    CHECK(perfbuf_v2_pairing_scratch(&blocks[0], &blocks[1], &slots) == PERFBUF_OK);
    uint64_t *scratch = malloc(slots * sizeof *scratch);
    perfbuf_v2_pairing pairing;
    CHECK(scratch != NULL);
    CHECK(perfbuf_v2_pair(&q[0], &blocks[0], &q[1], &blocks[1], scratch, slots, &pairing) ==
          PERFBUF_OK);
    CHECK(pairing.paired == 4);
    /* % Processor Time: 100 (1 - delta idle / delta PerfTime100NSec);
     * % Processor Utility and % Privileged Utility: delta / delta of base
     * 27, which both take. */
    static const struct {
        uint32_t id, base;
    } counters[] = {{0, 0}, {26, 27}, {28, 27}, {24, 25}, {21, 22}};
    for (size_t c = 0; c < sizeof counters / sizeof counters[0]; c++) {
        perfbuf_formatted_item items[4];
        char strings[128];
        size_t count = 4, bytes = sizeof strings;
        CHECK(perfbuf_v2_formatted_array(&pairing, &reg, counters[c].id, NULL, PERFBUF_FMT_DOUBLE,
                                         items, &count, strings, &bytes) == PERFBUF_OK);
        CHECK(count == 4);
        for (uint32_t i = 0; i < 4; i++) {
            double delta = (double)(v2_expected(counters[c].id, i, 1) -
                                    v2_expected(counters[c].id, i, 0));
            double want;
            if (counters[c].id == 0) {
                want = 100.0 * (1.0 - delta / 10000000.0);
            } else {
                double base = (double)(v2_expected(counters[c].base, i, 1) -
                                       v2_expected(counters[c].base, i, 0));
                want = (counters[c].id == 21 ? 100.0 : 1.0) * delta / base;
            }
            CHECK_STR(items[i].name, names[i]);
            CHECK(PERFBUF_CSTATUS_IS_VALID(items[i].value.status));
            CHECK(close_to(items[i].value.as_double, want));
        }
        if (counters[c].id == 26) {
            CHECK(close_to(items[0].value.as_double, 50.0));
        }
        if (counters[c].id == 28) {
            CHECK(close_to(items[3].value.as_double, 20.0));
        }
    }
    free(scratch);
    free(files[0].data);
    free(files[1].data);
    free(r.data);
}

/* Collects the capture into the query, growing its arena as asked. */
static perfbuf_status query_collect(perfbuf_query *q, void **arena, const file *f)
{
    size_t need = 0;
    perfbuf_status st;
    for (int round = 0;
         (st = perfbuf_query_collect(q, f->data, f->len, &need, NULL)) ==
             PERFBUF_E_OUTPUT_TOO_SMALL && round < 4;
         round++) {
        void *grown = realloc(*arena, need);
        size_t bytes = need;
        if (grown == NULL) {
            return PERFBUF_E_OUTPUT_TOO_SMALL;
        }
        *arena = grown;
        if (perfbuf_query_arena(q, grown, &bytes, NULL) != PERFBUF_OK) {
            return PERFBUF_E_OUTPUT_TOO_SMALL;
        }
    }
    return st;
}

/* One collected counter's items (their names and values); the names are
 * good until the next call. */
static size_t query_items(const perfbuf_query *q, const perfbuf_query_counter *c,
                          perfbuf_formatted_item *items, size_t cap)
{
    static char names[4096];
    size_t n = cap, bytes = sizeof names;
    return perfbuf_query_formatted_array(q, c, PERFBUF_FMT_DOUBLE, items, &n, names, &bytes,
                                         NULL) == PERFBUF_OK
               ? n
               : 0;
}

/*
 * A V2 path by the counterset's name, as a PerfLib V2 consumer writes it:
 * the query opened on the three answers PerfQueryCounterSetRegistrationInfo
 * gives (the registration, the counter names and the counterset's name)
 * finds "\Processor Information(*)\% Processor Time" (and the name in
 * other case) with the values of the README (75, 25, 50, 50 %; _Total's
 * 50 % Processor Utility). Without the name file the same path names no
 * counterset: that answer is what makes the name work.
 */
static void v2_path_by_counterset_name(void)
{
    file reginfo = load("v2-reginfo-documented-processor-information.bin");
    file names = load("v2-names-documented-processor-information.bin");
    file name = load("v2-counterset-name-documented-processor-information.bin");
    file captures[2] = {load("v2-query-documented-processor-information-0.bin"),
                        load("v2-query-documented-processor-information-1.bin")};
    CHECK(reginfo.data != NULL && names.data != NULL && name.data != NULL);
    CHECK(captures[0].data != NULL && captures[1].data != NULL);
    static const char *const paths[3] = {"\\Processor Information(*)\\% Processor Time",
                                         "\\processor information(_Total)\\% Processor Utility",
                                         "\\Processor Info(*)\\% Processor Time"};
    for (int with_name = 1; with_name >= 0; with_name--) {
        perfbuf_query_registration reg = {.reginfo = reginfo.data,
                                          .reginfo_len = reginfo.len,
                                          .counter_names = names.data,
                                          .counter_names_len = names.len,
                                          .counterset_name = with_name ? name.data : NULL,
                                          .counterset_name_len = with_name ? name.len : 0};
        perfbuf_query q;
        perfbuf_error err;
        CHECK(perfbuf_query_open_v2(&q, &reg, 1, &err) == PERFBUF_OK);
        perfbuf_query_counter c[3];
        memset(c, 0, sizeof c); /* owned by no query yet */
        for (int k = 0; k < 3; k++) {
            CHECK(perfbuf_query_add(&q, &c[k], paths[k], strlen(paths[k]), &err) == PERFBUF_OK);
        }
        void *arena = NULL;
        CHECK(query_collect(&q, &arena, &captures[0]) == PERFBUF_OK);
        CHECK(query_collect(&q, &arena, &captures[1]) == PERFBUF_OK);
        perfbuf_formatted_item items[4];
        if (with_name) {
            static const char *const instances[4] = {"0,0", "0,1", "0,_Total", "_Total"};
            static const double busy[4] = {75.0, 25.0, 50.0, 50.0};
            CHECK_EQ_U(c[0].found, PERFBUF_QUERY_FOUND_ITEMS);
            CHECK_EQ_U(query_items(&q, &c[0], items, 4), 4);
            for (size_t i = 0; i < 4; i++) {
                CHECK_STR(items[i].name, instances[i]);
                CHECK(items[i].value.status == PERFBUF_CSTATUS_VALID_DATA &&
                      close_to(items[i].value.as_double, busy[i]));
            }
            CHECK_EQ_U(query_items(&q, &c[1], items, 4), 1);
            CHECK(close_to(items[0].value.as_double, 50.0));
        } else {
            CHECK_EQ_U(c[0].found, PERFBUF_QUERY_FOUND_NO_OBJECT);
            CHECK_EQ_U(c[0].status, PERFBUF_CSTATUS_NO_OBJECT);
            CHECK_EQ_U(c[1].found, PERFBUF_QUERY_FOUND_NO_OBJECT);
        }
        /* A name that is not the counterset's names none, with or without it. */
        CHECK_EQ_U(c[2].found, PERFBUF_QUERY_FOUND_NO_OBJECT);
        CHECK_EQ_U(query_items(&q, &c[2], items, 4), 0);
        CHECK(perfbuf_query_close(&q, &err) == PERFBUF_OK);
        free(arena);
    }
    free(reginfo.data);
    free(names.data);
    free(name.data);
    free(captures[0].data);
    free(captures[1].data);
}

static const th_case cases[] = {
    TH_CASE(every_file_is_strict),
    TH_CASE(objects_and_instances),
    TH_CASE(shared_definitions),
    TH_CASE(thread_parents),
    TH_CASE(every_value_by_hand),
    TH_CASE(documented_values),
    TH_CASE(counter_table_names_everything),
    TH_CASE(v2_processor_information),
    TH_CASE(v2_path_by_counterset_name),
};

TH_MAIN(cases)
