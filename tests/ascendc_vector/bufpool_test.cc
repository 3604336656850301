// TBufPool: two pools sharing bytes (the second stage reuses the first's buffers), an inner pool carved
// from an outer one next to a TBuf, a custom pool (EXTERN_IMPL_BUFPOOL) placing a queue's buffers itself,
// and a pool asked for more than it holds.
#include "aclrtlaunch_vec_bufpool.h"
#include "aclrtlaunch_vec_bufpool_overflow.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class BufPoolTest : public VecTest {};

TEST_F(BufPoolTest, SharedInnerAndCustomPools) {
  std::mt19937_64 rng(111);
  const uint32_t n = 200, bytes = 800;
  for (uint32_t mode = 0; mode < 3; ++mode) {
    const std::vector<float> a = RandomValues<float>(n, rng, -5, 5), b = RandomValues<float>(n, rng, -5, 5);
    DevMem da(n * 4), db(n * 4), d0(n * 4), d1(n * 4), dad(16);
    CopyIn(da, a.data(), n * 4);
    CopyIn(db, b.data(), n * 4);
    ASSERT_EQ(aclrtlaunch_vec_bufpool(1, stream_, da.get(), db.get(), d0.get(), d1.get(), dad.get(), n, mode),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<float> o0(n), o1(n), want(n);
    int64_t addrs[2] = {};
    CopyOut(o0.data(), d0, n * 4);
    CopyOut(o1.data(), d1, n * 4);
    CopyOut(addrs, dad, 16);
    for (uint32_t i = 0; i < n; ++i) want[i] = a[i] + b[i];
    EXPECT_EQ(Mismatches(o0, want), "") << "mode " << mode;
    if (mode == 0) {
      EXPECT_EQ(Mismatches(o1, want), "");
      EXPECT_EQ(addrs[0], addrs[1]) << "the shared pool reuses the first pool's bytes";
    } else if (mode == 1) {
      EXPECT_EQ(addrs[1] - addrs[0], 3 * bytes) << "the TBuf follows the inner pool in the outer one";
    } else {
      EXPECT_EQ(addrs[0] - addrs[1], bytes) << "the custom pool placed the queue's buffers in reverse";
    }
  }
}

TEST_F(BufPoolTest, AskingMoreThanThePoolHoldsFails) {
  ASSERT_EQ(aclrtlaunch_vec_bufpool_overflow(1, stream_, 1024, 1056), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_NE(RecentError().find("TBufPool"), std::string::npos);
  ASSERT_EQ(aclrtlaunch_vec_bufpool_overflow(1, stream_, 1024, 1024), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
}

}  // namespace
}  // namespace vectest
