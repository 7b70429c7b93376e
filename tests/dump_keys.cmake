# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# perfbuf-dump --json against docs/perfbuf-dump.schema.json without a JSON
# Schema validator (ci/json-schema.sh runs the full one): every key of every
# object the tool writes, for each format and side file, is one the schema
# lists at that place; and every anomaly the library can report has a name
# in the tool, in the schema's enum and in docs/cli.md.
# Inputs: -DDUMP=<perfbuf-dump> -DMAKE=<make_series> -DDIR=<scratch folder>
#         -DSOURCE=<source folder>
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR}/series ${DIR}/cli)
execute_process(COMMAND ${MAKE} ${DIR}/series RESULT_VARIABLE rc1)
execute_process(COMMAND ${MAKE} --cli ${DIR}/cli RESULT_VARIABLE rc2)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "make_series failed")
endif()
file(READ ${SOURCE}/docs/perfbuf-dump.schema.json schema)
file(READ ${SOURCE}/docs/cli.md cli_md)
set(failed 0)
set(passed 0)

# The schema node at a path, with a "$ref" followed to its definition.
macro(resolve path out)
  set(${out} ${path})
  string(JSON ref ERROR_VARIABLE no_ref GET "${schema}" ${${out}} "$ref")
  if(NOT no_ref)
    string(REPLACE "#/$defs/" "" ref "${ref}")
    set(${out} "$defs" ${ref})
  endif()
endmacro()

# Checks one document: a worklist of (document path, schema path) pairs, so
# nesting of any depth is walked without recursion.
function(check_document name json)
  string(JSON format GET "${json}" format)
  # Both paths are written with "," between their keys: ";" would split
  # the worklist's entries.
  set(work "|$defs,doc_${format}")
  set(bad 0)
  while(work)
    list(POP_FRONT work item)
    string(FIND "${item}" "|" bar)
    string(SUBSTRING "${item}" 0 ${bar} doc_path)
    math(EXPR after "${bar} + 1")
    string(SUBSTRING "${item}" ${after} -1 schema_path)
    string(REPLACE "," ";" doc_path "${doc_path}")
    string(REPLACE "," ";" schema_path "${schema_path}")
    resolve("${schema_path}" node)
    string(REPLACE ";" "," node_text "${node}")
    string(JSON type TYPE "${json}" ${doc_path})
    if(type STREQUAL "OBJECT")
      string(JSON n LENGTH "${json}" ${doc_path})
      if(n EQUAL 0)
        continue()
      endif()
      math(EXPR last "${n} - 1")
      foreach(i RANGE ${last})
        string(JSON key MEMBER "${json}" ${doc_path} ${i})
        string(JSON known ERROR_VARIABLE missing GET "${schema}" ${node} properties ${key})
        if(missing)
          string(REPLACE ";" "/" where "${doc_path}")
          message("FAIL ${name}: /${where}: key '${key}' is not in the schema")
          math(EXPR bad "${bad} + 1")
          continue()
        endif()
        string(JSON child_type TYPE "${json}" ${doc_path} ${key})
        if(child_type STREQUAL "OBJECT" OR child_type STREQUAL "ARRAY")
          string(REPLACE ";" "," child "${doc_path};${key}")
          string(REGEX REPLACE "^," "" child "${child}")
          list(APPEND work "${child}|${node_text},properties,${key}")
        endif()
      endforeach()
    elseif(type STREQUAL "ARRAY")
      string(JSON n LENGTH "${json}" ${doc_path})
      if(n EQUAL 0)
        continue()
      endif()
      math(EXPR last "${n} - 1")
      foreach(i RANGE ${last})
        string(JSON child_type TYPE "${json}" ${doc_path} ${i})
        if(child_type STREQUAL "OBJECT")
          string(REPLACE ";" "," child "${doc_path};${i}")
          list(APPEND work "${child}|${node_text},items")
        endif()
      endforeach()
    endif()
  endwhile()
  if(bad EQUAL 0)
    math(EXPR passed "${passed} + 1")
  else()
    math(EXPR failed "${failed} + 1")
  endif()
  set(passed ${passed} PARENT_SCOPE)
  set(failed ${failed} PARENT_SCOPE)
endfunction()

set(s ${DIR}/series)
set(c ${DIR}/cli)
set(syn ${SOURCE}/corpus/captures/synthetic)
set(wine ${SOURCE}/corpus/captures/wine-8.0)
# name | arguments
set(runs
    "v1 capture|${wine}/v1-object-238.bin"
    "v1 names|--names ${syn}/v1-names-synthetic-counter-009.bin --rate ${syn}/v1-synthetic-processor-0.bin ${syn}/v1-synthetic-processor-1.bin"
    "v1 series|--series ${s}/s0.bin ${s}/s1.bin ${s}/s2.bin -- ${s}/s3.bin"
    "v1 unnamed|${c}/v1-unnamed.bin"
    "v1 long|${c}/v1-long.bin"
    "v1-names|${wine}/v1-names-counter-009.bin"
    "v2-query|--format v2-query --registration ${s}/v2-reginfo.bin --counter-names ${s}/v2-names.bin --identifiers ${s}/v2-ids.bin --rate ${s}/v2-q0.bin ${s}/v2-q1.bin"
    "v2-query mismatch|--format v2-query --registration ${s}/v2-reginfo-size.bin ${s}/v2-q1.bin"
    "v2-query capture|${wine}/v2-query-processor-information.bin"
    "v2-reginfo|--format v2-reginfo ${s}/v2-reginfo.bin"
    "v2-counter|--format v2-counter ${s}/v2-counter.bin"
    "v2-string|--format v2-string ${s}/v2-name.bin"
    "v2-provider-guid|--format v2-provider-guid ${s}/v2-provider.bin"
    "v2-strings|--format v2-strings ${s}/v2-names.bin"
    "v2-countersets|--format v2-countersets ${s}/v2-countersets.bin"
    "v2-instances|--format v2-instances ${s}/v2-instances.bin"
    "v2-identifiers|--format v2-identifiers ${s}/v2-ids.bin"
    "rejected|--format v2-countersets ${c}/countersets-40.bin")
foreach(run IN LISTS runs)
  string(FIND "${run}" "|" bar)
  string(SUBSTRING "${run}" 0 ${bar} name)
  math(EXPR after "${bar} + 1")
  string(SUBSTRING "${run}" ${after} -1 args)
  separate_arguments(args UNIX_COMMAND "${args}")
  execute_process(COMMAND ${DUMP} --json ${args} OUTPUT_VARIABLE json RESULT_VARIABLE rc
                  ERROR_QUIET TIMEOUT 60)
  string(JSON format ERROR_VARIABLE json_error GET "${json}" format)
  if(json_error OR rc GREATER 1)
    message("FAIL ${name}: exit ${rc}, no JSON document")
    math(EXPR failed "${failed} + 1")
  else()
    check_document("${name}" "${json}")
  endif()
endforeach()

# Anomalies: the library's bits, the tool's names, the schema, the docs.
file(READ ${SOURCE}/include/perfbuf/common.h common_h)
file(READ ${SOURCE}/tools/dump/dump_common.c dump_common_c)
string(JSON enum GET "${schema}" "$defs" anomaly enum)
string(REGEX MATCHALL "#define PERFBUF_ANOMALY_[A-Z_]+" bits "${common_h}")
foreach(bit IN LISTS bits)
  string(REPLACE "#define " "" bit "${bit}")
  if(NOT dump_common_c MATCHES "{${bit}, \"([a-z-]+)\"}")
    message("FAIL ${bit}: perfbuf-dump has no name for it")
    math(EXPR failed "${failed} + 1")
    continue()
  endif()
  set(anomaly ${CMAKE_MATCH_1})
  string(FIND "${enum}" "\"${anomaly}\"" in_schema)
  string(FIND "${cli_md}" "`${anomaly}`" in_docs)
  if(in_schema EQUAL -1 OR in_docs EQUAL -1)
    message("FAIL anomaly ${anomaly}: in the schema's enum ${in_schema}, in docs/cli.md ${in_docs}")
    math(EXPR failed "${failed} + 1")
  else()
    math(EXPR passed "${passed} + 1")
  endif()
endforeach()
# And nothing in the enum that the tool cannot write.
string(JSON n LENGTH "${schema}" "$defs" anomaly enum)
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  string(JSON anomaly GET "${schema}" "$defs" anomaly enum ${i})
  if(NOT dump_common_c MATCHES "\"${anomaly}\"}")
    message("FAIL anomaly ${anomaly}: in the schema, never written by perfbuf-dump")
    math(EXPR failed "${failed} + 1")
  endif()
endforeach()

message("${passed} passed, ${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "perfbuf-dump --json and docs/perfbuf-dump.schema.json disagree")
endif()
