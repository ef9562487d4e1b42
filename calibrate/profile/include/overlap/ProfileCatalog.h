// The profiles a user can pick by name: those embedded in the library (the papers' published
// systems and the lent H100) and those in the user's profile directories, for instance written by
// overlap-calibrate. No CUDA dependency, so the model works with no GPU present.
#pragma once

#include "overlap/HardwareProfile.h"
#include "overlap/ProfileIo.h"

#include <string>
#include <vector>

namespace overlap {

// Where the user's profiles live, searched in order: the directories of the OVERLAP_PROFILE_PATH
// environment variable (':'-separated) when it is set, otherwise
// $XDG_CONFIG_HOME/overlap/profiles, or ~/.config/overlap/profiles when XDG_CONFIG_HOME is unset.
// Empty when none of these variables is set.
std::vector<std::string> userProfileDirectories();

struct CatalogEntry {
  HardwareProfile profile;
  std::string origin; // the file it was read from, or "<built-in NAME>"
};

// The profiles compiled into the library, in a fixed order.
std::vector<CatalogEntry> builtinProfiles();

struct ProfileListing {
  std::vector<CatalogEntry> entries; // user profiles first, then the built-in ones not shadowed
  std::vector<ProfileError> skipped; // user files that could not be read, with the reason
};

// Every profile a user can pick: the *.json files of the user directories (the first directory
// that has a profile of some name wins) and the built-in profiles whose name no user profile
// takes, so a recalibrated profile replaces a shipped one of the same name.
ProfileListing listProfiles();

// `nameOrPath`: an existing file (a path containing '/' or ending in ".json") is read as it is;
// otherwise the name is looked up as listProfiles() orders them. Errors name the file or, for an
// unknown name, list the names that exist.
ProfileError findProfile(const std::string& nameOrPath, HardwareProfile* profile,
                         std::string* origin = nullptr);

// The profile for a device nobody picked one for: one measured on this device model (as
// listProfiles() orders them; *measuredHere true), else the built-in profile of the newest GPU
// generation (highest compute capability), which is closer to today's machines than the papers'.
// False when there is no profile at all. User profile files that cannot be read are passed over;
// `skipped`, when given, receives why, so that a caller can say so instead of silently describing
// another machine.
bool profileForDevice(const std::string& deviceName, CatalogEntry* entry, bool* measuredHere,
                      std::vector<ProfileError>* skipped = nullptr);

// "NVIDIA H100 80GB HBM3 | Gen5 x16 | driver 580.159.04": what a calibrated profile is keyed by;
// a profile measured on one machine says nothing reliable about another device, link or driver.
std::string profileKey(const HardwareProfile& profile);

} // namespace overlap
