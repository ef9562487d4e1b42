// The out-of-core benchmark of issue 22 (scripts/bench.sh outofcore): saxpy, sepia and buoydiff
// with arrays 4x the device-memory budget, each run out of core (DeviceBuffers::Ring under the
// budget) and with unlimited memory (DeviceBuffers::Full) at the same streams and chunks,
// interleaved, against the link limit (the same bytes copied both ways at once, nothing else);
// then saxpy once more with most of the GPU's memory taken by a ballast allocation and the
// automatic budget. Pinned arrays; whole calls on the host clock, medians; every result checked
// against the CPU reference bit for bit.
//
//   bench_out_of_core [--budget 1GiB] [--streams 4] [--repeats 5] --output DIR
//
// Writes DIR/outofcore.json and DIR/outofcore.md.
#include "buoydiff.overlap.h"
#include "saxpy.overlap.h"
#include "sepia.overlap.h"

#include "BenchCheck.h"
#include "Reference.h"
#include "overlap/ByteSize.h"
#include "overlap/DeviceContext.h"
#include "overlap/DeviceMemoryBudget.h"
#include "overlap/PinnedBuffer.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Options {
  std::size_t budget = std::size_t{1} << 30;
  int streams = 4;
  int repeats = 5;
  std::string output;
};

using bench::check;
using bench::checkCuda;
using bench::fail;

double seconds(const std::function<overlap::Status()>& call, const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  check(call(), what);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// SplitMix64: gigabytes of random inputs in seconds (std::mt19937_64 would take a minute).
class Random {
public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [low, high), 24 random bits.
  float uniform(float low, float high) {
    return low + (high - low) * static_cast<float>(next() >> 40) / 16777216.0f;
  }
  void bytes(unsigned char* out, std::size_t count) {
    for (std::size_t i = 0; i < count; i += 8) {
      const std::uint64_t bits = next();
      std::memcpy(out + i, &bits, std::min<std::size_t>(8, count - i));
    }
  }

private:
  std::uint64_t state_;
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Host data of one application: pinned inputs and outputs, the CPU's result.
struct App {
  std::string name;
  std::string shape;
  std::size_t inBytes = 0;
  std::size_t outBytes = 0;
  std::function<overlap::Status(const overlap::StreamsConfig&)> run;
  std::function<overlap::Status()> runExplicit;
  std::function<bool()> verify; // the output against the CPU's, bit for bit
  // Restores what a call reads and writes (saxpy's y) and scribbles over pure outputs, before a
  // call that is verified; timed calls repeat without it (saxpy's y then grows, as in a loop).
  std::function<void()> reset;
};

template <class T> T* pinned(std::size_t count, std::vector<overlap::PinnedBuffer>* keep) {
  keep->emplace_back();
  check(overlap::PinnedBuffer::allocate(count * sizeof(T), &keep->back()), "cudaHostAlloc");
  return keep->back().as<T>();
}

// Bytes of device memory the full buffers take: inputs and outputs, each once.
std::size_t fullBytes(const App& app) {
  return app.inBytes + app.outBytes;
}

App saxpyApp(std::size_t deviceBytes, Random& random, std::vector<overlap::PinnedBuffer>* keep) {
  const int n = static_cast<int>(deviceBytes / (2 * sizeof(float)));
  float* x = pinned<float>(static_cast<std::size_t>(n), keep);
  float* y = pinned<float>(static_cast<std::size_t>(n), keep);
  auto y0 = std::make_shared<std::vector<float>>(static_cast<std::size_t>(n));
  auto expected = std::make_shared<std::vector<float>>(static_cast<std::size_t>(n));
  const float a = 1.75f;
  for (int i = 0; i < n; ++i) {
    x[i] = random.uniform(0.5f, 2.0f);
    (*y0)[static_cast<std::size_t>(i)] = random.uniform(0.5f, 2.0f);
    (*expected)[static_cast<std::size_t>(i)] =
        std::fmaf(a, x[i], (*y0)[static_cast<std::size_t>(i)]);
  }
  App app;
  app.name = "saxpy";
  app.shape = "n = " + std::to_string(n);
  app.inBytes = 2 * sizeof(float) * static_cast<std::size_t>(n);
  app.outBytes = sizeof(float) * static_cast<std::size_t>(n);
  app.run = [=](const overlap::StreamsConfig& config) { return saxpy_streams(n, a, x, y, config); };
  app.runExplicit = [=] { return saxpy_explicit(n, a, x, y); };
  app.verify = [=] {
    return std::memcmp(y, expected->data(), expected->size() * sizeof(float)) == 0;
  };
  app.reset = [=] { std::memcpy(y, y0->data(), y0->size() * sizeof(float)); };
  return app;
}

App sepiaApp(std::size_t deviceBytes, Random& random, std::vector<overlap::PinnedBuffer>* keep) {
  const int pixels = static_cast<int>(deviceBytes / 6);
  const std::size_t bytes = 3 * static_cast<std::size_t>(pixels);
  std::vector<unsigned char> rgb(bytes);
  random.bytes(rgb.data(), bytes);
  auto expected = std::make_shared<std::vector<unsigned char>>(bench::sepia(rgb));
  unsigned char* in = pinned<unsigned char>(bytes, keep);
  unsigned char* out = pinned<unsigned char>(bytes, keep);
  std::memcpy(in, rgb.data(), bytes);
  App app;
  app.name = "sepia";
  app.shape = "pixels = " + std::to_string(pixels);
  app.inBytes = bytes;
  app.outBytes = bytes;
  app.run = [=](const overlap::StreamsConfig& config) {
    return sepia_streams(pixels, in, out, config);
  };
  app.verify = [=] { return std::memcmp(out, expected->data(), bytes) == 0; };
  app.reset = [=] { std::memset(out, 0x5a, bytes); };
  return app;
}

App buoydiffApp(std::size_t deviceBytes, Random& random, std::vector<overlap::PinnedBuffer>* keep) {
  // A deep grid: each chunk re-sends the level above its first as its halo out of core, so the
  // extra traffic is one level per chunk (bench/README.md).
  const int levels = 512;
  const long long plane = static_cast<long long>(deviceBytes / (2 * sizeof(float) * levels));
  const std::size_t count = static_cast<std::size_t>(levels * plane);
  float* rho = pinned<float>(count, keep);
  float* out = pinned<float>(count, keep);
  for (std::size_t i = 0; i < count; ++i)
    rho[i] = random.uniform(1020.0f, 1030.0f);
  auto expected = std::make_shared<std::vector<float>>(count);
  for (int k = 0; k < levels; ++k)
    for (long long p = 0; p < plane; ++p) {
      const float surface = rho[p];
      const float above = k > 0 ? rho[(k - 1) * plane + p] : surface;
      (*expected)[static_cast<std::size_t>(k * plane + p)] =
          (rho[k * plane + p] - above) * (surface + 1.0f);
    }
  App app;
  app.name = "buoydiff";
  app.shape = "levels = " + std::to_string(levels) + ", plane = " + std::to_string(plane);
  app.inBytes = count * sizeof(float);
  app.outBytes = count * sizeof(float);
  app.run = [=](const overlap::StreamsConfig& config) {
    return buoydiff_streams(levels, plane, rho, out, config);
  };
  app.verify = [=] { return std::memcmp(out, expected->data(), count * sizeof(float)) == 0; };
  app.reset = [=] { std::memset(out, 0x7f, count * sizeof(float)); };
  return app;
}

// The link limit of a call: its input and output bytes copied at once, the inputs to the device
// and the outputs back, in pieces of `piece` bytes through one device buffer each way (what must
// cross the link, with nothing else: no kernel, no dependency between the directions).
class LinkLimit {
public:
  LinkLimit(std::size_t piece) : piece_(piece) {
    checkCuda(cudaMalloc(&deviceIn_, piece), "cudaMalloc");
    checkCuda(cudaMalloc(&deviceOut_, piece), "cudaMalloc");
    checkCuda(cudaStreamCreateWithFlags(&in_, cudaStreamNonBlocking), "cudaStreamCreate");
    checkCuda(cudaStreamCreateWithFlags(&out_, cudaStreamNonBlocking), "cudaStreamCreate");
    check(overlap::PinnedBuffer::allocate(piece, &hostIn_), "cudaHostAlloc");
    check(overlap::PinnedBuffer::allocate(piece, &hostOut_), "cudaHostAlloc");
  }
  ~LinkLimit() {
    (void)cudaFree(deviceIn_);
    (void)cudaFree(deviceOut_);
    (void)cudaStreamDestroy(in_);
    (void)cudaStreamDestroy(out_);
  }
  overlap::Status copy(std::size_t inBytes, std::size_t outBytes) {
    for (std::size_t done = 0; done < inBytes; done += piece_)
      OVERLAP_CUDA_TRY(cudaMemcpyAsync(deviceIn_, hostIn_.data(), std::min(piece_, inBytes - done),
                                       cudaMemcpyHostToDevice, in_));
    for (std::size_t done = 0; done < outBytes; done += piece_)
      OVERLAP_CUDA_TRY(cudaMemcpyAsync(hostOut_.data(), deviceOut_,
                                       std::min(piece_, outBytes - done), cudaMemcpyDeviceToHost,
                                       out_));
    OVERLAP_CUDA_TRY(cudaStreamSynchronize(in_));
    OVERLAP_CUDA_TRY(cudaStreamSynchronize(out_));
    return overlap::Status::success();
  }

private:
  std::size_t piece_;
  void* deviceIn_ = nullptr;
  void* deviceOut_ = nullptr;
  cudaStream_t in_ = nullptr;
  cudaStream_t out_ = nullptr;
  overlap::PinnedBuffer hostIn_;
  overlap::PinnedBuffer hostOut_;
};

struct Row {
  std::string name;
  std::string shape;
  std::string setting;
  std::size_t bytes = 0; // device bytes of the full buffers
  int streams = 0;
  int chunks = 0;
  double fullSeconds = 0;
  double ringSeconds = 0;
  double linkSeconds = 0;
  bool verified = false;
  std::string explicitRefusal;
};

// The fewest chunks (a multiple of the streams) whose ring fits the budget, found by calling.
int ringChunks(const App& app, const Options& options) {
  for (int chunks = options.streams; chunks <= (1 << 16); chunks *= 2) {
    overlap::StreamsConfig config{options.streams, overlap::IssueOrder::DepthFirst};
    config.chunks = chunks;
    config.buffers = overlap::DeviceBuffers::Ring;
    config.deviceMemoryBudget = options.budget;
    if (app.run(config).ok())
      return chunks;
    (void)cudaGetLastError();
  }
  fail(app.name + ": no ring fits the budget");
}

Row measure(const App& app, const Options& options, LinkLimit& link) {
  Row row;
  row.name = app.name;
  row.shape = app.shape;
  row.bytes = fullBytes(app);
  row.streams = options.streams;
  row.chunks = ringChunks(app, options);
  overlap::StreamsConfig full{options.streams, overlap::IssueOrder::DepthFirst};
  full.chunks = row.chunks;
  full.buffers = overlap::DeviceBuffers::Full;
  full.deviceMemoryBudget = SIZE_MAX;
  overlap::StreamsConfig ring = full;
  ring.buffers = overlap::DeviceBuffers::Ring;
  ring.deviceMemoryBudget = options.budget;
  row.verified = true;
  for (const overlap::StreamsConfig* config : {&full, &ring}) {
    app.reset();
    check(app.run(*config), app.name + " " + overlap::describe(overlap::Variant::Streams, *config));
    row.verified = row.verified && app.verify();
  }
  std::vector<double> fullTimes, ringTimes, linkTimes;
  for (int r = 0; r < options.repeats; ++r) {
    fullTimes.push_back(seconds([&] { return app.run(full); }, app.name + " full"));
    // The full buffers leave the cache holding them; the ring's call then reuses that block, as
    // any process would. Out of core with memory to spare is the ring's layout all the same.
    ringTimes.push_back(seconds([&] { return app.run(ring); }, app.name + " ring"));
    linkTimes.push_back(
        seconds([&] { return link.copy(app.inBytes, app.outBytes); }, app.name + " link"));
  }
  row.fullSeconds = median(fullTimes);
  row.ringSeconds = median(ringTimes);
  row.linkSeconds = median(linkTimes);
  std::printf("%-9s %-36s %5.1f GiB  N=%d C=%-5d full %8.2f ms  ring %8.2f ms (%.3fx)  link %8.2f "
              "ms (%.3fx)  %s\n",
              row.name.c_str(), row.shape.c_str(), static_cast<double>(row.bytes) / (1 << 30),
              row.streams, row.chunks, row.fullSeconds * 1e3, row.ringSeconds * 1e3,
              row.ringSeconds / row.fullSeconds, row.linkSeconds * 1e3,
              row.ringSeconds / row.linkSeconds, row.verified ? "verified" : "WRONG RESULT");
  return row;
}

// saxpy with most of the device's memory taken: the automatic budget (free memory less the
// margin) is what is left, and Explicit is refused.
Row ballast(const Options& options, Random& random, LinkLimit& link) {
  check(overlap::releaseCachedDeviceMemory(), "releaseCachedDeviceMemory");
  std::size_t free = 0, total = 0;
  checkCuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  const std::size_t leave = options.budget + overlap::kDeviceMemoryMargin;
  void* ballastBlock = nullptr;
  checkCuda(cudaMalloc(&ballastBlock, free - leave), "cudaMalloc(ballast)");
  std::vector<overlap::PinnedBuffer> keep;
  const App app = saxpyApp(4 * options.budget, random, &keep);
  Row row;
  row.name = app.name;
  row.shape = app.shape;
  row.setting = "ballast: " + overlap::formatBytes(static_cast<double>(free - leave)) +
                " taken, automatic budget";
  row.bytes = fullBytes(app);
  row.streams = options.streams;
  overlap::StreamsConfig config{options.streams, overlap::IssueOrder::DepthFirst};
  app.reset();
  check(app.run(config), "saxpy beside the ballast");
  row.verified = app.verify();
  std::vector<double> times, linkTimes;
  for (int r = 0; r < options.repeats; ++r) {
    times.push_back(seconds([&] { return app.run(config); }, "saxpy beside the ballast"));
    linkTimes.push_back(seconds([&] { return link.copy(app.inBytes, app.outBytes); }, "link"));
  }
  row.ringSeconds = median(times);
  row.linkSeconds = median(linkTimes);
  const overlap::Status refused = app.runExplicit();
  row.explicitRefusal = refused.ok() ? "(ran)" : refused.call;
  checkCuda(cudaFree(ballastBlock), "cudaFree(ballast)");
  std::printf("ballast   %-36s automatic budget: %8.2f ms, link %8.2f ms (%.3fx) %s\n  Explicit: "
              "%s\n",
              row.shape.c_str(), row.ringSeconds * 1e3, row.linkSeconds * 1e3,
              row.ringSeconds / row.linkSeconds, row.verified ? "verified" : "WRONG RESULT",
              row.explicitRefusal.c_str());
  return row;
}

std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (char c : text)
    out += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

void write(const Options& options, const std::vector<Row>& rows, const std::string& device) {
  std::ofstream json(options.output + "/outofcore.json");
  json << "{\n  \"device\": " << jsonString(device) << ",\n  \"budget_bytes\": " << options.budget
       << ",\n  \"repeats\": " << options.repeats << ",\n  \"rows\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    json << "    {\"app\": " << jsonString(r.name) << ", \"shape\": " << jsonString(r.shape)
         << ", \"setting\": " << jsonString(r.setting) << ", \"device_bytes\": " << r.bytes
         << ", \"streams\": " << r.streams << ", \"chunks\": " << r.chunks
         << ", \"full_s\": " << r.fullSeconds << ", \"ring_s\": " << r.ringSeconds
         << ", \"link_s\": " << r.linkSeconds
         << ", \"verified\": " << (r.verified ? "true" : "false")
         << ", \"explicit\": " << jsonString(r.explicitRefusal) << "}"
         << (i + 1 < rows.size() ? ",\n" : "\n");
  }
  json << "  ]\n}\n";
  std::ofstream md(options.output + "/outofcore.md");
  md << "| application | arrays | streams x chunks | full buffers | out of core | ratio | link "
        "limit | out of core / link | verified |\n|---|---|---|---:|---:|---:|---:|---:|---|\n";
  for (const Row& r : rows) {
    const auto ms = [](double s) {
      char text[32];
      std::snprintf(text, sizeof text, "%.1f ms", s * 1e3);
      return std::string(text);
    };
    const auto ratio = [](double a, double b) {
      char text[32];
      std::snprintf(text, sizeof text, "%.3f", a / b);
      return std::string(text);
    };
    md << "| " << r.name << (r.setting.empty() ? "" : " (" + r.setting + ")") << " | "
       << overlap::formatBytes(static_cast<double>(r.bytes)) << " (" << r.shape << ") | "
       << r.streams << " x " << (r.chunks > 0 ? std::to_string(r.chunks) : "auto") << " | "
       << (r.fullSeconds > 0 ? ms(r.fullSeconds) : "-") << " | " << ms(r.ringSeconds) << " | "
       << (r.fullSeconds > 0 ? ratio(r.ringSeconds, r.fullSeconds) : "-") << " | "
       << ms(r.linkSeconds) << " | " << ratio(r.ringSeconds, r.linkSeconds) << " | "
       << (r.verified ? "yes" : "NO") << " |\n";
  }
  for (const Row& r : rows)
    if (!r.explicitRefusal.empty())
      md << "\nExplicit beside the ballast: " << r.explicitRefusal << "\n";
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        fail(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--budget") {
      if (!overlap::parseMemorySize(value(), &options.budget))
        fail("--budget takes a size such as 1GiB");
    } else if (arg == "--streams") {
      options.streams = std::atoi(value().c_str());
    } else if (arg == "--repeats") {
      options.repeats = std::atoi(value().c_str());
    } else if (arg == "--output") {
      options.output = value();
    } else {
      fail("unknown argument " + arg +
           "; usage: bench_out_of_core [--budget 1GiB] [--streams 4] [--repeats 5] --output DIR");
    }
  }
  if (options.output.empty() || options.streams < 1 || options.repeats < 1)
    fail("usage: bench_out_of_core [--budget 1GiB] [--streams 4] [--repeats 5] --output DIR");
  return options;
}

} // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  cudaDeviceProp properties{};
  checkCuda(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  std::printf("%s, budget %s, arrays 4x the budget, %d repeats\n", properties.name,
              overlap::formatBytes(static_cast<double>(options.budget)).c_str(), options.repeats);
  Random random(20261126);
  LinkLimit link(std::size_t{8} << 20);
  std::vector<Row> rows;
  for (const auto make : {&saxpyApp, &sepiaApp, &buoydiffApp}) {
    std::vector<overlap::PinnedBuffer> keep;
    const App app = make(4 * options.budget, random, &keep);
    rows.push_back(measure(app, options, link));
    check(overlap::releaseCachedDeviceMemory(), "releaseCachedDeviceMemory");
  }
  rows.push_back(ballast(options, random, link));
  write(options, rows, properties.name);
  for (const Row& row : rows)
    if (!row.verified)
      return 2;
  return 0;
}
