// The overlap-model command line: parses the options, finds the profile, predicts, prints the
// table. Kept out of main() so it is tested in-process.
#pragma once

#include "model/candidate_set.h"
#include "model/modern_model.h"
#include "model/workload.h"

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
  bool list_profiles = false;
  bool help = false;
};

struct ModelCliParse {
  std::optional<ModelCliOptions> options;
  std::string error; // set when options is empty
};

// `args` without the program name.
ModelCliParse parse_model_cli(const std::vector<std::string>& args);

// "268435456", "256MiB", "1.5GB" (decimal units KB MB GB TB, binary KiB MiB GiB TiB); nullopt for
// anything else, negative sizes included.
std::optional<double> parse_byte_size(const std::string& text);

std::string model_cli_usage();

// Runs the tool: prints the prediction table to `out`, errors to `err`; returns the exit status
// (0 success, 1 bad profile or workload, 2 bad command line).
int run_model_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace overlap::model
