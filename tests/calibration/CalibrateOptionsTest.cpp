#include "CalibrateCommand.h"

#include <gtest/gtest.h>

namespace overlap::calibration {
namespace {

CalibrateOptions parsed(const std::vector<std::string>& args) {
  CalibrateOptions options;
  std::string error;
  EXPECT_TRUE(parseCalibrateOptions(args, &options, &error)) << error;
  return options;
}

std::string refused(const std::vector<std::string>& args) {
  CalibrateOptions options;
  std::string error;
  EXPECT_FALSE(parseCalibrateOptions(args, &options, &error));
  return error;
}

TEST(CalibrateOptions, DefaultsCalibrateDeviceZero) {
  const CalibrateOptions o = parsed({});
  EXPECT_EQ(o.mode, CalibrateMode::Calibrate);
  EXPECT_EQ(o.device, 0);
  EXPECT_FALSE(o.quick);
  EXPECT_FALSE(o.force);
  EXPECT_FALSE(o.accuracy);
  EXPECT_EQ(o.repeats, 0);
}

TEST(CalibrateOptions, ReadsEveryCalibrationOption) {
  const CalibrateOptions o =
      parsed({"--device", "1", "--name", "h100", "--output", "p.json", "--quick", "--repeats", "9",
              "--force", "--accuracy", "--markdown", "a.md", "--json", "a.json"});
  EXPECT_EQ(o.mode, CalibrateMode::Calibrate);
  EXPECT_EQ(o.device, 1);
  EXPECT_EQ(o.name, "h100");
  EXPECT_EQ(o.output, "p.json");
  EXPECT_TRUE(o.quick);
  EXPECT_EQ(o.repeats, 9);
  EXPECT_TRUE(o.force);
  EXPECT_TRUE(o.accuracy);
  EXPECT_EQ(o.markdown, "a.md");
  EXPECT_EQ(o.json, "a.json");
}

TEST(CalibrateOptions, ModesTakeTheirArgument) {
  EXPECT_EQ(parsed({"--help"}).mode, CalibrateMode::Help);
  const CalibrateOptions check = parsed({"--profile", "h100-pcie5", "--markdown", "t.md"});
  EXPECT_EQ(check.mode, CalibrateMode::Accuracy);
  EXPECT_TRUE(check.accuracy) << "--profile checks accuracy";
}

TEST(CalibrateOptions, RefusesMalformedCommandLines) {
  EXPECT_EQ(refused({"--bogus"}), "unknown option '--bogus' (see --help)");
  EXPECT_EQ(refused({"--output"}), "--output needs a value");
  EXPECT_EQ(refused({"--device", "x"}), "--device: 'x' is not a device number");
  EXPECT_EQ(refused({"--device", "-1"}), "--device: '-1' is not a device number");
  EXPECT_EQ(refused({"--repeats", "0"}), "--repeats: '0' is not a number from 1 to 1000");
  EXPECT_EQ(refused({"--help", "--profile", "x"}),
            "--profile cannot be combined with another mode option");
  EXPECT_NE(refused({"--markdown", "a.md"}).find("add --accuracy"), std::string::npos);
}

TEST(CalibrateOptions, UsageNamesTheOptions) {
  const std::string usage = calibrateUsage();
  for (const char* option : {"--device", "--output", "--accuracy", "--profile", "--force",
                             "overlap-model --list-profiles", "OVERLAP_PROFILE_PATH"})
    EXPECT_NE(usage.find(option), std::string::npos) << option;
}

TEST(DefaultProfileName, SlugOfDeviceAndLink) {
  EXPECT_EQ(defaultProfileName("NVIDIA H100 80GB HBM3", "Gen5 x16"),
            "nvidia-h100-80gb-hbm3-gen5-x16");
  EXPECT_EQ(defaultProfileName("  Tesla K20m ", "unknown"), "tesla-k20m-unknown");
  EXPECT_EQ(defaultProfileName("", ""), "gpu");
}

} // namespace
} // namespace overlap::calibration
