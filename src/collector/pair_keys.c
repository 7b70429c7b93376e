/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Keys of instances for pairing two captures: names recorded in one slot,
 * hashed and compared unit by unit with ASCII letters folded, and a
 * heapsort of (hash, position) records. Shared by the V1 and V2 pairings.
 */
#include "collector/pair_keys.h"

#include "core/cursor.h"
#include "core/mix.h"
#include "core/work.h"

/*
 * A name's location, encoding and length in one slot: offset << 32 |
 * encoding << 29 | bytes. V1 blocks and V2 query data are at most 4 GiB
 * (TotalByteLength, dwTotalSize), so offsets fit; a name of 512 MiB or
 * more does not, and the caller records it as PB_KEY_UNPAIRABLE. Names of
 * two encodings never compare equal: the same units mean other characters
 * in another code page.
 */
#define NAME_LENGTH_MASK 0x1FFFFFFFu
#define NAME_ENCODING_SHIFT 29
#define ENCODING_UTF16 0u
#define ENCODING_OTHER 4u /* a code page perfbuf does not convert: bytes */

/* Hash lanes: core/mix.h. */
#define LANE PB_MIX_LANE

uint64_t pb_key_mix(uint64_t x)
{
    return pb_mix64(x);
}

static uint32_t encoding_of(uint32_t code_page)
{
    switch (code_page) {
    case 0: return ENCODING_UTF16;
    case 1252: return 1u;
    case 65001: return 2u;
    case 20127: return 3u;
    default: return ENCODING_OTHER;
    }
}

bool pb_key_pack_name(size_t offset, size_t bytes, uint32_t code_page, uint64_t *out)
{
    if (offset == 0 || offset >= UINT32_MAX || bytes > NAME_LENGTH_MASK) {
        return false;
    }
    *out = (uint64_t)offset << 32 | (uint64_t)encoding_of(code_page) << NAME_ENCODING_SHIFT |
           (uint64_t)bytes;
    return true;
}

static bool is_wide(uint64_t name)
{
    return (name >> NAME_ENCODING_SHIFT & 7u) == ENCODING_UTF16;
}

/* Reads the next unit of a name: a UTF-16 code unit, or a byte; an odd
 * last byte of UTF-16 text is a unit of its own, above every code unit. */
static bool next_unit(pb_cursor *c, bool wide, uint32_t *unit)
{
    if (wide && pb_cursor_remaining(c) >= 2) {
        uint16_t u;
        if (!pb_cursor_read_u16(c, &u)) {
            return false;
        }
        *unit = u;
    } else {
        uint8_t u;
        if (!pb_cursor_read_u8(c, &u)) {
            return false;
        }
        *unit = wide ? 0x10000u | u : u;
    }
    if (*unit >= 'A' && *unit <= 'Z') {
        *unit += 'a' - 'A';
    }
    return true;
}

static bool name_cursor(const uint8_t *data, size_t size, uint64_t name, pb_cursor *out)
{
    pb_cursor whole = pb_cursor_make(data, size);
    return pb_cursor_slice(&whole, (size_t)(name >> 32), (size_t)(name & NAME_LENGTH_MASK), out);
}

static size_t name_units(uint64_t name)
{
    size_t bytes = (size_t)(name & NAME_LENGTH_MASK);
    return is_wide(name) ? bytes / 2 + bytes % 2 : bytes;
}

uint64_t pb_key_name_hash(const uint8_t *data, size_t size, uint64_t name)
{
    /* Two FNV-1a lanes with different primes, then mixed together. */
    uint64_t units = name_units(name);
    uint64_t a = (0x811C9DC5u ^ units) & LANE;
    uint64_t b = (0x050C5D1Fu ^ (units >> 7)) & LANE;
    pb_cursor c;
    if (name != PB_KEY_NO_NAME && name != PB_KEY_UNPAIRABLE &&
        name_cursor(data, size, name, &c)) {
        bool wide = is_wide(name);
        uint32_t unit;
        while (next_unit(&c, wide, &unit)) {
            a = ((a ^ unit) * 0x01000193u) & LANE;
            b = ((b ^ unit) * 0x0100019Du) & LANE;
        }
    }
    return pb_key_mix(a << 32 | b);
}

/* Equal unit by unit, ASCII letters folded. Names of different unit
 * counts differ at once; otherwise the walk stops at the first difference,
 * so a comparison reads at most the shorter name. */
bool pb_key_names_equal(const uint8_t *da, size_t sa, uint64_t a, const uint8_t *db, size_t sb,
                        uint64_t b)
{
    if (a == PB_KEY_UNPAIRABLE || b == PB_KEY_UNPAIRABLE) {
        return false;
    }
    if (a == PB_KEY_NO_NAME || b == PB_KEY_NO_NAME) {
        return a == b;
    }
    if ((a ^ b) >> NAME_ENCODING_SHIFT & 7u) {
        return false;
    }
    if (name_units(a) != name_units(b)) {
        return false;
    }
    pb_cursor ca, cb;
    if (!name_cursor(da, sa, a, &ca) || !name_cursor(db, sb, b, &cb)) {
        return false;
    }
    bool wa = is_wide(a), wb = is_wide(b);
    for (;;) {
        uint32_t ua, ub;
        bool more_a = next_unit(&ca, wa, &ua);
        bool more_b = next_unit(&cb, wb, &ub);
        if (more_a != more_b) {
            return false;
        }
        if (!more_a) {
            return true;
        }
        if (ua != ub) {
            return false;
        }
    }
}

/* Heapsort of n two-slot records, ordered by slot 0 then slot 1. */
static bool record_less(const uint64_t *v, size_t i, size_t j)
{
    return v[2 * i] < v[2 * j] || (v[2 * i] == v[2 * j] && v[2 * i + 1] < v[2 * j + 1]);
}

static void record_swap(uint64_t *v, size_t i, size_t j)
{
    uint64_t a = v[2 * i], b = v[2 * i + 1];
    v[2 * i] = v[2 * j];
    v[2 * i + 1] = v[2 * j + 1];
    v[2 * j] = a;
    v[2 * j + 1] = b;
}

static void record_sift(uint64_t *v, size_t root, size_t n)
{
    for (;;) {
        PB_WORK(1);
        size_t child = 2 * root + 1;
        if (child >= n) {
            return;
        }
        if (child + 1 < n && record_less(v, child, child + 1)) {
            child++;
        }
        if (!record_less(v, root, child)) {
            return;
        }
        record_swap(v, root, child);
        root = child;
    }
}

void pb_key_sort_records(uint64_t *v, size_t n)
{
    for (size_t i = n / 2; i > 0; i--) {
        PB_WORK(1);
        record_sift(v, i - 1, n);
    }
    for (size_t end = n; end > 1; end--) {
        PB_WORK(1);
        record_swap(v, 0, end - 1);
        record_sift(v, 0, end - 1);
    }
}

