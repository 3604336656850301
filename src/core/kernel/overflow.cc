#include "core/kernel/overflow.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/kernel/builtin_tasks.h"
#include "core/device.h"
#include "core/memory/memory_ops.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "base/dtype.h"

namespace npurt::core {
namespace {

}  // namespace

bool OverflowChecked(const Stream* stream) {
  return stream->overflow_switch.load(std::memory_order_relaxed) != 0;
}

bool Saturating() { return Runtime::Get().sat_mode.load() == ACL_RT_OVERFLOW_MODE_SATURATION; }

void RaiseOverflow(Device* device) { device->overflow_status.fetch_or(kOverflowFloat, std::memory_order_acq_rel); }

Status SubmitOverflowRead(Stream* stream, void* out, size_t size) {
  if (out == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "outputAddr is a null pointer");
  if (size < sizeof(uint32_t)) {
    return Err(ACL_ERROR_INVALID_PARAM, "outputSize {} is too small for the 4-byte overflow status", size);
  }
  auto span = ResolveSpan(out, size, "outputAddr");
  if (!span.ok()) return span.status();
  if (span->device == nullptr) {
    return Err(ACL_ERROR_INVALID_PARAM, "outputAddr {} is not device memory (aclrtMalloc)", out);
  }
  // The status's low 32 bits (little-endian) into the first four bytes, zeros after them: two device
  // tasks, ordered after the work whose overflow they report.
  static_assert(std::endian::native == std::endian::little);
  hal::Task copy;
  copy.kind = hal::TaskKind::kCopy;
  copy.dst = out;
  copy.src = &stream->device()->overflow_status;
  copy.size = sizeof(uint32_t);
  stream->Submit(copy);
  if (size > sizeof(uint32_t)) {
    hal::Task zeros;
    zeros.kind = hal::TaskKind::kFill8;
    zeros.dst = static_cast<uint8_t*>(out) + sizeof(uint32_t);
    zeros.size = size - sizeof(uint32_t);
    stream->Submit(zeros);
  }
  return Status::Ok();
}

Status SubmitOverflowReset(Stream* stream) {
  static_assert(sizeof(Device::overflow_status) == sizeof(uint64_t));
  SubmitValueWrite(stream, &stream->device()->overflow_status, 0);
  return Status::Ok();
}

}  // namespace npurt::core
