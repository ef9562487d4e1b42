// The tuner's main, linked by overlap_tune() into a per-project executable together with the
// project's generated kernels, which register themselves (overlap/Descriptor.h).
#include "tune/TuneCommand.h"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return overlap::tune::runTuneTool(args, std::cout, std::cerr);
}
