/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "perfbuf/common.h"
#include "perfbuf/values.h"
#include "perfbuf/version.h"
#include "core/work.h"

static const char *const status_names[PERFBUF_STATUS_COUNT] = {
#define PERFBUF_ERROR(name, text) "PERFBUF_E_" #name,
#include "perfbuf/errors.def"
#undef PERFBUF_ERROR
};

static const char *const status_strings[PERFBUF_STATUS_COUNT] = {
#define PERFBUF_ERROR(name, text) text,
#include "perfbuf/errors.def"
#undef PERFBUF_ERROR
};

const char *perfbuf_status_name(perfbuf_status status)
{
    if ((unsigned)status >= (unsigned)PERFBUF_STATUS_COUNT) {
        return "PERFBUF_E_UNKNOWN";
    }
    return status_names[status];
}

const char *perfbuf_status_string(perfbuf_status status)
{
    if ((unsigned)status >= (unsigned)PERFBUF_STATUS_COUNT) {
        return "unknown status";
    }
    return status_strings[status];
}

/* A row whose macro is missing or misspelt stops the build here. */
#define PERFBUF_CSTATUS_ROW(name, token, text) \
    _Static_assert(PERFBUF_##name == (uint32_t)PERFBUF_##name, "PERFBUF_" #name);
#include "perfbuf/cstatus.def"
#undef PERFBUF_CSTATUS_ROW

typedef struct cstatus_row {
    uint32_t value;
    const char *name;
    const char *text;
} cstatus_row;

static const cstatus_row cstatus_rows[] = {
#define PERFBUF_CSTATUS_ROW(name, token, text) {PERFBUF_##name, "PERFBUF_" #name, text},
#include "perfbuf/cstatus.def"
#undef PERFBUF_CSTATUS_ROW
};

/* Sixteen rows: a linear search costs less than keeping a sorted copy right. */
static const cstatus_row *cstatus_find(uint32_t status)
{
    for (size_t i = 0; i < sizeof cstatus_rows / sizeof cstatus_rows[0]; i++) {
        PB_WORK(1);
        if (cstatus_rows[i].value == status) {
            return &cstatus_rows[i];
        }
    }
    return NULL;
}

const char *perfbuf_cstatus_name(uint32_t status)
{
    const cstatus_row *row = cstatus_find(status);
    return row != NULL ? row->name : NULL;
}

const char *perfbuf_cstatus_string(uint32_t status)
{
    const cstatus_row *row = cstatus_find(status);
    return row != NULL ? row->text : "unknown value status";
}

int perfbuf_version_number(void)
{
    return PERFBUF_VERSION_NUMBER;
}

const char *perfbuf_version_string(void)
{
    return PERFBUF_VERSION_STRING;
}

static char hex_digit(unsigned v)
{
    return "0123456789abcdef"[v & 15u];
}

static char *put_hex(char *out, uint32_t v, int digits)
{
    for (int i = digits - 1; i >= 0; i--) {
        PB_WORK(1);
        *out++ = hex_digit((unsigned)(v >> (4 * i)));
    }
    return out;
}

void perfbuf_guid_format(const perfbuf_guid *guid, char out[PERFBUF_GUID_STRING_SIZE])
{
    char *p = out;
    *p++ = '{';
    p = put_hex(p, guid->data1, 8);
    *p++ = '-';
    p = put_hex(p, guid->data2, 4);
    *p++ = '-';
    p = put_hex(p, guid->data3, 4);
    *p++ = '-';
    for (int i = 0; i < 8; i++) {
        PB_WORK(1);
        if (i == 2) {
            *p++ = '-';
        }
        p = put_hex(p, guid->data4[i], 2);
    }
    *p++ = '}';
    *p = '\0';
}
