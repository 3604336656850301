#include "replay.h"

#include <chrono>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "acl/acl_base_rt.h"
#include "core/alloc/device_allocator.h"

namespace npurt::tools {
namespace {

// A fake, 1 GiB-aligned device base: the replay never dereferences device addresses.
constexpr uintptr_t kFakeBase = 0x100000000000ull;

}  // namespace

StatusOr<Trace> ParseTrace(std::istream& in, const std::string& name) {
  Trace t;
  t.name = name;
  std::string line;
  size_t lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    std::istringstream ls(line);
    std::string op;
    if (!(ls >> op)) continue;
    if (op[0] == '#') {
      std::string key;
      uint64_t v = 0;
      if (ls >> key >> v && key == "capacity" && v > 0) t.capacity = v;
      continue;
    }
    TraceEvent e;
    if (op == "a") {
      if (!(ls >> e.id >> e.size) || e.size == 0) {
        return Err(ACL_ERROR_INVALID_PARAM, "{}:{}: expected 'a <id> <bytes> [stream]'", name, lineno);
      }
    } else if (op == "f") {
      e.alloc = false;
      if (!(ls >> e.id)) return Err(ACL_ERROR_INVALID_PARAM, "{}:{}: expected 'f <id> [stream]'", name, lineno);
    } else {
      return Err(ACL_ERROR_INVALID_PARAM, "{}:{}: unknown event '{}' (a or f)", name, lineno, op);
    }
    ls >> e.stream;
    t.events.push_back(e);
  }
  return t;
}

StatusOr<Trace> LoadTrace(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Err(ACL_ERROR_INVALID_FILE, "cannot open trace '{}'", path);
  std::string name = path.substr(path.find_last_of('/') + 1);
  if (const size_t dot = name.rfind('.'); dot != std::string::npos) name.resize(dot);
  return ParseTrace(in, name);
}

StatusOr<ReplayResult> Replay(const Trace& trace, const core::AllocatorConfig& config) {
  const uint64_t capacity = trace.capacity / (2u << 20) * (2u << 20);
  core::DeviceAllocator device(nullptr, kFakeBase, capacity, capacity * 9, config);
  std::unordered_map<uint64_t, std::pair<void*, uint64_t>> live;
  live.reserve(trace.events.size() / 2 + 1);
  ReplayResult r;
  uint64_t allocated = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < trace.events.size(); ++i) {
    const TraceEvent& e = trace.events[i];
    if (e.alloc) {
      core::AllocRequest req;
      req.size = e.size;
      req.pad = false;
      req.stream = e.stream;
      auto p = device.Allocate(req);
      if (!p.ok()) return std::move(p).status().WithContext(fmt::format("{}: event {}", trace.name, i).c_str());
      if (!live.emplace(e.id, std::make_pair(p.value(), e.size)).second) {
        return Err(ACL_ERROR_INVALID_PARAM, "{}: event {}: id {} is already live", trace.name, i, e.id);
      }
      allocated += e.size;
      r.peak_allocated = std::max(r.peak_allocated, allocated);
      ++r.allocs;
    } else {
      auto it = live.find(e.id);
      if (it == live.end()) return Err(ACL_ERROR_INVALID_PARAM, "{}: event {}: id {} is not live", trace.name, i, e.id);
      NPURT_RETURN_IF_ERROR(device.Free(it->second.first, nullptr, 0, e.stream));
      allocated -= it->second.second;
      live.erase(it);
      ++r.frees;
    }
  }
  const auto t1 = std::chrono::steady_clock::now();
  const core::CachingStats s = device.caching().Stats();
  r.peak_reserved = s.total.reserved_peak;
  r.segments = s.segment_allocs;
  r.page_maps = s.page_maps;
  r.frag_ratio = r.peak_allocated == 0 ? 0.0 : double(r.peak_reserved) / double(r.peak_allocated);
  r.ns_per_event = trace.events.empty()
                       ? 0.0
                       : double(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()) /
                             double(trace.events.size());
  for (auto& [id, p] : live) (void)device.Free(p.first, nullptr, 0, 0);
  return r;
}

}  // namespace npurt::tools
