// What the runtime's checks found, written to the sanitizer log (dfx/sanitizer_log.h, NPURT_SANITIZER_LOG) for
// the mssanitizer tool. Each function does nothing when the log is off; callers on hot paths test
// dfx::SanitizerLogOn() first. The record kinds and their fields are what tools/mssanitizer/mssanitizer reads:
//   task_failure  a failed task: code, message (the launch's failure text), task, stream, device, kernel
//   leak          an allocation still live when its context was destroyed: device, base, size, site
//   race          one race report of the detector: text (the report as racecheck prints it)
//   race_summary  at exit, with NPURT_RACECHECK=1: races, accesses (device-memory accesses checked)
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/alloc/alloc_caching.h"
#include "hal/queue.h"

namespace npurt::core {

void RecordTaskFailure(int32_t device, int32_t stream, const hal::TaskFailure& failure);
// `leaked` are the allocations the context still held (DeviceAllocator::FreeOwnedBy).
void RecordLeaks(int32_t device, const std::vector<LiveAllocation>& leaked);
void RecordRace(std::string_view text);
void RecordRaceSummary(uint64_t races, uint64_t accesses);

}  // namespace npurt::core
