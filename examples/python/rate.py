# SPDX-License-Identifier: MIT OR Apache-2.0
"""The README's first answer from Python: % Processor Time of every
processor between the two bundled synthetic captures, through perfbuf.Query
(the C query, include/perfbuf/query.h), printed as typeperf names a counter:

    python rate.py [FOLDER]   (default: corpus/captures/synthetic)
"""
import pathlib
import sys

import perfbuf

folder = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "corpus/captures/synthetic")
query = perfbuf.Query((folder / "v1-names-synthetic-counter-009.bin").read_bytes())
cpu = query.add(r"\Processor(*)\% Processor Time")
for k in (0, 1):  # the older capture first, as a collector reads them
    query.collect((folder / ("v1-synthetic-processor-%d.bin" % k)).read_bytes())
for item in cpu.formatted():
    value = "%.6f" % item.value if item.status == "valid-data" else item.status
    print("\\Processor(" + item.name + ")\\% Processor Time", value)
