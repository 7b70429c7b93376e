# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# Every ```c block of README.md and docs/*.md compiles with the project's
# warnings and -Werror (docs/architecture.md, "C in the docs"): doc_snippets
# writes each as a C file (a fragment inside the function its "compiled as"
# comment gives), and each is compiled here, -O2 so that the warnings that
# need the optimizer's analysis (uninitialized values, null dereferences)
# are given too. A failure prints the compiler's messages, which name the
# page and line.
# Inputs: -DEXTRACT=<doc_snippets> -DCC=<compiler> -DFLAGS=<warnings, space-separated>
#         -DINCLUDE=<include dir> -DDIR=<scratch dir> and either -DSOURCE=<repository>
#         or -DPAGES=<Markdown files, space-separated> and -DEXPECT_UNUSED_RESULT=ON
#         (the self-test: every block must fail, each for a result it leaves unused)
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
if(DEFINED PAGES)
  separate_arguments(pages UNIX_COMMAND "${PAGES}")
else()
  file(GLOB pages ${SOURCE}/docs/*.md)
  list(SORT pages)
  list(PREPEND pages ${SOURCE}/README.md)
endif()
# The prelude: the standard headers a fragment may use and every public
# header, so a new header needs no change here.
file(GLOB headers RELATIVE ${INCLUDE} ${INCLUDE}/perfbuf/*.h)
list(SORT headers)
set(prelude "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n")
string(APPEND prelude "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n")
foreach(h ${headers})
  string(APPEND prelude "#include <${h}>\n")
endforeach()
file(WRITE ${DIR}/prelude.h "${prelude}")
execute_process(COMMAND ${EXTRACT} ${DIR} ${DIR}/prelude.h ${pages} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "doc_snippets could not extract the blocks (exit ${rc})")
endif()
file(STRINGS ${DIR}/snippets.txt snippets)
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
set(compiled 0)
set(failed 0)
set(unused 0)
foreach(entry ${snippets})
  string(REGEX MATCH "^([^ ]+) (.+)$" _ "${entry}")
  set(file ${CMAKE_MATCH_1})
  set(where ${CMAKE_MATCH_2})
  execute_process(COMMAND ${CC} -std=c11 -O2 ${flags} -Werror -I${INCLUDE}
                          -c ${DIR}/${file} -o ${DIR}/${file}.o
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    math(EXPR compiled "${compiled} + 1")
  else()
    math(EXPR failed "${failed} + 1")
    message("${where}: the block does not compile clean (${DIR}/${file}):\n${out}")
    if(out MATCHES "warn_unused_result|unused-result")
      math(EXPR unused "${unused} + 1")
    endif()
  endif()
endforeach()
if(EXPECT_UNUSED_RESULT)
  if(compiled EQUAL 0 AND failed GREATER 0 AND unused EQUAL failed)
    message("the self-test's ${failed} blocks failed, each for a result left unused, as they must")
    return()
  endif()
  message(FATAL_ERROR "the self-test's blocks compiled (${compiled}) or failed for another "
                      "reason (${failed} failed, ${unused} for an unused result): the check "
                      "does not bite")
endif()
message("${compiled} blocks compiled with -Werror, ${failed} failed")
if(compiled EQUAL 0 AND failed EQUAL 0)
  message(FATAL_ERROR "no ```c block found: the pages or the extraction are wrong")
endif()
if(failed GREATER 0)
  message(FATAL_ERROR "C in the docs does not compile clean")
endif()
