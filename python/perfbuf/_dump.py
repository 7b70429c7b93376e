# SPDX-License-Identifier: MIT OR Apache-2.0
"""`python -m perfbuf FILE`: the JSON perfbuf-dump --json writes, from Python.

The document is built as nested dicts in perfbuf-dump's key order and
written byte for byte as its emitter writes it (two-space indentation,
the same escapes), so the two outputs can be compared as text.
"""
import ctypes
import struct
import sys

from . import (E_BAD_REFERENCE, E_OUTPUT_TOO_SMALL, OK, PerfbufError, V1Capture, NameTable,
               V2Query, status_name, status_string)
from . import _native as N

# perfbuf-dump cuts a full name at this many bytes (and says so).
FULL_NAME_MAX = 4095

_LEAP = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_COMMON = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _le32(buf, offset):
    return struct.unpack("<I", buf.read(offset, 4))[0]


def _systemtime(t):
    d = dict(t)
    y = t["year"]
    leap = (y % 4 == 0 and y % 100 != 0) or y % 400 == 0
    valid = (1601 <= y <= 9999 and 1 <= t["month"] <= 12 and t["day_of_week"] <= 6
             and t["hour"] <= 23 and t["minute"] <= 59 and t["second"] <= 59
             and t["milliseconds"] <= 999)
    if valid:
        valid = 1 <= t["day"] <= (_LEAP if leap else _COMMON)[t["month"] - 1]
    d["iso8601"] = ("%04u-%02u-%02uT%02u:%02u:%02u.%03uZ" % (
        y, t["month"], t["day"], t["hour"], t["minute"], t["second"], t["milliseconds"])
        if valid else None)
    return d


def _anomalies(d, capture):
    d["anomalies"] = list(capture.anomalies)
    if capture.first_anomaly is not None:
        a = capture.first_anomaly
        d["first_anomaly"] = {"offset": a.offset, "structure": a.structure, "field": a.field,
                              "status": a.status_name}


def dump_v1(cap):
    buf = cap._buffer
    d = {"signature": "PERF", "little_endian": _le32(buf, 8), "version": cap.version,
         "revision": cap.revision, "total_byte_length": cap.size,
         "header_length": cap.header_length, "num_object_types": cap.declared_object_count,
         "default_object": cap.default_object, "system_time": _systemtime(cap.system_time),
         "perf_time": cap.perf_time, "perf_freq": cap.perf_freq,
         "perf_time_100ns": cap.perf_time_100ns, "system_name_length": _le32(buf, 80),
         "system_name_offset": _le32(buf, 84)}
    name = cap.system_name
    if name is not None:
        d["system_name"] = name
    _anomalies(d, cap)
    objects = []
    for o in cap.objects:
        od = {"position": o.position, "offset": o.offset, "total_byte_length": o.total_length,
              "definition_length": o.definition_length, "header_length": o.header_length,
              "object_name_title_index": o.name_title_index,
              "object_name_title": _le32(buf, o.offset + 16),
              "object_help_title_index": o.help_title_index,
              "object_help_title": _le32(buf, o.offset + 24), "detail_level": o.detail_level,
              "num_counters": o.counter_count, "default_counter": o.default_counter,
              "num_instances": o.num_instances, "code_page": o.code_page,
              "perf_time": o.perf_time, "perf_freq": o.perf_freq}
        counters = o.counters
        od["counters"] = [{
            "position": c.position, "offset": c.offset, "byte_length": c.byte_length,
            "counter_name_title_index": c.name_title_index,
            "counter_name_title": _le32(buf, c.offset + 8),
            "counter_help_title_index": c.help_title_index,
            "counter_help_title": _le32(buf, c.offset + 16), "default_scale": c.default_scale,
            "detail_level": c.detail_level, "counter_type": c.type,
            "counter_type_name": c.type_name, "counter_size": c.size,
            "counter_offset": c.counter_offset} for c in counters]
        single = o._counter_block_c()
        if single is not None:
            od["counter_block"] = {"offset": single.offset, "byte_length": single.byte_length}
            od["values"] = _values(o, counters, single)
        if o.num_instances >= 0:
            insts = []
            for inst in o.instances:
                name_length = _le32(buf, inst.offset + 20)
                idd = {"position": inst.position, "offset": inst.offset,
                       "byte_length": inst.byte_length,
                       "parent_object_title_index": inst.parent_title_index,
                       "parent_object_instance": inst.parent_instance,
                       "unique_id": inst.unique_id,
                       "name_offset": _le32(buf, inst.offset + 16),
                       "name_length": name_length}
                iname = inst.name
                if name_length == 0:
                    idd["name"] = None
                elif iname is not None:
                    idd["name"] = iname
                else:
                    idd["name_code_page"] = inst.code_page
                st, full = inst.full_name_status(FULL_NAME_MAX + 1)
                if st in (OK, E_BAD_REFERENCE, E_OUTPUT_TOO_SMALL):
                    idd["full_name"] = full
                    idd["full_name_cut"] = st == E_OUTPUT_TOO_SMALL
                if st == E_BAD_REFERENCE:
                    idd["parent_error"] = status_name(st)
                blk = inst._c.counters
                idd["counter_block"] = {"offset": blk.offset, "byte_length": blk.byte_length}
                idd["values"] = _values(o, counters, blk)
                insts.append(idd)
            od["instances"] = insts
        objects.append(od)
    d["objects"] = objects
    return d


def _values(o, counters, blk):
    """Raw values as perfbuf-dump shows them: 4- and 8-byte counters as numbers,
    other sizes as the hex of their bytes."""
    block = ctypes.byref(o.capture._block)
    out = []
    for c in counters:
        if c.size in (4, 8):
            out.append(N.v1_counter_value(block, ctypes.byref(blk), ctypes.byref(c._c)))
        else:
            p = N.v1_counter_bytes(block, ctypes.byref(blk), ctypes.byref(c._c))
            out.append(ctypes.string_at(p, c.size).hex() if p and c.size else "")
    return out


def dump_names(t):
    d = {"size": t.size, "count": t.count, "ascending": t.ascending}
    _anomalies(d, t)
    d["entries"] = [{"title_index": k, "text": text} for k, text in t.entries]
    return d


def dump_v2_query(q):
    buf = q._buffer
    d = {"received": q.received, "total_size": q.size, "num_counters": q.block_count,
         "perf_time_stamp": q.perf_time_stamp, "perf_time_100ns": q.perf_time_100ns,
         "perf_freq": q.perf_freq, "system_time": _systemtime(q.system_time)}
    _anomalies(d, q)
    blocks = []
    for b in q.blocks():
        bd = {"position": b["position"], "offset": b["offset"], "status": b["status"],
              "type": b["type"], "type_name": b["type_name"], "size": b["size"],
              "reserved": _le32(buf, b["offset"] + 12)}
        if "counter_ids" in b:
            at = b["ids_offset"] - 8
            bd["multi_counters"] = {"offset": at, "size": _le32(buf, at),
                                    "counters": _le32(buf, at + 4)}
            bd["counter_ids"] = b["counter_ids"]
        if "instances" in b:
            at = b["items_offset"] - 8
            bd["multi_instances"] = {"offset": at, "total_size": _le32(buf, at),
                                     "instances": _le32(buf, at + 4)}
            bd["instances"] = [{"position": i["position"], "offset": i["offset"],
                                "size": i["size"], "instance_id": i["instance_id"],
                                "name": i["name"], "values": _v2_values(buf, i["values"])}
                               for i in b["instances"]]
        elif "values" in b:
            bd["values"] = _v2_values(buf, b["values"])
        blocks.append(bd)
    d["blocks"] = blocks
    return d


def _v2_values(buf, values):
    out = []
    for v in values:
        vd = {"position": v["position"], "offset": v["offset"]}
        if v["counter_id"] is not None:
            vd["counter_id"] = v["counter_id"]
        vd["data_size"] = v["data_size"]
        vd["size"] = _le32(buf, v["offset"] + 4)
        if v["value"] is not None:
            vd["value"] = v["value"]
        else:
            vd["bytes"] = v["bytes"].hex()
        out.append(vd)
    return out


def _detect(data):
    """perfbuf-dump's detection, in its order (tools/dump/main.c)."""
    data = memoryview(data).cast("B")
    n = len(data)
    if n >= 8 and data[:8].tobytes() == b"P\0E\0R\0F\0":
        return "v1"
    if (n >= 6 and n % 2 == 0 and 0x30 <= data[0] <= 0x39 and data[1] == 0
            and data[n - 4:].tobytes() == b"\0\0\0\0"):
        return "v1-names"
    if n >= 48 and struct.unpack_from("<I", data)[0] == n and n % 8 == 0:
        return "v2-query"
    return None


FORMATS = {"v1": (V1Capture, dump_v1), "v1-names": (NameTable, dump_names),
           "v2-query": (V2Query, dump_v2_query)}


def document(data, path, strict=False, fmt=None):
    """(dict, error or None) of perfbuf-dump --json for these bytes; None when
    the format is not one this package dumps."""
    fmt = fmt or _detect(data)
    if fmt not in FORMATS:
        return None, None
    parser, dumper = FORMATS[fmt]
    d = {"format": fmt, "file": path, "bytes": len(data)}
    try:
        capture = parser(data, strict=strict)
    except PerfbufError as e:
        d["valid"] = False
        d["error"] = {"offset": e.offset, "structure": e.structure, "field": e.field,
                      "status": e.status_name, "message": status_string(e.status)}
        if e.declared or e.limit:
            d["error"]["declared"] = e.declared
            d["error"]["limit"] = e.limit
        return d, e
    d.update(dumper(capture))
    d["valid"] = True
    return d, None


# ------------------------------------------------------------ writing ----

def _unsafe(cp):
    return (cp < 0x20 or 0x7F <= cp <= 0x9F or cp in (0x061C, 0x200E, 0x200F)
            or 0x2028 <= cp <= 0x202E or 0x2066 <= cp <= 0x2069)


def _quoted(s):
    out = ['"']
    for ch in s:
        cp = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif 0xD800 <= cp <= 0xDFFF:
            out.append("\\ufffd")
        elif _unsafe(cp):
            out.append("\\u%04x" % cp)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _scalar(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    return _quoted(v)


def _write(out, value, depth):
    """A container's items after its opening bracket, as emit.c lays them out."""
    pad = "  " * depth + "  "
    items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
    had = False
    for key, v in items:
        out.append(",\n" if had else "\n")
        had = True
        out.append(pad)
        if key is not None:
            out.append(_quoted(key) + ": ")
        if isinstance(v, dict):
            out.append("{")
            _write(out, v, depth + 1)
            out.append("}")
        elif isinstance(v, list):
            out.append("[")
            _write(out, v, depth + 1)
            out.append("]")
        else:
            out.append(_scalar(v))
    if had and depth > 0:
        out.append("\n" + "  " * (depth - 1) + "  ")


def dumps(doc):
    out = ["{"]
    _write(out, doc, 0)
    out.append("\n}\n")
    return "".join(out)


# The words perfbuf-dump's rejection line puts before the bound, by status.
_LIMIT_WORDS = {"PERFBUF_E_SIZE_EXCEEDS_RECEIVED": "received",
                "PERFBUF_E_SIZE_TOO_SMALL": "at least",
                "PERFBUF_E_COUNT_TOO_LARGE": "room for",
                "PERFBUF_E_LIMIT_EXCEEDED": "limit"}


def _sizes_compared(err):
    """perfbuf-dump's " (declared N, received M)" after a rejection line, when
    the rejection carries the two numbers it compared; "" otherwise."""
    if not (err.declared or err.limit):
        return ""
    declared = "needs" if err.status_name == "PERFBUF_E_TRUNCATED" else "declared"
    return " (%s %d, %s %d)" % (declared, err.declared,
                                _LIMIT_WORDS.get(err.status_name, "available"), err.limit)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    strict = "--strict" in argv
    rest = [a for a in argv if a not in ("--strict", "--json")]
    fmt = None
    if len(rest) >= 2 and rest[0] in ("-f", "--format"):
        fmt, rest = rest[1], rest[2:]
    if len(rest) != 1 or rest[0].startswith("-") and rest[0] != "-":
        sys.stderr.write("usage: python -m perfbuf [--strict] [-f v1|v1-names|v2-query] FILE\n"
                         "  writes what perfbuf-dump --json writes for that file\n")
        return 2
    path = rest[0]
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as exc:
        sys.stderr.write("perfbuf: %s: %s\n" % (path, exc.strerror))
        return 2
    doc, err = document(data, path, strict, fmt)
    if doc is None and not data and fmt is None:
        sys.stderr.write("perfbuf: %s: the file is empty (0 bytes)\n" % path)
        return 2
    if doc is None:
        sys.stderr.write("perfbuf: %s: format not recognised; name it with --format "
                         "(this package dumps v1, v1-names and v2-query)\n" % path)
        return 2
    sys.stdout.write(dumps(doc))
    sys.stdout.flush()
    if err is not None:
        sys.stderr.write("%s: %s%s\n" % (path, err, _sizes_compared(err)))
        return 1
    return 0
