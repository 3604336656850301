// Per-thread record rings of the profiler.
//
// Each thread that records gets its own single-producer/single-consumer ring the first time it records
// (registered with the RingRegistry). The producer never locks while its ring has room; a full ring
// (the drain thread starved on a loaded machine) makes the producer drain the rings itself, so records
// are not lost (a record is counted as lost only if that cannot make room). The profiler's drain thread is the only consumer. Rings live until the process ends
// (a thread that exits leaves its ring to be drained), so the consumer never races a free.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "dfx/prof_record.h"

namespace npurt::dfx {

class RecordRing {
 public:
  static constexpr uint64_t kCapacity = 1u << 16;  // 3 MiB per recording thread

  // The slots are touched once here: a first touch of fresh memory costs ~10 us per page, which must
  // not land on the recording path (it would triple the cost of a record).
  RecordRing() : slots_(new Record[kCapacity]) { std::memset(slots_.get(), 0, kCapacity * sizeof(Record)); }

  // Producer (owning thread only): false when the ring is full (the caller decides: drain, or count the
  // record as lost).
  bool TryPush(const Record& r) {
    const uint64_t h = head_.load(std::memory_order_relaxed);
    if (h - tail_.load(std::memory_order_acquire) >= kCapacity) return false;
    slots_[h & (kCapacity - 1)] = r;
    head_.store(h + 1, std::memory_order_release);
    return true;
  }
  void CountLost() { lost_.fetch_add(1, std::memory_order_relaxed); }

  // Consumer: calls fn(records, count) for contiguous spans of unread records; returns how many.
  template <typename Fn>
  uint64_t Drain(Fn&& fn) {
    const uint64_t t = tail_.load(std::memory_order_relaxed);
    const uint64_t h = head_.load(std::memory_order_acquire);
    if (h == t) return 0;
    uint64_t pos = t;
    while (pos < h) {
      const uint64_t idx = pos & (kCapacity - 1);
      const uint64_t n = std::min(h - pos, kCapacity - idx);
      fn(&slots_[idx], n);
      pos += n;
    }
    tail_.store(h, std::memory_order_release);
    return h - t;
  }

  uint64_t lost() const { return lost_.load(std::memory_order_relaxed); }
  void ResetLost() { lost_.store(0, std::memory_order_relaxed); }

 private:
  std::unique_ptr<Record[]> slots_;
  alignas(64) std::atomic<uint64_t> head_{0};
  alignas(64) std::atomic<uint64_t> tail_{0};
  std::atomic<uint64_t> lost_{0};
};

class RingRegistry {
 public:
  // The calling thread's ring: on first use, a spare one made by Prepare, else a new one.
  RecordRing& Mine();
  // Makes rings ahead of time (aclprofStart), so that the threads that record first (the submitting
  // thread, the executors) do not pay for creating theirs.
  void Prepare(size_t spares);
  // Every ring registered so far (the consumer walks them).
  std::vector<RecordRing*> All();

 private:
  std::mutex mu_;
  std::vector<std::unique_ptr<RecordRing>> rings_;
  std::vector<std::unique_ptr<RecordRing>> spares_;
};

}  // namespace npurt::dfx
