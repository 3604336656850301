// Tasks: what a queue executes. Fixed-size descriptors that core fills and a driver reads; prepared lists
// (TaskList) that a kBatch task runs in place; kernel launches. Part of the driver interface (hal/hal.h).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "hal/executable.h"
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
  kDispatch,    // runs dispatch->executable (an operator or a built-in the driver built, hal/executable.h)
                // with the dispatch's bindings, in stream order; its return value (0 = success) is the code
  kKernel,      // runs `kernel`'s blocks on the device's AI cores; completes when the last block finished
  kBatch,       // runs a TaskList in place, as one task of this queue (graph replay): see TaskList
  kValueUpdate, // *(uint64_t*)dst = op(*dst, value), op = ValueUpdate(aux) (counting notifies)
  kLabelSet,    // a jump target: `value` is the label's id (a pending switch to it ends here)
  kLabelSwitch, // reads the uint32 index at `src`; if < `size`, skips the queue's later tasks until the
                // kLabelSet of ((const uint64_t*)host_arg)[index]; an index >= size fails the task
  kFlagRead,    // *(uint64_t*)dst = the flag's value when the task runs (an event's reset mark)
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

// Conditional batches: a kBatch with `cond` runs, round after round (0, 1, ...), the branch its condition
// selects, until it selects none: a graph's if / while / switch (aclmdlRIAddCondTask) and a model's
// aclrtSwitchStream. The condition is a word (or two) of device memory, read by the driver on the device's
// side when the round starts, in stream order, so it sees every write ordered before it; the host never
// reads it. hal/utils/conditional.h says which branch a round takes.
enum class CondKind : uint32_t {
  kIf,       // round 0: branch 0 if the 64-bit word is non-zero, else branch 1 (if there is one)
  kWhile,    // every round: branch 0 while the 64-bit word is non-zero
  kSwitch,   // round 0: branch `word` (the 64-bit word) if there is one
  kCompare,  // round 0: branch 0 if (word `compare` right) holds, else branch 1; signed, `width` bytes
};
enum class CondCompare : uint32_t { kEqual, kNotEqual, kGreater, kGreaterEqual, kLess, kLessEqual };
// A branch's list, published by its owner (release) once complete; null runs nothing (a branch never
// captured, or not yet).
using CondBranch = std::atomic<const TaskList*>;
struct Conditional {
  CondKind kind = CondKind::kIf;
  CondCompare compare = CondCompare::kEqual;  // kCompare
  uint32_t width = 8;                         // kCompare: 4 or 8 bytes
  const void* word = nullptr;                 // device memory
  const void* right = nullptr;                // kCompare: device memory
  const CondBranch* const* branches = nullptr;  // branch_count entries; a null entry is no branch
  uint32_t branch_count = 0;
};

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

// A kernel launch (kKernel): the kernel whose code handle is `code` (hal::KernelInfo::code, from the
// driver's kernel module: hal/kernel_module.h) runs once per block on the argument block `args`, blocks
// spread over the AI cores. Owned by core (`owner` is its launch record) and alive until the task's
// cleanup; the driver fills `failure` (a human-readable reason) before it completes a failed launch.
// Device-memory checking (NPURT_SIM_MEMCHECK=1): MemoryCheckFn (hal/executable.h); size 0 describes a
// faulting address.

// Field order: what every launch reads comes first and `failure` (touched only by failed launches) last,
// so that the fields fit two cache lines; the driver fetches both at once when it reaches the task.
struct KernelLaunch {
  const void* code = nullptr;          // the driver's own: the sim's is an npurt_kernel_entry
  const void* args = nullptr;
  size_t args_size = 0;
  uint32_t num_blocks = 0;
  uint32_t block_offset = 0;           // added to every block index
  uint32_t max_cores = 0;              // aclrt*ResLimit: only cores 0 .. max_cores-1 run it (0 = every core)
  uint8_t overflowed = 0;  // set (atomically) by blocks that reported a float overflow; core reads it after
  // The kernel runs on vector cores (AIV): its faults are reported with ACL's VECTOR_CORE codes (507034..)
  // instead of the AI core ones (507014..), as on SoCs with separate cube and vector cores. (Small
  // fields in one word keep the launch within the two cache lines the driver fetches.)
  uint8_t on_vector_cores = 0;
  // The kernel synchronises across blocks (NPURT_KERNEL_FLAG_COOPERATIVE: SyncAll, cross-core flags):
  // every block must run at once, whatever the number of AI cores.
  uint8_t cooperative = 0;
  // Mixed kernels: each block runs MixVectors() vector participants (sub-blocks) and, when MixCube(), a
  // cube one; 0 for a plain kernel (the block is its one participant). The bits of
  // npurt_kernel_desc.flags >> NPURT_KERNEL_FLAG_AIV_SHIFT: 0-3 the vector sub-blocks, 4 the cube part.
  uint8_t mix = 0;
  uint32_t MixVectors() const { return mix & 0xfu; }
  bool MixCube() const { return (mix & 0x10u) != 0; }
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
  Dispatch* dispatch = nullptr;     // kDispatch
  void* host_arg = nullptr;
  const TaskList* batch = nullptr;  // kBatch: the list to run (unless `cond` is set)
  const Conditional* cond = nullptr;  // kBatch: the condition that selects its lists
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

}  // namespace npurt::hal
