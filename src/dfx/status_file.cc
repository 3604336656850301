#include "dfx/status_file.h"

#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "base/env.h"
#include "base/wall_clock.h"
#include "dfx/plog_file.h"

namespace npurt::dfx {
namespace {

// Never destroyed: the device-status publisher thread reads it until the process ends, after static
// destructors ran.
struct StatusState {
  std::mutex mu;
  std::map<int32_t, uint64_t> failures;
  std::map<int32_t, std::string> device_logs;  // device -> this process's file
};
StatusState& S() {
  static StatusState* s = new StatusState();
  return *s;
}

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out;
}

}  // namespace

std::string StatusDirectory() {
  if (const char* d = npurt::env::Raw(npurt::env::Var::kStatusDir); d != nullptr && *d != '\0') return d;
  return "/dev/shm/npurt";
}

void PublishStatus(const std::vector<DeviceStatus>& devices) {
  const std::string dir = StatusDirectory();
  if (!MakeDirs(dir)) return;
  std::string devs;
  for (const DeviceStatus& d : devices) {
    if (!devs.empty()) devs += ",";
    devs += fmt::format(
        "{{\"id\":{},\"physical_id\":{},\"soc\":\"{}\",\"aicore_count\":{},\"memory_total\":{},\"memory_used\":{},"
        "\"memory_reserved\":{},\"streams\":{},\"busy_percent\":{},\"task_failures\":{},\"health\":\"{}\"}}",
        d.id, d.physical_id, Escape(d.soc), d.aicore_count, d.memory_total, d.memory_used, d.memory_reserved,
        d.streams, d.busy_percent, d.task_failures, Escape(d.health));
  }
  const std::string text = fmt::format("{{\"pid\":{},\"process\":\"{}\",\"updated\":{},\"devices\":[{}]}}\n", getpid(),
                                       Escape(ProcessName()), static_cast<long long>(time(nullptr)), devs);
  const std::string path = fmt::format("{}/status.{}.json", dir, getpid());
  const std::string tmp = path + ".tmp";
  if (FILE* f = std::fopen(tmp.c_str(), "we")) {
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    std::rename(tmp.c_str(), path.c_str());
  }
}

void RemoveStatus() {
  const std::string path = fmt::format("{}/status.{}.json", StatusDirectory(), getpid());
  std::remove(path.c_str());
}

void DeviceLog(int32_t device, const std::string& line) {
  std::lock_guard<std::mutex> lock(S().mu);
  auto it = S().device_logs.find(device);
  if (it == S().device_logs.end()) {
    const std::string dir = fmt::format("{}/debug/device-{}", LogRoot(), device);
    if (!MakeDirs(dir)) return;
    it = S().device_logs.emplace(device, fmt::format("{}/device-{}_{}.log", dir, getpid(),
                                                     CompactStamp(NowLocal(), 0))).first;
  }
  if (FILE* f = std::fopen(it->second.c_str(), "ae")) {
    const WallTime now = NowLocal();
    std::fprintf(f, "[ERROR] DEVICE(%d,%s):%s.%03u %s\n", getpid(), ProcessName().c_str(), DashedStamp(now).c_str(),
                 now.ms, line.c_str());
    std::fclose(f);
  }
}

uint64_t DeviceFailures(int32_t device) {
  std::lock_guard<std::mutex> lock(S().mu);
  auto it = S().failures.find(device);
  return it == S().failures.end() ? 0 : it->second;
}

void CountDeviceFailure(int32_t device) {
  std::lock_guard<std::mutex> lock(S().mu);
  ++S().failures[device];
}

}  // namespace npurt::dfx
