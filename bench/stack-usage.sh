#!/usr/bin/env bash
# The largest stack frames of the library's functions, from gcc's
# -fstack-usage (release flags). The target is 512 bytes at most.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for src in src/*.c; do
  gcc -std=c11 -O2 -fstack-usage -Iinclude -Isrc -c "$src" -o "$work/$(basename "$src" .c).o"
done
echo "largest stack frames of libperfbuf (bytes, function, kind):"
cat "$work"/*.su | awk -F'\t' '{print $2 "\t" $1 "\t" $3}' | sort -rn | head -n 10 | sed 's/^/  /'
largest=$(cat "$work"/*.su | awk -F'\t' '{print $2}' | sort -rn | head -n 1)
dynamic=$(cat "$work"/*.su | awk -F'\t' '$3 != "static"' | wc -l)
echo "largest frame: $largest bytes (target <= 512); functions with non-static frames: $dynamic"
