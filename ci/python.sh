#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Python package: builds libperfbuf shared (and perfbuf-dump, which the
# tests compare against), its ASan and mingw-w64 builds, the wheel offline (python3-build --no-isolation,
# the library taken from that build), installs the wheel into a fresh venv
# that sees Debian's pytest, and runs the tests against the installed
# package, the ASan run included. Then prints the benchmark line.
#
# What it needs, and installs when missing (ci/apt-needs.sh: apt-get, as root
# or through sudo): cmake make gcc and Debian's python3 with python3-build
# python3-setuptools python3-wheel python3-venv python3-pytest. The Windows
# checks (python/tests/test_windows.py) need mingw-w64 and Wine
# (gcc-mingw-w64-x86-64 wine64 wine): without them they are skipped, and the
# script says so, except in CI (CI=true), where they are installed and never
# skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
# Debian's interpreter, whatever python3 comes first on PATH: the python3-*
# packages install their modules for it alone (python/install.sh).
py=/usr/bin/python3
out=build/python
bash ci/apt-needs.sh python cmake make gcc python3 python3-build python3-setuptools \
  python3-wheel python3-venv python3-pytest
windows=yes
if ! command -v x86_64-w64-mingw32-gcc >/dev/null || ! { command -v wine64 || command -v wine; } >/dev/null; then
  if [ "${CI:-}" = true ]; then
    bash ci/apt-needs.sh python gcc-mingw-w64-x86-64 wine64 wine
  else
    windows=no
    echo "python: SKIPPING the Windows checks (python/tests/test_windows.py): mingw-w64 or Wine is" \
      "missing; apt-get install gcc-mingw-w64-x86-64 wine64 wine adds them (with CI=true they are installed, never skipped)"
  fi
fi
rm -rf "$out/dist" "$out/venv" python/build/lib python/build/bdist.* python/perfbuf.egg-info

cmake -S . -B "$out/shared" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
  -DPERFBUF_BUILD_TESTS=OFF -DPERFBUF_BUILD_TOOLS=ON >/dev/null
cmake --build "$out/shared" -j2 >/dev/null
# The library under AddressSanitizer and UBSan, for tests/test_asan.py.
cmake -S . -B "$out/asan" -DCMAKE_BUILD_TYPE=Debug -DBUILD_SHARED_LIBS=ON \
  -DPERFBUF_BUILD_TESTS=OFF -DPERFBUF_BUILD_TOOLS=OFF \
  "-DCMAKE_C_FLAGS=-fsanitize=address,undefined -fno-omit-frame-pointer" \
  "-DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=address,undefined" >/dev/null
cmake --build "$out/asan" -j2 >/dev/null
# The Windows DLL (mingw-w64), for tests/test_windows.py: its exports, and the
# struct layout the mingw compiler gives, run under Wine.
windows_dll=
if [ "$windows" = yes ]; then
  cmake -S . -B "$out/mingw" -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
    -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DPERFBUF_BUILD_TESTS=OFF \
    -DPERFBUF_BUILD_TOOLS=OFF >/dev/null
  cmake --build "$out/mingw" -j2 >/dev/null
  windows_dll="$repo/$out/mingw/libperfbuf.dll"
fi

(cd python && PERFBUF_PREBUILT="$repo/$out/shared/libperfbuf.so" \
  "$py" -m build --wheel --no-isolation --outdir "$repo/$out/dist" >/dev/null)
wheel=$(ls "$out"/dist/perfbuf-*.whl)
echo "python: built $wheel"
"$py" -m venv --system-site-packages "$out/venv"
"$out/venv/bin/python" -m pip install --no-index --no-deps --quiet "$wheel"

# Run from outside python/ so that `import perfbuf` is the installed wheel,
# with the library it carries (PERFBUF_LIBRARY unset).
cd "$out"
unset PERFBUF_LIBRARY
venv/bin/python - <<'PY'
import perfbuf, os
assert "site-packages" in perfbuf.__file__, perfbuf.__file__
assert os.path.exists(os.path.join(os.path.dirname(perfbuf.__file__), "libperfbuf.so"))
print("python: perfbuf %s from %s" % (perfbuf.version(), os.path.dirname(perfbuf.__file__)))
PY
rc=0
PERFBUF_SOURCE="$repo" PERFBUF_DUMP="$repo/$out/shared/tools/perfbuf-dump" \
  PERFBUF_ASAN_LIBRARY="$repo/$out/asan/libperfbuf.so" PERFBUF_ASAN_SECONDS=60 \
  PERFBUF_WINDOWS_DLL="$windows_dll" WINEPREFIX="${WINEPREFIX:-$HOME/.wine-perfbuf}" \
  venv/bin/python -m pytest -q -p no:cacheprovider "$repo/python/tests" || rc=$?
if [ "$rc" -eq 5 ]; then
  echo "python: pytest collected no tests: the test folder is missing or broken" >&2
  exit 1
elif [ "$rc" -ne 0 ]; then
  echo "python: pytest failed (exit $rc)" >&2
  exit "$rc"
fi
venv/bin/python "$repo/python/bench.py" --repo "$repo" --library "$repo/$out/shared/libperfbuf.so"
