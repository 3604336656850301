// Byte counts for messages: "4096 B (4.0 KiB)".
#pragma once

#include <cstdint>
#include <string>

#include <fmt/format.h>

namespace npurt {

inline std::string HumanBytes(uint64_t n) {
  if (n < (1u << 10)) return fmt::format("{} B", n);
  if (n < (1u << 20)) return fmt::format("{} B ({:.1f} KiB)", n, double(n) / 1024.0);
  if (n < (1ull << 30)) return fmt::format("{} B ({:.2f} MiB)", n, double(n) / double(1 << 20));
  return fmt::format("{} B ({:.2f} GiB)", n, double(n) / double(1ull << 30));
}

}  // namespace npurt
