# SPDX-License-Identifier: MIT OR Apache-2.0
"""python -m perfbuf takes perfbuf-dump's options that change its JSON: the
names tables (--names, --english-names), --rate and --series on V1 data
blocks, --counter paths, and the limits; on the bundled captures it writes what
perfbuf-dump --json writes with them, byte for byte, with the same exit
status and the same stderr lines (those about side files name this tool).
--csv, which only changes perfbuf-dump's output to CSV, is refused, naming
perfbuf-dump."""
import json

import pytest

from conftest import CAPTURES
from test_v2_meta import run_python, run_tool

DOC, SERIES, SYN, WINE = (CAPTURES / d for d in ("documented", "series", "synthetic",
                                                 "wine-8.0"))
DOC_NAMES = DOC / "v1-names-documented-counter-009.bin"
SERIES_NAMES = SERIES / "v1-names-series-counter-009.bin"
SYN_NAMES = SYN / "v1-names-synthetic-counter-009.bin"
WINE_NAMES = WINE / "v1-names-counter-009.bin"
G0, G1 = DOC / "v1-documented-global-0.bin", DOC / "v1-documented-global-1.bin"
S = [SERIES / ("v1-series-%d.bin" % k) for k in range(4)]
P0, P1 = SYN / "v1-synthetic-processor-0.bin", SYN / "v1-synthetic-processor-1.bin"

CASES = [
    ["--names", DOC_NAMES, G1],
    ["--english-names", DOC_NAMES, G1],
    ["--names", SERIES_NAMES, "--english-names", DOC_NAMES, S[3]],
    ["--names", WINE_NAMES, WINE / "v1-global.bin"],
    ["--names", WINE / "v1-names-help-009.bin", WINE / "v1-object-238.bin"],
    ["--names", SYN_NAMES, P1],
    ["--names", G0, G1],                      # a names table that is not one
    ["--rate", G0, G1],
    ["--rate", G1, G0],
    ["--rate", P0, P1],
    ["--rate", S[2], S[3]],
    ["--rate", S[0], S[3]],
    ["--rate", S[3], S[0]],
    ["--rate", G0, S[3]],                     # another query: objects unpaired
    ["--rate", S[3], WINE / "v1-global.bin"],
    # another query's Thread object shares no counter title: its instances
    # are new though their keys match
    ["--rate", S[0], CAPTURES.parent / "fuzz_v1" / "valid-global.bin"],
    ["--rate", DOC_NAMES, G1],                # a --rate capture that is rejected
    ["--series", S[0], S[1], S[2], "--", S[3]],
    ["--series", S[2], S[1], S[0], "--", S[3]],
    ["--series", G0, "--", G1],
    ["--series", G0, DOC_NAMES, "--", G1],    # a rejected capture in the series
    ["--series", "--", G1],
    ["--names", SERIES_NAMES, "--rate", S[2], "--series", S[0], S[1], S[2], "--", S[3]],
    ["--strict", "--rate", G0, G1],
    ["--max-instances", "2", G1],
    ["--max-counters", "3", "--rate", G0, G1],
    ["--max-sections", "1", G1],
    ["--names", DOC_NAMES, "-f", "v1-names", DOC_NAMES],
]


@pytest.mark.parametrize("args", CASES, ids=lambda a: " ".join(
    str(x).replace(str(CAPTURES) + "/", "") for x in a))
def test_v1_options_give_perfbuf_dumps_document(dump_tool, args):
    mine, theirs = run_python(args), run_tool(dump_tool, args)
    assert mine[:2] == theirs[:2]
    assert mine[2] == theirs[2].replace("perfbuf-dump: ", "perfbuf: "), (mine[2], theirs[2])


def test_rate_and_series_compute_something():
    rc, out, _ = run_python(["--rate", P0, P1])
    doc = json.loads(out)
    processor = doc["objects"][0]
    assert rc == 0 and [i["formatted"] for i in processor["instances"]] == \
        [["75.000000"], ["10.000000"], ["42.500000"]]
    rc, out, _ = run_python(["--series", S[0], S[1], S[2], "--", S[3]])
    stats = [s for o in json.loads(out)["objects"] for i in o.get("instances", [])
             for s in i["statistics"]]
    assert rc == 0 and any(s.get("count", 0) == 3 and "mean" in s for s in stats)


def test_csv_is_refused_naming_perfbuf_dump():
    rc, out, err = run_python(["--csv", "--names", DOC_NAMES, "--counter", "\\Memory\\*", G1])
    assert rc == 2 and out == "" and "perfbuf-dump" in err


COUNTER_CASES = [
    ["--names", SERIES_NAMES, "--counter", "\\Process(svchost*)\\% Processor Time", S[3]],
    ["--names", SERIES_NAMES, "--counter", "\\Process(svchost#1)\\*", "--rate", S[2], S[3]],
    ["--names", SERIES_NAMES, "--counter", "\\Thread(svchost/*)\\*", "--series", S[0], S[1],
     "--", S[3]],
    ["--english-names", DOC_NAMES, "--counter", "\\Thread(svchost/0#1)\\% Processor Time",
     "--counter", "\\Memory\\Available Bytes", G1],
    ["--english-names", DOC_NAMES, "--counter", "\\Nope\\x", "--counter", "\\Memory\\Nope",
     "--counter", "\\Processor(9)\\*", "--counter", "\\Processor\\*", G1],
    ["--names", DOC_NAMES, "--counter", "\\processor information(*)\\*", G1],
    ["--names", DOC_NAMES, "--counter", "\\Memory\\% Committed Bytes In Use", "--rate", G0, G1],
    ["--names", DOC_NAMES, "--counter", "bad", G1],
    ["--counter", "\\Memory\\*", G1],
]


@pytest.mark.parametrize("args", COUNTER_CASES, ids=lambda a: " ".join(
    str(x).replace(str(CAPTURES) + "/", "") for x in a))
def test_counter_paths_select_what_perfbuf_dump_selects(dump_tool, args):
    mine, theirs = run_python(args), run_tool(dump_tool, args)
    assert mine[:2] == theirs[:2]
    assert mine[2] == theirs[2].replace("perfbuf-dump: ", "perfbuf: "), (mine[2], theirs[2])


def _paths_of(capture, names):
    """Counter paths over every object, counter and instance of a capture:
    exact, #N, parent/name, prefix and wildcard forms, and misses."""
    import perfbuf
    cap = perfbuf.parse_v1(capture.read_bytes())
    table = perfbuf.parse_names(names.read_bytes())
    out = []
    for o in cap.objects:
        obj = table.title(o.name_title_index) or "?"
        counters = [table.title(c.name_title_index) or "?" for c in o.counters]
        out.append("\\%s\\*" % obj)
        out.append("\\%s(*)\\%s" % (obj, counters[0] if counters else "x"))
        seen = {}
        for inst in o.instances:
            full = inst.full_name
            n = seen.get(full, 0)
            seen[full] = n + 1
            out.append("\\%s(%s)\\*" % (obj, full))
            out.append("\\%s(%s#%d)\\%s" % (obj, full, n, counters[-1] if counters else "x"))
            if inst.name:
                out.append("\\%s(%s*)\\*" % (obj, inst.name[:2]))
                out.append("\\%s(*/%s)\\*" % (obj, inst.name))
        out.append("\\%s(no such)\\*" % obj)
    return out


# (Wine's captures hold no object to name.)
@pytest.mark.parametrize("capture,names", [(G1, DOC_NAMES), (S[3], SERIES_NAMES),
                                           (P1, SYN_NAMES)],
                         ids=["documented", "series", "synthetic"])
def test_every_path_over_a_capture_selects_what_perfbuf_dump_selects(dump_tool, capture, names):
    paths = _paths_of(capture, names)
    mismatches = []
    for path in paths:
        args = ["--english-names", names, "--counter", path, capture]
        mine, theirs = run_python(args), run_tool(dump_tool, args)
        if mine[:2] != theirs[:2] or mine[2] != theirs[2].replace("perfbuf-dump: ",
                                                                  "perfbuf: "):
            mismatches.append(path)
    # All the paths at once, with a rate against the capture itself.
    args = ["--names", names, "--rate", capture, capture]
    for path in paths:
        args[-1:-1] = ["--counter", path]
    mine, theirs = run_python(args), run_tool(dump_tool, args)
    assert mine[:2] == theirs[:2]
    assert not mismatches, mismatches[:10]
    assert len(paths) > 10


def test_usage_errors_are_perfbuf_dumps(dump_tool):
    for args in (["--series", G0], ["--origin", "middle", G1], ["--max-counters", "-1", G1],
                 [G0, G1], ["-f", "v9", G1], ["--max-input-bytes", "10", G1],
                 ["-", "--rate", "-"]):
        mine, theirs = run_python(args), run_tool(dump_tool, args)
        assert mine[0] == theirs[0] == 2, args
        assert mine[1] == theirs[1] == "", args


def test_n_counts_names_that_differ_in_ascii_case_only(dump_tool, tmp_path):
    """#N counts among parent/names equal with ASCII case folded, as the
    query (and so perfbuf-dump --csv) numbers them: with the first svchost
    (PID 812) renamed SVCHOST, svchost#1 is PID 1044 and svchost/0#1 its
    thread (ID Thread 1048), in perfbuf-dump's JSON and in ours alike."""
    data = S[0].read_bytes()
    name = "svchost".encode("utf-16-le")
    at = data.index(name)
    capture = tmp_path / "case.bin"
    capture.write_bytes(data[:at] + "SVCHOST".encode("utf-16-le") + data[at + len(name):])
    args = ["--names", SERIES_NAMES, "--counter", "\\Process(svchost#1)\\ID Process",
            "--counter", "\\Thread(svchost/0#1)\\ID Thread", capture]
    mine, theirs = run_python(args), run_tool(dump_tool, args)
    assert mine[:2] == theirs[:2]
    assert mine[2] == theirs[2].replace("perfbuf-dump: ", "perfbuf: "), (mine[2], theirs[2])
    shown = [(o["name"], i["full_name"], i["values"]) for o in json.loads(mine[1])["objects"]
             for i in o.get("instances", [])]
    assert mine[0] == 0 and shown == [("Process", "svchost", [1044]),
                                      ("Thread", "svchost/0", [1048])], shown


def test_unique_ids_number_instances_as_the_query_does(dump_tool, tmp_path):
    """In an object whose provider sets UniqueIDs, #N counts among instances
    of the same UniqueID, as the query's key does (docs/collector.md): with
    every process given its own id, "svchost" selects both svchost and
    "svchost#1" none, in perfbuf-dump's JSON and in ours alike."""
    import perfbuf
    data = bytearray(S[0].read_bytes())
    table = perfbuf.parse_names(SERIES_NAMES.read_bytes())
    cap = perfbuf.parse_v1(bytes(data))
    process = [o for o in cap.objects if table.title(o.name_title_index) == "Process"][0]
    for inst in process.instances:
        # PERF_INSTANCE_DEFINITION.UniqueID, at offset 12 (winperf.h).
        data[inst.offset + 12:inst.offset + 16] = (1000 + inst.position).to_bytes(4, "little")
    capture = tmp_path / "uid.bin"
    capture.write_bytes(bytes(data))
    every = ["--names", SERIES_NAMES, "--counter", "\\Process(svchost)\\ID Process", capture]
    second = ["--names", SERIES_NAMES, "--counter", "\\Process(svchost#1)\\ID Process", capture]
    for args in (every, second):
        mine, theirs = run_python(args), run_tool(dump_tool, args)
        assert mine[:2] == theirs[:2]
        assert mine[2] == theirs[2].replace("perfbuf-dump: ", "perfbuf: "), (mine[2], theirs[2])
    mine = run_python(every)
    shown = [i["values"] for o in json.loads(mine[1])["objects"] for i in o.get("instances", [])]
    assert mine[0] == 0 and shown == [[812], [1044]], shown
    mine = run_python(second)
    assert mine[0] == 1 and "svchost#1)\\ID Process: no instance of that name" in mine[2]
