// A synchronous copy right after a kernel that writes its source (the official sample
// 1_basic_features/memory/5_d2d_sync_memory_copy): racy by CANN's rules, but on an NPU the kernel has run by
// the time the copy starts, and npurt gives the same result. The copy waits for nothing else: not for a
// kernel queued behind a wait, not for an unrelated kernel, and a host write to memory a running kernel
// polls is never held back.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "kernel_test_util.h"

namespace cts {
namespace {

class SyncCopyOrderTest : public KernelTest {
 protected:
  std::mt19937 rng_{std::random_device{}()};

  std::vector<uint32_t> RandomWords(size_t n) {
    std::vector<uint32_t> v(n);
    for (auto& w : v) w = static_cast<uint32_t>(rng_());
    return v;
  }
  // Launches cts_store_after: after `spins` iterations (tens of ms), stores `value` to `word`.
  aclError StoreAfter(aclrtStream s, void* word, uint32_t value, uint64_t spins) {
    std::vector<uint8_t> args = ArgBlock().Add(word).Add(value).Add(spins).Bytes();
    return aclrtLaunchKernelWithHostArgs(Func("cts_store_after"), 1, s, nullptr, args.data(), args.size(), nullptr, 0);
  }
};

// A few ms of spinning: without the ordering the copy runs first every time (it starts microseconds after the
// launch), while the kernel stays well inside the ordering's 100 ms grace even on a loaded machine.
constexpr uint64_t kSlowSpins = 3ull * 1000 * 1000;

TEST_F(SyncCopyOrderTest, SyncCopyRightAfterAKernelGetsWhatTheKernelWrote) {
  Stream s;
  for (int round = 0; round < 4; ++round) {
    const size_t n = std::uniform_int_distribution<size_t>(64, 4096)(rng_);
    const size_t at = std::uniform_int_distribution<size_t>(0, n - 1)(rng_);
    std::vector<uint32_t> words = RandomWords(n);
    const uint32_t value = words[at] ^ 0x5a5a5a5au;
    DevBuf src(n * 4), dst(n * 4);
    ToDevice(src, words);
    ASSERT_ACL_OK(StoreAfter(s, src.bytes() + at * 4, value, kSlowSpins));
    std::vector<uint32_t> back(n);
    if (round % 2 == 0) {
      ASSERT_ACL_OK(aclrtMemcpy(back.data(), n * 4, src.get(), n * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    } else {
      // The sample's device-to-device form, read back after the stream is done.
      ASSERT_ACL_OK(aclrtMemcpy(dst.get(), n * 4, src.get(), n * 4, ACL_MEMCPY_DEVICE_TO_DEVICE));
      ASSERT_ACL_OK(aclrtSynchronizeStream(s));
      back = FromDevice<uint32_t>(dst, n);
    }
    std::vector<uint32_t> want = words;
    want[at] = value;
    EXPECT_EQ(want, back) << "round " << round << ": the copy ran before the kernel that writes its source";
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  }
}

TEST_F(SyncCopyOrderTest, AKernelBehindAClosedWaitIsNotWaitedFor) {
  if (!Backend().deferred_execution) GTEST_SKIP() << "a synchronous backend has no queued work";
  Stream s;
  DeviceGate gate;
  const size_t n = std::uniform_int_distribution<size_t>(16, 1024)(rng_);
  std::vector<uint32_t> words = RandomWords(n);
  DevBuf src(n * 4);
  ToDevice(src, words);
  ASSERT_ACL_OK(gate.Block(s));
  ASSERT_ACL_OK(StoreAfter(s, src.get(), ~words[0], 0));
  // The host opens the gate only after the copy: waiting for the kernel would deadlock the program.
  std::vector<uint32_t> back(n);
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), n * 4, src.get(), n * 4, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(words, back) << "the kernel cannot have run: its stream waits for the host";
  ASSERT_ACL_OK(gate.Open());
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(~words[0], FromDevice<uint32_t>(src, 1)[0]);
}

TEST_F(SyncCopyOrderTest, HostWritesToMemoryARunningKernelPollsAreNotHeldBack) {
  if (!Backend().deferred_execution) GTEST_SKIP() << "a synchronous backend runs the polling kernel at submission";
  Stream s, other;
  DevBuf stop(4), data(4096);
  ASSERT_ACL_OK(aclrtMemset(stop.get(), 4, 0, 4));
  std::vector<uint8_t> args = ArgBlock().Add(stop.get()).Bytes();
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_spin"), 1, s, nullptr, args.data(), args.size(), nullptr, 0));
  // An unrelated synchronous copy while the kernel spins: it neither waits for the kernel nor disturbs it.
  std::vector<uint32_t> words = RandomWords(1024);
  ToDevice(data, words);
  EXPECT_EQ(words, FromDevice<uint32_t>(data, 1024));
  aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
  ASSERT_ACL_OK(aclrtStreamQuery(s, &status));
  EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, status) << "the spinning kernel still runs";
  // The host's signal to the kernel: a synchronous write of the word it polls.
  const uint32_t one = 1;
  ASSERT_ACL_OK(aclrtMemcpy(stop.get(), 4, &one, 4, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
}

}  // namespace
}  // namespace cts
