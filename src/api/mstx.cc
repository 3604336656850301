// Entry points: the mstx markers and ranges (include/mstx/ms_tools_ext.h), recorded like msproftx ones.
// The API has no error returns: bad input is ignored (and logged at debug level).
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "api/api_common.h"
#include "base/clock.h"
#include "core/stream.h"
#include "dfx/log.h"
#include "dfx/profiler.h"
#include "mstx/ms_tools_ext.h"

// The header declares the functions without an export marker (it is a user header): export them here.
#define NPURT_MSTX_EXPORT __attribute__((visibility("default")))

struct mstxDomainRegistration_st {
  std::string name;
};

namespace {

namespace bits = npurt::dfx::prof_bits;

struct OpenRange {
  mstxDomainHandle_t domain;
  std::string message;
  uint64_t start_ns;
};

struct State {
  std::mutex mu;
  std::map<mstxDomainHandle_t, std::unique_ptr<mstxDomainRegistration_st>> domains;
  std::map<mstxRangeId, OpenRange> ranges;
  mstxRangeId next_range = 1;
};

State& S() {
  static State* s = new State();  // never destroyed: markers may come from threads at exit
  return *s;
}

// "<domain>::<message>", or the message alone for the default domain; false for an unknown domain.
bool Label(mstxDomainHandle_t domain, const char* message, std::string* out) {
  if (message == nullptr) return false;
  if (domain == nullptr) {
    *out = message;
    return true;
  }
  std::lock_guard<std::mutex> lock(S().mu);
  auto it = S().domains.find(domain);
  if (it == S().domains.end()) return false;
  *out = it->second->name + "::" + message;
  return true;
}

int32_t StreamId(mstxStream_t stream) {
  if (stream == nullptr) return -1;
  auto s = npurt::api::ResolveStream(stream);
  return s.ok() ? s.value()->id() : -1;
}

void Mark(mstxDomainHandle_t domain, const char* message, mstxStream_t stream) {
  if (!npurt::dfx::ProfOn(bits::kMsproftx)) return;
  std::string label;
  if (!Label(domain, message, &label)) return;
  npurt::dfx::ProfRecordMark(label, StreamId(stream));
}

mstxRangeId Start(mstxDomainHandle_t domain, const char* message) {
  std::string label;
  if (!Label(domain, message, &label)) {
    NPURT_LOG_DEBUG("PROFILING", "mstx range start ignored: null message or unknown domain");
    return MSTX_INVALID_RANGE_ID;
  }
  std::lock_guard<std::mutex> lock(S().mu);
  const mstxRangeId id = S().next_range++;
  S().ranges[id] = {domain, std::move(label), npurt::NowNs()};
  return id;
}

void End(mstxDomainHandle_t domain, mstxRangeId id, bool check_domain) {
  OpenRange r;
  {
    std::lock_guard<std::mutex> lock(S().mu);
    auto it = S().ranges.find(id);
    if (it == S().ranges.end() || (check_domain && it->second.domain != domain)) return;
    r = std::move(it->second);
    S().ranges.erase(it);
  }
  if (npurt::dfx::ProfOn(bits::kMsproftx)) npurt::dfx::ProfRecordRange(r.message, r.start_ns, npurt::NowNs());
}

}  // namespace

extern "C" {

NPURT_MSTX_EXPORT void mstxMarkA(const char* message, mstxStream_t stream) {
  NPURT_HANDLE_SCOPE();
  Mark(nullptr, message, stream);
}

NPURT_MSTX_EXPORT mstxRangeId mstxRangeStartA(const char* message, mstxStream_t /*stream*/) {
  NPURT_HANDLE_SCOPE();
  return Start(nullptr, message);
}

NPURT_MSTX_EXPORT void mstxRangeEnd(mstxRangeId id) {
  NPURT_HANDLE_SCOPE();
  End(nullptr, id, false);
}

NPURT_MSTX_EXPORT mstxDomainHandle_t mstxDomainCreateA(const char* name) {
  NPURT_HANDLE_SCOPE();
  if (name == nullptr || name[0] == '\0') return nullptr;
  auto d = std::make_unique<mstxDomainRegistration_st>();
  d->name = name;
  mstxDomainHandle_t h = d.get();
  std::lock_guard<std::mutex> lock(S().mu);
  S().domains.emplace(h, std::move(d));
  return h;
}

NPURT_MSTX_EXPORT void mstxDomainDestroy(mstxDomainHandle_t domain) {
  NPURT_HANDLE_SCOPE();
  std::lock_guard<std::mutex> lock(S().mu);
  S().domains.erase(domain);
}

NPURT_MSTX_EXPORT void mstxDomainMarkA(mstxDomainHandle_t domain, const char* message, mstxStream_t stream) {
  NPURT_HANDLE_SCOPE();
  if (domain != nullptr) Mark(domain, message, stream);
}

NPURT_MSTX_EXPORT mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char* message, mstxStream_t /*stream*/) {
  NPURT_HANDLE_SCOPE();
  return domain != nullptr ? Start(domain, message) : MSTX_INVALID_RANGE_ID;
}

NPURT_MSTX_EXPORT void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id) {
  NPURT_HANDLE_SCOPE();
  if (domain != nullptr) End(domain, id, true);
}

}  // extern "C"
