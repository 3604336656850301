// Entry points: kernel argument lists (aclrtKernelArgs*).
#include "acl/acl.h"
#include "api/api_common.h"
#include "api/kernel_common.h"
#include "core/kernel/kernel_args.h"

using npurt::Err;
using npurt::HandleTag;
using npurt::LookupHandle;
using npurt::StatusOr;
using npurt::core::KernelArgs;
using npurt::core::KernelFunction;

using npurt::api::ResolveFunction;

namespace {

StatusOr<KernelArgs*> ResolveArgs(const void* handle) {
  if (handle == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "argsHandle is a null pointer");
  KernelArgs* a = KernelArgs::Resolve(handle);
  if (a == nullptr) {
    return Err(ACL_ERROR_RT_INVALID_HANDLE,
               "argsHandle {} is not a live argument list (from aclrtKernelArgsInit, valid for the next {} inits of "
               "the same thread, or from aclrtKernelArgsInitByUserMem)",
               handle, KernelArgs::kRecycleDepth - 1);
  }
  return a;
}

}  // namespace

aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t* memSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(memSize);
  NPURT_API_ASSIGN(f, ResolveFunction(funcHandle));
  (void)f;
  *memSize = KernelArgs::HandleMemSize();
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize, size_t* actualArgsSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(actualArgsSize);
  NPURT_API_ASSIGN(f, ResolveFunction(funcHandle));
  *actualArgsSize = KernelArgs::MemSize(f, userArgsSize);
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(argsHandle);
  NPURT_API_ASSIGN(f, ResolveFunction(funcHandle));
  NPURT_API_ASSIGN(a, KernelArgs::Init(f));
  *argsHandle = a;
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle, void* userHostMem,
                                      size_t actualArgsSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(argsHandle);
  NPURT_API_NOT_NULL(userHostMem);
  NPURT_API_ASSIGN(f, ResolveFunction(funcHandle));
  NPURT_API_ASSIGN(a, KernelArgs::InitByUserMem(f, argsHandle, userHostMem, actualArgsSize));
  (void)a;
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param, size_t paramSize, aclrtParamHandle* paramHandle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(param);
  NPURT_API_NOT_NULL(paramHandle);
  if (paramSize == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "paramSize is 0"));
  NPURT_API_ASSIGN(a, ResolveArgs(argsHandle));
  NPURT_API_CHECK(a->Append(param, paramSize, paramHandle));
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle, aclrtParamHandle* paramHandle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(paramHandle);
  NPURT_API_ASSIGN(a, ResolveArgs(argsHandle));
  NPURT_API_CHECK(a->AppendPlaceHolder(paramHandle));
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, size_t dataSize,
                                             void** bufferAddr) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(bufferAddr);
  if (dataSize == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "dataSize is 0"));
  NPURT_API_ASSIGN(a, ResolveArgs(argsHandle));
  NPURT_API_CHECK(a->GetPlaceHolderBuffer(paramHandle, dataSize, bufferAddr));
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, void* param,
                                   size_t paramSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(param);
  NPURT_API_ASSIGN(a, ResolveArgs(argsHandle));
  NPURT_API_CHECK(a->ParaUpdate(paramHandle, param, paramSize));
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(a, ResolveArgs(argsHandle));
  NPURT_API_CHECK(a->Finalize());
  return ACL_SUCCESS;
}
