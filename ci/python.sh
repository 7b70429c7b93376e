#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Python package: builds libperfbuf shared (and perfbuf-dump, which the
# tests compare against), its ASan and mingw-w64 builds, the wheel offline (python3-build --no-isolation,
# the library taken from that build), installs the wheel into a fresh venv
# that sees Debian's pytest, and runs the tests against the installed
# package, the ASan run included. Then prints the benchmark line.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
py=/usr/bin/python3
out=build/python
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
cmake -S . -B "$out/mingw" -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
  -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DPERFBUF_BUILD_TESTS=OFF \
  -DPERFBUF_BUILD_TOOLS=OFF >/dev/null
cmake --build "$out/mingw" -j2 >/dev/null

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
  PERFBUF_WINDOWS_DLL="$repo/$out/mingw/libperfbuf.dll" WINEPREFIX="${WINEPREFIX:-$HOME/.wine-perfbuf}" \
  venv/bin/python -m pytest -q -p no:cacheprovider "$repo/python/tests" || rc=$?
if [ "$rc" -eq 5 ]; then
  echo "python: pytest collected no tests: the test folder is missing or broken" >&2
  exit 1
elif [ "$rc" -ne 0 ]; then
  echo "python: pytest failed (exit $rc)" >&2
  exit "$rc"
fi
venv/bin/python "$repo/python/bench.py" --repo "$repo" --library "$repo/$out/shared/libperfbuf.so"
