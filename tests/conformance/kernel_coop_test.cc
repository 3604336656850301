// Kernels whose blocks work together (issue 18), through the binary-loading launch paths in both sim
// modes: SyncAll with more blocks than AI cores runs every block at once (a co-operative launch), its
// execution timeout interrupts blocks waiting at the barrier, atomic copies from many blocks lose nothing.
#include <numeric>
#include <random>

#include "kernel_test_util.h"

namespace cts {
namespace {

using KernelCoopTest = KernelTest;

std::vector<int32_t> CoopRandom(size_t n) {
  std::mt19937 rng(std::random_device{}());
  std::uniform_int_distribution<int32_t> d(-5000, 5000);
  std::vector<int32_t> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

TEST_F(KernelCoopTest, SyncAllWithMoreBlocksThanAiCores) {
  uint32_t cores = 0;
  int64_t value = 0;
  ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &value));
  cores = static_cast<uint32_t>(value);
  const uint32_t blocks = cores * 3 + 1, per_block = 19;
  const std::vector<int32_t> x = CoopRandom(blocks * per_block);
  DevBuf xd(x.size() * 4), partial(blocks * 4), out(blocks * 4);
  ToDevice(xd, x);
  Stream s;
  std::vector<uint8_t> args = ArgBlock().Add(xd.get()).Add(partial.get()).Add(out.get()).Add(per_block).Bytes();
  // Host arguments, then the argument array: each launch runs every block at once.
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_coop_sum"), blocks, s, nullptr, args.data(), args.size(),
                                              nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  const int32_t sum = std::accumulate(x.begin(), x.end(), 0);
  for (int32_t v : FromDevice<int32_t>(out, blocks)) ASSERT_EQ(v, sum);
  void* xp = xd.get();
  void* pp = partial.get();
  void* op = out.get();
  void* array[] = {&xp, &pp, &op, const_cast<uint32_t*>(&per_block)};
  ASSERT_ACL_OK(aclrtMemset(out.get(), out.size(), 0, out.size()));
  ASSERT_ACL_OK(aclrtLaunchKernelWithArgsArray(Func("cts_coop_sum"), blocks, s, nullptr, array));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  for (int32_t v : FromDevice<int32_t>(out, blocks)) ASSERT_EQ(v, sum);
}

TEST_F(KernelCoopTest, TimeoutInterruptsBlocksWaitingInSyncAll) {
  DevBuf stop(4);
  ASSERT_ACL_OK(aclrtMemset(stop.get(), 4, 0, 4));
  std::vector<uint8_t> args = ArgBlock().Add(stop.get()).Bytes();
  aclrtLaunchKernelAttr attr;
  aclrtLaunchKernelCfg cfg = TimeoutUsConfig(&attr, 100000);
  Stream s;
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_coop_spin"), 7, s, &cfg, args.data(), args.size(), nullptr, 0));
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_TIMEOUT);
  EXPECT_NE(TakeErrorMessage().find("timeout"), std::string::npos);
}

TEST_F(KernelCoopTest, AtomicAddFromManyBlocksIsExact) {
  const uint32_t blocks = 40, n = 333;
  const std::vector<int32_t> x = CoopRandom(blocks * n), init = CoopRandom(n);
  DevBuf xd(x.size() * 4), out(n * 4);
  ToDevice(xd, x);
  ToDevice(out, init);
  Stream s;
  std::vector<uint8_t> args = ArgBlock().Add(xd.get()).Add(out.get()).Add(n).Bytes();
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_atomic_sum"), blocks, s, nullptr, args.data(), args.size(),
                                              nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  const std::vector<int32_t> got = FromDevice<int32_t>(out, n);
  for (uint32_t i = 0; i < n; ++i) {
    int32_t want = init[i];
    for (uint32_t b = 0; b < blocks; ++b) want += x[b * n + i];
    ASSERT_EQ(got[i], want) << "element " << i;
  }
}

}  // namespace
}  // namespace cts
