/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Worst-case inputs for every public entry point, each of a size that
 * grows linearly in a parameter n: the shapes that made a call or a
 * documented walk superlinear in the past (many items all referring to the
 * last ones, many headers sharing one long string, ids out of order, long
 * names shared by many children, ...). The growth test runs each at n and
 * 8n under the work counter; the worst-case benchmark times them.
 *
 * Test code: every generator allocates (the caller frees with tb_free) and
 * exits on allocation failure. Everything a check needs to know about a
 * generated buffer follows from n and the comments here, so expected
 * results never come from the library.
 */
#ifndef PERFBUF_TEST_ADVERSARIAL_H
#define PERFBUF_TEST_ADVERSARIAL_H

#include <stdint.h>

#include "builder.h"
#include "builder_v1.h"
#include "builder_v2meta.h"
#include "perfbuf/values.h"

/* ---- V1 data blocks ---- */

/* Title index of the i-th object of the generated V1 blocks. */
#define ADV_V1_TITLE(i) (1000u + 2u * (uint32_t)(i))
/* Counters of every object unless said otherwise: a raw count (4 bytes at
 * offset 8), a large raw count (8 at 16), a raw fraction (4 at 24) and its
 * base (4 at 28). Counter block of instance i of object o: values
 * adv_v1_value(o, i, k) for k = 0..3. */
#define ADV_V1_COUNTERS 4u
uint64_t adv_v1_value(uint32_t object, uint32_t instance, uint32_t k);

/* n objects of one instance each; the instance of object i > 0 has its
 * parent in object i - 1 (instance 0), so each parent lookup goes to a
 * different object. Instance names are "o<i>". */
tb_buf adv_v1_many_objects(uint32_t n);

/* Object 0: n parents "p<i>"; object 1: n children "c<i>", child i's
 * parent is parent n - 1 - i (the far end first). */
tb_buf adv_v1_many_instances(uint32_t n);

/*
 * The worst case of perfbuf_v1_plan_format_object_doubles: objects of 33
 * instances (one 32-row step and a step of one row, so each column's
 * setup is paid for a single row), n instances in all, each of 16
 * counters of which most leave its plain column loops for the
 * value-by-value path or the general one: raw fractions with their bases
 * (a base pairing), rates scaled by 10^3 (not plain), a 12-byte counter
 * (neither width) and a multi timer with its multi base. Two captures:
 * `tick` moves every value and clock.
 */
#define ADV_V1_DOUBLES_ROWS 33u
tb_buf adv_v1_doubles_worst(uint32_t n, uint32_t tick);

/* One object with n counter definitions (raw counts, 4 bytes each, value
 * of counter k is 3 * k + 1) and one counter block (NumInstances -1).
 * `reversed` lays the definitions out in the opposite order (same title
 * index 2 * k + 2, same offset, so the same values): another capture of
 * the same object whose layout moved. */
tb_buf adv_v1_many_counters(uint32_t n, int reversed);

/*
 * Shared counter data at the claim budget (docs/v1.md): one object, object
 * title ADV_V1_TITLE(0), of `definitions` + 1 large raw counts (8 bytes):
 * counter 0 at the far field, CounterOffset 4 * definitions - 4, then
 * counters 1..definitions all at CounterOffset 8, title 2k + 2. They claim
 * 8 * (definitions + 1) bytes, exactly twice the furthest end
 * (4 * definitions + 4). `instances` instances named "s", each counter
 * block holding adv_v1_shared_value(i, 0) at the far field and
 * adv_v1_shared_value(i, 1) at offset 8. `over` adds one more counter at
 * offset 8, whose claim goes past the budget: PERFBUF_E_OVERLAP naming
 * its CounterOffset. definitions >= 5.
 */
tb_buf adv_v1_shared_offset(uint32_t definitions, uint32_t instances, int over);
/* The value counter k (0 the far one, any other the shared one) reads in
 * instance i of adv_v1_shared_offset. */
uint64_t adv_v1_shared_value(uint32_t instance, uint32_t k);

/* The most values the claim budget lets a counter block hold: one object of
 * ADV_V1_DENSE_COUNTERS counters of size 0 (PERF_COUNTER_NODATA), counter k
 * at CounterOffset k / 2 (two per byte), in `instances` instances named "z"
 * whose counter blocks are ADV_V1_DENSE_COUNTERS / 2 bytes long: two values
 * per byte of every counter block, exactly at the budget. */
#define ADV_V1_DENSE_COUNTERS 256u
tb_buf adv_v1_dense_zero(uint32_t instances);

/* Object 0: one parent whose name is `n` characters 'P'; object 1: n
 * children named "c", all of that parent. */
tb_buf adv_v1_long_parent(uint32_t n);

/* Objects 0 and 1: one parent each, names of n characters 'P' that differ
 * only in the last one ('A' in object 0, 'B' in object 1); object 2: n
 * children named "c", alternating between the two parents (child i has
 * its parent in object i % 2). */
tb_buf adv_v1_two_parents(uint32_t n);
/* The same with parents of `parent_chars` characters: a query's parent
 * part of fixed length that both parents share as a prefix. */
tb_buf adv_v1_two_parents_of(uint32_t n, uint32_t parent_chars);

/* Object 0: max(2, n / 128) parents, each named ADV_V1_PARENT_CHARS
 * characters U+00E9 (two UTF-8 bytes each: past the cut of
 * perfbuf_v1_full_names_object) and then its number; object 1: n children
 * named "c", child i of parent i % parents, so consecutive children never
 * share a parent (perfbuf_v1_full_names_object without scratch converts
 * every child's parent again; with it, each parent once). */
#define ADV_V1_PARENT_CHARS 2048u
tb_buf adv_v1_alternating_parents(uint32_t n);
uint32_t adv_v1_alternating_parent_count(uint32_t n);

/* One object of n instances whose names are `prefix_chars` characters 'N'
 * or 'n' (alternating) and then a number, (n - 1 - i) / 2 for instance i:
 * every name has one twin that differs only in case, they come in
 * descending order, and every comparison of two reads the whole prefix
 * (the sort of perfbuf_v1_block_index_classes). */
tb_buf adv_v1_shared_prefix(uint32_t n, uint32_t prefix_chars);

/* One object in `code_page` (1252, 65001 or 20127) with n instances whose
 * names mix ASCII and bytes that are invalid or unassigned in that code
 * page, plus one last instance whose name is n such bytes long. */
tb_buf adv_v1_code_page(uint32_t n, uint32_t code_page);

/* One object in `code_page` with one instance whose name is n bytes that
 * are invalid or unassigned there. */
tb_buf adv_v1_long_name(uint32_t n, uint32_t code_page);

/* A block without objects whose computer name is n characters, every
 * fourth a lone low surrogate. */
tb_buf adv_v1_long_system_name(uint32_t n);

/* One object of n instances all named "svchost" (find "svchost#<n-1>"). */
tb_buf adv_v1_same_names(uint32_t n);

/* ---- V1 pairing (perfbuf/collector.h) ---- */

/* Length of the parents' names in the long-parent shapes: fixed, so that
 * the buffers grow linearly in n while a pairing that read a parent's name
 * per child would do n * ADV_PAIR_PARENT_UNITS work. */
#define ADV_PAIR_PARENT_UNITS 2000u
/* Beyond PDH_MAX_INSTANCE_NAME (1024 units) and, at 3 bytes of UTF-8 per
 * unit, beyond the 3,080 bytes the array calls convert a name into. */
#define ADV_PAIR_LONG_NAME 1100u

/*
 * Two captures of CF_PROCESS (tests/collector_fixture.h), the newer one
 * second later, CF_CPU of instance i rising by i:
 *   0  n distinct names "p<i>"; the newer lacks every tenth and adds n/10
 *      new ones at the front (10 % churn, every position shifted);
 *   1  n instances all named "svchost"; the newer lacks the first, so
 *      every #N shifts by one;
 *   2  n children named "c" of one parent whose name is
 *      ADV_PAIR_PARENT_UNITS 'P's, in both;
 *   3  two parents with one name of ADV_PAIR_PARENT_UNITS 'P's; children
 *      "c<i / 2>" alternating between them (each name twice, #0 and #1),
 *      the parents swapped in the newer capture;
 *  4  n names of ADV_PAIR_LONG_NAME euro signs (U+20AC, 3 bytes of
 *      UTF-8 each) and the decimal i: longer than any counter path's
 *      instance part, and than the UTF-8 area names are matched in.
 * Every instance of the newer capture but the new ones of shape 0 and
 * pairs (shape 1: n - 1 pairs).
 */
void adv_pair(uint32_t n, int shape, tb_buf *older, tb_buf *newer);

/*
 * Two V1 captures of one CF_PROCESS object of ADV_EVERY_INSTANCES
 * instances, each of n / 8 + 1 PERF_COUNTER_RAWCOUNT counters (title
 * indexes 1000, 1002, ..., 4 bytes apart) and a name of n / 8 + 1 'a's and
 * its number: what a query's counter "*" spreads into one item per
 * instance and counter, the name shared by all of them. The newer capture
 * lacks the first instance.
 */
/*
 * Two V1 captures of n objects that all carry the title CF_PROCESS, each
 * with one instance "p<i>" and the fixture's two counters (CF_CPU,
 * CF_COUNT): a path names every one of them. The newer capture lacks the
 * first object.
 */
void adv_repeated_title(uint32_t n, tb_buf *older, tb_buf *newer);

#define ADV_EVERY_INSTANCES 16u
void adv_every_counter(uint32_t n, tb_buf *older, tb_buf *newer);
/* adv_every_counter's shape with every definition of one title: a counter
 * of every definition pairs the k-th with the k-th of n / 8 + 1 of one
 * key in each instance. */
void adv_one_title_definitions(uint32_t n, tb_buf *older, tb_buf *newer);

/* Two V2 query buffers of cf_v2_capture (tests/collector_fixture.h) with
 * n instances: shape 0: ids k and names "i<k>", the newer lacking every
 * tenth and adding n/10 new ids first; 1: every instance id 7 named "w",
 * the newer lacking the first (every #N shifts). Newer instances pair but
 * for the new ones (shape 1: n - 1 pairs). */
void adv_pair_v2(uint32_t n, int shape, tb_buf *older, tb_buf *newer);

/* Two V1 captures of cf_capture with n processes, all named "svchost",
 * UniqueIDs 0 to n - 1: the newer lacks the first. By name every one
 * shares the key "svchost" (#N counts within a UniqueID); by UniqueID the
 * n - 1 left pair with their own. */
void adv_pair_unique_id(uint32_t n, tb_buf *older, tb_buf *newer);

/* ---- V1 name tables ---- */

/* n pairs; order 0: indexes ADV_NAMES_BASE + 2, + 4, ... ascending; 1:
 * descending; 2: every index ADV_NAMES_BASE + 2 (duplicates). Text of the
 * pair with index k is "T<k>". The base keeps every index the same number
 * of digits, so the bytes grow exactly linearly in n. */
#define ADV_NAMES_BASE 1000000u
tb_buf adv_names(uint32_t n, int order);
/* One pair ADV_NAMES_BASE + 2 / a text of n characters 'x'. */
tb_buf adv_names_long_text(uint32_t n);
/* n pairs, indexes ascending as in adv_names, texts for the title sort:
 * shape 0: every text "Same"; shape 1: ADV_NAMES_PREFIX 'a's then the
 * 7-digit index, descending by text while the indexes ascend; shape 2:
 * indexes that rise and restart every 64 entries, texts "T<index>". */
#define ADV_NAMES_PREFIX 64u
tb_buf adv_names_texts(uint32_t n, int shape);
/* One single-instance object (title ADV_NAMES_BASE) of n counters whose
 * titles are those of adv_names_texts(n, 2), in that table's order. */
tb_buf adv_v1_titled_counters(uint32_t n);
/* A registration of n PERF_COUNTER_RAWCOUNT counters, ids 0..n-1, and a
 * string block naming counter k "<ADV_NAMES_PREFIX 'a's><k, 7 digits>":
 * every name shares the prefix, so each comparison reads it. */
void adv_v2_named_counters(uint32_t n, tb_buf *reginfo, tb_buf *strings);

/* ---- V2 query data ---- */

/* n blocks cycling through the five kinds: error (status 0x1068); single
 * counter (value i); multiple counters (ids 0..3, values 10 * i + k);
 * multiple instances (2 instances "a<i>", "b<i>", values i and i + 1);
 * counterset (ids 0..3, 2 instances, value 100 * i + 10 * j + k). */
tb_v2 adv_v2_many_blocks(uint32_t n);
/* Block 0: multiple counters with ids 0..n-1 (value k at position k);
 * block 1: a counterset with the same ids and 2 instances (value
 * 1000000 * (j + 1) + k). */
tb_v2 adv_v2_wide(uint32_t n);
/* One counterset block of ids 0..3 and n instances named "i<j>". */
tb_v2 adv_v2_many_instances(uint32_t n);
/* One counterset block of one id and one instance whose name is n
 * characters, every fourth a lone high surrogate. */
tb_v2 adv_v2_long_name(uint32_t n);

/*
 * The worst case of perfbuf_v2_plan_format_block_doubles: counterset
 * blocks of ADV_V2_DOUBLES_ROWS instances (one 32-row step and a step of
 * one row, so each column's setup is paid for a single row), n instances
 * in all, each of the 16 counters of adv_v2_doubles_registration, most of
 * which leave the call's clocked column loops for the value-by-value
 * path: fractions and averages with their bases, an object timer with its
 * time and frequency counters, a multi timer with its multi counter, a
 * rate scaled by 10^3. Two captures: `tick` moves every value and clock
 * (value of counter k of instance j of block b: 1000 * (33 * b + j) + 7 *
 * k + 1 + tick * (k + 1), bases and the multi count included).
 */
#define ADV_V2_DOUBLES_ROWS 33u
#define ADV_V2_DOUBLES_COUNTERS 16u
tb_v2 adv_v2_doubles_worst(uint32_t n, uint32_t tick);
/* The registration of adv_v2_doubles_worst's counters (ids 0..15). */
tb_buf adv_v2_doubles_registration(void);

/* ---- V2 metadata ---- */

/* A registration row with every reference field. */
typedef struct adv_reg_row {
    uint32_t id, type, base, time, freq, multi;
} adv_reg_row;

tb_buf adv_reginfo_rows(const adv_reg_row *rows, uint32_t count, uint32_t instance_type,
                        const uint8_t guid[16]);

/* n counters. The last four are a base (PERF_AVERAGE_BASE), a time and a
 * frequency (PERF_COUNTER_LARGE_RAWCOUNT) and a multi divisor
 * (PERF_COUNTER_RAWCOUNT); every other one is a PERF_AVERAGE_BULK naming
 * all four. Ids: ascending (k), or descending (n - 1 - k) when
 * `unordered`, which needs the indexed parse. Instance type multiple. */
tb_buf adv_reginfo_refs(uint32_t n, int unordered);
/* Id of the k-th counter of adv_reginfo_refs. */
uint32_t adv_reginfo_refs_id(uint32_t n, int unordered, uint32_t k);

/* n string headers, ids ascending (0..n-1), or descending when
 * `unordered`. shape 0: each its own string "s<k>"; 1: all pointing at one
 * string "x" (a legal sharing: the area after the headers holds n copies'
 * worth of bytes); 2: all pointing at one string of n characters (more
 * sharing than the area holds: rejected with PERFBUF_E_OVERLAP). Offsets
 * count from the end of the header array. */
tb_buf adv_strings(uint32_t n, int shape, int unordered);

/* n identifiers of the counterset `guid`, counter id k % 8, Index k, name
 * "n<k>". */
tb_buf adv_identifiers(uint32_t n, const uint8_t guid[16]);
/* One identifier whose name is n characters. */
tb_buf adv_identifier_long_name(uint32_t n);

/* n instance headers "i<k>", id k (PerfEnumerateCounterSetInstances). */
tb_buf adv_instance_list(uint32_t n);
/* n GUIDs. */
tb_buf adv_countersets(uint32_t n);
/* One string answer of n characters. */
tb_buf adv_string_answer(uint32_t n);

/* The counterset guid of the cross-check shapes, and one that differs. */
extern const uint8_t adv_guid[16];
extern const uint8_t adv_other_guid[16];

/* The registration of the cross-check shapes: ids 0..7, even ids 4-byte
 * raw counts, odd ids 8-byte large raw counts, multiple instances. */
tb_buf adv_crosscheck_registration(void);

/*
 * Query data of n blocks cycling through single counter, multiple
 * counters (ids 0..7), multiple instances and counterset (ids 0..7, 2
 * instances), all agreeing with adv_crosscheck_registration, and their
 * identifiers. ids_shape:
 *   0  one per block, Index ascending;
 *   1  the same with the first two swapped (one out-of-order pair);
 *   2  ascending, each followed by a failed identifier (status 0x1068)
 *      whose Index is past the blocks;
 *   3  ascending, each followed by one of another counterset whose Index
 *      is past the blocks (so usable Indexes are out of order).
 */
void adv_crosscheck(uint32_t n, int ids_shape, tb_v2 *query, tb_buf *ids);

/* One counterset block of ids 0..n-1 (even 4-byte, odd 8-byte values)
 * and 2 instances, and its registration of n counters: the lookups past
 * the first 64 positions of the id list. */
void adv_crosscheck_wide(uint32_t n, tb_v2 *query, tb_buf *registration);

/* One counterset block of 2 instances over the n counters of
 * adv_reginfo_refs(n, 0) listed in descending id order (positions and ids
 * differ, every counter refers to the last four), and that registration:
 * the worst case of a value plan's build and samples. */
void adv_plan(uint32_t n, tb_v2 *query, tb_buf *registration);

/* adv_plan made irregular, so that a value plan's samples must take the
 * answers of the walk (the first integer value under each id):
 *   0  the last position's value (id 0) 16 bytes wide: one value that is
 *      not an integer among n;
 *   1  the four counters every other one refers to listed again after
 *      the n (n + 4 positions), every value an integer: repeated ids;
 *   2  as 1, with the first value of each of the four 16 bytes wide, so
 *      every reference is answered by the copies at the far end.
 * Registration as adv_plan. */
enum { ADV_PLAN_ONE_WIDE, ADV_PLAN_REPEATED, ADV_PLAN_REPEATED_WIDE };
void adv_plan_irregular(uint32_t n, int shape, tb_v2 *query, tb_buf *registration);

/* Two captures for sampling in pairs, whose layouts differ at every
 * position: the registration's n counters (n >= 2; ids 0..n-1, the last a
 * PERF_AVERAGE_BASE, each other a PERF_AVERAGE_BULK over it); the newer
 * capture lists ids 1..n-1 and the older 0..n-1, so each id sits one
 * position later in the older one and no place the newer side found holds
 * the same id in the older. Both: one counterset block, 2 instances, every
 * value 8 bytes (a uniform layout); id k of instance j holds 2k + j in the
 * older and 2^40 + 2k + j in the newer. */
void adv_sample_pair(uint32_t n, tb_v2 *newer, tb_v2 *older, tb_buf *registration);

/* ---- text ---- */

/* n UTF-16LE units: ASCII, a BMP character, a pair, lone and reversed
 * surrogates, repeated. */
tb_buf adv_utf16(uint32_t n);
/* n bytes in the code page with bytes invalid or unassigned there. */
tb_buf adv_code_page_text(uint32_t n, uint32_t code_page);

/* ---- OpenMetrics text (perfbuf/openmetrics.h) ---- */

/* An object's name of n bytes for perfbuf_openmetrics_name: letters,
 * a separator and a byte that is not UTF-8, repeated ("Ab%\xFF..."), so
 * that every byte is a character or a run of separators. */
tb_buf adv_om_object(uint32_t n);
/* A counter's name that repeats adv_om_object(n) whole, then " Z Total/sec":
 * the object's words are compared to the end, and both trailing words
 * dropped. */
tb_buf adv_om_counter(uint32_t n);
/* n bytes of which every character is escaped or replaced: quotes,
 * backslashes, line feeds, ESC, a byte that is not UTF-8 and U+202E. */
tb_buf adv_om_escapes(uint32_t n);

/* ---- values ---- */

/* n raw samples of PERF_COUNTER_COUNTER, every fifth of another type or
 * not valid. Caller frees. */
perfbuf_raw_sample *adv_samples(uint32_t n);

#endif
