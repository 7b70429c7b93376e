# SPDX-License-Identifier: MIT OR Apache-2.0
"""perfbuf: validated readers of Windows performance-counter buffers.

    cap = perfbuf.parse_v1(data)          # bytes, bytearray or memoryview; no copy
    for obj in cap.objects:
        for inst in obj.instances:
            print(inst.full_name, inst.values)

The V2 readers: parse_v2_query, parse_v2_registration and the other
metadata answers (parse_v2_counter, parse_v2_string, parse_v2_provider_guid,
parse_v2_strings, parse_v2_countersets, parse_v2_instances,
parse_v2_identifiers), and crosscheck.

Every rejection raises PerfbufError (offset, structure, field, status).
Views (objects, counters, instances) keep their capture, and so its bytes,
alive; a view of one capture handed to another is refused.
"""
import array
import ctypes
import struct

from . import _native as N
from ._buffer import Buffer

__all__ = ["PerfbufError", "parse_v1", "parse_names", "parse_v2_query", "parse_path",
           "parse_v2_registration", "V2Registration", "v2_formatted_array",
           "V1Capture", "V1Object", "V1Counter", "V1Instance", "NameTable", "V2Query",
           "format_v1", "format_v1_object", "format_v2_block", "formatted_array", "counter_values", "statistics", "version",
           "parse_v2_counter", "parse_v2_string", "parse_v2_provider_guid",
           "parse_v2_countersets", "parse_v2_instances", "parse_v2_strings",
           "parse_v2_identifiers", "crosscheck", "V2Counter", "V2CounterAnswer", "V2String",
           "V2Countersets", "V2InstanceList", "V2ListedInstance", "V2Strings",
           "V2CounterString", "V2Identifiers", "V2Identifier", "V2Mismatch", "Query",
           "QueryCounter", "QueryItem", "openmetrics", "OpenMetricsError",
           "openmetrics_mapping", "openmetrics_promql", "openmetrics_name", "openmetrics_escape"]

STRICT = 0x1
FMT_LONG, FMT_DOUBLE, FMT_LARGE = 0x100, 0x200, 0x400
FMT_NOSCALE, FMT_1000, FMT_NOCAP100 = 0x1000, 0x2000, 0x8000

# perfbuf_status: every name the library knows, by value, and back.
# The library answers a value past its table with a fixed name and text:
# the table ends at the first value answered so.
_PAST_END = (N.status_name(0x7FFFFFFF), N.status_string(0x7FFFFFFF))
STATUS_NAMES = []
for _k in range(4096):
    if (N.status_name(_k), N.status_string(_k)) == _PAST_END:
        break
    STATUS_NAMES.append(N.status_name(_k).decode())
STATUS = {name: k for k, name in enumerate(STATUS_NAMES)}
OK = 0
E_OUTPUT_TOO_SMALL = STATUS["PERFBUF_E_OUTPUT_TOO_SMALL"]
E_BAD_REFERENCE = STATUS["PERFBUF_E_BAD_REFERENCE"]
E_INVALID_ARGUMENT = STATUS["PERFBUF_E_INVALID_ARGUMENT"]

# The anomaly bits (common.h) and the words perfbuf-dump writes for them.
ANOMALIES = [(0x01, "unaligned-size"), (0x02, "trailing-bytes"), (0x04, "excess-padding"),
             (0x08, "reserved-nonzero"), (0x10, "count-mismatch"), (0x20, "unknown-value"),
             (0x40, "size-mismatch"), (0x80, "duplicate"), (0x200, "missing-base"),
             (0x400, "unterminated")]

# Counter statuses (values.h) and perfbuf-dump's words for them (cstatus.def).
CSTATUS = {0x00000000: "valid-data", 0x00000001: "new-data", 0x800007D0: "no-machine",
           0x800007D1: "no-instance", 0x800007D3: "item-not-validated", 0x800007D5: "no-data",
           0x800007D6: "negative-denominator", 0x800007D7: "negative-timebase",
           0x800007D8: "negative-value", 0xC0000BB8: "no-object", 0xC0000BB9: "no-counter",
           0xC0000BBA: "invalid-data", 0xC0000BBD: "not-displayable",
           0xC0000BBF: "no-countername", 0xC0000BC0: "bad-countername",
           0xC0000BC6: "out-of-range"}

# The compact codes (PERFBUF_COMPACT_* in values.h): code -> counter status.
COMPACT = [0x00000000, 0xC0000BBA, 0xC0000BBD, 0xC0000BC6, 0x800007D6, 0x800007D7,
           0x800007D8, 0xC0000BB9]


def version():
    return N.version_string().decode()


def status_name(code):
    return N.status_name(code).decode()


def status_string(code):
    return N.status_string(code).decode()


def cstatus_name(code):
    """perfbuf-dump's word for a counter status ("valid-data", "invalid-data", ...)."""
    return CSTATUS.get(code, "unknown")


class PerfbufError(Exception):
    """A rejected buffer or a refused call: where, in which field, and why.

    str() is the line perfbuf-dump prints for a rejection, after the file's name:
    "offset 0x1c: PERF_OBJECT_TYPE.TotalByteLength: <reason>". A rejected size,
    count or offset also carries the two numbers compared, `declared` and
    `limit` (perfbuf_error's; both 0 for any other rejection).
    """

    def __init__(self, status, offset=0, structure="", field="", declared=0, limit=0):
        self.status = status
        self.status_name = status_name(status)
        self.offset = offset
        self.structure = structure
        self.field = field
        self.declared = declared
        self.limit = limit
        self.reason = status_string(status)
        super().__init__("offset 0x%x: %s.%s: %s" % (offset, structure or "?", field or "?",
                                                      self.reason))

    @classmethod
    def _from(cls, status, err):
        return cls(status, err.offset, _cstr(err.structure), _cstr(err.field), err.declared,
                   err.limit)


def _cstr(p):
    return p.decode() if p else ""


def _refuse(what):
    return PerfbufError(E_INVALID_ARGUMENT, 0, what, "")


class Location:
    """Where an anomaly was first seen (a lenient parse's first_anomaly)."""
    __slots__ = ("offset", "structure", "field", "status", "status_name")

    def __init__(self, err):
        self.offset = err.offset
        self.structure = _cstr(err.structure)
        self.field = _cstr(err.field)
        self.status = err.status
        self.status_name = status_name(err.status)

    def __repr__(self):
        return "Location(0x%x, %s.%s, %s)" % (self.offset, self.structure, self.field,
                                             self.status_name)


def _options(strict, max_sections, max_counters, max_instances):
    return N.Options(STRICT if strict else 0, max_sections, max_counters, max_instances)


def _anomaly_names(bits):
    return [name for bit, name in ANOMALIES if bits & bit]


def _utf8(fn, *args, cap=256):
    """(status, text) from a text.h call, retried once with the room it asked for."""
    length = ctypes.c_size_t(0)
    out = ctypes.create_string_buffer(cap)
    st = fn(*args, out, cap, ctypes.byref(length))
    if st == E_OUTPUT_TOO_SMALL and length.value + 1 > cap:
        cap = length.value + 1
        out = ctypes.create_string_buffer(cap)
        st = fn(*args, out, cap, ctypes.byref(length))
    return st, out.value.decode("utf-8", "replace")


def _time(t):
    return {"year": t.year, "month": t.month, "day_of_week": t.day_of_week, "day": t.day,
            "hour": t.hour, "minute": t.minute, "second": t.second,
            "milliseconds": t.milliseconds}


class _Capture:
    """A parsed buffer: the bytes (exported, never copied) and the C view."""

    def __init__(self, data):
        self._buffer = Buffer(data)

    @property
    def data(self):
        """The object the capture reads (kept alive as long as the capture)."""
        return self._buffer.obj

    def _bytes(self):
        """A byte view of the caller's object (no copy), made once."""
        view = getattr(self, "_view", None)
        if view is None:
            view = memoryview(self._buffer.obj).cast("B")
            self._view = view
        return view

    def _own(self, view, what):
        if getattr(view, "capture", None) is not self:
            raise _refuse(what + " of another capture")


# ---------------------------------------------------------------- V1 ----

class V1Counter:
    """A PERF_COUNTER_DEFINITION."""
    __slots__ = ("capture", "object", "_c", "position", "offset", "byte_length",
                 "name_title_index", "help_title_index", "default_scale", "detail_level",
                 "type", "size", "counter_offset")

    def __init__(self, obj, c):
        self.capture = obj.capture
        self.object = obj
        self._c = c
        self.position = c.index
        self.offset = c.offset
        self.byte_length = c.byte_length
        self.name_title_index = c.name_title_index
        self.help_title_index = c.help_title_index
        self.default_scale = c.default_scale
        self.detail_level = c.detail_level
        self.type = c.type
        self.size = c.size
        self.counter_offset = c.counter_offset

    @property
    def type_name(self):
        return N.counter_type_name(self.type).decode()

    def __repr__(self):
        return "V1Counter(%d, %s)" % (self.name_title_index, self.type_name)


class V1Instance:
    """A PERF_INSTANCE_DEFINITION and its counter block."""
    __slots__ = ("capture", "object", "_c", "position", "offset", "byte_length",
                 "parent_title_index", "parent_instance", "unique_id", "code_page")

    def __init__(self, obj, c):
        self.capture = obj.capture
        self.object = obj
        self._c = c
        self.position = c.index
        self.offset = c.offset
        self.byte_length = c.byte_length
        self.parent_title_index = c.parent_title_index
        self.parent_instance = c.parent_instance
        self.unique_id = c.unique_id
        self.code_page = c.code_page

    @property
    def counter_block(self):
        return (self._c.counters.offset, self._c.counters.byte_length)

    @property
    def name(self):
        """The name as str; None when the buffer gives none or its code page is unknown."""
        st, text = _utf8(N.v1_instance_name_utf8, ctypes.byref(self.capture._block),
                         ctypes.byref(self._c))
        return text if st == OK else None

    @property
    def name_bytes(self):
        return self.capture._buffer.read(self._c.name_offset, self._c.name_bytes)

    def full_name_status(self, cap=None):
        """(status, "parent/name"): BAD_REFERENCE when the parent reference is broken
        (the plain name then), OUTPUT_TOO_SMALL when cap bytes cut it."""
        cap_obj = self.capture
        index = cap_obj._parents()
        args = (ctypes.byref(cap_obj._block), ctypes.byref(self.object._c),
                ctypes.byref(self._c), index)
        if cap is not None:
            length = ctypes.c_size_t(0)
            out = ctypes.create_string_buffer(cap)
            st = N.v1_full_name_utf8(*args, out, cap, ctypes.byref(length))
            return st, out.value.decode("utf-8", "replace")
        return _utf8(N.v1_full_name_utf8, *args)

    @property
    def full_name(self):
        st, text = self.full_name_status()
        if st not in (OK, E_BAD_REFERENCE):
            raise PerfbufError(st, self.offset, "PERF_INSTANCE_DEFINITION", "NameOffset")
        return text

    @property
    def values(self):
        """Every counter's raw value in definition order (4- and 8-byte counters;
        other sizes read as 0: see V1Object.counter_bytes)."""
        return self.object._read(self._c.counters)

    def __repr__(self):
        return "V1Instance(%d, %r)" % (self.position, self.name)


class V1Object:
    """A PERF_OBJECT_TYPE with its definitions and instances."""

    def __init__(self, capture, c):
        self.capture = capture
        self._c = c
        for field in ("offset", "total_length", "definition_length", "header_length",
                      "name_title_index", "help_title_index", "detail_level", "counter_count",
                      "default_counter", "num_instances", "instance_count", "code_page",
                      "perf_time", "perf_freq"):
            setattr(self, field, getattr(c, field))
        self.position = c.index
        self._counters = None
        self._instances = None
        self._plan = None
        self._values = None
        self._row = None  # struct of one matrix row (read_all)

    @property
    def counters(self):
        if self._counters is None:
            out = []
            it = N.V1Iter()
            N.v1_counters_begin(ctypes.byref(self._c), ctypes.byref(it))
            block = ctypes.byref(self.capture._block)
            while True:
                c = N.V1Counter()
                if not N.v1_counters_next(block, ctypes.byref(it), ctypes.byref(c)):
                    break
                out.append(V1Counter(self, c))
            self._counters = out
        return self._counters

    @property
    def counter_block(self):
        """(offset, byte_length) of the single counter block (NumInstances -1), else None."""
        blk = N.V1CounterBlock()
        if N.v1_object_counter_block(ctypes.byref(self.capture._block), ctypes.byref(self._c),
                                     ctypes.byref(blk)):
            return (blk.offset, blk.byte_length)
        return None

    def _counter_block_c(self):
        blk = N.V1CounterBlock()
        if N.v1_object_counter_block(ctypes.byref(self.capture._block), ctypes.byref(self._c),
                                     ctypes.byref(blk)):
            return blk
        return None

    @property
    def instances(self):
        if self._instances is None:
            out = []
            it = N.V1Iter()
            N.v1_instances_begin(ctypes.byref(self._c), ctypes.byref(it))
            block = ctypes.byref(self.capture._block)
            itp = ctypes.byref(it)
            nxt = N.v1_instances_next
            while True:
                c = N.V1Instance()
                if not nxt(block, itp, ctypes.byref(c)):
                    break
                out.append(V1Instance(self, c))
            self._instances = out
        return self._instances

    def _plan_c(self):
        if self._plan is None:
            n = max(self.counter_count, 1)
            entries = (N.V1PlanEntry * n)()
            plan = N.V1Plan()
            st = N.v1_plan_build(ctypes.byref(self.capture._block), ctypes.byref(self._c),
                                 entries, n, ctypes.byref(plan))
            if st != OK:
                raise PerfbufError(st, self.offset, "PERF_OBJECT_TYPE", "NumCounters")
            self._plan = (plan, entries)
            self._values = (N.u64 * n)()
        return self._plan[0]

    def _read(self, blk):
        plan = self._plan_c()
        st = N.v1_plan_read(ctypes.byref(plan), ctypes.byref(self.capture._block),
                            ctypes.byref(blk), self._values, len(self._values))
        if st != OK:
            raise PerfbufError(st, blk.offset, "PERF_COUNTER_BLOCK", "ByteLength")
        return self._values[:plan.count]

    @property
    def values(self):
        """The single counter block's raw values (NumInstances -1), else None."""
        blk = self._counter_block_c()
        return self._read(blk) if blk is not None else None

    def read_all(self):
        """Every instance's raw values: a list of tuples, in instance order, equal
        to [tuple(i.values) for i in instances] (the fast path for a collector
        that keeps every value).

        One library call (perfbuf_v1_plan_read_object) reads every counter of
        every instance into a matrix, walking the instances by their
        validated lengths; one struct call turns the matrix, row by row, into
        tuples of ints, with no list of the values in between. An
        object without instances (NumInstances -1 included, whose single
        block `values` reads) gives no rows, as its instances list has none."""
        matrix, count = self._read_matrix()
        if matrix is None:
            return self._read_all_through_library()
        if self._row is None or self._row.size != 8 * count:
            self._row = struct.Struct("=%dQ" % count)
        return list(self._row.iter_unpack(matrix))

    def _read_matrix(self):
        """(every instance's values row by row in an array("Q"), values per
        row) through perfbuf_v1_plan_read_object, or (None, values per row)
        where that call does not apply (no instances, no counters) or fails
        (the per-block read then reports the block it cannot read)."""
        plan = self._plan_c()
        n = self.instance_count
        count = plan.count
        if n <= 0 or count == 0:
            return None, count
        matrix = array.array("Q", bytes(8 * n * count))
        address, _ = matrix.buffer_info()
        needed = ctypes.c_size_t()
        st = N.v1_plan_read_object(ctypes.byref(plan), ctypes.byref(self.capture._block),
                                   ctypes.byref(self._c), address, n * count,
                                   ctypes.byref(needed))
        if st != OK or needed.value != n * count:
            return None, count
        return matrix, count

    def read_all_array(self):
        """Every instance's raw values as one flat array: (values, columns),
        values an array.array("Q") of instance_count x columns unsigned
        64-bit values, row by row in instance order, each row what read_all
        gives that instance (so values == [v for row in read_all() for v
        in row]). No Python int is made for a value until one is read, and
        the array's buffer (native byte order) is what numpy.frombuffer(values,
        "=u8").reshape(-1, columns) takes without a copy: the path for a caller that
        does arithmetic over every value. The same library call as read_all
        (perfbuf_v1_plan_read_object). An object without instances gives an
        empty array."""
        matrix, count = self._read_matrix()
        if matrix is None:
            rows = self._read_all_through_library()
            return array.array("Q", [v for row in rows for v in row]), count
        return matrix, count

    def _read_all_through_library(self):
        plan = self._plan_c()
        block = ctypes.byref(self.capture._block)
        planp = ctypes.byref(plan)
        values = self._values
        cap = len(values)
        count = plan.count
        read = N.v1_plan_read
        it = N.V1Iter()
        inst = N.V1Instance()
        itp, instp = ctypes.byref(it), ctypes.byref(inst)
        blkp = ctypes.byref(inst.counters)
        nxt = N.v1_instances_next
        N.v1_instances_begin(ctypes.byref(self._c), itp)
        out = []
        while nxt(block, itp, instp):
            if read(planp, block, blkp, values, cap) != OK:
                raise PerfbufError(E_INVALID_ARGUMENT, inst.counters.offset,
                                   "PERF_COUNTER_BLOCK", "ByteLength")
            out.append(tuple(values[:count]))
        return out

    def counter_bytes(self, counter, instance=None):
        """A counter's CounterSize bytes in the instance's (or the object's) block."""
        self.capture._own(counter, "counter")
        if instance is not None:
            self.capture._own(instance, "instance")
            blk = instance._c.counters
        else:
            blk = self._counter_block_c()
            if blk is None:
                raise _refuse("PERF_OBJECT_TYPE")
        p = N.v1_counter_bytes(ctypes.byref(self.capture._block), ctypes.byref(blk),
                               ctypes.byref(counter._c))
        if not p:
            return b""
        return ctypes.string_at(p, counter.size)

    def raw_sample(self, counter, instance=None):
        """(RawSample, ValueContext) of one counter, as perfbuf_format_value takes them."""
        self.capture._own(instance or self, "instance")
        blk = instance._c.counters if instance is not None else self._counter_block_c()
        if blk is None:
            raise _refuse("PERF_OBJECT_TYPE")
        sample, context = N.RawSample(), N.ValueContext()
        st = N.v1_raw_sample(ctypes.byref(self.capture._block), ctypes.byref(self._c),
                             ctypes.byref(counter._c), ctypes.byref(blk), ctypes.byref(sample),
                             ctypes.byref(context))
        if st != OK:
            raise PerfbufError(st, counter.offset, "PERF_COUNTER_DEFINITION", "CounterType")
        return sample, context

    def __repr__(self):
        return "V1Object(%d, %d counters, %d instances)" % (
            self.name_title_index, self.counter_count, self.instance_count)


class V1Capture(_Capture):
    """A validated V1 data block (PERF_DATA_BLOCK)."""

    def __init__(self, data, strict=False, max_sections=0, max_counters=0, max_instances=0):
        super().__init__(data)
        self._block = N.V1Block()
        err = N.Error()
        opts = _options(strict, max_sections, max_counters, max_instances)
        st = N.v1_parse(self._buffer.address, self._buffer.size, ctypes.byref(opts),
                        ctypes.byref(self._block), ctypes.byref(err))
        if st != OK:
            raise PerfbufError._from(st, err)
        b = self._block
        self.received = b.received
        self.size = b.size
        self.version = b.version
        self.revision = b.revision
        self.header_length = b.header_length
        self.object_count = b.object_count
        self.declared_object_count = b.declared_object_count
        self.default_object = b.default_object
        self.perf_time = b.perf_time
        self.perf_freq = b.perf_freq
        self.perf_time_100ns = b.perf_time_100ns
        self.system_time = _time(b.system_time)
        self.anomaly_bits = b.anomalies
        self.anomalies = _anomaly_names(b.anomalies)
        self.first_anomaly = Location(b.first_anomaly) if b.anomalies else None
        self._objects = None
        self._index = None

    @property
    def system_name(self):
        st, text = _utf8(N.v1_system_name_utf8, ctypes.byref(self._block))
        return text if st == OK else None

    @property
    def objects(self):
        if self._objects is None:
            out = []
            it = N.V1Iter()
            N.v1_objects_begin(ctypes.byref(self._block), ctypes.byref(it))
            while True:
                o = N.V1Object()
                if not N.v1_objects_next(ctypes.byref(self._block), ctypes.byref(it),
                                         ctypes.byref(o)):
                    break
                out.append(V1Object(self, o))
            self._objects = out
        return self._objects

    def object(self, title_index):
        """The first object whose ObjectNameTitleIndex is title_index, or None."""
        for o in self.objects:
            if o.name_title_index == title_index:
                return o
        return None

    def _parents(self):
        """The block-wide instance index (built once), or None if it cannot be."""
        if self._index is None:
            n = self._block.index_slots
            slots = (N.u64 * max(n, 1))()
            index = N.V1InstanceIndex()
            st = N.v1_block_index_build(ctypes.byref(self._block), slots, n,
                                        ctypes.byref(index))
            self._index = (ctypes.pointer(index), slots) if st == OK else (None, None)
        return self._index[0]


def parse_v1(data, strict=False, max_sections=0, max_counters=0, max_instances=0):
    """Validates a V1 data block; raises PerfbufError when it is rejected."""
    return V1Capture(data, strict, max_sections, max_counters, max_instances)


# ------------------------------------------------------------- values ----

def _format(type_, newer, older, context, flags):
    v = N.Value()
    st = N.format_value(type_, ctypes.byref(newer), ctypes.byref(older) if older else None,
                        ctypes.byref(context), flags, ctypes.byref(v))
    return st, v


def _pick(v, flags):
    if flags & FMT_LONG:
        return v.as_long
    if flags & FMT_LARGE:
        return v.as_large
    return v.as_double


def format_v1(newer, older, instance=None, older_instance=None, flags=FMT_DOUBLE):
    """Every counter of V1 object `newer` formatted against the same object of an
    earlier capture `older`, as PDH formats it: a list of (value, status) in
    definition order; value is None unless the status is valid-data. The
    counter blocks are the instances given (paired by the caller, e.g. by
    name) or the objects' single counter blocks."""
    if not isinstance(newer, V1Object) or not isinstance(older, V1Object):
        raise TypeError("format_v1 takes two V1Object")
    if instance is not None:
        newer.capture._own(instance, "instance")
        nblk = instance._c.counters
    else:
        nblk = newer._counter_block_c()
    if older_instance is not None:
        older.capture._own(older_instance, "instance")
        oblk = older_instance._c.counters
    else:
        oblk = older._counter_block_c()
    if nblk is None or oblk is None:
        raise _refuse("PERF_COUNTER_BLOCK")
    np_, op_ = newer._plan_c(), older._plan_c()
    n = max(np_.count, 1)
    values = (N.Value * n)()
    st = N.v1_plan_format_all(ctypes.byref(np_), ctypes.byref(newer.capture._block),
                              ctypes.byref(nblk), ctypes.byref(op_),
                              ctypes.byref(older.capture._block), ctypes.byref(oblk), flags,
                              values, n)
    if st != OK:
        raise PerfbufError(st, nblk.offset, "PERF_COUNTER_BLOCK", "ByteLength")
    return [(_pick(v, flags) if v.status == 0 else None, v.status)
            for v in values[:np_.count]]


def format_v1_object(newer, older, flags=FMT_DOUBLE):
    """Every counter of every instance of V1 object `newer` formatted against the
    same object of an earlier capture `older`, the instances paired by position
    (both captures must hold as many, the same ones, as for an object whose
    instances do not come and go): a list of rows, one per instance (one for an
    object without instances), each a list of (value, status) as format_v1
    gives them. One library call (perfbuf_v1_plan_format_object_doubles) writes
    a double and a one-byte status per value; with FMT_LONG or FMT_LARGE the
    value is the double the integer came from (format_v1 gives the integer)."""
    if not isinstance(newer, V1Object) or not isinstance(older, V1Object):
        raise TypeError("format_v1_object takes two V1Object")
    np_, op_ = newer._plan_c(), older._plan_c()
    rows = 1 if newer._c.num_instances == -1 else max(newer.instance_count, 0)
    cells = rows * np_.count
    values = array.array("d", [0.0]) * max(cells, 1)
    codes = array.array("B", [0]) * max(cells, 1)
    needed = ctypes.c_size_t()
    st = N.v1_plan_format_object_doubles(
        ctypes.byref(np_), ctypes.byref(newer.capture._block), ctypes.byref(newer._c),
        ctypes.byref(op_), ctypes.byref(older.capture._block), ctypes.byref(older._c), flags,
        values.buffer_info()[0], codes.buffer_info()[0], cells, ctypes.byref(needed))
    if st != OK:
        raise PerfbufError(st, newer._c.offset, "PERF_OBJECT_TYPE", "NumInstances")
    count = np_.count
    out = []
    for i in range(rows):
        row = []
        for c in range(i * count, (i + 1) * count):
            status = COMPACT[codes[c]] if codes[c] < len(COMPACT) else N.compact_cstatus(codes[c])
            row.append((values[c] if status == 0 else None, status))
        out.append(row)
    return out


def statistics(counter_type, samples, context, flags=FMT_DOUBLE):
    """(min, max, mean, count, status) over raw samples (oldest first), as
    PdhComputeCounterStatistics computes them."""
    n = len(samples)
    ring = (N.RawSample * max(n, 1))(*samples)
    st = N.Statistics()
    rc = N.compute_statistics(counter_type, ctypes.byref(context), flags, 0, n, ring,
                              ctypes.byref(st))
    if rc != 0:
        return None, None, None, st.count, rc
    return _pick(st.min, flags), _pick(st.max, flags), _pick(st.mean, flags), st.count, rc


def format_value(counter_type, newer, older, context, flags=FMT_DOUBLE):
    """perfbuf_format_value: (value or None, status) from two raw samples."""
    st, v = _format(counter_type, newer, older, context, flags)
    return (_pick(v, flags) if st == 0 else None), st


# -------------------------------------------------------------- names ----

class NameTable(_Capture):
    """A validated Counter or Help table (REG_MULTI_SZ): title index -> text."""

    def __init__(self, data, strict=False):
        super().__init__(data)
        self._table = N.NameTable()
        err = N.Error()
        opts = _options(strict, 0, 0, 0)
        st = N.names_parse(self._buffer.address, self._buffer.size, ctypes.byref(opts),
                           ctypes.byref(self._table), ctypes.byref(err))
        if st != OK:
            raise PerfbufError._from(st, err)
        t = self._table
        self.size = t.size
        self.count = t.count
        self.ascending = bool(t.ascending)
        self.anomaly_bits = t.anomalies
        self.anomalies = _anomaly_names(t.anomalies)
        self.first_anomaly = Location(t.first_anomaly) if t.anomalies else None
        self._entries = None
        self._by_index = None
        self._by_text = None

    @property
    def entries(self):
        """[(title_index, text)] in buffer order, duplicates included."""
        if self._entries is None:
            out = []
            it = N.NamesIter()
            N.names_begin(ctypes.byref(self._table), ctypes.byref(it))
            while True:
                e = N.NameEntry()
                if not N.names_next(ctypes.byref(self._table), ctypes.byref(it),
                                    ctypes.byref(e)):
                    break
                _, text = _utf8(N.names_text_utf8, ctypes.byref(self._table), ctypes.byref(e))
                out.append((e.title_index, text))
            self._entries = out
        return self._entries

    def title(self, index):
        """The text of a title index (the first entry with it, as Windows reads it)."""
        if self._by_index is None:
            d = {}
            for k, text in self.entries:
                d.setdefault(k, text)
            self._by_index = d
        return self._by_index.get(index)

    def indexes(self, text):
        """Every title index whose text is `text`, ASCII case-insensitive as PDH compares."""
        if self._by_text is None:
            d = {}
            for k, t in self.entries:
                d.setdefault(_fold(t), []).append(k)
            self._by_text = d
        return list(self._by_text.get(_fold(text), []))


def _fold(text):
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)


def parse_names(data, strict=False):
    return NameTable(data, strict)


# ----------------------------------------------------------------- V2 ----

class V2Query(_Capture):
    """Validated PerfLib V2 query data (PerfQueryCounterData)."""

    def __init__(self, data, strict=False, max_sections=0, max_counters=0, max_instances=0):
        super().__init__(data)
        self._q = N.V2Query()
        err = N.Error()
        opts = _options(strict, max_sections, max_counters, max_instances)
        st = N.v2_query_parse(self._buffer.address, self._buffer.size, ctypes.byref(opts),
                              ctypes.byref(self._q), ctypes.byref(err))
        if st != OK:
            raise PerfbufError._from(st, err)
        q = self._q
        self.received = q.received
        self.size = q.size
        self.block_count = q.block_count
        self.perf_time_stamp = q.perf_time_stamp
        self.perf_time_100ns = q.perf_time_100ns
        self.perf_freq = q.perf_freq
        self.system_time = _time(q.system_time)
        self.anomaly_bits = q.anomalies
        self.anomalies = _anomaly_names(q.anomalies)
        self.first_anomaly = Location(q.first_anomaly) if q.anomalies else None

    def blocks(self):
        """Yields every counter block as a dict (kind, status, counter ids,
        instances with names and values, or values)."""
        qp = ctypes.byref(self._q)
        it = N.V2Iter()
        N.v2_blocks_begin(qp, ctypes.byref(it))
        while True:
            b = N.V2Block()
            if not N.v2_blocks_next(qp, ctypes.byref(it), ctypes.byref(b)):
                return
            yield self._block(b)

    def _values(self, b, vit):
        out = []
        while True:
            v = N.V2Value()
            if not N.v2_values_next(ctypes.byref(self._q), ctypes.byref(b), ctypes.byref(vit),
                                    ctypes.byref(v)):
                return out
            out.append({"position": v.index, "offset": v.offset,
                        "counter_id": None if v.counter_id == 0xFFFFFFFF else v.counter_id,
                        "data_size": v.data_size,
                        "value": v.integer if v.is_integer else None,
                        "bytes": None if v.is_integer else
                        (ctypes.string_at(v.bytes, v.data_size) if v.data_size else b"")})

    def _block(self, b):
        qp = ctypes.byref(self._q)
        d = {"position": b.index, "offset": b.offset, "status": b.status, "type": b.kind,
             "type_name": N.v2_kind_name(b.kind).decode(), "size": b.size,
             "counter_count": b.counter_count, "instance_count": b.instance_count,
             "ids_offset": b.ids_offset, "items_offset": b.items_offset}
        if b.kind in (2, 6):
            d["counter_ids"] = [N.v2_block_counter_id(qp, ctypes.byref(b), i)
                                for i in range(b.counter_count)]
        it = N.V2Iter()
        if b.kind in (4, 6):
            insts = []
            N.v2_instances_begin(ctypes.byref(b), ctypes.byref(it))
            while True:
                inst = N.V2Instance()
                if not N.v2_instances_next(qp, ctypes.byref(b), ctypes.byref(it),
                                           ctypes.byref(inst)):
                    break
                _, name = _utf8(N.v2_instance_name_utf8, qp, ctypes.byref(inst))
                vit = N.V2Iter()
                N.v2_instance_values_begin(ctypes.byref(inst), ctypes.byref(vit))
                insts.append({"position": inst.index, "offset": inst.offset, "size": inst.size,
                              "instance_id": inst.id, "name": name,
                              "values": self._values(b, vit)})
            d["instances"] = insts
        elif b.kind != 0:
            N.v2_block_values_begin(ctypes.byref(b), ctypes.byref(it))
            d["values"] = self._values(b, it)
        return d


def parse_v2_query(data, strict=False, max_sections=0, max_counters=0, max_instances=0):
    return V2Query(data, strict, max_sections, max_counters, max_instances)


class V2Registration(_Capture):
    """A validated counterset registration (PERF_COUNTERSET_REG_INFO, from
    PerfQueryCounterSetRegistrationInfo): the counter types V2 formulas need."""

    def __init__(self, data, strict=False, max_counters=0, max_sections=0, max_instances=0):
        super().__init__(data)
        self._reg = N.V2Reginfo()
        err = N.Error()
        opts = _options(strict, max_sections, max_counters, max_instances)
        address, size = self._buffer.address, self._buffer.size
        st = N.v2_reginfo_parse(address, size, ctypes.byref(opts), ctypes.byref(self._reg),
                                ctypes.byref(err))
        self._scratch = None
        if st == STATUS["PERFBUF_E_SCRATCH_NEEDED"] and size >= 28:
            # Unordered ids: checking them in linear time takes one slot per
            # counter. NumCounters is at offset 24; each counter takes 48 bytes.
            count = struct.unpack_from("<I", self._bytes(), 24)[0]
            if count <= size // 48:
                self._scratch = (N.u64 * max(count, 1))()
                st = N.v2_reginfo_parse_indexed(address, size, ctypes.byref(opts),
                                                self._scratch, count,
                                                ctypes.byref(self._reg), ctypes.byref(err))
        if st != OK:
            raise PerfbufError._from(st, err)
        r = self._reg
        text = ctypes.create_string_buffer(39)
        N.guid_format(ctypes.byref(r.counterset), text)
        self.counterset = text.value.decode()
        self.counter_count = r.counter_count
        self.instance_type = r.instance_type
        self.detail_level = r.detail_level
        self.anomaly_bits = r.anomalies
        self.anomalies = _anomaly_names(r.anomalies)
        self.first_anomaly = Location(r.first_anomaly) if r.anomalies else None
        # CountersetType (offset 16) is not in the view: read from the bytes.
        self.counterset_type = self._le32(16)
        self._counters = None

    def _le32(self, offset):
        return struct.unpack_from("<I", self._bytes(), offset)[0]

    @property
    def counters(self):
        """Every PERF_COUNTER_REG_INFO, in buffer order, as V2Counter."""
        if self._counters is None:
            from ._v2meta import V2Counter
            out = []
            c = N.V2CounterReg()
            while N.v2_reginfo_counter(ctypes.byref(self._reg), len(out), ctypes.byref(c)):
                out.append(V2Counter(self, c))
                c = N.V2CounterReg()
            self._counters = out
        return self._counters

    def __iter__(self):
        return iter(self.counters)

    def __len__(self):
        return self.counter_count

    def find(self, counter_id):
        """The counter registered with that id, or None (O(log counters))."""
        from ._v2meta import V2Counter
        c = N.V2CounterReg()
        st = N.v2_reginfo_find(ctypes.byref(self._reg), counter_id, ctypes.byref(c))
        if st == STATUS["PERFBUF_E_NOT_FOUND"]:
            return None
        if st != OK:
            raise PerfbufError(st, 0, "PERF_COUNTER_REG_INFO", "CounterId")
        return V2Counter(self, c)


def parse_v2_registration(data, strict=False, max_counters=0):
    return V2Registration(data, strict, max_counters)


def _v2_block(query, position):
    """The C view of the counter block at that position, or None."""
    it, c = N.V2Iter(), N.V2Block()
    qp = ctypes.byref(query._q)
    N.v2_blocks_begin(qp, ctypes.byref(it))
    while N.v2_blocks_next(qp, ctypes.byref(it), ctypes.byref(c)):
        if c.index == position:
            return c
    return None


def v2_formatted_array(newer, older, registration, counter_id, block=0, path=None,
                       flags=FMT_DOUBLE):
    """PdhGetFormattedCounterArray over two V2 query captures: {instance:
    (value, status)} for counter `counter_id` of the counter block at position
    `block` of each, typed by the counterset's registration. Instances are
    paired by InstanceId, name and #N; `path` (optional) selects instances."""
    for view, what in ((newer, "V2Query"), (older, "V2Query")):
        if not isinstance(view, V2Query):
            raise TypeError("v2_formatted_array takes two %s" % what)
    nb, ob = _v2_block(newer, block), _v2_block(older, block)
    if nb is None:
        raise PerfbufError(STATUS["PERFBUF_E_NOT_FOUND"], 0, "PERF_COUNTER_HEADER", "dwSize")
    slots = ctypes.c_size_t(0)
    obp = ctypes.byref(ob) if ob is not None else None
    st = N.v2_pairing_scratch(obp, ctypes.byref(nb), ctypes.byref(slots))
    if st != OK:
        raise PerfbufError(st, nb.offset, "PERF_COUNTER_HEADER", "dwType")
    scratch = (N.u64 * max(slots.value, 1))()
    pairing = N.V2Pairing()
    st = N.v2_pair(ctypes.byref(older._q), obp, ctypes.byref(newer._q), ctypes.byref(nb),
                   scratch, slots.value, ctypes.byref(pairing))
    if st != OK:
        raise PerfbufError(st, nb.offset, "PERF_COUNTER_HEADER", "dwType")
    if path is not None and not isinstance(path, CounterPath):
        path = CounterPath(path)
    cpath = ctypes.byref(path._c) if path is not None else None
    reg = ctypes.byref(registration._reg)
    count, text = ctypes.c_size_t(0), ctypes.c_size_t(0)
    st = N.v2_formatted_array(ctypes.byref(pairing), reg, counter_id, cpath, flags, None,
                              ctypes.byref(count), None, ctypes.byref(text))
    if st not in (OK, E_OUTPUT_TOO_SMALL):
        raise PerfbufError(st, 0, "PERF_COUNTER_REG_INFO", "CounterId")
    items = (N.FormattedItem * max(count.value, 1))()
    strings = ctypes.create_string_buffer(max(text.value, 1))
    st = N.v2_formatted_array(ctypes.byref(pairing), reg, counter_id, cpath, flags, items,
                              ctypes.byref(count), strings, ctypes.byref(text))
    if st != OK:
        raise PerfbufError(st, 0, "PERF_COUNTER_REG_INFO", "CounterId")
    out = {}
    for item in items[:count.value]:
        name = ctypes.string_at(item.name, item.name_len).decode("utf-8", "replace") \
            if item.name else ""
        status = item.value.status
        out[name] = (_pick(item.value, flags) if status == 0 else None, status)
    del scratch, pairing
    return out


def format_v2_block(newer, older, registration, block=0, flags=FMT_DOUBLE):
    """Every counter of every instance of the counter block at position `block`
    of V2 query capture `newer` formatted against the same block of an earlier
    capture `older`, typed by the counterset's registration, the instances
    paired by position (both captures must hold as many, the same ones): a list
    of rows, one per instance (one for a block without instances), each a list
    of (value, status) in the block's counter-id order; value is None unless
    the status is valid-data. One library call
    (perfbuf_v2_plan_format_block_doubles) writes a double and a one-byte status
    per value; with FMT_LONG or FMT_LARGE the value is the double the integer
    came from. A block whose id list repeats an id, or with a value that is not
    4 or 8 bytes long, raises PerfbufError (DUPLICATE_ID, UNKNOWN_VALUE): the
    library formats such a block only value by value."""
    for view in (newer, older):
        if not isinstance(view, V2Query):
            raise TypeError("format_v2_block takes two V2Query")
    if not isinstance(registration, V2Registration):
        raise TypeError("format_v2_block takes a V2Registration")
    nb, ob = _v2_block(newer, block), _v2_block(older, block)
    if nb is None or ob is None:
        raise PerfbufError(STATUS["PERFBUF_E_NOT_FOUND"], 0, "PERF_COUNTER_HEADER", "dwSize")
    count = max(nb.counter_count, 1)
    entries = (N.V2PlanEntry * count)()
    plan_scratch = (N.u32 * max(registration._reg.counter_count, 1))()
    plan = N.V2Plan()
    st = N.v2_plan_build(ctypes.byref(newer._q), ctypes.byref(nb), ctypes.byref(registration._reg),
                         entries, count, plan_scratch, len(plan_scratch), ctypes.byref(plan))
    if st != OK:
        raise PerfbufError(st, nb.offset, "PERF_COUNTER_HEADER", "dwType")
    rows = nb.instance_count if nb.kind == 6 else 1
    cells = rows * plan.count
    values = array.array("d", [0.0]) * max(cells, 1)
    codes = array.array("B", [0]) * max(cells, 1)
    scratch = (N.u64 * max(2 * 32 * plan.count, 1))()
    needed = ctypes.c_size_t()
    st = N.v2_plan_format_block_doubles(
        ctypes.byref(newer._q), ctypes.byref(nb), ctypes.byref(older._q), ctypes.byref(ob),
        ctypes.byref(plan), flags, scratch, len(scratch), values.buffer_info()[0],
        codes.buffer_info()[0], cells, ctypes.byref(needed))
    if st != OK:
        raise PerfbufError(st, nb.offset, "PERF_COUNTER_HEADER", "dwType")
    out = []
    for i in range(rows):
        row = []
        for c in range(i * plan.count, (i + 1) * plan.count):
            status = COMPACT[codes[c]] if codes[c] < len(COMPACT) else N.compact_cstatus(codes[c])
            row.append((values[c] if status == 0 else None, status))
        out.append(row)
    del entries
    return out


# ---------------------------------------------------------- collector ----

PATH_HAS_MACHINE, PATH_HAS_INSTANCE, PATH_HAS_PARENT, PATH_HAS_INDEX = 0x01, 0x02, 0x04, 0x08


class CounterPath:
    """A parsed PDH counter path: \\\\machine\\Object(parent/instance#N)\\Counter."""

    def __init__(self, text):
        raw = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        self._raw = ctypes.create_string_buffer(raw, len(raw) + 1)
        self._c = N.CounterPath()
        err = N.Error()
        st = N.path_parse(self._raw, len(raw), ctypes.byref(self._c), ctypes.byref(err))
        if st != OK:
            raise PerfbufError._from(st, err)
        self.text = raw.decode("utf-8")
        self.flags = self._c.flags
        self.index = self._c.index

    def _part(self, span):
        return self._raw.raw[span.offset:span.offset + span.length].decode("utf-8")

    machine = property(lambda s: s._part(s._c.machine) if s.flags & PATH_HAS_MACHINE else None)
    object = property(lambda s: s._part(s._c.object))
    parent = property(lambda s: s._part(s._c.parent) if s.flags & PATH_HAS_PARENT else None)
    instance = property(lambda s: s._part(s._c.instance) if s.flags & PATH_HAS_INSTANCE
                        else None)
    counter = property(lambda s: s._part(s._c.counter))

    def __repr__(self):
        return "CounterPath(%r)" % self.text


def parse_path(text):
    return CounterPath(text)


def _title(names, text, what):
    """Title indexes of a name in any of the tables (localized, then English)."""
    tables = [names] if isinstance(names, NameTable) else list(names)
    found = [k for t in tables for k in t.indexes(text)]
    if not found:
        raise PerfbufError(STATUS["PERFBUF_E_NOT_FOUND"], 0, "Counter table", what)
    return found


def formatted_array(newer, older, path, names, flags=FMT_DOUBLE):
    """PdhGetFormattedCounterArray over two V1 captures: {instance: (value, status)}
    for the counter `path` names (a str or CounterPath; object and counter
    names are looked up in `names`: a Counter table, or a list of them such as
    [localized, english], so a path may be written in either language).
    Instances are paired by parent, name and #N (or UniqueID), as PDH pairs
    them; a single-instance object gives the key ""."""
    if not isinstance(path, CounterPath):
        path = CounterPath(path)
    object_titles = _title(names, path.object, "object")
    counter_titles = _title(names, path.counter, "counter")
    obj = next((o for t in object_titles for o in [newer.object(t)] if o is not None), None)
    if obj is None:
        raise PerfbufError(STATUS["PERFBUF_E_NOT_FOUND"], 0, "PERF_OBJECT_TYPE",
                           "ObjectNameTitleIndex")
    counter = next((c for c in obj.counters if c.name_title_index in counter_titles), None)
    if counter is None:
        raise PerfbufError(STATUS["PERFBUF_E_NOT_FOUND"], obj.offset,
                           "PERF_COUNTER_DEFINITION", "CounterNameTitleIndex")
    slots = ctypes.c_size_t(0)
    nb, ob = ctypes.byref(newer._block), ctypes.byref(older._block)
    st = N.v1_pairing_scratch(ob, nb, obj.name_title_index, ctypes.byref(slots))
    if st != OK:
        raise PerfbufError(st, obj.offset, "PERF_OBJECT_TYPE", "ObjectNameTitleIndex")
    scratch = (N.u64 * max(slots.value, 1))()
    pairing = N.V1Pairing()
    st = N.v1_pair(ob, nb, obj.name_title_index, scratch, slots.value, ctypes.byref(pairing))
    if st != OK:
        raise PerfbufError(st, obj.offset, "PERF_OBJECT_TYPE", "ObjectNameTitleIndex")
    has_instance = path.flags & PATH_HAS_INSTANCE
    cpath = ctypes.byref(path._c) if has_instance else None
    count, text = ctypes.c_size_t(0), ctypes.c_size_t(0)
    st = N.v1_formatted_array(ctypes.byref(pairing), counter.name_title_index, cpath, flags,
                              None, ctypes.byref(count), None, ctypes.byref(text))
    if st not in (OK, E_OUTPUT_TOO_SMALL):
        raise PerfbufError(st, counter.offset, "PERF_COUNTER_DEFINITION",
                           "CounterNameTitleIndex")
    items = (N.FormattedItem * max(count.value, 1))()
    strings = ctypes.create_string_buffer(max(text.value, 1))
    st = N.v1_formatted_array(ctypes.byref(pairing), counter.name_title_index, cpath, flags,
                              items, ctypes.byref(count), strings, ctypes.byref(text))
    if st != OK:
        raise PerfbufError(st, counter.offset, "PERF_COUNTER_DEFINITION",
                           "CounterNameTitleIndex")
    out = {}
    for item in items[:count.value]:
        name = ctypes.string_at(item.name, item.name_len).decode("utf-8", "replace") \
            if item.name else ""
        status = item.value.status
        out[name] = (_pick(item.value, flags) if status == 0 else None, status)
    # The scratch and the pairing point into both captures: keep them alive
    # until here (the blocks are the captures' own).
    del scratch, pairing
    return out


def counter_values(capture, names):
    """Every V1 counter as counter paths: {"\\Object(instance)\\Counter": raw value},
    with names from a Counter table (title indexes when a name is missing)."""
    out = {}
    for obj in capture.objects:
        oname = names.title(obj.name_title_index) or str(obj.name_title_index)
        cnames = [names.title(c.name_title_index) or str(c.name_title_index)
                  for c in obj.counters]
        single = obj.values
        if single is not None:
            for cname, v in zip(cnames, single):
                out["\\%s\\%s" % (oname, cname)] = v
        seen = {}
        for inst in obj.instances:
            # "#N" tells apart instances of the same name, as PDH writes them.
            iname = inst.full_name
            key = _fold(iname)
            n = seen.get(key, 0)
            seen[key] = n + 1
            if n:
                iname = "%s#%d" % (iname, n)
            for cname, v in zip(cnames, inst.values):
                out["\\%s(%s)\\%s" % (oname, iname, cname)] = v
    return out


# The V2 metadata readers besides the registration (they build on the above).
from ._v2meta import (V2Counter, V2CounterAnswer, V2Countersets, V2CounterString,  # noqa: E402
                      V2Identifier, V2Identifiers, V2InstanceList, V2ListedInstance, V2Mismatch,
                      V2String, V2Strings, crosscheck, parse_v2_counter, parse_v2_countersets,
                      parse_v2_identifiers, parse_v2_instances, parse_v2_provider_guid,
                      parse_v2_string, parse_v2_strings)
from ._query import Query, QueryCounter, QueryItem  # noqa: E402
# Captures as OpenMetrics text (docs/prometheus.md).
from ._openmetrics import OpenMetricsError, openmetrics  # noqa: E402
from ._openmetrics import escape as openmetrics_escape  # noqa: E402
from ._openmetrics import mapping as openmetrics_mapping  # noqa: E402
from ._openmetrics import metric_name as openmetrics_name  # noqa: E402
from ._openmetrics import promql as openmetrics_promql  # noqa: E402
