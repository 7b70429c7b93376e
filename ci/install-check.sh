#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Installs perfbuf (static and shared) into a temporary prefix and builds
# the example consumer and the example collectors (V1 and V2) against it
# both ways: find_package and pkg-config. Each collector build runs on the
# bundled captures and must print the values worked out below.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
capture=corpus/captures/wine-8.0/v2-query-processor-information.bin
synthetic=corpus/captures/synthetic
older=$synthetic/v1-synthetic-processor-0.bin
newer=$synthetic/v1-synthetic-processor-1.bin
english=$synthetic/v1-names-synthetic-counter-009.bin
documented=corpus/captures/documented/v1-documented-global-1.bin
# What examples/collector must print for the synthetic pair, worked out from
# docs/synthetic.md: the captures are 10,000,000 units of 100 ns apart.
# Process (PERF_100NSEC_TIMER) is 100 * busy delta / 10,000,000: busy deltas
# 0, 1,500,000 and 500,000 give 0, 15 and 5; the second svchost is #1.
# Processor (PERF_100NSEC_TIMER_INV) is 100 * (1 - idle delta / 10,000,000):
# _Total's idle delta 5,750,000 gives 42.5. No process exits.
collector_expected='Idle 0.000 PERFBUF_CSTATUS_VALID_DATA
svchost 15.000 PERFBUF_CSTATUS_VALID_DATA
svchost#1 5.000 PERFBUF_CSTATUS_VALID_DATA
_Total 42.500 PERFBUF_CSTATUS_VALID_DATA'
series=corpus/captures/series
collector_series_expected='Idle 50.000 PERFBUF_CSTATUS_VALID_DATA
svchost 60.000 PERFBUF_CSTATUS_VALID_DATA
notepad 5.000 PERFBUF_CSTATUS_VALID_DATA
cmd 30.000 PERFBUF_CSTATUS_VALID_DATA
_Total 40.000 PERFBUF_CSTATUS_VALID_DATA
exited: svchost#1'
run_collector() {
  local bin=$1 libdir=$2 out err rc=0
  out=$(LD_LIBRARY_PATH="$libdir" "$bin" "$older" "$newer" "$english")
  echo "$out"
  if [ "$out" != "$collector_expected" ]; then
    echo "install-check: $bin printed the above, not:"; echo "$collector_expected"; exit 1
  fi
  # Over the series (corpus/captures/series/README.md), captures 1 and 2:
  # PID 812 exits, and PDH's key moves 1044 onto its sample (60 %); the
  # key that has no partner any more, svchost#1, is listed as exited.
  out=$(LD_LIBRARY_PATH="$libdir" "$bin" "$series/v1-series-1.bin" "$series/v1-series-2.bin" \
    "$series/v1-names-series-counter-009.bin")
  echo "$out"
  if [ "$out" != "$collector_series_expected" ]; then
    echo "install-check: $bin printed the above, not:"; echo "$collector_series_expected"; exit 1
  fi
  # Captures of two computers (DOCUMENTED, then SYNTHETIC) are not one
  # query's: exit 1, the file and MACHINE_CHANGED at the name's offset.
  err=$(LD_LIBRARY_PATH="$libdir" "$bin" "$documented" "$newer" "$english" 2>&1 >/dev/null) || rc=$?
  echo "$err"
  if [ "$rc" != 1 ] || [[ "$err" != *"$newer: at 88: PERFBUF_E_MACHINE_CHANGED"* ]]; then
    echo "install-check: $bin should refuse a capture of another computer (exit $rc)"; exit 1
  fi
  rc=0
  # A table given as a capture is rejected: exit 1, the file and the reason.
  err=$(LD_LIBRARY_PATH="$libdir" "$bin" "$english" "$newer" "$english" 2>&1 >/dev/null) || rc=$?
  echo "$err"
  if [ "$rc" != 1 ] || [[ "$err" != *"$english: at 0: PERFBUF_E_BAD_SIGNATURE"* ]]; then
    echo "install-check: $bin should reject a table given as a capture (exit $rc)"; exit 1
  fi
}

# What examples/collector_v2 must print for the documented V2 pair
# (corpus/captures/documented/README.md): Processor Information's
# % Processor Time (PERF_100NSEC_TIMER_INV) is 75, 25 and 50 for 0,0, 0,1
# and 0,_Total, 50 for _Total; % Processor Utility (PERF_AVERAGE_BULK over
# % Utility Base) is 5,000 / 100 = 50 for _Total. No instance exits.
v2dir=corpus/captures/documented
v2_args=("$v2dir/v2-query-documented-processor-information-0.bin"
         "$v2dir/v2-query-documented-processor-information-1.bin"
         "$v2dir/v2-reginfo-documented-processor-information.bin"
         "$v2dir/v2-names-documented-processor-information.bin")
collector_v2_expected='0,0 75.000 PERFBUF_CSTATUS_VALID_DATA
0,1 25.000 PERFBUF_CSTATUS_VALID_DATA
0,_Total 50.000 PERFBUF_CSTATUS_VALID_DATA
_Total 50.000 PERFBUF_CSTATUS_VALID_DATA
_Total 50.000 PERFBUF_CSTATUS_VALID_DATA'
run_collector_v2() {
  local bin=$1 libdir=$2 out err rc=0
  out=$(LD_LIBRARY_PATH="$libdir" "$bin" "${v2_args[@]}")
  echo "$out"
  if [ "$out" != "$collector_v2_expected" ]; then
    echo "install-check: $bin printed the above, not:"; echo "$collector_v2_expected"; exit 1
  fi
  # A V1 block given to the V2 query is the other format: exit 1, the file
  # and BAD_SIGNATURE at offset 0.
  err=$(LD_LIBRARY_PATH="$libdir" "$bin" "$documented" "${v2_args[@]:1}" 2>&1 >/dev/null) || rc=$?
  echo "$err"
  if [ "$rc" != 1 ] || [[ "$err" != *"$documented: at 0: PERFBUF_E_BAD_SIGNATURE"* ]]; then
    echo "install-check: $bin should reject a V1 block given as V2 query data (exit $rc)"; exit 1
  fi
}

for kind in static shared; do
  shared=OFF
  [ "$kind" = shared ] && shared=ON
  # Configured for the default prefix and placed elsewhere with --prefix, as
  # packagers and users do: the installed files must not depend on the
  # prefix they were configured with.
  cmake -S . -B "$work/build-$kind" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=$shared \
    -DPERFBUF_BUILD_TESTS=OFF -DPERFBUF_BUILD_TOOLS=OFF >/dev/null
  cmake --build "$work/build-$kind" -j2 >/dev/null
  cmake --install "$work/build-$kind" --prefix "$prefix" >/dev/null
done
echo "installed:"
(cd "$prefix" && find . \( -type f -o -type l \) | sort | sed 's/^/  /')

# Which libperfbuf a consumer binary loads at run time, if any.
# grep without -q reads all of readelf's output: an early exit would kill
# readelf with SIGPIPE and, under pipefail, fail the check for nothing.
needs_shared() { readelf -d "$1" | grep 'NEEDED.*libperfbuf' >/dev/null; }
check_linkage() {
  local bin=$1 kind=$2
  if [ "$kind" = shared ] && ! needs_shared "$bin"; then
    echo "install-check: $bin should load libperfbuf.so"; exit 1
  fi
  if [ "$kind" = static ] && needs_shared "$bin"; then
    echo "install-check: $bin should hold libperfbuf.a, not load libperfbuf.so"; exit 1
  fi
}

for kind in static shared; do
  shared=OFF
  [ "$kind" = shared ] && shared=ON
  echo "== find_package(perfbuf CONFIG), $kind (perfbuf_SHARED_LIBS=$shared)"
  cmake -S examples/consumer -B "$work/consumer-cmake-$kind" -DCMAKE_PREFIX_PATH="$prefix" \
    -Dperfbuf_SHARED_LIBS=$shared >/dev/null
  cmake --build "$work/consumer-cmake-$kind" >/dev/null
  check_linkage "$work/consumer-cmake-$kind/consumer" $kind
  LD_LIBRARY_PATH="$prefix/lib" "$work/consumer-cmake-$kind/consumer" "$capture"
  echo "== examples/collector, find_package, $kind"
  cmake -S examples/collector -B "$work/collector-cmake-$kind" -DCMAKE_PREFIX_PATH="$prefix" \
    -Dperfbuf_SHARED_LIBS=$shared >/dev/null
  cmake --build "$work/collector-cmake-$kind" >/dev/null
  check_linkage "$work/collector-cmake-$kind/collector" $kind
  run_collector "$work/collector-cmake-$kind/collector" "$prefix/lib"
  echo "== examples/collector_v2, find_package, $kind"
  cmake -S examples/collector_v2 -B "$work/collector_v2-cmake-$kind" -DCMAKE_PREFIX_PATH="$prefix" \
    -Dperfbuf_SHARED_LIBS=$shared >/dev/null
  cmake --build "$work/collector_v2-cmake-$kind" >/dev/null
  check_linkage "$work/collector_v2-cmake-$kind/collector_v2" $kind
  run_collector_v2 "$work/collector_v2-cmake-$kind/collector_v2" "$prefix/lib"
done

pcdirs=("$prefix"/lib*/pkgconfig)
pcdir=${pcdirs[0]}
libdir=$(dirname "$pcdir")
# The moved install's .pc names the folder it was placed in, not the
# configured /usr/local (compared after resolving both).
pc_prefix=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=prefix perfbuf)
if [ "$(realpath "$pc_prefix")" != "$(realpath "$prefix")" ]; then
  echo "install-check: perfbuf.pc's prefix is $pc_prefix, not the install's $prefix"; exit 1
fi
for kind in shared static; do
  echo "== pkg-config (examples/consumer/Makefile), $kind"
  mkdir -p "$work/consumer-pc-$kind"
  cp examples/consumer/main.c examples/consumer/Makefile "$work/consumer-pc-$kind/"
  if [ "$kind" = shared ]; then
    PKG_CONFIG_PATH="$pcdir" make -s -C "$work/consumer-pc-$kind" consumer
  else
    # With both libraries in one directory, -lperfbuf links the shared one;
    # the GNU linker's -Bstatic asks for the archive instead.
    PKG_CONFIG_PATH="$pcdir" make -s -C "$work/consumer-pc-$kind" consumer \
      LDLIBS="-Wl,-Bstatic $(PKG_CONFIG_PATH="$pcdir" pkg-config --libs --static perfbuf) -Wl,-Bdynamic"
  fi
  check_linkage "$work/consumer-pc-$kind/consumer" $kind
  LD_LIBRARY_PATH="$libdir" "$work/consumer-pc-$kind/consumer" "$capture"
  echo "== pkg-config (examples/collector/Makefile), $kind"
  mkdir -p "$work/collector-pc-$kind"
  cp examples/collector/main.c examples/collector/Makefile "$work/collector-pc-$kind/"
  if [ "$kind" = shared ]; then
    PKG_CONFIG_PATH="$pcdir" make -s -C "$work/collector-pc-$kind" collector
  else
    PKG_CONFIG_PATH="$pcdir" make -s -C "$work/collector-pc-$kind" collector \
      LDLIBS="-Wl,-Bstatic $(PKG_CONFIG_PATH="$pcdir" pkg-config --libs --static perfbuf) -Wl,-Bdynamic"
  fi
  check_linkage "$work/collector-pc-$kind/collector" $kind
  run_collector "$work/collector-pc-$kind/collector" "$libdir"
  echo "== pkg-config (examples/collector_v2/Makefile), $kind"
  mkdir -p "$work/collector_v2-pc-$kind"
  cp examples/collector_v2/main.c examples/collector_v2/Makefile "$work/collector_v2-pc-$kind/"
  if [ "$kind" = shared ]; then
    PKG_CONFIG_PATH="$pcdir" make -s -C "$work/collector_v2-pc-$kind" collector_v2
  else
    PKG_CONFIG_PATH="$pcdir" make -s -C "$work/collector_v2-pc-$kind" collector_v2 \
      LDLIBS="-Wl,-Bstatic $(PKG_CONFIG_PATH="$pcdir" pkg-config --libs --static perfbuf) -Wl,-Bdynamic"
  fi
  check_linkage "$work/collector_v2-pc-$kind/collector_v2" $kind
  run_collector_v2 "$work/collector_v2-pc-$kind/collector_v2" "$libdir"
done
echo "install-check: the consumer and both collectors build and run against the static and the shared library, with find_package and with pkg-config"
