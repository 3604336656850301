// Notify (core): a light signal between streams, on a SequenceSignal (sequence_signal.h). Each record
// raises the signal's flag by one; each wait consumes one record (it parks its stream until the flag
// reaches the number of waits issued so far), so a wait issued before its record simply blocks until the
// record runs. A notify shared with other processes (core/sync/ipc_event.h) moves to a shared flag, whose
// area holds both counters, so records and waits of every process that opened it pair up.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "base/handle.h"
#include "base/status.h"
#include "core/sync/sequence_signal.h"
#include "hal/hal.h"

namespace npurt::core {

class Device;
class Stream;

class Notify final : public HandleObject {
 public:
  static StatusOr<Notify*> Create(Device* device, uint64_t flags);
  // A notify around a shared flag opened from another process's export.
  static StatusOr<Notify*> CreateShared(Device* device, std::unique_ptr<hal::Flag> flag);
  uint32_t id() const { return id_; }
  Device* device() const { return device_; }
  Status Record(Stream* stream);
  Status WaitAndReset(Stream* stream, uint32_t timeout_ms);
  // Discards records not yet consumed by a wait.
  void Reset();
  void Destroy();

  // Sharing: the shared flag (nullptr until ShareFlag). ShareFlag moves an idle notify (every record
  // consumed, no wait pending) to a shared flag; the caller guarantees no concurrent record or wait.
  hal::Flag* shared_flag() const { return signal_.shared_flag(); }
  Status ShareFlag();

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  Notify(Device* device, uint64_t flags, std::unique_ptr<hal::Flag> flag);
  ~Notify() override;

  Device* device_;
  uint64_t flags_;
  uint32_t id_;
  SequenceSignal signal_;
};

}  // namespace npurt::core
