#include "CalibrationMeasurements.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace overlap::calibration {

using nlohmann::ordered_json;

namespace {

constexpr const char* kSchema = "overlap.calibration-measurements";
// Version 2 adds the bidirectional piece series, version 3 the mapped kernels per element width,
// version 4 the mapped kernel moving bytes both ways, version 5 the copy calls, version 6 the
// simultaneous piece series, version 7 the host copies; older records are read without them.
constexpr int kVersion = 7;

ordered_json seriesToJson(const Series& series) {
  return ordered_json{{"x", series.x}, {"seconds", series.seconds}};
}

ordered_json seriesListToJson(const std::vector<Series>& list) {
  ordered_json out = ordered_json::array();
  for (const Series& s : list)
    out.push_back(seriesToJson(s));
  return out;
}

ordered_json directionToJson(const DirectionMeasurements& d) {
  return ordered_json{{"one_byte_seconds", d.oneByteSeconds},
                      {"sizes", seriesToJson(d.sizes)},
                      {"piece_message_bytes", d.pieceMessageBytes},
                      {"pieces", seriesListToJson(d.pieces)},
                      {"bidirectional_sizes", seriesToJson(d.bidirectionalSizes)},
                      {"bidirectional_piece_message_bytes", d.bidirectionalPieceMessageBytes},
                      {"bidirectional_pieces", seriesListToJson(d.bidirectionalPieces)},
                      {"simultaneous_piece_message_bytes", d.simultaneousPieceMessageBytes},
                      {"simultaneous_pieces", seriesListToJson(d.simultaneousPieces)},
                      {"pageable_sizes", seriesToJson(d.pageableSizes)},
                      {"with_mapped_sizes", seriesToJson(d.withMappedSizes)}};
}

// nlohmann's typed access throws on a type mismatch; the caller turns that into a message.
Series seriesFromJson(const ordered_json& j) {
  Series s;
  s.x = j.at("x").get<std::vector<double>>();
  s.seconds = j.at("seconds").get<std::vector<std::vector<double>>>();
  if (s.x.size() != s.seconds.size())
    throw std::runtime_error("'x' and 'seconds' differ in length");
  return s;
}

// Piece series per message size, stored as two parallel lists that must agree in length.
void pieceSeriesFromJson(const ordered_json& j, const std::string& messagesKey,
                         const std::string& seriesKey, std::vector<double>* messages,
                         std::vector<Series>* series) {
  *messages = j.at(messagesKey).get<std::vector<double>>();
  for (const ordered_json& s : j.at(seriesKey))
    series->push_back(seriesFromJson(s));
  if (series->size() != messages->size())
    throw std::runtime_error("'" + seriesKey + "' and '" + messagesKey + "' differ in length");
}

DirectionMeasurements directionFromJson(const ordered_json& j, int version) {
  DirectionMeasurements d;
  d.oneByteSeconds = j.at("one_byte_seconds").get<std::vector<double>>();
  d.sizes = seriesFromJson(j.at("sizes"));
  pieceSeriesFromJson(j, "piece_message_bytes", "pieces", &d.pieceMessageBytes, &d.pieces);
  d.bidirectionalSizes = seriesFromJson(j.at("bidirectional_sizes"));
  if (version >= 2)
    pieceSeriesFromJson(j, "bidirectional_piece_message_bytes", "bidirectional_pieces",
                        &d.bidirectionalPieceMessageBytes, &d.bidirectionalPieces);
  if (version >= 6)
    pieceSeriesFromJson(j, "simultaneous_piece_message_bytes", "simultaneous_pieces",
                        &d.simultaneousPieceMessageBytes, &d.simultaneousPieces);
  d.pageableSizes = seriesFromJson(j.at("pageable_sizes"));
  d.withMappedSizes = seriesFromJson(j.at("with_mapped_sizes"));
  return d;
}

} // namespace

std::string measurementsToJson(const CalibrationMeasurements& m) {
  ordered_json out;
  out["schema"] = kSchema;
  out["schema_version"] = kVersion;
  out["device"] = ordered_json{{"name", m.device.name},
                               {"pcie", m.device.pcie},
                               {"driver", m.device.driver},
                               {"date", m.device.date},
                               {"compute_capability_major", m.device.computeCapabilityMajor},
                               {"compute_capability_minor", m.device.computeCapabilityMinor},
                               {"multiprocessors", m.device.multiprocessors},
                               {"copy_engines", m.device.copyEngines},
                               {"implicit_synchronization", m.device.implicitSynchronization}};
  out["host_to_device"] = directionToJson(m.hostToDevice);
  out["device_to_host"] = directionToJson(m.deviceToHost);
  out["mapped_read_sizes"] = seriesToJson(m.mappedReadSizes);
  out["mapped_write_sizes"] = seriesToJson(m.mappedWriteSizes);
  ordered_json byWidth = ordered_json::array();
  for (const MappedWidthSeries& w : m.mappedByWidth)
    byWidth.push_back(ordered_json{{"element_bytes", w.elementBytes},
                                   {"read_sizes", seriesToJson(w.readSizes)},
                                   {"write_sizes", seriesToJson(w.writeSizes)}});
  out["mapped_by_width"] = byWidth;
  out["mapped_both_ways_sizes"] = seriesToJson(m.mappedBothWaysSizes);
  out["kernel_launch_seconds"] = m.kernelLaunchSeconds;
  out["launch_sync_seconds"] = m.launchSyncSeconds;
  out["stream_rounds"] = seriesToJson(m.streamRounds);
  out["copy_call_seconds"] = m.copyCallSeconds;
  out["host_copy"] = seriesToJson(m.hostCopy);
  out["host_copy_bytes"] = m.hostCopyBytes;
  out["skipped"] = m.skipped;
  return out.dump(1) + "\n";
}

std::string measurementsFromJson(const std::string& text, const std::string& origin,
                                 CalibrationMeasurements* measurements) {
  try {
    const ordered_json j = ordered_json::parse(text);
    if (!j.is_object() || j.value("schema", std::string()) != kSchema)
      return origin + ": not an overlap-calibrate measurement record (expected \"schema\": \"" +
             kSchema + "\")";
    const int version = j.at("schema_version").get<int>();
    if (version < 1 || version > kVersion)
      return origin + ": field 'schema_version': this Overlap reads versions 1 to " +
             std::to_string(kVersion);
    CalibrationMeasurements m;
    const ordered_json& device = j.at("device");
    m.device.name = device.at("name").get<std::string>();
    m.device.pcie = device.at("pcie").get<std::string>();
    m.device.driver = device.at("driver").get<std::string>();
    m.device.date = device.at("date").get<std::string>();
    m.device.computeCapabilityMajor = device.at("compute_capability_major").get<int>();
    m.device.computeCapabilityMinor = device.at("compute_capability_minor").get<int>();
    m.device.multiprocessors = device.at("multiprocessors").get<int>();
    m.device.copyEngines = device.at("copy_engines").get<int>();
    m.device.implicitSynchronization = device.at("implicit_synchronization").get<bool>();
    m.hostToDevice = directionFromJson(j.at("host_to_device"), version);
    m.deviceToHost = directionFromJson(j.at("device_to_host"), version);
    m.mappedReadSizes = seriesFromJson(j.at("mapped_read_sizes"));
    m.mappedWriteSizes = seriesFromJson(j.at("mapped_write_sizes"));
    if (version >= 3) {
      for (const ordered_json& w : j.at("mapped_by_width")) {
        MappedWidthSeries width;
        width.elementBytes = w.at("element_bytes").get<int>();
        width.readSizes = seriesFromJson(w.at("read_sizes"));
        width.writeSizes = seriesFromJson(w.at("write_sizes"));
        m.mappedByWidth.push_back(std::move(width));
      }
    }
    if (version >= 4)
      m.mappedBothWaysSizes = seriesFromJson(j.at("mapped_both_ways_sizes"));
    m.kernelLaunchSeconds = j.at("kernel_launch_seconds").get<std::vector<double>>();
    m.launchSyncSeconds = j.at("launch_sync_seconds").get<std::vector<double>>();
    m.streamRounds = seriesFromJson(j.at("stream_rounds"));
    if (version >= 5)
      m.copyCallSeconds = j.at("copy_call_seconds").get<std::vector<double>>();
    if (version >= 7) {
      m.hostCopy = seriesFromJson(j.at("host_copy"));
      m.hostCopyBytes = j.at("host_copy_bytes").get<double>();
    }
    m.skipped = j.at("skipped").get<std::vector<std::string>>();
    *measurements = std::move(m);
    return {};
  } catch (const std::exception& e) {
    // nlohmann names the missing key or the mismatched type in what().
    return origin + ": " + e.what();
  }
}

} // namespace overlap::calibration
