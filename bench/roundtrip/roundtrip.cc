// Launch-to-completion seen by the host, side by side with its floor on this machine.
//
// roundtrip_us  one 4-byte aclrtMemsetAsync and aclrtSynchronizeStream, timed per call.
// handoff_us    the same round trip through a bare two-thread hand-off: the main thread raises a request
//               counter, a worker thread waiting on it (spin, then futex sleep) answers by raising a reply
//               counter, which the main thread waits for the same way. Spin budgets are the runtime's
//               (30 us for the executor side, 20 us for the host side), so the floor is what a runtime
//               with one hop each way could reach, not an artificially slow one.
#include <thread>

#include "common/bench_util.h"

namespace npurt_bench {
namespace {

constexpr uint64_t kWorkerSpinNs = 30000;
constexpr uint64_t kHostSpinNs = 20000;

void Roundtrip(benchmark::State& state) {
  UseDevice0();
  aclrtStream stream = nullptr;
  void* buf = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  BENCH_CHECK(aclrtMalloc(&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  BENCH_CHECK(aclrtMemsetAsync(buf, 4096, 0, 4, stream));
  BENCH_CHECK(aclrtSynchronizeStream(stream));
  {
    Sampler sampler(state);
    for (auto _ : state) {
      const uint64_t t0 = NowNs();
      BENCH_CHECK(aclrtMemsetAsync(buf, 4096, 0, 4, stream));
      BENCH_CHECK(aclrtSynchronizeStream(stream));
      sampler.Add(NowNs() - t0);
    }
  }
  BENCH_CHECK(aclrtFree(buf));
  BENCH_CHECK(aclrtDestroyStream(stream));
}
BENCHMARK(Roundtrip)->Name("roundtrip_us")->UseManualTime()->Unit(benchmark::kMicrosecond);

void Handoff(benchmark::State& state) {
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
BENCHMARK(Handoff)->Name("handoff_us")->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace npurt_bench
