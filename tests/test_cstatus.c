/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Value statuses: PDH's numbers under the PERFBUF_CSTATUS_ / PERFBUF_PDH_
 * names, and the one table behind perfbuf_cstatus_name and _string.
 */
#include <string.h>

#include "perfbuf/counter_types.h"
#include "perfbuf/values.h"
#include "harness.h"

/*
 * The expected numbers are pdhmsg.h's, written out here rather than taken
 * from the library, so that a renamed or mistyped macro cannot carry its
 * error into the expectation.
 */
typedef struct pdh_row {
    uint32_t value;       /* the library's macro */
    uint32_t pdh;         /* pdhmsg.h's number */
    const char *name;     /* the name the library must give it */
} pdh_row;

static const pdh_row pdh_rows[] = {
    {PERFBUF_CSTATUS_VALID_DATA, 0x00000000u, "PERFBUF_CSTATUS_VALID_DATA"},
    {PERFBUF_CSTATUS_NEW_DATA, 0x00000001u, "PERFBUF_CSTATUS_NEW_DATA"},
    {PERFBUF_CSTATUS_NO_MACHINE, 0x800007D0u, "PERFBUF_CSTATUS_NO_MACHINE"},
    {PERFBUF_CSTATUS_NO_INSTANCE, 0x800007D1u, "PERFBUF_CSTATUS_NO_INSTANCE"},
    {PERFBUF_CSTATUS_ITEM_NOT_VALIDATED, 0x800007D3u, "PERFBUF_CSTATUS_ITEM_NOT_VALIDATED"},
    {PERFBUF_PDH_NO_DATA, 0x800007D5u, "PERFBUF_PDH_NO_DATA"},
    {PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR, 0x800007D6u, "PERFBUF_PDH_CALC_NEGATIVE_DENOMINATOR"},
    {PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE, 0x800007D7u, "PERFBUF_PDH_CALC_NEGATIVE_TIMEBASE"},
    {PERFBUF_PDH_CALC_NEGATIVE_VALUE, 0x800007D8u, "PERFBUF_PDH_CALC_NEGATIVE_VALUE"},
    {PERFBUF_CSTATUS_NO_OBJECT, 0xC0000BB8u, "PERFBUF_CSTATUS_NO_OBJECT"},
    {PERFBUF_CSTATUS_NO_COUNTER, 0xC0000BB9u, "PERFBUF_CSTATUS_NO_COUNTER"},
    {PERFBUF_CSTATUS_INVALID_DATA, 0xC0000BBAu, "PERFBUF_CSTATUS_INVALID_DATA"},
    {PERFBUF_PDH_INVALID_ARGUMENT, 0xC0000BBDu, "PERFBUF_PDH_INVALID_ARGUMENT"},
    {PERFBUF_CSTATUS_NO_COUNTERNAME, 0xC0000BBFu, "PERFBUF_CSTATUS_NO_COUNTERNAME"},
    {PERFBUF_CSTATUS_BAD_COUNTERNAME, 0xC0000BC0u, "PERFBUF_CSTATUS_BAD_COUNTERNAME"},
    {PERFBUF_PDH_INVALID_DATA, 0xC0000BC6u, "PERFBUF_PDH_INVALID_DATA"},
};
#define PDH_ROWS (sizeof pdh_rows / sizeof pdh_rows[0])

/* The table's own rows, to find one this file does not list. */
static const uint32_t table_values[] = {
#define PERFBUF_CSTATUS_ROW(name, token, text) PERFBUF_##name,
#include "perfbuf/cstatus.def"
#undef PERFBUF_CSTATUS_ROW
};
#define TABLE_ROWS (sizeof table_values / sizeof table_values[0])

static void numbers_are_pdhs(void)
{
    for (size_t i = 0; i < PDH_ROWS; i++) {
        CHECK_EQ_U(pdh_rows[i].value, pdh_rows[i].pdh);
    }
}

static void every_status_has_its_name_and_a_sentence(void)
{
    for (size_t i = 0; i < PDH_ROWS; i++) {
        CHECK_STR(perfbuf_cstatus_name(pdh_rows[i].pdh), pdh_rows[i].name);
        const char *text = perfbuf_cstatus_string(pdh_rows[i].pdh);
        CHECK(text != NULL && text[0] != '\0');
        CHECK(strcmp(text, "unknown value status") != 0);
    }
}

/* A row added to cstatus.def without a line above would go untested. */
static void the_table_is_the_list_above(void)
{
    CHECK_EQ_U(TABLE_ROWS, PDH_ROWS);
    for (size_t i = 0; i < TABLE_ROWS; i++) {
        bool listed = false;
        for (size_t k = 0; k < PDH_ROWS; k++) {
            listed = listed || pdh_rows[k].pdh == table_values[i];
        }
        CHECK(listed);
    }
}

static void names_numbers_and_sentences_are_unique(void)
{
    for (size_t i = 0; i < TABLE_ROWS; i++) {
        for (size_t k = i + 1; k < TABLE_ROWS; k++) {
            CHECK(table_values[i] != table_values[k]);
            CHECK(strcmp(perfbuf_cstatus_name(table_values[i]),
                         perfbuf_cstatus_name(table_values[k])) != 0);
            CHECK(strcmp(perfbuf_cstatus_string(table_values[i]),
                         perfbuf_cstatus_string(table_values[k])) != 0);
        }
    }
}

/* No value-status name may read like a parser status's PERFBUF_E_ name. */
static void names_are_not_parser_names(void)
{
    for (size_t i = 0; i < TABLE_ROWS; i++) {
        const char *name = perfbuf_cstatus_name(table_values[i]);
        CHECK(strncmp(name, "PERFBUF_CSTATUS_", 16) == 0 || strncmp(name, "PERFBUF_PDH_", 12) == 0);
        CHECK(strncmp(name, "PERFBUF_E_", 10) != 0);
    }
}

/* PDH numbers the library neither produces nor names, and arbitrary ones. */
static void unknown_numbers(void)
{
    static const uint32_t unknown[] = {
        0x00000002u, 0x800007D2u /* PDH_MORE_DATA */, 0x800007D4u /* PDH_RETRY */,
        0xC0000BBBu /* PDH_MEMORY_ALLOCATION_FAILURE */, 0xC0000BBCu /* PDH_INVALID_HANDLE */,
        0xC0000BC2u /* PDH_INSUFFICIENT_BUFFER */, 0x12345678u, 0xFFFFFFFFu,
    };
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        CHECK(perfbuf_cstatus_name(unknown[i]) == NULL);
        CHECK_STR(perfbuf_cstatus_string(unknown[i]), "unknown value status");
    }
}

/* Every status the functions return can be named, not only the listed ones. */
static void returned_statuses_have_names(void)
{
    perfbuf_value_context ctx = {1000, 0};
    perfbuf_raw_sample s1 = {PERFBUF_CSTATUS_VALID_DATA, PERF_COUNTER_COUNTER, 100, 10, 0, 0};
    perfbuf_raw_sample s0 = {PERFBUF_CSTATUS_VALID_DATA, PERF_COUNTER_COUNTER, 200, 0, 0, 0};
    perfbuf_value v;
    uint32_t st = perfbuf_format_value(s1.type, &s1, &s0, &ctx, PERFBUF_FMT_DOUBLE, &v);
    CHECK_STR(perfbuf_cstatus_name(st), "PERFBUF_PDH_CALC_NEGATIVE_VALUE");
    st = perfbuf_format_value(s1.type, &s1, &s0, &ctx, 0, &v);
    CHECK_STR(perfbuf_cstatus_name(st), "PERFBUF_PDH_INVALID_ARGUMENT");
}

static const th_case cases[] = {
    TH_CASE(numbers_are_pdhs),
    TH_CASE(every_status_has_its_name_and_a_sentence),
    TH_CASE(the_table_is_the_list_above),
    TH_CASE(names_numbers_and_sentences_are_unique),
    TH_CASE(names_are_not_parser_names),
    TH_CASE(unknown_numbers),
    TH_CASE(returned_statuses_have_names),
};
TH_MAIN(cases)
