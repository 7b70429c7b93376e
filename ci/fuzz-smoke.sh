#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The fuzz smoke job: every harness for FUZZ_SECONDS (default 60) under
# libFuzzer (ASan+UBSan) and for AFL_SECONDS (default FUZZ_SECONDS) under
# AFL++ (with a cmplog build), two runs at a time, then the whole corpus
# replayed under MemorySanitizer. Fails when any
# crash, leak, timeout or sanitizer report is saved. AFL++ exits 0 even when
# it saved crashes, so its crashes/ and hangs/ folders are checked here.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
afl_seconds=${AFL_SECONDS:-$seconds}
work=${FUZZ_WORK:-$(mktemp -d)}
mkdir -p "$work"
echo "fuzz-smoke: ${seconds}s per harness under libFuzzer, ${afl_seconds}s under AFL++, work in $work"

# The builds two at a time, one per core: AFL++'s two builds a harness beside
# libFuzzer's and MSan's one each.
bash ci/fuzz-build.sh afl "$work/afl" >/dev/null &
afl_build=$!
bash ci/fuzz-build.sh libfuzzer "$work/libfuzzer" >/dev/null
bash ci/fuzz-build.sh msan "$work/msan" >/dev/null
wait "$afl_build"

source ci/afl-mutator-env.sh
harnesses=$(cd fuzz && ls fuzz_*.c | sed 's/\.c$//')

seeds_of() {
  local name=$1 dir=$2
  mkdir -p "$dir"
  cp corpus/"$name"/* "$dir"/ 2>/dev/null || true
  rm -f "$dir/README.md"
  # Captures of different origins may share a file name: each keeps its
  # folder's name in front.
  local capture
  for capture in corpus/captures/*/*.bin; do
    cp "$capture" "$dir/$(basename "$(dirname "$capture")")-$(basename "$capture")"
  done
}

# The structure-aware harnesses take inputs up to 1 MB from the first
# execution (-len_control=0): their mutators multiply children, parents'
# names, definitions and counters up to the size they are given, and a path
# that is linear at 4 KB may not be at 1 MB. The others keep libFuzzer's
# default, which grows the length with the corpus. Their oracles check every
# value of every counter block several ways (about 50 us a value under
# ASan), and a 1 MB block holds a quarter of a million 4-byte values: such an
# input takes about 10 s, so these runs allow 30 s before a timeout or a
# slow-unit report (a path quadratic at 1 MB takes far longer, and the work
# budget traps it whatever the time).
large_inputs() {
  case "$1" in
    fuzz_v1_structured | fuzz_v2_query_structured | fuzz_pairing | fuzz_query | fuzz_mixed_views) return 0 ;;
  esac
  return 1
}

run_libfuzzer() {
  local name=$1 dir="$work/lf-$1"
  seeds_of "$name" "$dir/corpus"
  local dict=()
  [ -f "fuzz/$name.dict" ] && dict=(-dict="fuzz/$name.dict")
  local size=(-timeout=10)
  large_inputs "$name" && size=(-max_len=1048576 -len_control=0 -timeout=30 -report_slow_units=30)
  local rc=0
  timeout $((seconds + 120)) "$work/libfuzzer/$name" -max_total_time="$seconds" \
    -rss_limit_mb=2048 -print_final_stats=1 "${dict[@]}" "${size[@]}" -artifact_prefix="$dir/" \
    "$dir/corpus" >"$dir/log" 2>&1 || rc=$?
  local runs
  runs=$(grep -E "^stat::number_of_executed_units" "$dir/log" | awk '{print $2}' || true)
  local found
  found=$(ls "$dir" | { grep -E "^(crash|leak|timeout|oom|slow-unit)-" || true; } | wc -l)
  if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
    echo "FAIL libfuzzer $name: exit $rc, $found saved inputs in $dir"
    tail -n 30 "$dir/log"
    return 1
  fi
  echo "ok   libfuzzer $name: ${runs:-?} executions, corpus $(ls "$dir/corpus" | wc -l)"
}

run_afl() {
  local name=$1 dir="$work/afl-$1"
  seeds_of "$name" "$dir/in"
  local dict=()
  [ -f "fuzz/$name.dict" ] && dict=(-x "fuzz/$name.dict")
  # The structured and two-capture harnesses get the structure-aware
  # mutators under AFL++ too, from the custom mutator library, before
  # AFL++'s own havoc stage.
  local mutator=()
  afl_mutator_env "$name" "$work/afl/afl_mutator.so" mutator
  # AFL++'s own limit on an input is 1 MB (-G, its default): said here so
  # that the large-input harnesses keep it, with the same 30 s per input.
  local size=(-t 5000)
  large_inputs "$name" && size=(-G 1048576 -t 30000)
  env "${mutator[@]}" AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 \
  AFL_SKIP_CRASHES=1 AFL_QUIET=1 \
    timeout $((afl_seconds + 120)) afl-fuzz -V "$afl_seconds" -m none -i "$dir/in" -o "$dir/out" \
    -c "$work/afl/$name.cmplog" "${dict[@]}" "${size[@]}" -- "$work/afl/$name" >"$dir/log" 2>&1 || true
  local stats="$dir/out/default/fuzzer_stats"
  if [ ! -f "$stats" ]; then
    echo "FAIL afl $name: afl-fuzz did not run"
    tail -n 30 "$dir/log"
    return 1
  fi
  if [ ${#mutator[@]} -ne 0 ] && ! grep "Loading custom mutator library" "$dir/log" >/dev/null; then
    echo "FAIL afl $name: afl-fuzz did not load the structure-aware mutator"
    tail -n 30 "$dir/log"
    return 1
  fi
  local crashes hangs execs
  crashes=$(find "$dir/out/default/crashes" -type f ! -name README.txt | wc -l)
  hangs=$(find "$dir/out/default/hangs" -type f ! -name README.txt | wc -l)
  execs=$(awk -F: '/^execs_done/ {gsub(/ /, "", $2); print $2}' "$stats" || true)
  if [ "$crashes" -ne 0 ] || [ "$hangs" -ne 0 ]; then
    echo "FAIL afl $name: $crashes crashes, $hangs hangs in $dir/out/default"
    return 1
  fi
  local how=""
  [ ${#mutator[@]} -ne 0 ] && how=", structure-aware mutator loaded"
  echo "ok   afl       $name: ${execs:-?} executions, queue $(ls "$dir/out/default/queue" | wc -l)$how"
}

failed=0
running=0
# Two runs at a time, one per core: a run starts as soon as either ends, so
# runs of different lengths leave no core idle.
launch() {
  if [ "$running" -ge 2 ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  "$@" &
  running=$((running + 1))
}
for name in $harnesses; do
  launch run_libfuzzer "$name"
  launch run_afl "$name"
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done

echo "== MemorySanitizer replay of the corpus"
for name in $harnesses; do
  if ! "$work/msan/$name" "corpus/$name" corpus/captures >"$work/msan-$name.log" 2>&1; then
    echo "FAIL msan $name"
    tail -n 30 "$work/msan-$name.log"
    failed=1
  else
    echo "ok   msan      $name: $(tail -n 1 "$work/msan-$name.log")"
  fi
done

if [ "$failed" -ne 0 ]; then
  echo "fuzz-smoke: FAILED (saved inputs are under $work)"
  exit 1
fi
echo "fuzz-smoke: every harness ran clean under libFuzzer, AFL++ and MSan"
