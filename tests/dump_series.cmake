# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# perfbuf-dump --names, --rate, --series and --csv over the bundled
# collector series (corpus/captures/series/, whose README lists every value
# checked here): statistics over the four captures, processes that start
# and exit, the svchost whose exit shifts svchost#1 under PDH's key, and one
# CSV record per capture with that capture's own timestamp.
# Inputs: -DDUMP=<perfbuf-dump> -DSERIES=<corpus/captures/series> -DDIR=<scratch dir>
set(names ${SERIES}/v1-names-series-counter-009.bin)
foreach(k 0 1 2 3)
  set(s${k} ${SERIES}/v1-series-${k}.bin)
endforeach()
set(passed 0)
set(failed 0)

# run(OUT_VAR ARGS...): perfbuf-dump's stdout; a nonzero exit fails the test.
function(run out)
  execute_process(COMMAND ${DUMP} --strict --names ${names} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "perfbuf-dump ${ARGN}: exit ${rc}: ${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# check(NAME TEXT REGEX...): every regular expression matches TEXT.
function(check name text)
  set(ok TRUE)
  foreach(re ${ARGN})
    if(NOT text MATCHES "${re}")
      message("${name}: the output does not match '${re}'")
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

# lacks(NAME TEXT NEEDLE...): no needle is in TEXT.
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

set(stat "count: 3\n *min: \"30.000000\"\n *max: \"50.000000\"\n *mean: \"40.000000\"")
run(out --counter "\\Processor(_Total)\\% Processor Time" --series ${s0} ${s1} ${s2} -- ${s3})
check("_Total busy 30, 40, 50 %" "${out}" "name: \"_Total\"" "${stat}")

# svchost#1 (PID 1044) becomes svchost when PID 812 exits before capture 2:
# by PDH's key its sample at capture 1 is 812's, so the interval reads 60 %.
run(out --counter "\\Process(svchost)\\% Processor Time" --series ${s0} ${s1} ${s2} -- ${s3})
check("svchost over the series" "${out}"
      "count: 3\n *min: \"10.000000\"\n *max: \"60.000000\"\n *mean: \"30.000000\"")
run(out --counter "\\Process(svchost)\\% Processor Time" --rate ${s1} ${s2})
check("svchost paired across the exit" "${out}" "pairing: \"matched\"" "- 22000000\n"
      "formatted:\n *- \"60.000000\"")

# calc starts before capture 3: new, no rate, and its Elapsed Time 1 s.
run(out --counter "\\Process(calc)\\% Processor Time" --counter "\\Process(calc)\\Elapsed Time"
    --rate ${s2} ${s3})
check("calc is new" "${out}" "pairing: \"new\"" "\"invalid-data\"" "\"1.000000\"")
# notepad exits before capture 3; its thread goes with it.
run(out --counter "\\Process(*)\\ID Process" --counter "\\Thread(*)\\ID Thread" ${s3})
lacks("notepad has exited" "${out}" "notepad" "- 2000\n" "- 2004\n")
check("threads name their processes" "${out}" "full_name: \"Idle/1\"" "full_name: \"cmd/0\""
      "full_name: \"calc/0\"" "- 3004\n" "- 4004\n")

# --csv: a header and one record per capture, each with its own timestamp.
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
set(csv_file ${DIR}/series.csv)
execute_process(COMMAND ${DUMP} --names ${names} --csv
                        --counter "\\Process(*)\\% Processor Time" --counter "\\Process(*)\\ID Process"
                        --series ${s0} ${s1} ${s2} -- ${s3}
                RESULT_VARIABLE rc OUTPUT_FILE ${csv_file} ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "perfbuf-dump --csv --series: exit ${rc}: ${err}")
endif()
file(STRINGS ${csv_file} records)
list(LENGTH records count)
check("a header and four records" "${count}" "^5$")
set(stamps "")
foreach(k 1 2 3 4)
  list(GET records ${k} record)
  string(REGEX MATCH "^\"[^\"]*\"" stamp "${record}")
  list(APPEND stamps "${stamp}")
endforeach()
set(distinct ${stamps})
list(REMOVE_DUPLICATES distinct)
list(LENGTH distinct unique)
check("timestamps one second apart" "${stamps};${unique}"
      "^\"11/22/2026 10:00:00.000\";\"11/22/2026 10:00:01.000\";\"11/22/2026 10:00:02.000\";\"11/22/2026 10:00:03.000\";4$")
list(GET records 0 header)
check("the columns are capture 3's" "${header}" "Process\\(svchost\\)\\\\ID Process\",\"" "Process\\(calc\\)")
lacks("no column for the exited" "${header}" "svchost#1" "notepad")
# Columns: Idle's two, svchost's two, cmd's two, calc's two.
list(GET records 2 r1)
list(GET records 3 r2)
list(GET records 4 r3)
check("capture 1: svchost is PID 812" "${r1}"
      "^\"[^\"]*\",\"50.000000\",\"0.000000\",\"20.000000\",\"812.000000\",\" \",\"3000.000000\",\" \",\" \"")
check("capture 2: svchost is PID 1044, its rate from 812's sample" "${r2}"
      ",\"60.000000\",\"1044.000000\",\"30.000000\",\"3000.000000\",\" \",\" \"")
check("capture 3: calc has started" "${r3}"
      ",\"10.000000\",\"1044.000000\",\"30.000000\",\"3000.000000\",\" \",\"4000.000000\"")

# Capture 1 still holds both svchost: the pair 0 to 1 has a svchost#1 column.
execute_process(COMMAND ${DUMP} --names ${names} --csv --counter "\\Process(svchost*)\\ID Process"
                        --rate ${s0} ${s1}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
check("capture 1 has svchost#1" "${rc}:${out}" "^0:" "Process\\(svchost#1\\)\\\\ID Process"
      "\"812.000000\",\"1044.000000\"")

message("${passed} passed, ${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "dump_series failed")
endif()
