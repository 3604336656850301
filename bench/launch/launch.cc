// Host cost of enqueuing a no-op task: a 4-byte aclrtMemsetAsync on a device buffer.
//
// launch_enqueue_ns  batches of kBatch enqueues are timed (the mean per call of a batch is one sample);
//                    the stream is synchronised between batches outside the timed region, so the queue
//                    never fills and back-pressure is never measured.
// launch_enqueue_gated_ns  the same with the stream held by a host function until the batch is enqueued
//                    (common/gated_enqueue.h): the producer's cost alone, without the cache traffic of an
//                    executor consuming the queue at the same time.
// api_resolve_ns     one aclrtStreamGetId on a live stream: an entry point's fixed cost (its HandleScope, the
//                    stream's lookup with its hazard publication: docs/architecture.md, "Handle lifetime").
#include "common/bench_util.h"
#include "common/gated_enqueue.h"

namespace npurt_bench {
namespace {

constexpr int kBatch = 128;  // below the sim queue's 256 cells
// A fixed count: the timed (manual) time is a small part of the wall time here (synchronising and, for the
// gated variant, a host-function round trip per batch are not timed), so Google Benchmark's min_time
// would otherwise mean minutes of wall time on a loaded machine.
constexpr int64_t kIterations = int64_t{kBatch} * 4000;

void LaunchEnqueue(benchmark::State& state) {
  UseDevice0();
  aclrtStream stream = nullptr;
  void* buf = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  BENCH_CHECK(aclrtMalloc(&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  {
    Sampler sampler(state);
    int n = 0;
    uint64_t t0 = 0;
    for (auto _ : state) {
      if (n == 0) t0 = NowNs();
      BENCH_CHECK(aclrtMemsetAsync(buf, 4096, 0, 4, stream));
      if (++n == kBatch) {
        sampler.Add(NowNs() - t0, kBatch);
        BENCH_CHECK(aclrtSynchronizeStream(stream));
        n = 0;
      }
    }
    if (n != 0) sampler.Add(NowNs() - t0, static_cast<uint64_t>(n));
  }
  BENCH_CHECK(aclrtSynchronizeStream(stream));
  BENCH_CHECK(aclrtFree(buf));
  BENCH_CHECK(aclrtDestroyStream(stream));
}
BENCHMARK(LaunchEnqueue)->Name("launch_enqueue_ns")->UseManualTime()->Iterations(kIterations);

void LaunchEnqueueGated(benchmark::State& state) {
  UseDevice0();
  aclrtStream stream = nullptr;
  void* buf = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  BENCH_CHECK(aclrtMalloc(&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  RunGatedEnqueue(state, stream, kBatch, [](void* b, aclrtStream s) { BENCH_CHECK(aclrtMemsetAsync(b, 4096, 0, 4, s)); },
                  buf);
  BENCH_CHECK(aclrtFree(buf));
  BENCH_CHECK(aclrtDestroyStream(stream));
}
BENCHMARK(LaunchEnqueueGated)->Name("launch_enqueue_gated_ns")->UseManualTime()->Iterations(kIterations);

void ApiResolve(benchmark::State& state) {
  UseDevice0();
  aclrtStream stream = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  int32_t id = 0;
  for (auto _ : state) {
    BENCH_CHECK(aclrtStreamGetId(stream, &id));
    benchmark::DoNotOptimize(id);
  }
  BENCH_CHECK(aclrtDestroyStream(stream));
}
BENCHMARK(ApiResolve)->Name("api_resolve_ns");

}  // namespace
}  // namespace npurt_bench
