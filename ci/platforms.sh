#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The unit tests and the corpus replay on every platform perfbuf supports:
# x86-64 Linux with gcc and with clang, i386 (under qemu-i386), big-endian
# s390x (under qemu-s390x), and x86-64 Windows (mingw-w64, under Wine with
# the wine server kept alive). Warnings are errors everywhere.
set -euo pipefail
cd "$(dirname "$0")/.."

# One wine server for the whole run, so each test does not pay its start.
export WINEDEBUG=-all
export WINEPREFIX=${WINEPREFIX:-$HOME/.wine-perfbuf}
if command -v wineserver >/dev/null; then
  wineserver -p >/dev/null 2>&1 || true
  # Start the prefix's services now, detached from our output: started by
  # the first test instead, they would inherit that test's output pipe and
  # ctest would wait for it for ever.
  wine wineboot </dev/null >/dev/null 2>&1 || true
  # The server and Wine's services inherit our output: stop them at the end,
  # or whoever reads this script's output waits for ever.
  trap 'wineserver -k >/dev/null 2>&1 || true' EXIT
fi

summary=()
run() {
  local name=$1; shift
  local dir="build/platform-$name"
  local start=$SECONDS
  echo "== $name"
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPERFBUF_WERROR=ON "$@" >/dev/null
  cmake --build "$dir" -j2
  local out
  if ! out=$(ctest --test-dir "$dir" --output-on-failure 2>&1); then
    echo "$out"
    echo "platforms: $name FAILED"
    exit 1
  fi
  local line
  line=$(echo "$out" | grep -E "tests passed" || true)
  summary+=("$name: $line ($((SECONDS - start)) s)")
  echo "$line"
}

# PLATFORMS_HOST=0 leaves out the two x86-64 builds: .ci/run sets it, since
# ci/test.sh has built and tested exactly these (Release, -Werror, gcc and
# clang-14, build/release-*) just before.
if [ "${PLATFORMS_HOST:-1}" != 0 ]; then
  CC=gcc run linux-x86_64-gcc
  CC=clang-14 run linux-x86_64-clang
fi
run linux-i386 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-i386.cmake
run linux-s390x -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-s390x.cmake
run windows-x86_64 -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake

echo
for line in "${summary[@]}"; do echo "platforms: $line"; done
