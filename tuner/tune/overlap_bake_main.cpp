// overlap-bake: the tuning-results file as the dispatch table's source (bake_command.h).
#include "tune/bake_command.h"

#include <iostream>

int main(int argc, char** argv) {
  return overlap::tune::run_bake_command(std::vector<std::string>(argv + 1, argv + argc), std::cout,
                                         std::cerr);
}
