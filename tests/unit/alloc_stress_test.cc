// Randomised, seeded, time-bounded stress of device 0's allocator (the path under aclrtMalloc and
// aclrtFree, with the same stream fences), checked against a model of what must be live: three threads
// allocate (every policy, 1 B .. 8 MiB), stamp each block at both ends, hand blocks to each other to free
// (cross-thread frees), try bad frees, look pointers up, and verify the stamps before every free (an
// overlap between two live blocks would overwrite one). At the end everything is freed and the accounts
// must return to where they started. Half the allocations and frees try the aclrtMalloc/aclrtFree fast
// paths (AllocateCached, FreeCached) first. One run walks every pool after each operation (debug_checks), one
// runs expandable segments at full speed.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "core/context.h"
#include "core/device.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace npurt::core {
namespace {

struct Live {
  void* ptr;
  size_t size;
  uint64_t token;
};

void Stamp(const Live& l) {
  std::memcpy(l.ptr, &l.token, std::min<size_t>(8, l.size));
  if (l.size >= 16) std::memcpy(static_cast<char*>(l.ptr) + l.size - 8, &l.token, 8);
}

bool StampIntact(const Live& l) {
  uint64_t a = 0, b = l.token;
  std::memcpy(&a, l.ptr, std::min<size_t>(8, l.size));
  if (l.size >= 16) std::memcpy(&b, static_cast<char*>(l.ptr) + l.size - 8, 8);
  const uint64_t mask = l.size >= 8 ? ~0ull : ((1ull << (8 * l.size)) - 1);
  return (a & mask) == (l.token & mask) && b == l.token;
}

void RunStress(std::chrono::milliseconds budget, uint64_t seed) {
  auto opened = Runtime::Get().GetDevice(0);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  Device* dev = opened.value();
  Context* ctx = dev->RetainDefaultContext().value();
  DeviceAllocator& alloc = dev->allocator();
  const CachingStats before = alloc.caching().Stats();

  std::mutex exchange_mu;
  std::vector<Live> exchange;  // blocks handed to whichever thread frees them
  std::atomic<uint64_t> ops{0}, failures{0};
  const auto deadline = std::chrono::steady_clock::now() + budget;
  auto worker = [&](int index) {
    std::mt19937_64 rng(seed * 1000003 + static_cast<uint64_t>(index));
    std::vector<Live> live;
    const uint32_t policies[] = {ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY, ACL_MEM_MALLOC_NORMAL_ONLY};
    auto free_one = [&](const Live& l) {
      if (!StampIntact(l)) {
        ADD_FAILURE() << "block " << l.ptr << " (" << l.size << " bytes) was overwritten: live blocks overlap";
        failures++;
      }
      // Half the frees take aclrtFree's fast path first (the thread cache, when no stream is busy).
      if (rng() % 2 == 0 && !AnyStreamBusy(dev) && alloc.FreeCached(l.ptr)) return;
      size_t n = 0;
      const StreamFence* f = BusyFences(dev, &n);
      Status st = alloc.Free(l.ptr, f, n);
      if (!st.ok()) {
        ADD_FAILURE() << "free of live " << l.ptr << " failed: " << st.message();
        failures++;
      }
    };
    while (std::chrono::steady_clock::now() < deadline && failures.load() == 0) {
      const int op = static_cast<int>(rng() % 100);
      ops++;
      if (op < 50 || live.empty()) {
        const double lg = std::uniform_real_distribution<double>(0.0, std::log(8.0 * (1 << 20)))(rng);
        const size_t size = std::max<size_t>(1, static_cast<size_t>(std::exp(lg)));
        AllocRequest r;
        r.size = size;
        r.policy = policies[rng() % 3];
        r.owner = ctx;
        // Half the allocations try aclrtMalloc's fast path (the thread cache) first.
        void* fast = rng() % 2 == 0 ? alloc.AllocateCached(size, r.policy, true, ctx) : nullptr;
        auto p = fast != nullptr ? StatusOr<void*>(fast) : alloc.Allocate(r);
        if (!p.ok()) continue;  // out of memory under pressure is allowed
        Live l{p.value(), size, rng() | 1};
        Stamp(l);
        live.push_back(l);
      } else if (op < 85) {
        const size_t k = rng() % live.size();
        free_one(live[k]);
        live[k] = live.back();
        live.pop_back();
      } else if (op < 92) {
        const size_t k = rng() % live.size();
        std::lock_guard<std::mutex> lock(exchange_mu);
        exchange.push_back(live[k]);
        live[k] = live.back();
        live.pop_back();
      } else if (op < 96) {
        Live l{};
        {
          std::lock_guard<std::mutex> lock(exchange_mu);
          if (exchange.empty()) continue;
          l = exchange.back();
          exchange.pop_back();
        }
        free_one(l);  // freed by another thread than the one that allocated it
      } else {
        const Live& l = live[rng() % live.size()];
        AllocationInfo info;
        EXPECT_TRUE(alloc.Lookup(static_cast<char*>(l.ptr) + l.size - 1, &info));
        EXPECT_EQ(reinterpret_cast<uintptr_t>(l.ptr), info.base);
        EXPECT_EQ(l.size, info.size);
        if (l.size > 1) {
          EXPECT_FALSE(alloc.Free(static_cast<char*>(l.ptr) + 1, nullptr, 0).ok()) << "interior pointer";
          EXPECT_FALSE(alloc.FreeCached(static_cast<char*>(l.ptr) + 1)) << "interior pointer, fast path";
        }
        // What aclrtGetMemInfo counts (returns this thread's cache, under the allocator's lock).
        EXPECT_LE(alloc.UsedBytes(), alloc.memory().capacity());
      }
    }
    for (const Live& l : live) free_one(l);
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i) threads.emplace_back(worker, i);
  for (auto& t : threads) t.join();
  for (const Live& l : exchange) {
    EXPECT_TRUE(StampIntact(l));
    EXPECT_TRUE(alloc.Free(l.ptr, nullptr, 0).ok());
  }
  EXPECT_EQ(0u, failures.load());
  EXPECT_GT(ops.load(), 1000u);
  const CachingStats after = alloc.caching().Stats();
  EXPECT_EQ(before.total.allocated, after.total.allocated) << "every byte handed out came back";
  EXPECT_EQ(before.total.live_blocks, after.total.live_blocks);
  const Status check = alloc.caching().CheckInvariants();
  EXPECT_TRUE(check.ok()) << check.message();
  std::printf("stress: %llu operations, %llu allocations, %llu retries, %llu OOMs, peak reserved %.1f MiB\n",
              static_cast<unsigned long long>(ops.load()),
              static_cast<unsigned long long>(after.alloc_count - before.alloc_count),
              static_cast<unsigned long long>(after.retries - before.retries),
              static_cast<unsigned long long>(after.ooms - before.ooms),
              double(after.total.reserved_peak) / double(1 << 20));
  (void)dev->ReleaseDefaultContext(true);
}

TEST(AllocStress, ModelCheckedWithInvariantWalks) {
  setenv("NPURT_ALLOC_CONF", "debug_checks:True", 1);
  setenv("NPURT_SIM_MEMORY_MB", "256", 1);  // small: pressure, retries and OOMs happen
  RunStress(std::chrono::milliseconds(1500), 1);
}

TEST(AllocStress, ModelCheckedFullSpeedExpandable) {
  setenv("NPURT_ALLOC_CONF", "expandable_segments:True", 1);
  setenv("NPURT_SIM_MEMORY_MB", "256", 1);
  RunStress(std::chrono::milliseconds(1500), 2);
}

}  // namespace
}  // namespace npurt::core
