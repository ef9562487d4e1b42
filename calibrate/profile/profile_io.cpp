#include "overlap/profile_io.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <utility>

namespace overlap {

using nlohmann::json;

std::string ProfileError::message() const {
  std::string text = file.empty() ? std::string("<profile>") : file;
  text += ": ";
  if (!field.empty())
    text += "field '" + field + "': ";
  text += reason;
  return text;
}

namespace {

const char* type_name(const json& value) {
  switch (value.type()) {
  case json::value_t::null:
    return "null";
  case json::value_t::boolean:
    return "a boolean";
  case json::value_t::string:
    return "a string";
  case json::value_t::array:
    return "an array";
  case json::value_t::object:
    return "an object";
  case json::value_t::binary:
    return "binary data";
  case json::value_t::discarded:
    return "nothing";
  default:
    return "a number";
  }
}

std::string join_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

json parameter(double value) {
  return value == 0 ? json(nullptr) : json(value);
}

json link_to_json(const LinkDirection& link) {
  return json{
      {"latency_s", parameter(link.latency_s)},
      {"seconds_per_byte", parameter(link.seconds_per_byte)},
      {"gap_s", parameter(link.gap_s)},
      {"bidirectional_seconds_per_byte", parameter(link.bidirectional_seconds_per_byte)},
      {"pageable_seconds_per_byte", parameter(link.pageable_seconds_per_byte)},
      {"with_mapped_seconds_per_byte", parameter(link.with_mapped_seconds_per_byte)},
      {"bidirectional_gap_s", parameter(link.bidirectional_gap_s)},
      {"gap_min_piece_bytes", parameter(link.gap_min_piece_bytes)},
      {"bidirectional_gap_min_piece_bytes", parameter(link.bidirectional_gap_min_piece_bytes)},
      {"bidirectional_slow_seconds_per_byte", parameter(link.bidirectional_slow_seconds_per_byte)},
      {"bidirectional_slow_share", parameter(link.bidirectional_slow_share)},
      {"simultaneous_gap_s", parameter(link.simultaneous_gap_s)},
      {"simultaneous_gap_min_piece_bytes", parameter(link.simultaneous_gap_min_piece_bytes)},
      {"bidirectional_large_piece_seconds_per_byte",
       parameter(link.bidirectional_large_piece_seconds_per_byte)},
      {"bidirectional_large_piece_min_bytes", parameter(link.bidirectional_large_piece_min_bytes)}};
}

nlohmann::ordered_json mapped_width_to_json(const MappedWidthCost& cost) {
  return nlohmann::ordered_json{{"element_bytes", cost.element_bytes},
                                {"read_seconds_per_byte", parameter(cost.read_seconds_per_byte)},
                                {"write_seconds_per_byte", parameter(cost.write_seconds_per_byte)}};
}

bool is_mapped_element_width(int bytes) {
  return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16;
}

json measurement_to_json(const ProfileMeasurement& m) {
  json out{{"quantity", m.quantity}, {"unit", m.unit}, {"value", m.value},
           {"min", m.min},           {"max", m.max},   {"repeats", m.repeats}};
  out["r_squared"] = m.r_squared < 0 ? json(nullptr) : json(m.r_squared);
  out["max_relative_residual"] =
      m.max_relative_residual < 0 ? json(nullptr) : json(m.max_relative_residual);
  return out;
}

// Reads one JSON document into a profile, remembering the first problem with the path of the
// field it concerns. Every object is checked for keys this schema does not define.
class ProfileReader {
public:
  explicit ProfileReader(std::string origin) { error_.file = std::move(origin); }

  const ProfileError& error() const { return error_; }
  bool failed() const { return !error_.ok(); }

  bool fail(const std::string& field, const std::string& reason) {
    if (!failed()) {
      error_.field = field;
      error_.reason = reason;
    }
    return false;
  }

  // The object at `key` of `parent`, or null after reporting why there is none.
  const json* object(const json& parent, const std::string& path, const char* key) {
    const json* value = member(parent, path, key);
    if (value && !value->is_object()) {
      fail(join_path(path, key), std::string("expected an object, found ") + type_name(*value));
      return nullptr;
    }
    return value;
  }

  const json* member(const json& parent, const std::string& path, const char* key) {
    auto it = parent.find(key);
    if (it == parent.end()) {
      fail(join_path(path, key), "missing");
      return nullptr;
    }
    return &*it;
  }

  bool only_keys(const json& object, const std::string& path,
                 std::initializer_list<const char*> allowed) {
    for (auto it = object.begin(); it != object.end(); ++it) {
      bool known = false;
      for (const char* key : allowed)
        known = known || it.key() == key;
      if (!known)
        return fail(join_path(path, it.key()), "unknown field (not part of schema version " +
                                                   std::to_string(HardwareProfile::kSchemaVersion) +
                                                   ")");
    }
    return true;
  }

  bool string(const json& parent, const std::string& path, const char* key, std::string* out) {
    const json* value = member(parent, path, key);
    if (!value)
      return false;
    if (!value->is_string())
      return fail(join_path(path, key),
                  std::string("expected a string, found ") + type_name(*value));
    *out = value->get<std::string>();
    return true;
  }

  bool boolean(const json& parent, const std::string& path, const char* key, bool* out) {
    const json* value = member(parent, path, key);
    if (!value)
      return false;
    if (!value->is_boolean())
      return fail(join_path(path, key),
                  std::string("expected true or false, found ") + type_name(*value));
    *out = value->get<bool>();
    return true;
  }

  bool integer(const json& parent, const std::string& path, const char* key, int* out) {
    const json* value = member(parent, path, key);
    if (!value)
      return false;
    if (!value->is_number_integer())
      return fail(join_path(path, key),
                  std::string("expected an integer, found ") + type_name(*value));
    const long long v = value->get<long long>();
    if (v < 0 || v > 1000000)
      return fail(join_path(path, key), "out of range: " + std::to_string(v));
    *out = static_cast<int>(v);
    return true;
  }

  // A model parameter: a non-negative number, or null for "not known" (read as 0).
  bool parameter(const json& parent, const std::string& path, const char* key, double* out) {
    const json* value = member(parent, path, key);
    if (!value)
      return false;
    if (value->is_null()) {
      *out = 0;
      return true;
    }
    return number(*value, join_path(path, key), out);
  }

  bool number(const json& value, const std::string& field, double* out) {
    if (!value.is_number())
      return fail(field, std::string("expected a number or null, found ") + type_name(value));
    const double v = value.get<double>();
    if (!std::isfinite(v) || v < 0)
      return fail(field, "expected a finite non-negative number, found " + value.dump());
    *out = v;
    return true;
  }

  bool link(const json& parent, const std::string& path, const char* key, LinkDirection* out) {
    const json* o = object(parent, path, key);
    if (!o)
      return false;
    const std::string p = join_path(path, key);
    return only_keys(*o, p,
                     {"latency_s", "seconds_per_byte", "gap_s", "bidirectional_seconds_per_byte",
                      "pageable_seconds_per_byte", "with_mapped_seconds_per_byte",
                      "bidirectional_gap_s", "gap_min_piece_bytes",
                      "bidirectional_gap_min_piece_bytes", "bidirectional_slow_seconds_per_byte",
                      "bidirectional_slow_share", "simultaneous_gap_s",
                      "simultaneous_gap_min_piece_bytes",
                      "bidirectional_large_piece_seconds_per_byte",
                      "bidirectional_large_piece_min_bytes"}) &&
           parameter(*o, p, "latency_s", &out->latency_s) &&
           parameter(*o, p, "seconds_per_byte", &out->seconds_per_byte) &&
           parameter(*o, p, "gap_s", &out->gap_s) &&
           parameter(*o, p, "bidirectional_seconds_per_byte",
                     &out->bidirectional_seconds_per_byte) &&
           parameter(*o, p, "pageable_seconds_per_byte", &out->pageable_seconds_per_byte) &&
           parameter(*o, p, "with_mapped_seconds_per_byte", &out->with_mapped_seconds_per_byte) &&
           optional_parameter(*o, p, "bidirectional_gap_s", &out->bidirectional_gap_s) &&
           optional_parameter(*o, p, "gap_min_piece_bytes", &out->gap_min_piece_bytes) &&
           optional_parameter(*o, p, "bidirectional_gap_min_piece_bytes",
                              &out->bidirectional_gap_min_piece_bytes) &&
           since_version(3, *o, p, "bidirectional_slow_seconds_per_byte",
                         &out->bidirectional_slow_seconds_per_byte) &&
           since_version(3, *o, p, "bidirectional_slow_share", &out->bidirectional_slow_share) &&
           optional_since_version(3, *o, p, "simultaneous_gap_s", &out->simultaneous_gap_s) &&
           optional_since_version(3, *o, p, "simultaneous_gap_min_piece_bytes",
                                  &out->simultaneous_gap_min_piece_bytes) &&
           since_version(4, *o, p, "bidirectional_large_piece_seconds_per_byte",
                         &out->bidirectional_large_piece_seconds_per_byte) &&
           since_version(4, *o, p, "bidirectional_large_piece_min_bytes",
                         &out->bidirectional_large_piece_min_bytes);
  }

  // A parameter schema `version` added: required from that version on, 0 in older files.
  bool since_version(int version, const json& parent, const std::string& path, const char* key,
                     double* out) {
    if (version_ < version) {
      *out = 0;
      return only_absent(parent, path, key, version);
    }
    return parameter(parent, path, key, out);
  }

  // A parameter added to schema `version` after files of that version were written (the
  // committed schema-3 profiles lack it): absent reads as 0, "not known", in that version and
  // later; older versions must not carry it.
  bool optional_since_version(int version, const json& parent, const std::string& path,
                              const char* key, double* out) {
    *out = 0;
    if (version_ < version)
      return only_absent(parent, path, key, version);
    return optional_parameter(parent, path, key, out);
  }

  // An older file must not carry a field of a later version: it was written by hand or by a
  // writer that mislabelled its version, and which of the two is wrong cannot be told.
  bool only_absent(const json& parent, const std::string& path, const char* key, int version) {
    if (parent.find(key) == parent.end())
      return true;
    return fail(join_path(path, key), "not part of schema version " + std::to_string(version_) +
                                          " (added in version " + std::to_string(version) + ")");
  }

  // host_copy (optional within schema 4): absent reads as not known.
  bool host_copy(const json& root, HardwareProfile* out) {
    out->host_copy_seconds_per_byte = 0;
    out->host_copy_parallel_seconds_per_byte = 0;
    out->host_copy_threads = 0;
    if (version_ < 4)
      return only_absent(root, "", "host_copy", 4);
    if (root.find("host_copy") == root.end())
      return true;
    const json* copy = object(root, "", "host_copy");
    return copy &&
           only_keys(*copy, "host_copy",
                     {"seconds_per_byte", "parallel_seconds_per_byte", "threads"}) &&
           parameter(*copy, "host_copy", "seconds_per_byte", &out->host_copy_seconds_per_byte) &&
           parameter(*copy, "host_copy", "parallel_seconds_per_byte",
                     &out->host_copy_parallel_seconds_per_byte) &&
           integer(*copy, "host_copy", "threads", &out->host_copy_threads);
  }

  // mapped.by_width (schema 3): widths 1, 2, 4, 8, 16 bytes, each at most once, ascending.
  bool mapped_by_width(const json& mapped, std::vector<MappedWidthCost>* out) {
    out->clear();
    if (version_ < 3)
      return only_absent(mapped, "mapped", "by_width", 3);
    const json* list = member(mapped, "mapped", "by_width");
    if (!list)
      return false;
    if (!list->is_array())
      return fail("mapped.by_width", std::string("expected an array, found ") + type_name(*list));
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string path = "mapped.by_width[" + std::to_string(i) + "]";
      const json& entry = (*list)[i];
      if (!entry.is_object())
        return fail(path, std::string("expected an object, found ") + type_name(entry));
      MappedWidthCost cost;
      if (!only_keys(entry, path,
                     {"element_bytes", "read_seconds_per_byte", "write_seconds_per_byte"}) ||
          !integer(entry, path, "element_bytes", &cost.element_bytes) ||
          !parameter(entry, path, "read_seconds_per_byte", &cost.read_seconds_per_byte) ||
          !parameter(entry, path, "write_seconds_per_byte", &cost.write_seconds_per_byte))
        return false;
      out->push_back(cost);
    }
    return true;
  }

  // A parameter schema 2 added: version 1 files lack it, which reads as "not known".
  bool optional_parameter(const json& parent, const std::string& path, const char* key,
                          double* out) {
    if (parent.find(key) == parent.end()) {
      *out = 0;
      return true;
    }
    return parameter(parent, path, key, out);
  }

  bool optional_fit_value(const json& parent, const std::string& path, const char* key,
                          double* out) {
    const json* value = member(parent, path, key);
    if (!value)
      return false;
    if (value->is_null()) {
      *out = -1;
      return true;
    }
    return number(*value, join_path(path, key), out);
  }

  bool signed_number(const json& parent, const std::string& path, const char* key, double* out) {
    const json* value = member(parent, path, key);
    if (!value)
      return false;
    if (!value->is_number() || !std::isfinite(value->get<double>()))
      return fail(join_path(path, key),
                  std::string("expected a finite number, found ") + type_name(*value));
    *out = value->get<double>();
    return true;
  }

  bool measurement(const json& value, const std::string& path, ProfileMeasurement* out) {
    if (!value.is_object())
      return fail(path, std::string("expected an object, found ") + type_name(value));
    return only_keys(value, path,
                     {"quantity", "unit", "value", "min", "max", "repeats", "r_squared",
                      "max_relative_residual"}) &&
           string(value, path, "quantity", &out->quantity) &&
           string(value, path, "unit", &out->unit) &&
           signed_number(value, path, "value", &out->value) &&
           signed_number(value, path, "min", &out->min) &&
           signed_number(value, path, "max", &out->max) &&
           integer(value, path, "repeats", &out->repeats) &&
           optional_fit_value(value, path, "r_squared", &out->r_squared) &&
           optional_fit_value(value, path, "max_relative_residual", &out->max_relative_residual);
  }

  bool header(const json& root) {
    version_ = 0;
    // Checked before anything else, so a foreign document or a newer schema is named as such
    // rather than reported as a missing field.
    auto schema = root.find("schema");
    if (schema == root.end())
      return fail("schema", std::string("missing: this is not an Overlap hardware profile "
                                        "(expected \"schema\": \"") +
                                kProfileSchemaName + "\")");
    if (!schema->is_string() || schema->get<std::string>() != kProfileSchemaName)
      return fail("schema", "this is not an Overlap hardware profile: expected \"" +
                                std::string(kProfileSchemaName) + "\", found " + schema->dump());
    auto version = root.find("schema_version");
    if (version == root.end())
      return fail("schema_version", "missing");
    if (!version->is_number_integer())
      return fail("schema_version",
                  std::string("expected an integer, found ") + type_name(*version));
    const long long v = version->get<long long>();
    if (v > HardwareProfile::kSchemaVersion)
      return fail("schema_version", "version " + std::to_string(v) +
                                        " is newer than this Overlap reads (" +
                                        std::to_string(HardwareProfile::kSchemaVersion) + ")");
    if (v < 1)
      return fail("schema_version", "invalid version " + std::to_string(v));
    version_ = static_cast<int>(v);
    return true;
  }

  bool profile(const json& root, HardwareProfile* out) {
    if (!root.is_object())
      return fail("", std::string("expected a JSON object, found ") + type_name(root));
    if (!header(root))
      return false;
    if (!only_keys(root, "",
                   {"schema", "schema_version", "name", "source", "date", "notes", "device", "link",
                    "mapped", "overheads", "host_copy", "measurements"}) ||
        !string(root, "", "name", &out->name) || !string(root, "", "source", &out->source) ||
        !string(root, "", "date", &out->date) || !string(root, "", "notes", &out->notes))
      return false;

    const json* device = object(root, "", "device");
    if (!device ||
        !only_keys(*device, "device",
                   {"name", "compute_capability", "multiprocessors", "copy_engines",
                    "implicit_synchronization", "pcie", "driver"}) ||
        !string(*device, "device", "name", &out->device_name) ||
        !integer(*device, "device", "multiprocessors", &out->multiprocessors) ||
        !integer(*device, "device", "copy_engines", &out->copy_engines) ||
        !boolean(*device, "device", "implicit_synchronization", &out->implicit_synchronization) ||
        !string(*device, "device", "pcie", &out->pcie) ||
        !string(*device, "device", "driver", &out->driver))
      return false;
    const json* cc = object(*device, "device", "compute_capability");
    if (!cc || !only_keys(*cc, "device.compute_capability", {"major", "minor"}) ||
        !integer(*cc, "device.compute_capability", "major", &out->compute_capability_major) ||
        !integer(*cc, "device.compute_capability", "minor", &out->compute_capability_minor))
      return false;

    const json* link = object(root, "", "link");
    if (!link || !only_keys(*link, "link", {"host_to_device", "device_to_host"}) ||
        !this->link(*link, "link", "host_to_device", &out->host_to_device) ||
        !this->link(*link, "link", "device_to_host", &out->device_to_host))
      return false;

    const json* mapped = object(root, "", "mapped");
    if (!mapped ||
        !only_keys(*mapped, "mapped",
                   {"read_seconds_per_byte", "write_seconds_per_byte", "by_width",
                    "both_ways_seconds_per_byte"}) ||
        !parameter(*mapped, "mapped", "read_seconds_per_byte",
                   &out->mapped_read_seconds_per_byte) ||
        !parameter(*mapped, "mapped", "write_seconds_per_byte",
                   &out->mapped_write_seconds_per_byte) ||
        !mapped_by_width(*mapped, &out->mapped_by_width) ||
        !optional_since_version(3, *mapped, "mapped", "both_ways_seconds_per_byte",
                                &out->mapped_both_ways_seconds_per_byte))
      return false;

    const json* overheads = object(root, "", "overheads");
    if (!overheads ||
        !only_keys(*overheads, "overheads",
                   {"kernel_launch_s", "stream_sync_s", "stream_overhead_s", "copy_call_s"}) ||
        !parameter(*overheads, "overheads", "kernel_launch_s", &out->kernel_launch_s) ||
        !parameter(*overheads, "overheads", "stream_sync_s", &out->stream_sync_s) ||
        !parameter(*overheads, "overheads", "stream_overhead_s", &out->stream_overhead_s) ||
        !optional_since_version(3, *overheads, "overheads", "copy_call_s", &out->copy_call_s))
      return false;

    if (!host_copy(root, out))
      return false;

    const json* measurements = member(root, "", "measurements");
    if (!measurements)
      return false;
    if (!measurements->is_array())
      return fail("measurements",
                  std::string("expected an array, found ") + type_name(*measurements));
    out->measurements.clear();
    for (std::size_t i = 0; i < measurements->size(); ++i) {
      ProfileMeasurement m;
      if (!measurement((*measurements)[i], "measurements[" + std::to_string(i) + "]", &m))
        return false;
      out->measurements.push_back(std::move(m));
    }
    return true;
  }

private:
  ProfileError error_;
  int version_ = 0; // of the document being read, once its header is checked
};

bool valid_name(const std::string& name) {
  if (name.empty() || name[0] == '.')
    return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok)
      return false;
  }
  return true;
}

} // namespace

std::string profile_to_json(const HardwareProfile& profile) {
  json measurements = json::array();
  for (const ProfileMeasurement& m : profile.measurements)
    measurements.push_back(measurement_to_json(m));
  // ordered_json keeps the documented key order, so files diff well and read top-down.
  nlohmann::ordered_json out;
  out["schema"] = kProfileSchemaName;
  out["schema_version"] = HardwareProfile::kSchemaVersion;
  out["name"] = profile.name;
  out["source"] = profile.source;
  out["date"] = profile.date;
  out["notes"] = profile.notes;
  out["device"] = nlohmann::ordered_json{
      {"name", profile.device_name},
      {"compute_capability",
       {{"major", profile.compute_capability_major}, {"minor", profile.compute_capability_minor}}},
      {"multiprocessors", profile.multiprocessors},
      {"copy_engines", profile.copy_engines},
      {"implicit_synchronization", profile.implicit_synchronization},
      {"pcie", profile.pcie},
      {"driver", profile.driver}};
  out["link"] = nlohmann::ordered_json{{"host_to_device", link_to_json(profile.host_to_device)},
                                       {"device_to_host", link_to_json(profile.device_to_host)}};
  nlohmann::ordered_json by_width = nlohmann::ordered_json::array();
  for (const MappedWidthCost& cost : profile.mapped_by_width)
    by_width.push_back(mapped_width_to_json(cost));
  out["mapped"] = nlohmann::ordered_json{
      {"read_seconds_per_byte", parameter(profile.mapped_read_seconds_per_byte)},
      {"write_seconds_per_byte", parameter(profile.mapped_write_seconds_per_byte)},
      {"by_width", by_width},
      {"both_ways_seconds_per_byte", parameter(profile.mapped_both_ways_seconds_per_byte)}};
  out["overheads"] =
      nlohmann::ordered_json{{"kernel_launch_s", parameter(profile.kernel_launch_s)},
                             {"stream_sync_s", parameter(profile.stream_sync_s)},
                             {"stream_overhead_s", parameter(profile.stream_overhead_s)},
                             {"copy_call_s", parameter(profile.copy_call_s)}};
  out["host_copy"] = nlohmann::ordered_json{
      {"seconds_per_byte", parameter(profile.host_copy_seconds_per_byte)},
      {"parallel_seconds_per_byte", parameter(profile.host_copy_parallel_seconds_per_byte)},
      {"threads", profile.host_copy_threads}};
  out["measurements"] = measurements;
  return out.dump(2) + "\n";
}

ProfileError profile_from_json(const std::string& text, const std::string& origin,
                               HardwareProfile* profile) {
  ProfileReader reader(origin);
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann's message already names the line and column.
    reader.fail("", std::string("not valid JSON: ") + e.what());
    return reader.error();
  }
  HardwareProfile parsed;
  if (!reader.profile(root, &parsed))
    return reader.error();
  ProfileError checked = check_profile(parsed, origin);
  if (!checked.ok())
    return checked;
  *profile = std::move(parsed);
  return {};
}

ProfileError read_profile_file(const std::string& path, HardwareProfile* profile) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return ProfileError{path, "", "cannot open the file for reading"};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    return ProfileError{path, "", "read error"};
  return profile_from_json(text.str(), path, profile);
}

ProfileError write_profile_file(const std::string& path, const HardwareProfile& profile) {
  ProfileError checked = check_profile(profile, path);
  if (!checked.ok())
    return checked;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    return ProfileError{path, "", "cannot open the file for writing"};
  out << profile_to_json(profile);
  out.close();
  if (!out)
    return ProfileError{path, "", "write error"};
  return {};
}

ProfileError check_profile(const HardwareProfile& profile, const std::string& origin) {
  auto error = [&](const std::string& field, const std::string& reason) {
    return ProfileError{origin, field, reason};
  };
  if (!valid_name(profile.name))
    return error("name", "'" + profile.name +
                             "' is not a usable profile name (letters, digits, '.', '_', '-'; "
                             "not empty, not starting with '.')");
  if (profile.copy_engines < 0)
    return error("device.copy_engines", "negative");
  const std::pair<const char*, double> parameters[] = {
      {"link.host_to_device.latency_s", profile.host_to_device.latency_s},
      {"link.host_to_device.seconds_per_byte", profile.host_to_device.seconds_per_byte},
      {"link.host_to_device.gap_s", profile.host_to_device.gap_s},
      {"link.host_to_device.bidirectional_seconds_per_byte",
       profile.host_to_device.bidirectional_seconds_per_byte},
      {"link.host_to_device.pageable_seconds_per_byte",
       profile.host_to_device.pageable_seconds_per_byte},
      {"link.host_to_device.with_mapped_seconds_per_byte",
       profile.host_to_device.with_mapped_seconds_per_byte},
      {"link.host_to_device.bidirectional_gap_s", profile.host_to_device.bidirectional_gap_s},
      {"link.host_to_device.gap_min_piece_bytes", profile.host_to_device.gap_min_piece_bytes},
      {"link.host_to_device.bidirectional_gap_min_piece_bytes",
       profile.host_to_device.bidirectional_gap_min_piece_bytes},
      {"link.device_to_host.latency_s", profile.device_to_host.latency_s},
      {"link.device_to_host.seconds_per_byte", profile.device_to_host.seconds_per_byte},
      {"link.device_to_host.gap_s", profile.device_to_host.gap_s},
      {"link.device_to_host.bidirectional_seconds_per_byte",
       profile.device_to_host.bidirectional_seconds_per_byte},
      {"link.device_to_host.pageable_seconds_per_byte",
       profile.device_to_host.pageable_seconds_per_byte},
      {"link.device_to_host.with_mapped_seconds_per_byte",
       profile.device_to_host.with_mapped_seconds_per_byte},
      {"link.device_to_host.bidirectional_gap_s", profile.device_to_host.bidirectional_gap_s},
      {"link.device_to_host.gap_min_piece_bytes", profile.device_to_host.gap_min_piece_bytes},
      {"link.device_to_host.bidirectional_gap_min_piece_bytes",
       profile.device_to_host.bidirectional_gap_min_piece_bytes},
      {"link.host_to_device.bidirectional_slow_seconds_per_byte",
       profile.host_to_device.bidirectional_slow_seconds_per_byte},
      {"link.host_to_device.bidirectional_slow_share",
       profile.host_to_device.bidirectional_slow_share},
      {"link.host_to_device.simultaneous_gap_s", profile.host_to_device.simultaneous_gap_s},
      {"link.host_to_device.simultaneous_gap_min_piece_bytes",
       profile.host_to_device.simultaneous_gap_min_piece_bytes},
      {"link.host_to_device.bidirectional_large_piece_seconds_per_byte",
       profile.host_to_device.bidirectional_large_piece_seconds_per_byte},
      {"link.host_to_device.bidirectional_large_piece_min_bytes",
       profile.host_to_device.bidirectional_large_piece_min_bytes},
      {"link.device_to_host.bidirectional_slow_seconds_per_byte",
       profile.device_to_host.bidirectional_slow_seconds_per_byte},
      {"link.device_to_host.bidirectional_slow_share",
       profile.device_to_host.bidirectional_slow_share},
      {"link.device_to_host.simultaneous_gap_s", profile.device_to_host.simultaneous_gap_s},
      {"link.device_to_host.simultaneous_gap_min_piece_bytes",
       profile.device_to_host.simultaneous_gap_min_piece_bytes},
      {"link.device_to_host.bidirectional_large_piece_seconds_per_byte",
       profile.device_to_host.bidirectional_large_piece_seconds_per_byte},
      {"link.device_to_host.bidirectional_large_piece_min_bytes",
       profile.device_to_host.bidirectional_large_piece_min_bytes},
      {"mapped.read_seconds_per_byte", profile.mapped_read_seconds_per_byte},
      {"mapped.write_seconds_per_byte", profile.mapped_write_seconds_per_byte},
      {"mapped.both_ways_seconds_per_byte", profile.mapped_both_ways_seconds_per_byte},
      {"overheads.kernel_launch_s", profile.kernel_launch_s},
      {"overheads.stream_sync_s", profile.stream_sync_s},
      {"overheads.stream_overhead_s", profile.stream_overhead_s},
      {"overheads.copy_call_s", profile.copy_call_s},
      {"host_copy.seconds_per_byte", profile.host_copy_seconds_per_byte},
      {"host_copy.parallel_seconds_per_byte", profile.host_copy_parallel_seconds_per_byte}};
  for (const auto& [field, value] : parameters)
    if (!std::isfinite(value) || value < 0)
      return error(field, "must be a finite non-negative number (0 for not known), is " +
                              std::to_string(value));
  if (profile.host_copy_threads < 0)
    return error("host_copy.threads", "negative");
  if ((profile.host_copy_parallel_seconds_per_byte > 0) != (profile.host_copy_threads > 0))
    return error("host_copy.threads",
                 "the parallel host copy cost and its thread count are known together or not at "
                 "all");
  const std::pair<const char*, const LinkDirection*> links[] = {
      {"link.host_to_device", &profile.host_to_device},
      {"link.device_to_host", &profile.device_to_host}};
  for (const auto& [field, link] : links) {
    if (link->bidirectional_slow_share > 1)
      return error(std::string(field) + ".bidirectional_slow_share",
                   "a share of the repeats, must be at most 1, is " +
                       std::to_string(link->bidirectional_slow_share));
    if ((link->bidirectional_slow_seconds_per_byte > 0) != (link->bidirectional_slow_share > 0))
      return error(std::string(field) + ".bidirectional_slow_share",
                   "a slow rate and its share are known together or not at all");
    if ((link->bidirectional_large_piece_seconds_per_byte > 0) !=
        (link->bidirectional_large_piece_min_bytes > 0))
      return error(std::string(field) + ".bidirectional_large_piece_min_bytes",
                   "the G of large pieces and where they start are known together or not at all");
    if (link->bidirectional_large_piece_seconds_per_byte > 0 &&
        !(link->bidirectional_seconds_per_byte > 0))
      return error(std::string(field) + ".bidirectional_large_piece_seconds_per_byte",
                   "known without bidirectional_seconds_per_byte, the G of the smaller pieces");
  }
  for (std::size_t i = 0; i < profile.mapped_by_width.size(); ++i) {
    const MappedWidthCost& cost = profile.mapped_by_width[i];
    const std::string field = "mapped.by_width[" + std::to_string(i) + "]";
    if (!is_mapped_element_width(cost.element_bytes))
      return error(field + ".element_bytes",
                   "must be 1, 2, 4, 8 or 16, is " + std::to_string(cost.element_bytes));
    if (i > 0 && cost.element_bytes <= profile.mapped_by_width[i - 1].element_bytes)
      return error(
          field + ".element_bytes",
          "widths must be ascending without repeats: " + std::to_string(cost.element_bytes) +
              " follows " + std::to_string(profile.mapped_by_width[i - 1].element_bytes));
    const std::pair<const char*, double> costs[] = {
        {"read_seconds_per_byte", cost.read_seconds_per_byte},
        {"write_seconds_per_byte", cost.write_seconds_per_byte}};
    for (const auto& [key, value] : costs)
      if (!std::isfinite(value) || value < 0)
        return error(field + "." + key,
                     "must be a finite non-negative number (0 for not known), is " +
                         std::to_string(value));
  }
  for (std::size_t i = 0; i < profile.measurements.size(); ++i) {
    const ProfileMeasurement& m = profile.measurements[i];
    const std::string field = "measurements[" + std::to_string(i) + "]";
    if (m.quantity.empty())
      return error(field + ".quantity", "empty");
    if (!std::isfinite(m.value) || !std::isfinite(m.min) || !std::isfinite(m.max))
      return error(field, "value, min and max must be finite");
    if (m.repeats < 0)
      return error(field + ".repeats", "negative");
  }
  return {};
}

} // namespace overlap
