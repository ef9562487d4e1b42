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
# Every kernel also gets an entry point K_tuned(...) that runs the variant overlap/dispatch.h
# chooses: OVERLAP_VARIANT, else the TUNING_RESULTS entry of the current device (the file
# overlap_tune() writes, kept in the source tree; baked in when CMake configures, and CMake
# re-configures when it changes), else the model's prediction, else Explicit.
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

# A target name as COMMAND and in DEPENDS makes the step re-run when the generator is rebuilt.
function(_overlap_generator_command out_var)
  if(OVERLAP_GENERATOR_EXECUTABLE)
    set(${out_var} "${OVERLAP_GENERATOR_EXECUTABLE}" PARENT_SCOPE)
  elseif(TARGET overlap-gen)
    set(${out_var} overlap-gen PARENT_SCOPE)
  elseif(TARGET Overlap::overlap-gen)
    set(${out_var} Overlap::overlap-gen PARENT_SCOPE)
  else()
    set(${out_var} "" PARENT_SCOPE)
  endif()
endfunction()

# "NVIDIA H200" -> a C++ string literal body with quotes and backslashes escaped.
function(_overlap_cxx_string out_var text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  set(${out_var} "\"${text}\"" PARENT_SCOPE)
endfunction()

# Writes <out_dir>/overlap_tuning_results.cpp: the results file's choices as a table registered
# with the dispatch, and the model's chooser when the tuner's dispatch library is there.
function(_overlap_bake_tuning_results target out_dir results)
  set(entries "")
  set(count 0)
  if(results)
    get_filename_component(results "${results}" ABSOLUTE)
    if(EXISTS "${results}")
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${results}")
      file(READ "${results}" text)
      string(JSON schema ERROR_VARIABLE problem GET "${text}" schema)
      if(problem OR NOT schema STREQUAL "overlap-tuning-results")
        message(FATAL_ERROR "overlap_add_kernels(${target}): ${results} is not a tuning-results "
                            "file (${problem})")
      endif()
      string(JSON length ERROR_VARIABLE problem LENGTH "${text}" entries)
      if(problem)
        message(FATAL_ERROR "${results}: entries: ${problem}")
      endif()
      if(length GREATER 0)
        math(EXPR last "${length} - 1")
        foreach(i RANGE ${last})
          # Each field checked here, naming it, since a bad value would otherwise surface as a
          # compile error in the generated table or as CMake's own JSON message.
          # streams and order may be left out, as the tuner's own reader allows (1, depth-first).
          set(streams 1)
          set(order depth-first)
          foreach(field kernel device variant streams order)
            string(JSON value ERROR_VARIABLE problem GET "${text}" entries ${i} ${field})
            if(NOT problem)
              set(${field} "${value}")
            elseif(NOT (field MATCHES "^(streams|order)$" AND problem MATCHES "not found"))
              message(FATAL_ERROR "${results}: entries[${i}].${field}: ${problem}")
            endif()
          endforeach()
          if(NOT variant MATCHES "^(Explicit|Mapped|Streams|Hybrid)$")
            message(FATAL_ERROR "${results}: entries[${i}].variant: unknown variant '${variant}'")
          endif()
          if(NOT streams MATCHES "^[0-9]+$" OR streams LESS 1)
            message(FATAL_ERROR "${results}: entries[${i}].streams: '${streams}' is not a "
                                "stream count (an integer >= 1)")
          endif()
          if(NOT order MATCHES "^(depth-first|breadth-first)$")
            message(FATAL_ERROR "${results}: entries[${i}].order: '${order}' is not depth-first "
                                "or breadth-first")
          endif()
          set(order_value DepthFirst)
          if(order STREQUAL "breadth-first")
            set(order_value BreadthFirst)
          endif()
          _overlap_cxx_string(kernel_literal "${kernel}")
          _overlap_cxx_string(device_literal "${device}")
          string(APPEND entries "    {${kernel_literal}, ${device_literal}, "
                 "overlap::Variant::${variant}, ${streams}, overlap::IssueOrder::${order_value}},\n")
          math(EXPR count "${count} + 1")
        endforeach()
      endif()
    else()
      message(STATUS "overlap_add_kernels(${target}): ${results} does not exist yet; the entry "
                     "points use the model until overlap_tune() writes it and CMake re-runs")
    endif()
  endif()
  set(model_chooser "")
  if(TARGET Overlap::tuner_dispatch)
    target_link_libraries(${target} PRIVATE Overlap::tuner_dispatch)
    set(model_chooser "namespace overlap::tune {\nbool choose_by_model(const KernelDescriptor&, ArgPointers, const std::string&, RunConfig*, std::string*);\n}\n")
    set(register_model "overlap::set_model_chooser(&overlap::tune::choose_by_model)")
  else()
    set(register_model "true")
  endif()
  if(count EQUAL 0)
    set(table "const overlap::BakedChoice* const choices = nullptr;\n")
  else()
    set(table "const overlap::BakedChoice choices[] = {\n${entries}};\n")
  endif()
  file(CONFIGURE OUTPUT "${out_dir}/overlap_tuning_results.cpp" CONTENT
"// Generated by overlap_add_kernels(${target}) from ${results}. Do not edit: re-tune instead.
#include \"overlap/dispatch.h\"

#include <string>

${model_chooser}namespace {
${table}const bool registered = overlap::register_baked_choices(choices, ${count}) && ${register_model};
} // namespace
" @ONLY)
  target_sources(${target} PRIVATE "${out_dir}/overlap_tuning_results.cpp")
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

  _overlap_generator_command(generator)
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
