# SPDX-License-Identifier: MIT OR Apache-2.0
"""`python -m perfbuf FILE`: the JSON perfbuf-dump --json writes, from Python.

The document is built as nested dicts in perfbuf-dump's key order and
written byte for byte as its emitter writes it (two-space indentation,
the same escapes), so the two outputs can be compared as text.
"""
import ctypes
import struct
import sys

from . import (E_BAD_REFERENCE, E_OUTPUT_TOO_SMALL, OK, STATUS, FMT_DOUBLE, CounterPath,
               PerfbufError,
               V1Capture, NameTable, V2Query, V2Registration, cstatus_name, status_name,
               status_string, version, _utf8)
from . import _native as N
from . import _v2meta as M

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


def _side_views(side, wanted):
    """The side views a dump uses: given as views, or read here from the
    raw side inputs main() collected (each read after the main buffer was
    accepted, as perfbuf-dump reads them; a rejected one is reported on
    stderr and left out)."""
    side = dict(side or {})
    inputs, files = side.pop("inputs", {}), side.pop("files", {})
    options = side.pop("options", {})
    for key, what, parse in wanted:
        if key in side or key not in inputs:
            continue
        try:
            side[key] = parse(inputs[key], options)
        except PerfbufError as e:
            sys.stderr.write("perfbuf: %s: the %s is rejected: %s%s\n"
                             % (files.get(key, "?"), what, e, _sizes_compared(e)))
    return side


def _table(data, options):
    # Counter tables are read leniently and without limits, whatever the
    # options of the main buffer.
    return NameTable(data)


def _titles(table):
    """{title index: text} of a Counter table, the first entry of an index
    as perfbuf-dump's lookup finds it; texts that do not convert are left
    out, as it leaves them out."""
    out = {}
    t = ctypes.byref(table._table)
    it = N.NamesIter()
    N.names_begin(t, ctypes.byref(it))
    while True:
        e = N.NameEntry()
        if not N.names_next(t, ctypes.byref(it), ctypes.byref(e)):
            return out
        if e.title_index in out:
            continue
        st, text = _utf8(N.names_text_utf8, t, ctypes.byref(e))
        out[e.title_index] = text if st == OK else None


# --rate and --series on V1 data blocks.

_CSTATUS_INVALID_DATA = 0xC0000BBA


class _V1Paired:
    """An earlier capture (--rate's, or one of --series; None: rejected or
    absent) and the dumped one, collected in that order by a perfbuf.Query
    holding a counter of every definition (Query.add_definitions), as
    perfbuf-dump's text and JSON read them: one item per object, instance
    (or counter block) and definition of the dumped capture, in block and
    definition order, each with the earlier capture's sample of the same
    instance (its key, or its UniqueID) and definition. `pair`: how
    (--pair-by: "unique-id", "pdh" or a key counter's name with the Counter
    tables' bytes, a query on them then naming it); with `changes`, the
    instances that appeared and exited too."""

    def __init__(self, earlier, cap, options, pair=("unique-id", None, None), changes=False):
        from ._query import Query
        from . import PerfbufError
        self.raw, self.formatted, self.first = [], [], {}
        self.appeared, self.exited = [], []
        mode, english, localized = pair
        limits = dict(strict=options.get("strict", False),
                      max_sections=options.get("max_sections", 0),
                      max_counters=options.get("max_counters", 0),
                      max_instances=options.get("max_instances", 0))
        if mode in ("unique-id", "pdh"):
            query = Query(b"\0\0", **limits)
        elif english is not None:
            query = Query(english, localized, **limits)
        else:
            query = Query(localized, None, **limits)
        every = query.add_definitions()
        if mode == "unique-id":
            every.pair_by_unique_id()
        elif mode != "pdh":
            every.pair_by(mode)
        self._query = query  # the items' names point into its arena
        try:
            if earlier is not None:
                try:
                    query.collect(earlier._buffer.obj)
                except PerfbufError:
                    pass  # no earlier sample, as for a rejected capture
            query.collect(cap._buffer.obj)
            c = ctypes.byref(every._c)
            # The outputs name instances themselves: no names are asked for.
            self.raw, _ = every._checked(
                lambda q, items, count, names, size, err:
                    N.query_raw_array(q, c, items, count, None, None, err), N.RawItem)
            self.formatted, _ = every._checked(
                lambda q, items, count, names, size, err:
                    N.query_formatted_array(q, c, FMT_DOUBLE, items, count, None, None, err),
                N.FormattedItem)
            if changes:
                # Instances only: an object's counter block is no instance.
                self.appeared = [i for i in every.appeared_instances() if i.position is not None]
                self.exited = [i for i in every.exited_instances() if i.position is not None]
        except PerfbufError:
            # main() checked both captures are of one computer and in time
            # order (_earlier_fits): only a capture the query refuses is left.
            self.raw, self.formatted = [], []
        for k, it in enumerate(self.raw):
            self.first.setdefault((it.object, it.position), k)

    def find(self, obj, position):
        """The first item of the object's instance (or counter block), or None."""
        return self.first.get((obj, position))

    def _same(self, k, first):
        return (self.raw[k].object == self.raw[first].object
                and self.raw[k].position == self.raw[first].position)

    def item(self, first, c):
        """The item of definition c among those at `first`, or None."""
        if first is None:
            return None
        at = first + c._c.index
        return at if at < len(self.raw) and self._same(at, first) else None

    def state(self, first):
        """(pairing, previous position): matched when any of the instance's
        definitions found its older sample (one whose type changed still
        names the older instance); else its first item's; None without items."""
        if first is None:
            return None, None
        k = first
        while k < len(self.raw) and self._same(k, first):
            if self.raw[k].pairing in (_PAIR_MATCHED, _PAIR_DEFINITION_CHANGED):
                return _PAIR_MATCHED, self.raw[k].older_position
            k += 1
        return self.raw[first].pairing, None


def _v1_formatted(counters, paired, first):
    """Each counter formatted against the earlier capture, as the query formats it."""
    out = []
    for c in counters:
        at = paired.item(first, c)
        st = paired.formatted[at].value.status if at is not None else _CSTATUS_INVALID_DATA
        out.append("%.6f" % paired.formatted[at].value.as_double if st == 0
                   else cstatus_name(st))
    return out


def _v1_statistics(counters, series, itself, obj, position, ring):
    """perfbuf_compute_statistics of each counter over the series (the
    dumped capture last): each earlier capture's sample is the one its own
    pairing with the dumped capture gives; none is an invalid sample, and
    so is the dumped capture's own for an instance nothing pairs."""
    n = len(series) + 1
    firsts = [p.find(obj, position) for p in series]
    own_first = itself.find(obj, position)
    out = []
    for c in counters:
        for k, p in enumerate(series):
            at = p.item(firsts[k], c)
            ring[k].status = _CSTATUS_INVALID_DATA
            if at is not None and p.raw[at].has_older:
                ring[k] = p.raw[at].older
        ctx = N.ValueContext(0, 0)
        own = itself.item(own_first, c)
        ring[n - 1].status = _CSTATUS_INVALID_DATA
        if own is not None and itself.raw[own].pairing != _PAIR_UNPAIRED and \
                itself.raw[own].newer.status in (0, _CSTATUS_NEW_DATA):
            ring[n - 1] = itself.raw[own].newer
            ctx = itself.raw[own].context
        st = N.Statistics()
        rc = N.compute_statistics(c.type, ctypes.byref(ctx), FMT_DOUBLE, 0, n, ring,
                                  ctypes.byref(st))
        sd = {"count": st.count}
        if rc == 0:
            sd.update({"min": "%.6f" % st.min.as_double, "max": "%.6f" % st.max.as_double,
                       "mean": "%.6f" % st.mean.as_double})
        else:
            sd["status"] = cstatus_name(rc)
        out.append(sd)
    return out


def _change(inst, pair_by):
    """An instance that appeared or exited, as perfbuf-dump shows it."""
    d = {"name": inst.name, "position": inst.position}
    if inst.identity == "key-counter":
        d.update({"identity": pair_by, "key": inst.key})
    elif inst.identity == "unique-id":
        # A LONG, shown as the instance's unique_id is.
        d.update({"identity": "unique-id",
                  "key": inst.key - (1 << 32) if inst.key >= 1 << 31 else inst.key})
    else:
        d["identity"] = "name"
    return d


def _keyless(cap, tables, key):
    """FILE's objects with instances that lack the key counter, by title index."""
    text = key.encode("utf-8")
    return [o.name_title_index for o in cap.objects
            if o.num_instances >= 0
            and not any(tables.matches(c.name_title_index, text) for c in o.counters)]


def _key_known(inputs, key):
    """Whether a title of the --names or --english-names table has the key
    counter's text, as perfbuf-dump asks before it writes anything."""
    from ._select import TitleTables
    tables = [NameTable(inputs[k]) if k in inputs else None for k in ("names", "english_names")]
    either = TitleTables(tables[0], tables[1])
    text = key.encode("utf-8")
    return any(either.matches(index, text) for t in tables if t is not None
               for index in _titles(t))


def _title(d, titles, index):
    if titles is not None and index != 0 and titles.get(index) is not None:
        d["name"] = titles[index]


def dump_v1(cap, side=None):
    options = (side or {}).get("options", {})
    raw_tables = (side or {}).get("inputs", {})
    pair_by = (side or {}).get("pair_by") or "unique-id"
    side = _side_views(side, (("names", "--names table", _table),
                              ("english_names", "--english-names table", _table)))
    # Titles from --names, else from --english-names.
    table = side.get("names") or side.get("english_names")
    titles = _titles(table) if table is not None else None
    pair = (pair_by, raw_tables.get("english_names"), raw_tables.get("names"))
    if pair_by not in ("unique-id", "pdh") and (side.get("previous") is not None
                                                 or "series" in side):
        from ._select import TitleTables
        keyless = _keyless(cap, TitleTables(side.get("names"), side.get("english_names")),
                           pair_by)
        if keyless:
            sys.stderr.write("perfbuf: %s: --pair-by \"%s\": these objects have no such "
                             "counter; their instances pair by PDH's key: %s\n"
                             % (side.get("file", "?"), pair_by, ", ".join(
                                 "%d%s" % (t, _printable_title(titles, t)) for t in keyless)))
    selection = None
    if side.get("counters"):
        from ._select import Selection, TitleTables
        selection = Selection(side["counters"], TitleTables(side.get("names"),
                                                            side.get("english_names")),
                              cap, side.get("english_names"), side.get("names"), options)
    rate = (_V1Paired(side["previous"], cap, options, pair, changes=True)
            if side.get("previous") is not None else None)
    exited_shown = set()
    exited_by_title, appeared_by_object = {}, {}
    for inst in rate.exited if rate is not None else ():
        exited_by_title.setdefault(inst.object_title, []).append(inst)
    for inst in rate.appeared if rate is not None else ():
        appeared_by_object.setdefault(inst.object, []).append(inst)
    series = None
    if "series" in side:
        # Oldest first; a rejected capture is None. `itself`: the dumped
        # capture alone, for its own samples.
        series = [_V1Paired(c, cap, options, pair) for c in side["series"]]
        itself = _V1Paired(None, cap, options, pair)
        ring = (N.RawSample * (len(series) + 1))()
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
        if selection is not None and not selection.select_object(o):
            continue
        od = {"position": o.position, "offset": o.offset, "total_byte_length": o.total_length,
              "definition_length": o.definition_length, "header_length": o.header_length,
              "object_name_title_index": o.name_title_index,
              "object_name_title": _le32(buf, o.offset + 16),
              "object_help_title_index": o.help_title_index,
              "object_help_title": _le32(buf, o.offset + 24)}
        _title(od, titles, o.name_title_index)
        od.update({"detail_level": o.detail_level, "num_counters": o.counter_count,
                   "default_counter": o.default_counter, "num_instances": o.num_instances,
                   "code_page": o.code_page, "perf_time": o.perf_time,
                   "perf_freq": o.perf_freq})
        counters = o.counters
        if selection is not None:
            counters = selection.keep_counters(counters)
        od["counters"] = []
        for c in counters:
            cd = {"position": c.position, "offset": c.offset, "byte_length": c.byte_length,
                  "counter_name_title_index": c.name_title_index,
                  "counter_name_title": _le32(buf, c.offset + 8),
                  "counter_help_title_index": c.help_title_index,
                  "counter_help_title": _le32(buf, c.offset + 16)}
            _title(cd, titles, c.name_title_index)
            cd.update({"default_scale": c.default_scale, "detail_level": c.detail_level,
                       "counter_type": c.type, "counter_type_name": c.type_name,
                       "counter_size": c.size, "counter_offset": c.counter_offset})
            od["counters"].append(cd)
        single = o._counter_block_c()
        if single is not None and (selection is None or selection.block_selected(o.position)):
            od["counter_block"] = {"offset": single.offset, "byte_length": single.byte_length}
            od["values"] = _values(o, counters, single)
            if rate is not None:
                od["formatted"] = _v1_formatted(counters, rate,
                                                rate.find(o.position, _NO_INSTANCE))
            if series is not None:
                od["statistics"] = _v1_statistics(counters, series, itself, o.position,
                                                  _NO_INSTANCE, ring)
        if o.num_instances >= 0:
            insts = []
            for inst in o.instances:
                if selection is not None and not selection.instance(o.position, inst.position):
                    continue
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
                if rate is not None:
                    first = rate.find(o.position, inst.position)
                    state, previous = rate.state(first)
                    idd["pairing"] = _PAIR_NAMES.get(state, "unpaired")
                    if state == _PAIR_MATCHED:
                        idd["previous_position"] = previous
                    idd["formatted"] = _v1_formatted(counters, rate, first)
                if series is not None:
                    idd["statistics"] = _v1_statistics(counters, series, itself, o.position,
                                                       inst.position, ring)
                insts.append(idd)
            od["instances"] = insts
            if rate is not None:
                # The earlier capture's instances of this title that exited,
                # with FILE's first object of the title; then this object's
                # that appeared.
                title = o.name_title_index
                od["exited"] = ([_change(i, pair_by) for i in exited_by_title.get(title, ())]
                                if title not in exited_shown else [])
                exited_shown.add(title)
                od["appeared"] = [_change(i, pair_by)
                                  for i in appeared_by_object.get(o.position, ())]
        objects.append(od)
    d["objects"] = objects
    if selection is not None:
        lines, first = selection.unmatched(side.get("file", "?"))
        for line in lines:
            sys.stderr.write("perfbuf: %s\n" % line)
        if first is not None:
            raise _Unmatched(d, first)
    return d


def _printable_title(titles, index):
    """ " (text)" for a title whose text is printable ASCII, as perfbuf-dump
    names an object on stderr; "" otherwise."""
    text = (titles or {}).get(index)
    if text is None or not all(" " <= ch <= "~" for ch in text):
        return ""
    return " (%s)" % text


class _Unmatched(Exception):
    """A document whose --counter paths did not all match: written whole,
    valid false with an error naming the first such path, its part and why,
    and the run fails (exit 1), as perfbuf-dump's."""

    def __init__(self, doc, first):
        super().__init__("a --counter path matched nothing")
        self.doc = doc
        path, part, offset, words = first
        self.error = {"offset": offset, "structure": "COUNTER_PATH", "field": part,
                      "status": "PERFBUF_E_NOT_FOUND", "message": words, "path": path}


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


def dump_names(t, side=None):
    d = {"size": t.size, "count": t.count, "ascending": t.ascending}
    _anomalies(d, t)
    d["entries"] = [{"title_index": k, "text": text} for k, text in t.entries]
    return d


# perfbuf_v2_block kinds (v2_query.h).
_V2_ERROR_RETURN, _V2_SINGLE_COUNTER, _V2_MULTIPLE_COUNTERS = 0, 1, 2
_V2_MULTIPLE_INSTANCES, _V2_COUNTERSET = 4, 6
_PAIR_MATCHED, _PAIR_DEFINITION_CHANGED, _PAIR_UNPAIRED = 0, 3, 4
_NO_INSTANCE = 0xFFFFFFFF
_CSTATUS_NEW_DATA = 1
_PAIR_NAMES = {0: "matched", 1: "new", 2: "ambiguous"}
_PDH_INVALID_ARGUMENT = 0xC0000BBD


class _V2Side:
    """What the side files add to a V2 query dump, each when given and
    valid: the registration, the counter names, the identifiers (each
    block's counter, for blocks without an id list) and the --rate
    capture."""

    def __init__(self, q, side):
        self.reg = side.get("registration")
        self.names = side.get("counter_names")
        self.ids = side.get("identifiers")
        self.previous = side.get("previous")
        self.samplers = (_V2Sampler(), _V2Sampler()) \
            if self.previous is not None and self.reg is not None else None
        self.block_ids = {}
        if self.ids is not None:
            for ident in self.ids:
                if (ident.status == 0 and ident.block_position < q.block_count
                        and ident.block_position not in self.block_ids):
                    self.block_ids[ident.block_position] = ident._c.counter_id


class _V2Sampler:
    """--rate's samples through a value index of one instance (or block)
    of either capture: built once per instance, so that sampling each of
    its v values costs O(log v), not a walk of them all (O(v^2) for the
    instance, which a hostile capture of one huge instance would make
    long). Without an index the walk gives the same answer."""

    def __init__(self):
        self.index = None
        self._slots = None

    def build(self, query, block, inst):
        self.index = None
        need = N.v2_value_index_slots(ctypes.byref(block))
        if need == ctypes.c_size_t(-1).value:
            return
        if self._slots is None or len(self._slots) < need:
            self._slots = (N.u64 * max(need, 1))()
        index = N.V2ValueIndex()
        if N.v2_value_index_build(ctypes.byref(query._q), ctypes.byref(block),
                                  ctypes.byref(inst) if inst is not None else None,
                                  self._slots, len(self._slots), ctypes.byref(index)) == OK:
            self.index = index

    def sample(self, query, block, inst, reg, counter_id):
        sample, context = N.RawSample(), N.ValueContext()
        args = (ctypes.byref(query._q), ctypes.byref(block),
                ctypes.byref(inst) if inst is not None else None, ctypes.byref(reg._reg))
        if self.index is not None:
            st = N.v2_raw_sample_indexed(*args, ctypes.byref(self.index), counter_id,
                                         ctypes.byref(sample), ctypes.byref(context))
        else:
            st = N.v2_raw_sample(*args, counter_id, ctypes.byref(sample),
                                 ctypes.byref(context))
        return st, sample, context


def _v2_formatted(side, q, b, inst, counter, prev):
    """perfbuf-dump's "formatted": the value against the --rate capture's
    value of the same counter in the paired instance (or block)."""
    st = _PDH_INVALID_ARGUMENT
    now, before = side.samplers
    s_st, s1, ctx = now.sample(q, b, inst, side.reg, counter.counter_id)
    if s_st == OK:
        placed = prev["inst"] is not None if inst is not None else prev["block"] is not None
        older = None
        if placed:
            p_st, s0, _ = before.sample(side.previous, prev["block"],
                                        prev["inst"] if inst is not None else None, side.reg,
                                        counter.counter_id)
            older = s0 if p_st == OK else None
        v = N.Value()
        st = N.format_value(counter.type, ctypes.byref(s1),
                            ctypes.byref(older) if older is not None else None,
                            ctypes.byref(ctx), FMT_DOUBLE, ctypes.byref(v))
    return "%.6f" % v.as_double if st == 0 else cstatus_name(st)


def _v2_values(q, b, inst, it, side, prev):
    buf = q._buffer
    if side.samplers is not None:
        now, before = side.samplers
        now.build(q, b, inst)
        before.index = None
        placed = prev["inst"] is not None if inst is not None else prev["block"] is not None
        if placed:
            before.build(side.previous, prev["block"],
                         prev["inst"] if inst is not None else None)
    single = 0xFFFFFFFF
    if b.kind in (_V2_SINGLE_COUNTER, _V2_MULTIPLE_INSTANCES):
        single = side.block_ids.get(b.index, 0xFFFFFFFF)
    out = []
    qp, bp = ctypes.byref(q._q), ctypes.byref(b)
    while True:
        v = N.V2Value()
        if not N.v2_values_next(qp, bp, ctypes.byref(it), ctypes.byref(v)):
            return out
        vd = {"position": v.index, "offset": v.offset}
        cid = v.counter_id if v.counter_id != 0xFFFFFFFF else single
        if cid != 0xFFFFFFFF:
            vd["counter_id"] = cid
        vd["data_size"] = v.data_size
        vd["size"] = _le32(buf, v.offset + 4)
        if v.is_integer:
            vd["value"] = v.integer
        else:
            vd["bytes"] = ctypes.string_at(v.bytes, v.data_size).hex() if v.data_size else ""
        if side.reg is not None and cid != 0xFFFFFFFF:
            counter = side.reg.find(cid)
            if counter is not None:
                vd["counter_type"] = counter.type
                vd["counter_type_name"] = counter.type_name
                if side.previous is not None and N.counter_type_is_displayable(counter.type):
                    vd["formatted"] = _v2_formatted(side, q, b, inst, counter, prev)
        out.append(vd)


def _location(where):
    return {"offset": where.offset, "structure": where.structure, "field": where.field}


def _v2_crosscheck(d, q, side):
    """The "crosscheck" object; a PerfbufError (INCONSISTENT, located as
    perfbuf-dump locates it) when the buffers disagree, else None."""
    m = M.crosscheck(q, side.reg, side.ids)
    cd = {"agree": m is None}
    d["crosscheck"] = cd
    if m is None:
        return None
    cd.update({"mismatch": m.kind, "block_position": m.block_position,
               "counter_id": m.counter_id})
    for key in ("in_query", "in_registration", "in_identifiers"):
        where = getattr(m, key)
        if where is not None:
            cd[key] = _location(where)
    where = m.where
    return PerfbufError(STATUS["PERFBUF_E_INCONSISTENT"], where.offset, where.structure,
                        where.field)


class _V2Pairer:
    """A block's instances paired with those of the --rate capture's block
    at the same position (none there: every instance is new)."""

    def __init__(self, previous, older, q, b):
        self.ok = False
        self.older = []
        obp = ctypes.byref(older) if older is not None else None
        slots = ctypes.c_size_t(0)
        if N.v2_pairing_scratch(obp, ctypes.byref(b), ctypes.byref(slots)) != OK:
            return
        self._scratch = (N.u64 * max(slots.value, 1))()
        self.pairing = N.V2Pairing()
        if N.v2_pair(ctypes.byref(previous._q), obp, ctypes.byref(q._q), ctypes.byref(b),
                     self._scratch, slots.value, ctypes.byref(self.pairing)) != OK:
            return
        self.ok = True
        if older is None:
            return
        it = N.V2Iter()
        N.v2_instances_begin(obp, ctypes.byref(it))
        while len(self.older) < older.instance_count:
            inst = N.V2Instance()
            if not N.v2_instances_next(ctypes.byref(previous._q), obp, ctypes.byref(it),
                                       ctypes.byref(inst)):
                break
            self.older.append(inst)

    def partner(self, index):
        """(state name, older position or None)."""
        state, ordinal, older = N.u32(), N.u32(), N.u32()
        if not self.ok or not N.v2_pairing_instance(ctypes.byref(self.pairing), index,
                                                     ctypes.byref(state), ctypes.byref(ordinal),
                                                     ctypes.byref(older)):
            return "unpaired", None
        name = _PAIR_NAMES.get(state.value, "unpaired")
        if state.value == _PAIR_MATCHED and older.value < len(self.older):
            return name, older.value
        return name, None


def dump_v2_query(q, side=None):
    """perfbuf-dump's document of V2 query data; side may hold a
    V2Registration ("registration"), V2Strings ("counter_names"),
    V2Identifiers ("identifiers") and an earlier V2Query ("previous")."""
    side = _V2Side(q, _side_views(side, (
        ("registration", "--registration file", lambda d, o: FORMATS["v2-reginfo"][0](d, o)),
        ("counter_names", "--counter-names file", lambda d, o: _parse_strings(d, o)),
        ("identifiers", "--identifiers file",
         lambda d, o: FORMATS["v2-identifiers"][0](d, o)))))
    buf = q._buffer
    d = {"received": q.received, "total_size": q.size, "num_counters": q.block_count,
         "perf_time_stamp": q.perf_time_stamp, "perf_time_100ns": q.perf_time_100ns,
         "perf_freq": q.perf_freq, "system_time": _systemtime(q.system_time)}
    _anomalies(d, q)
    verdict = _v2_crosscheck(d, q, side) if side.reg is not None else None
    if side.names is not None:
        # Each name once, by counter id (the first header of an id first).
        entries = sorted(side.names, key=lambda e: (e.counter_id, e.position))
        d["counter_names"] = [{"counter_id": e.counter_id, "name": e.text} for e in entries]
    qp = ctypes.byref(q._q)
    previous = side.previous
    if previous is not None:
        pit = N.V2Iter()
        N.v2_blocks_begin(ctypes.byref(previous._q), ctypes.byref(pit))
    blocks = []
    bit = N.V2Iter()
    N.v2_blocks_begin(qp, ctypes.byref(bit))
    while True:
        b = N.V2Block()
        if not N.v2_blocks_next(qp, ctypes.byref(bit), ctypes.byref(b)):
            break
        prev = {"block": None, "inst": None}
        if previous is not None:
            pb = N.V2Block()
            if (N.v2_blocks_next(ctypes.byref(previous._q), ctypes.byref(pit), ctypes.byref(pb))
                    and pb.index == b.index and pb.kind == b.kind):
                prev["block"] = pb
        bd = {"position": b.index, "offset": b.offset, "status": b.status, "type": b.kind,
              "type_name": N.v2_kind_name(b.kind).decode(), "size": b.size,
              "reserved": _le32(buf, b.offset + 12)}
        if b.kind in (_V2_MULTIPLE_COUNTERS, _V2_COUNTERSET):
            at = b.ids_offset - 8
            bd["multi_counters"] = {"offset": at, "size": _le32(buf, at),
                                    "counters": _le32(buf, at + 4)}
            bd["counter_ids"] = [N.v2_block_counter_id(qp, ctypes.byref(b), i)
                                 for i in range(b.counter_count)]
        it = N.V2Iter()
        if b.kind in (_V2_MULTIPLE_INSTANCES, _V2_COUNTERSET):
            at = b.items_offset - 8
            bd["multi_instances"] = {"offset": at, "total_size": _le32(buf, at),
                                     "instances": _le32(buf, at + 4)}
            pairer = _V2Pairer(previous, prev["block"], q, b) if previous is not None else None
            insts = []
            N.v2_instances_begin(ctypes.byref(b), ctypes.byref(it))
            while True:
                inst = N.V2Instance()
                if not N.v2_instances_next(qp, ctypes.byref(b), ctypes.byref(it),
                                           ctypes.byref(inst)):
                    break
                _, name = _utf8(N.v2_instance_name_utf8, qp, ctypes.byref(inst))
                idd = {"position": inst.index, "offset": inst.offset, "size": inst.size,
                       "instance_id": inst.id, "name": name}
                prev["inst"] = None
                if pairer is not None:
                    state, older = pairer.partner(inst.index)
                    idd["pairing"] = state
                    if older is not None:
                        prev["inst"] = pairer.older[older]
                        idd["previous_position"] = older
                vit = N.V2Iter()
                N.v2_instance_values_begin(ctypes.byref(inst), ctypes.byref(vit))
                idd["values"] = _v2_values(q, b, inst, vit, side, prev)
                insts.append(idd)
            bd["instances"] = insts
        elif b.kind != _V2_ERROR_RETURN:
            N.v2_block_values_begin(ctypes.byref(b), ctypes.byref(it))
            bd["values"] = _v2_values(q, b, None, it, side, prev)
        blocks.append(bd)
    d["blocks"] = blocks
    if verdict is not None:
        raise _Verdict(d, verdict)
    return d


class _Verdict(Exception):
    """A document written whole whose buffers were then found to disagree:
    perfbuf-dump writes it and rejects the run."""

    def __init__(self, doc, error):
        super().__init__(str(error))
        self.doc = doc
        self.error = error


# ------------------------------------------------------ V2 metadata ----

def _counter(c):
    return {"position": c.position, "offset": c.offset, "counter_id": c.counter_id,
            "type": c.type, "type_name": c.type_name, "attrib": c.attributes,
            "detail_level": c.detail_level, "default_scale": c.default_scale,
            "base_counter_id": c.base_counter_id, "perf_time_id": c.perf_time_id,
            "perf_freq_id": c.perf_freq_id, "multi_id": c.multi_id,
            "aggregate_func": c.aggregate, "reserved": c.reserved}


def dump_v2_reginfo(r, side=None):
    d = {"counterset_guid": r.counterset, "counterset_type": r.counterset_type,
         "detail_level": r.detail_level, "num_counters": r.counter_count,
         "instance_type": r.instance_type}
    _anomalies(d, r)
    d["counters"] = [_counter(c) for c in r.counters]
    return d


def dump_v2_counter(a, side=None):
    d = {}
    _anomalies(d, a)
    d["counter"] = _counter(a.counter)
    return d


def dump_v2_string(s, side=None):
    d = {"text": s.text}
    _anomalies(d, s)
    return d


def dump_v2_provider_guid(guid, side=None):
    return {"provider": guid}


def dump_v2_strings(s, side=None):
    d = {"size": s.block_size, "counters": s.count, "offset_origin": s.origin}
    _anomalies(d, s)
    d["strings"] = [{"position": e.position, "offset": e.offset, "counter_id": e.counter_id,
                     "string_offset": e.string_offset, "text_offset": e.text_offset,
                     "text": e.text} for e in s]
    return d


def dump_v2_countersets(l, side=None):
    return {"countersets": list(l)}


def dump_v2_instances(l, side=None):
    d = {}
    _anomalies(d, l)
    d["instances"] = [{"position": i.position, "offset": i.offset, "size": i.size,
                       "instance_id": i.instance_id, "name": i.name} for i in l]
    return d


def dump_v2_identifiers(l, side=None):
    d = {}
    _anomalies(d, l)
    d["identifiers"] = [{"position": i.position, "offset": i.offset,
                         "counterset_guid": i.counterset, "status": i.status, "size": i.size,
                         "counter_id": i.counter_id, "instance_id": i.instance_id,
                         "block_position": i.block_position, "reserved": i.reserved,
                         "instance_name": i.instance_name} for i in l]
    return d


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


def _limits(options):
    return {k: options.get(k, 0) for k in ("max_sections", "max_counters", "max_instances")}


def _parse_with(parser):
    """A format's reader with perfbuf-dump's options (strict and the limits)."""
    def parse(data, options):
        return parser(data, strict=options.get("strict", False), **_limits(options))
    return parse


def _parse_strings(data, options):
    return M.V2Strings(data, options.get("origin", "auto"), options.get("strict", False),
                       **_limits(options))


def _parse_provider_guid(data, options):
    return M.parse_v2_provider_guid(data)


def _parse_countersets(data, options):
    return M.V2Countersets(data)


# perfbuf-dump's formats, in its order: name -> (reader, document).
FORMATS = {"v1": (_parse_with(V1Capture), dump_v1),
           "v1-names": (lambda data, options: NameTable(data, options.get("strict", False)),
                        dump_names),
           "v2-query": (_parse_with(V2Query), dump_v2_query),
           "v2-reginfo": (_parse_with(V2Registration), dump_v2_reginfo),
           "v2-counter": (_parse_with(M.V2CounterAnswer), dump_v2_counter),
           "v2-string": (_parse_with(M.V2String), dump_v2_string),
           "v2-provider-guid": (_parse_provider_guid, dump_v2_provider_guid),
           "v2-strings": (_parse_strings, dump_v2_strings),
           "v2-countersets": (_parse_countersets, dump_v2_countersets),
           "v2-instances": (_parse_with(M.V2InstanceList), dump_v2_instances),
           "v2-identifiers": (_parse_with(M.V2Identifiers), dump_v2_identifiers)}


def _error_object(e):
    err = {"offset": e.offset, "structure": e.structure, "field": e.field,
           "status": e.status_name, "message": status_string(e.status)}
    if e.declared or e.limit:
        err["declared"] = e.declared
        err["limit"] = e.limit
    return err


def document(data, path, strict=False, fmt=None, options=None, side=None):
    """(dict, error or None) of perfbuf-dump --json for these bytes; None when
    the format is not one perfbuf-dump detects (or, named, knows).
    options: strict, origin ("auto", "block", "array-end") and the limits
    (max_sections, max_counters, max_instances); side: the validated side
    inputs (titles, registration, counter_names, identifiers, previous)."""
    options = dict(options or {})
    options.setdefault("strict", strict)
    fmt = fmt or _detect(data)
    if fmt not in FORMATS:
        return None, None
    parser, dumper = FORMATS[fmt]
    d = {"format": fmt, "file": path, "bytes": len(data)}
    try:
        capture = parser(data, options)
    except PerfbufError as e:
        d["valid"] = False
        d["error"] = _error_object(e)
        return d, e
    try:
        d.update(dumper(capture, side))
    except _Unmatched as u:
        d.update(u.doc)
        d["valid"] = False
        d["error"] = u.error
        return d, u
    except _Verdict as v:
        d.update(v.doc)
        d["valid"] = False
        d["error"] = _error_object(v.error)
        return d, v.error
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


# The words perfbuf-dump's rejection line puts before an upper bound, by
# status; a bound above the value declared is a least value, "at least".
_LIMIT_WORDS = {"PERFBUF_E_SIZE_EXCEEDS_RECEIVED": "received",
                "PERFBUF_E_COUNT_TOO_LARGE": "room for",
                "PERFBUF_E_LIMIT_EXCEEDED": "limit"}


def _sizes_compared(err):
    """perfbuf-dump's " (declared N, received M)" after a rejection line, when
    the rejection carries the two numbers it compared; "" otherwise."""
    if not (err.declared or err.limit):
        return ""
    declared = "needs" if err.status_name == "PERFBUF_E_TRUNCATED" else "declared"
    if err.declared < err.limit:
        limit = "at least"
    else:
        limit = _LIMIT_WORDS.get(err.status_name, "available")
    return " (%s %d, %s %d)" % (declared, err.declared, limit, err.limit)


USAGE = """usage: python -m perfbuf [options] FILE   (- reads standard input)
writes what perfbuf-dump --json writes for FILE, byte for byte
  -f, --format NAME   the buffer's format (default: auto; see below)
      --json          accepted: the output is always perfbuf-dump's JSON
      --strict        reject what real producers do loosely
      --names FILE    a Counter name table: V1 object and counter names
      --english-names FILE  the English (009) Counter table: names where
                      --names is not given; --counter paths may be in English
      --counter PATH  V1: show only what the counter path names, e.g.
                      '\\Process(svchost*)\\%% Processor Time'; repeatable;
                      needs --names or --english-names (a path that matches
                      nothing: valid false, exit 1)
      --registration FILE  V2: the counterset's registration (v2-reginfo):
                      counter types and the cross-check of the query data
      --counter-names FILE V2: the counters' names (v2-strings)
      --identifiers FILE   V2: the query's counter identifiers (v2-identifiers)
      --rate PREVIOUS an earlier capture of the same query: formatted values
                      (V2 needs --registration)
      --series EARLIER... --  earlier captures of the same V1 query, oldest
                      first: each counter's min, max and mean over them and FILE
      --pair-by KEY   V1 --rate and --series: pair instances by unique-id (the
                      default: UniqueID where set, else PDH's key), pdh (PDH's
                      parent/name#N alone) or a key counter's name, e.g.
                      'ID Process' (needs --names or --english-names)
      --origin auto|block|array-end  where v2-strings offsets count from
      --max-sections N, --max-counters N, --max-instances N
                      limits on counts (0: the library's default)
      --max-input-bytes N  refuse an input larger than N bytes
      --openmetrics   writes what perfbuf-dump --openmetrics writes instead: FILE,
                      or --series EARLIER... -- FILE or --rate PREVIOUS FILE, as
                      OpenMetrics text (docs/prometheus.md)
      --help-names FILE  the Help table: --openmetrics help text
      --metric-prefix NAME  --openmetrics metric names' prefix (default windows)
      --no-timestamps --openmetrics of one capture without timestamps
  -h, --help          this text
      --version       the library version
formats: auto, %s
perfbuf-dump's own: --csv (typeperf's CSV), --counterset-name and --counter on
  V2 query data
exit status: 0 success, 1 an input rejected (an empty one included), captures
  that cannot make a rate, or a --counter path that matched nothing, 2 usage
  or I/O error
""" % ", ".join(FORMATS)

MAX_INPUT_BYTES = 1 << 30

# Options that are perfbuf-dump's alone: refused, naming it.
_DUMP_ONLY = {"--csv": "writes typeperf's CSV",
              "--counterset-name": "names the V2 counterset for --counter"}


def options_v1(options):
    return dict(_limits(options), strict=options.get("strict", False))


def _fail(text, status=2):
    sys.stderr.write("perfbuf: %s\n" % text)
    return status


def _read(path, limit):
    """(bytes, None) or (None, exit status) after saying why on stderr."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(limit + 1)
    except OSError as exc:
        return None, _fail("%s: %s" % (path, exc.strerror))
    if len(data) > limit:
        return None, _fail("%s: larger than %d bytes (--max-input-bytes)" % (path, limit))
    return data, None


def _count(text):
    if not text.isdigit() or int(text) > 0xFFFFFFFF:
        return None
    return int(text)


def _openmetrics_main(fmt, data, path, series, series_paths, inputs, files, options,
                      counter_paths, om, limit):
    """--openmetrics: perfbuf-dump --openmetrics's text and exit status."""
    from ._openmetrics import OpenMetricsError, openmetrics
    if fmt not in ("v1", "v2-query"):
        return _fail("--openmetrics is for V1 data blocks and V2 query data")
    if series and "previous" in inputs:
        return _fail("--openmetrics takes --rate or --series, not both")
    captures = list(series) + ([inputs["previous"]] if "previous" in inputs else []) + [data]
    names = list(series_paths) + ([files["previous"]] if "previous" in inputs else []) + [path]
    help_data = None
    if om["help_names"] is not None:
        help_data, rc = _read(om["help_names"], limit)
        if help_data is None:
            return rc
    unmatched = []
    try:
        text = openmetrics(
            captures, names=inputs.get("names"), english_names=inputs.get("english_names"),
            help_names=help_data, prefix=om["prefix"], paths=counter_paths,
            timestamps=om["timestamps"], registration=inputs.get("registration"),
            counter_names=inputs.get("counter_names"), identifiers=inputs.get("identifiers"),
            files=names, origin=options.get("origin", "auto"),
            warn=lambda text: sys.stderr.write("perfbuf: %s\n" % text), unmatched=unmatched,
            **options_v1(options))
    except OpenMetricsError as e:
        if e.rejection is not None:
            sys.stderr.write("%s%s\n" % (e, _sizes_compared(e.rejection)))
            return e.status
        return _fail(str(e), e.status)
    sys.stdout.write(text)
    sys.stdout.flush()
    for p in unmatched:
        sys.stderr.write("perfbuf: %s: --counter %s matched nothing\n" % (path, p))
    return 1 if unmatched else 0


# The side files main() reads: (what perfbuf-dump calls it, its reader with
# the run's options; the Counter tables leniently, as perfbuf-dump reads them).
_SIDE_FILES = {"names": ("--names table", lambda d, o: _table(d, o)),
               "english_names": ("--english-names table", lambda d, o: _table(d, o)),
               "registration": ("--registration file",
                                lambda d, o: FORMATS["v2-reginfo"][0](d, o)),
               "counter_names": ("--counter-names file", lambda d, o: _parse_strings(d, o)),
               "identifiers": ("--identifiers file",
                               lambda d, o: FORMATS["v2-identifiers"][0](d, o))}


def _rejected(what, name, data, parse, options):
    """Whether an input other than FILE is empty or rejected, said on stderr
    as perfbuf-dump says it."""
    if not data:
        sys.stderr.write("perfbuf: %s: the %s is empty (0 bytes)\n" % (_input_name(name), what))
        return True
    if parse is None:
        return False
    try:
        parse(data, options)
    except PerfbufError as e:
        sys.stderr.write("perfbuf: %s: the %s is rejected: %s%s\n"
                         % (name, what, e, _sizes_compared(e)))
        return True
    return False


def _earlier_fits(fmt, option, earlier_name, earlier, later_name, later, options):
    """perfbuf-dump's dump_earlier_fits: no clock of the earlier capture after
    the later one's, and (V1) both of one computer; says why not on stderr."""
    a, b = (FORMATS[fmt][0](x, options) for x in (earlier, later))
    fits = True
    if fmt == "v1":
        na, nb = a.system_name, b.system_name
        converted = na is not None and nb is not None
        if not converted or _fold(na) != _fold(nb):
            sys.stderr.write("perfbuf: %s: the %s capture is of computer \"%s\" and %s of "
                             "\"%s\": a rate pairs two captures of one computer\n"
                             % (earlier_name, option, na if converted else "?", later_name,
                                nb if converted else "?"))
            fits = False
        clocks = (("PerfTime", a.perf_time, b.perf_time),
                  ("PerfTime100nSec", a.perf_time_100ns, b.perf_time_100ns))
    else:
        clocks = (("PerfTimeStamp", a.perf_time_stamp, b.perf_time_stamp),
                  ("PerfTime100NSec", a.perf_time_100ns, b.perf_time_100ns))
    fields = ("year", "month", "day", "hour", "minute", "second", "milliseconds")
    ta, tb = (tuple(t[f] for f in fields) for t in (a.system_time, b.system_time))
    later_clocks = ["%s %d is after %d" % (name, x, y) for name, x, y in clocks if x > y]
    if ta > tb:
        later_clocks.append("SystemTime %04d-%02d-%02d %02d:%02d:%02d.%03d is after "
                            "%04d-%02d-%02d %02d:%02d:%02d.%03d" % (ta + tb))
    if not later_clocks:
        return fits
    sys.stderr.write("perfbuf: %s: the %s capture is later than %s: %s; %s\n"
                     % (earlier_name, option, later_name, ", ".join(later_clocks),
                        "give --rate the earlier capture" if option == "--rate"
                        else "give --series the captures oldest first, FILE last"))
    return False


def _input_name(name):
    """How stderr names an input: "-" is standard input."""
    return "standard input" if name == "-" else name


def _fold(name):
    return "".join(c.lower() if "A" <= c <= "Z" else c for c in name)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    options = {"strict": False, "origin": "auto"}
    fmt = "auto"
    path = None
    files = {}
    limit = MAX_INPUT_BYTES
    series_paths = []
    counter_paths = []
    om = {"enabled": False, "timestamps": True, "prefix": "windows", "help_names": None}
    json_given = False
    pair_by = None
    takes_file = {"--names": "names", "--english-names": "english_names",
                  "--registration": "registration", "--counter-names": "counter_names",
                  "--identifiers": "identifiers", "--rate": "previous"}
    i = 0
    while i < len(argv):
        a = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if a in ("-h", "--help"):
            sys.stdout.write(USAGE)
            return 0
        if a == "--version":
            sys.stdout.write("perfbuf %s\n" % version())
            return 0
        if a == "--json":
            json_given = True
        elif a == "--openmetrics":
            om["enabled"] = True
        elif a == "--no-timestamps":
            om["timestamps"] = False
        elif a in ("--metric-prefix", "--help-names"):
            if nxt is None:
                return _fail("%s needs a value" % a)
            om["prefix" if a == "--metric-prefix" else "help_names"] = nxt
            i += 1
        elif a == "--strict":
            options["strict"] = True
        elif a == "--pair-by" and nxt is not None:
            if nxt in ("", "*") or len(nxt.encode("utf-8")) > 3 * 1024:
                return _fail("--pair-by is unique-id, pdh or a counter's name (e.g. 'ID "
                             "Process'), not \"%s\"" % nxt)
            pair_by = nxt
            i += 1
        elif a in _DUMP_ONLY:
            return _fail("%s %s: that is perfbuf-dump's (perfbuf-dump --json %s ...); "
                         "python -m perfbuf does not take it" % (a, _DUMP_ONLY[a], a))
        elif a == "--counter" and nxt is not None:
            try:
                CounterPath(nxt)
            except PerfbufError as e:
                return _fail("--counter %s: offset %d: %s: %s" % (nxt, e.offset, e.field,
                                                                  e.reason))
            counter_paths.append(nxt)
            i += 1
        elif a == "--series":
            while i + 1 < len(argv) and argv[i + 1] != "--":
                if len(series_paths) == 64:
                    return _fail("at most 64 captures in a series")
                series_paths.append(argv[i + 1])
                i += 1
            if i + 1 >= len(argv):
                return _fail("--series ends with --")
            i += 1
        elif a in takes_file and nxt is not None:
            files[takes_file[a]] = nxt
            i += 1
        elif a in ("-f", "--format") and nxt is not None:
            fmt = nxt
            i += 1
        elif a == "--origin" and nxt is not None:
            if nxt not in M.ORIGINS:
                return _fail("--origin is auto, block or array-end")
            options["origin"] = nxt
            i += 1
        elif a in ("--max-sections", "--max-counters", "--max-instances"):
            n = _count(nxt) if nxt is not None else None
            if n is None:
                return _fail("%s needs a number from 0 to 4294967295" % a)
            options[a[2:].replace("-", "_")] = n
            i += 1
        elif a == "--max-input-bytes":
            n = _count(nxt) if nxt is not None else None
            if n is None or not 1 <= n <= MAX_INPUT_BYTES:
                return _fail("--max-input-bytes needs a number from 1 to %d" % MAX_INPUT_BYTES)
            limit = n
            i += 1
        elif a.startswith("-") and a != "-":
            sys.stderr.write("perfbuf: unknown or incomplete option %s\n" % a + USAGE)
            return 2
        elif path is None:
            path = a
        else:
            return _fail("one file at a time")
        i += 1
    if path is None:
        sys.stderr.write(USAGE)
        return 2
    if counter_paths and not {"names", "english_names", "registration"} & set(files):
        return _fail("--counter needs --names or --english-names (V1), or --registration (V2)")
    if pair_by is not None and "previous" not in files and not series_paths:
        return _fail("--pair-by goes with --rate or --series: FILE alone pairs nothing")
    if pair_by is not None and om["enabled"]:
        return _fail("--pair-by does not go with --openmetrics")
    if pair_by not in (None, "unique-id", "pdh") and \
            not {"names", "english_names"} & set(files):
        return _fail("--pair-by %s names a key counter: it needs --names or --english-names "
                     "to find it" % pair_by)
    if (om["help_names"] is not None or not om["timestamps"] or om["prefix"] != "windows") \
            and not om["enabled"]:
        return _fail("--help-names, --metric-prefix and --no-timestamps go with --openmetrics")
    if om["enabled"] and json_given:
        return _fail("--openmetrics does not go with --json or --csv")
    help_file = [om["help_names"]] if om["help_names"] is not None else []
    if sum(p == "-" for p in [path] + list(files.values()) + series_paths + help_file) > 1:
        return _fail("- (standard input) names one input at most")
    data, rc = _read(path, limit)
    if data is None:
        return rc
    if not data:
        # An empty input is rejected in any role, before any format is
        # considered, as perfbuf-dump rejects it.
        return _fail("%s: the file is empty (0 bytes)" % _input_name(path), 1)
    if fmt == "auto":
        fmt = _detect(data)
        if fmt is None:
            return _fail("%s: format not recognised; name it with --format" % path)
    elif fmt not in FORMATS:
        return _fail("unknown format %s (see --help)" % fmt)
    if counter_paths:
        if fmt == "v1" and not {"names", "english_names"} & set(files):
            return _fail("--counter on a V1 data block needs --names or --english-names")
        if fmt == "v2-query" and "registration" not in files:
            return _fail("--counter on V2 query data needs --registration")
        if fmt == "v2-query":
            return _fail("--counter on V2 query data: that is perfbuf-dump's (perfbuf-dump "
                         "--json --counter ...); python -m perfbuf does not take it")
        if fmt != "v1":
            return _fail("--counter is for V1 data blocks and V2 query data")
    if pair_by is not None and fmt != "v1":
        # V2 query data pairs by InstanceId, name and #N.
        return _fail("--pair-by is for V1 data blocks")
    # Read in perfbuf-dump's order, each input checked as soon as it is read
    # (a rejected or empty one fails the run before anything is written): the
    # names table, the --rate capture, the other side files, the series.
    inputs = {}
    side = {"inputs": inputs, "files": files, "options": options, "counters": counter_paths,
            "file": path}
    for key in ("names", "previous", "registration", "counter_names", "identifiers",
                "english_names"):
        if key not in files:
            continue
        inputs[key], rc = _read(files[key], limit)
        if inputs[key] is None:
            return rc
        if key == "previous":
            # Only V1 and V2 query data read it; any format refuses it empty.
            parse = FORMATS[fmt][0] if fmt in ("v1", "v2-query") else None
            what = "--rate capture"
        else:
            what, parse = _SIDE_FILES[key]
        if _rejected(what, files[key], inputs[key], parse, options):
            return 1
        if key == "previous" and parse is not None:
            side["previous"] = parse(inputs["previous"], options)
    series = []
    for name in series_paths:
        earlier, rc = _read(name, limit)
        if earlier is None:
            return rc
        if _rejected("--series capture", name, earlier,
                     FORMATS[fmt][0] if fmt in ("v1", "v2-query") else None, options):
            return 1
        series.append(earlier)
    if fmt in ("v1", "v2-query"):
        # A rate pairs an earlier capture of one computer with a later one.
        if "previous" in inputs and not _earlier_fits(fmt, "--rate", files["previous"],
                                                      inputs["previous"], path, data, options):
            return 1
        for k, name in enumerate(series_paths):
            last = k + 1 == len(series_paths)
            if not _earlier_fits(fmt, "--series", name, series[k],
                                 path if last else series_paths[k + 1],
                                 data if last else series[k + 1], options):
                return 1
    if pair_by not in (None, "unique-id", "pdh") and not _key_known(inputs, pair_by):
        return _fail("--pair-by \"%s\": no title of the --names or --english-names table has "
                     "that text: name a counter (e.g. \"ID Process\"), unique-id or pdh"
                     % pair_by)
    side["pair_by"] = pair_by
    if om["enabled"]:
        return _openmetrics_main(fmt, data, path, series, series_paths, inputs, files, options,
                                 counter_paths, om, limit)
    if fmt == "v1" and series_paths:
        side["series"] = [V1Capture(earlier, **options_v1(options)) for earlier in series]
    doc, err = document(data, path, fmt=fmt, options=options, side=side)
    sys.stdout.write(dumps(doc))
    sys.stdout.flush()
    if isinstance(err, _Unmatched):
        return 1
    if err is not None:
        sys.stderr.write("%s: %s%s\n" % (path, err, _sizes_compared(err)))
        return 1
    return 0
