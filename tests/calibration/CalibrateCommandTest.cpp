// What overlap-calibrate does without a GPU: writing (or refusing) a profile, through the same
// entry point as the tool.
#include "CalibrateCommand.h"
#include "Synthetic.h"

#include "overlap/ProfileIo.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

namespace overlap::calibration {
namespace {

namespace fs = std::filesystem;

class CalibrateCommand : public ::testing::Test {
protected:
  void SetUp() override {
    directory_ = fs::temp_directory_path() /
                 ("overlap_calibrate_command_" +
                  std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(directory_);
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }

  int run(const CalibrateOptions& options) {
    out_.str("");
    log_.str("");
    return runCalibrateCommand(options, out_, log_);
  }

  fs::path directory_;
  std::ostringstream out_;
  std::ostringstream log_;
};

// What a calibration writes, from synthetic measurements: no GPU needed.
ProfileEstimate syntheticEstimate(CalibrationMeasurements m) {
  ProfileEstimate estimate = estimateProfile(m);
  estimate.profile.deviceName = "Synthetic GPU";
  estimate.profile.pcie = "Gen3 x16";
  return estimate;
}

TEST_F(CalibrateCommand, WritesTheFittedProfile) {
  test::BoundedNoise noise(0.0002);
  SCOPED_TRACE(noise.trace());
  ProfileEstimate estimate = syntheticEstimate(test::syntheticMeasurements(5, noise));
  CalibrateOptions options;
  options.output = (directory_ / "profiles" / "synthetic.json").string();
  ASSERT_EQ(writeProfile(options, estimate, out_, log_), 0) << log_.str();
  HardwareProfile written;
  const ProfileError error = readProfileFile(options.output, &written);
  ASSERT_TRUE(error.ok()) << error.message();
  EXPECT_EQ(written.name, "synthetic-gpu-gen3-x16") << "named after the device and link";
  EXPECT_EQ(written.deviceName, "Synthetic GPU");
  EXPECT_NEAR(written.hostToDevice.secondsPerByte, 8.318392e-11, 8.318392e-11 * 0.001);
  EXPECT_NE(out_.str().find("host_to_device.seconds_per_byte"), std::string::npos) << out_.str();
}

TEST_F(CalibrateCommand, PoorFitWritesNothingUnlessForced) {
  test::BoundedNoise noise(0.0002);
  SCOPED_TRACE(noise.trace());
  CalibrationMeasurements m = test::syntheticMeasurements(5, noise);
  for (std::vector<double>& repeats : m.hostToDevice.sizes.seconds)
    repeats[0] *= 3; // one repeat three times too slow at every size: the medians stay good
  for (double& t : m.hostToDevice.sizes.seconds.back())
    t *= 1.2; // the largest size 20 % slow: a bent line
  CalibrateOptions options;
  options.name = "bent";
  options.output = (directory_ / "bent.json").string();
  ProfileEstimate estimate = syntheticEstimate(m);
  EXPECT_EQ(writeProfile(options, estimate, out_, log_), 2);
  EXPECT_FALSE(fs::exists(options.output));
  EXPECT_NE(log_.str().find("host_to_device.seconds_per_byte (G over sizes"), std::string::npos)
      << log_.str();
  EXPECT_NE(log_.str().find("no profile written"), std::string::npos) << log_.str();

  options.force = true;
  ASSERT_EQ(writeProfile(options, estimate, out_, log_), 0) << log_.str();
  HardwareProfile forced;
  ASSERT_TRUE(readProfileFile(options.output, &forced).ok());
  EXPECT_NE(forced.notes.find("WRITTEN WITH --force DESPITE POOR FITS"), std::string::npos);
}

TEST_F(CalibrateCommand, HelpAndAnUnknownProfileNeedNoGpu) {
  CalibrateOptions help;
  help.mode = CalibrateMode::Help;
  ASSERT_EQ(run(help), 0);
  EXPECT_NE(out_.str().find("usage: overlap-calibrate"), std::string::npos) << out_.str();
  CalibrateOptions check;
  check.mode = CalibrateMode::Accuracy;
  check.profile = "no-such-profile";
  EXPECT_EQ(run(check), 1);
  EXPECT_NE(log_.str().find("known profiles"), std::string::npos) << log_.str();
}

} // namespace
} // namespace overlap::calibration
