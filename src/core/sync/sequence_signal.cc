#include "core/sync/sequence_signal.h"

#include <utility>

#include "acl/error_codes/rt_error_codes.h"

namespace npurt::core {

void SequenceSignal::Adopt(std::unique_ptr<hal::Flag> flag) {
  flag_ = std::move(flag);
  if (uint8_t* area = flag_->shared_area(); area != nullptr) {
    static_assert(kCounterBytes <= hal::kFlagSharedAreaBytes);
    counters_ = reinterpret_cast<std::atomic<uint64_t>*>(area);
    shared_ = true;
  }
}

hal::Task SequenceSignal::SignalTask(uint64_t value) const {
  hal::Task t;
  t.kind = hal::TaskKind::kFlagSignal;
  t.flag = flag_.get();
  t.value = value;
  return t;
}

hal::Task SequenceSignal::WaitTask(uint64_t target, uint64_t timeout_ns) const {
  hal::Task t;
  t.kind = hal::TaskKind::kFlagWait;
  t.flag = flag_.get();
  t.value = target;
  t.timeout_ns = timeout_ns;
  return t;
}

void SequenceSignal::ConsumeAll() {
  const uint64_t r = records();
  uint64_t w = waits();
  while (w < r && !counters_[1].compare_exchange_weak(w, r, std::memory_order_acq_rel)) {
  }
}

Status SequenceSignal::MoveToSharedFlag(hal::Device* device) {
  if (shared_) return Status::Ok();
  if (!Idle()) return Err(ACL_ERROR_INVALID_PARAM, "a sequence signal with unconsumed records cannot move");
  auto shared = device->CreateSharedFlag();
  if (!shared.ok()) return shared.status();
  retired_ = std::move(flag_);
  Adopt(std::move(shared.value()));
  return Status::Ok();
}

}  // namespace npurt::core
