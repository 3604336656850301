// The Ascend C vector API of kernel_operator.h gives the results the vector unit gives: element-wise,
// scalar and unary operations in float and half (half results rounded once, to nearest even), Cast with
// every round mode, and the reductions.
#include <cmath>
#include <limits>

#include "kernel_cts_ops.h"
#include "kernel_test_util.h"

namespace cts {
namespace {

using half = _Float16;

class KernelVectorTest : public KernelTest {
 protected:
  // Runs cts_vector_f32 / cts_vector_f16 over a and b; returns n elements of the output.
  // `stream`: the stream to launch on (nullptr: a fresh one).
  template <typename T>
  std::vector<T> Run(CtsVectorOp op, const std::vector<T>& a, const std::vector<T>& b, float scalar, size_t n_out,
                     aclrtStream stream = nullptr) {
    const uint32_t n = static_cast<uint32_t>(a.size());
    DevBuf da(n * sizeof(T)), db(n * sizeof(T)), dout(n * sizeof(T) + 64);
    ToDevice(da, a);
    ToDevice(db, b);
    std::vector<uint8_t> args =
        ArgBlock().Add(da.get()).Add(db.get()).Add(dout.get()).Add(n).Add(static_cast<uint32_t>(op)).Add(scalar).Bytes();
    Stream own;
    aclrtStream s = stream != nullptr ? stream : own.get();
    const char* kernel = sizeof(T) == 4 ? "cts_vector_f32" : "cts_vector_f16";
    EXPECT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func(kernel), 1, s, nullptr, args.data(), args.size(), nullptr, 0));
    EXPECT_ACL_OK(aclrtSynchronizeStream(s));
    return FromDevice<T>(dout, n_out);
  }

  template <typename T>
  static std::vector<T> Inputs(size_t n, uint64_t seed, float lo, float hi) {
    std::vector<uint8_t> r = RandomBytes(2 * n, seed);
    std::vector<T> v(n);
    for (size_t i = 0; i < n; ++i) {
      const float u = static_cast<float>(r[2 * i] | (r[2 * i + 1] << 8)) / 65535.0f;
      v[i] = static_cast<T>(lo + (hi - lo) * u);
    }
    return v;
  }
};

// Reference of a two-operand (or scalar) operation, computed in float and rounded to T once.
template <typename T>
T Reference(CtsVectorOp op, T a, T b, float s) {
  const float x = static_cast<float>(a), y = static_cast<float>(b);
  float r = 0;
  switch (op) {
    case kOpAdd: r = x + y; break;
    case kOpSub: r = x - y; break;
    case kOpMul: r = x * y; break;
    case kOpDiv: r = x / y; break;
    case kOpMax: r = x > y ? x : y; break;
    case kOpMin: r = x < y ? x : y; break;
    case kOpAdds: r = x + static_cast<float>(static_cast<T>(s)); break;
    case kOpMuls: r = x * static_cast<float>(static_cast<T>(s)); break;
    case kOpMaxs: r = x > static_cast<float>(static_cast<T>(s)) ? x : static_cast<float>(static_cast<T>(s)); break;
    case kOpMins: r = x < static_cast<float>(static_cast<T>(s)) ? x : static_cast<float>(static_cast<T>(s)); break;
    case kOpExp: r = std::exp(x); break;
    case kOpLn: r = std::log(x); break;
    case kOpAbs: r = std::fabs(x); break;
    case kOpSqrt: r = std::sqrt(x); break;
    case kOpRelu: r = x > 0 ? x : 0.0f; break;
    case kOpReciprocal: r = 1.0f / x; break;
    case kOpDuplicate: r = static_cast<float>(static_cast<T>(s)); break;
    default: break;
  }
  return static_cast<T>(r);
}

template <typename T>
void ExpectOp(CtsVectorOp op, const std::vector<T>& a, const std::vector<T>& b, float s, const std::vector<T>& got) {
  const bool transcendental = op == kOpExp || op == kOpLn;
  for (size_t i = 0; i < a.size(); ++i) {
    const float want = static_cast<float>(Reference<T>(op, a[i], b[i], s));
    const float have = static_cast<float>(got[i]);
    if (transcendental && !std::isinf(want)) {
      ASSERT_NEAR(have, want, std::fabs(want) * (sizeof(T) == 2 ? 1e-3f : 1e-6f) + 1e-30f) << "op " << op << " #" << i;
    } else {
      ASSERT_EQ(have, want) << "op " << op << " element " << i << " a=" << static_cast<float>(a[i])
                            << " b=" << static_cast<float>(b[i]);
    }
  }
}

TEST_F(KernelVectorTest, FloatOperations) {
  const size_t n = 1000;  // not a multiple of a vector width
  std::vector<float> a = Inputs<float>(n, 21, -50.0f, 50.0f);
  std::vector<float> b = Inputs<float>(n, 22, 0.5f, 9.0f);  // positive: a divisor, a sqrt/log argument
  for (unsigned op = kOpAdd; op <= kOpDuplicate; ++op) {
    const auto o = static_cast<CtsVectorOp>(op);
    const std::vector<float>& src = (o == kOpLn || o == kOpSqrt) ? b : a;
    ExpectOp<float>(o, src, b, 2.75f, Run<float>(o, src, b, 2.75f, n));
  }
}

// A vector instruction that overflows to Inf raises the device's overflow status on a stream that checks
// overflow (core/kernel/overflow.h); finite results and unchecked streams leave it alone.
TEST_F(KernelVectorTest, FloatOverflowRaisesTheOverflowStatus) {
  const std::vector<float> big(100, 1e30f);
  const std::vector<float> small = Inputs<float>(100, 23, 1.0f, 2.0f);
  Stream checked;
  ASSERT_ACL_OK(aclrtSetStreamOverflowSwitch(checked, 1));
  auto status = [&]() {
    DevBuf out(64);
    EXPECT_ACL_OK(aclrtGetOverflowStatus(out.get(), 64, checked));
    EXPECT_ACL_OK(aclrtSynchronizeStream(checked));
    uint32_t v = 0;
    EXPECT_ACL_OK(out.Download(&v, 4));
    return v;
  };
  ASSERT_ACL_OK(aclrtResetOverflowStatus(checked));
  (void)Run<float>(kOpMul, big, big, 0.0f, 100);  // an unchecked stream
  Run<float>(kOpMul, small, small, 0.0f, 100, checked);
  EXPECT_EQ(0u, status());
  const std::vector<float> out = Run<float>(kOpMul, big, big, 0.0f, 100, checked);
  EXPECT_TRUE(std::isinf(out[0]));
  EXPECT_EQ(1u, status());
  const std::vector<half> hbig(100, static_cast<half>(60000.0f));
  ASSERT_ACL_OK(aclrtResetOverflowStatus(checked));
  Run<half>(kOpAdd, hbig, hbig, 0.0f, 100, checked);
  EXPECT_EQ(1u, status()) << "half results past 65504";
  ASSERT_ACL_OK(aclrtResetOverflowStatus(checked));
}

TEST_F(KernelVectorTest, HalfOperationsRoundLikeTheVectorUnit) {
  const size_t n = 777;
  std::vector<half> a = Inputs<half>(n, 31, -20.0f, 20.0f);
  std::vector<half> b = Inputs<half>(n, 32, 0.25f, 6.0f);
  for (unsigned op = kOpAdd; op <= kOpDuplicate; ++op) {
    const auto o = static_cast<CtsVectorOp>(op);
    const std::vector<half>& src = (o == kOpLn || o == kOpSqrt) ? b : a;
    ExpectOp<half>(o, src, b, -1.5f, Run<half>(o, src, b, -1.5f, n));
  }
}

TEST_F(KernelVectorTest, Reductions) {
  const size_t n = 2000;
  std::vector<float> a = Inputs<float>(n, 41, -1.0f, 1.0f);
  double sum = 0;
  size_t arg = 0;
  for (size_t i = 0; i < n; ++i) {
    sum += a[i];
    if (a[i] > a[arg]) arg = i;
  }
  std::vector<float> got = Run<float>(kOpReduceSum, a, a, 0, 1);
  EXPECT_NEAR(got[0], sum, 1e-4);
  got = Run<float>(kOpReduceMax, a, a, 0, 2);
  EXPECT_EQ(got[0], a[arg]);
  uint32_t index = 0;
  std::memcpy(&index, &got[1], 4);
  EXPECT_EQ(index, arg);

  std::vector<half> h = Inputs<half>(n, 42, -4.0f, 4.0f);
  float hsum = 0;
  for (half v : h) hsum += static_cast<float>(v);
  std::vector<half> hgot = Run<half>(kOpReduceSum, h, h, 0, 1);
  EXPECT_NEAR(static_cast<float>(hgot[0]), hsum, std::fabs(hsum) * 2e-3f + 0.05f);
}

class KernelCastTest : public KernelTest {
 protected:
  template <typename D>
  std::vector<D> Cast(const std::vector<float>& src, int mode, CtsCastTarget target) {
    const uint32_t n = static_cast<uint32_t>(src.size());
    DevBuf ds(n * 4), dd(n * 4);
    ToDevice(ds, src);
    std::vector<uint8_t> args =
        ArgBlock().Add(ds.get()).Add(dd.get()).Add(n).Add(static_cast<uint32_t>(mode)).Add(static_cast<uint32_t>(target)).Bytes();
    Stream s;
    EXPECT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_cast"), 1, s, nullptr, args.data(), args.size(), nullptr, 0));
    EXPECT_ACL_OK(aclrtSynchronizeStream(s));
    return FromDevice<D>(dd, n);
  }
};

// AscendC::RoundMode numbering.
enum { kNone = 0, kRint, kFloor, kCeil, kRound, kTrunc, kOdd };

TEST_F(KernelCastTest, FloatToInt32RoundsAndSaturates) {
  const std::vector<float> v = {1.5f, 2.5f, -1.5f, -2.5f, 0.3f, -0.7f, 1e10f, -1e10f,
                                std::numeric_limits<float>::quiet_NaN()};
  const std::vector<int32_t> rint = {2, 2, -2, -2, 0, -1, INT32_MAX, INT32_MIN, 0};
  const std::vector<int32_t> round = {2, 3, -2, -3, 0, -1, INT32_MAX, INT32_MIN, 0};
  const std::vector<int32_t> floor = {1, 2, -2, -3, 0, -1, INT32_MAX, INT32_MIN, 0};
  const std::vector<int32_t> ceil = {2, 3, -1, -2, 1, 0, INT32_MAX, INT32_MIN, 0};
  const std::vector<int32_t> trunc = {1, 2, -1, -2, 0, 0, INT32_MAX, INT32_MIN, 0};
  EXPECT_EQ(Cast<int32_t>(v, kRint, kCastToInt32), rint);
  EXPECT_EQ(Cast<int32_t>(v, kRound, kCastToInt32), round);
  EXPECT_EQ(Cast<int32_t>(v, kFloor, kCastToInt32), floor);
  EXPECT_EQ(Cast<int32_t>(v, kCeil, kCastToInt32), ceil);
  EXPECT_EQ(Cast<int32_t>(v, kTrunc, kCastToInt32), trunc);
}

TEST_F(KernelCastTest, FloatToHalfRoundModes) {
  const float up = 1.0f + std::ldexp(1.0f, -12);  // between 1 and the next half, nearer 1
  const float tie = 1.0f + std::ldexp(1.0f, -11);  // exactly between 1 and 1 + 2^-10
  const std::vector<float> v = {up, -up, tie, 3.0f, 70000.0f};
  auto bits = [](half h) {
    uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
  };
  auto h = [&](const std::vector<half>& hv) {
    std::vector<uint16_t> out;
    for (half x : hv) out.push_back(bits(x));
    return out;
  };
  // 0x3c00 = 1.0, 0x3c01 = 1 + 2^-10, 0xbc00 = -1.0, 0xbc01 = -(1 + 2^-10), 0x4200 = 3.0,
  // 0x7c00 = +inf, 0x7bff = 65504 (largest finite).
  EXPECT_EQ(h(Cast<half>(v, kNone, kCastToHalf)), (std::vector<uint16_t>{0x3c00, 0xbc00, 0x3c00, 0x4200, 0x7c00}));
  EXPECT_EQ(h(Cast<half>(v, kFloor, kCastToHalf)), (std::vector<uint16_t>{0x3c00, 0xbc01, 0x3c00, 0x4200, 0x7bff}));
  EXPECT_EQ(h(Cast<half>(v, kCeil, kCastToHalf)), (std::vector<uint16_t>{0x3c01, 0xbc00, 0x3c01, 0x4200, 0x7c00}));
  EXPECT_EQ(h(Cast<half>(v, kTrunc, kCastToHalf)), (std::vector<uint16_t>{0x3c00, 0xbc00, 0x3c00, 0x4200, 0x7bff}));
  EXPECT_EQ(h(Cast<half>(v, kRound, kCastToHalf)), (std::vector<uint16_t>{0x3c00, 0xbc00, 0x3c01, 0x4200, 0x7c00}));
  EXPECT_EQ(h(Cast<half>(v, kOdd, kCastToHalf)), (std::vector<uint16_t>{0x3c01, 0xbc01, 0x3c01, 0x4200, 0x7bff}));
}

TEST_F(KernelCastTest, FloatToBfloat16) {
  const std::vector<float> v = {1.0f + std::ldexp(1.0f, -9), -2.0f, 1.0f + 3 * std::ldexp(1.0f, -9)};
  auto bf = [&](int mode) { return Cast<uint16_t>(v, mode, kCastToBf16); };
  EXPECT_EQ(bf(kNone), (std::vector<uint16_t>{0x3f80, 0xc000, 0x3f81}));
  EXPECT_EQ(bf(kCeil), (std::vector<uint16_t>{0x3f81, 0xc000, 0x3f81}));
}

}  // namespace
}  // namespace cts
