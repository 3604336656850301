#include "core/racecheck/racecheck_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "core/alloc/alloc_sites.h"

namespace npurt::core::racecheck {

std::string DescribeActor(const Actor& a) {
  const std::string name = a.name.empty() ? std::string() : fmt::format(" '{}'", a.name);
  if (a.stream < 0) {
    if (a.callback_stream >= 0) {
      return fmt::format("{}{} (synchronous host call inside the callback task {} of stream {})", a.api, name,
                         a.callback_task, a.callback_stream);
    }
    return fmt::format("{}{} (synchronous host call)", a.api, name);
  }
  return fmt::format("{}{} (task {}, stream {}, device {})", a.api, name, a.task, a.stream, a.device);
}

std::string FormatRace(uint64_t number, const AllocationView& al, const AccessRecord& earlier, uintptr_t begin,
                       uintptr_t end, bool write, const Actor& later) {
  // The bytes both sides touch, as offsets into the allocation.
  const uintptr_t lo = std::max(begin, earlier.begin);
  const uintptr_t hi = std::min(end, earlier.end);
  std::string site;
  if (al.site != 0) {
    const std::string summary = AllocationSiteSummary(al.site);
    site = summary.empty() ? std::string(", allocated at an unnamed site") : ", allocated at " + summary;
  } else {
    site = " (NPURT_ALLOC_CONF=record_sites:True names where it was allocated)";
  }
  return fmt::format(
      "npurt racecheck: race #{} on device memory: {} bytes at offset {} of the allocation at {:#x}\n"
      "  first:  {} [{:#x}, +{}) by {}\n"
      "  second: {} [{:#x}, +{}) by {}\n"
      "  allocation: {:#x}, {} bytes, device {}{}\n"
      "  nothing orders the second after the first (stream order, event, notify, value wait, host "
      "synchronisation, callback)",
      number, hi - lo, lo - al.base, al.base, earlier.write ? "write" : "read", earlier.begin,
      earlier.end - earlier.begin, DescribeActor(*earlier.actor), write ? "write" : "read", begin, end - begin,
      DescribeActor(later), al.base, al.size, al.device, site);
}

std::string RaceKey(uintptr_t allocation_base, const Actor& earlier, const Actor& later) {
  const auto side = [](const Actor& a) {
    return fmt::format("{}|{}|{}|{}", a.api, a.name, a.stream, a.callback_stream);
  };
  std::string a = side(earlier), b = side(later);
  if (b < a) std::swap(a, b);  // A then B and B then A are one race
  return fmt::format("{:#x}|{}|{}", allocation_base, a, b);
}

}  // namespace npurt::core::racecheck
