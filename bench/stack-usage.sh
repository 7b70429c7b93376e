#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The largest stack frames of the library's functions, from gcc's
# -fstack-usage (release flags). The target is 512 bytes at most.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for src in src/*/*.c; do
  gcc -std=c11 -O2 -fstack-usage -Iinclude -Isrc -c "$src" -o "$work/$(echo "${src%.c}" | tr / _).o"
done
# One awk pass and no early-closing reader such as `head`: under pipefail,
# a writer killed by SIGPIPE (exit 141) would fail the run for nothing.
cat "$work"/*.su | awk -F'\t' '{print $2 "\t" $1 "\t" $3}' | sort -rn >"$work/frames"
echo "largest stack frames of libperfbuf (bytes, function, kind):"
awk 'NR <= 10 {print "  " $0}' "$work/frames"
largest=$(awk 'NR == 1 {print $1}' "$work/frames")
dynamic=$(awk -F'\t' '$3 != "static"' "$work/frames" | wc -l)
echo "largest frame: $largest bytes (target <= 512); functions with non-static frames: $dynamic"
# A collector may call the library from a thread with a small stack: a frame
# past the target fails the run rather than being printed and forgotten.
if [ "$largest" -gt 512 ]; then
  echo "stack-usage: a frame of $largest bytes passes the 512-byte target" >&2
  exit 1
fi
