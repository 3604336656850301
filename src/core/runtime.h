// Runtime: the process-wide root. Holds the configuration, the driver, the devices (opened on first
// use, logical ids after ASCEND_RT_VISIBLE_DEVICES), aclInit/aclFinalize state and process-wide
// settings. Intentionally never destroyed (driver threads may outlive static destructors);
// aclFinalize tears devices down explicitly.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "base/status.h"
#include "core/config.h"
#include "core/device.h"
#include "hal/hal.h"

namespace npurt::core {

class Runtime {
 public:
  static Runtime& Get();

  // aclInit: parses the optional JSON file and brings up the driver. A second call returns
  // ACL_ERROR_REPEAT_INITIALIZE.
  Status Init(const char* config_path);
  // aclFinalize: synchronizes and releases every device. ACL_ERROR_REPEAT_FINALIZE if not initialised.
  Status Finalize();
  bool initialized() const { return initialized_.load(std::memory_order_acquire); }
  uint64_t init_count() const { return init_count_.load(std::memory_order_acquire); }
  Status FinalizeReference(uint64_t* remaining);

  // Visible device count (brings the driver up with environment defaults if aclInit was not called).
  StatusOr<uint32_t> DeviceCount();
  // The operator backend of the driver (brings the driver up like DeviceCount);
  // ACL_ERROR_RT_FEATURE_NOT_SUPPORT if the driver has none.
  StatusOr<const hal::OpBackend*> OpBackend();
  // The driver's kernel loader (hal/kernel_module.h); ACL_ERROR_RT_FEATURE_NOT_SUPPORT if it has none.
  StatusOr<const hal::KernelLoader*> KernelLoader();
  // The device with logical id `id`, opened on first use.
  StatusOr<Device*> GetDevice(int32_t id);
  // The device if already opened (no side effects).
  Device* OpenedDevice(int32_t id) const;
  std::vector<Device*> OpenedDevices() const;

  // The opened device whose memory range contains `ptr` (nullptr if host memory).
  Device* DeviceOwning(const void* ptr) const;

  const RuntimeConfig& config() const { return config_; }
  // The SoC of the driver's devices (hal::Driver::soc_name); brings the driver up like DeviceCount, "" if it
  // cannot come up.
  std::string soc_name();

  // Process-wide settings.
  std::atomic<uint64_t> op_wait_timeout_ms{0};     // aclrtSetOpWaitTimeout (0 = forever)
  std::atomic<uint64_t> op_execute_timeout_us{0};  // aclrtSetOpExecuteTimeOut family (0 = default)
  // aclrtSetDeviceSatMode. Devices start in INF/NAN mode (IEEE results), as the Ascend910B family does
  // (the official sample 4_reliability/overflow_detection starts from it).
  std::atomic<int32_t> sat_mode{ACL_RT_OVERFLOW_MODE_INFNAN};
  Status GetSysParam(int32_t opt, int64_t* value) const;
  void SetSysParam(int32_t opt, int64_t value);

 private:
  Runtime() = default;
  Status EnsureDriverLocked();

  mutable std::mutex mu_;
  std::atomic<bool> initialized_{false};
  std::atomic<uint64_t> init_count_{0};
  RuntimeConfig config_;
  std::string config_text_ = "{}";  // the aclInit JSON as given, handed to init hooks
  bool config_loaded_ = false;
  std::unique_ptr<hal::Driver> driver_;
  std::vector<uint32_t> visible_;                  // logical -> physical
  std::vector<std::unique_ptr<Device>> devices_;   // by logical id
  // Device memory ranges for pointer classification, written once per device open.
  struct Range {
    uintptr_t lo;
    uintptr_t hi;
    Device* device;
  };
  std::atomic<uint32_t> range_count_{0};
  Range ranges_[64] = {};
  std::map<int32_t, int64_t> sys_params_;
};

}  // namespace npurt::core
