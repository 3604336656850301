#include "core/kernel/kernel_binary.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "acl/error_codes/rt_error_codes.h"
#include "core/runtime.h"
#include "dfx/log.h"

namespace npurt::core {
namespace {

// SoCs whose AI cores are split into cube (AIC) and vector (AIV) cores: Ascend910B*, Ascend910_93*.
bool SocHasSeparateVectorCores(const std::string& soc) {
  return soc.rfind("Ascend910B", 0) == 0 || soc.rfind("Ascend910_93", 0) == 0;
}

std::mutex g_loaded_mu;
std::vector<KernelBinary*> g_loaded;

Status ValidateLoadOptions(const aclrtBinaryLoadOptions* options) {
  if (options == nullptr) return Status::Ok();
  if (options->numOpt != 0 && options->options == nullptr) {
    return Err(ACL_ERROR_INVALID_PARAM, "options->options is a null pointer but numOpt is {}", options->numOpt);
  }
  for (size_t i = 0; i < options->numOpt; ++i) {
    const aclrtBinaryLoadOption& o = options->options[i];
    switch (o.type) {
      case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
        break;  // loading is cheap on the sim: lazy or not, the binary is ready when the call returns
      case ACL_RT_BINARY_LOAD_OPT_MAGIC:
        if (o.value.magic != ACL_RT_BINARY_MAGIC_ELF_AICORE && o.value.magic != ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE &&
            o.value.magic != ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE) {
          return Err(ACL_ERROR_INVALID_PARAM, "binary magic {:#x} is not an AI core, vector core or cube core magic",
                     o.value.magic);
        }
        break;
      case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
        return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "AI CPU kernel binaries are not supported by the simulated NPU");
      default:
        return Err(ACL_ERROR_INVALID_PARAM, "binary load option type {} is unknown", static_cast<int>(o.type));
    }
  }
  return Status::Ok();
}

}  // namespace

std::string KernelFunction::Signature() const {
  std::string s = std::string(name()) + "(";
  for (uint32_t i = 0; i < param_count(); ++i) {
    const npurt_kernel_param& p = param(i);
    if (i != 0) s += ", ";
    s += p.type;
    if (p.name[0] != '\0') s += std::string(" ") + p.name;
  }
  return s + ")";
}

StatusOr<KernelBinary*> KernelBinary::LoadFile(const char* path, const aclrtBinaryLoadOptions* options) {
  NPURT_RETURN_IF_ERROR(ValidateLoadOptions(options));
  auto loader = Runtime::Get().KernelLoader();
  if (!loader.ok()) return std::move(loader).status();
  std::string origin = fmt::format("'{}'", path);
  auto module = loader.value()->LoadFile(path, origin);
  return Adopt(std::move(module), std::move(origin));
}

StatusOr<KernelBinary*> KernelBinary::LoadData(const void* data, size_t size, const aclrtBinaryLoadOptions* options) {
  NPURT_RETURN_IF_ERROR(ValidateLoadOptions(options));
  auto loader = Runtime::Get().KernelLoader();
  if (!loader.ok()) return std::move(loader).status();
  std::string origin = fmt::format("the {}-byte kernel image at {}", size, data);
  auto module = loader.value()->LoadData(data, size, origin);
  return Adopt(std::move(module), std::move(origin));
}

StatusOr<KernelBinary*> KernelBinary::Adopt(StatusOr<std::unique_ptr<hal::KernelModule>> module, std::string origin) {
  if (!module.ok()) return std::move(module).status();
  KernelBinary* bin = NewHandle<KernelBinary>();
  if (bin == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for kernel binaries");
  bin->module_ = std::move(module.value());
  bin->origin_ = std::move(origin);
  const bool split_cores = SocHasSeparateVectorCores(Runtime::Get().soc_name());
  for (const hal::KernelInfo& k : bin->module_->kernels()) {
    const uint32_t type = k.desc->kernel_type;
    const bool vector = type == ACL_KERNEL_TYPE_VECTOR || (type == ACL_KERNEL_TYPE_AICORE && split_cores);
    KernelFunction* f = NewHandle<KernelFunction>(bin, k, vector);
    if (f == nullptr) {
      bin->Unload().ok();
      return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for kernel functions");
    }
    bin->functions_.push_back(f);
  }
  {
    std::lock_guard<std::mutex> lock(g_loaded_mu);
    g_loaded.push_back(bin);
  }
  NPURT_LOG_INFO("RUNTIME", "loaded kernel binary {} ({} kernels, library '{}')", bin->origin_,
                 bin->functions_.size(), bin->module_->library());
  return bin;
}

KernelBinary::~KernelBinary() {
  for (KernelFunction* f : functions_) {
    f->Invalidate();
    f->Release();
  }
  module_.reset();  // after the functions: no handle names its kernels any more
}

StatusOr<KernelFunction*> KernelBinary::Function(const char* name) const {
  for (KernelFunction* f : functions_) {
    if (std::strcmp(f->name(), name) == 0) return f;
  }
  std::string names;
  for (KernelFunction* f : functions_) names += (names.empty() ? "" : ", ") + f->Signature();
  return Err(ACL_ERROR_RT_PARAM_INVALID, "kernel binary {} has no kernel named '{}' (it has: {})", origin_, name,
             names.empty() ? "no kernels" : names);
}

KernelFunction* KernelBinary::FunctionBySymbol(const void* symbol) const {
  for (KernelFunction* f : functions_) {
    if (f->desc().function == symbol || f->code() == symbol) return f;
  }
  return nullptr;
}

Status KernelBinary::Global(const char* name, void** address, size_t* size) const {
  return module_->Global(name, origin_, address, size);
}

void KernelBinary::SetExceptionCallback(aclrtOpExceptionCallback callback, void* user_data) {
  std::lock_guard<std::mutex> lock(callback_mu_);
  callback_ = callback;
  callback_data_ = user_data;
}

void KernelBinary::RunExceptionCallback(aclrtExceptionInfo* info) const {
  aclrtOpExceptionCallback cb;
  void* data;
  {
    std::lock_guard<std::mutex> lock(callback_mu_);
    cb = callback_;
    data = callback_data_;
  }
  if (cb != nullptr) cb(info, data);
}

Status KernelBinary::Unload() {
  if (!Invalidate()) return Err(ACL_ERROR_RT_INVALID_HANDLE, "kernel binary {} was already unloaded", origin_);
  for (KernelFunction* f : functions_) f->Invalidate();
  {
    std::lock_guard<std::mutex> lock(g_loaded_mu);
    g_loaded.erase(std::remove(g_loaded.begin(), g_loaded.end(), this), g_loaded.end());
  }
  unloading_.store(true, std::memory_order_seq_cst);
  ReleaseIfIdle();
  return Status::Ok();
}

void KernelBinary::EndLaunch() {
  finished_.fetch_add(1, std::memory_order_seq_cst);
  if (unloading_.load(std::memory_order_seq_cst)) ReleaseIfIdle();
}

void KernelBinary::ReleaseIfIdle() {
  // Unload stores unloading_ then reads the counters; EndLaunch bumps finished_ then reads unloading_
  // (all sequentially consistent): at least one of them sees both, and released_ lets only one release.
  if (finished_.load(std::memory_order_seq_cst) != launched_.load(std::memory_order_seq_cst)) return;
  if (!released_.exchange(true, std::memory_order_acq_rel)) Release();
}

std::vector<Ref<KernelBinary>> KernelBinary::Loaded() {
  std::lock_guard<std::mutex> lock(g_loaded_mu);
  std::vector<Ref<KernelBinary>> out;
  for (KernelBinary* b : g_loaded) out.emplace_back(b);
  return out;
}

StatusOr<BinaryImage*> BinaryImage::Create(const void* data, size_t size) {
  if (data == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "data is a null pointer");
  if (size == 0) return Err(ACL_ERROR_INVALID_PARAM, "dataLen is 0");
  BinaryImage* img = NewHandle<BinaryImage>(data, size);
  if (img == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for binary images");
  return img;
}

}  // namespace npurt::core
