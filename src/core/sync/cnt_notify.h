// CntNotify (core): a counting notify (aclrtCntNotify*). A 64-bit counter word that record tasks
// update (set, add, or, and) and wait tasks compare (less, equal, greater, greater-or-equal, all bits
// of a mask) — the driver's value-update and value-wait tasks on a word the object owns, so a wait
// parks its stream until some record makes the comparison true, and may clear the counter once it
// passes. Records and waits pair by value, not by count (unlike Notify).
#pragma once

#include <atomic>
#include <cstdint>

#include "base/handle.h"
#include "base/status.h"
#include "hal/hal.h"

namespace npurt::core {

class Device;
class Stream;

class CntNotify final : public HandleObject {
 public:
  static StatusOr<CntNotify*> Create(Device* device, uint64_t flags);
  uint32_t id() const { return id_; }
  Device* device() const { return device_; }
  // mode: aclrtCntNotifyRecordMode; wait mode: aclrtCntNotifyWaitMode; timeout 0 = none.
  Status Record(Stream* stream, int32_t mode, uint32_t value);
  Status Wait(Stream* stream, int32_t mode, uint32_t value, uint32_t timeout_ms, bool clear);
  Status Reset(Stream* stream);
  void Destroy();

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  CntNotify(Device* device, uint64_t flags);
  ~CntNotify() override;
  void SubmitUpdate(Stream* stream, hal::ValueUpdate update, uint64_t value);

  Device* device_;
  uint64_t flags_;
  uint32_t id_;
  alignas(8) uint64_t counter_ = 0;  // written only by tasks (atomic builtins in the driver)
};

}  // namespace npurt::core
