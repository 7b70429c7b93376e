# SPDX-License-Identifier: MIT OR Apache-2.0
"""The V2 metadata readers against perfbuf-dump.

Every V2 metadata answer of the corpus (the documented captures and the
inputs of corpus/fuzz_v2_meta, whose first byte picks the reader and, for a
string block, the second the offset origin) is decoded by python -m perfbuf
into the document perfbuf-dump --json writes, byte for byte, lenient and
strict; every one perfbuf-dump rejects raises PerfbufError from the
package's reader with the same offset, structure, field and status.
"""
import contextlib
import io
import json
import subprocess

import pytest

import perfbuf
from perfbuf import _dump
from conftest import CAPTURES, REPO, corpus_files

# The reader each value of fuzz_v2_meta's first byte picks (fuzz/fuzz_v2_meta.c).
PICKS = ["v2-reginfo", "v2-countersets", "v2-instances", "v2-counter", "v2-string",
         "v2-provider-guid", "v2-strings", "v2-identifiers"]
ORIGIN_PICKS = ["auto", "block", "array-end"]

READERS = {"v2-reginfo": perfbuf.parse_v2_registration,
           "v2-countersets": lambda data, **kw: perfbuf.parse_v2_countersets(data),
           "v2-instances": perfbuf.parse_v2_instances,
           "v2-counter": perfbuf.parse_v2_counter,
           "v2-string": perfbuf.parse_v2_string,
           "v2-provider-guid": lambda data, **kw: perfbuf.parse_v2_provider_guid(data),
           "v2-strings": perfbuf.parse_v2_strings,
           "v2-identifiers": perfbuf.parse_v2_identifiers}

DOCUMENTED = [("v2-reginfo", "documented/v2-reginfo-documented-processor-information.bin"),
              ("v2-strings", "documented/v2-names-documented-processor-information.bin")]


def metadata_inputs():
    """(format, origin, bytes, name) of every V2 metadata answer of the corpus."""
    out = [(fmt, "auto", (CAPTURES / name).read_bytes(), name) for fmt, name in DOCUMENTED]
    for path in corpus_files("fuzz_v2_meta/*"):
        raw = path.read_bytes()
        if not raw:
            continue
        fmt = PICKS[raw[0] % 8]
        origin, data = "auto", raw[1:]
        if fmt == "v2-strings":
            if not data:
                continue
            origin, data = ORIGIN_PICKS[data[0] % 3], data[1:]
        out.append((fmt, origin, data, path.name))
    return out


INPUTS = metadata_inputs()


def run_python(args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = _dump.main([str(a) for a in args])
    return rc, out.getvalue(), err.getvalue()


def run_tool(dump_tool, args):
    p = subprocess.run([str(dump_tool), "--json"] + [str(a) for a in args], capture_output=True)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


def test_the_corpus_has_every_metadata_answer():
    formats = {fmt for fmt, _, _, _ in INPUTS}
    assert formats == set(PICKS), set(PICKS) - formats
    assert len(INPUTS) > 200


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
def test_every_metadata_answer_decodes_as_perfbuf_dump_does(dump_tool, tmp_path, strict):
    compared = rejected = 0
    mismatches = []
    for fmt, origin, data, name in INPUTS:
        path = tmp_path / "answer.bin"
        path.write_bytes(data)
        args = ["-f", fmt, "--origin", origin] + (["--strict"] if strict else []) + [path]
        mine, theirs = run_python(args), run_tool(dump_tool, args)
        compared += 1
        rejected += theirs[0] == 1
        # Lines that name the tool (an empty answer's) name this one.
        if mine != theirs[:2] + (theirs[2].replace("perfbuf-dump: ", "perfbuf: "),):
            mismatches.append("%s (%s, %s): %r" % (name, fmt, origin, mine[2] or theirs[2]))
    print("metadata answers: %d compared, %d rejected" % (compared, rejected))
    assert not mismatches, "\n".join(mismatches[:20])
    assert rejected > 20 and compared - rejected > 20


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
def test_every_rejected_metadata_answer_raises_at_perfbuf_dumps_location(dump_tool, tmp_path,
                                                                          strict):
    checked = 0
    for fmt, origin, data, name in INPUTS:
        path = tmp_path / "answer.bin"
        path.write_bytes(data)
        p = subprocess.run([str(dump_tool), "--json", "-f", fmt, "--origin", origin]
                           + (["--strict"] if strict else []) + [str(path)], capture_output=True)
        if p.returncode != 1:
            continue
        if not data:
            # An empty answer is refused before any reader sees it.
            assert p.stdout == b"" and b"the file is empty (0 bytes)" in p.stderr, name
            continue
        want = json.loads(p.stdout)["error"]
        kwargs = {"origin": origin} if fmt == "v2-strings" else {}
        if strict and fmt not in ("v2-countersets", "v2-provider-guid"):
            kwargs["strict"] = True
        with pytest.raises(perfbuf.PerfbufError) as raised:
            READERS[fmt](data, **kwargs)
        e = raised.value
        got = {"offset": e.offset, "structure": e.structure, "field": e.field,
               "status": e.status_name, "message": e.reason}
        if e.declared or e.limit:
            got.update(declared=e.declared, limit=e.limit)
        assert got == want, name
        assert "%s: %s%s\n" % (path, e, _dump._sizes_compared(e)) == p.stderr.decode(), name
        checked += 1
    print("rejections checked: %d" % checked)
    assert checked > 20


def test_every_reader_takes_bytes_bytearray_and_memoryview_alike():
    for fmt, origin, data, name in INPUTS[:60]:
        kwargs = {"origin": origin} if fmt == "v2-strings" else {}
        docs = set()
        for wrap in (bytes, bytearray, memoryview, lambda b: memoryview(bytearray(b))):
            try:
                view = READERS[fmt](wrap(data), **kwargs)
            except perfbuf.PerfbufError as e:
                docs.add(("rejected", e.offset, e.structure, e.field, e.status))
                continue
            dumper = getattr(_dump, "dump_" + fmt.replace("-", "_"))
            docs.add(_dump.dumps(dumper(view)))
        assert len(docs) == 1, name


# ------------------------------------------------ side files of V2 data ----

DOC = CAPTURES / "documented"
REG = DOC / "v2-reginfo-documented-processor-information.bin"
NAMES = DOC / "v2-names-documented-processor-information.bin"
Q0 = DOC / "v2-query-documented-processor-information-0.bin"
Q1 = DOC / "v2-query-documented-processor-information-1.bin"


@pytest.mark.parametrize("args", [
    ["--registration", REG, Q1],
    ["--counter-names", NAMES, Q1],
    ["--counter-names", NAMES, "--origin", "block", Q1],
    ["--rate", Q0, Q1],
    ["--registration", REG, "--rate", Q0, Q1],
    ["--registration", REG, "--counter-names", NAMES, "--rate", Q0, Q1],
    ["--registration", REG, "--rate", Q1, Q0],
    ["--registration", REG, "--rate", Q1, CAPTURES / "wine-8.0/v2-query-processor-information.bin"],
    ["--registration", REG, "--rate", Q0, "--strict", Q1],
    ["--registration", NAMES, Q1],
    ["--counter-names", REG, Q1],
    ["--rate", REG, Q1],
    ["--registration", REG, "-f", "v2-reginfo", REG],
], ids=lambda a: " ".join(str(x).replace(str(REPO) + "/", "") for x in a))
def test_v2_side_files_give_perfbuf_dumps_document(dump_tool, args):
    mine, theirs = run_python(args), run_tool(dump_tool, args)
    assert mine[:2] == theirs[:2]
    # Lines about side files name this tool, not perfbuf-dump; the rest is the same.
    assert mine[2] == theirs[2].replace("perfbuf-dump: ", "perfbuf: "), (mine[2], theirs[2])


def test_the_rate_document_has_formatted_values():
    rc, out, _ = run_python(["--registration", REG, "--rate", Q0, Q1])
    doc = json.loads(out)
    assert rc == 0 and doc["crosscheck"] == {"agree": True}
    formatted = [v["formatted"] for b in doc["blocks"] for i in b["instances"]
                 for v in i["values"] if "formatted" in v]
    assert len(formatted) > 50 and "100.000000" in formatted
    assert {i["pairing"] for b in doc["blocks"] for i in b["instances"]} == {"matched"}


def _crosscheck_frames():
    """(registration, identifiers or None, query) of corpus/fuzz_v2_crosscheck:
    [u16 registration length][u16 identifiers length][registration]
    [identifiers][query data], lengths cut to what the input holds."""
    out = []
    for path in corpus_files("fuzz_v2_crosscheck/*"):
        raw = path.read_bytes()
        if len(raw) < 4:
            continue
        reg_len = min(int.from_bytes(raw[0:2], "little"), len(raw) - 4)
        ids_len = min(int.from_bytes(raw[2:4], "little"), len(raw) - 4 - reg_len)
        reg = raw[4:4 + reg_len]
        ids = raw[4 + reg_len:4 + reg_len + ids_len]
        out.append((path.name, reg, ids if ids_len else None, raw[4 + reg_len + ids_len:]))
    return out


def test_crosscheck_inputs_give_perfbuf_dumps_document(dump_tool, tmp_path):
    compared = disagree = 0
    mismatches = []
    for name, reg, ids, query in _crosscheck_frames():
        (tmp_path / "reg").write_bytes(reg)
        (tmp_path / "query").write_bytes(query)
        args = ["-f", "v2-query", "--registration", tmp_path / "reg"]
        if ids is not None:
            (tmp_path / "ids").write_bytes(ids)
            args += ["--identifiers", tmp_path / "ids"]
        for extra in ([], ["--rate", tmp_path / "query"]):
            full = args + extra + [tmp_path / "query"]
            mine, theirs = run_python(full), run_tool(dump_tool, full)
            compared += 1
            disagree += '"agree": false' in theirs[1]
            if mine[:2] != theirs[:2] or mine[2] != theirs[2].replace("perfbuf-dump: ",
                                                                       "perfbuf: "):
                mismatches.append(name)
    print("cross-checks: %d compared, %d disagreeing" % (compared, disagree))
    assert not mismatches, mismatches[:20]
    assert compared > 50 and disagree > 5


# ------------------------------------------------------- the API itself ----

def _instance_list(names):
    """A PerfEnumerateCounterSetInstances answer: PERF_INSTANCE_HEADER (Size,
    InstanceId) then the NUL-terminated UTF-16LE name, padded to 8 bytes."""
    out = b""
    for k, name in enumerate(names):
        text = name.encode("utf-16-le") + b"\0\0"
        size = (8 + len(text) + 7) // 8 * 8
        out += (size.to_bytes(4, "little") + k.to_bytes(4, "little") + text).ljust(size, b"\0")
    return out


def test_an_instance_list_reads_names_as_str():
    lst = perfbuf.parse_v2_instances(_instance_list(["_Total", "0,0", "Ünïcode"]))
    assert [(i.instance_id, i.name) for i in lst] == [(0, "_Total"), (1, "0,0"),
                                                      (2, "Ünïcode")]
    assert len(lst) == 3 and lst.anomalies == []


def test_an_entry_of_another_buffer_is_refused():
    a = perfbuf.parse_v2_instances(_instance_list(["a", "b"]))
    b = perfbuf.parse_v2_instances(_instance_list(["c"]))
    with pytest.raises(perfbuf.PerfbufError) as raised:
        b.name(a.instances[1])
    assert raised.value.status_name == "PERFBUF_E_INVALID_ARGUMENT"
    names = perfbuf.parse_v2_strings(NAMES.read_bytes())
    other = perfbuf.parse_v2_strings(NAMES.read_bytes())
    with pytest.raises(perfbuf.PerfbufError):
        other.text(names.strings[0])
    assert other.text(other.strings[0]) == names.strings[0].text == "% Processor Time"


def test_views_keep_their_bytes_alive_and_read_them_in_place():
    import gc
    data = bytearray(_instance_list(["abc"]))
    lst = perfbuf.parse_v2_instances(memoryview(data))
    inst = lst.instances[0]
    del data, lst
    gc.collect()
    assert inst.name == "abc"
    # The list reads the caller's memory: a change shows, a resize is refused.
    data = bytearray(_instance_list(["abc"]))
    lst = perfbuf.parse_v2_instances(data)
    data[8] = ord("x")
    assert lst.instances[0].name == "xbc"
    with pytest.raises(BufferError):
        data.extend(b"\0" * 8)


def test_strings_find_and_names():
    s = perfbuf.parse_v2_strings(NAMES.read_bytes())
    assert s.origin == "array-end" and s.find(29) is None
    assert s.find(5).text == "% Interrupt Time"
    assert s.names()[0] == "% Processor Time" and len(s.names()) == s.count


def test_registration_counters_and_crosscheck():
    reg = perfbuf.parse_v2_registration(REG.read_bytes())
    assert reg.counter_count == len(reg.counters) == 31
    assert reg.find(21).base_counter_id == 22 and reg.find(29) is None
    q = perfbuf.parse_v2_query(Q1.read_bytes())
    assert perfbuf.crosscheck(q, reg) is None
    with pytest.raises(TypeError):
        perfbuf.crosscheck(reg, q)


def test_strict_rejects_what_lenient_reports_as_an_anomaly():
    """A string with bytes after its NUL: an anomaly, or strict's rejection."""
    data = "name".encode("utf-16-le") + b"\0\0" + b"\0\0"
    lenient = perfbuf.parse_v2_string(data)
    assert lenient.text == "name" and lenient.anomalies == ["trailing-bytes"]
    assert lenient.first_anomaly.status_name == "PERFBUF_E_TRAILING_BYTES"
    with pytest.raises(perfbuf.PerfbufError) as raised:
        perfbuf.parse_v2_string(data, strict=True)
    assert raised.value.offset == lenient.first_anomaly.offset
