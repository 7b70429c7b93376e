# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# Every status a buffer reader can return has its rule: each PERFBUF_E_* named in
# a reader's source must appear in a rule table of that reader's document, or in
# the table of call statuses of docs/formats.md, and every rule row must give
# its source (a published text or a decision). See docs/formats.md, "Rules that
# refuse a buffer".
# Inputs: -DROOT=<source tree>; -DDROP_STATUS=<NAME> pretends the tables lack
# that status (the test that shows the check can fail).

# Reader source -> the document whose rule tables cover it. Every src/v1/*.c and
# src/v2/*.c must be listed, so a new reader cannot go unchecked.
set(readers
    src/v1/block.c=docs/v1.md
    src/v1/instance_names.c=docs/v1.md
    src/v1/values.c=docs/v1.md
    src/v1/counter_help.c=docs/v1.md
    src/collector/titles.c=docs/v1.md
    src/v2/query.c=docs/v2-query.md
    src/v2/values.c=docs/v2-query.md
    src/v2/meta.c=docs/v2-metadata.md
    src/v2/strings.c=docs/v2-metadata.md
    src/v2/identifiers.c=docs/v2-metadata.md
    src/v2/crosscheck.c=docs/v2-metadata.md
    src/v2/plan.c=docs/v2-metadata.md
    src/core/text.c=docs/formats.md
    src/core/check.c=docs/formats.md)

set(errors "")
set(rule_header "| structure.field | check | status | lenient | source |")
set(call_header "| status | when | source |")
# What a source cell must name: a published source or a decision (or point at
# a row that does).
set(source_words "winperf\\.h|perflib\\.h|MS-PCQ|page \"|Platform SDK|decision|as above|as there|same page|the sources|API contract")

# The statuses named in the status column of the tables of `doc` whose header
# is `header` (status in cell `status_cell`, source in `source_cell`, lenient
# behaviour in `lenient_cell` or none when it is 0), into `out`, and those of
# anomaly rows alone into `out`_anomaly; rows without a source are reported,
# and rows whose two modes disagree with the status: an anomaly is accepted by
# the lenient mode, anything else refused in both.
function(table_statuses doc header status_cell source_cell lenient_cell out)
  file(READ ${ROOT}/${doc} text)
  # A list splits at ';' except inside brackets: neither may stay in a line,
  # and a cell's ';' between statuses becomes ','.
  string(REPLACE ";" "," text "${text}")
  string(REPLACE "[" "(" text "${text}")
  string(REPLACE "]" ")" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(found "")
  set(found_anomaly "")
  set(problems "")
  set(in_table FALSE)
  foreach(line IN LISTS lines)
    if(line STREQUAL header)
      set(in_table TRUE)
      continue()
    endif()
    if(NOT in_table)
      continue()
    endif()
    if(NOT line MATCHES "^\\|")
      set(in_table FALSE)
      continue()
    endif()
    if(line MATCHES "^\\|---")
      continue()
    endif()
    string(REPLACE "|" ";" cells "${line}")
    list(LENGTH cells n)
    if(n LESS_EQUAL source_cell)
      string(APPEND problems "\n  ${doc}: a rule row has too few cells: ${line}")
      continue()
    endif()
    list(GET cells ${status_cell} status)
    list(GET cells ${source_cell} source)
    string(STRIP "${source}" source)
    if(NOT source MATCHES "${source_words}")
      string(APPEND problems "\n  ${doc}: a rule row cites no source or decision: ${line}")
    endif()
    if(lenient_cell GREATER 0)
      list(GET cells ${lenient_cell} lenient)
      string(STRIP "${lenient}" lenient)
      if(status MATCHES "anomaly" AND NOT lenient MATCHES "^accepted")
        string(APPEND problems "\n  ${doc}: an anomaly the lenient mode does not accept: ${line}")
      elseif(NOT status MATCHES "anomaly" AND NOT lenient MATCHES "^(same|as there)")
        string(APPEND problems "\n  ${doc}: a refusal in strict mode that the lenient column does not call the same: ${line}")
      endif()
    endif()
    string(REGEX MATCHALL "[A-Z][A-Z0-9_]*[A-Z0-9]" names "${status}")
    list(APPEND found ${names})
    if(status MATCHES "anomaly")
      list(APPEND found_anomaly ${names})
    endif()
  endforeach()
  if(DEFINED DROP_STATUS)
    list(REMOVE_ITEM found ${DROP_STATUS})
    list(REMOVE_ITEM found_anomaly ${DROP_STATUS})
  endif()
  set(${out} ${found} PARENT_SCOPE)
  set(${out}_anomaly ${found_anomaly} PARENT_SCOPE)
  set(errors "${errors}${problems}" PARENT_SCOPE)
endfunction()

table_statuses(docs/formats.md "${call_header}" 1 3 0 call_statuses)
if(NOT call_statuses)
  string(APPEND errors "\n  docs/formats.md: no table of call statuses")
endif()

file(GLOB reader_sources RELATIVE ${ROOT} ${ROOT}/src/v1/*.c ${ROOT}/src/v2/*.c)
set(mapped "")
foreach(entry IN LISTS readers)
  string(REPLACE "=" ";" pair "${entry}")
  list(GET pair 0 source)
  list(APPEND mapped ${source})
endforeach()
foreach(source IN LISTS reader_sources)
  if(NOT source IN_LIST mapped)
    string(APPEND errors "\n  ${source}: a reader with no rule document in tests/check_rules.cmake")
  endif()
endforeach()

set(checked 0)
set(docs_read "")
foreach(entry IN LISTS readers)
  string(REPLACE "=" ";" pair "${entry}")
  list(GET pair 0 source)
  list(GET pair 1 doc)
  if(NOT doc IN_LIST docs_read)
    table_statuses(${doc} "${rule_header}" 3 5 4 rules_${doc})
    list(APPEND docs_read ${doc})
    if(NOT rules_${doc})
      string(APPEND errors "\n  ${doc}: no rule table")
    endif()
  endif()
  file(READ ${ROOT}/${source} text)
  # A status a pb_anomaly call gives is accepted leniently: its row must say so.
  string(REGEX MATCHALL "pb_anomaly\\([^,]*,[^,]*,[ \t\n]*PERFBUF_E_[A-Z0-9_]+" anomaly_calls "${text}")
  foreach(call IN LISTS anomaly_calls)
    string(REGEX MATCH "PERFBUF_E_([A-Z0-9_]+)$" _ "${call}")
    if(NOT CMAKE_MATCH_1 IN_LIST rules_${doc}_anomaly)
      string(APPEND errors "\n  ${source} accepts PERFBUF_E_${CMAKE_MATCH_1} leniently (pb_anomaly), which no anomaly row of ${doc} lists")
    endif()
  endforeach()
  string(REGEX MATCHALL "PERFBUF_E_[A-Z0-9_]+" returned "${text}")
  list(REMOVE_DUPLICATES returned)
  foreach(name IN LISTS returned)
    string(REGEX REPLACE "^PERFBUF_E_" "" status "${name}")
    math(EXPR checked "${checked} + 1")
    if(NOT status IN_LIST rules_${doc} AND NOT status IN_LIST call_statuses)
      string(APPEND errors "\n  ${source} can return ${name}, which no rule table of ${doc} lists")
    endif()
  endforeach()
endforeach()

if(errors)
  message(FATAL_ERROR "rule tables incomplete:${errors}")
endif()
list(LENGTH readers n_readers)
message("${checked} statuses of ${n_readers} readers found in their rule tables")
message("1 passed, 0 failed")
