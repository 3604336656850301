// The rest of the element-wise math library (npurt_kernel/adv_math_unary.h) against long-double host
// references on random data inside each function's domain: every call form, calCount tails (elements past it
// keep dst's contents), half and float; IsFinite with NaN and infinities; the host tmp sizes.
#include <cmath>

#include "aclrtlaunch_adv_isfinite.h"
#include "aclrtlaunch_adv_math_unary.h"
#include "tiling/tiling_api.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class AdvMathUnaryTest : public VecTest {};

constexpr uint32_t kMathUnaryOps = 19;
constexpr uint32_t kDigamma = 17;

// Digamma by the series psi(x) = -gamma + sum_k (1/(k+1) - 1/(k+x)), summed to convergence through the
// recurrence psi(x) = psi(x + 20) - sum 1/(x + j) and the asymptotic tail at x + 20.
long double DigammaRef(long double x) {
  long double r = 0;
  for (int j = 0; j < 20; ++j) r -= 1 / (x + j);
  const long double z = x + 20, f = 1 / (z * z);
  return r + std::log(z) - 1 / (2 * z) - f / 12 + f * f / 120 - f * f * f / 252;
}

long double MathUnaryRef(uint32_t op, long double x) {
  switch (op) {
    case 0: return std::sin(x);
    case 1: return std::cos(x);
    case 2: return std::tan(x);
    case 3: return std::tanh(x);
    case 4: return std::asin(x);
    case 5: return std::acos(x);
    case 6: return std::atan(x);
    case 7: return std::sinh(x);
    case 8: return std::cosh(x);
    case 9: return std::asinh(x);
    case 10: return std::atanh(x);
    case 11: return std::floor(x);
    case 12: case 13: return std::rint(x);
    case 14: return std::trunc(x);
    case 15: return x > 0 ? 1 : x < 0 ? -1 : x;
    case 16: return std::erfc(x);
    case kDigamma: return DigammaRef(x);
    default: return std::lgamma(x);
  }
}

void MathUnaryRange(uint32_t op, double& lo, double& hi) {
  lo = -6, hi = 6;
  if (op == 2) lo = -1.5, hi = 1.5;
  if (op == 4 || op == 5 || op == 10) lo = -0.99, hi = 0.99;
  if (op >= 11 && op <= 15) lo = -300, hi = 300;
  if (op == 16) lo = -3, hi = 9;
  if (op == kDigamma) lo = 0.05, hi = 12;
  if (op == 18) lo = 0.05, hi = 30;
}

template <typename T>
void RunMathUnary(aclrtStream stream, uint32_t op, uint32_t form, uint32_t n, uint32_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  double lo, hi;
  MathUnaryRange(op, lo, hi);
  std::vector<T> x = RandomValues<T>(n, rng, lo, hi);
  if (op == 15) {
    for (uint32_t i = 0; i < n; i += 7) x[i] = T(0.0f);
  }
  if (op == 12 || op == 13) {
    for (uint32_t i = 0; i < n; i += 5) x[i] = T(static_cast<float>(static_cast<int>(i % 9) - 4) + 0.5f);
  }
  const std::vector<T> y0 = RandomValues<T>(n, rng, -100, 100);
  DevMem dx(n * sizeof(T)), dy(n * sizeof(T));
  CopyIn(dx, x.data(), n * sizeof(T));
  CopyIn(dy, y0.data(), n * sizeof(T));
  ASSERT_EQ(aclrtlaunch_adv_math_unary(1, stream, dx.get(), dy.get(), n, count, op, form, sizeof(T) == 2), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<T> got(n), want = y0;
  CopyOut(got.data(), dy, n * sizeof(T));
  const uint32_t m = form % 2 == 0 ? n : count;
  for (uint32_t i = 0; i < m; ++i) {
    want[i] = static_cast<T>(static_cast<float>(MathUnaryRef(op, static_cast<long double>(static_cast<float>(x[i])))));
  }
  const std::string where = "op " + std::to_string(op) + " form " + std::to_string(form) + " half " +
                            std::to_string(sizeof(T) == 2);
  if (op == kDigamma) {  // near its root (1.4616) the value is tiny: compare absolutely there
    for (uint32_t i = 0; i < n; ++i) {
      const double g = static_cast<float>(got[i]), w = static_cast<float>(want[i]);
      const double tol = (sizeof(T) == 2 ? 2e-3 : 2e-6) * std::max(1.0, std::fabs(w));
      EXPECT_LE(std::fabs(g - w), tol) << where << " at " << i << " x " << static_cast<float>(x[i]);
    }
    return;
  }
  const bool exact = op >= 11 && op <= 15;
  EXPECT_EQ(Mismatches(got, want, exact ? 0 : 1), "") << where;
}

TEST_F(AdvMathUnaryTest, EveryFunctionInEveryFormWithTails) {
  uint64_t seed = 900;
  for (uint32_t op = 0; op < kMathUnaryOps; ++op) {
    for (uint32_t form = 0; form < 4; ++form) {
      RunMathUnary<float>(stream_, op, form, 1000, 777, ++seed);
      RunMathUnary<half>(stream_, op, form, 520, 333, ++seed);
    }
  }
}

template <typename T, typename U>
void RunFinite(aclrtStream stream, uint32_t kind, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t n = 256, count = 200;
  std::vector<T> x = RandomValues<T>(n, rng, -10, 10);
  for (uint32_t i = 0; i < n; i += 5) x[i] = T(i % 3 == 0 ? NAN : i % 3 == 1 ? INFINITY : -INFINITY);
  std::vector<U> y0(n, U(7));
  DevMem dx(n * sizeof(T)), dy(n * sizeof(U));
  CopyIn(dx, x.data(), n * sizeof(T));
  CopyIn(dy, y0.data(), n * sizeof(U));
  ASSERT_EQ(aclrtlaunch_adv_isfinite(1, stream, dx.get(), dy.get(), n, count, kind), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<U> got(n), want = y0;
  CopyOut(got.data(), dy, n * sizeof(U));
  for (uint32_t i = 0; i < count; ++i) want[i] = U(std::isfinite(static_cast<float>(x[i])) ? 1 : 0);
  EXPECT_EQ(Mismatches(got, want), "") << "kind " << kind;
}

TEST_F(AdvMathUnaryTest, IsFiniteMarksNumbers) {
  RunFinite<float, float>(stream_, 0, 1);
  RunFinite<half, half>(stream_, 1, 2);
  RunFinite<float, uint8_t>(stream_, 2, 3);
}

TEST(AdvMathUnaryTiling, SizesGrowWithTheShape) {
  uint32_t maxv = 0, minv = 0, maxb = 0, minb = 0;
  AscendC::GetTanMaxMinTmpSize(ge::Shape({1024}), 4, false, maxv, minv);
  AscendC::GetTanMaxMinTmpSize(ge::Shape({4096}), 4, false, maxb, minb);
  EXPECT_GE(maxv, minv);
  EXPECT_GT(maxb, maxv);
  AscendC::GetLgammaMaxMinTmpSize(ge::Shape({1024}), 2, false, maxv, minv);
  EXPECT_GT(minv, 0u);
  AscendC::GetDigammaMaxMinTmpSize(ge::Shape({1024}), 2, false, maxv, minv);
  AscendC::GetSinMaxMinTmpSize(ge::Shape({1024}), 2, false, maxv, minv);
  AscendC::GetIsFiniteMaxMinTmpSize(ge::Shape({1024}), 2, false, maxv, minv);
  EXPECT_GT(maxv, 0u);
}

}  // namespace
}  // namespace vectest
