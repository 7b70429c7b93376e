# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# The documented layouts in corpus/captures/documented/ and their framed
# copies in the fuzz corpora are what the generator writes today: both are
# rebuilt and compared byte for byte, so the files, their README and the
# generator cannot drift apart.
# Inputs: -DMAKE=<make_documented> -DDIR=<scratch dir> -DCORPUS=<corpus dir>
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR}/captures)
foreach(harness fuzz_pairing fuzz_resolve fuzz_v2_meta fuzz_v2_crosscheck fuzz_mixed_views)
  file(MAKE_DIRECTORY ${DIR}/seeds/${harness})
endforeach()
execute_process(COMMAND ${MAKE} ${DIR}/captures RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_documented failed: ${rc}")
endif()
execute_process(COMMAND ${MAKE} --seeds ${DIR}/seeds RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_documented --seeds failed: ${rc}")
endif()

set(passed 0)
set(failed 0)
# made: files under the scratch folder; bundled: the committed ones they
# must equal, found by the same pattern.
function(compare made_dir bundled_dir pattern)
  file(GLOB made RELATIVE ${made_dir} ${made_dir}/${pattern})
  file(GLOB bundled RELATIVE ${bundled_dir} ${bundled_dir}/${pattern})
  list(SORT made)
  list(SORT bundled)
  if(NOT made STREQUAL bundled)
    message("${bundled_dir}: generated files (${made}) differ from the bundled ones (${bundled})")
    math(EXPR failed "${failed} + 1")
  endif()
  foreach(name ${made})
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${made_dir}/${name}
                            ${bundled_dir}/${name} RESULT_VARIABLE same)
    if(same EQUAL 0)
      math(EXPR passed "${passed} + 1")
    else()
      message("${bundled_dir}/${name}: the bundled file is not what the generator writes")
      math(EXPR failed "${failed} + 1")
    endif()
  endforeach()
  set(passed ${passed} PARENT_SCOPE)
  set(failed ${failed} PARENT_SCOPE)
endfunction()

compare(${DIR}/captures ${CORPUS}/captures/documented "*.bin")
foreach(harness fuzz_pairing fuzz_resolve fuzz_v2_meta fuzz_v2_crosscheck fuzz_mixed_views)
  compare(${DIR}/seeds/${harness} ${CORPUS}/${harness} "valid-documented-*.bin")
endforeach()
message("${passed} passed, ${failed} failed")
if(failed GREATER 0 OR passed LESS 7)
  message(FATAL_ERROR "bundled documented captures or seeds differ from the generator's")
endif()
