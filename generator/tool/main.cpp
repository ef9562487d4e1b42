// overlap-gen: generates the host-code variants of OVERLAP_KERNEL-annotated CUDA kernels.
#include "frontend/ToolDriver.h"

int main(int argc, char** argv) {
  return overlap::frontend::overlapGenMain(argc, argv);
}
