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

# The German table alone does not know the English path: nothing is
# selected, and that is an error naming the file, the path and the part
# that matched nothing (typeperf refuses a counter it cannot find).
execute_process(COMMAND ${DUMP} --names ${german}
                        --counter [=[\Processor(_Total)\% Processor Time]=] --csv ${s1}
                RESULT_VARIABLE rc OUTPUT_FILE ${csv_file} ERROR_VARIABLE err TIMEOUT 20)
expect("csv: the unknown object fails the run" "${rc}" 1 "${err}"
       "perfbuf-dump: ${s1}: "
       [=[--counter \Processor(_Total)\% Processor Time: no object of that name]=])

# unmatched(NAME FORMAT_ARGS PATH MISSING): a path whose object is found but
# not its counter or instance exits 1 and says which part is missing.
function(unmatched name format path missing)
  execute_process(COMMAND ${DUMP} --english-names ${english} --counter ${path} ${format} ${s1}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 20)
  expect("${name}" "${rc}" 1 "${err}" "perfbuf-dump: ${s1}: --counter ${path}: ${missing}")
  set(passed ${passed} PARENT_SCOPE)
  set(failed ${failed} PARENT_SCOPE)
endfunction()
foreach(format --csv --json)
  unmatched("${format}: no counter" ${format} [=[\Processor(_Total)\No Such Counter]=]
            "no counter of that name in the object")
  unmatched("${format}: no instance" ${format} [=[\Processor(7)\% Processor Time]=]
            "no instance of that name")
  unmatched("${format}: no instance named" ${format} [=[\Processor\% Processor Time]=]
            "the object has instances and the path names none")
endforeach()

# Several paths: one that matches nothing fails the run, though the other
# is shown.
execute_process(COMMAND ${DUMP} --english-names ${english}
                        --counter [=[\Processor(_Total)\% Processor Time]=]
                        --counter [=[\No Such Object\X]=] --csv ${s1}
                RESULT_VARIABLE rc OUTPUT_FILE ${csv_file} ERROR_VARIABLE err TIMEOUT 20)
file(READ ${csv_file} out)
expect("csv: one of two paths unmatched" "${rc}" 1 "${err}"
       [=[--counter \No Such Object\X: no object of that name]=])
expect("csv: the matched path is still shown" "${rc}" 1 "${out}"
       [=[\SYNTHETIC\Processor(_Total)\% Processor Time]=])

# A (*) that finds the object with no instances now is not an error, and
# is said on stderr: the text and JSON show the object (exit 0). A CSV
# would have no column: none is written, and the run fails (exit 1). A
# named instance there is an error in every output.
execute_process(COMMAND ${DUMP} --names ${DIR}/names-hostile.bin --counter [=[\=PROC(*)\say "hi"]=]
                        --csv ${DIR}/v1-empty-object.bin
                RESULT_VARIABLE rc OUTPUT_FILE ${csv_file} ERROR_VARIABLE err TIMEOUT 20)
file(READ ${csv_file} out)
expect("csv: (*) over an empty object" "${rc}" 1 "${err}"
       "the object has no instances at this moment (not an error)"
       "v1-empty-object.bin: the --counter paths select no column: no CSV is written")
expect("csv: (*) over an empty object writes nothing" "${out}" "" "")
execute_process(COMMAND ${DUMP} --names ${DIR}/names-hostile.bin --counter [=[\=PROC(*)\say "hi"]=]
                        --json ${DIR}/v1-empty-object.bin
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 20)
expect("json: (*) over an empty object" "${rc}" 0 "${err}"
       "the object has no instances at this moment (not an error)")
execute_process(COMMAND ${DUMP} --names ${DIR}/names-hostile.bin --counter [=[\=PROC(x)\say "hi"]=]
                        --csv ${DIR}/v1-empty-object.bin
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 20)
expect("csv: a named instance of an empty object" "${rc}" 1 "${err}" "no instance of that name")
# A wildcard under a parent, (p/*) or (*/*), is a (*) too: an object with
# no instances has no parents, so it is said and is not an error, exit 0 in
# the text and JSON, 1 in the CSV, which has no column; a named instance
# under a parent is still an error.
foreach(instance "p/*" "*/*")
  foreach(format --csv --json "")
    execute_process(COMMAND ${DUMP} --names ${DIR}/names-hostile.bin
                            --counter "\\=PROC(${instance})\\say \"hi\"" ${format}
                            ${DIR}/v1-empty-object.bin
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 20)
    if(format STREQUAL "--csv")
      set(want 1)
    else()
      set(want 0)
    endif()
    expect("${format}: (${instance}) over an empty object" "${rc}" ${want} "${err}"
           "v1-empty-object.bin: --counter \\=PROC(${instance})\\say \"hi\": "
           "the object has no instances at this moment (not an error)")
  endforeach()
  # The last run is the text output: the object is shown, with no instance.
  expect("text: (${instance}) over an empty object, the object shown" "${rc}" 0 "${out}"
         [=[name: "=Proc"]=] "instances: (none)")
endforeach()
execute_process(COMMAND ${DUMP} --names ${DIR}/names-hostile.bin --counter [=[\=PROC(p/x)\say "hi"]=]
                        --csv ${DIR}/v1-empty-object.bin
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 20)
expect("csv: a named instance under a parent of an empty object" "${rc}" 1 "${err}"
       "no instance of the object has a parent of that name")

# A rejected --rate capture fails the run, naming that file and, for a
# block cut short, the sizes compared; nothing is printed.
set(cut ${DIR}/v1-cut-short.bin)
file(SIZE ${cut} received)
math(EXPR declared "${received} + 8")
foreach(format --csv --json)
  execute_process(COMMAND ${DUMP} --english-names ${english}
                          --counter [=[\Processor(_Total)\% Processor Time]=] ${format}
                          --rate ${cut} ${s1}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 20)
  expect("${format}: a rejected --rate capture" "${rc}" 1 "${err}"
         "perfbuf-dump: ${cut}: the --rate capture is rejected: offset 0x14: "
         "PERF_DATA_BLOCK.TotalByteLength: "
         "(declared ${declared}, received ${received})")
  expect("${format}: nothing printed for a rejected --rate capture" "${rc}" 1 "[${out}]" "[]")
endforeach()
# A rejected --series capture fails the run the same way, in every output.
foreach(format --csv --json "")
  execute_process(COMMAND ${DUMP} --english-names ${english}
                          --counter [=[\Processor(_Total)\% Processor Time]=] ${format}
                          --series ${s0} ${cut} -- ${s1}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 20)
  expect("${format}: a rejected --series capture" "${rc}" 1 "${err}"
         "perfbuf-dump: ${cut}: the --series capture is rejected: offset 0x14: "
         "PERF_DATA_BLOCK.TotalByteLength: "
         "(declared ${declared}, received ${received})")
  expect("${format}: nothing printed for a rejected --series capture" "${rc}" 1 "[${out}]" "[]")
endforeach()
# The same cut block as the file dumped: its line names it and the sizes.
execute_process(COMMAND ${DUMP} ${cut} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
expect("a block cut short" "${rc}" 1 "${err}"
       "${cut}: offset 0x14: PERF_DATA_BLOCK.TotalByteLength: "
       "(declared ${declared}, received ${received})\n")
execute_process(COMMAND ${DUMP} --json ${cut} RESULT_VARIABLE rc OUTPUT_VARIABLE json ERROR_QUIET)
string(JSON json_declared ERROR_VARIABLE json_error GET "${json}" error declared)
string(JSON json_limit ERROR_VARIABLE json_error GET "${json}" error limit)
expect("a block cut short, the sizes in the JSON error" "${rc}" 1
       "${json_declared} ${json_limit}" "${declared} ${received}")

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

# Unicode line breaks and bidirectional controls in instance names
# (v1-unicode-breaks.bin: one instance "uXXXX[<U+XXXX>]" each). The CSV
# replaces each by U+FFFD (EF BF BD), so a reader that splits lines on
# Unicode breaks still reads one record per line and no name reorders a
# spreadsheet's cells; the text output escapes each as \u{xxxx} and JSON
# as \uxxxx. Each pair: the code point and its UTF-8 bytes.
set(breaking 0085:c285 2028:e280a8 2029:e280a9 202a:e280aa 202b:e280ab 202c:e280ac
             202d:e280ad 202e:e280ae 2066:e281a6 2067:e281a7 2068:e281a8 2069:e281a9
             200e:e2808e 200f:e2808f 061c:d89c)
execute_process(COMMAND ${DUMP} --names ${DIR}/names-hostile.bin --counter [=[\=PROC(*)\say "hi"]=]
                        --csv ${DIR}/v1-unicode-breaks.bin
                RESULT_VARIABLE rc OUTPUT_FILE ${csv_file} TIMEOUT 20)
file(READ ${csv_file} csv_hex HEX)
execute_process(COMMAND ${DUMP} ${DIR}/v1-unicode-breaks.bin
                RESULT_VARIABLE text_rc OUTPUT_VARIABLE text TIMEOUT 20)
execute_process(COMMAND ${DUMP} --json ${DIR}/v1-unicode-breaks.bin
                RESULT_VARIABLE json_rc OUTPUT_VARIABLE json TIMEOUT 20)
foreach(pair ${breaking})
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 cp)
  list(GET pair 1 bytes)
  string(HEX "=Proc(u${cp}[" cell)
  expect("csv: U+${cp} replaced" "${rc}" 0 "${csv_hex}" "${cell}efbfbd5d29")
  lacks("csv: U+${cp} not written" "${csv_hex}" "${cell}${bytes}")
  expect("text: U+${cp} escaped" "${text_rc}" 0 "${text}" "name: \"u${cp}[\\u{${cp}}]\"")
  expect("json: U+${cp} escaped" "${json_rc}" 0 "${json}" "\"name\": \"u${cp}[\\u${cp}]\"")
endforeach()
# Nothing else breaks the CSV's lines: the header, one record, CRLF each.
string(REGEX MATCHALL "0d0a" crlf "${csv_hex}")
list(LENGTH crlf n)
expect("csv: Unicode breaks, two records" "${n}" 2 "")
foreach(bytes c285 e280a8 e280a9)
  # At a byte boundary of the hex: an even number of digits before.
  if("${csv_hex}" MATCHES "^(..)*${bytes}")
    message("csv: the bytes ${bytes} are in the output")
    math(EXPR failed "${failed} + 1")
  else()
    math(EXPR passed "${passed} + 1")
  endif()
endforeach()

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

# --csv parses every capture with the options the text output parses with:
# it accepts and refuses the same captures, with the same reason. A limit
# raised above its default lets through what the default refuses, a
# lowered one refuses what the default lets through, and --strict refuses
# trailing bytes that a lenient parse tolerates.
set(hostile_names ${DIR}/names-hostile.bin)
set(wide ${DIR}/v1-many-counters.bin)
set(trailing ${DIR}/v1-trailing.bin)
# same_answer(NAME EXPECTED_RC FILE MUST_CONTAIN OPTIONS...): the text
# output and --csv, each exiting EXPECTED_RC with MUST_CONTAIN in its
# stdout (rc 0) or stderr (rc 1).
function(same_answer name want file needle)
  foreach(format "" --csv)
    execute_process(COMMAND ${DUMP} --names ${hostile_names} --counter [=[\=Proc(*)\Say "hi"]=]
                            ${ARGN} ${format} ${file}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    if(want EQUAL 0)
      expect("${name} ${format}" "${rc}" ${want} "${out}" "${needle}")
    else()
      expect("${name} ${format}" "${rc}" ${want} "${err}" "${needle}")
    endif()
  endforeach()
  set(passed ${passed} PARENT_SCOPE)
  set(failed ${failed} PARENT_SCOPE)
endfunction()
same_answer("65537 counters, default limit" 1 ${wide}
            "NumCounters: the count is above the caller's limit (declared 65537, limit 65536)")
same_answer("65537 counters, --max-counters 65537" 0 ${wide} "wide" --max-counters 65537)
same_answer("two instances, default limit" 0 ${trailing} "second")
same_answer("two instances, --max-instances 1" 1 ${trailing}
            "NumInstances: the count is above the caller's limit (declared 2, limit 1)"
            --max-instances 1)
same_answer("trailing bytes, --strict" 1 ${trailing}
            "TotalByteLength: bytes are left over where the format allows none" --strict)
# An earlier capture is held to the same options as FILE.
execute_process(COMMAND ${DUMP} --names ${hostile_names} --counter [=[\=Proc(*)\Say "hi"]=]
                        --max-counters 65537 --csv --rate ${wide} ${wide}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
expect("--csv --rate over the default limit, raised" "${rc}" 0 "${out}"
       [=["\\HOST\=Proc(wide)\Say ""hi"""]=] [=["7.000000"]=])
execute_process(COMMAND ${DUMP} --names ${hostile_names} --counter [=[\=Proc(*)\Say "hi"]=]
                        --max-instances 1 --csv --rate ${trailing} ${wide}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 60)
expect("--csv --rate, the earlier capture over a lowered limit" "${rc}" 1 "${err}"
       "the --rate capture is rejected" "(declared 2, limit 1)")

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
