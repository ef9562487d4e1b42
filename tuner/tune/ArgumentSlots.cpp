#include "tune/ArgumentSlots.h"

#include <cstring>

namespace overlap::tune {
namespace {

// Stores `value` in the parameter's own width; the slot is little-endian like every CUDA host.
void storeInteger(std::uint64_t* slot, std::size_t size, long long value) {
  const std::int8_t v8 = static_cast<std::int8_t>(value);
  const std::int16_t v16 = static_cast<std::int16_t>(value);
  const std::int32_t v32 = static_cast<std::int32_t>(value);
  switch (size) {
  case 1:
    std::memcpy(slot, &v8, 1);
    return;
  case 2:
    std::memcpy(slot, &v16, 2);
    return;
  case 4:
    std::memcpy(slot, &v32, 4);
    return;
  default:
    std::memcpy(slot, &value, sizeof value);
  }
}

// Scalars the caller passes: the kernel's own, the range bounds of a partition that reads them
// (PartitionBegin/End) and the annotation's host-only parameters; not the chunk bounds the
// generated code sets.
bool takesValue(const ParamDescriptor& param) {
  return !param.isPointer && param.role != ParamRole::ChunkBegin &&
         param.role != ParamRole::ChunkEnd;
}

// An integer the tuning arguments give; an int2 (lanes of an integer kind) is filled at random.
bool isIntegerScalar(const ParamDescriptor& param) {
  return isInteger(param.kind) && laneCount(param.kind, param.size) == 1;
}

} // namespace

bool ArgumentSlots::fill(const KernelDescriptor& descriptor,
                         const std::map<std::string, long long>& integerArguments, RandomBits& bits,
                         std::string* error) {
  const std::size_t count = static_cast<std::size_t>(descriptor.paramCount);
  storage_.assign(count, 0);
  pointers_.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    pointers_[i] = &storage_[i];
    const ParamDescriptor& param = descriptor.params[i];
    if (!takesValue(param))
      continue; // pointers are set by the caller; chunk bounds by the generated code
    if (param.size > sizeof(std::uint64_t)) {
      *error = std::string("parameter ") + param.name + " (" + param.type +
               ") is larger than 8 bytes; the tuner cannot fill it";
      return false;
    }
    if (isIntegerScalar(param)) {
      const auto given = integerArguments.find(param.name);
      if (given == integerArguments.end()) {
        *error = std::string("no value for the integer parameter ") + param.name +
                 ": give it with --arg " + param.name + "=VALUE or in the annotation's tune(...)";
        return false;
      }
      storeInteger(&storage_[i], param.size, given->second);
    } else if (laneCount(param.kind, param.size) > 0) { // floats, vectors of either kind
      fill_random(param.kind, param.size, &storage_[i], 1, bits);
    }
  }
  return true;
}

void ArgumentSlots::setPointer(int param, void* pointer) {
  std::memcpy(&storage_[static_cast<std::size_t>(param)], &pointer, sizeof pointer);
}

std::map<std::string, long long> tuningArguments(const KernelDescriptor& descriptor,
                                                 const std::map<std::string, long long>& given,
                                                 std::vector<std::string>* unknown) {
  std::map<std::string, long long> arguments;
  for (int i = 0; i < descriptor.tuneDefaultCount; ++i) {
    const TuneDefault& d = descriptor.tuneDefaults[i];
    arguments[descriptor.params[d.param].name] = d.value;
  }
  for (const auto& [name, value] : given) {
    bool found = false;
    for (int i = 0; i < descriptor.paramCount; ++i) {
      const ParamDescriptor& param = descriptor.params[i];
      found |= name == param.name && takesValue(param) && isIntegerScalar(param);
    }
    if (found)
      arguments[name] = value;
    else
      unknown->push_back(name);
  }
  return arguments;
}

} // namespace overlap::tune
