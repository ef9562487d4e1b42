#include "overlap/ProfileCatalog.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

namespace overlap {
namespace {

namespace fs = std::filesystem;

const CatalogEntry* builtin(const std::vector<CatalogEntry>& entries, const std::string& name) {
  for (const CatalogEntry& e : entries)
    if (e.profile.name == name)
      return &e;
  return nullptr;
}

TEST(BuiltinProfiles, EmbedEveryShippedFile) {
  std::set<std::string> shipped;
  for (const fs::directory_entry& file : fs::directory_iterator(OVERLAP_BUILTIN_PROFILE_DIR))
    if (file.path().extension() == ".json")
      shipped.insert(file.path().filename().string());
  std::set<std::string> embedded;
  for (const CatalogEntry& entry : builtinProfiles())
    embedded.insert(entry.origin);
  ASSERT_FALSE(shipped.empty());
  // builtinProfiles() drops a file the reader refuses, so this also checks that each parses.
  EXPECT_EQ(embedded.size(), shipped.size());
  for (const std::string& file : shipped)
    EXPECT_EQ(embedded.count("<built-in " + file + ">"), 1u) << file << " is not embedded";
}

TEST(BuiltinProfiles, GtxTitanIsPaper001TableI) {
  const std::vector<CatalogEntry> entries = builtinProfiles();
  const CatalogEntry* titan = builtin(entries, "gtx-titan-pcie3");
  ASSERT_NE(titan, nullptr);
  const HardwareProfile& p = titan->profile;
  // Table I, converted from ms to s.
  EXPECT_DOUBLE_EQ(p.hostToDevice.latencyS, 0.009420e-3);
  EXPECT_DOUBLE_EQ(p.hostToDevice.secondsPerByte, 8.318392e-8 * 1e-3);
  EXPECT_DOUBLE_EQ(p.hostToDevice.gapS, 0.002503e-3);
  EXPECT_DOUBLE_EQ(p.deviceToHost.latencyS, 0.009023e-3);
  EXPECT_DOUBLE_EQ(p.deviceToHost.secondsPerByte, 7.924734e-8 * 1e-3);
  EXPECT_DOUBLE_EQ(p.deviceToHost.gapS, 0.002674e-3);
  // Table II, "PCIe 3.0 explicit-mapped".
  EXPECT_DOUBLE_EQ(p.hostToDevice.withMappedSecondsPerByte, 1.193386e-7 * 1e-3);
  EXPECT_DOUBLE_EQ(p.deviceToHost.withMappedSecondsPerByte, 1.480396e-7 * 1e-3);
  // Paper 001 §IV: category 2, one copy engine, so no bidirectional G exists.
  EXPECT_EQ(p.copyEngines, 1);
  EXPECT_FALSE(p.implicitSynchronization);
  EXPECT_EQ(p.hostToDevice.bidirectionalSecondsPerByte, 0.0);
  // Table I at 16 MiB and 4 streams: L+o + kG + 3g = 9.42 us + 1395.59 us + 7.51 us.
  const double k = 16.0 * 1024 * 1024;
  const LinkDirection& h = p.hostToDevice;
  EXPECT_NEAR(h.latencyS + k * h.secondsPerByte + 3 * h.gapS, 1.412524e-3, 1e-9);
}

TEST(BuiltinProfiles, TeslaK20IsPaper001TableII) {
  const std::vector<CatalogEntry> entries = builtinProfiles();
  const CatalogEntry* k20 = builtin(entries, "tesla-k20-pcie2");
  ASSERT_NE(k20, nullptr);
  const HardwareProfile& p = k20->profile;
  EXPECT_DOUBLE_EQ(p.hostToDevice.bidirectionalSecondsPerByte, 1.741965e-7 * 1e-3);
  EXPECT_DOUBLE_EQ(p.deviceToHost.bidirectionalSecondsPerByte, 1.747120e-7 * 1e-3);
  EXPECT_DOUBLE_EQ(p.hostToDevice.withMappedSecondsPerByte, 2.491988e-7 * 1e-3);
  EXPECT_DOUBLE_EQ(p.deviceToHost.withMappedSecondsPerByte, 2.236644e-7 * 1e-3);
  EXPECT_EQ(p.copyEngines, 2);
  // Not published: left unknown rather than invented.
  EXPECT_EQ(p.hostToDevice.secondsPerByte, 0.0);
  EXPECT_EQ(p.hostToDevice.latencyS, 0.0);
  EXPECT_NE(p.notes.find("not publish"), std::string::npos);
}

// The built-in profiles measured by overlap-calibrate, each equal to its committed measurement.
struct MeasuredBuiltin {
  const char* name;
  const char* fixture; // under tests/fixtures/calibration
  const char* deviceName;
  int copyEngines;
};

class MeasuredBuiltins : public ::testing::TestWithParam<MeasuredBuiltin> {};

TEST_P(MeasuredBuiltins, AreTheCommittedMeasurement) {
  const MeasuredBuiltin& expected = GetParam();
  const std::vector<CatalogEntry> entries = builtinProfiles();
  const CatalogEntry* entry = builtin(entries, expected.name);
  ASSERT_NE(entry, nullptr);
  HardwareProfile measured;
  const ProfileError error = readProfileFile(
      std::string(OVERLAP_TEST_FIXTURES_DIR) + "/calibration/" + expected.fixture, &measured);
  ASSERT_TRUE(error.ok()) << error.message();
  EXPECT_EQ(profileToJson(entry->profile), profileToJson(measured))
      << "calibrate/profile/builtin/" << expected.name
      << ".json must be the committed measurement (tests/fixtures/calibration/" << expected.fixture
      << ")";
  const HardwareProfile& p = entry->profile;
  EXPECT_EQ(p.deviceName, expected.deviceName);
  EXPECT_EQ(p.pcie, "Gen5 x16");
  EXPECT_EQ(p.copyEngines, expected.copyEngines);
  EXPECT_GT(p.hostToDevice.secondsPerByte, 0.0);
  EXPECT_GT(p.deviceToHost.gapS, 0.0);
  EXPECT_GT(p.hostToDevice.bidirectionalSecondsPerByte, 0.0);
  EXPECT_GT(p.deviceToHost.bidirectionalGapS, 0.0);
  ASSERT_EQ(p.mappedByWidth.size(), 5u);
  EXPECT_EQ(p.mappedByWidth.front().elementBytes, 1);
  EXPECT_GT(p.mappedByWidth.front().readSecondsPerByte, p.mappedByWidth.back().readSecondsPerByte)
      << "bytes cost more per byte than 16-byte elements";
}

INSTANTIATE_TEST_SUITE_P(
    BuiltinProfiles, MeasuredBuiltins,
    ::testing::Values(MeasuredBuiltin{"h100-pcie5", "h100-pcie5-2026-11-21-run3-refit.json",
                                      "NVIDIA H100 80GB HBM3", 3},
                      MeasuredBuiltin{"h200-pcie5", "h200-pcie5-2026-11-29.json", "NVIDIA H200",
                                      3}),
    [](const ::testing::TestParamInfo<MeasuredBuiltin>& info) {
      return std::string(info.param.name).substr(0, 4);
    });

TEST(BuiltinProfiles, TheH200sHasEveryOverheadAndTheHostCopiesByThreads) {
  const std::vector<CatalogEntry> entries = builtinProfiles();
  const CatalogEntry* h200 = builtin(entries, "h200-pcie5");
  ASSERT_NE(h200, nullptr);
  const HardwareProfile& p = h200->profile;
  EXPECT_GT(p.copyCallS, 0.0);
  EXPECT_GT(p.graphOpLaunchS, 0.0);
  EXPECT_GT(p.hostCopySecondsPerByte, p.hostCopyParallelSecondsPerByte);
  EXPECT_GT(p.hostCopyParallelSecondsPerByte, 0.0);
  // The ring's threads are the model's on this host: its copies by thread count and hand-overs.
  ASSERT_FALSE(p.hostCopyByThreads.empty());
  EXPECT_EQ(p.hostCopyByThreads.front().threads, 1);
  EXPECT_GT(p.hostCopyByThreads.front().secondsPerByte, p.hostCopyByThreads.back().secondsPerByte);
  EXPECT_GT(p.hostCopyThreadPieceS, 0.0);
}

// Sets and restores the environment variables the catalog reads.
class ProfileDirectories : public ::testing::Test {
protected:
  void SetUp() override {
    for (const char* name : {"OVERLAP_PROFILE_PATH", "XDG_CONFIG_HOME", "HOME"}) {
      const char* value = std::getenv(name);
      saved_.push_back({name, value ? std::optional<std::string>(value) : std::nullopt});
    }
    root_ = fs::temp_directory_path() /
            ("overlap_catalog_" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "first");
    fs::create_directories(root_ / "second");
    setenv("OVERLAP_PROFILE_PATH",
           ((root_ / "first").string() + ":" + (root_ / "second").string()).c_str(), 1);
  }
  void TearDown() override {
    for (const auto& [name, value] : saved_) {
      if (value)
        setenv(name.c_str(), value->c_str(), 1);
      else
        unsetenv(name.c_str());
    }
    fs::remove_all(root_);
  }

  void writeProfile(const fs::path& path, const std::string& name, const std::string& device) {
    HardwareProfile p;
    p.name = name;
    p.deviceName = device;
    p.hostToDevice.secondsPerByte = 1.8e-11;
    ASSERT_TRUE(writeProfileFile(path.string(), p).ok());
  }

  fs::path root_;
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

TEST_F(ProfileDirectories, ADeviceGetsItsOwnMeasurementElseTheNewestBuiltIn) {
  writeProfile(root_ / "second" / "mine.json", "mine", "NVIDIA Test GPU");
  CatalogEntry entry;
  bool measuredHere = false;
  ASSERT_TRUE(profileForDevice("NVIDIA Test GPU", &entry, &measuredHere));
  EXPECT_TRUE(measuredHere);
  EXPECT_EQ(entry.profile.name, "mine");

  ASSERT_TRUE(profileForDevice("Some Other GPU", &entry, &measuredHere));
  EXPECT_FALSE(measuredHere);
  EXPECT_EQ(entry.profile.name, "h100-pcie5"); // compute capability 9.0, newer than the papers'
  ASSERT_TRUE(profileForDevice("", &entry, &measuredHere));
  EXPECT_FALSE(measuredHere);
  EXPECT_EQ(entry.profile.name, "h100-pcie5");
}

TEST_F(ProfileDirectories, AnUnreadableProfileOfTheDeviceIsPassedOverButReported) {
  fs::create_directories(root_ / "first");
  std::ofstream(root_ / "first" / "broken.json") << "{\"schema_version\": 3, \"name\": ";
  CatalogEntry entry;
  bool measuredHere = true;
  std::vector<ProfileError> skipped;
  ASSERT_TRUE(profileForDevice("NVIDIA Test GPU", &entry, &measuredHere, &skipped));
  EXPECT_FALSE(measuredHere);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_NE(skipped[0].message().find("broken.json"), std::string::npos) << skipped[0].message();
}

TEST_F(ProfileDirectories, EnvironmentPathListComesFirst) {
  const std::vector<std::string> dirs = userProfileDirectories();
  ASSERT_EQ(dirs.size(), 2u);
  EXPECT_EQ(dirs[0], (root_ / "first").string());
  EXPECT_EQ(dirs[1], (root_ / "second").string());
}

TEST_F(ProfileDirectories, FallsBackToXdgThenHome) {
  unsetenv("OVERLAP_PROFILE_PATH");
  setenv("XDG_CONFIG_HOME", "/xdg", 1);
  EXPECT_EQ(userProfileDirectories(), std::vector<std::string>{"/xdg/overlap/profiles"});
  unsetenv("XDG_CONFIG_HOME");
  setenv("HOME", "/home/user", 1);
  EXPECT_EQ(userProfileDirectories(),
            std::vector<std::string>{"/home/user/.config/overlap/profiles"});
}

TEST_F(ProfileDirectories, UserProfilesShadowBuiltInOnesAndEarlierDirectoriesWin) {
  writeProfile(root_ / "first" / "a.json", "gtx-titan-pcie3", "Recalibrated Titan");
  writeProfile(root_ / "first" / "mine.json", "mine", "First");
  writeProfile(root_ / "second" / "mine.json", "mine", "Second");
  const ProfileListing listing = listProfiles();
  EXPECT_TRUE(listing.skipped.empty());
  int titans = 0;
  for (const CatalogEntry& entry : listing.entries) {
    if (entry.profile.name == "gtx-titan-pcie3") {
      ++titans;
      EXPECT_EQ(entry.profile.deviceName, "Recalibrated Titan");
    }
    if (entry.profile.name == "mine") {
      EXPECT_EQ(entry.profile.deviceName, "First");
    }
  }
  EXPECT_EQ(titans, 1);
  EXPECT_EQ(listing.entries.front().origin, (root_ / "first" / "a.json").string());
  EXPECT_NE(builtin(listing.entries, "tesla-k20-pcie2"), nullptr);
}

TEST_F(ProfileDirectories, CorruptUserFileIsSkippedWithItsReason) {
  std::ofstream(root_ / "second" / "broken.json") << "{ \"schema\": ";
  const ProfileListing listing = listProfiles();
  ASSERT_EQ(listing.skipped.size(), 1u);
  EXPECT_EQ(listing.skipped[0].file, (root_ / "second" / "broken.json").string());
  EXPECT_NE(builtin(listing.entries, "gtx-titan-pcie3"), nullptr);
}

TEST_F(ProfileDirectories, FindsByNameOrByPath) {
  writeProfile(root_ / "second" / "file-name-differs.json", "by-name", "Named");
  HardwareProfile p;
  std::string origin;
  ASSERT_TRUE(findProfile("by-name", &p, &origin).ok());
  EXPECT_EQ(p.deviceName, "Named");
  EXPECT_EQ(origin, (root_ / "second" / "file-name-differs.json").string());

  ASSERT_TRUE(findProfile("tesla-k20-pcie2", &p, &origin).ok());
  EXPECT_EQ(origin, "<built-in tesla-k20-pcie2.json>");

  const std::string path = (root_ / "second" / "file-name-differs.json").string();
  ASSERT_TRUE(findProfile(path, &p, &origin).ok());
  EXPECT_EQ(origin, path);
}

TEST_F(ProfileDirectories, UnknownNameListsTheKnownOnes) {
  HardwareProfile p;
  const ProfileError error = findProfile("no-such-gpu", &p);
  EXPECT_FALSE(error.ok());
  EXPECT_EQ(error.file, "no-such-gpu");
  EXPECT_NE(error.reason.find("gtx-titan-pcie3"), std::string::npos) << error.message();
  EXPECT_NE(error.reason.find((root_ / "first").string()), std::string::npos) << error.message();
  const ProfileError missingFile = findProfile("./absent.json", &p);
  EXPECT_NE(missingFile.reason.find("cannot open"), std::string::npos) << missingFile.message();
}

TEST(ProfileKey, NamesDeviceLinkAndDriver) {
  HardwareProfile p;
  p.deviceName = "NVIDIA H100 80GB HBM3";
  p.pcie = "Gen5 x16";
  p.driver = "580.159.04";
  EXPECT_EQ(profileKey(p), "NVIDIA H100 80GB HBM3 | Gen5 x16 | driver 580.159.04");
  p.pcie.clear();
  p.driver.clear();
  EXPECT_EQ(profileKey(p), "NVIDIA H100 80GB HBM3 | PCIe unknown | driver unknown");
}

} // namespace
} // namespace overlap
