// Device allocation of a small block next to glibc's malloc of the same size, in one run.
//
// alloc_free_ns   aclrtMalloc + aclrtFree of 4 KiB (the allocator's cache-hit path)
// malloc_free_ns  malloc + free of 4 KiB
// Pairs are timed in batches of kBatch; the mean per pair of a batch is one sample.
#include <cstdlib>

#include "alloc/alloc_pair.h"
#include "common/bench_util.h"

namespace npurt_bench {
namespace {

void AclAllocFree(benchmark::State& state) {
  UseDevice0();
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
BENCHMARK(AclAllocFree)->Name("alloc_free_ns")->UseManualTime();

void MallocFree(benchmark::State& state) {
  Sampler sampler(state);
  int n = 0;
  uint64_t t0 = 0;
  for (auto _ : state) {
    if (n == 0) t0 = NowNs();
    void* p = std::malloc(kSize);
    benchmark::DoNotOptimize(p);
    std::free(p);
    if (++n == kBatch) {
      sampler.Add(NowNs() - t0, kBatch);
      n = 0;
    }
  }
  if (n != 0) sampler.Add(NowNs() - t0, static_cast<uint64_t>(n));
}
BENCHMARK(MallocFree)->Name("malloc_free_ns")->UseManualTime();

}  // namespace
}  // namespace npurt_bench
