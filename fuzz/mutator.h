/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Machinery shared by the structure-aware mutators (fuzz/mutator_v2_query.h,
 * fuzz/mutator_v1.h). A mutator reads its input into a tree of structures
 * with its own small walker, changes the tree, and writes it out again with
 * every size, count and offset computed from what it contains. The walker
 * trusts nothing: it refuses (and the caller falls back to byte mutation)
 * whatever it cannot place inside the input.
 *
 * The tree is a flat list of nodes in file order; a node's subtree is the
 * run of following nodes that are deeper than it, so inserting, deleting and
 * duplicating a structure with everything inside it is moving one run.
 * Variable bytes (names, values, id lists) live in an arena: the input is
 * copied there first and new bytes are appended, never written over.
 *
 * Fuzzer code, not library code: it keeps its working storage in static
 * buffers (one mutation at a time, in one thread, as libFuzzer calls it).
 */
#ifndef PERFBUF_FUZZ_MUTATOR_H
#define PERFBUF_FUZZ_MUTATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The engine's byte-level mutation: LLVMFuzzerMutate under a fuzzing
 * engine, a local stand-in in the mutator check. */
typedef size_t (*mut_bytes_fn)(uint8_t *data, size_t size, size_t max_size);

#define MUT_MAX_NODES 16384u
#define MUT_ARENA_CAP (1u << 22)
/* Inputs larger than this go to byte mutation: the arena must hold the
 * input and what a mutation appends. */
#define MUT_MAX_INPUT (MUT_ARENA_CAP / 4u)

typedef struct mut_node {
    uint8_t kind;
    uint8_t depth;
    uint32_t flags;
    /* Fixed header bytes and variable bytes (a name, a value, an id list),
     * both as spans of the arena. */
    uint32_t hdr_off, hdr_len;
    uint32_t var_off, var_len;
} mut_node;

typedef struct mut_tree {
    mut_node node[MUT_MAX_NODES];
    uint32_t count;
    uint8_t *arena;
    uint32_t used;
    size_t in_size;  /* the input's bytes */
    size_t max_size; /* the engine's limit on the output's */
} mut_tree;

/* xorshift64*, seeded from the engine's seed: the same seed gives the
 * same mutation. */
/* The generator wraps on purpose; -fsanitize=integer reports that too. */
#if defined(__clang__)
#  define MUT_WRAPS __attribute__((no_sanitize("integer")))
#else
#  define MUT_WRAPS
#endif

typedef struct mut_rng {
    uint64_t s;
} mut_rng;

MUT_WRAPS static inline void mut_rng_seed(mut_rng *r, unsigned int seed)
{
    r->s = 0x9E3779B97F4A7C15ull ^ ((uint64_t)seed * 0xD1B54A32D192ED03ull);
    if (r->s == 0) {
        r->s = 1;
    }
}

MUT_WRAPS static inline uint32_t mut_rand(mut_rng *r, uint32_t n)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    uint64_t x = r->s * 0x2545F4914F6CDD1Dull;
    return n == 0 ? 0 : (uint32_t)((x >> 32) % n);
}

static inline uint32_t mut_get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void mut_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline size_t mut_align8(size_t n)
{
    return (n + 7u) & ~(size_t)7u;
}

/* [off, off + n) inside a buffer of len bytes. */
static inline bool mut_inside(size_t off, size_t n, size_t len)
{
    return off <= len && n <= len - off;
}

static inline void mut_tree_init(mut_tree *t, uint8_t *arena, const uint8_t *data, size_t size)
{
    t->count = 0;
    t->arena = arena;
    memcpy(arena, data, size);
    t->used = (uint32_t)size;
    t->in_size = size;
    t->max_size = size;
}

/* Appends a node whose spans point into the input (already in the arena). */
static inline mut_node *mut_add(mut_tree *t, uint8_t kind, uint8_t depth, size_t hdr_off,
                                size_t hdr_len, size_t var_off, size_t var_len)
{
    if (t->count >= MUT_MAX_NODES) {
        return NULL;
    }
    mut_node *n = &t->node[t->count++];
    n->kind = kind;
    n->depth = depth;
    n->flags = 0;
    n->hdr_off = (uint32_t)hdr_off;
    n->hdr_len = (uint32_t)hdr_len;
    n->var_off = (uint32_t)var_off;
    n->var_len = (uint32_t)var_len;
    return n;
}

/* Room for n new bytes at the end of the arena, or NULL. */
static inline uint8_t *mut_alloc(mut_tree *t, size_t n, uint32_t *off)
{
    if (n > MUT_ARENA_CAP - t->used) {
        return NULL;
    }
    *off = t->used;
    t->used += (uint32_t)n;
    return t->arena + *off;
}

/* Gives a node's header a private copy, so changing it changes no other
 * node that shared the bytes (a duplicate, say). */
static inline uint8_t *mut_own_hdr(mut_tree *t, mut_node *n)
{
    uint32_t off;
    uint8_t *p = mut_alloc(t, n->hdr_len, &off);
    if (p == NULL) {
        return NULL;
    }
    memmove(p, t->arena + n->hdr_off, n->hdr_len);
    n->hdr_off = off;
    return p;
}

/* One past the last node of i's subtree. */
static inline uint32_t mut_subtree_end(const mut_tree *t, uint32_t i)
{
    uint32_t j = i + 1;
    while (j < t->count && t->node[j].depth > t->node[i].depth) {
        j++;
    }
    return j;
}

/* Copies nodes [from, end) to position at (at <= from or at >= end). */
static inline bool mut_copy_run(mut_tree *t, uint32_t from, uint32_t end, uint32_t at)
{
    uint32_t n = end - from;
    if (n > MUT_MAX_NODES - t->count || at > t->count) {
        return false;
    }
    memmove(&t->node[at + n], &t->node[at], (t->count - at) * sizeof t->node[0]);
    t->count += n;
    uint32_t src = from >= at ? from + n : from;
    memmove(&t->node[at], &t->node[src], n * sizeof t->node[0]);
    return true;
}

/* Bytes nodes [from, end) write, about: headers, variable parts, padding. */
static inline size_t mut_run_bytes(const mut_tree *t, uint32_t from, uint32_t end)
{
    size_t n = 0;
    for (uint32_t i = from; i < end; i++) {
        n += mut_align8((size_t)t->node[i].hdr_len + t->node[i].var_len) + 8u;
    }
    return n;
}

/* A factor of 2 to 64, mostly small: how many times an item is to be
 * there after a multiplying mutation. Counts that grow with the input are
 * what a superlinear path needs to show under the work budget. */
static inline uint32_t mut_factor(mut_rng *r)
{
    return 1u << (1u + mut_rand(r, 6));
}

/* How many of `want` further copies of nodes [from, end) fit the tree's
 * nodes and, as far as the input's size tells, the engine's max_size: an
 * output past max_size would lose the whole mutation. */
static inline uint32_t mut_copies_that_fit(const mut_tree *t, uint32_t from, uint32_t end,
                                           uint32_t want)
{
    size_t nodes = end - from;
    size_t each = mut_run_bytes(t, from, end);
    size_t room = t->max_size > t->in_size ? t->max_size - t->in_size : 0;
    size_t fit = each == 0 ? want : room / each;
    if (nodes > 0 && fit > (MUT_MAX_NODES - t->count) / nodes) {
        fit = (MUT_MAX_NODES - t->count) / nodes;
    }
    return fit < want ? (uint32_t)fit : want;
}

/* Up to `want` copies of nodes [from, end) placed right after them, as
 * many as fit; true when at least one was made. */
static inline bool mut_repeat_run(mut_tree *t, uint32_t from, uint32_t end, uint32_t want)
{
    uint32_t copies = mut_copies_that_fit(t, from, end, want);
    uint32_t made = 0;
    while (made < copies && mut_copy_run(t, from, end, end)) {
        made++;
    }
    return made > 0;
}

/* Room for a name grown by up to `want` bytes, as above. */
static inline size_t mut_growth_that_fits(const mut_tree *t, size_t want)
{
    size_t room = t->max_size > t->in_size ? t->max_size - t->in_size : 0;
    room = room > 16u ? room - 16u : 0;
    return want < room ? want : room;
}

static inline void mut_delete_run(mut_tree *t, uint32_t from, uint32_t end)
{
    memmove(&t->node[from], &t->node[end], (t->count - end) * sizeof t->node[0]);
    t->count -= end - from;
}

/* The k-th node of a kind, counting from 0; count if there are fewer. */
static inline uint32_t mut_nth_kind(const mut_tree *t, uint8_t kind, uint32_t k)
{
    for (uint32_t i = 0; i < t->count; i++) {
        if (t->node[i].kind == kind) {
            if (k == 0) {
                return i;
            }
            k--;
        }
    }
    return t->count;
}

static inline uint32_t mut_count_kind(const mut_tree *t, uint8_t kind)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->count; i++) {
        n += t->node[i].kind == kind;
    }
    return n;
}

/* A random node of a kind, or count if there is none. */
static inline uint32_t mut_pick_kind(const mut_tree *t, mut_rng *r, uint8_t kind)
{
    uint32_t n = mut_count_kind(t, kind);
    return n == 0 ? t->count : mut_nth_kind(t, kind, mut_rand(r, n));
}

/* Children of a kind directly below parent: how many, and the k-th. */
static inline uint32_t mut_child_count(const mut_tree *t, uint32_t parent, uint8_t kind)
{
    uint32_t end = mut_subtree_end(t, parent);
    uint32_t n = 0;
    for (uint32_t i = parent + 1; i < end; i++) {
        n += t->node[i].kind == kind && t->node[i].depth == t->node[parent].depth + 1;
    }
    return n;
}

static inline uint32_t mut_child(const mut_tree *t, uint32_t parent, uint8_t kind, uint32_t k)
{
    uint32_t end = mut_subtree_end(t, parent);
    for (uint32_t i = parent + 1; i < end; i++) {
        if (t->node[i].kind == kind && t->node[i].depth == t->node[parent].depth + 1) {
            if (k == 0) {
                return i;
            }
            k--;
        }
    }
    return t->count;
}

/* The nearest node before i that is shallower: i's parent. */
static inline uint32_t mut_parent(const mut_tree *t, uint32_t i)
{
    uint32_t j = i;
    while (j > 0) {
        j--;
        if (t->node[j].depth < t->node[i].depth) {
            return j;
        }
    }
    return t->count;
}

/* Runs the engine's byte mutation over a fixed-width field: the field
 * keeps its width whatever length the mutation returns. */
static inline void mut_field(mut_bytes_fn bytes, uint8_t *field, size_t width)
{
    uint8_t tmp[16];
    if (width == 0 || width > sizeof tmp) {
        return;
    }
    memcpy(tmp, field, width);
    size_t n = bytes(tmp, width, width);
    memcpy(field, tmp, n < width ? n : width);
}

/* Values that size and index fields are most often wrong by (one off
 * either way wraps at the ends, as a corrupted field would). */
MUT_WRAPS static inline uint32_t mut_interesting32(mut_rng *r, uint32_t old)
{
    static const uint32_t table[] = {0, 1, 2, 4, 7, 8, 0x7F, 0x80, 0xFF, 0x7FFF, 0xFFFF,
                                     0x7FFFFFFF, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
    switch (mut_rand(r, 4)) {
    case 0:
        return old + 1;
    case 1:
        return old - 1;
    default:
        return table[mut_rand(r, (uint32_t)(sizeof table / sizeof table[0]))];
    }
}

/* A new span of var bytes: the old ones with the engine's mutation applied,
 * the length free to change up to max_len. */
static inline bool mut_var_bytes(mut_tree *t, mut_node *n, mut_bytes_fn bytes, size_t max_len)
{
    uint32_t off;
    size_t cap = n->var_len > max_len ? n->var_len : max_len;
    uint8_t *p = mut_alloc(t, cap == 0 ? 1 : cap, &off);
    if (p == NULL) {
        return false;
    }
    memmove(p, t->arena + n->var_off, n->var_len);
    size_t len = n->var_len;
    if (len == 0) {
        p[0] = 0;
        len = 1;
    }
    n->var_len = (uint32_t)bytes(p, len, cap == 0 ? 1 : cap);
    n->var_off = off;
    return true;
}

/* Output of the writer: a bounded buffer; fails once it would overflow. */
typedef struct mut_out {
    uint8_t *p;
    size_t cap, len;
    bool ok;
} mut_out;

static inline uint8_t *mut_emit(mut_out *o, const uint8_t *src, size_t n)
{
    if (!o->ok || n > o->cap - o->len) {
        o->ok = false;
        return NULL;
    }
    uint8_t *at = o->p + o->len;
    if (src != NULL) {
        memcpy(at, src, n);
    } else {
        memset(at, 0, n);
    }
    o->len += n;
    return at;
}

/* Zero bytes up to the next multiple of 8 counted from start. */
static inline void mut_pad8(mut_out *o, size_t start)
{
    mut_emit(o, NULL, mut_align8(o->len - start) - (o->len - start));
}

static inline void mut_patch32(mut_out *o, size_t at, uint32_t v)
{
    if (o->ok && at + 4 <= o->len) {
        mut_put32(o->p + at, v);
    }
}

/*
 * One byte-level change within max_size (flip a bit, set a byte, insert or
 * erase one, an interesting 32-bit value): the byte mutation for callers
 * without the engine's LLVMFuzzerMutate, that is the mutator check and the
 * AFL++ mutator library (whose host runs its own havoc stage after it).
 */
static inline size_t mut_byte_change(mut_rng *r, uint8_t *data, size_t size, size_t max_size)
{
    size_t at = size == 0 ? 0 : mut_rand(r, (uint32_t)size);
    switch (mut_rand(r, 5)) {
    case 0:
        if (size > 0) {
            data[at] ^= (uint8_t)(1u << mut_rand(r, 8));
        }
        return size;
    case 1:
        if (size > 0) {
            data[at] = (uint8_t)mut_rand(r, 256);
        }
        return size;
    case 2:
        if (size >= max_size) {
            return size;
        }
        memmove(data + at + 1, data + at, size - at);
        data[at] = (uint8_t)mut_rand(r, 256);
        return size + 1;
    case 3:
        if (size <= 1) {
            return size;
        }
        memmove(data + at, data + at + 1, size - at - 1);
        return size - 1;
    default:
        if (size >= 4) {
            at = mut_rand(r, (uint32_t)(size - 3));
            mut_put32(data + at, mut_interesting32(r, mut_get32(data + at)));
        }
        return size;
    }
}

/*
 * The driver every structured mutator shares, prefix##_mutate: one time in
 * eight, or when the input does not read as a tree, or when the mutated
 * tree does not fit in max_size once written, the engine's byte mutation;
 * otherwise read, change, write. *structured says which one happened.
 */
#define MUT_DRIVER(prefix)                                                                        \
    static size_t prefix##_mutate(uint8_t *data, size_t size, size_t max_size, unsigned int seed, \
                                  mut_bytes_fn bytes, bool *structured)                           \
    {                                                                                             \
        static mut_tree tree;                                                                     \
        static uint8_t arena[MUT_ARENA_CAP];                                                      \
        static uint8_t out_buf[MUT_ARENA_CAP];                                                    \
        mut_rng r;                                                                                \
        mut_rng_seed(&r, seed);                                                                   \
        *structured = false;                                                                      \
        if (mut_rand(&r, 8) == 0 || size > MUT_MAX_INPUT) {                                       \
            return bytes(data, size, max_size);                                                   \
        }                                                                                         \
        mut_tree_init(&tree, arena, data, size);                                                  \
        tree.max_size = max_size;                                                                 \
        if (!prefix##_read(&tree, size)) {                                                        \
            return bytes(data, size, max_size);                                                   \
        }                                                                                         \
        /* A change can leave the bytes as they were (a field set to its    \
         * own value, nothing of the kind to delete): changes accumulate    \
         * until the output differs. */                                     \
        for (int attempt = 0; attempt < 16; attempt++) {                                          \
            if (!prefix##_change(&tree, &r, bytes)) {                                             \
                continue;                                                                         \
            }                                                                                     \
            mut_out o = {out_buf, max_size < sizeof out_buf ? max_size : sizeof out_buf, 0,       \
                         true};                                                                   \
            prefix##_write(&tree, &o);                                                            \
            if (!o.ok) {                                                                          \
                break;                                                                            \
            }                                                                                     \
            if (o.len != size || memcmp(out_buf, data, size) != 0) {                              \
                memcpy(data, out_buf, o.len);                                                     \
                *structured = true;                                                               \
                return o.len;                                                                     \
            }                                                                                     \
        }                                                                                         \
        return bytes(data, size, max_size);                                                       \
    }

#endif
