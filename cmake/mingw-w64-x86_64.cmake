# SPDX-License-Identifier: MIT OR Apache-2.0
# x86-64 Windows with mingw-w64; test binaries run under Wine.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# Static runtime: the test binaries then need no DLLs beside them under Wine.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
find_program(PERFBUF_WINE NAMES wine64 wine)
if(PERFBUF_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${PERFBUF_WINE})
endif()
