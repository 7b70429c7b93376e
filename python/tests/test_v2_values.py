# SPDX-License-Identifier: MIT OR Apache-2.0
"""V2 formatted arrays against perfbuf-dump --rate --registration on the same
captures: tests/make_series.c writes two Processor Information queries one
second apart and the counterset's registration (its "_Total" idle 2.5 s of
10 s); every counter of every instance must format to what perfbuf-dump shows."""
import ctypes
import json
import os
import subprocess

import pytest

import perfbuf
from perfbuf import _native as N
from conftest import REPO


@pytest.fixture(scope="module")
def series(tmp_path_factory):
    out = tmp_path_factory.mktemp("series")
    exe = out / "make_series"
    # Linked against the library the package loaded; the wheel holds it under
    # one name, so the soname the link records is given beside it.
    libdir = out / "lib"
    libdir.mkdir()
    lib = libdir / "libperfbuf.so"
    lib.symlink_to(os.path.realpath(N.lib._name))
    (libdir / "libperfbuf.so.0").symlink_to(os.path.realpath(N.lib._name))
    tests = REPO / "tests"
    subprocess.run(["cc", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-I", str(REPO / "include"),
                    "-I", str(tests), str(tests / "make_series.c"), str(tests / "builder.c"),
                    str(tests / "builder_v1.c"), str(tests / "builder_v2meta.c"), str(lib),
                    "-Wl,-rpath," + str(libdir), "-o", str(exe)], check=True)
    subprocess.run([str(exe), str(out)], check=True)
    return out


def test_v2_formatted_arrays_equal_perfbuf_dump(dump_tool, series):
    q0, q1, reg = (series / n for n in ("v2-q0.bin", "v2-q1.bin", "v2-reginfo.bin"))
    doc = json.loads(subprocess.run(
        [str(dump_tool), "--json", "--rate", str(q0), "--registration", str(reg), str(q1)],
        check=True, capture_output=True).stdout)
    newer = perfbuf.parse_v2_query(q1.read_bytes())
    older = perfbuf.parse_v2_query(q0.read_bytes())
    registration = perfbuf.parse_v2_registration(reg.read_bytes())
    assert registration.counterset == "{b4fc721a-0378-476f-89ba-a5a79f810b36}"
    compared = 0
    for block in doc["blocks"]:
        for inst in block.get("instances", []):
            for value in inst["values"]:
                if "formatted" not in value:
                    continue
                got = perfbuf.v2_formatted_array(newer, older, registration,
                                                 value["counter_id"], block["position"])
                number, status = got[inst["name"]]
                shown = "%.6f" % number if status == 0 else perfbuf.cstatus_name(status)
                assert shown == value["formatted"], (inst["name"], value["counter_id"])
                compared += 1
    assert compared > 20
    total = perfbuf.v2_formatted_array(newer, older, registration, 0, 0,
                                       path=r"\Processor Information(_Total)\% Processor Time")
    assert total == {"_Total": (75.0, 0)}


def _views(query):
    """Every (block, instance) of a parsed query: each block alone, then
    with each of its instances."""
    qp = ctypes.byref(query._q)
    it = N.V2Iter()
    N.v2_blocks_begin(qp, ctypes.byref(it))
    while True:
        b = N.V2Block()
        if not N.v2_blocks_next(qp, ctypes.byref(it), ctypes.byref(b)):
            return
        yield b, None
        ii = N.V2Iter()
        N.v2_instances_begin(ctypes.byref(b), ctypes.byref(ii))
        while True:
            inst = N.V2Instance()
            if not N.v2_instances_next(qp, ctypes.byref(b), ctypes.byref(ii), ctypes.byref(inst)):
                break
            yield b, inst


def _fields(sample, context):
    return (sample.status, sample.type, sample.first, sample.second, sample.multi,
            sample.time_stamp, context.frequency, context.scale)


def _ref(x):
    return ctypes.byref(x) if x is not None else None


def test_v2_raw_sample_pair_equals_two_calls(series):
    """Both captures' views in one call, and the newer capture's views with
    the older's query: as two perfbuf_v2_raw_sample calls, for every
    registered counter, an absent one and "none"."""
    newer = perfbuf.parse_v2_query((series / "v2-q1.bin").read_bytes())
    older = perfbuf.parse_v2_query((series / "v2-q0.bin").read_bytes())
    registration = perfbuf.parse_v2_registration((series / "v2-reginfo.bin").read_bytes())
    reg = ctypes.byref(registration._reg)
    ids = []
    c = N.V2CounterReg()
    while N.v2_reginfo_counter(reg, len(ids), ctypes.byref(c)):
        ids.append(c.id)
    assert len(ids) > 20
    both_ok = 0
    for nb, ni in _views(newer):
        for ob, oi in _views(older):
            for qn, qo in ((newer, older), (older, older)):
                for counter_id in ids + [29, 0xFFFFFFFF]:
                    one = [(N.RawSample(), N.ValueContext()) for _ in range(2)]
                    st_n = N.v2_raw_sample(ctypes.byref(qn._q), ctypes.byref(nb), _ref(ni), reg,
                                           counter_id, *map(ctypes.byref, one[0]))
                    st_o = N.v2_raw_sample(ctypes.byref(qo._q), ctypes.byref(ob), _ref(oi), reg,
                                           counter_id, *map(ctypes.byref, one[1]))
                    two = [(N.RawSample(), N.ValueContext()) for _ in range(2)]
                    pair_o = N.status(0)
                    pair_n = N.v2_raw_sample_pair(
                        ctypes.byref(qn._q), ctypes.byref(nb), _ref(ni), ctypes.byref(qo._q),
                        ctypes.byref(ob), _ref(oi), reg, counter_id,
                        *map(ctypes.byref, two[0] + two[1]), ctypes.byref(pair_o))
                    assert (pair_n, pair_o.value) == (st_n, st_o)
                    assert _fields(*two[0]) == _fields(*one[0])
                    assert _fields(*two[1]) == _fields(*one[1])
                    both_ok += st_n == 0 and st_o == 0 and qn is newer
    assert both_ok > 20


def test_the_v2_query_gives_the_pairing_readers_arrays(series):
    """perfbuf.Query.v2 over the same two captures: every registered
    counter's array, by name where the counter names give one and by id
    otherwise, equals perfbuf.v2_formatted_array's."""
    read = lambda name: (series / name).read_bytes()  # noqa: E731
    q = perfbuf.Query.v2([{"reginfo": read("v2-reginfo.bin"), "counter_names": read("v2-names.bin"),
                           "name": read("v2-name.bin"), "block": 0}])
    registration = perfbuf.parse_v2_registration(read("v2-reginfo.bin"))
    names = perfbuf.parse_v2_strings(read("v2-names.bin"))
    ids = []
    c = N.V2CounterReg()
    while N.v2_reginfo_counter(ctypes.byref(registration._reg), len(ids), ctypes.byref(c)):
        ids.append(c.id)
    by_id = {k: q.add(r"\Processor Information(*)\%d" % k) for k in ids}
    by_guid = q.add("\\%s(_Total)\\0" % registration.counterset)
    named = q.add(r"\Processor Information(*)\% Processor Time")
    missing = q.add(r"\Processor Information(*)\29")
    q.collect(read("v2-q0.bin"))
    q.collect(read("v2-q1.bin"))
    newer = perfbuf.parse_v2_query(read("v2-q1.bin"))
    older = perfbuf.parse_v2_query(read("v2-q0.bin"))
    for k, counter in by_id.items():
        want = perfbuf.v2_formatted_array(newer, older, registration, k, 0)
        got = {i.name: (i.value, i.status) for i in counter.formatted()}
        assert got == {n: (v, perfbuf.cstatus_name(st)) for n, (v, st) in want.items()}, k
    assert [(i.name, i.value) for i in by_guid.formatted()] == [("_Total", 75.0)]
    assert [i.value for i in named.formatted()] == [i.value for i in by_id[0].formatted()]
    assert names.find(0).text == "% Processor Time"  # the name the path above gives
    assert missing.found == "no-counter"
    with pytest.raises(perfbuf.PerfbufError):
        perfbuf.Query.v2([{"counter_names": read("v2-names.bin")}])  # no registration


def test_the_v2_dump_pairs_instances_as_the_v2_query(dump_tool, series):
    """perfbuf-dump's V2 --rate pairs each block with perfbuf_v2_pair; the V2
    query keys its instances the same way (InstanceId, name, #N): every
    instance's pairing and previous position agree."""
    read = lambda name: (series / name).read_bytes()  # noqa: E731
    doc = json.loads(subprocess.run(
        [str(dump_tool), "--json", "--rate", str(series / "v2-q0.bin"), str(series / "v2-q1.bin")],
        check=True, capture_output=True).stdout)
    q = perfbuf.Query.v2([{"reginfo": read("v2-reginfo.bin"), "block": 0}])
    cpu = q.add(r"\{b4fc721a-0378-476f-89ba-a5a79f810b36}(*)\0")
    q.collect(read("v2-q0.bin"))
    q.collect(read("v2-q1.bin"))
    by_position = {item.position: item for item in cpu.raw()}
    shown = doc["blocks"][0]["instances"]
    assert len(shown) == len(by_position) > 1
    for inst in shown:
        item = by_position[inst["position"]]
        assert inst["pairing"] == item.pairing, inst["name"]
        assert inst.get("previous_position") == item.older_position, inst["name"]


def test_format_v2_block_equals_the_per_counter_arrays(series):
    """perfbuf.format_v2_block over the two captures: row i, column k is what
    perfbuf.v2_formatted_array gives the i-th instance for the k-th id of the
    block, value and status (the instances are the same in both captures)."""
    read = lambda name: (series / name).read_bytes()  # noqa: E731
    registration = perfbuf.parse_v2_registration(read("v2-reginfo.bin"))
    newer = perfbuf.parse_v2_query(read("v2-q1.bin"))
    older = perfbuf.parse_v2_query(read("v2-q0.bin"))
    block = next(iter(newer.blocks()))
    names = [inst["name"] for inst in block["instances"]]
    ids = block["counter_ids"]
    for flags in (perfbuf.FMT_DOUBLE, perfbuf.FMT_DOUBLE | perfbuf.FMT_1000):
        rows = perfbuf.format_v2_block(newer, older, registration, 0, flags)
        assert len(rows) == len(names) and all(len(r) == len(ids) for r in rows)
        valid = 0
        for k, counter_id in enumerate(ids):
            want = perfbuf.v2_formatted_array(newer, older, registration, counter_id, 0,
                                              flags=flags)
            for i, name in enumerate(names):
                assert rows[i][k] == want[name], (name, counter_id)
                valid += want[name][1] == 0
        assert valid > 0
    with pytest.raises(TypeError):
        perfbuf.format_v2_block(newer, older, None)
