/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * perfbuf-capture-growth-check: drives perfbuf-capture's buffer growth with
 * fake APIs that ask for too much, for sizes that wrap a DWORD, or for more
 * without end, for ci/capture-wine.sh. No machine (and not Wine) answers
 * like that, so the capture itself cannot show that the cap, the 64-bit
 * arithmetic and the attempt bounds hold.
 *
 *   perfbuf-capture-growth-check NEW-FOLDER
 *
 * The V1 case writes its manifest line into NEW-FOLDER, created as the tool
 * creates its own. Exit 0 when every case holds, 1 otherwise.
 */
#include <windows.h>

#include <stdint.h>

static LONG WINAPI fake_reg_query(HKEY key, LPCWSTR value, LPDWORD reserved, LPDWORD type,
                                  LPBYTE data, LPDWORD size);
#define CAPTURE_REG_QUERY fake_reg_query

int capture_main(int argc, char **argv);
#define main capture_main
#include "perfbuf-capture.c"
#undef main

static int failed;

static void expect(bool ok, const char *what)
{
    printf("%s: %s\n", ok ? "ok" : "FAILED", what);
    if (!ok) {
        failed = 1;
    }
}

/* V1: always "more data", as HKEY_PERFORMANCE_DATA says when the buffer is
 * short, with a size that means nothing. */
static unsigned reg_calls;
static uint64_t reg_largest;

static LONG WINAPI fake_reg_query(HKEY key, LPCWSTR value, LPDWORD reserved, LPDWORD type,
                                  LPBYTE data, LPDWORD size)
{
    (void)key;
    (void)value;
    (void)reserved;
    (void)data;
    reg_calls++;
    reg_largest = *size > reg_largest ? *size : reg_largest;
    *type = REG_BINARY;
    *size = 0xFFFFFFFFu;
    return ERROR_MORE_DATA;
}

/* V2: each case answers from a script of needs, indexed by the call. */
typedef struct script {
    ULONG sizing_rc;
    uint64_t sizing_need;
    ULONG fill_rc;         /* when the buffer is at least fill_need */
    uint64_t fill_need;
    uint64_t reported;     /* the need reported when short; 0: the buffer's size */
    unsigned calls;
    uint64_t largest;
} script;

static ULONG scripted(const void *ctx, BYTE *buf, DWORD cap, uint64_t *needed)
{
    script *s = (script *)(uintptr_t)ctx;
    s->calls++;
    s->largest = cap > s->largest ? cap : s->largest;
    if (buf == NULL) {
        *needed = s->sizing_need;
        return s->sizing_rc;
    }
    if (cap >= s->fill_need) {
        *needed = s->fill_need + 100; /* a lie: more than the buffer */
        return s->fill_rc;
    }
    *needed = s->reported != 0 ? s->reported : cap;
    return ERROR_NOT_ENOUGH_MEMORY;
}

static ULONG run(script *s, DWORD *len, unsigned *tries)
{
    BYTE *out = NULL;
    ULONG rc = call_sized(scripted, s, &out, len, tries);
    free(out);
    return rc;
}

static DWORD fake_count;

static ULONG WINAPI fake_enum_countersets(LPCWSTR machine, GUID *ids, DWORD count,
                                          DWORD *count_actual)
{
    (void)machine;
    (void)ids;
    (void)count;
    *count_actual = fake_count;
    return ERROR_NOT_ENOUGH_MEMORY;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: perfbuf-capture-growth-check NEW-FOLDER\n");
        return 2;
    }
    DWORD len = 0;
    unsigned tries = 0;
    ULONG rc;

    script huge = {ERROR_NOT_ENOUGH_MEMORY, 0xFFFFFFFFu, ERROR_SUCCESS, 0xFFFFFFFFu, 0, 0, 0};
    rc = run(&huge, &len, &tries);
    expect(rc == ERROR_NOT_ENOUGH_MEMORY && huge.calls == 1,
           "a need of 4 GiB - 1 is refused before any buffer is allocated");

    script at_cap = {ERROR_NOT_ENOUGH_MEMORY, MAX_BUFFER, ERROR_SUCCESS, MAX_BUFFER, 0, 0, 0};
    rc = run(&at_cap, &len, &tries);
    expect(rc == ERROR_SUCCESS && len == MAX_BUFFER && at_cap.largest == MAX_BUFFER,
           "a need of exactly 64 MiB is met, and a reported size beyond the buffer is not written");

    script endless = {ERROR_MORE_DATA, 1000, ERROR_SUCCESS, UINT64_MAX, 0, 0, 0};
    rc = run(&endless, &len, &tries);
    expect(rc == ERROR_NOT_ENOUGH_MEMORY && endless.calls == 1 + SIZED_ATTEMPTS &&
               endless.largest < 1000 * 3,
           "a call that always wants more, without saying how much, gives up after 4 fills");

    script wrapped = {ERROR_MORE_DATA, 1000, ERROR_SUCCESS, UINT64_MAX, 0xFFFFFFF0u, 0, 0};
    rc = run(&wrapped, &len, &tries);
    expect(rc == ERROR_NOT_ENOUGH_MEMORY && wrapped.calls == 2,
           "a need near 4 GiB, which plus a quarter wraps a DWORD, is refused, not grown");

    script climbing = {ERROR_MORE_DATA, 1000, ERROR_SUCCESS, 1000 * 2, 1000 * 2, 0, 0};
    rc = run(&climbing, &len, &tries);
    expect(rc == ERROR_SUCCESS && climbing.calls == 3 && len == 2000 + 100 &&
               climbing.largest == 2000 + 2000 / 4,
           "a need that grows between calls is met on the next attempt");

    script near_cap = {ERROR_MORE_DATA, MAX_BUFFER - 1, ERROR_SUCCESS, UINT64_MAX, 0, 0, 0};
    rc = run(&near_cap, &len, &tries);
    expect(rc == ERROR_NOT_ENOUGH_MEMORY && near_cap.largest == MAX_BUFFER && near_cap.calls == 3,
           "growth stops at the 64 MiB cap, and a call still short there fails");

    v2_api api;
    memset(&api, 0, sizeof api);
    api.enum_countersets = fake_enum_countersets;
    set_ctx ctx = {&api, NULL, 0, 0, NULL};
    BYTE *list = NULL;
    /* 2^28 + 1 GUIDs are 2^32 + 16 bytes: 16 in 32-bit arithmetic. */
    fake_count = 0x10000001u;
    rc = call_sized(countersets_call, &ctx, &list, &len, &tries);
    expect(rc == ERROR_NOT_ENOUGH_MEMORY && list == NULL && tries == 1,
           "2^28 + 1 countersets (2^32 + 16 bytes) are refused, not taken for 16 bytes");
    fake_count = 0x20000000u;
    rc = call_sized(countersets_call, &ctx, &list, &len, &tries);
    expect(rc == ERROR_NOT_ENOUGH_MEMORY && list == NULL && tries == 1,
           "2^29 countersets (8 GiB, 0 in 32-bit arithmetic) are refused");

    capture c = {argv[1], INVALID_HANDLE_VALUE, NULL, NULL, INVALID_HANDLE_VALUE, 0, 0};
    create_folder(&c);
    c.manifest = create_output(&c, "manifest.txt");
    capture_v1(&c, L"Global", "v1-global.bin");
    close_output(c.manifest, "manifest.txt");
    expect(reg_calls == 11 && reg_largest == MAX_BUFFER && c.failures == 1 && c.files == 0,
           "V1 doubles from 64 KiB to 64 MiB in 11 calls, then records the failure");
    return failed;
}
