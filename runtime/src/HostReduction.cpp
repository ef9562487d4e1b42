#include "overlap/HostReduction.h"

#include <cassert>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace overlap {
namespace {

template <class T> T applied(ReduceOp op, T a, T b) {
  // Integers wrap as the device's atomics do: computed unsigned, 64 bits wide (no promotion to
  // int that could overflow).
  using Wide = std::conditional_t<std::is_integral_v<T>, std::uint64_t, T>;
  switch (op) {
  case ReduceOp::Sum:
    return static_cast<T>(static_cast<Wide>(a) + static_cast<Wide>(b));
  case ReduceOp::Product:
    return static_cast<T>(static_cast<Wide>(a) * static_cast<Wide>(b));
  case ReduceOp::Min:
    return b < a ? b : a;
  case ReduceOp::Max:
    return a < b ? b : a;
  default:
    break;
  }
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
    case ReduceOp::BitAnd:
      return static_cast<T>(a & b);
    case ReduceOp::BitOr:
      return static_cast<T>(a | b);
    case ReduceOp::BitXor:
      return static_cast<T>(a ^ b);
    default:
      break;
    }
  }
  assert(false && "combinePartial: an operator hostCombinable refuses");
  return a;
}

// Lanes are read and written through memcpy: the caller's array need not be aligned for T.
template <class T> void combineLanes(ReduceOp op, void* into, const void* from, std::size_t bytes) {
  auto* out = static_cast<unsigned char*>(into);
  const auto* in = static_cast<const unsigned char*>(from);
  for (std::size_t offset = 0; offset + sizeof(T) <= bytes; offset += sizeof(T)) {
    T a, b;
    std::memcpy(&a, out + offset, sizeof(T));
    std::memcpy(&b, in + offset, sizeof(T));
    a = applied(op, a, b);
    std::memcpy(out + offset, &a, sizeof(T));
  }
}

template <class T> void fillOnes(void* partial, std::size_t bytes) {
  const T one = static_cast<T>(1);
  auto* out = static_cast<unsigned char*>(partial);
  for (std::size_t offset = 0; offset + sizeof(T) <= bytes; offset += sizeof(T))
    std::memcpy(out + offset, &one, sizeof(T));
}

// Calls f.template operator()<T>() with T the C++ type of `kind` (not F16, BF16 or Other).
template <class F> void withLaneType(ElementKind kind, F&& f) {
  switch (kind) {
  case ElementKind::F32:
    return f(float{});
  case ElementKind::F64:
    return f(double{});
  case ElementKind::I8:
    return f(std::int8_t{});
  case ElementKind::U8:
    return f(std::uint8_t{});
  case ElementKind::I16:
    return f(std::int16_t{});
  case ElementKind::U16:
    return f(std::uint16_t{});
  case ElementKind::I32:
    return f(std::int32_t{});
  case ElementKind::U32:
    return f(std::uint32_t{});
  case ElementKind::I64:
    return f(std::int64_t{});
  case ElementKind::U64:
    return f(std::uint64_t{});
  default:
    assert(false && "a lane kind hostCombinable refuses");
  }
}

} // namespace

void startPartial(ReduceOp op, ElementKind kind, const void* initial, void* partial,
                  std::size_t bytes) {
  switch (op) {
  case ReduceOp::Sum:
  case ReduceOp::BitXor:
    std::memset(partial, 0, bytes);
    return;
  case ReduceOp::Product:
    withLaneType(kind, [&](auto lane) { fillOnes<decltype(lane)>(partial, bytes); });
    return;
  default:
    std::memcpy(partial, initial, bytes);
    return;
  }
}

void combinePartial(ReduceOp op, ElementKind kind, void* into, const void* from,
                    std::size_t bytes) {
  withLaneType(kind, [&](auto lane) { combineLanes<decltype(lane)>(op, into, from, bytes); });
}

} // namespace overlap
