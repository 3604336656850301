// SyncAll: a barrier over every block of a launch, with more blocks than the sim's AI cores (the tests run
// with NPURT_SIM_AICORE_COUNT=2), and the ways such a launch fails instead of hanging.
#include <acl/error_codes/rt_error_codes.h>

#include <chrono>
#include <cstdlib>
#include <numeric>
#include <thread>

#include "sync_kernels.h"
#include "sync_test_util.h"

namespace ascendc_sync {
namespace {

class SyncAllTest : public SyncTest {
 protected:
  // The launch was accepted, and fails with `code` and a message containing `text`.
  void ExpectFails(int32_t launched, aclError code, const char* text) {
    ASSERT_EQ(launched, ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), code);
    const std::string m = ErrorMessage();
    EXPECT_NE(m.find(text), std::string::npos) << m;
  }
};

std::vector<int32_t> RandomInts(std::mt19937& rng, size_t n) {
  std::uniform_int_distribution<int32_t> d(-1000, 1000);
  std::vector<int32_t> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

// A two-phase sum (sync_two_phase): its buffers, its launches and the check of every block's totals.
struct TwoPhaseSum {
  TwoPhaseSum(std::mt19937& rng, uint32_t b, uint32_t per, uint32_t r)
      : blocks(b), per_block(per), rounds(r), x(RandomInts(rng, b * per)), xd(x.size() * 4), partial(b * 4),
        out(r * b * 4) {
    xd.Write(x);
  }
  int32_t Launch(aclrtStream stream) const {
    return SyncTwoPhase(blocks, stream, xd.get<int32_t>(), partial.get<int32_t>(), out.get<int32_t>(), per_block,
                        rounds);
  }
  // Every block's total after each barrier is the sum over all blocks: no block read a partial before its
  // writer reached the barrier, nor a partial of the next round.
  void Check() const {
    const int32_t sum = std::accumulate(x.begin(), x.end(), 0);
    const std::vector<int32_t> got = out.Read<int32_t>(rounds * blocks);
    for (uint32_t r = 0; r < rounds; ++r) {
      for (uint32_t b = 0; b < blocks; ++b) {
        ASSERT_EQ(got[r * blocks + b], sum + static_cast<int32_t>(r * blocks))
            << "blocks " << blocks << " round " << r << " block " << b;
      }
    }
  }
  uint32_t blocks, per_block, rounds;
  std::vector<int32_t> x;
  DeviceBuffer xd, partial, out;
};

TEST_F(SyncAllTest, TwoPhaseSumWithMoreBlocksThanCores) {
  for (uint32_t blocks : {3u, 17u, 48u}) {
    TwoPhaseSum t(rng_, blocks, 37, 5);
    ASSERT_EQ(t.Launch(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
    t.Check();
  }
}

// Back-to-back co-operative launches on one stream and on two streams at once.
TEST_F(SyncAllTest, ConcurrentLaunchesOnTwoStreams) {
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  TwoPhaseSum a(rng_, 12, 9, 3), b(rng_, 7, 11, 4);
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(a.Launch(stream_), ACL_SUCCESS);
    ASSERT_EQ(b.Launch(other), ACL_SUCCESS);
  }
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  ASSERT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS) << ErrorMessage();
  a.Check();
  b.Check();
  aclrtDestroyStream(other);
}

// A core limit (aclrtSetStreamResLimit) does not stop a co-operative launch: its blocks all run at once.
TEST_F(SyncAllTest, CoreLimitDoesNotDeadlock) {
  ASSERT_EQ(aclrtSetStreamResLimit(stream_, ACL_RT_DEV_RES_VECTOR_CORE, 1), ACL_SUCCESS);
  TwoPhaseSum t(rng_, 6, 4, 2);
  ASSERT_EQ(t.Launch(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  t.Check();
}

// The soft form over the first `used` blocks; the other blocks do not take part.
TEST_F(SyncAllTest, SoftFormOverUsedCores) {
  const uint32_t blocks = 10, used = 7;
  const std::vector<int32_t> x = RandomInts(rng_, blocks);
  DeviceBuffer xd(blocks * 4), partial(blocks * 4), out(blocks * 4), ws(blocks * 32);
  xd.Write(x);
  ws.Write(std::vector<int32_t>(blocks * 8, 0));
  ASSERT_EQ(SyncSoft(blocks, stream_, xd.get<int32_t>(), partial.get<int32_t>(), out.get<int32_t>(), ws.get<int32_t>(),
                     used),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  const int32_t total = 3 * std::accumulate(x.begin(), x.begin() + used, 0);
  const std::vector<int32_t> got = out.Read<int32_t>(blocks);
  for (uint32_t b = 0; b < blocks; ++b) EXPECT_EQ(got[b], b < used ? total : -1) << "block " << b;
}

// A block that traps before the barrier fails the launch; the blocks waiting in SyncAll give up.
TEST_F(SyncAllTest, FaultBeforeBarrierFailsTheLaunch) {
  const uint32_t blocks = 9;
  DeviceBuffer out(blocks * 4);
  ExpectFails(SyncTrapBeforeBarrier(blocks, stream_, out.get<int32_t>(), 4), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, "trap");
  // The stream goes on: a good co-operative launch after it succeeds.
  TwoPhaseSum t(rng_, blocks, 1, 1);
  ASSERT_EQ(t.Launch(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  t.Check();
}

// A block that returns without reaching the barrier: on an NPU the kernel hangs; the sim fails it.
TEST_F(SyncAllTest, BlockSkippingTheBarrierFailsTheLaunch) {
  const uint32_t blocks = 5;
  DeviceBuffer out(blocks * 4);
  ExpectFails(SyncSkipBarrier(blocks, stream_, out.get<int32_t>(), 2), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION,
              "ended without reaching it");
}

// A block that never reaches the barrier: the execution timeout interrupts the spinning block and the
// ones waiting in SyncAll.
TEST_F(SyncAllTest, TimeoutInterruptsBlocksWaitingInTheBarrier) {
  const uint32_t blocks = 6;
  DeviceBuffer out(blocks * 4);
  out.Write(std::vector<int32_t>(blocks, 0));
  ASSERT_EQ(aclrtSetOpExecuteTimeOutWithMs(200), ACL_SUCCESS);
  ExpectFails(SyncSpinBeforeBarrier(blocks, stream_, out.get<int32_t>(), 3), ACL_ERROR_RT_VECTOR_CORE_TIMEOUT,
              "timeout");
  ASSERT_EQ(aclrtSetOpExecuteTimeOutWithMs(0), ACL_SUCCESS);
}

// An abort of the stream interrupts the blocks of a co-operative launch too.
TEST_F(SyncAllTest, StreamAbortInterruptsTheLaunch) {
  const char* mode = std::getenv("NPURT_SIM_MODE");
  if (mode != nullptr && std::string(mode) == "sync") GTEST_SKIP() << "the launch runs at submission";
  const uint32_t blocks = 4;
  DeviceBuffer out(blocks * 4);
  out.Write(std::vector<int32_t>(blocks, 0));
  ASSERT_EQ(SyncSpinBeforeBarrier(blocks, stream_, out.get<int32_t>(), 1), ACL_SUCCESS);
  // Let the blocks start (the abort also discards a launch that has not).
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(aclrtStreamAbort(stream_), ACL_SUCCESS);
  const aclError rc = aclrtSynchronizeStream(stream_);
  EXPECT_TRUE(rc == ACL_SUCCESS || rc == ACL_ERROR_RT_VECTOR_CORE_EXCEPTION) << rc;
}

// More blocks than the sim runs at once for a co-operative kernel: the launch fails with a message.
TEST_F(SyncAllTest, TooManyBlocksFailsWithAMessage) {
  const uint32_t blocks = 1025;
  DeviceBuffer out(blocks * 4);
  ExpectFails(SyncLimitedCount(blocks, stream_, out.get<int32_t>()), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION,
              "at most 1024 blocks");
}

// A SyncAll the generator could not see (behind an angle-bracket include): the call fails instead of
// hanging.
TEST_F(SyncAllTest, UnmarkedKernelFailsAtTheBarrier) {
  const uint32_t blocks = 3;
  DeviceBuffer out(blocks * 4);
  ExpectFails(SyncUnmarked(blocks, stream_, out.get<int32_t>()), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION,
              "not marked co-operative");
}

// One block: SyncAll returns at once.
TEST_F(SyncAllTest, OneBlock) {
  DeviceBuffer out(4);
  ASSERT_EQ(SyncLimitedCount(1, stream_, out.get<int32_t>()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  EXPECT_EQ(out.Read<int32_t>(1)[0], 1);
}

}  // namespace
}  // namespace ascendc_sync
