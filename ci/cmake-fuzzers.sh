#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The fuzzers that -DPERFBUF_BUILD_FUZZERS=ON builds must see the library's
# edges, not only their harness's: built against an uninstrumented library,
# fuzz_v1 reached 100 coverage points (145 features) on its corpus, against
# 1,207 (2,547) once the library is instrumented. Each fuzzer runs once over its corpus (-runs=0) and its
# coverage must be at least what the harness alone could never give.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/cmake-fuzzers
CC=clang-14 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DPERFBUF_BUILD_FUZZERS=ON \
  -DPERFBUF_BUILD_TESTS=OFF -DPERFBUF_BUILD_TOOLS=OFF -DPERFBUF_WERROR=ON \
  -DCMAKE_C_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$build" -j2 --target fuzz_v1 fuzz_v2_query >/dev/null
minimum=500
for name in fuzz_v1 fuzz_v2_query; do
  log=$(mktemp)
  "$build/fuzz/$name" -runs=0 "corpus/$name" >"$log" 2>&1
  cov=$(sed -n 's/.*INITED cov: \([0-9]*\).*/\1/p' "$log")
  rm -f "$log"
  echo "cmake-fuzzers: $name reaches $cov coverage points on its corpus"
  if [ -z "$cov" ] || [ "$cov" -lt "$minimum" ]; then
    echo "cmake-fuzzers: $name is not instrumented past its harness (below $minimum)"
    exit 1
  fi
done
