// Blocks synchronising through global memory (npurt_kernel/block_sync.h, gm_scalar.h): IBSet/IBWait,
// ordered execution (InitDetermineComputeWorkspace / WaitPreBlock / NotifyNextBlock), GroupBarrier and
// polling with ReadGmByPassDCache, with more blocks than the sim's AI cores (NPURT_SIM_AICORE_COUNT=2); and
// a wait that can never complete failing the launch instead of hanging it.
#include <acl/error_codes/rt_error_codes.h>

#include <cstdlib>

#include "block_sync_kernels.h"
#include "sync_test_util.h"

namespace ascendc_sync {
namespace {

class BlockSyncTest : public SyncTest {};

std::vector<int32_t> Random(std::mt19937& rng, size_t n, int32_t lo, int32_t hi) {
  std::uniform_int_distribution<int32_t> d(lo, hi);
  std::vector<int32_t> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

// The flag pairs are reused every round (an IBSet waits until the IBWait of the round before took the
// flag), two events alternate: each round's running sums from the last block down come out in order. The
// first blocks wait for the last (co-operative scheduling).
TEST_F(BlockSyncTest, IbSetWaitChainsTheBlocks) {
  for (uint32_t blocks : {2u, 7u, 19u}) {
    const uint32_t rounds = 5;
    const std::vector<int32_t> x = Random(rng_, blocks * rounds, -1000, 1000);
    DeviceBuffer xd(x.size() * 4), out(x.size() * 4), sync(2 * blocks * 32 + 32);
    xd.Write(x);
    sync.Write(std::vector<int32_t>(2 * blocks * 8 + 8, 0));
    ASSERT_EQ(IbChain(blocks, stream_, xd.get<int32_t>(), out.get<int32_t>(), sync.get<int32_t>(), rounds),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
    const std::vector<int32_t> got = out.Read<int32_t>(x.size());
    for (uint32_t r = 0; r < rounds; ++r) {
      int32_t sum = 0;
      for (uint32_t b = blocks; b-- > 0;) {
        sum += x[r * blocks + b];
        ASSERT_EQ(got[r * blocks + b], sum) << "blocks " << blocks << " round " << r << " block " << b;
      }
    }
    // Every flag was taken: the workspace is clear again.
    for (int32_t f : sync.Read<int32_t>(2 * blocks * 8)) ASSERT_EQ(f, 0);
  }
}

// The blocks take turns in index order, round after round, over a workspace full of garbage.
TEST_F(BlockSyncTest, OrderedExecutionTakesTurnsInBlockOrder) {
  for (uint32_t blocks : {1u, 3u, 11u}) {
    const uint32_t rounds = 4;
    DeviceBuffer log((1 + blocks * rounds) * 4), ws(blocks * 32);
    log.Write(std::vector<int32_t>(1 + blocks * rounds, 0));
    ws.Write(Random(rng_, blocks * 8, -5, 1000));
    ASSERT_EQ(OrderedLog(blocks, stream_, log.get<int32_t>(), ws.get<int32_t>(), rounds), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
    const std::vector<int32_t> got = log.Read<int32_t>(1 + blocks * rounds);
    ASSERT_EQ(got[0], static_cast<int32_t>(blocks * rounds));
    for (uint32_t i = 0; i < blocks * rounds; ++i) ASSERT_EQ(got[1 + i], static_cast<int32_t>(i % blocks)) << i;
  }
}

// Each waiter sees every arriver's value of the round; the blocks outside both groups do nothing. The
// waiters have the lower block indices.
TEST_F(BlockSyncTest, GroupBarrierWaitersSeeEveryArrival) {
  const uint32_t arrive = 3, wait = 5, rounds = 3, blocks = arrive + wait + 1;
  const std::vector<int32_t> x = Random(rng_, arrive * rounds, -100, 100);
  DeviceBuffer xd(x.size() * 4), vals(x.size() * 4), out(wait * rounds * 4), ws(wait * 512);
  ASSERT_EQ(reinterpret_cast<uintptr_t>(ws.get()) % 512, 0u);
  xd.Write(x);
  ws.Write(std::vector<int32_t>(wait * 128, 0));
  ASSERT_EQ(GroupBarrierSum(blocks, stream_, xd.get<int32_t>(), vals.get<int32_t>(), out.get<int32_t>(), ws.get(),
                            arrive, wait, rounds),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  const std::vector<int32_t> got = out.Read<int32_t>(wait * rounds);
  for (uint32_t r = 0; r < rounds; ++r) {
    int32_t sum = 0;
    for (uint32_t i = 0; i < arrive; ++i) sum += x[r * arrive + i] * static_cast<int32_t>(r + 1);
    for (uint32_t j = 0; j < wait; ++j) EXPECT_EQ(got[r * wait + j], sum) << "round " << r << " waiter " << j;
  }
}

// Blocks polling a flag with ReadGmByPassDCache see the data the last block wrote before
// WriteGmByPassDCache set it.
TEST_F(BlockSyncTest, PollingWithReadGmByPassDCache) {
  const uint32_t blocks = 9, n = 333;
  const int32_t seed = Random(rng_, 1, 2, 50)[0];
  DeviceBuffer data(n * 4), flag(4), out(blocks * n * 4);
  flag.Write(std::vector<int32_t>{0});
  ASSERT_EQ(BypassPoll(blocks, stream_, data.get<int32_t>(), flag.get<int32_t>(), out.get<int32_t>(), n, seed),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  const std::vector<int32_t> got = out.Read<int32_t>(blocks * n);
  for (uint32_t b = 0; b + 1 < blocks; ++b) {
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[b * n + i], seed * static_cast<int32_t>(i) + 7) << b << " " << i;
  }
}

// An IBWait nobody answers: after NPURT_SIM_BLOCK_WAIT_S the launch fails with a message naming the call.
TEST_F(BlockSyncTest, IbWaitWithoutSetFailsTheLaunch) {
  ASSERT_EQ(setenv("NPURT_SIM_BLOCK_WAIT_S", "0.3", 1), 0);
  DeviceBuffer sync(3 * 32 + 32);
  sync.Write(std::vector<int32_t>(3 * 8 + 8, 0));
  ASSERT_EQ(IbWaitForever(3, stream_, sync.get<int32_t>()), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  const std::string m = ErrorMessage();
  EXPECT_NE(m.find("IBWait: block 1 waited"), std::string::npos) << m;
  unsetenv("NPURT_SIM_BLOCK_WAIT_S");
}

// A flag workspace that was not zeroed is reported, not waited on.
TEST_F(BlockSyncTest, IbFlagsNeedAZeroedWorkspace) {
  const uint32_t blocks = 4;
  DeviceBuffer xd(blocks * 4), out(blocks * 4), sync(2 * blocks * 32 + 32);
  xd.Write(std::vector<int32_t>(blocks, 1));
  sync.Write(std::vector<int32_t>(2 * blocks * 8 + 8, 7));
  ASSERT_EQ(IbChain(blocks, stream_, xd.get<int32_t>(), out.get<int32_t>(), sync.get<int32_t>(), 1), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  const std::string m = ErrorMessage();
  EXPECT_NE(m.find("must be zeroed"), std::string::npos) << m;
}

}  // namespace
}  // namespace ascendc_sync
