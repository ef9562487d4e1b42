#include "overlap/status.h"

#include <gtest/gtest.h>

namespace {

overlap::Status fails_with_out_of_memory() {
  OVERLAP_CUDA_TRY(cudaErrorMemoryAllocation);
  return overlap::Status::success();
}

overlap::Status passes_the_failure_on() {
  OVERLAP_TRY(fails_with_out_of_memory());
  return overlap::Status{cudaErrorUnknown, "never reached", __FILE__, __LINE__};
}

TEST(Status, SuccessSaysSo) {
  const overlap::Status status = overlap::Status::success();
  EXPECT_TRUE(status.ok());
  EXPECT_EQ(status.message(), "success");
}

TEST(Status, MessageNamesCallPlaceAndError) {
  const overlap::Status status{cudaErrorMemoryAllocation, "cudaMalloc(&p, bytes)", "file.cu", 12};
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "cudaMalloc(&p, bytes) failed at file.cu:12: out of memory "
                              "(cudaErrorMemoryAllocation)");
}

TEST(Status, MessageWithoutCallOrFileStillNamesTheError) {
  const overlap::Status status{cudaErrorInvalidValue, nullptr, nullptr, 0};
  const std::string message = status.message();
  EXPECT_NE(message.find("CUDA call failed"), std::string::npos) << message;
  EXPECT_NE(message.find("cudaErrorInvalidValue"), std::string::npos) << message;
  EXPECT_EQ(message.find(" at "), std::string::npos) << message;
}

TEST(Status, TryMacrosReturnTheFailingCallsText) {
  const overlap::Status status = passes_the_failure_on();
  EXPECT_EQ(status.code, cudaErrorMemoryAllocation);
  ASSERT_NE(status.call, nullptr);
  EXPECT_STREQ(status.call, "cudaErrorMemoryAllocation");
  EXPECT_NE(std::string(status.file).find("status_test.cpp"), std::string::npos);
  EXPECT_GT(status.line, 0);
}

TEST(Status, KeepFirstKeepsTheFirstFailure) {
  overlap::Status first;
  overlap::keep_first(first, overlap::Status::success());
  EXPECT_TRUE(first.ok());
  overlap::keep_first(first, overlap::Status{cudaErrorInvalidValue, "first", nullptr, 0});
  overlap::keep_first(first, overlap::Status{cudaErrorUnknown, "second", nullptr, 0});
  EXPECT_EQ(first.code, cudaErrorInvalidValue);
  EXPECT_STREQ(first.call, "first");
}

} // namespace
