// Entry points: kernel launches (aclrtLaunchKernel*).
#include <vector>

#include "acl/acl.h"
#include "api/api_common.h"
#include "api/kernel_common.h"
#include "core/handle_tags.h"
#include "core/kernel/kernel_args.h"
#include "core/kernel/kernel_binary.h"
#include "core/kernel/kernel_launch.h"
#include "core/memory/memory_ops.h"
#include "core/stream.h"

using npurt::Err;
using npurt::Status;
using npurt::StatusOr;
using npurt::api::ResolveFunction;
using npurt::core::KernelArgs;
using npurt::core::KernelFunction;
using npurt::core::LaunchArgs;
using npurt::core::LaunchSettings;

namespace {

Status CheckArgsSize(const KernelFunction& f, size_t size, const char* what) {
  if (size != f.args_size()) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} is {} bytes, but {} takes {} bytes of arguments", what, size,
               f.Signature(), f.args_size());
  }
  return Status::Ok();
}

// aclrtLaunchKernel / V2: the argument block is device memory, read by the kernel when it runs.
aclError LaunchDeviceArgs(const char* fn, aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                          size_t argsSize, const aclrtLaunchKernelCfg* cfg, aclrtStream stream) {
  auto f = ResolveFunction(funcHandle);
  if (!f.ok()) return npurt::api::Report(fn, f.status());
  auto s = npurt::api::ResolveStream(stream);
  if (!s.ok()) return npurt::api::Report(fn, s.status());
  auto settings = npurt::core::ParseLaunchConfig(cfg, s.value());
  if (!settings.ok()) return npurt::api::Report(fn, settings.status());
  Status st = CheckArgsSize(*f.value(), argsSize, "argsSize");
  if (!st.ok()) return npurt::api::Report(fn, st);
  if (argsSize != 0) {
    if (argsData == nullptr) return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "argsData is a null pointer"));
    auto span = npurt::core::ResolveSpan(argsData, argsSize, "argsData");
    if (!span.ok()) return npurt::api::Report(fn, span.status());
    if (span.value().device == nullptr) {
      return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM,
                                        "argsData {} is host memory: {} reads the argument block from device memory "
                                        "(use aclrtLaunchKernelWithHostArgs for a host block)",
                                        argsData, fn));
    }
  }
  LaunchArgs args;
  args.data = argsData;
  args.size = argsSize;
  args.device_resident = true;
  st = npurt::core::LaunchKernel(f.value(), numBlocks, s.value(), settings.value(), args);
  return st.ok() ? ACL_SUCCESS : npurt::api::Report(fn, st);
}

}  // namespace

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData, size_t argsSize,
                           aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return LaunchDeviceArgs(__func__, funcHandle, numBlocks, argsData, argsSize, nullptr, stream);
}

aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData, size_t argsSize,
                             aclrtLaunchKernelCfg* cfg, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return LaunchDeviceArgs(__func__, funcHandle, numBlocks, argsData, argsSize, cfg, stream);
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                     aclrtLaunchKernelCfg* cfg, aclrtArgsHandle argsHandle, void* reserve) {
  NPURT_HANDLE_SCOPE();
  (void)reserve;
  NPURT_API_ASSIGN(f, ResolveFunction(funcHandle));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_ASSIGN(settings, npurt::core::ParseLaunchConfig(cfg, s));
  NPURT_API_NOT_NULL(argsHandle);
  KernelArgs* a = KernelArgs::Resolve(argsHandle);
  if (a == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_INVALID_HANDLE, "argsHandle {} is not a live argument list",
                                            argsHandle));
  }
  if (a->function() != f) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM,
                                            "argsHandle was built for {}, not for {}", a->function()->Signature(),
                                            f->Signature()));
  }
  NPURT_API_CHECK(a->CheckLaunchable());
  LaunchArgs args;
  args.data = a->data();
  args.size = a->size();
  args.placeholders = a->placeholders().data();
  args.placeholder_count = a->placeholders().size();
  NPURT_API_CHECK(npurt::core::LaunchKernel(f, numBlocks, s, settings, args));
  return ACL_SUCCESS;
}

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                       aclrtLaunchKernelCfg* cfg, void* hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo* placeHolderArray, size_t placeHolderNum) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(f, ResolveFunction(funcHandle));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_ASSIGN(settings, npurt::core::ParseLaunchConfig(cfg, s));
  if (placeHolderNum == 0) {
    NPURT_API_CHECK(CheckArgsSize(*f, argsSize, "argsSize"));
  } else if (argsSize < f->args_size()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM,
                                            "argsSize {} is smaller than the {} bytes of the arguments of {}", argsSize,
                                            f->args_size(), f->Signature()));
  }
  if (argsSize != 0) NPURT_API_NOT_NULL(hostArgs);
  if (placeHolderNum != 0) NPURT_API_NOT_NULL(placeHolderArray);
  std::vector<KernelArgs::Placeholder> placeholders;
  placeholders.reserve(placeHolderNum);
  for (size_t i = 0; i < placeHolderNum; ++i) {
    const aclrtPlaceHolderInfo& ph = placeHolderArray[i];
    bool is_pointer_param = false;
    for (uint32_t p = 0; p < f->param_count(); ++p) {
      is_pointer_param |= f->param(p).offset == ph.addrOffset && f->param(p).kind == NPURT_KERNEL_PARAM_POINTER;
    }
    if (!is_pointer_param) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM,
                                              "placeholder {}: addrOffset {} is not the offset of a pointer parameter "
                                              "of {}",
                                              i, ph.addrOffset, f->Signature()));
    }
    if (ph.dataOffset < f->args_size() || ph.dataOffset >= argsSize) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM,
                                              "placeholder {}: dataOffset {} must lie after the {} bytes of parameters "
                                              "and inside the {}-byte block",
                                              i, ph.dataOffset, f->args_size(), argsSize));
    }
    placeholders.push_back({ph.addrOffset, ph.dataOffset});
  }
  LaunchArgs args;
  args.data = hostArgs;
  args.size = argsSize;
  args.placeholders = placeholders.data();
  args.placeholder_count = placeholders.size();
  NPURT_API_CHECK(npurt::core::LaunchKernel(f, numBlocks, s, settings, args));
  return ACL_SUCCESS;
}

aclError aclrtLaunchKernelWithArgsArray(void* func, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                        void** args) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(func);
  KernelFunction* f = npurt::LookupHandle<KernelFunction>(func, npurt::handle_tags::kFunction);
  if (f == nullptr) {
    // Not a function handle: the kernel's own code address (aclrtGetFuncBySymbol).
    aclrtFuncHandle h = nullptr;
    if (aclrtGetFuncBySymbol(func, &h) != ACL_SUCCESS) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_RT_INVALID_HANDLE,
                                              "func {} is neither a kernel function handle nor a kernel of a loaded "
                                              "binary",
                                              func));
    }
    f = static_cast<KernelFunction*>(h);
  }
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_ASSIGN(settings, npurt::core::ParseLaunchConfig(cfg, s));
  if (f->param_count() != 0) NPURT_API_NOT_NULL(args);
  for (uint32_t i = 0; i < f->param_count(); ++i) {
    if (args[i] == nullptr) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "args[{}] (parameter '{} {}' of {}) is a null "
                                                                       "pointer",
                                              i, f->param(i).type, f->param(i).name, f->Signature()));
    }
  }
  std::vector<uint8_t> block;
  npurt::core::PackArgsArray(*f, args, &block);
  LaunchArgs la;
  la.data = block.data();
  la.size = block.size();
  NPURT_API_CHECK(npurt::core::LaunchKernel(f, numBlocks, s, settings, la));
  return ACL_SUCCESS;
}
