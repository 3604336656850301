// Notify (core): a light signal between streams. Each record raises the notify's sequence flag by one;
// each wait consumes one record (it parks its stream until the flag reaches the number of waits
// issued so far), so a wait issued before its record simply blocks until the record runs.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "base/handle.h"
#include "base/status.h"
#include "hal/hal.h"

namespace npurt::core {

class Device;
class Stream;

class Notify final : public HandleObject {
 public:
  static StatusOr<Notify*> Create(Device* device, uint64_t flags);
  uint32_t id() const { return id_; }
  Device* device() const { return device_; }
  Status Record(Stream* stream);
  Status WaitAndReset(Stream* stream, uint32_t timeout_ms);
  // Discards records not yet consumed by a wait.
  void Reset();
  void Destroy();

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  Notify(Device* device, uint64_t flags);
  ~Notify() override = default;

  Device* device_;
  uint64_t flags_;
  uint32_t id_;
  std::unique_ptr<hal::Flag> flag_;
  std::atomic<uint64_t> records_{0};
  std::atomic<uint64_t> waits_{0};
};

}  // namespace npurt::core
