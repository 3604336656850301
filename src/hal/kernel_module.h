// Kernel modules: kernel binaries a driver loaded (aclrtBinaryLoadFromFile / FromData), whose kernels
// kKernel tasks run. Core owns the ACL side of a binary (its handles, the functions' lifetime, the
// exception callback, which cores a kernel runs on); the driver owns the code: it validates the image,
// loads it for its devices, and describes each kernel by the ABI's descriptor (include/npurt/kernel_abi.h:
// name, parameters, kernel type) plus an opaque code handle that launches carry to it
// (hal::KernelLaunch::code). The sim's loader (drivers/host/host_kernel_module.h) dlopens host ELF shared
// objects; a CUDA driver would load a cubin and hand out CUfunctions. A driver without one returns null
// from Driver::kernel_loader, and aclrtBinaryLoad* refuse with ACL_ERROR_RT_FEATURE_NOT_SUPPORT. Part of
// the driver interface (hal/hal.h).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "npurt/kernel_abi.h"

namespace npurt::hal {

// One kernel of a module; valid while the module lives.
struct KernelInfo {
  const npurt_kernel_desc* desc = nullptr;  // name, parameters and type (checked by the loader)
  const void* code = nullptr;               // what a launch of it carries (KernelLaunch::code)
  size_t code_size = 0;                     // bytes of the kernel's code (aclrtGetFunctionAddr); 0: unknown
};

class KernelModule {
 public:
  // Unloads the code. Core destroys a module only once no launch of its kernels is queued or running.
  virtual ~KernelModule() = default;
  virtual const std::vector<KernelInfo>& kernels() const = 0;
  virtual const char* library() const = 0;  // the library or fatbin it was built as ("" if unnamed)
  // Where the module's code lies on the device, and its size (aclrtBinaryGetDevAddress).
  virtual const void* image() const = 0;
  virtual size_t image_size() const = 0;
  // A global variable of the module: its device address and size (aclrtBinaryGetGlobal). Errors name
  // the module by `origin`.
  virtual Status Global(const char* name, const std::string& origin, void** address, size_t* size) const = 0;
};

// Loads modules for every device of its driver. Thread-safe; alive as long as the driver.
class KernelLoader {
 public:
  virtual ~KernelLoader() = default;
  // `origin` names the binary in error messages ("'path'", "the 1234-byte kernel image at 0x..."). A
  // malformed image is refused with ACL_ERROR_PARSE_FILE, an unreadable file with ACL_ERROR_INVALID_FILE.
  virtual StatusOr<std::unique_ptr<KernelModule>> LoadFile(const char* path, const std::string& origin) const = 0;
  // `data` is only read during the call.
  virtual StatusOr<std::unique_ptr<KernelModule>> LoadData(const void* data, size_t size,
                                                           const std::string& origin) const = 0;
};

}  // namespace npurt::hal
