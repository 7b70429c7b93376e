# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# perfbuf-dump --counter, --english-names and --csv: paths in English or
# German select and name the same counters, case-insensitively; the CSV is
# typeperf's layout, quoted and escaped so no name forges a field, a record
# or a formula.
# Inputs: -DDUMP=<perfbuf-dump> -DMAKE=<make_series> -DDIR=<scratch dir>
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
execute_process(COMMAND ${MAKE} --csv ${DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_series --csv failed: ${rc}")
endif()
set(passed 0)
set(failed 0)
set(english ${DIR}/v1-names-synthetic-counter-009.bin)
set(german ${DIR}/names-german.bin)
set(s0 ${DIR}/v1-synthetic-processor-0.bin)
set(s1 ${DIR}/v1-synthetic-processor-1.bin)

# CSV is read from a file. CMake drops the carriage returns the records
# end with when it reads text, so they are counted in the file's hex.
set(csv_file ${DIR}/out.csv)

# expect(NAME RC EXPECTED_RC TEXT MUST_CONTAIN...)
function(expect name rc want text)
  set(ok TRUE)
  if(NOT "${rc}" STREQUAL "${want}")
    message("${name}: exit ${rc}, expected ${want}")
    set(ok FALSE)
  endif()
  foreach(needle ${ARGN})
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

# lacks(NAME TEXT MUST_NOT_CONTAIN...)
function(lacks name text)
  set(ok TRUE)
  foreach(needle ${ARGN})
    string(FIND "${text}" "${needle}" at)
    if(NOT at EQUAL -1)
      message("${name}: the output has '${needle}'")
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

# An English path and a German one, in any case, on German display names:
# the header names both in German, the row has the rates of the pair.
execute_process(COMMAND ${DUMP} --names ${german} --english-names ${english}
                        --counter [=[\Processor(_Total)\% Processor Time]=]
                        --counter [=[\PROZESS(svchost#1)\prozesskennung]=]
                        --csv --rate ${s0} ${s1}
                RESULT_VARIABLE rc OUTPUT_FILE ${csv_file} ERROR_VARIABLE err TIMEOUT 20)
file(READ ${csv_file} out)
set(header [=["(PDH-CSV 4.0) (Coordinated Universal Time)(0)","\\SYNTHETIC\Prozessor(_Total)\Prozessorzeit (%)","\\SYNTHETIC\Prozess(svchost#1)\Prozesskennung"]=])
set(row [=["11/22/2026 10:00:00.000","42.500000","1044.000000"]=])
expect("csv: English and German paths" "${rc}" 0 "${out}" "${header}\n${row}\n")
lacks("csv: known paths are not reported" "${err}" "no object")

# Named in English when only the English table is given.
execute_process(COMMAND ${DUMP} --english-names ${english}
                        --counter [=[\processor(*)\% PROCESSOR TIME]=] --csv --rate ${s0} ${s1}
                RESULT_VARIABLE rc OUTPUT_FILE ${csv_file} TIMEOUT 20)
file(READ ${csv_file} out)
expect("csv: English, every instance" "${rc}" 0 "${out}"
       [=["\\SYNTHETIC\Processor(0)\% Processor Time","\\SYNTHETIC\Processor(1)\% Processor Time","\\SYNTHETIC\Processor(_Total)\% Processor Time"]=]
       [=["75.000000","10.000000","42.500000"]=])

# The German table alone does not know the English path: nothing selected.
execute_process(COMMAND ${DUMP} --names ${german}
                        --counter [=[\Processor(_Total)\% Processor Time]=] --csv ${s1}
                RESULT_VARIABLE rc OUTPUT_FILE ${csv_file} ERROR_VARIABLE err TIMEOUT 20)
file(READ ${csv_file} out)
expect("csv: the unknown object is reported" "${rc}" 0 "${err}"
       [=[--counter \Processor(_Total)\% Processor Time: no object of that name]=])
expect("csv: English path, German table only" "${rc}" 0 "${out}"
       "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\"\n\"11/22/2026 10:00:00.000\"\n")

# One capture: a rate has no value yet (typeperf's " "), a raw count has.
execute_process(COMMAND ${DUMP} --names ${german} --counter [=[\Prozess(svchost)\*]=] --csv ${s1}
                RESULT_VARIABLE rc OUTPUT_FILE ${csv_file} TIMEOUT 20)
file(READ ${csv_file} out)
expect("csv: one capture" "${rc}" 0 "${out}"
       [=["\\SYNTHETIC\Prozess(svchost)\Prozessorzeit (%)","\\SYNTHETIC\Prozess(svchost)\Prozesskennung"]=]
       [=["11/22/2026 10:00:00.000"," ","]=])

# Hostile names: '"' doubled, a line break replaced, and no field starts
# with a character a spreadsheet takes for a formula.
execute_process(COMMAND ${DUMP} --names ${DIR}/names-hostile.bin --counter [=[\=PROC(*)\say "hi"]=]
                        --csv ${DIR}/v1-hostile.bin
                RESULT_VARIABLE rc OUTPUT_FILE ${csv_file} TIMEOUT 20)
file(READ ${csv_file} out)
expect("csv: hostile names" "${rc}" 0 "${out}"
       [=["\\HOST\=Proc(=cmd|' /C calc'!A0)\Say ""hi"""]=]
       [=["7.000000","7.000000"]=])
# The line break inside the name became two U+FFFD (6 bytes), not a break.
string(REGEX MATCH "Proc\\(line([^\r\n\"]+)break\\)" broken "${out}")
string(LENGTH "${CMAKE_MATCH_1}" n)
expect("csv: line break replaced" "${n}" 6 "${broken}" "Proc(line")
string(REGEX MATCH "(^|,|\n)\"[=+@\t-]" formula "${out}")
if(formula)
  message("csv: a field starts like a formula: '${formula}'")
  math(EXPR failed "${failed} + 1")
else()
  math(EXPR passed "${passed} + 1")
endif()
string(REGEX MATCHALL "\n" records "${out}")
list(LENGTH records n)
expect("csv: two records" "${n}" 2 "")
file(READ ${csv_file} hex HEX)
string(REGEX MATCHALL "0d0a" crlf "${hex}")
string(REGEX MATCHALL "0d" cr "${hex}")
list(LENGTH crlf n)
list(LENGTH cr m)
expect("csv: records end with CRLF, no other CR" "${n}/${m}" "2/2" "")

# --counter in the text output: the selected counter and instance only.
execute_process(COMMAND ${DUMP} --names ${german} --english-names ${english}
                        --counter [=[\Process(svchost)\ID Process]=] ${s1}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out TIMEOUT 20)
expect("text: selected" "${rc}" 0 "${out}" [=[name: "Prozess"]=] [=[name: "Prozesskennung"]=]
       [=[full_name: "svchost"]=])
lacks("text: not selected" "${out}" [=[name: "Prozessor"]=] [=[name: "Prozessorzeit (%)"]=]
      [=[full_name: "Idle"]=])
string(REGEX MATCHALL "full_name: \"svchost\"" svchosts "${out}")
list(LENGTH svchosts n)
expect("text: svchost without #N is the first only" "${n}" 1 "")

# Usage errors.
execute_process(COMMAND ${DUMP} --counter [=[\Process(a)\b]=] ${s1}
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 20)
expect("--counter without tables" "${rc}" 2 "${err}" "--counter needs --names")
execute_process(COMMAND ${DUMP} --names ${german} --csv ${s1}
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 20)
expect("--csv without --counter" "${rc}" 2 "${err}" "--csv needs --counter")
execute_process(COMMAND ${DUMP} --names ${german} --counter [=[\a\b]=] --csv --json ${s1}
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 20)
expect("--csv with --json" "${rc}" 2 "${err}" "--csv needs --counter")
execute_process(COMMAND ${DUMP} --names ${german} --counter [=[\Prozess(]=] ${s1}
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 20)
expect("malformed path" "${rc}" 2 "${err}" "offset 9: Instance")
execute_process(COMMAND ${DUMP} --names ${german} --counter [=[\a\b]=] --csv ${german}
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 20)
expect("--csv of a name table" "${rc}" 2 "${err}" "--csv is for V1")

message("${passed} passed, ${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "dump_csv failed")
endif()
