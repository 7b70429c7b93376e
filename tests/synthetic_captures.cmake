# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# The bundled synthetic captures are what the generator writes today: they
# are rebuilt and compared byte for byte, so the files, their README and the
# generator cannot drift apart.
# Inputs: -DMAKE=<make_series> -DDIR=<scratch dir> -DBUNDLED=<the bundled folder>
#         [-DMODE=<the generator's mode>, --synthetic unless given]
if(NOT DEFINED MODE)
  set(MODE --synthetic)
endif()
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
execute_process(COMMAND ${MAKE} ${MODE} ${DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_series ${MODE} failed: ${rc}")
endif()
file(GLOB made RELATIVE ${DIR} ${DIR}/*.bin)
file(GLOB bundled RELATIVE ${BUNDLED} ${BUNDLED}/*.bin)
list(SORT made)
list(SORT bundled)
if(NOT made STREQUAL bundled)
  message(FATAL_ERROR "generated files (${made}) differ from the bundled ones (${bundled})")
endif()
set(passed 0)
set(failed 0)
foreach(name ${made})
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DIR}/${name} ${BUNDLED}/${name}
                  RESULT_VARIABLE same)
  if(same EQUAL 0)
    math(EXPR passed "${passed} + 1")
  else()
    message("${name}: the bundled file is not what the generator writes")
    math(EXPR failed "${failed} + 1")
  endif()
endforeach()
message("${passed} passed, ${failed} failed")
if(failed GREATER 0 OR passed EQUAL 0)
  message(FATAL_ERROR "bundled synthetic captures differ from the generator's")
endif()
