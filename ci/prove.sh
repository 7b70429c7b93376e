#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Proves the cursor core (src/core/cursor.h) with Frama-C WP: every ACSL contract
# and every run-time-error goal (no overflow, no out-of-bounds access),
# with Z3 and CVC4. Fails on any unproven goal; prints the count proved.
# Then checks that the proof can fail: the same run on a copy with one
# postcondition deliberately broken must report an unproven goal.
# Packages (Debian 12): frama-c-base why3 z3 cvc4 (ci/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in frama-c why3 z3 cvc4; do
  command -v "$tool" >/dev/null || { echo "prove: $tool is missing (apt-get install frama-c-base why3 z3 cvc4)"; exit 2; }
done
# Frama-C finds the provers through why3's configuration.
[ -f "$HOME/.why3.conf" ] || why3 config detect >/dev/null 2>&1

# prove DIR [frama-c options...]: proves DIR/proofs/cursor_proof.c; prints
# the summary; returns 0 only when every goal is proved.
prove() {
  local dir=$1; shift
  local log
  log=$(mktemp)
  frama-c -wp -wp-rte -wp-prover z3,cvc4 -wp-timeout 30 -wp-par 2 \
    -cpp-extra-args="-I$dir/include -I$dir/src" "$@" "$dir/proofs/cursor_proof.c" >"$log" 2>&1 || true
  local summary
  summary=$(grep -E "Proved goals:" "$log" | tail -n 1 || true)
  if [ -z "$summary" ]; then
    cat "$log"
    rm -f "$log"
    return 1
  fi
  echo "$summary"
  grep -E "^\[wp\] \[(Failed|Timeout|Unknown)\]|^\[wp\] .*Goal .*(Timeout|Unknown|Failed)" "$log" | head -n 20 || true
  local proved total
  proved=$(echo "$summary" | sed -E 's/.*Proved goals: *([0-9]+) *\/ *([0-9]+).*/\1/')
  total=$(echo "$summary" | sed -E 's/.*Proved goals: *([0-9]+) *\/ *([0-9]+).*/\2/')
  rm -f "$log"
  [ "$proved" = "$total" ] && [ "$total" -gt 0 ]
}

echo "== the cursor core"
if ! prove "$PWD"; then
  echo "prove: some goals of src/core/cursor.h are not proved"
  exit 1
fi

echo "== a deliberately wrong contract must fail"
broken=$(mktemp -d)
trap 'rm -rf "$broken"' EXIT
mkdir -p "$broken/src/core" "$broken/proofs"
cp -r include "$broken/include"
cp proofs/cursor_proof.c "$broken/proofs/"
# Everything cursor.h includes from src/, so the copy fails only on the
# broken contract, never on a missing header.
cp src/core/work.h "$broken/src/core/"
# read_u16 claims to advance by 3 bytes instead of 2.
sed 's/ensures \\result == \\true \&\& c->pos == \\old(c->pos) + 2;/ensures \\result == \\true \&\& c->pos == \\old(c->pos) + 3;/' \
  src/core/cursor.h >"$broken/src/core/cursor.h"
if cmp -s src/core/cursor.h "$broken/src/core/cursor.h"; then
  echo "prove: the self-test could not break the contract (did read_u16's contract change?)"
  exit 1
fi
if broken_out=$(prove "$broken" -wp-fct pb_cursor_read_u16); then
  echo "$broken_out"
  echo "prove: a broken contract was reported proved"
  exit 1
fi
echo "$broken_out" | tail -n 5
# It must have been proved and found wrong, not failed to parse.
if ! grep -q "Proved goals:" <<<"$broken_out"; then
  echo "prove: the broken copy did not get as far as the proof"
  exit 1
fi
echo "prove: the broken contract is rejected, as it must be"
echo "prove: every goal of the cursor core is proved"
