// Default (unsupported) virtual-memory and sharing primitives of hal::Device: a driver without them
// still serves the caching allocator; VMM, expandable segments and IPC then report that they are not
// supported on its devices.
#include "acl/error_codes/rt_error_codes.h"
#include "hal/hal.h"

namespace npurt::hal {

Status Device::MapMemory(void* addr, size_t size, int32_t /*source*/, uint64_t /*offset*/, MemoryAccess /*access*/) {
  return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "the device's driver cannot map memory ({} bytes at {})", size, addr);
}

Status Device::UnmapMemory(void* addr, size_t size) {
  return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "the device's driver cannot unmap memory ({} bytes at {})", size, addr);
}

Status Device::ProtectMemory(void* addr, size_t size, MemoryAccess /*access*/) {
  return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "the device's driver cannot change access rights ({} bytes at {})",
             size, addr);
}

StatusOr<MemoryShareToken> Device::ExportMemory() {
  return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "the device's driver cannot share memory with other processes");
}

StatusOr<int32_t> Device::ImportMemory(const MemoryShareToken& /*token*/) {
  return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "the device's driver cannot import memory of other processes");
}

void Device::ReleaseImport(int32_t /*source*/) {}

StatusOr<std::unique_ptr<Flag>> Device::CreateSharedFlag() {
  return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "the device's driver cannot share events or notifies with other "
             "processes");
}

StatusOr<std::unique_ptr<Flag>> Device::OpenSharedFlag(const FlagShareToken& /*token*/) {
  return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "the device's driver cannot open events or notifies of other "
             "processes");
}

}  // namespace npurt::hal
