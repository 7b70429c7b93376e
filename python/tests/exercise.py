# SPDX-License-Identifier: MIT OR Apache-2.0
"""Reads everything a buffer offers through the package: the work the
mutation and sanitizer tests run on hostile inputs.

As a script: exercise.py SECONDS FILE... reads each file and random
mutations of it until SECONDS have passed, and prints the counts; any
failure other than PerfbufError is a crash of the test.
"""
import contextlib
import io
import os
import pathlib
import random
import sys
import time

import perfbuf
from perfbuf import _dump

PARSERS = (perfbuf.parse_v1, perfbuf.parse_names, perfbuf.parse_v2_query)


def exercise(data):
    """Parses data as each format; returns how many accepted it. Everything a
    view can read is read, so a bad view would show here."""
    accepted = 0
    for parse in PARSERS:
        for strict in (False, True):
            try:
                cap = parse(data, strict=strict)
            except perfbuf.PerfbufError as e:
                assert e.structure is not None and e.status > 0
                continue
            accepted += 1
            if isinstance(cap, perfbuf.V1Capture):
                cap.system_name
                for o in cap.objects:
                    for c in o.counters:
                        c.type_name
                        if o.counter_block is not None:
                            o.counter_bytes(c)
                    o.values
                    # The one-struct read agrees with the library's plan read.
                    rows = o.read_all()
                    assert rows == o._read_all_through_library()
                    flat, _ = o.read_all_array()
                    assert list(flat) == [v for row in rows for v in row]
                    for inst in o.instances:
                        inst.name, inst.name_bytes, inst.full_name_status(), inst.values
                        for c in o.counters:
                            o.counter_bytes(c, inst)
                            try:
                                o.raw_sample(c, inst)
                            except perfbuf.PerfbufError:
                                pass
                        try:
                            perfbuf.format_v1(o, o, inst, inst)
                        except perfbuf.PerfbufError:
                            pass
                # --rate and --series against the capture itself: its
                # instances paired with themselves, every value formatted.
                if not strict:
                    _dump.dumps(_dump.document(data, "x", fmt="v1", side={
                        "previous": cap, "series": [cap, None]})[0])
                if not strict:
                    exercise_query(data)
            elif isinstance(cap, perfbuf.NameTable):
                cap.entries
            else:
                list(cap.blocks())
    for fmt in _dump.FORMATS:
        _dump.dumps(_dump.document(data, "x", fmt=fmt)[0])
    accepted += exercise_metadata(data)
    return accepted


_SERIES_NAMES = pathlib.Path(os.environ.get(
    "PERFBUF_SOURCE", pathlib.Path(__file__).resolve().parents[2])) / \
    "corpus/captures/series/v1-names-series-counter-009.bin"
QUERY_PATHS = (r"\Process(*)\*", r"\Processor(*)\% Processor Time", r"\Thread(*/*)\*",
               r"\Memory\Available Bytes")


def exercise_query(data):
    """A query over the capture collected twice (its instances paired with
    themselves): every array read, raw and formatted."""
    q = perfbuf.Query(_SERIES_NAMES.read_bytes())
    counters = [q.add(p) for p in QUERY_PATHS]
    counters[0].pair_by("ID Process")
    for _ in range(2):
        q.collect(data)
        for c in counters:
            c.status, c.found, c.appeared(), c.exited()
            try:
                c.formatted(), c.raw(), c.title("object"), c.title("counter")
            except perfbuf.PerfbufError as e:
                assert e.status_name == "PERFBUF_E_NOT_FOUND", e


METADATA = (perfbuf.parse_v2_registration, perfbuf.parse_v2_counter, perfbuf.parse_v2_string,
            perfbuf.parse_v2_instances, perfbuf.parse_v2_identifiers)


def exercise_metadata(data):
    """The V2 metadata readers on data and on data after its first byte
    (the fuzz_v2_meta corpus frames each answer after a byte that picks the
    reader), every view read whole; and the cross-check of a
    fuzz_v2_crosscheck frame, through perfbuf-dump's V2 document with
    --registration, --identifiers and --rate."""
    accepted = 0
    for body in (data, data[1:]):
        for parse in METADATA:
            for strict in (False, True):
                try:
                    view = parse(body, strict=strict)
                except perfbuf.PerfbufError as e:
                    assert e.structure and e.status > 0
                    continue
                accepted += 1
                if isinstance(view, perfbuf.V2Registration):
                    for c in view.counters:
                        assert view.find(c.counter_id) is not None
                elif isinstance(view, (perfbuf.V2InstanceList, perfbuf.V2Identifiers)):
                    for entry in view:
                        getattr(entry, "name", None) or getattr(entry, "instance_name", None)
                else:
                    view.counter.type_name if hasattr(view, "counter") else view.text
        for origin in ("auto", "block", "array-end"):
            try:
                strings = perfbuf.parse_v2_strings(body, origin)
            except perfbuf.PerfbufError:
                continue
            accepted += 1
            for entry in strings:
                entry.text, strings.find(entry.counter_id)
        for parse in (perfbuf.parse_v2_countersets, perfbuf.parse_v2_provider_guid):
            try:
                list(parse(body))
                accepted += 1
            except perfbuf.PerfbufError:
                pass
    if len(data) >= 4:
        reg_len = min(int.from_bytes(data[0:2], "little"), len(data) - 4)
        ids_len = min(int.from_bytes(data[2:4], "little"), len(data) - 4 - reg_len)
        reg = data[4:4 + reg_len]
        ids = data[4 + reg_len:4 + reg_len + ids_len]
        query = data[4 + reg_len + ids_len:]
        side = {"inputs": {"registration": reg, "previous": query}, "files": {}, "options": {}}
        if ids_len:
            side["inputs"]["identifiers"] = ids
        try:
            side["previous"] = perfbuf.parse_v2_query(query)
        except perfbuf.PerfbufError:
            pass
        with contextlib.redirect_stderr(io.StringIO()):
            _dump.dumps(_dump.document(query, "x", fmt="v2-query", side=side)[0])
    return accepted


def mutate(rng, data):
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        kind = rng.randrange(5)
        if not b:
            b.extend(rng.randbytes(rng.randint(1, 64)))
        at = rng.randrange(len(b))
        if kind == 0:
            b[at] = rng.randrange(256)
        elif kind == 1:
            b[at:at + 4] = rng.choice([0, 1, 0xFFFFFFFF, 0x7FFFFFFF, len(b), rng.randrange(1 << 32)]
                                      ).to_bytes(4, "little")
        elif kind == 2:
            del b[at:at + rng.randint(1, 16)]
        elif kind == 3:
            b[at:at] = rng.randbytes(rng.randint(1, 16))
        else:
            del b[at:]
    return bytes(b)


def run(paths, seconds, seed=26):
    rng = random.Random(seed)
    seeds = [p.read_bytes() if hasattr(p, "read_bytes") else open(p, "rb").read()
             for p in paths]
    deadline = time.monotonic() + seconds
    inputs = accepted = 0
    for data in seeds:
        accepted += exercise(data) > 0
        inputs += 1
        if time.monotonic() > deadline:
            return inputs, accepted
    while time.monotonic() < deadline:
        accepted += exercise(mutate(rng, rng.choice(seeds))) > 0
        inputs += 1
    return inputs, accepted


if __name__ == "__main__":
    n, ok = run(sys.argv[2:], float(sys.argv[1]))
    print("exercised %d inputs, %d accepted by some reader" % (n, ok))
