# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# One include direction (docs/architecture.md): a file under src/<layer>/
# includes only its own layer and the layers below it, and so does a public
# header, through the layer that owns it. Inside core/, the floors below
# keep the order too. Every include of a source file is written from src/
# ("core/cursor.h"), so the direction can be read off the line.
#
#   cmake -P tests/check_layers.cmake              checks this checkout
#   cmake -DSOURCE_DIR=<checkout> -P ...           checks another
#   cmake -DSELF_TEST=<empty dir> -P ...           shows the check fails on
#                                                  each kind of wrong include

# Layers and their rank: a layer includes only layers of a lower rank and
# itself. V1 and V2 share a rank: neither includes the other; what both need
# lives in core/, what combines them in collector/.
set(layer_names core v1 v2 collector)
set(rank_core 0)
set(rank_v1 1)
set(rank_v2 1)
set(rank_collector 2)

# The layer that owns each public header (include/perfbuf/).
set(public_core common.h errors.def cstatus.def counter_types.h values.h text.h version.h
    openmetrics.h)
set(public_v1 v1.h names.h)
set(public_v2 v2_query.h v2_meta.h)
set(public_collector paths.h resolve.h collector.h query.h)

# Floors inside core/, lowest first: a core file includes only headers on a
# lower floor, and its own header. A file's floor is its header's (x.c goes
# with x.h); a header not listed is on the floor above every listed one, and
# a source whose header is not listed above that.
set(core_floors
    "work.h le_load.h layout.def"
    "order.h cursor.h layout.h mix.h"
    "text.h"
    "check.h")

function(layer_rank layer out)
  if(layer IN_LIST layer_names)
    set(${out} ${rank_${layer}} PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

function(public_owner header out)
  set(owner "")
  foreach(layer ${layer_names})
    if(header IN_LIST public_${layer})
      set(owner ${layer})
    endif()
  endforeach()
  set(${out} "${owner}" PARENT_SCOPE)
endfunction()

function(core_floor name out)
  string(REGEX REPLACE "\\.c$" ".h" header "${name}")
  set(floor 0)
  list(LENGTH core_floors found)
  if(NOT header STREQUAL name)
    math(EXPR found "${found} + 1")
  endif()
  foreach(names ${core_floors})
    string(REPLACE " " ";" names "${names}")
    if(header IN_LIST names OR name IN_LIST names)
      set(found ${floor})
    endif()
    math(EXPR floor "${floor} + 1")
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# check_tree(root problems_var count_var): every wrong include under
# root/src and root/include/perfbuf, one message each.
function(check_tree root problems_var count_var)
  set(problems "")
  set(count 0)
  file(GLOB_RECURSE sources RELATIVE "${root}/src" "${root}/src/*")
  file(GLOB publics RELATIVE "${root}/include/perfbuf" "${root}/include/perfbuf/*")
  set(files "")
  foreach(f ${sources})
    list(APPEND files "src/${f}")
  endforeach()
  foreach(f ${publics})
    list(APPEND files "include/perfbuf/${f}")
  endforeach()
  foreach(file ${files})
    # Which layer the file is in, and on which floor inside core/.
    set(floor "")
    if(file MATCHES "^src/([^/]+)/(.+)$")
      set(layer ${CMAKE_MATCH_1})
      set(name ${CMAKE_MATCH_2})
      layer_rank(${layer} rank)
      if(rank STREQUAL "")
        list(APPEND problems "${file}: src/${layer}/ is not a layer (core, v1, v2, collector): move the file into one, or add the layer to tests/check_layers.cmake")
        continue()
      endif()
      if(layer STREQUAL "core")
        core_floor(${name} floor)
      endif()
    elseif(file MATCHES "^src/")
      list(APPEND problems "${file}: a source directly in src/ is in no layer: move it into core/, v1/, v2/ or collector/")
      continue()
    else()
      string(REGEX REPLACE "^include/perfbuf/" "" name "${file}")
      public_owner(${name} layer)
      if(layer STREQUAL "")
        list(APPEND problems "${file}: no layer owns this public header: add it to a public_<layer> list in tests/check_layers.cmake")
        continue()
      endif()
      layer_rank(${layer} rank)
    endif()

    file(STRINGS "${root}/${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line ${includes})
      if(NOT line MATCHES "#[ \t]*include[ \t]*\"([^\"]*)\"")
        continue()
      endif()
      set(target ${CMAKE_MATCH_1})
      math(EXPR count "${count} + 1")
      set(where "${file}: #include \"${target}\"")
      if(target MATCHES "^perfbuf/(.+)$")
        set(header ${CMAKE_MATCH_1})
        public_owner(${header} to_layer)
        if(to_layer STREQUAL "")
          list(APPEND problems "${where}: no layer owns this public header: add it to a public_<layer> list in tests/check_layers.cmake")
          continue()
        endif()
        if(NOT EXISTS "${root}/include/perfbuf/${header}")
          list(APPEND problems "${where}: no such public header")
          continue()
        endif()
      elseif(file MATCHES "^include/")
        list(APPEND problems "${where}: a public header includes only public headers")
        continue()
      elseif(target MATCHES "^([^/.]+)/([^/]+)$")
        set(to_layer ${CMAKE_MATCH_1})
        set(to_name ${CMAKE_MATCH_2})
        layer_rank(${to_layer} to_rank)
        if(to_rank STREQUAL "" OR NOT EXISTS "${root}/src/${target}")
          list(APPEND problems "${where}: not a file of a layer (src/core/, src/v1/, src/v2/, src/collector/)")
          continue()
        endif()
      else()
        list(APPEND problems "${where}: write the include from src/, with its layer (\"core/cursor.h\")")
        continue()
      endif()

      layer_rank(${to_layer} to_rank)
      if(to_layer STREQUAL layer)
        # Inside core/, only down a floor (or a file's own header).
        if(NOT floor STREQUAL "" AND target MATCHES "^core/")
          core_floor(${to_name} to_floor)
          string(REGEX REPLACE "\\.c$" ".h" own "${name}")
          if(NOT to_name STREQUAL own AND NOT to_floor LESS floor)
            list(APPEND problems "${where}: runs up a floor inside core/ (floor ${floor} includes floor ${to_floor}): see the floors in tests/check_layers.cmake")
          endif()
        endif()
      elseif(to_rank GREATER rank)
        list(APPEND problems "${where}: ${layer}/ is below ${to_layer}/ and may not include it")
      elseif(to_rank EQUAL rank)
        list(APPEND problems "${where}: ${layer}/ and ${to_layer}/ may not include each other: move what both need to core/")
      endif()
    endforeach()
  endforeach()
  set(${problems_var} "${problems}" PARENT_SCOPE)
  set(${count_var} ${count} PARENT_SCOPE)
endfunction()

if(DEFINED SELF_TEST)
  # A tree with one file of each kind of wrong include next to good ones;
  # each wrong one must be reported, and nothing else.
  set(t "${SELF_TEST}")
  file(REMOVE_RECURSE "${t}")
  file(WRITE "${t}/include/perfbuf/common.h" "/* base */\n")
  file(WRITE "${t}/include/perfbuf/v1.h" "#include \"perfbuf/common.h\"\n")
  file(WRITE "${t}/include/perfbuf/values.h" "#include \"perfbuf/v1.h\"\n")
  file(WRITE "${t}/include/perfbuf/extra.h" "/* owned by no layer */\n")
  file(WRITE "${t}/src/core/work.h" "/* bottom floor */\n")
  file(WRITE "${t}/src/core/cursor.h" "#include \"core/work.h\"\n")
  file(WRITE "${t}/src/core/text.h" "#include \"core/cursor.h\"\n")
  file(WRITE "${t}/src/core/check.h" "#include \"core/cursor.h\"\n#include \"core/text.h\"\n")
  file(WRITE "${t}/src/core/check.c" "#include \"core/check.h\"\n#include \"perfbuf/common.h\"\n")
  file(WRITE "${t}/src/core/values.c" "#include \"core/check.h\"\n#include \"v1/internal.h\"\n")
  file(WRITE "${t}/src/core/work.c" "#include \"core/work.h\"\n#include \"core/text.h\"\n")
  file(WRITE "${t}/src/v1/internal.h" "#include \"core/check.h\"\n#include \"perfbuf/v1.h\"\n")
  file(WRITE "${t}/src/v1/block.c" "#include \"v1/internal.h\"\n#include \"v2/internal.h\"\n")
  file(WRITE "${t}/src/v1/names.c" "#include \"check.h\"\n#include \"../core/text.h\"\n#include \"core/gone.h\"\n")
  file(WRITE "${t}/src/v2/internal.h" "#include \"core/check.h\"\n")
  file(WRITE "${t}/src/v2/query.c" "#include \"v2/internal.h\"\n#include \"collector/internal.h\"\n#include \"perfbuf/extra.h\"\n")
  file(WRITE "${t}/src/collector/internal.h" "#include \"v1/internal.h\"\n#include \"v2/internal.h\"\n#include \"core/work.h\"\n")
  file(WRITE "${t}/src/stray-file.c" "#include \"core/work.h\"\n")
  file(WRITE "${t}/src/query/run.c" "#include \"core/work.h\"\n")
  check_tree("${t}" problems count)
  set(expected
      "include/perfbuf/extra.h: no layer owns"
      "include/perfbuf/values.h: #include \"perfbuf/v1.h\": core/ is below v1/"
      "src/core/values.c: #include \"v1/internal.h\": core/ is below v1/"
      "src/core/work.c: #include \"core/text.h\": runs up a floor"
      "src/v1/block.c: #include \"v2/internal.h\": v1/ and v2/ may not include each other"
      "src/v1/names.c: #include \"check.h\": write the include from src/"
      "src/v1/names.c: #include \"../core/text.h\": write the include from src/"
      "src/v1/names.c: #include \"core/gone.h\": not a file of a layer"
      "src/v2/query.c: #include \"collector/internal.h\": v2/ is below collector/"
      "src/v2/query.c: #include \"perfbuf/extra.h\": no layer owns"
      "src/stray-file.c: a source directly in src/ is in no layer"
      "src/query/run.c: src/query/ is not a layer")
  set(failed "")
  foreach(want ${expected})
    set(hit FALSE)
    foreach(got ${problems})
      string(FIND "${got}" "${want}" at)
      if(at EQUAL 0)
        set(hit TRUE)
      endif()
    endforeach()
    if(NOT hit)
      list(APPEND failed "not reported: ${want}")
    endif()
  endforeach()
  list(LENGTH problems reported)
  list(LENGTH expected wanted)
  if(NOT reported EQUAL wanted)
    string(REPLACE ";" "\n  " all "${problems}")
    list(APPEND failed "reported ${reported} problems, expected ${wanted}:\n  ${all}")
  endif()
  file(REMOVE_RECURSE "${t}")
  if(failed)
    string(REPLACE ";" "\n" failed "${failed}")
    message(FATAL_ERROR "check_layers self-test:\n${failed}")
  endif()
  message(STATUS "check_layers self-test: all ${wanted} wrong includes reported, the good ones not")
  return()
endif()

if(NOT DEFINED SOURCE_DIR)
  get_filename_component(SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()
if(NOT IS_DIRECTORY "${SOURCE_DIR}/src" OR NOT IS_DIRECTORY "${SOURCE_DIR}/include/perfbuf")
  message(FATAL_ERROR "check_layers: ${SOURCE_DIR} has no src/ or include/perfbuf/")
endif()
check_tree("${SOURCE_DIR}" problems count)
if(count EQUAL 0)
  message(FATAL_ERROR "check_layers: no include found under ${SOURCE_DIR}/src: nothing was checked")
endif()
if(problems)
  list(LENGTH problems n)
  string(REPLACE ";" "\n  " problems "${problems}")
  message(FATAL_ERROR "check_layers: ${n} includes break the layering (docs/architecture.md):\n  ${problems}")
endif()
message(STATUS "check_layers: ${count} includes checked; each goes down or stays in its layer")
