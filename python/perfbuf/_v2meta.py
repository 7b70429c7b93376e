# SPDX-License-Identifier: MIT OR Apache-2.0
"""The PerfLib V2 metadata answers other than the counterset registration:
one counter's registration, the single strings and the provider GUID, the
per-counter string blocks, the counterset and instance lists, and the
counter identifiers of a query (include/perfbuf/v2_meta.h).

Each reader validates the whole answer before its view exists, reads the
caller's bytes without copying them, and keeps them alive for as long as the
view or any entry of it lives. An entry (a listed instance, a counter
string, an identifier) belongs to the view that gave it: handed to another
view it is refused, as the library refuses a range outside its view.
"""
import ctypes
import struct

from . import _native as N
from . import (OK, STATUS, Location, PerfbufError, _Capture,
               _anomaly_names, _options, _refuse, _utf8)

NO_ID = 0xFFFFFFFF
E_SCRATCH_NEEDED = STATUS["PERFBUF_E_SCRATCH_NEEDED"]
E_NOT_FOUND = STATUS["PERFBUF_E_NOT_FOUND"]

# perfbuf_v2_string_origin, by the names perfbuf-dump's --origin takes.
ORIGINS = {"auto": 0, "block": 1, "array-end": 2}
_ORIGIN_NAMES = {1: "block", 2: "array-end"}


def guid_text(guid):
    """A perfbuf_guid as perfbuf_guid_format writes it."""
    text = ctypes.create_string_buffer(39)
    N.guid_format(ctypes.byref(guid), text)
    return text.value.decode()


def _id(value):
    return None if value == NO_ID else value


class _Meta(_Capture):
    """A validated metadata answer: the bytes, the options it was read with,
    and its anomalies (empty when the answer has none to report)."""

    def __init__(self, data, strict, max_sections, max_counters, max_instances):
        super().__init__(data)
        self._opts = _options(strict, max_sections, max_counters, max_instances)
        self.size = self._buffer.size

    def _set_anomalies(self, bits, first):
        self.anomaly_bits = bits
        self.anomalies = _anomaly_names(bits)
        self.first_anomaly = Location(first) if bits else None

    def _le32(self, offset):
        return struct.unpack_from("<I", self._bytes(), offset)[0]

    def _scratch_count(self, at, per):
        """The count the header gives at `at`, when the bytes could hold that
        many entries of `per` bytes: the scratch a retry with unordered ids
        needs (None when the header cannot be read or claims more)."""
        if self.size < at + 4:
            return None
        count = self._le32(at)
        return count if count <= self.size // per else None


class V2Counter:
    """One PERF_COUNTER_REG_INFO of a registration (or of a single counter's
    answer). Ids that refer to other counters are None when absent."""
    __slots__ = ("owner", "_c", "position", "offset", "counter_id", "type", "attributes",
                 "detail_level", "default_scale", "base_counter_id", "perf_time_id",
                 "perf_freq_id", "multi_id", "aggregate", "reserved")

    def __init__(self, owner, c):
        self.owner = owner
        self._c = c
        self.position = c.index
        self.offset = c.offset
        self.counter_id = c.id
        self.type = c.type
        self.attributes = c.attributes
        self.detail_level = c.detail_level
        self.default_scale = c.default_scale
        self.base_counter_id = _id(c.base_id)
        self.perf_time_id = _id(c.perf_time_id)
        self.perf_freq_id = _id(c.perf_freq_id)
        self.multi_id = _id(c.multi_id)
        self.aggregate = c.aggregate
        # Reserved (offset 44) is not in the view: read from the answer's bytes.
        self.reserved = owner._le32(c.offset + 44)

    @property
    def type_name(self):
        return N.counter_type_name(self.type).decode()

    def __repr__(self):
        return "V2Counter(%d, %s)" % (self.counter_id, self.type_name)


class V2CounterAnswer(_Meta):
    """One counter's registration (PERF_REG_COUNTER_STRUCT)."""

    def __init__(self, data, strict=False, max_sections=0, max_counters=0, max_instances=0):
        super().__init__(data, strict, max_sections, max_counters, max_instances)
        self._answer = N.V2CounterAnswer()
        err = N.Error()
        st = N.v2_counter_reg_parse(self._buffer.address, self.size, ctypes.byref(self._opts),
                                    ctypes.byref(self._answer), ctypes.byref(err))
        if st != OK:
            raise PerfbufError._from(st, err)
        self._set_anomalies(self._answer.anomalies, self._answer.first_anomaly)
        self.counter = V2Counter(self, self._answer.counter)


class V2String(_Meta):
    """A single-string answer (counterset name or help, English name,
    provider name): UTF-16LE ending in a NUL inside the buffer."""

    def __init__(self, data, strict=False, max_sections=0, max_counters=0, max_instances=0):
        super().__init__(data, strict, max_sections, max_counters, max_instances)
        self._s = N.V2String()
        err = N.Error()
        st = N.v2_string_parse(self._buffer.address, self.size, ctypes.byref(self._opts),
                               ctypes.byref(self._s), ctypes.byref(err))
        if st != OK:
            raise PerfbufError._from(st, err)
        self.units = self._s.units
        self._set_anomalies(self._s.anomalies, self._s.first_anomaly)
        _, self.text = _utf8(N.v2_string_utf8, ctypes.byref(self._s))

    def __str__(self):
        return self.text


def parse_v2_provider_guid(data):
    """PERF_REG_PROVIDER_GUID: exactly 16 bytes; the GUID as text."""
    cap = _Capture(data)
    guid, err = N.Guid(), N.Error()
    st = N.v2_provider_guid_parse(cap._buffer.address, cap._buffer.size, ctypes.byref(guid),
                                  ctypes.byref(err))
    if st != OK:
        raise PerfbufError._from(st, err)
    return guid_text(guid)


class V2Countersets(_Meta):
    """The counterset list of PerfEnumerateCounterSet: GUIDs, as text."""

    def __init__(self, data, strict=False, max_sections=0, max_counters=0, max_instances=0):
        super().__init__(data, strict, max_sections, max_counters, max_instances)
        self._l = N.V2Countersets()
        err = N.Error()
        st = N.v2_countersets_parse(self._buffer.address, self.size, ctypes.byref(self._l),
                                    ctypes.byref(err))
        if st != OK:
            raise PerfbufError._from(st, err)
        self.count = self._l.count
        self._guids = None

    @property
    def countersets(self):
        if self._guids is None:
            out = []
            guid = N.Guid()
            i = 0
            while N.v2_countersets_get(ctypes.byref(self._l), i, ctypes.byref(guid)):
                out.append(guid_text(guid))
                i += 1
            self._guids = out
        return self._guids

    def __iter__(self):
        return iter(self.countersets)

    def __len__(self):
        return self.count


class V2ListedInstance:
    """One PERF_INSTANCE_HEADER of an instance list."""
    __slots__ = ("owner", "_c", "position", "offset", "size", "instance_id")

    def __init__(self, owner, c):
        self.owner = owner
        self._c = c
        self.position = c.index
        self.offset = c.offset
        self.size = owner._le32(c.offset)
        self.instance_id = c.id

    @property
    def name(self):
        return self.owner.name(self)

    def __repr__(self):
        return "V2ListedInstance(%d, %r)" % (self.instance_id, self.name)


class V2InstanceList(_Meta):
    """The instances of PerfEnumerateCounterSetInstances, in buffer order."""

    def __init__(self, data, strict=False, max_sections=0, max_counters=0, max_instances=0):
        super().__init__(data, strict, max_sections, max_counters, max_instances)
        self._l = N.V2InstanceList()
        err = N.Error()
        st = N.v2_instance_list_parse(self._buffer.address, self.size,
                                      ctypes.byref(self._opts), ctypes.byref(self._l),
                                      ctypes.byref(err))
        if st != OK:
            raise PerfbufError._from(st, err)
        self.count = self._l.count
        self._set_anomalies(self._l.anomalies, self._l.first_anomaly)
        self._list = None

    def __iter__(self):
        it = N.V2ListIter()
        N.v2_instance_list_begin(ctypes.byref(it))
        while True:
            c = N.V2ListedInstance()
            if not N.v2_instance_list_next(ctypes.byref(self._l), ctypes.byref(it),
                                           ctypes.byref(c)):
                return
            yield V2ListedInstance(self, c)

    @property
    def instances(self):
        if self._list is None:
            self._list = list(self)
        return self._list

    def __len__(self):
        return self.count

    def name(self, instance):
        """The instance's name as str; an instance of another list is refused."""
        if getattr(instance, "owner", None) is not self:
            raise _refuse("PERF_INSTANCE_HEADER of another instance list")
        st, text = _utf8(N.v2_listed_name_utf8, ctypes.byref(self._l), ctypes.byref(instance._c))
        if st != OK:
            raise PerfbufError(st, instance.offset, "PERF_INSTANCE_HEADER", "Size")
        return text


class V2CounterString:
    """One PERF_STRING_COUNTER_HEADER of a string block: the counter's id
    and, when present, where its string starts."""
    __slots__ = ("owner", "_c", "position", "offset", "counter_id", "present", "string_offset",
                 "text_offset", "units")

    def __init__(self, owner, c):
        self.owner = owner
        self._c = c
        self.position = c.index
        self.offset = c.offset
        self.counter_id = c.counter_id
        self.present = bool(c.present)
        self.string_offset = owner._le32(c.offset + 4) if self.present else None
        self.text_offset = c.text_offset if self.present else None
        self.units = c.units

    @property
    def text(self):
        """The string as str, or None for a counter without one."""
        return self.owner.text(self)

    def __repr__(self):
        return "V2CounterString(%d, %r)" % (self.counter_id, self.text)


class V2Strings(_Meta):
    """A per-counter string block (PERF_STRING_BUFFER_HEADER: names, help or
    English names). origin: where dwOffset counts from, "auto", "block" or
    "array-end" (docs/v2-metadata.md); `origin` afterwards is the one used."""

    def __init__(self, data, origin="auto", strict=False, max_sections=0, max_counters=0,
                 max_instances=0):
        if origin not in ORIGINS:
            raise ValueError("origin is one of %s" % ", ".join(ORIGINS))
        super().__init__(data, strict, max_sections, max_counters, max_instances)
        self._s = N.V2Strings()
        err = N.Error()
        address, opts = self._buffer.address, ctypes.byref(self._opts)
        st = N.v2_strings_parse(address, self.size, ORIGINS[origin], opts,
                                ctypes.byref(self._s), ctypes.byref(err))
        self._scratch = None
        # Unordered counter ids are checked in linear time with one slot per
        # header: dwCounters at offset 4, 8 bytes a header.
        count = self._scratch_count(4, 8) if st == E_SCRATCH_NEEDED else None
        if count is not None:
            self._scratch = (N.u64 * max(count, 1))()
            st = N.v2_strings_parse_indexed(address, self.size, ORIGINS[origin], opts,
                                            self._scratch, count, ctypes.byref(self._s),
                                            ctypes.byref(err))
        if st != OK:
            raise PerfbufError._from(st, err)
        s = self._s
        self.block_size = s.size
        self.count = s.count
        self.origin = _ORIGIN_NAMES[s.origin]
        self.strings_offset = s.strings_offset
        self._set_anomalies(s.anomalies, s.first_anomaly)
        self._list = None

    def __iter__(self):
        for i in range(self.count):
            c = N.V2CounterString()
            if not N.v2_strings_get(ctypes.byref(self._s), i, ctypes.byref(c)):
                return
            yield V2CounterString(self, c)

    @property
    def strings(self):
        if self._list is None:
            self._list = list(self)
        return self._list

    def __len__(self):
        return self.count

    def find(self, counter_id):
        """The string header of that counter id, or None (O(log count))."""
        c = N.V2CounterString()
        st = N.v2_strings_find(ctypes.byref(self._s), counter_id, ctypes.byref(c))
        if st == E_NOT_FOUND:
            return None
        if st != OK:
            raise PerfbufError(st, 0, "PERF_STRING_COUNTER_HEADER", "dwCounterId")
        return V2CounterString(self, c)

    def text(self, entry):
        """The string of a header of this block, as str (None when absent);
        a header of another block is refused."""
        if getattr(entry, "owner", None) is not self:
            raise _refuse("PERF_STRING_COUNTER_HEADER of another string block")
        if not entry.present:
            return None
        st, text = _utf8(N.v2_counter_string_utf8, ctypes.byref(self._s),
                         ctypes.byref(entry._c))
        if st != OK:
            raise PerfbufError(st, entry.offset, "PERF_STRING_COUNTER_HEADER", "dwOffset")
        return text

    def names(self):
        """{counter id: str or None} for every header (the first of an id)."""
        out = {}
        for entry in self:
            out.setdefault(entry.counter_id, entry.text)
        return out


class V2Identifier:
    """One PERF_COUNTER_IDENTIFIER: a counter of the query, where its block
    is in the query data (block_position) and the instance it names."""
    __slots__ = ("owner", "_c", "position", "offset", "size", "counterset", "status",
                 "counter_id", "instance_id", "block_position", "reserved", "has_name")

    def __init__(self, owner, c):
        self.owner = owner
        self._c = c
        self.position = c.index
        self.offset = c.offset
        self.size = c.size
        self.counterset = guid_text(c.counterset)
        self.status = c.status
        self.counter_id = _id(c.counter_id)
        self.instance_id = _id(c.instance_id)
        self.block_position = c.query_index
        self.reserved = owner._le32(c.offset + 36)
        self.has_name = bool(c.has_name)

    @property
    def instance_name(self):
        """The instance name as str, or None when the identifier has none."""
        return self.owner.instance_name(self)

    def __repr__(self):
        return "V2Identifier(%s, %r, %r)" % (self.counterset, self.counter_id,
                                             self.instance_name)


class V2Identifiers(_Meta):
    """The counter identifiers of PerfQueryCounterInfo, in buffer order."""

    def __init__(self, data, strict=False, max_sections=0, max_counters=0, max_instances=0):
        super().__init__(data, strict, max_sections, max_counters, max_instances)
        self._l = N.V2Identifiers()
        err = N.Error()
        st = N.v2_identifiers_parse(self._buffer.address, self.size, ctypes.byref(self._opts),
                                    ctypes.byref(self._l), ctypes.byref(err))
        if st != OK:
            raise PerfbufError._from(st, err)
        self.count = self._l.count
        self._set_anomalies(self._l.anomalies, self._l.first_anomaly)
        self._list = None

    def __iter__(self):
        it = N.V2ListIter()
        N.v2_identifiers_begin(ctypes.byref(it))
        while True:
            c = N.V2Identifier()
            if not N.v2_identifiers_next(ctypes.byref(self._l), ctypes.byref(it),
                                         ctypes.byref(c)):
                return
            yield V2Identifier(self, c)

    @property
    def identifiers(self):
        if self._list is None:
            self._list = list(self)
        return self._list

    def __len__(self):
        return self.count

    def instance_name(self, identifier):
        """The identifier's instance name (None without one); an identifier
        of another buffer is refused."""
        if getattr(identifier, "owner", None) is not self:
            raise _refuse("PERF_COUNTER_IDENTIFIER of another identifier list")
        if not identifier.has_name:
            return None
        st, text = _utf8(N.v2_identifier_name_utf8, ctypes.byref(self._l),
                         ctypes.byref(identifier._c))
        if st != OK:
            raise PerfbufError(st, identifier.offset, "PERF_COUNTER_IDENTIFIER", "Size")
        return text


class V2Mismatch:
    """The first disagreement a cross-check found, located in each buffer
    involved (None for a buffer that is not)."""
    __slots__ = ("kind", "block_position", "counter_id", "in_query", "in_registration",
                 "in_identifiers")

    def __init__(self, m):
        self.kind = N.v2_mismatch_name(m.kind).decode()
        self.block_position = m.block_index
        self.counter_id = _id(m.counter_id)
        self.in_query = Location(m.in_query) if m.in_query.status != OK else None
        self.in_registration = (Location(m.in_registration)
                                if m.in_registration.status != OK else None)
        self.in_identifiers = (Location(m.in_identifiers)
                               if m.in_identifiers.status != OK else None)

    @property
    def where(self):
        """The location a rejection of the pair names: in the query data
        when it is involved, else in the identifiers, else the registration."""
        return self.in_query or self.in_identifiers or self.in_registration

    def __repr__(self):
        return "V2Mismatch(%s, block %d, counter %r)" % (self.kind, self.block_position,
                                                       self.counter_id)


def crosscheck(query, registration, identifiers=None):
    """perfbuf_v2_crosscheck: None when the query data and the registration
    (and the identifiers, when given) agree, else the first V2Mismatch."""
    from . import V2Query, V2Registration
    if not isinstance(query, V2Query) or not isinstance(registration, V2Registration):
        raise TypeError("crosscheck takes a V2Query and a V2Registration")
    if identifiers is not None and not isinstance(identifiers, V2Identifiers):
        raise TypeError("crosscheck's identifiers are a V2Identifiers")
    m = N.V2Mismatch()
    idp = ctypes.byref(identifiers._l) if identifiers is not None else None
    st = N.v2_crosscheck(ctypes.byref(query._q), ctypes.byref(registration._reg), idp,
                         ctypes.byref(m))
    if st == E_SCRATCH_NEEDED and identifiers is not None:
        # Identifiers out of Index order are paired with blocks by sorting
        # them: one slot per identifier.
        n = identifiers.count
        scratch = (N.u64 * max(n, 1))()
        st = N.v2_crosscheck_indexed(ctypes.byref(query._q), ctypes.byref(registration._reg),
                                     idp, scratch, n, ctypes.byref(m))
    if st == OK:
        return None
    if st != STATUS["PERFBUF_E_INCONSISTENT"]:
        raise PerfbufError(st, 0, "PERF_COUNTER_IDENTIFIER" if identifiers else
                           "PERF_COUNTERSET_REG_INFO", "")
    return V2Mismatch(m)


def parse_v2_counter(data, strict=False, max_counters=0):
    return V2CounterAnswer(data, strict, max_counters=max_counters)


def parse_v2_string(data, strict=False):
    return V2String(data, strict)


def parse_v2_countersets(data):
    return V2Countersets(data)


def parse_v2_instances(data, strict=False, max_instances=0):
    return V2InstanceList(data, strict, max_instances=max_instances)


def parse_v2_strings(data, origin="auto", strict=False, max_counters=0):
    return V2Strings(data, origin, strict, max_counters=max_counters)


def parse_v2_identifiers(data, strict=False, max_counters=0):
    return V2Identifiers(data, strict, max_counters=max_counters)
