// The element-wise library functions (npurt_kernel/adv_math.h) against host references on random data:
// every call form (whole tensor, calCount, with and without sharedTmpBuffer), calCount tails (elements
// past it keep dst's contents), half and float; and the host tmp-size functions (tiling/adv_math_tiling.h).
#include <cmath>
#include <functional>

#include "adv_case.h"
#include "aclrtlaunch_adv_arange.h"
#include "aclrtlaunch_adv_axpy.h"
#include "aclrtlaunch_adv_binary.h"
#include "aclrtlaunch_adv_unary.h"
#include "tiling/adv_math_tiling.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class AdvMathTest : public VecTest {};

// The references, in long double (written independently of the kernels' double formulas: they may
// differ in the last bit of a float, hence the 1-ulp tolerance below for the transcendental ones).
long double RefUnary(uint32_t op, long double x, long double s) {
  switch (op) {
    case kAdvAcosh: return std::acosh(x);
    case kAdvCeil: return std::ceil(x);
    case kAdvFrac: return x - std::trunc(x);
    case kAdvErf: return std::erf(x);
    case kAdvLog: return std::log(x);
    case kAdvSigmoid: return 0.5L * (1 + std::tanh(x / 2));
    case kAdvExp: return std::exp(x);
    case kAdvGelu: return 0.5L * x * (1 + std::tanh(std::sqrt(2 / 3.14159265358979323846L) * (x + 0.044715L * x * x * x)));
    case kAdvSilu: return x * 0.5L * (1 + std::tanh(x / 2));
    case kAdvSwish: return x * 0.5L * (1 + std::tanh(s * x / 2));
    case kAdvClampMin: return x < s ? s : x;
    case kAdvFasterGelu: return x * 0.5L * (1 + std::tanh(1.702L * x / 2));  // x * sigmoid(1.702 x)
    default: return x > s ? s : x;
  }
}

// Inputs inside each function's domain where that matters (acosh: >= 1, log: > 0).
void Range(uint32_t op, double& lo, double& hi) {
  lo = -6;
  hi = 6;
  if (op == kAdvAcosh) lo = 1, hi = 40;
  if (op == kAdvLog) lo = 0.01, hi = 100;
  if (op == kAdvCeil || op == kAdvFrac) lo = -300, hi = 300;
}

template <typename T>
void RunUnary(aclrtStream stream, uint32_t op, uint32_t form, uint32_t n, uint32_t count, float scalar, uint64_t seed) {
  std::mt19937_64 rng(seed);
  double lo, hi;
  Range(op, lo, hi);
  const std::vector<T> src = RandomValues<T>(n, rng, lo, hi);
  const std::vector<T> dst0 = RandomValues<T>(n, rng, -1000, 1000);
  DevMem ds(n * sizeof(T)), dd(n * sizeof(T));
  CopyIn(ds, src.data(), n * sizeof(T));
  CopyIn(dd, dst0.data(), n * sizeof(T));
  const uint32_t dtype = sizeof(T) == 2 ? kAdvF16 : kAdvF32;
  ASSERT_EQ(aclrtlaunch_adv_unary(1, stream, ds.get(), dd.get(), n, count, op, dtype, form, scalar), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<T> got(n);
  CopyOut(got.data(), dd, n * sizeof(T));
  const uint32_t m = (form == kAdvWhole || form == kAdvWholeTmp) ? n : count;
  std::vector<T> want = dst0;
  // The kernels round the scalar to T first, as the API takes it.
  const long double s = static_cast<long double>(static_cast<float>(static_cast<T>(scalar)));
  for (uint32_t i = 0; i < m; ++i) {
    want[i] = static_cast<T>(static_cast<float>(RefUnary(op, static_cast<long double>(static_cast<float>(src[i])), s)));
  }
  const bool exact = op == kAdvCeil || op == kAdvFrac || op == kAdvClampMin || op == kAdvClampMax;
  EXPECT_EQ(Mismatches(got, want, exact ? 0 : 1), "")
      << "op " << op << " form " << form << " n " << n << " count " << count << " sizeof(T) " << sizeof(T);
}

TEST_F(AdvMathTest, UnaryFunctionsInEveryFormWithTails) {
  uint64_t seed = 100;
  for (uint32_t op = 0; op < kAdvUnaryCount; ++op) {
    for (uint32_t form = 0; form < kAdvFormCount; ++form) {
      // 1000 elements with calCount 777 (a tail that is not a whole block), and 64 with calCount 64.
      RunUnary<float>(stream_, op, form, 1000, 777, 1.702f, ++seed);
      RunUnary<half>(stream_, op, form, 1000, 777, -0.75f, ++seed);
      RunUnary<float>(stream_, op, form, 64, 64, 0.5f, ++seed);
    }
  }
}

TEST_F(AdvMathTest, FracKeepsTheSignAndCeilRoundsUp) {
  // The documented examples: Frac(-258.41888) = -0.41888..., Frac(5592.625) = 0.625.
  std::vector<float> src = {-258.41888f, 5592.625f, -2.5f, 2.5f, -0.0f, 7.0f, -1e-3f, 1e30f};
  const uint32_t n = static_cast<uint32_t>(src.size());
  for (uint32_t op : {kAdvFrac, kAdvCeil}) {
    DevMem ds(n * 4), dd(n * 4);
    CopyIn(ds, src.data(), n * 4);
    ASSERT_EQ(aclrtlaunch_adv_unary(1, stream_, ds.get(), dd.get(), n, n, op, kAdvF32, kAdvCount, 0.0f), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<float> got(n);
    CopyOut(got.data(), dd, n * 4);
    if (op == kAdvFrac) {
      EXPECT_FLOAT_EQ(got[0], -258.41888f + 258.0f);
      EXPECT_EQ(got[1], 0.625f);
      EXPECT_EQ(got[2], -0.5f);
      EXPECT_EQ(got[3], 0.5f);
      EXPECT_EQ(got[7], 0.0f);
    } else {
      EXPECT_EQ(got[0], -258.0f);
      EXPECT_EQ(got[2], -2.0f);
      EXPECT_EQ(got[3], 3.0f);
      EXPECT_EQ(got[6], -0.0f);
    }
  }
}

template <typename T>
T RefBinary(uint32_t op, T a, T b, float beta) {
  if constexpr (std::is_integral<T>::value) {
    if (op == kAdvXor) return static_cast<T>(a ^ b);
    // Integer power by repeated multiplication (wrapping), negative exponents per the header's rule.
    if (b < 0) return a == 1 ? T(1) : a == -1 ? ((-b) % 2 ? T(-1) : T(1)) : T(0);
    int64_t r = 1;
    for (T e = 0; e < b; ++e) r = static_cast<int64_t>(static_cast<uint64_t>(r) * static_cast<uint64_t>(a));
    return static_cast<T>(r);
  } else {
    const long double x = static_cast<float>(a), y = static_cast<float>(b);
    long double r;
    if (op == kAdvGeGLU) {
      r = x * 0.5L * y * (1 + std::tanh(std::sqrt(2 / 3.14159265358979323846L) * (y + 0.044715L * y * y * y)));
    } else if (op == kAdvFmod) {
      r = std::fmod(x, y);
    } else if (op == kAdvSwiGLU) {
      r = x * y * 0.5L * (1 + std::tanh(static_cast<long double>(beta) * y / 2));
    } else {
      r = std::pow(x, y);
    }
    return static_cast<T>(static_cast<float>(r));
  }
}

template <typename T>
void RunBinary(aclrtStream stream, uint32_t op, uint32_t dtype, uint32_t form, uint32_t n, uint32_t count,
               uint64_t seed, float beta = 1.0f) {
  std::mt19937_64 rng(seed);
  const bool power = op >= kAdvPowerTT && op <= kAdvPowerST;
  std::vector<T> a, b;
  if (std::is_integral<T>::value && power) {
    a = RandomValues<T>(n, rng, -9, 10);
    b = RandomValues<T>(n, rng, -2, 9);
  } else if (std::is_integral<T>::value) {
    a = RandomValues<T>(n, rng, -32768, 32767);
    b = RandomValues<T>(n, rng, -32768, 32767);
  } else if (power) {
    a = RandomValues<T>(n, rng, 0.1, 3);  // positive bases: real powers
    b = RandomValues<T>(n, rng, -4, 4);
  } else {
    a = RandomValues<T>(n, rng, -50, 50);
    b = RandomValues<T>(n, rng, op == kAdvFmod ? 0.5 : -5, 5);
  }
  const std::vector<T> dst0 = RandomValues<T>(n, rng, -100, 100);
  DevMem d0(n * sizeof(T)), d1(n * sizeof(T)), dd(n * sizeof(T));
  CopyIn(d0, a.data(), n * sizeof(T));
  CopyIn(d1, b.data(), n * sizeof(T));
  CopyIn(dd, dst0.data(), n * sizeof(T));
  ASSERT_EQ(aclrtlaunch_adv_binary(1, stream, d0.get(), d1.get(), dd.get(), n, count, op, dtype, form, beta),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<T> got(n);
  CopyOut(got.data(), dd, n * sizeof(T));
  const uint32_t m = (form == kAdvWhole || form == kAdvWholeTmp) ? n : count;
  std::vector<T> want = dst0;
  for (uint32_t i = 0; i < m; ++i) {
    const T x = op == kAdvPowerST ? a[0] : a[i];
    const T y = op == kAdvPowerTS ? b[0] : b[i];
    want[i] = RefBinary<T>(op, x, y, beta);
  }
  EXPECT_EQ(Mismatches(got, want, op == kAdvFmod ? 0 : 1), "")
      << "op " << op << " dtype " << dtype << " form " << form << " n " << n << " count " << count;
}

TEST_F(AdvMathTest, BinaryFunctionsInEveryFormWithTails) {
  uint64_t seed = 500;
  for (uint32_t form = 0; form < kAdvFormCount; ++form) {
    RunBinary<int16_t>(stream_, kAdvXor, kAdvI16, form, 1000, 999, ++seed);
    for (uint32_t op : {kAdvGeGLU, kAdvFmod, kAdvPowerTT, kAdvPowerTS, kAdvPowerST}) {
      // Power's scalar forms have no whole-tensor form without sharedTmpBuffer: the kernel uses the tmp one.
      RunBinary<float>(stream_, op, kAdvF32, form, 1000, 333, ++seed);
      RunBinary<half>(stream_, op, kAdvF16, form, 512, 500, ++seed);
    }
    RunBinary<float>(stream_, kAdvSwiGLU, kAdvF32, form, 1000, 333, ++seed, 1.0f);
    RunBinary<float>(stream_, kAdvSwiGLU, kAdvF32, form, 1000, 999, ++seed, 1.702f);
    RunBinary<half>(stream_, kAdvSwiGLU, kAdvF16, form, 512, 500, ++seed, -0.5f);
    for (uint32_t op : {kAdvPowerTT, kAdvPowerTS, kAdvPowerST}) {
      RunBinary<int32_t>(stream_, op, kAdvI32, form, 256, 200, ++seed);
    }
  }
}

TEST_F(AdvMathTest, AxpyAccumulatesTheScaledSource) {
  std::mt19937_64 rng(900);
  const uint32_t n = 600, count = 517;
  for (uint32_t mode = 0; mode < 3; ++mode) {
    const float scalar = mode == 2 ? 1.5f : 2.0f;
    DevMem ds(n * 4), dd(n * 4);
    std::vector<float> want;
    if (mode == 0) {  // half -> float
      const std::vector<half> src = RandomValues<half>(n, rng, -10, 10);
      const std::vector<float> dst0 = RandomValues<float>(n, rng, -10, 10);
      CopyIn(ds, src.data(), n * 2);
      CopyIn(dd, dst0.data(), n * 4);
      want = dst0;
      for (uint32_t i = 0; i < count; ++i) want[i] = std::fma(static_cast<float>(src[i]), scalar, dst0[i]);
    } else if (mode == 1) {
      const std::vector<float> src = RandomValues<float>(n, rng, -10, 10);
      const std::vector<float> dst0 = RandomValues<float>(n, rng, -10, 10);
      CopyIn(ds, src.data(), n * 4);
      CopyIn(dd, dst0.data(), n * 4);
      want = dst0;
      for (uint32_t i = 0; i < count; ++i) want[i] = std::fma(src[i], scalar, dst0[i]);
    } else {
      const std::vector<half> src = RandomValues<half>(n, rng, -10, 10);
      const std::vector<half> dst0 = RandomValues<half>(n, rng, -10, 10);
      CopyIn(ds, src.data(), n * 2);
      CopyIn(dd, dst0.data(), n * 2);
      std::vector<half> w = dst0;
      // Rounded once: src * scalar + dst is exact in float for halves of this range.
      for (uint32_t i = 0; i < count; ++i) {
        w[i] = static_cast<half>(static_cast<float>(src[i]) * scalar + static_cast<float>(dst0[i]));
      }
      ASSERT_EQ(aclrtlaunch_adv_axpy(1, stream_, ds.get(), dd.get(), n, count, mode, scalar), ACL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
      std::vector<half> got(n);
      CopyOut(got.data(), dd, n * 2);
      EXPECT_EQ(Mismatches(got, w), "");
      continue;
    }
    ASSERT_EQ(aclrtlaunch_adv_axpy(1, stream_, ds.get(), dd.get(), n, count, mode, scalar), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<float> got(n);
    CopyOut(got.data(), dd, n * 4);
    EXPECT_EQ(Mismatches(got, want), "") << "mode " << mode;
  }
}

template <typename T>
void RunArange(aclrtStream stream, uint32_t dtype, uint32_t n, uint32_t count, float first, float diff) {
  std::mt19937_64 rng(n + count);
  const std::vector<T> dst0 = RandomValues<T>(n, rng, -100, 100);
  DevMem dd(n * sizeof(T));
  CopyIn(dd, dst0.data(), n * sizeof(T));
  ASSERT_EQ(aclrtlaunch_adv_arange(1, stream, dd.get(), n, count, dtype, first, diff), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<T> got(n);
  CopyOut(got.data(), dd, n * sizeof(T));
  std::vector<T> want = dst0;
  for (uint32_t i = 0; i < count; ++i) {
    if constexpr (std::is_integral<T>::value) {
      want[i] = static_cast<T>(static_cast<int64_t>(first) + static_cast<int64_t>(i) * static_cast<int64_t>(diff));
    } else {
      const long double f = static_cast<float>(static_cast<T>(first)), d = static_cast<float>(static_cast<T>(diff));
      want[i] = static_cast<T>(static_cast<float>(f + d * i));
    }
  }
  EXPECT_EQ(Mismatches(got, want), "") << "dtype " << dtype << " n " << n << " count " << count;
}

TEST_F(AdvMathTest, ArangeWritesCountTermsOfTheProgression) {
  RunArange<float>(stream_, kAdvF32, 104, 100, 1.234f, 5.678f);
  RunArange<float>(stream_, kAdvF32, 64, 64, -3.0f, -0.125f);
  RunArange<half>(stream_, kAdvF16, 200, 133, 0.5f, 0.25f);
  RunArange<int32_t>(stream_, kAdvI32, 80, 77, -40.0f, 3.0f);
  RunArange<int16_t>(stream_, kAdvI16, 48, 33, 7.0f, -2.0f);
}

TEST_F(AdvMathTest, CalCountPastTheTensorFailsTheKernel) {
  const uint32_t n = 64;
  DevMem ds(n * 4), dd(n * 4);
  std::vector<float> src(n, 2.0f);
  CopyIn(ds, src.data(), n * 4);
  ASSERT_EQ(aclrtlaunch_adv_unary(1, stream_, ds.get(), dd.get(), n, n + 8, kAdvErf, kAdvF32, kAdvCount, 0.0f),
            ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_NE(RecentError().find("calCount"), std::string::npos) << RecentError();
}

TEST(AdvMathTiling, TmpSizesCoverOneRepeatAndGrowWithTheShape) {
  const AscendC::TensorShape shape{{1024}};
  uint32_t maxv = 0, minv = 0;
  AscendC::GetAcoshMaxMinTmpSize(shape, 4, false, maxv, minv);
  EXPECT_GE(minv, 256u);
  EXPECT_GE(maxv, minv);
  uint32_t maxh = 0, minh = 0;
  AscendC::GetAcoshMaxMinTmpSize(shape, 2, false, maxh, minh);
  EXPECT_GE(maxh, minh);
  uint32_t maxs = 0, mins = 0;
  AscendC::GetAcoshMaxMinTmpSize(AscendC::TensorShape({8}), 4, false, maxs, mins);
  EXPECT_EQ(maxs, mins);  // less than one repeat of input: one repeat
  EXPECT_LE(maxs, maxv);
  // The factor form: maxTmp = maxLiveNodeCount * inputSize * typeSize + extraBuf.
  uint32_t nodes = 0, extra = 0;
  AscendC::GetAcoshTmpBufferFactorSize(4, nodes, extra);
  EXPECT_EQ(maxv, nodes * 1024u * 4u + extra);
  EXPECT_EQ(AscendC::GetGeluMinTmpSize(shape, 4) <= AscendC::GetGeluMaxTmpSize(shape, 4), true);
  AscendC::GetPowerMaxMinTmpSize(shape, AscendC::TensorShape({1}), false, 4, false, maxv, minv);
  EXPECT_GE(maxv, 1024u * 4u);
}

}  // namespace
}  // namespace vectest
