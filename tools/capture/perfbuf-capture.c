/* SPDX-License-Identifier: MIT OR Apache-2.0 */
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
 * calls are in the manifest), 2 on usage or I/O errors, or when the folder
 * already exists.
 *
 * The buffers name processes, users and devices, and the tool may run
 * elevated into a folder whose parent someone else controls. So the folder
 * must be new: it is created with a protected DACL that lets in only the
 * current user and Administrators, held open so that it cannot be renamed
 * away, and every file is created new in it (never through an existing
 * file or link), with the same DACL of its own, and checked to have landed
 * there.
 *
 * This is a tool, not the library: it allocates and prints. The buffers it
 * receives are not interpreted beyond the two fields it needs (the instance
 * type of a counterset, the status of an added counter), each read only
 * after checking the buffer is long enough.
 */
#include <windows.h>

#include <aclapi.h>
#include <sddl.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#define CAPTURE_VERSION "1"

/* No buffer is ever larger than this: a call that needs more is recorded as
 * failed (ERROR_MORE_DATA for V1, ERROR_NOT_ENOUGH_MEMORY for V2) rather
 * than given what it asks for, so a provider that reports a huge or wrapped
 * size cannot make the tool allocate without bound. A busy server's
 * "Global" is a few MiB. Sizes are computed in 64 bits and compared with
 * this before they become a DWORD again. */
#define MAX_BUFFER ((uint64_t)64 << 20)
_Static_assert(MAX_BUFFER <= 0xFFFFFFFFu, "buffer sizes are passed to the APIs as a DWORD");
/* HKEY_PERFORMANCE_DATA answers ERROR_MORE_DATA without saying how much it
 * needs: the buffer doubles from 64 KiB up to MAX_BUFFER (11 calls), then
 * the call is recorded as failed; the attempt bound holds even if the
 * constants change. */
#define FIRST_V1_BUFFER ((uint64_t)64 << 10)
#define V1_ATTEMPTS 12u
/* The V2 calls say what they need, but the need can grow between the sizing
 * call and the filling call (an instance appears): this many attempts. */
#define SIZED_ATTEMPTS 4
/* tools/capture/growth-check.c includes this file with a fake in its place,
 * to drive the V1 loop to its cap without a machine that big. */
#ifndef CAPTURE_REG_QUERY
#define CAPTURE_REG_QUERY RegQueryValueExW
#endif
#define MAX_OBJECTS 64
#define MAX_NAMED_SETS 64
#define MAX_SETS_LIMIT 4096u
#define DEFAULT_MAX_SETS 32u

/* The PerfLib V2 consumer API (advapi32.dll, Windows 10 1607 and later for
 * the query half), declared here because mingw-w64's perflib.h carries only
 * the provider half. Signatures from Microsoft's perflib.h documentation. */
typedef ULONG(WINAPI *enum_countersets_fn)(LPCWSTR machine, GUID *ids, DWORD count,
                                           DWORD *count_actual);
typedef ULONG(WINAPI *query_reginfo_fn)(LPCWSTR machine, const GUID *set, DWORD request_code,
                                        DWORD request_lang_id, BYTE *info, DWORD size,
                                        DWORD *size_actual);
typedef ULONG(WINAPI *enum_instances_fn)(LPCWSTR machine, const GUID *set, void *instances,
                                         DWORD size, DWORD *size_actual);
typedef ULONG(WINAPI *open_query_fn)(LPCWSTR machine, HANDLE *query);
typedef ULONG(WINAPI *close_query_fn)(HANDLE query);
typedef ULONG(WINAPI *add_counters_fn)(HANDLE query, void *counters, DWORD size);
typedef ULONG(WINAPI *query_info_fn)(HANDLE query, void *counters, DWORD size,
                                     DWORD *size_actual);
typedef ULONG(WINAPI *query_data_fn)(HANDLE query, void *data, DWORD size, DWORD *size_actual);

/* PerfRegInfoType */
#define PERF_REG_COUNTERSET_STRUCT 1u
#define PERF_REG_COUNTERSET_NAME_STRING 3u
#define PERF_REG_COUNTERSET_HELP_STRING 4u
#define PERF_REG_COUNTER_NAME_STRINGS 5u
#define PERF_REG_COUNTER_HELP_STRINGS 6u
#define PERF_REG_PROVIDER_NAME 7u
#define PERF_REG_PROVIDER_GUID 8u
#define PERF_REG_COUNTERSET_ENGLISH_NAME 9u
#define PERF_REG_COUNTER_ENGLISH_NAMES 10u

/* PERF_COUNTER_IDENTIFIER: CounterSetGuid, Status, Size, CounterId,
 * InstanceId, Index, Reserved; then the optional instance name, padded to a
 * multiple of 8. */
#define ID_STATUS 16
#define ID_SIZE 20
#define ID_COUNTER 24
#define ID_INSTANCE 28
#define ID_HEADER_SIZE 40
#define PERF_WILDCARD_COUNTER 0xFFFFFFFFu
#define PERF_ANY_INSTANCE_ID 0xFFFFFFFFu
/* PERF_COUNTERSET_REG_INFO.InstanceType; bit 1 is set by every
 * multi-instance type (MULTI, MULTI_AGGREGATE, INSTANCE_AGGREGATE). */
#define REG_INFO_INSTANCE_TYPE 28
#define REG_INFO_SIZE 32
#define INSTANCE_TYPE_MULTI_BIT 0x2u

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

typedef struct capture {
    const char *dir_arg;        /* as given, for messages and the manifest */
    HANDLE dir;                 /* held open, without FILE_SHARE_DELETE */
    wchar_t *dir_path;          /* its final path, \\?\ form, when created */
    PSECURITY_DESCRIPTOR file_sd;
    HANDLE manifest;
    unsigned files;
    unsigned failures;
} capture;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: perfbuf-capture OUTDIR [--object INDEX]... [--lang LLL] [--no-global]\n"
            "                       [--counterset GUID]... [--max-countersets N]\n"
            "\n"
            "Writes this machine's performance-counter buffers into OUTDIR, one file per\n"
            "call, and manifest.txt listing every call made, its arguments, its Win32\n"
            "status and the bytes it returned. OUTDIR must not exist: it is created,\n"
            "readable only by you and Administrators.\n"
            "\n"
            "  --object INDEX       also query the V1 data of this object index\n"
            "                       (238 Processor, 230 Process, 2 System, 4 Memory)\n"
            "  --lang LLL           language of the V1 name tables and the V2 strings,\n"
            "                       as the registry names it: 009 English (default),\n"
            "                       007 German, 00C French, ...\n"
            "  --counterset GUID    capture only this V2 counterset, e.g.\n"
            "                       {b4fc721a-0378-476f-89ba-a5a79f810b36} (repeatable)\n"
            "  --max-countersets N  otherwise the first N countersets listed (default %u)\n"
            "  --no-global          skip \"Global\" and \"Costly\", which list every process\n"
            "  -h, --help           this text\n"
            "\n"
            "Nothing is sent anywhere: the folder is all this program writes. The buffers\n"
            "name this computer, its processes and its devices: read docs/capture.md\n"
            "before sharing them. Exit status: 0 when OUTDIR was written (calls that\n"
            "failed are listed in the manifest), 2 on a usage or file error or when\n"
            "OUTDIR already exists.\n",
            DEFAULT_MAX_SETS);
}

static void die_error(const char *what, const char *path, DWORD error)
{
    fprintf(stderr, "perfbuf-capture: cannot %s %s (error %lu)\n", what, path,
            (unsigned long)error);
    exit(2);
}

static void die_io(const char *what, const char *path)
{
    die_error(what, path, GetLastError());
}

static void *xcalloc(size_t size)
{
    void *p = calloc(1, size == 0 ? 1 : size);
    if (p == NULL) {
        fprintf(stderr, "perfbuf-capture: out of memory (%zu bytes)\n", size);
        exit(2);
    }
    return p;
}

static void guid_text(const GUID *g, char out[39])
{
    snprintf(out, 39, "{%08lx-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x}", (unsigned long)g->Data1,
             (unsigned)g->Data2, (unsigned)g->Data3, (unsigned)g->Data4[0], (unsigned)g->Data4[1],
             (unsigned)g->Data4[2], (unsigned)g->Data4[3], (unsigned)g->Data4[4],
             (unsigned)g->Data4[5], (unsigned)g->Data4[6], (unsigned)g->Data4[7]);
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* Exactly {xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}, braces optional. */
static bool parse_guid(const char *s, GUID *g)
{
    static const int groups[] = {8, 4, 4, 4, 12};
    uint8_t bytes[16];
    size_t n = 0;
    bool braced = s[0] == '{';
    const char *p = braced ? s + 1 : s;
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        if (i > 0 && *p++ != '-') {
            return false;
        }
        for (int j = 0; j < groups[i]; j += 2) {
            int hi = hex_digit(p[0]);
            int lo = hi < 0 ? -1 : hex_digit(p[1]);
            if (lo < 0) {
                return false;
            }
            bytes[n++] = (uint8_t)(hi * 16 + lo);
            p += 2;
        }
    }
    if (braced && *p++ != '}') {
        return false;
    }
    if (*p != '\0') {
        return false;
    }
    /* The text shows Data1..Data3 most significant byte first. */
    g->Data1 = (DWORD)bytes[0] << 24 | (DWORD)bytes[1] << 16 | (DWORD)bytes[2] << 8 | bytes[3];
    g->Data2 = (WORD)(bytes[4] << 8 | bytes[5]);
    g->Data3 = (WORD)(bytes[6] << 8 | bytes[7]);
    memcpy(g->Data4, bytes + 8, 8);
    return true;
}

/* Object indexes and languages become parts of file names: only digits
 * (hex digits for a language) are accepted, so no argument can name a path. */
static bool all_digits(const char *s, size_t max_len, bool hex)
{
    size_t n = strlen(s);
    if (n == 0 || n > max_len) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (hex ? hex_digit(s[i]) < 0 : !(s[i] >= '0' && s[i] <= '9')) {
            return false;
        }
    }
    return true;
}

static void widen(const char *prefix, const char *ascii, wchar_t *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = prefix; *p != '\0' && n + 1 < cap; p++) {
        out[n++] = (wchar_t)(unsigned char)*p;
    }
    for (const char *p = ascii; *p != '\0' && n + 1 < cap; p++) {
        out[n++] = (wchar_t)(unsigned char)*p;
    }
    out[n] = L'\0';
}

static const char *status_name(unsigned long status)
{
    switch (status) {
    case ERROR_SUCCESS: return "ERROR_SUCCESS";
    case ERROR_FILE_NOT_FOUND: return "ERROR_FILE_NOT_FOUND";
    case ERROR_ACCESS_DENIED: return "ERROR_ACCESS_DENIED";
    case ERROR_NOT_ENOUGH_MEMORY: return "ERROR_NOT_ENOUGH_MEMORY";
    case ERROR_OUTOFMEMORY: return "ERROR_OUTOFMEMORY";
    case ERROR_INVALID_PARAMETER: return "ERROR_INVALID_PARAMETER";
    case ERROR_CALL_NOT_IMPLEMENTED: return "ERROR_CALL_NOT_IMPLEMENTED";
    case ERROR_PROC_NOT_FOUND: return "ERROR_PROC_NOT_FOUND";
    case ERROR_MORE_DATA: return "ERROR_MORE_DATA";
    case ERROR_NOT_FOUND: return "ERROR_NOT_FOUND";
    case 4200: return "ERROR_WMI_GUID_NOT_FOUND";
    case 4201: return "ERROR_WMI_INSTANCE_NOT_FOUND";
    default: return "-";
    }
}

/* The output folder and its files. */

/* For the W functions, which take the security descriptor and the final
 * path. Characters of the command line that the ANSI code page cannot hold
 * were already replaced by the C runtime ('?' or a look-alike); whatever
 * folder the result names is created new and private like any other. */
static wchar_t *widen_path(const char *s)
{
    int n = MultiByteToWideChar(CP_ACP, 0, s, -1, NULL, 0);
    if (n <= 0) {
        die_io("convert the path", s);
    }
    wchar_t *w = xcalloc((size_t)n * sizeof *w);
    if (MultiByteToWideChar(CP_ACP, 0, s, -1, w, n) != n) {
        die_io("convert the path", s);
    }
    return w;
}

/* The path the system now knows an open file or folder by: no links, no
 * relative parts, and current even if something above it was renamed. */
static wchar_t *final_path(HANDLE h, const char *name)
{
    DWORD n = GetFinalPathNameByHandleW(h, NULL, 0, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    if (n == 0 || n > 32768) {
        die_io("find the path of", name);
    }
    wchar_t *w = xcalloc((size_t)n * sizeof *w);
    DWORD got = GetFinalPathNameByHandleW(h, w, n, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    if (got == 0 || got >= n) {
        die_io("find the path of", name);
    }
    return w;
}

static wchar_t *join_path(const wchar_t *dir, const char *name)
{
    size_t d = wcslen(dir);
    size_t n = strlen(name);
    wchar_t *w = xcalloc((d + 1 + n + 1) * sizeof *w);
    memcpy(w, dir, d * sizeof *w);
    w[d] = L'\\';
    for (size_t i = 0; i < n; i++) {
        w[d + 1 + i] = (wchar_t)(unsigned char)name[i];
    }
    return w;
}

static bool append(wchar_t *buf, size_t cap, size_t *len, const wchar_t *s)
{
    size_t n = wcslen(s);
    if (n >= cap - *len) {
        return false;
    }
    memcpy(buf + *len, s, (n + 1) * sizeof *s);
    *len += n;
    return true;
}

/* The user the process runs as: whoever runs the tool, elevated or not,
 * owns the capture. */
static TOKEN_USER *current_user(void)
{
    HANDLE token;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) {
        die_io("open", "the process token");
    }
    DWORD size = 0;
    if (GetTokenInformation(token, TokenUser, NULL, 0, &size) ||
        GetLastError() != ERROR_INSUFFICIENT_BUFFER || size < sizeof(TOKEN_USER) || size > 4096) {
        die_io("read", "the user of the process token");
    }
    TOKEN_USER *user = xcalloc(size);
    if (!GetTokenInformation(token, TokenUser, user, size, &size)) {
        die_io("read", "the user of the process token");
    }
    CloseHandle(token);
    return user;
}

/* Owner: the user, set rather than left to the token's default (an elevated
 * token's is Administrators), so that the folder can be told apart from one
 * someone else made. DACL: protected, so nothing is inherited from a parent
 * that someone else controls, and full access for the user and for
 * BUILTIN\Administrators only; inherit is "OICI" for the folder (its
 * files, should anything be created there but through this tool, get the
 * same) and "" for a file. */
static PSECURITY_DESCRIPTOR private_sd(const wchar_t *sid, const wchar_t *inherit)
{
    wchar_t sddl[512];
    size_t len = 0;
    sddl[0] = L'\0';
    bool ok = append(sddl, 512, &len, L"O:") && append(sddl, 512, &len, sid) &&
              append(sddl, 512, &len, L"D:P(A;") && append(sddl, 512, &len, inherit) &&
              append(sddl, 512, &len, L";FA;;;") && append(sddl, 512, &len, sid) &&
              append(sddl, 512, &len, L")(A;") && append(sddl, 512, &len, inherit) &&
              append(sddl, 512, &len, L";FA;;;BA)");
    PSECURITY_DESCRIPTOR sd = NULL;
    if (!ok) {
        die_error("build", "a security descriptor", ERROR_INSUFFICIENT_BUFFER);
    }
    if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl, SDDL_REVISION_1, &sd, NULL)) {
        die_io("build", "a security descriptor");
    }
    return sd;
}

/* Creates the folder new, never reusing one: an existing folder may belong
 * to someone else, who could then read or replace what is written into it. */
static void create_folder(capture *c)
{
    TOKEN_USER *user = current_user();
    wchar_t *sid = NULL;
    if (!ConvertSidToStringSidW(user->User.Sid, &sid)) {
        die_io("read", "the user's SID");
    }
    PSECURITY_DESCRIPTOR folder_sd = private_sd(sid, L"OICI");
    c->file_sd = private_sd(sid, L"");
    LocalFree(sid);

    wchar_t *path = widen_path(c->dir_arg);
    SECURITY_ATTRIBUTES sa = {sizeof sa, folder_sd, FALSE};
    if (!CreateDirectoryW(path, &sa)) {
        DWORD error = GetLastError();
        if (error == ERROR_ALREADY_EXISTS) {
            DWORD attrs = GetFileAttributesW(path);
            bool link = attrs != INVALID_FILE_ATTRIBUTES && (attrs & FILE_ATTRIBUTE_REPARSE_POINT);
            fprintf(stderr,
                    "perfbuf-capture: %s already exists%s; nothing written. Name a folder that\n"
                    "does not exist yet: it is created, readable only by you and Administrators.\n",
                    c->dir_arg, link ? " (a link or other reparse point)" : "");
            exit(2);
        }
        die_error("create the folder", c->dir_arg, error);
    }
    LocalFree(folder_sd);

    /* Held open without FILE_SHARE_DELETE until the end, so that nobody can
     * rename or delete it and put another folder in its place. Opened as
     * itself (FILE_FLAG_OPEN_REPARSE_POINT): if something replaced it with
     * a link in between, the checks below see the link. */
    c->dir = CreateFileW(path, FILE_READ_ATTRIBUTES | READ_CONTROL, FILE_SHARE_READ | FILE_SHARE_WRITE,
                         NULL, OPEN_EXISTING,
                         FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    if (c->dir == INVALID_HANDLE_VALUE) {
        die_io("open the new folder", c->dir_arg);
    }
    free(path);
    BY_HANDLE_FILE_INFORMATION info;
    if (!GetFileInformationByHandle(c->dir, &info)) {
        die_io("read the attributes of", c->dir_arg);
    }
    if (!(info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) ||
        (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)) {
        fprintf(stderr, "perfbuf-capture: %s is a link or other reparse point, not the folder "
                        "just created; nothing written\n", c->dir_arg);
        exit(2);
    }
    /* Only this user can have made a folder this user owns: a folder put in
     * place of ours by someone else, or a file system that keeps no owner
     * (and so no DACL), is refused. */
    PSID owner = NULL;
    PSECURITY_DESCRIPTOR got = NULL;
    DWORD rc = GetSecurityInfo(c->dir, SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION, &owner, NULL,
                               NULL, NULL, &got);
    if (rc != ERROR_SUCCESS) {
        die_error("read the owner of", c->dir_arg, rc);
    }
    if (owner == NULL || !IsValidSid(owner) || !EqualSid(owner, user->User.Sid)) {
        fprintf(stderr, "perfbuf-capture: %s is not owned by you: it was replaced after it was "
                        "created, or its file system keeps no owners and permissions; nothing "
                        "written\n", c->dir_arg);
        exit(2);
    }
    LocalFree(got);
    free(user);
    c->dir_path = final_path(c->dir, c->dir_arg);
}

/* A new file in the folder: CREATE_NEW fails on any existing name, link or
 * not, so nothing already there is followed or overwritten. It gets the
 * private DACL itself, and is checked to be in the folder held open: a
 * path is looked up again at each call, but the handles are not. */
static HANDLE create_output(capture *c, const char *name)
{
    wchar_t *path = join_path(c->dir_path, name);
    SECURITY_ATTRIBUTES sa = {sizeof sa, c->file_sd, FALSE};
    HANDLE h = CreateFileW(path, GENERIC_WRITE, 0, &sa, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        DWORD error = GetLastError();
        fprintf(stderr, "perfbuf-capture: cannot create %s in %s (error %lu)\n", name, c->dir_arg,
                (unsigned long)error);
        exit(2);
    }
    free(path);
    wchar_t *where = final_path(h, name);
    wchar_t *dir_now = final_path(c->dir, c->dir_arg);
    wchar_t *expected = join_path(dir_now, name);
    if (wcscmp(where, expected) != 0) {
        fprintf(stderr, "perfbuf-capture: %s was created outside %s: a folder above it changed "
                        "during the run; stopped\n", name, c->dir_arg);
        CloseHandle(h);
        exit(2);
    }
    free(where);
    free(dir_now);
    free(expected);
    return h;
}

/* WriteFile takes a DWORD: large buffers go in pieces, each checked. */
static void write_all(HANDLE h, const void *data, size_t len, const char *name)
{
    const BYTE *p = data;
    while (len > 0) {
        DWORD chunk = len > (1u << 30) ? (DWORD)(1u << 30) : (DWORD)len;
        DWORD written = 0;
        if (!WriteFile(h, p, chunk, &written, NULL)) {
            die_io("write", name);
        }
        if (written != chunk) {
            die_error("write all of", name, ERROR_WRITE_FAULT);
        }
        p += chunk;
        len -= chunk;
    }
}

/* A file is complete only once it is on disk and closed without error. */
static void close_output(HANDLE h, const char *name)
{
    bool flushed = FlushFileBuffers(h) != 0;
    DWORD error = flushed ? ERROR_SUCCESS : GetLastError();
    if (!CloseHandle(h) && flushed) {
        error = GetLastError();
        flushed = false;
    }
    if (!flushed) {
        die_error("write", name, error);
    }
}

#if defined(__MINGW_PRINTF_FORMAT)
__attribute__((format(__MINGW_PRINTF_FORMAT, 2, 3)))
#endif
static void note(capture *c, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, format, ap);
    va_end(ap);
    if (n < 0) {
        va_end(again);
        die_error("format a line of", "manifest.txt", ERROR_INVALID_DATA);
    }
    char *line = xcalloc((size_t)n + 1);
    vsnprintf(line, (size_t)n + 1, format, again);
    va_end(again);
    write_all(c->manifest, line, (size_t)n, "manifest.txt");
    free(line);
}

/* Saves a buffer (only when the call succeeded) and adds its manifest line:
 * file, function, arguments, status, status name, bytes. */
static void record(capture *c, const char *file, const char *call, const char *args,
                   unsigned long status, const void *data, size_t len)
{
    bool saved = status == ERROR_SUCCESS && file != NULL;
    if (saved) {
        HANDLE f = create_output(c, file);
        write_all(f, data, len, file);
        close_output(f, file);
        c->files++;
    } else if (status != ERROR_SUCCESS) {
        c->failures++;
    }
    note(c, "%s\t%s\t%s\t%lu\t%s\t%zu\n", saved ? file : "-", call, args, status,
         status_name(status), saved ? len : (size_t)0);
}

static void missing(capture *c, const char *function)
{
    record(c, NULL, function, "not exported by advapi32.dll", ERROR_PROC_NOT_FOUND, NULL, 0);
}

/* V1: one value of HKEY_PERFORMANCE_DATA. */
static void capture_v1(capture *c, const wchar_t *value, const char *file)
{
    uint64_t cap = FIRST_V1_BUFFER;
    BYTE *buf = NULL;
    LONG rc;
    DWORD size;
    DWORD type = REG_NONE;
    unsigned attempts = 0;
    for (;;) {
        free(buf);
        buf = xcalloc((size_t)cap);
        size = (DWORD)cap;
        attempts++;
        /* The size it returns with ERROR_MORE_DATA means nothing for this
         * key, so only our own cap grows. */
        rc = CAPTURE_REG_QUERY(HKEY_PERFORMANCE_DATA, value, NULL, &type, buf, &size);
        if (rc != ERROR_MORE_DATA || cap >= MAX_BUFFER || attempts >= V1_ATTEMPTS) {
            break;
        }
        cap = cap * 2 > MAX_BUFFER ? MAX_BUFFER : cap * 2;
    }
    if (rc == ERROR_SUCCESS && size > cap) {
        size = (DWORD)cap; /* never write more than the buffer holds */
    }
    char args[160];
    snprintf(args, sizeof args, "HKEY_PERFORMANCE_DATA \"%ls\" type=%s buffer=%lu attempts=%u",
             value, type == REG_BINARY ? "REG_BINARY" : type == REG_MULTI_SZ ? "REG_MULTI_SZ" : "other",
             (unsigned long)cap, attempts);
    record(c, file, "RegQueryValueExW", args, (unsigned long)rc, buf, rc == ERROR_SUCCESS ? size : 0);
    free(buf);
}

/* A V2 call of the form "fill this buffer, or say how big it must be". The
 * need is widened to 64 bits by each wrapper, so that a count of GUIDs
 * turned into bytes cannot wrap before it is checked. */
typedef ULONG (*sized_call)(const void *ctx, BYTE *buf, DWORD cap, uint64_t *needed);

/* Asks for the size, then fills; the need can grow in between, so a few
 * attempts, each with what the last one asked for plus a quarter, never more
 * than MAX_BUFFER. *len never exceeds the buffer allocated. */
static ULONG call_sized(sized_call call, const void *ctx, BYTE **out, DWORD *len, unsigned *tries)
{
    *out = NULL;
    *len = 0;
    uint64_t needed = 0;
    ULONG rc = call(ctx, NULL, 0, &needed);
    *tries = 1;
    if (rc == ERROR_SUCCESS && needed == 0) {
        return rc; /* an empty answer */
    }
    if (rc != ERROR_SUCCESS && rc != ERROR_NOT_ENOUGH_MEMORY && rc != ERROR_MORE_DATA) {
        return rc;
    }
    for (unsigned attempt = 0; attempt < SIZED_ATTEMPTS; attempt++) {
        if (needed == 0) {
            return ERROR_INVALID_DATA;
        }
        if (needed > MAX_BUFFER) {
            return ERROR_NOT_ENOUGH_MEMORY;
        }
        DWORD cap = (DWORD)needed;
        BYTE *buf = xcalloc(cap);
        uint64_t actual = 0;
        rc = call(ctx, buf, cap, &actual);
        (*tries)++;
        if (rc == ERROR_SUCCESS) {
            *out = buf;
            *len = actual < cap ? (DWORD)actual : cap;
            return rc;
        }
        free(buf);
        if (rc != ERROR_NOT_ENOUGH_MEMORY && rc != ERROR_MORE_DATA) {
            return rc;
        }
        if (actual > MAX_BUFFER || cap == MAX_BUFFER) {
            return ERROR_NOT_ENOUGH_MEMORY; /* the cap itself was too small */
        }
        /* Some room for what appears before the next attempt; growing from
         * cap as well makes progress even if the call reports no more than
         * it was given. Both are at most MAX_BUFFER: no 64-bit overflow. */
        needed = actual > cap ? actual : cap;
        needed += needed / 4;
        needed = needed > MAX_BUFFER ? MAX_BUFFER : needed;
    }
    return rc;
}

typedef struct set_ctx {
    const v2_api *api;
    const GUID *set;
    DWORD code;
    DWORD lang;
    HANDLE query;
} set_ctx;

static ULONG countersets_call(const void *p, BYTE *buf, DWORD cap, uint64_t *needed)
{
    const set_ctx *c = p;
    DWORD count = 0;
    ULONG rc = c->api->enum_countersets(NULL, (GUID *)(void *)buf, cap / (DWORD)sizeof(GUID), &count);
    /* Counted in GUIDs; the helper counts bytes. */
    *needed = (uint64_t)count * sizeof(GUID);
    return rc;
}

static ULONG reginfo_call(const void *p, BYTE *buf, DWORD cap, uint64_t *needed)
{
    const set_ctx *c = p;
    DWORD n = 0;
    ULONG rc = c->api->query_reginfo(NULL, c->set, c->code, c->lang, buf, cap, &n);
    *needed = n;
    return rc;
}

static ULONG instances_call(const void *p, BYTE *buf, DWORD cap, uint64_t *needed)
{
    const set_ctx *c = p;
    DWORD n = 0;
    ULONG rc = c->api->enum_instances(NULL, c->set, buf, cap, &n);
    *needed = n;
    return rc;
}

static ULONG info_call(const void *p, BYTE *buf, DWORD cap, uint64_t *needed)
{
    const set_ctx *c = p;
    DWORD n = 0;
    ULONG rc = c->api->query_info(c->query, buf, cap, &n);
    *needed = n;
    return rc;
}

static ULONG data_call(const void *p, BYTE *buf, DWORD cap, uint64_t *needed)
{
    const set_ctx *c = p;
    DWORD n = 0;
    ULONG rc = c->api->query_data(c->query, buf, cap, &n);
    *needed = n;
    return rc;
}

static uint32_t get32(const BYTE *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(BYTE *p, uint32_t v)
{
    p[0] = (BYTE)v;
    p[1] = (BYTE)(v >> 8);
    p[2] = (BYTE)(v >> 16);
    p[3] = (BYTE)(v >> 24);
}

/* The string requests, with the language they take: the named-language ones
 * get the --lang LANGID, the others 0 as the documentation asks. */
static const struct {
    DWORD code;
    bool localized;
} string_requests[] = {
    {PERF_REG_COUNTERSET_NAME_STRING, true},  {PERF_REG_COUNTERSET_HELP_STRING, true},
    {PERF_REG_COUNTER_NAME_STRINGS, true},    {PERF_REG_COUNTER_HELP_STRINGS, true},
    {PERF_REG_PROVIDER_NAME, false},          {PERF_REG_PROVIDER_GUID, false},
    {PERF_REG_COUNTERSET_ENGLISH_NAME, false}, {PERF_REG_COUNTER_ENGLISH_NAMES, false},
};

/* Registration info and strings; returns whether the set has instances
 * (true when unknown, the usual case and what Wine is asked). */
static bool capture_reginfo(capture *c, const v2_api *api, const GUID *set, const char *g,
                            DWORD langid)
{
    char file[128];
    char args[160];
    BYTE *buf;
    DWORD len;
    unsigned tries;
    bool multi_instance = true;
    if (api->query_reginfo == NULL) {
        missing(c, "PerfQueryCounterSetRegistrationInfo");
        return multi_instance;
    }
    set_ctx ctx = {api, set, PERF_REG_COUNTERSET_STRUCT, 0, NULL};
    ULONG rc = call_sized(reginfo_call, &ctx, &buf, &len, &tries);
    snprintf(file, sizeof file, "v2-reginfo-%s.bin", g);
    if (rc == ERROR_SUCCESS && len >= REG_INFO_SIZE) {
        multi_instance = (get32(buf + REG_INFO_INSTANCE_TYPE) & INSTANCE_TYPE_MULTI_BIT) != 0;
    }
    snprintf(args, sizeof args, "%s requestCode=%lu requestLangId=0 calls=%u", g,
             (unsigned long)PERF_REG_COUNTERSET_STRUCT, tries);
    record(c, file, "PerfQueryCounterSetRegistrationInfo", args, rc, buf, len);
    free(buf);
    for (size_t i = 0; i < sizeof string_requests / sizeof string_requests[0]; i++) {
        ctx.code = string_requests[i].code;
        ctx.lang = string_requests[i].localized ? langid : 0;
        rc = call_sized(reginfo_call, &ctx, &buf, &len, &tries);
        snprintf(file, sizeof file, "v2-strings-%lu-%s.bin", (unsigned long)ctx.code, g);
        snprintf(args, sizeof args, "%s requestCode=%lu requestLangId=0x%04lx calls=%u", g,
                 (unsigned long)ctx.code, (unsigned long)ctx.lang, tries);
        record(c, file, "PerfQueryCounterSetRegistrationInfo", args, rc, buf, len);
        free(buf);
    }
    return multi_instance;
}

static void capture_counterset(capture *c, const v2_api *api, const GUID *set, DWORD langid)
{
    char g[39];
    guid_text(set, g);
    char file[128];
    char args[160];
    BYTE *buf;
    DWORD len;
    unsigned tries;
    ULONG rc;
    bool multi_instance = capture_reginfo(c, api, set, g, langid);

    set_ctx ctx = {api, set, 0, 0, NULL};
    if (api->enum_instances != NULL) {
        rc = call_sized(instances_call, &ctx, &buf, &len, &tries);
        snprintf(file, sizeof file, "v2-instances-%s.bin", g);
        snprintf(args, sizeof args, "%s calls=%u", g, tries);
        record(c, file, "PerfEnumerateCounterSetInstances", args, rc, buf, len);
        free(buf);
    } else {
        missing(c, "PerfEnumerateCounterSetInstances");
    }

    if (api->open_query == NULL || api->add_counters == NULL || api->close_query == NULL) {
        missing(c, "PerfOpenQueryHandle/PerfAddCounters/PerfCloseQueryHandle");
        return;
    }
    HANDLE query = NULL;
    rc = api->open_query(NULL, &query);
    record(c, NULL, "PerfOpenQueryHandle", "machine=NULL (this computer)", rc, NULL, 0);
    if (rc != ERROR_SUCCESS) {
        return;
    }
    /* One identifier: every counter (wildcard id), every instance: the name
     * "*" for a multi-instance set; no name at all for a single-instance one,
     * which rejects an identifier that carries one. */
    BYTE id[ID_HEADER_SIZE + 8];
    memset(id, 0, sizeof id);
    DWORD id_size = multi_instance ? (DWORD)sizeof id : ID_HEADER_SIZE;
    memcpy(id, set, sizeof *set);
    put32(id + ID_SIZE, id_size);
    put32(id + ID_COUNTER, PERF_WILDCARD_COUNTER);
    put32(id + ID_INSTANCE, PERF_ANY_INSTANCE_ID);
    if (multi_instance) {
        id[ID_HEADER_SIZE] = '*'; /* UTF-16LE "*", NUL, then padding */
    }
    rc = api->add_counters(query, id, id_size);
    snprintf(args, sizeof args, "%s CounterId=0xFFFFFFFF InstanceId=0xFFFFFFFF instance=%s Size=%lu "
             "identifier.Status=%lu", g, multi_instance ? "\"*\"" : "none", (unsigned long)id_size,
             (unsigned long)get32(id + ID_STATUS));
    record(c, NULL, "PerfAddCounters", args, rc, NULL, 0);

    ctx.query = query;
    if (api->query_info != NULL) {
        rc = call_sized(info_call, &ctx, &buf, &len, &tries);
        snprintf(file, sizeof file, "v2-counterinfo-%s.bin", g);
        snprintf(args, sizeof args, "%s calls=%u", g, tries);
        record(c, file, "PerfQueryCounterInfo", args, rc, buf, len);
        free(buf);
    } else {
        missing(c, "PerfQueryCounterInfo");
    }
    if (api->query_data != NULL) {
        for (int sample = 0; sample < 2; sample++) {
            if (sample == 1) {
                Sleep(1000); /* a second sample, for rates */
            }
            rc = call_sized(data_call, &ctx, &buf, &len, &tries);
            snprintf(file, sizeof file, "v2-query-%s-%d.bin", g, sample);
            snprintf(args, sizeof args, "%s sample=%d calls=%u", g, sample, tries);
            record(c, file, "PerfQueryCounterData", args, rc, buf, len);
            free(buf);
        }
    } else {
        missing(c, "PerfQueryCounterData");
    }
    rc = api->close_query(query);
    record(c, NULL, "PerfCloseQueryHandle", g, rc, NULL, 0);
}

static void manifest_header(capture *c, int argc, char **argv)
{
    note(c, "# perfbuf-capture %s manifest\n", CAPTURE_VERSION);
    note(c, "# columns: file (- when none was written), function, arguments, status "
            "(Win32), status name, bytes written\n");
    /* The options, not the folder: its path often holds the user's name. */
    note(c, "# options:");
    for (int i = 1; i < argc; i++) {
        if (argv[i] != c->dir_arg) {
            note(c, " %s", argv[i]);
        }
    }
    note(c, "\n");
    time_t now = time(NULL);
    struct tm *utc = gmtime(&now);
    char stamp[32] = "unknown";
    if (utc != NULL) {
        strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", utc);
    }
    note(c, "# time %s\n", stamp);

    /* RtlGetVersion, because GetVersionEx reports what the manifest of the
     * program asks for rather than the real version. */
    typedef LONG(WINAPI * rtl_get_version_fn)(OSVERSIONINFOEXW *);
    OSVERSIONINFOEXW v;
    memset(&v, 0, sizeof v);
    v.dwOSVersionInfoSize = sizeof v;
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    rtl_get_version_fn get =
        ntdll ? (rtl_get_version_fn)(void (*)(void))GetProcAddress(ntdll, "RtlGetVersion") : NULL;
    if (get != NULL && get(&v) == 0) {
        note(c, "# os Windows %lu.%lu build %lu %s sp %u.%u\n", (unsigned long)v.dwMajorVersion,
             (unsigned long)v.dwMinorVersion, (unsigned long)v.dwBuildNumber,
             v.wProductType == VER_NT_WORKSTATION ? "workstation" : "server",
             (unsigned)v.wServicePackMajor, (unsigned)v.wServicePackMinor);
    } else {
        note(c, "# os unknown\n");
    }
    /* Wine says so through an ntdll export that Windows lacks. */
    if (ntdll != NULL && GetProcAddress(ntdll, "wine_get_version") != NULL) {
        typedef const char *(__cdecl * wine_version_fn)(void);
        wine_version_fn wine =
            (wine_version_fn)(void (*)(void))GetProcAddress(ntdll, "wine_get_version");
        note(c, "# wine %s\n", wine());
    }
    SYSTEM_INFO si;
    GetNativeSystemInfo(&si);
    note(c, "# architecture %s, %lu processors\n",
         si.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_AMD64   ? "x64"
         : si.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_ARM64 ? "arm64"
         : si.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_INTEL ? "x86"
                                                                     : "other",
         (unsigned long)si.dwNumberOfProcessors);
}

#define LOAD(lib, api, field, type, name) \
    ((api).field = (type)(void (*)(void))GetProcAddress(lib, name))

int main(int argc, char **argv)
{
    const char *objects[MAX_OBJECTS];
    size_t object_count = 0;
    GUID named[MAX_NAMED_SETS];
    size_t named_count = 0;
    const char *lang = "009";
    unsigned long max_sets = DEFAULT_MAX_SETS;
    const char *out_dir = NULL;
    bool global = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--no-global") == 0) {
            global = false;
            continue;
        }
        bool takes_value = strcmp(a, "--object") == 0 || strcmp(a, "--lang") == 0 ||
                           strcmp(a, "--counterset") == 0 || strcmp(a, "--max-countersets") == 0;
        if (takes_value && next == NULL) {
            fprintf(stderr, "perfbuf-capture: %s needs a value\n", a);
            return 2;
        }
        if (strcmp(a, "--object") == 0) {
            if (!all_digits(next, 10, false) || object_count == MAX_OBJECTS) {
                fprintf(stderr, "perfbuf-capture: --object takes a decimal index (at most %d)\n",
                        MAX_OBJECTS);
                return 2;
            }
            objects[object_count++] = next;
        } else if (strcmp(a, "--lang") == 0) {
            if (!all_digits(next, 4, true)) {
                fprintf(stderr, "perfbuf-capture: --lang takes a hex language such as 009\n");
                return 2;
            }
            lang = next;
        } else if (strcmp(a, "--counterset") == 0) {
            if (named_count == MAX_NAMED_SETS || !parse_guid(next, &named[named_count])) {
                fprintf(stderr, "perfbuf-capture: --counterset takes a GUID (at most %d)\n",
                        MAX_NAMED_SETS);
                return 2;
            }
            named_count++;
        } else if (strcmp(a, "--max-countersets") == 0) {
            char *end;
            max_sets = strtoul(next, &end, 10);
            if (!all_digits(next, 5, false) || *end != '\0' || max_sets > MAX_SETS_LIMIT) {
                fprintf(stderr, "perfbuf-capture: --max-countersets takes 0 to %u\n",
                        MAX_SETS_LIMIT);
                return 2;
            }
        } else if (a[0] != '-' && out_dir == NULL) {
            out_dir = a;
            continue;
        } else {
            usage(stderr);
            return 2;
        }
        i++;
    }
    if (out_dir == NULL) {
        usage(stderr);
        return 2;
    }
    capture c = {out_dir, INVALID_HANDLE_VALUE, NULL, NULL, INVALID_HANDLE_VALUE, 0, 0};
    create_folder(&c);
    /* Written byte for byte: LF line ends on every system, so manifests
     * compare as text. */
    c.manifest = create_output(&c, "manifest.txt");
    manifest_header(&c, argc, argv);

    /* V1 */
    wchar_t value[32];
    char file[64];
    if (global) {
        capture_v1(&c, L"Global", "v1-global.bin");
        capture_v1(&c, L"Costly", "v1-costly.bin");
    }
    for (size_t i = 0; i < object_count; i++) {
        widen("", objects[i], value, sizeof value / sizeof value[0]);
        snprintf(file, sizeof file, "v1-object-%s.bin", objects[i]);
        capture_v1(&c, value, file);
    }
    widen("Counter ", lang, value, sizeof value / sizeof value[0]);
    snprintf(file, sizeof file, "v1-names-counter-%s.bin", lang);
    capture_v1(&c, value, file);
    widen("Help ", lang, value, sizeof value / sizeof value[0]);
    snprintf(file, sizeof file, "v1-names-help-%s.bin", lang);
    capture_v1(&c, value, file);
    /* Closing HKEY_PERFORMANCE_DATA unloads the V1 providers' collectors. */
    record(&c, NULL, "RegCloseKey", "HKEY_PERFORMANCE_DATA",
           (unsigned long)RegCloseKey(HKEY_PERFORMANCE_DATA), NULL, 0);

    /* V2 */
    v2_api api;
    memset(&api, 0, sizeof api);
    HMODULE lib = LoadLibraryW(L"advapi32.dll");
    if (lib != NULL) {
        LOAD(lib, api, enum_countersets, enum_countersets_fn, "PerfEnumerateCounterSet");
        LOAD(lib, api, query_reginfo, query_reginfo_fn, "PerfQueryCounterSetRegistrationInfo");
        LOAD(lib, api, enum_instances, enum_instances_fn, "PerfEnumerateCounterSetInstances");
        LOAD(lib, api, open_query, open_query_fn, "PerfOpenQueryHandle");
        LOAD(lib, api, close_query, close_query_fn, "PerfCloseQueryHandle");
        LOAD(lib, api, add_counters, add_counters_fn, "PerfAddCounters");
        LOAD(lib, api, query_info, query_info_fn, "PerfQueryCounterInfo");
        LOAD(lib, api, query_data, query_data_fn, "PerfQueryCounterData");
    } else {
        record(&c, NULL, "LoadLibraryW", "advapi32.dll", (unsigned long)GetLastError(), NULL, 0);
    }
    /* LANGID of the V1 language: "009" is the primary language 0x09. */
    DWORD langid = (DWORD)MAKELANGID((WORD)strtoul(lang, NULL, 16) & 0x3FFu, SUBLANG_DEFAULT);

    GUID *sets = NULL;
    GUID *listed = NULL; /* owns the enumerated list */
    size_t set_count = 0;
    if (api.enum_countersets != NULL) {
        set_ctx ctx = {&api, NULL, 0, 0, NULL};
        BYTE *list;
        DWORD len;
        unsigned tries;
        ULONG rc = call_sized(countersets_call, &ctx, &list, &len, &tries);
        len -= len % (DWORD)sizeof(GUID);
        char args[64];
        snprintf(args, sizeof args, "machine=NULL (this computer) calls=%u", tries);
        record(&c, "v2-countersets.bin", "PerfEnumerateCounterSet", args, rc, list, len);
        if (named_count == 0 && rc == ERROR_SUCCESS) {
            set_count = len / sizeof(GUID);
            set_count = set_count < max_sets ? set_count : max_sets;
            listed = (GUID *)(void *)list;
            sets = listed;
            list = NULL;
        }
        free(list);
    } else {
        missing(&c, "PerfEnumerateCounterSet");
    }
    if (named_count > 0) {
        sets = named;
        set_count = named_count;
    } else if (set_count == 0 && max_sets > 0) {
        /* No list: Processor Information, which every Windows since 7 has. */
        static GUID fallback;
        parse_guid("{b4fc721a-0378-476f-89ba-a5a79f810b36}", &fallback);
        note(&c, "# no counterset list: querying Processor Information\n");
        sets = &fallback;
        set_count = 1;
    }
    for (size_t i = 0; i < set_count; i++) {
        capture_counterset(&c, &api, &sets[i], langid);
    }
    free(listed);
    note(&c, "# end: %u files, %u calls failed\n", c.files, c.failures);
    close_output(c.manifest, "manifest.txt");
    CloseHandle(c.dir);
    free(c.dir_path);
    LocalFree(c.file_sd);
    printf("perfbuf-capture: wrote %u files into %s (%u calls failed; see manifest.txt)\n",
           c.files, out_dir, c.failures);
    return 0;
}
