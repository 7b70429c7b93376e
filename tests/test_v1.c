/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The V1 reader: a Global-like block (Process, Thread with parents, a
 * single-instance object with base counters), every rejection branch,
 * lenient versus strict, names, parents and lookups, the Wine captures.
 * Every buffer is parsed in front of a guard page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/v1.h"
#include "builder_v1.h"
#include "guard.h"
#include "harness.h"

/* ---- the fixture: tb_v1_sample_global() in builder_v1.c ---- */

enum { PROCESS = TB_V1_PROCESS, THREAD = TB_V1_THREAD, MEMORY = TB_V1_MEMORY };

static tb_v1 global_block(void)
{
    return tb_v1_sample_global();
}

/* Offsets in global_block(), as the views report them (checked below). */
enum {
    OBJ_PROCESS = 96,
    DEF_PROCESS_0 = OBJ_PROCESS + 64,
    INST_PROCESS_0 = OBJ_PROCESS + 184,
    BLOCK_PROCESS_0 = INST_PROCESS_0 + 40,
    INST_PROCESS_1 = BLOCK_PROCESS_0 + 24,
    OBJ_THREAD = OBJ_PROCESS + 376,
    DEF_THREAD_1 = OBJ_THREAD + 64 + 40,
    INST_THREAD_0 = OBJ_THREAD + 184,
    OBJ_MEMORY = INST_THREAD_0 + 4 * (32 + 16),
    BLOCK_MEMORY = OBJ_MEMORY + 184,
    TOTAL = BLOCK_MEMORY + 32
};

typedef struct walk {
    perfbuf_status status;
    perfbuf_error err;
    perfbuf_v1_block b;
    uint32_t objects, counters, instances;
    uint64_t value_sum;
    char system_name[32];
    char names[512];
    bool views_inside;
} walk;

static bool inside(size_t off, size_t n, size_t len)
{
    return off <= len && n <= len - off;
}

static void add_values(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                       const perfbuf_v1_counter_block *blk, walk *w, size_t len)
{
    if (!inside(blk->offset, blk->byte_length, len)) {
        w->views_inside = false;
    }
    perfbuf_v1_iter ci;
    perfbuf_v1_counter c;
    perfbuf_v1_counters_begin(o, &ci);
    while (perfbuf_v1_counters_next(b, &ci, &c)) {
        w->value_sum += perfbuf_v1_counter_value(b, blk, &c);
        const uint8_t *bytes = perfbuf_v1_counter_bytes(b, blk, &c);
        if (c.size > 0 && (bytes == NULL || !inside((size_t)(bytes - b->data), c.size, len))) {
            w->views_inside = false;
        }
    }
}

static walk parse_and_walk(const uint8_t *data, size_t len, uint32_t flags)
{
    walk w;
    memset(&w, 0, sizeof w);
    w.views_inside = true;
    guarded g = guard_place(data, len);
    perfbuf_options opts = {flags, 0, 0, 0};
    w.status = perfbuf_v1_parse(g.bytes, len, &opts, &w.b, &w.err);
    if (w.status == PERFBUF_OK) {
        size_t n;
        if (perfbuf_v1_system_name_utf8(&w.b, w.system_name, sizeof w.system_name, &n) !=
            PERFBUF_OK) {
            w.views_inside = false;
        }
        perfbuf_v1_iter oi;
        perfbuf_v1_object o;
        perfbuf_v1_objects_begin(&w.b, &oi);
        while (perfbuf_v1_objects_next(&w.b, &oi, &o)) {
            w.objects++;
            w.counters += o.counter_count;
            if (!inside(o.offset, o.total_length, len)) {
                w.views_inside = false;
            }
            perfbuf_v1_counter_block blk;
            if (perfbuf_v1_object_counter_block(&w.b, &o, &blk)) {
                add_values(&w.b, &o, &blk, &w, len);
            }
            perfbuf_v1_iter ii;
            perfbuf_v1_instance inst;
            perfbuf_v1_instances_begin(&o, &ii);
            while (perfbuf_v1_instances_next(&w.b, &ii, &inst)) {
                w.instances++;
                if (!inside(inst.name_offset, inst.name_bytes, len)) {
                    w.views_inside = false;
                }
                char name[128];
                perfbuf_status st =
                    perfbuf_v1_full_name_utf8(&w.b, &o, &inst, NULL, name, sizeof name, &n);
                if (st == PERFBUF_OK || st == PERFBUF_E_BAD_REFERENCE) {
                    strncat(w.names, name, sizeof w.names - strlen(w.names) - 2);
                    strcat(w.names, ";");
                }
                add_values(&w.b, &o, &inst.counters, &w, len);
            }
        }
        if (w.objects != w.b.object_count) {
            w.views_inside = false;
        }
    } else if (w.err.offset > len) {
        w.views_inside = false;
    }
    w.b.data = NULL;
    guard_release(&g);
    return w;
}

/* ---- valid blocks ---- */

static void layout_is_as_documented(void)
{
    tb_v1 v = global_block();
    CHECK_EQ_U(v.buf.len, TOTAL);
    perfbuf_v1_block b;
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, NULL, &b, NULL) == PERFBUF_OK);
    perfbuf_v1_iter it;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(&b, &it);
    CHECK(perfbuf_v1_objects_next(&b, &it, &o));
    CHECK_EQ_U(o.offset, OBJ_PROCESS);
    CHECK_EQ_U(o.data_offset, INST_PROCESS_0);
    perfbuf_v1_iter ii;
    perfbuf_v1_instance inst;
    perfbuf_v1_instances_begin(&o, &ii);
    CHECK(perfbuf_v1_instances_next(&b, &ii, &inst));
    CHECK_EQ_U(inst.counters.offset, BLOCK_PROCESS_0);
    CHECK(perfbuf_v1_instances_next(&b, &ii, &inst));
    CHECK_EQ_U(inst.offset, INST_PROCESS_1);
    CHECK(perfbuf_v1_objects_next(&b, &it, &o));
    CHECK_EQ_U(o.offset, OBJ_THREAD);
    CHECK(perfbuf_v1_objects_next(&b, &it, &o));
    CHECK_EQ_U(o.offset, OBJ_MEMORY);
    perfbuf_v1_counter_block blk;
    CHECK(perfbuf_v1_object_counter_block(&b, &o, &blk));
    CHECK_EQ_U(blk.offset, BLOCK_MEMORY);
    tb_free(&v.buf);
}

static void global_block_decodes(void)
{
    tb_v1 v = global_block();
    walk w = parse_and_walk(v.buf.data, v.buf.len, PERFBUF_STRICT);
    CHECK(w.status == PERFBUF_OK);
    CHECK(w.views_inside);
    CHECK_EQ_U(w.b.anomalies, 0);
    CHECK_EQ_U(w.objects, 3);
    CHECK_EQ_U(w.counters, 9);
    CHECK_EQ_U(w.instances, 7);
    CHECK_STR(w.system_name, "VM");
    CHECK_STR(w.names, "Idle;svchost;svchost;Idle/0;svchost/0;svchost/1;svchost/0;");
    uint64_t process = (1000000 + 100 + 2) + (2000000 + 101 + 3) + (3000000 + 102 + 4);
    uint64_t thread = (7000 + 7001 + 7002 + 7003) + 4 * (25 + 100);
    uint64_t memory = 8589934592ull + 4000 + 10000;
    CHECK_EQ_U(w.value_sum, process + thread + memory);
    CHECK_EQ_U(w.b.version, 1);
    CHECK_EQ_U(w.b.perf_freq, 10000000);
    CHECK_EQ_U(w.b.perf_time_100ns, 134398148561470699);
    CHECK_EQ_U(w.b.system_time.year, 2026);
    CHECK_EQ_U((uint32_t)w.b.default_object, 0xFFFFFFFFu);
    tb_free(&v.buf);
}

static void counters_and_objects(void)
{
    tb_v1 v = global_block();
    perfbuf_v1_block b;
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, NULL, &b, NULL) == PERFBUF_OK);
    perfbuf_v1_object o;
    CHECK(perfbuf_v1_find_object(&b, MEMORY, &o) == PERFBUF_OK);
    CHECK_EQ_U((uint32_t)o.num_instances, 0xFFFFFFFFu);
    CHECK_EQ_U(o.instance_count, 0);
    CHECK_EQ_U(o.perf_freq, 1000);
    perfbuf_v1_iter it;
    perfbuf_v1_counter c;
    perfbuf_v1_counters_begin(&o, &it);
    CHECK(perfbuf_v1_counters_next(&b, &it, &c));
    CHECK_EQ_U(c.type, PERF_COUNTER_LARGE_RAWCOUNT);
    CHECK(perfbuf_v1_counters_next(&b, &it, &c));
    CHECK_EQ_U(c.type, PERF_PRECISION_100NS_TIMER);
    CHECK(perfbuf_v1_counters_next(&b, &it, &c));
    CHECK(perfbuf_counter_type_is_base(c.type));
    CHECK_EQ_U(c.index, 2);
    CHECK(!perfbuf_v1_counters_next(&b, &it, &c));
    perfbuf_v1_counter_block blk;
    CHECK(perfbuf_v1_object_counter_block(&b, &o, &blk));
    CHECK_EQ_U(perfbuf_v1_counter_value(&b, &blk, &c), 10000);
    CHECK(perfbuf_v1_find_object(&b, 9999, &o) == PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_v1_find_object(&b, PROCESS, &o) == PERFBUF_OK);
    CHECK(!perfbuf_v1_object_counter_block(&b, &o, &blk));
    tb_free(&v.buf);
}

static void parents_and_index(void)
{
    tb_v1 v = global_block();
    perfbuf_v1_block b;
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, NULL, &b, NULL) == PERFBUF_OK);
    perfbuf_v1_object process;
    perfbuf_v1_object thread;
    CHECK(perfbuf_v1_find_object(&b, PROCESS, &process) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&b, THREAD, &thread) == PERFBUF_OK);
    size_t offsets[3];
    perfbuf_v1_instance_index index;
    CHECK(perfbuf_v1_index_build(&b, &process, offsets, 2, &index) == PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(perfbuf_v1_index_build(&b, &process, offsets, 3, &index) == PERFBUF_OK);
    CHECK_EQ_U(index.count, 3);
    perfbuf_v1_instance inst;
    CHECK(perfbuf_v1_index_get(&b, &index, 3, &inst) == PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_v1_index_get(&b, &index, 2, &inst) == PERFBUF_OK);
    CHECK_EQ_U(inst.offset, offsets[2]);
    /* Every thread's full name through the block index equals the one
     * without; the one-object form answers no parent lookup (it would scan
     * each parent's name) and says so. */
    uint64_t slots[16];
    perfbuf_v1_instance_index whole;
    CHECK(b.index_slots <= 16);
    CHECK(perfbuf_v1_block_index_build(&b, slots, b.index_slots, &whole) == PERFBUF_OK);
    perfbuf_v1_iter it;
    perfbuf_v1_instances_begin(&thread, &it);
    int n = 0;
    while (perfbuf_v1_instances_next(&b, &it, &inst)) {
        char a[64];
        char c[64];
        size_t la;
        size_t lc;
        CHECK(perfbuf_v1_full_name_utf8(&b, &thread, &inst, &whole, a, sizeof a, &la) == PERFBUF_OK);
        CHECK(perfbuf_v1_full_name_utf8(&b, &thread, &inst, NULL, c, sizeof c, &lc) == PERFBUF_OK);
        CHECK_STR(a, c);
        CHECK(perfbuf_v1_full_name_utf8(&b, &thread, &inst, &index, a, sizeof a, &la) ==
              PERFBUF_E_SCRATCH_NEEDED);
        CHECK_EQ_U(la, 0);
        perfbuf_v1_instance parent;
        CHECK(perfbuf_v1_parent(&b, &thread, &inst, &whole, &parent, NULL) == PERFBUF_OK);
        CHECK_EQ_U(parent.index, inst.parent_instance);
        CHECK(perfbuf_v1_parent(&b, &thread, &inst, &index, &parent, NULL) ==
              PERFBUF_E_SCRATCH_NEEDED);
        n++;
    }
    CHECK_EQ_U(n, 4);
    /* A process has no parent. */
    CHECK(perfbuf_v1_index_get(&b, &index, 0, &inst) == PERFBUF_OK);
    perfbuf_v1_instance parent;
    CHECK(perfbuf_v1_parent(&b, &process, &inst, &index, &parent, NULL) == PERFBUF_E_NOT_FOUND);
    tb_free(&v.buf);
}

/*
 * perfbuf_v1_full_names_object against perfbuf_v1_full_name_utf8: every
 * record's text is the per-instance call's, but for a parent's part past
 * PERFBUF_V1_FULL_NAME_PARENT_MAX_BYTES, which is that text's prefix cut
 * at a whole character. Run with scratch, with scratch full of stale
 * values, and without; every cap below the size a first call answers is
 * OUTPUT_TOO_SMALL with a size that is enough. *status: the call's.
 */
static void full_names_agree(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                             const perfbuf_v1_instance_index *index, size_t *cut_parts,
                             perfbuf_status *status)
{
    size_t needed = 0;
    perfbuf_status first =
        perfbuf_v1_full_names_object(b, o, index, NULL, 0, NULL, 0, NULL, 0, &needed);
    CHECK(first == (o->instance_count == 0 ? PERFBUF_OK : PERFBUF_E_OUTPUT_TOO_SMALL));
    CHECK(needed <= PERFBUF_V1_FULL_NAMES_BYTES_PER_BYTE * o->total_length);
    size_t slots = index->slot_count;
    size_t *scratch = malloc(sizeof *scratch * (slots + 1));
    perfbuf_v1_full_name *names = malloc(sizeof *names * (o->instance_count + 1u));
    char *out = malloc(needed + 1);
    perfbuf_status st = PERFBUF_OK;
    size_t written = 0;
    *cut_parts = 0;
    *status = PERFBUF_E_INVALID_ARGUMENT;
    for (int run = 0; run < 3; run++) {
        /* run 0: cleared scratch; 1: stale entries (every one names record
         * 0 or a record past the instances); 2: none. */
        for (size_t k = 0; k < slots; k++) {
            scratch[k] = run == 0 ? 0 : (k % 2 == 0 ? 0 : SIZE_MAX - k);
        }
        st = perfbuf_v1_full_names_object(b, o, index, run == 2 ? NULL : scratch,
                                          run == 2 ? 0 : slots, names, o->instance_count, out,
                                          needed, &written);
        CHECK(st == PERFBUF_OK || st == PERFBUF_E_BAD_REFERENCE);
        CHECK(written <= needed);
        perfbuf_v1_iter it;
        perfbuf_v1_instance inst;
        perfbuf_v1_instances_begin(o, &it);
        while (perfbuf_v1_instances_next(b, &it, &inst)) {
            const perfbuf_v1_full_name *f = &names[inst.index];
            char one[8192];
            size_t len = 0;
            perfbuf_status one_st =
                perfbuf_v1_full_name_utf8(b, o, &inst, index, one, sizeof one, &len);
            CHECK(one_st == PERFBUF_OK || one_st == PERFBUF_E_BAD_REFERENCE);
            CHECK_EQ_U((f->flags & PERFBUF_V1_FULL_NAME_BAD_PARENT) != 0,
                       one_st == PERFBUF_E_BAD_REFERENCE);
            CHECK(f->offset <= written && f->length < written - f->offset);
            CHECK_EQ_U(out[f->offset + f->length], '\0');
            if ((f->flags & PERFBUF_V1_FULL_NAME_PARENT_CUT) == 0) {
                CHECK_EQ_U(f->length, len);
                CHECK(memcmp(out + f->offset, one, len) == 0);
            } else {
                /* The cut parent's part, then what follows the parent's
                 * whole part in the per-instance text. */
                size_t tail = f->length - f->parent_length;
                CHECK(f->parent_length <= PERFBUF_V1_FULL_NAME_PARENT_MAX_BYTES &&
                      f->parent_length + 3 > PERFBUF_V1_FULL_NAME_PARENT_MAX_BYTES);
                CHECK(len > f->length);
                CHECK(memcmp(out + f->offset, one, f->parent_length) == 0);
                CHECK(memcmp(out + f->offset + f->parent_length, one + len - tail, tail) == 0);
                CHECK(((unsigned char)one[f->parent_length] & 0xC0u) != 0x80u);
                *cut_parts += run == 0;
            }
            CHECK_EQ_U(f->parent_slot == PERFBUF_V1_FULL_NAME_NO_PARENT, f->parent_length == 0 &&
                       (f->length == 0 || out[f->offset] != '/'));
        }
    }
    /* Every shorter output: OUTPUT_TOO_SMALL and a size that is enough. */
    for (size_t cap = 0; cap < written; cap += 1 + cap / 8) {
        size_t again = 0;
        CHECK(perfbuf_v1_full_names_object(b, o, index, scratch, slots, names,
                                           o->instance_count, out, cap, &again) ==
              PERFBUF_E_OUTPUT_TOO_SMALL);
        CHECK(again >= written);
    }
    if (o->instance_count > 0) {
        size_t again = 0;
        CHECK(perfbuf_v1_full_names_object(b, o, index, scratch, slots, names,
                                           o->instance_count - 1u, out, needed, &again) ==
              PERFBUF_E_OUTPUT_TOO_SMALL);
        CHECK(again >= written);
    }
    /* Scratch shorter than the index: refused. */
    if (slots > 0) {
        CHECK(perfbuf_v1_full_names_object(b, o, index, scratch, slots - 1, names,
                                           o->instance_count, out, needed, &written) ==
              PERFBUF_E_INVALID_ARGUMENT);
    }
    free(out);
    free(names);
    free(scratch);
    *status = st;
}

static void whole_object_full_names(void)
{
    tb_v1 v = global_block();
    perfbuf_v1_block b;
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, NULL, &b, NULL) == PERFBUF_OK);
    perfbuf_v1_object process, thread, memory;
    CHECK(perfbuf_v1_find_object(&b, PROCESS, &process) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&b, THREAD, &thread) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&b, MEMORY, &memory) == PERFBUF_OK);
    uint64_t slots[16];
    perfbuf_v1_instance_index whole;
    CHECK(perfbuf_v1_block_index_build(&b, slots, b.index_slots, &whole) == PERFBUF_OK);
    size_t cut = 0;
    perfbuf_status st;
    full_names_agree(&b, &thread, &whole, &cut, &st);
    CHECK(st == PERFBUF_OK);
    full_names_agree(&b, &process, &whole, &cut, &st);
    CHECK(st == PERFBUF_OK);
    full_names_agree(&b, &memory, &whole, &cut, &st);
    CHECK(st == PERFBUF_OK);
    CHECK_EQ_U(cut, 0);
    /* The threads' texts, in one buffer. */
    perfbuf_v1_full_name names[4];
    char out[128];
    size_t len = 0;
    CHECK(perfbuf_v1_full_names_object(&b, &thread, &whole, NULL, 0, names, 4, out, sizeof out,
                                       &len) == PERFBUF_OK);
    size_t at = 0;
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst;
    perfbuf_v1_instances_begin(&thread, &it);
    while (perfbuf_v1_instances_next(&b, &it, &inst)) {
        CHECK_EQ_U(names[inst.index].offset, at);
        at += names[inst.index].length + 1;
    }
    CHECK_EQ_U(at, len);
    /* Objects without parents need no index; Thread needs the block form. */
    size_t needed = 0;
    CHECK(perfbuf_v1_full_names_object(&b, &process, NULL, NULL, 0, names, 4, out, sizeof out,
                                       &needed) == PERFBUF_OK);
    size_t offsets[4];
    perfbuf_v1_instance_index one;
    CHECK(perfbuf_v1_index_build(&b, &process, offsets, 4, &one) == PERFBUF_OK);
    CHECK(perfbuf_v1_full_names_object(&b, &thread, NULL, NULL, 0, names, 4, out, sizeof out,
                                       &needed) == PERFBUF_E_SCRATCH_NEEDED);
    CHECK(perfbuf_v1_full_names_object(&b, &thread, &one, NULL, 0, names, 4, out, sizeof out,
                                       &needed) == PERFBUF_E_SCRATCH_NEEDED);
    size_t scratch[16];
    CHECK(perfbuf_v1_full_names_object(&b, &thread, &one, scratch, 16, names, 4, out,
                                       sizeof out, &needed) == PERFBUF_E_INVALID_ARGUMENT);
    /* Another parse's index or object: INVALID_ARGUMENT. */
    tb_v1 copy = global_block();
    perfbuf_v1_block other;
    CHECK(perfbuf_v1_parse(copy.buf.data, copy.buf.len, NULL, &other, NULL) == PERFBUF_OK);
    uint64_t other_slots[16];
    perfbuf_v1_instance_index foreign;
    CHECK(perfbuf_v1_block_index_build(&other, other_slots, other.index_slots, &foreign) ==
          PERFBUF_OK);
    CHECK(perfbuf_v1_full_names_object(&b, &thread, &foreign, NULL, 0, names, 4, out,
                                       sizeof out, &needed) == PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_v1_object other_thread;
    CHECK(perfbuf_v1_find_object(&other, THREAD, &other_thread) == PERFBUF_OK);
    other_thread.offset += 8;
    CHECK(perfbuf_v1_full_names_object(&b, &other_thread, &whole, NULL, 0, names, 4, out,
                                       sizeof out, &needed) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_full_names_object(&b, &thread, &whole, NULL, 0, NULL, 4, out, sizeof out,
                                       &needed) == PERFBUF_E_INVALID_ARGUMENT);
    tb_free(&copy.buf);
    tb_free(&v.buf);
}

/* Parents past the cut, whole and mid-character, children alternating
 * among them, and a parent in a code page perfbuf does not convert (the
 * plain name, as the per-instance call). */
static void whole_object_full_names_cut(void)
{
    static const char *const chars[3] = {"a", "\xC3\xA9", "\xE2\x82\xAC"};
    char *parent = malloc(4 * 3100 + 16);
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, 700, 0, 0);
    tb_v1_counter(&v, 2, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    uint8_t data[4] = {0};
    /* 3,100 'a'; 'a' + 1,536 U+00E9 (cut inside the last); 1,030 U+20AC;
     * a short one. */
    size_t counts[4] = {3100, 1536, 1030, 3};
    for (int p = 0; p < 4; p++) {
        size_t len = 0;
        if (p == 1) {
            parent[len++] = 'a';
        }
        const char *c = chars[p < 3 ? p : 0];
        for (size_t k = 0; k < counts[p]; k++) {
            memcpy(parent + len, c, strlen(c));
            len += strlen(c);
        }
        parent[len] = '\0';
        tb_v1_instance(&v, parent, 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_object_begin(&v, 702, 0, 37);
    tb_v1_counter(&v, 2, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    tb_v1_instance(&v, "ebcdic", 0, 0);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_object_begin(&v, 704, 0, 0);
    tb_v1_counter(&v, 2, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    for (uint32_t i = 0; i < 13; i++) {
        char name[16];
        snprintf(name, sizeof name, "child%u", i);
        tb_v1_instance(&v, name, i == 12 ? 702 : 700, i == 11 ? 9 : i % 4);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    free(parent);
    perfbuf_v1_block b;
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, NULL, &b, NULL) == PERFBUF_OK);
    perfbuf_v1_object children;
    CHECK(perfbuf_v1_find_object(&b, 704, &children) == PERFBUF_OK);
    uint64_t *slots = malloc(sizeof *slots * b.index_slots);
    perfbuf_v1_instance_index whole;
    CHECK(perfbuf_v1_block_index_build(&b, slots, b.index_slots, &whole) == PERFBUF_OK);
    size_t cut = 0;
    perfbuf_status st;
    /* Child 11 names parent 9 of four: BAD_REFERENCE and its plain name. */
    full_names_agree(&b, &children, &whole, &cut, &st);
    CHECK(st == PERFBUF_E_BAD_REFERENCE);
    /* Children 0, 4, 8 (3,100 'a'), 1, 5, 9 and 2, 6, 10 are cut. */
    CHECK_EQ_U(cut, 9);
    free(slots);
    tb_free(&v.buf);
}

/*
 * Names that start, end or break an ASCII run at every place the
 * whole-object call's UTF-16 runs (8 units a step, then one) can meet:
 * ASCII names of every length from 0 to 40, a character that is not ASCII
 * (2-, 3- and 4-byte UTF-8) at each position from 0 to 17, and names
 * patched in place with a unit of 0x80, a lone surrogate or a NUL within
 * their span; the same texts in code page 1252 beside them. Every record
 * is compared with perfbuf_v1_full_name_utf8 (full_names_agree).
 */
static void whole_object_full_names_ascii_runs(void)
{
    static const char *const wide[3] = {"\xC3\xA9", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80"};
    static const char *const parents[3] = {"", "pppppppppppppppppppp", "Proze\xC3\x9F-\xC3\xA4-long-name"};
    uint8_t data[8] = {0};
    char name[64];
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, 710, 0, 0);
    tb_v1_counter(&v, 2, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    for (int p = 0; p < 3; p++) {
        tb_v1_instance(&v, parents[p], 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    for (int object = 0; object < 2; object++) {
        tb_v1_object_begin(&v, object == 0 ? 712 : 714, 0, object == 0 ? 0 : 1252);
        tb_v1_counter(&v, 2, PERF_COUNTER_RAWCOUNT, 4, 4);
        tb_v1_definitions_end(&v);
        uint32_t i = 0;
        for (size_t len = 0; len <= 40; len++, i++) {
            for (size_t k = 0; k < len; k++) {
                name[k] = (char)(k % 3 == 0 ? 'a' + k % 26 : k % 3 == 1 ? '0' + k % 10 : 0x7F);
            }
            name[len] = '\0';
            tb_v1_instance(&v, name, 710, i % 3);
            tb_v1_counter_block(&v, data, sizeof data);
        }
        for (size_t at = 0; at <= 17; at++) {
            for (int w = 0; w < (object == 0 ? 3 : 1); w++, i++) {
                memset(name, 'x', at);
                /* Code page 1252 takes the bytes as they are: 0xE9, one
                 * byte that is not ASCII. */
                size_t width = object == 0 ? strlen(wide[w]) : 1;
                memcpy(name + at, object == 0 ? wide[w] : "\xE9", width);
                memcpy(name + at + width, "-tail-of-the-name", 18);
                tb_v1_instance(&v, name, 710, i % 3);
                tb_v1_counter_block(&v, data, sizeof data);
            }
        }
        tb_v1_object_end(&v);
    }
    tb_v1_end(&v);
    /* The UTF-16 children 0 to 40 are the ASCII lengths; patched here:
     * child 20 gets 0x0080 at unit 8, child 21 a lone high surrogate at
     * unit 9, child 22 a lone low one at 0, child 40 a NUL at unit 10
     * (its full name stops there), child 30 a NUL at unit 0. */
    perfbuf_v1_block b;
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, NULL, &b, NULL) == PERFBUF_OK);
    perfbuf_v1_object children;
    CHECK(perfbuf_v1_find_object(&b, 712, &children) == PERFBUF_OK);
    static const struct {
        uint32_t child;
        size_t unit;
        uint16_t value;
    } patches[] = {{20, 8, 0x0080}, {21, 9, 0xD800}, {22, 0, 0xDC00}, {40, 10, 0}, {30, 0, 0}};
    for (size_t k = 0; k < sizeof patches / sizeof patches[0]; k++) {
        perfbuf_v1_iter it;
        perfbuf_v1_instance inst;
        perfbuf_v1_instances_begin(&children, &it);
        while (perfbuf_v1_instances_next(&b, &it, &inst) && inst.index != patches[k].child) {
        }
        CHECK_EQ_U(inst.index, patches[k].child);
        v.buf.data[inst.name_offset + 2 * patches[k].unit] = (uint8_t)patches[k].value;
        v.buf.data[inst.name_offset + 2 * patches[k].unit + 1] = (uint8_t)(patches[k].value >> 8);
    }
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, NULL, &b, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&b, 712, &children) == PERFBUF_OK);
    perfbuf_v1_object cp1252;
    CHECK(perfbuf_v1_find_object(&b, 714, &cp1252) == PERFBUF_OK);
    uint64_t *slots = malloc(sizeof *slots * b.index_slots);
    perfbuf_v1_instance_index whole;
    CHECK(perfbuf_v1_block_index_build(&b, slots, b.index_slots, &whole) == PERFBUF_OK);
    size_t cut = 0;
    perfbuf_status st;
    full_names_agree(&b, &children, &whole, &cut, &st);
    CHECK(st == PERFBUF_OK);
    full_names_agree(&b, &cp1252, &whole, &cut, &st);
    CHECK(st == PERFBUF_OK);
    CHECK_EQ_U(cut, 0);
    /* Two records spelled out: child 40 (parent 1) stops at its NUL, child
     * 22 starts with U+FFFD. */
    size_t needed = 0;
    CHECK(perfbuf_v1_full_names_object(&b, &children, &whole, NULL, 0, NULL, 0, NULL, 0,
                                       &needed) == PERFBUF_E_OUTPUT_TOO_SMALL);
    perfbuf_v1_full_name *names = malloc(sizeof *names * children.instance_count);
    char *out = malloc(needed);
    size_t written = 0;
    CHECK(perfbuf_v1_full_names_object(&b, &children, &whole, NULL, 0, names,
                                       children.instance_count, out, needed,
                                       &written) == PERFBUF_OK);
    static const char stopped[] = "pppppppppppppppppppp/a1\x7F" "d4\x7F" "g7\x7F" "j";
    static const char replaced[] = "pppppppppppppppppppp/\xEF\xBF\xBD" "1\x7F";
    CHECK(strcmp(out + names[40].offset, stopped) == 0);
    CHECK(strncmp(out + names[22].offset, replaced, sizeof replaced - 1) == 0);
    free(out);
    free(names);
    free(slots);
    tb_free(&v.buf);
}

static void bad_parent_references(void)
{
    tb_v1 v = global_block();
    /* Thread 0 names process instance 3 (out of range), thread 1 names the
     * Thread object itself at its own position, thread 2 a missing object. */
    tb_patch_u32(&v.buf, INST_THREAD_0 + 8, 3);
    tb_patch_u32(&v.buf, INST_THREAD_0 + 48 + 4, THREAD);
    tb_patch_u32(&v.buf, INST_THREAD_0 + 48 + 8, 1);
    tb_patch_u32(&v.buf, INST_THREAD_0 + 96 + 4, 4242);
    perfbuf_v1_block b;
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, NULL, &b, NULL) == PERFBUF_OK);
    perfbuf_v1_object thread;
    CHECK(perfbuf_v1_find_object(&b, THREAD, &thread) == PERFBUF_OK);
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst;
    perfbuf_v1_instance parent;
    perfbuf_error err;
    perfbuf_v1_instances_begin(&thread, &it);
    CHECK(perfbuf_v1_instances_next(&b, &it, &inst));
    CHECK(perfbuf_v1_parent(&b, &thread, &inst, NULL, &parent, &err) == PERFBUF_E_BAD_REFERENCE);
    CHECK_STR(err.field, "ParentObjectInstance");
    CHECK_EQ_U(err.offset, INST_THREAD_0 + 8);
    char name[64];
    size_t len;
    CHECK(perfbuf_v1_full_name_utf8(&b, &thread, &inst, NULL, name, sizeof name, &len) ==
          PERFBUF_E_BAD_REFERENCE);
    CHECK_STR(name, "0");
    CHECK(perfbuf_v1_instances_next(&b, &it, &inst));
    CHECK(perfbuf_v1_parent(&b, &thread, &inst, NULL, &parent, &err) == PERFBUF_E_BAD_REFERENCE);
    CHECK(perfbuf_v1_instances_next(&b, &it, &inst));
    CHECK(perfbuf_v1_parent(&b, &thread, &inst, NULL, &parent, &err) == PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_v1_full_name_utf8(&b, &thread, &inst, NULL, name, sizeof name, &len) == PERFBUF_OK);
    CHECK_STR(name, "1");
    tb_free(&v.buf);
}

static void find_by_name(void)
{
    tb_v1 v = global_block();
    perfbuf_v1_block b;
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, NULL, &b, NULL) == PERFBUF_OK);
    perfbuf_v1_object process;
    perfbuf_v1_object thread;
    CHECK(perfbuf_v1_find_object(&b, PROCESS, &process) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&b, THREAD, &thread) == PERFBUF_OK);
    perfbuf_v1_instance inst;
    CHECK(perfbuf_v1_find_instance(&b, &process, "svchost", 7, NULL, &inst) == PERFBUF_OK);
    CHECK_EQ_U(inst.index, 1);
    CHECK(perfbuf_v1_find_instance(&b, &process, "SVCHOST#1", 9, NULL, &inst) == PERFBUF_OK);
    CHECK_EQ_U(inst.index, 2);
    CHECK(perfbuf_v1_find_instance(&b, &process, "svchost#2", 9, NULL, &inst) == PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_v1_find_instance(&b, &process, "idle", 4, NULL, &inst) == PERFBUF_OK);
    CHECK_EQ_U(inst.index, 0);
    CHECK(perfbuf_v1_find_instance(&b, &process, "Idl", 3, NULL, &inst) == PERFBUF_E_NOT_FOUND);
    /* Parents need an index: without one each candidate would walk the block. */
    CHECK(perfbuf_v1_find_instance(&b, &thread, "svchost/0", 9, NULL, &inst) ==
          PERFBUF_E_SCRATCH_NEEDED);
    uint64_t slots[16];
    perfbuf_v1_instance_index whole;
    CHECK(b.index_slots <= 16);
    CHECK(perfbuf_v1_block_index_build(&b, slots, b.index_slots - 1, &whole) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(perfbuf_v1_block_index_build(&b, slots, b.index_slots, &whole) == PERFBUF_OK);
    /* Without its name classes the block index would compare the parent
     * part once per candidate. */
    CHECK(perfbuf_v1_find_instance(&b, &thread, "svchost/0", 9, &whole, &inst) ==
          PERFBUF_E_SCRATCH_NEEDED);
    uint64_t classes[16];
    CHECK(perfbuf_v1_block_index_classes(&b, &whole, classes, b.index_slots - 1) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(whole.name_classes == NULL);
    CHECK(perfbuf_v1_block_index_classes(&b, &whole, classes, b.index_slots) == PERFBUF_OK);
    CHECK(whole.name_classes == classes);
    CHECK(perfbuf_v1_find_instance(&b, &thread, "svchost/0", 9, &whole, &inst) == PERFBUF_OK);
    CHECK_EQ_U(inst.index, 1);
    CHECK(perfbuf_v1_find_instance(&b, &thread, "svchost/0#1", 11, &whole, &inst) == PERFBUF_OK);
    CHECK_EQ_U(inst.index, 3);
    CHECK(perfbuf_v1_find_instance(&b, &thread, "Idle/1", 6, &whole, &inst) == PERFBUF_E_NOT_FOUND);
    size_t offsets[3];
    perfbuf_v1_instance_index index;
    CHECK(perfbuf_v1_index_build(&b, &process, offsets, 3, &index) == PERFBUF_OK);
    /* Name classes are the block form's. */
    CHECK(perfbuf_v1_block_index_classes(&b, &index, classes, 16) == PERFBUF_E_INVALID_ARGUMENT);
    /* The one-object form cannot name a parent without scanning it. */
    CHECK(perfbuf_v1_find_instance(&b, &thread, "svchost/1", 9, &index, &inst) ==
          PERFBUF_E_SCRATCH_NEEDED);
    CHECK(perfbuf_v1_find_instance(&b, &thread, "svchost/1", 9, &whole, &inst) == PERFBUF_OK);
    CHECK_EQ_U(inst.index, 2);
    CHECK(perfbuf_v1_find_instance(&b, &thread, "0#2", 3, &index, &inst) == PERFBUF_OK);
    CHECK_EQ_U(inst.index, 3);
    tb_free(&v.buf);
}

static void code_page_names(void)
{
    tb_v1 v;
    tb_v1_begin(&v, "");
    tb_v1_object_begin(&v, 500, 0, 1252);
    tb_v1_counter(&v, 2, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    uint8_t data[4] = {1, 0, 0, 0};
    tb_v1_instance(&v, "Caf\xE9", 0, 0);
    tb_v1_counter_block(&v, data, 4);
    tb_v1_object_end(&v);
    tb_v1_object_begin(&v, 502, 0, 932);
    tb_v1_counter(&v, 2, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    tb_v1_instance(&v, "\x83\x65", 0, 0);
    tb_v1_counter_block(&v, data, 4);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    walk w = parse_and_walk(v.buf.data, v.buf.len, PERFBUF_STRICT);
    CHECK(w.status == PERFBUF_OK);
    CHECK_STR(w.system_name, "");
    perfbuf_v1_block b;
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, NULL, &b, NULL) == PERFBUF_OK);
    perfbuf_v1_object o;
    CHECK(perfbuf_v1_find_object(&b, 500, &o) == PERFBUF_OK);
    perfbuf_v1_iter it;
    perfbuf_v1_instance inst;
    perfbuf_v1_instances_begin(&o, &it);
    CHECK(perfbuf_v1_instances_next(&b, &it, &inst));
    char name[32];
    size_t len;
    CHECK(perfbuf_v1_instance_name_utf8(&b, &inst, name, sizeof name, &len) == PERFBUF_OK);
    CHECK_STR(name, "Caf\xC3\xA9");
    CHECK(perfbuf_v1_find_instance(&b, &o, "CAF\xC3\xA9", 5, NULL, &inst) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&b, 502, &o) == PERFBUF_OK);
    perfbuf_v1_instances_begin(&o, &it);
    CHECK(perfbuf_v1_instances_next(&b, &it, &inst));
    CHECK(perfbuf_v1_instance_name_utf8(&b, &inst, name, sizeof name, &len) == PERFBUF_E_UNKNOWN_VALUE);
    CHECK_EQ_U(inst.name_bytes, 2);
    const uint8_t *raw = perfbuf_v1_instance_name_bytes(&b, &inst);
    CHECK(raw != NULL && raw[0] == 0x83 && raw[1] == 0x65);
    tb_free(&v.buf);
}

static void metadata_only_objects(void)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, 238, 0, 0);
    tb_v1_counter(&v, 6, PERF_100NSEC_TIMER_INV, 8, 8);
    tb_v1_definitions_end(&v);
    tb_v1_object_end(&v);
    tb_patch_u32(&v.buf, v.object_start + 40, (uint32_t)PERFBUF_V1_METADATA_MULTIPLE_INSTANCES);
    tb_v1_end(&v);
    walk w = parse_and_walk(v.buf.data, v.buf.len, PERFBUF_STRICT);
    CHECK(w.status == PERFBUF_OK);
    CHECK_EQ_U(w.instances, 0);
    CHECK_STR(w.system_name, "HOST");
    tb_patch_u32(&v.buf, v.object_start + 40, (uint32_t)-4);
    w = parse_and_walk(v.buf.data, v.buf.len, 0);
    CHECK(w.status == PERFBUF_E_UNKNOWN_VALUE);
    CHECK_STR(w.err.field, "NumInstances");
    tb_free(&v.buf);
}

/*
 * A last definition whose ByteLength stops 1-7 bytes short of
 * DefinitionLength: no source describes padding there, so the gap is the
 * ByteLength's fault, named in strict mode and an anomaly when lenient.
 */
static void short_last_definition_is_named(void)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, 238, 0, 0);
    size_t definition_at = v.buf.len;
    tb_v1_counter(&v, 6, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_u32(&v.buf, 0);
    tb_u32(&v.buf, 0);
    tb_patch_u32(&v.buf, definition_at, 48);
    tb_v1_definitions_end(&v);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    walk w = parse_and_walk(v.buf.data, v.buf.len, PERFBUF_STRICT);
    CHECK(w.status == PERFBUF_OK);
    tb_patch_u32(&v.buf, definition_at, 44);
    w = parse_and_walk(v.buf.data, v.buf.len, PERFBUF_STRICT);
    CHECK(w.status == PERFBUF_E_INCONSISTENT);
    CHECK_STR(w.err.structure, "PERF_COUNTER_DEFINITION");
    CHECK_STR(w.err.field, "ByteLength");
    CHECK_EQ_U(w.err.offset, definition_at);
    w = parse_and_walk(v.buf.data, v.buf.len, 0);
    CHECK(w.status == PERFBUF_OK);
    CHECK(w.b.anomalies & PERFBUF_ANOMALY_SIZE_MISMATCH);
    CHECK_EQ_U(w.b.first_anomaly.offset, definition_at);
    tb_free(&v.buf);
}

/*
 * Counters may share data, as the PERF_COUNTER_DEFINITION page allows
 * ("multiple counters can use the same raw data and point to the same
 * offset in the PERF_COUNTER_BLOCK block"); what is bounded is the bytes
 * all definitions claim: at most twice the furthest claimed end.
 */

/* The PhysicalDisk layout: 22 eight-byte fields from offset 8 of a
 * 184-byte counter block; four precision timers (200, 202, 204, 1482) each
 * followed by its PERF_PRECISION_TIMESTAMP base, all four bases at the one
 * timestamp field at 168. The definitions claim 200 bytes of 184. */
enum { DISK_BLOCK = 184, DISK_STAMP = 168, DISK_OBJECT = 234 };
static const uint32_t disk_timers[4] = {200, 202, 204, 1482};

static tb_v1 physical_disk_block(const char *const *names, size_t n_names, uint64_t stamp)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, DISK_OBJECT, 0, 0);
    uint32_t title = 1400;
    for (uint32_t field = 8; field < DISK_BLOCK; field += 8) {
        if (field == DISK_STAMP) {
            continue;
        }
        if (field <= 32) {
            tb_v1_counter(&v, disk_timers[field / 8 - 1], PERF_PRECISION_100NS_TIMER, 8, field);
            tb_v1_counter(&v, disk_timers[field / 8 - 1] + 1, PERF_PRECISION_TIMESTAMP, 8,
                          DISK_STAMP);
        } else {
            tb_v1_counter(&v, title, PERF_COUNTER_LARGE_RAWCOUNT, 8, field);
            title += 2;
        }
    }
    tb_v1_definitions_end(&v);
    for (size_t i = 0; i < n_names; i++) {
        uint8_t data[DISK_BLOCK - 4] = {0};
        for (uint32_t field = 8; field < DISK_BLOCK; field += 8) {
            tb_put64(data, field, field == DISK_STAMP ? stamp : 1000u * (i + 1) + field);
        }
        tb_v1_instance(&v, names[i], 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v;
}

static void shared_timestamp_bases_are_read(void)
{
    static const char *const names[] = {"0 C:", "_Total"};
    const uint64_t stamp = 0x01DA2B3C4D5E6F70u;
    tb_v1 v = physical_disk_block(names, 2, stamp);
    perfbuf_options strict = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_v1_block b;
    perfbuf_error err;
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, &strict, &b, &err) == PERFBUF_OK);
    CHECK_EQ_U(b.anomalies, 0);
    perfbuf_v1_object o;
    CHECK(perfbuf_v1_find_object(&b, DISK_OBJECT, &o) == PERFBUF_OK);
    CHECK_EQ_U(o.counter_count, 25);
    perfbuf_v1_iter ii;
    perfbuf_v1_instance inst;
    uint32_t instances = 0;
    uint32_t bases_read = 0;
    perfbuf_v1_instances_begin(&o, &ii);
    while (perfbuf_v1_instances_next(&b, &ii, &inst)) {
        CHECK_EQ_U(inst.counters.byte_length, DISK_BLOCK);
        perfbuf_v1_iter ci;
        perfbuf_v1_counter c;
        perfbuf_v1_counters_begin(&o, &ci);
        while (perfbuf_v1_counters_next(&b, &ci, &c)) {
            uint64_t value = perfbuf_v1_counter_value(&b, &inst.counters, &c);
            if (c.type == PERF_PRECISION_TIMESTAMP) {
                CHECK_EQ_U(c.counter_offset, DISK_STAMP);
                CHECK(value == stamp);
                bases_read++;
                continue;
            }
            CHECK_EQ_U(value, 1000u * (instances + 1) + c.counter_offset);
            if (c.type == PERF_PRECISION_100NS_TIMER) {
                /* The timer's sample takes the shared timestamp as its base. */
                perfbuf_raw_sample s;
                perfbuf_value_context ctx;
                CHECK(perfbuf_v1_raw_sample(&b, &o, &c, &inst.counters, &s, &ctx) == PERFBUF_OK);
                CHECK_EQ_U(s.first, value);
                CHECK(s.second == stamp);
            }
        }
        instances++;
    }
    CHECK_EQ_U(instances, 2);
    CHECK_EQ_U(bases_read, 8);
    tb_free(&v.buf);
}

/* Two counters of one range read the same value; a partial overlap (an
 * 8-byte counter and a 4-byte one inside its upper half) is accepted too,
 * each reading its own bytes: the page restricts neither. */
static void identical_and_partial_sharing_are_accepted(void)
{
    for (int partial = 0; partial < 2; partial++) {
        tb_v1 v;
        tb_v1_begin(&v, "HOST");
        tb_v1_object_begin(&v, 238, 0, 0);
        tb_v1_counter(&v, 2, PERF_COUNTER_LARGE_RAWCOUNT, 8, 8);
        if (partial) {
            tb_v1_counter(&v, 4, PERF_COUNTER_RAWCOUNT, 4, 12);
        } else {
            tb_v1_counter(&v, 4, PERF_COUNTER_LARGE_RAWCOUNT, 8, 8);
        }
        tb_v1_definitions_end(&v);
        uint8_t data[12] = {0};
        tb_put64(data, 8, 0x1122334455667788u);
        tb_v1_instance(&v, "0", 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
        tb_v1_object_end(&v);
        tb_v1_end(&v);
        walk w = parse_and_walk(v.buf.data, v.buf.len, PERFBUF_STRICT);
        CHECK(w.status == PERFBUF_OK);
        CHECK(w.views_inside);
        uint64_t want = 0x1122334455667788u + (partial ? 0x11223344u : 0x1122334455667788u);
        CHECK(w.value_sum == want);
        tb_free(&v.buf);
    }
}

/*
 * Past the budget: an object whose definitions claim more than twice the
 * furthest claimed end is refused in both modes, naming the CounterOffset
 * of the first definition whose claim goes over. The furthest end is known
 * only after the last definition, so sharing that comes first and a far
 * counter that comes last are judged together.
 */
static void claims_past_twice_the_block_are_refused(void)
{
    /* `shared` 8-byte counters at offset 8, then one at `last_offset`. */
    struct {
        uint32_t shared;
        uint32_t last_offset;
        int refused_at; /* the index of the definition named, or -1 */
    } cases[] = {
        {4, 0, -1},  /* 32 claimed of 16: exactly twice */
        {5, 0, 4},   /* 40 of 16 */
        {7, 24, -1}, /* 64 of 32, the far counter last */
        {8, 24, 8},  /* 72 of 32: the last definition goes over */
        {9, 24, 8},  /* 80 of 32: found at the 9th, not the far one */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tb_v1 v;
        tb_v1_begin(&v, "HOST");
        tb_v1_object_begin(&v, 238, 0, 0);
        size_t def_at[10];
        uint32_t n = 0;
        for (; n < cases[k].shared; n++) {
            def_at[n] = v.buf.len;
            tb_v1_counter(&v, 2 + 2 * n, PERF_COUNTER_LARGE_RAWCOUNT, 8, 8);
        }
        if (cases[k].last_offset != 0) {
            def_at[n] = v.buf.len;
            tb_v1_counter(&v, 2 + 2 * n, PERF_COUNTER_LARGE_RAWCOUNT, 8, cases[k].last_offset);
        }
        tb_v1_definitions_end(&v);
        uint8_t data[28] = {0};
        uint32_t data_bytes = cases[k].last_offset != 0 ? cases[k].last_offset + 4 : 12;
        tb_v1_instance(&v, "0", 0, 0);
        tb_v1_counter_block(&v, data, data_bytes);
        tb_v1_object_end(&v);
        tb_v1_end(&v);
        for (int strict = 0; strict < 2; strict++) {
            walk w = parse_and_walk(v.buf.data, v.buf.len, strict ? PERFBUF_STRICT : 0);
            if (cases[k].refused_at < 0) {
                CHECK(w.status == PERFBUF_OK);
                continue;
            }
            CHECK(w.status == PERFBUF_E_OVERLAP);
            CHECK_STR(w.err.structure, "PERF_COUNTER_DEFINITION");
            CHECK_STR(w.err.field, "CounterOffset");
            CHECK_EQ_U(w.err.offset, def_at[cases[k].refused_at] + 36);
        }
        tb_free(&v.buf);
    }
}

/* Counters of size 0 claim one byte each: any number of them costs. Inside
 * the block's 4-byte ByteLength, where they may sit, the budget is those 4
 * bytes whatever their offset (0 here, claiming only byte 0). */
static void size_zero_counters_count_against_the_budget(void)
{
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t n = 8 + k % 2;
        uint32_t offset = k < 2 ? 3 : 0;
        tb_v1 v;
        tb_v1_begin(&v, "HOST");
        tb_v1_object_begin(&v, 238, 0, 0);
        for (uint32_t i = 0; i < n; i++) {
            tb_v1_counter(&v, 2 + 2 * i, PERF_COUNTER_NODATA, 0, offset);
        }
        tb_v1_definitions_end(&v);
        tb_v1_instance(&v, "0", 0, 0);
        tb_v1_counter_block(&v, NULL, 0);
        tb_v1_object_end(&v);
        tb_v1_end(&v);
        /* The end is 4 either way, so 8 claims are twice it. */
        walk w = parse_and_walk(v.buf.data, v.buf.len, PERFBUF_STRICT);
        CHECK(w.status == (n == 8 ? PERFBUF_OK : PERFBUF_E_OVERLAP));
        tb_free(&v.buf);
    }
}

static void wine_captures(void)
{
    /* corpus/captures/wine-8.0/v1-global.bin (v1-object-238.bin has the same shape) */
    static const uint8_t global[96] = {
        0x50, 0x00, 0x45, 0x00, 0x52, 0x00, 0x46, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0xea, 0x07, 0x0b, 0x00, 0x00, 0x00, 0x16, 0x00, 0x09, 0x00, 0x36, 0x00,
        0x10, 0x00, 0x70, 0x00, 0x00, 0x00, 0x00, 0x00, 0xb2, 0x38, 0x02, 0xe8, 0x05, 0x00, 0x00, 0x00,
        0x80, 0x96, 0x98, 0x00, 0x00, 0x00, 0x00, 0x00, 0x5f, 0xb1, 0x74, 0x6f, 0x67, 0x7a, 0xdd, 0x01,
        0x06, 0x00, 0x00, 0x00, 0x58, 0x00, 0x00, 0x00, 0x56, 0x00, 0x4d, 0x00, 0x00, 0x00, 0x00, 0x00};
    walk w = parse_and_walk(global, sizeof global, PERFBUF_STRICT);
    CHECK(w.status == PERFBUF_OK);
    CHECK_EQ_U(w.b.size, 96);
    CHECK_EQ_U(w.b.header_length, 96);
    CHECK_EQ_U(w.b.object_count, 0);
    CHECK_EQ_U(w.b.version, 1);
    CHECK_EQ_U(w.b.revision, 1);
    CHECK_EQ_U(w.b.perf_freq, 10000000);
    CHECK_STR(w.system_name, "VM");
    CHECK_EQ_U(w.b.system_name_offset, 88);
}

/* Raw samples from two captures, then formatted values. */
static void values_from_two_samples(void)
{
    tb_v1 older = global_block();
    tb_v1 newer = global_block();
    /* One second later: Idle's % Processor Time moved 0.25 s, Memory's
     * precision timer 300 of 1200 base units. */
    tb_patch_u32(&newer.buf, 72, tb_get_u32(&newer.buf, 72) + 10000000u);
    tb_patch_u32(&newer.buf, BLOCK_PROCESS_0 + 8, 1000000u + 2500000u);
    tb_patch_u32(&newer.buf, BLOCK_MEMORY + 16, 4300);
    tb_patch_u32(&newer.buf, BLOCK_MEMORY + 24, 11200);
    perfbuf_v1_block b0;
    perfbuf_v1_block b1;
    CHECK(perfbuf_v1_parse(older.buf.data, older.buf.len, NULL, &b0, NULL) == PERFBUF_OK);
    CHECK(perfbuf_v1_parse(newer.buf.data, newer.buf.len, NULL, &b1, NULL) == PERFBUF_OK);

    perfbuf_v1_object o0;
    perfbuf_v1_object o1;
    perfbuf_v1_instance i0;
    perfbuf_v1_instance i1;
    perfbuf_v1_counter c;
    perfbuf_v1_iter it;
    perfbuf_raw_sample s0;
    perfbuf_raw_sample s1;
    perfbuf_value_context ctx;
    perfbuf_value v;
    CHECK(perfbuf_v1_find_object(&b0, PROCESS, &o0) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&b1, PROCESS, &o1) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_instance(&b0, &o0, "Idle", 4, NULL, &i0) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_instance(&b1, &o1, "Idle", 4, NULL, &i1) == PERFBUF_OK);
    perfbuf_v1_counters_begin(&o0, &it);
    CHECK(perfbuf_v1_counters_next(&b0, &it, &c));
    CHECK(perfbuf_v1_raw_sample(&b0, &o0, &c, &i0.counters, &s0, &ctx) == PERFBUF_OK);
    CHECK(perfbuf_v1_raw_sample(&b1, &o1, &c, &i1.counters, &s1, &ctx) == PERFBUF_OK);
    CHECK_EQ_U(ctx.frequency, 10000000);
    CHECK_EQ_U(s1.second - s0.second, 10000000);
    CHECK_EQ_U(perfbuf_format_value(c.type, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, &v), PERFBUF_CSTATUS_VALID_DATA);
    CHECK(v.as_double > 24.999999 && v.as_double < 25.000001);

    CHECK(perfbuf_v1_find_object(&b0, MEMORY, &o0) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_object(&b1, MEMORY, &o1) == PERFBUF_OK);
    perfbuf_v1_counter_block k0;
    perfbuf_v1_counter_block k1;
    CHECK(perfbuf_v1_object_counter_block(&b0, &o0, &k0));
    CHECK(perfbuf_v1_object_counter_block(&b1, &o1, &k1));
    perfbuf_v1_counters_begin(&o0, &it);
    CHECK(perfbuf_v1_counters_next(&b0, &it, &c));
    CHECK(perfbuf_v1_counters_next(&b0, &it, &c));
    CHECK_EQ_U(c.type, PERF_PRECISION_100NS_TIMER);
    CHECK(perfbuf_v1_raw_sample(&b0, &o0, &c, &k0, &s0, &ctx) == PERFBUF_OK);
    CHECK(perfbuf_v1_raw_sample(&b1, &o1, &c, &k1, &s1, &ctx) == PERFBUF_OK);
    CHECK_EQ_U(s0.second, 10000);
    CHECK_EQ_U(perfbuf_format_value(c.type, &s1, &s0, &ctx, PERFBUF_FMT_LONG, &v), PERFBUF_CSTATUS_VALID_DATA);
    CHECK_EQ_U(v.as_long, 25);
    /* The timestamp itself is a base: no value of its own. */
    CHECK(perfbuf_v1_counters_next(&b0, &it, &c));
    CHECK(perfbuf_v1_raw_sample(&b0, &o0, &c, &k0, &s0, &ctx) == PERFBUF_E_INVALID_ARGUMENT);

    CHECK(perfbuf_v1_find_object(&b1, THREAD, &o1) == PERFBUF_OK);
    perfbuf_v1_instances_begin(&o1, &it);
    CHECK(perfbuf_v1_instances_next(&b1, &it, &i1));
    perfbuf_v1_counters_begin(&o1, &it);
    CHECK(perfbuf_v1_counters_next(&b1, &it, &c));
    CHECK(perfbuf_v1_counters_next(&b1, &it, &c));
    CHECK_EQ_U(c.type, PERF_RAW_FRACTION);
    CHECK(perfbuf_v1_raw_sample(&b1, &o1, &c, &i1.counters, &s1, &ctx) == PERFBUF_OK);
    CHECK_EQ_U(perfbuf_format_value(c.type, &s1, NULL, &ctx, PERFBUF_FMT_LARGE, &v), PERFBUF_CSTATUS_VALID_DATA);
    CHECK_EQ_U(v.as_large, 25);
    tb_free(&older.buf);
    tb_free(&newer.buf);
}

/*
 * A DWORD type over a 64-bit field, as Windows' disk provider writes its
 * average timers: PERF_AVERAGE_TIMER (size bits PERF_SIZE_DWORD) with
 * CounterSize 8, its PERF_AVERAGE_BASE after it, and a DWORD raw count
 * widened the same way. Accepted in strict mode without an anomaly, and
 * every value is the whole field: the timer crosses 2^32 between the two
 * captures, so a 32-bit read would see it run backwards.
 */
enum { WIDE_TIMER = 8, WIDE_BASE = 16, WIDE_COUNT = 24, WIDE_BLOCK = 32 };
static const uint64_t wide_timer[2] = {(UINT64_C(1) << 32) - 1000000u,
                                       (UINT64_C(1) << 32) + 2000000u};
static const uint32_t wide_base[2] = {5000u, 5150u};
static const uint64_t wide_count = (UINT64_C(1) << 32) + 7u;

static tb_v1 widened_dword_block(unsigned k)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, DISK_OBJECT, 0, 0);
    tb_v1_counter(&v, 206, PERF_AVERAGE_TIMER, 8, WIDE_TIMER); /* Avg. Disk sec/Transfer */
    tb_v1_counter(&v, 0, PERF_AVERAGE_BASE, 4, WIDE_BASE);
    tb_v1_counter(&v, 198, PERF_COUNTER_RAWCOUNT, 8, WIDE_COUNT);
    tb_v1_definitions_end(&v);
    uint8_t data[WIDE_BLOCK - 4] = {0};
    tb_put64(data, WIDE_TIMER, wide_timer[k]);
    tb_put32(data, WIDE_BASE, wide_base[k]);
    tb_put64(data, WIDE_COUNT, wide_count);
    tb_v1_instance(&v, "0 C:", 0, 0);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v;
}

static void dword_type_widened_to_8_bytes_is_read_whole(void)
{
    tb_v1 v[2] = {widened_dword_block(0), widened_dword_block(1)};
    perfbuf_options strict = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_v1_block b[2];
    perfbuf_v1_object o[2];
    perfbuf_v1_instance inst[2];
    perfbuf_v1_plan_entry entries[2][3];
    perfbuf_v1_plan plan[2];
    perfbuf_raw_sample s[2];
    perfbuf_value_context ctx;
    for (unsigned k = 0; k < 2; k++) {
        perfbuf_error err;
        CHECK(perfbuf_v1_parse(v[k].buf.data, v[k].buf.len, &strict, &b[k], &err) == PERFBUF_OK);
        CHECK_EQ_U(b[k].anomalies, 0);
        walk lenient = parse_and_walk(v[k].buf.data, v[k].buf.len, 0);
        CHECK(lenient.status == PERFBUF_OK);
        CHECK_EQ_U(lenient.b.anomalies, 0);
        CHECK(perfbuf_v1_find_object(&b[k], DISK_OBJECT, &o[k]) == PERFBUF_OK);
        CHECK(perfbuf_v1_find_instance(&b[k], &o[k], "0 C:", 4, NULL, &inst[k]) == PERFBUF_OK);
        perfbuf_v1_iter it;
        perfbuf_v1_counter timer;
        perfbuf_v1_counter base;
        perfbuf_v1_counter count;
        perfbuf_v1_counters_begin(&o[k], &it);
        CHECK(perfbuf_v1_counters_next(&b[k], &it, &timer));
        CHECK(perfbuf_v1_counters_next(&b[k], &it, &base));
        CHECK(perfbuf_v1_counters_next(&b[k], &it, &count));
        CHECK_EQ_U(timer.type, PERF_AVERAGE_TIMER);
        CHECK_EQ_U(perfbuf_counter_type_size(timer.type), 4);
        CHECK_EQ_U(timer.size, 8);
        CHECK(perfbuf_v1_counter_value(&b[k], &inst[k].counters, &timer) == wide_timer[k]);
        CHECK(perfbuf_v1_counter_value(&b[k], &inst[k].counters, &count) == wide_count);
        CHECK(perfbuf_v1_raw_sample(&b[k], &o[k], &timer, &inst[k].counters, &s[k], &ctx) ==
              PERFBUF_OK);
        CHECK(s[k].first == wide_timer[k]);
        CHECK_EQ_U(s[k].second, wide_base[k]);
        CHECK_EQ_U(ctx.frequency, 10000000u);
        CHECK(perfbuf_v1_plan_build(&b[k], &o[k], entries[k], 3, &plan[k]) == PERFBUF_OK);
        uint64_t values[3];
        CHECK(perfbuf_v1_plan_read(&plan[k], &b[k], &inst[k].counters, values, 3) == PERFBUF_OK);
        CHECK(values[0] == wide_timer[k]);
        CHECK_EQ_U(values[1], wide_base[k]);
        CHECK(values[2] == wide_count);
        perfbuf_raw_sample planned;
        CHECK(perfbuf_v1_plan_sample(&plan[k], &b[k], &inst[k].counters, 0, &planned, &ctx) ==
              PERFBUF_OK);
        CHECK(planned.first == wide_timer[k] && planned.second == wide_base[k]);
    }
    /* (3,000,000 ticks / 10,000,000 per second) / 150 transfers: 2 ms. */
    perfbuf_value value;
    CHECK_EQ_U(perfbuf_format_value(PERF_AVERAGE_TIMER, &s[1], &s[0], &ctx, PERFBUF_FMT_DOUBLE,
                                    &value),
               PERFBUF_CSTATUS_VALID_DATA);
    CHECK(value.as_double > 0.001999999 && value.as_double < 0.002000001);
    CHECK(perfbuf_v1_plan_format(&plan[1], &b[1], &inst[1].counters, &plan[0], &b[0],
                                 &inst[0].counters, 0, PERFBUF_FMT_DOUBLE, &value) == PERFBUF_OK);
    CHECK_EQ_U(value.status, PERFBUF_CSTATUS_VALID_DATA);
    CHECK(value.as_double > 0.001999999 && value.as_double < 0.002000001);
    CHECK(perfbuf_v1_plan_format(&plan[1], &b[1], &inst[1].counters, &plan[0], &b[0],
                                 &inst[0].counters, 2, PERFBUF_FMT_LARGE, &value) == PERFBUF_OK);
    CHECK_EQ_U(value.status, PERFBUF_CSTATUS_VALID_DATA);
    CHECK(value.as_large == (int64_t)wide_count);
    tb_free(&v[0].buf);
    tb_free(&v[1].buf);
}

/* Only a DWORD type may be widened, and only to 8: a LARGE type with
 * CounterSize 4 (half its value), a DWORD type with 2 or 16 and a ZERO
 * type with bytes stay anomaly SIZE_MISMATCH, naming CounterSize. */
static void other_size_mismatches_stay_anomalies(void)
{
    static const struct {
        uint32_t type;
        uint32_t size;
    } cases[] = {
        {PERF_COUNTER_LARGE_RAWCOUNT, 4},
        {PERF_100NSEC_TIMER, 4},
        {PERF_COUNTER_RAWCOUNT, 2},
        {PERF_COUNTER_RAWCOUNT, 16},
        {PERF_COUNTER_NODATA, 4},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tb_v1 v;
        tb_v1_begin(&v, "HOST");
        tb_v1_object_begin(&v, 238, 0, 0);
        tb_v1_counter(&v, 2, PERF_COUNTER_RAWCOUNT, 4, 4);
        size_t definition_at = v.buf.len;
        tb_v1_counter(&v, 4, cases[k].type, cases[k].size, 8);
        tb_v1_definitions_end(&v);
        uint8_t data[20] = {0};
        tb_v1_instance(&v, "0", 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
        tb_v1_object_end(&v);
        tb_v1_end(&v);
        walk w = parse_and_walk(v.buf.data, v.buf.len, PERFBUF_STRICT);
        CHECK(w.status == PERFBUF_E_INCONSISTENT);
        CHECK_STR(w.err.structure, "PERF_COUNTER_DEFINITION");
        CHECK_STR(w.err.field, "CounterSize");
        CHECK_EQ_U(w.err.offset, definition_at + 32);
        w = parse_and_walk(v.buf.data, v.buf.len, 0);
        CHECK(w.status == PERFBUF_OK);
        CHECK_EQ_U(w.b.anomalies, PERFBUF_ANOMALY_SIZE_MISMATCH);
        CHECK_EQ_U(w.b.first_anomaly.offset, definition_at + 32);
        tb_free(&v.buf);
    }
}

/* ---- rejections ---- */

typedef struct rejection {
    const char *what;
    size_t patch_at;
    uint32_t value;
    uint32_t flags;
    perfbuf_status status;
    const char *structure;
    const char *field;
    size_t offset;
    bool lenient_ok;
} rejection;

#define S PERFBUF_STRICT
#define B "PERF_DATA_BLOCK"
#define O "PERF_OBJECT_TYPE"
#define D "PERF_COUNTER_DEFINITION"
#define I "PERF_INSTANCE_DEFINITION"
#define K "PERF_COUNTER_BLOCK"
static const rejection rejections[] = {
    /* PERF_DATA_BLOCK */
    {"signature", 2, 0x00460045, 0, PERFBUF_E_BAD_SIGNATURE, B, "Signature", 0, false},
    {"big-endian", 8, 0, 0, PERFBUF_E_BIG_ENDIAN_DATA, B, "LittleEndian", 8, false},
    {"endian 2", 8, 2, 0, PERFBUF_E_UNKNOWN_VALUE, B, "LittleEndian", 8, false},
    {"total below header", 20, 87, 0, PERFBUF_E_SIZE_TOO_SMALL, B, "TotalByteLength", 20, false},
    {"total beyond received", 20, TOTAL + 1, 0, PERFBUF_E_SIZE_EXCEEDS_RECEIVED, B, "TotalByteLength", 20, false},
    {"total unaligned", 20, TOTAL - 1, S, PERFBUF_E_SIZE_UNALIGNED, B, "TotalByteLength", 20, false},
    {"total below received", 20, TOTAL - 8, S, PERFBUF_E_TRAILING_BYTES, B, "TotalByteLength", 20, false},
    {"header below struct", 24, 87, 0, PERFBUF_E_SIZE_TOO_SMALL, B, "HeaderLength", 24, false},
    {"header beyond total", 24, TOTAL + 8, 0, PERFBUF_E_SIZE_TOO_LARGE, B, "HeaderLength", 24, false},
    {"header unaligned", 24, 92, S, PERFBUF_E_SIZE_UNALIGNED, B, "HeaderLength", 24, false},
    {"name inside struct", 84, 80, 0, PERFBUF_E_OVERLAP, B, "SystemNameOffset", 84, false},
    {"name beyond header", 84, 97, 0, PERFBUF_E_OFFSET_OUT_OF_RANGE, B, "SystemNameOffset", 84, false},
    {"name length beyond header", 80, 10, 0, PERFBUF_E_SIZE_TOO_LARGE, B, "SystemNameLength", 80, false},
    {"name length odd", 80, 5, 0, PERFBUF_E_ODD_LENGTH, B, "SystemNameLength", 80, false},
    {"objects beyond bytes", 28, 9, S, PERFBUF_E_COUNT_TOO_LARGE, B, "NumObjectTypes", 28, false},
    {"objects over limit", 28, 70000, 0, PERFBUF_E_LIMIT_EXCEEDED, B, "NumObjectTypes", 28, false},
    {"one object more", 28, 4, S, PERFBUF_E_COUNT_TOO_LARGE, B, "NumObjectTypes", 28, true},
    {"one object less", 28, 2, S, PERFBUF_E_TRAILING_BYTES, B, "NumObjectTypes", 28, true},
    /* PERF_OBJECT_TYPE */
    {"object total below struct", OBJ_PROCESS, 63, 0, PERFBUF_E_SIZE_TOO_SMALL, O, "TotalByteLength", OBJ_PROCESS, false},
    {"object total beyond block", OBJ_PROCESS, TOTAL, 0, PERFBUF_E_SIZE_TOO_LARGE, O, "TotalByteLength", OBJ_PROCESS, false},
    {"object total unaligned", OBJ_PROCESS, 372, S, PERFBUF_E_SIZE_UNALIGNED, O, "TotalByteLength", OBJ_PROCESS, false},
    {"object header below struct", OBJ_PROCESS + 8, 63, 0, PERFBUF_E_SIZE_TOO_SMALL, O, "HeaderLength", OBJ_PROCESS + 8, false},
    {"object header beyond definitions", OBJ_PROCESS + 8, 185, 0, PERFBUF_E_SIZE_TOO_LARGE, O, "HeaderLength", OBJ_PROCESS + 8, false},
    {"definitions beyond object", OBJ_PROCESS + 4, 377, 0, PERFBUF_E_SIZE_TOO_LARGE, O, "DefinitionLength", OBJ_PROCESS + 4, false},
    {"counters beyond definitions", OBJ_PROCESS + 32, 4, 0, PERFBUF_E_COUNT_TOO_LARGE, O, "NumCounters", OBJ_PROCESS + 32, false},
    {"counters huge", OBJ_PROCESS + 32, 0xFFFFFFFF, 0, PERFBUF_E_COUNT_TOO_LARGE, O, "NumCounters", OBJ_PROCESS + 32, false},
    {"fewer counters", OBJ_PROCESS + 32, 2, S, PERFBUF_E_TRAILING_BYTES, O, "DefinitionLength", OBJ_PROCESS + 4, true},
    {"instances -4", OBJ_PROCESS + 40, 0xFFFFFFFC, 0, PERFBUF_E_UNKNOWN_VALUE, O, "NumInstances", OBJ_PROCESS + 40, false},
    {"instances beyond bytes", OBJ_PROCESS + 40, 8, 0, PERFBUF_E_COUNT_TOO_LARGE, O, "NumInstances", OBJ_PROCESS + 40, false},
    {"instances one more", OBJ_PROCESS + 40, 4, 0, PERFBUF_E_TRUNCATED, I, "ByteLength", OBJ_THREAD, false},
    {"instances one less", OBJ_PROCESS + 40, 2, S, PERFBUF_E_TRAILING_BYTES, O, "TotalByteLength", OBJ_PROCESS, true},
    /* PERF_COUNTER_DEFINITION */
    {"definition below struct", DEF_PROCESS_0, 39, 0, PERFBUF_E_SIZE_TOO_SMALL, D, "ByteLength", DEF_PROCESS_0, false},
    {"definition beyond definitions", DEF_PROCESS_0, 121, 0, PERFBUF_E_SIZE_TOO_LARGE, D, "ByteLength", DEF_PROCESS_0, false},
    {"unknown type", DEF_PROCESS_0 + 28, 0x12345678, S, PERFBUF_E_UNKNOWN_VALUE, D, "CounterType", DEF_PROCESS_0 + 28, false},
    {"LARGE type, size 4", DEF_PROCESS_0 + 32, 4, S, PERFBUF_E_INCONSISTENT, D, "CounterSize", DEF_PROCESS_0 + 32, true},
    {"offset inside ByteLength", DEF_PROCESS_0 + 36, 2, 0, PERFBUF_E_OFFSET_OUT_OF_RANGE, D, "CounterOffset", DEF_PROCESS_0 + 36, false},
    {"offset past block", DEF_PROCESS_0 + 36, 20, 0, PERFBUF_E_OFFSET_OUT_OF_RANGE, D, "CounterOffset", DEF_PROCESS_0 + 36, false},
    {"offset huge", DEF_PROCESS_0 + 36, 0xFFFFFFFC, 0, PERFBUF_E_OFFSET_OUT_OF_RANGE, D, "CounterOffset", DEF_PROCESS_0 + 36, false},
    {"fraction without base", DEF_THREAD_1 + 40 + 28, PERF_COUNTER_RAWCOUNT, 0, PERFBUF_E_BAD_REFERENCE, D, "CounterType", DEF_THREAD_1 + 28, false},
    {"precision without timestamp", OBJ_MEMORY + 64 + 80 + 28, PERF_COUNTER_LARGE_RAWCOUNT, 0, PERFBUF_E_BAD_REFERENCE, D, "CounterType", OBJ_MEMORY + 64 + 40 + 28, false},
    {"base last without pair", OBJ_MEMORY + 32, 2, 0, PERFBUF_E_BAD_REFERENCE, D, "CounterType", OBJ_MEMORY + 64 + 40 + 28, false},
    /* PERF_INSTANCE_DEFINITION */
    {"instance below struct", INST_PROCESS_0, 23, 0, PERFBUF_E_SIZE_TOO_SMALL, I, "ByteLength", INST_PROCESS_0, false},
    {"instance beyond object", INST_PROCESS_0, 400, 0, PERFBUF_E_SIZE_TOO_LARGE, I, "ByteLength", INST_PROCESS_0, false},
    {"instance unaligned", INST_PROCESS_0, 36, S, PERFBUF_E_SIZE_UNALIGNED, I, "ByteLength", INST_PROCESS_0, false},
    {"name over header", INST_PROCESS_0 + 16, 20, 0, PERFBUF_E_OVERLAP, I, "NameOffset", INST_PROCESS_0 + 16, false},
    {"name beyond instance", INST_PROCESS_0 + 16, 41, 0, PERFBUF_E_OFFSET_OUT_OF_RANGE, I, "NameOffset", INST_PROCESS_0 + 16, false},
    {"name length beyond instance", INST_PROCESS_0 + 20, 17, 0, PERFBUF_E_SIZE_TOO_LARGE, I, "NameLength", INST_PROCESS_0 + 20, false},
    {"name length odd", INST_PROCESS_0 + 20, 9, 0, PERFBUF_E_ODD_LENGTH, I, "NameLength", INST_PROCESS_0 + 20, false},
    {"name without NUL", INST_PROCESS_0 + 20, 8, S, PERFBUF_E_UNTERMINATED_STRING, I, "NameLength", INST_PROCESS_0 + 20, true},
    /* PERF_COUNTER_BLOCK */
    {"block below 4", BLOCK_PROCESS_0, 3, 0, PERFBUF_E_SIZE_TOO_SMALL, K, "ByteLength", BLOCK_PROCESS_0, false},
    {"block beyond object", BLOCK_PROCESS_0, 400, 0, PERFBUF_E_SIZE_TOO_LARGE, K, "ByteLength", BLOCK_PROCESS_0, false},
    {"block unaligned", BLOCK_PROCESS_0, 28, S, PERFBUF_E_SIZE_UNALIGNED, K, "ByteLength", BLOCK_PROCESS_0, false},
    {"block below counters", BLOCK_PROCESS_0, 16, 0, PERFBUF_E_OFFSET_OUT_OF_RANGE, D, "CounterOffset", DEF_PROCESS_0 + 40 + 40 + 36, false},
    {"single block beyond", BLOCK_MEMORY, 40, 0, PERFBUF_E_SIZE_TOO_LARGE, K, "ByteLength", BLOCK_MEMORY, false},
};
#undef S

static void every_rejection(void)
{
    tb_v1 v = global_block();
    for (size_t i = 0; i < sizeof rejections / sizeof rejections[0]; i++) {
        const rejection *r = &rejections[i];
        uint32_t saved = tb_get_u32(&v.buf, r->patch_at);
        tb_patch_u32(&v.buf, r->patch_at, r->value);
        walk w = parse_and_walk(v.buf.data, v.buf.len, r->flags);
        tb_patch_u32(&v.buf, r->patch_at, saved);
        if (w.status != r->status || strcmp(w.err.structure, r->structure) != 0 ||
            strcmp(w.err.field, r->field) != 0 || w.err.offset != r->offset) {
            fprintf(stderr, "%s: got %s at %zu %s.%s\n", r->what, perfbuf_status_name(w.status),
                    w.err.offset, w.err.structure, w.err.field);
        }
        CHECK_STR(perfbuf_status_name(w.status), perfbuf_status_name(r->status));
        CHECK_STR(w.err.structure, r->structure);
        CHECK_STR(w.err.field, r->field);
        CHECK_EQ_U(w.err.offset, r->offset);
        CHECK(w.views_inside);
    }
    tb_free(&v.buf);
}

static void lenient_reports_anomalies(void)
{
    tb_v1 v = global_block();
    for (size_t i = 0; i < sizeof rejections / sizeof rejections[0]; i++) {
        const rejection *r = &rejections[i];
        if (!r->lenient_ok) {
            continue;
        }
        uint32_t saved = tb_get_u32(&v.buf, r->patch_at);
        tb_patch_u32(&v.buf, r->patch_at, r->value);
        walk w = parse_and_walk(v.buf.data, v.buf.len, 0);
        tb_patch_u32(&v.buf, r->patch_at, saved);
        if (w.status != PERFBUF_OK) {
            fprintf(stderr, "%s: lenient got %s at %zu %s.%s\n", r->what,
                    perfbuf_status_name(w.status), w.err.offset, w.err.structure, w.err.field);
        }
        CHECK(w.status == PERFBUF_OK);
        CHECK(w.b.anomalies != 0);
        CHECK_STR(w.b.first_anomaly.field, r->field);
        CHECK(w.views_inside);
    }
    tb_free(&v.buf);
}

static void lenient_count_mismatch_keeps_objects(void)
{
    tb_v1 v = global_block();
    tb_patch_u32(&v.buf, 28, 4);
    walk w = parse_and_walk(v.buf.data, v.buf.len, 0);
    CHECK(w.status == PERFBUF_OK);
    CHECK_EQ_U(w.b.declared_object_count, 4);
    CHECK_EQ_U(w.b.object_count, 3);
    CHECK_EQ_U(w.objects, 3);
    CHECK(w.b.anomalies & PERFBUF_ANOMALY_COUNT_MISMATCH);
    tb_free(&v.buf);
}

static void truncation_at_every_length(void)
{
    tb_v1 v = global_block();
    for (size_t len = 0; len < v.buf.len; len++) {
        walk w = parse_and_walk(v.buf.data, len, 0);
        CHECK(w.status != PERFBUF_OK);
        CHECK(w.err.offset <= len);
        CHECK(w.views_inside);
    }
    tb_u8(&v.buf, 0);
    walk w = parse_and_walk(v.buf.data, v.buf.len, 0);
    CHECK(w.status == PERFBUF_OK);
    CHECK(w.b.anomalies & PERFBUF_ANOMALY_TRAILING_BYTES);
    tb_free(&v.buf);
}

static void caller_limits(void)
{
    tb_v1 v = global_block();
    perfbuf_v1_block b;
    perfbuf_error err;
    perfbuf_options opts = {0, 0, 2, 0};
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, &opts, &b, &err) == PERFBUF_E_LIMIT_EXCEEDED);
    CHECK_STR(err.field, "NumCounters");
    CHECK_EQ_U(err.offset, OBJ_PROCESS + 32);
    opts.max_counters = 0;
    opts.max_instances = 3;
    CHECK(perfbuf_v1_parse(v.buf.data, v.buf.len, &opts, &b, &err) == PERFBUF_E_LIMIT_EXCEEDED);
    CHECK_STR(err.field, "NumInstances");
    CHECK_EQ_U(err.offset, OBJ_THREAD + 40);
    CHECK(b.data == NULL);
    CHECK(perfbuf_v1_parse(NULL, 8, NULL, &b, &err) == PERFBUF_E_INVALID_ARGUMENT);
    tb_free(&v.buf);
}

static const th_case cases[] = {
    TH_CASE(layout_is_as_documented),
    TH_CASE(global_block_decodes),
    TH_CASE(counters_and_objects),
    TH_CASE(parents_and_index),
    TH_CASE(bad_parent_references),
    TH_CASE(whole_object_full_names),
    TH_CASE(whole_object_full_names_cut),
    TH_CASE(whole_object_full_names_ascii_runs),
    TH_CASE(find_by_name),
    TH_CASE(code_page_names),
    TH_CASE(metadata_only_objects),
    TH_CASE(wine_captures),
    TH_CASE(values_from_two_samples),
    TH_CASE(short_last_definition_is_named),
    TH_CASE(shared_timestamp_bases_are_read),
    TH_CASE(identical_and_partial_sharing_are_accepted),
    TH_CASE(claims_past_twice_the_block_are_refused),
    TH_CASE(size_zero_counters_count_against_the_budget),
    TH_CASE(dword_type_widened_to_8_bytes_is_read_whole),
    TH_CASE(other_size_mismatches_stay_anomalies),
    TH_CASE(every_rejection),
    TH_CASE(lenient_reports_anomalies),
    TH_CASE(lenient_count_mismatch_keeps_objects),
    TH_CASE(truncation_at_every_length),
    TH_CASE(caller_limits),
};
TH_MAIN(cases)
