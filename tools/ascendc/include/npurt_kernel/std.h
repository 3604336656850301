// AscendC::Std: the standard-library subset Ascend C offers kernels (CANN's compiler has no libstdc++ on the
// device): type traits, tuple, min / max, and Int<N>, a compile-time integer. On the sim kernels are host C++, so
// each name is the standard one. Part of kernel_operator.h.
#pragma once

#include <algorithm>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace AscendC {
namespace Std {

using std::max;
using std::min;

using std::get;
using std::make_tuple;
using std::tie;
using std::tuple;
using std::tuple_element;
using std::tuple_element_t;
using std::tuple_size;
using std::tuple_size_v;

using std::add_const;
using std::add_const_t;
using std::add_cv;
using std::add_cv_t;
using std::add_lvalue_reference;
using std::add_lvalue_reference_t;
using std::add_pointer;
using std::add_pointer_t;
using std::add_rvalue_reference;
using std::add_rvalue_reference_t;
using std::add_volatile;
using std::add_volatile_t;
using std::bool_constant;
using std::conditional;
using std::conditional_t;
using std::decay;
using std::decay_t;
using std::declval;
using std::enable_if;
using std::enable_if_t;
using std::false_type;
using std::forward;
using std::integral_constant;
using std::is_arithmetic;
using std::is_arithmetic_v;
using std::is_array;
using std::is_array_v;
using std::is_base_of;
using std::is_base_of_v;
using std::is_const;
using std::is_const_v;
using std::is_convertible;
using std::is_convertible_v;
using std::is_floating_point;
using std::is_floating_point_v;
using std::is_integral;
using std::is_integral_v;
using std::is_pointer;
using std::is_pointer_v;
using std::is_reference;
using std::is_reference_v;
using std::is_same;
using std::is_same_v;
using std::is_signed;
using std::is_signed_v;
using std::is_unsigned;
using std::is_unsigned_v;
using std::is_void;
using std::is_void_v;
using std::move;
using std::remove_const;
using std::remove_const_t;
using std::remove_cv;
using std::remove_cv_t;
#if __cplusplus >= 202002L
using std::remove_cvref;
using std::remove_cvref_t;
#endif
using std::remove_extent;
using std::remove_extent_t;
using std::remove_pointer;
using std::remove_pointer_t;
using std::remove_reference;
using std::remove_reference_t;
using std::remove_volatile;
using std::remove_volatile_t;
using std::true_type;
using std::void_t;

// Whether T is one of Ts.
template <typename T, typename... Ts>
struct is_one_of : std::bool_constant<(std::is_same_v<T, Ts> || ...)> {};
template <typename T, typename... Ts>
inline constexpr bool is_one_of_v = is_one_of<T, Ts...>::value;

// A compile-time integer (Int<16>{}), usable where a runtime size is.
template <auto N>
using Int = std::integral_constant<decltype(N), N>;

}  // namespace Std
}  // namespace AscendC
