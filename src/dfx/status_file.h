// Live device status of this process, published for `npu-smi info` and `msnpureport -s`.
//
// Each npurt process that opened a device keeps one small JSON file, <dir>/status.<pid>.json, where
// <dir> is $NPURT_STATUS_DIR or /dev/shm/npurt (tmpfs: no disk I/O). It is rewritten atomically
// (write + rename) about twice a second by a background thread and removed at exit; readers ignore
// files of processes that no longer exist. Device-side log lines (task failures, exceptions) go to
// <log root>/debug/device-<id>/device-<pid>_<time>.log, the CANN layout that msnpureport collects.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npurt::dfx {

struct DeviceStatus {
  int32_t id = 0;
  uint32_t physical_id = 0;
  std::string soc;
  uint32_t aicore_count = 0;
  uint64_t memory_total = 0;
  uint64_t memory_used = 0;      // bytes in use as aclrtGetMemInfo reports them (idle cache excluded)
  uint64_t memory_reserved = 0;  // every physical page in use, the idle cache included
  uint32_t streams = 0;
  uint32_t busy_percent = 0;   // share of recent samples with work queued or running
  uint64_t task_failures = 0;
  std::string health = "OK";
};

std::string StatusDirectory();
// Writes this process's status file (atomically).
void PublishStatus(const std::vector<DeviceStatus>& devices);
void RemoveStatus();

// Appends one line to the device-side log of `device` (synchronous; rare events only).
void DeviceLog(int32_t device, const std::string& line);
// Task failures counted by DeviceLog callers, per device (for the status file).
uint64_t DeviceFailures(int32_t device);
void CountDeviceFailure(int32_t device);

}  // namespace npurt::dfx
