// Ascend C vector instructions for the sim, in their count form (`Add(dst, src0, src1, count)`): element-
// wise binary, scalar and unary operations and Duplicate. half and bfloat16 are computed in float and
// rounded once per element, which gives the correctly rounded half result the vector unit gives for
// + - * / and sqrt. Loops are written so the compiler vectorises them; half <-> float conversions use
// F16C / AVX-512 instructions when the kernel is compiled for a CPU that has them. Part of
// kernel_operator.h.
#pragma once

#include "npurt_kernel/tensor.h"

namespace AscendC {
namespace npurt_detail {

template <typename T>
struct TypeIdentity {
  using type = T;
};
// A parameter that does not take part in template argument deduction (scalar operands of half tensors
// may be written as float literals).
template <typename T>
using NoDeduce = typename TypeIdentity<T>::type;

template <typename T>
constexpr bool kIsNarrowFloat = std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value;

inline void HalfToFloat(float* __restrict out, const half* __restrict in, uint32_t n) {
  uint32_t i = 0;
#if defined(__AVX512F__)
  for (; i + 16 <= n; i += 16) {
    // maskz forms: the plain ones trip GCC 12's -Wmaybe-uninitialized inside its own headers.
    _mm512_storeu_ps(out + i, _mm512_maskz_cvtph_ps(0xffff, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i))));
  }
#endif
#if defined(__F16C__) && defined(__AVX__)
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i))));
  }
#endif
  for (; i < n; ++i) out[i] = static_cast<float>(in[i]);
}

inline void FloatToHalf(half* __restrict out, const float* __restrict in, uint32_t n) {
  uint32_t i = 0;
#if defined(__AVX512F__)
  for (; i + 16 <= n; i += 16) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                        _mm512_maskz_cvtps_ph(0xffff, _mm512_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
#endif
#if defined(__F16C__) && defined(__AVX__)
  for (; i + 8 <= n; i += 8) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT));
  }
#endif
  for (; i < n; ++i) out[i] = static_cast<half>(in[i]);
}

template <typename T>
inline void ToFloat(float* __restrict out, const T* __restrict in, uint32_t n) {
  if constexpr (std::is_same<T, half>::value) {
    HalfToFloat(out, in, n);
  } else {
    for (uint32_t i = 0; i < n; ++i) out[i] = static_cast<float>(in[i]);
  }
}

template <typename T>
inline void FromFloat(T* __restrict out, const float* __restrict in, uint32_t n) {
  if constexpr (std::is_same<T, half>::value) {
    FloatToHalf(out, in, n);
  } else {
    for (uint32_t i = 0; i < n; ++i) out[i] = T(in[i]);
  }
}

// Overflow detection (cheap: one pass over the results a float instruction just wrote, on their bits):
// a result with an all-ones exponent is Inf or NaN.
template <typename T>
inline bool AnyNonFinite(const T* d, uint32_t n) {
  if constexpr (std::is_same<T, float>::value) {
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t bits;
      std::memcpy(&bits, d + i, 4);
      bad |= static_cast<uint32_t>((bits & 0x7f800000u) == 0x7f800000u);
    }
    return bad != 0;
  } else if constexpr (kIsNarrowFloat<T>) {
    const uint16_t mask = std::is_same<T, half>::value ? 0x7c00 : 0x7f80;
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; ++i) {
      uint16_t bits;
      std::memcpy(&bits, d + i, 2);
      bad |= static_cast<uint32_t>((bits & mask) == mask);
    }
    return bad != 0;
  } else {
    return false;  // integers wrap; they never overflow to Inf
  }
}

template <typename T>
inline void CheckResults(const T* d, uint32_t n) {
  if (AnyNonFinite(d, n)) ReportOverflow();
}

// Chunk of elements converted to float at a time (three chunks live on the stack).
constexpr uint32_t kFloatChunk = 512;

template <typename T>
inline void CheckOperand(const LocalTensor<T>& t, int32_t count, const char* what) {
  if (count < 0) Fail("%s: negative element count %d", what, count);
  CheckLocal(t.GetPhyAddr(), static_cast<uint64_t>(count) * sizeof(T), what);
}

template <typename T, typename Op>
inline void Binary(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, int32_t count,
                   Op op, const char* what) {
  CheckOperand(dst, count, what);
  CheckOperand(src0, count, what);
  CheckOperand(src1, count, what);
  T* d = dst.GetPhyAddr();
  const T* a = src0.GetPhyAddr();
  const T* b = src1.GetPhyAddr();
  const uint32_t n = static_cast<uint32_t>(count);
  if constexpr (kIsNarrowFloat<T>) {
    float fa[kFloatChunk];
    float fb[kFloatChunk];
    for (uint32_t i = 0; i < n; i += kFloatChunk) {
      const uint32_t m = n - i < kFloatChunk ? n - i : kFloatChunk;
      ToFloat(fa, a + i, m);
      ToFloat(fb, b + i, m);
      for (uint32_t j = 0; j < m; ++j) fa[j] = op(fa[j], fb[j]);
      FromFloat(d + i, fa, m);
    }
  } else {
    for (uint32_t i = 0; i < n; ++i) d[i] = static_cast<T>(op(a[i], b[i]));
  }
  CheckResults(d, n);
}

template <typename T, typename Op>
inline void Unary(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count, Op op, const char* what) {
  CheckOperand(dst, count, what);
  CheckOperand(src, count, what);
  T* d = dst.GetPhyAddr();
  const T* a = src.GetPhyAddr();
  const uint32_t n = static_cast<uint32_t>(count);
  if constexpr (kIsNarrowFloat<T>) {
    float fa[kFloatChunk];
    for (uint32_t i = 0; i < n; i += kFloatChunk) {
      const uint32_t m = n - i < kFloatChunk ? n - i : kFloatChunk;
      ToFloat(fa, a + i, m);
      for (uint32_t j = 0; j < m; ++j) fa[j] = op(fa[j]);
      FromFloat(d + i, fa, m);
    }
  } else {
    for (uint32_t i = 0; i < n; ++i) d[i] = static_cast<T>(op(a[i]));
  }
  CheckResults(d, n);
}

// The element count of a count-form call: its argument, or with isSetMask = false the count that the
// mask register holds in counter mode (SetMaskCount + SetVectorMask; the argument is ignored), as the
// hardware API takes it. With isSetMask = true the API runs the instruction in counter mode and then
// restores normal mode and the full mask, which is the register's state after the call.
template <bool set_mask>
inline int32_t CountOf(int32_t count, const char* what) {
  if (set_mask) {
    g_state.mask_counter = false;
    g_state.vector_mask[0] = g_state.vector_mask[1] = ~0ull;
    return count;
  }
  if (!g_state.mask_counter) Fail("%s: isSetMask = false in the count form needs counter mode (SetMaskCount)", what);
  return static_cast<int32_t>(g_state.vector_mask[0]);
}

// The type a scalar operand is computed in.
template <typename T>
using ComputeType = typename std::conditional<kIsNarrowFloat<T>, float, T>::type;

}  // namespace npurt_detail

// ---- element-wise binary -------------------------------------------------------------------------------
#define NPURT_ASCENDC_BINARY(Name, expr)                                                                   \
  template <typename T, bool isSetMask = true>                                                             \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                              const int32_t& count) {                                                      \
    npurt_detail::Binary(dst, src0, src1, npurt_detail::CountOf<isSetMask>(count, #Name),                   \
                         [](auto a, auto b) { return expr; }, #Name);                                      \
  }
// The operations, X(Name, expression), one list for the count form here and the level-0 form
// (vector_level0.h).
#define NPURT_ASCENDC_BINARY_OPS(X) \
  X(Add, a + b) X(Sub, a - b) X(Mul, a * b) X(Div, a / b) X(Max, a > b ? a : b) X(Min, a < b ? a : b) X(And, a & b) X(Or, a | b)
NPURT_ASCENDC_BINARY_OPS(NPURT_ASCENDC_BINARY)
#undef NPURT_ASCENDC_BINARY

// dst = src0 * src1 + dst
template <typename T>
__aicore__ inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                                 const int32_t& count) {
  const uint32_t n = static_cast<uint32_t>(count);
  npurt_detail::CheckOperand(dst, count, "MulAddDst");
  npurt_detail::CheckOperand(src0, count, "MulAddDst");
  npurt_detail::CheckOperand(src1, count, "MulAddDst");
  for (uint32_t i = 0; i < n; ++i) {
    dst.GetPhyAddr()[i] = T(static_cast<float>(src0.GetPhyAddr()[i]) * static_cast<float>(src1.GetPhyAddr()[i]) +
                            static_cast<float>(dst.GetPhyAddr()[i]));
  }
}

// ---- tensor and scalar ---------------------------------------------------------------------------------
#define NPURT_ASCENDC_SCALAR(Name, expr)                                                                   \
  template <typename T, bool isSetMask = true>                                                             \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                        \
                              const npurt_detail::NoDeduce<T>& scalar, const int32_t& count) {             \
    const npurt_detail::ComputeType<T> s = static_cast<npurt_detail::ComputeType<T>>(scalar);              \
    npurt_detail::Unary(dst, src, npurt_detail::CountOf<isSetMask>(count, #Name), [s](auto a) { return expr; }, \
                        #Name);                                                                            \
  }
#define NPURT_ASCENDC_SCALAR_OPS(X) \
  X(Adds, a + s) X(Muls, a * s) X(Maxs, a > s ? a : s) X(Mins, a < s ? a : s) X(LeakyRelu, a >= 0 ? a : a * s)
NPURT_ASCENDC_SCALAR_OPS(NPURT_ASCENDC_SCALAR)
#undef NPURT_ASCENDC_SCALAR

// ---- unary -----------------------------------------------------------------------------------------------
#define NPURT_ASCENDC_UNARY(Name, expr)                                                                    \
  template <typename T, bool isSetMask = true>                                                             \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) { \
    npurt_detail::Unary(dst, src, npurt_detail::CountOf<isSetMask>(count, #Name), [](auto a) { return expr; }, \
                        #Name);                                                                             \
  }
#define NPURT_ASCENDC_UNARY_OPS(X)                                                                       \
  X(Exp, std::exp(a)) X(Ln, std::log(a)) X(Abs, a < 0 ? -a : a) X(Sqrt, std::sqrt(a)) X(Rsqrt, 1 / std::sqrt(a)) \
  X(Relu, a > 0 ? a : decltype(a)(0)) X(Reciprocal, 1 / a) X(Not, ~a)
NPURT_ASCENDC_UNARY_OPS(NPURT_ASCENDC_UNARY)
#undef NPURT_ASCENDC_UNARY

// ---- fill ------------------------------------------------------------------------------------------------
template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const npurt_detail::NoDeduce<T>& scalar,
                                 const int32_t& count) {
  const int32_t n = npurt_detail::CountOf<isSetMask>(count, "Duplicate");
  npurt_detail::CheckOperand(dst, n, "Duplicate");
  T* d = dst.GetPhyAddr();
  const T v = scalar;
  for (int32_t i = 0; i < n; ++i) d[i] = v;
}

}  // namespace AscendC
