#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Cross-compiles perfbuf-capture with mingw-w64, runs it under Wine into a
# temporary folder, and checks that it wrote the buffers
# corpus/captures/README.md describes, and a manifest that agrees with them;
# that the folder and its files let in nobody but the user (and
# Administrators); that a folder that already exists, or a link in its
# place, is refused with nothing written; and, with fake APIs, that buffer
# growth stays under its cap and its attempt bounds.
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
cmake --build "$build" --target perfbuf-capture perfbuf-capture-acl-check \
  perfbuf-capture-growth-check -j2
tool="$build/tools/capture/perfbuf-capture.exe"
acl_check="$build/tools/capture/perfbuf-capture-acl-check.exe"
winpath() { echo "Z:${1//\//\\}"; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cap="$out/capture"
status=0
wine "$tool" "$(winpath "$cap")" --object 238 --object 230 \
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

# The folder and every file: owned by the user, and a DACL that lets in only
# the user and Administrators. Wine does not keep the descriptor it is given:
# it turns it into Unix permission bits and reports a DACL made from those
# (owner and SYSTEM, plus Everyone when others may read), never protected.
# So under Wine the checker's exact verdict (0) cannot be reached, and its
# "nobody else" verdict (1) is what is asked for; the Unix bits must then
# give other users nothing.
acl_paths=("$(winpath "$cap")")
for path in "$cap"/*; do acl_paths+=("$(winpath "$path")"); done
rc=0
wine "$acl_check" "${acl_paths[@]}" </dev/null >"$out/acl.txt" 2>&1 || rc=$?
case $rc in
  0) echo "capture-wine: folder and files have a protected DACL for the user and Administrators only" ;;
  1) echo "capture-wine: Wine reports DACLs made from Unix permission bits: checked that nobody but the user and SYSTEM is let in"
     for path in "$cap" "$cap"/*; do
       mode=$(stat -c %A "$path")
       [ "${mode:7:3}" = "---" ] || problem "$(basename "$path") is open to other users ($mode)"
     done ;;
  *) problem "the capture's owner or DACL lets others in (checker exit $rc):"
     sed 's/^/  /' "$out/acl.txt" ;;
esac
[ "$fail" -eq 0 ] || exit 1

# An OUTDIR that exists, empty or not, or a link in its place, even one that
# leads nowhere: refused with a non-zero exit, and nothing written anywhere.
refused() {
  local what=$1 target=$2 before after rc=0
  before=$(ls -lAR "$out/refuse" | sort)
  wine "$tool" "$(winpath "$target")" --no-global --max-countersets 0 \
    </dev/null >"$out/refused.log" 2>&1 || rc=$?
  after=$(ls -lAR "$out/refuse" | sort)
  if [ "$rc" -eq 0 ]; then
    problem "$what: accepted (exit 0)"
  elif ! grep -q "nothing written" "$out/refused.log"; then
    problem "$what: exit $rc without saying nothing was written:"
    sed 's/^/  /' "$out/refused.log"
  fi
  [ "$before" = "$after" ] || problem "$what: something was written"
}
mkdir -p "$out/refuse/empty" "$out/refuse/planted" "$out/refuse/elsewhere"
echo secret >"$out/refuse/elsewhere/keep.txt"
ln -s ../elsewhere/manifest.txt "$out/refuse/planted/manifest.txt"
ln -s elsewhere "$out/refuse/link-to-folder"
ln -s nowhere "$out/refuse/dangling"
refused "an existing empty folder" "$out/refuse/empty"
refused "an existing folder with a link planted as manifest.txt" "$out/refuse/planted"
refused "a link to a folder" "$out/refuse/link-to-folder"
refused "a link to nothing" "$out/refuse/dangling"
[ -e "$out/refuse/nowhere" ] && problem "the link to nothing was followed: nowhere was created"
[ "$fail" -eq 0 ] || exit 1
echo "capture-wine: existing folders and links in OUTDIR's place are refused, nothing written"

# No real API asks for 4 GiB or for more without end: fakes do.
rc=0
wine "$build/tools/capture/perfbuf-capture-growth-check.exe" "$(winpath "$out/growth")" \
  </dev/null >"$out/growth.log" 2>&1 || rc=$?
if [ "$rc" -ne 0 ]; then
  problem "buffer growth (exit $rc):"
  sed 's/^/  /' "$out/growth.log"
  exit 1
fi
echo "capture-wine: buffer growth: $(grep -c '^ok' "$out/growth.log") cases hold (64-bit sizes, 64 MiB cap, bounded attempts)"

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
