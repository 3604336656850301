// Ascend C's compile-time type utilities (AscendC::IsSameType, AscendC::Conditional), which kernels use
// to pick code paths and element types by their template arguments. Plain aliases of the standard
// traits, kept in a header of their own so that every part of kernel_operator.h can use them.
#pragma once

#include <type_traits>

namespace AscendC {

// IsSameType<T, U>::value: whether T and U are the same type.
template <typename T, typename U>
struct IsSameType : std::is_same<T, U> {};

// Conditional<cond, T, F>::type: T when cond holds, else F.
template <bool cond, typename T, typename F>
struct Conditional : std::conditional<cond, T, F> {};

}  // namespace AscendC
