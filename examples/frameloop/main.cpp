// A stream of video frames through gray_histogram (paper 000 §4.3), one call per frame, as a video
// application runs it: a synchronous loop (gray_histogram_tuned per frame, the CPU idle while the
// GPU works) against an asynchronous one (gray_histogram_tuned_async on K streams, each with its
// output buffer: frame f+1 is issued while frame f runs, and the CPU reads frame f+1-K's histogram
// meanwhile; K = 2 is double buffering). Every frame's histogram is checked against the CPU's; the
// frames per second of each loop are compared with the link limit, the frame's bytes at the copy
// bandwidths measured in the same run with both directions busy, and with the frame's copies
// alone in a loop of their own (no kernel, nothing of Overlap's), timed in turn with the loops.
//
//   frameloop_example [frames] [width height]...     default: 1000 frames of 352x288 and 704x576
//   frameloop_example --in-flight K ...               K frames in flight (default 2)
//   frameloop_example --json FILE ...                 also writes the measurements as JSON
#include "gray_histogram.overlap.h"

#include "overlap/Dispatch.h"
#include "overlap/GraphCache.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

bool check(cudaError_t error, const char* what) {
  if (error != cudaSuccess)
    std::fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorString(error));
  return error == cudaSuccess;
}

bool check(const overlap::Status& status, const char* what) {
  if (!status.ok())
    std::fprintf(stderr, "%s failed: %s\n", what, status.message().c_str());
  return status.ok();
}

// Pinned host memory: what a capture device or decoder hands over, and what an asynchronous call
// needs to stay asynchronous.
template <class T> class Pinned {
public:
  explicit Pinned(std::size_t count) {
    if (!check(cudaMallocHost(reinterpret_cast<void**>(&data_),
                              sizeof(T) * std::max<std::size_t>(count, 1)),
               "cudaMallocHost"))
      std::exit(1);
  }
  ~Pinned() { cudaFreeHost(data_); }
  Pinned(const Pinned&) = delete;
  Pinned& operator=(const Pinned&) = delete;
  T* get() const { return data_; }

private:
  T* data_ = nullptr;
};

constexpr int kSourceFrames = 4; // distinct input frames, cycled (a capture ring)

struct Video {
  int width = 0;
  int height = 0;
  int pixels() const { return width * height; }
  std::vector<std::unique_ptr<Pinned<unsigned char>>> rgb; // kSourceFrames frames
  std::vector<std::vector<unsigned int>> histogram;        // the CPU's, per source frame
};

Video makeVideo(int width, int height, std::mt19937_64& rng) {
  Video video;
  video.width = width;
  video.height = height;
  const std::size_t bytes = 3 * static_cast<std::size_t>(video.pixels());
  for (int f = 0; f < kSourceFrames; ++f) {
    video.rgb.push_back(std::make_unique<Pinned<unsigned char>>(bytes));
    unsigned char* rgb = video.rgb.back()->get();
    for (std::size_t i = 0; i < bytes; ++i)
      rgb[i] = static_cast<unsigned char>(rng() >> 56);
    std::vector<unsigned int> histogram(256, 0);
    for (int p = 0; p < video.pixels(); ++p)
      ++histogram[(77u * rgb[3 * p] + 150u * rgb[3 * p + 1] + 29u * rgb[3 * p + 2]) >> 8];
    video.histogram.push_back(std::move(histogram));
  }
  return video;
}

// One output buffer: the frame's gray image and its histogram.
struct Output {
  explicit Output(int pixels) : gray(static_cast<std::size_t>(pixels)), histogram(256) {}
  Pinned<unsigned char> gray;
  Pinned<unsigned int> histogram;
};

// The CPU's share of a frame: read its histogram (and compare it with the source frame's).
struct Consumer {
  const Video& video;
  long long wrong = 0;
  void operator()(int frame, const Output& out) {
    const std::vector<unsigned int>& want = video.histogram[frame % kSourceFrames];
    if (std::memcmp(want.data(), out.histogram.get(), 256 * sizeof(unsigned int)) != 0)
      ++wrong;
  }
};

double secondsOf(const std::function<bool()>& loop, bool* ok) {
  const auto start = std::chrono::steady_clock::now();
  *ok = loop();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Frame after frame, each call returning with its results.
bool synchronousLoop(const Video& video, int frames, std::vector<std::unique_ptr<Output>>& outs,
                     Consumer& consume) {
  for (int f = 0; f < frames; ++f) {
    Output& out = *outs[0];
    if (!check(gray_histogram_tuned(1, video.pixels(), video.rgb[f % kSourceFrames]->get(),
                                    out.gray.get(), out.histogram.get()),
               "gray_histogram_tuned"))
      return false;
    consume(f, out);
  }
  return true;
}

// Frame f on stream f % K into output buffer f % K, once the CPU has read what frame f - K left
// there (K: the buffers).
bool asynchronousLoop(const Video& video, int frames, std::vector<std::unique_ptr<Output>>& outs,
                      Consumer& consume, const std::vector<cudaStream_t>& streams,
                      const std::vector<cudaEvent_t>& done) {
  const int buffers = static_cast<int>(outs.size());
  for (int f = 0; f < frames; ++f) {
    const std::size_t b = static_cast<std::size_t>(f % buffers);
    Output& out = *outs[b];
    if (f >= buffers) {
      if (!check(cudaEventSynchronize(done[b]), "cudaEventSynchronize"))
        return false;
      consume(f - buffers, out);
    }
    if (!check(gray_histogram_tuned_async(1, video.pixels(), video.rgb[f % kSourceFrames]->get(),
                                          out.gray.get(), out.histogram.get(), streams[b]),
               "gray_histogram_tuned_async") ||
        !check(cudaEventRecord(done[b], streams[b]), "cudaEventRecord"))
      return false;
  }
  for (int f = std::max(0, frames - buffers); f < frames; ++f) {
    const std::size_t b = static_cast<std::size_t>(f % buffers);
    if (!check(cudaEventSynchronize(done[b]), "cudaEventSynchronize"))
      return false;
    consume(f, *outs[b]);
  }
  return true;
}

// The frame's copies alone, as the asynchronous loop issues them but with nothing of Overlap's and
// no kernel: the RGB frame in, the gray frame and the histogram out, frame f on stream f % K once
// frame f - K is done. What a loop of frames of this size can reach on this machine: each copy
// also costs the DMA engine a start (L+o and g of paper 001's model), which the byte limit below
// leaves out and which weighs on small frames (352x288 on an H200: 0.65 of the byte limit).
struct CopyLoop {
  CopyLoop(const Video& video, int inFlight)
      : in(3 * static_cast<std::size_t>(video.pixels())),
        out(static_cast<std::size_t>(video.pixels()) + 256 * sizeof(unsigned int)) {
    for (int b = 0; b < inFlight; ++b) {
      hostOut.push_back(std::make_unique<Pinned<char>>(out));
      void* d = nullptr;
      ok = ok && check(cudaMalloc(&d, in + out), "cudaMalloc");
      device.push_back(static_cast<char*>(d));
    }
  }
  ~CopyLoop() {
    for (char* d : device)
      cudaFree(d);
  }
  CopyLoop(const CopyLoop&) = delete;
  CopyLoop& operator=(const CopyLoop&) = delete;

  bool run(const Video& video, int frames, const std::vector<cudaStream_t>& streams,
           const std::vector<cudaEvent_t>& done) {
    const int buffers = static_cast<int>(streams.size());
    const std::size_t gray = static_cast<std::size_t>(video.pixels());
    for (int f = 0; f < frames && ok; ++f) {
      const std::size_t b = static_cast<std::size_t>(f % buffers);
      char* d = device[b];
      char* h = hostOut[b]->get();
      ok = (f < buffers || check(cudaEventSynchronize(done[b]), "cudaEventSynchronize")) &&
           check(cudaMemcpyAsync(d, video.rgb[f % kSourceFrames]->get(), in, cudaMemcpyHostToDevice,
                                 streams[b]),
                 "cudaMemcpyAsync") &&
           check(cudaMemcpyAsync(h, d + in, gray, cudaMemcpyDeviceToHost, streams[b]),
                 "cudaMemcpyAsync") &&
           check(cudaMemcpyAsync(h + gray, d + in + gray, out - gray, cudaMemcpyDeviceToHost,
                                 streams[b]),
                 "cudaMemcpyAsync") &&
           check(cudaEventRecord(done[b], streams[b]), "cudaEventRecord");
    }
    return ok && check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }

  std::size_t in;
  std::size_t out;
  std::vector<std::unique_ptr<Pinned<char>>> hostOut;
  std::vector<char*> device;
  bool ok = true;
};

// Host-to-device and device-to-host bandwidth with both directions busy at once (bytes/s): what a
// pipelined loop of frames can use of the link at best.
bool bidirectionalBandwidth(double* toDevice, double* toHost) {
  const std::size_t bytes = std::size_t{64} << 20;
  Pinned<char> hostIn(bytes);
  Pinned<char> hostOut(bytes);
  std::memset(hostIn.get(), 1, bytes);
  void* deviceIn = nullptr;
  void* deviceOut = nullptr;
  cudaStream_t up = nullptr;
  cudaStream_t down = nullptr;
  cudaEvent_t marks[4] = {};
  bool ok = check(cudaMalloc(&deviceIn, bytes), "cudaMalloc") &&
            check(cudaMalloc(&deviceOut, bytes), "cudaMalloc") &&
            check(cudaStreamCreateWithFlags(&up, cudaStreamNonBlocking), "cudaStreamCreate") &&
            check(cudaStreamCreateWithFlags(&down, cudaStreamNonBlocking), "cudaStreamCreate");
  for (cudaEvent_t& mark : marks)
    ok = ok && check(cudaEventCreate(&mark), "cudaEventCreate");
  *toDevice = 0;
  *toHost = 0;
  for (int repeat = 0; ok && repeat < 5; ++repeat) {
    ok = check(cudaEventRecord(marks[0], up), "cudaEventRecord") &&
         check(cudaEventRecord(marks[2], down), "cudaEventRecord") &&
         check(cudaMemcpyAsync(deviceIn, hostIn.get(), bytes, cudaMemcpyHostToDevice, up),
               "cudaMemcpyAsync") &&
         check(cudaMemcpyAsync(hostOut.get(), deviceOut, bytes, cudaMemcpyDeviceToHost, down),
               "cudaMemcpyAsync") &&
         check(cudaEventRecord(marks[1], up), "cudaEventRecord") &&
         check(cudaEventRecord(marks[3], down), "cudaEventRecord") &&
         check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    float upMs = 0;
    float downMs = 0;
    ok = ok && check(cudaEventElapsedTime(&upMs, marks[0], marks[1]), "cudaEventElapsedTime") &&
         check(cudaEventElapsedTime(&downMs, marks[2], marks[3]), "cudaEventElapsedTime");
    if (ok && repeat > 0) { // the first warms up
      *toDevice = std::max(*toDevice, bytes / (upMs * 1e-3));
      *toHost = std::max(*toHost, bytes / (downMs * 1e-3));
    }
  }
  for (cudaEvent_t mark : marks)
    cudaEventDestroy(mark);
  cudaStreamDestroy(up);
  cudaStreamDestroy(down);
  cudaFree(deviceIn);
  cudaFree(deviceOut);
  return ok;
}

struct Measured {
  int inFlight = 0;
  int width = 0;
  int height = 0;
  int frames = 0;
  double syncFps = 0;
  double asyncFps = 0;
  double limitFps = 0;
  double copyLoopFps = 0; // the frame's copies alone (CopyLoop)
  long long wrong = 0;
  std::string variant;
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

bool measure(int width, int height, int frames, int inFlight, std::mt19937_64& rng,
             Measured* result) {
  const Video video = makeVideo(width, height, rng);
  std::vector<std::unique_ptr<Output>> outs;
  for (int b = 0; b < inFlight; ++b)
    outs.push_back(std::make_unique<Output>(video.pixels()));
  std::vector<cudaStream_t> streams(static_cast<std::size_t>(inFlight));
  std::vector<cudaEvent_t> done(static_cast<std::size_t>(inFlight));
  for (std::size_t b = 0; b < streams.size(); ++b)
    if (!check(cudaStreamCreateWithFlags(&streams[b], cudaStreamNonBlocking), "cudaStreamCreate") ||
        !check(cudaEventCreateWithFlags(&done[b], cudaEventDisableTiming), "cudaEventCreate"))
      return false;
  double toDevice = 0;
  double toHost = 0;
  if (!bidirectionalBandwidth(&toDevice, &toHost))
    return false;
  // Bytes per frame: the RGB frame in; the gray frame and the histogram out.
  const double in = 3.0 * video.pixels();
  const double out = video.pixels() + 256.0 * sizeof(unsigned int);
  result->limitFps = 1.0 / std::max(in / toDevice, out / toHost);

  Consumer consume{video};
  bool ok = synchronousLoop(video, inFlight, outs, consume) && // warm up: choices, pools
            asynchronousLoop(video, inFlight, outs, consume, streams, done);
  CopyLoop copies(video, inFlight);
  ok = ok && copies.run(video, inFlight, streams, done);
  // Interleaved rounds, so that a drifting link hits the loops alike; the median of each.
  std::vector<double> sync;
  std::vector<double> async;
  std::vector<double> copied;
  for (int round = 0; ok && round < 5; ++round) {
    sync.push_back(secondsOf([&] { return synchronousLoop(video, frames, outs, consume); }, &ok));
    if (ok)
      async.push_back(secondsOf(
          [&] { return asynchronousLoop(video, frames, outs, consume, streams, done); }, &ok));
    if (ok)
      copied.push_back(secondsOf([&] { return copies.run(video, frames, streams, done); }, &ok));
  }
  for (std::size_t b = 0; b < streams.size(); ++b) {
    cudaEventDestroy(done[b]);
    cudaStreamDestroy(streams[b]);
  }
  if (!ok)
    return false;
  if (const auto choice = overlap::lastDispatchChoice(gray_histogram_descriptor))
    result->variant = overlap::describe(choice->config);
  result->inFlight = inFlight;
  result->width = width;
  result->height = height;
  result->frames = frames;
  result->syncFps = frames / median(sync);
  result->asyncFps = frames / median(async);
  result->copyLoopFps = frames / median(copied);
  result->wrong = consume.wrong;
  return true;
}

} // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string json;
  int inFlight = 2;
  while (args.size() >= 2 && (args[0] == "--json" || args[0] == "--in-flight")) {
    if (args[0] == "--json")
      json = args[1];
    else
      inFlight = std::atoi(args[1].c_str());
    args.erase(args.begin(), args.begin() + 2);
  }
  const int frames = args.empty() ? 1000 : std::atoi(args[0].c_str());
  std::vector<std::pair<int, int>> sizes;
  for (std::size_t i = 1; i + 1 < args.size(); i += 2)
    sizes.emplace_back(std::atoi(args[i].c_str()), std::atoi(args[i + 1].c_str()));
  if (sizes.empty())
    sizes = {{352, 288}, {704, 576}};
  if (frames < 1 || inFlight < 1 || std::any_of(sizes.begin(), sizes.end(), [](const auto& s) {
        return s.first < 1 || s.second < 1;
      })) {
    std::fprintf(stderr, "usage: frameloop_example [--json FILE] [--in-flight K] [frames] "
                         "[width height]...\n");
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: the frame loop was generated and compiled; nothing was run\n");
    return 0;
  }
  cudaDeviceProp prop{};
  if (!check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties"))
    return 1;
  // The asynchronous loop's calls bring lcm(source frames, K) sets of arguments (input frame,
  // output buffer): a graph cache holding them all replays every call, where the default 8 entries
  // would capture and update most calls of a loop of 16 in flight.
  overlap::setGraphCacheCapacity(
      std::max<std::size_t>(overlap::GraphCache::kDefaultCapacity,
                            static_cast<std::size_t>(std::lcm(kSourceFrames, inFlight))));
  std::mt19937_64 rng(std::random_device{}());
  std::printf("%d frames per loop, one gray_histogram call per frame, %d in flight, on %s\n",
              frames, inFlight, prop.name);
  // limit: the frame's bytes at the link's rates; copies: the frame's copies alone (CopyLoop).
  std::printf("%-9s %-26s %10s %10s %10s %10s %8s %8s %8s %8s\n", "frame", "K_tuned ran",
              "sync fps", "async fps", "limit fps", "copies fps", "async/", "async/", "async/",
              "wrong");
  std::printf("%-9s %-26s %10s %10s %10s %10s %8s %8s %8s %8s\n", "", "", "", "", "", "", "sync",
              "limit", "copies", "frames");
  std::vector<Measured> results;
  bool allRight = true;
  for (const auto& [width, height] : sizes) {
    Measured m;
    const overlap::GraphCacheStats before = overlap::graphCacheStats();
    if (!measure(width, height, frames, inFlight, rng, &m))
      return 1;
    const overlap::GraphCacheStats graphs = overlap::graphCacheStats() - before;
    allRight &= m.wrong == 0;
    const std::string frame = std::to_string(width) + "x" + std::to_string(height);
    std::printf("%-9s %-26s %10.0f %10.0f %10.0f %10.0f %8.2f %8.2f %8.2f %8lld\n", frame.c_str(),
                m.variant.c_str(), m.syncFps, m.asyncFps, m.limitFps, m.copyLoopFps,
                m.asyncFps / m.syncFps, m.asyncFps / m.limitFps, m.asyncFps / m.copyLoopFps,
                m.wrong);
    if (graphs.replays + graphs.captures + graphs.uncaptured > 0) // a graph form ran
      std::printf("          graph cache: %lld replays, %lld captures, %lld updates, %lld "
                  "evictions, %lld calls plain\n",
                  graphs.replays, graphs.captures, graphs.updates, graphs.evictions,
                  graphs.uncaptured);
    results.push_back(m);
  }
  if (!json.empty()) {
    FILE* out = std::fopen(json.c_str(), "w");
    if (out == nullptr) {
      std::fprintf(stderr, "cannot write %s\n", json.c_str());
      return 1;
    }
    std::fprintf(out, "{\"device\": \"%s\", \"frames\": %d, \"in_flight\": %d, \"sizes\": [",
                 prop.name, frames, inFlight);
    for (std::size_t i = 0; i < results.size(); ++i) {
      const Measured& m = results[i];
      std::fprintf(out,
                   "%s\n  {\"width\": %d, \"height\": %d, \"variant\": \"%s\", \"sync_fps\": %.1f, "
                   "\"async_fps\": %.1f, \"limit_fps\": %.1f, \"copy_loop_fps\": %.1f, "
                   "\"wrong_frames\": %lld}",
                   i == 0 ? "" : ",", m.width, m.height, m.variant.c_str(), m.syncFps, m.asyncFps,
                   m.limitFps, m.copyLoopFps, m.wrong);
    }
    std::fprintf(out, "\n]}\n");
    std::fclose(out);
  }
  return allRight ? 0 : 1;
}
