#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs oss-fuzz/build.sh here with clang's variables set as OSS-Fuzz sets
# them (address sanitizer, libFuzzer), then runs each fuzzer it built for a
# few seconds on its seed corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/out" "$work/work"
ln -s "$PWD" "$work/src/perfbuf"
export SRC="$work/src" OUT="$work/out" WORK="$work/work"
export CC=clang-14 CXX=clang++-14
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE="-fsanitize=fuzzer"
bash oss-fuzz/build.sh
count=0
for fuzzer in "$OUT"/fuzz_*; do
  case "$fuzzer" in *.zip|*.dict) continue ;; esac
  name=$(basename "$fuzzer")
  mkdir -p "$work/corpus-$name"
  unzip -q -o "$OUT/${name}_seed_corpus.zip" -d "$work/corpus-$name"
  "$fuzzer" -max_total_time=3 "$work/corpus-$name" >"$work/$name.log" 2>&1 ||
    { tail -n 20 "$work/$name.log"; echo "oss-fuzz-local: $name failed"; exit 1; }
  count=$((count + 1))
done
echo "oss-fuzz-local: build.sh built and ran $count fuzzers"
