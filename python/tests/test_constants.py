# SPDX-License-Identifier: MIT OR Apache-2.0
"""The package's copies of the headers' constants are the headers' values:
anomaly bits, counter statuses and perfbuf-dump's words for them, flags."""
import re

import perfbuf
from conftest import REPO

INCLUDE = REPO / "include" / "perfbuf"


def _defines(header):
    text = (INCLUDE / header).read_text()
    return {m.group(1): int(m.group(2), 0) for m in re.finditer(
        r"#define PERFBUF_(\w+)\s+\(?(0x[0-9A-Fa-f]+|\d+)u?\)?", text)}


def test_anomaly_bits_and_words():
    common = _defines("common.h")
    want = sorted((v, k[len("ANOMALY_"):].lower().replace("_", "-"))
                  for k, v in common.items() if k.startswith("ANOMALY_"))
    assert sorted(perfbuf.ANOMALIES) == want
    assert perfbuf.STRICT == common["STRICT"]


def test_counter_statuses_and_their_words():
    values = _defines("values.h")
    rows = re.findall(r'PERFBUF_CSTATUS_ROW\((\w+), "([^"]+)"',
                      (INCLUDE / "cstatus.def").read_text())
    want = {values[name]: token for name, token in rows}
    assert perfbuf.CSTATUS == want


def test_format_and_path_flags():
    values = _defines("values.h")
    for name in ("FMT_LONG", "FMT_DOUBLE", "FMT_LARGE", "FMT_NOSCALE", "FMT_1000",
                 "FMT_NOCAP100"):
        assert getattr(perfbuf, name) == values[name], name
    paths = _defines("paths.h")
    for name in ("PATH_HAS_MACHINE", "PATH_HAS_INSTANCE", "PATH_HAS_PARENT", "PATH_HAS_INDEX"):
        assert getattr(perfbuf, name) == paths[name], name


def test_status_names_are_the_error_table():
    rows = re.findall(r"^PERFBUF_ERROR\((\w+),", (INCLUDE / "errors.def").read_text(), re.M)
    assert perfbuf.STATUS_NAMES == ["PERFBUF_E_" + r for r in rows]


def test_compact_codes_are_the_headers():
    values = _defines("values.h")
    codes = {k[len("COMPACT_"):]: v for k, v in values.items()
             if k.startswith("COMPACT_") and k != "COMPACT_COUNT"}
    assert len(perfbuf.COMPACT) == values["COMPACT_COUNT"] == len(codes)
    for name, code in codes.items():
        status = name if name.startswith("PDH_") else (
            "PDH_" + name if name.startswith("CALC_") else "CSTATUS_" + name)
        assert perfbuf.COMPACT[code] == values[status], name
