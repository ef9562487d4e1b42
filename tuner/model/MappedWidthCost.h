// The price of a byte a kernel reads or writes through mapped host memory, by the width of the
// elements its threads touch. The profile's single mapped G comes from a calibration kernel
// whose threads move 16 bytes each, so every warp asks the link for whole 128-byte lines; with
// 1- or 2-byte elements a warp asks for 32- or 64-byte pieces, which cost more per byte (1-byte
// arrays measured 2.5-4x the single-G prediction on the H200). Schema 3 profiles carry a cost per
// width (HardwareProfile::mappedByWidth); a workload's arrays weight them by their bytes.
#pragma once

#include "model/Workload.h"
#include "overlap/HardwareProfile.h"

#include <cstddef>

namespace overlap::model {

enum class MappedAccess { Read, Write };

// Seconds per byte for elements of `element_bytes` from the profile's per-width costs: the
// measured width, else linear in log2(width) between the nearest measured widths below and above,
// else the nearest measured width. 0 when the profile has no cost for this access.
double mappedWidthSecondsPerByte(const HardwareProfile& profile, std::size_t elementBytes,
                                 MappedAccess access);

// Which of a workload's output bytes a variant writes through mapped memory: Mapped all of them,
// Hybrid only the pure outputs (in-out arrays are copied back).
enum class MappedOutputs { All, PureOnly };

// The byte-weighted mean of the per-width costs over the workload's arrays, for reads (inputs)
// or writes (the outputs `outputs` names). 0 when the profile or the workload has no per-width
// data or no bytes of that kind: then the profile's single mapped G applies.
double mappedSecondsPerByte(const HardwareProfile& profile, const Workload& workload,
                            MappedAccess access, MappedOutputs outputs = MappedOutputs::All);

// Whether the per-width costs price this workload's mapped traffic: the profile has them and the
// workload says how its bytes split over widths.
bool mappedWidthsPriced(const HardwareProfile& profile, const Workload& workload);

} // namespace overlap::model
