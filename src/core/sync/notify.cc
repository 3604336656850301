#include "core/sync/notify.h"

#include <utility>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/device.h"
#include "core/sync/event.h"
#include "core/handle_tags.h"
#include "core/racecheck/racecheck.h"
#include "core/stream.h"

namespace npurt::core {
namespace {
std::atomic<uint32_t> g_next_notify_id{0};
}

Notify::Notify(Device* device, uint64_t flags, std::unique_ptr<hal::Flag> flag)
    : HandleObject(handle_tags::kNotify),
      device_(device),
      flags_(flags),
      id_(g_next_notify_id.fetch_add(1, std::memory_order_relaxed)),
      signal_(std::move(flag)) {}

StatusOr<Notify*> Notify::Create(Device* device, uint64_t flags) {
  Notify* n = NewHandle<Notify>(device, flags, device->hal()->CreateFlag());
  if (n == nullptr) return Err(ACL_ERROR_RT_NO_NOTIFY_RESOURCE, "out of handle slots for notifies");
  return n;
}

StatusOr<Notify*> Notify::CreateShared(Device* device, std::unique_ptr<hal::Flag> flag) {
  Notify* n = NewHandle<Notify>(device, 0, std::move(flag));
  if (n == nullptr) return Err(ACL_ERROR_RT_NO_NOTIFY_RESOURCE, "out of handle slots for notifies");
  return n;
}

Status Notify::ShareFlag() {
  if (signal_.shared_flag() == nullptr && !signal_.Idle()) {
    // A fresh shared flag starts at zero: unconsumed records or pending tasks would be lost.
    return Err(ACL_ERROR_INVALID_PARAM, "notify {} has unconsumed records or unfinished tasks; share it before "
               "using it, or once its streams are idle and every record was waited for", id_);
  }
  return signal_.MoveToSharedFlag(device_->hal());
}

Notify::~Notify() {
  if (racecheck::On()) [[unlikely]] {
    racecheck::OnSyncObjectDestroyed(signal_.flag());
    if (signal_.retired_flag() != nullptr) racecheck::OnSyncObjectDestroyed(signal_.retired_flag());
  }
}

Status Notify::Record(Stream* stream) {
  hal::Task t = signal_.RecordTask();
  RetainForTask(t, this);
  stream->Submit(t);
  return Status::Ok();
}

Status Notify::WaitAndReset(Stream* stream, uint32_t timeout_ms) {
  hal::Task t = signal_.ConsumeTask(static_cast<uint64_t>(timeout_ms) * 1000000ull);
  RetainForTask(t, this);
  stream->Submit(t);
  return Status::Ok();
}

void Notify::Reset() { signal_.ConsumeAll(); }

void Notify::Destroy() {
  if (!Invalidate()) return;
  Release();
}

}  // namespace npurt::core
