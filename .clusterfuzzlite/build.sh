#!/bin/bash -eu
# SPDX-License-Identifier: MIT OR Apache-2.0
# ClusterFuzzLite builds exactly what OSS-Fuzz builds: one script for both.
exec bash "$SRC/perfbuf/oss-fuzz/build.sh"
