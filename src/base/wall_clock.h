// Local wall-clock time, spelled as CANN spells it in file names and log lines. One reading of the clock
// (CLOCK_REALTIME, broken down with localtime_r) serves a whole stamp, so its fields never straddle a second.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>

namespace npurt {

struct WallTime {
  tm local;       // broken-down local time
  uint32_t ms;    // milliseconds within the second
  uint32_t us;    // microseconds within the second
};

inline WallTime NowLocal() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  WallTime w;
  localtime_r(&ts.tv_sec, &w.local);
  w.ms = static_cast<uint32_t>(ts.tv_nsec / 1000000);
  w.us = static_cast<uint32_t>(ts.tv_nsec / 1000);
  return w;
}

// "YYYYmmddHHMMSS" followed by `fraction_digits` digits of the second (0, 3: milliseconds, 6: microseconds):
// the stamps of PROF_ directories, plog and dump file names.
std::string CompactStamp(const WallTime& w, int fraction_digits);
// "YYYY-mm-dd-HH:MM:SS" (aclGetRecentErrMsg, device logs).
std::string DashedStamp(const WallTime& w);

}  // namespace npurt
