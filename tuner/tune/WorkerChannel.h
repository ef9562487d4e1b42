// The line protocol from a tuning worker to its supervisor (TuningSupervisor.h), over a pipe:
//
//   begin<TAB>reference|candidate<TAB><bound seconds><TAB><cache file><TAB><candidate name>
//   end
//
// one begin before every run of the reference or a candidate, one end after it. Progress for
// people goes to the worker's stdout as usual; this channel carries only what the supervisor
// acts on. Tabs separate the fields since candidate names and paths hold spaces.
#pragma once

#include "tune/CandidateWatch.h"

#include <optional>
#include <string>

namespace overlap::tune {

// Writes the protocol to a file descriptor the worker inherited.
class WorkerChannel final : public CandidateWatch {
public:
  explicit WorkerChannel(int fd) : fd_(fd) {}
  void begin(const CandidateStart& start) override;
  void end() override;

private:
  void send(const std::string& line);
  int fd_;
};

struct WorkerMessage {
  bool begin = false; // false: end
  CandidateStart start;
};

std::string formatWorkerLine(const WorkerMessage& message); // with the newline
// One line without its newline; nullopt when it is not a line of the protocol.
std::optional<WorkerMessage> parseWorkerLine(const std::string& line);

} // namespace overlap::tune
