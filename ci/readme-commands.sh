#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs the first command of the README's opening block (build, then decode the
# bundled synthetic pair) and checks that it printed the counter path and the
# value the README shows. The second command, the test workflow, is run by
# ci/test.sh.
#
# Then the first command of the README's Python block, as written, on a clean
# clone of HEAD (a copy of the tree without build/ when this is not a git
# checkout), with a python3 first on PATH that has none of Debian's build
# modules, as a pyenv or venv interpreter would be: it must build the wheel,
# install it and print the example's answer. The second, ci/python.sh, is run
# by .ci/run.
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

python_block=$(awk '/^## Python$/ {section = 1} section && /^```sh$/ {inside = 1; next}
                    inside && /^```$/ {exit} inside {print}' README.md)
python_first=$(printf '%s\n' "$python_block" | sed -n 1p)
python_second=$(printf '%s\n' "$python_block" | sed -n 2p)
[ "$python_second" = "bash ci/python.sh" ] ||
  { echo "readme-commands: the README's second Python command is not ci/python.sh, which .ci/run runs: $python_second"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git clone --quiet "$PWD" "$work/clone"
else
  mkdir "$work/clone"
  tar -C . --exclude=./build -cf - . | tar -C "$work/clone" -xf -
fi
# A python3 first on PATH without Debian's python3-build: a venv that does
# not see the system's site-packages. The check means something only if it
# really lacks the module (asked from a folder without a build/ of its own,
# which `import build` would find).
/usr/bin/python3 -m venv --without-pip "$work/other-python"
(cd "$work" && PATH="$work/other-python/bin:$PATH" python3 -c 'import build' 2>/dev/null) &&
  { echo "readme-commands: the stand-in python3 sees the build module; the check would prove nothing"; exit 1; }
echo "readme-commands: on a clean clone, python3 first on PATH is $work/other-python/bin/python3 (no build module): $python_first"
py_out=$(cd "$work/clone" && PATH="$work/other-python/bin:$PATH" bash -c "$python_first")
printf '%s\n' "$py_out" | tail -n 4
[[ "$py_out" == *'\Processor(0)\% Processor Time 75.000000'* ]] ||
  { echo "readme-commands: the README's Python command did not print the example's answer"; exit 1; }
echo "readme-commands: the README's Python command works from a clean clone"
