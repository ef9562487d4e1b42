// The JSON text of the profiles embedded in the library. The definitions are generated at
// configure time from builtin/*.json, so the shipped profiles are ordinary profile files that
// go through the same strict reader as a user's.
#pragma once

namespace overlap::detail {

struct BuiltinProfileText {
  const char* file; // the source file's name, for error messages
  const char* json;
};

extern const BuiltinProfileText kBuiltinProfileTexts[];
extern const int kBuiltinProfileCount;

} // namespace overlap::detail
