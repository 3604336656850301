// Every built-in operator against a float64 reference on seeded random data, per data type, plus
// broadcasting and layout corner cases and shape-inference errors. Runs the kernels directly on host
// memory (the op layer does not care where memory lives), so no device is involved.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>

#include "ops/op_compiler.h"
#include "ops/op_launch.h"
#include "ref_util.h"
#include "run_op.h"

namespace npurt::ops {
namespace {

using npurt_test::ExpectClose;
using npurt_test::HostTensor;
using npurt_test::Random;
using npurt_test::TolFor;

std::vector<int64_t> Strides(const std::vector<int64_t>& d) {
  std::vector<int64_t> s(d.size(), 1);
  for (size_t k = d.size(); k-- > 1;) s[k - 1] = s[k] * d[k];
  return s;
}

// Reference broadcasting binary op.
std::vector<double> RefBinary(const HostTensor& a, const HostTensor& b, const std::vector<int64_t>& out,
                              const std::function<double(double, double)>& f) {
  const size_t r = out.size();
  auto pad = [&](const std::vector<int64_t>& d) {
    std::vector<int64_t> p(r - d.size(), 1);
    p.insert(p.end(), d.begin(), d.end());
    return p;
  };
  const auto da = pad(a.dims), db = pad(b.dims);
  const auto sa = Strides(da), sb = Strides(db), so = Strides(out);
  size_t n = 1;
  for (int64_t d : out) n *= d;
  std::vector<double> res(n);
  for (size_t i = 0; i < n; ++i) {
    size_t ia = 0, ib = 0;
    for (size_t k = 0; k < r; ++k) {
      const int64_t idx = (static_cast<int64_t>(i) / so[k]) % out[k];
      ia += (da[k] == 1 ? 0 : idx) * sa[k];
      ib += (db[k] == 1 ? 0 : idx) * sb[k];
    }
    res[i] = f(a.at(ia), b.at(ib));
  }
  return res;
}

const aclDataType kFloatTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const aclDataType kNumericTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64};

struct BinCase {
  const char* op;
  std::function<double(double, double)> f;
  bool positive_rhs;
};

TEST(OpKernels, BinaryOpsAllTypesWithBroadcasting) {
  std::mt19937 rng(1234);
  const std::vector<BinCase> cases = {
      {"Add", [](double a, double b) { return a + b; }, false},
      {"Sub", [](double a, double b) { return a - b; }, false},
      {"Mul", [](double a, double b) { return a * b; }, false},
      {"Div", [](double a, double b) { return a / b; }, true},
      {"Maximum", [](double a, double b) { return std::max(a, b); }, false},
      {"Minimum", [](double a, double b) { return std::min(a, b); }, false},
      {"Pow", [](double a, double b) { return std::pow(a, b); }, true},
  };
  // Shapes: same, scalar, row/column broadcast, middle-dim broadcast, rank mismatch.
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> shapes = {
      {{3, 17}, {3, 17}}, {{4, 33}, {}}, {{5, 1, 7}, {1, 6, 7}}, {{2, 3, 4, 5}, {3, 1, 5}}, {{1}, {6, 2}},
      {{257, 129}, {129}}};
  for (const auto& c : cases) {
    for (aclDataType dt : kNumericTypes) {
      for (const auto& [sa, sb] : shapes) {
        const bool integer = dt == ACL_INT32 || dt == ACL_INT64;
        HostTensor a = Random(dt, sa, rng, c.positive_rhs ? 0.5 : -3, 3, c.positive_rhs);
        HostTensor b = Random(dt, sb, rng, c.positive_rhs ? 0.5 : -3, c.positive_rhs ? 2 : 3, true);
        if (integer && std::string(c.op) == "Pow") {
          for (size_t i = 0; i < b.numel(); ++i) b.set(i, std::fmod(std::fabs(b.at(i)), 4));
        }
        std::vector<int64_t> out = sa.size() >= sb.size() ? sa : sb;
        {
          const size_t r = std::max(sa.size(), sb.size());
          out.assign(r, 1);
          for (size_t k = 0; k < r; ++k) {
            const int64_t x = k < r - sa.size() ? 1 : sa[k - (r - sa.size())];
            const int64_t y = k < r - sb.size() ? 1 : sb[k - (r - sb.size())];
            out[k] = std::max(x, y);
          }
        }
        auto res = RunOp(c.op, {&a, &b}, {HostTensor(dt, out)});
        ASSERT_TRUE(res.status.ok()) << c.op << ": " << res.status.message();
        auto f = c.f;
        if (integer && std::string(c.op) == "Div") f = [](double x, double y) { return std::trunc(x / y); };
        auto want = RefBinary(a, b, out, f);
        if (!integer) {
          // The reference sees the same rounded inputs; the result is rounded once more.
          ExpectClose(res.outputs[0], want, TolFor(dt, std::string(c.op) == "Pow" ? 4 : 1),
                      std::string(c.op) + " " + std::to_string(dt));
        } else {
          ExpectClose(res.outputs[0], want, {0, 0}, std::string(c.op) + " int " + std::to_string(dt));
        }
      }
    }
  }
}

TEST(OpKernels, AddAlphaAndIntegerDivisionByZeroDoesNotTrap) {
  std::mt19937 rng(7);
  HostTensor a = Random(ACL_FLOAT, {4, 8}, rng), b = Random(ACL_FLOAT, {8}, rng);
  AttrMap attrs{{"alpha", 2.5f}};
  auto res = RunOp("Add", {&a, &b}, {HostTensor(ACL_FLOAT, {4, 8})}, attrs);
  ASSERT_TRUE(res.status.ok()) << res.status.message();
  ExpectClose(res.outputs[0], RefBinary(a, b, {4, 8}, [](double x, double y) { return x + 2.5 * y; }),
              TolFor(ACL_FLOAT), "Add alpha");
  HostTensor x(ACL_INT32, {3}), y(ACL_INT32, {3});
  x.set(0, 7), x.set(1, -2147483648.0), x.set(2, 9);
  y.set(0, 0), y.set(1, -1), y.set(2, 2);
  auto d = RunOp("Div", {&x, &y}, {HostTensor(ACL_INT32, {3})});
  ASSERT_TRUE(d.status.ok());
  EXPECT_EQ(d.outputs[0].at(0), 0);
  EXPECT_EQ(d.outputs[0].at(2), 4);
}

struct UnCase {
  const char* op;
  std::function<double(double)> f;
  double lo, hi;
  bool ints;
};

TEST(OpKernels, UnaryOpsAllTypes) {
  std::mt19937 rng(99);
  const double kPi = 3.14159265358979323846;
  const std::vector<UnCase> cases = {
      {"Abs", [](double x) { return std::fabs(x); }, -3, 3, true},
      {"Neg", [](double x) { return -x; }, -3, 3, true},
      {"Relu", [](double x) { return x > 0 ? x : 0; }, -3, 3, true},
      {"Exp", [](double x) { return std::exp(x); }, -3, 3, false},
      {"Log", [](double x) { return std::log(x); }, 0.1, 5, false},
      {"Sqrt", [](double x) { return std::sqrt(x); }, 0.1, 5, false},
      {"Rsqrt", [](double x) { return 1 / std::sqrt(x); }, 0.1, 5, false},
      {"Reciprocal", [](double x) { return 1 / x; }, 0.25, 5, false},
      {"Relu6", [](double x) { return std::min(std::max(x, 0.0), 6.0); }, -4, 9, false},
      {"Sigmoid", [](double x) { return 1 / (1 + std::exp(-x)); }, -6, 6, false},
      {"Tanh", [](double x) { return std::tanh(x); }, -3, 3, false},
      {"Erf", [](double x) { return std::erf(x); }, -3, 3, false},
      {"Gelu", [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }, -4, 4, false},
  };
  for (const auto& c : cases) {
    for (aclDataType dt : kNumericTypes) {
      const bool integer = dt == ACL_INT32 || dt == ACL_INT64;
      HostTensor x = Random(dt, {7, 45}, rng, c.lo, c.hi, true);
      auto res = RunOp(c.op, {&x}, {HostTensor(dt, {7, 45})});
      if (integer && !c.ints) {
        EXPECT_EQ(res.status.code(), ACL_ERROR_OP_INPUT_NOT_MATCH) << c.op;
        continue;
      }
      ASSERT_TRUE(res.status.ok()) << c.op << ": " << res.status.message();
      std::vector<double> want(x.numel());
      for (size_t i = 0; i < want.size(); ++i) want[i] = c.f(x.at(i));
      ExpectClose(res.outputs[0], want, integer ? npurt_test::Tolerance{0, 0} : TolFor(dt, 2),
                  std::string(c.op) + " dtype " + std::to_string(dt));
    }
  }
  // Gelu tanh form and Clip.
  HostTensor x = Random(ACL_FLOAT, {100}, rng, -4, 4);
  auto g = RunOp("Gelu", {&x}, {HostTensor(ACL_FLOAT, {100})}, AttrMap{{"approximate", std::string("tanh")}});
  ASSERT_TRUE(g.status.ok());
  std::vector<double> want(100);
  for (size_t i = 0; i < 100; ++i) {
    const double v = x.at(i);
    want[i] = 0.5 * v * (1 + std::tanh(std::sqrt(2 / kPi) * (v + 0.044715 * v * v * v)));
  }
  ExpectClose(g.outputs[0], want, TolFor(ACL_FLOAT, 2), "Gelu tanh");
  auto cl = RunOp("Clip", {&x}, {HostTensor(ACL_FLOAT, {100})}, AttrMap{{"min", -1.5f}, {"max", 0.5f}});
  ASSERT_TRUE(cl.status.ok());
  for (size_t i = 0; i < 100; ++i) want[i] = std::min(std::max(x.at(i), -1.5), 0.5);
  ExpectClose(cl.outputs[0], want, TolFor(ACL_FLOAT), "Clip");
  auto bad = RunOp("Gelu", {&x}, {HostTensor(ACL_FLOAT, {100})}, AttrMap{{"approximate", int64_t{3}}});
  EXPECT_EQ(bad.status.code(), ACL_ERROR_OP_ATTR_NOT_MATCH);
}

// Reference matmul on [batch, m, k] x [batch, k, n] with optional transposes.
std::vector<double> RefMatmul(const HostTensor& a, const HostTensor& b, int64_t batch, int64_t m, int64_t n, int64_t k,
                              bool ta, bool tb, bool bcast_b = false) {
  std::vector<double> out(static_cast<size_t>(batch * m * n));
  for (int64_t bt = 0; bt < batch; ++bt) {
    const int64_t bb = bcast_b ? 0 : bt;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t p = 0; p < k; ++p) {
          const double x = a.at(bt * m * k + (ta ? p * m + i : i * k + p));
          const double y = b.at(bb * k * n + (tb ? j * k + p : p * n + j));
          s += x * y;
        }
        out[bt * m * n + i * n + j] = s;
      }
    }
  }
  return out;
}

TEST(OpKernels, MatMulAndBatchMatMulWithTransposesAndBias) {
  std::mt19937 rng(5);
  for (aclDataType dt : kFloatTypes) {
    for (int t = 0; t < 4; ++t) {
      const bool ta = t & 1, tb = t & 2;
      const int64_t m = 13, n = 21, k = 37;
      HostTensor a = Random(dt, ta ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k}, rng, -1, 1);
      HostTensor b = Random(dt, tb ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n}, rng, -1, 1);
      auto res = RunOp("MatMul", {&a, &b}, {HostTensor(dt, {m, n})},
                     AttrMap{{"transpose_x1", ta}, {"transpose_x2", tb}});
      ASSERT_TRUE(res.status.ok()) << res.status.message();
      ExpectClose(res.outputs[0], RefMatmul(a, b, 1, m, n, k, ta, tb), TolFor(dt, 20), "MatMul");
    }
    // Bias, and batch broadcasting of a 2-D right-hand side.
    HostTensor a = Random(dt, {3, 5, 8}, rng, -1, 1), b = Random(dt, {8, 6}, rng, -1, 1);
    auto res = RunOp("BatchMatMul", {&a, &b}, {HostTensor(dt, {3, 5, 6})});
    ASSERT_TRUE(res.status.ok()) << res.status.message();
    ExpectClose(res.outputs[0], RefMatmul(a, b, 3, 5, 6, 8, false, false, true), TolFor(dt, 20), "BatchMatMul");
    HostTensor x = Random(dt, {4, 9}, rng, -1, 1), w = Random(dt, {9, 3}, rng, -1, 1), bias = Random(dt, {3}, rng);
    auto rb = RunOp("MatMul", {&x, &w, &bias}, {HostTensor(dt, {4, 3})});
    ASSERT_TRUE(rb.status.ok()) << rb.status.message();
    auto want = RefMatmul(x, w, 1, 4, 3, 9, false, false);
    for (size_t i = 0; i < want.size(); ++i) want[i] += bias.at(i % 3);
    ExpectClose(rb.outputs[0], want, TolFor(dt, 20), "MatMul bias");
  }
  HostTensor a(ACL_FLOAT, {3, 4}), b(ACL_FLOAT, {5, 6});
  EXPECT_EQ(RunOp("MatMul", {&a, &b}, {HostTensor(ACL_FLOAT, {3, 6})}).status.code(), ACL_ERROR_OP_INPUT_NOT_MATCH);
}

// A 16-bit float GEMM rounds each step to C's type, as the NPU's GEMM does: bit for bit the MatMul, the two
// Muls and the Add that aclnn users compose it from (hicann/ge's GEMM sample compares the two exactly).
TEST(OpKernels, HalfGemmRoundsLikeItsComposition) {
  std::mt19937 rng(23);
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    for (int beta_case = 0; beta_case < 2; ++beta_case) {
      const int64_t m = 33, n = 20, k = 64;
      HostTensor a = Random(dt, {m, k}, rng, -1, 1), b = Random(dt, {n, k}, rng, -1, 1), c = Random(dt, {m, n}, rng);
      HostTensor alpha(dt, {}), beta(dt, {});
      alpha.set(0, 1.75);
      beta.set(0, beta_case == 0 ? 0.0 : -2.5);
      auto gemm = RunOp("GEMM", {&a, &b, &c, &alpha, &beta}, {HostTensor(dt, {m, n})},
                        AttrMap{{"transpose_a", false}, {"transpose_b", true}});
      ASSERT_TRUE(gemm.status.ok()) << gemm.status.message();
      auto ab = RunOp("MatMul", {&a, &b}, {HostTensor(dt, {m, n})}, AttrMap{{"transpose_x2", true}});
      ASSERT_TRUE(ab.status.ok()) << ab.status.message();
      auto scaled = RunOp("Mul", {&ab.outputs[0], &alpha}, {HostTensor(dt, {m, n})});
      ASSERT_TRUE(scaled.status.ok()) << scaled.status.message();
      auto bc = RunOp("Mul", {&c, &beta}, {HostTensor(dt, {m, n})});
      ASSERT_TRUE(bc.status.ok()) << bc.status.message();
      auto want = RunOp("Add", {&scaled.outputs[0], &bc.outputs[0]}, {HostTensor(dt, {m, n})});
      ASSERT_TRUE(want.status.ok()) << want.status.message();
      const auto& got = gemm.outputs[0].bytes;
      const auto& exp = want.outputs[0].bytes;
      ASSERT_EQ(got.size(), exp.size());
      for (size_t i = 0; i < static_cast<size_t>(m * n); ++i) {
        ASSERT_EQ(gemm.outputs[0].at(i), want.outputs[0].at(i)) << DTypeName(dt) << " beta " << beta_case << " at " << i;
      }
    }
  }
}

TEST(OpKernels, GemmAlphaBeta) {
  std::mt19937 rng(11);
  for (aclDataType dt : kFloatTypes) {
    const int64_t m = 17, n = 9, k = 31;
    HostTensor a = Random(dt, {k, m}, rng, -1, 1), b = Random(dt, {k, n}, rng, -1, 1), c = Random(dt, {m, n}, rng);
    HostTensor alpha(dt, {}), beta(dt, {});
    alpha.set(0, 1.5);
    beta.set(0, -0.5);
    auto res = RunOp("GEMM", {&a, &b, &c, &alpha, &beta}, {HostTensor(dt, {m, n})},
                   AttrMap{{"transpose_a", true}, {"transpose_b", false}});
    ASSERT_TRUE(res.status.ok()) << res.status.message();
    auto want = RefMatmul(a, b, 1, m, n, k, true, false);
    for (size_t i = 0; i < want.size(); ++i) want[i] = 1.5 * want[i] - 0.5 * c.at(i);
    ExpectClose(res.outputs[0], want, TolFor(dt, 20), "GEMM");
  }
  // int8 x int8 -> int32 is exact.
  HostTensor a = Random(ACL_INT8, {6, 40}, rng, -100, 100), b = Random(ACL_INT8, {40, 5}, rng, -100, 100);
  HostTensor c(ACL_INT32, {6, 5}), alpha(ACL_INT32, {}), beta(ACL_INT32, {});
  alpha.set(0, 1);
  beta.set(0, 0);
  auto res = RunOp("GEMM", {&a, &b, &c, &alpha, &beta}, {HostTensor(ACL_INT32, {6, 5})});
  ASSERT_TRUE(res.status.ok()) << res.status.message();
  ExpectClose(res.outputs[0], RefMatmul(a, b, 1, 6, 5, 40, false, false), {0, 0}, "GEMM int8");
}

// Reference NCHW convolution.
std::vector<double> RefConv(const HostTensor& x, const HostTensor& w, const HostTensor* bias, int64_t g, int64_t s,
                            int64_t p, int64_t d, int64_t oh, int64_t ow) {
  const int64_t n = x.dims[0], c = x.dims[1], h = x.dims[2], wd = x.dims[3];
  const int64_t o = w.dims[0], kh = w.dims[2], kw = w.dims[3], cg = c / g, og = o / g;
  std::vector<double> out(static_cast<size_t>(n * o * oh * ow));
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oc = 0; oc < o; ++oc)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t xx = 0; xx < ow; ++xx) {
          double acc = bias ? bias->at(oc) : 0.0;
          const int64_t grp = oc / og;
          for (int64_t ic = 0; ic < cg; ++ic)
            for (int64_t ky = 0; ky < kh; ++ky)
              for (int64_t kx = 0; kx < kw; ++kx) {
                const int64_t iy = y * s - p + ky * d, ix = xx * s - p + kx * d;
                if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                acc += x.at(((b * c + grp * cg + ic) * h + iy) * wd + ix) * w.at(((oc * cg + ic) * kh + ky) * kw + kx);
              }
          out[((b * o + oc) * oh + y) * ow + xx] = acc;
        }
  return out;
}

HostTensor NchwToNhwc(const HostTensor& t) {
  HostTensor r(t.dtype, {t.dims[0], t.dims[2], t.dims[3], t.dims[1]});
  const int64_t n = t.dims[0], c = t.dims[1], h = t.dims[2], w = t.dims[3];
  for (int64_t b = 0; b < n; ++b)
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t y = 0; y < h; ++y)
        for (int64_t x = 0; x < w; ++x) r.set(((b * h + y) * w + x) * c + ch, t.at(((b * c + ch) * h + y) * w + x));
  return r;
}

TEST(OpKernels, Conv2DGroupsDilationsPadsStridesBiasBothLayouts) {
  std::mt19937 rng(21);
  for (aclDataType dt : kFloatTypes) {
    for (int64_t groups : {1, 2}) {
      const int64_t n = 2, c = 4, h = 11, w = 9, o = 6, k = 3, s = 2, p = 1, d = 2;
      HostTensor x = Random(dt, {n, c, h, w}, rng, -1, 1);
      HostTensor f = Random(dt, {o, c / groups, k, k}, rng, -1, 1);
      HostTensor bias = Random(dt == ACL_BF16 ? ACL_FLOAT : dt, {o}, rng);
      const int64_t oh = (h + 2 * p - d * (k - 1) - 1) / s + 1, ow = (w + 2 * p - d * (k - 1) - 1) / s + 1;
      AttrMap attrs{{"strides", std::vector<int64_t>{1, 1, s, s}}, {"pads", std::vector<int64_t>{p, p, p, p}},
                    {"dilations", std::vector<int64_t>{1, 1, d, d}}, {"groups", groups},
                    {"data_format", std::string("NCHW")}};
      auto res = RunOp("Conv2D", {&x, &f, &bias}, {HostTensor(dt, {n, o, oh, ow})}, attrs, ACL_FORMAT_NCHW);
      ASSERT_TRUE(res.status.ok()) << res.status.message();
      auto want = RefConv(x, f, &bias, groups, s, p, d, oh, ow);
      ExpectClose(res.outputs[0], want, TolFor(dt, 30), "Conv2D NCHW");
      // The same convolution in NHWC (filter stays OIHW / NCHW).
      HostTensor xh = NchwToNhwc(x);
      AttrMap ah = attrs;
      ah["data_format"] = std::string("NHWC");
      ah["strides"] = std::vector<int64_t>{1, s, s, 1};
      ah["dilations"] = std::vector<int64_t>{1, d, d, 1};
      auto rh = RunOp("Conv2D", {&xh, &f, &bias}, {HostTensor(dt, {n, oh, ow, o})}, ah, ACL_FORMAT_NHWC,
                    {ACL_FORMAT_NHWC, ACL_FORMAT_NCHW, ACL_FORMAT_ND});
      ASSERT_TRUE(rh.status.ok()) << rh.status.message();
      HostTensor wantt(ACL_DOUBLE, {n, o, oh, ow});
      for (size_t i = 0; i < want.size(); ++i) wantt.set(i, want[i]);
      ExpectClose(rh.outputs[0], NchwToNhwc(wantt).values(), TolFor(dt, 30), "Conv2D NHWC");
    }
  }
  HostTensor x(ACL_FLOAT, {1, 3, 4, 4}), f(ACL_FLOAT, {2, 2, 3, 3});
  EXPECT_EQ(RunOp("Conv2D", {&x, &f}, {HostTensor(ACL_FLOAT, {1, 2, 2, 2})}, {}, ACL_FORMAT_NCHW).status.code(),
            ACL_ERROR_OP_INPUT_NOT_MATCH);
}

TEST(OpKernels, PoolingSoftmaxLayerNormBatchNorm) {
  std::mt19937 rng(31);
  for (aclDataType dt : kFloatTypes) {
    HostTensor x = Random(dt, {2, 3, 7, 6}, rng);
    // MaxPool 3x3 stride 2 SAME.
    auto mp = RunOp("MaxPool", {&x}, {HostTensor(dt, {2, 3, 4, 3})},
                  AttrMap{{"ksize", std::vector<int64_t>{1, 1, 3, 3}}, {"strides", std::vector<int64_t>{1, 1, 2, 2}},
                          {"padding", std::string("SAME")}},
                  ACL_FORMAT_NCHW);
    ASSERT_TRUE(mp.status.ok()) << mp.status.message();
    std::vector<double> want;
    for (int64_t p = 0; p < 6; ++p)
      for (int64_t oy = 0; oy < 4; ++oy)
        for (int64_t ox = 0; ox < 3; ++ox) {
          double m = -1e30;  // SAME: total pad 2 rows (1 top), 1 col (0 left)
          for (int64_t ky = 0; ky < 3; ++ky)
            for (int64_t kx = 0; kx < 3; ++kx) {
              const int64_t iy = oy * 2 - 1 + ky, ix = ox * 2 + kx;
              if (iy >= 0 && iy < 7 && ix >= 0 && ix < 6) m = std::max(m, x.at((p * 7 + iy) * 6 + ix));
            }
          want.push_back(m);
        }
    ExpectClose(mp.outputs[0], want, TolFor(dt), "MaxPool");
    auto gap = RunOp("GlobalAveragePool", {&x}, {HostTensor(dt, {2, 3, 1, 1})}, {}, ACL_FORMAT_NCHW);
    ASSERT_TRUE(gap.status.ok());
    want.assign(6, 0);
    for (size_t i = 0; i < x.numel(); ++i) want[i / 42] += x.at(i) / 42;
    ExpectClose(gap.outputs[0], want, TolFor(dt, 2), "GlobalAveragePool");

    // Softmax / LogSoftmax over axis 1 of [4, 10, 3].
    HostTensor s = Random(dt, {4, 10, 3}, rng, -5, 5);
    for (const char* op : {"Softmax", "LogSoftmax"}) {
      auto r = RunOp(op, {&s}, {HostTensor(dt, {4, 10, 3})}, AttrMap{{"axes", std::vector<int64_t>{1}}});
      ASSERT_TRUE(r.status.ok()) << r.status.message();
      std::vector<double> w(s.numel());
      for (int64_t o = 0; o < 4; ++o)
        for (int64_t i = 0; i < 3; ++i) {
          double mx = -1e30, sum = 0;
          for (int64_t k = 0; k < 10; ++k) mx = std::max(mx, s.at((o * 10 + k) * 3 + i));
          for (int64_t k = 0; k < 10; ++k) sum += std::exp(s.at((o * 10 + k) * 3 + i) - mx);
          for (int64_t k = 0; k < 10; ++k) {
            const double v = s.at((o * 10 + k) * 3 + i) - mx;
            w[(o * 10 + k) * 3 + i] = std::string(op) == "Softmax" ? std::exp(v) / sum : v - std::log(sum);
          }
        }
      ExpectClose(r.outputs[0], w, TolFor(dt, 4), op);
    }

    // LayerNorm over the last dim with mean/variance outputs.
    HostTensor ln = Random(dt, {5, 16}, rng), gamma = Random(dt, {16}, rng), beta = Random(dt, {16}, rng);
    auto r = RunOp("LayerNorm", {&ln, &gamma, &beta}, {HostTensor(dt, {5, 16}), HostTensor(dt, {5, 1}), HostTensor(dt, {5, 1})},
                 AttrMap{{"begin_norm_axis", int64_t{-1}}, {"epsilon", 1e-5f}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    std::vector<double> wy(80), wm(5), wv(5);
    for (int64_t row = 0; row < 5; ++row) {
      double mean = 0, var = 0;
      for (int64_t c = 0; c < 16; ++c) mean += ln.at(row * 16 + c) / 16;
      for (int64_t c = 0; c < 16; ++c) var += std::pow(ln.at(row * 16 + c) - mean, 2) / 16;
      wm[row] = mean;
      wv[row] = var;
      for (int64_t c = 0; c < 16; ++c) {
        wy[row * 16 + c] = (ln.at(row * 16 + c) - mean) / std::sqrt(var + 1e-5) * gamma.at(c) + beta.at(c);
      }
    }
    ExpectClose(r.outputs[0], wy, TolFor(dt, 8), "LayerNorm y");
    ExpectClose(r.outputs[1], wm, TolFor(dt, 2), "LayerNorm mean");
    ExpectClose(r.outputs[2], wv, TolFor(dt, 2), "LayerNorm variance");

    // BatchNorm inference, NCHW, float32 statistics.
    HostTensor bx = Random(dt, {2, 4, 3, 3}, rng), sc = Random(ACL_FLOAT, {4}, rng), of = Random(ACL_FLOAT, {4}, rng);
    HostTensor mean = Random(ACL_FLOAT, {4}, rng), var = Random(ACL_FLOAT, {4}, rng, 0.5, 2);
    auto bn = RunOp("BatchNorm", {&bx, &sc, &of, &mean, &var}, {HostTensor(dt, {2, 4, 3, 3})},
                  AttrMap{{"epsilon", 1e-3f}}, ACL_FORMAT_NCHW,
                  {ACL_FORMAT_NCHW, ACL_FORMAT_ND, ACL_FORMAT_ND, ACL_FORMAT_ND, ACL_FORMAT_ND});
    ASSERT_TRUE(bn.status.ok()) << bn.status.message();
    std::vector<double> wb(bx.numel());
    for (size_t i = 0; i < wb.size(); ++i) {
      const size_t c = (i / 9) % 4;
      wb[i] = (bx.at(i) - mean.at(c)) / std::sqrt(var.at(c) + 1e-3) * sc.at(c) + of.at(c);
    }
    ExpectClose(bn.outputs[0], wb, TolFor(dt, 4), "BatchNorm");
  }
}

TEST(OpKernels, DataMovementOps) {
  std::mt19937 rng(41);
  for (aclDataType dt : kNumericTypes) {
    HostTensor x = Random(dt, {2, 3, 4}, rng);
    // Transpose perm [2, 0, 1].
    auto t = RunOp("Transpose", {&x}, {HostTensor(dt, {4, 2, 3})}, AttrMap{{"perm", std::vector<int64_t>{2, 0, 1}}});
    ASSERT_TRUE(t.status.ok()) << t.status.message();
    std::vector<double> want;
    for (int64_t k = 0; k < 4; ++k)
      for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 3; ++j) want.push_back(x.at((i * 3 + j) * 4 + k));
    ExpectClose(t.outputs[0], want, {0, 0}, "Transpose");
    // Reshape with -1.
    auto r = RunOp("Reshape", {&x}, {HostTensor(dt, {6, 4})}, AttrMap{{"shape", std::vector<int64_t>{-1, 4}}});
    ASSERT_TRUE(r.status.ok());
    ExpectClose(r.outputs[0], x.values(), {0, 0}, "Reshape");
    // Concat along axis 1 with a second input.
    HostTensor y = Random(dt, {2, 2, 4}, rng);
    auto c = RunOp("Concat", {&x, &y}, {HostTensor(dt, {2, 5, 4})}, AttrMap{{"concat_dim", int64_t{1}}});
    ASSERT_TRUE(c.status.ok()) << c.status.message();
    want.clear();
    for (int64_t i = 0; i < 2; ++i) {
      for (int64_t k = 0; k < 12; ++k) want.push_back(x.at(i * 12 + k));
      for (int64_t k = 0; k < 8; ++k) want.push_back(y.at(i * 8 + k));
    }
    ExpectClose(c.outputs[0], want, {0, 0}, "Concat");
    // Split axis 2 into 2.
    auto s = RunOp("Split", {&x}, {HostTensor(dt, {2, 3, 2}), HostTensor(dt, {2, 3, 2})},
                 AttrMap{{"split_dim", int64_t{-1}}, {"num_split", int64_t{2}}});
    ASSERT_TRUE(s.status.ok()) << s.status.message();
    for (int part = 0; part < 2; ++part) {
      want.clear();
      for (int64_t i = 0; i < 6; ++i)
        for (int64_t k = 0; k < 2; ++k) want.push_back(x.at(i * 4 + part * 2 + k));
      ExpectClose(s.outputs[part], want, {0, 0}, "Split");
    }
    // Slice offsets [1, 1, 0] size [1, -1, 3].
    auto sl = RunOp("Slice", {&x}, {HostTensor(dt, {1, 2, 3})},
                  AttrMap{{"offsets", std::vector<int64_t>{1, 1, 0}}, {"size", std::vector<int64_t>{1, -1, 3}}});
    ASSERT_TRUE(sl.status.ok()) << sl.status.message();
    want.clear();
    for (int64_t j = 1; j < 3; ++j)
      for (int64_t k = 0; k < 3; ++k) want.push_back(x.at((12 + j * 4) + k));
    ExpectClose(sl.outputs[0], want, {0, 0}, "Slice");
    // Gather axis 1 with int64 indices (one negative).
    HostTensor idx(ACL_INT64, {4});
    idx.set(0, 2), idx.set(1, 0), idx.set(2, -1), idx.set(3, 1);
    auto g = RunOp("Gather", {&x, &idx}, {HostTensor(dt, {2, 4, 4})}, AttrMap{{"axis", int64_t{1}}});
    ASSERT_TRUE(g.status.ok()) << g.status.message();
    want.clear();
    const int pick[] = {2, 0, 2, 1};
    for (int64_t i = 0; i < 2; ++i)
      for (int j : pick)
        for (int64_t k = 0; k < 4; ++k) want.push_back(x.at((i * 3 + j) * 4 + k));
    ExpectClose(g.outputs[0], want, {0, 0}, "Gather");
    idx.set(3, 3);  // out of range: the run fails, nothing is written past the output
    auto gb = RunOp("Gather", {&x, &idx}, {HostTensor(dt, {2, 4, 4})}, AttrMap{{"axis", int64_t{1}}});
    EXPECT_FALSE(gb.status.ok());
    // Reductions.
    for (const char* op : {"ReduceSum", "ReduceMean", "ReduceMax"}) {
      auto red = RunOp(op, {&x}, {HostTensor(dt, {2, 1, 4})},
                     AttrMap{{"axes", std::vector<int64_t>{1}}, {"keep_dims", true}});
      ASSERT_TRUE(red.status.ok()) << red.status.message();
      want.assign(8, 0);
      for (int64_t i = 0; i < 2; ++i)
        for (int64_t k = 0; k < 4; ++k) {
          double acc = std::string(op) == "ReduceMax" ? -1e30 : 0;
          for (int64_t j = 0; j < 3; ++j) {
            const double v = x.at((i * 3 + j) * 4 + k);
            acc = std::string(op) == "ReduceMax" ? std::max(acc, v) : acc + v;
          }
          if (std::string(op) == "ReduceMean") acc /= 3;
          want[i * 4 + k] = acc;
        }
      const bool integer = dt == ACL_INT32 || dt == ACL_INT64;
      if (integer && std::string(op) == "ReduceMean") {
        for (auto& v : want) v = std::trunc(v);
      }
      ExpectClose(red.outputs[0], want, integer ? npurt_test::Tolerance{0, 0} : TolFor(dt, 2), op);
    }
    // Fill from a one-element input.
    HostTensor v(dt, {1});
    v.set(0, 3);
    auto f = RunOp("Fill", {&v}, {HostTensor(dt, {3, 5})});
    ASSERT_TRUE(f.status.ok()) << f.status.message();
    ExpectClose(f.outputs[0], std::vector<double>(15, 3.0), {0, 0}, "Fill");
  }
}

TEST(OpKernels, CastBetweenAllPairs) {
  std::mt19937 rng(51);
  const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64, ACL_INT8, ACL_UINT8, ACL_DOUBLE};
  for (aclDataType from : types) {
    for (aclDataType to : types) {
      HostTensor x = Random(from, {3, 11}, rng, from == ACL_UINT8 ? 0 : -50, 50);
      auto r = RunOp("Cast", {&x}, {HostTensor(to, {3, 11})});
      ASSERT_TRUE(r.status.ok()) << r.status.message();
      std::vector<double> want(x.numel());
      for (size_t i = 0; i < want.size(); ++i) {
        double v = x.at(i);
        if (to == ACL_INT32 || to == ACL_INT64 || to == ACL_INT8 || to == ACL_UINT8) v = std::trunc(v);
        // Narrow integer targets saturate (no undefined float->int conversions).
        if (to == ACL_UINT8) v = std::clamp(v, 0.0, 255.0);
        if (to == ACL_INT8) v = std::clamp(v, -128.0, 127.0);
        want[i] = v;
      }
      const auto tol = to == ACL_FLOAT16 || to == ACL_BF16 ? TolFor(to) : npurt_test::Tolerance{1e-6, 1e-6};
      ExpectClose(r.outputs[0], want, tol, "Cast " + std::to_string(from) + "->" + std::to_string(to));
    }
  }
}

TEST(OpKernels, ShapeAndTypeErrorsNameTheProblem) {
  HostTensor a(ACL_FLOAT, {2, 3}), b(ACL_FLOAT, {4, 3}), h(ACL_FLOAT16, {2, 3});
  auto r = RunOp("Add", {&a, &b}, {HostTensor(ACL_FLOAT, {4, 3})});
  EXPECT_EQ(r.status.code(), ACL_ERROR_OP_INPUT_NOT_MATCH);
  EXPECT_NE(r.status.message().find("broadcast"), std::string::npos) << r.status.message();
  EXPECT_EQ(RunOp("Add", {&a, &h}, {HostTensor(ACL_FLOAT, {2, 3})}).status.code(), ACL_ERROR_OP_INPUT_NOT_MATCH);
  EXPECT_EQ(RunOp("Add", {&a, &a}, {HostTensor(ACL_FLOAT, {3, 2})}).status.code(), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
  EXPECT_EQ(RunOp("Add", {&a, &a}, {HostTensor(ACL_FLOAT16, {2, 3})}).status.code(), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
  EXPECT_EQ(RunOp("Add", {&a}, {HostTensor(ACL_FLOAT, {2, 3})}).status.code(), ACL_ERROR_OP_INPUT_NOT_MATCH);
  auto nf = RunOp("NoSuchOp", {&a}, {HostTensor(ACL_FLOAT, {2, 3})});
  EXPECT_EQ(nf.status.code(), ACL_ERROR_OP_NOT_FOUND);
  EXPECT_NE(nf.status.message().find("MatMul"), std::string::npos) << "lists supported ops";
  EXPECT_EQ(RunOp("Transpose", {&a}, {HostTensor(ACL_FLOAT, {3, 2})}, AttrMap{{"perm", std::vector<int64_t>{0, 0}}})
                .status.code(),
            ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_EQ(RunOp("Softmax", {&a}, {HostTensor(ACL_FLOAT, {2, 3})}, AttrMap{{"axis", std::string("x")}}).status.code(),
            ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_EQ(RunOp("Softmax", {&a}, {HostTensor(ACL_FLOAT, {2, 3})}, AttrMap{{"axis", int64_t{5}}}).status.code(),
            ACL_ERROR_OP_ATTR_NOT_MATCH);
  // Dynamic output dims are filled by inference.
  OpCall call;
  call.type = "Add";
  call.attrs = &EmptyAttrs();
  call.inputs = {TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {2, 3}}, TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {3}}};
  call.requested = {TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {-1, -1}}};
  auto op = CompileOp(call);
  ASSERT_TRUE(op.ok()) << op.status().message();
  EXPECT_EQ(op.value()->outputs[0].dims, (std::vector<int64_t>{2, 3}));
}

// Tensors of 2^48 bytes or more (no device holds one) are refused before any kernel is built for them,
// inputs and inferred outputs alike: the kernels' stride arithmetic stays far from int64 overflow
// (fuzz_model_load found a reduction's strides overflowing on a forged model's dims).
TEST(OpKernels, TensorsLargerThanAnyDeviceAreRefused) {
  AttrMap none;
  OpCall reduce;
  reduce.type = "ReduceSum";
  reduce.attrs = &none;
  reduce.inputs = {TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {int64_t{1} << 40, int64_t{1} << 20}}};
  reduce.requested = {TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {}}};
  auto r = CompileOp(reduce);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ACL_ERROR_OP_INPUT_NOT_MATCH);
  EXPECT_NE(r.status().message().find("larger than any device memory"), std::string::npos) << r.status().message();
  // Each input of a product fits; their product's output does not.
  OpCall mm;
  mm.type = "MatMul";
  mm.attrs = &none;
  mm.inputs = {TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {int64_t{1} << 30, 1}},
               TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {1, int64_t{1} << 30}}};
  mm.requested = {TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {int64_t{1} << 30, int64_t{1} << 30}}};
  auto m = CompileOp(mm);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("output 0"), std::string::npos) << m.status().message();
  // A product that fits compiles (validation and tiling only: nothing is allocated).
  mm.inputs = {TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {4, 8}}, TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {8, 2}}};
  mm.requested = {TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {4, 2}}};
  EXPECT_TRUE(CompileOp(mm).ok());
}

}  // namespace
}  // namespace npurt::ops
