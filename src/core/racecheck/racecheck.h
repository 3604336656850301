// The device-memory race detector (NPURT_RACECHECK=1, docs/racecheck.md): the hooks that the rest of
// the runtime calls. Each hook is called only when the detector is on (`On()`, one relaxed load), so
// that the submission path pays one predicted branch when it is off.
//
// What it models: every task submitted to a stream, and every synchronous host access, is an access
// to ranges of device allocations (copies and fills by their ranges, operators by their tensors,
// kernels by the allocations their pointer parameters point into). Happens-before comes from the
// program's API calls in the order they were made (not from the simulator's timing): stream order,
// event records and waits, notifies, value writes and waits, host synchronisation and callbacks, as
// vector clocks with one component per stream and one for the host. Two accesses to overlapping bytes
// of one allocation, at least one a write, that no chain of those edges orders, are a race; each is
// reported once, naming both sides (racecheck_report.h).
//
// Threading: every hook may be called from any thread; the detector serialises them under one lock.
// Hooks never call back into the runtime's submission paths, so they cannot deadlock with them.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace npurt::hal {
struct Task;
class Flag;
}  // namespace npurt::hal

namespace npurt::core {
class Device;
class Stream;
}  // namespace npurt::core

namespace npurt::core::racecheck {

inline std::atomic<bool> g_enabled{false};
// True while the detector is on. NPURT_RACECHECK=1 turns it on when the library loads.
inline bool On() { return g_enabled.load(std::memory_order_relaxed); }

// Turns the detector on or off; either way every access, clock and report is forgotten.
void SetEnabled(bool on);

// Reports so far (each one formatted as printed on stderr), and how many accesses were checked.
std::vector<std::string> Reports();
uint64_t AccessesChecked();
void ClearReports();

// --- Hooks -------------------------------------------------------------------------------------------

// Stream::Submit: `task` was given its id and is about to reach `stream` (or its graph recording, which
// the detector skips: the recorded tasks run at replay).
void OnSubmit(Stream* stream, const hal::Task& task);

// A range of device memory an operator run reads or writes.
struct Range {
  const void* ptr = nullptr;
  size_t size = 0;
};
// The next kDispatch task this thread submits is the operator or built-in `name` (static storage or
// copied now) reading `reads` and writing `writes`. Host ranges (constant inputs) are ignored.
void DeclareDispatch(const char* name, std::vector<Range> reads, std::vector<Range> writes);

// A synchronous host call `api` (aclrtMemcpy, aclrtMemset, ...) that reads [src, +src_size) and writes
// [dst, +dst_size) now (null pointers and host memory are ignored). By CANN's contract such a call
// implies no synchronisation with any stream.
void OnHostAccess(const char* api, const void* dst, size_t dst_size, const void* src, size_t src_size);

// Host synchronisation that completed: everything submitted to `stream` (every stream of `device`)
// so far happens before the host's later actions.
void OnStreamSynchronized(const Stream* stream);
void OnDeviceSynchronized(const Device* device);
// The host saw `flag` reach `value` (aclrtSynchronizeEvent, aclrtQueryEvent* answering complete).
void OnFlagObserved(const hal::Flag* flag, uint64_t value);

// The allocation starting at `base` was freed: its accesses (and value words in it) are forgotten.
void OnFree(const void* base);
// A flag or a counting notify's word is destroyed: its records are forgotten, so that a new object at the
// same address does not inherit them.
void OnSyncObjectDestroyed(const void* flag_or_word);

// Marks the body of a callback (aclrtLaunchCallback, aclrtLaunchHostFunc) on the thread that runs it:
// `key` is the callback task's host_arg. Host accesses inside the body are ordered as the callback
// task is in its stream: after the stream's earlier tasks, before its later ones.
class CallbackScope {
 public:
  explicit CallbackScope(const void* key) : active_(On() && Enter(key)) {}
  ~CallbackScope() {
    if (active_) Leave();
  }
  CallbackScope(const CallbackScope&) = delete;
  CallbackScope& operator=(const CallbackScope&) = delete;

 private:
  static bool Enter(const void* key);
  static void Leave();
  bool active_;
};

}  // namespace npurt::core::racecheck
