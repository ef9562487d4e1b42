// Filling in the parameters a profile does not know, and saying so.
#include "model/profile_completion.h"

#include "model_test_profiles.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace overlap::model {
namespace {

bool mentions(const std::vector<std::string>& assumptions, const std::string& text) {
  return std::any_of(assumptions.begin(), assumptions.end(), [&](const std::string& assumption) {
    return assumption.find(text) != std::string::npos;
  });
}

TEST(ProfileCompletion, CompleteProfileNeedsNoAssumption) {
  HardwareProfile profile = testing::h100_like();
  profile.stream_sync_s = 1e-6;
  const CompletedProfile completed = complete_profile(profile);
  EXPECT_TRUE(completed.assumptions.empty());
  EXPECT_EQ(completed.profile.host_to_device.seconds_per_byte,
            profile.host_to_device.seconds_per_byte);
}

TEST(ProfileCompletion, TeslaK20FromTableTwoUsesTheBidirectionalG) {
  // Paper 001 publishes only the K20's G with both directions busy and with mapped traffic the
  // other way (Table II, converted from ms/B).
  HardwareProfile k20;
  k20.name = "tesla-k20-pcie2";
  k20.copy_engines = 2;
  k20.host_to_device.bidirectional_seconds_per_byte = 1.741965e-10;
  k20.device_to_host.bidirectional_seconds_per_byte = 1.747120e-10;
  k20.host_to_device.with_mapped_seconds_per_byte = 2.491988e-10;
  k20.device_to_host.with_mapped_seconds_per_byte = 2.236644e-10;
  const CompletedProfile completed = complete_profile(k20);
  EXPECT_DOUBLE_EQ(completed.profile.host_to_device.seconds_per_byte, 1.741965e-10);
  EXPECT_DOUBLE_EQ(completed.profile.device_to_host.seconds_per_byte, 1.747120e-10);
  EXPECT_DOUBLE_EQ(completed.profile.mapped_read_seconds_per_byte, 1.741965e-10);
  EXPECT_DOUBLE_EQ(completed.profile.mapped_write_seconds_per_byte, 1.747120e-10);
  EXPECT_TRUE(mentions(completed.assumptions, "host to device: one-way G unknown"));
  EXPECT_TRUE(mentions(completed.assumptions, "device to host: L+o unknown"));
  EXPECT_TRUE(mentions(completed.assumptions, "mapped reads: G unknown"));
  EXPECT_FALSE(mentions(completed.assumptions, "mapped traffic the other way"));
  EXPECT_DOUBLE_EQ(completed.profile.host_to_device.with_mapped_seconds_per_byte, 2.491988e-10);
}

TEST(ProfileCompletion, UnknownExplicitMappedGTakesTheBidirectionalG) {
  HardwareProfile profile = testing::h100_like();
  profile.host_to_device.with_mapped_seconds_per_byte = 0;
  const CompletedProfile completed = complete_profile(profile);
  EXPECT_DOUBLE_EQ(completed.profile.host_to_device.with_mapped_seconds_per_byte, 1 / 46.5e9);
  EXPECT_TRUE(mentions(completed.assumptions, "host to device: G against mapped traffic"));
}

TEST(ProfileCompletion, TitanHasNoBidirectionalGAndNeedsNone) {
  // One copy engine: explicit copies never run both ways, so no bidirectional G is missing.
  const CompletedProfile completed = complete_profile(testing::table1_gtx_titan());
  EXPECT_FALSE(mentions(completed.assumptions, "bidirectional"));
  EXPECT_TRUE(mentions(completed.assumptions, "per-stream overhead"));
}

TEST(ProfileCompletion, NothingKnownIsSaidPlainly) {
  const CompletedProfile completed = complete_profile(HardwareProfile{});
  EXPECT_TRUE(mentions(completed.assumptions, "predicted as free"));
  EXPECT_TRUE(mentions(completed.assumptions, "multiprocessor count unknown"));
}

} // namespace
} // namespace overlap::model
