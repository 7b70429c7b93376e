#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs the first command of the README's opening block (build, then decode the
# bundled synthetic pair) and checks that it printed the counter path and the
# value the README shows. The second command, the test workflow, is run by
# ci/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
block=$(awk '/^```sh$/ {inside = 1; next} inside && /^```$/ {exit} inside {print}' README.md)
first=$(printf '%s\n' "$block" | sed -n 1p)
second=$(printf '%s\n' "$block" | sed -n 2p)
[ "$second" = "cmake --workflow --preset test" ] ||
  { echo "readme-commands: the README's second command is not the test workflow ci/test.sh runs: $second"; exit 1; }
echo "readme-commands: $first"
# CSV records end with CRLF (RFC 4180): compared without the CR.
out=$(bash -c "$first" | tr -d '\r')
printf '%s\n' "$out" | tail -n 2
# The answer is the command's last two lines, as the README shows them:
# typeperf's CSV header naming the counter, and its value formatted from the
# pair (processor 0 was idle 0.25 s of the second between them: 75 % busy).
want_header='"(PDH-CSV 4.0) (Coordinated Universal Time)(0)","\\SYNTHETIC\Processor(0)\% Processor Time"'
want_record='"11/22/2026 10:00:00.000","75.000000"'
[ "$(printf '%s\n' "$out" | tail -n 2)" = "$(printf '%s\n%s' "$want_header" "$want_record")" ] ||
  { echo "readme-commands: the first command's last two lines are not the path and 75.000000"; exit 1; }
readme_answer=$(awk '/^"\(PDH-CSV 4.0\)/ {print; getline; print; exit}' README.md)
[ "$readme_answer" = "$(printf '%s\n%s' "$want_header" "$want_record")" ] ||
  { echo "readme-commands: the README does not show the answer the command prints"; exit 1; }
echo "readme-commands: the README's build-and-decode command works"
