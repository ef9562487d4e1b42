// overlap-bake: the tuning-results file as the dispatch table's source (BakeCommand.h).
#include "tune/BakeCommand.h"

#include <iostream>

int main(int argc, char** argv) {
  return overlap::tune::runBakeCommand(std::vector<std::string>(argv + 1, argv + argc), std::cout,
                                       std::cerr);
}
