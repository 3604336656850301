// TDT queues and channels: the cost of a message through the runtime, next to a bare mutex + condition
// variable queue doing the same hand-off (the like-for-like baseline: TDT waits are condition-variable
// waits too).
//
// tdt_queue_data_ns       acltdtEnqueueData + acltdtDequeueData of 64 bytes, one thread (batched)
// tdt_channel_tensor_ns   acltdtSendTensor + acltdtReceiveTensor of a 64-byte one-item dataset, one thread
// tdt_queue_pingpong_us   a 64-byte message to a second thread and back through two TDT queues
// cv_queue_pingpong_us    the same ping-pong through two std::deque + std::mutex + std::condition_variable
#include <acl/acl_tdt.h>
#include <acl/acl_tdt_queue.h>

#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "common/bench_util.h"

namespace npurt_bench {
namespace {

constexpr size_t kMessage = 64;
constexpr int kBatch = 256;

uint32_t NewQueue(uint32_t depth) {
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  BENCH_CHECK(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &depth));
  uint32_t qid = 0;
  BENCH_CHECK(acltdtCreateQueue(attr, &qid));
  BENCH_CHECK(acltdtDestroyQueueAttr(attr));
  return qid;
}

void QueueData(benchmark::State& state) {
  UseDevice0();
  const uint32_t qid = NewQueue(kBatch);
  uint8_t in[kMessage], out[kMessage];
  std::memset(in, 0x5a, sizeof(in));
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    for (int i = 0; i < kBatch; ++i) BENCH_CHECK(acltdtEnqueueData(qid, in, kMessage, nullptr, 0, 0, 0));
    size_t got = 0;
    for (int i = 0; i < kBatch; ++i) BENCH_CHECK(acltdtDequeueData(qid, out, kMessage, &got, nullptr, 0, 0));
    sampler.Add(NowNs() - t0, kBatch);
  }
  BENCH_CHECK(acltdtDestroyQueue(qid));
}
BENCHMARK(QueueData)->Name("tdt_queue_data_ns")->UseManualTime()->Unit(benchmark::kMicrosecond);

void ChannelTensor(benchmark::State& state) {
  UseDevice0();
  acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "bench_channel", kBatch);
  float values[kMessage / sizeof(float)] = {1.0f};
  int64_t dims[] = {static_cast<int64_t>(kMessage / sizeof(float))};
  acltdtDataItem* item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, values, kMessage);
  acltdtDataset* out = acltdtCreateDataset();
  BENCH_CHECK(acltdtAddDataItem(out, item));
  acltdtDataset* in = acltdtCreateDataset();
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    for (int i = 0; i < kBatch; ++i) BENCH_CHECK(acltdtSendTensor(ch, out, 0));
    for (int i = 0; i < kBatch; ++i) BENCH_CHECK(acltdtReceiveTensor(ch, in, 0));
    sampler.Add(NowNs() - t0, kBatch);
  }
  BENCH_CHECK(acltdtDestroyDataset(in));
  BENCH_CHECK(acltdtDestroyDataset(out));
  BENCH_CHECK(acltdtDestroyDataItem(item));
  BENCH_CHECK(acltdtDestroyChannel(ch));
}
BENCHMARK(ChannelTensor)->Name("tdt_channel_tensor_ns")->UseManualTime()->Unit(benchmark::kMicrosecond);

void QueuePingPong(benchmark::State& state) {
  UseDevice0();
  const uint32_t ping = NewQueue(2), pong = NewQueue(2);
  std::thread echo([&] {
    uint8_t buf[kMessage];
    size_t got = 0;
    for (;;) {
      BENCH_CHECK(acltdtDequeueData(ping, buf, kMessage, &got, nullptr, 0, -1));
      BENCH_CHECK(acltdtEnqueueData(pong, buf, got, nullptr, 0, -1, 0));
      if (got == 1) return;  // the stop message
    }
  });
  uint8_t msg[kMessage], back[kMessage];
  std::memset(msg, 0x3c, sizeof(msg));
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    size_t got = 0;
    BENCH_CHECK(acltdtEnqueueData(ping, msg, kMessage, nullptr, 0, -1, 0));
    BENCH_CHECK(acltdtDequeueData(pong, back, kMessage, &got, nullptr, 0, -1));
    sampler.Add(NowNs() - t0);
  }
  size_t got = 0;
  BENCH_CHECK(acltdtEnqueueData(ping, msg, 1, nullptr, 0, -1, 0));
  BENCH_CHECK(acltdtDequeueData(pong, back, kMessage, &got, nullptr, 0, -1));
  echo.join();
  BENCH_CHECK(acltdtDestroyQueue(ping));
  BENCH_CHECK(acltdtDestroyQueue(pong));
}
BENCHMARK(QueuePingPong)->Name("tdt_queue_pingpong_us")->UseManualTime()->Unit(benchmark::kMicrosecond);

// The baseline: a bounded-by-nothing deque of byte vectors per direction.
struct CvQueue {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::vector<uint8_t>> items;
  void Push(std::vector<uint8_t> v) {
    {
      std::lock_guard<std::mutex> lock(mu);
      items.push_back(std::move(v));
    }
    cv.notify_one();
  }
  std::vector<uint8_t> Pop() {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [this] { return !items.empty(); });
    std::vector<uint8_t> v = std::move(items.front());
    items.pop_front();
    return v;
  }
};

void CvPingPong(benchmark::State& state) {
  CvQueue ping, pong;
  std::thread echo([&] {
    for (;;) {
      std::vector<uint8_t> v = ping.Pop();
      const bool stop = v.size() == 1;
      pong.Push(std::move(v));
      if (stop) return;
    }
  });
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    ping.Push(std::vector<uint8_t>(kMessage, 0x3c));
    benchmark::DoNotOptimize(pong.Pop());
    sampler.Add(NowNs() - t0);
  }
  ping.Push(std::vector<uint8_t>(1, 0));
  (void)pong.Pop();
  echo.join();
}
BENCHMARK(CvPingPong)->Name("cv_queue_pingpong_us")->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace npurt_bench
