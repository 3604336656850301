// Race detector (core/racecheck/racecheck.h): vector clocks and the shadow of one allocation, i.e. the accesses
// made to it that a later access must still be checked against.
//
// Clocks: component 0 is the host, each stream has its own. An access made at epoch (c, n) happens
// before a later access whose clock has at least n in component c. A record stays in the shadow until a
// later access supersedes it: a write that covers it and that it happens before (every later access
// ordered after that write is ordered after the record too, and one that is not races with the write),
// or a read by the same component that covers it. Private to the detector.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace npurt::core::racecheck {

using VectorClock = std::vector<uint32_t>;

inline uint32_t At(const VectorClock& vc, uint32_t component) {
  return component < vc.size() ? vc[component] : 0;
}
inline void Join(VectorClock* into, const VectorClock& from) {
  if (into->size() < from.size()) into->resize(from.size(), 0);
  for (size_t i = 0; i < from.size(); ++i) {
    if ((*into)[i] < from[i]) (*into)[i] = from[i];
  }
}
inline void Tick(VectorClock* vc, uint32_t component) {
  if (vc->size() <= component) vc->resize(component + 1, 0);
  ++(*vc)[component];
}

struct Epoch {
  uint32_t component = 0;
  uint32_t clock = 0;
};
inline bool HappensBefore(const Epoch& earlier, const VectorClock& later) {
  return earlier.clock <= At(later, earlier.component);
}

// Who made an access: one task (or one synchronous host call), shared by the records it leaves.
struct Actor {
  std::string api;              // "aclrtMemcpyAsync", "aclrtLaunchKernel", "aclrtMemcpy", ...
  std::string name;             // the kernel's or operator's name ("" for copies and fills)
  int32_t stream = -1;          // -1: a synchronous host call
  int32_t device = -1;
  uint32_t task = 0;            // runtime-wide task id (aclrtGetThreadLastTaskId); 0 for host calls
  int32_t callback_stream = -1; // host call made inside a callback of this stream
  uint32_t callback_task = 0;
};
using ActorRef = std::shared_ptr<const Actor>;

struct AccessRecord {
  uintptr_t begin = 0;
  uintptr_t end = 0;  // exclusive
  bool write = false;
  Epoch epoch;
  ActorRef actor;
};

class AllocationShadow {
 public:
  // Records are dropped oldest first beyond this (a missed race is possible then, never a false one).
  static constexpr size_t kMaxRecords = 1024;

  // The earlier records that conflict with an access of [begin, end) (overlap, one of the two a write)
  // and do not happen before it (`now`: the accessing side's clock).
  std::vector<const AccessRecord*> Conflicts(uintptr_t begin, uintptr_t end, bool write, const VectorClock& now) const;
  // Adds the access (after Conflicts) and drops the records it supersedes.
  void Add(AccessRecord record, const VectorClock& now);
  size_t size() const { return records_.size(); }

 private:
  std::vector<AccessRecord> records_;
};

}  // namespace npurt::core::racecheck
