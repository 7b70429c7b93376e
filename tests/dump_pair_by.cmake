# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# perfbuf-dump --pair-by (docs/cli.md, "Pairing"), over the collector's
# series (corpus/captures/series/README.md): between v1-series-1.bin and
# v1-series-2.bin PID 812 "svchost" exits and PID 1044 "svchost#1" becomes
# "svchost". By ID Process svchost keeps its own sample (10 %) and PID 812
# is listed as exited with its key; by PDH's key svchost meets PID 812's
# sample (60 %) and "svchost#1" is what exited. The default and unique-id
# pair a provider's UniqueID (make_series --pairing's uid-*), each id
# keeping its own sample, where pdh moves it onto the one before.
# Inputs: -DDUMP=<perfbuf-dump> -DMAKE=<make_series> -DDIR=<scratch folder>
#         -DSERIES=<corpus/captures/series>
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
execute_process(COMMAND ${MAKE} --pairing ${DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_series --pairing failed")
endif()
set(failed 0)
set(passed 0)
# A function, not a macro: a macro would parse the paths' backslashes again.
function(expect what got want)
  if("${got}" STREQUAL "${want}")
    math(EXPR passed "${passed} + 1")
    set(passed ${passed} PARENT_SCOPE)
  else()
    message("FAIL ${what}: got '${got}', want '${want}'")
    math(EXPR failed "${failed} + 1")
    set(failed ${failed} PARENT_SCOPE)
  endif()
endfunction()

set(names ${SERIES}/v1-names-series-counter-009.bin)
set(s1 ${SERIES}/v1-series-1.bin)
set(s2 ${SERIES}/v1-series-2.bin)
set(cpu "\\Process(*)\\% Processor Time")

# The JSON's Process object (1) and Thread object (2): svchost's rate, and
# the one exited instance of each with its identity and key ("-": none).
# mode | svchost % | Process exited | Thread exited
foreach(row "ID Process|10.000000|svchost,1,ID Process,812|svchost/0,2,ID Process,812"
            "pdh|60.000000|svchost#1,2,name,-|svchost/0#1,3,name,-"
            "unique-id|60.000000|svchost#1,2,name,-|svchost/0#1,3,name,-")
  string(REPLACE "|" ";" parts "${row}")
  list(GET parts 0 mode)
  list(GET parts 1 want_rate)
  execute_process(COMMAND ${DUMP} --json --names ${names} --rate ${s1} ${s2} --pair-by ${mode}
                  OUTPUT_VARIABLE json ERROR_VARIABLE err RESULT_VARIABLE rc)
  expect("${mode}: exit" "${rc}" "0")
  string(JSON svchost ERROR_VARIABLE json_error GET "${json}" objects 1 instances 1 full_name)
  string(JSON rate ERROR_VARIABLE json_error GET "${json}" objects 1 instances 1 formatted 0)
  expect("${mode}: svchost's % Processor Time" "${svchost}=${rate}" "svchost=${want_rate}")
  foreach(object 1 2)
    math(EXPR at "${object} + 1")
    list(GET parts ${at} want)
    string(JSON n ERROR_VARIABLE json_error LENGTH "${json}" objects ${object} exited)
    string(JSON name ERROR_VARIABLE json_error GET "${json}" objects ${object} exited 0 name)
    string(JSON position ERROR_VARIABLE json_error
           GET "${json}" objects ${object} exited 0 position)
    string(JSON identity ERROR_VARIABLE json_error
           GET "${json}" objects ${object} exited 0 identity)
    string(JSON key ERROR_VARIABLE json_error GET "${json}" objects ${object} exited 0 key)
    if(json_error)
      set(key "-")
    endif()
    expect("${mode}: object ${object} exited" "${n}:${name},${position},${identity},${key}"
           "1:${want}")
    string(JSON n ERROR_VARIABLE json_error LENGTH "${json}" objects ${object} appeared)
    expect("${mode}: object ${object} appeared" "${n}" "0")
  endforeach()
  # Processor has no instance that exited, and no ID Process: by it, its
  # instances keep PDH's key, and stderr says so.
  string(JSON n ERROR_VARIABLE json_error LENGTH "${json}" objects 0 exited)
  expect("${mode}: Processor exited" "${n}" "0")
  string(FIND "${err}" "pair by PDH's key: 238 (Processor)" said)
  if(mode STREQUAL "ID Process")
    if(said EQUAL -1)
      message("FAIL ${mode}: stderr does not name Processor as keyless: ${err}")
      math(EXPR failed "${failed} + 1")
    else()
      math(EXPR passed "${passed} + 1")
    endif()
  else()
    expect("${mode}: stderr" "${err}" "")
  endif()
endforeach()

# The default is unique-id: the same document, byte for byte.
execute_process(COMMAND ${DUMP} --json --names ${names} --rate ${s1} ${s2}
                OUTPUT_VARIABLE by_default RESULT_VARIABLE rc)
execute_process(COMMAND ${DUMP} --json --names ${names} --rate ${s1} ${s2} --pair-by unique-id
                OUTPUT_VARIABLE by_unique_id)
expect("the default is unique-id" "${by_default}" "${by_unique_id}")

# The text shows the same lists.
execute_process(COMMAND ${DUMP} --names ${names} --counter "${cpu}" --rate ${s1} ${s2}
                        --pair-by "ID Process"
                OUTPUT_VARIABLE text RESULT_VARIABLE rc)
expect("text exit" "${rc}" "0")
string(REGEX MATCH "\n *exited:\n *-\n *name: \"svchost\"\n *position: 1\n *identity: \"ID Process\"\n *key: 812\n *appeared: \\(none\\)\n"
       listed "${text}")
if(listed STREQUAL "")
  message("FAIL text: Process's exited svchost with ID Process 812 is not listed: ${text}")
  math(EXPR failed "${failed} + 1")
else()
  math(EXPR passed "${passed} + 1")
endif()

# --csv: the svchost column by ID Process (10 %) and by PDH's key (60 %),
# and Processor, which lacks ID Process, by PDH's key (said on stderr).
foreach(row "ID Process|10.000000" "pdh|60.000000")
  string(REPLACE "|" ";" parts "${row}")
  list(GET parts 0 mode)
  list(GET parts 1 want)
  execute_process(COMMAND ${DUMP} --csv --names ${names} --counter "${cpu}"
                          --counter "\\Processor(_Total)\\% Processor Time"
                          --rate ${s1} ${s2} --pair-by ${mode}
                  OUTPUT_VARIABLE csv ERROR_VARIABLE err RESULT_VARIABLE rc)
  expect("csv ${mode}: exit" "${rc}" "0")
  string(REGEX MATCH "^[^\n]*" header "${csv}")
  expect("csv ${mode}: header"
         "${header}" "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",\"\\\\SERIES\\Processor(_Total)\\% Processor Time\",\"\\\\SERIES\\Process(Idle)\\% Processor Time\",\"\\\\SERIES\\Process(svchost)\\% Processor Time\",\"\\\\SERIES\\Process(notepad)\\% Processor Time\",\"\\\\SERIES\\Process(cmd)\\% Processor Time\"")
  string(REGEX MATCH "\n[^\n]*" record "${csv}")
  string(STRIP "${record}" record)
  expect("csv ${mode}: record" "${record}"
         "\"11/22/2026 10:00:02.000\",\"40.000000\",\"50.000000\",\"${want}\",\"5.000000\",\"30.000000\"")
  string(FIND "${err}" "--counter \\Processor(_Total)\\% Processor Time: its object has no counter \"ID Process\"" said)
  if(mode STREQUAL "ID Process" AND said EQUAL -1)
    message("FAIL csv ${mode}: stderr does not say Processor pairs by PDH's key: ${err}")
    math(EXPR failed "${failed} + 1")
  elseif(NOT mode STREQUAL "ID Process")
    expect("csv ${mode}: stderr" "${err}" "")
  else()
    math(EXPR passed "${passed} + 1")
  endif()
endforeach()

# --csv --series over the four captures: svchost's column 20, 60 or 10 %
# at capture 2, and 10 % at capture 3 (README.md, "Reading them").
execute_process(COMMAND ${DUMP} --csv --names ${names} --counter "${cpu}"
                        --series ${SERIES}/v1-series-0.bin ${s1} ${s2} -- ${SERIES}/v1-series-3.bin
                        --pair-by "ID Process"
                OUTPUT_VARIABLE csv RESULT_VARIABLE rc)
expect("csv series: exit" "${rc}" "0")
string(REGEX MATCHALL "\n[^\n]*" records "${csv}")
list(GET records 2 at2)
string(REGEX MATCH "^\n\"[^\"]*\",\"[^\"]*\",\"([^\"]*)\"" at2 "${at2}")
expect("csv series: svchost at capture 2 by ID Process" "${CMAKE_MATCH_1}" "10.000000")

# --series: by ID Process, capture 3's svchost (PID 1044) meets PID 1044's
# sample in every capture ("svchost#1" in 0 and 1): 10 % each second, mean
# 10 %; by PDH's key it meets PID 812's in 0 and 1: 20, 60, 10, mean 30 %.
foreach(row "ID Process|10.000000" "pdh|30.000000")
  string(REPLACE "|" ";" parts "${row}")
  list(GET parts 0 mode)
  list(GET parts 1 want)
  execute_process(COMMAND ${DUMP} --json --names ${names} --counter "${cpu}"
                          --series ${SERIES}/v1-series-0.bin ${s1} ${s2} -- ${SERIES}/v1-series-3.bin
                          --pair-by ${mode}
                  OUTPUT_VARIABLE json RESULT_VARIABLE rc)
  expect("series ${mode}: exit" "${rc}" "0")
  string(JSON mean ERROR_VARIABLE json_error GET "${json}" objects 0 instances 1 statistics 0 mean)
  expect("series ${mode}: svchost's mean" "${mean}" "${want}")
endforeach()

# uid-*: UniqueIDs 10, 11, 12, of which 11 exits. unique-id pairs id 12
# with its own sample (24 %), and lists id 11 as exited by its UniqueID;
# pdh pairs the second svchost with 11's place (34 %).
foreach(row "unique-id|2|24.000000|svchost,1,unique-id,11" "pdh|1|34.000000|svchost,2,name,-")
  string(REPLACE "|" ";" parts "${row}")
  list(GET parts 0 mode)
  list(GET parts 1 want_previous)
  list(GET parts 2 want_rate)
  list(GET parts 3 want_exited)
  execute_process(COMMAND ${DUMP} --json --rate ${DIR}/uid-0.bin ${DIR}/uid-1.bin
                          --pair-by ${mode}
                  OUTPUT_VARIABLE json RESULT_VARIABLE rc)
  expect("uid ${mode}: exit" "${rc}" "0")
  string(JSON previous ERROR_VARIABLE json_error
         GET "${json}" objects 0 instances 1 previous_position)
  string(JSON rate ERROR_VARIABLE json_error GET "${json}" objects 0 instances 1 formatted 1)
  expect("uid ${mode}: the second svchost" "${previous}:${rate}"
         "${want_previous}:${want_rate}")
  string(JSON name ERROR_VARIABLE json_error GET "${json}" objects 0 exited 0 name)
  string(JSON position ERROR_VARIABLE json_error GET "${json}" objects 0 exited 0 position)
  string(JSON identity ERROR_VARIABLE json_error GET "${json}" objects 0 exited 0 identity)
  string(JSON key ERROR_VARIABLE json_error GET "${json}" objects 0 exited 0 key)
  if(json_error)
    set(key "-")
  endif()
  expect("uid ${mode}: exited" "${name},${position},${identity},${key}" "${want_exited}")
endforeach()

message("${passed} passed, ${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "${failed} checks failed")
endif()
