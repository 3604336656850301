// Device (core): one visible device as the runtime sees it — the driver device, its allocator,
// its default context (ref-counted by aclrtSetDevice/aclrtResetDevice), the registry of its streams
// (device synchronize, stream limits, stream-ordered frees) and peer-access state.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "base/handle.h"
#include "base/status.h"
#include "core/alloc/device_allocator.h"
#include "hal/hal.h"

namespace npurt::core {

class Context;
class Stream;

// The description of a device that the layers above core read (what the driver reports): core's vocabulary,
// so that they never name the driver interface.
using DeviceInfo = hal::DeviceInfo;
using DeviceCapabilities = hal::DeviceCapabilities;

// What core needs of a device, checked when the runtime opens it: its allocator is built on 2 MiB pages, so
// a device with other pages is refused with ACL_ERROR_RT_FEATURE_NOT_SUPPORT and the reason. Host-visible
// memory is not needed: core reads and writes device memory through the device (hal::Device::CopyNow,
// core::ReadMemory), and the one feature that needs a host mapping, managed memory, refuses on a device
// without one.
Status CheckDeviceCapabilities(const DeviceCapabilities& caps, std::string_view driver, int32_t id);

struct DeviceLimits {
  uint32_t streams = 1984;
  uint32_t events = 65536;
  uint32_t notifies = 8192;
};

class Device {
 public:
  Device(int32_t id, uint32_t physical_id, std::unique_ptr<hal::Device> hal, const DeviceLimits& limits);
  ~Device();

  int32_t id() const { return id_; }
  uint32_t physical_id() const { return physical_id_; }
  hal::Device* hal() const { return hal_.get(); }
  const DeviceInfo& info() const { return info_; }
  DeviceAllocator& allocator() { return allocator_; }
  const DeviceLimits& limits() const { return limits_; }

  // aclrtSetDevice: creates the default context on first use; every call adds one reference.
  StatusOr<Context*> RetainDefaultContext();
  // aclrtResetDevice(Force): drops one (or every) reference; at zero the default context, its
  // streams and its memory are released. Error if the device was never set.
  Status ReleaseDefaultContext(bool force);
  Context* default_context() const;
  uint32_t set_count() const;

  // Stream registry (every stream of every context on this device).
  Status RegisterStream(Stream* stream);
  void UnregisterStream(Stream* stream);
  std::vector<Ref<Stream>> Streams() const;
  uint32_t stream_count() const { return stream_count_.load(std::memory_order_acquire); }
  // Changes whenever a stream is registered or unregistered (lets the allocator cache the stream list).
  uint64_t stream_generation() const { return stream_gen_.load(std::memory_order_acquire); }
  // Fences for a stream-ordered free: every stream that still has queued work.
  std::vector<StreamFence> BusyStreamFences() const;
  // Waits for every stream of the device; returns the first stream error.
  Status Synchronize(int64_t timeout_ms);

  // Event / notify resource accounting.
  bool AcquireEventSlot();
  void ReleaseEventSlot();
  uint32_t events_in_use() const { return event_count_.load(std::memory_order_acquire); }

  // Core-count limits (aclrtSetDeviceResLimit): 0 = not limited (all AI cores).
  std::atomic<uint32_t> res_limit[2] = {0, 0};
  // aclrtDeviceSetLimit values, indexed by aclrtDeviceLimit.
  std::atomic<uint64_t> device_limit[5] = {0, 0, 0, 0, 0};

  // Floating-point overflow status (core/kernel/overflow.h): bits set by tasks that produced Inf/NaN or
  // saturated, read and cleared by aclrtGetOverflowStatus / aclrtResetOverflowStatus, which do so with a
  // copy and a value write of the device: the word must be memory the device's copy engine reaches (the
  // sim's reaches all host memory; a discrete device's driver would place it in mapped host memory).
  alignas(8) std::atomic<uint64_t> overflow_status{0};

  bool peer_enabled(int32_t peer) const;
  void set_peer_enabled(int32_t peer, bool enabled);

 private:
  const int32_t id_;
  const uint32_t physical_id_;
  std::unique_ptr<hal::Device> hal_;
  const DeviceInfo& info_;  // the driver's (fixed for the device's lifetime)
  DeviceLimits limits_;
  DeviceAllocator allocator_;

  // ctx_mu_ guards the default context and is taken before mu_ (creating a context registers streams).
  mutable std::mutex ctx_mu_;
  mutable std::mutex mu_;
  Context* default_context_ = nullptr;
  uint32_t set_count_ = 0;
  std::vector<Stream*> streams_;
  std::atomic<uint32_t> stream_count_{0};
  std::atomic<uint64_t> stream_gen_{0};
  std::atomic<uint32_t> event_count_{0};
  std::atomic<uint64_t> peers_{0};
};

}  // namespace npurt::core
