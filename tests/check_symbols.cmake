# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# The library must not allocate, print, abort or exit: none of those
# functions may appear among the undefined symbols of libperfbuf.
# Inputs: -DNM=<nm> -DLIB=<libperfbuf.a or .so>
set(forbidden
    malloc calloc realloc free aligned_alloc posix_memalign memalign valloc
    strdup strndup
    printf fprintf vprintf vfprintf sprintf snprintf vsprintf vsnprintf
    puts fputs putchar fputc fwrite perror dprintf
    fopen fclose
    abort exit _exit _Exit quick_exit __assert_fail __assert_rtn
    setjmp longjmp
    getenv)
execute_process(COMMAND ${NM} -u ${LIB} OUTPUT_VARIABLE undefined RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -u ${LIB} failed")
endif()
string(REPLACE "\n" ";" lines "${undefined}")
set(found "")
set(checked 0)
foreach(line ${lines})
  string(STRIP "${line}" line)
  if(line MATCHES "^U ([^ @]+)")
    set(symbol ${CMAKE_MATCH_1})
    # Mach-O and some toolchains prefix symbols with an underscore.
    string(REGEX REPLACE "^_([a-z])" "\\1" plain ${symbol})
    math(EXPR checked "${checked} + 1")
    if(plain IN_LIST forbidden)
      list(APPEND found ${symbol})
    endif()
  endif()
endforeach()
message("${checked} undefined symbols checked in ${LIB}")
if(found)
  message(FATAL_ERROR "libperfbuf references ${found}: the library must not allocate, print or abort")
endif()
message("1 passed, 0 failed")
