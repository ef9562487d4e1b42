# Finds a Clang development package (LibTooling) for the generator.
#
# Tries the versions in OVERLAP_CLANG_VERSIONS (newest first) under /usr/lib/llvm-<N>/lib/cmake/clang,
# unless Clang_DIR names a package explicitly (then only that one). Sets:
#   OVERLAP_CLANG_FOUND        ON when a usable package was found
#   OVERLAP_CLANG_VERSION      its full version, e.g. 19.1.7
#   OVERLAP_CLANG_RESOURCE_DIR the builtin headers the generator parses CUDA with (the CUDA
#                              wrapper headers live there, and clang does not find them by itself
#                              from a LibTooling executable installed elsewhere)
# and an INTERFACE target overlap_clang_libs carrying includes, definitions and libraries.
# Prefers the shared clang-cpp and LLVM libraries: linking the static component libraries costs
# minutes and gigabytes per executable.

set(OVERLAP_CLANG_FOUND OFF)
set(OVERLAP_CLANG_VERSION "")
set(OVERLAP_CLANG_RESOURCE_DIR "")

# A Clang_DIR given by the user (or found by an earlier configure) is the only candidate: importing
# a second package's targets after a rejected one would clash with the targets already imported.
function(_overlap_clang_candidate_dirs out)
  if(Clang_DIR)
    set(${out} "${Clang_DIR}" PARENT_SCOPE)
    return()
  endif()
  set(dirs)
  foreach(version IN LISTS OVERLAP_CLANG_VERSIONS)
    list(APPEND dirs "/usr/lib/llvm-${version}/lib/cmake/clang")
  endforeach()
  set(${out} "${dirs}" PARENT_SCOPE)
endfunction()

_overlap_clang_candidate_dirs(_overlap_clang_dirs)
string(REPLACE ";" ", " _overlap_clang_wanted "${OVERLAP_CLANG_VERSIONS}")
set(_overlap_clang_rejected "")
foreach(_overlap_clang_dir IN LISTS _overlap_clang_dirs)
  # ClangConfig.cmake calls find_package(LLVM ... REQUIRED): check that LLVM is there first, so a
  # broken or partial install is skipped instead of failing the configure.
  if(NOT EXISTS "${_overlap_clang_dir}/ClangConfig.cmake")
    list(APPEND _overlap_clang_rejected "${_overlap_clang_dir}: no ClangConfig.cmake")
    continue()
  endif()
  if(NOT EXISTS "${_overlap_clang_dir}/../llvm/LLVMConfig.cmake")
    list(APPEND _overlap_clang_rejected "${_overlap_clang_dir}: no matching LLVMConfig.cmake")
    continue()
  endif()
  # ClangTargets.cmake stops the configure when a library it lists is missing, as it is where only
  # the compiler and not the development package (libclang-<N>-dev) is installed.
  get_filename_component(_overlap_clang_prefix "${_overlap_clang_dir}/../../.." ABSOLUTE)
  if(NOT EXISTS "${_overlap_clang_prefix}/lib/libclangTooling.a" OR
     NOT EXISTS "${_overlap_clang_prefix}/include/clang/Tooling/Tooling.h")
    list(APPEND _overlap_clang_rejected
         "${_overlap_clang_dir}: no LibTooling library or headers (install libclang-<N>-dev)")
    continue()
  endif()
  unset(Clang_DIR CACHE)
  unset(LLVM_DIR CACHE)
  find_package(Clang CONFIG QUIET PATHS "${_overlap_clang_dir}" NO_DEFAULT_PATH)
  if(NOT Clang_FOUND)
    list(APPEND _overlap_clang_rejected "${_overlap_clang_dir}: find_package(Clang) failed")
    continue()
  endif()
  # From here on the package's targets are imported: a rejected package ends the search, since
  # another one would silently reuse these targets.
  if(NOT LLVM_VERSION_MAJOR IN_LIST OVERLAP_CLANG_VERSIONS)
    list(APPEND _overlap_clang_rejected
         "${_overlap_clang_dir}: version ${LLVM_VERSION} is not one of ${_overlap_clang_wanted}")
    break()
  endif()
  set(_overlap_resource_dir "${LLVM_LIBRARY_DIR}/clang/${LLVM_VERSION_MAJOR}")
  if(NOT EXISTS "${_overlap_resource_dir}/include/__clang_cuda_runtime_wrapper.h")
    list(APPEND _overlap_clang_rejected
         "${_overlap_clang_dir}: no CUDA wrapper headers in ${_overlap_resource_dir}/include "
         "(install the clang-${LLVM_VERSION_MAJOR} or libclang-common-${LLVM_VERSION_MAJOR}-dev package)")
    break()
  endif()
  set(Clang_DIR "${_overlap_clang_dir}" CACHE PATH "The Clang package of the generator" FORCE)
  set(OVERLAP_CLANG_FOUND ON)
  set(OVERLAP_CLANG_VERSION "${LLVM_VERSION}")
  set(OVERLAP_CLANG_RESOURCE_DIR "${_overlap_resource_dir}")
  break()
endforeach()

if(NOT OVERLAP_CLANG_FOUND)
  string(REPLACE ";" "\n    " _overlap_clang_why "${_overlap_clang_rejected}")
  message(STATUS "Overlap: no usable Clang (${_overlap_clang_wanted}); the generator (overlap-gen) "
                 "is not built. Set Clang_DIR to a <prefix>/lib/cmake/clang to pick one. Tried:\n"
                 "    ${_overlap_clang_why}")
  return()
endif()

if(TARGET clang-cpp)
  set(_overlap_clang_link clang-cpp)
else()
  set(_overlap_clang_link clangTooling clangFrontend clangDriver clangSerialization clangParse
                          clangSema clangAnalysis clangEdit clangAST clangLex clangBasic)
endif()
if(LLVM_LINK_LLVM_DYLIB AND TARGET LLVM)
  list(APPEND _overlap_clang_link LLVM)
else()
  llvm_map_components_to_libnames(_overlap_llvm_libs support option frontendopenmp targetparser)
  list(APPEND _overlap_clang_link ${_overlap_llvm_libs})
endif()

if(NOT TARGET overlap_clang_libs)
  add_library(overlap_clang_libs INTERFACE)
  target_include_directories(overlap_clang_libs SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS}
                                                                 ${CLANG_INCLUDE_DIRS})
  separate_arguments(_overlap_llvm_definitions NATIVE_COMMAND "${LLVM_DEFINITIONS}")
  target_compile_options(overlap_clang_libs INTERFACE ${_overlap_llvm_definitions})
  # GCC's flow-based -Wnonnull fires inside Clang's own headers (LazyOffsetPtr::get, inlined into
  # RecursiveASTVisitor), which SYSTEM does not silence once inlined into our code.
  target_compile_options(overlap_clang_libs INTERFACE $<$<CXX_COMPILER_ID:GNU>:-Wno-nonnull>)
  if(NOT LLVM_ENABLE_RTTI)
    # Classes derived from Clang's (ASTConsumer, FrontendAction, ...) need the same RTTI setting.
    target_compile_options(overlap_clang_libs INTERFACE -fno-rtti)
  endif()
  target_link_libraries(overlap_clang_libs INTERFACE ${_overlap_clang_link})
endif()

message(STATUS "Overlap: Clang ${OVERLAP_CLANG_VERSION} for the generator (${Clang_DIR}), "
               "resource dir ${OVERLAP_CLANG_RESOURCE_DIR}, linking ${_overlap_clang_link}")
