/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The oracle of the V1 data-block reader, shared by fuzz/fuzz_v1.c
 * (byte-level mutation) and fuzz/fuzz_v1_structured.c (structure-aware
 * mutation), so that both check exactly the same. Beyond "no crash":
 *   - a rejection names an offset inside the input, a structure and a field;
 *   - a strict success is a lenient success with no anomaly;
 *   - after a success every view lies inside the input, every accessor
 *     works (values, names, parents through the block index, through the
 *     object's own index and by walking, which agree; lookups), and a
 *     second walk sees exactly what the first saw;
 *   - the views equal, field for field, what the validating decoders read
 *     (oracle_v1_views.h), and value plans equal the per-value accessors;
 *   - every call stays within its work budget, and a walk with every view,
 *     every name and every parent through the block index within the walk
 *     budget (docs/linear-time.md).
 */
#ifndef PERFBUF_FUZZ_ORACLE_V1_H
#define PERFBUF_FUZZ_ORACLE_V1_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "oracle_v1_views.h"
#include "perfbuf/text.h"
#include "perfbuf/v1.h"

/* Instances per object whose parent is also resolved without the block
 * index: those lookups walk the block, so more of them are not linear. */
#define V1_UNINDEXED_PARENTS 4u
/* Instances of each object looked up by name (and the last one). */
#define V1_LOOKUPS 8u

typedef struct digest {
    uint64_t objects, counters, instances, values, name_bytes, parents;
    uint64_t value_units; /* the work of every value and bytes read (counting builds) */
} digest;

/*
 * Reading every value of every instance is linear because the claims of an
 * object's counters add up to at most twice the furthest end they reach
 * (docs/v1.md, "Shared counter data"): at most two values per byte of each
 * counter block, plus two. Each value read is a call of its own budget, and
 * the units of all of them together must stay within this budget of the
 * input, which an object of many counters sharing one field across many
 * instances would break if sharing were not bounded.
 */
#define VALUE_READS_PER_BYTE 16u
#define VALUE_READ(d, bytes, stmt) BUDGETED_APART_SUMMED((d)->value_units, bytes, stmt)

/* Every counter of one counter block: value, bytes and raw sample. Each
 * call has its own budget, apart from the walk's: a value costs a few
 * units against as few as half a byte of counter block, more than the
 * walk's per-byte budget; the value reads together have theirs
 * (VALUE_READS_PER_BYTE). */
static void walk_block(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                       const perfbuf_v1_counter_block *blk, const uint8_t *data, size_t size,
                       digest *d)
{
    ORACLE(oracle_inside(blk->offset, blk->byte_length, size));
    perfbuf_v1_iter ci;
    perfbuf_v1_counter c;
    bool more;
    BUDGETED_APART(size, perfbuf_v1_counters_begin(o, &ci));
    for (;;) {
        BUDGETED_APART(size, more = perfbuf_v1_counters_next(b, &ci, &c));
        if (!more) {
            break;
        }
        uint64_t value = 0;
        const uint8_t *bytes = NULL;
        VALUE_READ(d, size, value = perfbuf_v1_counter_value(b, blk, &c));
        VALUE_READ(d, size, bytes = perfbuf_v1_counter_bytes(b, blk, &c));
        d->values ^= value;
        ORACLE(oracle_ptr_inside(bytes, c.size, data, size));
        perfbuf_raw_sample s;
        perfbuf_value_context ctx;
        perfbuf_status st;
        BUDGETED_APART(size, st = perfbuf_v1_raw_sample(b, o, &c, blk, &s, &ctx));
        ORACLE(st == PERFBUF_OK || st == PERFBUF_E_NOT_FOUND ||
               st == PERFBUF_E_INVALID_ARGUMENT || st == PERFBUF_E_INCONSISTENT);
        if (st == PERFBUF_OK) {
            /* Its own definition: the type is the one read. */
            ORACLE(s.type == c.type);
            perfbuf_value v;
            BUDGETED_APART(2 * sizeof s + sizeof ctx,
                           (void)perfbuf_format_value(c.type, &s, &s, &ctx, PERFBUF_FMT_LARGE, &v));
        }
    }
}

/* The parent of inst without the block index, for a few instances: by
 * walking the block, it must be the one the block index found. */
static void check_unindexed_parent(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                                   const perfbuf_v1_instance *inst,
                                   const perfbuf_v1_instance_index *own_index, perfbuf_status by_block,
                                   const perfbuf_v1_instance *parent_by_block, size_t size)
{
    perfbuf_v1_instance parent;
    perfbuf_error err;
    perfbuf_status st;
    BUDGETED_APART(size, st = perfbuf_v1_parent(b, o, inst, NULL, &parent, &err));
    ORACLE(st == by_block);
    if (st == PERFBUF_OK) {
        ORACLE(parent.offset == parent_by_block->offset);
        ORACLE(parent.index == parent_by_block->index);
    } else if (st == PERFBUF_E_BAD_REFERENCE) {
        ORACLE(oracle_inside(err.offset, 4, size));
    }
    if (own_index != NULL) {
        /* The one-object form answers no parent lookup: it would scan the
         * parent's name for each child. It says so, in O(1). */
        BUDGETED(0, st = perfbuf_v1_parent(b, o, inst, own_index, &parent, NULL));
        ORACLE(st == (inst->parent_title_index == 0 ? PERFBUF_E_NOT_FOUND
                                                    : PERFBUF_E_SCRATCH_NEEDED));
        char text[8];
        size_t text_len = 1;
        BUDGETED(sizeof text,
                 st = perfbuf_v1_full_name_utf8(b, o, inst, own_index, text, sizeof text, &text_len));
        if (inst->parent_title_index != 0) {
            ORACLE(st == PERFBUF_E_SCRATCH_NEEDED && text_len == 0 && text[0] == '\0');
        }
        perfbuf_v1_instance again;
        BUDGETED_APART(size, st = perfbuf_v1_index_get(b, own_index, inst->index, &again));
        ORACLE(st == PERFBUF_OK && again.offset == inst->offset && again.index == inst->index);
    }
}

/* Two UTF-8 texts equal with ASCII letters folded, as lookups compare. */
static bool ascii_folded_equal(const char *a, size_t a_len, const char *b, size_t b_len)
{
    if (a_len != b_len) {
        return false;
    }
    for (size_t i = 0; i < a_len; i++) {
        char x = a[i] >= 'A' && a[i] <= 'Z' ? (char)(a[i] - 'A' + 'a') : a[i];
        char y = b[i] >= 'A' && b[i] <= 'Z' ? (char)(b[i] - 'A' + 'a') : b[i];
        if (x != y) {
            return false;
        }
    }
    return true;
}

/* Looks an instance up by its own name (and by "parent/name" when it has
 * a parent), each lookup under its own budget: a lookup per instance is
 * O(instances) each, not one of the linear patterns. */
static void check_lookup(const perfbuf_v1_block *b, const perfbuf_v1_object *o,
                         const perfbuf_v1_instance *inst, const perfbuf_v1_instance_index *index,
                         size_t size)
{
    if (inst->code_page != 0 || inst->name_bytes >= 64) {
        return;
    }
    char name[128];
    size_t len = 0;
    perfbuf_status conv;
    BUDGETED_APART(size + sizeof name,
                   conv = perfbuf_v1_instance_name_utf8(b, inst, name, sizeof name, &len));
    if (conv != PERFBUF_OK || strchr(name, '/') != NULL || strchr(name, '#') != NULL) {
        return;
    }
    perfbuf_v1_instance found;
    perfbuf_status st;
    /* Looking an instance up by its own name finds one of that name. */
    BUDGETED_APART(size + len, st = perfbuf_v1_find_instance(b, o, name, len, NULL, &found));
    ORACLE(st == PERFBUF_OK);
    ORACLE(found.index <= inst->index);
    /* One more of that name than the object has instances is none, after
     * a lookup that compared every instance: the most a lookup costs. */
    char counted[128];
    int n = snprintf(counted, sizeof counted, "%s#%u", name, (unsigned)o->instance_count);
    if (n > 0 && (size_t)n < sizeof counted) {
        BUDGETED_APART(size + (size_t)n,
                       st = perfbuf_v1_find_instance(b, o, counted, (size_t)n, NULL, &found));
        ORACLE(st == PERFBUF_E_NOT_FOUND);
    }
    /* Room for long parent names: a lookup's cost in them is the point. */
    static char full[4096];
    size_t full_len = 0;
    BUDGETED_APART(size + sizeof full,
                   st = perfbuf_v1_full_name_utf8(b, o, inst, index, full, sizeof full, &full_len));
    if (st != PERFBUF_OK || full_len == len || inst->parent_title_index == 0) {
        return;
    }
    /* "parent/name" through the block index and its name classes finds
     * an instance of that name under a parent of that name, linear in the
     * buffer and the query however many candidates share the parent part. */
    BUDGETED_APART(size + full_len,
                   st = perfbuf_v1_find_instance(b, o, full, full_len, index, &found));
    ORACLE(st == PERFBUF_OK || st == PERFBUF_E_NOT_FOUND);
    /* When the query splits where the full name joined (no '/' in the
     * parent's name), the instance itself matches: the first match is it
     * or an earlier one, and its full name is the query but for ASCII case
     * (the name classes answer exactly as a comparison would). */
    if (memchr(full, '/', full_len - len - 1) == NULL) {
        ORACLE(st == PERFBUF_OK && found.index <= inst->index);
        static char found_full[4096];
        size_t found_len = 0;
        perfbuf_status found_st;
        BUDGETED_APART(size + sizeof found_full,
                       found_st = perfbuf_v1_full_name_utf8(b, o, &found, index, found_full,
                                                            sizeof found_full, &found_len));
        ORACLE(found_st == PERFBUF_OK && ascii_folded_equal(found_full, found_len, full, full_len));
    }
    /* And with an ordinal past the instances, matches every candidate's
     * parent before it answers NOT_FOUND. */
    int tail = snprintf(full + full_len, sizeof full - full_len, "#%u", (unsigned)o->instance_count);
    if (tail > 0 && (size_t)tail < sizeof full - full_len) {
        BUDGETED_APART(size + full_len + (size_t)tail,
                       st = perfbuf_v1_find_instance(b, o, full, full_len + (size_t)tail, index,
                                                     &found));
        ORACLE(st == PERFBUF_E_NOT_FOUND);
    }
}

static digest walk(const perfbuf_v1_block *b, uint64_t *slots, uint64_t *classes,
                   const uint8_t *data, size_t size)
{
    digest d;
    memset(&d, 0, sizeof d);
    perfbuf_v1_instance_index index;
    perfbuf_status st;
    BUDGETED(size, st = perfbuf_v1_block_index_build(b, slots, b->index_slots, &index));
    ORACLE(st == PERFBUF_OK);
    /* The name classes sort the block's names: n log n, apart from the
     * walk (index_slots bounds the instances sorted). */
    if (b->index_slots > 0) {
        BUDGETED_LOG(size, b->index_slots,
                     st = perfbuf_v1_block_index_classes(b, &index, classes, b->index_slots - 1));
        ORACLE(st == PERFBUF_E_OUTPUT_TOO_SMALL && index.name_classes == NULL);
    }
    BUDGETED_LOG(size, b->index_slots,
                 st = perfbuf_v1_block_index_classes(b, &index, classes, b->index_slots));
    ORACLE(st == PERFBUF_OK && index.name_classes == classes);
    char name[128];
    size_t len;
    BUDGETED(size + sizeof name, st = perfbuf_v1_system_name_utf8(b, name, sizeof name, &len));
    ORACLE(oracle_text_status(st));
    perfbuf_v1_iter oi;
    perfbuf_v1_object o;
    bool more;
    BUDGETED(size, perfbuf_v1_objects_begin(b, &oi));
    for (;;) {
        BUDGETED(size, more = perfbuf_v1_objects_next(b, &oi, &o));
        if (!more) {
            break;
        }
        ORACLE(oracle_inside(o.offset, o.total_length, size));
        ORACLE(o.index == d.objects);
        d.objects++;
        perfbuf_v1_object first;
        BUDGETED_APART(size, st = perfbuf_v1_find_object(b, o.name_title_index, &first));
        ORACLE(st == PERFBUF_OK && first.index <= o.index);
        perfbuf_v1_iter ci;
        perfbuf_v1_counter c;
        BUDGETED(size, perfbuf_v1_counters_begin(&o, &ci));
        for (;;) {
            BUDGETED(size, more = perfbuf_v1_counters_next(b, &ci, &c));
            if (!more) {
                break;
            }
            ORACLE(oracle_inside(c.offset, c.byte_length, size));
            d.counters++;
        }
        perfbuf_v1_counter_block blk;
        BUDGETED(size, more = perfbuf_v1_object_counter_block(b, &o, &blk));
        if (more) {
            walk_block(b, &o, &blk, data, size, &d);
        }
        /* An index of the object itself: parents inside one object are
         * how cycles and self-references would show. */
        size_t offsets[64];
        perfbuf_v1_instance_index own;
        bool indexed = false;
        if (o.instance_count <= 64) {
            BUDGETED_APART(size, st = perfbuf_v1_index_build(b, &o, offsets, 64, &own));
            ORACLE(st == PERFBUF_OK);
            indexed = true;
        }
        perfbuf_v1_iter ii;
        perfbuf_v1_instance inst;
        BUDGETED(size, perfbuf_v1_instances_begin(&o, &ii));
        for (;;) {
            BUDGETED(size, more = perfbuf_v1_instances_next(b, &ii, &inst));
            if (!more) {
                break;
            }
            ORACLE(oracle_inside(inst.offset, inst.byte_length, size));
            ORACLE(oracle_inside(inst.name_offset, inst.name_bytes, size));
            d.instances++;
            BUDGETED(size + sizeof name,
                     st = perfbuf_v1_full_name_utf8(b, &o, &inst, &index, name, sizeof name, &len));
            ORACLE(st == PERFBUF_OK || st == PERFBUF_E_OUTPUT_TOO_SMALL ||
                   st == PERFBUF_E_BAD_REFERENCE || st == PERFBUF_E_UNKNOWN_VALUE);
            ORACLE(strlen(name) < sizeof name);
            d.name_bytes += len;
            const uint8_t *raw;
            BUDGETED(size, raw = perfbuf_v1_instance_name_bytes(b, &inst));
            ORACLE(oracle_ptr_inside(raw, inst.name_bytes, data, size));
            perfbuf_v1_instance parent;
            perfbuf_error err;
            BUDGETED(size, st = perfbuf_v1_parent(b, &o, &inst, &index, &parent, &err));
            ORACLE(st == PERFBUF_OK || st == PERFBUF_E_NOT_FOUND || st == PERFBUF_E_BAD_REFERENCE);
            if (st == PERFBUF_OK) {
                ORACLE(parent.offset != inst.offset);
                ORACLE(oracle_inside(parent.offset, parent.byte_length, size));
                d.parents++;
            } else if (st == PERFBUF_E_BAD_REFERENCE) {
                ORACLE(oracle_inside(err.offset, 4, size));
            }
            if (inst.index < V1_UNINDEXED_PARENTS) {
                check_unindexed_parent(b, &o, &inst, indexed ? &own : NULL, st, &parent, size);
            }
            /* Each lookup walks the object (and may compare every parent
             * name up to the query's length): one per instance would make
             * the harness, not the library, quadratic, so a few of them
             * and the last, whose ordinal is the most expensive. */
            if (inst.index < V1_LOOKUPS || inst.index + 1 == o.instance_count) {
                check_lookup(b, &o, &inst, &index, size);
            }
            walk_block(b, &o, &inst.counters, data, size, &d);
        }
    }
    ORACLE(d.objects == b->object_count);
    ORACLE(d.value_units <= (uint64_t)VALUE_READS_PER_BYTE * size + WORK_FIXED);
    return d;
}

/*
 * Every object's full names in one call (perfbuf_v1_full_names_object):
 * the size a first call answers is within its documented multiple of the
 * object, the call is linear in the buffer and its output, with scratch
 * and without the same text, and each record is what
 * perfbuf_v1_full_name_utf8 gives that instance (a parent's part past the
 * cut is that text's prefix, cut at a whole character).
 */
static void check_full_names_object(const perfbuf_v1_block *b, size_t size)
{
    size_t slot_count = b->index_slots ? b->index_slots : 1;
    uint64_t *slots = malloc(sizeof *slots * slot_count);
    size_t *scratch = malloc(sizeof *scratch * slot_count);
    perfbuf_v1_instance_index index;
    perfbuf_status st = PERFBUF_E_INVALID_ARGUMENT;
    if (slots != NULL && scratch != NULL) {
        memset(scratch, 0xA5, sizeof *scratch * slot_count);
        BUDGETED_APART(size, st = perfbuf_v1_block_index_build(b, slots, b->index_slots, &index));
    }
    perfbuf_v1_iter oi;
    perfbuf_v1_object o;
    perfbuf_v1_objects_begin(b, &oi);
    while (st == PERFBUF_OK && perfbuf_v1_objects_next(b, &oi, &o)) {
        size_t needed = 0;
        perfbuf_status first;
        BUDGETED_APART(size, first = perfbuf_v1_full_names_object(b, &o, &index, scratch,
                                                                  b->index_slots, NULL, 0, NULL,
                                                                  0, &needed));
        if (first == PERFBUF_E_UNKNOWN_VALUE) {
            ORACLE(o.code_page != 0 && !perfbuf_codepage_supported(o.code_page));
            continue;
        }
        ORACLE(first == (o.instance_count == 0 ? PERFBUF_OK : PERFBUF_E_OUTPUT_TOO_SMALL));
        ORACLE(needed <= (uint64_t)PERFBUF_V1_FULL_NAMES_BYTES_PER_BYTE * o.total_length);
        size_t count = o.instance_count;
        size_t cap = needed;
        perfbuf_v1_full_name *names = malloc(sizeof *names * (count ? count : 1));
        char *out = malloc(cap ? cap : 1);
        char *again = malloc(cap ? cap : 1);
        if (names == NULL || out == NULL || again == NULL) {
            free(names);
            free(out);
            free(again);
            break;
        }
        size_t written = 0;
        size_t written_again = 0;
        perfbuf_status full, plain;
        BUDGETED_APART(size + cap + count * sizeof *names + slot_count * sizeof *scratch,
                       full = perfbuf_v1_full_names_object(b, &o, &index, scratch,
                                                           b->index_slots, names, count, out,
                                                           cap, &written));
        ORACLE(full == PERFBUF_OK || full == PERFBUF_E_BAD_REFERENCE);
        ORACLE(written <= cap);
        BUDGETED_APART(size + cap + count * sizeof *names,
                       plain = perfbuf_v1_full_names_object(b, &o, &index, NULL, 0, names, count,
                                                            again, cap, &written_again));
        ORACLE(plain == full && written_again == written && memcmp(out, again, written) == 0);
        bool bad = false;
        perfbuf_v1_iter ii;
        perfbuf_v1_instance inst;
        perfbuf_v1_instances_begin(&o, &ii);
        while (perfbuf_v1_instances_next(b, &ii, &inst)) {
            static char one[8192];
            size_t len = 0;
            perfbuf_status one_st;
            const perfbuf_v1_full_name *f = &names[inst.index];
            ORACLE(f->offset <= written && f->length < written - f->offset &&
                   out[f->offset + f->length] == '\0' && f->parent_length <= f->length);
            BUDGETED_APART(size + sizeof one,
                           one_st = perfbuf_v1_full_name_utf8(b, &o, &inst, &index, one,
                                                              sizeof one, &len));
            bad = bad || (f->flags & PERFBUF_V1_FULL_NAME_BAD_PARENT) != 0;
            /* A name longer than `one` is compared no further. */
            if (one_st != PERFBUF_OK && one_st != PERFBUF_E_BAD_REFERENCE) {
                ORACLE(one_st == PERFBUF_E_OUTPUT_TOO_SMALL && len >= sizeof one);
                continue;
            }
            ORACLE(((f->flags & PERFBUF_V1_FULL_NAME_BAD_PARENT) != 0) ==
                   (one_st == PERFBUF_E_BAD_REFERENCE));
            if ((f->flags & PERFBUF_V1_FULL_NAME_PARENT_CUT) == 0) {
                ORACLE(f->length == len && memcmp(out + f->offset, one, len) == 0);
            } else {
                size_t tail = f->length - f->parent_length;
                ORACLE(f->parent_length <= PERFBUF_V1_FULL_NAME_PARENT_MAX_BYTES &&
                       f->parent_length + 4 > PERFBUF_V1_FULL_NAME_PARENT_MAX_BYTES &&
                       len > f->length && memcmp(out + f->offset, one, f->parent_length) == 0 &&
                       memcmp(out + f->offset + f->parent_length, one + len - tail, tail) == 0);
            }
        }
        ORACLE((full == PERFBUF_E_BAD_REFERENCE) == bad);
        free(names);
        free(out);
        free(again);
    }
    free(scratch);
    free(slots);
}

static int oracle_v1(const uint8_t *data, size_t size)
{
    perfbuf_v1_block lenient;
    perfbuf_error err;
    perfbuf_status st;
    BUDGETED(size, st = perfbuf_v1_parse(data, size, NULL, &lenient, &err));
    if (st != PERFBUF_OK) {
        oracle_rejection(st, &err, size);
    } else {
        ORACLE(lenient.size <= size);
        /* The block index's slots, from the harness: the library keeps none. */
        uint64_t *slots = malloc(sizeof *slots * (lenient.index_slots ? lenient.index_slots : 1));
        uint64_t *classes = malloc(sizeof *classes * (lenient.index_slots ? lenient.index_slots : 1));
        if (slots == NULL || classes == NULL) {
            free(slots);
            free(classes);
            return 0;
        }
        if (lenient.index_slots > 0) {
            perfbuf_v1_instance_index small;
            perfbuf_status small_st;
            BUDGETED(size, small_st = perfbuf_v1_block_index_build(&lenient, slots,
                                                                   lenient.index_slots - 1, &small));
            ORACLE(small_st == PERFBUF_E_OUTPUT_TOO_SMALL);
        }
        digest first;
        digest second;
        WALK_BUDGETED(size, first = walk(&lenient, slots, classes, data, size));
        WALK_BUDGETED(size, second = walk(&lenient, slots, classes, data, size));
        ORACLE(memcmp(&first, &second, sizeof first) == 0);
        check_full_names_object(&lenient, size);
        free(classes);
        free(slots);
        /* The decoders' walk and the views' walk, each linear: one walk
         * budget holds both (the plan and sample calls have their own). */
        WALK_BUDGETED(2 * size, oracle_v1_views(&lenient, data, size));
    }
    perfbuf_options strict_opts = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_v1_block strict;
    perfbuf_status strict_st;
    BUDGETED(size, strict_st = perfbuf_v1_parse(data, size, &strict_opts, &strict, &err));
    if (strict_st == PERFBUF_OK) {
        ORACLE(st == PERFBUF_OK && lenient.anomalies == 0);
    } else {
        ORACLE(err.offset <= size);
    }
    return 0;
}

#endif
