// Transpose (16 x 16 of half, uint16 through TRANSPOSE_ND2ND_B16, int16 in place; NCHW <-> NHWC with
// a temporary buffer of the size the reference asks for, and one too small) and TransDataTo5HD for half
// (one repeat, which starts one stride past the lists, and several repeats with strides) against host
// models on random data.
#include "aclrtlaunch_vec_trans5hd.h"
#include "aclrtlaunch_vec_transpose16.h"
#include "aclrtlaunch_vec_transpose_nchw.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class TransposeTest : public VecTest {};

TEST_F(TransposeTest, Transpose16x16) {
  std::mt19937_64 rng(101);
  for (uint32_t mode = 0; mode < 3; ++mode) {
    const std::vector<uint16_t> src = RandomValues<uint16_t>(256, rng, 0, 65535);
    const std::vector<uint16_t> dst0 = RandomValues<uint16_t>(256, rng, 0, 65535);
    DevMem ds(512), dd(512);
    CopyIn(ds, src.data(), 512);
    CopyIn(dd, dst0.data(), 512);
    ASSERT_EQ(aclrtlaunch_vec_transpose16(1, stream_, ds.get(), dd.get(), mode), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<uint16_t> got(256), want(256);
    CopyOut(got.data(), dd, 512);
    for (int i = 0; i < 16; ++i) {
      for (int j = 0; j < 16; ++j) want[j * 16 + i] = src[i * 16 + j];
    }
    EXPECT_EQ(Mismatches(got, want), "") << "mode " << mode;
  }
}

TEST_F(TransposeTest, NchwNhwc) {
  std::mt19937_64 rng(102);
  struct Case {
    uint32_t n, c, h, w;
  };
  for (const Case& k : {Case{1, 3, 2, 4}, Case{2, 5, 4, 6}, Case{3, 1, 8, 1}}) {
    for (uint32_t to_nhwc = 0; to_nhwc < 2; ++to_nhwc) {
      const uint32_t total = k.n * k.c * k.h * k.w, hw = k.h * k.w;
      const uint32_t tmp = (to_nhwc != 0 ? k.c + 2 : 2 * k.c + 1) * 16 * 8 * 4;
      const std::vector<float> src = RandomValues<float>(total, rng, -5, 5);
      const std::vector<float> dst0 = RandomValues<float>(total, rng, -5, 5);
      DevMem ds(total * 4), dd(total * 4);
      CopyIn(ds, src.data(), total * 4);
      CopyIn(dd, dst0.data(), total * 4);
      ASSERT_EQ(aclrtlaunch_vec_transpose_nchw(1, stream_, ds.get(), dd.get(), k.n, k.c, k.h, k.w, to_nhwc, tmp),
                ACL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
      std::vector<float> got(total), want(total);
      CopyOut(got.data(), dd, total * 4);
      for (uint32_t b = 0; b < k.n; ++b) {
        for (uint32_t ch = 0; ch < k.c; ++ch) {
          for (uint32_t x = 0; x < hw; ++x) {
            const uint32_t nchw = (b * k.c + ch) * hw + x, nhwc = (b * hw + x) * k.c + ch;
            if (to_nhwc != 0) want[nhwc] = src[nchw]; else want[nchw] = src[nhwc];
          }
        }
      }
      EXPECT_EQ(Mismatches(got, want), "") << "n " << k.n << " c " << k.c << " to_nhwc " << to_nhwc;
    }
  }
  // A temporary buffer smaller than the reference asks for fails the kernel.
  DevMem ds(2 * 3 * 8 * 4), dd(2 * 3 * 8 * 4);
  ASSERT_EQ(aclrtlaunch_vec_transpose_nchw(1, stream_, ds.get(), dd.get(), 2, 3, 2, 4, 1, 32), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_NE(RecentError().find("sharedTmpBuffer"), std::string::npos);
}

TEST_F(TransposeTest, TransDataTo5HDHalf) {
  std::mt19937_64 rng(103);
  struct Case {
    uint32_t src_gap, repeat, src_rep, dst_rep;
  };
  for (const Case& k : {Case{16, 1, 0, 0}, Case{16, 1, 2, 16}, Case{64, 4, 1, 16}, Case{48, 3, 1, 17}}) {
    const uint32_t step_max = k.repeat == 1 ? 1 : k.repeat - 1;
    const uint32_t n_src = 15 * k.src_gap + (step_max * k.src_rep + 1) * 16;
    const uint32_t n_dst = 15 * 16 + (step_max * k.dst_rep + 1) * 16;
    const std::vector<uint16_t> src = RandomValues<uint16_t>(n_src, rng, 0, 65535);
    const std::vector<uint16_t> dst0 = RandomValues<uint16_t>(n_dst, rng, 0, 65535);
    DevMem ds(n_src * 2), dd(n_dst * 2);
    CopyIn(ds, src.data(), n_src * 2);
    CopyIn(dd, dst0.data(), n_dst * 2);
    ASSERT_EQ(aclrtlaunch_vec_trans5hd(1, stream_, ds.get(), dd.get(), n_src, n_dst, k.src_gap, k.repeat, k.src_rep,
                                       k.dst_rep),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<uint16_t> got(n_dst);
    CopyOut(got.data(), dd, n_dst * 2);
    std::vector<uint16_t> want = dst0;
    for (uint32_t r = 0; r < k.repeat; ++r) {
      const uint32_t step = k.repeat == 1 ? 1 : r;  // a single repeat starts one stride past the lists
      for (uint32_t j = 0; j < 16; ++j) {
        for (uint32_t i = 0; i < 16; ++i) {
          want[j * 16 + step * k.dst_rep * 16 + i] = src[i * k.src_gap + step * k.src_rep * 16 + j];
        }
      }
    }
    EXPECT_EQ(Mismatches(got, want), "") << "gap " << k.src_gap << " repeat " << k.repeat << " src_rep " << k.src_rep
                                         << " dst_rep " << k.dst_rep;
  }
}

}  // namespace
}  // namespace vectest
