# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# The work-budget oracle sees every public function, and no harness grants
# itself more than the budget of docs/linear-time.md (fuzz/oracle.h):
#
# 1. Every function declared PERFBUF_API in include/perfbuf/*.h is called
#    at least once inside the statement of a budget macro (BUDGETED,
#    BUDGETED_APART, WALK_BUDGETED, BUDGETED_LOOKUP, WORK_SCOPE and the
#    wrappers listed below) in fuzz/*.c or fuzz/*.h. A call through a
#    function pointer or inside another function called from a budget does not
#    count: the call must be visible in the budget's statement.
# 2. A budget grants WORK_PER_BYTE (16) units per byte of the call's input
#    plus WORK_FIXED (256), or the walk budget's WALK_PER_BYTE/WALK_FIXED
#    (the same numbers). The bytes a macro is given are a sum of byte
#    counts: names, sizeof, and an array's count times the size of its
#    element; a product of two counts, a shift or a function call there,
#    or a WORK_SCOPE at other rates, is a larger grant and must be one of
#    the exceptions below, each with its bound and the reason it holds.
#    An exception that no longer occurs fails too, so the list stays the
#    list of what the harnesses do.
# 3. fuzz/oracle.h keeps the rates at 16 and 256, and no harness opens a
#    budget by hand (work_enter/work_leave outside the macros).
# 4. No grant is computed from a size the library reported: a grant that
#    names `needed` (a size answer) or an arena (the room a call asked for)
#    would let a cost the library causes pay for itself, so a collection
#    that grows its own arena could never trap.
#
# Inputs: -DSOURCE_DIR=<repository root>

if(NOT SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=<repository> -P check_fuzz_budgets.cmake")
endif()

# Macros whose statement runs under a budget.
set(budget_macros BUDGETED BUDGETED_APART BUDGETED_APART_SUMMED WALK_BUDGETED BUDGETED_LOOKUP WORK_SCOPE BUDGETED_LOG)

# Larger grants: file|macro|granted bytes|per byte|fixed|bound and why.
# The granted text is compared after whitespace is squeezed; per byte and
# fixed are compared for WORK_SCOPE only ("-" otherwise).
set(exceptions
  "fuzz/oracle.h|WORK_SCOPE|bytes|WORK_PER_BYTE|WORK_FIXED + (uint64_t)(items) * LOOKUP_PER_QUERY_BYTE * ((query_len) + 1u)|BUDGETED_LOOKUP: 16 x bytes + 256 + items x 8 x (path + 1), the objects or counters fuzz_resolve compares with a path: the path is the caller's, a hostile buffer cannot grow it"
  "fuzz/oracle.h|WORK_SCOPE|(bytes)|WORK_PER_BYTE * passes(n)|WORK_FIXED * passes(n)|BUDGETED_LOG: (16 x bytes + 256) x (ceil(log2 n) + 1), the documented n log n of the title index sort and of the V1 name classes (perfbuf_v1_block_index_classes)"
  "fuzz/oracle_v1.h|WALK_BUDGETED|2 * size|-|-|two whole walks of the buffer (decoders and views) in one scope: 16 x 2 x size + 256"
  "fuzz/fuzz_query.c|BUDGETED|len + len + len + len + len + r->table_len + items * PERFBUF_QUERY_ITEM_BYTES|-|-|a collection: the capture once for each of the three counters and twice more, the table, and PERFBUF_QUERY_ITEM_BYTES (128) per item it gave (read from the counters after the call): every item is sampled, keyed, sorted (n log n within 128 units) and paired"
)

# C text with comments, string and character literals removed, and the
# characters CMake lists treat specially replaced ('[' ']' by '<:' ':>',
# ';' and '\' by spaces): what remains is code, parentheses and all.
function(read_code path out)
  file(READ "${path}" text)
  string(REGEX REPLACE [=[/\*([^*]|\*+[^*/])*\*+/]=] " " text "${text}")
  string(REGEX REPLACE [=[//[^
]*]=] " " text "${text}")
  string(REGEX REPLACE [=["([^"\\
]|\\.)*"]=] "\"\"" text "${text}")
  string(REGEX REPLACE [=['([^'\\
]|\\.)+']=] "'_'" text "${text}")
  string(REPLACE ";" " " text "${text}")
  string(REPLACE "\\" " " text "${text}")
  string(REPLACE "[" "<:" text "${text}")
  string(REPLACE "]" ":>" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(squeeze text out)
  string(REGEX REPLACE "[ \t\r\n]+" " " text "${text}")
  string(STRIP "${text}" text)
  string(REPLACE "<:" "[" text "${text}")
  string(REPLACE ":>" "]" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The top-level arguments of a macro's argument text: arg0..argN-1 and
# the count in <prefix>_count.
function(split_arguments text prefix)
  string(REGEX MATCHALL "[^(),]*[(),]|[^(),]+$" pieces "${text}")
  set(depth 0)
  set(index 0)
  set(current "")
  foreach(piece IN LISTS pieces)
    if(piece MATCHES ",$" AND depth EQUAL 0)
      string(REGEX REPLACE ",$" "" piece "${piece}")
      string(APPEND current "${piece}")
      squeeze("${current}" current)
      set(${prefix}${index} "${current}" PARENT_SCOPE)
      math(EXPR index "${index} + 1")
      set(current "")
      continue()
    endif()
    if(piece MATCHES "\\($")
      math(EXPR depth "${depth} + 1")
    elseif(piece MATCHES "\\)$")
      math(EXPR depth "${depth} - 1")
    endif()
    string(APPEND current "${piece}")
  endforeach()
  squeeze("${current}" current)
  set(${prefix}${index} "${current}" PARENT_SCOPE)
  math(EXPR index "${index} + 1")
  set(${prefix}_count ${index} PARENT_SCOPE)
endfunction()

# Whether the bytes a budget is given are a sum of byte counts (rule 2).
function(linear_grant bytes out)
  set(rest "${bytes}")
  string(REGEX REPLACE "\\((size_t|uint64_t|uint32_t|unsigned)\\)" "" rest "${rest}")
  string(REGEX REPLACE "sizeof *\\([^()]*\\)" "S" rest "${rest}")
  string(REGEX REPLACE "sizeof +\\**[A-Za-z_][A-Za-z0-9_]*((->|\\.)[A-Za-z_][A-Za-z0-9_]*|\\[[^]]*\\])*" "S" rest "${rest}")
  # An array's bytes: its count times its element's size.
  string(REGEX REPLACE "[A-Za-z0-9_]+((->|\\.)[A-Za-z_][A-Za-z0-9_]*)* *\\* *S" "S" rest "${rest}")
  string(REGEX REPLACE "S *\\* *[A-Za-z0-9_]+((->|\\.)[A-Za-z_][A-Za-z0-9_]*)*" "S" rest "${rest}")
  if(rest MATCHES "\\*|<<|[A-Za-z0-9_] *\\(")
    set(${out} FALSE PARENT_SCOPE)
  else()
    set(${out} TRUE PARENT_SCOPE)
  endif()
endfunction()

# 1. The exported functions.
file(GLOB headers "${SOURCE_DIR}/include/perfbuf/*.h")
set(exported "")
foreach(header IN LISTS headers)
  read_code("${header}" code)
  # Preprocessor lines define PERFBUF_API itself.
  string(REGEX REPLACE "(^|\n)[ \t]*#[^\n]*" "\n" code "${code}")
  string(REGEX MATCHALL "PERFBUF_API[^(]*\\(" declarations "${code}")
  foreach(declaration IN LISTS declarations)
    if(NOT declaration MATCHES "([A-Za-z_][A-Za-z0-9_]*)[ \t\n]*\\($")
      message(FATAL_ERROR "cannot read a function name in ${declaration}")
    endif()
    list(APPEND exported ${CMAKE_MATCH_1})
  endforeach()
endforeach()
list(REMOVE_DUPLICATES exported)
list(LENGTH exported exported_count)
if(exported_count LESS 10)
  message(FATAL_ERROR "only ${exported_count} PERFBUF_API functions read from ${SOURCE_DIR}/include/perfbuf")
endif()

# 2. Every budget in the harnesses: the functions called in its statement
# and what it grants.
file(GLOB fuzz_files "${SOURCE_DIR}/fuzz/*.c" "${SOURCE_DIR}/fuzz/*.h")
set(budgeted "")
set(problems "")
set(used_exceptions "")
set(budget_count 0)
foreach(path IN LISTS fuzz_files)
  file(RELATIVE_PATH relative "${SOURCE_DIR}" "${path}")
  read_code("${path}" code)
  if(NOT relative STREQUAL "fuzz/oracle.h" AND code MATCHES "(work_enter|work_leave)[ \t\n]*\\(")
    list(APPEND problems "${relative}: ${CMAKE_MATCH_1} outside fuzz/oracle.h (open budgets with its macros)")
  endif()
  if(relative STREQUAL "fuzz/oracle.h")
    foreach(rate "WORK_PER_BYTE 16u" "WORK_FIXED 256u" "WALK_PER_BYTE 16u" "WALK_FIXED 256u")
      if(NOT code MATCHES "#define ${rate}\n")
        list(APPEND problems "fuzz/oracle.h: expected #define ${rate}")
      endif()
    endforeach()
  endif()
  string(REGEX MATCHALL "[^()]*[()]" pieces "${code}")
  set(depth 0)
  set(open "")  # depths at which a budget macro's arguments are open
  foreach(piece IN LISTS pieces)
    foreach(level IN LISTS open)
      string(APPEND text_${level} "${piece}")
    endforeach()
    if(piece MATCHES "\\($")
      math(EXPR depth "${depth} + 1")
      if(piece MATCHES "(^|[^A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)[ \t\n]*\\($")
        set(name ${CMAKE_MATCH_2})
        if(name IN_LIST budget_macros AND NOT piece MATCHES "#[ \t]*define[ \t]+${name}[ \t]*\\($")
          list(APPEND open ${depth})
          set(name_${depth} ${name})
          set(text_${depth} "")
        endif()
      endif()
    elseif(piece MATCHES "\\)$")
      list(FIND open ${depth} at)
      if(NOT at EQUAL -1)
        list(REMOVE_ITEM open ${depth})
        set(macro ${name_${depth}})
        string(REGEX REPLACE "\\)$" "" arguments "${text_${depth}}")
        math(EXPR budget_count "${budget_count} + 1")
        string(REGEX MATCHALL "perfbuf_[A-Za-z0-9_]+[ \t\n]*\\(" calls "${arguments}")
        foreach(call IN LISTS calls)
          string(REGEX REPLACE "[ \t\n]*\\($" "" call "${call}")
          list(APPEND budgeted ${call})
        endforeach()
        split_arguments("${arguments}" argument)
        set(per_byte "-")
        set(fixed "-")
        set(larger FALSE)
        if(macro STREQUAL "WORK_SCOPE")
          set(per_byte "${argument1}")
          set(fixed "${argument2}")
          if(NOT ((per_byte STREQUAL "WORK_PER_BYTE" AND fixed STREQUAL "WORK_FIXED") OR
                  (per_byte STREQUAL "WALK_PER_BYTE" AND fixed STREQUAL "WALK_FIXED") OR
                  (per_byte STREQUAL "per_byte" AND fixed STREQUAL "fixed" AND
                   relative STREQUAL "fuzz/oracle.h")))
            set(larger TRUE)
          endif()
        endif()
        if(argument0 MATCHES "(^|[^A-Za-z0-9_])(needed|[A-Za-z0-9_]*arena[A-Za-z0-9_]*)([^A-Za-z0-9_]|$)")
          list(APPEND problems "${relative}: ${macro}(${argument0}, ...) grants by ${CMAKE_MATCH_2}, a size the library reported (rule 4)")
        endif()
        linear_grant("${argument0}" linear)
        if(NOT linear)
          set(larger TRUE)
        endif()
        if(larger)
          set(key "${relative}|${macro}|${argument0}|${per_byte}|${fixed}")
          set(listed FALSE)
          foreach(exception IN LISTS exceptions)
            string(FIND "${exception}" "${key}|" where)
            if(where EQUAL 0)
              set(listed TRUE)
              list(APPEND used_exceptions "${key}")
            endif()
          endforeach()
          if(NOT listed)
            list(APPEND problems "${relative}: ${macro}(${argument0}, ...) grants more than 16 x bytes + 256 (per byte ${per_byte}, fixed ${fixed}) and is not a listed exception")
          endif()
        endif()
      endif()
      math(EXPR depth "${depth} - 1")
    endif()
  endforeach()
endforeach()

foreach(exception IN LISTS exceptions)
  string(REGEX MATCH "^[^|]*\\|[^|]*\\|[^|]*\\|[^|]*\\|[^|]*" key "${exception}")
  if(NOT key IN_LIST used_exceptions)
    list(APPEND problems "listed exception no longer in the harnesses: ${key}")
  endif()
endforeach()

set(missing "")
foreach(function IN LISTS exported)
  if(NOT function IN_LIST budgeted)
    list(APPEND missing ${function})
  endif()
endforeach()
foreach(function IN LISTS missing)
  list(APPEND problems "${function} is exported but called under no budget in fuzz/")
endforeach()

list(LENGTH exceptions exception_count)
message("${exported_count} exported functions, ${budget_count} budgets in fuzz/, ${exception_count} listed larger grants")
if(problems)
  foreach(problem IN LISTS problems)
    message("FAIL ${problem}")
  endforeach()
  message(FATAL_ERROR "the work-budget oracle does not cover the harnesses as docs/linear-time.md requires")
endif()
message("1 passed, 0 failed")
