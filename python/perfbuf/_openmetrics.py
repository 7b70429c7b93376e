# SPDX-License-Identifier: MIT OR Apache-2.0
"""Captures as OpenMetrics text (docs/prometheus.md), the bytes
perfbuf-dump --openmetrics writes.

    text = perfbuf.openmetrics([older, newer], names=english_table)

Each capture is collected by a perfbuf.Query, with a counter of every
definition (V1) or of every registered counter (V2); each exported counter
of each instance becomes a point (its metric, its series, its capture),
and the points are written family by family, series by series, in time
order. Everything the text is made of comes from the library
(perfbuf/openmetrics.h: the mapping, names, escapes, numbers, times), and
the order from the same steps as tools/dump/openmetrics.c.
"""
import ctypes

from . import _native as N

OK = 0
_TOO_SMALL = None  # set on first use: the package's E_OUTPUT_TOO_SMALL
_NO_INSTANCE = 0xFFFFFFFF
_UNPAIRED = 4           # PERFBUF_PAIR_UNPAIRED
_NO_UNIQUE_ID = -1      # PERF_NO_UNIQUE_ID
_FOUND_NO_OBJECT = 6    # PERFBUF_QUERY_FOUND_NO_OBJECT
_FAILING_FOUND = {"no-object", "no-counter", "no-instance", "unnamed"}
_KINDS = {1: "gauge", 2: "counter", 3: "summary"}
_V2_INSTANCE_KINDS = {4, 6}  # PERFBUF_V2_MULTIPLE_INSTANCES, PERFBUF_V2_COUNTERSET
NUMBER_MAX = 48
PARENT_MAX_BYTES = 3 * 1024  # PERFBUF_ARRAY_PARENT_MAX_BYTES: 3 x PERFBUF_PATH_MAX_INSTANCE


class OpenMetricsError(Exception):
    """Captures that make no series: a time that is not a valid SYSTEMTIME,
    or times that do not increase (`status` 1), or arguments that do not go
    together (`status` 2), as perfbuf-dump exits."""

    def __init__(self, message, status, rejection=None):
        super().__init__(message)
        self.status = status
        self.rejection = rejection  # the PerfbufError of a rejected capture


def _too_small():
    from . import E_OUTPUT_TOO_SMALL
    return E_OUTPUT_TOO_SMALL


def _call_text(fn, *args):
    """(status, bytes) of a call that writes text, sized by a first call
    with room for the NUL alone, as perfbuf-dump sizes it."""
    length = ctypes.c_size_t(0)
    probe = ctypes.create_string_buffer(1)
    st = fn(*args, probe, 1, ctypes.byref(length))
    if st == OK:
        return st, b""
    if st != _too_small():
        return st, None
    out = ctypes.create_string_buffer(length.value + 1)
    got = ctypes.c_size_t(0)
    st = fn(*args, out, length.value + 1, ctypes.byref(got))
    if st != OK or got.value > length.value:
        return st if st != OK else _too_small(), None
    return OK, out.raw[:got.value]


def mapping(counter_type):
    """The mapping of a counter type (perfbuf_openmetrics_map) as a dict:
    `families` (each with suffix, kind, unit, role and samples, each sample
    with suffix, source and conversion), `promql` (the template, "" when not
    exported) and `reason` (why not, "" when exported)."""
    m = N.OpenMetricsMapping()
    N.openmetrics_map(counter_type, ctypes.byref(m))
    families = []
    for k in range(m.family_count):
        f = m.families[k]
        families.append({
            "suffix": f.suffix.decode(), "kind": _KINDS[f.kind], "unit": f.unit.decode(),
            "role": f.role.decode(),
            "samples": [{"suffix": f.samples[j].suffix.decode(), "source": f.samples[j].source,
                         "conversion": f.samples[j].conversion}
                        for j in range(f.sample_count)]})
    return {"type": counter_type, "families": families, "promql": m.promql.decode(),
            "reason": m.reason.decode()}


def promql(counter_type, name, range_, scale=0):
    """The PromQL expression that gives PDH's value of a counter of that
    type whose metric name is `name`, over `range_` (a PromQL duration a
    little longer than the time between two captures), times 10^scale
    (perfbuf_openmetrics_promql). Raises PerfbufError for a type that is
    not exported, a name or range the expression cannot take."""
    from . import PerfbufError
    m = N.OpenMetricsMapping()
    N.openmetrics_map(counter_type, ctypes.byref(m))
    n, r = name.encode(), range_.encode()
    st, text = _call_text(N.openmetrics_promql, ctypes.byref(m), n, len(n), r, len(r), scale)
    if st != OK:
        raise PerfbufError(st)
    return text.decode()


def metric_name(prefix, object_name, object_index, counter_name, counter_index):
    """A counter's metric name before collisions (perfbuf_openmetrics_name)."""
    from . import PerfbufError
    p = prefix.encode()
    o = object_name.encode() if object_name is not None else None
    c = counter_name.encode() if counter_name is not None else None
    st, text = _call_text(N.openmetrics_name, p, len(p), o, len(o) if o else 0, object_index,
                          c, len(c) if c else 0, counter_index)
    if st != OK:
        raise PerfbufError(st)
    return text.decode()


def escape(text):
    """A label value or help text as OpenMetrics writes it (perfbuf_openmetrics_escape)."""
    raw = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else bytes(text)
    st, out = _call_text(N.openmetrics_escape, raw, len(raw))
    if st != OK:
        from . import PerfbufError
        raise PerfbufError(st)
    return out.decode()


def _number(sample, item, unix_ms):
    out = ctypes.create_string_buffer(NUMBER_MAX)
    length = ctypes.c_size_t(0)
    st = N.openmetrics_value(ctypes.byref(sample), ctypes.byref(item.newer),
                             ctypes.byref(item.context), unix_ms, out, NUMBER_MAX,
                             ctypes.byref(length))
    return out.raw[:length.value].decode() if st == OK else None


def _exported(m, item, unix_ms):
    return all(_number(m.families[k].samples[j], item, unix_ms) is not None
               for k in range(m.family_count) for j in range(m.families[k].sample_count))


def _time(filetime, file):
    ms = ctypes.c_int64(0)
    out = ctypes.create_string_buffer(NUMBER_MAX)
    length = ctypes.c_size_t(0)
    st = N.openmetrics_time(filetime, ctypes.byref(ms), out, NUMBER_MAX, ctypes.byref(length))
    if st != OK:
        raise OpenMetricsError("%s: its PerfTime100nSec is not a time: its samples have no "
                               "timestamp" % file, 1)
    return ms.value, out.raw[:length.value].decode()


class _Counter:
    __slots__ = ("key", "map", "name", "help")


class _Writer:
    """The points of every capture, then the text: tools/dump/openmetrics.c's steps."""

    def __init__(self, prefix, timestamps):
        self.prefix = prefix
        self.timestamps = timestamps
        self.counters = []
        self.counter_ids = {}
        self.series = []
        self.series_ids = {}
        self.points = []
        self.captures = []    # (items, unix_ms, time text)
        self.taken = set()
        self.next_suffix = {}

    @staticmethod
    def _names(m, base):
        """Every name a counter's families take: each family's, its samples'
        and, for counters and summaries, "_created"."""
        out = []
        for k in range(m.family_count):
            f = m.families[k]
            family = base + f.suffix.decode()
            out.append(family)
            more = [f.samples[0].suffix.decode(),
                    f.samples[1].suffix.decode() if f.sample_count > 1 else "",
                    "" if f.kind == 1 else "_created"]
            out.extend(family + s for s in more if s)
        return out

    def _unique(self, m, base):
        names = self._names(m, base)
        candidate = base
        if any(n in self.taken for n in names):
            nxt = self.next_suffix.setdefault(base, 2)
            while True:
                candidate = "%s_%d" % (base, nxt)
                nxt += 1
                names = self._names(m, candidate)
                if not any(n in self.taken for n in names):
                    break
            self.next_suffix[base] = nxt
        self.taken.update(names)
        return candidate

    def counter(self, key, m, object_name, object_ref, counter_name, help_text):
        """The counter of that key: (object title, counter title, occurrence,
        type, scale), found, or made and named now."""
        found = self.counter_ids.get(key)
        if found is not None:
            return found
        c = _Counter()
        c.key, c.map = key, m
        base = metric_name(self.prefix, object_name, key[0], counter_name, key[1])
        c.name = self._unique(m, base)
        text = "\\%s\\%s (%s)" % (object_name if object_name is not None else object_ref,
                                  counter_name if counter_name is not None else key[1],
                                  N.counter_type_name(key[3]).decode())
        if help_text is not None:
            text += ": " + help_text
        # A single quote for a double one: help text both OpenMetrics and
        # the Prometheus text format read (docs/prometheus.md, "Help").
        c.help = text.replace('"', "'")
        self.counter_ids[key] = len(self.counters)
        self.counters.append(c)
        return len(self.counters) - 1

    def series_of(self, counter, labels):
        key = (counter, labels)
        found = self.series_ids.get(key)
        if found is None:
            found = self.series_ids[key] = len(self.series)
            self.series.append(labels)
        return found

    def point(self, counter, series, capture, item):
        self.points.append((counter, series, capture, len(self.points), item))

    def text(self):
        out = []
        points = sorted(self.points, key=lambda p: p[:4])
        kept = []
        for p in points:
            if kept and kept[-1][1] == p[1] and kept[-1][2] == p[2]:
                continue
            kept.append(p)
        i = 0
        while i < len(kept):
            cid = kept[i][0]
            end = i
            while end < len(kept) and kept[end][0] == cid:
                end += 1
            c = self.counters[cid]
            for k in range(c.map.family_count):
                f = c.map.families[k]
                family = c.name + f.suffix.decode()
                fb = family.encode()
                unit = N.openmetrics_unit(ctypes.byref(f), fb, len(fb)).decode()
                out.append("# TYPE %s %s\n" % (family, _KINDS[f.kind]))
                if unit:
                    out.append("# UNIT %s %s\n" % (family, unit))
                out.append("# HELP %s %s%s\n" % (family, f.role.decode(), escape(c.help)))
                for p in kept[i:end]:
                    items, unix_ms, time_text = self.captures[p[2]]
                    for j in range(f.sample_count):
                        number = _number(f.samples[j], items[p[4]], unix_ms)
                        if number is None:
                            continue
                        line = "%s%s%s %s" % (family, f.samples[j].suffix.decode(),
                                              self.series[p[1]], number)
                        if self.timestamps:
                            line += " " + time_text
                        out.append(line + "\n")
            i = end
        out.append("# EOF\n")
        return "".join(out)


def _cut(parent):
    """A parent's name cut after its last whole character within
    PERFBUF_ARRAY_PARENT_MAX_BYTES, as the query's item names cut it."""
    raw = parent.encode("utf-8")
    if len(raw) <= PARENT_MAX_BYTES:
        return parent
    cut = PARENT_MAX_BYTES
    while cut > 0 and raw[cut] & 0xC0 == 0x80:
        cut -= 1
    return raw[:cut].decode("utf-8")


def _labels(pairs):
    if not pairs:
        return ""
    return "{" + ",".join('%s="%s"' % (k, escape(v)) for k, v in pairs) + "}"


def _titles(data, what, file, warn):
    """{title index: text} of a Counter or Help table, the first entry of an
    index; texts that do not convert are None. {} when absent or rejected."""
    from . import NameTable, PerfbufError
    from ._dump import _titles as titles_of
    if data is None:
        return {}
    try:
        table = NameTable(data)
    except PerfbufError as e:
        warn("the %s %s is rejected: %s" % (what, file, e))
        return {}
    return titles_of(table)


def _title(titles, index):
    return titles.get(index) if index != 0 else None


def _v1_capture(w, k, data, file, query, every, paths, names, help_titles, options, last,
                unmatched, warn):
    from . import V1Capture
    cap = V1Capture(data, **options)
    query.collect(data)
    raw = every._raw_structs()
    items = [it for it, _ in raw]
    item_names = [name for _, name in raw]
    unix_ms, time_text = w.captures[k][1], w.captures[k][2]
    w.captures[k] = (items, unix_ms, time_text)
    selected = set()
    for path, counter in paths:
        if last:
            found = counter.found if counter is not None else "no-object"
            if found in _FAILING_FOUND:
                unmatched.append(path)
        if counter is None:
            continue
        for it, _ in counter._raw_structs():
            selected.add((it.object, it.position, it.counter))
    machine = cap.system_name or ""
    objects = cap.objects
    current_object = None
    current_instance = None
    first = 0
    labels = ""
    defs, occurrence, instances, object_name = [], [], [], None
    for i, item in enumerate(items):
        if item.pairing == _UNPAIRED or item.object >= len(objects):
            continue
        if item.object != current_object:
            current_object = item.object
            o = objects[current_object]
            defs = o.counters
            seen = {}
            occurrence = []
            for d in defs:
                occurrence.append(seen.get(d.name_title_index, 0))
                seen[d.name_title_index] = occurrence[-1] + 1
            instances = o.instances
            object_name = _title(names, o.name_title_index)
        where = (item.object, item.position)
        if where != current_instance:
            current_instance = where
            first = i
            pairs = [("machine", machine)] if machine else []
            if item.position < len(instances):
                inst = instances[item.position]
                own = inst.name
                # "parent/name" into room for the parent's part labels keep
                # and the name, as perfbuf-dump reads it: a longer parent is
                # cut by the call, at its cost, not the parent's length.
                full_st, full = (inst.full_name_status(
                    PARENT_MAX_BYTES + len(own.encode("utf-8")) + 8)
                    if own is not None else (None, None))
                named = full_st in (OK, _too_small())
                parent = None
                if full_st == _too_small():
                    parent = _cut(full)
                elif named and len(full) > len(own) + 1 and full.endswith("/" + own):
                    parent = _cut(full[:len(full) - len(own) - 1])
                if parent is not None:
                    pairs.append(("parent", parent))
                if inst.unique_id != _NO_UNIQUE_ID and named:
                    pairs.append(("instance_name", own if parent is None else parent + "/" + own))
                    pairs.append(("unique_id", str(inst.unique_id)))
                else:
                    pairs.append(("instance_name", item_names[i]))
            labels = _labels(pairs)
        d = i - first
        if d >= len(defs):
            continue
        definition = defs[d]
        m = N.OpenMetricsMapping()
        if N.openmetrics_map(definition.type, ctypes.byref(m)) != OK:
            continue
        if paths and (item.object, item.position, definition.name_title_index) not in selected:
            continue
        if not _exported(m, item, unix_ms):
            continue
        key = (objects[current_object].name_title_index, definition.name_title_index,
               occurrence[d], definition.type, definition.default_scale)
        counter = w.counter(key, m, object_name, str(key[0]),
                            _title(names, definition.name_title_index),
                            _title(help_titles, definition.help_title_index))
        w.point(counter, w.series_of(counter, labels), k, i)


def _v2_block_position(identifiers, reg_guid, options, warn):
    from . import PerfbufError
    if identifiers is None:
        return 0
    from ._v2meta import V2Identifiers
    try:
        ids = V2Identifiers(identifiers, **options)
    except PerfbufError:
        return 0
    for ident in ids:
        if ident.status == 0 and ident.counterset == reg_guid:
            return ident.block_position
    return 0


def _guid_text(guid_struct):
    out = ctypes.create_string_buffer(39)
    N.guid_format(ctypes.byref(guid_struct), out)
    return out.value.decode()


def _v2_open(captures, registration, counter_names, identifiers, options, origin, warn):
    """The query, its counters as (counter id, QueryCounter), the GUID text,
    the block position and {counter id: name}."""
    from . import PerfbufError, V2Query, V2Registration
    from ._query import Query
    from ._v2meta import V2Strings
    if registration is None:
        raise OpenMetricsError("--openmetrics of V2 query data needs --registration", 2)
    reg = V2Registration(registration, **options)
    guid = _guid_text(reg._reg.counterset)
    strings = None
    if counter_names is not None:
        try:
            strings = V2Strings(counter_names, origin=origin, **options)
        except PerfbufError as e:
            warn("the --counter-names file is rejected: %s" % e)
    names = {}
    for c in reg.counters:
        entry = strings.find(c.counter_id) if strings is not None else None
        text = None
        if entry is not None and entry.present:
            try:
                text = strings.text(entry)
            except PerfbufError:
                text = None
        names[c.counter_id] = text if text else None
    block = _v2_block_position(identifiers, guid, options, warn)
    query = Query.v2([{"reginfo": registration, "block": block}], **options)
    instances = True
    try:
        first = V2Query(captures[0], **options)
        for b in first.blocks():
            if b["position"] == block:
                instances = b["type"] in _V2_INSTANCE_KINDS
    except PerfbufError:
        pass
    counters = []
    for c in reg.counters:
        m = N.OpenMetricsMapping()
        if N.openmetrics_map(c.type, ctypes.byref(m)) != OK:
            continue
        path = "\\%s%s\\%d" % (guid, "(*)" if instances else "", c.counter_id)
        try:
            counters.append((c, query.add(path)))
        except PerfbufError:
            continue
    return query, counters, guid, block, names


def _v2_capture(w, k, data, file, query, counters, guid, block, names, options):
    from . import V2Query
    q = V2Query(data, **options)
    query.collect(data)
    instance_ids = []
    for b in q.blocks():
        if b["position"] == block and b["type"] in _V2_INSTANCE_KINDS:
            instance_ids = [inst["instance_id"] for inst in b["instances"]]
    items = []
    unix_ms, time_text = w.captures[k][1], w.captures[k][2]
    for c, qc in counters:
        raw = qc._raw_structs()
        base = len(items)
        items.extend(it for it, _ in raw)
        for j, (item, name) in enumerate(raw):
            m = N.OpenMetricsMapping()
            if N.openmetrics_map(c.type, ctypes.byref(m)) != OK or \
                    not _exported(m, item, unix_ms):
                continue
            key = (0, c.counter_id, 0, c.type, c.default_scale)
            counter = w.counter(key, m, guid, guid, names.get(c.counter_id), None)
            pairs = []
            if item.position != _NO_INSTANCE:
                pairs.append(("instance_name", name))
                if item.position < len(instance_ids):
                    pairs.append(("instance_id", str(instance_ids[item.position])))
            w.point(counter, w.series_of(counter, _labels(pairs)), k, base + j)
    w.captures[k] = (items, unix_ms, time_text)


def openmetrics(captures, names=None, english_names=None, help_names=None, prefix="windows",
                paths=(), timestamps=True, registration=None, counter_names=None,
                identifiers=None, files=None, strict=False, max_sections=0, max_counters=0,
                max_instances=0, origin="auto", warn=None, unmatched=None):
    """OpenMetrics text of captures (bytes, oldest first): V1 data blocks,
    or V2 query data with `registration`. `english_names` (else `names`)
    names the metrics, `help_names` gives help text, `paths` (V1 counter
    paths) selects counters and instances, `timestamps` False writes one
    capture without them. `unmatched`, a list, receives each path that
    matched nothing in the last capture; `warn` is called with what
    perfbuf-dump says on stderr. Raises OpenMetricsError when the captures
    make no series, PerfbufError when one is rejected."""
    from . import PerfbufError, V1Capture, V2Query
    from ._query import Query
    captures = [bytes(c) for c in captures]
    files = list(files) if files is not None else ["capture %d" % k
                                                   for k in range(len(captures))]
    warn = warn or (lambda text: None)
    unmatched = unmatched if unmatched is not None else []
    options = {"strict": strict, "max_sections": max_sections, "max_counters": max_counters,
               "max_instances": max_instances}
    if not captures:
        raise OpenMetricsError("no capture", 2)
    if not timestamps and len(captures) > 1:
        raise OpenMetricsError("--no-timestamps is for one capture: a series needs its times",
                               2)
    v1 = captures[-1][:8] == b"P\0E\0R\0F\0"
    if not v1 and paths:
        raise OpenMetricsError("--counter is for V1 data blocks", 2)
    w = _Writer(prefix, timestamps)
    for k, data in enumerate(captures):
        try:
            parsed = V1Capture(data, **options) if v1 else V2Query(data, **options)
        except PerfbufError as e:
            raise OpenMetricsError("%s: %s" % (files[k], e), 1, e) from None
        block = parsed._block if v1 else parsed._q
        unix_ms, text = _time(block.perf_time_100ns, files[k])
        if k > 0 and unix_ms <= w.captures[k - 1][1]:
            raise OpenMetricsError("%s: its PerfTime100nSec is not after %s's: a series' "
                                   "samples must be in time order" % (files[k], files[k - 1]), 1)
        w.captures.append((None, unix_ms, text))
    help_titles = _titles(help_names, "--help-names table", "", warn)
    if v1:
        if english_names is not None:
            titles = _titles(english_names, "--english-names table", "", warn)
        else:
            titles = _titles(names, "--names table", "", warn)
        first = english_names if english_names is not None else names
        second = names if english_names is not None else None
        query = None
        if first is not None:
            try:
                query = Query(first, second, **options)
            except PerfbufError:
                query = None
        opened = query is not None
        if query is None:
            query = Query(b"\0\0", **options)
        every = query.add_definitions()
        every.pair_by_unique_id()
        added = []
        for path in paths:
            counter = None
            if opened:
                try:
                    counter = query.add(path)
                except PerfbufError:
                    counter = None
            added.append((path, counter))
        for k, data in enumerate(captures):
            _v1_capture(w, k, data, files[k], query, every, added, titles, help_titles,
                        options, k + 1 == len(captures), unmatched, warn)
    else:
        query, counters, guid, block, v2names = _v2_open(
            captures, registration, counter_names, identifiers, options, origin, warn)
        for k, data in enumerate(captures):
            _v2_capture(w, k, data, files[k], query, counters, guid, block, v2names, options)
    return w.text()
