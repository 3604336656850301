// overlap_efficiency: a GEMM stream and an allreduce stream on each of 2 ranks (simulated devices of this
// process), run alone and together: max(compute alone, communication alone) / together. 1.0 means the
// collective hid completely behind the compute (or the other way round); 0.5 means they ran one after the
// other. Compute is aclblasGemmEx (fp32 512x512x512, the operator backend on the AI cores), communication
// HcclAllReduce of 16 MiB fp32 on the rank's communication engine. Rounds alternate the three modes; each
// figure is the median of its rounds.
#include <acl/ops/acl_cblas.h>
#include <hccl/hccl.h>

#include <algorithm>
#include <barrier>
#include <cstdlib>
#include <thread>
#include <vector>

#include "common/bench_util.h"

namespace npurt_bench {
namespace {

constexpr uint32_t kOverlapRanks = 2;
constexpr int kDim = 512;
constexpr int kGemms = 6;                  // per rank and round
constexpr size_t kCommBytes = 16u << 20;
constexpr int kRounds = 7;                 // of each mode

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct RankState {
  aclrtStream compute = nullptr, comm = nullptr;
  void *a = nullptr, *b = nullptr, *c = nullptr, *alpha = nullptr, *beta = nullptr, *grads = nullptr;
};

void Setup(uint32_t r, RankState* s) {
  BENCH_CHECK(aclrtSetDevice(static_cast<int32_t>(r)));
  BENCH_CHECK(aclrtCreateStream(&s->compute));
  BENCH_CHECK(aclrtCreateStream(&s->comm));
  const size_t mat = static_cast<size_t>(kDim) * kDim * 4;
  for (void** p : {&s->a, &s->b, &s->c}) {
    BENCH_CHECK(aclrtMalloc(p, mat, ACL_MEM_MALLOC_HUGE_FIRST));
    BENCH_CHECK(aclrtMemset(*p, mat, 0, mat));
  }
  const float one = 1.0f, zero = 0.0f;
  BENCH_CHECK(aclrtMalloc(&s->alpha, 4, ACL_MEM_MALLOC_HUGE_FIRST));
  BENCH_CHECK(aclrtMalloc(&s->beta, 4, ACL_MEM_MALLOC_HUGE_FIRST));
  BENCH_CHECK(aclrtMemcpy(s->alpha, 4, &one, 4, ACL_MEMCPY_HOST_TO_DEVICE));
  BENCH_CHECK(aclrtMemcpy(s->beta, 4, &zero, 4, ACL_MEMCPY_HOST_TO_DEVICE));
  BENCH_CHECK(aclrtMalloc(&s->grads, kCommBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  BENCH_CHECK(aclrtMemset(s->grads, kCommBytes, 0, kCommBytes));
}

void Teardown(RankState* s) {
  for (void* p : {s->a, s->b, s->c, s->alpha, s->beta, s->grads}) BENCH_CHECK(aclrtFree(p));
  BENCH_CHECK(aclrtDestroyStream(s->compute));
  BENCH_CHECK(aclrtDestroyStream(s->comm));
}

// One round on one rank: mode bit 1 = compute, bit 2 = communication.
void Round(const RankState& s, HcclComm comm, int mode) {
  if (mode & 1) {
    for (int i = 0; i < kGemms; ++i) {
      BENCH_CHECK(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, kDim, kDim, kDim, s.alpha, s.a, -1, ACL_FLOAT,
                                s.b, -1, ACL_FLOAT, s.beta, s.c, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, s.compute));
    }
  }
  if (mode & 2) {
    if (HcclAllReduce(s.grads, s.grads, kCommBytes / 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s.comm) != HCCL_SUCCESS) {
      std::abort();
    }
  }
  BENCH_CHECK(aclrtSynchronizeStream(s.compute));
  BENCH_CHECK(aclrtSynchronizeStream(s.comm));
}

void OverlapEfficiency(benchmark::State& state) {
  UseDevice0();
  int32_t devices[kOverlapRanks] = {0, 1};
  for (int32_t d : devices) BENCH_CHECK(aclrtSetDevice(d));
  HcclComm comms[kOverlapRanks];
  if (HcclCommInitAll(kOverlapRanks, devices, comms) != HCCL_SUCCESS) std::abort();
  std::vector<double> alone_compute, alone_comm, both;
  for (auto _ : state) {
    std::barrier<> start(kOverlapRanks + 1), done(kOverlapRanks + 1);
    int mode = 0;
    std::vector<std::thread> threads;
    for (uint32_t r = 0; r < kOverlapRanks; ++r) {
      threads.emplace_back([&, r] {
        RankState s;
        Setup(r, &s);
        Round(s, comms[r], 3);  // warm-up: the GEMM is compiled and cached, pages touched
        for (;;) {
          start.arrive_and_wait();
          if (mode == 0) break;
          Round(s, comms[r], mode);
          done.arrive_and_wait();
        }
        Teardown(&s);
      });
    }
    for (int i = 0; i < 3 * kRounds; ++i) {
      mode = 1 + i % 3;
      const uint64_t t0 = NowNs();
      start.arrive_and_wait();
      done.arrive_and_wait();
      const double ns = static_cast<double>(NowNs() - t0);
      (mode == 1 ? alone_compute : mode == 2 ? alone_comm : both).push_back(ns);
    }
    mode = 0;
    start.arrive_and_wait();
    for (auto& t : threads) t.join();
    state.SetIterationTime(1e-3);
  }
  for (HcclComm c : comms) HcclCommDestroy(c);
  const double c = Median(alone_compute), m = Median(alone_comm), b = Median(both);
  state.counters["p50_ns"] = std::max(c, m) / b;
  state.counters["compute_alone_ms"] = c * 1e-6;
  state.counters["comm_alone_ms"] = m * 1e-6;
  state.counters["both_ms"] = b * 1e-6;
}
BENCHMARK(OverlapEfficiency)->Name("overlap_efficiency")->UseManualTime()->Iterations(1);

}  // namespace
}  // namespace npurt_bench
