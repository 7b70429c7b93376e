# SPDX-License-Identifier: MIT OR Apache-2.0
"""Reads everything a buffer offers through the package: the work the
mutation and sanitizer tests run on hostile inputs.

As a script: exercise.py SECONDS FILE... reads each file and random
mutations of it until SECONDS have passed, and prints the counts; any
failure other than PerfbufError is a crash of the test.
"""
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
                    assert o.read_all() == o._read_all_through_library()
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
            elif isinstance(cap, perfbuf.NameTable):
                cap.entries
            else:
                list(cap.blocks())
    for fmt in _dump.FORMATS:
        _dump.dumps(_dump.document(data, "x", fmt=fmt)[0])
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
