// Allocation-trace replay: runs npurt's caching allocator policy over a recorded sequence of allocations
// and frees (bookkeeping only: no device, no memory touched) and reports how much memory it reserved.
//
// Trace format (one event a line, '#' starts a comment):
//   a <id> <bytes> [stream]   allocate <bytes> under the name <id>
//   f <id> [stream]           free the allocation named <id>
//   # capacity <bytes>        optional header: the device size to replay against (default 64 GiB)
// Allocations use the pool allocator's rounding (32 B, no aclrtMalloc padding); a stream other than 0
// makes the allocation stream-ordered (reuse keyed by stream). All work is taken as complete, so frees
// are reusable at once.
//
// Figures: peak_allocated is the largest sum of live requested bytes at any point (a property of the
// trace); peak_reserved is the most the allocator held in segments; frag_ratio = reserved / allocated
// at their peaks (1.0 is perfect).
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "base/status.h"
#include "core/alloc/alloc_config.h"

namespace npurt::tools {

struct TraceEvent {
  bool alloc = true;
  uint64_t id = 0;
  uint64_t size = 0;
  uint64_t stream = 0;
};

struct Trace {
  std::string name;
  uint64_t capacity = 64ull << 30;
  std::vector<TraceEvent> events;
};

StatusOr<Trace> ParseTrace(std::istream& in, const std::string& name);
StatusOr<Trace> LoadTrace(const std::string& path);

struct ReplayResult {
  uint64_t peak_allocated = 0;
  uint64_t peak_reserved = 0;
  double frag_ratio = 0.0;
  uint64_t allocs = 0;
  uint64_t frees = 0;
  uint64_t segments = 0;      // segments created
  uint64_t page_maps = 0;     // pages mapped (expandable)
  double ns_per_event = 0.0;  // host time of the replay itself
};

// Replays `trace` with `config`; fails on a malformed trace (unknown id, double allocation) or an
// allocation the capacity cannot hold.
StatusOr<ReplayResult> Replay(const Trace& trace, const core::AllocatorConfig& config);

}  // namespace npurt::tools
