#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# perfbuf-dump on the worst inputs of tests/make_adversarial_dump.c, timed:
# one row a format and option, in text and in JSON (output to /dev/null),
# with the bytes read and written, the time a run takes, milliseconds per
# MB of input plus output, and the largest resident size a run reached.
# The growth test (tests/dump_growth.cmake) proves the same cases linear by
# counting work; this prints what that costs on this machine.
#   bash bench/dump-worst.sh DUMP MAKE_ADVERSARIAL_DUMP [SCALE]
# DUMP: a Release perfbuf-dump; SCALE (1 to 64, default 32) sizes the inputs.
# RUNS (default 3) runs are made of each row, and the least time kept.
set -euo pipefail
dump=${1:?a Release perfbuf-dump}
make=${2:?make_adversarial_dump}
scale=${3:-32}
runs=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$make" "$work" "$scale"

names="--names @/v1-rate-names.bin"
cases=(
  "v1 parents and full names|--format v1 @/v1-parents.bin"
  "v1 --counter naming no parent: children of two long parents|--format v1 $names --counter \Process(PA/c)\Count @/v1-long-parents.bin"
  "v1 --counter --csv, the same|--format v1 $names --counter \Process(PA/c)\Count --csv @/v1-long-parents.bin"
  "v1 --counter selecting nothing: children of a long parent|--format v1 $names --counter \Process(nope)\Count @/v1-children.bin"
  "v1 --counter: every child of a long parent|--format v1 $names --counter \Process(*)\Count @/v1-children.bin"
  "v1 plain dump of the --rate capture|--format v1 @/v1-rate.bin"
  "v1 --rate (20,000 x scale/8 instances, first missing)|--format v1 --rate @/v1-rate-prev.bin @/v1-rate.bin"
  "v1 plain dump of children of a long parent|--format v1 @/v1-children.bin"
  "v1 --rate: children of a long parent|--format v1 --rate @/v1-children-prev.bin @/v1-children.bin"
  "v1 --rate: 4,000 x scale/8 objects|--format v1 --rate @/v1-objects-prev.bin @/v1-objects.bin"
  "v1 --counter --csv --rate: children of a long parent|--format v1 $names --counter \Process(*)\* --csv --rate @/v1-children-prev.bin @/v1-children.bin"
  "v1 --counter --csv --series: children of a long parent|--format v1 $names --counter \Process(*)\* --csv --series @/v1-children-prev.bin -- @/v1-children.bin"
  "v1 --counter --csv --rate|--format v1 $names --counter \Process(*)\* --csv --rate @/v1-rate-prev.bin @/v1-rate.bin"
  "v1 --series|--format v1 --series @/v1-series-0.bin @/v1-series-1.bin -- @/v1-series.bin"
  "v1 --series --counter|--format v1 $names --counter \Process(*)\* --series @/v1-series-0.bin @/v1-series-1.bin -- @/v1-series.bin"
  "v1 --csv --series|--format v1 $names --counter \\Process(*)\\* --csv --series @/v1-series-0.bin @/v1-series-1.bin -- @/v1-series.bin"
  "v2-query --identifiers|--format v2-query --registration @/v2-reginfo.bin --identifiers @/v2-ids-ids.bin @/v2-ids.bin"
  "v2-query --rate|--format v2-query --registration @/v2-reginfo.bin --rate @/v2-rate-prev.bin @/v2-rate.bin"
  "v2-query --counter-names|--format v2-query --registration @/v2-reginfo.bin --counter-names @/v2-names-strings.bin @/v2-names.bin"
  "v2-query, unordered ids|--format v2-query --registration @/v2-unordered-reginfo.bin --counter-names @/v2-unordered-strings.bin @/v2-unordered.bin"
  "v2-reginfo, unordered ids|--format v2-reginfo @/v2-unordered-reginfo.bin"
  "v2-strings, unordered ids|--format v2-strings @/v2-unordered-strings.bin"
  "v2-strings, headers sharing one string (refused)|--format v2-strings @/v2-overlap.bin"
)

# The processor time (user and system) of the commands this shell has run
# and waited for, in microseconds, into CHILD_US, from the `times` builtin
# (read in this shell: a subshell's children are not ours, and a program
# to parse it would add its own): the machine may be shared, and a run's
# wall time then says as much about the others.
children_us() {
  local line f m s int frac total=0
  times >"$work/times"
  { read -r _; read -r line; } <"$work/times"
  for f in $line; do
    m=${f%%m*}; s=${f#*m}; s=${s%s}; int=${s%%.*}; frac=${s#*.}
    total=$((total + (10#$m * 60 + 10#$int) * 1000000 + 10#$frac * 1000))
  done
  CHILD_US=$total
}
# Best of $runs runs: processor microseconds.
best_us() {
  local best= t0 us
  for ((r = 0; r < runs; r++)); do
    children_us
    t0=$CHILD_US
    "$@" >/dev/null 2>&1 || true
    children_us
    us=$((CHILD_US - t0))
    if [ -z "$best" ] || [ "$us" -lt "$best" ]; then best=$us; fi
  done
  echo "$best"
}
# The largest resident size of one run, in KB (GNU time), or "-". A path
# that names nothing exits 1: the size is read all the same.
max_rss_kb() {
  if [ -x /usr/bin/time ]; then
    { /usr/bin/time -f %M "$@" 2>&1 >/dev/null || true; } | tail -n 1
  else
    echo -
  fi
}
# Starting the process costs the same whatever the input: it is measured
# once (--version) and taken out of ms/MB, which would otherwise say more
# about fork and exec than about a 9 KB input.
start_us=$(best_us "$dump" --version)
echo "perfbuf-dump worst cases, scale $scale; target <= 20 ms/MB of input plus output"
echo "(processor time, best of $runs runs; ms/MB leaves out the" \
  "$(awk -v u="$start_us" 'BEGIN { printf "%.1f", u / 1000 }') ms a run costs to start the process)"
echo
echo "| format and options: adversarial input | input bytes | output bytes | mode | ms/run | ms/MB | max RSS MB | target |"
echo "|---|---|---|---|---|---|---|---|"
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
    out=$("$dump" "${flags[@]}" "${argv[@]}" 2>/dev/null | wc -c) || true
    best=$(best_us "$dump" "${flags[@]}" "${argv[@]}")
    rss=$(max_rss_kb "$dump" "${flags[@]}" "${argv[@]}")
    awk -v n="$name" -v b="$bytes" -v o="$out" -v m="$mode" -v us="$best" -v s="$start_us" \
        -v r="$rss" 'BEGIN {
      ms = us / 1000.0; work = (us > s ? us - s : 0) / 1000.0; per = work / ((b + o) / 1048576.0);
      rss = r == "-" ? "-" : sprintf("%.1f", r / 1024.0);
      printf "| %s | %d | %d | %s | %.1f | %.1f | %s | %s |\n", n, b, o, m, ms, per, rss,
             per <= 20 ? "ok" : "**miss**" }'
  done
done
