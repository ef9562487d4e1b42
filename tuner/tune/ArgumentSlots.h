// The argument array of one call built from a descriptor: one 8-byte slot per parameter (the
// kernel's, then the host-only ones), integers from the given values, floating-point scalars and
// small vectors (float2, int2: lanes of one kind) random, pointers set by the caller.
// ArgPointers into it are what KernelDescriptor's functions take.
#pragma once

#include "overlap/Descriptor.h"
#include "tune/HostData.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace overlap::tune {

class ArgumentSlots {
public:
  // False with `error` set when an integer parameter has no value or a scalar exceeds 8 bytes.
  bool fill(const KernelDescriptor& descriptor,
            const std::map<std::string, long long>& integerArguments, RandomBits& bits,
            std::string* error);
  void setPointer(int param, void* pointer);
  ArgPointers pointers() const { return pointers_.data(); }

private:
  std::vector<std::uint64_t> storage_;
  std::vector<const void*> pointers_;
};

// The integer arguments of a tuning: the annotation's tune(...) defaults, overridden by `given`.
// Names that are no integer parameter of the kernel are reported in `unknown`.
std::map<std::string, long long> tuningArguments(const KernelDescriptor& descriptor,
                                                 const std::map<std::string, long long>& given,
                                                 std::vector<std::string>* unknown);

} // namespace overlap::tune
