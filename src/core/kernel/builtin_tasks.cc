#include "core/kernel/builtin_tasks.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/kernel/builtin_dispatch.h"
#include "core/device.h"
#include "core/memory/memory_ops.h"
#include "core/kernel/overflow.h"
#include "core/racecheck/racecheck.h"
#include "core/stream.h"
#include "base/dtype.h"

namespace npurt::core {
namespace {

Status CheckDeviceRange(const void* ptr, size_t size, const char* what) {
  auto span = ResolveSpan(ptr, size, what);
  if (!span.ok()) return span.status();
  if (span->device == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} {} is not device memory", what, ptr);
  return Status::Ok();
}

// --- descriptors -----------------------------------------------------------------------------------

constexpr uint32_t kCmoDescMagic = 0x4e50434d;  // "NPCM"

struct CmoDesc {
  uint32_t magic;
  uint32_t reserved;
  const void* src;
  uint64_t size;
};
using MemcpyDesc = hal::CopyDescriptor;  // the device reads it when the copy runs (hal/builtins.h)
static_assert(sizeof(CmoDesc) <= kCmoDescBytes && sizeof(MemcpyDesc) <= kMemcpyDescBytes);

}  // namespace

std::string KnownMemoryOperand(const void* addr, uint64_t size) {
  auto span = ResolveSpan(addr, size, "operand");
  return span.ok() ? std::string() : span.status().message();
}

std::string DeviceMemoryOperand(const void* addr, uint64_t size) {
  auto span = ResolveSpan(addr, size, "operand");
  if (!span.ok()) return span.status().message();
  return span->device != nullptr ? std::string() : fmt::format("{} is host memory", addr);
}

void SubmitDispatch(Stream* stream, hal::Dispatch* dispatch, hal::CleanupFn cleanup, void* cleanup_arg,
                    uint32_t task_id) {
  hal::Task t;
  t.kind = hal::TaskKind::kDispatch;
  t.id = task_id;
  t.dispatch = dispatch;
  t.cleanup = cleanup;
  t.cleanup_arg = cleanup_arg;
  stream->Submit(t);
}

namespace {

struct HostWork {
  void (*fn)(void*);
  void* arg;
  void (*free_arg)(void*);
};

void RunHostWork(void* p, hal::Queue* queue) {
  auto* w = static_cast<HostWork*>(p);
  w->fn(w->arg);
  queue->CompleteHostTask(0);
}

void FreeHostWork(void* p) {
  auto* w = static_cast<HostWork*>(p);
  w->free_arg(w->arg);
  delete w;
}

}  // namespace

void SubmitHostWorkTask(Stream* stream, void (*fn)(void*), void* arg, void (*free_arg)(void*)) {
  auto* w = new HostWork{fn, arg, free_arg};
  hal::Task t;
  t.kind = hal::TaskKind::kHostFunc;
  t.host_fn = &RunHostWork;
  t.host_arg = w;
  t.cleanup = &FreeHostWork;
  t.cleanup_arg = w;
  stream->Submit(t);
}

void SubmitOrderingPoint(Stream* stream) {
  hal::Task t;
  t.kind = hal::TaskKind::kNop;
  stream->Submit(t);
}

void SubmitValueWrite(Stream* stream, void* addr, uint64_t value) {
  hal::Task t;
  t.kind = hal::TaskKind::kValueWrite;
  t.dst = addr;
  t.value = value;
  stream->Submit(t);
}

void SubmitValueWait(Stream* stream, void* addr, uint64_t value, uint32_t compare, uint64_t timeout_ns) {
  hal::Task t;
  t.kind = hal::TaskKind::kValueWait;
  t.dst = addr;
  t.value = value;
  t.aux = compare;
  t.timeout_ns = timeout_ns;
  stream->Submit(t);
}

void SubmitInjectedFailure(Stream* stream, int32_t code) {
  hal::Task t;
  t.kind = hal::TaskKind::kFail;
  t.aux = static_cast<uint32_t>(code);
  stream->Submit(t);
}

// Element size of a reducible type (the integers and the float types but double and bool), 0 for the others.
size_t ReduceElementSize(int32_t dtype) {
  return dtype == ACL_DOUBLE || dtype == ACL_BOOL ? 0 : DTypeSize(dtype);
}

bool ReduceDtypeSupported(int32_t dtype) { return ReduceElementSize(dtype) != 0; }

Status SubmitReduce(Stream* stream, void* dst, const void* src, uint64_t bytes, int32_t kind, int32_t dtype) {
  if (kind < ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM || kind > ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL) {
    return Err(ACL_ERROR_INVALID_PARAM, "reduce kind {} is not an aclrtReduceKind (10..13)", kind);
  }
  if (!ReduceDtypeSupported(dtype)) {
    return Err(ACL_ERROR_INVALID_PARAM, "reduce data type {} is not supported (int8/16/32/64, uint8/16/32/64, "
               "float, float16, bf16)", dtype);
  }
  const size_t elem = ReduceElementSize(dtype);
  if (bytes == 0 || bytes % elem != 0) {
    return Err(ACL_ERROR_INVALID_PARAM, "count {} (bytes) is not a positive multiple of the {}-byte element", bytes,
               elem);
  }
  NPURT_RETURN_IF_ERROR(CheckDeviceRange(dst, bytes, "dst"));
  NPURT_RETURN_IF_ERROR(CheckDeviceRange(src, bytes, "src"));
  if (racecheck::On()) [[unlikely]] racecheck::DeclareDispatch("aclrtReduceAsync", {{src, bytes}}, {{dst, bytes}});
  hal::ReduceParams params;
  params.op = static_cast<hal::ReduceOp>(kind - ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM);
  params.dtype = dtype;
  params.count = bytes / elem;
  auto* r = NewBuiltinRun(params, "aclrtReduceAsync");
  r->inputs[0] = src;
  r->outputs[0] = dst;
  r->dispatch.num_inputs = 1;
  r->dispatch.num_outputs = 1;
  r->dispatch.saturate = Saturating();
  if (OverflowChecked(stream)) {
    r->dispatch.check_overflow = true;
    r->raise_overflow = stream->device();
  }
  return SubmitBuiltin(stream, hal::Builtin::kReduce, r);
}

Status SubmitCacheOp(Stream* stream, const void* ptr, size_t size, int32_t cmo_type) {
  if (cmo_type < ACL_RT_CMO_TYPE_PREFETCH || cmo_type > ACL_RT_CMO_TYPE_FLUSH) {
    return Err(ACL_ERROR_INVALID_PARAM, "cache operation {} is not an aclrtCmoType (0..3)", cmo_type);
  }
  if (size == 0) return Err(ACL_ERROR_INVALID_PARAM, "size is 0");
  NPURT_RETURN_IF_ERROR(CheckDeviceRange(ptr, size, "src"));
  hal::Task t;
  t.kind = hal::TaskKind::kNop;  // no cache on the simulated device; the task keeps the stream's order
  stream->Submit(t);
  return Status::Ok();
}

Status WriteCmoDesc(void* desc, void* src, size_t size) {
  if (desc == nullptr || src == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "cmoDesc and src must not be null");
  if (size == 0) return Err(ACL_ERROR_INVALID_PARAM, "size is 0");
  NPURT_RETURN_IF_ERROR(CheckDeviceRange(src, size, "src"));
  // The descriptor is device memory: written through the device, as a whole (its tail zeroed).
  uint8_t bytes[kCmoDescBytes] = {};
  const CmoDesc d{kCmoDescMagic, 0, src, size};
  std::memcpy(bytes, &d, sizeof d);
  return WriteMemory(desc, bytes, sizeof bytes, "cmoDesc");
}

Status SubmitCacheOpWithDesc(Stream* stream, const void* desc, int32_t cmo_type) {
  uint8_t bytes[kCmoDescBytes];
  NPURT_RETURN_IF_ERROR(ReadMemory(desc, sizeof bytes, bytes, "cmoDesc"));  // the whole descriptor must be there
  CmoDesc d;
  std::memcpy(&d, bytes, sizeof d);
  if (d.magic != kCmoDescMagic) return Err(ACL_ERROR_INVALID_PARAM, "cmoDesc {} was not set by aclrtCmoSetDesc", desc);
  return SubmitCacheOp(stream, d.src, d.size, cmo_type);
}

Status WriteMemcpyDesc(void* desc, int32_t kind, void* src, void* dst, size_t count) {
  if (desc == nullptr || src == nullptr || dst == nullptr) {
    return Err(ACL_ERROR_INVALID_PARAM, "desc, srcAddr and dstAddr must not be null");
  }
  if (count == 0) return Err(ACL_ERROR_INVALID_PARAM, "count is 0");
  NPURT_RETURN_IF_ERROR(ResolveSpan(src, count, "srcAddr").status());
  NPURT_RETURN_IF_ERROR(ResolveSpan(dst, count, "dstAddr").status());
  uint8_t bytes[kMemcpyDescBytes] = {};
  const MemcpyDesc d{hal::kCopyDescriptorMagic, kind, src, dst, count};
  std::memcpy(bytes, &d, sizeof d);
  return WriteMemory(desc, bytes, sizeof bytes, "desc");
}

Status SubmitMemcpyWithDesc(Stream* stream, const void* desc, int32_t /*kind*/) {
  uint8_t bytes[kMemcpyDescBytes];
  NPURT_RETURN_IF_ERROR(ReadMemory(desc, sizeof bytes, bytes, "desc"));  // the whole descriptor must be there
  MemcpyDesc d;
  std::memcpy(&d, bytes, sizeof d);
  if (d.magic != hal::kCopyDescriptorMagic) {
    return Err(ACL_ERROR_INVALID_PARAM, "desc {} was not set by aclrtSetMemcpyDesc", desc);
  }
  auto* r = NewBuiltinRun(hal::CopyDescriptor{}, "aclrtMemcpyAsyncWithDesc");  // (its block is unused)
  r->dispatch.params = nullptr;
  r->dispatch.params_size = 0;
  r->inputs[0] = desc;
  r->dispatch.num_inputs = 1;
  return SubmitBuiltin(stream, hal::Builtin::kDescriptorCopy, r);
}

Status SubmitMemcpyWithOffset(Stream* stream, void** dst, size_t dest_max, size_t dst_offset, const void** src,
                              size_t count, size_t src_offset, int32_t /*kind*/) {
  if (dst == nullptr || src == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "dst and src must not be null");
  if (count == 0) return Err(ACL_ERROR_INVALID_PARAM, "count is 0");
  if (count > dest_max) return Err(ACL_ERROR_INVALID_PARAM, "count {} exceeds destMax {}", count, dest_max);
  NPURT_RETURN_IF_ERROR(ResolveSpan(dst, sizeof(void*), "dst").status());
  NPURT_RETURN_IF_ERROR(ResolveSpan(src, sizeof(void*), "src").status());
  hal::IndirectCopyParams params;
  params.dst_slot = dst;
  params.src_slot = src;
  params.dst_offset = dst_offset;
  params.src_offset = src_offset;
  params.count = count;
  auto* r = NewBuiltinRun(params, "aclrtMemcpyAsyncWithOffset");
  r->dispatch.check_memory = &DeviceMemoryOperand;
  return SubmitBuiltin(stream, hal::Builtin::kIndirectCopy, r);
}

}  // namespace npurt::core
