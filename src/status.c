/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "perfbuf/common.h"
#include "perfbuf/version.h"
#include "work.h"

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
