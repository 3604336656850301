// Kernel binaries and their functions (aclrtBinHandle, aclrtFuncHandle).
//
// The driver's kernel loader (hal/kernel_module.h) validates and loads the code; this is the ACL side of
// it: the handles, which cores each kernel runs on, the exception callback, and the lifetime. Binaries
// are process-wide: the runtime's driver loads a module for all its devices, so a binary loaded once can
// run on any device and survives aclFinalize (on the sim, a host ELF shared object built by npurt's
// Ascend C toolchain: drivers/host/host_kernel_module.h).
//
// Lifetime: the binary owns its KernelFunction objects. aclrtBinaryUnLoad invalidates the binary and its
// functions for the API; every launch in flight retains the binary, so the driver's module is destroyed
// (its code unloaded) only after the last launch that uses it completed.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "base/handle.h"
#include "base/status.h"
#include "core/handle_tags.h"
#include "hal/kernel_module.h"
#include "npurt/kernel_abi.h"

namespace npurt::core {

class KernelBinary;

class KernelFunction final : public HandleObject {
 public:
  KernelBinary* binary() const { return binary_; }
  const npurt_kernel_desc& desc() const { return *info_.desc; }
  // What a launch carries to the driver (hal::KernelLaunch::code), and the size of the kernel's code.
  const void* code() const { return info_.code; }
  size_t code_size() const { return info_.code_size; }
  const char* name() const { return info_.desc->name; }
  uint32_t args_size() const { return info_.desc->args_size; }
  uint32_t param_count() const { return info_.desc->param_count; }
  const npurt_kernel_param& param(uint32_t i) const { return info_.desc->params[i]; }
  // "add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)" for messages.
  std::string Signature() const;
  // The kernel runs on vector cores (AIV): a vector kernel, or a kernel of no stated type on a SoC with
  // separate cube and vector cores (the Ascend910B family), where Ascend C's vector kernels are AIV kernels.
  bool on_vector_cores() const { return on_vector_cores_; }
  // Every block must run at once (the kernel calls SyncAll or cross-core flags: kernel_abi.h).
  bool cooperative() const { return (info_.desc->flags & NPURT_KERNEL_FLAG_COOPERATIVE) != 0; }
  // Mixed kernels: the vector sub-blocks per block and the cube part, as hal::KernelLaunch::mix holds them.
  uint8_t mix() const {
    return static_cast<uint8_t>((info_.desc->flags & (NPURT_KERNEL_FLAG_AIV_MASK | NPURT_KERNEL_FLAG_AIC_PART)) >>
                                NPURT_KERNEL_FLAG_AIV_SHIFT);
  }

 private:
  friend class KernelBinary;
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  KernelFunction(KernelBinary* binary, const hal::KernelInfo& info, bool on_vector_cores)
      : HandleObject(handle_tags::kFunction), binary_(binary), info_(info), on_vector_cores_(on_vector_cores) {}
  ~KernelFunction() override = default;

  KernelBinary* binary_;
  hal::KernelInfo info_;
  bool on_vector_cores_;
};

class KernelBinary final : public HandleObject {
 public:
  // aclrtBinaryLoadFromFile / aclrtBinaryLoadFromData (options: see ValidateLoadOptions).
  static StatusOr<KernelBinary*> LoadFile(const char* path, const aclrtBinaryLoadOptions* options);
  static StatusOr<KernelBinary*> LoadData(const void* data, size_t size, const aclrtBinaryLoadOptions* options);

  // The kernel called `name`; the error lists the kernels the binary has.
  StatusOr<KernelFunction*> Function(const char* name) const;
  const std::vector<KernelFunction*>& functions() const { return functions_; }
  // The function whose kernel code is `symbol` (aclrtGetFuncBySymbol), or nullptr.
  KernelFunction* FunctionBySymbol(const void* symbol) const;

  const std::string& origin() const { return origin_; }  // the file, or "<memory>"
  const void* image() const { return module_->image(); }  // the loaded image (aclrtBinaryGetDevAddress)
  size_t image_size() const { return module_->image_size(); }
  // A global variable of the binary (aclrtBinaryGetGlobal): its address and size.
  Status Global(const char* name, void** address, size_t* size) const;

  // aclrtBinarySetExceptionCallback: called when a kernel of this binary fails.
  void SetExceptionCallback(aclrtOpExceptionCallback callback, void* user_data);
  void RunExceptionCallback(aclrtExceptionInfo* info) const;

  // aclrtBinaryUnLoad: invalidates the binary and its functions; unloads once no launch uses it.
  Status Unload();

  // A launch of one of its kernels was queued / has finished. In-flight launches keep an unloaded binary
  // alive. Two counters on separate cache lines rather than a reference per launch: the launching thread
  // and the executor finishing launches would otherwise bounce one line between their cores on every
  // kernel (it was most of the host-side cost of a launch).
  void BeginLaunch() { launched_.fetch_add(1, std::memory_order_seq_cst); }
  void EndLaunch();

  // Every loaded binary (aclrtGetFuncBySymbol searches them).
  static std::vector<Ref<KernelBinary>> Loaded();

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  KernelBinary() : HandleObject(handle_tags::kBinary) {}
  ~KernelBinary() override;
  // Wraps a module the driver loaded in a handle, with a function handle per kernel.
  static StatusOr<KernelBinary*> Adopt(StatusOr<std::unique_ptr<hal::KernelModule>> module, std::string origin);

  // Drops the user's reference once the binary is unloaded and no launch is in flight (exactly once).
  void ReleaseIfIdle();

  alignas(64) std::atomic<uint64_t> launched_{0};
  alignas(64) std::atomic<uint64_t> finished_{0};
  alignas(64) std::atomic<bool> unloading_{false};
  std::atomic<bool> released_{false};
  std::unique_ptr<hal::KernelModule> module_;
  std::string origin_;
  std::vector<KernelFunction*> functions_;
  mutable std::mutex callback_mu_;
  aclrtOpExceptionCallback callback_ = nullptr;
  void* callback_data_ = nullptr;
};

// aclrtCreateBinary's wrapper: the image bytes (borrowed: the caller keeps them alive until
// aclrtDestroyBinary, as the contract says).
class BinaryImage final : public HandleObject {
 public:
  static StatusOr<BinaryImage*> Create(const void* data, size_t size);
  const void* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  BinaryImage(const void* data, size_t size) : HandleObject(handle_tags::kBinaryImage), data_(data), size_(size) {}
  ~BinaryImage() override = default;
  const void* data_;
  size_t size_;
};

}  // namespace npurt::core
