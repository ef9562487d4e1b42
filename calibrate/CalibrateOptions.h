// The command line of overlap-calibrate, parsed without CUDA so it is unit-tested anywhere.
#pragma once

#include <string>
#include <vector>

namespace overlap::calibration {

enum class CalibrateMode : unsigned char {
  Calibrate, // measure, fit, write a profile (and optionally check its accuracy)
  Accuracy,  // check an existing profile's accuracy on this GPU (--profile)
  FromRaw,   // fit recorded measurements, no GPU (--from-raw)
  List,      // list the profiles a user can pick (--list)
  Show,      // print one profile (--show)
  Describe,  // print the device description (--describe)
  Help,
};

struct CalibrateOptions {
  CalibrateMode mode = CalibrateMode::Calibrate;
  int device = 0;
  std::string name;      // of the profile; empty: derived from the device and link
  std::string output;    // profile file; empty: <first user profile directory>/<name>.json
  std::string rawOutput; // raw measurements file; empty: not written
  std::string fromRaw;
  std::string show;
  std::string profile; // for Accuracy
  bool quick = false;
  bool force = false;    // write a profile despite poor fits (its notes say so)
  bool accuracy = false; // Calibrate: check the new profile's accuracy afterwards
  bool ungated = true;   // accuracy: also time without holding the device back
  int repeats = 0;       // 0: the plan's own
  std::string markdown;  // accuracy table files; empty: printed only
  std::string json;
};

// `args` without the program name. False with `error` set on a malformed command line.
bool parseCalibrateOptions(const std::vector<std::string>& args, CalibrateOptions* options,
                           std::string* error);

std::string calibrateUsage();

// "NVIDIA H100 80GB HBM3" and "Gen5 x16" give "nvidia-h100-80gb-hbm3-gen5-x16": a file name and
// a profile name at once.
std::string defaultProfileName(const std::string& deviceName, const std::string& pcie);

} // namespace overlap::calibration
