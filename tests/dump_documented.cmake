# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# perfbuf-dump on the documented layouts (corpus/captures/documented/), in
# strict mode, with the Counter table and the earlier capture: the text,
# the JSON and typeperf's CSV show the disk objects' shared timestamp base,
# the values formatted from the pair, threads under their processes, and
# Processor Information in V1 and V2.
# Inputs: -DDUMP=<perfbuf-dump> -DCAPTURES=<corpus/captures/documented>
set(failed 0)
# A function, not a macro: a macro would parse the backslashes of the
# CSV's counter paths a second time.
function(expect what got want)
  if(NOT "${got}" STREQUAL "${want}")
    message("FAIL ${what}: got '${got}', want '${want}'")
    math(EXPR failed "${failed} + 1")
    set(failed ${failed} PARENT_SCOPE)
  endif()
endfunction()

set(names ${CAPTURES}/v1-names-documented-counter-009.bin)
set(older ${CAPTURES}/v1-documented-global-0.bin)
set(newer ${CAPTURES}/v1-documented-global-1.bin)

# Text: PhysicalDisk's "0 C:" reads the timestamp 2026-11-22 10:00:01 UTC
# (a FILETIME) four times, through its four base definitions, and % Disk
# Time is 100 x 2,500,000 / 10,000,000.
execute_process(COMMAND ${DUMP} --strict --names ${names} --rate ${older} ${newer}
                OUTPUT_VARIABLE text RESULT_VARIABLE rc)
expect("text exit" "${rc}" "0")
string(FIND "${text}" "name: \"PhysicalDisk\"" disk_at)
string(SUBSTRING "${text}" ${disk_at} -1 disk)
string(FIND "${disk}" "name: \"0 C:\"" first_at)
string(FIND "${disk}" "pairing:" pairing_at)
math(EXPR span "${pairing_at} - ${first_at}")
string(SUBSTRING "${disk}" ${first_at} ${span} instance)
string(REGEX MATCHALL "- 134398152010000000\n" stamps "${instance}")
list(LENGTH stamps stamp_count)
expect("text: timestamp values of 0 C:" "${stamp_count}" "4")
# The provider's first definition is Current Disk Queue Length (2 at the
# later capture), then % Disk Time.
string(FIND "${disk}" "formatted:" formatted_at)
string(SUBSTRING "${disk}" ${formatted_at} 80 formatted)
string(REGEX MATCHALL "\"[^\"]+\"" first_values "${formatted}")
list(GET first_values 0 queue_length)
list(GET first_values 1 disk_time)
expect("text: Current Disk Queue Length of 0 C:" "${queue_length}" "\"2.000000\"")
expect("text: % Disk Time of 0 C:" "${disk_time}" "\"25.000000\"")

# JSON: the definitions, the values and the names.
execute_process(COMMAND ${DUMP} --strict --json --names ${names} --rate ${older} ${newer}
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
expect("json exit" "${rc}" "0")
string(JSON valid ERROR_VARIABLE json_error GET "${json}" valid)
expect("json valid" "${valid}" "ON")
# The four PERF_PRECISION_TIMESTAMP (= PERF_LARGE_RAW_BASE) definitions
# of each disk object read one field, each right after its timer.
set(base "PERF_LARGE_RAW_BASE")
foreach(disk "5;168;PhysicalDisk;2 5 8 29" "6;184;LogicalDisk;5 8 11 32")
  list(GET disk 0 object)
  list(GET disk 1 stamp)
  list(GET disk 2 object_name)
  list(GET disk 3 positions)
  string(JSON name ERROR_VARIABLE json_error GET "${json}" objects ${object} name)
  expect("json object ${object}" "${name}" "${object_name}")
  set(readers "")
  string(JSON count ERROR_VARIABLE json_error LENGTH "${json}" objects ${object} counters)
  math(EXPR last "${count} - 1")
  foreach(c RANGE ${last})
    string(JSON offset ERROR_VARIABLE json_error GET "${json}" objects ${object} counters ${c}
           counter_offset)
    if(offset EQUAL stamp)
      string(JSON type ERROR_VARIABLE json_error GET "${json}" objects ${object} counters ${c}
             counter_type_name)
      string(APPEND readers " ${c}")
      expect("json ${object_name} counter ${c} type" "${type}" "${base}")
    endif()
  endforeach()
  expect("json ${object_name}: definitions reading offset ${stamp}" "${readers}" " ${positions}")
endforeach()

# The three average timers of each disk object: PERF_AVERAGE_TIMER, a
# DWORD type, with CounterSize 8 as Windows' disk provider writes it over
# its LONGLONG field, which the strict run above accepts.
foreach(disk "5;PhysicalDisk;10 12 14" "6;LogicalDisk;13 15 17")
  list(GET disk 0 object)
  list(GET disk 1 object_name)
  list(GET disk 2 positions)
  string(REPLACE " " ";" positions "${positions}")
  foreach(c IN LISTS positions)
    string(JSON type ERROR_VARIABLE json_error GET "${json}" objects ${object} counters ${c}
           counter_type_name)
    string(JSON size ERROR_VARIABLE json_error GET "${json}" objects ${object} counters ${c}
           counter_size)
    expect("json ${object_name} counter ${c}" "${type}:${size}" "PERF_AVERAGE_TIMER:8")
  endforeach()
endforeach()

# object instance formatted-position want what
foreach(check
        "5;0;1;25.000000;PhysicalDisk(0 C:) % Disk Time"
        "5;1;28;75.000000;PhysicalDisk(_Total) % Idle Time"
        "5;0;12;0.002000;PhysicalDisk(0 C:) Avg. Disk sec/Read"
        "6;1;17;0.002000;LogicalDisk(_Total) Avg. Disk sec/Write"
        "5;1;30;3.000000;PhysicalDisk(_Total) Split IO/Sec"
        "6;0;0;25.000000;LogicalDisk(C:) % Free Space"
        "6;0;2;51200.000000;LogicalDisk(C:) Free Megabytes"
        "6;1;29;8192.000000;LogicalDisk(_Total) Avg. Disk Bytes/Write"
        "3;4;3;61.000000;Process(svchost#1) Elapsed Time"
        "3;4;6;700.000000;Process(svchost#1) Creating Process ID"
        "4;6;0;80.000000;Thread(_Total/_Total) % Processor Time"
        "9;3;6;50.000000;Processor Information(_Total) % Processor Utility"
        "9;3;8;20.000000;Processor Information(_Total) % Privileged Utility")
  list(GET check 0 object)
  list(GET check 1 instance)
  list(GET check 2 position)
  list(GET check 3 want)
  list(GET check 4 what)
  string(JSON got ERROR_VARIABLE json_error GET "${json}" objects ${object} instances ${instance}
         formatted ${position})
  expect("json ${what}" "${got}" "${want}")
endforeach()
string(JSON uptime ERROR_VARIABLE json_error GET "${json}" objects 0 formatted 3)
expect("json System Up Time" "${uptime}" "86401.000000")
string(JSON thread ERROR_VARIABLE json_error GET "${json}" objects 4 instances 5 full_name)
expect("json second svchost's thread" "${thread}" "svchost/0")
string(JSON counter ERROR_VARIABLE json_error GET "${json}" objects 9 counters 9 name)
string(JSON offset ERROR_VARIABLE json_error GET "${json}" objects 9 counters 9 counter_offset)
string(JSON offset_before ERROR_VARIABLE json_error GET "${json}" objects 9 counters 7
       counter_offset)
expect("json % Utility Base twice" "${counter}:${offset}:${offset_before}" "% Utility Base:56:56")

# CSV: typeperf's columns of the pair, in the block's object order.
execute_process(COMMAND ${DUMP} --strict --csv --names ${names}
                        --counter "\\PhysicalDisk(*)\\% Disk Time"
                        --counter "\\PhysicalDisk(_Total)\\% Idle Time"
                        --counter "\\Thread(svchost/0#1)\\% Processor Time"
                        --counter "\\Processor Information(_Total)\\% Privileged Utility"
                        --counter "\\Process(svchost#1)\\Elapsed Time"
                        --rate ${older} ${newer}
                OUTPUT_VARIABLE csv RESULT_VARIABLE rc)
expect("csv exit" "${rc}" "0")
string(REPLACE "\r" "" csv "${csv}")
string(REPLACE "\n" ";" lines "${csv}")
list(GET lines 0 header)
list(GET lines 1 record)
expect("csv header"
       "${header}"
       "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",\"\\\\DOCUMENTED\\Process(svchost#1)\\Elapsed Time\",\"\\\\DOCUMENTED\\Thread(svchost/0#1)\\% Processor Time\",\"\\\\DOCUMENTED\\PhysicalDisk(0 C:)\\% Disk Time\",\"\\\\DOCUMENTED\\PhysicalDisk(_Total)\\% Disk Time\",\"\\\\DOCUMENTED\\PhysicalDisk(_Total)\\% Idle Time\",\"\\\\DOCUMENTED\\Processor Information(_Total)\\% Privileged Utility\"")
expect("csv record"
       "${record}"
       "\"11/22/2026 10:00:01.000\",\"61.000000\",\"5.000000\",\"25.000000\",\"25.000000\",\"75.000000\",\"20.000000\"")

# V2: the query pair with its registration and names.
execute_process(COMMAND ${DUMP} --strict --json --format v2-query
                        --registration ${CAPTURES}/v2-reginfo-documented-processor-information.bin
                        --counter-names ${CAPTURES}/v2-names-documented-processor-information.bin
                        --rate ${CAPTURES}/v2-query-documented-processor-information-0.bin
                        ${CAPTURES}/v2-query-documented-processor-information-1.bin
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
expect("v2 exit" "${rc}" "0")
string(JSON agree ERROR_VARIABLE json_error GET "${json}" crosscheck agree)
expect("v2 cross-check" "${agree}" "ON")
foreach(check "0;0;75.000000" "1;0;25.000000" "3;0;50.000000" "3;26;50.000000"
              "3;28;20.000000" "2;21;20.000000")
  list(GET check 0 instance)
  list(GET check 1 position)
  list(GET check 2 want)
  string(JSON got ERROR_VARIABLE json_error GET "${json}" blocks 0 instances ${instance} values
         ${position} formatted)
  expect("v2 instance ${instance} value ${position}" "${got}" "${want}")
endforeach()

# V2 by name: --counterset-name gives the counterset's name (the
# PERF_REG_COUNTERSET_NAME_STRING answer), so a --counter path names it as a
# PerfLib V2 consumer writes it, its counter by its registered name; only
# what the path selects is shown: three instances, one value each.
set(v2_by_name --strict --json --format v2-query
    --registration ${CAPTURES}/v2-reginfo-documented-processor-information.bin
    --counter-names ${CAPTURES}/v2-names-documented-processor-information.bin
    --counterset-name ${CAPTURES}/v2-counterset-name-documented-processor-information.bin
    --rate ${CAPTURES}/v2-query-documented-processor-information-0.bin)
execute_process(COMMAND ${DUMP} ${v2_by_name} --counter [=[\Processor Information(0,*)\% Processor Time]=]
                        ${CAPTURES}/v2-query-documented-processor-information-1.bin
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
expect("v2 by name exit" "${rc}" "0")
string(JSON valid ERROR_VARIABLE json_error GET "${json}" valid)
expect("v2 by name valid" "${valid}" "ON")
string(JSON count ERROR_VARIABLE json_error LENGTH "${json}" blocks 0 instances)
expect("v2 by name: instances shown" "${count}" "3")
foreach(check "0;0,0;75.000000" "1;0,1;25.000000" "2;0,_Total;50.000000")
  list(GET check 0 instance)
  list(GET check 1 name)
  list(GET check 2 want)
  string(JSON got_name ERROR_VARIABLE json_error GET "${json}" blocks 0 instances ${instance} name)
  string(JSON values ERROR_VARIABLE json_error LENGTH "${json}" blocks 0 instances ${instance}
         values)
  string(JSON got ERROR_VARIABLE json_error GET "${json}" blocks 0 instances ${instance} values
         0 formatted)
  expect("v2 by name, instance ${instance}" "${got_name}|${values}|${got}" "${name}|1|${want}")
endforeach()
# Without the name, the same path names no counterset, said as such.
list(REMOVE_AT v2_by_name 8 9)
execute_process(COMMAND ${DUMP} ${v2_by_name} --counter [=[\Processor Information(*)\% Processor Time]=]
                        ${CAPTURES}/v2-query-documented-processor-information-1.bin
                OUTPUT_VARIABLE json ERROR_VARIABLE err RESULT_VARIABLE rc)
expect("v2 without the name exit" "${rc}" "1")
string(JSON field ERROR_VARIABLE json_error GET "${json}" error field)
expect("v2 without the name: the part" "${field}" "Object")
string(FIND "${err}" "no counterset of that GUID in the registration (its name needs --counterset-name)" at)
if(at EQUAL -1)
  message("FAIL v2 without the name: stderr is '${err}'")
  math(EXPR failed "${failed} + 1")
endif()

message("${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "perfbuf-dump's reading of the documented layouts differs")
endif()
