// Event (core): a marker in a stream, on a SequenceSignal (sequence_signal.h). Each record bumps the
// event's record count and submits a task that raises the signal's device-side flag to that count when it
// executes; a stream wait parks the waiting stream until the flag reaches the count recorded at the time
// of the wait (a wait on a never-recorded event is a no-op, as in CUDA). The flag's time stamp gives
// elapsed times. An inter-process event (ACL_EVENT_IPC, core/sync/ipc_event.h) has a shared flag, whose
// area holds the record count, so records and waits of every process that opened it agree.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "base/handle.h"
#include "base/status.h"
#include "core/sync/sequence_signal.h"
#include "hal/hal.h"

namespace npurt::core {

class Context;
class ModelRI;
class Stream;

class Event final : public HandleObject {
 public:
  static StatusOr<Event*> Create(Context* context, uint32_t flags, bool reusable);
  // An event around an existing flag (a shared flag opened from another process's handle).
  static StatusOr<Event*> CreateWithFlag(Context* context, uint32_t flags, std::unique_ptr<hal::Flag> flag);

  Context* context() const { return context_; }
  uint32_t flags() const { return flags_; }
  uint32_t id() const { return id_; }
  hal::Flag* flag() const { return signal_.flag(); }
  uint64_t recorded() const { return signal_.records(); }
  // True if every record so far has executed (also true if never recorded).
  bool Complete() const { return signal_.Complete(); }
  bool ever_recorded() const { return recorded() != 0; }
  // Made by aclrtCreateEventExWithFlag (CANN's "new mode" events): a never-recorded one reports its
  // recorded status as complete; the older creation calls make events that report NOT_READY until recorded.
  bool reusable() const { return reusable_; }

  Status Record(Stream* stream);
  Status Reset(Stream* stream);
  Status StreamWait(Stream* stream, int64_t timeout_ms);
  Status Synchronize(int64_t timeout_ms);
  // Time the last record executed (ns), valid when Complete() and ever_recorded().
  uint64_t timestamp_ns() const { return signal_.flag()->timestamp_ns(); }

  void Destroy();

  // --- Graphs (src/core/model_ri/model_ri*). A reset raises the reset mark to the flag's value when it executes; a
  // replayed wait on an event recorded outside its graph waits for the flag to pass the mark, i.e. for the
  // next record after the last reset (ACL's set/reset event semantics).
  const uint64_t* reset_mark() const { return &reset_mark_; }
  hal::Task ResetTask();
  // A graph launch counts the records of this event that it will execute.
  void AddRecords(uint64_t n) { signal_.AddRecords(n); }
  // The graph whose recording holds this event's latest record (null: recorded outside any recording).
  std::atomic<ModelRI*> recorded_in{nullptr};

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  Event(Context* context, uint32_t flags, bool reusable, std::unique_ptr<hal::Flag> flag);
  ~Event() override;

  Context* context_;
  uint32_t flags_;
  bool reusable_;
  uint32_t id_;
  SequenceSignal signal_;
  alignas(8) uint64_t reset_mark_ = 0;  // written by reset tasks, read by waits (atomic builtins)
};

// Retains a HandleObject for a task and releases it in the task's cleanup.
void RetainForTask(hal::Task& task, HandleObject* object);

}  // namespace npurt::core
