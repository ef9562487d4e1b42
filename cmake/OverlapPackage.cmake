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
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/calibrate/profile/include/overlap
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()
if(TARGET overlap_templates)
  set_target_properties(overlap_templates PROPERTIES EXPORT_NAME templates)
  install(TARGETS overlap_templates EXPORT OverlapTargets)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/templates/overlap DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.cuh" PATTERN "*.h")
endif()

# The tuner: overlap_tune() links Overlap::tune_main into a project's tuning executable, and
# overlap_add_kernels() links Overlap::tuner_dispatch for the model's choice. Their headers keep
# their in-tree spelling ("model/...", "tune/...") under include/overlap-tuner.
if(TARGET overlap_tune_main AND TARGET overlap_tuner_dispatch)
  set(overlap_tuner_includedir ${CMAKE_INSTALL_INCLUDEDIR}/overlap-tuner)
  target_include_directories(overlap_model INTERFACE
    $<INSTALL_INTERFACE:${overlap_tuner_includedir}> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_include_directories(overlap_tuner_core INTERFACE
    $<INSTALL_INTERFACE:${overlap_tuner_includedir}>)
  target_include_directories(overlap_tuner_dispatch INTERFACE
    $<INSTALL_INTERFACE:${overlap_tuner_includedir}>)
  set(overlap_tuner_exports
      overlap_model:model overlap_tuner_core:tuner_core overlap_tuner:tuner
      overlap_tune_main:tune_main overlap_tuner_dispatch:tuner_dispatch)
  foreach(pair IN LISTS overlap_tuner_exports)
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 library)
    list(GET pair 1 export_name)
    set_target_properties(${library} PROPERTIES EXPORT_NAME ${export_name})
    install(TARGETS ${library} EXPORT OverlapTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  endforeach()
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/tuner/model ${PROJECT_SOURCE_DIR}/tuner/tune
          DESTINATION ${overlap_tuner_includedir} FILES_MATCHING PATTERN "*.h")
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
# For a user's build that runs where overlap-gen cannot (a GPU node without Clang headers).
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/pregenerate.sh DESTINATION ${CMAKE_INSTALL_BINDIR}
        RENAME overlap-pregenerate)
