# SPDX-License-Identifier: MIT OR Apache-2.0
"""python -m perfbuf writes what perfbuf-dump --json writes, byte for byte.

Over every capture of corpus/captures and every fuzz input of corpus/fuzz_*
that perfbuf-dump recognises as V1, a Counter/Help table or V2 query data:
the same document for the buffers it accepts, and for those it rejects the
same error object (offset, structure, field, status) and the same stderr
line and exit status. Inputs that neither detects (the V2 metadata answers
among them, named with --format in test_v2_meta.py) are counted, and must be
the ones perfbuf-dump does not detect either.
"""
import contextlib
import io
import re
import subprocess

import pytest

from perfbuf import _dump
from conftest import CAPTURE_FILES, FUZZ_FILES, REPO


# File names of V2 metadata captures (docs/capture.md): v2-<answer>-....bin.
_METADATA_CAPTURE = re.compile(r"^v2-(?!query-)[a-z]+-")


def _python(path):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = _dump.main([str(path)])
    return rc, out.getvalue(), err.getvalue()


def _tool(dump_tool, path):
    p = subprocess.run([str(dump_tool), "--json", str(path)], capture_output=True)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


@pytest.mark.parametrize("path", CAPTURE_FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_capture_decodes_as_perfbuf_dump_does(dump_tool, path):
    rc, out, err = _python(path)
    if _METADATA_CAPTURE.match(path.name):
        # V2 metadata answers (registration, names, lists): formats neither
        # python -m perfbuf nor perfbuf-dump detects without --format; both must
        # refuse them alike (not recognised, or rejected as the format the
        # first bytes suggest), never decode them as something else.
        assert rc != 0 and rc == _tool(dump_tool, path)[0], err
        return
    assert rc == 0, err
    assert (rc, out, err) == _tool(dump_tool, path)


def test_every_fuzz_input_matches_perfbuf_dump(dump_tool):
    assert FUZZ_FILES, "no fuzz corpus found"
    compared = rejected = other = 0
    mismatches = []
    for path in FUZZ_FILES:
        mine = _python(path)
        theirs = _tool(dump_tool, path)
        if mine[0] == 2:
            # Not a format it detects: perfbuf-dump must not detect it either.
            other += 1
            if theirs[0] != 2:
                mismatches.append("%s: perfbuf-dump decodes it, the package does not" % path)
            continue
        compared += 1
        rejected += theirs[0] == 1
        if mine != theirs:
            mismatches.append(str(path))
    print("fuzz inputs: %d compared (%d rejected), %d of other formats"
          % (compared, rejected, other))
    assert not mismatches, "\n".join(mismatches[:20])
    assert compared > 100 and rejected > 10
