#!/bin/bash -eu
# SPDX-License-Identifier: MIT OR Apache-2.0
# OSS-Fuzz / ClusterFuzzLite build: every harness in fuzz/, with the
# compiler, flags and engine the infrastructure sets ($CC, $CFLAGS,
# $LIB_FUZZING_ENGINE, $OUT, $SRC), plus seed corpora and dictionaries.
cd "$SRC/perfbuf"
mkdir -p "$WORK/perfbuf-objects"
for src in src/*/*.c; do
  $CC $CFLAGS -std=c11 -DPERFBUF_FUZZING -DPERFBUF_COUNT_WORK -Iinclude -Isrc -c "$src" \
    -o "$WORK/perfbuf-objects/$(echo "${src%.c}" | tr / _).o"
done
# libFuzzer's and AFL++'s drivers provide LLVMFuzzerMutate, which the
# structure-aware harnesses' LLVMFuzzerCustomMutator needs.
mutator=()
case "${FUZZING_ENGINE:-libfuzzer}" in
  libfuzzer|afl) mutator=(-DPERFBUF_FUZZ_MUTATOR) ;;
esac
for harness in fuzz/fuzz_*.c; do
  name=$(basename "$harness" .c)
  $CC $CFLAGS -std=c11 -DPERFBUF_FUZZING -DPERFBUF_COUNT_WORK "${mutator[@]}" -Iinclude -Isrc -c "$harness" -o "$WORK/$name.o"
  $CXX $CXXFLAGS "$WORK/$name.o" "$WORK"/perfbuf-objects/*.o $LIB_FUZZING_ENGINE -lm -o "$OUT/$name"
  if [ -d "corpus/$name" ]; then
    (cd "corpus/$name" && zip -q -r "$OUT/${name}_seed_corpus.zip" . -x README.md)
    (cd corpus/captures && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
  fi
  [ -f "fuzz/$name.dict" ] && cp "fuzz/$name.dict" "$OUT/$name.dict"
done
