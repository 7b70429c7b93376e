/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Names to title indexes and counter paths to V1 objects and counters
 * (docs/paths.md, "Resolution").
 *
 * Titles compare as PDH compares them, case-insensitively, under one
 * documented folding: ASCII, Latin-1 Supplement and Latin Extended-A
 * letters fold to their simple lowercase (U+0041-U+005A, U+00C0-U+00DE
 * but U+00D7, the capital/small pairs of U+0100-U+017F, and U+0178 to
 * U+00FF); every other UTF-16 unit compares as itself. So "PROZESSORZEIT"
 * matches "Prozessorzeit", "ÄNDERUNGEN" matches "Änderungen"; "ß" and "SS"
 * stay different, as do the dotted and dotless i (U+0130, U+0131).
 *
 * Everything here allocates nothing, does not recurse and reads the tables
 * and the block only through the cursor.
 */
#ifndef PERFBUF_RESOLVE_H
#define PERFBUF_RESOLVE_H

#include "perfbuf/common.h"
#include "perfbuf/names.h"
#include "perfbuf/paths.h"
#include "perfbuf/v1.h"
#include "perfbuf/v2_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- title -> index ---- */

/* One entry of a table, by its text. Slots come from the caller's memory:
 * every read through them is bounds-checked against the table again. */
typedef struct perfbuf_title_slot {
    size_t text_offset;
    size_t text_units;
    uint32_t title_index;
} perfbuf_title_slot;

/* A table's entries sorted by folded text, then by position in the table. */
typedef struct perfbuf_title_index {
    const perfbuf_name_table *table;
    const perfbuf_title_slot *slots;
    uint32_t count;
} perfbuf_title_index;

/* The slots perfbuf_title_index_build needs for t: 2 * t->count (a
 * bottom-up merge sort: the second half is its scratch). */
PERFBUF_API size_t perfbuf_title_index_slots(const perfbuf_name_table *t);

/*
 * Sorts every entry of t by folded text into slots[0 .. t->count).
 * slots must hold perfbuf_title_index_slots(t) entries (OUTPUT_TOO_SMALL
 * otherwise) and outlive *out, as must t. Cost: ceil(log2 n) merge passes;
 * a comparison stops at the first difference and is charged to the entry
 * it moves, so each pass costs at most the table's text units plus n:
 * O(bytes * log n) whatever the texts (all equal, long shared prefixes).
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_title_index_build(
    const perfbuf_name_table *t, perfbuf_title_slot *slots, size_t cap,
    perfbuf_title_index *out);

/*
 * Every entry whose text equals the UTF-8 name (folded as above): slots
 * [*first, *first + *count) of the index, in table order among themselves.
 * NOT_FOUND (and *count 0) when there is none; INVALID_ARGUMENT for
 * invalid UTF-8. O(log n * (name length + 1)): two binary searches.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_title_index_find(
    const perfbuf_title_index *index, const char *utf8, size_t len, uint32_t *first,
    uint32_t *count);

/*
 * Whether an entry's text equals the UTF-8 name, folded as above. Stops at
 * the first difference: O(min(text, name) + 1).
 */
PERFBUF_API bool perfbuf_title_equals_utf8(const perfbuf_name_table *t,
                                           const perfbuf_name_entry *e, const char *utf8,
                                           size_t len);

/* ---- counter paths on a V1 block ---- */

/* The tables a block's titles are read with. Either language may be
 * absent (NULL table); each table needs its index (perfbuf_names_index_build). */
typedef struct perfbuf_title_tables {
    const perfbuf_name_table *english;     /* the "009" Counter table */
    const perfbuf_name_index *english_index;
    const perfbuf_name_table *localized;   /* the system language's table */
    const perfbuf_name_index *localized_index;
} perfbuf_title_tables;

typedef enum perfbuf_language {
    PERFBUF_LANGUAGE_ENGLISH = 1,
    PERFBUF_LANGUAGE_LOCALIZED = 2
} perfbuf_language;

/* Which table's text matched the path: a PERFBUF_LANGUAGE_* bit each. */
typedef uint32_t perfbuf_language_set;

/*
 * Which tables name title_index with exactly the UTF-8 name (folded as
 * above): 0 when neither does. Two O(log n) lookups and two comparisons
 * that stop at the first difference. Invalid UTF-8 matches nothing.
 */
PERFBUF_API perfbuf_language_set perfbuf_title_matches(const perfbuf_title_tables *names,
                                                       uint32_t title_index, const char *utf8,
                                                       size_t len);

/*
 * The next object of the block (after `it`, started with
 * perfbuf_v1_objects_begin) whose ObjectNameTitleIndex has, in the English
 * or the localized table, a text equal to the path's object name. So an
 * English path resolves on a localized system and a localized one too.
 * *matched (may be NULL) says which tables matched.
 *
 * Ambiguity is resolved by listing, never by choosing: every object that
 * matches comes out, in block order, one per call, whether several objects
 * share a title index or several indexes share a text. NOT_FOUND when no
 * further object matches; then *err (may be NULL) names structure
 * "COUNTER_PATH", field "Object" and the object's offset in the path.
 * Each object costs two O(log n) index lookups and two comparisons of at
 * most the name's length: a whole enumeration is linear in the objects.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_resolve_object(
    const perfbuf_v1_block *b, const perfbuf_title_tables *names,
    const perfbuf_counter_path *path, perfbuf_v1_iter *it, perfbuf_v1_object *out,
    perfbuf_language_set *matched, perfbuf_error *err);

/*
 * The same for the counters of object o (`it` started with
 * perfbuf_v1_counters_begin): the next definition with a displayable value
 * whose CounterNameTitleIndex has a text equal to the path's counter name,
 * or, for the counter "*", the next one with a displayable value. Base
 * counters are skipped either way, as PDH does not list them: Windows'
 * providers give a base its counter's title index, so a name alone would
 * find it too. NOT_FOUND names field "Counter".
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v1_resolve_counter(
    const perfbuf_v1_block *b, const perfbuf_title_tables *names,
    const perfbuf_counter_path *path, perfbuf_v1_iter *it, perfbuf_v1_counter *out,
    perfbuf_language_set *matched, perfbuf_error *err);

/*
 * A title index's text in one language as UTF-8 (text.h contract), for
 * naming results either way. NOT_FOUND when that table lacks the index or
 * was not given. O(log n) plus the text.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_title_text_utf8(
    const perfbuf_title_tables *names, perfbuf_language language, uint32_t title_index,
    char *out, size_t cap, size_t *len);

/* ---- counter paths on V2 metadata ---- */

/*
 * Whether the path's object names the counterset of registration r: either
 * its GUID written as perfbuf_guid_format writes it, braces included, hex
 * digits in either case (`\{b4fc721a-0378-476f-89ba-a5a79f810b36}\0`), or
 * its name `name` (the counterset's name answer, perfbuf_v2_string_parse;
 * may be NULL) folded as above. O(the object part + 38).
 */
PERFBUF_API bool perfbuf_v2_counterset_matches(const perfbuf_v2_reginfo *r,
                                               const perfbuf_v2_string *name,
                                               const perfbuf_counter_path *path);

/*
 * The next registered counter of r, from position *next (start at 0;
 * advanced past the one returned), that the path's counter part names:
 * its string in `names` (a v2-strings block of counter names; may be NULL)
 * equal to the part, folded as above; or, when the part is decimal digits
 * only, its counter id; or, for "*", every counter whose type has a
 * displayable value. Each counter matched comes out once, in registration
 * order, as for V1. NOT_FOUND, with *err naming structure "COUNTER_PATH",
 * field "Counter" and the part's offset, when none further matches.
 * A whole enumeration is O(counters × (log strings + the part's length))
 * plus the strings' bytes.
 */
PERFBUF_API PERFBUF_MUST_USE perfbuf_status perfbuf_v2_resolve_counter(
    const perfbuf_v2_reginfo *r, const perfbuf_v2_strings *names,
    const perfbuf_counter_path *path, uint32_t *next, perfbuf_v2_counter_reg *out,
    perfbuf_error *err);

#ifdef __cplusplus
}
#endif

#endif
