# SPDX-License-Identifier: MIT OR Apache-2.0
"""Where the tests find the repository, perfbuf-dump and the library.

PERFBUF_SOURCE  the repository (default: the folder above python/)
PERFBUF_DUMP    perfbuf-dump built from the same sources (default:
                build/shared/tools/perfbuf-dump in the repository)
PERFBUF_LIBRARY the library the package loads (default: the one installed
                with it)
"""
import os
import pathlib

import pytest

REPO = pathlib.Path(os.environ.get("PERFBUF_SOURCE",
                                   pathlib.Path(__file__).resolve().parents[2]))
DUMP = pathlib.Path(os.environ.get("PERFBUF_DUMP", REPO / "build/shared/tools/perfbuf-dump"))
CAPTURES = REPO / "corpus" / "captures"


def corpus_files(*folders):
    out = []
    for folder in folders:
        for p in sorted((REPO / "corpus").glob(folder)):
            if p.is_file() and p.suffix != ".md":
                out.append(p)
    return out


CAPTURE_FILES = corpus_files("captures/*/*.bin")
FUZZ_FILES = corpus_files("fuzz_*/*")


@pytest.fixture(scope="session")
def dump_tool():
    if not DUMP.is_file():
        pytest.fail("perfbuf-dump not found at %s (set PERFBUF_DUMP)" % DUMP)
    return DUMP


def read(name):
    return (CAPTURES / name).read_bytes()
