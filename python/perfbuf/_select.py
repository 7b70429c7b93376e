# SPDX-License-Identifier: MIT OR Apache-2.0
"""--counter PATH for python -m perfbuf: which V1 objects, counters and
instances a dump shows, decided as perfbuf-dump decides it. Objects and
counters are matched by name through the Counter tables (English or
localized, perfbuf_title_matches); the counter block and the instances are
those the library's query (perfbuf.Query) selects in the dumped capture, and
what each path found is the query's answer, so a path's parent, name and #N
mean what they mean in the query's arrays."""
import ctypes

from . import _native as N
from . import OK, CounterPath, PerfbufError

PATH_COUNTER_WILDCARD = 0x80
_NO_INSTANCE = 0xFFFFFFFF
# PERFBUF_QUERY_FOUND_* (query.h) that the stderr lines tell apart
_FOUND_EMPTY_OBJECT, _FOUND_NO_INSTANCE, _FOUND_UNNAMED = 2, 3, 4
_FOUND_NO_COUNTER, _FOUND_NO_OBJECT = 5, 6


class TitleTables:
    """perfbuf_title_tables over the --names (localized) and
    --english-names tables, each with its index."""

    def __init__(self, localized=None, english=None):
        self._keep = []
        self.c = N.TitleTables()
        for table, field in ((localized, "localized"), (english, "english")):
            if table is None:
                continue
            slots = (N.NameSlot * max(table.count, 1))()
            index = N.NameIndex()
            if N.names_index_build(ctypes.byref(table._table), slots, table.count,
                                   ctypes.byref(index)) != OK:
                continue
            self._keep += [table, slots, index]
            setattr(self.c, field, ctypes.pointer(table._table))
            setattr(self.c, field + "_index", ctypes.pointer(index))

    def matches(self, title_index, text):
        return N.title_matches(ctypes.byref(self.c), title_index, text, len(text)) != 0


class _Path:
    def __init__(self, text):
        self.path = CounterPath(text)
        self.text = self.path.text
        raw = self.path._raw.raw
        c = self.path._c
        self.object = raw[c.object.offset:c.object.offset + c.object.length]
        self.counter = raw[c.counter.offset:c.counter.offset + c.counter.length]
        self.flags = c.flags
        self.index = c.index


class Selection:
    """The --counter paths of one dump and what each found."""

    def __init__(self, paths, tables, capture, english=None, localized=None, options=None):
        """tables: TitleTables; capture: the dumped V1Capture; english and
        localized: the Counter tables' NameTable views the query opens on;
        options: the dump's strict and limits, which the query parses with."""
        from ._query import Query
        self.paths = [_Path(p) for p in paths]
        self.tables = tables
        n = len(self.paths)
        self.object_ok = [False] * n
        # A path the query could not take (no table to resolve it by) names
        # no object, as it names none here.
        self.found = [_FOUND_NO_OBJECT] * n
        self.items = set()  # (object position, instance position or _NO_INSTANCE)
        options = options or {}
        first = english if english is not None else localized
        second = localized if english is not None else None
        if first is None:
            return
        try:
            query = Query(first._buffer.obj, second._buffer.obj if second is not None else None,
                          strict=options.get("strict", False),
                          max_sections=options.get("max_sections", 0),
                          max_counters=options.get("max_counters", 0),
                          max_instances=options.get("max_instances", 0))
        except PerfbufError:
            return
        counters = []
        for path in self.paths:
            try:
                counters.append(query.add(path.text))
            except PerfbufError:
                counters.append(None)
        try:
            query.collect(capture._buffer.obj)
        except PerfbufError:
            return
        for p, counter in enumerate(counters):
            if counter is None:
                continue
            self.found[p] = counter._c.found
            try:
                items = counter.formatted()
            except PerfbufError:
                continue  # NOT_FOUND: `found` says why
            for it in items:
                self.items.add((it.object, _NO_INSTANCE if it.position is None
                                else it.position))

    def select_object(self, o):
        any_ = False
        for p, path in enumerate(self.paths):
            ok = self.tables.matches(o.name_title_index, path.object)
            self.object_ok[p] = ok
            any_ = any_ or ok
        return any_

    def keep_counters(self, counters):
        """The displayable counters some path names, in definition order."""
        kept = []
        for c in counters:
            if not N.counter_type_is_displayable(c.type):
                continue
            if any(self.object_ok[p] and (bool(path.flags & PATH_COUNTER_WILDCARD) or
                                          self.tables.matches(c.name_title_index, path.counter))
                   for p, path in enumerate(self.paths)):
                kept.append(c)
        return kept

    def block_selected(self, object_position):
        return (object_position, _NO_INSTANCE) in self.items

    def instance(self, object_position, position):
        return (object_position, position) in self.items

    def unmatched(self, file):
        """The lines perfbuf-dump writes for paths that matched nothing, and
        whether one failed the run."""
        lines, failed = [], False
        missing_of = {_FOUND_NO_OBJECT: "no object of that name",
                      _FOUND_NO_COUNTER: "no counter of that name in the object",
                      _FOUND_NO_INSTANCE: "no instance of that name",
                      _FOUND_UNNAMED: "the object has instances and the path names none"}
        for p, path in enumerate(self.paths):
            text = path.text.encode("utf-8")[:4096].decode("utf-8", "replace")
            if self.found[p] == _FOUND_EMPTY_OBJECT:
                lines.append("%s: --counter %s: the object has no instances; only the header "
                             "is shown" % (file, text))
            elif self.found[p] in missing_of:
                lines.append("%s: --counter %s: %s" % (file, text, missing_of[self.found[p]]))
                failed = True
        return lines, failed
