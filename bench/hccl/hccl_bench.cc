// Collectives on 8 simulated devices of this process (HcclCommInitAll), one thread per rank, the way
// hccl_test drives them; against a single-thread memcpy of the same size (bench/memcpy's host_memcpy_gbps).
//
// allreduce_busbw_gbps   64 MiB fp32 sum over 8 ranks: bus bandwidth as nccl-tests define it, i.e. the
//                        per-rank bytes x 2(n-1)/n over the median time of one allreduce (from the ranks'
//                        issue to the last rank's stream synchronised)
// allreduce_small_us     8 bytes over 8 ranks: the median latency of one allreduce, issue to synchronised
// Ratio (bench/collect.py): allreduce_busbw_over_memcpy = allreduce_busbw_gbps / host_memcpy_gbps.
#include <hccl/hccl.h>

#include <atomic>
#include <barrier>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

#include "common/bench_util.h"

namespace npurt_bench {
namespace {

constexpr uint32_t kRanks = 8;

// Eight simulated devices for this process, set before the first aclInit.
struct EightDevices {
  EightDevices() { setenv("NPURT_SIM_DEVICE_COUNT", "8", 0); }
} g_eight_devices;

// Persistent rank threads: each round, every rank runs `op` on its stream and synchronises it.
class Ranks {
 public:
  explicit Ranks(size_t bytes) : bytes_(bytes), start_(kRanks + 1), done_(kRanks + 1) {
    UseDevice0();
    int32_t devices[kRanks];
    for (uint32_t i = 0; i < kRanks; ++i) {
      devices[i] = static_cast<int32_t>(i);
      BENCH_CHECK(aclrtSetDevice(devices[i]));
    }
    comms_.resize(kRanks);
    if (HcclCommInitAll(kRanks, devices, comms_.data()) != HCCL_SUCCESS) std::abort();
    for (uint32_t r = 0; r < kRanks; ++r) threads_.emplace_back([this, r] { Loop(r); });
    UseDevice0();
  }
  ~Ranks() {
    stop_ = true;
    start_.arrive_and_wait();
    for (auto& t : threads_) t.join();
    for (HcclComm c : comms_) HcclCommDestroy(c);
  }
  // One round on every rank; returns when all are synchronised.
  void Round() {
    start_.arrive_and_wait();
    done_.arrive_and_wait();
  }

 private:
  void Loop(uint32_t r) {
    BENCH_CHECK(aclrtSetDevice(static_cast<int32_t>(r)));
    aclrtStream stream = nullptr;
    BENCH_CHECK(aclrtCreateStream(&stream));
    void* buf = nullptr;
    BENCH_CHECK(aclrtMalloc(&buf, bytes_, ACL_MEM_MALLOC_HUGE_FIRST));
    BENCH_CHECK(aclrtMemset(buf, bytes_, 0, bytes_));  // warm: every page touched
    for (;;) {
      start_.arrive_and_wait();
      if (stop_) break;
      if (HcclAllReduce(buf, buf, bytes_ / 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms_[r], stream) != HCCL_SUCCESS) std::abort();
      BENCH_CHECK(aclrtSynchronizeStream(stream));
      done_.arrive_and_wait();
    }
    BENCH_CHECK(aclrtFree(buf));
    BENCH_CHECK(aclrtDestroyStream(stream));
  }

  const size_t bytes_;
  std::vector<HcclComm> comms_;
  std::vector<std::thread> threads_;
  std::barrier<> start_, done_;
  std::atomic<bool> stop_{false};
};

void AllReduceBusBw(benchmark::State& state) {
  constexpr size_t kBytes = 64u << 20;
  Ranks ranks(kBytes);
  ranks.Round();  // warm-up
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    ranks.Round();
    sampler.Add(NowNs() - t0);
  }
  state.counters["bytes_per_op"] = static_cast<double>(kBytes) * 2.0 * (kRanks - 1) / kRanks;
}
BENCHMARK(AllReduceBusBw)->Name("allreduce_busbw_gbps")->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(1.0);

void AllReduceSmall(benchmark::State& state) {
  Ranks ranks(8);
  for (int i = 0; i < 10; ++i) ranks.Round();
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    ranks.Round();
    sampler.Add(NowNs() - t0);
  }
}
BENCHMARK(AllReduceSmall)->Name("allreduce_small_us")->UseManualTime()->Unit(benchmark::kMicrosecond)->MinTime(0.5);

}  // namespace
}  // namespace npurt_bench
