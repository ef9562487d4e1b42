#include "overlap/profile_catalog.h"

#include "builtin_profile_text.h"

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

bool looks_like_path(const std::string& text) {
  const std::string suffix = ".json";
  return text.find('/') != std::string::npos ||
         (text.size() >= suffix.size() &&
          text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0);
}

// The *.json files of one directory in name order, so listings do not depend on the file system.
std::vector<fs::path> json_files(const std::string& directory) {
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

std::vector<std::string> user_profile_directories() {
  std::vector<std::string> directories;
  const char* path_list = std::getenv("OVERLAP_PROFILE_PATH");
  if (path_list) {
    std::string list = path_list;
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

std::vector<CatalogEntry> builtin_profiles() {
  std::vector<CatalogEntry> entries;
  for (int i = 0; i < detail::kBuiltinProfileCount; ++i) {
    const detail::BuiltinProfileText& text = detail::kBuiltinProfileTexts[i];
    CatalogEntry entry;
    entry.origin = std::string("<built-in ") + text.file + ">";
    // The build embeds only files the reader accepts (tests/calibration checks each one), so a
    // failure here is a packaging bug; skipping keeps the rest of the catalog usable.
    if (profile_from_json(text.json, entry.origin, &entry.profile).ok())
      entries.push_back(std::move(entry));
  }
  return entries;
}

ProfileListing list_profiles() {
  ProfileListing listing;
  std::set<std::string> names;
  for (const std::string& directory : user_profile_directories()) {
    for (const fs::path& file : json_files(directory)) {
      CatalogEntry entry;
      entry.origin = file.string();
      ProfileError error = read_profile_file(entry.origin, &entry.profile);
      if (!error.ok()) {
        listing.skipped.push_back(std::move(error));
        continue;
      }
      if (names.insert(entry.profile.name).second)
        listing.entries.push_back(std::move(entry));
    }
  }
  for (CatalogEntry& entry : builtin_profiles())
    if (names.insert(entry.profile.name).second)
      listing.entries.push_back(std::move(entry));
  return listing;
}

bool profile_for_device(const std::string& device_name, CatalogEntry* entry, bool* measured_here,
                        std::vector<ProfileError>* skipped) {
  ProfileListing listing = list_profiles();
  if (skipped)
    *skipped = listing.skipped;
  if (!device_name.empty())
    for (CatalogEntry& listed : listing.entries)
      if (listed.profile.device_name == device_name) {
        *entry = std::move(listed);
        *measured_here = true;
        return true;
      }
  std::vector<CatalogEntry> builtin = builtin_profiles();
  if (builtin.empty())
    return false;
  const auto generation = [](const CatalogEntry& e) {
    return e.profile.compute_capability_major * 10 + e.profile.compute_capability_minor;
  };
  *entry = std::move(*std::max_element(
      builtin.begin(), builtin.end(),
      [&](const CatalogEntry& a, const CatalogEntry& b) { return generation(a) < generation(b); }));
  *measured_here = false;
  return true;
}

ProfileError find_profile(const std::string& name_or_path, HardwareProfile* profile,
                          std::string* origin) {
  std::error_code error;
  if (looks_like_path(name_or_path) || fs::is_regular_file(name_or_path, error)) {
    ProfileError read = read_profile_file(name_or_path, profile);
    if (read.ok() && origin)
      *origin = name_or_path;
    return read;
  }
  ProfileListing listing = list_profiles();
  for (CatalogEntry& entry : listing.entries) {
    if (entry.profile.name == name_or_path) {
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
  for (const std::string& directory : user_profile_directories())
    searched += (searched.empty() ? "" : ", ") + directory;
  reason += searched.empty() ? " (no user profile directory is set)"
                             : " (user profiles searched in " + searched + ")";
  return ProfileError{name_or_path, "", reason};
}

std::string profile_key(const HardwareProfile& profile) {
  return profile.device_name + " | " + (profile.pcie.empty() ? "PCIe unknown" : profile.pcie) +
         " | driver " + (profile.driver.empty() ? "unknown" : profile.driver);
}

} // namespace overlap
