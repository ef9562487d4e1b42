# Sources of overlap_runtime. One line per file; several people add here.
set(OVERLAP_RUNTIME_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/src/descriptor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/device.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/device_context.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/device_memory_cache.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/device_nvml.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/dispatch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/host_array_pinning.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/host_memory_kind.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/host_registration.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/nvtx_range.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/pinned_buffer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/status.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/stream_event_pool.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/timing.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/transfer_plan.cpp
)
