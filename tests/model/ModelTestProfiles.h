// Hardware profiles the model tests use: the papers' published parameters, idealized devices of
// each category for schedules that can be worked out by hand, and the lent H100 as the issue
// describes its link.
#pragma once

#include "overlap/HardwareProfile.h"

namespace overlap::model::testing {

// Paper 001 Table I (GTX Titan, PCIe 3.0; converted from ms to s), one copy engine, compute
// capability 3.5 (Table III).
inline HardwareProfile table1GtxTitan() {
  HardwareProfile profile;
  profile.name = "table1-gtx-titan";
  profile.computeCapabilityMajor = 3;
  profile.computeCapabilityMinor = 5;
  profile.multiprocessors = 14;
  profile.copyEngines = 1;
  profile.implicitSynchronization = false;
  profile.hostToDevice.latencyS = 0.009420e-3;
  profile.hostToDevice.secondsPerByte = 8.318392e-8 * 1e-3;
  profile.hostToDevice.gapS = 0.002503e-3;
  profile.deviceToHost.latencyS = 0.009023e-3;
  profile.deviceToHost.secondsPerByte = 7.924734e-8 * 1e-3;
  profile.deviceToHost.gapS = 0.002674e-3;
  return profile;
}

// A device whose copies cost exactly one second per byte in each direction, with no latency,
// gap or overhead, so that schedules come out in whole seconds. `cc` is the compute capability
// times ten (13 for a C1060, 20 for a C2050, 35 for a K20).
inline HardwareProfile idealDevice(int copyEngines, bool implicitSynchronization, int cc) {
  HardwareProfile profile;
  profile.name = "ideal";
  profile.computeCapabilityMajor = cc / 10;
  profile.computeCapabilityMinor = cc % 10;
  profile.copyEngines = copyEngines;
  profile.implicitSynchronization = implicitSynchronization;
  profile.hostToDevice.secondsPerByte = 1;
  profile.deviceToHost.secondsPerByte = 1;
  return profile;
}

// The H100 on PCIe Gen5 as issue 4 describes it: 55 GB/s one way, 93 GB/s both ways together
// (46.5 GB/s each), 3 copy engines, 132 multiprocessors. Latencies, gaps, overheads, the mapped
// G and the G against mapped traffic are of the order paper 001 and paper 002 report; they are
// test inputs, not measurements.
inline HardwareProfile h100Like() {
  HardwareProfile profile;
  profile.name = "h100-like";
  profile.computeCapabilityMajor = 9;
  profile.computeCapabilityMinor = 0;
  profile.multiprocessors = 132;
  profile.copyEngines = 3;
  profile.implicitSynchronization = false;
  for (LinkDirection* link : {&profile.hostToDevice, &profile.deviceToHost}) {
    link->latencyS = 10e-6;
    link->secondsPerByte = 1 / 55e9;
    link->gapS = 2e-6;
    link->bidirectionalSecondsPerByte = 1 / 46.5e9;
    link->withMappedSecondsPerByte = 1 / 46.5e9;
  }
  profile.mappedReadSecondsPerByte = 1 / 50e9;
  profile.mappedWriteSecondsPerByte = 1 / 50e9;
  profile.kernelLaunchS = 3e-6;
  profile.streamOverheadS = 1e-6;
  return profile;
}

constexpr double kMiB = 1024.0 * 1024.0;

// h100Like with the host-to-device G against a busy link split by piece size, as the lent H100
// measured it (calibration runs 6-11): pieces from 96 MiB up at 44 GB/s, smaller ones at 50.
inline HardwareProfile h100BusyLinkByPieceSize() {
  HardwareProfile profile = h100Like();
  profile.hostToDevice.bidirectionalSecondsPerByte = 1 / 50e9;
  profile.hostToDevice.bidirectionalLargePieceSecondsPerByte = 1 / 44e9;
  profile.hostToDevice.bidirectionalLargePieceMinBytes = 96 * kMiB;
  return profile;
}

// The same profile with one busy-link G for every piece size (the small pieces').
inline HardwareProfile withoutLargePieceG(HardwareProfile profile) {
  for (LinkDirection* link : {&profile.hostToDevice, &profile.deviceToHost}) {
    link->bidirectionalLargePieceSecondsPerByte = 0;
    link->bidirectionalLargePieceMinBytes = 0;
  }
  return profile;
}

} // namespace overlap::model::testing
