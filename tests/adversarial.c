/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "adversarial.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder_v2meta.h"
#include "collector_fixture.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/v1.h"
#include "perfbuf/v2_query.h"

static void *must_alloc(size_t n)
{
    void *p = malloc(n == 0 ? 1 : n);
    if (p == NULL) {
        fprintf(stderr, "adversarial: out of memory\n");
        exit(2);
    }
    return p;
}

/* A NUL-terminated run of n copies of c, then `last` if not NUL. */
static char *run_of(uint32_t n, char c, char last)
{
    char *s = must_alloc((size_t)n + 2);
    memset(s, c, n);
    size_t len = n;
    if (last != '\0') {
        if (n > 0) {
            s[n - 1] = last;
        } else {
            s[len++] = last;
        }
    }
    s[len] = '\0';
    return s;
}

/* ---- V1 ---- */

uint64_t adv_v1_value(uint32_t object, uint32_t instance, uint32_t k)
{
    switch (k) {
    case 0:
        return (uint32_t)(object * 1000u + instance);
    case 1:
        return ((uint64_t)object << 32) + (uint64_t)instance * 7u + 1u;
    case 2:
        return (object + instance) % 100u;
    default:
        return 100u;
    }
}

static void v1_object(tb_v1 *v, uint32_t object, uint32_t code_page)
{
    tb_v1_object_begin(v, ADV_V1_TITLE(object), 0, code_page);
    tb_v1_counter(v, 2, PERF_COUNTER_RAWCOUNT, 4, 8);
    tb_v1_counter(v, 4, PERF_COUNTER_LARGE_RAWCOUNT, 8, 16);
    tb_v1_counter(v, 6, PERF_RAW_FRACTION, 4, 24);
    tb_v1_counter(v, 0, PERF_RAW_BASE, 4, 28);
    tb_v1_definitions_end(v);
}

static void v1_instance(tb_v1 *v, uint32_t object, uint32_t i, const char *name,
                        uint32_t parent_title, uint32_t parent_instance)
{
    uint8_t data[28] = {0};
    tb_put32(data, 8, (uint32_t)adv_v1_value(object, i, 0));
    tb_put64(data, 16, adv_v1_value(object, i, 1));
    tb_put32(data, 24, (uint32_t)adv_v1_value(object, i, 2));
    tb_put32(data, 28, (uint32_t)adv_v1_value(object, i, 3));
    tb_v1_instance(v, name, parent_title, parent_instance);
    tb_v1_counter_block(v, data, sizeof data);
}

tb_buf adv_v1_many_objects(uint32_t n)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    char name[32];
    for (uint32_t i = 0; i < n; i++) {
        v1_object(&v, i, 0);
        snprintf(name, sizeof name, "o%u", i);
        v1_instance(&v, i, 0, name, i > 0 ? ADV_V1_TITLE(i - 1) : 0, 0);
        tb_v1_object_end(&v);
    }
    tb_v1_end(&v);
    return v.buf;
}

tb_buf adv_v1_many_instances(uint32_t n)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    char name[32];
    v1_object(&v, 0, 0);
    for (uint32_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "p%u", i);
        v1_instance(&v, 0, i, name, 0, 0);
    }
    tb_v1_object_end(&v);
    v1_object(&v, 1, 0);
    for (uint32_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "c%u", i);
        v1_instance(&v, 1, i, name, ADV_V1_TITLE(0), n - 1 - i);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

tb_buf adv_v1_many_counters(uint32_t n, int reversed)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, ADV_V1_TITLE(0), 1, 0);
    for (uint32_t j = 0; j < n; j++) {
        uint32_t k = reversed ? n - 1 - j : j;
        tb_v1_counter(&v, 2 * k + 2, PERF_COUNTER_RAWCOUNT, 4, 4 + 4 * k);
    }
    tb_v1_definitions_end(&v);
    uint8_t *data = must_alloc((size_t)n * 4);
    for (uint32_t k = 0; k < n; k++) {
        tb_put32(data, 4 + 4 * k, 3 * k + 1);
    }
    tb_v1_counter_block(&v, data, 4 * n);
    free(data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

uint64_t adv_v1_shared_value(uint32_t instance, uint32_t k)
{
    return k == 0 ? 2u * (uint64_t)instance + 1u : ((uint64_t)instance + 1u) << 32;
}

tb_buf adv_v1_shared_offset(uint32_t definitions, uint32_t instances, int over)
{
    uint32_t far = 4 * definitions - 4;
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, ADV_V1_TITLE(0), 0, 0);
    tb_v1_counter(&v, 2, PERF_COUNTER_LARGE_RAWCOUNT, 8, far);
    uint32_t shared = definitions + (over ? 1u : 0u);
    for (uint32_t k = 1; k <= shared; k++) {
        tb_v1_counter(&v, 2 * k + 2, PERF_COUNTER_LARGE_RAWCOUNT, 8, 8);
    }
    tb_v1_definitions_end(&v);
    /* The block's bytes after its ByteLength, up to the far field's end. */
    uint32_t data_bytes = far + 8 - 4;
    uint8_t *data = must_alloc(data_bytes);
    for (uint32_t i = 0; i < instances; i++) {
        memset(data, 0, data_bytes);
        tb_put64(data, far, adv_v1_shared_value(i, 0));
        tb_put64(data, 8, adv_v1_shared_value(i, 1));
        tb_v1_instance(&v, "s", 0, 0);
        tb_v1_counter_block(&v, data, data_bytes);
    }
    free(data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

tb_buf adv_v1_dense_zero(uint32_t instances)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, ADV_V1_TITLE(0), 0, 0);
    for (uint32_t k = 0; k < ADV_V1_DENSE_COUNTERS; k++) {
        tb_v1_counter(&v, 2 * k + 2, PERF_COUNTER_NODATA, 0, k / 2);
    }
    tb_v1_definitions_end(&v);
    uint8_t data[ADV_V1_DENSE_COUNTERS / 2 - 4] = {0};
    for (uint32_t i = 0; i < instances; i++) {
        tb_v1_instance(&v, "z", 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

tb_buf adv_v1_doubles_worst(uint32_t n, uint32_t tick)
{
    /* type, size: the pairs take the definition after them. */
    static const struct {
        uint32_t type, size;
    } counters[16] = {
        {PERF_RAW_FRACTION, 4},        {PERF_RAW_BASE, 4},
        {PERF_COUNTER_COUNTER, 4},     {PERF_COUNTER_BULK_COUNT, 8},
        {PERF_AVERAGE_TIMER, 4},       {PERF_AVERAGE_BASE, 4},
        {PERF_COUNTER_RAWCOUNT, 12},   {PERF_COUNTER_LARGE_RAWCOUNT, 8},
        {PERF_100NSEC_MULTI_TIMER, 8}, {PERF_COUNTER_MULTI_BASE, 8},
        {PERF_SAMPLE_FRACTION, 4},     {PERF_SAMPLE_BASE, 4},
        {PERF_COUNTER_TIMER, 8},       {PERF_100NSEC_TIMER_INV, 8},
        {PERF_LARGE_RAW_FRACTION, 8},  {PERF_LARGE_RAW_BASE, 8},
    };
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    uint32_t objects = (n + ADV_V1_DOUBLES_ROWS - 1u) / ADV_V1_DOUBLES_ROWS;
    uint32_t offsets[16];
    uint8_t data[8 + 16 * 12];
    char name[32];
    for (uint32_t object = 0; object < objects; object++) {
        tb_v1_object_begin(&v, ADV_V1_TITLE(object), 0, 0);
        uint32_t at = 8;
        for (uint32_t k = 0; k < 16; k++) {
            offsets[k] = at;
            tb_v1_counter(&v, 2 * k + 2, counters[k].type, counters[k].size, at);
            at += counters[k].size;
        }
        tb_v1_definitions_end(&v);
        uint32_t block = (at + 7u) & ~7u;
        for (uint32_t i = 0; i < ADV_V1_DOUBLES_ROWS; i++) {
            memset(data, 0, sizeof data);
            for (uint32_t k = 0; k < 16; k++) {
                uint64_t value = adv_v1_value(object, i, k) + (uint64_t)tick * (k + 1u);
                if (counters[k].size == 8) {
                    tb_put64(data, offsets[k], value);
                } else {
                    tb_put32(data, offsets[k], (uint32_t)value);
                }
            }
            snprintf(name, sizeof name, "d%u", i);
            tb_v1_instance(&v, name, 0, 0);
            tb_v1_counter_block(&v, data, block);
        }
        tb_v1_object_end(&v);
    }
    tb_v1_end(&v);
    /* Both captures' clocks apart by `tick` seconds, and every rate scaled
     * by 10^3 (DefaultScale, the sixth DWORD of PERF_COUNTER_DEFINITION). */
    uint64_t t = 123456789u + (uint64_t)tick * 10000000u;
    uint64_t t100 = 134398148561470699ull + (uint64_t)tick * 10000000u;
    for (int i = 0; i < 8; i++) {
        v.buf.data[56 + i] = (uint8_t)(t >> (8 * i));
        v.buf.data[72 + i] = (uint8_t)(t100 >> (8 * i));
    }
    perfbuf_v1_block b;
    perfbuf_v1_iter oi;
    perfbuf_v1_iter ci;
    perfbuf_v1_object o;
    perfbuf_v1_counter c;
    if (perfbuf_v1_parse(v.buf.data, v.buf.len, NULL, &b, NULL) == PERFBUF_OK) {
        perfbuf_v1_objects_begin(&b, &oi);
        while (perfbuf_v1_objects_next(&b, &oi, &o)) {
            perfbuf_v1_counters_begin(&o, &ci);
            while (perfbuf_v1_counters_next(&b, &ci, &c)) {
                if (c.type == PERF_COUNTER_COUNTER || c.type == PERF_COUNTER_BULK_COUNT) {
                    v.buf.data[c.offset + 20u] = 3;
                }
            }
        }
    }
    return v.buf;
}

tb_buf adv_v1_long_parent(uint32_t n)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    char *parent = run_of(n, 'P', '\0');
    v1_object(&v, 0, 0);
    v1_instance(&v, 0, 0, parent, 0, 0);
    tb_v1_object_end(&v);
    free(parent);
    v1_object(&v, 1, 0);
    for (uint32_t i = 0; i < n; i++) {
        v1_instance(&v, 1, i, "c", ADV_V1_TITLE(0), 0);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

tb_buf adv_v1_two_parents(uint32_t n)
{
    return adv_v1_two_parents_of(n, n);
}

tb_buf adv_v1_two_parents_of(uint32_t n, uint32_t parent_chars)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    for (uint32_t p = 0; p < 2; p++) {
        char *parent = run_of(parent_chars, 'P', p == 0 ? 'A' : 'B');
        v1_object(&v, p, 0);
        v1_instance(&v, p, 0, parent, 0, 0);
        tb_v1_object_end(&v);
        free(parent);
    }
    v1_object(&v, 2, 0);
    for (uint32_t i = 0; i < n; i++) {
        v1_instance(&v, 2, i, "c", ADV_V1_TITLE(i % 2), 0);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

uint32_t adv_v1_alternating_parent_count(uint32_t n)
{
    return n / 128u > 2u ? n / 128u : 2u;
}

tb_buf adv_v1_alternating_parents(uint32_t n)
{
    uint32_t parents = adv_v1_alternating_parent_count(n);
    size_t cap = 2u * ADV_V1_PARENT_CHARS + 16u;
    char *name = must_alloc(cap);
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    v1_object(&v, 0, 0);
    for (uint32_t p = 0; p < parents; p++) {
        for (uint32_t k = 0; k < ADV_V1_PARENT_CHARS; k++) {
            name[2 * k] = (char)0xC3;
            name[2 * k + 1] = (char)0xA9;
        }
        snprintf(name + 2u * ADV_V1_PARENT_CHARS, 16, "%u", p);
        v1_instance(&v, 0, p, name, 0, 0);
    }
    tb_v1_object_end(&v);
    free(name);
    v1_object(&v, 1, 0);
    for (uint32_t i = 0; i < n; i++) {
        v1_instance(&v, 1, i, "c", ADV_V1_TITLE(0), i % parents);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

tb_buf adv_v1_shared_prefix(uint32_t n, uint32_t prefix_chars)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    v1_object(&v, 0, 0);
    char *name = must_alloc((size_t)prefix_chars + 16);
    for (uint32_t i = 0; i < n; i++) {
        memset(name, i % 2 == 0 ? 'N' : 'n', prefix_chars);
        snprintf(name + prefix_chars, 16, "%u", (n - 1 - i) / 2);
        v1_instance(&v, 0, i, name, 0, 0);
    }
    free(name);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

/* Bytes a 1252, 65001 or 20127 decoder must replace: unassigned in 1252
 * (0x81, 0x8D), invalid or truncated UTF-8, above 0x7F for ASCII. */
static const uint8_t hostile_bytes[8] = {'a', 0x81, 0xC0, 0xFF, 0xE2, 0x82, 0x8D, 'z'};

tb_buf adv_v1_code_page(uint32_t n, uint32_t code_page)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    v1_object(&v, 0, code_page);
    char name[32];
    for (uint32_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "a\x81\xC0\xFF\xE2\x82%u", i);
        v1_instance(&v, 0, i, name, 0, 0);
    }
    char *long_name = must_alloc((size_t)n + 1);
    for (uint32_t i = 0; i < n; i++) {
        long_name[i] = (char)hostile_bytes[i % 8];
    }
    long_name[n] = '\0';
    v1_instance(&v, 0, n, long_name, 0, 0);
    free(long_name);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

tb_buf adv_v1_long_name(uint32_t n, uint32_t code_page)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    v1_object(&v, 0, code_page);
    char *name = must_alloc((size_t)n + 1);
    for (uint32_t i = 0; i < n; i++) {
        name[i] = (char)hostile_bytes[i % 8];
    }
    name[n] = '\0';
    v1_instance(&v, 0, 0, name, 0, 0);
    free(name);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

tb_buf adv_v1_long_system_name(uint32_t n)
{
    /* tb_utf16 writes what a 3-byte sequence encodes, U+DC00 included. */
    char *name = must_alloc((size_t)n * 3 + 1);
    size_t len = 0;
    for (uint32_t j = 0; j < n; j++) {
        if (j % 4 == 3) {
            memcpy(name + len, "\xED\xB0\x80", 3);
            len += 3;
        } else {
            name[len++] = 'h';
        }
    }
    name[len] = '\0';
    tb_v1 v;
    tb_v1_begin(&v, name);
    tb_v1_end(&v);
    free(name);
    return v.buf;
}

tb_buf adv_v1_same_names(uint32_t n)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    v1_object(&v, 0, 0);
    for (uint32_t i = 0; i < n; i++) {
        v1_instance(&v, 0, i, "svchost", 0, 0);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

/* ---- V1 pairing ---- */

static tb_buf pair_capture(uint32_t second, uint32_t n, int shape, int newer)
{
    cf_process *procs = must_alloc(sizeof *procs * ((size_t)n + n / 10 + 1));
    size_t stride = shape == 4 ? 3 * (size_t)ADV_PAIR_LONG_NAME + 16 : 16;
    char *names = must_alloc(((size_t)n + n / 10 + 1) * stride);
    char *parent = run_of(ADV_PAIR_PARENT_UNITS, 'P', '\0');
    const char *parents[2] = {parent, parent};
    uint32_t count = 0;
    if (shape == 0 && newer) {
        for (uint32_t i = 0; i < n / 10; i++) {
            char *name = names + stride * (size_t)count;
            snprintf(name, 16, "new%u", i);
            procs[count++] = (cf_process){name, -1, -1, 0, i};
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        if ((shape == 0 && newer && i % 10 == 0) || (shape == 1 && newer && i == 0)) {
            continue;
        }
        char *name = names + stride * (size_t)count;
        int parent_of = -1;
        switch (shape) {
        case 0: snprintf(name, 16, "p%u", i); break;
        case 1: snprintf(name, 16, "svchost"); break;
        case 2: snprintf(name, 16, "c"); parent_of = 0; break;
        case 4:
            for (uint32_t k = 0; k < ADV_PAIR_LONG_NAME; k++) {
                memcpy(name + 3 * (size_t)k, "\xE2\x82\xAC", 3); /* U+20AC */
            }
            snprintf(name + 3 * (size_t)ADV_PAIR_LONG_NAME, 16, "%u", i);
            break;
        default:
            snprintf(name, 16, "c%u", i / 2);
            parent_of = (int)((i + (uint32_t)newer) % 2);
            break;
        }
        procs[count++] = (cf_process){name, parent_of, -1, (uint64_t)i * second, i};
    }
    tb_buf b = cf_capture(second, parents, shape >= 2 ? 2 : 0, procs, count, 0);
    free(parent);
    free(names);
    free(procs);
    return b;
}

void adv_pair(uint32_t n, int shape, tb_buf *older, tb_buf *newer)
{
    *older = pair_capture(0, n, shape, 0);
    *newer = pair_capture(1, n, shape, 1);
}

static tb_buf pair_v2_capture(uint32_t second, uint32_t n, int shape, int newer)
{
    cf_v2_instance *procs = must_alloc(sizeof *procs * ((size_t)n + n / 10 + 1));
    char *names = must_alloc(((size_t)n + n / 10 + 1) * 16);
    uint32_t count = 0;
    if (shape == 0 && newer) {
        for (uint32_t i = 0; i < n / 10; i++) {
            char *name = names + 16 * (size_t)count;
            snprintf(name, 16, "new%u", i);
            procs[count++] = (cf_v2_instance){n + i, name, 0, i};
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        if ((shape == 0 && newer && i % 10 == 0) || (shape == 1 && newer && i == 0)) {
            continue;
        }
        char *name = names + 16 * (size_t)count;
        snprintf(name, 16, shape == 0 ? "i%u" : "w", i);
        procs[count++] = (cf_v2_instance){shape == 0 ? i : 7u, name, (uint64_t)i * second, i};
    }
    tb_buf b = cf_v2_capture(second, procs, count);
    free(names);
    free(procs);
    return b;
}

void adv_pair_v2(uint32_t n, int shape, tb_buf *older, tb_buf *newer)
{
    *older = pair_v2_capture(0, n, shape, 0);
    *newer = pair_v2_capture(1, n, shape, 1);
}

void adv_pair_unique_id(uint32_t n, tb_buf *older, tb_buf *newer)
{
    cf_process *procs = calloc((size_t)n + 1u, sizeof *procs);
    for (uint32_t i = 0; i < n; i++) {
        procs[i] = (cf_process){"svchost", -1, (int32_t)i, 1000u * (uint64_t)i, i};
    }
    *older = cf_capture(0, NULL, 0, procs, n, 0);
    for (uint32_t i = 0; i < n; i++) {
        procs[i].cpu = 2000u * (uint64_t)i;
    }
    *newer = cf_capture(1, NULL, 0, procs + 1, n > 0 ? n - 1u : 0u, 0);
    free(procs);
}

static tb_buf every_counter_capture(uint32_t n, uint32_t first, bool one_title)
{
    uint32_t counters = n / 8u + 1u, name_units = n / 8u + 1u;
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, CF_PROCESS, 0, 0);
    for (uint32_t k = 0; k < counters; k++) {
        tb_v1_counter(&v, one_title ? 1000u : 1000u + 2u * k, PERF_COUNTER_RAWCOUNT, 4,
                      8u + 4u * k);
    }
    tb_v1_definitions_end(&v);
    char *name = must_alloc((size_t)name_units + 16u);
    uint8_t *data = must_alloc(8u + 4u * (size_t)counters);
    for (uint32_t i = first; i < ADV_EVERY_INSTANCES; i++) {
        memset(name, 'a', name_units);
        snprintf(name + name_units, 16, "%u", i);
        tb_v1_instance(&v, name, 0, 0);
        memset(data, 0, 8u + 4u * (size_t)counters);
        for (uint32_t k = 0; k < counters; k++) {
            tb_put32(data, 8u + 4u * k, i + k);
        }
        tb_v1_counter_block(&v, data, 8u + 4u * counters);
    }
    free(data);
    free(name);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

static tb_buf repeated_title_capture(uint32_t n, uint32_t first)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    char name[32];
    for (uint32_t i = first; i < n; i++) {
        tb_v1_object_begin(&v, CF_PROCESS, 0, 0);
        tb_v1_counter(&v, CF_CPU, PERF_100NSEC_TIMER, 8, 8);
        tb_v1_counter(&v, CF_COUNT, PERF_COUNTER_RAWCOUNT, 4, 16);
        tb_v1_definitions_end(&v);
        snprintf(name, sizeof name, "p%u", i);
        tb_v1_instance(&v, name, 0, 0);
        uint8_t data[20] = {0};
        tb_put64(data, 8, (uint64_t)i * 1000u);
        tb_put32(data, 16, i);
        tb_v1_counter_block(&v, data, sizeof data);
        tb_v1_object_end(&v);
    }
    tb_v1_end(&v);
    return v.buf;
}

void adv_repeated_title(uint32_t n, tb_buf *older, tb_buf *newer)
{
    *older = repeated_title_capture(n, 0);
    *newer = repeated_title_capture(n, 1);
}

void adv_every_counter(uint32_t n, tb_buf *older, tb_buf *newer)
{
    *older = every_counter_capture(n, 0, false);
    *newer = every_counter_capture(n, 1, false);
}

void adv_one_title_definitions(uint32_t n, tb_buf *older, tb_buf *newer)
{
    *older = every_counter_capture(n, 0, true);
    *newer = every_counter_capture(n, 1, true);
}

/* ---- V1 name tables ---- */

tb_buf adv_names(uint32_t n, int order)
{
    tb_buf b;
    tb_init(&b);
    char text[32];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t index = ADV_NAMES_BASE + (order == 0 ? 2 * i + 2 : order == 1 ? 2 * (n - i) : 2);
        snprintf(text, sizeof text, "%u", index);
        tb_utf16(&b, text, 1);
        snprintf(text, sizeof text, "T%u", index);
        tb_utf16(&b, text, 1);
    }
    tb_u16(&b, 0);
    return b;
}

tb_buf adv_names_long_text(uint32_t n)
{
    char index[16];
    tb_buf b;
    tb_init(&b);
    snprintf(index, sizeof index, "%u", ADV_NAMES_BASE + 2);
    tb_utf16(&b, index, 1);
    char *text = run_of(n, 'x', '\0');
    tb_utf16(&b, text, 1);
    free(text);
    tb_u16(&b, 0);
    return b;
}

tb_buf adv_names_texts(uint32_t n, int shape)
{
    tb_buf b;
    tb_init(&b);
    char text[ADV_NAMES_PREFIX + 32];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t index = ADV_NAMES_BASE + 2 * i + 2;
        if (shape == 2) {
            index = ADV_NAMES_BASE + 2 * (64 * (i / 64) + 63 - i % 64) + 2;
        }
        snprintf(text, sizeof text, "%u", index);
        tb_utf16(&b, text, 1);
        if (shape == 0) {
            snprintf(text, sizeof text, "Same");
        } else if (shape == 1) {
            memset(text, 'a', ADV_NAMES_PREFIX);
            snprintf(text + ADV_NAMES_PREFIX, sizeof text - ADV_NAMES_PREFIX, "%07u", 9999999u - i);
        } else {
            snprintf(text, sizeof text, "T%u", index);
        }
        tb_utf16(&b, text, 1);
    }
    tb_u16(&b, 0);
    return b;
}

tb_buf adv_v1_titled_counters(uint32_t n)
{
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, ADV_NAMES_BASE, 1, 0);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t title = ADV_NAMES_BASE + 2 * (64 * (i / 64) + 63 - i % 64) + 2;
        tb_v1_counter(&v, title, PERF_COUNTER_RAWCOUNT, 4, 4 + 4 * i);
    }
    tb_v1_definitions_end(&v);
    uint8_t *data = calloc(n ? n : 1, 4);
    if (data == NULL) {
        abort();
    }
    tb_v1_counter_block(&v, data, 4 * n);
    free(data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

void adv_v2_named_counters(uint32_t n, tb_buf *reginfo, tb_buf *strings)
{
    tb_reg_row *rows = calloc(n ? n : 1, sizeof *rows);
    char *names = calloc(n ? n : 1, ADV_NAMES_PREFIX + 12);
    if (rows == NULL || names == NULL) {
        abort();
    }
    for (uint32_t k = 0; k < n; k++) {
        char *name = names + (size_t)k * (ADV_NAMES_PREFIX + 12);
        memset(name, 'a', ADV_NAMES_PREFIX);
        snprintf(name + ADV_NAMES_PREFIX, 12, "%07u", k);
        rows[k].id = k;
        rows[k].type = PERF_COUNTER_RAWCOUNT;
        rows[k].base = PERFBUF_V2_NO_ID;
        rows[k].name = name;
    }
    *reginfo = tb_v2_reginfo(rows, n, PERFBUF_COUNTERSET_MULTI_INSTANCES);
    *strings = tb_v2_strings(rows, n, PERFBUF_V2_STRINGS_FROM_ARRAY_END);
    free(rows);
    free(names);
}

/* ---- V2 query data ---- */

static const uint32_t four_ids[4] = {0, 1, 2, 3};

tb_v2 adv_v2_many_blocks(uint32_t n)
{
    tb_v2 v;
    tb_v2_begin(&v, 5000, 133000000000000000, 10000000);
    char name[32];
    for (uint32_t i = 0; i < n; i++) {
        switch (i % 5) {
        case 0:
            tb_v2_block_begin(&v, 0x1068, PERFBUF_V2_ERROR_RETURN);
            break;
        case 1:
            tb_v2_block_begin(&v, 0, PERFBUF_V2_SINGLE_COUNTER);
            tb_v2_u64(&v, i);
            break;
        case 2:
            tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
            tb_v2_ids(&v, four_ids, 4);
            for (uint32_t k = 0; k < 4; k++) {
                tb_v2_u64(&v, 10u * i + k);
            }
            break;
        case 3:
            tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_INSTANCES);
            tb_v2_instances_begin(&v, 2);
            snprintf(name, sizeof name, "a%u", i);
            tb_v2_instance(&v, 0, name);
            tb_v2_u32(&v, i);
            snprintf(name, sizeof name, "b%u", i);
            tb_v2_instance(&v, 1, name);
            tb_v2_u32(&v, i + 1);
            tb_v2_instances_end(&v);
            break;
        default:
            tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
            tb_v2_ids(&v, four_ids, 4);
            tb_v2_instances_begin(&v, 2);
            for (uint32_t j = 0; j < 2; j++) {
                snprintf(name, sizeof name, "%c%u", j == 0 ? 'a' : 'b', i);
                tb_v2_instance(&v, j, name);
                for (uint32_t k = 0; k < 4; k++) {
                    tb_v2_u64(&v, 100u * i + 10u * j + k);
                }
            }
            tb_v2_instances_end(&v);
            break;
        }
        tb_v2_block_end(&v);
    }
    tb_v2_end(&v);
    return v;
}

static uint32_t *ascending_ids(uint32_t n)
{
    uint32_t *ids = must_alloc(sizeof *ids * (n == 0 ? 1 : n));
    for (uint32_t k = 0; k < n; k++) {
        ids[k] = k;
    }
    return ids;
}

tb_v2 adv_v2_wide(uint32_t n)
{
    uint32_t *ids = ascending_ids(n);
    tb_v2 v;
    tb_v2_begin(&v, 5000, 133000000000000000, 10000000);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
    tb_v2_ids(&v, ids, n);
    for (uint32_t k = 0; k < n; k++) {
        tb_v2_u64(&v, k);
    }
    tb_v2_block_end(&v);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(&v, ids, n);
    tb_v2_instances_begin(&v, 2);
    for (uint32_t j = 0; j < 2; j++) {
        tb_v2_instance(&v, j, j == 0 ? "a" : "b");
        for (uint32_t k = 0; k < n; k++) {
            tb_v2_u64(&v, 1000000u * (j + 1) + k);
        }
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    free(ids);
    return v;
}

tb_v2 adv_v2_many_instances(uint32_t n)
{
    tb_v2 v;
    tb_v2_begin(&v, 5000, 133000000000000000, 10000000);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(&v, four_ids, 4);
    tb_v2_instances_begin(&v, n);
    char name[32];
    for (uint32_t j = 0; j < n; j++) {
        snprintf(name, sizeof name, "i%u", j);
        tb_v2_instance(&v, j, name);
        for (uint32_t k = 0; k < 4; k++) {
            tb_v2_u32(&v, 4 * j + k);
        }
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    return v;
}

/* adv_v2_doubles_worst's counters: type, and the ids of the base, time,
 * frequency and multi counters each refers to. */
static const struct {
    uint32_t type, base, time, frequency, multi;
} doubles_counters[ADV_V2_DOUBLES_COUNTERS] = {
    {PERF_RAW_FRACTION, 1, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_RAW_BASE, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_COUNTER_COUNTER, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_AVERAGE_BULK, 4, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_AVERAGE_BASE, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_OBJ_TIME_TIMER, PERFBUF_V2_NO_ID, 6, 7, PERFBUF_V2_NO_ID},
    {PERF_COUNTER_LARGE_RAWCOUNT, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_COUNTER_LARGE_RAWCOUNT, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_100NSEC_MULTI_TIMER, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, 9},
    {PERF_COUNTER_RAWCOUNT, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_SAMPLE_FRACTION, 11, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_SAMPLE_BASE, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_COUNTER_TIMER, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_100NSEC_TIMER_INV, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_ELAPSED_TIME, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
    {PERF_AVERAGE_TIMER, 4, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID},
};

tb_buf adv_v2_doubles_registration(void)
{
    tb_reg_row rows[ADV_V2_DOUBLES_COUNTERS];
    for (uint32_t k = 0; k < ADV_V2_DOUBLES_COUNTERS; k++) {
        rows[k].id = k;
        rows[k].type = doubles_counters[k].type;
        rows[k].base = doubles_counters[k].base;
        rows[k].name = NULL;
    }
    tb_buf reg = tb_v2_reginfo(rows, ADV_V2_DOUBLES_COUNTERS, PERFBUF_COUNTERSET_MULTI_INSTANCES);
    /* Each 48-byte PERF_COUNTER_REG after the 32-byte PERF_COUNTERSET_REG:
     * DefaultScale at 20, PerfTimeId at 28, PerfFreqId at 32, MultiId at 36. */
    for (uint32_t k = 0; k < ADV_V2_DOUBLES_COUNTERS; k++) {
        size_t at = 32u + 48u * k;
        tb_patch_u32(&reg, at + 28, doubles_counters[k].time);
        tb_patch_u32(&reg, at + 32, doubles_counters[k].frequency);
        tb_patch_u32(&reg, at + 36, doubles_counters[k].multi);
    }
    tb_patch_u32(&reg, 32u + 48u * 2 + 20, 3);
    return reg;
}

tb_v2 adv_v2_doubles_worst(uint32_t n, uint32_t tick)
{
    static const uint32_t ids[ADV_V2_DOUBLES_COUNTERS] = {0, 1, 2,  3,  4,  5,  6,  7,
                                                          8, 9, 10, 11, 12, 13, 14, 15};
    tb_v2 v;
    tb_v2_begin(&v, 5000000 + (int64_t)tick * 10000000, 133000000000000000 + (int64_t)tick * 10000000,
                10000000);
    uint32_t blocks = (n + ADV_V2_DOUBLES_ROWS - 1u) / ADV_V2_DOUBLES_ROWS;
    char name[32];
    for (uint32_t b = 0; b < blocks; b++) {
        tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
        tb_v2_ids(&v, ids, ADV_V2_DOUBLES_COUNTERS);
        tb_v2_instances_begin(&v, ADV_V2_DOUBLES_ROWS);
        for (uint32_t j = 0; j < ADV_V2_DOUBLES_ROWS; j++) {
            snprintf(name, sizeof name, "d%u", j);
            tb_v2_instance(&v, j, name);
            for (uint32_t k = 0; k < ADV_V2_DOUBLES_COUNTERS; k++) {
                uint64_t value = 1000u * ((uint64_t)ADV_V2_DOUBLES_ROWS * b + j) + 7u * k + 1u +
                                 (uint64_t)tick * (k + 1u);
                if (perfbuf_counter_type_size(doubles_counters[k].type) == 8) {
                    tb_v2_u64(&v, value);
                } else {
                    tb_v2_u32(&v, (uint32_t)value);
                }
            }
        }
        tb_v2_instances_end(&v);
        tb_v2_block_end(&v);
    }
    tb_v2_end(&v);
    return v;
}

tb_v2 adv_v2_long_name(uint32_t n)
{
    /* tb_utf16 writes what a 3-byte sequence encodes, U+D800 included. */
    char *name = must_alloc((size_t)n * 3 + 1);
    size_t len = 0;
    for (uint32_t j = 0; j < n; j++) {
        if (j % 4 == 3) {
            memcpy(name + len, "\xED\xA0\x80", 3);
            len += 3;
        } else {
            name[len++] = 'a';
        }
    }
    name[len] = '\0';
    tb_v2 v;
    tb_v2_begin(&v, 5000, 133000000000000000, 10000000);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(&v, four_ids, 1);
    tb_v2_instances_begin(&v, 1);
    tb_v2_instance(&v, 0, name);
    tb_v2_u64(&v, 42);
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    free(name);
    return v;
}

/* ---- V2 metadata ---- */

const uint8_t adv_guid[16] = {0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,
                              0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
const uint8_t adv_other_guid[16] = {0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,
                                    0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10};

tb_buf adv_reginfo_rows(const adv_reg_row *rows, uint32_t count, uint32_t instance_type,
                        const uint8_t guid[16])
{
    tb_buf b;
    tb_init(&b);
    tb_bytes(&b, guid, 16);
    tb_u32(&b, 0);            /* CounterSetType */
    tb_u32(&b, 100);          /* DetailLevel */
    tb_u32(&b, count);
    tb_u32(&b, instance_type);
    for (uint32_t i = 0; i < count; i++) {
        tb_u32(&b, rows[i].id);
        tb_u32(&b, rows[i].type);
        tb_u64(&b, 0);        /* Attrib */
        tb_u32(&b, 100);      /* DetailLevel */
        tb_u32(&b, 0);        /* DefaultScale */
        tb_u32(&b, rows[i].base);
        tb_u32(&b, rows[i].time);
        tb_u32(&b, rows[i].freq);
        tb_u32(&b, rows[i].multi);
        tb_u32(&b, 0);        /* AggregateFunc */
        tb_u32(&b, 0);        /* Reserved */
    }
    return b;
}

uint32_t adv_reginfo_refs_id(uint32_t n, int unordered, uint32_t k)
{
    return unordered ? n - 1 - k : k;
}

tb_buf adv_reginfo_refs(uint32_t n, int unordered)
{
    adv_reg_row *rows = must_alloc(sizeof *rows * n);
    uint32_t base = adv_reginfo_refs_id(n, unordered, n - 4);
    uint32_t time = adv_reginfo_refs_id(n, unordered, n - 3);
    uint32_t freq = adv_reginfo_refs_id(n, unordered, n - 2);
    uint32_t multi = adv_reginfo_refs_id(n, unordered, n - 1);
    for (uint32_t k = 0; k < n; k++) {
        adv_reg_row r = {adv_reginfo_refs_id(n, unordered, k), PERF_AVERAGE_BULK, base, time, freq,
                         multi};
        if (k >= n - 4) {
            static const uint32_t last_types[4] = {PERF_AVERAGE_BASE, PERF_COUNTER_LARGE_RAWCOUNT,
                                                   PERF_COUNTER_LARGE_RAWCOUNT,
                                                   PERF_COUNTER_RAWCOUNT};
            r.type = last_types[k - (n - 4)];
            r.base = r.time = r.freq = r.multi = PERFBUF_V2_NO_ID;
        }
        rows[k] = r;
    }
    tb_buf b = adv_reginfo_rows(rows, n, PERFBUF_COUNTERSET_MULTI_INSTANCES, adv_guid);
    free(rows);
    return b;
}

tb_buf adv_strings(uint32_t n, int shape, int unordered)
{
    tb_buf b;
    tb_init(&b);
    tb_u32(&b, 0);            /* dwSize, patched below */
    tb_u32(&b, n);
    for (uint32_t k = 0; k < n; k++) {
        tb_u32(&b, unordered ? n - 1 - k : k);
        tb_u32(&b, 0);        /* dwOffset: from the array end */
    }
    size_t strings_at = b.len;
    char text[32];
    if (shape == 0) {
        for (uint32_t k = 0; k < n; k++) {
            tb_patch_u32(&b, 8 + 8 * (size_t)k + 4, (uint32_t)(b.len - strings_at));
            snprintf(text, sizeof text, "s%u", unordered ? n - 1 - k : k);
            tb_utf16(&b, text, 1);
        }
    } else if (shape == 1) {
        tb_utf16(&b, "x", 1);
        /* Room for every header's copy: n strings of 4 bytes. */
        tb_zeros(&b, (size_t)n * 4 - 4);
    } else {
        char *s = run_of(n, 'x', '\0');
        tb_utf16(&b, s, 1);
        free(s);
    }
    tb_pad8_from(&b, 0);
    tb_patch_u32(&b, 0, (uint32_t)b.len);
    return b;
}

tb_buf adv_identifiers(uint32_t n, const uint8_t guid[16])
{
    tb_buf b;
    tb_init(&b);
    char name[32];
    for (uint32_t k = 0; k < n; k++) {
        snprintf(name, sizeof name, "n%u", k);
        tb_v2_identifier(&b, guid, 0, k % 8, PERFBUF_V2_ANY_INSTANCE_ID, k, name);
    }
    return b;
}

tb_buf adv_identifier_long_name(uint32_t n)
{
    tb_buf b;
    tb_init(&b);
    char *name = run_of(n, 'x', '\0');
    tb_v2_identifier(&b, adv_guid, 0, 1, PERFBUF_V2_ANY_INSTANCE_ID, 0, name);
    free(name);
    return b;
}

tb_buf adv_instance_list(uint32_t n)
{
    tb_v2 v;
    tb_init(&v.buf);
    char name[32];
    /* Names of one width: the work per instance must not grow with the
     * number of digits in n. */
    for (uint32_t k = 0; k < n; k++) {
        snprintf(name, sizeof name, "i%07u", k);
        tb_v2_instance(&v, k, name);
    }
    return v.buf;
}

tb_buf adv_countersets(uint32_t n)
{
    tb_buf b;
    tb_init(&b);
    for (uint32_t k = 0; k < n; k++) {
        tb_u32(&b, k);
        tb_u32(&b, ~k);
        tb_u64(&b, (uint64_t)k << 32 | (k ^ 0x5A5A5A5Au));
    }
    return b;
}

tb_buf adv_string_answer(uint32_t n)
{
    char *s = run_of(n, 'x', '\0');
    tb_buf b = tb_v2_string_answer(s);
    free(s);
    return b;
}

static uint32_t crosscheck_type(uint32_t id)
{
    return id % 2 == 0 ? PERF_COUNTER_RAWCOUNT : PERF_COUNTER_LARGE_RAWCOUNT;
}

/* A value of counter `id` with the size its registered type has. */
static void crosscheck_value(tb_v2 *v, uint32_t id, uint64_t value)
{
    if (id % 2 == 0) {
        tb_v2_u32(v, (uint32_t)value);
    } else {
        tb_v2_u64(v, value);
    }
}

static tb_buf registration_of(uint32_t n)
{
    adv_reg_row *rows = must_alloc(sizeof *rows * n);
    for (uint32_t k = 0; k < n; k++) {
        adv_reg_row r = {k, crosscheck_type(k), PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID,
                         PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID};
        rows[k] = r;
    }
    tb_buf b = adv_reginfo_rows(rows, n, PERFBUF_COUNTERSET_MULTI_INSTANCES, adv_guid);
    free(rows);
    return b;
}

tb_buf adv_crosscheck_registration(void)
{
    return registration_of(8);
}

static const uint32_t eight_ids[8] = {0, 1, 2, 3, 4, 5, 6, 7};

void adv_crosscheck(uint32_t n, int ids_shape, tb_v2 *query, tb_buf *ids)
{
    tb_v2_begin(query, 5000, 133000000000000000, 10000000);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t counter = i % 8;
        switch (i % 4) {
        case 0:
            tb_v2_block_begin(query, 0, PERFBUF_V2_SINGLE_COUNTER);
            crosscheck_value(query, counter, i);
            break;
        case 1:
            tb_v2_block_begin(query, 0, PERFBUF_V2_MULTIPLE_COUNTERS);
            tb_v2_ids(query, eight_ids, 8);
            for (uint32_t k = 0; k < 8; k++) {
                crosscheck_value(query, k, 10u * i + k);
            }
            break;
        case 2:
            tb_v2_block_begin(query, 0, PERFBUF_V2_MULTIPLE_INSTANCES);
            tb_v2_instances_begin(query, 2);
            tb_v2_instance(query, 0, "a");
            crosscheck_value(query, counter, i);
            tb_v2_instance(query, 1, "b");
            crosscheck_value(query, counter, i + 1);
            tb_v2_instances_end(query);
            break;
        default:
            tb_v2_block_begin(query, 0, PERFBUF_V2_COUNTERSET);
            tb_v2_ids(query, eight_ids, 8);
            tb_v2_instances_begin(query, 2);
            for (uint32_t j = 0; j < 2; j++) {
                tb_v2_instance(query, j, j == 0 ? "a" : "b");
                for (uint32_t k = 0; k < 8; k++) {
                    crosscheck_value(query, k, 100u * i + 10u * j + k);
                }
            }
            tb_v2_instances_end(query);
            break;
        }
        tb_v2_block_end(query);
    }
    tb_v2_end(query);

    tb_init(ids);
    for (uint32_t k = 0; k < n; k++) {
        /* Shape 1 swaps the Indexes of the first two; each keeps the
         * counter of the block it names. */
        uint32_t index = ids_shape == 1 && n >= 2 && k < 2 ? 1 - k : k;
        tb_v2_identifier(ids, adv_guid, 0, index % 8, PERFBUF_V2_ANY_INSTANCE_ID, index, NULL);
        if (ids_shape == 2) {
            tb_v2_identifier(ids, adv_guid, 0x1068, k % 8, PERFBUF_V2_ANY_INSTANCE_ID, n + k, "f");
        } else if (ids_shape == 3) {
            tb_v2_identifier(ids, adv_other_guid, 0, 5, PERFBUF_V2_ANY_INSTANCE_ID, n + k, NULL);
        }
    }
}

void adv_crosscheck_wide(uint32_t n, tb_v2 *query, tb_buf *registration)
{
    uint32_t *ids = ascending_ids(n);
    tb_v2_begin(query, 5000, 133000000000000000, 10000000);
    tb_v2_block_begin(query, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(query, ids, n);
    tb_v2_instances_begin(query, 2);
    for (uint32_t j = 0; j < 2; j++) {
        tb_v2_instance(query, j, j == 0 ? "a" : "b");
        for (uint32_t k = 0; k < n; k++) {
            crosscheck_value(query, k, k);
        }
    }
    tb_v2_instances_end(query);
    tb_v2_block_end(query);
    tb_v2_end(query);
    free(ids);
    *registration = registration_of(n);
}

void adv_plan(uint32_t n, tb_v2 *query, tb_buf *registration)
{
    uint32_t *ids = must_alloc(sizeof *ids * n);
    for (uint32_t k = 0; k < n; k++) {
        ids[k] = adv_reginfo_refs_id(n, 0, n - 1 - k);
    }
    tb_v2_begin(query, 5000, 133000000000000000, 10000000);
    tb_v2_block_begin(query, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(query, ids, n);
    tb_v2_instances_begin(query, 2);
    for (uint32_t j = 0; j < 2; j++) {
        tb_v2_instance(query, j, j == 0 ? "a" : "b");
        for (uint32_t k = 0; k < n; k++) {
            tb_v2_u64(query, 1000u * (j + 1) + k);
        }
    }
    tb_v2_instances_end(query);
    tb_v2_block_end(query);
    tb_v2_end(query);
    free(ids);
    *registration = adv_reginfo_refs(n, 0);
}

/* One counterset block over ids first..n-1, 2 instances of 8-byte values. */
static void shifted_pair_capture(uint32_t n, uint32_t first, uint64_t offset, tb_v2 *query)
{
    uint32_t *ids = ascending_ids(n);
    tb_v2_begin(query, 5000 + (int64_t)offset, 133000000000000000, 10000000);
    tb_v2_block_begin(query, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(query, ids + first, n - first);
    tb_v2_instances_begin(query, 2);
    for (uint32_t j = 0; j < 2; j++) {
        tb_v2_instance(query, j, j == 0 ? "a" : "b");
        for (uint32_t k = first; k < n; k++) {
            tb_v2_u64(query, offset + 2u * (uint64_t)k + j);
        }
    }
    tb_v2_instances_end(query);
    tb_v2_block_end(query);
    tb_v2_end(query);
    free(ids);
}

void adv_sample_pair(uint32_t n, tb_v2 *newer, tb_v2 *older, tb_buf *registration)
{
    adv_reg_row *rows = must_alloc(sizeof *rows * n);
    for (uint32_t k = 0; k < n; k++) {
        adv_reg_row r = {k, PERF_AVERAGE_BULK, n - 1, PERFBUF_V2_NO_ID, PERFBUF_V2_NO_ID,
                         PERFBUF_V2_NO_ID};
        if (k == n - 1) {
            r.type = PERF_AVERAGE_BASE;
            r.base = PERFBUF_V2_NO_ID;
        }
        rows[k] = r;
    }
    *registration = adv_reginfo_rows(rows, n, PERFBUF_COUNTERSET_MULTI_INSTANCES, adv_guid);
    free(rows);
    shifted_pair_capture(n, 1, (uint64_t)1 << 40, newer);
    shifted_pair_capture(n, 0, 0, older);
}

void adv_plan_irregular(uint32_t n, int shape, tb_v2 *query, tb_buf *registration)
{
    bool repeated = shape != ADV_PLAN_ONE_WIDE;
    uint32_t count = repeated ? n + 4 : n;
    uint32_t *ids = must_alloc(sizeof *ids * count);
    for (uint32_t k = 0; k < n; k++) {
        ids[k] = adv_reginfo_refs_id(n, 0, n - 1 - k);
    }
    /* Descending: positions 0..3 hold the four referenced counters. */
    for (uint32_t k = n; k < count; k++) {
        ids[k] = ids[k - n];
    }
    static const uint8_t wide[16] = {0x5A};
    tb_v2_begin(query, 5000, 133000000000000000, 10000000);
    tb_v2_block_begin(query, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(query, ids, count);
    tb_v2_instances_begin(query, 2);
    for (uint32_t j = 0; j < 2; j++) {
        tb_v2_instance(query, j, j == 0 ? "a" : "b");
        for (uint32_t k = 0; k < count; k++) {
            bool is_wide = shape == ADV_PLAN_ONE_WIDE ? k == n - 1
                                                      : shape == ADV_PLAN_REPEATED_WIDE && k < 4;
            if (is_wide) {
                tb_v2_value(query, wide, sizeof wide);
            } else {
                tb_v2_u64(query, 1000u * (j + 1) + k);
            }
        }
    }
    tb_v2_instances_end(query);
    tb_v2_block_end(query);
    tb_v2_end(query);
    free(ids);
    *registration = adv_reginfo_refs(n, 0);
}

/* ---- text ---- */

tb_buf adv_utf16(uint32_t n)
{
    static const uint16_t units[8] = {0x0041, 0x00E9, 0xD83D, 0xDE00, 0xD800, 0x0062, 0xDC00,
                                      0xDBFF};
    tb_buf b;
    tb_init(&b);
    for (uint32_t k = 0; k < n; k++) {
        tb_u16(&b, units[k % 8]);
    }
    return b;
}

tb_buf adv_code_page_text(uint32_t n, uint32_t code_page)
{
    (void)code_page;
    tb_buf b;
    tb_init(&b);
    for (uint32_t k = 0; k < n; k++) {
        tb_u8(&b, hostile_bytes[k % 8]);
    }
    return b;
}

/* ---- OpenMetrics text ---- */

tb_buf adv_om_object(uint32_t n)
{
    static const uint8_t pattern[4] = {'A', 'b', '%', 0xFF};
    tb_buf b;
    tb_init(&b);
    for (uint32_t k = 0; k < n; k++) {
        tb_u8(&b, pattern[k % 4]);
    }
    return b;
}

tb_buf adv_om_counter(uint32_t n)
{
    tb_buf b = adv_om_object(n);
    tb_bytes(&b, " Z Total/sec", 12);
    return b;
}

tb_buf adv_om_escapes(uint32_t n)
{
    static const uint8_t pattern[8] = {'"', '\\', '\n', 0x1B, 0xFF, 0xE2, 0x80, 0xAE};
    tb_buf b;
    tb_init(&b);
    for (uint32_t k = 0; k < n; k++) {
        tb_u8(&b, pattern[k % 8]);
    }
    return b;
}

/* ---- values ---- */

perfbuf_raw_sample *adv_samples(uint32_t n)
{
    perfbuf_raw_sample *s = must_alloc(sizeof *s * n);
    for (uint32_t k = 0; k < n; k++) {
        perfbuf_raw_sample r = {PERFBUF_CSTATUS_VALID_DATA, PERF_COUNTER_COUNTER, 100u * k,
                                1000u * k, 0, (int64_t)k};
        if (k % 5 == 4) {
            if (k % 10 == 4) {
                r.type = PERF_COUNTER_RAWCOUNT;
            } else {
                r.status = PERFBUF_CSTATUS_INVALID_DATA;
            }
        }
        s[k] = r;
    }
    return s;
}
