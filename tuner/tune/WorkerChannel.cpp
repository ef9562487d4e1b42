#include "tune/WorkerChannel.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace overlap::tune {
namespace {

const char* kBegin = "begin";
const char* kEnd = "end";
const char* kReference = "reference";
const char* kCandidate = "candidate";

std::vector<std::string> splitTabs(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t from = 0;
  while (true) {
    const std::size_t tab = line.find('\t', from);
    fields.push_back(line.substr(from, tab == std::string::npos ? std::string::npos : tab - from));
    if (tab == std::string::npos)
      return fields;
    from = tab + 1;
  }
}

} // namespace

std::string formatWorkerLine(const WorkerMessage& message) {
  if (!message.begin)
    return std::string(kEnd) + "\n";
  char bound[32];
  std::snprintf(bound, sizeof bound, "%.17g", message.start.boundSeconds);
  return std::string(kBegin) + "\t" + (message.start.reference ? kReference : kCandidate) + "\t" +
         bound + "\t" + message.start.cacheFile + "\t" + message.start.candidate + "\n";
}

std::optional<WorkerMessage> parseWorkerLine(const std::string& line) {
  WorkerMessage message;
  if (line == kEnd)
    return message;
  const std::vector<std::string> fields = splitTabs(line);
  if (fields.size() != 5 || fields[0] != kBegin ||
      (fields[1] != kReference && fields[1] != kCandidate) || fields[4].empty())
    return std::nullopt;
  char* end = nullptr;
  const double bound = std::strtod(fields[2].c_str(), &end);
  if (fields[2].empty() || *end != '\0' || !(bound > 0))
    return std::nullopt;
  message.begin = true;
  message.start.reference = fields[1] == kReference;
  message.start.boundSeconds = bound;
  message.start.cacheFile = fields[3];
  message.start.candidate = fields[4];
  return message;
}

void WorkerChannel::begin(const CandidateStart& start) {
  WorkerMessage message;
  message.begin = true;
  message.start = start;
  send(formatWorkerLine(message));
}

void WorkerChannel::end() {
  send(formatWorkerLine(WorkerMessage{}));
}

void WorkerChannel::send(const std::string& line) {
  // Lines are far below PIPE_BUF, so each write is atomic; a failing write means the supervisor
  // is gone, and then nobody is left to tell.
  std::size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    written += static_cast<std::size_t>(n);
  }
}

} // namespace overlap::tune
