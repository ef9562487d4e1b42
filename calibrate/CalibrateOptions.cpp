#include "CalibrateOptions.h"

#include <cctype>
#include <cstdlib>

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
  CalibrateOptions o;
  bool modeSet = false;
  auto setMode = [&](CalibrateMode mode, const std::string& flag) {
    if (modeSet && o.mode != mode) {
      *error = flag + " cannot be combined with another mode option";
      return false;
    }
    o.mode = mode;
    modeSet = true;
    return true;
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    // Options that take a value; the value is the next argument.
    auto value = [&](std::string* out) {
      if (i + 1 >= args.size() || args[i + 1].empty()) {
        *error = arg + " needs a value";
        return false;
      }
      *out = args[++i];
      return true;
    };
    std::string text;
    if (arg == "--help" || arg == "-h") {
      if (!setMode(CalibrateMode::Help, arg))
        return false;
    } else if (arg == "--device") {
      if (!value(&text))
        return false;
      if (!parseInt(text, 0, 1023, &o.device)) {
        *error = "--device: '" + text + "' is not a device number";
        return false;
      }
    } else if (arg == "--repeats") {
      if (!value(&text))
        return false;
      if (!parseInt(text, 1, 1000, &o.repeats)) {
        *error = "--repeats: '" + text + "' is not a number from 1 to 1000";
        return false;
      }
    } else if (arg == "--name") {
      if (!value(&o.name))
        return false;
    } else if (arg == "--output" || arg == "-o") {
      if (!value(&o.output))
        return false;
    } else if (arg == "--raw") {
      if (!value(&o.rawOutput))
        return false;
    } else if (arg == "--markdown") {
      if (!value(&o.markdown))
        return false;
    } else if (arg == "--json") {
      if (!value(&o.json))
        return false;
    } else if (arg == "--quick") {
      o.quick = true;
    } else if (arg == "--force") {
      o.force = true;
    } else if (arg == "--accuracy") {
      o.accuracy = true;
    } else if (arg == "--no-ungated") {
      o.ungated = false;
    } else if (arg == "--profile") {
      if (!value(&o.profile) || !setMode(CalibrateMode::Accuracy, arg))
        return false;
    } else if (arg == "--from-raw") {
      if (!value(&o.fromRaw) || !setMode(CalibrateMode::FromRaw, arg))
        return false;
    } else if (arg == "--show") {
      if (!value(&o.show) || !setMode(CalibrateMode::Show, arg))
        return false;
    } else if (arg == "--list") {
      if (!setMode(CalibrateMode::List, arg))
        return false;
    } else if (arg == "--describe") {
      if (!setMode(CalibrateMode::Describe, arg))
        return false;
    } else {
      *error = "unknown option '" + arg + "' (see --help)";
      return false;
    }
  }
  if (o.mode == CalibrateMode::Accuracy)
    o.accuracy = true;
  if ((!o.markdown.empty() || !o.json.empty()) && !o.accuracy) {
    *error = "--markdown and --json write the accuracy table: add --accuracy or --profile";
    return false;
  }
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
         "  --raw FILE        also write every raw measurement (JSON; see --from-raw)\n"
         "  --quick           a short plan with rougher numbers (smoke tests)\n"
         "  --repeats N       repeats per measured point (default 7, quick 3); the points\n"
         "                    against a busy link take at least 31 (quick 3)\n"
         "  --force           write the profile even when a fit is poor (the notes say so)\n"
         "  --accuracy        then check the model L+o + kG + g(n-1) against measured times\n"
         "check a profile:\n"
         "  --profile NAME|FILE  check this profile on the GPU instead of calibrating\n"
         "  --markdown FILE, --json FILE  write the accuracy table\n"
         "  --no-ungated      skip the ungated repeat of each point\n"
         "no GPU needed:\n"
         "  --from-raw FILE   fit recorded measurements and write a profile\n"
         "  --list            list the profiles (user directories, then built-in)\n"
         "  --show NAME|FILE  print a profile\n"
         "  --describe        print the device description (needs the GPU)\n"
         "User profile directories: $OVERLAP_PROFILE_PATH (':'-separated), else\n"
         "$XDG_CONFIG_HOME/overlap/profiles, else ~/.config/overlap/profiles.\n";
}

std::string defaultProfileName(const std::string& deviceName, const std::string& pcie) {
  std::string name;
  for (const std::string& part : {deviceName, pcie}) {
    for (char c : part) {
      const unsigned char u = static_cast<unsigned char>(c);
      if (std::isalnum(u))
        name += static_cast<char>(std::tolower(u));
      else if (!name.empty() && name.back() != '-')
        name += '-';
    }
    if (!name.empty() && name.back() != '-')
      name += '-';
  }
  while (!name.empty() && name.back() == '-')
    name.pop_back();
  return name.empty() ? std::string("gpu") : name;
}

} // namespace overlap::calibration
