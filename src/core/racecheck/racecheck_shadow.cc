#include "core/racecheck/racecheck_shadow.h"

#include <algorithm>

namespace npurt::core::racecheck {

std::vector<const AccessRecord*> AllocationShadow::Conflicts(uintptr_t begin, uintptr_t end, bool write,
                                                             const VectorClock& now) const {
  std::vector<const AccessRecord*> out;
  for (const AccessRecord& r : records_) {
    if (r.end <= begin || end <= r.begin) continue;  // disjoint bytes
    if (!r.write && !write) continue;                // two reads never race
    if (HappensBefore(r.epoch, now)) continue;
    out.push_back(&r);
  }
  return out;
}

void AllocationShadow::Add(AccessRecord record, const VectorClock& now) {
  const auto superseded = [&](const AccessRecord& r) {
    if (r.begin < record.begin || r.end > record.end) return false;  // not covered
    if (record.write) return HappensBefore(r.epoch, now);
    return !r.write && r.epoch.component == record.epoch.component;
  };
  records_.erase(std::remove_if(records_.begin(), records_.end(), superseded), records_.end());
  if (records_.size() >= kMaxRecords) records_.erase(records_.begin());
  records_.push_back(std::move(record));
}

}  // namespace npurt::core::racecheck
