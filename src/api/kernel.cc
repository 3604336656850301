// Entry points: kernel binaries and their functions (loading, lookup, introspection).
#include <cstring>

#include "acl/acl.h"
#include "api/api_common.h"
#include "api/kernel_common.h"
#include "core/handle_tags.h"
#include "core/kernel/kernel_binary.h"

using npurt::Err;
namespace handle_tags = npurt::handle_tags;
using npurt::LookupHandle;
using npurt::StatusOr;
using npurt::core::BinaryImage;
using npurt::core::KernelBinary;
using npurt::core::KernelFunction;

using npurt::api::ResolveBinary;
using npurt::api::ResolveFunction;

aclrtBinary aclrtCreateBinary(const void* data, size_t dataLen) {
  NPURT_HANDLE_SCOPE();
  auto img = BinaryImage::Create(data, dataLen);
  if (!img.ok()) {
    npurt::api::Report(__func__, img.status());
    return nullptr;
  }
  return img.value();
}

aclError aclrtDestroyBinary(aclrtBinary binary) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(binary);
  BinaryImage* img = LookupHandle<BinaryImage>(binary, handle_tags::kBinaryImage);
  if (img == nullptr || !img->Invalidate()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_INVALID_HANDLE, "binary {} is not from aclrtCreateBinary "
                                                                         "(destroyed, or another kind of handle)",
                                            binary));
  }
  img->Release();
  return ACL_SUCCESS;
}

aclError aclrtBinaryLoad(const aclrtBinary binary, aclrtBinHandle* binHandle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(binary);
  NPURT_API_NOT_NULL(binHandle);
  BinaryImage* img = LookupHandle<BinaryImage>(binary, handle_tags::kBinaryImage);
  if (img == nullptr) {
    return npurt::api::Report(__func__,
                              Err(ACL_ERROR_RT_INVALID_HANDLE, "binary {} is not from aclrtCreateBinary", binary));
  }
  NPURT_API_ASSIGN(bin, KernelBinary::LoadData(img->data(), img->size(), nullptr));
  *binHandle = bin;
  return ACL_SUCCESS;
}

aclError aclrtBinaryLoadFromFile(const char* binPath, aclrtBinaryLoadOptions* options, aclrtBinHandle* binHandle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(binPath);
  NPURT_API_NOT_NULL(binHandle);
  NPURT_API_ASSIGN(bin, KernelBinary::LoadFile(binPath, options));
  *binHandle = bin;
  return ACL_SUCCESS;
}

aclError aclrtBinaryLoadFromData(const void* data, size_t length, const aclrtBinaryLoadOptions* options,
                                 aclrtBinHandle* binHandle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(data);
  NPURT_API_NOT_NULL(binHandle);
  if (length == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "length is 0"));
  NPURT_API_ASSIGN(bin, KernelBinary::LoadData(data, length, options));
  *binHandle = bin;
  return ACL_SUCCESS;
}

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(bin, ResolveBinary(binHandle));
  NPURT_API_CHECK(bin->Unload());
  return ACL_SUCCESS;
}

aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle, void** binAddr, size_t* binSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(binAddr);
  NPURT_API_NOT_NULL(binSize);
  NPURT_API_ASSIGN(bin, ResolveBinary(binHandle));
  *binAddr = const_cast<void*>(bin->image());
  *binSize = bin->image_size();
  return ACL_SUCCESS;
}

aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle, const char* name, void** dptr, size_t* size) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(name);
  if (dptr == nullptr && size == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "dptr and size are both null pointers"));
  }
  NPURT_API_ASSIGN(bin, ResolveBinary(binHandle));
  NPURT_API_CHECK(bin->Global(name, dptr, size));
  return ACL_SUCCESS;
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName, aclrtFuncHandle* funcHandle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(kernelName);
  NPURT_API_NOT_NULL(funcHandle);
  NPURT_API_ASSIGN(bin, ResolveBinary(binHandle));
  NPURT_API_ASSIGN(f, bin->Function(kernelName));
  *funcHandle = f;
  return ACL_SUCCESS;
}

// funcEntry: the kernel's index in the binary, or the address of its code (aclrtGetFunctionAddr).
aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle, uint64_t funcEntry, aclrtFuncHandle* funcHandle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(funcHandle);
  NPURT_API_ASSIGN(bin, ResolveBinary(binHandle));
  const auto& fs = bin->functions();
  KernelFunction* f = funcEntry < fs.size() ? fs[funcEntry] : bin->FunctionBySymbol(reinterpret_cast<const void*>(funcEntry));
  if (f == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_PARAM_INVALID,
                                            "kernel binary {} has no kernel with entry {:#x} (it has {} kernels: use "
                                            "an index 0..{} or a kernel's address)",
                                            bin->origin(), funcEntry, fs.size(), fs.empty() ? 0 : fs.size() - 1));
  }
  *funcHandle = f;
  return ACL_SUCCESS;
}

aclError aclrtGetFuncBySymbol(const void* symbol, aclrtFuncHandle* funcHandle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(symbol);
  NPURT_API_NOT_NULL(funcHandle);
  for (const auto& bin : KernelBinary::Loaded()) {
    if (KernelFunction* f = bin->FunctionBySymbol(symbol)) {
      *funcHandle = f;
      return ACL_SUCCESS;
    }
  }
  return npurt::api::Report(__func__, Err(ACL_ERROR_RT_PARAM_INVALID,
                                          "{} is not the code of a kernel in any loaded kernel binary", symbol));
}

aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle* binHandle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(binHandle);
  NPURT_API_ASSIGN(f, ResolveFunction(funcHandle));
  *binHandle = f->binary();
  return ACL_SUCCESS;
}

aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char* name) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(name);
  NPURT_API_ASSIGN(f, ResolveFunction(funcHandle));
  const size_t len = std::strlen(f->name());
  if (maxLen <= len) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM,
                                            "maxLen {} is too small for kernel name '{}' ({} characters + NUL)", maxLen,
                                            f->name(), len));
  }
  std::memcpy(name, f->name(), len + 1);
  return ACL_SUCCESS;
}

aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void** aicAddr, void** aivAddr) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(aicAddr);
  NPURT_API_NOT_NULL(aivAddr);
  NPURT_API_ASSIGN(f, ResolveFunction(funcHandle));
  // One code image serves both core types on the sim.
  *aicAddr = const_cast<void*>(f->desc().function);
  *aivAddr = const_cast<void*>(f->desc().function);
  return ACL_SUCCESS;
}

aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t* aicSize, size_t* aivSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(aicSize);
  NPURT_API_NOT_NULL(aivSize);
  NPURT_API_ASSIGN(f, ResolveFunction(funcHandle));
  *aicSize = *aivSize = f->code_size();
  return ACL_SUCCESS;
}

aclError aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle, aclrtFuncAttribute attrType, int64_t* attrValue) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(attrValue);
  NPURT_API_ASSIGN(f, ResolveFunction(funcHandle));
  switch (attrType) {
    case ACL_FUNC_ATTR_KERNEL_TYPE:
      *attrValue = static_cast<int64_t>(f->desc().kernel_type);
      return ACL_SUCCESS;
    case ACL_FUNC_ATTR_KERNEL_RATIO:  // cube:vector ratio of mixed kernels; plain kernels have none
    case ACL_FUNC_ATTR_KERNEL_SCHED_MODE:  // normal scheduling
      *attrValue = 0;
      return ACL_SUCCESS;
  }
  return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "function attribute {} is unknown",
                                          static_cast<int>(attrType)));
}

aclError aclrtFunctionGetParamCount(const void* func, size_t* paramCount) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(paramCount);
  NPURT_API_ASSIGN(f, ResolveFunction(func));
  *paramCount = f->param_count();
  return ACL_SUCCESS;
}

aclError aclrtFunctionGetParamInfo(const void* func, size_t paramIndex, size_t* paramOffset, size_t* paramSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(paramOffset);
  NPURT_API_NOT_NULL(paramSize);
  NPURT_API_ASSIGN(f, ResolveFunction(func));
  if (paramIndex >= f->param_count()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "paramIndex {} is out of range: {} has {} parameters",
                                            paramIndex, f->Signature(), f->param_count()));
  }
  *paramOffset = f->param(static_cast<uint32_t>(paramIndex)).offset;
  *paramSize = f->param(static_cast<uint32_t>(paramIndex)).size;
  return ACL_SUCCESS;
}

aclError aclrtFunctionGetAvailDynUbufPerBlock(void* func, uint32_t flags, size_t* dynamicUbufSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(dynamicUbufSize);
  NPURT_API_ASSIGN(f, ResolveFunction(func));
  (void)f;
  if (flags != 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flags must be 0, not {}", flags));
  *dynamicUbufSize = 0;  // not a SIMT kernel: no dynamic UB
  return ACL_SUCCESS;
}

aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle, aclrtOpExceptionCallback callback, void* userData) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(bin, ResolveBinary(binHandle));
  bin->SetExceptionCallback(callback, userData);
  return ACL_SUCCESS;
}
