/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Writes the documented layouts of corpus/captures/documented/ into DIR
 * (docs/synthetic.md, corpus/captures/documented/README.md):
 *   - two V1 Global blocks one second apart holding System, Memory,
 *     Processor, Process, Thread, PhysicalDisk, LogicalDisk, Network
 *     Interface, Paging File and Processor Information, laid out as
 *     Microsoft's pages and winperf.h describe them (precision timers
 *     followed by their PERF_PRECISION_TIMESTAMP base, the disk objects
 *     packed as Windows' disk provider packs them, their four bases
 *     reading one timestamp field, a base shared by two
 *     counters, Elapsed Time on the object's clock, threads naming their
 *     process);
 *   - the English Counter table naming every index they use;
 *   - Processor Information in V2: two query captures one second apart,
 *     its registration, its counter names and its name, the answers a
 *     PerfLib V2 consumer gets from PerfQueryCounterSetRegistrationInfo.
 * With --seeds DIR, the same files framed as the fuzz harnesses that take
 * several buffers read them (DIR/<harness>/valid-documented-*.bin).
 * Every value is chosen so that the formatted results are round numbers.
 */
#include <stdio.h>
#include <string.h>

#include "builder_v1.h"
#include "builder_v2meta.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/v2_query.h"

/* 2026-11-22 10:00:00.000 UTC (the builders' SystemTime) as a FILETIME,
 * and the QueryPerformanceCounter reading taken with it. */
#define FILETIME_AT_FIRST 134398152000000000ull
#define QPC_AT_FIRST 123456789ull
#define FREQUENCY 10000000ull
#define ONE_SECOND 10000000ull

/* A counter definition: CounterNameTitleIndex, CounterType, CounterSize,
 * CounterOffset. Title 0 marks a base no Counter table names. */
typedef struct definition {
    uint32_t title;
    uint32_t type;
    uint32_t size;
    uint32_t offset;
} definition;

enum {
    SYSTEM = 2, MEMORY = 4, PROCESS = 230, THREAD = 232, PHYSICAL_DISK = 234,
    LOGICAL_DISK = 236, PROCESSOR = 238, NETWORK_INTERFACE = 510, PAGING_FILE = 700,
    PROCESSOR_INFORMATION = 1848
};

/* V1 title of the Processor Information counter with V2 id `id`. */
#define PI_TITLE(id) (1850u + 2u * (id))

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void define_all(tb_v1 *v, const definition *defs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        tb_v1_counter(v, defs[i].title, defs[i].type, defs[i].size, defs[i].offset);
    }
    tb_v1_definitions_end(v);
}

/* The object's own clock (PerfTime, PerfFreq at 48 and 56 of
 * PERF_OBJECT_TYPE): the block's QueryPerformanceCounter, or the system
 * time in 100 ns for objects whose Elapsed Time counts on it. */
static void object_clock(tb_v1 *v, uint64_t time, uint64_t frequency)
{
    size_t at = v->object_start + 48;
    tb_patch_u32(&v->buf, at, (uint32_t)time);
    tb_patch_u32(&v->buf, at + 4, (uint32_t)(time >> 32));
    tb_patch_u32(&v->buf, at + 8, (uint32_t)frequency);
    tb_patch_u32(&v->buf, at + 12, (uint32_t)(frequency >> 32));
}

static uint64_t filetime(unsigned k)
{
    return FILETIME_AT_FIRST + k * ONE_SECOND;
}

static uint64_t qpc(unsigned k)
{
    return QPC_AT_FIRST + k * ONE_SECOND;
}

/* ---- System (2): one counter block ---- */
static void system_object(tb_v1 *v, unsigned k)
{
    static const definition defs[] = {
        {44, PERF_COUNTER_RAWCOUNT, 4, 4},        /* Processor Queue Length */
        {146, PERF_COUNTER_COUNTER, 4, 8},        /* Context Switches/sec */
        {10, PERF_COUNTER_COUNTER, 4, 12},        /* File Read Operations/sec */
        {674, PERF_ELAPSED_TIME, 8, 16},          /* System Up Time */
        {248, PERF_COUNTER_RAWCOUNT, 4, 24},      /* Processes */
        {250, PERF_COUNTER_RAWCOUNT, 4, 28},      /* Threads */
    };
    tb_v1_object_begin(v, SYSTEM, 1, 0);
    object_clock(v, filetime(k), FREQUENCY);
    define_all(v, defs, COUNT(defs));
    uint8_t data[28] = {0};
    tb_put32(data, 4, 3u + 2u * k);
    tb_put32(data, 8, 1000000u + 12000u * k);
    tb_put32(data, 12, 50000u + 250u * k);
    tb_put64(data, 16, FILETIME_AT_FIRST - 86400ull * ONE_SECOND); /* booted a day ago */
    tb_put32(data, 24, 5);
    tb_put32(data, 28, 6);
    tb_v1_counter_block(v, data, sizeof data);
    tb_v1_object_end(v);
}

/* ---- Memory (4): one counter block ---- */
static void memory_object(tb_v1 *v, unsigned k)
{
    static const definition defs[] = {
        {24, PERF_COUNTER_LARGE_RAWCOUNT, 8, 8},  /* Available Bytes */
        {26, PERF_COUNTER_LARGE_RAWCOUNT, 8, 16}, /* Committed Bytes */
        {30, PERF_COUNTER_LARGE_RAWCOUNT, 8, 24}, /* Commit Limit */
        {28, PERF_COUNTER_COUNTER, 4, 32},        /* Page Faults/sec */
        {1406, PERF_RAW_FRACTION, 4, 36},         /* % Committed Bytes In Use */
        {0, PERF_RAW_BASE, 4, 40},
    };
    tb_v1_object_begin(v, MEMORY, 1, 0);
    object_clock(v, qpc(k), FREQUENCY);
    define_all(v, defs, COUNT(defs));
    uint8_t data[40] = {0};
    tb_put64(data, 8, 4294967296ull);
    tb_put64(data, 16, 6442450944ull);
    tb_put64(data, 24, 12884901888ull);
    tb_put32(data, 32, 2000000u + 1500u * k);
    tb_put32(data, 36, 6144);   /* committed MB of the limit's 12,288: 50 % */
    tb_put32(data, 40, 12288);
    tb_v1_counter_block(v, data, sizeof data);
    tb_v1_object_end(v);
}

/* ---- Processor (238): "0", "1", "_Total" ---- */
static void processor_object(tb_v1 *v, unsigned k)
{
    static const definition defs[] = {
        {6, PERF_100NSEC_TIMER_INV, 8, 8},        /* % Processor Time */
        {142, PERF_100NSEC_TIMER, 8, 16},         /* % User Time */
        {144, PERF_100NSEC_TIMER, 8, 24},         /* % Privileged Time */
        {148, PERF_COUNTER_COUNTER, 4, 32},       /* Interrupts/sec */
    };
    static const char *const names[3] = {"0", "1", "_Total"};
    /* per second, in 100 ns: idle, user, privileged; interrupts */
    static const uint64_t idle[3] = {2500000u, 7500000u, 5000000u};
    static const uint64_t user[3] = {5000000u, 1500000u, 3250000u};
    static const uint64_t privileged[3] = {2500000u, 1000000u, 1750000u};
    static const uint32_t interrupts[3] = {1000u, 500u, 1500u};
    tb_v1_object_begin(v, PROCESSOR, 0, 0);
    object_clock(v, qpc(k), FREQUENCY);
    define_all(v, defs, COUNT(defs));
    for (unsigned i = 0; i < 3; i++) {
        uint8_t data[32] = {0};
        tb_put64(data, 8, 400000000u + k * idle[i]);
        tb_put64(data, 16, 300000000u + k * user[i]);
        tb_put64(data, 24, 200000000u + k * privileged[i]);
        tb_put32(data, 32, 90000u + k * interrupts[i]);
        tb_v1_instance(v, names[i], 0, 0);
        tb_v1_counter_block(v, data, sizeof data);
    }
    tb_v1_object_end(v);
}

/* ---- Process (230) and Thread (232) ---- */
static const char *const process_names[6] = {"Idle", "System", "smss", "svchost", "svchost",
                                              "_Total"};

static void process_object(tb_v1 *v, unsigned k)
{
    static const definition defs[] = {
        {6, PERF_100NSEC_TIMER, 8, 8},            /* % Processor Time */
        {142, PERF_100NSEC_TIMER, 8, 16},         /* % User Time */
        {144, PERF_100NSEC_TIMER, 8, 24},         /* % Privileged Time */
        {684, PERF_ELAPSED_TIME, 8, 32},          /* Elapsed Time */
        {680, PERF_COUNTER_RAWCOUNT, 4, 40},      /* Thread Count */
        {784, PERF_COUNTER_RAWCOUNT, 4, 44},      /* ID Process */
        {1410, PERF_COUNTER_RAWCOUNT, 4, 48},     /* Creating Process ID */
    };
    /* per second, in 100 ns */
    static const uint64_t user[6] = {0u, 0u, 0u, 1000000u, 500000u, 1500000u};
    static const uint64_t privileged[6] = {5000000u, 1000000u, 0u, 500000u, 0u, 6500000u};
    static const uint64_t age_seconds[6] = {86400u, 86400u, 86390u, 3600u, 60u, 86400u};
    static const uint32_t threads[6] = {2, 1, 1, 1, 1, 6};
    static const uint32_t pid[6] = {0, 4, 388, 812, 1044, 0};
    static const uint32_t creator[6] = {0, 0, 4, 700, 700, 0};
    tb_v1_object_begin(v, PROCESS, 0, 0);
    object_clock(v, filetime(k), FREQUENCY);
    define_all(v, defs, COUNT(defs));
    for (unsigned i = 0; i < 6; i++) {
        uint8_t data[48] = {0};
        tb_put64(data, 8, 30000000u + k * (user[i] + privileged[i]));
        tb_put64(data, 16, 10000000u + k * user[i]);
        tb_put64(data, 24, 20000000u + k * privileged[i]);
        tb_put64(data, 32, FILETIME_AT_FIRST - age_seconds[i] * ONE_SECOND);
        tb_put32(data, 40, threads[i]);
        tb_put32(data, 44, pid[i]);
        tb_put32(data, 48, creator[i]);
        tb_v1_instance(v, process_names[i], 0, 0);
        tb_v1_counter_block(v, data, sizeof data);
    }
    tb_v1_object_end(v);
}

static void thread_object(tb_v1 *v, unsigned k)
{
    static const definition defs[] = {
        {6, PERF_100NSEC_TIMER, 8, 8},            /* % Processor Time */
        {146, PERF_COUNTER_COUNTER, 4, 16},       /* Context Switches/sec */
        {784, PERF_COUNTER_RAWCOUNT, 4, 20},      /* ID Process */
        {804, PERF_COUNTER_RAWCOUNT, 4, 24},      /* ID Thread */
    };
    static const char *const names[7] = {"0", "1", "0", "0", "0", "0", "_Total"};
    /* the ParentObjectInstance of each: its process's position in Process */
    static const uint32_t parent[7] = {0, 0, 1, 2, 3, 4, 5};
    static const uint64_t busy[7] = {2500000u, 2500000u, 1000000u, 0u, 1500000u, 500000u,
                                     8000000u};
    static const uint32_t switches[7] = {100, 200, 300, 0, 50, 25, 675};
    static const uint32_t pid[7] = {0, 0, 4, 388, 812, 1044, 0};
    static const uint32_t tid[7] = {0, 0, 8, 392, 816, 1048, 0};
    tb_v1_object_begin(v, THREAD, 0, 0);
    object_clock(v, qpc(k), FREQUENCY);
    define_all(v, defs, COUNT(defs));
    for (unsigned i = 0; i < 7; i++) {
        uint8_t data[24] = {0};
        tb_put64(data, 8, 5000000u + k * busy[i]);
        tb_put32(data, 16, 7000u + k * switches[i]);
        tb_put32(data, 20, pid[i]);
        tb_put32(data, 24, tid[i]);
        tb_v1_instance(v, names[i], PROCESS, parent[i]);
        tb_v1_counter_block(v, data, sizeof data);
    }
    tb_v1_object_end(v);
}

/* ---- PhysicalDisk (234) and LogicalDisk (236) ----
 * The counter block of Windows' disk provider: fields packed with their
 * natural alignment (DWORD 4 bytes, LONGLONG 8 bytes at a multiple of 8)
 * after the 4-byte ByteLength, one LONGLONG timestamp that the four
 * PERF_PRECISION_TIMESTAMP base definitions all read (offset 168 of 184
 * bytes in PhysicalDisk, 184 of 200 in LogicalDisk). The three average
 * timers are DWORD types (PERF_AVERAGE_TIMER) in LONGLONG fields, and the
 * provider writes each CounterSize as its field's size: 8. So the
 * definitions claim more bytes than the block holds, which only the
 * shared timestamp allows. */
typedef struct disk_layout {
    uint32_t current_queue_length;
    uint32_t time, avg_queue_length, read_time, read_queue_length, write_time,
        write_queue_length;
    uint32_t avg_time, avg_read_time, avg_write_time;
    uint32_t transfers_base1, reads_base1, writes_base1;
    uint32_t transfers, reads, writes;
    uint32_t bytes, read_bytes, write_bytes;
    uint32_t avg_bytes, avg_read_bytes, avg_write_bytes;
    uint32_t transfers_base2, reads_base2, writes_base2;
    uint32_t idle_time, timestamp, split_count;
    uint32_t block; /* ByteLength */
} disk_layout;

/* Field offsets, in the order the fields follow each other. */
static const disk_layout physical_disk_fields = {
    .current_queue_length = 4,
    .time = 8, .avg_queue_length = 16, .read_time = 24, .read_queue_length = 32,
    .write_time = 40, .write_queue_length = 48, .avg_time = 56, .avg_read_time = 64,
    .transfers_base1 = 72, .reads_base1 = 76,
    .avg_write_time = 80,
    .writes_base1 = 88, .transfers = 92, .reads = 96, .writes = 100,
    .bytes = 104, .read_bytes = 112, .write_bytes = 120, .avg_bytes = 128,
    .avg_read_bytes = 136,
    .transfers_base2 = 144, .reads_base2 = 148,
    .avg_write_bytes = 152, .idle_time = 160, .timestamp = 168,
    .writes_base2 = 176, .split_count = 180,
    .block = 184,
};

/* LogicalDisk's free space (4, 8, 12) comes first; its own offsets are
 * in logical_disk_object. */
static const disk_layout logical_disk_fields = {
    .current_queue_length = 16, .transfers_base1 = 20,
    .time = 24, .avg_queue_length = 32, .read_time = 40, .read_queue_length = 48,
    .write_time = 56, .write_queue_length = 64, .avg_time = 72, .avg_read_time = 80,
    .avg_write_time = 88,
    .reads_base1 = 96, .writes_base1 = 100, .transfers = 104, .reads = 108, .writes = 112,
    .transfers_base2 = 116,
    .bytes = 120, .read_bytes = 128, .write_bytes = 136, .avg_bytes = 144,
    .avg_read_bytes = 152, .avg_write_bytes = 160,
    .reads_base2 = 168, .writes_base2 = 172,
    .idle_time = 176, .timestamp = 184,
    .split_count = 192,
    .block = 200, /* 196 padded to a multiple of 8 */
};

/* The definitions both disk objects have, in the provider's order: each
 * precision timer followed by its base at the timestamp, each average
 * followed by its base. */
static void disk_definitions(tb_v1 *v, const disk_layout *f)
{
    const definition defs[] = {
        {198, PERF_COUNTER_RAWCOUNT, 4, f->current_queue_length}, /* Current Disk Queue Length */
        {200, PERF_PRECISION_100NS_TIMER, 8, f->time},            /* % Disk Time */
        {0, PERF_PRECISION_TIMESTAMP, 8, f->timestamp},
        {1400, PERF_COUNTER_100NS_QUEUELEN_TYPE, 8, f->avg_queue_length}, /* Avg. Disk Queue Length */
        {202, PERF_PRECISION_100NS_TIMER, 8, f->read_time},       /* % Disk Read Time */
        {0, PERF_PRECISION_TIMESTAMP, 8, f->timestamp},
        {1402, PERF_COUNTER_100NS_QUEUELEN_TYPE, 8, f->read_queue_length}, /* ... Read Queue Length */
        {204, PERF_PRECISION_100NS_TIMER, 8, f->write_time},      /* % Disk Write Time */
        {0, PERF_PRECISION_TIMESTAMP, 8, f->timestamp},
        {1404, PERF_COUNTER_100NS_QUEUELEN_TYPE, 8, f->write_queue_length}, /* ... Write Queue Length */
        {206, PERF_AVERAGE_TIMER, 8, f->avg_time},                /* Avg. Disk sec/Transfer */
        {0, PERF_AVERAGE_BASE, 4, f->transfers_base1},
        {208, PERF_AVERAGE_TIMER, 8, f->avg_read_time},           /* Avg. Disk sec/Read */
        {0, PERF_AVERAGE_BASE, 4, f->reads_base1},
        {210, PERF_AVERAGE_TIMER, 8, f->avg_write_time},          /* Avg. Disk sec/Write */
        {0, PERF_AVERAGE_BASE, 4, f->writes_base1},
        {212, PERF_COUNTER_COUNTER, 4, f->transfers},             /* Disk Transfers/sec */
        {214, PERF_COUNTER_COUNTER, 4, f->reads},                 /* Disk Reads/sec */
        {216, PERF_COUNTER_COUNTER, 4, f->writes},                /* Disk Writes/sec */
        {218, PERF_COUNTER_BULK_COUNT, 8, f->bytes},              /* Disk Bytes/sec */
        {220, PERF_COUNTER_BULK_COUNT, 8, f->read_bytes},         /* Disk Read Bytes/sec */
        {222, PERF_COUNTER_BULK_COUNT, 8, f->write_bytes},        /* Disk Write Bytes/sec */
        {224, PERF_AVERAGE_BULK, 8, f->avg_bytes},                /* Avg. Disk Bytes/Transfer */
        {0, PERF_AVERAGE_BASE, 4, f->transfers_base2},
        {226, PERF_AVERAGE_BULK, 8, f->avg_read_bytes},           /* Avg. Disk Bytes/Read */
        {0, PERF_AVERAGE_BASE, 4, f->reads_base2},
        {228, PERF_AVERAGE_BULK, 8, f->avg_write_bytes},          /* Avg. Disk Bytes/Write */
        {0, PERF_AVERAGE_BASE, 4, f->writes_base2},
        {1482, PERF_PRECISION_100NS_TIMER, 8, f->idle_time},      /* % Idle Time */
        {0, PERF_PRECISION_TIMESTAMP, 8, f->timestamp},
        {1484, PERF_COUNTER_COUNTER, 4, f->split_count},          /* Split IO/Sec */
    };
    for (size_t i = 0; i < COUNT(defs); i++) {
        tb_v1_counter(v, defs[i].title, defs[i].type, defs[i].size, defs[i].offset);
    }
}

/* The fields both disk objects have, for capture k: over the second the
 * disk is busy 25 % (reads 10 %, writes 15 %), idle 75 %, with 150
 * transfers (60 reads, 90 writes) of 8,192 bytes each taking 2 ms, 3 of
 * them split, and 1 + k requests queued when capture k is taken. An average
 * timer's field is read whole, as its CounterSize of 8 says. */
static void disk_values(uint8_t *data, const disk_layout *f, unsigned k)
{
    tb_put32(data, f->current_queue_length, 1u + k);
    tb_put64(data, f->time, 70000000u + k * 2500000u);
    tb_put64(data, f->avg_queue_length, 90000000u + k * 5000000u);
    tb_put64(data, f->read_time, 30000000u + k * 1000000u);
    tb_put64(data, f->read_queue_length, 40000000u + k * 2000000u);
    tb_put64(data, f->write_time, 40000000u + k * 1500000u);
    tb_put64(data, f->write_queue_length, 50000000u + k * 3000000u);
    tb_put64(data, f->avg_time, 10000000u + k * 3000000u);      /* 150 x 2 ms in ticks */
    tb_put64(data, f->avg_read_time, 6000000u + k * 1200000u);  /* 60 x 2 ms */
    tb_put64(data, f->avg_write_time, 4000000u + k * 1800000u); /* 90 x 2 ms */
    tb_put32(data, f->transfers_base1, 5000u + k * 150u);
    tb_put32(data, f->reads_base1, 3000u + k * 60u);
    tb_put32(data, f->writes_base1, 2000u + k * 90u);
    tb_put32(data, f->transfers, 5000u + k * 150u);
    tb_put32(data, f->reads, 3000u + k * 60u);
    tb_put32(data, f->writes, 2000u + k * 90u);
    tb_put64(data, f->bytes, 40960000u + k * 1228800u);
    tb_put64(data, f->read_bytes, 24576000u + k * 491520u);
    tb_put64(data, f->write_bytes, 16384000u + k * 737280u);
    tb_put64(data, f->avg_bytes, 40960000u + k * 1228800u);
    tb_put64(data, f->avg_read_bytes, 24576000u + k * 491520u);
    tb_put64(data, f->avg_write_bytes, 16384000u + k * 737280u);
    tb_put32(data, f->transfers_base2, 5000u + k * 150u);
    tb_put32(data, f->reads_base2, 3000u + k * 60u);
    tb_put32(data, f->writes_base2, 2000u + k * 90u);
    tb_put64(data, f->idle_time, 500000000u + k * 7500000u);
    tb_put64(data, f->timestamp, filetime(k));
    tb_put32(data, f->split_count, 20u + k * 3u);
}

/* The largest counter block of the two, without its ByteLength. */
#define DISK_DATA_MAX 196

static void physical_disk_object(tb_v1 *v, unsigned k)
{
    static const char *const names[2] = {"0 C:", "_Total"};
    const disk_layout *f = &physical_disk_fields;
    tb_v1_object_begin(v, PHYSICAL_DISK, 0, 0);
    object_clock(v, qpc(k), FREQUENCY);
    disk_definitions(v, f);
    tb_v1_definitions_end(v);
    for (unsigned i = 0; i < 2; i++) {
        uint8_t data[DISK_DATA_MAX] = {0};
        disk_values(data, f, k);
        tb_v1_instance(v, names[i], 0, 0);
        tb_v1_counter_block(v, data, f->block - 4);
    }
    tb_v1_object_end(v);
}

static void logical_disk_object(tb_v1 *v, unsigned k)
{
    static const char *const names[2] = {"C:", "_Total"};
    const disk_layout *f = &logical_disk_fields;
    tb_v1_object_begin(v, LOGICAL_DISK, 0, 0);
    object_clock(v, qpc(k), FREQUENCY);
    tb_v1_counter(v, 408, PERF_RAW_FRACTION, 4, 4);     /* % Free Space */
    tb_v1_counter(v, 0, PERF_RAW_BASE, 4, 8);           /* the volume's size in MB */
    tb_v1_counter(v, 410, PERF_COUNTER_RAWCOUNT, 4, 12); /* Free Megabytes */
    disk_definitions(v, f);
    tb_v1_definitions_end(v);
    for (unsigned i = 0; i < 2; i++) {
        uint8_t data[DISK_DATA_MAX] = {0};
        tb_put32(data, 4, 51200); /* of 204,800 MB: 25 % free */
        tb_put32(data, 8, 204800);
        tb_put32(data, 12, 51200);
        disk_values(data, f, k);
        tb_v1_instance(v, names[i], 0, 0);
        tb_v1_counter_block(v, data, f->block - 4);
    }
    tb_v1_object_end(v);
}

/* ---- Network Interface (510) ---- */
static void network_interface_object(tb_v1 *v, unsigned k)
{
    static const definition defs[] = {
        {388, PERF_COUNTER_BULK_COUNT, 8, 8},     /* Bytes Total/sec */
        {264, PERF_COUNTER_BULK_COUNT, 8, 16},    /* Bytes Received/sec */
        {506, PERF_COUNTER_BULK_COUNT, 8, 24},    /* Bytes Sent/sec */
        {544, PERF_COUNTER_RAWCOUNT, 4, 32},      /* Output Queue Length */
    };
    tb_v1_object_begin(v, NETWORK_INTERFACE, 0, 0);
    object_clock(v, qpc(k), FREQUENCY);
    define_all(v, defs, COUNT(defs));
    uint8_t data[32] = {0};
    tb_put64(data, 8, 900000000u + k * 1500000u);
    tb_put64(data, 16, 600000000u + k * 1000000u);
    tb_put64(data, 24, 300000000u + k * 500000u);
    tb_put32(data, 32, 0);
    /* Windows shows an adapter's parentheses as square brackets. */
    tb_v1_instance(v, "Intel[R] Ethernet Connection I219-LM", 0, 0);
    tb_v1_counter_block(v, data, sizeof data);
    tb_v1_object_end(v);
}

/* ---- Paging File (700) ---- */
static void paging_file_object(tb_v1 *v, unsigned k)
{
    static const definition defs[] = {
        {702, PERF_RAW_FRACTION, 4, 4},           /* % Usage */
        {0, PERF_RAW_BASE, 4, 8},
        {704, PERF_RAW_FRACTION, 4, 12},          /* % Usage Peak */
        {0, PERF_RAW_BASE, 4, 16},
    };
    static const char *const names[2] = {"\\??\\C:\\pagefile.sys", "_Total"};
    tb_v1_object_begin(v, PAGING_FILE, 0, 0);
    object_clock(v, qpc(k), FREQUENCY);
    define_all(v, defs, COUNT(defs));
    for (unsigned i = 0; i < 2; i++) {
        uint8_t data[16] = {0};
        tb_put32(data, 4, 12800u + 512u * k);  /* of 51,200 pages: 25 %, then 26 % */
        tb_put32(data, 8, 51200);
        tb_put32(data, 12, 25600);
        tb_put32(data, 16, 51200);
        tb_v1_instance(v, names[i], 0, 0);
        tb_v1_counter_block(v, data, sizeof data);
    }
    tb_v1_object_end(v);
}

/* ---- Processor Information (1848 here; see the README) ----
 * Titles 1850 + 2 x the V2 id. % Processor Utility and % Privileged
 * Utility both take % Utility Base: two base definitions, one field. */
static void processor_information_object(tb_v1 *v, unsigned k)
{
    static const definition defs[] = {
        {PI_TITLE(0), PERF_100NSEC_TIMER_INV, 8, 8},       /* % Processor Time */
        {PI_TITLE(21), PERF_PRECISION_100NS_TIMER, 8, 16}, /* Average Idle Time */
        {PI_TITLE(22), PERF_PRECISION_TIMESTAMP, 8, 24},   /* Average Idle Time Base */
        {PI_TITLE(24), PERF_AVERAGE_BULK, 8, 32},          /* % Processor Performance */
        {PI_TITLE(25), PERF_AVERAGE_BASE, 4, 40},          /* % Processor Performance Base */
        {PI_TITLE(17), PERF_COUNTER_RAWCOUNT, 4, 44},      /* Processor Frequency */
        {PI_TITLE(26), PERF_AVERAGE_BULK, 8, 48},          /* % Processor Utility */
        {PI_TITLE(27), PERF_AVERAGE_BASE, 4, 56},          /* % Utility Base */
        {PI_TITLE(28), PERF_AVERAGE_BULK, 8, 64},          /* % Privileged Utility */
        {PI_TITLE(27), PERF_AVERAGE_BASE, 4, 56},          /* % Utility Base, again */
    };
    static const char *const names[4] = {"0,0", "0,1", "0,_Total", "_Total"};
    static const uint64_t idle[4] = {2500000u, 7500000u, 5000000u, 5000000u};
    tb_v1_object_begin(v, PROCESSOR_INFORMATION, 0, 0);
    object_clock(v, qpc(k), FREQUENCY);
    define_all(v, defs, COUNT(defs));
    for (unsigned i = 0; i < 4; i++) {
        uint8_t data[68] = {0}; /* + ByteLength: 72 */
        tb_put64(data, 8, 400000000u + k * idle[i]);
        tb_put64(data, 16, 1000000u + k * 2000000u);   /* 20 % */
        tb_put64(data, 24, filetime(k));
        tb_put64(data, 32, 100000u + k * 9000u);       /* 90 */
        tb_put32(data, 40, 1000u + k * 100u);
        tb_put32(data, 44, 2400);
        tb_put64(data, 48, 200000u + k * 5000u);       /* 50 */
        tb_put32(data, 56, 2000u + k * 100u);
        tb_put64(data, 64, 300000u + k * 2000u);       /* 20 */
        tb_v1_instance(v, names[i], 0, 0);
        tb_v1_counter_block(v, data, sizeof data);
    }
    tb_v1_object_end(v);
}

typedef void (*object_writer)(tb_v1 *v, unsigned k);

/* Every object, in the order the Global block holds them. */
static const object_writer global_objects[] = {
    system_object, memory_object, processor_object, process_object, thread_object,
    physical_disk_object, logical_disk_object, network_interface_object, paging_file_object,
    processor_information_object,
};

/* A block of capture k (0 or 1, one second apart) holding these objects. */
static tb_buf capture(unsigned k, const object_writer *objects, size_t count)
{
    tb_v1 v;
    tb_v1_begin(&v, "DOCUMENTED");
    /* PerfTime (56) and PerfTime100nSec (72) of capture k; SystemTime's
     * wSecond (48) one second on. */
    tb_patch_u32(&v.buf, 56, (uint32_t)qpc(k));
    tb_patch_u32(&v.buf, 60, (uint32_t)(qpc(k) >> 32));
    tb_patch_u32(&v.buf, 72, (uint32_t)filetime(k));
    tb_patch_u32(&v.buf, 76, (uint32_t)(filetime(k) >> 32));
    v.buf.data[48] = (uint8_t)k;
    for (size_t i = 0; i < count; i++) {
        objects[i](&v, k);
    }
    tb_v1_end(&v);
    return v.buf;
}

static tb_buf global_capture(unsigned k)
{
    return capture(k, global_objects, COUNT(global_objects));
}

/* The English Counter table: "1" "1847" (the base table's last index, as
 * Windows writes it first), then every index the blocks use. */
static tb_buf counter_table(void)
{
    static const char *const pairs[] = {
        "1", "1847", "2", "System", "4", "Memory", "6", "% Processor Time",
        "10", "File Read Operations/sec", "24", "Available Bytes", "26", "Committed Bytes",
        "28", "Page Faults/sec", "30", "Commit Limit", "44", "Processor Queue Length",
        "142", "% User Time", "144", "% Privileged Time", "146", "Context Switches/sec",
        "148", "Interrupts/sec", "198", "Current Disk Queue Length", "200", "% Disk Time",
        "202", "% Disk Read Time", "204", "% Disk Write Time", "206", "Avg. Disk sec/Transfer",
        "208", "Avg. Disk sec/Read", "210", "Avg. Disk sec/Write", "212", "Disk Transfers/sec",
        "214", "Disk Reads/sec", "216", "Disk Writes/sec",
        "218", "Disk Bytes/sec", "220", "Disk Read Bytes/sec", "222", "Disk Write Bytes/sec",
        "224", "Avg. Disk Bytes/Transfer", "226", "Avg. Disk Bytes/Read",
        "228", "Avg. Disk Bytes/Write", "230", "Process",
        "232", "Thread", "234", "PhysicalDisk", "236", "LogicalDisk", "238", "Processor",
        "248", "Processes", "250", "Threads", "264", "Bytes Received/sec",
        "388", "Bytes Total/sec", "408", "% Free Space", "410", "Free Megabytes",
        "506", "Bytes Sent/sec", "510", "Network Interface", "544", "Output Queue Length",
        "674", "System Up Time", "680", "Thread Count", "684", "Elapsed Time",
        "700", "Paging File", "702", "% Usage", "704", "% Usage Peak", "784", "ID Process",
        "804", "ID Thread", "1400", "Avg. Disk Queue Length",
        "1402", "Avg. Disk Read Queue Length", "1404", "Avg. Disk Write Queue Length",
        "1406", "% Committed Bytes In Use", "1410", "Creating Process ID",
        "1482", "% Idle Time", "1484", "Split IO/Sec", "1848", "Processor Information",
        "1850", "% Processor Time", "1884", "Processor Frequency", "1892", "Average Idle Time",
        "1894", "Average Idle Time Base", "1898", "% Processor Performance",
        "1900", "% Processor Performance Base", "1902", "% Processor Utility",
        "1904", "% Utility Base", "1906", "% Privileged Utility",
    };
    tb_buf b;
    tb_init(&b);
    for (size_t i = 0; i < COUNT(pairs); i++) {
        (void)tb_utf16(&b, pairs[i], 1);
    }
    tb_u16(&b, 0);
    return b;
}

/* ---- Processor Information in V2 ---- */
static const char *const v2_instances[4] = {"0,0", "0,1", "0,_Total", "_Total"};

/* Value of counter `id` of instance i in capture k: what the V1 object
 * holds for the counters it carries, (i + 1) x 1000 + id for the rest. */
static uint64_t v2_value(uint32_t id, unsigned i, unsigned k)
{
    static const uint64_t idle[4] = {2500000u, 7500000u, 5000000u, 5000000u};
    switch (id) {
    case 0: return 400000000u + k * idle[i];
    case 21: return 1000000u + k * 2000000u;
    case 22: return filetime(k);
    case 24: return 100000u + k * 9000u;
    case 25: return 1000u + k * 100u;
    case 17: return 2400u;
    case 26: return 200000u + k * 5000u;
    case 27: return 2000u + k * 100u;
    case 28: return 300000u + k * 2000u;
    default: return 1000u * (i + 1u) + id;
    }
}

static tb_buf v2_query(unsigned k)
{
    uint32_t ids[TB_PROCESSOR_INFORMATION_COUNTERS];
    for (uint32_t c = 0; c < TB_PROCESSOR_INFORMATION_COUNTERS; c++) {
        ids[c] = tb_processor_information[c].id;
    }
    tb_v2 v;
    tb_v2_begin(&v, (int64_t)qpc(k), (int64_t)filetime(k), (int64_t)FREQUENCY);
    tb_v2_block_begin(&v, 0, PERFBUF_V2_COUNTERSET);
    tb_v2_ids(&v, ids, TB_PROCESSOR_INFORMATION_COUNTERS);
    tb_v2_instances_begin(&v, 4);
    for (unsigned i = 0; i < 4; i++) {
        tb_v2_instance(&v, i, v2_instances[i]);
        for (uint32_t c = 0; c < TB_PROCESSOR_INFORMATION_COUNTERS; c++) {
            uint64_t value = v2_value(ids[c], i, k);
            if (perfbuf_counter_type_size(tb_processor_information[c].type) == 8) {
                tb_v2_u64(&v, value);
            } else {
                tb_v2_u32(&v, (uint32_t)value);
            }
        }
    }
    tb_v2_instances_end(&v);
    tb_v2_block_end(&v);
    tb_v2_end(&v);
    /* SystemTime's wSecond (32 + 12) one second on. */
    v.buf.data[44] = (uint8_t)k;
    return v.buf;
}

static tb_buf v2_registration(void)
{
    return tb_v2_reginfo(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                         PERFBUF_COUNTERSET_MULTI_INSTANCES);
}

static tb_buf v2_names(void)
{
    return tb_v2_strings(tb_processor_information, TB_PROCESSOR_INFORMATION_COUNTERS,
                         PERFBUF_V2_STRINGS_FROM_ARRAY_END);
}

/* The counterset's name, as PerfQueryCounterSetRegistrationInfo answers
 * PERF_REG_COUNTERSET_NAME_STRING: one NUL-terminated UTF-16LE string. */
static tb_buf v2_counterset_name(void)
{
    return tb_v2_string_answer("Processor Information");
}

static int write_buf(const char *dir, const char *name, tb_buf *b)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int rc = 0;
    if (f == NULL || (b->len > 0 && fwrite(b->data, 1, b->len, f) != b->len)) {
        rc = 2;
    }
    if (f != NULL && fclose(f) != 0) {
        rc = 2;
    }
    if (rc != 0) {
        fprintf(stderr, "make_documented: cannot write %s\n", path);
    }
    tb_free(b);
    return rc;
}

static int capture_files(const char *dir)
{
    /* Every buffer is written (and freed) even after a failure. */
    tb_buf b = global_capture(0);
    int rc = write_buf(dir, "v1-documented-global-0.bin", &b);
    b = global_capture(1);
    rc |= write_buf(dir, "v1-documented-global-1.bin", &b);
    b = counter_table();
    rc |= write_buf(dir, "v1-names-documented-counter-009.bin", &b);
    b = v2_query(0);
    rc |= write_buf(dir, "v2-query-documented-processor-information-0.bin", &b);
    b = v2_query(1);
    rc |= write_buf(dir, "v2-query-documented-processor-information-1.bin", &b);
    b = v2_registration();
    rc |= write_buf(dir, "v2-reginfo-documented-processor-information.bin", &b);
    b = v2_names();
    rc |= write_buf(dir, "v2-names-documented-processor-information.bin", &b);
    b = v2_counterset_name();
    rc |= write_buf(dir, "v2-counterset-name-documented-processor-information.bin", &b);
    return rc;
}

/* ---- --seeds: the files framed for the harnesses of several buffers ---- */

static void put_le(tb_buf *b, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        tb_u8(b, (uint8_t)(v >> (8 * i)));
    }
}

static int seed_files(const char *dir)
{
    char sub[512];
    int rc = 0;
    tb_buf older = global_capture(0);
    tb_buf newer = global_capture(1);
    tb_buf table = counter_table();
    tb_buf q0 = v2_query(0);
    tb_buf q1 = v2_query(1);
    tb_buf reg = v2_registration();
    tb_buf b;

    /* fuzz_pairing: flags byte, u16 path length, u32 older length, then
     * for V2 a u32 registration length; path, older, (registration), newer.
     * The harness pairs the first four objects of a block, so each seed
     * holds the four objects its path is about. */
    static const object_writer disks[] = {physical_disk_object, logical_disk_object,
                                          processor_information_object, paging_file_object};
    static const object_writer processes[] = {process_object, thread_object,
                                              network_interface_object, processor_object};
    static const struct {
        const char *name;
        const char *path;
        const object_writer *objects;
    } pairs[] = {
        {"disks", "\\PhysicalDisk(*)\\% Disk Time", disks},
        {"threads", "\\Thread(*/*)\\% Processor Time", processes},
        {"system", "\\Processor(_Total)\\% Processor Time", global_objects},
    };
    snprintf(sub, sizeof sub, "%s/fuzz_pairing", dir);
    for (size_t i = 0; i < COUNT(pairs) && rc == 0; i++) {
        tb_buf first = capture(0, pairs[i].objects, 4);
        tb_buf second = capture(1, pairs[i].objects, 4);
        tb_init(&b);
        size_t path_len = strlen(pairs[i].path);
        tb_u8(&b, 0);
        put_le(&b, path_len, 2);
        put_le(&b, first.len, 4);
        tb_bytes(&b, pairs[i].path, path_len);
        tb_bytes(&b, first.data, first.len);
        tb_bytes(&b, second.data, second.len);
        tb_free(&first);
        tb_free(&second);
        char name[96];
        snprintf(name, sizeof name, "valid-documented-%s.bin", pairs[i].name);
        rc = write_buf(sub, name, &b);
    }
    if (rc == 0) {
        static const char path[] = "\\Processor Information(*)\\0";
        tb_init(&b);
        tb_u8(&b, 4); /* V2 query data */
        put_le(&b, sizeof path - 1, 2);
        put_le(&b, q0.len, 4);
        put_le(&b, reg.len, 4);
        tb_bytes(&b, path, sizeof path - 1);
        tb_bytes(&b, q0.data, q0.len);
        tb_bytes(&b, reg.data, reg.len);
        tb_bytes(&b, q1.data, q1.len);
        rc = write_buf(sub, "valid-documented-v2-processor-information.bin", &b);
    }

    /* fuzz_resolve: u16 path length, path, u32 table length, table, block. */
    static const char *const resolve_paths[] = {
        "\\PhysicalDisk(_Total)\\% Idle Time", "\\Process(svchost#1)\\Elapsed Time",
        "\\Network Interface(*)\\*",
    };
    static const char *const resolve_names[] = {"idle-time", "elapsed-time",
                                                "network-interface"};
    snprintf(sub, sizeof sub, "%s/fuzz_resolve", dir);
    for (size_t i = 0; i < COUNT(resolve_paths) && rc == 0; i++) {
        tb_init(&b);
        size_t path_len = strlen(resolve_paths[i]);
        put_le(&b, path_len, 2);
        tb_bytes(&b, resolve_paths[i], path_len);
        put_le(&b, table.len, 4);
        tb_bytes(&b, table.data, table.len);
        tb_bytes(&b, newer.data, newer.len);
        char name[96];
        snprintf(name, sizeof name, "valid-documented-%s.bin", resolve_names[i]);
        rc = write_buf(sub, name, &b);
    }

    /* The same with the V2 names as the table and the registration as the
     * block, which the harness resolves when they are not V1. */
    if (rc == 0) {
        static const char path[] = "\\Processor Information(*)\\% Privileged Utility";
        tb_buf strings = v2_names();
        tb_init(&b);
        put_le(&b, sizeof path - 1, 2);
        tb_bytes(&b, path, sizeof path - 1);
        put_le(&b, strings.len, 4);
        tb_bytes(&b, strings.data, strings.len);
        tb_bytes(&b, reg.data, reg.len);
        tb_free(&strings);
        rc = write_buf(sub, "valid-documented-v2-privileged-utility.bin", &b);
    }

    /* fuzz_v2_meta: reader 0 (registration information), then its bytes. */
    if (rc == 0) {
        snprintf(sub, sizeof sub, "%s/fuzz_v2_meta", dir);
        tb_init(&b);
        tb_u8(&b, 0);
        tb_bytes(&b, reg.data, reg.len);
        rc = write_buf(sub, "valid-documented-reginfo-processor-information.bin", &b);
    }

    /* fuzz_v2_crosscheck: u16 registration length, u16 identifiers length
     * (0: none), registration, query data. */
    if (rc == 0) {
        snprintf(sub, sizeof sub, "%s/fuzz_v2_crosscheck", dir);
        tb_init(&b);
        put_le(&b, reg.len, 2);
        put_le(&b, 0, 2);
        tb_bytes(&b, reg.data, reg.len);
        tb_bytes(&b, q1.data, q1.len);
        rc = write_buf(sub, "valid-documented-processor-information.bin", &b);
    }

    /* fuzz_mixed_views: u16 length of A, A, B: the two Global captures,
     * and the two V2 captures. */
    if (rc == 0) {
        snprintf(sub, sizeof sub, "%s/fuzz_mixed_views", dir);
        tb_init(&b);
        put_le(&b, older.len, 2);
        tb_bytes(&b, older.data, older.len);
        tb_bytes(&b, newer.data, newer.len);
        rc = write_buf(sub, "valid-documented-global-0+global-1.bin", &b);
    }
    if (rc == 0) {
        tb_init(&b);
        put_le(&b, q0.len, 2);
        tb_bytes(&b, q0.data, q0.len);
        tb_bytes(&b, q1.data, q1.len);
        rc = write_buf(sub, "valid-documented-v2-0+v2-1.bin", &b);
    }
    tb_free(&older);
    tb_free(&newer);
    tb_free(&table);
    tb_free(&q0);
    tb_free(&q1);
    tb_free(&reg);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--seeds") == 0) {
        return seed_files(argv[2]);
    }
    if (argc != 2) {
        fprintf(stderr, "usage: make_documented DIR\n"
                        "       make_documented --seeds DIR\n");
        return 2;
    }
    return capture_files(argv[1]);
}
