// The rest of Ascend C's element-wise math library for the sim: the trigonometric and hyperbolic functions
// and their inverses, Floor, Round, Rint, Trunc, Sign, Erfc, Digamma, Lgamma, and IsFinite. Part of
// kernel_operator.h; the host tmp sizes are tiling/adv_math_tiling.h.
//
// Each has the library's forms Name(dst, src [, sharedTmpBuffer] [, calCount]) over half or float, computed in
// double and rounded once (as npurt_kernel/adv_math.h); sharedTmpBuffer is accepted and left untouched.
// Round and Rint round halves to even (the vector unit's CAST_RINT); Sign keeps NaN and the zero's sign.
#pragma once

#include <cmath>

#include "npurt_kernel/adv_math.h"

namespace AscendC {

namespace npurt_detail {
// Digamma: the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 6, then the asymptotic series; the
// reflection psi(1 - x) - psi(x) = pi cot(pi x) for negative x. Poles (0, -1, -2, ...) give NaN.
inline double DigammaOf(double x) {
  if (std::isnan(x) || x == -INFINITY) return NAN;
  if (x <= 0 && x == std::floor(x)) return NAN;
  if (x < 0) return DigammaOf(1.0 - x) - M_PI / std::tan(M_PI * x);
  double r = 0;
  while (x < 6) {
    r -= 1.0 / x;
    x += 1;
  }
  const double f = 1.0 / (x * x);
  const double series =
      f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132 - f * 691.0 / 32760)))));
  return r + std::log(x) - 0.5 / x - series;
}
inline double SignOf(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x; }
}  // namespace npurt_detail

NPURT_ADV_UNARY(Sin, std::sin(x))
NPURT_ADV_UNARY(Cos, std::cos(x))
NPURT_ADV_UNARY(Tan, std::tan(x))
NPURT_ADV_UNARY(Tanh, std::tanh(x))
NPURT_ADV_UNARY(Asin, std::asin(x))
NPURT_ADV_UNARY(Acos, std::acos(x))
NPURT_ADV_UNARY(Atan, std::atan(x))
NPURT_ADV_UNARY(Sinh, std::sinh(x))
NPURT_ADV_UNARY(Cosh, std::cosh(x))
NPURT_ADV_UNARY(Asinh, std::asinh(x))
NPURT_ADV_UNARY(Atanh, std::atanh(x))
NPURT_ADV_UNARY(Floor, std::floor(x))
NPURT_ADV_UNARY(Round, std::nearbyint(x))
NPURT_ADV_UNARY(Rint, std::nearbyint(x))
NPURT_ADV_UNARY(Trunc, std::trunc(x))
NPURT_ADV_UNARY(Sign, npurt_detail::SignOf(x))
NPURT_ADV_UNARY(Erfc, std::erfc(x))
NPURT_ADV_UNARY(Digamma, npurt_detail::DigammaOf(x))
NPURT_ADV_UNARY(Lgamma, std::lgamma(x))
#undef NPURT_ADV_UNARY

// IsFinite: dst[i] = 1 where src[i] is neither NaN nor infinite, else 0, in dst's type (bool, int8_t,
// uint8_t, or the source's type).
template <typename T, typename U, bool isReuseSource = false>
__aicore__ inline void IsFinite(const LocalTensor<U>& dstTensor, const LocalTensor<T>& srcTensor,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  static_assert(npurt_detail::kAdvFloat<T>, "IsFinite takes half or float sources");
  static_assert(std::is_same<U, T>::value || std::is_same<U, bool>::value || std::is_same<U, int8_t>::value ||
                    std::is_same<U, uint8_t>::value,
                "IsFinite: the destination is bool, int8_t, uint8_t or the source's type");
  (void)sharedTmpBuffer;
  const uint32_t n = npurt_detail::AdvCount(dstTensor, srcTensor, calCount, "IsFinite");
  for (uint32_t i = 0; i < n; ++i) {
    const bool finite = std::isfinite(npurt_detail::AdvLoad(srcTensor.GetPhyAddr()[i]));
    if constexpr (npurt_detail::kAdvFloat<U>) {
      dstTensor.GetPhyAddr()[i] = npurt_detail::AdvStore<U>(finite ? 1.0 : 0.0);
    } else {
      dstTensor.GetPhyAddr()[i] = static_cast<U>(finite ? 1 : 0);
    }
  }
}
template <typename T, typename U, bool isReuseSource = false>
__aicore__ inline void IsFinite(const LocalTensor<U>& dstTensor, const LocalTensor<T>& srcTensor,
                                const uint32_t calCount) {
  IsFinite<T, U, isReuseSource>(dstTensor, srcTensor, LocalTensor<uint8_t>(), calCount);
}
template <typename T, typename U, bool isReuseSource = false>
__aicore__ inline void IsFinite(const LocalTensor<U>& dstTensor, const LocalTensor<T>& srcTensor) {
  IsFinite<T, U, isReuseSource>(dstTensor, srcTensor, LocalTensor<uint8_t>(), srcTensor.GetSize());
}

}  // namespace AscendC
