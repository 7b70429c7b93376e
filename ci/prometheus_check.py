# SPDX-License-Identifier: MIT OR Apache-2.0
"""perfbuf-dump --openmetrics read by a real engine (docs/prometheus.md).

1. Every bundled capture, and the pairs and series, written with
   --openmetrics: each text passes the structure check below (families not
   interleaved, a series' samples together and in time order, sample names
   the family's, units ending the name, labels and escapes of the format)
   and is parsed by promtool's OpenMetrics reader
   (`promtool tsdb create-blocks-from openmetrics`); each capture's text
   without timestamps, as a textfile collector takes it, by its Prometheus
   text-format reader (`promtool check metrics`, naming lints allowed).
2. The series captures, the documented pairs (V1 and V2), the synthetic
   pair and the pair of every counter type with hostile names
   (corpus/captures/openmetrics/) loaded into one TSDB with promtool; a
   Prometheus server on 127.0.0.1 opens it; for every exported counter of
   every pair of consecutive captures, the mapping's PromQL expression
   (perfbuf.openmetrics_promql, the library's) is evaluated at the newer
   capture's time over the HTTP API and compared with what
   `perfbuf-dump --json --rate OLDER NEWER` formats:
     - every instance perfbuf-dump gives a value has one result with the
       labels the writer documents (machine, parent, instance_name,
       unique_id, instance_id; computed here from the JSON, unsafe
       characters replaced as docs/prometheus.md says), and the two differ
       by at most one unit of the last digit --rate prints: it prints six
       decimals ("%.6f"), so 1e-6;
     - no result is left over: where perfbuf-dump gives a status (a first
       sample, a reset, a capped timer's negative complement), PromQL gives
       nothing.
The server is started and stopped here (and dies with this process).

    prometheus_check.py --dump PERFBUF_DUMP
The perfbuf package must import (PYTHONPATH, PERFBUF_LIBRARY).
"""
import argparse
import ctypes
import json
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

import perfbuf

RANGE = "1500ms"          # the captures are 1 s apart: the last two samples, no more
TOLERANCE = 1e-6          # one unit of the sixth decimal, the last --rate prints
CAPTURES = "corpus/captures"
largest = [0.0, 0.0]      # the largest difference seen, and the largest value


def fail(text):
    sys.stderr.write("prometheus-check: FAIL: %s\n" % text)
    sys.exit(1)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, **kw)
    if r.returncode != 0:
        fail("%s exited %d: %s" % (" ".join(map(str, cmd)), r.returncode,
                                   r.stderr.decode("utf-8", "replace")[-2000:]))
    return r.stdout


# ---- the structure of the text ----

LABEL_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
METRIC_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
SUFFIXES = {"counter": ("_total",), "gauge": ("",), "summary": ("_sum", "_count")}


def unsafe(ch):
    cp = ord(ch)
    return (cp < 0x20 or 0x7F <= cp <= 0x9F or cp in (0x061C, 0x200E, 0x200F)
            or 0x2028 <= cp <= 0x202E or 0x2066 <= cp <= 0x2069)


def parse_escaped(s, i, end_char):
    """The text of an escaped string from s[i] to end_char, and where it ends."""
    out = []
    while i < len(s) and s[i] != end_char:
        ch = s[i]
        if ch == "\\":
            nxt = s[i + 1] if i + 1 < len(s) else ""
            if nxt not in ('\\', '"', 'n'):
                fail("an escape \\%s" % nxt)
            out.append("\n" if nxt == "n" else nxt)
            i += 2
            continue
        if ch == '"' or unsafe(ch):
            fail("a raw %r in a quoted or help text" % ch)
        out.append(ch)
        i += 1
    return "".join(out), i


def parse_sample(line):
    m = METRIC_NAME.match(line)
    if not m:
        fail("a sample line without a name: %r" % line)
    name, i, labels = m.group(0), m.end(), {}
    if i < len(line) and line[i] == "{":
        i += 1
        while line[i] != "}":
            lm = LABEL_NAME.match(line, i)
            if not lm or line[lm.end():lm.end() + 2] != '="':
                fail("a label in %r" % line)
            value, j = parse_escaped(line, lm.end() + 2, '"')
            if lm.group(0) in labels:
                fail("a label twice in %r" % line)
            labels[lm.group(0)] = value
            i = j + 1
            if line[i] == ",":
                i += 1
        i += 1
    rest = line[i:].split(" ")
    if rest[0] != "" or len(rest) not in (2, 3):
        fail("a sample's value and timestamp in %r" % line)
    float(rest[1])
    ts = float(rest[2]) if len(rest) == 3 else None
    return name, labels, float(rest[1]), ts


def check_structure(text, what):
    """OpenMetrics 1.0's rules this writer must keep, checked line by line."""
    if not text.endswith("# EOF\n") or text.count("# EOF") != 1:
        fail("%s: the text does not end with its one # EOF" % what)
    families = {}     # name -> type
    done = set()      # families whose lines are over
    current = None
    series_seen = set()
    last_series = None
    last_time = {}
    for line in text[:-len("# EOF\n")].split("\n")[:-1]:
        if line.startswith("# "):
            kind, name, rest = (line[2:].split(" ", 2) + [""])[:3]
            if kind not in ("TYPE", "UNIT", "HELP") or not METRIC_NAME.fullmatch(name):
                fail("%s: a metadata line %r" % (what, line))
            if name != current:
                if name in done or name in families:
                    fail("%s: family %s interleaved" % (what, name))
                if current is not None:
                    done.add(current)
                current = name
            if kind == "TYPE":
                if rest not in SUFFIXES:
                    fail("%s: type %r" % (what, rest))
                families[name] = rest
            elif kind == "UNIT" and not name.endswith("_" + rest):
                fail("%s: unit %s does not end %s" % (what, rest, name))
            elif kind == "HELP":
                parse_escaped(rest, 0, "\0")
            continue
        name, labels, _, ts = parse_sample(line)
        if current not in families or not any(name == current + s
                                              for s in SUFFIXES[families[current]]):
            fail("%s: sample %s outside its family %s" % (what, name, current))
        key = (current, tuple(sorted(labels.items())))
        if key != last_series and key in series_seen:
            fail("%s: series %s interleaved" % (what, key))
        series_seen.add(key)
        last_series = key
        point = (name, key)
        if ts is not None and point in last_time and ts <= last_time[point]:
            fail("%s: %s's timestamps do not increase" % (what, name))
        if ts is not None:
            last_time[point] = ts


def text_format_reads(text, what):
    """promtool check metrics parses the Prometheus text format, which a
    textfile collector reads: the --no-timestamps text must parse (its exit
    status 3 is a naming lint, not a parse error)."""
    r = subprocess.run(["promtool", "check", "metrics"], input=text.encode("utf-8"),
                       capture_output=True)
    said = (r.stdout + r.stderr).decode("utf-8", "replace")
    if r.returncode not in (0, 3) or "error" in said:
        fail("%s: promtool check metrics: exit %d: %s" % (what, r.returncode, said[-500:]))


def promtool_reads(path, work):
    out = os.path.join(work, "promtool-check")
    shutil.rmtree(out, ignore_errors=True)
    run(["promtool", "tsdb", "create-blocks-from", "openmetrics", path, out])


# ---- what perfbuf-dump --rate gives, keyed as the labels ----

def help_name(text):
    """A name as help text gives it: its double quotes single (docs/prometheus.md)."""
    return text.replace('"', "'") if text is not None else None


def label_value(text):
    return "".join("\ufffd" if unsafe(ch) and ch != "\n" else ch for ch in text)


def cut(parent):
    """A parent's name as labels keep it: its whole characters within 3,072
    bytes of UTF-8 (PERFBUF_ARRAY_PARENT_MAX_BYTES)."""
    raw = parent.encode("utf-8")
    while len(raw) > 3072:
        parent = parent[:-1]
        raw = parent.encode("utf-8")
    return parent


def fold(text):
    return "".join(ch.lower() if "A" <= ch <= "Z" else ch for ch in text)


def expected_v1(doc, helps):
    """{(base name, type, scale): {labels: value or None}} of a V1 --rate document."""
    out = {}
    machine = doc.get("system_name") or ""
    seen_titles = set()
    for o in doc["objects"]:
        title = o["object_name_title_index"]
        if title in seen_titles:
            continue  # a later object of a repeated title is no series
        seen_titles.add(title)
        counters = o["counters"]
        rows = []
        if "instances" in o:
            keys = {}
            for inst in o["instances"]:
                full, own = inst["full_name"], inst["name"]
                labels = {"machine": machine} if machine else {}
                name = own
                if len(full) > len(own) + 1 and full.endswith("/" + own):
                    labels["parent"] = cut(full[:len(full) - len(own) - 1])
                    name = labels["parent"] + "/" + own
                if inst["unique_id"] != -1:
                    labels["instance_name"] = name
                    labels["unique_id"] = str(inst["unique_id"])
                else:
                    n = keys.get(fold(full), 0)
                    keys[fold(full)] = n + 1
                    labels["instance_name"] = name + ("#%d" % n if n else "")
                rows.append((labels, inst.get("formatted", [])))
        elif "formatted" in o:
            rows.append(({"machine": machine} if machine else {}, o["formatted"]))
        for d, c in enumerate(counters):
            if not perfbuf.openmetrics_mapping(c["counter_type"])["families"]:
                continue
            key = helps.get((help_name(o.get("name")), help_name(c.get("name")),
                             c["counter_type_name"]))
            if key is None:
                fail("no family names \\%s\\%s" % (o.get("name"), c.get("name")))
            values = out.setdefault((key, c["counter_type"], c["default_scale"]), {})
            for labels, formatted in rows:
                lab = tuple(sorted((k, label_value(v)) for k, v in labels.items()))
                text = formatted[d] if d < len(formatted) else None
                values[lab] = float(text) if text and text[0] in "-0123456789" else None
    return out


def expected_v2(doc, helps, registration):
    reg = perfbuf.V2Registration(registration)
    names = dict((n["counter_id"], n["name"]) for n in doc.get("counter_names", []))
    out = {}
    for b in doc["blocks"]:
        keys = {}
        for inst in b.get("instances", []):
            k = (inst["instance_id"], fold(inst["name"]))
            n = keys.get(k, 0)
            keys[k] = n + 1
            labels = (("instance_id", str(inst["instance_id"])),
                      ("instance_name", label_value(inst["name"] + ("#%d" % n if n else ""))))
            for v in inst["values"]:
                if "formatted" not in v:
                    continue
                c = reg.find(v["counter_id"])
                name = names.get(v["counter_id"])
                key = helps.get((reg.counterset, help_name(name) if name else str(v["counter_id"]),
                                 v["counter_type_name"]))
                if key is None:
                    fail("no family names counter %d" % v["counter_id"])
                text = v["formatted"]
                out.setdefault((key, c.type, c.default_scale), {})[labels] = (
                    float(text) if text[0] in "-0123456789" else None)
    return out


# The counter types PDH formats, by name (winperf.h's values).
DISPLAYABLE = (0x10410400, 0x20410500, 0x00450400, 0x00450500, 0x00550500, 0x00650500,
               0x10410500, 0x00010000, 0x00010100, 0x00000000, 0x00000100, 0x20C20400,
               0x00410400, 0x21410500, 0x30020400, 0x40020500, 0x20610500, 0x20510500,
               0x21510500, 0x22410500, 0x23410500, 0x22510500, 0x23510500, 0x20020400,
               0x20020500, 0x30240500, 0x00400400, 0x00400500, 0x20470500, 0x20570500,
               0x20670500)


def type_values():
    from perfbuf import _native as N
    return {N.counter_type_name(t).decode(): t for t in DISPLAYABLE}


HELP_TEXT = re.compile(r"(.*?)\\(.*?)\\(.*) \((PERF_[A-Z0-9_]+)\)", re.S)


def value_families(text):
    """{(object, counter, type name): metric name} from the help of each
    counter's first family ("\\Object\\Counter (TYPE)" after its role)."""
    types = type_values()
    out = {}
    for line in text.split("\n"):
        if not line.startswith("# HELP "):
            continue
        family, rest = line[7:].split(" ", 1)
        m = HELP_TEXT.match(parse_escaped(rest, 0, "\0")[0])
        if not m or m.group(4) not in types:
            fail("a help text that names no counter: %r" % line)
        first = perfbuf.openmetrics_mapping(types[m.group(4)])["families"][0]
        if m.group(1) != first["role"] or not family.endswith(first["suffix"]):
            continue  # a counter's other family
        base = family[:len(family) - len(first["suffix"])] if first["suffix"] else family
        key = (m.group(2), m.group(3), m.group(4))
        if out.get(key, base) != base:
            fail("two counters named \\%s\\%s" % key[:2])
        out[key] = base
    return out


# ---- the server ----

def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def die_with_parent():
    """The server gets SIGTERM when this process dies, however it dies."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Server:
    def __init__(self, data, work):
        config = os.path.join(work, "prometheus.yml")
        with open(config, "w") as f:
            f.write("global: {}\n")
        self.log = open(os.path.join(work, "prometheus.log"), "wb")
        for _ in range(3):
            self.port = free_port()
            # Backfilled samples have no staleness markers: a lookback
            # shorter than the captures' spacing leaves an instance that
            # exited without a value, as a scrape's markers would.
            self.proc = subprocess.Popen(
                ["prometheus", "--config.file=" + config, "--storage.tsdb.path=" + data,
                 "--storage.tsdb.retention.time=100y", "--query.lookback-delta=500ms",
                 "--web.listen-address=127.0.0.1:%d" % self.port],
                stdout=self.log, stderr=subprocess.STDOUT, preexec_fn=die_with_parent)
            if self.wait_ready():
                return
            self.stop()
        fail("prometheus did not start (see %s)" % self.log.name)

    def wait_ready(self):
        for _ in range(300):
            if self.proc.poll() is not None:
                return False
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/-/ready" % self.port,
                                            timeout=2) as r:
                    if r.status == 200:
                        return True
            except OSError:
                pass
            time.sleep(0.1)
        return False

    def query(self, expr, at):
        body = urllib.parse.urlencode({"query": expr, "time": "%.3f" % at}).encode()
        with urllib.request.urlopen("http://127.0.0.1:%d/api/v1/query" % self.port, body,
                                    timeout=30) as r:
            doc = json.load(r)
        if doc["status"] != "success" or doc["data"]["resultType"] != "vector":
            fail("query %s: %s" % (expr, doc))
        return doc["data"]["result"]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# ---- the runs ----

def dump_text(dump, args):
    return run([dump, "--openmetrics"] + args).decode("utf-8")


def compare(server, expected, machine_of, at, what):
    """Every expected value has its result; no result of this set is left over."""
    checked = 0
    for (base, ctype, scale), values in sorted(expected.items()):
        expr = perfbuf.openmetrics_promql(ctype, base, RANGE, scale)
        got = {}
        for r in server.query(expr, at):
            labels = dict(r["metric"])
            labels.pop("__name__", None)
            if labels.get("machine") != machine_of:
                continue  # another set's series, checked at its own times
            got[tuple(sorted(labels.items()))] = float(r["value"][1])
        for labels, value in values.items():
            if value is None:
                if labels in got:
                    fail("%s: %s %s: PromQL gives %r where perfbuf-dump gives none"
                         % (what, expr, dict(labels), got[labels]))
                continue
            if labels not in got:
                fail("%s: %s %s: perfbuf-dump gives %r, PromQL nothing"
                     % (what, expr, dict(labels), value))
            if not math.isfinite(got[labels]) or abs(got[labels] - value) > TOLERANCE:
                fail("%s: %s %s: PromQL %r, perfbuf-dump %r" % (what, expr, dict(labels),
                                                               got[labels], value))
            largest[0] = max(largest[0], abs(got[labels] - value))
            largest[1] = max(largest[1], abs(value))
            checked += 1
        extra = set(got) - set(values)
        if extra:
            fail("%s: %s: results perfbuf-dump has no instance for: %s" % (what, expr, extra))
    return checked


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dump", required=True)
    args = ap.parse_args()
    started = time.time()
    work = tempfile.mkdtemp(prefix="perfbuf-prometheus-")
    server = None
    try:
        doc, syn, ser, wine, types = (os.path.join(CAPTURES, f) for f in
                                    ("documented", "synthetic", "series", "wine-8.0",
                                     "openmetrics"))
        v2 = ["--registration", doc + "/v2-reginfo-documented-processor-information.bin",
              "--counter-names", doc + "/v2-names-documented-processor-information.bin"]
        names = {doc: ["--names", doc + "/v1-names-documented-counter-009.bin"],
                 syn: ["--names", syn + "/v1-names-synthetic-counter-009.bin"],
                 ser: ["--names", ser + "/v1-names-series-counter-009.bin"],
                 wine: ["--names", wine + "/v1-names-counter-009.bin",
                        "--help-names", wine + "/v1-names-help-009.bin"],
                 types: ["--names", types + "/v1-names-openmetrics-counter-009.bin",
                       "--help-names", types + "/v1-names-openmetrics-help-009.bin"]}
        # Every bundled capture alone (the V2 ones with the documented
        # registration, the only one bundled).
        singles = []
        for folder in (doc, syn, ser, wine, types):
            for f in sorted(os.listdir(folder)):
                if f.startswith("v1-names-") or f.startswith("v2-names-") or \
                        f.startswith("v2-reginfo-") or \
                        f.startswith("v2-counterset-name-") or not f.endswith(".bin"):
                    continue
                path = os.path.join(folder, f)
                extra = v2 if f.startswith("v2-query-") else names[folder]
                singles.append((path, extra + [path]))
        # The sets whose PromQL is compared: (name, machine label, the
        # captures oldest first, the side options).
        series = [ser + "/v1-series-%d.bin" % k for k in range(4)]
        sets = [("series", "SERIES", series, names[ser]),
                ("documented V1", "DOCUMENTED",
                 [doc + "/v1-documented-global-%d.bin" % k for k in range(2)], names[doc]),
                ("documented V2", None,
                 [doc + "/v2-query-documented-processor-information-%d.bin" % k
                  for k in range(2)], v2),
                ("synthetic", "SYNTHETIC",
                 [syn + "/v1-synthetic-processor-%d.bin" % k for k in range(2)], names[syn]),
                ("every type", 'HOST "q"\\x',
                 [types + "/v1-openmetrics-%d.bin" % k for k in range(2)], names[types])]
        for what, argv in singles:
            text = dump_text(args.dump, argv)
            check_structure(text, what)
            path = os.path.join(work, "single.om")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            promtool_reads(path, work)
            text_format_reads(dump_text(args.dump, ["--no-timestamps"] + argv), what)
        data = os.path.join(work, "data")
        loaded = []
        for what, machine, captures, side in sets:
            argv = side + (["--series"] + captures[:-1] + ["--", captures[-1]]
                           if len(captures) > 2 else ["--rate", captures[0], captures[1]])
            text = dump_text(args.dump, argv)
            check_structure(text, what)
            path = os.path.join(work, "set-%d.om" % len(loaded))
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            run(["promtool", "tsdb", "create-blocks-from", "openmetrics", path, data])
            loaded.append((what, machine, captures, side, text))
        server = Server(data, work)
        checked = 0
        for what, machine, captures, side, text in loaded:
            helps = value_families(text)
            # --help-names is --openmetrics's alone.
            json_side = [a for i, a in enumerate(side)
                         if a != "--help-names" and (i == 0 or side[i - 1] != "--help-names")]
            for k in range(1, len(captures)):
                doc_json = json.loads(run([args.dump, "--json"] + json_side +
                                          ["--rate", captures[k - 1], captures[k]]))
                at = capture_time(doc_json)
                if machine is None:
                    registration = open(side[1], "rb").read()
                    expected = expected_v2(doc_json, helps, registration)
                else:
                    expected = expected_v1(doc_json, helps)
                checked += compare(server, expected, machine, at,
                                   "%s, capture %d" % (what, k))
        print("prometheus-check: promtool read %d captures' texts (OpenMetrics, and without "
              "timestamps the text format) and %d sets'; %d values of those sets equal "
              "perfbuf-dump --rate's within %g (largest difference %.3g, largest value %.6g) "
              "through Prometheus %s; %.1f s"
              % (len(singles), len(loaded), checked, TOLERANCE, largest[0], largest[1],
                 prometheus_version(), time.time() - started))
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)


def capture_time(doc):
    """The newer capture's time in seconds: PerfTime100nSec to the millisecond,
    as the samples are stamped."""
    ft = doc["perf_time_100ns"]
    return (ft // 10000 - 11644473600000) / 1000.0


def prometheus_version():
    out = subprocess.run(["prometheus", "--version"], capture_output=True, text=True)
    m = re.search(r"version (\S+)", out.stdout + out.stderr)
    return m.group(1) if m else "?"


if __name__ == "__main__":
    main()
