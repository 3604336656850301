// Load3D v2 (img2col, kernels/cube_load3d_kernels.cpp): a random feature map in NC1HWC0 through
// LoadData(LoadData3DParamsV2) into L0A (zZ; transposed: the img2col matrix's transpose in zZ) and L0B (zN),
// with padding, strides, dilation, start points and extents that end inside a fractal, checked bit for bit
// against a host img2col; what the load does not write keeps the destination's bytes.
#include <string>

#include "cube_load3d_kernels.h"
#include "cube_test_util.h"

namespace cube_test {
namespace {

class CubeLoad3dTest : public CubeTest {
 protected:
  // The host model: element (row m, column k) of the img2col matrix, then its place in the destination.
  template <typename U>
  std::vector<U> Reference(const std::vector<U>& fm, const Load3dArgs& p) {
    const uint32_t c0 = 32 / sizeof(U);
    std::vector<U> out(p.dstElems);
    std::memset(out.data(), static_cast<int>(p.fill), out.size() * sizeof(U));
    const int64_t hOut = (int64_t{p.h} + p.pad[2] + p.pad[3] - ((p.fh - 1) * p.dilH + 1)) / p.strideH + 1;
    const int64_t wOut = (int64_t{p.w} + p.pad[0] + p.pad[1] - ((p.fw - 1) * p.dilW + 1)) / p.strideW + 1;
    EXPECT_GT(hOut, 0);
    const uint32_t rows = (p.mExt + 15) / 16 * 16;
    const uint32_t cols = p.transpose != 0 || p.toB != 0 ? p.kExt : (p.kExt + c0 - 1) / c0 * c0;
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t c = 0; c < cols; ++c) {
        const int64_t m = p.mStart + r, k = p.kStart + c;
        const int64_t channelBlock = k / c0, window = channelBlock % (p.fh * p.fw);
        const int64_t ih = (m / wOut) * p.strideH - p.pad[2] + (window / p.fw) * p.dilH;
        const int64_t iw = (m % wOut) * p.strideW - p.pad[0] + (window % p.fw) * p.dilW;
        U v;
        std::memcpy(&v, &p.padBits, sizeof(U));
        if (ih >= 0 && ih < p.h && iw >= 0 && iw < p.w) {
          int64_t e = ((channelBlock / (p.fh * p.fw) * p.h + ih) * p.w + iw) * c0 + k % c0;
          // SetLoadDataBoundary: the bytes past the boundary are read from L1's start (the map's start).
          if (p.boundary != 0 && e * int64_t{sizeof(U)} >= p.boundary) e -= p.boundary / sizeof(U);
          v = fm[e];
        }
        size_t at;
        if (p.toB != 0) {  // zN: C0 x 16 fractals, columns inside
          const uint32_t colBlocks = (cols + 15) / 16;
          at = ((size_t{r / c0} * colBlocks + c / 16) * 16 + c % 16) * c0 + r % c0;
        } else if (p.transpose != 0) {  // the transpose in zZ: 16 x C0 fractals
          at = ((size_t{c / 16} * (rows / c0) + r / c0) * 16 + c % 16) * c0 + r % c0;
        } else {  // zZ
          at = ((size_t{r / 16} * (cols / c0) + c / c0) * 16 + r % 16) * c0 + c % c0;
        }
        out[at] = v;
      }
    }
    return out;
  }

  template <typename U>
  void Check(int32_t (*launch)(void*, void*, void*, Load3dArgs), Load3dArgs p, uint32_t seed) {
    const uint32_t c0 = 32 / sizeof(U);
    std::mt19937 rng(seed);
    std::vector<U> fm(size_t{p.c1} * p.h * p.w * c0);
    for (U& v : fm) v = static_cast<U>(rng());
    void* dOut = Alloc(p.dstElems * sizeof(U));
    ASSERT_EQ(launch(stream_, Upload(fm), dOut, p), ACL_SUCCESS);
    ASSERT_EQ(Sync(), ACL_SUCCESS);
    const auto got = Download<U>(dOut, p.dstElems);
    const auto want = Reference(fm, p);
    size_t bad = 0;
    for (size_t i = 0; i < want.size(); ++i) bad += got[i] != want[i];
    EXPECT_EQ(bad, 0u) << "of " << want.size();
  }
};

// A 9 x 10 map, 3 x 2 filter, stride 2 x 1, dilation 1 x 2, pads {1, 0, 2, 1}: 5 x 9 outputs.
Load3dArgs Conv(uint32_t c1, uint32_t mStart, uint32_t mExt, uint32_t kStart, uint32_t kExt) {
  Load3dArgs p{};
  p.c1 = c1, p.h = 9, p.w = 10, p.fh = 3, p.fw = 2, p.strideH = 2, p.strideW = 1, p.dilH = 1, p.dilW = 2;
  p.pad[0] = 1, p.pad[1] = 0, p.pad[2] = 2, p.pad[3] = 1;
  p.mStart = mStart, p.mExt = mExt, p.kStart = kStart, p.kExt = kExt;
  p.fill = 0x5a;
  return p;
}

TEST_F(CubeLoad3dTest, HalfIntoL0AAndL0B) {
  for (uint32_t mode = 0; mode < 4; ++mode) {  // 0 L0A, 1 L0A transposed, 2 L0B, 3 L0A from the registers
    SCOPED_TRACE("mode " + std::to_string(mode));
    Load3dArgs p = Conv(2, 3, 20, 16, mode == 0 || mode == 3 ? 96 : 72);
    p.transpose = mode == 1, p.toB = mode == 2, p.viaRegs = mode == 3;
    p.padBits = 0x3e00;  // 1.5
    p.dstElems = 32 * 96;
    Check<uint16_t>(CubeLoad3dB16, p, 11 + mode);
  }
}

// LoadData3DParamsV2Pro (packed extents, starts and filter; the map and padding value from the registers) into
// L0A, L0A transposed and L0B; then with SetLoadDataBoundary at half the map, whose second half reads the first.
TEST_F(CubeLoad3dTest, V2ProAndTheLoadDataBoundary) {
  for (uint32_t mode = 0; mode < 4; ++mode) {
    SCOPED_TRACE("mode " + std::to_string(mode));
    Load3dArgs p = Conv(2, 3, 20, 16, mode == 0 || mode == 3 ? 96 : 72);
    p.transpose = mode == 1, p.toB = mode == 2, p.pro = 1;
    p.boundary = mode == 3 ? 2 * 9 * 10 * 32 / 2 : 0;  // half of the 2 x 9 x 10 x 16 half map
    p.padBits = 0xbc00;  // -1
    p.dstElems = 32 * 96;
    Check<uint16_t>(CubeLoad3dB16, p, 51 + mode);
  }
}

TEST_F(CubeLoad3dTest, FloatIntoL0AAndL0B) {
  for (uint32_t mode = 0; mode < 3; ++mode) {
    SCOPED_TRACE("mode " + std::to_string(mode));
    Load3dArgs p = Conv(3, 1, 32, 8, mode == 0 ? 40 : 28);  // 28: the last 16 columns are partly written
    p.transpose = mode == 1, p.toB = mode == 2;
    p.padBits = 0xbf800000u;  // -1
    p.dstElems = 32 * 48;
    Check<uint32_t>(CubeLoad3dB32, p, 21 + mode);
  }
}

TEST_F(CubeLoad3dTest, Int8IntoL0AAndAsTheMatmulSamplesUseIt) {
  Load3dArgs p = Conv(2, 0, 16, 32, 64);
  p.padBits = 0x7f, p.dstElems = 16 * 64;
  Check<uint8_t>(CubeLoad3dB8, p, 31);
  // A k x m matrix in NZ (l1H 1, l1W the rows, 1 x 1 filter) into L0A transposed: A's zZ (CANN's samples).
  Load3dArgs q{};
  q.c1 = 3, q.h = 1, q.w = 48, q.fh = q.fw = q.strideH = q.strideW = q.dilH = q.dilW = 1;
  q.mExt = 48, q.kExt = 48, q.transpose = 1, q.dstElems = 48 * 48, q.fill = 0;
  Check<uint16_t>(CubeLoad3dB16, q, 41);
}

}  // namespace
}  // namespace cube_test
