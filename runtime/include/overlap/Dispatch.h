// The choice behind a generated entry point K_tuned(...): which variant a call runs. In order:
//  1. the OVERLAP_VARIANT environment variable (for experiments and bisects): "explicit",
//     "mapped", "streams:16", "hybrid:8:breadth-first", or per kernel
//     "saxpy=streams:16,matmul=mapped" (a kernel not named falls through);
//  2. the tuning results baked into the build (overlap_add_kernels(... TUNING_RESULTS file)) for
//     this kernel on the current device, matched by the CUDA device name, tuned on the call's
//     memory (CallMemory.h: pinned, registered by the cache, pageable or managed; a pageable call
//     counts as registered where OVERLAP_PIN_CACHE caches every call's registrations, which
//     registers its arrays from the first call on; registered and managed memory without a
//     tuning of their own run the pinned one): the winner of the tuned size that fits the
//     call's partition extent (TunedSizes.h: nearest, interpolated by the model, or
//     extrapolated);
//  3. on any memory but pageable, the model's predicted best on a calibrated profile of this
//     device or an embedded one, when the program links a model (the tuner's
//     overlap_tuner_dispatch does);
//  4. Explicit. On pageable memory without a tuning of it, always: the model lacks the fixed
//     costs of registering and staging, which make every other variant slower than pageable
//     Explicit for small calls (docs/tuner.md).
// Whatever the source, a streamed choice runs with at most ceil(P / G) streams, the chunks the
// call can have.
//
// What a call costs: the choice is computed once per (kernel, device, size class) and kept
// (SizeClass.h: quarter octaves of the partition extent and of the bytes the call's arrays
// hold) and memory; a later call of the class reads it without a lock. The memory of a call is
// its arrays' kinds, remembered per thread by address (CallMemory.h). The device's name is read
// once per device ordinal, OVERLAP_VARIANT and OVERLAP_DISPATCH_LOG once per process (at the first
// choice; reloadDispatchSettings() reads them again).
#pragma once

#include "overlap/CallMemory.h"
#include "overlap/Descriptor.h"
#include "overlap/KernelTypes.h"
#include "overlap/Status.h"
#include "overlap/TunedSizes.h"

#include <optional>
#include <string>

namespace overlap {

// One kernel on one device, as overlap-bake writes it from the results file: its tuned sizes,
// extents ascending and distinct, at least one.
struct BakedChoice {
  const char* kernel;
  const char* device; // CUDA device name, e.g. "NVIDIA H200"
  const TunedSize* sizes;
  int sizeCount;
  CallMemory memory = CallMemory::Pinned; // the host memory it was tuned on
};

// Called from the source generated from a tuning-results file; the table must outlive the program.
// A later registration of the same kernel and device takes precedence over an earlier one.
bool registerBakedChoices(const BakedChoice* choices, int count);

// The model's choice for one call on pinned memory: false when it has none. `why` names the
// profile it used.
using ModelChooser = bool (*)(const KernelDescriptor& kernel, ArgPointers args,
                              const std::string& deviceName, RunConfig* config, std::string* why);
bool setModelChooser(ModelChooser chooser);

// The model's predicted time of each of `count` configurations for one call on `memory` with
// kernel time `kernel_seconds`: false when it has no profile for the device; seconds[i] nullopt
// where it cannot predict configs[i]. What interpolates and extrapolates between tuned sizes.
using ModelPredictor = bool (*)(const KernelDescriptor& kernel, ArgPointers args,
                                const std::string& deviceName, CallMemory memory,
                                double kernelSeconds, const RunConfig* configs, int count,
                                std::optional<double>* seconds);
bool setModelPredictor(ModelPredictor predictor);

// Fallback: the choice failed before doing any work and Explicit ran instead, or Streams out of
// core where Explicit did not fit (dispatch()).
enum class ChoiceSource : unsigned char { Environment, Baked, Model, Default, Fallback };
const char* to_string(ChoiceSource source);

struct VariantChoice {
  RunConfig config;
  ChoiceSource source = ChoiceSource::Default;
  CallMemory memory = CallMemory::Pinned; // the call's memory, as the choice saw it
  std::string reason; // for logs: "OVERLAP_VARIANT=...", "tuned on NVIDIA H200 at P = ...", ...
};

// "Explicit", "Mapped", "Streams(16, depth-first)", "Hybrid(8, breadth-first)"; a pageable mode
// other than Default after the order: "Streams(16, depth-first, staged)".
std::string describe(const RunConfig& config);

// Parses an OVERLAP_VARIANT value for `kernel`: true with *found false when the value does not
// name this kernel; false with `error` set when it is malformed.
bool parseVariantOverride(const std::string& text, const std::string& kernel, bool* found,
                          RunConfig* config, std::string* error);

// Reads OVERLAP_VARIANT and OVERLAP_DISPATCH_LOG again and forgets every kept choice, for tests
// and tools that change them after the first call.
void reloadDispatchSettings();

// The choice for one call on `memory` on the device named `deviceName` ("" when unknown),
// computed afresh (nothing kept), the stream count not yet limited to the call's chunks. A
// malformed OVERLAP_VARIANT is ignored with the reason in the result, never a failed call.
VariantChoice chooseVariant(const KernelDescriptor& kernel, ArgPointers args,
                            const std::string& deviceName, CallMemory memory = CallMemory::Pinned);

// What dispatch() runs: the choice for this call on the current device and the memory of its
// arrays, kept per (kernel, device, size class, memory) and computed by chooseVariant() at the
// first call of its class, the stream count limited to ceil(P / G). The reference stays valid for
// the life of the process.
const VariantChoice& chooseForCall(const KernelDescriptor& kernel, ArgPointers args);
// The same on a device of this name and on `memory`, whatever the current device and the
// arrays are: for tests and tools.
const VariantChoice& chooseForCall(const KernelDescriptor& kernel, ArgPointers args,
                                   const std::string& deviceName,
                                   CallMemory memory = CallMemory::Pinned);

// What K_tuned(...) calls: the choice, then the run. A choice other than OVERLAP_VARIANT's that
// fails before doing any work -- out of memory (every variant allocates, leases and registers
// before it copies), or a launch-configuration error of a kernel without in-out or reduction
// arrays (Explicit then rewrites every output from untouched inputs) -- is run again as Explicit
// (as Streams(4) out of core where Explicit itself did not fit the device-memory budget), and
// lastDispatchChoice() says so (ChoiceSource::Fallback, with the first failure). Any other
// failure is returned with the choice in the status text ("saxpy_tuned chose Streams(16,
// depth-first) (tuning results, P in [65536, 81920)): cudaMalloc(...) failed at ...").
// OVERLAP_DISPATCH_LOG=1 prints each distinct choice once to stderr: kernel, size class, variant
// and why (and each fallback, once per choice).
Status dispatch(const KernelDescriptor& kernel, ArgPointers args);

// What K_tuned_async(..., stream) calls: dispatch()'s choice and fallback, each run on the caller's
// stream (KernelDescriptor::runAsync; a descriptor without it runs synchronously after the stream).
Status dispatchAsync(const KernelDescriptor& kernel, ArgPointers args, cudaStream_t stream);

// Introspection for tests and tools that must know which variant a K_tuned(...) call ran: the
// choice of the latest dispatch() of `kernel` (by descriptor address; recorded just before the
// variant runs, whatever its status), or nullopt when it was never dispatched. Thread-safe; with
// concurrent calls of one kernel it is one of theirs.
std::optional<VariantChoice> lastDispatchChoice(const KernelDescriptor& kernel);

} // namespace overlap
