// Allocation call sites (NPURT_ALLOC_CONF=record_sites:True): the stack of each allocation is captured
// (a few hundred ns with glibc's backtrace) and interned, so a block carries a 32-bit site id; snapshots
// and leak reports turn ids back into symbolised frames. Process-wide, thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npurt::core {

// Captures the caller's stack (skipping the allocator's own frames); returns its id (>= 1).
uint32_t CaptureAllocationSite();
// The frames of a site, innermost first ("libfoo.so(fn+0x12) [0x7f..]"); empty for 0 or unknown ids.
std::vector<std::string> AllocationSiteFrames(uint32_t site);
// The first frame outside libascendcl/npurt, for one-line reports ("" if none).
std::string AllocationSiteSummary(uint32_t site);

}  // namespace npurt::core
