#include "core/memory/sync_copy_order.h"

#include <algorithm>
#include <atomic>
#include <vector>

#include "base/clock.h"
#include "core/device.h"
#include "core/kernel/launch_records.h"
#include "core/stream.h"
#include "dfx/log.h"

namespace npurt::core {
namespace {

// A racy program may copy in a loop: the first warnings name the race, then one says the rest are not
// logged (the ordering still happens).
constexpr uint32_t kLoggedRaces = 16;
std::atomic<uint32_t> g_races{0};

void WarnRace(const char* api, Device* device, uintptr_t base, size_t size, const Stream& s, const InFlightLaunch& l,
              const char* outcome) {
  const uint32_t n = g_races.fetch_add(1, std::memory_order_relaxed);
  if (n > kLoggedRaces) return;
  if (n == kLoggedRaces) {
    NPURT_LOG_WARNING("RUNTIME", "further synchronous copies racing kernels in flight are not logged");
    return;
  }
  NPURT_LOG_WARNING("RUNTIME",
                    "race: {} reads the {}-byte allocation at {:#x} of device {}, which kernel '{}' (task {} of "
                    "stream {}), launched before it and still in flight, may write; a synchronous copy implies no "
                    "stream synchronisation (synchronize the stream or an event first). {}",
                    api, size, base, device->id(), l.name, l.seq, s.id(), outcome);
}

// Waits, in 1 ms slices, until `s` passed `seq`; false if the stream parked on a wait or `deadline` came.
bool WaitUnlessParked(Stream& s, uint64_t seq, uint64_t deadline) {
  while (!s.Passed(seq)) {
    const uint64_t now = NowNs();
    if (now >= deadline || s.queue()->ParkedOnWait()) return false;
    s.queue()->WaitHost(seq, std::min<uint64_t>(deadline, now + 1000000));
  }
  return true;
}

}  // namespace

void OrderAfterKernelsWriting(const char* api, Device* device, uintptr_t alloc_base, size_t alloc_size) {
  if (device == nullptr || device->stream_count() == 0) return;
  const uint64_t start = NowNs();
  const uint64_t deadline = start + kMaxOrderWaitMs * 1000000;
  for (const Ref<Stream>& s : device->Streams()) {
    if (s->Idle()) continue;
    std::vector<InFlightLaunch> found = InFlightLaunchesInto(s.get(), alloc_base, alloc_base + alloc_size);
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.seq < b.seq; });
    for (const InFlightLaunch& l : found) {
      const char* outcome = "It ran first, as on an NPU, where the kernel would have run by the time the copy starts.";
      if (!WaitUnlessParked(*s, l.seq - 1, std::min<uint64_t>(deadline, start + kReachGraceMs * 1000000))) {
        outcome = "Its stream had not reached it (other work or a wait before it): the copy did not wait.";
      } else if (!WaitUnlessParked(*s, l.seq, std::min<uint64_t>(deadline, NowNs() + kFinishGraceMs * 1000000))) {
        outcome = "It is still running (or its stream waits): the copy did not wait for it to finish.";
      }
      WarnRace(api, device, alloc_base, alloc_size, *s, l, outcome);
    }
  }
}

}  // namespace npurt::core
