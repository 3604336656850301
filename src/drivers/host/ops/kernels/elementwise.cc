// Element-wise operators with numpy broadcasting: Add, Sub, Mul, Div, Maximum, Minimum, Pow, and the
// unary activations and math functions. npurt's own kernels: one pass over the output, inputs read
// through broadcast strides, parallel over rows with the run's OpenMP team.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "drivers/host/ops/kernels/elem_io.h"
#include "drivers/host/ops/host_op.h"

namespace npurt::drivers::host {
namespace {

// ----------------------------------------------------------------------------------------- binary
enum class BinOp { kAdd, kSub, kMul, kDiv, kMax, kMin, kPow };

template <typename C>
C IntPow(C base, C exp) {
  if (exp < 0) return base == 1 ? 1 : (base == -1 ? ((exp & 1) ? -1 : 1) : 0);
  C r = 1;
  while (exp > 0) {
    if (exp & 1) r = static_cast<C>(static_cast<std::make_unsigned_t<C>>(r) * static_cast<std::make_unsigned_t<C>>(base));
    base = static_cast<C>(static_cast<std::make_unsigned_t<C>>(base) * static_cast<std::make_unsigned_t<C>>(base));
    exp >>= 1;
  }
  return r;
}

template <BinOp OP, typename C>
inline C Apply(C a, C b) {
  if constexpr (std::is_integral_v<C>) {
    using U = std::make_unsigned_t<C>;
    // Wrapping arithmetic (as the hardware does) without signed-overflow UB; x/0 is 0, never a trap.
    if constexpr (OP == BinOp::kAdd) return static_cast<C>(static_cast<U>(a) + static_cast<U>(b));
    if constexpr (OP == BinOp::kSub) return static_cast<C>(static_cast<U>(a) - static_cast<U>(b));
    if constexpr (OP == BinOp::kMul) return static_cast<C>(static_cast<U>(a) * static_cast<U>(b));
    if constexpr (OP == BinOp::kDiv) {
      if (b == 0) return 0;
      if (b == -1) return static_cast<C>(U(0) - static_cast<U>(a));
      return a / b;
    }
    if constexpr (OP == BinOp::kPow) return IntPow<C>(a, b);
  } else {
    if constexpr (OP == BinOp::kAdd) return a + b;
    if constexpr (OP == BinOp::kSub) return a - b;
    if constexpr (OP == BinOp::kMul) return a * b;
    if constexpr (OP == BinOp::kDiv) return a / b;
    if constexpr (OP == BinOp::kPow) return std::pow(a, b);
  }
  if constexpr (OP == BinOp::kMax) {
    if constexpr (!std::is_integral_v<C>) {
      if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<C>::quiet_NaN();
    }
    return a > b ? a : b;
  }
  if constexpr (OP == BinOp::kMin) {
    if constexpr (!std::is_integral_v<C>) {
      if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<C>::quiet_NaN();
    }
    return a < b ? a : b;
  }
  return C{};
}

// Output shape split into coalesced dims with per-input element strides (0 = broadcast).
struct BroadcastPlan {
  std::vector<int64_t> size, sx, sy;  // outermost first; the last entry is the inner loop
  int64_t rows = 1, inner = 1;
};

BroadcastPlan MakePlan(const std::vector<int64_t>& out, const std::vector<int64_t>& x, const std::vector<int64_t>& y) {
  const size_t r = out.size();
  std::vector<int64_t> sx(r), sy(r);
  int64_t ax = 1, ay = 1;
  for (size_t k = r; k-- > 0;) {
    const int64_t dx = k < r - x.size() ? 1 : x[k - (r - x.size())];
    const int64_t dy = k < r - y.size() ? 1 : y[k - (r - y.size())];
    sx[k] = dx == 1 ? 0 : ax;
    sy[k] = dy == 1 ? 0 : ay;
    ax *= dx;
    ay *= dy;
  }
  BroadcastPlan p;
  for (size_t k = 0; k < r; ++k) {
    if (out[k] == 1) continue;  // size-1 dims contribute nothing
    if (!p.size.empty()) {
      const size_t j = p.size.size() - 1;
      // Merge k into the previous dim when both inputs step through them as one run.
      if (p.sx[j] == sx[k] * out[k] && p.sy[j] == sy[k] * out[k]) {
        p.size[j] *= out[k];
        p.sx[j] = sx[k];
        p.sy[j] = sy[k];
        continue;
      }
    }
    p.size.push_back(out[k]);
    p.sx.push_back(sx[k]);
    p.sy.push_back(sy[k]);
  }
  if (p.size.empty()) {
    p.size = {1};
    p.sx = {0};
    p.sy = {0};
  }
  p.inner = p.size.back();
  for (size_t k = 0; k + 1 < p.size.size(); ++k) p.rows *= p.size[k];
  return p;
}

// out = x OP (alpha * y); alpha (Add/Sub only, from attr alpha) is 1 unless the caller scales.
template <typename Tag, BinOp OP>
void RunBinary(const BroadcastPlan& p, const void* xv, const void* yv, void* ov, double alpha_d, int threads) {
  using IO = Io<Tag>;
  using S = typename IO::S;
  const S* x = static_cast<const S*>(xv);
  const S* y = static_cast<const S*>(yv);
  S* o = static_cast<S*>(ov);
  const int64_t inner = p.inner, isx = p.sx.back(), isy = p.sy.back();
  const size_t outer_dims = p.size.size() - 1;
  const bool parallel = p.rows * inner > kParallelGrain;
  using C = typename IO::C;
  const C alpha = static_cast<C>(alpha_d);
  if (alpha_d != 1.0) {
    const auto ld_y = [&](const S* yy, int64_t i) { return Apply<BinOp::kMul>(IO::Ld(yy[i]), alpha); };
#pragma omp parallel for num_threads(threads) if (parallel) schedule(static)
    for (int64_t row = 0; row < p.rows; ++row) {
      int64_t rem = row, ox = 0, oy = 0;
      for (size_t k = outer_dims; k-- > 0;) {
        const int64_t idx = rem % p.size[k];
        rem /= p.size[k];
        ox += idx * p.sx[k];
        oy += idx * p.sy[k];
      }
      for (int64_t i = 0; i < inner; ++i) {
        o[row * inner + i] = IO::St(Apply<OP>(IO::Ld(x[ox + i * isx]), ld_y(y + oy, i * isy)));
      }
    }
    return;
  }
  if (p.rows == 1) {
    // One long run (the common same-shape or scalar case): split it across the team.
#pragma omp parallel for num_threads(threads) if (parallel) schedule(static)
    for (int64_t i = 0; i < inner; ++i) o[i] = IO::St(Apply<OP>(IO::Ld(x[i * isx]), IO::Ld(y[i * isy])));
    return;
  }
#pragma omp parallel for num_threads(threads) if (parallel) schedule(static)
  for (int64_t row = 0; row < p.rows; ++row) {
    int64_t rem = row, ox = 0, oy = 0;
    for (size_t k = outer_dims; k-- > 0;) {
      const int64_t idx = rem % p.size[k];
      rem /= p.size[k];
      ox += idx * p.sx[k];
      oy += idx * p.sy[k];
    }
    const S* xr = x + ox;
    const S* yr = y + oy;
    S* orow = o + row * inner;
    for (int64_t i = 0; i < inner; ++i) orow[i] = IO::St(Apply<OP>(IO::Ld(xr[i * isx]), IO::Ld(yr[i * isy])));
  }
}

class BinaryKernel final : public Kernel {
 public:
  BinaryKernel(BinOp op, int32_t dtype, BroadcastPlan plan, double alpha)
      : op_(op), dtype_(dtype), plan_(std::move(plan)), alpha_(alpha) {}
  Status Run(const OpRunArgs& a) const override {
    const void* x = a.inputs[0];
    const void* y = a.inputs[1];
    void* o = a.outputs[0];
    DispatchNumeric(dtype_, [&]<typename Tag>() {
      switch (op_) {
        case BinOp::kAdd: RunBinary<Tag, BinOp::kAdd>(plan_, x, y, o, alpha_, a.threads); break;
        case BinOp::kSub: RunBinary<Tag, BinOp::kSub>(plan_, x, y, o, alpha_, a.threads); break;
        case BinOp::kMul: RunBinary<Tag, BinOp::kMul>(plan_, x, y, o, alpha_, a.threads); break;
        case BinOp::kDiv: RunBinary<Tag, BinOp::kDiv>(plan_, x, y, o, alpha_, a.threads); break;
        case BinOp::kMax: RunBinary<Tag, BinOp::kMax>(plan_, x, y, o, alpha_, a.threads); break;
        case BinOp::kMin: RunBinary<Tag, BinOp::kMin>(plan_, x, y, o, alpha_, a.threads); break;
        case BinOp::kPow: RunBinary<Tag, BinOp::kPow>(plan_, x, y, o, alpha_, a.threads); break;
      }
    });
    return Status::Ok();
  }

 private:
  BinOp op_;
  int32_t dtype_;
  BroadcastPlan plan_;
  double alpha_;
};

template <BinOp OP>
Status BuildBinary(OpBuild& b) {
  NPURT_RETURN_IF_ERROR(ExpectDTypes(b, 0, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64}));
  NPURT_RETURN_IF_ERROR(SameDType(b, 0, 1));
  auto shape = BroadcastShapes(b, b.inputs[0].dims, b.inputs[1].dims);
  if (!shape.ok()) return std::move(shape).status();
  TensorSpec out{b.inputs[0].dtype, RequestedFormat(b, 0, b.inputs[0].format), shape.value()};
  double alpha = 1.0;
  if (Has(*b.attrs, "alpha")) {
    if (OP != BinOp::kAdd && OP != BinOp::kSub) {
      return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: attribute alpha applies to Add and Sub only", b.type);
    }
    auto a = GetFloat(*b.attrs, "alpha", 1.0f);
    if (!a.ok()) return a.status();
    alpha = a.value();
    if (IsInteger(out.dtype) && alpha != std::floor(alpha)) {
      return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: alpha {} must be integral for {} tensors", b.type, alpha,
                 DTypeName(out.dtype));
    }
  }
  b.outputs = {out};
  if (b.compile) {
    b.kernel = std::make_unique<BinaryKernel>(OP, out.dtype, MakePlan(out.dims, b.inputs[0].dims, b.inputs[1].dims),
                                              alpha);
  }
  return Status::Ok();
}

// ------------------------------------------------------------------------------------------ unary
enum class UnOp { kAbs, kNeg, kExp, kLog, kSqrt, kRsqrt, kReciprocal, kRelu, kRelu6, kClip, kGeluErf, kGeluTanh,
                  kSigmoid, kTanh, kErf };

struct UnaryParams {
  float lo = 0.0f, hi = 0.0f;
};

template <UnOp OP, typename C>
inline C ApplyUnary(C x, const UnaryParams& p) {
  if constexpr (std::is_integral_v<C>) {
    using U = std::make_unsigned_t<C>;
    if constexpr (OP == UnOp::kAbs) return x < 0 ? static_cast<C>(U(0) - static_cast<U>(x)) : x;
    if constexpr (OP == UnOp::kNeg) return static_cast<C>(U(0) - static_cast<U>(x));
    if constexpr (OP == UnOp::kRelu) return x > 0 ? x : 0;
    return x;
  } else {
    if constexpr (OP == UnOp::kAbs) return std::fabs(x);
    if constexpr (OP == UnOp::kNeg) return -x;
    if constexpr (OP == UnOp::kExp) return std::exp(x);
    if constexpr (OP == UnOp::kLog) return std::log(x);
    if constexpr (OP == UnOp::kSqrt) return std::sqrt(x);
    if constexpr (OP == UnOp::kRsqrt) return 1.0f / std::sqrt(x);
    if constexpr (OP == UnOp::kReciprocal) return 1.0f / x;
    if constexpr (OP == UnOp::kRelu) return x > 0 ? x : (std::isnan(x) ? x : 0.0f);
    if constexpr (OP == UnOp::kRelu6) return std::isnan(x) ? x : std::min(std::max(x, 0.0f), 6.0f);
    if constexpr (OP == UnOp::kClip) return std::isnan(x) ? x : std::min(std::max(x, p.lo), p.hi);
    if constexpr (OP == UnOp::kGeluErf) return 0.5f * x * (1.0f + std::erf(x * 0.70710678118654752f));
    if constexpr (OP == UnOp::kGeluTanh) {
      return 0.5f * x * (1.0f + std::tanh(0.79788456080286536f * (x + 0.044715f * x * x * x)));
    }
    if constexpr (OP == UnOp::kSigmoid) return 1.0f / (1.0f + std::exp(-x));
    if constexpr (OP == UnOp::kTanh) return std::tanh(x);
    if constexpr (OP == UnOp::kErf) return std::erf(x);
  }
  return x;
}

template <typename Tag, UnOp OP>
void RunUnary(const void* xv, void* ov, int64_t n, const UnaryParams& p, int threads) {
  using IO = Io<Tag>;
  using S = typename IO::S;
  const S* x = static_cast<const S*>(xv);
  S* o = static_cast<S*>(ov);
#pragma omp parallel for num_threads(threads) if (n > kParallelGrain) schedule(static)
  for (int64_t i = 0; i < n; ++i) o[i] = IO::St(ApplyUnary<OP>(IO::Ld(x[i]), p));
}

class UnaryKernel final : public Kernel {
 public:
  UnaryKernel(UnOp op, int32_t dtype, int64_t n, UnaryParams p) : op_(op), dtype_(dtype), n_(n), p_(p) {}
  Status Run(const OpRunArgs& a) const override {
    const void* x = a.inputs[0];
    void* o = a.outputs[0];
    DispatchNumeric(dtype_, [&]<typename Tag>() {
#define NPURT_UNARY_CASE(E) \
  case UnOp::E: RunUnary<Tag, UnOp::E>(x, o, n_, p_, a.threads); break;
      switch (op_) {
        NPURT_UNARY_CASE(kAbs) NPURT_UNARY_CASE(kNeg) NPURT_UNARY_CASE(kExp) NPURT_UNARY_CASE(kLog)
        NPURT_UNARY_CASE(kSqrt) NPURT_UNARY_CASE(kRsqrt) NPURT_UNARY_CASE(kReciprocal) NPURT_UNARY_CASE(kRelu)
        NPURT_UNARY_CASE(kRelu6) NPURT_UNARY_CASE(kClip) NPURT_UNARY_CASE(kGeluErf) NPURT_UNARY_CASE(kGeluTanh)
        NPURT_UNARY_CASE(kSigmoid) NPURT_UNARY_CASE(kTanh) NPURT_UNARY_CASE(kErf)
      }
#undef NPURT_UNARY_CASE
    });
    return Status::Ok();
  }

 private:
  UnOp op_;
  int32_t dtype_;
  int64_t n_;
  UnaryParams p_;
};

template <UnOp OP>
Status BuildUnary(OpBuild& b) {
  constexpr bool kIntOk = OP == UnOp::kAbs || OP == UnOp::kNeg || OP == UnOp::kRelu;
  if constexpr (kIntOk) {
    NPURT_RETURN_IF_ERROR(ExpectDTypes(b, 0, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64}));
  } else {
    NPURT_RETURN_IF_ERROR(ExpectDTypes(b, 0, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}));
  }
  UnaryParams p;
  UnOp op = OP;
  if constexpr (OP == UnOp::kClip) {
    auto lo = GetFloat(*b.attrs, "min", -std::numeric_limits<float>::infinity());
    if (!lo.ok()) return lo.status();
    auto hi = GetFloat(*b.attrs, "max", std::numeric_limits<float>::infinity());
    if (!hi.ok()) return hi.status();
    if (lo.value() > hi.value()) {
      return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: min {} is greater than max {}", b.type, lo.value(), hi.value());
    }
    p.lo = lo.value();
    p.hi = hi.value();
  }
  if constexpr (OP == UnOp::kGeluErf) {
    auto approx = GetString(*b.attrs, "approximate", "none");
    if (!approx.ok()) return approx.status();
    if (approx.value() == "tanh") {
      op = UnOp::kGeluTanh;
    } else if (approx.value() != "none") {
      return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: attribute approximate is '{}'; supported: none, tanh", b.type,
                 approx.value());
    }
  }
  TensorSpec out = b.inputs[0];
  out.format = RequestedFormat(b, 0, out.format);
  b.outputs = {out};
  if (b.compile) b.kernel = std::make_unique<UnaryKernel>(op, out.dtype, out.numel(), p);
  return Status::Ok();
}

constexpr const char* kNumeric = "float32, float16, bfloat16, int32, int64";
constexpr const char* kFloats = "float32, float16, bfloat16";

}  // namespace

void RegisterElementwiseOps(OpTable& t) {
  const char* bin = "x1, x2 (broadcast) -> y";
  t.Add({"Add", 2, 2, &BuildBinary<BinOp::kAdd>, false, kNumeric, "x1, x2 (broadcast) -> y = x1 + alpha*x2; attr alpha (default 1)"});
  t.Add({"Sub", 2, 2, &BuildBinary<BinOp::kSub>, false, kNumeric, "x1, x2 (broadcast) -> y = x1 - alpha*x2; attr alpha (default 1)"});
  t.Add({"Mul", 2, 2, &BuildBinary<BinOp::kMul>, false, kNumeric, bin});
  t.Add({"Div", 2, 2, &BuildBinary<BinOp::kDiv>, false, kNumeric, "x1, x2 -> y; integer division truncates, x/0 = 0"});
  t.Add({"Maximum", 2, 2, &BuildBinary<BinOp::kMax>, false, kNumeric, bin});
  t.Add({"Minimum", 2, 2, &BuildBinary<BinOp::kMin>, false, kNumeric, bin});
  t.Add({"Pow", 2, 2, &BuildBinary<BinOp::kPow>, false, kNumeric, bin});
  t.Alias("AddV2", "Add");
  t.Alias("RealDiv", "Div");
  const char* un = "x -> y";
  t.Add({"Abs", 1, 1, &BuildUnary<UnOp::kAbs>, false, kNumeric, un});
  t.Add({"Neg", 1, 1, &BuildUnary<UnOp::kNeg>, false, kNumeric, un});
  t.Add({"Exp", 1, 1, &BuildUnary<UnOp::kExp>, false, kFloats, un});
  t.Add({"Log", 1, 1, &BuildUnary<UnOp::kLog>, false, kFloats, un});
  t.Add({"Sqrt", 1, 1, &BuildUnary<UnOp::kSqrt>, false, kFloats, un});
  t.Add({"Rsqrt", 1, 1, &BuildUnary<UnOp::kRsqrt>, false, kFloats, un});
  t.Add({"Reciprocal", 1, 1, &BuildUnary<UnOp::kReciprocal>, false, kFloats, un});
  t.Add({"Relu", 1, 1, &BuildUnary<UnOp::kRelu>, false, kNumeric, un});
  t.Add({"Relu6", 1, 1, &BuildUnary<UnOp::kRelu6>, false, kFloats, un});
  t.Add({"Clip", 1, 1, &BuildUnary<UnOp::kClip>, false, kFloats, "x -> y; attrs min, max (float)"});
  t.Add({"Gelu", 1, 1, &BuildUnary<UnOp::kGeluErf>, false, kFloats,
         "x -> y; attr approximate: \"none\" (erf form, default) or \"tanh\""});
  t.Add({"Sigmoid", 1, 1, &BuildUnary<UnOp::kSigmoid>, false, kFloats, un});
  t.Add({"Tanh", 1, 1, &BuildUnary<UnOp::kTanh>, false, kFloats, un});
  t.Add({"Erf", 1, 1, &BuildUnary<UnOp::kErf>, false, kFloats, un});
  t.Alias("ClipByValue", "Clip");
}

}  // namespace npurt::drivers::host
