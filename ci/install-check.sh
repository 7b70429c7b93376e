#!/usr/bin/env bash
# Installs perfbuf (static and shared) into a temporary prefix and builds
# the example consumer against it both ways: find_package and pkg-config.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
capture=corpus/captures/wine-8.0/v2-query-processor-information.bin

for kind in static shared; do
  shared=OFF
  [ "$kind" = shared ] && shared=ON
  cmake -S . -B "$work/build-$kind" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=$shared \
    -DPERFBUF_BUILD_TESTS=OFF -DPERFBUF_BUILD_TOOLS=OFF -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
  cmake --build "$work/build-$kind" -j2 >/dev/null
  cmake --install "$work/build-$kind" >/dev/null
done
echo "installed:"
(cd "$prefix" && find . -type f | sort | sed 's/^/  /')

echo "== find_package(perfbuf CONFIG)"
cmake -S examples/consumer -B "$work/consumer-cmake" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/consumer-cmake" >/dev/null
LD_LIBRARY_PATH="$prefix/lib" "$work/consumer-cmake/consumer" "$capture"

echo "== pkg-config (examples/consumer/Makefile)"
pcdir=$(ls -d "$prefix"/lib*/pkgconfig | head -n 1)
mkdir -p "$work/consumer-pc"
cp examples/consumer/main.c examples/consumer/Makefile "$work/consumer-pc/"
PKG_CONFIG_PATH="$pcdir" make -s -C "$work/consumer-pc" consumer
LD_LIBRARY_PATH="$(dirname "$pcdir")" "$work/consumer-pc/consumer" "$capture"
echo "install-check: the consumer builds and runs both ways"
