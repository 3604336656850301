// Entry points: user allocators registered per stream (acl_rt_allocator.h).
#include "acl/acl_rt_allocator.h"

#include "api/api_common.h"
#include "core/memory/mem_user_allocator.h"
#include "core/stream.h"

using npurt::Err;
using npurt::core::AllocatorDesc;

namespace {

npurt::StatusOr<AllocatorDesc*> ResolveDesc(aclrtAllocatorDesc desc) {
  if (desc == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "allocatorDesc is a null pointer");
  AllocatorDesc* d = npurt::core::LookupAllocatorDesc(desc);
  if (d == nullptr) {
    return Err(ACL_ERROR_RT_INVALID_HANDLE, "allocatorDesc {} is not a live allocator description", desc);
  }
  return d;
}

template <typename Field, typename Value>
aclError SetField(const char* fn, aclrtAllocatorDesc desc, Field field, Value value, const char* what) {
  if (value == nullptr) return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", what));
  auto d = ResolveDesc(desc);
  if (!d.ok()) return npurt::api::Report(fn, d.status());
  d.value()->value.*field = value;
  return ACL_SUCCESS;
}

}  // namespace

aclrtAllocatorDesc aclrtAllocatorCreateDesc(void) {
  NPURT_HANDLE_SCOPE();
  AllocatorDesc* d = AllocatorDesc::Create();
  if (d == nullptr) {
    (void)npurt::api::Report(__func__, Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots"));
    return nullptr;
  }
  return d;
}

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, ResolveDesc(allocatorDesc));
  if (d->Invalidate()) d->Release();
  return ACL_SUCCESS;
}

aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator) {
  NPURT_HANDLE_SCOPE();
  return SetField(__func__, allocatorDesc, &npurt::core::UserAllocator::object, allocator, "allocator");
}

aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocFunc func) {
  NPURT_HANDLE_SCOPE();
  return SetField(__func__, allocatorDesc, &npurt::core::UserAllocator::alloc, func, "func");
}

aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorFreeFunc func) {
  NPURT_HANDLE_SCOPE();
  return SetField(__func__, allocatorDesc, &npurt::core::UserAllocator::free, func, "func");
}

aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocAdviseFunc func) {
  NPURT_HANDLE_SCOPE();
  return SetField(__func__, allocatorDesc, &npurt::core::UserAllocator::alloc_advise, func, "func");
}

aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                     aclrtAllocatorGetAddrFromBlockFunc func) {
  NPURT_HANDLE_SCOPE();
  return SetField(__func__, allocatorDesc, &npurt::core::UserAllocator::get_addr, func, "func");
}

aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, ResolveDesc(allocatorDesc));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(npurt::core::RegisterUserAllocator(s, *d));
  return ACL_SUCCESS;
}

aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc* allocatorDesc, aclrtAllocator* allocator,
                                   aclrtAllocatorAllocFunc* allocFunc, aclrtAllocatorFreeFunc* freeFunc,
                                   aclrtAllocatorAllocAdviseFunc* allocAdviseFunc,
                                   aclrtAllocatorGetAddrFromBlockFunc* getAddrFromBlockFunc) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  AllocatorDesc* desc = nullptr;
  auto a = npurt::core::UserAllocatorFor(s, &desc);
  if (!a) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "no allocator is registered for stream {}",
                                            static_cast<void*>(s)));
  }
  if (allocatorDesc != nullptr) *allocatorDesc = desc;
  if (allocator != nullptr) *allocator = a->object;
  if (allocFunc != nullptr) *allocFunc = a->alloc;
  if (freeFunc != nullptr) *freeFunc = a->free;
  if (allocAdviseFunc != nullptr) *allocAdviseFunc = a->alloc_advise;
  if (getAddrFromBlockFunc != nullptr) *getAddrFromBlockFunc = a->get_addr;
  return ACL_SUCCESS;
}

aclError aclrtAllocatorUnregister(aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  npurt::core::UnregisterUserAllocator(s);
  return ACL_SUCCESS;
}
