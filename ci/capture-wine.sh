#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Cross-compiles perfbuf-capture with mingw-w64, runs it under Wine into a
# temporary folder, and checks that it wrote the buffers
# corpus/captures/README.md describes, and a manifest that agrees with them.
#
#   ci/capture-wine.sh [PERFBUF_DUMP]
#
# With the path of a perfbuf-dump built for this host, every buffer written is
# also decoded, with the format its file name gives (docs/capture.md) or
# --format auto: a buffer it rejects fails the run, one whose format it does
# not recognise is reported and skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
dump=${1:-}

export WINEDEBUG=-all
export WINEPREFIX=${WINEPREFIX:-$HOME/.wine-perfbuf}
# A wine server that outlives each run (and goes away 10 s after the last),
# started away from our output: Wine's server and services keep the
# descriptors they inherit, and whoever reads our output would wait for them.
wineserver -p10 </dev/null >/dev/null 2>&1 || true
wine wineboot </dev/null >/dev/null 2>&1 || true

build=build/capture-mingw
cmake -S . -B "$build" -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
  -DCMAKE_BUILD_TYPE=Release -DPERFBUF_WERROR=ON -DPERFBUF_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" --target perfbuf-capture -j2

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cap="$out/capture"
status=0
wine "$build/tools/capture/perfbuf-capture.exe" "Z:${cap//\//\\}" --object 238 --object 230 \
  </dev/null >"$out/log" 2>&1 || status=$?
sed 's/^/  /' "$out/log"
if [ "$status" -ne 0 ]; then
  echo "capture-wine: perfbuf-capture exited with $status"
  exit 1
fi

fail=0
problem() {
  echo "capture-wine: $*"
  fail=1
}
u32() { od -An -tu4 --endian=little -j "$2" -N4 "$cap/$1" | tr -d ' '; }
u64() { od -An -tu8 --endian=little -j "$2" -N8 "$cap/$1" | tr -d ' '; }
size() { stat -c %s "$cap/$1"; }

for f in manifest.txt v1-global.bin v1-costly.bin v1-object-238.bin v1-object-230.bin \
  v1-names-counter-009.bin v1-names-help-009.bin; do
  [ -s "$cap/$f" ] || problem "$f is missing"
done
[ "$fail" -eq 0 ] || { ls -la "$cap"; exit 1; }

# The manifest: the OS version once, and one line per file with its size.
grep -q '^# os ' "$cap/manifest.txt" || problem "the manifest does not give the OS version"
while IFS=$'\t' read -r file call args code name bytes; do
  bytes=${bytes%$'\r'}
  case "$file" in '#'* | '-') continue ;; esac
  if [ ! -f "$cap/$file" ]; then
    problem "the manifest lists $file, which is not there"
  elif [ "$(size "$file")" != "$bytes" ]; then
    problem "$file has $(size "$file") bytes, the manifest says $bytes ($call)"
  fi
done <"$cap/manifest.txt"
for path in "$cap"/*.bin; do
  grep -q "^$(basename "$path")"$'\t' "$cap/manifest.txt" ||
    problem "$(basename "$path") is not in the manifest"
done

# A PERF_DATA_BLOCK with no object: signature, LittleEndian, Version,
# Revision 1, TotalByteLength and HeaderLength both the file's size, the
# system name right after the 88-byte header and padded to 8 bytes. Wine
# names the computer after the host: `VM` makes the 96 bytes of the README.
v1_block() {
  local f=$1 n
  [[ "$(od -An -tx1 -N8 "$cap/$f")" == *"50 00 45 00 52 00 46 00"* ]] ||
    { problem "$f has no PERF signature"; return; }
  [ "$(u32 "$f" 8)-$(u32 "$f" 12)-$(u32 "$f" 16)" = 1-1-1 ] ||
    problem "$f: LittleEndian, Version, Revision are not 1, 1, 1"
  [ "$(u32 "$f" 20)" = "$(size "$f")" ] || problem "$f: TotalByteLength is not the file's size"
  [ "$(u32 "$f" 24)" = "$(size "$f")" ] || problem "$f: HeaderLength is not the file's size"
  [ "$(u32 "$f" 28)" = 0 ] || problem "$f: Wine returned objects (NumObjectTypes $(u32 "$f" 28))"
  [ "$(u64 "$f" 64)" = 10000000 ] || problem "$f: PerfFreq is not 10,000,000"
  n=$(u32 "$f" 80)
  [ "$(u32 "$f" 84)" = 88 ] || problem "$f: the system name is not at offset 88"
  [ "$(((88 + n + 7) / 8 * 8))" = "$(size "$f")" ] ||
    problem "$f: $(size "$f") bytes for a $n-byte system name"
}
for f in v1-global.bin v1-costly.bin v1-object-238.bin v1-object-230.bin; do
  v1_block "$f"
done
echo "capture-wine: v1-global.bin is a $(size v1-global.bin)-byte PERF_DATA_BLOCK"

# The name tables do not depend on the host: Wine writes the committed bytes.
for f in v1-names-counter-009.bin v1-names-help-009.bin; do
  cmp -s "$cap/$f" "corpus/captures/wine-8.0/$f" ||
    problem "$f differs from corpus/captures/wine-8.0/$f"
done

# Wine has no counterset list, so Processor Information is queried: a bare
# 48-byte PERF_DATA_HEADER each time.
for sample in 0 1; do
  f="v2-query-{b4fc721a-0378-476f-89ba-a5a79f810b36}-$sample.bin"
  if [ ! -f "$cap/$f" ]; then
    problem "$f is missing"
    continue
  fi
  [ "$(size "$f")" = 48 ] || problem "$f has $(size "$f") bytes, not 48"
  [ "$(u32 "$f" 0)" = 48 ] || problem "$f: dwTotalSize is $(u32 "$f" 0), not 48"
  [ "$(u32 "$f" 4)" = 0 ] || problem "$f: dwNumCounters is $(u32 "$f" 4), not 0"
  [ "$(u64 "$f" 24)" = 10000000 ] || problem "$f: PerfFreq is not 10,000,000"
done
grep -q $'^-\tPerfEnumerateCounterSet\t.*\t127\t' "$cap/manifest.txt" ||
  grep -q $'^v2-countersets.bin\t' "$cap/manifest.txt" ||
  problem "the manifest says nothing of PerfEnumerateCounterSet"
[ "$fail" -eq 0 ] || exit 1

if [ -z "$dump" ]; then
  echo "capture-wine: no perfbuf-dump given: buffers not decoded"
elif [ ! -x "$dump" ]; then
  echo "capture-wine: $dump is not an executable: buffers not decoded"
else
  # The perfbuf-dump format of each file perfbuf-capture writes.
  format_of() {
    case $1 in
      v2-countersets.bin) echo v2-countersets ;;
      v2-reginfo-*) echo v2-reginfo ;;
      v2-strings-[3479]-*) echo v2-string ;;
      v2-strings-5-* | v2-strings-6-* | v2-strings-10-*) echo v2-strings ;;
      v2-strings-8-*) echo v2-provider-guid ;;
      v2-instances-*) echo v2-instances ;;
      v2-counterinfo-*) echo v2-identifiers ;;
      *) echo auto ;;
    esac
  }
  decoded=0
  skipped=0
  for path in "$cap"/*.bin; do
    f=$(basename "$path")
    rc=0
    "$dump" --format "$(format_of "$f")" "$path" >"$out/dump.txt" 2>&1 || rc=$?
    case $rc in
      0) decoded=$((decoded + 1)) ;;
      2) skipped=$((skipped + 1))
         echo "capture-wine: perfbuf-dump does not take $f: $(head -n1 "$out/dump.txt")" ;;
      *) problem "perfbuf-dump rejected $f (exit $rc):"
         sed 's/^/  /' "$out/dump.txt" ;;
    esac
  done
  echo "capture-wine: perfbuf-dump decoded $decoded buffers, skipped $skipped"
fi
[ "$fail" -eq 0 ] || exit 1
echo "capture-wine: perfbuf-capture wrote $(ls "$cap" | wc -l) files; manifest:"
sed 's/^/  /' "$cap/manifest.txt"
