# Every variant of every example, through the generated code (included from tests/gpu), and in
# every PageableMode on pageable, user-registered and pinned memory, and out of core.
add_executable(overlap_example_gpu_tests ${CMAKE_CURRENT_LIST_DIR}/ExamplesGpuTest.cpp
                                         ${CMAKE_CURRENT_LIST_DIR}/OutOfCoreExamplesTest.cpp
                                         ${CMAKE_CURRENT_LIST_DIR}/PageableExamplesTest.cpp
                                         ${CMAKE_CURRENT_LIST_DIR}/AsyncExamplesTest.cpp
                                         ${CMAKE_CURRENT_LIST_DIR}/GraphExamplesTest.cpp
                                         ${CMAKE_CURRENT_LIST_DIR}/MultiGpuExamplesTest.cpp)
target_link_libraries(overlap_example_gpu_tests PRIVATE overlap_gpu_test_support GTest::gtest_main)
overlap_add_kernels(overlap_example_gpu_tests SOURCES
  ${PROJECT_SOURCE_DIR}/examples/saxpy/saxpy.cu
  ${PROJECT_SOURCE_DIR}/examples/matmul/matmul.cu
  ${PROJECT_SOURCE_DIR}/examples/buoydiff/buoydiff.cu)
gtest_discover_tests(overlap_example_gpu_tests DISCOVERY_TIMEOUT 60 PROPERTIES LABELS gpu)
