// The Matmul high-level API (kernels/cube_matmul_kernels.cpp) with tilings from the host SDK
// (matmul_tiling::MultiCoreMatmulTiling) launched on usedCoreNum blocks: random data, shapes with tails
// (M, N, K not multiples of 16 or of baseM/baseN), transposed A/B, bias, every way of taking C out
// (IterateAll, Iterate + GetTensorC to GM / to a VECIN tensor / sequentially, atomic add), both iterate
// orders, half / bfloat16 / float / int8 operands, ND and NZ, against a host GEMM.
#include <string>

#include <npurt/sim_core.h>

#include "cube_matmul_kernels.h"
#include "cube_mix_kernels.h"
#include "cube_test_util.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/tiling_api.h"

namespace cube_test {
namespace {

using matmul_tiling::DataType;

struct MmCase {
  int m, n, k;
  int cores;
  bool transA, transB, bias;
  uint32_t mode;
  int fixM = -1, fixN = -1;  // SetFixSplit base M/N (-1: the SDK's choice)
  bool firstN = false;       // SetTraverse(FIRSTN): iterateOrder 1
};

std::string Describe(const MmCase& c) {
  return std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k) +
         " cores=" + std::to_string(c.cores) + " transA=" + std::to_string(c.transA) +
         " transB=" + std::to_string(c.transB) + " bias=" + std::to_string(c.bias) + " mode=" + std::to_string(c.mode) +
         " fix=" + std::to_string(c.fixM) + "/" + std::to_string(c.fixN) + " firstN=" + std::to_string(c.firstN);
}

class CubeMatmulTest : public CubeTest {
 protected:
  // The tiling the SDK computes for the case (asserting success).
  AscendC::tiling::TCubeTiling Tiling(const MmCase& c, DataType in, DataType out, DataType bias,
                                      matmul_tiling::CubeFormat format = matmul_tiling::CubeFormat::ND) {
    matmul_tiling::MultiCoreMatmulTiling api;
    api.SetDim(c.cores);
    api.SetAType(matmul_tiling::TPosition::GM, format, in, c.transA);
    api.SetBType(matmul_tiling::TPosition::GM, format, in, c.transB);
    api.SetCType(matmul_tiling::TPosition::GM, format, out);
    api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, bias);
    api.SetShape(c.m, c.n, c.k);
    api.SetOrgShape(c.m, c.n, c.k);
    api.SetBias(c.bias);
    if (c.fixM > 0) api.SetFixSplit(c.fixM, c.fixN, -1);
    if (c.firstN) api.SetTraverse(matmul_tiling::MatrixTraverse::FIRSTN);
    api.SetBufferSpace(-1, -1, -1);
    AscendC::tiling::TCubeTiling t;
    EXPECT_EQ(api.GetTiling(t), 0);
    return t;
  }

  void IntExact(bool int4, std::initializer_list<MmCase> cases);

  // Launches `launch` over the tiling's blocks; returns C's bytes.
  template <typename Out, typename In, typename BiasT>
  std::vector<Out> Run(CubeMatmulLaunch launch, const MmCase& c, const AscendC::tiling::TCubeTiling& t,
                       const std::vector<In>& a, const std::vector<In>& b, const std::vector<BiasT>& bias,
                       size_t c_elems) {
    void* dt = Upload(std::vector<AscendC::tiling::TCubeTiling>{t});
    void* dc = Alloc(c_elems * sizeof(Out) + 64);
    void* ws = Alloc(16u * 1024 * 1024 + static_cast<size_t>(t.usedCoreNum) * t.baseM * t.baseN * sizeof(Out));
    EXPECT_EQ(launch(static_cast<uint32_t>(t.usedCoreNum), stream_, Upload(a), Upload(b), Upload(bias), dc, ws, dt,
                     {c.transA, c.transB, c.bias, c.mode}),
              ACL_SUCCESS);
    EXPECT_EQ(Sync(), ACL_SUCCESS);
    return Download<Out>(dc, c_elems);
  }

  // A half / bfloat16 / float case with float C, checked to 1e-3 (float operands: 1e-5).
  void RunFloat(CubeMatmulLaunch launch, const MmCase& c, DataType in, float (*round)(float), double tol) {
    SCOPED_TRACE(Describe(c));
    const auto t = Tiling(c, in, DataType::DT_FLOAT, DataType::DT_FLOAT);
    ASSERT_GE(t.usedCoreNum, 1);
    const auto a = RandomValues(static_cast<size_t>(c.m) * c.k, c.m * 31 + c.k, round);
    const auto b = RandomValues(static_cast<size_t>(c.k) * c.n, c.n * 17 + c.k, round);
    const auto bias = RandomValues(c.n, c.n, RoundNone);
    std::vector<double> bias_d(bias.begin(), bias.end());
    std::vector<float> got;
    if (in == DataType::DT_FLOAT16) {
      got = Run<float>(launch, c, t, HalfBits(a), HalfBits(b), bias, static_cast<size_t>(c.m) * c.n);
    } else if (in == DataType::DT_BF16) {
      got = Run<float>(launch, c, t, Bf16Bits(a), Bf16Bits(b), bias, static_cast<size_t>(c.m) * c.n);
    } else {
      got = Run<float>(launch, c, t, a, b, bias, static_cast<size_t>(c.m) * c.n);
    }
    auto want = RefGemm(a, b, c.bias ? &bias_d : nullptr, c.m, c.n, c.k, c.transA, c.transB);
    if (c.mode == 3)
      for (double& w : want) w *= 2;
    EXPECT_LE(MaxRelError(got, want), tol);
  }
};

TEST_F(CubeMatmulTest, HalfShapesCoresAndTails) {
  const MmCase cases[] = {
      {1, 1, 1, 1, false, false, false, 0},      {31, 47, 65, 1, false, false, false, 0},
      {31, 47, 65, 2, false, false, true, 0},    {128, 96, 300, 2, false, false, true, 0},
      {200, 130, 77, 3, false, false, true, 0},  {257, 300, 520, 4, false, false, true, 0},
      {64, 64, 1000, 2, false, false, false, 0}, {300, 17, 40, 4, false, false, true, 0},
  };
  for (const MmCase& c : cases) RunFloat(CubeMatmulF16, c, DataType::DT_FLOAT16, RoundHalf, 1e-3);
}

TEST_F(CubeMatmulTest, HalfTransposed) {
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      RunFloat(CubeMatmulF16, {77, 93, 150, 2, ta, tb, true, 0}, DataType::DT_FLOAT16, RoundHalf, 1e-3);
      RunFloat(CubeMatmulF16, {77, 93, 150, 1, ta, tb, false, 1, 32, 48}, DataType::DT_FLOAT16, RoundHalf, 1e-3);
    }
  }
}

TEST_F(CubeMatmulTest, HalfEveryWayOut) {
  for (uint32_t mode = 0; mode <= 6; ++mode) {
    RunFloat(CubeMatmulF16, {100, 90, 70, 2, false, false, true, mode, 32, 48}, DataType::DT_FLOAT16, RoundHalf, 1e-3);
    RunFloat(CubeMatmulF16, {100, 90, 70, 2, false, true, true, mode, 48, 32, true}, DataType::DT_FLOAT16, RoundHalf,
             1e-3);
  }
}

// A in the unified buffer (SetTensorA of a LocalTensor), C into it (IterateAll to a LocalTensor).
TEST_F(CubeMatmulTest, HalfThroughUnifiedBuffer) {
  RunFloat(CubeMatmulF16Ub, {40, 70, 100, 2, false, false, true, 0, 16, 32}, DataType::DT_FLOAT16, RoundHalf, 1e-3);
  RunFloat(CubeMatmulF16Ub, {33, 50, 64, 1, false, true, false, 0}, DataType::DT_FLOAT16, RoundHalf, 1e-3);
}

TEST_F(CubeMatmulTest, Bf16AndFloat) {
  RunFloat(CubeMatmulBf16, {99, 70, 130, 2, false, false, true, 0}, DataType::DT_BF16, RoundBf16, 1e-3);
  RunFloat(CubeMatmulBf16, {99, 70, 130, 2, true, true, false, 1, 32, 32}, DataType::DT_BF16, RoundBf16, 1e-3);
  RunFloat(CubeMatmulF32, {65, 33, 90, 2, false, false, true, 0}, DataType::DT_FLOAT, RoundNone, 1e-5);
  RunFloat(CubeMatmulF32, {65, 33, 90, 3, true, true, true, 1, 16, 16}, DataType::DT_FLOAT, RoundNone, 1e-5);
}

TEST_F(CubeMatmulTest, HalfToHalf) {
  const MmCase c{70, 75, 130, 2, false, true, true, 0};
  const auto t = Tiling(c, DataType::DT_FLOAT16, DataType::DT_FLOAT16, DataType::DT_FLOAT);
  const auto a = RandomValues(static_cast<size_t>(c.m) * c.k, 3, RoundHalf);
  const auto b = RandomValues(static_cast<size_t>(c.k) * c.n, 4, RoundHalf);
  const auto bias = RandomValues(c.n, 5, RoundNone);
  std::vector<double> bias_d(bias.begin(), bias.end());
  const auto bits =
      Run<uint16_t>(CubeMatmulF16ToF16, c, t, HalfBits(a), HalfBits(b), bias, static_cast<size_t>(c.m) * c.n);
  std::vector<float> got(bits.size());
  for (size_t i = 0; i < bits.size(); ++i) got[i] = FromHalfBits(bits[i]);
  EXPECT_LE(MaxRelError(got, RefGemm(a, b, &bias_d, c.m, c.n, c.k, false, true)), 1e-3);
}

// int8 (or int4, packed two a byte) operands, int32 C (+ int32 bias), exact.
void CubeMatmulTest::IntExact(bool int4, std::initializer_list<MmCase> cases) {
  for (const MmCase& c : cases) {
    SCOPED_TRACE(Describe(c));
    const auto t = Tiling(c, int4 ? DataType::DT_INT4 : DataType::DT_INT8, DataType::DT_INT32, DataType::DT_INT32);
    const int lo = int4 ? -8 : -128, hi = int4 ? 7 : 127;
    const auto a = RandomInt8(static_cast<size_t>(c.m) * c.k, 1, lo, hi);
    const auto b = RandomInt8(static_cast<size_t>(c.k) * c.n, 2, lo, hi);
    std::vector<int32_t> bias(c.n);
    for (int j = 0; j < c.n; ++j) bias[j] = j * 37 - 1000;
    std::vector<double> bias_d(bias.begin(), bias.end());
    const size_t elems = static_cast<size_t>(c.m) * c.n;
    const auto got = int4 ? Run<int32_t>(CubeMatmulS4, c, t, PackInt4(a), PackInt4(b), bias, elems)
                          : Run<int32_t>(CubeMatmulS8, c, t, a, b, bias, elems);
    const auto want = RefGemm(a, b, c.bias ? &bias_d : nullptr, c.m, c.n, c.k, c.transA, c.transB);
    size_t bad = 0;
    for (size_t i = 0; i < want.size(); ++i) bad += static_cast<double>(got[i]) != want[i] ? 1 : 0;
    EXPECT_EQ(bad, 0u);
  }
}

TEST_F(CubeMatmulTest, Int8Exact) {
  IntExact(false, {MmCase{45, 77, 100, 2, false, false, true, 0}, MmCase{130, 50, 300, 3, true, true, true, 1, 32, 32},
                   MmCase{33, 40, 64, 1, false, true, false, 2, 16, 32}});
}

// MatmulType<..., int4b_t> A and B (ND, even dimensions: a row or a core's tile starts on a byte), tails in M, N
// and K, several cores, IterateAll and Iterate + GetTensorC.
TEST_F(CubeMatmulTest, Int4Exact) {
  IntExact(true, {MmCase{46, 78, 100, 2, false, false, true, 0}, MmCase{130, 50, 300, 3, false, true, true, 1, 32, 32},
                  MmCase{34, 40, 64, 1, false, false, false, 1, 16, 32},
                  MmCase{256, 96, 128, 4, false, false, true, 0}});
}

// int8 operands, int32 accumulation (+ int32 bias), dequantised to half by SetQuantScalar: each element is
// the exact sum times 1/512, rounded to half once.
TEST_F(CubeMatmulTest, Int8DequantToHalf) {
  const MmCase c{50, 60, 200, 2, false, true, true, 0, 32, 32};
  const auto t = Tiling(c, DataType::DT_INT8, DataType::DT_FLOAT16, DataType::DT_INT32);
  const auto a = RandomInt8(static_cast<size_t>(c.m) * c.k, 21);
  const auto b = RandomInt8(static_cast<size_t>(c.k) * c.n, 22);
  std::vector<int32_t> bias(c.n);
  for (int j = 0; j < c.n; ++j) bias[j] = 500 - j * 13;
  std::vector<double> bias_d(bias.begin(), bias.end());
  const auto got = Run<uint16_t>(CubeMatmulS8Deq, c, t, a, b, bias, static_cast<size_t>(c.m) * c.n);
  const auto want = RefGemm(a, b, &bias_d, c.m, c.n, c.k, false, true);
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    bad += FromHalfBits(got[i]) != RoundHalf(static_cast<float>(want[i]) / 512) ? 1 : 0;
  }
  EXPECT_EQ(bad, 0u);
}

TEST_F(CubeMatmulTest, HalfBias) {
  const MmCase c{45, 70, 90, 2, true, false, true, 1, 16, 32};
  const auto t = Tiling(c, DataType::DT_FLOAT16, DataType::DT_FLOAT, DataType::DT_FLOAT16);
  const auto a = RandomValues(static_cast<size_t>(c.m) * c.k, 23, RoundHalf);
  const auto b = RandomValues(static_cast<size_t>(c.k) * c.n, 24, RoundHalf);
  const auto bias = RandomValues(c.n, 25, RoundHalf);
  std::vector<double> bias_d(bias.begin(), bias.end());
  const auto got =
      Run<float>(CubeMatmulF16Bias16, c, t, HalfBits(a), HalfBits(b), HalfBits(bias), static_cast<size_t>(c.m) * c.n);
  EXPECT_LE(MaxRelError(got, RefGemm(a, b, &bias_d, c.m, c.n, c.k, true, false)), 1e-3);
}

// A as CubeFormat::VECTOR (GEMV): one row of K, M == 1; N split over cores with a tail, bias.
TEST_F(CubeMatmulTest, HalfGemvVectorA) {
  const MmCase c{1, 200, 300, 2, false, false, true, 0};
  matmul_tiling::MultiCoreMatmulTiling api;
  api.SetDim(c.cores);
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::VECTOR, DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
  api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
  api.SetShape(c.m, c.n, c.k);
  api.SetOrgShape(c.m, c.n, c.k);
  api.SetBias(true);
  api.SetBufferSpace(-1, -1, -1);
  AscendC::tiling::TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  const auto a = RandomValues(static_cast<size_t>(c.k), 51, RoundHalf);
  const auto b = RandomValues(static_cast<size_t>(c.k) * c.n, 52, RoundHalf);
  const auto bias = RandomValues(c.n, 53, RoundNone);
  std::vector<double> bias_d(bias.begin(), bias.end());
  const auto got = Run<float>(CubeMatmulF16Gemv, c, t, HalfBits(a), HalfBits(b), bias, static_cast<size_t>(c.n));
  EXPECT_LE(MaxRelError(got, RefGemm(a, b, &bias_d, c.m, c.n, c.k, false, false)), 1e-3);
}

// C as ND_ALIGN: rows of N rounded up to 8 floats, the padding zero; N split over cores so that a tile ends
// inside the last 32-byte block of a row.
TEST_F(CubeMatmulTest, HalfNdAlign) {
  for (const MmCase& c : {MmCase{40, 77, 64, 1, false, false, true, 0}, MmCase{48, 203, 50, 3, false, false, false, 1}}) {
    SCOPED_TRACE(Describe(c));
    const auto t = Tiling(c, DataType::DT_FLOAT16, DataType::DT_FLOAT, DataType::DT_FLOAT);
    const auto a = RandomValues(static_cast<size_t>(c.m) * c.k, 3, RoundHalf);
    const auto b = RandomValues(static_cast<size_t>(c.k) * c.n, 4, RoundHalf);
    const auto bias = RandomValues(c.n, 5, RoundNone);
    std::vector<double> bias_d(bias.begin(), bias.end());
    const int ldc = (c.n + 7) / 8 * 8;
    auto got = Run<float>(CubeMatmulF16NdAlign, c, t, HalfBits(a), HalfBits(b), bias, static_cast<size_t>(c.m) * ldc);
    const auto want = RefGemm(a, b, c.bias ? &bias_d : nullptr, c.m, c.n, c.k, false, false);
    std::vector<float> nd(want.size());
    for (int i = 0; i < c.m; ++i) {
      for (int j = 0; j < ldc; ++j) {
        if (j < c.n)
          nd[static_cast<size_t>(i) * c.n + j] = got[static_cast<size_t>(i) * ldc + j];
        else
          EXPECT_EQ(got[static_cast<size_t>(i) * ldc + j], 0.0f) << "padding at row " << i << " column " << j;
      }
    }
    EXPECT_LE(MaxRelError(nd, want), 1e-3);
  }
}

// Two Matmul objects whose accumulators each fill L0C (base 128 x 256 floats) share them when used one after
// the other; interleaving their blocks fails the kernel.
TEST_F(CubeMatmulTest, TwoObjectsShareL0C) {
  MmCase c{128, 256, 64, 1, false, false, true, 0};
  c.fixM = 128;
  c.fixN = 256;
  const auto t = Tiling(c, DataType::DT_FLOAT16, DataType::DT_FLOAT, DataType::DT_FLOAT);
  ASSERT_EQ(int64_t(t.baseM) * t.baseN * 4, NPURT_SIM_L0C_BYTES);
  const auto a = RandomValues(static_cast<size_t>(c.m) * c.k, 41, RoundHalf);
  const auto b = RandomValues(static_cast<size_t>(c.k) * c.n, 42, RoundHalf);
  const auto bias = RandomValues(c.n, 43, RoundNone);
  std::vector<double> bias_d(bias.begin(), bias.end());
  const size_t mn = static_cast<size_t>(c.m) * c.n;
  const auto got = Run<float>(CubeMatmulTwoObjects, c, t, HalfBits(a), HalfBits(b), bias, 2 * mn);
  EXPECT_LE(MaxRelError(std::vector<float>(got.begin(), got.begin() + mn),
                        RefGemm(a, b, nullptr, c.m, c.n, c.k, false, false)), 1e-3);
  EXPECT_LE(MaxRelError(std::vector<float>(got.begin() + mn, got.end()),
                        RefGemm(a, b, &bias_d, c.m, c.n, c.k, false, false)), 1e-3);

  void* dt = Upload(std::vector<AscendC::tiling::TCubeTiling>{t});
  void* ws = Alloc(16u * 1024 * 1024);
  ASSERT_EQ(CubeMatmulTwoObjects(1, stream_, Upload(HalfBits(a)), Upload(HalfBits(b)), Upload(bias),
                                 Alloc(2 * mn * sizeof(float)), ws, dt, {0, 0, 1, 1}),
            ACL_SUCCESS);
  EXPECT_NE(Sync(), ACL_SUCCESS);
}

// A __global__ __aicore__ kernel with a Matmul and no ASCENDC_CUBE_ONLY is mixed: two vector cores per block run
// it (GetBlockIdx() = block * 2 + sub-block), and its __kfc_workspace__ parameter is the system workspace.
TEST_F(CubeMatmulTest, MixedMatmulKernelRunsOnTwoVectorCoresPerBlock) {
  const auto t = Tiling(MmCase{64, 64, 64, 1, false, false, false, 0}, DataType::DT_FLOAT16, DataType::DT_FLOAT,
                        DataType::DT_FLOAT);
  void* out = Alloc(4 * 3 * sizeof(int32_t));
  ASSERT_EQ(CubeMixMatmulIds(2, stream_, out, Alloc(1024), Upload(std::vector<AscendC::tiling::TCubeTiling>{t})),
            ACL_SUCCESS);
  ASSERT_EQ(Sync(), ACL_SUCCESS);
  const auto ids = Download<int32_t>(out, 4 * 3);
  for (int32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(ids[3 * i], i);
    EXPECT_EQ(ids[3 * i + 1], 2);
    EXPECT_EQ(ids[3 * i + 2], 1);
  }
}

// A and B as NZ fractals, C as NZ: the whole matrices of the original shape, rows aligned to 16.
TEST_F(CubeMatmulTest, HalfNz) {
  const MmCase c{90, 70, 100, 2, false, false, true, 0};
  const auto t = Tiling(c, DataType::DT_FLOAT16, DataType::DT_FLOAT, DataType::DT_FLOAT, matmul_tiling::CubeFormat::NZ);
  const auto a = RandomValues(static_cast<size_t>(c.m) * c.k, 7, RoundHalf);
  const auto b = RandomValues(static_cast<size_t>(c.k) * c.n, 8, RoundHalf);
  const auto bias = RandomValues(c.n, 9, RoundNone);
  std::vector<double> bias_d(bias.begin(), bias.end());
  auto align = [](int v) { return (v + 15) / 16 * 16; };
  auto to_nz = [&](const std::vector<float>& v, int rows, int cols) {
    std::vector<float> nz(static_cast<size_t>(align(rows)) * align(cols), 0.0f);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j)
        nz[(static_cast<size_t>(j / 16) * align(rows) + i) * 16 + j % 16] = v[static_cast<size_t>(i) * cols + j];
    return nz;
  };
  const auto got = Run<float>(CubeMatmulF16Nz, c, t, HalfBits(to_nz(a, c.m, c.k)), HalfBits(to_nz(b, c.k, c.n)), bias,
                              static_cast<size_t>(align(c.m)) * align(c.n));
  const auto want = RefGemm(a, b, &bias_d, c.m, c.n, c.k, false, false);
  std::vector<float> nd(want.size());
  for (int i = 0; i < c.m; ++i)
    for (int j = 0; j < c.n; ++j)
      nd[static_cast<size_t>(i) * c.n + j] = got[(static_cast<size_t>(j / 16) * align(c.m) + i) * 16 + j % 16];
  EXPECT_LE(MaxRelError(nd, want), 1e-3);
}

}  // namespace
}  // namespace cube_test
