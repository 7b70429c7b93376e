#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs the first command of the README's opening block (build, then decode a
# bundled capture) and checks that it decoded the capture. The second command,
# the test workflow, is run by ci/test.sh.
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
[[ "$out" == *'format: "v1"'* && "$out" == *'system_name: "VM"'* ]] ||
  { echo "readme-commands: the first command did not decode the bundled capture"; exit 1; }
echo "readme-commands: the README's build-and-decode command works"
