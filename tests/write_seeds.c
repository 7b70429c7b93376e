/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Writes the synthetic seed inputs committed under corpus/: valid buffers
 * of every shape (valid-*.bin) and malformed ones whose file name says
 * which field the rejection must name (bad-<STRUCT>.<field>-<what>.bin).
 * Run: write_seeds CORPUS_DIR. The output is deterministic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adversarial.h"
#include "builder.h"
#include "builder_v1.h"
#include "builder_v2meta.h"
#include "collector_fixture.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/v2_query.h"

static const char *out_dir;

static void write_file(const char *folder, const char *name, const uint8_t *data, size_t len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s", out_dir, folder, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL || (len > 0 && fwrite(data, 1, len, f) != len) || fclose(f) != 0) {
        fprintf(stderr, "write_seeds: cannot write %s\n", path);
        exit(2);
    }
}

static const uint32_t ids3[3] = {0, 3, 24};

static tb_v2 v2_all_kinds(void)
{
    return tb_v2_sample_all_kinds();
}

static void v2_single_kind(uint32_t kind, const char *name)
{
    tb_v2 v;
    tb_v2_begin(&v, 1, 2, 10000000);
    tb_v2_block_begin(&v, kind == PERFBUF_V2_ERROR_RETURN ? 0x1068 : 0, kind);
    switch (kind) {
    case PERFBUF_V2_SINGLE_COUNTER:
        tb_v2_u32(&v, 7);
        break;
    case PERFBUF_V2_MULTIPLE_COUNTERS:
        tb_v2_ids(&v, ids3, 2);
        tb_v2_u64(&v, 1);
        tb_v2_u64(&v, 2);
        break;
    case PERFBUF_V2_MULTIPLE_INSTANCES:
        tb_v2_instances_begin(&v, 1);
        tb_v2_instance(&v, 3, "\xF0\x9F\x98\x80 non-BMP");
        tb_v2_u64(&v, 9);
        tb_v2_instances_end(&v);
        break;
    default:
        break;
    }
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    write_file("fuzz_v2_query", name, v.buf.data, v.buf.len);
    tb_free(&v.buf);
}

/* Processor Information as a COUNTERSET: 32 ids (0..31 without 29), 4
 * instances, value sizes as the counterset registers them. */
static void v2_processor_information(void)
{
    static const uint8_t large[32] = {1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                      0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 0, 0};
    uint32_t ids[31];
    uint32_t n = 0;
    for (uint32_t id = 0; id < 32; id++) {
        if (id != 29) {
            ids[n++] = id;
        }
    }
    tb_v2 v;
    tb_v2_begin(&v, 25368570629, 134398148561470699, 10000000);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(&v, ids, n);
    const char *names[4] = {"_Total", "0,_Total", "0,0", "0,1"};
    tb_v2_instances_begin(&v, 4);
    for (uint32_t i = 0; i < 4; i++) {
        tb_v2_instance(&v, i, names[i]);
        for (uint32_t k = 0; k < n; k++) {
            if (large[ids[k]]) {
                tb_v2_u64(&v, 1000000ull * (i + 1) + ids[k]);
            } else {
                tb_v2_u32(&v, 100u * (i + 1) + ids[k]);
            }
        }
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    write_file("fuzz_v2_query", "valid-processor-information.bin", v.buf.data, v.buf.len);
    tb_free(&v.buf);
}

typedef struct bad_patch {
    const char *name;
    size_t at;
    uint32_t value;
} bad_patch;

/* Offsets in v2_all_kinds(), as tests/test_v2_query.c documents them. */
static const bad_patch v2_bad[] = {
    {"bad-PERF_DATA_HEADER.dwTotalSize-below-header.bin", 0, 47},
    {"bad-PERF_DATA_HEADER.dwTotalSize-beyond-received.bin", 0, 465},
    {"bad-PERF_DATA_HEADER.dwNumCounters-beyond-bytes.bin", 4, 27},
    {"bad-PERF_COUNTER_HEADER.dwSize-below-header.bin", 56, 15},
    {"bad-PERF_COUNTER_HEADER.dwSize-beyond-total.bin", 56, 417},
    {"bad-PERF_COUNTER_HEADER.dwType-unknown.bin", 52, 5},
    {"bad-PERF_COUNTER_DATA.dwSize-below-header.bin", 84, 7},
    {"bad-PERF_COUNTER_DATA.dwSize-beyond-block.bin", 84, 24},
    {"bad-PERF_COUNTER_DATA.dwDataSize-beyond-data.bin", 80, 9},
    {"bad-PERF_MULTI_COUNTERS.dwSize-below-header.bin", 112, 7},
    {"bad-PERF_MULTI_COUNTERS.dwCounters-overflow.bin", 116, 0x40000001},
    {"bad-PERF_MULTI_INSTANCES.dwTotalSize-beyond-block.bin", 200, 88},
    {"bad-PERF_MULTI_INSTANCES.dwInstances-huge.bin", 204, 0xFFFFFFFF},
    {"bad-PERF_INSTANCE_HEADER.Size-below-header.bin", 208, 7},
    {"bad-PERF_INSTANCE_HEADER.Name-unterminated.bin", 228, 0x00410041},
};

static void v2_seeds(void)
{
    tb_v2 v;
    tb_v2_begin(&v, 1, 2, 10000000);
    tb_v2_end(&v);
    write_file("fuzz_v2_query", "valid-header-only.bin", v.buf.data, v.buf.len);
    tb_free(&v.buf);
    v2_single_kind(PERFBUF_V2_ERROR_RETURN, "valid-error-return.bin");
    v2_single_kind(PERFBUF_V2_SINGLE_COUNTER, "valid-single-counter.bin");
    v2_single_kind(PERFBUF_V2_MULTIPLE_COUNTERS, "valid-multiple-counters.bin");
    v2_single_kind(PERFBUF_V2_MULTIPLE_INSTANCES, "valid-multiple-instances.bin");
    v2_processor_information();
    v = v2_all_kinds();
    write_file("fuzz_v2_query", "valid-all-kinds.bin", v.buf.data, v.buf.len);
    for (size_t i = 0; i < sizeof v2_bad / sizeof v2_bad[0]; i++) {
        uint32_t saved = tb_get_u32(&v.buf, v2_bad[i].at);
        tb_patch_u32(&v.buf, v2_bad[i].at, v2_bad[i].value);
        write_file("fuzz_v2_query", v2_bad[i].name, v.buf.data, v.buf.len);
        tb_patch_u32(&v.buf, v2_bad[i].at, saved);
    }
    /* Truncated by one byte: the last value is cut. */
    write_file("fuzz_v2_query", "bad-PERF_DATA_HEADER.dwTotalSize-truncated-by-one.bin",
               v.buf.data, v.buf.len - 1);
    tb_free(&v.buf);
}

/* Offsets in tb_v1_sample_global(), as tests/test_v1.c documents them. */
static const bad_patch v1_bad[] = {
    {"bad-PERF_DATA_BLOCK.Signature-not-perf.bin", 0, 0x00450051},
    {"bad-PERF_DATA_BLOCK.LittleEndian-big-endian.bin", 8, 0},
    {"bad-PERF_DATA_BLOCK.TotalByteLength-beyond-received.bin", 20, 0x7FFFFFFF},
    {"bad-PERF_DATA_BLOCK.HeaderLength-below-struct.bin", 24, 87},
    {"bad-PERF_DATA_BLOCK.SystemNameOffset-beyond-header.bin", 84, 97},
    {"bad-PERF_DATA_BLOCK.NumObjectTypes-over-limit.bin", 28, 0xFFFFFFFF},
    {"bad-PERF_OBJECT_TYPE.TotalByteLength-below-struct.bin", 96, 63},
    {"bad-PERF_OBJECT_TYPE.DefinitionLength-beyond-object.bin", 100, 377},
    {"bad-PERF_OBJECT_TYPE.NumCounters-huge.bin", 128, 0xFFFFFFFF},
    {"bad-PERF_OBJECT_TYPE.NumInstances-minus-four.bin", 136, 0xFFFFFFFC},
    {"bad-PERF_COUNTER_DEFINITION.ByteLength-below-struct.bin", 160, 39},
    {"bad-PERF_COUNTER_DEFINITION.CounterOffset-inside-length.bin", 196, 2},
    {"bad-PERF_INSTANCE_DEFINITION.ByteLength-beyond-object.bin", 280, 400},
    {"bad-PERF_INSTANCE_DEFINITION.NameOffset-over-header.bin", 296, 20},
    {"bad-PERF_INSTANCE_DEFINITION.NameLength-odd.bin", 300, 9},
    {"bad-PERF_COUNTER_DEFINITION.CounterOffset-past-block.bin", 196, 20},
    {"bad-PERF_COUNTER_BLOCK.ByteLength-below-four.bin", 320, 3},
};

static void v1_seeds(void)
{
    tb_v1 v = tb_v1_sample_global();
    write_file("fuzz_v1", "valid-global.bin", v.buf.data, v.buf.len);
    for (size_t i = 0; i < sizeof v1_bad / sizeof v1_bad[0]; i++) {
        uint32_t saved = tb_get_u32(&v.buf, v1_bad[i].at);
        tb_patch_u32(&v.buf, v1_bad[i].at, v1_bad[i].value);
        write_file("fuzz_v1", v1_bad[i].name, v.buf.data, v.buf.len);
        tb_patch_u32(&v.buf, v1_bad[i].at, saved);
    }
    tb_free(&v.buf);

    tb_v1 cp;
    tb_v1_begin(&cp, "HOST-1252");
    tb_v1_object_begin(&cp, 500, 0, 1252);
    tb_v1_counter(&cp, 2, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&cp);
    uint8_t data[4] = {1, 0, 0, 0};
    tb_v1_instance(&cp, "Caf\xE9", 0, 0);
    tb_v1_counter_block(&cp, data, 4);
    tb_v1_object_end(&cp);
    tb_v1_end(&cp);
    write_file("fuzz_v1", "valid-code-page-1252.bin", cp.buf.data, cp.buf.len);
    tb_free(&cp.buf);

    /* Shared counter data: 1,000 counters at one offset in 8 instances, at
     * the claim budget and one counter past it (docs/v1.md). */
    tb_buf shared = adv_v1_shared_offset(1000, 8, 0);
    write_file("fuzz_v1", "valid-shared-offset.bin", shared.data, shared.len);
    tb_free(&shared);
    shared = adv_v1_shared_offset(1000, 8, 1);
    write_file("fuzz_v1", "bad-PERF_COUNTER_DEFINITION.CounterOffset-claims-past-budget.bin",
               shared.data, shared.len);
    tb_free(&shared);
    /* The densest the budget allows: two counters of size 0 per block byte. */
    shared = adv_v1_dense_zero(100);
    write_file("fuzz_v1", "valid-size-zero-dense.bin", shared.data, shared.len);
    tb_free(&shared);
    /* A small one for the structure-aware mutator to start from. */
    shared = adv_v1_shared_offset(16, 3, 0);
    write_file("fuzz_v1_structured", "valid-shared-offset.bin", shared.data, shared.len);
    tb_free(&shared);
}

static void names_file(const char *name, const char *const *strings, size_t n, int final)
{
    tb_buf b;
    tb_init(&b);
    for (size_t i = 0; i < n; i++) {
        tb_utf16(&b, strings[i], 1);
    }
    if (final) {
        tb_u16(&b, 0);
    }
    write_file("fuzz_v1_names", name, b.data, b.len);
    tb_free(&b);
}

static void names_seeds(void)
{
    static const char *const counter[] = {"1", "1847", "2", "System", "4", "Memory",
                                          "6", "% Processor Time", "230", "Process",
                                          "232", "Thread", "238", "Processor"};
    names_file("valid-counter.bin", counter, 14, 1);
    static const char *const help[] = {"3", "The System object type", "7", "% Processor Time is"};
    names_file("valid-help.bin", help, 4, 1);
    static const char *const letter[] = {"1", "a", "2x", "b"};
    names_file("bad-NAME_TABLE_ENTRY.Index-not-a-number.bin", letter, 4, 1);
    static const char *const overflow[] = {"4294967296", "a"};
    names_file("bad-NAME_TABLE_ENTRY.Index-overflow.bin", overflow, 2, 1);
    static const char *const no_text[] = {"1", "a", "2"};
    names_file("bad-NAME_TABLE_ENTRY.Text-missing.bin", no_text, 3, 1);
    static const char *const odd[] = {"1", "a"};
    tb_buf b;
    tb_init(&b);
    tb_utf16(&b, odd[0], 1);
    tb_utf16(&b, odd[1], 1);
    tb_u8(&b, 0);
    write_file("fuzz_v1_names", "bad-REG_MULTI_SZ.Length-odd.bin", b.data, b.len);
    tb_free(&b);
}

/* fuzz_v2_meta inputs: a byte that picks the reader, then its buffer. */
static void meta_file(const char *name, uint8_t pick, const uint8_t *data, size_t len)
{
    tb_buf b;
    tb_init(&b);
    tb_u8(&b, pick);
    tb_bytes(&b, data, len);
    write_file("fuzz_v2_meta", name, b.data, b.len);
    tb_free(&b);
}

static void v2_meta_seeds(void)
{
    tb_buf reg = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                               PERFBUF_COUNTERSET_MULTI_INSTANCES);
    meta_file("valid-reginfo-processor-information.bin", 0, reg.data, reg.len);
    meta_file("valid-counter-struct.bin", 3, reg.data + 32 + 21 * 48, 48);
    tb_buf b = tb_v2_string_answer("Processor Information");
    meta_file("valid-string.bin", 4, b.data, b.len);
    tb_free(&b);
    meta_file("valid-provider-guid.bin", 5, tb_processor_information_guid, 16);
    const perfbuf_v2_string_origin origins[2] = {PERFBUF_V2_STRINGS_FROM_BLOCK,
                                                 PERFBUF_V2_STRINGS_FROM_ARRAY_END};
    const char *names[2] = {"valid-strings-from-block.bin", "valid-strings-from-array-end.bin"};
    for (int o = 0; o < 2; o++) {
        tb_buf block = tb_v2_strings(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                                     origins[o]);
        tb_init(&b);
        tb_u8(&b, (uint8_t)PERFBUF_V2_STRINGS_AUTO);
        tb_bytes(&b, block.data, block.len);
        meta_file(names[o], 6, b.data, b.len);
        tb_free(&b);
        tb_free(&block);
    }
    tb_init(&b);
    tb_v2_identifier(&b, tb_processor_information_guid, 0, PERFBUF_V2_WILDCARD_COUNTER,
                     PERFBUF_V2_ANY_INSTANCE_ID, 0, "*");
    tb_v2_identifier(&b, tb_processor_information_guid, 0x1068, 7, 3, 1, NULL);
    meta_file("valid-identifiers.bin", 7, b.data, b.len);
    tb_patch_u32(&b, 48 + 20, 39);
    meta_file("bad-PERF_COUNTER_IDENTIFIER.Size-below-header.bin", 7, b.data, b.len);
    tb_free(&b);

    /* fuzz_v2_crosscheck: [u16 reg][u16 ids][reg][ids][query]. */
    static const char *const instances[2] = {"_Total", "0,0"};
    tb_v2 q = tb_v2_processor_information_query(instances, 2);
    tb_buf ids;
    tb_init(&ids);
    tb_v2_identifier(&ids, tb_processor_information_guid, 0, PERFBUF_V2_WILDCARD_COUNTER,
                     PERFBUF_V2_ANY_INSTANCE_ID, 0, "*");
    const struct {
        const char *name;
        uint32_t instance_type;
        bool with_ids;
    } cross[3] = {{"valid-agree.bin", PERFBUF_COUNTERSET_MULTI_INSTANCES, true},
                  {"valid-agree-without-identifiers.bin", PERFBUF_COUNTERSET_MULTI_INSTANCES, false},
                  {"valid-disagree-result-kind.bin", PERFBUF_COUNTERSET_SINGLE_INSTANCE, true}};
    for (int i = 0; i < 3; i++) {
        tb_patch_u32(&reg, 28, cross[i].instance_type);
        size_t ids_len = cross[i].with_ids ? ids.len : 0;
        tb_init(&b);
        tb_u16(&b, (uint16_t)reg.len);
        tb_u16(&b, (uint16_t)ids_len);
        tb_bytes(&b, reg.data, reg.len);
        tb_bytes(&b, ids.data, ids_len);
        tb_bytes(&b, q.buf.data, q.buf.len);
        write_file("fuzz_v2_crosscheck", cross[i].name, b.data, b.len);
        tb_free(&b);
    }
    tb_free(&ids);
    tb_free(&q.buf);
    tb_free(&reg);
    /* Value plans where the walk decides, at the largest registration the
     * u16 length holds (1,364 counters of 48 bytes): one 16-byte value
     * among the counters, and the referenced ids repeated with their
     * first values 16 bytes wide (tests/adversarial.h). */
    const struct {
        const char *name;
        uint32_t n;
        int shape;
    } plans[2] = {{"valid-plan-one-wide.bin", 1360, ADV_PLAN_ONE_WIDE},
                  {"valid-plan-repeated-wide.bin", 1360, ADV_PLAN_REPEATED_WIDE}};
    for (int i = 0; i < 2; i++) {
        tb_v2 plan_query;
        tb_buf plan_reg;
        adv_plan_irregular(plans[i].n, plans[i].shape, &plan_query, &plan_reg);
        tb_init(&b);
        tb_u16(&b, (uint16_t)plan_reg.len);
        tb_u16(&b, 0);
        tb_bytes(&b, plan_reg.data, plan_reg.len);
        tb_bytes(&b, plan_query.buf.data, plan_query.buf.len);
        write_file("fuzz_v2_crosscheck", plans[i].name, b.data, b.len);
        tb_free(&b);
        tb_free(&plan_reg);
        tb_free(&plan_query.buf);
    }
}

/* fuzz_pairing: a header (format selector, path length, older length),
 * the path, the older capture, the newer one (fuzz/fuzz_pairing.c). */
static void pairing_file(const char *name, uint8_t format, const char *path, const tb_buf *older,
                         const tb_buf *newer)
{
    tb_buf b;
    tb_init(&b);
    size_t path_len = strlen(path);
    tb_u8(&b, format);
    tb_u16(&b, (uint16_t)path_len);
    tb_u32(&b, (uint32_t)older->len);
    tb_bytes(&b, path, path_len);
    tb_bytes(&b, older->data, older->len);
    tb_bytes(&b, newer->data, newer->len);
    write_file("fuzz_pairing", name, b.data, b.len);
    tb_free(&b);
}

static void pairing_case(const char *name, uint8_t format, const char *path,
                         const char *const *parents, uint32_t parent_count,
                         const cf_process *older, uint32_t older_count, const cf_process *newer,
                         uint32_t newer_count, int moved)
{
    tb_buf o = cf_capture(0, parents, parent_count, older, older_count, 0);
    tb_buf n = cf_capture(1, parents, parent_count, newer, newer_count, moved);
    pairing_file(name, format, path, &o, &n);
    tb_free(&o);
    tb_free(&n);
}

static void pairing_seeds(void)
{
    const char *const jobs[] = {"p1", "P2"};
    const cf_process older[] = {{"a", -1, -1, 1000000, 1}, {"svchost", 0, -1, 2000000, 2},
                                {"svchost", 0, -1, 3000000, 3}, {"c", 1, -1, 4000000, 4},
                                {"svchost", -1, 7, 5000000, 5}};
    const cf_process newer[] = {{"svchost", 0, -1, 4000000, 2}, {"d", -1, -1, 100, 0},
                                {"C", 1, -1, 5000000, 5}, {"a", -1, -1, 3500000, 1},
                                {"svchost", -1, 7, 6000000, 6}};
    pairing_case("valid-exit-start-swap.bin", 0, "\\Process(*)\\% Processor Time", jobs, 2,
                 older, 5, newer, 5, 0);
    pairing_case("valid-shifted-index.bin", 1, "\\Process(p1/svchost#1)\\Count", jobs, 2,
                 older, 5, newer, 5, 0);
    pairing_case("valid-prefix.bin", 2, "\\Process(svc*)\\Count", jobs, 2, older, 5, newer,
                 5, 0);
    pairing_case("valid-moved-counter.bin", 3, "", jobs, 2, older, 5, newer, 5, 1);
    pairing_case("valid-single-instance.bin", 0, "\\System\\Uptime", jobs, 2, older, 5,
                 newer, 5, 0);
    pairing_case("valid-all-new.bin", 0, "\\Process(*)\\Count", jobs, 2, older, 0, newer, 5,
                 0);

    const cf_v2_instance v2_older[] = {{1, "a", 1000000, 1}, {2, "b", 2000000, 2},
                                       {3, "w", 0, 3}, {3, "w", 0, 4}};
    const cf_v2_instance v2_newer[] = {{2, "B", 7000000, 5}, {3, "w", 0, 6}, {1, "z", 0, 7},
                                       {5, "e", 0, 8}};
    tb_buf o = cf_v2_capture(0, v2_older, 4);
    tb_buf n = cf_v2_capture(1, v2_newer, 4);
    tb_buf reg = cf_v2_registration();
    static const char *const v2_paths[3] = {"", "\\Set(w#1)\\count", "\\Set(*)\\cpu"};
    static const char *const v2_names[3] = {"valid-v2-all.bin", "valid-v2-index.bin",
                                            "valid-v2-wildcard.bin"};
    for (int i = 0; i < 3; i++) {
        tb_buf b;
        tb_init(&b);
        size_t path_len = strlen(v2_paths[i]);
        tb_u8(&b, (uint8_t)(4 | i));
        tb_u16(&b, (uint16_t)path_len);
        tb_u32(&b, (uint32_t)o.len);
        tb_u32(&b, (uint32_t)reg.len);
        tb_bytes(&b, v2_paths[i], path_len);
        tb_bytes(&b, o.data, o.len);
        tb_bytes(&b, reg.data, reg.len);
        tb_bytes(&b, n.data, n.len);
        write_file("fuzz_pairing", v2_names[i], b.data, b.len);
        tb_free(&b);
    }
    tb_free(&o);
    tb_free(&n);
    tb_free(&reg);
}

/* fuzz_query: a header (format selector, two path lengths, table and older
 * lengths), the paths, the table, the older capture, the newer one
 * (fuzz/fuzz_query.c). */
static void query_file_with(const char *name, uint8_t format, const char *path1,
                            const char *path2, const tb_buf *table, const tb_buf *older,
                            const tb_buf *newer)
{
    tb_buf b;
    tb_init(&b);
    tb_u8(&b, format);
    tb_u16(&b, (uint16_t)strlen(path1));
    tb_u16(&b, (uint16_t)strlen(path2));
    tb_u32(&b, (uint32_t)table->len);
    tb_u32(&b, (uint32_t)older->len);
    tb_bytes(&b, path1, strlen(path1));
    tb_bytes(&b, path2, strlen(path2));
    tb_bytes(&b, table->data, table->len);
    tb_bytes(&b, older->data, older->len);
    tb_bytes(&b, newer->data, newer->len);
    write_file("fuzz_query", name, b.data, b.len);
    tb_free(&b);
}

/* The same with an English Counter table of the collector fixture's titles. */
static void query_file(const char *name, uint8_t format, const char *path1, const char *path2,
                       const tb_buf *older, const tb_buf *newer)
{
    static const struct {
        uint32_t index;
        const char *text;
    } titles[] = {{CF_SYSTEM, "System"},   {CF_CPU, "% Processor Time"}, {CF_COUNT, "ID Process"},
                  {CF_PROCESS, "Process"}, {CF_JOB, "Job"},             {CF_UPTIME, "Uptime"}};
    tb_buf table;
    tb_init(&table);
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++) {
        char number[16];
        snprintf(number, sizeof number, "%u", titles[i].index);
        tb_utf16(&table, number, 1);
        tb_utf16(&table, titles[i].text, 1);
    }
    tb_u16(&table, 0);
    query_file_with(name, format, path1, path2, &table, older, newer);
    tb_free(&table);
}

/* Bit 3: a V2 query on the collector fixture's counterset, named "S":
 * the table is the registration's length, the registration and the
 * counter names; the captures are V2 query data. */
static void query_v2_seeds(void)
{
    static const tb_reg_row rows[2] = {
        {CF_V2_CPU, PERF_100NSEC_TIMER, PERFBUF_V2_NO_ID, "cpu"},
        {CF_V2_COUNT, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, "count"}};
    tb_buf reg = cf_v2_registration();
    tb_buf names = tb_v2_strings(rows, 2, PERFBUF_V2_STRINGS_FROM_ARRAY_END);
    tb_buf table;
    tb_init(&table);
    tb_u16(&table, (uint16_t)reg.len);
    tb_bytes(&table, reg.data, reg.len);
    tb_bytes(&table, names.data, names.len);
    const cf_v2_instance older[] = {{0, "Idle", 1000000, 0}, {812, "svchost", 2000000, 812},
                                    {1044, "svchost", 3000000, 1044}, {9, "w", 0, 1}};
    const cf_v2_instance newer[] = {{1044, "svchost", 5000000, 1044}, {0, "idle", 8000000, 0},
                                    {1300, "new", 0, 1300}, {9, "w", 0, 2}, {9, "w", 0, 3}};
    tb_buf o = cf_v2_capture(0, older, 4), n = cf_v2_capture(1, newer, 5);
    query_file_with("valid-v2-exit-start.bin", 8, "\\S(*)\\cpu", "\\s(w#1)\\1", &table, &o, &n);
    query_file_with("valid-v2-guid-missing.bin", 9,
                    "\\{00000000-0000-0000-0000-000000000000}(*)\\0", "\\S(gone)\\count", &table,
                    &o, &n);
    /* Bit 5 too: a registration without a name whose ids descend, so that
     * open defers their order to the arena, and no counter names, so that
     * the deferred buffer is the last one open parses. */
    enum { DESCENDING = 40 }; /* past the counts checked without scratch */
    tb_reg_row descending[DESCENDING];
    for (uint32_t i = 0; i < DESCENDING; i++) {
        descending[i] = (tb_reg_row){DESCENDING - 1u - i, PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID,
                                     NULL};
    }
    tb_buf unordered = tb_v2_reginfo(descending, DESCENDING, PERFBUF_COUNTERSET_MULTI_INSTANCES);
    tb_buf unordered_table;
    tb_init(&unordered_table);
    tb_u16(&unordered_table, (uint16_t)unordered.len);
    tb_bytes(&unordered_table, unordered.data, unordered.len);
    query_file_with("valid-v2-unordered-no-name.bin", 8 | 32, "\\S(*)\\1", "\\S(w)\\2",
                    &unordered_table, &o, &n);
    tb_free(&unordered_table);
    tb_free(&unordered);
    tb_free(&o);
    tb_free(&n);
    tb_free(&table);
    tb_free(&names);
    tb_free(&reg);
}

/*
 * Children of one long-named parent (docs/linear-time.md): in the older
 * capture, LONG_PARENT_UNITS characters name the one CF_JOB instance, and
 * LONG_PARENT_CHILDREN CF_PROCESS instances, each as small as a V1
 * instance can be (a one-character name, one 4-byte counter), are its
 * children. The first path selects none of them and the second names the
 * parent, so a collection's budget (fuzz/fuzz_query.c) is five times the
 * capture plus an item per child (the counter of every definition); a
 * collection that converted the parent's name again for each child
 * rather than once per capture would do about twice that budget, where
 * one that converts it once does about 3 % of it (docs/linear-time.md).
 * adv_pair's 2,000 characters are too short for that: n x 2,000 fits the
 * budget. The newer capture is small (a short parent, two children: every
 * older child exits), so that the seed costs the fuzzer one large capture.
 */
enum { LONG_PARENT_UNITS = 16000, LONG_PARENT_CHILDREN = 700, LONG_COMPUTER_UNITS = 1100 };

static tb_buf long_parent_capture(const char *computer, uint32_t second, uint32_t units,
                                  uint32_t children)
{
    tb_v1 v;
    tb_v1_begin(&v, computer);
    uint64_t t = CF_TIME(second);
    tb_patch_u32(&v.buf, 72, (uint32_t)t);
    tb_patch_u32(&v.buf, 76, (uint32_t)(t >> 32));
    char *parent = malloc(units + 1u);
    if (parent == NULL) {
        exit(2);
    }
    memset(parent, 'P', units);
    parent[units] = '\0';
    uint8_t data[4];
    tb_v1_object_begin(&v, CF_JOB, 0, 0);
    tb_v1_counter(&v, CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    tb_v1_instance(&v, parent, 0, 0);
    tb_put32(data, 4, 1);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    free(parent);
    tb_v1_object_begin(&v, CF_PROCESS, 0, 0);
    tb_v1_counter(&v, CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    for (uint32_t i = 0; i < children; i++) {
        tb_v1_instance(&v, "c", CF_JOB, 0);
        tb_put32(data, 4, i + second);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

static void query_seeds(void)
{
    const char *const jobs[] = {"p1", "P2"};
    const cf_process older[] = {{"a", -1, -1, 1000000, 1}, {"svchost", 0, -1, 2000000, 2},
                                {"svchost", 0, -1, 3000000, 3}, {"c", 1, -1, 4000000, 4},
                                {"svchost", -1, 7, 5000000, 5}};
    const cf_process newer[] = {{"svchost", 0, -1, 4000000, 2}, {"d", -1, -1, 100, 0},
                                {"C", 1, -1, 5000000, 5}, {"a", -1, -1, 3500000, 1},
                                {"svchost", -1, 7, 6000000, 6}};
    tb_buf o = cf_capture(0, jobs, 2, older, 5, 0);
    tb_buf n = cf_capture(1, jobs, 2, newer, 5, 0);
    tb_buf moved = cf_capture(1, jobs, 2, newer, 5, 1);
    query_file("valid-exit-start.bin", 0, "\\Process(*)\\% Processor Time",
               "\\System\\Uptime", &o, &n);
    query_file("valid-parents-prefix.bin", 1, "\\Process(p1/svchost#1)\\ID Process",
               "\\process(svc*)\\% PROCESSOR TIME", &o, &n);
    query_file("valid-moved-missing.bin", 2, "\\Process(*/*)\\% Processor Time",
               "\\Memory\\Available Bytes", &o, &moved);
    /* Bit 2: the first counter paired by the key counter the second "path" names. */
    query_file("valid-pair-by-id-process.bin", 4, "\\Process(*)\\% Processor Time", "ID Process",
               &o, &n);
    query_file("invalid-paths.bin", 3, "\\Process(*\\x", "\\Process(*)\\*", &o, &n);
    /* Bit 4: the first counter paired by UniqueID (the last svchost has one). */
    query_file("valid-pair-by-unique-id.bin", 16, "\\Process(*)\\% Processor Time",
               "\\Process(svchost)\\ID Process", &o, &n);
    tb_buf lo = long_parent_capture("HOST", 0, LONG_PARENT_UNITS, LONG_PARENT_CHILDREN);
    tb_buf ln = long_parent_capture("HOST", 1, 1, 2);
    query_file("valid-long-parent-children.bin", 0, "\\Process(none)\\ID Process",
               "\\Job(*)\\ID Process", &lo, &ln);
    tb_free(&lo);
    tb_free(&ln);
    /* A newer capture of a computer whose name takes more than a kilobyte
     * of UTF-8: MACHINE_CHANGED, which the harness must see by comparing
     * the whole name. */
    char computer[LONG_COMPUTER_UNITS + 1];
    memset(computer, 'N', LONG_COMPUTER_UNITS);
    computer[LONG_COMPUTER_UNITS] = '\0';
    lo = long_parent_capture("HOST", 0, 1, 2);
    ln = long_parent_capture(computer, 1, 1, 2);
    query_file("valid-long-computer-name.bin", 0, "\\Process(*)\\ID Process",
               "\\Job(*)\\ID Process", &lo, &ln);
    tb_free(&lo);
    tb_free(&ln);
    query_v2_seeds();
    tb_free(&o);
    tb_free(&n);
    tb_free(&moved);
}

/* fuzz_openmetrics: its 64-byte header (fuzz/fuzz_openmetrics.c, split)
 * and the prefix, range, object and counter names after it. */
static void openmetrics_seed(const char *name, uint32_t type, uint8_t flags, uint64_t first,
                             uint64_t second, uint32_t multi, uint64_t frequency,
                             const char *prefix, const char *range, const char *object,
                             size_t object_len, const char *counter, size_t counter_len)
{
    uint8_t h[64];
    memset(h, 0, sizeof h);
    uint64_t fields[4] = {first, second, multi, frequency};
    size_t at[4] = {8, 16, 24, 28};
    size_t width[4] = {8, 8, 4, 8};
    for (int k = 0; k < 4; k++) {
        for (size_t i = 0; i < width[k]; i++) {
            h[at[k] + i] = (uint8_t)(fields[k] >> (8 * i));
        }
    }
    for (int i = 0; i < 4; i++) {
        h[i] = (uint8_t)(type >> (8 * i));
    }
    h[4] = flags;
    /* 2026-11-22 10:00:01.25 UTC as a FILETIME. */
    uint64_t filetime = 134398152012500000ull;
    for (int i = 0; i < 8; i++) {
        h[36 + i] = (uint8_t)(filetime >> (8 * i));
    }
    h[46] = (uint8_t)strlen(prefix);
    h[47] = (uint8_t)strlen(range);
    h[48] = (uint8_t)object_len;
    h[49] = (uint8_t)(object_len >> 8);
    tb_buf b;
    tb_init(&b);
    tb_bytes(&b, h, sizeof h);
    tb_bytes(&b, prefix, strlen(prefix));
    tb_bytes(&b, range, strlen(range));
    tb_bytes(&b, object, object_len);
    tb_bytes(&b, counter, counter_len);
    write_file("fuzz_openmetrics", name, b.data, b.len);
    tb_free(&b);
}

static void openmetrics_seeds(void)
{
    static const char hostile[] = "a\"b\\c\nd\re\0f\x1B[31mg\xE2\x80\xAEh\xFF}";
    openmetrics_seed("valid-processor-time.bin", PERF_100NSEC_TIMER_INV, 0, 45000000,
                     134398152010000000ull, 0, 10000000, "windows", "90s", "Processor", 9,
                     "% Processor Time", 16);
    openmetrics_seed("valid-elapsed.bin", PERF_ELAPSED_TIME, 0, 134397288000000000ull,
                     134398152010000000ull, 0, 10000000, "windows", "1500ms", "System", 6,
                     "System Up Time", 14);
    openmetrics_seed("valid-rate-bytes.bin", PERF_COUNTER_BULK_COUNT, 0, 1228800, 133456789, 0,
                     10000000, "windows", "2m", "Network Interface", 17, "Bytes Total/sec", 15);
    openmetrics_seed("valid-multi-inverse.bin", PERF_100NSEC_MULTI_TIMER_INV, 0, 7, 11, 4,
                     10000000, "w", "1m30s", "Thread", 6, "Thread Thread Time", 18);
    openmetrics_seed("valid-average-timer.bin", PERF_AVERAGE_TIMER, 0, 3000000, 150, 0, 3,
                     "windows", "90s", "PhysicalDisk", 12, "Avg. Disk sec/Transfer", 22);
    openmetrics_seed("valid-hostile-names.bin", PERF_RAW_FRACTION, 0, 6144, 12288, 0, 0, "p:q",
                     "15s", hostile, sizeof hostile - 1, hostile, sizeof hostile - 1);
    openmetrics_seed("invalid-prefix-range.bin", PERF_COUNTER_COUNTER, 2, 1, 2, 0, 0, "9x",
                     "s90", "", 0, "", 0);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: write_seeds CORPUS_DIR\n");
        return 2;
    }
    out_dir = argv[1];
    v2_seeds();
    v1_seeds();
    names_seeds();
    v2_meta_seeds();
    pairing_seeds();
    query_seeds();
    openmetrics_seeds();
    return 0;
}
