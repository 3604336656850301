// Copy bandwidth: 64 MiB host-to-device copies next to a plain memcpy of the same size, in one run.
//
// memcpy_h2d_gbps        aclrtMemcpy H2D from pinned host memory (aclrtMallocHost) into warm device memory
// memcpy_h2d_async_gbps  aclrtMemcpyAsync of the same, then aclrtSynchronizeStream
// host_memcpy_gbps       std::memcpy between two warm malloc'ed buffers of the same size
// h2d_over_memcpy_paired the median over iterations of (memcpy time / aclrtMemcpy time), both copies done
//                        back to back in every iteration: the ratio h2d_over_memcpy without the drift of
//                        the machine's memory bandwidth between two benchmarks (a shared machine moves it
//                        by +-20% from one second to the next)
// GB/s are 1e9 bytes per second, computed from the median time of one copy.
#include <algorithm>
#include <cstring>
#include <vector>

#include "common/bench_util.h"

namespace npurt_bench {
namespace {

constexpr size_t kBytes = 64u << 20;

struct H2D {
  void* host = nullptr;
  void* dev = nullptr;
  H2D() {
    UseDevice0();
    BENCH_CHECK(aclrtMallocHost(&host, kBytes));
    BENCH_CHECK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    std::memset(host, 1, kBytes);
    BENCH_CHECK(aclrtMemset(dev, kBytes, 0, kBytes));  // warm: every page of both sides touched
  }
  ~H2D() {
    BENCH_CHECK(aclrtFree(dev));
    BENCH_CHECK(aclrtFreeHost(host));
  }
};

void MemcpyH2D(benchmark::State& state) {
  H2D b;
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    BENCH_CHECK(aclrtMemcpy(b.dev, kBytes, b.host, kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    sampler.Add(NowNs() - t0);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
  state.counters["bytes_per_op"] = static_cast<double>(kBytes);
}
BENCHMARK(MemcpyH2D)->Name("memcpy_h2d_gbps")->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);

void MemcpyH2DAsync(benchmark::State& state) {
  H2D b;
  aclrtStream stream = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  {
    Sampler sampler(state);
    for (auto _ : state) {
      const uint64_t t0 = NowNs();
      BENCH_CHECK(aclrtMemcpyAsync(b.dev, kBytes, b.host, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
      BENCH_CHECK(aclrtSynchronizeStream(stream));
      sampler.Add(NowNs() - t0);
    }
  }
  BENCH_CHECK(aclrtDestroyStream(stream));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
  state.counters["bytes_per_op"] = static_cast<double>(kBytes);
}
BENCHMARK(MemcpyH2DAsync)->Name("memcpy_h2d_async_gbps")->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);

void HostMemcpy(benchmark::State& state) {
  auto* src = static_cast<char*>(std::malloc(kBytes));
  auto* dst = static_cast<char*>(std::malloc(kBytes));
  if (src == nullptr || dst == nullptr) std::abort();
  std::memset(src, 1, kBytes);
  std::memset(dst, 2, kBytes);  // not 0: malloc+memset(0) may become calloc and leave the pages untouched
  {
    Sampler sampler(state);
    for (auto _ : state) {
      const uint64_t t0 = NowNs();
      std::memcpy(dst, src, kBytes);
      benchmark::ClobberMemory();
      sampler.Add(NowNs() - t0);
    }
  }
  benchmark::DoNotOptimize(dst[kBytes - 1]);
  std::free(src);
  std::free(dst);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
  state.counters["bytes_per_op"] = static_cast<double>(kBytes);
}
BENCHMARK(HostMemcpy)->Name("host_memcpy_gbps")->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);

void H2DOverMemcpyPaired(benchmark::State& state) {
  H2D b;
  auto* src = static_cast<char*>(std::malloc(kBytes));
  auto* dst = static_cast<char*>(std::malloc(kBytes));
  if (src == nullptr || dst == nullptr) std::abort();
  std::memset(src, 1, kBytes);
  std::memset(dst, 2, kBytes);
  std::vector<double> ratios;
  bool h2d_first = true;
  for (auto _ : state) {
    uint64_t h2d_ns = 0;
    uint64_t memcpy_ns = 0;
    for (int k = 0; k < 2; ++k) {  // alternate the order so that neither copy always follows the other
      const uint64_t t0 = NowNs();
      if ((k == 0) == h2d_first) {
        BENCH_CHECK(aclrtMemcpy(b.dev, kBytes, b.host, kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
        h2d_ns = NowNs() - t0;
      } else {
        std::memcpy(dst, src, kBytes);
        benchmark::ClobberMemory();
        memcpy_ns = NowNs() - t0;
      }
    }
    h2d_first = !h2d_first;
    state.SetIterationTime(static_cast<double>(h2d_ns + memcpy_ns) * 1e-9);
    ratios.push_back(static_cast<double>(memcpy_ns) / static_cast<double>(h2d_ns));
  }
  benchmark::DoNotOptimize(dst[kBytes - 1]);
  std::free(src);
  std::free(dst);
  if (!ratios.empty()) {
    std::nth_element(ratios.begin(), ratios.begin() + static_cast<std::ptrdiff_t>(ratios.size() / 2), ratios.end());
    state.counters["p50_ns"] = ratios[ratios.size() / 2];  // a ratio: collect.py exports unit-less keys as is
  }
}
BENCHMARK(H2DOverMemcpyPaired)->Name("h2d_over_memcpy_paired")->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.6);

}  // namespace
}  // namespace npurt_bench
