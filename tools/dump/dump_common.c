#include <stdio.h>

#include "dump.h"

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
    {PERFBUF_ANOMALY_UNORDERED, "unordered"},
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
