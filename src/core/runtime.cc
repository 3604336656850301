#include "core/runtime.h"

#include <fstream>
#include <sstream>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/context.h"
#include "core/dump/dump_config.h"
#include "core/hooks.h"
#include "core/prof_tasks.h"
#include "dfx/log.h"
#include "hal/driver_registry.h"

namespace npurt::core {

Runtime& Runtime::Get() {
  static Runtime* rt = new Runtime();
  return *rt;
}

Status Runtime::Init(const char* config_path) {
  std::lock_guard<std::mutex> lock(mu_);
  if (initialized_.load(std::memory_order_acquire)) {
    init_count_.fetch_add(1, std::memory_order_acq_rel);
    return Err(ACL_ERROR_REPEAT_INITIALIZE, "aclInit was already called (the runtime stays initialised)");
  }
  // The file is read and checked on every aclInit, also after aclFinalize. Its driver settings (device
  // count, memory, ...) shape the driver, which lives until the process ends: once the driver is up they
  // no longer change, and the rest (the hooks' sections: dump, profiling) applies as usual.
  auto env = ConfigFromEnvironment();
  if (!env.ok()) return env.status();
  RuntimeConfig config = env.value();
  std::string text_seen;
  if (config_path != nullptr && config_path[0] != '\0') {
    std::ifstream in(config_path);
    if (!in) return Err(ACL_ERROR_INVALID_FILE, "cannot open the aclInit config file '{}'", config_path);
    std::stringstream text;
    text << in.rdbuf();
    text_seen = text.str();
    // CANN accepts an empty file as "{}".
    if (text_seen.find_first_not_of(" \t\r\n") != std::string::npos) {
      NPURT_RETURN_IF_ERROR(ApplyJsonConfig(text_seen, &config));
    }
  }
  NPURT_RETURN_IF_ERROR(CheckDriverSections(config));
  config_text_ = text_seen;
  if (driver_ == nullptr) {
    config_ = config;
    config_loaded_ = true;
  }
  NPURT_RETURN_IF_ERROR(EnsureDriverLocked());
  NPURT_RETURN_IF_ERROR(dump::ApplyInitConfig(config_text_));
  NPURT_RETURN_IF_ERROR(RunInitHooks(config_text_));
  initialized_.store(true, std::memory_order_release);
  init_count_.store(1, std::memory_order_release);
  return Status::Ok();
}

Status Runtime::EnsureDriverLocked() {
  if (driver_ != nullptr) return Status::Ok();
  if (!config_loaded_) {
    auto env = ConfigFromEnvironment();
    if (!env.ok()) return env.status();
    NPURT_RETURN_IF_ERROR(CheckDriverSections(env.value()));
    config_ = env.value();
    config_loaded_ = true;
  }
  hal::RegisterBuiltinDrivers();
  auto drv = hal::CreateDriver(config_.driver, DriverSection(config_, config_.driver));
  if (!drv.ok()) return drv.status();
  driver_ = std::move(drv.value());
  const uint32_t physical = driver_->device_count();
  visible_.clear();
  if (config_.visible_devices_set) {
    visible_ = ParseVisibleDevices(config_.visible_devices, physical);
  } else {
    for (uint32_t i = 0; i < physical; ++i) visible_.push_back(i);
  }
  devices_.clear();
  devices_.resize(visible_.size());
  NPURT_LOG_INFO("RUNTIME", "driver '{}' up: {} visible device(s)", config_.driver, visible_.size());
  return Status::Ok();
}

Status Runtime::Finalize() {
  std::vector<std::unique_ptr<Device>> doomed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!initialized_.load(std::memory_order_acquire)) {
      return Err(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize called without a matching aclInit");
    }
    initialized_.store(false, std::memory_order_release);
    init_count_.store(0, std::memory_order_release);
  }
  // Devices stay open (memory kept warm) so that a later aclInit in the same process reuses them;
  // every device context is released, as aclrtResetDeviceForce would.
  for (Device* d : OpenedDevices()) {
    (void)d->Synchronize(-1);
    if (d->set_count() > 0) (void)d->ReleaseDefaultContext(/*force=*/true);
  }
  SetCurrentContext(nullptr);
  dump::Reset();
  return RunFinalizeHooks();
}

Status Runtime::FinalizeReference(uint64_t* remaining) {
  uint64_t cur = init_count_.load(std::memory_order_acquire);
  if (!initialized() || cur == 0) {
    return Err(ACL_ERROR_REPEAT_FINALIZE, "aclFinalizeReference called without a matching aclInit");
  }
  if (cur > 1) {
    init_count_.fetch_sub(1, std::memory_order_acq_rel);
    *remaining = cur - 1;
    return Status::Ok();
  }
  *remaining = 0;
  return Finalize();
}

StatusOr<const hal::OpBackend*> Runtime::OpBackend() {
  std::lock_guard<std::mutex> lock(mu_);
  NPURT_RETURN_IF_ERROR(EnsureDriverLocked());
  const hal::OpBackend* backend = driver_->op_backend();
  if (backend == nullptr) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "the '{}' driver has no operator backend: operators cannot run on it",
               driver_->name());
  }
  return backend;
}

StatusOr<const hal::KernelLoader*> Runtime::KernelLoader() {
  std::lock_guard<std::mutex> lock(mu_);
  NPURT_RETURN_IF_ERROR(EnsureDriverLocked());
  const hal::KernelLoader* loader = driver_->kernel_loader();
  if (loader == nullptr) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "the '{}' driver cannot load kernel binaries: kernels cannot run on it",
               driver_->name());
  }
  return loader;
}

std::string Runtime::soc_name() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!EnsureDriverLocked().ok()) return "";
  return driver_->soc_name();
}

StatusOr<uint32_t> Runtime::DeviceCount() {
  std::lock_guard<std::mutex> lock(mu_);
  NPURT_RETURN_IF_ERROR(EnsureDriverLocked());
  return static_cast<uint32_t>(visible_.size());
}

StatusOr<Device*> Runtime::GetDevice(int32_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  NPURT_RETURN_IF_ERROR(EnsureDriverLocked());
  if (id < 0 || static_cast<size_t>(id) >= visible_.size()) {
    if (visible_.empty()) return Err(ACL_ERROR_RT_NO_DEVICE, "no device is available (driver '{}')", config_.driver);
    return Err(ACL_ERROR_RT_INVALID_DEVICEID, "invalid device id {}: valid ids are 0..{}{}", id, visible_.size() - 1,
               config_.visible_devices_set ? " (after ASCEND_RT_VISIBLE_DEVICES=" + config_.visible_devices + ")"
                                           : std::string());
  }
  if (devices_[id] == nullptr) {
    auto hal_dev = driver_->OpenDevice(visible_[id]);
    if (!hal_dev.ok()) return std::move(hal_dev).status().WithContext("device setup failed");
    NPURT_RETURN_IF_ERROR(CheckDeviceCapabilities(hal_dev.value()->info().caps, config_.driver, id));
    DeviceLimits limits;
    limits.streams = config_.stream_limit;
    limits.events = config_.event_limit;
    limits.notifies = config_.notify_limit;
    devices_[id] = std::make_unique<Device>(id, visible_[id], std::move(hal_dev.value()), limits);
    Device* d = devices_[id].get();
    InstallTaskObserver(d->hal());
    const uint32_t n = range_count_.load(std::memory_order_relaxed);
    if (n < 64) {
      auto lo = reinterpret_cast<uintptr_t>(d->hal()->memory_base());
      ranges_[n] = {lo, lo + d->hal()->address_size(), d};  // linear arena + VMM window
      range_count_.store(n + 1, std::memory_order_release);
    }
    NPURT_LOG_INFO("RUNTIME", "device {} (physical {}) opened", id, visible_[id]);
  }
  return devices_[id].get();
}

Device* Runtime::OpenedDevice(int32_t id) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (id < 0 || static_cast<size_t>(id) >= devices_.size()) return nullptr;
  return devices_[id].get();
}

std::vector<Device*> Runtime::OpenedDevices() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Device*> out;
  for (const auto& d : devices_) {
    if (d) out.push_back(d.get());
  }
  return out;
}

Device* Runtime::DeviceOwning(const void* ptr) const {
  const auto p = reinterpret_cast<uintptr_t>(ptr);
  const uint32_t n = range_count_.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < n; ++i) {
    if (p >= ranges_[i].lo && p < ranges_[i].hi) return ranges_[i].device;
  }
  return nullptr;
}

Status Runtime::GetSysParam(int32_t opt, int64_t* value) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = sys_params_.find(opt);
  if (it == sys_params_.end()) {
    return Err(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, "system parameter option {} was never set", opt);
  }
  *value = it->second;
  return Status::Ok();
}

void Runtime::SetSysParam(int32_t opt, int64_t value) {
  std::lock_guard<std::mutex> lock(mu_);
  sys_params_[opt] = value;
}

}  // namespace npurt::core
