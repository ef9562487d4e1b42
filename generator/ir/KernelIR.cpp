#include "ir/KernelIR.h"

namespace overlap::ir {

const Array* findArray(const Kernel& kernel, int param) {
  for (const Array& array : kernel.arrays)
    if (array.param == param)
      return &array;
  return nullptr;
}

bool isCallerParam(const Kernel& kernel, int param) {
  if (kernel.mode != ChunkMode::Range || kernel.boundsFromCaller)
    return true;
  return param != kernel.beginParam && param != kernel.endParam;
}

const char* reduceOpName(ReduceOp op) {
  switch (op) {
  case ReduceOp::None:
    return "None";
  case ReduceOp::Sum:
    return "Sum";
  case ReduceOp::Product:
    return "Product";
  case ReduceOp::Min:
    return "Min";
  case ReduceOp::Max:
    return "Max";
  case ReduceOp::BitAnd:
    return "BitAnd";
  case ReduceOp::BitOr:
    return "BitOr";
  case ReduceOp::BitXor:
    return "BitXor";
  }
  return "None";
}

const char* elementKindName(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return "F32";
  case ElementKind::F64:
    return "F64";
  case ElementKind::I8:
    return "I8";
  case ElementKind::U8:
    return "U8";
  case ElementKind::I16:
    return "I16";
  case ElementKind::U16:
    return "U16";
  case ElementKind::I32:
    return "I32";
  case ElementKind::U32:
    return "U32";
  case ElementKind::I64:
    return "I64";
  case ElementKind::U64:
    return "U64";
  case ElementKind::F16:
    return "F16";
  case ElementKind::BF16:
    return "BF16";
  case ElementKind::Other:
    return "Other";
  }
  return "Other";
}

} // namespace overlap::ir
