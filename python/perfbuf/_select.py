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
# perfbuf_counter_path flags and parts (paths.h)
_HAS_PARENT, _HAS_INDEX, _INSTANCE_PREFIX, _PARENT_WILDCARD = 0x04, 0x08, 0x20, 0x40
_PART_PARENT, _PART_INSTANCE = 2, 3
_NO_INSTANCE = 0xFFFFFFFF
# PERFBUF_QUERY_FOUND_* (query.h) that the stderr lines tell apart
_FOUND_EMPTY_OBJECT, _FOUND_NO_INSTANCE, _FOUND_UNNAMED = 2, 3, 4
_FOUND_NO_COUNTER, _FOUND_NO_OBJECT, _FOUND_NO_MACHINE, _FOUND_NO_PARENT = 5, 6, 7, 8


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
        self.spans = {part: (getattr(c, part).offset, getattr(c, part).length)
                      for part in ("machine", "object", "parent", "instance", "counter")}

    def names_parent(self):
        return bool(self.flags & _HAS_PARENT) and not self.flags & _PARENT_WILDCARD

    def matches(self, part, text):
        raw = text.encode("utf-8")
        return N.path_name_matches(ctypes.byref(self.path._c), part, raw, len(raw))


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
        self.capture = capture
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

    def _candidates(self, path):
        """(has_instances, [(parent matches, name)]) of the instances of every
        object the path's object part names, as perfbuf-dump lists them: each
        parent's name compared once, by the offsets of the instances whose
        name the parent part names."""
        cap = self.capture
        named = set()
        if path.names_parent():
            for o in cap.objects:
                for inst in o.instances:
                    name = inst.name
                    if name is not None and path.matches(_PART_PARENT, name):
                        named.add(inst.offset)
        index = cap._parents()
        has_instances, out = False, []
        for o in cap.objects:
            if not self.tables.matches(o.name_title_index, path.object):
                continue
            has_instances = has_instances or o.num_instances >= 0
            for inst in o.instances:
                parent_ok = not path.names_parent()
                if not parent_ok and index is not None:
                    parent = N.V1Instance()
                    parent_ok = (N.v1_parent(ctypes.byref(cap._block), ctypes.byref(o._c),
                                             ctypes.byref(inst._c), index, ctypes.byref(parent),
                                             None) == OK and parent.offset in named)
                name = inst.name
                if name is not None:
                    out.append((parent_ok, name))
        return has_instances, out

    def _miss(self, path, found):
        """(part, offset in the path, words) of a path that failed the run,
        or None: perfbuf-dump's select_report_paths."""
        if found == _FOUND_NO_OBJECT:
            return "Object", path.spans["object"][0], "no object of that name"
        if found == _FOUND_NO_COUNTER:
            return "Counter", path.spans["counter"][0], "no counter of that name in the object"
        if found == _FOUND_UNNAMED:
            return ("Instance", path.spans["object"][0] + path.spans["object"][1],
                    "the object has instances and the path names none")
        if found == _FOUND_NO_PARENT:
            return ("Parent", path.spans["parent"][0],
                    "no instance of the object has a parent of that name")
        if found == _FOUND_NO_MACHINE:
            return ("Machine", path.spans["machine"][0],
                    "the path names another computer than the capture's (its SystemName)")
        if found != _FOUND_NO_INSTANCE:
            return None
        at = path.spans["instance"][0]
        has_instances, candidates = self._candidates(path)
        if not has_instances:
            return ("Instance", at, "the object has no instances: it holds one counter block, "
                    "which a path names without \"(...)\"")
        parent_found = any(ok for ok, _ in candidates)
        name_found = any(ok and path.matches(_PART_INSTANCE, name) for ok, name in candidates)
        named_parent = path.names_parent()
        if named_parent and not parent_found:
            return ("Parent", path.spans["parent"][0],
                    "no instance of the object has a parent of that name")
        if not name_found and path.flags & _INSTANCE_PREFIX:
            return ("Instance", at,
                    "no instance under that parent has a name that starts with that prefix"
                    if named_parent else "no instance has a name that starts with that prefix")
        if not name_found:
            return ("Instance", at, "no instance of that name under that parent"
                    if named_parent else "no instance of that name")
        if not path.flags & _HAS_INDEX:
            return "Instance", at, "no instance of that name"
        return ("Index", at + path.spans["instance"][1],
                "no instance of that name has the index #%d" % path.index)

    def unmatched(self, file):
        """The lines perfbuf-dump writes for what each path found, and the
        first path that failed the run: (its text, part, offset, words), or
        None."""
        lines, first = [], None
        for p, path in enumerate(self.paths):
            text = path.text.encode("utf-8")[:4096].decode("utf-8", "replace")
            if self.found[p] == _FOUND_EMPTY_OBJECT:
                lines.append("%s: --counter %s: the object has no instances at this moment "
                             "(not an error)" % (file, text))
                continue
            miss = self._miss(path, self.found[p])
            if miss is not None:
                lines.append("%s: --counter %s: %s" % (file, text, miss[2]))
                if first is None:
                    first = (path.text,) + miss
        return lines, first
