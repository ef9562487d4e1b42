// overlap-model: prints the predicted time of every candidate of one call on a hardware profile,
// with no GPU (see ModelCli.h).
#include "model/ModelCli.h"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return overlap::model::runModelCli(args, std::cout, std::cerr);
}
