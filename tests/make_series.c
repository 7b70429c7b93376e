/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Writes the inputs of the perfbuf-dump --rate, --series and V2 metadata
 * test into DIR:
 *   - four V1 captures of the same query one second apart (s0.bin ..
 *     s3.bin): Idle's % Processor Time moves 1.5 s, 2.5 s, then 3.5 s of
 *     every 10 s;
 *   - Processor Information in V2: two query captures one second apart
 *     (v2-q0.bin, v2-q1.bin) in which "_Total" is idle 2.5 s of 10 s, its
 *     registration (v2-reginfo.bin, and v2-reginfo-single.bin claiming a
 *     single instance), counter names (v2-names.bin), identifiers
 *     (v2-ids.bin), a counter struct, name, provider GUID, counterset list
 *     and instance list.
 * With --synthetic, the pair of captures and the Counter table bundled in
 * corpus/captures/synthetic/ instead (docs/synthetic.md); with
 * --collector-series, the series bundled in corpus/captures/series/. With --pairing,
 * pairs of captures one second apart whose instances change between them
 * (pairing_files).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder_v1.h"
#include "perfbuf/counter_types.h"
#include "builder_v2meta.h"

static int write_file(const char *dir, const char *name, const uint8_t *data, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL || (len > 0 && fwrite(data, 1, len, f) != len) || fclose(f) != 0) {
        fprintf(stderr, "make_series: cannot write %s\n", path);
        return 2;
    }
    return 0;
}

static int write_buf(const char *dir, const char *name, tb_buf *b)
{
    int rc = write_file(dir, name, b->data, b->len);
    tb_free(b);
    return rc;
}

static int v2_files(const char *dir)
{
    static const char *const instances[2] = {"_Total", "0,0"};
    int rc = 0;
    for (uint32_t k = 0; k < 2 && rc == 0; k++) {
        tb_v2 q = tb_v2_processor_information_query(instances, 2);
        /* PerfTimeStamp and PerfTime100NSec one second on (the low words
         * do not carry); "_Total"'s % Processor Time (its first value, at
         * 240) 2.5 s of idle on. */
        tb_patch_u32(&q.buf, 8, tb_get_u32(&q.buf, 8) + k * 10000000u);
        tb_patch_u32(&q.buf, 16, tb_get_u32(&q.buf, 16) + k * 10000000u);
        tb_patch_u32(&q.buf, 240, 1000u + k * 2500000u);
        char name[32];
        snprintf(name, sizeof name, "v2-q%u.bin", k);
        rc = write_buf(dir, name, &q.buf);
    }
    tb_buf b = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                             PERFBUF_COUNTERSET_MULTI_INSTANCES);
    tb_buf one;
    tb_init(&one);
    tb_bytes(&one, b.data + 32 + 21 * 48, 48);
    rc = rc ? rc : write_buf(dir, "v2-reginfo.bin", &b);
    rc = rc ? rc : write_buf(dir, "v2-counter.bin", &one);
    b = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                      PERFBUF_COUNTERSET_SINGLE_INSTANCE);
    rc = rc ? rc : write_buf(dir, "v2-reginfo-single.bin", &b);
    /* Counter 0 registered as a 4-byte PERF_COUNTER_RAWCOUNT: the query's
     * 8-byte value disagrees (Type of the first PERF_COUNTER_REG_INFO). */
    b = tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                      PERFBUF_COUNTERSET_MULTI_INSTANCES);
    tb_patch_u32(&b, 32 + 4, PERF_COUNTER_RAWCOUNT);
    rc = rc ? rc : write_buf(dir, "v2-reginfo-size.bin", &b);
    b = tb_v2_strings(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                      PERFBUF_V2_STRINGS_FROM_ARRAY_END);
    rc = rc ? rc : write_buf(dir, "v2-names.bin", &b);
    tb_init(&b);
    tb_v2_identifier(&b, tb_processor_information_guid, 0, PERFBUF_V2_WILDCARD_COUNTER,
                     PERFBUF_V2_ANY_INSTANCE_ID, 0, "*");
    rc = rc ? rc : write_buf(dir, "v2-ids.bin", &b);
    b = tb_v2_string_answer("Processor Information");
    rc = rc ? rc : write_buf(dir, "v2-name.bin", &b);
    rc = rc ? rc : write_file(dir, "v2-provider.bin", tb_processor_information_guid, 16);
    tb_init(&b);
    tb_bytes(&b, tb_processor_information_guid, 16);
    tb_bytes(&b, tb_processor_information_guid, 16);
    b.data[16] ^= 1;
    rc = rc ? rc : write_buf(dir, "v2-countersets.bin", &b);
    tb_init(&b);
    for (uint32_t i = 0; i < 2; i++) {
        size_t start = b.len;
        tb_u32(&b, 0);
        tb_u32(&b, i);
        tb_utf16(&b, instances[i], 1);
        tb_pad8_from(&b, start);
        tb_patch_u32(&b, start, (uint32_t)(b.len - start));
    }
    rc = rc ? rc : write_buf(dir, "v2-instances.bin", &b);
    return rc;
}

/*
 * The bundled synthetic pair (corpus/captures/synthetic/): two V1 captures
 * one second apart of the Processor object (title 238, counter 6
 * "% Processor Time", PERF_100NSEC_TIMER_INV, as Microsoft's V1 example
 * reads it) and of Process (230) with two instances named svchost, which
 * perfbuf names svchost and svchost#1; and an English Counter table naming
 * those indexes. Every value is made up so the rates come out round.
 */
enum { PROCESSOR = 238, PROCESS = 230, PROCESSOR_TIME = 6, ID_PROCESS = 784 };

static tb_buf synthetic_capture(unsigned k)
{
    /* Idle time in 100 ns that each processor adds over the second. */
    static const char *const cpus[3] = {"0", "1", "_Total"};
    static const uint64_t idle_per_second[3] = {2500000u, 9000000u, 5750000u};
    static const char *const processes[3] = {"Idle", "svchost", "svchost"};
    static const uint64_t busy_per_second[3] = {0u, 1500000u, 500000u};
    static const uint32_t pids[3] = {0u, 812u, 1044u};
    tb_v1 v;
    tb_v1_begin(&v, "SYNTHETIC");
    tb_patch_u32(&v.buf, 72, tb_get_u32(&v.buf, 72) + k * 10000000u);
    tb_v1_object_begin(&v, PROCESSOR, 0, 0);
    tb_v1_counter(&v, PROCESSOR_TIME, PERF_100NSEC_TIMER_INV, 8, 8);
    tb_v1_definitions_end(&v);
    for (unsigned i = 0; i < 3; i++) {
        uint8_t data[12] = {0};
        tb_put64(data, 8, 40000000u + k * idle_per_second[i]);
        tb_v1_instance(&v, cpus[i], 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_object_begin(&v, PROCESS, 0, 0);
    tb_v1_counter(&v, PROCESSOR_TIME, PERF_100NSEC_TIMER, 8, 8);
    tb_v1_counter(&v, ID_PROCESS, PERF_COUNTER_RAWCOUNT, 4, 16);
    tb_v1_definitions_end(&v);
    for (unsigned i = 0; i < 3; i++) {
        uint8_t data[20] = {0};
        tb_put64(data, 8, 30000000u + k * busy_per_second[i]);
        tb_put32(data, 16, pids[i]);
        tb_v1_instance(&v, processes[i], 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return v.buf;
}

static tb_buf synthetic_counter_table(void)
{
    static const char *const pairs[] = {
        "1", "1847", "6", "% Processor Time", "230", "Process",
        "238", "Processor", "784", "ID Process",
    };
    tb_buf b;
    tb_init(&b);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        (void)tb_utf16(&b, pairs[i], 1);
    }
    tb_u16(&b, 0);
    return b;
}

static int synthetic_files(const char *dir)
{
    tb_buf b = synthetic_capture(0);
    int rc = write_buf(dir, "v1-synthetic-processor-0.bin", &b);
    b = synthetic_capture(1);
    rc = rc ? rc : write_buf(dir, "v1-synthetic-processor-1.bin", &b);
    b = synthetic_counter_table();
    return rc ? rc : write_buf(dir, "v1-names-synthetic-counter-009.bin", &b);
}

/*
 * --collector-series: the series bundled in corpus/captures/series/ (its
 * README lists every value): four V1 captures one second apart of
 * Processor, Process and Thread, in which processes start and exit and the
 * first of two svchost exits mid-series, so PDH's svchost#1 shifts; and
 * the English Counter table naming every index they use.
 */
enum {
    SERIES_CAPTURES = 4,
    THREAD = 232,
    ELAPSED_TIME = 684,
    ID_THREAD = 804,
    SERIES_PROCESSES = 6,
};
/* 2026-11-22 10:00:00 UTC, the builder's SystemTime, as a FILETIME. */
static const uint64_t series_filetime_at_first = 134398152000000000ull;
static const uint64_t one_second = 10000000u; /* in 100 ns, and in PerfTime at PerfFreq 10^7 */

static void put_u64_at(tb_buf *b, size_t at, uint64_t value)
{
    tb_patch_u32(b, at, (uint32_t)value);
    tb_patch_u32(b, at + 4, (uint32_t)(value >> 32));
}

/* The object's own clock (PerfTime and PerfFreq at 48 and 56 of
 * PERF_OBJECT_TYPE). */
static void series_object_clock(tb_v1 *v, uint64_t time)
{
    put_u64_at(&v->buf, v->object_start + 48, time);
    put_u64_at(&v->buf, v->object_start + 56, one_second);
}

typedef struct series_process {
    const char *name;
    uint32_t pid;
    uint32_t first_capture; /* the first capture it is in */
    uint32_t last_capture;  /* the last capture it is in */
    int64_t started_seconds; /* relative to capture 0's time */
    uint64_t busy_per_second; /* in 100 ns */
    uint64_t busy_at_first;   /* its % Processor Time counter at its first capture */
} series_process;

static const series_process series_processes[SERIES_PROCESSES] = {
    {"Idle", 0, 0, 3, -86400, 5000000u, 40000000u},
    {"svchost", 812, 0, 1, -3600, 2000000u, 14000000u},
    {"svchost", 1044, 0, 3, -600, 1000000u, 20000000u},
    {"notepad", 2000, 0, 2, -60, 500000u, 3000000u},
    {"cmd", 3000, 1, 3, 0, 3000000u, 2000000u},
    {"calc", 4000, 3, 3, 2, 4000000u, 4000000u},
};

static uint64_t series_qpc(uint32_t k)
{
    return 123456789u + k * one_second;
}

static void series_processor(tb_v1 *v, uint32_t k)
{
    static const char *const cpus[3] = {"0", "1", "_Total"};
    /* idle in 100 ns over the second before capture 1, 2 and 3 */
    static const uint64_t idle[3][3] = {
        {5000000u, 9000000u, 7000000u},
        {4000000u, 8000000u, 6000000u},
        {3000000u, 7000000u, 5000000u},
    };
    tb_v1_object_begin(v, PROCESSOR, 0, 0);
    series_object_clock(v, series_qpc(k));
    tb_v1_counter(v, PROCESSOR_TIME, PERF_100NSEC_TIMER_INV, 8, 8);
    tb_v1_definitions_end(v);
    for (unsigned i = 0; i < 3; i++) {
        uint64_t total = 40000000u;
        for (uint32_t s = 0; s < k; s++) {
            total += idle[s][i];
        }
        uint8_t data[12] = {0};
        tb_put64(data, 8, total);
        tb_v1_instance(v, cpus[i], 0, 0);
        tb_v1_counter_block(v, data, sizeof data);
    }
    tb_v1_object_end(v);
}

static bool series_alive(const series_process *p, uint32_t k)
{
    return k >= p->first_capture && k <= p->last_capture;
}

static uint64_t series_busy(const series_process *p, uint32_t k)
{
    return p->busy_at_first + (k - p->first_capture) * p->busy_per_second;
}

static void series_process_object(tb_v1 *v, uint32_t k)
{
    uint64_t now = series_filetime_at_first + k * one_second;
    tb_v1_object_begin(v, PROCESS, 0, 0);
    /* Elapsed Time counts on the object's clock: the system time in 100 ns. */
    series_object_clock(v, now);
    tb_v1_counter(v, PROCESSOR_TIME, PERF_100NSEC_TIMER, 8, 8);
    tb_v1_counter(v, ID_PROCESS, PERF_COUNTER_RAWCOUNT, 4, 16);
    tb_v1_counter(v, ELAPSED_TIME, PERF_ELAPSED_TIME, 8, 24);
    tb_v1_definitions_end(v);
    for (unsigned i = 0; i < SERIES_PROCESSES; i++) {
        const series_process *p = &series_processes[i];
        if (!series_alive(p, k)) {
            continue;
        }
        uint8_t data[28] = {0};
        tb_put64(data, 8, series_busy(p, k));
        tb_put32(data, 16, p->pid);
        tb_put64(data, 24,
                 (uint64_t)((int64_t)series_filetime_at_first + p->started_seconds *
                                                                   (int64_t)one_second));
        tb_v1_instance(v, p->name, 0, 0);
        tb_v1_counter_block(v, data, sizeof data);
    }
    tb_v1_object_end(v);
}

/* One thread "0" per process, with its process's time; Idle has a second,
 * "1"; each names its process by that process's position in this capture. */
static void series_thread_object(tb_v1 *v, uint32_t k)
{
    tb_v1_object_begin(v, THREAD, 0, 0);
    series_object_clock(v, series_qpc(k));
    tb_v1_counter(v, PROCESSOR_TIME, PERF_100NSEC_TIMER, 8, 8);
    tb_v1_counter(v, ID_PROCESS, PERF_COUNTER_RAWCOUNT, 4, 16);
    tb_v1_counter(v, ID_THREAD, PERF_COUNTER_RAWCOUNT, 4, 20);
    tb_v1_definitions_end(v);
    uint32_t position = 0;
    for (unsigned i = 0; i < SERIES_PROCESSES; i++) {
        const series_process *p = &series_processes[i];
        if (!series_alive(p, k)) {
            continue;
        }
        unsigned threads = p->pid == 0 ? 2 : 1;
        for (unsigned t = 0; t < threads; t++) {
            uint8_t data[20] = {0};
            tb_put64(data, 8, series_busy(p, k) / threads);
            tb_put32(data, 16, p->pid);
            tb_put32(data, 20, p->pid + 4 + 4 * t);
            tb_v1_instance(v, t == 0 ? "0" : "1", TB_V1_PROCESS, position);
            tb_v1_counter_block(v, data, sizeof data);
        }
        position++;
    }
    tb_v1_object_end(v);
}

static tb_buf series_capture(uint32_t k)
{
    tb_v1 v;
    tb_v1_begin(&v, "SERIES");
    /* SystemTime's wSecond (the seventh u16 at 36), PerfTime (56) and
     * PerfTime100nSec (72): one second on per capture. */
    v.buf.data[48] = (uint8_t)k;
    put_u64_at(&v.buf, 56, series_qpc(k));
    put_u64_at(&v.buf, 72, series_filetime_at_first + k * one_second);
    series_processor(&v, k);
    series_process_object(&v, k);
    series_thread_object(&v, k);
    tb_v1_end(&v);
    return v.buf;
}

static int collector_series_files(const char *dir)
{
    static const char *const pairs[] = {
        "1", "1847", "6", "% Processor Time", "230", "Process", "232", "Thread",
        "238", "Processor", "684", "Elapsed Time", "784", "ID Process", "804", "ID Thread",
    };
    int rc = 0;
    for (uint32_t k = 0; k < SERIES_CAPTURES && rc == 0; k++) {
        char name[32];
        snprintf(name, sizeof name, "v1-series-%u.bin", k);
        tb_buf b = series_capture(k);
        rc = write_buf(dir, name, &b);
    }
    tb_buf b;
    tb_init(&b);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        (void)tb_utf16(&b, pairs[i], 1);
    }
    tb_u16(&b, 0);
    return rc ? rc : write_buf(dir, "v1-names-series-counter-009.bin", &b);
}

/* One V1 block whose SystemTime (eight u16 at 36) holds these fields. */
static int v1_with_time(const char *dir, const char *name, const uint16_t fields[8])
{
    tb_v1 v;
    tb_v1_begin(&v, "TIME");
    tb_v1_end(&v);
    for (size_t k = 0; k < 8; k++) {
        v.buf.data[36 + 2 * k] = (uint8_t)fields[k];
        v.buf.data[37 + 2 * k] = (uint8_t)(fields[k] >> 8);
    }
    return write_buf(dir, name, &v.buf);
}

/* text of n copies of c, or NULL when memory runs out */
static char *repeated(char c, size_t n)
{
    char *t = malloc(n + 1);
    if (t != NULL) {
        memset(t, c, n);
        t[n] = '\0';
    }
    return t;
}

/*
 * V1 inputs of the CLI test: SYSTEMTIMEs out of range (fields no calendar
 * has, and February 29 of a common year) and one in range on a leap day;
 * instances without a name (NameLength 0) and with an empty one
 * (NameLength 2: the NUL alone); a 600-byte system name, a 2,000-byte
 * instance name and a 200-byte counter, which must come out whole, and a
 * child of that instance whose full name is too long to show whole.
 */
static int cli_v1_files(const char *dir)
{
    static const uint16_t impossible[8] = {6293, 276, 9, 265, 269, 257, 257, 257};
    static const uint16_t common_leap_day[8] = {2023, 2, 3, 29, 12, 0, 0, 0};
    static const uint16_t leap_day[8] = {2024, 2, 4, 29, 23, 59, 59, 999};
    int rc = v1_with_time(dir, "v1-time-impossible.bin", impossible);
    rc = rc ? rc : v1_with_time(dir, "v1-time-feb29-2023.bin", common_leap_day);
    rc = rc ? rc : v1_with_time(dir, "v1-time-feb29-2024.bin", leap_day);

    tb_v1 v;
    tb_v1_begin(&v, "NAMES");
    tb_v1_object_begin(&v, TB_V1_PROCESS, 0, 0);
    tb_v1_counter(&v, 6, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    uint8_t data[4] = {1, 0, 0, 0};
    size_t unnamed = v.buf.len;
    tb_v1_instance(&v, "", 0, 0);
    tb_patch_u32(&v.buf, unnamed + 20, 0); /* NameLength 0: no name at all */
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_instance(&v, "", 0, 0);          /* NameLength 2: an empty name */
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    rc = rc ? rc : write_buf(dir, "v1-unnamed.bin", &v.buf);

    char *system_name = repeated('s', 600);
    char *instance_name = repeated('i', 2000);
    if (system_name == NULL || instance_name == NULL) {
        free(system_name);
        free(instance_name);
        fprintf(stderr, "make_series: out of memory\n");
        return 2;
    }
    tb_v1_begin(&v, system_name);
    tb_v1_object_begin(&v, TB_V1_PROCESS, 0, 0);
    tb_v1_counter(&v, 6, PERF_COUNTER_TEXT, 200, 4);
    tb_v1_definitions_end(&v);
    uint8_t text[200];
    for (size_t k = 0; k < sizeof text; k++) {
        text[k] = (uint8_t)k;
    }
    tb_v1_instance(&v, instance_name, 0, 0);
    tb_v1_counter_block(&v, text, sizeof text);
    tb_v1_object_end(&v);
    /* A child whose full name, parent/child, is 2,000 + 1 + 2,100 bytes:
     * over the 4,095 shown, so it is cut and says so. */
    char *child_name = repeated('c', 2100);
    if (child_name == NULL) {
        free(system_name);
        free(instance_name);
        fprintf(stderr, "make_series: out of memory\n");
        return 2;
    }
    tb_v1_object_begin(&v, TB_V1_THREAD, 0, 0);
    tb_v1_counter(&v, 6, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    tb_v1_instance(&v, child_name, TB_V1_PROCESS, 0);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    free(child_name);
    free(system_name);
    free(instance_name);
    return rc ? rc : write_buf(dir, "v1-long.bin", &v.buf);
}

/*
 * Inputs of the CLI test (tests/dump_cli.cmake): a Counter table whose
 * texts hold characters a terminal acts on (CSI as U+009B, OSC as U+009D,
 * a right-to-left override, an isolate, a lone surrogate) and a 40-byte
 * counterset list (two and a half GUIDs).
 */
static int cli_files(const char *dir)
{
    tb_buf b;
    tb_init(&b);
    (void)tb_utf16(&b, "2", 1);
    (void)tb_utf16(&b, "csi\xC2\x9B" "31m osc\xC2\x9D" "0;title\x07 end", 1);
    (void)tb_utf16(&b, "4", 1);
    (void)tb_utf16(&b, "abc\xE2\x80\xAE" "fed \xE2\x81\xA6" "isolate", 1);
    tb_u16(&b, '6');
    tb_u16(&b, 0);
    tb_u16(&b, 'x');
    tb_u16(&b, 0xD800); /* a lone surrogate: U+FFFD */
    tb_u16(&b, 0);
    tb_u16(&b, 0);
    int rc = write_buf(dir, "names-escapes.bin", &b);
    tb_init(&b);
    for (unsigned i = 0; i < 40; i++) {
        tb_bytes(&b, &tb_processor_information_guid[i % 16], 1);
    }
    rc = rc ? rc : write_buf(dir, "countersets-40.bin", &b);
    return rc ? rc : cli_v1_files(dir);
}

/*
 * Inputs of the --counter and --csv test (tests/dump_csv.cmake): the
 * synthetic pair and its English table; a German table for the same
 * indexes, unsorted, with one text given to two indexes; and a capture
 * whose names a CSV reader could mistake: a counter text with '"', an
 * object text starting with '=', instances named like a formula and
 * holding a line break; and a capture whose instance names hold the
 * Unicode line breaks and bidirectional controls.
 */
static int csv_files(const char *dir)
{
    int rc = synthetic_files(dir);
    static const char *const german[] = {
        "784", "Prozesskennung", "230", "Prozess", "238", "Prozessor",
        "6", "Prozessorzeit (%)", "1", "1847", "7000", "Prozessor",
    };
    tb_buf b;
    tb_init(&b);
    for (size_t i = 0; i < sizeof german / sizeof german[0]; i++) {
        (void)tb_utf16(&b, german[i], 1);
    }
    tb_u16(&b, 0);
    rc = rc ? rc : write_buf(dir, "names-german.bin", &b);
    static const char *const hostile[] = {"6", "Say \"hi\"", "230", "=Proc"};
    tb_init(&b);
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        (void)tb_utf16(&b, hostile[i], 1);
    }
    tb_u16(&b, 0);
    rc = rc ? rc : write_buf(dir, "names-hostile.bin", &b);
    tb_v1 v;
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, TB_V1_PROCESS, 0, 0);
    tb_v1_counter(&v, 6, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    uint8_t data[4] = {7, 0, 0, 0};
    tb_v1_instance(&v, "=cmd|' /C calc'!A0", 0, 0);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_instance(&v, "line\r\nbreak", 0, 0);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    rc = rc ? rc : write_buf(dir, "v1-hostile.bin", &v.buf);
    /* A Process object with no instance at this moment (NumInstances 0),
     * as when every process of a filtered query has exited: what a
     * `(*)` path finds then is an empty object, not a mistyped path. */
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, TB_V1_PROCESS, 0, 0);
    tb_v1_counter(&v, 6, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    rc = rc ? rc : write_buf(dir, "v1-empty-object.bin", &v.buf);
    /* The same block cut 8 bytes short of its TotalByteLength, as a
     * capture cut off in transit. */
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, TB_V1_PROCESS, 0, 0);
    tb_v1_counter(&v, 6, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    v.buf.len -= 8;
    rc = rc ? rc : write_buf(dir, "v1-cut-short.bin", &v.buf);
    /* One Process instance with 65,537 raw counts, one more than the
     * default --max-counters (65,536): the first titled 6, the others
     * 8, 10, ..., so none repeats a title. */
    enum { OVER_DEFAULT_COUNTERS = 65537 };
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, TB_V1_PROCESS, 0, 0);
    for (uint32_t i = 0; i < OVER_DEFAULT_COUNTERS; i++) {
        tb_v1_counter(&v, 6u + 2u * i, PERF_COUNTER_RAWCOUNT, 4, 4u + 4u * i);
    }
    tb_v1_definitions_end(&v);
    uint8_t *wide = calloc(OVER_DEFAULT_COUNTERS, 4);
    if (wide == NULL) {
        return 1;
    }
    wide[0] = 7;
    tb_v1_instance(&v, "wide", 0, 0);
    tb_v1_counter_block(&v, wide, OVER_DEFAULT_COUNTERS * 4u);
    free(wide);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    rc = rc ? rc : write_buf(dir, "v1-many-counters.bin", &v.buf);
    /* Two instances, then 8 bytes past TotalByteLength: trailing bytes,
     * which a lenient parse tolerates and a strict one refuses. */
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, TB_V1_PROCESS, 0, 0);
    tb_v1_counter(&v, 6, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    tb_v1_instance(&v, "first", 0, 0);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_instance(&v, "second", 0, 0);
    tb_v1_counter_block(&v, data, sizeof data);
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    tb_u32(&v.buf, 0);
    tb_u32(&v.buf, 0);
    rc = rc ? rc : write_buf(dir, "v1-trailing.bin", &v.buf);
    /* One instance per character that breaks a line for a Unicode reader
     * or reorders what a spreadsheet or terminal shows, each named
     * "uXXXX[<the character>]". */
    static const uint32_t breaking[] = {0x0085, 0x2028, 0x2029, 0x202A, 0x202B,
                                        0x202C, 0x202D, 0x202E, 0x2066, 0x2067,
                                        0x2068, 0x2069, 0x200E, 0x200F, 0x061C};
    tb_v1_begin(&v, "HOST");
    tb_v1_object_begin(&v, TB_V1_PROCESS, 0, 0);
    tb_v1_counter(&v, 6, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_definitions_end(&v);
    for (size_t i = 0; i < sizeof breaking / sizeof breaking[0]; i++) {
        uint32_t cp = breaking[i];
        char name[16];
        /* The character in UTF-8: two bytes below U+0800, else three. */
        if (cp < 0x800) {
            snprintf(name, sizeof name, "u%04x[%c%c]", (unsigned)cp, (char)(0xC0 | cp >> 6),
                     (char)(0x80 | (cp & 0x3F)));
        } else {
            snprintf(name, sizeof name, "u%04x[%c%c%c]", (unsigned)cp, (char)(0xE0 | cp >> 12),
                     (char)(0x80 | (cp >> 6 & 0x3F)), (char)(0x80 | (cp & 0x3F)));
        }
        tb_v1_instance(&v, name, 0, 0);
        tb_v1_counter_block(&v, data, sizeof data);
    }
    tb_v1_object_end(&v);
    tb_v1_end(&v);
    return rc ? rc : write_buf(dir, "v1-unicode-breaks.bin", &v.buf);
}

/*
 * One Process instance: % Processor Time (6, PERF_100NSEC_TIMER, 8 bytes)
 * and ID Process (784, a raw count). The timer reads 1,000,000 x id at
 * capture 0 and rises by `percent` % of the one second to capture 1, so a
 * value computed against another process's sample is visibly off.
 */
static void process_instance(tb_v1 *v, const char *name, uint32_t id, uint32_t capture,
                             uint32_t percent)
{
    uint8_t data[16] = {0};
    tb_put64(data, 8, 1000000ull * id + (capture ? 100000ull * percent : 0));
    tb_put32(data, 4, id);
    tb_v1_instance(v, name, 0, 0);
    tb_v1_counter_block(v, data, sizeof data);
}

static void process_object_begin(tb_v1 *v, uint32_t capture)
{
    tb_v1_begin(v, "PAIR");
    /* PerfTime (56) and PerfTime100nSec (72): one second later. */
    tb_patch_u32(&v->buf, 56, tb_get_u32(&v->buf, 56) + capture * 10000000u);
    tb_patch_u32(&v->buf, 72, tb_get_u32(&v->buf, 72) + capture * 10000000u);
    tb_v1_object_begin(v, TB_V1_PROCESS, 0, 0);
    tb_v1_counter(v, 784, PERF_COUNTER_RAWCOUNT, 4, 4);
    tb_v1_counter(v, 6, PERF_100NSEC_TIMER, 8, 8);
    tb_v1_definitions_end(v);
}

/*
 * --pairing: instances that change between two captures.
 *   churn-0.bin, churn-1.bin: 20,000 processes "p0".."p19999" busy 25 %;
 *     p0 exits before capture 1, which ends with a new process "fresh".
 *   cases-0.bin, cases-1.bin: Process with Idle, three svchost (ids 10,
 *     11, 12) of which the second exits (old #2 becomes #1), "a" and "b"
 *     that swap places, "gone" that exits and "started" that begins; and
 *     Thread (232) with "t0" whose parent changes from a to b and "t1"
 *     of Idle in both.
 *   repeated-0.bin, repeated-1.bin: two Process objects, "first" in the
 *     first and "second" in the second (a title the block repeats).
 *   case-0.bin, case-1.bin: Process with "svchost", "SVCHOST" and
 *     "svchost" (ids 10, 11, 12): names that differ in ASCII case only.
 *   uid-0.bin, uid-1.bin: Process with three "svchost" whose provider sets
 *     UniqueID to the process id (10, 11, 12); 11 exits before capture 1.
 *   names.bin: the English Counter table of --synthetic, for --counter.
 *   another-query.bin: the objects of the fuzz corpus's valid-global.bin
 *     (another query's Thread object) as computer SERIES one second after
 *     corpus/captures/series/v1-series-0.bin, so the two pair into rates.
 */
static int pairing_files(const char *dir)
{
    int rc = 0;
    char name[32];
    for (uint32_t k = 0; k < 2 && rc == 0; k++) {
        tb_v1 v;
        process_object_begin(&v, k);
        for (uint32_t i = k; i < 20000; i++) {
            snprintf(name, sizeof name, "p%u", i);
            process_instance(&v, name, 100 + i, k, 25);
        }
        if (k == 1) {
            process_instance(&v, "fresh", 99, k, 40);
        }
        tb_v1_object_end(&v);
        tb_v1_end(&v);
        snprintf(name, sizeof name, "churn-%u.bin", k);
        rc = write_buf(dir, name, &v.buf);
    }
    for (uint32_t k = 0; k < 2 && rc == 0; k++) {
        tb_v1 v;
        process_object_begin(&v, k);
        /* positions in capture 0: Idle 0, svchost 1-3, a 4, b 5, gone 6;
         * in capture 1: Idle 0, svchost 1-2, b 3, started 4, a 5 */
        process_instance(&v, "Idle", 0, k, 50);
        process_instance(&v, "svchost", 10, k, 10);
        if (k == 0) {
            process_instance(&v, "svchost", 11, k, 20);
        }
        process_instance(&v, "svchost", 12, k, 30);
        if (k == 0) {
            process_instance(&v, "a", 20, k, 5);
            process_instance(&v, "b", 21, k, 15);
            process_instance(&v, "gone", 22, k, 45);
        } else {
            process_instance(&v, "b", 21, k, 15);
            process_instance(&v, "started", 23, k, 35);
            process_instance(&v, "a", 20, k, 5);
        }
        tb_v1_object_end(&v);
        tb_v1_object_begin(&v, TB_V1_THREAD, 0, 0);
        tb_v1_counter(&v, 6, PERF_100NSEC_TIMER, 8, 8);
        tb_v1_definitions_end(&v);
        uint8_t data[16] = {0};
        tb_put64(data, 8, k ? 1000000u : 0u);
        tb_v1_instance(&v, "t0", TB_V1_PROCESS, k == 0 ? 4 : 3);
        tb_v1_counter_block(&v, data, sizeof data);
        tb_v1_instance(&v, "t1", TB_V1_PROCESS, 0);
        tb_v1_counter_block(&v, data, sizeof data);
        tb_v1_object_end(&v);
        tb_v1_end(&v);
        snprintf(name, sizeof name, "cases-%u.bin", k);
        rc = write_buf(dir, name, &v.buf);
    }
    for (uint32_t k = 0; k < 2 && rc == 0; k++) {
        tb_v1 v;
        process_object_begin(&v, k);
        process_instance(&v, "first", 1, k, 20);
        tb_v1_object_end(&v);
        tb_v1_object_begin(&v, TB_V1_PROCESS, 0, 0);
        tb_v1_counter(&v, 784, PERF_COUNTER_RAWCOUNT, 4, 4);
        tb_v1_counter(&v, 6, PERF_100NSEC_TIMER, 8, 8);
        tb_v1_definitions_end(&v);
        process_instance(&v, "second", 2, k, 30);
        tb_v1_object_end(&v);
        tb_v1_end(&v);
        snprintf(name, sizeof name, "repeated-%u.bin", k);
        rc = write_buf(dir, name, &v.buf);
    }
    /* Names PDH tells apart by #N without regard to ASCII case: "SVCHOST"
     * is the second svchost, "svchost#1", of both captures. */
    for (uint32_t k = 0; k < 2 && rc == 0; k++) {
        tb_v1 v;
        process_object_begin(&v, k);
        process_instance(&v, "svchost", 10, k, 10);
        process_instance(&v, "SVCHOST", 11, k, 20);
        process_instance(&v, "svchost", 12, k, 30);
        tb_v1_object_end(&v);
        tb_v1_end(&v);
        snprintf(name, sizeof name, "case-%u.bin", k);
        rc = write_buf(dir, name, &v.buf);
    }
    /* UniqueID in place of the name (winperf.h: an identifier usable
     * instead of the name): --rate pairs each svchost with its own id,
     * the query behind --csv by PDH's name and #N. */
    for (uint32_t k = 0; k < 2 && rc == 0; k++) {
        tb_v1 v;
        process_object_begin(&v, k);
        const uint32_t ids[3] = {10, 11, 12};
        for (uint32_t i = 0; i < 3; i++) {
            if (k == 1 && ids[i] == 11) {
                continue;
            }
            size_t at = v.buf.len;
            process_instance(&v, "svchost", ids[i], k, ids[i] * 2u);
            tb_patch_u32(&v.buf, at + 12, ids[i]); /* PERF_INSTANCE_DEFINITION.UniqueID */
        }
        tb_v1_object_end(&v);
        tb_v1_end(&v);
        snprintf(name, sizeof name, "uid-%u.bin", k);
        rc = write_buf(dir, name, &v.buf);
    }
    if (rc == 0) {
        tb_buf b = synthetic_counter_table();
        rc = write_buf(dir, "names.bin", &b);
    }
    if (rc == 0) {
        /* SystemTime's wSecond (at 48), PerfTime (56), PerfTime100nSec (72)
         * as series_capture(1) sets them. */
        tb_v1 v = tb_v1_sample_global_of("SERIES");
        v.buf.data[48] = 1;
        put_u64_at(&v.buf, 56, series_qpc(1));
        put_u64_at(&v.buf, 72, series_filetime_at_first + one_second);
        rc = write_buf(dir, "another-query.bin", &v.buf);
    }
    return rc;
}

/*
 * A producer for a pipe into perfbuf-dump (tests/dump_cli.cmake): writes
 * FILE, then zeros, up to BYTES in all, in unbuffered pieces of 4 KiB,
 * and stops at the first write that fails (the reader has gone); then it
 * says on stderr how many bytes the pipe took. That count bounds what the
 * reader read, so the test sees how far it read without timing it.
 */
static int produce(const char *bytes_text, const char *file)
{
    unsigned long long total = strtoull(bytes_text, NULL, 10);
#ifdef SIGPIPE
    /* A write to a closed pipe fails with EPIPE instead of ending us. */
    (void)signal(SIGPIPE, SIG_IGN);
#endif
    (void)setvbuf(stdout, NULL, _IONBF, 0);
    static uint8_t piece[4096];
    FILE *f = fopen(file, "rb");
    if (f == NULL) {
        fprintf(stderr, "make_series: cannot read %s\n", file);
        return 2;
    }
    unsigned long long written = 0;
    bool open = true;
    while (written < total && open) {
        size_t want = total - written < sizeof piece ? (size_t)(total - written) : sizeof piece;
        size_t n = f != NULL ? fread(piece, 1, want, f) : 0;
        if (n == 0) {
            if (f != NULL) {
                fclose(f);
                f = NULL;
            }
            memset(piece, 0, sizeof piece);
            n = want;
        }
        size_t put = fwrite(piece, 1, n, stdout);
        written += put;
        open = put == n;
    }
    if (f != NULL) {
        fclose(f);
    }
    fprintf(stderr, "make_series: the pipe took %llu bytes\n", written);
    return 0;
}

static void usage(FILE *to)
{
    fprintf(to, "usage: make_series DIR                     the inputs of the --rate, --series and V2 tests\n"
                "       make_series --synthetic DIR         the pair of corpus/captures/synthetic/\n"
                "       make_series --collector-series DIR  the series of corpus/captures/series/\n"
                "       make_series --cli DIR               the inputs of the CLI test\n"
                "       make_series --csv DIR               the inputs of the --counter and --csv test\n"
                "       make_series --pairing DIR           pairs whose instances change\n"
                "       make_series --produce BYTES FILE    FILE then zeros into a pipe\n"
                "       make_series --help | -h             this text\n");
}

int main(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "--produce") == 0) {
        return produce(argv[2], argv[3]);
    }
    if (argc == 3 && strcmp(argv[1], "--pairing") == 0) {
        return pairing_files(argv[2]);
    }
    if (argc == 3 && strcmp(argv[1], "--csv") == 0) {
        return csv_files(argv[2]);
    }
    if (argc == 3 && strcmp(argv[1], "--synthetic") == 0) {
        return synthetic_files(argv[2]);
    }
    if (argc == 3 && strcmp(argv[1], "--collector-series") == 0) {
        return collector_series_files(argv[2]);
    }
    if (argc == 3 && strcmp(argv[1], "--cli") == 0) {
        return cli_files(argv[2]);
    }
    /* A lone argument starting with '-' is a mistyped option, never a
     * folder to write into. */
    if (argc != 2 || argv[1][0] == '-') {
        usage(stderr);
        return 2;
    }
    for (unsigned k = 0; k < 4; k++) {
        tb_v1 v = tb_v1_sample_global();
        size_t block = tb_get_u32(&v.buf, 24) + 184 + 40; /* Idle's counter block */
        tb_patch_u32(&v.buf, 72, tb_get_u32(&v.buf, 72) + k * 10000000u);
        tb_patch_u32(&v.buf, block + 8, 1000000u + k * (1000000u + 500000u * k));
        char path[512];
        snprintf(path, sizeof path, "%s/s%u.bin", argv[1], k);
        FILE *f = fopen(path, "wb");
        if (f == NULL || fwrite(v.buf.data, 1, v.buf.len, f) != v.buf.len || fclose(f) != 0) {
            fprintf(stderr, "make_series: cannot write %s\n", path);
            return 2;
        }
        tb_free(&v.buf);
    }
    return v2_files(argv[1]);
}
