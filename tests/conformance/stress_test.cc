// Concurrency stress with bounded time (about a second each on two cores): many threads and streams
// submitting copies, events and host functions; event ping-pong between two streams; concurrent
// creation and destruction of streams and events; concurrent allocation with stream-ordered frees;
// callbacks from many streams. Every run checks real data.
#include <mutex>

#include "test_util.h"

namespace cts {
namespace {

using StressTest = CtsTest;

constexpr auto kTimeBound = std::chrono::seconds(60);  // a hang guard, far above the expected time

void Count(void* arg) { static_cast<std::atomic<int>*>(arg)->fetch_add(1); }

TEST_F(StressTest, ThreadsTimesStreamsWithCopiesEventsAndHostFuncs) {
  constexpr int kThreads = 4;
  constexpr int kStreams = 3;
  constexpr int kIters = 40;
  constexpr size_t kMax = 96 << 10;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &failures, kMax] {
      if (aclrtSetDevice(0) != ACL_SUCCESS) {
        failures.fetch_add(1);
        return;
      }
      {
        std::vector<std::unique_ptr<Stream>> streams;
        std::vector<std::unique_ptr<Event>> events;
        std::vector<std::unique_ptr<DevBuf>> a, b;
        std::vector<std::unique_ptr<PinnedBuf>> out;
        for (int j = 0; j < kStreams; ++j) {
          streams.push_back(std::make_unique<Stream>());
          events.push_back(std::make_unique<Event>());
          a.push_back(std::make_unique<DevBuf>(kMax));
          b.push_back(std::make_unique<DevBuf>(kMax));
          out.push_back(std::make_unique<PinnedBuf>(kMax));
        }
        std::atomic<int> host_calls{0};
        std::mt19937 rng(1000 + t);
        for (int it = 0; it < kIters; ++it) {
          std::vector<std::vector<uint8_t>> data(kStreams);
          for (int j = 0; j < kStreams; ++j) {
            const size_t n = 1 + rng() % kMax;
            data[j] = RandomBytes(n, (uint64_t(t) << 32) | (it << 8) | j);
            aclrtStream sj = *streams[j];
            aclrtStream next = *streams[(j + 1) % kStreams];
            bool ok = aclrtMemcpyAsync(a[j]->get(), kMax, data[j].data(), n, ACL_MEMCPY_HOST_TO_DEVICE, sj) == 0 &&
                      aclrtRecordEvent(*events[j], sj) == 0 && aclrtStreamWaitEvent(next, *events[j]) == 0 &&
                      aclrtMemcpyAsync(b[j]->get(), kMax, a[j]->get(), n, ACL_MEMCPY_DEVICE_TO_DEVICE, next) == 0 &&
                      aclrtLaunchHostFunc(next, &Count, &host_calls) == 0 &&
                      aclrtMemcpyAsync(out[j]->get(), kMax, b[j]->get(), n, ACL_MEMCPY_DEVICE_TO_HOST, next) == 0;
            if (!ok) failures.fetch_add(1);
          }
          for (int j = 0; j < kStreams; ++j) {
            if (aclrtSynchronizeStream(*streams[j]) != ACL_SUCCESS) failures.fetch_add(1);
          }
          for (int j = 0; j < kStreams; ++j) {
            if (FirstDifference(out[j]->get(), data[j].data(), data[j].size()) != -1) failures.fetch_add(1);
          }
          if (host_calls.load() != (it + 1) * kStreams) failures.fetch_add(1);
        }
      }
      if (aclrtResetDevice(0) != ACL_SUCCESS) failures.fetch_add(1);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(0, failures.load());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, kTimeBound);
}

TEST_F(StressTest, EventPingPongBetweenTwoStreams) {
  constexpr int kRounds = 2000;
  Stream s1, s2;
  Event e1, e2;
  DevBuf word(64);
  DevBuf log1(kRounds * 4), log2(kRounds * 4);
  ASSERT_ACL_OK(aclrtMemset(word.get(), 64, 0, 64));
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kRounds; ++i) {
    ASSERT_ACL_OK(aclrtStreamWaitEvent(s1, e2));
    ASSERT_ACL_OK(aclrtMemcpyAsync(log1.bytes() + 4 * i, 4, word.get(), 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
    ASSERT_ACL_OK(aclrtMemsetD32Async(word.get(), 4, 2 * i + 1, 1, s1));
    ASSERT_ACL_OK(aclrtRecordEvent(e1, s1));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(s2, e1));
    ASSERT_ACL_OK(aclrtMemcpyAsync(log2.bytes() + 4 * i, 4, word.get(), 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    ASSERT_ACL_OK(aclrtMemsetD32Async(word.get(), 4, 2 * i + 2, 1, s2));
    ASSERT_ACL_OK(aclrtRecordEvent(e2, s2));
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(s2));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s1));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, kTimeBound);
  std::vector<uint32_t> l1(kRounds), l2(kRounds);
  ASSERT_ACL_OK(aclrtMemcpy(l1.data(), kRounds * 4, log1.get(), kRounds * 4, ACL_MEMCPY_DEVICE_TO_HOST));
  ASSERT_ACL_OK(aclrtMemcpy(l2.data(), kRounds * 4, log2.get(), kRounds * 4, ACL_MEMCPY_DEVICE_TO_HOST));
  int bad = 0;
  for (int i = 0; i < kRounds; ++i) {
    if (l1[i] != uint32_t(2 * i) || l2[i] != uint32_t(2 * i + 1)) {
      if (bad++ < 5) {
        ADD_FAILURE() << "round " << i << ": s1 saw " << l1[i] << ", s2 saw " << l2[i];
      }
    }
  }
  EXPECT_EQ(0, bad);
}

TEST_F(StressTest, ConcurrentCreateAndDestroyOfStreamsAndEvents) {
  constexpr int kThreads = 4;
  constexpr int kIters = 150;
  uint32_t streams_before = 0, events_before = 0;
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&streams_before));
  ASSERT_ACL_OK(aclrtGetEventAvailNum(&events_before));
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  // A shared pool: threads destroy objects that other threads created and used.
  std::mutex mu;
  std::vector<aclrtStream> pool_streams;
  std::vector<aclrtEvent> pool_events;
  std::atomic<int> failures{0};
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      if (aclrtSetCurrentContext(ctx) != ACL_SUCCESS) failures.fetch_add(1);
      std::mt19937 rng(2000 + t);
      for (int i = 0; i < kIters; ++i) {
        aclrtStream s = nullptr;
        aclrtEvent e = nullptr;
        const uint32_t flags[] = {ACL_EVENT_SYNC, ACL_EVENT_TIME_LINE, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE};
        if (aclrtCreateStreamWithConfig(&s, rng() % 8, 0) != ACL_SUCCESS) failures.fetch_add(1);
        const aclError ce = rng() % 2 ? aclrtCreateEventWithFlag(&e, flags[rng() % 3])
                                      : aclrtCreateEventExWithFlag(&e, flags[rng() % 3]);
        if (ce != ACL_SUCCESS || s == nullptr) {
          failures.fetch_add(1);
          continue;
        }
        if (aclrtRecordEvent(e, s) != ACL_SUCCESS) failures.fetch_add(1);
        aclrtStream victim_s = nullptr;
        aclrtEvent victim_e = nullptr;
        {
          std::lock_guard<std::mutex> lock(mu);
          pool_streams.push_back(s);
          pool_events.push_back(e);
          if (pool_streams.size() > 6) {
            const size_t k = rng() % pool_streams.size();
            victim_s = pool_streams[k];
            pool_streams.erase(pool_streams.begin() + k);
            const size_t m = rng() % pool_events.size();
            victim_e = pool_events[m];
            pool_events.erase(pool_events.begin() + m);
          }
        }
        if (victim_s != nullptr) {
          // The victim may still have queued work: destroy waits (or discards when forced).
          const aclError de = rng() % 4 == 0 ? aclrtDestroyStreamForce(victim_s) : aclrtDestroyStream(victim_s);
          if (de != ACL_SUCCESS) failures.fetch_add(1);
          if (aclrtDestroyEvent(victim_e) != ACL_SUCCESS) failures.fetch_add(1);
        }
      }
      ClearErrorState();
    });
  }
  for (auto& th : threads) th.join();
  for (aclrtStream s : pool_streams) {
    EXPECT_ACL_OK(aclrtDestroyStream(s));
  }
  for (aclrtEvent e : pool_events) {
    EXPECT_ACL_OK(aclrtDestroyEvent(e));
  }
  EXPECT_EQ(0, failures.load());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, kTimeBound);
  uint32_t streams_after = 0, events_after = 0;
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&streams_after));
  ASSERT_ACL_OK(aclrtGetEventAvailNum(&events_after));
  EXPECT_EQ(streams_before, streams_after) << "stream resources leaked";
  EXPECT_EQ(events_before, events_after) << "event resources leaked";
}

TEST_F(StressTest, ConcurrentAllocationWithStreamOrderedFrees) {
  // Each thread frees its buffer right after queueing the copy that reads it back; other threads keep
  // allocating and writing. Stream-ordered frees must keep the reads intact.
  constexpr int kThreads = 4;
  constexpr int kIters = 100;
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  std::atomic<int> failures{0};
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      if (aclrtSetCurrentContext(ctx) != ACL_SUCCESS) failures.fetch_add(1);
      Stream s;
      PinnedBuf out(1 << 20);
      std::mt19937 rng(3000 + t);
      for (int i = 0; i < kIters; ++i) {
        const size_t n = rng() % 5 == 0 ? (1 << 20) - rng() % 4096 : 1 + rng() % 20000;
        const std::vector<uint8_t> data = RandomBytes(n, (uint64_t(t) << 32) | i);
        void* p = nullptr;
        if (aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
          failures.fetch_add(1);
          continue;
        }
        bool ok = aclrtMemcpyAsync(p, n, data.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, s) == 0 &&
                  aclrtMemcpyAsync(out.get(), n, p, n, ACL_MEMCPY_DEVICE_TO_HOST, s) == 0 && aclrtFree(p) == 0 &&
                  aclrtSynchronizeStream(s) == 0;
        if (!ok || FirstDifference(out.get(), data.data(), n) != -1) failures.fetch_add(1);
      }
      ClearErrorState();
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(0, failures.load());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, kTimeBound);
}

TEST_F(StressTest, CallbacksFromManyStreamsAndThreads) {
  constexpr int kProducers = 4;
  constexpr int kCalls = 150;
  CallbackThread worker;
  std::vector<std::unique_ptr<Stream>> streams;
  for (int i = 0; i < kProducers; ++i) {
    streams.push_back(std::make_unique<Stream>());
    ASSERT_ACL_OK(aclrtSubscribeReport(worker.id(), *streams.back()));
  }
  worker.Start();
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  std::atomic<int> calls{0};
  std::atomic<int> failures{0};
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      if (aclrtSetCurrentContext(ctx) != ACL_SUCCESS) failures.fetch_add(1);
      DevBuf buf(4096);
      for (int i = 0; i < kCalls; ++i) {
        const aclrtCallbackBlockType block = i % 3 == 0 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK;
        if (aclrtMemsetAsync(buf.get(), 4096, i, 4096, *streams[p]) != ACL_SUCCESS) failures.fetch_add(1);
        if (aclrtLaunchCallback(&Count, &calls, block, *streams[p]) != ACL_SUCCESS) failures.fetch_add(1);
      }
      if (aclrtSynchronizeStream(*streams[p]) != ACL_SUCCESS) failures.fetch_add(1);
    });
  }
  for (auto& th : producers) th.join();
  EXPECT_TRUE(WaitFor([&] { return calls.load() == kProducers * kCalls; })) << calls.load();
  worker.Stop();
  for (auto& s : streams) {
    EXPECT_ACL_OK(aclrtUnSubscribeReport(worker.id(), *s));
  }
  EXPECT_EQ(0, failures.load());
  EXPECT_EQ(0, worker.unexpected_errors());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, kTimeBound);
}

TEST_F(StressTest, ContextsOnEveryDeviceFromManyThreads) {
  constexpr int kThreads = 4;
  constexpr int kIters = 25;
  const int devices = static_cast<int>(DeviceCount());
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(4000 + t);
      for (int i = 0; i < kIters; ++i) {
        const int dev = static_cast<int>(rng() % devices);
        aclrtContext ctx = nullptr;
        if (aclrtCreateContext(&ctx, dev) != ACL_SUCCESS) {
          failures.fetch_add(1);
          continue;
        }
        {
          Stream s;
          DevBuf buf(8192);
          const std::vector<uint8_t> data = RandomBytes(8192, (uint64_t(t) << 32) | i);
          std::vector<uint8_t> back(8192);
          if (aclrtMemcpyAsync(buf.get(), 8192, data.data(), 8192, ACL_MEMCPY_HOST_TO_DEVICE, s) != 0 ||
              aclrtMemcpyAsync(back.data(), 8192, buf.get(), 8192, ACL_MEMCPY_DEVICE_TO_HOST, s) != 0 ||
              aclrtSynchronizeStream(s) != 0 || back != data) {
            failures.fetch_add(1);
          }
          int32_t cur = -1;
          if (aclrtGetDevice(&cur) != ACL_SUCCESS || cur != dev) failures.fetch_add(1);
        }
        if (aclrtDestroyContext(ctx) != ACL_SUCCESS) failures.fetch_add(1);
      }
      ClearErrorState();
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(0, failures.load());
}

TEST_F(StressTest, ConcurrentSubmissionToOneStreamKeepsEachThreadsOrder) {
  // Several threads submit to one stream; each thread's tasks must run in its submission order.
  constexpr int kThreads = 4;
  constexpr int kSteps = 400;
  Stream s;
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  std::vector<std::unique_ptr<DevBuf>> words, logs;
  for (int t = 0; t < kThreads; ++t) {
    words.push_back(std::make_unique<DevBuf>(64));
    logs.push_back(std::make_unique<DevBuf>(kSteps * 4));
    ASSERT_ACL_OK(aclrtMemset(words[t]->get(), 64, 0, 64));
  }
  std::atomic<int> failures{0};
  std::atomic<bool> stop_sync{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      if (aclrtSetCurrentContext(ctx) != ACL_SUCCESS) failures.fetch_add(1);
      for (int i = 0; i < kSteps; ++i) {
        // log[i] = word (the previous step's value), then word = i + 1.
        if (aclrtMemcpyAsync(logs[t]->bytes() + 4 * i, 4, words[t]->get(), 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s) != 0 ||
            aclrtMemsetD32Async(words[t]->get(), 4, static_cast<uint32_t>(i + 1), 1, s) != 0) {
          failures.fetch_add(1);
        }
      }
    });
  }
  // Meanwhile another thread keeps synchronizing and querying the same stream.
  std::thread syncer([&] {
    if (aclrtSetCurrentContext(ctx) != ACL_SUCCESS) failures.fetch_add(1);
    while (!stop_sync.load()) {
      aclrtStreamStatus st;
      if (aclrtStreamQuery(s, &st) != 0 || aclrtSynchronizeStreamWithTimeout(s, 20000) != 0) failures.fetch_add(1);
    }
  });
  for (auto& th : threads) th.join();
  stop_sync.store(true);
  syncer.join();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(0, failures.load());
  for (int t = 0; t < kThreads; ++t) {
    std::vector<uint32_t> log(kSteps);
    ASSERT_ACL_OK(aclrtMemcpy(log.data(), kSteps * 4, logs[t]->get(), kSteps * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < kSteps; ++i) ASSERT_EQ(uint32_t(i), log[i]) << "thread " << t << " step " << i;
  }
}

TEST_F(StressTest, HundredsOfStreams) {
  constexpr int kStreams = 400;
  constexpr size_t n = 4096;
  std::vector<aclrtStream> streams(kStreams, nullptr);
  DevBuf buf(kStreams * n);
  for (int i = 0; i < kStreams; ++i) {
    ASSERT_ACL_OK(aclrtCreateStreamWithConfig(&streams[i], i % 8, 0));
    ASSERT_ACL_OK(aclrtMemsetAsync(buf.bytes() + i * n, n, i & 0xff, n, streams[i]));
  }
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  const std::vector<uint8_t> back = buf.Read();
  for (int i = 0; i < kStreams; ++i) {
    ASSERT_TRUE(AllBytesAre(back.data() + i * n, n, static_cast<uint8_t>(i))) << "stream " << i;
  }
  for (aclrtStream s : streams) EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(StressTest, SetAndResetDeviceFromManyThreads) {
  // The default context is reference counted across threads: sets and resets racing with each other
  // never pull it from under a thread that still holds a reference.
  constexpr int kThreads = 4;
  constexpr int kIters = 200;
  const int devices = static_cast<int>(DeviceCount());
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(5000 + t);
      for (int i = 0; i < kIters; ++i) {
        const int dev = static_cast<int>(rng() % devices);
        if (aclrtSetDevice(dev) != ACL_SUCCESS) {
          failures.fetch_add(1);
          continue;
        }
        void* p = nullptr;
        const std::vector<uint8_t> data = RandomBytes(4096, (uint64_t(t) << 32) | i);
        std::vector<uint8_t> back(4096);
        aclrtStream s = nullptr;
        bool ok = aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST) == 0 && aclrtCreateStream(&s) == 0 &&
                  aclrtMemcpyAsync(p, 4096, data.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, s) == 0 &&
                  aclrtMemcpyAsync(back.data(), 4096, p, 4096, ACL_MEMCPY_DEVICE_TO_HOST, s) == 0 &&
                  aclrtSynchronizeStream(s) == 0 && back == data && aclrtDestroyStream(s) == 0 && aclrtFree(p) == 0;
        if (!ok) failures.fetch_add(1);
        if (aclrtResetDevice(dev) != ACL_SUCCESS) failures.fetch_add(1);
      }
      ClearErrorState();
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(0, failures.load());
  int32_t dev = -1;
  ASSERT_ACL_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(0, dev) << "the fixture's reference on device 0 survived the other threads' resets";
}

}  // namespace
}  // namespace cts
