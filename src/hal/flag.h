// Sequence flags: what events, notifies and cross-queue waits are built on. Part of the driver interface
// (hal/hal.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/status.h"

namespace npurt::hal {

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

}  // namespace npurt::hal
