# SPDX-License-Identifier: MIT OR Apache-2.0
"""Random mutations of the captures and fuzz inputs: every one either parses
(and then every view reads) or raises PerfbufError, never anything else."""
import random

from conftest import CAPTURE_FILES, FUZZ_FILES
from exercise import exercise, mutate


def test_mutated_buffers_parse_or_raise():
    rng = random.Random(1677)
    seeds = [p.read_bytes() for p in CAPTURE_FILES + FUZZ_FILES[::7]]
    accepted = 0
    for _ in range(20000):
        accepted += exercise(mutate(rng, rng.choice(seeds))) > 0
    # The mutations are mild enough that some survive validation: the
    # readers behind it are exercised too, not only the rejection path.
    assert accepted > 300
