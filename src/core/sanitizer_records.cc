#include "core/sanitizer_records.h"

#include <string>

#include <fmt/format.h>

#include "core/alloc/alloc_sites.h"
#include "dfx/json_escape.h"
#include "dfx/sanitizer_log.h"

namespace npurt::core {

void RecordTaskFailure(int32_t device, int32_t stream, const hal::TaskFailure& failure) {
  if (!dfx::SanitizerLogOn()) return;
  const char* kernel = failure.kernel != nullptr && failure.kernel->name != nullptr ? failure.kernel->name : "";
  dfx::SanitizerLogWrite(fmt::format(
      "{{\"kind\":\"task_failure\",\"device\":{},\"stream\":{},\"task\":{},\"code\":{},\"kernel\":\"{}\","
      "\"message\":\"{}\"}}",
      device, stream, failure.task_id, failure.code, dfx::JsonEscape(kernel), dfx::JsonEscape(failure.message)));
}

void RecordLeaks(int32_t device, const std::vector<LiveAllocation>& leaked) {
  if (!dfx::SanitizerLogOn()) return;
  for (const LiveAllocation& a : leaked) {
    // The call site is known only with NPURT_ALLOC_CONF=record_sites:True (the tool sets it for --leak-check).
    const std::string site = a.site != 0 ? AllocationSiteSummary(a.site) : std::string();
    dfx::SanitizerLogWrite(fmt::format(
        "{{\"kind\":\"leak\",\"device\":{},\"base\":{},\"size\":{},\"serial\":{},\"site\":\"{}\"}}", device, a.base,
        a.size, a.serial, dfx::JsonEscape(site)));
  }
}

void RecordRace(std::string_view text) {
  if (!dfx::SanitizerLogOn()) return;
  dfx::SanitizerLogWrite(fmt::format("{{\"kind\":\"race\",\"text\":\"{}\"}}", dfx::JsonEscape(text)));
}

void RecordRaceSummary(uint64_t races, uint64_t accesses) {
  if (!dfx::SanitizerLogOn()) return;
  dfx::SanitizerLogWrite(
      fmt::format("{{\"kind\":\"race_summary\",\"races\":{},\"accesses\":{}}}", races, accesses));
}

}  // namespace npurt::core
