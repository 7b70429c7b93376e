/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Test-side builder of the V2 metadata answers: counterset registration,
 * string answers, string blocks and counter identifiers, plus the
 * Processor Information counterset as Microsoft's example describes it.
 */
#ifndef PERFBUF_TEST_BUILDER_V2META_H
#define PERFBUF_TEST_BUILDER_V2META_H

#include "builder.h"
#include "perfbuf/v2_meta.h"

typedef struct tb_reg_row {
    uint32_t id;
    uint32_t type;
    uint32_t base;          /* BaseCounterId or PERFBUF_V2_NO_ID */
    const char *name;
} tb_reg_row;

/* The 31 counters of Processor Information, in id order (no id 29). */
#define TB_PROCESSOR_INFORMATION_COUNTERS 31u
extern const tb_reg_row tb_processor_information[TB_PROCESSOR_INFORMATION_COUNTERS];
/* {b4fc721a-0378-476f-89ba-a5a79f810b36} as its 16 bytes on the wire. */
extern const uint8_t tb_processor_information_guid[16];

/* PERF_COUNTERSET_REG_INFO + rows (scale 0, detail novice, no time ids). */
tb_buf tb_v2_reginfo(const tb_reg_row *rows, uint32_t count, uint32_t instance_type);

/*
 * A PERF_COUNTERSET query block of Processor Information with these
 * instance names; value k of instance i is (i + 1) * 1000 + id, with the
 * size the counter's type gives.
 */
tb_v2 tb_v2_processor_information_query(const char *const *instances, uint32_t count);

/* A single-string answer: UTF-16LE with its NUL. */
tb_buf tb_v2_string_answer(const char *utf8);

/*
 * A PERF_STRING_BUFFER_HEADER block naming rows[i].id with rows[i].name
 * (NULL: no string), offsets counted from the given origin (not AUTO);
 * padded to 8.
 */
tb_buf tb_v2_strings(const tb_reg_row *rows, uint32_t count, perfbuf_v2_string_origin origin);

/* Appends one PERF_COUNTER_IDENTIFIER (name NULL: none), padded to 8. */
void tb_v2_identifier(tb_buf *b, const uint8_t guid[16], uint32_t status, uint32_t counter_id,
                      uint32_t instance_id, uint32_t query_index, const char *name);

#endif
