// The command line of overlap-calibrate: its options, parsed without CUDA so they are tested
// anywhere (CalibrateOptions.cpp), and what each mode does (CalibrateCommand.cpp), writing to the
// given streams so that tests capture it. The executable's main only parses and calls it.
#pragma once

#include "ProfileEstimator.h"

#include <ostream>
#include <string>
#include <vector>

namespace overlap::calibration {

enum class CalibrateMode : unsigned char {
  Calibrate, // measure, fit, write a profile (and optionally check its accuracy)
  Accuracy,  // check an existing profile's accuracy on this GPU (--profile)
  Help,
};

struct CalibrateOptions {
  CalibrateMode mode = CalibrateMode::Calibrate;
  int device = 0;
  std::string name;    // of the profile; empty: derived from the device and link
  std::string output;  // profile file; empty: <first user profile directory>/<name>.json
  std::string profile; // for Accuracy
  bool quick = false;
  bool force = false;    // write a profile despite poor fits (its notes say so)
  bool accuracy = false; // Calibrate: check the new profile's accuracy afterwards
  int repeats = 0;       // 0: the plan's own
  std::string markdown;  // accuracy table files; empty: printed only
  std::string json;
};

// `args` without the program name. False with `error` set on a malformed command line.
bool parseCalibrateOptions(const std::vector<std::string>& args, CalibrateOptions* options,
                           std::string* error);

std::string calibrateUsage();

// "NVIDIA H100 80GB HBM3" and "Gen5 x16" give "nvidia-h100-80gb-hbm3-gen5-x16", a file name too.
std::string defaultProfileName(const std::string& deviceName, const std::string& pcie);

// Exit codes: 0 done; 1 an error (CUDA, file, bad input); 2 the profile was refused because of
// a poor fit (nothing written); 3 the accuracy check missed a target.
int runCalibrateCommand(const CalibrateOptions& options, std::ostream& out, std::ostream& log);

// Prints the fits and names the profile (options.name, else after its device); writes it to
// options.output, else the first user profile directory, unless a fit is poor and options.force
// is not set (its notes then say so). Returns an exit code.
int writeProfile(const CalibrateOptions& options, ProfileEstimate& estimate, std::ostream& out,
                 std::ostream& log);

} // namespace overlap::calibration
