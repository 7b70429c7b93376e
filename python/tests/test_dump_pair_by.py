# SPDX-License-Identifier: MIT OR Apache-2.0
"""python -m perfbuf --pair-by pairs V1 instances as perfbuf-dump --pair-by
does, and lists the instances that exited and appeared alike, byte for byte.

Over the collector's series (corpus/captures/series/README.md): between
v1-series-1.bin and v1-series-2.bin PID 812 "svchost" exits and PID 1044
"svchost#1" becomes "svchost". By ID Process svchost keeps its own 10 % and
PID 812 is listed as exited with its key; by PDH's key it meets PID 812's
sample, 60 %, and "svchost#1" is what exited."""
import json

import pytest

from conftest import CAPTURES
from test_v2_meta import run_python, run_tool

SERIES = CAPTURES / "series"
NAMES = SERIES / "v1-names-series-counter-009.bin"
S = [SERIES / ("v1-series-%d.bin" % k) for k in range(4)]


def _same(dump_tool, args):
    mine, theirs = run_python(args), run_tool(dump_tool, args)
    assert mine[:2] == theirs[:2], args
    assert mine[2] == theirs[2].replace("perfbuf-dump: ", "perfbuf: "), (mine[2], theirs[2])
    return mine


def _svchost_and_exited(out):
    process = json.loads(out)["objects"][1]
    svchost = [i for i in process["instances"] if i["full_name"] == "svchost"][0]
    return svchost["formatted"][0], process["exited"], process["appeared"]


@pytest.mark.parametrize("mode,rate,exited", [
    ("ID Process", "10.000000",
     [{"name": "svchost", "position": 1, "identity": "ID Process", "key": 812}]),
    ("pdh", "60.000000", [{"name": "svchost#1", "position": 2, "identity": "name"}]),
    ("unique-id", "60.000000", [{"name": "svchost#1", "position": 2, "identity": "name"}]),
])
def test_rate_pairs_as_perfbuf_dump(dump_tool, mode, rate, exited):
    rc, out, err = _same(dump_tool, ["--names", NAMES, "--rate", S[1], "--pair-by", mode, S[2]])
    assert rc == 0
    assert _svchost_and_exited(out) == (rate, exited, [])
    # Processor has no ID Process: its instances keep PDH's key, said on stderr.
    assert ("pair by PDH's key: 238 (Processor)" in err) == (mode == "ID Process"), err


def test_series_pairs_as_perfbuf_dump(dump_tool):
    for mode, mean in (("ID Process", "10.000000"), ("pdh", "30.000000")):
        rc, out, _ = _same(dump_tool, ["--names", NAMES, "--pair-by", mode,
                                       "--series", S[0], S[1], S[2], "--", S[3]])
        process = json.loads(out)["objects"][1]
        svchost = [i for i in process["instances"] if i["full_name"] == "svchost"][0]
        assert rc == 0 and svchost["statistics"][0]["mean"] == mean, mode


def test_unique_ids_keep_their_own_sample(dump_tool, tmp_path):
    """With every process given its PID as UniqueID, unique-id (the default)
    pairs svchost with PID 1044's own sample and lists PID 812 as exited by
    its UniqueID; pdh pairs by PDH's key, as the query's names count #N."""
    import perfbuf
    table = perfbuf.parse_names(NAMES.read_bytes())
    files = []
    for k in (1, 2):
        data = bytearray(S[k].read_bytes())
        cap = perfbuf.parse_v1(bytes(data))
        process = [o for o in cap.objects if table.title(o.name_title_index) == "Process"][0]
        pid = [c.position for c in process.counters
               if table.title(c.name_title_index) == "ID Process"][0]
        for inst in process.instances:
            value = inst.values[pid]
            # PERF_INSTANCE_DEFINITION.UniqueID, at offset 12 (winperf.h).
            data[inst.offset + 12:inst.offset + 16] = value.to_bytes(4, "little")
        files.append(tmp_path / ("uid-%d.bin" % k))
        files[-1].write_bytes(bytes(data))
    for args, rate, exited in (
            ([], "10.000000", {"name": "svchost", "position": 1, "identity": "unique-id",
                               "key": 812}),
            (["--pair-by", "unique-id"], "10.000000",
             {"name": "svchost", "position": 1, "identity": "unique-id", "key": 812}),
            # By PDH's key PID 1044 (position 2 then, "svchost#1" by PDH's
            # #N) is the one whose key the later capture lacks; the query
            # names instances of a provider that sets UniqueIDs counting #N
            # among one UniqueID (docs/collector.md), so its name is "svchost".
            (["--pair-by", "pdh"], "60.000000",
             {"name": "svchost", "position": 2, "identity": "name"})):
        rc, out, _ = _same(dump_tool, ["--names", NAMES, "--rate", files[0]] + args + [files[1]])
        assert rc == 0 and _svchost_and_exited(out) == (rate, [exited], []), args


def test_appeared_lists_a_process_that_started(dump_tool):
    rc, out, _ = _same(dump_tool, ["--names", NAMES, "--rate", S[0], "--pair-by", "ID Process",
                                   S[1]])
    process = json.loads(out)["objects"][1]
    assert rc == 0 and process["exited"] == [] and process["appeared"] == [
        {"name": "cmd", "position": 4, "identity": "ID Process", "key": 3000}]


@pytest.mark.parametrize("args", [
    ["--pair-by", "pdh", S[1]],                                   # no --rate or --series
    ["--pair-by", "", "--rate", S[1], S[2]],
    ["--pair-by", "*", "--names", NAMES, "--rate", S[1], S[2]],
    ["--pair-by", "ID Process", "--rate", S[1], S[2]],            # no table
    ["--pair-by", "No Such Counter", "--names", NAMES, "--rate", S[1], S[2]],
    ["--pair-by", "pdh", "--openmetrics", "--rate", S[1], S[2]],
    ["--pair-by", "pdh", "-f", "v1-names", "--rate", NAMES, NAMES],
])
def test_usage_errors_are_perfbuf_dumps(dump_tool, args):
    mine, theirs = run_python(args), run_tool(dump_tool, args)
    assert mine[0] == theirs[0] == 2, (args, mine[2], theirs[2])
    assert mine[1] == theirs[1] == "", args
