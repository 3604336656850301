// DataCopy(GM, CO1, DataCopyCO12DstParams) (kernels/cube_fixpipe_copy_kernels.cpp): random accumulators through
// the fixpipe with SetFixpipePreQuantFlag's scalar (DEQF16, relu, ND), per-column scales moved L1 -> the fixpipe
// buffer in 128-byte units (VREQ8 to int8 in NZ: 32-column blocks, dstStride 32-byte units apart) and
// SetFixpipeNz2ndFlag's matrices (two float matrices to ND), checked against a host model.
#include <string>

#include "cube_fixpipe_copy_kernels.h"
#include "cube_test_util.h"

namespace cube_test {
namespace {

class CubeFixpipeCopyTest : public CubeTest {
 protected:
  // Element (r, c) of NZ matrix i of the source.
  static size_t SrcAt(const FixpipeCopyArgs& p, size_t elemBytes, uint32_t i, uint32_t r, uint32_t c) {
    const size_t mA = (p.m + 15) / 16 * 16;
    return i * (p.srcNdStride * 1024 / elemBytes) + ((c / 16) * mA + r) * 16 + c % 16;
  }
  static size_t SrcElems(const FixpipeCopyArgs& p, size_t elemBytes) {
    return (p.nd - 1) * (p.srcNdStride * 1024 / elemBytes) + size_t{(p.m + 15) / 16 * 16} * ((p.n + 15) / 16 * 16);
  }
};

TEST_F(CubeFixpipeCopyTest, ScalarDequantWithReluToNd) {
  FixpipeCopyArgs p{};
  p.m = 20, p.n = 40, p.nd = 1, p.mode = 0, p.relu = 1, p.nz2nd = 1, p.dstStride = 40, p.scale = 0.25f;
  std::mt19937 rng(5);
  std::vector<int32_t> src(SrcElems(p, 4));
  for (int32_t& v : src) v = static_cast<int32_t>(rng() % 2001) - 1000;
  void* out = Alloc(size_t{p.m} * p.n * 2);
  ASSERT_EQ(CubeFixpipeCopy(stream_, Upload(src), Alloc(64), out, p), ACL_SUCCESS);
  ASSERT_EQ(Sync(), ACL_SUCCESS);
  const auto got = Download<uint16_t>(out, size_t{p.m} * p.n);
  size_t bad = 0;
  for (uint32_t r = 0; r < p.m; ++r) {
    for (uint32_t c = 0; c < p.n; ++c) {
      const int32_t v = std::max(src[SrcAt(p, 4, 0, r, c)], 0);
      bad += got[r * p.n + c] != ToHalfBits(static_cast<float>(v) * 0.25f);
    }
  }
  EXPECT_EQ(bad, 0u);
}

TEST_F(CubeFixpipeCopyTest, VectorRequantToInt8Nz) {
  FixpipeCopyArgs p{};
  p.m = 20, p.n = 40, p.nd = 1, p.mode = 1, p.dstStride = 20;  // 32-column blocks of 20 rows of 32 bytes
  std::mt19937 rng(6);
  std::vector<int32_t> src(SrcElems(p, 4));
  for (int32_t& v : src) v = static_cast<int32_t>(rng() % 1201) - 600;
  std::vector<uint64_t> scales(64);
  for (uint32_t c = 0; c < scales.size(); ++c) {
    const float s = 0.5f + 0.25f * static_cast<float>(c % 4);
    uint32_t bits;
    std::memcpy(&bits, &s, sizeof bits);
    scales[c] = bits | (uint64_t{1} << 46);  // the sign bit: int8 out
  }
  const size_t outBytes = size_t{2} * p.dstStride * 32;
  void* out = Alloc(outBytes);
  ASSERT_EQ(CubeFixpipeCopy(stream_, Upload(src), Upload(scales), out, p), ACL_SUCCESS);
  ASSERT_EQ(Sync(), ACL_SUCCESS);
  const auto got = Download<int8_t>(out, outBytes);
  size_t bad = 0;
  for (uint32_t r = 0; r < p.m; ++r) {
    for (uint32_t c = 0; c < p.n; ++c) {
      const float s = 0.5f + 0.25f * static_cast<float>(c % 4);
      const float want = std::clamp(std::nearbyint(static_cast<float>(src[SrcAt(p, 4, 0, r, c)]) * s), -128.0f, 127.0f);
      bad += got[(c / 32) * p.dstStride * 32 + r * 32 + c % 32] != static_cast<int8_t>(want);
    }
  }
  EXPECT_EQ(bad, 0u);
}

TEST_F(CubeFixpipeCopyTest, Nz2ndFlagMatricesToNd) {
  FixpipeCopyArgs p{};
  p.m = 16, p.n = 24, p.nd = 2, p.mode = 2, p.nz2nd = 1, p.dstStride = 24, p.srcNdStride = 2, p.dstNdStride = 400;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> src(SrcElems(p, 4));
  for (float& v : src) v = dist(rng);
  const size_t outElems = size_t{p.dstNdStride} + size_t{p.m} * p.n;
  void* out = Alloc(outElems * 4);
  ASSERT_EQ(CubeFixpipeCopy(stream_, Upload(src), Alloc(64), out, p), ACL_SUCCESS);
  ASSERT_EQ(Sync(), ACL_SUCCESS);
  const auto got = Download<float>(out, outElems);
  size_t bad = 0;
  for (uint32_t i = 0; i < p.nd; ++i) {
    for (uint32_t r = 0; r < p.m; ++r) {
      for (uint32_t c = 0; c < p.n; ++c) bad += got[i * p.dstNdStride + r * p.n + c] != src[SrcAt(p, 4, i, r, c)];
    }
  }
  EXPECT_EQ(bad, 0u);
}

}  // namespace
}  // namespace cube_test
