/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Structure-aware mutation of the inputs that hold two captures: the
 * pairing harness's (fuzz/fuzz_pairing.c: a flags byte, lengths, a path,
 * the older capture, for V2 a registration, the newer capture) and the
 * mixed-views harness's (fuzz/fuzz_mixed_views.c: a 16-bit length, A, B).
 * One capture is cut out, given to the V1 or V2 query mutator
 * (fuzz/mutator_v1.h, fuzz/mutator_v2_query.h) with all the room the
 * engine's max_size leaves, and put back with its length field rewritten;
 * or one capture is copied over the other, so both hold the same layout
 * (the usual two samples of one collector) before either is changed. The
 * shapes the V1 and V2 mutators build (long parents shared by many
 * children, children alternating between parents in two objects, thousands
 * of definitions or counters with one odd value and a repeated id) reach
 * the pairing and the mixed views at the sizes that make a slow path slow.
 *
 * Fuzzer code, not library code: static buffers, one mutation at a time.
 */
#ifndef PERFBUF_FUZZ_MUTATOR_CAPTURES_H
#define PERFBUF_FUZZ_MUTATOR_CAPTURES_H

#include <stdlib.h>

#include "mutator_v1.h"
#include "mutator_v2_query.h"
#include "perfbuf/paths.h"
#include "perfbuf/v1.h"

typedef size_t (*mcap_mutate_fn)(uint8_t *, size_t, size_t, unsigned int, mut_bytes_fn, bool *);

/* The largest capture this mutates: the engines' 1 MB inputs. */
#define MCAP_MAX_REGION (1u << 20)

static uint32_t mcap_get(const uint8_t *p, size_t width)
{
    uint32_t v = 0;
    for (size_t i = 0; i < width; i++) {
        v |= (uint32_t)p[i] << (8 * i);
    }
    return v;
}

static void mcap_put(uint8_t *p, size_t width, size_t v)
{
    for (size_t i = 0; i < width; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

/* A V1 data block begins with the UTF-16 signature "PERF"; anything else
 * is given to the V2 query mutator. */
static mcap_mutate_fn mcap_mutator_for(const uint8_t *p, size_t len)
{
    static const uint8_t perf[8] = {'P', 0, 'E', 0, 'R', 0, 'F', 0};
    return len >= 8 && memcmp(p, perf, 8) == 0 ? v1m_mutate : v2m_mutate;
}

/*
 * Replaces bytes [off, off + len) of data (size bytes, at most max_size)
 * with a mutant of them no longer than limit, moving what follows. Returns
 * the new size; *new_len gets the region's new length.
 */
static size_t mcap_region(uint8_t *data, size_t size, size_t max_size, size_t off, size_t len,
                          size_t limit, unsigned int seed, mut_bytes_fn bytes, size_t *new_len)
{
    static uint8_t region[MCAP_MAX_REGION];
    size_t tail = size - off - len;
    size_t cap = max_size - off - tail;
    cap = cap < limit ? cap : limit;
    cap = cap < sizeof region ? cap : sizeof region;
    *new_len = len;
    if (len > cap) {
        return size;
    }
    memcpy(region, data + off, len);
    bool structured;
    size_t n = mcap_mutator_for(region, len)(region, len, cap, seed, bytes, &structured);
    if (n > cap) {
        return size;
    }
    memmove(data + off + n, data + off + len, tail);
    memcpy(data + off, region, n);
    *new_len = n;
    return off + n + tail;
}

/*
 * Copies [from, from + len) over [to, to + to_len) (to after from), moving
 * what follows; size unchanged when it would not fit max_size.
 */
static size_t mcap_copy_over(uint8_t *data, size_t size, size_t max_size, size_t from, size_t len,
                             size_t to, size_t to_len)
{
    size_t tail = size - to - to_len;
    if (to < from + len || len > max_size || size - to_len > max_size - len) {
        return size;
    }
    memmove(data + to + len, data + to + to_len, tail);
    memmove(data + to, data + from, len);
    return to + len + tail;
}

/*
 * The UTF-8 name of the parent with the longest name among the children
 * of the newer V1 capture's first four objects (the ones the harness
 * pairs) into out, cut before any character a path gives a meaning to and
 * at PDH's longest instance name; its length, 0 when there is none. A
 * byte mutation of the path almost never spells a parent's name at
 * length, and a path naming a long parent is what makes a reader that
 * compares it per child pay the product.
 */
static size_t mcap_longest_parent(const uint8_t *capture, size_t len, char *out, size_t cap)
{
    perfbuf_v1_block b;
    if (perfbuf_v1_parse(capture, len, NULL, &b, NULL) != PERFBUF_OK || b.index_slots == 0) {
        return 0;
    }
    uint64_t *slots = malloc(sizeof *slots * b.index_slots);
    perfbuf_v1_instance_index index;
    if (slots == NULL ||
        perfbuf_v1_block_index_build(&b, slots, b.index_slots, &index) != PERFBUF_OK) {
        free(slots);
        return 0;
    }
    perfbuf_v1_instance longest;
    bool found = false;
    perfbuf_v1_iter oi;
    perfbuf_v1_object o;
    uint32_t objects = 0;
    perfbuf_v1_objects_begin(&b, &oi);
    while (objects++ < 4 && perfbuf_v1_objects_next(&b, &oi, &o)) {
        perfbuf_v1_iter ii;
        perfbuf_v1_instance inst, parent;
        perfbuf_v1_instances_begin(&o, &ii);
        while (perfbuf_v1_instances_next(&b, &ii, &inst)) {
            if (inst.parent_title_index != 0 &&
                perfbuf_v1_parent(&b, &o, &inst, &index, &parent, NULL) == PERFBUF_OK &&
                (!found || parent.name_bytes > longest.name_bytes)) {
                longest = parent;
                found = true;
            }
        }
    }
    size_t n = 0;
    perfbuf_status st = found ? perfbuf_v1_instance_name_utf8(&b, &longest, out, cap, &n)
                              : PERFBUF_E_NOT_FOUND;
    free(slots);
    if (st != PERFBUF_OK && st != PERFBUF_E_OUTPUT_TOO_SMALL) {
        return 0;
    }
    /* A cut conversion still ends with a NUL after whole characters. */
    size_t units = 0;
    n = 0;
    while (out[n] != '\0' && units < PERFBUF_PATH_MAX_INSTANCE) {
        unsigned char ch = (unsigned char)out[n];
        if (ch < 0x20 || strchr("()/\\#*?", ch) != NULL) {
            break;
        }
        /* A four-byte character is two UTF-16 units, as PDH counts. */
        units += (ch & 0xC0) == 0x80 ? 0 : (ch >= 0xF0 ? 2 : 1);
        if (units > PERFBUF_PATH_MAX_INSTANCE) {
            break;
        }
        n++;
    }
    while (n > 0 && ((unsigned char)out[n] & 0xC0) == 0x80) {
        n--; /* not inside a character */
    }
    return n;
}

/*
 * Replaces the pairing input's path (at `header`, path_len bytes) with
 * \O(<parent>/<every instance>)\C, <parent> the newer capture's longest
 * parent name (mcap_longest_parent) whole, one character short, with its last
 * character changed, or cut at random: a match, and near misses that are
 * compared at their whole length. Returns the new size; 0 when there is no
 * such parent or the input would not fit max_size.
 */
static size_t mcap_parent_path(uint8_t *data, size_t size, size_t max_size, size_t header,
                               size_t path_len, size_t newer_at, mut_rng *r)
{
    static char parent[3u * PERFBUF_PATH_MAX_INSTANCE + 1u];
    static uint8_t path[sizeof parent + 16u];
    size_t n = mcap_longest_parent(data + newer_at, size - newer_at, parent, sizeof parent);
    if (n == 0) {
        return 0;
    }
    switch (mut_rand(r, 4)) {
    case 1:
        n -= n > 1 && (unsigned char)parent[n - 1] < 0x80;
        break;
    case 2:
        if ((unsigned char)parent[n - 1] < 0x80) {
            parent[n - 1] = parent[n - 1] == 'z' ? 'y' : 'z';
        }
        break;
    case 3:
        n = 1 + mut_rand(r, (uint32_t)n);
        while (n > 1 && ((unsigned char)parent[n] & 0xC0) == 0x80) {
            n--;
        }
        break;
    default:
        break;
    }
    size_t len = 0;
    memcpy(path + len, "\\O(", 3);
    len += 3;
    memcpy(path + len, parent, n);
    len += n;
    memcpy(path + len, "/*)\\C", 5);
    len += 5;
    if (len > max_size || size - path_len > max_size - len) {
        return 0;
    }
    memmove(data + header + len, data + header + path_len, size - header - path_len);
    memcpy(data + header, path, len);
    mcap_put(data + 1, 2, len);
    return size - path_len + len;
}

/*
 * The pairing harness's input: byte 0 the flags (bit 2: V2), bytes 1-2 the
 * path's length, 3-6 the older capture's, V2: 7-10 the registration's;
 * then the path, the older capture, the registration, the newer capture.
 * The lengths are first cut to what the input holds, as the harness cuts
 * them, so a rewritten length says what the harness reads.
 */
static inline size_t mcap_mutate_pairing(uint8_t *data, size_t size, size_t max_size,
                                         unsigned int seed, mut_bytes_fn bytes)
{
    mut_rng r;
    mut_rng_seed(&r, seed);
    if (size < 11 || size > max_size || mut_rand(&r, 4) == 0) {
        return bytes(data, size, max_size);
    }
    bool v2 = (data[0] & 4u) != 0;
    size_t header = v2 ? 11 : 7;
    size_t rest = size - header;
    size_t path_len = mcap_get(data + 1, 2);
    path_len = path_len < rest ? path_len : rest;
    rest -= path_len;
    size_t older_len = mcap_get(data + 3, 4);
    older_len = older_len < rest ? older_len : rest;
    rest -= older_len;
    size_t reg_len = v2 ? mcap_get(data + 7, 4) : 0;
    reg_len = reg_len < rest ? reg_len : rest;
    mcap_put(data + 1, 2, path_len);
    mcap_put(data + 3, 4, older_len);
    if (v2) {
        mcap_put(data + 7, 4, reg_len);
    }
    size_t older_at = header + path_len;
    size_t newer_at = older_at + older_len + reg_len;
    size_t newer_len = size - newer_at;
    if (!v2 && mut_rand(&r, 8) == 0) {
        size_t n = mcap_parent_path(data, size, max_size, header, path_len, newer_at, &r);
        if (n != 0) {
            return n;
        }
    }
    switch (mut_rand(&r, 8)) {
    case 0:
        /* Two captures of one layout: the newer a copy of the older. */
        return mcap_copy_over(data, size, max_size, older_at, older_len, newer_at, newer_len);
    case 1:
    case 2:
    case 3: {
        size_t n;
        size = mcap_region(data, size, max_size, older_at, older_len, UINT32_MAX,
                           mut_rand(&r, UINT32_MAX), bytes, &n);
        mcap_put(data + 3, 4, n);
        return size;
    }
    default: {
        size_t n;
        return mcap_region(data, size, max_size, newer_at, newer_len, UINT32_MAX,
                           mut_rand(&r, UINT32_MAX), bytes, &n);
    }
    }
}

/* The mixed-views harness's input: a 16-bit length (cut to what the input
 * holds), capture A, capture B. */
static inline size_t mcap_mutate_mixed(uint8_t *data, size_t size, size_t max_size,
                                       unsigned int seed, mut_bytes_fn bytes)
{
    mut_rng r;
    mut_rng_seed(&r, seed);
    if (size < 2 || size > max_size || mut_rand(&r, 4) == 0) {
        return bytes(data, size, max_size);
    }
    size_t a_len = mcap_get(data, 2);
    a_len = a_len < size - 2 ? a_len : size - 2;
    mcap_put(data, 2, a_len);
    size_t b_at = 2 + a_len;
    size_t b_len = size - b_at;
    switch (mut_rand(&r, 8)) {
    case 0:
        return mcap_copy_over(data, size, max_size, 2, a_len, b_at, b_len);
    case 1:
    case 2:
    case 3: {
        size_t n;
        size = mcap_region(data, size, max_size, 2, a_len, 0xFFFFu, mut_rand(&r, UINT32_MAX), bytes,
                           &n);
        mcap_put(data, 2, n);
        return size;
    }
    default: {
        size_t n;
        return mcap_region(data, size, max_size, b_at, b_len, UINT32_MAX,
                           mut_rand(&r, UINT32_MAX), bytes, &n);
    }
    }
}

#endif
