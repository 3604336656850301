#include "drivers/sim/sim_device.h"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "acl/error_codes/rt_error_codes.h"
#include "drivers/host/host_builtins.h"
#include "drivers/sim/sim_flag.h"
#include "drivers/sim/sim_shared_flag.h"
#include "drivers/sim/sim_queue.h"
#include "drivers/sim/sim_sync_queue.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace npurt::drivers::sim {
namespace {

// Every live device, for OnMemoryWritten. Lock-free for the writers (every copy and fill task); devices
// register when created and leave when destroyed, which the driver does only once their queues are idle.
constexpr int kMaxDevices = 256;
std::atomic<SimDevice*> g_devices[kMaxDevices];
std::atomic<int> g_device_slots{0};

void RegisterDevice(SimDevice* dev) {
  for (int i = 0; i < kMaxDevices; ++i) {
    SimDevice* none = nullptr;
    if (g_devices[i].compare_exchange_strong(none, dev, std::memory_order_acq_rel)) {
      int used = g_device_slots.load(std::memory_order_relaxed);
      while (used < i + 1 && !g_device_slots.compare_exchange_weak(used, i + 1, std::memory_order_acq_rel)) {
      }
      return;
    }
  }
}

void UnregisterDevice(SimDevice* dev) {
  for (int i = 0; i < kMaxDevices; ++i) {
    SimDevice* expected = dev;
    if (g_devices[i].compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel)) return;
  }
}

}  // namespace

const hal::Executable* SimDevice::builtin(hal::Builtin which) const { return host::Builtin(which); }

void SimDevice::OnMemoryWritten() {
  const int used = g_device_slots.load(std::memory_order_acquire);
  for (int i = 0; i < used; ++i) {
    if (SimDevice* dev = g_devices[i].load(std::memory_order_acquire)) dev->WakeValueWaiters();
  }
}

StatusOr<std::unique_ptr<SimDevice>> SimDevice::Create(const SimDeviceOptions& options) {
  std::unique_ptr<SimDevice> dev(new SimDevice(options));
  const uint64_t size = options.info.memory_bytes;
  // The arena is reserved up front; pages are committed when first used (Prefault) and stay.
  dev->memfd_ = memfd_create("npurt-sim-device-memory", MFD_CLOEXEC);
  if (dev->memfd_ < 0) {
    return Err(ACL_ERROR_RT_DEV_SETUP_ERROR, "memfd_create for device memory failed: {}", std::strerror(errno));
  }
  if (ftruncate(dev->memfd_, static_cast<off_t>(size)) != 0) {
    return Err(ACL_ERROR_RT_DEV_SETUP_ERROR, "reserving {} bytes of device memory failed: {}", size,
               std::strerror(errno));
  }
  // One reservation holds the linear arena and, after it, the VMM window (sim_memory.cc); it starts on a
  // 1 GiB boundary so that 1 GiB-aligned physical runs are 1 GiB-aligned addresses too.
  auto placed = ReserveAddressRange(size);
  if (!placed.ok()) return placed.status();
  void* p = mmap(placed.value(), size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED, dev->memfd_, 0);
  if (p == MAP_FAILED) {
    return Err(ACL_ERROR_RT_DEV_SETUP_ERROR, "mapping {} bytes of device memory failed: {}", size,
               std::strerror(errno));
  }
  dev->base_ = static_cast<uint8_t*>(p);
  dev->address_size_ = AddressRangeSize(size);
  if (!options.synchronous) dev->scheduler_ = std::make_unique<Scheduler>(options.executors);
  dev->aicore_ = std::make_unique<AiCorePool>(options.info.aicore_count, &dev->timer_);
  RegisterDevice(dev.get());
  return dev;
}

SimDevice::~SimDevice() {
  UnregisterDevice(this);
  scheduler_.reset();
  if (base_ != nullptr) munmap(base_, address_size_);
  for (const auto& [id, fd] : imports_) close(fd);
  if (memfd_ >= 0) close(memfd_);
}

void SimDevice::Prefault(void* addr, size_t size) {
  // One madvise faults the whole range in ~7x faster than touching it page by page; if the kernel
  // lacks it the pages are simply faulted on first use.
  (void)madvise(addr, size, MADV_POPULATE_WRITE);
}

std::unique_ptr<hal::Queue> SimDevice::CreateQueue(const hal::QueueOptions& options) {
  // The mode is the device's: executor threads run its queues, or each submitting thread runs its tasks.
  if (options_.synchronous) return std::make_unique<SimSyncQueue>(this, options);
  return std::make_unique<SimQueue>(this, options);
}

std::unique_ptr<hal::Flag> SimDevice::CreateFlag() { return std::make_unique<SimFlag>(); }

StatusOr<std::unique_ptr<hal::Flag>> SimDevice::CreateSharedFlag() { return SimSharedFlag::Create(); }

StatusOr<std::unique_ptr<hal::Flag>> SimDevice::OpenSharedFlag(const hal::FlagShareToken& token) {
  return SimSharedFlag::Open(token);
}

}  // namespace npurt::drivers::sim
