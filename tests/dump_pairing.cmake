# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# perfbuf-dump --rate, --series and --csv pair the instances of two captures
# by key (parent, name, #N), not by position: 20,000 processes of which the
# first exited between the captures all keep their value; swaps, a shifted
# #N, a process that exits, one that starts and a thread whose parent
# changes are each paired as PDH pairs them (docs/collector.md).
# Inputs: -DDUMP=<perfbuf-dump> -DMAKE=<make_series> -DDIR=<scratch folder>
#         -DCORPUS=<the repository's corpus/>
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
execute_process(COMMAND ${MAKE} --pairing ${DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_series --pairing failed")
endif()
set(failed 0)
set(passed 0)
macro(expect what got want)
  if("${got}" STREQUAL "${want}")
    math(EXPR passed "${passed} + 1")
  else()
    message("FAIL ${what}: got '${got}', want '${want}'")
    math(EXPR failed "${failed} + 1")
  endif()
endmacro()
# The number of matches of a regular expression in text.
function(count_of out regex text)
  string(REGEX MATCHALL "${regex}" found "${text}")
  list(LENGTH found n)
  set(${out} ${n} PARENT_SCOPE)
endfunction()

# 20,000 processes, p0 gone and "fresh" new: read as text, since CMake's
# JSON reader parses the whole document for every lookup.
execute_process(COMMAND ${DUMP} --rate ${DIR}/churn-0.bin ${DIR}/churn-1.bin
                OUTPUT_VARIABLE text RESULT_VARIABLE rc)
expect("churn exit" "${rc}" "0")
count_of(busy "\n *- \"25\\.000000\"\n" "${text}")
expect("churn: processes formatted 25 %" "${busy}" "19999")
count_of(invalid "\n *- \"invalid-data\"\n" "${text}")
expect("churn: values without a previous sample" "${invalid}" "1")
count_of(matched "\n *pairing: \"matched\"\n" "${text}")
expect("churn: instances matched" "${matched}" "19999")
count_of(new "\n *pairing: \"new\"\n" "${text}")
expect("churn: instances new" "${new}" "1")
# p0 is no instance of the newer capture: it is named once, in the
# object's list of exited instances, and "fresh" in its list of appeared.
count_of(exited "\n *name: \"p0\"\n" "${text}")
expect("churn: the exited process is named once" "${exited}" "1")
count_of(listed "\n *exited:\n *-\n *name: \"p0\"\n *position: 0\n *identity: \"name\"\n *appeared:\n *-\n *name: \"fresh\"\n *position: 19999\n *identity: \"name\"\n" "${text}")
expect("churn: p0 exited, fresh appeared" "${listed}" "1")
count_of(p1 "\n *name: \"p1\"\n" "${text}")
expect("churn: p1 is shown once" "${p1}" "1")
# "fresh" is the last instance: what follows its name is its own.
string(FIND "${text}" "name: \"fresh\"" at)
string(SUBSTRING "${text}" ${at} -1 fresh)
string(REGEX MATCH "pairing: \"new\"\n *formatted:\n *- \"99\\.000000\"\n *- \"invalid-data\""
       fresh "${fresh}")
if(at EQUAL -1 OR fresh STREQUAL "")
  message("FAIL churn: the new process lacks its first-sample status")
  math(EXPR failed "${failed} + 1")
else()
  math(EXPR passed "${passed} + 1")
endif()

# The small cases, position by position in the newer capture:
# name | pairing | previous_position (- for none) | % Processor Time
set(process_rows
    "Idle|matched|0|50.000000"
    "svchost|matched|1|10.000000"
    # old #1 (id 11) exited: old #2 (id 12) is now #1 and pairs with old
    # #1, as a PDH query for svchost#1 does: 1 s of the id difference
    # (10 %) plus its own 30 %.
    "svchost|matched|2|40.000000"
    "b|matched|5|15.000000"
    "started|new|-|invalid-data"
    "a|matched|4|5.000000")
set(thread_rows
    # t0's parent changed from a to b: another key, so a new instance.
    "b/t0|new|-|invalid-data"
    "Idle/t1|matched|1|10.000000")
execute_process(COMMAND ${DUMP} --json --rate ${DIR}/cases-0.bin ${DIR}/cases-1.bin
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
expect("cases exit" "${rc}" "0")
foreach(object 0 1)
  if(object EQUAL 0)
    set(rows ${process_rows})
    set(timer 1)
  else()
    set(rows ${thread_rows})
    set(timer 0)
  endif()
  string(JSON count ERROR_VARIABLE json_error LENGTH "${json}" objects ${object} instances)
  list(LENGTH rows want_count)
  expect("object ${object}: instances" "${count}" "${want_count}")
  set(at 0)
  foreach(row IN LISTS rows)
    string(REPLACE "|" ";" parts "${row}")
    list(GET parts 0 name)
    list(GET parts 1 pairing)
    list(GET parts 2 previous)
    list(GET parts 3 value)
    set(where objects ${object} instances ${at})
    string(JSON got_name ERROR_VARIABLE json_error GET "${json}" ${where} full_name)
    string(JSON got_pairing ERROR_VARIABLE json_error GET "${json}" ${where} pairing)
    string(JSON got_previous ERROR_VARIABLE json_error GET "${json}" ${where} previous_position)
    if(json_error)
      set(got_previous "-")
    endif()
    string(JSON got_value ERROR_VARIABLE json_error GET "${json}" ${where} formatted ${timer})
    expect("object ${object} instance ${at}" "${got_name}|${got_pairing}|${got_previous}|${got_value}"
           "${row}")
    math(EXPR at "${at} + 1")
  endforeach()
endforeach()

# A title the block repeats: the first object of it is paired, the later
# one has no peer object (its instances are unpaired, with no value).
execute_process(COMMAND ${DUMP} --json --rate ${DIR}/repeated-0.bin ${DIR}/repeated-1.bin
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
expect("repeated exit" "${rc}" "0")
foreach(row "0|first|matched|20.000000" "1|second|unpaired|invalid-data")
  string(REPLACE "|" ";" parts "${row}")
  list(GET parts 0 object)
  string(JSON got_name ERROR_VARIABLE json_error GET "${json}" objects ${object} instances 0 name)
  string(JSON got_pairing ERROR_VARIABLE json_error GET "${json}" objects ${object} instances 0 pairing)
  string(JSON got_value ERROR_VARIABLE json_error GET "${json}" objects ${object} instances 0 formatted 1)
  expect("repeated title, object ${object}" "${object}|${got_name}|${got_pairing}|${got_value}" "${row}")
endforeach()

# Each value pairs with the earlier definition of its title (the query's
# counter of every definition): a Thread object whose one counter has
# another title than in the earlier capture gives its instance nothing to
# pair, so it is new though its key matches; the Process instances, which
# share their counters, are matched.
execute_process(COMMAND ${DUMP} --json --rate ${DIR}/titles-0.bin ${DIR}/titles-1.bin
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
expect("titles exit" "${rc}" "0")
foreach(row "0|1|svchost|matched|1" "1|0|Idle/0|new|-")
  string(REPLACE "|" ";" parts "${row}")
  list(GET parts 0 object)
  list(GET parts 1 at)
  set(where objects ${object} instances ${at})
  string(JSON got_name ERROR_VARIABLE json_error GET "${json}" ${where} full_name)
  string(JSON got_pairing ERROR_VARIABLE json_error GET "${json}" ${where} pairing)
  string(JSON got_previous ERROR_VARIABLE json_error GET "${json}" ${where} previous_position)
  if(json_error)
    set(got_previous "-")
  endif()
  expect("titles, object ${object} instance ${at}"
         "${object}|${at}|${got_name}|${got_pairing}|${got_previous}" "${row}")
endforeach()

# Captures of two computers: nothing is paired, and the run fails.
execute_process(COMMAND ${DUMP} --json --rate ${DIR}/cases-0.bin ${DIR}/elsewhere-1.bin
                OUTPUT_VARIABLE json ERROR_VARIABLE stderr RESULT_VARIABLE rc)
expect("two computers exit" "${rc}" "1")
string(FIND "${stderr}" "two captures of one computer" at)
if(at EQUAL -1)
  set(said "no: ${stderr}")
else()
  set(said "yes")
endif()
expect("two computers: stderr says so" "${said}" "yes")

# --series pairs each capture with the last by the same key: the
# statistics of one interval are the --rate values.
execute_process(COMMAND ${DUMP} --json --series ${DIR}/cases-0.bin -- ${DIR}/cases-1.bin
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
expect("series exit" "${rc}" "0")
set(series_rows "2|40.000000" "3|15.000000" "5|5.000000")
foreach(row IN LISTS series_rows)
  string(REPLACE "|" ";" parts "${row}")
  list(GET parts 0 at)
  list(GET parts 1 want)
  string(JSON mean ERROR_VARIABLE json_error GET "${json}" objects 0 instances ${at} statistics 1 mean)
  expect("series: instance ${at} mean" "${mean}" "${want}")
endforeach()
string(JSON count ERROR_VARIABLE json_error GET "${json}" objects 0 instances 4 statistics 1 count)
expect("series: the started process has no interval" "${count}" "0")

# --csv with --rate: one column per instance of the newer capture, each
# value against the older instance of the same key; " " for a first sample.
execute_process(COMMAND ${DUMP} --names ${DIR}/names.bin --counter "\\Process(*)\\% Processor Time"
                        --csv --rate ${DIR}/cases-0.bin ${DIR}/cases-1.bin
                OUTPUT_VARIABLE csv RESULT_VARIABLE rc)
expect("csv exit" "${rc}" "0")
string(REGEX MATCH "\n[^\n]*" values "${csv}")
string(REGEX REPLACE "^\n\"[^\"]*\"," "" values "${values}")
string(STRIP "${values}" values)
expect("csv values" "${values}"
       "\"50.000000\",\"10.000000\",\"40.000000\",\"15.000000\",\" \",\"5.000000\"")

# --csv with --series: the columns of the newest capture, a record per
# capture; the first has no earlier sample, so every rate is " ".
execute_process(COMMAND ${DUMP} --names ${DIR}/names.bin --counter "\\Process(*)\\% Processor Time"
                        --csv --series ${DIR}/cases-0.bin -- ${DIR}/cases-1.bin
                OUTPUT_VARIABLE csv RESULT_VARIABLE rc)
expect("csv series exit" "${rc}" "0")
string(REPLACE "\r" "" csv "${csv}")
string(REGEX REPLACE "\n$" "" csv "${csv}")
string(REPLACE "\n" ";" records "${csv}")
list(LENGTH records count)
expect("csv series: header and a record per capture" "${count}" "3")
foreach(at 1 2)
  list(GET records ${at} record)
  # Without the timestamp (REGEX REPLACE would apply ^ again after it).
  string(FIND "${record}" "\"," at_comma)
  math(EXPR at_comma "${at_comma} + 2")
  string(SUBSTRING "${record}" ${at_comma} -1 record)
  set(got_${at} "${record}")
endforeach()
list(GET records 0 header)
string(REGEX MATCHALL "Process\\([^)]*\\)" columns "${header}")
string(REPLACE ";" "," columns "${columns}")
expect("csv series columns" "${columns}"
       "Process(Idle),Process(svchost),Process(svchost#1),Process(b),Process(started),Process(a)")
expect("csv series first record" "${got_1}" "\" \",\" \",\" \",\" \",\" \",\" \"")
expect("csv series second record" "${got_2}"
       "\"50.000000\",\"10.000000\",\"40.000000\",\"15.000000\",\" \",\"5.000000\"")
# --csv numbers instances as PDH does, comparing names without regard to
# ASCII case: "SVCHOST" between two "svchost" is svchost#1, and each
# column's rate is its own process's (10, 20 and 30 %), in --rate and in
# every record of --series.
execute_process(COMMAND ${DUMP} --names ${DIR}/names.bin --counter "\\Process(*)\\% Processor Time"
                        --csv --rate ${DIR}/case-0.bin ${DIR}/case-1.bin
                OUTPUT_VARIABLE csv RESULT_VARIABLE rc)
expect("csv case exit" "${rc}" "0")
string(REGEX MATCHALL "Process\\([^)]*\\)" columns "${csv}")
string(REPLACE ";" "," columns "${columns}")
expect("csv case columns" "${columns}" "Process(svchost),Process(SVCHOST#1),Process(svchost#2)")
string(REGEX MATCH "\n[^\n]*" values "${csv}")
string(REGEX REPLACE "^\n\"[^\"]*\"," "" values "${values}")
string(STRIP "${values}" values)
expect("csv case values" "${values}" "\"10.000000\",\"20.000000\",\"30.000000\"")
execute_process(COMMAND ${DUMP} --names ${DIR}/names.bin --counter "\\Process(*)\\% Processor Time"
                        --csv --series ${DIR}/case-0.bin ${DIR}/case-0.bin -- ${DIR}/case-1.bin
                OUTPUT_VARIABLE csv RESULT_VARIABLE rc)
expect("csv case series exit" "${rc}" "0")
string(REPLACE "\r" "" csv "${csv}")
string(REGEX MATCH "\n[^\n]*\n$" last "${csv}")
string(REGEX REPLACE "^\n\"[^\"]*\"," "" last "${last}")
string(STRIP "${last}" last)
expect("csv case series last record" "${last}" "\"10.000000\",\"20.000000\",\"30.000000\"")
# A path's #N counts the same way: svchost#1 is SVCHOST (ID Process 11).
execute_process(COMMAND ${DUMP} --names ${DIR}/names.bin --counter "\\Process(svchost#1)\\ID Process"
                        --csv ${DIR}/case-1.bin
                OUTPUT_VARIABLE csv RESULT_VARIABLE rc)
expect("csv case path exit" "${rc}" "0")
string(REGEX MATCH "\n[^\n]*" values "${csv}")
string(REGEX REPLACE "^\n\"[^\"]*\"," "" values "${values}")
string(STRIP "${values}" values)
expect("csv case path value" "${values}" "\"11.000000\"")
# Text and JSON number #N the same way: the path selects SVCHOST alone.
execute_process(COMMAND ${DUMP} --json --names ${DIR}/names.bin
                        --counter "\\Process(svchost#1)\\ID Process" ${DIR}/case-1.bin
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
expect("json case path exit" "${rc}" "0")
string(JSON count ERROR_VARIABLE json_error LENGTH "${json}" objects 0 instances)
string(JSON got_name ERROR_VARIABLE json_error GET "${json}" objects 0 instances 0 name)
string(JSON got_id ERROR_VARIABLE json_error GET "${json}" objects 0 instances 0 values 0)
expect("json case path instance" "${count}|${got_name}|${got_id}" "1|SVCHOST|11")
execute_process(COMMAND ${DUMP} --names ${DIR}/names.bin
                        --counter "\\Process(svchost#1)\\ID Process" ${DIR}/case-1.bin
                OUTPUT_VARIABLE text RESULT_VARIABLE rc)
expect("text case path exit" "${rc}" "0")
count_of(shown "\n *full_name: \"[^\"]*\"\n" "${text}")
string(REGEX MATCH "\n *full_name: \"([^\"]*)\"\n" name_line "${text}")
set(got_name "${CMAKE_MATCH_1}")
string(REGEX MATCH "\n *values:\n *- ([0-9]+)\n" values_line "${text}")
expect("text case path instance" "${shown}|${got_name}|${CMAKE_MATCH_1}" "1|SVCHOST|11")
# svchost#2 is the last one (ID Process 12) in every output.
execute_process(COMMAND ${DUMP} --json --names ${DIR}/names.bin
                        --counter "\\Process(svchost#2)\\ID Process" ${DIR}/case-1.bin
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
string(JSON count ERROR_VARIABLE json_error LENGTH "${json}" objects 0 instances)
string(JSON got_id ERROR_VARIABLE json_error GET "${json}" objects 0 instances 0 values 0)
expect("json case path #2" "${rc}|${count}|${got_id}" "0|1|12")

# A title the block repeats, in --series: each record reads the later
# object's instance in its own capture (ID Process 2 in both), unpaired, so
# its rate is " " in both records.
execute_process(COMMAND ${DUMP} --names ${DIR}/names.bin --counter "\\Process(*)\\ID Process"
                        --counter "\\Process(*)\\% Processor Time"
                        --csv --series ${DIR}/repeated-0.bin -- ${DIR}/repeated-1.bin
                OUTPUT_VARIABLE csv RESULT_VARIABLE rc)
expect("csv repeated series exit" "${rc}" "0")
string(REPLACE "\r" "" csv "${csv}")
string(REGEX REPLACE "\n$" "" csv "${csv}")
string(REPLACE "\n" ";" records "${csv}")
list(GET records 1 first_record)
list(GET records 2 second_record)
foreach(at first second)
  string(FIND "${${at}_record}" "\"," at_comma)
  math(EXPR at_comma "${at_comma} + 2")
  string(SUBSTRING "${${at}_record}" ${at_comma} -1 ${at}_record)
endforeach()
expect("csv repeated series first record" "${first_record}"
       "\"1.000000\",\" \",\"2.000000\",\" \"")
expect("csv repeated series second record" "${second_record}"
       "\"1.000000\",\"20.000000\",\"2.000000\",\" \"")

execute_process(COMMAND ${DUMP} --names ${DIR}/names.bin --counter "\\Process(*)\\% Processor Time"
                        --csv --rate ${DIR}/cases-0.bin --series ${DIR}/cases-0.bin --
                        ${DIR}/cases-1.bin
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
expect("csv with --rate and --series" "${rc}" "2")

# A provider that sets UniqueID (uid-*: svchost ids 10, 11, 12; 11 exits):
# --rate pairs by the id, so the second svchost (12) is paired with 12, not
# with 11 which held its place; the query behind --csv pairs by the id too
# (perfbuf_query_pair_by_unique_id), so the CSV gives 12 the same rate; it
# counts #N among the same UniqueID, so both columns are "svchost"
# (docs/cli.md, CSV).
execute_process(COMMAND ${DUMP} --json --rate ${DIR}/uid-0.bin ${DIR}/uid-1.bin
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
expect("uid exit" "${rc}" "0")
string(JSON second_previous ERROR_VARIABLE json_error
       GET "${json}" objects 0 instances 1 previous_position)
expect("uid: the second svchost is paired with id 12's instance" "${second_previous}" "2")
string(JSON second_rate ERROR_VARIABLE json_error
       GET "${json}" objects 0 instances 1 formatted 1)
expect("uid: id 12's own rate" "${second_rate}" "24.000000")
execute_process(COMMAND ${DUMP} --names ${DIR}/names.bin --counter "\\Process(*)\\% Processor Time"
                        --csv --rate ${DIR}/uid-0.bin ${DIR}/uid-1.bin
                OUTPUT_VARIABLE csv RESULT_VARIABLE rc)
expect("uid csv exit" "${rc}" "0")
string(REGEX MATCHALL "Process\\([^)]*\\)" columns "${csv}")
string(REPLACE ";" "," columns "${columns}")
expect("uid csv columns" "${columns}" "Process(svchost),Process(svchost)")
string(REGEX MATCH "\n[^\n]*" values "${csv}")
string(REGEX REPLACE "^\n\"[^\"]*\"," "" values "${values}")
string(STRIP "${values}" values)
expect("uid csv values, each id's own rate as in the JSON" "${values}" "\"20.000000\",\"24.000000\"")
# The text and JSON --counter select what the query behind --csv selects:
# in uid-0 the three svchost (ids 10, 11, 12) are each "svchost" (#N counts
# among one UniqueID), so "svchost" selects all three and "svchost#1" none.
execute_process(COMMAND ${DUMP} --json --names ${DIR}/names.bin
                        --counter "\\Process(svchost)\\% Processor Time" ${DIR}/uid-0.bin
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
expect("uid select exit" "${rc}" "0")
string(JSON shown ERROR_VARIABLE json_error LENGTH "${json}" objects 0 instances)
expect("uid: svchost selects every id's svchost, as the CSV columns" "${shown}" "3")
execute_process(COMMAND ${DUMP} --json --names ${DIR}/names.bin
                        --counter "\\Process(svchost#1)\\% Processor Time" ${DIR}/uid-0.bin
                OUTPUT_VARIABLE json ERROR_VARIABLE err RESULT_VARIABLE rc)
expect("uid select #1 exit" "${rc}" "1")
string(REGEX MATCH "uid-0\\.bin: --counter [^\n]*svchost#1[^\n]*: no instance of that name"
       said "${err}")
if(said STREQUAL "")
  message("FAIL uid: svchost#1 is not reported as naming no instance: ${err}")
  math(EXPR failed "${failed} + 1")
else()
  math(EXPR passed "${passed} + 1")
endif()

message("${passed} passed, ${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "${failed} checks failed")
endif()
