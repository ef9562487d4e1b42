#include "ir/KernelIR.h"

namespace overlap::ir {

const Array* findArray(const Kernel& kernel, int param) {
  for (const Array& array : kernel.arrays)
    if (array.param == param)
      return &array;
  return nullptr;
}

} // namespace overlap::ir
