# One warning set for every target Overlap builds itself: the libraries, tools, tests, examples
# and benchmarks of this source tree, never the targets of a project that adds Overlap.
# OVERLAP_WARNINGS_AS_ERRORS (CI sets it) makes every warning an error.
option(OVERLAP_WARNINGS_AS_ERRORS "Treat warnings in Overlap's own targets as errors" OFF)

set(OVERLAP_WARNING_FLAGS
    $<$<COMPILE_LANGUAGE:CXX>:-Wall;-Wextra;-Wpedantic>
    # nvcc's own host stubs are not pedantic-clean; the kernels' host code gets the rest.
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
if(OVERLAP_WARNINGS_AS_ERRORS)
  list(APPEND OVERLAP_WARNING_FLAGS $<$<COMPILE_LANGUAGE:CXX>:-Werror>
       $<$<COMPILE_LANGUAGE:CUDA>:--Werror=all-warnings;-Xcompiler=-Werror>)
endif()

# Applies the set to every compiled target defined in `dir` and below it.
function(overlap_apply_warnings dir)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    get_target_property(imported ${target} IMPORTED)
    if(NOT imported AND type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$")
      target_compile_options(${target} PRIVATE ${OVERLAP_WARNING_FLAGS})
    endif()
  endforeach()
  get_property(subdirectories DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    overlap_apply_warnings(${subdirectory})
  endforeach()
endfunction()
