#include "tune/DescriptorRunner.h"

#include "overlap/HostRegistration.h"
#include "overlap/PinnedBuffer.h"
#include "tune/HostData.h"

#include <cuda_runtime_api.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>

namespace overlap::tune {
namespace {

// TEST HOOK, for the supervisor's tests only: OVERLAP_TUNE_TEST_FAULT=hang:<candidate> makes that
// candidate (model::describe, e.g. "Mapped" or "Streams(4, depth-first)") sleep forever, as a hung
// kernel would; crash:<candidate> makes it die of SIGSEGV. Host-side, so the GPU is left alone.
void injectTestFault(const model::Candidate& candidate) {
  const char* fault = std::getenv("OVERLAP_TUNE_TEST_FAULT");
  if (!fault)
    return;
  const std::string text = fault;
  const std::string name = model::describe(candidate);
  if (text == "hang:" + name)
    while (true)
      std::this_thread::sleep_for(std::chrono::hours(1));
  if (text == "crash:" + name) {
    const rlimit noCore{0, 0}; // a deliberate crash needs no core file
    setrlimit(RLIMIT_CORE, &noCore);
    // The default action, so that the process dies of the signal as this hook promises, even
    // where a handler (a sanitizer's) would report it and exit with a status instead.
    std::signal(SIGSEGV, SIG_DFL);
    std::raise(SIGSEGV);
  }
}

} // namespace

namespace {

// Why an array's host memory could not be had; `what` says which of its copies, if not the one
// the candidates work on.
std::string noHostMemory(const char* name, std::size_t bytes, const char* what = "") {
  return std::string("host memory for ") + name + " (" + std::to_string(bytes) + " bytes" + what +
         ")";
}

// The array the candidates work on, in the host memory being tuned (RunnerOptions::memory),
// freed the way it was taken.
class WorkingMemory {
public:
  // False with `error` set when the memory could not be had; `name` is the array's.
  bool allocate(CallMemory memory, std::size_t bytes, const char* name, std::string* error) {
    void* data = nullptr;
    cudaError_t code = cudaSuccess;
    switch (memory) {
    case CallMemory::Pinned: {
      // As PinnedBuffer allocates, the same call text for fault injection.
      const unsigned flags = PinnedBuffer::kDefaultFlags;
      code = OVERLAP_CUDA_CALL(cudaHostAlloc(&data, bytes, flags));
      if (code != cudaSuccess)
        return failed(std::string("pinned memory for ") + name + ": " +
                          OVERLAP_STATUS_OF(cudaHostAlloc(&data, bytes, flags), code).message(),
                      error);
      data_ = {data, [](void* p) { (void)cudaFreeHost(p); }};
      return true;
    }
    case CallMemory::Managed:
      code = OVERLAP_CUDA_CALL(cudaMallocManaged(&data, bytes));
      if (code != cudaSuccess)
        return failed(std::string("managed memory for ") + name + ": " +
                          OVERLAP_STATUS_OF(cudaMallocManaged(&data, bytes), code).message(),
                      error);
      data_ = {data, [](void* p) { (void)cudaFree(p); }};
      return true;
    case CallMemory::Pageable:
      data = std::malloc(bytes);
      if (data == nullptr)
        return failed(noHostMemory(name, bytes), error);
      data_ = {data, [](void* p) { std::free(p); }};
      return true;
    case CallMemory::Registered: {
      // Off a host line on purpose, 16 bytes past a page as malloc puts a large array
      // (CallMemory.h): what registered memory is to the dispatch, whatever malloc does with this
      // size.
      constexpr std::size_t kPage = 4096;
      constexpr std::size_t kOffLine = 16;
      void* const block = std::aligned_alloc(kPage, (bytes + kOffLine + kPage - 1) / kPage * kPage);
      if (block == nullptr)
        return failed(noHostMemory(name, bytes), error);
      data_ = {block, [](void* p) { std::free(p); }};
      offset_ = kOffLine;
      data = this->data();
      // The registration cache's flags (CudaPageRegistrar), so that kernels address it alike.
      const Status status = HostRegistration::registerRange(
          data, bytes, cudaHostRegisterMapped | cudaHostRegisterPortable, &registration_);
      if (!status.ok())
        return failed(
            std::string("registering the host memory of ") + name + ": " + status.message(), error);
      return true;
    }
    }
    return failed("unknown host memory", error);
  }

  void* data() const { return static_cast<unsigned char*>(data_.get()) + offset_; }

private:
  static bool failed(std::string why, std::string* error) {
    (void)cudaGetLastError(); // a failed allocation must not fail the next call
    *error = std::move(why);
    return false;
  }

  std::unique_ptr<void, void (*)(void*)> data_{nullptr, nullptr};
  std::size_t offset_ = 0;        // of the array in data_
  HostRegistration registration_; // of the array, on registered memory: ends before data_ is freed
};

} // namespace

// One array in three copies: what the call works on, its pristine random contents (restored
// before every verified run) and Explicit's result.
struct DescriptorRunner::HostArray {
  const ArrayDescriptor* descriptor = nullptr;
  long long count = 0;
  std::size_t bytes = 0;
  WorkingMemory working;
  std::unique_ptr<unsigned char[]> pristine;
  std::unique_ptr<unsigned char[]> reference;
};

DescriptorRunner::DescriptorRunner(const KernelDescriptor& descriptor, const RunnerOptions& options)
    : descriptor_(descriptor), options_(options) {}

DescriptorRunner::~DescriptorRunner() = default;

std::unique_ptr<DescriptorRunner>
DescriptorRunner::create(const KernelDescriptor& descriptor,
                         const std::map<std::string, long long>& integerArguments,
                         const RunnerOptions& options, std::string* error) {
  std::unique_ptr<DescriptorRunner> runner(new DescriptorRunner(descriptor, options));
  RandomBits bits(options.seed);
  if (!runner->slots_.fill(descriptor, integerArguments, bits, error))
    return nullptr;
  for (int a = 0; a < descriptor.arrayCount; ++a) {
    auto array = std::make_unique<HostArray>();
    array->descriptor = &descriptor.arrays[a];
    array->count = std::max(0LL, descriptor.arrayExtent(runner->arguments(), a));
    array->bytes = array->descriptor->elementSize * static_cast<std::size_t>(array->count);
    const std::size_t allocated = std::max<std::size_t>(array->bytes, 1);
    if (!array->working.allocate(options.memory, allocated, array->descriptor->name, error))
      return nullptr;
    array->pristine.reset(new (std::nothrow) unsigned char[allocated]);
    array->reference.reset(new (std::nothrow) unsigned char[allocated]);
    if (!array->pristine || !array->reference) {
      *error = noHostMemory(array->descriptor->name, array->bytes, ", three copies");
      return nullptr;
    }
    // Outputs too: a candidate that leaves part of an output unwritten must not match by luck.
    fill_random(array->descriptor->kind, array->descriptor->elementSize, array->pristine.get(),
                array->count, bits);
    runner->slots_.setPointer(array->descriptor->param, array->working.data());
    runner->arrays_.push_back(std::move(array));
  }
  return runner;
}

std::size_t DescriptorRunner::hostBytes() const {
  std::size_t total = 0;
  for (const auto& array : arrays_)
    total += array->bytes;
  return total;
}

double DescriptorRunner::toleranceOf(const ArrayDescriptor& array) const {
  if (array.reduce == ReduceOp::None)
    return options_.tolerance;
  // The terms a reduction sums: at most one per element of the largest other array (a histogram
  // of its input, a dot product of two), and at least one per element of the partition.
  long long terms = std::max(1LL, descriptor_.partitionExtent(arguments()));
  for (const auto& other : arrays_)
    if (other->descriptor->reduce == ReduceOp::None)
      terms = std::max(terms, other->count);
  return std::max(options_.tolerance, reductionTolerance(array.kind, array.reduce, terms));
}

void DescriptorRunner::restoreInputs() {
  for (const auto& array : arrays_)
    std::memcpy(array->working.data(), array->pristine.get(), array->bytes);
}

Sample DescriptorRunner::runOnce(const RunConfig& config) {
  const auto start = std::chrono::steady_clock::now();
  Status status = descriptor_.run(arguments(), config);
  // The generated variants synchronize before returning; this only makes sure nothing is left.
  if (status.ok()) {
    const cudaError_t code = cudaDeviceSynchronize();
    if (code != cudaSuccess)
      status = OVERLAP_STATUS_OF(cudaDeviceSynchronize(), code);
  }
  const auto stop = std::chrono::steady_clock::now();
  Sample sample;
  if (!status.ok()) {
    sample.error = status.message();
    sample.code = static_cast<int>(status.code);
    cudaGetLastError(); // a non-sticky error must not fail the next candidate
    return sample;
  }
  sample.seconds = std::chrono::duration<double>(stop - start).count();
  return sample;
}

void DescriptorRunner::restoreInoutArrays() {
  for (const auto& array : arrays_)
    if (reads(array->descriptor->direction) && writes(array->descriptor->direction))
      std::memcpy(array->working.data(), array->pristine.get(), array->bytes);
}

TimedSamples DescriptorRunner::time(const RunConfig& config, const TimingPlan& plan) {
  // Every repeat computes on the same inputs, so a data-dependent kernel does the same work each
  // time. Inputs are never written and outputs only overwritten, so only in-out arrays are copied
  // back, before runOnce() starts its clock.
  return measureUntilStable(
      [&] {
        restoreInoutArrays();
        return runOnce(config);
      },
      plan);
}

namespace {

RunConfig configOf(const model::Candidate& candidate) {
  RunConfig config;
  config.variant = candidate.variant;
  config.streams = model::streamsConfig(candidate);
  return config;
}

// The reference's maker where Explicit does not fit the device-memory budget: one stream, out of
// core, the same arithmetic chunk after chunk (docs/generated-code.md, "Device memory").
const model::Candidate kOutOfCoreReference{Variant::Streams, 1};

} // namespace

RunResult DescriptorRunner::runReference(const TimingPlan& plan) {
  RunResult result;
  injectTestFault(model::Candidate{});
  restoreInputs();
  RunConfig config; // Explicit
  Sample first = runOnce(config);
  if (first.code == cudaErrorMemoryAllocation) {
    result.substitute = kOutOfCoreReference;
    result.explicitError = first.error;
    config = configOf(kOutOfCoreReference);
    restoreInputs();
    first = runOnce(config);
  }
  if (!first.error.empty()) {
    result.verification = Verification::Failed;
    result.error = result.substitute ? "Explicit: " + result.explicitError + "; " +
                                           model::describe(kOutOfCoreReference) + ": " + first.error
                                     : first.error;
    return result;
  }
  for (const auto& array : arrays_)
    if (writes(array->descriptor->direction))
      std::memcpy(array->reference.get(), array->working.data(), array->bytes);
  result.verification = Verification::Reference;
  result.timing = time(config, plan);
  if (options_.memory == CallMemory::Pageable && !result.substitute)
    result.pageLockedTiming = timePageLocked(config, plan);
  return result;
}

std::optional<TimedSamples> DescriptorRunner::timePageLocked(const RunConfig& config,
                                                             const TimingPlan& plan) {
  std::vector<HostRegistration> registrations;
  for (const auto& array : arrays_) {
    if (array->bytes == 0)
      continue;
    HostRegistration registration;
    const Status status = HostRegistration::registerRange(array->working.data(), array->bytes,
                                                          cudaHostRegisterPortable, &registration);
    if (status.code == cudaErrorHostMemoryAlreadyRegistered)
      continue; // page-locked already (the registration cache's, from an earlier tuning)
    if (!status.ok())
      return std::nullopt; // the pageable timing stands alone
    registrations.push_back(std::move(registration));
  }
  return time(config, plan); // the registrations end before the next candidate
}

RunResult DescriptorRunner::runCandidate(const model::Candidate& candidate,
                                         const TimingPlan& plan) {
  RunResult result;
  injectTestFault(candidate);
  const RunConfig config = configOf(candidate);
  restoreInputs();
  inputsSuspect_ = true; // until its outputs are verified
  const Sample first = runOnce(config);
  if (!first.error.empty()) {
    result.verification = Verification::Failed;
    result.error = first.error;
    return result;
  }
  for (const auto& array : arrays_) {
    if (!writes(array->descriptor->direction))
      continue;
    const Comparison comparison = compareElements(
        array->descriptor->kind, array->descriptor->elementSize, array->reference.get(),
        array->working.data(), array->count, toleranceOf(*array->descriptor));
    if (!comparison.equal()) {
      result.verification = Verification::WrongResult;
      result.error =
          std::string(array->descriptor->name) + ": " + comparison.describe(array->count);
      return result;
    }
  }
  result.verification = Verification::Passed;
  result.timing = time(config, plan);
  inputsSuspect_ = !result.timing.error.empty();
  return result;
}

RunResult DescriptorRunner::timeCandidate(const model::Candidate& candidate,
                                          const TimingPlan& plan) {
  RunResult result;
  injectTestFault(candidate);
  if (inputsSuspect_)
    restoreInputs();
  result.verification = Verification::Passed;
  result.timing = time(configOf(candidate), plan);
  inputsSuspect_ = !result.timing.error.empty();
  return result;
}

} // namespace overlap::tune
