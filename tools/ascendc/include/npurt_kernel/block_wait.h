// Bounded waiting of one block for another on the sim: the primitives that synchronise blocks through
// global memory (IBSet/IBWait, WaitPreBlock/NotifyNextBlock, GroupBarrier; npurt_kernel/block_sync.h) poll a
// word of global memory. The blocks of a launch are threads of the host; the kernel generator marks kernels
// calling these primitives co-operative, so that every block of their launches runs at once (as SyncAll's).
//
// A wait that cannot complete (the awaited block ended, failed, or never sets the flag) would hang on an NPU;
// here it fails the kernel with a message after NPURT_SIM_BLOCK_WAIT_S seconds (default 300: the sim is
// slow, and a block may compute for minutes before it sets the flag another waits for), so a deadlocked
// kernel reports itself instead of hanging the process. The runtime's own launch timeout and
// aclrtStreamAbort still interrupt a waiting block (the wait holds no lock). Part of kernel_operator.h.
#pragma once

#include <atomic>
#include <ctime>
#include <sched.h>

#include "npurt_kernel/base.h"

namespace AscendC::npurt_detail {

inline uint64_t MonotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// The longest a block waits for another, in nanoseconds (read at each wait: kernel code keeps no state
// across launches).
inline uint64_t BlockWaitLimitNs() {
  const char* env = std::getenv("NPURT_SIM_BLOCK_WAIT_S");
  double s = env != nullptr ? std::atof(env) : 0.0;
  if (!(s > 0.0)) s = 300.0;
  return static_cast<uint64_t>(s * 1e9);
}

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// Polls `ready()` until it returns true. Spins briefly, then yields, then sleeps up to 1 ms between polls
// (the host may have fewer CPUs than the launch has blocks). After the limit, `timeout(waited_seconds)` is
// called; it must fail the kernel (npurt_detail::Fail) with a message naming the primitive and the block.
template <typename Ready, typename Timeout>
inline void WaitUntil(Ready&& ready, Timeout&& timeout) {
  if (ready()) return;
  const uint64_t start = MonotonicNs();
  const uint64_t limit = BlockWaitLimitNs();
  uint64_t sleep_ns = 20000;
  for (uint32_t polls = 1;; ++polls) {
    if (polls < 64) {
      CpuRelax();
    } else if (polls < 256) {
      sched_yield();
    } else {
      timespec ts{0, static_cast<long>(sleep_ns)};
      nanosleep(&ts, nullptr);
      if (sleep_ns < 1000000) sleep_ns *= 2;
    }
    if (ready()) return;
    if ((polls & 15u) == 0) {
      const uint64_t waited = MonotonicNs() - start;
      if (waited > limit) timeout(static_cast<double>(waited) * 1e-9);
    }
  }
}

// An element of global memory accessed atomically (the kernels are C++17: no std::atomic_ref). Blocks that
// synchronise through global memory are threads of the host.
template <typename T>
struct GmAtomic {
  T* p;
  T load(std::memory_order mo) const { return __atomic_load_n(p, static_cast<int>(mo)); }
  void store(T v, std::memory_order mo) const { __atomic_store_n(p, v, static_cast<int>(mo)); }
  T fetch_add(T v, std::memory_order mo) const { return __atomic_fetch_add(p, v, static_cast<int>(mo)); }
  bool compare_exchange_strong(T& expected, T desired, std::memory_order mo) const {
    return __atomic_compare_exchange_n(p, &expected, desired, false, static_cast<int>(mo), __ATOMIC_ACQUIRE);
  }
};

// A 32-bit word of global memory that blocks synchronise on. The word must be naturally aligned.
inline GmAtomic<int32_t> GmWord(__gm__ int32_t* p, const char* what) {
  if ((reinterpret_cast<uintptr_t>(p) & 3u) != 0) {
    Fail("%s: the synchronisation word at %p in global memory is not 4-byte aligned", what, static_cast<void*>(p));
  }
  CheckGlobal(p, sizeof(int32_t), true, what);
  return GmAtomic<int32_t>{p};
}

}  // namespace AscendC::npurt_detail
