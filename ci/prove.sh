#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Proves with Frama-C WP, with Z3 and CVC4, every ACSL contract and every
# run-time-error goal (no overflow, no out-of-bounds access) of the functions
# each part names (docs/proofs.md lists them, with what is not proved yet):
#   - the cursor core (src/core/cursor.h), the UTF-8 writer and the NUL
#     scanners (src/core/text.c), the validation context and the helpers
#     every structure reader calls (src/core/check.h, check.c, mix.h,
#     le_load.h), the sorted-key lookup (src/core/order.c);
#   - the Counter/Help table reader (src/v1/counter_help.c), in full;
#   - the V1 data block (src/v1/block.c, src/v1/internal.h): the parse's
#     entry, its counter definitions' walk and instance reader, the leaf
#     checks, the views, iterators and value reads, the instance walk, the
#     object reader; not yet parse_block and the object walk in it; the
#     first instance-name views (src/v1/instance_names.c);
#   - the V2 query data (src/v2/query.c), in full: the parse's entry, its
#     block walk and helpers, what a block contains, the iterators, views
#     and value reads;
#   - the V2 metadata (src/v2/meta.c, identifiers.c, strings.c): the
#     registration, counter, counterset, instance-list, identifiers and
#     string parses, their views and lookups, in full.
# The provers' verdicts are read from proofs/wp-cache (PROVE_CACHE, below).
# Each part calls what the others prove by its contract only. Fails on any
# unproven goal; prints the count proved and the time of each part.
# Then checks that the proof can fail: the same run on a copy with one
# contract or one bounds check deliberately broken must report an unproven
# goal, once for each proved part.
# Packages (Debian 12): frama-c-base why3 z3 cvc4 (ci/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in frama-c why3 z3 cvc4; do
  command -v "$tool" >/dev/null || { echo "prove: $tool is missing (apt-get install frama-c-base why3 z3 cvc4)"; exit 2; }
done
# Frama-C finds the provers through why3's configuration.
[ -f "$HOME/.why3.conf" ] || why3 config detect >/dev/null 2>&1

# The functions each entry proves: the file's own, never what it includes
# (those are proved by their own entry and called by contract).
TEXT_FCTS=pb_utf8_out_init,utf8_length,pb_utf8_add_needed,pb_utf8_add_bound,pb_utf8_put,pb_utf8_finish,next_utf16,pb_utf16le_convert
CHECK_FCTS=limit_or,pb_ctx_init,pb_describe,pb_fail,pb_anomaly,pb_check_arguments,pb_strict,pb_window,pb_view_ctx,pb_view_utf16_to_utf8
COUNTER_HELP_FCTS=next_string,parse_index,read_entry,walk_table,parse_table,perfbuf_names_parse,window,perfbuf_names_begin,perfbuf_names_next,perfbuf_names_text_utf8,perfbuf_names_find,slot_less,sift_down,sort_slots,perfbuf_names_index_build,perfbuf_names_index_find
V2_META_FCTS=clear_counter_answer,perfbuf_v2_counter_reg_parse,perfbuf_v2_countersets_parse,perfbuf_v2_countersets_get,perfbuf_v2_instance_list_parse,perfbuf_v2_instance_list_begin,view_listed_instance,perfbuf_v2_instance_list_next,perfbuf_v2_listed_name_utf8,instance_type_known,detail_known,decode_counter,check_counter,perfbuf_v2_reginfo_counter,read_counter_id,pb_v2_find_ascending,perfbuf_v2_reginfo_find,check_reference,check_ids,pb_v2_find_in_keys
V2_IDENTIFIERS_FCTS=pb_v2_load_guid,view_identifier,perfbuf_v2_identifiers_begin,perfbuf_v2_identifiers_next,perfbuf_v2_identifier_name_utf8
V2_STRINGS_FCTS=perfbuf_v2_string_utf8,read_string_header,resolve_origin,locate_string,origin_offset,perfbuf_v2_counter_string_utf8
READ_FCTS=pb_fail_compared,pb_fail_truncated,pb_read_guid,pb_field_guid,pb_field_systemtime,pb_get32,pb_get64,pb_field32,pb_field64,pb_take_struct,pb_take_checked,pb_i32,pb_i64,pb_le32,pb_le64,pb_mix_fmix32,pb_mix64,pb_mix_lanes_word,pb_mix_lanes_bytes,pb_mix_lanes_value
NUL_FCTS=pb_utf16le_find_nul,pb_text_find_terminator
V2_QUERY_FCTS=pb_v2_window,pb_v2_find_nul,pb_v2_read_instance,kind_is_known,kind_has_ids,kind_has_instances,check_leftover,check_block_size,read_counter_data,judge_counter_data,common_row_wrong,skip_uniform_row,fast_instance_header
V1_BLOCK_FCTS=check_leftover,check_length,signature_ok,identity_step,field32,field64,mix_instance_shape,pb_v1_prefetch_ahead,pb_v1_counter_claim,pb_v1_same_parse,perfbuf_v1_objects_begin,perfbuf_v1_counters_begin,perfbuf_v1_instances_begin,pb_v1_window,pb_v1_view_counter_block,perfbuf_v1_system_name_utf8,pb_v1_view_window,pb_v1_counter_block_of,pb_v1_counter_slice,perfbuf_v1_counter_value,perfbuf_v1_counter_bytes
V1_WALK_FCTS=check_counter_fields,pb_v1_read_counter,read_system_name,pb_v1_parse_identity,fail_claim_budget,check_definitions,clear_block,perfbuf_v1_parse
V2_QUERY_VIEWS_FCTS=perfbuf_v2_kind_name,window,take_sized,view_block,perfbuf_v2_blocks_begin,perfbuf_v2_blocks_next,perfbuf_v2_block_counter_id,perfbuf_v2_instances_begin,view_counter_data,view_instance_header,view_instance,read_row_at_stride,read_uniform_values,walk_values,read_values,perfbuf_v2_instances_next,perfbuf_v2_block_values_begin,perfbuf_v2_instance_values_begin,perfbuf_v2_values_next,perfbuf_v2_values_read,perfbuf_v2_instances_next_values,perfbuf_v2_instance_name_utf8,perfbuf_v2_instance_name_utf16
V1_VIEWS_FCTS=pb_v1_view_object,pb_v1_view_counter,pb_v1_utf16_name_bytes,perfbuf_v1_objects_next,perfbuf_v1_find_object,perfbuf_v1_counters_next,perfbuf_v1_object_counter_block,perfbuf_v1_instances_next,pb_v1_object_at,pb_v1_object_of_block
V1_NAMES_FCTS=name_window,perfbuf_v1_instance_name_bytes,name_span,instance_of_block
V2_REGINFO_FCTS=clear_reginfo,store_reginfo,record_anomalies,read_reginfo_header,check_reginfo_counters,check_reginfo_references,parse_reginfo,perfbuf_v2_reginfo_parse,perfbuf_v2_reginfo_parse_indexed
V1_INSTANCE_FCTS=read_instance_name,pb_v1_read_instance,check_instance_decoded
V1_INSTANCE_KNOWN_FCTS=pb_v1_read_counter_block,pb_v1_read_instance_known,pb_v1_step_instance
V1_OBJECT_DATA_FCTS=check_object_data,instance_passes
V1_INSTANCE_WALK_FCTS=walk_instances
V1_OBJECT_FCTS=read_object_header,describe_object,check_object_parts,pb_v1_read_object
V2_QUERY_BLOCK_FCTS=read_block
V2_QUERY_PARSE_FCTS=judge_value_at,skip_counter_data,ids_ascend,read_id_list,read_instance_list,read_instance_values,check_reserved,describe_block,read_block_header
V2_QUERY_ENTRY_FCTS=clear_query,store_query,read_query_header,perfbuf_v2_query_parse
V2_IDENTIFIERS_PARSE_FCTS=fill_identifier,read_identifier,clear_identifiers,perfbuf_v2_identifiers_parse
V2_STRINGS_PARSE_FCTS=clear_guid,clear_string,clear_counter_string,perfbuf_v2_provider_guid_parse,read_string_id,perfbuf_v2_string_parse,perfbuf_v2_strings_get,perfbuf_v2_strings_find,clear_strings,store_strings,check_ids,parse_strings,perfbuf_v2_strings_parse,perfbuf_v2_strings_parse_indexed

# The provers' verdicts, one file per goal that Z3 or CVC4 proved, named by
# the digest of the goal's whole text (hypotheses, conclusion, prover and its
# options; not the path it was run from). A goal whose text is unchanged takes
# its recorded verdict; any other goal, such as every goal of a function
# whose code or whose callees' contracts changed, is proved by the provers in
# the run. PROVE_CACHE=none proves every goal afresh (a reviewer's run,
# about 40 minutes on two idle cores); PROVE_CACHE=update also records the
# new verdicts, which is how proofs/wp-cache/ is refreshed after a change
# (remove it first to drop the entries no goal uses any more).
cache_mode=${PROVE_CACHE:-replay}
case "$cache_mode" in
  none | replay | update | rebuild) ;;
  *) echo "prove: PROVE_CACHE must be none, replay, update or rebuild"; exit 2 ;;
esac
cache_dir=$PWD/proofs/wp-cache
mkdir -p "$cache_dir"
echo "prove: WP cache mode $cache_mode, $(find "$cache_dir" -name '*.json' | wc -l) recorded verdicts in proofs/wp-cache"

# prove DIR ENTRY [frama-c options...]: proves DIR/proofs/ENTRY; prints the
# summary; returns 0 only when every goal is proved.
prove() {
  local dir=$1 entry=$2; shift 2
  local log
  log=$(mktemp)
  frama-c -wp -wp-rte -wp-prover z3,cvc4 -wp-timeout 30 -wp-par 2 \
    -wp-cache "$cache_mode" -wp-cache-dir "$cache_dir" \
    -cpp-extra-args="-I$dir/include -I$dir/src" "$@" "$dir/proofs/$entry" >"$log" 2>&1 || true
  local summary
  summary=$(grep -E "Proved goals:" "$log" | tail -n 1 || true)
  if [ -z "$summary" ]; then
    cat "$log"
    rm -f "$log"
    return 1
  fi
  echo "$summary"
  # Who proved what: Qed (WP's simplifier, always in the run), and each
  # prover with "(cached: N)" for the verdicts taken from proofs/wp-cache.
  sed -n '/Proved goals:/,/^\[/p' "$log" | grep -E "^  (Qed|Z3|CVC4|Alt)" || true
  grep -E "^\[wp\] \[(Failed|Timeout|Unknown)\]|^\[wp\] .*Goal .*(Timeout|Unknown|Failed)" "$log" | head -n 20 || true
  local proved total
  proved=$(echo "$summary" | sed -E 's/.*Proved goals: *([0-9]+) *\/ *([0-9]+).*/\1/')
  total=$(echo "$summary" | sed -E 's/.*Proved goals: *([0-9]+) *\/ *([0-9]+).*/\2/')
  rm -f "$log"
  [ "$proved" = "$total" ] && [ "$total" -gt 0 ]
}

# The parts and the planted faults run PROVE_JOBS at a time (2 by default,
# one per core of a CI machine): WP builds and simplifies every goal, and
# looks each up in the cache, in one process, so a run that finds most
# verdicts recorded keeps one core busy; two runs keep both. Each job's output
# is printed whole, in the order of this file, once every job has ended.
PROVE_JOBS=${PROVE_JOBS:-2}
jobs_dir=$(mktemp -d)
trap 'rm -rf "$jobs_dir"' EXIT
job_count=0

# job FUNCTION ARGS...: runs FUNCTION ARGS in the background once fewer
# than PROVE_JOBS jobs run, its output and status kept in jobs_dir.
job() {
  while [ "$(jobs -rp | wc -l)" -ge "$PROVE_JOBS" ]; do
    wait -n || true
  done
  job_count=$((job_count + 1))
  local id
  id=$(printf '%03d' "$job_count")
  ( if "$@"; then echo ok >"$jobs_dir/$id.status"; else echo failed >"$jobs_dir/$id.status"; fi ) \
    >"$jobs_dir/$id.log" 2>&1 &
}

# finish: waits for every job, prints their outputs in order, and fails
# when any job failed.
finish() {
  wait || true
  local failed=0 log
  for log in "$jobs_dir"/*.log; do
    cat "$log"
    [ "$(cat "${log%.log}.status" 2>/dev/null)" = ok ] || failed=1
  done
  return "$failed"
}

# part NAME ENTRY [options...]: proves one part and prints its time.
part() { job prove_part "$@"; }
prove_part() {
  local name=$1; shift
  echo "== $name"
  local t0=$SECONDS
  if ! prove "$PWD" "$@"; then
    echo "prove: some goals of $name are not proved"
    return 1
  fi
  echo "prove: $name: $((SECONDS - t0)) s"
}

start=$SECONDS
part "the cursor core" cursor_proof.c
# The split goals of these two parts take Z3 and CVC4 up to half a minute each
# on a loaded 2-core machine (pb_ctx_init's 88 took 2 minutes alone there, two
# of them past 30 s): they get 120 s each, which only a goal that fails
# spends in full.
part "the UTF-8 writer (src/core/text.c)" text_proof.c -wp-split -wp-timeout 120 -wp-fct "$TEXT_FCTS"
part "the validation context (src/core/check.c)" check_proof.c -wp-split -wp-timeout 120 -wp-fct "$CHECK_FCTS"
# The helpers every structure reader calls, before the readers that call them by contract.
part "the sorted-key lookup (src/core/order.c)" order_proof.c -wp-fct pb_keys_find_sorted
part "the readers' core helpers (src/core/check.h, check.c, mix.h, le_load.h)" check_proof.c -wp-split -wp-timeout 120 -wp-fct "$READ_FCTS"
part "the NUL scanners (src/core/text.c)" text_proof.c -wp-split -wp-fct "$NUL_FCTS"
# Typed+cast: perfbuf_names_parse converts the caller's const void * to
# const uint8_t * (one-byte cells on both sides, so keeping the address is
# exact). Split, as the postconditions of read_entry and walk_table merge
# every early return into one goal that times out whole.
part "the Counter/Help table reader (src/v1/counter_help.c)" counter_help_proof.c -wp-model Typed+cast -wp-split -wp-timeout 120 -wp-fct "$COUNTER_HELP_FCTS"
# Typed+cast: the parses convert the caller's const void * to const uint8_t *.
part "the V2 metadata readers (src/v2/meta.c, in part)" v2_meta_proof.c -wp-model Typed+cast -wp-fct "$V2_META_FCTS"
# wp:bitshift turns pb_v2_load_guid's p[5] << 8 into a product the
# provers bound; without it the shift's no-overflow goal stays unknown.
part "the V2 identifiers (src/v2/identifiers.c)" v2_identifiers_proof.c -wp-timeout 60 -wp-auto wp:bitshift -wp-fct "$V2_IDENTIFIERS_FCTS"
part "the V2 strings' views (src/v2/strings.c)" v2_strings_proof.c -wp-timeout 60 -wp-fct "$V2_STRINGS_FCTS"
part "the V1 data block's leaf checks (src/v1/block.c)" v1_block_proof.c -wp-split -wp-fct "$V1_BLOCK_FCTS"
# query.c needs C11 (_Static_assert) and Typed+cast (the parse's const void *
# data); CVC4 first, as Z3 times out on many of its split goals.
part "the V2 query parse's helpers (src/v2/query.c)" v2_query_proof.c -c11 -wp-model Typed+cast -wp-split -wp-prover cvc4,z3 -wp-timeout 120 -wp-fct "$V2_QUERY_FCTS"
# Typed+cast: perfbuf_v1_parse hands the caller's const void * on as
# const uint8_t *. -wp-prover adds Z3 through why3's counterexample driver
# (z3-ce): through the plain driver Z3 stops with an error on five of this
# part's goals (cursors kept past a call), which z3-ce proves in under 2 s.
part "the V1 data block's parse walk (src/v1/block.c)" v1_block_proof.c -wp-model Typed+cast -wp-prover z3-ce,cvc4 -wp-timeout 60 -wp-fct "$V1_WALK_FCTS"
# The same options; split, as view_instance's postcondition merges its
# early returns after a cursor copied back into the caller's.
part "the V2 query data's iterators and views (src/v2/query.c)" v2_query_proof.c -c11 -wp-model Typed+cast -wp-split -wp-prover cvc4,z3 -wp-timeout 60 -wp-fct "$V2_QUERY_VIEWS_FCTS"
# CVC4 first: Z3 times out on the views' memory-access goals that CVC4
# proves in a second. pb_v1_view_instance alone is split: its postcondition
# merges its early returns into one goal that times out whole, while split
# goals of the other views time out where their whole goals prove. 60 s a
# goal: pb_v1_view_object's postcondition took CVC4 past 30 s on a loaded
# machine (5 s on a quieter one).
part "the V1 data block's views (src/v1/block.c)" v1_block_proof.c -wp-prover cvc4,z3 -wp-timeout 60 -wp-fct "$V1_VIEWS_FCTS"
part "the V1 instance view (src/v1/block.c)" v1_block_proof.c -wp-split -wp-prover cvc4,z3 -wp-fct pb_v1_view_instance
part "the V1 instance names' views (src/v1/instance_names.c, in part)" v1_instance_names_proof.c -wp-prover cvc4,z3 -wp-fct "$V1_NAMES_FCTS"
# Typed+cast, as the V2 metadata readers' part: the parses convert the
# caller's const void *. Z3 also through why3's counterexample driver (z3-ce), as for the V1 parse
# walk: through the plain driver Z3 stops with an error on parse_reginfo's
# two preconditions past calls that may write through the error pointer,
# which z3-ce proves.
part "the V2 registration parses (src/v2/meta.c)" v2_meta_proof.c -wp-model Typed+cast -wp-prover z3-ce,cvc4 -wp-timeout 60 -wp-fct "$V2_REGINFO_FCTS"
# Split: each return's postcondition on the caller's cursor is a goal of
# its own. CVC4 first: Z3 stops with an error on most of them.
part "the V1 data block's instance readers (src/v1/block.c)" v1_block_proof.c -wp-split -wp-prover cvc4,z3 -wp-fct "$V1_INSTANCE_FCTS"
# Unsplit, with Z3 also through z3-ce: the postconditions on the caller's
# cursor past calls that may write through the error pointer, which timed
# out under CVC4 and stopped Z3's plain driver with an error.
part "the V1 instance step, counter block and known-size read (src/v1/block.c)" v1_block_proof.c -wp-prover z3-ce,cvc4 -wp-timeout 60 -wp-fct "$V1_INSTANCE_KNOWN_FCTS"
# The same options: an object's data (its counter block, or its instances'
# fast check), calling the instance walk by its contract.
part "the V1 object's data (src/v1/block.c)" v1_block_proof.c -wp-prover z3-ce,cvc4 -wp-timeout 60 -wp-fct "$V1_OBJECT_DATA_FCTS"
# The same options: the instance walk, its cursor stored back by its
# position alone (a structure copy in place was not followed).
part "the V1 instance walk (src/v1/block.c)" v1_block_proof.c -wp-prover z3-ce,cvc4 -wp-timeout 60 -wp-fct "$V1_INSTANCE_WALK_FCTS"
# The same options: an object's reader, its header's checks, description
# and deep parse in calls of their own (each proof small enough).
part "the V1 object reader (src/v1/block.c)" v1_block_proof.c -wp-prover z3-ce,cvc4 -wp-timeout 60 -wp-fct "$V1_OBJECT_FCTS"
# One block of the V2 query data, calling its steps by their contracts; the
# V2 query options with Z3 also through z3-ce, unsplit.
part "the V2 query data's block reader (src/v2/query.c)" v2_query_proof.c -c11 -wp-model Typed+cast -wp-prover z3-ce,cvc4 -wp-timeout 60 -wp-fct "$V2_QUERY_BLOCK_FCTS"
# Split: the postconditions of skip_counter_data and read_id_list merge
# their early returns into one goal that times out whole.
part "the V2 query parse's block contents (src/v2/query.c)" v2_query_proof.c -c11 -wp-model Typed+cast -wp-split -wp-prover cvc4,z3 -wp-timeout 60 -wp-fct "$V2_QUERY_PARSE_FCTS"
# A block's instances, each read by its contract: split, with Z3 also
# through z3-ce, which proves the postcondition on the context past the
# loop that Z3's plain driver stops on with an error.
part "the V2 query data's instance walk (src/v2/query.c)" v2_query_proof.c -c11 -wp-model Typed+cast -wp-split -wp-prover z3-ce,cvc4 -wp-timeout 60 -wp-fct read_instances
# The parse's entry: the header's checks, the block walk calling read_block
# by its contract, the answer stored. Unsplit, with Z3 also through z3-ce
# (goals past calls that may write through the error pointer).
part "the V2 query parse's entry (src/v2/query.c)" v2_query_proof.c -c11 -wp-model Typed+cast -wp-prover z3-ce,cvc4 -wp-timeout 60 -wp-fct "$V2_QUERY_ENTRY_FCTS"
# Every value of a block in one call, with the options of the query's views.
part "the V2 query data's block read (src/v2/query.c)" v2_query_proof.c -c11 -wp-model Typed+cast -wp-split -wp-prover cvc4,z3 -wp-timeout 60 -wp-fct perfbuf_v2_block_read_all
# The identifiers' parse (Typed+cast: its const void * data), with
# wp:bitshift as the identifiers' views and Z3 also through z3-ce, which
# proves read_identifier's postconditions unsplit.
part "the V2 identifiers' parse (src/v2/identifiers.c)" v2_identifiers_proof.c -wp-model Typed+cast -wp-auto wp:bitshift -wp-prover z3-ce,cvc4 -wp-timeout 60 -wp-fct "$V2_IDENTIFIERS_PARSE_FCTS"
# The V2 string answers' parses and lookups (Typed+cast: their const void *
# data); Z3 also through z3-ce, which proves the string block's parse's
# goals past calls that may write through the error pointer.
part "the V2 strings' parses and lookups (src/v2/strings.c)" v2_strings_proof.c -wp-model Typed+cast -wp-prover z3-ce,cvc4 -wp-timeout 60 -wp-fct "$V2_STRINGS_PARSE_FCTS"


# planted WHAT FILE SED ENTRY [options...]: on a fresh copy of the sources,
# applies SED to FILE, checks that it changed the file, and that the proof
# of ENTRY then reports an unproved goal (after getting as far as proving).
# The runs give a goal 5 s: a fault needs only one goal left unproved.
planted() { job plant_fault "$@"; }
plant_fault() {
  local what=$1 file=$2 script=$3; shift 3
  echo "== a planted fault must fail: $what"
  local t0=$SECONDS
  local broken
  broken=$(mktemp -d -p "$jobs_dir")
  cp -r include src "$broken/"
  mkdir "$broken/proofs"
  cp proofs/*.c "$broken/proofs/"
  sed "$script" "$file" >"$broken/$file"
  if cmp -s "$file" "$broken/$file"; then
    echo "prove: the self-test could not plant its fault in $file (did the code change?)"
    return 1
  fi
  # The broken copy reads the recorded verdicts but adds none: the goals the
  # fault changes have texts no entry has, so the provers meet them here.
  local out
  [ "$cache_mode" = none ] || cache_mode=replay
  if out=$(prove "$broken" "$@"); then
    echo "$out"
    echo "prove: a planted fault ($what) was reported proved"
    return 1
  fi
  echo "$out" | tail -n 5
  # It must have been proved and found wrong, not failed to parse.
  if ! grep -q "Proved goals:" <<<"$out"; then
    echo "prove: the broken copy did not get as far as the proof"
    return 1
  fi
  echo "prove: rejected, as it must be ($((SECONDS - t0)) s)"
}

# read_u16 claims to advance by 3 bytes instead of 2.
planted "cursor: read_u16's contract claims 3 bytes" src/core/cursor.h \
  's/ensures \\result == \\true \&\& c->pos == \\old(c->pos) + 2;/ensures \\result == \\true \&\& c->pos == \\old(c->pos) + 3;/' \
  cursor_proof.c -wp-fct pb_cursor_read_u16
# pb_utf8_put writes without checking that the character fits.
planted "text: pb_utf8_put without its room check" src/core/text.c \
  's/if (o->full || n > o->cap - o->used) {/if (o->full) {/' \
  text_proof.c -wp-split -wp-fct pb_utf8_put -wp-timeout 5
# pb_window accepts an end past the buffer.
planted "check: pb_window without its end check" src/core/check.c \
  's/if (end > size || pos > end) {/if (pos > end) {/' \
  check_proof.c -wp-split -wp-fct pb_window -wp-timeout 5
# perfbuf_names_index_find reads the slot past the last when no slot's
# index is at least the one looked up.
planted "counter_help: perfbuf_names_index_find without its bounds check" src/v1/counter_help.c \
  's/if (lo == index->count || index->slots\[lo\].title_index != title_index) {/if (index->slots[lo].title_index != title_index) {/' \
  counter_help_proof.c -wp-model Typed+cast -wp-split -wp-fct perfbuf_names_index_find -wp-timeout 5

# A listed instance's header is taken 4 bytes long, so its InstanceId is
# read past what the cursor handed out.
planted "v2 meta: the instance list's header taken short" src/v2/meta.c \
  's/pb_cursor_take(region, PBS_PERF_INSTANCE_HEADER, \&hdr)/pb_cursor_take(region, 4, \&hdr)/' \
  v2_meta_proof.c -wp-model Typed+cast -wp-fct view_listed_instance -wp-timeout 5
# pb_take_checked's fallback carves as much as was refused, so the child
# would be left unset.
planted "check: pb_take_checked's fallback carves the refused size" src/core/check.h \
  's/(void)pb_cursor_sub(parent, 0, child);/(void)pb_cursor_sub(parent, n, child);/' \
  check_proof.c -wp-fct pb_take_checked -wp-timeout 5
# The NUL search's scan reaches one byte past the caller's window.
planted "text: pb_utf16le_find_nul scans one byte too far" src/core/text.c \
  's/    scan = \*c;/    scan = *c;\n    scan.end++;/' \
  text_proof.c -wp-fct pb_utf16le_find_nul -wp-timeout 5
# The sorted-key lookup reads the slot past the last when the key is above
# every key.
planted "order: pb_keys_find_sorted without its end check" src/core/order.c \
  's/if (lo == count || sorted\[lo\] >> 32 != key) {/if (sorted[lo] >> 32 != key) {/' \
  order_proof.c -wp-fct pb_keys_find_sorted -wp-timeout 5
# pb_fail_truncated walks the layout table without its end check.
planted "check: pb_fail_truncated without its table bound" src/core/check.c \
  's/while (f < PB_FIELD_COUNT \&\& pb_fields\[f\].structure == structure) {/while (pb_fields[f].structure == structure) {/' \
  check_proof.c -wp-fct pb_fail_truncated -wp-timeout 5
# view_identifier takes 32 header bytes and reads the 4 at 32 (Index).
planted "v2 identifiers: view_identifier takes a short header" src/v2/identifiers.c \
  's/pb_cursor_take(region, PBS_PERF_COUNTER_IDENTIFIER, \&hdr)/pb_cursor_take(region, 32, \&hdr)/' \
  v2_identifiers_proof.c -wp-auto wp:bitshift -wp-fct view_identifier -wp-timeout 5
# perfbuf_v2_string_utf8 hands a NULL output with a capacity to the writer.
planted "v2 strings: perfbuf_v2_string_utf8 without its output check" src/v2/strings.c \
  's/if (s == NULL || (out == NULL \&\& cap != 0)) {/if (s == NULL) {/' \
  v2_strings_proof.c -wp-fct perfbuf_v2_string_utf8 -wp-timeout 5

# The shape hash of an instance reads its counter block's ByteLength
# without checking that the bytes it was handed hold one.
planted "v1 block: mix_instance_shape without its room check" src/v1/block.c \
  's/if (consumed - definition >= PBS_PERF_COUNTER_BLOCK) {/if (consumed >= definition) {/' \
  v1_block_proof.c -wp-split -wp-fct mix_instance_shape -wp-timeout 5

# pb_v2_find_nul reads an 8-byte word when only 4 bytes are left.
planted "v2 query: pb_v2_find_nul reads 8 bytes with 4 left" src/v2/internal.h \
  's/for (; n - i >= 8; i += 8) {/for (; n - i >= 4; i += 8) {/' \
  v2_query_proof.c -c11 -wp-model Typed+cast -wp-split -wp-prover cvc4,z3 -wp-fct pb_v2_find_nul -wp-timeout 5
# perfbuf_v1_parse clears and parses into the caller's output without
# checking that there is one (a NULL out with bytes).
planted "v1 parse: perfbuf_v1_parse without its argument check" src/v1/block.c \
  's/if (pb_check_arguments(&ctx, data, received, out) != PERFBUF_OK) {/if (pb_check_arguments(\&ctx, data, received, out) != PERFBUF_OK \&\& data == NULL) {/' \
  v1_block_proof.c -wp-model Typed+cast -wp-prover z3-ce,cvc4 -wp-fct perfbuf_v1_parse -wp-timeout 5
# The uniform row's reader takes a value's dwDataSize without comparing it
# with the room after the header, so an 8-byte value could be read past it.
planted "v2 query views: read_row_at_stride without its room check" src/v2/query.c \
  's/if (pb_le32(value + PBO_PERF_COUNTER_DATA_dwSize) != stride || data_size > room) {/if (pb_le32(value + PBO_PERF_COUNTER_DATA_dwSize) != stride) {/' \
  v2_query_proof.c -c11 -wp-model Typed+cast -wp-split -wp-prover cvc4,z3 -wp-fct read_row_at_stride -wp-timeout 5

# The name scan's tail keeps an odd last byte, so its two-byte unit reads
# one byte past the name.
planted "v1 views: pb_v1_utf16_name_bytes keeps an odd tail" src/v1/block.c \
  's/size_t tail = left - left % 2;/size_t tail = left;/' \
  v1_block_proof.c -wp-prover cvc4,z3 -wp-fct pb_v1_utf16_name_bytes -wp-timeout 5
# name_span answers an empty name without carving it, so its span is unset.
planted "v1 instance names: name_span leaves an empty name's span unset" src/v1/instance_names.c \
  's/return pb_cursor_slice(\&all, 0, 0, span);/return true;/' \
  v1_instance_names_proof.c -wp-prover cvc4,z3 -wp-fct name_span -wp-timeout 5
# The registration's counter walk decodes NumCounters counters without
# checking that the bytes left hold them.
planted "v2 meta: the registration's counter walk without its count check" src/v2/meta.c \
  's/if (count > pb_cursor_remaining(all) \/ PBS_PERF_COUNTER_REG_INFO) {/if (false) {/' \
  v2_meta_proof.c -wp-model Typed+cast -wp-fct check_reginfo_counters -wp-timeout 5

# An instance's name reads the recorded name length without checking
# that one was given (NULL from pb_v1_read_instance).
planted "v1 block: read_instance_name reads a NULL known length" src/v1/block.c \
  's/^    if (known_name_bytes != NULL \&\& \*known_name_bytes <= name_length) {/    if (*known_name_bytes <= name_length) {/' \
  v1_block_proof.c -wp-split -wp-prover cvc4,z3 -wp-fct read_instance_name -wp-timeout 5
# The id list's order check reads the id past the last.
planted "v2 query: ids_ascend reads one id past the list" src/v2/query.c \
  's/for (uint32_t i = 1; i < count \&\& \*ascending; i++) {/for (uint32_t i = 1; i <= count \&\& *ascending; i++) {/' \
  v2_query_proof.c -c11 -wp-model Typed+cast -wp-split -wp-prover cvc4,z3 -wp-fct ids_ascend -wp-timeout 5

# The identifiers' parse hands back a list one byte into the buffer, so a
# view would read one byte past its end.
planted "v2 identifiers: the parse's list starts one byte in" src/v2/identifiers.c \
  's/    out->data = (const uint8_t \*)data;/    out->data = (const uint8_t *)data + 1;/' \
  v2_identifiers_proof.c -wp-model Typed+cast -wp-fct perfbuf_v2_identifiers_parse -wp-timeout 5

# The single string's parse hands back an answer one byte longer than the
# buffer, so its view would read one byte past it.
planted "v2 strings: the string parse's answer one byte long" src/v2/strings.c \
  's/    out->size = size;/    out->size = size + 1;/' \
  v2_strings_proof.c -wp-model Typed+cast -wp-fct perfbuf_v2_string_parse -wp-timeout 5

# The instance step takes 8 bytes of header and reads NameOffset and
# NameLength (at 16 and 20) past them.
planted "v1 block: pb_v1_step_instance takes a short header" src/v1/internal.h \
  's/if (!pb_cursor_take(\&peek, PBS_PERF_INSTANCE_DEFINITION, \&head)) {/if (!pb_cursor_take(\&peek, 8, \&head)) {/' \
  v1_block_proof.c -wp-prover z3-ce,cvc4 -wp-fct pb_v1_step_instance -wp-timeout 5

# The instances' fast check reads a name's last unit without checking that
# the name ends inside its instance.
planted "v1 block: instance_passes without its name-end check" src/v1/block.c \
  's/if (name_offset < PBS_PERF_INSTANCE_DEFINITION || name_end > length ||/if (name_offset < PBS_PERF_INSTANCE_DEFINITION ||/' \
  v1_block_proof.c -wp-prover z3-ce,cvc4 -wp-fct instance_passes -wp-timeout 5

# The block reader goes on when its header was refused, with a body cursor
# that was never carved.
planted "v2 query: read_block past a refused header" src/v2/query.c \
  '/perfbuf_status st = read_block_header(ctx, blocks, at, out, \&body, \&kind);/{n;s/if (st != PERFBUF_OK) {/if (false) {/;}' \
  v2_query_proof.c -c11 -wp-model Typed+cast -wp-prover z3-ce,cvc4 -wp-fct read_block -wp-timeout 5

# read_instances reads one instance past the count the list gave.
planted "v2 query: read_instances reads one instance too many" src/v2/query.c \
  's/for (uint32_t i = 0; i < out->instance_count; i++) {/for (uint32_t i = 0; i <= out->instance_count; i++) {/' \
  v2_query_proof.c -c11 -wp-model Typed+cast -wp-split -wp-prover z3-ce,cvc4 -wp-fct read_instances -wp-timeout 5
# The parse's header accepts a TotalSize past the bytes received, so the
# answer's size would cover bytes the caller does not have.
planted "v2 query: the parse without its total > received check" src/v2/query.c \
  's/    if (total > received) {/    if (false) {/' \
  v2_query_proof.c -c11 -wp-model Typed+cast -wp-prover z3-ce,cvc4 -wp-fct read_query_header -wp-timeout 5
# The block read writes every value without checking that the output
# holds them. Unsplit: the fault needs one goal, not the part's 1,284.
planted "v2 query: perfbuf_v2_block_read_all without its capacity check" src/v2/query.c \
  's/    if (cap < \*needed) {/    if (false) {/' \
  v2_query_proof.c -c11 -wp-model Typed+cast -wp-prover cvc4,z3 -wp-fct perfbuf_v2_block_read_all -wp-timeout 5
# The instance walk steps over an instance its decoders read without the
# cursor's bounds check, so its cursor may leave its window.
planted "v1 block: walk_instances steps without its bounds check" src/v1/block.c \
  's/            if (!pb_cursor_skip(\&walk, consumed)) {/            walk.pos += consumed;\n            if (false) {/' \
  v1_block_proof.c -wp-prover z3-ce,cvc4 -wp-fct walk_instances -wp-timeout 5

# The object reader goes on when its header was refused, reading fields of
# a header window that was never carved.
planted "v1 block: pb_v1_read_object past a refused header" src/v1/block.c \
  '/perfbuf_status st = read_object_header(ctx, objects, \&hdr);/{n;s/if (st != PERFBUF_OK) {/if (false) {/;}' \
  v1_block_proof.c -wp-prover z3-ce,cvc4 -wp-fct pb_v1_read_object -wp-timeout 5

if ! finish; then
  echo "prove: some goal is not proved, or some planted fault was not caught (above)"
  exit 1
fi
echo "prove: every goal of every proved part is proved, and every planted fault is caught ($((SECONDS - start)) s)"
