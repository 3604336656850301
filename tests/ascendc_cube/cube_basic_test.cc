// The basic cube API (kernels/cube_basic_kernels.cpp): DataCopy GM -> A1/B1 with Nd2NzParams, LoadData to
// L0A/L0B (with and without ifTranspose), Mmad (zero, accumulating, bias-table start), Fixpipe to GM (ND,
// relu, F322F16 / DEQF16) or DataCopy CO1 -> CO2 in fractals, on random data with shapes that are not
// multiples of 16, against a host GEMM; and the cube memories' sizes enforced by TPipe::InitBuffer.
#include <cmath>
#include <random>
#include <string>

#include "cube_basic_kernels.h"
#include "cube_test_util.h"

namespace cube_test {
namespace {

struct Shape {
  uint32_t m, n, k;
};
const Shape kBasicShapes[] = {{16, 16, 16}, {1, 1, 1}, {37, 53, 29}, {100, 90, 130}, {64, 48, 200}};

class CubeBasicTest : public CubeTest {
 protected:
  // Runs a 16-bit-input kernel and checks C (float) against the reference.
  // half_bias: the bias goes to the kernel as half (converted to float in the bias table).
  void RunFloatOut(int32_t (*launch)(void*, void*, void*, void*, void*, CubeMmArgs), bool bf16, CubeMmArgs args,
                   bool half_bias = false) {
    SCOPED_TRACE(std::to_string(args.m) + "x" + std::to_string(args.n) + "x" + std::to_string(args.k) +
                 " transB=" + std::to_string(args.transB) + " bias=" + std::to_string(args.bias) +
                 " relu=" + std::to_string(args.relu) + " twice=" + std::to_string(args.twice) +
                 " co2=" + std::to_string(args.co2));
    auto round = bf16 ? RoundBf16 : RoundHalf;
    const auto a = RandomValues(size_t{args.m} * args.k, args.m * 7 + args.k, round);
    const auto b = RandomValues(size_t{args.k} * args.n, args.n * 11 + args.k, round);
    const auto bias = RandomValues(args.n, args.n + 3, half_bias ? RoundHalf : RoundNone);
    std::vector<double> bias_d(bias.begin(), bias.end());
    auto bits = [&](const std::vector<float>& v) { return bf16 ? Bf16Bits(v) : HalfBits(v); };
    void* da = Upload(bits(a));
    void* db = Upload(bits(b));  // read as k x n, or as n x k (B^T) when transB
    void* dbias = half_bias ? Upload(HalfBits(bias)) : Upload(bias);
    void* dc = Alloc(size_t{args.m} * args.n * sizeof(float));
    ASSERT_EQ(launch(stream_, da, db, dbias, dc, args), ACL_SUCCESS);
    ASSERT_EQ(Sync(), ACL_SUCCESS);
    auto want = RefGemm(a, b, args.bias ? &bias_d : nullptr, args.m, args.n, args.k, false, args.transB != 0);
    if (args.twice) {
      const auto once = RefGemm(a, b, nullptr, args.m, args.n, args.k, false, args.transB != 0);
      for (size_t i = 0; i < want.size(); ++i) want[i] += once[i];
    }
    if (args.relu)
      for (double& w : want) w = std::max(w, 0.0);
    const auto got = Download<float>(dc, want.size());
    EXPECT_LE(MaxRelError(got, want), 1e-3);
  }

  // C = 2 A x B + bias, exactly in int32, for int8 or (int4) packed int4 operands in [-8, 7].
  void IntToInt32Exact(bool int4, std::initializer_list<Shape> shapes) {
    for (const Shape& s : shapes) {
      SCOPED_TRACE(std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k));
      const int lo = int4 ? -8 : -128, hi = int4 ? 7 : 127;
      const auto a = RandomInt8(size_t{s.m} * s.k, 8, lo, hi);
      const auto bt = RandomInt8(size_t{s.n} * s.k, 9, lo, hi);
      std::vector<int32_t> bias(s.n);
      std::mt19937 rng(10);
      for (auto& v : bias) v = static_cast<int32_t>(rng() % 20001) - 10000;
      std::vector<double> bias_d(bias.begin(), bias.end());
      void* dc = Alloc(size_t{s.m} * s.n * 4);
      const CubeMmArgs args{s.m, s.n, s.k, 1, 1, 0, 1, 0, 0};
      ASSERT_EQ(int4 ? CubeMmS4(stream_, Upload(PackInt4(a)), Upload(PackInt4(bt)), Upload(bias), dc, args)
                     : CubeMmS8(stream_, Upload(a), Upload(bt), Upload(bias), dc, args),
                ACL_SUCCESS);
      ASSERT_EQ(Sync(), ACL_SUCCESS);
      auto want = RefGemm(a, bt, &bias_d, s.m, s.n, s.k, false, true);
      const auto once = RefGemm(a, bt, nullptr, s.m, s.n, s.k, false, true);
      const auto got = Download<int32_t>(dc, want.size());
      size_t bad = 0;
      for (size_t i = 0; i < want.size(); ++i) bad += static_cast<double>(got[i]) != want[i] + once[i] ? 1 : 0;
      EXPECT_EQ(bad, 0u);
    }
  }
};

TEST_F(CubeBasicTest, HalfToFloatNotTransposed) {
  for (const Shape& s : kBasicShapes) RunFloatOut(CubeMmF16, false, {s.m, s.n, s.k, 0, 0, 0, 0, 0, 0});
}

TEST_F(CubeBasicTest, HalfToFloatTransposedB) {
  for (const Shape& s : kBasicShapes) RunFloatOut(CubeMmF16, false, {s.m, s.n, s.k, 1, 0, 0, 0, 0, 0});
}

TEST_F(CubeBasicTest, HalfBiasReluAccumulate) {
  RunFloatOut(CubeMmF16, false, {37, 53, 29, 0, 1, 0, 0, 0, 0});
  RunFloatOut(CubeMmF16, false, {37, 53, 29, 1, 0, 1, 0, 0, 0});
  RunFloatOut(CubeMmF16, false, {37, 53, 29, 0, 0, 0, 1, 0, 0});
  RunFloatOut(CubeMmF16, false, {100, 90, 130, 1, 1, 1, 1, 0, 0});
}

// A half bias through L1 into the bias table as float (DataCopy C1 -> C2 converting), as Ascend/samples'
// MmadBiasInvocation does.
TEST_F(CubeBasicTest, HalfBiasConvertedIntoTheBiasTable) {
  RunFloatOut(CubeMmF16HBias, false, {37, 53, 29, 0, 1, 0, 0, 0, 0}, true);
  RunFloatOut(CubeMmF16HBias, false, {100, 90, 130, 1, 1, 1, 0, 0, 0}, true);
}

// InitConstValue / Fill(LocalTensor, InitConstValueParams): 512-byte blocks in L0A/L0B with gaps between
// iterations; a destination outside L1/L0A/L0B fails the kernel.
TEST_F(CubeBasicTest, InitConstValueFillsCubeBlocksWithGaps) {
  std::mt19937 rng(77);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  const float a = RoundHalf(dist(rng));
  const float b = RoundHalf(dist(rng));
  void* dc = Alloc(256 * sizeof(float));
  ASSERT_EQ(CubeInitConst(stream_, dc, a, b, 0), ACL_SUCCESS);
  ASSERT_EQ(Sync(), ACL_SUCCESS);
  const auto got = Download<float>(dc, 256);
  for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], 32.0 * a * b, 1e-3 * std::fabs(32.0 * a * b)) << i;
  ASSERT_EQ(CubeInitConst(stream_, dc, a, b, 1), ACL_SUCCESS);
  EXPECT_NE(Sync(), ACL_SUCCESS);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("InitConstValue: the destination must be in L1"), std::string::npos);
}

TEST_F(CubeBasicTest, OutThroughCo2) {
  RunFloatOut(CubeMmF16, false, {40, 48, 50, 0, 0, 0, 0, 0, 1});
  RunFloatOut(CubeMmF16, false, {7, 32, 130, 1, 1, 1, 1, 0, 1});
}

TEST_F(CubeBasicTest, Bf16ToFloat) {
  RunFloatOut(CubeMmBf16, true, {37, 53, 29, 0, 0, 0, 0, 0, 0});
  RunFloatOut(CubeMmBf16, true, {100, 90, 130, 1, 1, 0, 0, 0, 0});
}

TEST_F(CubeBasicTest, HalfToHalfF322F16) {
  const uint32_t m = 45, n = 70, k = 90;
  const auto a = RandomValues(size_t{m} * k, 1, RoundHalf);
  const auto b = RandomValues(size_t{k} * n, 2, RoundHalf);
  void* dc = Alloc(size_t{m} * n * 2);
  ASSERT_EQ(CubeMmF16ToF16(stream_, Upload(HalfBits(a)), Upload(HalfBits(b)), Upload(std::vector<float>(n)), dc,
                           {m, n, k, 0, 0, 0, 0, 0, 0}),
            ACL_SUCCESS);
  ASSERT_EQ(Sync(), ACL_SUCCESS);
  const auto want = RefGemm(a, b, nullptr, m, n, k, false, false);
  const auto bits = Download<uint16_t>(dc, want.size());
  std::vector<float> got(bits.size());
  for (size_t i = 0; i < bits.size(); ++i) got[i] = FromHalfBits(bits[i]);
  EXPECT_LE(MaxRelError(got, want), 1e-3);
  // Each element is the float result rounded to half once.
  size_t off = 0;
  for (size_t i = 0; i < want.size(); ++i)
    off += std::fabs(got[i] - RoundHalf(static_cast<float>(want[i]))) > 2e-3 ? 1 : 0;
  EXPECT_EQ(off, 0u);
}

TEST_F(CubeBasicTest, FloatToFloat) {
  for (const Shape& s : {Shape{37, 53, 29}, Shape{20, 33, 70}}) {
    const auto a = RandomValues(size_t{s.m} * s.k, 5, RoundNone);
    const auto bt = RandomValues(size_t{s.n} * s.k, 6, RoundNone);  // B^T, n x k
    const auto bias = RandomValues(s.n, 7, RoundNone);
    std::vector<double> bias_d(bias.begin(), bias.end());
    void* dc = Alloc(size_t{s.m} * s.n * 4);
    ASSERT_EQ(CubeMmF32(stream_, Upload(a), Upload(bt), Upload(bias), dc, {s.m, s.n, s.k, 1, 1, 0, 0, 0, 0}),
              ACL_SUCCESS);
    ASSERT_EQ(Sync(), ACL_SUCCESS);
    EXPECT_LE(MaxRelError(Download<float>(dc, size_t{s.m} * s.n), RefGemm(a, bt, &bias_d, s.m, s.n, s.k, false, true)),
              1e-5);
  }
}

TEST_F(CubeBasicTest, Int8ToInt32Exact) { IntToInt32Exact(false, {{37, 53, 29}, {50, 20, 100}, {16, 16, 300}}); }

// int4b_t: Nd2Nz with the rows counted in bytes, 16 x 64 fractals through LoadData, Mmad int4 x int4 -> int32,
// with tails in m, n and k (even: a row of int4 data starts on a byte).
TEST_F(CubeBasicTest, Int4ToInt32Exact) {
  IntToInt32Exact(true, {{37, 53, 70}, {16, 16, 64}, {40, 50, 70}, {3, 33, 130}, {65, 17, 258}, {16, 32, 2}});
}

TEST_F(CubeBasicTest, Int8DequantToHalf) {
  const uint32_t m = 33, n = 40, k = 70;
  const auto a = RandomInt8(size_t{m} * k, 11);
  const auto bt = RandomInt8(size_t{n} * k, 12);
  void* dc = Alloc(size_t{m} * n * 2);
  // A scale with more than 10 mantissa bits: DEQF16 multiplies by it with its low 13 bits dropped.
  const float scale = 0.0371f;
  uint32_t scale_bits;
  std::memcpy(&scale_bits, &scale, sizeof scale_bits);
  scale_bits &= 0xFFFFE000u;
  float used_scale;
  std::memcpy(&used_scale, &scale_bits, sizeof used_scale);
  ASSERT_EQ(
      CubeMmS8Deq(stream_, Upload(a), Upload(bt), Upload(std::vector<int32_t>(n)), dc, {m, n, k, 1, 0, 1, 0, scale, 0}),
      ACL_SUCCESS);
  ASSERT_EQ(Sync(), ACL_SUCCESS);
  const auto want = RefGemm(a, bt, nullptr, m, n, k, false, true);
  const auto got = Download<uint16_t>(dc, want.size());
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const float expect = RoundHalf(static_cast<float>(std::max(want[i], 0.0)) * used_scale);  // relu, then the scale
    bad += FromHalfBits(got[i]) != expect ? 1 : 0;
  }
  EXPECT_EQ(bad, 0u);
}

// VDEQF16 with the scales the fixpipe's configuration register points at (SetFixPipeConfig).
TEST_F(CubeBasicTest, Int8VectorDequantThroughFixPipeConfig) {
  const uint32_t m = 20, n = 37, k = 50;
  const auto a = RandomInt8(size_t{m} * k, 13);
  const auto bt = RandomInt8(size_t{n} * k, 14);
  std::vector<uint64_t> words(n);
  std::vector<float> used(n);
  for (uint32_t c = 0; c < n; ++c) {
    const float scale = 0.001f + 0.0137f * static_cast<float>(c);
    uint32_t bits;
    std::memcpy(&bits, &scale, sizeof bits);
    words[c] = bits;
    bits &= 0xFFFFE000u;  // DEQF16's scale: 10 mantissa bits
    std::memcpy(&used[c], &bits, sizeof bits);
  }
  void* dc = Alloc(size_t{m} * n * 2);
  ASSERT_EQ(CubeMmS8VDeq(stream_, Upload(a), Upload(bt), Upload(words), dc, {m, n, k, 1, 0, 1, 0, 0.0f, 0}),
            ACL_SUCCESS);
  ASSERT_EQ(Sync(), ACL_SUCCESS);
  const auto want = RefGemm(a, bt, nullptr, m, n, k, false, true);
  const auto got = Download<uint16_t>(dc, want.size());
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    bad += FromHalfBits(got[i]) != RoundHalf(static_cast<float>(std::max(want[i], 0.0)) * used[i % n]) ? 1 : 0;
  }
  EXPECT_EQ(bad, 0u);
}

// LoadDataWithTranspose (int8 32 x 32 squares) for B, the bias table filled by DataCopyParams in 64-byte units,
// C starting from it.
TEST_F(CubeBasicTest, Int8TransposedLoadAndBiasTable) {
  const Shape shapes[] = {{30, 40, 70}, {16, 32, 32}, {45, 70, 100}};
  for (const Shape& s : shapes) {
    SCOPED_TRACE(std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k));
    const auto a = RandomInt8(size_t{s.m} * s.k, 21);
    const auto b = RandomInt8(size_t{s.k} * s.n, 22);
    std::vector<int32_t> bias(s.n);
    for (uint32_t j = 0; j < s.n; ++j) bias[j] = static_cast<int32_t>(j * 7) - 100;
    std::vector<double> bias_d(bias.begin(), bias.end());
    void* dc = Alloc(size_t{s.m} * s.n * 4);
    ASSERT_EQ(CubeMmS8BTrans(stream_, Upload(a), Upload(b, 2048), Upload(bias), dc, {s.m, s.n, s.k, 0, 1, 0, 0, 0, 0}),
              ACL_SUCCESS);
    ASSERT_EQ(Sync(), ACL_SUCCESS);
    const auto want = RefGemm(a, b, &bias_d, s.m, s.n, s.k, false, false);
    const auto got = Download<int32_t>(dc, want.size());
    size_t bad = 0;
    for (size_t i = 0; i < want.size(); ++i) bad += static_cast<double>(got[i]) != want[i] ? 1 : 0;
    EXPECT_EQ(bad, 0u);
  }
}

// Mmad with m == 1 (GEMV): A read from L0A as k contiguous elements; k and n with tails.
TEST_F(CubeBasicTest, GemvReadsAAsAVector) {
  const Shape shapes[] = {{1, 32, 256}, {1, 50, 300}, {1, 40, 600}, {1, 7, 16}, {1, 16, 40}};
  for (const Shape& s : shapes) {
    SCOPED_TRACE(std::to_string(s.n) + "x" + std::to_string(s.k));
    const auto a = RandomValues(s.k, s.k + 1, RoundHalf);
    const auto bt = RandomValues(size_t{s.n} * s.k, s.n * 13 + s.k, RoundHalf);
    void* dc = Alloc(size_t{s.n} * sizeof(float));
    ASSERT_EQ(CubeGemvF16(stream_, Upload(HalfBits(a)), Upload(HalfBits(bt)), dc, s.n, s.k), ACL_SUCCESS);
    ASSERT_EQ(Sync(), ACL_SUCCESS);
    EXPECT_LE(MaxRelError(Download<float>(dc, s.n), RefGemm(a, bt, nullptr, 1, s.n, s.k, false, true)), 1e-3);
  }
}

// TPipe gives each cube position the memory of its kind, sized as npurt/sim_core.h says.
TEST_F(CubeBasicTest, CubeMemoriesAreEnforced) {
  const uint32_t limits[] = {512 * 1024, 64 * 1024, 64 * 1024, 128 * 1024, 1024, 2048};
  for (uint32_t which = 0; which < 6; ++which) {
    SCOPED_TRACE(which);
    ASSERT_EQ(CubeOversize(stream_, which, limits[which]), ACL_SUCCESS);
    EXPECT_EQ(Sync(), ACL_SUCCESS);
    ASSERT_EQ(CubeOversize(stream_, which, limits[which] + 32), ACL_SUCCESS);
    EXPECT_NE(Sync(), ACL_SUCCESS);
  }
}

}  // namespace
}  // namespace cube_test
