// Kernels on the simulated NPU (issue 3).
//
// kernel_launch_enqueue_ns  aclrtLaunchKernel of an empty kernel, host side: batches of kBatch launches are
//                           timed (the mean per call of a batch is one sample), the stream drained between
//                           batches outside the timed region.
// kernel_launch_enqueue_gated_ns  the same with the stream held by a host function until the batch is in
//                           (common/gated_enqueue.h): the launching thread's own cost.
// kernel_roundtrip_us       launch an empty 1-block kernel and aclrtSynchronizeStream, per call (compare
//                           with handoff_us of bench_roundtrip: kernel_roundtrip_over_handoff).
// kernel_handoff_us         the bare hand-off floor (common/handoff.h), interleaved with the above in this
//                           executable: kernel_roundtrip_over_kernel_handoff.
// kernel_scaling            a compute-bound kernel on 8 x cores blocks: time on one AI core (the stream limited
//                           with aclrtSetStreamResLimit) over time on all of them, i.e. the speed-up;
// kernel_scaling_per_core   the same divided by the number of AI cores (1.0 = perfect scaling).
// ascendc_add_gbps          the add_custom-style TPipe/TQue half add over 64 Mi elements: bytes of one vector
//                           per second (compare host_memcpy_gbps, bytes copied per second).
// vector_add_gbps           a plain scalar-loop float add over 64 Mi floats (256 MiB per vector), likewise.
//
// The values of kernel_scaling* are reported through the p50_ns counter, which collect.py takes as the key's
// value for keys without a time or bandwidth unit.
#include <algorithm>
#include <vector>

#include "common/bench_util.h"
#include "common/gated_enqueue.h"
#include "common/handoff.h"

namespace npurt_bench {
namespace {

constexpr int kBatch = 128;  // below the sim queue's 256 cells

struct Kernels {
  aclrtBinHandle bin = nullptr;
  aclrtFuncHandle empty = nullptr;
  aclrtFuncHandle compute = nullptr;
  aclrtFuncHandle ascendc_add = nullptr;
  aclrtFuncHandle vector_add = nullptr;
};

const Kernels& K() {
  static Kernels k = [] {
    UseDevice0();
    Kernels r;
    BENCH_CHECK(aclrtBinaryLoadFromFile(NPURT_BENCH_KERNELS, nullptr, &r.bin));
    BENCH_CHECK(aclrtBinaryGetFunction(r.bin, "bench_empty", &r.empty));
    BENCH_CHECK(aclrtBinaryGetFunction(r.bin, "bench_compute", &r.compute));
    BENCH_CHECK(aclrtBinaryGetFunction(r.bin, "bench_ascendc_add", &r.ascendc_add));
    BENCH_CHECK(aclrtBinaryGetFunction(r.bin, "bench_vector_add", &r.vector_add));
    return r;
  }();
  return k;
}

uint32_t AiCores() {
  int64_t cores = 1;
  BENCH_CHECK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
  return static_cast<uint32_t>(std::max<int64_t>(cores, 1));
}

void KernelLaunchEnqueue(benchmark::State& state) {
  const Kernels& k = K();
  aclrtStream stream = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  {
    Sampler sampler(state);
    int n = 0;
    uint64_t t0 = 0;
    for (auto _ : state) {
      if (n == 0) t0 = NowNs();
      BENCH_CHECK(aclrtLaunchKernel(k.empty, 1, nullptr, 0, stream));
      if (++n == kBatch) {
        sampler.Add(NowNs() - t0, kBatch);
        BENCH_CHECK(aclrtSynchronizeStream(stream));
        n = 0;
      }
    }
    if (n != 0) sampler.Add(NowNs() - t0, static_cast<uint64_t>(n));
  }
  BENCH_CHECK(aclrtSynchronizeStream(stream));
  BENCH_CHECK(aclrtDestroyStream(stream));
}
BENCHMARK(KernelLaunchEnqueue)->Name("kernel_launch_enqueue_ns")->UseManualTime();

void KernelLaunchEnqueueGated(benchmark::State& state) {
  aclrtFuncHandle empty = K().empty;
  aclrtStream stream = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  RunGatedEnqueue(
      state, stream, kBatch,
      [](void* f, aclrtStream s) { BENCH_CHECK(aclrtLaunchKernel(static_cast<aclrtFuncHandle>(f), 1, nullptr, 0, s)); },
      empty);
  BENCH_CHECK(aclrtDestroyStream(stream));
}
// A fixed count, like launch_enqueue_gated_ns: most of the wall time (the hold's round trip per batch) is
// not timed.
BENCHMARK(KernelLaunchEnqueueGated)
    ->Name("kernel_launch_enqueue_gated_ns")
    ->UseManualTime()
    ->Iterations(int64_t{kBatch} * 4000);

void KernelRoundtrip(benchmark::State& state) {
  const Kernels& k = K();
  aclrtStream stream = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  BENCH_CHECK(aclrtLaunchKernel(k.empty, 1, nullptr, 0, stream));
  BENCH_CHECK(aclrtSynchronizeStream(stream));
  {
    Sampler sampler(state);
    for (auto _ : state) {
      const uint64_t t0 = NowNs();
      BENCH_CHECK(aclrtLaunchKernel(k.empty, 1, nullptr, 0, stream));
      BENCH_CHECK(aclrtSynchronizeStream(stream));
      sampler.Add(NowNs() - t0);
    }
  }
  BENCH_CHECK(aclrtDestroyStream(stream));
}
BENCHMARK(KernelRoundtrip)->Name("kernel_roundtrip_us")->UseManualTime()->Unit(benchmark::kMicrosecond);
// Its floor, interleaved with it in this executable (handoff_us of bench_roundtrip runs minutes apart).
BENCHMARK(BareHandoff)->Name("kernel_handoff_us")->UseManualTime()->Unit(benchmark::kMicrosecond);

// Median time (ns) of `reps` runs of the compute kernel on 8 x cores blocks, the stream limited to `cores`.
double ComputeRunNs(aclrtStream stream, uint32_t cores, uint32_t blocks, void* out, int reps) {
  BENCH_CHECK(aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE, cores));
  const uint32_t iterations = 1u << 20;
  void* array_out = out;
  uint32_t it = iterations;
  void* args[] = {&array_out, &it};
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    const uint64_t t0 = NowNs();
    BENCH_CHECK(aclrtLaunchKernelWithArgsArray(K().compute, blocks, stream, nullptr, args));
    BENCH_CHECK(aclrtSynchronizeStream(stream));
    times.push_back(static_cast<double>(NowNs() - t0));
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

struct Scaling {
  double speedup = 0;
  uint32_t cores = 1;
};

const Scaling& MeasureScaling() {
  static Scaling s = [] {
    UseDevice0();  // benchmarks run in shuffled order: this one may come first
    Scaling r;
    r.cores = AiCores();
    const uint32_t blocks = 8 * r.cores;
    aclrtStream stream = nullptr;
    void* out = nullptr;
    BENCH_CHECK(aclrtCreateStream(&stream));
    BENCH_CHECK(aclrtMalloc(&out, blocks * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    (void)ComputeRunNs(stream, r.cores, blocks, out, 1);  // warm up
    const double one = ComputeRunNs(stream, 1, blocks, out, 5);
    const double all = ComputeRunNs(stream, r.cores, blocks, out, 5);
    r.speedup = one / all;
    BENCH_CHECK(aclrtFree(out));
    BENCH_CHECK(aclrtDestroyStream(stream));
    return r;
  }();
  return s;
}

void KernelScaling(benchmark::State& state) {
  const Scaling& s = MeasureScaling();
  for (auto _ : state) state.SetIterationTime(1e-3);
  state.counters["p50_ns"] = s.speedup;
  state.counters["ai_cores"] = s.cores;
}
BENCHMARK(KernelScaling)->Name("kernel_scaling")->UseManualTime()->Iterations(1);

void KernelScalingPerCore(benchmark::State& state) {
  const Scaling& s = MeasureScaling();
  for (auto _ : state) state.SetIterationTime(1e-3);
  state.counters["p50_ns"] = s.speedup / s.cores;
}
BENCHMARK(KernelScalingPerCore)->Name("kernel_scaling_per_core")->UseManualTime()->Iterations(1);

// A vector add over `elements` of `elem_bytes` each: three device buffers, warm, timed per launch + sync.
void VectorAddBandwidth(benchmark::State& state, aclrtFuncHandle func, size_t elements, size_t elem_bytes) {
  UseDevice0();
  const size_t bytes = elements * elem_bytes;
  void* x = nullptr;
  void* y = nullptr;
  void* z = nullptr;
  BENCH_CHECK(aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  BENCH_CHECK(aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  BENCH_CHECK(aclrtMalloc(&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  // Warm every page (a device arena is committed on first touch) with non-zero data.
  BENCH_CHECK(aclrtMemset(x, bytes, 0x3c, bytes));
  BENCH_CHECK(aclrtMemset(y, bytes, 0x3c, bytes));
  BENCH_CHECK(aclrtMemset(z, bytes, 0, bytes));
  aclrtStream stream = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  const uint32_t blocks = 8 * AiCores();
  uint64_t n = elements;
  void* args[] = {&x, &y, &z, &n};
  BENCH_CHECK(aclrtLaunchKernelWithArgsArray(func, blocks, stream, nullptr, args));
  BENCH_CHECK(aclrtSynchronizeStream(stream));
  {
    Sampler sampler(state);
    for (auto _ : state) {
      const uint64_t t0 = NowNs();
      BENCH_CHECK(aclrtLaunchKernelWithArgsArray(func, blocks, stream, nullptr, args));
      BENCH_CHECK(aclrtSynchronizeStream(stream));
      sampler.Add(NowNs() - t0);
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.counters["bytes_per_op"] = static_cast<double>(bytes);
  BENCH_CHECK(aclrtDestroyStream(stream));
  BENCH_CHECK(aclrtFree(x));
  BENCH_CHECK(aclrtFree(y));
  BENCH_CHECK(aclrtFree(z));
}

void AscendcAdd(benchmark::State& state) { VectorAddBandwidth(state, K().ascendc_add, 64u << 20, 2); }
BENCHMARK(AscendcAdd)->Name("ascendc_add_gbps")->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.5);

void VectorAdd(benchmark::State& state) { VectorAddBandwidth(state, K().vector_add, 64u << 20, 4); }
BENCHMARK(VectorAdd)->Name("vector_add_gbps")->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.5);

}  // namespace
}  // namespace npurt_bench
