#include "core/alloc/alloc_sites.h"

#include <execinfo.h>

#include <cstdlib>
#include <mutex>
#include <unordered_map>

namespace npurt::core {
namespace {

constexpr int kMaxFrames = 24;
constexpr int kSkipFrames = 3;  // CaptureAllocationSite, the allocator, the API entry's helper

struct Stack {
  int depth = 0;
  void* frames[kMaxFrames];
  bool operator==(const Stack& o) const {
    if (depth != o.depth) return false;
    for (int i = 0; i < depth; ++i) {
      if (frames[i] != o.frames[i]) return false;
    }
    return true;
  }
};

struct StackHash {
  size_t operator()(const Stack& s) const {
    size_t h = static_cast<size_t>(s.depth);
    for (int i = 0; i < s.depth; ++i) h = h * 1000003u ^ reinterpret_cast<uintptr_t>(s.frames[i]);
    return h;
  }
};

struct SiteTable {
  std::mutex mu;
  std::unordered_map<Stack, uint32_t, StackHash> ids;
  std::vector<Stack> stacks{Stack{}};  // id 0 = none
};

SiteTable& Table() {
  static SiteTable* t = new SiteTable();  // never destroyed: blocks may outlive static destructors
  return *t;
}

}  // namespace

uint32_t CaptureAllocationSite() {
  Stack s;
  void* raw[kMaxFrames + kSkipFrames];
  const int n = backtrace(raw, kMaxFrames + kSkipFrames);
  for (int i = kSkipFrames; i < n; ++i) s.frames[s.depth++] = raw[i];
  SiteTable& t = Table();
  std::lock_guard<std::mutex> lock(t.mu);
  auto [it, inserted] = t.ids.emplace(s, static_cast<uint32_t>(t.stacks.size()));
  if (inserted) t.stacks.push_back(s);
  return it->second;
}

std::vector<std::string> AllocationSiteFrames(uint32_t site) {
  Stack s;
  {
    SiteTable& t = Table();
    std::lock_guard<std::mutex> lock(t.mu);
    if (site == 0 || site >= t.stacks.size()) return {};
    s = t.stacks[site];
  }
  std::vector<std::string> out;
  char** names = backtrace_symbols(s.frames, s.depth);
  for (int i = 0; i < s.depth; ++i) out.emplace_back(names != nullptr ? names[i] : "?");
  std::free(names);
  return out;
}

std::string AllocationSiteSummary(uint32_t site) {
  for (const std::string& f : AllocationSiteFrames(site)) {
    if (f.find("libascendcl") == std::string::npos && f.find("libacl_rt") == std::string::npos) return f;
  }
  return {};
}

}  // namespace npurt::core
