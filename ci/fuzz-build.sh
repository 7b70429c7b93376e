#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds every harness in fuzz/ (fuzz/fuzz_*.c) for one engine, from the same
# sources, into OUTDIR:
#   libfuzzer  clang-14, libFuzzer, ASan + UBSan (float-cast-overflow too)
#   afl        afl-clang-fast, persistent mode through AFL++'s libFuzzer driver,
#              ASan + UBSan; plus <harness>.cmplog built with AFL_LLVM_CMPLOG,
#              and afl_mutator.so, the structure-aware mutators as an AFL++
#              custom mutator library (fuzz/afl_mutator.c)
#   msan       clang-14, MemorySanitizer, linked with fuzz/replay_main.c
#   coverage   clang-14 source-based coverage, linked with fuzz/replay_main.c
# Every build defines PERFBUF_FUZZING, so branches that validation makes
# unreachable trap instead of falling through. The two engine builds also
# define PERFBUF_FUZZ_MUTATOR: both drivers provide LLVMFuzzerMutate, which
# the structure-aware harnesses' LLVMFuzzerCustomMutator calls (libFuzzer
# uses that mutator; afl-fuzz, which mutates in its own process, takes the
# same mutators from afl_mutator.so instead).
# Usage: ci/fuzz-build.sh ENGINE OUTDIR
set -euo pipefail
cd "$(dirname "$0")/.."
engine=${1:?engine: libfuzzer, afl, msan or coverage}
out=${2:?output folder}
mkdir -p "$out"

common=(-g -O1 -std=c11 -DPERFBUF_FUZZING -DPERFBUF_COUNT_WORK -Iinclude -Isrc)
sanitizers=-fsanitize=address,undefined,float-cast-overflow
library=(src/*/*.c)

if [ "$engine" = afl ]; then
  # The mutators ask the library about counter types, so it is linked in.
  clang-14 -std=c11 -O2 -g -Wall -Wextra -Iinclude -Isrc -fPIC -shared fuzz/afl_mutator.c "${library[@]}" \
    -o "$out/afl_mutator.so"
fi

for harness in fuzz/fuzz_*.c; do
  name=$(basename "$harness" .c)
  case "$engine" in
    libfuzzer)
      clang-14 "${common[@]}" -DPERFBUF_FUZZ_MUTATOR "$sanitizers" -fno-sanitize-recover=all -fsanitize=fuzzer \
        "$harness" "${library[@]}" -lm -o "$out/$name"
      ;;
    afl)
      AFL_QUIET=1 afl-clang-fast "${common[@]}" -DPERFBUF_FUZZ_MUTATOR "$sanitizers" -fno-sanitize-recover=all \
        -fsanitize=fuzzer "$harness" "${library[@]}" -lm -o "$out/$name"
      AFL_QUIET=1 AFL_LLVM_CMPLOG=1 afl-clang-fast "${common[@]}" -DPERFBUF_FUZZ_MUTATOR -fsanitize=fuzzer \
        "$harness" "${library[@]}" -lm -o "$out/$name.cmplog"
      ;;
    msan)
      clang-14 "${common[@]}" -fsanitize=memory -fsanitize-memory-track-origins \
        -fno-sanitize-recover=all "$harness" fuzz/replay_main.c "${library[@]}" -lm -o "$out/$name"
      ;;
    coverage)
      clang-14 "${common[@]}" -fprofile-instr-generate -fcoverage-mapping \
        "$harness" fuzz/replay_main.c "${library[@]}" -lm -o "$out/$name"
      ;;
    *)
      echo "fuzz-build: unknown engine $engine" >&2
      exit 2
      ;;
  esac
done
echo "fuzz-build: $engine harnesses in $out: $(cd "$out" && ls | grep -v cmplog | tr '\n' ' ')"
