/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The Counter/Help name-table reader on arbitrary bytes: rejections point
 * inside the input; after a success every entry converts, the sorted index
 * finds exactly what the linear walk finds, and strict implies lenient.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "perfbuf/names.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    perfbuf_name_table t;
    perfbuf_error err;
    perfbuf_status st = perfbuf_names_parse(data, size, NULL, &t, &err);
    if (st != PERFBUF_OK) {
        ORACLE(err.offset <= size);
        ORACLE(err.structure != NULL && err.field != NULL);
    } else {
        ORACLE(t.size <= size);
        perfbuf_name_slot *slots = malloc(sizeof *slots * (t.count ? t.count : 1));
        if (slots == NULL) {
            return 0;
        }
        perfbuf_name_index index;
        ORACLE(perfbuf_names_index_build(&t, slots, t.count, &index) == PERFBUF_OK);
        for (uint32_t i = 1; i < index.count; i++) {
            ORACLE(slots[i - 1].title_index <= slots[i].title_index);
        }
        perfbuf_names_iter it;
        perfbuf_name_entry e;
        uint32_t n = 0;
        perfbuf_names_begin(&t, &it);
        while (perfbuf_names_next(&t, &it, &e)) {
            ORACLE(oracle_inside(e.text_offset, e.text_units * 2, size));
            char text[64];
            size_t len;
            perfbuf_status conv = perfbuf_names_text_utf8(&t, &e, text, sizeof text, &len);
            ORACLE(conv == PERFBUF_OK || conv == PERFBUF_E_OUTPUT_TOO_SMALL);
            perfbuf_name_entry linear;
            perfbuf_name_entry sorted;
            ORACLE(perfbuf_names_find(&t, e.title_index, &linear) == PERFBUF_OK);
            ORACLE(perfbuf_names_index_find(&t, &index, e.title_index, &sorted) == PERFBUF_OK);
            ORACLE(linear.offset == sorted.offset && linear.offset <= e.offset);
            n++;
        }
        ORACLE(n == t.count);
        free(slots);
    }
    perfbuf_options strict_opts = {PERFBUF_STRICT, 0, 0, 0};
    perfbuf_name_table strict;
    if (perfbuf_names_parse(data, size, &strict_opts, &strict, &err) == PERFBUF_OK) {
        ORACLE(st == PERFBUF_OK && t.anomalies == 0);
    }
    return 0;
}
