# SPDX-License-Identifier: MIT OR Apache-2.0
"""A query in the manner of PDH's (perfbuf/query.h, docs/collector.md).

    q = perfbuf.Query(english_counter_table)
    cpu = q.add(r"\\Process(*)\\% Processor Time")
    q.collect(first_capture)
    q.collect(second_capture)          # the bytes may be reused after each call
    for item in cpu.formatted():
        print(item.name, item.value, item.status)
    print(cpu.exited())                # names; cpu.exited_instances(): with their keys

The query, its counters and its arena are memory this module owns and keeps
in place for the library; the library allocates nothing. Captures are read
during collect() only: the query keeps their samples, not their bytes.
"""
import ctypes

from . import _native as N
from ._buffer import Buffer

OK = 0

# PERFBUF_QUERY_FOUND_* (query.h), in perfbuf-dump's words.
FOUND = {0: "not-yet", 1: "items", 2: "empty-object", 3: "no-instance", 4: "unnamed",
         5: "no-counter", 6: "no-object", 7: "no-machine", 8: "no-parent"}
# PERFBUF_QUERY_IDENTITY_* (query.h): what tells a listed instance from others.
IDENTITY = {0: "name", 1: "key-counter", 2: "unique-id", 3: "instance-id"}
# PERFBUF_PAIR_* (collector.h).
PAIRING = {0: "matched", 1: "new", 2: "ambiguous", 3: "definition-changed", 4: "unpaired"}
APPEARED, EXITED = 1, 2
_TITLE_OBJECT, _TITLE_COUNTER = 1, 2
_LANGUAGE = {"english": 1, "localized": 2}
_NO_INSTANCE = 0xFFFFFFFF


def _error(status, err=None):
    from . import PerfbufError  # the package's error type; imported late to avoid a cycle
    if err is None:
        return PerfbufError(status)
    return PerfbufError._from(status, err)


def _text(address, length):
    return ctypes.string_at(address, length).decode("utf-8", "replace") if address else ""


def _unsigned(value, bits, what):
    """value as a C unsigned integer of `bits` bits: ctypes would wrap a
    negative or larger one silently (2**32 as a uint32_t is 0)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s must be an integer, not %s" % (what, type(value).__name__))
    if value < 0:
        raise ValueError("%s must not be negative (got %d)" % (what, value))
    if value >= 1 << bits:
        raise OverflowError("%s does not fit %d bits (got %d)" % (what, bits, value))
    return value


class QueryInstance:
    """An instance that appeared or exited: its name in its own capture (as
    the arrays name it), its position and object there, and what tells it
    from the others: `identity` ("name", "key-counter", "unique-id",
    "instance-id") and `key` (the key counter's value, the UniqueID or the
    InstanceId; None for "name")."""
    __slots__ = ("name", "position", "object", "object_title", "identity", "key")

    def __repr__(self):
        return "QueryInstance(%r, %s=%r)" % (self.name, self.identity, self.key)


class QueryItem:
    """One element of a counter's array, as PDH's PDH_FMT_COUNTERVALUE_ITEM
    with what perfbuf adds: how the instance was paired, its position in the
    capture's object (None for an object without instances), the counter's
    title index (or V2 id) and the object's position among the capture's; raw
    items also give the object's title index (`object_title`, V1) and the
    position of the older instance they were paired with (`older_position`,
    None when not paired or for an object without instances)."""
    __slots__ = ("name", "pairing", "position", "counter", "object", "status", "value",
                 "newer", "older", "object_title", "older_position")

    def __repr__(self):
        return "QueryItem(%r, %r, %s)" % (self.name, self.value, self.pairing)


class QueryCounter:
    """A counter added to a Query by path (like PDH's HCOUNTER)."""

    def __init__(self, query, path):
        self._query = query
        raw = path.encode("utf-8") if isinstance(path, str) else bytes(path)
        # The library keeps pointers into the path text and into this struct:
        # both live as long as this object, which the query keeps.
        self._text = ctypes.create_string_buffer(raw, len(raw) + 1)
        self._key = None
        self._c = N.QueryCounter()
        self.path = raw.decode("utf-8", "replace")

    @property
    def status(self):
        """The counter's value status after the last collection ("valid-data",
        "no-object", "no-counter", "no-instance", "item-not-validated")."""
        from . import cstatus_name
        return cstatus_name(self._c.status)

    @property
    def found(self):
        """What the last collection found for the path: "items", "empty-object"
        (a wildcard over an object that has no instance now), "no-instance",
        "unnamed", "no-counter", "no-object", or "not-yet"."""
        return FOUND.get(self._c.found, "unknown")

    def pair_by(self, key_counter):
        """Pairs instances by the value of a key counter of the same object
        ("ID Process", "ID Thread") with their parent and name, not by PDH's #N."""
        raw = key_counter.encode("utf-8") if isinstance(key_counter, str) else bytes(key_counter)
        key = ctypes.create_string_buffer(raw, len(raw) + 1)
        err = N.Error()
        st = N.query_pair_by(ctypes.byref(self._query._q), ctypes.byref(self._c), key, len(raw),
                             ctypes.byref(err))
        if st != OK:
            raise _error(st, err)
        self._key = key

    def pair_by_unique_id(self):
        """Pairs V1 instances by their UniqueID where the provider sets one."""
        err = N.Error()
        st = N.query_pair_by_unique_id(ctypes.byref(self._query._q), ctypes.byref(self._c),
                                       ctypes.byref(err))
        if st != OK:
            raise _error(st, err)

    def _checked(self, fill, item_type):
        """The array `fill` gives, with its names: (items, names buffer)."""
        from . import E_OUTPUT_TOO_SMALL, STATUS
        q = ctypes.byref(self._query._q)
        count = ctypes.c_size_t(0)
        name_bytes = ctypes.c_size_t(0)
        err = N.Error()
        st = fill(q, None, ctypes.byref(count), None, ctypes.byref(name_bytes), ctypes.byref(err))
        if st == OK:
            return [], None
        if st != E_OUTPUT_TOO_SMALL:
            if st == STATUS["PERFBUF_E_NOT_FOUND"]:
                from . import PerfbufError
                raise PerfbufError(st, 0, "query counter", self.status)
            raise _error(st, err)
        items = (item_type * count.value)()
        names = ctypes.create_string_buffer(max(name_bytes.value, 1))
        st = fill(q, items, ctypes.byref(count), names, ctypes.byref(name_bytes),
                  ctypes.byref(err))
        if st != OK:
            raise _error(st, err)
        return items[:count.value], names

    def _item(self, it):
        item = QueryItem()
        item.name = _text(it.name, it.name_len)
        item.pairing = PAIRING.get(it.pairing, "unknown")
        item.position = None if it.position == _NO_INSTANCE else it.position
        item.counter = it.counter
        item.object = it.object
        item.object_title = item.older_position = None
        return item

    def formatted(self, flags=None):
        """PdhGetFormattedCounterArray: a QueryItem per instance the path
        selects in the last capture, in buffer order, each value formatted
        against the previous capture's sample of the same instance (None, with
        the status, where there is none: "invalid-data" for a rate's first
        sample, as PDH gives it). Raises PerfbufError (NOT_FOUND, the field
        naming the counter's status) when the last capture lacks the object
        or the counter."""
        from . import FMT_DOUBLE, _pick, cstatus_name
        flags = FMT_DOUBLE if flags is None else _unsigned(flags, 32, "flags")
        c = ctypes.byref(self._c)
        out = []
        items, _names = self._checked(
            lambda q, items, count, names, size, err:
                N.query_formatted_array(q, c, flags, items, count, names, size, err),
            N.FormattedItem)
        for it in items:
            item = self._item(it)
            item.status = cstatus_name(it.value.status)
            item.value = _pick(it.value, flags) if it.value.status == 0 else None
            item.newer = item.older = None
            out.append(item)
        return out

    def raw(self):
        """PdhGetRawCounterArray: the same items with both raw samples
        (`newer`, and `older` or None) as (first, second, time_stamp) tuples."""
        from . import cstatus_name
        c = ctypes.byref(self._c)
        out = []
        items, _names = self._checked(
            lambda q, items, count, names, size, err:
                N.query_raw_array(q, c, items, count, names, size, err),
            N.RawItem)
        for it in items:
            item = self._item(it)
            item.status = cstatus_name(it.newer.status)
            item.value = None
            item.newer = (it.newer.first, it.newer.second, it.newer.time_stamp)
            item.older = ((it.older.first, it.older.second, it.older.time_stamp)
                          if it.has_older else None)
            item.object_title = it.object_title
            item.older_position = (None if it.older_position == _NO_INSTANCE
                                   else it.older_position)
            out.append(item)
        return out

    def _raw_structs(self):
        """[(perfbuf_raw_item, name)]: the raw array as the library fills it,
        each sample with its status, multi count and context, for a writer
        that needs every field (perfbuf.openmetrics); [] when the counter has
        no array. Names are read now, from the buffer this call gave them."""
        from . import PerfbufError
        c = ctypes.byref(self._c)
        try:
            items, _names = self._checked(
                lambda q, items, count, names, size, err:
                    N.query_raw_array(q, c, items, count, names, size, err),
                N.RawItem)
        except PerfbufError:
            return []
        return [(it, _text(it.name, it.name_len)) for it in items]

    def _instances(self, which):
        from . import E_OUTPUT_TOO_SMALL
        q, c = ctypes.byref(self._query._q), ctypes.byref(self._c)
        count = ctypes.c_size_t(0)
        name_bytes = ctypes.c_size_t(0)
        err = N.Error()
        st = N.query_instances(q, c, which, None, ctypes.byref(count), None,
                               ctypes.byref(name_bytes), ctypes.byref(err))
        if st == OK:
            return []
        if st != E_OUTPUT_TOO_SMALL:
            raise _error(st, err)
        listed = (N.QueryInstance * count.value)()
        names = ctypes.create_string_buffer(max(name_bytes.value, 1))
        st = N.query_instances(q, c, which, listed, ctypes.byref(count), names,
                               ctypes.byref(name_bytes), ctypes.byref(err))
        if st != OK:
            raise _error(st, err)
        out = []
        for it in listed[:count.value]:
            inst = QueryInstance()
            inst.name = _text(it.name, it.name_len)
            inst.position = None if it.position == _NO_INSTANCE else it.position
            inst.object = it.object
            inst.object_title = it.object_title
            inst.identity = IDENTITY.get(it.identity, "unknown")
            inst.key = None if it.identity == 0 else it.key
            out.append(inst)
        return out

    def appeared(self):
        """Names of the instances in the last capture that the one before lacked."""
        return [inst.name for inst in self._instances(APPEARED)]

    def exited(self):
        """Names of the instances of the capture before that the last one lacks."""
        return [inst.name for inst in self._instances(EXITED)]

    def appeared_instances(self):
        """The instances that appeared, as QueryInstance: with their key when
        the counter pairs by one (a key counter, UniqueID, V2 InstanceId)."""
        return self._instances(APPEARED)

    def exited_instances(self):
        """The instances that exited, as QueryInstance, each by its own name
        and key: with pair_by("ID Process"), the PID of the process that
        exited, never the name another process holds now."""
        return self._instances(EXITED)

    def title(self, which="counter", language="english"):
        """(title index, text) of the object or counter the last capture
        resolved the path to; text None when that language's table lacks it."""
        from . import STATUS, E_OUTPUT_TOO_SMALL
        if which not in ("object", "counter") or language not in _LANGUAGE:
            raise _error(STATUS["PERFBUF_E_INVALID_ARGUMENT"])
        kind = _TITLE_OBJECT if which == "object" else _TITLE_COUNTER
        index = ctypes.c_uint32(0)
        length = ctypes.c_size_t(0)
        q, c = ctypes.byref(self._query._q), ctypes.byref(self._c)
        err = N.Error()
        st = N.query_title(q, c, kind, _LANGUAGE[language], ctypes.byref(index), None, 0,
                           ctypes.byref(length), ctypes.byref(err))
        if st == E_OUTPUT_TOO_SMALL:
            out = ctypes.create_string_buffer(length.value + 1)
            st = N.query_title(q, c, kind, _LANGUAGE[language], ctypes.byref(index), out,
                               length.value + 1, ctypes.byref(length), ctypes.byref(err))
            if st == OK:
                return index.value, out.value.decode("utf-8", "replace")
        if st == STATUS["PERFBUF_E_NOT_FOUND"] and index.value != 0:
            return index.value, None
        if st == OK:
            return index.value, ""
        raise _error(st, err)


class Query:
    """perfbuf_query over V1 captures: opened on the English Counter table
    ("009", as the registry returns it) and optionally the system language's,
    so paths may be written in either; Query.v2 opens one over PerfLib V2
    registrations. Every capture is parsed with the query's options (lenient
    by default; strict=True, or the limits)."""

    def __init__(self, english, localized=None, strict=False, max_sections=0, max_counters=0,
                 max_instances=0):
        self._q = N.Query()
        self._tables = [Buffer(english)] + ([Buffer(localized)] if localized is not None else [])
        self._counters = []
        self._arena = None
        err = N.Error()
        en = self._tables[0]
        lo = self._tables[1] if localized is not None else None
        st = N.query_open(ctypes.byref(self._q), en.address, en.size,
                          lo.address if lo else None, lo.size if lo else 0, ctypes.byref(err))
        if st != OK:
            raise _error(st, err)
        self._set_options(strict, max_sections, max_counters, max_instances)

    @classmethod
    def v2(cls, registrations, strict=False, max_sections=0, max_counters=0, max_instances=0):
        """perfbuf_query_open_v2: a query over PerfLib V2 query data. Each
        registration is a dict: `reginfo` (PerfQueryCounterSetRegistrationInfo's
        PERF_REG_COUNTERSET_STRUCT answer, required), `counter_names` (its
        PERF_REG_COUNTER_NAME_STRINGS answer) and `name` (its
        PERF_REG_COUNTERSET_NAME_STRING answer), both optional, and `block`,
        the position of its block in every query data buffer. Paths name a
        counterset by its name or its GUID in braces, a counter by its name
        or decimal id."""
        self = cls.__new__(cls)
        self._q = N.Query()
        self._counters = []
        self._arena = None
        self._tables = []
        regs = (N.QueryRegistration * max(len(registrations), 1))()
        for k, given in enumerate(registrations):
            unknown = set(given) - {"reginfo", "counter_names", "name", "block"}
            if unknown or "reginfo" not in given:
                from . import STATUS
                raise _error(STATUS["PERFBUF_E_INVALID_ARGUMENT"])
            for field, length, key in (("reginfo", "reginfo_len", "reginfo"),
                                       ("counter_names", "counter_names_len", "counter_names"),
                                       ("counterset_name", "counterset_name_len", "name")):
                if given.get(key) is not None:
                    buf = Buffer(given[key])
                    self._tables.append(buf)   # the library reads them until the query goes
                    setattr(regs[k], field, buf.address)
                    setattr(regs[k], length, buf.size)
            regs[k].block = _unsigned(given.get("block", k), 32, "block")
        self._registrations = regs
        err = N.Error()
        st = N.query_open_v2(ctypes.byref(self._q), regs, len(registrations), ctypes.byref(err))
        if st != OK:
            raise _error(st, err)
        self._set_options(strict, max_sections, max_counters, max_instances)
        return self

    def _set_options(self, strict, max_sections, max_counters, max_instances):
        from . import STRICT
        opts = N.Options(STRICT if strict else 0, _unsigned(max_sections, 32, "max_sections"),
                         _unsigned(max_counters, 32, "max_counters"),
                         _unsigned(max_instances, 32, "max_instances"))
        err = N.Error()
        st = N.query_options(ctypes.byref(self._q), ctypes.byref(opts), ctypes.byref(err))
        if st != OK:
            raise _error(st, err)

    def add(self, path):
        """Adds a counter by path (docs/paths.md): wildcards, #N, parents, a
        counter "*". A malformed path raises PerfbufError with the byte offset
        in the path and the part. Before the first collect()."""
        counter = QueryCounter(self, path)
        err = N.Error()
        st = N.query_add(ctypes.byref(self._q), ctypes.byref(counter._c), counter._text,
                         len(counter._text.raw) - 1, ctypes.byref(err))
        if st != OK:
            raise _error(st, err)
        self._counters.append(counter)
        return counter

    def add_definitions(self):
        """Adds a counter of every definition of every object of each V1
        capture, by title index (perfbuf_query_add_definitions): its items
        are every value, bases and definitions that share a title included,
        in block and definition order, needing no Counter table. Before the
        first collect()."""
        counter = QueryCounter(self, "")
        err = N.Error()
        st = N.query_add_definitions(ctypes.byref(self._q), ctypes.byref(counter._c),
                                     ctypes.byref(err))
        if st != OK:
            raise _error(st, err)
        self._counters.append(counter)
        return counter

    def _give_arena(self, needed):
        # An arena the library may point into: 8-aligned, and holding the
        # previous arena's bytes at its start, as query.h requires.
        words = (needed + 7) // 8
        arena = (ctypes.c_uint64 * max(words, 1))()
        if self._arena is not None:
            ctypes.memmove(arena, self._arena, ctypes.sizeof(self._arena))
        size = ctypes.c_size_t(ctypes.sizeof(arena))
        err = N.Error()
        st = N.query_arena(ctypes.byref(self._q), arena, ctypes.byref(size), ctypes.byref(err))
        if st != OK:
            raise _error(st, err)
        self._arena = arena

    def collect(self, capture):
        """Collects one capture (bytes, bytearray or memoryview; read during
        the call only). A rejected capture raises PerfbufError (offset,
        structure, field) and changes nothing."""
        from . import E_OUTPUT_TOO_SMALL
        buf = Buffer(capture)
        # Before its arena the query asks for its indexes' size, then for the
        # capture's: a few rounds at most.
        for _ in range(4):
            needed = ctypes.c_size_t(0)
            err = N.Error()
            st = N.query_collect(ctypes.byref(self._q), buf.address, buf.size,
                                 ctypes.byref(needed), ctypes.byref(err))
            if st != E_OUTPUT_TOO_SMALL:
                if st != OK:
                    raise _error(st, err)
                return
            self._give_arena(needed.value)
        raise _error(E_OUTPUT_TOO_SMALL)
