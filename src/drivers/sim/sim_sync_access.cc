// Synchronous access to a simulated device's memory (hal::Device::CopyNow, Copy2dNow, FillNow): the arena
// is host memory, so these are the copy engines' own routines (base/device_copy.h) run on the calling thread,
// followed by the re-evaluation of the value waits that may watch the bytes written.
#include "acl/error_codes/rt_error_codes.h"
#include "base/device_copy.h"
#include "drivers/sim/sim_device.h"

namespace npurt::drivers::sim {

Status SimDevice::CopyNow(void* dst, const void* src, size_t size) {
  CopyDeviceBytes(dst, src, size);
  OnMemoryWritten();
  return Status::Ok();
}

Status SimDevice::Copy2dNow(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height) {
  CopyDeviceRows(dst, dpitch, src, spitch, width, height);
  OnMemoryWritten();
  return Status::Ok();
}

Status SimDevice::FillNow(void* dst, size_t count, uint32_t value, uint32_t element_bytes) {
  switch (element_bytes) {
    case 1: FillDeviceBytes(dst, static_cast<uint8_t>(value), count); break;
    case 4: FillDeviceWords(static_cast<uint32_t*>(dst), value, count); break;
    default:
      return Err(ACL_ERROR_RT_PARAM_INVALID, "fills of {}-byte elements are not a device operation (1 or 4)",
                 element_bytes);
  }
  OnMemoryWritten();
  return Status::Ok();
}

}  // namespace npurt::drivers::sim
