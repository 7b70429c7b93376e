/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * PerfLib V2 metadata readers: counterset and counter registration, the
 * counterset list and the instance list.
 */
#include <string.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/v2_meta.h"

#include "core/check.h"
#include "core/order.h"
#include "core/text.h"
#include "core/work.h"
#include "v2/internal.h"

/*@
  // A counterset list whose bytes the caller still holds: count whole
  // GUIDs (perfbuf_v2_countersets_parse gives back only such lists).
  predicate pb_countersets_ok(perfbuf_v2_countersets *l) =
      \valid_read(l) && l->count <= SIZE_MAX / 16 &&
      \valid_read(l->data + (0 .. l->count * 16 - 1));

  // An instance list whose bytes the caller still holds.
  predicate pb_instance_list_ok(perfbuf_v2_instance_list *l) =
      \valid_read(l) && \valid_read(l->data + (0 .. l->size - 1));

  // A registration whose bytes the caller still holds, and whose sorted
  // scratch, when it has one, still holds its order_count entries.
  predicate pb_reginfo_ok(perfbuf_v2_reginfo *r) =
      \valid_read(r) && \valid_read(r->data + (0 .. r->size - 1)) &&
      (r->order != \null ==> \valid_read(r->order + (0 .. r->order_count - 1)));
*/

/* Zeroed answers, copied rather than memset: WP's typed memory model
 * cannot follow a structure written as bytes through a cast to char.
 * Static, so that no frame holds a second copy. */
static const perfbuf_v2_counter_answer counter_answer_zero;
static const perfbuf_v2_reginfo reginfo_zero;
static const perfbuf_v2_instance_list instance_list_zero;

/*@ assigns \nothing; */
static bool instance_type_known(uint32_t t)
{
    return t == PERFBUF_COUNTERSET_SINGLE_INSTANCE || t == PERFBUF_COUNTERSET_MULTI_INSTANCES ||
           t == PERFBUF_COUNTERSET_SINGLE_AGGREGATE || t == PERFBUF_COUNTERSET_MULTI_AGGREGATE ||
           t == PERFBUF_COUNTERSET_SINGLE_AGGREGATE_HISTORY ||
           t == PERFBUF_COUNTERSET_INSTANCE_AGGREGATE;
}

/*@ assigns \nothing; */
static bool detail_known(uint32_t d)
{
    return d == 100 || d == 200;
}

/* Decodes the counter whose 48-byte PERF_COUNTER_REG_INFO the cursor has
 * handed out at p, found at byte `at` of the buffer. */
/*@ requires \valid_read(p + (0 .. PBS_PERF_COUNTER_REG_INFO - 1));
    requires \valid(out);
    assigns *out;
    ensures out->index == index;
*/
static void decode_counter(const uint8_t *p, size_t at, uint32_t index, perfbuf_v2_counter_reg *out)
{
    out->index = index;
    out->offset = at;
    out->id = pb_le32(p + PBO_PERF_COUNTER_REG_INFO_CounterId);
    out->type = pb_le32(p + PBO_PERF_COUNTER_REG_INFO_Type);
    out->attributes = pb_le64(p + PBO_PERF_COUNTER_REG_INFO_Attrib);
    out->detail_level = pb_le32(p + PBO_PERF_COUNTER_REG_INFO_DetailLevel);
    out->default_scale = pb_i32(pb_le32(p + PBO_PERF_COUNTER_REG_INFO_DefaultScale));
    out->base_id = pb_le32(p + PBO_PERF_COUNTER_REG_INFO_BaseCounterId);
    out->perf_time_id = pb_le32(p + PBO_PERF_COUNTER_REG_INFO_PerfTimeId);
    out->perf_freq_id = pb_le32(p + PBO_PERF_COUNTER_REG_INFO_PerfFreqId);
    out->multi_id = pb_le32(p + PBO_PERF_COUNTER_REG_INFO_MultiId);
    out->aggregate = pb_le32(p + PBO_PERF_COUNTER_REG_INFO_AggregateFunc);
}

/*@ requires pb_ctx_ok(ctx);
    requires pb_valid((pb_cursor *)s) && \valid_read(c);
    requires \separated(ctx, s, c);
    requires ctx->err == \null || \separated(ctx->err, s, c);
    assigns ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status check_counter(pb_ctx *ctx, const pb_cursor *s, const perfbuf_v2_counter_reg *c)
{
    /* 0xFFFFFFFF is PERF_WILDCARD_COUNTER in a query and "none" in every
     * reference: a counter with that id could be neither asked for nor
     * referred to, and its values would read as a wildcard's. Refused in
     * both modes. */
    if (c->id == PERFBUF_V2_NO_ID) {
        return pb_fail(ctx, PERFBUF_E_UNKNOWN_VALUE, c->offset, PBF_PERF_COUNTER_REG_INFO_CounterId);
    }
    struct {
        bool bad;
        uint32_t anomaly;
        perfbuf_status status;
        pb_field_id field;
    } checks[] = {
        {perfbuf_counter_type_lookup(c->type) == NULL, PERFBUF_ANOMALY_UNKNOWN_VALUE,
         PERFBUF_E_UNKNOWN_VALUE, PBF_PERF_COUNTER_REG_INFO_Type},
        {(c->attributes & ~(uint64_t)0x1F) != 0, PERFBUF_ANOMALY_UNKNOWN_VALUE,
         PERFBUF_E_UNKNOWN_VALUE, PBF_PERF_COUNTER_REG_INFO_Attrib},
        {!detail_known(c->detail_level), PERFBUF_ANOMALY_UNKNOWN_VALUE, PERFBUF_E_UNKNOWN_VALUE,
         PBF_PERF_COUNTER_REG_INFO_DetailLevel},
        {c->default_scale < -10 || c->default_scale > 10, PERFBUF_ANOMALY_UNKNOWN_VALUE,
         PERFBUF_E_UNKNOWN_VALUE, PBF_PERF_COUNTER_REG_INFO_DefaultScale},
        {c->aggregate > 4, PERFBUF_ANOMALY_UNKNOWN_VALUE, PERFBUF_E_UNKNOWN_VALUE,
         PBF_PERF_COUNTER_REG_INFO_AggregateFunc},
        {pb_field32(s, PBF_PERF_COUNTER_REG_INFO_Reserved) != 0, PERFBUF_ANOMALY_RESERVED_NONZERO,
         PERFBUF_E_RESERVED_NONZERO, PBF_PERF_COUNTER_REG_INFO_Reserved},
    };
    /*@ loop invariant 0 <= i <= 6;
        loop invariant \forall integer k; 0 <= k < 6 ==> 0 <= checks[k].field < PB_FIELD_COUNT;
        loop invariant pb_ctx_ok(ctx) && ctx->err == \at(ctx->err, Pre);
        loop assigns i, ctx->anomalies, ctx->first_anomaly, *\at(ctx->err, Pre);
        loop variant 6 - i;
    */
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        PB_WORK(1);
        if (checks[i].bad) {
            perfbuf_status st = pb_anomaly(ctx, checks[i].anomaly, checks[i].status, c->offset,
                                           checks[i].field);
            if (st != PERFBUF_OK) {
                return st;
            }
        }
    }
    return PERFBUF_OK;
}

/* Clears the answer. A call rather than the copy in place: WP models a
 * structure copy as a havoc of every memory chunk under *out plus the
 * copied value, and after it the provers took 13 s or more (or gave up) to
 * see that the context's error pointer, a field of a local, was kept; past
 * a call whose only effect is `assigns *out` they see it at once. */
/*@ requires \valid(out);
    assigns *out;
*/
static void clear_counter_answer(perfbuf_v2_counter_answer *out)
{
    *out = counter_answer_zero;
}

/*@ requires data == \null || \valid_read((const uint8_t *)data + (0 .. size - 1));
    requires opts == \null || \valid_read(opts);
    requires out == \null || \valid(out);
    requires err == \null || \valid(err);
    requires out == \null || err == \null || \separated(out, err);
    assigns *out, *err;
*/
perfbuf_status perfbuf_v2_counter_reg_parse(const void *data, size_t size,
                                           const perfbuf_options *opts,
                                           perfbuf_v2_counter_answer *out, perfbuf_error *err)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, opts, err);
    if (pb_check_arguments(&ctx, data, size, out) != PERFBUF_OK) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    clear_counter_answer(out);
    pb_cursor all = pb_cursor_make((const uint8_t *)data, size);
    pb_cursor s;
    perfbuf_status st = pb_take_struct(&ctx, &all, PBS_PERF_COUNTER_REG_INFO,
                                       PBF_PERF_COUNTER_REG_INFO_CounterId, &s);
    if (st != PERFBUF_OK) {
        return st;
    }
    perfbuf_v2_counter_reg c;
    decode_counter(pb_cursor_data(&s), 0, 0, &c);
    st = check_counter(&ctx, &s, &c);
    if (st == PERFBUF_OK && pb_cursor_remaining(&all) > 0) {
        st = pb_anomaly(&ctx, PERFBUF_ANOMALY_TRAILING_BYTES, PERFBUF_E_TRAILING_BYTES,
                        PBS_PERF_COUNTER_REG_INFO, PBF_REG_ANSWER_Length);
    }
    if (st != PERFBUF_OK) {
        return st;
    }
    out->counter = c;
    out->anomalies = ctx.anomalies;
    out->first_anomaly = ctx.first_anomaly;
    return PERFBUF_OK;
}

/*@ requires r == \null || pb_reginfo_ok((perfbuf_v2_reginfo *)r);
    requires out == \null || \valid(out);
    requires r == \null || out == \null || \separated(out, r);
    assigns *out;
    ensures \result ==> r != \null && i < r->counter_count;
*/
bool perfbuf_v2_reginfo_counter(const perfbuf_v2_reginfo *r, uint32_t i, perfbuf_v2_counter_reg *out)
{
    if (r == NULL || out == NULL || i >= r->counter_count) {
        return false;
    }
    /* The parse proved counter_count whole counters after the header. */
    size_t at = PBS_PERF_COUNTERSET_REG_INFO + (size_t)i * PBS_PERF_COUNTER_REG_INFO;
    pb_cursor all = pb_cursor_make(r->data, r->size);
    const uint8_t *p;
    if (!pb_cursor_skip(&all, at) || !pb_cursor_take(&all, PBS_PERF_COUNTER_REG_INFO, &p)) {
        PB_UNREACHABLE();
        return false;
    }
    decode_counter(p, at, i, out);
    return true;
}

bool pb_v2_find_ascending(const uint8_t *data, size_t size, size_t first, size_t stride,
                          uint32_t n, uint32_t key, uint32_t *position)
{
    /* Every entry's key inside the data: the span from the first key to
     * the end of the last is taken from the cursor once, and each key is
     * then a load at a multiple of the stride inside it. Two factors below
     * 2^32: the span cannot wrap in 64 bits. */
    if (n == 0 || stride < 4 || stride > UINT32_MAX || first > size) {
        return false;
    }
    uint64_t span = (uint64_t)(n - 1) * stride + 4;
    pb_cursor all = pb_cursor_make(data, size);
    const uint8_t *keys;
    if (span > size - first || !pb_cursor_skip(&all, first) ||
        !pb_cursor_take(&all, (size_t)span, &keys)) {
        return false;
    }
    return pb_v2_find_in_keys(keys, stride, n, key, position);
}

/* The CounterId of counter i, for the ordering module. */
/*@ requires pb_reginfo_ok((perfbuf_v2_reginfo *)source);
    requires \valid(id);
    assigns *id;
*/
static bool read_counter_id(const void *source, uint32_t i, uint32_t *id)
{
    const perfbuf_v2_reginfo *r = source;
    size_t at = PBS_PERF_COUNTERSET_REG_INFO + (size_t)i * PBS_PERF_COUNTER_REG_INFO +
                pb_fields[PBF_PERF_COUNTER_REG_INFO_CounterId].offset;
    pb_cursor all = pb_cursor_make(r->data, r->size);
    return i < r->counter_count && pb_cursor_get_u32(&all, at, id);
}

/*@ requires r == \null || pb_reginfo_ok((perfbuf_v2_reginfo *)r);
    requires out == \null || \valid(out);
    requires r == \null || out == \null || \separated(out, r);
    assigns *out;
*/
perfbuf_status perfbuf_v2_reginfo_find(const perfbuf_v2_reginfo *r, uint32_t id,
                                       perfbuf_v2_counter_reg *out)
{
    if (r == NULL || out == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    uint32_t position = 0;
    bool found = false;
    if (r->ids_ascending) {
        /* The parse proved counter_count whole counters after the header:
         * they are taken from the cursor once, and the probe (or search)
         * and the entry read from them. A raw sample runs this per value. */
        pb_cursor all = pb_cursor_make(r->data, r->size);
        const uint8_t *counters;
        uint64_t bytes = (uint64_t)r->counter_count * PBS_PERF_COUNTER_REG_INFO;
        if (r->counter_count == 0 || !pb_cursor_skip(&all, PBS_PERF_COUNTERSET_REG_INFO) ||
            bytes > pb_cursor_remaining(&all) ||
            !pb_cursor_take(&all, (size_t)bytes, &counters) || counters == NULL ||
            !pb_v2_find_in_keys(counters + PBO_PERF_COUNTER_REG_INFO_CounterId,
                                PBS_PERF_COUNTER_REG_INFO, r->counter_count, id, &position)) {
            return PERFBUF_E_NOT_FOUND;
        }
        size_t at = (size_t)position * PBS_PERF_COUNTER_REG_INFO;
        decode_counter(counters + at, PBS_PERF_COUNTERSET_REG_INFO + at, position, out);
        return PERFBUF_OK;
    } else if (r->order != NULL) {
        found = pb_keys_find_sorted(r->order, r->order_count, id, &position);
    } else {
        /* Unordered without scratch: parse allowed this only for a small set. */
        /*@ loop invariant 0 <= i <= PERFBUF_V2_SMALL_SET;
            loop assigns i, found, position;
            loop variant PERFBUF_V2_SMALL_SET - i;
        */
        for (uint32_t i = 0; i < r->counter_count && i < PERFBUF_V2_SMALL_SET && !found; i++) {
            uint32_t k;
            found = read_counter_id(r, i, &k) && k == id;
            position = i;
        }
    }
    /* The scratch is the caller's memory: what it names is read again. */
    if (!found || !perfbuf_v2_reginfo_counter(r, position, out) || out->id != id) {
        return PERFBUF_E_NOT_FOUND;
    }
    return PERFBUF_OK;
}

/* A reference to another counter of the set: absent, or a counter whose
 * type can play the role. */
/*@ requires pb_ctx_ok(ctx) && pb_reginfo_ok((perfbuf_v2_reginfo *)r) && \valid_read(c);
    requires 0 <= field < PB_FIELD_COUNT;
    assigns *ctx->err;
*/
static perfbuf_status check_reference(pb_ctx *ctx, const perfbuf_v2_reginfo *r,
                                      const perfbuf_v2_counter_reg *c, uint32_t id,
                                      pb_field_id field)
{
    if (id == PERFBUF_V2_NO_ID) {
        return PERFBUF_OK;
    }
    perfbuf_v2_counter_reg target;
    bool fits = false;
    if (perfbuf_v2_reginfo_find(r, id, &target) == PERFBUF_OK && target.index != c->index) {
        /* MS-PCQ 2.2.4.2: a base counter; time and frequency as large raw
         * counts; the multi divisor as a raw count. */
        if (field == PBF_PERF_COUNTER_REG_INFO_BaseCounterId) {
            fits = perfbuf_counter_type_is_base(target.type);
        } else if (field == PBF_PERF_COUNTER_REG_INFO_MultiId) {
            fits = target.type == PERF_COUNTER_RAWCOUNT;
        } else {
            fits = target.type == PERF_COUNTER_LARGE_RAWCOUNT;
        }
    }
    return fits ? PERFBUF_OK : pb_fail(ctx, PERFBUF_E_BAD_REFERENCE, c->offset, field);
}

/* Ids unique, in one pass when they ascend, else sorted into scratch. */
/*@ requires pb_ctx_ok(ctx);
    requires \valid(r) && pb_reginfo_ok(r) && r->order == \null;
    requires (scratch == \null && cap == 0) || \valid(scratch + (0 .. cap - 1));
    requires \separated(ctx, r, scratch + (0 .. cap - 1));
    requires ctx->err == \null || \separated(ctx->err, r, scratch + (0 .. cap - 1));
    assigns r->ids_ascending, r->order, r->order_count, scratch[0 .. cap - 1], *ctx->err;
    ensures pb_reginfo_ok(r);
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status check_ids(pb_ctx *ctx, perfbuf_v2_reginfo *r, uint64_t *scratch, size_t cap)
{
    uint32_t duplicate = 0;
    size_t sorted = 0;
    size_t at_first = PBS_PERF_COUNTERSET_REG_INFO;
    switch (pb_keys_check(read_counter_id, r, r->counter_count, scratch, cap, &sorted, &duplicate)) {
    case PB_KEYS_ASCENDING:
        r->ids_ascending = true;
        return PERFBUF_OK;
    case PB_KEYS_SMALL:
        return PERFBUF_OK;
    case PB_KEYS_SORTED:
        r->order = scratch;
        r->order_count = sorted;
        return PERFBUF_OK;
    case PB_KEYS_DUPLICATE:
        return pb_fail(ctx, PERFBUF_E_DUPLICATE_ID,
                       at_first + (size_t)duplicate * PBS_PERF_COUNTER_REG_INFO,
                       PBF_PERF_COUNTER_REG_INFO_CounterId);
    case PB_KEYS_NEED_SCRATCH:
        break;
    }
    if (scratch != NULL) {
        return pb_fail(ctx, PERFBUF_E_OUTPUT_TOO_SMALL, 0, PBF_PERF_COUNTERSET_REG_INFO_NumCounters);
    }
    /* Name the first id that breaks the order: that is what needs sorting. */
    uint32_t i = 1;
    uint32_t prev = 0;
    uint32_t id = 0;
    /*@ loop invariant 1 <= i && (i <= r->counter_count || i == 1);
        loop assigns i, prev, id;
        loop variant r->counter_count - i;
    */
    while (i < r->counter_count && read_counter_id(r, i - 1, &prev) && read_counter_id(r, i, &id) &&
           prev < id) {
        i++;
    }
    return pb_fail(ctx, PERFBUF_E_SCRATCH_NEEDED, at_first + (size_t)i * PBS_PERF_COUNTER_REG_INFO,
                   PBF_PERF_COUNTER_REG_INFO_CounterId);
}

/* Clears a registration. A call rather than the copy in place, as
 * clear_counter_answer: past a structure copy the provers no longer see
 * that the context's fields are kept. */
/*@ requires \valid(out);
    assigns *out;
    ensures out->order == \null;
*/
static void clear_reginfo(perfbuf_v2_reginfo *out)
{
    *out = reginfo_zero;
}

/* Stores the finished registration into the caller's answer, for the
 * same reason a call. The provers do not take a field back out of a
 * structure copy (Z3 gives up, CVC4 times out), so the two fields the
 * caller's postcondition names are stored again: the caller's data and
 * size, which it put in r. */
/*@ requires \valid(out) && \valid_read(r) && \separated(out, r);
    assigns *out;
    ensures out->data == data && out->size == size;
*/
static void store_reginfo(perfbuf_v2_reginfo *out, const perfbuf_v2_reginfo *r,
                          const uint8_t *data, size_t size)
{
    *out = *r;
    out->data = data;
    out->size = size;
}

/* The anomalies the parse tolerated, into the registration. A call for
 * the same reason: first_anomaly is a structure, copied in place. */
/*@ requires \valid(r) && \valid_read(ctx) && \separated(r, ctx);
    assigns r->anomalies, r->first_anomaly;
*/
static void record_anomalies(perfbuf_v2_reginfo *r, const pb_ctx *ctx)
{
    r->anomalies = ctx->anomalies;
    r->first_anomaly = ctx->first_anomaly;
}

/*
 * parse_reginfo's steps, each in a function of its own with the same
 * checks in the same order: as one function, its postcondition and its
 * first loop's invariants on the cursor timed out at 20 s a goal; in
 * these, each goal proves in a few seconds.
 */

/* The counterset header's fields into *r, its reserved type, detail
 * level and instance type judged. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid((pb_cursor *)hdr) && \valid(r);
    requires \separated(ctx, hdr, r);
    requires ctx->err == \null || \separated(ctx->err, hdr, r);
    assigns r->counterset, r->detail_level, r->counter_count, r->instance_type,
            ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status read_reginfo_header(pb_ctx *ctx, const pb_cursor *hdr, perfbuf_v2_reginfo *r)
{
    perfbuf_status st = PERFBUF_OK;
    r->counterset = pb_field_guid(hdr, PBF_PERF_COUNTERSET_REG_INFO_CounterSetGuid);
    r->detail_level = pb_field32(hdr, PBF_PERF_COUNTERSET_REG_INFO_DetailLevel);
    r->counter_count = pb_field32(hdr, PBF_PERF_COUNTERSET_REG_INFO_NumCounters);
    r->instance_type = pb_field32(hdr, PBF_PERF_COUNTERSET_REG_INFO_InstanceType);
    if (pb_field32(hdr, PBF_PERF_COUNTERSET_REG_INFO_CounterSetType) != 0) {
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_RESERVED_NONZERO, PERFBUF_E_RESERVED_NONZERO, 0,
                        PBF_PERF_COUNTERSET_REG_INFO_CounterSetType);
    }
    if (st == PERFBUF_OK && !detail_known(r->detail_level)) {
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_UNKNOWN_VALUE, PERFBUF_E_UNKNOWN_VALUE, 0,
                        PBF_PERF_COUNTERSET_REG_INFO_DetailLevel);
    }
    if (st != PERFBUF_OK) {
        return st;
    }
    if (!instance_type_known(r->instance_type)) {
        return pb_fail(ctx, PERFBUF_E_UNKNOWN_VALUE, 0, PBF_PERF_COUNTERSET_REG_INFO_InstanceType);
    }
    return PERFBUF_OK;
}

/* The count against the bytes left and the limit, then each counter
 * decoded and checked, then the bytes after the last. */
/*@ requires pb_ctx_ok(ctx);
    requires pb_valid(all) && \valid(all);
    requires \separated(ctx, all);
    requires ctx->err == \null || \separated(ctx->err, all);
    assigns all->pos, ctx->anomalies, ctx->first_anomaly, *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status check_reginfo_counters(pb_ctx *ctx, pb_cursor *all, uint32_t count)
{
    perfbuf_status st;
    if (count > pb_cursor_remaining(all) / PBS_PERF_COUNTER_REG_INFO) {
        return pb_fail_compared(ctx, PERFBUF_E_COUNT_TOO_LARGE, 0,
                                PBF_PERF_COUNTERSET_REG_INFO_NumCounters, count,
                                pb_cursor_remaining(all) / PBS_PERF_COUNTER_REG_INFO);
    }
    if (count > ctx->max_counters) {
        return pb_fail_compared(ctx, PERFBUF_E_LIMIT_EXCEEDED, 0,
                                PBF_PERF_COUNTERSET_REG_INFO_NumCounters, count,
                                ctx->max_counters);
    }
    perfbuf_v2_counter_reg c;
    /*@ loop invariant 0 <= i <= count;
        loop invariant pb_valid(all);
        loop invariant all->end - all->pos >= (count - i) * PBS_PERF_COUNTER_REG_INFO;
        loop invariant pb_ctx_ok(ctx) && ctx->err == \at(ctx->err, Pre);
        loop assigns i, st, all->pos, c, ctx->anomalies, ctx->first_anomaly, *\at(ctx->err, Pre);
        loop variant count - i;
    */
    for (uint32_t i = 0; i < count; i++) {
        size_t at = all->pos;
        pb_cursor s;
        pb_take_checked(all, PBS_PERF_COUNTER_REG_INFO, &s);
        decode_counter(pb_cursor_data(&s), at, i, &c);
        st = check_counter(ctx, &s, &c);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    if (pb_cursor_remaining(all) > 0) {
        st = pb_anomaly(ctx, PERFBUF_ANOMALY_TRAILING_BYTES, PERFBUF_E_TRAILING_BYTES, 0,
                        PBF_PERF_COUNTERSET_REG_INFO_NumCounters);
        if (st != PERFBUF_OK) {
            return st;
        }
    }
    return PERFBUF_OK;
}

/* Every reference of every counter names a counter that can serve, found
 * in O(log n) through what check_ids learnt. */
/*@ requires pb_ctx_ok(ctx) && pb_reginfo_ok(r);
    requires \separated(ctx, r);
    requires ctx->err == \null || \separated(ctx->err, r);
    assigns *ctx->err;
    ensures pb_ctx_ok(ctx) && ctx->err == \old(ctx->err);
*/
static perfbuf_status check_reginfo_references(pb_ctx *ctx, const perfbuf_v2_reginfo *r)
{
    perfbuf_status st;
    perfbuf_v2_counter_reg c;
    /*@ loop invariant 0 <= i <= r->counter_count;
        loop invariant pb_ctx_ok(ctx) && ctx->err == \at(ctx->err, Pre);
        loop assigns i, st, c, *\at(ctx->err, Pre);
        loop variant r->counter_count - i;
    */
    for (uint32_t i = 0; perfbuf_v2_reginfo_counter(r, i, &c); i++) {
        if ((st = check_reference(ctx, r, &c, c.base_id, PBF_PERF_COUNTER_REG_INFO_BaseCounterId)) != PERFBUF_OK ||
            (st = check_reference(ctx, r, &c, c.perf_time_id, PBF_PERF_COUNTER_REG_INFO_PerfTimeId)) != PERFBUF_OK ||
            (st = check_reference(ctx, r, &c, c.perf_freq_id, PBF_PERF_COUNTER_REG_INFO_PerfFreqId)) != PERFBUF_OK ||
            (st = check_reference(ctx, r, &c, c.multi_id, PBF_PERF_COUNTER_REG_INFO_MultiId)) != PERFBUF_OK) {
            return st;
        }
    }
    return PERFBUF_OK;
}

/*@ requires data == \null || \valid_read((const uint8_t *)data + (0 .. size - 1));
    requires opts == \null || \valid_read(opts);
    requires (scratch == \null && cap == 0) || \valid(scratch + (0 .. cap - 1));
    requires out == \null || \valid(out);
    requires err == \null || \valid(err);
    requires out == \null || err == \null || \separated(out, err);
    requires err == \null || \separated(err, scratch + (0 .. cap - 1));
    requires out == \null || \separated(out, scratch + (0 .. cap - 1));
    assigns *out, *err, scratch[0 .. cap - 1];
    ensures \result == PERFBUF_OK ==>
        out->data == (const uint8_t *)data && out->size == size;
*/
static perfbuf_status parse_reginfo(const void *data, size_t size, const perfbuf_options *opts,
                                    uint64_t *scratch, size_t cap, perfbuf_v2_reginfo *out,
                                    perfbuf_error *err)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, opts, err);
    if (pb_check_arguments(&ctx, data, size, out) != PERFBUF_OK) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    clear_reginfo(out);
    pb_cursor all = pb_cursor_make((const uint8_t *)data, size);
    pb_cursor hdr;
    perfbuf_status st = pb_take_struct(&ctx, &all, PBS_PERF_COUNTERSET_REG_INFO,
                                       PBF_PERF_COUNTERSET_REG_INFO_CounterSetGuid, &hdr);
    if (st != PERFBUF_OK) {
        return st;
    }
    perfbuf_v2_reginfo r;
    clear_reginfo(&r);
    r.data = (const uint8_t *)data;
    r.size = size;
    if ((st = read_reginfo_header(&ctx, &hdr, &r)) != PERFBUF_OK) {
        return st;
    }
    if ((st = check_reginfo_counters(&ctx, &all, r.counter_count)) != PERFBUF_OK) {
        return st;
    }
    /* Ids unique; then every reference names a counter that can serve. */
    if ((st = check_ids(&ctx, &r, scratch, cap)) != PERFBUF_OK) {
        return st;
    }
    if ((st = check_reginfo_references(&ctx, &r)) != PERFBUF_OK) {
        return st;
    }
    record_anomalies(&r, &ctx);
    store_reginfo(out, &r, (const uint8_t *)data, size);
    return PERFBUF_OK;
}

/*@ requires data == \null || \valid_read((const uint8_t *)data + (0 .. size - 1));
    requires opts == \null || \valid_read(opts);
    requires out == \null || \valid(out);
    requires err == \null || \valid(err);
    requires out == \null || err == \null || \separated(out, err);
    assigns *out, *err;
    ensures \result == PERFBUF_OK ==>
        out->data == (const uint8_t *)data && out->size == size;
*/
perfbuf_status perfbuf_v2_reginfo_parse(const void *data, size_t size, const perfbuf_options *opts,
                                        perfbuf_v2_reginfo *out, perfbuf_error *err)
{
    return parse_reginfo(data, size, opts, NULL, 0, out, err);
}

/*@ requires data == \null || \valid_read((const uint8_t *)data + (0 .. size - 1));
    requires opts == \null || \valid_read(opts);
    requires scratch == \null || \valid(scratch + (0 .. cap - 1));
    requires out == \null || \valid(out);
    requires err == \null || \valid(err);
    requires out == \null || err == \null || \separated(out, err);
    requires err == \null || \separated(err, scratch + (0 .. cap - 1));
    requires out == \null || \separated(out, scratch + (0 .. cap - 1));
    assigns *out, *err, scratch[0 .. cap - 1];
    ensures \result == PERFBUF_OK ==>
        out->data == (const uint8_t *)data && out->size == size;
*/
perfbuf_status perfbuf_v2_reginfo_parse_indexed(const void *data, size_t size,
                                                const perfbuf_options *opts, uint64_t *scratch,
                                                size_t cap, perfbuf_v2_reginfo *out,
                                                perfbuf_error *err)
{
    if (scratch == NULL && cap != 0) {
        pb_ctx ctx;
        pb_ctx_init(&ctx, opts, err);
        return pb_check_arguments(&ctx, data, size, NULL);
    }
    return parse_reginfo(data, size, opts, scratch, cap, out, err);
}

/*@ requires data == \null || \valid_read((const uint8_t *)data + (0 .. size - 1));
    requires out == \null || \valid(out);
    requires err == \null || \valid(err);
    requires out == \null || err == \null || \separated(out, err);
    assigns *out, *err;
    ensures \result == PERFBUF_OK ==>
        out->data == (const uint8_t *)data && pb_countersets_ok(out);
*/
perfbuf_status perfbuf_v2_countersets_parse(const void *data, size_t size,
                                            perfbuf_v2_countersets *out, perfbuf_error *err)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, NULL, err);
    if (pb_check_arguments(&ctx, data, size, out) != PERFBUF_OK) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    out->data = NULL;
    out->count = 0;
    if (size % 16 != 0) {
        return pb_fail(&ctx, PERFBUF_E_SIZE_NOT_WHOLE_ITEMS, 0, PBF_COUNTERSET_LIST_Length);
    }
    out->data = (const uint8_t *)data;
    out->count = size / 16;
    return PERFBUF_OK;
}

/*@ requires l == \null || pb_countersets_ok((perfbuf_v2_countersets *)l);
    requires out == \null || \valid(out);
    assigns *out;
*/
bool perfbuf_v2_countersets_get(const perfbuf_v2_countersets *l, size_t i, perfbuf_guid *out)
{
    if (l == NULL || out == NULL || i >= l->count) {
        return false;
    }
    /* The parse proved count whole GUIDs. */
    pb_cursor all = pb_window(l->data, l->count * 16, i * 16, l->count * 16);
    const uint8_t *guid;
    if (!pb_cursor_take(&all, 16, &guid)) {
        PB_UNREACHABLE();
        return false;
    }
    *out = pb_v2_load_guid(guid);
    return true;
}

/*@ requires data == \null || \valid_read((const uint8_t *)data + (0 .. size - 1));
    requires opts == \null || \valid_read(opts);
    requires out == \null || \valid(out);
    requires err == \null || \valid(err);
    requires out == \null || err == \null || \separated(out, err);
    assigns *out, *err;
    ensures \result == PERFBUF_OK ==>
        out->data == (const uint8_t *)data && out->size == size;
*/
perfbuf_status perfbuf_v2_instance_list_parse(const void *data, size_t size,
                                              const perfbuf_options *opts,
                                              perfbuf_v2_instance_list *out, perfbuf_error *err)
{
    pb_ctx ctx;
    pb_ctx_init(&ctx, opts, err);
    if (pb_check_arguments(&ctx, data, size, out) != PERFBUF_OK) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    *out = instance_list_zero;
    pb_cursor all = pb_cursor_make((const uint8_t *)data, size);
    uint32_t count = 0;
    /* Each instance consumes at least its 8-byte header. */
    /*@ loop invariant pb_valid(&all) && all.bytes == (const uint8_t *)data;
        loop invariant all.start == 0 && all.end == \at(all.end, LoopEntry);
        loop invariant pb_ctx_ok(&ctx) && ctx.err == err;
        loop assigns all.pos, count, ctx.anomalies, ctx.first_anomaly, *err;
        loop variant all.end - all.pos;
    */
    while (pb_cursor_remaining(&all) > 0) {
        if (count >= ctx.max_instances) {
            return pb_fail(&ctx, PERFBUF_E_LIMIT_EXCEEDED, all.pos, PBF_PERF_INSTANCE_HEADER_Size);
        }
        perfbuf_v2_instance inst;
        perfbuf_status st = pb_v2_read_instance(&ctx, &all, 0, &inst);
        if (st != PERFBUF_OK) {
            return st;
        }
        count++;
    }
    out->data = (const uint8_t *)data;
    out->size = size;
    out->count = count;
    out->anomalies = ctx.anomalies;
    out->first_anomaly = ctx.first_anomaly;
    return PERFBUF_OK;
}

/*@ requires \valid(it);
    assigns *it;
*/
void perfbuf_v2_instance_list_begin(perfbuf_v2_list_iter *it)
{
    it->pos = 0;
    it->next_index = 0;
}

/*
 * A listed instance as the parse accepted it: Size and InstanceId at their
 * offsets, the name up to its NUL; region stepped past it. Neither the
 * alignment nor the padding is judged again. What is left holds for any
 * bytes: Size covers the header and lies inside the region (each step
 * moves forward by at least 8 bytes) and the name has its NUL; anything
 * else is a view of another buffer: false.
 */
/*@ requires pb_valid(region) && \valid(region);
    requires \valid(out) && \separated(region, out);
    assigns region->pos, *out;
    ensures pb_valid(region);
*/
static bool view_listed_instance(pb_cursor *region, perfbuf_v2_listed_instance *out)
{
    size_t at = region->pos;
    const uint8_t *hdr;
    if (!pb_cursor_take(region, PBS_PERF_INSTANCE_HEADER, &hdr)) {
        return false;
    }
    uint32_t size = pb_le32(hdr + PBO_PERF_INSTANCE_HEADER_Size);
    pb_cursor name;
    size_t units;
    if (size < PBS_PERF_INSTANCE_HEADER ||
        !pb_cursor_sub(region, size - PBS_PERF_INSTANCE_HEADER, &name) ||
        !pb_utf16le_find_nul(&name, &units)) {
        return false;
    }
    out->id = pb_le32(hdr + PBO_PERF_INSTANCE_HEADER_InstanceId);
    out->offset = at;
    out->name_offset = name.start;
    out->name_units = units;
    return true;
}

/*@ requires l == \null || pb_instance_list_ok((perfbuf_v2_instance_list *)l);
    requires it == \null || \valid(it);
    requires out == \null || \valid(out);
    requires it == \null || out == \null || \separated(it, out);
    assigns *it, *out;
*/
bool perfbuf_v2_instance_list_next(const perfbuf_v2_instance_list *l, perfbuf_v2_list_iter *it,
                                   perfbuf_v2_listed_instance *out)
{
    if (l == NULL || it == NULL || out == NULL || it->next_index >= l->count) {
        return false;
    }
    pb_cursor c = pb_window(l->data, l->size, it->pos, l->size);
    if (!view_listed_instance(&c, out)) {
        /* An iterator or view of another buffer: nothing to read. */
        it->next_index = l->count;
        return false;
    }
    out->index = it->next_index++;
    it->pos = c.pos;
    return true;
}

/*@ requires l == \null || pb_instance_list_ok((perfbuf_v2_instance_list *)l);
    requires inst == \null || \valid_read(inst);
    requires out == \null || \valid(out + (0 .. cap - 1));
    requires len == \null || \valid(len);
    requires \separated(out + (0 .. cap - 1), len);
    assigns out[0 .. cap - 1], *len;
*/
perfbuf_status perfbuf_v2_listed_name_utf8(const perfbuf_v2_instance_list *l,
                                           const perfbuf_v2_listed_instance *inst, char *out,
                                           size_t cap, size_t *len)
{
    if (l == NULL || inst == NULL || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    return pb_view_utf16_to_utf8(l->data, l->size, inst->name_offset, inst->name_units, out, cap,
                                 len);
}
