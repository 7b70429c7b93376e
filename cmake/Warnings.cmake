# SPDX-License-Identifier: MIT OR Apache-2.0
# The warning set every perfbuf target builds with; PERFBUF_WERROR turns
# them into errors (CI sets it).
option(PERFBUF_WERROR "Treat compiler warnings as errors" OFF)

set(PERFBUF_WARNINGS
    -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow
    -Wcast-align -Wcast-qual -Wvla -Wpointer-arith -Wstrict-prototypes
    -Wmissing-prototypes -Wundef -Wwrite-strings -Wswitch-enum
    -Wformat=2 -Wnull-dereference -Wdouble-promotion -Wimplicit-fallthrough)
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
  list(APPEND PERFBUF_WARNINGS -Wduplicated-cond -Wlogical-op -Wjump-misses-init)
endif()

function(perfbuf_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4)
    return()
  endif()
  target_compile_options(${target} PRIVATE ${PERFBUF_WARNINGS})
  if(PERFBUF_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
