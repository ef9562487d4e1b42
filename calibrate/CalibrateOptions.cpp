#include "CalibrateCommand.h"

#include <cctype>
#include <cstdlib>
#include <map>

namespace overlap::calibration {

namespace {

bool parseInt(const std::string& text, int low, int high, int* value) {
  if (text.empty())
    return false;
  char* end = nullptr;
  const long parsed = std::strtol(text.c_str(), &end, 10);
  if (*end != '\0' || parsed < low || parsed > high)
    return false;
  *value = static_cast<int>(parsed);
  return true;
}

} // namespace

bool parseCalibrateOptions(const std::vector<std::string>& args, CalibrateOptions* options,
                           std::string* error) {
  using O = CalibrateOptions;
  // Options that take a value, the next argument: texts, numbers in a range.
  const std::map<std::string, std::string O::*> texts = {
      {"--name", &O::name},         {"--output", &O::output}, {"-o", &O::output},
      {"--markdown", &O::markdown}, {"--json", &O::json},     {"--profile", &O::profile}};
  struct Number {
    int O::* field;
    int low;
    int high;
    const char* what;
  };
  const std::map<std::string, Number> numbers = {
      {"--device", {&O::device, 0, 1023, "a device number"}},
      {"--repeats", {&O::repeats, 1, 1000, "a number from 1 to 1000"}}};
  const std::map<std::string, bool O::*> switches = {
      {"--quick", &O::quick}, {"--force", &O::force}, {"--accuracy", &O::accuracy}};
  CalibrateOptions o;
  auto refuse = [error](const std::string& why) {
    *error = why;
    return false;
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const auto text = texts.find(arg);
    const auto number = numbers.find(arg);
    const auto on = switches.find(arg);
    const bool help = arg == "--help" || arg == "-h";
    const bool takesValue = text != texts.end() || number != numbers.end();
    if (takesValue && (i + 1 >= args.size() || args[i + 1].empty()))
      return refuse(arg + " needs a value");
    const std::string value = takesValue ? args[++i] : "";
    // The modes besides calibrating: --profile checks a profile, --help prints the usage.
    if (help || arg == "--profile") {
      const CalibrateMode mode = help ? CalibrateMode::Help : CalibrateMode::Accuracy;
      if (o.mode != CalibrateMode::Calibrate && o.mode != mode)
        return refuse(arg + " cannot be combined with another mode option");
      o.mode = mode;
    }
    if (text != texts.end()) {
      o.*(text->second) = value;
    } else if (number != numbers.end()) {
      const Number& n = number->second;
      if (!parseInt(value, n.low, n.high, &(o.*(n.field))))
        return refuse(arg + ": '" + value + "' is not " + n.what);
    } else if (on != switches.end()) {
      o.*(on->second) = true;
    } else if (!help) {
      return refuse("unknown option '" + arg + "' (see --help)");
    }
  }
  if (o.mode == CalibrateMode::Accuracy)
    o.accuracy = true;
  if ((!o.markdown.empty() || !o.json.empty()) && !o.accuracy)
    return refuse("--markdown and --json write the accuracy table: add --accuracy or --profile");
  *options = o;
  return true;
}

std::string calibrateUsage() {
  return "usage: overlap-calibrate [options]\n"
         "Measures the host-device link of a GPU the way paper 001 section V does and writes a\n"
         "hardware profile for the Overlap model.\n"
         "\n"
         "calibrate (the default):\n"
         "  --device N        CUDA device (default 0)\n"
         "  --name NAME       profile name (default: from the device name and PCIe link)\n"
         "  --output FILE     profile file (default: <user profile directory>/<NAME>.json)\n"
         "  --quick           a short plan with rougher numbers (smoke tests)\n"
         "  --repeats N       repeats per measured point (default 7, quick 3); the points\n"
         "                    against a busy link take at least 31 (quick 3)\n"
         "  --force           write the profile even when a fit is poor (the notes say so)\n"
         "  --accuracy        then check the model L+o + kG + g(n-1) against measured times\n"
         "check a profile:\n"
         "  --profile NAME|FILE  check this profile on the GPU instead of calibrating\n"
         "  --markdown FILE, --json FILE  write the accuracy table\n"
         "Listing and printing profiles: overlap-model --list-profiles, --show-profile NAME.\n"
         "User profile directories: $OVERLAP_PROFILE_PATH (':'-separated), else\n"
         "$XDG_CONFIG_HOME/overlap/profiles, else ~/.config/overlap/profiles.\n";
}

std::string defaultProfileName(const std::string& deviceName, const std::string& pcie) {
  std::string name;
  for (char c : deviceName + " " + pcie) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u))
      name += static_cast<char>(std::tolower(u));
    else if (!name.empty() && name.back() != '-')
      name += '-';
  }
  while (!name.empty() && name.back() == '-')
    name.pop_back();
  return name.empty() ? std::string("gpu") : name;
}

} // namespace overlap::calibration
