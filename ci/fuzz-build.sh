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

# compile_library DIR COMPILER FLAGS...: the library's objects, compiled once
# for every harness of this engine (each harness used to compile all of it
# again), into DIR. The flags are the harnesses' own, and every object is
# linked into every harness (not through an archive, which would drop the
# ones a harness does not call and with them their lines from the coverage
# report), so a harness is the program it was when it compiled the sources.
compile_library() {
  local dir=$1; shift
  rm -rf "$dir"
  mkdir -p "$dir"
  local src
  for src in "${library[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "${FUZZ_BUILD_JOBS:-1}" ]; do wait -n || true; done
    "$@" -c "$src" -o "$dir/$(echo "${src%.c}" | tr / _).o" &
  done
  wait
  # A source that did not compile left no object: say so here rather than
  # as undefined symbols at the first link.
  for src in "${library[@]}"; do
    [ -f "$dir/$(echo "${src%.c}" | tr / _).o" ] || { echo "fuzz-build: $src did not compile" >&2; exit 1; }
  done
}

objects="$out/.objects"
case "$engine" in
  libfuzzer)
    # fuzzer-no-link: the coverage instrumentation of -fsanitize=fuzzer
    # without libFuzzer's main, which the harness's link brings.
    compile_library "$objects/main" clang-14 "${common[@]}" -DPERFBUF_FUZZ_MUTATOR "$sanitizers" \
      -fno-sanitize-recover=all -fsanitize=fuzzer-no-link
    ;;
  afl)
    AFL_QUIET=1 compile_library "$objects/main" afl-clang-fast "${common[@]}" -DPERFBUF_FUZZ_MUTATOR "$sanitizers" \
      -fno-sanitize-recover=all
    AFL_QUIET=1 AFL_LLVM_CMPLOG=1 compile_library "$objects/cmplog" afl-clang-fast "${common[@]}" -DPERFBUF_FUZZ_MUTATOR
    ;;
  msan)
    compile_library "$objects/main" clang-14 "${common[@]}" -fsanitize=memory -fsanitize-memory-track-origins \
      -fno-sanitize-recover=all
    ;;
  coverage)
    compile_library "$objects/main" clang-14 "${common[@]}" -fprofile-instr-generate -fcoverage-mapping
    ;;
  *)
    echo "fuzz-build: unknown engine $engine" >&2
    exit 2
    ;;
esac
main_objects=("$objects/main"/*.o)

for harness in fuzz/fuzz_*.c; do
  name=$(basename "$harness" .c)
  case "$engine" in
    libfuzzer)
      clang-14 "${common[@]}" -DPERFBUF_FUZZ_MUTATOR "$sanitizers" -fno-sanitize-recover=all -fsanitize=fuzzer \
        "$harness" "${main_objects[@]}" -lm -o "$out/$name"
      ;;
    afl)
      AFL_QUIET=1 afl-clang-fast "${common[@]}" -DPERFBUF_FUZZ_MUTATOR "$sanitizers" -fno-sanitize-recover=all \
        -fsanitize=fuzzer "$harness" "${main_objects[@]}" -lm -o "$out/$name"
      AFL_QUIET=1 AFL_LLVM_CMPLOG=1 afl-clang-fast "${common[@]}" -DPERFBUF_FUZZ_MUTATOR -fsanitize=fuzzer \
        "$harness" "$objects/cmplog"/*.o -lm -o "$out/$name.cmplog"
      ;;
    msan)
      clang-14 "${common[@]}" -fsanitize=memory -fsanitize-memory-track-origins \
        -fno-sanitize-recover=all "$harness" fuzz/replay_main.c "${main_objects[@]}" -lm -o "$out/$name"
      ;;
    coverage)
      clang-14 "${common[@]}" -fprofile-instr-generate -fcoverage-mapping \
        "$harness" fuzz/replay_main.c "${main_objects[@]}" -lm -o "$out/$name"
      ;;
  esac
done
echo "fuzz-build: $engine harnesses in $out: $(cd "$out" && ls | grep -v cmplog | tr '\n' ' ')"
