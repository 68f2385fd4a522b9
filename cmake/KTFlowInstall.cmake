# `cmake --install BUILD --prefix P`: the tools (P/bin), the shipped
# architecture descriptions (P/share/ktflow/arch, where an installed ktflow
# looks them up), the headers (P/include, generated .inc files included), the
# libraries (P/lib) and a CMake package, so a project can say
#   find_package(KTFlow CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE KTFlow::KTFlowArch)
# test/Install builds such a consumer against a fresh install.
include(CMakePackageConfigHelpers)

# Every library under lib/, found by walking the directories rather than
# listed by name, so a library a later change adds is installed too.
function(ktflow_collect_libraries dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  set(found)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type MATCHES "^(STATIC|SHARED)_LIBRARY$")
      list(APPEND found ${target})
    endif()
  endforeach()
  foreach(subdir IN LISTS subdirs)
    ktflow_collect_libraries(${subdir} below)
    list(APPEND found ${below})
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()
ktflow_collect_libraries(${PROJECT_SOURCE_DIR}/lib KTFLOW_LIBRARIES)

foreach(library IN LISTS KTFLOW_LIBRARIES)
  target_include_directories(${library} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()

# Installed tools keep finding Debian's libMLIR/libLLVM (their build-tree
# RPATH is dropped on install).
set_target_properties(ktflow ktflow-opt PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)
install(TARGETS ktflow ktflow-opt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ${KTFLOW_LIBRARIES} EXPORT KTFlowTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/arch/ DESTINATION ${KTFLOW_INSTALL_ARCH_DIR}
        FILES_MATCHING PATTERN "*.mlir")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ktflow DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/ktflow DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.inc" PATTERN "CMakeFiles" EXCLUDE)

set(KTFLOW_INSTALL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/KTFlow)
install(EXPORT KTFlowTargets NAMESPACE KTFlow:: DESTINATION ${KTFLOW_INSTALL_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/KTFlowConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/KTFlowConfig.cmake
                              INSTALL_DESTINATION ${KTFLOW_INSTALL_CMAKE_DIR}
                              PATH_VARS KTFLOW_INSTALL_ARCH_DIR CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/KTFlowConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/KTFlowConfig.cmake ${PROJECT_BINARY_DIR}/KTFlowConfigVersion.cmake
        DESTINATION ${KTFLOW_INSTALL_CMAKE_DIR})
