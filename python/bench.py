# SPDX-License-Identifier: MIT OR Apache-2.0
"""Python time vs C time for decoding the 1.4 MB V1 benchmark block and
reading every value (validate + one value plan per object + every value as a
Python int, summed), through read_all_array and through read_all.

    python3 python/bench.py [--repo DIR] [--library libperfbuf.so]

Compiles python/bench_block.c (cc, against include/ and the tests' buffer
builders), which writes the block and times the C library on it; then times
the same work through the package and prints both and their ratio.
"""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    here = pathlib.Path(__file__).resolve().parent
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", default=str(here.parent))
    ap.add_argument("--library", default=os.environ.get("PERFBUF_LIBRARY",
                                                        str(here.parent / "build/shared/libperfbuf.so")))
    args = ap.parse_args()
    repo = pathlib.Path(args.repo)
    lib = pathlib.Path(args.library).resolve()
    os.environ["PERFBUF_LIBRARY"] = str(lib)
    sys.path.insert(0, str(here))
    import perfbuf

    with tempfile.TemporaryDirectory() as tmp:
        exe = pathlib.Path(tmp) / "bench_block"
        block = pathlib.Path(tmp) / "block.bin"
        subprocess.run([os.environ.get("CC", "cc"), "-O2", "-std=c11", "-I", str(repo / "include"),
                        "-I", str(repo / "tests"), str(here / "bench_block.c"),
                        str(repo / "tests/builder_v1.c"), str(repo / "tests/builder.c"),
                        str(lib), "-Wl,-rpath," + str(lib.parent), "-o", str(exe)], check=True)
        size, c_min, c_median, c_sum = subprocess.run([str(exe), str(block)], check=True, capture_output=True,
                                           text=True).stdout.split()
        data = block.read_bytes()
    c_min, c_median, c_sum = float(c_min), float(c_median), int(c_sum)

    def rows_of_tuples():
        cap = perfbuf.parse_v1(data)
        return sum(sum(map(sum, obj.read_all())) for obj in cap.objects)

    def flat_array():
        cap = perfbuf.parse_v1(data)
        return sum(sum(obj.read_all_array()[0]) for obj in cap.objects)

    def timed(work):
        assert work() == c_sum, "the Python read differs from the C read"
        runs = []
        for _ in range(9):
            calls, start = 0, time.perf_counter()
            while True:
                work()
                calls += 1
                elapsed = time.perf_counter() - start
                if elapsed > 0.2:
                    break
            runs.append(elapsed / calls * 1e9)
        return min(runs), statistics.median(runs)

    # Both sides: 9 runs of >= 20 ms (C) or 200 ms (Python); the fastest run
    # is the least disturbed by other work on the machine, the median is shown too.
    # Every value is a Python int once either way: read_all() keeps them in
    # tuples, read_all_array() makes each as the sum reads it.
    for what, work in (("read_all_array, each value summed", flat_array),
                       ("read_all, tuples of ints", rows_of_tuples)):
        py_min, py_median = timed(work)
        print("V1 block %s bytes, validate + read every value (%s): C %.3f ms (median %.3f), "
              "Python %.3f ms (median %.3f), ratio %.1fx (medians %.1fx; target <= 20x)"
              % (size, what, c_min / 1e6, c_median / 1e6, py_min / 1e6, py_median / 1e6,
                 py_min / c_min, py_median / c_median))


if __name__ == "__main__":
    main()
