#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# perfbuf-dump on the worst inputs of tests/make_adversarial_dump.c, timed:
# one row a format and option, milliseconds per MB of all the files given
# and per run, in text and in JSON (output to /dev/null). The growth test
# (tests/dump_growth.cmake) proves the same cases linear by counting work;
# this prints what that costs on this machine.
#   bash bench/dump-worst.sh DUMP MAKE_ADVERSARIAL_DUMP [SCALE]
# DUMP: a Release perfbuf-dump; SCALE (1 to 64, default 32) sizes the inputs.
set -euo pipefail
dump=${1:?a Release perfbuf-dump}
make=${2:?make_adversarial_dump}
scale=${3:-32}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$make" "$work" "$scale"

cases=(
  "v1 parents and full names|--format v1 @/v1-parents.bin"
  "v1 --counter naming no parent: children of two long parents|--format v1 --names @/v1-rate-names.bin --counter \Process(PA/c)\Count @/v1-long-parents.bin"
  "v1 --counter --csv, the same|--format v1 --names @/v1-rate-names.bin --counter \Process(PA/c)\Count --csv @/v1-long-parents.bin"
  "v1 --rate (20,000 x scale/8 instances, first missing)|--format v1 --rate @/v1-rate-prev.bin @/v1-rate.bin"
  "v1 --series|--format v1 --series @/v1-series-0.bin @/v1-series-1.bin -- @/v1-series.bin"
  "v1 --csv --series|--format v1 --names @/v1-rate-names.bin --counter \\Process(*)\\* --csv --series @/v1-series-0.bin @/v1-series-1.bin -- @/v1-series.bin"
  "v2-query --identifiers|--format v2-query --registration @/v2-reginfo.bin --identifiers @/v2-ids-ids.bin @/v2-ids.bin"
  "v2-query --rate|--format v2-query --registration @/v2-reginfo.bin --rate @/v2-rate-prev.bin @/v2-rate.bin"
  "v2-query --counter-names|--format v2-query --registration @/v2-reginfo.bin --counter-names @/v2-names-strings.bin @/v2-names.bin"
  "v2-query, unordered ids|--format v2-query --registration @/v2-unordered-reginfo.bin --counter-names @/v2-unordered-strings.bin @/v2-unordered.bin"
  "v2-reginfo, unordered ids|--format v2-reginfo @/v2-unordered-reginfo.bin"
  "v2-strings, unordered ids|--format v2-strings @/v2-unordered-strings.bin"
  "v2-strings, headers sharing one string (refused)|--format v2-strings @/v2-overlap.bin"
)

now_ns() { date +%s%N; }
# Best of three runs, in microseconds.
best_us() {
  local best= t0 t1 us
  for _ in 1 2 3; do
    t0=$(now_ns)
    "$@" >/dev/null 2>&1 || true
    t1=$(now_ns)
    us=$(( (t1 - t0) / 1000 ))
    if [ -z "$best" ] || [ "$us" -lt "$best" ]; then best=$us; fi
  done
  echo "$best"
}
# Starting the process costs the same whatever the input: it is measured
# once (--version) and taken out of ms/MB, which would otherwise say more
# about fork and exec than about a 9 KB input.
start_us=$(best_us "$dump" --version)
echo "perfbuf-dump worst cases, scale $scale; target <= 20 ms/MB of input and <= 60 ms a run"
echo "(ms/MB leaves out the $(awk -v u="$start_us" 'BEGIN { printf "%.1f", u / 1000 }') ms a run costs to start the process)"
echo
echo "| format and options: adversarial input | input bytes | mode | ms/run | ms/MB | target |"
echo "|---|---|---|---|---|---|"
for c in "${cases[@]}"; do
  name=${c%%|*}
  args=${c#*|}
  args=${args//@/$work}
  read -r -a argv <<<"$args"
  bytes=0
  for a in "${argv[@]}"; do
    if [ -f "$a" ]; then bytes=$((bytes + $(stat -c %s "$a"))); fi
  done
  for mode in text json; do
    # CSV has no JSON form.
    if [ "$mode" = json ] && [[ "$args" == *--csv* ]]; then continue; fi
    flags=()
    [ "$mode" = json ] && flags=(--json)
    best=$(best_us "$dump" "${flags[@]}" "${argv[@]}")
    awk -v n="$name" -v b="$bytes" -v m="$mode" -v us="$best" -v s="$start_us" 'BEGIN {
      ms = us / 1000.0; work = (us > s ? us - s : 0) / 1000.0; per = work / (b / 1048576.0);
      printf "| %s | %d | %s | %.1f | %.1f | %s |\n", n, b, m, ms, per, (per <= 20 && ms <= 60) ? "ok" : "**miss**" }'
  done
done
