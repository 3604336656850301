#include "core/kernel/launch_records.h"

#include <cstring>
#include <mutex>
#include <thread>

#include "core/kernel/kernel_binary.h"
#include "core/kernel/overflow.h"
#include "core/stream.h"

namespace npurt::core {
namespace {

// Large argument buffers are not kept: records that live on would pin the memory.
constexpr size_t kKeptHeapBytes = 64 * 1024;
// Slots of a stream's ring: the simulated queue's depth, so a full queue of launches is served.
constexpr uint32_t kMaxRingSlots = 256;
// Slots a ring always turns over: a launch reads the queue's completion count (a line the executor
// writes after every task) only when the count it last saw does not cover its slot, so about once per
// kWarmSlots launches while the executor keeps up.
constexpr uint32_t kWarmSlots = 8;

void DropLargeHeap(LaunchRecord* r) {
  if (r->heap_capacity > kKeptHeapBytes) {
    r->heap.reset();
    r->heap_capacity = 0;
  }
}

// Free list of records for the launches a stream's ring does not serve (a graph capture, a second thread
// launching into the same stream at the same moment, every ring slot in flight): pushed by the executor
// that finishes a launch, taken by a launching thread. Under a mutex: these paths are rare, and a list
// of its own per thread would strand its records when the thread exits.
class RecordPool {
 public:
  LaunchRecord* Acquire() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (LaunchRecord* r = head_; r != nullptr) {
        head_ = r->next_free;
        return r;
      }
    }
    return new LaunchRecord();
  }
  void Release(LaunchRecord* r) {
    DropLargeHeap(r);
    std::lock_guard<std::mutex> lock(mu_);
    r->next_free = head_;
    head_ = r;
  }

 private:
  std::mutex mu_;
  LaunchRecord* head_ = nullptr;
};

RecordPool& Pool() {
  static RecordPool* pool = new RecordPool();  // never destroyed: executors may finish launches at exit
  return *pool;
}

}  // namespace

// Slots are reused in turn; `active` grows (up to kMaxRingSlots) past kWarmSlots only when the next slot
// is still in flight, so a stream that synchronizes after each launch keeps a few records warm.
struct LaunchRing {
  struct Slot {
    LaunchRecord* record = nullptr;
    uint64_t seq = 0;  // the task that used it last (0: never)
  };

  // Held by the launcher using the ring (the executor never touches the ring): everything below is read
  // and written only by its holder.
  std::atomic<bool> busy{false};
  uint32_t active = 0;
  uint32_t next = 0;
  uint64_t completed_seen = 0;  // the stream's completion count when last read
  Slot slots[kMaxRingSlots];

  ~LaunchRing() {
    for (Slot& s : slots) delete s.record;
  }
};

uint8_t* LaunchRecord::Buffer(size_t size) {
  if (size <= kInlineArgs) return inline_args;
  if (heap_capacity < size) {
    heap.reset(new uint8_t[size]);
    heap_capacity = size;
  }
  return heap.get();
}

RecordLease AcquireLaunchRecord(Stream* stream) {
  RecordLease lease;
  // A recording stream's tasks go into a graph, which keeps their records until it is destroyed.
  if (stream->recording() != nullptr) {
    lease.record = Pool().Acquire();
    return lease;
  }
  LaunchRing* ring = stream->launch_ring.load(std::memory_order_acquire);
  if (ring == nullptr) {
    auto* fresh = new LaunchRing();
    if (stream->launch_ring.compare_exchange_strong(ring, fresh, std::memory_order_acq_rel)) {
      ring = fresh;
    } else {
      delete fresh;  // another launcher made it first (`ring` holds its)
    }
  }
  // One launcher at a time uses the ring, from here until CommitLaunchRecord; a concurrent launcher on
  // the same stream takes a free-list record rather than wait.
  if (ring->busy.exchange(true, std::memory_order_acquire)) {
    lease.record = Pool().Acquire();
    return lease;
  }
  auto in_flight = [&](uint32_t i) {
    const uint64_t seq = ring->slots[i].seq;
    // The queue's completion count is written by the executor after every task: read it only when the
    // count last seen does not cover this slot (once per turn of the ring while the executor keeps up).
    if (seq <= ring->completed_seen) return false;
    ring->completed_seen = stream->completed();
    return seq > ring->completed_seen;
  };
  uint32_t i = ring->active == 0 ? 0 : ring->next % ring->active;
  if (ring->active < kWarmSlots || in_flight(i)) {
    if (ring->active == kMaxRingSlots) {
      ring->busy.store(false, std::memory_order_release);
      lease.record = Pool().Acquire();
      return lease;
    }
    i = ring->active++;
  }
  LaunchRing::Slot& slot = ring->slots[i];
  if (slot.record == nullptr) {
    slot.record = new LaunchRecord();
    slot.record->in_ring = true;
  }
  DropLargeHeap(slot.record);
  ring->next = i + 1;
  lease.record = slot.record;
  lease.ring = ring;
  lease.slot = i;
  return lease;
}

void CommitLaunchRecord(const RecordLease& lease, uint64_t seq) {
  if (lease.ring == nullptr) return;
  LaunchRing::Slot& slot = lease.ring->slots[lease.slot];
  if (seq != 0) {
    slot.seq = seq;
  } else {
    // The stream began recording after the check: the graph owns the record now. The slot gets a new one.
    slot.record->detached.store(true, std::memory_order_release);
    slot.record = nullptr;
    slot.seq = 0;
  }
  lease.ring->busy.store(false, std::memory_order_release);
}

std::vector<InFlightLaunch> InFlightLaunchesInto(Stream* stream, uintptr_t lo, uintptr_t hi) {
  std::vector<InFlightLaunch> found;
  LaunchRing* ring = stream->launch_ring.load(std::memory_order_acquire);
  if (ring == nullptr || stream->Idle()) return found;
  while (ring->busy.exchange(true, std::memory_order_acquire)) std::this_thread::yield();
  const uint64_t completed = stream->completed();
  for (uint32_t i = 0; i < ring->active; ++i) {
    const LaunchRing::Slot& slot = ring->slots[i];
    // In flight: submitted (the ring is held, so no launch between acquire and commit is counted) and
    // not completed; its record is not rewritten before the queue passes it.
    if (slot.record == nullptr || slot.seq <= completed) continue;
    const hal::KernelLaunch& k = slot.record->hal;
    const auto* args = static_cast<const uint8_t*>(k.args);
    for (size_t off = 0; args != nullptr && off + sizeof(uint64_t) <= k.args_size; off += sizeof(uint64_t)) {
      uint64_t word;
      std::memcpy(&word, args + off, sizeof word);
      if (word >= lo && word < hi) {
        found.push_back({slot.seq, k.name});
        break;
      }
    }
  }
  ring->busy.store(false, std::memory_order_release);
  return found;
}

void FinishLaunchRecord(LaunchRecord* r) {
  // Every block has finished (the cleanup runs after the task): the flag is stable.
  if (r->check_overflow != nullptr && __atomic_load_n(&r->hal.overflowed, __ATOMIC_ACQUIRE) != 0) {
    RaiseOverflow(r->check_overflow);
  }
  KernelBinary* binary = r->binary;
  // A ring record is only read here: the launcher writes it again once the queue passed this task.
  if (!r->in_ring || r->detached.load(std::memory_order_acquire)) {
    r->binary = nullptr;
    r->function = nullptr;
    r->in_ring = false;
    r->detached.store(false, std::memory_order_relaxed);
    Pool().Release(r);
  }
  binary->EndLaunch();
}

void DestroyLaunchRing(LaunchRing* ring) { delete ring; }

}  // namespace npurt::core
