// Mixed cube/vector kernels: two vector sub-blocks per block with their own unified buffers and indices,
// a cube part, and cross-core flags between them (every participant runs at once: 5 blocks = 15
// participants on 2 AI cores).
#include <acl/error_codes/rt_error_codes.h>

#include "mix_kernels.h"
#include "sync_test_util.h"

namespace ascendc_sync {
namespace {

using MixTest = SyncTest;

TEST_F(MixTest, TwoVectorSubBlocksPerBlock) {
  const uint32_t blocks = 5, per_block = 77;
  std::uniform_real_distribution<float> d(-100.0f, 100.0f);
  std::vector<float> x(blocks * per_block);
  for (auto& v : x) v = d(rng_);
  DeviceBuffer ids(2 * blocks * 16), xd(x.size() * 4), yd(x.size() * 4);
  xd.Write(x);
  ASSERT_EQ(MixSubBlocks(blocks, stream_, ids.get(), xd.get(), yd.get(), per_block), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  const std::vector<int32_t> id = ids.Read<int32_t>(2 * blocks * 4);
  for (uint32_t p = 0; p < 2 * blocks; ++p) {
    EXPECT_EQ(id[p * 4], static_cast<int32_t>(p));
    EXPECT_EQ(id[p * 4 + 1], static_cast<int32_t>(p % 2)) << "sub-block of " << p;
    EXPECT_EQ(id[p * 4 + 2], 2);
    EXPECT_EQ(id[p * 4 + 3], 2);
  }
  // Both halves of every block's slice: each sub-block did its own.
  const std::vector<float> y = yd.Read<float>(x.size());
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(y[i], 2.0f * x[i]) << "element " << i;
}

TEST_F(MixTest, CrossCoreFlagsBetweenTheCubePartAndTheSubBlocks) {
  const uint32_t blocks = 5, rounds = 4;
  std::uniform_int_distribution<int32_t> d(-10000, 10000);
  std::vector<int32_t> x(2 * blocks * rounds);
  for (auto& v : x) v = d(rng_);
  DeviceBuffer xd(x.size() * 4), vals(2 * blocks * 4), peer(x.size() * 4), sums(blocks * rounds * 4),
      echo(x.size() * 4);
  xd.Write(x);
  ASSERT_EQ(MixFlags(blocks, stream_, xd.get(), vals.get(), peer.get(), sums.get(), echo.get(), rounds), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  const std::vector<int32_t> pr = peer.Read<int32_t>(x.size()), sm = sums.Read<int32_t>(blocks * rounds),
                             ec = echo.Read<int32_t>(x.size());
  for (uint32_t b = 0; b < blocks; ++b) {
    for (uint32_t r = 0; r < rounds; ++r) {
      const int32_t v0 = x[(2 * b) * rounds + r], v1 = x[(2 * b + 1) * rounds + r];
      const int32_t sum = v0 + v1 + 1000 * 1;  // g_coreType is AIC (1) on the cube part
      ASSERT_EQ(sm[b * rounds + r], sum) << "block " << b << " round " << r;
      ASSERT_EQ(pr[(2 * b) * rounds + r], v1);
      ASSERT_EQ(pr[(2 * b + 1) * rounds + r], v0);
      ASSERT_EQ(ec[(2 * b) * rounds + r], sum);
      ASSERT_EQ(ec[(2 * b + 1) * rounds + r], sum);
    }
  }
}

// Mode 0 in a plain vector kernel: every block's set is matched before any wait returns (a barrier).
TEST_F(MixTest, ModeZeroFlagsSynchroniseEveryBlock) {
  const uint32_t blocks = 9;
  std::uniform_int_distribution<int32_t> d(-10000, 10000);
  std::vector<int32_t> x(blocks);
  for (auto& v : x) v = d(rng_);
  DeviceBuffer xd(blocks * 4), vals(blocks * 4), sums(blocks * 4);
  xd.Write(x);
  ASSERT_EQ(MixModeZero(blocks, stream_, xd.get(), vals.get(), sums.get()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  int32_t sum = 0;
  for (int32_t v : x) sum += v;
  for (int32_t v : sums.Read<int32_t>(blocks)) EXPECT_EQ(v, sum);
}

TEST_F(MixTest, FlagToAMissingCubePartFails) {
  DeviceBuffer out(4);
  ASSERT_EQ(MixFlagWithoutCube(stream_, out.get()), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  const std::string m = ErrorMessage();
  EXPECT_NE(m.find("no cube part"), std::string::npos) << m;
}

}  // namespace
}  // namespace ascendc_sync
