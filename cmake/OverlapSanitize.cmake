# OVERLAP_SANITIZE=address,undefined builds the host code of every target (C++ sources, and the
# host side of CUDA sources through -Xcompiler) with those sanitizers, for the CI pass that runs
# the host-side tests once more under them (scripts/run-tests.sh, OVERLAP_SANITIZE_PASS).
# Device code is not instrumented: compute-sanitizer covers it on the GPU (scripts/gpu-check.sh).
set(OVERLAP_SANITIZE "" CACHE STRING
    "Sanitizers for host code, as -fsanitize= takes them (e.g. address,undefined); empty: none")

if(OVERLAP_SANITIZE)
  # One -fsanitize= per sanitizer: nvcc splits -Xcompiler values at commas.
  string(REPLACE "," ";" overlap_sanitizers "${OVERLAP_SANITIZE}")
  set(overlap_sanitize_flags)
  foreach(sanitizer IN LISTS overlap_sanitizers)
    list(APPEND overlap_sanitize_flags -fsanitize=${sanitizer})
  endforeach()
  # Every finding stops the test that made it, so a CI pass cannot scroll past one.
  list(APPEND overlap_sanitize_flags -fno-sanitize-recover=all -fno-omit-frame-pointer)
  if(OVERLAP_SANITIZE MATCHES "undefined")
    # UBSan's vptr check needs RTTI, which the Clang libraries (and so the frontend) are built
    # without; every other undefined-behaviour check stays on.
    list(APPEND overlap_sanitize_flags -fno-sanitize=vptr)
  endif()
  foreach(flag IN LISTS overlap_sanitize_flags)
    add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${flag}>" "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${flag}>")
  endforeach()
  add_link_options(${overlap_sanitize_flags})
  message(STATUS "Overlap: host code built with -fsanitize=${OVERLAP_SANITIZE}")
endif()
