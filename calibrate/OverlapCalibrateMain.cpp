// overlap-calibrate: see calibrateUsage() or --help.
#include "CalibrateCommand.h"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  overlap::calibration::CalibrateOptions options;
  std::string error;
  if (!overlap::calibration::parseCalibrateOptions(args, &options, &error)) {
    std::cerr << "overlap-calibrate: " << error << "\n";
    return 1;
  }
  return overlap::calibration::runCalibrateCommand(options, std::cout, std::cerr);
}
