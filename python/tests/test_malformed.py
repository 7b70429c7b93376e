# SPDX-License-Identifier: MIT OR Apache-2.0
"""Every fuzz input perfbuf-dump rejects raises PerfbufError at the same place.

The exception carries the offset, structure, field and status perfbuf-dump
reports in its JSON error object, and str() is the line it prints on stderr
after the file's name (and, for a rejected size, count or offset, the two
numbers compared).
"""
import json
import subprocess

import perfbuf
from perfbuf import _dump
from conftest import FUZZ_FILES

PARSERS = {"v1": perfbuf.parse_v1, "v1-names": perfbuf.parse_names,
           "v2-query": perfbuf.parse_v2_query}


def _stderr_line(path, e):
    """The line perfbuf-dump prints for a rejection of the file at path."""
    return "%s: %s%s\n" % (path, e, _dump._sizes_compared(e))


def test_rejections_carry_perfbuf_dumps_location(dump_tool):
    checked = 0
    for path in FUZZ_FILES:
        data = path.read_bytes()
        fmt = _dump._detect(data)
        if fmt not in PARSERS:
            continue
        p = subprocess.run([str(dump_tool), "--json", str(path)], capture_output=True)
        if p.returncode != 1:
            continue
        want = json.loads(p.stdout)["error"]
        try:
            PARSERS[fmt](data)
        except perfbuf.PerfbufError as e:
            got = {"offset": e.offset, "structure": e.structure, "field": e.field,
                   "status": e.status_name, "message": e.reason}
            if e.declared or e.limit:
                got.update(declared=e.declared, limit=e.limit)
            assert got == want, path
            assert _stderr_line(path, e) == p.stderr.decode(), path
            checked += 1
        else:
            raise AssertionError("%s: perfbuf-dump rejects it, parse_%s accepted it"
                                 % (path, fmt))
    print("rejections checked: %d" % checked)
    assert checked > 10


def test_strict_rejects_what_lenient_reports_as_an_anomaly(dump_tool):
    """A buffer with anomalies: lenient lists them, strict raises at the first one."""
    seen = 0
    for path in FUZZ_FILES:
        data = path.read_bytes()
        if _dump._detect(data) != "v1":
            continue
        try:
            cap = perfbuf.parse_v1(data)
        except perfbuf.PerfbufError:
            continue
        if not cap.anomalies:
            continue
        p = subprocess.run([str(dump_tool), "--json", "--strict", str(path)],
                           capture_output=True)
        try:
            perfbuf.parse_v1(data, strict=True)
            assert p.returncode == 0, path
        except perfbuf.PerfbufError as e:
            assert p.returncode == 1, path
            assert _stderr_line(path, e) == p.stderr.decode(), path
            seen += 1
    assert seen > 0
