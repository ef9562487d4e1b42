// overlap-calibrate: see calibrate_usage() or --help.
#include "calibrate_command.h"
#include "calibrate_options.h"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  overlap::calibration::CalibrateOptions options;
  std::string error;
  if (!overlap::calibration::parse_calibrate_options(args, &options, &error)) {
    std::cerr << "overlap-calibrate: " << error << "\n";
    return 1;
  }
  return overlap::calibration::run_calibrate_command(options, std::cout, std::cerr);
}
