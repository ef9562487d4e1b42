#include "overlap/Status.h"

#include <gtest/gtest.h>

namespace {

overlap::Status failsWithOutOfMemory() {
  OVERLAP_CUDA_TRY(cudaErrorMemoryAllocation);
  return overlap::Status::success();
}

overlap::Status passesTheFailureOn() {
  OVERLAP_TRY(failsWithOutOfMemory());
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
  const overlap::Status status = passesTheFailureOn();
  EXPECT_EQ(status.code, cudaErrorMemoryAllocation);
  ASSERT_NE(status.call, nullptr);
  EXPECT_STREQ(status.call, "cudaErrorMemoryAllocation");
  EXPECT_NE(std::string(status.file).find("StatusTest.cpp"), std::string::npos);
  EXPECT_GT(status.line, 0);
}

TEST(Status, KeepFirstKeepsTheFirstFailure) {
  overlap::Status first;
  overlap::keepFirst(first, overlap::Status::success());
  EXPECT_TRUE(first.ok());
  overlap::keepFirst(first, overlap::Status{cudaErrorInvalidValue, "first", nullptr, 0});
  overlap::keepFirst(first, overlap::Status{cudaErrorUnknown, "second", nullptr, 0});
  EXPECT_EQ(first.code, cudaErrorInvalidValue);
  EXPECT_STREQ(first.call, "first");
}

} // namespace
