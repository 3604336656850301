// Allocator figures of the memory issue (alloc.cc has the single-thread pair and its glibc baseline):
//
// alloc_free_mt_ns      aclrtMalloc + aclrtFree of 4 KiB per pair while a second thread does the same
//                       concurrently (thread caches: target <= 2x alloc_free_ns, see alloc_mt_over_st)
// alloc_vs_driver       a raw driver allocation of device memory (aclrtMallocPhysical + aclrtMapMem of one
//                       2 MiB page, then unmap and free: what an allocator without a cache pays each time)
//                       over the cached pair; target >= 100
// frag_ratio_<trace>    peak reserved / peak allocated replaying bench/traces/<trace>.trace with expandable
//                       segments (target <= 1.15); frag_ratio_<trace>_fixed without them
// frag_ratio_devlog_default
//                       the devlog pattern (8 x 16 MiB, then 4 x 32 MiB, and the reverse) through the public
//                       API in the configuration NPURT_ALLOC_CONF gives (the default when unset): the most
//                       memory aclrtGetMemInfo shows in use over the most live bytes (target <= 1.15);
//                       physical_ratio is the same with every physical page the device holds, cache included
#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "alloc/alloc_pair.h"
#include "common/bench_util.h"
#include "replay.h"

namespace npurt_bench {
namespace {

void AllocFreeLoop(benchmark::State& state) {
  Sampler sampler(state);
  int n = 0;
  uint64_t t0 = 0;
  for (auto _ : state) {
    if (n == 0) t0 = NowNs();
    void* p = nullptr;
    BENCH_CHECK(aclrtMalloc(&p, kSize, ACL_MEM_MALLOC_HUGE_FIRST));
    benchmark::DoNotOptimize(p);
    BENCH_CHECK(aclrtFree(p));
    if (++n == kBatch) {
      sampler.Add(NowNs() - t0, kBatch);
      n = 0;
    }
  }
  if (n != 0) sampler.Add(NowNs() - t0, static_cast<uint64_t>(n));
}

void AllocFreeTwoThreads(benchmark::State& state) {
  UseDevice0();
  aclrtContext ctx = nullptr;
  BENCH_CHECK(aclrtGetCurrentContext(&ctx));
  std::atomic<bool> stop{false};
  std::atomic<bool> running{false};
  std::thread peer([&] {
    BENCH_CHECK(aclrtSetCurrentContext(ctx));
    running = true;
    while (!stop.load(std::memory_order_relaxed)) {
      for (int i = 0; i < kBatch; ++i) {
        void* p = nullptr;
        BENCH_CHECK(aclrtMalloc(&p, kSize, ACL_MEM_MALLOC_HUGE_FIRST));
        benchmark::DoNotOptimize(p);
        BENCH_CHECK(aclrtFree(p));
      }
    }
  });
  while (!running.load()) std::this_thread::yield();
  AllocFreeLoop(state);
  stop = true;
  peer.join();
}
BENCHMARK(AllocFreeTwoThreads)->Name("alloc_free_mt_ns")->UseManualTime();

// Median of `reps` timed runs of fn (ns each).
template <typename Fn>
double MedianNs(int reps, Fn&& fn) {
  std::vector<double> v;
  for (int i = 0; i < reps; ++i) {
    const uint64_t t0 = NowNs();
    fn();
    v.push_back(static_cast<double>(NowNs() - t0));
  }
  std::nth_element(v.begin(), v.begin() + reps / 2, v.end());
  return v[reps / 2];
}

void AllocVsDriver(benchmark::State& state) {
  UseDevice0();
  aclrtPhysicalMemProp prop = {};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  size_t page = 0;
  BENCH_CHECK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &page));
  void* va = nullptr;
  BENCH_CHECK(aclrtReserveMemAddress(&va, page, 0, nullptr, 0));
  auto driver = [&] {
    aclrtDrvMemHandle h = nullptr;
    BENCH_CHECK(aclrtMallocPhysical(&h, page, &prop, 0));
    BENCH_CHECK(aclrtMapMem(va, page, 0, h, 0));
    BENCH_CHECK(aclrtUnmapMem(va));
    BENCH_CHECK(aclrtFreePhysical(h));
  };
  auto cached = [&] {
    for (int i = 0; i < kBatch; ++i) {
      void* p = nullptr;
      BENCH_CHECK(aclrtMalloc(&p, kSize, ACL_MEM_MALLOC_HUGE_FIRST));
      benchmark::DoNotOptimize(p);
      BENCH_CHECK(aclrtFree(p));
    }
  };
  driver();  // first touch of the page happens once, outside the timing
  cached();
  double driver_ns = 0, cached_ns = 0;
  for (auto _ : state) {
    driver_ns = MedianNs(31, driver);
    cached_ns = MedianNs(31, cached) / kBatch;
  }
  BENCH_CHECK(aclrtReleaseMemAddress(va));
  state.counters["p50_ns"] = driver_ns / cached_ns;  // the key is the ratio (collect.py takes p50_ns)
  state.counters["driver_ns"] = driver_ns;
  state.counters["cached_ns"] = cached_ns;
}
BENCHMARK(AllocVsDriver)->Name("alloc_vs_driver")->Iterations(3);

void Fragmentation(benchmark::State& state, const std::string& trace_name, bool expandable) {
  auto trace = npurt::tools::LoadTrace(std::string(NPURT_TRACE_DIR) + "/" + trace_name + ".trace");
  if (!trace.ok()) {
    state.SkipWithError(trace.status().message().c_str());
    return;
  }
  npurt::core::AllocatorConfig config;
  config.expandable_segments = expandable;
  npurt::tools::ReplayResult r;
  for (auto _ : state) {
    auto replay = npurt::tools::Replay(trace.value(), config);
    if (!replay.ok()) {
      state.SkipWithError(replay.status().message().c_str());
      return;
    }
    r = replay.value();
  }
  state.counters["p50_ns"] = r.frag_ratio;  // the key is the ratio (collect.py takes p50_ns)
  state.counters["peak_allocated_mib"] = static_cast<double>(r.peak_allocated) / double(1 << 20);
  state.counters["peak_reserved_mib"] = static_cast<double>(r.peak_reserved) / double(1 << 20);
  state.counters["replay_ns_per_event"] = r.ns_per_event;
}

// The current value of the aclrtGetMemUsageInfo row `name` of `device`.
uint64_t UsageRow(int32_t device, const char* name) {
  aclrtMemUsageInfo rows[32];
  size_t n = 0;
  BENCH_CHECK(aclrtGetMemUsageInfo(device, rows, 32, &n));
  for (size_t i = 0; i < n; ++i) {
    if (std::string(rows[i].name) == name) return rows[i].curMemSize;
  }
  return 0;
}

void FragmentationDefault(benchmark::State& state) {
  // On the last device, unused by the other benchmarks of this binary, so that its cache starts empty.
  uint32_t count = 0;
  BENCH_CHECK(aclrtGetDeviceCount(&count));
  const auto device = static_cast<int32_t>(count - 1);
  aclrtContext previous = nullptr;
  (void)aclrtGetCurrentContext(&previous);
  BENCH_CHECK(aclrtSetDevice(device));
  constexpr size_t kMiB = size_t(1) << 20;
  size_t free0 = 0, total = 0;
  BENCH_CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
  const uint64_t physical0 = UsageRow(device, "device_physical");
  uint64_t peak_used = 0, peak_physical = 0, peak_live = 0;
  auto sample = [&](uint64_t live) {
    size_t free = 0;
    BENCH_CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total));
    peak_used = std::max<uint64_t>(peak_used, free0 > free ? free0 - free : 0);
    const uint64_t physical = UsageRow(device, "device_physical");
    peak_physical = std::max<uint64_t>(peak_physical, physical > physical0 ? physical - physical0 : 0);
    peak_live = std::max(peak_live, live);
  };
  for (auto _ : state) {
    for (const size_t first : {16 * kMiB, 32 * kMiB}) {
      for (const size_t size : {first, first == 16 * kMiB ? 32 * kMiB : 16 * kMiB}) {
        std::vector<void*> blocks;
        for (size_t i = 0; i < 128 * kMiB / size; ++i) {
          void* p = nullptr;
          BENCH_CHECK(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST));
          blocks.push_back(p);
          sample(blocks.size() * size);
        }
        for (void* p : blocks) BENCH_CHECK(aclrtFree(p));
        sample(0);
      }
    }
  }
  BENCH_CHECK(aclrtResetDevice(device));
  if (previous != nullptr) BENCH_CHECK(aclrtSetCurrentContext(previous));
  state.counters["p50_ns"] = static_cast<double>(peak_used) / static_cast<double>(peak_live);  // the key is the ratio
  state.counters["physical_ratio"] = static_cast<double>(peak_physical) / static_cast<double>(peak_live);
  state.counters["peak_live_mib"] = static_cast<double>(peak_live) / double(kMiB);
}
BENCHMARK(FragmentationDefault)->Name("frag_ratio_devlog_default")->Iterations(1);

const bool registered = [] {
  for (const char* trace : {"devlog", "kv_cache", "random"}) {
    benchmark::RegisterBenchmark((std::string("frag_ratio_") + trace).c_str(),
                                 [t = std::string(trace)](benchmark::State& s) { Fragmentation(s, t, true); })
        ->Iterations(1);
    benchmark::RegisterBenchmark((std::string("frag_ratio_") + trace + "_fixed").c_str(),
                                 [t = std::string(trace)](benchmark::State& s) { Fragmentation(s, t, false); })
        ->Iterations(1);
  }
  return true;
}();

}  // namespace
}  // namespace npurt_bench
