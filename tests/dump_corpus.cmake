# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# Runs perfbuf-dump over every committed input and checks its verdict:
#   valid-*.bin and the real captures decode (exit 0);
#   bad-<STRUCT>.<field>-*.bin are rejected (exit 1) with the error line
#   "FILE: offset 0x...: <STRUCT>.<field>: ..." naming exactly that field;
#   any other input (found by fuzzing) exits 0 or 1 with a well-formed line;
#   a rejection whose JSON error has the two numbers compared (`declared`,
#   `limit`) ends its stderr line with the same two, and the inputs listed
#   in `numbered` below carry exactly the numbers given there.
# Inputs: -DDUMP=<perfbuf-dump> -DCORPUS=<corpus dir>

# corpus folder -> format name; captures are matched by file-name prefix.
set(folder_formats
    fuzz_v2_query=v2-query
    fuzz_v2_query_structured=v2-query
    fuzz_v1=v1
    fuzz_v1_structured=v1
    fuzz_v1_names=v1-names)
set(capture_formats
    v2-query-=v2-query
    v1-names-=v1-names
    v1-=v1)

execute_process(COMMAND ${DUMP} --help OUTPUT_VARIABLE help)
set(passed 0)
set(failed 0)
set(skipped "")

function(check_one file format)
  get_filename_component(name ${file} NAME)
  execute_process(COMMAND ${DUMP} --json --format ${format} ${file}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE json ERROR_VARIABLE err)
  string(STRIP "${err}" err)
  set(ok FALSE)
  # The JSON document must parse and agree with the exit status.
  if(rc EQUAL 0 OR rc EQUAL 1)
    string(JSON valid ERROR_VARIABLE json_error GET "${json}" valid)
    if(json_error OR NOT ((rc EQUAL 0 AND valid STREQUAL "ON") OR (rc EQUAL 1 AND valid STREQUAL "OFF")))
      message("FAIL ${file}: JSON output invalid or disagrees with exit ${rc}: ${json_error}")
      math(EXPR failed "${failed} + 1")
      set(failed ${failed} PARENT_SCOPE)
      return()
    endif()
    if(rc EQUAL 1)
      string(JSON declared ERROR_VARIABLE no_numbers GET "${json}" error declared)
      if(NOT no_numbers)
        string(JSON limit GET "${json}" error limit)
        if(NOT err MATCHES "\\([a-z]+ ${declared}, [a-z ]+ ${limit}\\)$")
          message("FAIL ${file}: stderr lacks the numbers of the JSON error (${declared}, ${limit})")
          math(EXPR failed "${failed} + 1")
          set(failed ${failed} PARENT_SCOPE)
          return()
        endif()
      endif()
      string(JSON structure GET "${json}" error structure)
      string(JSON field GET "${json}" error field)
      string(JSON offset GET "${json}" error offset)
      if(NOT err MATCHES "^[^\n]+: offset 0x[0-9a-f]+: ${structure}\\.${field}: ")
        message("FAIL ${file}: stderr names another field than the JSON error (${structure}.${field})")
        math(EXPR failed "${failed} + 1")
        set(failed ${failed} PARENT_SCOPE)
        return()
      endif()
    endif()
  endif()
  if(name MATCHES "^bad-([A-Z_0-9]+)\\.([A-Za-z0-9]+)-")
    set(expect "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}")
    if(rc EQUAL 1 AND err MATCHES "^[^\n]+: offset 0x[0-9a-f]+: ${expect}: ")
      set(ok TRUE)
    endif()
  elseif(name MATCHES "^valid-" OR file MATCHES "/captures/")
    if(rc EQUAL 0)
      set(ok TRUE)
    endif()
  elseif(rc EQUAL 0)
    set(ok TRUE)
  elseif(rc EQUAL 1 AND err MATCHES "^[^\n]+: offset 0x[0-9a-f]+: [A-Za-z_0-9]+\\.[A-Za-z0-9]+: ")
    set(ok TRUE)
  endif()
  if(ok)
    math(EXPR passed "${passed} + 1")
    set(passed ${passed} PARENT_SCOPE)
  else()
    message("FAIL ${file} (--format ${format}): exit ${rc}: ${err}")
    math(EXPR failed "${failed} + 1")
    set(failed ${failed} PARENT_SCOPE)
  endif()
endfunction()

function(format_known format result)
  string(REGEX MATCH "\n  ${format} " found "${help}")
  if(found)
    set(${result} TRUE PARENT_SCOPE)
  else()
    set(${result} FALSE PARENT_SCOPE)
  endif()
endfunction()

foreach(pair ${folder_formats})
  string(REPLACE "=" ";" pair ${pair})
  list(GET pair 0 folder)
  list(GET pair 1 format)
  file(GLOB inputs ${CORPUS}/${folder}/*)
  list(FILTER inputs EXCLUDE REGEX "README\\.md$")
  if(NOT inputs)
    continue()
  endif()
  format_known(${format} known)
  if(NOT known)
    list(APPEND skipped ${folder})
    continue()
  endif()
  foreach(file ${inputs})
    check_one(${file} ${format})
  endforeach()
endforeach()

file(GLOB_RECURSE captures ${CORPUS}/captures/*.bin)
foreach(file ${captures})
  get_filename_component(name ${file} NAME)
  foreach(pair ${capture_formats})
    string(REPLACE "=" ";" pair ${pair})
    list(GET pair 0 prefix)
    list(GET pair 1 format)
    string(FIND "${name}" "${prefix}" at)
    if(at EQUAL 0)
      format_known(${format} known)
      if(known)
        check_one(${file} ${format})
      else()
        list(APPEND skipped ${name})
      endif()
      break()
    endif()
  endforeach()
endforeach()

# Rejections that carry the numbers they compared, V1, V2 query data and V2
# metadata, each checked against the bytes of its file:
#   the V1 TotalByteLength 0x7FFFFFFF of a 1,064-byte file;
#   an instance's ByteLength 400 where its object has 192 bytes left;
#   NumCounters 0xFFFFFFFF where the definitions hold 3;
#   NumObjectTypes 0xFFFFFFFF over the default limit of 65,536 sections;
#   a V2 dwTotalSize one past the 464 bytes of the file, and one below the
#   48-byte PERF_DATA_HEADER;
#   a counter block's dwSize one past the 416 bytes its parent has;
#   a V2 identifier's Size 0x3000 in an 89-byte file;
#   a V1 CounterOffset 2 inside the counter block's own ByteLength, and an
#   instance's NameOffset 20 over its 24-byte header: least values.
set(numbered
    "fuzz_v1/bad-PERF_DATA_BLOCK.TotalByteLength-beyond-received.bin|v1|(declared 2147483647, received 1064)"
    "fuzz_v1/bad-PERF_INSTANCE_DEFINITION.ByteLength-beyond-object.bin|v1|(declared 400, available 192)"
    "fuzz_v1/bad-PERF_OBJECT_TYPE.NumCounters-huge.bin|v1|(declared 4294967295, room for 3)"
    "fuzz_v1/bad-PERF_DATA_BLOCK.NumObjectTypes-over-limit.bin|v1|(declared 4294967295, limit 65536)"
    "fuzz_v2_query/bad-PERF_DATA_HEADER.dwTotalSize-beyond-received.bin|v2-query|(declared 465, received 464)"
    "fuzz_v2_query/bad-PERF_DATA_HEADER.dwTotalSize-below-header.bin|v2-query|(declared 47, at least 48)"
    "fuzz_v2_query/bad-PERF_COUNTER_HEADER.dwSize-beyond-total.bin|v2-query|(declared 417, available 416)"
    "fuzz_v2_meta/bad-PERF_COUNTER_IDENTIFIER.Size-below-header.bin|v2-identifiers|(declared 12288, available 89)"
    "fuzz_v1/bad-PERF_COUNTER_DEFINITION.CounterOffset-inside-length.bin|v1|(declared 2, at least 4)"
    "fuzz_v1/bad-PERF_INSTANCE_DEFINITION.NameOffset-over-header.bin|v1|(declared 20, at least 24)")
foreach(entry ${numbered})
  string(REPLACE "|" ";" entry "${entry}")
  list(GET entry 0 file)
  list(GET entry 1 format)
  list(GET entry 2 numbers)
  execute_process(COMMAND ${DUMP} --format ${format} ${CORPUS}/${file}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  string(STRIP "${err}" err)
  string(LENGTH "${err}" err_len)
  string(LENGTH "${numbers}" numbers_len)
  set(tail "")
  if(err_len GREATER numbers_len)
    math(EXPR from "${err_len} - ${numbers_len}")
    string(SUBSTRING "${err}" ${from} -1 tail)
  endif()
  if(rc EQUAL 1 AND tail STREQUAL numbers)
    math(EXPR passed "${passed} + 1")
  else()
    message("FAIL ${file}: exit ${rc}, expected 1 and a line ending '${numbers}': ${err}")
    math(EXPR failed "${failed} + 1")
  endif()
endforeach()

if(skipped)
  message("not decoded (format not in this perfbuf-dump): ${skipped}")
endif()
message("${passed} passed, ${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "perfbuf-dump verdicts differ from the corpus")
endif()
