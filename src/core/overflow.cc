#include "core/overflow.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/builtin_tasks.h"
#include "core/device.h"
#include "core/memory_ops.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "base/dtype.h"

namespace npurt::core {
namespace {

struct ReadArgs {
  Device* device;
  void* out;
  size_t size;
};

int32_t ReadStatus(void* arg) {
  auto* a = static_cast<ReadArgs*>(arg);
  const uint32_t status = a->device->overflow_status.load(std::memory_order_acquire);
  std::memset(a->out, 0, a->size);
  std::memcpy(a->out, &status, std::min(a->size, sizeof status));
  return 0;
}

int32_t ClearStatus(void* arg) {
  static_cast<Device*>(arg)->overflow_status.store(0, std::memory_order_release);
  return 0;
}

template <typename Load>
bool AnyNonFinite(const void* data, size_t count, size_t elem, Load load) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < count; ++i) {
    if (!std::isfinite(load(p + i * elem))) return true;
  }
  return false;
}

}  // namespace

bool OverflowChecked(const Stream* stream) {
  return stream->overflow_switch.load(std::memory_order_relaxed) != 0;
}

bool Saturating() { return Runtime::Get().sat_mode.load() == ACL_RT_OVERFLOW_MODE_SATURATION; }

void RaiseOverflow(Device* device) { device->overflow_status.fetch_or(kOverflowFloat, std::memory_order_acq_rel); }

bool HasNonFinite(const void* data, size_t count, int32_t dtype) {
  switch (dtype) {
    case ACL_FLOAT:
      return AnyNonFinite(data, count, 4, [](const uint8_t* p) {
        float v;
        std::memcpy(&v, p, 4);
        return v;
      });
    case ACL_DOUBLE:
      return AnyNonFinite(data, count, 8, [](const uint8_t* p) {
        double v;
        std::memcpy(&v, p, 8);
        return v;
      });
    case ACL_FLOAT16:
    case ACL_BF16:
      return AnyNonFinite(data, count, 2, [dtype](const uint8_t* p) {
        uint16_t v;
        std::memcpy(&v, p, 2);
        return dtype == ACL_FLOAT16 ? npurt::HalfToFloat(v) : npurt::Bf16ToFloat(v);
      });
    default:
      return false;
  }
}

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
  SubmitCompute(stream, &ReadStatus, new ReadArgs{stream->device(), out, size});
  return Status::Ok();
}

Status SubmitOverflowReset(Stream* stream) {
  hal::Task t;
  t.kind = hal::TaskKind::kCompute;
  t.compute_fn = &ClearStatus;
  t.host_arg = stream->device();
  stream->Submit(t);
  return Status::Ok();
}

}  // namespace npurt::core
