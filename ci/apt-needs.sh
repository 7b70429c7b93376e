#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Installs those of the Debian packages named that are missing, and says
# which: with apt-get, as root or through sudo. Says so and fails when it
# cannot (no dpkg, or neither root nor sudo).
#
#   bash ci/apt-needs.sh WHO PACKAGE...     (WHO begins each line it writes)
set -euo pipefail
who=${1:?usage: ci/apt-needs.sh WHO PACKAGE...}
shift
command -v dpkg-query >/dev/null ||
  { echo "$who: needs $*, and this is not Debian (no dpkg-query): install them by hand"; exit 1; }
missing=()
for p in "$@"; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" = "install ok installed" ] ||
    missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "$who: needs $*: all installed"
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  echo "$who: needs ${missing[*]}, not installed: as root, apt-get install ${missing[*]}"
  exit 1
fi
echo "$who: needs $*; installing the missing ones: ${sudo[*]:+${sudo[*]} }apt-get install ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "$who: installed ${missing[*]}"
