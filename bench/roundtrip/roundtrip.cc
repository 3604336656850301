// Launch-to-completion seen by the host, side by side with its floor on this machine.
//
// roundtrip_us  one 4-byte aclrtMemsetAsync and aclrtSynchronizeStream, timed per call.
// handoff_us    the same round trip through a bare two-thread hand-off: its floor (common/handoff.h).
#include "common/bench_util.h"
#include "common/handoff.h"

namespace npurt_bench {
namespace {

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

BENCHMARK(BareHandoff)->Name("handoff_us")->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace npurt_bench
