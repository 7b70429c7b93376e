# SPDX-License-Identifier: MIT OR Apache-2.0
"""V2 formatted arrays against perfbuf-dump --rate --registration on the same
captures: tests/make_series.c writes two Processor Information queries one
second apart and the counterset's registration (its "_Total" idle 2.5 s of
10 s); every counter of every instance must format to what perfbuf-dump shows."""
import json
import os
import subprocess

import pytest

import perfbuf
from perfbuf import _native as N
from conftest import REPO


@pytest.fixture(scope="module")
def series(tmp_path_factory):
    out = tmp_path_factory.mktemp("series")
    exe = out / "make_series"
    # Linked against the library the package loaded; the wheel holds it under
    # one name, so the soname the link records is given beside it.
    libdir = out / "lib"
    libdir.mkdir()
    lib = libdir / "libperfbuf.so"
    lib.symlink_to(os.path.realpath(N.lib._name))
    (libdir / "libperfbuf.so.0").symlink_to(os.path.realpath(N.lib._name))
    tests = REPO / "tests"
    subprocess.run(["cc", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-I", str(REPO / "include"),
                    "-I", str(tests), str(tests / "make_series.c"), str(tests / "builder.c"),
                    str(tests / "builder_v1.c"), str(tests / "builder_v2meta.c"), str(lib),
                    "-Wl,-rpath," + str(libdir), "-o", str(exe)], check=True)
    subprocess.run([str(exe), str(out)], check=True)
    return out


def test_v2_formatted_arrays_equal_perfbuf_dump(dump_tool, series):
    q0, q1, reg = (series / n for n in ("v2-q0.bin", "v2-q1.bin", "v2-reginfo.bin"))
    doc = json.loads(subprocess.run(
        [str(dump_tool), "--json", "--rate", str(q0), "--registration", str(reg), str(q1)],
        check=True, capture_output=True).stdout)
    newer = perfbuf.parse_v2_query(q1.read_bytes())
    older = perfbuf.parse_v2_query(q0.read_bytes())
    registration = perfbuf.parse_v2_registration(reg.read_bytes())
    assert registration.counterset == "{b4fc721a-0378-476f-89ba-a5a79f810b36}"
    compared = 0
    for block in doc["blocks"]:
        for inst in block.get("instances", []):
            for value in inst["values"]:
                if "formatted" not in value:
                    continue
                got = perfbuf.v2_formatted_array(newer, older, registration,
                                                 value["counter_id"], block["position"])
                number, status = got[inst["name"]]
                shown = "%.6f" % number if status == 0 else perfbuf.cstatus_name(status)
                assert shown == value["formatted"], (inst["name"], value["counter_id"])
                compared += 1
    assert compared > 20
    total = perfbuf.v2_formatted_array(newer, older, registration, 0, 0,
                                       path=r"\Processor Information(_Total)\% Processor Time")
    assert total == {"_Total": (75.0, 0)}
