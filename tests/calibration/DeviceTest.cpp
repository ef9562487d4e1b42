#include "overlap/Device.h"

#include "GpuTestSupport.h"

#include <gtest/gtest.h>

namespace overlap {
namespace {

TEST(DeviceCategory, FollowsPaper001SectionIV) {
  // Fermi GTX 480 (2.0, 1 engine) and Tesla C2050 (2.0, 2 engines): implicit synchronization.
  EXPECT_EQ(categorizeDevice(2, 0, 1), DeviceCategory::ImplicitSynchronization);
  EXPECT_EQ(categorizeDevice(2, 0, 2), DeviceCategory::ImplicitSynchronization);
  // Kepler GTX 680 (3.0): still below 3.5.
  EXPECT_EQ(categorizeDevice(3, 0, 1), DeviceCategory::ImplicitSynchronization);
  // GTX Titan (3.5, 1 engine) and Tesla K20 (3.5, 2 engines).
  EXPECT_EQ(categorizeDevice(3, 5, 1), DeviceCategory::OneCopyEngine);
  EXPECT_EQ(categorizeDevice(3, 5, 2), DeviceCategory::TwoCopyEngines);
  // Hopper reports more than two copy engines: category 3.
  EXPECT_EQ(categorizeDevice(9, 0, 3), DeviceCategory::TwoCopyEngines);
  EXPECT_EQ(categorizeDevice(9, 0, 0), DeviceCategory::NoConcurrentCopy);
  EXPECT_TRUE(hasImplicitSynchronization(3, 0));
  EXPECT_FALSE(hasImplicitSynchronization(3, 5));
  EXPECT_FALSE(hasImplicitSynchronization(10, 0));
  EXPECT_NE(std::string(describe(DeviceCategory::OneCopyEngine)).find("category 2"),
            std::string::npos);
}

TEST(PcieLink, DescribesTheMaximumOrUnknown) {
  PcieLink link;
  EXPECT_FALSE(link.known());
  EXPECT_EQ(link.describe(), "unknown");
  link.generation = 1; // an idle link may train down
  link.width = 16;
  link.maxGeneration = 5;
  link.maxWidth = 16;
  EXPECT_TRUE(link.known());
  EXPECT_EQ(link.describe(), "Gen5 x16");
}

TEST(DescribeDevice, ReadsTheCurrentGpu) {
  OVERLAP_SKIP_WITHOUT_GPU();
  DeviceDescription d;
  OVERLAP_ASSERT_OK(describeDevice(0, &d));
  cudaDeviceProp properties{};
  ASSERT_EQ(cudaGetDeviceProperties(&properties, 0), cudaSuccess);
  EXPECT_EQ(d.name, properties.name);
  EXPECT_EQ(d.computeCapabilityMajor, properties.major);
  EXPECT_EQ(d.copyEngines, properties.asyncEngineCount);
  EXPECT_EQ(d.multiprocessors, properties.multiProcessorCount);
  EXPECT_EQ(d.category(),
            categorizeDevice(properties.major, properties.minor, properties.asyncEngineCount));
  EXPECT_GT(d.cudaDriverVersion, 0);
  EXPECT_FALSE(d.pciBusId.empty());
  // NVML is optional: either it was read or the reason it was not is given.
  EXPECT_TRUE(d.pcie.known() || !d.nvmlProblem.empty()) << toText(d);
  EXPECT_TRUE(d.driverVersion != "unknown" || !d.nvmlProblem.empty()) << toText(d);
  const std::string text = toText(d);
  EXPECT_NE(text.find(d.name), std::string::npos);
  EXPECT_NE(text.find("paper 001 category"), std::string::npos);
  std::cout << text; // what this machine is, in the test log
}

TEST(CurrentDeviceName, IsTheCurrentGpusNameOrEmptyWithoutOne) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    EXPECT_EQ(currentDeviceName(), "");
    return;
  }
  int device = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  cudaDeviceProp properties{};
  ASSERT_EQ(cudaGetDeviceProperties(&properties, device), cudaSuccess);
  EXPECT_EQ(currentDeviceName(), properties.name);
}

TEST(DescribeDevice, ReportsAnInvalidOrdinal) {
  OVERLAP_SKIP_WITHOUT_GPU();
  DeviceDescription d;
  const Status status = describeDevice(1 << 20, &d);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(std::string(status.call).find("cudaGetDeviceProperties"), std::string::npos);
}

} // namespace
} // namespace overlap
