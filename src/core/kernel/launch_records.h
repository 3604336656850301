// Launch records: the memory a kernel launch in flight lives in (the driver's hal::KernelLaunch, the
// function and binary it runs, its copied argument block), and where each record comes from.
//
// A launch's round trip is bounded by the cache lines the launching thread and the executor hand each
// other. A shared free list costs two of them per launch besides the record itself: the list head, and
// the record's link, both last written by the executor that returned it. So a stream reuses its own
// records instead: a ring of slots, each reused once the stream's queue has completed the task that
// used it (the queue's completion count). The executor only reads a ring record, and the launcher
// stores only the fields that changed since the record's last launch (base/shared_write.h): relaunching
// a kernel leaves the record's lines shared by both cores, so neither misses on them.
//
// The ring holds up to kMaxRingSlots records, made as launches need them, and lives as long as the
// stream. Launches it cannot serve (every slot still in flight, or the stream records into a graph,
// which keeps the record until the graph goes) take a record from the process-wide free list.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "hal/hal.h"

namespace npurt::core {

class KernelBinary;
class KernelFunction;
class Device;
class Stream;
struct LaunchRing;

// Line-aligned, the fields the executor reads (hal, then what the cleanup reads) first: they share the
// two cache lines the driver fetches together when it reaches the task.
struct alignas(64) LaunchRecord {
  static constexpr size_t kInlineArgs = 256;

  hal::KernelLaunch hal;
  Device* check_overflow = nullptr;  // the stream's overflow switch was on (core/kernel/overflow.h)
  KernelBinary* binary = nullptr;    // in flight (KernelBinary::BeginLaunch) until the task's cleanup
  KernelFunction* function = nullptr;
  std::unique_ptr<uint8_t[]> heap;
  size_t heap_capacity = 0;
  LaunchRecord* next_free = nullptr;  // free-list records only
  bool in_ring = false;               // a stream ring's record: the cleanup returns nothing
  // A ring record whose task went into a graph after all (another thread began a capture of the stream
  // between the check and the submission): the graph owns it now, and its cleanup returns it to the free
  // list. Should that graph be destroyed before the launching thread marks the record (a window of a few
  // instructions), the cleanup leaves the record alone and it is leaked, never reused while in use.
  std::atomic<bool> detached{false};
  alignas(16) uint8_t inline_args[kInlineArgs];

  // A buffer of `size` bytes for the launch's argument block.
  uint8_t* Buffer(size_t size);
};
static_assert(offsetof(LaunchRecord, function) + sizeof(KernelFunction*) <= 128,
              "the fields an executor reads no longer fit the two lines it fetches");

// A record taken for one launch: CommitLaunchRecord must follow once the task is submitted (a ring lease
// holds the stream's ring until then; other launchers on the stream meanwhile take free-list records).
struct RecordLease {
  LaunchRecord* record = nullptr;
  LaunchRing* ring = nullptr;  // null: from the free list
  uint32_t slot = 0;
};

// A record for a launch on `stream` (its ring when it can, else the free list).
RecordLease AcquireLaunchRecord(Stream* stream);
// After the launch's submission: `seq` is the sequence number Stream::Submit returned (0: the task went
// into a graph).
void CommitLaunchRecord(const RecordLease& lease, uint64_t seq);
// The task's cleanup (executor thread, after the launch completed): releases what the record holds.
void FinishLaunchRecord(LaunchRecord* record);

// A launch of `stream` still in flight whose argument block holds a pointer into [lo, hi).
struct InFlightLaunch {
  uint64_t seq = 0;        // its task's sequence number on the stream
  const char* name = "";   // the kernel's name
};
// The in-flight launches of `stream`'s ring whose arguments point into [lo, hi) (8-byte aligned words of
// the argument block, the natural layout of pointer parameters). Launches served by the free list (a
// second thread launching into the stream at the same moment, every ring slot in flight) are not seen.
// Any thread; takes the ring for the scan (a launcher meanwhile takes a free-list record).
std::vector<InFlightLaunch> InFlightLaunchesInto(Stream* stream, uintptr_t lo, uintptr_t hi);

// Called by ~Stream, when no task of the stream is left in flight.
void DestroyLaunchRing(LaunchRing* ring);

}  // namespace npurt::core
