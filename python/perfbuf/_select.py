# SPDX-License-Identifier: MIT OR Apache-2.0
"""--counter PATH for python -m perfbuf: which V1 objects, counters and
instances a dump shows, decided as perfbuf-dump decides it. Objects and
counters are matched by name through the Counter tables (English or
localized, perfbuf_title_matches); instances by parent, name and #N, the
position among the instances of the same parent/name (ASCII case folded, as
the query numbers them) that some path could select
(perfbuf_path_instance_matches)."""
import ctypes

from . import _native as N
from . import (OK, E_OUTPUT_TOO_SMALL, CounterPath, PATH_HAS_INDEX, PATH_HAS_INSTANCE,
               PATH_HAS_PARENT)

PATH_INSTANCE_WILDCARD = 0x10
PATH_COUNTER_WILDCARD = 0x80
# The longest parent/name kept, in bytes, as perfbuf-dump keeps it.
NAME_MAX_BYTES = 4095


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

    def instance_matches(self, parent, name, ordinal):
        return N.path_instance_matches(ctypes.byref(self.path._c), parent, len(parent), name,
                                       len(name), ordinal)


class Selection:
    """The --counter paths of one dump and what each found."""

    def __init__(self, paths, tables):
        self.paths = [_Path(p) for p in paths]
        self.tables = tables
        n = len(self.paths)
        self.object_ok = [False] * n
        self.used = [False] * n
        self.counter_found = [False] * n
        self.instance_found = [False] * n
        self.empty_found = [False] * n
        self.names = None  # (parent, name, ordinal) of selectable instances, by position

    def select_object(self, o):
        any_ = False
        for p, path in enumerate(self.paths):
            ok = self.tables.matches(o.name_title_index, path.object)
            self.object_ok[p] = ok
            any_ = any_ or ok
            if ok:
                self.used[p] = True
                has_instance = bool(path.flags & PATH_HAS_INSTANCE)
                # PERF_NO_INSTANCES (-1): the one counter block is what a
                # path without an instance names.
                if not has_instance and o.num_instances < 0:
                    self.instance_found[p] = True
                if has_instance and o.num_instances == 0:
                    self.empty_found[p] = True
        return any_

    def _counter_by(self, p, c):
        path = self.paths[p]
        if not self.object_ok[p] or not N.counter_type_is_displayable(c.type):
            return False
        found = bool(path.flags & PATH_COUNTER_WILDCARD) or \
            self.tables.matches(c.name_title_index, path.counter)
        if found:
            self.counter_found[p] = True
        return found

    def keep_counters(self, counters):
        """The counters some path names, in definition order (every path is
        asked, so each records whether it found one)."""
        kept = []
        for c in counters:
            found = False
            for p in range(len(self.paths)):
                found = self._counter_by(p, c) or found
            if found:
                kept.append(c)
        return kept

    def block_selected(self):
        return any(self.object_ok[p] and not path.flags & PATH_HAS_INSTANCE
                   for p, path in enumerate(self.paths))

    def _instance_by(self, p, i):
        if not self.object_ok[p] or i >= len(self.names) or self.names[i] is None:
            return False
        parent, name, ordinal = self.names[i]
        return self.paths[p].instance_matches(parent, name, ordinal)

    def instance(self, i):
        return any(self._instance_by(p, i) for p in range(len(self.paths)))

    def collect_instances(self, capture, o):
        """Names the instances of o that some path could select and numbers
        them among those of the same parent/name; then records which paths
        select one."""
        block = ctypes.byref(capture._block)
        parents = capture._parents()
        parent_text = {}  # a parent's offset -> (UTF-8 bytes, cut), converted once
        rows = []
        for inst in o.instances:
            parent = _named_parent(block, o, inst, parents)
            if parent is None:
                rows.append((b"", False, False, inst))
                continue
            if parent.offset not in parent_text:
                parent_text[parent.offset] = _name_cut(block, parent)
            text, cut = parent_text[parent.offset]
            rows.append((text, cut, True, inst))
        names = []
        for parent, cut, has_parent, inst in rows:
            st, own = _name_whole(block, inst._c)
            own = own if st == OK else b""
            # A parent/name longer than kept is matched by its parent alone.
            if cut or (len(parent) + 1 if has_parent else 0) + len(own) > NAME_MAX_BYTES:
                own = b""
            names.append((parent, own) if self._could_select(parent, own) else None)
        # #N counts among equal parent and name with ASCII letters folded,
        # as the query's keys compare them; bytes.lower folds A-Z alone.
        ordinals = {}
        self.names = []
        for key in names:
            if key is None:
                self.names.append(None)
                continue
            folded = (key[0].lower(), key[1].lower())
            self.names.append(key + (ordinals.get(folded, 0),))
            ordinals[folded] = ordinals.get(folded, 0) + 1
        for p in range(len(self.paths)):
            for i in range(len(self.names)):
                if not self.object_ok[p] or self.instance_found[p]:
                    break
                self.instance_found[p] = self._instance_by(p, i)

    def _could_select(self, parent, own):
        for p, path in enumerate(self.paths):
            if not self.object_ok[p] or not path.flags & PATH_HAS_INSTANCE:
                continue
            any_index = path.index if path.flags & PATH_HAS_INDEX else 0
            if path.instance_matches(parent, own, any_index):
                return True
        return False

    def unmatched(self, file):
        """The lines perfbuf-dump writes for paths that matched nothing, and
        whether one failed the run."""
        lines, failed = [], False
        for p, path in enumerate(self.paths):
            has_instance = bool(path.flags & PATH_HAS_INSTANCE)
            wildcard = bool(path.flags & PATH_INSTANCE_WILDCARD) and \
                not path.flags & PATH_HAS_PARENT
            text = path.text.encode("utf-8")[:4096].decode("utf-8", "replace")
            missing = None
            if not self.used[p]:
                missing = "no object of that name"
            elif not self.counter_found[p]:
                missing = "no counter of that name in the object"
            elif not self.instance_found[p] and self.empty_found[p] and wildcard:
                lines.append("%s: --counter %s: the object has no instances; only the header "
                             "is shown" % (file, text))
                continue
            elif not self.instance_found[p]:
                missing = ("no instance of that name" if has_instance
                           else "the object has instances and the path names none")
            if missing is not None:
                lines.append("%s: --counter %s: %s" % (file, text, missing))
                failed = True
        return lines, failed


def _named_parent(block, o, inst, parents):
    """inst's parent when it names one whose name converts, else None."""
    if inst.parent_title_index == 0:
        return None
    parent = N.V1Instance()
    if N.v1_parent(block, ctypes.byref(o._c), ctypes.byref(inst._c), parents,
                   ctypes.byref(parent), None) != OK:
        return None
    if parent.code_page != 0 and not N.codepage_supported(parent.code_page):
        return None
    return parent


def _name_cut(block, inst):
    """(UTF-8 of the name, at most NAME_MAX_BYTES of it, cut or not)."""
    length = ctypes.c_size_t(0)
    out = ctypes.create_string_buffer(NAME_MAX_BYTES + 1)
    st = N.v1_instance_name_utf8(block, ctypes.byref(inst), out, NAME_MAX_BYTES + 1,
                                 ctypes.byref(length))
    cut = st == E_OUTPUT_TOO_SMALL
    return (out.value if st == OK or cut else b""), cut


def _name_whole(block, inst):
    length = ctypes.c_size_t(0)
    cap = 256
    out = ctypes.create_string_buffer(cap)
    st = N.v1_instance_name_utf8(block, ctypes.byref(inst), out, cap, ctypes.byref(length))
    if st == E_OUTPUT_TOO_SMALL:
        out = ctypes.create_string_buffer(length.value + 1)
        st = N.v1_instance_name_utf8(block, ctypes.byref(inst), out, length.value + 1,
                                     ctypes.byref(length))
    return st, out.value
