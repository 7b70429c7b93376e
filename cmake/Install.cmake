# SPDX-License-Identifier: MIT OR Apache-2.0
# cmake --install: headers, the library, a CMake package giving
# perfbuf::perfbuf, and a pkg-config file. Static and shared builds can be
# installed into one prefix (one build each): each writes its own targets
# file, perfbuf-static-targets.cmake or perfbuf-shared-targets.cmake, and
# perfbufConfig.cmake chooses between them (see perfbufConfig.cmake.in).
include(CMakePackageConfigHelpers)

install(TARGETS perfbuf EXPORT perfbufTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/perfbuf DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(PERFBUF_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/perfbuf)
if(BUILD_SHARED_LIBS)
  set(PERFBUF_TARGETS_KIND shared)
else()
  set(PERFBUF_TARGETS_KIND static)
endif()
install(EXPORT perfbufTargets NAMESPACE perfbuf:: FILE perfbuf-${PERFBUF_TARGETS_KIND}-targets.cmake
        DESTINATION ${PERFBUF_CMAKE_DIR})
configure_package_config_file(cmake/perfbufConfig.cmake.in
    ${CMAKE_CURRENT_BINARY_DIR}/perfbufConfig.cmake
    INSTALL_DESTINATION ${PERFBUF_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/perfbufConfigVersion.cmake
    COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/perfbufConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/perfbufConfigVersion.cmake
        DESTINATION ${PERFBUF_CMAKE_DIR})

# The .pc file finds its prefix from where it lies (${pcfiledir}), so an
# install placed with `cmake --install --prefix DIR` works wherever DIR is;
# only absolute library or include folders are written as they are.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(PERFBUF_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH PERFBUF_PC_UP "/perfbuf-prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/perfbuf-prefix")
  string(REGEX REPLACE "/$" "" PERFBUF_PC_UP "${PERFBUF_PC_UP}")
  set(PERFBUF_PC_PREFIX "\${pcfiledir}/${PERFBUF_PC_UP}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(PERFBUF_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  set(PERFBUF_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(PERFBUF_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(PERFBUF_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
set(PERFBUF_PC_CFLAGS "")
if(BUILD_SHARED_LIBS)
  set(PERFBUF_PC_CFLAGS " -DPERFBUF_SHARED")
endif()
configure_file(cmake/perfbuf.pc.in ${CMAKE_CURRENT_BINARY_DIR}/perfbuf.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/perfbuf.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
