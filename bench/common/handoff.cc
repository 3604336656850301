#include "common/handoff.h"

#include <atomic>
#include <thread>

#include "common/bench_util.h"

namespace npurt_bench {
namespace {
constexpr uint64_t kWorkerSpinNs = 30000;
constexpr uint64_t kHostSpinNs = 20000;
}  // namespace

void BareHandoff(benchmark::State& state) {
  alignas(64) std::atomic<uint64_t> request{0};
  alignas(64) std::atomic<uint64_t> reply{0};
  alignas(64) SpinThenSleep request_signal;
  alignas(64) SpinThenSleep reply_signal;
  constexpr uint64_t kStop = UINT64_MAX;
  std::thread worker([&] {
    uint64_t seen = 0;
    for (;;) {
      request_signal.Wait([&] { return request.load(std::memory_order_acquire) != seen; }, kWorkerSpinNs);
      seen = request.load(std::memory_order_acquire);
      if (seen == kStop) return;
      reply.store(seen, std::memory_order_release);
      reply_signal.NotifyIfSleeping();
    }
  });
  {
    Sampler sampler(state);
    uint64_t seq = 0;
    for (auto _ : state) {
      const uint64_t t0 = NowNs();
      request.store(++seq, std::memory_order_release);
      request_signal.NotifyIfSleeping();
      reply_signal.Wait([&] { return reply.load(std::memory_order_acquire) == seq; }, kHostSpinNs);
      sampler.Add(NowNs() - t0);
    }
  }
  request.store(kStop, std::memory_order_release);
  request_signal.NotifyIfSleeping();
  worker.join();
}

}  // namespace npurt_bench
