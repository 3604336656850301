#include "core/notify.h"

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/device.h"
#include "core/event.h"
#include "core/stream.h"

namespace npurt::core {
namespace {
std::atomic<uint32_t> g_next_notify_id{0};
}

Notify::Notify(Device* device, uint64_t flags)
    : HandleObject(HandleTag::kNotify),
      device_(device),
      flags_(flags),
      id_(g_next_notify_id.fetch_add(1, std::memory_order_relaxed)),
      flag_(device->hal()->CreateFlag()) {}

StatusOr<Notify*> Notify::Create(Device* device, uint64_t flags) {
  Notify* n = NewHandle<Notify>(device, flags);
  if (n == nullptr) return Err(ACL_ERROR_RT_NO_NOTIFY_RESOURCE, "out of handle slots for notifies");
  return n;
}

Status Notify::Record(Stream* stream) {
  hal::Task t;
  t.kind = hal::TaskKind::kFlagSignal;
  t.flag = flag_.get();
  t.value = records_.fetch_add(1, std::memory_order_acq_rel) + 1;
  RetainForTask(t, this);
  stream->Submit(t);
  return Status::Ok();
}

Status Notify::WaitAndReset(Stream* stream, uint32_t timeout_ms) {
  hal::Task t;
  t.kind = hal::TaskKind::kFlagWait;
  t.flag = flag_.get();
  t.value = waits_.fetch_add(1, std::memory_order_acq_rel) + 1;
  t.timeout_ns = static_cast<uint64_t>(timeout_ms) * 1000000ull;
  RetainForTask(t, this);
  stream->Submit(t);
  return Status::Ok();
}

void Notify::Reset() {
  // Pretend every outstanding record was consumed: later waits need new records.
  uint64_t r = records_.load(std::memory_order_acquire);
  uint64_t w = waits_.load(std::memory_order_acquire);
  while (w < r && !waits_.compare_exchange_weak(w, r, std::memory_order_acq_rel)) {
  }
}

void Notify::Destroy() {
  if (!Invalidate()) return;
  Release();
}

}  // namespace npurt::core
