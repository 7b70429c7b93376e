/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * V1 names, parents, raw samples and value plans at their edges: size
 * queries, invalid arguments, and views, indexes and plans that are the
 * caller's memory and no longer say what the block says (a stale or
 * tampered copy). Every such call must refuse or fall back to what the
 * block's own bytes give, never read through the caller's copy. Every
 * buffer is parsed in front of a guard page.
 */
#include "perfbuf/collector.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/v1.h"
#include "builder_v1.h"
#include "guard.h"
#include "harness.h"

enum { MAX_COUNTERS = 8, MAX_SLOTS = 64, TEXT_CAP = 64 };

typedef struct capture {
    tb_v1 v;
    guarded g;
    perfbuf_v1_block b;
} capture;

static bool capture_parse(capture *c, uint32_t flags)
{
    c->g = guard_place(c->v.buf.data, c->v.buf.len);
    perfbuf_options opts = {flags, 0, 0, 0};
    perfbuf_error err = {0};
    perfbuf_status st = perfbuf_v1_parse(c->g.bytes, c->v.buf.len, &opts, &c->b, &err);
    if (st != PERFBUF_OK) {
        fprintf(stderr, "parse: %s at %zu: %s.%s\n", perfbuf_status_name(st), err.offset,
                err.structure, err.field);
    }
    return st == PERFBUF_OK;
}

static void capture_free(capture *c)
{
    guard_release(&c->g);
    tb_free(&c->v.buf);
}

/* The capture's bytes with one 32-bit word changed, as another buffer a
 * block struct may be given (views re-read what they are given). */
static guarded changed_copy(const capture *c, size_t at, uint32_t v)
{
    uint8_t *copy = malloc(c->v.buf.len);
    if (copy == NULL) {
        abort();
    }
    memcpy(copy, c->v.buf.data, c->v.buf.len);
    for (int i = 0; i < 4; i++) {
        copy[at + (size_t)i] = (uint8_t)(v >> (8 * i));
    }
    guarded g = guard_place(copy, c->v.buf.len);
    free(copy);
    return g;
}

static bool object_at(const perfbuf_v1_block *b, uint32_t title, perfbuf_v1_object *o)
{
    return perfbuf_v1_find_object(b, title, o) == PERFBUF_OK;
}

static bool instance_at(const perfbuf_v1_block *b, const perfbuf_v1_object *o, uint32_t i,
                        perfbuf_v1_instance *out)
{
    perfbuf_v1_iter it;
    perfbuf_v1_instances_begin(o, &it);
    while (perfbuf_v1_instances_next(b, &it, out)) {
        if (out->index == i) {
            return true;
        }
    }
    return false;
}

static uint32_t definitions_of(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                               perfbuf_v1_counter *defs)
{
    perfbuf_v1_iter it;
    uint32_t n = 0;
    perfbuf_v1_counters_begin(o, &it);
    while (n < MAX_COUNTERS && perfbuf_v1_counters_next(b, &it, &defs[n])) {
        n++;
    }
    return n;
}

/* The block-index slot that holds the object of that title: its offset,
 * then its instances' entries (perfbuf_v1_block_index_build's layout). */
static size_t object_slot(const perfbuf_v1_instance_index *index, uint32_t title)
{
    for (uint32_t k = 0; k < index->object_count; k++) {
        if (index->slots[k] >> 32 == title) {
            return (size_t)(uint32_t)index->slots[k];
        }
    }
    return 0;
}

enum {
    PARENTS = 500,   /* "Alpha", a nameless instance (NameLength 0) */
    CHILDREN = 600,  /* last object: "a#1234567890" of Alpha, "kid" of the nameless one */
    SINGLE = 700,    /* one counter block whose bytes the tests choose */
    UNKNOWN_CP = 800 /* code page 850: names not convertible */
};

/* Counter-block data of SINGLE, as offsets in its block (see its use). */
enum { SINGLE_BLOCK_BYTES = 28 };

static tb_v1 parents_block(void)
{
    tb_v1 v;
    tb_v1_begin(&v, "VM");

    tb_v1_object_begin(&v, PARENTS, 0, 0);
    tb_v1_counter(&v, 10, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    uint8_t small[4] = {0};
    tb_v1_instance(&v, "Alpha", 0, 0);
    tb_v1_counter_block(&v, small, sizeof small);
    size_t nameless = v.buf.len;
    tb_v1_instance(&v, "", 0, 0);
    tb_patch_u32(&v.buf, nameless + 20, 0); /* NameLength 0: no name at all */
    tb_v1_counter_block(&v, small, sizeof small);
    tb_v1_object_end(&v);

    tb_v1_object_begin(&v, SINGLE, 1, 0);
    tb_v1_counter(&v, 20, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    uint8_t data[SINGLE_BLOCK_BYTES] = {0};
    /* Read as an instance header at the block: ByteLength (the block's,
     * 32), NameOffset at 16, NameLength at 20. At the block + 4: ByteLength
     * is the word at 4, NameOffset at 20, NameLength at 24. */
    tb_put32(data, 4, 0xFFFF0000u);
    tb_put32(data, 16, 100);
    tb_put32(data, 20, 8);
    tb_put32(data, 24, 0x10000u);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);

    tb_v1_object_begin(&v, CHILDREN, 0, 0);
    tb_v1_counter(&v, 30, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    tb_v1_instance(&v, "a#1234567890", PARENTS, 0);
    tb_v1_counter_block(&v, small, sizeof small);
    tb_v1_instance(&v, "kid", PARENTS, 1);
    tb_v1_counter_block(&v, small, sizeof small);
    tb_v1_object_end(&v);

    tb_v1_end(&v);
    return v;
}

/* ---- names ---- */

/* out NULL with cap 0 asks for the size; the size given is enough. */
static void test_name_size_queries(void)
{
    capture c = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object process, thread;
    perfbuf_v1_instance idle, thread0;
    CHECK(object_at(&c.b, TB_V1_PROCESS, &process));
    CHECK(object_at(&c.b, TB_V1_THREAD, &thread));
    CHECK(instance_at(&c.b, &process, 0, &idle));
    CHECK(instance_at(&c.b, &thread, 0, &thread0));
    char text[TEXT_CAP];
    size_t len = 0;

    CHECK_EQ_U(perfbuf_v1_instance_name_utf8(&c.b, &idle, NULL, 0, &len),
               PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(len >= 4 && len < TEXT_CAP);
    CHECK(perfbuf_v1_instance_name_utf8(&c.b, &idle, text, len + 1, &len) == PERFBUF_OK);
    CHECK_STR(text, "Idle");
    CHECK_EQ_U(len, 4u);

    CHECK_EQ_U(perfbuf_v1_full_name_utf8(&c.b, &thread, &thread0, NULL, NULL, 0, &len),
               PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(len >= 6 && len < TEXT_CAP);
    CHECK(perfbuf_v1_full_name_utf8(&c.b, &thread, &thread0, NULL, text, len + 1, &len) ==
          PERFBUF_OK);
    CHECK_STR(text, "Idle/0");

    CHECK_EQ_U(perfbuf_v1_system_name_utf8(&c.b, NULL, 0, &len), PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(len >= 2 && len < TEXT_CAP);
    CHECK(perfbuf_v1_system_name_utf8(&c.b, text, len + 1, &len) == PERFBUF_OK);
    CHECK_STR(text, "VM");
    capture_free(&c);
}

static void test_index_arguments(void)
{
    capture c = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object process, memory;
    CHECK(object_at(&c.b, TB_V1_PROCESS, &process));
    CHECK(object_at(&c.b, TB_V1_MEMORY, &memory));
    perfbuf_v1_instance_index index;
    /* No instances: no offsets needed. */
    CHECK(perfbuf_v1_index_build(&c.b, &memory, NULL, 0, &index) == PERFBUF_OK);
    CHECK_EQ_U(index.count, 0u);
    CHECK_EQ_U(perfbuf_v1_index_build(&c.b, &process, NULL, 0, &index),
               PERFBUF_E_OUTPUT_TOO_SMALL);

    uint64_t slots[MAX_SLOTS];
    CHECK(c.b.index_slots > 0 && c.b.index_slots <= MAX_SLOTS);
    CHECK_EQ_U(perfbuf_v1_block_index_build(NULL, slots, MAX_SLOTS, &index),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_block_index_build(&c.b, slots, MAX_SLOTS, NULL),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_block_index_build(&c.b, NULL, MAX_SLOTS, &index),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_block_index_build(&c.b, NULL, 0, &index), PERFBUF_E_OUTPUT_TOO_SMALL);

    /* A block whose index_slots understates what its objects need: the
     * build stops at the caller's cap rather than writing past it. */
    perfbuf_v1_block understated = c.b;
    understated.index_slots = 0;
    CHECK_EQ_U(perfbuf_v1_block_index_build(&understated, slots, c.b.object_count, &index),
               PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(perfbuf_v1_block_index_build(&understated, slots, c.b.object_count + 1u, &index),
               PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(perfbuf_v1_block_index_build(&understated, slots, c.b.index_slots, &index) ==
          PERFBUF_OK);
    CHECK_EQ_U(index.slot_count, c.b.index_slots);

    /* Name classes: the block form of this parse, room for every slot. */
    uint64_t classes[MAX_SLOTS];
    CHECK_EQ_U(perfbuf_v1_block_index_classes(NULL, &index, classes, MAX_SLOTS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_block_index_classes(&c.b, NULL, classes, MAX_SLOTS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_block_index_classes(&c.b, &index, NULL, MAX_SLOTS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_block_index_classes(&c.b, &index, NULL, 0), PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK(index.name_classes == NULL);
    /* An index whose slot count leaves out its instances' slots (a
     * tampered copy): the classes stop at the count rather than read or
     * write past it. */
    perfbuf_v1_instance_index short_index = index;
    short_index.slot_count = index.object_count;
    CHECK_EQ_U(perfbuf_v1_block_index_classes(&c.b, &short_index, classes, MAX_SLOTS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK(short_index.name_classes == NULL);
    CHECK(perfbuf_v1_block_index_classes(&c.b, &index, classes, c.b.index_slots) == PERFBUF_OK);
    CHECK(index.name_classes == classes);
    capture_free(&c);
}

/* A Process instance named `parent` with one Thread child "x", and the
 * block's PerfTime set to perf_time. */
static tb_v1 one_parent_capture(const char *parent, uint64_t perf_time)
{
    tb_v1 v;
    tb_v1_begin(&v, "VM");
    tb_v1_object_begin(&v, TB_V1_PROCESS, 0, 0);
    tb_v1_counter(&v, 784, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    uint8_t data[8] = {0};
    tb_v1_instance(&v, parent, 0, 0);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_object_begin(&v, TB_V1_THREAD, 0, 0);
    tb_v1_counter(&v, 146, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    tb_v1_instance(&v, "x", TB_V1_PROCESS, 0);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    tb_patch_u32(&v.buf, 56, (uint32_t)perf_time); /* PERF_DATA_BLOCK.PerfTime */
    tb_patch_u32(&v.buf, 60, (uint32_t)(perf_time >> 32));
    return v;
}

/*
 * The collector's usual loop: every sample is received into one buffer and
 * parsed into one block struct. An index kept from the previous sample
 * knows parent "a" as 2 bytes long; read over the new sample it would name
 * the parent `renamed` as "a" with OK. Every call taking it refuses it,
 * whether the new sample's clock moved (perf_time 2000) or not (1000: a
 * replayed or frozen-clock buffer, every header field as before), and
 * whether the new name's length differs or only its bytes.
 */
static void stale_index_one_buffer(const char *renamed, uint64_t perf_time)
{
    char renamed_child[TEXT_CAP];
    snprintf(renamed_child, sizeof renamed_child, "%s/x", renamed);
    tb_v1 first = one_parent_capture("a", 1000);
    tb_v1 second = one_parent_capture(renamed, perf_time);
    CHECK_EQ_U(first.buf.len, second.buf.len); /* names padded alike */
    uint8_t *buffer = malloc(first.buf.len);
    CHECK(buffer != NULL);
    memcpy(buffer, first.buf.data, first.buf.len);
    perfbuf_v1_block b;
    CHECK(perfbuf_v1_parse(buffer, first.buf.len, NULL, &b, NULL) == PERFBUF_OK);
    uint64_t slots[MAX_SLOTS];
    size_t offsets[MAX_COUNTERS];
    perfbuf_v1_instance_index stale, stale_object;
    CHECK(b.index_slots <= MAX_SLOTS);
    CHECK(perfbuf_v1_block_index_build(&b, slots, b.index_slots, &stale) == PERFBUF_OK);
    perfbuf_v1_object thread, process;
    CHECK(object_at(&b, TB_V1_PROCESS, &process));
    CHECK(perfbuf_v1_index_build(&b, &process, offsets, MAX_COUNTERS, &stale_object) ==
          PERFBUF_OK);
    uint64_t first_stamp = b.parse_id;

    memcpy(buffer, second.buf.data, second.buf.len);
    CHECK(perfbuf_v1_parse(buffer, second.buf.len, NULL, &b, NULL) == PERFBUF_OK);
    CHECK(b.parse_id != first_stamp);
    CHECK(object_at(&b, TB_V1_THREAD, &thread));
    CHECK(object_at(&b, TB_V1_PROCESS, &process));
    perfbuf_v1_instance child, parent;
    CHECK(instance_at(&b, &thread, 0, &child));
    char text[TEXT_CAP];
    size_t len = 1;
    CHECK_EQ_U(perfbuf_v1_parent(&b, &thread, &child, &stale, &parent, NULL),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_full_name_utf8(&b, &thread, &child, &stale, text, sizeof text, &len),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(len, 0);
    CHECK_EQ_U(perfbuf_v1_find_instance(&b, &thread, renamed_child, strlen(renamed_child), &stale,
                                        &child),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_find_instance(&b, &thread, "x", 1, &stale, &child),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_index_get(&b, &stale_object, 0, &parent), PERFBUF_E_INVALID_ARGUMENT);
    uint64_t classes[MAX_SLOTS];
    CHECK_EQ_U(perfbuf_v1_block_index_classes(&b, &stale, classes, MAX_SLOTS),
               PERFBUF_E_INVALID_ARGUMENT);

    /* An index of this parse names the parent whole. */
    perfbuf_v1_instance_index fresh;
    CHECK(perfbuf_v1_block_index_build(&b, slots, b.index_slots, &fresh) == PERFBUF_OK);
    CHECK(instance_at(&b, &thread, 0, &child));
    CHECK(perfbuf_v1_full_name_utf8(&b, &thread, &child, &fresh, text, sizeof text, &len) ==
          PERFBUF_OK);
    CHECK_STR(text, renamed_child);
    CHECK(perfbuf_v1_parent(&b, &thread, &child, &fresh, &parent, NULL) == PERFBUF_OK);
    CHECK_EQ_U(parent.name_bytes, 2 * strlen(renamed));
    CHECK(perfbuf_v1_block_index_classes(&b, &fresh, classes, MAX_SLOTS) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_instance(&b, &thread, renamed_child, strlen(renamed_child), &fresh,
                                   &child) == PERFBUF_OK);
    CHECK(perfbuf_v1_find_instance(&b, &thread, "a/x", 3, &fresh, &child) == PERFBUF_E_NOT_FOUND);
    /* The block form is not the one-object form's random access. */
    CHECK_EQ_U(perfbuf_v1_index_get(&b, &fresh, 0, &parent), PERFBUF_E_INVALID_ARGUMENT);
    /* Pairing an object with the stale index would key children by the
     * old parent names: refused too. */
    uint64_t scratch[4096];
    size_t need = 0;
    perfbuf_v1_pairing pairing;
    CHECK(perfbuf_v1_pairing_scratch_objects(&thread, &thread, &need) == PERFBUF_OK);
    CHECK(need <= 4096);
    CHECK_EQ_U(perfbuf_v1_pair_objects(&b, &thread, &stale, &b, &thread, &fresh, scratch, 4096,
                                       &pairing),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_pair_objects(&b, &thread, &fresh, &b, &thread, &stale, scratch, 4096,
                                       &pairing),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_pair_objects(&b, &thread, &fresh, &b, &thread, &fresh, scratch, 4096,
                                  &pairing) == PERFBUF_OK);
    CHECK_EQ_U(pairing.paired, 1);
    free(buffer);
    tb_free(&first.buf);
    tb_free(&second.buf);
}

static void test_stale_index_one_buffer(void)
{
    stale_index_one_buffer("abc", 2000);
    stale_index_one_buffer("abc", 1000);
    stale_index_one_buffer("b", 1000);
}

/* The same bytes received again (a replayed buffer) are the same parse:
 * an index kept from the first gives what a fresh one gives. */
static void test_replayed_buffer_keeps_its_index(void)
{
    tb_v1 v = one_parent_capture("abc", 1000);
    uint8_t *buffer = malloc(v.buf.len);
    CHECK(buffer != NULL);
    memcpy(buffer, v.buf.data, v.buf.len);
    perfbuf_v1_block b;
    CHECK(perfbuf_v1_parse(buffer, v.buf.len, NULL, &b, NULL) == PERFBUF_OK);
    uint64_t slots[MAX_SLOTS];
    perfbuf_v1_instance_index kept;
    CHECK(b.index_slots <= MAX_SLOTS);
    CHECK(perfbuf_v1_block_index_build(&b, slots, b.index_slots, &kept) == PERFBUF_OK);
    uint64_t first_stamp = b.parse_id;
    memcpy(buffer, v.buf.data, v.buf.len);
    CHECK(perfbuf_v1_parse(buffer, v.buf.len, NULL, &b, NULL) == PERFBUF_OK);
    CHECK_EQ_U(b.parse_id, first_stamp);
    perfbuf_v1_object thread;
    perfbuf_v1_instance child;
    CHECK(object_at(&b, TB_V1_THREAD, &thread));
    CHECK(instance_at(&b, &thread, 0, &child));
    char text[TEXT_CAP];
    size_t len = 0;
    CHECK(perfbuf_v1_full_name_utf8(&b, &thread, &child, &kept, text, sizeof text, &len) ==
          PERFBUF_OK);
    CHECK_STR(text, "abc/x");
    free(buffer);
    tb_free(&v.buf);
}

/* A one-object index whose offsets were changed after the build. */
static void test_object_index_tampered(void)
{
    capture c = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object process, thread;
    CHECK(object_at(&c.b, TB_V1_PROCESS, &process));
    CHECK(object_at(&c.b, TB_V1_THREAD, &thread));
    size_t offsets[MAX_COUNTERS];
    perfbuf_v1_instance_index index;
    CHECK(perfbuf_v1_index_build(&c.b, &process, offsets, MAX_COUNTERS, &index) == PERFBUF_OK);
    perfbuf_v1_instance child, parent;
    CHECK(instance_at(&c.b, &thread, 1, &child));
    CHECK_EQ_U(child.parent_instance, 1u);
    CHECK(perfbuf_v1_index_get(&c.b, &index, 1, &parent) == PERFBUF_OK);
    CHECK_EQ_U(parent.offset, offsets[1]);

    /* Past the object's end. */
    offsets[1] = process.offset + process.total_length + 8;
    CHECK_EQ_U(perfbuf_v1_index_get(&c.b, &index, 1, &parent), PERFBUF_E_INVALID_ARGUMENT);
    /* Parent lookups never read the one-object form's offsets. */
    CHECK_EQ_U(perfbuf_v1_parent(&c.b, &thread, &child, &index, &parent, NULL),
               PERFBUF_E_SCRATCH_NEEDED);
    char text[TEXT_CAP];
    size_t len = 1;
    CHECK(perfbuf_v1_full_name_utf8(&c.b, &thread, &child, &index, text, sizeof text, &len) ==
          PERFBUF_E_SCRATCH_NEEDED);
    CHECK_EQ_U(len, 0);
    CHECK_STR(text, "");
    capture_free(&c);
}

/* A block index whose slots were changed after the build: every object and
 * instance it names is read again, and what does not hold is no parent. */
static void test_block_index_tampered(void)
{
    capture c = {parents_block(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object parents, children, single;
    CHECK(object_at(&c.b, PARENTS, &parents));
    CHECK(object_at(&c.b, CHILDREN, &children));
    CHECK(object_at(&c.b, SINGLE, &single));
    perfbuf_v1_counter_block single_block;
    CHECK(perfbuf_v1_object_counter_block(&c.b, &single, &single_block));
    perfbuf_v1_instance alpha_child, kid, parent;
    CHECK(instance_at(&c.b, &children, 0, &alpha_child));
    CHECK(instance_at(&c.b, &children, 1, &kid));

    uint64_t slots[MAX_SLOTS];
    uint64_t pristine[MAX_SLOTS];
    perfbuf_v1_instance_index index;
    CHECK(c.b.index_slots <= MAX_SLOTS);
    CHECK(perfbuf_v1_block_index_build(&c.b, pristine, MAX_SLOTS, &index) == PERFBUF_OK);
    size_t slot = object_slot(&index, PARENTS);
    CHECK(slot >= index.object_count && slot + 2 < index.slot_count);
    memcpy(slots, pristine, sizeof slots);
    index.slots = slots;
    uint64_t classes[MAX_SLOTS];
    CHECK(perfbuf_v1_block_index_classes(&c.b, &index, classes, MAX_SLOTS) == PERFBUF_OK);
    char text[TEXT_CAP];
    size_t len = 0;

    CHECK(perfbuf_v1_parent(&c.b, &children, &alpha_child, &index, &parent, NULL) == PERFBUF_OK);
    CHECK_EQ_U(parent.index, 0u);
    CHECK(perfbuf_v1_full_name_utf8(&c.b, &children, &alpha_child, &index, text, sizeof text,
                                    &len) == PERFBUF_OK);
    CHECK_STR(text, "Alpha/a#1234567890");
    perfbuf_v1_instance found;
    CHECK(perfbuf_v1_find_instance(&c.b, &children, "Alpha/a#1234567890", 18, &index, &found) ==
          PERFBUF_OK);
    CHECK_EQ_U(found.index, 0u);

    /* The key names a slot past the index. */
    for (uint32_t k = 0; k < index.object_count; k++) {
        if (slots[k] >> 32 == PARENTS) {
            slots[k] = (uint64_t)PARENTS << 32 | (uint32_t)(index.slot_count + 5);
        }
    }
    CHECK_EQ_U(perfbuf_v1_parent(&c.b, &children, &alpha_child, &index, &parent, NULL),
               PERFBUF_E_NOT_FOUND);
    memcpy(slots, pristine, sizeof slots);

    /* The slot holds no object's offset (inside the block's header). */
    slots[slot] = 0;
    CHECK_EQ_U(perfbuf_v1_parent(&c.b, &children, &alpha_child, &index, &parent, NULL),
               PERFBUF_E_NOT_FOUND);
    /* It holds another object's. */
    slots[slot] = single.offset;
    CHECK_EQ_U(perfbuf_v1_parent(&c.b, &children, &alpha_child, &index, &parent, NULL),
               PERFBUF_E_NOT_FOUND);
    memcpy(slots, pristine, sizeof slots);

    /* The index ends before the object's instances do. */
    index.slot_count = slot + 2;
    CHECK_EQ_U(perfbuf_v1_parent(&c.b, &children, &alpha_child, &index, &parent, NULL),
               PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_v1_full_name_utf8(&c.b, &children, &alpha_child, &index, text, sizeof text,
                                    &len) == PERFBUF_OK);
    CHECK_STR(text, "a#1234567890");
    index.slot_count = c.b.index_slots;

    /* Alpha's entry names bytes that are no instance: near the end of the
     * block, where a header field is cut off, or at SINGLE's counter
     * block, whose words give a name outside the instance or the block. */
    static const size_t from_end[] = {2, 18, 22};
    for (size_t k = 0; k < sizeof from_end / sizeof from_end[0]; k++) {
        slots[slot + 1] = c.b.size - from_end[k];
        CHECK_EQ_U(perfbuf_v1_parent(&c.b, &children, &alpha_child, &index, &parent, NULL),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK(perfbuf_v1_full_name_utf8(&c.b, &children, &alpha_child, &index, text,
                                        sizeof text, &len) == PERFBUF_OK);
        CHECK_STR(text, "a#1234567890");
        CHECK_EQ_U(perfbuf_v1_find_instance(&c.b, &children, "Alpha/a#1234567890", 18, &index,
                                            &found),
                   PERFBUF_E_NOT_FOUND);
    }
    /* At SINGLE's block: NameOffset 100 past ByteLength 32. */
    slots[slot + 1] = single_block.offset;
    CHECK(perfbuf_v1_full_name_utf8(&c.b, &children, &alpha_child, &index, text, sizeof text,
                                    &len) == PERFBUF_OK);
    CHECK_STR(text, "a#1234567890");
    /* At the block + 4: ByteLength 0xFFFF0000, NameLength 0x10000 runs
     * past the buffer. */
    slots[slot + 1] = single_block.offset + 4;
    CHECK(perfbuf_v1_full_name_utf8(&c.b, &children, &alpha_child, &index, text, sizeof text,
                                    &len) == PERFBUF_OK);
    CHECK_STR(text, "a#1234567890");
    CHECK_EQ_U(perfbuf_v1_find_instance(&c.b, &children, "Alpha/a#1234567890", 18, &index,
                                        &found),
               PERFBUF_E_NOT_FOUND);
    memcpy(slots, pristine, sizeof slots);

    /* An object count past the slots (a tampered copy): the search over
     * the objects' keys stays inside the caller's slot_count entries,
     * here an allocation of exactly that many. */
    uint64_t *exact = malloc(index.slot_count * sizeof *exact);
    CHECK(exact != NULL);
    memcpy(exact, pristine, index.slot_count * sizeof *exact);
    perfbuf_v1_instance_index inflated = index;
    inflated.slots = exact;
    inflated.object_count = UINT32_MAX;
    CHECK_EQ_U(perfbuf_v1_parent(&c.b, &children, &alpha_child, &inflated, &parent, NULL),
               PERFBUF_E_NOT_FOUND);
    inflated.object_count = (uint32_t)index.slot_count + 1u;
    CHECK_EQ_U(perfbuf_v1_parent(&c.b, &children, &alpha_child, &inflated, &parent, NULL),
               PERFBUF_E_NOT_FOUND);
    /* The same copy with its count as built still answers. */
    inflated.object_count = index.object_count;
    CHECK(perfbuf_v1_parent(&c.b, &children, &alpha_child, &inflated, &parent, NULL) ==
          PERFBUF_OK);
    CHECK_EQ_U(parent.index, 0u);
    free(exact);
    capture_free(&c);
}

/* A block index entry at SINGLE's counter block, whose words read as an
 * instance header give NameOffset 24 and NameLength 100 in ByteLength 32:
 * the name would run out of that "instance". */
static void test_block_index_name_outside_instance(void)
{
    capture c = {parents_block(), {0}, {0}};
    perfbuf_v1_object single;
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    CHECK(object_at(&c.b, SINGLE, &single));
    perfbuf_v1_counter_block blk;
    CHECK(perfbuf_v1_object_counter_block(&c.b, &single, &blk));
    size_t at = blk.offset;
    capture_free(&c);

    c.v = parents_block();
    tb_patch_u32(&c.v.buf, at + 16, 24);
    tb_patch_u32(&c.v.buf, at + 20, 100);
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object children;
    perfbuf_v1_instance alpha_child;
    CHECK(object_at(&c.b, CHILDREN, &children));
    CHECK(instance_at(&c.b, &children, 0, &alpha_child));
    uint64_t slots[MAX_SLOTS];
    perfbuf_v1_instance_index index;
    CHECK(perfbuf_v1_block_index_build(&c.b, slots, MAX_SLOTS, &index) == PERFBUF_OK);
    size_t slot = object_slot(&index, PARENTS);
    slots[slot + 1] = at;
    char text[TEXT_CAP];
    size_t len = 0;
    CHECK(perfbuf_v1_full_name_utf8(&c.b, &children, &alpha_child, &index, text, sizeof text,
                                    &len) == PERFBUF_OK);
    CHECK_STR(text, "a#1234567890");
    capture_free(&c);
}

/* A parent without a name (NameLength 0) gives an empty parent part, and
 * a query with an empty parent part finds its child. */
static void test_nameless_parent(void)
{
    capture c = {parents_block(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object parents, children;
    CHECK(object_at(&c.b, PARENTS, &parents));
    CHECK(object_at(&c.b, CHILDREN, &children));
    perfbuf_v1_instance kid, found;
    CHECK(instance_at(&c.b, &children, 1, &kid));
    uint64_t slots[MAX_SLOTS];
    perfbuf_v1_instance_index index;
    CHECK(perfbuf_v1_block_index_build(&c.b, slots, MAX_SLOTS, &index) == PERFBUF_OK);
    uint64_t classes[MAX_SLOTS];
    CHECK(perfbuf_v1_block_index_classes(&c.b, &index, classes, MAX_SLOTS) == PERFBUF_OK);
    char text[TEXT_CAP];
    size_t len = 0;
    CHECK(perfbuf_v1_full_name_utf8(&c.b, &children, &kid, &index, text, sizeof text, &len) ==
          PERFBUF_OK);
    CHECK_STR(text, "/kid");
    CHECK(perfbuf_v1_find_instance(&c.b, &children, "/kid", 4, &index, &found) == PERFBUF_OK);
    CHECK_EQ_U(found.index, 1u);
    /* The empty query (NULL, 0) is the nameless instance. */
    CHECK(perfbuf_v1_find_instance(&c.b, &parents, NULL, 0, NULL, &found) == PERFBUF_OK);
    CHECK_EQ_U(found.index, 1u);
    CHECK_EQ_U(found.name_bytes, 0u);
    capture_free(&c);
}

/* More than nine digits after '#' are no ordinal but part of the name. */
static void test_long_ordinal_is_name(void)
{
    capture c = {parents_block(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object children;
    CHECK(object_at(&c.b, CHILDREN, &children));
    perfbuf_v1_instance found;
    CHECK(perfbuf_v1_find_instance(&c.b, &children, "a#1234567890", 12, NULL, &found) ==
          PERFBUF_OK);
    CHECK_EQ_U(found.index, 0u);
    /* An ordinal after it still counts. */
    CHECK(perfbuf_v1_find_instance(&c.b, &children, "a#1234567890#0", 14, NULL, &found) ==
          PERFBUF_OK);
    CHECK_EQ_U(found.index, 0u);
    CHECK_EQ_U(perfbuf_v1_find_instance(&c.b, &children, "a#1234567890#1", 14, NULL, &found),
               PERFBUF_E_NOT_FOUND);
    /* Nine digits are an ordinal: the 123456790th "a", not there. */
    CHECK_EQ_U(perfbuf_v1_find_instance(&c.b, &children, "a#123456789", 11, NULL, &found),
               PERFBUF_E_NOT_FOUND);
    capture_free(&c);
}

/* Parents in a code page the library does not convert: no parent part,
 * and "parent/name" finds nothing, while the child's own name does. */
static void test_parent_in_unknown_code_page(void)
{
    capture c;
    tb_v1_begin(&c.v, "VM");
    tb_v1_object_begin(&c.v, UNKNOWN_CP, 0, 850);
    tb_v1_counter(&c.v, 10, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&c.v);
    uint8_t small[4] = {0};
    tb_v1_instance(&c.v, "P", 0, 0);
    tb_v1_counter_block(&c.v, small, sizeof small);
    tb_v1_object_end(&c.v);
    tb_v1_object_begin(&c.v, CHILDREN, 0, 0);
    tb_v1_counter(&c.v, 30, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&c.v);
    tb_v1_instance(&c.v, "c", UNKNOWN_CP, 0);
    tb_v1_counter_block(&c.v, small, sizeof small);
    tb_v1_object_end(&c.v);
    tb_v1_end(&c.v);
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object parents, children;
    CHECK(object_at(&c.b, UNKNOWN_CP, &parents));
    CHECK(object_at(&c.b, CHILDREN, &children));
    perfbuf_v1_instance p, child, found;
    CHECK(instance_at(&c.b, &parents, 0, &p));
    CHECK(instance_at(&c.b, &children, 0, &child));
    char text[TEXT_CAP];
    size_t len = 0;
    CHECK_EQ_U(perfbuf_v1_instance_name_utf8(&c.b, &p, text, sizeof text, &len),
               PERFBUF_E_UNKNOWN_VALUE);
    uint64_t slots[MAX_SLOTS];
    perfbuf_v1_instance_index index;
    CHECK(perfbuf_v1_block_index_build(&c.b, slots, MAX_SLOTS, &index) == PERFBUF_OK);
    CHECK(perfbuf_v1_full_name_utf8(&c.b, &children, &child, &index, text, sizeof text, &len) ==
          PERFBUF_OK);
    CHECK_STR(text, "c");
    uint64_t classes[MAX_SLOTS];
    CHECK(perfbuf_v1_block_index_classes(&c.b, &index, classes, MAX_SLOTS) == PERFBUF_OK);
    CHECK_EQ_U(perfbuf_v1_find_instance(&c.b, &children, "P/c", 3, &index, &found),
               PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_v1_find_instance(&c.b, &children, "c", 1, &index, &found) == PERFBUF_OK);
    CHECK_EQ_U(found.index, 0u);
    capture_free(&c);
}

/*
 * Name classes: a "parent/" query matches a parent whose name is equal to
 * the parent part as lookups compare (decoded, ASCII case-insensitive),
 * whatever object, code page or position that name has. The block:
 *   CLASS_A (UTF-16):  "P", "dup", "Caf\u00e9", "dup", "c"
 *   CLASS_B (cp 1252): "p", "CAF\xc9", "DUP"
 *   CLASS_C (cp 850):  "dup" (not convertible: never a parent part)
 *   CLASS_KIDS: "c" of A#0, "c" of B#0, "c" of A#1, "c" of A#3, "c" of A#4,
 *               "c" of B#2, "c" of C#0, "c" of A#2, "c" of B#1
 * B#1 (1252 "CAF\xc9", U+00C9) is not A#2 ("Caf\u00e9", U+00E9): only
 * ASCII letters fold.
 */
enum { CLASS_A = 900, CLASS_B = 902, CLASS_C = 904, CLASS_KIDS = 906 };

static void class_object(capture *c, uint32_t title, uint32_t code_page, const char *const *names,
                         size_t count)
{
    uint8_t small[4] = {0};
    tb_v1_object_begin(&c->v, title, 0, code_page);
    tb_v1_counter(&c->v, title + 10, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&c->v);
    for (size_t i = 0; i < count; i++) {
        tb_v1_instance(&c->v, names[i], 0, 0);
        tb_v1_counter_block(&c->v, small, sizeof small);
    }
    tb_v1_object_end(&c->v);
}

static void test_name_classes(void)
{
    static const char *const a_names[] = {"P", "dup", "Caf\xc3\xa9", "dup", "c"};
    static const char *const b_names[] = {"p", "CAF\xc9", "DUP"};
    static const char *const c_names[] = {"dup"};
    static const struct {
        uint32_t title, instance;
    } kids[] = {{CLASS_A, 0}, {CLASS_B, 0}, {CLASS_A, 1}, {CLASS_A, 3}, {CLASS_A, 4},
                {CLASS_B, 2}, {CLASS_C, 0}, {CLASS_A, 2}, {CLASS_B, 1}};
    capture c;
    tb_v1_begin(&c.v, "VM");
    class_object(&c, CLASS_A, 0, a_names, 5);
    class_object(&c, CLASS_B, 1252, b_names, 3);
    class_object(&c, CLASS_C, 850, c_names, 1);
    uint8_t small[4] = {0};
    tb_v1_object_begin(&c.v, CLASS_KIDS, 0, 0);
    tb_v1_counter(&c.v, CLASS_KIDS + 10, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&c.v);
    for (size_t i = 0; i < sizeof kids / sizeof kids[0]; i++) {
        tb_v1_instance(&c.v, "c", kids[i].title, kids[i].instance);
        tb_v1_counter_block(&c.v, small, sizeof small);
    }
    tb_v1_object_end(&c.v);
    tb_v1_end(&c.v);
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object kids_object;
    CHECK(object_at(&c.b, CLASS_KIDS, &kids_object));
    uint64_t slots[MAX_SLOTS];
    uint64_t classes[MAX_SLOTS];
    perfbuf_v1_instance_index index;
    CHECK(c.b.index_slots <= MAX_SLOTS);
    CHECK(perfbuf_v1_block_index_build(&c.b, slots, MAX_SLOTS, &index) == PERFBUF_OK);
    CHECK(perfbuf_v1_block_index_classes(&c.b, &index, classes, MAX_SLOTS) == PERFBUF_OK);

    /* Every instance's class is the slot of the block's first instance of
     * an equal name (slots in block order: 4 object keys, then each
     * object's slot and its instances'). */
    size_t a = object_slot(&index, CLASS_A) + 1;
    size_t b = object_slot(&index, CLASS_B) + 1;
    size_t cc = object_slot(&index, CLASS_C) + 1;
    size_t k = object_slot(&index, CLASS_KIDS) + 1;
    CHECK(a == 5 && b == a + 6 && cc == b + 4 && k == cc + 2);
    const size_t expected[][2] = {
        {a + 0, a + 0}, {a + 1, a + 1}, {a + 2, a + 2}, {a + 3, a + 1}, {a + 4, a + 4},
        {b + 0, a + 0}, /* "p" is "P" */
        {b + 1, b + 1}, /* U+00C9 is not U+00E9 */
        {b + 2, a + 1}, /* "DUP" is "dup" */
        {cc + 0, a + 1}, /* cp 850's ASCII "dup" decodes as "dup" */
        {k + 0, a + 4}, /* a child's name is a parent's */
        {k + 8, a + 4},
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        CHECK_EQ_U(classes[expected[i][0]] >> 32, expected[i][1]);
    }

    /* "p/c": the children of A#0 and B#0, kids 0 and 1. */
    perfbuf_v1_instance found;
    CHECK(perfbuf_v1_find_instance(&c.b, &kids_object, "p/c", 3, &index, &found) == PERFBUF_OK);
    CHECK_EQ_U(found.index, 0u);
    CHECK(perfbuf_v1_find_instance(&c.b, &kids_object, "P/C#1", 5, &index, &found) == PERFBUF_OK);
    CHECK_EQ_U(found.index, 1u);
    CHECK_EQ_U(perfbuf_v1_find_instance(&c.b, &kids_object, "P/c#2", 5, &index, &found),
               PERFBUF_E_NOT_FOUND);
    /* "Dup/c": the two "dup" of A and B's "DUP" (kids 2, 3, 5), not C's,
     * whose code page the library does not convert. */
    static const uint32_t dup_kids[] = {2, 3, 5};
    for (uint32_t n = 0; n < 3; n++) {
        char q[16];
        int len = snprintf(q, sizeof q, "Dup/c#%u", n);
        CHECK(perfbuf_v1_find_instance(&c.b, &kids_object, q, (size_t)len, &index, &found) ==
              PERFBUF_OK);
        CHECK_EQ_U(found.index, dup_kids[n]);
    }
    CHECK_EQ_U(perfbuf_v1_find_instance(&c.b, &kids_object, "dup/c#3", 7, &index, &found),
               PERFBUF_E_NOT_FOUND);
    /* "c/c": the child of A#4, named as the children are. */
    CHECK(perfbuf_v1_find_instance(&c.b, &kids_object, "c/c", 3, &index, &found) == PERFBUF_OK);
    CHECK_EQ_U(found.index, 4u);
    CHECK_EQ_U(perfbuf_v1_find_instance(&c.b, &kids_object, "c/c#1", 5, &index, &found),
               PERFBUF_E_NOT_FOUND);
    /* Accents do not fold: "CAF\u00c9/c" is B#1's child alone. */
    CHECK(perfbuf_v1_find_instance(&c.b, &kids_object, "CAF\xc3\x89/c", 7, &index, &found) ==
          PERFBUF_OK);
    CHECK_EQ_U(found.index, 8u);
    CHECK(perfbuf_v1_find_instance(&c.b, &kids_object, "caf\xc3\xa9/c", 7, &index, &found) ==
          PERFBUF_OK);
    CHECK_EQ_U(found.index, 7u);
    CHECK_EQ_U(perfbuf_v1_find_instance(&c.b, &kids_object, "caf\xc3\xa9/c#1", 9, &index,
                                        &found),
               PERFBUF_E_NOT_FOUND);
    /* A parent part no name has: NOT_FOUND. */
    CHECK_EQ_U(perfbuf_v1_find_instance(&c.b, &kids_object, "du/c", 4, &index, &found),
               PERFBUF_E_NOT_FOUND);
    capture_free(&c);
}

/* An instance view whose fields differ from the block's bytes is not an
 * instance of the block: no parent, no full name. */
static void test_instance_view_tampered(void)
{
    capture c = {parents_block(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object children;
    perfbuf_v1_instance kid, parent;
    CHECK(object_at(&c.b, CHILDREN, &children));
    CHECK(instance_at(&c.b, &children, 1, &kid));
    CHECK(perfbuf_v1_parent(&c.b, &children, &kid, NULL, &parent, NULL) == PERFBUF_OK);
    CHECK_EQ_U(parent.index, 1u);
    /* CHILDREN is the block's last object: its data runs to the end. */
    CHECK_EQ_U(children.offset + children.total_length, c.b.size);

    enum { FIELDS = 12 };
    perfbuf_v1_instance bad[FIELDS];
    for (int k = 0; k < FIELDS; k++) {
        bad[k] = kid;
    }
    bad[0].byte_length += 8;
    bad[1].parent_title_index = SINGLE;
    bad[2].parent_instance = 0;
    bad[3].name_offset += 2;
    bad[4].name_bytes = 1000;
    bad[5].code_page = 1252;
    /* Headers cut off by the block's end, one field further each time. */
    bad[6].offset = c.b.size - 2;
    bad[7].offset = c.b.size - 6;
    bad[8].offset = c.b.size - 10;
    bad[9].offset = c.b.size - 18;
    bad[10].offset = c.b.size - 22;
    bad[11].offset = children.data_offset - 8;
    for (int k = 0; k < FIELDS; k++) {
        char text[TEXT_CAP] = "x";
        size_t len = 99;
        CHECK_EQ_U(perfbuf_v1_parent(&c.b, &children, &bad[k], NULL, &parent, NULL),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_EQ_U(perfbuf_v1_full_name_utf8(&c.b, &children, &bad[k], NULL, text, sizeof text,
                                             &len),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_STR(text, "");
        CHECK_EQ_U(len, 0u);
    }
    capture_free(&c);
}

/* ---- raw samples ---- */

/* A definition that differs from o's own in any field is not read through:
 * the value comes from o's own definition of that title and type. */
static void test_raw_sample_foreign_definition(void)
{
    capture c = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object process;
    CHECK(object_at(&c.b, TB_V1_PROCESS, &process));
    perfbuf_v1_counter defs[MAX_COUNTERS];
    CHECK_EQ_U(definitions_of(&c.b, &process, defs), 3u);
    perfbuf_v1_instance inst;
    CHECK(instance_at(&c.b, &process, 1, &inst));
    /* Counter 1: PERF_COUNTER_RAWCOUNT, 4 bytes at 16, value 101. */
    /* Each field the O(1) path compares with the bytes at the counter's
     * offset, and the offset and index it reads them at. */
    enum { FIELDS = 8 };
    perfbuf_v1_counter other[FIELDS];
    for (int k = 0; k < FIELDS; k++) {
        other[k] = defs[1];
    }
    other[0].byte_length += 8;
    other[1].help_title_index += 2;
    other[2].default_scale = 3;
    other[3].size = 8;
    other[4].counter_offset = 8;
    other[5].detail_level += 100;
    other[6].offset = defs[2].offset;
    other[7].index = 2;
    for (int k = 0; k < FIELDS; k++) {
        perfbuf_raw_sample s;
        perfbuf_value_context x;
        CHECK(perfbuf_v1_raw_sample(&c.b, &process, &other[k], &inst.counters, &s, &x) ==
              PERFBUF_OK);
        CHECK_EQ_U(s.first, 101u);
        CHECK_EQ_U(s.type, PERF_COUNTER_RAWCOUNT);
        CHECK(x.scale == 0);
    }
    capture_free(&c);
}

/* Two definitions share a title: a foreign counter of that title at
 * neither's position is read through the first. */
static void test_raw_sample_shared_title(void)
{
    capture c;
    tb_v1_begin(&c.v, "VM");
    tb_v1_object_begin(&c.v, 500, 1, 0);
    tb_v1_counter(&c.v, 10, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_counter(&c.v, 10, PERF_COUNTER_RAWCOUNT, 4, 8);
    tb_v1_counter(&c.v, 12, PERF_COUNTER_RAWCOUNT, 4, 12);
    tb_v1_definitions_end(&c.v);
    uint8_t data[12] = {0};
    tb_put32(data, 4, 41);
    tb_put32(data, 8, 42);
    tb_put32(data, 12, 43);
    tb_v1_counter_block(&c.v, data, sizeof data);
    tb_v1_object_end(&c.v);
    tb_v1_end(&c.v);
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object o;
    CHECK(object_at(&c.b, 500, &o));
    perfbuf_v1_counter defs[MAX_COUNTERS];
    CHECK_EQ_U(definitions_of(&c.b, &o, defs), 3u);
    perfbuf_v1_counter_block blk;
    CHECK(perfbuf_v1_object_counter_block(&c.b, &o, &blk));
    perfbuf_v1_counter foreign = defs[2];
    foreign.name_title_index = 10;
    perfbuf_raw_sample s;
    perfbuf_value_context x;
    CHECK(perfbuf_v1_raw_sample(&c.b, &o, &foreign, &blk, &s, &x) == PERFBUF_OK);
    CHECK_EQ_U(s.first, 41u);
    CHECK(perfbuf_v1_raw_sample(&c.b, &o, &defs[1], &blk, &s, &x) == PERFBUF_OK);
    CHECK_EQ_U(s.first, 42u);
    capture_free(&c);
}

/* Counter blocks the caller shortened or stretched. */
static void test_raw_sample_block_bounds(void)
{
    capture c = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object memory;
    CHECK(object_at(&c.b, TB_V1_MEMORY, &memory));
    perfbuf_v1_counter defs[MAX_COUNTERS];
    CHECK_EQ_U(definitions_of(&c.b, &memory, defs), 3u);
    perfbuf_v1_counter_block blk;
    CHECK(perfbuf_v1_object_counter_block(&c.b, &memory, &blk));
    perfbuf_raw_sample s;
    perfbuf_value_context x;
    CHECK(perfbuf_v1_raw_sample(&c.b, &memory, &defs[1], &blk, &s, &x) == PERFBUF_OK);
    CHECK_EQ_U(s.first, 4000u);
    CHECK_EQ_U(s.second, 10000u);

    /* No PERF_COUNTER_BLOCK of these lengths starts there: each is refused,
     * whether it reaches past the object, cuts the timer's 8 bytes at 16
     * off, or holds the timer but not its timestamp at 24. */
    perfbuf_v1_counter_block longer = {blk.offset, blk.byte_length + 8, blk.parse_id};
    CHECK_EQ_U(perfbuf_v1_raw_sample(&c.b, &memory, &defs[1], &longer, &s, &x),
               PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_v1_counter_block to_20 = {blk.offset, 20, blk.parse_id};
    CHECK_EQ_U(perfbuf_v1_raw_sample(&c.b, &memory, &defs[1], &to_20, &s, &x),
               PERFBUF_E_INVALID_ARGUMENT);
    perfbuf_v1_counter_block to_24 = {blk.offset, 24, blk.parse_id};
    CHECK_EQ_U(perfbuf_v1_raw_sample(&c.b, &memory, &defs[1], &to_24, &s, &x),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_counter_bytes(&c.b, &to_24, &defs[1]) == NULL);
    CHECK_EQ_U(perfbuf_v1_counter_value(&c.b, &to_24, &defs[1]), 0u);
    capture_free(&c);
}

/* ---- pairings ---- */

/*
 * A fraction with its base and a multi timer with its multi base; then the
 * same block struct over another buffer whose base definition became a
 * plain count (views re-read the buffer they are given): the fraction has
 * no base there, and neither a raw sample nor a plan reads one.
 */
static void test_pairings(void)
{
    capture c;
    tb_v1_begin(&c.v, "VM");
    tb_v1_object_begin(&c.v, 500, 1, 0);
    tb_v1_counter(&c.v, 10, PERF_RAW_FRACTION, 4, 4);
    tb_v1_counter(&c.v, 0, PERF_RAW_BASE, 4, 8);
    tb_v1_counter(&c.v, 14, PERF_100NSEC_MULTI_TIMER, 8, 12);
    tb_v1_counter(&c.v, 0, PERF_COUNTER_MULTI_BASE, 8, 20);
    tb_v1_definitions_end(&c.v);
    uint8_t data[24] = {0};
    tb_put32(data, 4, 25);
    tb_put32(data, 8, 100);
    tb_put64(data, 12, 5000000);
    tb_put64(data, 20, 4);
    tb_v1_counter_block(&c.v, data, sizeof data);
    tb_v1_object_end(&c.v);
    tb_v1_end(&c.v);
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object o;
    CHECK(object_at(&c.b, 500, &o));
    perfbuf_v1_counter defs[MAX_COUNTERS];
    CHECK_EQ_U(definitions_of(&c.b, &o, defs), 4u);
    perfbuf_v1_counter_block blk;
    CHECK(perfbuf_v1_object_counter_block(&c.b, &o, &blk));
    perfbuf_v1_plan_entry entries[MAX_COUNTERS];
    perfbuf_v1_plan plan;
    CHECK(perfbuf_v1_plan_build(&c.b, &o, entries, MAX_COUNTERS, &plan) == PERFBUF_OK);
    CHECK_EQ_U(entries[0].pairing, PERFBUF_V1_PLAN_BASE);
    CHECK_EQ_U(entries[2].pairing, PERFBUF_V1_PLAN_MULTI);
    CHECK_EQ_U(entries[2].base_offset, 20u);

    perfbuf_raw_sample s, r;
    perfbuf_value_context x, rx;
    CHECK(perfbuf_v1_raw_sample(&c.b, &o, &defs[0], &blk, &s, &x) == PERFBUF_OK);
    CHECK_EQ_U(s.first, 25u);
    CHECK_EQ_U(s.second, 100u);
    CHECK(perfbuf_v1_plan_sample(&plan, &c.b, &blk, 2, &s, &x) == PERFBUF_OK);
    CHECK(perfbuf_v1_raw_sample(&c.b, &o, &defs[2], &blk, &r, &rx) == PERFBUF_OK);
    CHECK_EQ_U(s.first, 5000000u);
    CHECK_EQ_U(s.multi, 4u);
    CHECK_EQ_U(s.second, (uint64_t)c.b.perf_time_100ns);
    CHECK_EQ_U(x.frequency, 10000000u);
    CHECK_EQ_U(r.first, s.first);
    CHECK_EQ_U(r.multi, s.multi);
    CHECK_EQ_U(r.second, s.second);
    /* Formatted from the plan as from the raw samples. */
    perfbuf_value v, by_samples;
    CHECK(perfbuf_v1_plan_format(&plan, &c.b, &blk, &plan, &c.b, &blk, 2, PERFBUF_FMT_DOUBLE,
                                 &v) == PERFBUF_OK);
    (void)perfbuf_format_value(defs[2].type, &r, &r, &rx, PERFBUF_FMT_DOUBLE, &by_samples);
    CHECK_EQ_U(v.status, by_samples.status);

    /* CounterType is at 28 of a PERF_COUNTER_DEFINITION. */
    tb_patch_u32(&c.v.buf, defs[1].offset + 28, PERF_COUNTER_RAWCOUNT);
    guarded changed = guard_place(c.v.buf.data, c.v.buf.len);
    perfbuf_v1_block other = c.b;
    other.data = changed.bytes;
    CHECK_EQ_U(perfbuf_v1_raw_sample(&other, &o, &defs[0], &blk, &s, &x), PERFBUF_E_NOT_FOUND);
    CHECK(perfbuf_v1_plan_build(&other, &o, entries, MAX_COUNTERS, &plan) == PERFBUF_OK);
    CHECK_EQ_U(entries[0].pairing, PERFBUF_V1_PLAN_MISSING_BASE);
    CHECK_EQ_U(entries[1].pairing, PERFBUF_V1_PLAN_VALUE);
    CHECK_EQ_U(perfbuf_v1_plan_sample(&plan, &other, &blk, 0, &s, &x), PERFBUF_E_NOT_FOUND);
    guard_release(&changed);
    capture_free(&c);
}

/* The same block struct over another buffer in which a parent's instance
 * header no longer holds: the walk to that parent stops there. */
static void test_parent_walk_in_another_buffer(void)
{
    capture c = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object process, thread;
    CHECK(object_at(&c.b, TB_V1_PROCESS, &process));
    CHECK(object_at(&c.b, TB_V1_THREAD, &thread));
    perfbuf_v1_instance svchost, child, parent;
    CHECK(instance_at(&c.b, &process, 1, &svchost));
    CHECK(instance_at(&c.b, &thread, 1, &child));
    CHECK_EQ_U(child.parent_instance, 1u);
    CHECK(perfbuf_v1_parent(&c.b, &thread, &child, NULL, &parent, NULL) == PERFBUF_OK);
    CHECK_EQ_U(parent.offset, svchost.offset);

    tb_patch_u32(&c.v.buf, svchost.offset, 0); /* ByteLength */
    guarded changed = guard_place(c.v.buf.data, c.v.buf.len);
    perfbuf_v1_block other = c.b;
    other.data = changed.bytes;
    CHECK_EQ_U(perfbuf_v1_parent(&other, &thread, &child, NULL, &parent, NULL),
               PERFBUF_E_NOT_FOUND);
    char text[TEXT_CAP];
    size_t len = 0;
    CHECK(perfbuf_v1_full_name_utf8(&other, &thread, &child, NULL, text, sizeof text, &len) ==
          PERFBUF_OK);
    CHECK_STR(text, "0");
    guard_release(&changed);
    capture_free(&c);
}

/* ---- plans ---- */

typedef struct planned {
    capture c;
    perfbuf_v1_object o;
    perfbuf_v1_plan_entry entries[MAX_COUNTERS];
    perfbuf_v1_plan plan;
    perfbuf_v1_counter_block blk;
} planned;

/* The sample block's Memory object, planned. */
static void plan_memory(planned *p)
{
    p->c.v = tb_v1_sample_global();
    CHECK(capture_parse(&p->c, PERFBUF_STRICT));
    CHECK(object_at(&p->c.b, TB_V1_MEMORY, &p->o));
    CHECK(perfbuf_v1_plan_build(&p->c.b, &p->o, p->entries, MAX_COUNTERS, &p->plan) ==
          PERFBUF_OK);
    CHECK(perfbuf_v1_object_counter_block(&p->c.b, &p->o, &p->blk));
}

static void test_plan_null_arguments(void)
{
    planned p;
    CALL(plan_memory(&p));
    perfbuf_v1_plan other;
    perfbuf_v1_plan_entry entries[MAX_COUNTERS];
    CHECK_EQ_U(perfbuf_v1_plan_build(&p.c.b, NULL, entries, MAX_COUNTERS, &other),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_build(&p.c.b, &p.o, NULL, MAX_COUNTERS, &other),
               PERFBUF_E_INVALID_ARGUMENT);

    uint64_t values[MAX_COUNTERS];
    CHECK_EQ_U(perfbuf_v1_plan_read(NULL, &p.c.b, &p.blk, values, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_read(&p.plan, NULL, &p.blk, values, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_read(&p.plan, &p.c.b, NULL, values, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_read(&p.plan, &p.c.b, &p.blk, NULL, 0),
               PERFBUF_E_OUTPUT_TOO_SMALL);

    perfbuf_raw_sample s;
    perfbuf_value_context x;
    CHECK_EQ_U(perfbuf_v1_plan_sample(NULL, &p.c.b, &p.blk, 0, &s, &x),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_sample(&p.plan, NULL, &p.blk, 0, &s, &x),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_sample(&p.plan, &p.c.b, NULL, 0, &s, &x),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_sample(&p.plan, &p.c.b, &p.blk, 0, NULL, &x),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_sample(&p.plan, &p.c.b, &p.blk, 0, &s, NULL),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_plan_sample(&p.plan, &p.c.b, &p.blk, 0, &s, &x) == PERFBUF_OK);
    CHECK_EQ_U(s.first, 8589934592ull);

    const perfbuf_v1_plan *pl = &p.plan;
    const perfbuf_v1_block *b = &p.c.b;
    const perfbuf_v1_counter_block *k = &p.blk;
    perfbuf_value v;
    CHECK_EQ_U(perfbuf_v1_plan_format(NULL, b, k, pl, b, k, 0, PERFBUF_FMT_LARGE, &v),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format(pl, NULL, k, pl, b, k, 0, PERFBUF_FMT_LARGE, &v),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format(pl, b, NULL, pl, b, k, 0, PERFBUF_FMT_LARGE, &v),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format(pl, b, k, NULL, b, k, 0, PERFBUF_FMT_LARGE, &v),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format(pl, b, k, pl, NULL, k, 0, PERFBUF_FMT_LARGE, &v),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format(pl, b, k, pl, b, NULL, 0, PERFBUF_FMT_LARGE, &v),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_plan_format(pl, b, k, pl, b, k, 0, PERFBUF_FMT_LARGE, &v) == PERFBUF_OK);
    CHECK_EQ_U(v.status, PERFBUF_CSTATUS_VALID_DATA);
    CHECK_EQ_U(v.as_large, 8589934592ull);

    perfbuf_value all[MAX_COUNTERS];
    CHECK_EQ_U(perfbuf_v1_plan_format_all(NULL, b, k, pl, b, k, 0, all, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_all(pl, NULL, k, pl, b, k, 0, all, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_all(pl, b, NULL, pl, b, k, 0, all, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_all(pl, b, k, NULL, b, k, 0, all, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_all(pl, b, k, pl, NULL, k, 0, all, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_all(pl, b, k, pl, b, NULL, 0, all, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_all(pl, b, k, pl, b, k, 0, NULL, MAX_COUNTERS),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK_EQ_U(perfbuf_v1_plan_format_all(pl, b, k, pl, b, k, 0, NULL, 0),
               PERFBUF_E_OUTPUT_TOO_SMALL);
    capture_free(&p.c);
}

/* A block of another parse: same bytes, another size or another
 * PerfTime100nSec. The older side is checked as the newer is. */
static void test_plan_other_parse(void)
{
    planned p;
    CALL(plan_memory(&p));
    uint64_t values[MAX_COUNTERS];
    perfbuf_value v;
    perfbuf_value all[MAX_COUNTERS];
    perfbuf_v1_block shorter = p.c.b;
    shorter.size -= 8;
    perfbuf_v1_block later = p.c.b;
    later.perf_time_100ns += 1;
    const perfbuf_v1_block *others[2] = {&shorter, &later};
    for (int i = 0; i < 2; i++) {
        CHECK_EQ_U(perfbuf_v1_plan_read(&p.plan, others[i], &p.blk, values, MAX_COUNTERS),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_EQ_U(perfbuf_v1_plan_format(&p.plan, &p.c.b, &p.blk, &p.plan, others[i], &p.blk, 0,
                                          PERFBUF_FMT_LARGE, &v),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_EQ_U(perfbuf_v1_plan_format(&p.plan, others[i], &p.blk, &p.plan, &p.c.b, &p.blk, 0,
                                          PERFBUF_FMT_LARGE, &v),
                   PERFBUF_E_INVALID_ARGUMENT);
        CHECK_EQ_U(perfbuf_v1_plan_format_all(&p.plan, &p.c.b, &p.blk, &p.plan, others[i], &p.blk,
                                              PERFBUF_FMT_LARGE, all, MAX_COUNTERS),
                   PERFBUF_E_INVALID_ARGUMENT);
    }
    capture_free(&p.c);
}

/* Entries are the caller's memory: an offset outside the block reads 0, a
 * time base out of range is no clock. */
static void test_plan_entries_tampered(void)
{
    planned p;
    CALL(plan_memory(&p));
    uint64_t values[MAX_COUNTERS];
    CHECK(perfbuf_v1_plan_read(&p.plan, &p.c.b, &p.blk, values, MAX_COUNTERS) == PERFBUF_OK);
    CHECK_EQ_U(values[0], 8589934592ull);
    CHECK_EQ_U(values[1], 4000u);
    CHECK_EQ_U(p.entries[1].time_base, PERFBUF_TIME_100NS);

    p.entries[0].offset = 4096;    /* 8 bytes */
    p.entries[1].offset = 4096;
    p.entries[1].size = 4;         /* 4 bytes */
    CHECK(perfbuf_v1_plan_read(&p.plan, &p.c.b, &p.blk, values, MAX_COUNTERS) == PERFBUF_OK);
    CHECK_EQ_U(values[0], 0u);
    CHECK_EQ_U(values[1], 0u);
    CHECK_EQ_U(values[2], 10000u);

    p.entries[0].time_base = 7;
    perfbuf_raw_sample s;
    perfbuf_value_context x;
    CHECK(perfbuf_v1_plan_sample(&p.plan, &p.c.b, &p.blk, 0, &s, &x) == PERFBUF_OK);
    CHECK_EQ_U(s.second, p.plan.clock[PERFBUF_TIME_NONE]);
    CHECK_EQ_U(x.frequency, p.plan.frequency[PERFBUF_TIME_NONE]);
    CHECK_EQ_U(x.frequency, 0u);
    capture_free(&p.c);
}

/* The older plan has fewer counters, or another type at a position: those
 * counters are not formatted. */
static void test_plan_format_mismatched_older(void)
{
    planned p;
    CALL(plan_memory(&p));
    perfbuf_value v;
    perfbuf_value all[MAX_COUNTERS];
    perfbuf_v1_plan fewer = p.plan;
    fewer.count = 1;
    CHECK_EQ_U(perfbuf_v1_plan_format(&p.plan, &p.c.b, &p.blk, &fewer, &p.c.b, &p.blk, 1,
                                      PERFBUF_FMT_LARGE, &v),
               PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_v1_plan_format_all(&p.plan, &p.c.b, &p.blk, &fewer, &p.c.b, &p.blk,
                                     PERFBUF_FMT_LARGE, all, MAX_COUNTERS) == PERFBUF_OK);
    CHECK_EQ_U(all[0].status, PERFBUF_CSTATUS_VALID_DATA);
    CHECK_EQ_U(all[0].as_large, 8589934592ull);
    CHECK_EQ_U(all[1].status, PERFBUF_CSTATUS_INVALID_DATA);

    perfbuf_v1_plan_entry retyped[MAX_COUNTERS];
    memcpy(retyped, p.entries, sizeof retyped);
    retyped[0].type = PERF_COUNTER_RAWCOUNT;
    perfbuf_v1_plan older = p.plan;
    older.entries = retyped;
    CHECK_EQ_U(perfbuf_v1_plan_format(&p.plan, &p.c.b, &p.blk, &older, &p.c.b, &p.blk, 0,
                                      PERFBUF_FMT_LARGE, &v),
               PERFBUF_E_INCONSISTENT);
    CHECK(perfbuf_v1_plan_format_all(&p.plan, &p.c.b, &p.blk, &older, &p.c.b, &p.blk,
                                     PERFBUF_FMT_LARGE, all, MAX_COUNTERS) == PERFBUF_OK);
    CHECK_EQ_U(all[0].status, PERFBUF_CSTATUS_INVALID_DATA);
    CHECK_EQ_U(all[0].as_large, 0u);
    capture_free(&p.c);
}

/* ---- block views ---- */

/* An object view that differs from the block's bytes in any field the
 * views rely on is not an object of the block. */
static void test_object_view_tampered(void)
{
    planned p;
    CALL(plan_memory(&p));
    enum { FIELDS = 6 };
    perfbuf_v1_object bad[FIELDS];
    for (int k = 0; k < FIELDS; k++) {
        bad[k] = p.o;
    }
    bad[0].definition_length += 8;
    bad[1].header_length += 8;
    bad[2].name_title_index += 2;
    bad[3].counter_count += 1;
    bad[4].num_instances = 0;
    bad[5].code_page = 1252;
    perfbuf_v1_plan_entry entries[MAX_COUNTERS];
    perfbuf_v1_plan plan;
    for (int k = 0; k < FIELDS; k++) {
        CHECK_EQ_U(perfbuf_v1_plan_build(&p.c.b, &bad[k], entries, MAX_COUNTERS, &plan),
                   PERFBUF_E_INVALID_ARGUMENT);
    }
    capture_free(&p.c);
}

/* Object headers of another buffer that the walk cannot trust: a header
 * longer than the definitions, definitions longer than the object, more
 * counters than the definitions hold, a NumInstances below -3, more
 * instances than the data holds, a length past the buffer. The walk stops
 * there, so no object of it or after it is found. */
static void test_objects_of_another_buffer(void)
{
    capture c = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object process, thread;
    CHECK(object_at(&c.b, TB_V1_PROCESS, &process));
    CHECK(object_at(&c.b, TB_V1_THREAD, &thread));
    CHECK(process.offset < thread.offset);
    /* PERF_OBJECT_TYPE: TotalByteLength 0, DefinitionLength 4, HeaderLength
     * 8, NumCounters 32, NumInstances 40. */
    static const struct {
        size_t field;
        uint32_t value;
    } changes[] = {{8, 0x1000},   {4, 0x7FFFFFF0u}, {32, 1000},
                   {40, (uint32_t)-4}, {40, 1000},  {0, 0x7FFFFFF0u}};
    for (size_t k = 0; k < sizeof changes / sizeof changes[0]; k++) {
        guarded changed = changed_copy(&c, process.offset + changes[k].field, changes[k].value);
        perfbuf_v1_block other = c.b;
        other.data = changed.bytes;
        perfbuf_v1_object o;
        perfbuf_v1_iter it;
        perfbuf_v1_objects_begin(&other, &it);
        EXPECT(!perfbuf_v1_objects_next(&other, &it, &o));
        EXPECT(perfbuf_v1_find_object(&other, TB_V1_THREAD, &o) == PERFBUF_E_NOT_FOUND);
        guard_release(&changed);
        CHECK(!th.case_failed);
    }
    capture_free(&c);
}

/* Instance headers of another buffer whose name is not inside them or not
 * whole UTF-16 units: the walk of that object's instances ends there. */
static void test_instances_of_another_buffer(void)
{
    capture c = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object process;
    perfbuf_v1_instance svchost, found;
    CHECK(object_at(&c.b, TB_V1_PROCESS, &process));
    CHECK(instance_at(&c.b, &process, 1, &svchost));
    CHECK(perfbuf_v1_find_instance(&c.b, &process, "svchost", 7, NULL, &found) == PERFBUF_OK);
    CHECK_EQ_U(found.index, 1u);
    /* NameOffset (at 16) inside the header or past the instance; an odd
     * NameLength (at 20). */
    static const struct {
        size_t field;
        uint32_t value;
    } changes[] = {{16, 8}, {16, 0x1000}, {20, 15}};
    for (size_t k = 0; k < sizeof changes / sizeof changes[0]; k++) {
        guarded changed = changed_copy(&c, svchost.offset + changes[k].field, changes[k].value);
        perfbuf_v1_block other = c.b;
        other.data = changed.bytes;
        perfbuf_v1_iter it;
        perfbuf_v1_instance inst;
        uint32_t walked = 0;
        perfbuf_v1_instances_begin(&process, &it);
        while (perfbuf_v1_instances_next(&other, &it, &inst)) {
            walked++;
        }
        EXPECT(walked == 1);
        EXPECT(perfbuf_v1_find_instance(&other, &process, "svchost", 7, NULL, &found) ==
               PERFBUF_E_NOT_FOUND);
        guard_release(&changed);
        CHECK(!th.case_failed);
    }
    capture_free(&c);
}

/* A block index entry claiming a parent's name is longer than its span:
 * the name is measured again, not taken from the index. */
static void test_block_index_name_length_overstated(void)
{
    capture c = {tb_v1_sample_global(), {0}, {0}};
    CHECK(capture_parse(&c, PERFBUF_STRICT));
    perfbuf_v1_object process, thread;
    perfbuf_v1_instance svchost, child, parent;
    CHECK(object_at(&c.b, TB_V1_PROCESS, &process));
    CHECK(object_at(&c.b, TB_V1_THREAD, &thread));
    CHECK(instance_at(&c.b, &process, 1, &svchost));
    CHECK(instance_at(&c.b, &thread, 1, &child));
    CHECK_EQ_U(svchost.name_bytes, 14u);
    uint64_t slots[MAX_SLOTS];
    perfbuf_v1_instance_index index;
    CHECK(c.b.index_slots <= MAX_SLOTS);
    CHECK(perfbuf_v1_block_index_build(&c.b, slots, MAX_SLOTS, &index) == PERFBUF_OK);
    size_t entry = object_slot(&index, TB_V1_PROCESS) + 1 + 1;
    CHECK_EQ_U(slots[entry] >> 32, 14u);
    slots[entry] = (uint64_t)0xFFFFu << 32 | (uint32_t)slots[entry];
    CHECK(perfbuf_v1_parent(&c.b, &thread, &child, &index, &parent, NULL) == PERFBUF_OK);
    CHECK_EQ_U(parent.offset, svchost.offset);
    CHECK_EQ_U(parent.name_bytes, 14u);
    char text[TEXT_CAP];
    size_t len = 0;
    CHECK(perfbuf_v1_instance_name_utf8(&c.b, &parent, text, sizeof text, &len) == PERFBUF_OK);
    CHECK_STR(text, "svchost");
    capture_free(&c);
}

static void test_counter_value_arguments(void)
{
    planned p;
    CALL(plan_memory(&p));
    perfbuf_v1_counter defs[MAX_COUNTERS];
    CHECK_EQ_U(definitions_of(&p.c.b, &p.o, defs), 3u);
    CHECK_EQ_U(perfbuf_v1_counter_value(&p.c.b, &p.blk, &defs[0]), 8589934592ull);
    CHECK(perfbuf_v1_counter_bytes(&p.c.b, &p.blk, &defs[0]) != NULL);
    CHECK_EQ_U(perfbuf_v1_counter_value(NULL, &p.blk, &defs[0]), 0u);
    CHECK_EQ_U(perfbuf_v1_counter_value(&p.c.b, NULL, &defs[0]), 0u);
    CHECK_EQ_U(perfbuf_v1_counter_value(&p.c.b, &p.blk, NULL), 0u);
    CHECK(perfbuf_v1_counter_bytes(NULL, &p.blk, &defs[0]) == NULL);
    CHECK(perfbuf_v1_counter_bytes(&p.c.b, NULL, &defs[0]) == NULL);
    CHECK(perfbuf_v1_counter_bytes(&p.c.b, &p.blk, NULL) == NULL);
    /* offset + ByteLength wraps around. */
    perfbuf_v1_counter_block wrapping = {SIZE_MAX - 4, 32, p.blk.parse_id};
    CHECK_EQ_U(perfbuf_v1_counter_value(&p.c.b, &wrapping, &defs[0]), 0u);
    CHECK(perfbuf_v1_counter_bytes(&p.c.b, &wrapping, &defs[0]) == NULL);
    capture_free(&p.c);
}

static const th_case cases[] = {
    TH_CASE(test_name_size_queries),
    TH_CASE(test_index_arguments),
    TH_CASE(test_object_index_tampered),
    TH_CASE(test_stale_index_one_buffer),
    TH_CASE(test_replayed_buffer_keeps_its_index),
    TH_CASE(test_block_index_tampered),
    TH_CASE(test_block_index_name_outside_instance),
    TH_CASE(test_nameless_parent),
    TH_CASE(test_long_ordinal_is_name),
    TH_CASE(test_parent_in_unknown_code_page),
    TH_CASE(test_name_classes),
    TH_CASE(test_instance_view_tampered),
    TH_CASE(test_raw_sample_foreign_definition),
    TH_CASE(test_raw_sample_shared_title),
    TH_CASE(test_raw_sample_block_bounds),
    TH_CASE(test_pairings),
    TH_CASE(test_parent_walk_in_another_buffer),
    TH_CASE(test_plan_null_arguments),
    TH_CASE(test_plan_other_parse),
    TH_CASE(test_plan_entries_tampered),
    TH_CASE(test_plan_format_mismatched_older),
    TH_CASE(test_object_view_tampered),
    TH_CASE(test_objects_of_another_buffer),
    TH_CASE(test_instances_of_another_buffer),
    TH_CASE(test_block_index_name_length_overstated),
    TH_CASE(test_counter_value_arguments),
};

TH_MAIN(cases)
