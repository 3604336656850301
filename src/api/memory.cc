// Entry points: device and host memory, copies and fills.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "api/api_common.h"
#include "core/alloc/alloc_stream_fence.h"
#include "core/context.h"
#include "core/device.h"
#include "core/model_ri/model_ri_capture.h"
#include "core/memory/mem_managed.h"
#include "core/memory/mem_pinned_host.h"
#include "core/memory/memory_ops.h"
#include "core/runtime.h"
#include "core/stream.h"

using npurt::Err;
using npurt::core::Runtime;

namespace npurt::api {

aclError Allocate(const char* fn, void** devPtr, size_t size, uint32_t policy, bool pad) {
  // Fast path (issue 14: within 2x glibc's malloc): a block of this thread's cache, no Status built.
  if (devPtr != nullptr) [[likely]] {
    if (npurt::core::Context* ctx = npurt::core::CurrentContext()) [[likely]] {
      if (void* p = ctx->device()->allocator().AllocateCached(size, policy, pad, ctx)) {
        *devPtr = p;
        return ACL_SUCCESS;
      }
    }
  }
  if (devPtr == nullptr) return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "devPtr is a null pointer"));
  if (size == 0) return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "size is 0"));
  // The page-size policy (low byte) picks the pool (normal / huge / 1 GiB pages); bandwidth and
  // read-only hints are accepted and ignored; an out-of-range policy falls back as in CANN.
  auto ctx = npurt::core::RequireContext();
  if (!ctx.ok()) return npurt::api::Report(fn, ctx.status());
  npurt::core::AllocRequest r;
  r.size = size;
  r.policy = policy;
  r.pad = pad;
  r.owner = ctx.value();
  auto p = ctx.value()->device()->allocator().Allocate(r);
  if (!p.ok()) return npurt::api::Report(fn, p.status());
  *devPtr = p.value();
  return ACL_SUCCESS;
}

aclError FreeDevice(const char* fn, void* devPtr, bool sync_first) {
  if (devPtr == nullptr) return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "devPtr is a null pointer"));
  npurt::core::Device* dev = Runtime::Get().DeviceOwning(devPtr);
  if (dev == nullptr) {
    return npurt::api::Report(fn, Err(ACL_ERROR_RT_MEMORY_FREE,
                                      "{} is not device memory{}", devPtr,
                                      npurt::core::PinnedHost::Get().IsAllocated(devPtr)
                                          ? " (it is host memory from aclrtMallocHost: use aclrtFreeHost)"
                                          : ""));
  }
  if (sync_first) {
    npurt::Status st = dev->Synchronize(-1);
    (void)st;  // a failed task does not prevent the free
  }
  // Stream-ordered free: streams with queued work may still use the block (no implicit sync).
  size_t fence_count = 0;
  const npurt::core::StreamFence* fences = npurt::core::BusyFences(dev, &fence_count);
  auto st = dev->allocator().Free(devPtr, fences, fence_count);
  if (!st.ok()) return npurt::api::Report(fn, st);
  npurt::core::ManagedRegistry::Get().Forget(devPtr);
  return ACL_SUCCESS;
}

npurt::StatusOr<npurt::core::Stream*> AsyncStream(aclrtStream stream) { return npurt::api::ResolveStream(stream); }

}  // namespace npurt::api

using npurt::api::Allocate;
using npurt::api::FreeDevice;
using npurt::api::AsyncStream;

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  NPURT_HANDLE_SCOPE();
  return Allocate(__func__, devPtr, size, policy);
}

aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  NPURT_HANDLE_SCOPE();
  return Allocate(__func__, devPtr, size, policy, /*pad=*/false);
}

aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  NPURT_HANDLE_SCOPE();
  return Allocate(__func__, devPtr, size, policy);
}

aclError aclrtMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig* cfg) {
  NPURT_HANDLE_SCOPE();
  if (cfg != nullptr && cfg->numAttrs > 0 && cfg->attrs == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "cfg has {} attributes but attrs is null",
                                            cfg->numAttrs));
  }
  if (cfg != nullptr) {
    for (size_t i = 0; i < cfg->numAttrs; ++i) {
      const aclrtMallocAttribute& a = cfg->attrs[i];
      if (a.attr == ACL_RT_MEM_ATTR_DEVICE_ID) {
        // Allocate on an explicit device: switch the thread's context for the call.
        auto dev = Runtime::Get().GetDevice(static_cast<int32_t>(a.value.deviceId));
        if (!dev.ok()) return npurt::api::Report(__func__, dev.status());
        npurt::core::Context* ctx = dev.value()->default_context();
        if (ctx == nullptr) {
          return npurt::api::Report(__func__, Err(ACL_ERROR_RT_CONTEXT_NULL,
                                                  "device {} is not set: call aclrtSetDevice first", a.value.deviceId));
        }
        if (devPtr == nullptr || size == 0) return Allocate(__func__, devPtr, size, policy);
        npurt::core::AllocRequest r;
        r.size = size;
        r.policy = policy;
        r.owner = ctx;
        auto p = dev.value()->allocator().Allocate(r);
        if (!p.ok()) return npurt::api::Report(__func__, p.status());
        *devPtr = p.value();
        return ACL_SUCCESS;
      }
      if (a.attr != ACL_RT_MEM_ATTR_RSV && a.attr != ACL_RT_MEM_ATTR_MODULE_ID && a.attr != ACL_RT_MEM_ATTR_VA_FLAG) {
        return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown malloc attribute {}", int(a.attr)));
      }
    }
  }
  return Allocate(__func__, devPtr, size, policy);
}

aclError aclrtMallocForTaskScheduler(void** devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig* cfg) {
  NPURT_HANDLE_SCOPE();
  // The simulated device's task scheduler is the host's executor threads: its memory is ordinary device
  // memory of the current (or the configured) device.
  // (An error message names aclrtMallocWithCfg, which did the work.)
  return aclrtMallocWithCfg(devPtr, size, policy, cfg);
}

aclError aclrtFree(void* devPtr) {
  NPURT_HANDLE_SCOPE();
  // Fast path: a small block no stream may still use goes to this thread's cache, no Status built.
  if (npurt::core::Device* dev = Runtime::Get().DeviceOwning(devPtr)) [[likely]] {
    if (!npurt::core::AnyStreamBusy(dev) && dev->allocator().FreeCached(devPtr)) {
      npurt::core::ManagedRegistry::Get().Forget(devPtr);
      return ACL_SUCCESS;
    }
  }
  return FreeDevice(__func__, devPtr, false);
}

aclError aclrtFreeWithDevSync(void* devPtr) {
  NPURT_HANDLE_SCOPE();
  return FreeDevice(__func__, devPtr, true);
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(hostPtr);
  NPURT_API_ASSIGN(p, npurt::core::PinnedHost::Get().Allocate(size));
  *hostPtr = p;
  return ACL_SUCCESS;
}

aclError aclrtMallocHostWithCfg(void** ptr, uint64_t size, aclrtMallocConfig* cfg) {
  NPURT_HANDLE_SCOPE();
  (void)cfg;
  return aclrtMallocHost(ptr, static_cast<size_t>(size));
}

aclError aclrtFreeHost(void* hostPtr) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(hostPtr);
  if (Runtime::Get().DeviceOwning(hostPtr) != nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_MEMORY_FREE,
                                            "{} is device memory: free it with aclrtFree", hostPtr));
  }
  NPURT_API_CHECK(npurt::core::PinnedHost::Get().Free(hostPtr));
  return ACL_SUCCESS;
}

aclError aclrtFreeHostWithDevSync(void* hostPtr) {
  NPURT_HANDLE_SCOPE();
  for (npurt::core::Device* d : Runtime::Get().OpenedDevices()) (void)d->Synchronize(-1);
  return aclrtFreeHost(hostPtr);
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::core::CheckCaptureSafe(__func__, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT));
  NPURT_API_CHECK(npurt::core::Memcpy(dst, destMax, src, count, kind, nullptr));
  return ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (kind == ACL_MEMCPY_HOST_TO_HOST) {
    // As on CANN in EP mode (aclrtGetRunMode == ACL_HOST): use aclrtMemcpy for host-to-host copies.
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                            "asynchronous host-to-host copies are not supported in EP mode"));
  }
  NPURT_API_ASSIGN(s, AsyncStream(stream));
  NPURT_API_CHECK(npurt::core::Memcpy(dst, destMax, src, count, kind, s));
  return ACL_SUCCESS;
}

aclError aclrtMemcpyAsyncWithCondition(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                                       aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return aclrtMemcpyAsync(dst, destMax, src, count, kind, stream);
}

aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                       aclrtMemcpyKind kind) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::core::CheckCaptureSafe(__func__, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT));
  NPURT_API_CHECK(npurt::core::Memcpy2d(dst, dpitch, src, spitch, width, height, kind, nullptr));
  return ACL_SUCCESS;
}

aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                            aclrtMemcpyKind kind, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, AsyncStream(stream));
  NPURT_API_CHECK(npurt::core::Memcpy2d(dst, dpitch, src, spitch, width, height, kind, s));
  return ACL_SUCCESS;
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::core::CheckCaptureSafe(__func__, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT));
  NPURT_API_CHECK(npurt::core::Memset(devPtr, maxCount, value, count, nullptr));
  return ACL_SUCCESS;
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, AsyncStream(stream));
  NPURT_API_CHECK(npurt::core::Memset(devPtr, maxCount, value, count, s));
  return ACL_SUCCESS;
}

aclError aclrtMemsetD32(void* ptr, size_t memSize, uint32_t value, size_t N) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::core::CheckCaptureSafe(__func__, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT));
  NPURT_API_CHECK(npurt::core::MemsetD32(ptr, memSize, value, N, nullptr));
  return ACL_SUCCESS;
}

aclError aclrtMemsetD32Async(void* ptr, size_t memSize, uint32_t value, size_t N, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, AsyncStream(stream));
  NPURT_API_CHECK(npurt::core::MemsetD32(ptr, memSize, value, N, s));
  return ACL_SUCCESS;
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(free);
  NPURT_API_NOT_NULL(total);
  if (static_cast<int>(attr) < ACL_DDR_MEM || static_cast<int>(attr) > ACL_MEM_P2P_HUGE1G) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "memory attribute {} is invalid", int(attr)));
  }
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  // The sim has one kind of device memory; every attribute reports it. As on CANN, memory released with
  // aclrtFree (or reclaimed with its context) is free: the allocator's idle cache counts as free, since
  // any allocation that needs it gets it back (docs/memory.md, "What aclrtGetMemInfo reports").
  npurt::core::DeviceAllocator& a = ctx->device()->allocator();
  const uint64_t capacity = a.memory().capacity();
  const uint64_t used = std::min(a.UsedBytes(), capacity);
  *total = capacity;
  *free = capacity - used;
  return ACL_SUCCESS;
}

aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo* memUsageInfo, size_t inputNum, size_t* outputNum) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(memUsageInfo);
  NPURT_API_NOT_NULL(outputNum);
  if (inputNum == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "inputNum is 0"));
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  // One row per allocator pool and memory kind, current and peak bytes (docs/memory.md, "Introspection").
  const std::vector<npurt::core::MemUsageRow> rows = dev->allocator().UsageRows();
  const size_t n = std::min(inputNum, rows.size());
  for (size_t i = 0; i < n; ++i) {
    std::memset(&memUsageInfo[i], 0, sizeof(aclrtMemUsageInfo));
    std::snprintf(memUsageInfo[i].name, sizeof memUsageInfo[i].name, "%s", rows[i].name.c_str());
    memUsageInfo[i].curMemSize = rows[i].current;
    memUsageInfo[i].memPeakSize = std::max(rows[i].peak, rows[i].current);
  }
  *outputNum = n;
  return ACL_SUCCESS;
}

aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(ptr);
  NPURT_API_NOT_NULL(attributes);
  std::memset(attributes, 0, sizeof(*attributes));
  if (npurt::core::Device* dev = Runtime::Get().DeviceOwning(ptr)) {
    npurt::core::AllocationInfo info;
    if (!dev->allocator().Lookup(ptr, &info)) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is device memory that is not allocated", ptr));
    }
    attributes->location.type = npurt::core::ManagedRegistry::Get().IsManaged(ptr) ? ACL_MEM_LOCATION_TYPE_MANAGED
                                                                                    : ACL_MEM_LOCATION_TYPE_DEVICE;
    attributes->location.id = static_cast<uint32_t>(dev->id());
    npurt::core::LiveAllocation block;
    if (dev->allocator().LookupBlock(ptr, &block)) {
      attributes->pageSize = static_cast<uint32_t>(npurt::core::alloc::PageSizeOf(block.kind));  // the block's pool
    } else {
      attributes->pageSize = 2u << 20;  // VMM mappings: 2 MiB pages
    }
  } else if (npurt::core::PinnedHost::Get().IsPinned(ptr, 1)) {
    attributes->location.type = ACL_MEM_LOCATION_TYPE_HOST;
    attributes->pageSize = 4096;
  } else {
    attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
    attributes->pageSize = 4096;
  }
  return ACL_SUCCESS;
}

aclError aclrtMemFlush(void* devPtr, size_t size) {
  NPURT_HANDLE_SCOPE();
  // The sim's device memory is coherent: validate the range, nothing to flush.
  NPURT_API_ASSIGN(span, npurt::core::ResolveSpan(devPtr, size, "devPtr"));
  (void)span;
  return ACL_SUCCESS;
}

aclError aclrtMemInvalidate(void* devPtr, size_t size) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(span, npurt::core::ResolveSpan(devPtr, size, "devPtr"));
  (void)span;
  return ACL_SUCCESS;
}
