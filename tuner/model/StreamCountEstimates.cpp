#include "model/StreamCountEstimates.h"

#include "model/Paper000Model.h"
#include "model/Paper001Model.h"
#include "model/Paper002Model.h"

namespace overlap::model {

std::vector<StreamCountEstimate> streamCountEstimates(const HardwareProfile& profile,
                                                      const Workload& workload) {
  std::vector<StreamCountEstimate> estimates;

  const paper000::Call call000 = paper000::callOf(profile, workload);
  const bool implicitSync = profile.implicitSynchronization;
  const char* eq000 = implicitSync ? (call000.h2dSeconds > call000.kernelSeconds ? "(6)" : "(8)")
                      : call000.transferSeconds() > call000.kernelSeconds ? "(2)/(4)"
                                                                          : "(4)";
  estimates.push_back({std::string("paper 000 eq. ") + eq000 + ": optimal nStreams",
                       paper000::optimalStreams(call000, implicitSync)});

  paper001::StreamedCall call001;
  call001.hostToDevice = profile.hostToDevice;
  call001.deviceToHost = profile.deviceToHost;
  call001.h2dBytes = workload.transfers.h2dBytes + workload.transfers.broadcastBytes;
  call001.d2hBytes = workload.transfers.d2hBytes;
  call001.kernelSeconds = workload.launch.kernelSeconds;
  if (implicitSync) {
    estimates.push_back({"paper 001 §VI: largest useful nStreams, dominant kernel",
                         paper001::maxStreamsImplicitSyncDominantKernel(call001)});
    estimates.push_back({"paper 001 §VI: largest useful nStreams, dominant transfers",
                         paper001::maxStreamsImplicitSyncDominantTransfers(call001)});
  } else if (profile.copyEngines >= 2) {
    estimates.push_back({"paper 001 §VI: largest useful nStreams, 2 copy engines",
                         paper001::maxStreamsTwoEngines(call001)});
  } else {
    estimates.push_back({"paper 001 §VI: smallest nStreams that still helps, 1 copy engine",
                         paper001::minStreamsOneEngine(call001)});
  }

  const double send = call001.h2dBytes * profile.hostToDevice.secondsPerByte;
  const double receive = call001.d2hBytes * profile.deviceToHost.secondsPerByte;
  const paper002::Overheads overheads = paper002::overheadsOf(profile);
  const auto paper002Estimate = [&](double f) -> StreamCountEstimate {
    if (paper002::isDataBound(send, receive, workload.launch.kernelSeconds, f))
      return {"paper 002 eq. 4.11: optimal subtasks, data bound",
              paper002::eq411DataBoundOptimalSubtasks(send, receive, f, overheads)};
    return {"paper 002 eq. 4.15: optimal subtasks, compute bound",
            paper002::eq415ComputeBoundOptimalSubtasks(send, receive, overheads)};
  };
  // The f of the pieces depends on the subtask count the estimate picks. Where the small pieces'
  // f gives pieces of the large size, the estimate is taken again with their f. A data-bound
  // call stays data bound at the larger f, and (4.11)'s count falls, so its pieces stay large:
  // the count and its f agree. (A compute-bound call may turn data bound at the larger f; its
  // count is then (4.11)'s at that f, whatever size the pieces come out.)
  const double smallPieceF = paper002::bidirectionalFactor(profile);
  const StreamCountEstimate smallPieces = paper002Estimate(smallPieceF);
  const double pieceF = smallPieces.streams > 0
                            ? paper002::bidirectionalFactor(
                                  profile, paper002::inputPieceBytes(workload, smallPieces.streams))
                            : smallPieceF;
  estimates.push_back(pieceF == smallPieceF ? smallPieces : paper002Estimate(pieceF));
  return estimates;
}

} // namespace overlap::model
