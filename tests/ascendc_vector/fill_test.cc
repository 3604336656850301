// InitGlobalMemory / Fill of global memory, Brcb and Broadcast against host models on random data.
#include "aclrtlaunch_vec_brcb.h"
#include "aclrtlaunch_vec_broadcast.h"
#include "aclrtlaunch_vec_fill_gm.h"
#include "aclrtlaunch_vec_static_tensor_add.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class FillTest : public VecTest {};

TEST_F(FillTest, InitGlobalMemoryAndFillWriteExactlyTheirElements) {
  std::mt19937_64 rng(61);
  for (uint32_t use_fill = 0; use_fill < 2; ++use_fill) {
    const uint32_t n = 1000 + use_fill * 37, total = n + 64;
    std::vector<float> before = RandomValues<float>(total, rng, -5, 5);
    DevMem d(total * sizeof(float));
    CopyIn(d, before.data(), total * sizeof(float));
    ASSERT_EQ(aclrtlaunch_vec_fill_gm(1, stream_, d.get(), n, 2.5f, use_fill), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<float> got(total);
    CopyOut(got.data(), d, total * sizeof(float));
    std::vector<float> want = before;
    std::fill(want.begin(), want.begin() + n, 2.5f);
    EXPECT_EQ(Mismatches(got, want), "") << "use_fill " << use_fill;
  }
}

TEST_F(FillTest, BrcbFillsEachBlockWithOneSourceElement) {
  std::mt19937_64 rng(62);
  struct Case {
    uint32_t repeat, blk, rep;
  };
  for (const Case& k : {Case{1, 1, 8}, Case{3, 1, 8}, Case{2, 2, 16}, Case{4, 0, 9}, Case{2, 1, 3}}) {
    const uint32_t blk = k.blk == 0 ? 1 : k.blk;
    const uint32_t n_src = 8 * k.repeat, n_dst = ((k.repeat - 1) * k.rep + 7 * blk + 2) * 8;
    const std::vector<float> src = RandomValues<float>(n_src, rng, -5, 5);
    const std::vector<float> dst0 = RandomValues<float>(n_dst, rng, -5, 5);
    DevMem ds(n_src * 4), dd(n_dst * 4);
    CopyIn(ds, src.data(), n_src * 4);
    CopyIn(dd, dst0.data(), n_dst * 4);
    ASSERT_EQ(aclrtlaunch_vec_brcb(1, stream_, ds.get(), dd.get(), n_src, n_dst, k.repeat, k.blk, k.rep), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<float> got(n_dst);
    CopyOut(got.data(), dd, n_dst * 4);
    std::vector<float> want = dst0;
    for (uint32_t r = 0; r < k.repeat; ++r) {
      for (uint32_t b = 0; b < 8; ++b) {
        for (uint32_t e = 0; e < 8; ++e) want[(r * k.rep + b * blk) * 8 + e] = src[8 * r + b];
      }
    }
    EXPECT_EQ(Mismatches(got, want), "") << "repeat " << k.repeat << " blk " << k.blk << " rep " << k.rep;
  }
}

TEST_F(FillTest, BroadcastAlongEachAxis) {
  std::mt19937_64 rng(63);
  for (uint32_t mode = 0; mode < 3; ++mode) {
    const uint32_t rows = mode == 0 ? 1 : 5, cols = 37;
    const uint32_t n_src = mode == 0 ? 1 : (mode == 1 ? rows : cols), n_dst = rows * cols + 8;
    const std::vector<float> src = RandomValues<float>(n_src, rng, -5, 5);
    const std::vector<float> dst0 = RandomValues<float>(n_dst, rng, -5, 5);
    DevMem ds(n_src * 4), dd(n_dst * 4);
    CopyIn(ds, src.data(), n_src * 4);
    CopyIn(dd, dst0.data(), n_dst * 4);
    ASSERT_EQ(aclrtlaunch_vec_broadcast(1, stream_, ds.get(), dd.get(), mode, rows, cols), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<float> got(n_dst);
    CopyOut(got.data(), dd, n_dst * 4);
    std::vector<float> want = dst0;
    for (uint32_t i = 0; i < rows; ++i) {
      for (uint32_t j = 0; j < cols; ++j) want[i * cols + j] = mode == 0 ? src[0] : (mode == 1 ? src[i] : src[j]);
    }
    EXPECT_EQ(Mismatches(got, want), "") << "mode " << mode;
  }
}

// Static-tensor programming (InitSocState, LocalMemAllocator<Hardware::UB>, LocalTensor at a UB address), as
// asc-devkit's basic-API examples write kernels; a tensor placed past the unified buffer fails the kernel.
TEST_F(FillTest, StaticTensorsCarveTheUnifiedBuffer) {
  std::mt19937_64 rng(64);
  const uint32_t n = 4096;
  const std::vector<float> x = RandomValues<float>(n, rng, -5, 5), y = RandomValues<float>(n, rng, -5, 5);
  DevMem dx(n * 4), dy(n * 4), dz(n * 4);
  CopyIn(dx, x.data(), n * 4);
  CopyIn(dy, y.data(), n * 4);
  ASSERT_EQ(aclrtlaunch_vec_static_tensor_add(1, stream_, dx.get(), dy.get(), dz.get(), n, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
  std::vector<float> got(n), want(n);
  CopyOut(got.data(), dz, n * 4);
  for (uint32_t i = 0; i < n; ++i) want[i] = x[i] + y[i];
  EXPECT_EQ(Mismatches(got, want), "");
  // 32 KiB of x and y, then z: 192 KiB - 32 KiB - 16 KiB left; 160 KiB further is past the end.
  ASSERT_EQ(aclrtlaunch_vec_static_tensor_add(1, stream_, dx.get(), dy.get(), dz.get(), n, 160u << 10), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_NE(RecentError().find("outside the core's"), std::string::npos) << RecentError();
}

}  // namespace
}  // namespace vectest
