/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * API misuse: views, iterators, counters, instances and indexes of one
 * buffer handed to a call together with the block of another. Every such
 * call must fail as its header documents or give a view that lies inside
 * the buffer it was given: never a crash, never a pointer outside it, and
 * never a raw sample read through a definition of the other capture.
 * Every buffer sits in front of a guard page, so a read past its end
 * faults even without a sanitizer.
 *
 * Also the two-sample pattern of the README, with the older capture's
 * definitions laid out differently: one counter from the newer capture
 * reads the right value from both.
 */
#include <string.h>

#include "adversarial.h"
#include "guard.h"
#include "harness.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/names.h"
#include "perfbuf/v1.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/v2_query.h"

static bool inside(const uint8_t *p, size_t n, const uint8_t *base, size_t len)
{
    if (p == NULL) {
        return n == 0;
    }
    uintptr_t a = (uintptr_t)p;
    uintptr_t b = (uintptr_t)base;
    return a >= b && a - b <= len && n <= len - (size_t)(a - b);
}

static bool span_inside(size_t offset, size_t n, size_t len)
{
    return offset <= len && n <= len - offset;
}

/* The statuses text.h and the name calls document. */
static bool text_status(perfbuf_status st)
{
    return st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL ||
           st == PERFBUF_E_INVALID_ARGUMENT || st == PERFBUF_E_UNKNOWN_VALUE ||
           st == PERFBUF_E_ODD_LENGTH || st == PERFBUF_E_BAD_REFERENCE;
}

/* ---- V1 ---- */

typedef struct v1_capture {
    guarded g;
    size_t len;
    perfbuf_v1_block b;
} v1_capture;

static bool v1_open(v1_capture *c, tb_buf src)
{
    c->g = guard_place(src.data, src.len);
    c->len = src.len;
    tb_free(&src);
    return perfbuf_v1_parse(c->g.bytes, c->len, NULL, &c->b, NULL) == PERFBUF_OK;
}

static void v1_close(v1_capture *c)
{
    guard_release(&c->g);
}

static bool v1_instance_inside(const perfbuf_v1_instance *inst, const v1_capture *c)
{
    return span_inside(inst->offset, inst->byte_length, c->b.size) &&
           span_inside(inst->name_offset, inst->name_bytes, c->b.size) &&
           span_inside(inst->counters.offset, inst->counters.byte_length, c->b.size);
}

/* An instance or object of `a` given to calls on `b`'s block. */
static void v1_foreign_instance(const v1_capture *a, const v1_capture *b,
                                const perfbuf_v1_object *oa, const perfbuf_v1_instance *ia,
                                const perfbuf_v1_instance_index *block_index_a,
                                const perfbuf_v1_instance_index *object_index_a)
{
    char out[64];
    size_t len;
    perfbuf_status st = perfbuf_v1_instance_name_utf8(&b->b, ia, out, sizeof out, &len);
    CHECK(text_status(st));
    const uint8_t *bytes = perfbuf_v1_instance_name_bytes(&b->b, ia);
    CHECK(bytes == NULL || inside(bytes, ia->name_bytes, b->g.bytes, b->len));

    /* Whether b's bytes hold a's object header and instance where a has
     * them: only then may b answer for them. */
    size_t object_end = oa->offset + 64;
    size_t instance_end = ia->offset + 24;
    bool same = object_end <= a->len && object_end <= b->len && instance_end <= a->len &&
                instance_end <= b->len &&
                memcmp(a->g.bytes + oa->offset, b->g.bytes + oa->offset, 64) == 0 &&
                memcmp(a->g.bytes + ia->offset, b->g.bytes + ia->offset, 24) == 0;
    const perfbuf_v1_instance_index *indexes[3] = {NULL, block_index_a, object_index_a};
    for (int k = 0; k < 3; k++) {
        perfbuf_v1_instance parent;
        st = perfbuf_v1_parent(&b->b, oa, ia, indexes[k], &parent, NULL);
        /* An instance of another block is INVALID_ARGUMENT, unless b holds
         * the very same object and instance bytes where a has them. */
        CHECK(same || st == PERFBUF_E_INVALID_ARGUMENT);
        CHECK(st != PERFBUF_OK || v1_instance_inside(&parent, b));
        st = perfbuf_v1_full_name_utf8(&b->b, oa, ia, indexes[k], out, sizeof out, &len);
        CHECK(same || st == PERFBUF_E_INVALID_ARGUMENT);
        CHECK(text_status(st));
        perfbuf_v1_instance found;
        st = perfbuf_v1_find_instance(&b->b, oa, "p1/c1", 5, indexes[k], &found);
        CHECK(st == PERFBUF_OK || st == PERFBUF_E_NOT_FOUND || st == PERFBUF_E_SCRATCH_NEEDED ||
              st == PERFBUF_E_INVALID_ARGUMENT);
        CHECK(st != PERFBUF_OK || v1_instance_inside(&found, b));
    }
    perfbuf_v1_instance got;
    st = perfbuf_v1_index_get(&b->b, object_index_a, ia->index, &got);
    CHECK(st == PERFBUF_OK || st == PERFBUF_E_NOT_FOUND || st == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(st != PERFBUF_OK || v1_instance_inside(&got, b));
}

/* A counter of `a` (with a's counter block and object) given to `b`. */
static void v1_foreign_counter(const v1_capture *b, const perfbuf_v1_object *oa,
                               const perfbuf_v1_counter *ca, const perfbuf_v1_counter_block *blk_a)
{
    /* A counter block of a's parse is none of b's. */
    CHECK_EQ_U(perfbuf_v1_counter_value(&b->b, blk_a, ca), 0u);
    CHECK(perfbuf_v1_counter_bytes(&b->b, blk_a, ca) == NULL);
    perfbuf_raw_sample s;
    perfbuf_value_context c;
    perfbuf_status st = perfbuf_v1_raw_sample(&b->b, oa, ca, blk_a, &s, &c);
    /* Every pair below differs in each object's title or length, so a's
     * object is never one of b's. */
    CHECK(st == PERFBUF_E_INVALID_ARGUMENT);
    /* Nor is a's counter block one of b's, whichever of b's objects it is
     * paired with. */
    perfbuf_v1_iter oi;
    perfbuf_v1_object ob;
    perfbuf_v1_objects_begin(&b->b, &oi);
    while (perfbuf_v1_objects_next(&b->b, &oi, &ob)) {
        CHECK_EQ_U(perfbuf_v1_raw_sample(&b->b, &ob, ca, blk_a, &s, &c),
                   PERFBUF_E_INVALID_ARGUMENT);
    }
}

/* A counter of `a` with b's own object and counter blocks: the two-sample
 * lookup by title index and type. `expect` is what b's builder put there
 * for that title, or NOT_FOUND / INCONSISTENT / INVALID_ARGUMENT. */
static uint32_t foreign_samples_ok;

typedef perfbuf_status (*v1_expectation)(const perfbuf_v1_object *ob, const perfbuf_v1_counter *ca,
                                         uint32_t instance, uint64_t *value);

static void v1_foreign_definition(const v1_capture *b, const perfbuf_v1_counter *ca,
                                  v1_expectation expect)
{
    perfbuf_v1_iter oi, ii;
    perfbuf_v1_object ob;
    perfbuf_v1_objects_begin(&b->b, &oi);
    while (perfbuf_v1_objects_next(&b->b, &oi, &ob)) {
        perfbuf_v1_counter_block single;
        perfbuf_raw_sample s;
        perfbuf_value_context c;
        uint64_t value = 0;
        if (perfbuf_v1_object_counter_block(&b->b, &ob, &single)) {
            perfbuf_status want = expect(&ob, ca, 0, &value);
            perfbuf_status st = perfbuf_v1_raw_sample(&b->b, &ob, ca, &single, &s, &c);
            CHECK_EQ_U(st, want);
            CHECK(st != PERFBUF_OK || s.first == value);
        }
        perfbuf_v1_instance ib;
        perfbuf_v1_instances_begin(&ob, &ii);
        while (perfbuf_v1_instances_next(&b->b, &ii, &ib)) {
            perfbuf_status want = expect(&ob, ca, ib.index, &value);
            perfbuf_status st = perfbuf_v1_raw_sample(&b->b, &ob, ca, &ib.counters, &s, &c);
            CHECK_EQ_U(st, want);
            CHECK(st != PERFBUF_OK || s.first == value);
            foreign_samples_ok += st == PERFBUF_OK;
        }
    }
}

/* What a raw sample of counter ca is in an object built by
 * tb_v1_sample_global (values from builder_v1.c). */
static perfbuf_status sample_global_expect(const perfbuf_v1_object *ob,
                                           const perfbuf_v1_counter *ca, uint32_t i,
                                           uint64_t *value)
{
    if (perfbuf_counter_type_samples(ca->type) == 0) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    typedef struct def {
        uint32_t object, title, type;
        uint64_t base, step;
    } def;
    static const def defs[] = {
        {TB_V1_PROCESS, 6, PERF_100NSEC_TIMER, 1000000, 1000000},
        {TB_V1_PROCESS, 784, PERF_COUNTER_RAWCOUNT, 100, 1},
        {TB_V1_PROCESS, 680, PERF_COUNTER_RAWCOUNT, 2, 1},
        {TB_V1_THREAD, 146, PERF_COUNTER_COUNTER, 7000, 1},
        {TB_V1_THREAD, 1000, PERF_RAW_FRACTION, 25, 0},
        {TB_V1_MEMORY, 1380, PERF_COUNTER_LARGE_RAWCOUNT, 8589934592ull, 0},
        {TB_V1_MEMORY, 200, PERF_PRECISION_100NS_TIMER, 4000, 0},
    };
    for (size_t k = 0; k < sizeof defs / sizeof defs[0]; k++) {
        if (defs[k].object == ob->name_title_index && defs[k].title == ca->name_title_index) {
            if (defs[k].type != ca->type) {
                return PERFBUF_E_INCONSISTENT;
            }
            *value = defs[k].base + defs[k].step * i;
            return PERFBUF_OK;
        }
    }
    return PERFBUF_E_NOT_FOUND;
}

/* The same for an object built by adversarial.c's standard objects. */
static perfbuf_status adversarial_expect(const perfbuf_v1_object *ob, const perfbuf_v1_counter *ca,
                                         uint32_t i, uint64_t *value)
{
    if (perfbuf_counter_type_samples(ca->type) == 0) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    static const uint32_t types[3] = {PERF_COUNTER_RAWCOUNT, PERF_COUNTER_LARGE_RAWCOUNT,
                                      PERF_RAW_FRACTION};
    for (uint32_t k = 0; k < 3; k++) {
        if (ca->name_title_index == 2 * k + 2) {
            if (ca->type != types[k]) {
                return PERFBUF_E_INCONSISTENT;
            }
            *value = adv_v1_value((ob->name_title_index - ADV_V1_TITLE(0)) / 2, i, k);
            return PERFBUF_OK;
        }
    }
    return PERFBUF_E_NOT_FOUND;
}

/* Everything of `a` given to calls on `b`. */
static void v1_mixed(const v1_capture *a, const v1_capture *b, v1_expectation expect_b)
{
    uint64_t *slots = malloc(sizeof *slots * (a->b.index_slots + 1));
    perfbuf_v1_instance_index block_index_a;
    CHECK(perfbuf_v1_block_index_build(&a->b, slots, a->b.index_slots, &block_index_a) ==
          PERFBUF_OK);
    static size_t offsets[4096];
    static size_t offsets_b[4096];
    perfbuf_v1_iter oi, oi_b, ci, ci_b, ii, ii_b;
    perfbuf_v1_object oa, ob;
    perfbuf_v1_objects_begin(&a->b, &oi);
    for (;;) {
        /* The iterator of a, as it stands, continued on b. */
        oi_b = oi;
        if (perfbuf_v1_objects_next(&b->b, &oi_b, &ob)) {
            CHECK(span_inside(ob.offset, ob.total_length, b->b.size));
        }
        if (!perfbuf_v1_objects_next(&a->b, &oi, &oa)) {
            break;
        }
        perfbuf_v1_object found;
        perfbuf_status st = perfbuf_v1_find_object(&b->b, oa.name_title_index, &found);
        CHECK(st == PERFBUF_E_NOT_FOUND ||
              (st == PERFBUF_OK && span_inside(found.offset, found.total_length, b->b.size)));
        perfbuf_v1_counter_block single;
        if (perfbuf_v1_object_counter_block(&b->b, &oa, &single)) {
            CHECK(span_inside(single.offset, single.byte_length, b->b.size));
        }
        perfbuf_v1_instance_index object_index_a;
        CHECK(oa.instance_count <= sizeof offsets / sizeof offsets[0]);
        CHECK(perfbuf_v1_index_build(&a->b, &oa, offsets, oa.instance_count, &object_index_a) ==
              PERFBUF_OK);
        perfbuf_v1_instance_index object_index_b;
        st = perfbuf_v1_index_build(&b->b, &oa, offsets_b, 4096, &object_index_b);
        CHECK(st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL ||
              st == PERFBUF_E_INVALID_ARGUMENT);
        for (uint32_t k = 0; st == PERFBUF_OK && k < object_index_b.count; k++) {
            CHECK(offsets_b[k] < b->b.size);
        }

        perfbuf_v1_counter ca, cb;
        perfbuf_v1_counters_begin(&oa, &ci);
        for (;;) {
            ci_b = ci;
            if (perfbuf_v1_counters_next(&b->b, &ci_b, &cb)) {
                CHECK(span_inside(cb.offset, cb.byte_length, b->b.size));
            }
            if (!perfbuf_v1_counters_next(&a->b, &ci, &ca)) {
                break;
            }
            CALL(v1_foreign_definition(b, &ca, expect_b));
            if (perfbuf_v1_object_counter_block(&a->b, &oa, &single)) {
                CALL(v1_foreign_counter(b, &oa, &ca, &single));
            }
            perfbuf_v1_instance ia;
            perfbuf_v1_instances_begin(&oa, &ii);
            while (perfbuf_v1_instances_next(&a->b, &ii, &ia)) {
                CALL(v1_foreign_counter(b, &oa, &ca, &ia.counters));
            }
        }

        perfbuf_v1_instance ia, ib;
        perfbuf_v1_instances_begin(&oa, &ii);
        for (;;) {
            ii_b = ii;
            if (perfbuf_v1_instances_next(&b->b, &ii_b, &ib)) {
                CHECK(v1_instance_inside(&ib, b));
            }
            if (!perfbuf_v1_instances_next(&a->b, &ii, &ia)) {
                break;
            }
            CALL(v1_foreign_instance(a, b, &oa, &ia, &block_index_a, &object_index_a));
        }
    }
    free(slots);
}

static void v1_pair(tb_buf a_src, tb_buf b_src, v1_expectation expect_a, v1_expectation expect_b)
{
    v1_capture a, b;
    bool ok_a = v1_open(&a, a_src);
    bool ok_b = v1_open(&b, b_src);
    if (ok_a && ok_b) {
        v1_mixed(&a, &b, expect_b);
        if (!th.case_failed) {
            v1_mixed(&b, &a, expect_a);
        }
    }
    v1_close(&a);
    v1_close(&b);
    CHECK(ok_a && ok_b);
}

static tb_buf sample_global(void)
{
    return tb_v1_sample_global().buf;
}

static void v1_two_different_blocks(void)
{
    CALL(v1_pair(adv_v1_many_instances(64), sample_global(), adversarial_expect,
                 sample_global_expect));
}

/* b much smaller than a: most of a's offsets are past b's end. */
static void v1_much_smaller_block(void)
{
    foreign_samples_ok = 0;
    CALL(v1_pair(adv_v1_many_instances(300), adv_v1_many_objects(1), adversarial_expect,
                 adversarial_expect));
    /* Laid out alike, a's counters read b's values: the lookup was used. */
    CHECK(foreign_samples_ok > 0);
    CALL(v1_pair(adv_v1_two_parents(2000), sample_global(), adversarial_expect,
                 sample_global_expect));
}

/*
 * The README's two-sample pattern: the same object in two captures, the
 * older one with its definitions in another order and at other offsets.
 * Values: newer instance i has count 100 + i, fraction 25 + i of base 200,
 * large count 5000000000 + i; older has count 90 + i, fraction 20 + i of
 * base 100, large count 4000000000 + i.
 */
enum { TITLE_OBJECT = 500, TITLE_COUNT = 10, TITLE_LARGE = 12, TITLE_FRACTION = 14 };

static tb_buf two_sample_capture(bool older)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, TITLE_OBJECT, 0, 0);
    if (!older) {
        tb_v1_counter(&v, TITLE_COUNT, PERF_COUNTER_RAWCOUNT, 4, 8);
        tb_v1_counter(&v, TITLE_LARGE, PERF_COUNTER_LARGE_RAWCOUNT, 8, 16);
        tb_v1_counter(&v, TITLE_FRACTION, PERF_RAW_FRACTION, 4, 24);
        tb_v1_counter(&v, 0, PERF_RAW_BASE, 4, 28);
    } else {
        tb_v1_counter(&v, TITLE_FRACTION, PERF_RAW_FRACTION, 4, 4);
        tb_v1_counter(&v, 0, PERF_RAW_BASE, 4, 8);
        tb_v1_counter(&v, TITLE_LARGE, PERF_COUNTER_LARGE_RAWCOUNT, 8, 12);
        tb_v1_counter(&v, TITLE_COUNT, PERF_COUNTER_RAWCOUNT, 4, 20);
    }
    tb_v1_definitions_end(&v);
    for (uint32_t i = 0; i < 3; i++) {
        uint8_t data[28] = {0};
        if (!older) {
            tb_put32(data, 8, 100 + i);
            tb_put64(data, 16, 5000000000ull + i);
            tb_put32(data, 24, 25 + i);
            tb_put32(data, 28, 200);
        } else {
            tb_put32(data, 4, 20 + i);
            tb_put32(data, 8, 100);
            tb_put64(data, 12, 4000000000ull + i);
            tb_put32(data, 20, 90 + i);
        }
        tb_v1_instance(&v, i == 0 ? "first" : i == 1 ? "second" : "third", 0, 0);
        tb_v1_counter_block(&v, data, older ? 24 : 28);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

static void v1_two_samples_moved_layout(void)
{
    v1_capture newer, older;
    bool ok = v1_open(&newer, two_sample_capture(false));
    ok = v1_open(&older, two_sample_capture(true)) && ok;
    perfbuf_v1_object o1, o0;
    ok = ok && perfbuf_v1_find_object(&newer.b, TITLE_OBJECT, &o1) == PERFBUF_OK &&
         perfbuf_v1_find_object(&older.b, TITLE_OBJECT, &o0) == PERFBUF_OK;
    perfbuf_v1_iter ci, i1, i0;
    perfbuf_v1_counter counter;
    uint32_t checked = 0;
    perfbuf_v1_counters_begin(&o1, &ci);
    while (ok && perfbuf_v1_counters_next(&newer.b, &ci, &counter)) {
        if (perfbuf_counter_type_samples(counter.type) == 0) {
            continue;
        }
        perfbuf_v1_instance inst1, inst0;
        perfbuf_v1_instances_begin(&o1, &i1);
        perfbuf_v1_instances_begin(&o0, &i0);
        while (perfbuf_v1_instances_next(&newer.b, &i1, &inst1) &&
               perfbuf_v1_instances_next(&older.b, &i0, &inst0)) {
            uint32_t i = inst1.index;
            perfbuf_raw_sample s0, s1;
            perfbuf_value_context ctx0, ctx1;
            CHECK(perfbuf_v1_raw_sample(&older.b, &o0, &counter, &inst0.counters, &s0, &ctx0) ==
                  PERFBUF_OK);
            CHECK(perfbuf_v1_raw_sample(&newer.b, &o1, &counter, &inst1.counters, &s1, &ctx1) ==
                  PERFBUF_OK);
            CHECK_EQ_U(s0.type, counter.type);
            switch (counter.name_title_index) {
            case TITLE_COUNT:
                CHECK_EQ_U(s1.first, 100 + i);
                CHECK_EQ_U(s0.first, 90 + i);
                break;
            case TITLE_LARGE:
                CHECK_EQ_U(s1.first, 5000000000ull + i);
                CHECK_EQ_U(s0.first, 4000000000ull + i);
                break;
            case TITLE_FRACTION: {
                CHECK_EQ_U(s1.first, 25 + i);
                CHECK_EQ_U(s1.second, 200);
                CHECK_EQ_U(s0.first, 20 + i);
                CHECK_EQ_U(s0.second, 100);
                /* A raw fraction is one-sample: 100 * first / second. */
                perfbuf_value v;
                CHECK(perfbuf_format_value(counter.type, &s0, NULL, &ctx0, PERFBUF_FMT_LARGE,
                                           &v) == PERFBUF_CSTATUS_VALID_DATA);
                CHECK_EQ_U(v.as_large, 20 + i);
                break;
            }
            default:
                CHECK(false);
            }
            checked++;
        }
    }
    v1_close(&newer);
    v1_close(&older);
    CHECK(ok);
    CHECK_EQ_U(checked, 3 * 3);
}

/*
 * A rate between two captures whose PerfFreq differs (a reboot, another
 * machine's log): the samplers give two contexts, and the value is the one
 * perfbuf_format_value documents, from the newer sample's. The counter moved
 * 600 in 2000000 ticks: 1 s at the newer 2000000 Hz, so 600 per second;
 * the older 1000000 Hz would make it 300.
 */
static tb_buf counter_capture(uint32_t perf_time, uint32_t perf_freq, uint32_t count)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, TITLE_OBJECT, 1, 0);
    tb_v1_counter(&v, TITLE_COUNT, PERF_COUNTER_COUNTER, 4, 4);
    tb_v1_definitions_end(&v);
    uint8_t data[4] = {0};
    tb_put32(data, 4, count);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    /* PERF_DATA_BLOCK's PerfTime and PerfFreq, 64 bits each at 56 and 64. */
    tb_patch_u32(&v.buf, 56, perf_time);
    tb_patch_u32(&v.buf, 60, 0);
    tb_patch_u32(&v.buf, 64, perf_freq);
    tb_patch_u32(&v.buf, 68, 0);
    return v.buf;
}

static void v1_two_samples_other_frequency(void)
{
    v1_capture newer, older;
    bool ok = v1_open(&older, counter_capture(1000000, 1000000, 100));
    ok = v1_open(&newer, counter_capture(3000000, 2000000, 700)) && ok;
    perfbuf_v1_object o1, o0;
    perfbuf_v1_iter it;
    perfbuf_v1_counter counter;
    perfbuf_v1_counter_block blk1, blk0;
    memset(&counter, 0, sizeof counter);
    ok = ok && perfbuf_v1_find_object(&newer.b, TITLE_OBJECT, &o1) == PERFBUF_OK &&
         perfbuf_v1_find_object(&older.b, TITLE_OBJECT, &o0) == PERFBUF_OK &&
         perfbuf_v1_object_counter_block(&newer.b, &o1, &blk1) &&
         perfbuf_v1_object_counter_block(&older.b, &o0, &blk0);
    if (ok) {
        perfbuf_v1_counters_begin(&o1, &it);
        ok = perfbuf_v1_counters_next(&newer.b, &it, &counter);
    }
    perfbuf_raw_sample s0, s1;
    perfbuf_value_context ctx0 = {0, 0}, ctx1 = {0, 0};
    ok = ok && perfbuf_v1_raw_sample(&older.b, &o0, &counter, &blk0, &s0, &ctx0) == PERFBUF_OK &&
         perfbuf_v1_raw_sample(&newer.b, &o1, &counter, &blk1, &s1, &ctx1) == PERFBUF_OK;
    perfbuf_value v = {0, 0, 0.0, 0, 0};
    uint32_t st = ok ? perfbuf_format_value(counter.type, &s1, &s0, &ctx1, PERFBUF_FMT_DOUBLE, &v)
                     : PERFBUF_CSTATUS_INVALID_DATA;
    v1_close(&newer);
    v1_close(&older);
    CHECK(ok);
    CHECK_EQ_U(ctx0.frequency, 1000000);
    CHECK_EQ_U(ctx1.frequency, 2000000);
    CHECK_EQ_U(st, PERFBUF_CSTATUS_VALID_DATA);
    CHECK(v.as_double == 600.0);
}

/* A title whose type changed between captures, and one that went away. */
static void v1_two_samples_changed_type(void)
{
    v1_capture newer, other;
    bool ok = v1_open(&newer, two_sample_capture(false));
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, TITLE_OBJECT, 1, 0);
    tb_v1_counter(&v, TITLE_COUNT, PERF_COUNTER_LARGE_RAWCOUNT, 8, 8);
    tb_v1_definitions_end(&v);
    uint8_t data[12] = {0};
    tb_put64(data, 8, 77);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    ok = v1_open(&other, v.buf) && ok;
    perfbuf_v1_object o1, o2;
    perfbuf_v1_counter_block blk;
    ok = ok && perfbuf_v1_find_object(&newer.b, TITLE_OBJECT, &o1) == PERFBUF_OK &&
         perfbuf_v1_find_object(&other.b, TITLE_OBJECT, &o2) == PERFBUF_OK &&
         perfbuf_v1_object_counter_block(&other.b, &o2, &blk);
    perfbuf_v1_iter ci;
    perfbuf_v1_counter counter;
    uint32_t seen = 0;
    perfbuf_v1_counters_begin(&o1, &ci);
    while (ok && perfbuf_v1_counters_next(&newer.b, &ci, &counter)) {
        perfbuf_raw_sample s;
        perfbuf_value_context ctx;
        perfbuf_status st = perfbuf_v1_raw_sample(&other.b, &o2, &counter, &blk, &s, &ctx);
        if (counter.name_title_index == TITLE_COUNT) {
            CHECK_EQ_U(st, PERFBUF_E_INCONSISTENT);
        } else if (perfbuf_counter_type_samples(counter.type) == 0) {
            CHECK_EQ_U(st, PERFBUF_E_INVALID_ARGUMENT);
        } else {
            CHECK_EQ_U(st, PERFBUF_E_NOT_FOUND);
        }
        seen++;
    }
    v1_close(&newer);
    v1_close(&other);
    CHECK(ok);
    CHECK_EQ_U(seen, 4);
}

/*
 * Counter blocks of another parse. A counter block is accepted only where
 * its own parse put it (perfbuf_v1_counter_block): one of another capture,
 * of the same buffer before it was received into and parsed again, or one
 * moved off a block start within the parse is INVALID_ARGUMENT in every
 * read (0 from perfbuf_v1_counter_value, NULL from perfbuf_v1_counter_bytes),
 * even where its range lies in the object's data and holds every counter.
 *
 * The captures: one object, a 4-byte count at 4 and an 8-byte count at 8,
 * three instances named `names[i]` whose counts are count + i and
 * 10 * count + i, PerfTime `perf_time`.
 */
enum { SLIP_COUNTERS = 2 };

static tb_buf slip_capture(const char *const names[3], uint32_t perf_time, uint32_t count)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, TITLE_OBJECT, 0, 0);
    tb_v1_counter(&v, TITLE_COUNT, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_counter(&v, TITLE_LARGE, PERF_COUNTER_LARGE_RAWCOUNT, 8, 8);
    tb_v1_definitions_end(&v);
    for (uint32_t i = 0; i < 3; i++) {
        uint8_t data[12] = {0};
        tb_put32(data, 4, count + i);
        tb_put64(data, 8, 10ull * count + i);
        tb_v1_instance(&v, names[i], 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    tb_patch_u32(&v.buf, 56, perf_time);
    return v.buf;
}

static const char *const short_names[3] = {"a", "b", "c"};
static const char *const long_names[3] = {"instance-name-characters-0", "instance-name-characters-1",
                                          "instance-name-characters-2"};

/* One parsed capture of slip_capture with what every read needs. */
typedef struct slip_side {
    perfbuf_v1_object o;
    perfbuf_v1_counter defs[SLIP_COUNTERS];
    perfbuf_v1_instance inst[3];
    perfbuf_v1_plan_entry entries[SLIP_COUNTERS];
    perfbuf_v1_plan plan;
} slip_side;

static bool slip_read(const perfbuf_v1_block *b, slip_side *side)
{
    perfbuf_v1_iter it;
    if (perfbuf_v1_find_object(b, TITLE_OBJECT, &side->o) != PERFBUF_OK ||
        perfbuf_v1_plan_build(b, &side->o, side->entries, SLIP_COUNTERS, &side->plan) !=
            PERFBUF_OK) {
        return false;
    }
    uint32_t n = 0;
    perfbuf_v1_counters_begin(&side->o, &it);
    while (n < SLIP_COUNTERS && perfbuf_v1_counters_next(b, &it, &side->defs[n])) {
        n++;
    }
    uint32_t i = 0;
    perfbuf_v1_instances_begin(&side->o, &it);
    while (i < 3 && perfbuf_v1_instances_next(b, &it, &side->inst[i])) {
        i++;
    }
    return n == SLIP_COUNTERS && i == 3;
}

/* Whether blk's range lies in o's data: what every read checked before
 * counter blocks carried their parse. */
static bool range_in_object_data(const perfbuf_v1_object *o, const perfbuf_v1_counter_block *blk)
{
    return blk->offset >= o->data_offset &&
           span_inside(blk->offset, blk->byte_length, o->offset + o->total_length) &&
           blk->byte_length >= 4 + 4 + 8;
}

/* Every value read of b refuses blk: the accessors, the raw sample with
 * each counter of either capture, and the plan calls with blk on either
 * side of a pair whose other side (peer, peer_b, peer_blk) is sound. */
static void all_reads_refuse(const perfbuf_v1_block *b, const slip_side *side,
                             const perfbuf_v1_counter_block *blk, const slip_side *peer,
                             const perfbuf_v1_block *peer_b,
                             const perfbuf_v1_counter_block *peer_blk)
{
    perfbuf_raw_sample s;
    perfbuf_value_context x;
    perfbuf_value v;
    perfbuf_value all[SLIP_COUNTERS];
    uint64_t values[SLIP_COUNTERS];
    for (uint32_t k = 0; k < SLIP_COUNTERS; k++) {
        CHECK_EQ_U(perfbuf_v1_counter_value(b, blk, &side->defs[k]), 0u);
        CHECK(perfbuf_v1_counter_bytes(b, blk, &side->defs[k]) == NULL);
        CHECK_EQ_U(perfbuf_v1_raw_sample(b, &side->o, &side->defs[k], blk, &s, &x),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_EQ_U(perfbuf_v1_raw_sample(b, &side->o, &peer->defs[k], blk, &s, &x),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_EQ_U(perfbuf_v1_plan_sample(&side->plan, b, blk, k, &s, &x),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_EQ_U(perfbuf_v1_plan_format(&peer->plan, peer_b, peer_blk, &side->plan, b, blk, k,
                                          PERFBUF_FMT_LARGE, &v),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_EQ_U(perfbuf_v1_plan_format(&side->plan, b, blk, &peer->plan, peer_b, peer_blk, k,
                                          PERFBUF_FMT_LARGE, &v),
                   PERFBUF_E_INVALID_ARGUMENT);
    }
    CHECK_EQ_U(perfbuf_v1_plan_read(&side->plan, b, blk, values, SLIP_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_all(&peer->plan, peer_b, peer_blk, &side->plan, b, blk,
                                          PERFBUF_FMT_LARGE, all, SLIP_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_all(&side->plan, b, blk, &peer->plan, peer_b, peer_blk,
                                          PERFBUF_FMT_LARGE, all, SLIP_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
}

/* Instance i's own counts in b are read as slip_capture wrote them. */
static void own_reads(const perfbuf_v1_block *b, const slip_side *side, uint32_t i, uint32_t count)
{
    perfbuf_raw_sample s;
    perfbuf_value_context x;
    uint64_t values[SLIP_COUNTERS];
    CHECK_EQ_U(perfbuf_v1_counter_value(b, &side->inst[i].counters, &side->defs[0]), count + i);
    CHECK(perfbuf_v1_raw_sample(b, &side->o, &side->defs[1], &side->inst[i].counters, &s, &x) ==
          PERFBUF_OK);
    CHECK_EQ_U(s.first, 10ull * count + i);
    CHECK(perfbuf_v1_plan_read(&side->plan, b, &side->inst[i].counters, values, SLIP_COUNTERS) ==
          PERFBUF_OK);
    CHECK_EQ_U(values[0], count + i);
}

/*
 * The usual slip: the newer instance's counters passed with the older
 * block. The older capture's instances have longer names, so the newer
 * first block's range falls on the older first instance's name, inside
 * the object's data and long enough for both counters.
 */
static void v1_slip_onto_instance_names(void)
{
    v1_capture newer, older;
    bool ok = v1_open(&older, slip_capture(long_names, 1000, 100));
    ok = v1_open(&newer, slip_capture(short_names, 2000, 200)) && ok;
    slip_side n, o;
    ok = ok && slip_read(&newer.b, &n) && slip_read(&older.b, &o);
    CHECK(ok);
    if (ok) {
        const perfbuf_v1_counter_block *slip = &n.inst[0].counters;
        CHECK(range_in_object_data(&o.o, slip));
        CHECK(slip->offset >= o.inst[0].name_offset &&
              slip->offset + 12 <= o.inst[0].name_offset + o.inst[0].name_bytes);
        CALL(all_reads_refuse(&older.b, &o, slip, &n, &newer.b, &n.inst[0].counters));
        CALL(own_reads(&older.b, &o, 0, 100));
        CALL(own_reads(&newer.b, &n, 0, 200));
    }
    v1_close(&newer);
    v1_close(&older);
}

/* Two captures laid out alike: the newer blocks sit where the older ones
 * start, with the same ByteLength, and are refused for their parse alone. */
static void v1_slip_same_layout(void)
{
    v1_capture newer, older;
    bool ok = v1_open(&older, slip_capture(short_names, 1000, 100));
    ok = v1_open(&newer, slip_capture(short_names, 2000, 200)) && ok;
    slip_side n, o;
    ok = ok && slip_read(&newer.b, &n) && slip_read(&older.b, &o);
    CHECK(ok);
    for (uint32_t i = 0; ok && i < 3; i++) {
        const perfbuf_v1_counter_block *slip = &n.inst[i].counters;
        CHECK(slip->offset == o.inst[i].counters.offset &&
              slip->byte_length == o.inst[i].counters.byte_length);
        CHECK(slip->parse_id == newer.b.parse_id && slip->parse_id != older.b.parse_id);
        CALL(all_reads_refuse(&older.b, &o, slip, &n, &newer.b, &n.inst[i].counters));
        CALL(all_reads_refuse(&newer.b, &n, &o.inst[i].counters, &o, &older.b,
                              &o.inst[i].counters));
        CALL(own_reads(&older.b, &o, i, 100));
    }
    v1_close(&newer);
    v1_close(&older);
}

/*
 * One buffer received into twice, as a collector that keeps one buffer
 * does: the first capture's counter blocks, kept across the second parse,
 * are of a parse that is gone, and so is a plan built on it.
 */
static void v1_reused_buffer(void)
{
    tb_buf first = slip_capture(short_names, 1000, 100);
    tb_buf second = slip_capture(short_names, 2000, 200);
    CHECK(first.len == second.len);
    guarded g = guard_place(first.data, first.len);
    perfbuf_v1_block b1, b2;
    slip_side s1, s2;
    bool ok = first.len == second.len &&
              perfbuf_v1_parse(g.bytes, first.len, NULL, &b1, NULL) == PERFBUF_OK &&
              slip_read(&b1, &s1);
    CHECK(ok);
    if (ok) {
        CALL(own_reads(&b1, &s1, 1, 100));
        memcpy(g.bytes, second.data, second.len);
        ok = perfbuf_v1_parse(g.bytes, second.len, NULL, &b2, NULL) == PERFBUF_OK &&
             slip_read(&b2, &s2);
        CHECK(ok);
    }
    if (ok) {
        CHECK(b1.data == b2.data && b1.parse_id != b2.parse_id);
        for (uint32_t i = 0; i < 3; i++) {
            CHECK(s1.inst[i].counters.offset == s2.inst[i].counters.offset);
            CALL(all_reads_refuse(&b2, &s2, &s1.inst[i].counters, &s2, &b2,
                                  &s2.inst[i].counters));
            CALL(own_reads(&b2, &s2, i, 200));
        }
        /* The plan of the first parse, with the second's own blocks. */
        uint64_t values[SLIP_COUNTERS];
        CHECK_EQ_U(perfbuf_v1_plan_read(&s1.plan, &b2, &s2.inst[0].counters, values,
                                        SLIP_COUNTERS),
                   PERFBUF_E_INVALID_ARGUMENT);
    }
    guard_release(&g);
    tb_free(&first);
    tb_free(&second);
}

/* Within one parse, a block moved off a block start but kept in the
 * object's data: onto the instance definition before it, into the block
 * itself, onto the name. Each keeps the parse's identity. */
static void v1_block_off_a_block_start(void)
{
    v1_capture c;
    bool ok = v1_open(&c, slip_capture(long_names, 1000, 100));
    slip_side side;
    ok = ok && slip_read(&c.b, &side);
    CHECK(ok);
    if (ok) {
        const perfbuf_v1_counter_block own = side.inst[1].counters;
        const size_t starts[3] = {side.inst[1].offset, own.offset + 8, side.inst[1].name_offset};
        for (int k = 0; k < 3; k++) {
            perfbuf_v1_counter_block moved = own;
            moved.offset = starts[k];
            CHECK(range_in_object_data(&side.o, &moved));
            CALL(all_reads_refuse(&c.b, &side, &moved, &side, &c.b, &own));
        }
        /* Resized where it starts: no ByteLength of that length there. */
        perfbuf_v1_counter_block longer = own;
        longer.byte_length += 8;
        CHECK(range_in_object_data(&side.o, &longer));
        CALL(all_reads_refuse(&c.b, &side, &longer, &side, &c.b, &own));
        /* And a zeroed block is of no parse. */
        perfbuf_v1_counter_block zeroed = {own.offset, own.byte_length, 0};
        CALL(all_reads_refuse(&c.b, &side, &zeroed, &side, &c.b, &own));
        CALL(own_reads(&c.b, &side, 1, 100));
    }
    v1_close(&c);
}

/* ---- V2 query data ---- */

typedef struct v2_capture {
    guarded g;
    size_t len;
    perfbuf_v2_query q;
} v2_capture;

static bool v2_open(v2_capture *c, tb_buf src)
{
    c->g = guard_place(src.data, src.len);
    c->len = src.len;
    tb_free(&src);
    return perfbuf_v2_query_parse(c->g.bytes, c->len, NULL, &c->q, NULL) == PERFBUF_OK;
}

static bool v2_block_inside(const perfbuf_v2_block *blk, const v2_capture *c)
{
    return span_inside(blk->offset, blk->size, c->q.size) && blk->items_end <= c->q.size;
}

static bool v2_instance_inside(const perfbuf_v2_instance *inst, const v2_capture *c)
{
    return span_inside(inst->offset, inst->size, c->q.size) &&
           inst->name_offset <= c->q.size && inst->name_units <= (c->q.size - inst->name_offset) / 2;
}

static void v2_values_on(const v2_capture *b, const perfbuf_v2_block *blk_a, perfbuf_v2_iter it)
{
    perfbuf_v2_value v;
    for (uint32_t guard = 0; guard < 100000 && perfbuf_v2_values_next(&b->q, blk_a, &it, &v);
         guard++) {
        CHECK(span_inside(v.offset, 8, b->q.size));
        CHECK(inside(v.bytes, v.data_size, b->g.bytes, b->len));
    }
}

static void v2_mixed(const v2_capture *a, const v2_capture *b, const perfbuf_v2_reginfo *reg)
{
    perfbuf_v2_iter bi, bi_b, ii, ii_b, vi;
    perfbuf_v2_block ba, bb;
    perfbuf_v2_blocks_begin(&a->q, &bi);
    for (;;) {
        bi_b = bi;
        if (perfbuf_v2_blocks_next(&b->q, &bi_b, &bb)) {
            CHECK(v2_block_inside(&bb, b));
        }
        if (!perfbuf_v2_blocks_next(&a->q, &bi, &ba)) {
            break;
        }
        for (uint32_t i = 0; i <= ba.counter_count; i++) {
            (void)perfbuf_v2_block_counter_id(&b->q, &ba, i);
        }
        perfbuf_v2_block_values_begin(&ba, &vi);
        CALL(v2_values_on(b, &ba, vi));
        perfbuf_raw_sample s;
        perfbuf_value_context c;
        perfbuf_status st = perfbuf_v2_raw_sample(&b->q, &ba, NULL, reg, 3, &s, &c);
        CHECK(st == PERFBUF_OK || st == PERFBUF_E_NOT_FOUND || st == PERFBUF_E_INVALID_ARGUMENT);
        perfbuf_v2_instance ia, ib;
        perfbuf_v2_instances_begin(&ba, &ii);
        for (;;) {
            ii_b = ii;
            if (perfbuf_v2_instances_next(&b->q, &ba, &ii_b, &ib)) {
                CHECK(v2_instance_inside(&ib, b));
            }
            if (!perfbuf_v2_instances_next(&a->q, &ba, &ii, &ia)) {
                break;
            }
            char out[64];
            uint16_t units[64];
            size_t len;
            CHECK(text_status(perfbuf_v2_instance_name_utf8(&b->q, &ia, out, sizeof out, &len)));
            st = perfbuf_v2_instance_name_utf16(&b->q, &ia, units, 64, &len);
            CHECK(st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL ||
                  st == PERFBUF_E_INVALID_ARGUMENT);
            perfbuf_v2_instance_values_begin(&ia, &vi);
            CALL(v2_values_on(b, &ba, vi));
            for (uint32_t id = 0; id < 32; id++) {
                st = perfbuf_v2_raw_sample(&b->q, &ba, &ia, reg, id, &s, &c);
                CHECK(st == PERFBUF_OK || st == PERFBUF_E_NOT_FOUND ||
                      st == PERFBUF_E_INVALID_ARGUMENT);
            }
        }
    }
}

static void v2_pair(tb_buf a_src, tb_buf b_src)
{
    tb_buf reg_src = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                                   PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_reginfo reg;
    v2_capture a, b;
    bool ok = perfbuf_v2_reginfo_parse(reg_src.data, reg_src.len, NULL, &reg, NULL) == PERFBUF_OK;
    ok = v2_open(&a, a_src) && ok;
    ok = v2_open(&b, b_src) && ok;
    if (ok) {
        v2_mixed(&a, &b, &reg);
        if (!th.case_failed) {
            v2_mixed(&b, &a, &reg);
        }
    }
    guard_release(&a.g);
    guard_release(&b.g);
    tb_free(&reg_src);
    CHECK(ok);
}

static void v2_two_different_queries(void)
{
    static const char *const names[3] = {"_Total", "0,0", "0,1"};
    CALL(v2_pair(adv_v2_many_blocks(40).buf, tb_v2_processor_information_query(names, 3).buf));
    CALL(v2_pair(adv_v2_many_instances(50).buf, tb_v2_sample_all_kinds().buf));
}

static void v2_much_smaller_query(void)
{
    tb_v2 small;
    tb_v2_begin(&small, 1, 2, 3);
    tb_v2_block_begin(&small, 0, PERFBUF_V2_SINGLE_COUNTER);
    tb_v2_u32(&small, 7);
    tb_v2_block_end(&small);
    tb_v2_end(&small);
    CALL(v2_pair(adv_v2_many_blocks(200).buf, small.buf));
    CALL(v2_pair(adv_v2_wide(300).buf, tb_v2_sample_all_kinds().buf));
}

/* ---- V2 metadata and name tables ---- */

static void meta_strings(void)
{
    tb_buf big = adv_strings(200, 0, 0);
    tb_buf small = tb_v2_strings(tb_processor_information, 4, PERFBUF_V2_STRINGS_FROM_ARRAY_END);
    guarded ga = guard_place(big.data, big.len);
    guarded gb = guard_place(small.data, small.len);
    perfbuf_v2_strings sa, sb;
    bool ok = perfbuf_v2_strings_parse(ga.bytes, big.len, PERFBUF_V2_STRINGS_AUTO, NULL, &sa,
                                       NULL) == PERFBUF_OK &&
              perfbuf_v2_strings_parse(gb.bytes, small.len, PERFBUF_V2_STRINGS_AUTO, NULL, &sb,
                                       NULL) == PERFBUF_OK;
    for (uint32_t i = 0; ok && i < sa.count; i++) {
        perfbuf_v2_counter_string str;
        char out[64];
        size_t len;
        CHECK(perfbuf_v2_strings_get(&sa, i, &str));
        perfbuf_status st = perfbuf_v2_counter_string_utf8(&sb, &str, out, sizeof out, &len);
        CHECK(text_status(st));
        CHECK(!perfbuf_v2_strings_get(&sb, i + sb.count, &str));
    }
    guard_release(&ga);
    guard_release(&gb);
    tb_free(&big);
    tb_free(&small);
    CHECK(ok);
}

static void meta_lists(void)
{
    tb_buf ids_a = adv_identifiers(300, adv_guid);
    tb_buf ids_b = adv_identifiers(1, adv_other_guid);
    tb_buf list_a = adv_instance_list(300);
    tb_buf list_b = adv_instance_list(1);
    guarded g[4] = {guard_place(ids_a.data, ids_a.len), guard_place(ids_b.data, ids_b.len),
                    guard_place(list_a.data, list_a.len), guard_place(list_b.data, list_b.len)};
    perfbuf_v2_identifiers la, lb;
    perfbuf_v2_instance_list ia, ib;
    bool ok = perfbuf_v2_identifiers_parse(g[0].bytes, ids_a.len, NULL, &la, NULL) == PERFBUF_OK &&
              perfbuf_v2_identifiers_parse(g[1].bytes, ids_b.len, NULL, &lb, NULL) == PERFBUF_OK &&
              perfbuf_v2_instance_list_parse(g[2].bytes, list_a.len, NULL, &ia, NULL) ==
                  PERFBUF_OK &&
              perfbuf_v2_instance_list_parse(g[3].bytes, list_b.len, NULL, &ib, NULL) == PERFBUF_OK;
    perfbuf_v2_list_iter it, it_b;
    perfbuf_v2_identifier id, idb;
    perfbuf_v2_identifiers_begin(&it);
    while (ok) {
        it_b = it;
        if (perfbuf_v2_identifiers_next(&lb, &it_b, &idb)) {
            CHECK(span_inside(idb.offset, idb.size, ids_b.len));
        }
        if (!perfbuf_v2_identifiers_next(&la, &it, &id)) {
            break;
        }
        char out[64];
        size_t len;
        CHECK(text_status(perfbuf_v2_identifier_name_utf8(&lb, &id, out, sizeof out, &len)));
    }
    perfbuf_v2_listed_instance li, lib;
    perfbuf_v2_instance_list_begin(&it);
    while (ok) {
        it_b = it;
        if (perfbuf_v2_instance_list_next(&ib, &it_b, &lib)) {
            CHECK(lib.name_offset <= list_b.len &&
                  lib.name_units <= (list_b.len - lib.name_offset) / 2);
        }
        if (!perfbuf_v2_instance_list_next(&ia, &it, &li)) {
            break;
        }
        char out[64];
        size_t len;
        CHECK(text_status(perfbuf_v2_listed_name_utf8(&ib, &li, out, sizeof out, &len)));
    }
    for (int k = 0; k < 4; k++) {
        guard_release(&g[k]);
    }
    tb_free(&ids_a);
    tb_free(&ids_b);
    tb_free(&list_a);
    tb_free(&list_b);
    CHECK(ok);
}

static void names_tables(void)
{
    tb_buf big = adv_names(300, 1);
    tb_buf small = adv_names(1, 0);
    guarded ga = guard_place(big.data, big.len);
    guarded gb = guard_place(small.data, small.len);
    perfbuf_name_table ta, tb;
    bool ok = perfbuf_names_parse(ga.bytes, big.len, NULL, &ta, NULL) == PERFBUF_OK &&
              perfbuf_names_parse(gb.bytes, small.len, NULL, &tb, NULL) == PERFBUF_OK;
    perfbuf_name_slot slots[300];
    perfbuf_name_index index_a;
    ok = ok && perfbuf_names_index_build(&ta, slots, 300, &index_a) == PERFBUF_OK;
    perfbuf_names_iter it, it_b;
    perfbuf_name_entry e, eb;
    perfbuf_names_begin(&ta, &it);
    while (ok) {
        it_b = it;
        if (perfbuf_names_next(&tb, &it_b, &eb)) {
            CHECK(eb.text_offset <= small.len && eb.text_units <= (small.len - eb.text_offset) / 2);
        }
        if (!perfbuf_names_next(&ta, &it, &e)) {
            break;
        }
        char out[64];
        size_t len;
        CHECK(text_status(perfbuf_names_text_utf8(&tb, &e, out, sizeof out, &len)));
        perfbuf_status st = perfbuf_names_index_find(&tb, &index_a, e.title_index, &eb);
        CHECK(st == PERFBUF_OK || st == PERFBUF_E_NOT_FOUND || st == PERFBUF_E_INVALID_ARGUMENT);
        CHECK(st != PERFBUF_OK ||
              (eb.text_offset <= small.len && eb.text_units <= (small.len - eb.text_offset) / 2));
    }
    guard_release(&ga);
    guard_release(&gb);
    tb_free(&big);
    tb_free(&small);
    CHECK(ok);
}

static const th_case cases[] = {
    TH_CASE(v1_two_different_blocks),
    TH_CASE(v1_much_smaller_block),
    TH_CASE(v1_two_samples_moved_layout),
    TH_CASE(v1_two_samples_other_frequency),
    TH_CASE(v1_two_samples_changed_type),
    TH_CASE(v1_slip_onto_instance_names),
    TH_CASE(v1_slip_same_layout),
    TH_CASE(v1_reused_buffer),
    TH_CASE(v1_block_off_a_block_start),
    TH_CASE(v2_two_different_queries),
    TH_CASE(v2_much_smaller_query),
    TH_CASE(meta_strings),
    TH_CASE(meta_lists),
    TH_CASE(names_tables),
};

TH_MAIN(cases)
