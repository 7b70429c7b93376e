# SPDX-License-Identifier: MIT OR Apache-2.0
"""perfbuf.openmetrics and python -m perfbuf --openmetrics (docs/prometheus.md).

The text is perfbuf-dump --openmetrics's, byte for byte, with the same exit
status, over the bundled captures and the options; the numbers the library
writes are checked against exact rational arithmetic here (Fraction), the
escapes against their inverse, and every counter type has its row.
"""
import contextlib
import ctypes
import io
import random
import subprocess
from fractions import Fraction

import pytest

import perfbuf
from perfbuf import _dump
from perfbuf import _native as N
from conftest import CAPTURES

SER = CAPTURES / "series"
DOC = CAPTURES / "documented"
SYN = CAPTURES / "synthetic"
OM = CAPTURES / "openmetrics"
WINE = CAPTURES / "wine-8.0"
SERIES = [str(SER / ("v1-series-%d.bin" % k)) for k in range(4)]
SER_NAMES = ["--names", str(SER / "v1-names-series-counter-009.bin")]
V2 = ["--registration", str(DOC / "v2-reginfo-documented-processor-information.bin"),
      "--counter-names", str(DOC / "v2-names-documented-processor-information.bin")]
OM_NAMES = ["--names", str(OM / "v1-names-openmetrics-counter-009.bin"),
            "--help-names", str(OM / "v1-names-openmetrics-help-009.bin")]

RUNS = {
    "series": SER_NAMES + ["--series"] + SERIES[:3] + ["--", SERIES[3]],
    "series, --counter": SER_NAMES + ["--counter", r"\Process(svchost*)\% Processor Time",
                                      "--counter", r"\Thread(*/*)\ID Thread",
                                      "--series"] + SERIES[:3] + ["--", SERIES[3]],
    "one capture, --no-timestamps, --metric-prefix": SER_NAMES + [
        "--no-timestamps", "--metric-prefix", "perf:x", SERIES[2]],
    "documented V1": ["--names", str(DOC / "v1-names-documented-counter-009.bin"), "--rate",
                      str(DOC / "v1-documented-global-0.bin"),
                      str(DOC / "v1-documented-global-1.bin")],
    "documented V2": V2 + ["--rate", str(DOC / "v2-query-documented-processor-information-0.bin"),
                           str(DOC / "v2-query-documented-processor-information-1.bin")],
    "synthetic": ["--names", str(SYN / "v1-names-synthetic-counter-009.bin"), "--rate",
                  str(SYN / "v1-synthetic-processor-0.bin"),
                  str(SYN / "v1-synthetic-processor-1.bin")],
    "every type, hostile names": OM_NAMES + ["--rate", str(OM / "v1-openmetrics-0.bin"),
                                             str(OM / "v1-openmetrics-1.bin")],
    "every type, English names": ["--english-names",
                                  str(OM / "v1-names-openmetrics-counter-009.bin"),
                                  str(OM / "v1-openmetrics-1.bin")],
    "no names": [str(OM / "v1-openmetrics-0.bin")],
    "wine": ["--names", str(WINE / "v1-names-counter-009.bin"), "--help-names",
             str(WINE / "v1-names-help-009.bin"), str(WINE / "v1-global.bin")],
    "a path that matches nothing": SER_NAMES + ["--counter", r"\Nothing\x", SERIES[0]],
    "times out of order": SER_NAMES + ["--rate", SERIES[1], SERIES[0]],
    "V2 without a registration": [str(DOC / "v2-query-documented-processor-information-0.bin")],
    "--no-timestamps of a pair": ["--no-timestamps", "--rate", SERIES[0], SERIES[1]],
}


def _python(args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = _dump.main(["--openmetrics"] + args)
    return rc, out.getvalue().encode("utf-8")


def _tool(dump_tool, args):
    p = subprocess.run([str(dump_tool), "--openmetrics"] + args, capture_output=True)
    return p.returncode, p.stdout


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_text_is_perfbuf_dumps(dump_tool, name):
    mine, theirs = _python(RUNS[name]), _tool(dump_tool, RUNS[name])
    assert mine == theirs
    if theirs[0] == 0:
        assert theirs[1].endswith(b"# EOF\n")


def test_the_function_gives_the_same_text(dump_tool):
    captures = [(OM / ("v1-openmetrics-%d.bin" % k)).read_bytes() for k in range(2)]
    text = perfbuf.openmetrics(
        captures, names=(OM / "v1-names-openmetrics-counter-009.bin").read_bytes(),
        help_names=(OM / "v1-names-openmetrics-help-009.bin").read_bytes())
    assert text.encode("utf-8") == _tool(dump_tool, RUNS["every type, hostile names"])[1]
    with pytest.raises(perfbuf.OpenMetricsError) as e:
        perfbuf.openmetrics(captures[::-1])
    assert e.value.status == 1 and "not after" in str(e.value)


# ---- every type's row ----

DISPLAYABLE = (0x10410400, 0x20410500, 0x00450400, 0x00450500, 0x00550500, 0x00650500,
               0x10410500, 0x00010000, 0x00010100, 0x00000000, 0x00000100, 0x20C20400,
               0x00410400, 0x21410500, 0x30020400, 0x40020500, 0x20610500, 0x20510500,
               0x21510500, 0x22410500, 0x23410500, 0x22510500, 0x23510500, 0x20020400,
               0x20020500, 0x30240500, 0x00400400, 0x00400500, 0x20470500, 0x20570500,
               0x20670500)
NOT_EXPORTED = (0x40030401, 0x40030402, 0x40030403, 0x40030500, 0x40030503, 0x42030500,
                0x00000B00, 0x40000200, 0x80000000, 0x00012000)


def test_every_type_has_its_row():
    for t in DISPLAYABLE:
        assert N.counter_type_is_displayable(t)
        m = perfbuf.openmetrics_mapping(t)
        assert m["families"] and m["promql"] and not m["reason"], hex(t)
        assert perfbuf.openmetrics_promql(t, "x", "90s").count("x") >= 1
    for t in NOT_EXPORTED:
        m = perfbuf.openmetrics_mapping(t)
        assert not m["families"] and not m["promql"] and m["reason"], hex(t)
        with pytest.raises(perfbuf.PerfbufError):
            perfbuf.openmetrics_promql(t, "x", "90s")


# ---- numbers, against exact fractions ----

def _decimal(value, max_significant=20):
    """A non-negative Fraction as the library writes it: exact, or rounded
    half up to 20 significant digits; no trailing zeros."""
    if value == 0:
        return "0"
    whole = value.numerator // value.denominator
    if whole > 0:
        places = max(0, max_significant - len(str(whole)))
    else:
        places = 0
        while value * 10 ** (places + 1) < 1:
            places += 1
        places += max_significant
    scaled, rest = divmod(value.numerator * 10 ** places, value.denominator)
    if 2 * rest >= value.denominator:
        scaled += 1
    text = str(scaled).rjust(places + 1, "0")
    text = text[:len(text) - places] + ("." + text[len(text) - places:] if places else "")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _value(conversion, x, frequency, unix_ms=0, second=0):
    sample = N.OpenMetricsSample(b"", 1, conversion)
    raw = N.RawSample(0, 0, x, second, 0, 0)
    ctx = N.ValueContext(frequency, 0)
    out = ctypes.create_string_buffer(64)
    length = ctypes.c_size_t(0)
    st = N.openmetrics_value(ctypes.byref(sample), ctypes.byref(raw), ctypes.byref(ctx),
                             unix_ms, out, 64, ctypes.byref(length))
    return out.raw[:length.value].decode() if st == 0 else None


SECONDS, WHOLE, FRACTION, UNIX_WHOLE, UNIX_FRACTION, START = 1, 2, 3, 4, 5, 6
EPOCH = 116444736000000000


def test_numbers_are_the_exact_quotients():
    rng = random.Random(37)
    for _ in range(4000):
        x = rng.choice([rng.randrange(1 << 64), rng.randrange(1 << 32), rng.randrange(1000)])
        f = rng.choice([rng.randrange(1, 1 << 64), rng.randrange(1, 1 << 24), 10 ** 7, 3, 7])
        assert _value(SECONDS, x, f) == _decimal(Fraction(x, f)), (x, f)
        assert _value(WHOLE, x, f) == str(x // f), (x, f)
        assert _value(FRACTION, x, f) == _decimal(Fraction(x % f, f)), (x, f)
        t = Fraction(x - EPOCH, 10 ** 7)
        whole = t.numerator // t.denominator
        assert _value(UNIX_WHOLE, x, 0) == str(whole), x
        assert _value(UNIX_FRACTION, x, 0) == _decimal(t - whole), x
        # whole + fraction is the time exactly, for the sums PromQL takes.
        assert Fraction(_value(UNIX_WHOLE, x, 0)) + Fraction(_value(UNIX_FRACTION, x, 0)) == t
    assert _value(SECONDS, 5, 0) is None and _value(FRACTION, 5, 0) is None


def test_start_times_are_rounded_to_the_nanosecond():
    rng = random.Random(38)
    for _ in range(2000):
        f = rng.choice([10 ** 7, 3, rng.randrange(1, 1 << 40)])
        n = rng.randrange(1 << 62)
        t = n + rng.randrange(1 << rng.choice([8, 30, 60]))
        unix_ms = rng.randrange(-(1 << 52), 1 << 52)
        got = _value(START, n, f, unix_ms, t)
        elapsed = Fraction(t - n, f)
        if elapsed.numerator // elapsed.denominator > 1 << 62:
            assert got is None
            continue
        # The elapsed time to the nanosecond, half up, then subtracted.
        ns, rest = divmod((t - n) * 10 ** 9, f)
        ns += 2 * rest >= f
        want = Fraction(unix_ms, 1000) - Fraction(ns, 10 ** 9)
        assert Fraction(got) == want, (n, t, f, unix_ms, got)
    assert _value(START, 5, 1, 0, 4) is None  # T < N


# ---- escapes ----

def _unsafe(ch):
    cp = ord(ch)
    return (cp < 0x20 or 0x7F <= cp <= 0x9F or cp in (0x061C, 0x200E, 0x200F)
            or 0x2028 <= cp <= 0x202E or 0x2066 <= cp <= 0x2069)


def _unescape(text):
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\":
            out.append({"\\": "\\", '"': '"', "n": "\n"}[text[i + 1]])
            i += 2
        else:
            assert text[i] not in '"\n' and not _unsafe(text[i])
            out.append(text[i])
            i += 1
    return "".join(out)


def test_escapes_undo_to_the_text_with_unsafe_characters_replaced():
    rng = random.Random(39)
    alphabet = ['a', '"', '\\', '\n', '\r', '\0', '\x1b', '\x7f', '\x85', '\u2028', '\u202e',
                '\u2066', '\u061c', '\u20ac', '\U0001f600', '{', '}', '=', ',', '#']
    for _ in range(2000):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randrange(12)))
        want = "".join("\ufffd" if _unsafe(c) and c != "\n" else c for c in s)
        assert _unescape(perfbuf.openmetrics_escape(s)) == want
    # Bytes that are not UTF-8 become U+FFFD too.
    assert perfbuf.openmetrics_escape(b"a\xffb\xc3") == "a\ufffdb\ufffd"
