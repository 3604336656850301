// Copy bandwidth: 64 MiB host-to-device copies next to a plain memcpy of the same size, in one run.
//
// memcpy_h2d_gbps        aclrtMemcpy H2D from pinned host memory (aclrtMallocHost) into warm device memory
// memcpy_h2d_async_gbps  aclrtMemcpyAsync of the same, then aclrtSynchronizeStream
// host_memcpy_gbps       std::memcpy between two warm malloc'ed buffers of the same size
// GB/s are 1e9 bytes per second, computed from the median time of one copy.
#include <cstring>

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
  std::memset(dst, 0, kBytes);
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

}  // namespace
}  // namespace npurt_bench
