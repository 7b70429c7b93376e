cmake_minimum_required(VERSION 3.25)
# perfbuf-dump --rate and --series on four captures one second apart:
# Idle's % Processor Time is 15, 25 and 35 % over the three intervals.
# Inputs: -DDUMP=<perfbuf-dump> -DMAKE=<make_series> -DDIR=<scratch folder>
file(MAKE_DIRECTORY ${DIR})
execute_process(COMMAND ${MAKE} ${DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_series failed")
endif()
set(failed 0)
macro(expect what got want)
  if(NOT "${got}" STREQUAL "${want}")
    message("FAIL ${what}: got '${got}', want '${want}'")
    math(EXPR failed "${failed} + 1")
  endif()
endmacro()

execute_process(COMMAND ${DUMP} --json --rate ${DIR}/s2.bin ${DIR}/s3.bin
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
expect("--rate exit" "${rc}" "0")
string(JSON idle GET "${json}" objects 0 instances 0 formatted 0)
expect("Idle % Processor Time, last interval" "${idle}" "35.000000")
string(JSON raw GET "${json}" objects 0 instances 1 formatted 1)
expect("svchost ID Process (a raw count)" "${raw}" "101.000000")

execute_process(COMMAND ${DUMP} --json --series ${DIR}/s0.bin ${DIR}/s1.bin ${DIR}/s2.bin --
                        ${DIR}/s3.bin OUTPUT_VARIABLE json RESULT_VARIABLE rc)
expect("--series exit" "${rc}" "0")
string(JSON count GET "${json}" objects 0 instances 0 statistics 0 count)
string(JSON min GET "${json}" objects 0 instances 0 statistics 0 min)
string(JSON max GET "${json}" objects 0 instances 0 statistics 0 max)
string(JSON mean GET "${json}" objects 0 instances 0 statistics 0 mean)
expect("statistics count" "${count}" "3")
expect("statistics min" "${min}" "15.000000")
expect("statistics max" "${max}" "35.000000")
expect("statistics mean" "${mean}" "25.000000")

execute_process(COMMAND ${DUMP} --series ${DIR}/s0.bin ${DIR}/s3.bin RESULT_VARIABLE rc
                OUTPUT_QUIET ERROR_QUIET)
expect("--series without its closing --" "${rc}" "2")

if(failed GREATER 0)
  message(FATAL_ERROR "${failed} checks failed")
endif()
message("9 passed, 0 failed")
