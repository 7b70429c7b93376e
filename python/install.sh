#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Python package on a Debian 12 machine, offline, each step said as it
# is taken:
#   1. the Debian packages it needs (cmake make gcc python3 python3-build
#      python3-setuptools python3-wheel python3-venv), installed with apt-get
#      when one is missing, as root or through sudo (ci/apt-needs.sh);
#   2. libperfbuf.so, built by CMake in build/shared (Release, shared, no tests);
#   3. the wheel in python/dist, built by Debian's interpreter with
#      python3-build and --no-isolation, so nothing is fetched from a package
#      index;
#   4. a venv in build/venv on that interpreter (--system-site-packages, so
#      that it sees Debian's python3-pytest for ci/python.sh), the wheel
#      installed in it (--no-index);
#   5. an example run in it: examples/python/rate.py.
#
# The interpreter is Debian's, /usr/bin/python3, whatever python3 comes first
# on PATH: the python3-* packages install their modules for that interpreter
# alone, so a pyenv or venv python3 ahead of it on PATH does not see them
# ("No module named build"). PERFBUF_PYTHON names another interpreter that
# has build, setuptools, wheel and venv (on another system, say).
#
#   bash python/install.sh        (from the repository's top folder or anywhere)
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "python/install.sh: $*"; }

python=${PERFBUF_PYTHON:-/usr/bin/python3}
if [ -z "${PERFBUF_PYTHON:-}" ]; then
  bash ci/apt-needs.sh "python/install.sh: 1. Debian packages" \
    cmake make gcc python3 python3-build python3-setuptools python3-wheel python3-venv
else
  say "1. the interpreter named by PERFBUF_PYTHON: $python (no Debian package installed)"
fi
[ -x "$python" ] || { say "$python is not an executable interpreter"; exit 1; }
"$python" -c 'import build, setuptools, wheel, venv' 2>/dev/null ||
  { say "$python lacks one of build, setuptools, wheel, venv"; exit 1; }
first=$(command -v python3 || echo none)
say "   the interpreter: $python ($("$python" --version 2>&1)); python3 first on PATH: $first"

say "2. libperfbuf.so: cmake in build/shared (Release, BUILD_SHARED_LIBS=ON, PERFBUF_BUILD_TESTS=OFF)"
cmake -S . -B build/shared -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
  -DPERFBUF_BUILD_TESTS=OFF >/dev/null
cmake --build build/shared -j2 >/dev/null

say "3. the wheel: $python -m build --wheel --no-isolation, in python/dist"
rm -rf python/dist python/build/lib python/build/bdist.* python/perfbuf.egg-info
(cd python && PERFBUF_PREBUILT="$PWD/../build/shared/libperfbuf.so" \
  "$python" -m build --wheel --no-isolation >/dev/null)
wheel=$(ls python/dist/perfbuf-*.whl)
say "   built $wheel"

say "4. the venv: build/venv ($python -m venv --system-site-packages), the wheel installed in it"
rm -rf build/venv
"$python" -m venv --system-site-packages build/venv
build/venv/bin/python -m pip install --no-index --no-deps --quiet "$wheel"

say "5. an example: build/venv/bin/python examples/python/rate.py"
build/venv/bin/python examples/python/rate.py
say "done: build/venv/bin/python has perfbuf (build/venv/bin/python -m perfbuf FILE decodes a capture)"
