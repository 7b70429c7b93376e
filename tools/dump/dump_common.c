/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include <stdio.h>

#include "dump.h"
#include "perfbuf/values.h"

void dump_systemtime(emitter *e, const char *key, const perfbuf_systemtime *t)
{
    char text[64];
    snprintf(text, sizeof text, "%04u-%02u-%02uT%02u:%02u:%02u.%03uZ", (unsigned)t->year,
             (unsigned)t->month, (unsigned)t->day, (unsigned)t->hour, (unsigned)t->minute,
             (unsigned)t->second, (unsigned)t->milliseconds);
    emit_str(e, key, text);
}

static const struct {
    uint32_t bit;
    const char *name;
} anomaly_names[] = {
    {PERFBUF_ANOMALY_UNALIGNED_SIZE, "unaligned-size"},
    {PERFBUF_ANOMALY_TRAILING_BYTES, "trailing-bytes"},
    {PERFBUF_ANOMALY_EXCESS_PADDING, "excess-padding"},
    {PERFBUF_ANOMALY_RESERVED_NONZERO, "reserved-nonzero"},
    {PERFBUF_ANOMALY_COUNT_MISMATCH, "count-mismatch"},
    {PERFBUF_ANOMALY_UNKNOWN_VALUE, "unknown-value"},
    {PERFBUF_ANOMALY_SIZE_MISMATCH, "size-mismatch"},
    {PERFBUF_ANOMALY_DUPLICATE, "duplicate"},
    {PERFBUF_ANOMALY_MISSING_BASE, "missing-base"},
    {PERFBUF_ANOMALY_UNTERMINATED, "unterminated"},
};

void dump_anomalies(emitter *e, uint32_t anomalies, const perfbuf_error *first)
{
    emit_list_begin(e, "anomalies");
    for (size_t i = 0; i < sizeof anomaly_names / sizeof anomaly_names[0]; i++) {
        if (anomalies & anomaly_names[i].bit) {
            emit_str(e, NULL, anomaly_names[i].name);
        }
    }
    emit_list_end(e);
    if (anomalies != 0) {
        emit_object_begin(e, "first_anomaly");
        emit_hex(e, "offset", first->offset);
        emit_str(e, "structure", first->structure);
        emit_str(e, "field", first->field);
        emit_str(e, "status", perfbuf_status_name(first->status));
        emit_object_end(e);
    }
}

uint32_t dump_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* The status of a value that could not be formatted, by name. */
const char *dump_value_status_name(uint32_t st)
{
    switch (st) {
    case PERFBUF_CSTATUS_INVALID_DATA:
        return "invalid-data";
    case PERFBUF_CALC_NEGATIVE_DENOMINATOR:
        return "negative-denominator";
    case PERFBUF_CALC_NEGATIVE_TIMEBASE:
        return "negative-timebase";
    case PERFBUF_CALC_NEGATIVE_VALUE:
        return "negative-value";
    case PERFBUF_INVALID_ARGUMENT:
        return "not-displayable";
    case PERFBUF_INVALID_DATA:
        return "out-of-range";
    default:
        return "unknown";
    }
}

void dump_side_rejected(const char *what, const perfbuf_error *err)
{
    fprintf(stderr, "perfbuf-dump: the %s is rejected: offset 0x%zx: %s.%s: %s\n", what,
            err->offset, err->structure, err->field, perfbuf_status_string(err->status));
}

void dump_guid(emitter *e, const char *key, const perfbuf_guid *g)
{
    char text[PERFBUF_GUID_STRING_SIZE];
    perfbuf_guid_format(g, text);
    emit_str(e, key, text);
}
