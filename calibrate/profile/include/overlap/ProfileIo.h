// Hardware profiles as JSON files (schema in docs/hardware-profiles.md). No CUDA dependency.
//
// Reading is strict: a file that is not JSON, that is some other kind of JSON document, that was
// written by an older or a newer schema, that lacks a field or has one of the wrong type or range,
// or that has a field this version does not know (a typo in a hand-edited profile) is refused with
// an error naming the file and the field, never half-read.
#pragma once

#include "overlap/HardwareProfile.h"

#include <string>

namespace overlap {

// The value of the top-level "schema" key that marks a file as a hardware profile.
inline constexpr const char* kProfileSchemaName = "overlap.hardware-profile";

struct ProfileError {
  std::string file;   // the path, or e.g. "<built-in h100-pcie5>" for text not read from disk
  std::string field;  // dotted JSON path, e.g. "link.host_to_device.seconds_per_byte"; may be empty
  std::string reason; // empty when there is no error

  bool ok() const { return reason.empty(); }
  // "<file>: field 'link.host_to_device.gap_s': expected a number, found a string"
  std::string message() const;
};

// Pretty-printed JSON; parameters that are 0 ("not known") are written as null.
std::string profileToJson(const HardwareProfile& profile);

// `origin` names the text in error messages (a path, or where built-in text came from).
ProfileError profileFromJson(const std::string& text, const std::string& origin,
                             HardwareProfile* profile);

ProfileError readProfileFile(const std::string& path, HardwareProfile* profile);

// Validates the profile first (see checkProfile), so nothing is written that could not be read.
// Creates the file's directory (the first user profile directory may not exist yet).
ProfileError writeProfileFile(const std::string& path, const HardwareProfile& profile);

// Writes `text` to `path`, creating its parent directories; false when the file cannot be
// written. Profiles are written with it, and so are the tools' reports (accuracy tables, tuning
// reports).
bool writeTextFile(const std::string& path, const std::string& text);

// Today's date in UTC, "YYYY-MM-DD": the form of HardwareProfile::date, and of the tuner's runs.
std::string todayUtc();

// The rules a profile must meet to be written or read: a usable name (letters, digits, '.', '_',
// '-': it names a file in a profile directory), finite non-negative parameters, a non-negative
// copy-engine count. `origin` is reported as the error's file.
ProfileError checkProfile(const HardwareProfile& profile, const std::string& origin);

} // namespace overlap
