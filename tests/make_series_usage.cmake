# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# make_series --help and -h print every mode on stdout and exit 0 without
# writing anything; an unknown option exits 2 with the usage on stderr and
# writes nothing either.
# Inputs: -DMAKE=<make_series> -DDIR=<scratch dir, the working directory>
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
set(modes --synthetic --collector-series --cli --csv --pairing --openmetrics --produce --help)
foreach(option --help -h)
  execute_process(COMMAND ${MAKE} ${option} WORKING_DIRECTORY ${DIR}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "make_series ${option} exited ${rc}: ${err}")
  endif()
  foreach(mode ${modes})
    string(FIND "${out}" "make_series ${mode}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "make_series ${option} does not list ${mode}:\n${out}")
    endif()
  endforeach()
endforeach()
execute_process(COMMAND ${MAKE} --no-such-mode WORKING_DIRECTORY ${DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "usage: make_series")
  message(FATAL_ERROR "make_series --no-such-mode: exit ${rc}, stderr ${err}")
endif()
file(GLOB left ${DIR}/*)
if(left)
  message(FATAL_ERROR "make_series wrote into its working directory: ${left}")
endif()
message("usage: --help, -h and an unknown option checked")
