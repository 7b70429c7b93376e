/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * perfbuf/openmetrics.h: every counter type's mapping, the metric names,
 * escaping, numbers, timestamps and PromQL expressions. That the
 * expressions give PDH's values is shown by a Prometheus server in
 * ci/prometheus.sh; here, that each is built from the families its
 * mapping exposes and that every piece of text is what the format needs.
 */
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "perfbuf/counter_types.h"
#include "perfbuf/openmetrics.h"

/* Every named type of counter_types.h, and values that are none. */
static const uint32_t named[] = {
    PERF_COUNTER_COUNTER, PERF_COUNTER_TIMER, PERF_COUNTER_QUEUELEN_TYPE,
    PERF_COUNTER_LARGE_QUEUELEN_TYPE, PERF_COUNTER_100NS_QUEUELEN_TYPE,
    PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE, PERF_COUNTER_BULK_COUNT, PERF_COUNTER_TEXT,
    PERF_COUNTER_RAWCOUNT, PERF_COUNTER_LARGE_RAWCOUNT, PERF_COUNTER_RAWCOUNT_HEX,
    PERF_COUNTER_LARGE_RAWCOUNT_HEX, PERF_SAMPLE_FRACTION, PERF_SAMPLE_COUNTER,
    PERF_COUNTER_NODATA, PERF_COUNTER_TIMER_INV, PERF_SAMPLE_BASE, PERF_AVERAGE_TIMER,
    PERF_AVERAGE_BASE, PERF_AVERAGE_BULK, PERF_OBJ_TIME_TIMER, PERF_100NSEC_TIMER,
    PERF_100NSEC_TIMER_INV, PERF_COUNTER_MULTI_TIMER, PERF_COUNTER_MULTI_TIMER_INV,
    PERF_COUNTER_MULTI_BASE, PERF_100NSEC_MULTI_TIMER, PERF_100NSEC_MULTI_TIMER_INV,
    PERF_RAW_FRACTION, PERF_LARGE_RAW_FRACTION, PERF_RAW_BASE, PERF_LARGE_RAW_BASE,
    PERFBUF_WMI_LARGE_RAW_BASE, PERF_ELAPSED_TIME, PERF_COUNTER_HISTOGRAM_TYPE,
    PERF_COUNTER_DELTA, PERF_COUNTER_LARGE_DELTA, PERF_PRECISION_SYSTEM_TIMER,
    PERF_PRECISION_100NS_TIMER, PERF_PRECISION_OBJECT_TIMER,
};
#define NAMED_COUNT (sizeof named / sizeof named[0])

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s);
    size_t t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* A type is exported exactly when PDH gives it a value, and a type that
 * is not says why. */
static void exported_exactly_when_displayable(void)
{
    CHECK_EQ_U(NAMED_COUNT, 40);
    for (size_t i = 0; i < NAMED_COUNT; i++) {
        perfbuf_openmetrics_mapping m;
        perfbuf_status st = perfbuf_openmetrics_map(named[i], &m);
        CHECK_EQ_U(m.type, named[i]);
        if (perfbuf_counter_type_is_displayable(named[i])) {
            CHECK(st == PERFBUF_OK);
            CHECK(m.family_count >= 1 && m.family_count <= PERFBUF_OPENMETRICS_MAX_FAMILIES);
            CHECK_STR(m.reason, "");
            CHECK(m.promql[0] != '\0');
        } else {
            CHECK(st == PERFBUF_E_NOT_FOUND);
            CHECK_EQ_U(m.family_count, 0);
            CHECK(strlen(m.reason) > 10);
            CHECK_STR(m.promql, "");
        }
    }
    static const uint32_t unnamed[] = {0x00012000u, 0x12345678u, 0xFFFFFFFFu, 0x00000001u};
    for (size_t i = 0; i < sizeof unnamed / sizeof unnamed[0]; i++) {
        perfbuf_openmetrics_mapping m;
        CHECK(perfbuf_openmetrics_map(unnamed[i], &m) == PERFBUF_E_NOT_FOUND);
        CHECK(strstr(m.reason, "winperf.h") != NULL);
    }
    CHECK(perfbuf_openmetrics_map(PERF_COUNTER_COUNTER, NULL) == PERFBUF_E_INVALID_ARGUMENT);
}

/*
 * The shape of every exported mapping: a counter's samples end in _total,
 * a summary's are _sum and _count, a unit is the end of the family's name,
 * a one-sample formula uses no range, and the expression reads every
 * sample the mapping writes (and nothing it does not write).
 */
static void mappings_are_consistent(void)
{
    for (size_t i = 0; i < NAMED_COUNT; i++) {
        perfbuf_openmetrics_mapping m;
        if (perfbuf_openmetrics_map(named[i], &m) != PERFBUF_OK) {
            continue;
        }
        unsigned samples = perfbuf_counter_type_samples(named[i]);
        CHECK((strstr(m.promql, "[<range>]") != NULL) == (samples == 2));
        CHECK(strstr(m.promql, "<scale>") != NULL);
        bool percent = strcmp(perfbuf_counter_type_suffix(named[i]), "%") == 0;
        CHECK((strncmp(m.promql, "clamp_max(100 * ", 16) == 0) == percent);
        CHECK(percent == ends_with(m.promql, ", 100)"));
        size_t reads = 0;
        for (const char *p = m.promql; (p = strstr(p, "<name>")) != NULL; p++) {
            reads++;
        }
        size_t covered = 0;
        for (uint32_t k = 0; k < m.family_count; k++) {
            const perfbuf_openmetrics_family *f = &m.families[k];
            CHECK(f->sample_count == 1 || f->sample_count == 2);
            if (f->unit[0] != '\0') {
                CHECK(ends_with(f->suffix, "_seconds"));
                CHECK_STR(f->unit, "seconds");
            } else {
                CHECK(!ends_with(f->suffix, "_seconds"));
            }
            for (uint32_t s = 0; s < f->sample_count; s++) {
                const perfbuf_openmetrics_sample *sm = &f->samples[s];
                if (f->kind == PERFBUF_OPENMETRICS_COUNTER) {
                    CHECK_STR(sm->suffix, "_total");
                } else if (f->kind == PERFBUF_OPENMETRICS_SUMMARY) {
                    CHECK_STR(sm->suffix, s == 0 ? "_sum" : "_count");
                } else {
                    CHECK_EQ_U(f->kind, PERFBUF_OPENMETRICS_GAUGE);
                    CHECK_STR(sm->suffix, "");
                }
                /* "<name>" + family suffix + sample suffix, not followed
                 * by more of a name: the expression reads this sample. */
                char needle[96];
                snprintf(needle, sizeof needle, "<name>%s%s", f->suffix, sm->suffix);
                bool found = false;
                for (const char *p = m.promql; (p = strstr(p, needle)) != NULL; p++) {
                    char after = p[strlen(needle)];
                    if (!(after == '_' || (after >= 'a' && after <= 'z'))) {
                        found = true;
                        covered++;
                    }
                }
                CHECK(found);
            }
        }
        /* Every read of <name> is one of the samples above. */
        CHECK_EQ_U(covered, reads);
    }
}

/* The counters whose value is a time: their families are in seconds, and
 * so, for every formula that divides by a clock, is the clock. */
static void units_follow_time_bases(void)
{
    perfbuf_openmetrics_mapping m;
    CHECK(perfbuf_openmetrics_map(PERF_100NSEC_TIMER, &m) == PERFBUF_OK);
    CHECK_EQ_U(m.family_count, 3);
    CHECK_STR(m.families[0].suffix, "_seconds");
    CHECK_EQ_U(m.families[0].samples[0].conversion, PERFBUF_OPENMETRICS_SECONDS);
    CHECK_STR(m.families[1].suffix, "_clock_seconds");
    CHECK_EQ_U(m.families[1].samples[0].conversion, PERFBUF_OPENMETRICS_UNIX_WHOLE);
    CHECK_STR(m.families[2].suffix, "_clock_fraction_seconds");
    CHECK_EQ_U(m.families[2].samples[0].conversion, PERFBUF_OPENMETRICS_UNIX_FRACTION);
    CHECK(perfbuf_openmetrics_map(PERF_COUNTER_TIMER, &m) == PERFBUF_OK);
    CHECK_EQ_U(m.families[1].samples[0].conversion, PERFBUF_OPENMETRICS_WHOLE_SECONDS);
    CHECK_EQ_U(m.families[2].samples[0].conversion, PERFBUF_OPENMETRICS_FRACTION_SECONDS);
    CHECK(perfbuf_openmetrics_map(PERF_100NSEC_TIMER_INV, &m) == PERFBUF_OK);
    CHECK_STR(m.families[0].suffix, "_inverse_seconds");
    /* A precision timer's base is a timestamp in its own units: never
     * shifted to 1970 as PerfTime100nSec is. */
    CHECK(perfbuf_openmetrics_map(PERF_PRECISION_100NS_TIMER, &m) == PERFBUF_OK);
    CHECK_EQ_U(m.families[1].samples[0].source, PERFBUF_OPENMETRICS_SECOND);
    CHECK_EQ_U(m.families[1].samples[0].conversion, PERFBUF_OPENMETRICS_WHOLE_SECONDS);
    CHECK(perfbuf_openmetrics_map(PERF_PRECISION_OBJECT_TIMER, &m) == PERFBUF_OK);
    CHECK_EQ_U(m.family_count, 2);
    CHECK_STR(m.families[1].suffix, "_clock");
    CHECK_EQ_U(m.families[1].samples[0].conversion, PERFBUF_OPENMETRICS_AS_IS);
    CHECK(perfbuf_openmetrics_map(PERF_AVERAGE_TIMER, &m) == PERFBUF_OK);
    CHECK_EQ_U(m.families[0].kind, PERFBUF_OPENMETRICS_SUMMARY);
    CHECK_EQ_U(m.families[0].samples[1].source, PERFBUF_OPENMETRICS_SECOND);
    CHECK(perfbuf_openmetrics_map(PERF_100NSEC_MULTI_TIMER_INV, &m) == PERFBUF_OK);
    CHECK_EQ_U(m.family_count, 4);
    CHECK_EQ_U(m.families[3].samples[0].source, PERFBUF_OPENMETRICS_MULTI);
    CHECK(perfbuf_openmetrics_map(PERF_ELAPSED_TIME, &m) == PERFBUF_OK);
    CHECK_EQ_U(m.families[0].samples[0].conversion, PERFBUF_OPENMETRICS_START_TIME);
}

/* A name, or "(status N)" when the call fails. */
static const char *name_of(const char *object, const char *counter)
{
    static char out[256];
    size_t len = 0;
    perfbuf_status st = perfbuf_openmetrics_name("windows", 7, object, object ? strlen(object) : 0,
                                                 238, counter, counter ? strlen(counter) : 0, 6,
                                                 out, sizeof out, &len);
    if (st != PERFBUF_OK || len != strlen(out)) {
        snprintf(out, sizeof out, "(status %d)", (int)st);
    }
    return out;
}

static void names_are_snake_case(void)
{
    CHECK_STR(name_of("Processor", "% Processor Time"), "windows_processor_time");
    CHECK_STR(name_of("Process", "% Processor Time"), "windows_process_processor_time");
    CHECK_STR(name_of("Processor Information", "% Processor Time"),
              "windows_processor_information_processor_time");
    CHECK_STR(name_of("System", "Context Switches/sec"), "windows_system_context_switches");
    CHECK_STR(name_of("System", "System Up Time"), "windows_system_up_time");
    CHECK_STR(name_of("Network Interface", "Bytes Total/sec"),
              "windows_network_interface_bytes");
    CHECK_STR(name_of("PhysicalDisk", "Avg. Disk sec/Transfer"),
              "windows_physicaldisk_avg_disk_sec_transfer");
    CHECK_STR(name_of("PhysicalDisk", "Split IO/Sec"), "windows_physicaldisk_split_io");
    CHECK_STR(name_of("Memory", "Available Bytes"), "windows_memory_available_bytes");
    CHECK_STR(name_of("Paging File", "% Usage Peak"), "windows_paging_file_usage_peak");
    /* A whole-name match only, and never down to nothing. */
    CHECK_STR(name_of("Processor", "Processor"), "windows_processor_processor");
    CHECK_STR(name_of("Process", "Processor Queue"), "windows_process_processor_queue");
    CHECK_STR(name_of("Thread", "Total/sec"), "windows_thread_total");
    CHECK_STR(name_of("Thread", "sec"), "windows_thread_sec");
    CHECK_STR(name_of("Thread", "Bytes Total"), "windows_thread_bytes");
    CHECK_STR(name_of("Thread", "Seconds/sec"), "windows_thread_seconds");
    CHECK_STR(name_of("Thread", "Elapsed   Time---"), "windows_thread_elapsed_time");
    /* Letters outside ASCII separate words; no letter at all: the index. */
    CHECK_STR(name_of("Prozessor", "% Prozessorzeit"), "windows_prozessor_prozessorzeit");
    CHECK_STR(name_of("Caf\xC3\xA9 Net", "Caf\xC3\xA9s"), "windows_caf_net_caf_s");
    CHECK_STR(name_of("\xE3\x83\x97\xE3\x83\xAD", "\xE6\x99\x82\xE9\x96\x93"),
              "windows_object_238_counter_6");
    CHECK_STR(name_of(NULL, NULL), "windows_object_238_counter_6");
    CHECK_STR(name_of("", "%"), "windows_object_238_counter_6");
    /* Bytes that are not UTF-8 separate words as any other character. */
    CHECK_STR(name_of("A\xFF" "B", "C\xC3(D"), "windows_a_b_c_d");
}

static void names_refuse_bad_prefixes_and_size_exactly(void)
{
    char out[64];
    size_t len = 0;
    static const char *bad[] = {"", "9x", "a-b", "a b", "\xC3\xA9"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(perfbuf_openmetrics_name(bad[i], strlen(bad[i]), "A", 1, 0, "B", 1, 0, out,
                                       sizeof out, &len) == PERFBUF_E_INVALID_ARGUMENT);
    }
    CHECK(perfbuf_openmetrics_name(NULL, 0, "A", 1, 0, "B", 1, 0, out, sizeof out, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_openmetrics_name("p", 1, NULL, 1, 0, "B", 1, 0, out, sizeof out, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_openmetrics_name("p", 1, "A", 1, 0, "B", 1, 0, NULL, 4, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_openmetrics_name("p", 1, "A", 1, 0, "B", 1, 0, out, sizeof out, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_openmetrics_name("Ab:_9", 5, "A", 1, 0, "B", 1, 0, out, sizeof out, &len) ==
          PERFBUF_OK);
    CHECK_STR(out, "Ab:_9_a_b");
    /* The size first, then the name; a short buffer holds a prefix. */
    const char *object = "Network Interface";
    const char *counter = "Bytes Total/sec";
    CHECK(perfbuf_openmetrics_name("windows", 7, object, strlen(object), 0, counter,
                                   strlen(counter), 0, NULL, 0, &len) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(len, strlen("windows_network_interface_bytes"));
    CHECK(perfbuf_openmetrics_name("windows", 7, object, strlen(object), 0, counter,
                                   strlen(counter), 0, out, 11, &len) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(len, strlen("windows_network_interface_bytes"));
    CHECK_STR(out, "windows_ne");
    CHECK(perfbuf_openmetrics_name("windows", 7, object, strlen(object), 0, counter,
                                   strlen(counter), 0, out, len + 1, &len) == PERFBUF_OK);
    CHECK_STR(out, "windows_network_interface_bytes");
}

static void units(void)
{
    perfbuf_openmetrics_mapping m;
    CHECK(perfbuf_openmetrics_map(PERF_COUNTER_BULK_COUNT, &m) == PERFBUF_OK);
    const char *name = "windows_network_interface_bytes";
    CHECK_STR(perfbuf_openmetrics_unit(&m.families[0], name, strlen(name)), "bytes");
    /* Only the name's last word, and only on the family that has none. */
    CHECK_STR(perfbuf_openmetrics_unit(&m.families[0], "a_bytes_x", 9), "");
    CHECK_STR(perfbuf_openmetrics_unit(&m.families[0], "abytes", 6), "");
    CHECK_STR(perfbuf_openmetrics_unit(&m.families[1], "a_bytes_clock_seconds", 21), "seconds");
    CHECK(perfbuf_openmetrics_map(PERF_RAW_FRACTION, &m) == PERFBUF_OK);
    CHECK_STR(perfbuf_openmetrics_unit(&m.families[1], "a_bytes_base", 12), "");
    CHECK_STR(perfbuf_openmetrics_unit(NULL, "a_bytes", 7), "");
    CHECK_STR(perfbuf_openmetrics_unit(&m.families[0], NULL, 7), "");
}

static const char *escaped(const char *text, size_t len)
{
    static char out[256];
    size_t n = 0;
    if (perfbuf_openmetrics_escape(text, len, out, sizeof out, &n) != PERFBUF_OK ||
        n != strlen(out)) {
        return "(failed)";
    }
    return out;
}

static void escapes_what_the_format_and_a_terminal_need(void)
{
    CHECK_STR(escaped("svchost", 7), "svchost");
    CHECK_STR(escaped("a\"b\\c\nd", 7), "a\\\"b\\\\c\\nd");
    /* CR, NUL, ESC, DEL, NEL, LS, RLO, and a byte that is not UTF-8. */
    CHECK_STR(escaped("1\r2\0" "3\x1B" "4\x7F" "5\xC2\x85" "6\xE2\x80\xA8" "7\xE2\x80\xAE" "8\xFF",
                      21),
              "1\xEF\xBF\xBD" "2\xEF\xBF\xBD" "3\xEF\xBF\xBD" "4\xEF\xBF\xBD" "5\xEF\xBF\xBD"
              "6\xEF\xBF\xBD" "7\xEF\xBF\xBD" "8\xEF\xBF\xBD");
    CHECK_STR(escaped("\xE2\x82\xAC \xF0\x9F\x98\x80 {x=\"}", 14),
              "\xE2\x82\xAC \xF0\x9F\x98\x80 {x=\\\"}");
    CHECK_STR(escaped(NULL, 0), "");
    char out[4];
    size_t n = 0;
    CHECK(perfbuf_openmetrics_escape("\"\"\"", 3, out, sizeof out, &n) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(n, 6);
    CHECK_STR(out, "\\\"");
    CHECK(perfbuf_openmetrics_escape(NULL, 1, out, sizeof out, &n) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_openmetrics_escape("a", 1, out, sizeof out, NULL) == PERFBUF_E_INVALID_ARGUMENT);
}

/* The number one sample of the mapping's family k, sample s, writes. */
static const char *number(uint32_t type, uint32_t k, uint32_t s, uint64_t first, uint64_t second,
                          uint32_t multi, uint64_t frequency, int64_t unix_ms)
{
    static char out[PERFBUF_OPENMETRICS_NUMBER_MAX];
    perfbuf_openmetrics_mapping m;
    if (perfbuf_openmetrics_map(type, &m) != PERFBUF_OK || k >= m.family_count ||
        s >= m.families[k].sample_count) {
        return "(no mapping)";
    }
    perfbuf_raw_sample raw = {PERFBUF_CSTATUS_VALID_DATA, type, first, second, multi, 0};
    perfbuf_value_context ctx = {frequency, 0};
    size_t len = 0;
    perfbuf_status st = perfbuf_openmetrics_value(&m.families[k].samples[s], &raw, &ctx, unix_ms,
                                                  out, sizeof out, &len);
    if (st == PERFBUF_E_NOT_FOUND) {
        return "(none)";
    }
    if (st != PERFBUF_OK || len != strlen(out)) {
        return "(failed)";
    }
    return out;
}

static void numbers_are_exact_decimals(void)
{
    /* Raw integers, to the last bit. */
    CHECK_STR(number(PERF_COUNTER_RAWCOUNT, 0, 0, 0, 0, 0, 0, 0), "0");
    CHECK_STR(number(PERF_COUNTER_LARGE_RAWCOUNT, 0, 0, UINT64_MAX, 0, 0, 0, 0),
              "18446744073709551615");
    CHECK_STR(number(PERF_100NSEC_MULTI_TIMER, 3, 0, 1, 2, 4294967295u, 10000000, 0),
              "4294967295");
    CHECK_STR(number(PERF_RAW_FRACTION, 1, 0, 6144, 12288, 0, 0, 0), "12288");
    /* 100-ns values in seconds: exact, trailing zeros left out. */
    CHECK_STR(number(PERF_100NSEC_TIMER, 0, 0, 45000000, 0, 0, 10000000, 0), "4.5");
    CHECK_STR(number(PERF_100NSEC_TIMER, 0, 0, 40000000, 0, 0, 10000000, 0), "4");
    CHECK_STR(number(PERF_100NSEC_TIMER, 0, 0, 1, 0, 0, 10000000, 0), "0.0000001");
    CHECK_STR(number(PERF_100NSEC_TIMER, 0, 0, UINT64_MAX, 0, 0, 10000000, 0),
              "1844674407370.9551615");
    /* PerfTime100nSec, a FILETIME, as seconds since 1970: whole seconds
     * (rounded down) and the fraction, so that their sum is the time. */
    CHECK_STR(number(PERF_100NSEC_TIMER, 1, 0, 0, 134398152000000000ull, 0, 10000000, 0),
              "1795341600");
    CHECK_STR(number(PERF_100NSEC_TIMER, 2, 0, 0, 134398152000000000ull, 0, 10000000, 0), "0");
    CHECK_STR(number(PERF_100NSEC_TIMER, 1, 0, 0, 134398152010000003ull, 0, 10000000, 0),
              "1795341601");
    CHECK_STR(number(PERF_100NSEC_TIMER, 2, 0, 0, 134398152010000003ull, 0, 10000000, 0),
              "0.0000003");
    CHECK_STR(number(PERF_100NSEC_TIMER, 1, 0, 0, 116444736000000001ull, 0, 10000000, 0), "0");
    CHECK_STR(number(PERF_100NSEC_TIMER, 2, 0, 0, 116444736000000001ull, 0, 10000000, 0),
              "0.0000001");
    CHECK_STR(number(PERF_100NSEC_TIMER, 1, 0, 0, 116444735999999999ull, 0, 10000000, 0), "-1");
    CHECK_STR(number(PERF_100NSEC_TIMER, 2, 0, 0, 116444735999999999ull, 0, 10000000, 0),
              "0.9999999");
    CHECK_STR(number(PERF_100NSEC_TIMER, 1, 0, 0, 116444735990000000ull, 0, 10000000, 0), "-1");
    CHECK_STR(number(PERF_100NSEC_TIMER, 2, 0, 0, 116444735990000000ull, 0, 10000000, 0), "0");
    CHECK_STR(number(PERF_100NSEC_TIMER, 1, 0, 0, 0, 0, 10000000, 0), "-11644473600");
    CHECK_STR(number(PERF_100NSEC_TIMER, 2, 0, 0, 0, 0, 10000000, 0), "0");
    /* PerfTime / PerfFreq: whole seconds and the fraction, 20 digits. */
    CHECK_STR(number(PERF_COUNTER_COUNTER, 1, 0, 0, 133456789, 0, 10000000, 0), "13");
    CHECK_STR(number(PERF_COUNTER_COUNTER, 2, 0, 0, 133456789, 0, 10000000, 0), "0.3456789");
    CHECK_STR(number(PERF_COUNTER_COUNTER, 2, 0, 0, 7, 0, 3, 0), "0.33333333333333333333");
    CHECK_STR(number(PERF_COUNTER_COUNTER, 1, 0, 0, UINT64_MAX, 0, 1, 0),
              "18446744073709551615");
    CHECK_STR(number(PERF_COUNTER_COUNTER, 2, 0, 0, UINT64_MAX, 0, 1, 0), "0");
    CHECK_STR(number(PERF_COUNTER_COUNTER, 1, 0, 0, 5, 0, 0, 0), "(none)");
    CHECK_STR(number(PERF_COUNTER_COUNTER, 2, 0, 0, 5, 0, 0, 0), "(none)");
    /* Ticks of PerfFreq: 20 significant digits, rounded half up. */
    CHECK_STR(number(PERF_COUNTER_TIMER, 0, 0, 1, 0, 0, 3, 0), "0.33333333333333333333");
    CHECK_STR(number(PERF_COUNTER_TIMER, 0, 0, 2, 0, 0, 3, 0), "0.66666666666666666667");
    CHECK_STR(number(PERF_COUNTER_TIMER, 0, 0, 20000000000ull, 0, 0, 3, 0),
              "6666666666.6666666667");
    /* ...18999|59 rounds up through the nines. */
    CHECK_STR(number(PERF_COUNTER_TIMER, 0, 0, 11, 0, 0, 2479, 0), "0.0044372730939895119");
    /* A quotient that ends before 20 digits is exact. */
    CHECK_STR(number(PERF_COUNTER_TIMER, 0, 0, 199999999999999999ull, 0, 0,
                     200000000000000000ull, 0),
              "0.999999999999999995");
    /* A frequency above 2^64 / 10 takes the other digit path. */
    CHECK_STR(number(PERF_COUNTER_TIMER, 0, 0, UINT64_MAX, 0, 0, UINT64_MAX, 0), "1");
    CHECK_STR(number(PERF_COUNTER_TIMER, 0, 0, UINT64_MAX - 1, 0, 0, UINT64_MAX, 0),
              "0.99999999999999999995");
    CHECK_STR(number(PERF_COUNTER_TIMER, 0, 0, 1, 0, 0, UINT64_MAX, 0),
              "0.000000000000000000054210108624275221703");
    CHECK_STR(number(PERF_COUNTER_TIMER, 0, 0, 1, 0, 0, 0, 0), "(none)");
    /* An average timer's sum in seconds, its count as it is. */
    CHECK_STR(number(PERF_AVERAGE_TIMER, 0, 0, 3000000, 150, 0, 10000000, 0), "0.3");
    CHECK_STR(number(PERF_AVERAGE_TIMER, 0, 1, 3000000, 150, 0, 10000000, 0), "150");
}

static void start_times_are_the_capture_time_minus_the_elapsed_time(void)
{
    /* A day and a second elapsed at 2026-11-22 10:00:01 UTC. */
    CHECK_STR(number(PERF_ELAPSED_TIME, 0, 0, 134397288000000000ull, 134398152010000000ull, 0,
                     10000000, 1795341601000),
              "1795255200");
    CHECK_STR(number(PERF_ELAPSED_TIME, 0, 0, 0, 1, 0, 10000000, 1000), "0.9999999");
    CHECK_STR(number(PERF_ELAPSED_TIME, 0, 0, 0, 1, 0, 4, 0), "-0.25");
    CHECK_STR(number(PERF_ELAPSED_TIME, 0, 0, 0, 1, 0, 3, 0), "-0.333333333");
    CHECK_STR(number(PERF_ELAPSED_TIME, 0, 0, 0, 2, 0, 3, 0), "-0.666666667");
    CHECK_STR(number(PERF_ELAPSED_TIME, 0, 0, 0, 5, 0, 2, -1500), "-4");
    CHECK_STR(number(PERF_ELAPSED_TIME, 0, 0, 7, 7, 0, 1, 250), "0.25");
    /* 0.9999999999 s rounds to a whole second. */
    CHECK_STR(number(PERF_ELAPSED_TIME, 0, 0, 0, 9999999999ull, 0, 10000000000ull, 5000), "4");
    /* No value where PDH has none: N after T, or no frequency. */
    CHECK_STR(number(PERF_ELAPSED_TIME, 0, 0, 8, 7, 0, 1, 0), "(none)");
    CHECK_STR(number(PERF_ELAPSED_TIME, 0, 0, 7, 8, 0, 0, 0), "(none)");
    /* More than 2^62 s: no time at all. */
    CHECK_STR(number(PERF_ELAPSED_TIME, 0, 0, 0, UINT64_MAX, 0, 1, 0), "(none)");
    CHECK_STR(number(PERF_ELAPSED_TIME, 0, 0, 0, (uint64_t)1 << 62, 0, 1, 0),
              "-4611686018427387904");
}

static void value_arguments(void)
{
    perfbuf_openmetrics_mapping m;
    CHECK(perfbuf_openmetrics_map(PERF_COUNTER_COUNTER, &m) == PERFBUF_OK);
    perfbuf_raw_sample raw = {PERFBUF_CSTATUS_VALID_DATA, PERF_COUNTER_COUNTER, 12345, 0, 0, 0};
    perfbuf_value_context ctx = {10000000, 0};
    char out[PERFBUF_OPENMETRICS_NUMBER_MAX];
    size_t len = 0;
    const perfbuf_openmetrics_sample *s = &m.families[0].samples[0];
    CHECK(perfbuf_openmetrics_value(s, &raw, &ctx, 0, out, 3, &len) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(len, 5);
    CHECK_STR(out, "12");
    CHECK(perfbuf_openmetrics_value(s, &raw, &ctx, 0, NULL, 0, &len) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(len, 5);
    raw.status = PERFBUF_CSTATUS_NEW_DATA;
    CHECK(perfbuf_openmetrics_value(s, &raw, &ctx, 0, out, sizeof out, &len) == PERFBUF_OK);
    raw.status = PERFBUF_CSTATUS_INVALID_DATA;
    CHECK(perfbuf_openmetrics_value(s, &raw, &ctx, 0, out, sizeof out, &len) ==
          PERFBUF_E_NOT_FOUND);
    raw.status = PERFBUF_CSTATUS_VALID_DATA;
    perfbuf_openmetrics_sample forged = *s;
    forged.source = 4;
    CHECK(perfbuf_openmetrics_value(&forged, &raw, &ctx, 0, out, sizeof out, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
    forged = *s;
    forged.conversion = PERFBUF_OPENMETRICS_START_TIME + 1;
    CHECK(perfbuf_openmetrics_value(&forged, &raw, &ctx, 0, out, sizeof out, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
    forged.conversion = PERFBUF_OPENMETRICS_START_TIME;
    CHECK(perfbuf_openmetrics_value(&forged, &raw, &ctx, INT64_MAX, out, sizeof out, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_openmetrics_value(NULL, &raw, &ctx, 0, out, sizeof out, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_openmetrics_value(s, NULL, &ctx, 0, out, sizeof out, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_openmetrics_value(s, &raw, NULL, 0, out, sizeof out, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_openmetrics_value(s, &raw, &ctx, 0, out, sizeof out, NULL) ==
          PERFBUF_E_INVALID_ARGUMENT);
}

static const char *time_text(int64_t filetime, int64_t *ms)
{
    static char out[PERFBUF_OPENMETRICS_NUMBER_MAX];
    size_t len = 0;
    perfbuf_status st = perfbuf_openmetrics_time(filetime, ms, out, sizeof out, &len);
    if (st == PERFBUF_E_NOT_FOUND) {
        return "(invalid)";
    }
    return st == PERFBUF_OK && len == strlen(out) ? out : "(failed)";
}

/* FILETIMEs of known instants: 1601-01-01 is 0, 1970-01-01 is
 * 116444736000000000 (11,644,473,600 s), and 2026-11-22 10:00:00 UTC is
 * 1,795,341,600 s after that (the series captures' first time). */
static void times_are_unix_seconds(void)
{
    int64_t ms = 0;
    CHECK_STR(time_text(134398152000000000, &ms), "1795341600");
    CHECK(ms == 1795341600000);
    CHECK_STR(time_text(134398152012500000, &ms), "1795341601.25");
    CHECK(ms == 1795341601250);
    /* 100 ns below a millisecond round down, to the millisecond before. */
    CHECK_STR(time_text(134398152000009999, &ms), "1795341600");
    CHECK_STR(time_text(134398152000010000, &ms), "1795341600.001");
    CHECK_STR(time_text(116444736000000000, &ms), "0");
    CHECK(ms == 0);
    CHECK_STR(time_text(116444735995000000, &ms), "-0.5");
    CHECK(ms == -500);
    CHECK_STR(time_text(116444735999990000, &ms), "-0.001");
    CHECK_STR(time_text(0, &ms), "-11644473600");
    CHECK(ms == -11644473600000);
    CHECK_STR(time_text(INT64_MAX, &ms), "910692730085.477");
    CHECK_STR(time_text(-1, &ms), "(invalid)");
    CHECK_STR(time_text(INT64_MIN, &ms), "(invalid)");
    size_t len = 0;
    CHECK(perfbuf_openmetrics_time(0, NULL, NULL, 0, &len) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_openmetrics_time(0, &ms, NULL, 4, &len) == PERFBUF_E_INVALID_ARGUMENT);
    CHECK(perfbuf_openmetrics_time(0, &ms, NULL, 0, NULL) == PERFBUF_E_INVALID_ARGUMENT);
}

static const char *expression(uint32_t type, const char *name, const char *range, int32_t scale)
{
    static char out[512];
    perfbuf_openmetrics_mapping m;
    /* An unexported mapping too: the call must refuse it. */
    perfbuf_status mapped = perfbuf_openmetrics_map(type, &m);
    (void)mapped;
    size_t len = 0;
    perfbuf_status st = perfbuf_openmetrics_promql(&m, name, strlen(name), range, strlen(range),
                                                   scale, out, sizeof out, &len);
    if (st == PERFBUF_E_INVALID_ARGUMENT) {
        return "(refused)";
    }
    return st == PERFBUF_OK && len == strlen(out) ? out : "(failed)";
}

static void promql_fills_the_template(void)
{
    CHECK_STR(expression(PERF_COUNTER_RAWCOUNT, "windows_system_processes", "90s", 0),
              "windows_system_processes");
    CHECK_STR(expression(PERF_COUNTER_RAWCOUNT, "windows_system_processes", "90s", -3),
              "windows_system_processes * 1e-3");
    CHECK_STR(expression(PERF_COUNTER_COUNTER, "w_c", "1500ms", 2),
              "(idelta(w_c_total[1500ms]) >= 0) / (idelta(w_c_clock_seconds[1500ms]) + "
              "idelta(w_c_clock_fraction_seconds[1500ms]) > 0) * 1e2");
    CHECK_STR(expression(PERF_100NSEC_TIMER_INV, "windows_processor_time", "90s", 0),
              "clamp_max(100 * (1 - (idelta(windows_processor_time_inverse_seconds_total[90s]) "
              ">= 0) / (idelta(windows_processor_time_clock_seconds[90s]) + "
              "idelta(windows_processor_time_clock_fraction_seconds[90s]) > 0)) >= 0, 100)");
    CHECK_STR(expression(PERF_ELAPSED_TIME, "x", "1m30s", 10),
              "(timestamp(x_start_time_seconds) - x_start_time_seconds) * 1e10");
    /* What the template cannot take. */
    CHECK_STR(expression(PERF_COUNTER_COUNTER, "w c", "90s", 0), "(refused)");
    CHECK_STR(expression(PERF_COUNTER_COUNTER, "w{a=\"b\"}", "90s", 0), "(refused)");
    CHECK_STR(expression(PERF_COUNTER_COUNTER, "", "90s", 0), "(refused)");
    CHECK_STR(expression(PERF_COUNTER_COUNTER, "w", "s90", 0), "(refused)");
    CHECK_STR(expression(PERF_COUNTER_COUNTER, "w", "90s])", 0), "(refused)");
    CHECK_STR(expression(PERF_COUNTER_COUNTER, "w", "", 0), "(refused)");
    CHECK_STR(expression(PERF_COUNTER_COUNTER, "w", "90s", 11), "(refused)");
    CHECK_STR(expression(PERF_COUNTER_COUNTER, "w", "90s", -11), "(refused)");
    CHECK_STR(expression(PERF_AVERAGE_BASE, "w", "90s", 0), "(refused)");
    /* Two calls. */
    perfbuf_openmetrics_mapping m;
    CHECK(perfbuf_openmetrics_map(PERF_AVERAGE_BULK, &m) == PERFBUF_OK);
    size_t len = 0;
    CHECK(perfbuf_openmetrics_promql(&m, "a", 1, "9s", 2, 0, NULL, 0, &len) ==
          PERFBUF_E_OUTPUT_TOO_SMALL);
    CHECK_EQ_U(len, strlen("(idelta(a_sum[9s]) >= 0) / (idelta(a_count[9s]) > 0)"));
    CHECK(perfbuf_openmetrics_promql(NULL, "a", 1, "9s", 2, 0, NULL, 0, &len) ==
          PERFBUF_E_INVALID_ARGUMENT);
}

static const th_case cases[] = {
    TH_CASE(exported_exactly_when_displayable),
    TH_CASE(mappings_are_consistent),
    TH_CASE(units_follow_time_bases),
    TH_CASE(names_are_snake_case),
    TH_CASE(names_refuse_bad_prefixes_and_size_exactly),
    TH_CASE(units),
    TH_CASE(escapes_what_the_format_and_a_terminal_need),
    TH_CASE(numbers_are_exact_decimals),
    TH_CASE(start_times_are_the_capture_time_minus_the_elapsed_time),
    TH_CASE(value_arguments),
    TH_CASE(times_are_unix_seconds),
    TH_CASE(promql_fills_the_template),
};
TH_MAIN(cases)
