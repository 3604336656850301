// The driver interface: what core may ask of a device, and nothing more.
//
// Contract for every driver:
//  - A Driver enumerates devices and opens them; a Device owns a device-memory range, creates
//    hardware queues and sequence flags. Core never sees threads, engines or memory mappings.
//  - Queue::Submit is called from any host thread, concurrently, and must not block except for
//    back-pressure when the queue is full. Tasks of one queue execute one at a time, in order;
//    tasks of different queues may run concurrently.
//  - A task that fails records the first error of its queue (sticky) and calls the queue's failure
//    hook on the executing thread; with stop-on-failure the queue's later tasks are discarded.
//  - Every task's `cleanup` runs exactly once after the task finished or was discarded, on a
//    driver thread, so core can keep objects that a task uses alive until then.
//  - Waits (flag, value, host function) park the queue; no thread polls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"

namespace npurt::hal {

class Queue;
class Flag;

enum class TaskKind : uint8_t {
  kNop = 0,
  kCopy,        // memmove-safe copy of `size` bytes
  kCopy2d,      // `height` rows of `width` bytes with pitches
  kFill8,       // memset
  kFill32,      // 32-bit pattern fill of `count` words
  kHostFunc,    // runs fn(arg, queue) on the host-function engine; completes on CompleteHostTask
  kFlagSignal,  // sets a Flag to `value` and records the time
  kFlagWait,    // parks until a Flag reaches `value`
  kValueWrite,  // *(uint64_t*)addr = value
  kValueWait,   // parks until the 64-bit word at addr satisfies the comparison
  kFail,        // fails with `code` (used to inject errors and for conformance tests)
};

// Comparison used by kValueWait (numbering of aclrtValueWait's flags).
enum class ValueCompare : uint32_t { kGreaterEqual = 0, kEqual = 1, kAnd = 2, kNor = 3 };

using HostFn = void (*)(void* arg, Queue* queue);
using CleanupFn = void (*)(void* arg);

struct Task {
  TaskKind kind = TaskKind::kNop;
  uint32_t id = 0;       // runtime-wide task id (exception info, profiling)
  uint32_t aux = 0;      // kValueWait: ValueCompare; kFail: error code
  void* dst = nullptr;   // copy/fill destination; value address
  const void* src = nullptr;
  size_t size = 0;       // copy bytes; fill8 bytes; fill32 words
  size_t dpitch = 0;
  size_t spitch = 0;
  size_t height = 0;     // copy2d rows (width = size)
  uint64_t value = 0;    // fill pattern, flag value, value-wait/write operand
  uint64_t timeout_ns = 0;  // waits: 0 = forever
  Flag* flag = nullptr;
  HostFn host_fn = nullptr;
  void* host_arg = nullptr;
  CleanupFn cleanup = nullptr;
  void* cleanup_arg = nullptr;
};

// Details handed to the failure hook.
struct TaskFailure {
  uint32_t task_id;
  int32_t code;
  std::string message;
};

using FailureHook = void (*)(void* ctx, Queue* queue, const TaskFailure& failure);

struct QueueOptions {
  int32_t priority = 0;
  bool stop_on_failure = false;
  FailureHook on_failure = nullptr;
  void* hook_ctx = nullptr;
};

class Queue {
 public:
  virtual ~Queue() = default;  // precondition: idle (Drain or Discard+Drain first)

  // Enqueues a task; returns its sequence number (1, 2, ...). Never fails.
  virtual uint64_t Submit(const Task& task) = 0;
  virtual uint64_t submitted() const = 0;
  virtual uint64_t completed() const = 0;
  // Waits on the host until task `seq` completed; false when the deadline (ns, UINT64_MAX = none)
  // passed first.
  virtual bool WaitHost(uint64_t seq, uint64_t deadline_ns) = 0;
  // First error of the queue (0 if none) and its message; sticky until ClearError.
  virtual int32_t error() const = 0;
  virtual std::string error_message() const = 0;
  virtual void ClearError() = 0;
  virtual void SetStopOnFailure(bool stop) = 0;
  // Discards every task not yet started (they complete without running; a parked wait is released).
  virtual void Discard() = 0;
  // Completes the running kHostFunc task of this queue with `code` (0 = success).
  virtual void CompleteHostTask(int32_t code) = 0;
};

// A device-side sequence flag: signal tasks store increasing values; wait tasks park queues until the
// flag reaches a value; the host can wait too.
class Flag {
 public:
  virtual ~Flag() = default;
  virtual uint64_t value() const = 0;
  // CLOCK_MONOTONIC ns at which the flag last changed.
  virtual uint64_t timestamp_ns() const = 0;
  virtual bool WaitHost(uint64_t value, uint64_t deadline_ns) = 0;
};

struct DeviceInfo {
  std::string soc_name;
  uint32_t aicore_count = 0;
  uint64_t memory_bytes = 0;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const DeviceInfo& info() const = 0;
  // The device-memory range. Core's allocator carves it; addresses are usable by the driver's
  // engines (and, on the sim, by host code that the runtime runs on the device's behalf).
  virtual uint8_t* memory_base() const = 0;
  virtual uint64_t memory_size() const = 0;
  // Makes [addr, addr+size) resident (first touch is expensive; the allocator calls this once per
  // newly used region so that later copies run at memory speed).
  virtual void Prefault(void* addr, size_t size) = 0;
  virtual std::unique_ptr<Queue> CreateQueue(const QueueOptions& options) = 0;
  virtual std::unique_ptr<Flag> CreateFlag() = 0;
  // Tells the device that host code wrote device memory (re-evaluates parked value waits).
  virtual void NotifyMemoryWritten() = 0;
};

struct DriverOptions {
  uint32_t device_count = 2;
  uint64_t memory_bytes = 16ull << 30;
  uint32_t aicore_count = 0;  // 0 = hardware threads
  std::string soc_name = "Ascend910B1";
  bool synchronous = false;   // execute every task inline at submission (deterministic reference)
};

class Driver {
 public:
  virtual ~Driver() = default;
  virtual const char* name() const = 0;
  virtual uint32_t device_count() const = 0;
  virtual StatusOr<std::unique_ptr<Device>> OpenDevice(uint32_t index) = 0;
};

// Creates the driver called `name` ("sim", "null").
StatusOr<std::unique_ptr<Driver>> CreateDriver(const std::string& name, const DriverOptions& options);
std::vector<std::string> DriverNames();

}  // namespace npurt::hal
