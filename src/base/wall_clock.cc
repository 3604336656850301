#include "base/wall_clock.h"

#include <cstdio>

namespace npurt {

std::string CompactStamp(const WallTime& w, int fraction_digits) {
  char buf[40];
  size_t n = std::strftime(buf, sizeof buf, "%Y%m%d%H%M%S", &w.local);
  if (fraction_digits == 3) {
    std::snprintf(buf + n, sizeof buf - n, "%03u", w.ms);
  } else if (fraction_digits == 6) {
    std::snprintf(buf + n, sizeof buf - n, "%06u", w.us);
  }
  return buf;
}

std::string DashedStamp(const WallTime& w) {
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d-%H:%M:%S", &w.local);
  return buf;
}

}  // namespace npurt
