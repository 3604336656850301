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

// DivCeil(a, b): a / b rounded up (non-negative a, positive b), as kernels size repeats and blocks.
template <typename T, typename U>
__aicore__ inline constexpr auto DivCeil(T a, U b) {
  return (a + b - 1) / b;
}

}  // namespace AscendC
