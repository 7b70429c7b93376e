# SPDX-License-Identifier: MIT OR Apache-2.0
"""The worked example of docs/python.md runs and prints what the page says."""
import contextlib
import io
import os
import re

import perfbuf  # noqa: F401  loaded before the example changes folder

from conftest import REPO


def test_worked_example_prints_its_documented_output():
    page = (REPO / "docs" / "python.md").read_text()
    section = page[page.index("## Worked example"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    expected = re.search(r"```text\n(.*?)```", section, re.S).group(1)
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "docs/python.md", "exec"), {})
    finally:
        os.chdir(cwd)
    assert out.getvalue() == expected
