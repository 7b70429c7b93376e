# SPDX-License-Identifier: MIT OR Apache-2.0
"""A property test of the V2 metadata readers over generated answers and
mutations of them (and of the corpus's): each reader either raises
PerfbufError at an offset inside the buffer, naming a structure, or gives a
view whose entries lie inside the buffer, read the same twice, with names
as str; what strict accepts has no anomaly. A sample of the buffers goes
through python -m perfbuf and perfbuf-dump, which must write the same
bytes."""
import random
import subprocess

import perfbuf
from perfbuf import _dump
from exercise import mutate
from test_v2_meta import INPUTS, READERS, run_python

RNG_SEED = 2026


def _utf16z(text):
    return text.encode("utf-16-le") + b"\0\0"


def _pad8(b):
    return b.ljust((len(b) + 7) // 8 * 8, b"\0")


def _name(rng):
    alphabet = "abcXYZ019_,#/ ()éΩ€"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))


def gen_instances(rng):
    out = b""
    for k in range(rng.randint(0, 6)):
        body = _pad8(b"\0" * 8 + _utf16z(_name(rng)))
        out += len(body).to_bytes(4, "little") + rng.choice([k, 0xFFFFFFFF]).to_bytes(
            4, "little") + body[8:]
    return out


def gen_identifiers(rng):
    out = b""
    for k in range(rng.randint(0, 6)):
        name = _pad8(_utf16z(_name(rng))) if rng.random() < 0.6 else b""
        out += (rng.randbytes(16) + rng.choice([0, 0, 2]).to_bytes(4, "little")
                + (40 + len(name)).to_bytes(4, "little")
                + rng.choice([k, 0xFFFFFFFF]).to_bytes(4, "little")
                + rng.choice([0, 0xFFFFFFFF]).to_bytes(4, "little")
                + k.to_bytes(4, "little") + b"\0" * 4 + name)
    return out


def gen_strings(rng):
    """A string block with offsets from its start (the reference page's origin)."""
    n = rng.randint(0, 6)
    ids = rng.sample(range(64), n)
    if rng.random() < 0.7:
        ids.sort()
    heads, texts = b"", b""
    base = 8 + 8 * n
    for cid in ids:
        if rng.random() < 0.2:
            heads += cid.to_bytes(4, "little") + (0xFFFFFFFF).to_bytes(4, "little")
            continue
        heads += cid.to_bytes(4, "little") + (base + len(texts)).to_bytes(4, "little")
        texts += _utf16z(_name(rng))
    body = _pad8(heads + texts)
    return (8 + len(body)).to_bytes(4, "little") + n.to_bytes(4, "little") + body


def gen_countersets(rng):
    return rng.randbytes(16 * rng.randint(0, 5))


def gen_string(rng):
    return _utf16z(_name(rng))


GENERATORS = {"v2-instances": gen_instances, "v2-identifiers": gen_identifiers,
              "v2-strings": gen_strings, "v2-countersets": gen_countersets,
              "v2-string": gen_string}


def read_everything(fmt, view, size):
    """Every entry of a view, as plain values, checked to lie inside its
    buffer of size bytes."""
    if fmt == "v2-provider-guid":
        assert isinstance(view, str) and len(view) == 38
        return view
    if fmt == "v2-string":
        assert isinstance(view.text, str) and 2 * view.units + 2 <= size
        return view.text
    if fmt == "v2-counter":
        c = view.counter
        assert c.offset == 0 and size >= 48
        return (c.counter_id, c.type, c.type_name)
    if fmt == "v2-countersets":
        return list(view)
    if fmt == "v2-reginfo":
        out = []
        for c in view.counters:
            assert 32 <= c.offset and c.offset + 48 <= size
            assert view.find(c.counter_id).position == c.position
            out.append((c.counter_id, c.type, c.base_counter_id))
        return out
    out = []
    for entry in view:
        assert 0 <= entry.offset < size
        if fmt == "v2-instances":
            assert isinstance(entry.name, str)
            out.append((entry.instance_id, entry.name))
        elif fmt == "v2-identifiers":
            assert entry.offset + entry.size <= size
            out.append((entry.counter_id, entry.instance_name))
        else:
            if entry.present:
                assert entry.text_offset + 2 * entry.units + 2 <= size
                assert view.find(entry.counter_id) is not None
            out.append((entry.counter_id, entry.text))
    return out


def check(fmt, origin, data):
    """Reads data as fmt lenient and strict; True when the lenient read accepts it."""
    kwargs = {"origin": origin} if fmt == "v2-strings" else {}
    results = []
    for strict in (False, True):
        if fmt not in ("v2-countersets", "v2-provider-guid"):
            kwargs["strict"] = strict
        try:
            view = READERS[fmt](data, **kwargs)
        except perfbuf.PerfbufError as e:
            assert 0 <= e.offset <= len(data), (fmt, e)
            assert e.structure and e.status_name.startswith("PERFBUF_E_"), (fmt, e)
            results.append(None)
            continue
        first = read_everything(fmt, view, len(data))
        assert read_everything(fmt, view, len(data)) == first
        if strict and fmt not in ("v2-countersets", "v2-provider-guid"):
            assert results[0] is not None, "strict accepted what lenient rejected"
        results.append(view)
    lenient, strict = results
    if strict is not None and hasattr(lenient, "anomalies"):
        assert lenient.anomalies == []
    return lenient is not None


def buffers(rng, count):
    seeds = [(fmt, origin, data) for fmt, origin, data, _ in INPUTS]
    for _ in range(count):
        if rng.random() < 0.5:
            fmt = rng.choice(sorted(GENERATORS))
            origin = "block" if fmt == "v2-strings" else "auto"
            data = GENERATORS[fmt](rng)
        else:
            fmt, origin, data = rng.choice(seeds)
        if rng.random() < 0.6:
            data = mutate(rng, data)
        yield fmt, rng.choice(["auto", "block", "array-end"]) if fmt == "v2-strings" \
            and rng.random() < 0.3 else origin, data


def test_generated_and_mutated_metadata_parse_or_raise():
    rng = random.Random(RNG_SEED)
    accepted = 0
    by_format = {}
    for fmt, origin, data in buffers(rng, 20000):
        ok = check(fmt, origin, data)
        accepted += ok
        by_format[fmt] = by_format.get(fmt, 0) + ok
    print("accepted %d of 20000: %s" % (accepted, by_format))
    # Both paths are exercised for every generated format.
    assert all(by_format.get(fmt, 0) > 20 for fmt in GENERATORS), by_format
    assert 4000 < accepted < 18000


def test_generated_metadata_dumps_as_perfbuf_dump_does(dump_tool, tmp_path):
    rng = random.Random(RNG_SEED + 1)
    path = tmp_path / "answer.bin"
    mismatches, accepted = [], 0
    for fmt, origin, data in buffers(rng, 400):
        path.write_bytes(data)
        args = ["--json", "-f", fmt, "--origin", origin, str(path)]
        mine = run_python(args)
        p = subprocess.run([str(dump_tool)] + args, capture_output=True)
        accepted += p.returncode == 0
        # Lines that name the tool (an empty answer's) name this one.
        if mine != (p.returncode, p.stdout.decode(),
                    p.stderr.decode().replace("perfbuf-dump: ", "perfbuf: ")):
            mismatches.append((fmt, origin, data.hex()))
    assert not mismatches, mismatches[:5]
    assert accepted > 80


def test_the_dump_of_a_generated_list_is_what_the_views_give():
    rng = random.Random(RNG_SEED + 2)
    for _ in range(200):
        data = gen_instances(rng)
        doc, err = _dump.document(data, "x", fmt="v2-instances")
        assert err is None
        lst = perfbuf.parse_v2_instances(data)
        assert [(i["instance_id"], i["name"]) for i in doc["instances"]] == \
            [(i.instance_id, i.name) for i in lst]
