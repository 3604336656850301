// The sim's deadline timer (drivers/sim/sim_deadline_timer.h), the one thread of a device that fires both
// wait timeouts and kernel execution timeouts: deadlines fire once, in deadline order, not before they pass;
// a cancelled one never fires; a cancel waits for a delivery in progress, and does not wait for itself when
// the delivery cancels (a kernel timeout completes its job on the timer's thread).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "drivers/sim/sim_deadline_timer.h"

namespace npurt::drivers::sim {
namespace {

class Recorder final : public DeadlineTimer::Client {
 public:
  void OnDeadline(uint64_t key) override {
    std::lock_guard<std::mutex> lock(mu);
    fired.push_back({key, NowNs()});
  }
  std::mutex mu;
  std::vector<std::pair<uint64_t, uint64_t>> fired;  // key, when
};

TEST(DeadlineTimerTest, FiresEachDeadlineOnceInOrderAndNotEarly) {
  DeadlineTimer timer;
  Recorder r;
  std::mt19937_64 rng(11);
  // 101..130 ms from now, in random order. The first deadline lies far beyond the arming loop (which takes
  // over a millisecond under ThreadSanitizer): a deadline armed after an earlier one had already passed
  // would rightly fire after later ones, and the order check would fail on the test, not the timer.
  const uint64_t start = NowNs() + 100'000'000;
  std::vector<uint64_t> deadlines;
  for (uint64_t key = 0; key < 40; ++key) {
    deadlines.push_back(start + (1 + rng() % 30) * 1'000'000);
    timer.Arm(deadlines.back(), &r, key);
  }
  for (int i = 0; i < 2000; ++i) {
    {
      std::lock_guard<std::mutex> lock(r.mu);
      if (r.fired.size() == deadlines.size()) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::lock_guard<std::mutex> lock(r.mu);
  ASSERT_EQ(r.fired.size(), deadlines.size());
  std::vector<bool> seen(deadlines.size(), false);
  uint64_t last_deadline = 0;
  for (const auto& [key, when] : r.fired) {
    ASSERT_LT(key, deadlines.size());
    EXPECT_FALSE(seen[key]) << "deadline " << key << " fired twice";
    seen[key] = true;
    EXPECT_GE(when, deadlines[key]) << "deadline " << key << " fired early";
    EXPECT_GE(deadlines[key], last_deadline) << "out of deadline order";
    last_deadline = deadlines[key];
  }
}

TEST(DeadlineTimerTest, CancelledDeadlinesNeverFire) {
  DeadlineTimer timer;
  Recorder a, b;
  const uint64_t soon = NowNs() + 20'000'000;
  for (uint64_t key = 0; key < 10; ++key) {
    timer.Arm(soon, &a, key);
    timer.Arm(soon, &b, key);
  }
  timer.Cancel(&a, 3);
  timer.CancelAll(&b);
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  std::lock_guard<std::mutex> la(a.mu), lb(b.mu);
  EXPECT_EQ(a.fired.size(), 9u);
  for (const auto& f : a.fired) EXPECT_NE(f.first, 3u);
  EXPECT_TRUE(b.fired.empty());
}

// Blocks in its delivery until released; cancels itself from inside it when asked.
class Slow final : public DeadlineTimer::Client {
 public:
  explicit Slow(DeadlineTimer* t) : timer(t) {}
  void OnDeadline(uint64_t key) override {
    if (cancel_self) timer->Cancel(this, key);  // must not wait for its own delivery
    entered.store(true);
    while (!release.load()) std::this_thread::yield();
    left.store(true);
  }
  DeadlineTimer* timer;
  bool cancel_self = false;
  std::atomic<bool> entered{false}, release{false}, left{false};
};

TEST(DeadlineTimerTest, CancelWaitsForADeliveryInProgress) {
  DeadlineTimer timer;
  Slow s(&timer);
  timer.Arm(NowNs(), &s, 1);
  while (!s.entered.load()) std::this_thread::yield();
  std::atomic<bool> cancelled{false};
  std::thread canceller([&] {
    timer.CancelAll(&s);
    cancelled.store(true);
    EXPECT_TRUE(s.left.load()) << "CancelAll returned while the delivery was still running";
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(cancelled.load());
  s.release.store(true);
  canceller.join();
  EXPECT_TRUE(cancelled.load());
}

TEST(DeadlineTimerTest, ADeliveryMayCancelItself) {
  DeadlineTimer timer;
  Slow s(&timer);
  s.cancel_self = true;
  s.release.store(true);
  timer.Arm(NowNs(), &s, 7);
  for (int i = 0; i < 5000 && !s.left.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(s.left.load()) << "the delivery waited for itself";
}

}  // namespace
}  // namespace npurt::drivers::sim
