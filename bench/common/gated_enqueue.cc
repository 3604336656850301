#include "common/gated_enqueue.h"

#include <atomic>

#include "common/bench_util.h"

namespace npurt_bench {
namespace {

struct Gate {
  std::atomic<bool> open{false};
  SpinThenSleep signal;
  static void Hold(void* arg) {
    auto* g = static_cast<Gate*>(arg);
    g->signal.Wait([g] { return g->open.load(std::memory_order_acquire); }, 0);
  }
  void Release() {
    open.store(true, std::memory_order_release);
    signal.NotifyIfSleeping();
  }
};

}  // namespace

void RunGatedEnqueue(benchmark::State& state, aclrtStream stream, int batch, void (*enqueue)(void* arg, aclrtStream),
                     void* arg) {
  Sampler sampler(state);
  Gate gate;
  int n = 0;
  uint64_t t0 = 0;
  for (auto _ : state) {
    if (n == 0) {
      state.PauseTiming();
      gate.open.store(false, std::memory_order_relaxed);
      BENCH_CHECK(aclrtLaunchHostFunc(stream, &Gate::Hold, &gate));
      state.ResumeTiming();
      t0 = NowNs();
    }
    enqueue(arg, stream);
    if (++n == batch) {
      sampler.Add(NowNs() - t0, static_cast<uint64_t>(batch));
      gate.Release();
      BENCH_CHECK(aclrtSynchronizeStream(stream));
      n = 0;
    }
  }
  if (n != 0) {
    sampler.Add(NowNs() - t0, static_cast<uint64_t>(n));
    gate.Release();
  }
  BENCH_CHECK(aclrtSynchronizeStream(stream));
}

}  // namespace npurt_bench
