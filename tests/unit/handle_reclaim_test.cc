// Deferred reclamation of handle objects (src/base/handle_reclaim.h): an object whose last reference goes
// while another thread's call holds it (looked it up inside a HandleScope) is destroyed when that call ends,
// not before; lookups after the destroy fail; a call that took a reference keeps the object alive.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "base/handle.h"
#include "base/handle_reclaim.h"
#include "core/handle_tags.h"

namespace npurt {
namespace {

constexpr HandleTag kTestTag = handle_tags::kLabel;  // any tag: the objects are never seen by the API

std::atomic<int> g_destroyed{0};

class TestObject final : public HandleObject {
 public:
  explicit TestObject(uint64_t payload) : HandleObject(kTestTag), payload(payload) {}
  ~TestObject() override {
    payload = 0;  // a reader of a destroyed object would see this
    g_destroyed.fetch_add(1);
  }
  uint64_t payload;
};

uint64_t RandomPayload() {
  static std::mt19937_64 rng(std::random_device{}());
  return rng() | 1;  // never zero
}

// A call on another thread, stepped by the test: Enter() looks `handle` up inside a HandleScope and keeps
// the scope open until Leave().
class HoldingCall {
 public:
  explicit HoldingCall(std::vector<const void*> handles, bool take_ref = false)
      : handles_(std::move(handles)), take_ref_(take_ref) {}
  ~HoldingCall() {
    if (thread_.joinable()) {
      Leave();
      thread_.join();
    }
  }
  // Returns once the lookups are done (all of them succeeded or not: found()).
  void Enter() {
    thread_ = std::thread([this] {
      HandleScope scope;
      for (const void* h : handles_) {
        if (TestObject* o = LookupHandle<TestObject>(h, kTestTag)) objects_.push_back(o);
      }
      Step(1);
      WaitFor(2);
      for (TestObject* o : objects_) {
        payloads_.push_back(o->payload);  // after the destroy
        // A reference taken after the destroy, by a call that resolved the handle before it (a task it
        // queues retains the object).
        if (take_ref_) refs_.emplace_back(o);
      }
      Step(3);
      WaitFor(4);  // the scope ends when the test says so
    });
    WaitFor(1);
  }
  // Reads every object's payload inside the still-open call, after the test destroyed them (and takes a
  // reference on each, with take_ref).
  std::vector<uint64_t> ReadPayloads() {
    Step(2);
    WaitFor(3);
    return payloads_;
  }
  void Leave() {
    Step(4);
    if (thread_.joinable()) thread_.join();
  }
  size_t found() const { return objects_.size(); }
  // The references taken (take_ref); dropping them is the test's job, after Leave().
  std::vector<Ref<TestObject>>& refs() { return refs_; }

 private:
  void Step(int s) {
    std::lock_guard<std::mutex> lock(mu_);
    step_ = std::max(step_, s);
    cv_.notify_all();
  }
  void WaitFor(int s) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return step_ >= s; });
  }

  std::vector<const void*> handles_;
  bool take_ref_;
  std::vector<TestObject*> objects_;
  std::vector<Ref<TestObject>> refs_;
  std::vector<uint64_t> payloads_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  int step_ = 0;
};

// The user's destroy: invalidate for the API, drop the handle's reference.
void Destroy(TestObject* o) {
  ASSERT_TRUE(o->Invalidate());
  o->Release();
}

TEST(HandleReclaimTest, UnheldObjectIsDestroyedAtOnce) {
  const int before = g_destroyed.load();
  TestObject* o = NewHandle<TestObject>(RandomPayload());
  ASSERT_NE(nullptr, o);
  {
    HandleScope scope;  // the destroying call itself holds the object until it returns
    ASSERT_EQ(o, LookupHandle<TestObject>(o, kTestTag));
    Destroy(o);
    EXPECT_EQ(before, g_destroyed.load());
  }
  EXPECT_EQ(before + 1, g_destroyed.load());
  EXPECT_EQ(0u, reclaim::PendingForTesting());
}

TEST(HandleReclaimTest, ObjectHeldByAnotherCallLivesUntilThatCallReturns) {
  const int before = g_destroyed.load();
  const uint64_t payload = RandomPayload();
  TestObject* o = NewHandle<TestObject>(payload);
  ASSERT_NE(nullptr, o);
  HoldingCall call({o});
  call.Enter();
  ASSERT_EQ(1u, call.found());
  Destroy(o);
  // Destroyed for the API: a new call does not find it ...
  {
    HandleScope scope;
    EXPECT_EQ(nullptr, LookupHandle<TestObject>(o, kTestTag));
  }
  // ... but the running call still reads the live object.
  EXPECT_EQ(before, g_destroyed.load());
  EXPECT_EQ(std::vector<uint64_t>{payload}, call.ReadPayloads());
  EXPECT_EQ(before, g_destroyed.load());
  EXPECT_EQ(1u, reclaim::PendingForTesting());
  call.Leave();  // the holder's exit reclaims it
  EXPECT_EQ(before + 1, g_destroyed.load());
  EXPECT_EQ(0u, reclaim::PendingForTesting());
}

TEST(HandleReclaimTest, OtherObjectsAreReclaimedWhileOneIsHeld) {
  const int before = g_destroyed.load();
  TestObject* held = NewHandle<TestObject>(RandomPayload());
  TestObject* other = NewHandle<TestObject>(RandomPayload());
  HoldingCall call({held});
  call.Enter();
  Destroy(other);
  EXPECT_EQ(before + 1, g_destroyed.load());  // not held by anyone: at once
  Destroy(held);
  EXPECT_EQ(before + 1, g_destroyed.load());
  call.Leave();
  EXPECT_EQ(before + 2, g_destroyed.load());
}

TEST(HandleReclaimTest, AReferenceTakenByTheHoldingCallKeepsTheObject) {
  const int before = g_destroyed.load();
  const uint64_t payload = RandomPayload();
  TestObject* o = NewHandle<TestObject>(payload);
  HoldingCall call({o}, /*take_ref=*/true);
  call.Enter();
  Destroy(o);
  EXPECT_EQ(std::vector<uint64_t>{payload}, call.ReadPayloads());
  call.Leave();
  // The call left, but its reference (a queued task's, say) still owns the object.
  EXPECT_EQ(before, g_destroyed.load());
  EXPECT_EQ(payload, o->payload);
  call.refs().clear();
  EXPECT_EQ(before + 1, g_destroyed.load());
  EXPECT_EQ(0u, reclaim::PendingForTesting());
}

TEST(HandleReclaimTest, ACallPastItsHazardSlotsProtectsEverything) {
  const int before = g_destroyed.load();
  std::vector<TestObject*> many;
  std::vector<const void*> handles;
  std::vector<uint64_t> payloads;
  for (uint32_t i = 0; i < reclaim::kHazardSlots + 3; ++i) {
    payloads.push_back(RandomPayload());
    many.push_back(NewHandle<TestObject>(payloads.back()));
    handles.push_back(many.back());
  }
  HoldingCall call(handles);
  call.Enter();
  ASSERT_EQ(many.size(), call.found());
  for (TestObject* o : many) Destroy(o);
  EXPECT_EQ(payloads, call.ReadPayloads());  // also the ones past the slots
  EXPECT_EQ(before, g_destroyed.load());
  call.Leave();
  EXPECT_EQ(before + static_cast<int>(many.size()), g_destroyed.load());
}

// Bounded stress: readers look objects up and read them while a destroyer replaces them; every payload a
// reader reads through a successful lookup is the object's own (never the destructor's zero).
TEST(HandleReclaimTest, ConcurrentLookupsAndDestroysNeverSeeADestroyedObject) {
  constexpr int kObjects = 8;
  constexpr int kRounds = 20000;
  std::atomic<TestObject*> pool[kObjects];
  for (auto& p : pool) p.store(NewHandle<TestObject>(RandomPayload()));
  std::atomic<bool> stop{false};
  std::atomic<long> bad{0}, hits{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t) {
    readers.emplace_back([&, t] {
      std::mt19937 rng(t);
      while (!stop.load(std::memory_order_relaxed)) {
        HandleScope scope;
        const void* h = pool[rng() % kObjects].load();
        if (TestObject* o = LookupHandle<TestObject>(h, kTestTag)) {
          const uint64_t a = o->payload;
          std::this_thread::yield();
          if (a == 0 || o->payload != a) bad.fetch_add(1);
          hits.fetch_add(1, std::memory_order_relaxed);
        }
      }
    });
  }
  std::mt19937 rng(99);
  // At least kRounds replacements, and on until the readers made enough lookups (bounded: two seconds).
  const auto cap = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  for (int r = 0; r < kRounds || (hits.load() < 5000 && std::chrono::steady_clock::now() < cap); ++r) {
    TestObject* fresh = NewHandle<TestObject>(RandomPayload());
    TestObject* old = pool[rng() % kObjects].exchange(fresh);
    HandleScope scope;
    Destroy(old);
  }
  stop.store(true);
  for (auto& th : readers) th.join();
  for (auto& p : pool) Destroy(p.load());
  reclaim::ReclaimNow();
  EXPECT_EQ(0, bad.load());
  EXPECT_GT(hits.load(), 0);
  EXPECT_EQ(0u, reclaim::PendingForTesting());
}

}  // namespace
}  // namespace npurt
