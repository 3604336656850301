// Ascend C's compile-time utilities: the type traits AscendC::IsSameType and AscendC::Conditional, which
// kernels use to pick code paths and element types by their template arguments (plain forms of the
// standard traits), and the integer helper DivCeil. A header of its own so that every part of
// kernel_operator.h can use them.
#pragma once

#include <type_traits>

namespace AscendC {

// IsSameType<T, U>::value: whether T and U are the same type.
template <typename T, typename U>
struct IsSameType : std::is_same<T, U> {};

// Conditional<cond, T, F>::type: T when cond holds, else F.
template <bool cond, typename T, typename F>
struct Conditional : std::conditional<cond, T, F> {};

// The quotient rounded up (integer division), as the library's utility header gives it; the operands
// may differ in type (DivCeil(n * sizeof(T), 32)), the result has their common type.
template <typename T, typename U, typename = std::enable_if_t<std::is_integral<T>::value && std::is_integral<U>::value>>
__aicore__ inline constexpr std::common_type_t<T, U> DivCeil(T a, U b) {
  using R = std::common_type_t<T, U>;
  return (static_cast<R>(a) + static_cast<R>(b) - 1) / static_cast<R>(b);
}

// Ceil(a, b) of two integers: the quotient rounded up, as the Matmul library's utilities give it (b must be
// positive); the operands may differ in type (Ceil(n * sizeof(T), 32)), the result has their common type.
template <typename T, typename U,
          typename = std::enable_if_t<std::is_integral<T>::value && std::is_integral<U>::value>>
__aicore__ inline constexpr std::common_type_t<T, U> Ceil(T num1, U num2) {
  return DivCeil(num1, num2);
}

}  // namespace AscendC
