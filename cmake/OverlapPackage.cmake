# overlap_add_kernels for in-tree users, and the installed package for find_package(Overlap).
include(${CMAKE_CURRENT_LIST_DIR}/OverlapKernels.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/OverlapTune.cmake)
include(CMakePackageConfigHelpers)

set(OVERLAP_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Overlap)

if(TARGET overlap_runtime)
  set_target_properties(overlap_runtime PROPERTIES EXPORT_NAME runtime)
  install(TARGETS overlap_runtime EXPORT OverlapTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/overlap
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()
if(TARGET overlap_profile)
  install(TARGETS overlap_profile EXPORT OverlapTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
if(TARGET overlap_templates)
  set_target_properties(overlap_templates PROPERTIES EXPORT_NAME templates)
  install(TARGETS overlap_templates EXPORT OverlapTargets)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/templates/overlap DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.cuh" PATTERN "*.h")
endif()

install(EXPORT OverlapTargets NAMESPACE Overlap:: DESTINATION ${OVERLAP_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/OverlapConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/OverlapConfig.cmake
                              INSTALL_DESTINATION ${OVERLAP_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/OverlapConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/OverlapConfig.cmake ${PROJECT_BINARY_DIR}/OverlapConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/OverlapKernels.cmake
              ${CMAKE_CURRENT_LIST_DIR}/OverlapTune.cmake
        DESTINATION ${OVERLAP_INSTALL_CMAKEDIR})
