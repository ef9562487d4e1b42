#include "overlap/profile_io.h"

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
HardwareProfile full_profile() {
  HardwareProfile p;
  p.name = "test-gpu_1.0";
  p.source = "unit test";
  p.device_name = "Test GPU \"quoted\"";
  p.pcie = "Gen5 x16";
  p.driver = "580.159.04";
  p.date = "2026-11-21";
  p.notes = "notes";
  p.compute_capability_major = 9;
  p.compute_capability_minor = 0;
  p.multiprocessors = 132;
  p.copy_engines = 3;
  p.implicit_synchronization = true;
  p.host_to_device = {1.1e-6, 1.2e-11, 1.3e-6, 1.4e-11, 1.5e-10, 1.6e-11,
                      1.7e-6, 262144,  1.9e5,  1.8e-11, 0.35};
  p.device_to_host = {2.1e-6, 2.2e-11, 2.3e-6, 2.4e-11, 2.5e-10, 2.6e-11,
                      2.7e-6, 524288,  2.9e5,  2.8e-11, 0.45};
  p.host_to_device.simultaneous_gap_s = 1.95e-6;
  p.host_to_device.simultaneous_gap_min_piece_bytes = 131072;
  p.device_to_host.simultaneous_gap_s = 2.95e-6;
  p.device_to_host.simultaneous_gap_min_piece_bytes = 65536;
  p.host_to_device.bidirectional_large_piece_seconds_per_byte = 1.45e-11;
  p.host_to_device.bidirectional_large_piece_min_bytes = 100663296;
  p.device_to_host.bidirectional_large_piece_seconds_per_byte = 2.45e-11;
  p.device_to_host.bidirectional_large_piece_min_bytes = 67108864;
  p.mapped_read_seconds_per_byte = 3.1e-11;
  p.mapped_write_seconds_per_byte = 3.2e-11;
  p.mapped_by_width = {{1, 5.1e-11, 5.2e-11},
                       {2, 5.3e-11, 5.4e-11},
                       {4, 5.5e-11, 0},
                       {8, 5.7e-11, 5.8e-11},
                       {16, 5.9e-11, 6.1e-11}};
  p.mapped_both_ways_seconds_per_byte = 6.2e-11;
  p.kernel_launch_s = 4.1e-6;
  p.stream_sync_s = 4.2e-6;
  p.stream_overhead_s = 4.3e-6;
  p.copy_call_s = 4.4e-6;
  p.host_copy_seconds_per_byte = 7.1e-11;
  p.host_copy_parallel_seconds_per_byte = 7.2e-12;
  p.host_copy_threads = 8;
  ProfileMeasurement m;
  m.quantity = "host_to_device.gap_s";
  m.unit = "s";
  m.value = -1.5e-8; // a raw fit may be negative
  m.min = -2e-8;
  m.max = 1e-9;
  m.repeats = 7;
  m.r_squared = 0.25;
  m.max_relative_residual = 0.003;
  p.measurements.push_back(m);
  m.quantity = "kernel_launch_s";
  m.r_squared = -1;
  m.max_relative_residual = -1;
  p.measurements.push_back(m);
  return p;
}

void expect_same_link(const LinkDirection& a, const LinkDirection& b) {
  EXPECT_EQ(a.latency_s, b.latency_s);
  EXPECT_EQ(a.seconds_per_byte, b.seconds_per_byte);
  EXPECT_EQ(a.gap_s, b.gap_s);
  EXPECT_EQ(a.bidirectional_seconds_per_byte, b.bidirectional_seconds_per_byte);
  EXPECT_EQ(a.pageable_seconds_per_byte, b.pageable_seconds_per_byte);
  EXPECT_EQ(a.with_mapped_seconds_per_byte, b.with_mapped_seconds_per_byte);
  EXPECT_EQ(a.bidirectional_gap_s, b.bidirectional_gap_s);
  EXPECT_EQ(a.gap_min_piece_bytes, b.gap_min_piece_bytes);
  EXPECT_EQ(a.bidirectional_gap_min_piece_bytes, b.bidirectional_gap_min_piece_bytes);
  EXPECT_EQ(a.bidirectional_slow_seconds_per_byte, b.bidirectional_slow_seconds_per_byte);
  EXPECT_EQ(a.bidirectional_slow_share, b.bidirectional_slow_share);
  EXPECT_EQ(a.simultaneous_gap_s, b.simultaneous_gap_s);
  EXPECT_EQ(a.simultaneous_gap_min_piece_bytes, b.simultaneous_gap_min_piece_bytes);
  EXPECT_EQ(a.bidirectional_large_piece_seconds_per_byte,
            b.bidirectional_large_piece_seconds_per_byte);
  EXPECT_EQ(a.bidirectional_large_piece_min_bytes, b.bidirectional_large_piece_min_bytes);
}

void expect_same(const HardwareProfile& a, const HardwareProfile& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.device_name, b.device_name);
  EXPECT_EQ(a.pcie, b.pcie);
  EXPECT_EQ(a.driver, b.driver);
  EXPECT_EQ(a.date, b.date);
  EXPECT_EQ(a.notes, b.notes);
  EXPECT_EQ(a.compute_capability_major, b.compute_capability_major);
  EXPECT_EQ(a.compute_capability_minor, b.compute_capability_minor);
  EXPECT_EQ(a.multiprocessors, b.multiprocessors);
  EXPECT_EQ(a.copy_engines, b.copy_engines);
  EXPECT_EQ(a.implicit_synchronization, b.implicit_synchronization);
  expect_same_link(a.host_to_device, b.host_to_device);
  expect_same_link(a.device_to_host, b.device_to_host);
  EXPECT_EQ(a.mapped_read_seconds_per_byte, b.mapped_read_seconds_per_byte);
  EXPECT_EQ(a.mapped_write_seconds_per_byte, b.mapped_write_seconds_per_byte);
  ASSERT_EQ(a.mapped_by_width.size(), b.mapped_by_width.size());
  for (std::size_t i = 0; i < a.mapped_by_width.size(); ++i) {
    EXPECT_EQ(a.mapped_by_width[i].element_bytes, b.mapped_by_width[i].element_bytes);
    EXPECT_EQ(a.mapped_by_width[i].read_seconds_per_byte,
              b.mapped_by_width[i].read_seconds_per_byte);
    EXPECT_EQ(a.mapped_by_width[i].write_seconds_per_byte,
              b.mapped_by_width[i].write_seconds_per_byte);
  }
  EXPECT_EQ(a.mapped_both_ways_seconds_per_byte, b.mapped_both_ways_seconds_per_byte);
  EXPECT_EQ(a.kernel_launch_s, b.kernel_launch_s);
  EXPECT_EQ(a.stream_sync_s, b.stream_sync_s);
  EXPECT_EQ(a.stream_overhead_s, b.stream_overhead_s);
  EXPECT_EQ(a.copy_call_s, b.copy_call_s);
  EXPECT_EQ(a.host_copy_seconds_per_byte, b.host_copy_seconds_per_byte);
  EXPECT_EQ(a.host_copy_parallel_seconds_per_byte, b.host_copy_parallel_seconds_per_byte);
  EXPECT_EQ(a.host_copy_threads, b.host_copy_threads);
  ASSERT_EQ(a.measurements.size(), b.measurements.size());
  for (std::size_t i = 0; i < a.measurements.size(); ++i) {
    EXPECT_EQ(a.measurements[i].quantity, b.measurements[i].quantity);
    EXPECT_EQ(a.measurements[i].unit, b.measurements[i].unit);
    EXPECT_EQ(a.measurements[i].value, b.measurements[i].value);
    EXPECT_EQ(a.measurements[i].min, b.measurements[i].min);
    EXPECT_EQ(a.measurements[i].max, b.measurements[i].max);
    EXPECT_EQ(a.measurements[i].repeats, b.measurements[i].repeats);
    EXPECT_EQ(a.measurements[i].r_squared, b.measurements[i].r_squared);
    EXPECT_EQ(a.measurements[i].max_relative_residual, b.measurements[i].max_relative_residual);
  }
}

// The JSON of full_profile() with one change applied, as text.
std::string edited(const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json j = nlohmann::json::parse(profile_to_json(full_profile()));
  edit(j);
  return j.dump();
}

ProfileError parse(const std::string& text) {
  HardwareProfile p;
  p.name = "untouched";
  ProfileError error = profile_from_json(text, "/some/dir/gpu.json", &p);
  if (!error.ok()) {
    EXPECT_EQ(p.name, "untouched") << "a refused profile must leave the output alone";
    EXPECT_EQ(error.file, "/some/dir/gpu.json");
  }
  return error;
}

TEST(ProfileJson, RoundTripsEveryFieldExactly) {
  const HardwareProfile original = full_profile();
  HardwareProfile read;
  const ProfileError error = profile_from_json(profile_to_json(original), "memory", &read);
  ASSERT_TRUE(error.ok()) << error.message();
  expect_same(original, read);
}

TEST(ProfileJson, WritesUnknownParametersAsNull) {
  HardwareProfile p = full_profile();
  p.host_to_device.gap_s = 0;
  p.stream_overhead_s = 0;
  const nlohmann::json j = nlohmann::json::parse(profile_to_json(p));
  EXPECT_TRUE(j["link"]["host_to_device"]["gap_s"].is_null());
  EXPECT_TRUE(j["overheads"]["stream_overhead_s"].is_null());
  EXPECT_EQ(j["schema"], kProfileSchemaName);
  EXPECT_EQ(j["schema_version"], HardwareProfile::kSchemaVersion);
  HardwareProfile read;
  ASSERT_TRUE(profile_from_json(j.dump(), "memory", &read).ok());
  EXPECT_EQ(read.host_to_device.gap_s, 0.0);
  EXPECT_EQ(read.measurements[1].r_squared, -1.0) << "null fit quality reads back as 'not a fit'";
}

TEST(ProfileJson, CorruptTextNamesTheFile) {
  std::string text = profile_to_json(full_profile());
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

// What a version-3 writer wrote: one busy-link G for every piece size.
void make_version_3(nlohmann::json& j) {
  j["schema_version"] = 3;
  j.erase("host_copy");
  for (const char* d : {"host_to_device", "device_to_host"}) {
    j["link"][d].erase("bidirectional_large_piece_seconds_per_byte");
    j["link"][d].erase("bidirectional_large_piece_min_bytes");
  }
}

// What a version-2 writer wrote: no per-width mapped costs and no slow bidirectional rate.
void make_version_2(nlohmann::json& j) {
  make_version_3(j);
  j["schema_version"] = 2;
  j["mapped"].erase("by_width");
  j["mapped"].erase("both_ways_seconds_per_byte");
  j["overheads"].erase("copy_call_s");
  for (const char* d : {"host_to_device", "device_to_host"}) {
    j["link"][d].erase("bidirectional_slow_seconds_per_byte");
    j["link"][d].erase("bidirectional_slow_share");
    j["link"][d].erase("simultaneous_gap_s");
    j["link"][d].erase("simultaneous_gap_min_piece_bytes");
  }
}

TEST(ProfileJson, ReadsSchemaVersion2WithTheVersion3FieldsEmpty) {
  HardwareProfile p;
  const ProfileError error = profile_from_json(edited(make_version_2), "v2.json", &p);
  ASSERT_TRUE(error.ok()) << error.message();
  EXPECT_TRUE(p.mapped_by_width.empty());
  EXPECT_EQ(p.mapped_read_seconds_per_byte, 3.1e-11);
  EXPECT_EQ(p.host_to_device.bidirectional_slow_seconds_per_byte, 0);
  EXPECT_EQ(p.device_to_host.bidirectional_slow_share, 0);
  EXPECT_EQ(p.device_to_host.bidirectional_gap_s, 2.7e-6) << "version 2's own fields are read";
}

TEST(ProfileJson, AnOlderVersionCarryingANewerFieldIsRefused) {
  const ProfileError error = parse(edited([](nlohmann::json& j) {
    make_version_2(j);
    j["mapped"]["by_width"] = nlohmann::json::array();
  }));
  EXPECT_EQ(error.field, "mapped.by_width");
  EXPECT_NE(error.reason.find("added in version 3"), std::string::npos) << error.message();
  EXPECT_EQ(parse(edited([](nlohmann::json& j) {
              make_version_2(j);
              j["link"]["device_to_host"]["bidirectional_slow_share"] = 0.5;
            })).field,
            "link.device_to_host.bidirectional_slow_share");
}

TEST(ProfileJson, Version3RequiresItsFields) {
  EXPECT_EQ(parse(edited([](nlohmann::json& j) { j["mapped"].erase("by_width"); })).field,
            "mapped.by_width");
  EXPECT_EQ(parse(edited([](nlohmann::json& j) {
              j["link"]["host_to_device"].erase("bidirectional_slow_seconds_per_byte");
            })).field,
            "link.host_to_device.bidirectional_slow_seconds_per_byte");
  HardwareProfile p;
  ASSERT_TRUE(profile_from_json(edited([](nlohmann::json& j) {
                                  j["mapped"]["by_width"] = nlohmann::json::array();
                                }),
                                "memory", &p)
                  .ok())
      << "an empty list is 'not measured'";
  EXPECT_TRUE(p.mapped_by_width.empty());
}

// Parameters added to schema 3 after its first profiles were committed (h100-pcie5 run 3 lacks
// them): absent or null reads as "not known"; a wrong type or a negative value is named; older
// versions must not carry them.
struct LateVersion3Field {
  std::vector<std::string> object; // the path to the object holding it
  const char* key;
  double& (*member)(HardwareProfile&);
  const char* neighbour; // a field of the same object, still read when this one is absent
};

nlohmann::json& object_at(nlohmann::json& j, const std::vector<std::string>& path) {
  nlohmann::json* at = &j;
  for (const std::string& key : path)
    at = &(*at)[key];
  return *at;
}

std::string dotted(const std::vector<std::string>& path, const std::string& key) {
  std::string out;
  for (const std::string& part : path)
    out += part + ".";
  return out + key;
}

class ProfileJsonLateField : public ::testing::TestWithParam<LateVersion3Field> {};

TEST_P(ProfileJsonLateField, IsAnOptionalVersion3Field) {
  const LateVersion3Field f = GetParam();
  const std::string field = dotted(f.object, f.key);
  HardwareProfile full = full_profile();
  const double full_value = f.member(full);
  ASSERT_GT(full_value, 0);
  HardwareProfile p;
  ASSERT_TRUE(
      profile_from_json(edited([&](nlohmann::json& j) { object_at(j, f.object).erase(f.key); }),
                        "run3.json", &p)
          .ok());
  EXPECT_EQ(f.member(p), 0);
  EXPECT_FALSE(profile_from_json(
                   edited([&](nlohmann::json& j) { object_at(j, f.object).erase(f.neighbour); }),
                   "x.json", &p)
                   .ok())
      << "the neighbour " << f.neighbour << " stays required";
  f.member(p) = 1;
  ASSERT_TRUE(
      profile_from_json(edited([&](nlohmann::json& j) { object_at(j, f.object)[f.key] = nullptr; }),
                        "null.json", &p)
          .ok());
  EXPECT_EQ(f.member(p), 0);

  const ProfileError text =
      parse(edited([&](nlohmann::json& j) { object_at(j, f.object)[f.key] = "slow"; }));
  EXPECT_EQ(text.field, field);
  EXPECT_EQ(text.reason, "expected a number or null, found a string");
  EXPECT_EQ(text.message(),
            "/some/dir/gpu.json: field '" + field + "': expected a number or null, found a string");
  const ProfileError negative =
      parse(edited([&](nlohmann::json& j) { object_at(j, f.object)[f.key] = -2e-11; }));
  EXPECT_EQ(negative.field, field);
  EXPECT_NE(negative.reason.find("non-negative"), std::string::npos) << negative.message();
  const ProfileError older = parse(edited([&](nlohmann::json& j) {
    make_version_2(j);
    object_at(j, f.object)[f.key] = 2.4e-11;
  }));
  EXPECT_EQ(older.field, field);
  EXPECT_NE(older.reason.find("added in version 3"), std::string::npos) << older.message();

  nlohmann::json written = nlohmann::json::parse(profile_to_json(full_profile()));
  EXPECT_EQ(object_at(written, f.object)[f.key], full_value);
  HardwareProfile unknown = full_profile();
  f.member(unknown) = 0;
  nlohmann::json unknown_written = nlohmann::json::parse(profile_to_json(unknown));
  EXPECT_TRUE(object_at(unknown_written, f.object)[f.key].is_null());
  HardwareProfile invalid = full_profile();
  f.member(invalid) = -1e-11;
  EXPECT_EQ(check_profile(invalid, "x.json").field, field);
}

INSTANTIATE_TEST_SUITE_P(
    Schema3, ProfileJsonLateField,
    ::testing::Values(LateVersion3Field{{"mapped"},
                                        "both_ways_seconds_per_byte",
                                        [](HardwareProfile& p) -> double& {
                                          return p.mapped_both_ways_seconds_per_byte;
                                        },
                                        "write_seconds_per_byte"},
                      LateVersion3Field{{"overheads"},
                                        "copy_call_s",
                                        [](HardwareProfile& p) -> double& { return p.copy_call_s; },
                                        "stream_overhead_s"},
                      LateVersion3Field{{"link", "host_to_device"},
                                        "simultaneous_gap_s",
                                        [](HardwareProfile& p) -> double& {
                                          return p.host_to_device.simultaneous_gap_s;
                                        },
                                        "gap_s"},
                      LateVersion3Field{{"link", "device_to_host"},
                                        "simultaneous_gap_min_piece_bytes",
                                        [](HardwareProfile& p) -> double& {
                                          return p.device_to_host.simultaneous_gap_min_piece_bytes;
                                        },
                                        "bidirectional_seconds_per_byte"}),
    [](const ::testing::TestParamInfo<LateVersion3Field>& info) {
      return std::string(info.param.key);
    });

TEST(ProfileJson, BadMappedWidthEntriesAreNamed) {
  struct Case {
    std::function<void(nlohmann::json&)> edit;
    std::string field;
    std::string reason_part;
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
    EXPECT_NE(error.reason.find(c.reason_part), std::string::npos) << error.message();
    EXPECT_EQ(error.message().rfind("/some/dir/gpu.json: field '" + c.field + "'", 0), 0u)
        << error.message();
  }
}

TEST(ProfileJson, ReadsSchemaVersion3WithOneBusyLinkG) {
  HardwareProfile p;
  const ProfileError error = profile_from_json(edited(make_version_3), "v3.json", &p);
  ASSERT_TRUE(error.ok()) << error.message();
  EXPECT_EQ(p.host_to_device.bidirectional_large_piece_seconds_per_byte, 0);
  EXPECT_EQ(p.host_to_device.bidirectional_large_piece_min_bytes, 0);
  EXPECT_EQ(p.host_to_device.bidirectional_seconds_per_byte_for(1e9), 1.4e-11)
      << "without a large-piece G every piece gets the one G";
  EXPECT_EQ(p.device_to_host.bidirectional_slow_share, 0.45) << "version 3's own fields are read";
}

TEST(ProfileJson, Version3CarryingTheLargePieceGIsRefused) {
  const ProfileError error = parse(edited([](nlohmann::json& j) {
    make_version_3(j);
    j["link"]["device_to_host"]["bidirectional_large_piece_min_bytes"] = 67108864;
  }));
  EXPECT_EQ(error.field, "link.device_to_host.bidirectional_large_piece_min_bytes");
  EXPECT_NE(error.reason.find("added in version 4"), std::string::npos) << error.message();
}

TEST(ProfileJson, Version4RequiresTheLargePieceFields) {
  EXPECT_EQ(parse(edited([](nlohmann::json& j) {
              j["link"]["host_to_device"].erase("bidirectional_large_piece_seconds_per_byte");
            })).field,
            "link.host_to_device.bidirectional_large_piece_seconds_per_byte");
  HardwareProfile p;
  ASSERT_TRUE(profile_from_json(edited([](nlohmann::json& j) {
                                  for (const char* key :
                                       {"bidirectional_large_piece_seconds_per_byte",
                                        "bidirectional_large_piece_min_bytes"})
                                    j["link"]["host_to_device"][key] = nullptr;
                                }),
                                "memory", &p)
                  .ok())
      << "null is 'one G for every piece size'";
  EXPECT_EQ(p.host_to_device.bidirectional_large_piece_seconds_per_byte, 0);
  EXPECT_EQ(p.device_to_host.bidirectional_large_piece_min_bytes, 67108864);
}

// host_copy came after the first version-4 files: absent, it is not known; an older file must
// not carry it; the parallel cost and its thread count go together.
TEST(ProfileJson, HostCopyIsAnOptionalVersion4Object) {
  HardwareProfile p;
  ASSERT_TRUE(
      profile_from_json(edited([](nlohmann::json& j) { j.erase("host_copy"); }), "memory", &p)
          .ok());
  EXPECT_EQ(p.host_copy_seconds_per_byte, 0);
  EXPECT_EQ(p.host_copy_parallel_seconds_per_byte, 0);
  EXPECT_EQ(p.host_copy_threads, 0);
  const ProfileError old = parse(edited([](nlohmann::json& j) {
    const nlohmann::json host_copy = j["host_copy"];
    make_version_3(j);
    j["host_copy"] = host_copy;
  }));
  EXPECT_EQ(old.field, "host_copy");
  EXPECT_NE(old.reason.find("added in version 4"), std::string::npos) << old.message();
  const ProfileError alone =
      parse(edited([](nlohmann::json& j) { j["host_copy"]["threads"] = 0; }));
  EXPECT_EQ(alone.field, "host_copy.threads");
  EXPECT_NE(alone.reason.find("together"), std::string::npos) << alone.message();
  EXPECT_EQ(parse(edited([](nlohmann::json& j) { j["host_copy"]["seconds_per_byte"] = -1; })).field,
            "host_copy.seconds_per_byte");
  EXPECT_EQ(parse(edited([](nlohmann::json& j) { j["host_copy"]["cores"] = 1; })).field,
            "host_copy.cores");
}

TEST(ProfileJson, LargePieceGAndWhereItStartsGoTogether) {
  const ProfileError error = parse(edited([](nlohmann::json& j) {
    j["link"]["host_to_device"]["bidirectional_large_piece_min_bytes"] = nullptr;
  }));
  EXPECT_EQ(error.field, "link.host_to_device.bidirectional_large_piece_min_bytes");
  EXPECT_NE(error.reason.find("together"), std::string::npos) << error.message();
  const ProfileError without_small = parse(edited([](nlohmann::json& j) {
    j["link"]["device_to_host"]["bidirectional_seconds_per_byte"] = nullptr;
  }));
  EXPECT_EQ(without_small.field, "link.device_to_host.bidirectional_large_piece_seconds_per_byte");
  EXPECT_EQ(parse(edited([](nlohmann::json& j) {
              j["link"]["device_to_host"]["bidirectional_large_piece_min_bytes"] = -1;
            })).field,
            "link.device_to_host.bidirectional_large_piece_min_bytes");
}

TEST(ProfileJson, BusyLinkGOfAPieceDependsOnItsSize) {
  const HardwareProfile p = full_profile();
  EXPECT_EQ(p.host_to_device.bidirectional_seconds_per_byte_for(100663295), 1.4e-11);
  EXPECT_EQ(p.host_to_device.bidirectional_seconds_per_byte_for(100663296), 1.45e-11);
  EXPECT_EQ(p.device_to_host.bidirectional_seconds_per_byte_for(1 << 20), 2.4e-11);
  EXPECT_EQ(p.device_to_host.bidirectional_seconds_per_byte_for(1 << 30), 2.45e-11);
}

TEST(ProfileJson, SlowRateAndItsShareGoTogether) {
  EXPECT_EQ(parse(edited([](nlohmann::json& j) {
              j["link"]["host_to_device"]["bidirectional_slow_share"] = 1.5;
            })).field,
            "link.host_to_device.bidirectional_slow_share");
  const ProfileError error = parse(edited([](nlohmann::json& j) {
    j["link"]["device_to_host"]["bidirectional_slow_seconds_per_byte"] = nullptr;
  }));
  EXPECT_EQ(error.field, "link.device_to_host.bidirectional_slow_share");
  EXPECT_NE(error.reason.find("together"), std::string::npos) << error.message();
}

// Schema 1 had no bidirectional g and no domains of validity; such files stay readable and those
// parameters read as "not known".
TEST(ProfileJson, ReadsSchemaVersion1WithoutTheLaterFields) {
  HardwareProfile p;
  const ProfileError error =
      profile_from_json(edited([](nlohmann::json& j) {
                          make_version_2(j);
                          j["schema_version"] = 1;
                          for (const char* d : {"host_to_device", "device_to_host"}) {
                            j["link"][d].erase("bidirectional_gap_s");
                            j["link"][d].erase("gap_min_piece_bytes");
                            j["link"][d].erase("bidirectional_gap_min_piece_bytes");
                          }
                        }),
                        "old.json", &p);
  ASSERT_TRUE(error.ok()) << error.message();
  EXPECT_EQ(p.host_to_device.gap_s, 1.3e-6);
  EXPECT_EQ(p.device_to_host.bidirectional_gap_s, 0);
  EXPECT_EQ(p.device_to_host.gap_min_piece_bytes, 0);
  EXPECT_EQ(p.host_to_device.bidirectional_gap_min_piece_bytes, 0);
}

TEST(ProfileJson, WritesTheCurrentSchemaVersion) {
  const nlohmann::json j = nlohmann::json::parse(profile_to_json(full_profile()));
  EXPECT_EQ(j["schema_version"], HardwareProfile::kSchemaVersion);
  EXPECT_EQ(j["link"]["device_to_host"]["gap_min_piece_bytes"], 524288);
  EXPECT_EQ(j["mapped"]["by_width"][2]["element_bytes"], 4);
  EXPECT_TRUE(j["mapped"]["by_width"][2]["write_seconds_per_byte"].is_null());
  EXPECT_EQ(j["link"]["host_to_device"]["bidirectional_slow_share"], 0.35);
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
  EXPECT_EQ(
      parse(edited([](nlohmann::json& j) { j["measurements"] = nlohmann::json::object(); })).field,
      "measurements");
  EXPECT_EQ(parse(edited([](nlohmann::json& j) { j["measurements"][1]["repeats"] = "7"; })).field,
            "measurements[1].repeats");
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
  ASSERT_TRUE(write_profile_file(path, full_profile()).ok());
  HardwareProfile read;
  const ProfileError error = read_profile_file(path, &read);
  ASSERT_TRUE(error.ok()) << error.message();
  expect_same(full_profile(), read);
}

TEST_F(ProfileFile, MissingFileNamesIt) {
  const std::string path = (directory_ / "absent.json").string();
  HardwareProfile read;
  const ProfileError error = read_profile_file(path, &read);
  EXPECT_EQ(error.file, path);
  EXPECT_NE(error.reason.find("cannot open"), std::string::npos);
}

TEST_F(ProfileFile, RefusesToWriteAnInvalidProfile) {
  HardwareProfile p = full_profile();
  p.device_to_host.seconds_per_byte = -1;
  const std::string path = (directory_ / "bad.json").string();
  const ProfileError error = write_profile_file(path, p);
  EXPECT_EQ(error.field, "link.device_to_host.seconds_per_byte");
  EXPECT_FALSE(fs::exists(path));
}

} // namespace
} // namespace overlap
