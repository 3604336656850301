// BroadCastVecToMM (kernels/cube_broadcast_mm_kernels.cpp): runs of fractals whose 16 rows repeat 16 source
// elements, with gaps on both sides, against a host model; the fractals the gaps skip keep their values.
#include "cube_broadcast_mm_kernels.h"
#include "cube_test_util.h"

namespace cube_test {
namespace {

class CubeBroadcastMmTest : public CubeTest {};

TEST_F(CubeBroadcastMmTest, RunsOfBroadcastFractalsWithGaps) {
  const uint32_t count = 3, len = 2, srcGap = 2, dstGap = 1;  // srcGap: 32-byte blocks (8 floats)
  const uint32_t srcElems = count * (len * 16 + srcGap * 8), outElems = count * (len + dstGap) * 256;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  std::vector<float> src(srcElems);
  for (float& v : src) v = dist(rng);
  void* out = Alloc(outElems * sizeof(float));
  ASSERT_EQ(CubeBroadcastVecToMm(stream_, Upload(src), out, srcElems, outElems, count, len, srcGap, dstGap, -7.0f),
            ACL_SUCCESS);
  ASSERT_EQ(Sync(), ACL_SUCCESS);
  std::vector<float> want(outElems, -7.0f);
  for (uint32_t i = 0; i < count; ++i) {
    for (uint32_t j = 0; j < len; ++j) {
      for (uint32_t e = 0; e < 256; ++e) {
        want[(i * (len + dstGap) + j) * 256 + e] = src[i * (len * 16 + srcGap * 8) + j * 16 + e % 16];
      }
    }
  }
  EXPECT_EQ(Download<float>(out, outElems), want);
}

}  // namespace
}  // namespace cube_test
