#include "tune/TuneOptions.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace overlap::tune {
namespace {

bool parseDouble(const std::string& text, double* value) {
  char* end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  return !text.empty() && end && *end == '\0';
}

bool parseLong(const std::string& text, long long* value) {
  char* end = nullptr;
  *value = std::strtoll(text.c_str(), &end, 0);
  return !text.empty() && end && *end == '\0';
}

} // namespace

std::string tuneUsage(const std::string& program) {
  std::ostringstream out;
  out << "usage: " << program << R"( [options]
Tunes the annotated kernels linked into this program: runs Explicit as the reference, predicts
every candidate with the model, runs the pruned set on the GPU, verifies every output against
Explicit's, times each call (transfers included) to a stable median, and picks the winner.

  --kernel NAME          tune only this kernel (repeatable; default: all)
  --arg NAME=VALUE       integer argument, over the annotation's tune(...) default (repeatable)
  --sweep NAME=LO..HI[:COUNT]
                         tune at COUNT values of the integer argument NAME (default 7),
                         log-spaced from LO to HI, then bisect where the winner changes; the
                         results file keeps the winner of every size (kernels without NAME: one
                         size)
  --refine N             at most N extra sizes by bisection (default 8; 0: none)
  --list                 list the kernels and their tuning defaults, run nothing
  --profile NAME|FILE    hardware profile for the model (default: a calibrated profile of this
                         device from the profile directories, else an embedded one, said so)
  --exhaustive           run every candidate, not just the model's pruned set
  --model-only           run nothing: write the model's predictions only
  --output-dir DIR       where the reports go (default overlap-tuning)
  --results-file FILE    update this tuning-results file (the lock file) with the winners
  --cache-dir DIR        tuning cache (default <output-dir>/cache)
  --no-cache             neither read nor write the cache
  --tolerance X          relative tolerance for floating-point outputs (default 0: exact)
  --noise X              medians within X of the fastest are ties (default 0.02)
  --max-streams N        largest stream count considered (default 64)
  --max-chunks-per-stream N  Streams and Hybrid also cut the call into 2, 4, ... N chunks per
                         stream, each moving at least 1 MiB (default 8; 1: one per stream)
  --devices N            also split every candidate across N GPUs (StreamsConfig::devices;
                         default 1: one GPU only)
  --graphs               also try every Streams and Hybrid candidate as a CUDA graph replayed
                         by later calls (StreamsConfig::graph): for calls repeated in a loop on
                         pinned arrays; each call on other arrays or scalars pays a capture
  --kernel-time SECONDS  t_E for the model (default: inferred from Explicit's measurement)
  --memory LIST          host memory of the tuned calls, tuned in turn: pinned, pageable or
                         pinned,pageable (default pinned); K_tuned dispatches a call by its
                         arrays' memory, on pageable memory among per-call registration and
                         staging as well
  --pageable             --memory pageable
  --repeats MIN:MAX      timed repeats per candidate (default 5:25)
  --final-rounds N       time the finalists again, one repeat of each in turn, N rounds, and pick
                         the winner from those alone (default 7; 0: no final round)
  --seed N               random inputs from this seed (default: fresh every run)
  --device N             CUDA device (default 0)
  --candidate-timeout S  stop a candidate that runs longer than S seconds, record it as failed and
                         go on (default: 600 s for Explicit, then max(60 s, 10 x Explicit's median
                         x the runs one candidate makes)); Explicit overrunning stops the tuning
  --no-supervise         run the candidates in this process: a hung candidate then hangs the tool
  --quiet                no progress lines
)";
  return out.str();
}

bool parseTuneOptions(const std::vector<std::string>& args, TuneOptions* options,
                      std::string* error) {
  TuneOptions out;
  std::optional<int> refinements;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const auto value = [&](std::string* text) {
      if (i + 1 >= args.size()) {
        *error = arg + " needs a value";
        return false;
      }
      *text = args[++i];
      return true;
    };
    std::string text;
    double number = 0;
    long long integer = 0;
    if (arg == "--help" || arg == "-h") {
      out.help = true;
    } else if (arg == "--kernel") {
      if (!value(&text))
        return false;
      out.kernels.push_back(text);
    } else if (arg == "--arg") {
      if (!value(&text))
        return false;
      const std::size_t equals = text.find('=');
      if (equals == std::string::npos || equals == 0 ||
          !parseLong(text.substr(equals + 1), &integer)) {
        *error = "--arg wants NAME=INTEGER, got \"" + text + "\"";
        return false;
      }
      out.arguments[text.substr(0, equals)] = integer;
    } else if (arg == "--sweep") {
      if (!value(&text))
        return false;
      if (out.sweep) {
        *error = "--sweep given twice: one sweep per tuning";
        return false;
      }
      SweepSpec spec;
      if (!parseSweep(text, &spec, error))
        return false;
      out.sweep = spec;
    } else if (arg == "--refine") {
      if (!value(&text))
        return false;
      if (!parseLong(text, &integer) || integer < 0 || integer > 64) {
        *error = "--refine wants an integer in 0..64, got \"" + text + "\"";
        return false;
      }
      refinements = static_cast<int>(integer);
    } else if (arg == "--list") {
      out.list = true;
    } else if (arg == "--profile") {
      if (!value(&out.profile))
        return false;
    } else if (arg == "--exhaustive") {
      out.tuner.exhaustive = true;
    } else if (arg == "--model-only") {
      out.modelOnly = true;
    } else if (arg == "--output-dir") {
      if (!value(&out.outputDir))
        return false;
    } else if (arg == "--results-file") {
      if (!value(&out.resultsFile))
        return false;
    } else if (arg == "--cache-dir") {
      if (!value(&text))
        return false;
      out.cacheDir = text;
    } else if (arg == "--no-cache") {
      out.cacheDir = std::string();
    } else if (arg == "--tolerance" || arg == "--noise" || arg == "--kernel-time") {
      if (!value(&text))
        return false;
      if (!parseDouble(text, &number) || number < 0 || (arg != "--kernel-time" && number >= 1)) {
        *error = arg + " wants a number" + (arg == "--kernel-time" ? " >= 0" : " in [0, 1)") +
                 ", got \"" + text + "\"";
        return false;
      }
      if (arg == "--tolerance")
        out.tolerance = number;
      else if (arg == "--noise")
        out.tuner.noise.relativeNoise = number;
      else
        out.tuner.kernelSeconds = number;
    } else if (arg == "--candidate-timeout") {
      if (!value(&text))
        return false;
      if (!parseDouble(text, &number) || !(number > 0) || number > 1e6) {
        *error = "--candidate-timeout wants seconds in (0, 1e6], got \"" + text + "\"";
        return false;
      }
      out.tuner.candidateTimeoutSeconds = number;
    } else if (arg == "--graphs") {
      out.tuner.search.graphs = true;
    } else if (arg == "--no-supervise") {
      out.supervise = false;
    } else if (arg == "--worker-fd") {
      if (!value(&text))
        return false;
      if (!parseLong(text, &integer) || integer < 0 || integer > 1 << 20) {
        *error = "--worker-fd wants a file descriptor, got \"" + text + "\"";
        return false;
      }
      out.workerFd = static_cast<int>(integer);
    } else if (arg == "--max-streams" || arg == "--max-chunks-per-stream" || arg == "--seed" ||
               arg == "--device" || arg == "--final-rounds" || arg == "--devices") {
      if (!value(&text))
        return false;
      const bool count =
          arg == "--max-streams" || arg == "--max-chunks-per-stream" || arg == "--devices";
      if (!parseLong(text, &integer) || integer < (count ? 1 : 0) ||
          (arg == "--final-rounds" && integer > 1000) || (count && integer > 1 << 20)) {
        *error = arg + " wants a non-negative integer, got \"" + text + "\"";
        return false;
      }
      if (arg == "--max-streams")
        out.tuner.search.maxStreams = static_cast<int>(integer);
      else if (arg == "--max-chunks-per-stream")
        out.tuner.search.maxChunksPerStream = static_cast<int>(integer);
      else if (arg == "--devices")
        out.tuner.search.devices = static_cast<int>(integer);
      else if (arg == "--seed")
        out.seed = static_cast<std::uint64_t>(integer);
      else if (arg == "--final-rounds")
        out.tuner.finalRounds = static_cast<int>(integer);
      else
        out.device = static_cast<int>(integer);
    } else if (arg == "--repeats") {
      if (!value(&text))
        return false;
      const std::size_t colon = text.find(':');
      long long low = 0, high = 0;
      if (colon == std::string::npos || !parseLong(text.substr(0, colon), &low) ||
          !parseLong(text.substr(colon + 1), &high) || low < 1 || high < low) {
        *error = "--repeats wants MIN:MAX with 1 <= MIN <= MAX, got \"" + text + "\"";
        return false;
      }
      out.tuner.timing.minRepeats = static_cast<int>(low);
      out.tuner.timing.maxRepeats = static_cast<int>(high);
    } else if (arg == "--pageable") {
      out.memories = {CallMemory::Pageable};
    } else if (arg == "--memory") {
      if (!value(&text))
        return false;
      std::vector<CallMemory> memories;
      bool valid = !text.empty() && text.back() != ',';
      std::stringstream list(text);
      for (std::string item; valid && std::getline(list, item, ',');) {
        CallMemory memory = CallMemory::Pinned;
        valid = parseCallMemory(item, &memory) &&
                std::find(memories.begin(), memories.end(), memory) == memories.end();
        memories.push_back(memory);
      }
      if (!valid) {
        *error = "--memory wants a list of distinct kinds among pinned, registered, pageable and "
                 "managed (e.g. pinned,registered), got \"" +
                 text + "\"";
        return false;
      }
      out.memories = memories;
    } else if (arg == "--quiet") {
      out.quiet = true;
    } else {
      *error = "unknown option \"" + arg + "\"";
      return false;
    }
  }
  if (refinements) {
    if (!out.sweep) {
      *error = "--refine needs --sweep";
      return false;
    }
    out.sweep->refinements = *refinements;
  }
  *options = std::move(out);
  return true;
}

} // namespace overlap::tune
