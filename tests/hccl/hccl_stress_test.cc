// Mixed collectives on two communicators over the same devices, each on its own stream, issued back to back
// without host synchronisation in a random (but on every rank identical) order: every result checked.
// Bounded: 4 ranks, 60 operations per rank.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "hccl_test_util.h"

using namespace npurt_hccl_test;

TEST(HcclStress, MixedCollectivesOnTwoCommunicatorsAndTwoStreams) {
  constexpr uint32_t n = 4;
  constexpr int kOps = 60;
  int32_t devices[n] = {0, 1, 2, 3};
  for (int32_t d : devices) ASSERT_EQ(aclrtSetDevice(d), ACL_SUCCESS);
  HcclComm a[n], b[n];
  ASSERT_EQ(HcclCommInitAll(n, devices, a), HCCL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(HcclCommInitAll(n, devices, b), HCCL_SUCCESS) << aclGetRecentErrMsg();
  // Every rank's inputs, computable by every rank: element i of rank r in operation k.
  auto value = [](uint32_t r, int k, size_t i) { return static_cast<int32_t>((r + 1) * 7 + k * 3 + static_cast<int>(i % 13)); };
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      ASSERT_EQ(aclrtSetDevice(devices[r]), ACL_SUCCESS);
      aclrtStream streams[2];
      for (auto& s : streams) ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
      std::mt19937 pick(2024);  // the same sequence on every rank
      struct Issued {
        int kind;
        size_t count;
        std::unique_ptr<DeviceBuffer> send, recv;
      };
      std::vector<Issued> issued;
      for (int k = 0; k < kOps; ++k) {
        const int kind = static_cast<int>(pick() % 4);
        const bool on_b = pick() % 2 == 1;
        const size_t count = 1 + pick() % 3000;
        HcclComm comm = on_b ? b[r] : a[r];
        aclrtStream stream = streams[on_b ? 1 : 0];
        std::vector<uint8_t> mine(count * 4 * n);
        for (size_t i = 0; i < count * n; ++i) reinterpret_cast<int32_t*>(mine.data())[i] = value(r, k, i);
        Issued op{kind, count, std::make_unique<DeviceBuffer>(mine.size(), &mine), std::make_unique<DeviceBuffer>(mine.size())};
        HcclResult rc = HCCL_SUCCESS;
        switch (kind) {
          case 0: rc = HcclAllReduce(op.send->ptr, op.recv->ptr, count, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, comm, stream); break;
          case 1: rc = HcclAllGather(op.send->ptr, op.recv->ptr, count, HCCL_DATA_TYPE_INT32, comm, stream); break;
          case 2: rc = HcclBroadcast(op.send->ptr, count, HCCL_DATA_TYPE_INT32, k % n, comm, stream); break;
          default: rc = HcclReduceScatter(op.send->ptr, op.recv->ptr, count, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_MAX, comm, stream); break;
        }
        ASSERT_EQ(rc, HCCL_SUCCESS) << aclGetRecentErrMsg();
        issued.push_back(std::move(op));
      }
      for (auto& s : streams) ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << aclGetRecentErrMsg();
      for (int k = 0; k < kOps; ++k) {
        const Issued& op = issued[static_cast<size_t>(k)];
        const size_t count = op.count;
        std::vector<int32_t> expected;
        switch (op.kind) {
          case 0:
            for (size_t i = 0; i < count; ++i) {
              int32_t s = 0;
              for (uint32_t j = 0; j < n; ++j) s += value(j, k, i);
              expected.push_back(s);
            }
            break;
          case 1:
            for (uint32_t j = 0; j < n; ++j) for (size_t i = 0; i < count; ++i) expected.push_back(value(j, k, i));
            break;
          case 2:
            for (size_t i = 0; i < count; ++i) expected.push_back(value(k % n, k, i));
            break;
          default:
            for (size_t i = 0; i < count; ++i) {
              int32_t m = value(0, k, r * count + i);
              for (uint32_t j = 1; j < n; ++j) m = std::max(m, value(j, k, r * count + i));
              expected.push_back(m);
            }
            break;
        }
        const DeviceBuffer& out = op.kind == 2 ? *op.send : *op.recv;
        const auto bytes = out.Read(expected.size() * 4);
        std::vector<int32_t> got(expected.size());
        std::memcpy(got.data(), bytes.data(), bytes.size());
        ASSERT_EQ(got, expected) << "operation " << k << " (kind " << op.kind << ") on rank " << r;
      }
      for (auto& s : streams) ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
    });
  }
  for (auto& t : threads) t.join();
  for (uint32_t r = 0; r < n; ++r) {
    EXPECT_EQ(HcclCommDestroy(a[r]), HCCL_SUCCESS);
    EXPECT_EQ(HcclCommDestroy(b[r]), HCCL_SUCCESS);
  }
}

// A small AllReduce needs no final meeting: every rank's input is copied into the group, so a rank may
// reuse its buffers (here: overwrite its input at once) while slower peers still reduce. Every rank's
// result must still be the sum of the inputs as they were; with 8 ranks on few cores, some rank is always
// behind. Bounded: 150 rounds.
TEST(HcclStress, ARankThatReusesItsInputAtOnceDoesNotChangeThePeersResults) {
  constexpr uint32_t n = 8;
  constexpr int kRounds = 150;
  constexpr size_t kCount = 1024;  // 4 KiB of int32: a small AllReduce
  std::vector<int> wrong(n, 0);
  ASSERT_TRUE(RunRanks(n, [&](uint32_t rank, HcclComm comm, aclrtStream stream) {
    DeviceBuffer send(kCount * 4), recv(kCount * 4);
    for (int k = 0; k < kRounds; ++k) {
      std::vector<int32_t> mine(kCount);
      for (size_t i = 0; i < kCount; ++i) mine[i] = static_cast<int32_t>((rank + 1) * 1000 + k * 7 + static_cast<int>(i));
      ASSERT_EQ(aclrtMemcpy(send.ptr, kCount * 4, mine.data(), kCount * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
      ASSERT_EQ(HcclAllReduce(send.ptr, recv.ptr, kCount, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, comm, stream), HCCL_SUCCESS);
      // Overwrite the input right behind the collective, before any host synchronisation.
      ASSERT_EQ(aclrtMemsetAsync(send.ptr, kCount * 4, 0x7f, kCount * 4, stream), ACL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
      std::vector<int32_t> got(kCount);
      ASSERT_EQ(aclrtMemcpy(got.data(), kCount * 4, recv.ptr, kCount * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
      // Counted, not asserted: a rank that left the loop would leave its peers waiting for it.
      for (size_t i = 0; i < kCount; ++i) {
        int32_t expected = 0;
        for (uint32_t r = 0; r < n; ++r) expected += static_cast<int32_t>((r + 1) * 1000 + k * 7 + static_cast<int>(i));
        if (got[i] != expected) ++wrong[rank];
      }
    }
  }));
  for (uint32_t r = 0; r < n; ++r) EXPECT_EQ(wrong[r], 0) << "elements rank " << r << " got wrong";
}
