// JSON string escaping for the diagnostics that write JSON by hand (the profiler's info file, the sanitizer
// log): the text between the quotes of a JSON string, control characters as \uXXXX.
#pragma once

#include <string>
#include <string_view>

#include <fmt/format.h>

namespace npurt::dfx {

inline std::string JsonEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", c); else out += c;
    }
  }
  return out;
}

}  // namespace npurt::dfx
