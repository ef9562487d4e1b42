#include "calibration_measurements.h"

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

ordered_json series_to_json(const Series& series) {
  return ordered_json{{"x", series.x}, {"seconds", series.seconds}};
}

ordered_json series_list_to_json(const std::vector<Series>& list) {
  ordered_json out = ordered_json::array();
  for (const Series& s : list)
    out.push_back(series_to_json(s));
  return out;
}

ordered_json direction_to_json(const DirectionMeasurements& d) {
  return ordered_json{{"one_byte_seconds", d.one_byte_seconds},
                      {"sizes", series_to_json(d.sizes)},
                      {"piece_message_bytes", d.piece_message_bytes},
                      {"pieces", series_list_to_json(d.pieces)},
                      {"bidirectional_sizes", series_to_json(d.bidirectional_sizes)},
                      {"bidirectional_piece_message_bytes", d.bidirectional_piece_message_bytes},
                      {"bidirectional_pieces", series_list_to_json(d.bidirectional_pieces)},
                      {"simultaneous_piece_message_bytes", d.simultaneous_piece_message_bytes},
                      {"simultaneous_pieces", series_list_to_json(d.simultaneous_pieces)},
                      {"pageable_sizes", series_to_json(d.pageable_sizes)},
                      {"with_mapped_sizes", series_to_json(d.with_mapped_sizes)}};
}

// nlohmann's typed access throws on a type mismatch; the caller turns that into a message.
Series series_from_json(const ordered_json& j) {
  Series s;
  s.x = j.at("x").get<std::vector<double>>();
  s.seconds = j.at("seconds").get<std::vector<std::vector<double>>>();
  if (s.x.size() != s.seconds.size())
    throw std::runtime_error("'x' and 'seconds' differ in length");
  return s;
}

// Piece series per message size, stored as two parallel lists that must agree in length.
void piece_series_from_json(const ordered_json& j, const std::string& messages_key,
                            const std::string& series_key, std::vector<double>* messages,
                            std::vector<Series>* series) {
  *messages = j.at(messages_key).get<std::vector<double>>();
  for (const ordered_json& s : j.at(series_key))
    series->push_back(series_from_json(s));
  if (series->size() != messages->size())
    throw std::runtime_error("'" + series_key + "' and '" + messages_key + "' differ in length");
}

DirectionMeasurements direction_from_json(const ordered_json& j, int version) {
  DirectionMeasurements d;
  d.one_byte_seconds = j.at("one_byte_seconds").get<std::vector<double>>();
  d.sizes = series_from_json(j.at("sizes"));
  piece_series_from_json(j, "piece_message_bytes", "pieces", &d.piece_message_bytes, &d.pieces);
  d.bidirectional_sizes = series_from_json(j.at("bidirectional_sizes"));
  if (version >= 2)
    piece_series_from_json(j, "bidirectional_piece_message_bytes", "bidirectional_pieces",
                           &d.bidirectional_piece_message_bytes, &d.bidirectional_pieces);
  if (version >= 6)
    piece_series_from_json(j, "simultaneous_piece_message_bytes", "simultaneous_pieces",
                           &d.simultaneous_piece_message_bytes, &d.simultaneous_pieces);
  d.pageable_sizes = series_from_json(j.at("pageable_sizes"));
  d.with_mapped_sizes = series_from_json(j.at("with_mapped_sizes"));
  return d;
}

} // namespace

std::string measurements_to_json(const CalibrationMeasurements& m) {
  ordered_json out;
  out["schema"] = kSchema;
  out["schema_version"] = kVersion;
  out["device"] = ordered_json{{"name", m.device.name},
                               {"pcie", m.device.pcie},
                               {"driver", m.device.driver},
                               {"date", m.device.date},
                               {"compute_capability_major", m.device.compute_capability_major},
                               {"compute_capability_minor", m.device.compute_capability_minor},
                               {"multiprocessors", m.device.multiprocessors},
                               {"copy_engines", m.device.copy_engines},
                               {"implicit_synchronization", m.device.implicit_synchronization}};
  out["host_to_device"] = direction_to_json(m.host_to_device);
  out["device_to_host"] = direction_to_json(m.device_to_host);
  out["mapped_read_sizes"] = series_to_json(m.mapped_read_sizes);
  out["mapped_write_sizes"] = series_to_json(m.mapped_write_sizes);
  ordered_json by_width = ordered_json::array();
  for (const MappedWidthSeries& w : m.mapped_by_width)
    by_width.push_back(ordered_json{{"element_bytes", w.element_bytes},
                                    {"read_sizes", series_to_json(w.read_sizes)},
                                    {"write_sizes", series_to_json(w.write_sizes)}});
  out["mapped_by_width"] = by_width;
  out["mapped_both_ways_sizes"] = series_to_json(m.mapped_both_ways_sizes);
  out["kernel_launch_seconds"] = m.kernel_launch_seconds;
  out["launch_sync_seconds"] = m.launch_sync_seconds;
  out["stream_rounds"] = series_to_json(m.stream_rounds);
  out["copy_call_seconds"] = m.copy_call_seconds;
  out["host_copy"] = series_to_json(m.host_copy);
  out["host_copy_bytes"] = m.host_copy_bytes;
  out["skipped"] = m.skipped;
  return out.dump(1) + "\n";
}

std::string measurements_from_json(const std::string& text, const std::string& origin,
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
    m.device.compute_capability_major = device.at("compute_capability_major").get<int>();
    m.device.compute_capability_minor = device.at("compute_capability_minor").get<int>();
    m.device.multiprocessors = device.at("multiprocessors").get<int>();
    m.device.copy_engines = device.at("copy_engines").get<int>();
    m.device.implicit_synchronization = device.at("implicit_synchronization").get<bool>();
    m.host_to_device = direction_from_json(j.at("host_to_device"), version);
    m.device_to_host = direction_from_json(j.at("device_to_host"), version);
    m.mapped_read_sizes = series_from_json(j.at("mapped_read_sizes"));
    m.mapped_write_sizes = series_from_json(j.at("mapped_write_sizes"));
    if (version >= 3) {
      for (const ordered_json& w : j.at("mapped_by_width")) {
        MappedWidthSeries width;
        width.element_bytes = w.at("element_bytes").get<int>();
        width.read_sizes = series_from_json(w.at("read_sizes"));
        width.write_sizes = series_from_json(w.at("write_sizes"));
        m.mapped_by_width.push_back(std::move(width));
      }
    }
    if (version >= 4)
      m.mapped_both_ways_sizes = series_from_json(j.at("mapped_both_ways_sizes"));
    m.kernel_launch_seconds = j.at("kernel_launch_seconds").get<std::vector<double>>();
    m.launch_sync_seconds = j.at("launch_sync_seconds").get<std::vector<double>>();
    m.stream_rounds = series_from_json(j.at("stream_rounds"));
    if (version >= 5)
      m.copy_call_seconds = j.at("copy_call_seconds").get<std::vector<double>>();
    if (version >= 7) {
      m.host_copy = series_from_json(j.at("host_copy"));
      m.host_copy_bytes = j.at("host_copy_bytes").get<double>();
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
