// Device status publisher: once a device is set, a background thread samples every opened device
// (memory in use, streams, whether work is queued or running) 20 times a second and publishes the
// result (dfx/status_file.h) twice a second for `npu-smi info`. Task failures are written to the
// device-side log. The same figures answer aclrtGetDeviceUtilizationRate (DeviceBusyPercent).
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "acl/acl.h"
#include "api/prof_status.h"
#include "base/env.h"
#include "core/device.h"
#include "core/alloc/device_allocator.h"
#include "core/exception.h"
#include "core/hooks.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "dfx/status_file.h"

namespace npurt::api {
namespace {

constexpr int kWindow = 20;               // samples in the utilisation window (1 s)
constexpr auto kSamplePeriod = std::chrono::milliseconds(50);
constexpr int kSamplesPerPublish = 10;

struct Sampler {
  std::mutex mu;
  std::map<int32_t, std::array<uint8_t, kWindow>> busy;  // device -> ring of busy flags
  int next = 0;
  std::atomic<bool> started{false};
};
Sampler& TheSampler() {
  static Sampler* s = new Sampler();
  return *s;
}

bool DeviceBusy(core::Device* dev) {
  for (const auto& s : dev->Streams()) {
    if (!s->Idle()) return true;
  }
  return false;
}

void SampleOnce() {
  Sampler& s = TheSampler();
  std::lock_guard<std::mutex> lock(s.mu);
  for (core::Device* d : core::Runtime::Get().OpenedDevices()) {
    auto& ring = s.busy[d->id()];
    ring[s.next] = DeviceBusy(d) ? 1 : 0;
  }
  s.next = (s.next + 1) % kWindow;
}

void Publish() {
  std::vector<dfx::DeviceStatus> out;
  for (core::Device* d : core::Runtime::Get().OpenedDevices()) {
    dfx::DeviceStatus st;
    st.id = d->id();
    st.physical_id = d->physical_id();
    st.soc = d->info().soc_name;
    st.aicore_count = d->info().aicore_count;
    const core::AllocatorStats a = d->allocator().Stats();
    st.memory_total = a.total;
    st.memory_used = d->allocator().UsedBytes();  // what aclrtGetMemInfo reports as used
    st.memory_reserved = a.reserved;
    st.streams = static_cast<uint32_t>(d->Streams().size());
    st.busy_percent = static_cast<uint32_t>(DeviceBusyPercent(d->id()));
    st.task_failures = dfx::DeviceFailures(d->id());
    out.push_back(std::move(st));
  }
  dfx::PublishStatus(out);
}

void PublisherLoop() {
  for (int i = 0;; ++i) {
    SampleOnce();
    if (i % kSamplesPerPublish == 0) Publish();
    std::this_thread::sleep_for(kSamplePeriod);
  }
}

void OnDeviceState(int32_t /*device_id*/, int32_t state, void* /*args*/) {
  if (state != ACL_RT_DEVICE_STATE_SET_POST) return;
  if (npurt::env::Raw(npurt::env::Var::kStatusDisable) != nullptr) return;
  Sampler& s = TheSampler();
  if (s.started.exchange(true)) {
    Publish();  // a newly set device shows up at once
    return;
  }
  std::atexit([] { dfx::RemoveStatus(); });
  std::thread(PublisherLoop).detach();
}

void OnTaskException(rtExceptionInfo* info) {
  if (info == nullptr) return;
  const auto device = static_cast<int32_t>(info->device_id);
  dfx::CountDeviceFailure(device);
  dfx::DeviceLog(device, fmt::format("task {} on stream {} failed with error {} (host thread {})", info->task_id,
                                     info->stream_id, info->error_code, info->thread_id));
}

struct Setup {
  Setup() {
    core::SetDeviceStateHook("npurt.device_status", &OnDeviceState, nullptr);
    (void)core::AddExceptionCallback(&OnTaskException);
  }
} g_setup;

}  // namespace

int32_t DeviceBusyPercent(int32_t device) {
  Sampler& s = TheSampler();
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.busy.find(device);
  if (it == s.busy.end()) return 0;
  int n = 0;
  for (uint8_t b : it->second) n += b;
  return 100 * n / kWindow;
}

}  // namespace npurt::api
