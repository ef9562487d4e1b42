// The partial results of a reduction array combined on the host: a call split across GPUs
// (templates/overlap/detail/MultiDevice.cuh) gives every device but the first a partial copy of
// each reduction array, and adds them into the caller's array once every device is done. CUDA-free.
#pragma once

#include "overlap/KernelTypes.h"

#include <cstddef>

namespace overlap {

// Whether partial results of `op` over elements of `elementSize` bytes, made of lanes of `kind`,
// can be combined on the host: arithmetic (Sum, Product, Min, Max) over 32- and 64-bit floats and
// every integer kind, bitwise operators over integers. Not: half-precision floats (the host would
// round differently from the device's atomics) and elements of other types.
inline bool hostCombinable(ReduceOp op, ElementKind kind, std::size_t elementSize) {
  if (op == ReduceOp::None || laneCount(kind, elementSize) == 0)
    return false;
  switch (op) {
  case ReduceOp::BitAnd:
  case ReduceOp::BitOr:
  case ReduceOp::BitXor:
    return isInteger(kind);
  default:
    return kind != ElementKind::F16 && kind != ElementKind::BF16;
  }
}

// Fills `partial` (`bytes`, whole elements) with what one more device's partial result starts
// from, so that combining it with the caller's result counts the caller's initial contents once:
// `op`'s identity (Sum, BitXor: zeros; Product: ones), or for the operators that may see a value
// twice (Min, Max, BitAnd, BitOr) the initial contents `initial`. Requires hostCombinable.
void startPartial(ReduceOp op, ElementKind kind, const void* initial, void* partial,
                  std::size_t bytes);

// into[i] = op(into[i], from[i]) for every lane of `bytes` (whole elements). Requires
// hostCombinable.
void combinePartial(ReduceOp op, ElementKind kind, void* into, const void* from, std::size_t bytes);

} // namespace overlap
