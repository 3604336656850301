// Strict decimal parsing of settings (environment variables, configuration values): digits only, no sign,
// no blanks, no overflow. strtoull alone would take " 3", "+3" and wrap "-3" to 2^64 - 3.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace npurt {

inline bool ParseDecimalUint(const std::string& text, uint64_t* out) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *out = v;
  return true;
}

}  // namespace npurt
