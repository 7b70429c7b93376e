/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tb_init(tb_buf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

void tb_free(tb_buf *b)
{
    free(b->data);
    tb_init(b);
}

static void reserve(tb_buf *b, size_t n)
{
    if (n <= b->cap - b->len) {
        return;
    }
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < n) {
        cap *= 2;
    }
    uint8_t *p = realloc(b->data, cap);
    if (p == NULL) {
        fprintf(stderr, "builder: out of memory\n");
        exit(2);
    }
    b->data = p;
    b->cap = cap;
}

void tb_bytes(tb_buf *b, const void *data, size_t n)
{
    if (n == 0) {
        return;
    }
    reserve(b, n);
    memcpy(b->data + b->len, data, n);
    b->len += n;
}

void tb_u8(tb_buf *b, uint8_t v)
{
    tb_bytes(b, &v, 1);
}

void tb_u16(tb_buf *b, uint16_t v)
{
    uint8_t p[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    tb_bytes(b, p, 2);
}

void tb_u32(tb_buf *b, uint32_t v)
{
    uint8_t p[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    tb_bytes(b, p, 4);
}

void tb_u64(tb_buf *b, uint64_t v)
{
    tb_u32(b, (uint32_t)v);
    tb_u32(b, (uint32_t)(v >> 32));
}

void tb_zeros(tb_buf *b, size_t n)
{
    reserve(b, n);
    memset(b->data + b->len, 0, n);
    b->len += n;
}

void tb_pad8_from(tb_buf *b, size_t origin)
{
    tb_zeros(b, (8 - ((b->len - origin) & 7u)) & 7u);
}

void tb_patch_u32(tb_buf *b, size_t at, uint32_t v)
{
    b->data[at] = (uint8_t)v;
    b->data[at + 1] = (uint8_t)(v >> 8);
    b->data[at + 2] = (uint8_t)(v >> 16);
    b->data[at + 3] = (uint8_t)(v >> 24);
}

uint32_t tb_get_u32(const tb_buf *b, size_t at)
{
    return (uint32_t)b->data[at] | ((uint32_t)b->data[at + 1] << 8) |
           ((uint32_t)b->data[at + 2] << 16) | ((uint32_t)b->data[at + 3] << 24);
}

size_t tb_utf16(tb_buf *b, const char *utf8, int with_nul)
{
    size_t before = b->len;
    const unsigned char *s = (const unsigned char *)utf8;
    while (*s) {
        uint32_t cp;
        if (*s < 0x80) {
            cp = *s++;
        } else if ((*s & 0xE0) == 0xC0) {
            cp = ((uint32_t)(s[0] & 0x1F) << 6) | (s[1] & 0x3Fu);
            s += 2;
        } else if ((*s & 0xF0) == 0xE0) {
            cp = ((uint32_t)(s[0] & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3Fu);
            s += 3;
        } else {
            cp = ((uint32_t)(s[0] & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) |
                 ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3Fu);
            s += 4;
        }
        if (cp >= 0x10000) {
            cp -= 0x10000;
            tb_u16(b, (uint16_t)(0xD800 + (cp >> 10)));
            tb_u16(b, (uint16_t)(0xDC00 + (cp & 0x3FF)));
        } else {
            tb_u16(b, (uint16_t)cp);
        }
    }
    if (with_nul) {
        tb_u16(b, 0);
    }
    return b->len - before;
}

/* ---- V2 ---- */

void tb_v2_begin(tb_v2 *v, int64_t stamp, int64_t time_100ns, int64_t freq)
{
    tb_init(&v->buf);
    v->blocks = 0;
    v->block_start = 0;
    v->list_start = 0;
    tb_u32(&v->buf, 0);
    tb_u32(&v->buf, 0);
    tb_u64(&v->buf, (uint64_t)stamp);
    tb_u64(&v->buf, (uint64_t)time_100ns);
    tb_u64(&v->buf, (uint64_t)freq);
    const uint16_t st[8] = {2026, 11, 0, 22, 10, 0, 0, 0};
    for (int i = 0; i < 8; i++) {
        tb_u16(&v->buf, st[i]);
    }
}

void tb_v2_block_begin(tb_v2 *v, uint32_t status, uint32_t kind)
{
    v->block_start = v->buf.len;
    tb_u32(&v->buf, status);
    tb_u32(&v->buf, kind);
    tb_u32(&v->buf, 0);
    tb_u32(&v->buf, 0);
}

void tb_v2_block_end(tb_v2 *v)
{
    tb_pad8_from(&v->buf, v->block_start);
    tb_patch_u32(&v->buf, v->block_start + 8, (uint32_t)(v->buf.len - v->block_start));
    v->blocks++;
}

void tb_v2_ids(tb_v2 *v, const uint32_t *ids, uint32_t count)
{
    size_t start = v->buf.len;
    tb_u32(&v->buf, 8 + 4 * count);
    tb_u32(&v->buf, count);
    for (uint32_t i = 0; i < count; i++) {
        tb_u32(&v->buf, ids[i]);
    }
    tb_pad8_from(&v->buf, start);
}

void tb_v2_value(tb_v2 *v, const void *value, uint32_t size)
{
    size_t start = v->buf.len;
    tb_u32(&v->buf, size);
    tb_u32(&v->buf, 0);
    tb_bytes(&v->buf, value, size);
    tb_pad8_from(&v->buf, start);
    tb_patch_u32(&v->buf, start + 4, (uint32_t)(v->buf.len - start));
}

void tb_v2_u32(tb_v2 *v, uint32_t value)
{
    uint8_t p[4] = {(uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16),
                    (uint8_t)(value >> 24)};
    tb_v2_value(v, p, 4);
}

void tb_v2_u64(tb_v2 *v, uint64_t value)
{
    uint8_t p[8];
    for (int i = 0; i < 8; i++) {
        p[i] = (uint8_t)(value >> (8 * i));
    }
    tb_v2_value(v, p, 8);
}

void tb_v2_instances_begin(tb_v2 *v, uint32_t count)
{
    v->list_start = v->buf.len;
    tb_u32(&v->buf, 0);
    tb_u32(&v->buf, count);
}

void tb_v2_instances_end(tb_v2 *v)
{
    tb_patch_u32(&v->buf, v->list_start, (uint32_t)(v->buf.len - v->list_start));
}

void tb_v2_instance(tb_v2 *v, uint32_t id, const char *utf8_name)
{
    size_t start = v->buf.len;
    tb_u32(&v->buf, 0);
    tb_u32(&v->buf, id);
    tb_utf16(&v->buf, utf8_name, 1);
    tb_pad8_from(&v->buf, start);
    tb_patch_u32(&v->buf, start, (uint32_t)(v->buf.len - start));
}

void tb_v2_end(tb_v2 *v)
{
    tb_patch_u32(&v->buf, 0, (uint32_t)v->buf.len);
    tb_patch_u32(&v->buf, 4, v->blocks);
}

/*
 * One block of each kind, two instances in the instance kinds: the layout
 * tests/test_v2_query.c documents offset by offset (464 bytes).
 */
static const uint32_t sample_ids[3] = {0, 3, 24};

tb_v2 tb_v2_sample_all_kinds(void)
{
    tb_v2 v;
    tb_v2_begin(&v, 5000, 133000000000000000, 10000000);

    tb_v2_block_begin(&v, 0x1068, 0);
    tb_v2_block_end(&v);

    tb_v2_block_begin(&v, 0, 1);
    tb_v2_u64(&v, 1000);
    tb_v2_block_end(&v);

    tb_v2_block_begin(&v, 0, 2);
    tb_v2_ids(&v, sample_ids, 3);
    tb_v2_u64(&v, 1);
    tb_v2_u32(&v, 2);
    tb_v2_u64(&v, 3);
    tb_v2_block_end(&v);

    tb_v2_block_begin(&v, 0, 4);
    tb_v2_instances_begin(&v, 2);
    tb_v2_instance(&v, 0, "_Total");
    tb_v2_u32(&v, 10);
    tb_v2_instance(&v, 1, "0,0");
    tb_v2_u32(&v, 20);
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);

    tb_v2_block_begin(&v, 0, 6);
    tb_v2_ids(&v, sample_ids, 3);
    tb_v2_instances_begin(&v, 2);
    tb_v2_instance(&v, 0xFFFFFFFF, "_Total");
    tb_v2_u64(&v, 100);
    tb_v2_u32(&v, 200);
    tb_v2_u64(&v, 300);
    tb_v2_instance(&v, 7, "");
    tb_v2_u64(&v, 400);
    tb_v2_u32(&v, 500);
    tb_v2_u64(&v, 600);
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);

    tb_v2_end(&v);
    return v;
}

