# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# perfbuf-dump --rate and --series on four captures one second apart:
# Idle's % Processor Time is 15, 25 and 35 % over the three intervals.
# Inputs: -DDUMP=<perfbuf-dump> -DMAKE=<make_series> -DDIR=<scratch folder>
file(MAKE_DIRECTORY ${DIR})
execute_process(COMMAND ${MAKE} ${DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_series failed")
endif()
set(failed 0)
macro(expect what got want)
  if(NOT "${got}" STREQUAL "${want}")
    message("FAIL ${what}: got '${got}', want '${want}'")
    math(EXPR failed "${failed} + 1")
  endif()
endmacro()

execute_process(COMMAND ${DUMP} --json --rate ${DIR}/s2.bin ${DIR}/s3.bin
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
expect("--rate exit" "${rc}" "0")
string(JSON idle GET "${json}" objects 0 instances 0 formatted 0)
expect("Idle % Processor Time, last interval" "${idle}" "35.000000")
string(JSON raw ERROR_VARIABLE json_error GET "${json}" objects 0 instances 1 formatted 1)
expect("svchost ID Process (a raw count)" "${raw}" "101.000000")

execute_process(COMMAND ${DUMP} --json --series ${DIR}/s0.bin ${DIR}/s1.bin ${DIR}/s2.bin --
                        ${DIR}/s3.bin OUTPUT_VARIABLE json RESULT_VARIABLE rc)
expect("--series exit" "${rc}" "0")
string(JSON count GET "${json}" objects 0 instances 0 statistics 0 count)
string(JSON min GET "${json}" objects 0 instances 0 statistics 0 min)
string(JSON max GET "${json}" objects 0 instances 0 statistics 0 max)
string(JSON mean GET "${json}" objects 0 instances 0 statistics 0 mean)
expect("statistics count" "${count}" "3")
expect("statistics min" "${min}" "15.000000")
expect("statistics max" "${max}" "35.000000")
expect("statistics mean" "${mean}" "25.000000")

# One capture given twice: the one pair of the rate spans no time, so no
# value is usable and the status is PERFBUF_PDH_NO_DATA's word, from the
# library's table, where the dump once wrote "unknown".
execute_process(COMMAND ${DUMP} --json --series ${DIR}/s2.bin -- ${DIR}/s2.bin
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
expect("--series of one instant exit" "${rc}" "0")
string(JSON status ERROR_VARIABLE json_error GET "${json}" objects 0 instances 0 statistics 0 status)
expect("--series of one instant: no usable value" "${status}" "no-data")
string(JSON count ERROR_VARIABLE json_error GET "${json}" objects 0 instances 0 statistics 0 count)
expect("--series of one instant: count" "${count}" "0")

# The series given newest first runs backwards in time: the run fails
# before anything is written, naming the clocks (docs/cli.md, "Exit status").
execute_process(COMMAND ${DUMP} --json --series ${DIR}/s3.bin -- ${DIR}/s2.bin
                OUTPUT_VARIABLE json ERROR_VARIABLE err RESULT_VARIABLE rc)
expect("--series backwards exit" "${rc}" "1")
expect("--series backwards writes nothing" "${json}" "")
string(FIND "${err}" "s3.bin: the --series capture is later than ${DIR}/s2.bin: PerfTime100nSec"
       at)
if(at EQUAL -1)
  message("FAIL --series backwards says why: stderr is '${err}'")
  math(EXPR failed "${failed} + 1")
endif()

execute_process(COMMAND ${DUMP} --series ${DIR}/s0.bin ${DIR}/s3.bin RESULT_VARIABLE rc
                OUTPUT_QUIET ERROR_QUIET)
expect("--series without its closing --" "${rc}" "2")

# V2: the query with its registration, names and identifiers beside it.
execute_process(COMMAND ${DUMP} --json --format v2-query --registration ${DIR}/v2-reginfo.bin
                        --counter-names ${DIR}/v2-names.bin --identifiers ${DIR}/v2-ids.bin
                        --rate ${DIR}/v2-q0.bin ${DIR}/v2-q1.bin
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
expect("v2 --rate exit" "${rc}" "0")
string(JSON agree ERROR_VARIABLE json_error GET "${json}" crosscheck agree)
expect("v2 cross-check" "${agree}" "ON")
string(JSON id ERROR_VARIABLE json_error GET "${json}" blocks 0 instances 0 values 0 counter_id)
string(JSON name_id ERROR_VARIABLE json_error GET "${json}" counter_names 0 counter_id)
string(JSON name ERROR_VARIABLE json_error GET "${json}" counter_names 0 name)
expect("v2 counter 0 id" "${id}/${name_id}" "0/0")
expect("v2 counter 0 name" "${name}" "% Processor Time")
string(JSON type ERROR_VARIABLE json_error GET "${json}" blocks 0 instances 0 values 0 counter_type_name)
expect("v2 counter 0 type" "${type}" "PERF_100NSEC_TIMER_INV")
string(JSON busy ERROR_VARIABLE json_error GET "${json}" blocks 0 instances 0 values 0 formatted)
expect("v2 _Total % Processor Time" "${busy}" "75.000000")
string(JSON raw ERROR_VARIABLE json_error GET "${json}" blocks 0 instances 1 values 7 formatted)
expect("v2 0,0 DPC Rate (a raw count)" "${raw}" "2007.000000")

execute_process(COMMAND ${DUMP} --json --format v2-query --registration
                        ${DIR}/v2-reginfo-single.bin ${DIR}/v2-q1.bin
                OUTPUT_VARIABLE json RESULT_VARIABLE rc ERROR_VARIABLE err)
# A registration that disagrees rejects the pair: exit 1, the place in the
# query data on stderr, and the whole description still on stdout.
expect("v2 mismatch exit" "${rc}" "1")
expect("v2 mismatch line"
       "${err}" "${DIR}/v2-q1.bin: offset 0x34: PERF_COUNTER_HEADER.dwType: the field contradicts another field\n")
string(JSON valid ERROR_VARIABLE json_error GET "${json}" valid)
expect("v2 mismatch: the JSON says the pair is rejected" "${valid}" "OFF")
string(JSON status ERROR_VARIABLE json_error GET "${json}" error status)
expect("v2 mismatch error status" "${status}" "PERFBUF_E_INCONSISTENT")
string(JSON last ERROR_VARIABLE json_error GET "${json}" blocks 0 instances 1 values 30 value)
expect("v2 mismatch: the JSON is complete" "${last}" "2031")

string(JSON agree ERROR_VARIABLE json_error GET "${json}" crosscheck agree)
expect("v2 cross-check against a single-instance set" "${agree}" "OFF")
string(JSON kind ERROR_VARIABLE json_error GET "${json}" crosscheck mismatch)
expect("v2 mismatch kind" "${kind}" "RESULT_KIND")
string(JSON field ERROR_VARIABLE json_error GET "${json}" crosscheck in_registration field)
expect("v2 mismatch field in the registration" "${field}" "InstanceType")

# A registration whose first counter is 4 bytes where the data has 8: the
# value's dwDataSize is where the pair disagrees.
execute_process(COMMAND ${DUMP} --json --format v2-query --registration
                        ${DIR}/v2-reginfo-size.bin ${DIR}/v2-q1.bin
                OUTPUT_VARIABLE json RESULT_VARIABLE rc ERROR_VARIABLE err)
expect("v2 value-size mismatch exit" "${rc}" "1")
expect("v2 value-size mismatch line"
       "${err}" "${DIR}/v2-q1.bin: offset 0xe8: PERF_COUNTER_DATA.dwDataSize: the field contradicts another field\n")
string(JSON kind ERROR_VARIABLE json_error GET "${json}" crosscheck mismatch)
expect("v2 value-size mismatch kind" "${kind}" "VALUE_SIZE")
string(JSON field ERROR_VARIABLE json_error GET "${json}" error field)
expect("v2 value-size mismatch in the JSON error" "${field}" "dwDataSize")

# Every metadata format decodes its file, one fact checked in each.
set(meta_checks
    "v2-reginfo|v2-reginfo.bin|counters/21/base_counter_id|22"
    "v2-counter|v2-counter.bin|counter/type_name|PERF_PRECISION_100NS_TIMER"
    "v2-string|v2-name.bin|text|Processor Information"
    "v2-provider-guid|v2-provider.bin|provider|{b4fc721a-0378-476f-89ba-a5a79f810b36}"
    "v2-strings|v2-names.bin|strings/30/text|Performance Limit Flags"
    "v2-countersets|v2-countersets.bin|countersets/1|{b4fc721b-0378-476f-89ba-a5a79f810b36}"
    "v2-instances|v2-instances.bin|instances/1/name|0,0"
    "v2-identifiers|v2-ids.bin|identifiers/0/instance_name|*")
foreach(check IN LISTS meta_checks)
  string(REPLACE "|" ";" parts "${check}")
  list(GET parts 0 format)
  list(GET parts 1 file)
  list(GET parts 2 path)
  list(GET parts 3 want)
  string(REPLACE "/" ";" keys "${path}")
  execute_process(COMMAND ${DUMP} --json --strict --format ${format} ${DIR}/${file}
                  OUTPUT_VARIABLE json RESULT_VARIABLE rc)
  expect("${format} exit" "${rc}" "0")
  string(JSON got GET "${json}" ${keys})
  expect("${format} ${path}" "${got}" "${want}")
  # Text output too, and the file cut by one byte is rejected.
  execute_process(COMMAND ${DUMP} --format ${format} ${DIR}/${file} RESULT_VARIABLE rc
                  OUTPUT_QUIET)
  expect("${format} text exit" "${rc}" "0")
endforeach()
execute_process(COMMAND ${DUMP} --format v2-strings --origin block ${DIR}/v2-names.bin
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
expect("v2-strings read with the other origin" "${rc}" "1")
expect("v2-strings rejection names dwOffset"
       "${err}" "${DIR}/v2-names.bin: offset 0xc: PERF_STRING_COUNTER_HEADER.dwOffset: the offset points outside the structure it belongs to (declared 0, at least 256)\n")

if(failed GREATER 0)
  message(FATAL_ERROR "${failed} checks failed")
endif()
math(EXPR total "21 + 4 * 8 + 2")
message("${total} passed, 0 failed")
