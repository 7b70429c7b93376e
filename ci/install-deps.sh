#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Installs what the CI jobs need on a fresh Debian 12 machine.
# Needs root (CI runs as root); does nothing when everything is present.
set -euo pipefail

packages=(
  cmake make gcc pkg-config binutils python3
  clang-14 libclang-rt-14-dev llvm-14          # libFuzzer, sanitizers, coverage
  afl++                                        # the second fuzzing engine
  gcc-12-multilib qemu-user                    # i386 (run under qemu-i386)
  gcc-s390x-linux-gnu libc6-dev-s390x-cross    # big-endian s390x (qemu-s390x)
  gcc-mingw-w64-x86-64 wine64 wine             # Windows x86-64 under Wine
  frama-c-base why3 z3 cvc4                    # proofs of the cursor core
  valgrind
  zip unzip                                    # OSS-Fuzz seed corpora (ci/oss-fuzz-local.sh)
  python3-jsonschema                           # perfbuf-dump --json against its schema (ci/json-schema.sh)
  python3-pytest python3-build python3-venv    # the Python package (ci/python.sh): tests, wheel, venv
  python3-setuptools python3-wheel             # its offline wheel build (--no-isolation)
  prometheus                                   # promtool and the server of ci/prometheus.sh
)

missing=()
for p in "${packages[@]}"; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
