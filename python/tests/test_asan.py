# SPDX-License-Identifier: MIT OR Apache-2.0
"""The fuzz corpora and mutations of them through the package with the
library built under AddressSanitizer and UBSan (its runtime preloaded into
Python): no report. PERFBUF_ASAN_LIBRARY names that build's libperfbuf.so;
ci/python.sh builds it. The run is capped at PERFBUF_ASAN_SECONDS (60)."""
import os
import pathlib
import subprocess
import sys

import pytest

from conftest import CAPTURE_FILES, FUZZ_FILES

HERE = pathlib.Path(__file__).resolve().parent


def test_fuzz_corpora_under_asan():
    lib = os.environ.get("PERFBUF_ASAN_LIBRARY")
    if not lib:
        pytest.skip("PERFBUF_ASAN_LIBRARY is not set (ci/python.sh sets it)")
    runtime = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True,
                             text=True, check=True).stdout.strip()
    assert os.path.isabs(runtime), "gcc has no libasan.so"
    env = dict(os.environ, PERFBUF_LIBRARY=lib, LD_PRELOAD=runtime,
               ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:exitcode=86",
               UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=87",
               PYTHONPATH=os.pathsep.join([str(HERE)] + sys.path))
    seconds = os.environ.get("PERFBUF_ASAN_SECONDS", "60")
    p = subprocess.run([sys.executable, str(HERE / "exercise.py"), seconds]
                       + [str(f) for f in CAPTURE_FILES + FUZZ_FILES],
                       capture_output=True, text=True, env=env, timeout=600)
    print(p.stdout)
    assert p.returncode == 0, p.stderr[-4000:]
    assert "runtime error" not in p.stderr and "AddressSanitizer" not in p.stderr, p.stderr
    assert "exercised" in p.stdout
