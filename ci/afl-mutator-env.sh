# SPDX-License-Identifier: MIT OR Apache-2.0
# Sourced by the fuzz jobs. afl_mutator_env HARNESS LIBRARY ARRAY fills the
# array ARRAY with the environment that makes afl-fuzz load the
# structure-aware mutator (fuzz/afl_mutator.c) for a structured harness, and
# empties it for the others: AFL++ then mutates bytes with its own stages.
afl_mutator_env() {
  local -n into=$3
  into=()
  case "$1" in
    fuzz_v2_query_structured)
      into=("AFL_CUSTOM_MUTATOR_LIBRARY=$2" PERFBUF_AFL_MUTATOR=v2-query) ;;
    fuzz_v1_structured)
      into=("AFL_CUSTOM_MUTATOR_LIBRARY=$2" PERFBUF_AFL_MUTATOR=v1) ;;
    fuzz_pairing)
      into=("AFL_CUSTOM_MUTATOR_LIBRARY=$2" PERFBUF_AFL_MUTATOR=pairing) ;;
    fuzz_mixed_views)
      into=("AFL_CUSTOM_MUTATOR_LIBRARY=$2" PERFBUF_AFL_MUTATOR=mixed-views) ;;
  esac
}
