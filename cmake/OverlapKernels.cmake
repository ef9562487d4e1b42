# overlap_add_kernels(<target> SOURCES <file.cu>... [CLANG_ARGS <arg>...]
#                     [TUNING_RESULTS <results.json>])
#
# Runs overlap-gen on each annotated .cu file as a build step and adds the generated host code to
# <target>: for every annotated kernel K, K_explicit/K_mapped/K_streams/K_hybrid and K_descriptor,
# declared in "<file>.overlap.h" (on the target's include path). The generated .cu includes the
# annotated file, so the annotated file itself is not compiled on its own: if <target> lists it,
# it is marked HEADER_FILE_ONLY.
#
# The step re-runs when the file or anything it includes changes (DEPFILE). The target's include
# directories and compile definitions reach the generator; CLANG_ARGS adds more.
#
# Every kernel also gets an entry point K_tuned(...) that runs the variant overlap/Dispatch.h
# chooses: OVERLAP_VARIANT, else the TUNING_RESULTS entry of the current device for the call's
# size (the file overlap_tune() writes, kept in the source tree; overlap-bake turns it into a
# table at build time, again whenever it changes), else the model's prediction, else Explicit.
#
# Where the generated code comes from, in order:
#   OVERLAP_GENERATOR_EXECUTABLE  a prebuilt overlap-gen (a GPU node without Clang headers can
#                                 build everything else with one built elsewhere)
#   OVERLAP_PREGENERATED_DIR      files generated elsewhere: <dir>/<target>/<file>.overlap.{h,cu}
#                                 (scripts/pregenerate.sh makes them)
#   the overlap-gen target        built in-tree, or imported by find_package(Overlap)
include_guard(GLOBAL)

set(OVERLAP_GENERATOR_EXECUTABLE "" CACHE FILEPATH
    "Prebuilt overlap-gen to use instead of building the generator")
set(OVERLAP_PREGENERATED_DIR "" CACHE PATH
    "Directory with generated sources (<target>/<file>.overlap.{h,cu}) to use without a generator")

# The command that runs `tool` (overlap-gen or overlap-bake): a target name where the tool is
# built here or imported, so that as COMMAND and in DEPENDS it makes the step re-run when the tool
# is rebuilt; OVERLAP_GENERATOR_EXECUTABLE overrides the generator. Empty when there is none.
function(_overlap_tool_command out_var tool)
  if(tool STREQUAL "overlap-gen" AND OVERLAP_GENERATOR_EXECUTABLE)
    set(${out_var} "${OVERLAP_GENERATOR_EXECUTABLE}" PARENT_SCOPE)
  elseif(TARGET ${tool})
    set(${out_var} ${tool} PARENT_SCOPE)
  elseif(TARGET Overlap::${tool})
    set(${out_var} Overlap::${tool} PARENT_SCOPE)
  else()
    set(${out_var} "" PARENT_SCOPE)
  endif()
endfunction()

# Adds <out_dir>/overlap_tuning_results.cpp to <target>: the results file's winners as the table
# the entry points dispatch by, and the model's dispatch when the tuner's dispatch library is
# there. overlap-bake writes it at build time with the tuner's own reader (its errors name the file
# and the field), again whenever the results file changes. Without overlap-bake (an Overlap without
# its tuner) the table is empty.
function(_overlap_bake_tuning_results target out_dir results)
  set(output "${out_dir}/overlap_tuning_results.cpp")
  set(model_args)
  if(TARGET Overlap::tuner_dispatch)
    target_link_libraries(${target} PRIVATE Overlap::tuner_dispatch)
    set(model_args --model)
  endif()
  _overlap_tool_command(bake overlap-bake)
  if(NOT bake)
    if(results)
      message(WARNING "overlap_add_kernels(${target}): no overlap-bake in this Overlap, so "
                      "${results} is not baked in: the entry points use the model or Explicit")
    endif()
    file(CONFIGURE OUTPUT "${output}" CONTENT
"// Written by overlap_add_kernels(${target}): no overlap-bake, no tuning results.
#include \"overlap/Dispatch.h\"
" @ONLY)
    target_sources(${target} PRIVATE "${output}")
    return()
  endif()
  set(results_args)
  set(origin "overlap_add_kernels(${target}), no TUNING_RESULTS")
  set(depends "${bake}")
  if(results)
    get_filename_component(results "${results}" ABSOLUTE)
    set(results_args --results "${results}")
    set(origin "overlap_add_kernels(${target}) from ${results}")
    if(EXISTS "${results}")
      list(APPEND depends "${results}")
    else()
      # Its creation (the first overlap_tune) changes the directory: re-bake and re-configure
      # then, after which the file itself is the dependency.
      get_filename_component(results_dir "${results}" DIRECTORY)
      list(APPEND depends "${results_dir}")
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${results_dir}")
      message(STATUS "overlap_add_kernels(${target}): ${results} does not exist yet; the entry "
                     "points use the model until overlap_tune() writes it")
    endif()
  endif()
  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${bake}" --output "${output}" ${results_args} ${model_args}
            --origin "${origin}"
    DEPENDS ${depends}
    COMMENT "Overlap: baking the tuning results of ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE "${output}")
endfunction()

function(overlap_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "TUNING_RESULTS" "SOURCES;CLANG_ARGS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "overlap_add_kernels: unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "overlap_add_kernels(${target}): give the annotated files with SOURCES")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "overlap_add_kernels: '${target}' is not a target")
  endif()

  _overlap_tool_command(generator overlap-gen)
  if(OVERLAP_PREGENERATED_DIR AND NOT OVERLAP_GENERATOR_EXECUTABLE)
    set(generator "") # asked for explicitly: wins over a generator target that merely exists
  endif()
  if(NOT generator AND NOT OVERLAP_PREGENERATED_DIR)
    message(FATAL_ERROR
      "overlap_add_kernels(${target}): no overlap-gen. Install Clang 16-19 development files "
      "(apt-get install libclang-19-dev), or set OVERLAP_GENERATOR_EXECUTABLE to a prebuilt "
      "overlap-gen, or OVERLAP_PREGENERATED_DIR to generated sources.")
  endif()

  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/overlap_generated/${target}")
  file(MAKE_DIRECTORY "${out_dir}")
  get_target_property(target_sources ${target} SOURCES)
  set(generated_sources)

  # The user's flags, as the compiler sees them for this target (usage requirements included).
  # Quoted where used: the ";" inside the generator expressions must not split the command.
  # Empty entries (a dependency with empty INTERFACE_COMPILE_DEFINITIONS leaves some) would become
  # a bare "-D" that swallows the next argument.
  set(includes "$<FILTER:$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>,EXCLUDE,^$>")
  set(defines "$<FILTER:$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>,EXCLUDE,^$>")

  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(input "${source}" ABSOLUTE)
    get_filename_component(input_dir "${input}" DIRECTORY)
    get_filename_component(input_name "${input}" NAME)
    get_filename_component(base "${input}" NAME_WE)
    set(header "${out_dir}/${base}.overlap.h")
    set(generated "${out_dir}/${base}.overlap.cu")
    set(depfile "${out_dir}/${base}.overlap.d")

    if(generator)
      set(cuda_path_arg)
      if(CUDAToolkit_BIN_DIR)
        get_filename_component(cuda_root "${CUDAToolkit_BIN_DIR}" DIRECTORY)
        set(cuda_path_arg --cuda-path "${cuda_root}")
      endif()
      # The generated source first: Ninja reads the depfile (whose target is that source) as
      # the dependencies of the first output.
      add_custom_command(
        OUTPUT "${generated}" "${header}"
        COMMAND "${generator}" "${input}" --header "${header}" --source "${generated}"
                --depfile "${depfile}" --input-include "${input_name}"
                --header-include "${base}.overlap.h" ${cuda_path_arg} --
                "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>"
                "$<$<BOOL:${defines}>:-D$<JOIN:${defines},;-D>>" ${ARG_CLANG_ARGS}
        DEPENDS "${input}" "${generator}"
        DEPFILE "${depfile}"
        COMMENT "Overlap: generating host code for ${input_name}"
        COMMAND_EXPAND_LISTS VERBATIM)
    else()
      set(pregenerated "${OVERLAP_PREGENERATED_DIR}/${target}")
      foreach(file IN ITEMS "${base}.overlap.h" "${base}.overlap.cu")
        if(NOT EXISTS "${pregenerated}/${file}")
          message(FATAL_ERROR "overlap_add_kernels(${target}): OVERLAP_PREGENERATED_DIR has no "
                              "${target}/${file}; regenerate it where overlap-gen is built")
        endif()
      endforeach()
      add_custom_command(
        OUTPUT "${header}" "${generated}"
        COMMAND ${CMAKE_COMMAND} -E copy_if_different "${pregenerated}/${base}.overlap.h"
                "${pregenerated}/${base}.overlap.cu" "${out_dir}"
        DEPENDS "${pregenerated}/${base}.overlap.h" "${pregenerated}/${base}.overlap.cu"
        COMMENT "Overlap: using pregenerated host code for ${input_name}"
        VERBATIM)
    endif()

    # The generated source includes the annotated file by name, and the generated header the
    # headers that declare the kernel file's parameter types, as the kernel file names them.
    set_property(SOURCE "${generated}" APPEND PROPERTY INCLUDE_DIRECTORIES "${input_dir}")
    target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${input_dir}>")
    set_source_files_properties("${generated}" PROPERTIES LANGUAGE CUDA)
    target_sources(${target} PRIVATE "${generated}" "${header}")
    list(APPEND generated_sources "${generated}")
    if(input IN_LIST target_sources OR source IN_LIST target_sources)
      set_source_files_properties("${source}" TARGET_DIRECTORY ${target}
                                  PROPERTIES HEADER_FILE_ONLY ON)
    endif()
  endforeach()

  target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${out_dir}>")
  _overlap_bake_tuning_results(${target} "${out_dir}" "${ARG_TUNING_RESULTS}")
  # For overlap_tune(), which builds a tuning executable from the same generated sources.
  set_property(TARGET ${target} APPEND PROPERTY OVERLAP_GENERATED_SOURCES ${generated_sources})
  set_property(TARGET ${target} PROPERTY OVERLAP_GENERATED_DIR "${out_dir}")
  if(TARGET Overlap::templates)
    target_link_libraries(${target} PUBLIC Overlap::templates)
  else()
    message(FATAL_ERROR "overlap_add_kernels: the Overlap::templates target is missing; "
                        "find_package(Overlap) or add Overlap's source tree first")
  endif()
endfunction()
