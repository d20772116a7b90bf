# Targets for users (Unfad::unfad, Unfad::headers), unfad_generate(), and the
# install/export rules of the Unfad CMake package. Included from the top-level
# CMakeLists.txt, so `add_subdirectory(<unfad source>)` gives the same names as
# `find_package(Unfad)` after `cmake --install`.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# <unfad/unfad.h>, the only header users include.
add_library(unfad_headers INTERFACE)
target_include_directories(unfad_headers INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
set_target_properties(unfad_headers PROPERTIES EXPORT_NAME headers)
add_library(Unfad::headers ALIAS unfad_headers)
add_executable(Unfad::unfad ALIAS unfad)

include(${CMAKE_CURRENT_LIST_DIR}/UnfadGenerate.cmake)

install(TARGETS unfad EXPORT UnfadTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS unfad_headers EXPORT UnfadTargets)
install(FILES ${PROJECT_SOURCE_DIR}/include/unfad/unfad.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/unfad)
# <prefix>/lib/unfad-plugin.so finds <prefix>/include itself (../include).
set(UNFAD_PLUGIN_INSTALL_DIR lib)
if(TARGET unfad-plugin)
  install(TARGETS unfad-plugin LIBRARY DESTINATION ${UNFAD_PLUGIN_INSTALL_DIR})
endif()

set(UNFAD_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Unfad)
install(EXPORT UnfadTargets NAMESPACE Unfad:: DESTINATION ${UNFAD_CMAKE_INSTALL_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/UnfadConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/UnfadConfig.cmake
  INSTALL_DESTINATION ${UNFAD_CMAKE_INSTALL_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR UNFAD_PLUGIN_INSTALL_DIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/UnfadConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion) # 0.x: minor versions may break
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/UnfadConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/UnfadConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/UnfadGenerate.cmake
  DESTINATION ${UNFAD_CMAKE_INSTALL_DIR})
