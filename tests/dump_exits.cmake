# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# perfbuf-dump's exit status, row by row of the table in docs/cli.md ("Exit
# status"): each input kind (FILE, --names, --english-names, --registration,
# --counter-names, --identifiers, --counterset-name, --rate, --series),
# valid, rejected and empty; captures that cannot make a rate; every kind of
# --counter miss, with the part it names; --csv without a column; usage
# (--pair-by's among them) and I/O errors. Whatever the exit, a JSON document's `valid` agrees with it,
# and where the table says nothing is written, stdout is empty.
# Inputs: -DDUMP=<perfbuf-dump> -DMAKE=<make_series> -DDIR=<scratch dir> -DCORPUS=<corpus dir>
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR}/csv ${DIR}/series)
foreach(mode "--csv;${DIR}/csv" "${DIR}/series")
  execute_process(COMMAND ${MAKE} ${mode} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "make_series ${mode} failed: ${rc}")
  endif()
endforeach()
set(passed 0)
set(failed 0)

set(syn ${CORPUS}/captures/synthetic)
set(names ${syn}/v1-names-synthetic-counter-009.bin)
set(p0 ${syn}/v1-synthetic-processor-0.bin)
set(p1 ${syn}/v1-synthetic-processor-1.bin)
set(doc ${CORPUS}/captures/documented)
set(doc_names ${doc}/v1-names-documented-counter-009.bin)
set(g0 ${doc}/v1-documented-global-0.bin)
set(g1 ${doc}/v1-documented-global-1.bin)
set(reg ${doc}/v2-reginfo-documented-processor-information.bin)
set(v2_names ${doc}/v2-names-documented-processor-information.bin)
set(v2_name ${doc}/v2-counterset-name-documented-processor-information.bin)
set(q0 ${doc}/v2-query-documented-processor-information-0.bin)
set(q1 ${doc}/v2-query-documented-processor-information-1.bin)
set(s ${CORPUS}/captures/series)
set(wine ${CORPUS}/captures/wine-8.0/v1-global.bin)
set(cut ${DIR}/csv/v1-cut-short.bin)
set(empty_object ${DIR}/csv/v1-empty-object.bin)
set(hostile_names ${DIR}/csv/names-hostile.bin)
set(ids ${DIR}/series/v2-ids.bin)
set(empty ${DIR}/empty.bin)
file(WRITE ${empty} "")
# Text files no reader accepts: three bytes are an odd UTF-16 length (a
# Counter table), less than an identifier's 40, and one byte is a string
# without its NUL.
file(WRITE ${DIR}/three.txt "abc")
file(WRITE ${DIR}/one.txt "A")

# case(NAME RC OUTPUT STDERR ARG...): runs perfbuf-dump with the arguments;
# its exit must be RC, stderr must hold STDERR (unless empty), and stdout:
#   none     nothing
#   json     a JSON document whose `valid` agrees with RC (true exactly for 0)
#   csv      typeperf's CSV
#   text     anything
# A function, not a macro: a macro would parse the paths' backslashes again.
function(case name want output needle)
  execute_process(COMMAND ${DUMP} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err TIMEOUT 60)
  set(ok TRUE)
  if(NOT "${rc}" STREQUAL "${want}")
    message("${name}: exit ${rc}, expected ${want}; stderr: ${err}")
    set(ok FALSE)
  endif()
  if(NOT needle STREQUAL "")
    string(FIND "${err}" "${needle}" at)
    if(at EQUAL -1)
      message("${name}: stderr lacks '${needle}': ${err}")
      set(ok FALSE)
    endif()
  endif()
  if(output STREQUAL "none" AND NOT out STREQUAL "")
    message("${name}: stdout is not empty")
    set(ok FALSE)
  elseif(output STREQUAL "json")
    string(JSON valid ERROR_VARIABLE json_error GET "${out}" valid)
    if(rc EQUAL 0)
      set(want_valid ON)
    else()
      set(want_valid OFF)
    endif()
    if(json_error OR NOT valid STREQUAL want_valid)
      message("${name}: valid is '${valid}' for exit ${rc} ${json_error}")
      set(ok FALSE)
    endif()
  elseif(output STREQUAL "csv")
    string(FIND "${out}" "\"(PDH-CSV 4.0)" at)
    if(NOT at EQUAL 0)
      message("${name}: stdout is not a CSV: ${out}")
      set(ok FALSE)
    endif()
  endif()
  if(ok)
    math(EXPR n "${passed} + 1")
    set(passed ${n} PARENT_SCOPE)
  else()
    math(EXPR n "${failed} + 1")
    set(failed ${n} PARENT_SCOPE)
  endif()
  set(last_out "${out}" PARENT_SCOPE)
endfunction()

# json_is(NAME WANT KEY...): the last output's value at KEY... is WANT.
function(json_is name want)
  string(JSON got ERROR_VARIABLE json_error GET "${last_out}" ${ARGN})
  if(NOT "${got}" STREQUAL "${want}")
    message("${name}: '${got}' at ${ARGN}, expected '${want}' ${json_error}")
    math(EXPR n "${failed} + 1")
    set(failed ${n} PARENT_SCOPE)
  else()
    math(EXPR n "${passed} + 1")
    set(passed ${n} PARENT_SCOPE)
  endif()
endfunction()

# ---- 0: every input accepted, every path found what it names ----
case("capture" 0 json "" --json ${p1})
case("--names" 0 json "" --json --names ${names} ${p1})
case("--english-names, --counter" 0 json "" --json --english-names ${names}
     --counter [=[\Processor(0)\% Processor Time]=] ${p1})
case("--rate" 0 json "" --json --names ${names} --rate ${p0} ${p1})
case("--rate of one capture twice (no clock goes back)" 0 json "" --json --rate ${p1} ${p1})
case("--series" 0 json "" --json --series ${s}/v1-series-0.bin ${s}/v1-series-1.bin
     ${s}/v1-series-2.bin -- ${s}/v1-series-3.bin)
case("V2 side files, --counter by name, --rate" 0 json "" --json --format v2-query
     --registration ${reg} --counter-names ${v2_names} --counterset-name ${v2_name}
     --identifiers ${ids} --counter [=[\Processor Information(*)\% Processor Time]=]
     --rate ${q0} ${q1})
case("--csv" 0 csv "" --names ${names} --csv --counter [=[\Processor(0)\% Processor Time]=]
     --rate ${p0} ${p1})
case("(*) over an object without instances now: said, not an error" 0 json
     "the object has no instances at this moment (not an error)" --json
     --names ${hostile_names} --counter [=[\=PROC(*)\say "hi"]=] ${empty_object})

# ---- 1: FILE rejected, or empty ----
case("capture rejected" 1 json "v1-cut-short.bin: offset 0x14: PERF_DATA_BLOCK.TotalByteLength"
     --json ${cut})
json_is("capture rejected: the error" "PERFBUF_E_SIZE_EXCEEDS_RECEIVED" error status)
case("capture rejected, text" 1 text "offset 0x14" ${cut})
case("empty capture" 1 none "${empty}: the file is empty (0 bytes)" --json ${empty})
case("empty capture, format named" 1 none "the file is empty (0 bytes)" --json --format v1
     ${empty})
case("empty capture of a format whose reader takes no bytes" 1 none
     "the file is empty (0 bytes)" --format v2-identifiers ${empty})
case("empty standard input" 1 none "standard input: the file is empty (0 bytes)" --json -
     INPUT_FILE ${empty})
case("empty --rate from standard input" 1 none
     "standard input: the --rate capture is empty (0 bytes)" --json --rate - ${p1}
     INPUT_FILE ${empty})

# ---- 1: another input rejected or empty: nothing is written ----
foreach(side "--names;--names table;${p1}"
             "--english-names;--english-names table;${p1}"
             "--registration;--registration file;--format;v2-query;${q1}"
             "--counter-names;--counter-names file;--format;v2-query;${q1}"
             "--identifiers;--identifiers file;--format;v2-query;${q1}"
             "--counterset-name;--counterset-name file;--format;v2-query;${q1}")
  list(POP_FRONT side option what)
  set(bad ${DIR}/three.txt)
  if(option STREQUAL "--counterset-name")
    set(bad ${DIR}/one.txt)
  endif()
  case("${option} rejected" 1 none "${bad}: the ${what} is rejected: offset 0x" --json
       ${option} ${bad} ${side})
  case("${option} empty" 1 none "${empty}: the ${what} is empty (0 bytes)" --json
       ${option} ${empty} ${side})
endforeach()
case("--names rejected, whatever FILE's format" 1 none "the --names table is rejected"
     --names ${DIR}/three.txt --format v2-query ${q1})
case("--rate rejected" 1 none "${cut}: the --rate capture is rejected: offset 0x14" --json
     --rate ${cut} ${p1})
case("--rate empty" 1 none "${empty}: the --rate capture is empty (0 bytes)" --json
     --rate ${empty} ${p1})
case("--series rejected" 1 none "${cut}: the --series capture is rejected: offset 0x14" --json
     --series ${p0} ${cut} -- ${p1})
case("--series empty" 1 none "${empty}: the --series capture is empty (0 bytes)" --json
     --series ${empty} -- ${p1})
case("--csv --rate rejected" 1 none "the --rate capture is rejected" --names ${names} --csv
     --counter [=[\Processor(0)\% Processor Time]=] --rate ${cut} ${p1})

# ---- 1: captures that cannot make a rate ----
case("--rate swapped" 1 none
     "${p1}: the --rate capture is later than ${p0}: PerfTime100nSec 134398148571470699 is after 134398148561470699; give --rate the earlier capture"
     --json --rate ${p1} ${p0})
case("--csv --rate swapped" 1 none "the --rate capture is later than" --names ${names} --csv
     --counter [=[\Processor(0)\% Processor Time]=] --rate ${p1} ${p0})
case("--rate every clock back" 1 none
     "PerfTime 133456789 is after 123456789, PerfTime100nSec 134398152010000000 is after 134398152000000000, SystemTime 2026-11-22 10:00:01.000 is after 2026-11-22 10:00:00.000"
     --json --rate ${g1} ${g0})
case("--rate of another computer" 1 none
     "${s}/v1-series-0.bin: the --rate capture is of computer \"SERIES\" and ${g1} of \"DOCUMENTED\": a rate pairs two captures of one computer"
     --json --rate ${s}/v1-series-0.bin ${g1})
case("--series out of order" 1 none
     "${s}/v1-series-2.bin: the --series capture is later than ${s}/v1-series-1.bin"
     --json --series ${s}/v1-series-0.bin ${s}/v1-series-2.bin ${s}/v1-series-1.bin --
     ${s}/v1-series-3.bin)
case("--series later than FILE" 1 none
     "${s}/v1-series-3.bin: the --series capture is later than ${s}/v1-series-2.bin"
     --json --series ${s}/v1-series-3.bin -- ${s}/v1-series-2.bin)
case("--series of another computer" 1 none "of computer \"VM\" and"
     --json --series ${wine} -- ${p1})
case("V2 --rate swapped" 1 none
     "${q1}: the --rate capture is later than ${q0}: PerfTimeStamp" --json --format v2-query
     --registration ${reg} --rate ${q1} ${q0})
case("V2 query data that disagrees with its registration" 1 json
     "offset 0x34: PERF_COUNTER_HEADER.dwType" --json --format v2-query
     --registration ${DIR}/series/v2-reginfo-single.bin ${DIR}/series/v2-q1.bin)

# ---- 1: a --counter path that matched nothing, naming the part ----
# miss(NAME TABLE PATH PART OFFSET WORDS FILE): the JSON is written with
# valid false and an error naming the path, the part and its offset; stderr
# says why.
function(miss name table path part offset words file)
  case("${name}" 1 json "--counter ${path}: ${words}" --json ${table} --counter ${path}
       ${file})
  foreach(key "field;${part}" "offset;${offset}" "message;${words}" "path;${path}"
              "structure;COUNTER_PATH" "status;PERFBUF_E_NOT_FOUND")
    list(POP_FRONT key k)
    json_is("${name}: error ${k}" "${key}" error ${k})
  endforeach()
  set(passed ${passed} PARENT_SCOPE)
  set(failed ${failed} PARENT_SCOPE)
endfunction()
set(en --english-names ${doc_names})
miss("no object" "${en}" [=[\Nope(*)\% Processor Time]=] Object 1 "no object of that name" ${g1})
miss("no counter" "${en}" [=[\Processor(*)\Nope]=] Counter 14 "no counter of that name in the object" ${g1})
miss("instances, none named" "${en}" [=[\Processor\% Processor Time]=] Instance 10
     "the object has instances and the path names none" ${g1})
miss("no instance of that name" "${en}" [=[\Processor(7)\% Processor Time]=] Instance 11
     "no instance of that name" ${g1})
miss("no name with that prefix" "${en}" [=[\Process(zz*)\% Processor Time]=] Instance 9
     "no instance has a name that starts with that prefix" ${g1})
miss("no parent of that name" "${en}" [=[\Thread(nope/0)\% Processor Time]=] Parent 8
     "no instance of the object has a parent of that name" ${g1})
miss("no such name under that parent" "${en}" [=[\Thread(svchost/9)\% Processor Time]=]
     Instance 16 "no instance of that name under that parent" ${g1})
miss("no #N of that name" "${en}" [=[\Thread(svchost/0#2)\% Processor Time]=] Index 17
     "no instance of that name has the index #2" ${g1})
# The machine part is the path's part from byte 2, after "\\".
miss("another computer" "${en}" [=[\\ELSEWHERE\Processor(*)\% Processor Time]=] Machine 2
     "the path names another computer than the capture's (its SystemName)" ${g1})
miss("no instances by kind" "${en}" [=[\Memory(x)\Available Bytes]=] Instance 8
     "the object has no instances: it holds one counter block, which a path names without \"(...)\""
     ${g1})
set(v2 --format v2-query --registration ${reg} --counter-names ${v2_names})
miss("V2: no counterset of that GUID" "${v2}" [=[\Processor Information(*)\% Processor Time]=]
     Object 1 "no counterset of that GUID in the registration (its name needs --counterset-name)"
     ${q1})
miss("V2: no such instance" "${v2};--counterset-name;${v2_name}"
     [=[\Processor Information(9,9)\% Processor Time]=] Instance 23 "no instance of that name"
     ${q1})
case("a miss among paths that match: the others shown, the run fails" 1 json
     "--counter \\Nope\\x: no object of that name" --json --english-names ${doc_names}
     --counter [=[\Memory\Available Bytes]=] --counter [=[\Nope\x]=] ${g1})
json_is("the path that matched is shown" "Memory" objects 0 name)
json_is("the error names the path that did not" [=[\Nope\x]=] error path)

# ---- 1: --csv without a column writes nothing ----
case("--csv without a column" 1 none
     "the --counter paths select no column: no CSV is written" --names ${hostile_names}
     --csv --counter [=[\=PROC(*)\say "hi"]=] ${empty_object})
case("--csv of a path that matches nothing" 1 none "no instance of that name" --names ${names}
     --csv --counter [=[\Processor(7)\% Processor Time]=] ${p1})

# ---- 2: usage ----
case("an unknown option" 2 none "unknown or incomplete option --nope" --nope ${p1})
case("an option without its value" 2 none "unknown or incomplete option --rate" ${p1} --rate)
case("no FILE" 2 none "usage:" --json)
case("two FILEs" 2 none "one file at a time" ${p0} ${p1})
case("--counter without a table" 2 none "--counter needs --names or --english-names (V1), or --registration (V2)"
     --counter [=[\Processor(0)\% Processor Time]=] ${p1})
case("--counter on V1 with only a registration" 2 none
     "--counter on a V1 data block needs --names or --english-names" --registration ${reg}
     --counter [=[\Processor(0)\% Processor Time]=] ${p1})
case("--counter on V2 with only a table" 2 none "--counter on V2 query data needs --registration"
     --names ${names} --counter [=[\Processor(0)\% Processor Time]=] --format v2-query ${q1})
case("--counter on another format" 2 none "--counter is for V1 data blocks and V2 query data"
     --registration ${reg} --counter [=[\X(*)\Y]=] --format v2-reginfo ${reg})
case("a malformed path" 2 none "--counter \\Processor(: offset" --names ${names}
     --counter [=[\Processor(]=] ${p1})
case("--csv without --counter" 2 none "--csv needs --counter" --names ${names} --csv ${p1})
case("--csv with --json" 2 none "does not go with --json" --names ${names} --csv --json
     --counter [=[\Processor(0)\% Processor Time]=] ${p1})
case("--csv on V2 query data" 2 none "--csv is for V1 data blocks" --registration ${reg} --csv
     --counter [=[\Processor Information(*)\% Processor Time]=] --format v2-query ${q1})
case("--pair-by without --rate or --series" 2 none "--pair-by goes with --rate or --series"
     --pair-by pdh ${p1})
case("--pair-by *" 2 none "--pair-by is unique-id, pdh or a counter's name" --names ${names}
     --pair-by * --rate ${p0} ${p1})
case("--pair-by a counter without a table" 2 none "it needs --names or --english-names"
     --pair-by "ID Process" --rate ${p0} ${p1})
case("--pair-by a counter no table names" 2 none "no title of the --names or --english-names"
     --names ${names} --pair-by "No Such Counter" --rate ${p0} ${p1})
case("--pair-by on V2 query data" 2 none "--pair-by is for V1 data blocks" --registration ${reg}
     --pair-by unique-id --format v2-query --rate ${q0} ${q1})
case("--pair-by with --openmetrics" 2 none "--pair-by does not go with --openmetrics"
     --openmetrics --pair-by pdh --rate ${p0} ${p1})
case("--pair-by pdh" 0 json "" --json --pair-by pdh --rate ${p0} ${p1})
case("--csv --pair-by a counter" 0 csv "" --csv --names ${s}/v1-names-series-counter-009.bin
     --counter [=[\Process(*)\% Processor Time]=] --pair-by "ID Process"
     --rate ${s}/v1-series-1.bin ${s}/v1-series-2.bin)
# An empty argument, which a function's ARGN would drop.
execute_process(COMMAND ${DUMP} --names ${names} --pair-by "" --rate ${p0} ${p1}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 20)
if(rc EQUAL 2 AND out STREQUAL "" AND err MATCHES "--pair-by is unique-id, pdh or a counter's name")
  math(EXPR passed "${passed} + 1")
else()
  message("--pair-by empty: exit ${rc}, ${err}")
  math(EXPR failed "${failed} + 1")
endif()
case("- twice" 2 none "names one input at most" --names - - INPUT_FILE ${p1})
case("a format auto cannot tell" 2 none "format not recognised; name it with --format"
     ${DIR}/three.txt)
case("an unknown format" 2 none "unknown format v9" --format v9 ${p1})
case("a limit out of range" 2 none "--max-instances needs a number" --max-instances -1 ${p1})

# ---- 2: I/O ----
case("a file that does not exist" 2 none "${DIR}/missing.bin" ${DIR}/missing.bin)
case("a --names table that does not exist" 2 none "${DIR}/missing.bin"
     --names ${DIR}/missing.bin ${p1})
case("a folder" 2 none "not a regular file" ${DIR})
case("over the input limit" 2 none "larger than 8 bytes (--max-input-bytes)"
     --max-input-bytes 8 ${p1})
if(EXISTS /dev/full)
  execute_process(COMMAND ${DUMP} --json ${p1} OUTPUT_FILE /dev/full RESULT_VARIABLE rc
                  ERROR_VARIABLE err TIMEOUT 20)
  if(rc EQUAL 2 AND err MATCHES "writing the output failed")
    math(EXPR passed "${passed} + 1")
  else()
    message("output that cannot be written: exit ${rc}, ${err}")
    math(EXPR failed "${failed} + 1")
  endif()
endif()

message("${passed} passed, ${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "perfbuf-dump's exit status does not follow docs/cli.md")
endif()
