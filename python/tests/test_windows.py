# SPDX-License-Identifier: MIT OR Apache-2.0
"""The package on Windows: the mingw-w64 build of the library exports every
function the package binds and needs only system DLLs, and the struct
mirrors have the layout the mingw compiler gives (checked under Wine).
PERFBUF_WINDOWS_DLL names that build's libperfbuf.dll; ci/python.sh builds it."""
import ctypes
import os
import re
import shutil
import subprocess

import pytest

from perfbuf import _native as N
import test_layout

DLL = os.environ.get("PERFBUF_WINDOWS_DLL")
pytestmark = pytest.mark.skipif(not DLL, reason="PERFBUF_WINDOWS_DLL is not set")
OBJDUMP = "x86_64-w64-mingw32-objdump"
CC = "x86_64-w64-mingw32-gcc"


def _bound_names():
    return sorted({f.__name__ for f in vars(N).values() if isinstance(f, ctypes._CFuncPtr)})


def test_the_dll_exports_what_the_package_binds():
    table = subprocess.run([OBJDUMP, "-p", DLL], check=True, capture_output=True,
                           text=True).stdout
    exports = set(re.findall(r"\]\s+(perfbuf_\w+)", table))
    names = _bound_names()
    assert len(names) > 40
    missing = [n for n in names if n not in exports]
    assert not missing, missing
    # ctypes loads it with nothing beside it: only Windows' own DLLs.
    imports = {d.lower() for d in re.findall(r"DLL Name: (\S+)", table)}
    assert imports <= {"kernel32.dll", "msvcrt.dll", "ucrtbase.dll"} | \
        {d for d in imports if d.startswith("api-ms-win-")}, imports


def test_mirrors_match_the_mingw_layout(tmp_path):
    if shutil.which("wine") is None or shutil.which(CC) is None:
        pytest.fail("the Windows layout check needs %s and wine" % CC)
    src = tmp_path / "layout.c"
    src.write_text(test_layout._program())
    exe = tmp_path / "layout.exe"
    subprocess.run([CC, "-std=c11", "-I", str(test_layout.REPO / "include"), str(src), "-o",
                    str(exe)], check=True)
    env = dict(os.environ, WINEDEBUG="-all")
    run = subprocess.run(["wine", str(exe)], check=True, capture_output=True, text=True,
                         env=env, timeout=300)
    c_layout = test_layout.parse_layout(run.stdout)
    py_layout = test_layout.python_layout()
    drift = ["%s: mingw %s, ctypes %s" % (k, c_layout[k], py_layout.get(k))
             for k in c_layout if c_layout[k] != py_layout.get(k)]
    assert not drift, "\n".join(drift)
    assert set(c_layout) == set(py_layout)
