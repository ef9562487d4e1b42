#include "CalibrationMeasurements.h"
#include "Synthetic.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <iterator>
#include <string>
#include <vector>

namespace overlap::calibration {
namespace {

void expectSame(const Series& a, const Series& b) {
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.seconds, b.seconds);
}

TEST(CalibrationMeasurements, RoundTripsThroughJson) {
  test::BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  CalibrationMeasurements original = test::syntheticMeasurements(3, noise);
  original.skipped = {"pageable G: cudaMemcpyAsync failed"};
  CalibrationMeasurements read;
  const std::string error = measurementsFromJson(measurementsToJson(original), "memory", &read);
  ASSERT_EQ(error, "");
  EXPECT_EQ(read.device.name, original.device.name);
  EXPECT_EQ(read.device.copyEngines, original.device.copyEngines);
  EXPECT_EQ(read.hostToDevice.oneByteSeconds, original.hostToDevice.oneByteSeconds);
  expectSame(read.hostToDevice.sizes, original.hostToDevice.sizes);
  ASSERT_EQ(read.deviceToHost.pieces.size(), original.deviceToHost.pieces.size());
  expectSame(read.deviceToHost.pieces[1], original.deviceToHost.pieces[1]);
  EXPECT_EQ(read.deviceToHost.pieceMessageBytes, original.deviceToHost.pieceMessageBytes);
  ASSERT_EQ(read.hostToDevice.bidirectionalPieces.size(),
            original.hostToDevice.bidirectionalPieces.size());
  ASSERT_FALSE(read.hostToDevice.bidirectionalPieces.empty());
  expectSame(read.hostToDevice.bidirectionalPieces[0],
             original.hostToDevice.bidirectionalPieces[0]);
  EXPECT_EQ(read.hostToDevice.bidirectionalPieceMessageBytes,
            original.hostToDevice.bidirectionalPieceMessageBytes);
  ASSERT_EQ(read.deviceToHost.simultaneousPieces.size(), 2u);
  expectSame(read.deviceToHost.simultaneousPieces[1], original.deviceToHost.simultaneousPieces[1]);
  EXPECT_EQ(read.deviceToHost.simultaneousPieceMessageBytes,
            original.deviceToHost.simultaneousPieceMessageBytes);
  expectSame(read.deviceToHost.withMappedSizes, original.deviceToHost.withMappedSizes);
  expectSame(read.mappedWriteSizes, original.mappedWriteSizes);
  ASSERT_EQ(read.mappedByWidth.size(), 5u);
  for (std::size_t i = 0; i < read.mappedByWidth.size(); ++i) {
    EXPECT_EQ(read.mappedByWidth[i].elementBytes, original.mappedByWidth[i].elementBytes);
    expectSame(read.mappedByWidth[i].readSizes, original.mappedByWidth[i].readSizes);
    expectSame(read.mappedByWidth[i].writeSizes, original.mappedByWidth[i].writeSizes);
  }
  ASSERT_FALSE(original.mappedBothWaysSizes.empty());
  expectSame(read.mappedBothWaysSizes, original.mappedBothWaysSizes);
  EXPECT_EQ(read.launchSyncSeconds, original.launchSyncSeconds);
  expectSame(read.streamRounds, original.streamRounds);
  ASSERT_FALSE(original.copyCallSeconds.empty());
  EXPECT_EQ(read.copyCallSeconds, original.copyCallSeconds);
  ASSERT_FALSE(original.hostCopy.empty());
  expectSame(read.hostCopy, original.hostCopy);
  EXPECT_EQ(read.hostCopyBytes, original.hostCopyBytes);
  EXPECT_EQ(read.skipped, original.skipped);
}

// Version 1 records (the H100's first run, h100-pcie5-2026-11-21.raw.json) have no bidirectional
// piece series; they are read without them, so old measurements can still be refitted.
TEST(CalibrationMeasurements, ReadsVersion1RecordsWithoutBidirectionalPieces) {
  test::BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  nlohmann::json j =
      nlohmann::json::parse(measurementsToJson(test::syntheticMeasurements(2, noise)));
  j["schema_version"] = 1;
  for (const char* d : {"host_to_device", "device_to_host"}) {
    j[d].erase("bidirectional_pieces");
    j[d].erase("bidirectional_piece_message_bytes");
  }
  CalibrationMeasurements m;
  ASSERT_EQ(measurementsFromJson(j.dump(), "old.json", &m), "");
  EXPECT_TRUE(m.deviceToHost.bidirectionalPieces.empty());
  EXPECT_EQ(m.deviceToHost.pieces.size(), 2u);

  j["schema_version"] = 2;
  const std::string error = measurementsFromJson(j.dump(), "new.json", &m);
  EXPECT_NE(error.find("new.json: "), std::string::npos) << "version 2 requires the series";
  EXPECT_NE(error.find("bidirectional_piece"), std::string::npos) << error;
}

// The series each record version added after version 2: top-level, or in each direction.
struct AddedSeries {
  int version;
  std::vector<const char*> fields;
  bool perDirection = false;
};
const AddedSeries kAddedSeries[] = {
    {3, {"mapped_by_width"}},
    {4, {"mapped_both_ways_sizes"}},
    {5, {"copy_call_seconds"}},
    {6, {"simultaneous_piece_message_bytes", "simultaneous_pieces"}, true},
    {7, {"host_copy", "host_copy_bytes"}}};

// A synthetic record as a writer of `version` wrote it: without the series later versions added.
nlohmann::json recordOfVersion(int version, test::BoundedNoise& noise) {
  nlohmann::json j =
      nlohmann::json::parse(measurementsToJson(test::syntheticMeasurements(2, noise)));
  j["schema_version"] = version;
  for (const AddedSeries& added : kAddedSeries) {
    if (added.version <= version)
      continue;
    for (const char* field : added.fields) {
      if (!added.perDirection)
        j.erase(field);
      for (const char* direction : {"host_to_device", "device_to_host"})
        if (added.perDirection)
          j[direction].erase(field);
    }
  }
  return j;
}

// The same record relabelled as the next version is refused, naming the origin and the series
// that version requires.
void expectNextVersionRequires(nlohmann::json j, const std::string& field) {
  j["schema_version"] = j["schema_version"].get<int>() + 1;
  CalibrationMeasurements m;
  const std::string error = measurementsFromJson(j.dump(), "next.json", &m);
  EXPECT_NE(error.find("next.json: "), std::string::npos) << error;
  EXPECT_NE(error.find(field), std::string::npos) << error;
}

// What every record of an older version must do: `record` (a synthetic one of `version`) reads
// cleanly from `origin` into *m, and the next version refuses it without `nextField`.
void readRecordOfVersion(int version, const std::string& origin, const std::string& nextField,
                         CalibrationMeasurements* m, nlohmann::json* record = nullptr) {
  test::BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  const nlohmann::json j = recordOfVersion(version, noise);
  ASSERT_EQ(measurementsFromJson(j.dump(), origin, m), "");
  expectNextVersionRequires(j, nextField);
  if (record != nullptr)
    *record = j;
}

TEST(CalibrationMeasurements, WritesTheLatestVersion) {
  test::BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  const nlohmann::json j =
      nlohmann::json::parse(measurementsToJson(test::syntheticMeasurements(2, noise)));
  EXPECT_EQ(j["schema_version"], std::size(kAddedSeries) + 2);
  for (const AddedSeries& added : kAddedSeries)
    for (const char* field : added.fields)
      EXPECT_TRUE(added.perDirection ? j["device_to_host"].contains(field) : j.contains(field))
          << field;
}

// Version 2 records (tests/fixtures/calibration/h100-pcie5-2026-11-21-run2.raw.json) have no mapped
// kernels per element width.
TEST(CalibrationMeasurements, ReadsVersion2RecordsWithoutMappedWidths) {
  CalibrationMeasurements m;
  ASSERT_NO_FATAL_FAILURE(readRecordOfVersion(2, "run2.json", "mapped_by_width", &m));
  EXPECT_TRUE(m.mappedByWidth.empty());
  EXPECT_FALSE(m.hostToDevice.bidirectionalPieces.empty());
}

// Version 3 records (the H100's third run, h100-pcie5-2026-11-21-run3.raw.json) have no kernel
// moving mapped bytes both ways; version 4 requires its series, well formed.
TEST(CalibrationMeasurements, ReadsVersion3RecordsWithoutMappedBothWays) {
  CalibrationMeasurements m;
  nlohmann::json j;
  ASSERT_NO_FATAL_FAILURE(readRecordOfVersion(3, "run3.json", "mapped_both_ways_sizes", &m, &j));
  EXPECT_TRUE(m.mappedBothWaysSizes.empty());
  EXPECT_EQ(m.mappedByWidth.size(), 5u) << "version 3's own series are read";

  j["schema_version"] = 4;
  j["mapped_both_ways_sizes"] = {{"x", {1.0, 2.0}}, {"seconds", {{1e-3}}}};
  const std::string uneven = measurementsFromJson(j.dump(), "run4.json", &m);
  EXPECT_NE(uneven.find("differ in length"), std::string::npos) << uneven;
  j["mapped_both_ways_sizes"] = {{"x", {1.0}}, {"seconds", {{"fast"}}}};
  const std::string typed = measurementsFromJson(j.dump(), "run4.json", &m);
  EXPECT_NE(typed.find("run4.json: "), std::string::npos) << typed;
  EXPECT_NE(typed.find("number"), std::string::npos) << typed;
}

// Version 4 records (H100 run 3 of session 3 and before) did not time copy calls on their own;
// version 5 requires the samples.
TEST(CalibrationMeasurements, ReadsVersion4RecordsWithoutCopyCalls) {
  CalibrationMeasurements m;
  ASSERT_NO_FATAL_FAILURE(readRecordOfVersion(4, "run4.json", "copy_call_seconds", &m));
  EXPECT_TRUE(m.copyCallSeconds.empty());
  EXPECT_FALSE(m.mappedBothWaysSizes.empty()) << "version 4's own series are read";
}

// Version 5 records (session 4's H100 runs 6 and 7) did not time both directions cut into
// pieces at once; version 6 requires those series in each direction.
TEST(CalibrationMeasurements, ReadsVersion5RecordsWithoutSimultaneousPieces) {
  CalibrationMeasurements m;
  ASSERT_NO_FATAL_FAILURE(readRecordOfVersion(5, "run6.json", "simultaneous_piece", &m));
  EXPECT_TRUE(m.deviceToHost.simultaneousPieces.empty());
  EXPECT_FALSE(m.copyCallSeconds.empty()) << "version 5's own series are read";
}

// Version 6 records (session 4's H100 runs 8-12) did not time the host's copies; version 7
// requires them.
TEST(CalibrationMeasurements, ReadsVersion6RecordsWithoutHostCopies) {
  CalibrationMeasurements m;
  ASSERT_NO_FATAL_FAILURE(readRecordOfVersion(6, "run8.json", "host_copy", &m));
  EXPECT_TRUE(m.hostCopy.empty());
  EXPECT_EQ(m.hostCopyBytes, 0);
  EXPECT_FALSE(m.deviceToHost.simultaneousPieces.empty()) << "version 6's own series are read";
}

TEST(CalibrationMeasurements, SimultaneousPieceListsMustAgree) {
  test::BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  nlohmann::json j =
      nlohmann::json::parse(measurementsToJson(test::syntheticMeasurements(2, noise)));
  j["host_to_device"]["simultaneous_piece_message_bytes"].push_back(1024.0);
  CalibrationMeasurements m;
  const std::string error = measurementsFromJson(j.dump(), "bad.json", &m);
  EXPECT_EQ(error, "bad.json: 'simultaneous_pieces' and 'simultaneous_piece_message_bytes' differ "
                   "in length");
}

TEST(CalibrationMeasurements, RefusesOtherDocuments) {
  CalibrationMeasurements m;
  const std::string profileError =
      measurementsFromJson(R"({"schema": "overlap.hardware-profile"})", "p.json", &m);
  EXPECT_NE(profileError.find("p.json: not an overlap-calibrate measurement record"),
            std::string::npos)
      << profileError;
  EXPECT_NE(measurementsFromJson("{", "x.json", &m).find("x.json: "), std::string::npos);
}

TEST(CalibrationMeasurements, RefusesMismatchedSeries) {
  test::BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  nlohmann::json j =
      nlohmann::json::parse(measurementsToJson(test::syntheticMeasurements(2, noise)));
  j["host_to_device"]["sizes"]["x"].push_back(1.0);
  CalibrationMeasurements m;
  const std::string error = measurementsFromJson(j.dump(), "raw.json", &m);
  EXPECT_NE(error.find("differ in length"), std::string::npos) << error;
}

} // namespace
} // namespace overlap::calibration
