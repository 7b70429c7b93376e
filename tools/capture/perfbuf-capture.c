/*
 * perfbuf-capture: writes the performance buffers of this Windows machine
 * into a folder, for decoding with perfbuf-dump and for perfbuf's corpus.
 *
 *   V1: RegQueryValueExW(HKEY_PERFORMANCE_DATA) for "Global", "Costly", each
 *       object index given, and the "Counter"/"Help" name tables;
 *   V2: the list of countersets, and for each (or those named) its
 *       registration info and strings, its instances, its counter info and
 *       its query data taken twice one second apart.
 *
 * The V2 consumer functions are looked up at run time: one that is missing
 * is recorded in the manifest, not fatal. Nothing is sent anywhere; the
 * folder is all the output. Exit 0 when the folder was written (failed
 * calls are in the manifest), 2 on usage or I/O errors.
 */
#include <windows.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define MAX_BUFFER (64u << 20)
#define MAX_LIST 64

/* The PerfLib V2 consumer API, declared here because mingw-w64's perflib.h
 * carries only the provider half. Layouts: docs/v2-query.md. */
typedef ULONG(WINAPI *enum_countersets_fn)(LPCWSTR, GUID *, DWORD, DWORD *);
typedef ULONG(WINAPI *query_reginfo_fn)(LPCWSTR, const GUID *, DWORD, DWORD, BYTE *, DWORD, DWORD *);
typedef ULONG(WINAPI *enum_instances_fn)(LPCWSTR, const GUID *, void *, DWORD, DWORD *);
typedef ULONG(WINAPI *open_query_fn)(LPCWSTR, HANDLE *);
typedef ULONG(WINAPI *close_query_fn)(HANDLE);
typedef ULONG(WINAPI *add_counters_fn)(HANDLE, void *, DWORD);
typedef ULONG(WINAPI *query_info_fn)(HANDLE, void *, DWORD, DWORD *);
typedef ULONG(WINAPI *query_data_fn)(HANDLE, void *, DWORD, DWORD *);

#define PERF_WILDCARD_COUNTER 0xFFFFFFFFu
#define PERF_COUNTER_IDENTIFIER_SIZE 40

static FILE *manifest;
static const char *out_dir;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: perfbuf-capture OUTDIR [--object INDEX]... [--lang LLL]\n"
            "                       [--counterset GUID]... [--max-countersets N]\n"
            "Writes this machine's performance buffers into OUTDIR with a manifest.\n"
            "  --object INDEX       also capture the V1 data for this object index (e.g. 238)\n"
            "  --lang LLL           language of the name tables (default 009, English)\n"
            "  --counterset GUID    capture only these V2 countersets ({xxxxxxxx-...})\n"
            "  --max-countersets N  at most N countersets from the enumeration (default 32)\n"
            "Nothing is sent anywhere. The buffers name this machine and its processes:\n"
            "read docs/capture.md before sharing them.\n");
}

static void guid_text(const GUID *g, char out[39])
{
    snprintf(out, 39, "{%08lx-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x}", (unsigned long)g->Data1,
             g->Data2, g->Data3, g->Data4[0], g->Data4[1], g->Data4[2], g->Data4[3], g->Data4[4],
             g->Data4[5], g->Data4[6], g->Data4[7]);
}

static int parse_guid(const char *s, GUID *g)
{
    unsigned long d1;
    unsigned d2, d3, b[8];
    if (sscanf(s, "{%8lx-%4x-%4x-%2x%2x-%2x%2x%2x%2x%2x%2x}", &d1, &d2, &d3, &b[0], &b[1], &b[2],
               &b[3], &b[4], &b[5], &b[6], &b[7]) != 11) {
        return -1;
    }
    g->Data1 = (DWORD)d1;
    g->Data2 = (WORD)d2;
    g->Data3 = (WORD)d3;
    for (int i = 0; i < 8; i++) {
        g->Data4[i] = (BYTE)b[i];
    }
    return 0;
}

/* Saves a buffer and records it; a failed call is recorded with no file. */
static void record(const char *file, const char *call, const char *args, unsigned long status,
                   const void *data, size_t len)
{
    if (status == ERROR_SUCCESS && file != NULL) {
        char path[MAX_PATH];
        snprintf(path, sizeof path, "%s\\%s", out_dir, file);
        FILE *f = fopen(path, "wb");
        if (f == NULL || (len > 0 && fwrite(data, 1, len, f) != len) || fclose(f) != 0) {
            fprintf(stderr, "perfbuf-capture: cannot write %s\n", path);
            exit(2);
        }
    }
    fprintf(manifest, "%s\t%s\t%s\t%lu\t%lu\n", status == ERROR_SUCCESS && file ? file : "-", call,
            args, status, (unsigned long)len);
    fflush(manifest);
}

/* V1: one registry value of HKEY_PERFORMANCE_DATA, grown on ERROR_MORE_DATA. */
static void capture_v1(const wchar_t *value, const char *file)
{
    DWORD cap = 1u << 16;
    BYTE *buf = NULL;
    LONG rc;
    DWORD size;
    DWORD type = 0;
    for (;;) {
        BYTE *bigger = realloc(buf, cap);
        if (bigger == NULL) {
            free(buf);
            fprintf(stderr, "perfbuf-capture: out of memory\n");
            exit(2);
        }
        buf = bigger;
        size = cap;
        rc = RegQueryValueExW(HKEY_PERFORMANCE_DATA, value, NULL, &type, buf, &size);
        if (rc != ERROR_MORE_DATA || cap >= MAX_BUFFER) {
            break;
        }
        cap *= 2;
    }
    char args[128];
    snprintf(args, sizeof args, "HKEY_PERFORMANCE_DATA \"%ls\" type=%lu", value, (unsigned long)type);
    record(file, "RegQueryValueExW", args, (unsigned long)rc, buf, rc == ERROR_SUCCESS ? size : 0);
    free(buf);
}

/* Calls a "fill this buffer, or tell me the size" function twice. */
typedef ULONG (*sized_call)(void *ctx, BYTE *buf, DWORD cap, DWORD *needed);

static ULONG call_sized(sized_call call, void *ctx, BYTE **out, DWORD *len)
{
    *out = NULL;
    *len = 0;
    DWORD needed = 0;
    ULONG rc = call(ctx, NULL, 0, &needed);
    if (rc != ERROR_SUCCESS && rc != ERROR_NOT_ENOUGH_MEMORY && rc != ERROR_MORE_DATA) {
        return rc;
    }
    if (needed == 0 || needed > MAX_BUFFER) {
        needed = needed == 0 ? 64 : MAX_BUFFER;
    }
    BYTE *buf = calloc(1, needed);
    if (buf == NULL) {
        return ERROR_OUTOFMEMORY;
    }
    DWORD actual = 0;
    rc = call(ctx, buf, needed, &actual);
    *out = buf;
    *len = rc == ERROR_SUCCESS ? actual : 0;
    return rc;
}

typedef struct v2_api {
    enum_countersets_fn enum_countersets;
    query_reginfo_fn query_reginfo;
    enum_instances_fn enum_instances;
    open_query_fn open_query;
    close_query_fn close_query;
    add_counters_fn add_counters;
    query_info_fn query_info;
    query_data_fn query_data;
} v2_api;

typedef struct reginfo_ctx {
    const v2_api *api;
    const GUID *set;
    DWORD code;
} reginfo_ctx;

static ULONG reginfo_call(void *p, BYTE *buf, DWORD cap, DWORD *needed)
{
    reginfo_ctx *c = p;
    return c->api->query_reginfo(NULL, c->set, c->code, 0, buf, cap, needed);
}

static ULONG instances_call(void *p, BYTE *buf, DWORD cap, DWORD *needed)
{
    reginfo_ctx *c = p;
    return c->api->enum_instances(NULL, c->set, buf, cap, needed);
}

typedef struct query_ctx {
    const v2_api *api;
    HANDLE query;
    BYTE *ids;
    DWORD ids_len;
} query_ctx;

static ULONG data_call(void *p, BYTE *buf, DWORD cap, DWORD *needed)
{
    query_ctx *c = p;
    return c->api->query_data(c->query, buf, cap, needed);
}

static ULONG info_call(void *p, BYTE *buf, DWORD cap, DWORD *needed)
{
    query_ctx *c = p;
    return c->api->query_info(c->query, buf, cap, needed);
}

static void missing(const char *function)
{
    record(NULL, function, "not exported by advapi32.dll", ERROR_PROC_NOT_FOUND, NULL, 0);
}

static void capture_counterset(const v2_api *api, const GUID *set)
{
    char g[39];
    guid_text(set, g);
    char file[128];
    char args[128];
    reginfo_ctx rc_ctx = {api, set, 0};
    BYTE *buf = NULL;
    DWORD len = 0;
    ULONG rc;
    bool multi_instance = true;
    if (api->query_reginfo != NULL) {
        static const DWORD codes[] = {1, 3, 4, 5, 6, 7, 10};
        for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
            rc_ctx.code = codes[i];
            rc = call_sized(reginfo_call, &rc_ctx, &buf, &len);
            if (codes[i] == 1) {
                snprintf(file, sizeof file, "v2-reginfo-%s.bin", g);
                /* PERF_COUNTERSET_REG_INFO.InstanceType at offset 28. */
                if (rc == ERROR_SUCCESS && len >= 32) {
                    DWORD type;
                    memcpy(&type, buf + 28, 4);
                    multi_instance = (type & 0x2u) != 0;
                }
            } else {
                snprintf(file, sizeof file, "v2-strings-%lu-%s.bin", (unsigned long)codes[i], g);
            }
            snprintf(args, sizeof args, "%s requestCode=%lu langId=0", g, (unsigned long)codes[i]);
            record(file, "PerfQueryCounterSetRegistrationInfo", args, rc, buf, len);
            free(buf);
        }
    } else {
        missing("PerfQueryCounterSetRegistrationInfo");
    }
    if (api->enum_instances != NULL) {
        rc = call_sized(instances_call, &rc_ctx, &buf, &len);
        snprintf(file, sizeof file, "v2-instances-%s.bin", g);
        record(file, "PerfEnumerateCounterSetInstances", g, rc, buf, len);
        free(buf);
    } else {
        missing("PerfEnumerateCounterSetInstances");
    }
    if (api->open_query == NULL || api->add_counters == NULL || api->query_data == NULL ||
        api->close_query == NULL) {
        missing("PerfOpenQueryHandle/PerfAddCounters/PerfQueryCounterData/PerfCloseQueryHandle");
        return;
    }
    HANDLE query = NULL;
    rc = api->open_query(NULL, &query);
    record(NULL, "PerfOpenQueryHandle", "local machine", rc, NULL, 0);
    if (rc != ERROR_SUCCESS) {
        return;
    }
    /* One PERF_COUNTER_IDENTIFIER: every counter, every instance ("*"). */
    BYTE id[PERF_COUNTER_IDENTIFIER_SIZE + 8];
    memset(id, 0, sizeof id);
    DWORD id_size = multi_instance ? sizeof id : PERF_COUNTER_IDENTIFIER_SIZE;
    DWORD wildcard = PERF_WILDCARD_COUNTER;
    memcpy(id, set, 16);
    memcpy(id + 20, &id_size, 4);
    memcpy(id + 24, &wildcard, 4);
    memcpy(id + 28, &wildcard, 4);
    if (multi_instance) {
        const WCHAR star[2] = {L'*', 0};
        memcpy(id + PERF_COUNTER_IDENTIFIER_SIZE, star, sizeof star);
    }
    rc = api->add_counters(query, id, id_size);
    DWORD id_status;
    memcpy(&id_status, id + 16, 4);
    snprintf(args, sizeof args, "%s counter=* instance=%s status=%lu", g, multi_instance ? "*" : "-",
             (unsigned long)id_status);
    record(NULL, "PerfAddCounters", args, rc, NULL, 0);
    query_ctx q = {api, query, NULL, 0};
    if (api->query_info != NULL) {
        rc = call_sized(info_call, &q, &buf, &len);
        snprintf(file, sizeof file, "v2-counterinfo-%s.bin", g);
        record(file, "PerfQueryCounterInfo", g, rc, buf, len);
        free(buf);
    } else {
        missing("PerfQueryCounterInfo");
    }
    for (int sample = 0; sample < 2; sample++) {
        if (sample == 1) {
            Sleep(1000);
        }
        rc = call_sized(data_call, &q, &buf, &len);
        snprintf(file, sizeof file, "v2-query-%s-%d.bin", g, sample);
        snprintf(args, sizeof args, "%s sample %d", g, sample);
        record(file, "PerfQueryCounterData", args, rc, buf, len);
        free(buf);
    }
    api->close_query(query);
}

static void os_version(void)
{
    typedef LONG(WINAPI * rtl_get_version_fn)(OSVERSIONINFOW *);
    OSVERSIONINFOW v;
    memset(&v, 0, sizeof v);
    v.dwOSVersionInfoSize = sizeof v;
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    rtl_get_version_fn get = ntdll ? (rtl_get_version_fn)(void (*)(void))GetProcAddress(ntdll, "RtlGetVersion") : NULL;
    if (get != NULL && get(&v) == 0) {
        fprintf(manifest, "# os %lu.%lu.%lu\n", (unsigned long)v.dwMajorVersion,
                (unsigned long)v.dwMinorVersion, (unsigned long)v.dwBuildNumber);
    } else {
        fprintf(manifest, "# os unknown\n");
    }
}

#define LOAD(api, field, type, name) (api).field = (type)(void (*)(void))GetProcAddress(lib, name)

int main(int argc, char **argv)
{
    const char *objects[MAX_LIST];
    size_t object_count = 0;
    GUID sets[MAX_LIST];
    size_t set_count = 0;
    const char *lang = "009";
    unsigned long max_sets = 32;
    for (int i = 1; i < argc; i++) {
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--object") == 0 && next && object_count < MAX_LIST) {
            objects[object_count++] = next;
            i++;
        } else if (strcmp(argv[i], "--lang") == 0 && next && strlen(next) <= 4) {
            lang = next;
            i++;
        } else if (strcmp(argv[i], "--counterset") == 0 && next && set_count < MAX_LIST &&
                   parse_guid(next, &sets[set_count]) == 0) {
            set_count++;
            i++;
        } else if (strcmp(argv[i], "--max-countersets") == 0 && next) {
            max_sets = strtoul(next, NULL, 10);
            i++;
        } else if (argv[i][0] != '-' && out_dir == NULL) {
            out_dir = argv[i];
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (out_dir == NULL) {
        usage(stderr);
        return 2;
    }
    CreateDirectoryA(out_dir, NULL);
    char path[MAX_PATH];
    snprintf(path, sizeof path, "%s\\manifest.txt", out_dir);
    manifest = fopen(path, "w");
    if (manifest == NULL) {
        fprintf(stderr, "perfbuf-capture: cannot write %s\n", path);
        return 2;
    }
    fprintf(manifest, "# perfbuf-capture manifest: file, call, arguments, status (Win32), bytes\n");
    os_version();

    capture_v1(L"Global", "v1-global.bin");
    capture_v1(L"Costly", "v1-costly.bin");
    for (size_t i = 0; i < object_count; i++) {
        wchar_t value[32];
        char file[64];
        swprintf(value, 32, L"%hs", objects[i]);
        snprintf(file, sizeof file, "v1-object-%s.bin", objects[i]);
        capture_v1(value, file);
    }
    wchar_t value[32];
    char file[64];
    swprintf(value, 32, L"Counter %hs", lang);
    snprintf(file, sizeof file, "v1-names-counter-%s.bin", lang);
    capture_v1(value, file);
    swprintf(value, 32, L"Help %hs", lang);
    snprintf(file, sizeof file, "v1-names-help-%s.bin", lang);
    capture_v1(value, file);
    RegCloseKey(HKEY_PERFORMANCE_DATA);

    v2_api api;
    memset(&api, 0, sizeof api);
    HMODULE lib = LoadLibraryW(L"advapi32.dll");
    if (lib != NULL) {
        LOAD(api, enum_countersets, enum_countersets_fn, "PerfEnumerateCounterSet");
        LOAD(api, query_reginfo, query_reginfo_fn, "PerfQueryCounterSetRegistrationInfo");
        LOAD(api, enum_instances, enum_instances_fn, "PerfEnumerateCounterSetInstances");
        LOAD(api, open_query, open_query_fn, "PerfOpenQueryHandle");
        LOAD(api, close_query, close_query_fn, "PerfCloseQueryHandle");
        LOAD(api, add_counters, add_counters_fn, "PerfAddCounters");
        LOAD(api, query_info, query_info_fn, "PerfQueryCounterInfo");
        LOAD(api, query_data, query_data_fn, "PerfQueryCounterData");
    }
    if (set_count == 0) {
        if (api.enum_countersets != NULL) {
            GUID listed[MAX_LIST * 8];
            DWORD actual = 0;
            ULONG rc = api.enum_countersets(NULL, listed, MAX_LIST * 8, &actual);
            if (actual > MAX_LIST * 8) {
                actual = MAX_LIST * 8;
            }
            record(rc == ERROR_SUCCESS ? "v2-countersets.bin" : NULL, "PerfEnumerateCounterSet",
                   "local machine", rc, listed, rc == ERROR_SUCCESS ? actual * sizeof(GUID) : 0);
            for (DWORD i = 0; rc == ERROR_SUCCESS && i < actual && set_count < max_sets &&
                              set_count < MAX_LIST; i++) {
                sets[set_count++] = listed[i];
            }
        } else {
            missing("PerfEnumerateCounterSet");
        }
        if (set_count == 0) {
            /* Processor Information, which every Windows since 7 has. */
            parse_guid("{b4fc721a-0378-476f-89ba-a5a79f810b36}", &sets[set_count++]);
        }
    }
    for (size_t i = 0; i < set_count; i++) {
        capture_counterset(&api, &sets[i]);
    }
    fclose(manifest);
    printf("perfbuf-capture: wrote %s (see manifest.txt)\n", out_dir);
    return 0;
}
