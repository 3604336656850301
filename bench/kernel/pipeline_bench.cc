// copy_compute_overlap: the design notes' two-stream pipeline (issue 14). Batch n is copied host-to-device
// (pinned memory, kBatchBytes) on a copy stream while a kernel computes batch n-1 on a compute stream; an
// event after each copy gates the kernel of that batch, and an event after each kernel gates the copy that
// reuses its buffer two batches later (double buffering).
//
// The same batches run three ways in one process, interleaved kRounds times: the copies alone, the kernels
// alone, and both together. The kernel's work is calibrated first so that the kernels alone take about as
// long as the copies alone (the case where overlap matters most). The key's value is
//     max(median copies alone, median kernels alone) / median both together
// (1.0 = perfect overlap, 0.5 = fully serialised), reported through the p50_ns counter like kernel_scaling.
// The kernel runs one block, so on the 2-core build machine the copy engine and the AI core have a core
// each; the launching thread sleeps in aclrtSynchronizeStream.
#include <algorithm>
#include <vector>

#include "common/bench_util.h"

namespace npurt_bench {
namespace {

constexpr int kBatches = 12;
constexpr size_t kBatchBytes = 8u << 20;
constexpr int kRounds = 5;
enum Mode { kCopies = 1, kKernels = 2, kBoth = 3 };

struct Pipeline {
  aclrtBinHandle bin = nullptr;
  aclrtFuncHandle compute = nullptr;
  aclrtStream copy_stream = nullptr;
  aclrtStream compute_stream = nullptr;
  void* host = nullptr;
  void* dev[2] = {nullptr, nullptr};
  void* out = nullptr;
  aclrtEvent copied[kBatches] = {};
  aclrtEvent computed[kBatches] = {};
  uint32_t iterations = 1u << 20;

  Pipeline() {
    UseDevice0();
    BENCH_CHECK(aclrtBinaryLoadFromFile(NPURT_BENCH_KERNELS, nullptr, &bin));
    BENCH_CHECK(aclrtBinaryGetFunction(bin, "bench_compute", &compute));
    BENCH_CHECK(aclrtCreateStream(&copy_stream));
    BENCH_CHECK(aclrtCreateStream(&compute_stream));
    BENCH_CHECK(aclrtMallocHost(&host, 2 * kBatchBytes));
    std::fill_n(static_cast<uint8_t*>(host), 2 * kBatchBytes, uint8_t{0x5a});
    for (void*& d : dev) {
      BENCH_CHECK(aclrtMalloc(&d, kBatchBytes, ACL_MEM_MALLOC_HUGE_FIRST));
      BENCH_CHECK(aclrtMemset(d, kBatchBytes, 0, kBatchBytes));  // commit and warm the pages
    }
    BENCH_CHECK(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int n = 0; n < kBatches; ++n) {
      BENCH_CHECK(aclrtCreateEvent(&copied[n]));
      BENCH_CHECK(aclrtCreateEvent(&computed[n]));
    }
  }
  ~Pipeline() {
    for (int n = 0; n < kBatches; ++n) {
      BENCH_CHECK(aclrtDestroyEvent(copied[n]));
      BENCH_CHECK(aclrtDestroyEvent(computed[n]));
    }
    for (void* d : dev) BENCH_CHECK(aclrtFree(d));
    BENCH_CHECK(aclrtFree(out));
    BENCH_CHECK(aclrtFreeHost(host));
    BENCH_CHECK(aclrtDestroyStream(copy_stream));
    BENCH_CHECK(aclrtDestroyStream(compute_stream));
    BENCH_CHECK(aclrtBinaryUnLoad(bin));
  }

  // One pass over the batches in `mode`; wall time in ns from the first submission to both streams idle.
  double Run(int mode) {
    void* args[] = {&out, &iterations};
    const uint64_t t0 = NowNs();
    for (int n = 0; n < kBatches; ++n) {
      const int buf = n % 2;
      if (mode & kCopies) {
        if ((mode & kKernels) && n >= 2) BENCH_CHECK(aclrtStreamWaitEvent(copy_stream, computed[n - 2]));
        BENCH_CHECK(aclrtMemcpyAsync(dev[buf], kBatchBytes, static_cast<uint8_t*>(host) + buf * kBatchBytes,
                                     kBatchBytes, ACL_MEMCPY_HOST_TO_DEVICE, copy_stream));
        BENCH_CHECK(aclrtRecordEvent(copied[n], copy_stream));
      }
      if (mode & kKernels) {
        if (mode & kCopies) BENCH_CHECK(aclrtStreamWaitEvent(compute_stream, copied[n]));
        BENCH_CHECK(aclrtLaunchKernelWithArgsArray(compute, 1, compute_stream, nullptr, args));
        BENCH_CHECK(aclrtRecordEvent(computed[n], compute_stream));
      }
    }
    BENCH_CHECK(aclrtSynchronizeStream(copy_stream));
    BENCH_CHECK(aclrtSynchronizeStream(compute_stream));
    return static_cast<double>(NowNs() - t0);
  }

  // Scales the kernel's loop so that the kernels alone take about as long as the copies alone.
  void Calibrate() {
    (void)Run(kBoth);  // warm up both engines
    const double copies = Run(kCopies);
    for (int step = 0; step < 3; ++step) {
      const double kernels = Run(kKernels);
      const double scaled = static_cast<double>(iterations) * copies / std::max(kernels, 1.0);
      iterations = static_cast<uint32_t>(std::clamp(scaled, 1024.0, 4.0e9));
    }
  }
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void CopyComputeOverlap(benchmark::State& state) {
  Pipeline p;
  p.Calibrate();
  std::vector<double> copies, kernels, both;
  for (auto _ : state) {
    for (int r = 0; r < kRounds; ++r) {
      copies.push_back(p.Run(kCopies));
      kernels.push_back(p.Run(kKernels));
      both.push_back(p.Run(kBoth));
    }
    state.SetIterationTime(1e-3);
  }
  const double c = Median(copies), k = Median(kernels), b = Median(both);
  state.counters["p50_ns"] = std::max(c, k) / b;
  state.counters["copies_alone_ms"] = c * 1e-6;
  state.counters["kernels_alone_ms"] = k * 1e-6;
  state.counters["both_ms"] = b * 1e-6;
  state.counters["kernel_iterations"] = p.iterations;
}
BENCHMARK(CopyComputeOverlap)->Name("copy_compute_overlap")->UseManualTime()->Iterations(1);

}  // namespace
}  // namespace npurt_bench
