#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs the first command of the README's opening block (build, then decode the
# bundled synthetic pair) and checks that it showed names and formatted
# values. The second command, the test workflow, is run by ci/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
block=$(awk '/^```sh$/ {inside = 1; next} inside && /^```$/ {exit} inside {print}' README.md)
first=$(printf '%s\n' "$block" | sed -n 1p)
second=$(printf '%s\n' "$block" | sed -n 2p)
[ "$second" = "cmake --workflow --preset test" ] ||
  { echo "readme-commands: the README's second command is not the test workflow ci/test.sh runs: $second"; exit 1; }
echo "readme-commands: $first"
out=$(bash -c "$first")
printf '%s\n' "$out" | tail -n 6
# Objects and counters named, instances listed, and a value formatted from
# the pair: processor 0 was idle 0.25 s of the second between them, so 75 % busy.
for want in 'name: "Processor"' 'name: "% Processor Time"' 'name: "_Total"' '"75.000000"'; do
  [[ "$out" == *"$want"* ]] ||
    { echo "readme-commands: the first command's output lacks $want"; exit 1; }
done
echo "readme-commands: the README's build-and-decode command works"
