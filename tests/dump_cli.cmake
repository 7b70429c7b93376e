# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# perfbuf-dump as a command: where its input comes from, what it refuses to
# read, what happens when its output cannot be written, and what a hostile
# buffer's text may put on a terminal.
# Inputs: -DDUMP=<perfbuf-dump> -DMAKE=<make_series> -DDIR=<scratch dir> -DCORPUS=<corpus dir>
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
execute_process(COMMAND ${MAKE} --cli ${DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_series --cli failed: ${rc}")
endif()
set(capture ${CORPUS}/captures/wine-8.0/v1-global.bin)
set(passed 0)
set(failed 0)

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

# "-" is standard input.
execute_process(COMMAND ${DUMP} - INPUT_FILE ${capture} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT 20)
expect("stdin" "${rc}" 0 "${out}" [=[format: "v1"]=] [=[system_name: "VM"]=])
execute_process(COMMAND ${DUMP} --names - - INPUT_FILE ${capture} RESULT_VARIABLE rc
                ERROR_VARIABLE err TIMEOUT 20)
expect("stdin twice" "${rc}" 2 "${err}" "standard input")

# An empty file is named as empty, not as a format that was not recognised,
# and rejected (exit 1) in every role, before any format is considered.
file(WRITE ${DIR}/empty.bin "")
execute_process(COMMAND ${DUMP} ${DIR}/empty.bin RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 20)
expect("empty file" "${rc}" 1 "${err}" "${DIR}/empty.bin: the file is empty (0 bytes)")
execute_process(COMMAND ${DUMP} - INPUT_FILE ${DIR}/empty.bin RESULT_VARIABLE rc
                ERROR_VARIABLE err TIMEOUT 20)
expect("empty standard input" "${rc}" 1 "${err}" "the file is empty (0 bytes)")

# The input limit (--max-input-bytes; 1 GiB by default) holds for a path
# and for standard input alike. A file, or standard input redirected from
# one, is sized before it is read; a pipe is read in pieces and refused
# once it passes the limit. The producer writes the capture and then zeros
# until the pipe fails, and says how many bytes the pipe took: at most
# what the reader read plus the pipe's buffer (64 KiB; 1 MiB at most).
file(SIZE ${capture} capture_size)
math(EXPR below "${capture_size} - 1")
execute_process(COMMAND ${DUMP} --max-input-bytes ${below} ${capture}
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 20)
expect("path over the limit" "${rc}" 2 "${err}"
       "${capture}: larger than ${below} bytes (--max-input-bytes)")
execute_process(COMMAND ${DUMP} --max-input-bytes ${below} - INPUT_FILE ${capture}
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 20)
expect("stdin file over the limit" "${rc}" 2 "${err}"
       "standard input: larger than ${below} bytes (--max-input-bytes)")
execute_process(COMMAND ${DUMP} --max-input-bytes ${capture_size} - INPUT_FILE ${capture}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out TIMEOUT 20)
expect("stdin file at the limit" "${rc}" 0 "${out}" [=[format: "v1"]=])
execute_process(COMMAND ${MAKE} --produce ${capture_size} ${capture}
                COMMAND ${DUMP} --max-input-bytes ${capture_size} -
                RESULTS_VARIABLE rcs OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 20)
list(GET rcs 1 rc)
expect("pipe at the limit" "${rc}" 0 "${out}" [=[format: "v1"]=])
set(offered 67108864)
set(limit 65536)
execute_process(COMMAND ${MAKE} --produce ${offered} ${capture}
                COMMAND ${DUMP} --max-input-bytes ${limit} -
                RESULTS_VARIABLE rcs ERROR_VARIABLE err TIMEOUT 60)
list(GET rcs 1 rc)
expect("pipe over the limit" "${rc}" 2 "${err}"
       "standard input: larger than ${limit} bytes (--max-input-bytes)")
string(REGEX MATCH "the pipe took ([0-9]+) bytes" took "${err}")
set(took ${CMAKE_MATCH_1})
math(EXPR most "${limit} + 1 + 1048576")
if(took AND took GREATER ${limit} AND NOT took GREATER ${most})
  math(EXPR passed "${passed} + 1")
else()
  message("pipe over the limit: the pipe took '${took}' of ${offered} bytes, expected "
          "more than ${limit} and at most ${most}")
  math(EXPR failed "${failed} + 1")
endif()
execute_process(COMMAND ${DUMP} --max-input-bytes 0 ${capture} RESULT_VARIABLE rc
                ERROR_VARIABLE err TIMEOUT 20)
expect("--max-input-bytes 0" "${rc}" 2 "${err}" "--max-input-bytes needs a number from 1 to 1073741824")
execute_process(COMMAND ${DUMP} --max-input-bytes 1073741825 ${capture} RESULT_VARIABLE rc
                ERROR_VARIABLE err TIMEOUT 20)
expect("--max-input-bytes above 1 GiB" "${rc}" 2 "${err}" "--max-input-bytes needs a number")

# What is not a regular file is refused before it is read: a device that
# never ends, a FIFO with no writer (which would block the open), a folder.
if(EXISTS /dev/zero)
  execute_process(COMMAND ${DUMP} /dev/zero RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 20)
  expect("/dev/zero" "${rc}" 2 "${err}" "not a regular file")
endif()
find_program(MKFIFO mkfifo)
if(MKFIFO)
  execute_process(COMMAND ${MKFIFO} ${DIR}/fifo RESULT_VARIABLE made)
  if(made EQUAL 0)
    execute_process(COMMAND ${DUMP} ${DIR}/fifo RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 20)
    expect("fifo without writer" "${rc}" 2 "${err}" "not a regular file")
  endif()
endif()
execute_process(COMMAND ${DUMP} ${DIR} RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 20)
expect("folder" "${rc}" 2 "${err}" "not a regular file")

# Output that cannot be written is an I/O error, not success.
if(EXISTS /dev/full)
  execute_process(COMMAND ${DUMP} --json ${capture} OUTPUT_FILE /dev/full RESULT_VARIABLE rc
                  ERROR_VARIABLE err TIMEOUT 20)
  expect("json to /dev/full" "${rc}" 2 "${err}" "writing the output failed")
  execute_process(COMMAND ${DUMP} --version OUTPUT_FILE /dev/full RESULT_VARIABLE rc
                  ERROR_VARIABLE err TIMEOUT 20)
  expect("--version to /dev/full" "${rc}" 2 "${err}" "writing the output failed")
endif()

# Characters a terminal acts on are escaped: C1 controls (CSI, OSC), BEL,
# bidirectional overrides and isolates; JSON keeps them as \u escapes.
execute_process(COMMAND ${DUMP} ${DIR}/names-escapes.bin RESULT_VARIABLE rc OUTPUT_VARIABLE out
                TIMEOUT 20)
expect("text escapes" "${rc}" 0 "${out}"
       [=[text: "csi\u{009b}31m osc\u{009d}0;title\x07 end"]=]
       [=[text: "abc\u{202e}fed \u{2066}isolate"]=])
execute_process(COMMAND ${DUMP} --json ${DIR}/names-escapes.bin RESULT_VARIABLE rc
                OUTPUT_VARIABLE out TIMEOUT 20)
expect("json escapes" "${rc}" 0 "${out}"
       [=["text": "csi\u009b31m osc\u009d0;title\u0007 end"]=]
       [=["text": "abc\u202efed \u2066isolate"]=])

# A file name that is not UTF-8 still gives valid JSON (U+FFFD in its place).
find_program(SH sh)
if(SH AND UNIX)
  execute_process(COMMAND ${SH} -c "f=\"$1/x$(printf '\\377').bin\"; cp \"$2\" \"$f\" && \"$3\" --json \"$f\""
                          sh ${DIR} ${capture} ${DUMP}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out TIMEOUT 20)
  expect("non-UTF-8 file name" "${rc}" 0 "${out}" [=[x\ufffd.bin"]=])
endif()

# A counterset list's rule is 16 bytes a GUID, and the message says so.
execute_process(COMMAND ${DUMP} --format v2-countersets ${DIR}/countersets-40.bin
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 20)
expect("40-byte counterset list" "${rc}" 1 "${err}" "whole number")

# json_is(NAME JSON WANT KEY...): the value at KEY... is WANT.
function(json_is name json want)
  string(JSON got ERROR_VARIABLE json_error GET "${json}" ${ARGN})
  if(json_error)
    set(got "(${json_error})")
  endif()
  expect("${name}" "${got}" "${want}" "")
  set(passed ${passed} PARENT_SCOPE)
  set(failed ${failed} PARENT_SCOPE)
endfunction()

# A SYSTEMTIME is written as ISO 8601 only when it is a real instant: the
# fields themselves are always there.
execute_process(COMMAND ${DUMP} --json ${DIR}/v1-time-impossible.bin RESULT_VARIABLE rc
                OUTPUT_VARIABLE out TIMEOUT 20)
expect("impossible SystemTime: the block is still valid" "${rc}" 0 "${out}")
string(JSON type ERROR_VARIABLE json_error TYPE "${out}" system_time iso8601)
expect("impossible SystemTime: iso8601 is null" "${type}" "NULL" "")
json_is("impossible SystemTime: month as it is" "${out}" "276" system_time month)
json_is("impossible SystemTime: milliseconds as they are" "${out}" "257"
        system_time milliseconds)
execute_process(COMMAND ${DUMP} ${DIR}/v1-time-impossible.bin OUTPUT_VARIABLE out TIMEOUT 20)
expect("impossible SystemTime in text" 0 0 "${out}" "month: 276" "iso8601: (none)")
string(FIND "${out}" "6293-276" at)
expect("impossible SystemTime is never a date" "${at}" "-1" "")
execute_process(COMMAND ${DUMP} --json ${DIR}/v1-time-feb29-2023.bin OUTPUT_VARIABLE out
                TIMEOUT 20)
string(JSON type ERROR_VARIABLE json_error TYPE "${out}" system_time iso8601)
expect("February 29 of 2023" "${type}" "NULL" "")
execute_process(COMMAND ${DUMP} --json ${DIR}/v1-time-feb29-2024.bin OUTPUT_VARIABLE out
                TIMEOUT 20)
json_is("February 29 of 2024" "${out}" "2024-02-29T23:59:59.999Z" system_time iso8601)
json_is("SystemTime's day of the week" "${out}" "4" system_time day_of_week)

# NameLength 0 is no name (null); NameLength 2 is an empty one ("").
execute_process(COMMAND ${DUMP} --json ${DIR}/v1-unnamed.bin RESULT_VARIABLE rc
                OUTPUT_VARIABLE out TIMEOUT 20)
expect("unnamed instances" "${rc}" 0 "${out}")
string(JSON type ERROR_VARIABLE json_error TYPE "${out}" objects 0 instances 0 name)
expect("NameLength 0 is null" "${type}" "NULL" "")
json_is("NameLength 0" "${out}" "0" objects 0 instances 0 name_length)
string(JSON type ERROR_VARIABLE json_error TYPE "${out}" objects 0 instances 1 name)
expect("NameLength 2 is a string" "${type}" "STRING" "")
json_is("NameLength 2 is empty" "${out}" "" objects 0 instances 1 name)
json_is("NameLength 2" "${out}" "2" objects 0 instances 1 name_length)

# Long names and values come out whole: a 600-byte system name, a
# 2,000-byte instance name and a 200-byte counter (400 hex digits).
execute_process(COMMAND ${DUMP} --json ${DIR}/v1-long.bin RESULT_VARIABLE rc
                OUTPUT_VARIABLE out TIMEOUT 20)
expect("long names" "${rc}" 0 "${out}")
string(JSON got ERROR_VARIABLE json_error GET "${out}" system_name)
string(LENGTH "${got}" n)
expect("600-byte system name" "${n}" "600" "")
string(JSON got ERROR_VARIABLE json_error GET "${out}" objects 0 instances 0 name)
string(LENGTH "${got}" n)
expect("2,000-byte instance name" "${n}" "2000" "")
string(JSON got ERROR_VARIABLE json_error GET "${out}" objects 0 instances 0 values 0)
string(LENGTH "${got}" n)
expect("200-byte counter" "${n}" "400" "")
string(SUBSTRING "${got}" 392 8 tail)
expect("200-byte counter's last bytes" "${tail}" "c4c5c6c7" "")
# The one text shown cut is a full name over 4,095 bytes, and it says so.
json_is("a full name that fits is not cut" "${out}" "OFF" objects 0 instances 0 full_name_cut)
json_is("a 4,101-byte full name is cut" "${out}" "ON" objects 1 instances 0 full_name_cut)
string(JSON got ERROR_VARIABLE json_error GET "${out}" objects 1 instances 0 full_name)
string(LENGTH "${got}" n)
expect("a cut full name keeps 4,095 bytes" "${n}" "4095" "")
string(SUBSTRING "${got}" 1998 4 middle)
expect("a cut full name starts parent/child" "${middle}" "ii/c" "")
string(JSON got ERROR_VARIABLE json_error GET "${out}" objects 1 instances 0 name)
string(LENGTH "${got}" n)
expect("the child's own name is whole" "${n}" "2100" "")

# The usage names every option, --version among them.
execute_process(COMMAND ${DUMP} --help RESULT_VARIABLE rc OUTPUT_VARIABLE out TIMEOUT 20)
expect("usage" "${rc}" 0 "${out}" "--version" "(- reads standard input)")

message("${passed} passed, ${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "perfbuf-dump does not behave as documented")
endif()
