// Cross-stream dependency through an event, seen by the host.
//
// event_wait_us  aclrtRecordEvent on stream A, aclrtStreamWaitEvent on stream B, a 4-byte
//                aclrtMemsetAsync on B, aclrtSynchronizeStream(B); timed per iteration.
// Next to it, the same iteration without the event (memset on B and sync B) for comparison.
#include "common/bench_util.h"

namespace npurt_bench {
namespace {

struct TwoStreams {
  aclrtStream a = nullptr;
  aclrtStream b = nullptr;
  aclrtEvent event = nullptr;
  void* buf = nullptr;
  TwoStreams() {
    UseDevice0();
    BENCH_CHECK(aclrtCreateStream(&a));
    BENCH_CHECK(aclrtCreateStream(&b));
    BENCH_CHECK(aclrtCreateEvent(&event));
    BENCH_CHECK(aclrtMalloc(&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  }
  ~TwoStreams() {
    BENCH_CHECK(aclrtSynchronizeStream(a));
    BENCH_CHECK(aclrtSynchronizeStream(b));
    BENCH_CHECK(aclrtFree(buf));
    BENCH_CHECK(aclrtDestroyEvent(event));
    BENCH_CHECK(aclrtDestroyStream(a));
    BENCH_CHECK(aclrtDestroyStream(b));
  }
};

void EventWait(benchmark::State& state) {
  TwoStreams t;
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    BENCH_CHECK(aclrtRecordEvent(t.event, t.a));
    BENCH_CHECK(aclrtStreamWaitEvent(t.b, t.event));
    BENCH_CHECK(aclrtMemsetAsync(t.buf, 4096, 0, 4, t.b));
    BENCH_CHECK(aclrtSynchronizeStream(t.b));
    sampler.Add(NowNs() - t0);
  }
}
BENCHMARK(EventWait)->Name("event_wait_us")->UseManualTime()->Unit(benchmark::kMicrosecond);

void NoEvent(benchmark::State& state) {
  TwoStreams t;
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    BENCH_CHECK(aclrtMemsetAsync(t.buf, 4096, 0, 4, t.b));
    BENCH_CHECK(aclrtSynchronizeStream(t.b));
    sampler.Add(NowNs() - t0);
  }
}
BENCHMARK(NoEvent)->Name("event_baseline_us")->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace npurt_bench
