#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The README's test command (gcc, ASan+UBSan, warnings as errors), then the
# same suite built with clang, also warnings as errors.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== gcc, AddressSanitizer + UndefinedBehaviorSanitizer (README test command)"
cmake --workflow --preset test

echo "== clang-14, AddressSanitizer + UndefinedBehaviorSanitizer, -Werror"
CC=clang-14 cmake -S . -B build/clang-asan -DCMAKE_BUILD_TYPE=Debug -DPERFBUF_WERROR=ON \
  -DCMAKE_C_FLAGS="-fsanitize=address,undefined,float-cast-overflow,integer -fno-sanitize-recover=all -fno-omit-frame-pointer" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build build/clang-asan -j2
ctest --test-dir build/clang-asan --output-on-failure

echo "== release builds (-O2, where gcc and clang warn about more), -Werror"
for cc in gcc clang-14; do
  CC=$cc cmake -S . -B "build/release-$cc" -DCMAKE_BUILD_TYPE=Release -DPERFBUF_WERROR=ON >/dev/null
  cmake --build "build/release-$cc" -j2
  ctest --test-dir "build/release-$cc" --output-on-failure
done

echo "== shared library: exports only perfbuf_*"
cmake -S . -B build/shared -DBUILD_SHARED_LIBS=ON -DPERFBUF_WERROR=ON >/dev/null
cmake --build build/shared -j2
ctest --test-dir build/shared --output-on-failure

echo "== the benchmark builds (it is run by hand: bench/README.md)"
cmake -S . -B build/bench -DCMAKE_BUILD_TYPE=Release -DPERFBUF_BUILD_BENCH=ON -DPERFBUF_WERROR=ON >/dev/null
cmake --build build/bench --target perfbuf-bench perfbuf-worst perfbuf-pairing format-bench -j2
bash bench/stack-usage.sh
