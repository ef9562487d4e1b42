# overlap_tune(<target> [RESULTS <file>] [ARGS <name>=<value>...]
#              [SIZES <name>=<lo>..<hi>[:<count>]] [OPTIONS <option>...])
#
# Adds <target>_tune, an executable holding <target>'s generated kernels (overlap_add_kernels must
# come first) and the tuner's main, and a target <target>_tuning that runs it on the GPU: it
# tunes every annotated kernel at the annotation's tune(...) sizes, overridden by ARGS, writes the
# reports to <build>/overlap-tuning/<target>/ and, with RESULTS, updates that tuning-results file
# (keep it in the source tree, like a lock file). A target that names the same file in
# overlap_add_kernels(... TUNING_RESULTS) dispatches to the winners on the next build.
# SIZES tunes the kernels that have the integer argument <name> across the sizes an application
# calls them with (--sweep): <count> values (default 7) log-spaced from <lo> to <hi>, bisected
# where the winner changes; the results file then keeps the winner of every size, and the entry
# points pick by the call's size.
# OPTIONS are passed to the tuner as they are (e.g. --exhaustive, --profile NAME); run
# <target>_tune --help for the list.
include_guard(GLOBAL)

function(overlap_tune target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "RESULTS;SIZES" "ARGS;OPTIONS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "overlap_tune: unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "overlap_tune: '${target}' is not a target")
  endif()
  get_target_property(generated ${target} OVERLAP_GENERATED_SOURCES)
  get_target_property(generated_dir ${target} OVERLAP_GENERATED_DIR)
  if(NOT generated)
    message(FATAL_ERROR "overlap_tune(${target}): call overlap_add_kernels(${target} ...) first")
  endif()
  if(TARGET Overlap::tune_main)
    set(tune_main Overlap::tune_main)
  elseif(TARGET overlap_tune_main)
    set(tune_main overlap_tune_main)
  else()
    # An Overlap built without CUDA has no tuner: the project still builds, untuned.
    message(STATUS "overlap_tune(${target}): the tuner is not part of this Overlap installation; "
                   "no ${target}_tune target (tune from Overlap's source tree)")
    return()
  endif()

  # The same generated sources as the target: one generation, two executables.
  set(tuner ${target}_tune)
  add_executable(${tuner} ${generated})
  target_include_directories(${tuner} PRIVATE "${generated_dir}")
  get_target_property(includes ${target} INCLUDE_DIRECTORIES)
  if(includes)
    target_include_directories(${tuner} PRIVATE ${includes})
  endif()
  get_target_property(definitions ${target} COMPILE_DEFINITIONS)
  if(definitions)
    target_compile_definitions(${tuner} PRIVATE ${definitions})
  endif()
  target_link_libraries(${tuner} PRIVATE Overlap::templates ${tune_main})

  set(command $<TARGET_FILE:${tuner}> --output-dir "${CMAKE_BINARY_DIR}/overlap-tuning/${target}")
  foreach(argument IN LISTS ARG_ARGS)
    list(APPEND command --arg "${argument}")
  endforeach()
  if(ARG_SIZES)
    list(APPEND command --sweep "${ARG_SIZES}")
  endif()
  if(ARG_RESULTS)
    get_filename_component(results "${ARG_RESULTS}" ABSOLUTE)
    list(APPEND command --results-file "${results}")
  endif()
  add_custom_target(${target}_tuning
    COMMAND ${command} ${ARG_OPTIONS}
    DEPENDS ${tuner}
    COMMENT "Overlap: tuning the kernels of ${target} on the GPU"
    USES_TERMINAL VERBATIM)
endfunction()
