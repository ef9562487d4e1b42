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

std::mutex trace_mutex;
std::FILE* trace_file = nullptr;
std::size_t dropped_records = 0;

void report_cupti_error(const char* call, CUptiResult result) {
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  std::fprintf(stderr, "overlap-cupti-trace: %s failed: %s\n", call, text ? text : "?");
}

#define TRACE_CUPTI_TRY(call)                                                                      \
  do {                                                                                             \
    const CUptiResult result_ = (call);                                                            \
    if (result_ != CUPTI_SUCCESS) {                                                                \
      report_cupti_error(#call, result_);                                                          \
      return 0;                                                                                    \
    }                                                                                              \
  } while (0)

const char* copy_direction(std::uint8_t kind) {
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
void write_row(const char* what, std::uint64_t start, std::uint64_t end, std::uint32_t stream,
               std::uint32_t correlation, std::uint64_t bytes, const char* name) {
  std::string quoted = "\"";
  for (const char* c = name ? name : ""; *c; ++c)
    quoted += *c == '"' ? std::string("\"\"") : std::string(1, *c);
  quoted += '"';
  std::fprintf(trace_file, "%s,%llu,%llu,%u,%u,%llu,%s\n", what,
               static_cast<unsigned long long>(start), static_cast<unsigned long long>(end), stream,
               correlation, static_cast<unsigned long long>(bytes), quoted.c_str());
}

void write_record(const CUpti_Activity* record) {
  switch (record->kind) {
  case CUPTI_ACTIVITY_KIND_MEMCPY: {
    const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
    write_row("copy", copy->start, copy->end, copy->streamId, copy->correlationId, copy->bytes,
              copy_direction(copy->copyKind));
    break;
  }
  case CUPTI_ACTIVITY_KIND_KERNEL:
  case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
    const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    write_row("kernel", kernel->start, kernel->end, kernel->streamId, kernel->correlationId, 0,
              kernel->name);
    break;
  }
  case CUPTI_ACTIVITY_KIND_RUNTIME: {
    const auto* call = reinterpret_cast<const CUpti_ActivityAPI*>(record);
    const char* name = nullptr;
    if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, call->cbid, &name) != CUPTI_SUCCESS)
      name = "?";
    write_row("api", call->start, call->end, 0, call->correlationId, 0, name);
    break;
  }
  default:
    break;
  }
}

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(kRecordAlignment, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext context, std::uint32_t stream_id, std::uint8_t* buffer,
                               std::size_t, std::size_t valid_bytes) {
  {
    std::lock_guard<std::mutex> lock(trace_mutex);
    CUpti_Activity* record = nullptr;
    while (trace_file && cuptiActivityGetNextRecord(buffer, valid_bytes, &record) == CUPTI_SUCCESS)
      write_record(record);
    std::size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, stream_id, &dropped) == CUPTI_SUCCESS)
      dropped_records += dropped;
  }
  std::free(buffer);
}

void finish_trace() {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::lock_guard<std::mutex> lock(trace_mutex);
  if (!trace_file)
    return;
  if (dropped_records > 0) // a timeline with holes must not pass for a whole one
    std::fprintf(stderr, "overlap-cupti-trace: %zu records dropped; the trace is incomplete\n",
                 dropped_records);
  std::fclose(trace_file);
  trace_file = nullptr;
}

std::string trace_path() {
  const char* pattern = std::getenv("OVERLAP_TRACE_FILE");
  std::string path = pattern && *pattern ? pattern : "overlap-trace-%p.csv";
  const std::string::size_type pid_at = path.find("%p");
  if (pid_at != std::string::npos)
    path.replace(pid_at, 2, std::to_string(getpid()));
  return path;
}

} // namespace

// Called by the CUDA driver at initialization when CUDA_INJECTION64_PATH names this library.
extern "C" int InitializeInjection(void) {
  const std::string path = trace_path();
  trace_file = std::fopen(path.c_str(), "w");
  if (!trace_file) {
    std::perror(("overlap-cupti-trace: " + path).c_str());
    return 0;
  }
  std::fprintf(trace_file, "what,start_ns,end_ns,stream,correlation,bytes,name\n");
  TRACE_CUPTI_TRY(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
  TRACE_CUPTI_TRY(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY));
  TRACE_CUPTI_TRY(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  const char* api = std::getenv("OVERLAP_TRACE_API");
  if (!api || std::string(api) != "0")
    TRACE_CUPTI_TRY(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME));
  std::atexit(finish_trace);
  std::fprintf(stderr, "overlap-cupti-trace: tracing to %s\n", path.c_str());
  return 1;
}
