#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# perfbuf-dump --openmetrics read by a real engine (docs/prometheus.md):
# promtool reads the text of every bundled capture, and a Prometheus server
# on 127.0.0.1, started and stopped by ci/prometheus_check.py over a TSDB
# promtool backfills, gives every exported counter of the series, documented,
# synthetic and openmetrics captures the value perfbuf-dump --rate gives.
#
#   ci/prometheus.sh [BUILD]      BUILD: a shared build with perfbuf-dump
#                                 (default build/shared, which ci/test.sh makes)
#
# Debian's prometheus package gives both programs (ci/install-deps.sh). Without
# them the check is skipped with a line saying so, except in CI (CI=true),
# where their absence fails it.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/shared}
for tool in prometheus promtool; do
  if ! command -v "$tool" >/dev/null; then
    if [ "${CI:-}" = "true" ]; then
      echo "prometheus: $tool is missing (ci/install-deps.sh installs the prometheus package)" >&2
      exit 1
    fi
    echo "prometheus: SKIPPED: $tool is not installed (apt-get install prometheus)"
    exit 0
  fi
done
for f in "$build/tools/perfbuf-dump" "$build/libperfbuf.so"; do
  [ -e "$f" ] || { echo "prometheus: $f is missing: build $build first (ci/test.sh)" >&2; exit 2; }
done
PYTHONPATH="$PWD/python" PERFBUF_LIBRARY="$PWD/$build/libperfbuf.so" \
  /usr/bin/python3 ci/prometheus_check.py --dump "$build/tools/perfbuf-dump"
