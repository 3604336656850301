// Cost of the device-memory race detector (issue 14; docs/racecheck.md).
//
// racecheck_off_overhead  the enqueue path (aclrtMemsetAsync, which reaches Stream::Submit as copies and
//                         launches do) with the detector compiled in but off, over the same path without
//                         its check. The check is one relaxed load and a branch not taken in
//                         Stream::Submit (core/racecheck/racecheck.h, racecheck::On()); as prof_off_overhead does,
//                         its cost is measured on the same instruction sequence and subtracted:
//                         ratio = off / (off - check). Target <= 1.02.
// racecheck_on_overhead   the same enqueue with the detector on over off, batches of each interleaved in
//                         one run so that drift cancels (npurtRacecheckSetEnabled switches it). Reported,
//                         no target: each task then takes the detector's lock, copies a vector clock and
//                         checks its ranges against the allocation's recorded accesses.
// racecheck_sync_copy_on_overhead  a synchronous 4 KiB device-to-host aclrtMemcpy, on over off (reported).
// Each reports its figure as the p50_ns counter, which bench/collect.py passes through for keys whose
// suffix is not a time unit.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <vector>

#include "common/bench_util.h"
#include "common/memset_batch.h"
#include "npurt/racecheck.h"

namespace npurt_bench {
namespace {

constexpr int kBatch = kEnqueueBatch;

struct Launcher : MemsetBatcher {
  std::vector<uint8_t> host = std::vector<uint8_t>(4096);
  // One batch of synchronous 4 KiB device-to-host copies: mean ns per copy.
  double CopyBatch() {
    const uint64_t t0 = NowNs();
    for (int i = 0; i < kBatch; ++i) {
      BENCH_CHECK(aclrtMemcpy(host.data(), host.size(), buf, host.size(), ACL_MEMCPY_DEVICE_TO_HOST));
    }
    return static_cast<double>(NowNs() - t0) / kBatch;
  }
};

double Median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// The disabled check, as compiled in the runtime: a relaxed load of a bool, a test, a branch not taken.
std::atomic<bool> g_fake_enabled{false};
double CheckCostNs() {
  constexpr int kN = 1 << 20;
  std::vector<double> samples;
  for (int rep = 0; rep < 15; ++rep) {
    const uint64_t t0 = NowNs();
    for (int i = 0; i < kN; ++i) {
      if (__builtin_expect(g_fake_enabled.load(std::memory_order_relaxed), 0)) std::abort();
      asm volatile("" ::: "memory");  // keep one check per iteration, as one per enqueue
    }
    samples.push_back(static_cast<double>(NowNs() - t0) / kN);
  }
  return Median(samples);
}

void RacecheckOffOverhead(benchmark::State& state) {
  BENCH_CHECK(npurtRacecheckSetEnabled(0));
  Launcher l;
  std::vector<double> off;
  for (auto _ : state) {
    for (int i = 0; i < 200; ++i) off.push_back(l.Batch());
  }
  const double enqueue = Median(off), check = CheckCostNs();
  state.counters["p50_ns"] = enqueue / (enqueue - check);
  state.counters["enqueue_ns"] = enqueue;
  state.counters["check_ns"] = check;
}
BENCHMARK(RacecheckOffOverhead)->Name("racecheck_off_overhead")->Iterations(3);

// kBatchFn: a member of Launcher or of its MemsetBatcher base (the enqueue batch).
template <auto kBatchFn>
void OnOverOff(benchmark::State& state) {
  Launcher l;
  std::vector<double> off, on;
  for (auto _ : state) {
    BENCH_CHECK(npurtRacecheckSetEnabled(0));
    for (int i = 0; i < 50; ++i) off.push_back((l.*kBatchFn)());
    BENCH_CHECK(npurtRacecheckSetEnabled(1));
    for (int i = 0; i < 50; ++i) on.push_back((l.*kBatchFn)());
    BENCH_CHECK(aclrtSynchronizeStream(l.stream));
  }
  BENCH_CHECK(npurtRacecheckSetEnabled(0));
  state.counters["p50_ns"] = Median(on) / Median(off);
  state.counters["on_ns"] = Median(on);
  state.counters["off_ns"] = Median(off);
}
BENCHMARK(OnOverOff<&Launcher::Batch>)->Name("racecheck_on_overhead")->Iterations(8);
BENCHMARK(OnOverOff<&Launcher::CopyBatch>)->Name("racecheck_sync_copy_on_overhead")->Iterations(8);

}  // namespace
}  // namespace npurt_bench
