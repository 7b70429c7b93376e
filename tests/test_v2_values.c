/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * V2 raw samples through a value index: every answer equals the plain
 * walk's (status, sample and context) and the values the test wrote; ids
 * out of order, repeated ids, blocks without an id list and missing
 * references; an index used with anything but what it was built for, or
 * on scratch changed since, fails as documented. Samples of two captures
 * at once answer as two single calls, over layouts that match and that do
 * not, foreign views and missing counters.
 */
#include "perfbuf/counter_types.h"
#include "perfbuf/v2_meta.h"
#include "perfbuf/v2_query.h"
#include "builder_v2meta.h"
#include "harness.h"

/* Scratch for the indexes of these tests: the largest block has 31 ids. */
#define SCRATCH 128u

static bool same_sample(const perfbuf_raw_sample *a, const perfbuf_raw_sample *b)
{
    return a->status == b->status && a->type == b->type && a->first == b->first &&
           a->second == b->second && a->multi == b->multi && a->time_stamp == b->time_stamp;
}

/*
 * One counter both ways from the same starting contents: the same status,
 * sample and context (even the fields a failed call left written). The
 * indexed answer is returned for the caller's own expectations.
 */
static perfbuf_status both_ways(const perfbuf_v2_query *q, const perfbuf_v2_block *b,
                                const perfbuf_v2_instance *inst, const perfbuf_v2_reginfo *reg,
                                const perfbuf_v2_value_index *index, uint32_t id,
                                perfbuf_raw_sample *sample, perfbuf_value_context *ctx)
{
    perfbuf_raw_sample plain = {0xA5A5A5A5u, 1, 2, 3, 4, 5};
    perfbuf_value_context plain_ctx = {6, 7};
    *sample = plain;
    *ctx = plain_ctx;
    perfbuf_status st_plain = perfbuf_v2_raw_sample(q, b, inst, reg, id, &plain, &plain_ctx);
    perfbuf_status st_index = perfbuf_v2_raw_sample_indexed(q, b, inst, reg, index, id, sample, ctx);
    if (st_plain != st_index || !same_sample(&plain, sample) ||
        plain_ctx.frequency != ctx->frequency || plain_ctx.scale != ctx->scale) {
        fprintf(stderr, "counter %u: plain %d, indexed %d\n", id, (int)st_plain, (int)st_index);
    }
    EXPECT(st_plain == st_index);
    EXPECT(same_sample(&plain, sample));
    EXPECT(plain_ctx.frequency == ctx->frequency && plain_ctx.scale == ctx->scale);
    return st_index;
}

static bool first_block(const perfbuf_v2_query *q, perfbuf_v2_block *b)
{
    perfbuf_v2_iter it;
    perfbuf_v2_blocks_begin(q, &it);
    return perfbuf_v2_blocks_next(q, &it, b);
}

static uint32_t type_of(uint32_t id)
{
    for (uint32_t k = 0; k < TB_PROCESSOR_INFORMATION_COUNTERS; k++) {
        if (tb_processor_information[k].id == id) {
            return tb_processor_information[k].type;
        }
    }
    return 0;
}

static uint32_t base_of(uint32_t id)
{
    for (uint32_t k = 0; k < TB_PROCESSOR_INFORMATION_COUNTERS; k++) {
        if (tb_processor_information[k].id == id) {
            return tb_processor_information[k].base;
        }
    }
    return PERFBUF_V2_NO_ID;
}

static bool has_value(uint32_t type)
{
    const perfbuf_counter_type_info *info = perfbuf_counter_type_lookup(type);
    return info != NULL && info->samples != 0;
}

/*
 * Processor Information, three instances: every registered counter, the
 * absent id 29, an id past the set and "none", both ways. Instance i holds
 * (i + 1) * 1000 + id under each id (tb_v2_processor_information_query).
 */
static void processor_information_both_ways(void)
{
    static const char *const names[3] = {"_Total", "0,_Total", "0,0"};
    tb_v2 v = tb_v2_processor_information_query(names, 3);
    tb_buf reg_buf = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                                   PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_reginfo reg;
    perfbuf_v2_query q;
    perfbuf_v2_block b;
    CHECK(perfbuf_v2_reginfo_parse(reg_buf.data, reg_buf.len, NULL, &reg, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    CHECK(first_block(&q, &b));
    CHECK_EQ_U(perfbuf_v2_value_index_slots(&b), 5 + 2 * TB_PROCESSOR_INFORMATION_COUNTERS);
    uint64_t slots[SCRATCH];
    perfbuf_v2_iter it;
    perfbuf_v2_instance inst;
    perfbuf_v2_instances_begin(&b, &it);
    uint32_t instances = 0;
    while (perfbuf_v2_instances_next(&q, &b, &it, &inst)) {
        perfbuf_v2_value_index index;
        CHECK(perfbuf_v2_value_index_build(&q, &b, &inst, slots, SCRATCH, &index) == PERFBUF_OK);
        uint64_t own = 1000u * (inst.index + 1);
        uint32_t with_value = 0;
        for (uint32_t k = 0; k < TB_PROCESSOR_INFORMATION_COUNTERS; k++) {
            uint32_t id = tb_processor_information[k].id;
            perfbuf_raw_sample s;
            perfbuf_value_context ctx;
            perfbuf_status st = both_ways(&q, &b, &inst, &reg, &index, id, &s, &ctx);
            CHECK(!th.case_failed);
            if (!has_value(tb_processor_information[k].type)) {
                CHECK(st == PERFBUF_E_INVALID_ARGUMENT);
                continue;
            }
            CHECK(st == PERFBUF_OK);
            with_value++;
            CHECK_EQ_U(s.first, own + id);
            CHECK_EQ_U(s.type, tb_processor_information[k].type);
            if (tb_processor_information[k].base != PERFBUF_V2_NO_ID) {
                CHECK_EQ_U(s.second, own + tb_processor_information[k].base);
            }
        }
        /* 31 counters, of which three are bases with no value of their own. */
        CHECK_EQ_U(with_value, 28);
        static const uint32_t absent[3] = {29, 32, PERFBUF_V2_NO_ID};
        for (int k = 0; k < 3; k++) {
            perfbuf_raw_sample s;
            perfbuf_value_context ctx;
            CHECK(both_ways(&q, &b, &inst, &reg, &index, absent[k], &s, &ctx) ==
                  PERFBUF_E_NOT_FOUND);
        }
        instances++;
    }
    CHECK_EQ_U(instances, 3);
    tb_free(&reg_buf);
    tb_free(&v.buf);
}

/* One PERF_COUNTERSET block of `count` instances over these ids; instance
 * i holds base + (i + 1) * 1000 + position at each position, in the size
 * the Processor Information type of its id gives. */
static tb_v2 counterset(const uint32_t *ids, uint32_t n, uint32_t count, uint64_t base)
{
    tb_v2 v;
    tb_v2_begin(&v, 25368570629, 134398148561470699, 10000000);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(&v, ids, n);
    tb_v2_instances_begin(&v, count);
    for (uint32_t i = 0; i < count; i++) {
        tb_v2_instance(&v, i, "instance");
        for (uint32_t p = 0; p < n; p++) {
            uint64_t value = base + 1000u * (i + 1) + p;
            if (perfbuf_counter_type_size(type_of(ids[p])) == 8) {
                tb_v2_u64(&v, value);
            } else {
                tb_v2_u32(&v, (uint32_t)value);
            }
        }
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    return v;
}

/* The Processor Information ids in reverse: the index sorts them, and
 * every counter still finds its own value and its base's. */
static void unordered_ids_are_sorted(void)
{
    uint32_t ids[TB_PROCESSOR_INFORMATION_COUNTERS];
    for (uint32_t k = 0; k < TB_PROCESSOR_INFORMATION_COUNTERS; k++) {
        ids[k] = tb_processor_information[TB_PROCESSOR_INFORMATION_COUNTERS - 1 - k].id;
    }
    tb_v2 v = counterset(ids, TB_PROCESSOR_INFORMATION_COUNTERS, 2, 0);
    tb_buf reg_buf = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                                   PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_reginfo reg;
    perfbuf_v2_query q;
    perfbuf_v2_block b;
    CHECK(perfbuf_v2_reginfo_parse(reg_buf.data, reg_buf.len, NULL, &reg, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    CHECK(first_block(&q, &b));
    uint64_t slots[SCRATCH];
    perfbuf_v2_iter it;
    perfbuf_v2_instance inst;
    perfbuf_v2_instances_begin(&b, &it);
    uint32_t sampled = 0;
    while (perfbuf_v2_instances_next(&q, &b, &it, &inst)) {
        perfbuf_v2_value_index index;
        CHECK(perfbuf_v2_value_index_build(&q, &b, &inst, slots, SCRATCH, &index) == PERFBUF_OK);
        for (uint32_t p = 0; p < TB_PROCESSOR_INFORMATION_COUNTERS; p++) {
            perfbuf_raw_sample s;
            perfbuf_value_context ctx;
            perfbuf_status st = both_ways(&q, &b, &inst, &reg, &index, ids[p], &s, &ctx);
            CHECK(!th.case_failed);
            if (!has_value(type_of(ids[p]))) {
                CHECK(st == PERFBUF_E_INVALID_ARGUMENT);
                continue;
            }
            CHECK(st == PERFBUF_OK);
            CHECK_EQ_U(s.first, 1000u * (inst.index + 1) + p);
            uint32_t base = base_of(ids[p]);
            if (base != PERFBUF_V2_NO_ID) {
                /* Reversed: the id at position p is the row at 30 - p. */
                uint32_t base_position = 0;
                while (ids[base_position] != base) {
                    base_position++;
                }
                CHECK_EQ_U(s.second, 1000u * (inst.index + 1) + base_position);
            }
            sampled++;
        }
    }
    CHECK_EQ_U(sampled, 2 * 28);
    tb_free(&reg_buf);
    tb_free(&v.buf);
}

/*
 * An id list with repeats (the query reader does not refuse them): the
 * first integer value under an id counts, in position order, whether the
 * list ascends or not; a 16-byte value under an id is skipped for the
 * integer one after it.
 */
static void repeated_ids_take_the_first_integer_value(void)
{
    tb_buf reg_buf = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                                   PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_reginfo reg;
    CHECK(perfbuf_v2_reginfo_parse(reg_buf.data, reg_buf.len, NULL, &reg, NULL) == PERFBUF_OK);
    /* Ascending with repeats, then unordered with repeats. */
    static const uint32_t lists[2][7] = {{0, 7, 7, 24, 24, 25, 25}, {25, 24, 7, 0, 24, 7, 25}};
    /* Position of the wide (16-byte) value in each list: an id 7 entry. */
    static const uint32_t wide_at[2] = {1, 2};
    /* Where the first integer value of 0, 7, 24 and 25 is in each list. */
    static const uint32_t first_of[2][4] = {{0, 2, 3, 5}, {3, 5, 1, 0}};
    static const uint32_t asked[4] = {0, 7, 24, 25};
    for (int l = 0; l < 2; l++) {
        tb_v2 v;
        tb_v2_begin(&v, 1, 2, 3);
        tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
        tb_v2_ids(&v, lists[l], 7);
        for (uint32_t p = 0; p < 7; p++) {
            if (p == wide_at[l]) {
                static const uint8_t wide[16] = {1};
                tb_v2_value(&v, wide, sizeof wide);
            } else {
                tb_v2_u64(&v, 500 + p);
            }
        }
        tb_v2_block_end(&v);
        tb_v2_end(&v);
        perfbuf_v2_query q;
        perfbuf_v2_block b;
        CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
        CHECK(first_block(&q, &b));
        uint64_t slots[SCRATCH];
        perfbuf_v2_value_index index;
        CHECK(perfbuf_v2_value_index_build(&q, &b, NULL, slots, SCRATCH, &index) == PERFBUF_OK);
        for (int k = 0; k < 4; k++) {
            perfbuf_raw_sample s;
            perfbuf_value_context ctx;
            perfbuf_status st = both_ways(&q, &b, NULL, &reg, &index, asked[k], &s, &ctx);
            CHECK(!th.case_failed);
            if (asked[k] == 25) {
                CHECK(st == PERFBUF_E_INVALID_ARGUMENT);   /* a base: no value of its own */
                continue;
            }
            CHECK(st == PERFBUF_OK);
            CHECK_EQ_U(s.first, 500 + first_of[l][k]);
            if (asked[k] == 24) {
                CHECK_EQ_U(s.second, 500 + first_of[l][3]);
            }
        }
        tb_free(&v.buf);
    }
    tb_free(&reg_buf);
}

/*
 * Blocks without an id list hold only the counter asked for: a single
 * counter, and one counter over instances. A type that needs a base has no
 * sample from them; the block of instances asked without an instance has
 * no value at all.
 */
static void blocks_without_an_id_list(void)
{
    tb_buf reg_buf = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                                   PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_reginfo reg;
    CHECK(perfbuf_v2_reginfo_parse(reg_buf.data, reg_buf.len, NULL, &reg, NULL) == PERFBUF_OK);
    tb_v2 v;
    tb_v2_begin(&v, 1, 2, 3);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_SINGLE_COUNTER);
    tb_v2_u64(&v, 4242);
    tb_v2_block_end(&v);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_INSTANCES);
    tb_v2_instances_begin(&v, 2);
    tb_v2_instance(&v, 0, "a");
    tb_v2_u64(&v, 100);
    tb_v2_instance(&v, 1, "b");
    tb_v2_u64(&v, 200);
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    perfbuf_v2_query q;
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    perfbuf_v2_iter bi;
    perfbuf_v2_block single;
    perfbuf_v2_block over;
    perfbuf_v2_blocks_begin(&q, &bi);
    CHECK(perfbuf_v2_blocks_next(&q, &bi, &single));
    CHECK(perfbuf_v2_blocks_next(&q, &bi, &over));
    uint64_t slots[SCRATCH];
    perfbuf_v2_value_index index;
    perfbuf_raw_sample s;
    perfbuf_value_context ctx;
    CHECK(perfbuf_v2_value_index_build(&q, &single, NULL, slots, SCRATCH, &index) == PERFBUF_OK);
    CHECK(both_ways(&q, &single, NULL, &reg, &index, 17, &s, &ctx) == PERFBUF_OK);
    CHECK_EQ_U(s.first, 4242);
    CHECK(both_ways(&q, &single, NULL, &reg, &index, 24, &s, &ctx) == PERFBUF_E_NOT_FOUND);
    CHECK(both_ways(&q, &single, NULL, &reg, &index, 29, &s, &ctx) == PERFBUF_E_NOT_FOUND);
    CHECK(!th.case_failed);

    perfbuf_v2_iter it;
    perfbuf_v2_instance inst;
    perfbuf_v2_instances_begin(&over, &it);
    for (uint64_t want = 100; want <= 200; want += 100) {
        CHECK(perfbuf_v2_instances_next(&q, &over, &it, &inst));
        CHECK(perfbuf_v2_value_index_build(&q, &over, &inst, slots, SCRATCH, &index) == PERFBUF_OK);
        CHECK(both_ways(&q, &over, &inst, &reg, &index, 7, &s, &ctx) == PERFBUF_OK);
        CHECK_EQ_U(s.first, want);
        CHECK(both_ways(&q, &over, &inst, &reg, &index, 26, &s, &ctx) == PERFBUF_E_NOT_FOUND);
        CHECK(!th.case_failed);
    }
    CHECK(perfbuf_v2_value_index_build(&q, &over, NULL, slots, SCRATCH, &index) == PERFBUF_OK);
    CHECK_EQ_U(index.value_count, 0);
    CHECK(both_ways(&q, &over, NULL, &reg, &index, 7, &s, &ctx) == PERFBUF_E_NOT_FOUND);
    CHECK(!th.case_failed);
    tb_free(&reg_buf);
    tb_free(&v.buf);
}

/*
 * References to counters the data lacks: an object timer without its
 * frequency counter, a multi-timer without its multi counter, an average
 * without its base. The same set with everything present samples.
 */
static void references_to_missing_counters(void)
{
    static const struct {
        uint32_t id, type, base, time, freq, multi;
    } set[7] = {
        {0, PERF_OBJ_TIME_TIMER, PERFBUF_V2_NO_ID, 1, 2, PERFBUF_V2_NO_ID},
        {1, PERF_COUNTER_LARGE_RAWCOUNT, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
        {2, PERF_COUNTER_LARGE_RAWCOUNT, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
        {3, PERF_100NSEC_MULTI_TIMER, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, 4},
        {4, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
        {5, PERF_AVERAGE_BULK, 6, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
        {6, PERF_AVERAGE_BASE, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    };
    tb_reg_row rows[7];
    for (int i = 0; i < 7; i++) {
        rows[i].id = set[i].id;
        rows[i].type = set[i].type;
        rows[i].base = set[i].base;
        rows[i].name = NULL;
    }
    tb_buf reg_buf = tb_v2_reginfo(rows, 7, PERFBUF_COUNTERSET_SINGLE_INSTANCE);
    for (uint32_t i = 0; i < 7; i++) {
        tb_patch_u32(&reg_buf, 32 + 48 * i + 28, set[i].time);
        tb_patch_u32(&reg_buf, 32 + 48 * i + 32, set[i].freq);
        tb_patch_u32(&reg_buf, 32 + 48 * i + 36, set[i].multi);
    }
    perfbuf_v2_reginfo reg;
    CHECK(perfbuf_v2_reginfo_parse(reg_buf.data, reg_buf.len, NULL, &reg, NULL) == PERFBUF_OK);
    /* Block 0 holds every counter, value 10 * (id + 1); block 1 lacks 2, 4
     * and 6. */
    static const uint32_t all[7] = {0, 1, 2, 3, 4, 5, 6};
    static const uint32_t some[4] = {0, 1, 3, 5};
    tb_v2 v;
    tb_v2_begin(&v, 1, 2, 3);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
    tb_v2_ids(&v, all, 7);
    for (uint32_t p = 0; p < 7; p++) {
        tb_v2_u64(&v, 10 * (all[p] + 1));
    }
    tb_v2_block_end(&v);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
    tb_v2_ids(&v, some, 4);
    for (uint32_t p = 0; p < 4; p++) {
        tb_v2_u64(&v, 10 * (some[p] + 1));
    }
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    perfbuf_v2_query q;
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    perfbuf_v2_iter bi;
    perfbuf_v2_block blocks[2];
    perfbuf_v2_blocks_begin(&q, &bi);
    CHECK(perfbuf_v2_blocks_next(&q, &bi, &blocks[0]));
    CHECK(perfbuf_v2_blocks_next(&q, &bi, &blocks[1]));
    uint64_t slots[SCRATCH];
    perfbuf_v2_value_index index;
    perfbuf_raw_sample s;
    perfbuf_value_context ctx;
    CHECK(perfbuf_v2_value_index_build(&q, &blocks[0], NULL, slots, SCRATCH, &index) == PERFBUF_OK);
    CHECK(both_ways(&q, &blocks[0], NULL, &reg, &index, 0, &s, &ctx) == PERFBUF_OK);
    CHECK_EQ_U(s.first, 10);
    CHECK_EQ_U(s.second, 20);
    CHECK_EQ_U(ctx.frequency, 30);
    CHECK(both_ways(&q, &blocks[0], NULL, &reg, &index, 3, &s, &ctx) == PERFBUF_OK);
    CHECK_EQ_U(s.multi, 50);
    CHECK(both_ways(&q, &blocks[0], NULL, &reg, &index, 5, &s, &ctx) == PERFBUF_OK);
    CHECK_EQ_U(s.second, 70);
    CHECK(perfbuf_v2_value_index_build(&q, &blocks[1], NULL, slots, SCRATCH, &index) == PERFBUF_OK);
    for (uint32_t id = 0; id < 7; id++) {
        /* Present in block 1 with their references: only the raw 1. */
        perfbuf_status want = id == 1 ? PERFBUF_OK : id == 6 ? PERFBUF_E_INVALID_ARGUMENT
                                                             : PERFBUF_E_NOT_FOUND;
        CHECK(both_ways(&q, &blocks[1], NULL, &reg, &index, id, &s, &ctx) == want);
    }
    tb_free(&reg_buf);
    tb_free(&v.buf);
}

/*
 * An index answers only for what it was built from: another instance,
 * another block, another copy of the query, scratch rebuilt for another
 * instance, or scratch changed by hand, give INVALID_ARGUMENT, never a
 * value from the wrong bytes.
 */
static void an_index_answers_only_for_its_own_instance(void)
{
    static const char *const names[2] = {"0,0", "0,1"};
    tb_v2 v = tb_v2_processor_information_query(names, 2);
    tb_buf reg_buf = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                                   PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_reginfo reg;
    perfbuf_v2_query q;
    perfbuf_v2_block b;
    CHECK(perfbuf_v2_reginfo_parse(reg_buf.data, reg_buf.len, NULL, &reg, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    CHECK(first_block(&q, &b));
    perfbuf_v2_iter it;
    perfbuf_v2_instance inst[2];
    perfbuf_v2_instances_begin(&b, &it);
    CHECK(perfbuf_v2_instances_next(&q, &b, &it, &inst[0]));
    CHECK(perfbuf_v2_instances_next(&q, &b, &it, &inst[1]));
    const perfbuf_status bad = PERFBUF_E_INVALID_ARGUMENT;
    uint64_t slots[SCRATCH];
    perfbuf_v2_value_index index;
    perfbuf_raw_sample s;
    perfbuf_value_context ctx;
    CHECK(perfbuf_v2_value_index_build(&q, &b, &inst[0], slots, SCRATCH, &index) == PERFBUF_OK);
    CHECK(perfbuf_v2_raw_sample_indexed(&q, &b, &inst[0], &reg, &index, 7, &s, &ctx) == PERFBUF_OK);
    CHECK_EQ_U(s.first, 1007);
    /* Another instance of the same block. */
    CHECK(perfbuf_v2_raw_sample_indexed(&q, &b, &inst[1], &reg, &index, 7, &s, &ctx) == bad);
    CHECK(perfbuf_v2_raw_sample_indexed(&q, &b, NULL, &reg, &index, 7, &s, &ctx) == bad);

    /* The same bytes at another address: another query. */
    tb_buf copy;
    tb_init(&copy);
    tb_bytes(&copy, v.buf.data, v.buf.len);
    perfbuf_v2_query q2;
    perfbuf_v2_block b2;
    CHECK(perfbuf_v2_query_parse(copy.data, copy.len, NULL, &q2, NULL) == PERFBUF_OK);
    CHECK(first_block(&q2, &b2));
    CHECK(perfbuf_v2_raw_sample_indexed(&q2, &b2, &inst[0], &reg, &index, 7, &s, &ctx) == bad);
    /* The same buffer parsed again is the same query. */
    perfbuf_v2_query again;
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &again, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v2_raw_sample_indexed(&again, &b, &inst[0], &reg, &index, 7, &s, &ctx) ==
          PERFBUF_OK);

    /* Another block: one of a two-block buffer, the index of the other. */
    static const uint32_t ids[2] = {7, 16};
    tb_v2 two;
    tb_v2_begin(&two, 1, 2, 3);
    for (uint32_t k = 0; k < 2; k++) {
        tb_v2_block_begin(&two, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
        tb_v2_ids(&two, ids, 2);
        tb_v2_u32(&two, 10 + k);
        tb_v2_u32(&two, 20 + k);
        tb_v2_block_end(&two);
    }
    tb_v2_end(&two);
    perfbuf_v2_query tq;
    perfbuf_v2_block tb[2];
    CHECK(perfbuf_v2_query_parse(two.buf.data, two.buf.len, NULL, &tq, NULL) == PERFBUF_OK);
    perfbuf_v2_blocks_begin(&tq, &it);
    CHECK(perfbuf_v2_blocks_next(&tq, &it, &tb[0]));
    CHECK(perfbuf_v2_blocks_next(&tq, &it, &tb[1]));
    perfbuf_v2_value_index first;
    uint64_t first_slots[SCRATCH];
    CHECK(perfbuf_v2_value_index_build(&tq, &tb[0], NULL, first_slots, SCRATCH, &first) ==
          PERFBUF_OK);
    CHECK(perfbuf_v2_raw_sample_indexed(&tq, &tb[0], NULL, &reg, &first, 16, &s, &ctx) ==
          PERFBUF_OK);
    CHECK_EQ_U(s.first, 20);
    CHECK(perfbuf_v2_raw_sample_indexed(&tq, &tb[1], NULL, &reg, &first, 16, &s, &ctx) == bad);
    /* An index of the instance used with a block without instances. */
    CHECK(perfbuf_v2_raw_sample_indexed(&tq, &tb[0], NULL, &reg, &index, 7, &s, &ctx) == bad);

    /* The scratch rebuilt for instance 1 under the index of instance 0. */
    perfbuf_v2_value_index other;
    CHECK(perfbuf_v2_value_index_build(&q, &b, &inst[1], slots, SCRATCH, &other) == PERFBUF_OK);
    CHECK(perfbuf_v2_raw_sample_indexed(&q, &b, &inst[0], &reg, &index, 7, &s, &ctx) == bad);
    CHECK(perfbuf_v2_raw_sample_indexed(&q, &b, &inst[1], &reg, &other, 7, &s, &ctx) ==
          PERFBUF_OK);
    CHECK_EQ_U(s.first, 2007);

    /* Scratch changed by hand. Layout: a 5-entry header, the offset of each
     * of the 31 values, then the sorted keys id << 32 | position. Id 7 is
     * at position 7, id 0 at position 0. */
    CHECK(perfbuf_v2_value_index_build(&q, &b, &inst[0], slots, SCRATCH, &index) == PERFBUF_OK);
    uint64_t kept = slots[5 + 7];
    slots[5 + 7] = slots[5 + 0];            /* value 7 pointed at value 0 */
    CHECK(perfbuf_v2_raw_sample_indexed(&q, &b, &inst[0], &reg, &index, 7, &s, &ctx) == bad);
    slots[5 + 7] = kept;
    CHECK(perfbuf_v2_raw_sample_indexed(&q, &b, &inst[0], &reg, &index, 7, &s, &ctx) ==
          PERFBUF_OK);
    uint64_t *keys = slots + 5 + 31;
    CHECK_EQ_U(keys[7], (uint64_t)7 << 32 | 7);
    keys[7] = (uint64_t)7 << 32 | 3;         /* id 7 said to be at position 3 */
    CHECK(perfbuf_v2_raw_sample_indexed(&q, &b, &inst[0], &reg, &index, 7, &s, &ctx) == bad);
    keys[7] = (uint64_t)7 << 32 | 7;
    slots[5 + 0] = UINT64_MAX;              /* the first value past any buffer */
    CHECK(perfbuf_v2_raw_sample_indexed(&q, &b, &inst[0], &reg, &index, 0, &s, &ctx) == bad);
    tb_free(&copy);
    tb_free(&two.buf);
    tb_free(&reg_buf);
    tb_free(&v.buf);
}

static void arguments_and_scratch_size(void)
{
    static const char *const names[1] = {"0,0"};
    tb_v2 v = tb_v2_processor_information_query(names, 1);
    tb_buf reg_buf = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                                   PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_reginfo reg;
    perfbuf_v2_query q;
    perfbuf_v2_block b;
    CHECK(perfbuf_v2_reginfo_parse(reg_buf.data, reg_buf.len, NULL, &reg, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v2_query_parse(v.buf.data, v.buf.len, NULL, &q, NULL) == PERFBUF_OK);
    CHECK(first_block(&q, &b));
    perfbuf_v2_iter it;
    perfbuf_v2_instance inst;
    perfbuf_v2_instances_begin(&b, &it);
    CHECK(perfbuf_v2_instances_next(&q, &b, &it, &inst));
    const perfbuf_status bad = PERFBUF_E_INVALID_ARGUMENT;
    uint64_t slots[SCRATCH];
    size_t need = perfbuf_v2_value_index_slots(&b);
    CHECK_EQ_U(need, 5 + 2 * 31);
    CHECK_EQ_U(perfbuf_v2_value_index_slots(NULL), 0);
    perfbuf_v2_value_index index;
    perfbuf_raw_sample s;
    perfbuf_value_context ctx;
    CHECK(perfbuf_v2_value_index_build(&q, &b, &inst, slots, need - 1, &index) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    /* What a refused build leaves is no index. */
    CHECK(perfbuf_v2_raw_sample_indexed(&q, &b, &inst, &reg, &index, 7, &s, &ctx) == bad);
    CHECK(perfbuf_v2_value_index_build(&q, &b, &inst, NULL, 0, &index) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(perfbuf_v2_value_index_build(&q, &b, &inst, NULL, need, &index) == bad);
    CHECK(perfbuf_v2_value_index_build(NULL, &b, &inst, slots, need, &index) == bad);
    CHECK(perfbuf_v2_value_index_build(&q, NULL, &inst, slots, need, &index) == bad);
    CHECK(perfbuf_v2_value_index_build(&q, &b, &inst, slots, need, NULL) == bad);
    /* Exactly the size asked for is enough. */
    CHECK(perfbuf_v2_value_index_build(&q, &b, &inst, slots, need, &index) == PERFBUF_OK);
    CHECK(perfbuf_v2_raw_sample_indexed(&q, &b, &inst, &reg, &index, 7, &s, &ctx) == PERFBUF_OK);
    CHECK_EQ_U(s.first, 1007);
    CHECK(perfbuf_v2_raw_sample_indexed(NULL, &b, &inst, &reg, &index, 7, &s, &ctx) == bad);
    CHECK(perfbuf_v2_raw_sample_indexed(&q, NULL, &inst, &reg, &index, 7, &s, &ctx) == bad);
    CHECK(perfbuf_v2_raw_sample_indexed(&q, &b, &inst, NULL, &index, 7, &s, &ctx) == bad);
    CHECK(perfbuf_v2_raw_sample_indexed(&q, &b, &inst, &reg, NULL, 7, &s, &ctx) == bad);
    CHECK(perfbuf_v2_raw_sample_indexed(&q, &b, &inst, &reg, &index, 7, NULL, &ctx) == bad);
    CHECK(perfbuf_v2_raw_sample_indexed(&q, &b, &inst, &reg, &index, 7, &s, NULL) == bad);
    perfbuf_v2_value_index zero = {0};
    CHECK(perfbuf_v2_raw_sample_indexed(&q, &b, &inst, &reg, &zero, 7, &s, &ctx) == bad);
    tb_free(&reg_buf);
    tb_free(&v.buf);
}

/* ---- two captures at once ---- */

/*
 * perfbuf_v2_raw_sample_pair against two perfbuf_v2_raw_sample calls from
 * the same starting contents: the same statuses, samples and contexts
 * (even fields a failed call left written). The newer status is returned.
 */
static perfbuf_status pair_as_two_calls(const perfbuf_v2_query *qn, const perfbuf_v2_block *bn,
                                        const perfbuf_v2_instance *in, const perfbuf_v2_query *qo,
                                        const perfbuf_v2_block *bo, const perfbuf_v2_instance *io,
                                        const perfbuf_v2_reginfo *reg, uint32_t id)
{
    perfbuf_raw_sample start = {0xA5A5A5A5u, 1, 2, 3, 4, 5};
    perfbuf_value_context start_ctx = {6, 7};
    perfbuf_raw_sample one_n = start, one_o = start, pair_n = start, pair_o = start;
    perfbuf_value_context one_nc = start_ctx, one_oc = start_ctx, pair_nc = start_ctx,
                          pair_oc = start_ctx;
    perfbuf_status st_n = perfbuf_v2_raw_sample(qn, bn, in, reg, id, &one_n, &one_nc);
    perfbuf_status st_o = perfbuf_v2_raw_sample(qo, bo, io, reg, id, &one_o, &one_oc);
    perfbuf_status pair_st_o = PERFBUF_OK;
    perfbuf_status pair_st_n = perfbuf_v2_raw_sample_pair(qn, bn, in, qo, bo, io, reg, id, &pair_n,
                                                          &pair_nc, &pair_o, &pair_oc, &pair_st_o);
    bool same = st_n == pair_st_n && st_o == pair_st_o && same_sample(&one_n, &pair_n) &&
                same_sample(&one_o, &pair_o) && one_nc.frequency == pair_nc.frequency &&
                one_nc.scale == pair_nc.scale && one_oc.frequency == pair_oc.frequency &&
                one_oc.scale == pair_oc.scale;
    if (!same) {
        fprintf(stderr, "counter %u: calls %d/%d, pair %d/%d\n", id, (int)st_n, (int)st_o,
                (int)pair_st_n, (int)pair_st_o);
    }
    EXPECT(same);
    return pair_st_n;
}

/* One PERF_COUNTERSET block whose every value is 8 bytes (the layout the
 * parse proves uniform); instance i holds base + (i + 1) * 1000 + id. */
static tb_v2 uniform_counterset(const uint32_t *ids, uint32_t n, uint32_t count, uint64_t base)
{
    tb_v2 v;
    tb_v2_begin(&v, 25368570629 + (int64_t)base, 134398148561470699, 10000000);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(&v, ids, n);
    tb_v2_instances_begin(&v, count);
    for (uint32_t i = 0; i < count; i++) {
        tb_v2_instance(&v, i, i % 2 ? "odd instance" : "even");
        for (uint32_t p = 0; p < n; p++) {
            tb_v2_u64(&v, base + 1000u * (i + 1) + ids[p]);
        }
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    return v;
}

/* Blocks without an id list: one single counter, one over two instances. */
static tb_v2 without_id_lists(void)
{
    tb_v2 v;
    tb_v2_begin(&v, 1, 2, 3);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_SINGLE_COUNTER);
    tb_v2_u64(&v, 4242);
    tb_v2_block_end(&v);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_INSTANCES);
    tb_v2_instances_begin(&v, 2);
    tb_v2_instance(&v, 0, "a");
    tb_v2_u64(&v, 100);
    tb_v2_instance(&v, 1, "b");
    tb_v2_u64(&v, 200);
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    return v;
}

#define PAIR_CAPTURES 6u
#define PAIR_VIEWS 8u

/* A parsed capture and its views: each block alone, and with each of
 * its instances. */
typedef struct pair_capture {
    tb_v2 v;
    perfbuf_v2_query q;
    perfbuf_v2_block blocks[2];
    perfbuf_v2_instance instances[PAIR_VIEWS];
    uint32_t block_of[PAIR_VIEWS];
    bool has_instance[PAIR_VIEWS];
    uint32_t views;
} pair_capture;

static void pair_capture_read(pair_capture *c)
{
    CHECK(perfbuf_v2_query_parse(c->v.buf.data, c->v.buf.len, NULL, &c->q, NULL) == PERFBUF_OK);
    perfbuf_v2_iter bi;
    perfbuf_v2_blocks_begin(&c->q, &bi);
    c->views = 0;
    for (uint32_t k = 0; k < 2 && perfbuf_v2_blocks_next(&c->q, &bi, &c->blocks[k]); k++) {
        CHECK(c->views < PAIR_VIEWS);
        c->block_of[c->views] = k;
        c->has_instance[c->views++] = false;
        perfbuf_v2_iter it;
        perfbuf_v2_instances_begin(&c->blocks[k], &it);
        while (c->views < PAIR_VIEWS &&
               perfbuf_v2_instances_next(&c->q, &c->blocks[k], &it, &c->instances[c->views])) {
            c->block_of[c->views] = k;
            c->has_instance[c->views++] = true;
        }
    }
}

/*
 * Every view of every capture against every view of every capture, each
 * with its own query and each with the other's (a foreign view, refused
 * on that side alone): the pair answers as two calls do. The captures
 * have the same layout (A, B), ids at other positions (C: every other id),
 * ids out of order in values of two sizes (D), the builder's Processor
 * Information (E) and no id lists (F); the ids asked for include ones no
 * capture holds and "none".
 */
static void a_pair_answers_as_two_calls(void)
{
    tb_buf reg_buf = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                                   PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_reginfo reg;
    CHECK(perfbuf_v2_reginfo_parse(reg_buf.data, reg_buf.len, NULL, &reg, NULL) == PERFBUF_OK);
    uint32_t ids[TB_PROCESSOR_INFORMATION_COUNTERS], reversed[TB_PROCESSOR_INFORMATION_COUNTERS];
    uint32_t every_other[TB_PROCESSOR_INFORMATION_COUNTERS];
    uint32_t halves = 0;
    for (uint32_t k = 0; k < TB_PROCESSOR_INFORMATION_COUNTERS; k++) {
        ids[k] = tb_processor_information[k].id;
        reversed[TB_PROCESSOR_INFORMATION_COUNTERS - 1 - k] = ids[k];
        if (k % 2 == 1) {
            every_other[halves++] = ids[k];
        }
    }
    static const char *const names[3] = {"_Total", "0,_Total", "0,0"};
    static pair_capture c[PAIR_CAPTURES];
    c[0].v = uniform_counterset(ids, TB_PROCESSOR_INFORMATION_COUNTERS, 3, 0);
    c[1].v = uniform_counterset(ids, TB_PROCESSOR_INFORMATION_COUNTERS, 2, 500000);
    c[2].v = uniform_counterset(every_other, halves, 3, 900000);
    c[3].v = counterset(reversed, TB_PROCESSOR_INFORMATION_COUNTERS, 2, 0);
    c[4].v = tb_v2_processor_information_query(names, 3);
    c[5].v = without_id_lists();
    for (uint32_t x = 0; x < PAIR_CAPTURES; x++) {
        pair_capture_read(&c[x]);
    }
    CHECK((c[0].q.layout & PERFBUF_V2_LAYOUT_UNIFORM_VALUES) != 0);
    CHECK((c[2].q.layout & PERFBUF_V2_LAYOUT_ASCENDING_IDS) != 0);
    CHECK((c[3].q.layout & PERFBUF_V2_LAYOUT_ASCENDING_IDS) == 0);
    uint32_t asked[TB_PROCESSOR_INFORMATION_COUNTERS + 4];
    uint32_t n_asked = 0;
    for (uint32_t k = 0; k < TB_PROCESSOR_INFORMATION_COUNTERS; k++) {
        asked[n_asked++] = ids[k];
    }
    asked[n_asked++] = 29;
    asked[n_asked++] = 32;
    asked[n_asked++] = 7;  /* the one counter of the blocks without an id list */
    asked[n_asked++] = PERFBUF_V2_NO_ID;
    uint32_t both_ok = 0, one_refused = 0;
    for (uint32_t x = 0; x < PAIR_CAPTURES; x++) {
        for (uint32_t y = 0; y < PAIR_CAPTURES; y++) {
            for (uint32_t i = 0; i < c[x].views; i++) {
                const perfbuf_v2_block *bn = &c[x].blocks[c[x].block_of[i]];
                const perfbuf_v2_instance *in = c[x].has_instance[i] ? &c[x].instances[i] : NULL;
                for (uint32_t j = 0; j < c[y].views; j++) {
                    const perfbuf_v2_block *bo = &c[y].blocks[c[y].block_of[j]];
                    const perfbuf_v2_instance *io =
                        c[y].has_instance[j] ? &c[y].instances[j] : NULL;
                    for (uint32_t k = 0; k < n_asked; k++) {
                        perfbuf_status own = pair_as_two_calls(&c[x].q, bn, in, &c[y].q, bo, io,
                                                               &reg, asked[k]);
                        (void)pair_as_two_calls(&c[y].q, bn, in, &c[y].q, bo, io, &reg, asked[k]);
                        (void)pair_as_two_calls(&c[x].q, bn, in, &c[x].q, bo, io, &reg, asked[k]);
                        CHECK(!th.case_failed);
                        perfbuf_raw_sample sn, so;
                        perfbuf_value_context cn, co;
                        perfbuf_status st_o;
                        perfbuf_status st_n = perfbuf_v2_raw_sample_pair(
                            &c[y].q, bn, in, &c[y].q, bo, io, &reg, asked[k], &sn, &cn, &so, &co,
                            &st_o);
                        both_ok += own == PERFBUF_OK && x != y;
                        one_refused += x != y && st_n == PERFBUF_E_INVALID_ARGUMENT &&
                                       st_o == PERFBUF_OK;
                    }
                }
            }
        }
    }
    /* The comparisons covered samples that succeed in two captures and
     * foreign views refused beside a good older side. */
    CHECK(both_ok > 0);
    CHECK(one_refused > 0);
    for (uint32_t x = 0; x < PAIR_CAPTURES; x++) {
        tb_free(&c[x].v.buf);
    }
    tb_free(&reg_buf);
}

/* The values a pair reads are each capture's own: instance i of A and of
 * B under the same counter, with their bases; NULL outputs and views. */
static void a_pair_reads_each_capture(void)
{
    tb_buf reg_buf = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                                   PERFBUF_COUNTERSET_MULTI_INSTANCES);
    perfbuf_v2_reginfo reg;
    CHECK(perfbuf_v2_reginfo_parse(reg_buf.data, reg_buf.len, NULL, &reg, NULL) == PERFBUF_OK);
    uint32_t ids[TB_PROCESSOR_INFORMATION_COUNTERS];
    for (uint32_t k = 0; k < TB_PROCESSOR_INFORMATION_COUNTERS; k++) {
        ids[k] = tb_processor_information[k].id;
    }
    static pair_capture newer, older;
    newer.v = uniform_counterset(ids, TB_PROCESSOR_INFORMATION_COUNTERS, 2, 500000);
    older.v = uniform_counterset(ids, TB_PROCESSOR_INFORMATION_COUNTERS, 2, 0);
    pair_capture_read(&newer);
    pair_capture_read(&older);
    CHECK_EQ_U(newer.views, 3);
    perfbuf_raw_sample sn, so;
    perfbuf_value_context cn, co;
    perfbuf_status st_o;
    for (uint32_t i = 1; i < 3; i++) {
        for (uint32_t k = 0; k < TB_PROCESSOR_INFORMATION_COUNTERS; k++) {
            const tb_reg_row *row = &tb_processor_information[k];
            perfbuf_status st_n = perfbuf_v2_raw_sample_pair(
                &newer.q, &newer.blocks[0], &newer.instances[i], &older.q, &older.blocks[0],
                &older.instances[i], &reg, row->id, &sn, &cn, &so, &co, &st_o);
            CHECK(st_n == st_o);
            if (!has_value(row->type)) {
                CHECK(st_n == PERFBUF_E_INVALID_ARGUMENT);
                continue;
            }
            CHECK(st_n == PERFBUF_OK);
            CHECK_EQ_U(sn.first, 500000 + 1000u * i + row->id);
            CHECK_EQ_U(so.first, 1000u * i + row->id);
            if (row->base != PERFBUF_V2_NO_ID) {
                CHECK_EQ_U(sn.second, 500000 + 1000u * i + row->base);
                CHECK_EQ_U(so.second, 1000u * i + row->base);
            }
        }
    }
    const perfbuf_v2_block *bn = &newer.blocks[0], *bo = &older.blocks[0];
    const perfbuf_v2_instance *in = &newer.instances[1], *io = &older.instances[1];
    perfbuf_status bad = PERFBUF_E_INVALID_ARGUMENT;
    CHECK(perfbuf_v2_raw_sample_pair(&newer.q, bn, in, &older.q, bo, io, &reg, 0, &sn, &cn, &so,
                                     &co, NULL) == bad);
    CHECK(perfbuf_v2_raw_sample_pair(&newer.q, bn, in, &older.q, bo, io, NULL, 0, &sn, &cn, &so,
                                     &co, &st_o) == bad);
    CHECK(st_o == bad);
    CHECK(perfbuf_v2_raw_sample_pair(NULL, bn, in, &older.q, bo, io, &reg, 0, &sn, &cn, &so, &co,
                                     &st_o) == bad);
    CHECK(st_o == PERFBUF_OK);
    CHECK(perfbuf_v2_raw_sample_pair(&newer.q, bn, in, &older.q, NULL, io, &reg, 0, &sn, &cn, &so,
                                     &co, &st_o) == PERFBUF_OK);
    CHECK(st_o == bad);
    CHECK(perfbuf_v2_raw_sample_pair(&newer.q, bn, in, &older.q, bo, io, &reg, 0, NULL, &cn, &so,
                                     &co, &st_o) == bad);
    CHECK(st_o == PERFBUF_OK);
    CHECK(perfbuf_v2_raw_sample_pair(&newer.q, bn, in, &older.q, bo, io, &reg, 0, &sn, &cn, &so,
                                     NULL, &st_o) == PERFBUF_OK);
    CHECK(st_o == bad);
    tb_free(&newer.v.buf);
    tb_free(&older.v.buf);
    tb_free(&reg_buf);
}

static const th_case cases[] = {
    TH_CASE(processor_information_both_ways),
    TH_CASE(unordered_ids_are_sorted),
    TH_CASE(repeated_ids_take_the_first_integer_value),
    TH_CASE(blocks_without_an_id_list),
    TH_CASE(references_to_missing_counters),
    TH_CASE(an_index_answers_only_for_its_own_instance),
    TH_CASE(arguments_and_scratch_size),
    TH_CASE(a_pair_answers_as_two_calls),
    TH_CASE(a_pair_reads_each_capture),
};
TH_MAIN(cases)
