// A CUPTI activity tracer that the CUDA driver loads into any program (CUDA_INJECTION64_PATH):
// every copy, kernel and CUDA runtime call of the process goes to one CSV, start and end on
// CUPTI's one clock, so a benchmark's timeline can be read where Nsight Systems cannot run (the
// lent GPU machines cannot turn its capture into a report). bench/trace/timeline.py reads it.
//
//   OVERLAP_TRACE_FILE   where to write; "%p" becomes the process id (default
//                        overlap-trace-%p.csv in the working directory)
//   OVERLAP_TRACE_API=0  leave out the runtime calls: their records cost the host time per call
//
// Columns: what,start_ns,end_ns,stream,correlation,bytes,name — what is copy, kernel or api;
// name is the copy's direction (HtoD, DtoH, ...), the kernel's (mangled) name or the call's.
#include <cupti.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unistd.h>

namespace {

constexpr std::size_t kBufferBytes = 8u << 20;
constexpr std::size_t kRecordAlignment = 8; // CUPTI's requirement for activity buffers

std::mutex traceMutex;
std::FILE* traceFile = nullptr;
std::size_t droppedRecords = 0;

void reportCuptiError(const char* call, CUptiResult result) {
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  std::fprintf(stderr, "overlap-cupti-trace: %s failed: %s\n", call, text ? text : "?");
}

#define TRACE_CUPTI_TRY(call)                                                                      \
  do {                                                                                             \
    const CUptiResult result_ = (call);                                                            \
    if (result_ != CUPTI_SUCCESS) {                                                                \
      reportCuptiError(#call, result_);                                                            \
      return 0;                                                                                    \
    }                                                                                              \
  } while (0)

const char* copyDirection(std::uint8_t kind) {
  switch (kind) {
  case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    return "HtoD";
  case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    return "DtoH";
  case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    return "DtoD";
  case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
    return "HtoH";
  case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
    return "PtoP";
  default:
    return "other";
  }
}

// Kernel names may hold commas (template arguments); the last column is quoted.
void writeRow(const char* what, std::uint64_t start, std::uint64_t end, std::uint32_t stream,
              std::uint32_t correlation, std::uint64_t bytes, const char* name) {
  std::string quoted = "\"";
  for (const char* c = name ? name : ""; *c; ++c)
    quoted += *c == '"' ? std::string("\"\"") : std::string(1, *c);
  quoted += '"';
  std::fprintf(traceFile, "%s,%llu,%llu,%u,%u,%llu,%s\n", what,
               static_cast<unsigned long long>(start), static_cast<unsigned long long>(end), stream,
               correlation, static_cast<unsigned long long>(bytes), quoted.c_str());
}

void writeRecord(const CUpti_Activity* record) {
  switch (record->kind) {
  case CUPTI_ACTIVITY_KIND_MEMCPY: {
    const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
    writeRow("copy", copy->start, copy->end, copy->streamId, copy->correlationId, copy->bytes,
             copyDirection(copy->copyKind));
    break;
  }
  case CUPTI_ACTIVITY_KIND_KERNEL:
  case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
    const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    writeRow("kernel", kernel->start, kernel->end, kernel->streamId, kernel->correlationId, 0,
             kernel->name);
    break;
  }
  case CUPTI_ACTIVITY_KIND_RUNTIME: {
    const auto* call = reinterpret_cast<const CUpti_ActivityAPI*>(record);
    const char* name = nullptr;
    if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, call->cbid, &name) != CUPTI_SUCCESS)
      name = "?";
    writeRow("api", call->start, call->end, 0, call->correlationId, 0, name);
    break;
  }
  default:
    break;
  }
}

void CUPTIAPI bufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* maxRecords) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(kRecordAlignment, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *maxRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext context, std::uint32_t streamId, std::uint8_t* buffer,
                              std::size_t, std::size_t validBytes) {
  {
    std::lock_guard<std::mutex> lock(traceMutex);
    CUpti_Activity* record = nullptr;
    while (traceFile && cuptiActivityGetNextRecord(buffer, validBytes, &record) == CUPTI_SUCCESS)
      writeRecord(record);
    std::size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, streamId, &dropped) == CUPTI_SUCCESS)
      droppedRecords += dropped;
  }
  std::free(buffer);
}

void finishTrace() {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::lock_guard<std::mutex> lock(traceMutex);
  if (!traceFile)
    return;
  if (droppedRecords > 0) // a timeline with holes must not pass for a whole one
    std::fprintf(stderr, "overlap-cupti-trace: %zu records dropped; the trace is incomplete\n",
                 droppedRecords);
  std::fclose(traceFile);
  traceFile = nullptr;
}

std::string tracePath() {
  const char* pattern = std::getenv("OVERLAP_TRACE_FILE");
  std::string path = pattern && *pattern ? pattern : "overlap-trace-%p.csv";
  const std::string::size_type pidAt = path.find("%p");
  if (pidAt != std::string::npos)
    path.replace(pidAt, 2, std::to_string(getpid()));
  return path;
}

} // namespace

// Called by the CUDA driver at initialization when CUDA_INJECTION64_PATH names this library.
extern "C" int InitializeInjection(void) {
  const std::string path = tracePath();
  traceFile = std::fopen(path.c_str(), "w");
  if (!traceFile) {
    std::perror(("overlap-cupti-trace: " + path).c_str());
    return 0;
  }
  std::fprintf(traceFile, "what,start_ns,end_ns,stream,correlation,bytes,name\n");
  TRACE_CUPTI_TRY(cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted));
  TRACE_CUPTI_TRY(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY));
  TRACE_CUPTI_TRY(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  const char* api = std::getenv("OVERLAP_TRACE_API");
  if (!api || std::string(api) != "0")
    TRACE_CUPTI_TRY(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME));
  std::atexit(finishTrace);
  std::fprintf(stderr, "overlap-cupti-trace: tracing to %s\n", path.c_str());
  return 1;
}
