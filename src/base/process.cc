#include "base/process.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace npurt {

namespace {

// Reads /proc/<pid>/stat: the state letter (field 3) and the start time (field 22); false if it is gone.
bool ReadStat(int32_t pid, char* state, uint64_t* start_time) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t close = text.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos) return false;
  std::istringstream rest(text.substr(close + 2));
  std::string field;
  for (int i = 3; i <= 22; ++i) {
    if (!(rest >> field)) return false;
    if (i == 3) *state = field.empty() ? '?' : field[0];
  }
  *start_time = std::strtoull(field.c_str(), nullptr, 10);
  return true;
}

}  // namespace

uint64_t ProcessStartTime(int32_t pid) {
  char state = 0;
  uint64_t start = 0;
  return ReadStat(pid, &state, &start) ? start : 0;
}

bool ProcessRunning(int32_t pid, uint64_t start_time) {
  char state = 0;
  uint64_t start = 0;
  return ReadStat(pid, &state, &start) && start == start_time && state != 'Z' && state != 'X';
}

}  // namespace npurt
