# SPDX-License-Identifier: MIT OR Apache-2.0
"""The ctypes mirrors have the size and field offsets of the C structs.

A C program compiled against include/ prints sizeof, alignment and offsetof
of every mirrored struct and field; a header that gains, loses or moves a
field fails here, naming the struct and field, before it can make the
package read the wrong bytes.
"""
import ctypes
import os
import shutil
import subprocess

import pytest

from perfbuf import _native as N
from conftest import REPO

HEADERS = ["common.h", "values.h", "v1.h", "names.h", "v2_query.h", "v2_meta.h", "paths.h",
           "collector.h", "resolve.h", "query.h", "openmetrics.h"]


def _program():
    lines = ["#include <stddef.h>", "#include <stdio.h>"]
    lines += ['#include "perfbuf/%s"' % h for h in HEADERS]
    lines.append("int main(void) {")
    for mirror in N.MIRRORS:
        t = mirror.__name__
        lines.append('printf("%s %%zu %%zu\\n", sizeof(%s), _Alignof(%s));' % (t, t, t))
        for field, _ in mirror._fields_:
            lines.append('printf("%s.%s %%zu %%zu\\n", offsetof(%s, %s), sizeof(((%s *)0)->%s));'
                         % (t, field, t, field, t, field))
    lines += ["return 0;", "}"]
    return "\n".join(lines) + "\n"


def python_layout():
    out = {}
    for mirror in N.MIRRORS:
        out[mirror.__name__] = (ctypes.sizeof(mirror), ctypes.alignment(mirror))
        for field, ftype in mirror._fields_:
            out["%s.%s" % (mirror.__name__, field)] = (getattr(mirror, field).offset,
                                                       ctypes.sizeof(ftype))
    return out


def parse_layout(text):
    out = {}
    for line in text.splitlines():
        name, a, b = line.split()
        out[name] = (int(a), int(b))
    return out


def test_mirrors_match_the_headers(tmp_path):
    cc = os.environ.get("CC", "cc")
    if shutil.which(cc) is None:
        pytest.fail("no C compiler (%s) to check the mirrors with" % cc)
    src = tmp_path / "layout.c"
    src.write_text(_program())
    exe = tmp_path / "layout"
    subprocess.run([cc, "-std=c11", "-I", str(REPO / "include"), str(src), "-o", str(exe)],
                   check=True)
    c_layout = parse_layout(subprocess.run([str(exe)], check=True, capture_output=True,
                                           text=True).stdout)
    py_layout = python_layout()
    drift = ["%s: C %s, ctypes %s" % (k, c_layout[k], py_layout[k])
             for k in c_layout if c_layout[k] != py_layout[k]]
    assert not drift, "ctypes mirrors differ from include/perfbuf:\n" + "\n".join(drift)
    assert set(c_layout) == set(py_layout)
