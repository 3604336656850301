#include "core/builtin_tasks.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/device.h"
#include "core/memory_ops.h"
#include "core/overflow.h"
#include "core/racecheck.h"
#include "core/stream.h"
#include "base/dtype.h"

namespace npurt::core {
namespace {

// --- reduce ----------------------------------------------------------------------------------------

struct ReduceArgs {
  void* dst;
  const void* src;
  size_t count;  // elements
  int32_t kind;
  int32_t dtype;
  bool saturate;           // device in SATURATION mode when submitted
  Device* check_overflow;  // the stream's overflow switch was on
};

// One element: integers saturate in SATURATION mode and wrap otherwise; floats become the largest
// finite value in SATURATION mode and Inf otherwise. Returns true if the element overflowed.
template <typename T>
bool CombineInt(T* d, T s, int32_t kind, bool saturate) {
  switch (kind) {
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM: {
      T r;
      const bool over = __builtin_add_overflow(*d, s, &r);
      if (over && saturate) r = (s > 0) ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
      *d = r;
      return over;
    }
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX: *d = *d > s ? *d : s; return false;
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN: *d = *d < s ? *d : s; return false;
    default: *d = *d == s ? 1 : 0; return false;
  }
}

float CombineFloat(float d, float s, int32_t kind) {
  switch (kind) {
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM: return d + s;
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX: return std::fmax(d, s);
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN: return std::fmin(d, s);
    default: return d == s ? 1.0f : 0.0f;
  }
}

template <typename T>
bool ReduceInts(const ReduceArgs& a) {
  auto* d = static_cast<T*>(a.dst);
  const auto* s = static_cast<const T*>(a.src);
  bool over = false;
  for (size_t i = 0; i < a.count; ++i) over |= CombineInt<T>(&d[i], s[i], a.kind, a.saturate);
  return over;
}

// Floats of storage type T (float, or a 16-bit encoding) computed in float and stored back.
template <typename T, typename ToFloat, typename FromFloat>
bool ReduceFloats(const ReduceArgs& a, float max_finite, ToFloat to_float, FromFloat from_float) {
  auto* d = static_cast<T*>(a.dst);
  const auto* s = static_cast<const T*>(a.src);
  bool over = false;
  for (size_t i = 0; i < a.count; ++i) {
    const float x = to_float(d[i]);
    const float y = to_float(s[i]);
    float r = CombineFloat(x, y, a.kind);
    // Overflow: finite operands, a result beyond the type's range (float: Inf; 16-bit: > max).
    if (std::isfinite(x) && std::isfinite(y) && !(std::fabs(r) <= max_finite)) {
      over = true;
      if (a.saturate && !std::isnan(r)) r = std::copysign(max_finite, r);
    }
    d[i] = from_float(r);
  }
  return over;
}

int32_t RunReduce(void* arg) {
  const auto& a = *static_cast<ReduceArgs*>(arg);
  bool over = false;
  switch (a.dtype) {
    case ACL_INT8: over = ReduceInts<int8_t>(a); break;
    case ACL_INT16: over = ReduceInts<int16_t>(a); break;
    case ACL_INT32: over = ReduceInts<int32_t>(a); break;
    case ACL_INT64: over = ReduceInts<int64_t>(a); break;
    case ACL_UINT8: over = ReduceInts<uint8_t>(a); break;
    case ACL_UINT16: over = ReduceInts<uint16_t>(a); break;
    case ACL_UINT32: over = ReduceInts<uint32_t>(a); break;
    case ACL_UINT64: over = ReduceInts<uint64_t>(a); break;
    case ACL_FLOAT:
      over = ReduceFloats<float>(a, std::numeric_limits<float>::max(), [](float v) { return v; },
                                 [](float v) { return v; });
      break;
    case ACL_FLOAT16:
      over = ReduceFloats<uint16_t>(a, 65504.0f, npurt::HalfToFloat, npurt::FloatToHalf);
      break;
    case ACL_BF16:
      over = ReduceFloats<uint16_t>(a, npurt::Bf16ToFloat(0x7f7f), npurt::Bf16ToFloat, npurt::FloatToBf16);
      break;
    default: return ACL_ERROR_RT_PARAM_INVALID;  // rejected at submission
  }
  if (over && a.check_overflow != nullptr) RaiseOverflow(a.check_overflow);
  return 0;
}

Status CheckDeviceRange(const void* ptr, size_t size, const char* what) {
  auto span = ResolveSpan(ptr, size, what);
  if (!span.ok()) return span.status();
  if (span->device == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} {} is not device memory", what, ptr);
  return Status::Ok();
}

// --- descriptors -----------------------------------------------------------------------------------

constexpr uint32_t kCmoDescMagic = 0x4e50434d;     // "NPCM"
constexpr uint32_t kMemcpyDescMagic = 0x4e504d44;  // "NPMD"

struct CmoDesc {
  uint32_t magic;
  uint32_t reserved;
  const void* src;
  uint64_t size;
};
struct MemcpyDesc {
  uint32_t magic;
  int32_t kind;
  const void* src;
  void* dst;
  uint64_t count;
};
static_assert(sizeof(CmoDesc) <= kCmoDescBytes && sizeof(MemcpyDesc) <= kMemcpyDescBytes);

struct DescCopyArgs {
  const void* desc;
};

int32_t RunDescCopy(void* arg) {
  MemcpyDesc d;
  std::memcpy(&d, static_cast<DescCopyArgs*>(arg)->desc, sizeof d);
  if (d.magic != kMemcpyDescMagic) return ACL_ERROR_RT_PARAM_INVALID;
  std::memmove(d.dst, d.src, d.count);
  return 0;
}

struct OffsetCopyArgs {
  void** dst;
  const void** src;
  size_t dest_max;
  size_t dst_offset;
  size_t src_offset;
  size_t count;
};

int32_t RunOffsetCopy(void* arg) {
  const auto& a = *static_cast<OffsetCopyArgs*>(arg);
  auto* dst = static_cast<uint8_t*>(__atomic_load_n(a.dst, __ATOMIC_ACQUIRE));
  const auto* src = static_cast<const uint8_t*>(__atomic_load_n(a.src, __ATOMIC_ACQUIRE));
  // The pointers are data of the stream: check them now (device memory, inside one allocation), as a
  // DMA engine would fault.
  auto device_range = [&](const void* p, const char* what) {
    auto span = ResolveSpan(p, a.count, what);
    return span.ok() && span->device != nullptr;
  };
  if (dst == nullptr || src == nullptr || !device_range(dst + a.dst_offset, "dst") ||
      !device_range(src + a.src_offset, "src")) {
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  std::memmove(dst + a.dst_offset, src + a.src_offset, a.count);
  return 0;
}

}  // namespace

void SubmitComputeTask(Stream* stream, int32_t (*fn)(void*), void* args, void (*free_args)(void*)) {
  SubmitComputeTask(stream, fn, args, free_args, 0);
}

void SubmitComputeTask(Stream* stream, int32_t (*fn)(void*), void* args, void (*free_args)(void*),
                       uint32_t task_id) {
  hal::Task t;
  t.kind = hal::TaskKind::kCompute;
  t.id = task_id;
  t.compute_fn = fn;
  t.host_arg = args;
  t.cleanup = free_args;
  t.cleanup_arg = args;
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
  if (racecheck::On()) [[unlikely]] racecheck::DeclareCompute("aclrtReduceAsync", {{src, bytes}}, {{dst, bytes}});
  auto* a = new ReduceArgs{dst, src, bytes / elem, kind, dtype, Saturating(),
                           OverflowChecked(stream) ? stream->device() : nullptr};
  SubmitCompute(stream, &RunReduce, a);
  return Status::Ok();
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
  auto span = ResolveSpan(desc, kCmoDescBytes, "cmoDesc");
  if (!span.ok()) return span.status();
  CmoDesc d{kCmoDescMagic, 0, src, size};
  std::memset(desc, 0, kCmoDescBytes);
  std::memcpy(desc, &d, sizeof d);
  return Status::Ok();
}

Status SubmitCacheOpWithDesc(Stream* stream, const void* desc, int32_t cmo_type) {
  auto span = ResolveSpan(desc, kCmoDescBytes, "cmoDesc");
  if (!span.ok()) return span.status();
  CmoDesc d;
  std::memcpy(&d, desc, sizeof d);
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
  NPURT_RETURN_IF_ERROR(ResolveSpan(desc, kMemcpyDescBytes, "desc").status());
  MemcpyDesc d{kMemcpyDescMagic, kind, src, dst, count};
  std::memset(desc, 0, kMemcpyDescBytes);
  std::memcpy(desc, &d, sizeof d);
  return Status::Ok();
}

Status SubmitMemcpyWithDesc(Stream* stream, const void* desc, int32_t /*kind*/) {
  NPURT_RETURN_IF_ERROR(ResolveSpan(desc, kMemcpyDescBytes, "desc").status());
  MemcpyDesc d;
  std::memcpy(&d, desc, sizeof d);
  if (d.magic != kMemcpyDescMagic) {
    return Err(ACL_ERROR_INVALID_PARAM, "desc {} was not set by aclrtSetMemcpyDesc", desc);
  }
  SubmitCompute(stream, &RunDescCopy, new DescCopyArgs{desc});
  return Status::Ok();
}

Status SubmitMemcpyWithOffset(Stream* stream, void** dst, size_t dest_max, size_t dst_offset, const void** src,
                              size_t count, size_t src_offset, int32_t /*kind*/) {
  if (dst == nullptr || src == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "dst and src must not be null");
  if (count == 0) return Err(ACL_ERROR_INVALID_PARAM, "count is 0");
  if (count > dest_max) return Err(ACL_ERROR_INVALID_PARAM, "count {} exceeds destMax {}", count, dest_max);
  NPURT_RETURN_IF_ERROR(ResolveSpan(dst, sizeof(void*), "dst").status());
  NPURT_RETURN_IF_ERROR(ResolveSpan(src, sizeof(void*), "src").status());
  SubmitCompute(stream, &RunOffsetCopy, new OffsetCopyArgs{dst, src, dest_max, dst_offset, src_offset, count});
  return Status::Ok();
}

}  // namespace npurt::core
