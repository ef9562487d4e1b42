#include "overlap/ProfileIo.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace overlap {
namespace {

namespace fs = std::filesystem;

// Every field set to a distinct value, so a field read into the wrong place shows.
HardwareProfile fullProfile() {
  HardwareProfile p;
  p.name = "test-gpu_1.0";
  p.source = "unit test";
  p.deviceName = "Test GPU \"quoted\"";
  p.pcie = "Gen5 x16";
  p.driver = "580.159.04";
  p.date = "2026-11-21";
  p.notes = "notes";
  p.computeCapabilityMajor = 9;
  p.computeCapabilityMinor = 0;
  p.multiprocessors = 132;
  p.copyEngines = 3;
  p.implicitSynchronization = true;
  p.hostToDevice = {1.1e-6,  1.2e-11, 1.3e-6,   1.4e-11,  1.5e-10,
                    1.6e-11, 1.7e-6,  1.45e-11, 100663296};
  p.deviceToHost = {2.1e-6, 2.2e-11, 2.3e-6, 2.4e-11, 2.5e-10, 2.6e-11, 2.7e-6, 2.45e-11, 67108864};
  p.mappedReadSecondsPerByte = 3.1e-11;
  p.mappedWriteSecondsPerByte = 3.2e-11;
  p.mappedByWidth = {{1, 5.1e-11, 5.2e-11},
                     {2, 5.3e-11, 5.4e-11},
                     {4, 5.5e-11, 0},
                     {8, 5.7e-11, 5.8e-11},
                     {16, 5.9e-11, 6.1e-11}};
  p.mappedBothWaysSecondsPerByte = 6.2e-11;
  p.kernelLaunchS = 4.1e-6;
  p.streamSyncS = 4.2e-6;
  p.streamOverheadS = 4.3e-6;
  p.copyCallS = 4.4e-6;
  p.copyBatchedS = 4.45e-6;
  p.graphOpLaunchS = 4.5e-6;
  p.hostCopySecondsPerByte = 7.1e-11;
  p.hostCopyParallelSecondsPerByte = 7.2e-12;
  p.hostCopyByThreads = {{1, 7.1e-11}, {2, 4.5e-11}, {8, 2.6e-11}, {15, 7.2e-12}};
  p.hostCopyThreadPieceS = 9.1e-7;
  p.allLinksDevices = 4;
  p.allLinksSecondsPerByte = 8.1e-12;
  p.allLinksOneWaySecondsPerByte = 9.1e-12;
  return p;
}

void expectSameLink(const LinkDirection& a, const LinkDirection& b) {
  EXPECT_EQ(a.latencyS, b.latencyS);
  EXPECT_EQ(a.secondsPerByte, b.secondsPerByte);
  EXPECT_EQ(a.gapS, b.gapS);
  EXPECT_EQ(a.bidirectionalSecondsPerByte, b.bidirectionalSecondsPerByte);
  EXPECT_EQ(a.pageableSecondsPerByte, b.pageableSecondsPerByte);
  EXPECT_EQ(a.withMappedSecondsPerByte, b.withMappedSecondsPerByte);
  EXPECT_EQ(a.bidirectionalGapS, b.bidirectionalGapS);
  EXPECT_EQ(a.bidirectionalLargePieceSecondsPerByte, b.bidirectionalLargePieceSecondsPerByte);
  EXPECT_EQ(a.bidirectionalLargePieceMinBytes, b.bidirectionalLargePieceMinBytes);
}

void expectSame(const HardwareProfile& a, const HardwareProfile& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.deviceName, b.deviceName);
  EXPECT_EQ(a.pcie, b.pcie);
  EXPECT_EQ(a.driver, b.driver);
  EXPECT_EQ(a.date, b.date);
  EXPECT_EQ(a.notes, b.notes);
  EXPECT_EQ(a.computeCapabilityMajor, b.computeCapabilityMajor);
  EXPECT_EQ(a.computeCapabilityMinor, b.computeCapabilityMinor);
  EXPECT_EQ(a.multiprocessors, b.multiprocessors);
  EXPECT_EQ(a.copyEngines, b.copyEngines);
  EXPECT_EQ(a.implicitSynchronization, b.implicitSynchronization);
  expectSameLink(a.hostToDevice, b.hostToDevice);
  expectSameLink(a.deviceToHost, b.deviceToHost);
  EXPECT_EQ(a.mappedReadSecondsPerByte, b.mappedReadSecondsPerByte);
  EXPECT_EQ(a.mappedWriteSecondsPerByte, b.mappedWriteSecondsPerByte);
  ASSERT_EQ(a.mappedByWidth.size(), b.mappedByWidth.size());
  for (std::size_t i = 0; i < a.mappedByWidth.size(); ++i) {
    EXPECT_EQ(a.mappedByWidth[i].elementBytes, b.mappedByWidth[i].elementBytes);
    EXPECT_EQ(a.mappedByWidth[i].readSecondsPerByte, b.mappedByWidth[i].readSecondsPerByte);
    EXPECT_EQ(a.mappedByWidth[i].writeSecondsPerByte, b.mappedByWidth[i].writeSecondsPerByte);
  }
  EXPECT_EQ(a.mappedBothWaysSecondsPerByte, b.mappedBothWaysSecondsPerByte);
  EXPECT_EQ(a.kernelLaunchS, b.kernelLaunchS);
  EXPECT_EQ(a.streamSyncS, b.streamSyncS);
  EXPECT_EQ(a.streamOverheadS, b.streamOverheadS);
  EXPECT_EQ(a.copyCallS, b.copyCallS);
  EXPECT_EQ(a.copyBatchedS, b.copyBatchedS);
  EXPECT_EQ(a.graphOpLaunchS, b.graphOpLaunchS);
  EXPECT_EQ(a.hostCopySecondsPerByte, b.hostCopySecondsPerByte);
  EXPECT_EQ(a.hostCopyParallelSecondsPerByte, b.hostCopyParallelSecondsPerByte);
  ASSERT_EQ(a.hostCopyByThreads.size(), b.hostCopyByThreads.size());
  for (std::size_t i = 0; i < a.hostCopyByThreads.size(); ++i) {
    EXPECT_EQ(a.hostCopyByThreads[i].threads, b.hostCopyByThreads[i].threads);
    EXPECT_EQ(a.hostCopyByThreads[i].secondsPerByte, b.hostCopyByThreads[i].secondsPerByte);
  }
  EXPECT_EQ(a.hostCopyThreadPieceS, b.hostCopyThreadPieceS);
  EXPECT_EQ(a.allLinksDevices, b.allLinksDevices);
  EXPECT_EQ(a.allLinksSecondsPerByte, b.allLinksSecondsPerByte);
  EXPECT_EQ(a.allLinksOneWaySecondsPerByte, b.allLinksOneWaySecondsPerByte);
}

// The JSON of fullProfile() with one change applied, as text.
std::string edited(const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json j = nlohmann::json::parse(profileToJson(fullProfile()));
  edit(j);
  return j.dump();
}

ProfileError parse(const std::string& text) {
  HardwareProfile p;
  p.name = "untouched";
  ProfileError error = profileFromJson(text, "/some/dir/gpu.json", &p);
  if (!error.ok()) {
    EXPECT_EQ(p.name, "untouched") << "a refused profile must leave the output alone";
    EXPECT_EQ(error.file, "/some/dir/gpu.json");
  }
  return error;
}

TEST(ProfileJson, RoundTripsEveryFieldExactly) {
  const HardwareProfile original = fullProfile();
  HardwareProfile read;
  const ProfileError error = profileFromJson(profileToJson(original), "memory", &read);
  ASSERT_TRUE(error.ok()) << error.message();
  expectSame(original, read);
}

TEST(ProfileJson, WritesUnknownParametersAsNull) {
  HardwareProfile p = fullProfile();
  p.hostToDevice.gapS = 0;
  p.streamOverheadS = 0;
  const nlohmann::json j = nlohmann::json::parse(profileToJson(p));
  EXPECT_TRUE(j["link"]["host_to_device"]["gap_s"].is_null());
  EXPECT_TRUE(j["overheads"]["stream_overhead_s"].is_null());
  EXPECT_EQ(j["schema"], kProfileSchemaName);
  EXPECT_EQ(j["schema_version"], HardwareProfile::kSchemaVersion);
  HardwareProfile read;
  ASSERT_TRUE(profileFromJson(j.dump(), "memory", &read).ok());
  EXPECT_EQ(read.hostToDevice.gapS, 0.0);
}

TEST(ProfileJson, CorruptTextNamesTheFile) {
  std::string text = profileToJson(fullProfile());
  text.resize(text.size() / 2);
  const ProfileError error = parse(text);
  ASSERT_FALSE(error.ok());
  EXPECT_NE(error.reason.find("not valid JSON"), std::string::npos) << error.message();
  EXPECT_EQ(error.message().rfind("/some/dir/gpu.json: ", 0), 0u) << error.message();
}

TEST(ProfileJson, ForeignDocumentIsNamedAsSuch) {
  const ProfileError error = parse(R"({"name": "left-pad", "version": "1.3.0"})");
  EXPECT_EQ(error.field, "schema");
  EXPECT_NE(error.reason.find("not an Overlap hardware profile"), std::string::npos)
      << error.message();
  EXPECT_EQ(parse("[1, 2, 3]").reason, "expected a JSON object, found an array");
  const ProfileError other = parse(edited([](nlohmann::json& j) { j["schema"] = "kubernetes"; }));
  EXPECT_EQ(other.field, "schema");
  EXPECT_NE(other.reason.find("\"kubernetes\""), std::string::npos) << other.message();
}

TEST(ProfileJson, NewerSchemaIsRefused) {
  const ProfileError error = parse(edited([](nlohmann::json& j) { j["schema_version"] = 99; }));
  EXPECT_EQ(error.field, "schema_version");
  EXPECT_NE(error.reason.find("newer"), std::string::npos) << error.message();
  EXPECT_EQ(parse(edited([](nlohmann::json& j) { j["schema_version"] = "1"; })).field,
            "schema_version");
}

// Older schemas are refused, not half-read: their files predate the fields the model reads now.
TEST(ProfileJson, OlderSchemaIsRefusedWithTheWayOut) {
  for (int version : {1, 2, 3, 4}) {
    const ProfileError error =
        parse(edited([&](nlohmann::json& j) { j["schema_version"] = version; }));
    EXPECT_EQ(error.field, "schema_version");
    EXPECT_NE(error.reason.find("older"), std::string::npos) << error.message();
    EXPECT_NE(error.reason.find("re-run overlap-calibrate"), std::string::npos) << error.message();
    EXPECT_EQ(error.message().rfind("/some/dir/gpu.json: field 'schema_version': ", 0), 0u);
  }
}

TEST(ProfileJson, EveryParameterIsRequired) {
  EXPECT_EQ(parse(edited([](nlohmann::json& j) { j["mapped"].erase("by_width"); })).field,
            "mapped.by_width");
  EXPECT_EQ(parse(edited([](nlohmann::json& j) { j["overheads"].erase("copy_call_s"); })).field,
            "overheads.copy_call_s");
  EXPECT_EQ(parse(edited([](nlohmann::json& j) { j.erase("host_copy"); })).field, "host_copy");
  EXPECT_EQ(parse(edited([](nlohmann::json& j) {
              j["link"]["host_to_device"].erase("bidirectional_gap_s");
            })).field,
            "link.host_to_device.bidirectional_gap_s");
  // Fields of older schemas that no prediction read are unknown now.
  EXPECT_EQ(parse(edited([](nlohmann::json& j) {
              j["link"]["device_to_host"]["gap_min_piece_bytes"] = nullptr;
            })).field,
            "link.device_to_host.gap_min_piece_bytes");
  EXPECT_EQ(
      parse(edited([](nlohmann::json& j) { j["measurements"] = nlohmann::json::array(); })).field,
      "measurements");
  HardwareProfile p;
  ASSERT_TRUE(profileFromJson(edited([](nlohmann::json& j) {
                                j["mapped"]["by_width"] = nlohmann::json::array();
                                j["host_copy"]["seconds_per_byte"] = nullptr;
                              }),
                              "memory", &p)
                  .ok())
      << "an empty list or null is 'not measured'";
  EXPECT_TRUE(p.mappedByWidth.empty());
  EXPECT_EQ(p.hostCopySecondsPerByte, 0);
}

TEST(ProfileJson, BadMappedWidthEntriesAreNamed) {
  struct Case {
    std::function<void(nlohmann::json&)> edit;
    std::string field;
    std::string reasonPart;
  };
  const Case cases[] = {
      {[](nlohmann::json& j) { j["mapped"]["by_width"][2]["element_bytes"] = 3; },
       "mapped.by_width[2].element_bytes", "must be 1, 2, 4, 8 or 16"},
      {[](nlohmann::json& j) { j["mapped"]["by_width"][0]["element_bytes"] = 32; },
       "mapped.by_width[0].element_bytes", "must be 1, 2, 4, 8 or 16"},
      {[](nlohmann::json& j) { std::swap(j["mapped"]["by_width"][1], j["mapped"]["by_width"][3]); },
       "mapped.by_width[2].element_bytes", "ascending"},
      {[](nlohmann::json& j) { j["mapped"]["by_width"][1]["element_bytes"] = 1; },
       "mapped.by_width[1].element_bytes", "ascending"},
      {[](nlohmann::json& j) { j["mapped"]["by_width"][3]["read_seconds_per_byte"] = -2e-11; },
       "mapped.by_width[3].read_seconds_per_byte", "non-negative"},
      {[](nlohmann::json& j) { j["mapped"]["by_width"][4]["write_seconds_per_byte"] = "slow"; },
       "mapped.by_width[4].write_seconds_per_byte", "expected a number"},
      {[](nlohmann::json& j) { j["mapped"]["by_width"][0]["element_bytes"] = -1; },
       "mapped.by_width[0].element_bytes", "out of range"},
      {[](nlohmann::json& j) { j["mapped"]["by_width"][0]["width"] = 1; },
       "mapped.by_width[0].width", "unknown field"},
      {[](nlohmann::json& j) { j["mapped"]["by_width"][1] = 2; }, "mapped.by_width[1]",
       "expected an object"},
      {[](nlohmann::json& j) { j["mapped"]["by_width"] = nlohmann::json::object(); },
       "mapped.by_width", "expected an array"},
  };
  for (const Case& c : cases) {
    const ProfileError error = parse(edited(c.edit));
    EXPECT_EQ(error.field, c.field) << error.message();
    EXPECT_NE(error.reason.find(c.reasonPart), std::string::npos) << error.message();
    EXPECT_EQ(error.message().rfind("/some/dir/gpu.json: field '" + c.field + "'", 0), 0u)
        << error.message();
  }
}

// Profiles from before batches, graphs, several GPUs and the host's copies per thread count were
// calibrated lack these: not known.
TEST(ProfileJson, BatchesGraphLaunchAndAllLinksMayBeAbsent) {
  HardwareProfile p;
  ASSERT_TRUE(profileFromJson(edited([](nlohmann::json& j) {
                                j.erase("all_links");
                                j["overheads"].erase("graph_op_launch_s");
                                j["overheads"].erase("copy_batched_s");
                                j["host_copy"].erase("by_threads");
                                j["host_copy"].erase("thread_piece_s");
                              }),
                              "memory", &p)
                  .ok());
  EXPECT_TRUE(p.hostCopyByThreads.empty());
  EXPECT_EQ(p.hostCopyThreadPieceS, 0);
  EXPECT_GT(p.hostCopySecondsPerByte, 0);
  EXPECT_EQ(p.allLinksDevices, 0);
  EXPECT_EQ(p.allLinksSecondsPerByte, 0);
  EXPECT_EQ(p.graphOpLaunchS, 0);
  EXPECT_EQ(p.copyBatchedS, 0);
  EXPECT_GT(p.copyCallS, 0);
  // All links calibrated before the one-way copies were: that rate alone is not known.
  ASSERT_TRUE(profileFromJson(edited([](nlohmann::json& j) {
                                j["all_links"].erase("one_way_seconds_per_byte");
                              }),
                              "memory", &p)
                  .ok());
  EXPECT_GT(p.allLinksSecondsPerByte, 0);
  EXPECT_EQ(p.allLinksOneWaySecondsPerByte, 0);
}

TEST(ProfileJson, AllLinksNeedTwoDevicesWhereKnown) {
  EXPECT_EQ(parse(edited([](nlohmann::json& j) { j["all_links"]["devices"] = 1; })).field,
            "all_links.devices");
  EXPECT_EQ(
      parse(edited([](nlohmann::json& j) { j["all_links"]["seconds_per_byte"] = nullptr; })).field,
      "all_links.devices");
  EXPECT_EQ(parse(edited([](nlohmann::json& j) { j["all_links"]["extra"] = 1; })).field,
            "all_links.extra");
  EXPECT_EQ(parse(edited([](nlohmann::json& j) {
              j["all_links"]["devices"] = 0;
              j["all_links"]["seconds_per_byte"] = nullptr;
            })).field,
            "all_links.one_way_seconds_per_byte");
  HardwareProfile p;
  EXPECT_TRUE(profileFromJson(edited([](nlohmann::json& j) {
                                j["all_links"]["devices"] = 0;
                                j["all_links"]["seconds_per_byte"] = nullptr;
                                j["all_links"]["one_way_seconds_per_byte"] = nullptr;
                              }),
                              "memory", &p)
                  .ok());
}

TEST(ProfileJson, LargePieceFieldsMayBeNull) {
  EXPECT_EQ(parse(edited([](nlohmann::json& j) {
              j["link"]["host_to_device"].erase("bidirectional_large_piece_seconds_per_byte");
            })).field,
            "link.host_to_device.bidirectional_large_piece_seconds_per_byte");
  HardwareProfile p;
  ASSERT_TRUE(profileFromJson(edited([](nlohmann::json& j) {
                                for (const char* key :
                                     {"bidirectional_large_piece_seconds_per_byte",
                                      "bidirectional_large_piece_min_bytes"})
                                  j["link"]["host_to_device"][key] = nullptr;
                              }),
                              "memory", &p)
                  .ok())
      << "null is 'one G for every piece size'";
  EXPECT_EQ(p.hostToDevice.bidirectionalLargePieceSecondsPerByte, 0);
  EXPECT_EQ(p.deviceToHost.bidirectionalLargePieceMinBytes, 67108864);
}

TEST(ProfileJson, LargePieceGAndWhereItStartsGoTogether) {
  const ProfileError error = parse(edited([](nlohmann::json& j) {
    j["link"]["host_to_device"]["bidirectional_large_piece_min_bytes"] = nullptr;
  }));
  EXPECT_EQ(error.field, "link.host_to_device.bidirectional_large_piece_min_bytes");
  EXPECT_NE(error.reason.find("together"), std::string::npos) << error.message();
  const ProfileError withoutSmall = parse(edited([](nlohmann::json& j) {
    j["link"]["device_to_host"]["bidirectional_seconds_per_byte"] = nullptr;
  }));
  EXPECT_EQ(withoutSmall.field, "link.device_to_host.bidirectional_large_piece_seconds_per_byte");
  EXPECT_EQ(parse(edited([](nlohmann::json& j) {
              j["link"]["device_to_host"]["bidirectional_large_piece_min_bytes"] = -1;
            })).field,
            "link.device_to_host.bidirectional_large_piece_min_bytes");
}

TEST(ProfileJson, BusyLinkGOfAPieceDependsOnItsSize) {
  const HardwareProfile p = fullProfile();
  EXPECT_EQ(p.hostToDevice.bidirectionalSecondsPerByteFor(100663295), 1.4e-11);
  EXPECT_EQ(p.hostToDevice.bidirectionalSecondsPerByteFor(100663296), 1.45e-11);
  EXPECT_EQ(p.deviceToHost.bidirectionalSecondsPerByteFor(1 << 20), 2.4e-11);
  EXPECT_EQ(p.deviceToHost.bidirectionalSecondsPerByteFor(1 << 30), 2.45e-11);
}

TEST(ProfileJson, WritesTheCurrentSchemaVersion) {
  const nlohmann::json j = nlohmann::json::parse(profileToJson(fullProfile()));
  EXPECT_EQ(j["schema_version"], HardwareProfile::kSchemaVersion);
  EXPECT_EQ(j["mapped"]["by_width"][2]["element_bytes"], 4);
  EXPECT_TRUE(j["mapped"]["by_width"][2]["write_seconds_per_byte"].is_null());
  EXPECT_EQ(j["link"]["device_to_host"]["bidirectional_large_piece_min_bytes"], 67108864);
  EXPECT_FALSE(j.contains("measurements"));
}

TEST(ProfileJson, MissingFieldIsNamedByItsPath) {
  const ProfileError error =
      parse(edited([](nlohmann::json& j) { j["link"]["device_to_host"].erase("gap_s"); }));
  EXPECT_EQ(error.field, "link.device_to_host.gap_s");
  EXPECT_EQ(error.reason, "missing");
  EXPECT_EQ(error.message(), "/some/dir/gpu.json: field 'link.device_to_host.gap_s': missing");
  EXPECT_EQ(parse(edited([](nlohmann::json& j) { j.erase("overheads"); })).field, "overheads");
  EXPECT_EQ(parse(edited([](nlohmann::json& j) { j["device"].erase("compute_capability"); })).field,
            "device.compute_capability");
}

TEST(ProfileJson, WrongTypeIsNamed) {
  const ProfileError error = parse(
      edited([](nlohmann::json& j) { j["link"]["host_to_device"]["seconds_per_byte"] = "fast"; }));
  EXPECT_EQ(error.field, "link.host_to_device.seconds_per_byte");
  EXPECT_EQ(error.reason, "expected a number or null, found a string");
  EXPECT_EQ(parse(edited([](nlohmann::json& j) { j["device"]["copy_engines"] = 2.5; })).field,
            "device.copy_engines");
  EXPECT_EQ(
      parse(edited([](nlohmann::json& j) { j["device"]["implicit_synchronization"] = 1; })).field,
      "device.implicit_synchronization");
}

TEST(ProfileJson, NegativeParameterIsRefused) {
  const ProfileError error =
      parse(edited([](nlohmann::json& j) { j["overheads"]["kernel_launch_s"] = -1e-6; }));
  EXPECT_EQ(error.field, "overheads.kernel_launch_s");
  EXPECT_NE(error.reason.find("non-negative"), std::string::npos) << error.message();
}

TEST(ProfileJson, UnknownFieldIsRefused) {
  const ProfileError error =
      parse(edited([](nlohmann::json& j) { j["link"]["host_to_device"]["latency"] = 1e-6; }));
  EXPECT_EQ(error.field, "link.host_to_device.latency");
  EXPECT_NE(error.reason.find("unknown field"), std::string::npos) << error.message();
  EXPECT_EQ(parse(edited([](nlohmann::json& j) { j["colour"] = "blue"; })).field, "colour");
}

TEST(ProfileJson, UnusableNameIsRefused) {
  const ProfileError error = parse(edited([](nlohmann::json& j) { j["name"] = "../etc/passwd"; }));
  EXPECT_EQ(error.field, "name");
  EXPECT_EQ(parse(edited([](nlohmann::json& j) { j["name"] = ""; })).field, "name");
}

class ProfileFile : public ::testing::Test {
protected:
  void SetUp() override {
    directory_ =
        fs::temp_directory_path() /
        ("overlap_profile_io_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(directory_);
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }
  fs::path directory_;
};

TEST_F(ProfileFile, WritesAndReadsBack) {
  const std::string path = (directory_ / "gpu.json").string();
  ASSERT_TRUE(writeProfileFile(path, fullProfile()).ok());
  HardwareProfile read;
  const ProfileError error = readProfileFile(path, &read);
  ASSERT_TRUE(error.ok()) << error.message();
  expectSame(fullProfile(), read);
}

TEST_F(ProfileFile, MissingFileNamesIt) {
  const std::string path = (directory_ / "absent.json").string();
  HardwareProfile read;
  const ProfileError error = readProfileFile(path, &read);
  EXPECT_EQ(error.file, path);
  EXPECT_NE(error.reason.find("cannot open"), std::string::npos);
}

TEST_F(ProfileFile, RefusesToWriteAnInvalidProfile) {
  HardwareProfile p = fullProfile();
  p.deviceToHost.secondsPerByte = -1;
  const std::string path = (directory_ / "bad.json").string();
  const ProfileError error = writeProfileFile(path, p);
  EXPECT_EQ(error.field, "link.device_to_host.seconds_per_byte");
  EXPECT_FALSE(fs::exists(path));
}

// host_copy.by_threads: thread counts ascending from 1, each with a positive rate.
TEST(ProfileJson, HostCopyThreadCountsAreCheckedWithTheirPath) {
  const std::pair<std::function<void(nlohmann::json&)>, std::string> cases[] = {
      {[](nlohmann::json& j) { j["host_copy"]["by_threads"][1]["threads"] = 1; },
       "host_copy.by_threads[1].threads"},
      {[](nlohmann::json& j) { j["host_copy"]["by_threads"][0]["threads"] = 0; },
       "host_copy.by_threads[0].threads"},
      {[](nlohmann::json& j) { j["host_copy"]["by_threads"][2]["seconds_per_byte"] = nullptr; },
       "host_copy.by_threads[2].seconds_per_byte"},
      {[](nlohmann::json& j) { j["host_copy"]["by_threads"] = 3; }, "host_copy.by_threads"},
      {[](nlohmann::json& j) { j["host_copy"]["by_threads"][0]["rate"] = 1; },
       "host_copy.by_threads[0].rate"}};
  for (const auto& [edit, field] : cases) {
    const ProfileError error = parse(edited(edit));
    EXPECT_FALSE(error.ok()) << field;
    EXPECT_EQ(error.field, field) << error.message();
  }
}

} // namespace
} // namespace overlap
