#!/bin/bash -eu
# ClusterFuzzLite builds exactly what OSS-Fuzz builds: one script for both.
exec bash "$SRC/perfbuf/oss-fuzz/build.sh"
