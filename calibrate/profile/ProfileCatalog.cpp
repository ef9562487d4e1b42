#include "overlap/ProfileCatalog.h"

#include "BuiltinProfileText.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <system_error>

namespace overlap {

namespace fs = std::filesystem;

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

bool looksLikePath(const std::string& text) {
  const std::string suffix = ".json";
  return text.find('/') != std::string::npos ||
         (text.size() >= suffix.size() &&
          text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0);
}

// The *.json files of one directory in name order, so listings do not depend on the file system.
std::vector<fs::path> jsonFiles(const std::string& directory) {
  std::vector<fs::path> files;
  std::error_code error;
  fs::directory_iterator it(directory, error);
  if (error)
    return files; // a directory that does not exist (yet) simply holds no profiles
  for (const fs::directory_entry& entry : it) {
    std::error_code type_error;
    if (entry.path().extension() == ".json" && entry.is_regular_file(type_error))
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace

std::vector<std::string> userProfileDirectories() {
  std::vector<std::string> directories;
  const char* pathList = std::getenv("OVERLAP_PROFILE_PATH");
  if (pathList) {
    std::string list = pathList;
    std::size_t begin = 0;
    while (begin <= list.size()) {
      std::size_t end = list.find(':', begin);
      if (end == std::string::npos)
        end = list.size();
      if (end > begin)
        directories.push_back(list.substr(begin, end - begin));
      begin = end + 1;
    }
    return directories;
  }
  const std::string xdg = environment("XDG_CONFIG_HOME");
  if (!xdg.empty()) {
    directories.push_back(xdg + "/overlap/profiles");
    return directories;
  }
  const std::string home = environment("HOME");
  if (!home.empty())
    directories.push_back(home + "/.config/overlap/profiles");
  return directories;
}

std::vector<CatalogEntry> builtinProfiles() {
  std::vector<CatalogEntry> entries;
  for (int i = 0; i < detail::kBuiltinProfileCount; ++i) {
    const detail::BuiltinProfileText& text = detail::kBuiltinProfileTexts[i];
    CatalogEntry entry;
    entry.origin = std::string("<built-in ") + text.file + ">";
    // The build embeds only files the reader accepts (tests/calibration checks each one), so a
    // failure here is a packaging bug; skipping keeps the rest of the catalog usable.
    if (profileFromJson(text.json, entry.origin, &entry.profile).ok())
      entries.push_back(std::move(entry));
  }
  return entries;
}

ProfileListing listProfiles() {
  ProfileListing listing;
  std::set<std::string> names;
  for (const std::string& directory : userProfileDirectories()) {
    for (const fs::path& file : jsonFiles(directory)) {
      CatalogEntry entry;
      entry.origin = file.string();
      ProfileError error = readProfileFile(entry.origin, &entry.profile);
      if (!error.ok()) {
        listing.skipped.push_back(std::move(error));
        continue;
      }
      if (names.insert(entry.profile.name).second)
        listing.entries.push_back(std::move(entry));
    }
  }
  for (CatalogEntry& entry : builtinProfiles())
    if (names.insert(entry.profile.name).second)
      listing.entries.push_back(std::move(entry));
  return listing;
}

bool profileForDevice(const std::string& deviceName, CatalogEntry* entry, bool* measuredHere,
                      std::vector<ProfileError>* skipped) {
  ProfileListing listing = listProfiles();
  if (skipped)
    *skipped = listing.skipped;
  if (!deviceName.empty())
    for (CatalogEntry& listed : listing.entries)
      if (listed.profile.deviceName == deviceName) {
        *entry = std::move(listed);
        *measuredHere = true;
        return true;
      }
  std::vector<CatalogEntry> builtin = builtinProfiles();
  if (builtin.empty())
    return false;
  const auto generation = [](const CatalogEntry& e) {
    return e.profile.computeCapabilityMajor * 10 + e.profile.computeCapabilityMinor;
  };
  *entry = std::move(*std::max_element(
      builtin.begin(), builtin.end(),
      [&](const CatalogEntry& a, const CatalogEntry& b) { return generation(a) < generation(b); }));
  *measuredHere = false;
  return true;
}

ProfileError findProfile(const std::string& nameOrPath, HardwareProfile* profile,
                         std::string* origin) {
  std::error_code error;
  if (looksLikePath(nameOrPath) || fs::is_regular_file(nameOrPath, error)) {
    ProfileError read = readProfileFile(nameOrPath, profile);
    if (read.ok() && origin)
      *origin = nameOrPath;
    return read;
  }
  ProfileListing listing = listProfiles();
  for (CatalogEntry& entry : listing.entries) {
    if (entry.profile.name == nameOrPath) {
      *profile = std::move(entry.profile);
      if (origin)
        *origin = entry.origin;
      return {};
    }
  }
  std::string known;
  for (const CatalogEntry& entry : listing.entries)
    known += (known.empty() ? "" : ", ") + entry.profile.name;
  std::string reason = "no profile of this name; known profiles: " + known;
  std::string searched;
  for (const std::string& directory : userProfileDirectories())
    searched += (searched.empty() ? "" : ", ") + directory;
  reason += searched.empty() ? " (no user profile directory is set)"
                             : " (user profiles searched in " + searched + ")";
  return ProfileError{nameOrPath, "", reason};
}

std::string profileKey(const HardwareProfile& profile) {
  return profile.deviceName + " | " + (profile.pcie.empty() ? "PCIe unknown" : profile.pcie) +
         " | driver " + (profile.driver.empty() ? "unknown" : profile.driver);
}

} // namespace overlap
