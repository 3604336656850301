// The tasks a simulated queue runs to completion at once (copies, fills, value and flag tasks, operator
// dispatches, labels, injected failures), shared by the asynchronous queue (sim_queue.h) and the
// synchronous one (sim_sync_queue.h). The kinds that may wait (flag and value waits, host functions,
// kernels, batches) are each queue's own: one parks, the other blocks its caller.
#pragma once

#include <cstdint>
#include <string>

#include "hal/hal.h"
#include "hal/utils/label_skip.h"

namespace npurt::drivers::sim {

// Runs `task` if its kind completes at once: true, with *code (0 or an ACL error) and *message. False for
// the kinds that may wait, which the queue runs itself.
bool RunImmediateTask(const hal::Task& task, hal::utils::LabelSkip* labels, int32_t* code, std::string* message);

// A discarded task completes without running, except that a discarded record still raises its flag:
// otherwise every host and stream waiting on that event would wait forever for a record that never runs.
void ReleaseDiscardedSignal(const hal::Task& task);

// A kFlagWait's target: its value, plus the reset mark at `src` when the task has one (read when the
// wait starts).
inline uint64_t WaitTarget(const hal::Task& task) {
  if (task.src == nullptr) return task.value;
  return task.value + __atomic_load_n(static_cast<const uint64_t*>(task.src), __ATOMIC_ACQUIRE);
}

// Reads a conditional batch's word (hal::utils::ReadWordFn): the arena is host memory, so an atomic load,
// ordered after every task the queue ran before.
inline uint64_t ReadConditionWord(const void* addr, uint32_t bytes) {
  if (bytes == 4) return __atomic_load_n(static_cast<const uint32_t*>(addr), __ATOMIC_ACQUIRE);
  return __atomic_load_n(static_cast<const uint64_t*>(addr), __ATOMIC_ACQUIRE);
}

// Whether a task of this kind may write memory (a completed one re-evaluates the parked value waits).
bool WritesMemory(hal::TaskKind kind);

}  // namespace npurt::drivers::sim
