#!/usr/bin/env bash
# Builds perfbuf-capture with mingw-w64, runs it under Wine, checks that it
# wrote the buffers corpus/captures/README.md describes and a manifest, and
# decodes every buffer it wrote with perfbuf-dump (built here for Linux).
set -euo pipefail
cd "$(dirname "$0")/.."
export WINEDEBUG=-all
export WINEPREFIX=${WINEPREFIX:-$HOME/.wine-perfbuf}
wineserver -p >/dev/null 2>&1 || true
# Start the prefix's services now, detached from our output (see platforms.sh).
wine wineboot </dev/null >/dev/null 2>&1 || true

cmake -S . -B build/capture-mingw -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
  -DCMAKE_BUILD_TYPE=Release -DPERFBUF_WERROR=ON -DPERFBUF_BUILD_TESTS=OFF >/dev/null
cmake --build build/capture-mingw --target perfbuf-capture -j2
cmake -S . -B build/capture-dump -DCMAKE_BUILD_TYPE=Release -DPERFBUF_BUILD_TESTS=OFF >/dev/null
cmake --build build/capture-dump --target perfbuf-dump -j2
dump=build/capture-dump/tools/perfbuf-dump

out=$(mktemp -d)
# Wine's server and services inherit our output: stop them at the end, or
# whoever reads this script's output waits for ever.
trap 'rm -rf "$out"; wineserver -k >/dev/null 2>&1 || true' EXIT
wine build/capture-mingw/tools/capture/perfbuf-capture.exe "Z:${out//\//\\}" --object 238

fail=0
expect() {
  if [ ! -s "$out/$1" ]; then
    echo "capture-wine: $1 is missing"
    fail=1
  fi
}
expect manifest.txt
expect v1-global.bin
expect v1-object-238.bin
expect v1-names-counter-009.bin
expect "v2-query-{b4fc721a-0378-476f-89ba-a5a79f810b36}-0.bin"
[ "$fail" -eq 0 ] || { ls -la "$out"; exit 1; }

# The shapes the README records: a PERF_DATA_BLOCK, the name table, a
# 48-byte PERF_DATA_HEADER whose dwTotalSize says 48.
head -c 8 "$out/v1-global.bin" | od -An -tx1 | grep -q "50 00 45 00 52 00 46 00" ||
  { echo "capture-wine: v1-global.bin has no PERF signature"; exit 1; }
query="$out/v2-query-{b4fc721a-0378-476f-89ba-a5a79f810b36}-0.bin"
[ "$(stat -c %s "$query")" = 48 ] || { echo "capture-wine: the V2 query is not 48 bytes"; exit 1; }
cmp -s "$out/v1-names-counter-009.bin" corpus/captures/wine-8.0/v1-names-counter-009.bin ||
  { echo "capture-wine: the Counter table differs from the committed capture"; exit 1; }

decoded=0
for file in "$out"/*.bin; do
  if ! "$dump" "$file" >/dev/null; then
    echo "capture-wine: perfbuf-dump rejected $(basename "$file")"
    exit 1
  fi
  decoded=$((decoded + 1))
done
echo "capture-wine: perfbuf-capture wrote $(ls "$out" | wc -l) files; perfbuf-dump decoded all $decoded buffers"
sed 's/^/  /' "$out/manifest.txt"
