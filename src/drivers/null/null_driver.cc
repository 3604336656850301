// The null driver: the template for a new driver. Copy src/drivers/null/ to src/drivers/<name>/, rename
// (Null -> <Name>, "null" -> "<name>"), add NPURT_DRIVER_<NAME> to the driver loop of src/CMakeLists.txt and
// tests/hal_cts/CMakeLists.txt, then fill in each TODO; src/hal/README.md is the porting guide.
//
// As it stands the driver reports no devices, so the runtime behaves as on a machine without accelerators:
// device calls fail with ACL_ERROR_RT_NO_DEVICE or ACL_ERROR_RT_INVALID_DEVICEID, and the conformance suites
// (tests/conformance, tests/hal_cts) run their driver-level tests and skip the device ones. The device, queue
// and flag below are compiled, so the template keeps up with the interface, but never opened.
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "hal/driver_registry.h"
#include "hal/hal.h"

namespace npurt::drivers {
namespace {

constexpr int32_t kNotSupported = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;

Status NotSupported(const char* what) {
  return Err(kNotSupported, "the null driver has no device to run synchronous {} on", what);
}

// A sequence flag (events, notifies and cross-queue waits are built on it).
class NullFlag final : public hal::Flag {
 public:
  // TODO: the flag's current value: a device semaphore or a word in host-visible device memory.
  uint64_t value() const override { return 0; }
  // TODO: CLOCK_MONOTONIC ns of the last change (event timing reads it).
  uint64_t timestamp_ns() const override { return 0; }
  // TODO: block the calling host thread until value() >= `value` or the deadline passes, without polling
  // (an interrupt-driven wait, a futex). False at the deadline.
  bool WaitHost(uint64_t /*value*/, uint64_t /*deadline_ns*/) override { return false; }
};

// An in-order hardware queue (a CUDA stream, an NPU task queue).
class NullQueue final : public hal::Queue {
 public:
  // TODO: translate the task (hal/task.h) into the device's commands and enqueue it; never block except
  // for back-pressure. Every task completes, and its cleanup runs exactly once, on a driver thread. Here:
  // a task that cannot run fails at once, as a device reporting the feature missing would.
  uint64_t Submit(const hal::Task& task) override {
    const uint64_t seq = ++submitted_;
    if (error_ == 0) {
      error_ = kNotSupported;
      message_ = "the null driver cannot run tasks";
    }
    if (task.cleanup != nullptr) task.cleanup(task.cleanup_arg);
    completed_ = seq;
    return seq;
  }
  uint64_t submitted() const override { return submitted_; }
  uint64_t completed() const override { return completed_; }
  // TODO: wait for task `seq` on the host (no polling), false at the deadline.
  bool WaitHost(uint64_t seq, uint64_t /*deadline_ns*/) override { return seq <= completed_; }
  // TODO: the queue's first error, sticky until ClearError; the failure hook (QueueOptions) is called with it.
  int32_t error() const override { return error_; }
  std::string error_message() const override { return message_; }
  void ClearError() override {
    error_ = 0;
    message_.clear();
  }
  // TODO: with stop-on-failure, tasks behind a failed one complete without running.
  void SetStopOnFailure(bool /*stop*/) override {}
  // TODO: complete every task not yet started without running it (a parked wait is released).
  void Discard() override {}
  // TODO: complete the running kHostFunc task with `code`.
  void CompleteHostTask(int32_t /*code*/) override {}

 private:
  uint64_t submitted_ = 0;
  uint64_t completed_ = 0;
  int32_t error_ = 0;
  std::string message_;
};

// One device: its memory range, queues and flags. The optional primitives (shared flags, VMM, IPC) keep
// their defaults from hal/device.h, which report ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
class NullDevice final : public hal::Device {
 public:
  // TODO: what the hardware reports (SoC name, AI cores, memory) and what it can do (info_.caps,
  // hal/capabilities.h: host-visible memory, virtual memory, sharing, peer access, the unified buffer and
  // launch limits). Everything left at its default is "cannot": core refuses what needs it, with a message.
  const hal::DeviceInfo& info() const override { return info_; }
  // TODO: the device's address range, which core's allocator carves. On a device without host-visible
  // memory this is still the device's addresses; the host never dereferences them.
  uint8_t* memory_base() const override { return nullptr; }
  uint64_t memory_size() const override { return 0; }
  // TODO: make the range resident (nothing to do where memory is always resident).
  void Prefault(void* /*addr*/, size_t /*size*/) override {}
  std::unique_ptr<hal::Queue> CreateQueue(const hal::QueueOptions& /*options*/) override {
    return std::make_unique<NullQueue>();
  }
  std::unique_ptr<hal::Flag> CreateFlag() override { return std::make_unique<NullFlag>(); }
  // TODO: host code wrote device memory: re-evaluate parked value waits.
  void NotifyMemoryWritten() override {}
  // TODO: synchronous copies and fills (aclrtMemcpy, aclrtMemset without a stream): complete on return, then
  // re-evaluate parked value waits. One side of a copy is this device's memory.
  Status CopyNow(void* /*dst*/, const void* /*src*/, size_t /*size*/) override { return NotSupported("copies"); }
  Status Copy2dNow(void* /*dst*/, size_t /*dpitch*/, const void* /*src*/, size_t /*spitch*/, size_t /*width*/,
                   size_t /*height*/) override {
    return NotSupported("2D copies");
  }
  Status FillNow(void* /*dst*/, size_t /*count*/, uint32_t /*value*/, uint32_t /*element_bytes*/) override {
    return NotSupported("fills");
  }

 private:
  hal::DeviceInfo info_{"null", 0, 0, {}};
};

class NullDriver final : public hal::Driver {
 public:
  const char* name() const override { return "null"; }
  // TODO: enumerate the hardware (a driver whose hardware is absent reports 0 and is skipped by the CTS).
  uint32_t device_count() const override { return 0; }
  StatusOr<std::unique_ptr<hal::Device>> OpenDevice(uint32_t index) override {
    // TODO: open device `index` (< device_count()) and return it, e.g. std::make_unique<NullDevice>().
    return Err(ACL_ERROR_RT_INVALID_DEVICEID, "the null driver has no device {}", index);
  }
};

// `config` is the driver's section (hal/driver_config.h): the aclInit file's "npurt.null" object and the
// environment variables base/env.h assigns to "null".
// TODO: read your settings into an options struct (as drivers/sim/sim_options.cc does), and register a check
// of the section beside the factory so that aclInit refuses a bad setting even once the driver is up.
StatusOr<std::unique_ptr<hal::Driver>> CreateNullDriver(const hal::DriverConfig& /*config*/) {
  return std::unique_ptr<hal::Driver>(new NullDriver());
}

}  // namespace

// Called by the build's driver list (src/drivers/builtin_drivers.cc.in) when NPURT_DRIVER_NULL is on.
namespace null {
void Register() { hal::RegisterDriver("null", &CreateNullDriver); }
}  // namespace null

}  // namespace npurt::drivers
