// The enqueue workload of the "compiled in but off" benchmarks (prof_off_overhead, racecheck_off_overhead):
// batches of 4-byte aclrtMemsetAsync on one stream, which reach Stream::Submit as copies and launches do.
#pragma once

#include <acl/acl.h>

#include <cstdint>

#include "common/bench_util.h"

namespace npurt_bench {

inline constexpr int kEnqueueBatch = 128;  // below the sim queue's 256 cells, as launch_enqueue_ns

struct MemsetBatcher {
  aclrtStream stream = nullptr;
  void* buf = nullptr;
  MemsetBatcher() {
    UseDevice0();
    BENCH_CHECK(aclrtCreateStream(&stream));
    BENCH_CHECK(aclrtMalloc(&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  }
  ~MemsetBatcher() {
    BENCH_CHECK(aclrtSynchronizeStream(stream));
    BENCH_CHECK(aclrtFree(buf));
    BENCH_CHECK(aclrtDestroyStream(stream));
  }
  MemsetBatcher(const MemsetBatcher&) = delete;
  MemsetBatcher& operator=(const MemsetBatcher&) = delete;
  // One batch: mean ns per enqueue (the stream drains outside the timed region).
  double Batch() {
    const uint64_t t0 = NowNs();
    for (int i = 0; i < kEnqueueBatch; ++i) BENCH_CHECK(aclrtMemsetAsync(buf, 4096, 0, 4, stream));
    const uint64_t t1 = NowNs();
    BENCH_CHECK(aclrtSynchronizeStream(stream));
    return static_cast<double>(t1 - t0) / kEnqueueBatch;
  }
};

}  // namespace npurt_bench
