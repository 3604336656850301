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

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "npurt/kernel_abi.h"

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
  kCompute,     // runs compute_fn(host_arg) on the executing engine; its return value (0 = success) is the
                // task's code. Operators use it: the work runs inline, in stream order, no hand-off.
  kKernel,      // runs `kernel`'s blocks on the device's AI cores; completes when the last block finished
  kBatch,       // runs a TaskList in place, as one task of this queue (graph replay): see TaskList
  kValueUpdate, // *(uint64_t*)dst = op(*dst, value), op = ValueUpdate(aux) (counting notifies)
  kLabelSet,    // a jump target: `value` is the label's id (a pending switch to it ends here)
  kLabelSwitch, // reads the uint32 index at `src`; if < `size`, skips the queue's later tasks until the
                // kLabelSet of ((const uint64_t*)host_arg)[index]; an index >= size fails the task
};

// Task::aux bits of kFlagSignal / kFlagWait. Graph replay needs values that differ per replay while the
// prepared tasks stay untouched; these let the driver compute them when the task executes.
inline constexpr uint32_t kFlagRelative = 1;   // value += the base of the enclosing kBatch (its Task::value)
inline constexpr uint32_t kFlagIncrement = 2;  // kFlagSignal: raise the flag by one (value is ignored)
// kFlagWait with `src` set: the target is value + the 64-bit word at src, read when the wait starts (a
// reset mark that core moves; e.g. "the next record after the last reset").

// A prepared list of tasks that a kBatch task runs in place, in order, one at a time, on the executing
// queue. The driver reads each task when it reaches it, through the sequence lock `version` (odd while
// core rewrites a task), so an update made before a replay reaches a task is seen whole, never half
// written. Tasks of a list never run their `cleanup` (the list's owner does that once) and report no
// individual completion: the kBatch task completes when its last task did, or fails with the first
// failure (the rest of the list is skipped). A kBatch inside a list nests (at most kMaxBatchDepth).
struct Task;
struct TaskList {
  const Task* tasks = nullptr;
  uint32_t count = 0;
  const std::atomic<uint32_t>* version = nullptr;  // null: the list never changes
};
inline constexpr int kMaxBatchDepth = 8;
// Conditional batches: when a kBatch has `select`, the driver runs select(host_arg, round) for round 0,
// 1, ... and each list it returns, until it returns null (if / while / switch of a graph). It runs on the
// executing thread, in stream order, and must not block.
using SelectFn = const TaskList* (*)(void* arg, uint32_t round);

// Comparison used by kValueWait (numbering of aclrtValueWait's flags, then the counting-notify ones).
enum class ValueCompare : uint32_t {
  kGreaterEqual = 0,
  kEqual = 1,
  kAnd = 2,
  kNor = 3,
  kLess = 4,
  kGreater = 5,
  kAllBits = 6,  // (word & operand) == operand
};
// Read-modify-write of kValueUpdate.
enum class ValueUpdate : uint32_t { kSet = 0, kAdd = 1, kOr = 2, kAnd = 3 };

using HostFn = void (*)(void* arg, Queue* queue);
using CleanupFn = void (*)(void* arg);
using ComputeFn = int32_t (*)(void* arg);

// A kernel launch (kKernel): entry(args, block) runs once per block, blocks spread over the AI cores. Owned by
// core (`owner` is its launch record) and alive until the task's cleanup; the driver fills `failure` (a
// human-readable reason) before it completes a failed launch.
// Device-memory checking (NPURT_SIM_MEMCHECK=1): "" if [addr, addr + size) lies in one live allocation, else
// why not, naming the allocation it missed; size 0 describes a faulting address.
using MemoryCheckFn = std::string (*)(const void* addr, uint64_t size);

// Field order: what every launch reads comes first and `failure` (touched only by failed launches) last,
// so that the fields fit two cache lines; the driver fetches both at once when it reaches the task.
struct KernelLaunch {
  npurt_kernel_entry entry = nullptr;  // include/npurt/kernel_abi.h
  const void* args = nullptr;
  size_t args_size = 0;
  uint32_t num_blocks = 0;
  uint32_t block_offset = 0;           // added to every block index
  uint32_t max_cores = 0;              // aclrt*ResLimit: only cores 0 .. max_cores-1 run it (0 = every core)
  uint16_t overflowed = 0;  // set (atomically) by blocks that reported a float overflow; core reads it after
  // The kernel runs on vector cores (AIV): its faults are reported with ACL's VECTOR_CORE codes (507034..)
  // instead of the AI core ones (507014..), as on SoCs with separate cube and vector cores. (Two 16-bit
  // fields in one word keep the launch within the two cache lines the driver fetches.)
  uint16_t on_vector_cores = 0;
  uint64_t timeout_ns = 0;             // 0 = no limit
  const char* name = "";               // the kernel's name, for messages
  void* owner = nullptr;
  MemoryCheckFn check_memory = nullptr;  // set when memory checking is on
  std::string failure;
};

// `kernel` comes right after the kind: a driver that sees a task published (its first line) can fetch
// the launch at once, while the task's other lines are still on their way. The cleanup's argument (a
// kernel's launch record, which changes from launch to launch) shares that first line, which every task
// rewrites anyway (its id): the other lines of a queue slot reused for the same kind of task then stay
// unchanged, and shared by the threads on both sides of the queue.
struct Task {
  TaskKind kind = TaskKind::kNop;
  uint32_t id = 0;       // runtime-wide task id (exception info, profiling)
  uint32_t aux = 0;      // kValueWait: ValueCompare; kFail: error code
  KernelLaunch* kernel = nullptr;  // kKernel
  CleanupFn cleanup = nullptr;
  void* cleanup_arg = nullptr;
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
  ComputeFn compute_fn = nullptr;  // kCompute
  void* host_arg = nullptr;
  const TaskList* batch = nullptr;  // kBatch: the list to run (unless `select` is set)
  SelectFn select = nullptr;        // kBatch: conditional list selection
};

// Reads task `i` of `list` consistently (retries while a writer holds the sequence lock). The words are
// read with atomic loads (plain loads on x86) so that a read racing a write is not a data race.
inline Task ReadTask(const TaskList& list, uint32_t i) {
  if (list.version == nullptr) return list.tasks[i];
  static_assert(sizeof(Task) % sizeof(uint64_t) == 0 && alignof(Task) >= alignof(uint64_t));
  const auto* src = reinterpret_cast<const uint64_t*>(&list.tasks[i]);
  uint64_t words[sizeof(Task) / sizeof(uint64_t)];
  for (;;) {
    const uint32_t before = list.version->load(std::memory_order_acquire);
    if ((before & 1u) == 0) {
      // Acquire loads (plain loads on x86): the version re-check below cannot move before them.
      for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); ++w) words[w] = __atomic_load_n(&src[w], __ATOMIC_ACQUIRE);
      if (list.version->load(std::memory_order_relaxed) == before) break;
    }
  }
  Task t;
  std::memcpy(static_cast<void*>(&t), words, sizeof(Task));
  return t;
}

// The writer's side: core rewrites task `i` (`version` odd meanwhile; one writer at a time).
inline void WriteTask(Task* tasks, std::atomic<uint32_t>* version, uint32_t i, const Task& task) {
  version->fetch_add(1, std::memory_order_acq_rel);
  uint64_t words[sizeof(Task) / sizeof(uint64_t)];
  std::memcpy(words, static_cast<const void*>(&task), sizeof(Task));
  auto* dst = reinterpret_cast<uint64_t*>(&tasks[i]);
  // Release stores (plain stores on x86): none can move before the odd version above.
  for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); ++w) __atomic_store_n(&dst[w], words[w], __ATOMIC_RELEASE);
  version->fetch_add(1, std::memory_order_release);
}

// Details handed to the failure hook.
struct TaskFailure {
  uint32_t task_id;
  int32_t code;
  std::string message;
  const KernelLaunch* kernel = nullptr;  // the failed task's launch (kKernel)
};

using FailureHook = void (*)(void* ctx, Queue* queue, const TaskFailure& failure);

struct QueueOptions {
  int32_t priority = 0;
  bool stop_on_failure = false;
  FailureHook on_failure = nullptr;
  void* hook_ctx = nullptr;
  // Identity reported to the task observer (profiling): the runtime's device and stream ids.
  int32_t trace_device = -1;
  int32_t trace_stream = -1;
};

// Task observer (profiling). When one is installed, the driver reports every task once it finished
// (or was discarded) with the times it started and ended, on the executing thread. Zero cost when none
// is installed: drivers load the pointer once per task. The observer must not block, lock or call back
// into the driver: it only appends to a per-thread buffer.
class TaskObserver {
 public:
  virtual void OnTaskDone(const QueueOptions& queue, const Task& task, uint64_t start_ns, uint64_t end_ns,
                          int32_t code) = 0;

 protected:
  ~TaskObserver() = default;
};
inline std::atomic<TaskObserver*> g_task_observer{nullptr};
inline TaskObserver* ActiveTaskObserver() { return g_task_observer.load(std::memory_order_relaxed); }

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
  // aclrtStreamAbort / aclrtStreamStop: discards every task not yet started (as Discard) and interrupts a
  // running kernel, which fails with `code` and `reason` (a string literal) in its message; a running
  // task of another kind finishes. True if a kernel was interrupted. Returns once the interruption was
  // delivered (or nothing was running), without waiting for the queue to drain.
  virtual bool Abort(int32_t /*code*/, const char* /*reason*/) {
    Discard();
    return false;
  }
  // True while the task at the head is parked on a wait (a flag, a value, a notify): it completes only
  // when something outside the queue signals it. A snapshot, for decisions that must not block on it.
  virtual bool ParkedOnWait() const { return false; }
};

// Opaque bytes that let another process open a shared flag (Device::OpenSharedFlag).
struct FlagShareToken {
  uint8_t bytes[40];
};
// Bytes of core-owned state that a shared flag carries next to its value (Flag::shared_area).
inline constexpr size_t kFlagSharedAreaBytes = 2048;

// A device-side sequence flag: signal tasks raise it to a value (never lower it); wait tasks park
// queues until the flag reaches a value; the host can wait too.
class Flag {
 public:
  virtual ~Flag() = default;
  virtual uint64_t value() const = 0;
  // CLOCK_MONOTONIC ns at which the flag last changed.
  virtual uint64_t timestamp_ns() const = 0;
  virtual bool WaitHost(uint64_t value, uint64_t deadline_ns) = 0;
  // Shared flags (Device::CreateSharedFlag / OpenSharedFlag) only: kFlagSharedAreaBytes of zero-initialised
  // memory that every process that opened the flag sees (core keeps record counters and import
  // allow-lists there; 8-byte aligned, so std::atomic<uint64_t> words work across processes), and the
  // token that opens the flag in another process. nullptr / false for process-local flags.
  virtual uint8_t* shared_area() { return nullptr; }
  virtual bool share_token(FlagShareToken* /*token*/) const { return false; }
};

// Access rights of mapped device memory (Device::MapMemory).
enum class MemoryAccess : uint8_t { kNone = 0, kRead = 1, kReadWrite = 3 };
// Physical memory of this device (MapMemory's `source`).
inline constexpr int32_t kLocalMemory = 0;
// Opaque bytes that let another process open a device's physical memory (Device::ExportMemory).
struct MemoryShareToken {
  uint8_t bytes[64];
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
  // A flag whose state lives in memory shared with other processes of the machine: a signal from any
  // process that opened it wakes this process's parked queues and host waiters (no polling). Optional:
  // the defaults (hal_memory.cc) report ACL_ERROR_RT_FEATURE_NOT_SUPPORT. OpenSharedFlag fails with a
  // message if the creating process is gone.
  virtual StatusOr<std::unique_ptr<Flag>> CreateSharedFlag();
  virtual StatusOr<std::unique_ptr<Flag>> OpenSharedFlag(const FlagShareToken& token);
  // Tells the device that host code wrote device memory (re-evaluates parked value waits).
  virtual void NotifyMemoryWritten() = 0;

  // --- Virtual memory and sharing (VMM, expandable segments, IPC). Optional: the defaults (hal_memory.cc)
  // report ACL_ERROR_RT_FEATURE_NOT_SUPPORT and an address range of memory_size() bytes.
  // The device's address range is [memory_base(), memory_base() + address_size()). Its first memory_size()
  // bytes show the physical memory linearly (physical offset x at memory_base() + x); from memory_base() +
  // memory_size() rounded up to kPhysicalPage to the end lies a window of reserved, inaccessible addresses
  // where core maps physical pages on demand. Core owns every policy
  // (which page goes where); calls come from any thread, serialised by core per range. Addresses, sizes
  // and offsets are multiples of kPhysicalPage.
  static constexpr size_t kPhysicalPage = 2u << 20;
  virtual uint64_t address_size() const { return memory_size(); }
  // Maps [offset, offset + size) of physical memory `source` (kLocalMemory, or an ImportMemory id) at
  // `addr` in the window, resident, with `access`. The range must be unmapped.
  virtual Status MapMemory(void* addr, size_t size, int32_t source, uint64_t offset, MemoryAccess access);
  // Returns a mapped range to reserved and inaccessible.
  virtual Status UnmapMemory(void* addr, size_t size);
  virtual Status ProtectMemory(void* addr, size_t size, MemoryAccess access);
  // What another process needs to open this device's physical memory (passed to its ImportMemory).
  virtual StatusOr<MemoryShareToken> ExportMemory();
  // Opens another process's exported physical memory; the id is a `source` for MapMemory. Fails with
  // a message if the exporting process is gone or does not let us in.
  virtual StatusOr<int32_t> ImportMemory(const MemoryShareToken& token);
  virtual void ReleaseImport(int32_t source);
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
