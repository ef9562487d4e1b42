// The overlap-model command line: parses the options, finds the profile, predicts, prints the
// table. Kept out of main() so it is tested in-process.
#pragma once

#include "model/CandidateSet.h"
#include "model/ModernModel.h"
#include "model/Workload.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace overlap::model {

struct ModelCliOptions {
  std::string profile; // a built-in or user profile name, or a JSON file
  Workload workload;
  SearchOptions search;
  ModelKind model = ModelKind::Modern;
  ModernModelOptions modern;
  bool listProfiles = false;
  std::string showProfile; // print this profile's JSON instead of predicting
  bool help = false;
};

struct ModelCliParse {
  std::optional<ModelCliOptions> options;
  std::string error; // set when options is empty
};

// `args` without the program name.
ModelCliParse parseModelCli(const std::vector<std::string>& args);

// "268435456", "256MiB", "1.5GB" (decimal units KB MB GB TB, binary KiB MiB GiB TiB); nullopt for
// anything else, negative sizes included.
std::optional<double> parseByteSize(const std::string& text);

std::string modelCliUsage();

// Runs the tool: prints the prediction table to `out`, errors to `err`; returns the exit status
// (0 success, 1 bad profile or workload, 2 bad command line).
int runModelCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace overlap::model
