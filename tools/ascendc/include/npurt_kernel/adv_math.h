// Ascend C's element-wise library APIs (the "advanced" math and activation functions) for the sim:
// Acosh, Ceil, Frac, Erf, Log, Exp (library form), Sigmoid, Gelu, FasterGelu, Silu, Swish, GeGLU, SwiGLU,
// ClampMin/ClampMax, Xor, Fmod, Power, Axpy (half source, float destination), Arange, and the helpers
// DivCeil, ASCENDC_ASSERT and KERNEL_LOG that the library's samples use. Part of kernel_operator.h.
//
// Every function has the library's four forms: with or without a sharedTmpBuffer, with or without a
// calCount (without it, the whole source tensor). The sim computes each element in double and rounds once
// to the destination type, so it needs no scratch space: sharedTmpBuffer is accepted and left untouched
// (the host's GetXxxMaxMinTmpSize still return sizes, tiling/adv_math_tiling.h). Elements past calCount are
// left as they were. The hardware builds these functions from vector instructions (Exp from a Taylor
// series, for example) and may differ from the exact result by a few ulp; the sim gives the exact one.
#pragma once

#include "npurt_kernel/vector_ops.h"

namespace AscendC {

namespace npurt_detail {

template <typename T>
inline double AdvLoad(T v) {
  if constexpr (kIsNarrowFloat<T>) {
    return static_cast<double>(static_cast<float>(v));
  } else {
    return static_cast<double>(v);
  }
}

template <typename T>
inline T AdvStore(double v) {
  if constexpr (kIsNarrowFloat<T>) {
    return static_cast<T>(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

template <typename T>
constexpr bool kAdvFloat = std::is_same<T, float>::value || std::is_same<T, half>::value;

// The element count of a call: calCount, checked against both tensors.
template <typename T, typename U>
inline uint32_t AdvCount(const LocalTensor<T>& dst, const LocalTensor<U>& src, uint32_t count, const char* api) {
  if (count > dst.GetSize() || count > src.GetSize()) {
    Fail("%s: calCount %u is more than the tensors hold (dst %u, src %u elements)", api, count, dst.GetSize(),
         src.GetSize());
  }
  CheckLocal(dst.GetPhyAddr(), uint64_t{count} * sizeof(T), api);
  CheckLocal(src.GetPhyAddr(), uint64_t{count} * sizeof(U), api);
  return count;
}

// dst[i] = f(src[i]) for i < count, computed in double.
template <typename T, typename F>
inline void AdvUnary(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count, F f, const char* api) {
  static_assert(kAdvFloat<T>, "this Ascend C library function takes half or float tensors");
  const uint32_t n = AdvCount(dst, src, count, api);
  T* d = dst.GetPhyAddr();
  const T* s = src.GetPhyAddr();
  for (uint32_t i = 0; i < n; ++i) d[i] = AdvStore<T>(f(AdvLoad(s[i])));
}

template <typename T, typename F>
inline void AdvBinary(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                      uint32_t count, F f, const char* api) {
  const uint32_t n = AdvCount(dst, src0, count, api);
  AdvCount(dst, src1, count, api);
  T* d = dst.GetPhyAddr();
  const T* a = src0.GetPhyAddr();
  const T* b = src1.GetPhyAddr();
  for (uint32_t i = 0; i < n; ++i) d[i] = AdvStore<T>(f(AdvLoad(a[i]), AdvLoad(b[i])));
}

// GELU in its tanh form, as the library defines it: x / (1 + exp(-sqrt(8 / pi) * (x + 0.044715 x^3))).
inline double GeluTanh(double x) {
  constexpr double kSqrt8OverPi = 1.5957691216057308;
  return x / (1.0 + std::exp(-kSqrt8OverPi * (x + 0.044715 * x * x * x)));
}
// FasterGelu, the simplified FastGelu: x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|)), which is
// x / (1 + exp(-1.702 x)) for every x.
inline double FasterGeluOf(double x) { return x / (1.0 + std::exp(-1.702 * x)); }

}  // namespace npurt_detail

// ---- unary functions: Name(dst, src [, sharedTmpBuffer] [, calCount]) ---------------------------------
#define NPURT_ADV_UNARY(Name, expr)                                                                         \
  template <typename T, bool isReuseSource = false>                                                         \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,             \
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {       \
    (void)sharedTmpBuffer;                                                                                  \
    npurt_detail::AdvUnary(dstTensor, srcTensor, calCount, [](double x) { return expr; }, #Name);          \
  }                                                                                                         \
  template <typename T, bool isReuseSource = false>                                                         \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,             \
                              const LocalTensor<uint8_t>& sharedTmpBuffer) {                                \
    Name<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());                     \
  }                                                                                                         \
  template <typename T, bool isReuseSource = false>                                                         \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,             \
                              const uint32_t calCount) {                                                    \
    Name<T, isReuseSource>(dstTensor, srcTensor, LocalTensor<uint8_t>(), calCount);                         \
  }                                                                                                         \
  template <typename T, bool isReuseSource = false>                                                         \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {           \
    Name<T, isReuseSource>(dstTensor, srcTensor, LocalTensor<uint8_t>(), srcTensor.GetSize());              \
  }
NPURT_ADV_UNARY(Acosh, std::acosh(x))
NPURT_ADV_UNARY(Ceil, std::ceil(x))
// Frac keeps the sign: Frac(-258.41888) = -0.41888 (x - trunc(x)); Inf has no fraction (NaN, as x - x).
NPURT_ADV_UNARY(Frac, x - std::trunc(x))
NPURT_ADV_UNARY(Erf, std::erf(x))
NPURT_ADV_UNARY(Log, std::log(x))
NPURT_ADV_UNARY(Sigmoid, 1.0 / (1.0 + std::exp(-x)))
// NPURT_ADV_UNARY stays defined for npurt_kernel/adv_math_unary.h, which undefines it.

// Exp, the library form: the template's second argument is the number of Taylor terms the hardware uses
// for the fraction (e^x = e^floor(x) * taylor(x - floor(x))); the sim gives e^x exactly. The basic
// Exp(dst, src, count) (vector_ops.h) has a bool second template argument and no tmp buffer.
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  (void)sharedTmpBuffer;
  npurt_detail::AdvUnary(dstTensor, srcTensor, calCount, [](double x) { return std::exp(x); }, "Exp");
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount) {
  npurt_detail::AdvUnary(dstTensor, srcTensor, calCount, [](double x) { return std::exp(x); }, "Exp");
}

// Gelu (tanh form). highPrecision / highPerformance choose the hardware's instruction sequence only.
template <typename T, bool highPrecision = false, bool highPerformance = false>
__aicore__ inline void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize) {
  (void)sharedTmpBuffer;
  npurt_detail::AdvUnary(dstLocal, srcLocal, dataSize, npurt_detail::GeluTanh, "Gelu");
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
__aicore__ inline void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize) {
  npurt_detail::AdvUnary(dstLocal, srcLocal, dataSize, npurt_detail::GeluTanh, "Gelu");
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
__aicore__ inline void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                  const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize) {
  (void)sharedTmpBuffer;
  npurt_detail::AdvUnary(dstLocal, srcLocal, dataSize, npurt_detail::FasterGeluOf, "FasterGelu");
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
__aicore__ inline void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                  const uint32_t dataSize) {
  npurt_detail::AdvUnary(dstLocal, srcLocal, dataSize, npurt_detail::FasterGeluOf, "FasterGelu");
}

// Silu(x) = x / (1 + e^-x); Swish(x, beta) = x / (1 + e^(-beta x)).
template <typename T, bool isReuseSource = false>
__aicore__ inline void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize) {
  npurt_detail::AdvUnary(dstLocal, srcLocal, dataSize, [](double x) { return x / (1.0 + std::exp(-x)); }, "Silu");
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
                             const npurt_detail::NoDeduce<T>& scalarValue) {
  const double beta = npurt_detail::AdvLoad(static_cast<T>(scalarValue));
  npurt_detail::AdvUnary(dstLocal, srcLocal, dataSize, [beta](double x) { return x / (1.0 + std::exp(-beta * x)); },
                         "Swish");
}

// ClampMin: max(x, scalar) (values below the scalar become the scalar); ClampMax: min(x, scalar).
#define NPURT_ADV_CLAMP(Name, expr)                                                                         \
  template <typename T, bool isReuseSource = false>                                                         \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,             \
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount) { \
    (void)sharedTmpBuffer;                                                                                  \
    const double s = npurt_detail::AdvLoad(scalar);                                                         \
    npurt_detail::AdvUnary(dstTensor, srcTensor, calCount, [s](double x) { return expr; }, #Name);         \
  }                                                                                                         \
  template <typename T, bool isReuseSource = false>                                                         \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar, \
                              const uint32_t calCount) {                                                    \
    Name<T, isReuseSource>(dstTensor, srcTensor, LocalTensor<uint8_t>(), scalar, calCount);                 \
  }
// NaN stays NaN (the comparison is false for it).
NPURT_ADV_CLAMP(ClampMin, x < s ? s : x)
NPURT_ADV_CLAMP(ClampMax, x > s ? s : x)
#undef NPURT_ADV_CLAMP

// ---- binary functions: Name(dst, src0, src1 [, sharedTmpBuffer] [, calCount]) ---------------------------
#define NPURT_ADV_BINARY_FORMS(Name)                                                                        \
  template <typename T, bool isReuseSource = false>                                                         \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,            \
                              const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) { \
    Name<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());        \
  }                                                                                                         \
  template <typename T, bool isReuseSource = false>                                                         \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,            \
                              const LocalTensor<T>& src1Tensor, const uint32_t calCount) {                  \
    Name<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, LocalTensor<uint8_t>(), calCount);            \
  }                                                                                                         \
  template <typename T, bool isReuseSource = false>                                                         \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,            \
                              const LocalTensor<T>& src1Tensor) {                                           \
    Name<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, LocalTensor<uint8_t>(), src0Tensor.GetSize()); \
  }

// Xor: bitwise, on int16_t / uint16_t.
template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const uint32_t calCount) {
  static_assert(std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value, "Xor takes int16_t or uint16_t");
  (void)sharedTmpBuffer;
  const uint32_t n = npurt_detail::AdvCount(dstTensor, src0Tensor, calCount, "Xor");
  npurt_detail::AdvCount(dstTensor, src1Tensor, calCount, "Xor");
  for (uint32_t i = 0; i < n; ++i) {
    dstTensor.GetPhyAddr()[i] = static_cast<T>(src0Tensor.GetPhyAddr()[i] ^ src1Tensor.GetPhyAddr()[i]);
  }
}
NPURT_ADV_BINARY_FORMS(Xor)

// GeGLU: dst = src0 * Gelu(src1) (tanh form).
template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             const uint32_t calCount) {
  static_assert(npurt_detail::kAdvFloat<T>, "GeGLU takes half or float tensors");
  (void)sharedTmpBuffer;
  npurt_detail::AdvBinary(dstTensor, srcTensor0, srcTensor1, calCount,
                          [](double a, double b) { return a * npurt_detail::GeluTanh(b); }, "GeGLU");
}
NPURT_ADV_BINARY_FORMS(GeGLU)

// SwiGLU: dst = src0 * Swish(src1, beta) = src0 * src1 / (1 + e^(-beta src1)).
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  static_assert(npurt_detail::kAdvFloat<T>, "SwiGLU takes half or float tensors");
  (void)sharedTmpBuffer;
  const double beta = scalarValue;
  npurt_detail::AdvBinary(dstTensor, srcTensor0, srcTensor1, calCount,
                          [beta](double a, double b) { return a * b / (1.0 + std::exp(-beta * b)); }, "SwiGLU");
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue,
                              const LocalTensor<uint8_t>& sharedTmpBuffer) {
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, sharedTmpBuffer, srcTensor0.GetSize());
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue, const uint32_t calCount) {
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, LocalTensor<uint8_t>(), calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue) {
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, LocalTensor<uint8_t>(),
                           srcTensor0.GetSize());
}

// Arange: dst[i] = firstValue + i * diffValue for i < count (half, float, int16_t, int32_t), each element
// computed from i (rounded once), not by repeated addition.
template <typename T>
__aicore__ inline void Arange(const LocalTensor<T>& dstLocal, const T firstValue, const T diffValue,
                              const int32_t count) {
  static_assert(npurt_detail::kAdvFloat<T> || std::is_same<T, int16_t>::value || std::is_same<T, int32_t>::value,
                "Arange takes half, float, int16_t or int32_t");
  if (count < 0) npurt_detail::Fail("Arange: negative count %d", count);
  const uint32_t n = npurt_detail::AdvCount(dstLocal, dstLocal, static_cast<uint32_t>(count), "Arange");
  T* d = dstLocal.GetPhyAddr();
  if constexpr (std::is_integral<T>::value) {
    for (uint32_t i = 0; i < n; ++i) d[i] = static_cast<T>(static_cast<int64_t>(firstValue) + int64_t{i} * diffValue);
  } else {
    const double first = npurt_detail::AdvLoad(firstValue), diff = npurt_detail::AdvLoad(diffValue);
    for (uint32_t i = 0; i < n; ++i) d[i] = npurt_detail::AdvStore<T>(first + i * diff);
  }
}

// Fmod: the remainder of src0 / src1 with the sign of src0 (C's fmod). The config (algorithm, iteration
// limit) exists for Ascend 950 only.
enum class FmodAlgo { NORMAL = 0 };
constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;
struct FmodConfig {
  FmodAlgo algo = FmodAlgo::NORMAL;
  uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};
constexpr FmodConfig DEFAULT_FMOD_CONFIG = {};
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const uint32_t calCount) {
  static_assert(npurt_detail::kAdvFloat<T>, "Fmod takes half or float tensors");
  (void)sharedTmpBuffer;
  npurt_detail::AdvBinary(dstTensor, src0Tensor, src1Tensor, calCount,
                          [](double a, double b) { return std::fmod(a, b); }, "Fmod");
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor, const uint32_t calCount) {
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, LocalTensor<uint8_t>(), calCount);
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor) {
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, LocalTensor<uint8_t>(), src0Tensor.GetSize());
}
#undef NPURT_ADV_BINARY_FORMS

// Power: base^exponent element-wise, with either side a scalar. Floating types follow C's pow (so
// pow(negative, non-integer) is NaN); integer types (int32_t, uint8_t, int8_t, ...) multiply exactly, a
// negative exponent giving 0 except for bases 1 and -1. PowerConfig's algorithm exists for Ascend 950 only.
enum class PowerAlgo { INTRINSIC = 0, DOUBLE_FLOAT_TECH = 1 };
struct PowerConfig {
  PowerAlgo algo = PowerAlgo::INTRINSIC;
};
constexpr PowerConfig DEFAULT_POWER_CONFIG = {};

namespace npurt_detail {
template <typename T>
inline T PowerOf(T base, T exponent) {
  if constexpr (std::is_integral<T>::value) {
    if constexpr (std::is_signed<T>::value) {
      if (exponent < 0) return base == 1 ? T(1) : base == -1 ? ((-exponent) % 2 ? T(-1) : T(1)) : T(0);
    }
    using W = typename std::conditional<std::is_signed<T>::value, int64_t, uint64_t>::type;
    W r = 1;
    W b = base;
    for (auto e = static_cast<uint64_t>(exponent); e != 0; e >>= 1) {
      if (e & 1) r = static_cast<W>(r * b);
      b = static_cast<W>(b * b);
    }
    return static_cast<T>(r);
  } else {
    return AdvStore<T>(std::pow(AdvLoad(base), AdvLoad(exponent)));
  }
}

// One operand may be a scalar: Get(i) reads element i of a tensor or the scalar.
template <typename T>
struct PowerOperand {
  const T* data;
  T scalar;
  T Get(uint32_t i) const { return data != nullptr ? data[i] : scalar; }
};

template <typename T>
inline void PowerRun(const LocalTensor<T>& dst, PowerOperand<T> base, PowerOperand<T> exponent, uint32_t n) {
  T* d = dst.GetPhyAddr();
  for (uint32_t i = 0; i < n; ++i) d[i] = PowerOf<T>(base.Get(i), exponent.Get(i));
}

template <typename T>
inline uint32_t PowerCheck(const LocalTensor<T>& dst, const LocalTensor<T>* src0, const LocalTensor<T>* src1,
                           uint32_t count) {
  if (src0 != nullptr) AdvCount(dst, *src0, count, "Power");
  if (src1 != nullptr) AdvCount(dst, *src1, count, "Power");
  return count;
}
}  // namespace npurt_detail

// Tensor ^ tensor.
template <typename T, bool isReuseSource = false, const PowerConfig& config = DEFAULT_POWER_CONFIG>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             const uint32_t calCount) {
  (void)sharedTmpBuffer;
  const uint32_t n = npurt_detail::PowerCheck(dstTensor, &src0Tensor, &src1Tensor, calCount);
  npurt_detail::PowerRun<T>(dstTensor, {src0Tensor.GetPhyAddr(), T()}, {src1Tensor.GetPhyAddr(), T()}, n);
}
// Tensor ^ scalar.
template <typename T, bool isReuseSource = false, const PowerConfig& config = DEFAULT_POWER_CONFIG>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const npurt_detail::NoDeduce<T>& src1Scalar, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             const uint32_t calCount) {
  (void)sharedTmpBuffer;
  const uint32_t n = npurt_detail::PowerCheck<T>(dstTensor, &src0Tensor, nullptr, calCount);
  npurt_detail::PowerRun<T>(dstTensor, {src0Tensor.GetPhyAddr(), T()}, {nullptr, src1Scalar}, n);
}
// Scalar ^ tensor.
template <typename T, bool isReuseSource = false, const PowerConfig& config = DEFAULT_POWER_CONFIG>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const npurt_detail::NoDeduce<T>& src0Scalar,
                             const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             const uint32_t calCount) {
  (void)sharedTmpBuffer;
  const uint32_t n = npurt_detail::PowerCheck<T>(dstTensor, nullptr, &src1Tensor, calCount);
  npurt_detail::PowerRun<T>(dstTensor, {nullptr, src0Scalar}, {src1Tensor.GetPhyAddr(), T()}, n);
}
// The forms without calCount (the whole tensor operand) and without sharedTmpBuffer.
template <typename T, bool isReuseSource = false, const PowerConfig& config = DEFAULT_POWER_CONFIG>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Power<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = DEFAULT_POWER_CONFIG>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const npurt_detail::NoDeduce<T>& src1Scalar, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Power<T, isReuseSource, config>(dstTensor, src0Tensor, src1Scalar, sharedTmpBuffer, src0Tensor.GetSize());
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = DEFAULT_POWER_CONFIG>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const npurt_detail::NoDeduce<T>& src0Scalar,
                             const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Power<T, isReuseSource, config>(dstTensor, src0Scalar, src1Tensor, sharedTmpBuffer, src1Tensor.GetSize());
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = DEFAULT_POWER_CONFIG>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, const uint32_t calCount) {
  Power<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, LocalTensor<uint8_t>(), calCount);
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = DEFAULT_POWER_CONFIG>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor) {
  Power<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, LocalTensor<uint8_t>(), src0Tensor.GetSize());
}

// Axpy, the library form: dst = src * scalar + dst, the source half or float and the destination float or
// the source's type, rounded once (a fused multiply-add: the product of two floats is exact in double).
// The basic Axpy(dst, src, scalar, count) of the vector unit has no tmp buffer.
template <typename T, typename U, bool isReuseSource = false>
__aicore__ inline void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor, const U scalarValue,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  static_assert(npurt_detail::kAdvFloat<T> && npurt_detail::kAdvFloat<U> && sizeof(T) >= sizeof(U),
                "Axpy: the source is half or float, the destination float or the source's type");
  (void)sharedTmpBuffer;
  const uint32_t n = npurt_detail::AdvCount(dstTensor, srcTensor, calCount, "Axpy");
  const double s = npurt_detail::AdvLoad(scalarValue);
  T* d = dstTensor.GetPhyAddr();
  const U* x = srcTensor.GetPhyAddr();
  for (uint32_t i = 0; i < n; ++i) {
    d[i] = npurt_detail::AdvStore<T>(std::fma(npurt_detail::AdvLoad(x[i]), s, npurt_detail::AdvLoad(d[i])));
  }
}

}  // namespace AscendC

// ---- kernel logging and assertions of the library's samples ----------------------------------------------
// KERNEL_LOG(level, fmt, ...) prints from the block; ASCENDC_ASSERT(cond, behavior) runs `behavior` (a
// KERNEL_LOG, usually) and fails the kernel when cond is false (CANN checks it in its debug builds only; the
// sim always does, so a kernel that breaks its own precondition stops with the message).
#ifndef KERNEL_LOG
enum NpurtKernelLogLevel { KERNEL_DEBUG = 0, KERNEL_INFO = 1, KERNEL_WARN = 2, KERNEL_ERROR = 3 };
#define KERNEL_LOG(level, fmt, ...)                                                                           \
  AscendC::npurt_detail::PrintV("[%s] %s:%d " fmt "\n",                                                       \
                                (level) == KERNEL_ERROR ? "ERROR" : (level) == KERNEL_WARN ? "WARN" : "INFO", \
                                __FILE__, __LINE__, ##__VA_ARGS__)
#endif
#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, behavior)                                                             \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      behavior;                                                                                    \
      AscendC::npurt_detail::Fail("ASCENDC_ASSERT %s:%d: `%s' failed", __FILE__, __LINE__, #cond); \
    }                                                                                              \
  } while (0)
#endif
