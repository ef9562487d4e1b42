#include "overlap/ProfileIo.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <ctime>
#include <filesystem>
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

const char* typeName(const json& value) {
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

std::string joinPath(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

json parameter(double value) {
  return value == 0 ? json(nullptr) : json(value);
}

json linkToJson(const LinkDirection& link) {
  return json{
      {"latency_s", parameter(link.latencyS)},
      {"seconds_per_byte", parameter(link.secondsPerByte)},
      {"gap_s", parameter(link.gapS)},
      {"bidirectional_seconds_per_byte", parameter(link.bidirectionalSecondsPerByte)},
      {"pageable_seconds_per_byte", parameter(link.pageableSecondsPerByte)},
      {"with_mapped_seconds_per_byte", parameter(link.withMappedSecondsPerByte)},
      {"bidirectional_gap_s", parameter(link.bidirectionalGapS)},
      {"bidirectional_large_piece_seconds_per_byte",
       parameter(link.bidirectionalLargePieceSecondsPerByte)},
      {"bidirectional_large_piece_min_bytes", parameter(link.bidirectionalLargePieceMinBytes)}};
}

nlohmann::ordered_json mappedWidthToJson(const MappedWidthCost& cost) {
  return nlohmann::ordered_json{{"element_bytes", cost.elementBytes},
                                {"read_seconds_per_byte", parameter(cost.readSecondsPerByte)},
                                {"write_seconds_per_byte", parameter(cost.writeSecondsPerByte)}};
}

bool isMappedElementWidth(int bytes) {
  return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16;
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
      fail(joinPath(path, key), std::string("expected an object, found ") + typeName(*value));
      return nullptr;
    }
    return value;
  }

  const json* member(const json& parent, const std::string& path, const char* key) {
    auto it = parent.find(key);
    if (it == parent.end()) {
      fail(joinPath(path, key), "missing");
      return nullptr;
    }
    return &*it;
  }

  bool onlyKeys(const json& object, const std::string& path,
                std::initializer_list<const char*> allowed) {
    for (auto it = object.begin(); it != object.end(); ++it) {
      bool known = false;
      for (const char* key : allowed)
        known = known || it.key() == key;
      if (!known)
        return fail(joinPath(path, it.key()), "unknown field (not part of schema version " +
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
      return fail(joinPath(path, key), std::string("expected a string, found ") + typeName(*value));
    *out = value->get<std::string>();
    return true;
  }

  bool boolean(const json& parent, const std::string& path, const char* key, bool* out) {
    const json* value = member(parent, path, key);
    if (!value)
      return false;
    if (!value->is_boolean())
      return fail(joinPath(path, key),
                  std::string("expected true or false, found ") + typeName(*value));
    *out = value->get<bool>();
    return true;
  }

  bool integer(const json& parent, const std::string& path, const char* key, int* out) {
    const json* value = member(parent, path, key);
    if (!value)
      return false;
    if (!value->is_number_integer())
      return fail(joinPath(path, key),
                  std::string("expected an integer, found ") + typeName(*value));
    const long long v = value->get<long long>();
    if (v < 0 || v > 1000000)
      return fail(joinPath(path, key), "out of range: " + std::to_string(v));
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
    return number(*value, joinPath(path, key), out);
  }

  bool number(const json& value, const std::string& field, double* out) {
    if (!value.is_number())
      return fail(field, std::string("expected a number or null, found ") + typeName(value));
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
    const std::string p = joinPath(path, key);
    return onlyKeys(*o, p,
                    {"latency_s", "seconds_per_byte", "gap_s", "bidirectional_seconds_per_byte",
                     "pageable_seconds_per_byte", "with_mapped_seconds_per_byte",
                     "bidirectional_gap_s", "bidirectional_large_piece_seconds_per_byte",
                     "bidirectional_large_piece_min_bytes"}) &&
           parameter(*o, p, "latency_s", &out->latencyS) &&
           parameter(*o, p, "seconds_per_byte", &out->secondsPerByte) &&
           parameter(*o, p, "gap_s", &out->gapS) &&
           parameter(*o, p, "bidirectional_seconds_per_byte", &out->bidirectionalSecondsPerByte) &&
           parameter(*o, p, "pageable_seconds_per_byte", &out->pageableSecondsPerByte) &&
           parameter(*o, p, "with_mapped_seconds_per_byte", &out->withMappedSecondsPerByte) &&
           parameter(*o, p, "bidirectional_gap_s", &out->bidirectionalGapS) &&
           parameter(*o, p, "bidirectional_large_piece_seconds_per_byte",
                     &out->bidirectionalLargePieceSecondsPerByte) &&
           parameter(*o, p, "bidirectional_large_piece_min_bytes",
                     &out->bidirectionalLargePieceMinBytes);
  }

  // by_threads and thread_piece_s came later: profiles from before have neither.
  bool hostCopy(const json& root, HardwareProfile* out) {
    const json* copy = object(root, "", "host_copy");
    return copy &&
           onlyKeys(
               *copy, "host_copy",
               {"seconds_per_byte", "parallel_seconds_per_byte", "by_threads", "thread_piece_s"}) &&
           parameter(*copy, "host_copy", "seconds_per_byte", &out->hostCopySecondsPerByte) &&
           parameter(*copy, "host_copy", "parallel_seconds_per_byte",
                     &out->hostCopyParallelSecondsPerByte) &&
           hostCopyByThreads(*copy, &out->hostCopyByThreads) &&
           (!copy->contains("thread_piece_s") ||
            parameter(*copy, "host_copy", "thread_piece_s", &out->hostCopyThreadPieceS));
  }

  bool hostCopyByThreads(const json& copy, std::vector<HardwareProfile::HostCopyThreads>* out) {
    out->clear();
    if (!copy.contains("by_threads"))
      return true;
    const json& list = copy["by_threads"];
    if (!list.is_array())
      return fail("host_copy.by_threads",
                  std::string("expected an array, found ") + typeName(list));
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string path = "host_copy.by_threads[" + std::to_string(i) + "]";
      const json& entry = list[i];
      if (!entry.is_object())
        return fail(path, std::string("expected an object, found ") + typeName(entry));
      HardwareProfile::HostCopyThreads rate;
      if (!onlyKeys(entry, path, {"threads", "seconds_per_byte"}) ||
          !integer(entry, path, "threads", &rate.threads) ||
          !parameter(entry, path, "seconds_per_byte", &rate.secondsPerByte))
        return false;
      out->push_back(rate);
    }
    return true;
  }

  // Profiles from before several GPUs were calibrated have no all_links.
  bool allLinks(const json& root, HardwareProfile* out) {
    if (!root.contains("all_links"))
      return true;
    const json* links = object(root, "", "all_links");
    if (!links ||
        !onlyKeys(*links, "all_links",
                  {"devices", "seconds_per_byte", "one_way_seconds_per_byte"}) ||
        !integer(*links, "all_links", "devices", &out->allLinksDevices) ||
        !parameter(*links, "all_links", "seconds_per_byte", &out->allLinksSecondsPerByte))
      return false;
    // Profiles from before the one-way copies were calibrated have no one_way_seconds_per_byte.
    return !links->contains("one_way_seconds_per_byte") ||
           parameter(*links, "all_links", "one_way_seconds_per_byte",
                     &out->allLinksOneWaySecondsPerByte);
  }

  // mapped.by_width: widths 1, 2, 4, 8, 16 bytes, each at most once, ascending.
  bool mappedByWidth(const json& mapped, std::vector<MappedWidthCost>* out) {
    out->clear();
    const json* list = member(mapped, "mapped", "by_width");
    if (!list)
      return false;
    if (!list->is_array())
      return fail("mapped.by_width", std::string("expected an array, found ") + typeName(*list));
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string path = "mapped.by_width[" + std::to_string(i) + "]";
      const json& entry = (*list)[i];
      if (!entry.is_object())
        return fail(path, std::string("expected an object, found ") + typeName(entry));
      MappedWidthCost cost;
      if (!onlyKeys(entry, path,
                    {"element_bytes", "read_seconds_per_byte", "write_seconds_per_byte"}) ||
          !integer(entry, path, "element_bytes", &cost.elementBytes) ||
          !parameter(entry, path, "read_seconds_per_byte", &cost.readSecondsPerByte) ||
          !parameter(entry, path, "write_seconds_per_byte", &cost.writeSecondsPerByte))
        return false;
      out->push_back(cost);
    }
    return true;
  }

  bool header(const json& root) {
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
                  std::string("expected an integer, found ") + typeName(*version));
    const long long v = version->get<long long>();
    if (v > HardwareProfile::kSchemaVersion)
      return fail("schema_version", "version " + std::to_string(v) +
                                        " is newer than this Overlap reads (" +
                                        std::to_string(HardwareProfile::kSchemaVersion) + ")");
    if (v < 1)
      return fail("schema_version", "invalid version " + std::to_string(v));
    if (v < HardwareProfile::kSchemaVersion)
      return fail("schema_version", "version " + std::to_string(v) +
                                        " is older than this Overlap reads (" +
                                        std::to_string(HardwareProfile::kSchemaVersion) +
                                        "): re-run overlap-calibrate to measure a current profile");
    return true;
  }

  bool profile(const json& root, HardwareProfile* out) {
    if (!root.is_object())
      return fail("", std::string("expected a JSON object, found ") + typeName(root));
    if (!header(root))
      return false;
    if (!onlyKeys(root, "",
                  {"schema", "schema_version", "name", "source", "date", "notes", "device", "link",
                   "mapped", "overheads", "host_copy", "all_links"}) ||
        !string(root, "", "name", &out->name) || !string(root, "", "source", &out->source) ||
        !string(root, "", "date", &out->date) || !string(root, "", "notes", &out->notes))
      return false;

    const json* device = object(root, "", "device");
    if (!device ||
        !onlyKeys(*device, "device",
                  {"name", "compute_capability", "multiprocessors", "copy_engines",
                   "implicit_synchronization", "pcie", "driver"}) ||
        !string(*device, "device", "name", &out->deviceName) ||
        !integer(*device, "device", "multiprocessors", &out->multiprocessors) ||
        !integer(*device, "device", "copy_engines", &out->copyEngines) ||
        !boolean(*device, "device", "implicit_synchronization", &out->implicitSynchronization) ||
        !string(*device, "device", "pcie", &out->pcie) ||
        !string(*device, "device", "driver", &out->driver))
      return false;
    const json* cc = object(*device, "device", "compute_capability");
    if (!cc || !onlyKeys(*cc, "device.compute_capability", {"major", "minor"}) ||
        !integer(*cc, "device.compute_capability", "major", &out->computeCapabilityMajor) ||
        !integer(*cc, "device.compute_capability", "minor", &out->computeCapabilityMinor))
      return false;

    const json* link = object(root, "", "link");
    if (!link || !onlyKeys(*link, "link", {"host_to_device", "device_to_host"}) ||
        !this->link(*link, "link", "host_to_device", &out->hostToDevice) ||
        !this->link(*link, "link", "device_to_host", &out->deviceToHost))
      return false;

    const json* mapped = object(root, "", "mapped");
    if (!mapped ||
        !onlyKeys(*mapped, "mapped",
                  {"read_seconds_per_byte", "write_seconds_per_byte", "by_width",
                   "both_ways_seconds_per_byte"}) ||
        !parameter(*mapped, "mapped", "read_seconds_per_byte", &out->mappedReadSecondsPerByte) ||
        !parameter(*mapped, "mapped", "write_seconds_per_byte", &out->mappedWriteSecondsPerByte) ||
        !mappedByWidth(*mapped, &out->mappedByWidth) ||
        !parameter(*mapped, "mapped", "both_ways_seconds_per_byte",
                   &out->mappedBothWaysSecondsPerByte))
      return false;

    const json* overheads = object(root, "", "overheads");
    if (!overheads ||
        !onlyKeys(*overheads, "overheads",
                  {"kernel_launch_s", "stream_sync_s", "stream_overhead_s", "copy_call_s",
                   "copy_batched_s", "graph_op_launch_s"}) ||
        !parameter(*overheads, "overheads", "kernel_launch_s", &out->kernelLaunchS) ||
        !parameter(*overheads, "overheads", "stream_sync_s", &out->streamSyncS) ||
        !parameter(*overheads, "overheads", "stream_overhead_s", &out->streamOverheadS) ||
        !parameter(*overheads, "overheads", "copy_call_s", &out->copyCallS) ||
        // Profiles from before batches or graphs were calibrated have none.
        (overheads->contains("copy_batched_s") &&
         !parameter(*overheads, "overheads", "copy_batched_s", &out->copyBatchedS)) ||
        (overheads->contains("graph_op_launch_s") &&
         !parameter(*overheads, "overheads", "graph_op_launch_s", &out->graphOpLaunchS)))
      return false;
    return hostCopy(root, out) && allLinks(root, out);
  }

private:
  ProfileError error_;
};

bool validName(const std::string& name) {
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

std::string profileToJson(const HardwareProfile& profile) {
  // ordered_json keeps the documented key order, so files diff well and read top-down.
  nlohmann::ordered_json out;
  out["schema"] = kProfileSchemaName;
  out["schema_version"] = HardwareProfile::kSchemaVersion;
  out["name"] = profile.name;
  out["source"] = profile.source;
  out["date"] = profile.date;
  out["notes"] = profile.notes;
  out["device"] = nlohmann::ordered_json{
      {"name", profile.deviceName},
      {"compute_capability",
       {{"major", profile.computeCapabilityMajor}, {"minor", profile.computeCapabilityMinor}}},
      {"multiprocessors", profile.multiprocessors},
      {"copy_engines", profile.copyEngines},
      {"implicit_synchronization", profile.implicitSynchronization},
      {"pcie", profile.pcie},
      {"driver", profile.driver}};
  out["link"] = nlohmann::ordered_json{{"host_to_device", linkToJson(profile.hostToDevice)},
                                       {"device_to_host", linkToJson(profile.deviceToHost)}};
  nlohmann::ordered_json byWidth = nlohmann::ordered_json::array();
  for (const MappedWidthCost& cost : profile.mappedByWidth)
    byWidth.push_back(mappedWidthToJson(cost));
  out["mapped"] = nlohmann::ordered_json{
      {"read_seconds_per_byte", parameter(profile.mappedReadSecondsPerByte)},
      {"write_seconds_per_byte", parameter(profile.mappedWriteSecondsPerByte)},
      {"by_width", byWidth},
      {"both_ways_seconds_per_byte", parameter(profile.mappedBothWaysSecondsPerByte)}};
  out["overheads"] =
      nlohmann::ordered_json{{"kernel_launch_s", parameter(profile.kernelLaunchS)},
                             {"stream_sync_s", parameter(profile.streamSyncS)},
                             {"stream_overhead_s", parameter(profile.streamOverheadS)},
                             {"copy_call_s", parameter(profile.copyCallS)},
                             {"copy_batched_s", parameter(profile.copyBatchedS)},
                             {"graph_op_launch_s", parameter(profile.graphOpLaunchS)}};
  nlohmann::ordered_json byThreads = nlohmann::ordered_json::array();
  for (const HardwareProfile::HostCopyThreads& rate : profile.hostCopyByThreads)
    byThreads.push_back(nlohmann::ordered_json{
        {"threads", rate.threads}, {"seconds_per_byte", parameter(rate.secondsPerByte)}});
  out["host_copy"] = nlohmann::ordered_json{
      {"seconds_per_byte", parameter(profile.hostCopySecondsPerByte)},
      {"parallel_seconds_per_byte", parameter(profile.hostCopyParallelSecondsPerByte)},
      {"by_threads", byThreads},
      {"thread_piece_s", parameter(profile.hostCopyThreadPieceS)}};
  out["all_links"] = nlohmann::ordered_json{
      {"devices", profile.allLinksDevices},
      {"seconds_per_byte", parameter(profile.allLinksSecondsPerByte)},
      {"one_way_seconds_per_byte", parameter(profile.allLinksOneWaySecondsPerByte)}};
  return out.dump(2) + "\n";
}

ProfileError profileFromJson(const std::string& text, const std::string& origin,
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
  ProfileError checked = checkProfile(parsed, origin);
  if (!checked.ok())
    return checked;
  *profile = std::move(parsed);
  return {};
}

ProfileError readProfileFile(const std::string& path, HardwareProfile* profile) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return ProfileError{path, "", "cannot open the file for reading"};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    return ProfileError{path, "", "read error"};
  return profileFromJson(text.str(), path, profile);
}

ProfileError writeProfileFile(const std::string& path, const HardwareProfile& profile) {
  ProfileError checked = checkProfile(profile, path);
  if (!checked.ok())
    return checked;
  if (!writeTextFile(path, profileToJson(profile)))
    return ProfileError{path, "", "cannot write the file"};
  return {};
}

bool writeTextFile(const std::string& path, const std::string& text) {
  std::error_code ignored; // a directory that cannot be made shows as the write's failure
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty())
    std::filesystem::create_directories(parent, ignored);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  return static_cast<bool>(out);
}

std::string todayUtc() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[16];
  std::strftime(text, sizeof(text), "%Y-%m-%d", &utc);
  return text;
}

ProfileError checkProfile(const HardwareProfile& profile, const std::string& origin) {
  auto error = [&](const std::string& field, const std::string& reason) {
    return ProfileError{origin, field, reason};
  };
  if (!validName(profile.name))
    return error("name", "'" + profile.name +
                             "' is not a usable profile name (letters, digits, '.', '_', '-'; "
                             "not empty, not starting with '.')");
  if (profile.copyEngines < 0)
    return error("device.copy_engines", "negative");
  const std::pair<const char*, double> parameters[] = {
      {"link.host_to_device.latency_s", profile.hostToDevice.latencyS},
      {"link.host_to_device.seconds_per_byte", profile.hostToDevice.secondsPerByte},
      {"link.host_to_device.gap_s", profile.hostToDevice.gapS},
      {"link.host_to_device.bidirectional_seconds_per_byte",
       profile.hostToDevice.bidirectionalSecondsPerByte},
      {"link.host_to_device.pageable_seconds_per_byte",
       profile.hostToDevice.pageableSecondsPerByte},
      {"link.host_to_device.with_mapped_seconds_per_byte",
       profile.hostToDevice.withMappedSecondsPerByte},
      {"link.host_to_device.bidirectional_gap_s", profile.hostToDevice.bidirectionalGapS},
      {"link.device_to_host.latency_s", profile.deviceToHost.latencyS},
      {"link.device_to_host.seconds_per_byte", profile.deviceToHost.secondsPerByte},
      {"link.device_to_host.gap_s", profile.deviceToHost.gapS},
      {"link.device_to_host.bidirectional_seconds_per_byte",
       profile.deviceToHost.bidirectionalSecondsPerByte},
      {"link.device_to_host.pageable_seconds_per_byte",
       profile.deviceToHost.pageableSecondsPerByte},
      {"link.device_to_host.with_mapped_seconds_per_byte",
       profile.deviceToHost.withMappedSecondsPerByte},
      {"link.device_to_host.bidirectional_gap_s", profile.deviceToHost.bidirectionalGapS},
      {"link.host_to_device.bidirectional_large_piece_seconds_per_byte",
       profile.hostToDevice.bidirectionalLargePieceSecondsPerByte},
      {"link.host_to_device.bidirectional_large_piece_min_bytes",
       profile.hostToDevice.bidirectionalLargePieceMinBytes},
      {"link.device_to_host.bidirectional_large_piece_seconds_per_byte",
       profile.deviceToHost.bidirectionalLargePieceSecondsPerByte},
      {"link.device_to_host.bidirectional_large_piece_min_bytes",
       profile.deviceToHost.bidirectionalLargePieceMinBytes},
      {"mapped.read_seconds_per_byte", profile.mappedReadSecondsPerByte},
      {"mapped.write_seconds_per_byte", profile.mappedWriteSecondsPerByte},
      {"mapped.both_ways_seconds_per_byte", profile.mappedBothWaysSecondsPerByte},
      {"overheads.kernel_launch_s", profile.kernelLaunchS},
      {"overheads.stream_sync_s", profile.streamSyncS},
      {"overheads.stream_overhead_s", profile.streamOverheadS},
      {"overheads.copy_call_s", profile.copyCallS},
      {"overheads.copy_batched_s", profile.copyBatchedS},
      {"overheads.graph_op_launch_s", profile.graphOpLaunchS},
      {"host_copy.seconds_per_byte", profile.hostCopySecondsPerByte},
      {"host_copy.parallel_seconds_per_byte", profile.hostCopyParallelSecondsPerByte},
      {"host_copy.thread_piece_s", profile.hostCopyThreadPieceS},
      {"all_links.seconds_per_byte", profile.allLinksSecondsPerByte},
      {"all_links.one_way_seconds_per_byte", profile.allLinksOneWaySecondsPerByte}};
  for (const auto& [field, value] : parameters)
    if (!std::isfinite(value) || value < 0)
      return error(field, "must be a finite non-negative number (0 for not known), is " +
                              std::to_string(value));
  const std::pair<const char*, const LinkDirection*> links[] = {
      {"link.host_to_device", &profile.hostToDevice},
      {"link.device_to_host", &profile.deviceToHost}};
  for (const auto& [field, link] : links) {
    if ((link->bidirectionalLargePieceSecondsPerByte > 0) !=
        (link->bidirectionalLargePieceMinBytes > 0))
      return error(std::string(field) + ".bidirectional_large_piece_min_bytes",
                   "the G of large pieces and where they start are known together or not at all");
    if (link->bidirectionalLargePieceSecondsPerByte > 0 && !(link->bidirectionalSecondsPerByte > 0))
      return error(std::string(field) + ".bidirectional_large_piece_seconds_per_byte",
                   "known without bidirectional_seconds_per_byte, the G of the smaller pieces");
  }
  if ((profile.allLinksSecondsPerByte > 0) != (profile.allLinksDevices >= 2) ||
      profile.allLinksDevices < 0)
    return error("all_links.devices",
                 "two or more devices where all_links.seconds_per_byte is known, else 0; is " +
                     std::to_string(profile.allLinksDevices));
  if (profile.allLinksOneWaySecondsPerByte > 0 && !(profile.allLinksSecondsPerByte > 0))
    return error("all_links.one_way_seconds_per_byte",
                 "known without all_links.seconds_per_byte, the links both ways");
  for (std::size_t i = 0; i < profile.hostCopyByThreads.size(); ++i) {
    const HardwareProfile::HostCopyThreads& rate = profile.hostCopyByThreads[i];
    const std::string field = "host_copy.by_threads[" + std::to_string(i) + "]";
    if (rate.threads < 1 || (i > 0 && rate.threads <= profile.hostCopyByThreads[i - 1].threads))
      return error(field + ".threads",
                   "must be ascending from 1 without repeats, is " + std::to_string(rate.threads));
    if (!std::isfinite(rate.secondsPerByte) || !(rate.secondsPerByte > 0))
      return error(field + ".seconds_per_byte",
                   "must be a finite positive number, is " + std::to_string(rate.secondsPerByte));
  }
  for (std::size_t i = 0; i < profile.mappedByWidth.size(); ++i) {
    const MappedWidthCost& cost = profile.mappedByWidth[i];
    const std::string field = "mapped.by_width[" + std::to_string(i) + "]";
    if (!isMappedElementWidth(cost.elementBytes))
      return error(field + ".element_bytes",
                   "must be 1, 2, 4, 8 or 16, is " + std::to_string(cost.elementBytes));
    if (i > 0 && cost.elementBytes <= profile.mappedByWidth[i - 1].elementBytes)
      return error(
          field + ".element_bytes",
          "widths must be ascending without repeats: " + std::to_string(cost.elementBytes) +
              " follows " + std::to_string(profile.mappedByWidth[i - 1].elementBytes));
    const std::pair<const char*, double> costs[] = {
        {"read_seconds_per_byte", cost.readSecondsPerByte},
        {"write_seconds_per_byte", cost.writeSecondsPerByte}};
    for (const auto& [key, value] : costs)
      if (!std::isfinite(value) || value < 0)
        return error(field + "." + key,
                     "must be a finite non-negative number (0 for not known), is " +
                         std::to_string(value));
  }
  return {};
}

} // namespace overlap
