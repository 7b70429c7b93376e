# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# perfbuf-dump --openmetrics (docs/prometheus.md, docs/cli.md): the lines
# the bundled series gives (each number follows from
# corpus/captures/series/README.md), --counter, --no-timestamps,
# --metric-prefix, escapes and name collisions on make_series
# --openmetrics (corpus/captures/openmetrics/), and every refusal with its
# exit status. That Prometheus reads the text and computes PDH's values
# from it is ci/prometheus.sh.
# Inputs: -DDUMP=<perfbuf-dump> -DCORPUS=<corpus dir>
set(passed 0)
set(failed 0)

# expect(NAME RC EXPECTED_RC TEXT MUST_CONTAIN...); a needle "!x" must be absent.
function(expect name rc want text)
  set(ok TRUE)
  if(NOT "${rc}" STREQUAL "${want}")
    message("${name}: exit ${rc}, expected ${want}")
    set(ok FALSE)
  endif()
  foreach(needle ${ARGN})
    if(needle MATCHES "^!(.*)$")
      string(FIND "${text}" "${CMAKE_MATCH_1}" at)
      if(NOT at EQUAL -1)
        message("${name}: the output has '${CMAKE_MATCH_1}'")
        set(ok FALSE)
      endif()
      continue()
    endif()
    string(FIND "${text}" "${needle}" at)
    if(at EQUAL -1)
      message("${name}: the output lacks '${needle}'")
      set(ok FALSE)
    endif()
  endforeach()
  if(ok)
    math(EXPR n "${passed} + 1")
    set(passed ${n} PARENT_SCOPE)
  else()
    math(EXPR n "${failed} + 1")
    set(failed ${n} PARENT_SCOPE)
  endif()
endfunction()

set(s ${CORPUS}/captures/series)
set(names --names ${s}/v1-names-series-counter-009.bin)
set(series --series ${s}/v1-series-0.bin ${s}/v1-series-1.bin ${s}/v1-series-2.bin --
           ${s}/v1-series-3.bin)

# The series: idle time 4 s at capture 0, 4.5 s a second later on
# processor 0; Idle started a day before capture 0; PID 1044 is svchost#1
# until PID 812 exits; calc only in capture 3; threads name their process.
execute_process(COMMAND ${DUMP} --openmetrics ${names} ${series}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 20)
expect("series" "${rc}" 0 "${out}"
  "# TYPE windows_processor_time_inverse_seconds counter\n# UNIT windows_processor_time_inverse_seconds seconds\n"
  [=[windows_processor_time_inverse_seconds_total{machine="SERIES",instance_name="0"} 4 1795341600]=]
  [=[windows_processor_time_inverse_seconds_total{machine="SERIES",instance_name="0"} 4.5 1795341601]=]
  [=[windows_processor_time_clock_seconds{machine="SERIES",instance_name="0"} 1795341601 1795341601]=]
  [=[windows_processor_time_clock_fraction_seconds{machine="SERIES",instance_name="0"} 0 1795341601]=]
  [=[windows_process_elapsed_time_start_time_seconds{machine="SERIES",instance_name="Idle"} 1795255200 1795341600]=]
  [=[windows_process_processor_time_seconds_total{machine="SERIES",instance_name="svchost#1"} 2 1795341600]=]
  [=[windows_process_id_process{machine="SERIES",instance_name="svchost"} 1044 1795341602]=]
  [=[windows_process_id_process{machine="SERIES",instance_name="calc"} 4000 1795341603]=]
  [=[windows_thread_id_thread{machine="SERIES",parent="Idle",instance_name="Idle/1"} 8 1795341600]=]
  [=[# HELP windows_process_elapsed_time_start_time_seconds start time of \\Process\\Elapsed Time (PERF_ELAPSED_TIME)]=]
  "!calc\"} 4000 1795341602")
string(LENGTH "${out}" length)
math(EXPR tail "${length} - 6")
string(SUBSTRING "${out}" ${tail} 6 end)
expect("series ends with # EOF" "${rc}" 0 "${end}" "# EOF\n")

# --counter: only what the path selects, in every capture.
execute_process(COMMAND ${DUMP} --openmetrics ${names} --counter [=[\Process(svchost*)\% Processor Time]=]
                        ${series}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 20)
expect("--counter" "${rc}" 0 "${out}"
  [=[windows_process_processor_time_seconds_total{machine="SERIES",instance_name="svchost"} 2.3 1795341603]=]
  "!Idle" "!windows_processor_" "!id_process")
execute_process(COMMAND ${DUMP} --openmetrics ${names} --counter [=[\Nothing\x]=] ${series}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 20)
expect("--counter matching nothing" "${rc}" 1 "${err}" "no object of that name")

# One capture without timestamps (a textfile collector's), and the prefix.
execute_process(COMMAND ${DUMP} --openmetrics --no-timestamps --metric-prefix perf ${names}
                        ${s}/v1-series-0.bin
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 20)
expect("--no-timestamps" "${rc}" 0 "${out}"
  "perf_processor_time_inverse_seconds_total{machine=\"SERIES\",instance_name=\"0\"} 4\n"
  "!windows_" "!} 4 1795341600")

# Escapes and collisions (corpus/captures/openmetrics/README.md).
set(g ${CORPUS}/captures/openmetrics)
execute_process(COMMAND ${DUMP} --openmetrics --names ${g}/v1-names-openmetrics-counter-009.bin
                        --help-names ${g}/v1-names-openmetrics-help-009.bin
                        --rate ${g}/v1-openmetrics-0.bin ${g}/v1-openmetrics-1.bin
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 20)
# U+FFFD for CR, ESC and U+202E; \n for a line feed; a quote and a backslash
# escaped. (No needle holds a '[': CMake's lists do not split inside one.)
string(ASCII 239 191 189 replacement)
expect("escapes" "${rc}" 0 "${out}"
  [=[machine="HOST \"q\"\\x",instance_name="q\"uote\\back"}]=]
  "instance_name=\"line\\nfeed${replacement}CR\"}"
  "instance_name=\"esc${replacement}"
  "instance_name=\"rlo${replacement}evil\"}"
  [=[instance_name="dup#1"}]=]
  [=[parent="{x=\"y\"},a=b",instance_name="{x=\"y\"},a=b/kid",unique_id="101"}]=]
  [=[# HELP windows_types_all_perf_counter_counter \\Types 'all'\\PERF_COUNTER_COUNTER (PERF_COUNTER_COUNTER): How PERF_COUNTER_COUNTER counts: 'as PDH'\\]=])
# A parent's name keeps its whole characters within 3,072 bytes: e acute
# and 1,023 of the 1,100 euro signs (3,071 bytes), in both labels.
string(REPEAT "€" 1023 euros)
expect("a long parent" "${rc}" 0 "${out}"
  "parent=\"é${euros}\",instance_name=\"é${euros}/kid\",unique_id=\"102\"}"
  "parent=\"é${euros}\",instance_name=\"é${euros}/kid\"}"
  "!parent=\"é${euros}€")
expect("collisions" "${rc}" 0 "${out}"
  "# TYPE windows_collide_foo counter\n" "# TYPE windows_collide_foo_2 gauge\n"
  "# TYPE windows_collide_foo_3 counter\n" "# TYPE windows_collide_bar_count gauge\n"
  "# TYPE windows_collide_bar_2 summary\n" "# TYPE windows_collide_foo_2_2 gauge\n")
# The names' CR and ESC never reach the text raw.
string(ASCII 13 cr)
string(ASCII 27 esc)
expect("no raw control" "${rc}" 0 "${out}" "!${cr}" "!${esc}")

# Refusals: usage (2), and captures that make no series (1).
foreach(case
    "--help-names without --openmetrics|2|go with --openmetrics|--help-names;x;${s}/v1-series-0.bin"
    "--json|2|does not go with|--openmetrics;--json;${s}/v1-series-0.bin"
    "--rate and --series|2|not both|--openmetrics;--rate;${s}/v1-series-0.bin;--series;${s}/v1-series-1.bin;--;${s}/v1-series-2.bin"
    "--no-timestamps of two|2|is for one capture|--openmetrics;--no-timestamps;--rate;${s}/v1-series-0.bin;${s}/v1-series-1.bin"
    "a bad prefix|2|is not a metric name|--openmetrics;--metric-prefix;9x;${s}/v1-series-0.bin"
    "times that go back|1|is later than|--openmetrics;--rate;${s}/v1-series-1.bin;${s}/v1-series-0.bin"
    "a Counter table|2|V1 data blocks and V2 query data|--openmetrics;${s}/v1-names-series-counter-009.bin"
    "V2 without its registration|2|needs --registration|--openmetrics;${CORPUS}/captures/documented/v2-query-documented-processor-information-0.bin"
    "V2 with --counter|2|--counter is for V1|--openmetrics;--registration;${CORPUS}/captures/documented/v2-reginfo-documented-processor-information.bin;--counter;\\X\\Y;${CORPUS}/captures/documented/v2-query-documented-processor-information-0.bin"
    "a rejected FILE|1|PERF_DATA_BLOCK|--openmetrics;--format;v1;${s}/v1-names-series-counter-009.bin")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 want)
  list(GET parts 2 needle)
  list(SUBLIST parts 3 -1 args)
  execute_process(COMMAND ${DUMP} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err TIMEOUT 20)
  expect("${name}" "${rc}" ${want} "${err}" "${needle}")
  if(NOT out STREQUAL "")
    message("${name}: wrote to stdout: ${out}")
    math(EXPR failed "${failed} + 1")
  endif()
endforeach()

message("${passed} passed, ${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "dump_openmetrics failed")
endif()
