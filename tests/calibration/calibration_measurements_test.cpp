#include "calibration_measurements.h"
#include "synthetic.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <iterator>
#include <string>
#include <vector>

namespace overlap::calibration {
namespace {

void expect_same(const Series& a, const Series& b) {
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.seconds, b.seconds);
}

TEST(CalibrationMeasurements, RoundTripsThroughJson) {
  test::BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  CalibrationMeasurements original = test::synthetic_measurements(3, noise);
  original.skipped = {"pageable G: cudaMemcpyAsync failed"};
  CalibrationMeasurements read;
  const std::string error = measurements_from_json(measurements_to_json(original), "memory", &read);
  ASSERT_EQ(error, "");
  EXPECT_EQ(read.device.name, original.device.name);
  EXPECT_EQ(read.device.copy_engines, original.device.copy_engines);
  EXPECT_EQ(read.host_to_device.one_byte_seconds, original.host_to_device.one_byte_seconds);
  expect_same(read.host_to_device.sizes, original.host_to_device.sizes);
  ASSERT_EQ(read.device_to_host.pieces.size(), original.device_to_host.pieces.size());
  expect_same(read.device_to_host.pieces[1], original.device_to_host.pieces[1]);
  EXPECT_EQ(read.device_to_host.piece_message_bytes, original.device_to_host.piece_message_bytes);
  ASSERT_EQ(read.host_to_device.bidirectional_pieces.size(),
            original.host_to_device.bidirectional_pieces.size());
  ASSERT_FALSE(read.host_to_device.bidirectional_pieces.empty());
  expect_same(read.host_to_device.bidirectional_pieces[0],
              original.host_to_device.bidirectional_pieces[0]);
  EXPECT_EQ(read.host_to_device.bidirectional_piece_message_bytes,
            original.host_to_device.bidirectional_piece_message_bytes);
  ASSERT_EQ(read.device_to_host.simultaneous_pieces.size(), 2u);
  expect_same(read.device_to_host.simultaneous_pieces[1],
              original.device_to_host.simultaneous_pieces[1]);
  EXPECT_EQ(read.device_to_host.simultaneous_piece_message_bytes,
            original.device_to_host.simultaneous_piece_message_bytes);
  expect_same(read.device_to_host.with_mapped_sizes, original.device_to_host.with_mapped_sizes);
  expect_same(read.mapped_write_sizes, original.mapped_write_sizes);
  ASSERT_EQ(read.mapped_by_width.size(), 5u);
  for (std::size_t i = 0; i < read.mapped_by_width.size(); ++i) {
    EXPECT_EQ(read.mapped_by_width[i].element_bytes, original.mapped_by_width[i].element_bytes);
    expect_same(read.mapped_by_width[i].read_sizes, original.mapped_by_width[i].read_sizes);
    expect_same(read.mapped_by_width[i].write_sizes, original.mapped_by_width[i].write_sizes);
  }
  ASSERT_FALSE(original.mapped_both_ways_sizes.empty());
  expect_same(read.mapped_both_ways_sizes, original.mapped_both_ways_sizes);
  EXPECT_EQ(read.launch_sync_seconds, original.launch_sync_seconds);
  expect_same(read.stream_rounds, original.stream_rounds);
  ASSERT_FALSE(original.copy_call_seconds.empty());
  EXPECT_EQ(read.copy_call_seconds, original.copy_call_seconds);
  ASSERT_FALSE(original.host_copy.empty());
  expect_same(read.host_copy, original.host_copy);
  EXPECT_EQ(read.host_copy_bytes, original.host_copy_bytes);
  EXPECT_EQ(read.skipped, original.skipped);
}

// Version 1 records (the H100's first run, h100-pcie5-2026-11-21.raw.json) have no bidirectional
// piece series; they are read without them, so old measurements can still be refitted.
TEST(CalibrationMeasurements, ReadsVersion1RecordsWithoutBidirectionalPieces) {
  test::BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  nlohmann::json j =
      nlohmann::json::parse(measurements_to_json(test::synthetic_measurements(2, noise)));
  j["schema_version"] = 1;
  for (const char* d : {"host_to_device", "device_to_host"}) {
    j[d].erase("bidirectional_pieces");
    j[d].erase("bidirectional_piece_message_bytes");
  }
  CalibrationMeasurements m;
  ASSERT_EQ(measurements_from_json(j.dump(), "old.json", &m), "");
  EXPECT_TRUE(m.device_to_host.bidirectional_pieces.empty());
  EXPECT_EQ(m.device_to_host.pieces.size(), 2u);

  j["schema_version"] = 2;
  const std::string error = measurements_from_json(j.dump(), "new.json", &m);
  EXPECT_NE(error.find("new.json: "), std::string::npos) << "version 2 requires the series";
  EXPECT_NE(error.find("bidirectional_piece"), std::string::npos) << error;
}

// The series each record version added after version 2: top-level, or in each direction.
struct AddedSeries {
  int version;
  std::vector<const char*> fields;
  bool per_direction = false;
};
const AddedSeries kAddedSeries[] = {
    {3, {"mapped_by_width"}},
    {4, {"mapped_both_ways_sizes"}},
    {5, {"copy_call_seconds"}},
    {6, {"simultaneous_piece_message_bytes", "simultaneous_pieces"}, true},
    {7, {"host_copy", "host_copy_bytes"}}};

// A synthetic record as a writer of `version` wrote it: without the series later versions added.
nlohmann::json record_of_version(int version, test::BoundedNoise& noise) {
  nlohmann::json j =
      nlohmann::json::parse(measurements_to_json(test::synthetic_measurements(2, noise)));
  j["schema_version"] = version;
  for (const AddedSeries& added : kAddedSeries) {
    if (added.version <= version)
      continue;
    for (const char* field : added.fields) {
      if (!added.per_direction)
        j.erase(field);
      for (const char* direction : {"host_to_device", "device_to_host"})
        if (added.per_direction)
          j[direction].erase(field);
    }
  }
  return j;
}

// The same record relabelled as the next version is refused, naming the origin and the series
// that version requires.
void expect_next_version_requires(nlohmann::json j, const std::string& field) {
  j["schema_version"] = j["schema_version"].get<int>() + 1;
  CalibrationMeasurements m;
  const std::string error = measurements_from_json(j.dump(), "next.json", &m);
  EXPECT_NE(error.find("next.json: "), std::string::npos) << error;
  EXPECT_NE(error.find(field), std::string::npos) << error;
}

// What every record of an older version must do: `record` (a synthetic one of `version`) reads
// cleanly from `origin` into *m, and the next version refuses it without `next_field`.
void read_record_of_version(int version, const std::string& origin, const std::string& next_field,
                            CalibrationMeasurements* m, nlohmann::json* record = nullptr) {
  test::BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  const nlohmann::json j = record_of_version(version, noise);
  ASSERT_EQ(measurements_from_json(j.dump(), origin, m), "");
  expect_next_version_requires(j, next_field);
  if (record != nullptr)
    *record = j;
}

TEST(CalibrationMeasurements, WritesTheLatestVersion) {
  test::BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  const nlohmann::json j =
      nlohmann::json::parse(measurements_to_json(test::synthetic_measurements(2, noise)));
  EXPECT_EQ(j["schema_version"], std::size(kAddedSeries) + 2);
  for (const AddedSeries& added : kAddedSeries)
    for (const char* field : added.fields)
      EXPECT_TRUE(added.per_direction ? j["device_to_host"].contains(field) : j.contains(field))
          << field;
}

// Version 2 records (tests/fixtures/calibration/h100-pcie5-2026-11-21-run2.raw.json) have no mapped
// kernels per element width.
TEST(CalibrationMeasurements, ReadsVersion2RecordsWithoutMappedWidths) {
  CalibrationMeasurements m;
  ASSERT_NO_FATAL_FAILURE(read_record_of_version(2, "run2.json", "mapped_by_width", &m));
  EXPECT_TRUE(m.mapped_by_width.empty());
  EXPECT_FALSE(m.host_to_device.bidirectional_pieces.empty());
}

// Version 3 records (the H100's third run, h100-pcie5-2026-11-21-run3.raw.json) have no kernel
// moving mapped bytes both ways; version 4 requires its series, well formed.
TEST(CalibrationMeasurements, ReadsVersion3RecordsWithoutMappedBothWays) {
  CalibrationMeasurements m;
  nlohmann::json j;
  ASSERT_NO_FATAL_FAILURE(read_record_of_version(3, "run3.json", "mapped_both_ways_sizes", &m, &j));
  EXPECT_TRUE(m.mapped_both_ways_sizes.empty());
  EXPECT_EQ(m.mapped_by_width.size(), 5u) << "version 3's own series are read";

  j["schema_version"] = 4;
  j["mapped_both_ways_sizes"] = {{"x", {1.0, 2.0}}, {"seconds", {{1e-3}}}};
  const std::string uneven = measurements_from_json(j.dump(), "run4.json", &m);
  EXPECT_NE(uneven.find("differ in length"), std::string::npos) << uneven;
  j["mapped_both_ways_sizes"] = {{"x", {1.0}}, {"seconds", {{"fast"}}}};
  const std::string typed = measurements_from_json(j.dump(), "run4.json", &m);
  EXPECT_NE(typed.find("run4.json: "), std::string::npos) << typed;
  EXPECT_NE(typed.find("number"), std::string::npos) << typed;
}

// Version 4 records (H100 run 3 of session 3 and before) did not time copy calls on their own;
// version 5 requires the samples.
TEST(CalibrationMeasurements, ReadsVersion4RecordsWithoutCopyCalls) {
  CalibrationMeasurements m;
  ASSERT_NO_FATAL_FAILURE(read_record_of_version(4, "run4.json", "copy_call_seconds", &m));
  EXPECT_TRUE(m.copy_call_seconds.empty());
  EXPECT_FALSE(m.mapped_both_ways_sizes.empty()) << "version 4's own series are read";
}

// Version 5 records (session 4's H100 runs 6 and 7) did not time both directions cut into
// pieces at once; version 6 requires those series in each direction.
TEST(CalibrationMeasurements, ReadsVersion5RecordsWithoutSimultaneousPieces) {
  CalibrationMeasurements m;
  ASSERT_NO_FATAL_FAILURE(read_record_of_version(5, "run6.json", "simultaneous_piece", &m));
  EXPECT_TRUE(m.device_to_host.simultaneous_pieces.empty());
  EXPECT_FALSE(m.copy_call_seconds.empty()) << "version 5's own series are read";
}

// Version 6 records (session 4's H100 runs 8-12) did not time the host's copies; version 7
// requires them.
TEST(CalibrationMeasurements, ReadsVersion6RecordsWithoutHostCopies) {
  CalibrationMeasurements m;
  ASSERT_NO_FATAL_FAILURE(read_record_of_version(6, "run8.json", "host_copy", &m));
  EXPECT_TRUE(m.host_copy.empty());
  EXPECT_EQ(m.host_copy_bytes, 0);
  EXPECT_FALSE(m.device_to_host.simultaneous_pieces.empty()) << "version 6's own series are read";
}

TEST(CalibrationMeasurements, SimultaneousPieceListsMustAgree) {
  test::BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  nlohmann::json j =
      nlohmann::json::parse(measurements_to_json(test::synthetic_measurements(2, noise)));
  j["host_to_device"]["simultaneous_piece_message_bytes"].push_back(1024.0);
  CalibrationMeasurements m;
  const std::string error = measurements_from_json(j.dump(), "bad.json", &m);
  EXPECT_EQ(error, "bad.json: 'simultaneous_pieces' and 'simultaneous_piece_message_bytes' differ "
                   "in length");
}

TEST(CalibrationMeasurements, RefusesOtherDocuments) {
  CalibrationMeasurements m;
  const std::string profile_error =
      measurements_from_json(R"({"schema": "overlap.hardware-profile"})", "p.json", &m);
  EXPECT_NE(profile_error.find("p.json: not an overlap-calibrate measurement record"),
            std::string::npos)
      << profile_error;
  EXPECT_NE(measurements_from_json("{", "x.json", &m).find("x.json: "), std::string::npos);
}

TEST(CalibrationMeasurements, RefusesMismatchedSeries) {
  test::BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  nlohmann::json j =
      nlohmann::json::parse(measurements_to_json(test::synthetic_measurements(2, noise)));
  j["host_to_device"]["sizes"]["x"].push_back(1.0);
  CalibrationMeasurements m;
  const std::string error = measurements_from_json(j.dump(), "raw.json", &m);
  EXPECT_NE(error.find("differ in length"), std::string::npos) << error;
}

} // namespace
} // namespace overlap::calibration
