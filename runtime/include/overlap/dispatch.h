// The choice behind a generated entry point K_tuned(...): which variant a call runs. In order:
//  1. the OVERLAP_VARIANT environment variable, read at every choice (for experiments and bisects):
//     "explicit", "mapped", "streams:16", "hybrid:8:breadth-first", or per kernel
//     "saxpy=streams:16,matmul=mapped" (a kernel not named falls through);
//  2. the tuning results baked into the build (overlap_add_kernels(... TUNING_RESULTS file)) for
//     this kernel on the current device, matched by the CUDA device name;
//  3. the model's predicted best on a calibrated profile of this device or an embedded one, when
//     the program links a model chooser (the tuner's overlap_tuner_dispatch does);
//  4. Explicit.
#pragma once

#include "overlap/descriptor.h"
#include "overlap/kernel_types.h"
#include "overlap/status.h"

#include <optional>
#include <string>

namespace overlap {

struct BakedChoice {
  const char* kernel;
  const char* device; // CUDA device name, e.g. "NVIDIA H200"
  Variant variant;
  int streams;
  IssueOrder order;
};

// Called from the source generated from a tuning-results file; the table must outlive the program.
bool register_baked_choices(const BakedChoice* choices, int count);

// The model's choice for one call: false when it has none. `why` names the profile it used.
using ModelChooser = bool (*)(const KernelDescriptor& kernel, ArgPointers args,
                              const std::string& device_name, RunConfig* config, std::string* why);
bool set_model_chooser(ModelChooser chooser);

enum class ChoiceSource : unsigned char { Environment, Baked, Model, Default };
const char* to_string(ChoiceSource source);

struct VariantChoice {
  RunConfig config;
  ChoiceSource source = ChoiceSource::Default;
  std::string reason; // for logs: "OVERLAP_VARIANT=...", "tuned on NVIDIA H200", ...
};

// Parses an OVERLAP_VARIANT value for `kernel`: true with *found false when the value does not
// name this kernel; false with `error` set when it is malformed.
bool parse_variant_override(const std::string& text, const std::string& kernel, bool* found,
                            RunConfig* config, std::string* error);

// The choice for one call; `device_name` is the current device's ("" when unknown). A malformed
// OVERLAP_VARIANT is ignored with the reason in the result, never a failed call.
VariantChoice choose_variant(const KernelDescriptor& kernel, ArgPointers args,
                             const std::string& device_name);

// What K_tuned(...) calls: the current device's name, the choice, the run. Setting
// OVERLAP_DISPATCH_LOG=1 prints each choice to stderr.
Status dispatch(const KernelDescriptor& kernel, ArgPointers args);

// Introspection for tests and tools that must know which variant a K_tuned(...) call ran: the
// choice of the latest dispatch() of `kernel` (by descriptor address; recorded just before the
// variant runs, whatever its status), or nullopt when it was never dispatched. Thread-safe; with
// concurrent calls of one kernel it is one of theirs.
std::optional<VariantChoice> last_dispatch_choice(const KernelDescriptor& kernel);

} // namespace overlap
