// Filling in the parameters a profile does not know, and saying so.
#include "model/ProfileCompletion.h"

#include "ModelTestProfiles.h"

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
  HardwareProfile profile = testing::h100Like();
  profile.streamSyncS = 1e-6;
  const CompletedProfile completed = completeProfile(profile);
  EXPECT_TRUE(completed.assumptions.empty());
  EXPECT_EQ(completed.profile.hostToDevice.secondsPerByte, profile.hostToDevice.secondsPerByte);
}

TEST(ProfileCompletion, TeslaK20FromTableTwoUsesTheBidirectionalG) {
  // Paper 001 publishes only the K20's G with both directions busy and with mapped traffic the
  // other way (Table II, converted from ms/B).
  HardwareProfile k20;
  k20.name = "tesla-k20-pcie2";
  k20.copyEngines = 2;
  k20.hostToDevice.bidirectionalSecondsPerByte = 1.741965e-10;
  k20.deviceToHost.bidirectionalSecondsPerByte = 1.747120e-10;
  k20.hostToDevice.withMappedSecondsPerByte = 2.491988e-10;
  k20.deviceToHost.withMappedSecondsPerByte = 2.236644e-10;
  const CompletedProfile completed = completeProfile(k20);
  EXPECT_DOUBLE_EQ(completed.profile.hostToDevice.secondsPerByte, 1.741965e-10);
  EXPECT_DOUBLE_EQ(completed.profile.deviceToHost.secondsPerByte, 1.747120e-10);
  EXPECT_DOUBLE_EQ(completed.profile.mappedReadSecondsPerByte, 1.741965e-10);
  EXPECT_DOUBLE_EQ(completed.profile.mappedWriteSecondsPerByte, 1.747120e-10);
  EXPECT_TRUE(mentions(completed.assumptions, "host to device: one-way G unknown"));
  EXPECT_TRUE(mentions(completed.assumptions, "device to host: L+o unknown"));
  EXPECT_TRUE(mentions(completed.assumptions, "mapped reads: G unknown"));
  EXPECT_FALSE(mentions(completed.assumptions, "mapped traffic the other way"));
  EXPECT_DOUBLE_EQ(completed.profile.hostToDevice.withMappedSecondsPerByte, 2.491988e-10);
}

TEST(ProfileCompletion, UnknownExplicitMappedGTakesTheBidirectionalG) {
  HardwareProfile profile = testing::h100Like();
  profile.hostToDevice.withMappedSecondsPerByte = 0;
  const CompletedProfile completed = completeProfile(profile);
  EXPECT_DOUBLE_EQ(completed.profile.hostToDevice.withMappedSecondsPerByte, 1 / 46.5e9);
  EXPECT_TRUE(mentions(completed.assumptions, "host to device: G against mapped traffic"));
}

TEST(ProfileCompletion, TitanHasNoBidirectionalGAndNeedsNone) {
  // One copy engine: explicit copies never run both ways, so no bidirectional G is missing.
  const CompletedProfile completed = completeProfile(testing::table1GtxTitan());
  EXPECT_FALSE(mentions(completed.assumptions, "bidirectional"));
  EXPECT_TRUE(mentions(completed.assumptions, "per-stream overhead"));
}

TEST(ProfileCompletion, NothingKnownIsSaidPlainly) {
  const CompletedProfile completed = completeProfile(HardwareProfile{});
  EXPECT_TRUE(mentions(completed.assumptions, "predicted as free"));
  EXPECT_TRUE(mentions(completed.assumptions, "multiprocessor count unknown"));
}

} // namespace
} // namespace overlap::model
