// Ascend C's C API (c_api/asc_simd.h) against host models on random data: count forms over several blocks,
// half rounding, the high-dimension form's mask and strides, burst copies with gaps, and a foreign pointer.
#include <cmath>

#include "aclrtlaunch_capi_add_f16.h"
#include "aclrtlaunch_capi_add_level0.h"
#include "aclrtlaunch_capi_bad_pointer.h"
#include "aclrtlaunch_capi_binary_f32.h"
#include "aclrtlaunch_capi_burst_copy.h"
#include "aclrtlaunch_capi_unary_f32.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class CApiTest : public VecTest {};

TEST_F(CApiTest, CountFormsOfTheBinaryFunctionsOverSeveralBlocks) {
  std::mt19937_64 rng(71);
  const uint32_t blocks = 4, n = 1000;  // not a multiple of a repeat: the count form has no tail rule
  for (uint32_t op : {0u, 1u, 2u, 3u, 4u, 5u, 8u, 9u}) {
    const std::vector<float> x = RandomValues<float>(blocks * n, rng, -4, 4);
    std::vector<float> y = RandomValues<float>(blocks * n, rng, 0.5, 3);
    DevMem dx(x.size() * 4), dy(y.size() * 4), dz(x.size() * 4);
    CopyIn(dx, x.data(), x.size() * 4);
    CopyIn(dy, y.data(), y.size() * 4);
    ASSERT_EQ(aclrtlaunch_capi_binary_f32(blocks, stream_, dx.get(), dy.get(), dz.get(), n, op), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<float> got(x.size()), want(x.size());
    CopyOut(got.data(), dz, got.size() * 4);
    for (size_t i = 0; i < x.size(); ++i) {
      const float a = x[i], b = y[i];
      switch (op) {
        case 0: case 8: want[i] = a + b; break;
        case 1: want[i] = a - b; break;
        case 2: case 9: want[i] = a * b; break;
        case 3: want[i] = a / b; break;
        case 4: want[i] = std::max(a, b); break;
        default: want[i] = std::min(a, b); break;
      }
    }
    EXPECT_EQ(Mismatches(got, want), "") << "op " << op;
  }
}

TEST_F(CApiTest, HalfAddsInFloatAndRoundsOnceInPlace) {
  std::mt19937_64 rng(72);
  const uint32_t n = 777;
  const std::vector<half> x = RandomValues<half>(n, rng, -100, 100), y = RandomValues<half>(n, rng, -100, 100);
  DevMem dx(n * 2), dy(n * 2), dz(n * 2);
  CopyIn(dx, x.data(), n * 2);
  CopyIn(dy, y.data(), n * 2);
  ASSERT_EQ(aclrtlaunch_capi_add_f16(1, stream_, dx.get(), dy.get(), dz.get(), n), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
  std::vector<half> got(n), want(n);
  CopyOut(got.data(), dz, n * 2);
  for (uint32_t i = 0; i < n; ++i) want[i] = static_cast<half>(static_cast<float>(x[i]) + static_cast<float>(y[i]));
  EXPECT_EQ(Mismatches(got, want), "");
}

TEST_F(CApiTest, HighDimensionFormFollowsTheMaskRegisterAndStrides) {
  std::mt19937_64 rng(73);
  struct Case {
    uint32_t repeat, blk, rep;
    uint64_t mask_low;
  };
  for (const Case& k : {Case{2, 1, 8, ~0ull}, Case{3, 1, 8, 0x00ff00ff00ff00ffull}, Case{2, 2, 16, 0xdeadbeefcafef00dull},
                        Case{4, 1, 5, 0x1ull}}) {
    const uint32_t n = ((k.repeat - 1) * k.rep + 7 * k.blk + 1) * 8;
    const std::vector<float> x = RandomValues<float>(n, rng, -5, 5), y = RandomValues<float>(n, rng, -5, 5);
    const std::vector<float> z0 = RandomValues<float>(n, rng, -5, 5);
    DevMem dx(n * 4), dy(n * 4), dz(n * 4);
    CopyIn(dx, x.data(), n * 4);
    CopyIn(dy, y.data(), n * 4);
    CopyIn(dz, z0.data(), n * 4);
    ASSERT_EQ(aclrtlaunch_capi_add_level0(1, stream_, dx.get(), dy.get(), dz.get(), n, k.repeat, k.blk, k.rep, 0,
                                          k.mask_low),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<float> got(n);
    CopyOut(got.data(), dz, n * 4);
    std::vector<float> want = z0;
    for (uint32_t r = 0; r < k.repeat; ++r) {
      for (uint32_t e = 0; e < 64; ++e) {
        if (((k.mask_low >> e) & 1) == 0) continue;
        const size_t off = (size_t{r} * k.rep + (e / 8) * k.blk) * 8 + e % 8;
        want[off] = x[off] + y[off];
      }
    }
    EXPECT_EQ(Mismatches(got, want), "") << "repeat " << k.repeat << " blk " << k.blk << " rep " << k.rep;
  }
}

TEST_F(CApiTest, ScalarUnaryAndFillFunctions) {
  std::mt19937_64 rng(74);
  const uint32_t n = 1333;
  const float v = 1.75f;
  for (uint32_t op = 0; op < 8; ++op) {
    const std::vector<float> x = RandomValues<float>(n, rng, -3, 3);
    DevMem dx(n * 4), dz(n * 4);
    CopyIn(dx, x.data(), n * 4);
    ASSERT_EQ(aclrtlaunch_capi_unary_f32(1, stream_, dx.get(), dz.get(), n, op, v), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<float> got(n), want(n);
    CopyOut(got.data(), dz, n * 4);
    for (uint32_t i = 0; i < n; ++i) {
      const float a = x[i];
      switch (op) {
        case 0: want[i] = a + v; break;
        case 1: want[i] = a * v; break;
        case 2: want[i] = std::max(a, v); break;
        case 3: want[i] = std::exp(a); break;
        case 4: want[i] = a > 0 ? a : 0.0f; break;
        case 5: want[i] = std::fabs(a); break;
        case 6: want[i] = std::sqrt(std::fabs(a)); break;
        default: want[i] = v; break;
      }
    }
    if (op == 3) {
      for (uint32_t i = 0; i < n; ++i) EXPECT_LE(UlpDistance(got[i], want[i]), 2u) << "exp at " << i;
    } else {
      EXPECT_EQ(Mismatches(got, want), "") << "op " << op;
    }
  }
}

TEST_F(CApiTest, BurstCopiesSkipTheirGaps) {
  std::mt19937_64 rng(75);
  constexpr uint32_t kUb = 2048;
  struct Case {
    uint32_t n_burst, len, src_gap, dst_gap;
  };
  for (const Case& k : {Case{1, 4, 0, 0}, Case{5, 2, 3, 1}, Case{7, 1, 0, 6}, Case{3, 10, 2, 0}}) {
    const uint32_t src_elems = (k.n_burst * (k.len + k.src_gap)) * 8;
    const std::vector<float> x = RandomValues<float>(src_elems, rng, -9, 9);
    DevMem dx(src_elems * 4), dz(kUb * 4);
    CopyIn(dx, x.data(), src_elems * 4);
    ASSERT_EQ(aclrtlaunch_capi_burst_copy(1, stream_, dx.get(), dz.get(), k.n_burst, k.len, k.src_gap, k.dst_gap),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<float> got(kUb), want(kUb, -1.0f);
    CopyOut(got.data(), dz, kUb * 4);
    for (uint32_t b = 0; b < k.n_burst; ++b) {
      for (uint32_t e = 0; e < k.len * 8; ++e) want[b * (k.len + k.dst_gap) * 8 + e] = x[b * (k.len + k.src_gap) * 8 + e];
    }
    EXPECT_EQ(Mismatches(got, want), "") << "bursts " << k.n_burst << " len " << k.len;
  }
}

TEST_F(CApiTest, AGlobalPointerAsALocalOperandFailsTheKernelWithTheFunctionName) {
  DevMem dx(64 * 4);
  std::vector<float> x(64, 1.0f);
  CopyIn(dx, x.data(), 64 * 4);
  ASSERT_EQ(aclrtlaunch_capi_bad_pointer(1, stream_, dx.get()), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_NE(RecentError().find("asc_add"), std::string::npos) << RecentError();
}

}  // namespace
}  // namespace vectest
