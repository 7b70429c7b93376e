/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Counter types as OpenMetrics time series (docs/prometheus.md). One row
 * per formula of docs/counter-types.md: the raw values a sample exposes,
 * and the PromQL expression that computes PDH's value from two of them.
 * Every two-sample formula divides differences of exported values, never
 * a difference by the samples' timestamps, so the expression gives what
 * the formula gives whatever the spacing of the captures.
 */
#include "perfbuf/openmetrics.h"

#include "perfbuf/counter_types.h"
#include "core/text.h"

/* Shorter names for the table below. */
#define GAUGE PERFBUF_OPENMETRICS_GAUGE
#define COUNTER PERFBUF_OPENMETRICS_COUNTER
#define SUMMARY PERFBUF_OPENMETRICS_SUMMARY
#define FIRST PERFBUF_OPENMETRICS_FIRST
#define SECOND PERFBUF_OPENMETRICS_SECOND
#define MULTI PERFBUF_OPENMETRICS_MULTI
#define AS_IS PERFBUF_OPENMETRICS_AS_IS
#define SECONDS PERFBUF_OPENMETRICS_SECONDS
#define WHOLE PERFBUF_OPENMETRICS_WHOLE_SECONDS
#define FRACTION PERFBUF_OPENMETRICS_FRACTION_SECONDS
#define UNIX_WHOLE PERFBUF_OPENMETRICS_UNIX_WHOLE
#define UNIX_FRACTION PERFBUF_OPENMETRICS_UNIX_FRACTION
#define START_TIME PERFBUF_OPENMETRICS_START_TIME

/* The families a formula exposes. */
#define ONE(suffix, kind, unit, role, sample, source, conversion) \
    {suffix, kind, unit, role, 1u, {{sample, source, conversion}, {"", 0u, 0u}}}
#define TWO(suffix, kind, unit, role, sample1, source1, conversion1, sample2, source2, \
            conversion2)                                                             \
    {suffix, kind, unit, role, 2u,                                                    \
     {{sample1, source1, conversion1}, {sample2, source2, conversion2}}}

/* The counter's own value N. */
#define VALUE_GAUGE ONE("", GAUGE, "", "", "", FIRST, AS_IS)
#define VALUE_TOTAL ONE("", COUNTER, "", "", "_total", FIRST, AS_IS)
#define VALUE_SECONDS ONE("_seconds", COUNTER, "seconds", "", "_total", FIRST, SECONDS)
#define INVERSE_SECONDS \
    ONE("_inverse_seconds", COUNTER, "seconds", "inverse time of ", "_total", FIRST, SECONDS)
/* The clock T a time-based formula divides by, or a precision timer's
 * timestamp base B: its whole seconds and the fraction of its second. */
#define CLOCK_WHOLE \
    ONE("_clock_seconds", GAUGE, "seconds", "time base of ", "", SECOND, WHOLE)
#define CLOCK_FRACTION \
    ONE("_clock_fraction_seconds", GAUGE, "seconds", "time base of ", "", SECOND, FRACTION)
#define CLOCK_UNIX_WHOLE \
    ONE("_clock_seconds", GAUGE, "seconds", "time base of ", "", SECOND, UNIX_WHOLE)
#define CLOCK_UNIX_FRACTION                                                                \
    ONE("_clock_fraction_seconds", GAUGE, "seconds", "time base of ", "", SECOND,          \
        UNIX_FRACTION)
#define CLOCK_TICKS ONE("_clock", GAUGE, "", "time base of ", "", SECOND, AS_IS)
/* A base B and a multi count M. */
#define BASE_GAUGE ONE("_base", GAUGE, "", "base of ", "", SECOND, AS_IS)
#define BASE_TOTAL ONE("_base", COUNTER, "", "base of ", "_total", SECOND, AS_IS)
#define MULTI_GAUGE ONE("_multi", GAUGE, "", "multi count of ", "", MULTI, AS_IS)
#define NO_FAMILY {"", 0u, "", "", 0u, {{"", 0u, 0u}, {"", 0u, 0u}}}

/*
 * The expressions. Every difference is idelta() of the last two samples
 * in <range>, never rate() (which extrapolates to the range's ends) nor a
 * division by time (the samples' timestamps are not the counter's clock).
 * A numerator that went down (>= 0 keeps none) and a denominator that did
 * not go up (> 0) leave no value, as PDH gives CALC_NEGATIVE_VALUE and
 * CALC_NEGATIVE_DENOMINATOR there; percentages are capped at 100 after
 * the scale, as PDH caps them (docs/counter-types.md).
 */
#define Q_VALUE "<name><scale>"
#define Q_DELTA "(idelta(<name>_total[<range>]) >= 0)<scale>"
/* The difference of the two clocks: whole seconds plus fractions. */
#define CLOCK_DIFFERENCE \
    "(idelta(<name>_clock_seconds[<range>]) + idelta(<name>_clock_fraction_seconds[<range>]) > 0)"
#define Q_RATE "(idelta(<name>_total[<range>]) >= 0) / " CLOCK_DIFFERENCE "<scale>"
#define Q_QUEUE "(idelta(<name>_seconds_total[<range>]) >= 0) / " CLOCK_DIFFERENCE "<scale>"
#define Q_TIMER \
    "clamp_max(100 * (idelta(<name>_seconds_total[<range>]) >= 0) / " CLOCK_DIFFERENCE "<scale>, 100)"
#define Q_TIMER_INV                                                                     \
    "clamp_max(100 * (1 - (idelta(<name>_inverse_seconds_total[<range>]) >= 0) / "      \
    CLOCK_DIFFERENCE ")<scale> >= 0, 100)"
#define Q_MULTI                                                                         \
    "clamp_max(100 * (idelta(<name>_seconds_total[<range>]) >= 0) / " CLOCK_DIFFERENCE   \
    " / (<name>_multi > 0)<scale>, 100)"
#define Q_MULTI_INV                                                                     \
    "clamp_max(100 * ((<name>_multi > 0) - "                                            \
    "(idelta(<name>_inverse_seconds_total[<range>]) >= 0) / " CLOCK_DIFFERENCE          \
    ") / <name>_multi<scale> >= 0, 100)"
#define Q_SAMPLE_FRACTION                                                               \
    "clamp_max(100 * (idelta(<name>_total[<range>]) >= 0) / "                           \
    "(idelta(<name>_base_total[<range>]) > 0)<scale>, 100)"
#define Q_RAW_FRACTION "clamp_max(100 * <name> / (<name>_base > 0)<scale>, 100)"
#define Q_PRECISION_TICKS                                                               \
    "clamp_max(100 * (idelta(<name>_total[<range>]) >= 0) / "                           \
    "(idelta(<name>_clock[<range>]) > 0)<scale>, 100)"
#define Q_AVERAGE_TIMER \
    "(idelta(<name>_seconds_sum[<range>]) >= 0) / (idelta(<name>_seconds_count[<range>]) > 0)<scale>"
#define Q_AVERAGE_BULK "(idelta(<name>_sum[<range>]) >= 0) / (idelta(<name>_count[<range>]) > 0)<scale>"
#define Q_ELAPSED "(timestamp(<name>_start_time_seconds) - <name>_start_time_seconds)<scale>"

typedef struct mapping_row {
    uint32_t family_count;
    perfbuf_openmetrics_family families[PERFBUF_OPENMETRICS_MAX_FAMILIES];
    const char *promql;
    const char *reason;
} mapping_row;

#define ROW1(q, f1) {1u, {f1, NO_FAMILY, NO_FAMILY, NO_FAMILY}, q, ""}
#define ROW2(q, f1, f2) {2u, {f1, f2, NO_FAMILY, NO_FAMILY}, q, ""}
#define ROW3(q, f1, f2, f3) {3u, {f1, f2, f3, NO_FAMILY}, q, ""}
#define ROW4(q, f1, f2, f3, f4) {4u, {f1, f2, f3, f4}, q, ""}
#define NOT_EXPORTED(why) {0u, {NO_FAMILY, NO_FAMILY, NO_FAMILY, NO_FAMILY}, "", why}

/* The counter's own clock, by time base: PerfTime / PerfFreq and the
 * object's PerfTime / PerfFreq in seconds; PerfTime100nSec, a FILETIME
 * (docs/formats.md), in seconds since 1970. */
static const mapping_row raw_count = ROW1(Q_VALUE, VALUE_GAUGE);
static const mapping_row delta = ROW1(Q_DELTA, VALUE_TOTAL);
static const mapping_row rate = ROW3(Q_RATE, VALUE_TOTAL, CLOCK_WHOLE, CLOCK_FRACTION);
static const mapping_row queue_ticks = ROW3(Q_QUEUE, VALUE_SECONDS, CLOCK_WHOLE, CLOCK_FRACTION);
static const mapping_row queue_100ns =
    ROW3(Q_QUEUE, VALUE_SECONDS, CLOCK_UNIX_WHOLE, CLOCK_UNIX_FRACTION);
static const mapping_row timer_ticks = ROW3(Q_TIMER, VALUE_SECONDS, CLOCK_WHOLE, CLOCK_FRACTION);
static const mapping_row timer_100ns =
    ROW3(Q_TIMER, VALUE_SECONDS, CLOCK_UNIX_WHOLE, CLOCK_UNIX_FRACTION);
static const mapping_row timer_inv_ticks =
    ROW3(Q_TIMER_INV, INVERSE_SECONDS, CLOCK_WHOLE, CLOCK_FRACTION);
static const mapping_row timer_inv_100ns =
    ROW3(Q_TIMER_INV, INVERSE_SECONDS, CLOCK_UNIX_WHOLE, CLOCK_UNIX_FRACTION);
static const mapping_row multi_ticks =
    ROW4(Q_MULTI, VALUE_SECONDS, CLOCK_WHOLE, CLOCK_FRACTION, MULTI_GAUGE);
static const mapping_row multi_100ns =
    ROW4(Q_MULTI, VALUE_SECONDS, CLOCK_UNIX_WHOLE, CLOCK_UNIX_FRACTION, MULTI_GAUGE);
static const mapping_row multi_inv_ticks =
    ROW4(Q_MULTI_INV, INVERSE_SECONDS, CLOCK_WHOLE, CLOCK_FRACTION, MULTI_GAUGE);
static const mapping_row multi_inv_100ns =
    ROW4(Q_MULTI_INV, INVERSE_SECONDS, CLOCK_UNIX_WHOLE, CLOCK_UNIX_FRACTION, MULTI_GAUGE);
static const mapping_row sample_fraction = ROW2(Q_SAMPLE_FRACTION, VALUE_TOTAL, BASE_TOTAL);
static const mapping_row raw_fraction = ROW2(Q_RAW_FRACTION, VALUE_GAUGE, BASE_GAUGE);
/* A precision timer divides by its timestamp base, in the unit of its time
 * base: PerfFreq ticks and 100 ns become seconds (the sample's frequency
 * is PerfFreq or 10^7), whole and fraction as a clock; an object's ticks
 * stay ticks, since a V2 sample carries no frequency for them
 * (docs/counter-types.md, O-20). */
static const mapping_row precision_seconds =
    ROW3(Q_TIMER, VALUE_SECONDS, CLOCK_WHOLE, CLOCK_FRACTION);
static const mapping_row precision_ticks = ROW2(Q_PRECISION_TICKS, VALUE_TOTAL, CLOCK_TICKS);
static const mapping_row average_timer =
    ROW1(Q_AVERAGE_TIMER, TWO("_seconds", SUMMARY, "seconds", "", "_sum", FIRST, SECONDS,
                              "_count", SECOND, AS_IS));
static const mapping_row average_bulk =
    ROW1(Q_AVERAGE_BULK,
         TWO("", SUMMARY, "", "", "_sum", FIRST, AS_IS, "_count", SECOND, AS_IS));
static const mapping_row elapsed = ROW1(
    Q_ELAPSED, ONE("_start_time_seconds", GAUGE, "seconds", "start time of ", "", FIRST, START_TIME));

static const mapping_row base_row = NOT_EXPORTED(
    "a base: no value of its own; exported as the base, time base or multi count of the "
    "counter it serves");
static const mapping_row text_row = NOT_EXPORTED("text, not a number: PDH gives it no value");
static const mapping_row no_data_row = NOT_EXPORTED("no data: PDH gives it no value");
static const mapping_row histogram_row =
    NOT_EXPORTED("no formula is published for it, and PDH gives it no value");
static const mapping_row unknown_row =
    NOT_EXPORTED("not a counter type winperf.h names: PDH gives it no value");

/* A switch, as perfbuf_counter_type_lookup is: the same six steps. */
#define MAP_STEPS 6

static const mapping_row *row_of(uint32_t type)
{
    PB_WORK(MAP_STEPS);
    switch (type) {
    case PERF_COUNTER_RAWCOUNT:
    case PERF_COUNTER_LARGE_RAWCOUNT:
    case PERF_COUNTER_RAWCOUNT_HEX:
    case PERF_COUNTER_LARGE_RAWCOUNT_HEX:
        return &raw_count;
    case PERF_COUNTER_DELTA:
    case PERF_COUNTER_LARGE_DELTA:
        return &delta;
    case PERF_COUNTER_COUNTER:
    case PERF_COUNTER_BULK_COUNT:
    case PERF_SAMPLE_COUNTER:
        return &rate;
    case PERF_COUNTER_QUEUELEN_TYPE:
    case PERF_COUNTER_LARGE_QUEUELEN_TYPE:
    case PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE:
        return &queue_ticks;
    case PERF_COUNTER_100NS_QUEUELEN_TYPE:
        return &queue_100ns;
    case PERF_COUNTER_TIMER:
    case PERF_OBJ_TIME_TIMER:
        return &timer_ticks;
    case PERF_100NSEC_TIMER:
        return &timer_100ns;
    case PERF_COUNTER_TIMER_INV:
        return &timer_inv_ticks;
    case PERF_100NSEC_TIMER_INV:
        return &timer_inv_100ns;
    case PERF_COUNTER_MULTI_TIMER:
        return &multi_ticks;
    case PERF_100NSEC_MULTI_TIMER:
        return &multi_100ns;
    case PERF_COUNTER_MULTI_TIMER_INV:
        return &multi_inv_ticks;
    case PERF_100NSEC_MULTI_TIMER_INV:
        return &multi_inv_100ns;
    case PERF_SAMPLE_FRACTION:
        return &sample_fraction;
    case PERF_RAW_FRACTION:
    case PERF_LARGE_RAW_FRACTION:
        return &raw_fraction;
    case PERF_PRECISION_SYSTEM_TIMER:
    case PERF_PRECISION_100NS_TIMER:
        return &precision_seconds;
    case PERF_PRECISION_OBJECT_TIMER:
        return &precision_ticks;
    case PERF_AVERAGE_TIMER:
        return &average_timer;
    case PERF_AVERAGE_BULK:
        return &average_bulk;
    case PERF_ELAPSED_TIME:
        return &elapsed;
    case PERF_SAMPLE_BASE:
    case PERF_AVERAGE_BASE:
    case PERF_RAW_BASE:
    case PERF_LARGE_RAW_BASE:
    case PERFBUF_WMI_LARGE_RAW_BASE:
    case PERF_COUNTER_MULTI_BASE:
        return &base_row;
    case PERF_COUNTER_TEXT:
        return &text_row;
    case PERF_COUNTER_NODATA:
        return &no_data_row;
    case PERF_COUNTER_HISTOGRAM_TYPE:
        return &histogram_row;
    default:
        return &unknown_row;
    }
}

perfbuf_status perfbuf_openmetrics_map(uint32_t type, perfbuf_openmetrics_mapping *out)
{
    if (out == NULL) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    const mapping_row *row = row_of(type);
    out->type = type;
    out->family_count = row->family_count;
    for (uint32_t k = 0; k < PERFBUF_OPENMETRICS_MAX_FAMILIES; k++) {
        out->families[k] = row->families[k];
    }
    out->promql = row->promql;
    out->reason = row->reason;
    return row->family_count != 0 ? PERFBUF_OK : PERFBUF_E_NOT_FOUND;
}

/* ---- names ---- */

static bool is_ascii_alnum(uint32_t cp)
{
    return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
}

/*
 * A name's lower snake case, one character at a time: ASCII letters
 * lowered and digits, one '_' for every run of anything else between two
 * of them. Read through the cursor, so every step is paid for.
 */
typedef struct snake {
    pb_cursor c;
    bool started; /* a letter or digit was given */
    bool gap;     /* anything else followed it */
    char held;    /* the character a '_' was given in front of */
} snake;

static void snake_begin(snake *s, const char *text, size_t len)
{
    s->c = pb_cursor_make((const uint8_t *)text, text != NULL ? len : 0);
    s->started = false;
    s->gap = false;
    s->held = '\0';
}

static bool snake_next(snake *s, char *out)
{
    if (s->held != '\0') {
        *out = s->held;
        s->held = '\0';
        return true;
    }
    for (;;) {
        uint32_t cp;
        pb_utf8_result r = pb_utf8_decode(&s->c, &cp);
        if (r == PB_UTF8_END) {
            return false; /* a trailing run gives nothing */
        }
        if (r == PB_UTF8_INVALID) {
            (void)pb_cursor_skip(&s->c, 1);
            cp = 0xFFFDu;
        }
        if (!is_ascii_alnum(cp)) {
            s->gap = s->started;
            continue;
        }
        char ch = (char)(cp >= 'A' && cp <= 'Z' ? cp - 'A' + 'a' : cp);
        if (s->gap) {
            s->gap = false;
            s->held = ch;
            *out = '_';
            return true;
        }
        s->started = true;
        *out = ch;
        return true;
    }
}

/* The last characters of a counter's snake case: enough for "_total_sec". */
#define TAIL 10u

typedef struct snake_shape {
    size_t length; /* characters */
    char tail[TAIL];
    size_t tail_length;
} snake_shape;

static void snake_measure(const char *text, size_t len, snake_shape *out)
{
    snake s;
    snake_begin(&s, text, len);
    out->length = 0;
    char ch;
    while (snake_next(&s, &ch)) {
        out->tail[out->length % TAIL] = ch;
        out->length++;
    }
    out->tail_length = out->length < TAIL ? out->length : TAIL;
}

/* Whether the first `length` characters end with `word` (which starts
 * with '_'), with something before it. */
static bool ends_with_word(const snake_shape *shape, size_t length, const char *word, size_t n)
{
    if (length <= n || shape->length - length + n > shape->tail_length) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        size_t at = length - n + i;
        if (shape->tail[at % TAIL] != word[i]) {
            return false;
        }
    }
    return true;
}

/* Whether the counter's first `length` characters are the object's whole
 * snake case, a '_' and more: how many characters that is, else 0. */
static size_t repeated_object(const char *object, size_t object_len, const char *counter,
                              size_t counter_len, size_t length)
{
    snake o;
    snake c;
    snake_begin(&o, object, object_len);
    snake_begin(&c, counter, counter_len);
    size_t matched = 0;
    char a;
    char b;
    while (snake_next(&o, &a)) {
        if (!snake_next(&c, &b) || a != b) {
            return 0;
        }
        matched++;
    }
    if (matched == 0 || matched + 1 >= length || !snake_next(&c, &b) || b != '_') {
        return 0;
    }
    return matched + 1;
}

static void put_ascii(pb_utf8_out *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        PB_WORK(1);
        pb_utf8_put(o, (uint8_t)s[i]);
    }
}

static void put_cstr(pb_utf8_out *o, const char *s)
{
    for (; *s != '\0'; s++) {
        PB_WORK(1);
        pb_utf8_put(o, (uint8_t)*s);
    }
}

static void put_decimal(pb_utf8_out *o, uint64_t v)
{
    char digits[20];
    size_t n = 0;
    do {
        PB_WORK(1);
        digits[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0);
    while (n > 0) {
        pb_utf8_put(o, (uint8_t)digits[--n]);
    }
}

/* Characters [from, to) of a text's snake case. */
static void put_snake(pb_utf8_out *o, const char *text, size_t len, size_t from, size_t to)
{
    snake s;
    snake_begin(&s, text, len);
    char ch;
    for (size_t i = 0; i < to && snake_next(&s, &ch); i++) {
        if (i >= from) {
            pb_utf8_put(o, (uint8_t)ch);
        }
    }
}

static bool is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

static bool is_name_char(char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

/* OpenMetrics' metricname: [a-zA-Z_:][a-zA-Z0-9_:]*. */
static bool is_metric_name(const char *s, size_t n)
{
    if (s == NULL || n == 0 || !is_name_start(s[0])) {
        return false;
    }
    for (size_t i = 1; i < n; i++) {
        PB_WORK(1);
        if (!is_name_char(s[i])) {
            return false;
        }
    }
    return true;
}

perfbuf_status perfbuf_openmetrics_name(const char *prefix, size_t prefix_len, const char *object,
                                        size_t object_len, uint32_t object_index,
                                        const char *counter, size_t counter_len,
                                        uint32_t counter_index, char *out, size_t cap,
                                        size_t *len)
{
    if (len == NULL || (out == NULL && cap != 0) || !is_metric_name(prefix, prefix_len) ||
        (object == NULL && object_len != 0) || (counter == NULL && counter_len != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    snake_shape object_shape;
    snake_shape counter_shape;
    snake_measure(object, object_len, &object_shape);
    snake_measure(counter, counter_len, &counter_shape);
    /* "Context Switches/sec" counts switches; "Bytes Total/sec" bytes. */
    size_t end = counter_shape.length;
    if (ends_with_word(&counter_shape, end, "_sec", 4)) {
        end -= 4;
    }
    if (ends_with_word(&counter_shape, end, "_total", 6)) {
        end -= 6;
    }
    size_t from = repeated_object(object, object_len, counter, counter_len, end);

    pb_utf8_out o;
    pb_utf8_out_init(&o, out, cap);
    put_ascii(&o, prefix, prefix_len);
    pb_utf8_put(&o, '_');
    if (object_shape.length == 0) {
        put_cstr(&o, "object_");
        put_decimal(&o, object_index);
    } else {
        put_snake(&o, object, object_len, 0, object_shape.length);
    }
    pb_utf8_put(&o, '_');
    if (end == 0) {
        put_cstr(&o, "counter_");
        put_decimal(&o, counter_index);
    } else {
        put_snake(&o, counter, counter_len, from, end);
    }
    return pb_utf8_finish(&o, len);
}

const char *perfbuf_openmetrics_unit(const perfbuf_openmetrics_family *family, const char *name,
                                     size_t len)
{
    static const char bytes[] = "_bytes";
    if (family == NULL || family->unit == NULL || family->suffix == NULL) {
        return "";
    }
    if (family->unit[0] != '\0') {
        return family->unit;
    }
    if (family->suffix[0] != '\0' || name == NULL || len < sizeof bytes) {
        return "";
    }
    for (size_t i = 0; i + 1 < sizeof bytes; i++) {
        if (name[len - (sizeof bytes - 1) + i] != bytes[i]) {
            return "";
        }
    }
    return "bytes";
}

/* ---- escaping ---- */

/* What would end a line or reorder the text on a terminal: the C0 and C1
 * controls, DEL, U+061C, U+200E, U+200F, U+2028 to U+202E, U+2066 to
 * U+2069 (the set perfbuf-dump's text output escapes). */
static bool unsafe(uint32_t cp)
{
    return cp < 0x20u || (cp >= 0x7Fu && cp <= 0x9Fu) || cp == 0x061Cu || cp == 0x200Eu ||
           cp == 0x200Fu || (cp >= 0x2028u && cp <= 0x202Eu) || (cp >= 0x2066u && cp <= 0x2069u);
}

/* An escape's two characters, or neither: a cut output never ends in half
 * of one. */
static void put_escape(pb_utf8_out *o, char c)
{
    if (!o->full && o->cap - o->used < 2u) {
        o->full = true;
    }
    pb_utf8_put(o, '\\');
    pb_utf8_put(o, (uint8_t)c);
}

perfbuf_status perfbuf_openmetrics_escape(const char *text, size_t len, char *out, size_t cap,
                                          size_t *out_len)
{
    if (out_len == NULL || (text == NULL && len != 0) || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    pb_cursor c = pb_cursor_make((const uint8_t *)text, text != NULL ? len : 0);
    pb_utf8_out o;
    pb_utf8_out_init(&o, out, cap);
    for (;;) {
        uint32_t cp;
        pb_utf8_result r = pb_utf8_decode(&c, &cp);
        if (r == PB_UTF8_END) {
            break;
        }
        if (r == PB_UTF8_INVALID) {
            (void)pb_cursor_skip(&c, 1);
            cp = 0xFFFDu;
        }
        if (cp == '\\' || cp == '"') {
            put_escape(&o, (char)cp);
        } else if (cp == '\n') {
            put_escape(&o, 'n');
        } else {
            pb_utf8_put(&o, unsafe(cp) ? 0xFFFDu : cp);
        }
    }
    return pb_utf8_finish(&o, out_len);
}

/* ---- numbers ---- */

/* 10 r / f and 10 r mod f for r < f, without a product that overflows:
 * the digit after r / f's point. */
static unsigned next_digit(uint64_t *r, uint64_t f)
{
    PB_WORK(1);
    if (f <= UINT64_MAX / 10u) {
        uint64_t t = *r * 10u;
        *r = t % f;
        return (unsigned)(t / f);
    }
    /* Ten additions of r modulo f, counting the wraps: each sum stays
     * below f, so nothing overflows. */
    uint64_t acc = 0;
    unsigned digit = 0;
    for (unsigned i = 0; i < 10u; i++) {
        if (acc >= f - *r) {
            acc -= f - *r;
            digit++;
        } else {
            acc += *r;
        }
    }
    *r = acc;
    return digit;
}

/* The most significant digits x / f is written with: enough for any
 * double to read back as the nearest one to the quotient (17 would do),
 * and for every 100-ns value (at most 20 digits) to be exact. */
#define SIGNIFICANT 20u

/* Digits of a decimal number and where its point is. digits[0] is a
 * leading '0' that a carry of the rounding can reach, so the carry never
 * runs off the front; it is not written unless it became a '1'. */
typedef struct decimal {
    char digits[64];
    size_t count;
    size_t point; /* digits before the point, the leading one included */
} decimal;

/* x / f in decimal: the integer part, then fraction digits until the
 * quotient is exact or has SIGNIFICANT digits, rounded half up. */
static void quotient(uint64_t x, uint64_t f, decimal *d)
{
    uint64_t q = x / f;
    uint64_t r = x % f;
    char rev[20];
    size_t n = 0;
    do {
        PB_WORK(1);
        rev[n++] = (char)('0' + q % 10u);
        q /= 10u;
    } while (q != 0);
    d->digits[0] = '0';
    d->count = 1;
    while (n > 0) {
        d->digits[d->count++] = rev[--n];
    }
    d->point = d->count;
    size_t significant = d->digits[1] != '0' ? d->count - 1 : 0;
    /* At most 19 zeros follow the point (x / f >= 1 / (2^64 - 1)), then
     * SIGNIFICANT digits: 1 + 20 + 19 + 20 < 64. */
    while (r != 0 && significant < SIGNIFICANT) {
        unsigned digit = next_digit(&r, f);
        d->digits[d->count++] = (char)('0' + digit);
        if (significant > 0 || digit != 0) {
            significant++;
        }
    }
    if (r != 0 && next_digit(&r, f) >= 5u) {
        size_t i = d->count;
        while (d->digits[i - 1] == '9') {
            PB_WORK(1);
            d->digits[--i] = '0';
        }
        d->digits[i - 1]++;
    }
    while (d->count > d->point && d->digits[d->count - 1] == '0') {
        d->count--;
    }
}

static void put_decimal_digits(pb_utf8_out *o, const decimal *d)
{
    for (size_t i = d->digits[0] == '0' ? 1u : 0u; i < d->count; i++) {
        if (i == d->point) {
            pb_utf8_put(o, '.');
        }
        pb_utf8_put(o, (uint8_t)d->digits[i]);
    }
}

/*
 * seconds + fraction / 10^digits, 0 <= fraction < 10^digits, written as
 * a decimal: "-2.75" for seconds -3 and fraction 0.25. Trailing zeros of
 * the fraction are left out, and so is its point when nothing follows.
 */
static void put_fixed(pb_utf8_out *o, int64_t seconds, uint64_t fraction, unsigned digits,
                      uint64_t one)
{
    uint64_t whole;
    if (seconds < 0) {
        pb_utf8_put(o, '-');
        /* -(seconds + 1) cannot overflow; the fraction counts down. */
        whole = (uint64_t)(-(seconds + 1));
        if (fraction == 0) {
            whole++;
        } else {
            fraction = one - fraction;
        }
    } else {
        whole = (uint64_t)seconds;
    }
    put_decimal(o, whole);
    if (fraction == 0) {
        return;
    }
    char text[20];
    for (unsigned i = digits; i > 0; i--) {
        PB_WORK(1);
        text[i - 1] = (char)('0' + fraction % 10u);
        fraction /= 10u;
    }
    unsigned n = digits;
    while (n > 0 && text[n - 1] == '0') {
        n--;
    }
    pb_utf8_put(o, '.');
    for (unsigned i = 0; i < n; i++) {
        pb_utf8_put(o, (uint8_t)text[i]);
    }
}

/* 1601-01-01 to 1970-01-01 in 100-ns units (FILETIME's epoch to Unix'). */
#define UNIX_EPOCH_FILETIME 116444736000000000ull
#define HUNDRED_NS_PER_SECOND 10000000u
#define NS_PER_SECOND 1000000000u
/* A start time further than this from 1970 is not a time: not written. */
#define START_LIMIT ((uint64_t)1 << 62)

/* seconds - e / f (e / f an elapsed time) as whole seconds and
 * nanoseconds, rounded half up to the nanosecond: NOT_FOUND past
 * START_LIMIT. */
static perfbuf_status start_time(int64_t unix_ms, uint64_t e, uint64_t f, int64_t *seconds,
                                 uint64_t *nanos)
{
    uint64_t q = e / f;
    uint64_t r = e % f;
    if (q > START_LIMIT) {
        return PERFBUF_E_NOT_FOUND;
    }
    uint64_t elapsed_ns = 0;
    for (unsigned i = 0; i < 9u; i++) {
        elapsed_ns = elapsed_ns * 10u + next_digit(&r, f);
    }
    if (r != 0 && next_digit(&r, f) >= 5u) {
        elapsed_ns++; /* may reach a whole second: the borrow below takes it */
    }
    /* unix_ms is a SYSTEMTIME's (perfbuf_openmetrics_time), far inside
     * +-2^53, so the differences below cannot overflow. */
    int64_t s0 = unix_ms / 1000;
    int64_t ms = unix_ms % 1000;
    if (ms < 0) {
        ms += 1000;
        s0 -= 1;
    }
    int64_t sec = s0 - (int64_t)q;
    int64_t ns = ms * 1000000 - (int64_t)elapsed_ns;
    while (ns < 0) {
        PB_WORK(1);
        ns += NS_PER_SECOND;
        sec -= 1;
    }
    *seconds = sec;
    *nanos = (uint64_t)ns;
    return PERFBUF_OK;
}

/* A SYSTEMTIME far from 1970 is at most 9e14 ms away. */
#define UNIX_MS_LIMIT ((int64_t)1 << 53)

perfbuf_status perfbuf_openmetrics_value(const perfbuf_openmetrics_sample *sample,
                                         const perfbuf_raw_sample *raw,
                                         const perfbuf_value_context *context, int64_t unix_ms,
                                         char *out, size_t cap, size_t *len)
{
    if (sample == NULL || raw == NULL || context == NULL || len == NULL ||
        (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    uint64_t x;
    switch (sample->source) {
    case PERFBUF_OPENMETRICS_FIRST:
        x = raw->first;
        break;
    case PERFBUF_OPENMETRICS_SECOND:
        x = raw->second;
        break;
    case PERFBUF_OPENMETRICS_MULTI:
        x = raw->multi;
        break;
    default:
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (sample->conversion > PERFBUF_OPENMETRICS_START_TIME ||
        (sample->conversion == PERFBUF_OPENMETRICS_START_TIME &&
         (unix_ms > UNIX_MS_LIMIT || unix_ms < -UNIX_MS_LIMIT))) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (!PERFBUF_CSTATUS_IS_VALID(raw->status)) {
        return PERFBUF_E_NOT_FOUND;
    }
    uint64_t f = context->frequency;
    bool divides = sample->conversion == PERFBUF_OPENMETRICS_SECONDS ||
                   sample->conversion == PERFBUF_OPENMETRICS_WHOLE_SECONDS ||
                   sample->conversion == PERFBUF_OPENMETRICS_FRACTION_SECONDS ||
                   sample->conversion == PERFBUF_OPENMETRICS_START_TIME;
    if (divides && f == 0) {
        return PERFBUF_E_NOT_FOUND;
    }
    /* A 100-ns time before 1970 is -(whole + 1) seconds and the rest up. */
    bool before = x < UNIX_EPOCH_FILETIME;
    uint64_t since = before ? UNIX_EPOCH_FILETIME - x : x - UNIX_EPOCH_FILETIME;
    uint64_t whole = since / HUNDRED_NS_PER_SECOND;
    uint64_t part = since % HUNDRED_NS_PER_SECOND;
    if (before && part != 0) {
        whole++;
        part = HUNDRED_NS_PER_SECOND - part;
    }
    pb_utf8_out o;
    pb_utf8_out_init(&o, out, cap);
    decimal d;
    switch (sample->conversion) {
    case PERFBUF_OPENMETRICS_SECONDS:
        quotient(x, f, &d);
        put_decimal_digits(&o, &d);
        break;
    case PERFBUF_OPENMETRICS_WHOLE_SECONDS:
        put_decimal(&o, x / f);
        break;
    case PERFBUF_OPENMETRICS_FRACTION_SECONDS:
        quotient(x % f, f, &d);
        put_decimal_digits(&o, &d);
        break;
    case PERFBUF_OPENMETRICS_UNIX_WHOLE:
        if (before && whole != 0) {
            pb_utf8_put(&o, '-');
        }
        put_decimal(&o, whole);
        break;
    case PERFBUF_OPENMETRICS_UNIX_FRACTION:
        quotient(part, HUNDRED_NS_PER_SECOND, &d);
        put_decimal_digits(&o, &d);
        break;
    case PERFBUF_OPENMETRICS_START_TIME: {
        /* x is N, the start; second is T, the object's clock now. */
        if (raw->second < x) {
            return PERFBUF_E_NOT_FOUND;
        }
        int64_t seconds;
        uint64_t nanos;
        if (start_time(unix_ms, raw->second - x, f, &seconds, &nanos) != PERFBUF_OK) {
            return PERFBUF_E_NOT_FOUND;
        }
        put_fixed(&o, seconds, nanos, 9u, NS_PER_SECOND);
        break;
    }
    case PERFBUF_OPENMETRICS_AS_IS:
    default:
        put_decimal(&o, x);
        break;
    }
    return pb_utf8_finish(&o, len);
}

/* ---- time ---- */

/* 1601-01-01 to 1970-01-01 in milliseconds. */
#define UNIX_EPOCH_MS 11644473600000

perfbuf_status perfbuf_openmetrics_time(int64_t filetime, int64_t *unix_ms, char *out, size_t cap,
                                        size_t *len)
{
    if (unix_ms == NULL || len == NULL || (out == NULL && cap != 0)) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    if (filetime < 0) {
        return PERFBUF_E_NOT_FOUND;
    }
    /* At most 2^63 / 10^4 ms from 1601: inside +-2^53, the range the start
     * times take (UNIX_MS_LIMIT). */
    int64_t ms = filetime / 10000 - UNIX_EPOCH_MS;
    int64_t seconds = ms / 1000;
    int64_t fraction = ms % 1000;
    if (fraction < 0) {
        fraction += 1000;
        seconds -= 1;
    }
    *unix_ms = ms;
    pb_utf8_out o;
    pb_utf8_out_init(&o, out, cap);
    put_fixed(&o, seconds, (uint64_t)fraction, 3u, 1000u);
    return pb_utf8_finish(&o, len);
}

/* ---- PromQL ---- */

/* A PromQL duration as the expression needs it: a digit, then digits and
 * letters ("90s", "1m30s", "1500ms"); PromQL checks the units. */
static bool is_range(const char *s, size_t n)
{
    if (s == NULL || n == 0 || s[0] < '0' || s[0] > '9') {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        PB_WORK(1);
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'z'))) {
            return false;
        }
    }
    return true;
}

/* Whether the template at p starts with the placeholder. */
static bool at_placeholder(const char *p, const char *placeholder, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] != placeholder[i]) {
            return false;
        }
    }
    return true;
}

perfbuf_status perfbuf_openmetrics_promql(const perfbuf_openmetrics_mapping *mapping,
                                          const char *name, size_t name_len, const char *range,
                                          size_t range_len, int32_t scale, char *out, size_t cap,
                                          size_t *len)
{
    if (mapping == NULL || len == NULL || (out == NULL && cap != 0) ||
        mapping->family_count == 0 || mapping->promql == NULL ||
        !is_metric_name(name, name_len) || !is_range(range, range_len) ||
        scale < PERFBUF_MIN_SCALE || scale > PERFBUF_MAX_SCALE) {
        return PERFBUF_E_INVALID_ARGUMENT;
    }
    pb_utf8_out o;
    pb_utf8_out_init(&o, out, cap);
    /* The template is the caller's struct's: a string this file wrote,
     * but read as any text, character by character up to its NUL. */
    for (const char *p = mapping->promql; *p != '\0';) {
        PB_WORK(1);
        if (at_placeholder(p, "<name>", 6)) {
            put_ascii(&o, name, name_len);
            p += 6;
        } else if (at_placeholder(p, "<range>", 7)) {
            put_ascii(&o, range, range_len);
            p += 7;
        } else if (at_placeholder(p, "<scale>", 7)) {
            if (scale != 0) {
                put_cstr(&o, " * 1e");
                if (scale < 0) {
                    pb_utf8_put(&o, '-');
                }
                put_decimal(&o, (uint64_t)(scale < 0 ? -(int64_t)scale : scale));
            }
            p += 7;
        } else {
            pb_utf8_put(&o, (uint8_t)*p);
            p++;
        }
    }
    return pb_utf8_finish(&o, len);
}
