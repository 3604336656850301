#include "core/memory/memory_ops.h"

#include <cstdlib>
#include <cstring>

#include "acl/acl_rt.h"
#include "base/device_copy.h"
#include "core/context.h"
#include "core/device.h"
#include "core/model_ri/model_ri_capture.h"
#include "core/memory/mem_pinned_host.h"
#include "core/racecheck/racecheck.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/memory/sync_copy_order.h"
#include "hal/hal.h"

namespace npurt::core {

void FreeStaging(void* p) { std::free(p); }

namespace {

const char* KindName(int32_t kind) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: return "ACL_MEMCPY_HOST_TO_HOST";
    case ACL_MEMCPY_HOST_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_DEVICE";
    case ACL_MEMCPY_DEVICE_TO_HOST: return "ACL_MEMCPY_DEVICE_TO_HOST";
    case ACL_MEMCPY_DEVICE_TO_DEVICE: return "ACL_MEMCPY_DEVICE_TO_DEVICE";
    case ACL_MEMCPY_DEFAULT: return "ACL_MEMCPY_DEFAULT";
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE";
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE: return "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE";
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: return "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE";
    default: return "an unknown kind";
  }
}

// Checks that the pointers' sides match `kind`; DEFAULT accepts whatever the pointers are.
Status CheckDirection(int32_t kind, const MemSpan& dst, const MemSpan& src) {
  bool want_dst_dev = false;
  bool want_src_dev = false;
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: want_dst_dev = true; break;
    case ACL_MEMCPY_DEVICE_TO_HOST: want_src_dev = true; break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: want_dst_dev = want_src_dev = true; break;
    case ACL_MEMCPY_DEFAULT: return Status::Ok();
    default: return Err(ACL_ERROR_INVALID_PARAM, "memcpy kind {} is not a valid aclrtMemcpyKind", kind);
  }
  if ((dst.device != nullptr) != want_dst_dev) {
    return Err(ACL_ERROR_INVALID_PARAM, "kind {} needs {} memory as dst, but dst {} is {} memory", KindName(kind),
               want_dst_dev ? "device" : "host", dst.ptr, dst.device ? "device" : "host");
  }
  if ((src.device != nullptr) != want_src_dev) {
    return Err(ACL_ERROR_INVALID_PARAM, "kind {} needs {} memory as src, but src {} is {} memory", KindName(kind),
               want_src_dev ? "device" : "host", src.ptr, src.device ? "device" : "host");
  }
  if (kind == ACL_MEMCPY_INNER_DEVICE_TO_DEVICE && dst.device != src.device) {
    return Err(ACL_ERROR_INVALID_PARAM, "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE between devices {} and {}",
               src.device->id(), dst.device->id());
  }
  return Status::Ok();
}

// A copy between two devices needs peer access enabled from the device issuing it.
Status CheckPeer(const MemSpan& dst, const MemSpan& src, Device* issuing) {
  if (dst.device == nullptr || src.device == nullptr || dst.device == src.device) return Status::Ok();
  Device* other = issuing == src.device ? dst.device : src.device;
  Device* self = issuing != nullptr ? issuing : src.device;
  if (!self->peer_enabled(other->id()) && !other->peer_enabled(self->id())) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
               "copy between device {} and device {} needs peer access: call aclrtDeviceEnablePeerAccess first",
               src.device->id(), dst.device->id());
  }
  return Status::Ok();
}

Device* IssuingDevice(Stream* stream) {
  if (stream != nullptr) return stream->device();
  Context* c = CurrentContext();
  return c != nullptr ? c->device() : nullptr;
}

// The device that runs a synchronous copy or fill (hal::Device::CopyNow, FillNow): the one whose memory is
// written, else the one read. Host-to-host work needs none (nullptr).
hal::Device* SyncEngine(const MemSpan& dst, const MemSpan& src) {
  Device* d = dst.device != nullptr ? dst.device : src.device;
  return d != nullptr ? d->hal() : nullptr;
}

// A synchronous copy from device memory goes after the kernels in flight that write it
// (core/memory/sync_copy_order.h).
void OrderSyncRead(const char* api, const MemSpan& src) {
  if (src.device != nullptr) OrderAfterKernelsWriting(api, src.device, src.alloc_base, src.alloc_size);
}

}  // namespace

StatusOr<MemSpan> ResolveSpan(const void* ptr, size_t size, const char* what) {
  return ResolveSpanFor(ptr, size, what, std::strcmp(what, "src") != 0);
}

Status ReadMemory(const void* src, size_t size, void* host_dst, const char* what) {
  auto s = ResolveSpanFor(src, size, what, /*writes=*/false);
  if (!s.ok()) return s.status();
  if (size == 0) return Status::Ok();
  if (s->device != nullptr) return s->device->hal()->CopyNow(host_dst, src, size);
  std::memcpy(host_dst, src, size);
  return Status::Ok();
}

Status WriteMemory(void* dst, const void* host_src, size_t size, const char* what) {
  auto d = ResolveSpanFor(dst, size, what, /*writes=*/true);
  if (!d.ok()) return d.status();
  if (size == 0) return Status::Ok();
  if (d->device != nullptr) return d->device->hal()->CopyNow(dst, host_src, size);
  std::memcpy(dst, host_src, size);
  return Status::Ok();
}

StatusOr<MemSpan> ResolveSpanFor(const void* ptr, size_t size, const char* what, bool writes) {
  if (ptr == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", what);
  MemSpan span;
  span.ptr = const_cast<void*>(ptr);
  Device* dev = Runtime::Get().DeviceOwning(ptr);
  if (dev == nullptr) {
    span.pinned = PinnedHost::Get().IsPinned(ptr, size);
    return span;
  }
  AllocationInfo info;
  if (!dev->allocator().Lookup(ptr, &info)) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} {} is device memory of device {} that is not allocated (freed or never "
               "allocated)", what, ptr, dev->id());
  }
  if (info.read_only && writes) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} {} is mapped read-only (see aclrtMemSetAccess)", what, ptr);
  }
  const auto p = reinterpret_cast<uintptr_t>(ptr);
  if (size > info.base + info.size - p) {
    return Err(ACL_ERROR_INVALID_PARAM,
               "{} range [{}, +{}) overruns its allocation at {:#x} of {} bytes (only {} bytes from {} to the end)",
               what, ptr, size, info.base, info.size, info.base + info.size - p, ptr);
  }
  span.device = dev;
  span.alloc_base = info.base;
  span.alloc_size = info.size;
  return span;
}

namespace {

// The copy path every copy takes once validated (aclrtMemcpy, aclrtMemcpyAsync, their 2D forms): `height`
// rows of `width` bytes (one row: a 1D copy). Without a stream it runs now, after the kernels in flight
// that write its source, on the device whose memory it writes (or reads). On a stream it is a task: a
// pageable source is staged first (the caller may reuse it as soon as the call returns), a pageable
// destination is written by the time the call returns (as with CUDA), and neither may be captured.
struct CopyShape {
  void* dst;
  size_t dpitch;
  const void* src;
  size_t spitch;
  size_t width;
  size_t height;
  size_t dst_extent() const { return dpitch * (height - 1) + width; }
  size_t src_extent() const { return spitch * (height - 1) + width; }
};

Status SubmitCopy(const char* api, const CopyShape& c, const MemSpan& d, const MemSpan& s, Stream* stream,
                  bool always_stage) {
  if (stream == nullptr) {
    if (racecheck::On()) [[unlikely]] racecheck::OnHostAccess(api, c.dst, c.dst_extent(), c.src, c.src_extent());
    OrderSyncRead(api, s);
    hal::Device* dev = SyncEngine(d, s);
    if (c.height == 1) {
      if (dev != nullptr) return dev->CopyNow(c.dst, c.src, c.width);
      CopyDeviceBytes(c.dst, c.src, c.width);  // host to host
      return Status::Ok();
    }
    if (dev != nullptr) return dev->Copy2dNow(c.dst, c.dpitch, c.src, c.spitch, c.width, c.height);
    CopyDeviceRows(c.dst, c.dpitch, c.src, c.spitch, c.width, c.height);  // host to host
    return Status::Ok();
  }
  hal::Task t;
  t.dst = c.dst;
  t.src = c.src;
  t.size = c.width;
  if (c.height == 1) {
    t.kind = hal::TaskKind::kCopy;
  } else {
    t.kind = hal::TaskKind::kCopy2d;
    t.dpitch = c.dpitch;
    t.spitch = c.spitch;
    t.height = c.height;
  }
  const bool src_host_pageable = s.device == nullptr && !s.pinned;
  const bool dst_host_pageable = d.device == nullptr && !d.pinned;
  if ((src_host_pageable || dst_host_pageable) && stream->recording() != nullptr &&
      stream->recording()->state() == ModelRI::State::kCapturing) {
    // Captured, the copy would read (or write) pageable memory at replay time, not now.
    NPURT_RETURN_IF_ERROR(CheckCaptureSafe("an asynchronous copy of pageable host memory",
                                           ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC));
  }
  if (src_host_pageable || always_stage) {
    const size_t bytes = c.src_extent();
    void* staging = std::malloc(bytes);
    if (staging == nullptr) return Err(ACL_ERROR_BAD_ALLOC, "cannot stage {} bytes for an asynchronous copy", bytes);
    std::memcpy(staging, c.src, bytes);
    t.src = staging;
    t.cleanup = &FreeStaging;
    t.cleanup_arg = staging;
  }
  const uint64_t seq = stream->Submit(t);
  if (dst_host_pageable) stream->queue()->WaitHost(seq, UINT64_MAX);
  return Status::Ok();
}

}  // namespace

Status Memcpy(void* dst, size_t dest_max, const void* src, size_t count, int32_t kind, Stream* stream) {
  if (dst == nullptr || src == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", dst ? "src" : "dst");
  if (count > dest_max) {
    return Err(ACL_ERROR_INVALID_PARAM, "count {} is larger than destMax {}", count, dest_max);
  }
  auto d = ResolveSpan(dst, count, "dst");
  if (!d.ok()) return d.status();
  auto s = ResolveSpan(src, count, "src");
  if (!s.ok()) return s.status();
  // aclrtMemcpy's kind is advisory on CANN 8 ("reserved; the runtime judges from the two pointers whether the
  // copy can be made"): a synchronous copy goes where the pointers say, whatever valid kind it names, as
  // CANN samples rely on (sampleResnetDVPP's Python copies DVPP memory with ACL_MEMCPY_HOST_TO_DEVICE).
  // Asynchronous copies keep checking the kind against the pointers.
  if (stream != nullptr) {
    NPURT_RETURN_IF_ERROR(CheckDirection(kind, d.value(), s.value()));
  } else if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE) {
    return Err(ACL_ERROR_INVALID_PARAM, "memcpy kind {} is not a valid aclrtMemcpyKind", kind);
  } else if (kind == ACL_MEMCPY_INNER_DEVICE_TO_DEVICE && d->device != nullptr && s->device != nullptr &&
             d->device != s->device) {
    // The one kind that states more than a direction: a copy inside one device.
    return Err(ACL_ERROR_INVALID_PARAM, "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE between devices {} and {}",
               s->device->id(), d->device->id());
  }
  NPURT_RETURN_IF_ERROR(CheckPeer(d.value(), s.value(), IssuingDevice(stream)));
  if (count == 0) return Status::Ok();
  // ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: staged through a host buffer whatever the source.
  return SubmitCopy("aclrtMemcpy", {dst, count, src, count, count, 1}, d.value(), s.value(), stream,
                    /*always_stage=*/kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE);
}

Status Memcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, int32_t kind,
                Stream* stream) {
  if (dst == nullptr || src == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", dst ? "src" : "dst");
  if (width == 0 || height == 0) return Err(ACL_ERROR_INVALID_PARAM, "width {} and height {} must be non-zero", width, height);
  if (width > dpitch || width > spitch) {
    return Err(ACL_ERROR_INVALID_PARAM, "width {} exceeds dpitch {} or spitch {}", width, dpitch, spitch);
  }
  if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST && kind != ACL_MEMCPY_DEVICE_TO_DEVICE &&
      kind != ACL_MEMCPY_HOST_TO_HOST && kind != ACL_MEMCPY_DEFAULT) {
    return Err(ACL_ERROR_INVALID_PARAM, "kind {} is not supported by aclrtMemcpy2d", KindName(kind));
  }
  const CopyShape shape{dst, dpitch, src, spitch, width, height};
  auto d = ResolveSpan(dst, shape.dst_extent(), "dst");
  if (!d.ok()) return d.status();
  auto s = ResolveSpan(src, shape.src_extent(), "src");
  if (!s.ok()) return s.status();
  NPURT_RETURN_IF_ERROR(CheckDirection(kind, d.value(), s.value()));
  NPURT_RETURN_IF_ERROR(CheckPeer(d.value(), s.value(), IssuingDevice(stream)));
  return SubmitCopy("aclrtMemcpy2d", shape, d.value(), s.value(), stream, /*always_stage=*/false);
}

namespace {

// `host_ok`: the synchronous fills accept any host memory, as CANN's do ("host or device memory, told
// apart by the address"); an asynchronous fill of pageable memory is refused (it would run after the call
// returned, when the memory may be gone).
StatusOr<MemSpan> ResolveFillTarget(void* dst, size_t bytes, bool host_ok) {
  auto d = ResolveSpan(dst, bytes, "devPtr");
  if (!d.ok()) return d;
  if (d->device == nullptr && !d->pinned && !host_ok) {
    return Err(ACL_ERROR_INVALID_PARAM, "devPtr {} is neither device memory nor host memory from aclrtMallocHost",
               dst);
  }
  return d;
}

}  // namespace

Status Memset(void* dst, size_t max_count, int32_t value, size_t count, Stream* stream) {
  if (dst == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "devPtr is a null pointer");
  if (count > max_count) return Err(ACL_ERROR_INVALID_PARAM, "count {} is larger than maxCount {}", count, max_count);
  auto d = ResolveFillTarget(dst, count, stream == nullptr);
  if (!d.ok()) return d.status();
  if (count == 0) return Status::Ok();
  if (stream == nullptr) {
    if (racecheck::On()) [[unlikely]] racecheck::OnHostAccess("aclrtMemset", dst, count, nullptr, 0);
    const auto byte = static_cast<uint8_t>(value & 0xff);
    if (d->device != nullptr) return d->device->hal()->FillNow(dst, count, byte, 1);
    FillDeviceBytes(dst, byte, count);  // host memory
    return Status::Ok();
  }
  hal::Task t;
  t.kind = hal::TaskKind::kFill8;
  t.dst = dst;
  t.size = count;
  t.value = static_cast<uint8_t>(value);
  stream->Submit(t);
  return Status::Ok();
}

Status MemsetD32(void* dst, size_t mem_size, uint32_t value, size_t count, Stream* stream) {
  if (dst == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "ptr is a null pointer");
  if (reinterpret_cast<uintptr_t>(dst) % 4 != 0) {
    return Err(ACL_ERROR_RT_ADDR_UNALIGNED, "ptr {} is not 4-byte aligned", dst);
  }
  if (count > mem_size / 4) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} 32-bit values do not fit in memSize {} bytes", count, mem_size);
  }
  auto d = ResolveFillTarget(dst, count * 4, stream == nullptr);
  if (!d.ok()) return d.status();
  if (count == 0) return Status::Ok();
  if (stream == nullptr) {
    if (racecheck::On()) [[unlikely]] racecheck::OnHostAccess("aclrtMemsetD32", dst, count * 4, nullptr, 0);
    if (d->device != nullptr) return d->device->hal()->FillNow(dst, count, value, 4);
    FillDeviceWords(static_cast<uint32_t*>(dst), value, count);  // host memory
    return Status::Ok();
  }
  hal::Task t;
  t.kind = hal::TaskKind::kFill32;
  t.dst = dst;
  t.size = count;
  t.value = value;
  stream->Submit(t);
  return Status::Ok();
}

}  // namespace npurt::core
