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
      flag_(std::move(flag)) {}

StatusOr<Notify*> Notify::Create(Device* device, uint64_t flags) {
  Notify* n = NewHandle<Notify>(device, flags, device->hal()->CreateFlag());
  if (n == nullptr) return Err(ACL_ERROR_RT_NO_NOTIFY_RESOURCE, "out of handle slots for notifies");
  return n;
}

StatusOr<Notify*> Notify::CreateShared(Device* device, std::unique_ptr<hal::Flag> flag) {
  Notify* n = NewHandle<Notify>(device, 0, std::move(flag));
  if (n == nullptr) return Err(ACL_ERROR_RT_NO_NOTIFY_RESOURCE, "out of handle slots for notifies");
  n->UseSharedCounters();
  return n;
}

void Notify::UseSharedCounters() {
  auto* words = reinterpret_cast<std::atomic<uint64_t>*>(flag_->shared_area());
  records_ = &words[0];
  waits_ = &words[1];
  shared_ = true;
}

Status Notify::ShareFlag() {
  if (shared_) return Status::Ok();
  const uint64_t records = records_->load(std::memory_order_acquire);
  if (waits_->load(std::memory_order_acquire) != records || flag_->value() != records) {
    // A fresh shared flag starts at zero: unconsumed records or pending tasks would be lost.
    return Err(ACL_ERROR_INVALID_PARAM, "notify {} has unconsumed records or unfinished tasks; share it before "
               "using it, or once its streams are idle and every record was waited for", id_);
  }
  auto shared = device_->hal()->CreateSharedFlag();
  if (!shared.ok()) return shared.status();
  retired_flag_ = std::move(flag_);
  flag_ = std::move(shared.value());
  UseSharedCounters();
  return Status::Ok();
}

Notify::~Notify() {
  if (racecheck::On()) [[unlikely]] {
    racecheck::OnSyncObjectDestroyed(flag_.get());
    if (retired_flag_ != nullptr) racecheck::OnSyncObjectDestroyed(retired_flag_.get());
  }
}

Status Notify::Record(Stream* stream) {
  hal::Task t;
  t.kind = hal::TaskKind::kFlagSignal;
  t.flag = flag_.get();
  t.value = records_->fetch_add(1, std::memory_order_acq_rel) + 1;
  RetainForTask(t, this);
  stream->Submit(t);
  return Status::Ok();
}

Status Notify::WaitAndReset(Stream* stream, uint32_t timeout_ms) {
  hal::Task t;
  t.kind = hal::TaskKind::kFlagWait;
  t.flag = flag_.get();
  t.value = waits_->fetch_add(1, std::memory_order_acq_rel) + 1;
  t.timeout_ns = static_cast<uint64_t>(timeout_ms) * 1000000ull;
  RetainForTask(t, this);
  stream->Submit(t);
  return Status::Ok();
}

void Notify::Reset() {
  // Pretend every outstanding record was consumed: later waits need new records.
  uint64_t r = records_->load(std::memory_order_acquire);
  uint64_t w = waits_->load(std::memory_order_acquire);
  while (w < r && !waits_->compare_exchange_weak(w, r, std::memory_order_acq_rel)) {
  }
}

void Notify::Destroy() {
  if (!Invalidate()) return;
  Release();
}

}  // namespace npurt::core
