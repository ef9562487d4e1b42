// The argument array the tuner builds from a descriptor: which parameters take a value, from the
// tune(...) defaults or --arg, and which the generated code sets. No GPU needed.
#include "tune/ArgumentSlots.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace overlap::tune {
namespace {

// stencil(int iy_start, int iy_end, int row_begin, int row_end, const float* in, float* out,
// __half bias) in range mode over rows [iy_start, iy_end), plus the host-only param(nx) and
// param(scale: float).
const ParamDescriptor kParams[] = {
    {"iy_start", "int", false, ElementKind::I32, 4, -1, ParamRole::PartitionBegin},
    {"iy_end", "int", false, ElementKind::I32, 4, -1, ParamRole::PartitionEnd},
    {"row_begin", "int", false, ElementKind::I32, 4, -1, ParamRole::ChunkBegin},
    {"row_end", "int", false, ElementKind::I32, 4, -1, ParamRole::ChunkEnd},
    {"in", "const float *", true, ElementKind::F32, 4, 0, ParamRole::Array},
    {"out", "float *", true, ElementKind::F32, 4, 1, ParamRole::Array},
    {"bias", "__half", false, ElementKind::F16, 2, -1, ParamRole::Scalar},
    {"nx", "long long", false, ElementKind::I64, 8, -1, ParamRole::HostOnly},
    {"scale", "float", false, ElementKind::F32, 4, -1, ParamRole::HostOnly},
};
const TuneDefault kDefaults[] = {{0, 1}, {1, 1023}, {7, 4096}};

KernelDescriptor stencilDescriptor() {
  KernelDescriptor descriptor{};
  descriptor.name = "stencil";
  descriptor.paramCount = 9;
  descriptor.params = kParams;
  descriptor.tuneDefaultCount = 3;
  descriptor.tuneDefaults = kDefaults;
  return descriptor;
}

template <class T> T valueOf(const ArgumentSlots& slots, int param) {
  T value{};
  std::memcpy(&value, slots.pointers()[param], sizeof value);
  return value;
}

TEST(ArgumentSlots, PartitionBoundsAndHostOnlyParametersTakeTheirDefaults) {
  const KernelDescriptor descriptor = stencilDescriptor();
  std::vector<std::string> unknown;
  const std::map<std::string, long long> arguments =
      tuningArguments(descriptor, {{"iy_end", 511}}, &unknown);
  EXPECT_TRUE(unknown.empty());
  ArgumentSlots slots;
  RandomBits bits(1);
  std::string error;
  ASSERT_TRUE(slots.fill(descriptor, arguments, bits, &error)) << error;
  EXPECT_EQ(valueOf<std::int32_t>(slots, 0), 1);
  EXPECT_EQ(valueOf<std::int32_t>(slots, 1), 511); // given, over the default
  EXPECT_EQ(valueOf<std::int32_t>(slots, 2), 0);   // set per chunk by the generated code
  EXPECT_EQ(valueOf<std::int64_t>(slots, 7), 4096);
  const float scale = valueOf<float>(slots, 8); // random, as floating-point scalars are
  EXPECT_GE(std::abs(scale), 0.25f);
  EXPECT_LT(std::abs(scale), 1.0f);
  const float bias = halfToFloat(valueOf<std::uint16_t>(slots, 6));
  EXPECT_GE(std::abs(bias), 0.25f);
  EXPECT_LT(std::abs(bias), 1.0f);
}

TEST(ArgumentSlots, AHostOnlyIntegerWithoutAValueIsAnError) {
  KernelDescriptor descriptor = stencilDescriptor();
  descriptor.tuneDefaultCount = 2; // no default for nx
  std::vector<std::string> unknown;
  const std::map<std::string, long long> arguments = tuningArguments(descriptor, {}, &unknown);
  ArgumentSlots slots;
  RandomBits bits(1);
  std::string error;
  EXPECT_FALSE(slots.fill(descriptor, arguments, bits, &error));
  EXPECT_NE(error.find("nx"), std::string::npos) << error;
}

TEST(ArgumentSlots, ChunkBoundsAndFloatingScalarsTakeNoGivenValue) {
  const KernelDescriptor descriptor = stencilDescriptor();
  std::vector<std::string> unknown;
  tuningArguments(descriptor, {{"row_begin", 3}, {"scale", 2}, {"nx", 64}}, &unknown);
  EXPECT_EQ(unknown, (std::vector<std::string>{"row_begin", "scale"}));
}

TEST(ArgumentSlots, SmallVectorsAreRandomLaneByLane) {
  // offset(int2 shift) is no integer the tuning arguments give: both lanes random, in range.
  const ParamDescriptor params[] = {
      {"shift", "int2", false, ElementKind::I32, 8, -1, ParamRole::Scalar},
      {"scale", "float2", false, ElementKind::F32, 8, -1, ParamRole::Scalar},
  };
  KernelDescriptor descriptor{};
  descriptor.name = "vectors";
  descriptor.paramCount = 2;
  descriptor.params = params;
  std::vector<std::string> unknown;
  tuningArguments(descriptor, {{"shift", 1}}, &unknown);
  EXPECT_EQ(unknown, std::vector<std::string>{"shift"});
  ArgumentSlots slots;
  RandomBits bits(9);
  std::string error;
  ASSERT_TRUE(slots.fill(descriptor, {}, bits, &error)) << error;
  std::int32_t shift[2] = {};
  float scale[2] = {};
  std::memcpy(shift, slots.pointers()[0], sizeof shift);
  std::memcpy(scale, slots.pointers()[1], sizeof scale);
  for (int lane = 0; lane < 2; ++lane) {
    EXPECT_NE(shift[lane], 0);
    EXPECT_LE(std::abs(shift[lane]), 100);
    EXPECT_GE(std::abs(scale[lane]), 0.25f);
    EXPECT_LT(std::abs(scale[lane]), 1.0f);
  }
}

} // namespace
} // namespace overlap::tune
