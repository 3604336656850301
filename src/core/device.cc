#include "core/device.h"

#include <algorithm>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "base/clock.h"
#include "core/context.h"
#include "core/racecheck/racecheck.h"
#include "core/stream.h"

namespace npurt::core {

Device::Device(int32_t id, uint32_t physical_id, std::unique_ptr<hal::Device> hal, const DeviceLimits& limits)
    : id_(id),
      physical_id_(physical_id),
      hal_(std::move(hal)),
      info_(hal_->info()),
      limits_(limits),
      allocator_(hal_.get(), hal_->memory_base(), hal_->memory_size()) {}

Device::~Device() = default;

Status CheckDeviceCapabilities(const DeviceCapabilities& caps, std::string_view driver, int32_t id) {
  if (caps.page_bytes != hal::kPhysicalPageBytes) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
               "device {} of driver '{}' has {}-byte pages; npurt's allocator is built on {}-byte pages", id, driver,
               caps.page_bytes, hal::kPhysicalPageBytes);
  }
  return Status::Ok();
}

StatusOr<Context*> Device::RetainDefaultContext() {
  std::lock_guard<std::mutex> lock(ctx_mu_);
  if (default_context_ == nullptr) {
    auto ctx = Context::Create(this, /*is_default=*/true);
    if (!ctx.ok()) return ctx.status();
    default_context_ = ctx.value();
  }
  ++set_count_;
  return default_context_;
}

Status Device::ReleaseDefaultContext(bool force) {
  Context* doomed = nullptr;
  {
    std::lock_guard<std::mutex> lock(ctx_mu_);
    if (default_context_ == nullptr || set_count_ == 0) {
      return Err(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "device {} was not set by aclrtSetDevice, nothing to reset", id_);
    }
    set_count_ = force ? 0 : set_count_ - 1;
    if (set_count_ == 0) doomed = std::exchange(default_context_, nullptr);
  }
  if (doomed != nullptr) doomed->Destroy();
  return Status::Ok();
}

Context* Device::default_context() const {
  std::lock_guard<std::mutex> lock(ctx_mu_);
  return default_context_;
}

uint32_t Device::set_count() const {
  std::lock_guard<std::mutex> lock(ctx_mu_);
  return set_count_;
}

Status Device::RegisterStream(Stream* stream) {
  std::lock_guard<std::mutex> lock(mu_);
  if (streams_.size() >= limits_.streams) {
    return Err(ACL_ERROR_RT_NO_STREAM_RESOURCE,
               "EL0009: stream resources are insufficient: device {} already has {} streams (limit {}, default "
               "streams included)",
               id_, streams_.size(), limits_.streams);
  }
  streams_.push_back(stream);
  stream_count_.store(static_cast<uint32_t>(streams_.size()), std::memory_order_release);
  stream_gen_.fetch_add(1, std::memory_order_acq_rel);
  return Status::Ok();
}

void Device::UnregisterStream(Stream* stream) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = std::find(streams_.begin(), streams_.end(), stream);
  if (it != streams_.end()) {
    *it = streams_.back();
    streams_.pop_back();
  }
  stream_count_.store(static_cast<uint32_t>(streams_.size()), std::memory_order_release);
  stream_gen_.fetch_add(1, std::memory_order_acq_rel);
}

std::vector<Ref<Stream>> Device::Streams() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Ref<Stream>> out;
  out.reserve(streams_.size());
  for (Stream* s : streams_) out.emplace_back(s);
  return out;
}

std::vector<StreamFence> Device::BusyStreamFences() const {
  std::vector<StreamFence> fences;
  std::lock_guard<std::mutex> lock(mu_);
  for (Stream* s : streams_) {
    const uint64_t submitted = s->queue()->submitted();
    if (s->queue()->completed() < submitted) fences.push_back({Ref<Stream>(s), submitted});
  }
  return fences;
}

Status Device::Synchronize(int64_t timeout_ms) {
  const uint64_t deadline = DeadlineFromMs(timeout_ms);
  Status first;
  for (const Ref<Stream>& s : Streams()) {
    const uint64_t target = s->queue()->submitted();
    if (!s->queue()->WaitHost(target, deadline)) {
      return Err(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "device {} synchronize timed out after {} ms (stream {})", id_,
                 timeout_ms, s->id());
    }
    if (first.ok()) {
      Status e = s->StickyError();
      if (!e.ok()) first = std::move(e);
    }
  }
  if (racecheck::On()) [[unlikely]] racecheck::OnDeviceSynchronized(this);
  return first;
}

bool Device::AcquireEventSlot() {
  uint32_t cur = event_count_.load(std::memory_order_relaxed);
  do {
    if (cur >= limits_.events) return false;
  } while (!event_count_.compare_exchange_weak(cur, cur + 1, std::memory_order_acq_rel));
  return true;
}

void Device::ReleaseEventSlot() { event_count_.fetch_sub(1, std::memory_order_acq_rel); }

bool Device::peer_enabled(int32_t peer) const {
  return peer >= 0 && peer < 64 && (peers_.load(std::memory_order_acquire) >> peer) & 1;
}

void Device::set_peer_enabled(int32_t peer, bool enabled) {
  if (peer < 0 || peer >= 64) return;
  if (enabled) {
    peers_.fetch_or(1ull << peer, std::memory_order_acq_rel);
  } else {
    peers_.fetch_and(~(1ull << peer), std::memory_order_acq_rel);
  }
}

}  // namespace npurt::core
