#include "overlap/dispatch.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

namespace overlap {
namespace {

struct Registry {
  std::mutex mutex;
  std::vector<BakedChoice> baked;
  ModelChooser model = nullptr;
  std::map<const KernelDescriptor*, VariantChoice> last_choice;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

std::string lower(std::string text) {
  for (char& c : text)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// "streams:16:breadth-first" and the like.
bool parse_config(const std::string& text, RunConfig* config, std::string* error) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ':');)
    parts.push_back(lower(part));
  RunConfig out;
  const std::string& name = parts.empty() ? text : parts[0];
  if (name == "explicit")
    out.variant = Variant::Explicit;
  else if (name == "mapped")
    out.variant = Variant::Mapped;
  else if (name == "streams")
    out.variant = Variant::Streams;
  else if (name == "hybrid")
    out.variant = Variant::Hybrid;
  else {
    *error = "unknown variant \"" + text + "\"";
    return false;
  }
  const bool streamed = out.variant == Variant::Streams || out.variant == Variant::Hybrid;
  if (parts.size() > (streamed ? 3u : 1u)) {
    *error = "too many fields in \"" + text + "\"";
    return false;
  }
  if (parts.size() >= 2) {
    char* end = nullptr;
    const long streams = std::strtol(parts[1].c_str(), &end, 10);
    if (parts[1].empty() || *end != '\0' || streams < 1 || streams > 1024) {
      *error = "stream count \"" + parts[1] + "\" is not in 1..1024";
      return false;
    }
    out.streams.streams = static_cast<int>(streams);
  }
  if (parts.size() == 3) {
    if (parts[2] == "depth-first")
      out.streams.order = IssueOrder::DepthFirst;
    else if (parts[2] == "breadth-first")
      out.streams.order = IssueOrder::BreadthFirst;
    else {
      *error = "issue order \"" + parts[2] + "\" is neither depth-first nor breadth-first";
      return false;
    }
  }
  *config = out;
  return true;
}

std::string current_device_name() {
  int device = 0;
  cudaDeviceProp properties{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&properties, device) != cudaSuccess) {
    cudaGetLastError(); // no device: the call itself will report it
    return "";
  }
  return properties.name;
}

} // namespace

bool register_baked_choices(const BakedChoice* choices, int count) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  registry().baked.insert(registry().baked.end(), choices, choices + count);
  return true;
}

bool set_model_chooser(ModelChooser chooser) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  registry().model = chooser;
  return true;
}

const char* to_string(ChoiceSource source) {
  switch (source) {
  case ChoiceSource::Environment:
    return "environment";
  case ChoiceSource::Baked:
    return "tuning results";
  case ChoiceSource::Model:
    return "model";
  case ChoiceSource::Default:
    return "default";
  }
  return "?";
}

bool parse_variant_override(const std::string& text, const std::string& kernel, bool* found,
                            RunConfig* config, std::string* error) {
  *found = false;
  if (text.find('=') == std::string::npos) {
    *found = parse_config(text, config, error);
    return *found;
  }
  std::stringstream in(text);
  for (std::string entry; std::getline(in, entry, ',');) {
    const std::size_t equals = entry.find('=');
    if (equals == std::string::npos) {
      *error = "\"" + entry + "\" is not KERNEL=VARIANT";
      return false;
    }
    if (entry.substr(0, equals) != kernel)
      continue;
    if (!parse_config(entry.substr(equals + 1), config, error))
      return false;
    *found = true;
  }
  return true;
}

VariantChoice choose_variant(const KernelDescriptor& kernel, ArgPointers args,
                             const std::string& device_name) {
  VariantChoice choice;
  std::string problem;
  if (const char* value = std::getenv("OVERLAP_VARIANT")) {
    bool found = false;
    RunConfig config;
    if (parse_variant_override(value, kernel.name, &found, &config, &problem)) {
      if (found) {
        choice.config = config;
        choice.source = ChoiceSource::Environment;
        choice.reason = std::string("OVERLAP_VARIANT=") + value;
        return choice;
      }
    } else {
      problem = std::string("OVERLAP_VARIANT ignored: ") + problem + "; ";
    }
  }
  ModelChooser model = nullptr;
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
    for (const BakedChoice& baked : registry().baked)
      if (kernel.name == std::string(baked.kernel) && device_name == baked.device) {
        choice.config.variant = baked.variant;
        choice.config.streams = StreamsConfig{baked.streams, baked.order};
        choice.source = ChoiceSource::Baked;
        choice.reason = problem + "tuned on " + device_name;
        return choice;
      }
    model = registry().model;
  }
  std::string why;
  if (model && model(kernel, args, device_name, &choice.config, &why)) {
    choice.source = ChoiceSource::Model;
    choice.reason = problem + "no tuning results for this device; " + why;
    return choice;
  }
  choice.config = RunConfig{};
  choice.reason = problem + "no tuning results and no model: Explicit";
  return choice;
}

Status dispatch(const KernelDescriptor& kernel, ArgPointers args) {
  const VariantChoice choice = choose_variant(kernel, args, current_device_name());
  const char* log = std::getenv("OVERLAP_DISPATCH_LOG");
  if (log && std::strcmp(log, "0") != 0)
    std::fprintf(stderr, "overlap: %s -> variant %d, %d streams (%s: %s)\n", kernel.name,
                 static_cast<int>(choice.config.variant), choice.config.streams.streams,
                 to_string(choice.source), choice.reason.c_str());
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
    registry().last_choice[&kernel] = choice;
  }
  return kernel.run(args, choice.config);
}

std::optional<VariantChoice> last_dispatch_choice(const KernelDescriptor& kernel) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  const auto found = registry().last_choice.find(&kernel);
  if (found == registry().last_choice.end())
    return std::nullopt;
  return found->second;
}

} // namespace overlap
