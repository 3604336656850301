// Race detector (core/racecheck/racecheck.h): the text of a race report. Private to the detector.
#pragma once

#include <cstdint>
#include <string>

#include "core/racecheck/racecheck_shadow.h"

namespace npurt::core::racecheck {

// The allocation a race happened in.
struct AllocationView {
  uintptr_t base = 0;
  size_t size = 0;
  int32_t device = -1;
  uint32_t site = 0;  // allocation-site id (NPURT_ALLOC_CONF=record_sites:True), 0 = not recorded
};

// "aclrtLaunchKernel 'write_kernel' (task 12, stream 3, device 0)" / "aclrtMemcpy (synchronous host call)".
std::string DescribeActor(const Actor& actor);

// The report of a race between `earlier` (a recorded access) and the access of [begin, end) by `later`,
// numbered `number`: several lines, the first starting with "npurt racecheck:".
std::string FormatRace(uint64_t number, const AllocationView& allocation, const AccessRecord& earlier,
                       uintptr_t begin, uintptr_t end, bool write, const Actor& later);

// Identifies a race for "report each race once": the allocation and what made both sides (API, name,
// stream), in either order, so that a loop repeating one racy pattern is reported once, not once per
// iteration.
std::string RaceKey(uintptr_t allocation_base, const Actor& earlier, const Actor& later);

}  // namespace npurt::core::racecheck
