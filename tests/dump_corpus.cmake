# Runs perfbuf-dump over every committed input and checks its verdict:
#   valid-*.bin and the real captures decode (exit 0);
#   bad-<STRUCT>.<field>-*.bin are rejected (exit 1) with the error line
#   "offset 0x...: <STRUCT>.<field>: ..." naming exactly that field;
#   any other input (found by fuzzing) exits 0 or 1 with a well-formed line.
# Inputs: -DDUMP=<perfbuf-dump> -DCORPUS=<corpus dir>

# corpus folder -> format name; captures are matched by file-name prefix.
set(folder_formats
    fuzz_v2_query=v2-query
    fuzz_v1=v1
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
  execute_process(COMMAND ${DUMP} --format ${format} ${file}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  string(STRIP "${err}" err)
  set(ok FALSE)
  if(name MATCHES "^bad-([A-Z_0-9]+)\\.([A-Za-z0-9]+)-")
    set(expect "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}")
    if(rc EQUAL 1 AND err MATCHES "^offset 0x[0-9a-f]+: ${expect}: ")
      set(ok TRUE)
    endif()
  elseif(name MATCHES "^valid-" OR file MATCHES "/captures/")
    if(rc EQUAL 0)
      set(ok TRUE)
    endif()
  elseif(rc EQUAL 0)
    set(ok TRUE)
  elseif(rc EQUAL 1 AND err MATCHES "^offset 0x[0-9a-f]+: [A-Za-z_0-9]+\\.[A-Za-z0-9]+: ")
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

if(skipped)
  message("not decoded (format not in this perfbuf-dump): ${skipped}")
endif()
message("${passed} passed, ${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "perfbuf-dump verdicts differ from the corpus")
endif()
