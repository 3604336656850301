// Handle resolution shared by the kernel entry points (src/api/kernel*.cc). Private to the runtime.
#pragma once
#ifndef NPURT_INTERNAL_BUILD
#error "src/api/kernel_common.h is private to the npurt runtime"
#endif

#include "base/handle.h"
#include "base/status.h"
#include "core/handle_tags.h"
#include "core/kernel/kernel_binary.h"

namespace npurt::api {

inline StatusOr<core::KernelBinary*> ResolveBinary(const void* handle) {
  if (handle == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "binHandle is a null pointer");
  core::KernelBinary* b = LookupHandle<core::KernelBinary>(handle, handle_tags::kBinary);
  if (b == nullptr) {
    return Err(ACL_ERROR_RT_INVALID_HANDLE, "binHandle {} is not a loaded kernel binary (unloaded, or not a binary)",
               handle);
  }
  return b;
}

inline StatusOr<core::KernelFunction*> ResolveFunction(const void* handle) {
  if (handle == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "funcHandle is a null pointer");
  core::KernelFunction* f = LookupHandle<core::KernelFunction>(handle, handle_tags::kFunction);
  if (f == nullptr) {
    return Err(ACL_ERROR_RT_INVALID_HANDLE,
               "funcHandle {} is not a kernel function (its binary was unloaded, or it is not a function)", handle);
  }
  return f;
}

}  // namespace npurt::api
