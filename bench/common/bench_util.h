// Shared helpers for the npurt benchmarks: error checks, device bring-up, per-sample statistics and
// the spin-then-sleep signal used by the bare hand-off baseline.
//
// Every benchmark reports, besides Google Benchmark's mean time per iteration:
//   p50_ns / p99_ns  the median and 99th percentile of its samples, in ns per operation (a sample is one
//                    timed operation, or the mean of a timed batch of operations for sub-microsecond ones)
//   bytes_per_op     for copies: the bytes one operation moves
// bench/collect.py turns the median (over repetitions) of p50_ns into the keys of results.json.
#pragma once

#include <acl/acl.h>
#include <benchmark/benchmark.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace npurt_bench {

#define BENCH_CHECK(expr)                                                                                 \
  do {                                                                                                    \
    const aclError bench_rc_ = (expr);                                                                    \
    if (bench_rc_ != ACL_SUCCESS) {                                                                       \
      const char* bench_msg_ = aclGetRecentErrMsg();                                                      \
      std::fprintf(stderr, "%s:%d: %s failed with %d: %s\n", __FILE__, __LINE__, #expr, bench_rc_,          \
                   bench_msg_ != nullptr ? bench_msg_ : "(no message)");                                  \
      std::abort();                                                                                       \
    }                                                                                                     \
  } while (0)

inline uint64_t NowNs() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

// aclInit once per process and device 0 current on the calling thread.
void UseDevice0();

// Collects per-operation samples (ns) and reports p50_ns / p99_ns; also feeds manual time so that
// Google Benchmark's own time column covers only the timed regions.
class Sampler {
 public:
  explicit Sampler(benchmark::State& state) : state_(state) { samples_.reserve(1 << 16); }
  ~Sampler() { Report(); }

  // One timed region of `ops` operations that took `ns`.
  void Add(uint64_t ns, uint64_t ops = 1) {
    state_.SetIterationTime(static_cast<double>(ns) * 1e-9);
    samples_.push_back(static_cast<double>(ns) / static_cast<double>(ops));
  }

 private:
  double Percentile(double q) {
    const size_t k = std::min(samples_.size() - 1, static_cast<size_t>(q * static_cast<double>(samples_.size())));
    std::nth_element(samples_.begin(), samples_.begin() + static_cast<std::ptrdiff_t>(k), samples_.end());
    return samples_[k];
  }
  void Report() {
    if (samples_.empty()) return;
    state_.counters["p50_ns"] = Percentile(0.50);
    state_.counters["p99_ns"] = Percentile(0.99);
  }

  benchmark::State& state_;
  std::vector<double> samples_;
};

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// A "something changed" signal with the waiting policy of a well-written runtime: the waiter spins
// for `spin_ns` re-checking its condition, then registers as a sleeper and futex-waits; the notifier
// makes a syscall only when someone sleeps. (The same protocol as npurt's WaitSignal, written out
// here so that the baseline does not depend on the code it is compared with.)
class SpinThenSleep {
 public:
  void NotifyIfSleeping() {
    // A read-modify-write pairs with the waiter's registration (one of the two sees the other).
    if (sleepers_.fetch_add(0, std::memory_order_seq_cst) > 0) {
      epoch_.fetch_add(1, std::memory_order_seq_cst);
      syscall(SYS_futex, reinterpret_cast<uint32_t*>(&epoch_), FUTEX_WAKE_PRIVATE, INT32_MAX, nullptr, nullptr, 0);
    }
  }

  template <typename Ready>
  void Wait(Ready&& ready, uint64_t spin_ns) {
    if (ready()) return;
    const uint64_t spin_end = NowNs() + spin_ns;
    for (uint32_t i = 0;; ++i) {
      if (ready()) return;
      if ((i & 63) == 63 && NowNs() >= spin_end) break;
      CpuRelax();
    }
    for (;;) {
      const uint32_t seen = epoch_.load(std::memory_order_acquire);
      sleepers_.fetch_add(1, std::memory_order_seq_cst);
      if (!ready()) {
        syscall(SYS_futex, reinterpret_cast<uint32_t*>(&epoch_), FUTEX_WAIT_PRIVATE, seen, nullptr, nullptr, 0);
      }
      sleepers_.fetch_sub(1, std::memory_order_acq_rel);
      if (ready()) return;
    }
  }

 private:
  std::atomic<uint32_t> epoch_{0};
  std::atomic<int32_t> sleepers_{0};
};

}  // namespace npurt_bench
