#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# A long campaign on one harness with both engines on all cores, then the
# findings merged (minimised) back into corpus/<harness>/ and a summary.
# Usage: ci/fuzz-long.sh HARNESS HOURS   (e.g. fuzz_v1 4)
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?harness, e.g. fuzz_v1}
hours=${2:?hours}
seconds=$(awk -v h="$hours" 'BEGIN { printf "%d", h * 3600 }')
cores=$(nproc)
work=${FUZZ_WORK:-$(mktemp -d)}
echo "fuzz-long: $name for $hours h on $cores cores, work in $work"
bash ci/fuzz-build.sh libfuzzer "$work/libfuzzer" >/dev/null
bash ci/fuzz-build.sh afl "$work/afl" >/dev/null
mkdir -p "$work/lf-corpus" "$work/seeds"
cp corpus/"$name"/* corpus/captures/*/*.bin "$work/seeds/" 2>/dev/null || true
rm -f "$work/seeds/README.md"
cp "$work"/seeds/* "$work/lf-corpus/"
dict_lf=(); dict_afl=()
[ -f "fuzz/$name.dict" ] && dict_lf=(-dict="fuzz/$name.dict") && dict_afl=(-x "fuzz/$name.dict")

half=$(( cores > 1 ? cores / 2 : 1 ))
"$work/libfuzzer/$name" -max_total_time="$seconds" -jobs="$half" -workers="$half" \
  -artifact_prefix="$work/" "${dict_lf[@]}" "$work/lf-corpus" >"$work/libfuzzer.log" 2>&1 &
lf=$!
export AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
# The structured harnesses take the structure-aware mutator under AFL++ too.
source ci/afl-mutator-env.sh
mutator=()
afl_mutator_env "$name" "$work/afl/afl_mutator.so" mutator
env "${mutator[@]}" afl-fuzz -V "$seconds" -M main -m none -i "$work/seeds" -o "$work/afl-out" \
  -c "$work/afl/$name.cmplog" "${dict_afl[@]}" -- "$work/afl/$name" >"$work/afl-main.log" 2>&1 &
afl_pids=($!)
for i in $(seq 2 "$half"); do
  env "${mutator[@]}" afl-fuzz -V "$seconds" -S "s$i" -m none -i "$work/seeds" -o "$work/afl-out" \
    "${dict_afl[@]}" -- "$work/afl/$name" >"$work/afl-s$i.log" 2>&1 &
  afl_pids+=($!)
done
wait "$lf" || true
for pid in "${afl_pids[@]}"; do wait "$pid" || true; done

crashes=$(find "$work" -maxdepth 1 -name 'crash-*' -o -maxdepth 1 -name 'leak-*' -o -maxdepth 1 -name 'timeout-*' | wc -l)
afl_crashes=$(find "$work/afl-out" -path '*crashes/*' -type f ! -name README.txt | wc -l)
# Merge everything new into the committed corpus, minimised by libFuzzer.
mkdir -p "$work/merged"
find "$work/afl-out" -path '*queue/*' -type f -exec cp {} "$work/lf-corpus/" \; 2>/dev/null || true
before=$(ls "corpus/$name" | wc -l)
"$work/libfuzzer/$name" -merge=1 "corpus/$name" "$work/lf-corpus" >"$work/merge.log" 2>&1
after=$(ls "corpus/$name" | wc -l)
echo "fuzz-long: $name: corpus $before -> $after files; libFuzzer findings $crashes, AFL++ crashes $afl_crashes"
echo "fuzz-long: findings (if any) are in $work; add each to corpus/$name and a unit test"
[ "$crashes" -eq 0 ] && [ "$afl_crashes" -eq 0 ]
