/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The cursor core: bounds, byte order, sub-cursors, checked arithmetic. */
#include "../src/core/cursor.h"
#include "harness.h"

static const uint8_t bytes[16] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
                                  0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10};

static void make_and_validity(void)
{
    pb_cursor c = pb_cursor_make(bytes, sizeof bytes);
    CHECK(pb_cursor_is_valid(&c));
    CHECK_EQ_U(pb_cursor_remaining(&c), 16);
    pb_cursor empty = pb_cursor_make(NULL, 100);
    CHECK(pb_cursor_is_valid(&empty));
    CHECK_EQ_U(pb_cursor_remaining(&empty), 0);
    pb_cursor broken = c;
    broken.pos = 17;
    CHECK(!pb_cursor_is_valid(&broken));
    broken = c;
    broken.start = 3;
    broken.pos = 2;
    CHECK(!pb_cursor_is_valid(&broken));
    CHECK(!pb_cursor_is_valid(NULL));
}

static void take_at_len_minus_one_len_plus_one(void)
{
    for (size_t n = 15; n <= 17; n++) {
        pb_cursor c = pb_cursor_make(bytes, sizeof bytes);
        const uint8_t *p = NULL;
        bool ok = pb_cursor_take(&c, n, &p);
        CHECK(ok == (n <= 16));
        CHECK_EQ_U(c.pos, ok ? n : 0);
        CHECK(!ok || p == bytes);
    }
    pb_cursor c = pb_cursor_make(bytes, sizeof bytes);
    const uint8_t *p;
    CHECK(pb_cursor_take(&c, 0, &p));
    CHECK(p == NULL);
    CHECK(!pb_cursor_take(&c, SIZE_MAX, &p));
    CHECK_EQ_U(c.pos, 0);
}

static void little_endian_reads(void)
{
    pb_cursor c = pb_cursor_make(bytes, sizeof bytes);
    uint8_t v8;
    uint16_t v16;
    uint32_t v32;
    uint64_t v64;
    CHECK(pb_cursor_read_u8(&c, &v8));
    CHECK_EQ_U(v8, 0x01);
    CHECK(pb_cursor_read_u16(&c, &v16));
    CHECK_EQ_U(v16, 0x0302);
    CHECK(pb_cursor_read_u32(&c, &v32));
    CHECK_EQ_U(v32, 0x07060504);
    CHECK(pb_cursor_read_u64(&c, &v64));
    CHECK_EQ_U(v64, 0x0F0E0D0C0B0A0908ull);
    CHECK_EQ_U(c.pos, 15);
    /* One byte left: every wider read fails and leaves the cursor alone. */
    CHECK(!pb_cursor_read_u16(&c, &v16));
    CHECK(!pb_cursor_read_u32(&c, &v32));
    CHECK(!pb_cursor_read_u64(&c, &v64));
    CHECK_EQ_U(c.pos, 15);
    CHECK(pb_cursor_read_u8(&c, &v8));
    CHECK_EQ_U(v8, 0x10);
    CHECK(!pb_cursor_read_u8(&c, &v8));
}

static void unaligned_reads(void)
{
    /* Reads at every odd offset give the same values as at even ones. */
    for (size_t off = 0; off + 8 <= sizeof bytes; off++) {
        pb_cursor c = pb_cursor_make(bytes, sizeof bytes);
        uint64_t v;
        CHECK(pb_cursor_get_u64(&c, off, &v));
        uint64_t expect = 0;
        for (int i = 7; i >= 0; i--) {
            expect = (expect << 8) | bytes[off + (size_t)i];
        }
        CHECK_EQ_U(v, expect);
    }
}

static void sub_cursor_stays_inside_parent(void)
{
    pb_cursor parent = pb_cursor_make(bytes, sizeof bytes);
    CHECK(pb_cursor_skip(&parent, 4));
    pb_cursor child;
    CHECK(!pb_cursor_sub(&parent, 13, &child));
    CHECK_EQ_U(parent.pos, 4);
    CHECK(pb_cursor_sub(&parent, 12, &child));
    CHECK_EQ_U(parent.pos, 16);
    CHECK_EQ_U(child.start, 4);
    CHECK_EQ_U(child.end, 16);
    pb_cursor grandchild;
    CHECK(pb_cursor_sub(&child, 4, &grandchild));
    uint32_t v;
    CHECK(pb_cursor_read_u32(&grandchild, &v));
    CHECK_EQ_U(v, 0x08070605);
    CHECK(!pb_cursor_read_u32(&grandchild, &v));
    CHECK(pb_cursor_is_valid(&grandchild));
}

static void slice_and_fixed_offsets(void)
{
    pb_cursor c = pb_cursor_make(bytes, sizeof bytes);
    pb_cursor s;
    CHECK(pb_cursor_slice(&c, 12, 4, &s));
    CHECK(!pb_cursor_slice(&c, 13, 4, &s));
    CHECK(!pb_cursor_slice(&c, 17, 0, &s));
    CHECK(pb_cursor_slice(&c, 16, 0, &s));
    CHECK(!pb_cursor_slice(&c, SIZE_MAX, 2, &s));
    CHECK(!pb_cursor_slice(&c, 2, SIZE_MAX, &s));
    uint32_t v;
    CHECK(pb_cursor_get_u32(&c, 12, &v));
    CHECK_EQ_U(v, 0x100F0E0D);
    CHECK(!pb_cursor_get_u32(&c, 13, &v));
    uint16_t w;
    CHECK(pb_cursor_get_u16(&c, 14, &w));
    CHECK_EQ_U(w, 0x100F);
    CHECK_EQ_U(c.pos, 0);
}

static void checked_arithmetic(void)
{
    size_t r;
    CHECK(pb_add(SIZE_MAX - 1, 1, &r));
    CHECK_EQ_U(r, SIZE_MAX);
    CHECK(!pb_add(SIZE_MAX, 1, &r));
    CHECK(pb_mul(SIZE_MAX / 4, 4, &r));
    CHECK(!pb_mul(SIZE_MAX / 4 + 1, 4, &r));
    CHECK(pb_mul(0, SIZE_MAX, &r));
    CHECK_EQ_U(r, 0);
    CHECK_EQ_U(pb_pad8(0), 0);
    CHECK_EQ_U(pb_pad8(1), 7);
    CHECK_EQ_U(pb_pad8(7), 1);
    CHECK_EQ_U(pb_pad8(8), 0);
    CHECK_EQ_U(pb_pad8(SIZE_MAX), 1);
}

static const th_case cases[] = {
    TH_CASE(make_and_validity),
    TH_CASE(take_at_len_minus_one_len_plus_one),
    TH_CASE(little_endian_reads),
    TH_CASE(unaligned_reads),
    TH_CASE(sub_cursor_stays_inside_parent),
    TH_CASE(slice_and_fixed_offsets),
    TH_CASE(checked_arithmetic),
};
TH_MAIN(cases)
